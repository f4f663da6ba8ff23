"""``MatchService.verify_each`` spreads a store's matches over processes when the work is large
enough; the results are those of verifying the matches one after the other, in the same order,
an altered match included."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicator import service as service_module
from adjudicator.service import MatchService, open_store
from tests.gamekit import FIXTURES

def clean_matches(svc: MatchService, count: int) -> list[str]:
    """Import ``count`` recorded matches that adjudicate with no rejection."""
    ids = []
    for f in sorted(FIXTURES.glob("*/golden/*.jsonl")):
        lines = [x for x in f.read_text(encoding="utf-8").splitlines() if x.strip()]
        if len(ids) < count and not svc.check_lines(lines).rejections:
            ids.append(svc.import_lines(lines, match_id=f"m{len(ids)}").match_id)
    return ids


def test_matches_verified_in_processes_give_what_one_process_gives(tmp_path, monkeypatch):
    path = str(tmp_path / "store.sqlite3")
    svc = MatchService(open_store(path))
    ids = clean_matches(svc, 4)
    assert len(ids) >= 2
    svc.store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE events SET recorded_at = 'x' WHERE match_id = ? AND seq = 2", (ids[1],))
    db.commit()
    db.close()

    reader = MatchService(open_store(path, write=False))
    monkeypatch.setattr(service_module, "PARALLEL_EVENTS", 10**9)
    one_by_one = reader.verify_each(ids)
    monkeypatch.setattr(service_module, "PARALLEL_EVENTS", 0)
    seen = []
    spread = reader.verify_each(ids, progress=lambda done, total: seen.append((done, total)))
    assert spread == one_by_one
    assert [r.ok for r in spread] == [True, False] + [True] * (len(ids) - 2)
    assert spread[1].error.startswith(f"integrity failure in {ids[1]} at seq 2")
    assert seen[-1] == (len(ids), len(ids))


class _Failing:
    """An ``observe`` that fails on one match, wherever that match is verified."""

    def __init__(self, bad: str):
        self.bad = bad

    def __call__(self, store, match_id):
        if match_id == self.bad:
            raise ValueError(f"cannot watch {match_id}")
        return _Quiet()


class _Quiet:
    def feed(self, events):
        pass

    def finish(self):
        return None


def test_an_error_in_any_process_is_raised_where_the_matches_were_asked_for(tmp_path, monkeypatch):
    path = str(tmp_path / "store.sqlite3")
    svc = MatchService(open_store(path))
    ids = clean_matches(svc, 4)
    svc.store.close()
    reader = MatchService(open_store(path, write=False))
    monkeypatch.setattr(service_module, "PARALLEL_EVENTS", 0)
    monkeypatch.setattr(service_module, "usable_cores", lambda: 2)
    for bad in (ids[0], ids[-1]):  # whichever process takes it
        with pytest.raises(ValueError, match=f"cannot watch {bad}"):
            reader.verify_each(ids, observe=_Failing(bad))
    assert [r.ok for r in reader.verify_each(ids, observe=_Failing("none"))] == [True] * len(ids)
