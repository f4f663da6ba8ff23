"""The embedded default store: one SQLite file (stdlib), WAL, synchronous=FULL.

Appends run in ``BEGIN IMMEDIATE``: the write lock is taken before the head is read, so two
processes racing for the same seq are serialised and the second sees the moved head and gets
``ConflictError``. ``UNIQUE(match_id, seq)`` backs this up at the schema level.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence

import msgspec

from events.chain import IntegrityError
from events.envelope import Draft, Rejection, StoredEvent, canonical, decode_json, seal
from events.store import ConflictError, MatchInfo, Store, StoreError

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
CREATE TABLE IF NOT EXISTS rejections (
    id          INTEGER PRIMARY KEY,
    match_id    TEXT    NOT NULL,
    head_seq    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    by          TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    attempted   TEXT    NOT NULL,
    rule        TEXT    NOT NULL,
    message     TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS rejections_match ON rejections (match_id, id);
"""

_COLS = "match_id, seq, type, by, recorded_at, payload, prev, hash"


def _row_to_event(row: tuple) -> StoredEvent:
    match_id, seq, type_, by, recorded_at, payload, prev, hash_ = row
    try:
        fields = decode_json(payload)
    except msgspec.DecodeError as exc:
        raise IntegrityError(match_id, seq, f"stored fields do not decode ({exc})") from None
    if not isinstance(fields, dict):
        raise IntegrityError(match_id, seq, "stored fields are not an object")
    return StoredEvent(
        match_id=match_id,
        seq=seq,
        type=type_,
        by=by,
        recorded_at=recorded_at,
        fields=fields,
        prev=prev,
        hash=hash_,
    )


class SQLiteStore(Store):
    def __init__(self, path: str):
        self.url = path
        if path != ":memory:":
            parent = os.path.dirname(os.path.abspath(path))
            try:
                os.makedirs(parent, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the store folder {parent!r}: {exc}") from None
        try:
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=30000")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the SQLite store {path!r}: {exc}") from None

    def close(self) -> None:
        self._db.close()

    def _head(self, match_id: str) -> tuple[int, str]:
        row = self._db.execute(
            "SELECT seq, hash FROM events WHERE match_id = ? ORDER BY seq DESC LIMIT 1", (match_id,)
        ).fetchone()
        return (row[0], row[1]) if row else (0, "")

    def append(
        self,
        match_id: str,
        drafts: Sequence[Draft],
        expected_seq: int,
        *,
        idempotency_key: str | None = None,
    ) -> tuple[StoredEvent, ...]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            if idempotency_key is not None:
                row = db.execute(
                    "SELECT seq FROM events WHERE match_id = ? AND idem_key = ?", (match_id, idempotency_key)
                ).fetchone()
                if row is not None:
                    db.execute("ROLLBACK")
                    first = row[0]
                    return tuple(self.read(match_id, first, first + len(drafts) - 1))
            head, prev = self._head(match_id)
            if head != expected_seq:
                raise ConflictError(match_id, expected_seq, head)
            out = []
            for i, draft in enumerate(drafts):
                ev = seal(match_id, expected_seq + 1 + i, prev, draft)
                out.append(ev)
                prev = ev.hash
            db.executemany(
                f"INSERT INTO events ({_COLS}, idem_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        ev.match_id,
                        ev.seq,
                        ev.type,
                        ev.by,
                        ev.recorded_at,
                        canonical(ev.fields).decode(),
                        ev.prev,
                        ev.hash,
                        idempotency_key if i == 0 else None,
                    )
                    for i, ev in enumerate(out)
                ],
            )
            db.execute("COMMIT")
            return tuple(out)
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK")
            raise ConflictError(match_id, expected_seq, self.head(match_id)) from None
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        if not events:
            return
        match_id = events[0].match_id
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            head, _ = self._head(match_id)
            if head != expected_seq:
                raise ConflictError(match_id, expected_seq, head)
            db.executemany(
                f"INSERT INTO events ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (e.match_id, e.seq, e.type, e.by, e.recorded_at, canonical(e.fields).decode(), e.prev, e.hash)
                    for e in events
                ],
            )
            db.execute("COMMIT")
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK")
            raise ConflictError(match_id, expected_seq, self.head(match_id)) from None
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        hi = to_seq if to_seq is not None else 2**62
        rows = self._db.execute(
            f"SELECT {_COLS} FROM events WHERE match_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (match_id, from_seq, hi),
        ).fetchall()
        return [_row_to_event(r) for r in rows]

    def head(self, match_id: str) -> int:
        return self._head(match_id)[0]

    def matches(self) -> list[MatchInfo]:
        rows = self._db.execute(
            """SELECT match_id, MAX(seq),
                      (SELECT recorded_at FROM events e2 WHERE e2.match_id = e.match_id AND e2.seq = 1),
                      MAX(recorded_at)
               FROM events e GROUP BY match_id ORDER BY match_id"""
        ).fetchall()
        return [MatchInfo(match_id=m, head_seq=h, created_at=c or "", updated_at=u or "") for m, h, c, u in rows]

    def record_rejection(self, rejection: Rejection) -> None:
        r = rejection
        self._db.execute(
            "INSERT INTO rejections (match_id, head_seq, type, by, recorded_at, attempted, rule, message)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (r.match_id, r.head_seq, r.type, r.by, r.recorded_at, canonical(r.fields).decode(), r.rule, r.message),
        )

    def rejections(self, match_id: str) -> list[Rejection]:
        rows = self._db.execute(
            "SELECT match_id, head_seq, type, by, recorded_at, attempted, rule, message"
            " FROM rejections WHERE match_id = ? ORDER BY id",
            (match_id,),
        ).fetchall()
        return [
            Rejection(
                match_id=m, head_seq=h, type=t, by=b, recorded_at=ra, fields=decode_json(a), rule=ru, message=me
            )
            for m, h, t, b, ra, a, ru, me in rows
        ]
