"""What each op does (rules/bacdef.md §10.2): its check when an event enters it (``validate_ops``)
and its effect when the engine reaches it (``EFFECTS``), each found by the op's type.

An effect is *strict* when it runs as part of the event that entered its op list: an op whose
card is no longer where it must be is then refused (E_BAD_OP). Run later, when an op list
resumes after a choice, the same op has no effect and a note says so (docs/games/bacdef.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from adjudicator.games.bacdef.damage import damage, heal, packet
from adjudicator.games.bacdef.ops import (
    RESOLUTION_ONLY,
    AnyOp,
    Convert,
    Damage,
    Defer,
    Drop,
    Heal,
    Knock,
    Lasting,
    Lose,
    Negate,
    Note,
    Prevent,
    Return,
    Reveal,
    TurnGuard,
    Where,
    bad,
    tag,
)
from adjudicator.games.bacdef.state import Await, Frame, LastingEffect, Shield, State, find_instance, marked, other, set_instance
from adjudicator.games.bacdef.zones import note, return_to_hand, set_card, to_discard
from adjudicator.engine.protocol import Violation


# -- checks at entry ------------------------------------------------------------------------------
# Each check is given the op, the state and who controls the list (no object bundling them: a
# list is checked at every effect entered).
def validate_ops(s: State, ops: tuple[AnyOp, ...] | list[AnyOp], where: Where, controller: str) -> None:
    """Reject the whole list if any op is illegal here (BAC-EFF-*; §10.2)."""
    for op in ops:
        if where != "resolution" and isinstance(op, RESOLUTION_ONLY):
            nested = " (and never nested)" if isinstance(op, Defer) and where == "deferred" else ""
            raise bad(op, "only allowed while a battle instance resolves" + nested)
        check = CHECKS.get(type(op))  # none for LASTING and NOTE: any text is legal
        if check is not None:
            check(op, s, controller)


def _player(op: AnyOp, field: str, name: str, s: State) -> None:
    if name not in s.players:
        raise bad(op, f"{field} {name!r} is not a player of this match")


def _at_least_one(op: AnyOp, field: str, value: int) -> None:
    if value < 1:
        raise bad(op, f"{field} must be at least 1, not {value}")


def _check_amount(op: Damage | Heal, s: State, controller: str) -> None:
    _player(op, "target", op.target, s)
    _at_least_one(op, "amount", op.amount)


def _check_knock(op: Knock, s: State, controller: str) -> None:
    _at_least_one(op, "count", op.count)
    attacker = s.set.turn.attacker
    if controller != attacker:
        raise Violation("BAC-LIM-2", f"{controller} is the defender this turn; only the attacker ({attacker}) can knock", "E_KNOCK_NOT_ATTACKER")


def _check_lose(op: Lose, s: State, controller: str) -> None:
    _player(op, "victim", op.victim, s)
    _at_least_one(op, "count", op.count)
    if op.chooser not in ("victim", "opponent") and op.chooser not in s.players:
        raise bad(op, f"chooser must be 'victim', 'opponent' or a player, not {op.chooser!r}")


def _check_card(op: Drop | Return | Reveal, s: State, controller: str) -> None:
    if op.card_id not in s.set.cards:
        raise bad(op, f"no card {op.card_id!r}")


def _check_turn_guard(op: TurnGuard, s: State, controller: str) -> None:
    _player(op, "player", op.player, s)
    if op.slot not in (1, 2):
        raise bad(op, f"slot must be 1 or 2, not {op.slot}")


def _check_prevent(op: Prevent, s: State, controller: str) -> None:
    _player(op, "player", op.player, s)
    if op.amount != "all" and op.amount < 1:
        raise bad(op, f"amount must be at least 1 or 'all', not {op.amount}")


def _check_instance(op: Negate | Convert, s: State, controller: str) -> None:
    inst = find_instance(s.set.turn, op.instance)
    if inst is None:
        raise bad(op, f"no instance {op.instance!r} in this battle")
    if inst.status != "pending":
        raise Violation("BAC-RES-7", f"{tag(op)} {inst.id}: it is already {inst.status}; nothing touches a resolved instance", "E_TARGET_RESOLVED")


def _check_defer(op: Defer, s: State, controller: str) -> None:
    validate_ops(s, op.ops, "deferred", controller)


CHECKS: dict[type, Callable[[Any, State, str], None]] = {
    Damage: _check_amount,
    Heal: _check_amount,
    Knock: _check_knock,
    Lose: _check_lose,
    Drop: _check_card,
    Return: _check_card,
    Reveal: _check_card,
    TurnGuard: _check_turn_guard,
    Prevent: _check_prevent,
    Negate: _check_instance,
    Convert: _check_instance,
    Defer: _check_defer,
}


# -- effects ------------------------------------------------------------------------------------
def _resolving(s: State, frame: Frame) -> bool:
    """An op list of a battle instance in the Resolution step: its damage waits in a packet."""
    return s.set.turn.step == "resolution" and frame.kind == "ops" and not frame.source.startswith(("F:", "end", "deferred"))


def _damage(s: State, op: Damage, frame: Frame, strict: bool) -> None:
    kind = "rebound" if op.target == frame.controller else "skill"
    if _resolving(s, frame):
        packet(s, frame.controller, frame.source, op.target, op.amount, kind)
    else:
        damage(s, op.target, op.amount, kind, frame.source)


def _knock(s: State, op: Knock, frame: Frame, strict: bool) -> None:
    t = s.set.turn
    if frame.controller != t.attacker:
        raise Violation("BAC-LIM-2", f"{frame.controller} is not the attacker this turn, so no knock", "E_KNOCK_NOT_ATTACKER")
    if _resolving(s, frame):
        packet(s, frame.controller, frame.source, t.defender, op.count, "knock")
    else:
        damage(s, t.defender, op.count, "knock", frame.source)


def _heal(s: State, op: Heal, frame: Frame, strict: bool) -> None:
    heal(s, op.target, op.amount)


def _pending_instance(s: State, op: Negate | Convert):
    inst = find_instance(s.set.turn, op.instance)
    if inst is None or inst.status != "pending":
        raise Violation("BAC-RES-7", f"{op.instance} is no longer pending; nothing can touch it", "E_TARGET_RESOLVED")
    return inst


def _negate(s: State, op: Negate, frame: Frame, strict: bool) -> None:
    inst = _pending_instance(s, op)
    set_instance(s.set.turn, inst, replace(inst, status="negated"))
    note(s, f"auto: {inst.id} negated")


def _convert(s: State, op: Convert, frame: Frame, strict: bool) -> None:
    inst = _pending_instance(s, op)
    set_instance(s.set.turn, inst, replace(inst, converted=True))
    note(s, f"auto: {inst.id} converted; its new content is entered when it resolves")


def _lose(s: State, op: Lose, frame: Frame, strict: bool) -> None:
    victim = op.victim
    chooser = victim if op.chooser == "victim" else other(s, victim) if op.chooser == "opponent" else op.chooser
    hand = s.set.players[victim].hand
    if len(hand) <= op.count:
        for cid in list(hand):
            to_discard(s, set_card(s, replace(s.set.cards[cid], face="down")))
        note(s, f"auto: {victim} loses every hand card")
    else:
        s.set.turn.awaiting = Await(kind="lost", player=chooser, victim=victim, points=op.count)


def _drop(s: State, op: Drop, frame: Frame, strict: bool) -> None:
    c = s.set.cards[op.card_id]
    if c.zone == "discard":
        if strict:
            raise bad(op, f"{c.id} is already in the discard pile")
        note(s, f"DROP {c.id}: already discarded, no effect")
        return
    if c.zone == "guard":
        ps = s.set.players[c.owner]
        guards = ps.guards
        for n, g in enumerate(ps.guards, 1):
            if g.card_id == c.id:
                guards = marked(guards, n, "X")
        s.set.players[c.owner] = replace(ps, guards=guards)
    to_discard(s, c)
    note(s, f"auto: {c.id} dropped")


def _return(s: State, op: Return, frame: Frame, strict: bool) -> None:
    c = s.set.cards[op.card_id]
    if c.zone not in ("field", "discard"):
        if strict:
            raise bad(op, f"{c.id} is in the {c.zone}, not on the field or in the discard pile")
        note(s, f"RETURN {c.id}: not on the field or discarded, no effect")
        return
    return_to_hand(s, c)
    note(s, f"auto: {c.id} returned to {c.owner}'s hand")


def _reveal(s: State, op: Reveal, frame: Frame, strict: bool) -> None:
    set_card(s, replace(s.set.cards[op.card_id], face="up"))


def _turn_guard(s: State, op: TurnGuard, frame: Frame, strict: bool) -> None:
    ps = s.set.players[op.player]
    g = ps.guards[op.slot - 1]
    if g.state == "X":
        if strict:
            raise bad(op, f"{op.player}'s slot {op.slot} is destroyed")
        return
    s.set.players[op.player] = replace(ps, guards=marked(ps.guards, op.slot, op.to))
    set_card(s, replace(s.set.cards[g.card_id], orientation="upright" if op.to == "U" else "sideways"))


def _prevent(s: State, op: Prevent, frame: Frame, strict: bool) -> None:
    remaining = None if op.amount == "all" else op.amount
    t = s.set.turn
    t.shields = t.shields + (Shield(player=op.player, remaining=remaining, kind=op.kind),)


def _defer(s: State, op: Defer, frame: Frame, strict: bool) -> None:
    t = s.set.turn
    t.deferred = t.deferred + (Frame(kind="ops", controller=frame.controller, source=f"deferred:{frame.source}", ops=tuple(op.ops)),)


def _lasting(s: State, op: Lasting, frame: Frame, strict: bool) -> None:
    st = s.set
    st.lasting_counter += 1
    expires = st.turn.no + (1 if op.until == "end_of_next_turn" else 0)
    st.lasting = st.lasting + (LastingEffect(id=f"L{st.lasting_counter}", source=frame.source, controller=frame.controller, text=op.text, expires_turn=expires),)


def _note(s: State, op: Note, frame: Frame, strict: bool) -> None:
    note(s, f"note: {op.text}")


#: what each op does, by its type: ``EFFECTS[type(op)](s, op, frame, strict)`` carries out one
#: op of ``frame``'s list (the engine's loop calls it at once)
EFFECTS: dict[type, Callable[[State, Any, Frame, bool], None]] = {
    Damage: _damage,
    Knock: _knock,
    Heal: _heal,
    Negate: _negate,
    Convert: _convert,
    Lose: _lose,
    Drop: _drop,
    Return: _return,
    Reveal: _reveal,
    TurnGuard: _turn_guard,
    Prevent: _prevent,
    Defer: _defer,
    Lasting: _lasting,
    Note: _note,
}
