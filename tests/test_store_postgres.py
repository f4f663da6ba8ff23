"""PostgreSQL beyond the contract: schema races, write races, killed writers, lost connections.

Faults are real: a writer process is killed with SIGKILL in the middle of its transaction, a
server backend is terminated with ``pg_terminate_backend``, and a TCP proxy cuts the connection
after passing an append to the server but before passing its answer back.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import socket
import threading
import time

import pytest

from adjudicator.service import MatchService
from events.chain import verify_chain
from events.envelope import Draft, seal
from events.postgres import PostgresStore
from events.factory import open_store
from events.store import ConflictError, StoreError
from tests.test_store_support import pg_execute, pg_schema, run_processes, schema_url  # noqa: F401

pytestmark = pytest.mark.postgres


def draft(n: int = 0, by: str = "alice") -> Draft:
    return Draft(type="take", by=by, recorded_at="2024-05-01T10:00:00Z", fields={"n": n})


def started(store, match_id: str = "m1") -> None:
    store.append(match_id, [Draft(type="match_started", by="judge", recorded_at="t", fields={"game": "nim"})], 0)


def base_url(url: str) -> str:
    """The test database without the per-test search_path (for pg_terminate_backend and the like)."""
    return url.split("?")[0]


# -- opening ---------------------------------------------------------------------------------


def open_worker(out, url: str, barrier) -> None:
    barrier.wait(timeout=60)
    with PostgresStore(url) as store:
        out.put(store.head("m1"))


def test_processes_creating_the_schema_at_once_all_succeed(pg_schema):
    barrier = mp.get_context("spawn").Barrier(6)
    assert run_processes(open_worker, [(pg_schema, barrier)] * 6) == [0] * 6
    tables = pg_execute(
        pg_schema, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
    )
    assert tables == [("events",), ("rejections",), ("snapshots",)]


def test_open_store_routes_postgresql_urls(pg_schema, monkeypatch):
    with open_store(pg_schema) as store:
        assert isinstance(store, PostgresStore)
        started(store)
    monkeypatch.setenv("ADJ_STORE", pg_schema)
    with open_store() as store:
        assert isinstance(store, PostgresStore) and store.head("m1") == 1


def test_an_unreachable_server_is_a_clear_error_that_hides_the_password():
    with pytest.raises(StoreError) as err:
        PostgresStore("postgresql://adj:s3cret@127.0.0.1:9/tournament", connect_timeout=3)
    msg = str(err.value)
    assert msg.startswith("cannot connect to the PostgreSQL store postgresql://adj@127.0.0.1:9/tournament: ")
    assert "s3cret" not in msg


def test_a_value_the_server_cannot_hold_is_a_store_error_and_the_store_goes_on(pg_schema):
    store = PostgresStore(pg_schema)
    started(store)
    with pytest.raises(StoreError, match=r"append to match 'm1' failed: PostgreSQL text fields cannot contain NUL"):
        store.append("m1", [draft(by="al\x00ice")], 1)
    assert [e.seq for e in store.append("m1", [draft()], 1)] == [2]


# -- two writers, one head -------------------------------------------------------------------


class Pausing(PostgresStore):
    """Stops between reading the head and inserting, until told to go on."""

    def __init__(self, url: str):
        super().__init__(url)
        self.reached = threading.Event()
        self.go_on = threading.Event()

    def _insert(self, cur, rows):
        self.reached.set()
        assert self.go_on.wait(30)
        super()._insert(cur, rows)


def _in_thread(fn, *args, **kwargs):
    box = {}

    def run():
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, box


def test_two_writers_that_read_the_same_head_one_wins_by_the_unique_index(pg_schema):
    slow, fast = Pausing(pg_schema), PostgresStore(pg_schema)
    started(fast)
    t, box = _in_thread(slow.append, "m1", [draft(1, "slow")], 1)
    assert slow.reached.wait(10)  # slow has read head 1 and is about to insert seq 2
    (won,) = fast.append("m1", [draft(2, "fast")], 1)
    slow.go_on.set()
    t.join(10)
    err = box["error"]
    assert isinstance(err, ConflictError) and (err.expected_seq, err.actual_seq) == (1, 2)
    assert "another entry was recorded first, nothing was written" in str(err)
    events = fast.read("m1")
    assert events[1] == won and len(events) == 2
    verify_chain(events, "m1")


def test_a_retry_racing_its_own_first_attempt_gets_that_attempt_back(pg_schema):
    first, retry = Pausing(pg_schema), PostgresStore(pg_schema)
    started(retry)
    t, box = _in_thread(first.append, "m1", [draft(1)], 1, idempotency_key="entry-1")
    assert first.reached.wait(10)
    (stored,) = retry.append("m1", [draft(1)], 1, idempotency_key="entry-1")
    first.go_on.set()
    t.join(10)
    assert box["value"] == (stored,)
    assert retry.head("m1") == 2


# -- a writer killed in the middle of an append ----------------------------------------------


def stalled_writer(out, url: str, match_id: str, expected: int) -> None:
    """Writes the next two events of the match exactly as the store would, in one transaction,
    as two statements (as an append of more than one INSERT's worth of rows does), then stops
    for good before COMMIT."""
    import psycopg

    from events.rows import EVENT_COLUMNS, event_row

    store = PostgresStore(url)
    prev = store.read(match_id, expected, expected)[0].hash
    first = seal(match_id, expected + 1, prev, draft(98, "doomed"))
    second = seal(match_id, expected + 2, first.hash, draft(99, "doomed"))
    cols = ", ".join(f'"{c}"' for c in EVENT_COLUMNS)
    with psycopg.connect(url) as conn:  # not autocommit: the first statement opens a transaction
        for ev in (first, second):
            conn.execute(f"INSERT INTO events ({cols}) VALUES ({', '.join(['%s'] * 8)})", event_row(ev))
        out.put(("inserted", os.getpid(), conn.info.backend_pid))
        time.sleep(600)


def test_a_writer_killed_before_commit_leaves_no_partial_event(pg_schema):
    store = PostgresStore(pg_schema)
    started(store)
    store.append("m1", [draft(1)], 1)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    proc = ctx.Process(target=stalled_writer, args=(out, pg_schema, "m1", 2), daemon=True)
    proc.start()
    try:
        kind, pid, backend = out.get(timeout=60)
        assert kind == "inserted"
        assert store.head("m1") == 2  # its rows are not visible: not committed
        # A second writer at the same seq waits on the doomed row's index entry ...
        other = PostgresStore(pg_schema)
        t, box = _in_thread(other.append, "m1", [draft(2, "bob")], 2)
        time.sleep(0.5)
        assert t.is_alive(), "the second writer should wait for the first's fate"
        os.kill(pid, signal.SIGKILL)
        proc.join(10)
        assert proc.exitcode == -signal.SIGKILL
        # ... and goes through once the server has noticed the dead client and rolled it back.
        t.join(30)
        assert "error" not in box, box.get("error")
        assert [e.seq for e in box["value"]] == [3]
    finally:
        if proc.is_alive():
            proc.kill()
    events = store.read("m1")
    assert [e.by for e in events] == ["judge", "alice", "bob"]
    assert all(e.by != "doomed" for e in store.read("m1"))
    (nxt,) = store.append("m1", [draft(3)], 3)
    assert nxt.seq == 4 and nxt.prev == events[-1].hash
    assert verify_chain(store.read("m1"), "m1") == 4
    gone = pg_execute(base_url(pg_schema), "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (backend,))
    assert gone == [(0,)]


# -- lost connections ------------------------------------------------------------------------


def terminate(store: PostgresStore) -> None:
    pid = store.backend_pid()
    assert pg_execute(base_url(store.url), "SELECT pg_terminate_backend(%s, 10000)", (pid,)) == [(True,)]


LOST = r"lost the connection to the PostgreSQL store postgresql://\S+ during append to match 'm1' \(terminating connection due to administrator command\)"


def test_a_terminated_connection_is_a_clear_error_and_the_next_call_reconnects(pg_schema):
    store = PostgresStore(pg_schema)
    started(store)
    (first,) = store.append("m1", [draft(1)], 1, idempotency_key="entry-1")
    terminate(store)
    with pytest.raises(StoreError, match=LOST + "; nothing was written$"):
        store.append("m1", [draft(1)], 1, idempotency_key="entry-1")
    # the retry reconnects and finds the first attempt: nothing is written twice
    assert store.append("m1", [draft(1)], 1, idempotency_key="entry-1") == (first,)
    assert store.head("m1") == 2
    terminate(store)
    with pytest.raises(StoreError, match=r"lost the connection .* during read of match 'm1'"):
        store.read("m1")
    assert verify_chain(store.read("m1"), "m1") == 2


class CuttingProxy:
    """A TCP relay to the server that, once armed, passes the next INSERT of events to the server,
    waits for the server's answer, and cuts the client off instead of passing it on: the insert
    is committed (the store's connection is in autocommit), and the client cannot know it."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.armed = threading.Event()
        self.cut = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            state = {"holding": False, "answered": threading.Event()}
            threading.Thread(target=self._up, args=(client, server, state), daemon=True).start()
            threading.Thread(target=self._down, args=(server, client, state), daemon=True).start()

    def _up(self, client, server, state) -> None:
        try:
            while data := client.recv(65536):
                if self.armed.is_set() and b"INSERT INTO events" in data:
                    self.armed.clear()
                    state["holding"] = True
                    server.sendall(data)
                    self.cut.set()  # set before the client can notice the cut
                    if not state["answered"].wait(10):
                        self.cut.clear()
                    for s in (client, server):
                        s.shutdown(socket.SHUT_RDWR)
                        s.close()
                    return
                server.sendall(data)
        except OSError:
            pass

    def _down(self, server, client, state) -> None:
        try:
            while data := server.recv(65536):
                if state["holding"]:
                    state["answered"].set()
                    continue
                client.sendall(data)
        except OSError:
            pass


@pytest.fixture
def proxied(pg_schema):
    from psycopg.conninfo import conninfo_to_dict

    info = conninfo_to_dict(pg_schema)
    proxy = CuttingProxy(info.get("host") or "127.0.0.1", int(info.get("port") or 5432))
    url = pg_schema.replace(f"{info.get('host')}:{info.get('port') or 5432}", f"127.0.0.1:{proxy.port}", 1)
    assert url != pg_schema
    yield proxy, url
    proxy.close()


UNKNOWN = (
    r"lost the connection .* during append to match 'm1' \(.*\); it is not known whether the append was "
    r"recorded: retry it with the same idempotency key, which cannot record it twice"
)


def test_an_answer_lost_after_the_commit_is_recovered_by_the_idempotency_key(proxied, pg_schema):
    proxy, url = proxied
    store = PostgresStore(url)
    started(store)
    proxy.armed.set()
    with pytest.raises(StoreError, match=UNKNOWN):
        store.append("m1", [draft(1)], 1, idempotency_key="entry-1")
    assert proxy.cut.is_set()
    direct = PostgresStore(pg_schema)
    assert direct.head("m1") == 2  # it was committed after all
    (again,) = store.append("m1", [draft(1)], 1, idempotency_key="entry-1")
    assert again == direct.read("m1")[1]
    assert direct.head("m1") == 2
    verify_chain(direct.read("m1"), "m1")


# -- the same faults through the match service -------------------------------------------------


def _nim(service: MatchService) -> None:
    verdict = service.new("nim", ["alice", "bob"], options={"pile": 7}, match_id="m1")
    assert verdict.accepted


def test_submit_retried_after_a_lost_connection_is_recorded_once(pg_schema):
    store = PostgresStore(pg_schema)
    service = MatchService(store)
    _nim(service)
    take = {"player": "alice", "count": 2}
    first = service.submit("m1", "take", "alice", take, idempotency_key="t1-alice")
    assert first.accepted and first.event.seq == 2
    terminate(store)
    with pytest.raises(StoreError, match="lost the connection"):
        service.submit("m1", "take", "alice", take, idempotency_key="t1-alice")
    again = service.submit("m1", "take", "alice", take, idempotency_key="t1-alice")
    assert again.accepted and again.event == first.event
    assert again.match.state.pile == 5 and again.match.head == 2
    assert store.rejections("m1") == []
    nxt = service.submit("m1", "take", "bob", {"player": "bob", "count": 1}, idempotency_key="t1-bob")
    assert nxt.accepted and nxt.event.seq == 3
    assert service.verify("m1").state.pile == 4


def test_submit_whose_commit_answer_was_lost_is_recorded_once(proxied, pg_schema):
    proxy, url = proxied
    store = PostgresStore(url)
    service = MatchService(store)
    _nim(service)
    take = {"player": "alice", "count": 3}
    proxy.armed.set()
    with pytest.raises(StoreError, match=UNKNOWN):
        service.submit("m1", "take", "alice", take, idempotency_key="t1-alice")
    again = service.submit("m1", "take", "alice", take, idempotency_key="t1-alice")
    assert again.accepted and again.event.seq == 2
    match = MatchService(PostgresStore(pg_schema)).verify("m1")
    assert match.head == 2 and match.state.pile == 4
    assert store.rejections("m1") == []
