"""The battle transitions (rules §6.3, §6.4): declaring an attack, deciding a block, resolving the
battle. The outcome itself is computed by ``ranking.battle``, the one source the view and the
explanation share."""

from __future__ import annotations

from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import DeclareAttack, DeclareBlock, ResolveBattle
from adjudicator.games.demonbrave.guards import actor, illegal, need_chain_empty, need_phase, need_turn_player
from adjudicator.games.demonbrave.ranking import ChoiceError, battle, card_protected, has_status
from adjudicator.games.demonbrave.state import PLAYER, Attack, State, Unit
from adjudicator.engine.protocol import JUDGE, Context, Violation


def _check_target(state: State, ev: DeclareAttack, who: str, unit: Unit) -> None:
    kind = "pair" if unit.is_pair else "single"
    if ev.target == PLAYER:
        if not unit.is_pair and not has_status(state, who, unit, "MAY_ATTACK_PLAYER"):
            raise Violation("DB-LIM-2", f"{who}'s {kind} {ev.attacker} cannot attack the player; only pairs attack the player", "SINGLE_CANNOT_ATTACK_PLAYER")
        return
    foe = state.opponent(who)
    target = state.player(foe).unit(ev.target)
    if target is None:
        holder = state.player(foe).unit_of(ev.target)
        if holder is not None:
            raise illegal(ev, f"{foe}'s {ev.target} is inside {holder.unit_id}; attack the pair {holder.unit_id}", "BAD_TARGET")
        raise illegal(ev, f"{foe} has no unit {ev.target} on the field (targets: a unit of {foe}'s field or PLAYER)", "BAD_TARGET")
    if has_status(state, foe, target, "CANNOT_BE_ATTACKED"):
        raise illegal(ev, f"{foe}'s {ev.target} cannot be attacked (CANNOT_BE_ATTACKED)", "BAD_TARGET")


def on_declare_attack(state: State, ev: DeclareAttack, ctx: Context) -> State:
    if state.turn_number == 1:
        raise Violation("DB-TURN-3", f"{ev.player or ev.by}'s {ev.attacker} cannot attack {ev.target}: there is no battle on turn 1, the first player's first turn", "NO_BATTLE_FIRST_TURN")
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "attack")
    need_phase(state, ev, "BATTLE", f"{who}'s attack with {ev.attacker}", "attacks are declared")
    if state.attack is not None:
        raise Violation("DB-RES-11", f"{state.attack.attacker}'s attack on {state.attack.target} is still in progress; resolve it first", "ATTACK_PENDING")
    need_chain_empty(state, "declare an attack")
    me = state.player(who)
    unit = me.unit(ev.attacker)
    if unit is None:
        holder = me.unit_of(ev.attacker)
        if holder is not None:
            raise illegal(ev, f"{who}'s {ev.attacker} is inside {holder.unit_id}; the pair {holder.unit_id} attacks as one unit", "UNIT_NOT_OWNED")
        raise illegal(ev, f"{who} has no unit {ev.attacker} on the field", "UNIT_NOT_OWNED")
    kind = "pair" if unit.is_pair else "single"
    if unit.attacked:
        raise Violation("DB-LIM-1", f"{who}'s {kind} {ev.attacker} already attacked this turn", "ALREADY_ATTACKED")
    if has_status(state, who, unit, "CANNOT_ATTACK"):
        raise illegal(ev, f"{who}'s {kind} {ev.attacker} cannot attack (CANNOT_ATTACK)")
    _check_target(state, ev, who, unit)
    me = Z.rep(me, field=tuple(Z.rep(u, attacked=True) if u.unit_id == ev.attacker else u for u in me.field))
    attack = Attack(attacker=ev.attacker, attacker_player=who, target=ev.target, defender=state.opponent(who), declared_seq=ctx.seq)
    return Z.rep(state.with_player(me), attack=attack)


def can_block(state: State, owner: str) -> list[str]:
    """The units of ``owner`` that may block now (no CANNOT_BLOCK, within the block limit)."""
    limit = state.config.blocks_per_unit_per_turn
    return [
        u.unit_id for u in state.player(owner).field
        if not has_status(state, owner, u, "CANNOT_BLOCK") and (limit is None or u.blocks < limit)
    ]


def on_declare_block(state: State, ev: DeclareBlock, ctx: Context) -> State:
    a = state.attack
    if a is None or a.target != PLAYER or a.step != "DECLARED":
        what = "no attack is in progress" if a is None else f"the attack on {a.target} cannot be blocked" if a.target != PLAYER else "the block is already decided"
        raise illegal(ev, f"nothing to block: {what}")
    who = actor(state, ev, a.defender)
    if who != a.defender:
        raise illegal(ev, f"only {a.defender}, who is attacked, decides a block; not {who}")
    need_chain_empty(state, "declare a block")
    if ev.blocker is not None:
        me = state.player(who)
        unit = me.unit(ev.blocker)
        if unit is None:
            holder = me.unit_of(ev.blocker)
            extra = f"; {ev.blocker} is inside {holder.unit_id}" if holder else ""
            raise illegal(ev, f"{who} has no unit {ev.blocker} on the field{extra}", "UNIT_NOT_OWNED")
        if has_status(state, who, unit, "CANNOT_BLOCK"):
            raise illegal(ev, f"{who}'s {ev.blocker} cannot block (CANNOT_BLOCK)")
        limit = state.config.blocks_per_unit_per_turn
        if limit is not None and unit.blocks >= limit:
            raise Violation("DB-LIM-6", f"{who}'s {ev.blocker} has blocked {unit.blocks} time(s) this turn; the limit is {limit}", "BLOCK_LIMIT")
        me = Z.rep(me, field=tuple(Z.rep(u, blocks=u.blocks + 1) if u.unit_id == ev.blocker else u for u in me.field))
        state = state.with_player(me)
    return Z.rep(state, attack=Z.rep(a, step="BLOCK_DECLARED", blocker=ev.blocker))


def on_resolve_battle(state: State, ev: ResolveBattle, ctx: Context) -> State:
    if ev.by != JUDGE:
        if ev.by not in state.names:
            raise illegal(ev, f"{ev.by!r} is neither a player of this match nor the judge")
        need_turn_player(state, ev.by, "resolve the battle")
    need_chain_empty(state, "resolve the battle")
    a = state.attack
    if a is None:
        raise illegal(ev, "no attack is in progress")
    if a.target == PLAYER and a.step == "DECLARED":
        blockers = can_block(state, a.defender)
        attacker = state.player(a.attacker_player).unit(a.attacker)
        if blockers and attacker is not None:
            raise illegal(ev, f"{a.defender} has not decided whether to block {a.attacker} (with {', '.join(blockers)}, or declare_block blocker=null)", "BLOCK_DECISION_NEEDED")
    try:
        out = battle(state, a, ev.choice)
    except ChoiceError as exc:
        raise Violation("DB-RES-24", exc.message, exc.code) from None
    items = [(o, c) for o, c in out.trash if not card_protected(state, o, c)]
    state = Z.trash_from_field(state, items)
    for who, amount in out.life_loss:
        p = state.player(who)
        state = state.with_player(Z.rep(p, life=max(0, p.life - amount)))
    return Z.rep(state, attack=None)
