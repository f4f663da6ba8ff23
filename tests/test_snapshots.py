"""Snapshots: what needs only the present is folded from the snapshot kept beside the log and the
events after it (adjudicator/engine/snapshot.py), and gives what folding the whole log gives.

Every golden match of every game is entered action by action twice: once with a snapshot every
3 events and no fold kept between actions (each action is checked against a match resumed from
the store), once with none. Every verdict, rule and state must be the same; rewinds, corrections
and penalties among them go through the fall-back to the whole log.
"""

from __future__ import annotations

import bisect
import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine import fold as fold_module
from adjudicator.engine import confirming, registry, snapshot
from adjudicator.engine.judging import CALL_TYPES
from adjudicator.service import IntegrityError, MatchService, MemoryStore, fold_stored, walk_effective
from cli.disputes import confirm_offers
from tests.gamekit import FIXTURES, real_games

CLOCK = "2026-01-01T00:00:00Z"
GOLDEN = sorted(p for g in real_games() for p in (FIXTURES / g / "golden").glob("*.jsonl"))


def lines_of(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def enter(svc: MatchService, lines: list[dict], after=None) -> list[tuple]:
    """Submit every line; after each, ``after(svc)``. The verdicts as (accepted, rule)."""
    out = []
    for line in lines:
        fields = {k: v for k, v in line.items() if k not in ("type", "by", "seq", "recorded_at")}
        v = svc.submit("m", line["type"], line["by"], fields, strict=False)
        out.append((v.accepted, v.violation.rule_id if v.violation else None))
        if after is not None:
            after(svc)
    return out


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_match_resumed_from_snapshots_is_adjudicated_as_the_whole_log(path, monkeypatch):
    lines = lines_of(path)
    whole = MatchService(MemoryStore(), clock=lambda: CLOCK)
    monkeypatch.setattr(snapshot, "EVERY", 10**9)
    expected_states, expected_offers = [], []

    def offered(s: MatchService, match) -> list[tuple[str, str]]:  # adj legal's confirmations
        return [(a.who, a.note) for a in confirm_offers(s, match, "m")]

    def seen(s: MatchService) -> None:
        if s.store.head("m"):
            match = s.load("m")
            expected_states.append(match.state)
            expected_offers.append(offered(s, match))

    expected = enter(whole, lines, seen)

    monkeypatch.setattr(snapshot, "EVERY", 3)
    resumed = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)  # every action reads the store
    states, resumed_at, offers, told = [], [], [], []

    def look(s: MatchService) -> None:
        if s.store.head("m"):
            now = s.current("m")
            states.append(now.state)
            resumed_at.append(now.fold.resumed_at)
            if now.fold.resumed_at == now.head:  # at a snapshot's own event: it says what the event ended
                told.append(confirming.offers(now.fold, now.game) is not None)
            offers.append(offered(s, now))

    assert enter(resumed, lines, look) == expected
    assert states == expected_states
    assert offers == expected_offers
    assert all(told)
    if resumed.store.head("m") > 4:
        assert any(resumed_at), "no action was checked against a resumed match"
        assert told, "no look at a snapshot's own event"
        assert resumed.verify("m").state == whole.verify("m").state


def long_match(svc: MatchService, monkeypatch) -> None:
    monkeypatch.setattr(snapshot, "EVERY", 3)
    path = next((p for p in GOLDEN if len(lines_of(p)) > 8 and "rewind" not in p.read_text() and "correct" not in p.read_text()),
                None)
    assert path is not None, "no golden match of more than 8 lines without a rewind or correction"
    enter(svc, [x for x in lines_of(path)])
    assert svc.store.snapshot("m") is not None


def test_verify_finds_a_snapshot_whose_state_was_altered(monkeypatch):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    snap = msgspec.msgpack.decode(data)
    state = snap["state"]
    assert isinstance(state, dict) and state  # a Struct of the game's state type, as a mapping
    key = next(k for k, v in state.items() if isinstance(v, int) and not isinstance(v, bool))
    state[key] += 1
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    with pytest.raises(IntegrityError) as got:
        svc.verify("m")
    assert got.value.seq == seq
    assert got.value.detail == "the snapshot kept for this seq does not match the state the log folds to"


def test_a_snapshot_of_another_event_is_not_used_and_verify_reports_it(monkeypatch):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    snap = msgspec.msgpack.decode(data)
    snap["hash"] = "0" * 64
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    assert svc.current("m").fold.resumed_at == 0  # folded whole
    with pytest.raises(IntegrityError) as got:
        svc.verify("m")
    assert got.value.detail == "the snapshot kept for this seq is not of the event stored there"


def test_a_snapshot_made_by_other_code_is_ignored(monkeypatch):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    assert svc.current("m").fold.resumed_at == seq
    snap = msgspec.msgpack.decode(data)
    snap["code"] = "another version"
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    assert svc.current("m").fold.resumed_at == 0
    assert svc.check_snapshot(svc.load("m")) is False
    svc.store.save_snapshot("m", seq, b"\x00 not msgpack")
    assert svc.current("m").fold.resumed_at == 0
    assert svc.check_snapshot(svc.verify("m")) is False


def test_every_game_gets_snapshots():
    """Each game declares its state type through its `initial`: the goldens above round-trip it."""
    for name in real_games():
        assert snapshot.state_type(registry.get(name)) is not None, name


def test_verify_finds_a_snapshot_whose_effective_history_was_altered(monkeypatch):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    snap = msgspec.msgpack.decode(data)
    assert snap["effective"] == [[1, seq]]
    snap["effective"] = [[1, 1], [3, seq]]
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    with pytest.raises(IntegrityError) as got:
        svc.verify("m")
    assert got.value.detail == "the snapshot kept for this seq does not match the state the log folds to"


@pytest.mark.parametrize("effective", [
    [[1, 10**12]],  # a range far past the snapshot: never expanded
    [[5, 4]], [[0, 3]], [[1, 3], [3, 4]], [[1, 2], [3, 4]],  # reversed, from 0, overlapping, not merged
    [["1", 4]], [[1, 2.0]],
])
def test_a_snapshot_whose_effective_history_cannot_be_is_set_aside(monkeypatch, effective):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    snap = msgspec.msgpack.decode(data)
    snap["effective"] = effective
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    assert svc.current("m").fold.resumed_at == 0  # folded whole
    assert svc.current("m").state == svc.load("m").state


def test_effective_runs_read_back_as_the_seqs_they_stand_for():
    assert list(fold_module.unrun_within([(1, 3), (5, 5), (7, 9)], 9)) == [1, 2, 3, 5, 7, 8, 9]
    assert list(fold_module.unrun_within([], 4)) == []
    assert fold_module.unrun_within([(1, 3), (5, 10)], 9) is None
    assert fold_module.unrun_within([(1, 3), (4, 5)], 9) is None  # runs that touch are one run: not as written
    assert fold_module.unrun_within([(1, 1_000_000)], 1_000_000).runs() == [(1, 1_000_000)]  # never spelled out


def _consecutive(seqs):
    """The runs of increasing ``seqs``, worked out apart from the code under test."""
    starts = [s for i, s in enumerate(seqs) if i == 0 or seqs[i - 1] != s - 1]
    ends = [s for i, s in enumerate(seqs) if i == len(seqs) - 1 or seqs[i + 1] != s + 1]
    return list(zip(starts, ends))


@given(st.lists(st.integers(1, 60), unique=True).map(sorted), st.lists(st.integers(-70, 70), max_size=12))
def test_runs_read_as_the_list_of_their_seqs(seqs, probes):
    """``Runs``, a resumed fold's effective history, answers every read as the list of its seqs."""
    runs = fold_module.Runs.of(seqs)
    assert len(runs) == len(seqs) and list(runs) == seqs and list(reversed(runs)) == seqs[::-1]
    assert runs.runs() == _consecutive(seqs) and runs == seqs and fold_module.Runs(runs.runs()) == runs
    for i in probes:
        if -len(seqs) <= i < len(seqs):
            assert runs[i] == seqs[i]
        else:
            with pytest.raises(IndexError):
                runs[i]
        assert runs[i:] == seqs[i:] and runs[:i] == seqs[:i] and runs[::3] == seqs[::3]
        assert (i in runs) == (i in seqs)
        if i in seqs:
            assert runs.index(i) == seqs.index(i)
        else:
            with pytest.raises(ValueError):
                runs.index(i)
    assert [bisect.bisect_left(runs, x) for x in range(0, 62)] == [bisect.bisect_left(seqs, x) for x in range(0, 62)]
    if seqs:
        assert runs.pop() == seqs[-1] and list(runs) == seqs[:-1]
        runs.append(seqs[-1])
        assert list(runs) == seqs
    runs.append(100)
    assert list(runs) == [*seqs, 100] and runs.runs() == _consecutive([*seqs, 100])


def test_plain_actions_after_a_snapshot_do_not_fold_the_whole_log(monkeypatch):
    """Once a snapshot is kept, every plain action of a golden match without rewinds or
    corrections is checked against the match resumed from it, in every game."""
    monkeypatch.setattr(snapshot, "EVERY", 3)
    for name in real_games():
        path = next((p for p in GOLDEN if p.parent.parent.name == name and len(lines_of(p)) > 8
                     and not any(x["type"] in ("rewind", "correct") for x in lines_of(p))), None)
        assert path is not None, (f"{name} needs a golden match of more than 8 lines without a rewind or correction "
                                  "(docs/games/adding-a-game.md, checklist item 5)")
        svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
        whole = []
        load = svc.load
        monkeypatch.setattr(svc, "load", lambda *a, **k: whole.append(svc.store.head("m")) or load(*a, **k))
        enter(svc, lines_of(path))
        assert svc.store.snapshot("m") is not None
        assert [h for h in whole if h > 3] == [], (name, path.name, whole)  # the first snapshot: at seq 3


def test_no_snapshot_is_kept_at_a_judges_call(monkeypatch):
    """A note stands outside the effective history a resumed fold starts from: the snapshot waits
    for the next action."""
    monkeypatch.setattr(snapshot, "EVERY", 3)
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    path = next(p for p in GOLDEN if p.parent.parent.name == "bacdef" and len(lines_of(p)) > 8)
    lines = iter(lines_of(path))

    def up_to(head: int) -> None:
        while svc.store.head("m") < head:
            enter(svc, [next(lines)])

    up_to(2)
    assert svc.submit("m", "note", "judge", {"at_seq": 1, "text": "seen"}).accepted
    assert svc.store.head("m") == 3 and svc.store.snapshot("m") is None  # head 3 is the note
    up_to(4)
    assert svc.store.snapshot("m")[0] == 4
    assert svc.current("m").fold.resumed_at == 4


def test_a_snapshot_state_the_game_cannot_read_is_set_aside(monkeypatch):
    """A snapshot altered in the store into a state of the right types that makes no sense (a
    player who does not exist) is not used: the whole log is folded, and verify reports it."""
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seq, data = svc.store.snapshot("m")
    snap = msgspec.msgpack.decode(data)
    state = snap["state"]
    state["players"] = ["nobody", "else"]
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    now = svc.current("m")
    assert now.fold.resumed_at == 0 and now.state == svc.load("m").state
    with pytest.raises(IntegrityError):
        svc.verify("m")


def test_a_store_made_before_snapshots_reads_as_having_none(tmp_path):
    """Opened for reading only, a store without the snapshots table (made by an earlier version)
    answers that it keeps no snapshot, and the match is folded whole."""
    import sqlite3

    from adjudicator.service import open_store

    path = str(tmp_path / "old.sqlite3")
    svc = MatchService(open_store(path), clock=lambda: CLOCK)
    enter(svc, lines_of(GOLDEN[0]))
    head = svc.store.head("m")
    svc.store.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE snapshots")
    db.commit()
    db.close()
    reader = MatchService(open_store(path, write=False))
    assert reader.store.snapshot("m") is None
    assert reader.current("m").head == head and reader.current("m").fold.resumed_at == 0


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_look_back_from_a_snapshot_gives_what_folding_from_seq_1_gives(path, monkeypatch):
    """``adj state --at`` and ``adj diff`` start from the snapshot kept nearest before the seq:
    at every seq of every golden match (rewinds, corrections, judge's calls among them; a
    snapshot every 3 events, all kept), the state, outcome, players and the rewind that
    abandoned it are those of the match folded from seq 1 through it, and every state ``adj
    diff`` compares is the whole match's ``state_at``."""
    monkeypatch.setattr(snapshot, "EVERY", 3)
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    enter(svc, lines_of(path))
    head = svc.store.head("m")
    if not head:
        return
    whole = svc.load("m").fold
    resumed = 0
    for seq in range(1, head + 1):
        match, head_seq, gone = svc.load_at("m", seq)
        events = svc.store.read("m", 1, seq)
        folded = fold_stored(events)
        _, gone_then = walk_effective(svc.store.read("m"))
        assert head_seq == head
        assert gone == (gone_then.get(seq) if events[-1].type not in CALL_TYPES else None), seq
        assert match.fold.state_at(seq) == folded.fold.state_at(seq) == whole.state_at(seq), seq
        assert match.fold.outcome(seq) == folded.fold.outcome(seq), seq
        assert match.players == folded.players, seq
        resumed += match.fold.resumed_at > 0
        for since in range(max(1, seq - 4), seq + 1):  # adj diff since seq
            back = svc.load_at("m", seq, since=since)[0]
            assert back.fold.state_at(since) == whole.state_at(since), (since, seq)
            assert back.fold.state_at(seq) == whole.state_at(seq), (since, seq)
    assert svc.load_at("m", 0) is None and svc.load_at("m", head + 1) is None
    assert svc.store.snapshot_seqs("m") == sorted(set(svc.store.snapshot_seqs("m")))
    if len(svc.store.snapshot_seqs("m")) > 1:
        assert resumed, "no look back started from a snapshot"


def test_a_store_made_when_a_match_kept_one_snapshot_looks_back_from_it(tmp_path, monkeypatch):
    """A SQLite store whose snapshots table keeps one snapshot a match: read as it is when opened
    for reading only, brought to one a seq when opened for writing, its snapshot kept."""
    import sqlite3

    from adjudicator.service import open_store

    monkeypatch.setattr(snapshot, "EVERY", 3)
    path = str(tmp_path / "old.sqlite3")
    svc = MatchService(open_store(path), clock=lambda: CLOCK)
    long_match(svc, monkeypatch)
    head = svc.store.head("m")
    seq, data = svc.store.snapshot_at("m", head - 1)  # the one it kept, before the head
    svc.store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE snapshots")
        db.execute("CREATE TABLE snapshots (match_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)")
        db.execute("INSERT INTO snapshots VALUES ('m', ?, ?)", (seq, data))
    whole = MatchService(open_store(path, write=False)).load("m").fold
    reader = MatchService(open_store(path, write=False))
    assert reader.store.snapshot_seqs("m") == [seq]
    match = reader.load_at("m", head)[0]
    assert match.fold.resumed_at == seq and match.fold.state_at(head) == whole.state_at(head)
    assert reader.load_at("m", seq - 1)[0].fold.resumed_at == 0
    writer = MatchService(open_store(path))
    assert writer.store.snapshot_seqs("m") == [seq] and writer.load_at("m", head)[0].fold.resumed_at == seq
    writer.store.save_snapshot("m", 1, data)
    assert writer.store.snapshot_seqs("m") == [1, seq]


def test_verify_checks_every_snapshot_kept_and_a_look_back_sets_one_that_does_not_fit_aside(monkeypatch):
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    long_match(svc, monkeypatch)
    seqs = svc.store.snapshot_seqs("m")
    assert len(seqs) > 2
    seq = seqs[1]  # neither the first nor the last
    want = svc.load_at("m", seq + 1)[0]
    assert want.fold.resumed_at == seq
    snap = msgspec.msgpack.decode(svc.store.snapshot_at("m", seq)[1])
    snap["hash"] = "0" * 64
    svc.store.save_snapshot("m", seq, msgspec.msgpack.encode(snap))
    got = svc.load_at("m", seq + 1)[0]
    assert got.fold.resumed_at == 0 and got.fold.state_at(seq + 1) == want.fold.state_at(seq + 1)
    with pytest.raises(IntegrityError) as failed:
        svc.verify("m")
    assert (failed.value.seq, failed.value.detail) == (seq, "the snapshot kept for this seq is not of the event stored there")
    svc.store.save_snapshot("m", seq, svc.store.snapshot_at("m", seqs[0])[1])  # another event's
    with pytest.raises(IntegrityError) as failed:
        svc.verify("m")
    assert failed.value.seq == seq
    svc.store.save_snapshot("m", seq, svc.store.snapshot_at("m", seqs[-1])[1][:-1])  # does not decode: not used
    assert svc.verify("m").head == svc.store.head("m")
    svc.store.save_snapshot("m", svc.store.head("m") + 1, svc.store.snapshot("m")[1])  # past the head
    with pytest.raises(IntegrityError) as failed:
        svc.verify("m")
    assert failed.value.seq == svc.store.head("m") + 1


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_an_import_keeps_a_snapshot_every_so_many_events_that_verify_checks(path, monkeypatch):
    """``adj import`` keeps snapshots as it goes (every 3 events here, in batches of 4, so that
    the fold lets go of the past between them), never at a judge's call; each is the one adj
    act would have kept there, and a look back starts from it."""
    import adjudicator.service as service_module

    monkeypatch.setattr(snapshot, "EVERY", 3)
    monkeypatch.setattr(service_module, "IMPORT_BATCH", 4)
    svc = MatchService(MemoryStore(), clock=lambda: CLOCK, cache_size=0)
    try:
        svc.import_lines(path.read_text(encoding="utf-8").splitlines(), "m")
    except (service_module.LineRefused, service_module.Malformed):
        return  # a golden match with a refused line is not imported
    events = svc.store.read("m")
    seqs = svc.store.snapshot_seqs("m")
    assert all(b - a >= 3 for a, b in zip([0, *seqs], seqs)), seqs
    assert not any(events[s - 1].type in CALL_TYPES for s in seqs)
    if len(events) >= 9:
        assert seqs, "no snapshot kept by the import"
    svc.verify("m")  # every snapshot fits the fold at its event
    for seq in seqs:
        match = svc.load_at("m", seq)[0]
        assert match.fold.state_at(seq) == fold_stored(events[:seq]).fold.state_at(seq)


def _digest_worked_out(cls: type) -> str:
    """The code digest as the engine defines it: every source file of the engine and of the game's
    package, in order, hashed whole."""
    import hashlib
    import os
    import sys

    digest = hashlib.sha256()
    folders = {os.path.dirname(os.path.abspath(snapshot.__file__)),
               os.path.dirname(os.path.abspath(sys.modules[cls.__module__].__file__))}
    for folder in sorted(folders):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                digest.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes() + b"\0")
    return digest.hexdigest()


def test_the_code_digest_kept_beside_the_bytecode_is_the_sources_digest():
    cls = type(registry.get("demonbrave"))
    right = _digest_worked_out(cls)
    work_out = snapshot.code_digest.__wrapped__  # past functools.cache: as a new command would
    assert work_out(cls) == right  # worked out, or read back
    assert work_out(cls) == right  # read back
    kept = next((Path(snapshot.__file__).parent / "__pycache__").glob(f"code-digest.{cls.__module__}.*.json"))
    data = json.loads(kept.read_bytes())
    # kept for sources that have changed since (a file's time or size differs): worked out again
    data["stamp"][0][2] += 1
    data["digest"] = "0" * 64
    kept.write_text(json.dumps(data))
    assert work_out(cls) == right
    assert json.loads(kept.read_bytes())["digest"] == right
    kept.write_text("not what was kept")  # unreadable: worked out again
    assert work_out(cls) == right
