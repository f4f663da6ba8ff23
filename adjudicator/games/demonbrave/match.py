"""The match around the games (DB-OVR-7, DB-RUL-30): the score and, once decided, the result."""

from __future__ import annotations

from adjudicator.games.demonbrave.state import Result, State


def match_score(state: State) -> dict[str, int]:
    return {n: sum(1 for r in state.match.results if r.outcome == "WIN" and r.winner == n) for n in state.names}


def match_result(state: State) -> Result | None:
    """The match result once decided: with one game, that game's result."""
    n = state.config.match_games
    played = [r for r in state.match.results if r.outcome != "VOID"]
    if n == 1:
        if not played:
            return None
        r = played[-1]
        return Result(outcome=r.outcome, winner=r.winner, reason=r.reason)
    score = match_score(state)
    a, b = state.names
    remaining = n - len(played)
    for me, other in ((a, b), (b, a)):
        if score[me] > score[other] + remaining:
            return Result(outcome="WIN", winner=me, reason=f"MATCH {score[me]}-{score[other]}")
    if remaining <= 0:
        return Result(outcome="DRAW", reason=f"MATCH {score[a]}-{score[b]}")
    return None
