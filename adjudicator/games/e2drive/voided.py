"""Random results of abandoned branches (E2D-RWD-7): after a rewind, the coins and tie-breaks of the
cut events are remembered by their decision point; when the same point is reached again the old
result is offered, and another result is accepted with a warning [flag reuse_voided_random]."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import events as E
from adjudicator.games.e2drive.state import GameState, State, note
from adjudicator.engine.protocol import Context, NotEffective


def point(g: GameState, ev: E.Coin | E.TieBreak) -> str | None:
    """The decision point a coin or tie-break answers, as a key."""
    if isinstance(ev, E.Coin) and g.attack is not None:
        a = g.attack
        return f"coin {a.attacker}->{a.target} {a.step}"
    if isinstance(ev, E.TieBreak) and g.tie is not None:
        return "tie " + ",".join(g.tie.candidates)
    return None


def result_of(ev: E.Coin | E.TieBreak) -> str:
    return ev.result if isinstance(ev, E.Coin) else ev.winner


def remember(current: State, target: State, to_seq: int, ctx: Context) -> State:
    """``target`` with the random results of the events the rewind abandons."""
    if not target.options.reuse_voided_random or ctx.state_at is None:
        return target
    eff = list(ctx.effective)
    if to_seq not in eff:
        return target
    cut = eff[eff.index(to_seq) + 1:]
    events = dict(ctx.log)
    found = list(target.game.voided_random)
    prev = to_seq
    for seq in cut:
        ev = events.get(seq)
        if isinstance(ev, (E.Coin, E.TieBreak)):
            try:
                before: State = ctx.state_at(prev)
            except NotEffective:
                break
            key = point(before.game, ev)
            if key is not None:
                found.append((key, result_of(ev)))
        prev = seq
    return rep(target, game=rep(target.game, voided_random=tuple(found)))


def offered(g: GameState, key: str | None) -> str | None:
    return next((r for k, r in g.voided_random if k == key), None) if key else None


def check_reuse(g: GameState, ev: E.Coin | E.TieBreak) -> GameState:
    """Consume the remembered result of this point; a different result is logged as a warning."""
    key = point(g, ev)
    old = offered(g, key)
    if old is None:
        return g
    rest = list(g.voided_random)
    rest.remove((key, old))  # type: ignore[arg-type]
    g = rep(g, voided_random=tuple(rest))
    if old != result_of(ev):
        text = f"E2D-RWD-7 warning: the abandoned branch had {old!r} at this {key.split()[0]}; {result_of(ev)!r} entered"
        g = rep(note(g, text), warnings=g.warnings + (text,))
    return g
