"""House-rule options of rules §11.1 that change what the reducer accepts: each value, with the
outcome it leaves."""

from __future__ import annotations

import pytest

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


def _drawn_then_rewound(options=None):
    lines = to_main(options)
    back_to = len(lines)  # line N is seq N
    draw = ev("judge_ops", "judge", ops=[{"op": "DRAW", "players": [A], "n": 2}], note="draw 2")
    return lines + [draw, ev("rewind", "judge", to_seq=back_to, reason="the draw was not owed")]


def test_BD_RUL_43_rewind_card_return_DECK_TOP_needs_no_shuffle():
    before = view(accepted(to_main()))["players"][A]
    m = accepted(_drawn_then_rewound() + [ev("advance_phase", A)])
    v = view(m)
    assert v["shuffle_owed"] == [] and v["phase"] == "ATTACK"
    assert (v["players"][A]["deck"], v["players"][A]["hand_count"]) == (before["deck"], before["hand_count"])


def test_BD_RUL_43_rewind_card_return_SHUFFLE_owes_a_shuffle_BD_REW_8():
    opts = {"rewind_card_return": "SHUFFLE"}
    before = view(accepted(to_main(opts)))["players"][A]
    m = accepted(_drawn_then_rewound(opts))
    v = view(m)
    assert v["shuffle_owed"] == [A]
    assert (v["players"][A]["deck"], v["players"][A]["hand_count"]) == (before["deck"], before["hand_count"])
    assert [(a.who, a.type) for a in BuildDivide().legal(m.state)] == [(A, "shuffle")]
    v = refused(_drawn_then_rewound(opts) + [ev("advance_phase", A)])
    assert (v.rule, v.code) == ("BD-REW-8", "SHUFFLE_OWED") and "alice's deck" in v.message
    v = refused(_drawn_then_rewound(opts) + [ev("shuffle", B, player=B)])
    assert (v.rule, v.code) == ("BD-REW-8", "SHUFFLE_OWED")
    m = accepted(_drawn_then_rewound(opts) + [ev("shuffle", A, player=A), ev("advance_phase", A)])
    v = view(m)
    assert v["shuffle_owed"] == [] and v["phase"] == "ATTACK" and v["players"][A]["deck"] == before["deck"]


def test_BD_RUL_43_SHUFFLE_owes_nothing_when_no_card_was_drawn():
    opts = {"rewind_card_return": "SHUFFLE"}
    lines = to_main(opts)
    m = accepted(lines + [ev("advance_phase", A), ev("rewind", "judge", to_seq=len(lines), reason="too early"), ev("advance_phase", A)])
    assert view(m)["shuffle_owed"] == [] and view(m)["phase"] == "ATTACK"


def _patched(*ops):
    lines = to_main(a=["U5k"]) + [ev("judge_ops", "judge", ops=[{"op": "PUT_ONTO_FIELD", "card": "U5k", "from_zone": "DECK", "player": A}], note="set up")]
    return lines + [ev("judge_ops", "judge", ops=list(ops), note="copy effect")]


def _unit(m, name):
    return next(u for u in view(m)["players"][A]["field"] if u["name"] == name)


def test_BD_EFF_27_PATCH_sets_a_units_printed_power_and_hit():
    m = accepted(_patched({"op": "PATCH", "path": "U5k.power", "value": 7000, "note": "copies U7k"},
                          {"op": "PATCH", "path": "U5k.hit", "value": 3, "note": "copies U7k"},
                          {"op": "MODIFY_STAT", "unit": "U5k", "stat": "POWER", "delta": 1000, "duration": "END_OF_TURN"}))
    u = _unit(m, "U5k")
    assert (u["power"], u["hit"]) == (8000, 3)  # 7000 printed by the patch + 1000
    assert view(m)["patches"] == ["U5k.power = 7000: copies U7k", "U5k.hit = 3: copies U7k"]


def test_BD_EFF_27_PATCH_power_0_destroys_at_the_state_check():
    m = accepted(_patched({"op": "PATCH", "path": "U5k.power", "value": 0, "note": "switch"}))
    assert [u["name"] for u in view(m)["players"][A]["field"]] == [] and "U5k" in view(m)["players"][A]["graveyard"]


def test_BD_EFF_27_PATCH_refuses_other_paths_and_values():
    v = refused(_patched({"op": "PATCH", "path": "alice.life", "value": 9, "note": "x"}))
    assert (v.rule, v.code) == ("BD-EFF-27", "PATCH_PATH") and "'<unit>.power'" in v.message
    v = refused(_patched({"op": "PATCH", "path": "U5k.power", "value": "7000", "note": "x"}))
    assert (v.rule, v.code) == ("BD-EFF-27", "PATCH_VALUE")
    v = refused(_patched({"op": "PATCH", "path": "U9k.power", "value": 1, "note": "x"}))
    assert (v.rule, v.code) == ("BD-EFF-27", "PATCH_PATH") and "no unit 'U9k'" in v.message


def _mixed(options, best_of=1):
    from tests.builddivide.helpers import setup, started

    opts = {"illegal_deck_policy": options, "best_of": best_of}
    return [started(options=opts)] + setup() + [ev("concede", B, player=B), ev("confirm_result", "judge"),
                                                ev("game_cleanup", "judge", mixed_cards_found=True)]


def test_BD_RUL_44_illegal_deck_policy_GAME_LOSS_the_judge_names_the_offender_BD_REW_12():
    m = accepted(_mixed("GAME_LOSS"))
    assert [(a.who, a.type) for a in BuildDivide().legal(m.state)] == [("judge", "judge_result")]
    v = refused(_mixed("GAME_LOSS") + [ev("judge_void_game", "judge", note="void it")])
    assert (v.rule, v.code) == ("BD-REW-12", "GAME_LOSS_POLICY")
    v = refused(_mixed("GAME_LOSS") + [ev("judge_result", "judge", winner=None, reason="draw")])
    assert (v.rule, v.code) == ("BD-REW-12", "WINNER_NEEDED")
    m = accepted(_mixed("GAME_LOSS") + [ev("judge_result", "judge", winner=B, reason="a bob card was alice's")])
    o = m.outcome()
    assert (o.status, o.winner, o.reason) == ("won", B, "judge") and "game loss for alice" in o.detail


def test_BD_RUL_44_GAME_LOSS_in_best_of_3_counts_the_loss_and_opens_the_next_game():
    m = accepted(_mixed("GAME_LOSS", best_of=3) + [ev("judge_result", "judge", winner=B, reason="alice's deck held a bob card")])
    d = view(m)
    assert (d["game_no"], d["status"], d["wins"], d["outcome"]) == (2, "SETUP", {A: 0, B: 1}, "in_progress")


def test_BD_RUL_44_JUDGE_DECIDES_still_allows_a_void():
    m = accepted(_mixed("JUDGE_DECIDES") + [ev("judge_void_game", "judge", note="void")])
    assert (view(m)["game_no"], view(m)["past_games"]) == (2, ["void"])


def judge(*ops):
    return ev("judge_ops", "judge", ops=list(ops), note="set up")


def move(n, from_zone, to_zone, who=A):
    return {"op": "MOVE", "n": n, "from_zone": from_zone, "to_zone": to_zone, "face": "DOWN", "player": who}


def draw_op(n, *who):
    return {"op": "DRAW", "players": list(who or (A,)), "n": n}


@pytest.mark.parametrize("fallback", [True, False])
def test_BD_RUL_9_life_fallback_all_draws_for_an_effect_draw_past_the_deck(fallback):
    opts = {"life_fallback_all_draws": fallback}
    m = accepted(to_main(opts) + [judge(move(22, "DECK", "LIFE")), judge(draw_op(3))])  # deck 1, life 32
    p = view(m)["players"][A]
    # true: one card from the deck, two from the top of the life zone; false: the draw stops at the empty deck
    assert (p["deck"], p["hand_count"], p["life"]) == ((0, 8, 30) if fallback else (0, 6, 32))
    assert view(m)["result"] is None
    m = accepted(to_main(opts) + [judge(move(10, "LIFE", "HAND"), move(23, "DECK", "HAND")), judge(draw_op(1))])
    out = m.outcome()  # deck and life empty: with the fallback the draw loses (BD-OVR-3b); without, nothing is drawn
    assert (out.status, out.winner, out.reason) == (("won", B, "deck_out") if fallback else ("in_progress", None, None))
    assert view(m)["players"][A]["hand_count"] == 38


@pytest.mark.parametrize("fallback", [True, False])
def test_BD_RUL_9_the_draw_phase_draw_always_falls_back_to_the_life_zone_BD_TURN_4(fallback):
    opts = {"life_fallback_all_draws": fallback}
    lines = to_main(opts) + [ev("advance_phase", A)] * 4 + [ev("advance_phase", B), judge(move(23, "DECK", "LIFE", B))]
    p = view(accepted(lines + [ev("draw", B, player=B)]))["players"][B]
    assert (p["deck"], p["hand_count"], p["life"]) == (0, 6, 32)
    lines.append(judge(move(33, "LIFE", "HAND", B)))
    out = accepted(lines + [ev("draw", B, player=B)]).outcome()
    assert (out.status, out.winner, out.reason) == ("won", A, "deck_out")
