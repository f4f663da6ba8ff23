"""Turn structure, PL turns and main turns (rules/pbwcg.md §4, §5, §7): each refusal with its rule
ID, and the state that stays as it was."""

from __future__ import annotations

import pytest

from adjudicator.engine.fold import decode_event
from adjudicator.engine.protocol import Malformed
from tests.pbwcg.builder import GAME, Table
from tests.pbwcg.golden_a import TIE_B1_A2, p1_draw
from tests.pbwcg.helpers import CHK, main1, turn1, turn2


def test_tie_break_rules_PBW_ACT_6():
    t = Table()
    t.setup()
    t.act("turn_started", "P1", turn=1)
    t.refuse("PBW-TURN-9", "cards_drawn", "P1", player="P1", cards=p1_draw())
    t.refuse("PBW-ACT-6", "tie_break", "P1", members=["A1", "B1"], method="other", order=["A1", "B1"])
    t.refuse("PBW-ACT-6", "tie_break", "P1", members=["A2", "B1"], order=["A2", "B1"])
    t.refuse("PBW-ACT-6", "tie_break", "P1", members=["A2", "B1"], assignment={"A2": [1, 2], "B1": [3, 4]}, rolls=[1], order=["A2", "B1"])
    t.refuse("PBW-ACT-6", "tie_break", "P1", members=["A2", "B1"], assignment={"A2": [1, 2, 3], "B1": [3, 4, 5]}, rolls=[1], order=["A2", "B1"])
    t.refuse("PBW-ACT-6", "tie_break", "P1", **{**TIE_B1_A2, "rolls": [5, 1]})
    t.refuse("PBW-ACT-6", "tie_break", "P1", **{**TIE_B1_A2, "rolls": []})
    t.refuse("PBW-ACT-6", "tie_break", "P1", **{**TIE_B1_A2, "order": ["B1", "A1"]})
    t.refuse("PBW-ACT-6", "tie_break", "P1", **{**TIE_B1_A2, "method": "other"})
    assert t.state.pending_ties == (("A2", "B1"),)
    t.act("tie_break", "judge", members=["B1", "A2"], method="other", order=["B1", "A2"])
    assert t.state.action_order == ("B1", "A2", "A1", "B2") and t.state.step == "T2"


def test_a_tie_broken_by_another_fair_method_without_the_judge_needs_both_players_PBW_TURN_11():
    """§15: a tie broken by method other without a judge carries the confirmations of both
    players; the judge's own entry needs none."""
    t = Table()
    t.setup()
    t.act("turn_started", "P1", turn=1)
    v = t.refuse("PBW-TURN-11", "tie_break", "P1", members=["A2", "B1"], method="other", order=["A2", "B1"], confirmations=["P1"])
    assert v.message == "a tie broken by method other without the judge needs the confirmation of P1, P2; missing P2"
    t.refuse("PBW-TURN-11", "tie_break", "P2", members=["A2", "B1"], method="other", order=["A2", "B1"])
    assert t.state.pending_ties == (("A2", "B1"),) and t.state.action_order == ()
    t.act("tie_break", "P2", members=["A2", "B1"], method="other", order=["A2", "B1"], confirmations=["P1", "P2"])
    assert t.state.action_order == ("A2", "B1", "A1", "B2") and t.state.pl_order == ("P2", "P1")
    u = Table({"judge_present": True})
    u.setup()
    u.act("turn_started", "P1", turn=1)
    u.refuse("PBW-TURN-11", "tie_break", "P1", members=["A2", "B1"], method="other", order=["A2", "B1"], confirmations=["P1", "P2"])
    u.act("tie_break", "judge", members=["A2", "B1"], method="other", order=["A2", "B1"])
    assert u.state.action_order == ("A2", "B1", "A1", "B2")


def test_a_character_leaving_the_field_leaves_its_tie_group_PBW_TURN_2():
    """PBW-TURN-2 (5): a character that leaves the field loses its place, also while its tie
    waits to be broken; a group left with one member needs no tie-break, and the order is made."""
    t = Table()
    t.setup()
    t.act("turn_started", "P1", turn=1)
    assert t.state.pending_ties == (("A2", "B1"),)
    t.act("effect", "judge", source="fixture: A2 falls", ops=[{"op": "incapacitate", "character": "A2"}])
    assert t.state.pending_ties == () and t.state.step == "T2"
    assert t.state.action_order == ("B1", "A1", "B2") and t.state.pl_order == ("P1", "P2")
    t.refuse("PBW-TURN-9", "tie_break", "P1", members=["A2", "B1"], method="other", order=["B1", "A2"], confirmations=["P1", "P2"])


def test_draws_PBW_ACT_7():
    t = Table()
    t.setup()
    t.act("turn_started", "P1", turn=1)
    t.act("tie_break", "P1", **TIE_B1_A2)
    t.refuse("PBW-ACT-7", "cards_drawn", "P1", player="P1", cards=p1_draw()[:4])
    t.refuse("PBW-ACT-7", "cards_drawn", "P1", player="P1", cards=["B1", "P1F01", "P1F02", "P1F03", "P1F04"])
    t.refuse("PBW-ACT-7", "cards_drawn", "P1", player="P1", cards=["A1", "P1F01", "P1F02", "P1F03", "P1F04"])
    t.refuse("PBW-TURN-8", "cards_drawn", "P2", player="P1", cards=p1_draw())
    t.refuse("PBW-ACT-7", "cards_drawn", "judge", player="P9", cards=p1_draw())
    t.act("cards_drawn", "P1", player="P1", cards=p1_draw())
    t.refuse("PBW-ACT-7", "cards_drawn", "P1", player="P1", cards=["P1F06"])
    t.refuse("PBW-TURN-9", "pl_turn_ended", "P1", player="P1")
    assert t.state.step == "T2" and len(t.state.player("P1").hand) == 5


def test_pl_turn_placements():
    t = turn1("X", "A3", "E1", "W", "Y")
    t.refuse("PBW-TURN-4", "card_set", "P2", player="P2", card="P2F01", set_slot=1)
    t.refuse("PBW-TURN-8", "card_set", "P2", player="P1", card="X", set_slot=1)
    t.refuse("PBW-ACT-8", "card_set", "P1", player="P1", card="A3", set_slot=1)
    t.refuse("PBW-ACT-8", "card_set", "P1", player="P1", card="Z", set_slot=1)
    t.refuse("PBW-LIM-7", "card_set", "P1", player="P1", card="X", set_slot=6)
    t.act("card_set", "P1", player="P1", card="X", set_slot=1)
    t.refuse("PBW-LIM-7", "card_set", "P1", player="P1", card="W", set_slot=1)
    t.refuse("PBW-ACT-9", "pc_summoned", "P1", player="P1", card="E1", slot=2)
    t.refuse("PBW-LIM-8", "pc_summoned", "P1", player="P1", card="A3", slot=1)
    t.refuse("PBW-LIM-8", "pc_summoned", "P1", player="P1", card="A3", slot=5)
    t.refuse("PBW-ACT-10", "equipped", "P1", player="P1", card="E1", pc="B1")
    t.refuse("PBW-ACT-10", "equipped", "P1", player="P1", card="A3", pc="A1")
    t.refuse("PBW-ACT-11", "set_card_discarded", "P1", player="P1", set_slot=2)
    t.refuse("PBW-ACT-12", "set_card_activated", "P1", player="P1", set_slot=2)
    t.act("pc_summoned", "P1", player="P1", card="A3", slot=4)
    assert t.hp("P1") == 28 and t.char("A3").entered_turn == 1
    t.refuse("PBW-LIM-1", "card_set", "P1", player="P1", card="W", set_slot=2)
    t.act("set_card_discarded", "P1", player="P1", set_slot=1)
    assert t.state.player("P1").discard == ("X",)
    t.act("pl_turn_ended", "P1", player="P1")
    t.refuse("PBW-TURN-4", "pl_turn_ended", "P1", player="P1")
    t.act("pl_turn_ended", "P2", player="P2")
    t.refuse("PBW-ACT-14", "field_effect", "judge", source="X", ops=[])
    t.refuse("PBW-TURN-9", "main_turn_started", "P1", actor="A1")
    t.field_step()
    t.refuse("PBW-ACT-16", "main_turn_started", "P1", actor="A1")
    t.refuse("PBW-ACT-16", "main_turn_started", "P1", actor="A3")
    t.refuse("PBW-ACT-25", "turn_ended", "P1")
    assert t.state.action_order == ("B1", "A2", "A1", "B2")


def test_main_turn_steps_and_actions():
    t = main1("E1", upto="B1")
    t.refuse("PBW-TURN-9", "main_turn_started", "P2", actor="B1")
    t.refuse("PBW-TURN-8", "wait", "P1", actor="B1")
    t.refuse("PBW-ACT-16", "wait", "P1", actor="A1")
    t.refuse("PBW-ACT-19", "normal_attack", "P2", actor="B1", target="B2")
    t.refuse("PBW-ACT-19", "normal_attack", "P2", actor="B1", target="nobody")
    t.refuse("PBW-RES-9", "normal_attack", "P2", actor="B1", target="P1")
    t.refuse("PBW-RES-9", "normal_attack", "P2", actor="B1", target="P2")
    t.refuse("PBW-ACT-18", "equipment_discarded", "P2", pc="B1", cards=["E1"])
    t.refuse("PBW-ACT-17", "bs_effect", "P2", actor="B1", bs="Poison", ops=[])
    t.refuse("PBW-ACT-23", "main_turn_ended", "P2", actor="B2")
    t.refuse("PBW-ACT-21", "move", "P2", actor="B1", to_slot=1)
    t.refuse("PBW-ACT-21", "move", "P2", actor="B1", to_slot=9)
    t.refuse("PBW-ACT-20", "ability_used", "P2", actor="B1", ability={"name": "Two", "single_target": True}, targets=["A1", "A2"])
    t.refuse("PBW-RES-6", "normal_attack", "P2", actor="B1", target="A1", checks={"evasion": [{**CHK, "declared": "odd", "die": 1}]})
    t.refuse("PBW-RES-8", "normal_attack", "P2", actor="B1", target="A1", checks={"receipt": {**CHK, "declared": "odd", "die": 1}})
    t.act("move", "P2", actor="B1", to_slot=2)
    assert t.char("B1").slot == 2
    t.refuse("PBW-TURN-9", "bs_effect", "P2", actor="B1", bs="Poison", ops=[])
    t.refuse("PBW-TURN-9", "bs_recovery_check", "P2", actor="B1", bs="Poison", check={**CHK, "declared": "odd", "die": 1})
    t.end("B1")
    t.refuse("PBW-TURN-9", "main_turn_ended", "P2", actor="B1")
    t.refuse("PBW-TURN-9", "wait", "P2", actor="B1")
    t.refuse("PBW-ACT-24", "bs_recovery_check", "P2", actor="B1", bs="Poison", check={**CHK, "declared": "odd", "die": 1})
    t.refuse("PBW-ACT-24", "bs_recovery_check", "P1", actor="A2", bs="Poison", check={**CHK, "declared": "odd", "die": 1})
    assert t.state.main.step == "M5"


def test_ability_rules_PBW_ACT_20_and_wp():
    t = main1(upto="A1")
    t.act("ability_used", "P1", actor="A1", ability={"name": "Smash", "attribute": "NONE", "modifier": 1, "wp_cost": 6}, targets=["B2"])
    # NONE: the highest AV (BODY 7) + 1 = 8 vs B2's DV MIND 3 -> D 5; the attack has no attribute -> endurance 1
    assert (t.hp("P2"), t.char("B2").endurance, t.char("A1").wp) == (13, 7, 0)
    t.end("A1")


def test_registered_abilities_bind_the_name_PBW_ACT_20():
    from tests.pbwcg.builder import sample_deck

    deck = sample_deck("P1")
    for c in deck["deck"]:
        if c["id"] == "A1":
            c["abilities"] = [{"name": "Smash", "attribute": "BODY", "modifier": 2, "wp_cost": 1}]
    t = Table(decks={"P1": deck, "P2": sample_deck("P2")})
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.idle("A2")
    t.begin("A1")
    from adjudicator.engine import registry

    offered = [a for a in registry.get("pbwcg").legal(t.state) if a.type == "ability_used"]
    assert [a.choices["ability"].values for a in offered] == [({"name": "Smash", "attribute": "BODY", "modifier": 2, "wp_cost": 1},)]
    t.refuse("PBW-ACT-20", "ability_used", "P1", actor="A1", ability={"name": "Fly"}, targets=["B1"])
    t.act("ability_used", "P1", actor="A1", ability={"name": "Smash", "attribute": "BODY", "modifier": 2, "wp_cost": 1}, targets=["B1"])
    assert t.hp("P2") == 18 - (9 - 3)


def test_a_card_without_registered_abilities_is_offered_any_ability_PBW_ACT_20():
    """A PC whose card registers no abilities may use one its race and class give (PBW-ACT-20, the
    judge asserts it): ``legal`` offers ability_used to its controller, and what it offers is
    accepted: all of A1's WP 6 paid (PBW-LIM-21), BODY + 0 on B1 deals 2 less than Smash's BODY + 2."""
    t = Table()
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.idle("A2")
    t.begin("A1")
    offered = [a for a in GAME.legal(t.state) if a.type == "ability_used"]
    assert [(a.who, a.choices["actor"].values, a.choices["targets"].values) for a in offered] == [("P1", ("A1",), ([], ["B1"], ["B2"]))]
    menu = offered[0].choices["ability"].values
    assert menu == tuple({"attribute": attr, "wp_cost": cost} for attr in ("BODY", "TECH", "MIND", "NONE") for cost in (0, 6))
    t.refuse("PBW-LIM-21", "ability_used", "P1", actor="A1", ability={"attribute": "BODY", "wp_cost": 7}, targets=["B1"])
    t.act("ability_used", "P1", actor="A1", ability={"attribute": "BODY", "wp_cost": 6}, targets=["B1"])
    assert (t.char("A1").wp, t.hp("P2"), t.char("B1").endurance) == (0, 18 - 4, 7)


def test_an_ability_that_attacks_no_one_is_offered_and_pays_its_cost_PBW_ACT_20():
    """An ability naming no targets (its text in ``ops``) is offered too: it uses the action and
    pays its WP, and no one takes damage."""
    t = main1(upto="A1")
    offered = next(a for a in GAME.legal(t.state) if a.type == "ability_used")
    assert [] in offered.choices["targets"].values
    t.act("ability_used", "P1", actor="A1", ability={"attribute": "MIND", "wp_cost": 6}, targets=[])
    assert (t.char("A1").wp, t.hp("P2"), t.state.main.actions_left) == (0, 18, 0)
    assert "ability_used" not in {a.type for a in GAME.legal(t.state)}


def test_turn_end_and_hand_discard_PBW_ACT_26():
    t = turn1()
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.act("turn_ended", "P2")
    t.refuse("PBW-ACT-26", "hand_discarded", "P1", player="P1", cards=["P1F01"])
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.refuse("PBW-ACT-26", "hand_discarded", "P1", player="P1", cards=["P1F01", "P1F02"])
    t.refuse("PBW-ACT-26", "hand_discarded", "P1", player="P1", cards=["P2F01"])
    t.refuse("PBW-TURN-7", "turn_started", "P1", turn=3)
    t.act("hand_discarded", "P1", player="P1", cards=["P1F02"])
    assert "P1F02" in t.state.player("P1").discard and len(t.state.player("P1").hand) == 5


def test_special_hand_is_not_counted_PBW_LIM_16():
    t = turn1()
    t.act("effect", "judge", source="a card marks it", ops=[{"op": "mark_special_hand", "card": "P1F01"}])
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    assert len(t.state.player("P1").hand) == 6
    t.act("hand_discarded", "P2", player="P2", cards=["P2F01"])
    t.act("turn_started", "P1", turn=3)  # P1's 6 cards hold one special: no discard due
    assert t.state.turn == 3


def test_magic_and_set_card_limits():
    t = turn2(set_cards=("MG", "X"))
    t.refuse("PBW-LIM-6", "set_card_activated", "P1", player="P1", set_slot=1)
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.begin("A2")
    t.act("set_card_activated", "P1", player="P1", set_slot=2, ops=[{"op": "hp_heal", "player": "P1", "n": 3}])
    t.refuse("PBW-LIM-2", "set_card_activated", "P1", player="P1", set_slot=1)
    t.act("normal_attack", "P1", actor="A2", target="B1")
    t.end("A2")
    t.begin("A1")
    t.refuse("PBW-LIM-2", "set_card_activated", "P2", player="P2", set_slot=1)
    t.act("set_card_activated", "P1", player="P1", set_slot=1, attack={"value": 4, "attribute": "BODY", "targets": ["B2"]})
    t.refuse("PBW-LIM-6", "normal_attack", "P1", actor="A1", target="B1")
    assert t.state.main.magic_used and t.state.main.actions_left == 0
    # A2 on B1: D 3; magic BODY 4 on B2 (DV MIND 3): D 1, endurance 1 - 1 (MIND superior to BODY) = 0
    assert (t.hp("P2"), t.char("B2").endurance) == (14, 8)
    assert t.state.player("P1").discard == ("X", "MG")


def test_attack_ranges_under_validate_range_PBW_RUL_30():
    """PBW-RUL-30 and §15: with validate_range, normal_attack and ability_used carry range; the
    distance is 1 + (attacker in the back row) + (target in the back row), a player is at 1."""
    t = main1(options={"validate_range": True}, upto="B1")
    t.act("effect", "judge", source="fixture: A2 stands behind", ops=[{"op": "reposition", "pc": "A2", "slot": 4}])
    v = t.refuse("PBW-RUL-30", "normal_attack", "P2", actor="B1", target="A2")
    assert (v.code, v.message) == ("RANGE_MISSING", "validate_range is on: B1's attack gives the range printed on it (range)")
    v = t.refuse("PBW-RUL-30", "normal_attack", "P2", actor="B1", target="A2", range=1)
    assert (v.code, v.message) == ("OUT_OF_RANGE", "A2 is at distance 2 from B1; the attack's range 1 does not reach it")
    assert t.hp("P1") == 21 and t.char("A2").endurance == 8 and t.state.main.actions_left == 1
    t.act("normal_attack", "P2", actor="B1", target="A2", range=2)
    assert t.hp("P1") == 18 and t.char("A2").endurance == 6
    t.end("B1")
    t.begin("A2")  # A2 in slot 4 (back) against B1 in front: distance 2
    t.refuse("PBW-RUL-30", "ability_used", "P1", actor="A2", ability={"name": "Jab", "attribute": "TECH"}, targets=["B1"], range=1)
    t.act("effect", "judge", source="fixture: P2's PCs fall", ops=[{"op": "incapacitate", "character": "B1"}, {"op": "incapacitate", "character": "B2"}])
    t.act("normal_attack", "P1", actor="A2", target="P2", range=1)  # a PL attack counts as within 1 PC (PBW-RES-9)
    assert t.hp("P2") == 18 - 3


def test_range_is_accepted_and_ignored_without_validate_range_PBW_RUL_30():
    t = main1(upto="B1")
    t.act("normal_attack", "P2", actor="B1", target="A2", range=0)
    assert t.hp("P1") == 18 and t.char("A2").endurance == 6
    with pytest.raises(Malformed) as e:
        decode_event(GAME, "normal_attack", "P2", {"actor": "B1", "target": "A2", "range": -1})
    assert e.value.path == "$.range"
