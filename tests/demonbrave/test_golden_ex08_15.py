"""Golden matches of DB-EX-8 ... DB-EX-15 (see test_golden.py): each refusal's rule ID and code
and the figures the example states, read from the replayed states."""

from __future__ import annotations

from tests.demonbrave.replay import Replay, field, rank, trash

A, B = "alice", "bob"


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
    assert r.rejections() == [("advance_phase", "DB-ACT-18", "GAME_OVER"), ("deck_registered", "DB-ACT-2", "ILLEGAL_ACTION")]
    s = r.after(r.find("void_game"))
    assert s.status == "VOID" and s.turn_number == 9 and s.result.winner is None
    started = r.find("game_started")
    s = r.after(started)
    assert (s.status, s.match.game_index, s.turn_number) == ("SETUP", 1, 0)
    assert [p.deck_this_game for p in s.players] == [False, False]  # DB-ACT-1: each game's setup registers anew
    corrected = r.find("deck_registered", started, player=B)
    assert r.rejection_at(corrected) is None and r.after(corrected).player(B).deck_this_game
    assert "already registered for game 1" in r.rejection_at(corrected + 1)[2]
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
