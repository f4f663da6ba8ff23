"""The shared store: PostgreSQL through psycopg 3, for several adjudicators on several hosts.

The schema has the shape of the SQLite one (``events`` with ``UNIQUE (match_id, seq)`` and a
unique partial index on ``(match_id, idem_key)``, ``rejections`` beside it) and is created on
first use, under an advisory lock so that processes starting together do not race.

Why appends cannot lose or duplicate an event, on any number of hosts:

- An append reads the head (and the idempotency key) in one query, checks the head is
  ``expected_seq``, computes the new rows' seqs and hashes from it, and inserts them in one
  transaction (a single INSERT statement: one round trip, atomic, durable at commit).
- Committed rows are never updated or deleted, so the head that was read is a real, permanent
  event: its hash is the right ``prev``, and ``head + 1`` leaves no gap. (This is why the read
  need not share the insert's transaction: a newer head can only make the insert fail.)
- Two writers that read the same head both insert ``head + 1``. ``UNIQUE (match_id, seq)``
  lets exactly one of them have it: the other waits on the index entry until the first
  commits, then fails with a unique violation, which becomes ``ConflictError`` (its whole
  transaction is rolled back; nothing of it is written). If the first rolls back or dies
  instead, the second goes through. No lock is held between statements of different appends.
- An idempotency key is stored in the same rows, under a unique index. A retry whose first
  attempt was committed finds the key and gets the stored events back; a retry racing its own
  first attempt (still in flight on a dead connection) waits on the index and then finds it.

A lost connection raises ``StoreError`` saying whether the append may have been recorded (only
when the connection died while the INSERT was with the server is that unknown); the next call
reconnects. Retrying with the same idempotency key is always safe.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from events.chain import verify_chain
from events.envelope import Draft, Rejection, StoredEvent, seal
from events.ledger_sql import SCHEMA_LOCK, PostgresLedger
from events.rows import EVENT_COLUMNS, event_row, events_from_rows, rejection_from_row, rejection_row
from events.store import IDEM_END, Appending, ConflictError, InTransaction, MatchInfo, Store, StoreError, check_idempotency_key

try:
    import psycopg
    from psycopg import errors as pg_errors
    from psycopg.conninfo import conninfo_to_dict
except ImportError:  # pragma: no cover - depends on the installation
    psycopg = None

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    match_id    text   NOT NULL,
    seq         bigint NOT NULL,
    type        text   NOT NULL,
    "by"        text   NOT NULL,
    recorded_at text   NOT NULL,
    payload     text   NOT NULL,
    prev        text   NOT NULL,
    hash        text   NOT NULL,
    idem_key    text,
    CONSTRAINT events_match_seq UNIQUE (match_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_idem ON events (match_id, idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS events_rewinds ON events (match_id, seq) WHERE type = 'rewind';
CREATE TABLE IF NOT EXISTS rejections (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id    text   NOT NULL,
    head_seq    bigint NOT NULL,
    type        text   NOT NULL,
    "by"        text   NOT NULL,
    recorded_at text   NOT NULL,
    attempted   text   NOT NULL,
    rule        text   NOT NULL,
    message     text   NOT NULL,
    code        text
);
ALTER TABLE rejections ADD COLUMN IF NOT EXISTS code text;
CREATE INDEX IF NOT EXISTS rejections_match ON rejections (match_id, id);
CREATE TABLE IF NOT EXISTS snapshots (
    match_id    text   NOT NULL,
    seq         bigint NOT NULL,
    data        bytea  NOT NULL,
    PRIMARY KEY (match_id, seq)
);
DO $$
DECLARE one text;
BEGIN
    -- a store made when a match kept one snapshot (the match its key): keyed by match and seq,
    -- the snapshot it kept staying at its seq
    SELECT conname INTO one FROM pg_constraint
     WHERE conrelid = 'snapshots'::regclass AND contype = 'p' AND array_length(conkey, 1) = 1;
    IF one IS NOT NULL THEN
        EXECUTE format('ALTER TABLE snapshots DROP CONSTRAINT %I, ADD PRIMARY KEY (match_id, seq)', one);
    END IF;
END
$$;
"""

#: Whether the schema is complete, as this code makes it (else it is made or brought up to date).
_SCHEMA_DONE = """
SELECT to_regclass('events') IS NOT NULL AND to_regclass('events_idem') IS NOT NULL AND to_regclass('events_rewinds') IS NOT NULL
   AND to_regclass('rejections') IS NOT NULL AND to_regclass('rejections_match') IS NOT NULL
   AND EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
               AND table_name = 'rejections' AND column_name = 'code')
   AND to_regclass('snapshots') IS NOT NULL
   AND EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass('snapshots') AND contype = 'p'
               AND array_length(conkey, 1) = 2)
"""

_SAVE_SNAPSHOT = ("INSERT INTO snapshots (match_id, seq, data) VALUES (%s, %s, %s)"
                  " ON CONFLICT (match_id, seq) DO UPDATE SET data = EXCLUDED.data")

_COLS = ", ".join(f'"{c}"' if c == "by" else c for c in EVENT_COLUMNS)
_ROW = "(" + ", ".join(["%s"] * (len(EVENT_COLUMNS) + 1)) + ")"
_BATCH = 1000  # rows per INSERT statement (PostgreSQL allows 65535 parameters per statement)

_PROBE = """
SELECT h.seq, h.hash,
       (SELECT min(seq) FROM events WHERE match_id = %(m)s AND idem_key IN (%(k)s, %(ke)s)),
       (SELECT max(seq) FROM events WHERE match_id = %(m)s AND idem_key IN (%(k)s, %(ke)s))
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (SELECT seq, hash FROM events WHERE match_id = %(m)s ORDER BY seq DESC LIMIT 1) AS h ON true
"""

# Ordered by code point (COLLATE "C"), as the other backends order them, whatever the locale.
_MATCHES = """
SELECT h.match_id, h.head, f.recorded_at, l.recorded_at
FROM (SELECT match_id, max(seq) AS head FROM events GROUP BY match_id) h
JOIN events l ON l.match_id = h.match_id AND l.seq = h.head
LEFT JOIN events f ON f.match_id = h.match_id AND f.seq = 1
ORDER BY h.match_id COLLATE "C"
"""


def describe_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        info = conninfo_to_dict(url)
    except Exception:
        return "(unparsable PostgreSQL URL)"
    user = info.get("user")
    host = info.get("host") or "localhost"
    port = info.get("port") or "5432"
    db = info.get("dbname") or user or ""
    return f"postgresql://{user + '@' if user else ''}{host}:{port}/{db}"


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class PostgresStore(PostgresLedger, Store):
    """The store interface over one PostgreSQL connection (autocommit, explicit transactions).

    One object is safe to share between threads (calls are serialised); processes each open
    their own.
    """

    def __init__(self, url: str, *, connect_timeout: int = 10):
        if psycopg is None:
            raise StoreError("the PostgreSQL store needs psycopg 3: pip install 'psycopg[binary]'")
        self.url = url
        self.where = describe_url(url)
        self._lock = threading.RLock()
        self._conn: psycopg.Connection | None = None
        try:
            given = conninfo_to_dict(url)
        except psycopg.Error as exc:
            raise StoreError(f"bad PostgreSQL URL {self.where}: {_reason(exc)}") from None
        self._extra: dict[str, object] = {}
        if "connect_timeout" not in given:
            self._extra["connect_timeout"] = connect_timeout
        if "application_name" not in given:
            self._extra["application_name"] = "adjudicator"
        with self._lock:
            self._ensure_schema()

    # -- connection ------------------------------------------------------------------------
    def _connection(self) -> psycopg.Connection:
        conn = self._conn
        if conn is not None and not conn.closed:
            return conn
        try:
            conn = psycopg.connect(self.url, autocommit=True, **self._extra)
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the PostgreSQL store {self.where}: {_reason(exc)}") from None
        self._conn = conn
        return conn

    def backend_pid(self) -> int | None:
        """The server process serving this store's connection (for operators and tests)."""
        with self._lock:
            return self._connection().info.backend_pid

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _failure(self, exc: BaseException, doing: str, outcome: str = "") -> StoreError:
        conn = self._conn
        if conn is None or conn.closed:
            self._conn = None  # the next call connects again
            if conn is not None:
                conn.close()
            tail = f"; {outcome}" if outcome else ""
            return StoreError(
                f"lost the connection to the PostgreSQL store {self.where} during {doing} ({_reason(exc)}){tail}"
            )
        return StoreError(f"PostgreSQL store {self.where}: {doing} failed: {_reason(exc)}")

    @contextmanager
    def _using(self, doing: str) -> Iterator[psycopg.Cursor]:
        """A cursor on the (re)connected connection; driver errors become ``StoreError``."""
        with self._lock:
            conn = self._connection()
            try:
                with conn.cursor() as cur:
                    yield cur
            except psycopg.Error as exc:
                raise self._failure(exc, doing) from None

    def _ensure_schema(self) -> None:
        with self._using("creating the schema") as cur:
            cur.execute(_SCHEMA_DONE)
            if cur.fetchone()[0]:
                return
            # CREATE ... IF NOT EXISTS is not safe against a concurrent CREATE of the same name
            # (it can fail on the catalog's unique index): serialise creators on a lock.
            with cur.connection.transaction():
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                cur.execute(SCHEMA)

    # -- writing -----------------------------------------------------------------------------
    def _probe(self, cur: psycopg.Cursor, match_id: str, key: str | None) -> tuple[int, str, tuple[int, int] | None]:
        """(head seq, head hash, the seq span stored under ``key`` or None) in one round trip."""
        cur.execute(_PROBE, {"m": match_id, "k": key, "ke": key + IDEM_END if key is not None else None})
        head, prev, lo, hi = cur.fetchone()
        return (head or 0), (prev or ""), ((lo, hi) if lo is not None else None)

    def _insert(self, cur: psycopg.Cursor, rows: Sequence[tuple]) -> None:
        """Insert event rows (the 8 columns and idem_key) atomically.

        Up to ``_BATCH`` rows this is one INSERT statement, which on an autocommit connection
        is a transaction of its own (one round trip); more rows are several statements in an
        explicit transaction.
        """
        statements = [
            (
                f"INSERT INTO events ({_COLS}, idem_key) VALUES " + ", ".join([_ROW] * len(chunk)),
                [value for row in chunk for value in row],
            )
            for chunk in (rows[i : i + _BATCH] for i in range(0, len(rows), _BATCH))
        ]
        if len(statements) == 1:
            cur.execute(*statements[0])
            return
        with cur.connection.transaction():
            for sql, params in statements:
                cur.execute(sql, params)

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
        doing = f"append to match {match_id!r}"
        with self._lock:
            conn = self._connection()
            sent = False
            try:
                with conn.cursor() as cur:
                    # The head is read outside the insert's transaction: a committed row is never
                    # changed, so what was read stays true, and if the head has moved since,
                    # UNIQUE (match_id, seq) refuses the insert (see the module's docstring).
                    head, prev, span = self._probe(cur, match_id, idempotency_key)
                    if span is not None:
                        return tuple(self._read(cur, match_id, *span))
                    if head != expected_seq:
                        raise ConflictError(match_id, expected_seq, head)
                    out = []
                    for draft in drafts:
                        ev = seal(match_id, head + 1 + len(out), prev, draft)
                        out.append(ev)
                        prev = ev.hash
                    if not out:
                        return ()
                    marks: list[str | None] = [None] * len(out)
                    if idempotency_key is not None:
                        marks[0] = idempotency_key
                        if len(out) > 1:
                            marks[-1] = idempotency_key + IDEM_END
                    sent = True
                    self._insert(cur, [event_row(ev) + (mark,) for ev, mark in zip(out, marks)])
                return tuple(out)
            except pg_errors.UniqueViolation:
                pass  # another writer took this seq (or this key) first: see below
            except psycopg.Error as exc:
                if sent:
                    outcome = (
                        "it is not known whether the append was recorded: retry it with the same "
                        "idempotency key, which cannot record it twice"
                    )
                else:
                    outcome = "nothing was written"
                raise self._failure(exc, doing, outcome) from None
            # Nothing of ours was written. If our key is stored now, our own earlier attempt won
            # (a retry racing it): answer as a repeated key does. Otherwise it is a conflict.
            with self._using(doing) as cur:
                head, _, span = self._probe(cur, match_id, idempotency_key)
                if span is not None:
                    return tuple(self._read(cur, match_id, *span))
            raise ConflictError(match_id, expected_seq, head)

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        if not events:
            return
        match_id = events[0].match_id
        doing = f"append to match {match_id!r}"
        with self._lock:
            conn = self._connection()
            sent = False
            try:
                with conn.cursor() as cur:
                    head, prev, _ = self._probe(cur, match_id, None)
                    if head != expected_seq:
                        raise ConflictError(match_id, expected_seq, head)
                    verify_chain(events, match_id, from_seq=head + 1, prev=prev)
                    sent = True
                    self._insert(cur, [event_row(ev) + (None,) for ev in events])
                return
            except pg_errors.UniqueViolation:
                pass
            except psycopg.Error as exc:
                outcome = (
                    "it is not known whether the events were recorded: read the match before retrying"
                    if sent
                    else "nothing was written"
                )
                raise self._failure(exc, doing, outcome) from None
        raise ConflictError(match_id, expected_seq, self.head(match_id))

    @contextmanager
    def appending(self, match_id: str, expected_seq: int) -> Iterator[Appending]:
        """One transaction held open while the batches are added; a concurrent writer of the same
        match makes it a ``ConflictError`` (UNIQUE (match_id, seq)), and nothing is written."""
        doing = f"append to match {match_id!r}"
        with self._lock:
            conn = self._connection()
            batches: InTransaction | None = None
            try:
                with conn.transaction(), conn.cursor() as cur:
                    head, prev, _ = self._probe(cur, match_id, None)
                    if head != expected_seq:
                        raise ConflictError(match_id, expected_seq, head)
                    batches = InTransaction(match_id, head, prev, lambda rows: self._insert(cur, [r + (None,) for r in rows]),
                                            lambda lo, hi: self._read(cur, match_id, lo, hi),
                                            lambda seq, data: cur.execute(_SAVE_SNAPSHOT, (match_id, seq, data)))
                    yield batches
            except pg_errors.UniqueViolation:
                pass
            except psycopg.Error as exc:
                outcome = (
                    "it is not known whether the events were recorded: read the match before retrying"
                    if batches is not None and batches.head > expected_seq
                    else "nothing was written"
                )
                raise self._failure(exc, doing, outcome) from None
            else:
                return
        raise ConflictError(match_id, expected_seq, self.head(match_id))

    def record_rejection(self, rejection: Rejection) -> None:
        with self._using(f"recording a rejection in match {rejection.match_id!r}") as cur:
            cur.execute(
                'INSERT INTO rejections (match_id, head_seq, type, "by", recorded_at, attempted, rule, message, code)'
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                rejection_row(rejection),
            )

    # -- reading -----------------------------------------------------------------------------
    def _read(self, cur: psycopg.Cursor, match_id: str, lo: int, hi: int) -> list[StoredEvent]:
        cur.execute(
            f"SELECT {_COLS} FROM events WHERE match_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
            (match_id, lo, hi),
        )
        return events_from_rows(cur.fetchall())

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        with self._using(f"read of match {match_id!r}") as cur:
            return self._read(cur, match_id, from_seq, to_seq if to_seq is not None else 2**62)

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        with self._using(f"look-up in match {match_id!r}") as cur:
            _, _, span = self._probe(cur, match_id, idempotency_key)
            return tuple(self._read(cur, match_id, *span)) if span else ()

    def head(self, match_id: str) -> int:
        with self._using(f"read of match {match_id!r}") as cur:
            cur.execute("SELECT max(seq) FROM events WHERE match_id = %s", (match_id,))
            return cur.fetchone()[0] or 0

    def rewinds_after(self, match_id: str, seq: int) -> list[tuple[int, int]]:
        with self._using(f"read of match {match_id!r}") as cur:
            cur.execute(
                "SELECT seq, payload::jsonb -> 'to_seq' FROM events"
                " WHERE match_id = %s AND seq > %s AND type = 'rewind' ORDER BY seq",
                (match_id, seq),
            )
            rows = cur.fetchall()
        return [(s, t) for s, t in rows]

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> None:
        with self._using(f"snapshot of match {match_id!r}") as cur:
            cur.execute(_SAVE_SNAPSHOT, (match_id, seq, data))

    def snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        return self.snapshot_at(match_id, 2**62)

    def snapshot_at(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        with self._using(f"read of the snapshot of match {match_id!r}") as cur:
            cur.execute("SELECT seq, data FROM snapshots WHERE match_id = %s AND seq <= %s ORDER BY seq DESC LIMIT 1",
                        (match_id, seq))
            row = cur.fetchone()
        return (row[0], bytes(row[1])) if row else None

    def snapshot_seqs(self, match_id: str) -> list[int]:
        with self._using(f"read of the snapshots of match {match_id!r}") as cur:
            cur.execute("SELECT seq FROM snapshots WHERE match_id = %s ORDER BY seq", (match_id,))
            return [s for (s,) in cur.fetchall()]

    def matches(self) -> list[MatchInfo]:
        with self._using("listing the matches") as cur:
            cur.execute(_MATCHES)
            rows = cur.fetchall()
        return [MatchInfo(match_id=m, head_seq=h, created_at=c or "", updated_at=u or "") for m, h, c, u in rows]

    def rejections(self, match_id: str) -> list[Rejection]:
        with self._using(f"read of the rejections of match {match_id!r}") as cur:
            cur.execute(
                'SELECT match_id, head_seq, type, "by", recorded_at, attempted, rule, message, code'
                " FROM rejections WHERE match_id = %s ORDER BY id",
                (match_id,),
            )
            rows = cur.fetchall()
        return [rejection_from_row(r) for r in rows]
