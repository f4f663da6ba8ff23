"""A table for E2Drive rule tests: a fold fed line by line, with the refusal of one line."""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event
from adjudicator.engine.protocol import Violation
from tests.e2drive.builder import catalog, ev, started
from tests.e2drive.golden_kit import EXTRA

GAME = registry.get("e2drive")


class Table:
    def __init__(self, *lines: dict[str, Any]):
        self.fold = Fold(GAME, "t")
        for line in lines:
            self.enter(line)

    def enter(self, line: dict[str, Any]) -> Any:
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        event = decode_event(GAME, line["type"], line["by"], fields)
        return self.fold.advance(event, self.fold.head + 1)

    def refuse(self, line: dict[str, Any]) -> Violation:
        """The line must be refused and change nothing; returns the violation."""
        before = msgspec.msgpack.encode(self.fold.state)
        head = self.fold.head
        try:
            self.enter(line)
        except Violation as v:
            assert self.fold.head == head and msgspec.msgpack.encode(self.fold.state) == before
            return v
        raise AssertionError(f"{line['type']} was accepted")

    @property
    def state(self):
        return self.fold.state

    @property
    def g(self):
        return self.fold.state.game

    def view(self, viewer: str | None = None) -> dict:
        return msgspec.to_builtins(GAME.view(self.state, viewer))

    def sv(self, ref: str) -> dict:
        return self.view()["servants"][ref]

    def pl(self, seat: str) -> dict:
        return self.view()["player"][seat]


def table(p1=None, p2=None, *, servants: dict | None = None, options: dict | None = None, turn: bool = True) -> Table:
    """A match of P1 and P2, its game started and (by default) turn 1 begun."""
    lines = [started(p1, p2, options=options, cat=catalog({**EXTRA, **(servants or {})})), ev("game_started")]
    if turn:
        lines.append(ev("start_turn"))
    return Table(*lines)


PAWNS = ["F-Pawn-1", "F-Pawn-2"]
