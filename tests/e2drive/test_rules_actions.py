"""Attacks, cards, effects, change, revival and overdrive rules that the worked examples do not
refuse: each with the exact rule ID, code and the figures after (E2D-ACT-5, -15, -16, -19…39,
E2D-EFF-*, E2D-LIM-12, -15)."""

from __future__ import annotations

from tests.e2drive.builder import ev, pay
from tests.e2drive.harness import PAWNS, table
from tests.e2drive.golden_kit import acted, dcard, destroy, dmg, je, status


def sigma_acting():
    """P1.S1 F-Sigma (SPD 50) acts; everyone else is a pawn."""
    return table(["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)


def test_E2D_ACT_15_attack_sender_and_target_side():
    t = sigma_acting()
    v = t.refuse(ev("attack", "P2", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-15", "NOT_ACTOR")
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P1.S2", payment=pay("P1.S1", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-15", "BAD_TARGET")
    v = t.refuse(ev("attack", "P1", attacker="P1.S2", target="P2.S1", payment=pay("P1.S2", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-15", "NOT_ACTING")


def test_E2D_ACT_5_a_destroyed_target():
    t = sigma_acting()
    t.enter(je(destroy("P2.S1")))
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-5", "DESTROYED")
    v = t.refuse(je(dmg("P2.S1", 10)))
    assert v.rule_id == "E2D-ACT-5"


def test_E2D_ACT_3_attack_from_another_own_servant_pool():
    t = sigma_acting()
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S2", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-3", "PAYMENT_POOL")


def test_E2D_ACT_16_coin_only_when_awaited():
    t = sigma_acting()
    v = t.refuse(ev("coin", result="heads"))
    assert (v.rule_id, v.code) == ("E2D-ACT-16", "NOT_WAITING")
    v = t.refuse(ev("coin", "P1", result="heads"))
    assert (v.rule_id, v.code) == ("E2D-ACT-16", "NOT_ACTOR")


def test_E2D_ACT_6_only_answers_while_a_decision_is_pending():
    t = sigma_acting()
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    v = t.refuse(ev("end_action", "P1", servant="P1.S1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-6", "PENDING")
    t.enter(ev("defense", "P2", defend=False, payment=[]))
    assert t.sv("P2.S1")["damage"] == 40 and t.sv("P1.S1")["action"] == "acted"


def test_E2D_ACT_19_play_tool_by_the_active_player_only():
    t = sigma_acting()
    v = t.refuse(ev("play_tool", "P2", card="F-Tool-1", payment=pay("P2.M", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-19", "NOT_ACTOR")
    v = t.refuse(ev("play_tool", "P1", card="F-Nothing", payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-19", "NOT_TOOL")
    t.enter(ev("play_tool", "P1", card="F-Tool-1", payment=pay("P1.S1", 1)))
    assert t.pl("P1")["trash"] == ["F-Tool-1"] and t.pl("P1")["hand"] == 5 and t.sv("P1.S1")["ether"]["on"] == 1


def test_E2D_ACT_21_only_declared_field_tools_in_the_own_tool_field():
    t = sigma_acting()
    v = t.refuse(ev("activate_field_tool", "P1", card="F-Field-D", payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-21", "NOT_DECLARABLE")
    t.enter(ev("play_tool", "P1", card="F-Field-D", payment=pay("P1.M", 1)))
    t.enter(ev("activate_field_tool", "P1", card="F-Field-D", payment=pay("P1.S1", 1),
               ops=[{"op": "DAMAGE", "servant": "P2.S1", "n": 20}]))
    assert t.sv("P2.S1")["damage"] == 20 and t.sv("P1.S1")["ether"]["on"] == 1


def test_E2D_ACT_22_use_effect_only_in_its_own_action():
    t = sigma_acting()
    v = t.refuse(ev("use_effect", "P1", servant="P1.S2", payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-22", "NOT_ACTING")
    t.enter(ev("use_effect", "P1", servant="P1.S1", payment=pay("P1.S1", 2),
               ops=[{"op": "MODIFY", "servant": "P1.S1", "stat": "ATK", "delta": 20, "duration": "end_of_turn"}]))
    assert t.sv("P1.S1")["ATK"] == 60 and t.sv("P1.S1")["ether"]["on"] == 2


def test_E2D_ACT_39_and_E2D_EFF_3_and_E2D_EFF_6_judge_effects():
    t = sigma_acting()
    v = t.refuse(dict(je(dmg("P2.S1", 10)), by="P1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-39", "NOT_ACTOR")
    v = t.refuse(je(dmg("P2.S1", 15)))
    assert (v.rule_id, v.code) == ("E2D-EFF-3", "NOT_TENS")
    v = t.refuse(je(dmg("P2.S1", 10), overrides=["E2D-LIM-4"]))
    assert (v.rule_id, v.code) == ("E2D-EFF-6", "NO_SOURCE")


def test_E2D_LIM_12_a_destroyed_servant_ether_stays_off():
    t = sigma_acting()
    t.enter(je(destroy("P2.S2")))
    v = t.refuse(je({"op": "ETHER", "pool": "P2.S2", "n": 1, "state": "on"}))
    assert (v.rule_id, v.code) == ("E2D-LIM-12", "DESTROYED")
    v = t.refuse(je({"op": "ETHER", "pool": "P2.M", "n": 3, "state": "on"}))
    assert (v.rule_id, v.code) == ("E2D-LIM-12", "ETHER")


def test_E2D_LIM_15_invisibility_needs_a_unit_to_hold():
    t = sigma_acting()
    t.enter(je({"op": "ETHER", "pool": "P2.S1", "n": 3, "state": "on", "hold": True}))
    v = t.refuse(je(status("P2.S1", "invisible")))
    assert (v.rule_id, v.code) == ("E2D-LIM-15", "NO_UNIT")


def test_E2D_ACT_25_forced_revival_when_pending_only():
    t = sigma_acting()
    v = t.refuse(ev("forced_revival", "P2", servant="P2.S1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-25", "NOT_WAITING")
    t.enter(je(destroy("P2.S1"), destroy("P2.S2"), destroy("P2.S3")))
    assert t.g.forced_revival == ("P2",)
    v = t.refuse(ev("end_action", "P1", servant="P1.S1"))
    assert v.rule_id == "E2D-ACT-6"
    t.enter(ev("forced_revival", "P2", servant="P2.S2"))
    assert t.pl("P2")["damage_cards"] == 1 and t.pl("P2")["deck"] == 23 and t.sv("P2.S2")["destroyed"] is False


def test_E2D_ACT_26_overdrive_of_the_acting_servant_only():
    t = sigma_acting()
    t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2")))
    t.enter(je(destroy("P1.S3")))
    v = t.refuse(ev("overdrive", "P2", servant="P2.S1", payment=pay("P2.M", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-26", "NOT_ACTOR")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.S1", 1), params={"choices": ["ATK"]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-3", "PAYMENT_POOL")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={"choices": ["POW"]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-33", "PARAMS")


def test_E2D_ACT_26_not_acting_in_limited_state():
    t = table(["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)
    t.enter(je(dcard("P2"), dcard("P2"), dcard("P2"), destroy("P2.S2"), destroy("P2.S3")))
    v = t.refuse(ev("overdrive", "P2", servant="P2.S1", payment=pay("P2.M", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-26", "NOT_ACTOR")  # P2 is limited but not the active player
    t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3")))
    v = t.refuse(ev("overdrive", "P1", servant="P2.S1", payment=pay("P1.M", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-26", "NOT_ACTING")


def limited_as(kind: str):
    card = {"type": kind, "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    t = table(["F-X"] + PAWNS, ["F-Pawn-3"] + PAWNS, servants={"F-X": card})
    t.enter(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3")))
    return t


def test_E2D_ACT_31_locks_need_off_units_of_the_opponent():
    t = limited_as("Etherizer")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 3), params={"locks": [{"pool": "P2.M", "n": 3}]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-31", "PARAMS")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={"locks": [{"pool": "P1.M", "n": 1}]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-31", "PARAMS")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"locks": [{"pool": "P2.M", "n": 1}]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-31", "PARAMS")


def test_E2D_ACT_32_junker_choices():
    t = limited_as("Junker")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"choices": ["self_draw"]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-32", "PARAMS")
    v = t.refuse(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={"choices": ["opp_discard"]}))
    assert (v.rule_id, v.code) == ("E2D-ACT-32", "PARAMS")  # P2 holds cards: the discarded card is named
    t.enter(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2),
               params={"choices": ["self_draw", {"kind": "opp_discard", "card": "F-Gear"}]}))
    assert t.pl("P1")["hand"] == 7 and t.pl("P2")["hand"] == 5 and t.pl("P2")["trash"] == ["F-Gear"]


def test_E2D_ACT_23_change_needs_a_servant_card():
    t = sigma_acting()
    v = t.refuse(ev("change", "P1", out="P1.S2", in_card="F-Tool-1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-23", "NOT_SERVANT")
    t.enter(ev("change", "P1", out="P1.S2", in_card="F-Kappa"))
    assert t.sv("P1.S2")["name"] == "F-Kappa" and t.sv("P1.S2")["action"] == "unacted"
    assert t.pl("P1")["damage_cards"] == 1 and t.pl("P1")["trash"] == ["F-Pawn-1"]


def test_E2D_ACT_24_revive_by_the_active_player():
    t = sigma_acting()
    t.enter(je(destroy("P2.S2")))
    v = t.refuse(ev("revive", "P2", servant="P2.S2"))
    assert (v.rule_id, v.code) == ("E2D-ACT-24", "NOT_ACTOR")


def test_acted_servants_and_ATK_limit_E2D_LIM_2():
    t = sigma_acting()
    t.enter(je(acted("P1.S2")))
    v = t.refuse(ev("attack", "P1", attacker="P1.S2", target="P2.S1", payment=pay("P1.S2", 1)))
    assert (v.rule_id, v.code) == ("E2D-LIM-2", "NO_ATK")


def test_an_attack_whose_target_an_effect_destroys_ends_void():
    t = sigma_acting()
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    t.enter(je(destroy("P2.S1"), source="F-Quick-1"))
    assert t.g.attack is None and t.sv("P1.S1")["action"] == "acted" and t.sv("P2.S1")["damage"] == 0
    assert t.g.tie is not None  # the pawns tie at SPD 10 across players: a coin is due
    v = t.refuse(ev("defense", "P2", defend=False, payment=[]))
    assert (v.rule_id, v.code) == ("E2D-ACT-6", "PENDING")


def test_effect_priority_E2D_RES_13_and_E2D_RES_14_set_conflicts():
    t = sigma_acting()  # F-Sigma printed ATK 40
    set_atk = lambda v: {"op": "SET", "servant": "P1.S1", "stat": "ATK", "value": v, "duration": "end_of_turn"}  # noqa: E731
    t.enter(je(set_atk(90), source="F-Field-D"))  # field tool: rank 5
    t.enter(je(set_atk(10), source="F-Quick-1"))  # quick tool: rank 2 wins
    assert t.sv("P1.S1")["ATK"] == 10
    t.enter(je(set_atk(70), source="F-Quick-1"))  # same rank, another value: both rank-2 SETs cancel, rank 5 applies
    assert t.sv("P1.S1")["ATK"] == 90
    t.enter(je({"op": "MODIFY", "servant": "P1.S1", "stat": "ATK", "delta": 20, "duration": "end_of_turn"}))
    assert t.sv("P1.S1")["ATK"] == 110  # additive modifiers never conflict (E2D-EFF-5)


def test_effect_priority_E2D_EFF_5_restrict_and_permit():
    t = sigma_acting()
    t.enter(je({"op": "RESTRICT", "subject": "P1.S1", "action": "attack"}, source="F-Tool-1"))  # rank 3
    v = t.refuse(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    assert (v.rule_id, v.code) == ("E2D-ACT-15", "RESTRICTED")
    t.enter(je({"op": "PERMIT", "subject": "P1.S1", "action": "attack"}, source="F-Tool-3"))  # rank 3 too: both ignored
    t.enter(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    assert t.g.attack is not None
    t2 = sigma_acting()
    t2.enter(je({"op": "PERMIT", "subject": "P1.S1", "action": "end_action"}, source="F-Field-D"))  # rank 5
    t2.enter(je({"op": "RESTRICT", "subject": "P1.S1", "action": "end_action"}, source="P2.S1"))  # servant: rank 6
    t2.enter(ev("end_action", "P1", servant="P1.S1"))  # the field tool's PERMIT outranks the passive
    assert t2.sv("P1.S1")["action"] == "acted"
    t3 = sigma_acting()
    t3.enter(je({"op": "RESTRICT", "subject": "P1.S1", "action": "end_action"}, source="F-Quick-1"))
    v = t3.refuse(ev("end_action", "P1", servant="P1.S1"))
    assert (v.rule_id, v.code) == ("E2D-ACT-34", "RESTRICTED")
