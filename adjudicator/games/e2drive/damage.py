"""Damage (E2D-RES-3…9): ATK − DEF in units of 10D, the mutual 10D rule, evasion, the Buster and
Blocker adjustments, destruction when damage exceeds DUR, and the until-targeted expiry."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import ether
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.state import (
    ALL_SLOTS,
    AttackSeq,
    GameState,
    PlayerState,
    Overdrive,
    Pool,
    Servant,
    Statuses,
    note,
    parse_slot,
    player,
    servant,
    with_player,
    with_servant,
)
from adjudicator.games.e2drive.stats import stat


def calculate(g: GameState, a: AttackSeq, options: Options) -> tuple[int, int, list[str]]:
    """(damage to target, damage to attacker, the reasoning) at step 6 (E2D-RES-3, -4, -7)."""
    att, tgt = servant(g, a.attacker), servant(g, a.target)
    atk, df = stat(att, "ATK", options), stat(tgt, "DEF", options)
    why: list[str] = []
    if a.defended:
        diff = atk - df
        if diff > 0:
            dt, da = diff, 0
            why.append(f"DEF: ATK {atk} − DEF {df} = {diff} → target {diff}D")
        else:
            dt, da = 10, 10
            why.append(f"DEF: ATK {atk} − DEF {df} = {diff} ≤ 0 → both take 10D (E2D-RES-3)")
    else:
        dt, da = max(0, atk), 0
        why.append(f"no DEF: target takes ATK {atk} → {dt}D (E2D-RES-4)")
    if tgt.od.blocker > 0 and (a.defended or not options.blocker_reflect_requires_def) and df > atk:
        if options.blocker_reflect_mode == "add":
            da += df - atk
        else:
            da = df - atk
        why.append(f"Blocker reflection ({options.blocker_reflect_mode}): DEF {df} − ATK {atk} = {df - atk} → attacker {da}D")
    return dt, da, why


def buster_adjust(g: GameState, a: AttackSeq, dt: int, da: int, options: Options) -> tuple[int, int, str | None]:
    """E2D-RES-6: a defended or evaded ATK of a Buster with bonus B > 0."""
    b = servant(g, a.attacker).od.buster
    if b <= 0 or not (a.defended or a.evaded):
        return dt, da, None
    mode = options.buster_overdrive_mode
    if mode == "floor":
        return max(dt, b), da, f"Buster floor: target max({dt}, {b}) = {max(dt, b)}D"
    if mode == "add":
        return dt + b, da, f"Buster add: target {dt} + {b} = {dt + b}D"
    return dt, da + b, f"Buster recoil: attacker {da} + {b} = {da + b}D"


def add_damage(g: GameState, ref: str, n: int) -> GameState:
    if n == 0:  # damage is never below 0: the servant stays as it is
        return g
    sv = servant(g, ref)
    return with_servant(g, ref, rep(sv, damage=max(0, sv.damage + n)))


def to_trash(g: GameState, owner: str, card: str) -> GameState:
    p = player(g, owner)
    return with_player(g, rep(p, trash=p.trash + (card,)))


def strip(g: GameState, ref: str, options: Options) -> GameState:
    """What leaves with a servant instance (destruction or change): equipment to each card's owner's
    trash (E2D-RUL-20), its bound effects, its Etherizer locks (E2D-RUL-11), the locks on its pool."""
    sv = servant(g, ref)
    if not sv.equipment and not g.locks:  # nothing leaves with it: the servant stays as it is
        return g
    for t in sv.equipment:
        g = to_trash(g, t.owner, t.card)
    if options.etherizer_lock_release_on_leave:
        g = ether.release_locks_of(g, sv.instance)
    g = ether.drop_locks_on(g, ref)
    return with_servant(g, ref, rep(servant(g, ref), equipment=()))


#: a destroyed servant's statuses and overdrive effects: none (E2D-RES-9)
_NO_STATUS = Statuses()
_NO_OVERDRIVE = Overdrive()


def destroy(g: GameState, ref: str, options: Options) -> GameState:
    """E2D-RES-9: in one step, ether off and holds cleared, statuses end (face-up), equipment to
    the owners' trash, bound effects end, an acting servant's action ends; slot and damage stay.
    The servant, the acting servant and the note are written in one copy of the game state."""
    g = strip(g, ref, options)
    sv = servant(g, ref)
    was_acting = sv.action == "acting"
    sv = rep(sv, destroyed=True, pool=Pool(size=sv.pool.size), status=_NO_STATUS, modifiers=(), od=_NO_OVERDRIVE,
             action="acted" if was_acting else sv.action)  # the pool: ``ether.off_pool``
    return with_servant(g, ref, sv, acting=None if was_acting or g.acting == ref else g.acting,
                        notes=g.notes + (f"{ref} ({sv.name}) destroyed: {sv.damage}D > DUR",))


#: the servants of a field before anything was checked: none of them is a servant of a checked state
_UNCHECKED = (None, None, None)


def destruction_check(g: GameState, options: Options, since: tuple[PlayerState, ...] = ()) -> GameState:
    """Every servant whose damage exceeds its current DUR is destroyed, all at once.

    ``since``: the players of a state already checked (the state an event started from). Whether
    a servant is doomed depends on the servant alone, so a servant that is the very object of that
    state (or a field that is its very tuple) is not doomed, and is not read again."""
    k = 0
    for p in g.players:
        svs = p.servants
        old = since[k].servants if since else _UNCHECKED  # three servants a field (E2D-DECK-9)
        if old is not svs:
            for sv, was in zip(svs, old):
                # ``doomed``; its ``_dur`` read in this frame for a servant with no modifier
                if sv is not was and not sv.destroyed and sv.damage > (
                        stat(sv, "DUR", options) if sv.modifiers else
                        sv.printed.DUR - 10 if sv.status.heat else sv.printed.DUR):
                    return _destroy_doomed(g, options)  # seldom: every doomed servant, in slot order
        k += 1
    return g


def doomed(sv: Servant, options: Options) -> bool:
    """Whether the destruction check destroys this servant: not destroyed, damage over its DUR."""
    return not sv.destroyed and sv.damage > _dur(sv, options)


def _dur(sv: Servant, options: Options) -> int:
    """The current DUR: without modifiers, the printed one, 10 less in heat (E2D-RES-14)."""
    if sv.modifiers:
        return stat(sv, "DUR", options)
    return sv.printed.DUR - 10 if sv.status.heat else sv.printed.DUR


def _destroy_doomed(g: GameState, options: Options) -> GameState:
    """Every servant of both fields whose damage exceeds its current DUR, destroyed all at once."""
    refs = [r for r, sv in zip(ALL_SLOTS, g.players[0].servants + g.players[1].servants) if doomed(sv, options)]
    for r in refs:
        g = destroy(g, r, options)
    return g


def end_until_targeted(g: GameState, refs: list[str], options: Options, by_seat: str | None = None) -> GameState:
    """E2D-RES-11: the *until targeted* effects of each targeted servant end (after the action's
    resolution); an Etherizer's locks are released when it is next targeted (E2D-ACT-31)."""
    if not refs:
        return g
    own_exempt = by_seat is not None and not options.until_targeted_counts_own_actions
    for ref in (refs if len(refs) == 1 else dict.fromkeys(refs)):  # each servant once, in order
        if own_exempt and parse_slot(ref)[0] == by_seat:
            continue
        sv = servant(g, ref)
        if sv.destroyed:
            continue
        mods = sv.modifiers
        ended = sv.od.any or bool(mods) and any(m.duration == "until_targeted" for m in mods)
        if ended:  # else the servant stays as it is
            g = with_servant(g, ref, rep(sv, od=Overdrive(),
                                         modifiers=tuple(m for m in sv.modifiers if m.duration != "until_targeted")))
        if g.locks and any(lk.by_instance == sv.instance for lk in g.locks):
            g = ether.release_locks_of(g, sv.instance)
            ended = True
        if ended:
            g = note(g, f"{ref}'s until-targeted effects end")
    return g
