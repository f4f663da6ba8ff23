"""Primitive operations (§10.2): how a judge carries out card text. Each op is one small function
registered by type; ``apply_ops`` runs a list, then the state checks (BD-LIM-12, BD-EFF-31).
An op that cannot apply (a unit that left its zone) does nothing (BD-RES-4); an op naming
something that never existed is refused under the rule of the event that carries it. A card in
play is named by its instance reference (§15, ``refs.py``), looked for on both sides of the table
unless the op's ``player`` names one."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adjudicator.games.builddivide import battle as B
from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.payment import note, pay, release_cost
from adjudicator.games.builddivide.state import Modifier, Player, State, Status, Unit, replace
from adjudicator.engine.kit import event_type
from adjudicator.engine.protocol import Violation


class OpContext:
    """The rule an op is refused under, the controller of what resolves, and where the op list (or,
    in a handler, the op) stands in the event (``$.ops``, ``$.ops[2]``) for malformed input."""

    def __init__(self, rule: str, controller: str, path: str = "$.ops"):
        self.rule = rule
        self.controller = controller
        self.path = path

    def at(self, i: int) -> OpContext:
        return OpContext(self.rule, self.controller, f"{self.path}[{i}]")


def _bad(ctx: OpContext, op: E.Op, why: str) -> Violation:
    return Violation(ctx.rule, f"op {event_type(op)} cannot apply: {why}", "BAD_OP")


def _who(s: State, ctx: OpContext, name: str | None) -> Player:
    n = name or ctx.controller
    if n not in s.names:
        raise Violation(ctx.rule, f"{n!r} is not a player of this match", "BAD_OP")
    return Z.player(s, n)


def _owners(s: State, ctx: OpContext, name: str | None) -> tuple[str, ...] | None:
    """Whose play zones an op's card is looked for in: the op's ``player``, else both sides."""
    return None if name is None else (_who(s, ctx, name).name,)


def _on_unit(s: State, ref: str, ctx: OpContext, change: Callable[[Unit], Unit], field: str = "unit") -> State:
    found = Z.find_unit(s, ref, f"{ctx.path}.{field}")
    if found is None:
        return s  # BD-RES-4: the target has left its zone
    return _change(s, found[0], found[1].iid, change)


def _change(s: State, p: Player, iid: int, change: Callable[[Unit], Unit]) -> State:
    return Z.put(s, replace(p, field=tuple(change(x) if x.iid == iid else x for x in p.field)))


def damage_unit(s: State, op: E.DamageUnit, ctx: OpContext) -> State:
    return _on_unit(s, op.unit, ctx, lambda u: replace(u, damage=u.damage + max(0, op.n)))


def damage_player(s: State, op: E.DamagePlayer, ctx: OpContext) -> State:
    """BD-EFF-11. One effect that damages both players (``players``, BD-RES-15, BD-RUL-41): when
    both life zones are empty at that moment both lose at once; otherwise the turn player's
    damage runs fully, then the other's. ``names`` name the life cards removed without checks."""
    victims = [_who(s, ctx, name).name for name in op.victims]
    if len(victims) == 2:
        if not any(Z.player(s, name).life for name in victims):
            return Z.lose(s, victims, "zero_life_damage", "take damage with no life card left")
        victims.sort(key=lambda name: name != s.game.turn_player)
    if op.names and s.options.effect_damage_trigger_checks:
        raise _bad(ctx, op, "names are given for damage that removes life cards without trigger checks "
                            "(effect_damage_trigger_checks false); with checks each card is entered by life_check")
    if len(op.names) > op.n * len(victims):
        raise _bad(ctx, op, f"{len(op.names)} names for {op.n * len(victims)} life card(s)")
    n = max(0, op.n)
    for i, victim in enumerate(victims):
        if s.game.damage is not None and s.options.effect_damage_trigger_checks:  # one procedure at a time
            s = Z.set_game(s, pending_damage=s.game.pending_damage + ((victim, n),))
        else:
            s = B.effect_damage(s, victim, n, op.names[i * n:(i + 1) * n])
        if Z.over(s):
            break
    return s


def destroy(s: State, op: E.Destroy, ctx: OpContext) -> State:
    c = R.find(op.unit, R.in_play(s, zones=("FIELD", "TERRITORY")), s.names, f"{ctx.path}.unit")
    if c is None:
        return s
    if c.zone == "TERRITORY":  # BD-RES-20: the territory closes instead
        p = Z.player(s, c.owner)
        return Z.put(s, replace(p, territory=replace(p.territory, face="CHARACTER")))
    return Z.leave_field(s, *Z.by_iid(s, c.key))


def modify_stat(s: State, op: E.ModifyStat, ctx: OpContext) -> State:
    m = Modifier(stat=op.stat, delta=op.delta, duration=op.duration)
    return _on_unit(s, op.unit, ctx, lambda u: replace(u, modifiers=u.modifiers + (m,)))


def set_status(s: State, op: E.SetStatus, ctx: OpContext) -> State:
    st = Status(tag=op.tag, duration=op.duration)
    return _on_unit(s, op.unit, ctx, lambda u: replace(u, statuses=u.statuses + (st,)))


def clear_status(s: State, op: E.ClearStatus, ctx: OpContext) -> State:
    return _on_unit(s, op.unit, ctx, lambda u: replace(u, statuses=tuple(x for x in u.statuses if x.tag != op.tag)))


def _turn(s: State, op: E.Stand | E.Rest, ctx: OpContext, standing: bool) -> State:
    """A unit, an energy card or a territory stands or rests (BD-EFF-15)."""
    c = R.find(op.card, R.in_play(s, _owners(s, ctx, op.player)), s.names, f"{ctx.path}.card")
    if c is None:
        return s
    p = Z.player(s, c.owner)
    if c.zone == "FIELD":
        return _change(s, p, c.key, lambda u: replace(u, standing=standing))
    if c.zone == "ENERGY":
        return Z.put(s, replace(p, energy=tuple(replace(e, standing=standing) if (e.name, e.k) == (c.name, c.k) else e for e in p.energy)))
    return Z.put(s, replace(p, territory=replace(p.territory, standing=standing)))


def stand(s: State, op: E.Stand, ctx: OpContext) -> State:
    return _turn(s, op, ctx, True)


def rest(s: State, op: E.Rest, ctx: OpContext) -> State:
    return _turn(s, op, ctx, False)


def draw(s: State, op: E.DrawOp, ctx: OpContext) -> State:
    for n in op.players:
        _who(s, ctx, n)
    return Z.draw_many(s, op.players, max(0, op.n))


def discard(s: State, op: E.DiscardOp, ctx: OpContext) -> State:
    p = _who(s, ctx, op.player)
    names = list(op.cards or ())
    if not names and op.n:
        if len(p.hand) > op.n or any(h is None for h in p.hand):
            if len(p.hand) > 0:
                raise _bad(ctx, op, f"name the {min(op.n, len(p.hand))} discarded card(s) of {p.name} (cards=[...])")
        names = [h for h in p.hand if h]  # BD-RUL-42: fewer cards than asked: all of them
    for name in names:
        p = Z.take_from_hand(s, p, name, ctx.rule, "discard")
        p = replace(p, graveyard=p.graveyard + (name,))
    return Z.put(s, p)


#: the public piles an op may take a named card from: zone -> (the Player field, how to read it)
_PILES: dict[str, tuple[str, Callable[[Player], tuple[str, ...]]]] = {
    "GRAVEYARD": ("graveyard", lambda p: p.graveyard),
    "REMOVE": ("remove_zone", lambda p: p.remove_zone),
    "D_DECK": ("d_deck", lambda p: p.d_deck),
}


def _take(s: State, p: Player, zone: str, name: str | None, ctx: OpContext, op: E.Op) -> tuple[Player, str | None] | None:
    """One card out of ``zone`` of ``p``: (the player without it, its name); None when there is none."""
    if zone == "DECK":
        if p.deck_count <= 0:
            return None
        p = replace(p, deck_count=p.deck_count - 1)
        return p, name
    if zone == "LIFE":
        if not p.life:
            return None
        return replace(p, life=p.life[:-1]), name or p.life[-1]
    if zone == "HAND":
        if not p.hand:
            return None
        if name is None:
            return replace(p, hand=p.hand[:-1]), p.hand[-1]
        hand = Z.hand_without(p.hand, name)
        if hand is None:
            raise _bad(ctx, op, f"{name!r} is not in {p.name}'s hand")
        return replace(p, hand=hand), name
    if zone in _PILES:
        field_name, read = _PILES[zone]
        pile = list(read(p))
        pick = name if name is not None else (pile[-1] if pile else None)
        if pick is None:
            return None
        if pick not in pile:
            raise _bad(ctx, op, f"{pick!r} is not in {p.name}'s {zone}")
        pile.remove(pick)
        return replace(p, **{field_name: tuple(pile)}), pick
    if zone == "ENERGY":  # without a name: the energy card placed last (a card named is found by _in_play)
        if not p.energy:
            return None
        return replace(p, energy=p.energy[:-1]), p.energy[-1].name
    raise _bad(ctx, op, f"cards leave {zone} through other ops (DESTROY for the field)")


_HIDDEN = ("DECK", "HAND", "LIFE")


def _put(s: State, p: Player, zone: str, name: str | None, position: str, from_zone: str, ctx: OpContext, op: E.Op) -> Player:
    # BD-HID-5: a known card that goes into deck, hand or life joins the unseen pool; one from the D
    # deck was checked against the D-deck list as it left (``_take``), and is then checked against
    # the pool like any other when it becomes public again
    if name is not None and from_zone not in _HIDDEN and zone in _HIDDEN:
        p = Z.unreveal(p, name)
    if name is not None and from_zone in _HIDDEN and zone not in _HIDDEN:
        p = Z.reveal(s, p, name, from_zone.lower())
    if zone == "DECK":
        return replace(p, deck_count=p.deck_count + 1)
    if zone == "HAND":
        return replace(p, hand=p.hand + (name,))
    if zone == "LIFE":
        return replace(p, life=(name,) + p.life if position == "BOTTOM" else p.life + (name,))
    if name is None:
        raise _bad(ctx, op, f"name the card that goes face up to {zone}")
    if zone == "GRAVEYARD":
        return replace(p, graveyard=p.graveyard + (name,))
    if zone == "REMOVE":
        return replace(p, remove_zone=p.remove_zone + (name,))
    if zone == "D_DECK":
        return replace(p, d_deck=p.d_deck + (name,))
    raise _bad(ctx, op, f"use {'PUT_ONTO_FIELD' if zone == 'FIELD' else 'ADD_ENERGY'} to put a card into {zone}")


def _in_play(s: State, op: E.Move | E.PutOntoField | E.AddEnergy, ctx: OpContext, zone: str) -> R.Placed | None:
    """The card in play an op takes from ``zone`` (FIELD or ENERGY), by its instance reference."""
    return R.find(op.card or "", R.in_play(s, _owners(s, ctx, op.player), (zone,)), s.names, f"{ctx.path}.card")


def _leave_energy(s: State, c: R.Placed) -> Player:
    p = Z.player(s, c.owner)
    return replace(p, energy=tuple(e for e in p.energy if (e.name, e.k) != (c.name, c.k)))


def move(s: State, op: E.Move, ctx: OpContext) -> State:
    if op.from_zone == "FIELD" or (op.from_zone == "ENERGY" and op.card is not None):
        c = _in_play(s, op, ctx, op.from_zone)
        if c is None:
            return s  # BD-RES-4: it has left the zone
        if op.from_zone == "ENERGY":
            return Z.put(s, _put(s, _leave_energy(s, c), op.to_zone, c.name, op.position, "ENERGY", ctx, op))
        owner, unit = Z.by_iid(s, c.key)
        if op.to_zone in ("GRAVEYARD", "REMOVE"):
            return Z.leave_field(s, owner, unit, op.to_zone.lower())
        s = Z.leave_field(s, owner, unit, "none")
        return Z.put(s, _put(s, Z.player(s, owner.name), op.to_zone, unit.name, op.position, "FIELD", ctx, op))
    p = _who(s, ctx, op.player)
    count = 1 if op.card is not None else max(0, op.n or 1)
    for _ in range(count):
        got = _take(s, p, op.from_zone, op.card, ctx, op)
        if got is None:
            break  # BD-RUL-42: a short zone moves what it holds
        p, name = got
        p = _put(s, p, op.to_zone, name, op.position, op.from_zone, ctx, op)
    return Z.put(s, p)


def _enter(s: State, op: E.PutOntoField | E.AddEnergy, ctx: OpContext) -> tuple[Player, str, int | None]:
    """The card an op puts into play, out of its zone: its owner without it, its name, and its
    number when it comes from another play zone (it keeps it, §15)."""
    if op.from_zone == "ENERGY":
        c = _in_play(s, op, ctx, "ENERGY")
        if c is None:
            where = "either energy zone" if op.player is None else f"{op.player}'s energy zone"
            raise _bad(ctx, op, f"no energy card {op.card!r} is in {where}")
        return _leave_energy(s, c), c.name, c.k
    p = _who(s, ctx, op.player)
    got = _take(s, p, op.from_zone, op.card, ctx, op)
    if got is None:
        raise _bad(ctx, op, f"{p.name}'s {op.from_zone} holds no {op.card!r}")
    p = got[0]
    if op.from_zone in _HIDDEN:
        p = Z.reveal(s, p, op.card, op.from_zone.lower())
    return p, op.card, None


def put_onto_field(s: State, op: E.PutOntoField, ctx: OpContext) -> State:
    p, name, k = _enter(s, op, ctx)
    s = Z.enter_field(Z.put(s, p), p.name, name, op.standing, k)
    c, ter = s.catalog.get(name), s.catalog.get(p.territory.name) if p.territory else None
    if (not s.options.release_requires_hand_play and c is not None and c.is_ace and ter is not None
            and p.territory.face == "CHARACTER" and ter.title in c.titles):
        s = Z.set_game(s, release_window=(p.name, Z.player(s, p.name).field[-1].iid))  # BD-RUL-28 (a) relaxed: any entry opens the window
    return s


def add_energy(s: State, op: E.AddEnergy, ctx: OpContext) -> State:
    p, name, _ = _enter(s, op, ctx)
    return Z.put(s, Z.add_energy(p, name, op.standing))


def knowledge(s: State, op: E.Look | E.RevealOp, ctx: OpContext) -> State:
    if isinstance(op, E.Look):
        _who(s, ctx, op.player)
    return s


def release(s: State, op: E.ReleaseOp, ctx: OpContext) -> State:
    found = Z.find_unit(s, op.releasing_unit, f"{ctx.path}.releasing_unit")
    if found is None:
        raise _bad(ctx, op, f"{op.releasing_unit!r} is not on the field")
    return release_territory(s, found[0].name, found[1], op.payment, f"{ctx.path}.payment")


def release_territory(s: State, name: str, unit: Unit, payment: Sequence[E.Pay], path: str = "$.payment") -> State:
    """Pay the reduced release cost and turn the territory to its release face (BD-ACT-13)."""
    p = Z.player(s, name)
    ter = s.catalog[p.territory.name] if p.territory else None
    reducer = s.catalog[unit.name].total_cost if unit.name in s.catalog else 0
    if ter is None or p.territory is None or p.territory.face != "CHARACTER":
        raise Violation("BD-ACT-13", f"{name}'s territory is not closed: it cannot be released", "NOT_CLOSED")
    cost = release_cost(ter, reducer, s.options.release_reduction_order)
    what = f"the release of {ter.name} by {Z.unit_ref(s, unit, name)}"
    p = pay(s, p, payment, cost, what, path)
    s = Z.set_game(s, last_payment=note(name, what, payment, cost))
    return Z.put(s, replace(p, territory=replace(p.territory, face="RELEASED")))


def close_territory(s: State, op: E.CloseTerritory, ctx: OpContext) -> State:
    p = _who(s, ctx, op.player)
    if p.territory is None:
        return s
    return Z.put(s, replace(p, territory=replace(p.territory, face="CHARACTER")))


def negate(s: State, op: E.Negate, ctx: OpContext) -> State:
    """BD-EFF-24: the item the reference names leaves the resolution zone without effect."""
    c = R.find(op.stack_item, R.in_play(s, zones=("STACK",)), s.names, f"{ctx.path}.stack_item")
    if c is None:
        return s
    item = next(i for i in s.game.stack if i.id == c.key)
    s = Z.set_game(s, stack=tuple(i for i in s.game.stack if i.id != item.id))
    if item.kind == "CARD" and item.card is not None:
        p = Z.player(s, item.controller)
        s = Z.put(s, replace(p, graveyard=p.graveyard + (item.card,)))
    return s


def adjust_damage(s: State, op: E.AdjustDamage, ctx: OpContext) -> State:
    d = s.game.damage
    if d is None:
        raise _bad(ctx, op, "ADJUST_DAMAGE applies only while damage to a player is being dealt")
    return Z.set_game(s, damage=replace(d, bonus=d.bonus + op.delta))


def win_game(s: State, op: E.WinGame, ctx: OpContext) -> State:
    _who(s, ctx, op.player)
    return Z.end_game(s, op.player, "card_win", f"{op.player} wins by card text" + (f": {op.note}" if op.note else ""))


def shuffle(s: State, op: E.ShuffleOp, ctx: OpContext) -> State:
    _who(s, ctx, op.player)
    return s


PATCH_STATS = {"power": "POWER", "hit": "HIT"}


def patch(s: State, op: E.Patch, ctx: OpContext) -> State:
    """BD-EFF-27: a unit's printed power or hit replaced while it stays on the field (copy, switch
    and the like); path ``<unit>.power`` or ``<unit>.hit``, value a whole number."""
    if ctx.rule != "BD-ACT-27":
        raise _bad(ctx, op, "PATCH is for judge_ops only")
    unit, _, stat = op.path.rpartition(".")
    if stat not in PATCH_STATS or not unit:
        raise Violation("BD-EFF-27", f"PATCH {op.path!r}: a patch sets '<unit>.power' or '<unit>.hit' of a unit on the field; "
                                     "anything else is entered with the other ops", "PATCH_PATH")
    if isinstance(op.value, bool) or not isinstance(op.value, int):
        raise Violation("BD-EFF-27", f"PATCH {op.path!r}: the value must be a whole number, not {op.value!r}", "PATCH_VALUE")
    found = Z.find_unit(s, unit, f"{ctx.path}.path")
    if found is None:
        raise Violation("BD-EFF-27", f"PATCH {op.path!r}: no unit {unit!r} is on either field", "PATCH_PATH")
    s = _change(s, found[0], found[1].iid, lambda u: replace(u, printed={**u.printed, PATCH_STATS[stat]: op.value}))
    return Z.set_game(s, patches=s.game.patches + (f"{op.path} = {op.value!r}: {op.note}",))


HANDLERS: dict[type, Callable] = {
    E.DamageUnit: damage_unit, E.DamagePlayer: damage_player, E.Destroy: destroy, E.ModifyStat: modify_stat,
    E.SetStatus: set_status, E.ClearStatus: clear_status, E.Stand: stand, E.Rest: rest, E.DrawOp: draw,
    E.DiscardOp: discard, E.Move: move, E.PutOntoField: put_onto_field, E.AddEnergy: add_energy,
    E.Look: knowledge, E.RevealOp: knowledge, E.ShuffleOp: shuffle, E.ReleaseOp: release,
    E.CloseTerritory: close_territory, E.Negate: negate, E.AdjustDamage: adjust_damage, E.WinGame: win_game,
    E.Patch: patch,
}


def apply_ops(s: State, ops: Sequence[E.Op], ctx: OpContext, before: State | None = None) -> State:
    """Every op in order; a result ends the list at once (BD-OVR-8); then the state checks
    (``before``: the state the event started from, see ``state_checks``)."""
    for i, op in enumerate(ops):
        s = HANDLERS[type(op)](s, op, ctx.at(i))
        if Z.over(s):
            return s
    return Z.state_checks(s, before)
