"""Verification of a match's hash chain."""

from __future__ import annotations

from collections.abc import Iterable

from events.envelope import StoredEvent, chain_hash


class IntegrityError(Exception):
    """The log does not verify: a hash, a link or a sequence number is wrong."""

    def __init__(self, match_id: str, seq: int | None, message: str):
        self.match_id = match_id
        self.seq = seq
        where = f"{match_id} at seq {seq}" if seq is not None else match_id
        super().__init__(f"integrity failure in {where}: {message}")
        self.detail = message


def verify_chain(events: Iterable[StoredEvent], match_id: str | None = None) -> int:
    """Check seq density from 1, every ``prev`` link and every hash. Returns the count."""
    prev = ""
    expected = 1
    for ev in events:
        mid = match_id or ev.match_id
        if ev.match_id != mid:
            raise IntegrityError(mid, ev.seq, f"event belongs to match {ev.match_id!r}")
        if ev.seq != expected:
            raise IntegrityError(mid, ev.seq, f"expected seq {expected}, found {ev.seq}")
        if ev.prev != prev:
            raise IntegrityError(mid, ev.seq, "prev does not match the hash of the previous event")
        want = chain_hash(
            match_id=ev.match_id,
            seq=ev.seq,
            type=ev.type,
            by=ev.by,
            recorded_at=ev.recorded_at,
            fields=ev.fields,
            prev=ev.prev,
        )
        if want != ev.hash:
            raise IntegrityError(mid, ev.seq, "hash does not match the event's content")
        prev = ev.hash
        expected += 1
    return expected - 1
