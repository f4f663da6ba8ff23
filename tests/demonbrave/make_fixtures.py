"""Write the golden matches of fixtures/demonbrave/ (the worked examples of rules §13).

    .venv/bin/python -m tests.demonbrave.make_fixtures

Every line is adjudicated while it is written (``Table``), so a file is written only if the
reducer accepts and refuses exactly the lines the example says. The tests replay the files and
check the example's figures independently (tests/demonbrave/test_golden.py) and the generic runner
checks each file against its ``.expect.json`` (tests/test_golden.py).

Seat order is always alice (P1), bob (P2). Where an example takes a position as given (turn
number, pair ids, lives, deck sizes), the file reaches it by play where that is simple, and
otherwise by a ``judge_adjust`` whose reason begins "example position".
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import msgspec

from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from tests.demonbrave.builder import JUDGE, Table, deck_to, free_ids, play_any, units

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave" / "golden"
A, B = "alice", "bob"
FILES: dict[str, tuple[str, str, Callable[[], Table]]] = {}
P = "players"


def fixture(name: str, example: str, title: str):
    """Register the writer of ``golden/<name>.jsonl``: the chapter's example ``example``."""

    def register(fn: Callable[[], Table]) -> Callable[[], Table]:
        FILES[name] = (example, title, fn)
        return fn

    return register


def ranked(unit: str, category: str, key: list[int]) -> dict:
    return {"unit": unit, "rank": {"category": category, "key": key}}


# -- DB-EX-1 -------------------------------------------------------------------------------------
@fixture("ex01-opening", "DB-EX-1", "Opening and first turn")
def ex01() -> Table:
    t = Table().setup(first=A)
    t.expect("play starts", status="IN_PROGRESS", turn=1, turn_player=A, phase="MAIN", pair_counter=1, players={A: {"life": 5, "hand": 5, "deck": 49}, B: {"life": 5, "hand": 5, "deck": 49}})
    t.play("S3", "H9")
    t.expect("1. two cards played", players={A: {"hand": 3, "field": units("S3", "H9")}})
    t.pair("S3", "H9")
    t.expect("2. PAIR-1 FREE [7,1]", pair_counter=2, players={A: {"field": [ranked("PAIR-1", "FREE", [7, 1])]}})
    t.reject("DB-TURN-3", "NO_BATTLE_FIRST_TURN", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("advance_phase", A)
    t.expect("4. BATTLE skipped", phase="END")
    t.ev("advance_phase", A)
    t.expect("5. bob's turn", turn=2, turn_player=B, phase="DRAW")
    t.reject("DB-TURN-4", "BAD_DRAW_COUNT", "draw", B, count=5)
    t.ev("draw", B, count=1)
    t.expect("7. bob drew 1", players={A: {"hand": 3, "deck": 49}, B: {"hand": 6, "deck": 48}})
    t.expect_outcome(status="in_progress", winner=None)
    return t


# -- DB-EX-2 -------------------------------------------------------------------------------------
@fixture("ex02-draw-rule", "DB-EX-2", "Draw rule")
def ex02() -> Table:
    t = Table().setup(first=A)
    play_any(t, 2)  # turn 1: alice hand 3
    t.end_turn()
    t.to_phase("MAIN")  # turn 2: bob draws 1 (hand 6)
    play_any(t, 6)  # bob hand 0
    t.adjust(deck_to(t, B, 18, "trash"), "example position: bob's deck 30")
    t.end_turn()
    t.ev("draw", A, count=2)  # row 1: hand 3, deck 49 -> 5 / 47
    t.expect("row 1", players={A: {"hand": 5, "deck": 47}})
    t.to_phase("MAIN")
    play_any(t, 1)  # alice hand 4
    t.adjust(deck_to(t, A, 27, "trash"), "example position: alice's deck 20")
    t.end_turn()
    t.ev("draw", B, count=5)  # row 2: hand 0, deck 30 -> 5 / 25
    t.expect("row 2", players={B: {"hand": 5, "deck": 25}})
    t.to_phase("MAIN")
    to_hand = deck_to(t, B, 2, "hand")
    t.adjust(to_hand + deck_to(t, B, 13, "trash", avoid={op["card"] for op in to_hand}), "example position: bob's hand 7, deck 10")
    t.end_turn()
    t.ev("draw", A, count=1)  # row 3: hand 4, deck 20 -> 5 / 19
    t.expect("row 3", players={A: {"hand": 5, "deck": 19}})
    t.to_phase("MAIN")
    play_any(t, 4)  # alice hand 1
    t.adjust(deck_to(t, A, 17, "trash"), "example position: alice's deck 2")
    t.end_turn()
    t.ev("draw", B, count=1)  # row 4: hand 7, deck 10 -> 8 / 9
    t.expect("row 4", players={B: {"hand": 8, "deck": 9}})
    t.to_phase("MAIN")
    play_any(t, 5)  # bob hand 3
    t.adjust(deck_to(t, B, 9, "trash"), "example position: bob's deck 0")
    t.end_turn()
    t.ev("draw", A, count=2)  # row 5: hand 1, deck 2 -> 3 / 0
    t.expect("row 5", players={A: {"hand": 3, "deck": 0}})
    t.end_turn()
    t.reject("DB-LIM-13", "BAD_DRAW_COUNT", "draw", B, count=2)  # row 6: hand 3, deck 0
    t.ev("draw", B, count=0)
    t.expect("row 6", players={B: {"hand": 3, "deck": 0}})
    t.expect_outcome(status="in_progress")
    return t


def _ex02_variant(option: str) -> Table:
    """Row "hand 1 / deck 2" with 10 cards in the trash."""
    t = Table(options={"deck_exhaustion": option}).setup(first=A)
    play_any(t, 4)  # alice hand 1, deck 49, field 4
    to_trash = deck_to(t, A, 10, "trash")
    t.adjust(to_trash + deck_to(t, A, 37, "field", avoid={op["card"] for op in to_trash}), "example position: alice's deck 2, trash 10")
    t.end_turn()
    t.end_turn()
    p = t.state.player(A)
    t.expect("row 1 / 2 with trash 10", turn=3, turn_player=A, phase="DRAW", players={A: {"hand": 1, "deck": 2, "trash": list(p.trash)}})
    assert len(p.trash) == 10
    return t


@fixture("ex02-lose-on-failed-draw", "DB-EX-2", "Draw rule, variant lose_on_failed_draw")
def ex02_lose() -> Table:
    t = _ex02_variant("lose_on_failed_draw")
    t.reject("DB-LIM-13", "BAD_DRAW_COUNT", "draw", A, count=4)
    t.ev("draw", A, count=2)
    t.expect("alice drew 2 and loses", status="FINISHED", players={A: {"hand": 3, "deck": 0}})
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    t.expect_outcome(status="won", winner=B, reason="failed_draw")
    return t


@fixture("ex02-reshuffle-trash", "DB-EX-2", "Draw rule, variant reshuffle_trash")
def ex02_reshuffle() -> Table:
    t = _ex02_variant("reshuffle_trash")
    t.reject("DB-TURN-4", "BAD_DRAW_COUNT", "draw", A, count=2)  # the trash lifts the cap
    t.ev("draw", A, count=4)
    t.expect("2 drawn, the trash becomes the deck, 2 more drawn", status="IN_PROGRESS", players={A: {"hand": 5, "deck": 8, "trash": []}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-3 -------------------------------------------------------------------------------------
@fixture("ex03-single-vs-single", "DB-EX-3", "Single vs single")
def ex03() -> Table:
    t = Table().setup(first=A)
    t.play("H9", "C10", "D7", "JK1")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("DK", "S5", "H7", "JK2", "SQ")
    t.end_turn()
    t.goto(4, "BATTLE")
    t.expect("turn 4, bob's BATTLE", turn=4, turn_player=B, phase="BATTLE",
             players={A: {"field": units("H9", "C10", "D7", "JK1")}, B: {"field": units("DK", "S5", "H7", "JK2", "SQ")}})
    t.attack("DK", "H9")
    t.expect("1. DK(11) -> H9(7): H9 trashed", players={A: {"trash": ["H9"]}})
    t.attack("S5", "C10")
    t.expect("2. S5(3) -> C10(8): void", players={A: {"field": units("C10", "D7", "JK1")}, B: {"field": units("DK", "S5", "H7", "JK2", "SQ")}})
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", B, attacker="S5", target="D7")
    t.attack("H7", "D7")
    t.attack("JK2", "JK1")
    t.reject("DB-LIM-2", "SINGLE_CANNOT_ATTACK_PLAYER", "declare_attack", B, attacker="SQ", target="PLAYER")
    t.expect("result", players={A: {"life": 5, "field": units("C10"), "trash": ["H9", "D7", "JK1"]},
                                B: {"life": 5, "field": units("DK", "S5", "SQ"), "trash": ["H7", "JK2"]}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-4 -------------------------------------------------------------------------------------
def _ex04(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=B)
    t.play("C4", "D8", "H8", "C5", "H6")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S3", "H9", "SJ", "HJ", "D5", "D6")
    t.pair("S3", "H9")
    t.pair("SJ", "HJ")
    t.pair("D5", "D6")
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("D8", "H8")
    t.pair("C5", "H6")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("CK", "D2")
    t.pair("CK", "D2")
    t.goto(6, "BATTLE")
    t.expect("turn 6, alice's BATTLE", turn=6, turn_player=A, phase="BATTLE", players={
        A: {"field": [ranked("PAIR-1", "FREE", [7, 1]), ranked("PAIR-2", "SET", [9, 9]), ranked("PAIR-3", "RUN", [4, 3]), ranked("PAIR-6", "FREE", [13, 11])]},
        B: {"life": 5, "field": [{"unit": "C4"}, ranked("PAIR-4", "SET", [6, 6]), ranked("PAIR-5", "FREE", [4, 3])]},
    })
    return t


@fixture("ex04-blocks", "DB-EX-4", "Pair attacks the player; blocks")
def ex04() -> Table:
    t = _ex04()
    t.attack("PAIR-1", "PLAYER", block="PAIR-4")
    t.expect("1. SET blocker beats FREE: void", players={B: {"life": 5, "field": units("C4", "PAIR-4[D8 H8]", "PAIR-5[C5 H6]")}})
    t.attack("PAIR-6", "PLAYER", block="PAIR-5")
    t.expect("2. PAIR-5 trashed", players={B: {"life": 5, "trash": ["C5", "H6"]}})
    t.attack("PAIR-2", "PLAYER", block="C4")
    t.expect("3. C4 trashed", players={B: {"life": 5, "trash": ["C5", "H6", "C4"]}})
    t.attack("PAIR-3", "PLAYER", block=None)
    t.expect("4. no block: bob loses 1 life", players={B: {"life": 4}})
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.expect("result", players={
        A: {"field": units("PAIR-1[S3 H9]", "PAIR-2[SJ HJ]", "PAIR-3[D5 D6]", "PAIR-6[CK D2]"), "trash": []},
        B: {"life": 4, "field": units("PAIR-4[D8 H8]"), "trash": ["C5", "H6", "C4"]},
    })
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex04-stronger-blocker-trashes-attacker", "DB-EX-4", "Blocks, variant stronger_blocking_pair = attacker_trashed")
def ex04_variant() -> Table:
    t = _ex04({"stronger_blocking_pair": "attacker_trashed"})
    t.attack("PAIR-1", "PLAYER", block="PAIR-4")
    t.expect("1. the attacker PAIR-1 is trashed", players={A: {"trash": ["S3", "H9"], "field": units("PAIR-2[SJ HJ]", "PAIR-3[D5 D6]", "PAIR-6[CK D2]")}})
    t.attack("PAIR-6", "PLAYER", block="PAIR-5")
    t.attack("PAIR-2", "PLAYER", block="C4")
    t.attack("PAIR-3", "PLAYER", block=None)
    t.reject("DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.expect("result", players={A: {"trash": ["S3", "H9"]}, B: {"life": 4, "field": units("PAIR-4[D8 H8]"), "trash": ["C5", "H6", "C4"]}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-5 -------------------------------------------------------------------------------------
def _ex05(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=B)
    t.play("S2", "JK1")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("SK", "HK", "D4", "C9", "H3", "C3")
    t.number_pairs_from(7, A, ("C7", "D7"))
    t.pair("SK", "HK")
    t.pair("D4", "C9")
    t.pair("H3", "C3")
    t.adjust([{"op": "LOSE_LIFE", "player": B, "amount": 2}], "example position: bob's life 3")
    t.goto(8, "BATTLE")
    t.expect("turn 8, alice's BATTLE", turn=8, turn_player=A, phase="BATTLE", players={
        A: {"field": units("PAIR-7[SK HK]", "PAIR-8[D4 C9]", "PAIR-9[H3 C3]")}, B: {"life": 3, "field": units("S2", "JK1")}})
    t.attack("PAIR-7", "S2")
    t.expect("1. S2 trashed although 2 is the highest number", players={B: {"trash": ["S2"]}})
    t.attack("PAIR-8", "JK1")
    t.expect("2. void: JK1 stays", players={B: {"field": units("JK1")}})
    t.attack("PAIR-9", "PLAYER", block="JK1")
    return t


@fixture("ex05-joker-exception", "DB-EX-5", "Pair vs single, joker exception, joker blocker")
def ex05() -> Table:
    t = _ex05()
    t.expect("result", players={B: {"field": [], "trash": ["S2", "JK1"], "life": 3}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex05-joker-survives-block", "DB-EX-5", "Joker blocker, variant joker_survives_block")
def ex05_variant() -> Table:
    t = _ex05({"joker_survives_block": True})
    t.expect("result", players={B: {"field": units("JK1"), "trash": ["S2"], "life": 3}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-6 -------------------------------------------------------------------------------------
def _ex06_position(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=B)
    t.play("H5", "C10", "SQ", "S5", "H2")
    t.number_pairs_from(10, B, ("C7", "D7"))
    t.pair("H5", "C10", "SQ")
    t.pair("S5", "H2")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("SA", "D6", "H8", "C4")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S8", "D9")
    t.pair("S8", "D9")
    t.goto(10, "BATTLE")
    t.expect("turn 10, alice's BATTLE", turn=10, turn_player=A, phase="BATTLE", players={
        A: {"field": units("SA", "D6", "H8", "C4")},
        B: {"field": [ranked("PAIR-10", "FREE", [10, 8, 3]), ranked("PAIR-11", "FREE", [13, 3]), ranked("PAIR-12", "FREE", [7, 6])]},
    })
    return t


@fixture("ex06-single-vs-pair", "DB-EX-6", "Single vs pair")
def ex06() -> Table:
    t = _ex06_position()
    t.ev("declare_attack", A, attacker="SA", target="PAIR-10")
    t.reject("DB-RES-24", "CHOICE_REQUIRED", "resolve_battle", A)
    t.ev("resolve_battle", A, choice="C10")
    t.expect("1. C10 trashed; PAIR-10 stays FREE [10,3]", players={B: {"trash": ["C10"], "field": [
        {"unit": "PAIR-10", "cards": ["H5", "SQ"], "rank": {"category": "FREE", "key": [10, 3]}}, {"unit": "PAIR-11"}, {"unit": "PAIR-12"}]}})
    t.ev("declare_attack", A, attacker="D6", target="PAIR-11")
    t.reject("DB-RES-24", "INVALID_CHOICE", "resolve_battle", A, choice="H2")
    t.ev("resolve_battle", A)
    t.expect("2. S5 trashed; PAIR-11 dissolves into the single H2", players={B: {"trash": ["C10", "S5"], "field": units("PAIR-10[H5 SQ]", "H2", "PAIR-12[S8 D9]")}})
    t.attack("H8", "PAIR-12")
    t.attack("C4", "PAIR-10")
    t.expect("result", players={A: {"field": units("SA", "D6", "C4"), "trash": ["H8"]},
                                B: {"field": units("PAIR-10[H5 SQ]", "H2", "D9"), "trash": ["C10", "S5", "S8"]}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex06-tie-void", "DB-EX-6", "Single vs pair, variant single_vs_pair_tie = void")
def ex06_tie() -> Table:
    t = _ex06_position({"single_vs_pair_tie": "void"})
    t.attack("SA", "PAIR-10", choice="C10")
    t.attack("D6", "PAIR-11")
    t.attack("H8", "PAIR-12")
    t.attack("C4", "PAIR-10")
    t.expect("result", players={A: {"field": units("SA", "D6", "H8", "C4"), "trash": []},
                                B: {"field": units("PAIR-10[H5 SQ]", "H2", "PAIR-12[S8 D9]"), "trash": ["C10", "S5"]}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex06-all-weaker", "DB-EX-6", "Single vs pair, variant single_vs_pair_trash = all_weaker")
def ex06_all() -> Table:
    t = _ex06_position({"single_vs_pair_trash": "all_weaker"})
    t.attack("SA", "PAIR-10")
    t.attack("D6", "PAIR-11")
    t.attack("H8", "PAIR-12")
    t.reject("DB-ACT-14", "BAD_TARGET", "declare_attack", A, attacker="C4", target="PAIR-10")
    t.expect("result", players={A: {"field": units("SA", "D6", "H8", "C4"), "trash": []},
                                B: {"field": units("H2", "PAIR-12[S8 D9]"), "trash": ["H5", "C10", "SQ", "S5"]}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-7 -------------------------------------------------------------------------------------
def _ex07(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=B)
    t.play("DA", "C2", "H4", "H5", "D9")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S7", "H7", "SK", "D3", "S9", "H9")
    t.number_pairs_from(13, A, ("C7", "D7"))
    t.pair("S7", "H7")
    t.pair("SK", "D3")
    t.pair("S9", "H9")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("C9", "D8", "C8", "H8")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("SJ", "HJ")
    t.pair("SJ", "HJ")
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("DA", "C2")
    t.pair("H4", "H5")
    t.pair("D9", "C9")
    t.pair("D8", "C8", "H8")
    t.goto(12, "BATTLE")
    t.expect("turn 12, alice's BATTLE", turn=12, turn_player=A, phase="BATTLE", players={
        A: {"field": units("PAIR-13[S7 H7]", "PAIR-14[SK D3]", "PAIR-15[S9 H9]", "PAIR-16[SJ HJ]")},
        B: {"field": units("PAIR-17[DA C2]", "PAIR-18[H4 H5]", "PAIR-19[D9 C9]", "PAIR-20[D8 C8 H8]")},
    })
    if not options:
        t.expect("tiers and keys", players={
            A: {"field": [ranked("PAIR-13", "SET", [5, 5]), ranked("PAIR-14", "FREE", [11, 1]), ranked("PAIR-15", "SET", [7, 7]), ranked("PAIR-16", "SET", [9, 9])]},
            B: {"field": [ranked("PAIR-17", "FREE", [13, 12]), ranked("PAIR-18", "RUN", [3, 2]), ranked("PAIR-19", "SET", [7, 7]), ranked("PAIR-20", "SET", [6, 6, 6])]},
        })
    t.attack("PAIR-13", "PAIR-17")
    t.attack("PAIR-14", "PAIR-18")
    t.attack("PAIR-15", "PAIR-19")
    t.attack("PAIR-16", "PAIR-20")
    return t


EX07_RESULT = {
    A: {"field": units("PAIR-13[S7 H7]", "PAIR-14[SK D3]", "PAIR-16[SJ HJ]"), "trash": ["S9", "H9"]},
    B: {"field": units("PAIR-18[H4 H5]"), "trash": ["DA", "C2", "D9", "C9", "D8", "C8", "H8"]},
}


@fixture("ex07-pair-vs-pair", "DB-EX-7", "Pair vs pair")
def ex07() -> Table:
    t = _ex07()
    t.expect("result", players=EX07_RESULT)
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex07-size-first", "DB-EX-7", "Pair vs pair, variant pair_size_rule = size_first")
def ex07_size() -> Table:
    t = _ex07({"pair_size_rule": "size_first"})
    t.expect("step 4 void: 3 cards beat 2", players={
        A: {"trash": ["S9", "H9"]},
        B: {"field": units("PAIR-18[H4 H5]", "PAIR-20[D8 C8 H8]"), "trash": ["DA", "C2", "D9", "C9"]}})
    return t


@fixture("ex07-weaker-attacker-trashed", "DB-EX-7", "Pair vs pair, variant weaker_attacking_pair = trashed")
def ex07_weaker() -> Table:
    t = _ex07({"weaker_attacking_pair": "trashed"})
    t.expect("step 2 trashes SK, D3", players={A: {"field": units("PAIR-13[S7 H7]", "PAIR-16[SJ HJ]"), "trash": ["SK", "D3", "S9", "H9"]}})
    return t


@fixture("ex07-run-below-set", "DB-EX-7", "Pair vs pair, variant pair_category_order = FREE, RUN, SET")
def ex07_order() -> Table:
    t = _ex07({"pair_category_order": ["FREE", "RUN", "SET"]})
    t.expect("changes nothing here", players=EX07_RESULT)
    return t


# -- DB-EX-8 -------------------------------------------------------------------------------------
def _ex08_position() -> Table:
    t = Table().setup(first=B)
    t.play("H2", "JK2", "CA", "C3", "D3")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S3", "D4", "SA", "HA")
    t.number_pairs_from(21, A, ("C7", "D7"))
    t.pair("SA", "HA")
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("C3", "D3")
    t.goto(14, "MAIN")
    t.expect("turn 14, alice's MAIN", turn=14, turn_player=A, phase="MAIN", entry_counter=1, order="normal", players={
        A: {"field": units("S3", "D4", "PAIR-21[SA HA]")}, B: {"field": units("H2", "JK2", "CA", "PAIR-22[C3 D3]")}})
    return t


@fixture("ex08-reversal", "DB-EX-8", "<J> reversal")
def ex08() -> Table:
    t = _ex08_position()
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.expect("1. reversed until turn 14's END", order="reversed", reversals=[{"expires_turn": 14}], players={
        A: {"field": [{}, {}, ranked("PAIR-21", "SET", [2, 2])]}, B: {"field": [{}, {}, {}, ranked("PAIR-22", "SET", [13, 13])]}})
    t.ev("advance_phase", A)
    t.attack("S3", "H2")
    t.expect("2. S3(13) -> H2(1): H2 trashed", players={B: {"trash": ["H2"]}})
    t.attack("D4", "JK2")
    t.attack("PAIR-21", "PAIR-22")
    t.expect("2. D4 -> JK2 and PAIR-21 -> PAIR-22: void", players={B: {"field": units("JK2", "CA", "PAIR-22[C3 D3]")}})
    t.ev("advance_phase", A)
    t.ev("advance_phase", A)
    t.expect("3. the reversal expires; turn 15, bob's DRAW", turn=15, turn_player=B, phase="DRAW", order="normal", reversals=[])
    t.to_phase("BATTLE")
    t.attack("CA", "S3")
    t.attack("PAIR-22", "PAIR-21")
    t.expect("4. result after turn 15 (before its END)", players={
        A: {"field": units("D4", "PAIR-21[SA HA]"), "trash": ["S3"]},
        B: {"field": [{"unit": "JK2"}, {"unit": "CA"}, {"unit": "PAIR-22", "cards": ["C3", "D3"], "rank": {"category": "SET", "key": [1, 1]}}], "trash": ["H2"]}})
    t.end_turn()
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex08-double-reversal", "DB-EX-8", "<J> reversal, variant: a second reversal restores normal order")
def ex08_double() -> Table:
    t = _ex08_position()
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2")
    t.expect("two reversals: normal order again", order="normal", reversals=[{"expires_turn": 14}, {"expires_turn": 14}],
             players={A: {"field": [{}, {}, ranked("PAIR-21", "SET", [12, 12])]}})
    t.ev("advance_phase", A)
    t.attack("S3", "H2")
    t.attack("D4", "JK2")
    t.attack("PAIR-21", "PAIR-22")
    t.ev("advance_phase", A)
    t.ev("advance_phase", A)
    t.to_phase("BATTLE")
    t.attack("CA", "S3")
    t.end_turn()
    t.expect("result after turn 15", players={A: {"field": units("D4", "PAIR-21[SA HA]"), "trash": ["S3"]},
                                              B: {"field": units("H2", "JK2", "CA"), "trash": ["C3", "D3"]}})
    return t


# -- DB-EX-9 -------------------------------------------------------------------------------------
def _ex09_position(catalog: list | None = None) -> Table:
    t = Table(catalog=catalog).setup(first=A)
    t.goto(16, "MAIN")
    hand = t.state.player(B).hand_count
    play_any(t, hand - 3, avoid={"H5"})
    t.expect("turn 16, bob's MAIN", turn=16, turn_player=B, phase="MAIN", entry_counter=1, players={B: {"hand": 3}})
    return t


@fixture("ex09-chain-order", "DB-EX-9", "Chain order")
def ex09() -> Table:
    t = _ex09_position()
    t.ev("activate_effect", B, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E2"])
    t.expect("1-3. the chain", chain=[{"entry_id": "E1", "controller": B}, {"entry_id": "E2", "controller": A}, {"entry_id": "E3", "controller": B}])
    t.reject("DB-RES-42", "CHAIN_OPEN", "play_card", B, card="H5")
    t.reject("DB-RES-41", "NOT_TOP_OF_CHAIN", "resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E3")
    t.expect("6. E2 negated", chain_resolving=True, chain=[{"entry_id": "E1", "negated": False}, {"entry_id": "E2", "negated": True}])
    t.reject("DB-RES-43", "CHAIN_RESOLVING", "activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2", ops=[])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.expect("9. reversed until the END of turn 16; chain empty", chain=[], chain_resolving=False, order="reversed", reversals=[{"expires_turn": 16}])
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex09-not-in-opponent-turn", "DB-EX-9", "Chain order, variant: T-NEG not usable in the opponent's turn")
def ex09_variant() -> Table:
    catalog = msgspec.to_builtins(SAMPLE_CATALOG)
    for card in catalog:
        if card["id"] == "T-NEG":
            card["effects"][0]["usable_in_opponent_turn"] = False
    t = _ex09_position(catalog)
    t.ev("activate_effect", B, rule_card="T-REV", effect_id="T-REV.reverse")
    t.reject("DB-RES-40", "NOT_ALLOWED_IN_OPPONENT_TURN", "activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.expect("E1 resolves alone", chain=[], order="reversed", reversals=[{"expires_turn": 16}])
    return t


# -- DB-EX-10 ------------------------------------------------------------------------------------
@fixture("ex10a-life-zero", "DB-EX-10", "End of game (a): life 0")
def ex10a() -> Table:
    t = Table().setup(first=A)
    t.play("S3", "H9")
    t.pair("S3", "H9")
    for turn in (3, 5, 7, 9):
        t.goto(turn, "BATTLE")
        t.attack("PAIR-1", "PLAYER")
    t.goto(17, "BATTLE")
    t.expect("turn 17, alice's BATTLE", turn=17, turn_player=A, phase="BATTLE", players={A: {"field": units("PAIR-1[S3 H9]")}, B: {"life": 1, "field": []}})
    t.ev("declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("resolve_battle", A)
    t.expect("bob's life 0", status="FINISHED", result={"outcome": "WIN", "winner": A, "reason": "LIFE_ZERO"}, players={B: {"life": 0}})
    t.reject("DB-ACT-18", "GAME_OVER", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.expect_outcome(status="won", winner=A, reason="life_zero")
    return t


def _ex10b(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=A)
    t.goto(3, "MAIN")
    t.adjust([{"op": "LOSE_LIFE", "player": A, "amount": 4}, {"op": "LOSE_LIFE", "player": B, "amount": 4}], "example position: lives 1/1")
    t.expect("lives 1/1, alice's turn", turn_player=A, players={A: {"life": 1}, B: {"life": 1}})
    t.ev("activate_effect", A, rule_card="T-BURN", effect_id="T-BURN.burn")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "LOSE_LIFE", "player": A, "amount": 1}, {"op": "LOSE_LIFE", "player": B, "amount": 1}])
    t.expect("both lives 0", status="FINISHED", players={A: {"life": 0}, B: {"life": 0}})
    return t


@fixture("ex10b-both-zero-draw", "DB-EX-10", "End of game (b): both lives 0 together")
def ex10b() -> Table:
    t = _ex10b()
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    t.expect_outcome(status="drawn", winner=None, reason="both_life_zero")
    return t


@fixture("ex10b-turn-player-wins", "DB-EX-10", "End of game (b), variant simultaneous_zero_life = turn_player_wins")
def ex10b_variant() -> Table:
    t = _ex10b({"simultaneous_zero_life": "turn_player_wins"})
    t.expect_outcome(status="won", winner=A, reason="both_life_zero")
    return t


@fixture("ex10c-concession", "DB-EX-10", "End of game (c): concession")
def ex10c() -> Table:
    t = Table().setup(first=A)
    t.play("S3")
    t.expect("alice's MAIN", turn_player=A, phase="MAIN")
    t.ev("concede", B, player=B)
    t.reject("DB-ACT-18", "GAME_OVER", "play_card", A, card="H9")
    t.expect("won by alice", result={"outcome": "WIN", "winner": A, "reason": "CONCESSION"})
    t.expect_outcome(status="won", winner=A, reason="concession")
    return t


# -- DB-EX-11 ------------------------------------------------------------------------------------
@fixture("ex11-forming-pairs", "DB-EX-11", "Forming pairs")
def ex11() -> Table:
    t = Table().setup(first=A)
    t.play("S3", "H9", "C9")
    t.pair("H9", "C9")
    t.goto(3, "DRAW")
    t.draw(["H3", "D3", "SK"])
    t.advance()
    t.expect("turn 3, alice's MAIN", turn=3, turn_player=A, phase="MAIN", pair_counter=2,
             players={A: {"hand": 5, "hand_known": ["D3", "H3", "SK"], "field": units("S3", "PAIR-1[H9 C9]")}})
    t.play("H3")
    t.pair("S3", "H3")
    t.expect("1. PAIR-2 SET [1,1]", pair_counter=3, players={A: {"field": [ranked("PAIR-2", "SET", [1, 1]), {"unit": "PAIR-1"}]}})
    t.play("D3")
    t.pair("PAIR-2", "D3")
    t.expect("2. PAIR-2 grows", players={A: {"field": [{"unit": "PAIR-2", "cards": ["S3", "H3", "D3"], "rank": {"category": "SET", "key": [1, 1, 1]}}, {"unit": "PAIR-1"}]}})
    t.reject("DB-ACT-11", "PAIR_MERGE_FORBIDDEN", "form_pair", A, units=["PAIR-1", "PAIR-2"])
    t.play("SK")
    t.reject("DB-ACT-11", "PAIR_TOO_SMALL", "form_pair", A, units=["SK"])
    t.ev("advance_phase", A)
    t.reject("DB-ACT-11", "WRONG_PHASE", "form_pair", A, units=["SK", "PAIR-1"])
    t.expect("result", pair_counter=3, phase="BATTLE", players={A: {"hand": 2, "field": units("PAIR-2[S3 H3 D3]", "PAIR-1[H9 C9]", "SK")}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-12 ------------------------------------------------------------------------------------
def _ex12_position() -> Table:
    t = Table().setup(first=B)
    t.goto(38, "MAIN")
    t.play("SK", "HK")
    t.number_pairs_from(30, A, ("C7", "D7"))
    t.pair("SK", "HK")
    t.goto(39, "MAIN")
    t.play("S2", "H2")
    t.pair("S2", "H2")
    ops: list[dict] = []
    for who in (A, B):
        p = t.state.player(who)
        ids = free_ids(t.state, who)
        hand, deck = ids[: p.hand_count], ids[p.hand_count :]
        assert len(deck) == p.deck_count
        ops.append({"op": "DISCARD", "player": who, "cards": hand})
        ops += [{"op": "MOVE", "card": c, "from": "deck", "to": "trash", "player": who} for c in deck]
        ops.append({"op": "LOSE_LIFE", "player": who, "amount": 3})
    t.adjust(ops, "example position: both decks and hands empty, 52 cards in each trash, lives 2/2")
    t.end_turn()
    both = {"deck": 0, "hand": 0, "life": 2}
    t.expect("turn 40, alice's DRAW", turn=40, turn_player=A, phase="DRAW", idle_turns=0, players={
        A: {**both, "field": [ranked("PAIR-30", "SET", [11, 11])]}, B: {**both, "field": [ranked("PAIR-31", "SET", [13, 13])]}})
    assert all(len(p.trash) == 52 for p in t.state.players)
    t.ev("draw", A, count=0)
    t.to_phase("BATTLE")
    t.attack("PAIR-30", "PLAYER", block="PAIR-31")
    t.end_turn()
    t.expect("turn 40 idle", turn=41, idle_turns=1)
    t.end_turn()
    t.expect("turn 41 idle", turn=42, idle_turns=2)
    return t


@fixture("ex12-stalemate", "DB-EX-12", "Empty decks and stalemate")
def ex12() -> Table:
    t = _ex12_position()
    t.end_turn()
    t.expect("turn 42 idle", turn=43, idle_turns=3)
    t.end_turn()
    t.expect("turn 43 idle: a draw at its END advance", turn=43, idle_turns=4, status="FINISHED", result={"outcome": "DRAW", "winner": None, "reason": "STALEMATE"})
    t.reject("DB-ACT-18", "GAME_OVER", "draw", A, count=0)
    t.expect_outcome(status="drawn", winner=None, reason="stalemate")
    return t


@fixture("ex12-life-change-resets-idle", "DB-EX-12", "Empty decks, variant: a life lost in turn 42 resets the idle count")
def ex12_variant() -> Table:
    t = _ex12_position()
    t.goto(42, "BATTLE")
    t.attack("PAIR-30", "PLAYER", block=None)
    t.end_turn()
    t.expect("idle 0 after turn 42", turn=43, idle_turns=0, status="IN_PROGRESS", players={B: {"life": 1}})
    t.expect_outcome(status="in_progress")
    return t


# -- DB-EX-13 ------------------------------------------------------------------------------------
def _ex13(options: dict | None = None, *, top_card: bool = False) -> Table:
    t = Table(options=options).setup(first=A)
    t.play("S7", "JK1")
    t.number_pairs_from(50, A, ("C7", "D7"))
    t.pair("S7", "JK1")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("DA", "CA", "SQ", "C2")
    t.pair("DA", "CA")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("JK2", "S3", "H9")
    t.pair("JK2", "S3", "H9")
    t.ev("advance_phase", A)
    t.expect("alice's BATTLE", players={
        A: {"field": [ranked("PAIR-50", "FREE", [14, 5]) if top_card else ranked("PAIR-50", "RUN", [6, 5]), ranked("PAIR-52", "FREE", [14, 7, 1])]},
        B: {"field": [ranked("PAIR-51", "SET", [12, 12]), {"unit": "SQ"}, {"unit": "C2"}]}})
    t.attack("PAIR-50", "PAIR-51")
    return t


@fixture("ex13-jokers-in-pairs", "DB-EX-13", "Jokers in pairs")
def ex13() -> Table:
    t = _ex13()
    t.expect("(a) RUN beats SET", players={B: {"trash": ["DA", "CA"]}})
    t.end_turn()
    t.to_phase("BATTLE")
    t.attack("SQ", "PAIR-50", choice="JK1")
    t.expect("(b) JK1 trashed; S7 a single", players={A: {"trash": ["JK1"], "field": units("S7", "PAIR-52[JK2 S3 H9]")}})
    t.ev("declare_attack", B, attacker="C2", target="PAIR-52")
    t.reject("DB-RES-24", "INVALID_CHOICE", "resolve_battle", B, choice="JK2")
    t.ev("resolve_battle", B, choice="S3")
    t.expect("(d) S3 trashed", players={A: {"trash": ["JK1", "S3"], "field": units("S7", "PAIR-52[JK2 H9]")}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex13-top-card", "DB-EX-13", "Jokers in pairs, variant joker_in_pair = top_card")
def ex13_variant() -> Table:
    t = _ex13({"joker_in_pair": "top_card"}, top_card=True)
    t.expect("(e) FREE < SET: void", players={B: {"trash": [], "field": units("PAIR-51[DA CA]", "SQ", "C2")}})
    return t


# -- DB-EX-14 ------------------------------------------------------------------------------------
ALICE_CARDS = ["J", "T-NEG", "T-BOUNCE", "T-BURN", "X-1"]


def _ex14_turn20() -> tuple[Table, dict[str, int]]:
    """(a), (b), (c): turn 20; returns the table and the seqs the chapter numbers."""
    seqs: dict[str, int] = {}
    t = Table().setup(first=B, rule_cards={A: ALICE_CARDS})
    t.play("C4")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S6", "H6")
    t.number_pairs_from(40, A, ("C7", "D7"))
    t.pair("S6", "H6")
    t.number_entries_from(7, A, "X-1", "X-1.effect")
    t.goto(19, "MAIN")
    seqs["turn19"] = t.seq
    t.goto(20, "BATTLE")
    t.expect("turn 20, alice's BATTLE", turn=20, turn_player=A, phase="BATTLE",
             players={A: {"field": units("PAIR-40[S6 H6]")}, B: {"life": 5, "field": units("C4"), "trash": []}})
    seqs["500"] = t.ev("declare_attack", A, attacker="PAIR-40", target="PLAYER")
    seqs["501"] = t.ev("declare_block", B, blocker="C4")
    seqs["502"] = t.ev("resolve_battle", A)
    t.expect("502: C4 trashed on the mis-entered block", players={B: {"trash": ["C4"], "field": []}})
    seqs["503"] = t.ev("rewind", JUDGE, to_seq=seqs["500"], reason="bob said no block; the block was a mis-entry")
    t.expect("503: back to 500", attack={"attacker": "PAIR-40", "target": "PLAYER", "step": "DECLARED"},
             players={A: {"field": [{"unit": "PAIR-40", "attacked": True}]}, B: {"field": units("C4"), "trash": []}})
    t.ev("declare_block", B, blocker=None)
    t.ev("resolve_battle", A)
    t.expect("505: bob's life 4", players={B: {"life": 4}})
    t.reject("DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=seqs["turn19"], reason="back to turn 19")
    seqs["599"] = t.ev("activate_effect", A, rule_card="X-1", effect_id="X-1.effect")
    seqs["600"] = t.ev("resolve_chain_entry", JUDGE, entry_id="E7", ops=[{"op": "LOSE_LIFE", "player": B, "amount": 2}])
    t.expect("600: bob's life 2", players={B: {"life": 2}})
    seqs["601"] = t.ev("rewind", JUDGE, to_seq=seqs["599"], reason="the effect takes 1 life, not 2")
    t.expect("601: E7 unresolved again, bob's life 4", chain=[{"entry_id": "E7"}], players={B: {"life": 4}})
    t.ev("resolve_chain_entry", JUDGE, entry_id="E7", ops=[{"op": "LOSE_LIFE", "player": B, "amount": 1}])
    t.expect("602: bob's life 3", players={B: {"life": 3}})
    return t, seqs


@fixture("ex14-abc-rewinds", "DB-EX-14", "Rewinds (a), (b), (c)")
def ex14_abc() -> Table:
    t = _ex14_turn20()[0]
    t.expect_outcome(status="in_progress")
    return t


def _ex14_turn22() -> tuple[Table, dict[str, int]]:
    """(d) up to seq 701: turn 22, alice MAIN."""
    t, seqs = _ex14_turn20()
    t.goto(21, "MAIN")
    hand = free_ids(t.state, A)[: t.state.player(A).hand_count]
    t.adjust([{"op": "MOVE", "card": c, "from": "hand", "to": "deck", "player": A} for c in hand], "example position: alice's hand goes back to her deck")
    t.goto(22, "DRAW")
    t.draw(["H9", "HQ", "D9", "S9", "DJ"])
    t.advance()
    t.play("D9", "S9")
    t.pair("D9", "S9")
    t.adjust([{"op": "MOVE", "card": "DJ", "from": "hand", "to": "deck", "player": A}], "example position: alice's hand is H9, HQ")
    t.number_entries_from(9, A, "X-1", "X-1.effect")
    t.expect("turn 22, alice's MAIN", turn=22, turn_player=A, phase="MAIN", pair_counter=42,
             players={A: {"hand": 2, "hand_known": ["H9", "HQ"], "field": units("PAIR-40[S6 H6]", "PAIR-41[D9 S9]")}})
    t.ev("activate_effect", A, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["D9"])
    seqs["700"] = t.ev("resolve_chain_entry", JUDGE, entry_id="E9", ops=[])
    seqs["701"] = t.ev("play_card", A, card="HQ")
    t.expect("701: alice's hand 1", players={A: {"hand": 1}})
    return t, seqs


BOUNCE_D9 = {"type": "judge_adjust", "by": JUDGE, "ops": [{"op": "MOVE", "card": "D9", "from": "field", "to": "hand", "player": A}], "reason": "<T-BOUNCE> returned D9 to alice's hand at the table"}


@fixture("ex14-d-correction", "DB-EX-14", "Correction (d)")
def ex14_d() -> Table:
    t, seqs = _ex14_turn22()
    t.ev("correct", JUDGE, at_seq=seqs["701"], event=BOUNCE_D9, reason="E9 was resolved without its op")
    t.expect("702: the correction stands", pair_counter=42,
             players={A: {"hand": 2, "hand_known": ["D9", "H9"], "field": units("PAIR-40[S6 H6]", "S9", "HQ")}})
    t.expect_outcome(status="in_progress")
    return t


def _ex14_e() -> tuple[Table, dict[str, int]]:
    t, seqs = _ex14_turn22()
    t.play("H9")
    t.ev("form_pair", A, units=["PAIR-41", "H9"])
    t.expect("703: PAIR-41[D9 S9 H9]", players={A: {"hand": 0, "field": units("PAIR-40[S6 H6]", "PAIR-41[D9 S9 H9]", "HQ")}})
    t.reject("DB-RWD-6", "CORRECTION_CONFLICT", "correct", JUDGE, at_seq=seqs["701"], event=BOUNCE_D9, reason="E9 was resolved without its op")
    return t, seqs


@fixture("ex14-e-adjust-now", "DB-EX-14", "Correction conflict (e), then judge_adjust now")
def ex14_e1() -> Table:
    t, _ = _ex14_e()
    t.adjust(BOUNCE_D9["ops"], BOUNCE_D9["reason"])
    t.expect("704: D9 to hand now", players={A: {"hand": 1, "hand_known": ["D9"], "field": [
        {"unit": "PAIR-40"}, {"unit": "PAIR-41", "cards": ["S9", "H9"], "rank": {"category": "SET", "key": [7, 7]}}, {"unit": "HQ"}]}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex14-e-rewind-and-replay", "DB-EX-14", "Correction conflict (e), then rewind and replay")
def ex14_e2() -> Table:
    t, seqs = _ex14_e()
    t.ev("rewind", JUDGE, to_seq=seqs["700"], reason="replay from the resolution of E9")
    t.adjust(BOUNCE_D9["ops"], BOUNCE_D9["reason"])
    t.play("HQ", "H9")
    t.pair("S9", "H9")
    t.expect("PAIR-42[S9 H9] SET [7,7]", pair_counter=43, players={A: {"hand": 1, "hand_known": ["D9"], "field": [
        {"unit": "PAIR-40"}, {"unit": "PAIR-42", "cards": ["S9", "H9"], "rank": {"category": "SET", "key": [7, 7]}}, {"unit": "HQ"}]}})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex14-f-void-game", "DB-EX-14", "Void game (f)")
def ex14_f() -> Table:
    t = Table().setup(first=B)
    t.goto(9, "MAIN")
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")
    t.expect("void, no winner", status="VOID", turn=9, result={"outcome": "VOID", "winner": None})
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    t.ev("game_started", JUDGE, game_index=1)
    t.expect("a new game 1 in setup", status="SETUP", game_index=1, turn=0)
    t.setup(first=B)
    t.expect("full new setup", status="IN_PROGRESS", turn=1, turn_player=B, players={A: {"life": 5, "hand": 5, "deck": 49}, B: {"life": 5, "hand": 5, "deck": 49}},
             match={"results": [{"game": 1, "outcome": "VOID"}]})
    t.expect_outcome(status="in_progress")
    return t


@fixture("ex14-g-declare-result", "DB-EX-14", "Declared result (g)")
def ex14_g() -> Table:
    t = Table().setup(first=B)
    t.goto(4, "MAIN")
    t.ev("declare_result", JUDGE, outcome="DRAW", reason="both players agree to a draw at the time limit")
    t.expect("finished, drawn", status="FINISHED", result={"outcome": "DRAW", "winner": None})
    t.reject("DB-ACT-18", "GAME_OVER", "play_card", A, card="S3")
    t.expect_outcome(status="drawn", winner=None, reason="judge")
    return t


# -- DB-EX-15 ------------------------------------------------------------------------------------
@fixture("ex15-target-leaves", "DB-EX-15", "Target leaves before resolution")
def ex15() -> Table:
    t = Table().setup(first=B)
    t.play("HQ")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("D4", "C4")
    t.number_pairs_from(60, A, ("C7", "D7"))
    t.pair("D4", "C4")
    t.goto(21, "MAIN")
    play_any(t, t.state.player(B).hand_count - 2)
    t.goto(22, "BATTLE")
    t.expect("turn 22, alice's BATTLE", turn=22, turn_player=A, phase="BATTLE", entry_counter=1,
             players={A: {"field": units("PAIR-60[D4 C4]")}, B: {"hand": 2}})  # HQ among bob's singles: tests/demonbrave/test_golden.py
    t.ev("declare_attack", A, attacker="PAIR-60", target="HQ")
    t.ev("activate_effect", B, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["HQ"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.expect("HQ back in bob's hand", players={B: {"hand": 3}})
    t.ev("resolve_battle", A)
    t.expect("void; PAIR-60 stays attacked", attack=None, players={A: {"field": [{"unit": "PAIR-60", "attacked": True}], "trash": []}, B: {"trash": []}})
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", A, attacker="PAIR-60", target="PLAYER")
    t.expect_outcome(status="in_progress")
    return t


def build(name: str) -> Table:
    return FILES[name][2]()


def main(argv: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    names = argv or list(FILES)
    for name in names:
        example, title, _ = FILES[name]
        t = build(name)
        t.write(OUT / f"{name}.jsonl", example, title)
        print(f"{name}.jsonl: {len(t.lines)} lines, {sum(v is not None for v in t.verdicts)} refused")


if __name__ == "__main__":
    main(sys.argv[1:])
