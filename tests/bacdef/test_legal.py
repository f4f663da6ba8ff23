"""BACDEF legal actions (§5): every field of every offered action has concrete choices, and every
action built from any combination of them is accepted (checked exhaustively at each position)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from adjudicator.engine.fold import decode_event
from adjudicator.games.bacdef import GAME
from adjudicator.games.bacdef.config import Options
from adjudicator.games.bacdef.deck import legal_decks
from adjudicator.engine.protocol import Choice, LegalAction, Violation
from tests.bacdef.builders import P1, P2, Table, setup, start
from tests.bacdef.test_rules_effects import end_step


def values(c: Choice) -> list[Any]:
    if c.kind == "one":
        return list(c.values)
    if c.kind == "some":
        return [list(p) for n in range(c.min, c.max + 1) for p in itertools.permutations(c.values, n)]
    if c.kind == "int":
        return list(range(c.min, c.max + 1))
    return ["a reason"]


def combinations(a: LegalAction) -> list[dict[str, Any]]:
    names = list(a.choices)
    options = [values(a.choices[n]) + ([None] if a.choices[n].optional else []) for n in names]
    return [{n: v for n, v in zip(names, combo) if v is not None} for combo in itertools.product(*options)]


def offered(t: Table, type_: str) -> list[LegalAction]:
    return [a for a in GAME.legal(t.state) if a.type == type_]


def all_accepted(t: Table) -> int:
    """Enter every combination of every offered action (as a preview: nothing changes); the
    number of events tried."""
    n = 0
    for a in GAME.legal(t.state):
        assert set(a.choices) or a.type == "confirm_end_phase", a
        for fields in combinations(a):
            event = decode_event(GAME, a.type, a.who, fields)
            try:
                t.fold.preview(event, t.fold.head + 1)
            except Violation as v:
                raise AssertionError(f"offered {a.type} by {a.who} {fields} was refused: {v}") from None
            n += 1
    return n


def test_every_offered_combination_is_accepted_from_setup_to_the_end_phase():
    """BAC-SETUP-2, BAC-ACT-4, BAC-ACT-5..9: guards, first player, placements, declarations."""
    t = Table(decks={"P1": ("A", "A", "B", "C", "D", "E", "F"), "P2": ("A", "B", "B", "C", "C", "D", "F")})
    assert all_accepted(t) > 2 * 42
    setup(t, decks=None, first=None)
    assert all_accepted(t) > 0
    t.do("decide_first_player first_player=P1 method=rps")
    # 5 placements each; the contradiction rewind; the judge-error rewind to seq 1 or to the turn's
    # start; two concessions
    assert all_accepted(t) == 2 * 5 + 1 + 2 + 2
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    assert [(a.who, a.type, a.fields) for a in GAME.legal(t.state) if not a.anytime] == [
        (P1, "declare_knock", "player=alice"),
        (P1, "declare_skill", "player=alice card_id=alice-3"),
    ]
    all_accepted(t)
    t.do("declare_skill player=P1 card_id=P1-3")
    assert [a.type for a in GAME.legal(t.state) if not a.anytime] == ["declare_skill", "declare_through"]
    all_accepted(t)
    t.do("declare_through player=P2")
    assert all_accepted(t) > 10  # the ops menu of resolve_effect
    t.do("resolve_effect instance_id=I1 ops=[]")
    assert t.step == "end"
    all_accepted(t)


def test_BAC_ACT_12_damage_slots_are_every_live_slot_sequence():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 4]")
    (a,) = offered(t, "assign_damage")
    # 3 points (the cap) on two upright guards: never a point on a slot already destroyed
    assert a.who == P2 and a.choices["slots"].values == ([1, 1, 2], [1, 2, 1], [1, 2, 2], [2, 1, 1], [2, 1, 2], [2, 2, 1])
    assert a.fields == "player=bob slots=<[1,1,2]|[1,2,1]|[1,2,2]|[2,1,1]|[2,1,2]|[2,2,1]>"
    assert all_accepted(t) > 6


def test_BAC_ACT_13_heal_slots_are_one_per_point_with_a_choice():
    t = end_step()
    t.do("apply_end_phase_effect source=I1 ops=[DROP P1-2, TURN_GUARD P1 1 S, HEAL P1 2]")
    (a,) = offered(t, "assign_heal")
    # slot 1 first leaves one candidate (no second choice); slot 2 first leaves two
    assert a.choices["slots"].values == ([1], [2, 1], [2, 2])
    all_accepted(t)


def test_BAC_HID_4_a_face_down_F_decision_is_offered_to_its_owner_only():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 4]", "assign_damage player=P2 slots=[1,1,2]")
    judge = GAME.legal(t.state)
    assert [(a.who, a.type, a.choices["card_id"].values) for a in judge if "card_id" in a.choices] == [
        (P2, "activate_fall_skill", ("bob-7",)),
        (P2, "decline_fall_skill", ("bob-7",)),
    ]
    alice = [a for a in judge if a.who == P1]  # what `adj legal --as alice` shows
    assert [a.type for a in alice] == ["concede_set"] and "bob-7" not in json.dumps([a.fields for a in alice])
    assert t.view(None)["set"]["turn"]["public_awaiting"] == {"kind": "fall_processing"}
    assert t.view("P1")["set"]["turn"]["public_awaiting"] == {"kind": "fall_processing"}
    all_accepted(t)


def test_BAC_ACT_14_an_opponent_s_unseen_pick_is_entered_by_the_judge():
    t = start(guards=(("P1-1", "P1-2"), ("P2-1", "P2-2")))
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-3", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[LOSE P2 2 opponent]")
    (a,) = offered(t, "choose_lost_cards")
    assert (a.who, a.choices["player"].values, a.choices["card_ids"].values) == ("judge", (P1,), ("bob-4", "bob-5", "bob-6", "bob-7"))
    assert not [x for x in GAME.legal(t.state) if x.who == P1 and "bob-4" in x.fields]
    # 4 x 3 ordered picks; the contradiction rewind naming I1, none, or leaving instance_ids out;
    # two judge-error rewinds; two concessions
    assert all_accepted(t) == 12 + 3 + 2 + 2


def test_BAC_REW_11_judge_error_rewinds_go_to_the_floor_or_the_turn_start():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-3", "place_field_card player=P2 card_id=P2-3", "declare_knock player=P1")
    t.do("declare_through player=P2", "assign_damage player=P2 slots=[1]", "confirm_end_phase")
    rewinds = {a.choices["cause"].values: a for a in offered(t, "rewind")}
    assert rewinds[("judge_error",)].choices["to_seq"].values == (t.seq,)  # the turn just completed
    assert rewinds[("contradiction",)].fields == f"to_seq={t.seq} cause=contradiction reason=<text>"
    assert all(a.anytime for a in rewinds.values())
    t.do("place_field_card player=P1 card_id=P1-4")
    assert rewinds[("judge_error",)].choices["to_seq"].values == offered(t, "rewind")[1].choices["to_seq"].values
    off = Table({"allow_judge_rewind": False})
    assert [a.choices["cause"].values for a in offered(off, "rewind")] == []


def test_BAC_DECK_6_register_deck_offers_every_legal_deck():
    """BAC-RUL-2: with require_each_special, only decks holding D, E and F."""
    t = Table()
    (a,) = [x for x in offered(t, "register_deck") if x.who == P1]
    assert len(a.choices["letters"].values) == 198 and a.fields == "player=alice letters=[7 letters A-F; D, E, F at most once]"
    assert all(GAME.check_deck(d) == [] for d in a.choices["letters"].values)
    strict = legal_decks(Options(require_each_special=True))
    assert len(strict) == 15 and all({"D", "E", "F"} <= set(d) for d in strict)
    t.do({"type": "register_deck", "by": P1, "player": P1, "letters": a.choices["letters"].values[0]})
    assert [x.who for x in offered(t, "register_deck")] == [P2]
