"""BACDEF set and match results: the end-phase checks in order (BAC-OVR-5), concession, void
sets and the match score (BAC-OVR-7, BAC-RUL-26), and the options that shape later sets."""

from __future__ import annotations

import pytest

from tests.bacdef.builders import P1, P2, Table, effect_turn, setup, start

# Decks with no F, so that no drop waits for a decision.
NO_F = (("A", "A", "B", "C", "C", "D", "E"), ("A", "B", "B", "C", "C", "D", "E"))
GUARDS = (("P1-1", "P1-3"), ("P2-1", "P2-2"))


def no_f(options=None) -> Table:
    return start(options, decks=NO_F, guards=GUARDS)


def ex7_start(options=None) -> Table:
    """BAC-EX-7 start: turn 3, P1 attacker; both slots X,X (D 4); P1 hand {P1-2}, P2 hand {P2-5}."""
    t = no_f(options)
    effect_turn(
        t,
        "P1-4",
        "[DROP P1-1, DROP P1-3, DROP P2-1, DROP P2-2, DROP P1-5, DROP P1-6, DROP P1-7, DROP P2-4, DROP P2-6, DROP P2-7]",
        defender_card="P2-3",
    )
    effect_turn(t, "P2-3", "[]", defender_card="P1-2")
    assert (t.turn.no, t.turn.attacker, t.hand("P1"), t.hand("P2")) == (3, P1, ["P1-2"], ["P2-5"])
    assert (t.slots("P1"), t.slots("P2"), t.D("P1"), t.D("P2")) == ("XX", "XX", 4, 4)
    return t


def ex9_start(options=None, p1_guards_gone: bool = False) -> Table:
    """BAC-EX-9 from step 3: turn 2, P2 attacker with hand {P2-3}; P1 handless."""
    t = no_f(options)
    drops = "DROP P1-1, DROP P1-3, " if p1_guards_gone else ""
    effect_turn(t, "P1-4", f"[{drops}LOSE P1 4, DROP P2-4, DROP P2-5, DROP P2-6, DROP P2-7]", defender_card="P2-3")
    assert (t.turn.no, t.turn.attacker, t.hand("P1"), t.hand("P2"), t.turn.handless[P1]) == (2, P2, [], ["P2-3"], True)
    return t


# -- BAC-OVR-5 the checks at confirm_end_phase, in order -------------------------------------------
def test_BAC_OVR_5_both_losing_the_defender_wins():
    """BAC-EX-7 / BAC-RUL-12."""
    t = ex7_start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-5")
    t.do("declare_knock player=P1", "declare_skill player=P2 card_id=P2-5")
    t.do("resolve_effect instance_id=I2 ops=[DAMAGE P1 1]")
    assert (t.overflow("P1"), t.overflow("P2"), t.D("P1"), t.D("P2")) == (1, 1, 5, 5)
    assert t.results() == [] and t.step == "end"
    assert t.hand("P1") == ["P1-2"] and t.discard("P2")[-1] == "P2-5↑"
    t.do("confirm_end_phase")
    assert (t.results(), t.wins(), t.outcome()) == ([("win", "P2")], (0, 1), ("in_progress", None))
    assert t.state.set_results[0].reason == "both players took the 5th point in turn 3; the defender wins (BAC-RUL-12)"
    assert (t.state.set.set_no, t.state.set.stage) == (2, "deck")


def test_BAC_OVR_5_one_losing_the_other_wins():
    """BAC-EX-7 variant: P2 goes through, only P2 is losing, P1 wins."""
    t = ex7_start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-5")
    t.do("declare_knock player=P1", "declare_through player=P2", "confirm_end_phase")
    assert (t.results(), t.wins()) == ([("win", "P1")], (1, 0))
    assert t.state.set_results[0].reason == "bob had no guard left and took damage (turn 3)"


def test_BAC_OVR_5_both_hands_empty_the_defender_wins():
    """BAC-EX-9 steps 3-7 / BAC-RUL-14."""
    t = ex9_start()
    t.do("place_field_card player=P2 card_id=P2-3")
    assert t.step == "action"
    t.do("declare_skill player=P2 card_id=P2-3")
    assert t.turn.reaction == "through"
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P1 1]", "assign_damage player=P1 slots=[1]")
    assert (t.slots("P1"), t.hand("P1"), t.hand("P2"), t.discard("P2")[-1]) == ("SU", [], [], "P2-3↑")
    t.do("confirm_end_phase")
    assert (t.results(), t.wins()) == ([("win", "P1")], (1, 0))
    assert t.state.set_results[0].reason == "both hands empty at the end of turn 2; the defender wins (BAC-RUL-14)"


def test_BAC_RUL_14_both_hands_empty_void_set():
    t = ex9_start({"both_hands_empty_rule": "void_set"})
    t.do("place_field_card player=P2 card_id=P2-3", "declare_skill player=P2 card_id=P2-3", "resolve_effect instance_id=I1 ops=[]")
    t.do("confirm_end_phase")
    assert (t.results(), t.wins(), t.state.void_sets) == ([("void", None)], (0, 0), 1)


def test_BAC_OVR_5_a_loser_is_checked_before_empty_hands():
    t = ex9_start({"both_hands_empty_rule": "void_set"}, p1_guards_gone=True)
    t.do("place_field_card player=P2 card_id=P2-3", "declare_skill player=P2 card_id=P2-3")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P1 1]")
    assert (t.overflow("P1"), t.hand("P1"), t.hand("P2")) == (1, [], [])
    t.do("confirm_end_phase")
    assert (t.results(), t.state.void_sets) == ([("win", "P2")], 0)


def test_BAC_OVR_5_the_set_goes_on_with_a_card_left():
    """BAC-EX-9 variant: a knock returns P2-3; turn 3 (P1 attacker, handless) is skipped."""
    t = ex9_start()
    t.do("place_field_card player=P2 card_id=P2-3", "declare_knock player=P2", "assign_damage player=P1 slots=[1]")
    assert t.hand("P2") == ["P2-3"]
    t.do("confirm_end_phase")
    assert (t.results(), t.turn.no, t.turn.attacker, t.turn.skipped) == ([], 3, P1, True)


# -- BAC-ACT-22 / BAC-RUL-35 concession ---------------------------------------------------------
def test_BAC_ACT_22_concession():
    """BAC-OVR-6: a set also ends by concession (BAC-RUL-35)."""
    t = start()
    t.reject("concede_set player=P2", "BAC-ACT-22", "E_NOT_ACTOR", "alice cannot enter this for bob", by="P1")
    t.do("place_field_card player=P1 card_id=P1-2")
    t.do("concede_set player=P2", by="judge")
    assert (t.results(), t.wins(), t.state.set_results[0].reason) == ([("win", "P1")], (1, 0), "bob conceded set 1")
    # during setup too ("at any point during a set")
    assert t.state.set.stage == "deck"
    t.do("concede_set player=P1")
    assert (t.results(), t.wins()) == ([("win", "P1"), ("win", "P2")], (1, 1))


def test_BAC_RUL_35_allow_concession_off():
    t = start({"allow_concession": False})
    t.reject("concede_set player=P2", "BAC-ACT-22", "E_CONFIG", "allow_concession", "bob cannot concede")
    # the author is checked first (§5.1)
    t.reject("concede_set player=P2", "BAC-ACT-22", "E_NOT_ACTOR", by="P1")


# -- BAC-OVR-7 the match -----------------------------------------------------------------------
def test_BAC_OVR_7_two_set_wins_end_the_match():
    t = start()
    t.do("concede_set player=P2")
    assert t.outcome() == ("in_progress", None)
    setup(t)
    t.do("place_field_card player=P1 card_id=P1-2")
    t.do("concede_set player=P2")
    assert (t.outcome(), t.wins(), t.state.status, t.state.match_winner) == (("won", "P1"), (2, 0), "won", P1)
    assert (t.state.set.stage, t.state.set.turn) == ("over", None)


def test_BAC_OVR_7_events_after_the_match_are_rejected():
    t = start()
    t.do("concede_set player=P2", "concede_set player=P2")
    assert t.outcome() == ("won", "P1")
    for line in (
        "register_deck player=P1 letters=[A,A,A,A,A,A,A]",
        "place_field_card player=P1 card_id=P1-2",
        "concede_set player=P1",
        'declare_set_void reason="x"',
        "confirm_end_phase",
        'rewind to_seq=8 cause=judge_error reason="x"',
        'rewind to_seq=6 cause=contradiction reason="x"',
    ):
        t.reject(line, "BAC-OVR-7", "E_MATCH_OVER", "the match is over (won)")
    correct = {"type": "correct", "by": "judge", "at_seq": 8, "event": {"type": "confirm_end_phase", "by": "judge"}, "reason": "x"}
    t.reject(correct, "BAC-REW-14", "E_NO_CORRECTION")


def void_a_set(t: Table) -> None:
    """Play the current set's setup as needed and void it by a contradiction (contradiction_replays = 0)."""
    st = t.state.set
    if st.stage == "deck":
        setup(t)
    elif st.stage == "guards":
        setup(t, decks=None)
    elif st.stage == "first_player":
        t.do("decide_first_player first_player=P1 method=rps")
    t.do(f'rewind to_seq={t.turn.start_seq} cause=contradiction reason="x"')


def test_BAC_RUL_26_void_set_limit_draws_the_match():
    t = start({"contradiction_replays": 0, "rebuild_deck_each_set": False})
    for n in range(1, 4):
        assert t.outcome() == ("in_progress", None)
        void_a_set(t)
        assert t.state.void_sets == n
    assert (t.outcome(), t.results(), t.state.status) == (("drawn", None), [("void", None)] * 3, "drawn")
    t.reject("concede_set player=P1", "BAC-OVR-7", "E_MATCH_OVER", "the match is over (drawn)")


def test_BAC_RUL_26_no_void_set_limit():
    t = start({"contradiction_replays": 0, "rebuild_deck_each_set": False, "void_set_limit": None})
    for _ in range(4):
        void_a_set(t)
    assert (t.outcome(), t.state.void_sets, t.state.set.set_no) == (("in_progress", None), 4, 5)


def test_BAC_RUL_26_void_set_limit_reached_with_a_lead():
    t = start({"contradiction_replays": 0, "void_set_limit": 1, "rebuild_deck_each_set": False})
    t.do("concede_set player=P2")
    void_a_set(t)
    assert (t.outcome(), t.wins(), t.results()) == (("won", "P1"), (1, 0), [("win", "P1"), ("void", None)])


def test_BAC_RUL_26_void_set_is_replaced():
    """BAC-EX-12: win P1, void, win P2, win P1 -> P1 wins 2-1 after 4 sets."""
    t = start({"contradiction_replays": 0, "rebuild_deck_each_set": False})
    t.do("concede_set player=P2")
    void_a_set(t)
    setup(t, decks=None)
    t.do("concede_set player=P1")
    assert (t.outcome(), t.wins()) == (("in_progress", None), (1, 1))
    t.do("concede_set player=P2")
    assert (t.outcome(), t.wins(), t.state.void_sets, len(t.results())) == (("won", "P1"), (2, 1), 1, 4)


def test_BAC_RUL_26_void_set_consumes_slot():
    """BAC-EX-12: with void_set_consumes_slot, three sets at 1-1 draw the match."""
    t = start({"contradiction_replays": 0, "rebuild_deck_each_set": False, "void_set_consumes_slot": True})
    t.do("concede_set player=P2")
    void_a_set(t)
    assert t.outcome() == ("in_progress", None)
    t.do("concede_set player=P1")
    assert (t.outcome(), t.wins(), t.results()) == (("drawn", None), (1, 1), [("win", "P1"), ("void", None), ("win", "P2")])


# -- options that shape later sets ------------------------------------------------------------
def test_BAC_RUL_4_rebuild_deck_each_set():
    t = start()
    t.do("concede_set player=P2")
    assert (t.state.set.set_no, t.state.set.stage, t.ps("P1").deck) == (2, "deck", ())
    t.do("register_deck player=P1 letters=[A,A,A,A,A,A,A]")
    assert t.ps("P1").deck == ("A",) * 7


def test_BAC_RUL_4_decks_reused_when_not_rebuilt():
    t = start({"rebuild_deck_each_set": False})
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-5")  # P1's D used in set 1
    t.do("concede_set player=P2")
    assert (t.state.set.set_no, t.state.set.stage) == (2, "guards")
    assert t.ps("P1").deck == ("A", "A", "B", "C", "D", "E", "F") and t.ps("P2").deck == ("A", "B", "B", "C", "C", "D", "F")
    assert t.hand("P1") == [f"P1-{n}" for n in range(1, 8)] and t.used("P1") == "" and t.discard("P1") == []
    t.reject("register_deck player=P1 letters=[A,A,A,A,A,A,A]", "BAC-SETUP-5", "E_WRONG_STEP", "guards step")


def test_BAC_RUL_4_decks_of_match_started_are_for_set_1_only():
    t = Table(decks={"P1": NO_F[0], "P2": NO_F[1]})
    setup(t, decks=None, guards=GUARDS)
    t.do("concede_set player=P1")
    assert t.state.set.stage == "deck"


def test_BAC_RUL_6_loser_chooses_the_first_player():
    t = Table({"first_player_rule": "loser_chooses", "rebuild_deck_each_set": False, "contradiction_replays": 0})
    setup(t)  # set 1: nothing decided yet, so no chooser is needed
    t.do("concede_set player=P2")
    setup(t, decks=None, first=None)
    t.reject("decide_first_player first_player=P2 method=choice chosen_by=P1", "BAC-ACT-4", "E_NOT_ACTOR", "the loser of the last set (bob) chooses, not alice")
    t.reject("decide_first_player first_player=P2 method=choice", "BAC-ACT-4", "E_NOT_ACTOR", "(bob) chooses, not None")
    t.do("decide_first_player first_player=P1 method=choice chosen_by=P2")
    assert t.turn.attacker == P1
    # a void set is not decided: the loser of set 1 still chooses for set 3
    t.do(f'rewind to_seq={t.turn.start_seq} cause=contradiction reason="x"')
    setup(t, decks=None, first=None)
    t.reject("decide_first_player first_player=P2 method=choice chosen_by=P1", "BAC-ACT-4", "E_NOT_ACTOR", "(bob)")
    t.do("decide_first_player first_player=P2 method=choice chosen_by=P2")
    assert (t.state.set.set_no, t.turn.attacker) == (3, P2)


def test_BAC_RUL_6_decide_each_set_ignores_the_chooser():
    t = start()
    t.do("concede_set player=P2")
    setup(t, first=None)
    t.do("decide_first_player first_player=P2 method=rps chosen_by=P1")
    assert t.turn.attacker == P2


@pytest.mark.parametrize("bad", [{"no_such_flag": True}, {"contradiction_replays": -1}, {"void_set_limit": 0}, {"knock_card_fate": "burn"}])
def test_BAC_GEN_5_option_values_are_checked(bad):
    from adjudicator.engine.protocol import Malformed

    with pytest.raises(Malformed):
        Table(bad)
