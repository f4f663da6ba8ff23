"""The embedded default store: one SQLite file (stdlib), WAL, synchronous=FULL.

Appends run in ``BEGIN IMMEDIATE``: the write lock is taken before the head is read, so two
processes racing for the same seq are serialised and the second sees the moved head and gets
``ConflictError``. ``UNIQUE(match_id, seq)`` backs this up at the schema level.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from events.chain import verify_chain
from events.envelope import Draft, Rejection, StoredEvent, seal
from events.ledger_sql import SQLiteLedger
from events.rows import EVENT_COLUMNS, event_row, events_from_rows, rejection_from_row, rejection_row
from events.store import IDEM_END, Appending, ConflictError, InTransaction, MatchInfo, Store, StoreError, check_idempotency_key

#: What a path keeps as it is in a ``file:`` URI, as ``urllib.parse.quote`` keeps it (``/`` too).
_URI_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/")


def _quote(path: str) -> str:
    """``urllib.parse.quote(path)``, without importing ``urllib.parse`` (and ``ipaddress`` with it)
    into every command that opens the store."""
    return "".join(chr(b) if b in _URI_SAFE else f"%{b:02X}" for b in path.encode("utf-8"))


SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    match_id    TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    by          TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    payload     TEXT    NOT NULL,
    prev        TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    idem_key    TEXT,
    UNIQUE (match_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_idem ON events (match_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_rewinds ON events (match_id, seq) WHERE type = 'rewind';
CREATE TABLE IF NOT EXISTS rejections (
    id          INTEGER PRIMARY KEY,
    match_id    TEXT    NOT NULL,
    head_seq    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    by          TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    attempted   TEXT    NOT NULL,
    rule        TEXT    NOT NULL,
    message     TEXT    NOT NULL,
    code        TEXT
);
CREATE INDEX IF NOT EXISTS rejections_match ON rejections (match_id, id);
CREATE TABLE IF NOT EXISTS snapshots (
    match_id    TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
"""

#: A store made when a match kept one snapshot (``match_id`` its key) gets the table above: the
#: snapshot it kept stays, at its seq.
_SNAPSHOTS_BY_SEQ = """
ALTER TABLE snapshots RENAME TO snapshots_one;
CREATE TABLE snapshots (
    match_id    TEXT    NOT NULL,
    seq         INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO snapshots (match_id, seq, data) SELECT match_id, seq, data FROM snapshots_one;
DROP TABLE snapshots_one;
"""

_SAVE_SNAPSHOT = "INSERT OR REPLACE INTO snapshots (match_id, seq, data) VALUES (?, ?, ?)"

#: Every match with its head seq and the times of its first and last events. The match ids are
#: walked one seek of the (match_id, seq) index at a time, each head read by another, instead of a
#: GROUP BY over every event (SQLite has no skip scan for it): a store of a million events in
#: 4,000 matches lists in about 45 ms, not 150 to 190.
_MATCHES = """
WITH RECURSIVE ids(match_id) AS (
    SELECT MIN(match_id) FROM events
    UNION ALL
    SELECT (SELECT MIN(match_id) FROM events WHERE match_id > ids.match_id) FROM ids WHERE ids.match_id IS NOT NULL
), h(match_id, head) AS (
    SELECT match_id, (SELECT MAX(seq) FROM events WHERE events.match_id = ids.match_id) FROM ids WHERE match_id IS NOT NULL
)
SELECT h.match_id, h.head, f.recorded_at, l.recorded_at
FROM h
JOIN events l ON l.match_id = h.match_id AND l.seq = h.head
LEFT JOIN events f ON f.match_id = h.match_id AND f.seq = 1
ORDER BY h.match_id
"""

_COLS = ", ".join(EVENT_COLUMNS)
_INSERT = f"INSERT INTO events ({_COLS}, idem_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
#: Rows under no idempotency key, its column left NULL: a None bound costs sqlite3 a look for an
#: adapter (an AttributeError raised and cleared), some 2,500 instructions a row.
_INSERT_KEYLESS = f"INSERT INTO events ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


def idem_marks(key: str | None, count: int) -> list[str | None]:
    """The ``idem_key`` column of a batch of ``count`` events appended under ``key``."""
    marks: list[str | None] = [None] * count
    if key is not None and count:
        marks[0] = key
        if count > 1:
            marks[-1] = key + IDEM_END
    return marks


def read_only(path: str) -> bool:
    """Whether the store file at ``path`` cannot be written (a read-only file system or file):
    SQLite in WAL mode needs to write the file and create files beside it."""
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return True
    return os.path.isdir(parent) and not os.access(parent, os.W_OK)


class SQLiteStore(SQLiteLedger, Store):
    """``readonly``: open an existing file for reading only; nothing is created or changed (on
    read-only media, where SQLite cannot make its WAL files, the file is read as immutable)."""

    def __init__(self, path: str, *, readonly: bool = False):
        self.url = path
        self._lock = threading.RLock()
        if readonly:
            self._db = self._open_read_only(path)
            return
        if path != ":memory:":
            parent = os.path.dirname(os.path.abspath(path))
            try:
                os.makedirs(parent, exist_ok=True)
            except OSError as exc:
                if exc.errno == errno.EROFS:
                    raise StoreError(f"the store at {path} is read-only (a read-only file system)") from None
                raise StoreError(f"cannot create the store folder {parent!r}: {exc}") from None
        try:
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout=30000")
        except sqlite3.Error as exc:
            raise self._error(f"cannot open the SQLite store {path!r}", exc) from None
        # Switching a new file to WAL and creating the schema can fail at once with "locked"
        # while another process does the same (SQLite answers busy without waiting, to avoid a
        # deadlock). Every statement here is idempotent, so it is retried until that opener is done.
        deadline = time.monotonic() + 30.0
        while True:
            try:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(SCHEMA)
                if not self._has_code(self._db):  # a store made before rejections kept their code
                    self._db.execute("ALTER TABLE rejections ADD COLUMN code TEXT")
                if self._one_snapshot(self._db):  # a store made when a match kept one snapshot
                    self._migrate_snapshots(self._db)
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                    raise self._error(f"cannot open the SQLite store {path!r}", exc) from None
                time.sleep(0.02)
            except sqlite3.Error as exc:
                raise self._error(f"cannot open the SQLite store {path!r}", exc) from None

    def _error(self, what: str, exc: sqlite3.Error) -> StoreError:
        """The store error for a driver error: one message for every write to a read-only store."""
        if "readonly" in str(exc) or read_only(self.url):
            return StoreError(f"the store at {self.url} is read-only")
        return StoreError(f"{what}: {exc}")

    @staticmethod
    def _has_code(db: sqlite3.Connection) -> bool:
        return any(row[1] == "code" for row in db.execute("PRAGMA table_info(rejections)"))

    @staticmethod
    def _one_snapshot(db: sqlite3.Connection) -> bool:
        """Whether the snapshots table is keyed by the match alone (one snapshot a match)."""
        return any(row[1] == "seq" and not row[5] for row in db.execute("PRAGMA table_info(snapshots)"))

    @classmethod
    def _migrate_snapshots(cls, db: sqlite3.Connection) -> None:
        """Key the snapshots table by match and seq, in one transaction (another opener may have
        done it meanwhile: checked again inside it)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            if cls._one_snapshot(db):
                for statement in filter(str.strip, _SNAPSHOTS_BY_SEQ.split(";")):
                    db.execute(statement)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    @staticmethod
    def _open_read_only(path: str) -> sqlite3.Connection:
        uri = "file:" + _quote(os.path.abspath(path))

        def connect(mode: str) -> sqlite3.Connection:
            try:
                db = sqlite3.connect(f"{uri}?{mode}", uri=True, isolation_level=None, timeout=30.0, check_same_thread=False)
                db.execute("PRAGMA busy_timeout=30000")
                db.execute("SELECT 1 FROM events LIMIT 1").fetchall()
                return db
            except sqlite3.Error as exc:
                if "no such table" in str(exc) or "not a database" in str(exc):
                    raise StoreError(f"{path!r} is not an adjudicator store ({exc})") from None
                raise StoreError(f"cannot open the SQLite store {path!r}: {exc}") from None

        try:
            return connect("mode=ro")
        except StoreError:
            if not read_only(path):
                raise
        return connect("immutable=1")  # read-only media: nobody can be writing it

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _using(self, what: str) -> Iterator[sqlite3.Connection]:
        """Serialise this object's use of its connection and turn driver errors into ``StoreError``."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise self._error(f"SQLite store {self.url!r}: {what} failed", exc) from None

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` transaction: committed if the block ends, rolled back if it raises."""
        with self._using(what) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _head(self, db: sqlite3.Connection, match_id: str) -> tuple[int, str]:
        row = db.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return (row[0], row[1]) if row else (0, "")

    def _key_span(self, db: sqlite3.Connection, match_id: str, key: str) -> tuple[int, int] | None:
        rows = db.execute(
            "SELECT seq FROM events WHERE match_id = ? AND idem_key IN (?, ?)", (match_id, key, key + IDEM_END)
        ).fetchall()
        if not rows:
            return None
        seqs = [r[0] for r in rows]
        return min(seqs), max(seqs)

    def append(
        self,
        match_id: str,
        drafts: Sequence[Draft],
        expected_seq: int,
        *,
        idempotency_key: str | None = None,
    ) -> tuple[StoredEvent, ...]:
        if idempotency_key is not None:
            check_idempotency_key(idempotency_key)
        with self._write(f"append to match {match_id!r}") as db:
            if idempotency_key is not None:
                span = self._key_span(db, match_id, idempotency_key)
                if span is not None:
                    return tuple(self._read(db, match_id, *span))
            head, prev = self._head(db, match_id)
            if head != expected_seq:
                raise ConflictError(match_id, expected_seq, head)
            out = []
            for draft in drafts:
                ev = seal(match_id, head + 1 + len(out), prev, draft)
                out.append(ev)
                prev = ev.hash
            marks = idem_marks(idempotency_key, len(out))
            self._insert(db, match_id, expected_seq, [event_row(ev) + (mark,) for ev, mark in zip(out, marks)])
            return tuple(out)

    def _insert(self, db: sqlite3.Connection, match_id: str, expected_seq: int, rows: list[tuple], sql: str = _INSERT) -> None:
        try:
            db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" not in str(exc):
                raise
            # Under BEGIN IMMEDIATE the head cannot move between the check and the insert, so
            # this is a writer that does not take the lock; it is still the conflict it looks like.
            raise ConflictError(match_id, expected_seq, self._head(db, match_id)[0]) from None

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        if not events:
            return
        match_id = events[0].match_id
        with self._write(f"append to match {match_id!r}") as db:
            head, prev = self._head(db, match_id)
            if head != expected_seq:
                raise ConflictError(match_id, expected_seq, head)
            verify_chain(events, match_id, from_seq=head + 1, prev=prev)
            self._insert(db, match_id, expected_seq, [event_row(ev) for ev in events], _INSERT_KEYLESS)

    @contextmanager
    def appending(self, match_id: str, expected_seq: int) -> Iterator[Appending]:
        """One ``BEGIN IMMEDIATE`` transaction held open while the batches are added: other
        writers wait for it (up to the busy timeout), readers see the store as it was before."""
        with self._write(f"append to match {match_id!r}") as db:
            head, prev = self._head(db, match_id)
            if head != expected_seq:
                raise ConflictError(match_id, expected_seq, head)
            yield InTransaction(match_id, head, prev, lambda rows: self._insert(db, match_id, head, rows, _INSERT_KEYLESS),
                                lambda lo, hi: self._read(db, match_id, lo, hi),
                                lambda seq, data: db.execute(_SAVE_SNAPSHOT, (match_id, seq, data)))

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        with self._using(f"look-up in match {match_id!r}") as db:
            span = self._key_span(db, match_id, idempotency_key)
            return tuple(self._read(db, match_id, *span)) if span else ()

    def _read(self, db: sqlite3.Connection, match_id: str, lo: int, hi: int) -> list[StoredEvent]:
        rows = db.execute(
            f"SELECT {_COLS} FROM events WHERE match_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (match_id, lo, hi),
        ).fetchall()
        return events_from_rows(rows)

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        with self._using(f"read of match {match_id!r}") as db:
            return self._read(db, match_id, from_seq, to_seq if to_seq is not None else 2**62)

    def head(self, match_id: str) -> int:
        with self._using(f"read of match {match_id!r}") as db:
            return self._head(db, match_id)[0]

    def rewinds_after(self, match_id: str, seq: int) -> list[tuple[int, int]]:
        with self._using(f"read of match {match_id!r}") as db:
            rows = db.execute(
                "SELECT seq, json_extract(payload, '$.to_seq') FROM events"
                " WHERE match_id = ? AND seq > ? AND type = 'rewind' ORDER BY seq",
                (match_id, seq),
            ).fetchall()
        return [(s, t) for s, t in rows]

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> None:
        with self._using(f"snapshot of match {match_id!r}") as db:
            db.execute(_SAVE_SNAPSHOT, (match_id, seq, data))

    def _snapshots(self, match_id: str, query: str, args: tuple) -> list[tuple]:
        with self._using(f"read of the snapshots of match {match_id!r}") as db:
            try:
                return db.execute(query, args).fetchall()
            except sqlite3.OperationalError as exc:
                if "no such table" in str(exc):  # a store made before snapshots, opened read-only
                    return []
                raise

    def snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        return self.snapshot_at(match_id, 2**62)

    def snapshot_at(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        rows = self._snapshots(match_id, "SELECT seq, data FROM snapshots WHERE match_id = ? AND seq <= ?"
                                         " ORDER BY seq DESC LIMIT 1", (match_id, seq))
        return (rows[0][0], bytes(rows[0][1])) if rows else None

    def snapshot_seqs(self, match_id: str) -> list[int]:
        return [s for (s,) in self._snapshots(match_id, "SELECT seq FROM snapshots WHERE match_id = ? ORDER BY seq",
                                              (match_id,))]

    def matches(self) -> list[MatchInfo]:
        with self._using("listing the matches") as db:
            rows = db.execute(_MATCHES).fetchall()
        return [MatchInfo(match_id=m, head_seq=h, created_at=c or "", updated_at=u or "") for m, h, c, u in rows]

    def record_rejection(self, rejection: Rejection) -> None:
        with self._using(f"recording a rejection in match {rejection.match_id!r}") as db:
            db.execute(
                "INSERT INTO rejections (match_id, head_seq, type, by, recorded_at, attempted, rule, message, code)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rejection_row(rejection),
            )

    def rejections(self, match_id: str) -> list[Rejection]:
        with self._using(f"read of the rejections of match {match_id!r}") as db:
            code = "code" if self._has_code(db) else "NULL"  # read-only, a store older than the column
            rows = db.execute(
                f"SELECT match_id, head_seq, type, by, recorded_at, attempted, rule, message, {code}"
                " FROM rejections WHERE match_id = ? ORDER BY id",
                (match_id,),
            ).fetchall()
        return [rejection_from_row(r) for r in rows]
