"""Optimistic concurrency between OS processes: two tables, two terminals, one winner.

Each worker is a separate process (spawn) with its own store handle on the same SQLite file or
PostgreSQL database, as separate ``adj`` commands or separate hosts would have.
"""

from __future__ import annotations

import collections

import pytest

from events.chain import verify_chain
from events.envelope import Draft
from events.factory import open_store
from events.store import ConflictError
from tests.test_store_support import pg_schema, run_processes  # noqa: F401  (fixture)


def _draft(writer: int, n: int) -> Draft:
    return Draft(type="take", by=f"writer-{writer}", recorded_at="2024-05-01T10:00:00Z", fields={"writer": writer, "n": n})


def race_worker(out, url: str, match_id: str, writer: int, rounds: int, barrier) -> None:
    """Round r: everyone waits at the barrier, then appends at expected seq r + 1."""
    store = open_store(url)
    try:
        for r in range(rounds):
            barrier.wait(timeout=60)
            try:
                (ev,) = store.append(match_id, [_draft(writer, r)], r + 1)
                out.put(("won", r, writer, ev.seq))
            except ConflictError as exc:
                out.put(("conflict", r, writer, (exc.expected_seq, exc.actual_seq, str(exc))))
    finally:
        store.close()


def retry_worker(out, url: str, match_id: str, writer: int, count: int) -> None:
    """Append ``count`` events, each at the head just read, retrying after every conflict."""
    store = open_store(url)
    conflicts = 0
    try:
        for n in range(count):
            while True:
                try:
                    store.append(match_id, [_draft(writer, n)], store.head(match_id))
                    break
                except ConflictError:
                    conflicts += 1
        out.put((writer, conflicts))
    finally:
        store.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return request.getfixturevalue("pg_schema")


def _start(url: str, match_id: str) -> None:
    with open_store(url) as store:
        store.append(match_id, [Draft(type="match_started", by="judge", recorded_at="t", fields={"game": "nim"})], 0)


@pytest.mark.parametrize("writers", [2, 8])
def test_processes_racing_for_the_same_seq_have_exactly_one_winner(store_url, writers):
    import multiprocessing as mp

    rounds = 12
    _start(store_url, "m1")
    barrier = mp.get_context("spawn").Barrier(writers)
    results = run_processes(race_worker, [(store_url, "m1", w, rounds, barrier) for w in range(writers)])
    assert len(results) == writers * rounds
    winners = {}
    for kind, r, writer, detail in results:
        if kind == "won":
            assert r not in winners, f"round {r}: two winners"
            assert detail == r + 2
            winners[r] = writer
        else:
            expected, actual, message = detail
            assert (expected, actual) == (r + 1, r + 2)
            assert message == (
                f"match 'm1' moved on: expected head seq {r + 1}, found {r + 2}; "
                "another entry was recorded first, nothing was written"
            )
    assert sorted(winners) == list(range(rounds))
    with open_store(store_url) as store:
        events = store.read("m1")
        assert verify_chain(events, "m1") == rounds + 1 == store.head("m1")
        assert [e.seq for e in events] == list(range(1, rounds + 2))
        assert [(e.fields["n"], e.fields["writer"]) for e in events[1:]] == sorted(winners.items())


def test_processes_retrying_after_conflicts_lose_and_duplicate_nothing(store_url):
    writers, count = 6, 15
    _start(store_url, "m1")
    results = run_processes(retry_worker, [(store_url, "m1", w, count) for w in range(writers)])
    assert sorted(w for w, _ in results) == list(range(writers))
    with open_store(store_url) as store:
        events = store.read("m1")
    assert verify_chain(events, "m1") == 1 + writers * count
    written = collections.Counter((e.fields["writer"], e.fields["n"]) for e in events[1:])
    assert written == collections.Counter({(w, n): 1 for w in range(writers) for n in range(count)})
    # each writer's own events are in the order it wrote them
    for w in range(writers):
        assert [e.fields["n"] for e in events[1:] if e.fields["writer"] == w] == list(range(count))


def test_two_processes_creating_the_same_match_one_wins(store_url):
    """Both try seq 1 (``expected_seq`` 0): the loser is told the match already exists."""
    import multiprocessing as mp

    barrier = mp.get_context("spawn").Barrier(2)
    results = run_processes(create_worker, [(store_url, "fresh", w, barrier) for w in range(2)])
    kinds = sorted(r[0] for r in results)
    assert kinds == ["conflict", "won"]
    (loser,) = [r for r in results if r[0] == "conflict"]
    assert loser[2] == "match 'fresh' already exists (head is seq 1)"
    with open_store(store_url) as store:
        assert verify_chain(store.read("fresh"), "fresh") == 1


def create_worker(out, url: str, match_id: str, writer: int, barrier) -> None:
    store = open_store(url)
    try:
        barrier.wait(timeout=60)
        try:
            store.append(match_id, [_draft(writer, 0)], 0)
            out.put(("won", writer, ""))
        except ConflictError as exc:
            out.put(("conflict", writer, str(exc)))
    finally:
        store.close()


def test_processes_opening_a_new_sqlite_file_at_the_same_instant_all_open_it(tmp_path):
    """Switching a new file to WAL and creating the schema race between openers; none may fail."""
    import multiprocessing as mp

    paths = [str(tmp_path / f"new-{n}.sqlite3") for n in range(40)]
    barrier = mp.get_context("spawn").Barrier(6)
    results = run_processes(open_worker, [(paths, w, barrier) for w in range(6)])
    assert sorted(results) == [("opened", w, len(paths)) for w in range(6)]
    for path in paths:
        with open_store(path) as store:
            assert store.matches() == []


def open_worker(out, paths: list[str], writer: int, barrier) -> None:
    """Open each new file together with the other workers (one barrier per file)."""
    for path in paths:
        barrier.wait(timeout=60)
        open_store(path).close()
    out.put(("opened", writer, len(paths)))
