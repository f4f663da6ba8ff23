"""Effect primitives (§10), checks (§9), results and the correction gates' own rules."""

from __future__ import annotations

import pytest

from adjudicator.engine import registry
from adjudicator.games.pbwcg import values as V
from tests.pbwcg.builder import Table
from tests.pbwcg.helpers import CHK, main1, turn1

GAME = registry.get("pbwcg")


def eff(t: Table, *ops: dict, by: str = "judge", **extra) -> int:
    return t.act("effect", by, source="test", ops=list(ops), **extra)


def bad(t: Table, rule: str, *ops: dict, by: str = "judge", **extra) -> None:
    t.refuse(rule, "effect", by, source="test", ops=list(ops), **extra)


def test_effect_authors_PBW_ACT_27_and_PBW_EFF_3():
    t = turn1()
    bad(t, "PBW-ACT-27", {"op": "hp_damage", "player": "P2", "n": 1}, by="P1")
    bad(t, "PBW-ACT-27", {"op": "hp_damage", "player": "P2", "n": 1}, by="P1", confirmations=["P1"])
    eff(t, {"op": "hp_damage", "player": "P2", "n": 1}, by="P1", confirmations=["P1", "P2"])
    bad(t, "PBW-EFF-3", {"op": "hp_adjust", "player": "P2", "delta": 5}, by="P1", confirmations=["P1", "P2"])
    assert t.hp("P2") == 17
    bad(t, "PBW-EFF-25", {"op": "hp_damage", "player": "P3", "n": 1})
    bad(t, "PBW-EFF-25", {"op": "endurance_damage", "character": "ZZ", "n": 1})
    u = Table()
    u.refuse("PBW-TURN-9", "effect", "judge", source="too early", ops=[])


def test_zone_ops_PBW_EFF_8_9_10_21():
    t = turn1("X")
    bad(t, "PBW-EFF-8", {"op": "draw", "player": "P1", "cards": ["X"]})
    eff(t, {"op": "draw", "player": "P1", "cards": ["Y"]})
    bad(t, "PBW-EFF-9", {"op": "discard_from_hand", "player": "P1", "cards": ["Z"]})
    eff(t, {"op": "discard_from_hand", "player": "P1", "cards": ["Y"]})
    bad(t, "PBW-EFF-10", {"op": "move_card", "card": "Z", "from": "hand", "to": "discard"})
    eff(t, {"op": "move_card", "card": "Y", "from": "discard", "to": "deck", "position": "top"})
    assert t.state.player("P1").deck[0] == "Y" and "Y" not in t.state.player("P1").discard
    bad(t, "PBW-EFF-21", {"op": "mark_special_hand", "card": "Z"})
    eff(t, {"op": "mark_special_hand", "card": "X"})
    assert t.state.player("P1").special_hand == ("X",)


def test_character_ops_PBW_EFF_11_18_20_23():
    t = turn1()
    bad(t, "PBW-EFF-11", {"op": "summon_pc", "player": "P1", "card": "B1", "slot": 2})
    eff(t, {"op": "summon_pc", "player": "P1", "card": "A3", "slot": 2, "add_hp": False})
    assert t.hp("P1") == 21 and t.char("A3").slot == 2 and t.state.player("P1").placements_used == 0
    bad(t, "PBW-EFF-18", {"op": "reposition", "pc": "A3", "slot": 7})
    eff(t, {"op": "reposition", "pc": "A3", "slot": 1})
    assert (t.char("A3").slot, t.char("A1").slot) == (1, 2)
    bad(t, "PBW-EFF-20", {"op": "set_max_pc_count", "player": "P1", "n": 2})
    eff(t, {"op": "set_max_pc_count", "player": "P1", "n": 6})
    assert t.view()["players"]["P1"]["placement_cap"] == 3
    bad(t, "PBW-EFF-23", {"op": "grant_action", "character": "A1"})


def test_grant_action_and_wp_PBW_EFF_7():
    t = main1(upto="A1")
    eff(t, {"op": "grant_action", "character": "A1", "n": 1})
    t.act("wait", "P1", actor="A1")
    t.act("normal_attack", "P1", actor="A1", target="B1")
    t.refuse("PBW-LIM-19", "wait", "P1", actor="A1")
    bad(t, "PBW-LIM-21", {"op": "wp_change", "pc": "A1", "delta": -7})
    eff(t, {"op": "wp_change", "pc": "A1", "delta": 5})
    assert t.char("A1").wp == 6  # capped by the printed WP


def test_endurance_ops_and_max_PBW_EFF_5_6_22():
    t = turn1()
    eff(t, {"op": "endurance_damage", "character": "A1", "n": 5}, {"op": "endurance_heal", "character": "A1", "n": 9})
    assert t.char("A1").endurance == 8
    eff(t, {"op": "set_endurance_max", "character": "A1", "n": 4})
    assert (t.char("A1").endurance, t.char("A1").endurance_max) == (4, 4)


def test_field_state_PBW_LIM_18_and_PBW_EFF_19():
    t = turn1()
    bad(t, "PBW-EFF-19", {"op": "set_field", "card": "NOPE"})
    eff(t, {"op": "set_field", "card": "FD", "duration": 1})
    eff(t, {"op": "set_field", "card": "FD2", "duration": 1})
    assert t.state.field_state.card == "FD2" and "FD" in t.state.player("P1").discard
    t.pl_turns()
    t.act("field_effect", "P2", source="FD2", ops=[{"op": "hp_damage", "player": "P1", "n": 1}])
    t.field_step()
    assert t.state.field_state is None and t.state.player("P2").discard == ("FD2",) and t.hp("P1") == 20


def test_a_field_effect_is_offered_to_and_entered_by_its_cards_owner_PBW_ACT_14_PBW_TURN_8():
    """At T5 the owner of the field state (or of a face-up persistent set card) carries out its
    per-turn effect (PBW-ACT-14): ``legal`` offers field_effect to that player; another player's
    entry is refused by PBW-TURN-8 (each player enters their own actions) and the judge's accepted."""
    t = turn1()
    eff(t, {"op": "set_field", "card": "FD2", "duration": 2})
    t.pl_turns()
    offered = [(a.who, a.choices["source"].values, a.choices["ops"].values) for a in GAME.legal(t.state) if a.type == "field_effect"]
    assert offered == [("P2", ("FD2",), ([],))]
    hit = [{"op": "hp_damage", "player": "P1", "n": 1}]
    v = t.refuse("PBW-TURN-8", "field_effect", "P1", source="FD2", ops=hit)
    assert v.code == "NOT_ACTOR" and t.hp("P1") == 21
    t.act("field_effect", "P2", source="FD2", ops=hit)
    t.act("field_effect", "judge", source="FD2", ops=hit)
    assert t.hp("P1") == 19


def test_summon_support_rules_PBW_EFF_12():
    t = turn1()
    bad(t, "PBW-EFF-12", {"op": "summon_support", "card": "X", "field_player": "P1", "master": "A1"})
    bad(t, "PBW-EFF-12", {"op": "summon_support", "card": "S1", "field_player": "P1", "master": "B1"})
    eff(t, {"op": "summon_support", "card": "S1", "field_player": "P1", "master": "A1"})
    assert t.char("S1").controller == "P1" and t.view()["players"]["P1"]["hp_cap"] == 31


def test_checks_PBW_HID_4_and_PBW_HID_5():
    t = main1(upto="A2")
    t.refuse("PBW-HID-4", "normal_attack", "P1", actor="A2", target="B1", bs="Poison", checks={"receipt": {**CHK}})
    t.refuse("PBW-HID-5", "normal_attack", "P1", actor="A2", target="B1", bs="Poison",
             checks={"receipt": {"declarer": "P1", "roller": "P1", "declared": "odd", "die": 1}})
    t.refuse("PBW-HID-5", "normal_attack", "judge", actor="A2", target="B1", bs="Poison",
             checks={"receipt": {"declarer": "P2", "roller": "P2", "declared": "odd", "die": 1}})
    t.act("normal_attack", "judge", actor="A2", target="B1", bs="Poison",
          checks={"receipt": {"declarer": "P2", "roller": "P2", "method": "other", "success": True, "override_roles": True}})
    assert t.char("B1").bs == ()


def test_surrender_draw_and_confirmation():
    t = turn1()
    t.refuse("PBW-ACT-31", "result_confirmed", "P1", confirmations=["P1", "P2"])
    t.refuse("PBW-ACT-30", "draw_agreed", "P1", confirmations=["P1"])
    t.refuse("PBW-ACT-29", "surrender", "judge", player="P9")
    t.refuse("PBW-TURN-8", "surrender", "P1", player="P2")
    t.act("surrender", "P2", player="P2")
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("won", "P1", "surrender")
    t.refuse("PBW-OVR-3", "pl_turn_ended", "P1", player="P1")
    t.refuse("PBW-ACT-31", "result_confirmed", "P1", confirmations=["P1"])
    t.act("result_confirmed", "P1", confirmations=["P1", "P2"])
    t.refuse("PBW-COR-13", "rewind", "P1", to_seq=3, reason="x", basis="record_fix", confirmations=["P1", "P2"])
    t.refuse("PBW-ACT-31", "result_confirmed", "P1", confirmations=["P1", "P2"])
    d = turn1()
    d.act("draw_agreed", "P1", confirmations=["P1", "P2"])
    assert GAME.outcome(d.state).status == "drawn" and GAME.outcome(d.state).reason == "agreement"


def test_correction_basis_and_point_PBW_COR_1_and_PBW_COR_7():
    t = turn1()
    t.refuse("PBW-COR-1", "rewind", "P1", to_seq=3, reason="x", confirmations=["P1", "P2"])
    t.refuse("PBW-COR-1", "correct", "P1", at_seq=3, reason="x", confirmations=["P1", "P2"],
             event={"type": "effect", "by": "judge", "source": "s", "ops": []})
    t.refuse("PBW-COR-7", "correct", "P1", at_seq=1, reason="x", basis="record_fix", confirmations=["P1", "P2"],
             event={"type": "effect", "by": "judge", "source": "s", "ops": []})
    t.refuse("PBW-COR-7", "rewind", "P1", to_seq=t.fold.head, reason="x", basis="record_fix", confirmations=["P1", "P2"])
    t.refuse("PBW-COR-3", "correct", "P1", at_seq=3, reason="x", basis="forgotten_check", confirmations=["P1", "P2"],
             event={"type": "effect", "by": "judge", "source": "s", "ops": []})
    t.refuse("PBW-COR-14", "rewind", "P1", to_seq=3, reason="x", basis="forgotten_check", confirmations=["P1", "P2"])
    t.act("correct", "P1", at_seq=5, reason="a draw nobody entered", basis="record_fix", confirmations=["P1", "P2"],
          event={"type": "effect", "by": "judge", "source": "record", "ops": [{"op": "hp_damage", "player": "P2", "n": 1}]})
    assert t.hp("P2") == 17


@pytest.mark.parametrize(("e", "dv", "attack", "target", "d", "end"), [
    (12, 4, "BODY", "BODY", 8, 2), (15, 3, "BODY", "TECH", 12, 4), (4, 6, "TECH", "BODY", 0, 0),
    (9, 4, "MIND", "BODY", 5, 2), (10, 4, "MIND", "MIND", 6, 2), (14, 3, "MIND", "MIND", 11, 3),
])
def test_damage_table_PBW_RES_7(e, dv, attack, target, d, end):
    """EX-6: D = max(0, E - DV), then the band and the attribute adjustment."""
    s = turn1().state
    assert max(0, e - dv) == d
    assert V.endurance_damage(s, d, attack, target) == end


def test_no_superiority_turns_off_adjustments_PBW_RUL_2():
    s = turn1(options={"superiority": []}).state
    assert V.endurance_damage(s, 3, "BODY", "TECH") == 1 and not V.superior(s, "MIND", "BODY")


def test_row_major_forced_move_PBW_LIM_22():
    t = turn1(options={"slot_numbering": "row_major"})
    assert V.is_back(t.state, "P2", 3) and V.front_of(t.state, "P2", 4) == 2
    eff(t, {"op": "reposition", "pc": "B2", "slot": 4}, {"op": "incapacitate", "character": "B1"})
    assert t.char("B2").slot == 2


def test_support_hits_and_master_PBW_RUL_37():
    t = main1(upto="B1", options={"support_vanishes_with_master": False, "support_hits_reduce_pl_hp": True})
    eff(t, {"op": "summon_support", "card": "S3", "field_player": "P1", "master": "A1"})
    eff(t, {"op": "attack", "value": 9, "attribute": "BODY", "targets": ["S3"], "single_target": False})
    assert t.hp("P1") == 21 - (9 - 1) and t.char("S3").endurance == 6 - 2
    eff(t, {"op": "incapacitate", "character": "A1"}, {"op": "incapacitate", "character": "A2"})
    assert t.char("S3") is not None  # stays without its master
    t.act("normal_attack", "P2", actor="B1", target="P1")
    assert t.hp("P1") == 13 - 3


def test_both_at_zero_in_t5_is_a_draw_even_for_the_active_side_PBW_RUL_3():
    """PBW-OVR-6, PBW-RUL-3: T5 has no active side, so active_player_wins still gives a draw."""
    t = turn1(options={"simultaneous_defeat": "active_player_wins"})
    t.pl_turns()
    eff(t, {"op": "hp_damage", "player": "P1", "n": 21}, {"op": "hp_damage", "player": "P2", "n": 18})
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("drawn", None, "both_hp_zero")
    u = turn1(options={"simultaneous_defeat": "active_player_wins"})
    eff(u, {"op": "hp_damage", "player": "P1", "n": 21}, {"op": "hp_damage", "player": "P2", "n": 18})
    assert GAME.outcome(u.state).winner == "P1"  # in P1's PL turn, P1 is the active side


def test_views_hide_hands_and_face_down_cards_PBW_HID_1():
    t = turn1("X")
    t.act("card_set", "P1", player="P1", card="X", set_slot=1)
    mine, theirs = GAME.view(t.state, "P1"), GAME.view(t.state, "P2")
    assert mine["players"]["P1"]["set_zone"][0]["card"] == "X" and theirs["players"]["P1"]["set_zone"][0]["card"] == "(hidden)"
    assert theirs["players"]["P1"]["hand"] == "(hidden)" and theirs["players"]["P1"]["hand_count"] == 4
    assert "X" not in GAME.describe(t.state, "P2") and "P1's set zone: 1 X face down" in GAME.describe(t.state, None)
    assert "P1's set zone: 1 face down" in GAME.describe(t.state, "P2")


def test_a_bs_from_the_targets_own_ability_comes_without_a_check_PBW_RES_8():
    """PBW-RES-8: a BS caused by the target's own action needs no receipt check, and as
    ability_self it ignores the history rule (PBW-LIM-13 (c))."""
    t = main1(upto="A1")
    eff(t, {"op": "apply_bs", "character": "A1", "bs": "Rage"}, {"op": "remove_bs", "character": "A1", "bs": "Rage"})
    t.refuse("PBW-RES-8", "ability_used", "P1", actor="A1", ability={"name": "Berserk", "attribute": "TECH", "bs": "Rage"},
             targets=["A1"], checks={"A1": {"receipt": {"declarer": "P1", "roller": "P2", "declared": "odd", "die": 1}}})
    t.act("ability_used", "P1", actor="A1", ability={"name": "Berserk", "attribute": "TECH", "bs": "Rage"}, targets=["A1"])
    assert [b.name for b in t.char("A1").bs] == ["Rage"] and t.char("A1").bs[0].source == "ability_self"


def test_pbw_lim_17_one_item_is_never_over_a_limit():
    """``over_full_part`` answers None at once for fewer than two items: that holds while every
    part's limit is 1 or more and one item fills at most both hands."""
    assert min(V.PART_LIMIT.values()) >= 1
