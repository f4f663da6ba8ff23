"""House-rule options (E2D-STATE-7) and what each viewer sees (E2D-HID-1, -5), board and explain."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.engine.kit import HIDDEN
from adjudicator.engine.protocol import Malformed
from tests.e2drive.builder import ev, pay, started
from tests.e2drive.harness import GAME, PAWNS, Table, table
from tests.e2drive.golden_kit import acted, dcard, destroy, dmg, je, status

SIGMA = ["F-Sigma"] + PAWNS
OPP = ["F-Pawn-3"] + PAWNS


def test_games_per_match_must_be_odd():
    with pytest.raises(Malformed) as exc:
        Table(started(options={"games_per_match": 2}))
    assert exc.value.path == "$.options.games_per_match"


def test_atk_may_target_own():
    t = table(SIGMA, OPP, options={"atk_may_target_own": True})
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P1.S2", payment=pay("P1.S1", 1)))
    t.enter(ev("defense", "P1", defend=False, payment=[]))
    assert t.sv("P1.S2")["damage"] == 40


def test_quick_tools_in_attack_window_E2D_RUL_28():
    t = table(SIGMA, OPP, options={"quick_tools_in_attack_window": True})
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(ev("play_quick_tool", "P2", card="F-Quick-1", payment=pay("P2.M", 1),
               ops=[{"op": "MODIFY", "servant": "P2.S1", "stat": "DEF", "delta": 30, "duration": "end_of_turn"}]))
    t.enter(ev("defense", "P2", defend=True, payment=pay("P2.S1", 1)))
    assert t.sv("P2.S1")["damage"] == 10 and t.sv("P1.S1")["damage"] == 10  # ATK 40 − DEF 40 = 0: both 10D


def test_def_evade_may_use_master_false():
    t = table(SIGMA, OPP, options={"def_evade_may_use_master": False})
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    v = t.refuse(ev("defense", "P2", defend=True, payment=pay("P2.M", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-3", "PAYMENT_POOL")


def test_change_and_revive_action_state_options():
    t = table(SIGMA, OPP, options={"change_action_state": "unacted", "revive_action_state": "unacted"})
    t.enter(je(acted("P1.S2"), destroy("P1.S3")))
    t.enter(ev("change", "P1", out="P1.S2", in_card="F-Kappa"))
    assert t.sv("P1.S2")["action"] == "unacted"
    t.enter(je(acted("P1.S3")))
    t.enter(ev("revive", "P1", servant="P1.S3"))
    assert t.sv("P1.S3")["action"] == "unacted" and t.pl("P1")["damage_cards"] == 2


def test_until_targeted_counts_own_actions_false():
    t = table(SIGMA, OPP, options={"until_targeted_counts_own_actions": False})
    t.enter(je({"op": "MODIFY", "servant": "P1.S1", "stat": "DEF", "delta": 20, "duration": "until_targeted"}))
    t.enter(ev("play_tool", "P1", card="F-Tool-1", payment=pay("P1.M", 1), targets=["P1.S1"]))
    assert t.sv("P1.S1")["DEF"] == 40
    t2 = table(SIGMA, OPP)
    t2.enter(je({"op": "MODIFY", "servant": "P1.S1", "stat": "DEF", "delta": 20, "duration": "until_targeted"}))
    t2.enter(ev("play_tool", "P1", card="F-Tool-1", payment=pay("P1.M", 1), targets=["P1.S1"]))
    assert t2.sv("P1.S1")["DEF"] == 20  # E2D-RES-11: ended by the own action's targeting


def test_invisible_spd_mode_fixed_E2D_RUL_25():
    t = table(SIGMA, OPP, options={"invisible_spd_mode": "fixed"})
    t.enter(je(status("P2.S1", "invisible"), status("P2.S1", "wait")))
    assert t.sv("P2.S1")["SPD"] == 10
    t2 = table(SIGMA, OPP)
    t2.enter(je(status("P2.S1", "invisible"), status("P2.S1", "wait")))
    assert t2.sv("P2.S1")["SPD"] == -10


def test_simultaneous_loss_both_lose_and_turn_limit():
    t = table(SIGMA, OPP, options={"simultaneous_loss": "both_lose"}, turn=False)
    t.enter(je({"op": "DRAW", "player": "P1", "n": 25}, {"op": "DRAW", "player": "P2", "n": 25}))
    t.enter(ev("start_turn"))
    out = GAME.outcome(t.state)
    assert (out.status, out.reason, out.detail) == ("drawn", "simultaneous", "both players lose")
    t = table(SIGMA, OPP, options={"turn_limit": 1})
    t.enter(je(*[acted(r) for r in ("P1.S2", "P1.S3", "P2.S1", "P2.S2", "P2.S3")]))
    t.enter(ev("end_action", "P1", servant="P1.S1"))
    t.enter(ev("end_turn"))
    out = GAME.outcome(t.state)
    assert (out.status, out.reason) == ("drawn", "turn_limit")


def slicer(options=None):
    card = {"type": "Slicer", "DUR": 50, "ATK": 30, "DEF": 10, "SPD": 60}
    t = table(["F-X"] + PAWNS, OPP, servants={"F-X": card}, options=options)
    t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3")))
    t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={}))
    return t


def test_slicer_extra_scope_pool_E2D_RUL_10():
    t = slicer({"slicer_extra_scope": "pool"})
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(ev("defense", "P2", defend=False, payment=[]))
    assert t.sv("P1.S1")["action"] == "acting"
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=[]))
    t.enter(ev("defense", "P2", defend=False, payment=[]))
    s1 = t.sv("P1.S1")
    assert (s1["action"], s1["atk_count"], s1["extra_atk_allowance"]) == ("acted", 2, 0)  # its one extra used up


def slicer_atk(t, target: str, payment: list) -> dict:
    t.enter(ev("attack", "P1", attacker="P1.S1", target=target, payment=payment))
    t.enter(ev("defense", "P2", defend=False, payment=[]))
    s1 = t.sv("P1.S1")
    return {"action": s1["action"], "atk_count": s1["atk_count"], "X": s1["extra_atk_allowance"]}


def next_turn_slicer_acts(t) -> None:
    """The other servants have acted, the turn ends and the next begins: the Slicer, fastest,
    acts first again; nothing targeted it, so its overdrive lasts."""
    assert t.g.acting is None and t.sv("P1.S1")["action"] == "acted"
    t.enter(je(acted("P2.S1"), acted("P2.S2"), acted("P2.S3")))
    t.enter(ev("end_turn"))
    t.enter(ev("start_turn"))
    assert t.g.acting == "P1.S1"


def test_slicer_pool_X_is_a_stock_and_atk_count_counts_the_action_E2D_RUL_10():
    t = slicer({"slicer_extra_scope": "pool"})
    t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={}))  # X = 2 in all
    assert t.sv("P1.S1")["extra_atk_allowance"] == 2
    # 1 + 2 ATKs in this action; each one beyond the first lowers X for good; atk_count counts them all
    assert slicer_atk(t, "P2.S1", pay("P1.S1", 1)) == {"action": "acting", "atk_count": 1, "X": 2}
    assert slicer_atk(t, "P2.S2", []) == {"action": "acting", "atk_count": 2, "X": 1}
    assert slicer_atk(t, "P2.S3", []) == {"action": "acted", "atk_count": 3, "X": 0}
    assert t.g.acting is None  # the action ended with its third ATK (bob now picks among his tied servants)
    assert [t.sv(r)["damage"] for r in ("P2.S1", "P2.S2", "P2.S3")] == [30, 30, 30]
    next_turn_slicer_acts(t)
    assert (t.sv("P1.S1")["SPD"], t.sv("P1.S1")["extra_atk_allowance"]) == (80, 0)  # the SPD bonus lasts, X is spent
    assert slicer_atk(t, "P2.S1", pay("P1.S1", 1)) == {"action": "acted", "atk_count": 1, "X": 0}


def test_slicer_per_action_X_serves_every_action_while_it_lasts_E2D_RUL_10():
    t = slicer()  # slicer_extra_scope = per_action (default)
    t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={}))  # X = 2
    assert slicer_atk(t, "P2.S1", pay("P1.S1", 1)) == {"action": "acting", "atk_count": 1, "X": 2}
    assert slicer_atk(t, "P2.S2", []) == {"action": "acting", "atk_count": 2, "X": 2}
    assert slicer_atk(t, "P2.S3", []) == {"action": "acted", "atk_count": 3, "X": 2}
    next_turn_slicer_acts(t)
    # a new action: the first ether-consuming ATK costs 1e again, later ones 0e
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-2", "PAYMENT")
    assert slicer_atk(t, "P2.S1", pay("P1.S1", 1)) == {"action": "acting", "atk_count": 1, "X": 2}
    assert slicer_atk(t, "P2.S2", []) == {"action": "acting", "atk_count": 2, "X": 2}


def test_slicer_void_atk_counts_but_leaves_the_1e_due_E2D_RUL_10():
    t = slicer()  # X = 1
    t.enter(je(status("P2.S1", "invisible")))
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(ev("coin", result="tails"))  # void: no ether consumed
    s1 = t.sv("P1.S1")
    assert (s1["action"], s1["atk_count"], s1["atk_paid"], s1["ether"]["on"]) == ("acting", 1, False, 0)
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-2", "PAYMENT")  # the 1e is still due
    assert slicer_atk(t, "P2.S2", pay("P1.S1", 1)) == {"action": "acted", "atk_count": 2, "X": 1}


def test_blocker_reflection_without_def_when_not_required():
    kappa = {"type": "Blocker", "DUR": 90, "ATK": 30, "DEF": 50, "SPD": 10}
    t = table(SIGMA, ["F-K"] + PAWNS, servants={"F-K": kappa}, options={"blocker_reflect_requires_def": False})
    t.enter(je(dcard("P2"), dcard("P2"), dcard("P2"), destroy("P2.S2"), destroy("P2.S3")))
    t.enter(ev("end_action", "P1", servant="P1.S1"))
    t.enter(je(acted("P1.S2"), acted("P1.S3")))
    t.enter(ev("overdrive", "P2", servant="P2.S1", payment=pay("P2.M", 1), params={}))
    t.enter(ev("end_action", "P2", servant="P2.S1"))
    t.enter(ev("end_turn"))
    t.enter(ev("start_turn"))
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(ev("defense", "P2", defend=False, payment=[]))
    assert t.sv("P2.S1")["damage"] == 40 and t.sv("P1.S1")["damage"] == 20  # DEF 60 − ATK 40 reflected


def test_etherizer_discount_requires_activation():
    eth = {"type": "Etherizer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    t = table(["F-X"] + PAWNS, OPP, servants={"F-X": eth}, options={"etherizer_discount_requires_activation": True})
    t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3")))
    v = t.refuse(ev("play_tool", "P1", card="F-Tool-3", payment=pay("P1.M", 2)))
    assert (v.rule_id, v.code) == ("E2D-ACT-2", "PAYMENT")
    t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={"locks": [{"pool": "P2.M", "n": 1}]}))
    t.enter(ev("play_tool", "P1", card="F-Tool-3", payment=pay("P1.M", 2)))
    assert t.pl("P1")["master"]["on"] == 3


def test_a_face_down_servant_is_hidden_from_the_opponent_only_E2D_HID_1():
    t = table(["F-Shade"] + PAWNS, OPP, turn=False)
    judge, mine, theirs = t.view(), t.view("P1"), t.view("P2")
    assert judge["servants"]["P1.S1"]["name"] == "F-Shade" and judge["servants"]["P1.S1"]["SPD"] == 10
    assert mine["servants"]["P1.S1"]["ATK"] == 50
    assert {k: theirs["servants"]["P1.S1"][k] for k in ("card", "name", "type", "ATK", "DEF", "DUR", "SPD")} == {
        "card": HIDDEN, "name": HIDDEN, "type": HIDDEN, "ATK": HIDDEN, "DEF": HIDDEN, "DUR": HIDDEN, "SPD": 10}
    assert list(theirs["registrations"]) == ["P2"] and theirs["player"]["P1"]["damage_card_ids"] == HIDDEN
    board = msgspec.to_builtins(GAME.board(t.state, "P2"))
    shade = board["zones"][0]["cards"][0]
    assert shade["id"] is None and shade["face_up"] is False and "ATK" not in shade["counters"]


def test_draw_identities_are_the_drawer_s_own():
    fields = {"draws": {"P1": ["F-Gear"], "P2": ["F-Mu"]}}
    assert GAME.redact("game_started", "judge", fields, "P1", ("P1", "P2")) == {"draws": {"P1": ["F-Gear"], "P2": HIDDEN}}
    assert GAME.redact("game_started", "judge", fields, None, ("P1", "P2")) == fields


def test_explain_an_attack_with_and_without_def():
    t = table(SIGMA, ["F-Kappa"] + PAWNS)
    t.enter(je(status("P2.S1", "heat"), dmg("P2.S1", 20)))
    out = GAME.explain(t.state, {"a": "P1.S1", "b": "P2.S1"})
    cases = out["attack"]["cases"]
    assert cases["with_def"]["target_damage"] == 20 and cases["with_def"]["target_destroyed"] is True  # DEF 20, DUR 30
    assert cases["without_def"]["target_damage"] == 40 and cases["without_def"]["attacker_damage"] == 0
    assert "heat: DUR, ATK, DEF −10 (E2D-LIM-17)" in out["attack"]["target"]["why"]
    assert out["order"]["acting"] == "P1.S1"
    with pytest.raises(Malformed):
        GAME.explain(t.state, {"unit": "P3.S1"})


def test_overdrive_effects_end_with_the_limited_state_when_the_flag_says_so_E2D_RUL_15():
    for survive, atk in ((True, 60), (False, 50)):
        t = table(["F-Alpha"] + PAWNS, OPP, options={"overdrive_effects_survive_limited_exit": survive})
        t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3")))
        t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={}))
        assert t.sv("P1.S1")["ATK"] == 60
        t.enter(je({"op": "REVIVE", "servant": "P1.S2", "with_damage_card": False}, source="F-Tool-1"))
        assert t.pl("P1")["limited"] is False and t.sv("P1.S1")["ATK"] == atk


def test_registrations_are_sealed_from_the_opponent_in_the_log_E2D_HID_5():
    fields = {"registrations": {"alice": {"deck": ["F-Gear"], "servants": ["F-Alpha"]},
                                "bob": {"deck": ["F-Mu"], "servants": ["F-Beta"]}}, "players": ["alice", "bob"]}
    seen = GAME.redact("match_started", "judge", fields, "bob", ("alice", "bob"))
    assert seen["registrations"] == {"alice": HIDDEN, "bob": {"deck": ["F-Mu"], "servants": ["F-Beta"]}}
    assert GAME.redact("match_started", "judge", fields, "judge", ("alice", "bob")) == fields
