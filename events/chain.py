"""Verification of a match's hash chain."""

from __future__ import annotations

from collections.abc import Iterable, Sized

import msgspec

from events.digest import BULK, sha256_for
from events.envelope import ENVELOPE_KEYS, StoredEvent, envelope_problem

_encoder = msgspec.json.Encoder(order="sorted")


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
    bulk: bool = False,
) -> int:
    """Check seq density, every ``prev`` link and every hash. Returns the number of events.

    By default the events are a whole match from seq 1. ``from_seq`` and ``prev`` check a
    continuation instead (the events that follow the event at ``from_seq - 1`` whose hash is
    ``prev``). A chain cannot tell on its own that events were cut off its end; ``last_hash``,
    when known from elsewhere (a head recorded earlier), closes that gap. ``hashed``: every
    event's own hash was computed or checked by the caller from its content just now (``seal``,
    or this function on each line of a sealed file): the envelope, seqs and links are checked,
    the hashes are not computed a second time. ``bulk``: the events are part of a longer run
    (an import's lines, checked one at a time), hashed as many (``digest.sha256_for``).
    """
    expected = from_seq
    mid = match_id
    count = 0
    sha = sha256_for(BULK if bulk else len(events) if isinstance(events, Sized) else 0)
    encode, reserved = _encoder.encode, ENVELOPE_KEYS
    for ev in events:
        seq, fields, ev_prev = ev.seq, ev.fields, ev.prev
        if not (type(seq) is int and seq >= 1 and type(ev.match_id) is str and type(ev.type) is str and type(ev.by) is str
                and type(ev.recorded_at) is str and type(ev_prev) is str and type(ev.hash) is str
                and type(fields) is dict):  # the common case, in one test; envelope_problem words the rest
            problem = envelope_problem(ev)
            if problem:
                raise IntegrityError(mid or str(ev.match_id), seq if type(seq) is int else None, problem)
        if mid is None:
            mid = ev.match_id
        if ev.match_id != mid:
            raise IntegrityError(mid, seq, f"event belongs to match {ev.match_id!r}")
        if seq != expected:
            raise IntegrityError(mid, seq, f"expected seq {expected}, found {seq!r}")
        if ev_prev != prev:
            raise IntegrityError(mid, seq, "prev does not match the hash of the previous event")
        if not hashed:
            # chain_hash, inline: the body is the fields with the envelope keys beside them
            if not reserved.isdisjoint(fields):
                raise IntegrityError(mid, seq, f"the event cannot be hashed: field "
                                     f"{sorted(reserved.intersection(fields))[0]!r} is reserved for the envelope")
            try:
                want = sha(ev_prev.encode("ascii") + encode({**fields, "match_id": mid, "seq": seq, "type": ev.type, "by": ev.by,
                                                             "recorded_at": ev.recorded_at, "prev": ev_prev})).hexdigest()
            except ValueError as exc:
                raise IntegrityError(mid, seq, f"the event cannot be hashed: {exc}") from None
            if want != ev.hash:
                raise IntegrityError(mid, seq, "hash does not match the event's content")
        prev = ev.hash
        expected += 1
        count += 1
    if last_hash is not None and prev != last_hash:
        raise IntegrityError(
            mid or "?", expected - 1 if count else None, "the log does not end at the recorded head: events are missing"
        )
    return count
