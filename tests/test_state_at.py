"""`adj state --at SEQ` folds the match through SEQ only (issue: a look at the past must not cost
the whole match), and reads which rewind abandoned SEQ from the log's structure alone."""

from __future__ import annotations

import json

import msgspec
import pytest

from adjudicator.presentation.render import abandoned_by
from adjudicator.service import MatchService, MemoryStore, walk_effective
from tests.gamekit import FIXTURES
from tests.test_cli import Adj, fails, ok

RECORDED = sorted(p for p in FIXTURES.glob("*/**/*.jsonl") if p.name != "conformance.jsonl")


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_structure_of_the_log_gives_the_folds_branches(path):
    report = MatchService(MemoryStore()).check_lines(path.read_text(encoding="utf-8").splitlines())
    match = report.match
    effective, gone = walk_effective(match.events)
    assert gone == abandoned_by(match.fold.branches)
    assert effective == match.fold.effective_order()


def test_state_at_a_seq_is_the_state_the_whole_fold_had_there():
    path = FIXTURES / "bacdef" / "demo-contradiction.jsonl"
    service = MatchService(MemoryStore())
    whole = service.import_lines(path.read_text(encoding="utf-8").splitlines(), match_id="d")
    assert whole.fold.branches, "the demo has a rewind"
    for seq in (1, 30, whole.fold.branches[0].abandoned[0], whole.head):
        match, head, gone = service.load_at("d", seq)
        assert match.head == seq and head == whole.head
        assert msgspec.msgpack.encode(match.fold.state_at(seq)) == msgspec.msgpack.encode(whole.fold.state_at(seq))
        assert gone == abandoned_by(whole.fold.branches).get(seq)
    assert service.load_at("d", whole.head + 1) is None and service.load_at("d", 0) is None


def test_adj_state_at_marks_an_abandoned_event_and_refuses_a_seq_outside(tmp_path):
    adj = Adj(tmp_path / "store.sqlite3")
    ok(adj("import", str(FIXTURES / "bacdef" / "demo-contradiction.jsonl"), "--id", "d"))
    whole = MatchService(MemoryStore()).check_lines((FIXTURES / "bacdef" / "demo-contradiction.jsonl").read_text().splitlines()).match
    branch = whole.fold.branches[0]
    seq = branch.abandoned[0]
    data = json.loads(ok(adj("state", "d", "--at", str(seq), "--json")).stdout)
    assert (data["seq"], data["head_seq"], data["abandoned_by"]) == (seq, whole.head, branch.rewind_seq)
    first = ok(adj("state", "d", "--at", str(seq))).stdout.splitlines()[0]
    assert first == f"d after seq {seq} of {whole.head}, abandoned by rewind at {branch.rewind_seq}"
    fails(adj("state", "d", "--at", str(whole.head + 1)), 2,
          f"error: Invalid value for '--at': d has events 1 to {whole.head}, not {whole.head + 1}\n")


WITH_REWINDS = [p for p in RECORDED if '"rewind"' in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", WITH_REWINDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_look_at_any_seq_reads_the_rest_of_the_log_for_rewinds_only(path, tmp_path):
    """From a SQLite store (its own query for the later rewinds): every seq of a match with
    rewinds gives the state the whole fold had there and the rewind that abandoned it."""
    from events.sqlite import SQLiteStore

    lines = path.read_text(encoding="utf-8").splitlines()
    whole = MatchService(MemoryStore()).check_lines(lines).match
    service = MatchService(SQLiteStore(str(tmp_path / "s.sqlite3")))
    service.store.append_stored(whole.events, 0)
    gone = walk_effective(whole.events)[1]
    for seq in range(1, whole.head + 1):
        match, head, by = service.load_at(whole.match_id, seq)
        assert (match.head, head, by) == (seq, whole.head, gone.get(seq)), seq
        assert match.fold.state_at(seq) == whole.fold.state_at(seq), seq  # (a catalog read from the file keeps its order)
    service.store.close()
