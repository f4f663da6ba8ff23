"""Attacks, checks and bad statuses (rules/pbwcg.md §6, PBW-LIM-13, PBW-HID-4/5): one attack
resolved target by target, each step in the order of PBW-RES-5."""

from __future__ import annotations

from typing import Any, NamedTuple, NoReturn

import msgspec

from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.events import Check, Checks
from adjudicator.games.pbwcg.state import BS, Character, Obligation, State, add_history, note, with_char, with_player
from adjudicator.engine.protocol import JUDGE, Violation

EXEMPT_SOURCES = {"ability_self", "set_card", "field"}


def reject(rule: str, message: str, code: str = "ILLEGAL") -> NoReturn:
    raise Violation(rule, message, code)


class Env(NamedTuple):
    """Who carries out ops and at which seq: the entering author, the activating player."""

    seq: int
    by: str
    player: str | None = None


class Attack(NamedTuple):
    """One attack: PBW-RES-4's effect value and attribute, and what it carries."""

    attacker: Character | None
    value: int
    attribute: str | None
    kind: str  # normal | ability | magic | effect
    evasion_tag: bool = False
    bs: str | None = None
    break_ops: tuple = ()
    single_target: bool = True


# -- checks ---------------------------------------------------------------------------------------
def rollers(s: State, declarer: str) -> tuple[str, ...]:
    """PBW-HID-5: the judge rolls when present, else the opponent; under local rule D any player
    in the battle other than the declarer (PBW-RUL-47)."""
    if s.options.judge_present:
        return (JUDGE,)
    return tuple(p for p in s.in_battle() if p != declarer)


def check_result(s: State, check: Check, subject: Character, env: Env, what: str) -> bool:
    """PBW-HID-4 (a complete check) and PBW-HID-5 (the controller declares, the opponent rolls,
    the judge rolls when present), unless the judge entered it with ``override_roles``."""
    if (check.declared is None or check.die is None) and not (check.method == "other" and check.success is not None):
        reject("PBW-HID-4", f"{what}: a check gives declared odd|even and die 1-6, or method other with success")
    if not (check.override_roles and env.by == JUDGE):
        controller = subject.controller
        if check.declarer != controller:
            reject("PBW-HID-5", f"{what}: {controller} declares checks of {subject.card}, not {check.declarer}", "CHECK_ROLES")
        allowed = rollers(s, controller)
        if check.roller not in allowed:
            reject("PBW-HID-5", f"{what}: the check on {subject.card} is rolled by {' or '.join(allowed)}, not {check.roller}", "CHECK_ROLES")
    return V.check_succeeds(check.declared, check.die, check.success)


def add_obligation(s: State, kind: str, character: str, bs: str | None, seq: int, status: str = "open") -> State:
    ob = Obligation(
        id=f"OB-{seq}-{kind}-{character}" + (f"-{bs}" if bs else ""), kind=kind, character=character, bs=bs,  # type: ignore[arg-type]
        created_seq=seq, closed_seq=seq if status == "missed" else None, status=status,  # type: ignore[arg-type]
    )
    return msgspec.structs.replace(s, obligations=s.obligations + (ob,))


# -- bad statuses (PBW-LIM-13) ----------------------------------------------------------------------
def apply_bs(s: State, target: str, bs: str, source: str) -> tuple[State, bool]:
    """Apply ``bs`` to ``target`` under PBW-LIM-13: (state, applied?)."""
    c = s.char(target)
    if c is None or c.endurance <= 0:
        return s, False
    held = [b.name for b in c.bs]
    exempt = source in EXEMPT_SOURCES or (source == "ability_other" and s.options.ability_bs_exemption == "all_ability")
    if bs in held:
        return note(s, f"{bs} on {target} nullified: already held (PBW-LIM-13)"), False
    if len(held) >= 3:
        return note(s, f"{bs} on {target} nullified: 3 bad statuses held (PBW-LIM-13)"), False
    if not exempt and bs in s.history_of(target):
        return note(s, f"{bs} on {target} nullified: received earlier in this battle (PBW-LIM-13)"), False
    s = with_char(s, target, bs=c.bs + (BS(name=bs, applied_turn=s.turn, source=source),))
    s = add_history(s, target, bs)
    return note(s, f"{target} receives {bs}"), True


# -- attacks ------------------------------------------------------------------------------------------
#: the checks of a target none were entered for (a frozen Struct: shared)
_NO_CHECKS = Checks()


def resolve_attack(s: State, atk: Attack, targets: tuple[str, ...], checks: dict[str, Checks], env: Env, run_ops: Any) -> State:
    """PBW-RES-5: every target in turn; the state-based checks follow the whole event."""
    if not targets:
        reject("PBW-ACT-19", "an attack names at least one target")
    for t in targets:
        if s.find(t) is not None:
            s = _attack_player(s, atk, t, env)
        else:
            s = _attack_character(s, atk, t, checks.get(t), env, run_ops)
    extra = set(checks) - set(targets) if checks else None
    if extra:
        reject("PBW-RES-6", f"checks are given for {sorted(extra)}, which the attack does not target")
    return s


def _attack_player(s: State, atk: Attack, player: str, env: Env) -> State:
    """PBW-RES-9: only a normal attack, the player's HP > 0, no PC on their field; trunc(E / 2)."""
    if atk.kind != "normal":
        reject("PBW-RES-9", f"only a normal attack may target player {player}; this {atk.kind} attack may not")
    if atk.attacker is not None and atk.attacker.controller == player:
        reject("PBW-RES-9", f"{atk.attacker.card} cannot attack its own player {player}")
    if player in s.out:
        reject("PBW-RUL-47", f"{player} is out of the battle: no attack reaches them", "OUT")
    if s.player(player).hp <= 0:
        reject("PBW-RES-9", f"{player}'s HP is {s.player(player).hp}: an attack on the player needs HP left")
    pcs = s.field(player, "PC")
    if pcs:
        reject("PBW-RES-9", f"{player} still has PC {pcs[0].card} on the field: the player cannot be attacked")
    d = V.trunc_div(atk.value, 2)
    s = with_player(s, player, hp=s.player(player).hp - d)
    return note(s, f"attack on player {player}: trunc({atk.value} / 2) = {d} HP damage")


def _attack_character(s: State, atk: Attack, t: str, checks: Checks | None, env: Env, run_ops: Any) -> State:
    target = s.char(t)
    if target is None:
        reject("PBW-ACT-19", f"{t} is neither a character on a field nor a player")
    if atk.attacker is not None and target.controller == atk.attacker.controller and atk.kind == "normal":
        reject("PBW-ACT-19", f"{atk.attacker.card} cannot make a normal attack on its own side's {t}")
    if target.kind == "SUPPORT" and atk.single_target:
        reject("PBW-LIM-11", f"summon support {t} is never the target of a single-target attack")
    checks = checks or _NO_CHECKS
    # 1. evasion (PBW-RES-6)
    n = 0 if atk.kind == "magic" else int(atk.evasion_tag) + V.evasion_bonus(target)
    if len(checks.evasion) > n:
        reject("PBW-RES-6", f"{len(checks.evasion)} evasion check(s) entered against {t}; {n} may be made")
    evaded = False
    for i, ch in enumerate(checks.evasion):
        evaded = check_result(s, ch, target, env, f"evasion check {i + 1} of {t}") or evaded
    if evaded:
        return note(s, f"{t} evades the attack")
    if len(checks.evasion) < n:
        s = add_obligation(s, "EVA", t, None, env.seq, "missed")
    # 2-3. HP damage
    tattr = V.main_attr(s, target)
    defence = V.defence_value(s, target)
    d = max(0, atk.value - defence)
    if target.kind == "PC" or s.options.support_hits_reduce_pl_hp:
        p = s.player(target.controller)
        s = with_player(s, p.name, hp=p.hp - d)
    # 4. endurance damage
    e = V.endurance_damage(s, d, atk.attribute, tattr)
    endurance = max(0, target.endurance - e)
    if endurance != target.endurance:  # else the target stays as it is
        s = with_char(s, t, endurance=endurance)
    s = note(s, f"{t}: E {atk.value} - DV {defence} = {d} HP damage; endurance -{e}")
    # 5. bad status (PBW-RES-8, PBW-RUL-32)
    own = atk.attacker is not None and atk.attacker.card == t  # a BS from the target's own action: no check
    receipt = bool(atk.bs) and not own and V.superior(s, tattr, atk.attribute)
    if checks.receipt is not None and not receipt:
        reject("PBW-RES-8", f"no receipt check is made for {t}: it is made only when the attack's attribute is inferior")
    if atk.bs and s.char(t).endurance > 0:  # type: ignore[union-attr]
        if receipt:
            if checks.receipt is None:
                s = add_obligation(s, "RCPT", t, atk.bs, env.seq, "missed")
            elif check_result(s, checks.receipt, target, env, f"receipt check of {t}"):
                return note(s, f"{t} avoids {atk.bs} (receipt check)")
        source = "attack"
        if atk.kind == "ability" and atk.attacker is not None:
            source = "ability_self" if atk.attacker.card == t else "ability_other"
        elif atk.kind == "magic":
            source = "set_card"
        s, applied = apply_bs(s, t, atk.bs, source)
        if applied and atk.break_ops:
            s = run_ops(s, atk.break_ops, env)
    return s
