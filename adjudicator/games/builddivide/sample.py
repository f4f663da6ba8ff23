"""THE SAMPLE CATALOG: the fixture cards of rules §13 (test data, not real cards), plus two more
buster cards so that a 40-card sample deck can hold its 12 buster icons. A match brings its own
catalog in ``match_started.catalog``; this one is used only by ``adj deck check`` when the deck
file carries none, and is shipped as ``fixtures/builddivide/catalog.sample.json``."""

from __future__ import annotations

from typing import Any


def _card(name: str, type_: str, colours: list[str], total: int, colour_cost: dict[str, int], *, power: int = 0,
          hit: int = 0, icons: tuple[str, ...] = (), timing: str = "NORMAL", is_ace: bool = False,
          titles: tuple[str, ...] = (), text: str = "") -> dict[str, Any]:
    return {"name": name, "type": type_, "is_ace": is_ace, "titles": list(titles), "colours": colours,
            "total_cost": total, "colour_cost": colour_cost, "timing": timing, "power": power, "hit": hit,
            "icons": list(icons), "abilities": [], "text": text or "SAMPLE card (rules §13 fixture), not a real card",
            "entered_by": "sample"}


def _territory(name: str, title: str, release_total: int) -> dict[str, Any]:
    card = _card(name, "TERRITORY", [], 0, {})
    card.update({"release_cost_total": release_total, "release_colour_cost": {}, "title": title,
                 "character_face_rule_mod": False, "deck_rule_overrides": None})
    return card


SAMPLE: list[dict[str, Any]] = [
    _card("U1k", "UNIT", ["RED"], 1, {"RED": 1}, power=1000, hit=1),
    _card("U2k", "UNIT", ["WHITE"], 2, {"WHITE": 1}, power=2000, hit=1),
    _card("U3k", "UNIT", ["RED"], 2, {"RED": 1}, power=3000, hit=1),
    _card("U4k", "UNIT", ["BLUE"], 3, {"BLUE": 1}, power=4000, hit=1),
    _card("U5k", "UNIT", ["RED"], 3, {"RED": 1}, power=5000, hit=1),
    _card("U6k", "UNIT", ["BLUE"], 4, {"BLUE": 2}, power=6000, hit=2, icons=("BUSTER",)),
    _card("U7k", "UNIT", ["RED"], 5, {"RED": 1}, power=7000, hit=3),
    _card("ACE1", "UNIT", ["BLACK"], 4, {"BLACK": 2}, power=5500, hit=1, is_ace=True, titles=("T1",)),
    _card("ACE2", "UNIT", ["BLACK"], 4, {"BLACK": 2}, power=5500, hit=1, is_ace=True, titles=("T2",)),
    _territory("TER1", "T1", 6),
    _card("SHOT3", "COMMAND", ["BLACK"], 3, {"BLACK": 1}, icons=("SHOT",)),
    _card("QCMD", "COMMAND", ["WHITE"], 1, {"WHITE": 1}, timing="QUICK"),
    _card("NCMD", "COMMAND", ["WHITE"], 2, {"WHITE": 1}),
    _card("BST", "UNIT", ["RED"], 1, {"RED": 1}, power=1000, hit=1, icons=("BUSTER",)),
    _card("PLN", "UNIT", ["WHITE"], 1, {"WHITE": 1}, power=1000, hit=1),
    _card("BST2", "UNIT", ["BLUE"], 2, {"BLUE": 1}, power=2000, hit=1, icons=("BUSTER",)),
    _card("BST3", "COMMAND", ["BLACK"], 1, {"BLACK": 1}, icons=("BUSTER",)),
]


def sample_catalog() -> list[dict[str, Any]]:
    return [dict(c) for c in SAMPLE]
