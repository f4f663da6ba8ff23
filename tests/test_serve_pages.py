"""adj serve's pages without a browser: each page is a shell with no data and no inline script or
style, under a Content-Security-Policy of the server itself; its files are served with the versions
the pages name; and the data routes give each caller what it may see (a seat its own board and
actions, a spectator no actions, the judges the desk and the floor), with a refused attempt told to
the floor's stream."""

from __future__ import annotations

import threading
import time
from html.parser import HTMLParser

import httpx
import msgspec
import pytest

from adjudicator.presentation import table as pages
from adjudicator.presentation.page import page_data
from adjudicator.service import MatchService, open_store
from tests.test_server_support import J, bearer, live_server, read_events


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    store = str(tmp_path_factory.mktemp("pages") / "store.sqlite3")
    with live_server(store) as url, httpx.Client(base_url=url, timeout=20) as client:
        new(client, "p1")
        yield url, client, store


def new(client: httpx.Client, match_id: str, players=("alice", "bob"), **options) -> dict[str, dict]:
    r = client.post("/matches", json={"game": "nim", "players": list(players), "id": match_id, "options": options},
                    headers=J)
    assert r.status_code == 201, r.text
    return {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}


class Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict] = []
        self.links: list[dict] = []
        self.inline: list[str] = []  # what would run or style from the page itself

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script":
            self.scripts.append(a)
        if tag == "link":
            self.links.append(a)
        if tag == "style" or "style" in a or any(k.startswith("on") for k in a):
            self.inline.append(f"<{tag} {a}>")

    def handle_data(self, data):
        if self.lasttag == "script" and data.strip():
            self.inline.append(data[:40])


def markup(html: str) -> Markup:
    m = Markup()
    m.feed(html)
    return m


@pytest.mark.parametrize("path", ["/tables/p1", "/tables/p1/judge", "/floor"])
def test_a_page_is_a_shell_under_a_policy_of_the_server_itself(served, path):
    url, client, _ = served
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
    csp = r.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["cache-control"] == "no-store"
    m = markup(r.text)
    assert m.inline == []
    assert m.scripts and all(s["src"].startswith("/static/") and "?v=" in s["src"] for s in m.scripts)
    for ref in [s["src"] for s in m.scripts] + [link["href"] for link in m.links]:
        name, _, version = ref.removeprefix("/static/").partition("?v=")
        asset = client.get(ref)
        assert asset.status_code == 200 and asset.content == pages.asset(name)[0] and version == pages.asset(name)[2]
        assert asset.headers["content-type"].split(";")[0] == pages.ASSETS[name]


def test_files_and_addresses_that_are_not_there(served):
    url, client, _ = served
    r = client.get("/static/../server/auth.py")
    assert r.status_code == 404
    assert client.get("/static/secret.js").status_code == 404
    missing = client.get("/tables/no-such-table")
    assert missing.status_code == 404 and "No table no-such-table" in missing.text
    assert "<script" not in missing.text
    evil = client.get("/tables/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert "<script>alert" not in evil.text


def test_the_table_now_is_what_its_caller_may_see(served):
    url, client, store = served
    seats = new(client, "p2", pile=7)
    assert client.post("/matches/p2/events", json={"type": "take", "player": "alice", "count": 2},
                       headers=seats["alice"]).status_code == 201
    alice = client.get("/tables/p2/now", headers=seats["alice"]).json()
    bob = client.get("/tables/p2/now", headers=seats["bob"]).json()
    watcher = client.get("/tables/p2/now").json()
    judge = client.get("/tables/p2/now", headers=J).json()
    assert (alice["viewer"], bob["viewer"], watcher["viewer"], judge["viewer"]) == ("alice", "bob", "", "judge")
    assert alice["legal"] == [] and alice["to_move"] == []
    assert [a["who"] for a in bob["legal"]] == ["bob"] and bob["to_move"] == ["bob"]
    assert bob["legal"][0]["fields"]["count"] == {"kind": "int", "values": [], "min": 1, "max": 3, "optional": False}
    assert watcher["legal"] == [] and watcher["calls"] == [] and watcher["to_move"] == []
    assert [a["type"] for a in judge["calls"]] == ["note", "penalty"]
    assert judge["calls"][1]["fields"]["penalty"]["values"] == ["caution", "warning", "game_loss", "match_loss",
                                                                "disqualification"]
    assert [r["seq"] for r in alice["recent"]] == [1, 2] and alice["recent"][1]["text"].startswith("alice take")
    with open_store(store, write=False) as s:
        match = MatchService(s).load("p2")
    for who, got in (("alice", alice), ("bob", bob), ("", watcher)):
        want = msgspec.json.decode(msgspec.json.encode(pages.board_json(match.game.board(match.state, who))))
        assert got["board"] == want and got["seq"] == 2
    # a refused attempt is in the history of its author, and of the others without what it named
    assert client.post("/matches/p2/events", json={"type": "take", "player": "bob", "count": 4},
                       headers=seats["bob"]).status_code == 422
    mine = client.get("/tables/p2/now", headers=seats["bob"]).json()["recent"][-1]
    theirs = client.get("/tables/p2/now", headers=seats["alice"]).json()["recent"][-1]
    assert mine["kind"] == theirs["kind"] == "rejected" and mine["rule"] == theirs["rule"] == "NIM-TAKE-1"
    assert "not 4" in mine["message"] and theirs["message"] == "(hidden)" and "4" not in theirs["text"]


def test_who_may_read_the_desk_and_the_floor(served):
    url, client, store = served
    seats = new(client, "p3")
    assert client.get("/tables/p3/desk").status_code == 401
    assert client.get("/tables/p3/desk", headers=seats["alice"]).status_code == 403
    assert client.get("/floor/tables").status_code == 401
    assert client.get("/floor/tables", headers=seats["alice"]).status_code == 403
    assert client.get("/tables/p3/now", headers=bearer("not-a-token")).status_code == 401
    assert client.get("/tables/nope/now").status_code == 404
    assert client.get("/floor/tables?match=nope", headers=J).status_code == 404
    desk = client.get("/tables/p3/desk", headers=J).json()
    with open_store(store, write=False) as s:
        service = MatchService(s)
        want = page_data(service.load("p3"), s.rejections("p3"), None)
    assert desk == msgspec.json.decode(msgspec.json.encode(want))


def test_the_floor_card_of_a_table_and_its_dispute(served):
    url, client, _ = served
    seats = new(client, "p4", pile=3)
    got: list = []
    ready = threading.Event()

    def watch() -> None:
        got.extend(read_events(f"{url}/floor/stream", J, lambda evs: any(e["event"] == "rejected" for e in evs),
                               seconds=15, started=ready))

    t = threading.Thread(target=watch)
    t.start()
    assert ready.wait(10)
    time.sleep(0.2)
    assert client.post("/matches/p4/events", json={"type": "take", "player": "alice", "count": 3, "by": "alice"},
                       headers=seats["bob"]).status_code == 403  # not recorded: not a dispute
    assert client.post("/matches/p4/events", json={"type": "take", "player": "bob", "count": 1},
                       headers=seats["bob"]).status_code == 422
    t.join(20)
    refused = [e for e in got if e["event"] == "rejected"]
    assert [e["data"] for e in refused] == [{"match_id": "p4", "head_seq": 1, "type": "take", "by": "bob",
                                             "rule": "NIM-TURN-1"}]
    assert refused[0]["id"].count(".") == 1  # a floor position: resumable like the entries
    card = client.get("/floor/tables?match=p4", headers=J).json()["tables"][0]
    assert card["refused"]["rule"] == "NIM-TURN-1" and card["refused"]["by"] == "bob" and card["to_move"] == ["alice"]
    assert card["players"] == ["alice", "bob"] and card["finished"] is False and card["head_seq"] == 1
    assert client.post("/matches/p4/events", json={"type": "take", "player": "alice", "count": 3},
                       headers=seats["alice"]).status_code == 201
    card = client.get("/floor/tables?match=p4", headers=J).json()["tables"][0]
    assert card["refused"] is None and card["finished"] is True and card["outcome_text"].startswith("won by alice")
    every = client.get("/floor/tables", headers=J).json()
    assert "p4" in [c["match_id"] for c in every["tables"]] and every["now"].endswith("Z")
