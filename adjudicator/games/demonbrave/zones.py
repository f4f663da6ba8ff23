"""Moving cards among a player's zones (DB-DECK-4, DB-DECK-7, DB-EFF-1), pair shrinkage
(DB-RES-31) and the draw (DB-TURN-4, DB-LIM-13). Pure functions: a new state every time.

Card identities in deck and hand are mostly unknown (DB-HID-5): a player's deck and the
unknown part of the hand together hold exactly the ids that are on no field, in no trash and
not known in hand. So a card is *possible* in the hand if it is a known hand card, or the hand
has an unknown card and the id is nowhere else known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave.state import Player, Result, State, Unit


rep = msgspec.structs.replace  # rep(obj, **changes): a copy with ``changes`` (the parts not changed are shared)


def unknown_in_hand(p: Player) -> int:
    return p.hand_count - len(p.hand_known)


def located(p: Player, card: str) -> bool:
    """The id is known to be somewhere other than the deck or the unknown hand."""
    return card in p.trash or card in p.hand_known or p.unit_of(card) is not None


def possible_in_hand(p: Player, card: str) -> bool:
    return card in p.hand_known or (unknown_in_hand(p) > 0 and C.is_card(card) and not located(p, card))


def possible_in_deck(p: Player, card: str) -> bool:
    return p.deck_count > 0 and C.is_card(card) and not located(p, card)


def count_cards(p: Player) -> int:
    """DB-EFF-1: deck + hand + field + trash."""
    return p.deck_count + p.hand_count + len(p.field_cards()) + len(p.trash)


# -- hand -----------------------------------------------------------------------------------------
def hand_remove(p: Player, card: str) -> Player:
    known = tuple(c for c in p.hand_known if c != card)
    return rep(p, hand_count=p.hand_count - 1, hand_known=known)


def hand_add(p: Player, cards: Iterable[str] = (), unknown: int = 0) -> Player:
    cards = tuple(cards)
    return rep(p, hand_count=p.hand_count + len(cards) + unknown, hand_known=tuple(sorted(set(p.hand_known) | set(cards))))


# -- field ----------------------------------------------------------------------------------------
def add_single(p: Player, card: str) -> Player:
    return rep(p, field=p.field + (Unit(unit_id=card, cards=(card,)),))


def remove_from_field(p: Player, cards: Iterable[str]) -> Player:
    """Take cards off the field; then DB-RES-31: a pair of 2+ stays the same unit, a pair of
    one dissolves into a single (its card id) keeping the pair's attacked flag, an empty unit
    goes."""
    gone = set(cards)
    field = []
    for u in p.field:
        left = tuple(c for c in u.cards if c not in gone)
        if len(left) == len(u.cards):
            field.append(u)
        elif len(left) >= 2:
            field.append(rep(u, cards=left))
        elif len(left) == 1:
            field.append(rep(u, unit_id=left[0], cards=left))
    return rep(p, field=tuple(field))


# -- trash ----------------------------------------------------------------------------------------
def trash_from_field(state: State, items: Sequence[tuple[str, str]]) -> State:
    """Cards leave the field for their owner's trash at the same time, in the order given
    (pair join order), then pairs shrink (DB-RES-31)."""
    for name in state.names:
        mine = [c for owner, c in items if owner == name]
        if not mine:
            continue
        p = state.player(name)
        p = remove_from_field(p, mine)
        p = rep(p, trash=p.trash + tuple(mine))
        state = state.with_player(p)
    return state


# -- drawing (DB-TURN-4, DB-LIM-13) --------------------------------------------------------------
def required_draw(state: State, p: Player) -> int:
    """DB-TURN-4: up to the refill target when holding fewer, else 1."""
    target = state.config.refill_target
    return target - p.hand_count if p.hand_count < target else 1


def available_draw(state: State, p: Player, wanted: int) -> int:
    """DB-LIM-13: how many of ``wanted`` cards can be drawn (the trash counts with reshuffle)."""
    pool = p.deck_count + (len(p.trash) if state.config.deck_exhaustion == "reshuffle_trash" else 0)
    return min(wanted, pool)


def draw_cards(state: State, name: str, wanted: int, cards: Sequence[str] | None) -> State:
    """Draw ``wanted`` cards as far as DB-LIM-13 allows; with ``lose_on_failed_draw`` a player
    who cannot draw them all loses (DB-OVR-3)."""
    p = state.player(name)
    n = available_draw(state, p, wanted)
    known = tuple(cards or ())
    first = min(n, p.deck_count)
    p = rep(p, deck_count=p.deck_count - first)
    rest = n - first
    if rest > 0:  # reshuffle_trash: the trash becomes the deck and the draw goes on
        p = rep(p, deck_count=len(p.trash) - rest, trash=())
    p = hand_add(p, known, unknown=n - len(known))
    state = state.with_player(p)
    if wanted > n and state.config.deck_exhaustion == "lose_on_failed_draw" and state.status == "IN_PROGRESS":
        state = rep(state, status="FINISHED", result=Result(outcome="WIN", winner=state.opponent(name), reason="FAILED_DRAW"))
    return state


# -- pairs (DB-ACT-11, DB-RUL-5) -----------------------------------------------------------------
def pair_number(unit_id: str) -> int:
    return int(unit_id.split("-", 1)[1])


def pair_problem(state: State, owner: str, units: Sequence[str]) -> tuple[str, str] | None:
    """Why ``units`` of ``owner`` cannot be joined into one pair: (code, message), or None."""
    p = state.player(owner)
    seen = set()
    found: list[Unit] = []
    for uid in units:
        if uid in seen:
            return "ILLEGAL_ACTION", f"{uid} is listed twice in form_pair"
        seen.add(uid)
        u = p.unit(uid)
        if u is None:
            holder = p.unit_of(uid)
            if holder is not None:
                return "UNIT_NOT_OWNED", f"{uid} is inside {holder.unit_id}; list the unit {holder.unit_id}, not its card"
            return "UNIT_NOT_OWNED", f"no unit {uid} is on {owner}'s field"
        found.append(u)
    total = sum(len(u.cards) for u in found)
    if total < 2:
        return "PAIR_TOO_SMALL", f"a pair needs 2 or more cards; {' '.join(units) or 'nothing'} hold{'s' if len(units) == 1 else ''} {total}"
    pairs = [u for u in found if u.is_pair]
    if len(pairs) >= 2 and not state.config.pair_merge:
        return "PAIR_MERGE_FORBIDDEN", f"two pairs cannot be merged ({', '.join(u.unit_id for u in pairs)}); pairs are permanent and stay apart"
    if pairs and not state.config.pair_extend:  # whatever pair_merge says: no pair grows (DB-ACT-11)
        how = "by merging" if len(pairs) >= 2 else "by extension"
        return "PAIR_EXTEND_FORBIDDEN", (f"{', '.join(u.unit_id for u in pairs)} would grow {how}; with pair_extend off "
                                         "no pair grows, whatever pair_merge says: join singles into a new pair")
    if len(found) < 2:
        return "ILLEGAL_ACTION", f"{units[0]} is already a pair; list at least one more unit to join it"
    return None


def with_pair(state: State, owner: str, units: Sequence[str]) -> State:
    """Join ``units`` (checked by ``pair_problem``): an existing pair keeps its id and gains the
    others' cards (with several, the lowest-numbered keeps its id); otherwise a new ``PAIR-n``."""
    p = state.player(owner)
    found = [p.unit(uid) for uid in units]
    pairs = sorted((u for u in found if u is not None and u.is_pair), key=lambda u: pair_number(u.unit_id))
    if pairs:
        keeper = pairs[0]
        cards = keeper.cards + tuple(c for u in found if u is not None and u is not keeper for c in u.cards)
        new_id = keeper.unit_id
        anchor = keeper.unit_id
        counter = state.pair_counter
    else:
        cards = tuple(c for u in found if u is not None for c in u.cards)
        new_id = f"PAIR-{state.pair_counter}"
        anchor = units[0]
        counter = state.pair_counter + 1
    pair = Unit(
        unit_id=new_id,
        cards=cards,
        attacked=any(u.attacked for u in found if u is not None),
        blocks=max(u.blocks for u in found if u is not None),
    )
    members = set(units)
    field = []
    for u in p.field:
        if u.unit_id == anchor:
            field.append(pair)
        elif u.unit_id not in members:
            field.append(u)
    return rep(state.with_player(rep(p, field=tuple(field))), pair_counter=counter)
