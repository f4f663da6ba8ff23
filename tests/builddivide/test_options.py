"""House-rule options of rules §11.1 that change what the reducer accepts: each value, with the
outcome it leaves."""

from __future__ import annotations

from adjudicator.games.builddivide.game import BuildDivide
from tests.builddivide.helpers import A, B, accepted, ev, refused, to_main, view


def trig(controller, ability_id):
    return ev("trigger", "judge", source="TER1", ability_id=ability_id, controller=controller)


def zone(m):
    return [(i["controller"], i["ability_id"]) for i in view(m)["resolution_zone"]]


def test_BD_RUL_20_trigger_order_APNAP_puts_the_turn_player_first_BD_RES_6():
    m = accepted(to_main() + [trig(A, "a1"), trig(A, "a2"), trig(B, "b1")])  # alice is TP
    assert zone(m) == [(A, "a1"), (A, "a2"), (B, "b1")]  # bob's resolves first
    v = refused(to_main() + [trig(B, "b1"), trig(A, "a1")])
    assert (v.rule, v.code) == ("BD-RES-6", "TRIGGER_ORDER") and "APNAP" in v.message and "bob's were already put in" in v.message


def test_BD_RUL_20_trigger_order_NAPAP_puts_the_non_turn_player_first_BD_RES_6():
    opts = {"trigger_order": "NAPAP"}
    m = accepted(to_main(opts) + [trig(B, "b1"), trig(A, "a1"), trig(A, "a2")])
    assert zone(m) == [(B, "b1"), (A, "a1"), (A, "a2")]  # alice's resolve first
    v = refused(to_main(opts) + [trig(A, "a1"), trig(B, "b1")])
    assert (v.rule, v.code) == ("BD-RES-6", "TRIGGER_ORDER") and "NAPAP" in v.message and "alice's were already put in" in v.message


def test_BD_RUL_20_a_trigger_after_another_event_starts_a_new_run():
    m = accepted(to_main() + [trig(B, "b1"), ev("resolve_top", "judge", ops=[]), trig(A, "a1")])
    assert zone(m) == [(A, "a1")]


def test_BD_RUL_20_legal_offers_no_trigger_out_of_order():
    from tests.builddivide.helpers import catalog, clone

    cat = catalog(clone("U2k", "ABL", abilities=[{"id": "t1", "kind": "AUTOMATIC", "timing": "NORMAL", "note": "on attack"}]))
    lines = to_main(cat=cat, a=["ABL"]) + [ev("judge_ops", "judge", ops=[{"op": "PUT_ONTO_FIELD", "card": "ABL", "from_zone": "DECK", "player": A}], note="set up")]
    offered = {a.who for a in BuildDivide().legal(accepted(lines).state) if a.type == "trigger"}
    assert offered == {A}
    offered = {a.who for a in BuildDivide().legal(accepted(lines + [trig(B, "b1")]).state) if a.type == "trigger"}
    assert offered == set()  # alice's trigger would come after bob's (BD-RES-6)
