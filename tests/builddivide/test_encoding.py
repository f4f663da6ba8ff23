"""Rules §15, "Encoding in recorded matches": catalogs with fields that do not apply to a card's
type, the keys an event's ``private`` object may hold, and what is malformed input."""

from __future__ import annotations

import pytest

from adjudicator.engine.protocol import Malformed
from tests.builddivide.helpers import A, B, accepted, catalog, ev, opening, refused, run, view


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


# -- card instances (§15, BD-LIM-7) ----------------------------------------------------------------------
def judge(*ops):
    return ev("judge_ops", "judge", ops=list(ops), note="set up")


def onto_field(card, who=A, zone="DECK"):
    return {"op": "PUT_ONTO_FIELD", "card": card, "from_zone": zone, "player": who}


def red_energy():
    """Alice's main phase of turn 1 with two U1k (RED) as her initial energy: U1k#1 and U1k#2."""
    return opening(a=["U1k"] * 4 + ["U3k"] * 4, energy={A: ["U1k", "U1k"], B: ["PLN", "U1k"]}) + [ev("advance_phase", A)] * 2


def test_BD_LIM_7_two_units_of_one_name_are_numbered_in_the_order_they_entered():
    m = accepted(red_energy() + [judge(onto_field("U3k"), onto_field("U3k"))])
    field = view(m)["players"][A]["field"]
    assert [(u["name"], u["ref"], u["instance"]) for u in field] == [("U3k", "U3k#1", "alice:U3k#1"), ("U3k", "U3k#2", "alice:U3k#2")]
    energy = view(m)["players"][A]["energy"]
    assert [(e["ref"], e["instance"]) for e in energy] == [("U1k#1", "alice:U1k#1"), ("U1k#2", "alice:U1k#2")]


def test_BD_LIM_7_a_unit_of_a_name_already_on_a_field_is_played_and_numbered_on():
    lines = red_energy() + [judge(onto_field("U3k"))]
    pay = [{"energy": "U1k#1", "as": "RED"}, {"energy": "U1k#2", "as": "RED"}]
    m = accepted(lines + [ev("play_card", A, card="U3k", payment=pay)])
    assert [(i["ref"], i["instance"]) for i in view(m)["resolution_zone"]] == [("U3k", "alice:U3k#2")]
    m = accepted(lines + [ev("play_card", A, card="U3k", payment=pay), ev("resolve_top", "judge", ops=[])])
    d = view(m)["players"][A]
    assert [u["ref"] for u in d["field"]] == ["U3k#1", "U3k#2"] and d["energy_rested"] == 2


def test_section_15_an_ambiguous_bare_name_is_malformed_and_lists_the_references():
    lines = red_energy() + [judge(onto_field("U3k"), onto_field("U3k"))]
    e = malformed(lines + [ev("play_card", A, card="U3k", payment=[{"energy": "U1k", "as": "RED"}, {"energy": "U1k#2", "as": "RED"}])])
    assert e.message == "'U1k' is ambiguous: the energy zone holds 2 cards it could mean (U1k#1, U1k#2); name one of them"
    assert e.path.endswith("$.payment[0].energy")
    lines += [ev("advance_phase", A)]
    e = malformed(lines + [ev("declare_attack", A, attacker="U3k", target=B)])
    assert e.message == "'U3k' is ambiguous: the field holds 2 cards it could mean (U3k#1, U3k#2); name one of them"
    assert e.path.endswith("$.attacker")
    m = accepted(lines + [ev("declare_attack", A, attacker="U3k#2", target=B)])
    assert view(m)["attack"]["attacker"] == "U3k#2"
    assert [u["standing"] for u in view(m)["players"][A]["field"]] == [True, False]


def test_section_15_a_field_that_may_name_either_players_card_takes_PLAYER_REF():
    lines = red_energy() + [judge(onto_field("U3k"), onto_field("U3k"), onto_field("U3k", B))]
    e = malformed(lines + [judge({"op": "DAMAGE_UNIT", "unit": "U3k#1", "n": 1000})])
    assert e.message == "'U3k#1' is ambiguous: the field holds 2 cards it could mean (alice:U3k#1, bob:U3k); name one of them"
    assert e.path.endswith("$.ops[0].unit")
    m = accepted(lines + [judge({"op": "DAMAGE_UNIT", "unit": "bob:U3k", "n": 1000}, {"op": "DAMAGE_UNIT", "unit": "U3k#2", "n": 500})])
    d = view(m)["players"]
    assert [u["damage"] for u in d[A]["field"]] == [0, 500] and [u["damage"] for u in d[B]["field"]] == [1000]
    # the attacker is looked for on the turn player's field, the target on the opponent's (BD-ACT-18)
    lines += [judge({"op": "REST", "card": "bob:U3k"}), ev("advance_phase", A)]
    m = accepted(lines + [ev("declare_attack", A, attacker="alice:U3k#1", target="U3k")])
    assert view(m)["attack"] == {"attacker": "U3k#1", "original_target": "U3k", "current_target": "U3k", "block_used": False, "step": "BLOCK"}


def test_section_15_a_card_that_leaves_and_returns_gets_the_next_number_BD_RUL_38():
    lines = red_energy() + [judge(onto_field("U3k"), onto_field("U3k"), {"op": "DESTROY", "unit": "U3k#1"})]
    m = accepted(lines)
    assert [(u["ref"], u["instance"]) for u in view(m)["players"][A]["field"]] == [("U3k", "alice:U3k#2")]
    m = accepted(lines + [judge(onto_field("U3k", zone="GRAVEYARD"))])
    assert [u["ref"] for u in view(m)["players"][A]["field"]] == ["U3k#2", "U3k#3"]
    assert view(m)["players"][A]["graveyard"] == []


def test_section_15_a_reference_to_no_card_is_refused_by_the_fields_rule():
    lines = red_energy() + [judge(onto_field("U3k")), ev("advance_phase", A)]
    v = refused(lines + [ev("declare_attack", A, attacker="U3k#2", target=B)])
    assert (v.rule, v.code) == ("BD-LIM-5", "NO_ATTACKER") and "'U3k#2' is not a unit on alice's field" in v.message
    v = refused(lines[:-1] + [ev("play_card", A, card="U3k", payment=[{"energy": "U1k#3", "as": "RED"}, {"energy": "U1k#1", "as": "RED"}])])
    assert (v.rule, v.code) == ("BD-ACT-0", "BAD_PAYMENT") and "U1k#3 is not in alice's energy zone" in v.message
    v = refused(lines[:-1] + [ev("play_card", A, card="U3k", payment=[{"energy": "U1k#1", "as": "RED"}, {"energy": "alice:U1k#1", "as": "RED"}])])
    assert "alice:U1k#1 is listed twice (U1k#1 and alice:U1k#1)" in v.message


def test_BD_EFF_24_NEGATE_names_its_item_by_reference_in_the_resolution_zone():
    lines = opening(b=["QCMD"] * 2, energy={A: ["PLN", "U1k"], B: ["PLN", "PLN"]}) + [ev("advance_phase", A)] * 2
    lines += [ev("play_card", A, card="U1k", payment=[{"energy": "U1k", "as": "RED"}]),
              ev("play_card", B, card="QCMD", payment=[{"energy": "PLN#1", "as": "WHITE"}]),
              ev("play_card", B, card="QCMD", payment=[{"energy": "PLN#2", "as": "WHITE"}])]
    m = accepted(lines)
    assert [(i["ref"], i["instance"]) for i in view(m)["resolution_zone"]] == [("U1k", "alice:U1k#2"), ("QCMD#1", "bob:QCMD#1"),
                                                                               ("QCMD#2", "bob:QCMD#2")]
    e = malformed(lines + [judge({"op": "NEGATE", "stack_item": "QCMD"})])
    assert e.message == "'QCMD' is ambiguous: the resolution zone holds 2 cards it could mean (QCMD#1, QCMD#2); name one of them"
    assert e.path.endswith("$.ops[0].stack_item")
    m = accepted(lines + [ev("resolve_top", "judge", ops=[{"op": "NEGATE", "stack_item": "U1k"}])])
    d = view(m)
    assert [i["instance"] for i in d["resolution_zone"]] == ["bob:QCMD#1"]  # the top QCMD resolved, the U1k was negated
    assert (d["players"][A]["graveyard"], d["players"][B]["graveyard"], d["players"][A]["field"]) == (["U1k"], ["QCMD"], [])


def test_section_15_legal_and_the_board_show_the_references():
    from adjudicator.games.builddivide import GAME

    lines = red_energy() + [judge(onto_field("U3k"), onto_field("U3k"), onto_field("U3k", B), {"op": "REST", "card": "bob:U3k"}),
                            ev("advance_phase", A)]
    state = accepted(lines).state
    attack = next(a for a in GAME.legal(state) if a.type == "declare_attack")
    assert (attack.choices["attacker"].values, attack.choices["target"].values) == (("U3k#1", "U3k#2"), (B, "U3k"))
    board = GAME.board(state)
    field = next(z for z in board.zones if z.name == "field" and z.owner == A)
    assert [(c.id, c.label) for c in field.cards] == [("alice:U3k#1", "U3k#1"), ("alice:U3k#2", "U3k#2")]
    assert "field: U3k#1 3000/1 dmg 0, U3k#2 3000/1 dmg 0" in GAME.describe(state)
    state = accepted(red_energy()).state
    play = next(a for a in GAME.legal(state) if a.type == "play_card" and a.choices["card"].values == ("U3k",))
    assert play.choices["payment"].values == ([{"energy": "U1k#1", "as": "RED"}, {"energy": "U1k#2", "as": "RED"}],)
