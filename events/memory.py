"""An in-process store: the reference for the contract, and the fast path for `adj check`."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from events.envelope import Draft, Rejection, StoredEvent, seal
from events.store import ConflictError, MatchInfo, Store


class MemoryStore(Store):
    url = "memory:"

    def __init__(self) -> None:
        self._logs: dict[str, list[StoredEvent]] = {}
        self._keys: dict[tuple[str, str], tuple[int, int]] = {}
        self._rejections: dict[str, list[Rejection]] = {}
        self._lock = threading.Lock()

    def append(
        self,
        match_id: str,
        drafts: Sequence[Draft],
        expected_seq: int,
        *,
        idempotency_key: str | None = None,
    ) -> tuple[StoredEvent, ...]:
        with self._lock:
            log = self._logs.get(match_id, [])
            if idempotency_key is not None and (match_id, idempotency_key) in self._keys:
                lo, hi = self._keys[(match_id, idempotency_key)]
                return tuple(log[lo - 1 : hi])
            if len(log) != expected_seq:
                raise ConflictError(match_id, expected_seq, len(log))
            prev = log[-1].hash if log else ""
            out = []
            for i, draft in enumerate(drafts):
                ev = seal(match_id, expected_seq + 1 + i, prev, draft)
                out.append(ev)
                prev = ev.hash
            self._logs[match_id] = log + out
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
            self._logs[match_id] = log + list(events)

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        log = self._logs.get(match_id, [])
        hi = len(log) if to_seq is None else min(to_seq, len(log))
        return log[max(from_seq, 1) - 1 : hi]

    def head(self, match_id: str) -> int:
        return len(self._logs.get(match_id, ()))

    def matches(self) -> list[MatchInfo]:
        return [
            MatchInfo(
                match_id=mid,
                head_seq=len(log),
                created_at=log[0].recorded_at,
                updated_at=log[-1].recorded_at,
            )
            for mid, log in sorted(self._logs.items())
            if log
        ]

    def record_rejection(self, rejection: Rejection) -> None:
        with self._lock:
            self._rejections.setdefault(rejection.match_id, []).append(rejection)

    def rejections(self, match_id: str) -> list[Rejection]:
        return list(self._rejections.get(match_id, ()))
