"""Setup, options and deck construction (rules/pbwcg.md §2, §3, PBW-OVR-*)."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event
from adjudicator.games.pbwcg.config import Options
from adjudicator.games.pbwcg.decks import deck_warnings, read_deck
from adjudicator.games.pbwcg.events import PlayerDeck
from adjudicator.engine.protocol import Malformed, Violation
from tests.pbwcg.builder import FIX, Table, sample_deck, started

GAME = registry.get("pbwcg")


def start(line: dict) -> Fold:
    fold = Fold(GAME, "t")
    fields = {k: v for k, v in line.items() if k not in ("type", "by")}
    fold.advance(decode_event(GAME, "match_started", line["by"], fields), 1)
    return fold


def test_sample_decks_are_valid_and_counted():
    for p, n in (("P1", 38), ("P2", 40)):
        text = (FIX / f"deck-{p.lower()}.sample.json").read_text(encoding="utf-8")
        deck = read_deck(text)
        assert len(deck["deck"]) == n
        assert GAME.check_deck(deck) == []


def test_check_deck_reports_every_problem_with_its_rule():
    """PBW-DECK-10: every problem, not the first: PBW-DECK-3, PBW-DECK-4, PBW-DECK-5, PBW-DECK-6,
    PBW-DECK-7, PBW-DECK-2 and PBW-DECK-9 at once."""
    fill = [{"id": f"F{i}", "card_type": "SET", "name": f"Fill {i}", "category": "OTHER"} for i in range(36)]
    bad = fill + [
        {"id": "K1", "card_type": "PC", "name": "Kite", "world": "W", "hp": -1, "stats": {"BODY": 1, "TECH": 1, "MIND": 1},
         "main_attribute": "BODY", "wp": 1, "sp": 1},
        {"id": "K2", "card_type": "SET", "name": " KITE", "category": "OTHER"},
        {"id": "G", "card_type": "SET", "name": "M: Holy Grail", "category": "M"},
        {"id": "S", "card_type": "SUPPORT", "name": "Sup", "world": "W", "cp": 3, "stats": {"BODY": 1, "TECH": 1, "MIND": 1},
         "main_attribute": "BODY"},
        {"id": "E", "card_type": "EQUIPMENT", "name": "Shield", "kind": "ARMOR", "part": "TWO_HAND",
         "mods": {"BODY": 0, "TECH": 0, "MIND": 0}, "weight": 1},
        {"id": "P", "card_type": "PC", "name": "Nobody"},
    ]
    problems = GAME.check_deck({"deck": bad}, Options(local_F_exclude_holy_grail=True))
    rules = [v.rule_id for v in problems]
    assert rules == ["PBW-DECK-3", "PBW-DECK-4", "PBW-DECK-6", "PBW-DECK-7", "PBW-DECK-9", "PBW-DECK-2",
                     "PBW-DECK-2", "PBW-DECK-2", "PBW-DECK-2", "PBW-DECK-2", "PBW-DECK-2", "PBW-DECK-2"]
    assert "42 cards" in problems[0].message
    one_pc = GAME.check_deck({"deck": fill[:5] + bad[36:37]})
    assert [v.rule_id for v in one_pc] == ["PBW-DECK-5", "PBW-DECK-9"]


def test_deck_warning_below_seven_cards():
    deck = msgspec.convert({"deck": sample_deck("P1")["deck"][:6]}, PlayerDeck)
    assert deck_warnings(deck) and deck_warnings(deck)[0].startswith("PBW-DECK-8")


def test_match_started_rejects_the_first_deck_problem():
    deck = sample_deck("P1")
    deck["deck"] = deck["deck"] + [dict(deck["deck"][-1], id="Q1"), dict(deck["deck"][-1], id="Q2", name="Other"), dict(deck["deck"][-1], id="Q3", name="Third")]
    with pytest.raises(Violation) as e:
        start(started(None, {"P1": deck, "P2": sample_deck("P2")}))
    assert e.value.rule_id == "PBW-DECK-3"


def test_three_players_only_under_local_rule_d_PBW_OVR_1_PBW_RUL_47():
    """PBW-OVR-1: two players; a third plays only when match_started sets player_count to the
    number of players listed (local rule D, PBW-RUL-47), and the fold takes at most 8."""
    with pytest.raises(Violation) as e:
        start(started({}, players=("P1", "P2", "P3")))
    assert (e.value.rule_id, e.value.message) == (
        "PBW-OVR-1", "a battle has two players; 3 (P1, P2, P3) play under local rule D only, with player_count 3")
    with pytest.raises(Violation) as e:
        start(started({"player_count": 3}))
    assert (e.value.rule_id, e.value.message) == ("PBW-RUL-47", "local rule D with player_count 3 needs 3 players, not 2 (P1, P2)")
    nine = started({"player_count": 9}, decks={"P1": sample_deck("P1")}, players=tuple(f"P{i}" for i in range(1, 10)))
    with pytest.raises(Violation) as e:
        start(nine)
    assert e.value.rule_id == "PBW-OVR-1" and "2 to 8 different players" in e.value.message
    fold = start(started(players=("P1", "P2", "P3")))
    assert fold.state.names() == ("P1", "P2", "P3") and fold.state.options.player_count == 3
    assert [len(p.deck) for p in fold.state.players] == [38, 40, 30]


def test_options_best_of_validate_range_and_one_player():
    """PBW-RUL-5: best_of is odd (an even one is malformed at its path); PBW-RUL-30; PBW-OVR-1."""
    assert start(started({"best_of": 3})).state.options.best_of == 3
    with pytest.raises(Malformed) as m:
        start(started({"best_of": 2}))
    assert m.value.path == "$.options.best_of"
    assert start(started({"validate_range": True})).state.options.validate_range is True
    one = started()
    one["players"] = ["P1"]
    with pytest.raises(Violation) as e:
        start(one)
    assert e.value.rule_id == "PBW-OVR-1"


def test_malformed_registrations():
    line = started()
    line["decks"] = {"P1": line["decks"]["P1"]}
    with pytest.raises(Malformed):
        start(line)
    line = started()
    line["decks"]["P2"] = line["decks"]["P1"]
    with pytest.raises(Malformed, match="used twice"):
        start(line)
    with pytest.raises(Malformed):
        start(started({"no_such_option": True}))


def test_initial_pcs_and_battle_start():
    t = Table()
    t.refuse("PBW-TURN-8", "initial_pcs_placed", "P2", player="P1", pcs=["A1", "A2"])
    t.refuse("PBW-ACT-3", "initial_pcs_placed", "P1", player="P1", pcs=["A1", "E1"])
    t.refuse("PBW-ACT-3", "initial_pcs_placed", "P1", player="P1", pcs=["A1"])
    t.refuse("PBW-ACT-3", "initial_pcs_placed", "P1", player="P1", pcs=["A1", "B1"])
    t.refuse("PBW-ACT-4", "battle_started", "P1", confirmations=["P1", "P2"])
    t.act("initial_pcs_placed", "P1", player="P1", pcs=["A1", "A2"])
    t.refuse("PBW-ACT-3", "initial_pcs_placed", "P1", player="P1", pcs=["A3", "A4"])
    assert GAME.view(t.state, "P2")["players"]["P1"]["pcs"] == {"1": "(hidden)", "3": "(hidden)"}
    t.act("initial_pcs_placed", "P2", player="P2", pcs=["B1", "B2"])
    t.refuse("PBW-TURN-9", "turn_started", "P1", turn=1)
    t.refuse("PBW-ACT-4", "battle_started", "P1", confirmations=["P1"])
    t.act("battle_started", "P2", confirmations=["P1", "P2"])
    assert GAME.view(t.state, "P2")["players"]["P1"]["pcs"] == {"1": "A1", "3": "A2"}
    t.refuse("PBW-ACT-5", "turn_started", "P1", turn=2)
    assert (t.hp("P1"), t.hp("P2"), t.state.step) == (21, 18, "READY")


def test_judge_confirms_when_present():
    t = Table({"judge_present": True})
    t.act("initial_pcs_placed", "P1", player="P1", pcs=["A1", "A2"])
    t.act("initial_pcs_placed", "P2", player="P2", pcs=["B1", "B2"])
    t.refuse("PBW-ACT-4", "battle_started", "P1", confirmations=["P1", "P2"])
    t.act("battle_started", "judge", confirmations=["P1", "P2", "judge"])
    assert t.state.battle_started


def test_second_match_started_is_malformed_PBW_ACT_1():
    """PBW-ACT-1: match_started is seq 1 only; a second one never reaches the game (UNREACHABLE)."""
    fold = start(started())
    line = started()
    fields = {k: v for k, v in line.items() if k not in ("type", "by")}
    with pytest.raises(Malformed, match="first event"):
        fold.advance(decode_event(GAME, "match_started", "P1", fields), 2)
    assert fold.head == 1
