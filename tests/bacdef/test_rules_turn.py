"""BACDEF turn structure (§4) and the turn events up to the Resolution step (§5.3)."""

from __future__ import annotations

import pytest

from tests.bacdef.builders import P1, P2, handless_p2, start

B_EXTRA = {"B": {"extra_deploys": 1}}


# -- BAC-TURN-1 / BAC-TURN-2 -----------------------------------------------------------------------
def test_BAC_TURN_2_both_place_in_either_order_then_the_action_step():
    """BAC-RUL-37: placement is mandatory, so the Action step waits for both."""
    t = start()
    t.do("place_field_card player=P2 card_id=P2-3")
    assert t.step == "standby" and t.field("P2") == ["P2-3"] and t.hand("P2") == ["P2-1", "P2-4", "P2-5", "P2-6"]
    c = t.card("P2-3")
    assert (c.zone, c.face, c.orientation) == ("field", "down", "upright")
    t.do("place_field_card player=P1 card_id=P1-2")
    assert t.step == "action"
    assert t.turn.placed == {P1: "alice-2", P2: "bob-3"}


def test_BAC_TURN_1_turn_start_resets_damage_and_records_the_rewind_point():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[2]")
    assert t.dmg() == (0, 1)
    t.do("confirm_end_phase")
    assert (t.turn.no, t.turn.start_seq, t.seq) == (2, t.seq, t.seq)
    assert t.dmg() == (0, 0) and t.turn.handless == {P1: False, P2: False}
    assert (t.turn.attacker, t.turn.defender, t.turn.skipped, t.step) == (P2, P1, False, "standby")


# -- BAC-ACT-5 place_field_card -----------------------------------------------------------------
def test_BAC_ACT_5_card_must_be_in_the_players_hand():
    t = start()
    t.reject("place_field_card player=P1 card_id=P1-7", "BAC-ACT-5", "E_CARD_ZONE", "'P1-7'", "(it is guard)")
    t.reject("place_field_card player=P1 card_id=P2-1", "BAC-ACT-5", "E_CARD_ZONE", "'P2-1'", "alice's hand")
    t.reject("place_field_card player=P1 card_id=P1-9", "BAC-ACT-5", "E_CARD_ZONE", "'P1-9'", "nowhere")


def test_BAC_ACT_5_placement_by_another_player_or_the_judge():
    t = start()
    t.reject("place_field_card player=P1 card_id=P1-2", "BAC-ACT-5", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.do("place_field_card player=P1 card_id=P1-2", by="judge")
    assert t.field("P1") == ["P1-2"]


def test_BAC_LIM_4_one_field_card_per_turn():
    """BAC-EX-2 step 2; BAC-ACT-5 lists the hand check before the first-placement check."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2")
    t.reject("place_field_card player=P1 card_id=P1-3", "BAC-LIM-4", "E_ALREADY_PLACED", "'P1-3' stays in hand")
    t.reject("place_field_card player=P1 card_id=P1-2", "BAC-ACT-5", "E_CARD_ZONE", "'P1-2'", "(it is field)")
    assert t.field("P1") == ["P1-2"] and "P1-3" in t.hand("P1")


def test_BAC_TURN_10_placement_after_the_standby_step():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.reject("place_field_card player=P2 card_id=P2-4", "BAC-TURN-10", "E_WRONG_STEP", "Action step")


def test_BAC_LIM_9_handless_player_cannot_place():
    t = handless_p2()
    assert t.turn.handless == {P1: False, P2: True}
    t.reject("place_field_card player=P2 card_id=P2-1", "BAC-LIM-9", "E_HANDLESS", "bob had no hand card")
    t.do("place_field_card player=P1 card_id=P1-4")
    assert t.step == "action"  # nothing is awaited from P2


def test_BAC_TURN_5_handless_defender_goes_through_automatically():
    t = handless_p2()
    t.do("place_field_card player=P1 card_id=P1-4", "declare_knock player=P1")
    assert (t.turn.reaction, t.turn.declared[P2], t.step) == ("through", True, "damage")
    assert "auto: bob has no field card; through" in t.turn.notes
    assert t.awaiting() == ("damage", "P2")
    t.reject("declare_through player=P2", "BAC-LIM-5", "E_WRONG_STEP", "bob already went through")


# -- BAC-TURN-3 skipped turn ---------------------------------------------------------------------
def test_BAC_TURN_3_handless_attacker_skips_the_turn():
    t = handless_p2()
    t.do("place_field_card player=P1 card_id=P1-4", "declare_knock player=P1", "assign_damage player=P2 slots=[1]")
    t.do("confirm_end_phase")
    assert (t.turn.no, t.turn.attacker, t.turn.skipped, t.step) == (4, P2, True, "end")
    assert t.turn.handless == {P1: False, P2: True}
    assert "auto: turn 4 skipped, bob (attacker) has no hand card" in t.turn.notes
    # E_TURN_SKIPPED comes before the step check (the step is End)
    t.reject("place_field_card player=P2 card_id=P2-1", "BAC-TURN-3", "E_TURN_SKIPPED", "turn 4 is skipped")
    t.reject("place_field_card player=P1 card_id=P1-2", "BAC-TURN-3", "E_TURN_SKIPPED", "no placement")
    t.reject("declare_knock player=P2", "BAC-TURN-3", "E_TURN_SKIPPED", "no knock")
    t.reject("declare_skill player=P1 card_id=P1-2", "BAC-TURN-3", "E_TURN_SKIPPED", "no skill")
    t.reject("declare_through player=P1", "BAC-TURN-3", "E_TURN_SKIPPED", "no through")
    t.reject("finish_deployment player=P2", "BAC-TURN-10", "E_WRONG_STEP", "End step")
    t.do("confirm_end_phase")
    assert (t.turn.no, t.turn.attacker, t.turn.skipped, t.step) == (5, P1, False, "standby")


# -- BAC-ACT-6 declare_knock; BAC-LIM-2; BAC-LIM-5 -------------------------------------------------
def test_BAC_ACT_6_knock_turns_the_field_card_sideways_face_down():
    """BAC-TURN-4 knock; BAC-GEN-3 the automatic step is a note."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.reject("declare_knock player=P1", "BAC-ACT-6", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.do("declare_knock player=P1")
    c = t.card("P1-2")
    assert (c.zone, c.face, c.orientation, c.knocked, c.skill_used) == ("field", "down", "sideways", True, False)
    i = t.turn.instances[0]
    assert (i.id, i.controller, i.side, i.kind, i.card_id, i.letter) == ("I1", P1, "attacker", "knock", "alice-2", None)
    assert t.step == "counter" and t.turn.notes == ("auto: knock instance I1",)


@pytest.mark.parametrize("stage", ["standby", "action", "counter", "end"])
def test_BAC_LIM_2_declare_knock_by_the_defender_in_every_step(stage):
    t = start()
    if stage != "standby":
        t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    if stage in ("counter", "end"):
        t.do("declare_knock player=P1")
    if stage == "end":
        t.do("declare_through player=P2", "assign_damage player=P2 slots=[1]")
    assert t.step == stage
    t.reject("declare_knock player=P2", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", "bob is the defender", "(alice)")


def test_BAC_TURN_10_knock_outside_the_action_step():
    t = start()
    t.reject("declare_knock player=P1", "BAC-TURN-10", "E_WRONG_STEP", "Standby step")


def test_BAC_LIM_5_one_action():
    t = start(catalog=B_EXTRA)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-3")  # B: allowance 1, the step stays open
    assert (t.step, t.turn.extra_allowance[P1]) == ("action", 1)
    t.reject("declare_knock player=P1", "BAC-LIM-5", "E_WRONG_STEP", "alice already declared")
    t.reject("declare_skill player=P1 card_id=P1-3", "BAC-LIM-5", "E_WRONG_STEP", "one action, one reaction")
    t.do("finish_deployment player=P1")
    # in the Counter step, a knock after the first declaration is still BAC-LIM-5 ...
    t.reject("declare_knock player=P1", "BAC-LIM-5", "E_WRONG_STEP", "alice already declared")
    # ... and a declare_skill by the attacker is BAC-RES-2, the first entry of §5.1 that applies
    t.reject("declare_skill player=P1 card_id=P1-2", "BAC-RES-2", "E_WRONG_STEP", "alice's deployment step has closed")


# -- BAC-ACT-7 declare_skill ------------------------------------------------------------------------
def test_BAC_ACT_7_skill_turns_the_card_face_up_and_creates_an_instance():
    """BAC-TURN-4 skill; BAC-RES-1 the instance's fields."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-5")  # D, a special with a battle effect
    c = t.card("P1-5")
    assert (c.zone, c.face, c.orientation, c.skill_used) == ("field", "up", "upright", True)
    i = t.turn.instances[0]
    assert (i.id, i.controller, i.side, i.kind, i.letter, i.status) == ("I1", P1, "attacker", "skill", "D", "pending")
    assert t.used("P1") == "D"  # counted when the activation is accepted (BAC-RUL-8)
    assert (t.step, t.turn.closed[P1]) == ("counter", True)
    t.do("declare_skill player=P2 card_id=P2-3")
    assert (t.turn.reaction, t.turn.instances[1].side, t.step) == ("counter", "defender", "resolution")
    assert t.turn.queue == ("I2", "I1")


def test_BAC_ACT_7_card_must_be_the_players_face_down_field_card():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.reject("declare_skill player=P1 card_id=P1-3", "BAC-ACT-7", "E_CARD_ZONE", "'P1-3' is not alice's face-down field card")
    t.reject("declare_skill player=P1 card_id=P2-3", "BAC-ACT-7", "E_CARD_ZONE", "'P2-3'")
    t.reject("declare_skill player=P1 card_id=P1-2", "BAC-ACT-7", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")


def test_BAC_TURN_10_defender_cannot_declare_in_the_action_step():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.reject("declare_skill player=P2 card_id=P2-3", "BAC-TURN-10", "E_WRONG_STEP", "Action step")
    t.reject("declare_through player=P2", "BAC-TURN-10", "E_WRONG_STEP", "through by bob is not allowed in the Action step")


def test_BAC_EFF_0_catalog_timing_windows():
    t = start(catalog={"A": {"action_allowed": False}, "B": {"counter_allowed": False}})
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.reject("declare_skill player=P1 card_id=P1-2", "BAC-EFF-0", "E_TIMING", "does not allow A in the Action step")
    t.do("declare_knock player=P1")
    t.reject("declare_skill player=P2 card_id=P2-3", "BAC-EFF-0", "E_TIMING", "does not allow B in the Counter step")


def test_BAC_LIM_2_knock_skill_only_for_the_attacker():
    t = start(catalog={"C": {"knock_skill": True}})
    t.do("place_field_card player=P1 card_id=P1-4", "place_field_card player=P2 card_id=P2-4")
    t.do("declare_skill player=P1 card_id=P1-4")
    t.reject("declare_skill player=P2 card_id=P2-4", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", "C is a knock skill", "(alice)")
    t.do("declare_through player=P2", "resolve_effect instance_id=I1 ops=[KNOCK 2]")
    q = t.turn.packets[0]
    assert (q.source_side, q.target, q.amount, q.kind) == ("attacker", P2, 2, "knock")


# -- extra deployments: BAC-LIM-6, BAC-RES-2, BAC-ACT-8 ---------------------------------------------
def test_BAC_LIM_6_extra_deployment_from_hand():
    """BAC-EX-14 steps 1-6. BAC-RUL-38: extra deployments only through extra_deploys, from hand, face-up."""
    t = start(catalog=B_EXTRA)
    t.script(
        """
        place_field_card player=P1 card_id=P1-3
        place_field_card player=P2 card_id=P2-4
        declare_skill player=P1 card_id=P1-3
        """
    )
    t.reject("declare_skill player=P1 card_id=P1-7 extra_of=I1", "BAC-ACT-7", "E_CARD_ZONE", "'P1-7' is not in alice's hand")
    t.reject("declare_skill player=P1 card_id=P1-2 extra_of=I9", "BAC-LIM-6", "E_NO_EXTRA", "from I9")
    t.do("declare_skill player=P1 card_id=P1-2 extra_of=I1")
    c = t.card("P1-2")
    assert (c.zone, c.face, c.skill_used) == ("field", "up", True)
    assert t.hand("P1") == ["P1-4", "P1-5", "P1-6"]
    assert (t.turn.extra_allowance[P1], t.step) == (0, "counter")
    t.reject("declare_skill player=P1 card_id=P1-4 extra_of=I1", "BAC-RES-2", "E_WRONG_STEP", "alice's deployment step has closed")
    t.reject("declare_skill player=P2 card_id=P2-5 extra_of=I1", "BAC-LIM-6", "E_NO_EXTRA", "bob has no extra deployment left from I1")
    t.do("declare_skill player=P2 card_id=P2-4")
    assert t.step == "resolution" and [i.id for i in t.turn.instances] == ["I1", "I2", "I3"]


def test_BAC_ACT_8_finish_deployment_closes_the_step():
    """BAC-EX-14 alternative: finish_deployment after step 2 closes the step with I1 alone. BAC-RUL-36: no passing."""
    t = start(catalog=B_EXTRA)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-4")
    # before any declaration there is nothing to finish: that would be a pass (BAC-LIM-5)
    t.reject("finish_deployment player=P1", "BAC-ACT-8", "E_WRONG_STEP", "alice has no deployment to finish", "no passing")
    t.do("declare_skill player=P1 card_id=P1-3")
    t.reject("finish_deployment player=P1", "BAC-ACT-8", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.do("finish_deployment player=P1")
    assert (t.step, t.turn.extra_allowance[P1], t.turn.closed[P1]) == ("counter", 0, True)
    assert [i.id for i in t.turn.instances] == ["I1"]
    t.reject("finish_deployment player=P1", "BAC-RES-2", "E_WRONG_STEP", "alice's deployment step has closed")
    t.do("declare_skill player=P2 card_id=P2-4")
    assert t.step == "resolution"
    t.reject("finish_deployment player=P2", "BAC-TURN-10", "E_WRONG_STEP", "Resolution step")
    t.reject("finish_deployment player=P1", "BAC-TURN-10", "E_WRONG_STEP", "Resolution step")


def test_BAC_ACT_8_defender_extra_deployment_and_finish():
    t = start(catalog=B_EXTRA)
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-3")
    assert (t.step, t.turn.extra_allowance[P2], t.turn.reaction) == ("counter", 1, "counter")
    t.reject("declare_through player=P2", "BAC-LIM-5", "E_WRONG_STEP", "bob already countered")
    t.reject("declare_skill player=P2 card_id=P2-4", "BAC-LIM-5", "E_WRONG_STEP", "bob already declared")
    t.do("declare_skill player=P2 card_id=P2-4 extra_of=I2")
    assert t.step == "resolution" and t.hand("P2") == ["P2-1", "P2-5", "P2-6"]


# -- BAC-ACT-9 declare_through --------------------------------------------------------------------
def test_BAC_ACT_9_through_leaves_the_card_and_begins_resolution():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3", "declare_skill player=P1 card_id=P1-2")
    t.reject("declare_through player=P2", "BAC-ACT-9", "E_NOT_ACTOR", "alice cannot enter this for bob", by="P1")
    t.reject("declare_through player=P1", "BAC-TURN-10", "E_WRONG_STEP", "through by alice is not allowed in the Counter step")
    t.do("declare_through player=P2")
    c = t.card("P2-3")
    assert (c.zone, c.face, c.orientation, c.skill_used) == ("field", "down", "upright", False)
    assert (t.turn.reaction, t.step) == ("through", "resolution")
    assert t.awaiting() == ("effect", "judge")
    t.reject("declare_through player=P2", "BAC-LIM-5", "E_WRONG_STEP", "bob already went through")
    t.reject("declare_skill player=P2 card_id=P2-3", "BAC-RES-7", "E_WRONG_STEP", "Resolution step")


# -- BAC-TURN-8 Drop phase; BAC-TURN-9 End phase; BAC-RUL-1 ------------------------------------------
def test_BAC_TURN_8_skill_cards_drop_face_up_and_BAC_TURN_9_others_return():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[]")
    assert t.step == "end"
    assert t.discard("P1") == ["P1-2↑"] and t.discard("P2") == []
    assert t.hand("P1") == ["P1-3", "P1-4", "P1-5", "P1-6"]
    assert t.hand("P2") == ["P2-1", "P2-3", "P2-4", "P2-5", "P2-6"]  # the through card came back
    assert t.field("P1") == t.field("P2") == []


def test_BAC_RUL_1_knocked_card_returns_to_hand_by_default():
    """BAC-EX-2: P1-2 and P2-3 return in the End phase."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[2]")
    assert t.hand("P1") == ["P1-2", "P1-3", "P1-4", "P1-5", "P1-6"] and t.discard("P1") == []
    c = t.card("P1-2")
    assert (c.zone, c.face, c.orientation, c.knocked) == ("hand", "down", "upright", False)
    t.do("confirm_end_phase")
    assert (t.slots("P2"), t.D("P2"), t.D("P1"), len(t.hand("P1")), len(t.hand("P2"))) == ("US", 1, 0, 5, 5)


def test_BAC_RUL_1_knock_card_fate_drop():
    """BAC-EX-2 variant: P1-2 goes face-down to P1's discard pile; P1's hand is 4."""
    t = start({"knock_card_fate": "drop"})
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[2]")
    assert t.discard("P1") == ["P1-2↓"]
    assert t.hand("P1") == ["P1-3", "P1-4", "P1-5", "P1-6"]
    assert t.hand("P2") == ["P2-1", "P2-3", "P2-4", "P2-5", "P2-6"]


def test_BAC_ACT_18_confirm_end_phase_by_the_judge_in_the_end_step():
    t = start()
    t.reject("confirm_end_phase", "BAC-TURN-10", "E_WRONG_STEP", "Standby step")
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[]")
    t.reject("confirm_end_phase", "BAC-ACT-18", "E_NOT_ACTOR", "alice tried", by="P1")
    # something pending in the End step: the judge's end-phase damage waits for P2's choice
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 1]")
    assert t.awaiting() == ("damage", "P2")
    t.reject("confirm_end_phase", "BAC-ACT-18", "E_WRONG_STEP", "bob's damage first")
    t.do("assign_damage player=P2 slots=[1]", "confirm_end_phase")
    assert (t.turn.no, t.turn.attacker) == (2, P2)


@pytest.mark.parametrize(
    "line, quote",
    [
        ("resolve_effect instance_id=I1 ops=[]", "Standby step"),
        ("assign_damage player=P1 slots=[1]", "Standby step"),
        ("assign_heal player=P1 slots=[1]", "Standby step"),
        ("choose_lost_cards player=P1 card_ids=[P1-2]", "Standby step"),
        ("choose_resolution_order player=P1 instance_ids=[I1,I2]", "Standby step"),
        ("apply_end_phase_effect source=I1 ops=[]", "Standby step"),
        ("activate_fall_skill player=P1 card_id=P1-7 ops=[]", "Standby step"),
        ("decline_fall_skill player=P1 card_id=P1-7", "Standby step"),
    ],
)
def test_BAC_TURN_10_events_not_allowed_in_the_standby_step(line, quote):
    t = start()
    t.reject(line, "BAC-TURN-10", "E_WRONG_STEP", quote)


def test_BAC_TURN_10_checks_run_step_then_author_then_preconditions():
    """§5.1 order where several checks fail at once."""
    t = handless_p2()
    # author before the handless precondition (BAC-ACT-5 lists handless among the preconditions)
    t.reject("place_field_card player=P2 card_id=P2-1", "BAC-ACT-5", "E_NOT_ACTOR", "alice cannot enter this for bob", by="P1")
    # the knock restriction before the step and the author
    t.reject("declare_knock player=P2", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", by="P1")
    # the step before the author and the card
    t.reject("activate_fall_skill player=P2 card_id=P1-7 ops=[]", "BAC-TURN-10", "E_WRONG_STEP", "Standby step", by="P1")
    t.reject("declare_skill player=P1 card_id=P1-9", "BAC-TURN-10", "E_WRONG_STEP", "Standby step", by="P2")
    t.do("place_field_card player=P1 card_id=P1-4")
    # the author before the card
    t.reject("declare_skill player=P1 card_id=P1-9", "BAC-ACT-7", "E_NOT_ACTOR", by="P2")
    t.reject("declare_skill player=P1 card_id=P1-9", "BAC-ACT-7", "E_CARD_ZONE", "'P1-9'")
