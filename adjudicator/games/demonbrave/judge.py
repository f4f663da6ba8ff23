"""The judge's transitions (rules §8): ``judge_adjust``, ``declare_result``, ``void_game``, and the
gates of the generic ``rewind`` and ``correct`` (DB-RWD-3, DB-RWD-6). All five are the judge's
only (DB-RWD-2): the first three refuse anyone else here, the kit's gate refuses them a rewind or a
correction (``DemonBrave.rewind_rule``).

For a rewind or a correction the handler is the gate and returns the state it is given: the
fold makes the state after a rewind the state at ``to_seq`` (DB-RWD-3), and calls the gate of a
correction once more on the corrected history's last state, whose result is the state after it.
"""

from __future__ import annotations

from adjudicator.games.demonbrave import ops as O
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import DbCorrect, DbRewind, DeclareResult, JudgeAdjust, VoidGame
from adjudicator.games.demonbrave.guards import illegal, judge_only
from adjudicator.games.demonbrave.state import Result, State
from adjudicator.engine.protocol import Context, Violation

#: The events a correction may insert: play events (§5.3) and ``judge_adjust`` (DB-RWD-6).
CORRECTABLE = {"draw", "advance_phase", "play_card", "form_pair", "activate_effect", "resolve_chain_entry",
               "declare_attack", "declare_block", "resolve_battle", "concede", "judge_adjust"}


def on_judge_adjust(state: State, ev: JudgeAdjust, ctx: Context) -> State:
    judge_only(ev)
    return O.apply_ops(state, ev.ops, ctx.seq)


def on_declare_result(state: State, ev: DeclareResult, ctx: Context) -> State:
    judge_only(ev)
    if state.status in ("FINISHED", "VOID"):
        raise illegal(ev, f"game {state.match.game_index} is already over ({state.status.lower()})")
    if ev.outcome == "WIN" and ev.winner not in state.names:
        raise illegal(ev, f"a WIN names the winner, one of {', '.join(state.names)} (got {ev.winner!r})")
    if ev.outcome == "DRAW" and ev.winner is not None:
        raise illegal(ev, "a DRAW has no winner")
    return Z.rep(state, status="FINISHED", result=Result(outcome=ev.outcome, winner=ev.winner, reason=f"JUDGE: {ev.reason}"))


def on_void_game(state: State, ev: VoidGame, ctx: Context) -> State:
    judge_only(ev)
    if state.status == "VOID":
        raise illegal(ev, f"game {state.match.game_index} is already void")
    return Z.rep(state, status="VOID", result=Result(outcome="VOID", reason=ev.reason))


def scope_problem(state: State, target: State | None, seq_point: int, what: str) -> str | None:
    """DB-RWD-3: why going back to ``seq_point`` needs ``judge_override``, or None."""
    if target is not None and target.status == "SETUP" and state.status != "SETUP":
        return f"{what} reaches back into the setup"
    if state.end_seq is not None and seq_point < state.end_seq:
        return f"{what} reaches before seq {state.end_seq}, which ended the game"
    if state.config.rewind_scope == "current_turn" and state.status != "SETUP" and seq_point < state.turn_start_seq:
        return f"{what} leaves the current turn {state.turn_number}, which began at seq {state.turn_start_seq}"
    return None


def on_rewind(state: State, ev: DbRewind, ctx: Context) -> State:
    # the kit has refused anyone but the judge (DB-RWD-2, ``DemonBrave.rewind_rule``)
    if ev.to_seq not in ctx.effective or ctx.state_at is None:
        return state  # the fold reports a target outside the effective history (ADJ-REW-1)
    problem = scope_problem(state, ctx.state_at(ev.to_seq), ev.to_seq, f"a rewind to seq {ev.to_seq}")
    if problem and not ev.judge_override:
        raise Violation("DB-RWD-3", f"{problem}; only with judge_override=true", "REWIND_OUT_OF_SCOPE")
    return state


def on_correct(state: State, ev: DbCorrect, ctx: Context) -> State:
    # the kit has refused anyone but the judge (DB-RWD-2, ``DemonBrave.correct_rule``)
    inner = ev.event.get("type")
    if inner not in CORRECTABLE:
        raise Violation("DB-RWD-6", f"a correction inserts a play event or a judge_adjust, not {inner!r}", "ILLEGAL_ACTION")
    eff = list(ctx.effective)
    if ev.at_seq not in eff or ctx.state_at is None or eff.index(ev.at_seq) == 0:
        return state  # the fold reports a bad insertion point (ADJ-COR-1)
    before = eff[eff.index(ev.at_seq) - 1]
    problem = scope_problem(state, ctx.state_at(before), before, f"a correction before seq {ev.at_seq}")
    if problem and not ev.judge_override:
        raise Violation("DB-RWD-6", f"{problem}; only with judge_override=true", "REWIND_OUT_OF_SCOPE")
    return state
