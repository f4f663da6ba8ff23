"""Where seats' tokens are kept: a table of their own, ``serve_tokens``, in the store's own
database (the same SQLite file, the same PostgreSQL database; in memory for ``memory:``), so that
every server on one store knows every seat's token and a restart forgets none.

A row holds the SHA-256 of a token (never the token), the match and seat it is for, when it was
issued and, once revoked, when. The events' tables are not touched: the log and its hash chain know
nothing of credentials, and ``adj store copy`` does not copy them (a copied match gets new tokens).
"""

from __future__ import annotations

import sqlite3
import threading
from abc import ABC, abstractmethod
from typing import Any, NamedTuple

from events.store import Store, StoreError

_SQL = """
CREATE TABLE IF NOT EXISTS serve_tokens (
    token_hash  TEXT PRIMARY KEY,
    match_id    TEXT NOT NULL,
    seat        TEXT NOT NULL,
    issued_at   TEXT NOT NULL,
    revoked_at  TEXT
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS serve_tokens_seat ON serve_tokens (match_id, seat)"


class Held(NamedTuple):
    """A stored token: the hash it is kept under, its match and seat, and whether it was revoked."""

    token_hash: str
    match_id: str
    seat: str
    revoked: bool


class TokenTable(ABC):
    @abstractmethod
    def add(self, token_hash: str, match_id: str, seat: str, issued_at: str) -> None: ...

    @abstractmethod
    def find(self, token_hash: str) -> Held | None: ...

    @abstractmethod
    def revoke(self, match_id: str, seat: str, at: str) -> int:
        """Revoke every live token of the seat; how many there were."""

    def close(self) -> None:
        pass


class MemoryTokens(TokenTable):
    def __init__(self) -> None:
        self._rows: dict[str, list[Any]] = {}
        self._lock = threading.Lock()

    def add(self, token_hash: str, match_id: str, seat: str, issued_at: str) -> None:
        with self._lock:
            self._rows[token_hash] = [match_id, seat, issued_at, None]

    def find(self, token_hash: str) -> Held | None:
        row = self._rows.get(token_hash)
        return None if row is None else Held(token_hash, row[0], row[1], row[3] is not None)

    def revoke(self, match_id: str, seat: str, at: str) -> int:
        n = 0
        with self._lock:
            for row in self._rows.values():
                if row[0] == match_id and row[1] == seat and row[3] is None:
                    row[3] = at
                    n += 1
        return n


class SQLiteTokens(TokenTable):
    """In the store's SQLite file, over a connection of its own (WAL, ``synchronous=FULL``)."""

    def __init__(self, path: str):
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=30000")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SQL)
            self._db.execute(_INDEX)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot keep seats' tokens in {path!r}: {exc}") from None

    def _run(self, sql: str, args: tuple = ()) -> sqlite3.Cursor:
        try:
            with self._lock:
                return self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StoreError(f"the tokens table cannot be used: {exc}") from None

    def add(self, token_hash: str, match_id: str, seat: str, issued_at: str) -> None:
        self._run("INSERT INTO serve_tokens VALUES (?, ?, ?, ?, NULL)", (token_hash, match_id, seat, issued_at))

    def find(self, token_hash: str) -> Held | None:
        row = self._run("SELECT match_id, seat, revoked_at FROM serve_tokens WHERE token_hash = ?", (token_hash,)).fetchone()
        return None if row is None else Held(token_hash, row[0], row[1], row[2] is not None)

    def revoke(self, match_id: str, seat: str, at: str) -> int:
        cur = self._run("UPDATE serve_tokens SET revoked_at = ? WHERE match_id = ? AND seat = ? AND revoked_at IS NULL",
                        (at, match_id, seat))
        return cur.rowcount

    def close(self) -> None:
        self._db.close()


class PostgresTokens(TokenTable):
    """In the store's PostgreSQL database, over a connection of its own (autocommit); a lost
    connection is opened again once before a call fails."""

    def __init__(self, url: str):
        import psycopg

        self._psycopg = psycopg
        self._url = url
        self._lock = threading.Lock()
        self._conn = None
        with self._lock:
            self._call(self._create)

    def _connect(self) -> Any:
        if self._conn is None or self._conn.closed:
            self._conn = self._psycopg.connect(self._url, autocommit=True, connect_timeout=10,
                                               application_name="adjudicator-serve")
        return self._conn

    def _call(self, fn: Any, *args: Any) -> Any:
        for attempt in (1, 2):
            try:
                return fn(self._connect(), *args)
            except self._psycopg.OperationalError as exc:
                self._conn = None
                if attempt == 2:
                    raise StoreError(f"the tokens table cannot be reached: {str(exc).strip()}") from None
            except self._psycopg.Error as exc:
                raise StoreError(f"the tokens table cannot be used: {str(exc).strip()}") from None

    @staticmethod
    def _create(conn: Any) -> None:
        with conn.transaction():  # servers starting together: one creates, the others wait
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('adj serve_tokens'))")
            conn.execute(_SQL)
            conn.execute(_INDEX)

    def add(self, token_hash: str, match_id: str, seat: str, issued_at: str) -> None:
        with self._lock:
            self._call(lambda c: c.execute("INSERT INTO serve_tokens VALUES (%s, %s, %s, %s, NULL)",
                                           (token_hash, match_id, seat, issued_at)))

    def find(self, token_hash: str) -> Held | None:
        with self._lock:
            row = self._call(lambda c: c.execute(
                "SELECT match_id, seat, revoked_at FROM serve_tokens WHERE token_hash = %s", (token_hash,)).fetchone())
        return None if row is None else Held(token_hash, row[0], row[1], row[2] is not None)

    def revoke(self, match_id: str, seat: str, at: str) -> int:
        with self._lock:
            return self._call(lambda c: c.execute(
                "UPDATE serve_tokens SET revoked_at = %s WHERE match_id = %s AND seat = %s AND revoked_at IS NULL",
                (at, match_id, seat)).rowcount)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


def tokens_beside(store: Store) -> TokenTable:
    """The tokens table in the database of ``store``."""
    url = getattr(store, "url", "") or ""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresTokens(url)
    if url in ("", "memory:", ":memory:"):
        return MemoryTokens()
    return SQLiteTokens(url[len("sqlite://"):] if url.startswith("sqlite://") else url)
