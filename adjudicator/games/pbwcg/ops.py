"""Effect primitives (rules/pbwcg.md §10) and the state-based checks (PBW-LIM-20). Ops of one
event apply in order; the state-based checks run once after the event (PBW-RES-10)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import msgspec

from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.combat import Attack, Env, apply_bs, reject, resolve_attack
from adjudicator.games.pbwcg.state import (
    Character, PendingChoice, Player, Result, SetSlot, State, Status, note, pl_turn_from, set_player, with_char, with_player,
    without_card, without_char,
)
from adjudicator.engine.kit import event_type
from adjudicator.engine.protocol import JUDGE

SUPPORT_CAPACITY = 13


def char_or_reject(s: State, card: str, rule: str = "PBW-EFF-25") -> Character:
    c = s.char(card)
    if c is None:
        reject(rule, f"{card!r} is not a character on a field")
    return c


def player_or_reject(s: State, name: str) -> None:
    if name not in s.names():
        reject("PBW-EFF-25", f"{name!r} is not a player of this battle")
    if name in s.out:
        reject("PBW-EFF-25", f"{name} is out of the battle (PBW-RUL-47): no op reaches them")


def take_card(s: State, card: str, into: str | None = None) -> State:
    """The state with ``card`` taken out of whatever zone holds it (PBW-STATE-3), and with ``into``
    put last in that zone of its owner's, in the same copy. Only the zones that changed are
    replaced; the others (the characters tuple too, when no equipment held it) are shared with
    ``s``. A card is only ever in its owner's zones (an event puts a card in its owner's zones, or
    moves it within one player's): only the owner's are searched, in one pass."""
    owner = s.owner[card] if into is not None else s.owner.get(card)  # (a card put somewhere is a registered one)
    players = []
    for p in s.players:
        if owner is None or p.name == owner:
            changes = {}
            for name in _CARD_ZONES:
                zone = getattr(p, name)
                if card in zone:
                    changes[name] = without_card(zone, card)
            for x in p.set_zone:
                if x is not None and x.card == card:
                    changes["set_zone"] = tuple(None if (x is not None and x.card == card) else x for x in p.set_zone)
                    break
            if into is not None:
                changes[into] = changes.get(into, getattr(p, into)) + (card,)
            if changes:
                p = msgspec.structs.replace(p, **changes)
        players.append(p)
    chars = s.characters
    for c in chars:
        if card in c.equipment:
            chars = tuple(msgspec.structs.replace(c, equipment=without_card(c.equipment, card)) if card in c.equipment else c for c in chars)
            break
    fs = None if s.field_state is not None and s.field_state.card == card else s.field_state
    return msgspec.structs.replace(s, players=tuple(players), characters=chars, field_state=fs)


_CARD_ZONES = ("deck", "hand", "special_hand", "discard", "removed", "support_list")


def to_discard(s: State, card: str) -> State:
    return take_card(s, card, "discard")


def to_removed(s: State, card: str) -> State:
    return take_card(s, card, "removed")


def heal_hp(s: State, player: str, n: int) -> State:
    """PBW-LIM-9: no effect above the cap; otherwise up to the cap."""
    p, cap = s.player(player), V.hp_cap(s, player)
    if p.hp > cap:
        return note(s, f"{player} HP {p.hp} is above the cap {cap}: the heal has no effect (PBW-LIM-9)")
    return with_player(s, player, hp=min(cap, p.hp + n))


def summon_pc(s: State, player: str, card: str, slot: int, add_hp: bool) -> State:
    """PBW-ACT-9 / PBW-EFF-11: face up in an empty slot within max_pc_count (PBW-LIM-8)."""
    p = s.player(player)
    if s.cards[card].card_type != "PC":
        reject("PBW-ACT-9", f"{card} is a {s.cards[card].card_type} card, not a PC")
    if not 1 <= slot <= p.max_pc_count:
        reject("PBW-LIM-8", f"slot {slot} is not a PC slot of {player}'s field (1..{p.max_pc_count})")
    if any(c.slot == slot for c in s.field(player, "PC")):
        reject("PBW-LIM-8", f"slot {slot} of {player}'s field already holds a PC")
    s = take_card(s, card)
    pc = Character(card=card, kind="PC", controller=player, slot=slot, endurance=s.options.base_endurance,
                   endurance_max=s.options.base_endurance, wp=s.cards[card].wp or 0, wp_max=s.cards[card].wp or 0,
                   entered_turn=s.turn)
    s = msgspec.structs.replace(s, characters=s.characters + (pc,))
    if add_hp:  # not healing: the cap does not apply (PBW-RUL-38)
        s = with_player(s, player, hp=s.player(player).hp + (s.cards[card].hp or 0))
    return s


def summon_support(s: State, op: E.SummonSupport, env: Env) -> State:
    """PBW-EFF-12, PBW-LIM-11: capacity 13 per master, same world, endurance 5 + trunc(CP / 2)."""
    holder = next((p.name for p in s.players if op.card in p.support_list), None)
    if holder is None or (op.card in s.cards and s.cards[op.card].card_type != "SUPPORT"):
        reject("PBW-EFF-12", f"{op.card!r} is not a summon support in a support list")
    player_or_reject(s, op.field_player)
    master = s.char(op.master)
    if master is None or master.kind != "PC" or master.controller != op.field_player:
        reject("PBW-EFF-12", f"master {op.master!r} is not a PC on {op.field_player}'s field")
    card = s.cards[op.card]
    load = sum(s.cards[c.card].cp or 0 for c in s.characters if c.master == op.master) + (card.cp or 0)
    if s.cards[op.master].world != card.world:
        return note(to_removed(s, op.card), f"{op.card} vanishes: its master {op.master} is of another world (PBW-LIM-11)")
    if load > SUPPORT_CAPACITY:
        return note(to_removed(s, op.card), f"{op.card} vanishes: capacity {load} > {SUPPORT_CAPACITY} (PBW-LIM-11)")
    s = take_card(s, op.card)
    e = V.support_endurance_max(s, op.card)
    sup = Character(card=op.card, kind="SUPPORT", controller=op.field_player, master=op.master, endurance=e,
                    endurance_max=e, entered_turn=s.turn)
    return msgspec.structs.replace(s, characters=s.characters + (sup,))


def _cards_of(s: State, player: str, cards: tuple[str, ...], zone: str, rule: str) -> None:
    _cards_in(getattr(s.player(player), zone), player, cards, zone, rule)


def _cards_in(have: tuple[str, ...], player: str, cards: tuple[str, ...], zone: str, rule: str) -> None:
    """Each of ``cards`` is in ``have``, the player's ``zone``, and named once."""
    for c in cards:
        if c not in have:
            reject(rule, f"{c!r} is not in {player}'s {zone}")
    if len(set(cards)) != len(cards):
        reject(rule, f"a card is named twice in {list(cards)}")


def _status(s: State, op: E.ApplyStatus) -> State:
    c = char_or_reject(s, op.target)
    st = Status(name=op.name, mods=op.mods, applied_turn=s.turn, bracketed=op.bracketed,
                remaining=op.duration if isinstance(op.duration, int) else None, end_of_turn=op.duration == "end_of_turn")
    kept = tuple(x for x in c.statuses if not (op.bracketed and x.bracketed))  # PBW-LIM-23
    return with_char(s, c.card, statuses=kept + (st,))


def _reposition(s: State, pc: str, slot: int) -> State:
    c = char_or_reject(s, pc)
    if c.kind != "PC" or not 1 <= slot <= s.player(c.controller).max_pc_count:
        reject("PBW-EFF-18", f"{pc} cannot be placed in slot {slot}")
    other = next((o for o in s.field(c.controller, "PC") if o.slot == slot and o.card != pc), None)
    if other is not None:
        s = with_char(s, other.card, slot=c.slot)
    return with_char(s, pc, slot=slot)


def _one(s: State, op: E.Op, env: Env) -> State:
    handler = OPS.get(type(op))
    if handler is None:
        reject("PBW-EFF-25", f"op {event_type(op)} is not known")
    return handler(s, op, env)  # type: ignore[misc]


def run_ops(s: State, ops: tuple, env: Env) -> State:
    for op in ops:
        s = _one(s, op, env)
    return s


def _hp_damage(s: State, op: E.HpDamage, env: Env) -> State:
    player_or_reject(s, op.player)
    return with_player(s, op.player, hp=s.player(op.player).hp - op.n)


def _hp_heal(s: State, op: E.HpHeal, env: Env) -> State:
    player_or_reject(s, op.player)
    return heal_hp(s, op.player, op.n)


def _hp_adjust(s: State, op: E.HpAdjust, env: Env) -> State:
    if env.by != JUDGE:
        reject("PBW-EFF-3", f"hp_adjust is entered by the judge only, not {env.by}")
    player_or_reject(s, op.player)
    return with_player(s, op.player, hp=s.player(op.player).hp + op.delta)


def _attack(s: State, op: E.AttackOp, env: Env) -> State:
    atk = Attack(None, op.value, None if op.attribute == "NONE" else op.attribute, "effect", op.evasion_tag and not op.no_evasion,
                 op.bs, op.break_ops, op.single_target)
    return resolve_attack(s, atk, op.targets, op.checks, env, run_ops)


def _end_damage(s: State, op: E.EnduranceDamage, env: Env) -> State:
    c = char_or_reject(s, op.character)
    return with_char(s, c.card, endurance=max(0, c.endurance - op.n))


def _end_heal(s: State, op: E.EnduranceHeal, env: Env) -> State:
    c = char_or_reject(s, op.character)
    return with_char(s, c.card, endurance=min(c.endurance_max, c.endurance + op.n))


def _wp(s: State, op: E.WpChange, env: Env) -> State:
    c = char_or_reject(s, op.pc)
    if c.wp + op.delta < 0:
        reject("PBW-LIM-21", f"{op.pc} has WP {c.wp}; it cannot spend {-op.delta}")
    return with_char(s, c.card, wp=min(c.wp_max, c.wp + op.delta))


def draw_cards(s: State, p: Player, cards: tuple[str, ...], rule: str, drawn: bool) -> State:
    """``cards`` from player ``p``'s deck to their hand (``drawn``: whether their T2 draw is entered)."""
    deck = p.deck
    at = []
    for c in cards:  # where each is in the deck: one search of it, which is also the check that it is there
        try:
            i = deck.index(c)
        except ValueError:
            i = -1
        if i < 0:
            reject(rule, f"{c!r} is not in {p.name}'s deck")
        at.append(i)
    if len(at) > 1:  # (one card is named once)
        if len(set(cards)) != len(cards):
            reject(rule, f"a card is named twice in {list(cards)}")
        at.sort(reverse=True)  # each is in the deck once: cut out where it is, the last first
    for i in at:
        deck = deck[:i] + deck[i + 1:]
    return set_player(s, msgspec.structs.replace(p, deck=deck, hand=p.hand + cards, drawn=drawn))


def _draw(s: State, op: E.Draw, env: Env) -> State:
    player_or_reject(s, op.player)
    p = s.player(op.player)
    return draw_cards(s, p, op.cards, "PBW-EFF-8", p.drawn)


def discard_hand(s: State, player: str, cards: tuple[str, ...], rule: str) -> State:
    _cards_of(s, player, cards, "hand", rule)
    for c in cards:
        s = to_discard(s, c)
    return s


def _discard(s: State, op: E.DiscardFromHand, env: Env) -> State:
    player_or_reject(s, op.player)
    return discard_hand(s, op.player, op.cards, "PBW-EFF-9")


def _move_card(s: State, op: E.MoveCard, env: Env) -> State:
    owner = s.owner.get(op.card)
    if owner is None or op.card not in getattr(s.player(owner), op.from_):
        reject("PBW-EFF-10", f"{op.card!r} is not in its owner's {op.from_}")
    s = take_card(s, op.card)
    zone = getattr(s.player(owner), op.to)
    placed = (op.card,) + zone if op.to == "deck" and op.position == "top" else zone + (op.card,)
    return with_player(s, owner, **{op.to: placed})


def _summon_pc(s: State, op: E.SummonPc, env: Env) -> State:
    player_or_reject(s, op.player)
    if s.owner.get(op.card) != op.player or s.char(op.card) is not None:
        reject("PBW-EFF-11", f"{op.card!r} is not a card of {op.player} off the field")
    return summon_pc(s, op.player, op.card, op.slot, op.add_hp)


def _incap(s: State, op: E.Incapacitate, env: Env) -> State:
    return with_char(s, char_or_reject(s, op.character).card, endurance=0)


def _apply_bs(s: State, op: E.ApplyBs, env: Env) -> State:
    from adjudicator.games.pbwcg.combat import check_result

    c = char_or_reject(s, op.character)
    if op.check is not None and check_result(s, op.check, c, env, f"receipt check of {c.card}"):
        return note(s, f"{c.card} avoids {op.bs} (receipt check)")
    s, applied = apply_bs(s, c.card, op.bs, op.source)
    return run_ops(s, op.break_ops, env) if applied else s


def _remove_bs(s: State, op: E.RemoveBs, env: Env) -> State:
    c = char_or_reject(s, op.character)
    return with_char(s, c.card, bs=tuple(b for b in c.bs if b.name != op.bs))


def _remove_status(s: State, op: E.RemoveStatus, env: Env) -> State:
    c = char_or_reject(s, op.target)
    return with_char(s, c.card, statuses=tuple(x for x in c.statuses if x.name != op.name))


def _set_field(s: State, op: E.SetField, env: Env) -> State:
    """PBW-LIM-18: one shared field-state slot; a new one sends the old to its owner's discard."""
    if op.card not in s.owner:
        reject("PBW-EFF-19", f"{op.card!r} is not a registered card")
    if s.field_state is not None:
        s = to_discard(s, s.field_state.card)
    s = take_card(s, op.card)
    return msgspec.structs.replace(s, field_state=SetSlot(card=op.card, face_up=True, set_turn=s.turn, remaining=op.duration))


def _clear_field(s: State, op: E.ClearField, env: Env) -> State:
    return to_discard(s, s.field_state.card) if s.field_state is not None else s


def _max_pc(s: State, op: E.SetMaxPcCount, env: Env) -> State:
    player_or_reject(s, op.player)
    if op.n < len(s.field(op.player, "PC")):
        reject("PBW-EFF-20", f"{op.player} has {len(s.field(op.player, 'PC'))} PCs on the field; max_pc_count cannot be {op.n}")
    return with_player(s, op.player, max_pc_count=op.n)


def _special(s: State, op: E.MarkSpecialHand, env: Env) -> State:
    owner = s.owner.get(op.card)
    if owner is None or op.card not in s.player(owner).hand:
        reject("PBW-EFF-21", f"{op.card!r} is not in a hand")
    sp = s.player(owner).special_hand
    return with_player(s, owner, special_hand=(sp + (op.card,)) if op.special else tuple(c for c in sp if c != op.card))


def _end_max(s: State, op: E.SetEnduranceMax, env: Env) -> State:
    c = char_or_reject(s, op.character)
    return with_char(s, c.card, endurance_max=op.n, endurance=min(c.endurance, op.n))


def _grant(s: State, op: E.GrantAction, env: Env) -> State:
    if s.main is None or s.main.actor != op.character:
        reject("PBW-EFF-23", f"{op.character} is not the character whose main turn this is")
    return msgspec.structs.replace(s, main=msgspec.structs.replace(s.main, actions_left=s.main.actions_left + op.n))


OPS: dict[type, Callable[[State, E.Op, Env], State]] = {  # type: ignore[dict-item]
    E.HpDamage: _hp_damage, E.HpHeal: _hp_heal, E.HpAdjust: _hp_adjust, E.AttackOp: _attack,
    E.EnduranceDamage: _end_damage, E.EnduranceHeal: _end_heal, E.WpChange: _wp, E.Draw: _draw,
    E.DiscardFromHand: _discard, E.MoveCard: _move_card, E.SummonPc: _summon_pc,
    E.SummonSupport: lambda s, op, env: summon_support(s, op, env), E.Incapacitate: _incap, E.ApplyBs: _apply_bs,
    E.RemoveBs: _remove_bs, E.ApplyStatus: lambda s, op, env: _status(s, op), E.RemoveStatus: _remove_status,
    E.Reposition: lambda s, op, env: _reposition(s, op.pc, op.slot), E.SetField: _set_field,
    E.ClearField: _clear_field, E.SetMaxPcCount: _max_pc, E.MarkSpecialHand: _special,
    E.SetEnduranceMax: _end_max, E.GrantAction: _grant, E.Note: lambda s, op, env: s,
}


# -- state-based checks (PBW-LIM-20) -------------------------------------------------------------------
def leave_field(s: State, card: str, why: str, zone: str = "discard") -> State:
    """PBW-LIM-10/11: a PC to its owner's discard pile (``zone``) with its equipment; a support to
    the removed zone. Its open obligations are cancelled (PBW-RUL-56)."""
    c = s.char(card)
    if c is None:
        return s
    s = without_char(s, card)
    if any(card in g for g in s.pending_ties):  # it loses its place in a tie waiting to be broken (PBW-TURN-2)
        s = msgspec.structs.replace(s, pending_ties=tuple(g for g in (tuple(m for m in g if m != card) for g in s.pending_ties) if len(g) > 1))
    s = msgspec.structs.replace(s, obligations=tuple(
        msgspec.structs.replace(o, status="cancelled") if o.character == card and o.status == "open" else o
        for o in s.obligations))
    if c.kind == "PC":
        for e in c.equipment:
            s = with_player(s, s.owner[e], **{zone: getattr(s.player(s.owner[e]), zone) + (e,)})
        s = with_player(s, s.owner[card], **{zone: getattr(s.player(s.owner[card]), zone) + (card,)})
    else:
        s = with_player(s, s.owner[card], removed=s.player(s.owner[card]).removed + (card,))
    return note(s, f"{card} {why}")


def leave_battle(s: State, player: str) -> State:
    """PBW-RUL-47 (local rule D): a player out of the battle. Their cards leave it: every character
    they control or own, with its equipment, their set cards and a field state of theirs go to
    the removed zone (a summon support to its owner's); their hand, deck and discard pile stay as
    they are, and they enter nothing more. Their PL turn, if it is on, passes to the next player."""
    hp = s.player(player).hp
    for c in [c for c in s.characters if c.controller == player or s.owner[c.card] == player]:
        s = leave_field(s, c.card, "leaves the battle with its player (PBW-RUL-47)", "removed")
    for x in s.player(player).set_zone:
        if x is not None:
            s = to_removed(s, x.card)
    if s.field_state is not None and s.owner[s.field_state.card] == player:
        s = to_removed(s, s.field_state.card)
    if s.pending_choice is not None and s.pending_choice.player == player:
        s = msgspec.structs.replace(s, pending_choice=None)
    s = msgspec.structs.replace(s, out=s.out + (player,))
    if s.step == "PL" and s.pl_order[s.pl_index] == player:
        s = pl_turn_from(s, s.pl_index + 1)
    return note(s, f"{player} is out of the battle (HP {hp}): their cards leave it (PBW-RUL-47)")


class _Due(NamedTuple):
    """Which state-based checks have anything to do, from one pass over the characters."""

    incapacitated: bool  # (1)
    orphaned: bool  # (2): a summon support whose master is not on a field
    lone: tuple[Character, ...]  # (3): the PC of each player with exactly one PC
    over_cap: bool  # (4)
    equipped: bool  # (5): a character with two or more items (one item is never over a limit)


#: ``_due`` when no check (1)-(5) has anything to do (nearly every event), always this one object
_CLEAR = _Due(False, False, (), False, False)

#: the last ``_due`` answer and the (immutable) characters it is for: most events leave the
#: characters tuple as it was, so the next state's checks find it here
_last_due: tuple[tuple[Character, ...], _Due] | None = None


def _due(characters: tuple[Character, ...]) -> _Due:
    global _last_due
    last = _last_due
    if last is not None and last[0] is characters:
        return last[1]
    incapacitated = over_cap = equipped = False
    first: dict[str, Character | None] = {}  # each controller's PC, None once they have a second
    masters: list[str] = []
    for c in characters:
        if c.endurance <= 0:
            incapacitated = True
        if c.endurance > c.endurance_max or c.wp > c.wp_max:
            over_cap = True
        if len(c.equipment) > 1:
            equipped = True
        if c.kind == "PC":
            first[c.controller] = None if c.controller in first else c
        elif c.master is not None:
            masters.append(c.master)
    orphaned = bool(masters) and not set(masters) <= {c.card for c in characters}
    lone = ()
    for c in first.values():
        if c is not None:
            lone += (c,)
    if incapacitated or orphaned or lone or over_cap or equipped:
        due = _Due(incapacitated, orphaned, lone, over_cap, equipped)
    else:
        due = _CLEAR
    _last_due = (characters, due)
    return due


def state_checks(s: State, seq: int, before: State) -> State:
    """PBW-LIM-20 in its order, after every event. Nearly every event leaves the characters as
    they were: a check runs only when ``_due`` found something for it. ``before``: the state
    before the event, whose active player (PBW-RUL-3) (6) asks for when both HP are down."""
    chars = s.characters
    last = _last_due  # ``_due``'s own memo, read here first: the characters of nearly every event are in it
    due = last[1] if last is not None and last[0] is chars else _due(chars)
    if due is not _CLEAR:
        s = _character_checks(s, due)
    if s.result is None:  # (6), once a player is down: nearly every event has every HP above 0
        for p in s.players:
            if p.hp <= 0 and p.name not in s.out:
                return decide(s, seq, before)
    return s


def _character_checks(s: State, due: _Due) -> State:
    """(1) to (5), each only when ``due`` found something for it."""
    chars = s.characters
    if due.incapacitated:  # (1)
        for c in s.characters:
            if c.endurance <= 0:
                s = leave_field(s, c.card, "is incapacitated and leaves the field (PBW-LIM-10)")
    if s.options.support_vanishes_with_master and (due.orphaned or s.characters is not chars):  # (2)
        for c in s.characters:
            if c.kind == "SUPPORT" and c.master is not None and s.char(c.master) is None:
                s = leave_field(s, c.card, f"vanishes: its master {c.master} left (PBW-LIM-11)")
    if s.characters is not chars:  # characters left the field
        due = _due(s.characters)
    if due.lone:  # (3) forced move (PBW-LIM-22): it changes a slot, nothing (4) and (5) read
        for p in s.names():
            for pc in due.lone:
                if pc.controller == p and pc.slot is not None and V.is_back(s, p, pc.slot):
                    to = V.front_of(s, p, pc.slot)
                    s = note(with_char(s, pc.card, slot=to), f"{pc.card} is alone in the back row: moved to slot {to} (PBW-LIM-22)")
    if due.over_cap:  # (4): it changes endurance and WP, nothing (5) reads
        for c in s.characters:
            if c.endurance > c.endurance_max or c.wp > c.wp_max:
                s = with_char(s, c.card, endurance=min(c.endurance, c.endurance_max), wp=min(c.wp, c.wp_max))
    if s.pending_choice is None and due.equipped:  # (5)
        for c in s.characters:
            part = V.over_full_part(s, c)
            if part is not None:
                s = msgspec.structs.replace(s, pending_choice=PendingChoice(kind="equipment", player=c.controller, subject=c.card, part=part))
                break
    return s


def decide(s: State, seq: int, before: State) -> State:
    """(6) PBW-OVR-3, PBW-OVR-6, PBW-RUL-3, PBW-RUL-47, once a player in the battle is down (state_checks
    asks): HP <= 0 puts a player out; it decides the battle when at most one player is left (the
    active player of ``before`` asked only then)."""
    if s.result is not None or not s.battle_started:
        return s
    return eliminate(s, [p.name for p in s.players if p.hp <= 0 and p.name not in s.out], seq, "hp_zero",
                     lambda: active_player(before))


def active_player(s: State) -> str | None:
    """PBW-RUL-3: the controller of the acting character or the PL-turn player; none in T1, T2, T5, T7."""
    if s.step == "MAIN" and s.main is not None:
        c = s.char(s.main.actor)
        return c.controller if c is not None else None
    if s.step == "PL":
        return s.pl_order[s.pl_index]
    return None


def eliminate(s: State, down: list[str], seq: int, reason: str, active: Callable[[], str | None]) -> State:
    """Players leaving the battle at once (HP 0 or below at one check, PBW-OVR-3; a surrender,
    PBW-OVR-4). The last player left wins; with two or more left the battle goes on without the
    others (local rule D, PBW-RUL-47); with none left it is drawn (PBW-OVR-6), or won by the active
    player if they are among them under active_player_wins (PBW-RUL-3)."""
    left = [p for p in s.in_battle() if p not in down]
    if len(left) > 1:
        for p in down:
            s = leave_battle(s, p)
        return s
    if left:
        result = Result(status="won", winner=left[0], reason=reason, seq=seq)
    elif s.options.simultaneous_defeat == "active_player_wins" and (winner := active()) in down:
        result = Result(status="won", winner=winner, reason="both_hp_zero", seq=seq)
    else:
        result = Result(status="drawn", winner=None, reason="both_hp_zero", seq=seq)
    return msgspec.structs.replace(s, result=result)
