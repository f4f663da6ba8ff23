"""Nim with one more judge's event, so that corrections can stick in the spine tests.

In plain nim every take flips the turn, so a correction that inserts a take always clashes with
the next take (or is cut off by a later rewind). ``adjust`` is the judge putting stones back on
the pile or taking them off (a miscount noticed later); it does not move the turn, so inserting
it before a later event can hold, or can make a later take illegal (``NIM-TAKE-2``). The state
also counts the corrections: ``step`` of a correction on the corrected history's last state.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Union

import msgspec

from adjudicator.engine import registry
from adjudicator.engine.protocol import JUDGE, Action, Context, Correct, Violation
from tests.toygame import Nim, NimCorrect, NimRewind, NimStarted, State, Take


class Adjust(Action, tag="adjust"):
    delta: int


class XState(State, frozen=True):
    corrections: int = 0


class NimX(Nim):
    name = "nimx"
    title = "Nim with judge's adjustments (test game)"
    event_type = Union[NimStarted, Take, NimRewind, NimCorrect, Adjust]

    def initial(self, started: NimStarted, ctx: Context) -> XState:
        base = super().initial(started, ctx)
        return XState(players=base.players, pile=base.pile)

    def check(self, state: State, event: Action, ctx: Context) -> None:
        if not isinstance(event, Adjust):
            return super().check(state, event, ctx)
        if event.by != JUDGE:
            raise Violation("NIM-JDG-1", "only the judge may adjust")
        if state.winner is not None:
            raise Violation("NIM-END-1", f"the game is over: {state.winner} took the last stone")
        if state.pile + event.delta < 1:
            raise Violation("NIMX-ADJ-1", f"the pile has {state.pile} stones; it cannot change by {event.delta}")

    def apply(self, state: State, event: Action, ctx: Context) -> State:
        if isinstance(event, Correct):
            return msgspec.structs.replace(state, corrections=state.corrections + 1)
        if isinstance(event, Adjust):
            return msgspec.structs.replace(state, pile=state.pile + event.delta)
        return super().apply(state, event, ctx)


GAME = NimX()


@contextmanager
def registered() -> Iterator[NimX]:
    """``nimx`` in the game registry while the block runs. The registry is global and other
    tests list the games it knows, so it is taken out again afterwards."""
    known = "nimx" in registry.names()
    registry.register("nimx", "tests.spinegame:GAME")
    try:
        yield GAME
    finally:
        if not known:
            registry._GAMES.pop("nimx", None)
            registry._loaded.pop("nimx", None)
