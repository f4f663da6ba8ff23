"""Events as the SQL backends keep them: one row each, the fields as canonical JSON text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from events.chain import IntegrityError
from events.envelope import Rejection, StoredEvent, canonical, decode_json

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder(order="sorted")

#: The columns of an event row, in this order, in every SQL backend.
EVENT_COLUMNS = ("match_id", "seq", "type", "by", "recorded_at", "payload", "prev", "hash")


def payload(fields: dict[str, Any]) -> str:
    """The stored form of an event's fields: canonical JSON text."""
    return canonical(fields).decode()


def event_row(ev: StoredEvent) -> tuple:
    return (ev.match_id, ev.seq, ev.type, ev.by, ev.recorded_at, payload(ev.fields), ev.prev, ev.hash)


def event_from_row(row: Sequence[Any]) -> StoredEvent:
    """Decode a row; ``IntegrityError`` if its payload is not a canonical JSON object.

    Only canonical payloads are ever written, so one that is not (other spacing, reordered or
    duplicated keys, bytes that are not JSON) was altered outside the store.
    """
    return events_from_rows((row,))[0]


def events_from_rows(rows: Iterable[Sequence[Any]]) -> list[StoredEvent]:
    """``event_from_row`` of each row, in one loop: a store's read of a whole match."""
    out: list[StoredEvent] = []
    add, decode, encode, make = out.append, _decoder.decode, _encoder.encode, StoredEvent
    for match_id, seq, type_, by, recorded_at, text, prev, hash_ in rows:
        try:
            fields = decode(text)
        except msgspec.DecodeError as exc:
            raise IntegrityError(match_id, seq, f"stored fields do not decode ({exc})") from None
        if type(fields) is not dict:
            raise IntegrityError(match_id, seq, "stored fields are not an object")
        # the canonical form of what was read is the text itself (compared as bytes: a text
        # column read as str; a str that is not valid Unicode cannot equal any encoding)
        if encode(fields) != (text.encode("utf-8", "surrogatepass") if type(text) is str else bytes(text)):
            raise IntegrityError(match_id, seq, "stored fields are not in canonical form: the row was altered")
        add(make(match_id=match_id, seq=seq, type=type_, by=by, recorded_at=recorded_at, fields=fields, prev=prev, hash=hash_))
    return out


#: The columns of a rejection row, in this order, in every SQL backend (``code`` came later: a
#: store made before it gains the column on its first write, and reads NULL from older rows).
REJECTION_COLUMNS = ("match_id", "head_seq", "type", "by", "recorded_at", "attempted", "rule", "message", "code")


def rejection_row(r: Rejection) -> tuple:
    return (r.match_id, r.head_seq, r.type, r.by, r.recorded_at, canonical(r.fields).decode(), r.rule, r.message, r.code)


def rejection_from_row(row: Sequence[Any]) -> Rejection:
    m, h, t, b, ra, attempted, rule, message, code = row
    try:
        fields = decode_json(attempted)
    except msgspec.DecodeError as exc:
        raise IntegrityError(m, None, f"a stored rejection does not decode ({exc})") from None
    return Rejection(match_id=m, head_seq=h, type=t, by=b, recorded_at=ra, fields=fields, rule=rule, message=message, code=code)
