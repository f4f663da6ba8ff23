"""BACDEF state (rules/bacdef.md §11).

The reducer works on a private copy of the state (``clone``) and returns it; the input is never
mutated. The structs are plain (not frozen) so that the procedural parts of the rules (damage
one point at a time, suspended op lists, F chains) read like the chapter; ``clone`` is a
msgpack round trip, which is fast for a state of 14 cards.
"""

from __future__ import annotations

from typing import Any

import msgspec

LETTERS = ("A", "B", "C", "D", "E", "F")
SPECIALS = ("D", "E", "F")


class Card(msgspec.Struct, kw_only=True):
    id: str
    owner: str
    letter: str
    zone: str = "hand"  # hand | field | guard | discard
    face: str = "down"  # up | down
    orientation: str = "upright"  # upright | sideways
    slot: int | None = None
    skill_used: bool = False
    knocked: bool = False


class Slot(msgspec.Struct, kw_only=True):
    card_id: str
    state: str = "U"  # U | S | X


class PlayerState(msgspec.Struct, kw_only=True):
    deck: list[str] = []  # the registered letters, in card-id order (private)
    hand: list[str] = []
    guards: list[Slot] = []
    overflow: int = 0
    discard: list[str] = []
    special_used: dict[str, bool] = {}


class Instance(msgspec.Struct, kw_only=True):
    id: str
    controller: str
    side: str  # attacker | defender
    kind: str  # knock | skill
    card_id: str
    letter: str | None
    status: str = "pending"  # pending | resolved | negated
    converted: bool = False
    extra_of: str | None = None


class Packet(msgspec.Struct, kw_only=True):
    id: str
    source_side: str
    source_instance: str | None
    target: str
    amount: int
    kind: str  # knock | skill | rebound
    applied: bool = False
    nullified: int = 0


class Frame(msgspec.Struct, kw_only=True):
    """A unit of pending work on the stack: an op list being applied, or an F decision."""

    kind: str  # ops | f_decision
    controller: str
    source: str  # instance id, "F:<card>", "end", "deferred:<instance>"
    ops: list[dict[str, Any]] = []
    card_id: str | None = None


class Await(msgspec.Struct, kw_only=True):
    """What the reducer is waiting for: a decision by ``player`` (or the judge)."""

    kind: str  # order | effect | damage | heal | lost | f_decision
    player: str
    ref: str | None = None
    points: int = 0  # damage/heal points still to place, or cards to lose
    dmg_kind: str = ""
    victim: str | None = None


class Shield(msgspec.Struct, kw_only=True):
    player: str
    remaining: int | None  # None: "all"
    kind: str  # any | knock


class LastingEffect(msgspec.Struct, kw_only=True):
    id: str
    source: str
    controller: str
    text: str
    expires_turn: int


class TurnState(msgspec.Struct, kw_only=True):
    no: int
    attacker: str
    defender: str
    start_seq: int
    step: str = "standby"  # standby action counter resolution damage fall remaining drop end
    skipped: bool = False
    handless: dict[str, bool] = {}
    placed: dict[str, str | None] = {}
    declared: dict[str, bool] = {}  # first declaration of the battle made
    closed: dict[str, bool] = {}  # own deployment step closed
    reaction: str | None = None  # through | counter
    instances: list[Instance] = []
    extra_allowance: dict[str, int] = {}
    order: dict[str, list[str] | None] = {}
    queue: list[str] = []
    queue_fixed: bool = False
    packets: list[Packet] = []
    fall_queue: list[str] = []
    deferred: list[Frame] = []
    work: list[Frame] = []  # stack, innermost last
    awaiting: Await | None = None
    damage_received: dict[str, int] = {}
    shields: list[Shield] = []
    replays_used: int = 0
    notes: list[str] = []  # automatic steps carried out by the last event (BAC-GEN-3)


class SetResult(msgspec.Struct, kw_only=True):
    set_no: int
    outcome: str  # win | void
    winner: str | None
    reason: str


class SetState(msgspec.Struct, kw_only=True):
    set_no: int
    stage: str  # deck | guards | first_player | turns
    first_player: str | None = None
    cards: dict[str, Card] = {}
    players: dict[str, PlayerState] = {}
    lasting: list[LastingEffect] = []
    turn: TurnState | None = None
    lasting_counter: int = 0


class State(msgspec.Struct, kw_only=True):
    players: list[str]
    options: dict[str, Any]
    catalog: dict[str, dict[str, Any]]
    set_wins: dict[str, int]
    void_sets: int = 0
    set_results: list[SetResult] = []
    status: str = "in_progress"  # in_progress | won | drawn
    match_winner: str | None = None
    set: SetState | None = None
    floor_seq: int = 1  # BAC-REW-11
    decks_set1: dict[str, list[str]] | None = None


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(State)


def clone(state: State) -> State:
    return _dec.decode(_enc.encode(state))


def other(state: State, player: str) -> str:
    a, b = state.players
    return b if player == a else a


def live_slots(ps: PlayerState) -> list[int]:
    return [i + 1 for i, s in enumerate(ps.guards) if s.state != "X"]


def capacity(ps: PlayerState) -> int:
    return sum(2 if s.state == "U" else 1 for s in ps.guards if s.state != "X")


def damage_level(ps: PlayerState) -> int:
    weights = {"U": 0, "S": 1, "X": 2}
    return sum(weights[s.state] for s in ps.guards) + ps.overflow


def losing(ps: PlayerState) -> bool:
    return ps.overflow >= 1
