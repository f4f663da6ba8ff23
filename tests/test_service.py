"""The match service over the memory and SQLite stores, with the toy games."""

from __future__ import annotations

import itertools
import json

import pytest

from adjudicator.engine import registry
from adjudicator.engine.protocol import Malformed, Violation
from adjudicator.service import MatchService, check_match_id, fold_stored
from events.chain import IntegrityError
from events.envelope import Draft, seal
from events.memory import MemoryStore
from events.sqlite import SQLiteStore
from events.store import ConflictError, UnknownMatch
from tests import spinegame


@pytest.fixture(autouse=True)
def nimx():
    with spinegame.registered() as game:
        yield game


def ticking_clock():
    counter = itertools.count(1)
    return lambda: f"2026-01-01T00:00:{next(counter):02d}.000000Z"


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    if request.param == "memory":
        yield MemoryStore()
    else:
        s = SQLiteStore(str(tmp_path / "store.sqlite3"))
        yield s
        s.close()


@pytest.fixture
def svc(store):
    return MatchService(store, clock=ticking_clock())


def new_nim(svc, match_id="m1", pile=10, game="nim"):
    verdict = svc.new(game, ["alice", "bob"], options={"pile": pile}, match_id=match_id)
    assert verdict.accepted
    return verdict


def take(svc, who, count, match_id="m1", by=None):
    return svc.submit(match_id, "take", by or who, {"player": who, "count": count})


# -- new / submit / load ----------------------------------------------------------------------------
def test_new_records_match_started_with_the_current_rules_version(svc, store):
    verdict = new_nim(svc)
    assert verdict.event.seq == 1 and verdict.event.type == "match_started" and verdict.event.by == "judge"
    assert verdict.event.fields == {"game": "nim", "players": ["alice", "bob"], "rules_version": "1", "options": {"pile": 10}}
    assert verdict.match.state.pile == 10 and verdict.match.head == 1
    assert verdict.match.players == ("alice", "bob")
    assert [e.hash for e in store.read("m1")] == [verdict.event.hash]


def test_new_picks_a_fresh_id_per_game(svc):
    assert svc.new("nim", ["alice", "bob"]).match.match_id == "nim-1"
    assert svc.new("nim", ["alice", "bob"]).match.match_id == "nim-2"
    assert svc.new("nimx", ["alice", "bob"]).match.match_id == "nimx-1"


def test_submit_appends_and_load_folds_the_same_state(svc, store):
    new_nim(svc)
    v2 = take(svc, "alice", 3)
    v3 = take(svc, "bob", 2)
    assert v2.accepted and v3.accepted and v3.violation is None
    assert (v2.event.seq, v3.event.seq) == (2, 3)
    assert v3.event.prev == v2.event.hash
    assert v3.event.recorded_at == "2026-01-01T00:00:03.000000Z"
    assert v3.match.state.pile == 5 and v3.match.head == 3
    loaded = svc.load("m1")
    assert loaded.state == v3.match.state
    assert [e.hash for e in loaded.events] == [e.hash for e in store.read("m1")]
    assert svc.load("m1", upto=2).state.pile == 7
    assert loaded.outcome().status == "in_progress"


def test_submit_non_strict_converts_strings(svc, store):
    new_nim(svc)
    verdict = svc.submit("m1", "take", "alice", {"player": "alice", "count": "2"}, strict=False)
    assert verdict.accepted and verdict.event.fields == {"player": "alice", "count": 2}


def test_rewind_and_correct_through_the_service(svc, store):
    new_nim(svc, game="nimx")
    take(svc, "alice", 2)
    take(svc, "bob", 2)
    v = svc.submit("m1", "rewind", "judge", {"to_seq": 2, "reason": "misdeal"})
    assert v.accepted and v.match.state.pile == 8 and v.match.state.rewinds == 1
    assert v.match.fold.branches[0].abandoned == (3,)
    v = svc.submit(
        "m1", "correct", "judge", {"at_seq": 2, "event": {"type": "adjust", "by": "judge", "delta": "3"}, "reason": "r"}, strict=False
    )
    assert v.accepted and v.match.state.pile == 11
    assert v.event.fields["event"] == {"type": "adjust", "by": "judge", "delta": 3}
    assert svc.load("m1").state == v.match.state


def test_a_rejected_action_writes_nothing_and_records_one_rejection(svc, store):
    new_nim(svc)
    take(svc, "alice", 1)
    log_before = store.read("m1")
    verdict = take(svc, "alice", 2)
    assert not verdict.accepted and verdict.event is None
    assert (verdict.violation.rule_id, verdict.violation.message) == ("NIM-TURN-1", "it is bob's turn, not alice's")
    assert verdict.match.head == 2 and verdict.match.state.pile == 9
    assert store.read("m1") == log_before
    (rejection,) = store.rejections("m1")
    assert rejection.match_id == "m1"
    assert rejection.head_seq == 2
    assert (rejection.type, rejection.by) == ("take", "alice")
    assert rejection.fields == {"player": "alice", "count": 2}
    assert (rejection.rule, rejection.message) == ("NIM-TURN-1", "it is bob's turn, not alice's")
    assert rejection.recorded_at == "2026-01-01T00:00:03.000000Z"
    # the next legal action still gets seq 3
    assert take(svc, "bob", 1).event.seq == 3


def test_a_rejected_correction_records_the_conflict(svc, store):
    new_nim(svc, game="nimx")
    take(svc, "alice", 3)
    take(svc, "bob", 3)
    verdict = svc.submit("m1", "correct", "judge", {"at_seq": 3, "event": {"type": "adjust", "by": "judge", "delta": -5}, "reason": "r"})
    assert not verdict.accepted
    (rejection,) = store.rejections("m1")
    assert rejection.rule == "NIM-TAKE-2"
    assert rejection.message.startswith("the correction conflicts with seq 3 (take)")
    assert rejection.head_seq == 3
    assert len(store.read("m1")) == 3


@pytest.mark.parametrize(
    "type_, fields, message, path",
    [
        ("pass", {}, "unknown action 'pass' (adj legal MATCH lists the actions open now)", "$.type"),
        ("take", {"player": "alice", "count": "2"}, "take: count is a whole number, not '2'", "$.count"),
        ("take", {"player": "alice"}, "take: count is missing (its fields: player, count)", "$.count"),
        ("take", {"player": "alice", "count": 1, "extra": 1}, "take: no field 'extra' (its fields: player, count)", "$.extra"),
        ("take", {"player": "alice", "count": 1, "seq": 9}, "field 'seq' is reserved for the envelope", "$.seq"),
        ("rewind", {"to_seq": 1}, "rewind: reason is missing (its fields: to_seq, reason)", "$.reason"),
        (
            "correct",
            {"at_seq": 2, "event": {"type": "take", "by": "judge", "player": "alice"}, "reason": "r"},
            "take: count is missing (its fields: player, count)",
            "$.event.count",
        ),
        (
            "correct",
            {"at_seq": 2, "event": {"type": "rewind", "by": "judge", "to_seq": 1, "reason": "r"}, "reason": "r"},
            "a correction cannot insert a 'rewind' event",
            "$.event.type",
        ),
        ("match_started", {"game": "nim", "players": ["a", "b"]}, None, None),
    ],
)
def test_malformed_input_writes_nothing_at_all(svc, store, type_, fields, message, path):
    new_nim(svc)
    take(svc, "alice", 1)
    before = store.read("m1")
    if message is None:  # a second match_started: the match exists
        with pytest.raises(ConflictError):
            svc.submit("m1", type_, "judge", fields)
    else:
        with pytest.raises(Malformed) as err:
            svc.submit("m1", type_, "alice", fields)
        assert (err.value.message, err.value.path) == (message, path)
    assert store.read("m1") == before
    assert store.rejections("m1") == []


def test_unknown_match(svc):
    with pytest.raises(UnknownMatch, match="no match 'nope' in the store"):
        take(svc, "alice", 1, match_id="nope")
    with pytest.raises(UnknownMatch):
        svc.load("nope")
    with pytest.raises(UnknownMatch):
        svc.export_lines("nope")


@pytest.mark.parametrize("bad", ["", "-x", ".x", "a b", "a/b", "x" * 65, "m1\n", "é", "a:b"])
def test_match_ids_are_validated(svc, store, bad):
    with pytest.raises(Malformed) as err:
        svc.new("nim", ["alice", "bob"], match_id=bad)
    assert err.value.message == (
        f"match id {bad!r} must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit"
    )
    assert err.value.path == "$.match_id"
    with pytest.raises(Malformed):
        svc.submit(bad, "match_started", "judge", {"game": "nim", "players": ["alice", "bob"]})
    assert store.matches() == []


@pytest.mark.parametrize("good", ["m", "0", "a" * 64, "bac-2026.01_final"])
def test_valid_match_ids(good):
    check_match_id(good)


def test_match_id_of_another_type_is_malformed():
    with pytest.raises(Malformed):
        check_match_id(5)  # type: ignore[arg-type]


def test_rules_version_is_filled_in_when_left_out(svc, store):
    v = svc.submit("m1", "match_started", "judge", {"game": "nim", "players": ["alice", "bob"]})
    assert v.accepted and v.event.fields["rules_version"] == "1"
    v = svc.submit("m2", "match_started", "judge", {"game": "nim", "players": ["alice", "bob"], "rules_version": None})
    assert v.accepted and v.event.fields["rules_version"] == "1"
    assert store.read("m2")[0].fields["rules_version"] == "1"


def test_an_unknown_rules_version_is_refused(svc, store):
    with pytest.raises(Malformed) as err:
        svc.submit("m1", "match_started", "judge", {"game": "nim", "players": ["alice", "bob"], "rules_version": "0.9"})
    assert err.value.message == "unknown rules version '0.9' for nim; known: 1"
    assert store.matches() == [] and store.rejections("m1") == []


def test_an_unknown_game_is_malformed_naming_known_games(svc, store):
    known = ", ".join(registry.names())
    assert "nim" in registry.names()
    with pytest.raises(Malformed) as err:
        svc.new("chess", ["alice", "bob"], match_id="m1")
    assert err.value.message == f"unknown game 'chess'; known games: {known}"
    assert err.value.path == "$.game"
    with pytest.raises(Malformed) as err:
        svc.submit("m1", "match_started", "judge", {"game": "chess", "players": ["alice", "bob"]})
    assert err.value.message == f"unknown game 'chess'; known games: {known}"
    with pytest.raises(Malformed, match="unknown game 'chess'"):
        svc.check_lines(['{"type": "match_started", "by": "judge", "game": "chess", "players": ["a", "b"]}'])
    assert store.matches() == []


def test_a_setup_violation_is_a_rejection_not_a_match(svc, store):
    verdict = svc.new("nim", ["alice", "alice"], match_id="m1")
    assert not verdict.accepted and verdict.violation.rule_id == "NIM-SET-1"
    assert store.read("m1") == [] and store.matches() == []
    assert store.rejections("m1") == []  # a refused creation belongs to no match (not even a later "m1")


# -- files ------------------------------------------------------------------------------------------
def line(type_, by="judge", **fields):
    return json.dumps({"type": type_, "by": by, **fields})


def session():
    return [
        line("match_started", game="nim", players=["alice", "bob"], options={"pile": 10}),
        line("take", "alice", player="alice", count=3),
        line("take", "alice", player="alice", count=1),  # rejected: bob's turn
        line("take", "bob", player="bob", count=2),
        "",
        line("take", "alice", player="alice", count=4),  # rejected: at most 3
        line("rewind", to_seq=3, reason="miscount"),
        line("take", "alice", player="alice", count=2),
    ]


def test_check_lines_goes_on_after_a_rejected_line(svc, store):
    report = svc.check_lines(session())
    assert report.events == 7 and report.accepted == 5
    assert [(v.line, v.accepted, v.rule) for v in report.verdicts] == [
        (1, True, None),
        (2, True, None),
        (3, False, "NIM-TURN-1"),
        (4, True, None),
        (6, False, "NIM-TAKE-1"),
        (7, True, None),
        (8, True, None),
    ]
    first = report.rejections[0]
    assert (first.line, first.type, first.by, first.message) == (3, "take", "alice", "it is bob's turn, not alice's")
    # rejected lines take no seq: the rewind to seq 3 means "after bob's take"
    assert report.match.head == 5
    assert report.match.state.pile == 3 and report.match.state.rewinds == 1
    assert [e.seq for e in report.match.events] == [1, 2, 3, 4, 5]
    assert store.matches() == []  # nothing stored


def test_check_lines_names_the_line_of_malformed_input(svc):
    lines = session()[:2] + [line("take", "bob", player="bob", count="x")]
    with pytest.raises(Malformed) as err:
        svc.check_lines(lines)
    assert err.value.path == "line 3: $.count"
    lines = session()[:2] + [line("correct", at_seq=2, event={"type": "rewind", "by": "judge", "to_seq": 1, "reason": "r"}, reason="r")]
    with pytest.raises(Malformed) as err:
        svc.check_lines(lines)
    assert err.value.path == "line 3: $.event.type"
    lines = session()[:2] + [line("match_started", game="nim", players=["a", "b"])]
    with pytest.raises(Malformed) as err:
        svc.check_lines(lines)
    assert err.value.message == "match_started may only be the first event of a match"
    assert err.value.path == "line 3: $.type"
    with pytest.raises(Malformed, match="line 2 is not valid JSON"):
        svc.check_lines([session()[0], "{nope"])


def test_import_is_all_or_nothing(svc, store):
    with pytest.raises(Violation) as err:
        svc.import_lines(session(), match_id="m1")
    assert err.value.rule_id == "NIM-TURN-1"
    assert err.value.message == "line 3 (take): it is bob's turn, not alice's"
    assert store.matches() == [] and store.read("m1") == []
    good = [l for i, l in enumerate(session(), 1) if i not in (3, 6)]
    match = svc.import_lines(good, match_id="m1")
    assert match.head == 5 and match.state.pile == 3
    assert svc.load("m1").state == match.state
    with pytest.raises(ConflictError):
        svc.import_lines(good, match_id="m1")


def test_import_uses_the_file_id_else_the_default(svc, store):
    good = [l for i, l in enumerate(session(), 1) if i not in (3, 6)]
    with_id = [json.dumps({**json.loads(l), "match_id": "from-file"}) if l else l for l in good]
    assert svc.import_lines(with_id).match_id == "from-file"
    assert svc.import_lines(good).match_id == "imported"
    with pytest.raises(Malformed, match="match id 'bad id'"):
        svc.import_lines(good, match_id="bad id")


def played(svc):
    new_nim(svc, game="nimx")
    take(svc, "alice", 3)
    take(svc, "bob", 1)
    svc.submit("m1", "rewind", "judge", {"to_seq": 2, "reason": "r"})
    take(svc, "bob", 2)
    svc.submit("m1", "correct", "judge", {"at_seq": 5, "event": {"type": "adjust", "by": "judge", "delta": 2}, "reason": "r"})
    take(svc, "alice", 1)
    return svc.export_lines("m1")


def test_sealed_import_keeps_hashes(svc, store, tmp_path):
    lines = played(svc)
    assert len(lines) == 7
    other = MatchService(SQLiteStore(str(tmp_path / "other.sqlite3")), clock=ticking_clock())
    match = other.import_lines(lines)
    assert match.match_id == "m1"
    assert other.export_lines("m1") == lines
    assert other.store.read("m1") == store.read("m1")
    assert match.state == svc.load("m1").state
    with pytest.raises(Malformed, match="the file is sealed for match 'm1'; it cannot be imported as 'm2'"):
        MatchService(MemoryStore()).import_lines(lines, match_id="m2")


def test_a_sealed_file_with_a_match_id_of_the_wrong_type_is_an_integrity_failure():
    events, prev = [], ""
    for seq, (type_, by, fields) in enumerate(
        [("match_started", "judge", {"game": "nim", "players": ["alice", "bob"], "rules_version": "1", "options": {}}),
         ("take", "alice", {"player": "alice", "count": 1})], 1
    ):
        ev = seal(5, seq, prev, Draft(type=type_, by=by, recorded_at="t", fields=fields))  # type: ignore[arg-type]
        prev = ev.hash
        events.append(json.dumps(ev.flat()))
    fresh = MemoryStore()
    with pytest.raises(IntegrityError, match=r"line 1: \$.match_id: Expected `str`, got `int`: the sealed file was altered"):
        MatchService(fresh).import_lines(events)
    assert fresh.matches() == []


def test_export_then_check_round_trip(svc, store):
    lines = played(svc)
    report = svc.check_lines(lines)
    assert report.events == 7 and report.accepted == 7 and report.rejections == []
    assert report.match.state == svc.load("m1").state
    assert report.match.match_id == "m1"
    assert [e.hash for e in report.match.events] == [e.hash for e in store.read("m1")]


def tamper(lines, no, **changes):
    out = list(lines)
    obj = json.loads(out[no - 1])
    obj.update(changes)
    out[no - 1] = json.dumps(obj)
    return out


@pytest.mark.parametrize(
    "how",
    ["field", "by", "recorded_at", "deleted", "swapped", "appended_unsealed", "truncated_hash"],
)
def test_a_tampered_sealed_file_is_an_integrity_failure(svc, store, how):
    lines = played(svc)
    if how == "field":
        bad = tamper(lines, 3, count=2)
    elif how == "by":
        bad = tamper(lines, 2, by="bob")
    elif how == "recorded_at":
        bad = tamper(lines, 4, recorded_at="2020-01-01T00:00:00Z")
    elif how == "deleted":
        bad = lines[:3] + lines[4:]
    elif how == "swapped":
        bad = lines[:2] + [lines[3], lines[2]] + lines[4:]
    elif how == "appended_unsealed":
        bad = lines + [line("take", "bob", player="bob", count=1)]
    else:
        bad = tamper(lines, 5, hash=json.loads(lines[4])["hash"][:-1])
    fresh = MemoryStore()
    other = MatchService(fresh)
    if how == "appended_unsealed":
        with pytest.raises(Malformed, match="line 8 has no hash while line 1 has one"):
            other.check_lines(bad)
        return
    with pytest.raises(IntegrityError):
        other.check_lines(bad)
    with pytest.raises(IntegrityError):
        other.import_lines(bad)
    assert fresh.matches() == []


def test_a_sealed_file_whose_event_does_not_adjudicate(svc):
    first = seal("m9", 1, "", Draft(type="match_started", by="judge", recorded_at="2026-05-01T10:00:00Z", fields={"game": "nim", "players": ["alice", "bob"], "rules_version": "1", "options": {}}))
    second = seal("m9", 2, first.hash, Draft(type="take", by="bob", recorded_at="2026-05-01T10:00:00Z", fields={"player": "bob", "count": 1}))
    from events.envelope import to_line

    fresh = MemoryStore()
    with pytest.raises(IntegrityError, match="sealed 'take' does not adjudicate: NIM-TURN-1"):
        MatchService(fresh).import_lines([to_line(first), to_line(second)])
    assert fresh.matches() == []


def test_an_unsealed_line_after_unsealed_lines_may_not_carry_a_hash(svc):
    lines = session()[:2]
    lines.append(json.dumps({**json.loads(line("take", "bob", player="bob", count=1)), "hash": "00"}))
    with pytest.raises(Malformed, match="line 3 has a hash while line 1 has none"):
        svc.check_lines(lines)


# -- stored logs that no longer adjudicate ---------------------------------------------------------
def test_fold_stored_of_a_log_that_no_longer_adjudicates(svc, store):
    new_nim(svc)
    take(svc, "alice", 3)
    # written around the service: bob cannot take 4
    store.append("m1", [Draft(type="take", by="bob", recorded_at="t", fields={"player": "bob", "count": 4})], 2)
    with pytest.raises(IntegrityError) as err:
        fold_stored(store.read("m1"))
    assert err.value.seq == 3
    assert "stored 'take' no longer adjudicates: NIM-TAKE-1: bob may take 1 to 3 stones, not 4" in str(err.value)
    with pytest.raises(IntegrityError):
        svc.load("m1")
    with pytest.raises(IntegrityError):
        svc.verify("m1")


def test_fold_stored_of_a_log_with_an_undecodable_event(svc, store):
    new_nim(svc)
    store.append("m1", [Draft(type="take", by="bob", recorded_at="t", fields={"player": "bob", "count": "4"})], 1)
    with pytest.raises(IntegrityError, match=r"stored 'take' no longer adjudicates: take: count is a whole number, not '4' \(at \$.count\)"):
        svc.load("m1")


def test_fold_stored_of_a_log_that_does_not_start_the_match(store):
    store.append("m1", [Draft(type="take", by="bob", recorded_at="t", fields={"player": "bob", "count": 1})], 0)
    with pytest.raises(IntegrityError, match="the log begins with 'take', not match_started"):
        fold_stored(store.read("m1"))


def test_fold_stored_of_a_log_of_an_unknown_game(store):
    store.append("m1", [Draft(type="match_started", by="judge", recorded_at="t", fields={"game": "chess", "players": ["a", "b"]})], 0)
    with pytest.raises(IntegrityError, match="unknown game 'chess'"):
        fold_stored(store.read("m1"))


def test_a_service_reuses_its_folded_match_and_reloads_when_another_writer_moved_it(tmp_path):
    from events.sqlite import SQLiteStore

    path = str(tmp_path / "shared.sqlite3")
    one, two = MatchService(SQLiteStore(path)), MatchService(SQLiteStore(path))
    assert one.new("nim", ["a", "b"], match_id="m").accepted
    reads = []
    real_read = one.store.read
    one.store.read = lambda *a, **k: reads.append(a) or real_read(*a, **k)
    assert one.submit("m", "take", "a", {"player": "a", "count": 1}).accepted
    assert one.submit("m", "take", "b", {"player": "b", "count": 1}).accepted
    assert reads == []  # nothing moved behind its back: no re-read
    # another terminal enters a's take
    assert two.submit("m", "take", "a", {"player": "a", "count": 3}).accepted
    # the first terminal sees it: a's second take in a row is refused, b's take is accepted
    refused = one.submit("m", "take", "a", {"player": "a", "count": 1})
    assert (refused.accepted, refused.violation.rule_id) == (False, "NIM-TURN-1")
    assert len(reads) == 1
    done = one.submit("m", "take", "b", {"player": "b", "count": 2})
    assert done.accepted and done.event.seq == 5 and done.match.state.pile == 3
    assert fold_stored(one.store.read("m")).state == done.match.state
