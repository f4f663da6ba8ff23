"""adj serve's API through Litestar's test client (no process, no socket): every route, each
credential, and every kind of failure with its status and the CLI's JSON shape (docs/serve.md)."""

from __future__ import annotations

import json

import msgspec
import pytest
from litestar.testing import TestClient

from cli import schema as cli_schema
from events.sqlite import SQLiteStore
from server.app import Settings, build_app
from server.auth import Judge, token_hash
from tests.test_cli import Adj, ok

JUDGE_TOKEN = "judge-token-for-tests"
J = {"Authorization": f"Bearer {JUDGE_TOKEN}"}
DECKS = {"alice": "A A B C D E F", "bob": "A B B C C D F"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Floor:
    """A server over a SQLite file, its test client, and a look at what the store holds."""

    def __init__(self, path, **settings):
        self.path = str(path)
        self.app = build_app(Settings(store_url=self.path, judges=[Judge("judge", token_hash(JUDGE_TOKEN))], **settings))
        self.client = TestClient(self.app)

    def head(self, match_id: str) -> int:
        with SQLiteStore(self.path) as s:
            return s.head(match_id)

    def rejections(self, match_id: str) -> list[tuple[int, str, str]]:
        with SQLiteStore(self.path) as s:
            return [(r.head_seq, r.type, r.rule) for r in s.rejections(match_id)]

    def new(self, game: str = "nim", players=("alice", "bob"), id_: str = "m", **body) -> dict:
        r = self.client.post("/matches", json={"game": game, "players": list(players), "id": id_, **body}, headers=J)
        assert r.status_code == 201, r.text
        return {p: bearer(s["token"]) for p, s in r.json()["seats"].items()}

    def act(self, match_id: str, headers: dict, **body):
        return self.client.post(f"/matches/{match_id}/events", json=body, headers=headers)


@pytest.fixture
def floor(tmp_path):
    f = Floor(tmp_path / "store.sqlite3")
    with f.client:
        yield f


def error(r, status: int, kind: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] == kind, body
    msgspec.convert(body, cli_schema.Error if kind in cli_schema.Error.__annotations__["error"] else dict)
    return body


# -- creating and reading -------------------------------------------------------------------------
def test_a_judge_creates_a_match_and_each_seat_gets_its_own_token(floor):
    r = floor.client.post("/matches", json={"game": "bacdef", "players": ["alice", "bob"], "id": "t1", "decks": DECKS},
                          headers=J)
    assert r.status_code == 201
    body = r.json()
    assert body["match_id"] == "t1" and set(body["seats"]) == {"alice", "bob"}
    alice, bob = body["seats"]["alice"], body["seats"]["bob"]
    assert alice["token"] != bob["token"] and len(alice["token"]) >= 40
    assert alice["url"] == f"http://127.0.0.1:8080/tables/t1#token={alice['token']}"
    assert body["spectator_url"] == "http://127.0.0.1:8080/tables/t1" and "<svg" in alice["qr_svg"]
    assert body["accepted"]["event"]["fields"]["decks"] == {"alice": list("AABCDEF"), "bob": list("ABBCCDF")}
    # the store keeps hashes of the tokens, never the tokens
    with SQLiteStore(floor.path) as s:
        rows = s._db.execute("SELECT * FROM serve_tokens ORDER BY seat").fetchall()
    assert [r[:3] for r in rows] == [(token_hash(alice["token"]), "t1", "alice"), (token_hash(bob["token"]), "t1", "bob")]
    assert not any(alice["token"] in str(r) for r in rows)


def test_only_a_judge_creates_a_match(floor):
    seats = floor.new()
    body = {"game": "nim", "players": ["a", "b"]}
    error(floor.client.post("/matches", json=body), 401, "unauthorized")
    error(floor.client.post("/matches", json=body, headers=seats["alice"]), 403, "forbidden")
    error(floor.client.post("/matches", json=body, headers=bearer("nobody's")), 401, "unauthorized")
    assert [m["match_id"] for m in floor.client.get("/matches", headers=J).json()["matches"]] == ["m"]


def test_creating_a_match_says_what_is_wrong(floor):
    floor.new()
    error(floor.client.post("/matches", json={"game": "chess", "players": ["a", "b"]}, headers=J), 400, "malformed")
    body = error(floor.client.post("/matches", json={"game": "nim", "players": ["a", "b"], "options": {"heap": 3}},
                                   headers=J), 400, "malformed")
    assert body["message"] == "nim has no option 'heap'; options: pile" and body["path"] == "$.options.heap"
    body = error(floor.client.post("/matches", json={"game": "nim", "players": "ab"}, headers=J), 400, "malformed")
    assert body["path"] == "$.players"
    error(floor.client.post("/matches", json={"game": "nim", "players": ["a", "b"], "id": "m"}, headers=J), 409, "exists")
    r = floor.client.post("/matches", json={"game": "bacdef", "players": ["a", "b"], "decks": {"a": "A A A A A A A",
                                                                                               "b": "A B C D E F F"}},
                          headers=J)
    assert r.status_code == 422 and r.json()["error"] == "rejected" and r.json()["rule"].startswith("BAC-")


def test_state_legal_log_and_export_are_what_adj_prints_with_json_and_as(floor, tmp_path):
    seats = floor.new("bacdef", id_="t1", decks=DECKS)
    assert floor.act("t1", seats["alice"], type="place_guards", player="alice", card_ids=["alice-1", "alice-2"]).status_code == 201
    adj = Adj(floor.path)
    for who, headers, as_ in (("alice", seats["alice"], ["--as", "alice"]), ("bob", seats["bob"], ["--as", "bob"]),
                              ("judge", J, []), ("spectator", {}, ["--as", "someone"])):
        for route, command in (("state", "state"), ("legal", "legal"), ("log", "log"), ("export", "export")):
            served = floor.client.get(f"/matches/t1/{route}", headers=headers)
            assert served.status_code == 200, served.text
            printed = json.loads(ok(adj(command, "t1", "--json", *as_)).stdout)
            if who == "spectator" and "as" in printed:  # the server names no spectator: "as" is ""
                assert served.json()["as"] == ""
                printed["as"] = ""
            assert served.json() == printed, (who, route)
    assert floor.client.get("/matches/t1/legal").json()["actions"] == []


def test_the_answers_have_the_shapes_of_the_cli_schema(floor):
    seats = floor.new()
    accepted = floor.act("m", seats["alice"], type="take", player="alice", count=2).json()
    msgspec.convert(accepted, cli_schema.Accepted)
    for route, type_ in (("state", cli_schema.State), ("legal", cli_schema.Legal), ("log", cli_schema.Log),
                         ("export", cli_schema.Exported)):
        msgspec.convert(floor.client.get(f"/matches/m/{route}", headers=seats["bob"]).json(), type_)
    msgspec.convert(floor.client.get("/matches/m/verify").json(), cli_schema.Verified)


def test_state_at_an_earlier_event_and_a_seq_that_is_not_there(floor):
    seats = floor.new()
    floor.act("m", seats["alice"], type="take", player="alice", count=2)
    body = floor.client.get("/matches/m/state?at=1", headers=seats["bob"]).json()
    assert (body["seq"], body["head_seq"], body["state"]["pile"]) == (1, 2, 10)
    assert error(floor.client.get("/matches/m/state?at=7"), 400, "malformed")["message"] == "m has events 1 to 2, not 7"


def test_the_list_filters_by_game_status_player_and_who_the_table_waits_for(floor):
    seats = floor.new(id_="m1")
    floor.new(players=("carol", "dan"), id_="m2", options={"pile": 1})
    floor.act("m2", J, type="take", by="carol", player="carol", count=1)
    ids = lambda query, h=J: [m["match_id"] for m in floor.client.get(f"/matches{query}", headers=h).json()["matches"]]
    assert ids("") == ["m1", "m2"] and ids("?game=nim") == ["m1", "m2"] and ids("?game=bacdef") == []
    assert ids("?status=won") == ["m2"] and ids("?status=in_progress") == ["m1"] and ids("?player=dan") == ["m2"]
    assert ids("?waiting=alice") == ["m1"] and ids("?waiting=bob") == []
    # who the table waits for, as the caller may know it: a seat sees only whether it is them
    assert ids("?waiting=alice", seats["alice"]) == ["m1"] and ids("?waiting=alice", seats["bob"]) == []
    rows = floor.client.get("/matches", headers=seats["bob"]).json()["matches"]
    assert rows[0]["waiting_for"] == [] and rows[1]["outcome"]["winner"] == "carol"
    assert floor.client.get("/matches", headers=J).json() == json.loads(ok(Adj(floor.path)("matches", "--json")).stdout)


# -- entering -----------------------------------------------------------------------------------------
def test_a_seat_enters_its_own_actions_and_is_answered_as_adj_act(floor):
    seats = floor.new()
    r = floor.act("m", seats["alice"], type="take", player="alice", count=2)
    assert r.status_code == 201
    body = r.json()
    assert (body["accepted"], body["seq"], body["event"]["by"], body["to_move"]) == (True, 2, "alice", [])
    assert floor.act("m", seats["bob"], type="take", player="bob", count=1).json()["to_move"] == []
    assert floor.client.get("/matches/m/state", headers=seats["alice"]).json()["to_move"] == ["alice"]


def test_a_rule_refusal_is_422_with_the_rule_and_recorded_as_that_players_attempt(floor):
    seats = floor.new()
    r = floor.act("m", seats["alice"], type="take", player="alice", count=5)
    body = error(r, 422, "rejected")
    assert body["rule"].startswith("NIM-") and body["message"] and (body["by"], body["head_seq"]) == ("alice", 1)
    msgspec.convert({k: v for k, v in body.items() if k != "error"}, cli_schema.Refusal)
    assert floor.rejections("m") == [(1, "take", body["rule"])] and floor.head("m") == 1


@pytest.mark.parametrize("case", ["spectator", "unknown", "other match", "other seat", "judge's decision", "by judge"])
def test_a_credential_that_may_not_enter_writes_nothing_and_records_no_attempt(floor, case):
    seats = floor.new()
    other = floor.new(players=("carol", "dan"), id_="m2")
    headers, body, status, kind = {
        "spectator": ({}, {"type": "take", "player": "alice", "count": 1}, 401, "unauthorized"),
        "unknown": (bearer("x" * 43), {"type": "take", "player": "alice", "count": 1}, 401, "unauthorized"),
        "other match": (other["carol"], {"type": "take", "player": "alice", "count": 1}, 403, "forbidden"),
        "other seat": (seats["bob"], {"type": "take", "by": "alice", "player": "alice", "count": 1}, 403, "forbidden"),
        "judge's decision": (seats["alice"], {"type": "rewind", "to_seq": 1, "reason": "x"}, 403, "forbidden"),
        "by judge": (seats["alice"], {"type": "take", "by": "judge", "player": "alice", "count": 1}, 403, "forbidden"),
    }[case]
    error(floor.act("m", headers, **body), status, kind)
    assert (floor.head("m"), floor.rejections("m")) == (1, [])


def test_a_seat_may_enter_for_the_table_what_the_game_lets_it(floor):
    seats = floor.new()
    # nim lets a player enter only their own take: the game refuses bob's take for alice, as at the table
    r = floor.act("m", seats["bob"], type="take", player="alice", count=1)
    assert r.status_code == 422 and floor.rejections("m") == [(1, "take", r.json()["rule"])]


def test_the_judge_enters_rewind_note_penalty_and_correct(floor):
    seats = floor.new()
    floor.act("m", seats["alice"], type="take", player="alice", count=2)
    floor.act("m", seats["bob"], type="take", player="bob", count=1)
    r = floor.act("m", J, type="rewind", to_seq=2, reason="bob misread the pile")
    assert r.status_code == 201 and r.json()["abandoned"] == [3] and r.json()["event"]["by"] == "judge"
    assert floor.act("m", J, type="note", at_seq=2, text="<b>bold</b> & <script>alert(1)</script>").status_code == 201
    assert floor.act("m", J, type="penalty", player="bob", infraction="slow_play", penalty="warning", at_seq=2,
                     reason="slow").status_code == 201
    r = floor.act("m", J, type="correct", at_seq=2, event={"type": "take", "by": "bob", "player": "bob", "count": 1},
                  reason="forgotten")
    assert r.status_code in (201, 422), r.text
    error(floor.act("m", seats["bob"], type="note", at_seq=2, text="mine"), 403, "forbidden")


def test_markup_in_names_and_notes_is_data_in_every_answer(floor):
    nasty = "<img src=x onerror=alert(1)>"
    seats = floor.new()
    named = floor.new(players=(nasty, "bob"), id_="m2")
    floor.act("m", J, type="note", at_seq=1, text=nasty)
    for r in (floor.client.get("/matches/m/log"), floor.client.get("/matches/m/export", headers=J),
              floor.act("m", seats["alice"], type="take", player=nasty, count=1),
              floor.client.get("/matches", headers=J), floor.client.get("/matches/m2/state", headers=named[nasty]),
              floor.act("m2", named[nasty], type="take", player=nasty, count=1)):
        assert r.headers["content-type"].startswith("application/json")
        assert r.headers["x-content-type-options"] == "nosniff"
        assert b"<" not in r.content and b">" not in r.content
        assert nasty in json.dumps(r.json(), ensure_ascii=False)


def test_a_stale_expect_seq_is_409_and_writes_nothing(floor):
    seats = floor.new()
    assert floor.act("m", seats["alice"], type="take", player="alice", count=1, expect_seq=1).status_code == 201
    body = error(floor.act("m", seats["bob"], type="take", player="bob", count=1, expect_seq=1), 409, "conflict")
    assert (body["expected_seq"], body["head_seq"]) == (1, 2) and "another entry landed first" in body["message"]
    assert (floor.head("m"), floor.rejections("m")) == (2, [])


def test_a_retry_under_the_same_key_answers_the_first_entry_once(floor):
    seats = floor.new()
    first = floor.act("m", seats["alice"], type="take", player="alice", count=1, key="t/alice/1")
    again = floor.act("m", seats["alice"], type="take", player="alice", count=1, key="t/alice/1", expect_seq=1)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["idempotent-replayed"] == "true" and "idempotent-replayed" not in first.headers
    assert again.json()["seq"] == first.json()["seq"] == 2 and again.json()["event"] == first.json()["event"]
    assert floor.head("m") == 2
    # the same key for another action, or by another seat: refused, and what it was used for is not told
    error(floor.act("m", seats["alice"], type="take", player="alice", count=3, key="t/alice/1"), 400, "malformed")
    body = error(floor.act("m", seats["bob"], type="take", player="bob", count=1, key="t/alice/1"), 400, "malformed")
    assert "alice" not in body["message"].replace("t/alice/1", "") and floor.head("m") == 2


# -- malformed input ----------------------------------------------------------------------------------
@pytest.mark.parametrize("raw, path", [
    (b'{"type": "take", "player": "alice", "count": 1', "the body"),  # not JSON
    (b'{"type": "take", "player": "alice", "count": 1, "count": 2}', "the body"),  # a key given twice
    (b'{"type": "take", "player": "alice", "count": 1, "expect_seq": "one"}', "$.expect_seq"),
    (b'{"type": 7, "player": "alice", "count": 1}', "$.type"),
    (b'["take"]', "$"),
    (b'{"type": "take", "player": "' + b"a" * 1001 + b'", "count": 1}', "the body: $.player"),
    (b'{"type": "take", "player": "alice", "count": ' + b"[" * 40 + b"]" * 40 + b"}", "the body"),
    (b'{"type": "take", "player": "al\xffice", "count": 1}', "$"),
])
def test_malformed_bodies_are_400_with_the_place_and_write_nothing(floor, raw, path):
    seats = floor.new()
    r = floor.client.post("/matches/m/events", content=raw, headers={**seats["alice"], "Content-Type": "application/json"})
    body = error(r, 400, "malformed")
    assert body["path"].startswith(path), body
    assert (floor.head("m"), floor.rejections("m")) == (1, [])


def test_a_body_beyond_the_input_limit_is_refused_before_it_is_decoded(floor):
    seats = floor.new()
    raw = b'{"type": "take", "player": "alice", "count": 1, "x": "' + b"a" * 1_000_000 + b'"}'
    body = error(floor.client.post("/matches/m/events", content=raw, headers={**seats["alice"],
                                                                           "Content-Type": "application/json"}), 400, "malformed")
    assert body["message"] == "the body is 1,000,056 characters long; at most 1,000,000 are read"
    assert (floor.head("m"), floor.rejections("m")) == (1, [])


def test_a_body_beyond_the_cap_is_refused_before_it_is_read(tmp_path):
    f = Floor(tmp_path / "s.sqlite3", max_body=10_000)
    with f.client:
        seats = f.new()
        r = f.client.post("/matches/m/events", content=b'{"type": "take", "x": "' + b"a" * 20_000 + b'"}',
                          headers={**seats["alice"], "Content-Type": "application/json"})
        assert error(r, 413, "too_large")["message"] == "the body is larger than 10,000 bytes; nothing was read"
        assert f.head("m") == 1


def test_an_unknown_match_is_404_everywhere(floor):
    seats = floor.new()
    for route in ("state", "board", "legal", "log", "export", "verify", "stream"):
        error(floor.client.get(f"/matches/nope/{route}", headers=J), 404, "unknown_match")
    error(floor.act("nope", J, type="take", player="alice", count=1), 404, "unknown_match")
    error(floor.act("nope", seats["alice"], type="take", player="alice", count=1), 403, "forbidden")
    error(floor.client.get("/no/such/route"), 404, "not_found")


def test_a_bad_authorization_header_is_401(floor):
    floor.new()
    for header in ("Basic YTpi", "Bearer", "Bearer " + "x" * 300, "token"):
        error(floor.client.get("/matches/m/state", headers={"Authorization": header}), 401, "unauthorized")


# -- tokens -----------------------------------------------------------------------------------------------
def test_a_judge_reissues_and_revokes_a_seats_token(floor):
    seats = floor.new()
    r = floor.client.post("/matches/m/seats/alice/token", headers=J)
    assert r.status_code == 201
    fresh = bearer(r.json()["token"])
    body = error(floor.act("m", seats["alice"], type="take", player="alice", count=1), 401, "unauthorized")
    assert "revoked" in body["message"]
    assert floor.act("m", fresh, type="take", player="alice", count=1).status_code == 201
    error(floor.client.delete("/matches/m/seats/alice/token", headers=seats["bob"]), 403, "forbidden")
    assert floor.client.delete("/matches/m/seats/alice/token", headers=J).json()["revoked"] == 1
    error(floor.client.get("/matches/m/state", headers=fresh), 401, "unauthorized")
    error(floor.client.post("/matches/m/seats/zed/token", headers=J), 400, "malformed")
    error(floor.client.post("/matches/zz/seats/alice/token", headers=J), 404, "unknown_match")


def test_a_seat_reading_another_match_sees_it_as_a_spectator(floor):
    seats = floor.new("bacdef", id_="t1", decks=DECKS)
    floor.act("t1", seats["alice"], type="place_guards", player="alice", card_ids=["alice-1", "alice-2"])
    other = floor.new(players=("carol", "dan"), id_="m2")
    body = floor.client.get("/matches/t1/log", headers=other["carol"]).json()
    assert body["as"] == "" and body["history"][1]["fields"]["card_ids"] == "(hidden)"


# -- judges' keys ---------------------------------------------------------------------------------------------
def test_a_judges_decision_through_the_server_is_signed_with_that_judges_key(tmp_path):
    from adjudicator.authority.judges import register_key
    from events.signing import create_signing_key

    ann = create_signing_key(str(tmp_path / "ann.pem"))
    path = tmp_path / "s.sqlite3"
    with SQLiteStore(str(path)) as s:
        register_key(s, "judge", "ann", ann.public_key, "organiser", "2026-01-01T00:00:00Z")
    f = Floor(path)
    f.app.state.adj.credentials.judges = (Judge("ann", token_hash(JUDGE_TOKEN), ann),
                                          Judge("keyless", token_hash("keyless")))
    with f.client:
        seats = f.new()
        assert f.act("m", J, type="note", at_seq=1, text="ok").status_code == 201
        body = error(f.act("m", bearer("keyless"), type="note", at_seq=1, text="no"), 403, "forbidden")
        assert "registered judges" in body["message"] and f.head("m") == 2
        assert f.act("m", seats["alice"], type="take", player="alice", count=1).status_code == 201
    with SQLiteStore(str(path)) as s:
        sigs = s.audit_signatures("m")
    assert sorted((x.seq, x.signer) for x in sigs.values()) == [(1, "ann"), (2, "ann")]


def test_verify_and_the_openapi_document(floor):
    seats = floor.new()
    floor.act("m", seats["alice"], type="take", player="alice", count=1)
    assert floor.client.get("/matches/m/verify").json() == {"match_id": "m", "ok": True, "events": 2,
                                                              "rejections_rechecked": 0, "error": None}
    doc = floor.client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    entry = doc["paths"]["/matches/{match_id}/events"]["post"]
    assert entry["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Entry"}
    assert {"201", "401", "403", "409", "413", "422"} <= set(entry["responses"])
    assert {"Accepted", "Refusal", "Error", "Entry", "CreateMatch", "State", "Legal", "Log"} <= set(doc["components"]["schemas"])
    assert "/floor/stream" in doc["paths"] and "/openapi.json" not in doc["paths"]
