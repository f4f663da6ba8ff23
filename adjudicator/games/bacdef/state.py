"""BACDEF state (rules/bacdef.md §11) and the questions every module asks of it.

A transition works on a private working copy of the state (``clone``) and returns it; the state
it was given is never mutated, and a state once returned is never changed again. The working copy
shares every immutable part with the state it was made from and copies the rest:

- shared: what never changes after ``match_started`` (the options, the catalog), what only grows
  by new values (set results, the registered decks), the cards and the players' states (frozen: a
  change replaces one in the set's dict, ``zones.set_card``, ``s.set.players[p] = replace(...)``),
  and every sequence of strings or frozen Structs (a hand, a discard pile, the guard slots, the
  queues, the notes, the lasting effects, the turn's instances, packets, pending work and shields:
  tuples, which an event replaces instead of changing, ``replace_in``, ``marked``, ``push``,
  ``pop``), and the small dicts by player or letter of ``SHARED_DICTS`` (the set wins, the
  once-per-set marks, the turn's placed, declared, closed...), replaced whole by ``put``, never
  changed in place;
- copied, field by field: the state, the set and its dicts of cards and players, and the turn,
  whose fields the procedural parts of the rules (damage placed one point at a time, suspended op
  lists, F chains) set in place, as the chapter reads.

``tests/bacdef/test_clone.py`` checks that a copy shares nothing mutable with its original but
``SHARED_DICTS``, and that no state returned changes afterwards; bench/bacdef_state.py measures
the copy.

Every Struct here is declared ``gc=False``: a state is a tree of data (no Struct refers to one
above it), so no reference cycle can pass through them, and the garbage collector need not track
them. A fold keeps many states (one in 32, and every state a look at the past computes again),
and each working copy allocates; untracked, they no longer make every collection walk every
state kept (docs/games/bacdef.md has the figures).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace

from adjudicator.games.bacdef.catalog import CardRule
from adjudicator.games.bacdef.config import Options
from adjudicator.games.bacdef.ops import AnyOp

SPECIALS = ("D", "E", "F")

Zone = Literal["hand", "field", "guard", "discard"]
Face = Literal["up", "down"]
Orientation = Literal["upright", "sideways"]
Mark = Literal["U", "S", "X"]  # a guard slot: upright, sideways, destroyed
Side = Literal["attacker", "defender"]
DamageKind = Literal["knock", "skill", "rebound"]
Step = Literal["standby", "action", "counter", "resolution", "damage", "fall", "remaining", "drop", "end"]
Stage = Literal["deck", "guards", "first_player", "turns", "over"]


class Card(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A card where it is now; frozen, so states share it until a move replaces it (``zones.set_card``)."""

    id: str
    owner: str
    letter: str
    zone: Zone = "hand"
    face: Face = "down"
    orientation: Orientation = "upright"
    slot: int | None = None
    skill_used: bool = False
    knocked: bool = False


class Slot(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    card_id: str
    state: Mark = "U"


class PlayerState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A player's cards in the set; frozen, so states share it until a change replaces it in the
    set's dict of players (one ``replace`` with every field changed): most events change no
    player, and a copy of both at every event cost more than the few replaced."""

    deck: tuple[str, ...] = ()  # the registered letters, in card-id order (private)
    hand: tuple[str, ...] = ()
    guards: tuple[Slot, ...] = ()  # frozen slots: a mark replaces the slot (``marked``)
    overflow: int = 0
    discard: tuple[str, ...] = ()
    special_used: dict[str, bool] = {}


class Instance(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    controller: str
    side: Side
    kind: Literal["knock", "skill"]
    card_id: str
    letter: str | None
    status: Literal["pending", "resolved", "negated"] = "pending"
    converted: bool = False
    extra_of: str | None = None


class Packet(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    source_side: Side
    source_instance: str | None
    target: str
    amount: int
    kind: DamageKind
    applied: bool = False
    nullified: int = 0


class Frame(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A unit of pending work on the stack: an op list being applied, or an F decision.

    ``source`` is the instance id, ``F:<card>``, ``end:<source>`` or ``deferred:<instance>``."""

    kind: Literal["ops", "f_decision"]
    controller: str
    source: str
    ops: tuple[AnyOp, ...] = ()
    card_id: str | None = None


class Await(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What the reducer is waiting for: a decision by ``player`` (or the judge)."""

    kind: Literal["effect", "damage", "heal", "lost", "f_decision"]
    player: str
    ref: str | None = None
    points: int = 0  # damage/heal points still to place, or cards to lose
    dmg_kind: DamageKind | None = None
    victim: str | None = None


class Shield(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    player: str
    remaining: int | None  # None: "all"
    kind: Literal["any", "knock"]


class LastingEffect(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: str
    source: str
    controller: str
    text: str
    expires_turn: int


class TurnState(msgspec.Struct, kw_only=True, gc=False):
    no: int
    attacker: str
    defender: str
    start_seq: int
    step: Step = "standby"
    skipped: bool = False
    handless: dict[str, bool] = {}
    placed: dict[str, str | None] = {}
    declared: dict[str, bool] = {}  # first declaration of the battle made
    closed: dict[str, bool] = {}  # own deployment step closed
    reaction: Literal["through", "counter"] | None = None
    instances: tuple[Instance, ...] = ()
    extra_allowance: dict[str, int] = {}
    order: dict[str, tuple[str, ...] | None] = {}
    queue: tuple[str, ...] = ()
    queue_fixed: bool = False
    packets: tuple[Packet, ...] = ()
    fall_queue: tuple[str, ...] = ()
    deferred: tuple[Frame, ...] = ()
    work: tuple[Frame, ...] = ()  # stack, innermost last
    awaiting: Await | None = None
    damage_received: dict[str, int] = {}
    shields: tuple[Shield, ...] = ()
    replays_used: int = 0
    notes: tuple[str, ...] = ()  # automatic steps carried out by the last event (BAC-GEN-3)


class SetResult(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    set_no: int
    outcome: Literal["win", "void"]
    winner: str | None
    reason: str


class SetState(msgspec.Struct, kw_only=True, gc=False):
    set_no: int
    stage: Stage
    first_player: str | None = None
    cards: dict[str, Card] = {}
    players: dict[str, PlayerState] = {}
    lasting: tuple[LastingEffect, ...] = ()
    turn: TurnState | None = None
    lasting_counter: int = 0


class State(msgspec.Struct, kw_only=True, gc=False):
    players: tuple[str, ...]
    options: Options
    catalog: dict[str, CardRule]  # one rule per letter, never changed after match_started
    set_wins: dict[str, int]
    void_sets: int = 0
    set_results: tuple[SetResult, ...] = ()
    status: Literal["in_progress", "won", "drawn"] = "in_progress"
    match_winner: str | None = None
    set: SetState | None = None
    floor_seq: int = 1  # BAC-REW-11
    decks_set1: dict[str, tuple[str, ...]] | None = None


#: dicts shared between a state and its working copy: replaced whole (``put``), never changed in place
SHARED_DICTS = frozenset({
    "catalog", "decks_set1", "set_wins",  # State
    "special_used",  # PlayerState
    "handless", "placed", "declared", "closed", "extra_allowance", "order", "damage_received",  # TurnState
})


def clone(state: State, fresh: bool = False, shallow: bool = False) -> State:
    """A working copy: every mutable part copied, the immutable parts shared; ``fresh``: for a
    transition, its turn's notes emptied (they say what the last event set off, BAC-GEN-3);
    ``shallow``: the state and the set copied alone, for a transition that changes neither the
    cards, the players nor the turn in place, and drops the turn (``rules.TURN_ENDING``).

    Written out field by field, in one function (it runs on every event): ``__copy__`` copies a
    Struct's fields shallowly, so each dict and mutable Struct below it that an event may change in
    place is copied here: the set, its dicts of cards and players (the cards and the players'
    states are frozen: a change replaces one), the turn. The guard slots, the turn's instances,
    packets, pending work and shields are frozen, held in tuples, and a change replaces one
    (``replace_in``, ``marked``, ``push``, ``pop``); the small dicts of ``SHARED_DICTS`` are
    replaced whole (``put``).
    ``tests/bacdef/test_clone.py`` checks that a clone equals its original and shares nothing
    mutable with it but those dicts: a mutable field added to a Struct must be copied here too.
    A copy with changed fields is made by ``msgspec.structs.replace``, in one call (setting a
    field of a Struct afterwards costs more)."""
    st = state.set
    if st is None:
        return state.__copy__()
    if shallow:
        return replace(state, set=st.__copy__())
    t = st.turn
    if t is not None:
        t = replace(t, notes=()) if fresh else t.__copy__()
    return replace(state, set=replace(st, cards=st.cards.copy(), players=st.players.copy(), turn=t))


# -- changes to the shared parts --------------------------------------------------------------------
def put(d: dict, key: str, value: object) -> dict:
    """A new dict: ``d`` with ``key`` set to ``value``. The small dicts keyed by player or letter
    (the set wins, the once-per-set marks, the turn's placed/declared/closed/... by player) are
    shared between states and replaced whole, never changed in place (``SHARED_DICTS``)."""
    new = d.copy()
    new[key] = value
    return new


def replace_in(items: tuple, old: msgspec.Struct, new: msgspec.Struct) -> tuple:
    """``items`` with ``old`` (the very object) replaced by ``new``, its copy with changes
    (``replace(old, ...)``, made by the caller: no ``**changes`` passed on)."""
    out = list(items)
    out[items.index(old)] = new  # an equal item before it would give the same tuple
    return tuple(out)


def set_instance(t: TurnState, inst: Instance, new: Instance) -> None:
    """The turn's instance ``inst`` replaced by ``new`` (``replace(inst, status=...)``)."""
    t.instances = replace_in(t.instances, inst, new)


def marked(guards: tuple[Slot, ...], slot: int, mark: Mark) -> tuple[Slot, ...]:
    """``guards`` with slot ``slot`` (1-based) marked ``mark``."""
    return (*guards[: slot - 1], replace(guards[slot - 1], state=mark), *guards[slot:])


def push(t: TurnState, frame: Frame) -> None:
    """``frame`` on top of the turn's stack of pending work."""
    t.work = t.work + (frame,)


def pop(t: TurnState) -> Frame:
    """The innermost pending work, taken off the stack."""
    f = t.work[-1]
    t.work = t.work[:-1]
    return f


# -- questions ------------------------------------------------------------------------------------
def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """``items`` less the first ``item`` (which must be there, as for ``list.remove``)."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def other(state: State, player: str) -> str:
    a, b = state.players
    return b if player == a else a


def live_slots(ps: PlayerState) -> list[int]:
    """The guard slots (1-based) not destroyed; loops, not comprehensions, here and in
    ``capacity``: damage asks them at every point placed."""
    live = []
    n = 0
    for g in ps.guards:
        n += 1
        if g.state != "X":
            live.append(n)
    return live


def capacity(ps: PlayerState) -> int:
    """The points the live guards can still take: 2 for an upright guard, 1 for a sideways one."""
    points = 0
    for g in ps.guards:
        if g.state == "U":
            points += 2
        elif g.state == "S":
            points += 1
    return points


def damage_level(ps: PlayerState) -> int:
    weights = {"U": 0, "S": 1, "X": 2}
    return sum(weights[s.state] for s in ps.guards) + ps.overflow


def losing(ps: PlayerState) -> bool:
    return ps.overflow >= 1


def in_turn(s: State) -> bool:
    return s.set is not None and s.set.stage == "turns" and s.set.turn is not None


def special_used(s: State, player: str, letter: str) -> bool:
    players = s.set.players
    if s.options.special_once_scope == "global":
        for ps in players.values():  # a loop, not any(): no closure cells at every call
            if ps.special_used.get(letter, False):
                return True
        return False
    return players[player].special_used.get(letter, False)


def find_instance(t: TurnState, iid: str) -> Instance | None:
    for i in t.instances:
        if i.id == iid:
            return i
    return None


def instances_of(t: TurnState, player: str) -> list[Instance]:
    return [i for i in t.instances if i.controller == player]


def orders_missing(t: TurnState) -> list[str]:
    """The players who have 2 instances or more and have not chosen their order (BAC-ACT-10),
    the defender first."""
    if len(t.instances) < 2:  # a player with fewer than 2 instances has no order to choose
        return []
    count = {t.defender: 0, t.attacker: 0}
    for i in t.instances:
        count[i.controller] += 1
    missing = []
    for p, n in count.items():
        if n >= 2 and not t.order.get(p):
            missing.append(p)
    return missing


def resolves_with_effect(s: State, inst: Instance) -> bool:
    return s.catalog[inst.letter].battle_effect if inst.letter else False
