"""Verification of a match's hash chain."""

from __future__ import annotations

from collections.abc import Iterable

from events.envelope import StoredEvent, chain_hash, envelope_problem


class IntegrityError(Exception):
    """The log does not verify: a hash, a link or a sequence number is wrong."""

    def __init__(self, match_id: str, seq: int | None, message: str):
        self.match_id = match_id
        self.seq = seq
        where = f"{match_id} at seq {seq}" if seq is not None else match_id
        super().__init__(f"integrity failure in {where}: {message}")
        self.detail = message

    def __reduce__(self):  # keeps the error intact across processes (multiprocessing, pickle)
        return (type(self), (self.match_id, self.seq, self.detail))


def verify_chain(
    events: Iterable[StoredEvent],
    match_id: str | None = None,
    *,
    from_seq: int = 1,
    prev: str = "",
    last_hash: str | None = None,
    hashed: bool = False,
) -> int:
    """Check seq density, every ``prev`` link and every hash. Returns the number of events.

    By default the events are a whole match from seq 1. ``from_seq`` and ``prev`` check a
    continuation instead (the events that follow the event at ``from_seq - 1`` whose hash is
    ``prev``). A chain cannot tell on its own that events were cut off its end; ``last_hash``,
    when known from elsewhere (a head recorded earlier), closes that gap. ``hashed``: every
    event's own hash was computed or checked by the caller from its content just now (``seal``,
    or this function on each line of a sealed file): the envelope, seqs and links are checked,
    the hashes are not computed a second time.
    """
    expected = from_seq
    mid = match_id
    count = 0
    for ev in events:
        if not (type(ev.seq) is int and ev.seq >= 1 and type(ev.match_id) is str and type(ev.type) is str and type(ev.by) is str
                and type(ev.recorded_at) is str and type(ev.prev) is str and type(ev.hash) is str
                and type(ev.fields) is dict):  # the common case, in one test; envelope_problem words the rest
            problem = envelope_problem(ev)
            if problem:
                raise IntegrityError(mid or str(ev.match_id), ev.seq if type(ev.seq) is int else None, problem)
        if mid is None:
            mid = ev.match_id
        if ev.match_id != mid:
            raise IntegrityError(mid, ev.seq, f"event belongs to match {ev.match_id!r}")
        if ev.seq != expected:
            raise IntegrityError(mid, ev.seq, f"expected seq {expected}, found {ev.seq!r}")
        if ev.prev != prev:
            raise IntegrityError(mid, ev.seq, "prev does not match the hash of the previous event")
        if hashed:
            prev = ev.hash
            expected += 1
            count += 1
            continue
        try:
            want = chain_hash(
                match_id=ev.match_id,
                seq=ev.seq,
                type=ev.type,
                by=ev.by,
                recorded_at=ev.recorded_at,
                fields=ev.fields,
                prev=ev.prev,
            )
        except ValueError as exc:
            raise IntegrityError(mid, ev.seq, f"the event cannot be hashed: {exc}") from None
        if want != ev.hash:
            raise IntegrityError(mid, ev.seq, "hash does not match the event's content")
        prev = ev.hash
        expected += 1
        count += 1
    if last_hash is not None and prev != last_hash:
        raise IntegrityError(
            mid or "?", expected - 1 if count else None, "the log does not end at the recorded head: events are missing"
        )
    return count
