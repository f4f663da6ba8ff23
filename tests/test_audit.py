"""The store's audit tree on every backend (memory, SQLite, PostgreSQL): signed checkpoints,
inclusion and consistency proofs, and every kind of tampering caught by the chain, the tree or a
checkpoint. Several processes (hosts) appending and checkpointing at once agree on one tree."""

from __future__ import annotations

import pytest

from adjudicator.authority.audit import ProofError, check_proof
from events.checkpoint import Checkpoint, event_leaf
from events.merkle import leaf_hash, root
from events.envelope import chain_hash
from events.rows import EVENT_COLUMNS
from events.signing import create_signing_key
from tests.test_audit_support import Rig, key, play, rig  # noqa: F401  (fixtures)
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)
from tests.test_store_support import register_nim, run_processes

GAME_A = [("alice", 3), ("bob", 2), ("bob", 1), ("alice", 4), ("alice", 1)]  # bob's 2nd and alice's 4 are refused
GAME_B = [("alice", 2), ("bob", 3)]


def played(rig: Rig) -> None:
    play(rig.service, "a", GAME_A)
    play(rig.service, "b", GAME_B)


def test_a_checkpoint_signs_every_event_and_rejected_attempt(rig, key):
    played(rig)
    assert [len(rig.store.read(m)) for m in ("a", "b")] == [4, 3]
    assert [len(rig.store.rejections(m)) for m in ("a", "b")] == [2, 0]
    cp = rig.auditor.checkpoint(key)
    leaves = rig.store.audit_leaves()
    assert cp.tree_size == len(leaves) == 4 + 3 + 2
    assert sorted(leaf.kind for leaf in leaves) == ["event"] * 7 + ["rejection"] * 2
    assert cp.root == root([bytes.fromhex(leaf.hash) for leaf in leaves]).hex()
    # each match's events keep their seq order in the tree
    assert [leaf.seq for leaf in leaves if leaf.match_id == "a" and leaf.kind == "event"] == [1, 2, 3, 4]
    head = rig.auditor.prove("a")
    report = check_proof(head, [key.public_key])
    assert report.leaves[0] == {"kind": "event", "match_id": "a", "seq": 4, "hash": rig.store.read("a")[-1].hash,
                                "signature": None}
    first = rig.auditor.prove("b", 1)
    assert check_proof(first, [key.public_key]).leaves[0]["seq"] == 1
    assert rig.detect([key.public_key]) == []


def test_an_event_not_yet_under_a_checkpoint_cannot_be_proven(rig, key):
    play(rig.service, "a", GAME_B)
    with pytest.raises(Exception, match="not in the audit tree yet: make a checkpoint"):
        rig.auditor.prove("a")
    rig.auditor.checkpoint(key)
    rig.service.submit("a", "take", "alice", {"player": "alice", "count": 1})
    with pytest.raises(Exception, match="a seq 4 is not in the audit tree yet"):
        rig.auditor.prove("a")
    assert rig.auditor.verify([key.public_key]).pending == 1


def test_later_checkpoints_extend_earlier_ones(rig, key):
    play(rig.service, "a", GAME_A)
    old = rig.auditor.checkpoint(key)
    play(rig.service, "b", GAME_B)
    new = rig.auditor.checkpoint(key)
    assert (old.tree_size, new.tree_size) == (6, 9)
    proof = rig.auditor.consistency(old, new)
    report = check_proof(proof, [key.public_key])
    assert [c["tree_size"] for c in report.checkpoints] == [6, 9]
    forged = dict(proof, path=proof["path"][:-1])
    with pytest.raises(ProofError, match="does not extend the tree of size 6: the log was rewritten"):
        check_proof(forged, [key.public_key])
    audit = rig.auditor.verify([key.public_key])
    assert (audit.problems, audit.leaves, audit.pending, [c["ok"] for c in audit.checkpoints]) == ([], 9, 0, [True, True])


def _reseal(rows: list[tuple]) -> list[tuple]:
    """Rows with their prev and hash recomputed: a rewrite the chain cannot see."""
    out, prev = [], ""
    for row in rows:
        d = dict(zip(EVENT_COLUMNS, row))
        import json

        fields = json.loads(d["payload"])
        h = chain_hash(match_id=d["match_id"], seq=d["seq"], type=d["type"], by=d["by"],
                       recorded_at=d["recorded_at"], fields=fields, prev=prev)
        d.update(prev=prev, hash=h)
        out.append(tuple(d[c] for c in EVENT_COLUMNS))
        prev = h
    return out


def _payload(row: tuple, **changes) -> tuple:
    import json

    i = EVENT_COLUMNS.index("payload")
    fields = json.loads(row[i])
    fields.update(changes)
    return row[:i] + (json.dumps(fields, sort_keys=True, separators=(",", ":")),) + row[i + 1:]


def _seq(row: tuple, seq: int) -> tuple:
    i = EVENT_COLUMNS.index("seq")
    return row[:i] + (seq,) + row[i + 1:]


def tamper(rig: Rig, kind: str) -> None:
    """One kind of tampering with match "a" (4 events, 2 rejected attempts), behind the store's back."""
    rows = rig.event_rows("a")
    if kind == "edit":  # alice took 2, not 3
        rows[1] = _payload(rows[1], count=2)
    elif kind == "delete":
        rows = rows[:1] + [_seq(r, r[1] - 1) for r in rows[2:]]
    elif kind == "insert":
        extra = _payload(rows[1], count=1)
        rows = rows[:2] + [_seq(extra, 3)] + [_seq(r, r[1] + 1) for r in rows[2:]]
    elif kind == "reorder":
        rows = [rows[0], _seq(rows[2], 2), _seq(rows[1], 3), rows[3]]
    elif kind == "truncate":
        rows = rows[:-1]
    elif kind == "rewrite":  # a consistent rewrite: bob took 1, not 2, and the chain is resealed
        rows = _reseal(rows[:2] + [_payload(rows[2], count=1)] + rows[3:])
    if kind == "drop_rejection":
        rig.drop_rejection("a", 0)
    else:
        rig.put_event_rows("a", rows)


KINDS = ["edit", "delete", "insert", "reorder", "truncate", "rewrite", "drop_rejection"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_tampering_is_caught(rig, key, kind):
    played(rig)
    rig.auditor.checkpoint(key)
    assert rig.detect([key.public_key]) == []
    tamper(rig, kind)
    found = rig.detect([key.public_key])
    assert found, f"{kind} went unnoticed"
    if kind in ("truncate", "rewrite", "drop_rejection"):  # invisible to the chain: the tree sees it
        assert not any(f.startswith("chain") for f in found)
        assert any(f.startswith("ledger: leaf") for f in found)


def test_a_rewrite_of_the_tree_as_well_is_caught_by_the_signed_checkpoint(rig, key):
    played(rig)
    rig.auditor.checkpoint(key)
    tamper(rig, "rewrite")
    events = {(e.match_id, e.seq): e for e in rig.store.read("a")}
    fixed = {leaf.index: leaf_hash(event_leaf("a", leaf.seq, events[("a", leaf.seq)].hash, None)).hex()
             for leaf in rig.store.audit_leaves() if leaf.match_id == "a" and leaf.kind == "event"}
    rig.set_leaf_hashes(fixed)
    found = rig.detect([key.public_key])
    assert found == [f"ledger: checkpoint of tree size 9 made {rig.auditor.checkpoints()[0].created_at}: its root is "
                     "not the root of the store's tree (the ledger was rewritten)"]


def test_a_replaced_checkpoint_is_caught(rig, key, tmp_path):
    played(rig)
    cp = rig.auditor.checkpoint(key)
    other = "0" * 64
    rig.set_checkpoints([Checkpoint(tree_size=cp.tree_size, root=other, created_at=cp.created_at,
                                    public_key=cp.public_key, signature=cp.signature)])
    found = rig.detect([key.public_key])
    assert found == [f"ledger: checkpoint of tree size 9 made {cp.created_at}: the signature of the checkpoint of "
                     "tree size 9 does not verify"]
    # re-signed by someone else's key: only a pinned key tells
    forger = create_signing_key(str(tmp_path / "forger.pem"))
    body = cp.body()
    rig.set_checkpoints([Checkpoint(tree_size=cp.tree_size, root=cp.root, created_at=cp.created_at,
                                    public_key=forger.public_key, signature=forger.sign(body.encode()))])
    assert rig.detect([]) == []
    found = rig.detect([key.public_key])
    assert len(found) == 1 and "is signed by key" in found[0] and "not by the key given" in found[0]


def _worker(out, url: str, match_id: str, key_path: str, rounds: int) -> None:
    register_nim()
    from adjudicator.authority.audit import Auditor, signing_key
    from adjudicator.service import MatchService
    from events.factory import open_store

    store = open_store(url)
    service, auditor = MatchService(store), Auditor(store)
    key = signing_key(key_path)
    service.new("nim", ["alice", "bob"], options={"pile": 100}, match_id=match_id)
    for i in range(rounds):
        player = "alice" if i % 2 == 0 else "bob"
        service.submit(match_id, "take", player, {"player": player, "count": 1})
        cp = auditor.checkpoint(key)
        out.put((cp.tree_size, cp.root))
    store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_several_hosts_checkpointing_at_once_agree_on_one_tree(backend, request, tmp_path):
    if backend == "postgres":
        url = request.getfixturevalue("pg_schema")
    else:
        url = str(tmp_path / "shared.sqlite3")
    keys = [create_signing_key(str(tmp_path / f"host{i}.pem")) for i in range(3)]
    seen = run_processes(_worker, [(url, f"t{i}", keys[i].path, 6) for i in range(3)])
    by_size: dict[int, set[str]] = {}
    for size, top in seen:
        by_size.setdefault(size, set()).add(top)
    assert all(len(roots) == 1 for roots in by_size.values())
    from events.factory import open_store

    store = open_store(url)
    try:
        rig = Rig(backend, store, url)
        audit = rig.auditor.verify([k.public_key for k in keys])
        assert (audit.problems, audit.leaves, len(audit.checkpoints)) == ([], 3 * 7, 18)
        assert all(c["ok"] for c in audit.checkpoints)
    finally:
        store.close()


def test_a_store_opened_for_reading_only_that_never_audited_verifies(tmp_path):
    from events.sqlite import SQLiteStore

    path = str(tmp_path / "s.sqlite3")
    with SQLiteStore(path) as store:
        play(Rig("sqlite", store, path).service, "a", GAME_B)
    with SQLiteStore(path, readonly=True) as store:
        audit = Rig("sqlite", store, path).auditor.verify([])
        assert (audit.problems, audit.leaves, audit.pending, audit.checkpoints) == ([], 0, 3, [])
        assert store.audit_signatures() == {} and store.audit_keys() == []
    import sqlite3

    with sqlite3.connect(path) as db:  # nothing was created in the file
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE name LIKE 'audit_%'").fetchone()[0] == 0


@pytest.mark.parametrize("kind", ["edit", "truncate", "drop_rejection"])
def test_the_audit_of_each_match_where_it_is_verified_finds_what_the_audit_alone_finds(rig, key, kind, monkeypatch):
    """``adj verify`` of a store checks each match's events against the tree as it verifies the
    match, in processes of their own when the store is a file or a server: the same findings, in
    the same order, as the audit reading every match itself."""
    from adjudicator import service as service_module

    played(rig)
    rig.auditor.checkpoint(key)
    rig.service.new("nim", ["alice", "bob"], options={"pile": 5}, match_id="c")  # not yet under a checkpoint
    tamper(rig, kind)
    rig.set_leaf_hashes({0: "00" * 32})
    alone = rig.auditor.verify([key.public_key])
    assert alone.problems[0].startswith("leaf 0: ") and any("is not the root of the store's tree" in p for p in alone.problems)
    assert alone.pending == 1
    monkeypatch.setattr(service_module, "PARALLEL_EVENTS", 0)
    plan = rig.auditor.plan()
    results = rig.service.verify_each([m.match_id for m in rig.store.matches()], observe=plan)
    assert rig.auditor.verify([key.public_key], None, plan, [r.found for r in results]) == alone
