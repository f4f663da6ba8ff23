"""BACDEF rewinds, voids and corrections (§8): contradiction rewinds and their limit, early void,
judge-error rewinds and their floor, and the refused generic correction."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.engine.fold import Branch
from adjudicator.games.bacdef.state import clone
from tests.bacdef.builders import P1, P2, Table, start

CONTRA = 'rewind to_seq={to} cause=contradiction reason="the texts cannot both be carried out"'
JUDGE_ERR = 'rewind to_seq={to} cause=judge_error reason="wrong card entered"'


def attempt_1(options=None) -> Table:
    """Turn 1 (start_seq 6), BAC-EX-11 style: both players activate D; I2 resolved (seq 7-11)."""
    t = start(options)
    t.script(
        """
        place_field_card player=P1 card_id=P1-5
        place_field_card player=P2 card_id=P2-6
        declare_skill player=P1 card_id=P1-5
        declare_skill player=P2 card_id=P2-6
        resolve_effect instance_id=I2 ops=[DAMAGE P1 1]
        """
    )
    assert (t.seq, t.turn.start_seq, t.used("P1"), t.used("P2")) == (11, 6, "D", "D")
    return t


def snapshot_figures(t: Table, seq: int) -> dict:
    return msgspec.to_builtins(t.fold.effective_state_at(seq))


# -- BAC-REW-3 / BAC-REW-4 / BAC-REW-5 -------------------------------------------------------------
def test_BAC_REW_4_contradiction_restores_the_turn_start_snapshot():
    """BAC-EX-11 step 4."""
    t = attempt_1()
    t.do(CONTRA.format(to=6) + " instance_ids=[I1,I2]")
    assert t.seq == 12 and t.turn.replays_used == 1
    s = clone(t.state)
    s.set.turn.replays_used = 0
    s.set.turn.notes = ()
    assert msgspec.to_builtins(s) == snapshot_figures(t, 6)
    assert (t.step, t.dmg(), t.turn.instances, t.turn.packets, t.turn.queue) == ("standby", (0, 0), (), (), ())
    assert t.hand("P1") == ["P1-2", "P1-3", "P1-4", "P1-5", "P1-6"] and t.hand("P2") == ["P2-1", "P2-3", "P2-4", "P2-5", "P2-6"]
    assert t.card("P1-5").face == "down" and t.used("P1") == t.used("P2") == ""
    assert t.turn.notes == ("auto: turn 1 rewound for a contradiction; replay 1 of 2",)
    # the attempt stays in the log as an abandoned branch
    assert t.fold.branches == [Branch(12, 6, (7, 8, 9, 10, 11))]
    assert t.fold.effective_order() == [1, 2, 3, 4, 5, 6, 12]


def test_BAC_REW_3_contradiction_window_target_and_author():
    """BAC-REW-1 the cause field; BAC-RUL-21 only the judge declares a contradiction (BAC-REW-2)."""
    t = Table()
    t.reject(CONTRA.format(to=1), "BAC-REW-3", "E_WRONG_STEP", "only during a turn")
    t = attempt_1()
    t.reject(CONTRA.format(to=7), "BAC-REW-3", "E_REWIND_TARGET", "start of turn 1 (seq 6), not to seq 7")
    t.reject(CONTRA.format(to=1), "BAC-REW-3", "E_REWIND_TARGET", "not to seq 1")
    t.reject(CONTRA.format(to=6), "BAC-ACT-19", "E_NOT_ACTOR", "alice tried", by="P1")
    t.do('rewind to_seq=6 reason="cause left out: a contradiction"')  # BAC-ACT-19: the default cause
    assert t.turn.replays_used == 1


def test_BAC_REW_3_contradiction_in_a_skipped_turn():
    from tests.bacdef.builders import handless_p2

    t = handless_p2()
    t.do("place_field_card player=P1 card_id=P1-4", "declare_knock player=P1", "assign_damage player=P2 slots=[1]", "confirm_end_phase")
    assert t.turn.skipped
    start_seq = t.turn.start_seq
    t.do(CONTRA.format(to=start_seq))
    assert (t.turn.no, t.turn.skipped, t.step, t.turn.replays_used) == (4, True, "end", 1)


def test_BAC_REW_7_third_contradiction_voids_the_set():
    """BAC-EX-12 steps 1-3 (set 1 here). BAC-REW-9: no winner, set_wins unchanged, void_sets + 1, a new set from the Deck step."""
    t = attempt_1()
    t.do(CONTRA.format(to=6))
    t.do("place_field_card player=P1 card_id=P1-2")
    t.do(CONTRA.format(to=6))
    assert t.turn.replays_used == 2 and t.turn.no == 1
    seq = t.seq + 1
    t.do(CONTRA.format(to=6))
    assert (t.results(), t.wins(), t.state.void_sets, t.state.floor_seq) == ([("void", None)], (0, 0), 1, seq)
    assert "contradiction declared 3 times in turn 1" in t.state.set_results[0].reason
    assert (t.state.set.set_no, t.state.set.stage, t.state.set.turn) == (2, "deck", None)
    # BAC-REW-11: the void result stands
    t.reject(JUDGE_ERR.format(to=6), "BAC-REW-11", "E_REWIND_TARGET", "seq 6 is before seq 15")


@pytest.mark.parametrize("limit, rewinds_before_void", [(0, 1), (1, 2)])
def test_BAC_RUL_22_contradiction_replays(limit, rewinds_before_void):
    t = attempt_1({"contradiction_replays": limit})
    for _ in range(rewinds_before_void - 1):
        t.do(CONTRA.format(to=6))
        assert t.results() == []
    t.do(CONTRA.format(to=6))
    assert t.results() == [("void", None)] and t.state.set.set_no == 2


def test_BAC_REW_5_replays_used_survives_judge_error_rewinds():
    t = attempt_1()
    t.do(CONTRA.format(to=6))  # seq 12
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-1")  # 13, 14
    t.do(JUDGE_ERR.format(to=13))  # an undo of seq 14 (BAC-REW-12)
    assert (t.turn.replays_used, t.field("P1"), t.field("P2"), t.step) == (1, ["P1-3"], [], "standby")
    t.do(JUDGE_ERR.format(to=6))  # back before the contradiction rewind: seq 12 is abandoned, still counted
    assert (t.turn.replays_used, t.field("P1")) == (1, [])
    assert t.turn.notes == ("auto: judge-error rewind to seq 6",)
    t.do(CONTRA.format(to=6))
    assert t.turn.replays_used == 2
    t.do(CONTRA.format(to=6))
    assert t.results() == [("void", None)]


def test_BAC_RUL_24_the_count_restarts_each_turn():
    t = start()
    t.do(CONTRA.format(to=6))
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[1]", "confirm_end_phase")
    assert (t.turn.no, t.turn.replays_used, t.turn.start_seq) == (2, 0, t.seq)


# -- BAC-REW-6 / BAC-RUL-23 replay choices --------------------------------------------------------
def test_BAC_RUL_23_replay_choices_are_free_by_default():
    t = attempt_1()
    t.do(CONTRA.format(to=6))
    t.do("place_field_card player=P2 card_id=P2-1", "place_field_card player=P1 card_id=P1-2")
    assert (t.field("P1"), t.field("P2"), t.step) == (["P1-2"], ["P2-1"], "action")


def test_BAC_REW_6_replay_must_repeat():
    """BAC-EX-11 variant: the replay must repeat attempt 1's decisions."""
    t = attempt_1({"replay_must_repeat": True})
    t.do(CONTRA.format(to=6))
    t.reject("place_field_card player=P2 card_id=P2-1", "BAC-REW-6", "E_REPLAY_MISMATCH", "place_field_card player=bob card_id=bob-6")
    t.do("place_field_card player=P2 card_id=P2-6", "place_field_card player=P1 card_id=P1-5")
    t.reject("declare_knock player=P1", "BAC-REW-6", "E_REPLAY_MISMATCH", "declare_skill player=alice card_id=alice-5")
    t.do("declare_skill player=P1 card_id=P1-5", "declare_skill player=P2 card_id=P2-6")
    # beyond what attempt 1 decided, choices are free again
    t.do("resolve_effect instance_id=I2 ops=[]", "resolve_effect instance_id=I1 ops=[DAMAGE P2 1]")
    t.do("assign_damage player=P2 slots=[2]")
    assert t.slots("P2") == "US" and t.step == "end"


# -- BAC-REW-8 / BAC-RUL-25 early void -----------------------------------------------------------
def test_BAC_REW_8_early_void():
    """BAC-EX-12 'Early void'."""
    t = Table()
    t.reject('declare_set_void reason="x"', "BAC-REW-8", "E_WRONG_STEP", "only during a turn")
    t = start()
    t.reject('declare_set_void reason="x"', "BAC-REW-8", "E_NO_CONTRADICTION", "no contradiction has been declared in this turn")
    t.do(CONTRA.format(to=6))
    t.reject('declare_set_void reason="x"', "BAC-ACT-20", "E_NOT_ACTOR", "bob tried", by="P2")
    t.do('declare_set_void reason="unresolvable"')
    assert t.results() == [("void", None)] and t.state.void_sets == 1 and t.state.floor_seq == t.seq
    assert t.state.set_results[0].reason == "declared void by the judge: unresolvable"


def test_BAC_RUL_25_judge_may_void_early_off():
    t = start({"judge_may_void_early": False})
    t.reject('declare_set_void reason="x"', "BAC-REW-8", "E_CONFIG", "judge_may_void_early is off")
    t.do(CONTRA.format(to=6))
    t.reject('declare_set_void reason="x"', "BAC-REW-8", "E_CONFIG", "judge_may_void_early is off")


# -- BAC-REW-10 / BAC-REW-11 / BAC-REW-12 judge-error rewinds -------------------------------------
def test_BAC_REW_10_judge_error_rewind_to_any_effective_seq_of_the_turn():
    t = attempt_1()
    t.reject(JUDGE_ERR.format(to=9), "BAC-ACT-21", "E_NOT_ACTOR", "alice tried", by="P1")
    t.do(JUDGE_ERR.format(to=9))
    s = clone(t.state)
    s.set.turn.notes = t.fold.effective_state_at(9).set.turn.notes
    assert msgspec.to_builtins(s) == snapshot_figures(t, 9)
    assert (t.step, t.used("P1"), t.used("P2"), t.turn.replays_used) == ("counter", "D", "", 0)
    # BAC-RUL-27: during turn 1, back into the setup
    t.do(JUDGE_ERR.format(to=4))
    assert (t.state.set.stage, t.guard_ids("P1"), t.ps("P2").guards) == ("guards", ["P1-7", "P1-1"], ())


def test_BAC_RUL_27_allow_judge_rewind_off():
    """BAC-EX-13 step 2."""
    t = attempt_1({"allow_judge_rewind": False})
    t.reject(JUDGE_ERR.format(to=6), "BAC-REW-10", "E_CONFIG", "allow_judge_rewind")
    t.reject(JUDGE_ERR.format(to=9), "BAC-REW-10", "E_CONFIG", "allow_judge_rewind")


def test_BAC_REW_11_completed_turns_are_final():
    """BAC-EX-13 step 3."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[1]", "confirm_end_phase")
    u = t.seq
    t.do("place_field_card player=P2 card_id=P2-1")
    t.reject(JUDGE_ERR.format(to=u - 1), "BAC-REW-11", "E_REWIND_TARGET", f"seq {u - 1} is before seq {u}")
    t.reject(JUDGE_ERR.format(to=6), "BAC-REW-11", "E_REWIND_TARGET", "it stands")
    t.reject(JUDGE_ERR.format(to=t.seq + 1), "BAC-REW-11", "E_REWIND_TARGET", "not an earlier event")
    t.do(JUDGE_ERR.format(to=u))
    assert (t.turn.no, t.step, t.field("P2"), t.slots("P2")) == (2, "standby", [], "SU")
    # the abandoned placement (seq u+1) is no longer a target
    t.reject(JUDGE_ERR.format(to=u + 1), "BAC-REW-11", "E_REWIND_TARGET", f"seq {u + 1} is not an earlier event of the effective history")


def test_BAC_REW_11_a_conceded_set_stands():
    t = start()
    t.do("concede_set player=P2")
    t.reject(JUDGE_ERR.format(to=6), "BAC-REW-11", "E_REWIND_TARGET", "seq 6 is before seq 7")
    assert t.results() == [("win", "P1")]


# -- BAC-REW-14 no retroactive correction ----------------------------------------------------------
def test_BAC_REW_14_correct_is_always_rejected():
    """BAC-RUL-48."""
    t = attempt_1()
    correct = {
        "type": "correct",
        "by": "judge",
        "at_seq": 8,
        "event": {"type": "place_field_card", "by": P2, "player": P2, "card_id": "bob-1"},
        "reason": "forgotten",
    }
    v = t.reject(correct, "BAC-REW-14", "E_NO_CORRECTION", "no retroactive correction", "judge-error rewind")
    assert v.rule_id == "BAC-REW-14"
    t.reject(dict(correct, by=P1), "BAC-REW-14", "E_NO_CORRECTION")
