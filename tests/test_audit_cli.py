"""`adj audit ...`, `adj export --with-proof`, `adj verify FILE` and the whole-store `adj verify`, on
the toy game nim: exit codes, what is printed, and proofs checked with nothing but the public key."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from events.rows import EVENT_COLUMNS, event_row
from events.signing import create_signing_key
from events.sqlite import SQLiteStore
from tests.test_audit import _reseal
from tests.test_cli import Adj, fails, ok


@pytest.fixture
def adj(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("ADJ_JUDGE_KEY", raising=False)
    return Adj(tmp_path / "store.sqlite3")


@pytest.fixture
def m(adj):
    """Match "m": alice took 3 (seq 2), bob's take of 4 refused, bob took 2 (seq 3)."""
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    assert adj("act", "m", "take", "player=bob", "count=4", "--by", "bob").exit_code == 1
    ok(adj("act", "m", "take", "player=bob", "count=2", "--by", "bob"))
    return "m"


def test_the_first_checkpoint_creates_an_owner_only_key(adj, m, tmp_path):
    r = ok(adj("audit", "checkpoint", "--json"))
    cp = json.loads(r.stdout)
    assert cp["tree_size"] == 4 and cp["body"] == f"adjudicator-checkpoint/1\n4\n{cp['root']}\n{cp['created_at']}\n"
    path = tmp_path / "data" / "adjudicator" / "audit-key.pem"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    pem = ok(adj("audit", "pubkey")).stdout
    assert pem.startswith("-----BEGIN PUBLIC KEY-----") and pem == (tmp_path / "data" / "adjudicator" / "audit-key.pem.pub").read_text()
    again = json.loads(ok(adj("audit", "checkpoint", "--json")).stdout)
    assert (again["tree_size"], again["root"], again["key"]) == (4, cp["root"], cp["key"])
    listed = ok(adj("audit", "checkpoint", "--list")).stdout.splitlines()
    assert len(listed) == 2 and listed[0].startswith(f"size 4  root {cp['root']}")


def test_prove_and_check_proof_with_only_the_public_key(adj, m, tmp_path):
    ok(adj("audit", "checkpoint"))
    (tmp_path / "pub.pem").write_text(ok(adj("audit", "pubkey")).stdout)
    ok(adj("audit", "prove", "m", "--out", str(tmp_path / "head.json")), "wrote the proof of leaf 3 to "
       f"{tmp_path / 'head.json'}\n")
    r = ok(adj("audit", "check-proof", str(tmp_path / "head.json"), "--pubkey", str(tmp_path / "pub.pem")))
    assert r.stdout.splitlines()[0] == "ok: inclusion proof verifies"
    assert "includes m seq 3 (hash " in r.stdout
    other = tmp_path / "other.pem"
    create_signing_key(str(other))
    r = adj("audit", "check-proof", str(tmp_path / "head.json"), "--pubkey", str(other) + ".pub")
    assert r.exit_code == 3 and "the proof does not verify: the checkpoint of tree size 4 is signed by key" in r.stderr
    proof = json.loads((tmp_path / "head.json").read_text())
    proof["leaf"] = proof["leaf"].replace('"seq":3', '"seq":2')
    (tmp_path / "bad.json").write_text(json.dumps(proof))
    fails(adj("audit", "check-proof", str(tmp_path / "bad.json"), "--pubkey", str(tmp_path / "pub.pem")), 3,
          "the proof does not verify: leaf 3 is not in the tree of size 4 that the checkpoint signs\n")


def test_consistency_between_stored_sizes_and_saved_checkpoints(adj, m, tmp_path):
    (tmp_path / "old.json").write_text(ok(adj("audit", "checkpoint", "--json")).stdout)
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("audit", "checkpoint"))
    (tmp_path / "pub.pem").write_text(ok(adj("audit", "pubkey")).stdout)
    ok(adj("audit", "consistency", str(tmp_path / "old.json"), "5", "--out", str(tmp_path / "c.json")))
    r = ok(adj("audit", "check-proof", str(tmp_path / "c.json"), "--pubkey", str(tmp_path / "pub.pem")))
    assert r.stdout.splitlines()[0] == "ok: consistency proof verifies"
    proof = json.loads(ok(adj("audit", "consistency", "4", "5")).stdout)
    assert (proof["proof"], proof["old"]["tree_size"], proof["new"]["tree_size"]) == ("consistency", 4, 5)
    r = adj("audit", "consistency", "4", "7")
    assert r.exit_code == 2 and "no checkpoint of tree size 7 in the store" in r.stderr


def test_export_with_proof_and_verify_file(adj, m, tmp_path):
    ok(adj("audit", "checkpoint"))
    (tmp_path / "pub.pem").write_text(ok(adj("audit", "pubkey")).stdout)
    exported = ok(adj("export", "m", "--with-proof", str(tmp_path / "m.proof.json"))).stdout
    (tmp_path / "m.jsonl").write_text(exported)
    r = ok(adj("verify", str(tmp_path / "m.jsonl"), "--pubkey", str(tmp_path / "pub.pem")))
    assert r.stdout.splitlines()[1] == "  complete: its head seq 3 is in the tree of size 4 signed by key " + \
        json.loads(ok(adj("audit", "pubkey", "--json")).stdout)["key"]
    # every exported line stays a match line for adj check and adj import
    r = adj("check", str(tmp_path / "m.jsonl"), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["accepted"] == 3
    # cut off the last line, keep the proof beside it under the same stem: caught
    (tmp_path / "cut.jsonl").write_text("".join(exported.splitlines(keepends=True)[:-1]))
    (tmp_path / "cut.proof.json").write_text((tmp_path / "m.proof.json").read_text())
    r = adj("verify", str(tmp_path / "cut.jsonl"))
    assert r.exit_code == 3 and "the file ends at m seq 2; the proven head is m seq 3: events were cut off" in r.stderr
    # without a proof the file still verifies as a chain, and says what it cannot show
    os.remove(tmp_path / "cut.proof.json")
    r = ok(adj("verify", str(tmp_path / "cut.jsonl")))
    assert r.stdout.splitlines()[1] == "  no proof file: the file cannot show that nothing was cut off its end"


def test_export_with_proof_needs_a_checkpoint(adj, m, tmp_path):
    r = adj("export", "m", "--with-proof", str(tmp_path / "p.json"))
    assert r.exit_code == 2 and "m seq 3 is not in the audit tree yet: make a checkpoint with adj audit checkpoint" in r.stderr


def test_verify_over_the_store_reports_the_tree_and_a_removed_rejection(adj, m, tmp_path):
    ok(adj("audit", "checkpoint"))
    r = ok(adj("verify"))
    assert r.stdout.splitlines()[1:] == ["audit tree: 4 leaves, 1 checkpoint(s)"]
    adj.sql("DELETE FROM rejections")
    r = adj("verify", "--json")
    assert r.exit_code == 3
    data = json.loads(r.stdout)
    assert data["ok"] is False and data["audit"]["problems"] == [
        "leaf 2: a rejected attempt of m is no longer in the store (removed)"]


def test_adj_starts_without_cryptography():
    code = "import sys, cli.main; print(sorted(m for m in ('cryptography', 'events.signing') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n"


def test_verify_names_a_match_whose_verdicts_differ_under_the_current_rules(adj, m, monkeypatch):
    """A rules upgrade made visible: the stored take of 3 would now be refused."""
    from tests import toygame

    check = toygame.GAME.check

    def stricter(state, event, ctx):
        if isinstance(event, toygame.Take) and event.count == 3:
            raise toygame.Violation("NIM-TAKE-1", "at most 2 stones under the new rules")
        return check(state, event, ctx)

    monkeypatch.setattr(toygame.GAME, "check", stricter)
    r = adj("verify", "--json")
    assert r.exit_code == 3
    rows = {row["match_id"]: row for row in json.loads(r.stdout)["matches"]}
    assert rows["m"]["ok"] is False
    assert rows["m"]["error"] == ("integrity failure in m at seq 2: stored 'take' no longer adjudicates: "
                                  "NIM-TAKE-1: at most 2 stones under the new rules")


def test_keys_new_writes_an_owner_only_pair_that_registers_and_signs(adj, m, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ok(adj("keys", "new", "judge-ann"), "wrote judge-ann.pem: the private key, readable by you only; keep it on this "
       "machine\nwrote judge-ann.pub: the public key, to register (adj judges add judge-ann --pubkey judge-ann.pub) or "
       "to hand to auditors\nkey " + _fingerprint(tmp_path / "judge-ann.pub") + "\n")
    assert stat.S_IMODE(os.stat(tmp_path / "judge-ann.pem").st_mode) == 0o600
    assert (tmp_path / "judge-ann.pub").read_text().startswith("-----BEGIN PUBLIC KEY-----")
    data = json.loads(ok(adj("keys", "new", "alice", "--dir", "keys", "--json")).stdout)
    assert (data["private_key"], data["public_key_file"]) == ("keys/alice.pem", "keys/alice.pub")
    assert stat.S_IMODE(os.stat(tmp_path / "keys").st_mode) == 0o700
    # the pair works: the public half registers a judge, the private half signs that judge's decisions
    ok(adj("judges", "add", "ann", "--pubkey", "judge-ann.pub"))
    ok(adj("rewind", "m", "--to", "2", "--reason", "slip", "--by", "judge", "--judge-key", "judge-ann.pem"))
    # and for the checkpoints
    ok(adj("keys", "new", "organiser"))
    cp = json.loads(ok(adj("audit", "checkpoint", "--key", "organiser.pem", "--json")).stdout)
    assert cp["key"] == _fingerprint(tmp_path / "organiser.pub")


def _fingerprint(pub) -> str:
    from events.signing import fingerprint, read_public_key

    return fingerprint(read_public_key(str(pub)))


def test_keys_new_never_writes_over_a_file_and_names_keys_plainly(adj, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ann.pub").write_text("mine\n")
    fails(adj("keys", "new", "ann", "--json"), 2,
          "error: 'ann.pub' exists already: a key file is never written over (nothing was written)\n",
          '{"error":"exists","message":"\'ann.pub\' exists already: a key file is never written over (nothing was '
          'written)"}\n')
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.pub"] and (tmp_path / "ann.pub").read_text() == "mine\n"
    r = adj("keys", "new", "../ann")
    assert r.exit_code == 2 and "'../ann': a key's name is 1 to 64 letters, digits" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.pub"]


def _long_match(adj, takes: int = 14) -> None:
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=30", "--id", "long"))
    for i in range(takes):
        player = ("alice", "bob")[i % 2]
        ok(adj("act", "long", "take", f"player={player}", "count=1", "--by", player))


def test_emptied_audit_tables_fail_verify_under_a_trusted_key_or_checkpoint(adj, tmp_path):
    """Events cut off past seq 10, then every leaf and checkpoint deleted: the chain alone cannot
    tell, and a store with no checkpoint at all must not pass an auditor who trusts one."""
    _long_match(adj)
    (tmp_path / "round-1.json").write_text(ok(adj("audit", "checkpoint", "--json")).stdout)
    (tmp_path / "pub.pem").write_text(ok(adj("audit", "pubkey")).stdout)
    fp = json.loads(ok(adj("audit", "pubkey", "--json")).stdout)["key"]
    ok(adj("verify", "--pubkey", str(tmp_path / "pub.pem"), "--checkpoint", str(tmp_path / "round-1.json")))
    adj.sql("DELETE FROM events WHERE seq > 10")
    adj.sql("DELETE FROM audit_leaves")
    adj.sql("DELETE FROM audit_checkpoints")
    r = ok(adj("verify"))  # nothing to trust: it passes, and says why that proves little
    assert r.stdout.splitlines()[-1] == ("audit: no checkpoint: nothing here is under a signed checkpoint, so events cut "
                                         "off the end of a match, or a match rewritten whole, would not show "
                                         "(adj audit checkpoint)")
    r = adj("verify", "--pubkey", str(tmp_path / "pub.pem"), "--json")
    assert (r.exit_code, r.stderr) == (3, "integrity failure: the audit ledger do(es) not verify\n")
    assert json.loads(r.stdout)["audit"]["problems"] == [
        f"the store has no checkpoint, where one signed by the trusted key ({fp}) was expected: its audit tables were "
        "emptied, or it was never checkpointed (adj audit checkpoint)"]
    cp = json.loads((tmp_path / "round-1.json").read_text())
    made = f"the trusted checkpoint of tree size 15 (made {cp['created_at']})"
    r = adj("verify", "--checkpoint", str(tmp_path / "round-1.json"), "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout)["audit"]["problems"] == [
        f"the store has no checkpoint, though it had {made}: its audit tables were emptied",
        f"the store's tree no longer has the root of {made}: the audit tree was cut back or rewritten"]
    r = adj("verify", "long", "--pubkey", str(tmp_path / "pub.pem"))
    assert r.exit_code == 3 and "FAILED: the store has no checkpoint, where one signed by the trusted key" in r.stdout


def test_a_store_cut_back_to_an_older_checkpoint_fails_against_the_last_one_trusted(adj, tmp_path):
    _long_match(adj, 4)
    old = json.loads(ok(adj("audit", "checkpoint", "--json")).stdout)
    for player in ("alice", "bob"):
        ok(adj("act", "long", "take", f"player={player}", "count=1", "--by", player))
    (tmp_path / "round-2.json").write_text(ok(adj("audit", "checkpoint", "--json")).stdout)
    new = json.loads((tmp_path / "round-2.json").read_text())
    adj.sql("DELETE FROM events WHERE seq > 5")
    adj.sql(f"DELETE FROM audit_leaves WHERE idx >= {old['tree_size']}")
    adj.sql(f"DELETE FROM audit_checkpoints WHERE tree_size = {new['tree_size']}")
    ok(adj("verify"))  # the older checkpoint still holds: only the auditor's file can tell
    r = adj("verify", "--checkpoint", str(tmp_path / "round-2.json"), "--json")
    made = f"the trusted checkpoint of tree size 7 (made {new['created_at']})"
    assert r.exit_code == 3 and json.loads(r.stdout)["audit"]["problems"] == [
        f"the store's latest checkpoint is of tree size 5, older than {made}: its later checkpoints were removed",
        f"the store's tree no longer has the root of {made}: the audit tree was cut back or rewritten"]
    r = adj("verify", str(tmp_path / "round-2.json"), "--checkpoint", str(tmp_path / "round-2.json"))
    assert r.exit_code == 2 and "--checkpoint holds a store to the last checkpoint you trusted" in r.stderr
    (tmp_path / "bad.json").write_text('{"body": "nope"}')
    r = adj("verify", "--checkpoint", str(tmp_path / "bad.json"))
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {tmp_path / 'bad.json'} is not a checkpoint file (")
    create_signing_key(str(tmp_path / "other.pem"))
    r = adj("verify", "--checkpoint", str(tmp_path / "round-2.json"), "--pubkey", str(tmp_path / "other.pem.pub"))
    assert r.exit_code == 3 and r.stderr.startswith(f"the trusted checkpoint {tmp_path / 'round-2.json'} does not "
                                                    "verify: the checkpoint of tree size 7 is signed by key ")


def test_verify_match_says_which_events_the_latest_checkpoint_covers(adj, m, tmp_path):
    cp = json.loads(ok(adj("audit", "checkpoint", "--json")).stdout)
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))
    under = f"under the latest checkpoint (tree size 4, made {cp['created_at']}, key {cp['key']})"
    ok(adj("verify", "m"), "m: ok: 5 events, chain intact, re-adjudicated; 1 rejected attempt(s) refused again by the "
                           f"same rule\n  seq 1-3 are {under}; seq 4-5 are not yet\n")
    row = json.loads(ok(adj("verify", "m", "--json")).stdout)["matches"][0]
    assert row["checkpoint"] == {"tree_size": 4, "root": cp["root"], "created_at": cp["created_at"], "key": cp["key"],
                                 "covered_to": 3}
    latest = json.loads(ok(adj("audit", "checkpoint", "--json")).stdout)
    assert ok(adj("verify", "m")).stdout.splitlines()[1] == (
        f"  all 5 events are under the latest checkpoint (tree size 6, made {latest['created_at']}, key {latest['key']})")
    # the whole match rewritten consistently: the chain verifies, its leaves do not
    with SQLiteStore(adj.path) as store:
        rows = [list(event_row(e)) for e in store.read("m")]
    rows[1][EVENT_COLUMNS.index("recorded_at")] = "2026-05-01T00:00:00Z"
    adj.sql("DELETE FROM events WHERE match_id = 'm'")
    for row in _reseal([tuple(r) for r in rows]):
        adj.sql(f"INSERT INTO events ({', '.join(chr(34) + c + chr(34) for c in EVENT_COLUMNS)}) VALUES "
                f"({', '.join('?' * len(row))})", *row)
    r = adj("verify", "m", "--json")
    assert r.exit_code == 3
    data = json.loads(r.stdout)["matches"][0]
    assert (data["ok"], data["checkpoint"]["covered_to"]) == (False, 1)
    assert data["error"].startswith("leaf 1: m seq 2 (or its signature) is not what the checkpoint of tree size 6 holds")
    assert "FAILED: leaf 1: m seq 2 (or its signature) is not what the checkpoint of tree size 6 holds (altered or cut off)" \
        in adj("verify", "m").stdout
