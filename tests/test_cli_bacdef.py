"""`adj` on BACDEF: decks from files, FIELD=VALUE lists and JSON ops, legal, views per player."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import Adj, fails, ok




@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


@pytest.fixture
def deck(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("A B B C  # normal cards\nD E F\n")
    return str(path)


@pytest.fixture
def placed(adj, deck):
    """Match "b" at turn 1: guards placed, alice attacks and has placed her field card (seq 5)."""
    ok(adj("new", "bacdef", "--player", "alice", "--player", "bob", "--deck", f"alice={deck}", "--deck", f"bob={deck}",
           "--id", "b"), "b\n")
    ok(adj("act", "b", "place_guards", "player=alice", "card_ids=[alice-1,alice-2]", "--by", "alice"))
    ok(adj("act", "b", "place_guards", "player=bob", "card_ids=[bob-1, 'bob-2']", "--by", "bob"))
    ok(adj("act", "b", "decide_first_player", "first_player=alice", "method=coin", "--by", "judge"))
    ok(adj("act", "b", "place_field_card", "player=alice", "card_id=alice-3", "--by", "alice"))
    return "b"


@pytest.fixture
def turn1(adj, placed):
    """b, and bob's field card placed too (seq 6): the Action step."""
    ok(adj("act", "b", "place_field_card", "player=bob", "card_id=bob-7", "--by", "bob"))
    return "b"


def test_new_with_deck_files_and_legal_for_each_player(adj, deck):
    out = json.loads(ok(adj("new", "bacdef", "--player", "alice", "--player", "bob", "--deck", f"alice={deck}",
                            "--deck", f"bob={deck}", "--opt", "contradiction_replays=1", "--json")).stdout)
    assert out["event"]["fields"]["decks"] == {"alice": list("ABBCDEF"), "bob": list("ABBCDEF")}
    assert out["event"]["fields"]["options"] == {"contradiction_replays": 1}
    result = ok(adj("legal", "bacdef-1"))
    assert result.stdout.splitlines()[0] == (
        "alice: place_guards player=alice card_ids=[2 of alice-1, alice-2, alice-3, alice-4, alice-5, alice-6, alice-7]")
    assert {(a["who"], a["type"]) for a in json.loads(ok(adj("legal", "bacdef-1", "--json")).stdout)["actions"]} == {
        ("alice", "place_guards"), ("alice", "concede_set"), ("bob", "place_guards"), ("bob", "concede_set"), ("judge", "rewind")}


def test_a_second_field_card_is_refused_by_its_rule(adj, placed):
    fails(adj("act", "b", "place_field_card", "player=alice", "card_id=alice-4", "--by", "alice"), 1,
          "BAC-LIM-4: alice already placed a field card this turn; 'alice-4' stays in hand\n")
    assert adj.head("b") == 5
    assert adj.rejections("b") == [(5, "place_field_card", "BAC-LIM-4")]
    assert "x    alice  place_field_card     card_id=alice-4 player=alice  [rejected: BAC-LIM-4: " in ok(adj("log", "b")).stdout


def test_json_ops_and_integer_lists_on_the_command_line(adj, turn1):
    ok(adj("act", "b", "declare_skill", "player=alice", "card_id=alice-3", "--by", "alice"))
    ok(adj("act", "b", "declare_through", "player=bob", "--by", "bob"))
    lines = ok(adj("act", "b", "resolve_effect", "instance_id=I1", 'ops=[{"op":"DAMAGE","target":"bob","amount":2}]',
                   "--by", "judge")).stdout.splitlines()
    assert lines[:5] == ['b seq 9  judge  resolve_effect  instance_id=I1 ops=[{"amount":2,"op":"DAMAGE","target":"bob"}]',
                         "  auto: packet Q1 (alice->bob, 2, skill)",
                         "  waiting for: bob to assign 2 damage point(s) (Q1)",
                         "  bob damage this turn 0 -> 2",
                         "  phase: set 1, turn 1: Resolution step -> set 1, turn 1: Damage step"]
    assert lines[-1] == "to move: bob"
    ok(adj("act", "b", "assign_damage", "player=bob", "slots=[1,1]", "--by", "bob"))
    guards = json.loads(ok(adj("state", "b", "--json")).stdout)["state"]["set"]["players"]["bob"]["guards"]
    assert [g["state"] for g in guards] == ["X", "U"]
    replay = ok(adj("replay", "b", "--from", "10")).stdout.splitlines()
    assert replay[0] == "  10  bob  assign_damage  player=bob slots=[1,1]"
    assert "        bob guard slots 1:U 2:U -> 1:X 2:U" in replay


def test_state_as_a_player_hides_the_other_hand(adj, turn1):
    judge = json.loads(ok(adj("state", "b", "--json")).stdout)["state"]["set"]["players"]["alice"]
    as_bob = json.loads(ok(adj("state", "b", "--as", "bob", "--json")).stdout)["state"]["set"]["players"]["alice"]
    as_alice = json.loads(ok(adj("state", "b", "--as", "alice", "--json")).stdout)["state"]["set"]["players"]["alice"]
    assert [c["id"] for c in judge["hand"]] == [c["id"] for c in as_alice["hand"]] == ["alice-4", "alice-5", "alice-6", "alice-7"]
    assert "hand" not in as_bob and as_bob["hand_count"] == 4
    assert all("letter" not in g for g in as_bob["guards"])
    text = ok(adj("state", "b", "--as", "bob")).stdout
    assert "alice-4" not in text and "bob-4" in text


def test_deck_check(adj, deck, tmp_path):
    ok(adj("deck", "check", "bacdef", deck), "ok\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("A B B C D D F\n")
    fails(adj("deck", "check", "bacdef", str(bad)), 1, "BAC-DECK-5: the deck has 2 D cards; D, E and F at most once each\n")
    ok(adj("deck", "check", "bacdef", deck, "--opt", "require_each_special=true"), "ok\n")
    bad.write_text("A B B C C D E\n")
    ok(adj("deck", "check", "bacdef", str(bad)), "ok\n")
    result = adj("deck", "check", "bacdef", str(bad), "--opt", "require_each_special=true", "--json")
    assert result.exit_code == 1
    assert [v["rule"] for v in json.loads(result.stdout)["violations"]] == ["BAC-RUL-2"]


def test_log_of_the_demo_marks_the_branch_and_each_set_result(adj):
    ok(adj("import", "fixtures/bacdef/demo-contradiction.jsonl"))
    log = ok(adj("log", "demo-contradiction")).stdout.splitlines()
    abandoned = [ln for ln in log if ln.startswith("~")]
    assert abandoned and all(ln.endswith("[abandoned by rewind at 81]") for ln in abandoned)
    assert [ln.strip() for ln in log if "──" in ln] == [
        "── set 1: won by bob — alice had no guard left and took damage (turn 6); match alice 0 - 1 bob",
        "── set 2: won by alice — bob had no guard left and took damage (turn 3); match alice 1 - 1 bob",
        "── set 3: won by alice — bob had no guard left and took damage (turn 4); match alice 2 - 1 bob",
        "── match won by alice (alice 2 - 1 bob)",
    ]
    assert log[1].startswith("no entry is signed: each author is only what was typed with --by") and "catalog=<6 entries: A B C D E F>" in log[2]
    assert log[-1] == "outcome: won by alice (alice 2, bob 1); two sets won"


def test_legal_as_a_player_lists_only_their_own_actions(adj, turn1):
    # Action step of turn 1: only alice (the attacker) acts; bob may only concede.
    assert ok(adj("legal", "b", "--as", "bob")).stdout == "bob: concede_set player=bob\n"
    mine = ok(adj("legal", "b", "--as", "alice")).stdout.splitlines()
    assert mine == ["alice: declare_knock player=alice", "alice: declare_skill player=alice card_id=alice-3",
                    "alice: concede_set player=alice"]
    assert ok(adj("legal", "b", "--as", "carol")).stdout.startswith("nothing is open for carol; outcome: in progress")
