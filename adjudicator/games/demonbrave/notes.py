"""What an event set off on its own, in the table's words (``Game.notes``, printed after ``adj
act``): the battle's result, a chain entry resolved, the phase and turn that follow, expiries at the
END advance, pairs that dissolved, lives that changed, a game that ended with an attack or a chain
still open (DB-RUL-25). Computed once per event from the states before and after it; not part of
the game: ``view`` does not show them, and no rule reads them."""

from __future__ import annotations

from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import ActivateEffect, Draw, ResolveBattle, ResolveChainEntry
from adjudicator.games.demonbrave.ranking import battle, is_reversed
from adjudicator.games.demonbrave.state import State
from adjudicator.engine.protocol import Action


def _battle(before: State, event: ResolveBattle) -> list[str]:
    a = before.attack
    if a is None:  # never: resolve_battle is accepted only with an attack in progress
        return []
    out = battle(before, a, event.choice, strict=False)
    return [f"battle: {a.attacker_player}'s {a.attacker} → {a.target}: {out.summary} [{out.rule}]"]


#: what ``_chain`` says of a few ops entered, written once (most resolutions enter none)
_AS_ENTERED = tuple(f"{n} op(s) as entered" for n in range(8))


def _chain(before: State, after: State, event: ResolveChainEntry) -> list[str]:
    top = before.chain[-1]
    if top.negated:
        how = "negated: no ops"
    elif event.ops is None:
        how = "the catalog's ops"
    else:
        n = len(event.ops)
        how = _AS_ENTERED[n] if n < len(_AS_ENTERED) else f"{n} op(s) as entered"

    out = [f"{top.entry_id} resolved ({top.effect_id} by {top.controller}; {how})"]
    if after.status == "IN_PROGRESS":
        out.append(f"chain: {after.chain[-1].entry_id} is next; no activation until the chain is empty" if after.chain
                   else "chain empty: play goes on")
    return out


def _phase(before: State, after: State) -> list[str]:
    if after.status != "IN_PROGRESS" or (before.turn_number, before.phase) == (after.turn_number, after.phase):
        return []
    out: list[str] = []
    if before.status == "SETUP":
        return [f"play starts: turn 1, {after.turn_player}'s MAIN phase (no draw on turn 1)"]
    if after.turn_number != before.turn_number:
        if len(after.reversals) < len(before.reversals):
            out.append(f"reversal expired: order {'reversed' if is_reversed(after) else 'normal'} again")
        if after.idle_turns:
            out.append(f"an idle turn with both decks empty: {after.idle_turns} of {after.config.stalemate_idle_turns} (DB-LIM-12)")
        p = after.player(after.turn_player or "")
        n = Z.available_draw(after, p, Z.required_draw(after, p))
        out.append(f"turn {after.turn_number}: {p.name}'s DRAW phase; {p.name} draws {n}")
    elif before.phase == "MAIN" and after.phase == "END" and before.turn_number == 1:
        out.append("MAIN → END: no BATTLE on turn 1 (DB-TURN-3)")
    elif before.phase == "BATTLE":
        out.append("BATTLE → END: leaving BATTLE, no more attacks this turn")
    else:
        out.append(f"{before.phase} → {after.phase}")
    return out


def _zones(before: State, after: State) -> list[str]:
    out: list[str] = []
    if before.players is after.players:
        return out
    for b, a in zip(before.players, after.players):
        if b is a:
            continue
        for u in b.field if b.field is not a.field else ():
            if u.is_pair and a.unit(u.unit_id) is None:
                left = [c for c in u.cards if a.unit(c) is not None and not a.unit(c).is_pair]  # type: ignore[union-attr]
                if left:
                    out.append(f"{b.name}'s {u.unit_id} dissolves: {left[0]} is a single (DB-RES-31)")
        if a.life != b.life:
            out.append(f"{a.name}'s life {b.life} → {a.life}")
    return out


def notes_of(before: State, after: State, event: Action) -> tuple[str, ...]:
    kind = type(event)
    if kind is ResolveChainEntry:
        out = _chain(before, after, event)  # type: ignore[arg-type]
    elif kind is ResolveBattle:
        out = _battle(before, event)  # type: ignore[arg-type]
    else:
        out = []
        if kind is Draw:
            p, q = before.player(after.turn_player or ""), after.player(after.turn_player or "")
            if p.trash and not q.trash:
                out.append(f"{p.name}'s deck ran out: the trash ({len(p.trash)}) was shuffled into a new deck (DB-LIM-13)")
    if before.players is not after.players:
        (b0, b1), (a0, a1) = before.players, after.players  # unpacked once: four comparisons below
        if b0.field is not a0.field or b1.field is not a1.field or b0.life != a0.life or b1.life != a1.life:
            out += _zones(before, after)  # a field or a life changed (an activation changes neither: only its effect uses)
    if before.phase != after.phase or before.turn_number != after.turn_number:
        out += _phase(before, after)
    ended = ("FINISHED", "VOID")
    if after.status in ended and before.status not in ended:
        attack = before.attack is not None and kind is not ResolveBattle
        chain = len(before.chain) > (1 if kind is ResolveChainEntry else 0) or kind is ActivateEffect
        if attack or chain:
            what = " and ".join(w for w, left in (("the open chain", chain), ("the attack in progress", attack)) if left)
            out.append(f"the game is over: {what} {'are' if attack and chain else 'is'} discarded (DB-RUL-25)")
    return tuple(out) if out else ()
