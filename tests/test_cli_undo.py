"""``adj undo``: a player who mistyped their own last entry asks for it to be withdrawn; the judge
or the opponent confirms, and the request becomes a rewind on the record, judged by the game's
own rules for rewinds (a refusal names the rule)."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import Adj, fails, ok

ROOT_FIXTURES = "fixtures/bacdef/demo-contradiction.jsonl"


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


@pytest.fixture
def m(adj):
    """nim, 7 stones; alice took 3 (seq 2)."""
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    return "m"


def test_a_player_asks_and_the_judge_confirms(adj, m):
    ok(adj("undo", "m", "--by", "alice"),
       "m seq 3  alice  undo_request  at_seq=2\n"
       "waiting for the judge or the opponent to confirm: adj undo m --by NAME\n"
       "to move: bob\n")
    fails(adj("undo", "m", "--by", "alice"), 1,
          "ADJ-UNDO-2: alice asked at seq 3 for seq 2 to be withdrawn; the judge or the opponent confirms it "
          "(adj undo m --by NAME)\n")
    ok(adj("undo", "m", "--by", "judge"),
       "m seq 4  judge  rewind  reason=\"undo: seq 2 (take) withdrawn at alice's request (seq 3), confirmed by judge\" "
       "to_seq=1\nabandoned: 2\n  pile: 4 -> 7\n  turn: 1 -> 0\n  taken[0]: 3 -> 0\n  rewinds: 0 -> 1\nto move: alice\n")
    ok(adj("act", "m", "take", "player=alice", "count=2", "--by", "alice"))
    assert json.loads(adj("state", "m", "--json").stdout)["state"]["pile"] == 5


def test_the_opponents_confirmation_is_judged_by_the_games_rules(adj, m):
    ok(adj("undo", "m", "--by", "alice"))
    fails(adj("undo", "m", "--by", "bob", "--json"), 1, "NIM-JDG-1: only the judge may rewind\n",
          json.dumps({"accepted": False, "match_id": "m", "head_seq": 3, "line": None, "type": "rewind", "by": "bob",
                      "rule": "NIM-JDG-1", "code": None, "message": "only the judge may rewind"},
                     separators=(",", ":")) + "\n")
    assert adj.head("m") == 3 and adj.rejections("m") == [(3, "rewind", "NIM-JDG-1")]


@pytest.mark.parametrize("by, message", [
    ("bob", "ADJ-UNDO-1: seq 2 (take) was entered by alice, not bob: a player withdraws only their own entry\n"),
    ("judge", "ADJ-UNDO-1: an undo is asked by the player whose entry it was, not judge; the judge goes back with a rewind\n"),
])
def test_only_the_player_whose_last_entry_it_is_may_ask(adj, m, by, message):
    fails(adj("undo", "m", "--by", by), 1, message)
    assert adj.head("m") == 2 and adj.rejections("m") == [(2, "undo_request", "ADJ-UNDO-1")]


def test_a_request_lapses_when_play_goes_on_and_a_start_is_not_withdrawn(adj, m):
    ok(adj("undo", "m", "--by", "alice"))
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))  # nobody confirmed: play went on
    fails(adj("undo", "m", "--by", "alice"), 1,
          "ADJ-UNDO-1: seq 4 (take) was entered by bob, not alice: a player withdraws only their own entry\n")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "fresh"))
    fails(adj("undo", "fresh", "--by", "alice"), 1,
          "ADJ-UNDO-1: seq 1 is a match_started, not a table action: it is not withdrawn by an undo\n")
    fails(adj("undo", "nowhere", "--by", "alice"), 2, "error: no match 'nowhere' in the store; `adj matches` lists the matches\n")


def test_bacdef_an_undo_is_a_judge_error_rewind(adj, tmp_path):
    lines = open(ROOT_FIXTURES, encoding="utf-8").read().splitlines(keepends=True)[:5]  # alice placed alice-3
    (tmp_path / "t.jsonl").write_text("".join(lines))
    ok(adj("import", str(tmp_path / "t.jsonl"), "--id", "t"))
    ok(adj("undo", "t", "--by", "alice"))
    fails(adj("undo", "t", "--by", "bob"), 1, "BAC-ACT-21: only the judge enters a judge-error rewind; bob tried\n")
    result = ok(adj("undo", "t", "--by", "judge", "--json"))
    data = json.loads(result.stdout)
    assert (data["event"]["fields"]["cause"], data["event"]["fields"]["to_seq"], data["abandoned"]) == ("judge_error", 4, [5])
    ok(adj("act", "t", "place_field_card", "player=alice", "card_id=alice-2", "--by", "alice"))
