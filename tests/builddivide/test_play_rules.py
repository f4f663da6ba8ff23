"""Turn play (rules §4–§7, §10): each rule the reducer raises, with the figures the event leaves."""

from __future__ import annotations

import pytest

from tests.builddivide.helpers import A, B, accepted, ev, refused, run, to_main, view


def ops(*items):
    return ev("judge_ops", "judge", ops=list(items), note="set up")


def op(name, **args):
    return {"op": name, **args}


def field(name, owner=A, zone="DECK"):
    return op("PUT_ONTO_FIELD", card=name, from_zone=zone, player=owner)


def attack(target=B, attacker="U5k", **kw):
    lines = to_main(a=[attacker] if attacker not in ("U1k",) else None, **kw)
    return lines + [ops(field(attacker)), ev("advance_phase", A), ev("declare_attack", A, attacker=attacker, target=target)]


def test_BD_TURN_6_attacks_only_in_the_attack_phase():
    v = refused(to_main(a=["U5k"]) + [ops(field("U5k")), ev("declare_attack", A, attacker="U5k", target=B)])
    assert (v.rule, v.code) == ("BD-TURN-6", "NOT_NOW") and "main phase" in v.message
    v = refused(to_main(a=["U5k"]) + [ops(field("U5k")), ev("advance_phase", A), ev("declare_attack", B, attacker="U5k", target=B)])
    assert (v.rule, v.code) == ("BD-TURN-6", "NOT_YOUR_TURN")


def test_BD_LIM_5_one_attack_at_a_time():
    lines = to_main(a=["U5k", "U3k"]) + [ops(field("U5k"), field("U3k")), ev("advance_phase", A),
                                          ev("declare_attack", A, attacker="U5k", target=B)]
    v = refused(lines + [ev("declare_attack", A, attacker="U3k", target=B)])
    assert (v.rule, v.code) == ("BD-LIM-5", "NOT_NOW")
    v = refused(lines[:-1] + [ev("declare_attack", A, attacker="U7k", target=B)])
    assert (v.rule, v.code) == ("BD-LIM-5", "NO_ATTACKER")
    with_status = lines[:-1] + [ops(op("SET_STATUS", unit="U3k", tag="CANNOT_ATTACK")), ev("declare_attack", A, attacker="U3k", target=B)]
    assert refused(with_status).code == "CANNOT_ATTACK"


def test_BD_ACT_19_20_the_block_decision_is_the_defenders_and_BD_LIM_4():
    lines = attack(b=["U3k"])
    lines.insert(-2, ops(field("U3k", B)))
    v = refused(to_main() + [ev("no_block", B)])
    assert (v.rule, v.code) == ("BD-ACT-20", "NOT_NOW")
    v = refused(to_main() + [ev("declare_block", B, blocker="U3k")])
    assert (v.rule, v.code) == ("BD-ACT-19", "NOT_NOW")
    assert refused(lines + [ev("no_block", A)]).code == "NOT_DEFENDER"
    v = refused(lines + [ev("declare_block", B, blocker="U1k")])
    assert (v.rule, v.code) == ("BD-LIM-4", "NO_BLOCKER")
    rested = lines[:-1] + [ops(op("REST", card="U3k")), lines[-1], ev("declare_block", B, blocker="U3k")]
    assert refused(rested).code == "RESTED"
    m = accepted(lines + [ev("declare_block", B, blocker="U3k")])
    assert view(m)["attack"] == {"attacker": "U5k", "original_target": B, "current_target": "U3k", "block_used": True, "step": "BATTLE"}


def test_BD_ACT_21_battle_only_when_waiting():
    v = refused(to_main() + [ev("resolve_battle", A)])
    assert (v.rule, v.code) == ("BD-ACT-21", "NOT_NOW")
    m = accepted(attack() + [ev("no_block", B)])
    assert view(m)["damage"]["waiting"] == "REVEAL"
    assert refused(attack() + [ev("no_block", B), ev("resolve_battle", A)]).rule == "BD-ACT-21"


def test_BD_ACT_22_life_check_only_while_a_reveal_is_awaited():
    v = refused(to_main() + [ev("life_check", B, victim=B, card_name="PLN")])
    assert (v.rule, v.code) == ("BD-ACT-22", "NOT_NOW")
    lines = attack() + [ev("no_block", B)]
    assert refused(lines + [ev("life_check", A, victim=A, card_name="PLN")]).code == "NOT_VICTIM"
    v = refused(lines + [ev("life_check", B, victim=B, card_name="MYSTERY")])
    assert (v.rule, v.code) == ("BD-ACT-22", "UNKNOWN_CARD")
    m = accepted(lines + [ev("life_check", "judge", victim=B, icons=["BUSTER"])])
    d = view(m)
    assert d["damage"]["bonus"] == 1 and d["players"][B]["graveyard"] == ["(BUSTER card)"] and d["players"][B]["life"] == 9


def test_BD_HID_5_a_revealed_name_must_be_in_the_unseen_pool():
    lines = attack() + [ev("no_block", B)]
    v = refused(lines + [ev("life_check", B, victim=B, card_name="U6k")])  # bob's deck holds no U6k
    assert (v.rule, v.code) == ("BD-HID-5", "UNKNOWN_IDENTITY")


def test_BD_ACT_23_24_shot_decisions_only_for_a_revealed_shot():
    assert refused(to_main() + [ev("shot_play", B, payment=[])]).rule == "BD-ACT-23"
    assert refused(to_main() + [ev("shot_decline", B)]).rule == "BD-ACT-24"


def test_shot_mode_NONE_sends_the_shot_to_the_graveyard():
    lines = attack(options={"shot_mode": "NONE"}, b=["SHOT3"]) + [ev("no_block", B), ev("life_check", B, victim=B, card_name="SHOT3")]
    d = view(accepted(lines))
    assert d["damage"] is None and d["attack"] is None and d["players"][B]["graveyard"] == ["SHOT3"]


def test_buster_extra_damage_0_and_recompute_hit_off():
    lines = attack(options={"buster_extra_damage": 0}) + [ev("no_block", B), ev("life_check", B, victim=B, card_name="BST")]
    assert view(accepted(lines))["damage"] is None
    lines = attack(options={"recompute_hit_each_point": False}, attacker="U7k") + [
        ev("no_block", B), ops(op("MODIFY_STAT", unit="U7k", stat="HIT", delta=-2))]
    assert view(accepted(lines))["damage"]["total"] == 3  # the count fixed at the start


def test_BD_ACT_17_resolve_needs_an_item_and_BD_ACT_15_triggers():
    v = refused(to_main() + [ev("resolve_top", "judge", ops=[])])
    assert (v.rule, v.code) == ("BD-ACT-17", "EMPTY_STACK")
    v = refused(to_main() + [ev("trigger", A, source="TER1", ability_id="x", controller=B)])
    assert v.rule == "BD-ACT-15"
    m = accepted(to_main() + [ev("trigger", B, source="TER1", ability_id="x", controller=B)])
    assert view(m)["resolution_zone"] == [{"ref": "x", "instance": "bob:x#1", "kind": "ABILITY", "controller": B, "card": None,
                                           "ability_id": "x", "source": "TER1", "from_shot": False}]
    v = refused(to_main() + [ev("trigger", B, source="TER1", ability_id="x", controller=B), ev("advance_phase", A)])
    assert (v.rule, v.code) == ("BD-TURN-8", "NOT_NOW")


def test_BD_ACT_16_pass_is_not_tracked():
    v = refused(to_main() + [ev("pass", A, player=A)])
    assert (v.rule, v.code) == ("BD-ACT-16", "NOT_TRACKED")


def test_BD_ACT_25_end_discard_only_when_owed():
    v = refused(to_main() + [ev("end_discard", A, cards=[])])
    assert (v.rule, v.code) == ("BD-ACT-25", "NOT_NOW")


def test_BD_TURN_8_advance_by_the_turn_player():
    v = refused(to_main() + [ev("advance_phase", B)])
    assert (v.rule, v.code) == ("BD-TURN-8", "NOT_YOUR_TURN")


def test_BD_TURN_4_only_the_turn_player_draws():
    lines = to_main()[:-2] + [ev("advance_phase", A), ev("advance_phase", A)] + [ev("advance_phase", A)] * 4
    v = refused(lines + [ev("advance_phase", B), ev("draw", A, player=A)])
    assert (v.rule, v.code) == ("BD-TURN-4", "NOT_YOUR_TURN")
    v = refused(lines + [ev("advance_phase", B), ev("draw", B, player=B), ev("draw", B, player=B)])
    assert (v.rule, v.code) == ("BD-TURN-4", "ALREADY_DRAWN")
    assert refused(lines + [ev("draw", B, player=B)]).code == "NOT_NOW"


def test_BD_ACT_12_only_units_and_commands_are_played_and_BD_RES_1():
    v = refused(to_main() + [ev("play_card", A, card="TER1", payment=[])])
    assert (v.rule, v.code) == ("BD-ACT-12", "NOT_PLAYABLE")
    v = refused(to_main() + [ev("play_card", B, card="U1k", payment=[{"energy": "U1k", "as": "RED"}])])
    assert (v.rule, v.code) == ("BD-RES-1", "TIMING") and "alice's turn" in v.message


def test_BD_ACT_0_generic_payment_by_a_colourless_card_and_overpay():
    from tests.builddivide.helpers import catalog, clone

    cat = catalog(clone("PLN", "GREY", colours=[], type="COMMAND"))
    lines = to_main(cat=cat, a=["GREY"]) + [ops(op("ADD_ENERGY", card="GREY", from_zone="DECK", player=A))]
    pay = [{"energy": "U1k", "as": "RED"}, {"energy": "GREY", "as": "GENERIC"}]
    m = accepted(lines + [ev("play_card", A, card="U3k", payment=pay)])
    assert view(m)["players"][A]["energy_rested"] == 2
    v = refused(lines + [ev("play_card", A, card="U3k", payment=[{"energy": "U1k", "as": "RED"}, {"energy": "PLN", "as": "GENERIC"}])])
    assert (v.rule, v.code) == ("BD-ACT-0", "BAD_PAYMENT") and "PLN is WHITE" in v.message
    over = pay + [{"energy": "PLN", "as": "WHITE"}]
    assert refused(lines + [ev("play_card", A, card="U3k", payment=over)]).rule == "BD-ACT-0"
    lines = to_main(options={"allow_overpay": True}, cat=cat, a=["GREY"]) + lines[-1:]
    assert view(accepted(lines + [ev("play_card", A, card="U3k", payment=over)]))["players"][A]["energy_rested"] == 3


def test_effect_damage_runs_the_procedure_and_WIN_GAME():
    m = accepted(to_main() + [ops(op("DAMAGE_PLAYER", player=B, n=2))])
    assert view(m)["damage"] == {"victim": B, "source": "effect", "attack": False, "dealt": 0, "bonus": 0, "total": 2,
                                 "waiting": "REVEAL", "shot_card": None}
    m = accepted(to_main(options={"effect_damage_trigger_checks": False}) + [ops(op("DAMAGE_PLAYER", player=B, n=2))])
    assert view(m)["players"][B]["life"] == 8 and view(m)["damage"] is None
    out = accepted(to_main() + [ops(op("WIN_GAME", player=B, note="alt win"))]).outcome()
    assert (out.status, out.winner, out.reason) == ("won", B, "card_win")


def test_life_added_by_an_effect_goes_on_top_and_the_split_is_positional():
    m = accepted(to_main() + [ops(op("MOVE", n=2, from_zone="DECK", to_zone="LIFE", face="DOWN", player=A))])
    p = view(m)["players"][A]
    assert (p["life"], p["yellow"], p["red"], p["deck"]) == (12, 7, 5, 21)


def test_release_reduction_and_hand_play_options():
    from adjudicator.games.builddivide.payment import release_cost
    from adjudicator.games.builddivide.catalog import decode_catalog
    from tests.builddivide.helpers import catalog, clone

    ter = decode_catalog([clone("TER1", "TERC", release_cost_total=6, release_colour_cost={"BLACK": 2})])["TERC"]
    assert (release_cost(ter, 4, "GENERIC_FIRST").total, release_cost(ter, 4, "GENERIC_FIRST").colours) == (2, {"BLACK": 2})
    assert (release_cost(ter, 4, "COLOUR_FIRST").total, release_cost(ter, 4, "COLOUR_FIRST").colours) == (2, {})
    assert release_cost(ter, 9, "GENERIC_FIRST").total == 0
    lines = to_main(options={"release_requires_hand_play": False}, a=["ACE1"])
    m = accepted(lines + [ops(op("PUT_ONTO_FIELD", card="ACE1", from_zone="DECK", player=A))])
    assert view(m)["release_window"] == {"player": A, "unit": "ACE1"}
    assert catalog()  # the sample catalog is non-empty


def test_views_hide_hands_and_the_d_deck_from_the_opponent():
    m = accepted(to_main())
    mine, theirs = view(m, A)["players"][A], view(m, A)["players"][B]
    assert mine["hand"] == ["?"] * 5 and "hand" not in theirs and theirs["hand_count"] == 5 and "unseen" not in theirs


def test_explain_a_payment_and_a_battle():
    from adjudicator.games.builddivide import GAME

    m = accepted(to_main())
    out = GAME.explain(m.state, {"card": "U3k", "payment": [{"energy": "U1k", "as": "RED"}, {"energy": "PLN", "as": "WHITE"}]})
    assert out["entries"] == [{"energy": "U1k", "as": "RED", "pays": "RED part"}, {"energy": "PLN", "as": "WHITE", "pays": "generic part"}]
    assert out["exact"] is True and out["cost"] == "2 (RED 1 + 1 generic)"
    lines = attack(b=["U3k"])
    lines.insert(-2, ops(field("U3k", B)))
    m = accepted(lines + [ev("declare_block", B, blocker="U3k")])
    battle = GAME.explain(m.state, {})["battle"]
    assert battle["points"] == [{"unit": "U5k", "power": 5000, "takes": 3000, "damage_after": 3000, "destroyed": False},
                                {"unit": "U3k", "power": 3000, "takes": 5000, "damage_after": 5000, "destroyed": True}]


def test_board_shows_zones_and_hides_faces():
    from adjudicator.games.builddivide import GAME

    m = accepted(to_main())
    board = GAME.board(m.state, B)
    hand = next(z for z in board.zones if z.name == "hand" and z.owner == A)
    assert len(hand.cards) == 5 and all(not c.face_up and c.id is None for c in hand.cards)
    life = next(z for z in board.zones if z.name == "life" and z.owner == B)
    assert [c.tags[0] for c in life.cards].count("yellow") == 5 and board.counters[A]["life"] == 10


def test_explain_the_last_payment_and_a_unit():
    from adjudicator.games.builddivide import GAME

    pay = [{"energy": "U1k", "as": "RED"}, {"energy": "PLN", "as": "WHITE"}]
    m = accepted(to_main() + [ev("play_card", A, card="U3k", payment=pay), ev("resolve_top", "judge", ops=[]),
                              ops(op("MODIFY_STAT", unit="U3k", stat="POWER", delta=-1000))])
    assert GAME.explain(m.state, {})["payment"] == {
        "payer": A, "for": "U3k", "cost": "2 (RED 1 + 1 generic)",
        "entries": [{"energy": "U1k", "as": "RED", "pays": "RED part"}, {"energy": "PLN", "as": "WHITE", "pays": "generic part"}]}
    unit = GAME.explain(m.state, {"unit": "U3k"})
    assert unit["power"] == {"printed": 3000, "modifiers": [-1000], "now": 2000} and unit["damage"] == 0
    assert GAME.explain(m.state, {"unit": "U7k"})["cost"] == "5 (RED 1 + 4 generic)"


def test_BD_RES_15_damage_to_both_players():
    empty = [op("MOVE", n=10, from_zone="LIFE", to_zone="DECK", face="DOWN", player=p) for p in (A, B)]
    both = op("DAMAGE_PLAYER", players=[B, A], n=1)  # §15: one effect that damages both
    out = accepted(to_main() + [ops(*empty), ops(both)]).outcome()
    assert (out.status, out.winner, out.reason) == ("drawn", None, "simultaneous_loss")
    out = accepted(to_main(options={"simultaneous_loss_result": "TURN_PLAYER_WINS"}) + [ops(*empty), ops(both)]).outcome()
    assert (out.status, out.winner) == ("won", A)
    m = accepted(to_main() + [ops(*empty[1:]), ops(both)])  # only bob's life is empty: alice's damage runs first
    d = view(m)
    assert d["damage"]["victim"] == A and d["result"] is None
    m = accepted(to_main() + [ops(*empty[1:]), ops(both), ev("life_check", A, victim=A, card_name="PLN")])
    assert view(m)["result"] == {"winner": A, "reason": "zero_life_damage", "detail": "bob takes a point of damage with no life card left (point 1)"}
    assert view(m)["players"][A]["life"] == 9
    # two ops are two effects, in their order: bob loses alone at the first (BD-OVR-8), as two DRAW ops do (BD-EX-10d)
    two = [op("DAMAGE_PLAYER", player=B, n=1), op("DAMAGE_PLAYER", player=A, n=1)]
    out = accepted(to_main() + [ops(*empty), ops(*two)]).outcome()
    assert (out.status, out.winner, out.reason) == ("won", A, "zero_life_damage")


def test_BD_RES_15_damage_to_both_players_without_trigger_checks_names_the_removed_cards():
    lines = to_main(options={"effect_damage_trigger_checks": False})
    m = accepted(lines + [ops(op("DAMAGE_PLAYER", players=[B, A], n=2, names=["PLN", "U2k", "BST", "U3k"]))])
    d = view(m)  # the turn player's cards first (BD-RES-15), named in the order they are removed; no checks (BD-RUL-7)
    assert (d["players"][A]["life"], d["players"][A]["graveyard"]) == (8, ["PLN", "U2k"])
    assert (d["players"][B]["life"], d["players"][B]["graveyard"]) == (8, ["BST", "U3k"])
    assert d["damage"] is None and d["result"] is None
    m = accepted(lines + [ops(op("DAMAGE_PLAYER", player=B, n=2, names=["PLN"]))])
    assert view(m)["players"][B]["graveyard"] == ["PLN", "(unrevealed life card)"]
    v = refused(lines + [ops(op("DAMAGE_PLAYER", player=B, n=1, names=["U6k"]))])  # bob's deck holds no U6k
    assert (v.rule, v.code) == ("BD-HID-5", "UNKNOWN_IDENTITY")
    v = refused(lines + [ops(op("DAMAGE_PLAYER", player=B, n=1, names=["PLN", "PLN"]))])
    assert (v.rule, v.code) == ("BD-ACT-27", "BAD_OP") and "2 names for 1 life card(s)" in v.message
    v = refused(to_main() + [ops(op("DAMAGE_PLAYER", player=B, n=1, names=["PLN"]))])
    assert (v.rule, v.code) == ("BD-ACT-27", "BAD_OP") and "life_check" in v.message


@pytest.mark.parametrize("fields,says", [
    ({"player": B, "players": [A, B]}, "DAMAGE_PLAYER takes `player`, or `players` for one effect that damages both (§15), not both"),
    ({}, "DAMAGE_PLAYER takes `player`, or `players` for one effect that damages both (§15), not neither"),
    ({"players": [B, B]}, "DAMAGE_PLAYER `players` names both players, each once, not ['bob', 'bob']"),
])
def test_section_15_DAMAGE_PLAYER_takes_player_or_players(fields, says):
    from adjudicator.engine.protocol import Malformed

    with pytest.raises(Malformed) as caught:
        run(to_main() + [ops(op("DAMAGE_PLAYER", n=1, **fields))])
    assert caught.value.message == f"judge_ops: {says}" and caught.value.path.endswith("$.ops[0]")


def test_BD_ACT_20_the_block_decision_waits_for_the_resolution_zone():
    lines = to_main(a=["U5k"], b=["QCMD"]) + [ops(field("U5k")), ev("advance_phase", A),
                                              ev("declare_attack", A, attacker="U5k", target=B)]
    lines += [ev("play_card", B, card="QCMD", payment=[{"energy": "PLN", "as": "WHITE"}])]
    v = refused(lines + [ev("no_block", B)])
    assert (v.rule, v.code) == ("BD-ACT-20", "NOT_NOW") and "resolve before the block decision" in v.message
    m = accepted(lines + [ev("resolve_top", "judge", ops=[]), ev("no_block", B)])
    assert view(m)["damage"]["waiting"] == "REVEAL"


def test_a_trigger_resolved_inside_the_damage_recomputes_the_total():
    lines = attack(attacker="U7k") + [ev("no_block", B), ev("life_check", B, victim=B, card_name="PLN"),
                                      ev("trigger", "judge", source="U7k", ability_id="on-damage", controller=A)]
    m = accepted(lines + [ev("resolve_top", "judge", ops=[op("MODIFY_STAT", unit="U7k", stat="HIT", delta=-2)])])
    d = view(m)
    assert d["damage"] is None and d["attack"] is None and d["players"][B]["life"] == 9  # total 1, dealt 1: over


def test_BD_RUL_6_an_attacker_that_leaves_and_returns_does_not_resume():
    lines = attack(attacker="U7k") + [ev("no_block", B)]
    leave_and_return = [op("DESTROY", unit="U7k"), op("PUT_ONTO_FIELD", card="U7k", from_zone="GRAVEYARD", player=A)]
    m = accepted(lines + [ev("judge_ops", "judge", ops=leave_and_return, note="bounced and back")])
    d = view(m)
    assert d["damage"] is None and d["attack"] is None and d["players"][B]["life"] == 10
    assert d["players"][A]["field"] == [{"name": "U7k", "ref": "U7k", "instance": "alice:U7k#2", "power": 7000, "hit": 3, "damage": 0,
                                         "standing": True, "modifiers": [], "statuses": []}]  # a new instance, numbered anew (§15)


def test_BD_RES_3_strict_priority():
    from adjudicator.games.builddivide import GAME

    from tests.builddivide.helpers import opening

    both = [ev("pass", A, player=A), ev("pass", B, player=B)]
    strict = opening(options={"strict_priority": True}, b=["QCMD"]) + both + [ev("advance_phase", A)] + both + [ev("advance_phase", A)]
    v = refused(strict + [ev("advance_phase", A)])
    assert (v.rule, v.code) == ("BD-RES-3", "NOT_PASSED")
    v = refused(strict + [ev("play_card", B, card="QCMD", payment=[{"energy": "PLN", "as": "WHITE"}])])
    assert (v.rule, v.code) == ("BD-RES-3", "NO_PRIORITY")
    assert refused(strict + [ev("pass", B, player=B)]).code == "NO_PRIORITY"
    lines = strict + [ev("pass", A, player=A), ev("play_card", B, card="QCMD", payment=[{"energy": "PLN", "as": "WHITE"}])]
    v = refused(lines + [ev("resolve_top", "judge", ops=[])])
    assert v.code == "NOT_PASSED"
    m = accepted(lines + [ev("pass", A, player=A), ev("pass", B, player=B), ev("resolve_top", "judge", ops=[])])
    assert view(m)["resolution_zone"] == [] and view(m)["players"][B]["graveyard"] == ["QCMD"]
    assert [a.type for a in GAME.legal(m.state) if a.type == "pass"] == ["pass"]
    assert view(accepted(strict))["phase"] == "MAIN"
    v = refused(to_main() + [ev("pass", A, player=A)])
    assert (v.rule, v.code) == ("BD-ACT-16", "NOT_TRACKED")


def test_legal_offers_abilities_of_cards_on_the_table():
    from adjudicator.games.builddivide import GAME
    from tests.builddivide.helpers import catalog, clone

    cat = catalog(clone("U2k", "ABL", abilities=[{"id": "a1", "kind": "ACTIVATED", "timing": "NORMAL", "note": "draw"},
                                                 {"id": "t1", "kind": "AUTOMATIC", "timing": "NORMAL", "note": "on attack"}]))
    m = accepted(to_main(cat=cat, a=["ABL"]) + [ops(field("ABL"))])
    offered = {(a.who, a.type, a.choices["ability_id"].values[0]) for a in GAME.legal(m.state) if a.type in ("trigger", "activate_ability")}
    assert offered == {(A, "activate_ability", "a1"), (A, "trigger", "t1")}
    m = accepted(to_main(cat=cat, a=["ABL"]) + [ops(field("ABL")), ev("activate_ability", A, source="ABL", ability_id="a1")])
    assert view(m)["resolution_zone"][0]["ability_id"] == "a1"
    v = refused(to_main(cat=cat, a=["ABL"]) + [ops(field("ABL")), ev("activate_ability", A, source="ABL", ability_id="t1")])
    assert (v.rule, v.code) == ("BD-ACT-14", "NO_ABILITY")


def test_BD_HID_5_a_card_from_the_D_deck_is_checked_against_the_D_deck_list_and_may_then_be_placed():
    from tests.builddivide.helpers import deck, setup, started

    a = {**deck(), "d_deck": ["U6k", "ACE2"]}
    lines = [started({A: a, B: deck()})] + setup() + [ev("advance_phase", A), ev("advance_phase", A)]
    v = refused(lines + [ops(op("MOVE", card="U7k", from_zone="D_DECK", to_zone="HAND", player=A))])
    assert (v.rule, v.code) == ("BD-ACT-27", "BAD_OP") and "'U7k' is not in alice's D_DECK" in v.message
    lines.append(ops(op("MOVE", card="U6k", from_zone="D_DECK", to_zone="HAND", player=A)))
    d = view(accepted(lines))["players"][A]
    assert (d["hand"], d["d_deck"]) == (["?"] * 5 + ["U6k"], ["ACE2"])
    d = view(accepted(lines + [ev("place_energy", A, card="U6k")]))["players"][A]
    assert ([e["name"] for e in d["energy"]], d["hand_count"], d["energy_placed_this_turn"]) == (["PLN", "U1k", "U6k"], 5, True)


def test_BD_LIM_12_a_unit_of_no_power_is_destroyed_as_it_resolves():
    """The state checks follow a resolution: a unit whose power is 0 enters the field and goes to
    the graveyard at once; the unit already there stays."""
    from tests.builddivide.helpers import catalog, clone

    cat = catalog(clone("PLN", "ZERO", power=0))
    play = ev("play_card", A, card="ZERO", payment=[{"energy": "PLN", "as": "WHITE"}])
    m = accepted(to_main(a=["ZERO"], cat=cat) + [ops(field("U5k")), play, ev("resolve_top", "judge", ops=[])])
    p = view(m)["players"][A]
    assert [u["name"] for u in p["field"]] == ["U5k"] and p["graveyard"] == ["ZERO"]
    m = accepted(to_main(a=["ZERO"], cat=cat) + [ops(field("U5k")), ev("play_card", A, card="U1k", payment=[{"energy": "U1k", "as": "RED"}]),
                                                  ev("resolve_top", "judge", ops=[])])
    assert [u["name"] for u in view(m)["players"][A]["field"]] == ["U5k", "U1k"]
