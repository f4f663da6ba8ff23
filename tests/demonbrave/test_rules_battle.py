"""Rule tests of battles (§6.3, §6.4, §7) and of effects and the chain (§6.6): the §6.4 row of every
battle, the refusals with their rule ID and code, and the figures after each."""

from __future__ import annotations

from adjudicator.games.demonbrave import GAME
from tests.demonbrave.builder import JUDGE, Table
from tests.demonbrave.checks import battle_position, fight, refuse, started
from tests.demonbrave.replay import field, rank, trash

A, B = "alice", "bob"


# -- battle (§6.3, §6.4, §7) ------------------------------------------------------------------
def test_db_act_14_declare_attack_checks():
    t = battle_position(["S3", "H9"], ["DK", "C4", "C5"])
    refuse(t, "DB-ACT-14", "WRONG_PHASE", "declare_attack", B, attacker="DK", target="S3", says="bob's attack with DK")
    t.pair("C4", "C5")
    t.advance()
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "declare_attack", A, attacker="S3", target="DK")
    refuse(t, "DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", B, attacker="SQ", target="S3", says="no unit SQ")
    refuse(t, "DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", B, attacker="C4", target="S3", says="inside PAIR-1")
    refuse(t, "DB-ACT-14", "BAD_TARGET", "declare_attack", B, attacker="DK", target="HK", says="alice has no unit HK")
    refuse(t, "DB-LIM-2", "SINGLE_CANNOT_ATTACK_PLAYER", "declare_attack", B, attacker="DK", target="PLAYER", says="bob's single DK")
    t.ev("declare_attack", B, attacker="DK", target="S3")
    refuse(t, "DB-RES-11", "ATTACK_PENDING", "declare_attack", B, attacker="PAIR-1", target="PLAYER")
    refuse(t, "DB-RES-11", "ATTACK_PENDING", "advance_phase", B)
    t.ev("resolve_battle", B)
    refuse(t, "DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", B, attacker="DK", target="H9", says="bob's single DK already attacked")



def test_db_res_20_to_22_single_battles():
    t = battle_position(["H9", "C10", "D7", "JK1", "S5"], ["DK", "S5", "H7", "JK2", "C5"])
    t.advance()
    fight(t, "DK", "H9", "DB-RES-20", "target_trashed")  # stronger
    assert trash(t.state, A) == ["H9"]
    fight(t, "S5", "C10", "DB-RES-20", "void")  # weaker
    assert trash(t.state, A) == ["H9"] and trash(t.state, B) == []
    fight(t, "H7", "D7", "DB-RES-20", "both_trashed")  # equal
    assert trash(t.state, A) == ["H9", "D7"] and trash(t.state, B) == ["H7"]
    fight(t, "C5", "JK1", "DB-RES-21", "void")  # against the joker
    assert "JK1" in field(t.state, A) and "C5" in field(t.state, B)
    fight(t, "JK2", "S5", "DB-RES-22", "target_trashed")  # the joker beats a single
    assert trash(t.state, A) == ["H9", "D7", "S5"] and trash(t.state, B) == ["H7"]


def test_db_res_23_and_db_rul_12_joker_vs_joker():
    t = battle_position(["JK1"], ["JK2"])
    t.advance()
    fight(t, "JK2", "JK1", "DB-RES-23", "both_trashed")
    assert trash(t.state, A) == ["JK1"] and trash(t.state, B) == ["JK2"]


def test_db_res_26_and_db_lim_9_pair_vs_joker_single():
    t = battle_position(["S2", "JK1"], ["S3", "H4"])
    t.pair("S3", "H4")
    t.advance()
    fight(t, "PAIR-1", "JK1", "DB-RES-26", "void")
    assert field(t.state, A) == {"S2", "JK1"} and trash(t.state, A) == []


def test_db_res_25_pair_trashes_any_single():
    t = battle_position(["S2", "JK1"], ["S3", "H4"])
    t.pair("S3", "H4")
    t.advance()
    fight(t, "PAIR-1", "S2", "DB-RES-25", "target_trashed")  # 2 is the highest number
    assert trash(t.state, A) == ["S2"] and field(t.state, A) == {"JK1"}


def test_db_res_28_29_30_attacks_on_the_player_and_db_act_15_16():
    t = battle_position(["S3", "H3", "JK1"], ["S9", "H9", "D2", "C2"])
    t.pair("S9", "H9")
    t.pair("D2", "C2")
    t.advance()
    refuse(t, "DB-ACT-15", "ILLEGAL_ACTION", "declare_block", A, blocker="JK1", says="no attack is in progress")
    refuse(t, "DB-ACT-16", "ILLEGAL_ACTION", "resolve_battle", B, says="no attack")
    t.ev("declare_attack", B, attacker="PAIR-1", target="PLAYER")
    refuse(t, "DB-ACT-16", "BLOCK_DECISION_NEEDED", "resolve_battle", B, says="alice has not decided")
    refuse(t, "DB-ACT-15", "ILLEGAL_ACTION", "declare_block", B, blocker=None, says="only alice, who is attacked")
    refuse(t, "DB-ACT-15", "UNIT_NOT_OWNED", "declare_block", A, blocker="C4", says="alice has no unit C4")
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "resolve_battle", A)
    t.ev("declare_block", A, blocker="JK1")  # a joker blocker is trashed too (DB-RUL-11)
    forecast = GAME.view(t.state)["attack"]["outcome_if_resolved_now"]
    assert (forecast["rule"], forecast["result"]) == ("DB-RES-29", "target_trashed")
    t.ev("resolve_battle", B)
    assert trash(t.state, A) == ["JK1"] and t.state.player(A).life == 5
    fight(t, "PAIR-2", "PLAYER", "DB-RES-28", "life_lost", block=None)
    assert t.state.player(A).life == 4
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("S3", "H3")
    t.end_turn()
    t.to_phase("BATTLE")
    fight(t, "PAIR-1", "PLAYER", "DB-RES-30", "target_trashed", block="PAIR-3")  # SET [7,7] against SET [1,1]
    assert trash(t.state, A) == ["JK1", "S3", "H3"] and t.state.player(A).life == 4


def test_db_res_24_choice_rules():
    t = battle_position(["H5", "C10", "SQ"], ["SA", "S2"])
    t.advance()
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("H5", "C10", "SQ")
    t.end_turn()
    t.to_phase("BATTLE")
    t.ev("declare_attack", B, attacker="SA", target="PAIR-1")
    refuse(t, "DB-RES-24", "CHOICE_REQUIRED", "resolve_battle", B, says="H5 C10 SQ")
    refuse(t, "DB-RES-24", "INVALID_CHOICE", "resolve_battle", B, choice="HK", says="not a member")
    t.ev("resolve_battle", B, choice="SQ")
    assert trash(t.state, A) == ["SQ"]


def test_db_res_31_pair_shrinkage_keeps_the_attacked_flag():
    t = battle_position(["S2", "S5"], ["D6"])
    t.advance()
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("S2", "S5")
    t.advance()
    t.ev("declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("declare_block", B, blocker=None)
    t.ev("resolve_battle", A)
    t.end_turn()
    t.to_phase("BATTLE")
    t.attack("D6", "PAIR-1")  # S5(3) trashed; S2 becomes a single
    assert field(t.state, A) == {"S2"} and trash(t.state, A) == ["S5"]


def test_db_lim_6_block_limit_counts_per_unit():
    opts = {"blocks_per_unit_per_turn": 1, "joker_survives_block": True}
    t = battle_position(["JK1"], ["S9", "H9", "D2", "C2"], options=opts)
    t.pair("S9", "H9")
    t.pair("D2", "C2")
    t.advance()
    t.attack("PAIR-1", "PLAYER", block="JK1")
    assert "JK1" in field(t.state, A)  # DB-RUL-11 option
    t.ev("declare_attack", B, attacker="PAIR-2", target="PLAYER")
    refuse(t, "DB-LIM-6", "BLOCK_LIMIT", "declare_block", A, blocker="JK1", says="limit is 1")
    t.ev("resolve_battle", B)  # nothing could block: resolves directly (DB-ACT-16)
    assert t.state.player(A).life == 4


# -- effects and the chain (§6.6) --------------------------------------------------------------
def test_db_act_12_activation_checks():
    t = Table()
    t.setup(first=A, rule_cards={A: ["J", "T-NEG", "T-REV", "T-BURN", "SAMPLE-HEAL"], B: ["X-1", "X-2", "X-3", "X-4", "SAMPLE-GUARD"]})
    refuse(t, "DB-ACT-12", "RULE_CARD_NOT_OWNED", "activate_effect", A, rule_card="X-1", effect_id="X-1.effect", says="has not selected")
    refuse(t, "DB-ACT-12", "ILLEGAL_ACTION", "activate_effect", A, rule_card="J", effect_id="J.nope", says="has no effect")
    refuse(t, "DB-RES-40", "NOT_ALLOWED_IN_OPPONENT_TURN", "activate_effect", B, rule_card="X-1", effect_id="X-1.effect", says="judge_asserted")
    t.ev("activate_effect", B, rule_card="X-1", effect_id="X-1.effect", judge_asserted=True)
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E1", says="enter the ops")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "SET_STATUS", "target": A, "status": "CANNOT_ACTIVATE"}])
    refuse(t, "DB-ACT-12", "ILLEGAL_ACTION", "activate_effect", A, rule_card="J", effect_id="J.reverse", says="CANNOT_ACTIVATE")


def test_db_lim_7_effect_limits():
    t = Table()
    t.setup(first=A, rule_cards={A: ["J", "T-NEG", "T-REV", "T-BURN", "SAMPLE-HEAL"]})
    t.ev("activate_effect", A, rule_card="SAMPLE-HEAL", effect_id="SAMPLE-HEAL.heal")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    assert t.state.player(A).life == 6  # no cap by default (DB-RUL-24)
    refuse(t, "DB-LIM-7", "EFFECT_LIMIT", "activate_effect", A, rule_card="SAMPLE-HEAL", effect_id="SAMPLE-HEAL.heal", says="this game")


def test_db_res_41_42_43_chain():
    t = started()
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    refuse(t, "DB-RES-42", "CHAIN_OPEN", "advance_phase", A)
    refuse(t, "DB-RES-42", "CHAIN_OPEN", "form_pair", A, units=["S3", "H9"])
    refuse(t, "DB-RES-41", "NOT_TOP_OF_CHAIN", "resolve_chain_entry", JUDGE, entry_id="E1", says="E2, E1")
    t.ev("resolve_chain_entry", B, entry_id="E2")
    assert t.state.chain[-1].negated and t.state.chain_resolving
    refuse(t, "DB-RES-43", "CHAIN_RESOLVING", "activate_effect", A, rule_card="J", effect_id="J.reverse")
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "NOTE", "text": "x"}], says="negated")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")  # DB-RES-45: no ops
    assert t.state.reversals == () and t.state.chain == () and not t.state.chain_resolving
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E3", says="no chain entry")


def test_db_res_43_activations_during_resolution_option():
    t = started(options={"activations_during_resolution": True})
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2")
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])


def test_db_eff_14_invalid_ops_apply_nothing():
    t = started()
    t.play("S3")
    msg = refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x",
                 ops=[{"op": "LOSE_LIFE", "player": B, "amount": 1}, {"op": "TRASH", "cards": ["H9"]}], says="op 2 (TRASH)")
    assert "no op of this event was applied" in msg
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "MODIFY_STRENGTH", "card": "JK1", "mode": "SHIFT", "value": 1}], says="joker")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "NEGATE", "entry_id": "E4"}], says="not an unresolved entry")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "CANCEL_ATTACK"}], says="no attack")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "MOVE", "card": "S3", "from": "hand", "to": "trash", "player": A}], says="cannot be")


def test_db_eff_ops_statuses_modifiers_and_protection():
    t = battle_position(["S3", "H9"], ["DK", "C4", "C5"])
    t.pair("C4", "C5")
    t.adjust([
        {"op": "SET_STATUS", "target": "S3", "status": "CANNOT_BE_TRASHED", "player": A, "duration": {"kind": "END_PHASE"}},
        {"op": "SET_STATUS", "target": "H9", "status": "CANNOT_BE_ATTACKED", "player": A},
        {"op": "SET_STATUS", "target": "DK", "status": "MAY_ATTACK_PLAYER", "player": B},
        {"op": "MODIFY_STRENGTH", "card": "C4", "mode": "SET_NUMBER", "value": "2", "player": B, "duration": {"kind": "PERMANENT"}},
    ], "test statuses")
    assert rank(t.state, B, "PAIR-1") == ("RUN", (13, 3))  # modifier changes strength, not membership (DB-RUL-33)
    t.advance()
    refuse(t, "DB-ACT-14", "BAD_TARGET", "declare_attack", B, attacker="DK", target="H9", says="CANNOT_BE_ATTACKED")
    t.attack("PAIR-1", "S3")  # DB-RES-32: S3 stays
    assert "S3" in field(t.state, A) and trash(t.state, A) == []
    t.ev("declare_attack", B, attacker="DK", target="PLAYER")  # MAY_ATTACK_PLAYER
    t.ev("declare_block", A, blocker=None)
    t.ev("resolve_battle", B)
    assert t.state.player(A).life == 4
    t.end_turn()
    assert all(s.target != "S3" for s in t.state.statuses)  # END_PHASE status expired (DB-TURN-7)
    assert t.state.modifiers  # PERMANENT stays


def test_db_rul_26_vanished_target_keeps_the_flag():
    t = battle_position(["HQ"], ["D4", "C4"])
    t.pair("D4", "C4")
    t.advance()
    t.ev("declare_attack", B, attacker="PAIR-1", target="HQ")
    t.ev("activate_effect", A, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["HQ"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    assert GAME.view(t.state)["attack"]["outcome_if_resolved_now"]["rule"] == "DB-RUL-26"
    t.ev("resolve_battle", B)
    assert t.state.attack is None and t.state.player(B).unit("PAIR-1").attacked
    assert t.state.player(A).hand_count == 5 and "HQ" in t.state.player(A).hand_known
