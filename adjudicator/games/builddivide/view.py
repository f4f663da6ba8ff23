"""What the table sees (§9): per-viewer views, the board, a judge's description, the outcome and
the explanations of a payment and of a battle or damage sequence. Open actions are in ``legal.py``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.battle import total
from adjudicator.games.builddivide.events import Pay
from adjudicator.games.builddivide.legal import legal  # noqa: F401  (re-exported for game.py)
from adjudicator.games.builddivide.payment import card_cost, release_cost, split
from adjudicator.games.builddivide.state import Player, State, Unit
from adjudicator.engine.kit import Board, BoardCard, Zone
from adjudicator.engine.protocol import JUDGE, Malformed, Outcome


def _sees(viewer: str | None, owner: str) -> bool:
    return viewer in (None, JUDGE) or viewer == owner


def unit_view(s: State, u: Unit, ref: str, instance: str) -> dict[str, Any]:
    return {"name": u.name, "ref": ref, "instance": instance, "power": Z.power(s, u), "hit": Z.hit(s, u), "damage": u.damage,
            "standing": u.standing, "modifiers": [{"stat": m.stat, "delta": m.delta, "duration": m.duration} for m in u.modifiers],
            "statuses": [x.tag for x in u.statuses]}


def zone_refs(p: Player, zone: str) -> list[tuple[str, str]]:
    """(reference in that zone, full reference) of each card of ``p``'s ``zone``, in order (§15)."""
    scope = R.of_player(p, (zone,))
    return [(R.ref(c, scope), c.instance) for c in scope]


def player_view(s: State, p: Player, viewer: str | None) -> dict[str, Any]:
    yellow, red = Z.life_split(p)
    out: dict[str, Any] = {
        "deck": p.deck_count, "hand_count": len(p.hand), "life": len(p.life), "yellow": yellow, "red": red,
        "energy": [{"name": e.name, "ref": ref, "instance": full, "colours": list(s.catalog[e.name].colours) if e.name in s.catalog else [],
                    "standing": e.standing} for e, (ref, full) in zip(p.energy, zone_refs(p, "ENERGY"))],
        "energy_standing": sum(1 for e in p.energy if e.standing), "energy_rested": sum(1 for e in p.energy if not e.standing),
        "field": [unit_view(s, u, *refs) for u, refs in zip(p.field, zone_refs(p, "FIELD"))],
        "graveyard": list(p.graveyard), "remove_zone": list(p.remove_zone),
        "territory": None if p.territory is None else {"name": p.territory.name, "ref": p.territory.name, "instance": f"{p.name}:{p.territory.name}#1",
                                                        "face": p.territory.face, "standing": p.territory.standing,
                                                        "released": p.territory.face == "RELEASED"},
        "d_deck_count": len(p.d_deck), "energy_placed_this_turn": p.energy_placed_this_turn, "mulligan": p.mulligan,
        "disclosed_abandoned": list(p.disclosed_abandoned),
    }
    if _sees(viewer, p.name):
        out["hand"] = [h or "?" for h in p.hand]
        out["d_deck"] = list(p.d_deck)
        out["unseen"] = {k: v for k, v in sorted(p.unseen.items()) if v}
    return out


def attack_view(s: State) -> dict[str, Any]:
    """The attack, its units named as on their fields now (as declared, once they have left)."""
    a = s.game.attack
    tp = s.game.turn_player or ""

    def named(iid: int, owner: str, given: str) -> str:
        found = Z.by_iid(s, iid) if iid else None
        return given if found is None else Z.unit_ref(s, found[1], owner)

    opp = Z.opponent(s, tp)
    return {"attacker": named(a.attacker_iid, tp, a.attacker), "original_target": a.original_target if a.original_target == opp or a.block_used
            else named(a.target_iid, opp, a.original_target), "current_target": named(a.target_iid, opp, a.current_target),
            "block_used": a.block_used, "step": a.step}


def window_unit(s: State) -> str:
    who, iid = s.game.release_window
    found = Z.by_iid(s, iid)
    return Z.unit_ref(s, found[1], who) if found else ""


def view(s: State, viewer: str | None = None) -> dict[str, Any]:
    g = s.game
    out = outcome(s)
    stack = R.in_play(s, zones=("STACK",))
    return {
        "game": "builddivide", "seats": list(s.names), "game_no": g.game_no, "status": g.status,
        "setup_step": g.setup_step if g.status == "SETUP" else None, "first_player": g.first_player,
        "turn": g.turn_number, "turn_player": g.turn_player, "phase": g.phase, "end_step": g.end_step,
        "drawn_this_phase": g.drawn_this_phase,
        "players": {p.name: player_view(s, p, viewer) for p in g.players},
        "resolution_zone": [{"ref": ref, "instance": c.instance, "kind": i.kind, "controller": i.controller, "card": i.card,
                             "ability_id": i.ability_id, "source": i.source, "from_shot": i.from_shot}
                            for i, c, ref in zip(g.stack, stack, R.refs(stack))],
        "attack": None if g.attack is None else attack_view(s),
        "damage": None if g.damage is None else {"victim": g.damage.victim, "source": g.damage.source, "attack": g.damage.attack,
                                                 "dealt": g.damage.dealt, "bonus": g.damage.bonus, "total": total(s, g.damage),
                                                 "waiting": g.damage.waiting, "shot_card": g.damage.shot_card},
        "release_window": None if g.release_window is None else {"player": g.release_window[0], "unit": window_unit(s)},
        "result": None if g.result is None else {"winner": g.result.winner, "reason": g.result.reason, "detail": g.result.detail},
        "result_confirmed": g.result_confirmed, "wins": wins(s), "past_games": [r.reason if r.winner is None else r.winner for r in s.past],
        "patches": list(g.patches), "shuffle_owed": list(g.shuffle_owed), "outcome": out.status, "winner": out.winner,
    }


# -- results -------------------------------------------------------------------------------------------------
def _results(s: State) -> list:
    cur = [s.game.result] if s.game.status == "ENDED" and s.game.result is not None else []
    return [r for r in list(s.past) + cur if r.reason != "void"]


def wins(s: State) -> dict[str, int]:
    res = _results(s)
    return {n: sum(1 for r in res if r.winner == n) for n in s.names}


def outcome(s: State) -> Outcome:
    score = wins(s) if s.options.best_of > 1 else None
    if s.match_result is not None:
        return Outcome(status="void", score=score, reason="void", detail=s.match_result.detail)
    if s.options.best_of == 1:
        r = s.game.result if s.game.status == "ENDED" else None
        if r is None:
            return Outcome(status="in_progress")
        if r.winner is None:
            return Outcome(status="drawn", reason=r.reason, detail=r.detail)
        return Outcome(status="won", winner=r.winner, reason=r.reason, detail=r.detail)
    for n, w in (score or {}).items():
        if w >= 2:
            return Outcome(status="won", winner=n, score=score, reason="match", detail=f"{n} wins {w} games")
    return Outcome(status="in_progress", score=score)


# -- the board ----------------------------------------------------------------------------------------------
def board(s: State, viewer: str | None = None) -> Board:
    g = s.game
    zones: list[Zone] = []
    counters: dict[str, dict[str, Any]] = {}
    for p in g.players:
        y, r = Z.life_split(p)
        counters[p.name] = {"life": len(p.life), "yellow": y, "red": r, "hand": len(p.hand), "deck": p.deck_count}
        hand = tuple(BoardCard(id=h, label=h) if (h and _sees(viewer, p.name)) else BoardCard(face_up=False) for h in p.hand)
        zones += [
            Zone(name="deck", owner=p.name, count=p.deck_count),
            Zone(name="hand", owner=p.name, cards=hand),
            Zone(name="life", owner=p.name, cards=tuple(BoardCard(face_up=False, tags=("yellow" if i >= 5 else "red",))
                                                        for i in range(len(p.life)))),
            Zone(name="energy", owner=p.name, cards=tuple(BoardCard(id=full, label=ref, turned=not e.standing,
                                                                    tags=tuple(s.catalog[e.name].colours) if e.name in s.catalog else ())
                                                          for e, (ref, full) in zip(p.energy, zone_refs(p, "ENERGY")))),
            Zone(name="field", owner=p.name, cards=tuple(BoardCard(id=full, label=ref, turned=not u.standing,
                                                                   counters={"power": Z.power(s, u), "hit": Z.hit(s, u), "damage": u.damage},
                                                                   tags=tuple(x.tag for x in u.statuses))
                                                         for u, (ref, full) in zip(p.field, zone_refs(p, "FIELD")))),
            Zone(name="graveyard", owner=p.name, cards=tuple(BoardCard(id=c, label=c) for c in p.graveyard)),
            Zone(name="removed", owner=p.name, cards=tuple(BoardCard(id=c, label=c) for c in p.remove_zone)),
            Zone(name="territory", owner=p.name, cards=() if p.territory is None else (
                BoardCard(id=f"{p.name}:{p.territory.name}#1", label=p.territory.name, turned=not p.territory.standing, tags=(p.territory.face,)),)),
            Zone(name="d_deck", owner=p.name, count=len(p.d_deck)),
        ]
    stack = R.in_play(s, zones=("STACK",))
    zones.append(Zone(name="resolution zone", cards=tuple(BoardCard(id=c.instance, label=ref if i.card else f"{i.source}: {ref}")
                                                          for i, c, ref in zip(g.stack, stack, R.refs(stack)))))
    return Board(players=s.names, counters=counters, zones=tuple(zones), turn=g.turn_player or "", phase=g.phase or g.status,
                 waiting=waiting(s))


def waiting(s: State) -> str:
    from adjudicator.games.builddivide.rules import busy

    g = s.game
    if g.status == "SETUP":
        return f"setup step {g.setup_step}"
    if g.status == "ENDED":
        return "the game is over"
    if g.status == "VOID":
        return "the match is void"
    return busy(s) or f"{g.turn_player}: {(g.phase or '').lower()} phase" + (f" ({g.end_step})" if g.end_step else "")


def describe(s: State, viewer: str | None = None) -> str:
    g = s.game
    lines = [f"Build Divide game {g.game_no}: {g.status.lower()}" + (f", turn {g.turn_number} ({g.turn_player}), {g.phase}" if g.turn_number else ""),
             f"waiting for: {waiting(s)}"]
    for p in g.players:
        v = player_view(s, p, viewer)
        energy = ", ".join(f"{e['ref']}{'' if e['standing'] else ' (rested)'}" for e in v["energy"]) or "none"
        field = ", ".join(f"{u['ref']} {u['power']}/{u['hit']} dmg {u['damage']}{'' if u['standing'] else ' (rested)'}" for u in v["field"]) or "empty"
        ter = v["territory"]
        lines += [f"{p.name}: deck {p.deck_count}, hand {len(p.hand)}" + (f" [{', '.join(v['hand'])}]" if "hand" in v else "")
                  + f", life {Z.life_text(p)}",
                  f"  energy: {energy}", f"  field: {field}",
                  f"  graveyard: {', '.join(p.graveyard) or 'empty'}; removed: {', '.join(p.remove_zone) or 'none'}",
                  f"  territory: {ter['name'] + ' ' + ter['face'].lower() if ter else 'none'}; D deck {len(p.d_deck)}"]
    if g.stack:
        stack = R.in_play(s, zones=("STACK",))
        lines.append("resolution zone (top last): " + ", ".join(ref if i.card else f"{i.source}: {ref}"
                                                                for i, ref in zip(g.stack, R.refs(stack))))
    if g.result is not None:
        lines.append(f"result: {g.result.winner or 'no winner'} ({g.result.reason}: {g.result.detail})")
    return "\n".join(lines)


# -- explain --------------------------------------------------------------------------------------------
def explain(s: State, query: Mapping[str, Any]) -> dict[str, Any]:
    """``{"payment": [...], "card": NAME}`` (or ``"release": UNIT``): which energy pays which part;
    ``{}`` or ``{"units": [...]}`` during an attack: the battle or the damage point by point."""
    if "payment" in query:
        return explain_payment(s, query)
    g = s.game
    if g.damage is not None:
        d = g.damage
        return {"damage": {"victim": d.victim, "source": d.source, "attack": d.attack, "dealt": d.dealt, "bonus": d.bonus,
                           "total": total(s, d), "life": Z.life_text(Z.player(s, d.victim)),
                           "steps": [f"point {d.dealt + 1}: win check (life {len(Z.player(s, d.victim).life)}), then reveal the top life card"
                                     if d.waiting == "REVEAL" else f"waiting: {d.waiting.lower()}",
                                     f"{d.dealt} of {total(s, d)} points dealt ({d.bonus} from buster icons)"]}}
    a = g.attack
    if a is not None:
        att, tgt = Z.by_iid(s, a.attacker_iid), Z.by_iid(s, a.target_iid)
        if att is None or tgt is None:
            return {"battle": {"happens": False, "why": "the attacker or the current target has left the field (BD-RES-10 step 1)"}}
        steps = []
        for (owner, u), (_, other) in ((att, tgt), (tgt, att)):
            after = u.damage + max(0, Z.power(s, other))
            steps.append({"unit": Z.unit_ref(s, u, owner.name), "power": Z.power(s, u), "takes": max(0, Z.power(s, other)),
                          "damage_after": after, "destroyed": after >= Z.power(s, u)})
        named = attack_view(s)
        return {"battle": {"happens": True, "attacker": named["attacker"], "target": named["current_target"], "points": steps}}
    if "unit" in query:
        return explain_card(s, str(query["unit"]))
    last = g.last_payment
    if last is not None:
        return {"payment": {"payer": last.payer, "for": last.what, "cost": last.cost,
                            "entries": [{"energy": e, "as": a, "pays": part} for e, a, part in last.entries]}}
    raise Malformed("nothing to explain: no attack in progress and no payment made yet; name a unit or a card", "$")


def explain_card(s: State, name: str) -> dict[str, Any]:
    """A unit's power and hit (printed + modifiers) and damage, the unit named by its instance
    reference on either field (§15); else a card's cost parts."""
    found = Z.find_unit(s, name, "$.unit")
    c = s.catalog.get(found[1].name if found else name)
    if found is not None and c is not None:
        u = found[1]
        return {"unit": Z.unit_ref(s, u), "owner": found[0].name,
                "power": {"printed": u.printed.get("POWER", c.power), "modifiers": [m.delta for m in u.modifiers if m.stat == "POWER"], "now": Z.power(s, u)},
                "hit": {"printed": u.printed.get("HIT", c.hit), "modifiers": [m.delta for m in u.modifiers if m.stat == "HIT"], "now": Z.hit(s, u)},
                "damage": u.damage, "destroyed_at": f"damage >= {Z.power(s, u)}", "standing": u.standing}
    if c is None:
        raise Malformed(f"{name!r} is neither a unit on the field nor a card of the catalog", "$.unit")
    cost = card_cost(c)
    return {"card": name, "type": c.type, "timing": c.timing, "cost": cost.text(), "colour_parts": cost.colours, "generic": cost.generic}


def explain_payment(s: State, query: Mapping[str, Any]) -> dict[str, Any]:
    name = query.get("card") or query.get("release")
    c = s.catalog.get(str(name))
    if c is None:
        raise Malformed(f"{name!r} is not in the catalog", "$.card")
    try:
        payment = [Pay(energy=str(p["energy"]), as_=p["as"]) for p in query["payment"]]
    except (KeyError, TypeError):
        raise Malformed("payment is a list of {energy, as}", "$.payment") from None
    if "release" in query:
        who = s.game.turn_player or s.names[0]
        p = Z.player(s, who)
        ter = s.catalog[p.territory.name] if p.territory else None
        if ter is None:
            raise Malformed("no territory to release", "$.release")
        cost = release_cost(ter, c.total_cost, s.options.release_reduction_order)
    else:
        cost = card_cost(c)
    return {"card": c.name, "cost": cost.text(), "colour_parts": cost.colours, "generic": cost.generic,
            "entries": split(payment, cost), "exact": len(payment) == cost.total}
