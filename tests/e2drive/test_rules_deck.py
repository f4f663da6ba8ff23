"""Deck lists and the catalog (E2D-DECK-6…11): ``check_deck`` returns every problem; a failing
registration refuses the whole ``match_started``; void_game (E2D-RWD-10)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from adjudicator.games.e2drive.catalog import SAMPLE
from tests.e2drive.builder import DECK, SERVANTS_A, catalog, ev, started
from tests.e2drive.harness import GAME, Table, table

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive"


def rules(problems):
    return [(v.rule_id, v.code) for v in problems]


def test_check_deck_returns_every_problem_E2D_DECK_6_7_8_9_10():
    deck = DECK[:25] + ["F-Tool-1"] * 3 + ["F-Unknown"]  # 29 cards, 6 F-Tool-1, one unknown
    problems = GAME.check_deck({"deck": deck, "servants": ["F-Alpha", "F-Alpha"]})
    assert rules(problems) == [("E2D-DECK-6", "DECK"), ("E2D-DECK-7", "DECK"), ("E2D-DECK-8", "DECK"),
                               ("E2D-DECK-9", "DECK"), ("E2D-DECK-10", "DECK")]
    assert "29 cards" in problems[0].message and "F-Unknown" in problems[1].message and "6 cards named F-Tool-1" in problems[2].message


def test_E2D_DECK_11_catalog_sanity():
    cat = catalog({"F-Odd": {"type": "Wizard", "DUR": -10, "ATK": 35, "DEF": 20, "SPD": 10}}, {"F-Bad": {"kind": 5, "cost": -1}})
    problems = GAME.check_deck({"deck": DECK, "servants": SERVANTS_A, "catalog": cat})
    assert [v.rule_id for v in problems] == ["E2D-DECK-11"] * 5
    assert any("ATK 35" in v.message for v in problems) and any("'Wizard'" in v.message for v in problems)
    t = Table()
    v = t.refuse(started(cat=cat))
    assert (v.rule_id, v.code) == ("E2D-DECK-11", "CATALOG")


def test_E2D_DECK_7_unknown_card_refuses_the_match():
    v = Table().refuse(started(deck_a=DECK[:29] + ["F-Nowhere"]))
    assert (v.rule_id, v.code) == ("E2D-DECK-7", "DECK") and "F-Nowhere" in v.message


def test_the_sample_decks_are_legal_and_the_sample_catalog_is_the_package_one():
    assert json.loads((FIX / "catalog.sample.json").read_text()) == msgspec.to_builtins(SAMPLE)
    for name in ("deck-a.sample.json", "deck-b.sample.json"):
        deck = GAME.read_deck((FIX / name).read_text())
        assert GAME.check_deck(deck) == [], name


def test_E2D_RWD_10_void_game_and_void_match():
    t = table()
    v = t.refuse(ev("void_game", "P1", reason="x"))
    assert (v.rule_id, v.code) == ("E2D-RWD-2", "NOT_ACTOR")
    t.enter(ev("void_game", reason="misdeal"))
    v = t.refuse(ev("void_game", reason="again"))
    assert (v.rule_id, v.code) == ("E2D-RWD-10", "NO_GAME")
    t.enter(ev("void_match", reason="abandoned"))
    assert GAME.outcome(t.state).status == "void"
    v = t.refuse(ev("void_match", reason="again"))
    assert (v.rule_id, v.code) == ("E2D-RWD-10", "NO_GAME")
