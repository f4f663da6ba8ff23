"""adj serve as real processes: killed with SIGKILL under load it loses no acknowledged entry and
a retry under the same key records an entry once; two servers on one PostgreSQL store serve the
same matches, decide a race for one seq with one acceptance and one conflict, see each other's
entries in their streams, and never serve a stale state as current."""

from __future__ import annotations

import signal
import threading
import time

import httpx
import pytest

from adjudicator.service import MatchService, open_store
from tests.test_server_support import Serve, accepted_seqs, bearer, read_events
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)


def new(srv: Serve, match_id: str, pile: int = 100_000) -> dict[str, dict[str, str]]:
    r = srv.client.post("/matches", json={"game": "nim", "players": ["alice", "bob"], "id": match_id,
                                          "options": {"pile": pile}}, headers=srv.judge)
    assert r.status_code == 201, r.text
    return {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}


def test_sigkill_under_load_loses_no_acknowledged_entry(tmp_path):
    store = str(tmp_path / "store.sqlite3")
    srv = Serve(store, tmp_path, "first")
    tables = {f"t{i}": new(srv, f"t{i}") for i in range(4)}
    acked: dict[str, dict[int, tuple[int, str]]] = {m: {} for m in tables}  # entry number -> (seq, hash)
    unknown: dict[str, int] = {}  # the entry whose answer was lost
    stop = time.monotonic() + 20

    def play(match_id: str, seats: dict) -> None:
        with httpx.Client(base_url=srv.url, timeout=5) as c:
            for i in range(2000):
                if time.monotonic() > stop:
                    return
                who = ("alice", "bob")[i % 2]
                try:
                    r = c.post(f"/matches/{match_id}/events", headers=seats[who],
                               json={"type": "take", "player": who, "count": 1, "key": f"{match_id}/{i}"})
                except httpx.TransportError:
                    unknown[match_id] = i
                    return
                assert r.status_code == 201, r.text
                acked[match_id][i] = (r.json()["seq"], r.json()["event"]["hash"])

    threads = [threading.Thread(target=play, args=item) for item in tables.items()]
    for t in threads:
        t.start()
    while sum(map(len, acked.values())) < 150 and time.monotonic() < stop:
        time.sleep(0.05)
    assert srv.kill(signal.SIGKILL) == -signal.SIGKILL
    for t in threads:
        t.join(30)
    assert sum(map(len, acked.values())) >= 150
    with open_store(store, write=False) as s:
        for match_id, done in acked.items():
            stored = {e.seq: e.hash for e in s.read(match_id)}
            assert all(stored.get(seq) == h for seq, h in done.values()), match_id
    # started again: each entry whose answer was lost is retried under its key, and lands once
    again = Serve(store, tmp_path, "second", token_file=srv.token_file)
    try:
        for match_id, i in unknown.items():
            who = ("alice", "bob")[i % 2]
            body = {"type": "take", "player": who, "count": 1, "key": f"{match_id}/{i}"}
            first = again.client.post(f"/matches/{match_id}/events", json=body, headers=tables[match_id][who])
            second = again.client.post(f"/matches/{match_id}/events", json=body, headers=tables[match_id][who])
            assert (first.status_code, second.status_code) == (201, 201), first.text
            assert first.json()["seq"] == second.json()["seq"] and second.headers["idempotent-replayed"] == "true"
    finally:
        again.close()
    with open_store(store, write=False) as s:
        service = MatchService(s)
        for match_id in tables:
            match = service.verify(match_id)
            assert match.head == 1 + len(acked[match_id]) + (match_id in unknown)
            for i in [*acked[match_id], *([unknown[match_id]] if match_id in unknown else [])]:
                assert len(s.events_for_key(match_id, f"{match_id}/{i}")) == 1


@pytest.mark.postgres
def test_two_servers_on_one_postgresql_store(pg_schema, tmp_path):  # noqa: F811
    a = Serve(pg_schema, tmp_path, "a")
    b = Serve(pg_schema, tmp_path, "b", token_file=a.token_file)
    try:
        seats = new(a, "m", pile=1000)
        # a seat's token, issued by one server, works on the other
        assert b.client.get("/matches/m/state", headers=seats["alice"]).json()["as"] == "alice"

        # an entry accepted by one appears in the other's stream within a moment
        ready = threading.Event()
        seen: list = []
        watcher = threading.Thread(target=lambda: seen.extend(read_events(
            f"{b.url}/matches/m/stream", seats["bob"], lambda evs: 2 in accepted_seqs(evs), seconds=20, started=ready)))
        watcher.start()
        assert ready.wait(10)
        time.sleep(0.3)
        sent = time.monotonic()
        assert a.client.post("/matches/m/events", json={"type": "take", "player": "alice", "count": 1},
                             headers=seats["alice"]).status_code == 201
        watcher.join(20)
        assert accepted_seqs(seen) == [1, 2] and time.monotonic() - sent < 5

        # B's fold was made at seq 2: after A's entry it serves seq 3, not its stale fold
        assert b.client.get("/matches/m/state", headers=seats["bob"]).json()["head_seq"] == 2
        assert a.client.post("/matches/m/events", json={"type": "take", "player": "bob", "count": 1},
                             headers=seats["bob"]).status_code == 201
        state = b.client.get("/matches/m/state", headers=seats["bob"]).json()
        assert (state["head_seq"], state["state"]["pile"]) == (3, 998)

        # two entries racing for the same seq, one on each server: one acceptance, one conflict
        for round_ in range(6):
            head = a.client.get("/matches/m/state", headers=a.judge).json()["head_seq"]
            who = ("alice", "bob")[(head - 1) % 2]
            gate = threading.Barrier(2)
            answers: list = [None, None]

            def enter(k: int, srv: Serve) -> None:
                gate.wait(5)
                answers[k] = srv.client.post("/matches/m/events", headers=seats[who],
                                             json={"type": "take", "player": who, "count": 1 + k, "expect_seq": head})

            racers = [threading.Thread(target=enter, args=(k, srv)) for k, srv in enumerate((a, b))]
            for t in racers:
                t.start()
            for t in racers:
                t.join(20)
            codes = sorted(r.status_code for r in answers)
            assert codes == [201, 409], [r.text for r in answers]
            lost = next(r for r in answers if r.status_code == 409).json()
            assert lost["error"] == "conflict" and "another entry landed first" in lost["message"]
            assert lost["head_seq"] == head + 1
        log = a.client.get("/matches/m/log", headers=a.judge).json()
        assert [h["seq"] for h in log["history"] if h["kind"] == "event"] == list(range(1, 10))
        assert [h for h in log["history"] if h["kind"] == "rejected"] == []
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_server_cleanly_with_a_stream_open(tmp_path, sig):
    srv = Serve(str(tmp_path / "store.sqlite3"), tmp_path)
    seats = new(srv, "m")
    assert srv.log().splitlines()[1:4] == [f"floor page: {srv.url}/floor", f"API: {srv.url}/openapi.json (docs/serve.md)",
                                          f"judge token: in {srv.token_file}"]
    ready = threading.Event()
    seen: list = []
    watcher = threading.Thread(target=lambda: seen.extend(read_events(f"{srv.url}/matches/m/stream", seats["alice"],
                                                                      lambda evs: False, seconds=20, started=ready)))
    watcher.start()
    assert ready.wait(10)
    time.sleep(0.3)
    began = time.monotonic()
    assert srv.kill(sig) == 0
    watcher.join(10)
    assert not watcher.is_alive() and time.monotonic() - began < 8
    assert accepted_seqs(seen) == [1] and "Traceback" not in srv.log()
    srv.close()
