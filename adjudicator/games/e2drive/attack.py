"""The attack sequence (E2D-RES-2): declare, invisibility coins, commit the payment, DEF, the
calculation, evasion, the Buster adjustment, damage, close. Each handler returns the state before
the state-based checks, which ``rules.step`` runs after every event."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, ether
from adjudicator.games.e2drive import voided as reuse
from adjudicator.games.e2drive.common import owner, reject, require_judge, require_sender, restricted
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.events import Attack, Coin, Defense, Evasion
from adjudicator.games.e2drive.state import (
    AttackSeq,
    GameState,
    State,
    note,
    other,
    parse_slot,
    player,
    servant,
    slot_at,
    slots_of,
    with_servant,
)
from adjudicator.games.e2drive.stats import atks_used_up


def atk_cost(g: GameState, ref: str) -> int:
    return 0 if servant(g, ref).atk_paid else 1


def legal_targets(g: GameState, attacker: str, options: Options) -> list[str]:
    seat = owner(attacker)
    sides = slots_of(other(seat)) + (slots_of(seat) if options.atk_may_target_own else [])
    return [r for r in sides if r != attacker and not servant(g, r).destroyed]


def able_to_attack(g: GameState, ref: str, options: Options) -> bool:
    """E2D-LIM-13: not frozen nor forbidden, an ATK still allowed, a legal target, the cost payable."""
    sv = servant(g, ref)
    if sv.status.freeze or g.restrictions and restricted(g, ref, "attack") or atks_used_up(sv):
        return False
    if not legal_targets(g, ref, options):
        return False
    return ether.payable(g, ether.acting_pools(owner(ref), ref)) >= atk_cost(g, ref)


def on_attack(state: State, g: GameState, ev: Attack, ctx) -> GameState:
    options = state.options
    seat, ai = parse_slot(ev.attacker, "$.attacker")
    tseat, ti = parse_slot(ev.target, "$.target")
    require_sender(state, ev, seat, "E2D-ACT-15", f"an attack by {ev.attacker}")
    att = player(g, seat).servants[ai]
    if g.acting != ev.attacker:
        if att.action == "acted":
            reject("E2D-LIM-2", f"{ev.attacker} ({att.name}) has already acted this turn; no ATK remains", "NO_ATK")
        reject("E2D-ACT-15", f"{ev.attacker} ({att.name}) is not the acting servant ({g.acting or 'none'})", "NOT_ACTING")
    if att.status.freeze:
        reject("E2D-LIM-14", f"{ev.attacker} ({att.name}) is frozen and cannot ATK", "FROZEN")
    if g.restrictions and restricted(g, ev.attacker, "attack"):
        reject("E2D-ACT-15", f"an effect forbids {ev.attacker} to ATK", "RESTRICTED")
    if atks_used_up(att):
        reject("E2D-LIM-2", f"{ev.attacker} has made its ATK(s) in this action", "NO_ATK")
    tgt = player(g, tseat).servants[ti]
    if tgt.destroyed:
        reject("E2D-ACT-5", f"{ev.target} ({tgt.name}) is destroyed and cannot be targeted", "DESTROYED")
    if ev.target == ev.attacker or (tseat == seat and not state.options.atk_may_target_own):
        reject("E2D-ACT-15", f"{ev.attacker} may ATK only a servant of the opponent, not {ev.target}", "BAD_TARGET")
    cost = 0 if att.atk_paid else 1  # atk_cost
    units = ether.check_payment(g, ev.payment, [cost], ether.acting_pools(seat, ev.attacker), f"this ATK of {ev.attacker}")
    a = AttackSeq(attacker=ev.attacker, target=ev.target, target_was_unacted=tgt.action == "unacted",
                  payment=ev.payment, step="coin_attacker")
    # ``g``'s notes are the event before's (``rules.OWN_NOTES``): the declaration's start afresh
    return advance(g, a, options, (f"{ev.attacker} ATKs {ev.target}",), units)


def advance(g: GameState, a: AttackSeq, options: Options, notes: tuple[str, ...] | None = None,
            units: dict[str, int] | None = None) -> GameState:
    """Run the sequence from ``a.step`` until it waits for a decision or closes; ``notes``: the
    game's notes, written in the sequence's first copy of the game state, when not ``g.notes``
    (a declaration's: its own); ``units``: the units of ``a.payment`` when the caller has read them."""
    more = {"notes": notes} if notes is not None else {}
    step = a.step
    if step == "coin_attacker":
        if servant(g, a.attacker).status.invisible:
            return rep(g, attack=a, **more)
        step = "coin_target"
    if step == "coin_target":
        if servant(g, a.target).status.invisible:
            return rep(g, attack=a if a.step == step else rep(a, step=step), **more)
        a = rep(a, committed=True, step="defense")
        # step 4: commit; the ATK in that same copy of the game state (read by nothing before it
        # closes or waits, and written again when it goes on)
        g = ether.pay(g, ether.totals(a.payment) if units is None else units, attack=a, **more)
        more = {}
        if a.target_was_unacted and can_defend(g, a, options):
            return g
        if not a.target_was_unacted:
            dt, da, why = damage.calculate(g, a, options)
            a = rep(a, step="evasion", dmg_target=dt, dmg_attacker=da, why=tuple(why))
            if can_evade(g, a, options):
                return rep(g, attack=a, notes=g.notes + (f"calculated: {a.target} {dt}D, {a.attacker} {da}D; evasion?",))
    if more:  # a sequence past its payment: the note before the rest
        g = rep(g, **more)
    return resolve(g, a, options)


def defend_pools(seat: str, ref: str, options: Options) -> list[str]:
    return [ref] + ([f"{seat}.M"] if options.def_evade_may_use_master else [])


def evasion_cost(g: GameState, ref: str) -> int:
    return 2 if servant(g, ref).status.wait else 1


def can_defend(g: GameState, a: AttackSeq, options: Options) -> bool:
    tgt = servant(g, a.target)
    if tgt.status.freeze or g.restrictions and restricted(g, a.target, "defense"):
        return False
    return ether.payable(g, defend_pools(owner(a.target), a.target, options)) >= 1


def can_evade(g: GameState, a: AttackSeq, options: Options) -> bool:
    tgt = servant(g, a.target)
    if tgt.status.freeze or g.restrictions and restricted(g, a.target, "evasion"):
        return False
    return ether.payable(g, defend_pools(owner(a.target), a.target, options)) >= (2 if tgt.status.wait else 1)


def resolve(g: GameState, a: AttackSeq, options: Options, notes: tuple[str, ...] | None = None) -> GameState:
    """Steps 6, 8, 9 and 10; ``notes``: the game's notes before the damage's (written in the
    damage's copy of the game state), when not ``g.notes`` (a declined DEF or evasion: its own)."""
    if a.step != "evasion":  # else calculated when the evasion decision was asked for
        dt, da, _ = damage.calculate(g, a, options)  # ``a`` closes below: its reasoning is not kept
    else:
        dt, da = a.dmg_target, a.dmg_attacker
    if a.evaded:
        dt = 10
    dt, da, extra = damage.buster_adjust(g, a, dt, da, options)
    before = g.players
    # ``add_damage`` to the target, then to the attacker, and the note: one copy of the game state
    players = list(before)
    hit = False  # whether a servant that took damage is now doomed
    for ref, n in ((a.target, dt), (a.attacker, da)):
        if n:  # damage is never below 0: a servant taking 0 stays as it is
            s, i = slot_at(ref)
            p = players[s]
            svs = p.servants
            sv = rep(svs[i], damage=max(0, svs[i].damage + n))
            players[s] = rep(p, servants=svs[:i] + (sv,) + svs[i + 1:])
            hit = hit or damage.doomed(sv, options)
    if notes is None:
        notes = g.notes
    g = rep(g, players=tuple(players),
            notes=notes + (f"{a.target} takes {dt}D, {a.attacker} takes {da}D" + (f" ({extra})" if extra else ""),))
    # only the two servants' damage changed since ``before``, a state the checks left with none doomed:
    # the destruction check destroys something only when one of them is doomed
    if hit:
        g = damage.destruction_check(g, options, before)
    return close(g, a, options)


def close(g: GameState, a: AttackSeq, options: Options, void: bool = False) -> GameState:
    """Step 10: the target's until-targeted effects end; the ATK counts (a void one too)."""
    # the until-targeted effects end (they read no ``attack``); the ATK closes in the copy below
    g = damage.end_until_targeted(g, [a.target], options, owner(a.attacker))
    s, i = slot_at(a.attacker)
    players = g.players
    p = players[s]
    svs = p.servants
    att = svs[i]
    consumed = a.committed and bool(a.payment)
    od, taken = att.od, att.pool_atks
    count = att.atk_count + 1
    if options.slicer_extra_scope == "pool" and count >= 2 and od.slicer_extra > 0:
        od, taken = rep(od, slicer_extra=od.slicer_extra - 1), taken + 1  # an ATK beyond the first: X - 1 for good
    att = rep(att, atk_count=count, atk_paid=att.atk_paid or consumed, od=od, pool_atks=taken)
    ends = not att.destroyed and g.acting == a.attacker and atks_used_up(att)
    # the attacker, the closed ATK and the notes: one copy of the game state
    p = rep(p, servants=svs[:i] + (rep(att, action="acted") if ends else att,) + svs[i + 1:])
    notes = g.notes
    if void:
        notes += ("the ATK is void (tails)",)
    if ends:
        notes += (f"{a.attacker}'s action ends with its ATK",)
    return rep(g, players=(p, players[1]) if s == 0 else (players[0], p), attack=None, notes=notes,
               acting=None if ends else g.acting)


def on_coin(state: State, g: GameState, ev: Coin, ctx) -> GameState:
    options = state.options
    require_judge(ev, "E2D-ACT-16", "a coin")
    a = g.attack
    if a is None or a.step not in ("coin_attacker", "coin_target"):
        reject("E2D-ACT-16", "no invisibility coin is awaited", "NOT_WAITING")
    ref = a.attacker if a.step == "coin_attacker" else a.target
    g = reuse.check_reuse(g, ev)
    if ev.result == "tails":
        return close(note(g, f"coin for {ref}: tails"), a, options, void=True)
    sv = servant(g, ref)
    pl = sv.pool
    g = with_servant(g, ref, rep(sv, status=rep(sv.status, invisible=False),
                                 pool=rep(pl, held_invisible=0)))
    g = note(g, f"coin for {ref}: heads; {ref} is face-up, its held unit released but on (E2D-RUL-25)")
    # after either coin the sequence goes on from the target's coin; the target is checked again
    return advance(g, rep(a, step="coin_target"), options)


def on_defense(state: State, g: GameState, ev: Defense, ctx) -> GameState:
    options = state.options
    a = g.attack
    if a is None:
        reject("E2D-ACT-17", "no ATK waits for a DEF decision", "NOT_WAITING")
    seat = owner(a.target)
    require_sender(state, ev, seat, "E2D-ACT-17", f"the DEF of {a.target}")
    if a.step != "defense":
        reject("E2D-ACT-17", f"{a.target} was acted when the ATK was declared: it cannot DEF (evasion is its answer)",
               "NO_DEF")
    if not ev.defend:
        if ev.payment:
            reject("E2D-ACT-2", "no DEF costs nothing; leave the payment empty", "PAYMENT")
        return resolve(g, a, options, (f"{a.target} does not DEF",))  # ``g``'s notes: the event before's
    tgt = servant(g, a.target)
    if tgt.status.freeze:
        reject("E2D-LIM-14", f"{a.target} ({tgt.name}) is frozen and cannot DEF", "FROZEN")
    if g.restrictions and restricted(g, a.target, "defense"):
        reject("E2D-ACT-17", f"an effect forbids {a.target} to DEF", "RESTRICTED")
    units = ether.check_payment(g, ev.payment, [1], defend_pools(seat, a.target, options), f"the DEF of {a.target}")
    # the note in the payment's copy; ``g``'s notes are the event before's (``rules.OWN_NOTES``)
    g = ether.pay(g, units, notes=(f"{a.target} DEFs",))
    return resolve(g, rep(a, defended=True), options)


def on_evasion(state: State, g: GameState, ev: Evasion, ctx) -> GameState:
    options = state.options
    a = g.attack
    if a is None or a.step != "evasion":
        reject("E2D-ACT-18", "no ATK waits for an evasion decision", "NOT_WAITING")
    seat = owner(a.target)
    require_sender(state, ev, seat, "E2D-ACT-18", f"the evasion of {a.target}")
    if not ev.evade:
        if ev.payment:
            reject("E2D-ACT-2", "no evasion costs nothing; leave the payment empty", "PAYMENT")
        return resolve(g, a, options, (f"{a.target} does not evade",))  # ``g``'s notes: the event before's
    tgt = servant(g, a.target)
    if tgt.status.freeze:
        reject("E2D-LIM-14", f"{a.target} ({tgt.name}) is frozen and cannot evade", "FROZEN")
    if g.restrictions and restricted(g, a.target, "evasion"):
        reject("E2D-ACT-18", f"an effect forbids {a.target} to evade", "RESTRICTED")
    cost = evasion_cost(g, a.target)
    units = ether.check_payment(g, ev.payment, [cost], defend_pools(seat, a.target, options),
                                f"the evasion of {a.target}" + (" (wait: 2e)" if cost == 2 else ""))
    # the note in the payment's copy; ``g``'s notes are the event before's (``rules.OWN_NOTES``)
    g = ether.pay(g, units, notes=(f"{a.target} evades: 10D",))
    return resolve(g, rep(a, evaded=True), options)
