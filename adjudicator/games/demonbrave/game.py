"""The DemonBrave game object registered as ``demonbrave`` (rules/demonbrave.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import reducer as R
from adjudicator.games.demonbrave import view as V
from adjudicator.games.demonbrave.config import OPTIONS
from adjudicator.games.demonbrave.events import DbMatchStarted, Event
from adjudicator.games.demonbrave.state import State
from adjudicator.protocol import Action, Context, LegalAction, Outcome, Rewind, Violation

#: A correction that makes a later event illegal is reported under this rule and code; the
#: message names the seq and the rule it now fails (DB-RWD-6).
CORRECTION_CONFLICT = ("DB-RWD-6", "CORRECTION_CONFLICT")


class DemonBrave:
    name = "demonbrave"
    title = "DemonBrave"
    rules_versions = R.RULES_VERSIONS
    options = OPTIONS
    event_type = Event
    correction_conflict = CORRECTION_CONFLICT

    def initial(self, started: DbMatchStarted, ctx: Context) -> State:
        return R.initial(started, ctx)

    def check(self, state: State, event: Action, ctx: Context) -> None:
        R.check(state, event, ctx)

    def apply(self, state: State, event: Action, ctx: Context) -> State:
        return R.apply(state, event, ctx)

    def apply_rewind(self, current: State, target: State, event: Rewind, ctx: Context) -> State:
        """DB-RWD-3: the state after a rewind is exactly the state after ``to_seq``."""
        return target

    def outcome(self, state: State) -> Outcome:
        score = R.match_score(state) if state.config.match_games > 1 else None
        if state.config.match_games > 1:
            res = R.match_result(state)
        else:
            res = state.result
        if res is None:
            return Outcome(status="in_progress", score=score)
        if res.outcome == "WIN":
            return Outcome(status="won", winner=res.winner, score=score, detail=res.reason)
        if res.outcome == "DRAW":
            return Outcome(status="drawn", score=score, detail=res.reason)
        return Outcome(status="void", score=score, detail=res.reason)

    def view(self, state: State, player: str | None = None) -> Mapping[str, Any]:
        return V.view(state, player)

    def describe(self, state: State, player: str | None = None) -> str:
        return V.describe(state, player)

    def legal(self, state: State) -> list[LegalAction]:
        return V.legal(state)

    def explain(self, state: State, query: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Which unit is stronger and why (see ``view.explain``)."""
        return V.explain(state, query)

    def read_deck(self, text: str) -> tuple[str, ...]:
        return C.read_deck(text)

    def check_deck(self, deck: Any, options: Mapping[str, Any] | None = None) -> list[Violation]:
        """Every problem of a deck list under DB-DECK-2, one ``Violation`` each (none: valid)."""
        return [Violation("DB-DECK-2", problem, "DECK_INVALID") for problem in C.deck_problems(deck)]


GAME = DemonBrave()
