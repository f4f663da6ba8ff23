"""The golden matches of DB-EX-8 ... DB-EX-13 (reversal, chain, end of game, pairs, stalemate,
jokers), written by ``make_fixtures``."""

from __future__ import annotations

import msgspec

from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from tests.demonbrave.builder import JUDGE, Table, free_ids, play_any, units
from tests.demonbrave.golden_writers import A, B, fixture, ranked


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
