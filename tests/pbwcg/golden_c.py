"""Golden matches for the corrections and local rules: EX-15 .. EX-19 and EX-24 of rules/pbwcg.md §13.
The chapter's seq numbers (300, 500...) stand for "the event that..."; here the same events are
entered in turns 1-2 of a fresh battle, and the checkpoints name the seqs they got."""

from __future__ import annotations

from tests.pbwcg.builder import Table
from tests.pbwcg.golden_a import TIE_A2_B1, TIE_B1_A2, p1_draw

CHK = {"declarer": "P2", "roller": "P1"}
POISON = [{"op": "hp_damage", "player": "P2", "n": 2}]


def ex15_play(options: dict | None = None) -> tuple[Table, dict[str, int]]:
    """Turn 1: B2 (Poison) takes its effect, waits, ends; its recovery check is forgotten.
    Turn 2: B2's effect again, and a failed check."""
    t = Table(options)
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture: B2 received Poison earlier; P2 HP 22",
          ops=[{"op": "apply_bs", "character": "B2", "bs": "Poison"}, {"op": "hp_adjust", "player": "P2", "delta": 4}])
    t.field_step()
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    seqs = {"start1": t.act("main_turn_started", "P2", actor="B2")}
    t.act("bs_effect", "P2", actor="B2", bs="Poison", ops=POISON)
    t.act("wait", "P2", actor="B2")
    seqs["ended1"] = t.act("main_turn_ended", "P2", actor="B2")
    seqs["turn_end1"] = t.act("turn_ended", "P1")
    t.checkpoint("turn 1: OB REC missed", {"players": {"P2": {"hp": 20}}, "obligations": [
        {}, {"id": f"OB-{seqs['ended1']}-REC-B2-Poison", "status": "missed", "closed_seq": seqs["turn_end1"]}]})
    t.start_turn()
    t.pl_turns()
    t.field_step()
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    t.act("main_turn_started", "P2", actor="B2")
    seqs["effect2"] = t.act("bs_effect", "P2", actor="B2", bs="Poison", ops=POISON)
    t.act("wait", "P2", actor="B2")
    t.act("main_turn_ended", "P2", actor="B2")
    t.act("bs_recovery_check", "P2", actor="B2", bs="Poison", check={**CHK, "declared": "even", "die": 3})
    t.checkpoint("turn 2: P2 HP 18, B2 holds Poison", {"players": {"P2": {"hp": 18}}, "characters": {"B2": {"bs": ["Poison"]}}})
    return t, seqs


def _correct(seqs: dict[str, int], die: int, confirmations: list[str]) -> dict:
    return {"at_seq": seqs["turn_end1"], "reason": "recovery check forgotten", "basis": "forgotten_check",
            "confirmations": confirmations,
            "event": {"type": "bs_recovery_check", "by": "P2", "actor": "B2", "bs": "Poison",
                      "check": {**CHK, "declared": "odd", "die": die}}}


def _rewind(seqs: dict[str, int], confirmations: list[str] | None = None) -> dict:
    return {"to_seq": seqs["ended1"], "reason": "recovery check forgotten", "basis": "forgotten_check",
            "confirmations": confirmations or ["P1", "P2"]}


def ex15_ab() -> Table:
    t, seqs = ex15_play()
    v = t.refuse("PBW-ACT-17", "correct", "P1", **_correct(seqs, 5, ["P1", "P2"]))
    if f"seq {seqs['effect2']}" not in v.message:
        raise AssertionError(f"the conflict must name seq {seqs['effect2']}: {v.message}")
    t.refuse("PBW-COR-3", "correct", "P1", **_correct(seqs, 5, ["P1"]))
    t.act("rewind", "P1", **_rewind(seqs))
    t.checkpoint("(b) back at the end of B2's turn-1 main turn", {
        "turn": 1, "main_step": "M5", "open_obligations": [f"OB-{seqs['ended1']}-REC-B2-Poison"], "players": {"P2": {"hp": 20}}})
    t.act("bs_recovery_check", "P2", actor="B2", bs="Poison", check={**CHK, "declared": "odd", "die": 5})
    t.checkpoint("Poison removed in turn 1", {"characters": {"B2": {"bs": [], "bs_history": ["Poison"]}}})
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.checkpoint("turn 2 replayed: P2 HP stays 20", {"players": {"P2": {"hp": 20}}})
    return t


def ex15_c() -> Table:
    t, seqs = ex15_play()
    t.act("correct", "P2", **_correct(seqs, 4, ["P1", "P2"]))
    t.checkpoint("(c) accepted: figures unchanged, obligation corrected", {
        "players": {"P2": {"hp": 18}}, "characters": {"B2": {"bs": ["Poison"]}},
        "obligations": [{}, {"id": f"OB-{seqs['ended1']}-REC-B2-Poison", "status": "corrected"}, {}, {}]})
    t.refuse("PBW-COR-3", "correct", "P2", **_correct(seqs, 4, ["P1", "P2"]))
    return t


def ex17(local_b: bool = False) -> Table:
    t, seqs = ex15_play({"local_B_no_corrections": True} if local_b else None)
    if local_b:
        t.refuse("PBW-COR-8", "correct", "P1", **_correct(seqs, 4, ["P1", "P2"]))
        t.refuse("PBW-COR-8", "rewind", "P1", **_rewind(seqs))
        return t
    t.act("turn_ended", "P1")
    t.start_turn()
    t.refuse("PBW-COR-3", "correct", "P1", **_correct(seqs, 4, ["P1", "P2"]))
    t.refuse("PBW-COR-14", "rewind", "P1", **_rewind(seqs))
    return t


def ex16() -> Table:
    t = Table()
    t.setup(p1=("A1", "A3"))
    t.start_turn()
    t.pl_turns()
    t.act("effect", "judge", source="fixture: P1 HP 4, P2 HP 15, A1 burning", ops=[
        {"op": "hp_damage", "player": "P1", "n": 15}, {"op": "hp_damage", "player": "P2", "n": 3},
        {"op": "apply_bs", "character": "A1", "bs": "Burn"}])
    t.field_step()
    t.idle("B1")
    start = t.act("main_turn_started", "P1", actor="A1")
    attack = t.act("normal_attack", "P1", actor="A1", target="B1")
    t.checkpoint("TRIG missed; P2 15 -> 11", {"players": {"P2": {"hp": 11}}, "obligations": [
        {"id": f"OB-{start}-TRIG-A1-Burn", "status": "missed", "closed_seq": attack}]})
    t.end("A1")
    t.idle("A3")
    t.begin("B2")
    t.act("normal_attack", "P2", actor="B2", target="A3")
    t.checkpoint("P1 4 -> 1", {"players": {"P1": {"hp": 1}}})
    burn = {"type": "bs_effect", "by": "P1", "actor": "A1", "bs": "Burn", "ops": [{"op": "hp_damage", "player": "P1", "n": 4}]}
    v = t.refuse("PBW-OVR-3", "correct", "P2", at_seq=attack, event=burn, reason="Burn forgotten", basis="forgotten_check",
                 confirmations=["P1", "P2"])
    if f"seq {attack}" not in v.message:
        raise AssertionError(v.message)
    t.act("rewind", "P2", to_seq=start, reason="Burn forgotten", basis="forgotten_check", confirmations=["P1", "P2"])
    t.act("bs_effect", "P1", actor="A1", bs="Burn", ops=[{"op": "hp_damage", "player": "P1", "n": 4}])
    t.checkpoint("P1 HP 0: P2 wins", {"players": {"P1": {"hp": 0}, "P2": {"hp": 15}}, "result": {"winner": "P2"}})
    return t


def ex18_play(options: dict) -> tuple[Table, int]:
    t = Table(options)
    t.setup()
    t.start_turn(draws={"P1": p1_draw("E1")}, ties=[TIE_B1_A2])
    t.act("equipped", "P1", player="P1", card="E1", pc="A1")
    t.pl_turns()
    t.field_step()
    t.idle("B1")
    t.idle("A2")
    t.begin("A1")
    t.act("ability_used", "P1", actor="A1", ability={"name": "Smash", "attribute": "BODY", "modifier": 3}, targets=["B1"])
    t.checkpoint("E 13, D 10: P2 HP 8, endurance 2", {"players": {"P2": {"hp": 8}}, "characters": {"B1": {"endurance": 6}}})
    after = t.act("main_turn_ended", "P1", actor="A1")
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    return t, after


def ex18(mode: str, judge: bool) -> Table:
    t, after = ex18_play({"local_C_judge_errors": mode, "judge_present": judge})
    fix = {"at_seq": after, "reason": "the ability page says +1", "basis": "judge_error",
           "event": {"type": "effect", "by": "judge", "source": "judge error at the ability",
                     "ops": [{"op": "hp_adjust", "player": "P2", "delta": 2}]}}
    if mode == "off" or not judge:
        t.refuse("PBW-COR-9", "correct", "judge", **fix, confirmations=["judge"])
        return t
    if mode == "C_alpha":
        t.refuse("PBW-COR-10", "correct", "judge", **fix, confirmations=["judge"])
        t.act("correct", "judge", **fix, confirmations=["judge", "P1", "P2"], disadvantaged="P2")
    else:
        t.act("correct", "judge", **fix, confirmations=["judge"])
    t.checkpoint("P2 given back 2 HP at the error", {"players": {"P2": {"hp": 10}}})
    return t


def ex19(local_a: bool) -> Table:
    t = Table({"local_A_delayed_recovery": True} if local_a else None)
    t.setup()
    t.start_turn(ties=[TIE_A2_B1])
    t.pl_turns()
    t.field_step()
    t.begin("A2")
    bonus = {"op": "apply_status", "target": "A1", "name": "BODY +2", "mods": {"stat": {"BODY": 2}}, "duration": 1}
    t.act("ability_used", "P1", actor="A2", ability={"name": "Stun", "attribute": "TECH", "bs": "Paralysis"}, targets=["B1"],
          checks={"B1": {"receipt": {**CHK, "declared": "odd", "die": 2}}}, ops=[bonus])
    t.checkpoint("Paralysis applied; A1 BODY 9", {"characters": {"B1": {"bs": ["Paralysis"]}, "A1": {"attack_values": {"BODY": 9}}}})
    t.end("A2")
    t.begin("B1")
    t.act("wait", "P2", actor="B1")
    t.end("B1")
    check = {**CHK, "declared": "odd", "die": 2}
    if local_a:
        t.refuse("PBW-LIM-14", "bs_recovery_check", "P2", actor="B1", bs="Paralysis", check=check)
    else:
        t.act("bs_recovery_check", "P2", actor="B1", bs="Paralysis", check=check)
    t.begin("A1")
    t.act("normal_attack", "P1", actor="A1", target="B2")
    t.end("A1")
    t.checkpoint("A1's bonus after its turn-1 end", {"characters": {"A1": {"statuses": [{"remaining": 1}] if local_a else []}}})
    if not local_a:
        return t
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_turns()
    t.field_step()
    t.idle("A2")
    t.idle("B1")
    t.act("bs_recovery_check", "P2", actor="B1", bs="Paralysis", check=check)
    t.idle("A1")
    t.checkpoint("turn 2: the bonus ends", {"characters": {"A1": {"statuses": []}}})
    return t


def ex24(options: dict) -> Table:
    t = Table(options)
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture", ops=[{"op": "apply_bs", "character": "B2", "bs": "Poison"}])
    t.field_step()
    while (a := t.next_actor()) != "B2":
        t.idle(a)
    t.begin("B2")
    t.act("wait", "P2", actor="B2")
    before = t.act("main_turn_ended", "P2", actor="B2")
    t.act("bs_recovery_check", "P2", actor="B2", bs="Poison", check={**CHK, "declared": "odd", "die": 2})
    t.end_turn()
    fix = {"to_seq": before, "reason": "die showed 3", "basis": "record_fix"}
    if not options.get("allow_record_fixes", True):
        t.refuse("PBW-COR-11", "rewind", "P1", **fix, confirmations=["P1", "P2"])
        return t
    t.refuse("PBW-COR-11", "rewind", "P1", **fix, confirmations=["P1"])
    t.act("rewind", "P1", **fix, confirmations=["P1", "P2"])
    t.act("bs_recovery_check", "P2", actor="B2", bs="Poison", check={**CHK, "declared": "odd", "die": 3})
    t.checkpoint("Poison removed", {"characters": {"B2": {"bs": [], "bs_history": ["Poison"]}}})
    return t
