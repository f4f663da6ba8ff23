"""Properties of the canonical encoding and the hash chain, over generated events and logs."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from events.chain import IntegrityError, verify_chain
from events.envelope import (
    ENVELOPE_KEYS,
    Draft,
    StoredEvent,
    body_hash,
    canonical,
    decode_json,
    from_line,
    line_body,
    seal,
    split_flat,
    to_line,
)
from events.memory import MemoryStore

# Strings as JSON can carry them: any code point but lone surrogates (not encodable as UTF-8).
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20,
)
field_keys = text.filter(lambda k: k not in ENVELOPE_KEYS)
fields_st = st.dictionaries(field_keys, json_values, max_size=5)
drafts = st.builds(
    lambda t, b, r, f: Draft(type=t, by=b, recorded_at=r, fields=f),
    st.sampled_from(["match_started", "take", "rewind", "correct", "宣言"]),
    st.sampled_from(["judge", "alice", "bob", "アリス"]),
    st.sampled_from(["2024-05-01T10:00:00.000000Z", "2024-05-01T10:00:01.500000Z", ""]),
    fields_st,
)
match_ids = st.sampled_from(["m1", "bacdef-7", "試合-1"])


def build_log(match_id: str, ds: list[Draft]) -> list[StoredEvent]:
    out: list[StoredEvent] = []
    for d in ds:
        out.append(seal(match_id, len(out) + 1, out[-1].hash if out else "", d))
    return out


def reordered(value, flip: bool):
    """The same JSON value with every mapping's keys inserted in reverse (or the same) order."""
    if isinstance(value, dict):
        items = list(value.items())
        if flip:
            items.reverse()
        return {k: reordered(v, flip) for k, v in items}
    if isinstance(value, list):
        return [reordered(v, flip) for v in value]
    return value


# -- canonical encoding ----------------------------------------------------------------------


@given(fields_st)
def test_canonical_encoding_round_trips(fields):
    data = canonical(fields)
    back = decode_json(data)
    assert back == fields
    assert canonical(back) == data  # decoding loses nothing the hash covers


@given(fields_st)
def test_canonical_encoding_does_not_depend_on_key_order(fields):
    flipped = reordered(fields, True)
    assert canonical(flipped) == canonical(fields)
    keys = [k for k in decode_json(canonical(fields))]
    assert keys == sorted(keys)


@given(match_ids, drafts)
def test_a_wire_line_round_trips(match_id, d):
    (ev,) = build_log(match_id, [d])
    env, fields = split_flat(from_line(to_line(ev)))
    assert fields == ev.fields
    assert env == {
        "match_id": ev.match_id,
        "seq": ev.seq,
        "type": ev.type,
        "by": ev.by,
        "recorded_at": ev.recorded_at,
        "prev": ev.prev,
        "hash": ev.hash,
    }


@given(match_ids, drafts, st.sampled_from(["", "0f" * 32]),
       st.sampled_from([{}, {"note": {"hash": "x"}}, {"notes": [{"hash": "0f" * 32}]}]))
def test_a_sealed_lines_body_is_the_line_without_its_hash(match_id, d, prev, nested):
    """What a sealed line's hash covers, cut from the line: the canonical encoding of everything
    but the hash; or nothing when a nested key ``"hash"`` leaves the member in doubt."""
    ev = seal(match_id, 2, prev, Draft(type=d.type, by=d.by, recorded_at=d.recorded_at, fields={**d.fields, **nested}))
    line = to_line(ev)
    body = line_body(line.encode(), ev.hash)
    assert (body is None) == (line.count('"hash":') > 1)
    if body is not None:
        assert body == canonical(ev.flat(with_hash=False))
        assert body_hash(prev, body) == ev.hash


# -- the chain -------------------------------------------------------------------------------


@given(match_ids, st.lists(drafts, min_size=1, max_size=10))
def test_any_generated_log_verifies(match_id, ds):
    log = build_log(match_id, ds)
    assert verify_chain(log, match_id) == len(log)
    assert verify_chain(log, match_id, last_hash=log[-1].hash) == len(log)
    k = min(3, len(log))  # a continuation checks on its own, given where it starts
    assert verify_chain(log[k:], match_id, from_seq=k + 1, prev=log[k - 1].hash) == len(log) - k


@given(match_ids, st.lists(drafts, min_size=1, max_size=10), st.data())
def test_the_store_computes_the_same_chain_however_the_appends_are_batched(match_id, ds, data):
    store = MemoryStore()
    i = 0
    while i < len(ds):
        n = data.draw(st.integers(1, len(ds) - i), label="batch")
        store.append(match_id, ds[i : i + n], i)
        i += n
    assert store.read(match_id) == build_log(match_id, ds)


def _replace(ev: StoredEvent, **changes) -> StoredEvent:
    values = {f: getattr(ev, f) for f in StoredEvent.__struct_fields__}
    values.update(changes)
    return StoredEvent(**values)


@given(match_ids, st.lists(drafts, min_size=1, max_size=8), st.data())
def test_a_changed_field_value_never_verifies(match_id, ds, data):
    log = build_log(match_id, ds)
    i = data.draw(st.integers(0, len(log) - 1), label="event")
    ev = log[i]
    key = data.draw(st.sampled_from(sorted(ev.fields)) if ev.fields and data.draw(st.booleans()) else field_keys, label="key")
    value = data.draw(json_values, label="value")
    changed = {**ev.fields, key: value}
    assume(canonical(changed) != canonical(ev.fields))
    log[i] = _replace(ev, fields=changed)
    with pytest.raises(IntegrityError) as err:
        verify_chain(log, match_id)
    assert err.value.seq == ev.seq
    assert "hash does not match the event's content" in str(err.value)


@given(match_ids, st.lists(drafts, min_size=1, max_size=8), st.data())
def test_a_changed_envelope_value_never_verifies(match_id, ds, data):
    log = build_log(match_id, ds)
    i = data.draw(st.integers(0, len(log) - 1), label="event")
    attr = data.draw(st.sampled_from(["type", "by", "recorded_at", "match_id", "hash", "prev"]), label="attr")
    value = data.draw(text, label="value")
    assume(value != getattr(log[i], attr))
    log[i] = _replace(log[i], **{attr: value})
    with pytest.raises(IntegrityError):
        verify_chain(log, match_id)


@given(match_ids, st.lists(drafts, min_size=2, max_size=8), st.data())
def test_a_deleted_event_never_verifies(match_id, ds, data):
    log = build_log(match_id, ds)
    head = log[-1].hash
    i = data.draw(st.integers(0, len(log) - 1), label="deleted")
    del log[i]
    with pytest.raises(IntegrityError):
        verify_chain(log, match_id, last_hash=head)
    if i < len(log):  # only the tail needs the known head; a hole anywhere else shows by itself
        with pytest.raises(IntegrityError):
            verify_chain(log, match_id)


@given(match_ids, st.lists(drafts, min_size=2, max_size=8), st.data())
def test_two_swapped_events_never_verify(match_id, ds, data):
    log = build_log(match_id, ds)
    i = data.draw(st.integers(0, len(log) - 2), label="i")
    j = data.draw(st.integers(i + 1, len(log) - 1), label="j")
    log[i], log[j] = log[j], log[i]
    with pytest.raises(IntegrityError) as err:
        verify_chain(log, match_id)
    assert err.value.seq == log[i].seq


@given(match_ids, st.lists(drafts, min_size=1, max_size=8), st.data())
def test_a_forged_event_with_its_own_hash_recomputed_never_verifies(match_id, ds, data):
    """A forger who rewrites an event and recomputes its hash breaks the next event's link; at
    the end of the log, only the head recorded elsewhere shows it."""
    log = build_log(match_id, ds)
    head = log[-1].hash
    i = data.draw(st.integers(0, len(log) - 1), label="event")
    ev = log[i]
    forged = seal(match_id, ev.seq, ev.prev, Draft(type=ev.type, by="mallory", recorded_at=ev.recorded_at, fields=ev.fields))
    assume(forged.hash != ev.hash)
    log[i] = forged
    with pytest.raises(IntegrityError):
        verify_chain(log, match_id, last_hash=head)
    if i < len(log) - 1:
        with pytest.raises(IntegrityError, match="prev does not match"):
            verify_chain(log, match_id)


def test_fields_the_hash_could_not_cover_are_refused():
    for bad, message in [
        ({"prev": "x"}, r"field 'prev' is reserved for the envelope \(at \$\.prev\)"),
        ({"deep": {"x": [1, float("inf")]}}, r"inf cannot be stored as JSON \(at \$\.deep\.x\[1\]\)"),
        ({"deep": {1: "a"}}, r"mapping key 1 is not a string \(at \$\.deep\)"),
        ({"when": object()}, r"a object cannot be stored as JSON \(at \$\.when\)"),
        ({"s": "\ud800"}, r"not valid Unicode"),
    ]:
        with pytest.raises(ValueError, match=message):
            seal("m1", 1, "", Draft(type="t", by="b", recorded_at="r", fields=bad))
    stored = _replace(build_log("m1", [Draft(type="t", by="b", recorded_at="r")])[0], fields={"seq": 2})
    with pytest.raises(IntegrityError, match="reserved for the envelope"):
        verify_chain([stored], "m1")
