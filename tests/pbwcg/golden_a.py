"""Golden matches for the worked examples EX-1 .. EX-12 of rules/pbwcg.md §13 (written by
``python -m tests.pbwcg.make_golden``). Every figure in a checkpoint is the chapter's."""

from __future__ import annotations

from tests.pbwcg.builder import Table

TIE_B1_A2 = {"members": ["A2", "B1"], "assignment": {"A2": [1, 2, 3], "B1": [4, 5, 6]}, "rolls": [5], "order": ["B1", "A2"]}
TIE_A2_B1 = {"members": ["A2", "B1"], "assignment": {"A2": [1, 2, 3], "B1": [4, 5, 6]}, "rolls": [2], "order": ["A2", "B1"]}
P1_FILL = [f"P1F{i:02d}" for i in range(1, 23)]


def p1_draw(*cards: str) -> list[str]:
    return (list(cards) + [c for c in P1_FILL if c not in cards])[:5]


def ex01() -> Table:
    t = Table()
    t.act("initial_pcs_placed", "P1", player="P1", pcs=["A1", "A2"])
    t.act("initial_pcs_placed", "P2", player="P2", pcs=["B1", "B2"])
    t.checkpoint("initial PCs placed", {"players": {"P1": {"deck_count": 36, "pcs": {"1": "A1", "3": "A2"}},
                                                     "P2": {"deck_count": 38, "pcs": {"1": "B1", "3": "B2"}}}})
    t.act("battle_started", "P1", confirmations=["P1", "P2"])
    t.checkpoint("battle started", {"players": {"P1": {"hp": 21, "hp_cap": 31}, "P2": {"hp": 18, "hp_cap": 28}},
                                    "characters": {c: {"endurance": 8, "endurance_max": 8, "wp": wp} for c, wp in
                                                   (("A1", 6), ("A2", 8), ("B1", 5), ("B2", 9))}})
    t.act("turn_started", "P1", turn=1)
    t.checkpoint("tie {A2, B1}", {"pending_ties": [["A2", "B1"]], "characters": {"A1": {"speed": 5}, "A2": {"speed": 6},
                                                                                  "B1": {"speed": 6}, "B2": {"speed": 3}}})
    t.refuse("PBW-ACT-6", "tie_break", "P1", **{**TIE_B1_A2, "order": ["A2", "B1"]})
    t.act("tie_break", "P1", **TIE_B1_A2)
    t.act("cards_drawn", "P1", player="P1", cards=p1_draw())
    t.act("cards_drawn", "P2", player="P2", cards=[f"P2F{i:02d}" for i in range(1, 6)])
    t.checkpoint("order and draws", {
        "action_order": [{"card": "B1", "speed": 6}, {"card": "A2", "speed": 6}, {"card": "A1", "speed": 5}, {"card": "B2", "speed": 3}],
        "pl_order": ["P1", "P2"], "step": "PL", "pl_turn": "P1",
        "players": {"P1": {"deck_count": 31, "hand_count": 5}, "P2": {"deck_count": 33, "hand_count": 5}}})
    return t


def ex02(t: Table | None = None) -> Table:
    t = t or ex01()
    t.pl_turns()
    t.field_step()
    t.begin("B1")
    t.act("normal_attack", "P2", actor="B1", target="A2")
    t.checkpoint("B1 hits A2", {"players": {"P1": {"hp": 18}}, "characters": {"A2": {"endurance": 6}}})
    t.end("B1")
    t.begin("A2")
    t.act("normal_attack", "P1", actor="A2", target="B1")
    t.checkpoint("A2 hits B1", {"players": {"P2": {"hp": 15}}, "characters": {"B1": {"endurance": 8}}})
    t.end("A2")
    t.begin("A1")
    t.act("normal_attack", "P1", actor="A1", target="B1")
    t.checkpoint("A1 hits B1", {"players": {"P2": {"hp": 11}}, "characters": {"B1": {"endurance": 7}}})
    t.end("A1")
    t.begin("B2")
    t.act("normal_attack", "P2", actor="B2", target="A1")
    t.refuse("PBW-LIM-19", "normal_attack", "P2", actor="B2", target="A1")
    t.end("B2")
    t.end_turn()
    t.checkpoint("end of turn 1", {"players": {"P1": {"hp": 14}, "P2": {"hp": 11}},
                                   "characters": {"A1": {"endurance": 6}, "A2": {"endurance": 6}, "B1": {"endurance": 7}, "B2": {"endurance": 8}}})
    return t


def _discard_p2(t: Table) -> None:
    p = t.state.player("P2")
    if len(p.hand) > 5:
        t.act("hand_discarded", "P2", player="P2", cards=list(p.hand[: len(p.hand) - 5]))


def ex03() -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": ["X", "Y", "Z", "W", "A3"]}, ties=[TIE_B1_A2])
    t.act("card_set", "P1", player="P1", card="Z", set_slot=3)
    ex02_main(t)
    t.start_turn(draws={"P1": ["E1"]})
    t.act("card_set", "P1", player="P1", card="X", set_slot=1)
    t.act("card_set", "P1", player="P1", card="Y", set_slot=2)
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    _discard_p2(t)
    t.start_turn()
    t.checkpoint("turn 3, P1's PL turn", {"turn": 3, "pl_turn": "P1", "players": {"P1": {"hp": 14, "hp_cap": 31}}})
    t.act("card_set", "P1", player="P1", card="W", set_slot=4)
    t.act("pc_summoned", "P1", player="P1", card="A3", slot=2)
    t.checkpoint("A3 summoned", {"players": {"P1": {"hp": 21, "hp_cap": 38, "placements_used": 2}}})
    t.refuse("PBW-LIM-1", "equipped", "P1", player="P1", card="E1", pc="A1")
    t.refuse("PBW-LIM-4", "set_card_activated", "P1", player="P1", set_slot=4, ops=[], persistent=None)
    t.act("set_card_activated", "P1", player="P1", set_slot=1, ops=[], persistent=None)
    t.act("set_card_activated", "P1", player="P1", set_slot=2, ops=[], persistent=None)
    t.refuse("PBW-LIM-3", "set_card_activated", "P1", player="P1", set_slot=3, ops=[], persistent=None)
    t.act("set_card_discarded", "P1", player="P1", set_slot=3)
    t.refuse("PBW-LIM-5", "set_card_discarded", "P1", player="P1", set_slot=4)
    t.checkpoint("end", {"players": {"P1": {"pl_activations_used": 2, "discard": ["X", "Y", "Z"],
                                            "set_zone": [None, None, None, {"card": "W", "face_up": False}, None]}}})
    return t


def ex02_main(t: Table) -> None:
    """EX-2's turn 1 after the PL turns of P1 (P2's PL turn, field step, the four attacks)."""
    t.pl_turns()
    t.field_step()
    for actor, target in (("B1", "A2"), ("A2", "B1"), ("A1", "B1"), ("B2", "A1")):
        t.begin(actor)
        t.act("normal_attack", t.controller(actor), actor=actor, target=target)
        t.end(actor)
    t.end_turn()


def ex04(total: bool = False) -> Table:
    t = Table({"overweight_basis": "total"} if total else None)
    t.setup()
    t.start_turn(draws={"P1": p1_draw("E2", "E3")}, ties=[TIE_B1_A2])
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.act("equipped", "P1", player="P1", card="E2", pc="A1")
    t.act("equipped", "P1", player="P1", card="E3", pc="A1")
    t.checkpoint("A1 equipped", {"characters": {"A1": {"weight": 7, "sp": 5, "overweight": 7 if total else 2,
                                                       "attack_values": {"BODY": 12}, "defence_values": {"BODY": 4}}}})
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    _discard_p2(t)
    t.start_turn()
    t.checkpoint("turn 3 order check", {"characters": {"A1": {"speed": -2 if total else 3}}})
    if total:
        return t
    t.pl_turns()
    t.field_step()
    while (a := t.next_actor()) != "A1":
        t.idle(a)
    t.begin("A1")
    t.act("equipment_discarded", "P1", pc="A1", cards=["E3"])
    t.checkpoint("E3 dropped", {"characters": {"A1": {"weight": 4, "defence_values": {"BODY": 3}, "equipment": ["E2"]}},
                                "players": {"P1": {"discard": ["E3"]}}})
    t.act("normal_attack", "P1", actor="A1", target="B1")
    t.refuse("PBW-TURN-9", "equipment_discarded", "P1", pc="A1", cards=["E2"])
    t.end("A1")
    t.idle_rest()
    t.end_turn()
    _discard_p2(t)
    t.start_turn()
    t.checkpoint("turn 4: speed back to 5", {"characters": {"A1": {"speed": 5}}})
    return t


def ex05(two_hands: bool = False) -> Table:
    t = Table({"two_hand_blocks_one_hand": True} if two_hands else None)
    t.setup()
    t.start_turn(draws={"P1": p1_draw("E1", "E4", "E5", "E2")}, ties=[TIE_B1_A2])
    if two_hands:
        t.act("equipped", "P1", player="P1", card="E1", pc="A1")
    else:
        t.act("equipped", "P1", player="P1", card="E1", pc="A2")
        t.act("equipped", "P1", player="P1", card="E4", pc="A2")
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    if two_hands:
        t.act("equipped", "P1", player="P1", card="E2", pc="A1")
        t.checkpoint("3 hands", {"pending_choice": {"subject": "A1", "part": "HANDS"}})
        t.act("choice_made", "P1", kind="equipment", subject="A1", card="E1")
        t.checkpoint("E1 dropped", {"pending_choice": None, "characters": {"A1": {"equipment": ["E2"]}}})
        return t
    t.act("equipped", "P1", player="P1", card="E5", pc="A2")
    t.checkpoint("three ONE_HAND items", {"pending_choice": {"kind": "equipment", "subject": "A2", "part": "ONE_HAND"}})
    t.refuse("PBW-ACT-28", "card_set", "P1", player="P1", card="P1F01", set_slot=1)
    t.act("choice_made", "P1", kind="equipment", subject="A2", card="E1")
    t.checkpoint("E1 discarded", {"pending_choice": None, "characters": {"A2": {"equipment": ["E4", "E5"]}},
                                  "players": {"P1": {"discard": ["E1"]}}})
    return t


def ex06() -> Table:
    t = Table()
    t.setup(p1=("A3", "A1"))
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.act("effect", "judge", source="fixture: B2 guards (DV MIND 4)",
          ops=[{"op": "apply_status", "target": "B2", "name": "guard", "mods": {"defense": {"MIND": 1}}}])
    t.checkpoint("B2 DV MIND 4", {"characters": {"B2": {"defence_values": {"MIND": 4}}}})
    while (a := t.next_actor()) != "A3":
        t.idle(a)
    t.begin("A3")
    ability = {"name": "Mind Lance", "attribute": "MIND", "modifier": 2, "wp_cost": 11}
    t.refuse("PBW-LIM-21", "ability_used", "P1", actor="A3", ability=ability, targets=["B2"])
    t.act("ability_used", "P1", actor="A3", ability={**ability, "wp_cost": 3}, targets=["B2"])
    t.checkpoint("E 10 vs DV 4: D 6, endurance 2", {"players": {"P2": {"hp": 12}},
                                                    "characters": {"A3": {"wp": 7}, "B2": {"endurance": 6}}})
    return t


def ex07() -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": p1_draw("A3", "E1", "A4")}, ties=[TIE_B1_A2])
    t.act("pc_summoned", "P1", player="P1", card="A3", slot=2)
    t.act("equipped", "P1", player="P1", card="E1", pc="A1")
    t.pl_turns()
    t.act("effect", "judge", source="fixture set-up", ops=[{"op": "endurance_damage", "character": "A1", "n": 6},
                                                          {"op": "hp_adjust", "player": "P1", "delta": 2}])
    t.checkpoint("cap 38, HP 30", {"players": {"P1": {"hp": 30, "hp_cap": 38}}, "characters": {"A1": {"endurance": 2}}})
    t.act("effect", "judge", source="fixture", ops=[{"op": "endurance_damage", "character": "A1", "n": 2}])
    t.checkpoint("A1 leaves: cap 26, HP 30", {"players": {"P1": {"hp": 30, "hp_cap": 26, "discard": ["E1", "A1"]}}})
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_heal", "player": "P1", "n": 5}])
    t.checkpoint("heal above the cap: no effect", {"players": {"P1": {"hp": 30}}})
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P1", "n": 5}])
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_heal", "player": "P1", "n": 4}])
    t.checkpoint("heal to the cap", {"players": {"P1": {"hp": 26}}})
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_until("P1")
    t.act("pc_summoned", "P1", player="P1", card="A4", slot=1)
    t.checkpoint("A4 summoned", {"players": {"P1": {"hp": 32, "hp_cap": 32}}})
    return t


def ex08() -> Table:
    t = Table()
    t.setup(p1=("A3", "A1"))
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.act("effect", "judge", source="fixture history", ops=[
        {"op": "apply_bs", "character": "B2", "bs": b} for b in ("Poison", "Paralysis", "Sleep")] + [
        {"op": "remove_bs", "character": "B2", "bs": "Sleep"}])
    t.checkpoint("B2 set up", {"characters": {"B2": {"bs": ["Poison", "Paralysis"], "bs_history": ["Poison", "Paralysis", "Sleep"]}}})
    while (a := t.next_actor()) != "A3":
        t.idle(a)
    t.begin("A3")
    guard_down = {"op": "apply_status", "target": "B2", "name": "guard down", "mods": {"defense": {"MIND": -1}}, "duration": "end_of_turn"}
    t.act("ability_used", "P1", actor="A3", targets=["B2"],
          ability={"name": "Lullaby", "attribute": "MIND", "bs": "Sleep", "break_ops": [guard_down]})
    t.checkpoint("(1) Sleep and its break nullified", {"characters": {"B2": {"bs": ["Poison", "Paralysis"], "statuses": []}}})
    t.end("A3")
    hit = {"op": "attack", "value": 3, "attribute": "MIND", "targets": ["B2"]}
    t.act("effect", "judge", source="a MIND attack", ops=[{**hit, "bs": "Confusion"}])
    t.checkpoint("(2) Confusion applied", {"characters": {"B2": {"bs": ["Poison", "Paralysis", "Confusion"],
                                                                 "bs_history": ["Poison", "Paralysis", "Sleep", "Confusion"]}}})
    t.act("effect", "judge", source="a set card", ops=[{"op": "apply_bs", "character": "B2", "bs": "Sleep", "source": "set_card"}])
    t.act("effect", "judge", source="a MIND attack", ops=[{**hit, "bs": "Blind"}])
    t.checkpoint("(3)(4) nullified: 3 held", {"characters": {"B2": {"bs": ["Poison", "Paralysis", "Confusion"],
                                                                    "bs_history": ["Poison", "Paralysis", "Sleep", "Confusion"]}}})
    t.begin("B2")
    t.act("wait", "P2", actor="B2")
    t.end("B2")
    for bs, declared, die in (("Poison", "odd", 1), ("Paralysis", "even", 3), ("Confusion", "even", 5)):
        t.act("bs_recovery_check", "P2", actor="B2", bs=bs, check={"declarer": "P2", "roller": "P1", "declared": declared, "die": die})
    t.checkpoint("(5) Poison recovered", {"characters": {"B2": {"bs": ["Paralysis", "Confusion"]}}})
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.act("effect", "judge", source="a MIND attack", ops=[{**hit, "bs": "Blind"}])
    t.checkpoint("(6) Blind applied", {"characters": {"B2": {"bs": ["Paralysis", "Confusion", "Blind"]}}})
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    t.idle("B2")
    chk = {"declarer": "P2", "roller": "P1"}
    t.act("bs_recovery_check", "P2", actor="B2", bs="Paralysis", check={**chk, "declared": "even", "die": 2})
    t.act("bs_recovery_check", "P2", actor="B2", bs="Confusion", check={**chk, "declared": "even", "die": 1})
    t.act("bs_recovery_check", "P2", actor="B2", bs="Blind", check={**chk, "declared": "even", "die": 1})
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.act("effect", "judge", source="a MIND attack", ops=[{**hit, "bs": "Poison"}])
    t.checkpoint("(7) Poison by attack nullified", {"characters": {"B2": {"bs": ["Confusion", "Blind"]}}})
    t.act("effect", "judge", source="a set card", ops=[{"op": "apply_bs", "character": "B2", "bs": "Poison", "source": "set_card"}])
    t.checkpoint("(7) Poison by set card applied", {"characters": {"B2": {
        "bs": ["Confusion", "Blind", "Poison"], "bs_history": ["Poison", "Paralysis", "Sleep", "Confusion", "Blind"]}}})
    return t
