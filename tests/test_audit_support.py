"""Helpers for the audit tests (this module holds no test of its own): a store on every backend,
matches of the toy game nim played into it, keys, and tampering with the rows behind the store's
back as someone with direct access to the file or the database could."""

from __future__ import annotations

import sqlite3

import msgspec
import pytest

from adjudicator.authority.audit import Auditor
from adjudicator.service import IntegrityError, MatchService
from events.memory import MemoryStore
from events.rows import EVENT_COLUMNS, event_row
from events.signing import create_signing_key
from tests.test_store_support import pg_execute, pg_schema  # noqa: F401  (fixture)

BACKENDS = ["memory", "sqlite", "postgres"]


class Clock:
    """recorded_at values that move on by a second at each call."""

    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> str:
        self.t += 1
        return f"2026-05-01T10:{self.t // 60:02d}:{self.t % 60:02d}.000000Z"


class Rig:
    """A store on one backend, a service and an auditor on it, and raw access to its rows."""

    def __init__(self, name: str, store, location: str | None = None):
        self.name = name
        self.store = store
        self.location = location
        self.clock = Clock()
        self.service = MatchService(store, clock=self.clock)
        self.auditor = Auditor(store, clock=self.clock)

    # -- raw rows -------------------------------------------------------------------------
    def sql(self, statement: str, params: tuple = ()) -> list[tuple]:
        if self.name == "sqlite":
            with sqlite3.connect(self.location) as db:
                return db.execute(statement, params).fetchall()
        return pg_execute(self.location, statement.replace("?", "%s"), params)

    def event_rows(self, match_id: str) -> list[tuple]:
        return [event_row(e) for e in self.store.read(match_id)]

    def put_event_rows(self, match_id: str, rows: list[tuple]) -> None:
        """Replace a match's rows (the 8 event columns) with ``rows``, as they are."""
        if self.name == "memory":
            self.store._logs[match_id] = list(rows)
            return
        self.sql("DELETE FROM events WHERE match_id = ?", (match_id,))
        cols = ", ".join(f'"{c}"' for c in EVENT_COLUMNS)
        for row in rows:
            self.sql(f"INSERT INTO events ({cols}) VALUES ({', '.join('?' * len(row))})", tuple(row))

    def drop_rejection(self, match_id: str, index: int) -> None:
        """Remove the ``index``-th rejected attempt (from 0) recorded for ``match_id``."""
        if self.name == "memory":
            del self.store._rejections[match_id][index]
            return
        ids = [r[0] for r in self.sql("SELECT id FROM rejections WHERE match_id = ? ORDER BY id", (match_id,))]
        self.sql("DELETE FROM rejections WHERE id = ?", (ids[index],))

    def set_leaf_hashes(self, hashes: dict[int, str]) -> None:
        if self.name == "memory":
            leaves = self.store._ledger()["leaves"]
            for i, h in hashes.items():
                leaves[i] = msgspec.structs.replace(leaves[i], hash=h)
            return
        for i, h in hashes.items():
            self.sql("UPDATE audit_leaves SET leaf_hash = ? WHERE idx = ?", (h, i))

    def set_checkpoints(self, checkpoints: list) -> None:
        if self.name == "memory":
            self.store._ledger()["checkpoints"][:] = checkpoints
            return
        self.sql("DELETE FROM audit_checkpoints")
        for cp in checkpoints:
            self.sql("INSERT INTO audit_checkpoints (tree_size, root, created_at, public_key, signature)"
                     " VALUES (?, ?, ?, ?, ?)", (cp.tree_size, cp.root, cp.created_at, cp.public_key, cp.signature))

    # -- what an auditor sees -------------------------------------------------------------
    def detect(self, pinned: list[str]) -> list[str]:
        """Everything ``adj verify`` over the whole store would report: chain and re-adjudication
        failures of each match, rejected attempts that no longer re-adjudicate, ledger problems."""
        found = []
        for info in self.store.matches():
            try:
                match = self.service.verify(info.match_id)
                self.service.recheck_rejections(match)
            except IntegrityError as exc:
                found.append(f"chain: {exc}")
        found += [f"ledger: {p}" for p in self.auditor.verify(pinned).problems]
        return found


def make_rig(name: str, request, tmp_path) -> Rig:
    if name == "memory":
        return Rig(name, MemoryStore())
    if name == "sqlite":
        from events.sqlite import SQLiteStore

        path = str(tmp_path / "store.sqlite3")
        return Rig(name, SQLiteStore(path), path)
    from events.postgres import PostgresStore

    url = request.getfixturevalue("pg_schema")
    return Rig(name, PostgresStore(url), url)


@pytest.fixture(params=BACKENDS)
def rig(request, tmp_path):
    r = make_rig(request.param, request, tmp_path)
    yield r
    r.store.close()


@pytest.fixture
def key(tmp_path):
    return create_signing_key(str(tmp_path / "keys" / "log.pem"))


def play(service: MatchService, match_id: str, takes: list[tuple[str, int]], pile: int = 12) -> None:
    """A nim match: each (player, count) is entered by that player; illegal ones are recorded as
    rejected attempts (the turn does not pass)."""
    service.new("nim", ["alice", "bob"], options={"pile": pile}, match_id=match_id)
    for player, count in takes:
        service.submit(match_id, "take", player, {"player": player, "count": count})
