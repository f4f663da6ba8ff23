"""The golden matches of DB-EX-1 ... DB-EX-7 (openings, draws, battles), written by
``make_fixtures``."""

from __future__ import annotations

from tests.demonbrave.builder import Table, deck_to, play_any, units
from tests.demonbrave.golden_writers import A, B, fixture, ranked


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
