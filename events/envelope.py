"""The envelope of a stored event and its canonical encoding.

A stored event is ``match_id, seq, type, by, recorded_at, fields, prev, hash``. On the wire
(JSONL) the event's own fields sit beside the envelope keys in one flat object:
``{"type": "declare_knock", "by": "alice", "player": "alice", "seq": 7, ...}``.

``hash = SHA-256(prev || canonical(everything but hash))`` where ``canonical`` is compact JSON
with sorted keys. The hash therefore covers every envelope key and every field.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import msgspec

from events.digest import BULK, sha256_for

#: Keys owned by the envelope. An event's own fields may not use them.
ENVELOPE_KEYS = frozenset({"match_id", "seq", "type", "by", "recorded_at", "prev", "hash"})

_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder()


class StoredEvent(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One event as the log holds it: immutable, chained to its predecessor. Data only, in no
    reference cycle: untracked by the garbage collector (``gc=False``), as the events are."""

    match_id: str
    seq: int
    type: str
    by: str
    recorded_at: str
    fields: dict[str, Any]
    prev: str
    hash: str

    def flat(self, *, with_hash: bool = True) -> dict[str, Any]:
        """The flat wire form: envelope keys and the event's own fields in one mapping."""
        out: dict[str, Any] = dict(self.fields)
        out.update(
            match_id=self.match_id,
            seq=self.seq,
            type=self.type,
            by=self.by,
            recorded_at=self.recorded_at,
            prev=self.prev,
        )
        if with_hash:
            out["hash"] = self.hash
        return out


class Draft(msgspec.Struct, frozen=True, kw_only=True):
    """An event about to be appended: the store assigns seq, prev and hash."""

    type: str
    by: str
    recorded_at: str
    fields: dict[str, Any] = {}


class Rejection(msgspec.Struct, frozen=True, kw_only=True):
    """The record of a rejected attempt, kept beside the log (never part of the state)."""

    match_id: str
    head_seq: int  # the seq the log stood at when the attempt was made
    type: str
    by: str
    recorded_at: str
    fields: dict[str, Any]
    rule: str
    message: str
    code: str | None = None  # the game's reason code of the refusal, where it gives one


def canonical(obj: Any) -> bytes:
    """Compact JSON with sorted keys: the bytes that are hashed and compared."""
    return _encoder.encode(obj)


def check_fields(fields: Any, path: str = "$") -> None:
    """Refuse what canonical JSON cannot carry faithfully, naming the place: ``ValueError``.

    An event's fields are a mapping with string keys, none of them an envelope key (a field
    named ``seq`` or ``prev`` would be overwritten in the hashed body, so it would not be
    covered by the hash). Values are null, booleans, integers, finite floats, strings, lists
    (tuples are stored as lists) and mappings with string keys. NaN and infinities are refused:
    JSON has no spelling for them and the encoder would silently turn them into null.
    """
    if not isinstance(fields, dict):
        raise ValueError(f"an event's fields must be a mapping, not {type(fields).__name__} (at {path})")
    clash = ENVELOPE_KEYS.intersection(fields)
    if clash:
        key = sorted(clash)[0]
        raise ValueError(f"field {key!r} is reserved for the envelope (at {path}.{key})")
    _check_value(fields, path)


def _check_value(value: Any, path: str) -> None:
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value!r} cannot be stored as JSON (at {path})")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_value(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"mapping key {key!r} is not a string (at {path})")
            _check_value(item, f"{path}.{key}")
        return
    raise ValueError(f"a {type(value).__name__} cannot be stored as JSON (at {path})")


def envelope_problem(ev: StoredEvent) -> str | None:
    """What is wrong with the types of an event's envelope, or None: ``seq`` is an integer of
    at least 1 (not a bool, not 2.0), ``match_id``, ``type``, ``by``, ``recorded_at``, ``prev``
    and ``hash`` are strings, and the fields are a mapping. A row that breaks this could be
    hashed, but would not read back as it was written."""
    if type(ev.seq) is not int or ev.seq < 1:
        return f"seq is {ev.seq!r}, not a whole number of at least 1"
    named = (("match_id", ev.match_id), ("type", ev.type), ("by", ev.by), ("recorded_at", ev.recorded_at),
             ("prev", ev.prev), ("hash", ev.hash))
    for name, value in named:
        if type(value) is not str:
            return f"{name} is {value!r}, not a string"
    if not isinstance(ev.fields, dict):
        return f"the fields are a {type(ev.fields).__name__}, not a mapping"
    return None


#: An RFC 3339 date and time in UTC: ``2026-05-01T21:04:11.123456Z`` (``T`` and ``Z`` either case, or
#: the offset ``+00:00``; any number of decimals of a second).
_UTC_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[Zz]|\+00:00)", re.ASCII)
#: The same, its hour, minute and second within range (a leap second's ``:60`` included).
_UTC_CLOCK = re.compile(r"\d{4}-\d\d-\d\d[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|\+00:00)", re.ASCII)


def utc_time_problem(value: str) -> str | None:
    """What is wrong with ``value`` as a recorded time, or None: it must be an RFC 3339 date and
    time in UTC that exists (a leap second's ``:60`` included), as the store's clock writes it."""
    if _UTC_CLOCK.fullmatch(value) is not None:
        # the date at value[:10] (the pattern's); whether it exists is remembered, as the lines
        # of a file share a few dates
        date = value[:10]
        exists = _DATES.get(date)
        if exists is None:
            try:
                datetime.date(int(date[:4]), int(date[5:7]), int(date[8:10]))
                exists = True
            except ValueError:
                exists = False
            if len(_DATES) >= 4096:
                _DATES.clear()
            _DATES[date] = exists
    elif _UTC_TIME.fullmatch(value) is not None:
        exists = False  # its hour, minute or second is out of range
    else:
        return f"{value!r} is not an RFC 3339 time in UTC, such as 2026-05-01T21:04:11.123456Z"
    return None if exists else f"{value!r} is not a time that exists"


#: Date (``2026-05-01``) -> whether it exists, for ``utc_time_problem``.
_DATES: dict[str, bool] = {}


def decode_json(data: bytes | str) -> Any:
    return _decoder.decode(data)


def chain_hash(
    *, match_id: str, seq: int, type: str, by: str, recorded_at: str, fields: dict[str, Any], prev: str, bulk: bool = False
) -> str:
    """``bulk``: one of a long run of events (``digest.sha256_for``)."""
    if not ENVELOPE_KEYS.isdisjoint(fields):
        raise ValueError(f"field {sorted(ENVELOPE_KEYS.intersection(fields))[0]!r} is reserved for the envelope")
    body = {**fields, "match_id": match_id, "seq": seq, "type": type, "by": by, "recorded_at": recorded_at, "prev": prev}
    return body_hash(prev, _encoder.encode(body), bulk)


def body_hash(prev: str, body: bytes, bulk: bool = False) -> str:
    """The hash of the event that follows ``prev`` and whose canonical encoding, all but the hash,
    is ``body``. ``bulk``: as ``chain_hash``."""
    return sha256_for(BULK if bulk else 1)(prev.encode("ascii") + body).hexdigest()


def line_body(line: bytes, hash_: str) -> bytes | None:
    """What the hash of a line covers (``chain_hash``'s body), when ``line`` is the canonical
    encoding of a flat object that carries every envelope key, ``hash_`` among them: the line
    without its ``"hash"`` member and the comma before it (a key sorts before it: ``"by"``).
    None when the member cannot be told for sure: a key ``"hash"`` also in a nested object, or
    a hash whose encoding is not its own text (JSON escapes in it)."""
    at = line.find(b'"hash":"')
    if at < 1 or line[at - 1] != 44 or line.count(b'"hash":') != 1:  # 44: a comma
        return None
    end = line.find(b'"', at + 8)
    if line[at + 8 : end] != hash_.encode():
        return None
    return line[: at - 1] + line[end + 1 :]


def seal(match_id: str, seq: int, prev: str, draft: Draft, *, fresh: bool = False, bulk: bool = False) -> StoredEvent:
    """Turn a draft into the stored event at ``seq`` that follows ``prev``.

    The fields are checked (``ValueError`` naming the bad place) and copied through their
    canonical encoding, so the stored event holds exactly what a read gives back (lists, not
    tuples) and does not share a mutable mapping with the caller. ``fresh``: the fields were just
    decoded from JSON, with no envelope key among them, and are the caller's to give away (an
    import's, from ``event_fields``): taken as they are. ``bulk``: one of a long run (``chain_hash``).
    """
    for name, value in (("type", draft.type), ("by", draft.by), ("recorded_at", draft.recorded_at)):
        if type(value) is not str:
            raise ValueError(f"{name} is {value!r}, not a string")
    if fresh:
        fields = draft.fields
    else:
        check_fields(draft.fields)
        try:
            fields = decode_json(canonical(draft.fields))
        except UnicodeEncodeError as exc:
            raise ValueError(f"a string in the fields is not valid Unicode ({exc.reason})") from None
    h = chain_hash(
        match_id=match_id,
        seq=seq,
        type=draft.type,
        by=draft.by,
        recorded_at=draft.recorded_at,
        fields=fields,
        prev=prev,
        bulk=bulk,
    )
    return StoredEvent(
        match_id=match_id,
        seq=seq,
        type=draft.type,
        by=draft.by,
        recorded_at=draft.recorded_at,
        fields=fields,
        prev=prev,
        hash=h,
    )


def split_flat(obj: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split a flat wire object into (envelope keys, the event's own fields), each in the order of
    ``obj``."""
    env: dict[str, Any] = {}
    fields: dict[str, Any] = {}
    reserved = ENVELOPE_KEYS
    for k, v in obj.items():  # one pass (a line of every import goes through here)
        if k in reserved:
            env[k] = v
        else:
            fields[k] = v
    return env, fields


def to_line(event: StoredEvent) -> str:
    return canonical(event.flat()).decode()


def from_line(line: str | bytes) -> dict[str, Any]:
    """Decode one JSONL line to a flat mapping (no validation beyond JSON)."""
    return decode_json(line)
