"""An in-process store: the reference for the contract, and a fast scratch store.

Events are kept as the SQL backends keep them (rows with the fields as canonical JSON text) and
decoded on every read, so a caller can never change the log by mutating what it got back, and
the memory store answers exactly as the others do.
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Sequence

from events.chain import verify_chain
from events.envelope import Draft, Rejection, StoredEvent, seal
from events.ledger_memory import MemoryLedger
from events.rows import event_row, events_from_rows, rejection_from_row, rejection_row
from events.store import ConflictError, MatchInfo, Store, check_idempotency_key


class MemoryStore(MemoryLedger, Store):
    url = "memory:"

    def __init__(self) -> None:
        self._logs: dict[str, list[tuple]] = {}
        self._keys: dict[tuple[str, str], tuple[int, int]] = {}
        self._rejections: dict[str, list[tuple]] = {}
        # derived data, not copied, not chained: match -> seq -> snapshot, the seqs in order
        self._snapshots: dict[str, dict[int, bytes]] = {}
        self._lock = threading.RLock()

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
        with self._lock:
            if idempotency_key is not None:
                done = self.events_for_key(match_id, idempotency_key)
                if done:
                    return done
            log = self._logs.get(match_id, [])
            if len(log) != expected_seq:
                raise ConflictError(match_id, expected_seq, len(log))
            prev = log[-1][7] if log else ""
            out = []
            for i, draft in enumerate(drafts):
                ev = seal(match_id, expected_seq + 1 + i, prev, draft)
                out.append(ev)
                prev = ev.hash
            self._logs[match_id] = log + [event_row(ev) for ev in out]
            if idempotency_key is not None and out:
                self._keys[(match_id, idempotency_key)] = (out[0].seq, out[-1].seq)
            return tuple(out)

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        if not events:
            return
        match_id = events[0].match_id
        with self._lock:
            log = self._logs.get(match_id, [])
            if len(log) != expected_seq:
                raise ConflictError(match_id, expected_seq, len(log))
            verify_chain(events, match_id, from_seq=expected_seq + 1, prev=log[-1][7] if log else "")
            self._logs[match_id] = log + [event_row(ev) for ev in events]

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        span = self._keys.get((match_id, idempotency_key))
        if span is None:
            return ()
        return tuple(self.read(match_id, span[0], span[1]))

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        log = self._logs.get(match_id, [])
        hi = len(log) if to_seq is None else min(to_seq, len(log))
        return events_from_rows(log[max(from_seq, 1) - 1 : max(hi, 0)])

    def head(self, match_id: str) -> int:
        return len(self._logs.get(match_id, ()))

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> None:
        with self._lock:
            kept = self._snapshots.setdefault(match_id, {})
            in_order = not kept or seq >= next(reversed(kept))
            kept[seq] = bytes(data)
            if not in_order:  # kept in seq order
                self._snapshots[match_id] = dict(sorted(kept.items()))

    def snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        return self.snapshot_at(match_id, 2**62)

    def snapshot_at(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        with self._lock:
            kept = self._snapshots.get(match_id, {})
            seqs = list(kept)
            i = bisect.bisect_right(seqs, seq)
            return (seqs[i - 1], kept[seqs[i - 1]]) if i else None

    def snapshot_seqs(self, match_id: str) -> list[int]:
        with self._lock:
            return list(self._snapshots.get(match_id, {}))

    def matches(self) -> list[MatchInfo]:
        return [
            MatchInfo(match_id=mid, head_seq=len(log), created_at=log[0][4], updated_at=log[-1][4])
            for mid, log in sorted(self._logs.items())
            if log
        ]

    def record_rejection(self, rejection: Rejection) -> None:
        row = rejection_row(rejection)
        with self._lock:
            self._rejections.setdefault(rejection.match_id, []).append(row)

    def rejections(self, match_id: str) -> list[Rejection]:
        return [rejection_from_row(row) for row in self._rejections.get(match_id, ())]
