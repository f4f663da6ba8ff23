"""Replaying a golden match file the way ``adj check`` does, with helpers to read the figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave.ranking import rank_unit
from adjudicator.games.demonbrave.state import State
from adjudicator.service import MatchService
from events.memory import MemoryStore

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave" / "golden"


class Replay:
    def __init__(self, name: str):
        self.path = FIXTURES / f"{name}.jsonl"
        text = self.path.read_text(encoding="utf-8").splitlines()
        self.lines: list[dict[str, Any]] = [json.loads(line) for line in text if line.strip()]
        self.report = MatchService(MemoryStore()).check_lines(text)
        assert self.report.match is not None
        self.fold = self.report.match.fold
        self.seq_of: dict[int, int] = {}
        seq = 0
        for v in self.report.verdicts:
            if v.accepted:
                seq += 1
            self.seq_of[v.line] = seq  # a refused line: the state before it

    # -- verdicts ----------------------------------------------------------------------------
    def rejections(self) -> list[tuple[str, str | None, str | None]]:
        return [(v.type, v.rule, v.code) for v in self.report.verdicts if not v.accepted]

    def rejection_at(self, line: int):
        v = self.report.verdicts[line - 1]
        assert v.line == line
        return None if v.accepted else (v.rule, v.code, v.message)

    def find(self, type_: str, start: int = 1, **fields: Any) -> int:
        """The number of the first line at or after ``start`` of this type with these fields."""
        for no, line in enumerate(self.lines, 1):
            if no >= start and line["type"] == type_ and all(line.get(k) == v for k, v in fields.items()):
                return no
        raise AssertionError(f"no {type_} {fields} line from line {start} in {self.path.name}")

    # -- states ------------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.report.match.state  # type: ignore[union-attr]

    def after(self, line: int) -> State:
        """The state right after ``line`` (for a refused line: the unchanged state)."""
        return self.fold.history[self.seq_of[line]]

    @property
    def outcome(self):
        return GAME.outcome(self.state)


def field(state: State, who: str) -> set[str]:
    """A field as the chapter writes it: singles by card, pairs as ``PAIR-n[cards]``."""
    return {f"{u.unit_id}[{' '.join(u.cards)}]" if u.is_pair else u.unit_id for u in state.player(who).field}


def trash(state: State, who: str) -> list[str]:
    return list(state.player(who).trash)


def rank(state: State, who: str, unit_id: str) -> tuple[str, tuple[int, ...]]:
    u = state.player(who).unit(unit_id)
    assert u is not None, f"{who} has no unit {unit_id}"
    r = rank_unit(state, who, u)
    return r.category, r.key
