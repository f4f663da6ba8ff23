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


def chooser(state: State) -> tuple[str, int] | None:
    """With ``next_game_first_player = loser_chooses``, the loser of the last game played to its
    end and that game's index, when it was won (DB-RUL-30); None for game 1 or after a draw (a
    void game is replaced and looked past)."""
    if state.config.next_game_first_player != "loser_chooses":
        return None
    last = next((r for r in reversed(state.match.results) if r.outcome != "VOID"), None)
    if last is None or last.outcome != "WIN" or last.winner is None:
        return None
    return state.opponent(last.winner), last.game_index
