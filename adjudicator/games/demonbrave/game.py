"""The DemonBrave game object, registered as ``demonbrave`` (rules/demonbrave.md)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import explain as X
from adjudicator.games.demonbrave import rules as R
from adjudicator.games.demonbrave import setup as S
from adjudicator.games.demonbrave import view as V
from adjudicator.games.demonbrave.config import Config
from adjudicator.games.demonbrave.events import PRIVATE_FIELDS, DbMatchStarted, DbRewind, Event
from adjudicator.games.demonbrave.guards import outsider
from adjudicator.games.demonbrave.match import match_result, match_score
from adjudicator.games.demonbrave.state import Result, State
from adjudicator.engine.kit import Game
from adjudicator.engine.protocol import JUDGE, Action, Context, LegalAction, Outcome, Violation


class Reason(enum.StrEnum):
    """How a DemonBrave game or match ended (DB-WIN-*, DB-RUL-21/22/30, §10)."""

    LIFE_ZERO = "life_zero"
    BOTH_LIFE_ZERO = "both_life_zero"
    FAILED_DRAW = "failed_draw"
    STALEMATE = "stalemate"
    CONCESSION = "concession"
    JUDGE = "judge"  # declare_result
    VOID = "void"  # void_game
    MATCH = "match"  # the games of a longer match


def _reason(result: Result) -> Reason:
    text = result.reason
    if result.outcome == "VOID":
        return Reason.VOID
    if text.startswith("JUDGE"):
        return Reason.JUDGE
    if text.startswith("MATCH"):
        return Reason.MATCH
    return Reason(text.lower())


_REASON_TEXT = {
    "LIFE_ZERO": "a life reached 0",
    "BOTH_LIFE_ZERO": "both lives reached 0 together",
    "FAILED_DRAW": "a draw could not be completed",
    "STALEMATE": "idle turns with both decks empty",
    "CONCESSION": "concession",
}


class DemonBrave(Game):
    name = "demonbrave"
    title = "DemonBrave"
    rules_versions = S.RULES_VERSIONS
    prefix = "DB"
    event_type = Event
    Options = Config
    Reason = Reason
    player_count = (2, 2)
    player_count_rule = ("DB-OVR-1", "ILLEGAL_ACTION")
    private_fields = PRIVATE_FIELDS
    #: a correction that makes a later event illegal is reported under this rule and code; the
    #: message names the seq and the rule it now fails (DB-RWD-6)
    correction_conflict = ("DB-RWD-6", "CORRECTION_CONFLICT")
    #: the kit refuses a rewind or a correction by anyone but the judge, in its own words (DB-RWD-2)
    rewind_rule = correct_rule = ("DB-RWD-2", "JUDGE_ONLY")

    def initial(self, started: DbMatchStarted, ctx: Context) -> State:
        return S.initial(started, ctx)

    #: the transition itself, not a method that calls it: ``game.step(state, event, ctx)`` runs
    #: once for every event folded
    step = staticmethod(R.step)

    def outcome(self, state: State) -> Outcome:
        many = state.config.match_games > 1
        score = match_score(state) if many else None
        res = match_result(state) if many else state.result
        if res is None:
            return Outcome(status="in_progress", score=score)
        status = {"WIN": "won", "DRAW": "drawn", "VOID": "void"}[res.outcome]
        return Outcome(status=status, winner=res.winner if res.outcome == "WIN" else None, score=score,  # type: ignore[arg-type]
                       reason=_reason(res).value, detail=res.reason)

    def notes(self, state: State) -> list[str]:
        """What the last event set off on its own: the battle's result, a chain entry resolved,
        the phase or turn that follows, expiries, dissolved pairs, lives (``notes.py``)."""
        return list(state.notes)

    def after_rewind(self, current: State, target: State, event: DbRewind, ctx: Context) -> State:  # type: ignore[override]
        """DB-RWD-3: the state at ``to_seq``; only its note for the table says what happened."""
        note = f"rewound: the state after seq {event.to_seq} (DB-RWD-3); what followed it is an abandoned branch"
        return msgspec.structs.replace(target, notes=(note,))

    def milestones(self, before: State, after: State) -> list[str]:
        """The result of a game, and of the match when it has several games (DB-RUL-30)."""
        out = []
        if after.match.results != before.match.results and after.match.results:
            r = after.match.results[-1]
            how = {"WIN": f"won by {r.winner}", "DRAW": "drawn", "VOID": "void: it counts for no one"}[r.outcome]
            out.append(f"game {r.game_index} {how}: {_REASON_TEXT.get(r.reason, r.reason)}")
        res = match_result(after)
        if after.config.match_games > 1 and res is not None and res != match_result(before):
            score = ", ".join(f"{n} {k}" for n, k in match_score(after).items())
            out.append(f"match {'won by ' + str(res.winner) if res.outcome == 'WIN' else 'drawn'} ({score})")
        return out

    def view(self, state: State, viewer: str | None = None) -> Mapping[str, Any]:
        return V.view(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> str:
        return V.describe(state, viewer)

    def players_of(self, state: State) -> tuple[str, str]:
        return state.names

    def legal(self, state: State) -> list[LegalAction]:
        return V.legal(state)

    def rewind_offer(self, state: State, ctx: Context) -> list[LegalAction]:
        """None from the kit: ``legal`` offers the judge's rewind and correction already, with
        ``judge_override``, within the current turn (``state.recent``, which ``revealed`` reads too)."""
        return []

    def board(self, state: State, viewer: str | None = None) -> Any:
        from adjudicator.games.demonbrave.board import board; return board(state, viewer)  # noqa: E702

    def boards(self, state: State, viewers: Sequence[str | None]) -> list[Any]:
        from adjudicator.games.demonbrave.board import boards; return boards(state, viewers)  # noqa: E702

    def explain(self, state: State, query: Mapping[str, Any]) -> dict[str, Any]:
        """Which unit is stronger and why (see ``view.explain``)."""
        return X.explain(state, query)

    def read_deck(self, text: str) -> tuple[str, ...]:
        return C.read_deck(text)

    def check_deck(self, deck: Any, options: Config | None = None) -> list[Violation]:
        """Every problem of a deck list under DB-DECK-2, one ``Violation`` each (none: valid)."""
        return [Violation("DB-DECK-2", problem, "DECK_INVALID") for problem in C.deck_problems(deck)]

    def check_author(self, event: Action, players: Sequence[str]) -> None:
        """Someone outside the match is refused under the DB-ACT rule of the event's type (§5.4),
        or, for the judge's events of §8, as JUDGE_ONLY (DB-RWD-2)."""
        if event.by != JUDGE and event.by not in players:
            raise outsider(event, players)

    def revealed(self, seq: int, type_: str, by: str, fields: Mapping[str, Any], name: str, state: State) -> bool:
        """A player's rule-card selection is the other's to see once both are recorded (DB-HID-1,
        simultaneous reveal), at once under ``open_sequential`` (DB-RUL-14), and always when the
        judge entered the shared pool (DB-ACT-3). An earlier game's selection was revealed when that
        game's setup closed: only the current setup's may still be hidden."""
        if type_ != "rule_cards_selected":
            return False
        if (by == JUDGE and fields.get("player") is None) or state.config.rule_card_reveal == "open_sequential":
            return True
        if all(p.selected for p in state.players):
            return True
        return not (state.status == "SETUP" and state.recent and seq >= state.recent[0])

    def owner_of(self, type_: str, by: str, fields: Mapping[str, Any], name: str, players: Sequence[str]) -> str | None:
        """``opening_hands_drawn``'s ``p1_cards`` belong to the first seat, ``p2_cards`` to the second."""
        if name in ("p1_cards", "p2_cards") and len(players) == 2:
            return players[int(name[1]) - 1]
        return super().owner_of(type_, by, fields, name, players)


GAME = DemonBrave()
