"""Golden matches: every worked example of rules §13 (DB-EX-1 ... DB-EX-15) replayed from
fixtures/demonbrave/*.jsonl as ``adj check`` does (a refused line changes nothing and play goes
on), asserting each refusal's rule ID and code and the figures the example states.

Seat order is alice (P1), bob (P2) in every file."""

from __future__ import annotations

import pytest

from tests.demonbrave.replay import FIXTURES, Replay, field, rank, trash

A, B = "alice", "bob"


def test_every_fixture_is_tested():
    tested = {name for name in globals() if name.startswith("test_")}
    files = sorted(p.stem for p in FIXTURES.glob("ex*.jsonl"))
    assert files, "no golden files"
    for stem in files:
        key = "test_" + stem.replace("-", "_")
        assert key in tested, f"{stem}.jsonl has no test {key}"


# -- DB-EX-1 Opening and first turn (DB-SETUP-1, DB-TURN-3, DB-TURN-4) ----------------------------
def test_ex01_opening():
    r = Replay("ex01-opening")
    assert r.rejections() == [
        ("declare_attack", "DB-TURN-3", "NO_BATTLE_FIRST_TURN"),
        ("draw", "DB-TURN-4", "BAD_DRAW_COUNT"),
    ]
    start = r.after(r.find("opening_hands_drawn"))
    assert (start.turn_number, start.turn_player, start.phase, start.pair_counter) == (1, A, "MAIN", 1)
    for who in (A, B):
        p = start.player(who)
        assert (p.life, p.hand_count, p.deck_count) == (5, 5, 49)
    s = r.after(r.find("play_card", card="H9"))
    assert s.player(A).hand_count == 3 and field(s, A) == {"S3", "H9"}
    s = r.after(r.find("form_pair"))
    assert field(s, A) == {"PAIR-1[S3 H9]"} and rank(s, A, "PAIR-1") == ("FREE", (7, 1)) and s.pair_counter == 2
    end = r.find("advance_phase")
    assert r.after(end).phase == "END"  # BATTLE skipped on turn 1
    s = r.after(end + 1)
    assert (s.turn_number, s.turn_player, s.phase) == (2, B, "DRAW")
    assert "hand 5 → draw 1" in r.rejection_at(r.find("draw", count=5))[2]
    s = r.state
    assert (s.player(B).hand_count, s.player(B).deck_count) == (6, 48)
    assert (s.player(A).hand_count, s.player(A).deck_count) == (3, 49)


# -- DB-EX-2 Draw rule (DB-TURN-4, DB-LIM-13) ------------------------------------------------------
def test_ex02_draw_rule():
    r = Replay("ex02-draw-rule")
    assert r.rejections() == [("draw", "DB-LIM-13", "BAD_DRAW_COUNT")]
    rows = [  # (player, hand before, deck before, count, hand after, deck after)
        (A, 3, 49, 2, 5, 47),
        (B, 0, 30, 5, 5, 25),
        (A, 4, 20, 1, 5, 19),
        (B, 7, 10, 1, 8, 9),
        (A, 1, 2, 2, 3, 0),
        (B, 3, 0, 0, 3, 0),
    ]
    draws = [no for no, line in enumerate(r.lines, 1) if line["type"] == "draw" and r.rejection_at(no) is None]
    checked = 0
    for who, hand, deck, count, hand_after, deck_after in rows:
        line = next(
            no for no in draws
            if r.lines[no - 1]["by"] == who and r.after(no - 1).player(who).hand_count == hand and r.after(no - 1).player(who).deck_count == deck
        )
        assert r.lines[line - 1]["count"] == count
        p = r.after(line).player(who)
        assert (p.hand_count, p.deck_count) == (hand_after, deck_after)
        checked += 1
    assert checked == 6
    assert r.rejection_at(r.find("draw", count=2, by=B))[0] == "DB-LIM-13"


def test_ex02_lose_on_failed_draw():
    r = Replay("ex02-lose-on-failed-draw")
    assert r.rejections() == [("draw", "DB-LIM-13", "BAD_DRAW_COUNT"), ("advance_phase", "DB-ACT-18", "GAME_OVER")]
    before = r.after(r.find("draw", count=4) - 1)
    p = before.player(A)
    assert (p.hand_count, p.deck_count, len(p.trash)) == (1, 2, 10)
    p = r.state.player(A)
    assert (p.hand_count, p.deck_count) == (3, 0)
    assert r.state.status == "FINISHED"
    assert (r.outcome.status, r.outcome.winner) == ("won", B)


def test_ex02_reshuffle_trash():
    r = Replay("ex02-reshuffle-trash")
    assert r.rejections() == [("draw", "DB-TURN-4", "BAD_DRAW_COUNT")]
    p = r.state.player(A)
    assert (p.hand_count, p.deck_count, len(p.trash)) == (5, 8, 0)
    assert r.state.status == "IN_PROGRESS"


# -- DB-EX-3 Single vs single (DB-RES-20...23, DB-LIM-1/2) -----------------------------------------
def test_ex03_single_vs_single():
    r = Replay("ex03-single-vs-single")
    assert r.rejections() == [
        ("declare_attack", "DB-LIM-1", "ALREADY_ATTACKED"),
        ("declare_attack", "DB-LIM-2", "SINGLE_CANNOT_ATTACK_PLAYER"),
    ]
    start = r.after(r.find("declare_attack") - 1)
    assert (start.turn_number, start.turn_player, start.phase) == (4, B, "BATTLE")
    assert field(start, B) == {"DK", "S5", "H7", "JK2", "SQ"} and field(start, A) == {"H9", "C10", "D7", "JK1"}
    assert trash(r.after(r.find("resolve_battle")), A) == ["H9"]  # 1. DK(11) -> H9(7)
    s = r.after(r.find("resolve_battle", start=r.find("declare_attack", attacker="S5")))
    assert "C10" in field(s, A) and "S5" in field(s, B)  # 2. void
    assert "already attacked" in r.rejection_at(r.find("declare_attack", attacker="S5", target="D7"))[2]
    s = r.state
    assert field(s, A) == {"C10"} and trash(s, A) == ["H9", "D7", "JK1"]
    assert field(s, B) == {"DK", "S5", "SQ"} and trash(s, B) == ["H7", "JK2"]
    assert (s.player(A).life, s.player(B).life) == (5, 5)


# -- DB-EX-4 Pair attacks the player; blocks (DB-RES-27...30) --------------------------------------
def _ex04_start(r: Replay):
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (6, A, "BATTLE")
    assert field(s, A) == {"PAIR-1[S3 H9]", "PAIR-2[SJ HJ]", "PAIR-3[D5 D6]", "PAIR-6[CK D2]"}
    assert [rank(s, A, p) for p in ("PAIR-1", "PAIR-2", "PAIR-3", "PAIR-6")] == [
        ("FREE", (7, 1)), ("SET", (9, 9)), ("RUN", (4, 3)), ("FREE", (13, 11))]
    assert field(s, B) == {"C4", "PAIR-4[D8 H8]", "PAIR-5[C5 H6]"}
    assert [rank(s, B, p) for p in ("PAIR-4", "PAIR-5")] == [("SET", (6, 6)), ("FREE", (4, 3))]
    assert s.player(B).life == 5


def test_ex04_blocks():
    r = Replay("ex04-blocks")
    _ex04_start(r)
    assert r.rejections() == [("declare_attack", "DB-LIM-1", "ALREADY_ATTACKED")]
    battles = [no for no, line in enumerate(r.lines, 1) if line["type"] == "resolve_battle"]
    s1, s2, s3, s4 = (r.after(no) for no in battles)
    assert "PAIR-1[S3 H9]" in field(s1, A) and "PAIR-4[D8 H8]" in field(s1, B) and s1.player(B).life == 5
    assert trash(s2, B) == ["C5", "H6"] and s2.player(B).life == 5
    assert trash(s3, B) == ["C5", "H6", "C4"] and s3.player(B).life == 5
    assert s4.player(B).life == 4
    s = r.state
    assert s.player(B).life == 4 and field(s, B) == {"PAIR-4[D8 H8]"} and trash(s, B) == ["C5", "H6", "C4"]
    assert field(s, A) == {"PAIR-1[S3 H9]", "PAIR-2[SJ HJ]", "PAIR-3[D5 D6]", "PAIR-6[CK D2]"} and trash(s, A) == []


def test_ex04_stronger_blocker_trashes_attacker():
    r = Replay("ex04-stronger-blocker-trashes-attacker")
    _ex04_start(r)
    assert r.rejections() == [("declare_attack", "DB-ACT-14", "UNIT_NOT_OWNED")]
    s = r.after(r.find("resolve_battle"))
    assert trash(s, A) == ["S3", "H9"] and not any(u.startswith("PAIR-1[") for u in field(s, A))
    assert "no unit PAIR-1" in r.rejection_at(len(r.lines))[2]
    assert r.state.player(B).life == 4


# -- DB-EX-5 Pair vs single, joker exception, joker blocker (DB-RES-25/26/29) -----------------------
def _ex05_check(r: Replay):
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (8, A, "BATTLE")
    assert field(s, A) == {"PAIR-7[SK HK]", "PAIR-8[D4 C9]", "PAIR-9[H3 C3]"} and field(s, B) == {"S2", "JK1"}
    assert s.player(B).life == 3
    assert r.rejections() == []
    s1 = r.after(r.find("resolve_battle"))
    assert trash(s1, B) == ["S2"]  # 1. although 2 is the highest number
    s2 = r.after(r.find("resolve_battle", start=r.find("declare_attack", attacker="PAIR-8")))
    assert "JK1" in field(s2, B)  # 2. void


def test_ex05_joker_exception():
    r = Replay("ex05-joker-exception")
    _ex05_check(r)
    s = r.state
    assert field(s, B) == set() and trash(s, B) == ["S2", "JK1"] and s.player(B).life == 3


def test_ex05_joker_survives_block():
    r = Replay("ex05-joker-survives-block")
    _ex05_check(r)
    s = r.state
    assert field(s, B) == {"JK1"} and trash(s, B) == ["S2"] and s.player(B).life == 3


# -- DB-EX-6 Single vs pair (DB-RES-24, DB-RES-31) ------------------------------------------------
def _ex06_start(r: Replay):
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (10, A, "BATTLE")
    assert field(s, A) == {"SA", "D6", "H8", "C4"}
    assert field(s, B) == {"PAIR-10[H5 C10 SQ]", "PAIR-11[S5 H2]", "PAIR-12[S8 D9]"}
    assert [rank(s, B, p) for p in ("PAIR-10", "PAIR-11", "PAIR-12")] == [
        ("FREE", (10, 8, 3)), ("FREE", (13, 3)), ("FREE", (7, 6))]


def test_ex06_single_vs_pair():
    r = Replay("ex06-single-vs-pair")
    _ex06_start(r)
    assert r.rejections() == [("resolve_battle", "DB-RES-24", "CHOICE_REQUIRED"), ("resolve_battle", "DB-RES-24", "INVALID_CHOICE")]
    assert "H5 C10 SQ" in r.rejection_at(r.find("resolve_battle"))[2]
    assert "H2 is 13" in r.rejection_at(r.find("resolve_battle", choice="H2"))[2]
    s1 = r.after(r.find("resolve_battle", choice="C10"))
    assert "PAIR-10[H5 SQ]" in field(s1, B) and rank(s1, B, "PAIR-10") == ("FREE", (10, 3)) and trash(s1, B) == ["C10"]
    s2 = r.after(r.find("resolve_battle", start=r.find("resolve_battle", choice="H2") + 1))
    assert trash(s2, B) == ["C10", "S5"] and "H2" in field(s2, B)
    s = r.state
    assert field(s, A) == {"SA", "D6", "C4"} and trash(s, A) == ["H8"]
    assert field(s, B) == {"PAIR-10[H5 SQ]", "H2", "D9"} and trash(s, B) == ["C10", "S5", "S8"]


def test_ex06_tie_void():
    r = Replay("ex06-tie-void")
    _ex06_start(r)
    assert r.rejections() == []
    s = r.state
    assert field(s, A) == {"SA", "D6", "H8", "C4"} and trash(s, A) == []
    assert field(s, B) == {"PAIR-10[H5 SQ]", "H2", "PAIR-12[S8 D9]"} and trash(s, B) == ["C10", "S5"]


def test_ex06_all_weaker():
    r = Replay("ex06-all-weaker")
    _ex06_start(r)
    assert r.rejections() == [("declare_attack", "DB-ACT-14", "BAD_TARGET")]
    s = r.state
    assert field(s, A) == {"SA", "D6", "H8", "C4"} and trash(s, A) == []
    assert field(s, B) == {"H2", "PAIR-12[S8 D9]"} and trash(s, B) == ["H5", "C10", "SQ", "S5"]


# -- DB-EX-7 Pair vs pair (DB-RES-9, DB-RES-27) --------------------------------------------------
P1_EX7 = {"PAIR-13[S7 H7]", "PAIR-14[SK D3]", "PAIR-15[S9 H9]", "PAIR-16[SJ HJ]"}
P2_EX7 = {"PAIR-17[DA C2]", "PAIR-18[H4 H5]", "PAIR-19[D9 C9]", "PAIR-20[D8 C8 H8]"}


def _ex07_start(r: Replay):
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (12, A, "BATTLE")
    assert field(s, A) == P1_EX7 and field(s, B) == P2_EX7
    assert r.rejections() == []
    return s


def test_ex07_pair_vs_pair():
    r = Replay("ex07-pair-vs-pair")
    s = _ex07_start(r)
    assert [rank(s, A, f"PAIR-{n}") for n in (13, 14, 15, 16)] == [("SET", (5, 5)), ("FREE", (11, 1)), ("SET", (7, 7)), ("SET", (9, 9))]
    assert [rank(s, B, f"PAIR-{n}") for n in (17, 18, 19, 20)] == [("FREE", (13, 12)), ("RUN", (3, 2)), ("SET", (7, 7)), ("SET", (6, 6, 6))]
    s = r.state
    assert field(s, A) == {"PAIR-13[S7 H7]", "PAIR-14[SK D3]", "PAIR-16[SJ HJ]"} and trash(s, A) == ["S9", "H9"]
    assert field(s, B) == {"PAIR-18[H4 H5]"} and trash(s, B) == ["DA", "C2", "D9", "C9", "D8", "C8", "H8"]


def test_ex07_size_first():
    r = Replay("ex07-size-first")
    _ex07_start(r)
    s = r.state
    assert "PAIR-20[D8 C8 H8]" in field(s, B)  # step 4 void: 3 cards beat 2
    assert trash(s, B) == ["DA", "C2", "D9", "C9"] and trash(s, A) == ["S9", "H9"]


def test_ex07_weaker_attacker_trashed():
    r = Replay("ex07-weaker-attacker-trashed")
    _ex07_start(r)
    s = r.state
    assert trash(s, A) == ["SK", "D3", "S9", "H9"]
    assert field(s, A) == {"PAIR-13[S7 H7]", "PAIR-16[SJ HJ]"}


def test_ex07_run_below_set():
    r = Replay("ex07-run-below-set")
    _ex07_start(r)
    s = r.state  # pair_category_order = FREE, RUN, SET changes nothing here
    assert field(s, A) == {"PAIR-13[S7 H7]", "PAIR-14[SK D3]", "PAIR-16[SJ HJ]"} and trash(s, A) == ["S9", "H9"]
    assert field(s, B) == {"PAIR-18[H4 H5]"} and trash(s, B) == ["DA", "C2", "D9", "C9", "D8", "C8", "H8"]


# -- DB-EX-8 <J> reversal (DB-RES-2...4, DB-TURN-7) ----------------------------------------------
def _ex08_start(r: Replay):
    s = r.after(r.find("activate_effect") - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.entry_counter) == (14, A, "MAIN", 1)
    assert field(s, A) == {"S3", "D4", "PAIR-21[SA HA]"} and field(s, B) == {"H2", "JK2", "CA", "PAIR-22[C3 D3]"}
    assert r.rejections() == []


def test_ex08_reversal():
    r = Replay("ex08-reversal")
    _ex08_start(r)
    s = r.after(r.find("resolve_chain_entry", entry_id="E1"))
    assert [(x.expires_turn) for x in s.reversals] == [14]
    assert rank(s, A, "PAIR-21") == ("SET", (2, 2)) and rank(s, B, "PAIR-22") == ("SET", (13, 13))
    battles = [no for no, line in enumerate(r.lines, 1) if line["type"] == "resolve_battle"]
    assert trash(r.after(battles[0]), B) == ["H2"]  # S3(13) -> H2(1)
    assert "JK2" in field(r.after(battles[1]), B)  # D4(12) -> JK2(14): void
    assert "PAIR-22[C3 D3]" in field(r.after(battles[2]), B)  # [2,2] -> [13,13]: void
    t15 = r.after(r.find("advance_phase", start=battles[2]) + 1)
    assert (t15.turn_number, t15.turn_player, t15.phase, t15.reversals) == (15, B, "DRAW", ())
    s4 = r.after(battles[3])
    assert trash(s4, A) == ["S3"] and rank(s4, B, "PAIR-22") == ("SET", (1, 1))
    s = r.state
    assert field(s, A) == {"D4", "PAIR-21[SA HA]"} and trash(s, A) == ["S3"]
    assert field(s, B) == {"JK2", "CA", "PAIR-22[C3 D3]"} and trash(s, B) == ["H2"]


def test_ex08_double_reversal():
    r = Replay("ex08-double-reversal")
    _ex08_start(r)
    s = r.after(r.find("resolve_chain_entry", entry_id="E2"))
    assert len(s.reversals) == 2 and rank(s, A, "PAIR-21") == ("SET", (12, 12))  # toggle: normal again
    s = r.state
    assert field(s, A) == {"D4", "PAIR-21[SA HA]"} and trash(s, A) == ["S3"]
    assert field(s, B) == {"H2", "JK2", "CA"} and trash(s, B) == ["C3", "D3"]


# -- DB-EX-9 Chain order (DB-RES-41...45) -------------------------------------------------------
def test_ex09_chain_order():
    r = Replay("ex09-chain-order")
    s = r.after(r.find("activate_effect") - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.entry_counter, s.player(B).hand_count) == (16, B, "MAIN", 1, 3)
    assert r.rejections() == [
        ("play_card", "DB-RES-42", "CHAIN_OPEN"),
        ("resolve_chain_entry", "DB-RES-41", "NOT_TOP_OF_CHAIN"),
        ("activate_effect", "DB-RES-43", "CHAIN_RESOLVING"),
    ]
    s = r.after(r.find("activate_effect", by=B, rule_card="T-NEG"))
    assert [(e.entry_id, e.controller) for e in s.chain] == [("E1", B), ("E2", A), ("E3", B)]
    s = r.after(r.find("resolve_chain_entry", entry_id="E3"))
    assert [(e.entry_id, e.negated) for e in s.chain] == [("E1", False), ("E2", True)] and s.chain_resolving
    s = r.state
    assert s.chain == () and not s.chain_resolving
    assert [x.expires_turn for x in s.reversals] == [16]


def test_ex09_not_in_opponent_turn():
    r = Replay("ex09-not-in-opponent-turn")
    assert r.rejections() == [("activate_effect", "DB-RES-40", "NOT_ALLOWED_IN_OPPONENT_TURN")]
    s = r.state
    assert s.chain == () and [x.expires_turn for x in s.reversals] == [16]


# -- DB-EX-10 End of game (DB-LIM-11, DB-RUL-23/25/31) --------------------------------------------
def test_ex10a_life_zero():
    r = Replay("ex10a-life-zero")
    last = r.find("declare_attack", start=len(r.lines) - 3)
    s = r.after(last - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (17, A, "BATTLE")
    assert s.player(B).life == 1 and field(s, B) == set() and "PAIR-1[S3 H9]" in field(s, A)
    assert r.rejections() == [("declare_attack", "DB-ACT-18", "GAME_OVER")]
    s = r.state
    assert s.player(B).life == 0 and s.status == "FINISHED"
    assert (s.result.outcome, s.result.winner, s.result.reason) == ("WIN", A, "LIFE_ZERO")
    assert (r.outcome.status, r.outcome.winner) == ("won", A)


def test_ex10b_both_zero_draw():
    r = Replay("ex10b-both-zero-draw")
    assert r.rejections() == [("advance_phase", "DB-ACT-18", "GAME_OVER")]
    s = r.after(r.find("activate_effect") - 1)
    assert (s.player(A).life, s.player(B).life, s.turn_player) == (1, 1, A)
    s = r.state
    assert (s.player(A).life, s.player(B).life) == (0, 0)
    assert r.outcome.status == "drawn" and r.outcome.winner is None


def test_ex10b_turn_player_wins():
    r = Replay("ex10b-turn-player-wins")
    assert r.rejections() == []
    assert (r.outcome.status, r.outcome.winner) == ("won", A)


def test_ex10c_concession():
    r = Replay("ex10c-concession")
    assert r.rejections() == [("play_card", "DB-ACT-18", "GAME_OVER")]
    s = r.after(r.find("concede") - 1)
    assert (s.turn_player, s.phase) == (A, "MAIN")
    assert (r.state.result.winner, r.state.result.reason) == (A, "CONCESSION")
    assert (r.outcome.status, r.outcome.winner) == ("won", A)


# -- DB-EX-11 Forming pairs (DB-ACT-11, DB-RUL-5) -----------------------------------------------
def test_ex11_forming_pairs():
    r = Replay("ex11-forming-pairs")
    s = r.after(r.find("play_card", card="H3") - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.pair_counter) == (3, A, "MAIN", 2)
    assert field(s, A) == {"S3", "PAIR-1[H9 C9]"} and s.player(A).hand_count == 5
    assert set(s.player(A).hand_known) == {"H3", "D3", "SK"}
    assert r.rejections() == [
        ("form_pair", "DB-ACT-11", "PAIR_MERGE_FORBIDDEN"),
        ("form_pair", "DB-ACT-11", "PAIR_TOO_SMALL"),
        ("form_pair", "DB-ACT-11", "WRONG_PHASE"),
    ]
    s1 = r.after(r.find("form_pair", units=["S3", "H3"]))
    assert rank(s1, A, "PAIR-2") == ("SET", (1, 1)) and s1.pair_counter == 3
    s2 = r.after(r.find("form_pair", units=["PAIR-2", "D3"]))
    assert "PAIR-2[S3 H3 D3]" in field(s2, A) and rank(s2, A, "PAIR-2") == ("SET", (1, 1, 1))
    s = r.state
    assert s.player(A).hand_count == 2 and field(s, A) == {"PAIR-1[H9 C9]", "PAIR-2[S3 H3 D3]", "SK"} and s.pair_counter == 3


# -- DB-EX-12 Empty decks and stalemate (DB-LIM-12/13) -------------------------------------------
def _ex12_start(r: Replay):
    s = r.after(r.find("draw", count=0) - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.idle_turns) == (40, A, "DRAW", 0)
    for who in (A, B):
        p = s.player(who)
        assert (p.deck_count, p.hand_count, len(p.trash), p.life) == (0, 0, 52, 2)
    assert field(s, A) == {"PAIR-30[SK HK]"} and field(s, B) == {"PAIR-31[S2 H2]"}
    assert rank(s, A, "PAIR-30") == ("SET", (11, 11)) and rank(s, B, "PAIR-31") == ("SET", (13, 13))


def test_ex12_stalemate():
    r = Replay("ex12-stalemate")
    _ex12_start(r)
    assert r.rejections() == [("draw", "DB-ACT-18", "GAME_OVER")]
    ends = [no for no, line in enumerate(r.lines, 1) if line["type"] == "advance_phase" and r.after(no - 1).phase == "END" and r.after(no - 1).turn_number >= 40]
    assert [r.after(no).idle_turns for no in ends] == [1, 2, 3, 4]
    s = r.state
    assert s.status == "FINISHED" and (s.result.outcome, s.result.reason) == ("DRAW", "STALEMATE") and s.turn_number == 43
    assert r.outcome.status == "drawn"


def test_ex12_life_change_resets_idle():
    r = Replay("ex12-life-change-resets-idle")
    _ex12_start(r)
    s = r.state
    assert (s.turn_number, s.idle_turns, s.status) == (43, 0, "IN_PROGRESS")
    assert s.player(B).life == 1


# -- DB-EX-13 Jokers in pairs (DB-RES-7) ---------------------------------------------------------
def test_ex13_jokers_in_pairs():
    r = Replay("ex13-jokers-in-pairs")
    s = r.after(r.find("declare_attack") - 1)
    assert rank(s, A, "PAIR-50") == ("RUN", (6, 5)) and rank(s, B, "PAIR-51") == ("SET", (12, 12))
    assert rank(s, A, "PAIR-52") == ("FREE", (14, 7, 1))
    assert r.rejections() == [("resolve_battle", "DB-RES-24", "INVALID_CHOICE")]
    assert "JK2 is 14" in r.rejection_at(r.find("resolve_battle", choice="JK2"))[2]
    s = r.after(r.find("resolve_battle"))
    assert trash(s, B) == ["DA", "CA"]  # (a) RUN > SET
    s = r.after(r.find("resolve_battle", choice="JK1"))
    assert trash(s, A) == ["JK1"] and "S7" in field(s, A)  # (b)
    s = r.state
    assert trash(s, A) == ["JK1", "S3"] and "PAIR-52[JK2 H9]" in field(s, A)


def test_ex13_top_card():
    r = Replay("ex13-top-card")
    s = r.after(r.find("declare_attack") - 1)
    assert rank(s, A, "PAIR-50") == ("FREE", (14, 5))
    assert r.rejections() == []
    assert "PAIR-51[DA CA]" in field(r.state, B) and trash(r.state, B) == []  # (e) void


# -- DB-EX-14 Rewind and corrections (§8) ---------------------------------------------------------
def test_ex14_abc_rewinds():
    r = Replay("ex14-abc-rewinds")
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase) == (20, A, "BATTLE")
    assert "PAIR-40[S6 H6]" in field(s, A) and field(s, B) == {"C4"} and s.player(B).life == 5 and trash(s, B) == []
    assert r.rejections() == [("rewind", "DB-RWD-3", "REWIND_OUT_OF_SCOPE")]
    first_rewind = r.find("rewind")
    assert trash(r.after(first_rewind - 1), B) == ["C4"]  # 502: C4 trashed on the mis-entered block
    s = r.after(first_rewind)  # 503: back to 500
    assert field(s, B) == {"C4"} and trash(s, B) == []
    assert s.attack is not None and s.attack.step == "DECLARED" and s.player(A).unit("PAIR-40").attacked
    assert r.after(first_rewind + 2).player(B).life == 4  # 505
    assert len(r.fold.branches) == 2 and len(r.fold.branches[0].abandoned) == 2
    res = r.find("resolve_chain_entry", entry_id="E7")
    assert r.after(res).player(B).life == 2  # 600
    s = r.after(res + 1)  # 601: rewind to 599
    assert s.player(B).life == 4 and [e.entry_id for e in s.chain] == ["E7"]
    assert r.state.player(B).life == 3  # 602


def test_ex14_d_correction():
    r = Replay("ex14-d-correction")
    s = r.after(r.find("resolve_chain_entry", entry_id="E9") - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.pair_counter) == (22, A, "MAIN", 42)
    assert field(s, A) == {"PAIR-40[S6 H6]", "PAIR-41[D9 S9]"} and s.player(A).hand_count == 2
    assert set(s.player(A).hand_known) == {"H9", "HQ"}
    assert r.rejections() == [("rewind", "DB-RWD-3", "REWIND_OUT_OF_SCOPE")]
    assert r.after(r.find("play_card", card="HQ")).player(A).hand_count == 1  # 701
    s = r.state
    assert s.player(A).hand_count == 2 and set(s.player(A).hand_known) == {"H9", "D9"}
    assert field(s, A) == {"PAIR-40[S6 H6]", "S9", "HQ"} and s.pair_counter == 42


def test_ex14_e_adjust_now():
    r = Replay("ex14-e-adjust-now")
    assert r.rejections() == [("rewind", "DB-RWD-3", "REWIND_OUT_OF_SCOPE"), ("correct", "DB-RWD-6", "CORRECTION_CONFLICT")]
    message = r.rejection_at(r.find("correct"))[2]
    assert "seq" in message and "DB-ACT-11" in message and "UNIT_NOT_OWNED" in message
    s = r.after(r.find("form_pair", units=["PAIR-41", "H9"]))
    assert "PAIR-41[D9 S9 H9]" in field(s, A) and s.player(A).hand_count == 0
    s = r.state
    assert field(s, A) == {"PAIR-40[S6 H6]", "HQ", "PAIR-41[S9 H9]"} and rank(s, A, "PAIR-41") == ("SET", (7, 7))
    assert s.player(A).hand_count == 1 and s.player(A).hand_known == ("D9",)


def test_ex14_e_rewind_and_replay():
    r = Replay("ex14-e-rewind-and-replay")
    assert r.rejections() == [("rewind", "DB-RWD-3", "REWIND_OUT_OF_SCOPE"), ("correct", "DB-RWD-6", "CORRECTION_CONFLICT")]
    s = r.state
    assert field(s, A) == {"PAIR-40[S6 H6]", "HQ", "PAIR-42[S9 H9]"} and rank(s, A, "PAIR-42") == ("SET", (7, 7))
    assert s.pair_counter == 43 and s.player(A).hand_count == 1 and s.player(A).hand_known == ("D9",)


def test_ex14_f_void_game():
    r = Replay("ex14-f-void-game")
    assert r.rejections() == [("advance_phase", "DB-ACT-18", "GAME_OVER")]
    s = r.after(r.find("void_game"))
    assert s.status == "VOID" and s.turn_number == 9 and s.result.winner is None
    s = r.after(r.find("game_started"))
    assert (s.status, s.match.game_index, s.turn_number) == ("SETUP", 1, 0)
    s = r.state
    assert (s.status, s.turn_number, s.turn_player) == ("IN_PROGRESS", 1, B)
    assert all((p.life, p.deck_count, p.hand_count) == (5, 49, 5) for p in s.players)
    assert r.outcome.status == "in_progress"


def test_ex14_g_declare_result():
    r = Replay("ex14-g-declare-result")
    assert r.rejections() == [("play_card", "DB-ACT-18", "GAME_OVER")]
    assert r.state.status == "FINISHED" and r.outcome.status == "drawn"


# -- DB-EX-15 Target leaves before resolution (DB-RUL-26) ------------------------------------------
def test_ex15_target_leaves():
    r = Replay("ex15-target-leaves")
    s = r.after(r.find("declare_attack") - 1)
    assert (s.turn_number, s.turn_player, s.phase, s.entry_counter) == (22, A, "BATTLE", 1)
    assert "PAIR-60[D4 C4]" in field(s, A) and "HQ" in field(s, B) and s.player(B).hand_count == 2
    assert r.rejections() == [("declare_attack", "DB-LIM-1", "ALREADY_ATTACKED")]
    s = r.after(r.find("resolve_chain_entry"))
    assert s.player(B).hand_count == 3 and "HQ" not in field(s, B)
    s = r.state
    assert s.attack is None and s.player(A).unit("PAIR-60").attacked and trash(s, A) == [] and trash(s, B) == []


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("ex*.jsonl")))
def test_fixture_cards_conserved(name):
    """DB-EFF-1 at the end of every golden match."""
    from adjudicator.games.demonbrave.zones import count_cards

    r = Replay(name)
    for p in r.state.players:
        assert count_cards(p) == 54


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("ex*.jsonl")))
def test_fixture_files_are_what_make_fixtures_writes(name, tmp_path):
    """The golden files and their expectations are written by tests/demonbrave/make_fixtures.py,
    which adjudicates every line and checks every checkpoint as it writes: none was edited by hand."""
    from tests.demonbrave.make_fixtures import FILES, build

    example, title, _ = FILES[name]
    build(name).write(tmp_path / f"{name}.jsonl", example, title)
    for suffix in (".jsonl", ".expect.json"):
        assert (tmp_path / f"{name}{suffix}").read_text() == (FIXTURES / f"{name}{suffix}").read_text()
