"""Rewinds and the random results of abandoned branches (E2D-RWD-3, -7)."""

from __future__ import annotations

from tests.e2drive.builder import ev, pay
from tests.e2drive.harness import GAME, PAWNS, table
from tests.e2drive.golden_kit import GHOST, status


def invisible_attack(options=None):
    t = table(["F-Ghost"] + PAWNS, ["F-Pawn-3"] + PAWNS, servants={"F-Ghost": GHOST}, options=options)
    t.enter(ev("judge_effect", ops=[status("P1.S1", "invisible")]))
    mark = t.fold.head
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(ev("coin", result="tails"))
    t.enter(ev("rewind", to_seq=mark, reason="the ATK was declared too early"))
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    return t


def test_E2D_RWD_7_the_abandoned_coin_is_offered_and_another_result_warns():
    t = invisible_attack()
    coin = [a for a in GAME.legal(t.state) if a.type == "coin"][0]
    assert "the abandoned branch had tails" in coin.note
    t.enter(ev("coin", result="heads"))
    assert t.g.warnings == ("E2D-RWD-7 warning: the abandoned branch had 'tails' at this coin; 'heads' entered",)
    assert t.sv("P1.S1")["face_up"] is True and t.g.voided_random == ()


def test_E2D_RWD_7_the_same_result_gives_no_warning_and_the_flag_turns_it_off():
    t = invisible_attack()
    t.enter(ev("coin", result="tails"))
    assert t.g.warnings == () and t.sv("P1.S1")["action"] == "acted"
    t = invisible_attack({"reuse_voided_random": False})
    assert t.g.voided_random == ()
    t.enter(ev("coin", result="heads"))
    assert t.g.warnings == ()
