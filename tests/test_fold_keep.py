"""States given up and computed again (``adjudicator.engine.fold``, ``KEEP``) are the states the fold
had: every golden match of every game, folded keeping every state and keeping one in three,
gives the same history (the state after every stored event, abandoned ones included), the same
effective history and the same outcome after every event."""

from __future__ import annotations

import gc

import pytest

from adjudicator.engine import fold as fold_module
from adjudicator.service import MatchService, MemoryStore
from tests.gamekit import FIXTURES, real_games

GOLDEN = sorted(p for g in real_games() for p in (FIXTURES / g / "golden").glob("*.jsonl"))


def folded(path, keep, monkeypatch):
    monkeypatch.setattr(fold_module, "KEEP", keep)
    report = MatchService(MemoryStore(), clock=lambda: "2026-01-01T00:00:00Z").check_lines(path.read_text(encoding="utf-8").splitlines())
    return report.match


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_match_keeping_one_state_in_three_is_the_match_keeping_all(path, monkeypatch):
    every = folded(path, 1, monkeypatch)
    some = folded(path, 3, monkeypatch)
    if every is None:
        assert some is None
        return
    assert all(e.state is not fold_module.GONE for e in every.fold.entries)
    assert some.fold.line_states() == every.fold.line_states()
    assert list(some.fold.history) == list(every.fold.history)
    for seq in every.fold.history:
        assert some.fold.state_at(seq) == every.fold.state_at(seq), seq
        assert some.fold.outcome(seq) == every.fold.outcome(seq), seq


@pytest.mark.parametrize("game", real_games())
def test_the_states_and_entries_a_fold_keeps_are_not_walked_by_the_collector(game):
    """A fold keeps an entry an event and one state in ``KEEP``: both are trees of values with no
    cycle through them, declared ``gc=False`` so that a full collection does not walk them all."""
    path = min((FIXTURES / game / "golden").glob("*.jsonl"))
    match = MatchService(MemoryStore(), clock=lambda: "2026-01-01T00:00:00Z").check_lines(
        path.read_text(encoding="utf-8").splitlines()).match
    assert match is not None and match.fold.entries
    assert not any(gc.is_tracked(e) for e in match.fold.entries)
    assert not gc.is_tracked(match.fold.state)
