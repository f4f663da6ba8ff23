"""Live streams of adj serve over real HTTP (uvicorn in a thread of the test, on 127.0.0.1): each
accepted event, rejection summary and the new "waiting for" reach a stream within a moment, as
its viewer may see them; a stream resumed from its last seq loses and repeats nothing; the floor
stream carries every match."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.test_server_support import J, accepted_seqs, bearer, live_server, read_events

DECKS = {"alice": "A A B C D E F", "bob": "A B B C C D F"}


@pytest.fixture
def served(tmp_path):
    with live_server(str(tmp_path / "store.sqlite3")) as url:
        with httpx.Client(base_url=url, timeout=10) as client:
            yield url, client


def new(client, game="nim", id_="m", players=("alice", "bob"), **body):
    r = client.post("/matches", json={"game": game, "players": list(players), "id": id_, **body}, headers=J)
    assert r.status_code == 201, r.text
    return {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}


def test_a_seat_sees_each_entry_rejection_and_wait_within_a_moment_as_it_may(served):
    url, client = served
    seats = new(client, "bacdef", "t1", decks=DECKS)
    ready = threading.Event()
    got: dict[str, list] = {}
    when: dict[int, float] = {}

    def watch():
        def until(evs):
            for e in evs:
                if e["event"] == "accepted":
                    when.setdefault(e["data"]["seq"], time.monotonic())
            return (sum(e["event"] == "rejected" for e in evs) >= 1 and 3 in accepted_seqs(evs)
                    and any(e["event"] == "table" and e["data"]["head_seq"] == 3 for e in evs[-1:]))
        got["bob"] = read_events(f"{url}/matches/t1/stream", seats["bob"], until, started=ready)

    t = threading.Thread(target=watch)
    t.start()
    assert ready.wait(10)
    time.sleep(0.3)
    sent = time.monotonic()
    r = client.post("/matches/t1/events", json={"type": "place_guards", "player": "alice", "card_ids": ["alice-1", "alice-2"]},
                    headers=seats["alice"])
    assert r.status_code == 201
    refused = client.post("/matches/t1/events", json={"type": "place_guards", "player": "alice",
                                                      "card_ids": ["alice-3", "alice-4"]}, headers=seats["alice"])
    assert refused.status_code == 422
    assert client.post("/matches/t1/events", json={"type": "place_guards", "player": "bob", "card_ids": ["bob-1", "bob-2"]},
                       headers=seats["bob"]).status_code == 201
    t.join(20)
    events = got["bob"]
    assert accepted_seqs(events) == [1, 2, 3]
    assert when[2] - sent < 2.0, "an entry reached the stream only after 2 s"
    by_seq = {e["data"]["seq"]: e for e in events if e["event"] == "accepted"}
    assert by_seq[2]["id"] == "2" and by_seq[2]["data"]["event"]["fields"]["card_ids"] == "(hidden)"
    assert by_seq[2]["data"]["event"]["hash"] is None
    assert by_seq[3]["data"]["event"]["fields"]["card_ids"] == ["bob-1", "bob-2"]  # his own
    rejected = [e["data"] for e in events if e["event"] == "rejected"]
    assert rejected[0]["rule"] and rejected[0]["fields"]["card_ids"] == "(hidden)" and rejected[0]["message"] == "(hidden)"
    tables = [e["data"] for e in events if e["event"] == "table"]
    assert tables[-1]["head_seq"] == 3 and tables[-1]["to_move"] == [] and tables[-1]["phase"]


def test_a_stream_resumed_from_its_last_seq_loses_and_repeats_nothing(served):
    url, client = served
    seats = new(client)
    for i in range(3):
        who = ("alice", "bob")[i % 2]
        assert client.post("/matches/m/events", json={"type": "take", "player": who, "count": 1},
                           headers=seats[who]).status_code == 201
    first = read_events(f"{url}/matches/m/stream", J, lambda evs: 3 in accepted_seqs(evs))
    assert accepted_seqs(first) == [1, 2, 3]
    # the connection dropped: two more entries land meanwhile
    for who in ("bob", "alice"):
        assert client.post("/matches/m/events", json={"type": "take", "player": who, "count": 1},
                           headers=seats[who]).status_code == 201
    done = threading.Event()
    second: list = []

    def resume():
        second.extend(read_events(f"{url}/matches/m/stream", {**J, "Last-Event-ID": "3"},
                                  lambda evs: 7 in accepted_seqs(evs), started=done))

    t = threading.Thread(target=resume)
    t.start()
    assert done.wait(10)
    for who in ("bob", "alice"):  # and two while it is connected
        client.post("/matches/m/events", json={"type": "take", "player": who, "count": 1}, headers=seats[who])
    t.join(20)
    assert accepted_seqs(first) + accepted_seqs(second) == [1, 2, 3, 4, 5, 6, 7]
    assert read_events(f"{url}/matches/m/stream?after=6", J, lambda evs: any(e["event"] == "table" for e in evs))[0]["id"] == "7"
    r = httpx.get(f"{url}/matches/m/stream", headers={"Last-Event-ID": "x"})
    assert r.status_code == 400 and r.json()["error"] == "malformed"


def test_the_floor_stream_carries_every_match_and_resumes(served):
    url, client = served
    a = new(client, id_="m1")
    ready = threading.Event()
    got: list = []

    def watch():
        got.extend(read_events(f"{url}/floor/stream", J, lambda evs: sum(e["event"] == "entry" for e in evs) >= 3,
                               started=ready))

    t = threading.Thread(target=watch)
    t.start()
    assert ready.wait(10)
    time.sleep(0.3)
    b = new(client, id_="m2", players=("carol", "dan"))
    client.post("/matches/m1/events", json={"type": "take", "player": "alice", "count": 1}, headers=a["alice"])
    client.post("/matches/m2/events", json={"type": "take", "player": "carol", "count": 2}, headers=b["carol"])
    t.join(20)
    assert got[0]["event"] == "floor" and [m["match_id"] for m in got[0]["data"]["matches"]] == ["m1"]
    entries = [e for e in got if e["event"] == "entry"]
    assert sorted((e["data"]["match_id"], e["data"]["seq"]) for e in entries) == [("m1", 2), ("m2", 1), ("m2", 2)]
    assert all("fields" not in e["data"] for e in entries)
    last = [e for e in entries if e["data"]["match_id"] == "m2"][-1]["data"]
    assert last["to_move"] == ["dan"] and last["head_seq"] == 2
    # resumed from the first entry: the two after it, and nothing before
    again = read_events(f"{url}/floor/stream", {**J, "Last-Event-ID": entries[0]["id"]},
                        lambda evs: len(evs) >= 2, seconds=5)
    assert [e["id"] for e in again] == [e["id"] for e in entries[1:]]
    spectator = read_events(f"{url}/floor/stream", {"Last-Event-ID": entries[0]["id"]}, lambda evs: len(evs) >= 2,
                            seconds=5)
    assert [e["data"]["to_move"] for e in spectator] == [[], []]


def test_many_tables_entering_at_once_lose_and_repeat_nothing(served):
    url, client = served
    tables = {f"t{i}": new(client, id_=f"t{i}", options={"pile": 40}) for i in range(6)}
    answers: dict[str, list[int]] = {m: [] for m in tables}

    def play(match_id, seats):
        with httpx.Client(base_url=url, timeout=20) as c:
            for i in range(8):
                who = ("alice", "bob")[i % 2]
                r = c.post(f"/matches/{match_id}/events", json={"type": "take", "player": who, "count": 1,
                                                                 "key": f"{match_id}/{i}"}, headers=seats[who])
                assert r.status_code == 201, r.text
                answers[match_id].append(r.json()["seq"])

    threads = [threading.Thread(target=play, args=item) for item in tables.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for match_id in tables:
        assert answers[match_id] == list(range(2, 10))
        log = client.get(f"/matches/{match_id}/log", headers=J).json()
        assert [h["seq"] for h in log["history"]] == list(range(1, 10))
