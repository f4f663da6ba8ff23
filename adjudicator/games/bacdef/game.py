"""The BACDEF game object, registered as ``bacdef`` (rules/bacdef.md)."""

from __future__ import annotations

import enum
from typing import Any

from adjudicator.engine.decklist import entries
from adjudicator.games.bacdef import events as E
from adjudicator.games.bacdef import rules as R
from adjudicator.games.bacdef import view as V
from adjudicator.games.bacdef.config import Options
from adjudicator.games.bacdef.deck import deck_problems
from adjudicator.games.bacdef.legal import legal
from adjudicator.games.bacdef.rewind import apply_rewind
from adjudicator.games.bacdef.state import State
from adjudicator.engine.kit import Game
from adjudicator.engine.protocol import JUDGE, Context, LegalAction, Outcome, Violation

RULES_VERSION = "bacdef-2026.1"


class Reason(enum.StrEnum):
    """How a BACDEF match ended (BAC-OVR-7, BAC-RUL-26)."""

    TWO_SETS = "two_sets"  # a player won two sets
    VOID_LIMIT = "void_limit"  # the void-set limit ended the match
    SLOTS_USED = "slots_used"  # void sets used up the three set slots


_REASON_TEXT = {
    Reason.TWO_SETS: "two sets won",
    Reason.VOID_LIMIT: "the void-set limit was reached",
    Reason.SLOTS_USED: "the three set slots are used",
}


class Bacdef(Game):
    name = "bacdef"
    title = "BACDEF (バックデフ)"
    rules_versions = (RULES_VERSION,)
    prefix = "BAC"
    event_type = E.Event
    Options = Options
    Reason = Reason
    player_count = (2, 2)
    player_count_rule = ("BAC-OVR-1", "E_CONFIG")
    author_rule = ("BAC-ACT-1", "E_NOT_ACTOR")
    #: no kit gate: who may rewind is a rule of the kind of rewind, checked after the match's and
    #: the turn's (BAC-ACT-19, BAC-ACT-21), and a correction is refused to all (BAC-REW-14)
    rewind_rule = correct_rule = None
    private_fields = E.PRIVATE_FIELDS

    def initial(self, started: E.BacMatchStarted, ctx: Context) -> State:
        if started.by != JUDGE:  # BAC-ACT-1: seq 1 is entered by the judge
            raise Violation("BAC-ACT-1", f"only the judge starts a match; {started.by} tried", "E_NOT_ACTOR")
        return R.start(started, self.decode_options(started.options), ctx.seq)

    #: the transition itself, not a method that calls it: ``game.step(state, event, ctx)`` runs
    #: once for every event folded
    step = staticmethod(R.step)

    def rewind_offer(self, state: State, ctx: Context) -> list[LegalAction]:
        return []  # ``legal`` offers the judge's rewinds with their cause (BAC-REW-3, BAC-REW-11)

    def after_rewind(self, current: State, target: State, event: E.BacRewind, ctx: Context) -> State:
        return apply_rewind(current, target, event, ctx)

    def undo_fields(self, state: State, requester: str, confirmer: str) -> dict[str, Any]:
        return {"cause": "judge_error"}  # BAC-REW-12: an undo is a judge-error rewind

    def outcome(self, state: State) -> Outcome:
        score = dict(state.set_wins)
        if state.status == "in_progress":
            return Outcome(status="in_progress", score=score)
        if max(score.values()) >= 2:
            reason = Reason.TWO_SETS
        elif state.options.void_set_limit is not None and state.void_sets >= state.options.void_set_limit:
            reason = Reason.VOID_LIMIT
        else:
            reason = Reason.SLOTS_USED
        return Outcome(status=state.status, winner=state.match_winner, score=score, reason=reason.value,
                       detail=_REASON_TEXT[reason])

    def view(self, state: State, viewer: str | None = None) -> dict[str, Any]:
        return V.view(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> str:
        return V.describe(state, viewer)

    def players_of(self, state: State) -> tuple[str, ...]:
        return tuple(state.players)

    def legal(self, state: State) -> list[LegalAction]:
        return legal(state)

    def board(self, state: State, viewer: str | None = None) -> Any:
        from adjudicator.games.bacdef.board import board; return board(state, viewer)  # noqa: E702

    def milestones(self, before: State, after: State) -> list[str]:
        """Set results and the match result an event brought, for the history."""
        out = []
        for r in after.set_results[len(before.set_results):]:
            head = f"set {r.set_no}: won by {r.winner}" if r.outcome == "win" else f"set {r.set_no}: void"
            out.append(f"{head} — {r.reason}; match {V.score_line(after)}")
        if after.status != before.status and after.status != "in_progress":
            out.append(f"match {after.status}" + (f" by {after.match_winner}" if after.match_winner else "") + f" ({V.score_line(after)})")
        return out

    def notes(self, state: State) -> list[str]:
        """What the last event set off automatically (BAC-GEN-3)."""
        t = state.set.turn if state.set is not None else None
        if t is None:
            return []
        return list(t.notes) + V.waiting_line(state)

    # -- decks ------------------------------------------------------------------------------------
    def read_deck(self, text: str) -> list[str]:
        """A deck file: 7 letters, as a JSON list or separated by spaces, commas or lines."""
        return [x.upper() for x in entries(text, "7 letters (A-F)")]

    def check_deck(self, deck: list[str], options: Options | None = None) -> list[Violation]:
        return deck_problems(deck, options or Options())


GAME = Bacdef()
