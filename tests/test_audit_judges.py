"""Registered judges: a judge's decision must carry a registered judge's signature (else it is
refused and nothing is written); adj verify checks every signature and names the judge; a store
without registered judges works as before."""

from __future__ import annotations

import json

import pytest

from adjudicator.authority.judges import JUDGE_DECISIONS, SignatureRequired, SignedStore, is_judge_decision, register_key
from events.checkpoint import Signature
from events.signing import create_signing_key
from tests.test_audit_cli import adj  # noqa: F401  (fixture)
from tests.test_audit_support import Rig, key, rig  # noqa: F401  (fixtures)
from tests.test_cli import fails, ok
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)


@pytest.fixture
def judges(tmp_path):
    """Two key pairs: ann (to be registered) and eve (never registered)."""
    return {name: create_signing_key(str(tmp_path / "keys" / f"{name}.pem")) for name in ("ann", "eve")}


def _new_match(adj, *extra: str) -> None:
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m", *extra))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))


def test_without_registered_judges_nothing_changes(adj):
    _new_match(adj)
    ok(adj("rewind", "m", "--to", "1", "--reason", "misdeal", "--by", "judge"))
    assert adj.head("m") == 3
    r = ok(adj("matches", "--json"))
    assert json.loads(r.stdout)["matches"][0]["signed"] is False


def test_a_judges_decision_without_a_key_is_refused_and_nothing_is_written(adj, judges):
    _new_match(adj)
    ok(adj("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    r = adj("rewind", "m", "--to", "1", "--reason", "misdeal", "--by", "judge")
    assert r.exit_code == 2
    assert r.stderr == ("error: this store has registered judges, so 'rewind' by judge in m must be signed by one of "
                        "them: give the judge's key with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)\n")
    r = adj("act", "m", "take", "player=bob", "count=1", "--by", "judge", "--judge-key", judges["eve"].path)
    assert r.exit_code == 2
    assert f"the key {judges['eve'].path!r} is not a registered judge's (judges: ann); nothing was written" in r.stderr
    assert (adj.head("m"), adj.rejections("m")) == (2, [])
    # a player's own action needs no key
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))


def test_an_unsigned_claim_to_be_the_judge_is_not_recorded_even_when_the_rules_refuse_it(adj, judges):
    _new_match(adj)
    ok(adj("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    # a rewind the rules refuse (no seq 9): without a key it is not a judge's attempt at all
    fails(adj("rewind", "m", "--to", "9", "--reason", "misdeal", "--by", "judge"), 2,
          "error: this store has registered judges, so 'rewind' by judge in m must be signed by one of them: give "
          "the judge's key with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)\n")
    r = adj("act", "m", "take", "player=alice", "count=1", "--by", "judge", "--judge-key", judges["eve"].path)
    assert r.exit_code == 2 and "is not a registered judge's (judges: ann); nothing was written" in r.stderr
    assert (adj.head("m"), adj.rejections("m")) == (2, [])
    assert "rejected" not in ok(adj("log", "m")).stdout
    # the same attempt by the registered judge is recorded, as every refused attempt is
    fails(adj("rewind", "m", "--to", "9", "--reason", "misdeal", "--by", "judge", "--judge-key", judges["ann"].path), 1,
          "ADJ-REW-1: cannot rewind to seq 9: it is not an earlier event of the effective history\n")
    assert (adj.head("m"), adj.rejections("m")) == (2, [(2, "rewind", "ADJ-REW-1")])


def test_signed_decisions_are_named_by_verify_and_shown_by_matches(adj, judges, monkeypatch):
    ok(adj("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    _new_match(adj, "--judge-key", judges["ann"].path)
    monkeypatch.setenv("ADJ_JUDGE_KEY", judges["ann"].path)
    ok(adj("rewind", "m", "--to", "1", "--reason", "misdeal", "--by", "judge"))
    ok(adj("audit", "checkpoint"))
    r = ok(adj("verify"))
    assert "  m seq 1 match_started: signed by judge ann" in r.stdout.splitlines()
    assert "  m seq 3 rewind: signed by judge ann" in r.stdout.splitlines()
    r = ok(adj("matches"))
    assert r.stdout.rstrip().endswith("signed by judges")
    assert json.loads(ok(adj("judges", "list", "--json")).stdout)["judges"][0]["by"] == "organiser"


def test_adding_a_second_judge_takes_a_registered_judges_key(adj, judges, tmp_path):
    ok(adj("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    ben = create_signing_key(str(tmp_path / "keys" / "ben.pem"))
    r = adj("judges", "add", "ben", "--pubkey", ben.path + ".pub")
    assert r.exit_code == 2 and "adding a judge takes a registered judge's key" in r.stderr
    r = ok(adj("judges", "add", "ben", "--pubkey", ben.path + ".pub", "--judge-key", judges["ann"].path, "--json"))
    assert (json.loads(r.stdout)["by"], json.loads(r.stdout)["checkpoint"]["tree_size"]) == ("ann", 2)
    r = adj("judges", "add", "ann", "--pubkey", judges["eve"].path + ".pub", "--judge-key", judges["ann"].path)
    assert r.exit_code == 2 and "judge 'ann' already has a registered key" in r.stderr


def test_importing_into_a_judged_store_signs_with_the_importing_judge(adj, judges, tmp_path):
    _new_match(adj)
    ok(adj("rewind", "m", "--to", "1", "--reason", "misdeal", "--by", "judge"))
    (tmp_path / "m.jsonl").write_text(ok(adj("export", "m")).stdout)
    other = type(adj)(tmp_path / "other.sqlite3")
    ok(other("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    r = other("import", str(tmp_path / "m.jsonl"))
    assert r.exit_code == 2 and "'match_started' by judge in m must be signed" in r.stderr
    ok(other("import", str(tmp_path / "m.jsonl"), "--judge-key", judges["ann"].path))
    decisions = json.loads(ok(other("verify", "--json")).stdout)["audit"]["decisions"]
    assert [(d["seq"], d["type"], d["signer"]) for d in decisions] == [(1, "match_started", "ann"), (3, "rewind", "ann")]


def test_judge_decisions_are_the_documented_types():
    assert JUDGE_DECISIONS == {"rewind", "correct", "note", "penalty", "judge_adjust", "declare_result"}
    assert is_judge_decision("take", "judge") and is_judge_decision("rewind", "alice")
    assert not is_judge_decision("take", "alice")


def _judged(rig: Rig, ann):
    from adjudicator.service import MatchService

    register_key(rig.store, "judge", "ann", ann.public_key, "organiser", rig.clock())
    return MatchService(SignedStore(rig.store, lambda: ann), clock=rig.clock)


def test_signatures_on_every_backend_and_what_removing_or_forging_one_shows(rig, key, judges):
    service = _judged(rig, judges["ann"])
    service.new("nim", ["alice", "bob"], options={"pile": 9}, match_id="m")
    service.submit("m", "take", "alice", {"player": "alice", "count": 3})
    service.submit("m", "rewind", "judge", {"to_seq": 1, "reason": "misdeal"})
    sigs = rig.store.audit_signatures("m")
    events = rig.store.read("m")
    assert sorted((s.seq, s.signer) for s in sigs.values()) == [(1, "ann"), (3, "ann")]
    assert set(sigs) == {events[0].hash, events[2].hash}
    rig.auditor.checkpoint(key)
    assert rig.detect([key.public_key]) == []
    audit = rig.auditor.verify([key.public_key])
    assert [(d["seq"], d["signer"]) for d in audit.decisions] == [(1, "ann"), (3, "ann")]
    # refused without a key, on every backend
    unsigned = _service_without_key(rig)
    with pytest.raises(SignatureRequired):
        unsigned.submit("m", "take", "judge", {"player": "alice", "count": 1})
    assert rig.store.head("m") == 3
    # a signature replaced by one of a key nobody registered
    eve = judges["eve"]
    forged = Signature(hash=events[2].hash, match_id="m", seq=3, role="judge", signer="ann",
                       public_key=eve.public_key, value=eve.sign(events[2].hash.encode()))
    _replace_signature(rig, forged)
    found = rig.detect([key.public_key])
    assert "ledger: m seq 3 (rewind by judge): signed with a key that is not registered to judge 'ann'" in found
    assert any("leaf" in f and "m seq 3 (or its signature)" in f for f in found)


def _service_without_key(rig: Rig):
    from adjudicator.service import MatchService

    return MatchService(SignedStore(rig.store, lambda: None), clock=rig.clock)


def _replace_signature(rig: Rig, sig: Signature) -> None:
    if rig.name == "memory":
        rig.store._ledger()["signatures"][sig.hash] = sig
        return
    rig.sql("UPDATE audit_signatures SET public_key = ?, value = ? WHERE hash = ?", (sig.public_key, sig.value, sig.hash))


def test_a_decision_slipped_in_unsigned_is_reported(adj, judges):
    ok(adj("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    _new_match(adj, "--judge-key", judges["ann"].path)
    adj.sql("DELETE FROM audit_signatures WHERE seq = 1")
    r = adj("verify", "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout)["audit"]["problems"] == [
        "m seq 1 (match_started by judge): a judge's decision without a judge's signature"]


def test_notes_and_penalties_are_signed_as_judges_decisions(judges):
    from adjudicator.service import MatchService
    from events.memory import MemoryStore

    store = MemoryStore()
    register_key(store, "judge", "ann", judges["ann"].public_key, "organiser", "2026-05-01T10:00:00Z")
    service = MatchService(SignedStore(store, lambda: judges["ann"]))
    service.new("nim", ["alice", "bob"], options={"pile": 9}, match_id="m")
    assert service.submit("m", "note", "judge", {"at_seq": 1, "text": "slow play warning"}).accepted
    v = service.submit("m", "penalty", "judge", {"player": "bob", "infraction": "slow play", "penalty": "warning",
                                                 "at_seq": 1, "reason": "second time"})
    assert v.accepted, v.violation
    assert sorted((s.seq, s.signer) for s in store.audit_signatures("m").values()) == [(1, "ann"), (2, "ann"), (3, "ann")]
    with pytest.raises(SignatureRequired, match="'note' by judge in m must be signed"):
        MatchService(SignedStore(store, lambda: None)).submit("m", "note", "judge", {"at_seq": 1, "text": "again"})


def test_a_copy_into_a_judged_store_signs_its_decisions_or_refuses_the_match(adj, judges, tmp_path):
    """A match_loss by an unsigned "judge" copied in was shown as decided: a copy is held to the
    target's keys as an entry is."""
    _new_match(adj)
    ok(adj("penalty", "m", "--player", "bob", "--infraction", "slow_play", "--penalty", "match_loss", "--at", "2",
           "--reason", "third time", "--by", "judge"))
    target = type(adj)(tmp_path / "target.sqlite3")
    ok(target("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    for key in ([], ["--judge-key", judges["eve"].path]):
        r = adj("store", "copy", adj.path, target.path, *key)
        assert r.exit_code == 2 and (r.stdout, target.match_ids()) == ("", [])
    assert r.stderr == (f"error: the key {judges['eve'].path!r} is not a registered judge's (judges: ann); "
                        "nothing was written\n")
    r = adj("store", "copy", adj.path, target.path)
    assert r.stderr == ("error: this store has registered judges, so 'match_started' by judge in m must be signed by "
                        "one of them: give the judge's key with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)\n")
    ok(adj("store", "copy", adj.path, target.path, "--judge-key", judges["ann"].path), "copied 1 match(es): m\n")
    ok(target("audit", "checkpoint"))
    decisions = json.loads(ok(target("verify", "--json")).stdout)["audit"]["decisions"]
    assert [(d["seq"], d["type"], d["signer"]) for d in decisions] == [(1, "match_started", "ann"), (3, "penalty", "ann")]


def test_a_copy_is_refused_whole_when_only_a_rejected_attempt_claims_the_judge(adj, judges, tmp_path):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m", "--by", "alice"))
    fails(adj("rewind", "m", "--to", "9", "--reason", "slip", "--by", "judge"), 1,
          "ADJ-REW-1: cannot rewind to seq 9: it is not an earlier event of the effective history\n")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "n", "--by", "alice"))
    target = type(adj)(tmp_path / "target.sqlite3")
    ok(target("judges", "add", "ann", "--pubkey", judges["ann"].path + ".pub"))
    r = adj("store", "copy", adj.path, target.path, "--match", "n", "--match", "m")
    assert (r.exit_code, r.stderr) == (2, "copied before the failure: n\nerror: this store has registered judges, so "
                                          "'rewind' by judge in m must be signed by one of them: give the judge's key "
                                          "with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)\n")
    assert (target.match_ids(), target.head("m"), target.rejections("m")) == (["n"], 0, [])
