"""Golden matches for the worked examples EX-9 .. EX-14 and EX-20 .. EX-25 of rules/pbwcg.md §13."""

from __future__ import annotations

from tests.pbwcg.builder import Table, sample_deck, started
from tests.pbwcg.golden_a import TIE_A2_B1, TIE_B1_A2, p1_draw

CHK = {"declarer": "P2", "roller": "P1"}


def ex09(judge: bool = False) -> Table:
    t = Table({"judge_present": True} if judge else None)
    t.setup()
    t.start_turn(draws={"P1": p1_draw("E5")}, ties=[TIE_B1_A2])
    t.act("equipped", "P1", player="P1", card="E5", pc="A2")
    t.pl_turns()
    t.field_step()
    t.begin("B1")
    t.act("normal_attack", "P2", actor="B1", target="A2", bs="Poison")
    t.checkpoint("BODY on TECH: Poison without a check", {"characters": {"A2": {"bs": ["Poison"]}}})
    t.end("B1")
    t.begin("A2")
    receipt = {**CHK, "declared": "odd", "die": 3}
    if judge:
        t.refuse("PBW-HID-5", "normal_attack", "P1", actor="A2", target="B1", bs="Poison", checks={"receipt": receipt})
        receipt = {**receipt, "roller": "judge"}
    t.act("normal_attack", "P1", actor="A2", target="B1", bs="Poison", checks={"receipt": receipt})
    t.checkpoint("receipt check succeeds: no Poison, damage stands", {
        "players": {"P2": {"hp": 15}}, "characters": {"B1": {"bs": [], "bs_history": [], "endurance": 8}}})
    if judge:
        return t
    t.end("A2")
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.begin("A2")
    t.act("normal_attack", "P1", actor="A2", target="B1", bs="Poison", checks={"receipt": {**CHK, "declared": "odd", "die": 4}})
    t.checkpoint("die 4: Poison applied", {"players": {"P2": {"hp": 12}}, "characters": {"B1": {"bs": ["Poison"]}}})
    return t


def ex10() -> Table:
    t = Table()
    t.setup(p1=("A1", "A3"))
    t.start_turn(draws={"P1": p1_draw("MG")})
    t.act("card_set", "P1", player="P1", card="MG", set_slot=1)
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_until("P1")
    t.refuse("PBW-LIM-6", "set_card_activated", "P1", player="P1", set_slot=1, ops=[], persistent=None,
             attack={"value": 9, "attribute": "MIND", "targets": ["B1"]})
    t.pl_turns()
    t.field_step()
    t.act("effect", "judge", source="fixture: B2 evasion +1", ops=[{"op": "apply_status", "target": "B2", "name": "nimble", "mods": {"evasion": 1}}])
    t.idle("B1")
    t.begin("A1")
    ability = {"name": "Feint", "attribute": "BODY", "wp_cost": 2, "evasion_tag": True}
    ev = [{**CHK, "declared": "even", "die": 3}, {**CHK, "declared": "even", "die": 6}]
    t.act("ability_used", "P1", actor="A1", ability=ability, targets=["B2"], checks={"B2": {"evasion": ev}})
    t.checkpoint("evaded; WP paid", {"players": {"P2": {"hp": 18}}, "characters": {"A1": {"wp": 4}, "B2": {"endurance": 8}}})
    t.end("A1")
    t.begin("A3")
    t.act("set_card_activated", "P1", player="P1", set_slot=1, ops=[], persistent=None,
          attack={"value": 9, "attribute": "MIND", "targets": ["B1"]})
    t.checkpoint("magic: D 6, endurance 3", {"players": {"P2": {"hp": 12}}, "characters": {"B1": {"endurance": 5}}})
    t.refuse("PBW-LIM-6", "wait", "P1", actor="A3")
    t.end("A3")
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.begin("A1")
    seq = t.act("ability_used", "P1", actor="A1", ability=ability, targets=["B2"], checks={"B2": {"evasion": ev[:1]}})
    t.checkpoint("one result only: hit, EVA missed", {"obligations": [{"id": f"OB-{seq}-EVA-B2", "kind": "EVA", "status": "missed"}]})
    return t


def ex11() -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": p1_draw("A3", "E1")}, ties=[TIE_A2_B1])
    t.pl_until("P1")
    t.act("pc_summoned", "P1", player="P1", card="A3", slot=2)
    t.act("equipped", "P1", player="P1", card="E1", pc="A1")
    t.pl_turns()
    t.field_step()
    t.begin("A2")
    t.refuse("PBW-RES-9", "normal_attack", "P1", actor="A2", target="P2")
    t.act("wait", "P1", actor="A2")
    t.end("A2")
    t.act("effect", "judge", source="fixture: P2 loses both PCs", ops=[
        {"op": "incapacitate", "character": "B1"}, {"op": "incapacitate", "character": "B2"}, {"op": "hp_damage", "player": "P2", "n": 9}])
    t.checkpoint("P2 has no PC, HP 9", {"players": {"P2": {"hp": 9, "pcs": {}}}})
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle("A2")
    t.begin("A1")
    t.refuse("PBW-RES-9", "ability_used", "P1", actor="A1", ability={"name": "Slash", "attribute": "BODY"}, targets=["P2"])
    t.act("normal_attack", "P1", actor="A1", target="P2")
    t.checkpoint("trunc(10 / 2) = 5", {"players": {"P2": {"hp": 4}}})
    t.end("A1")
    t.begin("A3")
    t.act("normal_attack", "P1", actor="A3", target="P2")
    t.checkpoint("trunc(8 / 2) = 4 from the back row: P1 wins", {"players": {"P2": {"hp": 0}}, "characters": {"A3": {"back_row": True}}})
    return t


def ex12(active: bool) -> Table:
    t = Table({"simultaneous_defeat": "active_player_wins"} if active else None)
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    both = [{"op": "hp_damage", "player": "P1", "n": 5}, {"op": "hp_damage", "player": "P2", "n": 5}]
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P1", "n": 17},
                                                   {"op": "hp_damage", "player": "P2", "n": 15}])
    if not active:
        t.act("effect", "judge", source="FD2 enters the field", ops=[{"op": "set_field", "card": "FD2", "duration": 3}])
        t.checkpoint("HP 4 and 3", {"players": {"P1": {"hp": 4}, "P2": {"hp": 3}}, "field_state": {"card": "FD2"}})
        t.act("field_effect", "P2", source="FD2", ops=both)
        t.checkpoint("both at 0 or below", {"players": {"P1": {"hp": -1}, "P2": {"hp": -2}}})
        return t
    t.field_step()
    t.begin("B1")
    t.act("effect", "judge", source="in B1's main turn", ops=both)
    return t


def ex13() -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": p1_draw("A3")}, ties=[TIE_B1_A2])
    t.act("pc_summoned", "P1", player="P1", card="A3", slot=2)
    t.pl_turns()
    t.act("effect", "judge", source="fixture", ops=[{"op": "reposition", "pc": "B2", "slot": 4},
                                                   {"op": "endurance_damage", "character": "B1", "n": 7},
                                                   {"op": "hp_adjust", "player": "P2", "delta": 2}])
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.checkpoint("order", {"action_order": [{"card": c, "speed": s} for c, s in (("B1", 6), ("A2", 6), ("A1", 5), ("A3", 4), ("B2", 3))],
                           "players": {"P2": {"hp": 20, "hp_cap": 28}}})
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.idle("A2")
    t.begin("A1")
    t.act("move", "P1", actor="A1", to_slot=2)
    t.checkpoint("swapped", {"characters": {"A1": {"slot": 2}, "A3": {"slot": 1}}})
    t.refuse("PBW-LIM-19", "wait", "P1", actor="A1")
    t.end("A1")
    t.begin("A3")
    t.act("normal_attack", "P1", actor="A3", target="B1")
    t.checkpoint("B1 down, B2 forced forward", {"players": {"P2": {"hp": 15, "hp_cap": 18, "discard": ["B1"]}},
                                                "characters": {"B2": {"slot": 3}}})
    t.end("A3")
    t.idle("B2")
    return t


def small_p1_deck() -> dict:
    deck = sample_deck("P1")
    keep = ["A1", "A2"] + [f"P1F{i:02d}" for i in range(1, 7)]
    return {"deck": [c for c in deck["deck"] if c["id"] in keep], "support_list": []}


def ex14() -> Table:
    t = Table(decks={"P1": small_p1_deck(), "P2": sample_deck("P2")})
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.checkpoint("hand 5, deck 1", {"players": {"P1": {"hand_count": 5, "deck_count": 1}}})
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.checkpoint("hand 6, deck 0", {"players": {"P1": {"hand_count": 6, "deck_count": 0}}})
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.refuse("PBW-TURN-7", "turn_started", "P1", turn=3)
    t.act("hand_discarded", "P1", player="P1", cards=["P1F01"])
    t.act("hand_discarded", "P2", player="P2", cards=["P2F01"])
    t.checkpoint("hands 5", {"players": {"P1": {"hand_count": 5}, "P2": {"hand_count": 5}}})
    t.act("turn_started", "P1", turn=3)
    t.refuse("PBW-ACT-7", "cards_drawn", "P1", player="P1", cards=["P1F01"])
    t.act("cards_drawn", "P2", player="P2", cards=["P2F07"])
    t.checkpoint("P1 draws nothing and plays on", {"step": "PL", "players": {"P1": {"hand_count": 5, "deck_count": 0}}})
    return t


def ex20(other_field: bool = False) -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": p1_draw("SM", "X")}, ties=[TIE_B1_A2])
    t.act("card_set", "P1", player="P1", card="SM", set_slot=1)
    t.act("card_set", "P1", player="P1", card="X", set_slot=2)
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_until("P1")
    if other_field:
        t.act("set_card_activated", "P1", player="P1", set_slot=1, persistent=None,
              ops=[{"op": "summon_support", "card": "S3", "field_player": "P2", "master": "B1"}])
        t.checkpoint("S3 vanishes: no W1 master on P2's field", {"players": {"P1": {"removed": ["S3"]}}, "characters": {"B1": {}}})
        return t
    ops = [{"op": "summon_support", "card": s, "field_player": "P1", "master": "A2"} for s in ("S1", "S2", "S3")]
    t.act("set_card_activated", "P1", player="P1", set_slot=1, persistent=None, ops=ops)
    t.checkpoint("S1 8/8, S2 7/7, S3 vanishes", {"characters": {"S1": {"endurance": 8, "endurance_max": 8, "master": "A2"},
                                                                "S2": {"endurance": 7, "endurance_max": 7}},
                                                 "players": {"P1": {"removed": ["S3"]}}})
    t.pl_turns()
    t.field_step()
    t.begin("B1")
    t.refuse("PBW-LIM-11", "normal_attack", "P2", actor="B1", target="S1")
    t.act("wait", "P2", actor="B1")
    t.end("B1")
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    while (a := t.next_actor()) != "S1":
        t.idle(a)
    t.begin("S1")
    t.refuse("PBW-LIM-2", "set_card_activated", "P1", player="P1", set_slot=2, ops=[], persistent=None)
    t.act("wait", "P1", actor="S1")
    t.end("S1")
    t.act("effect", "judge", source="fixture", ops=[{"op": "incapacitate", "character": "A2"}])
    t.checkpoint("A2 down: S1 and S2 vanish", {"players": {"P1": {"removed": ["S3", "S1", "S2"]}}})
    return t


def ex21() -> Table:
    t = Table()
    t.setup()
    t.start_turn(draws={"P1": p1_draw("A4")}, ties=[TIE_B1_A2])
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_until("P1")
    t.act("pc_summoned", "P1", player="P1", card="A4", slot=2)
    t.pl_turns()
    t.field_step()
    t.checkpoint("A4 has no main turn in turn 2", {"action_order": [{"card": c} for c in ("B1", "A2", "A1", "B2")]})
    t.idle_rest()
    t.end_turn()
    t.discards()
    t.act("turn_started", "P1", turn=3)
    t.checkpoint("new member: re-roll", {"pending_ties": [["A2", "B1", "A4"]]})
    t.act("tie_break", "P2", members=["A2", "B1", "A4"], assignment={"A2": [1, 2], "B1": [3, 4], "A4": [5, 6]},
          rolls=[2, 1, 6], order=["A2", "A4", "B1"])
    t.checkpoint("order A2, A4, B1, A1, B2; P2 first", {
        "action_order": [{"card": c} for c in ("A2", "A4", "B1", "A1", "B2")], "pl_order": ["P2", "P1"]})
    return t


def ex22() -> Table:
    t = Table(start=False)
    p1, p2 = sample_deck("P1"), sample_deck("P2")
    extra = {"id": "P1F99", "card_type": "SET", "name": "Extra", "category": "OTHER", "text": ""}
    big = {"deck": p1["deck"] + [extra, {**extra, "id": "P1F98", "name": "Extra 2"}, {**extra, "id": "P1F97", "name": "Extra 3"}]}
    t.refuse("PBW-DECK-3", **_start(big, p2))
    blades = {"deck": p1["deck"][:-2] + [{**extra, "id": "BL1", "name": "Ｂｌａｄｅ"}, {**extra, "id": "BL2", "name": "blade "}]}
    t.refuse("PBW-DECK-4", **_start(blades, p2))
    one_pc = {"deck": [c for c in p1["deck"] if c["id"] not in ("A2", "A3", "A4")]}
    t.refuse("PBW-DECK-5", **_start(one_pc, p2))
    with_support = {"deck": p1["deck"][:-1] + p1["support_list"][:1]}
    t.refuse("PBW-DECK-6", **_start(with_support, p2))
    grail = {"deck": p1["deck"][:-1] + [{**extra, "id": "HG", "name": "Holy Grail", "category": "M"}]}
    t.refuse("PBW-DECK-7", **_start(grail, p2, {"local_F_exclude_holy_grail": True}))
    six = {"deck": [c for c in p1["deck"] if c["id"] in ("A1", "A2", "X", "Y", "Z", "W")]}
    t.enter(started(None, {"P1": six, "P2": p2}))
    t.setup()
    t.start_turn(draws={"P1": ["X", "Y", "Z", "W"]}, ties=[TIE_B1_A2])
    t.checkpoint("6-card deck: P1 draws 4", {"players": {"P1": {"hand_count": 4, "deck_count": 0}}})
    return t


def _start(p1: dict, p2: dict, options: dict | None = None) -> dict:
    line = started(options, {"P1": p1, "P2": p2})
    return {"type_": line.pop("type"), **line}


def ex23() -> Table:
    t = Table({"base_endurance": 6})
    t.setup()
    t.checkpoint("PCs start 6/6", {"characters": {c: {"endurance": 6, "endurance_max": 6} for c in ("A1", "A2", "B1", "B2")}})
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture", ops=[
        {"op": "summon_support", "card": "S1", "field_player": "P1", "master": "A2"},
        {"op": "apply_status", "target": "B2", "name": "MIND attack +3", "mods": {"attack": {"MIND": 3}}}])
    t.checkpoint("S1 is still 8/8", {"characters": {"S1": {"endurance": 8, "endurance_max": 8}}})
    t.field_step()
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    t.begin("B2")
    t.act("normal_attack", "P2", actor="B2", target="A1")
    t.checkpoint("band 2 + 1 = 3: A1 6 -> 3", {"players": {"P1": {"hp": 14}}, "characters": {"A1": {"endurance": 3}}})
    return t


def ex25() -> Table:
    """Local rule D with three players: P3's C1 and C2 are slower than A1 (C1 4, C2 2), so the first
    PCs of P2, P1 and P3 stand in places 1, 2 and 4 and the PL turns go P3, P1, P2. P1's persistent
    FIELD card FD, set in turn 1, brings P3 to -1 and P1 to 4 in turn 2's field step."""
    t = Table(players=("P1", "P2", "P3"))
    t.setup()
    t.checkpoint("three players", {"players": {"P1": {"hp": 21}, "P2": {"hp": 18}, "P3": {"hp": 14, "hp_cap": 24}}})
    t.start_turn(draws={"P1": p1_draw("FD")}, ties=[TIE_B1_A2])
    t.end_pl_turn()
    t.act("card_set", "P1", player="P1", card="FD", set_slot=1)
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.checkpoint("turn 2 order: P2's first PC 1st, P1's 2nd, P3's 4th", {
        "turn": 2, "pl_order": ["P3", "P1", "P2"], "pl_turn": "P3",
        "action_order": [{"card": "B1", "speed": 6}, {"card": "A2", "speed": 6}, {"card": "A1", "speed": 5},
                         {"card": "C1", "speed": 4}, {"card": "B2", "speed": 3}, {"card": "C2", "speed": 2}]})
    t.end_pl_turn()
    t.act("set_card_activated", "P1", player="P1", set_slot=1, persistent={"duration": 2})
    t.pl_turns()
    t.act("field_effect", "P1", source="FD", ops=[{"op": "hp_damage", "player": "P3", "n": 15},
                                                  {"op": "hp_damage", "player": "P1", "n": 17}])
    t.checkpoint("P3 is out, its cards leave the battle", {
        "players": {"P1": {"hp": 4, "out": False}, "P2": {"hp": 18, "out": False},
                    "P3": {"hp": -1, "out": True, "removed": ["C1", "C2"], "pcs": {}}},
        "result": None})
    t.refuse("PBW-RUL-47", "surrender", "P3", player="P3")
    t.field_step()
    t.begin("B1")
    t.act("normal_attack", "P2", actor="B1", target="A2")
    t.checkpoint("B1 hits A2", {"players": {"P1": {"hp": 1}}, "characters": {"A2": {"endurance": 6}}})
    t.end("B1")
    t.begin("A2")
    t.refuse("PBW-RUL-47", "normal_attack", "P1", actor="A2", target="P3")
    t.act("wait", "P1", actor="A2")
    t.end("A2")
    t.idle("A1")
    t.begin("B2")  # C1 left the battle: B2 is next
    t.act("normal_attack", "P2", actor="B2", target="A1")
    t.checkpoint("P2 brings P1 to 0 or below and wins", {"players": {"P1": {"hp": -3}},
                                                         "result": {"status": "won", "winner": "P2", "reason": "hp_zero"}})
    return t
