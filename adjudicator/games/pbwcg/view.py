"""What each person at the table may see (PBW-HID-1), the judge's one-glance text, the board,
and ``explain`` (an attack's damage, the action order)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.state import Character, State
from adjudicator.engine.kit import HIDDEN, Board, BoardCard, Zone
from adjudicator.engine.protocol import JUDGE, Malformed


def _sees(viewer: str | None, owner: str) -> bool:
    return viewer in (None, JUDGE) or viewer == owner


def character_view(s: State, c: Character, viewer: str | None) -> dict[str, Any]:
    if not c.face_up and not _sees(viewer, c.controller):
        return {"card": HIDDEN, "kind": c.kind, "controller": c.controller, "slot": c.slot, "face_up": False}
    d: dict[str, Any] = {
        "card": c.card, "name": s.cards[c.card].name, "kind": c.kind, "controller": c.controller, "slot": c.slot,
        "face_up": c.face_up, "endurance": c.endurance, "endurance_max": c.endurance_max, "wp": c.wp, "wp_max": c.wp_max,
        "speed": V.speed(s, c), "main_attribute": V.main_attr(s, c),
        "attack_values": {a: V.av(s, c, a) for a in V.ATTRS}, "defence_values": {a: V.dv(s, c, a) for a in V.ATTRS},
        "bs": [b.name for b in c.bs], "bs_history": list(s.history_of(c.card)),
        "statuses": [{"name": st.name, "remaining": st.remaining, "end_of_turn": st.end_of_turn,
                      "bracketed": st.bracketed, "mods": msgspec.to_builtins(st.mods)} for st in c.statuses],
        "entered_turn": c.entered_turn,
    }
    if c.kind == "PC":
        d.update(equipment=list(c.equipment), weight=V.weight(s, c), sp=s.cards[c.card].sp or 0,
                 overweight=V.overweight(s, c), back_row=c.slot is not None and V.is_back(s, c.controller, c.slot))
    else:
        d.update(master=c.master, cp=s.cards[c.card].cp or 0)
    return d


def _set_zone(s: State, player: str, viewer: str | None) -> list[Any]:
    out: list[Any] = []
    for x in s.player(player).set_zone:
        if x is None:
            out.append(None)
        elif x.face_up or _sees(viewer, player):
            out.append({"card": x.card, "face_up": x.face_up, "set_turn": x.set_turn, "remaining": x.remaining})
        else:
            out.append({"card": HIDDEN, "face_up": False, "set_turn": x.set_turn})
    return out


def hp_cap_shown(s: State, name: str, viewer: str | None) -> int | str:
    """PBW-LIM-9's cap, or HIDDEN while a PC it counts is face down to the viewer (the initial PCs
    before battle start, PBW-HID-1): the cap would tell their printed HP."""
    if _sees(viewer, name) or all(c.face_up for c in s.field(name, "PC")):
        return V.hp_cap(s, name)
    return HIDDEN


def player_view(s: State, name: str, viewer: str | None) -> dict[str, Any]:
    p = s.player(name)
    mine = _sees(viewer, name)
    cap = V.trunc_div(p.max_pc_count, 2)
    return {
        "hp": p.hp, "hp_cap": hp_cap_shown(s, name, viewer), "deck_count": len(p.deck), "hand_count": len(p.hand),
        "hand": list(p.hand) if mine else HIDDEN, "special_hand": list(p.special_hand) if mine else HIDDEN,
        "deck": sorted(p.deck) if mine else HIDDEN, "support_list": list(p.support_list) if mine else HIDDEN,
        "discard": list(p.discard), "removed": list(p.removed), "set_zone": _set_zone(s, name, viewer),
        "max_pc_count": p.max_pc_count, "placements_used": p.placements_used, "placement_cap": cap,
        "pl_activations_used": p.pl_activations_used, "facedown_discard_used": p.facedown_discard_used,
        "pcs": {str(c.slot): c.card if (c.face_up or mine) else HIDDEN for c in s.field(name, "PC")},
        "out": name in s.out,
    }


def view(s: State, viewer: str | None = None) -> dict[str, Any]:
    main = s.main
    return {
        "game": "pbwcg",
        "battle": s.battle,
        "battles_won": s.battles_won(),
        "turn": s.turn,
        "step": s.step,
        "main_step": main.step if main else None,
        "actor": main.actor if main else None,
        "actions_left": main.actions_left if main else None,
        "pl_order": list(s.pl_order),
        "pl_turn": s.pl_order[s.pl_index] if s.step == "PL" else None,
        "action_order": [{"card": c, "speed": sp} for c, sp in zip(s.action_order, s.order_speeds)],
        "pending_ties": [list(g) for g in s.pending_ties],
        "players": {p: player_view(s, p, viewer) for p in s.names()},
        "characters": {c.card: character_view(s, c, viewer) for c in s.characters
                       if c.face_up or _sees(viewer, c.controller)},
        "field_state": None if s.field_state is None else {"card": s.field_state.card, "remaining": s.field_state.remaining},
        "obligations": [{"id": o.id, "kind": o.kind, "character": o.character, "bs": o.bs, "status": o.status,
                         "created_seq": o.created_seq, "closed_seq": o.closed_seq} for o in s.obligations],
        "open_obligations": [o.id for o in s.obligations if o.status == "open"],
        "pending_choice": None if s.pending_choice is None else msgspec.to_builtins(s.pending_choice),
        "result": None if s.result is None else {"status": s.result.status, "winner": s.result.winner,
                                                  "reason": s.result.reason, "seq": s.result.seq, "confirmed": s.confirmed},
        "notes": list(s.notes),
    }


def waiting(s: State) -> str:
    if s.result is not None:
        if not s.confirmed:
            return "result_confirmed"
        return f"next_battle {s.battle + 1}" if s.options.best_of > 1 and s.match_winner() is None else "nothing: the result is final"
    if s.pending_choice is not None:
        return f"{s.pending_choice.player}: choice_made ({s.pending_choice.part} of {s.pending_choice.subject})"
    return {
        "SETUP": "initial_pcs_placed, then battle_started", "READY": "turn_started", "T1": "tie_break",
        "T2": "cards_drawn", "FIELD": "field_effect or field_step_ended", "T7": "hand_discarded or turn_started",
    }.get(s.step, f"{s.pl_order[s.pl_index]}'s PL turn" if s.step == "PL" else
          f"{s.main.actor}'s main turn ({s.main.step})" if s.main else "main_turn_started or turn_ended")


#: the steps of a turn (PBW-TURN-1) and of a main turn (PBW-TURN-6) in the table's words
STEP_WORDS = {"SETUP": "setup", "READY": "the battle has started", "T1": "order check", "T2": "draw",
              "PL": "PL turns", "FIELD": "field step", "MAIN": "main turns", "T7": "turn end", "OVER": "the battle is over"}
MAIN_STEP_WORDS = {"M1": "M1, bad-status effects", "M2": "M2, set card and equipment", "M3": "M3, the action",
                   "M5": "M5, recovery checks"}


def phase_words(s: State) -> str:
    """Where the battle stands, in the table's words: 'turn 2, PL turns: P1's PL turn'."""
    where = STEP_WORDS[s.step]
    if s.step == "PL":
        where += f": {s.pl_order[s.pl_index]}'s PL turn"
    elif s.main is not None:
        where += f": {s.main.actor}'s main turn, {MAIN_STEP_WORDS[s.main.step]}"
    battle = f"battle {s.battle} of best of {s.options.best_of}, " if s.options.best_of > 1 else ""
    return f"{battle}turn {s.turn}, {where}"


def _names(items) -> str:
    return ", ".join(items) if items else "none"


def _mods_words(st) -> str:
    m = st.mods
    parts = [f"{what} {a} {n:+d}" for what, per in (("stat", m.stat), ("attack", m.attack), ("defence", m.defense))
             for a, n in per.items()]
    parts += [f"speed {m.speed:+d}"] * bool(m.speed) + [f"evasion checks {m.evasion:+d}"] * bool(m.evasion)
    left = "until end of turn" if st.end_of_turn else "permanent" if st.remaining is None else f"{st.remaining} turn(s) left"
    return ", ".join(parts + [left]) + (", bracketed" if st.bracketed else "")


def _character_lines(s: State, c: Character, viewer: str | None) -> list[str]:
    cv = character_view(s, c, viewer)
    if cv["card"] == HIDDEN:
        return [f"  slot {c.slot}: a face-down PC"]
    if c.kind == "PC":
        where = f"PC, slot {c.slot}, {'back' if cv['back_row'] else 'front'}"
        gear = f"; equipment {_names(c.equipment)}, weight {cv['weight']} of SP {cv['sp']}" + (
            f" (speed -{cv['overweight']})" if cv["overweight"] else "")
    else:
        where, gear = f"summon support of {c.master}, CP {cv['cp']}", ""
    lines = [f"  {c.card} ({where}): endurance {c.endurance}/{c.endurance_max}, WP {c.wp}/{c.wp_max}, speed {cv['speed']}{gear}"]
    if cv["bs"] or cv["bs_history"]:
        lines.append(f"    {c.card} bad statuses: {_names(cv['bs'])}; received this battle: {_names(cv['bs_history'])}")
    lines += [f"    {c.card} status {st.name}: {_mods_words(st)}" for st in c.statuses]
    return lines


def describe(s: State, viewer: str | None = None) -> str:
    """The state as the table would say it, for ``viewer``: what that viewer may see, the own hand
    (every hand for the judge) named card by card, every line once."""
    lines = [f"PBWCG {phase_words(s)}"]
    if s.options.best_of > 1:
        lines.append("battles won: " + ", ".join(f"{p} {n}" for p, n in s.battles_won().items()))
    if s.action_order:
        lines.append("action order: " + ", ".join(f"{c} (speed {sp})" for c, sp in zip(s.action_order, s.order_speeds))
                     + f"; PL turns {', then '.join(s.pl_order)}")
    if s.pending_ties:
        lines.append("tie-break needed: " + "; ".join(" and ".join(g) for g in s.pending_ties))
    for p in s.names():
        pv = player_view(s, p, viewer)
        hand = f"hand {pv['hand_count']}" + (f" ({_names(pv['hand'])})" if pv["hand"] != HIDDEN and pv["hand"] else "")
        special = f", special hand {_names(pv['special_hand'])}" if pv["special_hand"] != HIDDEN and pv["special_hand"] else ""
        gone = " (out of the battle)" if p in s.out else ""
        lines.append(f"{p}{gone}: HP {pv['hp']}, HP cap {pv['hp_cap']}, deck {pv['deck_count']}, {hand}{special}, "
                     f"discard pile {len(pv['discard'])}, removed {len(pv['removed'])}")
        slots = [f"{i} " + ("empty" if x is None else x["card"] if x["face_up"] and x["card"] != HIDDEN else
                            "face down" if x["card"] == HIDDEN else f"{x['card']} face down")
                 for i, x in enumerate(pv["set_zone"], 1)]
        lines.append(f"  {p}'s set zone: {', '.join(slots) if any(pv['set_zone']) else 'empty'}")
        for c in s.field(p):
            lines += _character_lines(s, c, viewer)
    if s.field_state is not None:
        left = "" if s.field_state.remaining is None else f", {s.field_state.remaining} turn(s) left"
        lines.append(f"field state: {s.field_state.card}{left}")
    opened = [o.id for o in s.obligations if o.status == "open"]
    if opened:
        lines.append("open obligations: " + ", ".join(opened))
    if s.result is not None:
        said = f"won by {s.result.winner}" if s.result.winner else "drawn"
        lines.append(f"result: {said} ({s.result.reason})" + (", confirmed" if s.confirmed else ""))
    lines.append("waiting for: " + waiting(s))
    return "\n".join(lines)


def _field_cards(s: State, p: str, viewer: str | None) -> list[BoardCard]:
    cards = []
    for c in sorted(s.field(p), key=lambda c: (c.kind, c.slot or 0, c.card)):
        shown = c.face_up or _sees(viewer, p)
        counters = {"endurance": c.endurance, "endurance max": c.endurance_max, "WP": c.wp, "speed": V.speed(s, c)} if shown else {}
        tags = [f"slot {c.slot}" if c.slot is not None else f"support of {c.master}"]
        if shown:
            tags += [f"BS {b.name}" for b in c.bs] + [f"status {st.name}" for st in c.statuses]
        cards.append(BoardCard(id=c.card if shown else None, label=s.cards[c.card].name if shown else None,
                               face_up=c.face_up, counters=counters, tags=tuple(tags), group=c.card if shown else None))
        for e in c.equipment:
            cards.append(BoardCard(id=e, label=s.cards[e].name, counters={"weight": s.cards[e].weight or 0},
                                   tags=(f"equipment of {c.card}", s.cards[e].part or ""), group=c.card))
    return cards


def _public(s: State, cards: tuple[str, ...]) -> tuple[BoardCard, ...]:
    return tuple(BoardCard(id=c, label=s.cards[c].name) for c in cards)


def board(s: State, viewer: str | None = None) -> Board:
    """Every registered card in one place: fields (characters with their equipment), set zones,
    decks and hands (counts where hidden), discard piles, removed zones, support lists, the field
    state."""
    zones = []
    counters: dict[str, dict[str, Any]] = {}
    for p in s.names():
        pl = s.player(p)
        mine = _sees(viewer, p)
        counters[p] = {"HP": pl.hp, "HP cap": hp_cap_shown(s, p, viewer), "deck": len(pl.deck), "hand": len(pl.hand)}
        if p in s.out:
            counters[p]["out of the battle"] = True
        zones.append(Zone(name="field", owner=p, cards=tuple(_field_cards(s, p, viewer))))
        sets = tuple(BoardCard(id=x.card if (x.face_up or mine) else None, label=s.cards[x.card].name if (x.face_up or mine) else None,
                               face_up=x.face_up, tags=(f"set slot {i}",)) for i, x in enumerate(pl.set_zone, 1) if x is not None)
        zones.append(Zone(name="set zone", owner=p, cards=sets))
        zones.append(Zone(name="deck", owner=p, count=len(pl.deck)))
        zones.append(Zone(name="hand", owner=p, cards=_public(s, pl.hand)) if mine else Zone(name="hand", owner=p, count=len(pl.hand)))
        zones.append(Zone(name="discard", owner=p, cards=_public(s, pl.discard)))
        zones.append(Zone(name="removed", owner=p, cards=_public(s, pl.removed)))
        zones.append(Zone(name="support list", owner=p, cards=_public(s, pl.support_list)) if mine
                     else Zone(name="support list", owner=p, count=len(pl.support_list)))
    if s.field_state is not None:
        zones.append(Zone(name="field state", cards=_public(s, (s.field_state.card,))))
    turn = s.pl_order[s.pl_index] if s.step == "PL" else (s.main.actor if s.main else "")
    # what the table shows while it lasts; what one event set off is its notes (Game.notes), said once
    notes = tuple(f"tie-break needed: {' and '.join(g)}" for g in s.pending_ties)
    notes += tuple(f"open: {o.id}" for o in s.obligations if o.status == "open")
    if s.action_order:
        notes += ("order: " + ", ".join(f"{c} ({sp})" for c, sp in zip(s.action_order, s.order_speeds))
                  + f"; PL turns {', then '.join(s.pl_order)}",)
    return Board(players=s.names(), counters=counters, zones=tuple(zones), turn=turn,
                 phase=phase_words(s), waiting=waiting(s), notes=notes)


def explain(s: State, query: Mapping[str, Any]) -> dict[str, Any]:
    """``adj explain MATCH A B`` (``{"a", "b"}``, or ``attacker``/``target``): the figures of A's
    normal attack on B (of an ability with ``attribute`` and ``modifier``); ``adj explain MATCH A``
    (``{"unit"}``): A's speed and values; ``adj explain MATCH``: the action order and why."""
    if "unit" in query:
        return _explain_unit(s, str(query["unit"]))
    attacker, target = query.get("a", query.get("attacker")), query.get("b", query.get("target"))
    if attacker is None and target is None:
        return _explain_order(s)
    a, t = s.char(str(attacker)), s.char(str(target))
    if a is None or t is None:
        raise Malformed(f"explain compares two characters on the fields (an attacker and a target), not {attacker!r} and {target!r}", "$")
    if "attribute" in query:
        e, attr = V.ability_value(s, a, str(query["attribute"]), int(query.get("modifier", 0)))
    else:
        e, attr = V.normal_attack_value(s, a)
    dv, tattr = V.defence_value(s, t), V.main_attr(s, t)
    d = max(0, e - dv)
    band = 1 if d <= 5 else 2 if d <= 10 else 3
    adj = 1 if V.superior(s, attr, tattr) else -1 if V.superior(s, tattr, attr) else 0
    return {
        "attacker": a.card, "target": t.card, "attack_attribute": attr or "NONE", "effect_value": e,
        "av_parts": {"stat": V.base_stat(s, a, attr) if attr else None, "weapons": V.weapon_mod(s, a, attr) if attr else None},
        "target_main_attribute": tattr, "defence_value": dv, "hp_damage": d,
        "hp_damage_rule": f"max(0, E {e} - DV {dv}) = {d} (PBW-RES-5)",
        "endurance_band": band, "attribute_adjustment": adj, "endurance_damage": max(0, band + adj),
        "endurance_rule": f"band {band} for D {d}, {adj:+d} for attributes (PBW-RES-7)",
        "bs_receipt_check": V.superior(s, tattr, attr),
    }


def _explain_unit(s: State, card: str) -> dict[str, Any]:
    c = s.char(card)
    if c is None:
        raise Malformed(f"{card!r} is not a character on a field", "$.unit")
    return {
        "card": card, "speed": V.speed(s, c), "speed_rule": "TECH + status speed - overweight (PBW-RES-3)",
        "tech": V.base_stat(s, c, "TECH"), "status_speed": sum(st.mods.speed for st in c.statuses),
        "weight": V.weight(s, c), "sp": s.cards[c.card].sp or 0, "overweight": V.overweight(s, c),
        "attack_values": {a: V.av(s, c, a) for a in V.ATTRS}, "defence_values": {a: V.dv(s, c, a) for a in V.ATTRS},
        "place_in_order": s.action_order.index(card) + 1 if card in s.action_order else None,
    }


def _explain_order(s: State) -> dict[str, Any]:
    rows = []
    for c in s.characters:
        rows.append({"card": c.card, "speed": V.speed(s, c), "tech": V.base_stat(s, c, "TECH"),
                     "overweight": V.overweight(s, c), "status_speed": sum(st.mods.speed for st in c.statuses),
                     "in_order_of_turn": c.entered_turn < max(s.turn, 1)})
    return {
        "order": list(s.action_order), "speeds": list(s.order_speeds), "pl_order": list(s.pl_order),
        "characters": sorted(rows, key=lambda r: -r["speed"]),
        "tie_breaks": [{"speed": g.speed, "order": list(g.order)} for g in s.tie_groups],
        "rule": "speed = TECH + status speed - overweight (PBW-RES-3), highest first; ties by die (PBW-TURN-11); "
                "the first PC's controller takes the second PL turn (PBW-RUL-15)",
    }
