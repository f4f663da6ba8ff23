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
