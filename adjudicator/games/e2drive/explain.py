"""``adj explain``: an attack's damage (ATK − DEF in 10D units, the mutual 10D rule, evasion, the
overdrive adjustments, heat) and the acting order by SPD."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, order
from adjudicator.games.e2drive.state import SEATS, AttackSeq, State, parse_slot, servant
from adjudicator.games.e2drive.stats import stats
from adjudicator.engine.protocol import Malformed


def _stat_lines(state: State, ref: str) -> dict[str, Any]:
    sv = servant(state.game, ref)
    cur = stats(sv, state.options)
    why = []
    if sv.status.heat:
        why.append("heat: DUR, ATK, DEF −10 (E2D-LIM-17)")
    if sv.status.wait:
        why.append("wait: SPD −20, evasion 2e (E2D-LIM-18)")
    if sv.status.invisible:
        why.append("invisible: SPD set to 10, then modifiers (E2D-RES-14, E2D-RUL-25)")
    if sv.od.buster:
        why.append(f"Buster overdrive: ATK +{sv.od.buster}, B = {sv.od.buster} until targeted")
    if sv.od.blocker:
        why.append(f"Blocker overdrive: DEF +{sv.od.blocker} until targeted; reflection and compulsion")
    if sv.od.slicer_spd or sv.od.slicer_extra:
        why.append(f"Slicer overdrive: SPD +{sv.od.slicer_spd}, extra ATKs {sv.od.slicer_extra} until targeted")
    for m in sv.modifiers:
        why.append(f"modifier {m.id}: {m.stat} {m.op} {m.value} ({m.duration}, rank {m.rank}, {m.source or 'no source'})")
    return {"servant": ref, "name": sv.name, "printed": {"DUR": sv.printed.DUR, "ATK": sv.printed.ATK,
            "DEF": sv.printed.DEF, "SPD": sv.printed.SPD}, "current": cur, "damage": sv.damage,
            "destroyed_when_damage_exceeds": cur["DUR"], "why": why}


def attack_figures(state: State, attacker: str, target: str) -> dict[str, Any]:
    g = state.game
    tgt = servant(g, target)
    base = AttackSeq(attacker=attacker, target=target, target_was_unacted=tgt.action == "unacted", payment=(), step="defense")
    out: dict[str, Any] = {"attacker": _stat_lines(state, attacker), "target": _stat_lines(state, target),
                           "target_was_unacted": base.target_was_unacted}
    cases = {}
    options = state.options
    variants = [("with_def", rep(base, defended=True)), ("without_def", base)] if base.target_was_unacted else \
        [("no_evasion", base), ("evasion", rep(base, evaded=True))]
    for label, a in variants:
        dt, da, why = damage.calculate(g, a, options)
        if a.evaded:
            why.append(f"evasion: target's damage := 10D (E2D-RES-5), cost {2 if tgt.status.wait else 1}e")
            dt = 10
        dt, da, extra = damage.buster_adjust(g, a, dt, da, options)
        if extra:
            why.append(extra)
        t_after, a_after = tgt.damage + dt, servant(g, attacker).damage + da
        cases[label] = {"target_damage": dt, "attacker_damage": da, "target_total": t_after, "attacker_total": a_after,
                        "target_destroyed": t_after > stats(tgt, options)["DUR"],
                        "attacker_destroyed": a_after > stats(servant(g, attacker), options)["DUR"], "why": why}
    out["cases"] = cases
    return out


def acting_order(state: State) -> dict[str, Any]:
    g = state.game
    ranked = order.ranked(g, state.options)
    tied = order.top_tied(g, state.options)
    owners = sorted({parse_slot(r)[0] for r in tied})
    nxt = ("none: the main phase ends" if not tied else f"{tied[0]} acts" if len(tied) == 1 else
           f"{owners[0]} picks among {', '.join(tied)}" if len(owners) == 1 else
           f"{', '.join(tied)} tie across players: a coin or rock-paper-scissors decides which player goes")
    return {"candidates": [{"servant": r, "SPD": spd} for r, spd in ranked], "next": nxt,
            "acting": g.acting, "rule": "E2D-TURN-4: highest current SPD first; recomputed at each determination"}


def explain(state: State, query: Mapping[str, Any]) -> dict[str, Any]:
    g = state.game
    if not g.players:
        raise Malformed("no game has started; nothing to explain", "$")
    if "a" in query and "b" in query:
        a, b = str(query["a"]), str(query["b"])
        parse_slot(a, "$.a")
        parse_slot(b, "$.b")
        return {"attack": attack_figures(state, a, b), "order": acting_order(state)}
    if "unit" in query:
        ref = str(query["unit"])
        parse_slot(ref, "$.unit")
        return {"servant": _stat_lines(state, ref), "order": acting_order(state)}
    out: dict[str, Any] = {"order": acting_order(state)}
    if g.attack is not None:
        out["attack"] = attack_figures(state, g.attack.attacker, g.attack.target)
        out["attack"]["step"] = g.attack.step
    elif g.acting is not None:
        out["acting"] = _stat_lines(state, g.acting)
    out["players"] = list(SEATS)
    return out
