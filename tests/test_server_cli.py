"""adj act, state, legal, log and matches with --server and --token (or ADJ_SERVER, ADJ_TOKEN): the
same output and exit codes as on a local store, the server (uvicorn in a thread of the test)
deciding who the caller is from the token."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.test_cli import Adj, ok
from tests.test_server_support import JUDGE_TOKEN, J, live_server

def fails(result, code: int):
    assert result.exit_code == code, result.output
    return result


DECKS = {"alice": "A A B C D E F", "bob": "A B B C C D F"}


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "store.sqlite3"
    with live_server(str(path)) as url:
        r = httpx.post(f"{url}/matches", json={"game": "bacdef", "players": ["alice", "bob"], "id": "t", "decks": DECKS},
                       headers=J)
        assert r.status_code == 201, r.text
        tokens = {p: s["token"] for p, s in r.json()["seats"].items()}
        yield Adj(path), url, tokens


def test_state_legal_log_and_matches_print_what_they_print_on_the_store(table):
    adj, url, tokens = table
    ok(adj("act", "t", "place_guards", "player=alice", "card_ids=[alice-1,alice-2]", "--by", "alice"))
    for token, as_ in ((JUDGE_TOKEN, []), (tokens["bob"], ["--as", "bob"])):
        for words in (("state", "t"), ("legal", "t"), ("log", "t"), ("state", "t", "--at", "1")):
            local = ok(adj(*words, *as_))
            remote = ok(adj(*words, "--server", url, "--token", token))
            assert remote.stdout == local.stdout, words
            assert json.loads(ok(adj(*words, "--json", "--server", url, "--token", token)).stdout) == \
                json.loads(ok(adj(*words, *as_, "--json")).stdout)
    assert ok(adj("matches", "--server", url, "--token", JUDGE_TOKEN)).stdout == ok(adj("matches")).stdout
    assert ok(adj("matches", "--server", url, "--token", JUDGE_TOKEN, "--game", "nim")).stdout == \
        ok(adj("matches", "--game", "nim")).stdout == "no matches in the store that match\n"
    assert "alice-1" not in ok(adj("log", "t", "--server", url, "--token", tokens["bob"])).stdout


def test_act_through_the_server_answers_as_adj_act_with_its_exit_codes(table, monkeypatch):
    adj, url, tokens = table
    monkeypatch.setenv("ADJ_SERVER", url)
    monkeypatch.setenv("ADJ_TOKEN", tokens["alice"])
    r = ok(adj("act", "t", "place_guards", "player=alice", "card_ids=[alice-7,alice-1]", "--by", "alice", "--key", "k1"))
    assert r.stdout.splitlines()[0] == "t seq 2  alice  place_guards  card_ids=[alice-7,alice-1] player=alice"
    again = ok(adj("act", "t", "place_guards", "player=alice", "card_ids=[alice-7,alice-1]", "--by", "alice", "--key", "k1"))
    assert again.stdout.splitlines()[0] == r.stdout.splitlines()[0]
    body = json.loads(fails(adj("act", "t", "place_guards", "player=alice", "card_ids=[alice-2,alice-3]", "--by", "alice",
                                "--json"), 1).stdout)
    assert body["accepted"] is False and body["rule"].startswith("BAC-") and "error" not in body
    assert fails(adj("act", "t", "place_guards", "player=bob", "card_ids=[bob-1,bob-2]", "--by", "bob"), 2).stderr \
        == "error: this token enters alice's actions only, not bob's\n"
    assert "needs a judge's token" in fails(adj("act", "t", "confirm_end_phase", "--by", "judge"), 2).stderr
    assert adj.head("t") == 2
    monkeypatch.setenv("ADJ_TOKEN", "not-a-token")
    assert fails(adj("state", "t"), 2).stderr == "error: this token is not known here\n"
    monkeypatch.delenv("ADJ_TOKEN")
    assert "no match 'nope'" in fails(adj("state", "nope"), 2).stderr
    assert fails(adj("state", "t", "--as", "bob"), 2).stderr == "error: with --server the token says who you are: leave out --as\n"


def test_a_server_that_does_not_answer_is_bad_input(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    r = fails(adj("state", "t", "--server", "http://127.0.0.1:9", "--json"), 2)
    assert json.loads(r.stdout)["error"] == "input" and "cannot reach the server at http://127.0.0.1:9" in r.stderr
