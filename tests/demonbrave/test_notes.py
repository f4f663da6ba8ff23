"""What an event set off on its own (``notes``, printed after ``adj act``) and the results it
decided (``milestones``, printed by ``adj log``)."""

from __future__ import annotations

from adjudicator.games.demonbrave import GAME
from tests.demonbrave.builder import JUDGE, Table
from tests.demonbrave.replay import Replay
from tests.test_cli import Adj

A, B = "alice", "bob"


def notes_after(r: Replay, line: int) -> list[str]:
    return GAME.notes(r.after(line))


def test_battle_results_and_lives_db_res_28_30():
    r = Replay("ex04-blocks")
    battles = [no for no, line in enumerate(r.lines, 1) if line["type"] == "resolve_battle"]
    assert notes_after(r, battles[0]) == [
        "battle: alice's PAIR-1 → PLAYER: the blocker PAIR-4 is stronger (tier: FREE (2) against SET (3)): void, no damage [DB-RES-30]"]
    assert notes_after(r, battles[3]) == [
        "battle: alice's PAIR-3 → PLAYER: PAIR-3 is not blocked: bob loses 1 life [DB-RES-28]", "bob's life 5 → 4"]


def test_a_pair_that_dissolves_db_res_31():
    r = Replay("ex06-single-vs-pair")
    assert notes_after(r, r.find("resolve_battle", start=r.find("resolve_battle", choice="H2") + 1)) == [
        "battle: alice's D6 → PAIR-11: D6 (4) trashes the weaker member S5 of PAIR-11 [DB-RES-24]",
        "bob's PAIR-11 dissolves: H2 is a single (DB-RES-31)"]


def test_chain_entries_resolved_db_res_41_45():
    r = Replay("ex09-chain-order")
    assert notes_after(r, r.find("resolve_chain_entry", entry_id="E3")) == [
        "E3 resolved (T-NEG.negate by bob; the catalog's ops)", "chain: E2 is next; no activation until the chain is empty"]
    assert notes_after(r, r.find("resolve_chain_entry", entry_id="E2")) == [
        "E2 resolved (T-NEG.negate by alice; negated: no ops)", "chain: E1 is next; no activation until the chain is empty"]
    assert notes_after(r, r.find("resolve_chain_entry", entry_id="E1", start=r.find("resolve_chain_entry", entry_id="E2"))) == [
        "E1 resolved (T-REV.reverse by bob; the catalog's ops)", "chain empty: play goes on"]


def test_phases_turns_and_expiry_db_turn_3_db_turn_7():
    r = Replay("ex01-opening")
    assert notes_after(r, r.find("opening_hands_drawn")) == ["play starts: turn 1, alice's MAIN phase (no draw on turn 1)"]
    end = r.find("advance_phase")
    assert notes_after(r, end) == ["MAIN → END: no BATTLE on turn 1 (DB-TURN-3)"]
    assert notes_after(r, end + 1) == ["turn 2: bob's DRAW phase; bob draws 1"]
    r = Replay("ex08-reversal")
    battles = [no for no, line in enumerate(r.lines, 1) if line["type"] == "resolve_battle"]
    leave = r.find("advance_phase", start=battles[2])
    assert notes_after(r, leave) == ["BATTLE → END: leaving BATTLE, no more attacks this turn"]
    assert notes_after(r, leave + 1) == ["reversal expired: order normal again", "turn 15: bob's DRAW phase; bob draws 1"]
    assert notes_after(r, r.find("draw", start=leave)) == []
    assert notes_after(r, r.find("advance_phase", start=leave + 2)) == ["DRAW → MAIN"]


def test_game_over_discards_the_chain_db_rul_25_and_milestones():
    r = Replay("ex10b-both-zero-draw")
    line = r.find("resolve_chain_entry")
    assert notes_after(r, line) == ["E1 resolved (T-BURN.burn by alice; 2 op(s) as entered)", "alice's life 1 → 0", "bob's life 1 → 0"]
    assert GAME.milestones(r.after(line - 1), r.after(line)) == ["game 1 drawn: both lives reached 0 together"]
    t = Table().setup(first=A)
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("concede", B, player=B)
    assert GAME.notes(t.state) == ["the game is over: the open chain is discarded (DB-RUL-25)"]
    r = Replay("ex10a-life-zero")
    line = r.find("resolve_battle", start=len(r.lines) - 2)
    assert GAME.milestones(r.after(line - 1), r.after(line)) == ["game 1 won by alice: a life reached 0"]
    assert GAME.milestones(r.after(line - 2), r.after(line - 1)) == []


def test_match_milestones_in_a_best_of_three_db_rul_30():
    t = Table(options={"match_games": 3}).setup(first=A)
    before = t.state
    t.ev("concede", B, player=B)
    assert GAME.milestones(before, t.state) == ["game 1 won by alice: concession"]
    t.ev("game_started", JUDGE, game_index=2)
    t.setup(first=B)
    before = t.state
    t.ev("concede", B, player=B)
    assert GAME.milestones(before, t.state) == ["game 2 won by alice: concession", "match won by alice (alice 2, bob 0)"]


def test_a_rewind_says_where_it_went_db_rwd_3():
    t = Table().setup(first=A)
    seq = t.ev("play_card", A, card="S3")
    t.play("H9")
    t.ev("rewind", JUDGE, to_seq=seq, reason="H9 stays in hand")
    assert GAME.notes(t.state) == [f"rewound: the state after seq {seq} (DB-RWD-3); what followed it is an abandoned branch"]
    assert t.state.player(A).hand_count == 4


def test_adj_act_prints_the_notes(tmp_path):
    adj = Adj(tmp_path / "store.sqlite3")
    assert adj("new", "demonbrave", "--player", A, "--player", B, "--id", "g").exit_code == 0
    for who in (A, B):
        adj("act", "g", "rule_cards_selected", "rule_cards=[J,T-NEG,T-REV,T-BURN,T-BOUNCE]", "--by", who)
    adj("act", "g", "first_player_decided", "first_player=alice", "--by", JUDGE)
    r = adj("act", "g", "opening_hands_drawn", "--by", JUDGE)
    assert r.exit_code == 0 and "  play starts: turn 1, alice's MAIN phase (no draw on turn 1)\n" in r.stdout
    adj("act", "g", "advance_phase", "--by", A)
    r = adj("act", "g", "advance_phase", "--by", A)
    # the game's note first, then the changes on the table in its words and who is to move
    assert r.stdout.splitlines()[1:] == ["  turn 2: bob's DRAW phase; bob draws 1", "  turn: alice -> bob",
                                         "  phase: game 1, turn 1: END phase -> game 1, turn 2: DRAW phase",
                                         "  waiting for bob", "to move: bob"]
