"""Positions the rule tests start from."""

from __future__ import annotations

from tests.pbwcg.builder import Table
from tests.pbwcg.golden_a import TIE_B1_A2, p1_draw

CHK = {"declarer": "P2", "roller": "P1"}


def turn1(*cards: str, options: dict | None = None) -> Table:
    """Turn 1, P1's PL turn (B1 acts first), P1 holding ``cards`` among its five."""
    t = Table(options)
    t.setup()
    t.start_turn(draws={"P1": p1_draw(*cards)}, ties=[TIE_B1_A2])
    return t


def main1(*cards: str, options: dict | None = None, upto: str = "B1") -> Table:
    """Turn 1 at the start of ``upto``'s main turn."""
    t = turn1(*cards, options=options)
    t.pl_turns()
    t.field_step()
    while (a := t.next_actor()) != upto:
        t.idle(a)
    t.begin(upto)
    return t


def turn2(*cards: str, options: dict | None = None, set_cards: tuple[str, ...] = ()) -> Table:
    """Turn 2, P1's PL turn, with ``set_cards`` set by P1 in turn 1 (slots 1, 2)."""
    t = turn1(*(cards + set_cards), options=options)
    for i, c in enumerate(set_cards, 1):
        t.act("card_set", "P1", player="P1", card=c, set_slot=i)
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.pl_until("P1")
    return t
