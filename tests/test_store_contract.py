"""The store contract, run against every backend: memory, a SQLite file, PostgreSQL.

A backend is correct if it passes this file unchanged. The ``backend`` fixture gives the store
under test plus two things only a test may do: reopen the same data through a second handle,
and alter a stored row in place (``tamper``), as someone with direct access to the file or the
database could.
"""

from __future__ import annotations

import sqlite3

import pytest

from events.chain import IntegrityError, verify_chain
from events.envelope import Draft, Rejection, StoredEvent, canonical, chain_hash, seal
from events.memory import MemoryStore
from events.rows import EVENT_COLUMNS
from events.store import ConflictError, MatchInfo, Store, StoreError
from tests.test_store_support import pg_execute, pg_schema  # noqa: F401  (fixture)


class Backend:
    def __init__(self, name: str, store: Store, location: str | None = None):
        self.name = name
        self.store = store
        self.location = location
        self._handles = [store]

    def reopen(self) -> Store:
        """A second, independent handle on the same data (the same object for memory)."""
        if self.name == "memory":
            return self.store
        from events.factory import open_store

        other = open_store(self.location)
        self._handles.append(other)
        return other

    def tamper(self, match_id: str, seq: int, column: str, value) -> None:
        """Overwrite one column of a stored event, behind the store's back."""
        if self.name == "memory":
            log = self.store._logs[match_id]  # type: ignore[attr-defined]
            row = list(log[seq - 1])
            row[EVENT_COLUMNS.index(column)] = value
            log[seq - 1] = tuple(row)
        elif self.name == "sqlite":
            with sqlite3.connect(self.location) as db:
                db.execute(f"UPDATE events SET {column} = ? WHERE match_id = ? AND seq = ?", (value, match_id, seq))
        else:
            pg_execute(self.location, f'UPDATE events SET "{column}" = %s WHERE match_id = %s AND seq = %s', (value, match_id, seq))

    def execute(self, sql: str) -> None:
        """Run one statement on the data, behind the store's back (SQL backends only)."""
        if self.name == "sqlite":
            with sqlite3.connect(self.location) as db:
                db.execute(sql)
        else:
            pg_execute(self.location, sql)

    def refuse_type(self, type_: str) -> None:
        """Make the database itself refuse any event row of this type (SQL backends only)."""
        if self.name == "sqlite":
            with sqlite3.connect(self.location) as db:
                db.execute(
                    f"CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.type = '{type_}'"
                    f" BEGIN SELECT RAISE(ABORT, 'events of type {type_} are refused'); END"
                )
        else:
            pg_execute(self.location, f"ALTER TABLE events ADD CONSTRAINT {type_}_refused CHECK (type <> '{type_}')")

    def close(self) -> None:
        for h in self._handles:
            h.close()


def _make(name: str, request, tmp_path) -> Backend:
    if name == "memory":
        return Backend(name, MemoryStore())
    if name == "sqlite":
        path = str(tmp_path / "store.sqlite3")
        from events.sqlite import SQLiteStore

        return Backend(name, SQLiteStore(path), path)
    url = request.getfixturevalue("pg_schema")
    from events.postgres import PostgresStore

    return Backend(name, PostgresStore(url), url)


PG = pytest.param("postgres", marks=pytest.mark.postgres)


@pytest.fixture(params=["memory", "sqlite", PG])
def backend(request, tmp_path):
    b = _make(request.param, request, tmp_path)
    yield b
    b.close()


@pytest.fixture(params=["sqlite", PG])
def sql_backend(request, tmp_path):
    b = _make(request.param, request, tmp_path)
    yield b
    b.close()


def draft(type_: str = "take", by: str = "alice", at: str = "2024-05-01T10:00:00.000000Z", **fields) -> Draft:
    return Draft(type=type_, by=by, recorded_at=at, fields=fields)


def start(store: Store, match_id: str = "m1", n: int = 1) -> tuple[StoredEvent, ...]:
    first = [draft("match_started", "judge", game="nim", players=["alice", "bob"])]
    more = [draft("take", "alice", player="alice", count=i % 3 + 1) for i in range(n - 1)]
    return store.append(match_id, first + more, 0)


# -- appending -------------------------------------------------------------------------------


def test_append_at_zero_creates_the_match(backend):
    store = backend.store
    assert store.head("m1") == 0
    assert store.read("m1") == []
    (ev,) = store.append("m1", [draft("match_started", "judge", game="nim")], 0)
    assert (ev.match_id, ev.seq, ev.type, ev.by, ev.prev) == ("m1", 1, "match_started", "judge", "")
    assert ev.fields == {"game": "nim"}
    assert ev.hash == chain_hash(
        match_id="m1", seq=1, type="match_started", by="judge", recorded_at=ev.recorded_at, fields={"game": "nim"}, prev=""
    )
    assert store.head("m1") == 1
    assert store.read("m1") == [ev]


def test_seqs_are_dense_and_the_chain_verifies(backend):
    store = backend.store
    start(store, "m1")
    for expected in range(1, 8):
        batch = [draft(player="alice", count=1)] * (expected % 3 + 1)
        out = store.append("m1", batch, store.head("m1"))
        assert [e.seq for e in out] == list(range(store.head("m1") - len(batch) + 1, store.head("m1") + 1))
    events = store.read("m1")
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    for before, after in zip(events, events[1:]):
        assert after.prev == before.hash
    assert verify_chain(events, "m1") == len(events) == store.head("m1")


def test_stale_expected_seq_is_a_conflict_and_writes_nothing(backend):
    store = backend.store
    start(store, "m1", 3)
    before = store.read("m1")
    with pytest.raises(ConflictError) as err:
        store.append("m1", [draft(player="bob", count=2)], 2)
    assert (err.value.match_id, err.value.expected_seq, err.value.actual_seq) == ("m1", 2, 3)
    assert str(err.value) == (
        "match 'm1' moved on: expected head seq 2, found 3; another entry was recorded first, nothing was written"
    )
    with pytest.raises(ConflictError, match=r"match 'm1' already exists \(head is seq 3\)"):
        store.append("m1", [draft("match_started", "judge")], 0)
    with pytest.raises(ConflictError, match=r"match 'm1' is at head seq 3, not 9 as expected; nothing was written"):
        store.append("m1", [draft()], 9)
    with pytest.raises(ConflictError, match=r"match 'nowhere' is at head seq 0, not 1"):
        store.append("nowhere", [draft()], 1)
    assert store.read("m1") == before
    assert store.read("nowhere") == [] and store.head("nowhere") == 0


def test_a_conflict_is_seen_through_another_handle(backend):
    store, other = backend.store, backend.reopen()
    start(store, "m1")
    (ev,) = other.append("m1", [draft(count=1)], 1)
    assert store.head("m1") == 2 and store.read("m1", 2) == [ev]
    with pytest.raises(ConflictError):
        store.append("m1", [draft(count=2)], 1)
    assert verify_chain(store.read("m1"), "m1") == 2


def test_a_multi_event_append_is_all_or_nothing(backend):
    store = backend.store
    start(store, "m1", 2)
    before = store.read("m1")
    bad = Draft(type="take", by="bob", recorded_at="t", fields={"count": float("nan")})
    with pytest.raises(ValueError, match=r"nan cannot be stored as JSON \(at \$\.count\)"):
        store.append("m1", [draft(count=1), draft(count=2), bad], 2)
    reserved = Draft(type="take", by="bob", recorded_at="t", fields={"seq": 99})
    with pytest.raises(ValueError, match=r"field 'seq' is reserved for the envelope"):
        store.append("m1", [draft(count=1), reserved], 2)
    with pytest.raises(ConflictError):
        store.append("m1", [draft(count=1), draft(count=2)], 1)
    assert store.read("m1") == before
    out = store.append("m1", [draft(count=1), draft(count=2), draft(count=3)], 2)
    assert [e.seq for e in out] == [3, 4, 5]
    assert store.read("m1", 3) == list(out)


@pytest.mark.parametrize("at", [1, 2400])
def test_a_batch_the_database_refuses_midway_leaves_nothing(sql_backend, at):
    """The database itself refuses one row of a batch (a rule planted behind the store's back):
    the rows before it, already inserted, must not stay. 2400 rows take several statements."""
    store = sql_backend.store
    (first,) = start(store, "m1")
    sql_backend.refuse_type("forbidden")
    batch = [draft(count=1)] * at + [draft("forbidden")] + [draft(count=2)] * 10
    with pytest.raises(StoreError, match="forbidden") as err:
        store.append("m1", batch, 1)
    assert not isinstance(err.value, ConflictError)
    assert store.read("m1") == [first] and store.head("m1") == 1
    (nxt,) = store.append("m1", [draft(count=1)], 1)
    assert verify_chain(store.read("m1"), "m1") == 2 and nxt.prev == first.hash


def test_a_long_match_in_one_append(backend):
    store = backend.store
    start(store, "m1")
    out = store.append("m1", [draft(count=i % 3 + 1, i=i) for i in range(2500)], 1, idempotency_key="bulk")
    assert [e.seq for e in out] == list(range(2, 2502))
    assert store.read("m1", 2) == list(out)
    assert verify_chain(store.read("m1"), "m1") == 2501
    assert store.append("m1", [draft()], 1, idempotency_key="bulk") == out
    long_chain = reference_chain("m2", 2500)
    store.append_stored(long_chain, 0)
    assert store.read("m2") == long_chain


def test_read_ranges(backend):
    store = backend.store
    events = start(store, "m1", 6)
    assert store.read("m1") == list(events)
    assert store.read("m1", 2, 4) == list(events[1:4])
    assert store.read("m1", 5) == list(events[4:])
    assert store.read("m1", 0, 2) == list(events[:2])
    assert store.read("m1", 4, 4) == [events[3]]
    assert store.read("m1", 5, 3) == []
    assert store.read("m1", 7) == []
    assert store.read("m1", 3, 100) == list(events[2:])
    assert store.read("unknown") == []


def test_head(backend):
    store = backend.store
    assert store.head("m1") == 0
    start(store, "m1", 4)
    start(store, "m2", 2)
    assert (store.head("m1"), store.head("m2"), store.head("m3")) == (4, 2, 0)


def test_matches_lists_ids_with_head_seq_in_code_point_order(backend):
    store = backend.store
    assert store.matches() == []
    ids = {"b-2": 3, "a-1": 1, "Z-9": 2, "é-3": 1, "a-10": 2}
    for mid, n in ids.items():
        start(store, mid, n)
    store.append("b-2", [draft(at="2024-05-02T09:00:00.000000Z", count=1)], 3)
    got = store.matches()
    assert [m.match_id for m in got] == ["Z-9", "a-1", "a-10", "b-2", "é-3"]
    assert {m.match_id: m.head_seq for m in got} == {**ids, "b-2": 4}
    assert got[3] == MatchInfo(
        match_id="b-2", head_seq=4, created_at="2024-05-01T10:00:00.000000Z", updated_at="2024-05-02T09:00:00.000000Z"
    )


# -- rejections ------------------------------------------------------------------------------


def rejection(match_id: str, n: int, head: int) -> Rejection:
    return Rejection(
        match_id=match_id,
        head_seq=head,
        type="take",
        by="bob",
        recorded_at=f"2024-05-01T10:00:0{n}.000000Z",
        fields={"player": "bob", "count": 4 + n, "note": "ñ"},
        rule="NIM-TAKE-1",
        message=f"bob may take 1 to 3 stones, not {4 + n}",
    )


def test_rejections_are_kept_in_order_beside_the_log(backend):
    store = backend.store
    events = start(store, "m1", 2)
    start(store, "m2")
    recorded = [rejection("m1", n, 2) for n in range(4)]
    for n, r in enumerate(recorded):
        store.record_rejection(r)
        if n == 1:
            store.record_rejection(rejection("m2", 9, 1))
    assert store.rejections("m1") == recorded
    assert store.rejections("m2") == [rejection("m2", 9, 1)]
    assert store.rejections("m3") == []
    assert store.read("m1") == list(events)
    assert store.head("m1") == 2
    assert [m.head_seq for m in store.matches()] == [2, 1]
    assert backend.reopen().rejections("m1") == recorded


# -- idempotency -----------------------------------------------------------------------------


def test_a_repeated_idempotency_key_returns_the_stored_events_and_writes_nothing(backend):
    store = backend.store
    start(store, "m1")
    first = store.append("m1", [draft(count=2)], 1, idempotency_key="table-3/entry-17")
    assert [e.seq for e in first] == [2]
    # the same request again, as after a lost answer: same expected seq, or a stale one
    assert store.append("m1", [draft(count=2)], 1, idempotency_key="table-3/entry-17") == first
    store.append("m1", [draft(count=1)], 2)
    assert store.append("m1", [draft(count=2)], 1, idempotency_key="table-3/entry-17") == first
    assert store.head("m1") == 3
    # a batch: the whole batch comes back
    batch = store.append("m1", [draft(count=1), draft(count=2), draft(count=3)], 3, idempotency_key="batch")
    assert [e.seq for e in batch] == [4, 5, 6]
    assert store.append("m1", [draft(count=1), draft(count=2), draft(count=3)], 3, idempotency_key="batch") == batch
    assert store.events_for_key("m1", "batch") == batch
    assert store.events_for_key("m1", "table-3/entry-17") == first
    assert store.events_for_key("m1", "never-used") == ()
    assert store.head("m1") == 6
    # keys belong to a match: the same key elsewhere is a new append
    start(store, "m2")
    assert [e.seq for e in store.append("m2", [draft(count=2)], 1, idempotency_key="table-3/entry-17")] == [2]
    assert verify_chain(store.read("m1"), "m1") == 6
    assert backend.reopen().append("m1", [draft(count=2)], 1, idempotency_key="batch") == batch


def test_idempotency_keys_are_checked(backend):
    store = backend.store
    start(store, "m1")
    for bad in ("", "a\x1fb", "new\nline", "x" * 201):
        with pytest.raises(ValueError, match="idempotency key"):
            store.append("m1", [draft()], 1, idempotency_key=bad)
    assert store.head("m1") == 1


# -- stored events (import, copy) ------------------------------------------------------------


def reference_chain(match_id: str = "m1", n: int = 5) -> list[StoredEvent]:
    ref = MemoryStore()
    ref.append(match_id, [draft("match_started", "judge", at="2023-01-01T00:00:00Z", game="nim")], 0)
    ref.append(match_id, [draft(at=f"2023-01-01T00:00:0{i}Z", count=i % 3 + 1, 名="値") for i in range(n - 1)], 1)
    return ref.read(match_id)


def test_append_stored_keeps_hashes_byte_for_byte(backend):
    store = backend.store
    chain = reference_chain()
    store.append_stored(chain[:2], 0)
    store.append_stored(chain[2:], 2)
    back = store.read("m1")
    assert back == chain
    assert [e.hash for e in back] == [e.hash for e in chain]
    assert [canonical(e.fields) for e in back] == [canonical(e.fields) for e in chain]
    assert verify_chain(back, "m1") == 5
    # and the chain goes on from there
    (nxt,) = store.append("m1", [draft(count=1)], 5)
    assert nxt.prev == chain[-1].hash
    verify_chain(store.read("m1"), "m1")


def test_append_stored_refuses_what_does_not_continue_the_chain(backend):
    store = backend.store
    chain = reference_chain()
    store.append_stored(chain[:2], 0)
    with pytest.raises(ConflictError):
        store.append_stored(chain[2:], 1)
    with pytest.raises(IntegrityError, match="expected seq 3, found 4"):
        store.append_stored(chain[3:], 2)  # a gap
    forged = StoredEvent(**{**{f: getattr(chain[2], f) for f in StoredEvent.__struct_fields__}, "fields": {"count": 3}})
    with pytest.raises(IntegrityError, match="hash does not match"):
        store.append_stored([forged, *chain[3:]], 2)
    other = reference_chain("m2")
    with pytest.raises(IntegrityError, match="belongs to match 'm2'"):
        store.append_stored([chain[2], other[3]], 2)
    assert store.read("m1") == chain[:2]


@pytest.fixture(params=["memory", "sqlite", PG, "signed"])
def any_store(request, tmp_path):
    """Every backend, and the store the match service writes through (no keys: it passes on)."""
    if request.param != "signed":
        b = _make(request.param, request, tmp_path)
        yield b.store
        b.close()
        return
    from adjudicator.authority.judges import SignedStore
    from events.sqlite import SQLiteStore

    store = SignedStore(SQLiteStore(str(tmp_path / "signed.sqlite3")), lambda: None)
    yield store
    store.close()


def test_appending_in_batches_commits_all_of_them_at_the_end(any_store):
    store = any_store
    chain = reference_chain(n=7)
    store.append_stored(chain[:1], 0)
    with store.appending("m1", 1) as out:
        out.add(chain[1:3])
        out.add([])
        assert out.read() == chain[:3] and out.read(2, 2) == chain[1:2] and out.read(3) == chain[2:3]
        out.add(chain[3:])
        assert out.read(2, 6) == chain[1:6] and out.head == 7 and out.prev == chain[-1].hash
    assert store.read("m1") == chain
    assert [e.hash for e in store.read("m1")] == [e.hash for e in chain]
    (nxt,) = store.append("m1", [draft(count=1)], 7)
    assert nxt.prev == chain[-1].hash


def test_appending_that_raises_writes_nothing(any_store):
    store = any_store
    chain = reference_chain(n=6)
    with pytest.raises(RuntimeError, match="the file ends badly"):
        with store.appending("m1", 0) as out:
            out.add(chain[:3])
            out.add(chain[3:])
            raise RuntimeError("the file ends badly")
    assert store.read("m1") == [] and store.head("m1") == 0 and store.matches() == []
    with pytest.raises(IntegrityError, match="expected seq 3, found 4"):
        with store.appending("m1", 0) as out:
            out.add(chain[:2])
            out.add(chain[3:])  # a gap
    assert store.head("m1") == 0
    forged = StoredEvent(**{**{f: getattr(chain[2], f) for f in StoredEvent.__struct_fields__}, "fields": {"count": 3}})
    with pytest.raises(IntegrityError, match="hash does not match"):
        with store.appending("m1", 0) as out:
            out.add(chain[:2])
            out.add([forged])
    assert store.head("m1") == 0
    with store.appending("m1", 0) as out:  # and the match can still be written whole
        out.add(chain)
    assert store.read("m1") == chain


def test_appending_at_the_wrong_head_is_a_conflict(any_store):
    store = any_store
    chain = reference_chain()
    store.append_stored(chain[:2], 0)
    for head in (0, 1, 3):
        with pytest.raises(ConflictError):
            with store.appending("m1", head) as out:
                out.add(chain[head:])
    assert store.read("m1") == chain[:2]


def test_appended_batches_are_not_seen_by_another_reader_before_the_end(sql_backend):
    store = sql_backend.store
    chain = reference_chain(n=4)
    other = sql_backend.reopen()
    with store.appending("m1", 0) as out:
        out.add(chain[:2])
        assert other.head("m1") == 0 and other.read("m1") == []
        out.add(chain[2:])
    assert other.read("m1") == chain


# -- integrity -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "column, value, where",
    [
        ("payload", '{"count":3,"player":"alice"}', "verify"),  # another value, still canonical
        ("payload", '{"player": "alice", "count": 2}', "read"),  # same content, not canonical
        ("payload", '{"count":2,"count":3,"player":"alice"}', "read"),  # duplicated key
        ("payload", '{"count":2,"player":"alice"', "read"),  # not JSON any more
        ("payload", "[2]", "read"),  # not an object
        ("by", "mallory", "verify"),
        ("type", "rewind", "verify"),
        ("recorded_at", "2024-05-01T10:00:01.000000Z", "verify"),
        ("prev", "0" * 64, "verify"),
        ("hash", "f" * 64, "verify"),
    ],
)
def test_a_row_altered_in_place_is_detected(backend, column, value, where):
    store = backend.store
    store.append("m1", [draft("match_started", "judge", game="nim")], 0)
    store.append("m1", [draft(player="alice", count=2), draft(player="bob", count=1)], 1)
    assert store.read("m1", 2, 2)[0].fields == {"count": 2, "player": "alice"}
    backend.tamper("m1", 2, column, value)
    if where == "read":
        with pytest.raises(IntegrityError) as err:
            store.read("m1")
        assert err.value.seq == 2
        assert "m1 at seq 2" in str(err.value)
    else:
        events = store.read("m1")
        with pytest.raises(IntegrityError) as err:
            verify_chain(events, "m1")
        assert err.value.seq in (2, 3)  # a changed hash shows as the broken link of seq 3


def test_a_deleted_event_is_detected(backend):
    store = backend.store
    chain = start(store, "m1", 4)
    events = store.read("m1")
    with pytest.raises(IntegrityError, match="expected seq 2, found 3"):
        verify_chain(events[:1] + events[2:], "m1")
    with pytest.raises(IntegrityError, match="events are missing"):
        verify_chain(events[:-1], "m1", last_hash=chain[-1].hash)


# -- encoding --------------------------------------------------------------------------------


def test_unicode_round_trips(backend):
    store = backend.store
    fields = {
        "名前": "アリス",
        "emoji": "🂡🃏",
        "mixed": ["é", "\u2028", "tab\tnl\n", "nul\u0000", "quote\"back\\slash"],
        "nested": {"ключ": {"κλειδί": "값"}},
    }
    (ev,) = store.append("試合-1", [Draft(type="宣言", by="ボブ", recorded_at="2024-05-01T10:00:00Z", fields=fields)], 0)
    (back,) = store.read("試合-1")
    assert back == ev
    assert back.fields == fields
    assert (back.match_id, back.type, back.by) == ("試合-1", "宣言", "ボブ")
    assert [m.match_id for m in store.matches()] == ["試合-1"]
    verify_chain([back], "試合-1")


def test_json_values_round_trip(backend):
    store = backend.store
    fields = {
        "ints": [0, -1, 2**53 + 1, 2**63 - 1, -(2**63)],
        "floats": [0.5, -0.0, 1e300, 3.0],
        "flags": [True, False, None],
        "tuple": (1, (2, 3)),
        "empty": {"list": [], "map": {}, "text": ""},
    }
    (ev,) = store.append("m1", [Draft(type="t", by="b", recorded_at="r", fields=fields)], 0)
    expected = {**fields, "tuple": [1, [2, 3]]}
    assert ev.fields == expected
    (back,) = store.read("m1")
    assert back.fields == expected
    assert [type(x) for x in back.fields["floats"]] == [float] * 4
    assert [type(x) for x in back.fields["ints"]] == [int] * 5
    verify_chain([back], "m1")


def test_the_hash_does_not_depend_on_key_order_or_on_the_backend(backend):
    store = backend.store
    forward = {"a": 1, "b": {"x": [1, 2], "y": None}, "c": "z"}
    backward = {"c": "z", "b": {"y": None, "x": [1, 2]}, "a": 1}
    assert list(forward) != list(backward) and canonical(forward) == canonical(backward)
    (one,) = store.append("m1", [Draft(type="t", by="b", recorded_at="r", fields=forward)], 0)
    (two,) = store.append("m2", [Draft(type="t", by="b", recorded_at="r", fields=backward)], 0)
    ref = MemoryStore()
    (ref_one,) = ref.append("m1", [Draft(type="t", by="b", recorded_at="r", fields=backward)], 0)
    assert one.hash == ref_one.hash
    assert one.fields == two.fields == forward
    assert canonical(store.read("m2")[0].fields) == b'{"a":1,"b":{"x":[1,2],"y":null},"c":"z"}'
    assert two.hash == chain_hash(match_id="m2", seq=1, type="t", by="b", recorded_at="r", fields=forward, prev="")


def test_what_is_returned_cannot_change_the_log(backend):
    store = backend.store
    fields = {"hand": ["a", "b"]}
    (ev,) = store.append("m1", [Draft(type="t", by="b", recorded_at="r", fields=fields)], 0)
    fields["hand"].append("c")
    ev.fields["hand"].append("d")
    store.read("m1")[0].fields["hand"].append("e")
    assert store.read("m1")[0].fields == {"hand": ["a", "b"]}
    verify_chain(store.read("m1"), "m1")


# -- what is kept beside the log ----------------------------------------------------------------
def test_rewinds_after_a_seq_are_read_with_their_targets(backend):
    store = backend.store
    start(store, n=4)
    store.append("m1", [draft("rewind", "judge", to_seq=2, reason="r"), draft("take", "bob", player="bob", count=1)], 4)
    store.append("m1", [draft("rewind", "judge", to_seq=6, reason="again")], 6)
    assert store.rewinds_after("m1", 0) == [(5, 2), (7, 6)]
    assert store.rewinds_after("m1", 5) == [(7, 6)]
    assert store.rewinds_after("m1", 7) == [] and store.rewinds_after("other", 0) == []


def test_a_look_at_an_early_seq_reads_the_rewinds_by_an_index_not_every_row(sql_backend):
    """``rewinds_after`` (what ``adj state --at`` reads of the rest of the log) finds a match's
    rewinds through an index of the rewinds alone: at seq 10 of a million-event match it read
    every later row (0.3 s, where the head took 0.2)."""
    query = "SELECT seq FROM events WHERE match_id = 'm1' AND seq > 10 AND type = 'rewind' ORDER BY seq"
    if sql_backend.name == "sqlite":
        with sqlite3.connect(sql_backend.location) as db:
            plan = " ".join(str(r) for r in db.execute("EXPLAIN QUERY PLAN " + query).fetchall())
        assert "events_rewinds" in plan, plan
    else:
        indexes = pg_execute(sql_backend.location, "SELECT indexdef FROM pg_indexes WHERE indexname = 'events_rewinds'"
                             " AND schemaname = current_schema()")
        assert len(indexes) == 1 and "WHERE (type = 'rewind'::text)" in indexes[0][0], indexes


def test_snapshots_are_kept_at_each_seq_and_replaced_at_the_same_seq(backend):
    store = backend.store
    start(store, n=9)
    assert store.snapshot("m1") is None and store.snapshot_at("m1", 9) is None and store.snapshot_seqs("m1") == []
    store.save_snapshot("m1", 6, b"\x00six")
    store.save_snapshot("m1", 3, b"\x00three")  # an earlier seq, kept after a later one
    store.save_snapshot("m1", 6, b"\x00six again")
    store.save_snapshot("m1", 8, b"\x00eight")
    assert store.snapshot("m1") == (8, b"\x00eight")
    assert store.snapshot_seqs("m1") == [3, 6, 8]
    assert store.snapshot_at("m1", 2) is None
    assert store.snapshot_at("m1", 3) == (3, b"\x00three")
    assert store.snapshot_at("m1", 5) == (3, b"\x00three")
    assert store.snapshot_at("m1", 6) == (6, b"\x00six again")
    assert store.snapshot_at("m1", 7) == (6, b"\x00six again")
    assert store.snapshot_at("m1", 10**12) == (8, b"\x00eight")
    assert store.snapshot("m2") is None and store.snapshot_at("m2", 8) is None and store.snapshot_seqs("m2") == []
    other = backend.reopen()
    assert other.snapshot_at("m1", 7) == (6, b"\x00six again") and other.snapshot_seqs("m1") == [3, 6, 8]


#: The snapshots table of a store made when a match kept one snapshot (the match its key).
ONE_SNAPSHOT_TABLE = {
    "sqlite": "CREATE TABLE snapshots (match_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)",
    "postgres": "CREATE TABLE snapshots (match_id text PRIMARY KEY, seq bigint NOT NULL, data bytea NOT NULL)",
}


def test_a_store_made_when_a_match_kept_one_snapshot_keeps_it_and_keeps_more(sql_backend):
    store = sql_backend.store
    start(store, n=9)
    start(store, "m2", n=3)
    sql_backend.execute("DROP TABLE snapshots")
    sql_backend.execute(ONE_SNAPSHOT_TABLE[sql_backend.name])
    blob = (lambda b: f"X'{b.hex()}'") if sql_backend.name == "sqlite" else (lambda b: f"'\\x{b.hex()}'::bytea")
    sql_backend.execute(f"INSERT INTO snapshots (match_id, seq, data) VALUES ('m1', 5, {blob(b'five')}), ('m2', 2, {blob(b'two')})")
    migrated = sql_backend.reopen()
    assert migrated.snapshot("m1") == (5, b"five") and migrated.snapshot_seqs("m1") == [5]
    migrated.save_snapshot("m1", 8, b"eight")
    migrated.save_snapshot("m1", 2, b"two")
    assert migrated.snapshot_seqs("m1") == [2, 5, 8] and migrated.snapshot_at("m1", 7) == (5, b"five")
    assert migrated.snapshot("m1") == (8, b"eight") and migrated.snapshot("m2") == (2, b"two")
    again = sql_backend.reopen()  # opened once more: nothing left to change
    assert again.snapshot_seqs("m1") == [2, 5, 8] and again.snapshot_at("m2", 9) == (2, b"two")
    assert again.read("m1") == store.read("m1") and again.head("m1") == 9


def test_snapshots_kept_while_appending_are_committed_with_the_events(any_store):
    store = any_store
    chain = reference_chain(n=6)
    with pytest.raises(RuntimeError, match="the file ends badly"):
        with store.appending("m1", 0) as out:
            out.add(chain[:3])
            out.save_snapshot(3, b"\x00three")
            raise RuntimeError("the file ends badly")
    assert store.head("m1") == 0 and store.snapshot("m1") is None and store.snapshot_seqs("m1") == []
    with store.appending("m1", 0) as out:
        out.add(chain[:3])
        out.save_snapshot(3, b"\x00three")
        out.add(chain[3:])
        out.save_snapshot(6, b"\x00six")
    assert store.read("m1") == chain
    assert store.snapshot_seqs("m1") == [3, 6] and store.snapshot_at("m1", 5) == (3, b"\x00three")
