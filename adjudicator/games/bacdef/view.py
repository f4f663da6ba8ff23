"""What each person at the table may see (§9), and the one-glance text of the position."""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.games.bacdef.checks import STEP_LABELS
from adjudicator.games.bacdef.state import Card, State, TurnState, damage_level, losing, orders_missing
from adjudicator.engine.protocol import JUDGE

ARROW = {"up": "↑", "down": "↓"}


def score_line(s: State) -> str:
    a, b = s.players
    text = f"{a} {s.set_wins[a]} - {s.set_wins[b]} {b}"
    if s.void_sets:
        text += f", {s.void_sets} void"
    return text


def _sees(viewer: str | None, owner: str) -> bool:
    return viewer is None or viewer == owner


def _card(s: State, c: Card, viewer: str | None) -> dict[str, Any]:
    visible = c.face == "up" or _sees(viewer, c.owner)
    # A face-down card's identity is private to its owner (BAC-HID-2): not even its id is shown.
    d: dict[str, Any] = {"id": c.id if visible else None, "face": c.face}
    if visible:
        d["letter"] = c.letter
    if c.zone == "field":
        d["orientation"] = c.orientation
    return d


def view(s: State, viewer: str | None = None) -> dict[str, Any]:
    """``viewer`` None is the judge (everything); a player name is that player's view; any
    other name is a spectator's public view."""
    out: dict[str, Any] = {
        "game": "bacdef",
        "players": list(s.players),
        "status": s.status,
        "match_winner": s.match_winner,
        "set_wins": dict(s.set_wins),
        "void_sets": s.void_sets,
        "set_results": [{"set_no": r.set_no, "outcome": r.outcome, "winner": r.winner, "reason": r.reason} for r in s.set_results],
        "options": msgspec.structs.asdict(s.options),
    }
    st = s.set
    if st is None:
        return out
    sv: dict[str, Any] = {"set_no": st.set_no, "stage": st.stage, "first_player": st.first_player}
    sv["players"] = {p: _player_view(s, p, viewer) for p in s.players}
    sv["lasting"] = [{"id": l.id, "source": l.source, "text": l.text, "expires_turn": l.expires_turn} for l in st.lasting]
    if st.turn is not None:
        sv["turn"] = _turn_view(s, st.turn, viewer)
    out["set"] = sv
    return out


def _player_view(s: State, p: str, viewer: str | None) -> dict[str, Any]:
    st = s.set
    ps = st.players[p]
    pv: dict[str, Any] = {
        "hand_count": len(ps.hand),
        "guards": [],
        "overflow": ps.overflow,
        "D": damage_level(ps),
        "losing": losing(ps),
        "discard": [_card(s, st.cards[cid], viewer) for cid in ps.discard],
        # BAC-HID-3: another viewer learns a special only once an activation revealed it; which
        # specials the deck holds at all is the deck list's, private (BAC-HID-2)
        "special_used": dict(ps.special_used) if _sees(viewer, p) else {k: True for k, v in ps.special_used.items() if v},
    }
    if _sees(viewer, p):
        pv["hand"] = [{"id": cid, "letter": st.cards[cid].letter} for cid in ps.hand]
        pv["deck"] = list(ps.deck)
    for n, g in enumerate(ps.guards, 1):
        c = st.cards[g.card_id]
        gv: dict[str, Any] = {"slot": n, "state": g.state}
        if _sees(viewer, p) or c.face == "up":
            gv["card_id"] = c.id
            gv["letter"] = c.letter
        pv["guards"].append(gv)
    field = [c for c in st.cards.values() if c.owner == p and c.zone == "field"]
    pv["field"] = [_card(s, c, viewer) for c in sorted(field, key=lambda c: c.id)]
    return pv


def _turn_view(s: State, t: TurnState, viewer: str | None) -> dict[str, Any]:
    return {
        "no": t.no,
        "attacker": t.attacker,
        "defender": t.defender,
        "step": t.step,
        "start_seq": t.start_seq,
        "skipped": t.skipped,
        "handless": dict(t.handless),
        "reaction": t.reaction,
        "replays_used": t.replays_used,
        "damage_received": dict(t.damage_received),
        "instances": [
            {
                "id": i.id,
                "controller": i.controller,
                "side": i.side,
                "kind": i.kind,
                "card_id": i.card_id if (i.kind == "skill" or _sees(viewer, i.controller)) else None,
                "letter": i.letter,
                "status": i.status,
                "converted": i.converted,
            }
            for i in t.instances
        ],
        "queue": list(t.queue),
        "packets": [
            {"id": q.id, "source_side": q.source_side, "target": q.target, "amount": q.amount, "kind": q.kind, "applied": q.applied}
            for q in t.packets
        ],
        "shields": [{"player": sh.player, "remaining": sh.remaining if sh.remaining is not None else "all", "kind": sh.kind} for sh in t.shields],
        "awaiting": _awaiting(s, viewer),
        # what the table is shown the reducer waits for: for a face-down F, "fall processing"
        # (BAC-HID-4); the judge's view holds it too, so it says what the players see
        "public_awaiting": _awaiting(s, ""),
        "public_waiting": public_waiting(s),
        "notes": list(t.notes),
    }


def _awaiting(s: State, viewer: str | None) -> dict[str, Any] | None:
    t = s.set.turn
    a = t.awaiting
    if a is None:
        if t.step == "standby":
            return {"kind": "placement", "players": [p for p in s.players if not t.handless[p] and not t.placed.get(p)]}
        if t.step == "resolution" and orders_missing(t):
            return {"kind": "order", "players": orders_missing(t)}
        if t.step == "action":
            return {"kind": "action", "player": t.attacker}
        if t.step == "counter":
            return {"kind": "counter", "player": t.defender}
        if t.step == "end":
            return {"kind": "end", "player": JUDGE}
        return None
    if a.kind == "f_decision":
        c = s.set.cards[a.ref]
        if not _sees(viewer, c.owner) and c.face == "down":
            return {"kind": "fall_processing"}  # BAC-HID-4: no leak of a face-down F
        return {"kind": "f_decision", "player": a.player, "card_id": a.ref}
    d: dict[str, Any] = {"kind": a.kind, "player": a.player}
    if a.ref:
        d["ref"] = a.ref
    if a.points:
        d["points"] = a.points
    if a.victim:
        d["victim"] = a.victim
    return d


WAITING = {
    "effect": "the judge to enter resolve_effect for {ref}",
    "damage": "{player} to assign {points} damage point(s) ({ref})",
    "heal": "{player} to choose a slot for each heal point with a choice ({points} point(s) left)",
    "lost": "{player} to choose {points} card(s) lost from {victim}'s hand",
    "f_decision": "{player} to activate or decline the F {card_id}",
    "fall_processing": "fall processing",
}


def public_waiting(s: State) -> str:
    """The decision the reducer waits for, in words, as the public may know it (BAC-HID-4)."""
    if s.set is None or s.set.turn is None or s.set.turn.awaiting is None:
        return ""
    a = _awaiting(s, "")
    return WAITING[a["kind"]].format(**{"ref": "", "points": "", "victim": "", "card_id": "", "player": "", **a})


def waiting_line(s: State) -> list[str]:
    text = public_waiting(s)
    return [f"waiting for: {text}"] if text else []


# -- text -----------------------------------------------------------------------------------
def _cardtext(s: State, cid: str, viewer: str | None) -> str:
    c = s.set.cards[cid]
    if c.face == "up" or _sees(viewer, c.owner):
        return f"{cid}{ARROW[c.face]}{c.letter}"
    return f"?{ARROW[c.face]}"  # identity private (BAC-HID-2)


def describe(s: State, viewer: str | None = None) -> str:
    lines = [f"BACDEF  match {score_line(s)}  ({s.status}{': ' + s.match_winner if s.match_winner else ''})"]
    st = s.set
    if st is None or st.stage == "over":
        for r in s.set_results:
            lines.append(f"  set {r.set_no}: {r.outcome} {r.winner or ''} — {r.reason}")
        return "\n".join(lines)
    t = st.turn
    if st.stage != "turns":
        lines.append(f"set {st.set_no}: setup, {st.stage.replace('_', '-')} step")
    else:
        extra = f", replay {t.replays_used}" if t.replays_used else ""
        skipped = " (skipped)" if t.skipped else ""
        lines.append(
            f"set {st.set_no}  turn {t.no}{skipped}  attacker {t.attacker}  defender {t.defender}  step {STEP_LABELS[t.step]}{extra}  (turn began at seq {t.start_seq})"
        )
    width = max(len(p) for p in s.players)
    for p in s.players:
        ps = st.players[p]
        guards = " ".join(
            f"[{n}:{g.state} {_cardtext(s, g.card_id, viewer) if g.state != 'X' or not _sees(viewer, p) else g.card_id}]"
            for n, g in enumerate(ps.guards, 1)
        ) or "[no guards yet]"
        if _sees(viewer, p):
            hand = "{" + ", ".join(_cardtext(s, c, viewer) for c in ps.hand) + "}"
        else:
            hand = f"{len(ps.hand)} cards"
        field = [c.id for c in st.cards.values() if c.owner == p and c.zone == "field"]
        field_txt = ", ".join(_cardtext(s, c, viewer) + ("⟂" if st.cards[c].orientation == "sideways" else "") for c in field) or "-"
        discard = ", ".join(_cardtext(s, c, viewer) for c in ps.discard) or "-"
        used = ",".join(k for k, v in ps.special_used.items() if v) or "-"
        dmg = f"  dmg this turn {t.damage_received[p]}/3" if t else ""
        lose = "  LOSING" if losing(ps) else ""
        lines.append(
            f"  {p:<{width}}  guards {guards}  overflow {ps.overflow}  D={damage_level(ps)}{lose}{dmg}\n"
            f"  {'':<{width}}  hand {hand}  field {field_txt}  discard [{discard}]  specials used {used}"
        )
    if t is not None:
        if t.instances:
            lines.append(
                "  instances: "
                + "  ".join(f"{i.id} {i.controller} {i.kind}{' ' + i.letter if i.letter else ''} ({i.status}{', converted' if i.converted else ''})" for i in t.instances)
            )
        if t.queue:
            lines.append("  queue: " + " ".join(t.queue))
        if t.packets:
            lines.append(
                "  packets: "
                + "  ".join(f"{q.id} {q.source_side}->{q.target} {q.amount} {q.kind}{' (applied)' if q.applied else ''}" for q in t.packets)
            )
        a = _awaiting(s, viewer)
        if a:
            who = a.get("player") or ", ".join(a.get("players", [])) or "the table"
            lines.append(f"  waiting for: {who} — {a['kind'].replace('_', ' ')}{' ' + a['ref'] if a.get('ref') else ''}")
    if st.lasting:
        lines.append("  lasting: " + "; ".join(f"{l.id} {l.text} (until end of turn {l.expires_turn})" for l in st.lasting))
    return "\n".join(lines)
