"""The golden matches of DB-EX-14 and DB-EX-15 (rewinds, corrections, void and declared results,
a vanished target), written by ``make_fixtures``."""

from __future__ import annotations

from adjudicator.games.demonbrave.cards import ALL_CARDS
from tests.demonbrave.builder import JUDGE, Table, free_ids, play_any, units
from tests.demonbrave.golden_writers import A, B, fixture


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
    t = Table()
    t.ev("deck_registered", A, player=A, cards=list(ALL_CARDS))
    t.ev("deck_registered", B, player=B, cards=list(ALL_CARDS))
    t.setup(first=B)
    t.goto(9, "MAIN")
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")
    t.expect("void, no winner", status="VOID", turn=9, result={"outcome": "VOID", "winner": None})
    t.reject("DB-ACT-18", "GAME_OVER", "advance_phase", A)
    t.ev("game_started", JUDGE, game_index=1)
    t.expect("a new game 1 in setup", status="SETUP", game_index=1, turn=0,
             players={A: {"life": 5, "hand": 0, "deck": 54, "field": [], "trash": []}, B: {"life": 5, "deck": 54, "field": [], "trash": []}})
    # the full setup again (DB-ACT-1): bob registers the list of his corrected deck (DB-ACT-2)
    t.ev("deck_registered", B, player=B, cards=list(ALL_CARDS))
    t.reject("DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", B, player=B, cards=list(ALL_CARDS))
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
