"""Write the golden matches of fixtures/demonbrave/ (the worked examples of rules §13).

    .venv/bin/python -m tests.demonbrave.make_fixtures

Every line is adjudicated while it is written (``Table``), so a file is written only if the
reducer accepts and refuses exactly the lines the example says. The tests replay the files and
check the example's figures independently (tests/test_demonbrave_golden.py).

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
from tests.demonbrave.builder import JUDGE, Table, deck_to, free_ids, play_any

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave"
A, B = "alice", "bob"
FILES: dict[str, Callable[[], Table]] = {}


def fixture(name: str):
    def register(fn: Callable[[], Table]) -> Callable[[], Table]:
        FILES[name] = fn
        return fn

    return register


# -- DB-EX-1 -------------------------------------------------------------------------------------
@fixture("ex01-opening")
def ex01() -> Table:
    t = Table().setup(first=A)
    t.play("S3", "H9")
    t.pair("S3", "H9")
    t.reject("DB-TURN-3", "NO_BATTLE_FIRST_TURN", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("advance_phase", A)
    t.ev("advance_phase", A)
    t.reject("DB-TURN-4", "BAD_DRAW_COUNT", "draw", B, count=5)
    t.ev("draw", B, count=1)
    return t


# -- DB-EX-2 -------------------------------------------------------------------------------------
@fixture("ex02-draw-rule")
def ex02() -> Table:
    t = Table().setup(first=A)
    play_any(t, 2)  # turn 1: alice hand 3
    t.end_turn()
    t.to_phase("MAIN")  # turn 2: bob draws 1 (hand 6)
    play_any(t, 6)  # bob hand 0
    t.adjust(deck_to(t, B, 18, "trash"), "example position: bob's deck 30")
    t.end_turn()
    t.ev("draw", A, count=2)  # row 1: hand 3, deck 49 -> 5 / 47
    t.to_phase("MAIN")
    play_any(t, 1)  # alice hand 4
    t.adjust(deck_to(t, A, 27, "trash"), "example position: alice's deck 20")
    t.end_turn()
    t.ev("draw", B, count=5)  # row 2: hand 0, deck 30 -> 5 / 25
    t.to_phase("MAIN")
    to_hand = deck_to(t, B, 2, "hand")
    t.adjust(to_hand + deck_to(t, B, 13, "trash", avoid={op["card"] for op in to_hand}), "example position: bob's hand 7, deck 10")
    t.end_turn()
    t.ev("draw", A, count=1)  # row 3: hand 4, deck 20 -> 5 / 19
    t.to_phase("MAIN")
    play_any(t, 4)  # alice hand 1
    t.adjust(deck_to(t, A, 17, "trash"), "example position: alice's deck 2")
    t.end_turn()
    t.ev("draw", B, count=1)  # row 4: hand 7, deck 10 -> 8 / 9
    t.to_phase("MAIN")
    play_any(t, 5)  # bob hand 3
    t.adjust(deck_to(t, B, 9, "trash"), "example position: bob's deck 0")
    t.end_turn()
    t.ev("draw", A, count=2)  # row 5: hand 1, deck 2 -> 3 / 0
    t.end_turn()
    t.reject("DB-LIM-13", "BAD_DRAW_COUNT", "draw", B, count=2)  # row 6: hand 3, deck 0
    t.ev("draw", B, count=0)
    return t


def _ex02_variant(option: str) -> Table:
    """Row "hand 1 / deck 2" with 10 cards in the trash."""
    t = Table(options={"deck_exhaustion": option}).setup(first=A)
    play_any(t, 4)  # alice hand 1, deck 49, field 4
    to_trash = deck_to(t, A, 10, "trash")
    t.adjust(to_trash + deck_to(t, A, 37, "field", avoid={op["card"] for op in to_trash}), "example position: alice's deck 2, trash 10")
    t.end_turn()
    t.end_turn()
    return t


@fixture("ex02-lose-on-failed-draw")
def ex02_lose() -> Table:
    t = _ex02_variant("lose_on_failed_draw")
    t.reject("DB-LIM-13", "BAD_DRAW_COUNT", "draw", A, count=4)
    t.ev("draw", A, count=2)
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    return t


@fixture("ex02-reshuffle-trash")
def ex02_reshuffle() -> Table:
    t = _ex02_variant("reshuffle_trash")
    t.reject("DB-TURN-4", "BAD_DRAW_COUNT", "draw", A, count=2)  # the trash lifts the cap
    t.ev("draw", A, count=4)
    return t


# -- DB-EX-3 -------------------------------------------------------------------------------------
@fixture("ex03-single-vs-single")
def ex03() -> Table:
    t = Table().setup(first=A)
    t.play("H9", "C10", "D7", "JK1")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("DK", "S5", "H7", "JK2", "SQ")
    t.end_turn()
    t.goto(4, "BATTLE")
    t.attack("DK", "H9")
    t.attack("S5", "C10")
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", B, attacker="S5", target="D7")
    t.attack("H7", "D7")
    t.attack("JK2", "JK1")
    t.reject("DB-LIM-2", "SINGLE_CANNOT_ATTACK_PLAYER", "declare_attack", B, attacker="SQ", target="PLAYER")
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
    return t


@fixture("ex04-blocks")
def ex04() -> Table:
    t = _ex04()
    t.attack("PAIR-1", "PLAYER", block="PAIR-4")
    t.attack("PAIR-6", "PLAYER", block="PAIR-5")
    t.attack("PAIR-2", "PLAYER", block="C4")
    t.attack("PAIR-3", "PLAYER", block=None)
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    return t


@fixture("ex04-stronger-blocker-trashes-attacker")
def ex04_variant() -> Table:
    t = _ex04({"stronger_blocking_pair": "attacker_trashed"})
    t.attack("PAIR-1", "PLAYER", block="PAIR-4")
    t.attack("PAIR-6", "PLAYER", block="PAIR-5")
    t.attack("PAIR-2", "PLAYER", block="C4")
    t.attack("PAIR-3", "PLAYER", block=None)
    t.reject("DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
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
    t.attack("PAIR-7", "S2")
    t.attack("PAIR-8", "JK1")
    t.attack("PAIR-9", "PLAYER", block="JK1")
    return t


@fixture("ex05-joker-exception")
def ex05() -> Table:
    return _ex05()


@fixture("ex05-joker-survives-block")
def ex05_variant() -> Table:
    return _ex05({"joker_survives_block": True})


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
    return t


@fixture("ex06-single-vs-pair")
def ex06() -> Table:
    t = _ex06_position()
    t.ev("declare_attack", A, attacker="SA", target="PAIR-10")
    t.reject("DB-RES-24", "CHOICE_REQUIRED", "resolve_battle", A)
    t.ev("resolve_battle", A, choice="C10")
    t.ev("declare_attack", A, attacker="D6", target="PAIR-11")
    t.reject("DB-RES-24", "INVALID_CHOICE", "resolve_battle", A, choice="H2")
    t.ev("resolve_battle", A)
    t.attack("H8", "PAIR-12")
    t.attack("C4", "PAIR-10")
    return t


@fixture("ex06-tie-void")
def ex06_tie() -> Table:
    t = _ex06_position({"single_vs_pair_tie": "void"})
    t.attack("SA", "PAIR-10", choice="C10")
    t.attack("D6", "PAIR-11")
    t.attack("H8", "PAIR-12")
    t.attack("C4", "PAIR-10")
    return t


@fixture("ex06-all-weaker")
def ex06_all() -> Table:
    t = _ex06_position({"single_vs_pair_trash": "all_weaker"})
    t.attack("SA", "PAIR-10")
    t.attack("D6", "PAIR-11")
    t.attack("H8", "PAIR-12")
    t.reject("DB-ACT-14", "BAD_TARGET", "declare_attack", A, attacker="C4", target="PAIR-10")
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
    t.attack("PAIR-13", "PAIR-17")
    t.attack("PAIR-14", "PAIR-18")
    t.attack("PAIR-15", "PAIR-19")
    t.attack("PAIR-16", "PAIR-20")
    return t


@fixture("ex07-pair-vs-pair")
def ex07() -> Table:
    return _ex07()


@fixture("ex07-size-first")
def ex07_size() -> Table:
    return _ex07({"pair_size_rule": "size_first"})


@fixture("ex07-weaker-attacker-trashed")
def ex07_weaker() -> Table:
    return _ex07({"weaker_attacking_pair": "trashed"})


@fixture("ex07-run-below-set")
def ex07_order() -> Table:
    return _ex07({"pair_category_order": ["FREE", "RUN", "SET"]})


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
    return t


@fixture("ex08-reversal")
def ex08() -> Table:
    t = _ex08_position()
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("advance_phase", A)
    t.attack("S3", "H2")
    t.attack("D4", "JK2")
    t.attack("PAIR-21", "PAIR-22")
    t.ev("advance_phase", A)
    t.ev("advance_phase", A)
    t.to_phase("BATTLE")
    t.attack("CA", "S3")
    t.attack("PAIR-22", "PAIR-21")
    t.end_turn()
    return t


@fixture("ex08-double-reversal")
def ex08_double() -> Table:
    t = _ex08_position()
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2")
    t.ev("advance_phase", A)
    t.attack("S3", "H2")
    t.attack("D4", "JK2")
    t.attack("PAIR-21", "PAIR-22")
    t.ev("advance_phase", A)
    t.ev("advance_phase", A)
    t.to_phase("BATTLE")
    t.attack("CA", "S3")
    t.end_turn()
    return t


# -- DB-EX-9 -------------------------------------------------------------------------------------
def _ex09_position(catalog: list | None = None) -> Table:
    t = Table(catalog=catalog).setup(first=A)
    t.goto(16, "MAIN")
    hand = t.state.player(B).hand_count
    play_any(t, hand - 3, avoid={"H5"})
    return t


@fixture("ex09-chain-order")
def ex09() -> Table:
    t = _ex09_position()
    t.ev("activate_effect", B, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E2"])
    t.reject("DB-RES-42", "CHAIN_OPEN", "play_card", B, card="H5")
    t.reject("DB-RES-41", "NOT_TOP_OF_CHAIN", "resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E3")
    t.reject("DB-RES-43", "CHAIN_RESOLVING", "activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2", ops=[])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    return t


@fixture("ex09-not-in-opponent-turn")
def ex09_variant() -> Table:
    catalog = msgspec.to_builtins(SAMPLE_CATALOG)
    for card in catalog:
        if card["id"] == "T-NEG":
            card["effects"][0]["usable_in_opponent_turn"] = False
    t = _ex09_position(catalog)
    t.ev("activate_effect", B, rule_card="T-REV", effect_id="T-REV.reverse")
    t.reject("DB-RES-40", "NOT_ALLOWED_IN_OPPONENT_TURN", "activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    return t


# -- DB-EX-10 ------------------------------------------------------------------------------------
@fixture("ex10a-life-zero")
def ex10a() -> Table:
    t = Table().setup(first=A)
    t.play("S3", "H9")
    t.pair("S3", "H9")
    for turn in (3, 5, 7, 9):
        t.goto(turn, "BATTLE")
        t.attack("PAIR-1", "PLAYER")
    t.goto(17, "BATTLE")
    t.ev("declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("resolve_battle", A)
    t.reject("DB-ACT-18", "GAME_OVER", "declare_attack", A, attacker="PAIR-1", target="PLAYER")
    return t


def _ex10b(options: dict | None = None) -> Table:
    t = Table(options=options).setup(first=A)
    t.goto(3, "MAIN")
    t.adjust([{"op": "LOSE_LIFE", "player": A, "amount": 4}, {"op": "LOSE_LIFE", "player": B, "amount": 4}], "example position: lives 1/1")
    t.ev("activate_effect", A, rule_card="T-BURN", effect_id="T-BURN.burn")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "LOSE_LIFE", "player": A, "amount": 1}, {"op": "LOSE_LIFE", "player": B, "amount": 1}])
    return t


@fixture("ex10b-both-zero-draw")
def ex10b() -> Table:
    t = _ex10b()
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    return t


@fixture("ex10b-turn-player-wins")
def ex10b_variant() -> Table:
    return _ex10b({"simultaneous_zero_life": "turn_player_wins"})


@fixture("ex10c-concession")
def ex10c() -> Table:
    t = Table().setup(first=A)
    t.play("S3")
    t.ev("concede", B, player=B)
    t.reject("DB-ACT-18", "GAME_OVER", "play_card", A, card="H9")
    return t


# -- DB-EX-11 ------------------------------------------------------------------------------------
@fixture("ex11-forming-pairs")
def ex11() -> Table:
    t = Table().setup(first=A)
    t.play("S3", "H9", "C9")
    t.pair("H9", "C9")
    t.goto(3, "DRAW")
    t.draw(["H3", "D3", "SK"])
    t.advance()
    t.play("H3")
    t.pair("S3", "H3")
    t.play("D3")
    t.pair("PAIR-2", "D3")
    t.reject("DB-ACT-11", "PAIR_MERGE_FORBIDDEN", "form_pair", A, units=["PAIR-1", "PAIR-2"])
    t.play("SK")
    t.reject("DB-ACT-11", "PAIR_TOO_SMALL", "form_pair", A, units=["SK"])
    t.ev("advance_phase", A)
    t.reject("DB-ACT-11", "WRONG_PHASE", "form_pair", A, units=["SK", "PAIR-1"])
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
    t.ev("draw", A, count=0)
    t.to_phase("BATTLE")
    t.attack("PAIR-30", "PLAYER", block="PAIR-31")
    t.end_turn()
    t.end_turn()
    return t


@fixture("ex12-stalemate")
def ex12() -> Table:
    t = _ex12_position()
    t.end_turn()
    t.end_turn()
    t.reject("DB-ACT-18", "GAME_OVER", "draw", A, count=0)
    return t


@fixture("ex12-life-change-resets-idle")
def ex12_variant() -> Table:
    t = _ex12_position()
    t.goto(42, "BATTLE")
    t.attack("PAIR-30", "PLAYER", block=None)
    t.end_turn()
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
    t.attack("PAIR-50", "PAIR-51")
    return t


@fixture("ex13-jokers-in-pairs")
def ex13() -> Table:
    t = _ex13()
    t.end_turn()
    t.to_phase("BATTLE")
    t.attack("SQ", "PAIR-50", choice="JK1")
    t.ev("declare_attack", B, attacker="C2", target="PAIR-52")
    t.reject("DB-RES-24", "INVALID_CHOICE", "resolve_battle", B, choice="JK2")
    t.ev("resolve_battle", B, choice="S3")
    return t


@fixture("ex13-top-card")
def ex13_variant() -> Table:
    return _ex13({"joker_in_pair": "top_card"})


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
    seqs["500"] = t.ev("declare_attack", A, attacker="PAIR-40", target="PLAYER")
    seqs["501"] = t.ev("declare_block", B, blocker="C4")
    seqs["502"] = t.ev("resolve_battle", A)
    seqs["503"] = t.ev("rewind", JUDGE, to_seq=seqs["500"], reason="bob said no block; the block was a mis-entry")
    t.ev("declare_block", B, blocker=None)
    t.ev("resolve_battle", A)
    t.reject("DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=seqs["turn19"], reason="back to turn 19")
    seqs["599"] = t.ev("activate_effect", A, rule_card="X-1", effect_id="X-1.effect")
    seqs["600"] = t.ev("resolve_chain_entry", JUDGE, entry_id="E7", ops=[{"op": "LOSE_LIFE", "player": B, "amount": 2}])
    seqs["601"] = t.ev("rewind", JUDGE, to_seq=seqs["599"], reason="the effect takes 1 life, not 2")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E7", ops=[{"op": "LOSE_LIFE", "player": B, "amount": 1}])
    return t, seqs


@fixture("ex14-abc-rewinds")
def ex14_abc() -> Table:
    return _ex14_turn20()[0]


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
    t.ev("activate_effect", A, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["D9"])
    seqs["700"] = t.ev("resolve_chain_entry", JUDGE, entry_id="E9", ops=[])
    seqs["701"] = t.ev("play_card", A, card="HQ")
    return t, seqs


BOUNCE_D9 = {"type": "judge_adjust", "by": JUDGE, "ops": [{"op": "MOVE", "card": "D9", "from": "field", "to": "hand", "player": A}], "reason": "<T-BOUNCE> returned D9 to alice's hand at the table"}


@fixture("ex14-d-correction")
def ex14_d() -> Table:
    t, seqs = _ex14_turn22()
    t.ev("correct", JUDGE, at_seq=seqs["701"], event=BOUNCE_D9, reason="E9 was resolved without its op")
    return t


def _ex14_e() -> tuple[Table, dict[str, int]]:
    t, seqs = _ex14_turn22()
    t.play("H9")
    t.ev("form_pair", A, units=["PAIR-41", "H9"])
    t.reject("DB-RWD-6", "CORRECTION_CONFLICT", "correct", JUDGE, at_seq=seqs["701"], event=BOUNCE_D9, reason="E9 was resolved without its op")
    return t, seqs


@fixture("ex14-e-adjust-now")
def ex14_e1() -> Table:
    t, _ = _ex14_e()
    t.adjust(BOUNCE_D9["ops"], BOUNCE_D9["reason"])
    return t


@fixture("ex14-e-rewind-and-replay")
def ex14_e2() -> Table:
    t, seqs = _ex14_e()
    t.ev("rewind", JUDGE, to_seq=seqs["700"], reason="replay from the resolution of E9")
    t.adjust(BOUNCE_D9["ops"], BOUNCE_D9["reason"])
    t.play("HQ", "H9")
    t.pair("S9", "H9")
    return t


@fixture("ex14-f-void-game")
def ex14_f() -> Table:
    t = Table().setup(first=B)
    t.goto(9, "MAIN")
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    t.ev("game_started", JUDGE, game_index=1)
    t.setup(first=B)
    return t


@fixture("ex14-g-declare-result")
def ex14_g() -> Table:
    t = Table().setup(first=B)
    t.goto(4, "MAIN")
    t.ev("declare_result", JUDGE, outcome="DRAW", reason="both players agree to a draw at the time limit")
    t.reject("DB-ACT-18", "GAME_OVER", "play_card", A, card="S3")
    return t


# -- DB-EX-15 ------------------------------------------------------------------------------------
@fixture("ex15-target-leaves")
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
    t.ev("declare_attack", A, attacker="PAIR-60", target="HQ")
    t.ev("activate_effect", B, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["HQ"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("resolve_battle", A)
    t.reject("DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", A, attacker="PAIR-60", target="PLAYER")
    return t


def build(name: str) -> Table:
    return FILES[name]()


def main(argv: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    names = argv or list(FILES)
    for name in names:
        t = build(name)
        t.write(OUT / f"{name}.jsonl")
        print(f"{name}.jsonl: {len(t.lines)} lines, {sum(v is not None for v in t.verdicts)} refused")


if __name__ == "__main__":
    main(sys.argv[1:])
