"""Attacks (§6.2), battle (§6.3) and the player-damage procedure with its trigger checks (§6.4)."""

from __future__ import annotations

from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.state import DamageProc, State, Unit, replace
from adjudicator.engine.protocol import Violation


def battle(s: State) -> State:
    """BD-RES-10: attacker and current target deal max(0, power) to each other at once; then the
    state check destroys every unit whose damage reached its power; the attack ends."""
    a = s.game.attack
    if a is None:
        return s
    att, tgt = Z.by_iid(s, a.attacker_iid), Z.by_iid(s, a.target_iid)
    if att is None or tgt is None:
        return Z.set_game(s, attack=None)
    (ap, au), (tp, tu) = att, tgt
    dealt_by_attacker, dealt_by_target = max(0, Z.power(s, au)), max(0, Z.power(s, tu))
    ap = replace(ap, field=Z.swap(ap.field, au, replace(au, damage=au.damage + dealt_by_target)))
    if tp.name == ap.name:
        tp = ap
    tp = replace(tp, field=Z.swap(tp.field, tu, replace(tu, damage=tu.damage + dealt_by_attacker)))
    g = s.game
    return Z.state_checks(replace(s, game=replace(g, players=Z.seated(Z.seated(g.players, ap), tp), attack=None)))


def start_damage(s: State, victim: str, source: str, amount: int, attack: bool, source_iid: int = 0) -> State:
    """Open a player-damage procedure and run it to its first wait (BD-RES-12)."""
    return proceed(Z.set_game(s, damage=DamageProc(victim=victim, source=source, attack=attack, amount=amount, source_iid=source_iid)))


def total(s: State, d: DamageProc, attacker: Unit | None = None) -> int:
    """The points this damage deals: the attacker's hit now (BD-RUL-5; ``attacker``: the attacking
    unit when the caller has found it) or the amount fixed at the start, and the buster bonus."""
    if d.attack and s.options.recompute_hit_each_point:
        if attacker is None:
            found = Z.by_iid(s, d.source_iid)
            attacker = found[1] if found else None
        base = max(0, Z.hit(s, attacker)) if attacker is not None else 0
    else:
        base = d.amount
    return base + d.bonus


def proceed(s: State) -> State:
    """Steps 1-3 of BD-RES-12 before a point: stop when the attacker is gone or every point is
    dealt; a victim with no life card loses; otherwise wait for the reveal (``life_check``)."""
    d = s.game.damage
    if d is None:
        return s
    attacker = None
    if d.attack:
        found = Z.by_iid(s, d.source_iid)
        if found is None:
            return finish(s)
        attacker = found[1]
    if d.dealt >= total(s, d, attacker):
        return finish(s)
    victim = Z.player(s, d.victim)
    if not victim.life:
        return Z.end_game(s, Z.opponent(s, d.victim), "zero_life_damage",
                          f"{d.victim} takes a point of damage with no life card left (point {d.dealt + 1})")
    if d.waiting == "REVEAL" and d.shot_card is None:
        return s  # already waiting for the reveal
    return Z.set_game(s, damage=replace(d, waiting="REVEAL", shot_card=None))


def finish(s: State) -> State:
    """The damage ends: an attack ends with it; a further queued effect damage starts."""
    d = s.game.damage
    s = Z.set_game(s, damage=None)
    if d is not None and d.attack:
        s = Z.set_game(s, attack=None)
    if s.game.pending_damage:
        (victim, n), rest = s.game.pending_damage[0], s.game.pending_damage[1:]
        s = Z.set_game(s, pending_damage=rest)
        return effect_damage(s, victim, n)
    return s


def effect_damage(s: State, victim: str, n: int, names: tuple[str, ...] = ()) -> State:
    """Damage to a player from an effect (BD-EFF-11, BD-RUL-7). Without trigger checks the top
    life cards go to the graveyard, named by ``names`` in the order they go (each checked against
    the unseen pool, BD-HID-5) or else unrevealed."""
    if s.options.effect_damage_trigger_checks:
        return start_damage(s, victim, "effect", n, attack=False)
    for i in range(n):
        p = Z.player(s, victim)
        if not p.life:
            return Z.end_game(s, Z.opponent(s, victim), "zero_life_damage",
                              f"{victim} takes a point of damage with no life card left (point {i + 1})")
        name = p.life[-1]
        p = replace(p, life=p.life[:-1])
        if i < len(names) and name is None:
            name = names[i]
            p = Z.reveal(s, p, name, "life zone")
        elif i < len(names) and names[i] != name:
            raise Violation("BD-HID-5", f"the top life card of {victim} is known to be {name!r}, not {names[i]!r}", "UNKNOWN_IDENTITY")
        s = Z.put(s, replace(p, graveyard=p.graveyard + (name or "(unrevealed life card)",)))
    return s
