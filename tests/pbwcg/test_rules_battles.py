"""A match of several battles (rules/pbwcg.md PBW-RUL-5, §15 "Several battles"): next_battle after
a confirmed result, a fresh battle from the registered decks, battles won as the score, a drawn
battle replayed under the next number, and each battle its own world for corrections."""

from __future__ import annotations

import json

from tests.pbwcg.builder import GAME, Table
from tests.pbwcg.golden_a import TIE_B1_A2
from tests.pbwcg.golden_c import CHK, POISON
from tests.test_cli import Adj, ok

BO3 = {"best_of": 3}


def confirm(t: Table) -> None:
    t.act("result_confirmed", "P1", confirmations=list(t.state.in_battle()))


def outcome(t: Table) -> tuple:
    out = GAME.outcome(t.state)
    return out.status, out.winner, out.score, out.reason


def test_best_of_three_battles_won_drawn_and_the_match_PBW_RUL_5():
    t = Table(BO3)
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P2", "n": 18}])
    assert outcome(t) == ("in_progress", None, {"P1": 1, "P2": 0}, None)  # one battle of three won
    assert GAME.view(t.state, None)["battles_won"] == {"P1": 1, "P2": 0}
    v = t.refuse("PBW-RUL-5", "next_battle", "P1", battle=2)
    assert (v.code, v.message) == ("BEST_OF", "battle 1 has no confirmed result yet (result_confirmed comes first)")
    t.refuse("PBW-OVR-3", "turn_started", "P1", turn=2)
    confirm(t)
    assert [(a.who, a.type, a.fields) for a in GAME.legal(t.state)] == [("P1", "next_battle", "battle=2"), ("P2", "next_battle", "battle=2")]
    t.refuse("PBW-RUL-5", "next_battle", "P2", battle=3)
    t.act("next_battle", "P2", battle=2)
    st = t.state
    assert (st.battle, st.turn, st.step, st.result, st.confirmed, st.characters, st.bs_history) == (2, 0, "SETUP", None, False, (), ())
    assert [(p.name, p.hp, len(p.deck), p.hand, p.discard) for p in st.players] == [("P1", 0, 38, (), ()), ("P2", 0, 40, (), ())]
    assert st.notes == ("battle 2 of best of 3 begins (battles won: P1 1, P2 0)",)
    t.setup()
    assert (t.hp("P1"), t.hp("P2")) == (21, 18)
    t.act("draw_agreed", "P2", confirmations=["P1", "P2"])
    assert outcome(t) == ("in_progress", None, {"P1": 1, "P2": 0}, None)  # a drawn battle counts for nobody
    confirm(t)
    t.act("next_battle", "judge", battle=3)
    t.setup()
    t.act("surrender", "P2", player="P2")
    assert outcome(t) == ("won", "P1", {"P1": 2, "P2": 0}, "surrender")
    assert GAME.outcome(t.state).detail == "2 battles of best of 3; battle 3: a loser's declaration"
    confirm(t)
    assert GAME.legal(t.state) == []
    v = t.refuse("PBW-RUL-5", "next_battle", "P1", battle=4)
    assert v.message == "P1 has won 2 battles of best of 3: the match is over"


def test_next_battle_in_a_match_of_one_battle_or_during_a_battle_PBW_RUL_5():
    t = Table()
    t.setup()
    t.refuse("PBW-RUL-5", "next_battle", "P1", battle=2)
    u = Table(BO3)
    u.setup()
    v = u.refuse("PBW-RUL-5", "next_battle", "P1", battle=2)
    assert v.message == "battle 1 has no confirmed result yet (result_confirmed comes first)"


def battle_two_after_three_turns() -> tuple[Table, int]:
    """Battle 1 reaches turn 3 and P2 surrenders; battle 2 opens (its seq returned)."""
    t = Table(BO3)
    t.setup()
    t.idle_turn(ties=[TIE_B1_A2])
    t.idle_turn()
    t.start_turn()
    t.act("surrender", "P2", player="P2")
    confirm(t)
    opened = t.act("next_battle", "P1", battle=2)
    t.setup()
    return t, opened


def test_each_battle_counts_its_own_turns_for_the_window_PBW_RUL_43_PBW_COR_3():
    """§15: turn numbers restart at 1 and PBW-RUL-43's highest turn is the current battle's, so a
    recovery check forgotten in battle 2's turn 1 is within the window in its turn 2."""
    t, _ = battle_two_after_three_turns()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture: B2 holds Poison", ops=[{"op": "apply_bs", "character": "B2", "bs": "Poison"}])
    t.field_step()
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    t.begin("B2")
    t.act("bs_effect", "P2", actor="B2", bs="Poison", ops=POISON)
    t.act("wait", "P2", actor="B2")
    t.end("B2")
    closing = t.act("turn_ended", "P1")
    t.start_turn()
    assert t.state.turn == 2 and t.state.battle == 2
    t.act("correct", "P2", at_seq=closing, reason="recovery check forgotten", basis="forgotten_check", confirmations=["P1", "P2"],
          event={"type": "bs_recovery_check", "by": "P2", "actor": "B2", "bs": "Poison", "check": {**CHK, "declared": "odd", "die": 5}})
    assert t.char("B2").bs == () and t.state.battle == 2


def test_no_correct_or_rewind_reaches_into_an_earlier_battle_PBW_RUL_5():
    t, opened = battle_two_after_three_turns()
    v = t.refuse("PBW-RUL-5", "rewind", "P1", to_seq=opened - 1, reason="back", basis="record_fix", confirmations=["P1", "P2"])
    assert (v.code, v.message) == ("EARLIER_BATTLE", f"to_seq {opened - 1} lies in an earlier battle: battle 2 began at seq {opened}")
    t.refuse("PBW-RUL-5", "correct", "P1", at_seq=opened, reason="insert", basis="record_fix", confirmations=["P1", "P2"],
             event={"type": "surrender", "by": "P1", "player": "P1"})
    t.act("rewind", "P1", to_seq=opened, reason="placements mistyped", basis="record_fix", confirmations=["P1", "P2"])
    assert (t.state.battle, t.state.step, t.state.characters) == (2, "SETUP", ())


def test_adj_check_reports_battles_won_as_the_score(tmp_path):
    t = Table(BO3)
    t.setup()
    t.act("surrender", "P2", player="P2")
    confirm(t)
    t.act("next_battle", "P1", battle=2)
    t.setup()
    t.act("surrender", "P1", player="P1")
    path = tmp_path / "bo3.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in t.lines), encoding="utf-8")
    report = json.loads(ok(Adj(tmp_path / "s.sqlite3")("check", str(path), "--json")).stdout)
    assert report["accepted"] == len(t.lines) and report["rejection"] is None
    assert report["outcome"]["status"] == "in_progress" and report["outcome"]["score"] == {"P1": 1, "P2": 1}


def test_adj_log_marks_each_battles_result_and_the_matchs(tmp_path):
    """PBW-RUL-5: in a match of several battles each battle's result is a milestone of its own."""
    t = Table(BO3)
    t.setup()
    t.act("surrender", "P2", player="P2")
    confirm(t)
    t.act("next_battle", "P1", battle=2)
    t.setup()
    t.act("surrender", "P2", player="P2")
    before, after = t.fold.state_at(t.fold.head - 1), t.state
    assert GAME.milestones(before, after) == ["battle 2 won by P1 (a loser's declaration)",
                                              "won by P1 (P1 2, P2 0); 2 battles of best of 3; battle 2: a loser's declaration"]
