"""Setup, turn flow, the acting order and concession (E2D-ACT-1, -11…14, -34…38, E2D-TURN-*, E2D-OVR-1)."""

from __future__ import annotations

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.engine.protocol import Violation
from tests.e2drive.builder import ev, started
from tests.e2drive.harness import GAME, PAWNS, table


def test_E2D_OVR_1_two_players_only():
    fold = Fold(GAME, "t")
    line = started()
    line["players"] = ["P1", "P2", "carol"]
    event = decode_event(GAME, "match_started", "judge", {k: v for k, v in line.items() if k not in ("type", "by")})
    try:
        fold.advance(event, 1)
    except Violation as v:
        assert (v.rule_id, v.code) == ("E2D-OVR-1", "PLAYERS")
    else:
        raise AssertionError("three players accepted")


def test_E2D_ACT_1_an_outsider_is_refused():
    t = table()
    v = t.refuse(ev("end_action", "mallory", servant="P1.S3"))
    assert (v.rule_id, v.code) == ("E2D-ACT-1", "NOT_ACTOR")


def test_E2D_ACT_11_game_started_only_by_the_judge_and_not_while_running():
    t = table(turn=False)
    v = t.refuse(ev("game_started", "P1"))
    assert v.rule_id == "E2D-ACT-11" and "only the judge" in v.message
    v = t.refuse(ev("game_started"))
    assert (v.rule_id, v.code) == ("E2D-ACT-11", "GAME_RUNNING")


def test_setup_figures_E2D_SETUP_1():
    t = table(turn=False)
    assert t.pl("P1")["deck"] == 25 and t.pl("P1")["hand"] == 5 and t.pl("P1")["master"] == {
        "size": 2, "on": 0, "off": 2, "held_upkeep": 0, "held_lock": 0, "held_invisible": 0}
    assert t.g.phase == "draw" and t.g.turn == 0


def test_E2D_ACT_12_start_turn_only_after_the_turn_ended():
    t = table()
    v = t.refuse(ev("start_turn"))
    assert (v.rule_id, v.code) == ("E2D-ACT-12", "TURN_RUNNING")
    t2 = table(turn=False)
    v = t2.refuse(ev("start_turn", "P1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-12", "NOT_ACTOR")


def test_E2D_TURN_9_outside_the_main_phase():
    t = table(turn=False)
    v = t.refuse(ev("end_action", "P1", servant="P1.S1"))
    assert (v.rule_id, v.code) == ("E2D-TURN-9", "PHASE")
    t.enter(ev("concede", "P1", player="P1"))
    v = t.refuse(ev("start_turn"))
    assert (v.rule_id, v.code) == ("E2D-TURN-9", "NOT_RUNNING")


def test_E2D_ACT_13_tie_break_only_for_a_tie_between_players():
    t = table()
    v = t.refuse(ev("tie_break", winner="P1", method="coin"))
    assert (v.rule_id, v.code) == ("E2D-ACT-13", "NOT_WAITING")


def test_E2D_TURN_4_fastest_acts_and_pick_rules():
    t = table(["F-Alpha", "F-Kappa", "F-Sigma"], ["F-Beta", "F-Rho", "F-Lambda"])
    assert t.g.acting == "P1.S3"  # F-Sigma SPD 50
    v = t.refuse(ev("select_actor", "P1", servant="P1.S1"))
    assert (v.rule_id, v.code) == ("E2D-TURN-4", "NOT_WAITING")


def test_E2D_ACT_34_end_action_of_the_acting_servant_only():
    t = table()
    v = t.refuse(ev("end_action", "P1", servant="P1.S1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-34", "NOT_ACTING")
    v = t.refuse(ev("end_action", "P2", servant="P1.S3"))
    assert (v.rule_id, v.code) == ("E2D-ACT-34", "NOT_ACTOR")
    t.enter(ev("end_action", "P1", servant="P1.S3"))
    assert t.sv("P1.S3")["action"] == "acted" and t.g.acting == "P1.S1"


def test_E2D_ACT_37_end_turn_after_the_main_phase():
    t = table()
    v = t.refuse(ev("end_turn"))
    assert (v.rule_id, v.code) == ("E2D-ACT-37", "MAIN_PHASE")


def test_E2D_ACT_38_concession_by_that_player_or_the_judge():
    t = table()
    v = t.refuse(ev("concede", "P2", player="P1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-38", "NOT_ACTOR")
    t.enter(ev("concede", "judge", player="P1"))
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("won", "P2", "concession")
    t2 = table()
    t2.enter(ev("concede", "P2", player="P2"))
    assert GAME.outcome(t2.state).winner == "P1"


def test_E2D_ACT_36_discard_only_when_upkeep_cannot_fit():
    t = table(["F-Sigma", "F-Kappa", "F-Alpha"], PAWNS + ["F-Pawn-3"])
    t.enter(ev("play_tool", "P1", card="F-Field-U", payment=[{"pool": "P1.S1", "n": 1}]))
    t.enter(ev("judge_effect", ops=[{"op": "ACTION_STATE", "servant": r, "state": "acted"}
                                    for r in ("P1.S2", "P1.S3", "P2.S1", "P2.S2", "P2.S3")]))
    t.enter(ev("end_action", "P1", servant="P1.S1"))
    assert t.g.upkeep == ("P1",)
    v = t.refuse(ev("discard_upkeep_card", "P1", player="P1", card="F-Field-U"))
    assert (v.rule_id, v.code) == ("E2D-ACT-36", "UPKEEP")
    t.enter(ev("designate_upkeep", "P1", player="P1", units=[{"pool": "P1.S1", "n": 1}]))
    assert t.sv("P1.S1")["ether"]["held_upkeep"] == 1 and t.g.upkeep == ()


def test_multi_game_match_E2D_OVR_8():
    t = table(options={"games_per_match": 3})
    t.enter(ev("concede", "P2", player="P2"))
    assert GAME.outcome(t.state).status == "in_progress" and GAME.outcome(t.state).score == {"P1": 1, "P2": 0}
    t.enter(ev("game_started"))
    assert t.g.number == 2 and t.g.status == "in_progress"
    t.enter(ev("start_turn"))
    t.enter(ev("concede", "P2", player="P2"))
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason, out.score) == ("won", "P1", "majority", {"P1": 2, "P2": 0})
    v = t.refuse(ev("game_started"))
    assert (v.rule_id, v.code) == ("E2D-ACT-11", "MATCH_OVER")


def test_legal_tells_who_acts_next_and_when_the_table_flips_a_coin():
    t = table(["F-Alpha", "F-Kappa", "F-Sigma"], ["F-Beta", "F-Rho", "F-Lambda"])
    notes = {a.type: a.note for a in GAME.legal(t.state) if a.who == "P1"}
    assert notes["end_action"] == "then P1.S1 acts (SPD 40)"
    t.enter(ev("end_action", "P1", servant="P1.S3"))
    t.enter(ev("end_action", "P1", servant="P1.S1"))
    t.enter(ev("end_action", "P2", servant="P2.S1"))
    assert t.g.tie is not None and t.g.tie.candidates == ("P1.S2", "P2.S3") and t.g.tie.winner is None
    offered = [a for a in GAME.legal(t.state) if not a.anytime]
    assert [(a.who, a.type) for a in offered] == [("judge", "tie_break")]
    assert offered[0].choices["winner"].values == ("P1", "P2")
    t.enter(ev("tie_break", winner="P2", method="rps"))
    assert t.g.acting == "P2.S3"
