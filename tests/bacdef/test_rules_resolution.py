"""BACDEF resolution (§6): orders, the queue, damage packets and the cap, F triggers and chains,
the Remaining step, the Drop phase and end-phase effects (BAC-ACT-10 .. BAC-ACT-18)."""

from __future__ import annotations

import msgspec

from tests.bacdef.builders import P1, P2, Table, effect_turn, start

B_EXTRA = {"B": {"extra_deploys": 1}}
NO_F_GUARDS = (("P1-1", "P1-2"), ("P2-1", "P2-2"))


def ex3_start() -> Table:
    """BAC-EX-2 played: turn 2, P2 attacker; P2 slots U,S."""
    t = start()
    t.script(
        """
        place_field_card player=P1 card_id=P1-2
        place_field_card player=P2 card_id=P2-3
        declare_knock player=P1
        declare_through player=P2
        assign_damage player=P2 slots=[2]
        confirm_end_phase
        """
    )
    return t


def two_instances_each() -> Table:
    """Turn 1 (catalog B extra 1): P1 I1 (B) + I2 (A, extra); P2 I3 (B) + I4 (C, extra)."""
    t = start(catalog=B_EXTRA)
    t.script(
        """
        place_field_card player=P1 card_id=P1-3
        place_field_card player=P2 card_id=P2-3
        declare_skill player=P1 card_id=P1-3
        declare_skill player=P1 card_id=P1-2 extra_of=I1
        declare_skill player=P2 card_id=P2-3
        declare_skill player=P2 card_id=P2-4 extra_of=I3
        """
    )
    assert t.step == "resolution"
    return t


# -- BAC-ACT-10 choose_resolution_order; BAC-RES-4 ----------------------------------------------
def test_BAC_ACT_10_resolution_order_is_a_permutation_of_own_instances():
    t = two_instances_each()
    t.reject("resolve_effect instance_id=I3 ops=[]", "BAC-ACT-10", "E_ORDER", "bob, alice", "still missing")
    t.reject("choose_resolution_order player=P1 instance_ids=[I1]", "BAC-ACT-10", "E_ORDER", "['I1'] is not an order of alice's instances ['I1', 'I2']")
    t.reject("choose_resolution_order player=P1 instance_ids=[I1,I3]", "BAC-ACT-10", "E_ORDER", "['I1', 'I3']")
    t.reject("choose_resolution_order player=P1 instance_ids=[I2,I2]", "BAC-ACT-10", "E_ORDER", "['I2', 'I2']")
    t.reject("choose_resolution_order player=P1 instance_ids=[I2,I1]", "BAC-ACT-10", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    # either player may go first (BAC-RUL-44)
    t.do("choose_resolution_order player=P1 instance_ids=[I2,I1]")
    assert t.turn.order == {P1: ("I2", "I1")} and not t.turn.queue_fixed
    t.reject("choose_resolution_order player=P1 instance_ids=[I1,I2]", "BAC-ACT-10", "E_ORDER", "already fixed")
    t.reject("resolve_effect instance_id=I3 ops=[]", "BAC-ACT-10", "E_ORDER", "of bob is still missing")
    t.do("choose_resolution_order player=P2 instance_ids=[I4,I3]")
    # BAC-RES-4: the defender's instances, then the attacker's, each in the chosen order
    assert t.turn.queue == ("I4", "I3", "I2", "I1") and t.turn.queue_fixed
    assert t.awaiting() == ("effect", "judge") and t.turn.awaiting.ref == "I4"


def test_BAC_ACT_10_no_order_for_a_single_instance():
    """BAC-EX-14 steps 7-9: P2 has one instance, P1 two."""
    t = start(catalog=B_EXTRA)
    t.script(
        """
        place_field_card player=P1 card_id=P1-3
        place_field_card player=P2 card_id=P2-4
        declare_skill player=P1 card_id=P1-3
        declare_skill player=P1 card_id=P1-2 extra_of=I1
        declare_skill player=P2 card_id=P2-4
        """
    )
    t.reject("choose_resolution_order player=P2 instance_ids=[I3]", "BAC-ACT-10", "E_ORDER", "bob has 1 instance(s)")
    t.reject("resolve_effect instance_id=I3 ops=[]", "BAC-ACT-10", "E_ORDER", "alice")
    t.do("choose_resolution_order player=P1 instance_ids=[I2,I1]")
    assert t.turn.queue == ("I3", "I2", "I1")
    t.reject("resolve_effect instance_id=I1 ops=[]", "BAC-RES-4", "E_NOT_HEAD", "I1 is not next", "head of the queue is I3")
    t.do("resolve_effect instance_id=I3 ops=[]", "resolve_effect instance_id=I2 ops=[]", "resolve_effect instance_id=I1 ops=[]")
    assert t.step == "end"
    assert sorted(t.discard("P1")) == ["P1-2↑", "P1-3↑"] and t.discard("P2") == ["P2-4↑"]
    assert t.hand("P1") == ["P1-4", "P1-5", "P1-6"] and t.hand("P2") == ["P2-1", "P2-3", "P2-5", "P2-6"]


def test_BAC_ACT_11_resolve_effect_is_entered_by_the_judge():
    t = ex3_start()
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-3")
    t.do("declare_skill player=P2 card_id=P2-1", "declare_skill player=P1 card_id=P1-3")
    t.reject("resolve_effect instance_id=I2 ops=[]", "BAC-ACT-11", "E_NOT_ACTOR", "alice tried", by="P1")
    t.reject("resolve_effect instance_id=I9 ops=[]", "BAC-RES-4", "E_NOT_HEAD", "I9 is not next")


# -- BAC-RES-6 / BAC-RES-7 / BAC-RES-16 ----------------------------------------------------------
def test_BAC_RES_6_defender_negation_first():
    """BAC-EX-3: I2 (P1's counter) negates I1; I1 never resolves."""
    t = ex3_start()
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-3")
    t.do("declare_skill player=P2 card_id=P2-1", "declare_skill player=P1 card_id=P1-3")
    assert t.turn.queue == ("I2", "I1")
    t.reject("declare_skill player=P2 card_id=P2-5 extra_of=I1", "BAC-RES-7", "E_WRONG_STEP", "Resolution step")
    t.reject("resolve_effect instance_id=I1 ops=[]", "BAC-RES-4", "E_NOT_HEAD", "head of the queue is I2")
    t.do("resolve_effect instance_id=I2 ops=[NEGATE I1]")
    i1, i2 = t.turn.instances
    assert (i1.status, i2.status) == ("negated", "resolved")
    assert "auto: I1 negated, skipped" in t.turn.notes
    assert t.step == "end" and t.turn.packets == ()
    t.do("confirm_end_phase")
    assert t.hand("P1") == ["P1-2", "P1-4", "P1-5", "P1-6"] and t.hand("P2") == ["P2-3", "P2-4", "P2-5", "P2-6"]
    assert (t.D("P1"), t.D("P2")) == (0, 1)
    assert t.discard("P1") == ["P1-3↑"] and t.discard("P2") == ["P2-1↑"]


def test_BAC_RES_7_nothing_touches_a_resolved_instance():
    """BAC-EX-3 variant; also a CONVERT, and a NEGATE of an instance that does not exist. BAC-RUL-20."""
    t = ex3_start()
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-3")
    t.do("declare_skill player=P2 card_id=P2-1", "declare_skill player=P1 card_id=P1-3")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P2 1]")
    t.reject("resolve_effect instance_id=I1 ops=[NEGATE I2]", "BAC-RES-7", "E_TARGET_RESOLVED", "NEGATE I2", "already resolved")
    t.reject("resolve_effect instance_id=I1 ops=[CONVERT I2]", "BAC-RES-7", "E_TARGET_RESOLVED", "CONVERT I2")
    t.reject("resolve_effect instance_id=I1 ops=[NEGATE I9]", "BAC-EFF-4", "E_BAD_OP", "no instance 'I9'")
    t.reject("resolve_effect instance_id=I1 ops=[CONVERT I9]", "BAC-EFF-5", "E_BAD_OP", "no instance 'I9'")
    # an instance negating itself: it is already resolved when its ops run
    t.reject("resolve_effect instance_id=I1 ops=[NEGATE I1]", "BAC-RES-7", "E_TARGET_RESOLVED", "NEGATE I1")


def test_BAC_RES_16_negated_instance_cannot_be_resolved():
    t = start(catalog=B_EXTRA)
    t.script(
        """
        place_field_card player=P1 card_id=P1-3
        place_field_card player=P2 card_id=P2-4
        declare_skill player=P1 card_id=P1-3
        declare_skill player=P1 card_id=P1-2 extra_of=I1
        declare_skill player=P2 card_id=P2-4
        choose_resolution_order player=P1 instance_ids=[I2,I1]
        resolve_effect instance_id=I3 ops=[NEGATE I1]
        """
    )
    assert t.turn.queue == ("I2", "I1")
    # the negation check comes before the head check (BAC-ACT-11)
    t.reject("resolve_effect instance_id=I1 ops=[]", "BAC-RES-16", "E_INSTANCE_NEGATED", "I1 was negated")
    t.do("resolve_effect instance_id=I2 ops=[]")
    assert [i.status for i in t.turn.instances] == ["negated", "resolved", "resolved"]
    # a negated skill's card was still used: it drops in the Drop phase
    assert sorted(t.discard("P1")) == ["P1-2↑", "P1-3↑"]


def test_BAC_RES_16_converted_instance_gets_new_content_from_the_judge():
    """A converted knock no longer resolves automatically; it keeps its controller and side. BAC-RUL-41."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[CONVERT I1]")
    assert t.turn.instances[0].converted and t.awaiting() == ("effect", "judge") and t.turn.awaiting.ref == "I1"
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 1]")
    q = t.turn.packets[0]
    assert (q.source_side, q.source_instance, q.target, q.amount, q.kind) == ("attacker", "I1", P2, 1, "skill")


# -- BAC-RES-5 automatic instances --------------------------------------------------------------
def test_BAC_RES_5_knock_and_armed_F_resolve_automatically():
    """BAC-RUL-47: a plain knock is exactly 1 point; BAC-RUL-16 an armed F."""
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-7")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-7")
    assert "auto: I2 resolves with no effect" in t.turn.notes
    assert [i.status for i in t.turn.instances] == ["resolved", "resolved"]
    q = t.turn.packets[0]
    assert (q.id, q.source_side, q.source_instance, q.target, q.amount, q.kind) == ("Q1", "attacker", "I1", P2, 1, "knock")
    assert t.used("P2") == ""  # arming F is not an activation (BAC-RUL-16)


# -- BAC-RES-8 / BAC-RES-9 / BAC-RES-10 / BAC-ACT-12 ------------------------------------------------
def test_BAC_RES_9_packets_wait_then_defender_sourced_first():
    """BAC-EX-4 from the state after BAC-EX-3. BAC-TURN-7; BAC-RUL-19 skill damage held back;
    BAC-RUL-40 a counter deals damage; BAC-RUL-34 the damaged player chooses."""
    t = ex3_start()
    t.script(
        """
        place_field_card player=P2 card_id=P2-1
        place_field_card player=P1 card_id=P1-3
        declare_skill player=P2 card_id=P2-1
        declare_skill player=P1 card_id=P1-3
        resolve_effect instance_id=I2 ops=[NEGATE I1]
        confirm_end_phase
        place_field_card player=P1 card_id=P1-4
        place_field_card player=P2 card_id=P2-4
        declare_skill player=P1 card_id=P1-4
        declare_skill player=P2 card_id=P2-4
        """
    )
    t.reject("resolve_effect instance_id=I2 ops=[KNOCK 1]", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", "bob is the defender")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P1 1]")
    # BAC-RES-8: a packet, nobody hurt yet
    assert (t.slots("P1"), t.step, len(t.turn.packets), t.turn.packets[0].applied) == ("UU", "resolution", 1, False)
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 2]")
    assert [(q.id, q.source_side, q.amount) for q in t.turn.packets] == [("Q1", "defender", 1), ("Q2", "attacker", 2)]
    assert t.step == "damage" and t.awaiting() == ("damage", "P1") and t.turn.awaiting.points == 1
    t.reject("assign_damage player=P2 slots=[1,2]", "BAC-ACT-12", "E_NOT_ACTOR", "waits for alice's choice, not bob's")
    t.reject("assign_damage player=P1 slots=[2]", "BAC-ACT-12", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.reject("assign_damage player=P1 slots=[1,2]", "BAC-ACT-12", "E_ASSIGNMENT", "alice takes 1 point(s)", "not 2")
    t.reject("assign_damage player=P1 slots=[3]", "BAC-ACT-12", "E_ASSIGNMENT", "slot 3")
    t.do("assign_damage player=P1 slots=[2]")
    assert t.slots("P1") == "US" and t.awaiting() == ("damage", "P2") and t.turn.awaiting.points == 2
    t.reject("assign_damage player=P2 slots=[2,2]", "BAC-ACT-12", "E_ASSIGNMENT", "point 2 cannot go to slot 2")
    t.do("assign_damage player=P2 slots=[2,1]")
    assert t.dmg() == (1, 2)
    t.do("confirm_end_phase")
    assert (t.slots("P1"), t.D("P1"), t.hand("P1"), t.discard("P1")) == ("US", 1, ["P1-2", "P1-5", "P1-6"], ["P1-3↑", "P1-4↑"])
    assert (t.slots("P2"), t.D("P2"), t.hand("P2")) == ("SX", 3, ["P2-3", "P2-5", "P2-6"])
    assert t.discard("P2") == ["P2-1↑", "P2-2↓", "P2-4↑"]


def test_BAC_RES_10_automatic_placement_and_overflow():
    """Automatic when at most one slot is live or the damage destroys every live slot (BAC-RUL-34). BAC-OVR-4: the points beyond the guards are overflow, the losing state (BAC-RUL-11)."""
    t = start(guards=NO_F_GUARDS)
    effect_turn(t, "P1-3", "[DROP P2-2]", confirm=False)  # slot 2 X without damage
    assert (t.slots("P2"), t.dmg(), t.discard("P2")) == ("UX", (0, 0), ["P2-2↓"])
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 1]")
    assert (t.slots("P2"), t.awaiting()) == ("SX", None)  # one live slot: automatic
    t.do("confirm_end_phase")
    # turn 2: P1's counter deals 3 to P2 (S,X: capacity 1 <= 3): slot 1 X, 2 points overflow
    t.do("place_field_card player=P2 card_id=P2-3", "place_field_card player=P1 card_id=P1-4")
    t.do("declare_knock player=P2", "declare_skill player=P1 card_id=P1-4")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P2 3]")
    assert (t.slots("P2"), t.overflow("P2"), t.D("P2")) == ("XX", 2, 6)
    assert t.discard("P2") == ["P2-2↓", "P2-1↓"]
    assert t.awaiting() == ("damage", "P1")  # then the knock: P1 U,U with capacity 4 > 1


def test_BAC_RES_10_capacity_reached_destroys_slot_1_first():
    """BAC-EX-5 step 3: S,U has capacity 3; 4 points capped to 3 destroy both."""
    t = start(guards=(("P1-1", "P1-2"), ("P2-4", "P2-2")))
    effect_turn(t, "P1-3", "[TURN_GUARD P2 2 S]")  # P2: U,S, D = 1
    effect_turn(t, "P2-1", "[]", defender_card="P1-4")  # turn 2, nothing happens
    t.do("place_field_card player=P1 card_id=P1-4", "place_field_card player=P2 card_id=P2-5")
    t.do("declare_skill player=P1 card_id=P1-4", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 4, DEFER [DAMAGE P2 1]]")
    assert (t.slots("P2"), t.overflow("P2"), t.D("P2"), t.dmg()) == ("XX", 0, 4, (0, 3))
    assert [(q.amount, q.nullified, q.applied) for q in t.turn.packets] == [(4, 1, True)]
    assert t.discard("P2")[-2:] == ["P2-4↓", "P2-2↓"]
    assert "auto: 1 point(s) to bob nullified by the 3-point cap" in t.turn.notes
    assert t.turn.notes.count("auto: 1 point(s) to bob nullified by the 3-point cap") == 2  # Q1, then the deferred point
    t.do("confirm_end_phase")
    assert t.results() == [] and (t.turn.no, t.hand("P2")) == (4, ["P2-3", "P2-5", "P2-6", "P2-7"])


def test_BAC_RES_10_revealed_guard_is_discarded_face_up():
    t = start(guards=NO_F_GUARDS)
    effect_turn(t, "P1-3", "[REVEAL P2-1, DROP P2-2]", confirm=False)
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 2]")
    assert t.slots("P2") == "XX" and t.discard("P2") == ["P2-2↓", "P2-1↑"]


# -- F triggers and chains: BAC-RES-11/12/13, BAC-ACT-15/16 ----------------------------------------
def ex8_start() -> Table:
    """The start of BAC-EX-8, reached in one battle (P2 first): turn 2, P1 attacker.
    P1 slots S(P1-7 F),X(P1-1), D 3, hand {P1-2,P1-3}; P2 slots S(P2-7 F),U(P2-2), D 1, hand {P2-1,P2-3}."""
    t = start(first="P2")
    effect_turn(
        t,
        "P2-4",
        "[TURN_GUARD P1 1 S, DROP P1-1, TURN_GUARD P2 1 S, DROP P1-4, DROP P1-5, DROP P1-6, DROP P2-5, DROP P2-6]",
        defender_card="P1-4",
    )
    assert (t.turn.no, t.turn.attacker) == (2, P1)
    assert (t.slots("P1"), t.D("P1"), t.hand("P1")) == ("SX", 3, ["P1-2", "P1-3"])
    assert (t.slots("P2"), t.D("P2"), t.hand("P2")) == ("SU", 1, ["P2-1", "P2-3"])
    assert t.used("P1") == t.used("P2") == ""
    return t


def test_BAC_RES_13_F_chain_on_the_spot_and_resumed_remainder():
    """BAC-EX-8."""
    t = ex8_start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-1")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-1")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P1 1]")
    # Q1: P1 has one live slot, so automatic: P1-7 destroyed and queued for the Fall step
    assert (t.slots("P1"), t.D("P1"), t.discard("P1")[-1]) == ("XX", 4, "P1-7↓")
    assert t.turn.fall_queue == ("alice-7",) and t.awaiting() == ("damage", "P2")
    t.do("assign_damage player=P2 slots=[2]")
    assert (t.slots("P2"), t.D("P2"), t.step) == ("SS", 2, "fall")
    assert t.awaiting() == ("f_decision", "P1") and t.turn.awaiting.ref == "alice-7"
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[DAMAGE P2 1, HEAL P1 1]")
    assert (t.card("P1-7").face, t.used("P1")) == ("up", "F")
    assert t.awaiting() == ("damage", "P2")  # 2 live slots, capacity 2 > 1
    t.reject("declare_skill player=P2 card_id=P2-3", "BAC-RES-12", "E_WRONG_STEP", "only F can act from the Fall step on")
    t.do("assign_damage player=P2 slots=[1]")
    # P2-7 dropped while an effect is applied in the Fall step: an on-the-spot decision; HEAL waits
    assert t.awaiting() == ("f_decision", "P2") and t.overflow("P1") == 0
    assert [list(msgspec.to_builtins(f.ops)) for f in t.turn.work if f.kind == "ops"] == [[{"op": "HEAL", "target": P1, "amount": 1}]]
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[DAMAGE P1 1]")
    assert t.step == "end"
    assert (t.slots("P1"), t.overflow("P1"), t.D("P1"), t.hand("P1")) == ("XX", 0, 4, ["P1-2", "P1-3"])
    assert (t.slots("P2"), t.D("P2"), t.hand("P2")) == ("XS", 3, ["P2-3"])
    assert t.dmg() == (2, 2)
    assert (t.used("P1"), t.used("P2")) == ("F", "F")
    assert "P1-7↑" in t.discard("P1") and "P2-7↑" in t.discard("P2") and t.discard("P2")[-1] == "P2-1↑"
    t.do("confirm_end_phase")
    assert (t.turn.no, t.results()) == (3, [])


def test_BAC_RES_12_fall_step_attacker_F_first():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P1 3]", "resolve_effect instance_id=I1 ops=[DAMAGE P2 3]")
    t.do("assign_damage player=P1 slots=[1,1,2]")  # P1-7 (F) destroyed first: defender-sourced packet
    t.do("assign_damage player=P2 slots=[1,1,2]")
    assert t.turn.fall_queue == () and t.step == "fall"
    assert (t.discard("P1"), t.discard("P2")) == (["P1-7↓"], ["P2-7↓"])
    assert t.awaiting() == ("f_decision", "P1")
    t.reject("activate_fall_skill player=P2 card_id=P2-7 ops=[]", "BAC-RES-12", "E_NOT_PENDING_F", "P2-7's decision is not first")
    t.reject("decline_fall_skill player=P2 card_id=P2-7", "BAC-RES-12", "E_NOT_PENDING_F", "P2-7")
    t.reject("activate_fall_skill player=P2 card_id=P1-7 ops=[]", "BAC-ACT-15", "E_NOT_ACTOR", "'P1-7' is not bob's card")
    t.reject("activate_fall_skill player=P1 card_id=P1-7 ops=[]", "BAC-ACT-15", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.reject("activate_fall_skill player=P1 card_id=P1-2 ops=[]", "BAC-ACT-15", "E_NOT_PENDING_F", "'P1-2'")
    t.reject("decline_fall_skill player=P1 card_id=P1-2", "BAC-ACT-16", "E_NOT_PENDING_F", "'P1-2'")
    t.do("decline_fall_skill player=P1 card_id=P1-7")
    # BAC-ACT-16: the trigger is dropped, the card stays face-down, the use is not consumed
    assert (t.card("P1-7").face, t.used("P1")) == ("down", "")
    assert t.awaiting() == ("f_decision", "P2")
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]")
    assert (t.card("P2-7").face, t.used("P2"), t.slots("P2")) == ("up", "F", "XS")
    # BAC-EFF-3: two candidates, slot 2 (S) and slot 1 (X, its card P2-7 in the pile)
    assert t.awaiting() == ("heal", "P2")
    t.do("assign_heal player=P2 slots=[2]")
    assert (t.slots("P2"), t.step) == ("XU", "end")


def test_BAC_ACT_15_fall_skill_ops_cannot_negate_convert_or_defer():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DROP P1-7]")
    assert t.awaiting() == ("f_decision", "P1") and t.step == "fall"
    t.reject("activate_fall_skill player=P1 card_id=P1-7 ops=[NEGATE I1]", "BAC-EFF-4", "E_BAD_OP", "NEGATE: only allowed while a battle instance resolves")
    t.reject("activate_fall_skill player=P1 card_id=P1-7 ops=[CONVERT I1]", "BAC-EFF-5", "E_BAD_OP", "CONVERT")
    t.reject("activate_fall_skill player=P1 card_id=P1-7 ops=[DEFER [DAMAGE P2 1]]", "BAC-EFF-12", "E_BAD_OP", "DEFER")
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[KNOCK 2]")  # P1 attacks: a knock is legal, and immediate
    assert (t.slots("P2"), t.dmg(), t.awaiting()) == ("UU", (0, 2), ("damage", "P2"))


def test_BAC_RES_11_guard_F_dropped_by_an_effect_triggers_and_a_used_F_does_not():
    """BAC-EX-10: once P2's F is used, its guard card is destroyed with no trigger. BAC-RUL-15: a guard dropped face-down triggers too."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DROP P2-7]")  # Resolution step: into the fall queue
    assert (t.slots("P2"), t.discard("P2"), t.step) == ("XU", ["P2-7↓"], "fall")
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]")
    # HEAL: the only candidate is the X slot whose card is in the pile: P2-7 goes back, S, face-down
    assert (t.slots("P2"), t.card("P2-7").zone, t.card("P2-7").face, t.used("P2")) == ("SU", "guard", "down", "F")
    t.do("confirm_end_phase")
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-3")
    t.do("declare_skill player=P2 card_id=P2-1", "declare_through player=P1")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 1]")  # rebound: P2 chooses (S,U)
    t.do("assign_damage player=P2 slots=[1]")
    assert (t.slots("P2"), t.discard("P2")[-2:], t.step) == ("XU", ["P2-7↓", "P2-1↑"], "end")
    assert t.turn.fall_queue == () and t.awaiting() is None


def test_BAC_RES_11_on_the_spot_F_in_the_end_phase():
    """BAC-REW-13 / BAC-RUL-28: nothing is skipped; the decline is an event and the table waits for it."""
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-3", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[]")
    t.do("apply_end_phase_effect source=I1 ops=[DROP P2-7, DAMAGE P2 1]")
    # P2-7 from hand: a drop; the rest of the list is suspended while P2 decides
    assert t.awaiting() == ("f_decision", "P2") and t.slots("P2") == "UU" and t.discard("P2") == ["P2-7↓"]
    t.reject("confirm_end_phase", "BAC-ACT-18", "E_WRONG_STEP", "bob's f_decision first")
    t.reject("apply_end_phase_effect source=I1 ops=[]", "BAC-ACT-17", "E_WRONG_STEP", "bob's f_decision first")
    t.do("decline_fall_skill player=P2 card_id=P2-7")
    assert t.awaiting() == ("damage", "P2")  # the suspended DAMAGE resumes
    t.do("assign_damage player=P2 slots=[2]", "confirm_end_phase")
    assert (t.slots("P2"), t.used("P2"), t.turn.no) == ("US", "", 2)


# -- BAC-RES-14 Remaining step; BAC-RUL-18 ------------------------------------------------------
def test_BAC_RES_14_deferred_ops_run_after_the_fall_step():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DEFER [HEAL P2 1], DROP P2-7, DEFER [DAMAGE P1 1]]")
    assert len(t.turn.deferred) == 2 and t.step == "fall"
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[DAMAGE P1 2]")
    assert (t.step, t.awaiting()) == ("fall", ("damage", "P1"))
    t.do("assign_damage player=P1 slots=[2,2]")
    # Remaining: HEAL P2 1 (only candidate slot 1, X with P2-7 in the pile), then DAMAGE P1 1 at once
    assert (t.slots("P2"), t.slots("P1"), t.overflow("P1"), t.step) == ("SU", "SX", 0, "end")
    assert t.dmg() == (3, 0) and t.turn.deferred == ()


# -- BAC-RES-15 ------------------------------------------------------------------------------
def test_BAC_RES_15_instance_resolves_after_its_card_moved():
    """BAC-RUL-39."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[RETURN P1-2]")
    assert t.card("P1-2").zone == "hand" and t.awaiting() == ("effect", "judge") and t.turn.awaiting.ref == "I1"
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 1]")
    assert t.turn.instances[0].status == "resolved" and t.awaiting() == ("damage", "P2")
    t.do("assign_damage player=P2 slots=[2]")
    assert t.discard("P1") == [] and "P1-2" in t.hand("P1") and t.discard("P2") == ["P2-3↑"]


# -- BAC-RES-17 Drop phase ---------------------------------------------------------------------
def ex15_battle(options=None) -> Table:
    """BAC-EX-15 steps 1-2 (P2 attacker): both F armed and dropped in the Drop phase."""
    t = start(options, guards=(("P1-1", "P1-2"), ("P2-2", "P2-1")), first="P2")
    t.do("place_field_card player=P2 card_id=P2-7", "place_field_card player=P1 card_id=P1-7")
    t.do("declare_skill player=P2 card_id=P2-7", "declare_skill player=P1 card_id=P1-7")
    assert t.step == "drop" and t.discard("P1") == ["P1-7↑"] and t.discard("P2") == ["P2-7↑"]
    assert t.used("P1") == t.used("P2") == ""
    return t


def test_BAC_RES_17_drop_phase_defender_F_first():
    """BAC-EX-15."""
    t = ex15_battle()
    assert t.awaiting() == ("f_decision", "P1")
    t.reject("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]", "BAC-RES-17", "E_NOT_PENDING_F", "P2-7's decision is not first")
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[DAMAGE P2 1]")
    assert t.awaiting() == ("damage", "P2")
    t.do("assign_damage player=P2 slots=[1]")
    assert t.awaiting() == ("f_decision", "P2")
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]")
    assert (t.slots("P2"), t.D("P2"), t.D("P1"), t.step) == ("UU", 0, 0, "end")
    assert (t.used("P1"), t.used("P2")) == ("F", "F")
    t.do("confirm_end_phase")
    assert (t.hand("P1"), t.hand("P2"), t.turn.no) == (["P1-3", "P1-4", "P1-5", "P1-6"], ["P2-3", "P2-4", "P2-5", "P2-6"], 2)


def test_BAC_RUL_17_drop_phase_f_order_attacker_first():
    t = ex15_battle({"drop_phase_f_order": "attacker_first"})
    assert t.awaiting() == ("f_decision", "P2")
    t.reject("decline_fall_skill player=P1 card_id=P1-7", "BAC-RES-17", "E_NOT_PENDING_F", "P1-7")
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[HEAL P2 1]")
    assert t.awaiting() == ("f_decision", "P1") and t.used("P2") == "F" and t.slots("P2") == "UU"


# -- BAC-ACT-17 / BAC-RES-18 end-phase effects ---------------------------------------------------
def test_BAC_ACT_17_end_phase_effects():
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.reject("apply_end_phase_effect source=I1 ops=[]", "BAC-TURN-10", "E_WRONG_STEP", "Action step")
    t.do("declare_skill player=P1 card_id=P1-3", "declare_through player=P2")
    t.reject("apply_end_phase_effect source=I1 ops=[]", "BAC-TURN-10", "E_WRONG_STEP", "Resolution step")
    t.do('resolve_effect instance_id=I1 ops=[LASTING "burn" end_of_next_turn]')
    assert [(l.id, l.source, l.text, l.expires_turn) for l in t.state.set.lasting] == [("L1", "I1", "burn", 2)]
    t.reject("apply_end_phase_effect source=I1 ops=[]", "BAC-ACT-17", "E_NOT_ACTOR", "alice tried", by="P1")
    t.reject("apply_end_phase_effect source=I9 ops=[]", "BAC-ACT-17", "E_BAD_OP", "source 'I9'")
    t.reject("apply_end_phase_effect source=I1 ops=[NEGATE I1]", "BAC-EFF-4", "E_BAD_OP", "NEGATE")
    t.reject("apply_end_phase_effect source=I1 ops=[CONVERT I1]", "BAC-EFF-5", "E_BAD_OP", "CONVERT")
    t.reject("apply_end_phase_effect source=I1 ops=[DEFER [NOTE x]]", "BAC-EFF-12", "E_BAD_OP", "DEFER")
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 3]")  # at once; P2 U,U capacity 4 > 3
    t.do("assign_damage player=P2 slots=[1,1,2]")
    assert (t.slots("P2"), t.dmg()) == ("XS", (0, 3))
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 1]")  # capped: nullified
    assert (t.slots("P2"), t.dmg()) == ("XS", (0, 3))
    t.do("confirm_end_phase")
    # turn 2: the lasting effect is a source for end-phase effects until the end of turn 2
    effect_turn(t, "P2-4", "[]", defender_card="P1-4", confirm=False)
    t.do("apply_end_phase_effect source=L1 ops=[DAMAGE P2 1]")  # controller P1: skill damage to P2
    assert (t.slots("P2"), t.D("P2")) == ("XX", 4)
    t.do("confirm_end_phase")
    assert t.state.set.lasting == ()
    t.do("place_field_card player=P1 card_id=P1-4", "place_field_card player=P2 card_id=P2-5")
    t.do("declare_knock player=P1", "declare_through player=P2")
    t.reject("apply_end_phase_effect source=L1 ops=[]", "BAC-ACT-17", "E_BAD_OP", "'L1'")


def test_BAC_RES_3_nothing_resolves_before_the_reaction():
    """An attacker's skill waits for the counter or through (BAC-TURN-6: the Resolution step follows)."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3", "declare_skill player=P1 card_id=P1-2")
    t.reject("resolve_effect instance_id=I1 ops=[DAMAGE P2 1]", "BAC-TURN-10", "E_WRONG_STEP", "Counter step")
    assert (t.turn.instances[0].status, t.turn.queue, t.step) == ("pending", (), "counter")
    t.do("declare_through player=P2")
    assert (t.turn.queue, t.step, t.turn.awaiting.ref) == (("I1",), "resolution", "I1")


def test_BAC_RUL_31_end_phase_returns_come_before_end_phase_effects():
    """The through card is back in hand when the judge applies an end-phase LOSE (BAC-RES-18)."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[]")
    assert "P2-3" in t.hand("P2")
    t.do("apply_end_phase_effect source=I1 ops=[LOSE P2 5]")
    assert t.hand("P2") == [] and "P2-3↓" in t.discard("P2")


def test_BAC_RES_11_pending_F_stays_when_its_card_is_healed_back():
    """Ruling: the trigger was made by the drop; the decision stays after a heal puts the card
    back in its slot, and an activation turns it face-up where it is (BAC-RES-15 by analogy)."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P1 3]", "resolve_effect instance_id=I1 ops=[DAMAGE P2 3]")
    t.do("assign_damage player=P1 slots=[1,1,2]", "assign_damage player=P2 slots=[1,1,2]")
    t.do("activate_fall_skill player=P1 card_id=P1-7 ops=[HEAL P2 1]")
    t.do("assign_heal player=P2 slots=[1]")
    assert (t.slots("P2"), t.card("P2-7").zone, t.awaiting()) == ("SS", "guard", ("f_decision", "P2"))
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[]")
    c = t.card("P2-7")
    assert (c.zone, c.face, t.used("P2"), t.step) == ("guard", "up", "F", "end")


def test_BAC_ACT_16_decline_by_the_owner_or_the_judge():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[DROP P2-7]")
    assert t.awaiting() == ("f_decision", "P2")
    t.reject("decline_fall_skill player=P2 card_id=P2-7", "BAC-ACT-16", "E_NOT_ACTOR", "alice cannot enter this for bob", by="P1")
    t.reject("decline_fall_skill player=P1 card_id=P2-7", "BAC-ACT-16", "E_NOT_ACTOR", "'P2-7' is not alice's card")
    t.do("decline_fall_skill player=P2 card_id=P2-7", by="judge")
    assert (t.used("P2"), t.card("P2-7").face, t.step) == ("", "down", "end")
