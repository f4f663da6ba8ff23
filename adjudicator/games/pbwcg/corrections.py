"""The gates of ``correct`` and ``rewind`` (rules/pbwcg.md §8): forgotten checks and BS effects
within one turn back (PBW-COR-3, PBW-COR-14), local rules B and C (PBW-COR-8..10) and record fixes
(PBW-COR-11). The fold carries the correction out; these decide whether it may be made."""

from __future__ import annotations

import msgspec

from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg.combat import reject
from adjudicator.games.pbwcg.state import Obligation, State
from adjudicator.engine.protocol import JUDGE, Context, NotEffective

BASES = ("forgotten_check", "judge_error", "record_fix")
ATTACKS = (E.NormalAttack, E.AbilityUsed)


def current_turn(s: State, ctx: Context) -> int:
    """PBW-RUL-43: the highest turn any ``turn_started`` of the current battle reached in the log,
    abandoned ones too (§15: each battle counts its turns from 1)."""
    return max((ev.turn for seq, ev in ctx.log if seq > s.battle_seq and isinstance(ev, E.TurnStarted)), default=0)


def _this_battle(s: State, seq: int, what: str) -> None:
    """§15: no correct or rewind reaches into an earlier battle (PBW-RUL-5)."""
    if s.battle > 1 and seq <= s.battle_seq:
        reject("PBW-RUL-5", f"{what} {seq} lies in an earlier battle: battle {s.battle} began at seq {s.battle_seq}", "EARLIER_BATTLE")


def turn_of(ctx: Context, seq: int) -> int:
    return ctx.state_at(seq).turn  # type: ignore[misc]


def _event_at(ctx: Context, seq: int) -> E.Action | None:
    return next((ev for s, ev in ctx.log if s == seq), None)


def _is_attack(ev: E.Action | None) -> bool:
    if isinstance(ev, ATTACKS):
        return True
    if isinstance(ev, E.SetCardActivated) and ev.attack is not None:
        return True
    ops = ev.ops if isinstance(ev, (E.Effect, E.FieldEffect, E.SetCardActivated, E.BsEffect)) else ()
    return any(isinstance(op, (E.AttackOp, E.ApplyBs)) for op in ops)


def _confirmed(s: State, given: tuple[str, ...]) -> bool:
    needed = set(s.in_battle()) | ({JUDGE} if s.options.judge_present else set())
    return needed <= set(given)


def _common(s: State, ev: E.PbwCorrect | E.PbwRewind) -> None:
    if s.confirmed:
        reject("PBW-COR-13", "the result is confirmed: no correct or rewind is accepted any more")
    if ev.basis not in BASES:
        reject("PBW-COR-1", f"a {'correct' if isinstance(ev, E.PbwCorrect) else 'rewind'} needs basis forgotten_check, judge_error or record_fix, not {ev.basis!r}")


def _other_basis(s: State, ev: E.PbwCorrect | E.PbwRewind) -> None:
    """PBW-COR-9, PBW-COR-10 (judge errors) and PBW-COR-11 (record fixes)."""
    if ev.basis == "judge_error":
        mode = s.options.local_C_judge_errors
        if mode == "off" or not s.options.judge_present:
            reject("PBW-COR-9", f"judge errors are corrected only under local rule C with a judge present (C: {mode}, judge present: {s.options.judge_present})")
        if JUDGE not in ev.confirmations:
            reject("PBW-COR-9" if mode == "C" else "PBW-COR-10", "a judge-error correction needs the judge's confirmation")
        if mode == "C_alpha" and (ev.disadvantaged not in s.names() or not set(s.in_battle()) <= set(ev.confirmations)):
            reject("PBW-COR-10", "local rule C-alpha: name the disadvantaged player and have the judge and every player confirm")
    else:
        if not s.options.allow_record_fixes:
            reject("PBW-COR-11", "record fixes are not allowed in this match (allow_record_fixes is false)")
        if not _confirmed(s, ev.confirmations):
            reject("PBW-COR-11", f"a record fix needs the confirmation of both players{' and the judge' if s.options.judge_present else ''}; given {list(ev.confirmations)}")


def _missed(s: State, closing: int) -> list[Obligation]:
    return [o for o in s.obligations if o.status == "missed" and o.closed_seq == closing]


def gate_correct(s: State, ev: E.PbwCorrect, ctx: Context) -> State:
    _common(s, ev)
    done = next((o for o in s.obligations if o.status == "fulfilled" and o.fulfilled_seq == ctx.seq), None)
    if done is not None and ev.basis == "forgotten_check":  # the corrected history's last state
        return msgspec.structs.replace(s, obligations=tuple(
            msgspec.structs.replace(o, status="corrected") if o is done else o for o in s.obligations))
    if ev.at_seq not in ctx.effective or ev.at_seq == ctx.effective[0]:
        reject("PBW-COR-7", f"at_seq {ev.at_seq} is not an event of the effective history after match_started")
    _this_battle(s, ev.at_seq, "at_seq")
    if ev.basis != "forgotten_check":
        _other_basis(s, ev)
        return s
    if s.options.local_B_no_corrections:
        reject("PBW-COR-8", "local rule B: no correction after the fact, not even of a forgotten check")
    inner = msgspec.convert(ev.event, E.Event)
    kind = {E.BsEffect: "TRIG", E.BsRecoveryCheck: "REC"}.get(type(inner))
    if kind is None:
        reject("PBW-COR-3", f"a forgotten check inserts a bs_effect or bs_recovery_check, not {ev.event.get('type')}; checks inside an attack are carried out by a rewind (PBW-COR-14)")
    ob = next((o for o in _missed(s, ev.at_seq) if o.kind == kind and o.character == inner.actor and o.bs == inner.bs), None)  # type: ignore[union-attr]
    if ob is None:
        reject("PBW-COR-3", f"no missed, uncorrected {kind} obligation of {inner.actor} for {inner.bs} was closed by seq {ev.at_seq}")  # type: ignore[union-attr]
    now = current_turn(s, ctx)
    if turn_of(ctx, ev.at_seq) < now - 1:
        reject("PBW-COR-3", f"{ob.id} was closed in turn {turn_of(ctx, ev.at_seq)}; corrections reach one turn back from turn {now}")
    if not _confirmed(s, ev.confirmations):
        reject("PBW-COR-3", f"a forgotten check is carried out once both players{' and the judge' if s.options.judge_present else ''} confirm; given {list(ev.confirmations)}")
    return s


def gate_rewind(s: State, ev: E.PbwRewind, ctx: Context) -> State:
    _common(s, ev)
    eff = list(ctx.effective)
    if ev.to_seq not in eff or ev.to_seq == eff[-1]:
        reject("PBW-COR-7", f"to_seq {ev.to_seq} is not an event of the effective history before its head")
    if ev.to_seq < s.battle_seq:
        _this_battle(s, ev.to_seq, "to_seq")
    if ev.basis != "forgotten_check":
        _other_basis(s, ev)
        return s
    if s.options.local_B_no_corrections:
        reject("PBW-COR-8", "local rule B: no going back after the fact, not even for a forgotten check")
    nxt = eff[eff.index(ev.to_seq) + 1]
    if not _missed(s, nxt) and not _is_attack(_event_at(ctx, nxt)):
        reject("PBW-COR-14", f"seq {nxt} closed no missed obligation and is no attack: a forgotten check cannot go back to {ev.to_seq}")
    try:
        when = turn_of(ctx, nxt)
    except NotEffective:
        reject("PBW-COR-14", f"seq {nxt} is not an event of the effective history")
    now = current_turn(s, ctx)
    if when < now - 1:
        reject("PBW-COR-14", f"seq {nxt} lies in turn {when}; going back reaches one turn back from turn {now}")
    if not _confirmed(s, ev.confirmations):
        reject("PBW-COR-14", f"going back needs the confirmation of both players{' and the judge' if s.options.judge_present else ''}; given {list(ev.confirmations)}")
    return s
