"""The BACDEF table as one viewer may see it (the kit's generic ``Board``; rules §9 for what is hidden).

A face-down card's identity is private to its owner (BAC-HID-2): to anyone else it is a card
with neither id nor label. A hand shows its cards to its owner and the judge, a count to the rest.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.bacdef.checks import STEP_LABELS
from adjudicator.games.bacdef.state import Card, State, damage_level, losing
from adjudicator.games.bacdef.view import view as public_view
from adjudicator.engine.kit import Board, BoardCard, Zone

#: damage a guard slot shows, by its state (U upright, S sideways, X destroyed)
SLOT_DAMAGE = {"U": 0, "S": 1, "X": 2}

WAITING = {
    "placement": "{who} to place a field card",
    "order": "{who} to choose the resolution order",
    "action": "{who} to declare (action step)",
    "counter": "{who} to answer (counter step)",
    "end": "the judge to confirm the end phase",
    "effect": "the judge to resolve effect {ref}",
    "damage": "{who} to assign {points} damage point(s)",
    "heal": "{who} to place heal points",
    "lost": "{who} to choose {points} lost card(s) from {victim}'s hand",
    "f_decision": "{who} to activate or decline the F {card_id}",
    "fall_processing": "fall processing",
}


def _sees(viewer: str | None, owner: str) -> bool:
    return viewer is None or viewer == owner


def _label(s: State, letter: str) -> str:
    rule = s.catalog.get(letter)
    return f"{letter} {rule.title}" if rule is not None and rule.title else letter


def _card(s: State, c: Card, viewer: str | None, **extra: Any) -> BoardCard:
    if c.face == "up" or _sees(viewer, c.owner):
        return BoardCard(id=c.id, label=_label(s, c.letter), face_up=c.face == "up",
                         turned=c.orientation == "sideways", **extra)
    return BoardCard(face_up=False, turned=c.orientation == "sideways", **extra)


def _zones(s: State, p: str, viewer: str | None) -> list[Zone]:
    st = s.set
    ps = st.players[p]
    if _sees(viewer, p):
        hand = Zone(name="hand", owner=p, cards=tuple(
            BoardCard(id=cid, label=_label(s, st.cards[cid].letter)) for cid in ps.hand), count=len(ps.hand))
    else:
        hand = Zone(name="hand", owner=p, count=len(ps.hand))
    guards = tuple(  # a destroyed guard (X) is in the discard pile: its slot holds no card
        _card(s, st.cards[g.card_id], viewer, counters={"damage": SLOT_DAMAGE[g.state]}, tags=(f"slot {n}", g.state))
        for n, g in enumerate(ps.guards, 1) if st.cards[g.card_id].zone == "guard"
    )
    field = sorted((c for c in st.cards.values() if c.owner == p and c.zone == "field"), key=lambda c: c.id)
    return [
        hand,
        Zone(name="guards", owner=p, cards=guards),
        Zone(name="field", owner=p, cards=tuple(_card(s, c, viewer) for c in field)),
        Zone(name="discard", owner=p, cards=tuple(_card(s, st.cards[cid], viewer) for cid in ps.discard)),
    ]


def _waiting(s: State, viewer: str | None) -> str:
    turn = (public_view(s, viewer).get("set") or {}).get("turn")
    a = turn and turn.get("awaiting")
    if not a:
        return ""
    who = a.get("player") or ", ".join(a.get("players", ())) or "the table"
    fields = {"ref": "", "points": "", "victim": "", "card_id": "", **a, "who": who}
    return WAITING.get(a["kind"], "{who}: " + a["kind"]).format(**fields)


def board(s: State, viewer: str | None = None) -> Board:
    players = tuple(s.players)
    counters: dict[str, dict[str, Any]] = {p: {"sets won": s.set_wins[p]} for p in players}
    notes = [f"set {r.set_no}: " + (f"won by {r.winner}" if r.outcome == "win" else "void") + f" ({r.reason})"
             for r in s.set_results]
    st = s.set
    if st is None or not st.players:
        return Board(players=players, counters=counters, notes=tuple(notes))
    t = st.turn
    for p in players:
        ps = st.players[p]
        c = counters[p]
        c.update({"D": damage_level(ps), "overflow": ps.overflow})
        if ps.guards:
            c["guard slots"] = " ".join(f"{n}:{g.state}" for n, g in enumerate(ps.guards, 1))
        if t is not None:
            c["damage this turn"] = t.damage_received.get(p, 0)
        used = ",".join(k for k, v in ps.special_used.items() if v)
        if used:
            c["specials used"] = used
        if losing(ps):
            c["losing"] = True
    zones = [z for p in players for z in _zones(s, p, viewer)]
    if st.stage != "turns" or t is None:
        phase = f"set {st.set_no}: {st.stage.replace('_', ' ')} step"
    else:
        phase = f"set {st.set_no}, turn {t.no}: {STEP_LABELS[t.step]} step" + (" (skipped)" if t.skipped else "")
        if t.replays_used:
            phase += f", replay {t.replays_used}"
        notes += [f"{i.id}: {i.controller} {i.kind}{' ' + i.letter if i.letter else ''} ({i.status})" for i in t.instances]
    notes += [f"{e.id}: {e.text} (until end of turn {e.expires_turn})" for e in st.lasting]
    return Board(players=players, counters=counters, zones=tuple(zones), turn=t.attacker if t else "",
                 phase=phase, waiting=_waiting(s, viewer), notes=tuple(notes))
