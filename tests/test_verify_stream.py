"""``verify`` reads, checks and folds a match ``VERIFY_BATCH`` events at a time, its fold letting go
of the past after each batch, and re-adjudicates the rejected attempts in the same pass: it must
find what checking the whole match at once finds.

Every golden match of every game is entered action by action (its refused lines recorded as
rejected attempts), with a snapshot every 3 events, and verified with batches of 2 events: the
state, the outcome and the attempts checked must be those of the whole match folded at once
(``load``, ``check_snapshot``, ``recheck_rejections``); a rewind or a correction reaching back
past a batch makes the fold read the events before it again.
"""

from __future__ import annotations

import sqlite3

import msgspec
import pytest

from adjudicator import service as service_module
from adjudicator.engine import snapshot
from adjudicator.engine.fold import Fold
from adjudicator.service import IntegrityError, MatchService
from events.sqlite import SQLiteStore
from tests.test_snapshots import CLOCK, GOLDEN, enter, lines_of


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(service_module, "VERIFY_BATCH", 2)
    monkeypatch.setattr(snapshot, "EVERY", 3)


def entered(path, tmp_path) -> tuple[MatchService, str]:
    store_path = str(tmp_path / "s.sqlite3")
    svc = MatchService(SQLiteStore(store_path), clock=lambda: CLOCK, cache_size=0)
    enter(svc, lines_of(path))
    return svc, store_path


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_match_verified_in_batches_is_what_the_whole_log_folds_to(path, tmp_path, small_batches):
    svc, _ = entered(path, tmp_path)
    whole = svc.load("m")
    assert svc.check_snapshot(whole) is (svc.store.snapshot("m") is not None)
    expected_attempts = svc.recheck_rejections(whole)
    assert expected_attempts == len(svc.store.rejections("m"))
    (result,) = svc.verify_each(["m"])
    assert result.ok and result.events == whole.head and result.rejections_rechecked == expected_attempts
    match = svc.verify("m")
    assert match.head == whole.head and match.state == whole.state and match.outcome() == whole.outcome()
    if match.fold.resumed_at:  # let go of the past: it holds the events since, no more
        assert [e.seq for e in match.events] == list(range(match.fold.resumed_at + 1, match.head + 1))
    else:
        assert match.events == whole.events


def plain_golden() -> list:
    return [p for p in GOLDEN if len(lines_of(p)) > 8 and '"rewind"' not in p.read_text() and '"correct"' not in p.read_text()]


def test_a_long_plain_match_is_verified_holding_one_batch(tmp_path, small_batches):
    svc, _ = entered(plain_golden()[0], tmp_path)
    seen = []
    real = Fold.compacted

    def compacted(self):
        seen.append(self.head)
        return real(self)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Fold, "compacted", compacted)
        match = svc.verify("m")
    assert match.fold.resumed_at > 0 and len(match.events) <= 2
    assert len(seen) >= 3 and seen == sorted(seen)


@pytest.mark.parametrize("column, value", [("payload", '{"count":9}'), ("prev", "0" * 64), ("hash", "f" * 64)])
def test_an_altered_row_in_a_later_batch_fails_verification(tmp_path, small_batches, column, value):
    svc, path = entered(plain_golden()[0], tmp_path)
    head = svc.store.head("m")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE events SET {column} = ? WHERE match_id = 'm' AND seq = ?", (value, head - 1))
    with pytest.raises(IntegrityError):
        svc.verify("m")
    (result,) = svc.verify_each(["m"])
    assert not result.ok


def test_a_row_removed_from_a_later_batch_fails_verification(tmp_path, small_batches):
    svc, path = entered(plain_golden()[0], tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM events WHERE match_id = 'm' AND seq = 5")
    with pytest.raises(IntegrityError, match="expected seq 5, found 6"):
        svc.verify("m")


def test_a_snapshot_of_another_state_fails_verification_in_batches(tmp_path, small_batches):
    svc, _ = entered(plain_golden()[0], tmp_path)
    seq, data = svc.store.snapshot("m")
    kept = msgspec.msgpack.decode(data, type=snapshot.Snapshot)
    altered = msgspec.structs.replace(kept, players=tuple(reversed(kept.players)))
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(altered))
    with pytest.raises(IntegrityError, match="does not match the state the log folds to"):
        svc.verify("m")
