"""The ops of a card's effect (rules/bacdef.md §10.2): one typed Struct per op, a tagged union on
``op``, decoded once with the event that carries them (``effects.py`` checks and carries them
out, by type)."""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from adjudicator.engine.protocol import Violation


class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class Damage(Op, tag="DAMAGE"):
    target: str
    amount: int


class Knock(Op, tag="KNOCK"):
    count: int = 1


class Heal(Op, tag="HEAL"):
    target: str
    amount: int


class Negate(Op, tag="NEGATE"):
    instance: str


class Convert(Op, tag="CONVERT"):
    instance: str


class Lose(Op, tag="LOSE"):
    victim: str
    count: int
    chooser: str = "victim"  # "victim", "opponent", or a player name


class Drop(Op, tag="DROP"):
    card_id: str


class Return(Op, tag="RETURN"):
    card_id: str


class Reveal(Op, tag="REVEAL"):
    card_id: str


class TurnGuard(Op, tag="TURN_GUARD"):
    player: str
    slot: int
    to: Literal["U", "S"]


class Prevent(Op, tag="PREVENT"):
    player: str
    amount: Union[int, Literal["all"]]
    kind: Literal["any", "knock"] = "any"


class Defer(Op, tag="DEFER"):
    ops: tuple["AnyOp", ...]


class Lasting(Op, tag="LASTING"):
    text: str
    until: Literal["end_of_turn", "end_of_next_turn"] = "end_of_turn"


class Note(Op, tag="NOTE"):
    text: str


AnyOp = Union[Damage, Knock, Heal, Negate, Convert, Lose, Drop, Return, Reveal, TurnGuard, Prevent, Defer, Lasting, Note]

#: the rule of each op, named when its fields are illegal (E_BAD_OP)
OP_RULES: dict[type, str] = {
    Damage: "BAC-EFF-1",
    Knock: "BAC-EFF-2",
    Heal: "BAC-EFF-3",
    Negate: "BAC-EFF-4",
    Convert: "BAC-EFF-5",
    Lose: "BAC-EFF-6",
    Drop: "BAC-EFF-7",
    Return: "BAC-EFF-8",
    Reveal: "BAC-EFF-9",
    TurnGuard: "BAC-EFF-10",
    Prevent: "BAC-EFF-11",
    Defer: "BAC-EFF-12",
    Lasting: "BAC-EFF-13",
    Note: "BAC-EFF-14",
}

#: ops that only a resolving battle instance may carry (BAC-EFF-4, -5, -12)
RESOLUTION_ONLY = (Negate, Convert, Defer)

Where = Literal["resolution", "fall", "end", "deferred"]  # the kind of op list


def tag(op: Op) -> str:
    return type(op).__struct_config__.tag  # type: ignore[return-value]


def bad(op: Op, message: str) -> Violation:
    return Violation(OP_RULES[type(op)], f"{tag(op)}: {message}", "E_BAD_OP")
