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
from adjudicator.games.bacdef.state import SHARED_DICTS, State
from adjudicator.service import MatchService
from bench import gen
from events.memory import MemoryStore

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "bacdef" / "golden"



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
    """Paths where ``a`` and ``b`` hold the very same mutable object, but for the dicts shared on
    purpose (``SHARED_DICTS``: replaced whole, never changed in place; docs/games/bacdef.md)."""
    if mutable(a) and a is b:
        return [path]
    if isinstance(a, msgspec.Struct):
        fields = [f for f in a.__struct_fields__ if f not in SHARED_DICTS]
        return [p for f in fields for p in shared_mutable(getattr(a, f), getattr(b, f), f"{path}.{f}")]
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
        shared = shared_mutable(s, c, "state")
        assert not shared, f"the copy shares mutable parts with its original: {shared}"


@pytest.mark.parametrize("source", ["golden", "random"])
def test_a_state_once_returned_never_changes(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The dicts of ``SHARED_DICTS`` and the tuples are shared between a state and the states made
    from it: a later event that changed one in place would change the earlier states. Every state
    ``step`` returns is kept with its encoding, and still encodes the same once the matches end."""
    from adjudicator.games.bacdef.game import Bacdef

    kept: list[tuple[State, bytes]] = []
    step = Bacdef.step  # the transition itself, a function of (state, event, ctx)

    def keeping(state: State, event: Any, ctx: Any) -> State:
        new = step(state, event, ctx)
        kept.append((new, msgspec.msgpack.encode(new)))
        return new

    monkeypatch.setattr(Bacdef, "step", staticmethod(keeping))
    states = golden_states() if source == "golden" else random_states()
    assert states and kept
    changed = [n for n, (s, before) in enumerate(kept) if msgspec.msgpack.encode(s) != before]
    assert not changed, f"{len(changed)} states changed after they were returned, the first at step {changed[0]}"
