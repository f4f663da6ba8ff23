"""The attack events (BD-ACT-18…24): declaration, the block decision, battle, the reveals of
player damage and the shot decision (§6.2–6.4)."""

from __future__ import annotations

from adjudicator.games.builddivide import battle as B
from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.payment import card_cost, note, pay
from adjudicator.games.builddivide.rules import in_setup, not_your_turn, onto_stack, targets
from adjudicator.games.builddivide.state import Attack, State, replace
from adjudicator.engine.kit import event_type
from adjudicator.engine.protocol import JUDGE, Context, Violation


def declare_attack(s: State, ev: E.DeclareAttack, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "declare_attack")
    g = s.game
    tp = g.turn_player or ""
    if ev.by not in (JUDGE, tp):
        raise not_your_turn(ev, tp, "BD-TURN-6", "declare an attack")
    if g.phase != "ATTACK":
        raise Violation("BD-TURN-6", f"attacks are declared in the attack phase, not the {(g.phase or '').lower()} phase", "NOT_NOW")
    if g.attack is not None or g.stack or g.damage is not None:
        raise Violation("BD-LIM-5", "one attack at a time, with the resolution zone empty: "
                                    f"{'an attack is in progress' if g.attack else 'the resolution zone is not empty'}", "NOT_NOW")
    found = Z.find_unit(s, ev.attacker, "$.attacker", tp)
    if found is None:
        raise Violation("BD-LIM-5", f"{ev.attacker!r} is not a unit on {tp}'s field", "NO_ATTACKER")
    unit = found[1]
    if not unit.standing:
        raise Violation("BD-LIM-5", f"{ev.attacker} is rested: only a standing unit attacks", "RESTED")
    if Z.has_status(unit, "CANNOT_ATTACK"):
        raise Violation("BD-LIM-5", f"{ev.attacker} cannot attack (CANNOT_ATTACK)", "CANNOT_ATTACK")
    opp = Z.opponent(s, tp)
    target_iid = 0
    if ev.target != opp:
        tgt = Z.find_unit(s, ev.target, "$.target", opp)
        if tgt is None:
            raise Violation("BD-LIM-5", f"the target {ev.target!r} is neither {opp} nor a unit on {opp}'s field", "BAD_TARGET")
        if tgt[1].standing:
            raise Violation("BD-LIM-5", f"{ev.target} stands: only a rested unit of {opp} may be attacked", "BAD_TARGET")
        target_iid = tgt[1].iid
    p = found[0]
    p = replace(p, field=Z.swap(p.field, unit, replace(unit, standing=False)))
    return replace(s, game=replace(g, players=Z.seated(g.players, p), attack=Attack(
        attacker=ev.attacker, original_target=ev.target, current_target=ev.target, attacker_iid=unit.iid, target_iid=target_iid)), seq=ctx.seq)


def _block_turn(s: State, ev: E.Action, rule: str) -> str:
    if s.game.status == "SETUP":
        raise in_setup(s, event_type(ev))
    a = s.game.attack
    tp = s.game.turn_player or ""
    ntp = Z.opponent(s, tp)
    if ev.by not in (JUDGE, ntp):
        raise Violation(rule, f"{ev.by} cannot decide the block: {ntp} is the defender", "NOT_DEFENDER")
    if a is None or a.step != "BLOCK":
        if a is not None and a.block_used and isinstance(ev, E.DeclareBlock):
            raise Violation("BD-LIM-4", f"{a.attacker}'s attack is already blocked by {a.current_target}: one block per attack", "BLOCK_USED")
        raise Violation(rule, "no block decision is pending: " + ("no attack is in progress" if a is None else "it was made"), "NOT_NOW")
    if s.game.stack:
        raise Violation(rule, f"the resolution zone holds {len(s.game.stack)} item(s): they resolve before the block decision", "NOT_NOW")
    return ntp


def after_block(s: State) -> State:
    """Step 3: a unit target goes to battle (resolve_battle); a player target takes the damage."""
    a = s.game.attack
    if a is None:
        return s
    if a.current_target in s.names:
        s = Z.set_game(s, attack=replace(a, step="DAMAGE"))
        found = Z.by_iid(s, a.attacker_iid)
        amount = max(0, Z.hit(s, found[1])) if found else 0
        return B.start_damage(s, a.current_target, a.attacker, amount, attack=True, source_iid=a.attacker_iid)
    return Z.set_game(s, attack=replace(a, step="BATTLE"))


def declare_block(s: State, ev: E.DeclareBlock, ctx: Context) -> State:
    ntp = _block_turn(s, ev, "BD-ACT-19")
    found = Z.find_unit(s, ev.blocker, "$.blocker", ntp)
    if found is None:
        raise Violation("BD-LIM-4", f"{ev.blocker!r} is not a unit on {ntp}'s field", "NO_BLOCKER")
    p, unit = found
    if not unit.standing:
        raise Violation("BD-LIM-4", f"{ev.blocker} is rested: only a standing unit blocks", "RESTED")
    if Z.has_status(unit, "CANNOT_BLOCK"):
        raise Violation("BD-LIM-4", f"{ev.blocker} cannot block (CANNOT_BLOCK)", "CANNOT_BLOCK")
    p = replace(p, field=Z.swap(p.field, unit, replace(unit, standing=False)))
    g = s.game
    return after_block(replace(s, game=replace(g, players=Z.seated(g.players, p), attack=replace(
        g.attack, current_target=ev.blocker, target_iid=unit.iid, block_used=True))))


def no_block(s: State, ev: E.NoBlock, ctx: Context) -> State:
    _block_turn(s, ev, "BD-ACT-20")
    return after_block(s)


def resolve_battle(s: State, ev: E.ResolveBattle, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "resolve_battle")
    if ev.by not in (JUDGE, s.game.turn_player or ""):
        raise not_your_turn(ev, s.game.turn_player or "", "BD-ACT-21", "resolve the battle")
    a = s.game.attack
    if a is None or a.step != "BATTLE":
        raise Violation("BD-ACT-21", "no battle is waiting: " + ("no attack is in progress" if a is None else f"the attack is at its {a.step.lower()} step"), "NOT_NOW")
    if s.game.stack:
        raise Violation("BD-ACT-21", f"the resolution zone holds {len(s.game.stack)} item(s): resolve them first", "NOT_NOW")
    return B.battle(s)


def life_check(s: State, ev: E.LifeCheck, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "life_check")
    d = s.game.damage
    if d is None or d.waiting != "REVEAL" or s.game.stack:
        raise Violation("BD-ACT-22", "no trigger check is awaited now" + (f" (damage to {d.victim}: {d.waiting.lower()} awaited)" if d else ""), "NOT_NOW")
    if ev.victim != d.victim or ev.by not in (JUDGE, d.victim):
        raise Violation("BD-ACT-22", f"the trigger check is {d.victim}'s (entered by {d.victim} or a judge), not {ev.victim}'s by {ev.by}", "NOT_VICTIM")
    c = s.catalog.get(ev.card_name) if ev.card_name else None
    if ev.icons is None and c is None:
        import difflib  # here, not at the top: only a card the catalog lacks needs it

        near = difflib.get_close_matches(ev.card_name or "", list(s.catalog), n=1)
        raise Violation("BD-ACT-22", f"{ev.card_name!r} is not in the catalog" + (f"; did you mean {near[0]!r}?" if near else "")
                        + " (a card the catalog lacks is entered by its icons instead, BD-RUL-40)", "UNKNOWN_CARD")
    icons = tuple(ev.icons) if ev.icons is not None else c.icons
    name = ev.card_name or "(" + "+".join(icons or ("no icon",)) + " card)"
    shot = "SHOT" in icons and s.options.shot_mode == "PLAY_WITH_COST" and c is not None
    p = Z.player(s, d.victim)
    # the top life card leaves; a shot waits for its decision, any other card goes to the graveyard
    graveyard = p.graveyard if shot else p.graveyard + (name,)
    if ev.card_name:
        unseen, revealed = Z.disclosed(s, p, ev.card_name, "life zone")
        p = replace(p, life=p.life[:-1], graveyard=graveyard, unseen=unseen, revealed=revealed)
    else:
        p = replace(p, life=p.life[:-1], graveyard=graveyard)
    bonus = d.bonus + s.options.buster_extra_damage if "BUSTER" in icons else d.bonus
    g = s.game
    if shot:
        return replace(s, game=replace(g, players=Z.seated(g.players, p), damage=replace(d, dealt=d.dealt + 1, bonus=bonus, waiting="SHOT", shot_card=name)))
    new = replace(s, game=replace(g, players=Z.seated(g.players, p), damage=replace(d, dealt=d.dealt + 1, bonus=bonus)))
    return B.proceed(Z.state_checks(new, s))


def _shot(s: State, ev: E.Action, rule: str) -> tuple[str, str]:
    if s.game.status == "SETUP":
        raise in_setup(s, event_type(ev))
    d = s.game.damage
    if d is None or d.waiting != "SHOT" or d.shot_card is None:
        raise Violation(rule, "no revealed shot card waits for a decision", "NOT_NOW")
    if ev.by not in (JUDGE, d.victim):
        raise Violation(rule, f"the shot decision is {d.victim}'s", "NOT_VICTIM")
    return d.victim, d.shot_card


def shot_play(s: State, ev: E.ShotPlay, ctx: Context) -> State:
    victim, name = _shot(s, ev, "BD-ACT-23")
    c = s.catalog[name]
    cost = card_cost(c)
    p = pay(s, Z.player(s, victim), ev.payment, cost, f"the shot {name}")
    return onto_stack(s, p, card=name, targets=targets(s, ev.targets, "$.targets"), from_shot=True,
                      last_payment=note(victim, f"the shot {name}", ev.payment, cost),
                      damage=replace(s.game.damage, waiting="STACK", shot_card=None))


def shot_decline(s: State, ev: E.ShotDecline, ctx: Context) -> State:
    victim, name = _shot(s, ev, "BD-ACT-24")
    p = Z.player(s, victim)
    new = Z.put(s, replace(p, graveyard=p.graveyard + (name,)), damage=replace(s.game.damage, waiting="REVEAL", shot_card=None))
    return B.proceed(Z.state_checks(new, s))
