"""State-based checks (E2D-LIM-16), damage cards (E2D-LIM-5), losses (E2D-OVR-3) and the end of a
game (E2D-RES-15, E2D-OVR-5), run after every accepted event."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, order
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.state import (
    SLOT_AT,
    GameRecord,
    GameState,
    Overdrive,
    PlayerState,
    Pool,
    State,
    has_alive,
    limited,
    note,
    player,
    players_updating,
    servant,
    slots_of,
    with_player,
    with_servant,
)
from adjudicator.games.e2drive.stats import atks_used_up

LOSS_TEXT = {
    "damage_cards": "a 4th damage card",
    "failed_draw": "a draw from an empty deck",
    "failed_placement": "a damage card with an empty deck",
    "concession": "concession",
}


def lose(g: GameState, seat: str, reason: str) -> GameState:
    p = player(g, seat)
    if p.lost is not None:
        return g
    return note(with_player(g, rep(p, lost=reason)), f"{seat} loses: {LOSS_TEXT[reason]}")


def any_lost(g: GameState) -> bool:
    p1, p2 = g.players
    return p1.lost is not None or p2.lost is not None


def draw(g: GameState, seat: str, card: str | None = None) -> GameState:
    """One card from the deck to the hand; an empty deck loses (E2D-OVR-3c)."""
    p = player(g, seat)
    if p.deck_count == 0:
        return lose(g, seat, "failed_draw")
    return with_player(g, drawn(p, card))


def drawn(p: PlayerState, card: str | None = None) -> PlayerState:
    """``p`` once one card went from its deck (not empty) to its hand; ``card``: the card, when known."""
    known = tuple(sorted(p.hand_known + (card,))) if card else p.hand_known
    return rep(p, deck_count=p.deck_count - 1, hand_count=p.hand_count + 1, hand_known=known)


def damage_card(g: GameState, seat: str, card: str = "unknown") -> GameState:
    """E2D-LIM-5: the deck's top card to the damage-card field, master +1 (off, usable at once,
    E2D-RUL-37); the 4th loses; an empty deck cannot supply one (a loss when forced)."""
    p = player(g, seat)
    if p.deck_count == 0:
        return lose(g, seat, "failed_placement")
    m = p.master
    p = rep(p, deck_count=p.deck_count - 1, damage_cards=p.damage_cards + 1, damage_card_ids=p.damage_card_ids + (card,),
            master=Pool(size=m.size + 1, on=m.on, held_upkeep=m.held_upkeep, held_lock=m.held_lock))
    g = note(with_player(g, p), f"{seat} places damage card {p.damage_cards}")
    if p.damage_cards >= 4:
        g = lose(g, seat, "damage_cards")
    return g


def forced_revivals(g: GameState) -> GameState:
    """E2D-RES-10: a player whose three servants are all destroyed revives one at once, or loses
    now with 3 damage cards or an empty deck."""
    for seat in ("P1", "P2"):
        p = player(g, seat)
        if has_alive(p) or p.lost is not None or seat in g.forced_revival:
            continue
        if p.damage_cards >= 3:
            g = lose(g, seat, "damage_cards")
        elif p.deck_count == 0:
            g = lose(g, seat, "failed_placement")
        else:
            g = note(rep(g, forced_revival=g.forced_revival + (seat,)), f"{seat} must revive a servant (forced_revival)")
    return g


def slicer_check(g: GameState) -> GameState:
    """(6) an acting servant whose allowance dropped below its ATK count ends its action."""
    if g.acting is None or g.attack is not None:
        return g
    sv = servant(g, g.acting)
    if sv.atk_count > 0 and atks_used_up(sv):
        return end_action(g, g.acting)
    return g


def drop_broken_attack(g: GameState, options: Options) -> GameState:
    """An effect destroyed the attacker or the target while the ATK waited for a decision: the ATK
    is void (E2D-ACT-5: a destroyed servant is never the target of an ATK) and closes."""
    a = g.attack
    if a is None:
        return g
    (s, i), (t, j) = SLOT_AT[a.attacker], SLOT_AT[a.target]  # ``servant`` of both, read in this frame
    players = g.players
    if not (players[s].servants[i].destroyed or players[t].servants[j].destroyed):
        return g
    from adjudicator.games.e2drive.attack import close

    return close(note(g, f"the ATK of {a.attacker} on {a.target} ends: a servant of it was destroyed"), a, options, void=True)


def end_overdrives_outside_limited(g: GameState) -> GameState:
    """(5) with overdrive_effects_survive_limited_exit = false (E2D-RUL-15): a player who left the
    limited state loses their servants' overdrive effects."""
    for seat in ("P1", "P2"):
        if limited(g, seat):
            continue
        for ref in slots_of(seat):
            sv = servant(g, ref)
            mods = tuple(m for m in sv.modifiers if m.source != "overdrive")
            if sv.od.any or mods != sv.modifiers:
                g = note(with_servant(g, ref, rep(sv, od=Overdrive(), modifiers=mods)),
                         f"{seat} is no longer limited: {ref}'s overdrive effects end")
    return g


def end_action(g: GameState, ref: str, notes: tuple[str, ...] | None = None) -> GameState:
    """``ref``'s action ends; ``notes``: the notes to add to, when not ``g.notes`` (a handler's first copy: none)."""
    return rep(g, players=players_updating(g, ref, action="acted"), acting=None if g.acting == ref else g.acting,
               notes=(g.notes if notes is None else notes) + (f"{ref}'s action ends",))


def finish(g: GameState, options: Options) -> GameState:
    """(3)-(4): the players who met a loss condition in this event lose together (E2D-RES-15); the
    game ends (``settle`` enters it in the match's record)."""
    losers = [p.seat for p in g.players if p.lost is not None]
    if not losers or g.status != "in_progress":
        return g
    if len(losers) == 2:
        result = "draw" if options.simultaneous_loss == "draw" else "both_lose"
        reason = "simultaneous"
    else:
        result = "P2" if losers[0] == "P1" else "P1"
        reason = player(g, losers[0]).lost or ""
    g = rep(g, status="finished", result=result, reason=reason, attack=None, tie=None, forced_revival=(), upkeep=())
    return note(g, "game drawn" if result == "draw" else "both players lose" if result == "both_lose" else f"{result} wins")


def recorded(state: State, g: GameState) -> State:
    """``g`` in the match state; a game this event ended is entered in the match's record."""
    if g.status == "finished":
        return rep(state, game=g, games=state.games + (GameRecord(number=g.number, result=g.result or "", reason=g.reason or ""),))
    return rep(state, game=g)


def settle(state: State, g: GameState, start: GameState | None = None) -> State:
    """Run the state-based checks to a fixed point, then the action determination when due, and
    write the game into the match state.

    ``state`` is the match state the event found, ``g`` the game its handler made. ``start`` is
    the game the step started from when it was running, settled by the step before it: the first
    destruction check reads only the servants the event changed."""
    if g.status != "in_progress":
        # a game running when the event came that is over now was ended by it (a turn limit)
        return recorded(state, g) if start is not None else state if g is state.game else rep(state, game=g)
    options = state.options
    since = start.players if start is not None else ()
    if since is g.players and start.forced_revival is g.forced_revival:  # type: ignore[union-attr]
        # no servant changed since a settled state: none is doomed, no forced revival is newly due
        p1, p2 = since
    else:  # the destruction check and the forced revivals (E2D-LIM-16 (1), (2)) to a fixed point
        for _ in range(8):
            checked = damage.destruction_check(g, options, since)
            since = ()
            p1, p2 = checked.players
            # ``has_alive`` of both, its common case (a first servant not destroyed) read without a call
            if not ((not p1.servants[0].destroyed or has_alive(p1)) and (not p2.servants[0].destroyed or has_alive(p2))):
                checked = forced_revivals(checked)
                p1, p2 = checked.players
            if checked is g:  # both return their input itself when nothing is due (a change always adds a note)
                break
            g = checked
    if p1.lost is not None or p2.lost is not None:
        return recorded(state, finish(g, options))
    if g.attack is not None:
        g = drop_broken_attack(g, options)
    if not options.overdrive_effects_survive_limited_exit:
        g = end_overdrives_outside_limited(g)
    acting = g.acting
    if acting is not None:
        if g.attack is None:  # ``slicer_check``, its common case in this frame
            s, i = SLOT_AT[acting]
            sv = g.players[s].servants[i]
            if sv.atk_count > 0 and atks_used_up(sv):
                g = end_action(g, acting)
                acting = g.acting
    tie = g.tie
    if tie is not None and not set(tie.candidates) <= set(order.top_tied(g, options)):
        g = rep(g, tie=None)  # an effect changed the candidates: the determination is made afresh (E2D-RUL-46)
        tie = None
    if acting is None and tie is None and g.phase == "main" and g.attack is None and not g.forced_revival:
        g = order.determine(g, options)
    return state if g is state.game else rep(state, game=g)


def check_turn_limit(options: Options, g: GameState) -> bool:
    return options.turn_limit is not None and g.turn >= options.turn_limit


def finish_turn_limit(g: GameState) -> GameState:
    """House rule turn_limit (E2D-RUL-52): the game is drawn when the limit's last turn ends (``settle``
    enters it in the match's record)."""
    return note(rep(g, status="finished", result="draw", reason="turn_limit"), f"turn limit {g.turn} reached: game drawn")
