"""The engine: every automatic step an event makes possible (BAC-GEN-3), carried out on the
working copy until the table must decide something again.

It runs the stack of pending work (op lists and F decisions, innermost last) and, when the stack
is empty and nothing is awaited, moves the turn to its next step (§4: Standby, Action, Counter,
Resolution, Damage, Fall, Remaining, Drop, End), each step's automatic work found by the step in
``ADVANCE``."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from adjudicator.games.bacdef.damage import damage, packet
from adjudicator.games.bacdef.effects import EFFECTS
from adjudicator.games.bacdef.state import (
    Await,
    Card,
    State,
    TurnState,
    find_instance,
    orders_missing,
    push,
    replace_in,
    resolves_with_effect,
    set_instance,
    special_used,
)
from adjudicator.games.bacdef.zones import f_decision, in_card_order, note
from adjudicator.engine.protocol import JUDGE

MAX_STEPS = 10_000  # a bound on automatic steps per event: more is a bug, not a rule
_BOUND = range(MAX_STEPS)  # made once: a range of 10,000 made at every event costs more than its loop


def settle(s: State, strict: str | None = None) -> None:
    """Carry out ops and automatic steps on the working copy ``s`` until the table must act.

    ``strict`` is the source of the op list the current event entered (an instance id,
    ``F:<card>``, ``end:<source>``): its ops are checked strictly (``effects``). A plain loop over
    the state, with no object of its own: it runs once for every event.

    The turn is looked up once: the automatic steps never end a turn or a set (the table's events
    do: the End phase confirmed, a void, a concession)."""
    st = s.set
    if st is None or st.stage != "turns" or st.turn is None:  # not in a turn (state.in_turn)
        return
    t = st.turn
    for _ in _BOUND:
        if t.awaiting is not None:
            return
        stack = t.work
        if not stack:
            advance = ADVANCE[t.step]
            if advance is None or not advance(s, t):
                return
            continue
        # one piece of the innermost pending work: an F decision to wait for, or one op
        f = stack[-1]
        if f.kind == "f_decision":
            t.awaiting = Await(kind="f_decision", player=f.controller, ref=f.card_id)
            return
        ops = f.ops
        if not ops:
            t.work = stack[:-1]  # done: off the stack
            continue
        # the frame is frozen: the one with the rest of its ops replaces it before its first op runs
        f = replace(f, ops=ops[1:])
        t.work = stack[:-1] + (f,)
        op = ops[0]
        EFFECTS[type(op)](s, op, f, f.source == strict)
    raise RuntimeError("BACDEF engine did not settle")


# -- the steps ------------------------------------------------------------------------------------
def _standby(s: State, t: TurnState) -> bool:
    for p in s.players:
        if not t.handless[p] and not t.placed.get(p):
            return False
    t.step = "action"
    return True


def build_queue(t: TurnState) -> None:
    """BAC-RES-3: the defender's instances first, each player's in the order chosen (else in
    declaration order)."""
    d, a = t.defender, t.attacker
    own: dict[str, list[str]] = {d: [], a: []}
    for i in t.instances:
        own[i.controller].append(i.id)
    t.queue = (*(t.order.get(d) or own[d]), *(t.order.get(a) or own[a]))
    t.queue_fixed = True


def _resolution(s: State, t: TurnState) -> bool:
    if not t.queue_fixed:
        if orders_missing(t):
            return False
        build_queue(t)
    while t.queue:
        inst = find_instance(t, t.queue[0])
        if inst.status == "negated":
            t.queue = t.queue[1:]
            note(s, f"auto: {inst.id} negated, skipped")
        elif inst.converted or (inst.kind == "skill" and resolves_with_effect(s, inst)):
            t.awaiting = Await(kind="effect", player=JUDGE, ref=inst.id)
            return False
        elif inst.kind == "knock":
            t.queue = t.queue[1:]
            set_instance(t, inst, replace(inst, status="resolved"))
            packet(s, inst.controller, inst.id, t.defender, 1, "knock")
        else:
            t.queue = t.queue[1:]
            set_instance(t, inst, replace(inst, status="resolved"))
            note(s, f"auto: {inst.id} resolves with no effect")
    t.step = "damage"
    return True


def _damage(s: State, t: TurnState) -> bool:
    """BAC-RES-9: the defender's packets first, one at a time; then the F triggers queued.

    The packets are applied in one pass while nothing waits: a packet that awaits a player's slots
    (or leaves work) stops the pass, and the engine comes back for the next one afterwards."""
    for side in ("defender", "attacker"):
        for p in t.packets:
            if p.applied or p.source_side != side:
                continue
            nullified = damage(s, p.target, p.amount, p.kind, p.id)  # recorded (BAC-RES-10)
            t.packets = replace_in(t.packets, p, replace(p, applied=True, nullified=nullified))
            if t.awaiting is not None or t.work:
                return True
    t.step = "fall"
    if t.fall_queue:
        _fall_decisions(s, t)
    return True


def _fall_decisions(s: State, t: TurnState) -> None:
    """The F triggers queued during the Resolution and Damage steps, the attacker's first."""
    queued = sorted(t.fall_queue, key=lambda cid: 0 if s.set.cards[cid].owner == t.attacker else 1)
    t.fall_queue = ()
    for cid in reversed(queued):
        push(t, f_decision(s.set.cards[cid]))


def _fall(s: State, t: TurnState) -> bool:
    t.step = "remaining"
    t.work = (*t.work, *reversed(t.deferred))
    t.deferred = ()
    return True


def _remaining(s: State, t: TurnState) -> bool:
    t.step = "drop"
    drop_phase(s, t)
    return True


def _drop(s: State, t: TurnState) -> bool:
    t.step = "end"
    end_phase_returns(s, t)
    return True


def drop_phase(s: State, t: TurnState) -> None:
    """BAC-TURN-8 / BAC-RES-17: skill-used (and, under the option, knocked) field cards drop.

    Here and in ``end_phase_returns`` the cards move and the notes are taken in the loop itself
    (``cards[id] = ...``, ``t.notes += ...``: no call per card at every turn's end)."""
    drop_knocked = s.options.knock_card_fate == "drop"
    st = s.set
    cards = st.cards
    dropping = []  # a loop, not a comprehension: drop_knocked would be a closure cell
    for c in cards.values():
        if c.zone == "field" and (c.skill_used or (c.knocked and drop_knocked)):
            dropping.append(c)
    if not dropping:
        return
    if len(dropping) > 1:
        _pile_order(t, dropping)
    players = st.players
    triggered = []
    for c in dropping:
        cards[c.id] = c = replace(c, zone="discard", orientation="upright")
        ps = players[c.owner]
        players[c.owner] = replace(ps, discard=ps.discard + (c.id,))
        what = c.id if c.face == "up" else f"{c.owner}'s knocked card (face-down)"  # BAC-HID-2
        t.notes += (f"auto: {what} dropped in the Drop phase",)
        if c.letter == "F" and not special_used(s, c.owner, "F"):  # the marks: no drop changes them
            triggered.append(c)
    if triggered:
        _drop_triggers(s, t, triggered)


def _drop_triggers(s: State, t: TurnState, triggered: list[Card]) -> None:
    """The F decisions of the Fs dropped, the first player's per ``drop_phase_f_order`` first (BAC-RUL-17)."""
    first = t.defender if s.options.drop_phase_f_order == "defender_first" else t.attacker
    triggered.sort(key=lambda c: 0 if c.owner == first else 1)
    for c in reversed(triggered):
        push(t, f_decision(c))


def _pile_order(t: TurnState, dropping: list[Card]) -> None:
    """The defender's cards enter the pile first; one player's in declaration order (I1 first),
    as BAC-EX-14 lists them, and the cards never declared after them, by id."""
    instances = t.instances
    declared: dict[str, int] = {}
    for n, inst in enumerate(instances):
        declared.setdefault(inst.card_id, n)
    last, d = len(instances), t.defender
    dropping.sort(key=lambda c: (c.owner != d, declared.get(c.id, last), c.id))


def end_phase_returns(s: State, t: TurnState) -> None:
    """BAC-TURN-9: every card still on the field goes back to its owner's hand.

    A hand is kept in card order (``in_card_order``): each hand a card went back to takes its
    cards and is sorted again once."""
    st = s.set
    cards = st.cards
    back: dict[str, list[str]] = {}
    for c in [c for c in cards.values() if c.zone == "field"]:
        cards[c.id] = replace(c, zone="hand", orientation="upright", knocked=False)
        back.setdefault(c.owner, []).append(c.id)
        # a knocked or through card going back is never revealed (BAC-HID-2)
        what = c.id if c.face == "up" else f"{c.owner}'s field card"
        t.notes += (f"auto: {what} returns to {c.owner}'s hand",)
    players = st.players
    for p, ids in back.items():
        ps = players[p]
        players[p] = replace(ps, hand=in_card_order((*ps.hand, *ids)))


#: the automatic work of each step when nothing is pending; False: the table must act. None: in
#: the Action, Counter and End steps the table acts (the judge confirms the End phase)
ADVANCE: dict[str, Callable[[State, TurnState], bool] | None] = {
    "standby": _standby,
    "action": None,
    "counter": None,
    "resolution": _resolution,
    "damage": _damage,
    "fall": _fall,
    "remaining": _remaining,
    "drop": _drop,
    "end": None,
}
