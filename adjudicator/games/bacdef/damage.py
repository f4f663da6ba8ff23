"""Damage and heal (rules/bacdef.md BAC-RES-10, BAC-LIM-1, BAC-EFF-3): shields, the 3-point cap,
points placed one at a time on guard slots, overflow, and the heal that undoes them.

Also the complete lists of slot choices a damaged or healed player may enter now, which the
legal actions offer (every list in them is accepted, every other refused)."""

from __future__ import annotations

from itertools import product

from msgspec.structs import replace

from adjudicator.games.bacdef.state import Await, DamageKind, Packet, Shield, State, capacity, live_slots, marked, put, without
from adjudicator.games.bacdef.zones import note, set_card, to_discard
from adjudicator.engine.protocol import Violation

CAP = 3  # BAC-LIM-1: points a player can receive in one turn


def shielded(s: State, target: str, amount: int, kind: DamageKind) -> int:
    """Step 1 of BAC-RES-10: the PREVENT shields on ``target`` take what they can."""
    t = s.set.turn
    kept: list[Shield] = []
    for sh in t.shields:
        if amount <= 0 or sh.player != target or (sh.kind == "knock" and kind != "knock"):
            kept.append(sh)
            continue
        if sh.remaining is None:
            note(s, f"auto: {amount} point(s) to {target} prevented")
            amount = 0
        else:
            used = min(sh.remaining, amount)
            amount -= used
            if used:
                note(s, f"auto: {used} point(s) to {target} prevented")
            sh = Shield(player=sh.player, remaining=sh.remaining - used, kind=sh.kind)  # frozen: replaced
        kept.append(sh)
    t.shields = tuple(sh for sh in kept if sh.remaining is None or sh.remaining > 0)
    return amount


def damage(s: State, target: str, amount: int, kind: DamageKind, source: str) -> int:
    """Apply damage per BAC-RES-10; returns the points nullified by the cap."""
    t = s.set.turn
    ps = s.set.players[target]
    if t.shields:
        amount = shielded(s, target, amount, kind)
    eff = min(amount, CAP - t.damage_received[target])
    if amount > eff:
        note(s, f"auto: {amount - eff} point(s) to {target} nullified by the 3-point cap")
    if eff <= 0:
        return amount - eff
    t.damage_received = put(t.damage_received, target, t.damage_received[target] + eff)
    live = live_slots(ps)
    if len(live) <= 1 or eff >= capacity(ps):
        for _ in range(eff):
            live = live_slots(s.set.players[target])  # as the last point left it
            hit(s, target, live[0] if live else None)
        note(s, f"auto: {eff} {kind} damage to {target} from {source} placed")
    else:
        t.awaiting = Await(kind="damage", player=target, points=eff, dmg_kind=kind, ref=source)
    return amount - eff


def hit(s: State, target: str, slot: int | None) -> None:
    """One point on a guard slot (U -> S -> X), or overflow when no guard is left."""
    players = s.set.players
    ps = players[target]
    if slot is None:
        players[target] = replace(ps, overflow=ps.overflow + 1)
        return
    g = ps.guards[slot - 1]
    c = s.set.cards[g.card_id]
    if g.state == "U":
        players[target] = replace(ps, guards=marked(ps.guards, slot, "S"))
        s.set.cards[c.id] = replace(c, orientation="sideways")  # ``set_card``, without a call at every point
    elif g.state == "S":
        players[target] = replace(ps, guards=marked(ps.guards, slot, "X"))
        to_discard(s, c)


def packet(s: State, ctrl: str, source: str, target: str, amount: int, kind: DamageKind) -> None:
    """Damage produced while instances resolve waits in a packet for the Damage step (BAC-RES-9)."""
    t = s.set.turn
    side = "attacker" if ctrl == t.attacker else "defender"
    pid = f"Q{len(t.packets) + 1}"
    t.packets += (Packet(id=pid, source_side=side, source_instance=source, target=target, amount=amount, kind=kind),)
    t.notes += (f"auto: packet {pid} ({ctrl}->{target}, {amount}, {kind})",)  # ``note``, in a turn


# -- heal (BAC-EFF-3) ---------------------------------------------------------------------------
def heal_candidates(s: State, target: str) -> list[int]:
    ps = s.set.players[target]
    out = []
    for i, g in enumerate(ps.guards, 1):
        if g.state == "S":
            out.append(i)
        elif g.state == "X" and s.options.heal_can_restore_destroyed:
            c = s.set.cards[g.card_id]
            if c.zone == "discard" and c.id in ps.discard:
                out.append(i)
    return out


def _bad_heal(message: str) -> Violation:
    return Violation("BAC-ACT-13", message, "E_ASSIGNMENT")


def heal(s: State, target: str, points: int, choices: list[int] | None = None) -> None:
    """Apply heal points one at a time; wait for ``assign_heal`` at the first real choice."""
    players = s.set.players
    pending = list(choices) if choices is not None else None
    for k in range(points):
        ps = players[target]  # as the last point left it
        if ps.overflow > 0:
            players[target] = replace(ps, overflow=ps.overflow - 1)
            note(s, f"auto: heal removes 1 overflow from {target}")
            continue
        cands = heal_candidates(s, target)
        if not cands:
            note(s, f"auto: heal point on {target} has no effect (BAC-LIM-7)")
            continue
        if len(cands) == 1:
            restore(s, target, cands[0])
            continue
        if pending is None:
            s.set.turn.awaiting = Await(kind="heal", player=target, points=points - k)
            return
        if not pending:
            raise _bad_heal(f"{target} must choose a slot for each heal point with a choice; too few slots given")
        slot = pending.pop(0)
        if slot not in cands:
            raise _bad_heal(f"slot {slot} of {target} cannot be healed now (candidates: {cands})")
        restore(s, target, slot)
    if pending:
        raise _bad_heal(f"more slots given than heal points with a choice ({pending} left over)")


def restore(s: State, target: str, slot: int) -> None:
    players = s.set.players
    ps = players[target]
    g = ps.guards[slot - 1]
    c = s.set.cards[g.card_id]
    if g.state == "S":
        players[target] = ps = replace(ps, guards=marked(ps.guards, slot, "U"))
        set_card(s, replace(c, orientation="upright"))
    elif g.state == "X":
        players[target] = ps = replace(ps, guards=marked(ps.guards, slot, "S"), discard=without(ps.discard, c.id))
        set_card(s, replace(c, zone="guard", face="down", orientation="sideways"))
    note(s, f"auto: {target} slot {slot} healed to {ps.guards[slot - 1].state}")


# -- the choices open to the table ----------------------------------------------------------------
_WORSE = {"U": "S", "S": "X"}
_BETTER = {"S": "U", "X": "S"}


def damage_orders(marks: tuple[str, ...], points: int) -> list[list[int]]:
    """Every slot list ``assign_damage`` accepts for ``points`` points on guards ``marks``: one
    live slot per point, in order (a slot destroyed by an earlier point takes no more)."""
    out = []
    for slots in product(range(1, len(marks) + 1), repeat=points):
        now = list(marks)
        for slot in slots:
            if now[slot - 1] == "X":
                break
            now[slot - 1] = _WORSE[now[slot - 1]]
        else:
            out.append(list(slots))
    return out


def heal_orders(s: State, target: str, points: int) -> list[list[int]]:
    """Every slot list ``assign_heal`` accepts now: one slot for each of the ``points`` heal
    points that has a choice (BAC-ACT-13), found by playing the points out as ``heal`` does."""
    ps = s.set.players[target]
    restorable = s.options.heal_can_restore_destroyed
    start = tuple(g.state for g in ps.guards)
    back = tuple(g.state != "X" or s.set.cards[g.card_id].id in ps.discard for g in ps.guards)
    out: list[list[int]] = []

    def walk(marks: tuple[str, ...], overflow: int, left: int, chosen: list[int]) -> None:
        if left == 0:
            out.append(chosen)
            return
        if overflow:
            return walk(marks, overflow - 1, left - 1, chosen)
        cands = [i + 1 for i, m in enumerate(marks) if m == "S" or (m == "X" and restorable and back[i])]
        if len(cands) <= 1:
            nxt = marks if not cands else _healed(marks, cands[0])
            return walk(nxt, 0, left - 1, chosen)
        for slot in cands:
            walk(_healed(marks, slot), 0, left - 1, [*chosen, slot])

    walk(start, ps.overflow, points, [])
    return out


def _healed(marks: tuple[str, ...], slot: int) -> tuple[str, ...]:
    return tuple(_BETTER.get(m, m) if i == slot - 1 else m for i, m in enumerate(marks))
