"""Cards moving between zones, and what a move sets off: an F entering the discard pile
(BAC-RES-11), the table's notes (BAC-GEN-3), the once-per-set marks (BAC-LIM-3)."""

from __future__ import annotations

from msgspec.structs import replace

from adjudicator.games.bacdef.state import Card, Frame, State, push, put, special_used, without


def set_card(s: State, card: Card) -> Card:
    """``card`` put in its place in the set, and returned: a card is frozen and shared by the
    states it has not changed in, so a move replaces it by a copy with its changes,
    ``set_card(s, replace(c, zone=...))`` (use the card returned). The copy is made by the
    caller: a function that passed ``**changes`` on would build and unpack a dict at every move."""
    s.set.cards[card.id] = card
    return card


def note(s: State, text: str) -> None:
    """Record an automatic step the current event carried out (BAC-GEN-3)."""
    t = s.set.turn if s.set else None
    if t is not None:
        t.notes = t.notes + (text,)


def in_card_order(hand: tuple[str, ...]) -> tuple[str, ...]:
    """A hand in card order. Its ids are ``<player>-<n>``, all of one owner: a shorter number
    comes first, and numbers of one length sort as text (two sorts in C, no key per card)."""
    return tuple(sorted(sorted(hand), key=len))


def mark_special(s: State, player: str, letter: str) -> None:
    players = s.set.players
    ps = players[player]
    players[player] = replace(ps, special_used=put(ps.special_used, letter, True))


def f_decision(c: Card) -> Frame:
    return Frame(kind="f_decision", controller=c.owner, source=f"F:{c.id}", card_id=c.id)


def dropped(s: State, c: Card) -> None:
    """A card entered its owner's discard pile (a drop): an unused F triggers (BAC-RES-11), at
    once, or in the Fall step when it dropped during the Resolution or Damage step."""
    t = s.set.turn
    if c.letter != "F" or special_used(s, c.owner, "F") or t is None:
        return
    if t.step in ("resolution", "damage"):
        t.fall_queue = t.fall_queue + (c.id,)
        if c.face == "up":  # a face-down F's trigger must not show in public (BAC-HID-4)
            note(s, f"auto: {c.owner}'s F queued for the Fall step")
    else:
        push(t, f_decision(c))


def to_discard(s: State, c: Card) -> None:
    players = s.set.players
    ps = players[c.owner]
    hand = without(ps.hand, c.id) if c.id in ps.hand else ps.hand
    players[c.owner] = replace(ps, hand=hand, discard=ps.discard + (c.id,))
    dropped(s, set_card(s, replace(c, zone="discard", orientation="upright")))


def return_to_hand(s: State, c: Card) -> None:
    """RETURN (BAC-EFF-8): back in hand the card is a plain hand card again, so a later placement
    that is knocked or left through returns to hand in the End phase (BAC-TURN-9; BAC-EX-10)."""
    players = s.set.players
    ps = players[c.owner]
    discard = without(ps.discard, c.id) if c.zone == "discard" else ps.discard
    set_card(s, replace(c, zone="hand", face="down", orientation="upright", skill_used=False, knocked=False))
    players[c.owner] = replace(ps, hand=in_card_order(ps.hand + (c.id,)), discard=discard)
