"""The working copy (``state.clone``): equal to its original, and sharing nothing mutable with it.

A transition changes its working copy in place, and the fold keeps every state it returned, so a
list, dict or mutable Struct shared between a state and its copy would let one event change an
earlier state. The copy is written out field by field; these tests walk every state of the golden
matches and of seeded random play and fail on a field the copy forgot.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.games.bacdef import clone
from adjudicator.games.bacdef.state import State
from adjudicator.service import MatchService
from bench import gen
from events.memory import MemoryStore

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "bacdef" / "golden"

#: State fields shared on purpose: dicts replaced whole, never changed in place (docs/games/bacdef.md)
SHARED = {"catalog", "decks_set1"}


def states_of(lines: list[str]) -> list[State]:
    report = MatchService(MemoryStore()).check_lines(lines)
    fold = report.match.fold
    return [fold.state_at(seq) for seq in fold.effective_order()]


def golden_states() -> list[State]:
    out: list[State] = []
    for path in sorted(GOLDEN.glob("*.jsonl")):
        out += states_of(path.read_text(encoding="utf-8").splitlines())
    return out


def random_states(matches: int = 6) -> list[State]:
    import json

    out: list[State] = []
    for k in range(matches):
        out += states_of([json.dumps(line) for line in gen.random_match("bacdef", 100 + k, 2000)])
    return out


def mutable(x: Any) -> bool:
    if isinstance(x, (list, dict, set)):
        return True
    return isinstance(x, msgspec.Struct) and not type(x).__struct_config__.frozen


def shared_mutable(a: Any, b: Any, path: str) -> list[str]:
    """Paths where ``a`` and ``b`` hold the very same mutable object."""
    if mutable(a) and a is b:
        return [path]
    if isinstance(a, msgspec.Struct):
        return [p for f in a.__struct_fields__ for p in shared_mutable(getattr(a, f), getattr(b, f), f"{path}.{f}")]
    if isinstance(a, dict):
        return [p for k in a for p in shared_mutable(a[k], b[k], f"{path}[{k!r}]")]
    if isinstance(a, (list, tuple)):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in shared_mutable(x, y, f"{path}[{i}]")]
    return []


@pytest.mark.parametrize("source", ["golden", "random"])
def test_clone_is_an_equal_copy_sharing_nothing_mutable(source: str) -> None:
    states = golden_states() if source == "golden" else random_states()
    assert states
    for s in states:
        c = clone(s)
        assert c == s
        assert msgspec.msgpack.encode(c) == msgspec.msgpack.encode(s)
        top = [f for f in s.__struct_fields__ if f not in SHARED]
        shared = [p for f in top for p in shared_mutable(getattr(s, f), getattr(c, f), f"state.{f}")]
        assert not shared, f"the copy shares mutable parts with its original: {shared}"
