"""The primitive ops of card texts (E2D-EFF-3), applied in order with a destruction check after
each (E2D-EFF-2); the event's state-based checks follow. ``close`` ends the until-targeted effects
of the servants the action targeted (E2D-RES-1, -11)."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, sbc
from adjudicator.games.e2drive import events as E
from adjudicator.games.e2drive.common import reject, seat_of_name
from adjudicator.games.e2drive.state import (
    SEATS,
    CostMod,
    GameState,
    InPlayTool,
    Modifier,
    Pool,
    Restriction,
    State,
    note,
    parse_pool,
    parse_slot,
    player,
    pool,
    servant,
    slots_of,
    with_player,
    with_pool,
    with_servant,
)


class OpContext:
    __slots__ = ("rank", "source", "seat", "overrides")

    def __init__(self, rank: int, source: str | None, seat: str | None, overrides: frozenset[str] = frozenset()):
        self.rank, self.source, self.seat, self.overrides = rank, source, seat, overrides


def to_trash(g: GameState, seat: str, card: str) -> GameState:
    return damage.to_trash(g, seat, card)


def left_play(g: GameState, card: str) -> GameState:
    """A source card left play: the modifiers lasting while it stays end."""
    for seat in SEATS:
        for ref in slots_of(seat):
            sv = servant(g, ref)
            keep = tuple(m for m in sv.modifiers if not (m.duration == "while_source" and m.source == card))
            if keep != sv.modifiers:
                g = with_servant(g, ref, rep(sv, modifiers=keep))
    return g


def _tens(n: int, what: str) -> None:
    if n % 10:
        reject("E2D-EFF-3", f"{what} must be a multiple of 10, not {n}", "NOT_TENS")


def _live(g: GameState, ref: str, i: int, field: str = "servant") -> None:
    parse_slot(ref, f"$.ops[{i}].{field}")
    if servant(g, ref).destroyed:
        reject("E2D-ACT-5", f"{ref} ({servant(g, ref).name}) is destroyed; only its revival may choose it", "DESTROYED")


def _modifier(g: GameState, ref: str, stat: str, op: str, value: int, duration: str, c: OpContext) -> GameState:
    sv = servant(g, ref)
    m = Modifier(id=g.next_modifier, stat=stat, op=op, value=value, duration=duration, rank=c.rank,  # type: ignore[arg-type]
                 source=c.source or "")
    return with_servant(rep(g, next_modifier=g.next_modifier + 1), ref, rep(sv, modifiers=sv.modifiers + (m,)))


def _status(state: State, g: GameState, o: E.Status, i: int) -> GameState:
    _live(g, o.servant, i)
    sv = servant(g, o.servant)
    on = o.state == "on"
    if o.status == "invisible" and on != sv.status.invisible:
        pl = sv.pool
        if on:  # E2D-LIM-15: hold an unheld on unit, else turn an off unit on and hold it
            if pl.on > pl.held:
                pl = rep(pl, held_invisible=1)
            elif pl.off > 0:
                pl = rep(pl, on=pl.on + 1, held_invisible=1)
            else:
                reject("E2D-LIM-15", f"{o.servant} has no unit to hold: invisibility cannot be applied", "NO_UNIT")
        else:
            pl = rep(pl, held_invisible=0)
        sv = rep(sv, pool=pl)
    return with_servant(g, o.servant, rep(sv, status=rep(sv.status, **{o.status: on})))


def _ether(g: GameState, o: E.Ether, i: int) -> GameState:
    seat, idx = parse_pool(o.pool, f"$.ops[{i}].pool")
    if idx is not None and servant(g, o.pool).destroyed:
        reject("E2D-LIM-12", f"{o.pool} belongs to a destroyed servant: its ether stays off", "DESTROYED")
    pl = pool(g, o.pool)
    if o.state == "on":
        if o.n > pl.off:
            reject("E2D-LIM-12", f"{o.pool} has {pl.off} off unit(s), not {o.n}", "ETHER")
        pl = rep(pl, on=pl.on + o.n, held_lock=pl.held_lock + (o.n if o.hold else 0))
    else:
        free = pl.on - pl.held + (min(o.n, pl.held_lock) if o.hold else 0)
        if o.n > free:
            reject("E2D-LIM-12", f"{o.pool} has {free} unheld on unit(s) to turn off, not {o.n}", "ETHER")
        pl = rep(pl, on=pl.on - o.n, held_lock=pl.held_lock - (min(o.n, pl.held_lock) if o.hold else 0))
    return with_pool(g, o.pool, pl)


def _owner_seat(state: State, g: GameState, o: E.Move, c: OpContext) -> str:
    if o.player is not None:
        return seat_of_name(state, o.player, "$.ops.player")
    if c.seat is not None:
        return c.seat
    reject("E2D-EFF-3", f"MOVE of {o.card}: name the player whose zone it is", "NO_PLAYER")


def _take(g: GameState, o: E.Move, seat: str, c: OpContext) -> tuple[GameState, str]:
    """Take the card out of its ``from`` zone; returns the owner seat of the card."""
    p = player(g, seat)
    zone = o.from_
    if zone in ("tool_field", "equipment"):
        if c.source is None and "E2D-LIM-11" not in c.overrides:
            reject("E2D-LIM-11", f"{o.card} is in play: it leaves only by a card text (name the source card)", "IN_PLAY")
        g, tool = detach(g, o.card, zone, seat, o.servant)
        if tool is None:
            reject("E2D-EFF-3", f"{o.card} is not in {seat}'s {zone}" + (f" on {o.servant}" if o.servant else ""), "NOT_THERE")
        return left_play(g, o.card), tool.owner
    if zone == "deck":
        if p.deck_count == 0:
            return sbc.lose(g, seat, "failed_draw"), seat
        return with_player(g, rep(p, deck_count=p.deck_count - 1)), seat
    if zone == "hand":
        if p.hand_count == 0:
            reject("E2D-EFF-3", f"{seat}'s hand is empty", "NOT_THERE")
        hand = list(p.hand_known)
        if o.card in hand:
            hand.remove(o.card)
        return with_player(g, rep(p, hand_count=p.hand_count - 1, hand_known=tuple(hand))), seat
    if zone == "trash":
        if o.card not in p.trash:
            reject("E2D-EFF-3", f"{o.card} is not in {seat}'s trash", "NOT_THERE")
        i = len(p.trash) - 1 - p.trash[::-1].index(o.card)
        return with_player(g, rep(p, trash=p.trash[:i] + p.trash[i + 1:])), seat
    if zone == "damage_cards":
        if p.damage_cards == 0:
            reject("E2D-EFF-3", f"{seat} has no damage card", "NOT_THERE")
        m = p.master
        off_first = m.off > 0
        m = Pool(size=m.size - 1, on=m.on if off_first else m.on - 1, held_upkeep=m.held_upkeep, held_lock=m.held_lock)
        if m.on < m.held:
            m = rep(m, held_upkeep=max(0, m.held_upkeep - 1))
        ids = p.damage_card_ids[:-1]
        return with_player(g, rep(p, damage_cards=p.damage_cards - 1, damage_card_ids=ids, master=m)), seat
    reject("E2D-EFF-3", f"MOVE from {zone!r}: zones are deck, hand, trash, tool_field, equipment, damage_cards", "BAD_ZONE")


def detach(g: GameState, card: str, zone: str, seat: str, ref: str | None) -> tuple[GameState, InPlayTool | None]:
    """Remove an in-play tool card from a tool field or an equipment field (not trashed yet)."""
    if zone == "tool_field":
        p = player(g, seat)
        for i, t in enumerate(p.tool_field):
            if t.card == card:
                return with_player(g, rep(p, tool_field=p.tool_field[:i] + p.tool_field[i + 1:])), t
        return g, None
    refs = [ref] if ref else slots_of("P1") + slots_of("P2")
    for r in refs:
        sv = servant(g, r)
        for i, t in enumerate(sv.equipment):
            if t.card == card:
                return with_servant(g, r, rep(sv, equipment=sv.equipment[:i] + sv.equipment[i + 1:])), t
    return g, None


def _put(state: State, g: GameState, o: E.Move, seat: str, owner: str, c: OpContext, i: int) -> GameState:
    zone = o.to
    p = player(g, seat)
    if zone == "deck":
        return with_player(g, rep(p, deck_count=p.deck_count + 1))
    if zone == "hand":
        return with_player(g, rep(p, hand_count=p.hand_count + 1))
    if zone == "trash":
        return to_trash(g, owner, o.card)
    if zone == "damage_cards":
        p = player(g, seat)
        g = with_player(g, rep(p, deck_count=p.deck_count + 1))  # placed like a generation from the top
        return sbc.damage_card(g, seat, o.card)
    tool_card = state.catalog.tools.get(o.card)
    if tool_card is None:
        reject("E2D-EFF-3", f"{o.card} is not a tool card of the catalog; only tools go to {zone}", "NOT_TOOL")
    tool = InPlayTool(card=o.card, owner=owner, kind=tool_card.kind, upkeep=tool_card.upkeep, instance=g.next_instance)
    g = rep(g, next_instance=g.next_instance + 1)
    if zone == "tool_field":
        if len(p.tool_field) >= 3 and "E2D-LIM-3" not in c.overrides:
            reject("E2D-LIM-3", f"{seat}'s tool field already holds 3 cards", "TOOL_FIELD_FULL")
        return with_player(g, rep(p, tool_field=p.tool_field + (tool,)))
    if zone == "equipment":
        if o.servant is None:
            reject("E2D-EFF-3", "MOVE to equipment names the servant", "NO_SERVANT")
        _live(g, o.servant, i)
        sv = servant(g, o.servant)
        if len(sv.equipment) >= 2 and "E2D-LIM-4" not in c.overrides:
            reject("E2D-LIM-4", f"{o.servant} already carries 2 equipment cards", "EQUIPMENT_FULL")
        return with_servant(g, o.servant, rep(sv, equipment=sv.equipment + (tool,)))
    reject("E2D-EFF-3", f"MOVE to {zone!r}: zones are deck, hand, trash, tool_field, equipment, damage_cards", "BAD_ZONE")


def _move(state: State, g: GameState, o: E.Move, c: OpContext, i: int) -> GameState:
    seat = _owner_seat(state, g, o, c)
    if o.from_ == "deck" and o.to == "damage_cards":  # a generation (E2D-LIM-5): the top card, forced
        return sbc.damage_card(g, seat, o.card)
    g, owner = _take(g, o, seat, c)
    if sbc.any_lost(g):
        return g
    return _put(state, g, o, seat, owner, c, i)


def _revive(state: State, g: GameState, o: E.Revive, i: int) -> GameState:
    parse_slot(o.servant, f"$.ops[{i}].servant")
    if not servant(g, o.servant).destroyed:
        reject("E2D-EFF-3", f"REVIVE: {o.servant} is not destroyed", "NOT_DESTROYED")
    from adjudicator.games.e2drive.servants import revived

    seat = parse_slot(o.servant)[0]
    if o.with_damage_card:
        g = sbc.damage_card(g, seat)
    g = revived(state, g, o.servant)
    return rep(g, forced_revival=tuple(s for s in g.forced_revival if s != seat))


def _discard(state: State, g: GameState, o: E.Discard) -> GameState:
    seat = seat_of_name(state, o.player, "$.ops.player")
    p = player(g, seat)
    cards = list(o.cards)
    n = len(cards) if cards else min(o.count or 0, p.hand_count)
    if len(cards) > p.hand_count:
        reject("E2D-EFF-3", f"{seat} holds {p.hand_count} card(s), not {len(cards)} to discard", "NOT_THERE")
    cards += ["unknown"] * (n - len(cards))
    hand = list(p.hand_known)
    for card in cards:
        if card in hand:
            hand.remove(card)
    return with_player(g, rep(p, hand_count=p.hand_count - n, hand_known=tuple(hand), trash=p.trash + tuple(cards)))


def _damage(state, g, o: E.Damage, c, i):
    _tens(o.n, "DAMAGE")
    if o.n <= 0:
        reject("E2D-EFF-3", f"DAMAGE is more than 0, not {o.n}", "NOT_TENS")
    _live(g, o.servant, i)
    return damage.add_damage(g, o.servant, o.n)


def _heal(state, g, o: E.Heal, c, i):
    _tens(o.n, "HEAL")
    _live(g, o.servant, i)
    return damage.add_damage(g, o.servant, -abs(o.n))


def _draw(state, g, o: E.Draw, c, i):
    seat = seat_of_name(state, o.player, f"$.ops[{i}].player")
    for k in range(o.n):
        g = sbc.draw(g, seat, o.cards[k] if k < len(o.cards) else None)
        if sbc.any_lost(g):
            break
    return g


def _stat_mod(state, g, o: E.Modify | E.SetStat, c, i):
    amount = o.delta if isinstance(o, E.Modify) else o.value
    _tens(amount, o.stat)
    _live(g, o.servant, i)
    return _modifier(g, o.servant, o.stat, "add" if isinstance(o, E.Modify) else "set", amount, o.duration, c)


def _destroy(state, g, o: E.Destroy, c, i):
    parse_slot(o.servant, f"$.ops[{i}].servant")
    if servant(g, o.servant).destroyed:
        reject("E2D-EFF-3", f"DESTROY: {o.servant} is already destroyed", "DESTROYED")
    return damage.destroy(g, o.servant, state.options)


def _action_state(state, g, o: E.ActionState, c, i):
    parse_slot(o.servant, f"$.ops[{i}].servant")
    if g.acting == o.servant:
        reject("E2D-EFF-3", f"ACTION_STATE: {o.servant} is acting; its action ends with end_action", "ACTING")
    return with_servant(g, o.servant, rep(servant(g, o.servant), action=o.state))


def _extra_atk(state, g, o: E.ExtraAtk, c, i):
    if o.n < 1:
        reject("E2D-EFF-3", f"EXTRA_ATK raises the allowance by at least 1, not {o.n}", "BAD_N")
    _live(g, o.servant, i)
    return _modifier(g, o.servant, "EXTRA", "add", o.n, o.duration, c)


def _restrict(state, g, o: E.Restrict | E.Permit, c, i):
    parse_slot(o.subject, f"$.ops[{i}].subject")
    r = Restriction(subject=o.subject, action=o.action, permit=isinstance(o, E.Permit), rank=c.rank,
                    duration=o.duration, source=c.source or "")
    return rep(g, restrictions=g.restrictions + (r,))


def _cost(state, g, o: E.Cost, c, i):
    return rep(g, costs=g.costs + (CostMod(scope=o.scope, delta=o.delta, duration=o.duration, source=c.source or ""),))


def _remove_tool(state, g, o: E.RemoveTool, c, i):
    if c.source is None and "E2D-LIM-11" not in c.overrides:
        reject("E2D-LIM-11", f"{o.card} is in play: it leaves only by a card text (name the source card)", "IN_PLAY")
    seat = seat_of_name(state, o.player, "$.ops.player") if o.player else None
    g, found = take_in_play(g, o.card, seat)
    if not found:
        reject("E2D-EFF-3", f"REMOVE_TOOL: {o.card} is not in play", "NOT_THERE")
    return g


def _end_modifier(state, g, o: E.EndModifier, c, i):
    for ref in slots_of("P1") + slots_of("P2"):
        sv = servant(g, ref)
        if any(m.id == o.id for m in sv.modifiers):
            return with_servant(g, ref, rep(sv, modifiers=tuple(m for m in sv.modifiers if m.id != o.id)))
    reject("E2D-EFF-3", f"END_MODIFIER: no modifier {o.id}", "NOT_THERE")


def _info(state, g, o: E.Shuffle | E.RevealOp | E.CoinOp, c, i):
    text = (f"{o.player} shuffles their deck" if isinstance(o, E.Shuffle) else
            f"revealed: {o.card}" if isinstance(o, E.RevealOp) else f"coin for the effect: {o.result}")
    return note(g, text)


OPS = {
    E.Damage: _damage, E.Heal: _heal, E.Draw: _draw, E.Discard: lambda s, g, o, c, i: _discard(s, g, o),
    E.Move: lambda s, g, o, c, i: _move(s, g, o, c, i), E.Status: lambda s, g, o, c, i: _status(s, g, o, i),
    E.Modify: _stat_mod, E.SetStat: _stat_mod, E.Ether: lambda s, g, o, c, i: _ether(g, o, i), E.Destroy: _destroy,
    E.Revive: lambda s, g, o, c, i: _revive(s, g, o, i), E.ActionState: _action_state, E.ExtraAtk: _extra_atk,
    E.Restrict: _restrict, E.Permit: _restrict, E.Cost: _cost, E.RemoveTool: _remove_tool, E.EndModifier: _end_modifier,
    E.Shuffle: _info, E.RevealOp: _info, E.CoinOp: _info,
}


def apply_one(state: State, g: GameState, o: E.AnyOp, c: OpContext, i: int) -> GameState:
    """One primitive op (E2D-EFF-3), dispatched by its type."""
    return OPS[type(o)](state, g, o, c, i)


def targeted_by(o: E.AnyOp) -> str | None:
    if isinstance(o, (E.Damage, E.Heal, E.Status, E.Modify, E.SetStat, E.Destroy)) and o.targeting:
        return o.servant  # the text chooses this servant as its target (E2D-EFF-2)
    return None


def apply_all(state: State, g: GameState, op_list: Sequence[E.AnyOp], c: OpContext) -> tuple[GameState, list[str]]:
    """Apply ops in order; destruction after each; a loss stops the rest (E2D-RES-15)."""
    targeted: list[str] = []
    for i, o in enumerate(op_list):
        g = apply_one(state, g, o, c, i)
        ref = targeted_by(o)
        if ref:
            targeted.append(ref)
        g = damage.destruction_check(g, state.options)
        if sbc.any_lost(g):
            break
    return g, targeted


def apply_text(state: State, g: GameState, op_list: Sequence[E.AnyOp], rank: int, source: str | None, seat: str | None,
               overrides: frozenset[str] = frozenset()) -> tuple[GameState, list[str]]:
    """``apply_all`` of a text's ops with the context of its source (E2D-RES-13's rank); a text with
    no op leaves ``g`` as it is and targets nothing."""
    if not op_list:
        return g, []
    return apply_all(state, g, op_list, OpContext(rank=rank, source=source, seat=seat, overrides=overrides))


def close(state: State, g: GameState, targeted: list[str], seat: str | None) -> GameState:
    """E2D-RES-1: the until-targeted effects of each targeted servant end after the resolution."""
    return damage.end_until_targeted(g, targeted, state.options, seat)


def take_in_play(g: GameState, card: str, seat: str | None) -> tuple[GameState, bool]:
    """Take an in-play tool card (``seat``'s, or anyone's when None) to its owner's trash."""
    for s in SEATS:
        p = player(g, s)
        for i, t in enumerate(p.tool_field):
            if t.card == card and (seat is None or t.owner == seat):
                g = with_player(g, rep(p, tool_field=p.tool_field[:i] + p.tool_field[i + 1:]))
                return left_play(to_trash(g, t.owner, card), card), True
    for ref in slots_of("P1") + slots_of("P2"):
        sv = servant(g, ref)
        for i, t in enumerate(sv.equipment):
            if t.card == card and (seat is None or t.owner == seat):
                g = with_servant(g, ref, rep(sv, equipment=sv.equipment[:i] + sv.equipment[i + 1:]))
                return left_play(to_trash(g, t.owner, card), card), True
    return g, False
