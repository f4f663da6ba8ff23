"""Primitive operations (rules §10.1) with their validation (DB-EFF-14): every op an event
carries is checked in order against the state the previous ops left; the first invalid op
rejects the whole event (``INVALID_OP``) and none is applied. One small function per op.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from adjudicator.engine.kit import event_type
from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import (
    AnyOp,
    CancelAttack,
    ClearStatus,
    Discard,
    DrawOp,
    Duration,
    FormPairOp,
    GainLife,
    LoseLife,
    ModifyStrength,
    Move,
    NegateOp,
    NoteOp,
    RemoveFromPair,
    ResetAttack,
    Reveal,
    ReverseOrder,
    SetStatus,
    ShuffleDeck,
    Trash,
)
from adjudicator.games.demonbrave.ranking import card_protected
from adjudicator.games.demonbrave.state import Modifier, Reversal, State, StatusEntry, Unit
from adjudicator.engine.protocol import Violation

RULE = "DB-EFF-14"
CODE = "INVALID_OP"


class OpError(Exception):
    pass


def _fail(op_no: int, op: AnyOp, message: str) -> Violation:
    return Violation(RULE, f"op {op_no} ({event_type(op)}) is invalid: {message}; no op of this event was applied", CODE)


def apply_ops(state: State, ops: Sequence[AnyOp], seq: int) -> State:
    """Apply ``ops`` in order or raise ``Violation(DB-EFF-14, ..., INVALID_OP)``."""
    for n, op in enumerate(ops, 1):
        handler = _HANDLERS[type(op)]
        try:
            state = handler(state, op, seq)
        except OpError as exc:
            raise _fail(n, op, str(exc)) from None
    return state


def substitute(template: Any, values: dict[str, str | None]) -> Any:
    """Fill a catalog op template: "$TARGET", "$CONTROLLER", "$OPPONENT" (DB-EFF-10)."""
    if isinstance(template, str) and template in values:
        if values[template] is None:
            raise OpError(f"the catalog op needs {template[1:].lower()}, and the activation gave none")
        return values[template]
    if isinstance(template, dict):
        return {k: substitute(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [substitute(v, values) for v in template]
    return template


def decode_ops(raw: Sequence[dict[str, Any]]) -> tuple[AnyOp, ...]:
    try:
        return msgspec.convert(list(raw), tuple[AnyOp, ...])
    except msgspec.ValidationError as exc:
        raise OpError(f"the catalog's canonical ops do not decode ({exc})") from None


# -- helpers ----------------------------------------------------------------------------------
def _player(state: State, name: str) -> str:
    if name not in state.names:
        raise OpError(f"{name!r} is not a player of this match ({', '.join(state.names)})")
    return name


def _field_owner(state: State, card_or_unit: str, player: str | None, what: str = "card") -> str:
    """The owner of a card or unit on a field: ``player`` if given, else the only field holding it."""
    if player is not None:
        _player(state, player)
        p = state.player(player)
        if p.unit(card_or_unit) is None and p.unit_of(card_or_unit) is None:
            raise OpError(f"{player} has no {what} {card_or_unit} on the field")
        return player
    owners = [n for n in state.names if state.player(n).unit(card_or_unit) is not None or state.player(n).unit_of(card_or_unit) is not None]
    if not owners:
        raise OpError(f"no {what} {card_or_unit} is on a field")
    if len(owners) > 1:
        raise OpError(f"{card_or_unit} is on both fields; name the player (\"player\": ...)")
    return owners[0]


def _card(card: str) -> str:
    if not C.is_card(card):
        raise OpError(C.describe_bad(card))
    return card


def _expiry(state: State, d: Duration) -> int | None:
    if d.kind != "END_PHASE":
        return None
    turn = state.turn_number if d.turn in (None, "CURRENT") else d.turn
    if not isinstance(turn, int) or turn < state.turn_number:
        raise OpError(f"an END_PHASE duration must name the current turn {state.turn_number} or a later one, not {d.turn!r}")
    return turn


# -- the ops ----------------------------------------------------------------------------------
def _lose_life(state: State, op: LoseLife, seq: int) -> State:  # OP-1
    _player(state, op.player)
    if op.amount < 1:
        raise OpError(f"amount must be at least 1, not {op.amount}")
    p = state.player(op.player)
    return state.with_player(Z.rep(p, life=max(0, p.life - op.amount)))


def _gain_life(state: State, op: GainLife, seq: int) -> State:  # OP-2
    _player(state, op.player)
    if op.amount < 1:
        raise OpError(f"amount must be at least 1, not {op.amount}")
    p = state.player(op.player)
    life = p.life + op.amount
    if state.config.life_cap is not None:
        life = min(life, state.config.life_cap)
    return state.with_player(Z.rep(p, life=life))


def _draw(state: State, op: DrawOp, seq: int) -> State:  # OP-3
    _player(state, op.player)
    if op.count < 0:
        raise OpError(f"count must be 0 or more, not {op.count}")
    p = state.player(op.player)
    n = Z.available_draw(state, p, op.count)
    cards = tuple(op.cards or ())
    if len(cards) > n:
        raise OpError(f"{len(cards)} identities listed for a draw of {n}")
    _distinct(cards)
    for c in cards:
        _card(c)
        if c in p.hand_known or p.unit_of(c) is not None or (c in p.trash and state.config.deck_exhaustion != "reshuffle_trash"):
            raise OpError(f"{c} cannot be in {op.player}'s deck: it is known to be elsewhere")
    return Z.draw_cards(state, op.player, op.count, cards)


def _distinct(cards: Sequence[str]) -> None:
    seen = set()
    for c in cards:
        if c in seen:
            raise OpError(f"{c} is listed twice")
        seen.add(c)


def _discard(state: State, op: Discard, seq: int) -> State:  # OP-4
    _player(state, op.player)
    _distinct(op.cards)
    p = state.player(op.player)
    for c in op.cards:
        _card(c)
        if not Z.possible_in_hand(p, c):
            raise OpError(f"{c} cannot be in {op.player}'s hand")
        p = Z.hand_remove(p, c)
        p = Z.rep(p, trash=p.trash + (c,))
    return state.with_player(p)


def _trash(state: State, op: Trash, seq: int) -> State:  # OP-5
    _distinct(op.cards)
    items = []
    for c in op.cards:
        _card(c)
        owner = _field_owner(state, c, op.player)
        if card_protected(state, owner, c):
            raise OpError(f"{owner}'s {c} cannot be trashed (CANNOT_BE_TRASHED)")
        items.append((owner, c))
    return Z.trash_from_field(state, items)


def _move(state: State, op: Move, seq: int) -> State:  # OP-6
    card = _card(op.card)
    if op.from_ == op.to and op.to != "deck":
        raise OpError(f"{card} would move from {op.from_} to {op.to}")
    owner = _owner_in_zone(state, card, op.from_, op.player)
    p = state.player(owner)
    if op.from_ == "field":
        p = Z.remove_from_field(p, [card])
    elif op.from_ == "hand":
        p = Z.hand_remove(p, card)
    elif op.from_ == "deck":
        p = Z.rep(p, deck_count=p.deck_count - 1)
    else:
        p = Z.rep(p, trash=tuple(c for c in p.trash if c != card))
    if op.to == "field":
        p = Z.add_single(p, card)
    elif op.to == "hand":
        p = Z.hand_add(p, [card])
    elif op.to == "deck":
        p = Z.rep(p, deck_count=p.deck_count + 1)
    else:
        p = Z.rep(p, trash=p.trash + (card,))
    return state.with_player(p)


def _owner_in_zone(state: State, card: str, zone: str, player: str | None) -> str:
    def holds(name: str) -> bool:
        p = state.player(name)
        if zone == "field":
            return p.unit_of(card) is not None
        if zone == "hand":
            return Z.possible_in_hand(p, card)
        if zone == "deck":
            return Z.possible_in_deck(p, card)
        return card in p.trash

    if player is not None:
        _player(state, player)
        if not holds(player):
            raise OpError(f"{card} is not (or cannot be) in {player}'s {zone}")
        return player
    owners = [n for n in state.names if holds(n)]
    if not owners:
        raise OpError(f"{card} is not (or cannot be) in any player's {zone}")
    if len(owners) > 1:
        raise OpError(f"{card} could be in either player's {zone}; name the player (\"player\": ...)")
    return owners[0]


def _shuffle(state: State, op: ShuffleDeck, seq: int) -> State:  # OP-7
    _player(state, op.player)
    return state


def _reveal(state: State, op: Reveal, seq: int) -> State:  # OP-8
    _player(state, op.player)
    _distinct(op.cards)
    p = state.player(op.player)
    for c in op.cards:
        _card(c)
    if op.from_ != "hand":
        return state
    new = [c for c in op.cards if c not in p.hand_known]
    for c in new:
        if not Z.possible_in_hand(p, c):
            raise OpError(f"{c} cannot be in {op.player}'s hand")
    if len(new) > Z.unknown_in_hand(p):
        raise OpError(f"{op.player}'s hand has only {Z.unknown_in_hand(p)} unknown cards")
    return state.with_player(Z.rep(p, hand_known=tuple(sorted(set(p.hand_known) | set(new)))))


def _reverse(state: State, op: ReverseOrder, seq: int) -> State:  # OP-9
    if op.duration.kind == "LEAVES_FIELD":
        raise OpError("a reversal lasts until an END_PHASE or is PERMANENT")
    return Z.rep(state, reversals=state.reversals + (Reversal(source_seq=seq, expires_turn=_expiry(state, op.duration)),))


def _modify(state: State, op: ModifyStrength, seq: int) -> State:  # OP-10
    card = _card(op.card)
    if C.is_joker(card):
        raise OpError("a joker's strength cannot be modified (DB-EFF-5)")
    owner = _field_owner(state, card, op.player)
    value = op.value
    if isinstance(value, str):
        if op.mode != "SET_NUMBER" or value not in C.INDEX:
            raise OpError(f"value {value!r}: SET_NUMBER takes a number (3...10, J, Q, K, A, 2) or an index 1-13; SHIFT an integer")
        value = C.INDEX[value]
    if op.mode == "SET_NUMBER" and not 1 <= value <= 13:
        raise OpError(f"SET_NUMBER index must be 1-13, not {value}")
    mod = Modifier(owner=owner, card=card, mode=op.mode, value=value, expires_turn=_expiry(state, op.duration), seq=seq)
    return Z.rep(state, modifiers=state.modifiers + (mod,))


def _set_status(state: State, op: SetStatus, seq: int) -> State:  # OP-11
    if op.status == "CANNOT_ACTIVATE":
        _player(state, op.target)
        entry = StatusEntry(owner=None, target=op.target, status=op.status, expires_turn=_expiry(state, op.duration), seq=seq)
    else:
        owner = _field_owner(state, op.target, op.player, "unit or card")
        entry = StatusEntry(owner=owner, target=op.target, status=op.status, expires_turn=_expiry(state, op.duration), seq=seq)
    return Z.rep(state, statuses=state.statuses + (entry,))


def _clear_status(state: State, op: ClearStatus, seq: int) -> State:  # OP-12
    keep = tuple(
        s for s in state.statuses
        if not (s.target == op.target and s.status == op.status and (op.player is None or s.owner in (op.player, None)))
    )
    return Z.rep(state, statuses=keep)


def _reset_attack(state: State, op: ResetAttack, seq: int) -> State:  # OP-13
    owner = _field_owner(state, op.unit, op.player, "unit")
    p = state.player(owner)
    unit = p.unit(op.unit)
    if unit is None:
        raise OpError(f"{op.unit} is a card inside a pair; name the unit")
    return state.with_player(Z.rep(p, field=tuple(Z.rep(u, attacked=False) if u.unit_id == op.unit else u for u in p.field)))


def _form_pair(state: State, op: FormPairOp, seq: int) -> State:  # OP-14
    if not op.units:
        raise OpError("no units listed")
    owner = _field_owner(state, op.units[0], op.player, "unit")
    problem = Z.pair_problem(state, owner, op.units)
    if problem is not None:
        raise OpError(problem[1])
    return Z.with_pair(state, owner, op.units)


def _remove_from_pair(state: State, op: RemoveFromPair, seq: int) -> State:  # OP-15
    card = _card(op.card)
    owner = _field_owner(state, card, op.player)
    p = state.player(owner)
    unit = p.unit_of(card)
    if unit is None or not unit.is_pair:
        raise OpError(f"{card} is not in a pair")
    p = Z.remove_from_field(p, [card])
    p = Z.rep(p, field=p.field + (Unit(unit_id=card, cards=(card,), attacked=unit.attacked),))
    return state.with_player(p)


def _negate(state: State, op: NegateOp, seq: int) -> State:  # OP-16
    if not any(e.entry_id == op.entry_id for e in state.chain):
        raise OpError(f"{op.entry_id} is not an unresolved entry on the chain ({', '.join(e.entry_id for e in state.chain) or 'empty'})")
    return Z.rep(state, chain=tuple(Z.rep(e, negated=True) if e.entry_id == op.entry_id else e for e in state.chain))


def _cancel_attack(state: State, op: CancelAttack, seq: int) -> State:  # OP-17
    if state.attack is None:
        raise OpError("no attack is in progress")
    return Z.rep(state, attack=None)


def _note(state: State, op: NoteOp, seq: int) -> State:  # OP-18
    return state


_HANDLERS: dict[type, Callable[[State, Any, int], State]] = {
    LoseLife: _lose_life,
    GainLife: _gain_life,
    DrawOp: _draw,
    Discard: _discard,
    Trash: _trash,
    Move: _move,
    ShuffleDeck: _shuffle,
    Reveal: _reveal,
    ReverseOrder: _reverse,
    ModifyStrength: _modify,
    SetStatus: _set_status,
    ClearStatus: _clear_status,
    ResetAttack: _reset_attack,
    FormPairOp: _form_pair,
    RemoveFromPair: _remove_from_pair,
    NegateOp: _negate,
    CancelAttack: _cancel_attack,
    NoteOp: _note,
}
