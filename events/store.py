"""The store interface shared by every backend (``events.factory.open_store`` picks one).

Contract (tests/test_store_contract.py runs it against every backend):

- ``append(match_id, drafts, expected_seq)`` is atomic. It succeeds only if the match's head is
  exactly ``expected_seq`` (0 for a new match); otherwise it raises ``ConflictError`` and writes
  nothing. The store assigns seq, prev and hash, so a chain written through it is always sound.
- ``idempotency_key``: an append that repeats a key already stored for that match writes nothing
  and returns the events stored under that key (whatever ``expected_seq`` it gives), so a client
  that lost its connection can retry. ``events_for_key`` looks a key up without appending.
- ``append_stored`` takes events that already carry seq, prev and hash; they must continue the
  chain exactly (``IntegrityError`` otherwise, nothing written) and are stored byte for byte.
- ``appending(match_id, expected_seq)`` does the same a batch at a time, inside one transaction:
  a long file is written without being held whole, and all of it or none of it is stored.
- ``read`` returns events in seq order; a row that no longer decodes, or whose stored fields are
  not in canonical form, raises ``IntegrityError``. A row altered in place in canonical form is
  caught by ``events.chain.verify_chain``.
- Rejected attempts are kept beside the log (``record_rejection`` / ``rejections``), never in it,
  and read back in the order they were recorded.
- Snapshots (derived data, outside the chain) are kept one a match and seq: ``save_snapshot``
  replaces only one kept at the same seq; ``snapshot`` gives the last, ``snapshot_at`` the one at
  or nearest before a seq, ``snapshot_seqs`` their seqs. ``Appending.save_snapshot`` keeps one in
  the transaction of the events, committed with them or not at all.
- Errors are ``StoreError`` subclasses (``ConflictError``, ``UnknownMatch``) or ``IntegrityError``;
  a backend never lets its driver's exceptions through.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import msgspec

from events.chain import verify_chain
from events.envelope import Draft, Rejection, StoredEvent
from events.rows import event_row


class StoreError(Exception):
    """A store could not be opened or used."""


class ConflictError(StoreError):
    """The match's head is not where the writer expected it. Nothing was written."""

    def __init__(self, match_id: str, expected_seq: int, actual_seq: int):
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        if expected_seq == 0:
            msg = f"match {match_id!r} already exists (head is seq {actual_seq})"
        elif actual_seq < expected_seq:
            msg = (
                f"match {match_id!r} is at head seq {actual_seq}, not {expected_seq} as expected; "
                "nothing was written"
            )
        else:
            msg = (
                f"match {match_id!r} moved on: expected head seq {expected_seq}, "
                f"found {actual_seq}; another entry was recorded first, nothing was written"
            )
        super().__init__(msg)

    def __reduce__(self):  # keeps the error intact across processes (multiprocessing, pickle)
        return (type(self), (self.match_id, self.expected_seq, self.actual_seq))


class UnknownMatch(StoreError):
    def __init__(self, match_id: str):
        self.match_id = match_id
        super().__init__(f"no match {match_id!r} in the store")

    def __reduce__(self):
        return (type(self), (self.match_id,))


#: Marks the last event of a multi-event append in the ``idem_key`` column of the SQL backends
#: (``key + IDEM_END``), so a retried key finds the whole batch with two index look-ups. Keys
#: may not contain control characters, so no client key can collide with a marker.
IDEM_END = "\x1f$"


def check_idempotency_key(key: str) -> None:
    """``ValueError`` unless ``key`` is 1-200 characters with no control character."""
    if not isinstance(key, str) or not 1 <= len(key) <= 200:
        raise ValueError(f"an idempotency key is a string of 1 to 200 characters, not {key!r}")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in key):
        raise ValueError(f"an idempotency key may not contain control characters: {key!r}")


class MatchInfo(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    head_seq: int
    created_at: str
    updated_at: str


class Appending:
    """Events appended to one match inside one transaction (``Store.appending``). Each ``add``
    must continue the chain where the events before it end (``IntegrityError`` otherwise);
    ``read`` gives back what is written so far, as a later read of the store would. All of it is
    committed when the ``with`` block ends, and none of it when the block raises."""

    def __init__(self, match_id: str, head: int, prev: str):
        self.match_id = match_id
        self.head = head  # the seq and hash of the last event, written before or added here
        self.prev = prev

    def add(self, events: Sequence[StoredEvent], *, hashed: bool = False) -> None:
        """``hashed``: each event's hash was just computed or checked from its content by the
        caller (an import's lines: sealed here, or verified line by line): the chain's seqs and
        links are checked, the hashes not computed again."""
        if not events:
            return
        verify_chain(events, self.match_id, from_seq=self.head + 1, prev=self.prev, hashed=hashed)
        self._write(events)
        self.head = events[-1].seq
        self.prev = events[-1].hash

    def _write(self, events: Sequence[StoredEvent]) -> None:
        raise NotImplementedError

    def read(self, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        raise NotImplementedError

    def save_snapshot(self, seq: int, data: bytes) -> None:
        """``Store.save_snapshot`` of an event added here (at or before ``head``), kept with the
        events: committed with them, or not at all."""
        raise NotImplementedError


class InTransaction(Appending):
    """``Appending`` inside a backend's own open transaction: ``insert`` writes event rows
    (``events.rows.event_row``, under no idempotency key), ``select(lo, hi)`` reads events back."""

    def __init__(self, match_id: str, head: int, prev: str, insert: Callable[[list[tuple]], None],
                 select: Callable[[int, int], list[StoredEvent]], snap: Callable[[int, bytes], None]):
        super().__init__(match_id, head, prev)
        self._insert, self._select, self._snap = insert, select, snap

    def _write(self, events: Sequence[StoredEvent]) -> None:
        self._insert([event_row(ev) for ev in events])

    def read(self, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        return self._select(from_seq, to_seq if to_seq is not None else 2**62)

    def save_snapshot(self, seq: int, data: bytes) -> None:
        self._snap(seq, data)


class _Held(Appending):
    """``Store.appending`` for a store without a transaction of its own to hold open: the events
    are held here and stored by one ``append_stored`` when the block ends."""

    def __init__(self, store: Store, match_id: str, head: int, prev: str):
        super().__init__(match_id, head, prev)
        self.store = store
        self.since = head
        self.events: list[StoredEvent] = []
        self.snapshots: list[tuple[int, bytes]] = []  # saved once the events are stored

    def _write(self, events: Sequence[StoredEvent]) -> None:
        self.events.extend(events)

    def read(self, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        hi = self.head if to_seq is None else min(to_seq, self.head)
        before = self.store.read(self.match_id, from_seq, min(hi, self.since)) if from_seq <= self.since else []
        return before + self.events[max(from_seq - self.since, 1) - 1 : max(hi - self.since, 0)]

    def save_snapshot(self, seq: int, data: bytes) -> None:
        self.snapshots.append((seq, data))


class Store(ABC):
    """Append-only, per-match event logs with optimistic concurrency."""

    url: str = ""

    @abstractmethod
    def append(
        self,
        match_id: str,
        drafts: Sequence[Draft],
        expected_seq: int,
        *,
        idempotency_key: str | None = None,
    ) -> tuple[StoredEvent, ...]: ...

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        """Append events that already carry seq, prev and hash (import, copy).

        The events must continue the chain at ``expected_seq`` (``IntegrityError`` otherwise,
        ``ConflictError`` if the head is elsewhere); they are stored byte for byte, so a copied
        match keeps its hashes.
        """
        raise NotImplementedError

    @contextmanager
    def appending(self, match_id: str, expected_seq: int) -> Iterator[Appending]:
        """Append events that already carry seq, prev and hash, a batch at a time
        (``Appending.add``), all in one transaction: committed when the block ends, nothing
        written when it raises. ``ConflictError`` if the head is not ``expected_seq``. A backend
        holds the transaction open, so that the events need not be held in memory; this default
        holds them and stores them with ``append_stored``."""
        head = self.head(match_id)
        if head != expected_seq:
            raise ConflictError(match_id, expected_seq, head)
        prev = self.read(match_id, head, head)[-1].hash if head else ""
        held = _Held(self, match_id, head, prev)
        yield held
        self.append_stored(held.events, expected_seq)
        for seq, data in held.snapshots:
            self.save_snapshot(match_id, seq, data)

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        """The events appended under ``idempotency_key`` for this match; empty if none."""
        raise NotImplementedError

    @abstractmethod
    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]: ...

    @abstractmethod
    def head(self, match_id: str) -> int:
        """The seq of the last event, 0 when the match does not exist."""

    @abstractmethod
    def matches(self) -> list[MatchInfo]: ...

    @abstractmethod
    def record_rejection(self, rejection: Rejection) -> None: ...

    @abstractmethod
    def rejections(self, match_id: str) -> list[Rejection]: ...

    def rewinds_after(self, match_id: str, seq: int) -> list[tuple[int, int]]:
        """``(seq, to_seq)`` of the match's rewinds after ``seq``, in order: what a look at an
        earlier event needs of the rest of the log (whether a rewind abandoned it). As stored:
        the caller verifies what it relies on."""
        return [(e.seq, e.fields.get("to_seq")) for e in self.read(match_id, seq + 1) if e.type == "rewind"]

    # -- snapshots: derived data kept beside the log (adjudicator/engine/snapshot.py) -------------------
    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> None:
        """Keep ``data`` as the match's snapshot at ``seq``, beside those kept at other seqs (in
        place of one kept at the same seq). Not part of the log: the hash chain does not cover
        it, and ``adj verify`` checks it against the log. A store that keeps no snapshots ignores
        it."""

    def snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        """The match's last snapshot ``(seq, data)`` (at the greatest seq), or None."""
        return None

    def snapshot_at(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        """The match's snapshot ``(seq, data)`` at the greatest seq at or before ``seq``, or None:
        where a look at event ``seq`` can start from."""
        kept = self.snapshot(match_id)
        return kept if kept is not None and kept[0] <= seq else None

    def snapshot_seqs(self, match_id: str) -> list[int]:
        """The seqs the match's snapshots are kept at, in order."""
        kept = self.snapshot(match_id)
        return [kept[0]] if kept is not None else []

    def close(self) -> None:  # pragma: no cover - trivial default
        pass

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
