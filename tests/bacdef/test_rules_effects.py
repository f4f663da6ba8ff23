"""BACDEF primitive operations (§10.2): each op's effect and each of its E_BAD_OP cases."""

from __future__ import annotations

import pytest

from adjudicator.games.bacdef.state import clone
from tests.bacdef.builders import P1, P2, Table, start

NO_F_GUARDS = (("P1-1", "P1-2"), ("P2-1", "P2-2"))


def resolving(options=None, guards=NO_F_GUARDS) -> Table:
    """Turn 1, Resolution step: P1's skill I1 (P1-3, B) waits for its ops; P2 went through with P2-3."""
    t = start(options, guards=guards)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-3", "declare_through player=P2")
    assert t.awaiting() == ("effect", "judge")
    return t


def end_step(options=None, guards=NO_F_GUARDS) -> Table:
    """Turn 1, End step, nothing pending; I1 (P1's skill, P1-3) resolved with no ops."""
    t = resolving(options, guards)
    t.do("resolve_effect instance_id=I1 ops=[]")
    assert t.step == "end"
    return t


# -- BAC-EFF-1 DAMAGE ----------------------------------------------------------------------------
def test_BAC_EFF_1_damage_packet_kinds():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 1, DAMAGE P1 1]")
    assert [(q.target, q.amount, q.kind, q.source_side) for q in t.turn.packets] == [(P2, 1, "skill", "attacker"), (P1, 1, "rebound", "attacker")]


@pytest.mark.parametrize(
    "ops, rule, quote",
    [
        ("[DAMAGE P2 0]", "BAC-EFF-1", "DAMAGE: amount must be at least 1, not 0"),
        ("[DAMAGE carol 1]", "BAC-EFF-1", "DAMAGE: target 'carol' is not a player"),
        ("[KNOCK 0]", "BAC-EFF-2", "KNOCK: count must be at least 1, not 0"),
        ("[HEAL P1 0]", "BAC-EFF-3", "HEAL: amount must be at least 1, not 0"),
        ("[HEAL carol 1]", "BAC-EFF-3", "HEAL: target 'carol'"),
        ("[LOSE P2 0]", "BAC-EFF-6", "LOSE: count must be at least 1, not 0"),
        ("[LOSE carol 1]", "BAC-EFF-6", "LOSE: victim 'carol'"),
        ("[LOSE P2 1 carol]", "BAC-EFF-6", "chooser must be 'victim', 'opponent' or a player, not 'carol'"),
        ("[DROP P2-9]", "BAC-EFF-7", "DROP: no card 'bob-9'"),
        ("[RETURN P2-9]", "BAC-EFF-8", "RETURN: no card 'bob-9'"),
        ("[REVEAL P1-8]", "BAC-EFF-9", "REVEAL: no card 'alice-8'"),
        ("[TURN_GUARD P2 3 S]", "BAC-EFF-10", "TURN_GUARD: slot must be 1 or 2, not 3"),
        ("[TURN_GUARD carol 1 S]", "BAC-EFF-10", "TURN_GUARD: player 'carol'"),
        ("[PREVENT P1 0]", "BAC-EFF-11", "PREVENT: amount must be at least 1 or 'all', not 0"),
        ("[PREVENT carol 1]", "BAC-EFF-11", "PREVENT: player 'carol'"),
        ("[DEFER [DEFER [DAMAGE P2 1]]]", "BAC-EFF-12", "(and never nested)"),
        ("[DEFER [NEGATE I1]]", "BAC-EFF-4", "NEGATE: only allowed while a battle instance resolves"),
        ("[DEFER [CONVERT I1]]", "BAC-EFF-5", "CONVERT: only allowed while a battle instance resolves"),
        ("[DEFER [DAMAGE P2 0]]", "BAC-EFF-1", "DAMAGE: amount must be at least 1"),
    ],
)
def test_BAC_EFF_bad_op_rejects_the_whole_list(ops, rule, quote):
    """§10.2: an illegal op makes the whole event rejected with E_BAD_OP, naming the op's rule."""
    t = resolving()
    t.reject(f"resolve_effect instance_id=I1 ops=[DAMAGE P2 1, {ops[1:-1]}]", rule, "E_BAD_OP", quote)
    assert t.turn.packets == () and t.turn.instances[0].status == "pending"


# -- BAC-EFF-2 KNOCK -----------------------------------------------------------------------------
def test_BAC_EFF_2_knock_op_by_the_attacker_and_BAC_LIM_2_not_by_the_defender():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_skill player=P2 card_id=P2-3")
    t.reject("resolve_effect instance_id=I2 ops=[KNOCK 1]", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", "bob is the defender this turn", "(alice)")
    t.reject("resolve_effect instance_id=I2 ops=[DEFER [KNOCK 1]]", "BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", "bob")
    t.do("resolve_effect instance_id=I2 ops=[]", "resolve_effect instance_id=I1 ops=[KNOCK 3]")
    q = t.turn.packets[0]
    assert (q.source_side, q.target, q.amount, q.kind) == ("attacker", P2, 3, "knock")


# -- BAC-EFF-3 HEAL; BAC-LIM-7; BAC-ACT-13; BAC-RUL-9 ------------------------------------------------
def test_BAC_LIM_7_heal_with_both_guards_upright_has_no_effect():
    """BAC-EX-16 step 3: recorded, not rejected. BAC-RUL-46: the heal works on the guard area."""
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[HEAL P1 1]")
    assert t.slots("P1") == "UU" and "auto: heal point on alice has no effect (BAC-LIM-7)" in t.turn.notes


def test_BAC_EFF_3_heal_removes_overflow_first_then_asks_for_a_choice():
    """BAC-EX-6 variant (b)."""
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-1, DROP P1-2, DAMAGE P1 1]")
    assert (t.slots("P1"), t.overflow("P1"), t.D("P1")) == ("XX", 1, 5)
    t.do("apply_end_phase_effect source=I1 ops=[HEAL P1 2]")
    assert (t.overflow("P1"), t.D("P1"), t.awaiting()) == (0, 4, ("heal", "P1"))
    assert t.turn.awaiting.points == 1
    t.reject("assign_heal player=P2 slots=[1]", "BAC-ACT-13", "E_NOT_ACTOR", "waits for alice's choice, not bob's")
    t.reject("assign_heal player=P1 slots=[1]", "BAC-ACT-13", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.reject("assign_heal player=P1 slots=[3]", "BAC-ACT-13", "E_ASSIGNMENT", "slot 3 of alice cannot be healed now (candidates: [1, 2])")
    t.reject("assign_heal player=P1 slots=[]", "BAC-ACT-13", "E_ASSIGNMENT", "too few slots given")
    t.reject("assign_heal player=P1 slots=[1,2]", "BAC-ACT-13", "E_ASSIGNMENT", "[2] left over")
    t.do("assign_heal player=P1 slots=[1]")
    c = t.card("P1-1")
    assert (t.slots("P1"), t.D("P1"), c.zone, c.face, c.orientation) == ("SX", 3, "guard", "down", "sideways")
    assert t.discard("P1") == ["P1-3↑", "P1-2↓"]


def test_BAC_EFF_3_one_choice_per_heal_point_that_has_one():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, TURN_GUARD P1 1 S, HEAL P1 2]")
    assert (t.slots("P1"), t.awaiting()) == ("SX", ("heal", "P1"))
    # slot 2 first (X -> S), then the 2nd point has two S candidates: one slot per choice
    t.reject("assign_heal player=P1 slots=[2]", "BAC-ACT-13", "E_ASSIGNMENT", "too few")
    t.do("assign_heal player=P1 slots=[2,2]")
    assert (t.slots("P1"), t.D("P1")) == ("SU", 1)
    # slot 1 first (S -> U) leaves one candidate: no second choice
    t2 = end_step()
    t2.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, TURN_GUARD P1 1 S, HEAL P1 2]")
    t2.reject("assign_heal player=P1 slots=[1,2]", "BAC-ACT-13", "E_ASSIGNMENT", "[2] left over")
    t2.do("assign_heal player=P1 slots=[1]")
    assert (t2.slots("P1"), t2.D("P1")) == ("US", 1)


def test_BAC_RUL_9_heal_cannot_restore_destroyed_when_the_option_is_off():
    t = end_step({"heal_can_restore_destroyed": False})
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, TURN_GUARD P1 1 S, HEAL P1 2]")
    # only slot 1 (S) is a candidate: one point used, the second has no candidate
    assert (t.slots("P1"), t.awaiting()) == ("UX", None)
    assert "auto: heal point on alice has no effect (BAC-LIM-7)" in t.turn.notes


def test_BAC_EFF_8_returned_guard_card_blocks_the_heal():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, RETURN P1-2, HEAL P1 1]")
    assert (t.slots("P1"), t.hand("P1"), t.card("P1-2").zone) == ("UX", ["P1-2", "P1-4", "P1-5", "P1-6", "P1-7"], "hand")
    assert "auto: heal point on alice has no effect (BAC-LIM-7)" in t.turn.notes


# -- BAC-EFF-4/5 NEGATE and CONVERT outside the Resolution step ------------------------------------
@pytest.mark.parametrize("op, rule", [("NEGATE I1", "BAC-EFF-4"), ("CONVERT I1", "BAC-EFF-5"), ("DEFER [NOTE x]", "BAC-EFF-12")])
def test_BAC_EFF_4_5_12_not_in_end_phase_ops(op, rule):
    t = end_step()
    t.reject(f"apply_end_phase_effect source=I1 ops=[{op}]", rule, "E_BAD_OP", "only allowed while a battle instance resolves")


# -- BAC-EFF-6 LOSE; BAC-ACT-14 --------------------------------------------------------------------
def test_BAC_EFF_6_lose_whole_hand_when_it_is_small_enough():
    """BAC-RUL-33: lost cards go face-down."""
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[LOSE P2 5]")
    assert t.hand("P2") == [] and t.discard("P2") == ["P2-4↓", "P2-5↓", "P2-6↓", "P2-7↓"]
    assert "auto: bob loses every hand card" in t.turn.notes
    # P2-7 is an unused F: lost in the Resolution step, it waits in the fall queue (BAC-RES-8)
    assert t.step == "fall" and t.awaiting() == ("f_decision", "P2")


def test_BAC_EFF_6_victim_chooses_lost_cards():
    """BAC-EX-16 steps 3-5: the lost F triggers in the Fall step."""
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[LOSE P2 1]")
    assert t.awaiting() == ("lost", "P2") and t.turn.awaiting.points == 1
    t.reject("choose_lost_cards player=P1 card_ids=[P2-7]", "BAC-ACT-14", "E_NOT_ACTOR", "waits for bob's choice, not alice's")
    t.reject("choose_lost_cards player=P2 card_ids=[P2-7]", "BAC-ACT-14", "E_NOT_ACTOR", "alice cannot enter this for bob", by="P1")
    t.reject("choose_lost_cards player=P2 card_ids=[P2-7,P2-6]", "BAC-ACT-14", "E_ASSIGNMENT", "exactly 1 different card(s) from bob's hand")
    t.reject("choose_lost_cards player=P2 card_ids=[P2-3]", "BAC-ACT-14", "E_ASSIGNMENT", "['bob-3']")  # on the field
    t.reject("choose_lost_cards player=P2 card_ids=[P1-4]", "BAC-ACT-14", "E_ASSIGNMENT", "['alice-4']")
    t.do("choose_lost_cards player=P2 card_ids=[P2-7]")
    assert t.discard("P2") == ["P2-7↓"] and t.hand("P2") == ["P2-4", "P2-5", "P2-6"]
    assert t.step == "fall" and t.awaiting() == ("f_decision", "P2")
    t.do("activate_fall_skill player=P2 card_id=P2-7 ops=[DAMAGE P1 1]")
    assert t.awaiting() == ("damage", "P1")
    t.do("assign_damage player=P1 slots=[2]", "confirm_end_phase")
    assert (t.D("P1"), t.hand("P1"), t.D("P2"), t.hand("P2")) == (1, ["P1-4", "P1-5", "P1-6", "P1-7"], 0, ["P2-3", "P2-4", "P2-5", "P2-6"])
    assert t.discard("P2") == ["P2-7↑"] and t.used("P2") == "F"


def test_BAC_EFF_6_lose_chosen_by_the_opponent():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[LOSE P2 2 opponent]")
    assert t.awaiting() == ("lost", "P1") and t.turn.awaiting.victim == P2
    t.reject("choose_lost_cards player=P2 card_ids=[P2-4,P2-5]", "BAC-ACT-14", "E_NOT_ACTOR", "waits for alice's choice")
    t.reject("choose_lost_cards player=P1 card_ids=[P1-4,P1-5]", "BAC-ACT-14", "E_ASSIGNMENT", "from bob's hand")
    t.reject("choose_lost_cards player=P1 card_ids=[P2-4,P2-4]", "BAC-ACT-14", "E_ASSIGNMENT", "['bob-4', 'bob-4']")
    t.do("choose_lost_cards player=P1 card_ids=[P2-4,P2-5]")
    assert t.discard("P2") == ["P2-4↓", "P2-5↓"] and t.hand("P2") == ["P2-3", "P2-6", "P2-7"]


# -- BAC-EFF-7 DROP; BAC-RUL-42 -----------------------------------------------------------------------
def test_BAC_EFF_7_drop_from_hand_field_and_guard_is_not_damage():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[DROP P2-4, DROP P2-3, DROP P2-1, DROP P2-2]")
    assert t.discard("P2") == ["P2-4↓", "P2-3↓", "P2-1↓", "P2-2↓"]
    assert (t.slots("P2"), t.overflow("P2"), t.dmg()) == ("XX", 0, (0, 0))
    assert t.field("P2") == [] and t.hand("P2") == ["P2-5", "P2-6", "P2-7"]
    t.reject("apply_end_phase_effect source=I1 ops=[DROP P2-4]", "BAC-EFF-7", "E_BAD_OP", "DROP: bob-4 is already in the discard pile")


def test_BAC_EFF_7_drop_twice_in_one_list_is_rejected():
    t = resolving()
    t.reject("resolve_effect instance_id=I1 ops=[DROP P2-4, DROP P2-4]", "BAC-EFF-7", "E_BAD_OP", "bob-4 is already in the discard pile")
    assert t.hand("P2") == ["P2-4", "P2-5", "P2-6", "P2-7"]


# -- BAC-EFF-8 RETURN ----------------------------------------------------------------------------
def test_BAC_EFF_8_return_from_field_or_discard_only():
    t = resolving()
    t.reject("resolve_effect instance_id=I1 ops=[RETURN P2-4]", "BAC-EFF-8", "E_BAD_OP", "RETURN: bob-4 is in the hand")
    t.reject("resolve_effect instance_id=I1 ops=[RETURN P2-1]", "BAC-EFF-8", "E_BAD_OP", "bob-1 is in the guard")
    t.do("resolve_effect instance_id=I1 ops=[RETURN P2-3, DROP P2-4, RETURN P2-4]")
    assert t.hand("P2") == ["P2-3", "P2-4", "P2-5", "P2-6", "P2-7"] and t.discard("P2") == []
    c = t.card("P2-4")
    assert (c.zone, c.face, c.orientation) == ("hand", "down", "upright")


# -- BAC-EFF-9 REVEAL; BAC-EFF-10 TURN_GUARD -------------------------------------------------------
def test_BAC_EFF_9_reveal_turns_the_card_face_up_where_it_is():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[REVEAL P2-1, REVEAL P2-4]")
    assert (t.card("P2-1").zone, t.card("P2-1").face, t.card("P2-4").zone, t.card("P2-4").face) == ("guard", "up", "hand", "up")
    guard = t.view("P1")["set"]["players"][P2]["guards"][0]
    assert guard == {"slot": 1, "state": "U", "card_id": "bob-1", "letter": "A"}


def test_BAC_EFF_10_turn_guard_changes_a_live_slot_only():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[TURN_GUARD P2 1 S, TURN_GUARD P1 2 S, TURN_GUARD P1 2 U]")
    assert (t.slots("P2"), t.slots("P1"), t.dmg(), t.card("P2-1").orientation) == ("SU", "UU", (0, 0), "sideways")
    t.reject("apply_end_phase_effect source=I1 ops=[DROP P2-2, TURN_GUARD P2 2 U]", "BAC-EFF-10", "E_BAD_OP", "bob's slot 2 is destroyed")


# -- after a pause: an op whose card is no longer where it must be does nothing (ruling) ------------
def test_BAC_EFF_8_return_after_a_pause_finds_the_card_healed_back():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, TURN_GUARD P1 1 S]")
    assert t.slots("P1") == "SX"
    t.do("apply_end_phase_effect source=I1 ops=[HEAL P1 1, RETURN P1-2]")  # P1-2 is in the pile now
    t.do("assign_heal player=P1 slots=[2]")  # P1-2 goes back to slot 2 before RETURN runs
    assert (t.slots("P1"), t.card("P1-2").zone) == ("SS", "guard")
    assert "RETURN alice-2: not on the field or discarded, no effect" in t.turn.notes
    assert t.awaiting() is None and t.step == "end"


def test_BAC_EFF_7_drop_after_a_pause_finds_the_card_already_lost():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[LOSE P2 1, DROP P2-4]")
    t.do("choose_lost_cards player=P2 card_ids=[P2-4]")
    assert t.discard("P2") == ["P2-4↓"] and "DROP bob-4: already discarded, no effect" in t.turn.notes
    assert t.hand("P2") == ["P2-3", "P2-5", "P2-6", "P2-7"]


def test_BAC_EFF_10_turn_guard_after_a_pause_finds_the_slot_destroyed():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 2, TURN_GUARD P2 2 S]")
    t.do("assign_damage player=P2 slots=[2,2]")
    assert (t.slots("P2"), t.awaiting()) == ("UX", None)


# -- BAC-EFF-11 PREVENT; BAC-RES-10 shields before the cap ---------------------------------------
def test_BAC_EFF_11_shield_is_used_before_the_cap():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 2]")
    t.do("assign_damage player=P2 slots=[1,2]")
    assert t.dmg() == (0, 2)
    t.do("apply_end_phase_effect source=I1 ops=[PREVENT P2 1, DAMAGE P2 2]")
    # 2 - 1 (shield) = 1 point, room 1: taken; cap first would have left 0
    assert (t.dmg(), t.turn.shields, t.awaiting(), t.turn.awaiting.points) == ((0, 3), (), ("damage", "P2"), 1)
    assert "auto: 1 point(s) to bob prevented" in t.turn.notes
    t.do("assign_damage player=P2 slots=[1]")
    assert t.slots("P2") == "XS"


def test_BAC_EFF_11_knock_shield_and_all_shield():
    t = start(guards=NO_F_GUARDS)
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I2 ops=[PREVENT P2 1 knock]")
    assert [(s.player, s.remaining, s.kind) for s in t.turn.shields] == []  # used up by the knock
    assert (t.slots("P2"), t.dmg(), t.step) == ("UU", (0, 0), "end")
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 1]")  # controller P1 (the knock's)
    assert t.awaiting() == ("damage", "P2")  # a skill point is not stopped by a knock shield
    t.do("assign_damage player=P2 slots=[1]")
    t.do("apply_end_phase_effect source=I2 ops=[PREVENT P2 all, DAMAGE P2 1]")
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P2 2, KNOCK 1]")
    assert (t.slots("P2"), t.dmg()) == ("SU", (0, 1))
    assert [(s.player, s.remaining, s.kind) for s in t.turn.shields] == [(P2, None, "any")]
    t.do("confirm_end_phase")
    assert t.turn.shields == ()  # until the end of this turn


# -- BAC-EFF-12 DEFER; BAC-EFF-13 LASTING; BAC-EFF-14 NOTE --------------------------------------------
def test_BAC_EFF_12_defer_runs_in_the_remaining_step():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[DEFER [TURN_GUARD P2 1 S, NOTE later]]")
    assert t.step == "end" and t.slots("P2") == "SU" and "note: later" in t.turn.notes


def test_BAC_EFF_13_lasting_until_end_of_turn_expires_at_confirmation():
    t = resolving()
    t.do('resolve_effect instance_id=I1 ops=[LASTING "no heal" end_of_turn, NOTE "shows the hand"]')
    assert [(l.id, l.controller, l.expires_turn) for l in t.state.set.lasting] == [("L1", P1, 1)]
    assert "note: shows the hand" in t.turn.notes  # BAC-EFF-14: no state change
    t.do("apply_end_phase_effect source=L1 ops=[NOTE tick]", "confirm_end_phase")
    assert t.state.set.lasting == () and t.turn.no == 2


def test_BAC_EFF_14_note_changes_no_state():
    t = resolving()
    t.do("resolve_effect instance_id=I1 ops=[]")
    before = t.state
    t.do('apply_end_phase_effect source=I1 ops=[NOTE "the opponent shows their hand"]')
    assert t.state.set.turn.notes == ("note: the opponent shows their hand",)
    after = clone(t.state)
    after.set.turn.notes = before.set.turn.notes
    assert after == before


def test_BAC_EFF_15_invariants_hold_whatever_the_ops():
    """Cards never change owner and none is created or removed; two slots each; overflow only
    with both slots X (BAC-RUL-43)."""
    t = resolving(guards=(("P1-7", "P1-1"), ("P2-7", "P2-2")))
    t.do("resolve_effect instance_id=I1 ops=[DROP P1-1, DROP P2-7, RETURN P2-7, REVEAL P1-7, TURN_GUARD P1 1 S]")
    t.do("decline_fall_skill player=P2 card_id=P2-7")  # dropped in the Resolution step: the Fall step asks
    t.do("apply_end_phase_effect source=I1 ops=[DAMAGE P1 3, HEAL P1 1]")  # destroys P1-7: on the spot
    t.do("decline_fall_skill player=P1 card_id=P1-7")  # then HEAL resumes: overflow 2 -> 1
    st = t.state.set
    for who in (P1, P2):
        ps = st.players[who]
        zones = [*ps.hand, *(g.card_id for g in ps.guards if g.state != "X"), *ps.discard]
        zones += [c.id for c in st.cards.values() if c.owner == who and c.zone == "field"]
        assert sorted(zones) == sorted(f"{who}-{n}" for n in range(1, 8))
        assert all(st.cards[c].owner == who for c in zones) and len(ps.guards) == 2
        assert ps.overflow == 0 or all(g.state == "X" for g in ps.guards)
    assert "P2-7" in t.hand("P2") and t.slots("P2") == "XU"  # returned from the pile: the slot stays X
    assert (t.slots("P1"), t.overflow("P1"), t.card("P1-7").face) == ("XX", 1, "up")
