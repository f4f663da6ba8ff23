"""The audit ledger in the SQL backends: four tables beside ``events`` and ``rejections``.

The tables are created on the first audit call of a handle (``CREATE ... IF NOT EXISTS``; on
PostgreSQL under the schema's advisory lock), so a store that never audits is unchanged.
Sequencing runs in one write transaction under a store-wide lock (SQLite's ``BEGIN IMMEDIATE``,
a PostgreSQL advisory lock), and ``audit_leaves.idx`` is the primary key: two hosts can never
give one place in the tree to two leaves.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from events.checkpoint import Checkpoint, KeyRecord, Leaf, Signature
from events.envelope import Rejection
from events.ledger import Ledger, plan_leaves
from events.rows import rejection_from_row
from events.store import StoreError

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_leaves (
    idx INTEGER PRIMARY KEY, kind TEXT NOT NULL, match_id TEXT NOT NULL, seq INTEGER NOT NULL,
    ref INTEGER NOT NULL, leaf_hash TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS audit_leaves_item ON audit_leaves (kind, match_id, seq, ref);
CREATE TABLE IF NOT EXISTS audit_checkpoints (
    id INTEGER PRIMARY KEY, tree_size INTEGER NOT NULL, root TEXT NOT NULL, created_at TEXT NOT NULL,
    public_key TEXT NOT NULL, signature TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit_keys (
    id INTEGER PRIMARY KEY, role TEXT NOT NULL, name TEXT NOT NULL, public_key TEXT NOT NULL,
    "by" TEXT NOT NULL, recorded_at TEXT NOT NULL, UNIQUE (role, name));
CREATE TABLE IF NOT EXISTS audit_signatures (
    hash TEXT PRIMARY KEY, match_id TEXT NOT NULL, seq INTEGER NOT NULL, role TEXT NOT NULL,
    signer TEXT NOT NULL, public_key TEXT NOT NULL, value TEXT NOT NULL);
"""

_TEMP_SCHEMA = "\n".join(
    line.replace("CREATE TABLE", "CREATE TEMP TABLE") for line in SQLITE_SCHEMA.splitlines() if "INDEX" not in line
)

POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_leaves (
    idx bigint PRIMARY KEY, kind text NOT NULL, match_id text NOT NULL, seq bigint NOT NULL,
    ref bigint NOT NULL, leaf_hash text NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS audit_leaves_item ON audit_leaves (kind, match_id, seq, ref);
CREATE TABLE IF NOT EXISTS audit_checkpoints (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, tree_size bigint NOT NULL, root text NOT NULL,
    created_at text NOT NULL, public_key text NOT NULL, signature text NOT NULL);
CREATE TABLE IF NOT EXISTS audit_keys (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, role text NOT NULL, name text NOT NULL,
    public_key text NOT NULL, "by" text NOT NULL, recorded_at text NOT NULL, UNIQUE (role, name));
CREATE TABLE IF NOT EXISTS audit_signatures (
    hash text PRIMARY KEY, match_id text NOT NULL, seq bigint NOT NULL, role text NOT NULL,
    signer text NOT NULL, public_key text NOT NULL, value text NOT NULL);
"""

#: Advisory lock key held while leaves are sequenced ("adj_tree" as a 64-bit integer).
SEQUENCE_LOCK = 0x61646A5F74726565

_PENDING_EVENTS = """
SELECT e.recorded_at, e.match_id, e.seq, e.hash, s.hash, s.role, s.signer, s.public_key, s.value
FROM events e
LEFT JOIN audit_leaves l ON l.kind = 'event' AND l.match_id = e.match_id AND l.seq = e.seq AND l.ref = 0
LEFT JOIN audit_signatures s ON s.hash = e.hash
WHERE l.idx IS NULL
"""
_REJECTION_COLS = 'r.id, r.match_id, r.head_seq, r.type, r."by", r.recorded_at, r.attempted, r.rule, r.message, r.code'
_PENDING_REJECTIONS = f"""
SELECT {_REJECTION_COLS} FROM rejections r
LEFT JOIN audit_leaves l ON l.kind = 'rejection' AND l.match_id = r.match_id AND l.seq = 0 AND l.ref = r.id
WHERE l.idx IS NULL
"""
_KEY_COLS = 'k.id, k.role, k.name, k.public_key, k."by", k.recorded_at'
_PENDING_KEYS = f"""
SELECT {_KEY_COLS} FROM audit_keys k
LEFT JOIN audit_leaves l ON l.kind = 'key' AND l.match_id = '' AND l.seq = 0 AND l.ref = k.id
WHERE l.idx IS NULL
"""
_SIG_COLS = "hash, match_id, seq, role, signer, public_key, value"

Run = Callable[..., list[tuple]]

#: Leaves per INSERT statement (6 parameters each: under SQLite's oldest limit of 999).
_BATCH = 160

#: Advisory lock key held while the schema is created ("adj_stor" as a 64-bit integer).
SCHEMA_LOCK = 0x61646A5F73746F72


def _signature(row: tuple) -> Signature:
    h, m, s, role, signer, pk, value = row
    return Signature(hash=h, match_id=m, seq=s, role=role, signer=signer, public_key=pk, value=value)


def _key(row: tuple) -> KeyRecord:
    ref, role, name, pk, by, at = row
    return KeyRecord(ref=ref, role=role, name=name, public_key=pk, by=by, recorded_at=at)


class SQLLedger(Ledger):
    """The ledger over SQL; a backend supplies ``_ledger_read`` and ``_ledger_write``, each a
    context manager yielding ``run(sql, params=()) -> rows`` (SQL written with ``?``)."""

    def _ledger_read(self, what: str) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def _ledger_write(self, what: str) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def audit_sequence(self) -> int:
        with self._ledger_write("sequencing the audit tree") as run:
            size = run("SELECT count(*) FROM audit_leaves")[0][0]
            events = [
                (at, m, s, h, _signature((sh, m, s, *rest)) if sh is not None else None)
                for at, m, s, h, sh, *rest in run(_PENDING_EVENTS)
            ]
            rejections = [(row[0], rejection_from_row(row[1:])) for row in run(_PENDING_REJECTIONS)]
            keys = [_key(row) for row in run(_PENDING_KEYS)]
            leaves = plan_leaves(size, events, rejections, keys)
            for i in range(0, len(leaves), _BATCH):
                chunk = leaves[i : i + _BATCH]
                run(
                    "INSERT INTO audit_leaves (idx, kind, match_id, seq, ref, leaf_hash) VALUES "
                    + ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(chunk)),
                    tuple(v for leaf in chunk for v in (leaf.index, leaf.kind, leaf.match_id, leaf.seq, leaf.ref, leaf.hash)),
                )
            return size + len(leaves)

    def audit_leaves(self) -> list[Leaf]:
        with self._ledger_read("reading the audit tree") as run:
            rows = run("SELECT idx, kind, match_id, seq, ref, leaf_hash FROM audit_leaves ORDER BY idx")
        return [Leaf(index=i, kind=k, match_id=m, seq=s, ref=r, hash=h) for i, k, m, s, r, h in rows]

    def audit_leaf_batches(self, size: int) -> Iterator[list[Leaf]]:
        after: int | None = None  # idx is the key: each batch starts after the last one's end
        while True:
            with self._ledger_read("reading the audit tree") as run:
                rows = run("SELECT idx, kind, match_id, seq, ref, leaf_hash FROM audit_leaves"
                           + (" WHERE idx > ?" if after is not None else "") + " ORDER BY idx LIMIT ?",
                           (size,) if after is None else (after, size))
            if not rows:
                return
            yield [Leaf(index=i, kind=k, match_id=m, seq=s, ref=r, hash=h) for i, k, m, s, r, h in rows]
            after = rows[-1][0]

    def audit_event_leaves(self, match_id: str) -> list[Leaf]:
        with self._ledger_read("reading the audit tree") as run:
            rows = run("SELECT idx, kind, match_id, seq, ref, leaf_hash FROM audit_leaves"
                       " WHERE kind = 'event' AND match_id = ? ORDER BY idx", (match_id,))
        return [Leaf(index=i, kind=k, match_id=m, seq=s, ref=r, hash=h) for i, k, m, s, r, h in rows]

    def audit_add_checkpoint(self, checkpoint: Checkpoint) -> None:
        with self._ledger_read("recording a checkpoint") as run:
            run(
                "INSERT INTO audit_checkpoints (tree_size, root, created_at, public_key, signature) VALUES (?, ?, ?, ?, ?)",
                (checkpoint.tree_size, checkpoint.root, checkpoint.created_at, checkpoint.public_key, checkpoint.signature),
            )

    def audit_checkpoints(self) -> list[Checkpoint]:
        with self._ledger_read("reading the checkpoints") as run:
            rows = run("SELECT tree_size, root, created_at, public_key, signature FROM audit_checkpoints ORDER BY id")
        return [Checkpoint(tree_size=n, root=r, created_at=c, public_key=p, signature=s) for n, r, c, p, s in rows]

    def audit_add_key(self, role: str, name: str, public_key: str, by: str, recorded_at: str) -> KeyRecord:
        with self._ledger_write(f"registering the {role} {name!r}") as run:
            if run("SELECT 1 FROM audit_keys WHERE role = ? AND name = ?", (role, name)):
                raise StoreError(f"{role} {name!r} already has a registered key; a key is registered once")
            run(
                'INSERT INTO audit_keys (role, name, public_key, "by", recorded_at) VALUES (?, ?, ?, ?, ?)',
                (role, name, public_key, by, recorded_at),
            )
            row = run(f"SELECT {_KEY_COLS} FROM audit_keys k WHERE role = ? AND name = ?", (role, name))[0]
        return _key(row)

    def audit_keys(self) -> list[KeyRecord]:
        with self._ledger_read("reading the registered keys") as run:
            return [_key(row) for row in run(f"SELECT {_KEY_COLS} FROM audit_keys k ORDER BY k.id")]

    def audit_put_signature(self, signature: Signature) -> None:
        with self._ledger_read("recording a signature") as run:
            run(
                f"INSERT INTO audit_signatures ({_SIG_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                (signature.hash, signature.match_id, signature.seq, signature.role, signature.signer,
                 signature.public_key, signature.value),
            )

    def audit_signatures(self, match_id: str | None = None) -> dict[str, Signature]:
        with self._ledger_read("reading the signatures") as run:
            if match_id is None:
                rows = run(f"SELECT {_SIG_COLS} FROM audit_signatures")
            else:
                rows = run(f"SELECT {_SIG_COLS} FROM audit_signatures WHERE match_id = ?", (match_id,))
        return {row[0]: _signature(row) for row in rows}

    def audit_rejections(self) -> dict[tuple[str, int], Rejection]:
        with self._ledger_read("reading the rejected attempts") as run:
            rows = run(f"SELECT {_REJECTION_COLS} FROM rejections r")
        return {(row[1], row[0]): rejection_from_row(row[1:]) for row in rows}


class SQLiteLedger(SQLLedger):
    """For ``events.sqlite.SQLiteStore`` (uses its ``_using`` and ``_write``)."""

    _ledger_ready = False

    def _ledger_ensure(self) -> None:
        if self._ledger_ready:
            return
        with self._using("creating the audit tables") as db:  # type: ignore[attr-defined]
            found = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                               " ('audit_leaves', 'audit_checkpoints', 'audit_keys', 'audit_signatures')").fetchone()[0]
            if found < 4:
                try:
                    db.executescript(SQLITE_SCHEMA)
                except sqlite3.OperationalError as exc:
                    if "readonly" not in str(exc):
                        raise
                    # opened for reading only, and never audited: its audit tables are empty ones
                    db.executescript(_TEMP_SCHEMA)
        self._ledger_ready = True

    @contextmanager
    def _ledger_read(self, what: str) -> Iterator[Run]:
        self._ledger_ensure()
        with self._using(what) as db:  # type: ignore[attr-defined]
            yield lambda sql, params=(): db.execute(sql, params).fetchall()

    @contextmanager
    def _ledger_write(self, what: str) -> Iterator[Run]:
        self._ledger_ensure()
        with self._write(what) as db:  # type: ignore[attr-defined]
            yield lambda sql, params=(): db.execute(sql, params).fetchall()


class PostgresLedger(SQLLedger):
    """For ``events.postgres.PostgresStore`` (uses its ``_using``)."""

    _ledger_ready = False

    def _ledger_cursor(self, what: str) -> Any:
        if not self._ledger_ready:
            with self._using("creating the audit tables") as cur:  # type: ignore[attr-defined]
                cur.execute("SELECT to_regclass('audit_signatures') IS NOT NULL")
                if not cur.fetchone()[0]:
                    with cur.connection.transaction():
                        cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                        cur.execute(POSTGRES_SCHEMA)
            self._ledger_ready = True
        return self._using(what)  # type: ignore[attr-defined]

    @staticmethod
    def _runner(cur: Any) -> Run:
        def run(sql: str, params: tuple = ()) -> list[tuple]:
            cur.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []

        return run

    @contextmanager
    def _ledger_read(self, what: str) -> Iterator[Run]:
        with self._ledger_cursor(what) as cur:
            yield self._runner(cur)

    @contextmanager
    def _ledger_write(self, what: str) -> Iterator[Run]:
        with self._ledger_cursor(what) as cur:
            with cur.connection.transaction():
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (SEQUENCE_LOCK,))
                yield self._runner(cur)
