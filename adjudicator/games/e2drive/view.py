"""What each viewer sees (E2D-HID-1…5), the outcome, the judge's description and the board."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.games.e2drive import order
from adjudicator.games.e2drive.explain import explain
from adjudicator.games.e2drive.legal import legal
from adjudicator.games.e2drive.reasons import TEXT, Reason
from adjudicator.games.e2drive.flow import match_decided
from adjudicator.games.e2drive.rules import pending_text
from adjudicator.games.e2drive.state import SEATS, Pool, Servant, State, limited, player, servant, slots_of
from adjudicator.games.e2drive.stats import extra_allowance, stats
from adjudicator.engine.kit import HIDDEN
from adjudicator.engine.protocol import JUDGE, Outcome

__all__ = ["describe", "explain", "legal", "outcome", "result_words", "view"]

#: a phase in the table's words (E2D-TURN-2, -3, -8)
PHASE_WORDS = {"setup": "setup", "draw": "draw phase", "main": "main phase", "end": "turn end"}





def seat_of_viewer(state: State, viewer: str | None) -> str | None:
    if viewer is None or viewer == JUDGE:
        return None
    if viewer in SEATS:
        return viewer
    return SEATS[state.names.index(viewer)] if viewer in state.names else "spectator"


def pool_view(pl: Pool) -> dict[str, int]:
    return {"size": pl.size, "on": pl.on, "off": pl.off, "held_upkeep": pl.held_upkeep, "held_lock": pl.held_lock,
            "held_invisible": pl.held_invisible}


def overdrive_view(sv: Servant) -> dict[str, Any]:
    od = sv.od
    out: dict[str, Any] = {}
    if od.buster:
        out["buster_ATK"] = od.buster
    if od.blocker:
        out["blocker_DEF"] = od.blocker
    if od.slicer_spd or od.slicer_extra:
        out["slicer_SPD"] = od.slicer_spd
        out["slicer_extra"] = od.slicer_extra
    irregular = [m for m in sv.modifiers if m.source == "overdrive"]
    for m in irregular:
        out[f"irregular_{m.stat}"] = out.get(f"irregular_{m.stat}", 0) + m.value
    if out:
        out["expires"] = "when this servant is next targeted, destroyed or leaves play"
    return out


def servant_view(state: State, ref: str, hidden: bool) -> dict[str, Any]:
    g = state.game
    sv = servant(g, ref)
    cur = stats(sv, state.options)
    base: dict[str, Any] = {
        "face_up": not sv.face_down, "damage": sv.damage, "counters": sv.damage // 10, "destroyed": sv.destroyed,
        "action": sv.action, "statuses": sv.status.names(), "ether": pool_view(sv.pool),
        "equipment": [{"card": t.card, "owner": t.owner, "upkeep": t.upkeep} for t in sv.equipment],
    }
    if hidden:  # E2D-HID-1 (d): a face-down card with SPD 10
        return {**base, "card": HIDDEN, "name": HIDDEN, "type": HIDDEN, "DUR": HIDDEN, "ATK": HIDDEN, "DEF": HIDDEN,
                "SPD": cur["SPD"]}
    return {
        **base, "card": sv.card, "name": sv.name, "type": sv.type, **cur,
        "printed": {"DUR": sv.printed.DUR, "ATK": sv.printed.ATK, "DEF": sv.printed.DEF, "SPD": sv.printed.SPD},
        "modifiers": [{"id": m.id, "stat": m.stat, "op": m.op, "value": m.value, "duration": m.duration, "rank": m.rank,
                       "source": m.source} for m in sv.modifiers],
        "overdrive": overdrive_view(sv), "atk_count": sv.atk_count, "atk_paid": sv.atk_paid,
        "extra_atk_allowance": extra_allowance(sv),
    }


def player_view(state: State, seat: str, me: str | None) -> dict[str, Any]:
    g = state.game
    p = player(g, seat)
    judge = me is None
    return {
        "name": p.name, "deck": p.deck_count, "hand": p.hand_count,
        "hand_known": list(p.hand_known) if judge or me == seat else HIDDEN,
        "trash": list(p.trash), "damage_cards": p.damage_cards,
        "damage_card_ids": list(p.damage_card_ids) if judge else HIDDEN,
        "master": pool_view(p.master), "master_from_damage_cards": p.damage_cards,
        "tool_field": [{"card": t.card, "upkeep": t.upkeep} for t in p.tool_field],
        "limited": limited(g, seat) if g.players else False,
        "upkeep_due": order.upkeep_due(g, seat) if g.players else 0,
        "lost": p.lost,
    }


def view(state: State, viewer: str | None = None) -> dict[str, Any]:
    me = seat_of_viewer(state, viewer)
    g = state.game
    out: dict[str, Any] = {
        "players": {s: n for s, n in zip(SEATS, state.names)},
        "game": g.number, "status": g.status, "result": g.result, "reason": g.reason,
        "games": [{"game": r.number, "result": r.result, "reason": r.reason} for r in state.games],
        "match_void": state.voided,
    }
    if me is None:
        out["registrations"] = {s: {"deck": list(d), "servants": list(sv)} for s, (d, sv) in state.registrations.items()}
    elif me in SEATS:
        d, sv = state.registrations[me]
        out["registrations"] = {me: {"deck": list(d), "servants": list(sv)}}
    if not g.players:
        return out
    a = g.attack
    out.update({
        "turn": g.turn, "phase": g.phase, "acting": g.acting,
        "waiting": waiting(state),
        "attack": None if a is None else {
            "attacker": a.attacker, "target": a.target, "target_was_unacted": a.target_was_unacted, "step": a.step,
            "payment": [{"pool": x.pool, "n": x.n} for x in a.payment], "committed": a.committed,
            "defended": a.defended, "dmg_target": a.dmg_target, "dmg_attacker": a.dmg_attacker},
        "tie": None if g.tie is None else {"candidates": list(g.tie.candidates), "picks": g.tie.winner},
        "forced_revival": list(g.forced_revival), "upkeep_pending": list(g.upkeep),
        "order": [[r, spd] for r, spd in order.ranked(g, state.options)] if g.phase == "main" else [],
        "player": {s: player_view(state, s, me) for s in SEATS},
        "servants": {r: servant_view(state, r, hidden=me is not None and me != r[:2] and servant(g, r).face_down)
                     for s in SEATS for r in slots_of(s)},
        "locks": [{"by": lk.by_slot, "pool": lk.pool, "n": lk.n} for lk in g.locks],
        "restrictions": [{"subject": r.subject, "action": r.action, "permit": r.permit, "rank": r.rank,
                          "duration": r.duration} for r in g.restrictions],
        "cost_modifiers": [{"scope": c.scope, "delta": c.delta, "duration": c.duration} for c in g.costs],
        "notes": list(g.notes),
    })
    if me is not None:  # a face-down servant's name never shows through the notes
        out["notes"] = [n for n in g.notes if not any(servant(g, r).face_down and servant(g, r).name in n
                                                        for s in SEATS if s != me for r in slots_of(s))]
    return out


def waiting(state: State) -> str:
    """What the table waits for, to be read after "waiting for"."""
    g = state.game
    if g.status != "in_progress":
        return "" if match_decided(state) else "the judge to start the next game (game_started)"
    if g.attack is not None or g.tie is not None or g.forced_revival or g.upkeep:
        return pending_text(g)
    if g.phase == "draw":
        return "the judge to start the turn (start_turn)"
    if g.phase == "end":
        return "the judge to end the turn (end_turn)"
    return f"{player(g, g.acting[:2]).name} to act with {g.acting}" if g.acting else ""


#: The last outcome worked out, with what it was worked out from (by identity: the games played,
#: whether void, the options, the names): the state after an event that ended no game shares them
#: with the state before it, and the page of a long match asks the outcome at every event.
_LAST: tuple[Any, ...] = ()


def outcome(state: State) -> Outcome:
    global _LAST
    last = _LAST
    if last and last[0] is state.games and last[1] is state.options and last[2] is state.names and last[3] == state.voided:
        return last[4]
    got = _outcome(state)
    _LAST = (state.games, state.options, state.names, state.voided, got)
    return got


def _outcome(state: State) -> Outcome:
    n = state.options.games_per_match
    score = {name: sum(1 for r in state.games if r.result == s) for s, name in zip(SEATS, state.names)} if n > 1 else None
    if state.voided:
        return Outcome(status="void", score=score, reason=Reason.VOID.value, detail="the match is void")
    decided = [r for r in state.games if r.result != "void"]
    if n == 1:
        if not decided:
            return Outcome(status="in_progress")
        r = decided[-1]
        reason = Reason(r.reason)
        if r.result in SEATS:
            return Outcome(status="won", winner=state.names[SEATS.index(r.result)], reason=reason.value,
                           detail=_detail(reason))
        detail = "both players lose" if r.result == "both_lose" else "game drawn"
        return Outcome(status="drawn", reason=reason.value, detail=detail)
    if not match_decided(state):
        return Outcome(status="in_progress", score=score)
    assert score is not None
    best = max(score.values())
    if best >= (n + 1) // 2:
        winner = next(k for k, v in score.items() if v == best)
        return Outcome(status="won", winner=winner, score=score, reason=Reason.MAJORITY.value, detail=_detail(Reason.MAJORITY))
    return Outcome(status="drawn", score=score, reason=Reason.GAMES_USED.value, detail=_detail(Reason.GAMES_USED))


def _detail(reason) -> str:
    return TEXT[reason]


def result_words(state: State, result: str | None, reason: str | None) -> str:
    """A game's result in the table's words: ``won by alice (concession)``."""
    return result_text(state.names, result, reason)


def result_text(names: Sequence[str], result: str | None, reason: str | None) -> str:
    """``result_words`` for the match of the players ``names``."""
    if result in SEATS:
        text = f"won by {names[SEATS.index(result)]}"
    else:
        text = {"draw": "drawn", "both_lose": "both players lose", "void": "void", None: "not decided"}.get(result, str(result))
    said = reason in Reason._value2member_map_ and reason != Reason.VOID  # "void (voided by the judge)" says it twice
    return f"{text} ({TEXT[Reason(reason)]})" if said else text


def _hand_line(p: dict[str, Any]) -> str:
    """``hand 6`` and, to whoever may see them, the cards known to be in it."""
    known = p["hand_known"]
    if known == HIDDEN or not known:
        return f"hand {p['hand']}"
    rest = p["hand"] - len(known)
    return f"hand {p['hand']} ({', '.join(known)}" + (f" and {rest} unknown)" if rest else ")")


def describe(state: State, viewer: str | None = None) -> str:
    g = state.game
    status = result_words(state, g.result, g.reason) if g.status in ("finished", "void") else g.status.replace("_", " ")
    lines = [f"E2Drive game {g.number}: {status}"]
    if not g.players:
        return "\n".join(lines)
    lines.append(f"turn {g.turn}, {PHASE_WORDS[g.phase]}; acting: {g.acting or '-'}; waiting for {waiting(state) or '-'}")
    v = view(state, viewer)
    for s in SEATS:
        pv = v["player"][s]
        m = pv["master"]
        lines.append(f"{s} {pv['name']}: deck {pv['deck']}, {_hand_line(pv)}, damage cards {pv['damage_cards']}, "
                     f"master ether {m['on']}/{m['size']} on, upkeep due {pv['upkeep_due']}"
                     + (", LIMITED" if pv["limited"] else "") + (f", tool field {[t['card'] for t in pv['tool_field']]}"
                                                                 if pv["tool_field"] else ""))
        for r in slots_of(s):
            sv = v["servants"][r]
            e = sv["ether"]
            state_txt = "destroyed" if sv["destroyed"] else sv["action"]
            lines.append(f"  {r} {sv['name']}: {sv['damage']}D ({sv['counters']} counters), DUR {sv['DUR']} ATK {sv['ATK']} "
                         f"DEF {sv['DEF']} SPD {sv['SPD']}, {state_txt}, ether {e['on']}/3 on"
                         + (f" (held {e['held_upkeep'] + e['held_lock'] + e['held_invisible']})" if e["held_upkeep"] + e["held_lock"] + e["held_invisible"] else "")
                         + (f", {', '.join(sv['statuses'])}" if sv["statuses"] else "")
                         + (f", equipment {[t['card'] for t in sv['equipment']]}" if sv["equipment"] else "")
                         + (f", overdrive {sv['overdrive']}" if sv.get("overdrive") else ""))
    a = v.get("attack")
    if a:
        paid = " + ".join(f"{x['pool']}×{x['n']}" for x in a["payment"]) or "0e"
        lines.append(f"attack: {a['attacker']} → {a['target']} ({paid}{', committed' if a['committed'] else ''}), "
                     f"waiting for {a['step']}" + (f"; calculated {a['dmg_target']}D / {a['dmg_attacker']}D"
                                                   if a["step"] == "evasion" else ""))
    for lk in v.get("locks", []):
        lines.append(f"lock: {lk['n']} unit(s) of {lk['pool']} held by the Etherizer in {lk['by']}")
    if v.get("order"):
        lines.append("acting order (SPD): " + ", ".join(f"{r} {spd}" for r, spd in v["order"]))
    lines += [f"game {r.number}: {result_words(state, r.result, r.reason)}" for r in state.games if r.number != g.number]
    lines += [f"! {w}" for w in state.game.warnings]
    return "\n".join(lines)
