"""Rule tests of the end of a game (§7, DB-RUL-30) and of the judge's events (§8), and of the
shipped data (sample catalog, deck lists)."""

from __future__ import annotations

from pathlib import Path

import msgspec

from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from adjudicator.games.demonbrave.zones import count_cards
from tests.demonbrave.builder import JUDGE, RULE_CARDS, free_ids
from tests.demonbrave.checks import battle_position, refuse, started
from tests.demonbrave.replay import field

A, B = "alice", "bob"


# -- end of the game (§7) ------------------------------------------------------------------------
def test_db_lim_10_and_db_lim_11_life_floor_and_loss():
    t = started()
    t.adjust([{"op": "LOSE_LIFE", "player": B, "amount": 9}], "x")
    s = t.state
    assert s.player(B).life == 0 and s.status == "FINISHED" and s.result.winner == A and s.result.reason == "LIFE_ZERO"


def test_db_act_18_game_over_blocks_everything_but_the_judge():
    t = started()
    t.ev("concede", A, player=A)  # DB-ACT-17 / DB-RUL-31
    assert t.state.result.winner == B
    refuse(t, "DB-ACT-18", "GAME_OVER", "advance_phase", A, says="won by bob")
    refuse(t, "DB-ACT-18", "GAME_OVER", "concede", B, player=B)
    refuse(t, "DB-ACT-18", "GAME_OVER", "rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.adjust([{"op": "NOTE", "text": "judge events stay open"}], "note")


def test_db_act_17_concede_for_oneself_only():
    t = started()
    refuse(t, "DB-ACT-17", "ILLEGAL_ACTION", "concede", A, player=B, says="alice cannot enter concede for bob")


def test_db_lim_12_stalemate_counter_resets_on_progress():
    t = started(options={"stalemate_idle_turns": 2})
    ops = []
    from tests.demonbrave.builder import free_ids

    for who in (A, B):
        p = t.state.player(who)
        ids = free_ids(t.state, who)
        ops += [{"op": "MOVE", "card": c, "from": "deck", "to": "trash", "player": who} for c in ids[p.hand_count:]]
    t.adjust(ops, "empty decks")
    t.end_turn()
    assert t.state.idle_turns == 0  # cards moved this turn
    t.end_turn()
    assert t.state.idle_turns == 1  # bob drew nothing, did nothing
    t.end_turn()
    assert t.state.status == "FINISHED" and t.state.result.reason == "STALEMATE"


def test_db_rul_30_best_of_three():
    t = started(options={"match_games": 3})
    t.ev("concede", B, player=B)
    assert GAME.outcome(t.state).status == "in_progress" and GAME.outcome(t.state).score == {A: 1, B: 0}
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", JUDGE, game_index=3, says="game 2")
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", A, game_index=2, says="only the judge")
    t.ev("game_started", JUDGE, game_index=2)
    t.setup(first=B)
    t.ev("concede", B, player=B)
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.score) == ("won", A, {A: 2, B: 0})
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", JUDGE, game_index=3, says="already has a result")


# -- judge events (§8) -------------------------------------------------------------------------
def test_db_rwd_2_judge_only():
    t = started()
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "judge_adjust", A, ops=[], reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "rewind", A, to_seq=2, reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "void_game", B, reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "declare_result", B, outcome="DRAW", reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "correct", A, at_seq=2, event={"type": "play_card", "by": A, "card": "S3"}, reason="x")


def test_db_rwd_3_rewind_scope_and_override():
    t = started()
    t.play("S3")
    t.end_turn()
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=6, reason="x", says="leaves the current turn 2")
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=3, reason="x", judge_override=False, says="into the setup")
    t.ev("rewind", JUDGE, to_seq=6, reason="x", judge_override=True)
    assert t.state.turn_number == 1 and field(t.state, A) == {"S3"}
    t2 = started(options={"rewind_scope": "any"})
    t2.play("S3")
    t2.end_turn()
    t2.ev("rewind", JUDGE, to_seq=6, reason="x")


def test_db_rwd_6_correction_and_conflict():
    t = started()
    seq = t.ev("play_card", A, card="S3")
    t.play("H9")
    t.ev("correct", JUDGE, at_seq=seq, event={"type": "play_card", "by": A, "card": "DK"}, reason="forgotten")
    assert field(t.state, A) == {"DK", "S3", "H9"} and t.state.player(A).hand_count == 2
    refuse(t, "DB-RWD-6", "ILLEGAL_ACTION", "correct", JUDGE, at_seq=seq, event={"type": "rule_cards_selected", "by": A, "rule_cards": RULE_CARDS}, reason="x", says="play event or a judge_adjust")
    t.play("CA", "JK1")  # hand 0
    refuse(t, "DB-RWD-6", "CORRECTION_CONFLICT", "correct", JUDGE, at_seq=seq, event={"type": "play_card", "by": A, "card": "C5"}, reason="x", says="DB-ACT-10 (CARD_NOT_IN_HAND)")
    # the inserted event itself illegal: its own rule
    refuse(t, "DB-ACT-8", "WRONG_PHASE", "correct", JUDGE, at_seq=seq, event={"type": "draw", "by": A, "count": 1}, reason="x")


def test_db_rwd_7_judge_adjust_outside_timing_rules():
    """DB-RWD-7: the judge's ops apply now, outside timing and phase rules."""
    t = battle_position(["S3", "H9"], ["DK"])
    t.advance()
    t.ev("declare_attack", B, attacker="DK", target="S3")
    seq = t.adjust([{"op": "MOVE", "card": "H9", "from": "field", "to": "hand", "player": A},
                    {"op": "CANCEL_ATTACK"}], "the table had already returned H9; the attack was withdrawn")
    s = t.state
    assert seq and s.attack is None and field(s, A) == {"S3"} and "H9" in s.player(A).hand_known
    assert s.player(B).unit("DK").attacked


def test_db_rwd_11_declare_result_and_void():
    t = started()
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="WIN", reason="x", says="names the winner")
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="DRAW", winner=A, reason="x", says="no winner")
    t.ev("declare_result", JUDGE, outcome="WIN", winner=B, reason="slow play")
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="DRAW", reason="x", says="already over")
    t.ev("void_game", JUDGE, reason="marked deck")
    assert GAME.outcome(t.state).status == "void" and [r.outcome for r in t.state.match.results] == ["VOID"]
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "void_game", JUDGE, reason="x", says="already void")


def test_db_rwd_12_rewind_with_override_reopens_a_finished_game():
    t = started()
    seq = t.ev("play_card", A, card="S3")
    t.ev("concede", B, player=B)
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=seq, reason="x", says="ended the game")
    t.ev("rewind", JUDGE, to_seq=seq, reason="the concession was a misunderstanding", judge_override=True)
    assert t.state.status == "IN_PROGRESS" and t.state.result is None and t.state.match.results == ()


# -- shipped data -------------------------------------------------------------------------------
def test_sample_catalog_fixture_matches_the_package():
    import json

    shipped = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave" / "rule-cards.sample.json").read_text())
    assert shipped["rule_cards"] == json.loads(json.dumps(msgspec.to_builtins(SAMPLE_CATALOG)))
    assert "SAMPLE" in shipped["note"].upper()


def test_cards_are_conserved_in_every_rule_test_position():
    t = battle_position(["S3", "H9"], ["DK"])
    for p in t.state.players:
        assert count_cards(p) == 54


def test_db_rul_30_alternate_first_player_db_act_4():
    t = started(options={"match_games": 3, "next_game_first_player": "alternate"})
    t.ev("concede", A, player=A)
    t.ev("game_started", JUDGE, game_index=2)
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player=A, says="alice went first in the previous game")
    t.ev("first_player_decided", JUDGE, first_player=B)


def test_db_deck_2_shipped_deck_lists():
    root = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave"
    assert GAME.check_deck(GAME.read_deck((root / "deck-standard.txt").read_text())) == []
    problems = [v.message for v in GAME.check_deck(GAME.read_deck((root / "deck-invalid.txt").read_text()))]
    assert problems == [
        "'S1' is not a card: a card is S, H, D or C followed by A, 2-10, J, Q or K (S3, HK, D10), or a joker JK1/JK2; did you mean 'SA'?",
        "S7 occurs more than once",
        "missing: S4, D7",
    ]


def test_db_rwd_2_judge_adjust_by_someone_outside_the_match():
    t = started()
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "judge_adjust", "mallory", ops=[{"op": "NOTE", "text": "x"}], reason="x", says="not even a player")
