"""Rewinds (rules/bacdef.md §8): the contradiction rewind to the start of the turn and its limit
(BAC-REW-3..7), the judge-error rewind and its floor (BAC-REW-10, -11), and the check that a
replay repeats attempt 1 under ``replay_must_repeat`` (BAC-REW-6)."""

from __future__ import annotations

from bisect import bisect_left

import msgspec

from adjudicator.games.bacdef import events as E
from adjudicator.games.bacdef.checks import reject, require_judge
from adjudicator.games.bacdef.state import State, clone, in_turn
from adjudicator.games.bacdef.turns import end_set
from adjudicator.engine.protocol import Action, Context


def contradiction_count(ctx: Context, start_seq: int) -> int:
    """Contradiction rewinds to the turn that began at ``start_seq``, abandoned branches included.
    They all come after ``start_seq``: the log (in seq order) is read from there, not from seq 1."""
    log = ctx.log
    return sum(1 for _, e in log[bisect_left(log, start_seq, key=lambda p: p[0]):]
               if isinstance(e, E.BacRewind) and e.cause == "contradiction" and e.to_seq == start_seq)


def check_rewind(s: State, ev: E.BacRewind, ctx: Context) -> None:
    if ev.cause == "contradiction":
        if not in_turn(s):
            raise reject("BAC-REW-3", "E_WRONG_STEP", "a contradiction can be declared only during a turn")
        require_judge(ev, "BAC-ACT-19", "a contradiction rewind")
        t = s.set.turn
        if ev.to_seq != t.start_seq:
            raise reject("BAC-REW-3", "E_REWIND_TARGET", f"a contradiction rewinds to the start of turn {t.no} (seq {t.start_seq}), not to seq {ev.to_seq}")
        return
    require_judge(ev, "BAC-ACT-21", "a judge-error rewind")
    if not s.options.allow_judge_rewind:
        raise reject("BAC-REW-10", "E_CONFIG", "judge-error rewinds are off in this match (allow_judge_rewind)")
    if ev.to_seq < s.floor_seq:
        raise reject("BAC-REW-11", "E_REWIND_TARGET", f"seq {ev.to_seq} is before seq {s.floor_seq}, the last completed turn or set result; it stands")
    if ev.to_seq >= ctx.seq or ev.to_seq not in set(ctx.effective):
        raise reject("BAC-REW-11", "E_REWIND_TARGET", f"seq {ev.to_seq} is not an earlier event of the effective history")


def apply_rewind(current: State, target: State, ev: E.BacRewind, ctx: Context) -> State:
    """The state after an accepted rewind: the state at ``to_seq`` with the replays counted
    (BAC-REW-4), or the set void when the contradictions exceed the limit (BAC-REW-7)."""
    s = clone(target)
    if ev.cause == "contradiction":
        t_start = current.set.turn.start_seq
        k = contradiction_count(ctx, t_start)
        limit = current.options.contradiction_replays
        if k < limit:
            s.set.turn.replays_used = k + 1
            s.set.turn.notes = (f"auto: turn {s.set.turn.no} rewound for a contradiction; replay {k + 1} of {limit}",)
        else:
            reason = f"contradiction declared {k + 1} times in turn {current.set.turn.no}: the set is void (BAC-REW-7)"
            end_set(s, "void", None, reason, ctx.seq)
        return s
    if s.set is not None and s.set.turn is not None:
        s.set.turn.replays_used = contradiction_count(ctx, s.set.turn.start_seq)
        s.set.turn.notes = (f"auto: judge-error rewind to seq {ev.to_seq}",)
    return s


# -- replay_must_repeat (BAC-REW-6) ------------------------------------------------------------
DECISION_TYPES: dict[str, tuple[type, ...]] = {
    "place": (E.PlaceFieldCard,),
    "declare": (E.DeclareKnock, E.DeclareSkill, E.DeclareThrough, E.FinishDeployment),
    "order": (E.ChooseResolutionOrder,),
    "damage": (E.AssignDamage,),
    "heal": (E.AssignHeal,),
    "lost": (E.ChooseLostCards,),
    "fall": (E.ActivateFallSkill, E.DeclineFallSkill),
}


def check_replay(s: State, ev: E.PlayerDecision, ctx: Context, category: str) -> None:
    """Under ``replay_must_repeat``, the k-th decision of a kind by a player in a replay must
    equal the k-th such decision of attempt 1 of the same turn.

    The handlers ask it under the option only (``if s.options.replay_must_repeat:``): most
    matches never replay, and a call at every decision costs more than the option's look-up."""
    if not s.options.replay_must_repeat or not in_turn(s) or s.set.turn.replays_used < 1 or not ctx.log:
        return
    _same_as_attempt_1(s, ev, ctx, category)


def _same_as_attempt_1(s: State, ev: E.PlayerDecision, ctx: Context, category: str) -> None:
    """``check_replay`` in a replay (a function of its own: its closure's cells are made only here)."""
    t = s.set.turn
    log = ctx.log  # in seq order: this turn's part is read from its start, not from seq 1
    turn_log = log[bisect_left(log, t.start_seq, key=lambda p: p[0]):]
    rewinds = [seq for seq, e in turn_log if isinstance(e, E.BacRewind) and e.cause == "contradiction" and e.to_seq == t.start_seq]
    if not rewinds:
        return
    kinds = DECISION_TYPES[category]
    effective = ctx.effective
    eff = set(effective[bisect_left(effective, rewinds[-1]):])

    def mine(events: list[Action]) -> list[E.PlayerDecision]:
        return [e for e in events if isinstance(e, kinds) and e.player == ev.player]

    before = mine([e for seq, e in turn_log if t.start_seq < seq < rewinds[0]])
    k = len(mine([e for seq, e in turn_log if seq > rewinds[-1] and seq in eff]))
    if k < len(before):
        was = before[k]
        if type(was) is not type(ev) or msgspec.to_builtins(was) | {"by": ""} != msgspec.to_builtins(ev) | {"by": ""}:
            raise reject("BAC-REW-6", "E_REPLAY_MISMATCH", f"the replay must repeat attempt 1: {ev.player} then entered {describe_event(was)}")


def describe_event(e: Action) -> str:
    d = msgspec.to_builtins(e)
    t = d.pop("type")
    d.pop("by", None)
    return t + " " + " ".join(f"{k}={v}" for k, v in d.items())
