"""PBWCG from the command line: new with deck files, act, legal with the checks owed, explain,
correct with --with, and deck check naming every problem."""

from __future__ import annotations

import json

from tests.test_cli import Adj, ok

P1 = "fixtures/pbwcg/deck-p1.sample.json"
P2 = "fixtures/pbwcg/deck-p2.sample.json"


def started(tmp_path) -> Adj:
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("new", "pbwcg", "--player", "P1", "--player", "P2", "--deck", f"P1={P1}", "--deck", f"P2={P2}", "--id", "m", "--by", "P1"))
    ok(adj("act", "m", "initial_pcs_placed", "player=P1", 'pcs=["A1","A2"]', "--by", "P1"))
    ok(adj("act", "m", "initial_pcs_placed", "player=P2", 'pcs=["B1","B2"]', "--by", "P2"))
    ok(adj("act", "m", "battle_started", 'confirmations=["P1","P2"]', "--by", "P1"))
    ok(adj("act", "m", "turn_started", "turn=1", "--by", "P2"))
    ok(adj("act", "m", "tie_break", 'members=["A2","B1"]', 'assignment={"A2":[1,2,3],"B1":[4,5,6]}', "rolls=[5]",
           'order=["B1","A2"]', "--by", "P1"))
    return adj


def test_a_battle_from_the_command_line(tmp_path):
    adj = started(tmp_path)
    hand = '["X","Y","Z","W","A3"]'
    ok(adj("act", "m", "cards_drawn", "player=P1", f"cards={hand}", "--by", "P1"))
    ok(adj("act", "m", "cards_drawn", "player=P2", 'cards=["P2F01","P2F02","P2F03","P2F04","P2F05"]', "--by", "P2"))
    refused = adj("act", "m", "card_set", "player=P2", "card=P2F01", "set_slot=1", "--by", "P2")
    assert refused.exit_code == 1 and "PBW-TURN-4" in refused.output
    for p in ("P1", "P2"):
        ok(adj("act", "m", "pl_turn_ended", f"player={p}", "--by", p))
    ok(adj("act", "m", "field_step_ended", "--by", "P1"))
    ok(adj("act", "m", "main_turn_started", "actor=B1", "--by", "P2"))
    legal = ok(adj("legal", "m")).stdout
    assert "P2: normal_attack actor=B1 target=<A1|A2>" in legal and "P1 declares, P2 rolls" in legal
    ok(adj("act", "m", "normal_attack", "actor=B1", "target=A2", "--by", "P2"))
    state = json.loads(ok(adj("state", "m", "--json")).stdout)
    view = state.get("state", state)
    assert view["players"]["P1"]["hp"] == 18 and view["characters"]["A2"]["endurance"] == 6
    explained = json.loads(ok(adj("explain", "m", "A2", "B1", "--json")).stdout)
    assert (explained["hp_damage"], explained["endurance_damage"]) == (3, 0)
    order = json.loads(ok(adj("explain", "m", "--json")).stdout)
    assert order["order"] == ["B1", "A2", "A1", "B2"] and order["pl_order"] == ["P1", "P2"]


def test_deck_check_names_every_problem(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("deck", "check", "pbwcg", P1))
    deck = json.loads(open(P1, encoding="utf-8").read())
    deck["deck"][5]["name"] = "pc a2"
    deck["deck"].append(dict(deck["deck"][0], id="Q", hp=-1, name="Q"))
    deck["deck"] += [dict(deck["deck"][-2], id=f"R{i}", name=f"R{i}") for i in range(2)]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(deck))
    out = adj("deck", "check", "pbwcg", str(bad))
    assert out.exit_code == 1
    assert [line.split(":")[0] for line in out.output.splitlines()] == ["PBW-DECK-3", "PBW-DECK-4", "PBW-DECK-9"]
    assert "41 cards" in out.output and "'PC A2' and 'pc a2'" in out.output


def test_export_log_and_replay_as_a_player_hide_the_other_deck_list(tmp_path):
    """PBW-HID-1, PBW-ACT-2: P2's deck list in match_started is P2's; P1 sees only their own."""
    adj = started(tmp_path)
    first = json.loads(ok(adj("export", "m", "--as", "P1")).stdout.splitlines()[0])
    assert first["type"] == "match_started" and first["decks"]["P2"] == "(hidden)"
    assert [c["id"] for c in first["decks"]["P1"]["deck"]][:2] == ["A1", "A2"]
    sealed = json.loads(ok(adj("export", "m")).stdout.splitlines()[0])
    assert sealed["decks"]["P2"]["deck"][0]["id"] == "B1"
    for command in ("log", "replay"):
        out = ok(adj(command, "m", "--as", "P1", "--json")).stdout
        first = json.loads(out)["history"][0]
        assert first["type"] == "match_started" and first["fields"]["decks"]["P2"] == "(hidden)", command
        assert first["fields"]["decks"]["P1"]["deck"][0]["id"] == "A1", command
        assert "P2F36" not in out and "Set P2F36" not in out, command  # a card of P2's deck never shown
    rows = json.loads(ok(adj("log", "m", "--as", "P2", "--json")).stdout)["history"]
    assert rows[0]["fields"]["decks"]["P1"] == "(hidden)" and rows[0]["fields"]["decks"]["P2"]["deck"][0]["id"] == "B1"


def test_state_as_a_player_names_their_own_hand_in_the_tables_words_and_says_each_line_once(tmp_path):
    adj = started(tmp_path)
    ok(adj("act", "m", "cards_drawn", "player=P1", 'cards=["X","Y","Z","W","A3"]', "--by", "P1"))
    ok(adj("act", "m", "cards_drawn", "player=P2", 'cards=["P2F01","P2F02","P2F03","P2F04","P2F05"]', "--by", "P2"))
    mine = ok(adj("state", "m", "--as", "P1")).stdout
    lines = mine.splitlines()
    assert "P1: HP 21, HP cap 31, deck 31, hand 5 (X, Y, Z, W, A3), discard pile 0, removed 0" in lines
    assert "P2: HP 18, HP cap 28, deck 33, hand 5, discard pile 0, removed 0" in lines
    assert "PBWCG turn 1, PL turns: P1's PL turn" in lines
    assert "action order: B1 (speed 6), A2 (speed 6), A1 (speed 5), B2 (speed 3); PL turns P1, then P2" in lines
    assert "  A2 (PC, slot 3, front): endurance 8/8, WP 8/8, speed 6; equipment none, weight 0 of SP 4" in lines
    assert "P2F01" not in mine and len(lines) == len(set(lines))
    judge = ok(adj("state", "m")).stdout
    assert "hand 5 (P2F01, P2F02, P2F03, P2F04, P2F05)" in judge and "hand 5 (X, Y, Z, W, A3)" in judge
    assert "hand 5 (X" not in ok(adj("state", "m", "--as", "P2")).stdout


def test_act_says_an_attacks_figures_and_the_new_action_order_once(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("new", "pbwcg", "--player", "P1", "--player", "P2", "--deck", f"P1={P1}", "--deck", f"P2={P2}", "--id", "m", "--by", "P1"))
    ok(adj("act", "m", "initial_pcs_placed", "player=P1", 'pcs=["A1","A2"]', "--by", "P1"))
    ok(adj("act", "m", "initial_pcs_placed", "player=P2", 'pcs=["B1","B2"]', "--by", "P2"))
    ok(adj("act", "m", "battle_started", 'confirmations=["P1","P2"]', "--by", "P1"))
    ok(adj("act", "m", "turn_started", "turn=1", "--by", "P2"))
    out = ok(adj("act", "m", "tie_break", 'members=["A2","B1"]', 'assignment={"A2":[1,2,3],"B1":[4,5,6]}', "rolls=[5]",
                 'order=["B1","A2"]', "--by", "P1")).stdout.splitlines()
    assert [x for x in out if "B1 (6)" in x or "action order" in x] == ["  order: B1 (6), A2 (6), A1 (5), B2 (3); PL turns P1, then P2"]
    ok(adj("act", "m", "cards_drawn", "player=P1", 'cards=["X","Y","Z","W","A3"]', "--by", "P1"))
    ok(adj("act", "m", "cards_drawn", "player=P2", 'cards=["P2F01","P2F02","P2F03","P2F04","P2F05"]', "--by", "P2"))
    for p in ("P1", "P2"):
        ok(adj("act", "m", "pl_turn_ended", f"player={p}", "--by", p))
    ok(adj("act", "m", "field_step_ended", "--by", "P1"))
    ok(adj("act", "m", "main_turn_started", "actor=B1", "--by", "P2"))
    out = ok(adj("act", "m", "normal_attack", "actor=B1", "target=A2", "--by", "P2")).stdout.splitlines()
    assert out.count("  A2: E 6 - DV 3 = 3 HP damage; endurance -2") == 1 and len(out) == len(set(out))
    assert "  phase: turn 1, main turns: B1's main turn, M1, bad-status effects -> turn 1, main turns: B1's main turn, M3, the action" in out


def test_a_rewind_does_not_say_again_what_the_event_it_returns_to_set_off(tmp_path):
    """PBW-COR-14: the state after a rewind is the state at to_seq; the notes of that event (B1's
    damage) are not the rewind's, and adj rewind says only where it went back to."""
    adj = started(tmp_path)
    ok(adj("act", "m", "cards_drawn", "player=P1", 'cards=["X","Y","Z","W","A3"]', "--by", "P1"))
    ok(adj("act", "m", "cards_drawn", "player=P2", 'cards=["P2F01","P2F02","P2F03","P2F04","P2F05"]', "--by", "P2"))
    for p in ("P1", "P2"):
        ok(adj("act", "m", "pl_turn_ended", f"player={p}", "--by", p))
    ok(adj("act", "m", "field_step_ended", "--by", "P1"))
    ok(adj("act", "m", "main_turn_started", "actor=B1", "--by", "P2"))
    hit = ok(adj("act", "m", "normal_attack", "actor=B1", "target=A2", "--by", "P2", "--json")).stdout
    assert json.loads(hit)["seq"] == 13 and json.loads(hit)["notes"] == ["A2: E 6 - DV 3 = 3 HP damage; endurance -2"]
    ok(adj("act", "m", "main_turn_ended", "actor=B1", "--by", "P2"))
    back = json.loads(ok(adj("rewind", "m", "--to", "13", "--reason", "die mistyped", "--by", "P1", "basis=record_fix",
                             'confirmations=["P1","P2"]', "--json")).stdout)
    assert back["notes"] == ["back to seq 13 (record_fix)"]
