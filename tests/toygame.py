"""A tiny game used to test the spine apart from any real chapter: two players take 1-3 stones
from a pile in turn; whoever takes the last stone wins. The judge may rewind to any earlier
effective event and may correct (insert) any take.
"""

from __future__ import annotations

import enum
from typing import Annotated, Union

import msgspec

from adjudicator.engine.kit import Game, integer, one, option
from adjudicator.engine.protocol import (
    JUDGE,
    Action,
    Context,
    Correct,
    LegalAction,
    MatchStarted,
    Outcome,
    Rewind,
    Violation,
)


class NimStarted(MatchStarted, tag="match_started"):
    pass


class Take(Action, tag="take"):
    player: str
    count: int


class NimRewind(Rewind, tag="rewind"):
    pass


class NimCorrect(Correct, tag="correct"):
    pass


class State(msgspec.Struct, frozen=True):
    players: tuple[str, str]
    pile: int
    turn: int = 0  # index of the player to move
    taken: tuple[int, int] = (0, 0)
    rewinds: int = 0
    winner: str | None = None


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pile: Annotated[int, option("NIM-SET-1", "int >= 1")] = 10


class Reason(enum.StrEnum):
    LAST_STONE = "last_stone"


class Nim(Game):
    name = "nim"
    title = "Nim (test game)"
    rules_versions = ("1",)
    prefix = "NIM"
    event_type = Union[NimStarted, Take, NimRewind, NimCorrect]
    Options = Options
    Reason = Reason
    player_count_rule = ("NIM-SET-1", None)
    rewind_rule = correct_rule = ("NIM-JDG-1", None)  # the kit's gate: only the judge rewinds or corrects

    def judge_only_text(self, event: Action) -> str:
        return f"only the judge may {type(event).__struct_config__.tag}"

    def rewind_offer(self, state: State, ctx: Context) -> list[LegalAction]:
        return []  # the spine's tests pin ``adj legal`` to the table's actions: the judge's rewind is entered, not offered

    def initial(self, started: NimStarted, ctx: Context) -> State:
        pile = started.options.get("pile", 10)
        if not isinstance(pile, int) or pile < 1:
            raise Violation("NIM-SET-1", f"pile must be a whole number of at least 1, not {pile!r}")
        return State(players=tuple(started.players), pile=pile)  # type: ignore[arg-type]

    def step(self, state: State, event: Action, ctx: Context) -> State:
        self.check(state, event, ctx)
        if isinstance(event, Rewind):  # the gate only: the state after it is after_rewind's
            return state
        return self.apply(state, event, ctx)

    def check(self, state: State, event: Action, ctx: Context) -> None:
        if isinstance(event, (Rewind, Correct)):  # the kit's gate has checked the author
            return
        assert isinstance(event, Take)
        if state.winner is not None:
            raise Violation("NIM-END-1", f"the game is over: {state.winner} took the last stone")
        mover = state.players[state.turn]
        if event.player != mover:
            raise Violation("NIM-TURN-1", f"it is {mover}'s turn, not {event.player}'s")
        if event.by not in (event.player, JUDGE):
            raise Violation("NIM-TURN-2", f"{event.by} cannot take for {event.player}")
        if not 1 <= event.count <= 3:
            raise Violation("NIM-TAKE-1", f"{event.player} may take 1 to 3 stones, not {event.count}")
        if event.count > state.pile:
            raise Violation("NIM-TAKE-2", f"only {state.pile} stones remain; {event.player} tried to take {event.count}")

    def apply(self, state: State, event: Action, ctx: Context) -> State:
        if isinstance(event, Correct):
            return state
        assert isinstance(event, Take)
        taken = list(state.taken)
        taken[state.turn] += event.count
        pile = state.pile - event.count
        return msgspec.structs.replace(
            state,
            pile=pile,
            turn=1 - state.turn,
            taken=tuple(taken),
            winner=event.player if pile == 0 else None,
        )

    def after_rewind(self, current: State, target: State, event: Rewind, ctx: Context) -> State:
        return msgspec.structs.replace(target, rewinds=current.rewinds + 1)

    def outcome(self, state: State) -> Outcome:
        if state.winner:
            return Outcome(status="won", winner=state.winner, reason=Reason.LAST_STONE.value)
        return Outcome(status="in_progress")

    def view(self, state: State, player: str | None = None) -> dict:
        return msgspec.to_builtins(state)

    def describe(self, state: State, player: str | None = None) -> str:
        return f"pile {state.pile}; {state.players[state.turn]} to move"

    def players_of(self, state: State) -> tuple[str, str]:
        return state.players

    def legal(self, state: State) -> list[LegalAction]:
        if state.winner:
            return []
        mover = state.players[state.turn]
        return [LegalAction(who=mover, type="take", fields=f"player={mover} count=<1-{min(3, state.pile)}>",
                            choices={"player": one(mover), "count": integer(1, min(3, state.pile))})]


GAME = Nim()
