"""The actions open now (``adj legal``), each with who may enter it and structured choices that
every combination of which is accepted (PBW-TURN-*, §5)."""

from __future__ import annotations

from itertools import permutations

from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.combat import rollers
from adjudicator.games.pbwcg.decks import is_holy_grail
from adjudicator.games.pbwcg.flow import draw_needed, field_sources, next_actor
from adjudicator.games.pbwcg.state import Character, State
from adjudicator.engine.kit import fields_text, integer, one, some
from adjudicator.engine.protocol import JUDGE, LegalAction


def _needed(s: State) -> list[str]:
    return list(s.in_battle()) + ([JUDGE] if s.options.judge_present else [])


def _la(who: str, type_: str, note: str = "", anytime: bool = False, **choices) -> LegalAction:
    return LegalAction(who=who, type=type_, fields=fields_text(choices), note=note, anytime=anytime, choices=choices)


def _everyone(s: State, type_: str, note: str = "", **choices) -> list[LegalAction]:
    return [_la(p, type_, note, **choices) for p in s.in_battle()]


def _activatable(s: State, player: str, magic: bool) -> list[int]:
    out = []
    for i, x in enumerate(s.player(player).set_zone, 1):
        if x is None or x.face_up or x.set_turn >= s.turn:
            continue
        card = s.cards[x.card]
        if (card.category == "MAGIC") and not magic:
            continue
        if s.options.local_F_exclude_holy_grail and is_holy_grail(card):
            continue
        out.append(i)
    return out


def _pl_turn(s: State) -> list[LegalAction]:
    p = s.pl_order[s.pl_index]
    pl = s.player(p)
    out = []
    if pl.placements_used < V.trunc_div(pl.max_pc_count, 2):
        sets = [c for c in pl.hand if s.cards[c].card_type == "SET"]
        empty = [i for i, x in enumerate(pl.set_zone, 1) if x is None]
        if sets and empty:
            out.append(_la(p, "card_set", player=one(p), card=one(*sets), set_slot=one(*empty)))
        pcs = [c for c in pl.hand if s.cards[c].card_type == "PC"]
        taken = {c.slot for c in s.field(p, "PC")}
        free = [i for i in range(1, pl.max_pc_count + 1) if i not in taken]
        if pcs and free:
            out.append(_la(p, "pc_summoned", player=one(p), card=one(*pcs), slot=one(*free)))
        items = [c for c in pl.hand if s.cards[c].card_type == "EQUIPMENT"]
        own = [c.card for c in s.field(p, "PC")]
        if items and own:
            out.append(_la(p, "equipped", player=one(p), card=one(*items), pc=one(*own)))
    down = [i for i, x in enumerate(pl.set_zone, 1) if x is not None and not x.face_up]
    if down and not pl.facedown_discard_used:
        out.append(_la(p, "set_card_discarded", player=one(p), set_slot=one(*down)))
    ready = _activatable(s, p, magic=False)
    if ready and pl.pl_activations_used < 2:
        out.append(_la(p, "set_card_activated", player=one(p), set_slot=one(*ready), ops=one([]), persistent=one(None)))
    out.append(_la(p, "pl_turn_ended", player=one(p)))
    return out


def _targets(s: State, c: Character) -> list[str]:
    """The enemy PCs, and each enemy player whose field holds no PC while their HP lasts
    (PBW-RES-9; under local rule D every other player in the battle is an enemy, PBW-RUL-47)."""
    out: list[str] = []
    for enemy in s.in_battle():
        if enemy == c.controller:
            continue
        pcs = [x.card for x in s.field(enemy, "PC")]
        out += pcs if pcs or s.player(enemy).hp <= 0 else [enemy]
    return out


def _checks(s: State, c: Character) -> list[dict]:
    return [{"declarer": c.controller, "roller": r, "declared": d, "die": n}
            for r in rollers(s, c.controller) for d in ("odd", "even") for n in range(1, 7)]


def _roles(s: State, c: Character) -> str:
    """PBW-HID-5: the controller declares, the opponent (the judge, when present) rolls."""
    return f"{c.controller} declares, {' or '.join(rollers(s, c.controller))} rolls"


def _check_note(s: State, attacker: Character, targets: list[str]) -> str:
    """Which checks an attack owes, per target (PBW-RES-6, PBW-RES-8)."""
    parts = []
    for t in targets:
        c = s.char(t)
        if c is None:
            continue
        n = V.evasion_bonus(c)
        attr = V.normal_attack_value(s, attacker)[1]
        owed = [f"{n} + tag evasion check(s)" if n else "evasion only with the CH-evasion tag"]
        if V.superior(s, V.main_attr(s, c), attr):
            owed.append("a receipt check if it carries a BS")
        parts.append(f"{t}: {', '.join(owed)} ({_roles(s, c)})")
    return "; ".join(parts)


def _range(s: State, c: Character, targets: list[str]) -> dict:
    """Under validate_range, a range that reaches every target offered (PBW-RUL-30: at most 3)."""
    if not s.options.validate_range:
        return {}
    return {"range": integer(max(V.distance(s, c, t) or 1 for t in targets), 3)}


#: the attributes an ability may name (§5, PBW-RES-4: NONE takes the highest attack value)
ATTRIBUTES = ("BODY", "TECH", "MIND", "NONE")


def _abilities(s: State, c: Character, targets: list[str]) -> list[LegalAction]:
    """PBW-ACT-20, PBW-LIM-21: the abilities the PC's card registers that its WP pays for. A card
    that registers none may use whatever ability its race and class give (the judge asserts it):
    offered as a menu of attribute and cost (nothing, or all its WP) for the table to replace with
    the ability's own data. Each against one enemy PC, or against no one (an ability that does not
    attack carries its text in ``ops``)."""
    registered = s.cards[c.card].abilities
    if registered:
        usable = [{"name": a.name, "attribute": a.attribute, "modifier": a.modifier, "wp_cost": a.wp_cost}
                  for a in registered if a.wp_cost <= c.wp]
    else:
        usable = [{"attribute": attr, "wp_cost": cost} for attr in ATTRIBUTES for cost in sorted({0, c.wp})]
    if not usable:
        return []
    rest = {"targets": one([], *[[t] for t in targets]), **(_range(s, c, targets) if targets else {})}
    choices = {"actor": one(c.card), "ability": one(*usable), **rest}
    if registered:
        return [_la(c.controller, "ability_used", **choices)]
    ability = f"ability={{attribute: {'|'.join(ATTRIBUTES)}, wp_cost: 0..{c.wp}, name?, modifier?, single_target?, evasion_tag?, bs?}}"
    return [LegalAction(who=c.controller, type="ability_used", fields=f"actor={c.card} {ability} {fields_text(rest)}",
                        note=f"{c.card} registers no abilities: one its race and class give, as the judge asserts (PBW-ACT-20)",
                        choices=choices)]


def _field_step(s: State) -> list[LegalAction]:
    """T5 (PBW-TURN-5): each source's owner may carry out its per-turn effect (PBW-ACT-14), the ops
    its text gives; then the step ends."""
    out = []
    for p in s.in_battle():
        theirs = [x for x in field_sources(s) if s.owner[x] == p]
        if theirs:
            out.append(_la(p, "field_effect", "the ops that carry out the card's per-turn effect", source=one(*theirs), ops=one([])))
    return out + _everyone(s, "field_step_ended")


def _main_turn(s: State) -> list[LegalAction]:
    main = s.main
    out: list[LegalAction] = []
    if main is not None and main.step != "M5":
        c = s.char(main.actor)
        if c is None:
            return [_la(s.in_battle()[0], "main_turn_ended", actor=one(main.actor))]
        who = c.controller
        if main.step == "M1":
            due = [b.name for b in c.bs if b.name not in main.effects_done]
            if due:
                owed = ", ".join(o.id for o in s.obligations if o.kind == "TRIG" and o.status == "open" and o.character == c.card)
                out.append(_la(who, "bs_effect", f"owed: {owed}", actor=one(c.card), bs=one(*due), ops=one([])))
        if main.step in ("M1", "M2"):
            if c.kind == "PC" and not main.set_activated:
                ready = _activatable(s, who, magic=main.actions_left > 0)
                if ready:
                    out.append(_la(who, "set_card_activated", player=one(who), set_slot=one(*ready), ops=one([]), persistent=one(None)))
            if c.equipment:
                out.append(_la(who, "equipment_discarded", pc=one(c.card), cards=some(c.equipment, 1, len(c.equipment))))
        if main.actions_left > 0 and not main.magic_used:
            targets = _targets(s, c)
            if targets:
                out.append(_la(who, "normal_attack", _check_note(s, c, targets), actor=one(c.card), target=one(*targets),
                               **_range(s, c, targets)))
            if c.kind == "PC":
                out += _abilities(s, c, [t for t in targets if t not in s.names()])
                slots = [i for i in range(1, s.player(who).max_pc_count + 1) if i != c.slot]
                out.append(_la(who, "move", actor=one(c.card), to_slot=one(*slots)))
            out.append(_la(who, "wait", actor=one(c.card)))
        out.append(_la(who, "main_turn_ended", actor=one(c.card)))
        return out
    if main is not None:  # M5
        c = s.char(main.actor)
        for o in s.obligations:
            if o.kind == "REC" and o.status == "open" and c is not None and o.character == c.card:
                out.append(_la(c.controller, "bs_recovery_check", f"{o.id}: {_roles(s, c)}", actor=one(c.card), bs=one(o.bs),
                               check=one(*_checks(s, c))))
    nxt = next_actor(s)
    if nxt is not None:
        actor = s.char(nxt[1])
        out.append(_la(actor.controller, "main_turn_started", actor=one(nxt[1])))  # type: ignore[union-attr]
    else:
        out += _everyone(s, "turn_ended")
    return out


def _step_actions(s: State) -> list[LegalAction]:
    if s.step == "SETUP":
        out = []
        for p in s.players:
            if not p.placed_initial and p.name not in s.out:
                pcs = [c for c in p.deck if s.cards[c].card_type == "PC"]
                out.append(_la(p.name, "initial_pcs_placed", player=one(p.name), pcs=some(pcs, 2, 2)))
        return out or _everyone(s, "battle_started", confirmations=one(_needed(s)))
    if s.step == "READY":
        return _everyone(s, "turn_started", turn=one(s.turn + 1))
    if s.step == "T1":
        out = []
        for g in s.pending_ties:
            orders = [list(o) for o in permutations(g)] if len(g) <= 4 else [list(g)]
            out += _everyone(s, "tie_break", members=one(list(g)), method=one("other"), order=one(*orders),
                             confirmations=one(_needed(s)))
        return out
    if s.step == "T2":
        return [_la(p, "cards_drawn", player=one(p), cards=some(s.player(p).deck, draw_needed(s, p), draw_needed(s, p)))
                for p in s.names() if draw_needed(s, p)]
    if s.step == "PL":
        return _pl_turn(s)
    if s.step == "FIELD":
        return _field_step(s)
    if s.step == "MAIN":
        return _main_turn(s)
    if s.step == "T7":
        out = []
        for p in s.players:
            counted = [c for c in p.hand if c not in p.special_hand]
            if len(counted) > 5 and p.name not in s.out:
                out.append(_la(p.name, "hand_discarded", player=one(p.name), cards=some(counted, len(counted) - 5, len(counted) - 5)))
        return out or _everyone(s, "turn_started", turn=one(s.turn + 1))
    return []


def legal(s: State) -> list[LegalAction]:
    if s.result is not None:
        if not s.confirmed:
            return _everyone(s, "result_confirmed", confirmations=one(_needed(s)))
        if s.options.best_of > 1 and s.match_winner() is None:  # §15: every player plays the next battle
            return [_la(p, "next_battle", battle=one(s.battle + 1)) for p in s.names()]
        return []
    if s.pending_choice is not None:
        pc = s.pending_choice
        c = s.char(pc.subject)
        items = V.items_of_part(s, c, pc.part) if c is not None else ()
        out = [_la(pc.player, "choice_made", kind=one("equipment"), subject=one(pc.subject), card=one(*items))]
    else:
        out = _step_actions(s)
    if s.battle_started:
        out += [_la(p, "surrender", "a loser's declaration (PBW-ACT-29)", True, player=one(p)) for p in s.in_battle()]
    return out
