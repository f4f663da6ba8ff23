"""BACDEF limits and special rules (§7): the cap, once per set, losing only at the end, handless."""

from __future__ import annotations

from tests.bacdef.builders import P1, P2, Table, effect_turn, handless_p2, start

NO_F_GUARDS = (("P1-1", "P1-2"), ("P2-1", "P2-2"))


# -- BAC-LIM-1 / BAC-RUL-10 the 3-point cap ----------------------------------------------------------
def test_BAC_LIM_1_every_kind_counts_and_heals_give_no_room_back():
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P2 1]")  # rebound, then the knock
    assert [(q.target, q.kind) for q in t.turn.packets] == [(P2, "rebound"), (P2, "knock")]
    t.do("assign_damage player=P2 slots=[1]", "assign_damage player=P2 slots=[1]")
    assert (t.slots("P2"), t.dmg()) == ("XU", (0, 2))
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 2]")  # room 1: one point nullified
    assert (t.slots("P2"), t.dmg()) == ("XS", (0, 3))
    assert "auto: 1 point(s) to bob nullified by the 3-point cap" in t.turn.notes
    t.do("apply_end_phase_effect source=I2 ops=[HEAL P2 1]")  # two candidates: P2 picks slot 2
    t.do("assign_heal player=P2 slots=[2]")
    assert (t.slots("P2"), t.dmg()) == ("XU", (0, 3))
    t.do("apply_end_phase_effect source=I1 ops=[KNOCK 1]")
    assert (t.slots("P2"), t.dmg(), t.awaiting()) == ("XU", (0, 3), None)
    t.do("confirm_end_phase")
    assert t.dmg() == (0, 0) and t.turn.no == 2


# -- BAC-LIM-3 / BAC-RUL-8 / BAC-RUL-7 once per set ---------------------------------------------------
def test_BAC_LIM_3_special_once_per_set_even_back_in_hand():
    """BAC-EX-10: a D used and returned to hand cannot be activated again; knocking it is fine. BAC-RUL-45: face-down means normal."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-5", "declare_through player=P2")
    assert t.used("P1") == "D"
    t.do("resolve_effect instance_id=I1 ops=[RETURN P1-5]", "confirm_end_phase")
    assert "P1-5" in t.hand("P1") and t.discard("P1") == []
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-5", "declare_knock player=P2")
    t.reject("declare_skill player=P1 card_id=P1-5", "BAC-LIM-3", "E_SPECIAL_USED", "D was already activated this set", "'P1-5'")
    t.do("declare_through player=P1", "assign_damage player=P1 slots=[2]", "confirm_end_phase")
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-1")
    t.do("declare_knock player=P1")  # face-down: a normal card (BAC-DECK-7)
    assert t.card("P1-5").face == "down" and t.used("P1") == "D"


def test_BAC_RUL_8_a_negated_special_is_still_used():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-6", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-6", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[NEGATE I1]")
    assert (t.turn.instances[0].status, t.used("P1"), t.discard("P1")) == ("negated", "E", ["P1-6↑"])


def test_BAC_RUL_7_special_once_scope_per_player_and_global():
    for scope, accepted in (("per_player", True), ("global", False)):
        t = start({"special_once_scope": scope})
        effect_turn(t, "P1-5", "[]")  # P1 activates D in turn 1
        t.do("place_field_card player=P2 card_id=P2-6", "place_field_card player=P1 card_id=P1-2")
        if accepted:
            t.do("declare_skill player=P2 card_id=P2-6")
            assert (t.used("P1"), t.used("P2")) == ("D", "D")
        else:
            t.reject("declare_skill player=P2 card_id=P2-6", "BAC-LIM-3", "E_SPECIAL_USED", "D was already activated this set", "'P2-6'")
            assert (t.used("P1"), t.used("P2")) == ("D", "")


def test_BAC_LIM_3_F_cannot_be_armed_after_its_use():
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-7", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-7", "declare_through player=P2")
    assert t.awaiting() == ("f_decision", "P1") and t.used("P1") == ""
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[]", "confirm_end_phase")
    assert t.used("P1") == "F"
    effect_turn(t, "P2-3", "[RETURN P1-7]", defender_card="P1-3")  # P2 gives P1's F back
    assert "P1-7" in t.hand("P1")
    t.do("place_field_card player=P1 card_id=P1-7", "place_field_card player=P2 card_id=P2-4")
    t.reject("declare_skill player=P1 card_id=P1-7", "BAC-LIM-3", "E_SPECIAL_USED", "F was already activated this set")


def test_BAC_LIM_3_F_with_a_battle_effect_is_used_when_declared():
    """Catalog F battle_effect: declaring it is the activation; its drop then triggers nothing."""
    t = start(catalog={"F": {"battle_effect": True}}, guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-7", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-7", "declare_through player=P2")
    assert t.used("P1") == "F" and t.awaiting() == ("effect", "judge")
    t.do("resolve_effect instance_id=I1 ops=[]")
    assert (t.step, t.discard("P1"), t.awaiting()) == ("end", ["P1-7↑"], None)


# -- BAC-LIM-8 loss only at the end of the turn (BAC-EX-6) -----------------------------------------
def ex6_start(options=None) -> Table:
    """BAC-EX-6 start, reached in one battle: turn 2, P2 attacker; P1 slots X,X (P1-1, P1-3 in the
    pile), hand {P1-2, P1-7}, F unused; P2 slots U,U."""
    t = start(options, guards=(("P1-1", "P1-3"), ("P2-1", "P2-2")))
    effect_turn(t, "P1-4", "[DROP P1-1, DROP P1-3, DROP P1-5, DROP P1-6]", defender_card="P2-3")
    assert (t.turn.attacker, t.slots("P1"), t.D("P1"), t.hand("P1"), t.used("P1")) == (P2, "XX", 4, ["P1-2", "P1-7"], "")
    t.do("place_field_card player=P2 card_id=P2-3", "place_field_card player=P1 card_id=P1-7")
    t.do("declare_knock player=P2", "declare_skill player=P1 card_id=P1-7")
    assert (t.overflow("P1"), t.D("P1"), t.step, t.used("P1")) == (1, 5, "drop", "")
    assert t.awaiting() == ("f_decision", "P1")
    return t


def test_BAC_LIM_8_temporary_fifth_point_healed_before_the_end():
    """BAC-EX-6."""
    t = ex6_start()
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[HEAL P1 1]")
    assert (t.overflow("P1"), t.D("P1"), t.used("P1")) == (0, 4, "F")
    t.do("confirm_end_phase")
    assert (t.results(), t.turn.no, t.hand("P1"), t.hand("P2")) == ([], 3, ["P1-2"], ["P2-3", "P2-4", "P2-5", "P2-6", "P2-7"])


def test_BAC_LIM_8_losing_state_decided_at_confirmation():
    """BAC-EX-6 variant (a): the F declined, P1 stays losing and P2 wins the set. BAC-RUL-11: the losing state is overflow >= 1."""
    t = ex6_start()
    t.do("decline_fall_skill player=P1 card_id=P1-7")
    assert t.step == "end" and t.results() == []  # nothing decided before confirm_end_phase
    t.do("confirm_end_phase")
    assert (t.results(), t.wins()) == ([("win", "P2")], (0, 1))


def test_BAC_EFF_3_heal_two_points_after_the_fifth():
    """BAC-EX-6 variant (b): the 1st point clears the overflow, the 2nd asks for a slot."""
    t = ex6_start()
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[HEAL P1 2]")
    assert (t.overflow("P1"), t.awaiting()) == (0, ("heal", "P1"))
    t.do("assign_heal player=P1 slots=[1]")
    c = t.card("P1-1")
    assert (t.slots("P1"), t.D("P1"), c.zone, c.face) == ("SX", 3, "guard", "down")


# -- BAC-LIM-9 / BAC-RUL-13 handless players still activate F ------------------------------------
def test_BAC_LIM_9_handless_player_can_activate_F():
    t = handless_p2()
    t.do("place_field_card player=P1 card_id=P1-4", "declare_skill player=P1 card_id=P1-4")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 2]", "assign_damage player=P2 slots=[1,1]")
    assert t.awaiting() == ("f_decision", "P2") and t.turn.handless[P2]
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[DAMAGE P1 1]")
    assert (t.used("P2"), t.awaiting()) == ("F", ("damage", "P1"))


def test_BAC_RUL_29_next_turn_includes_a_skipped_turn():
    """A LASTING effect until the end of the next turn ends with the skipped turn that follows (BAC-RUL-30)."""
    t = handless_p2()
    t.do("place_field_card player=P1 card_id=P1-4", "declare_skill player=P1 card_id=P1-4")
    t.do('resolve_effect instance_id=I1 ops=[LASTING "no heal" end_of_next_turn]', "confirm_end_phase")
    assert (t.turn.no, t.turn.skipped, [l.expires_turn for l in t.state.set.lasting]) == (4, True, [4])
    t.do("apply_end_phase_effect source=L1 ops=[NOTE still]", "confirm_end_phase")
    assert (t.turn.no, t.state.set.lasting) == (5, ())


def test_BAC_RUL_7_global_scope_one_F_activation_for_both_players():
    """Both armed Fs drop together (BAC-EX-15); under ``global`` the first activation uses F up
    for both, so the second pending F can only be declined (BAC-LIM-3 at every activation)."""
    t = start({"special_once_scope": "global"}, guards=(("P1-1", "P1-2"), ("P2-2", "P2-1")), first="P2")
    t.do("place_field_card player=P2 card_id=P2-7", "place_field_card player=P1 card_id=P1-7")
    t.do("declare_skill player=P2 card_id=P2-7", "declare_skill player=P1 card_id=P1-7")
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[]")
    assert t.awaiting() == ("f_decision", "P2") and t.used("P1") == "F"
    t.reject("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]", "BAC-LIM-3", "E_SPECIAL_USED", "F was already activated this set", "'P2-7'")
    t.do("decline_fall_skill player=P2 card_id=P2-7")
    assert (t.used("P2"), t.card("P2-7").face, t.step) == ("", "up", "end")


def test_BAC_RES_11_global_scope_no_trigger_once_F_is_used():
    t = start({"special_once_scope": "global"}, guards=(("P1-1", "P1-2"), ("P2-7", "P2-2")))
    t.do("place_field_card player=P1 card_id=P1-7", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-7", "declare_through player=P2")
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[]")  # armed F dropped in the Drop phase
    t.do("apply_end_phase_effect source=I1 ops=[DROP P2-7]")
    assert (t.slots("P2"), t.discard("P2"), t.awaiting(), t.turn.work) == ("XU", ["P2-7↓"], None, ())
