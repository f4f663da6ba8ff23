"""No endpoint or stream hands a seat what the game hides from it, for every registered game.

Each game's conformance opening is entered through the API with each line's own credential (a
seat's token, or the judge's), then seeded random play from the judge's ``legal`` choices, while
both seats and a spectator watch the match's stream. Then, for every stored event with a private
field (``Game.private_fields``) that the game hides from a viewer, every copy of that event handed
to that viewer (entry answers, stream messages, log, export) has the field hidden; and the state,
legal actions and log each viewer is given are exactly what ``--as`` computes for them."""

from __future__ import annotations

import random
import threading

import httpx
import msgspec
import pytest

from adjudicator.engine import registry
from adjudicator.engine.kit import HIDDEN
from adjudicator.presentation.render import history, plain, redacted
from adjudicator.service import MatchService, open_store
from tests.gamekit import real_games, start_lines
from tests.test_server_support import J, accepted_seqs, bearer, live_server, read_events

STEPS = 25
SPECTATOR = "spectator"


def pick(rng: random.Random, choices: dict) -> dict:
    out = {}
    for name, c in choices.items():
        if c["optional"] and rng.random() < 0.3:
            continue
        values = c["values"]
        if c["kind"] == "one":
            out[name] = rng.choice(values)
        elif c["kind"] == "some":
            high = len(values) if c["max"] is None else min(c["max"], len(values))
            out[name] = rng.sample(values, rng.randint(min(c["min"], high), high))
        elif c["kind"] == "int":
            out[name] = rng.randint(c["min"], c["max"] if c["max"] is not None else c["min"] + 3)
        else:
            out[name] = "judged at the table"
    return out


@pytest.mark.parametrize("name", real_games())
def test_no_seat_is_handed_an_opponents_hidden_field(name, tmp_path):
    store_url = str(tmp_path / "store.sqlite3")
    game = registry.get(name)
    lines = start_lines(name)
    first = lines[0]
    players = list(first["players"])
    setup = {k: v for k, v in first.items() if k not in ("type", "by", "game", "players", "options")}
    handed: dict[str, list[dict]] = {p: [] for p in [*players, SPECTATOR]}  # every event object given to each viewer
    with live_server(store_url) as url, httpx.Client(base_url=url, timeout=20) as client:
        r = client.post("/matches", json={"game": name, "players": players, "id": "v", "options": first.get("options", {}),
                                          "setup": setup}, headers=J)
        assert r.status_code == 201, r.text
        creds = {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}
        creds["judge"] = J
        creds[SPECTATOR] = {}
        target: dict[str, int] = {}
        streams: dict[str, list] = {}
        ready = {v: threading.Event() for v in handed}

        def watch(viewer: str) -> None:
            streams[viewer] = read_events(f"{url}/matches/v/stream", creds[viewer],
                                          lambda evs: "head" in target and target["head"] in accepted_seqs(evs),
                                          seconds=120, started=ready[viewer])

        watchers = [threading.Thread(target=watch, args=(v,)) for v in handed]
        for t in watchers:
            t.start()
        assert all(e.wait(20) for e in ready.values())

        def enter(who: str, body: dict) -> httpx.Response:
            r = client.post("/matches/v/events", json=body, headers=creds.get(who, J))
            assert r.status_code in (201, 422), r.text
            if r.status_code == 201 and who in handed:
                handed[who].append(r.json()["event"])
            return r

        for line in lines[1:]:
            who = line["by"]
            body = {k: v for k, v in line.items() if k != "by"}
            if who not in creds:
                body["by"] = who
            assert enter(who, body).status_code == 201
        rng = random.Random(f"{name}-serve")
        accepted = 0
        for _ in range(STEPS):
            offered = client.get("/matches/v/legal", headers=J).json()["actions"]
            if not offered:
                break
            table = [a for a in offered if not a["anytime"]] or offered
            action = rng.choice(table if rng.random() < 0.9 else offered)
            if action["type"] in ("rewind", "correct"):
                continue
            body = {"type": action["type"], **pick(rng, action["fields"])}
            who = action["who"]
            accepted += enter(who, body).status_code == 201
        assert accepted >= 3, f"{name}: random play got nowhere"
        done = client.post("/matches/v/events", json={"type": "note", "at_seq": 1, "text": "end of the test"}, headers=J)
        assert done.status_code == 201
        target["head"] = done.json()["seq"]
        for t in watchers:
            t.join(120)
        views = {}
        for viewer in handed:
            h = creds[viewer]
            views[viewer] = {route: client.get(f"/matches/v/{route}", headers=h).json()
                             for route in ("state", "legal", "log", "export", "board")}
    streamed: dict[str, list[dict]] = {}  # shown before what came later revealed anything: hidden without a state
    for viewer, evs in streams.items():
        assert accepted_seqs(evs) == list(range(1, target["head"] + 1)), viewer
        streamed[viewer] = [e["data"]["event"] for e in evs if e["event"] == "accepted"]
        handed[viewer].extend(e["data"] for e in evs if e["event"] == "rejected")
        handed[viewer].extend(row for row in views[viewer]["log"]["history"])
        handed[viewer].extend(views[viewer]["export"]["history"])

    with open_store(store_url, write=False) as store:
        service = MatchService(store)
        match = service.load("v")
        rejections = store.rejections("v")
        signatures = store.audit_signatures("v")
    stored = {ev.seq: ev for ev in match.events}
    hidden_somewhere = 0
    for viewer, objects in handed.items():
        vname = "" if viewer == SPECTATOR else viewer
        # what --as gives this viewer, exactly
        expect_state = plain(game.view(match.state, vname))
        assert views[viewer]["state"]["state"] == msgspec.json.decode(msgspec.json.encode(expect_state)), viewer
        rows = redacted(history(match.events, match.fold.branches, rejections, signatures), game, match.players, vname,
                        match.state)
        assert views[viewer]["log"]["history"] == msgspec.json.decode(msgspec.json.encode([r.to_json() for r in rows]))
        assert all(a["who"] == vname for a in views[viewer]["legal"]["actions"])
        for obj, at_head in [*((o, True) for o in objects), *((o, False) for o in streamed[viewer])]:
            seq = obj.get("seq")
            if obj.get("kind") == "rejected":
                if vname != obj["by"]:  # another's refused attempt: what it named, and the message, hidden
                    assert obj["message"] == HIDDEN, f"{name}: {viewer} was told why {obj['by']} was refused"
                continue
            ev = stored[seq]
            # an answer, the log and the export show what is revealed by the head; the stream, sent
            # before anything later could reveal it, hides every private field
            state = {"seq": seq, "state": match.state} if at_head else {}
            shown = msgspec.json.decode(msgspec.json.encode(
                game.redact(ev.type, ev.by, ev.fields, vname, match.players, **state)))
            hidden = game.redact(ev.type, ev.by, ev.fields, vname, match.players)
            assert obj["fields"] == shown or obj["fields"] == msgspec.json.decode(msgspec.json.encode(hidden)), \
                f"{name}: {viewer} was handed seq {seq} ({ev.type}) as {obj['fields']}"
            if obj["fields"] != ev.fields:
                hidden_somewhere += 1
                assert obj.get("hash") is None and HIDDEN in msgspec.json.encode(obj["fields"]).decode()
    assert hidden_somewhere or not game.private_fields, f"{name}: no private field came up in play"
