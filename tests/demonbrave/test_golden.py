"""Golden matches: every worked example of rules §13 (DB-EX-1 ... DB-EX-15) replayed from
fixtures/demonbrave/golden/*.jsonl as ``adj check`` does (a refused line changes nothing and play
goes on), asserting each refusal's rule ID and code and the figures the example states, beyond the
generic runner's checkpoints (messages, abandoned branches, intermediate positions). DB-EX-1 ...
DB-EX-7 here, the rest in test_golden_ex08_15.py.

Seat order is alice (P1), bob (P2) in every file."""

from __future__ import annotations

import pytest

from tests.demonbrave.replay import FIXTURES, Replay, field, rank, trash

A, B = "alice", "bob"


def test_every_fixture_is_tested():
    from tests.demonbrave import test_golden_ex08_15

    tested = {name for name in [*globals(), *vars(test_golden_ex08_15)] if name.startswith("test_")}
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
