"""What the DemonBrave rule tests share: a refusal asserted with its rule, code and message (and
that it changed nothing), the positions they start from, and a battle whose §6.4 row is asserted
before it is resolved."""

from __future__ import annotations

import pytest

from adjudicator.engine.fold import decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.engine.protocol import Violation
from tests.demonbrave.builder import NOTSET, Table

A, B = "alice", "bob"


def refuse(t: Table, rule: str, code: str, type_: str, by: str, *, says: str = "", **fields) -> str:
    """Assert that the line is refused with ``rule``/``code`` and that nothing changed."""
    before = t.state
    event = decode_event(GAME, type_, by, fields)
    with pytest.raises(Violation) as err:
        t.fold.preview(event, t.seq + 1)
    v = err.value
    assert (v.rule_id, v.code) == (rule, code), f"{v.rule_id} {v.code}: {v.message}"
    assert says in v.message, v.message
    assert t.state == before
    return v.message


def started(first: str = A, options: dict | None = None, **kw) -> Table:
    return Table(options=options, **kw).setup(first=first)


def battle_table(options: dict | None = None) -> Table:
    """Turn 2, bob's MAIN (alice first)."""
    t = started(options=options)
    t.end_turn()
    t.to_phase("MAIN")
    return t


def battle_position(first_cards: list[str], second_cards: list[str], options: dict | None = None) -> Table:
    """alice's cards on turn 1, bob's on turn 2; bob's BATTLE."""
    t = started(options=options)
    t.play(*first_cards)
    t.end_turn()
    t.to_phase("MAIN")
    t.play(*second_cards)
    return t


def fight(t: Table, attacker: str, target: str, rule: str, result: str, *, block=NOTSET) -> None:
    """One battle by the turn player, asserting the §6.4 row and result the table is shown
    before it is resolved (the view's forecast is the reducer's own computation)."""
    t.ev("declare_attack", t.tp, attacker=attacker, target=target)
    if block is not NOTSET:
        t.ev("declare_block", t.other(t.tp), blocker=block)
    forecast = GAME.view(t.state)["attack"]["outcome_if_resolved_now"]
    assert (forecast["rule"], forecast["result"]) == (rule, result), forecast
    t.ev("resolve_battle", t.tp)
