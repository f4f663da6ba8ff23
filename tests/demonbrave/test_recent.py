"""``recent`` (the turn's effective seqs, for the rewinds ``legal`` offers) is carried over from
the state before when that state is the last effective event's in this turn, and read from the
effective history otherwise. Replayed with the scan at every event instead, every golden match
(rewinds and corrections among them) and a stretch of random play give the same states."""

from __future__ import annotations

import json
from bisect import bisect_left

import pytest

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave import rules as R
from adjudicator.engine.protocol import Malformed, Violation
from tests.gamekit import FIXTURES

CASES = sorted((FIXTURES / "demonbrave" / "golden").glob("*.jsonl"))


def _recent_scan(before, after, ctx):
    """The list read from the effective history at every event."""
    if after.turn_start_seq != before.turn_start_seq:
        return (ctx.seq,)
    eff = list(ctx.effective)
    return tuple(eff[bisect_left(eff, after.turn_start_seq):]) + (ctx.seq,)


def _replay(lines: list[dict]) -> Fold:
    fold = Fold(GAME, "t")
    for line in lines:
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        try:
            fold.advance(decode_event(GAME, line["type"], line["by"], fields), fold.head + 1)
        except (Violation, Malformed):
            pass  # a refused line changes nothing
    return fold


def _both(lines: list[dict], monkeypatch: pytest.MonkeyPatch) -> tuple[Fold, Fold]:
    carried = _replay(lines)
    with monkeypatch.context() as m:
        m.setattr(R, "_recent", _recent_scan)
        scanned = _replay(lines)
    return carried, scanned


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_recent_as_scanned_in_golden_matches(path, monkeypatch):
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    carried, scanned = _both(lines, monkeypatch)
    assert carried.history == scanned.history
    assert [e.state for e in carried.entries] == [e.state for e in scanned.entries]


def test_recent_as_scanned_in_random_play(monkeypatch):
    from bench import gen

    for lines in gen.matches("demonbrave", 1500):
        lines = list(lines)
        carried, scanned = _both(lines, monkeypatch)
        assert len(carried.history) == len(lines)  # random play offers only what is accepted
        assert carried.history == scanned.history
