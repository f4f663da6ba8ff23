"""Rules §15, "Encoding in recorded matches": catalogs with fields that do not apply to a card's
type, the keys an event's ``private`` object may hold, and what is malformed input."""

from __future__ import annotations

import pytest

from adjudicator.engine.protocol import Malformed
from tests.builddivide.helpers import A, B, accepted, catalog, ev, opening, run, view


def malformed(lines) -> Malformed:
    with pytest.raises(Malformed) as caught:
        run(lines)
    return caught.value


# -- the catalog --------------------------------------------------------------------------------------
def not_applicable(entries, absent: bool):
    """The sample catalog written with every field that does not apply to a card's type null, or left out."""
    out = []
    for c in entries:
        c = dict(c)
        gone = {"UNIT": ("release_cost_total", "release_colour_cost", "title", "character_face_rule_mod", "deck_rule_overrides"),
                "COMMAND": ("power", "hit", "release_cost_total", "release_colour_cost", "title", "character_face_rule_mod",
                            "deck_rule_overrides"),
                "TERRITORY": ("power", "hit", "timing")}[c["type"]]
        for k in gone:
            if absent:
                c.pop(k, None)
            else:
                c[k] = None
        out.append(c)
    return out


@pytest.mark.parametrize("absent", [False, True], ids=["null", "absent"])
def test_section_15_fields_that_do_not_apply_are_null_or_absent(absent):
    cat = not_applicable(catalog(), absent)
    m = accepted(opening(cat=cat) + [ev("advance_phase", A), ev("advance_phase", A)])
    state = m.state
    assert state.catalog["QCMD"].timing == "QUICK" and state.catalog["QCMD"].power == 0 and state.catalog["QCMD"].hit == 0
    assert state.catalog["TER1"].release_cost_total == 6 and state.catalog["TER1"].title == "T1"
    assert state.catalog["U5k"].power == 5000 and state.catalog["U5k"].release_cost_total is None
    assert view(m)["phase"] == "MAIN"


def test_section_15_a_field_that_applies_may_not_be_null():
    cat = catalog()
    cat[4] = {**cat[4], "power": None}  # U5k, a unit
    e = malformed(opening(cat=cat))
    assert e.message == "catalog entry 4 ('U5k'): power: must be an int, not None" and e.path.endswith("$.catalog[4].power")
    cat = not_applicable(catalog(), absent=True)
    ter = next(i for i, c in enumerate(cat) if c["name"] == "TER1")
    del cat[ter]["title"]
    e = malformed(opening(cat=cat))
    assert e.message.startswith(f"catalog entry {ter} ('TER1'): title: missing") and e.path.endswith(f"$.catalog[{ter}].title")


def test_section_15_an_unknown_catalog_key_is_malformed_and_names_the_keys_allowed():
    cat = catalog()
    cat[0] = {**cat[0], "cost": 1}
    e = malformed(opening(cat=cat))
    assert e.path.endswith("$.catalog[0].cost")
    assert e.message.startswith("catalog entry 0 ('U1k'): cost: unknown key; the keys allowed: name, type, is_ace, titles, colours, ")


# -- private facts (§9, BD-HID-1) ---------------------------------------------------------------------
def draw_phase():
    return opening() + [ev("advance_phase", A), ev("advance_phase", A), ev("advance_phase", A), ev("advance_phase", A),
                        ev("advance_phase", A), ev("advance_phase", A), ev("advance_phase", B)]


def test_BD_ACT_10_a_drawn_card_named_in_private_reaches_the_hand():
    m = accepted(draw_phase() + [ev("draw", B, player=B, private={"card": "U4k"})])
    assert view(m, B)["players"][B]["hand"] == ["?"] * 5 + ["U4k"]


@pytest.mark.parametrize("type_,fields,key,allowed", [
    ("draw", {"private": {"cards": ["U4k"]}}, "cards", "card"),
    ("draw_opening", {"private": {"card": "U4k"}}, "card", "cards"),
    ("mulligan", {"redraw": True, "private": {"cards": ["U4k"] * 5}}, "cards", "new_cards"),
])
def test_section_15_an_unknown_key_in_private_is_malformed_and_names_the_keys_allowed(type_, fields, key, allowed):
    upto = {"draw": draw_phase(), "draw_opening": opening()[:6], "mulligan": opening()[:8]}[type_]
    player = B if type_ == "draw" else A
    e = malformed(upto + [ev(type_, player, player=player, **fields)])
    assert e.message == f"{type_}: private: unknown key {key!r}; the keys allowed: {allowed}"
    assert e.path.endswith(f"$.private.{key}")


@pytest.mark.parametrize("type_,private,says", [
    ("draw", {"card": ["U4k"]}, "private.card: a card name, not ['U4k']"),
    ("draw_opening", {"cards": ["U4k"] * 4}, "private.cards: the 5 card names, not ['U4k', 'U4k', 'U4k', 'U4k']"),
])
def test_section_15_a_private_value_of_the_wrong_shape_is_malformed(type_, private, says):
    upto = {"draw": draw_phase(), "draw_opening": opening()[:6]}[type_]
    player = B if type_ == "draw" else A
    e = malformed(upto + [ev(type_, player, player=player, private=private)])
    assert e.message == f"{type_}: {says}"


def test_section_15_new_cards_without_a_redraw_are_malformed():
    e = malformed(opening()[:8] + [ev("mulligan", A, player=A, redraw=False, private={"new_cards": ["PLN"] * 5})])
    assert e.message == "mulligan: private.new_cards: only a redraw draws new cards (redraw is false)"
    assert e.path.endswith("$.private.new_cards")


def test_section_15_private_keys_of_an_inserted_event_are_placed_under_the_correction():
    lines = draw_phase()
    e = malformed(lines + [ev("correct", "judge", at_seq=len(lines), reason="x",
                              event={"type": "draw", "by": B, "player": B, "private": {"cards": ["U4k"]}})])
    assert e.path.endswith("$.event.private.cards") and "the keys allowed: card" in e.message
