"""Setup and flow (E2D-SETUP-1, E2D-TURN-*, E2D-ACT-11…14, -34…38): game start, turns, the acting
order's tie-break and pick, end of action, upkeep and turn end, concession."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import ether, ops, order, sbc
from adjudicator.games.e2drive import voided as reuse
from adjudicator.games.e2drive.attack import able_to_attack
from adjudicator.games.e2drive.common import owner, reject, require_judge, require_sender, restricted, seat_of_name
from adjudicator.games.e2drive.events import (
    Concede,
    DesignateUpkeep,
    DiscardUpkeepCard,
    EndAction,
    EndTurn,
    GameStarted,
    SelectActor,
    StartTurn,
    TieBreak,
)
from adjudicator.games.e2drive.state import (
    POOL_AT,
    SLOT_OF,
    SLOTS_OF,
    new_servant,
    SEATS,
    GameState,
    PlayerState,
    Pool,
    Servant,
    State,
    Statuses,
    note,
    parse_slot,
    pool,
    servant,
    slots_of,
)


def match_decided(state: State) -> bool:
    n = state.options.games_per_match
    if state.voided:
        return True
    wins = {s: sum(1 for r in state.games if r.result == s) for s in SEATS}
    if max(wins.values()) >= (n + 1) // 2:
        return True
    used = sum(1 for r in state.games if r.result != "void")
    return used >= n


def on_game_started(state: State, g: GameState, ev: GameStarted, ctx) -> GameState:
    require_judge(ev, "E2D-ACT-11", "game_started")
    if g.status == "in_progress":
        reject("E2D-ACT-11", f"game {g.number} is still running; a new game starts only after it ends", "GAME_RUNNING")
    if g.status != "setup" and match_decided(state):
        reject("E2D-ACT-11", "the match already has its result; no further game is played", "MATCH_OVER")
    draws = {seat_of_name(state, k, f"$.draws.{k}"): v for k, v in (ev.draws or {}).items()}
    number = g.number + (0 if g.status == "setup" else 1)
    inst = 1
    players = []
    for seat in SEATS:
        deck, servants = state.registrations[seat]
        svs = []
        for card_id in servants:
            sv = new_servant(state, card_id, inst)
            inst += 1
            if state.catalog.servants[card_id].starts_invisible:  # E2D-SETUP-1 step 4, E2D-LIM-15
                sv = rep(sv, status=Statuses(invisible=True), pool=Pool(size=3, on=1, held_invisible=1))
            svs.append(sv)
        hand = tuple(sorted(draws.get(seat, ())))
        if len(hand) not in (0, 5):
            from adjudicator.engine.protocol import Malformed

            raise Malformed(f"an opening hand is 5 cards, not {len(hand)}", f"$.draws.{seat}")
        players.append(PlayerState(seat=seat, name=state.names[SEATS.index(seat)], deck_count=25, hand_count=5,
                                   hand_known=hand, servants=tuple(svs)))
    return GameState(number=number, status="in_progress", phase="draw", players=tuple(players), next_instance=inst,
                     start_seq=ctx.seq, notes=(f"game {number} starts: servants face-up, 5 cards each",))


def on_start_turn(state: State, g: GameState, ev: StartTurn, ctx) -> GameState:
    require_judge(ev, "E2D-ACT-12", "start_turn")
    if g.phase != "draw":
        reject("E2D-ACT-12", f"turn {g.turn} has not ended (phase {g.phase})", "TURN_RUNNING")
    draws = {seat_of_name(state, k, f"$.draws.{k}"): v for k, v in (ev.draws or {}).items()}
    said = (f"turn {g.turn + 1}: both players draw",)
    p1, p2 = g.players
    if p1.deck_count and p2.deck_count:  # both draw (``sbc.draw``) in the turn's one copy of the game state
        return rep(g, turn=g.turn + 1, phase="main", notes=said,
                   players=(sbc.drawn(p1, draws.get("P1")), sbc.drawn(p2, draws.get("P2"))))
    g = rep(g, turn=g.turn + 1, phase="main", notes=said)
    for seat in SEATS:
        g = sbc.draw(g, seat, draws.get(seat))
    return g


def on_tie_break(state: State, g: GameState, ev: TieBreak, ctx) -> GameState:
    require_judge(ev, "E2D-ACT-13", "tie_break")
    if g.tie is None or g.tie.winner is not None:
        reject("E2D-ACT-13", "no SPD tie between the players is waiting for a coin", "NOT_WAITING")
    seat = seat_of_name(state, ev.winner, "$.winner")
    mine = [r for r in g.tie.candidates if owner(r) == seat]
    g = reuse.check_reuse(g, ev)
    g = note(g, f"tie-break ({ev.method}): {seat} goes")
    if len(mine) == 1:
        return order.become_acting(g, mine[0])
    return rep(g, tie=rep(g.tie, candidates=tuple(mine), winner=seat))


def on_select_actor(state: State, g: GameState, ev: SelectActor, ctx) -> GameState:
    parse_slot(ev.servant, "$.servant")
    tie = g.tie
    if tie is None or tie.winner is None:
        reject("E2D-TURN-4", "no pick among tied servants is pending", "NOT_WAITING")
    require_sender(state, ev, tie.winner, "E2D-TURN-4", "the pick among the tied servants")
    if ev.servant not in tie.candidates:
        reject("E2D-TURN-4", f"{ev.servant} is not one of the tied servants {', '.join(tie.candidates)}", "NOT_CANDIDATE")
    return order.become_acting(g, ev.servant, ())  # ``g``'s notes are the event before's (``rules.OWN_NOTES``)


def compelled(g: GameState, ref: str, options) -> bool:
    """E2D-LIM-13: an active Blocker overdrive of the opponent and the servant is able to ATK."""
    opp = g.players[1 if (SLOT_OF.get(ref) or parse_slot(ref))[0] == "P1" else 0]  # the opponent of ``owner(ref)``
    for sv in opp.servants:
        if sv.od.blocker > 0 and not sv.destroyed:
            return able_to_attack(g, ref, options)
    return False


def on_end_action(state: State, g: GameState, ev: EndAction, ctx) -> GameState:
    seat = (SLOT_OF.get(ev.servant) or parse_slot(ev.servant, "$.servant"))[0]
    require_sender(state, ev, seat, "E2D-ACT-34", f"the end of {ev.servant}'s action")
    if g.acting != ev.servant:
        reject("E2D-ACT-34", f"{ev.servant} is not acting ({g.acting or 'none is'})", "NOT_ACTING")
    if compelled(g, ev.servant, state.options):
        reject("E2D-LIM-13", f"a Blocker overdrive compels {ev.servant} to ATK while it is able to", "COMPELLED")
    if g.restrictions and restricted(g, ev.servant, "end_action"):
        reject("E2D-ACT-34", f"an effect forbids {ev.servant} to end its action", "RESTRICTED")
    return sbc.end_action(g, ev.servant, ())  # ``g``'s notes are the event before's (``rules.OWN_NOTES``)


def designatable(g: GameState, seat: str) -> list[str]:
    return [r for r in slots_of(seat) if not servant(g, r).destroyed] + [f"{seat}.M"]


def capacity(g: GameState, seat: str) -> int:
    return sum(pool(g, r).size - pool(g, r).held_lock - pool(g, r).held_invisible for r in designatable(g, seat))


def unheld_on(g: GameState, ref: str) -> int:
    pl = pool(g, ref)
    return pl.on - pl.held


def on_designate_upkeep(state: State, g: GameState, ev: DesignateUpkeep, ctx) -> GameState:
    seat = seat_of_name(state, ev.player)
    require_sender(state, ev, seat, "E2D-ACT-35", f"{seat}'s upkeep designation", judge_ok=True)
    if seat not in g.upkeep:
        reject("E2D-ACT-35", f"no upkeep designation of {seat} is pending", "NOT_WAITING")
    due = order.upkeep_due(g, seat)
    units = ether.totals(ev.units, "$.units")
    if sum(units.values()) != due:
        reject("E2D-ACT-35", f"exactly {due} unit(s) of upkeep are due from {seat}, not {sum(units.values())}", "UPKEEP")
    # the pools ``seat`` may designate (``designatable``), each read once for the checks and the writes below
    k = 0 if seat == "P1" else 1
    p = g.players[k]
    pools = {r: sv.pool for r, sv in zip(SLOTS_OF[seat], p.servants) if not sv.destroyed}
    pools[f"{seat}.M"] = p.master
    for ref, n in units.items():
        pl = pools.get(ref)
        if pl is None:
            reject("E2D-ACT-35", f"{ref} is not a pool {seat} may designate ({', '.join(pools)})", "UPKEEP")
        if n > pl.size - pl.held_lock - pl.held_invisible:
            reject("E2D-ACT-35", f"{ref} has only {pl.size - pl.held_lock - pl.held_invisible} unheld unit(s)", "UPKEEP")
    # the unheld on units of each pool (``unheld_on``)
    unheld = {r: pl.on - pl.held_upkeep - pl.held_lock - pl.held_invisible for r, pl in pools.items()}
    total_on = sum(unheld.values())
    if total_on >= due:
        for ref, n in units.items():
            if n > unheld[ref]:
                reject("E2D-ACT-35", f"{total_on} unheld on unit(s) exist, so only on units may be designated; "
                                     f"{ref} has {unheld[ref]} on", "UPKEEP")
    else:
        short = [r for r in pools if units.get(r, 0) < unheld[r]]
        if short:
            reject("E2D-ACT-35", f"every unheld on unit must be designated first ({short[0]} has {unheld[short[0]]})",
                   "UPKEEP")
    # the designated pools (all ``seat``'s), the note and the decision made: one copy of the game state,
    # its notes afresh (``g``'s are the event before's: ``rules.OWN_NOTES``)
    master, svs = p.master, list(p.servants)
    for ref, n in units.items():
        pl = pools[ref]
        pl = rep(pl, held_upkeep=n, on=max(pl.on, pl.held_lock + pl.held_invisible + n))
        i = POOL_AT[ref][1]  # one of ``pools``
        if i is None:
            master = pl
        else:
            svs[i] = rep(svs[i], pool=pl)
    players = g.players
    if units:
        p = rep(p, master=master, servants=tuple(svs))
        players = (p, players[1]) if k == 0 else (players[0], p)
    return rep(g, players=players, notes=(f"{seat} designates {due} upkeep unit(s)",),
               upkeep=tuple(s for s in g.upkeep if s != seat), upkeep_done=g.upkeep_done + (seat,))


def on_discard_upkeep_card(state: State, g: GameState, ev: DiscardUpkeepCard, ctx) -> GameState:
    seat = seat_of_name(state, ev.player)
    require_sender(state, ev, seat, "E2D-ACT-36", f"{seat}'s upkeep discard", judge_ok=True)
    if seat not in g.upkeep:
        reject("E2D-ACT-36", f"no upkeep decision of {seat} is pending", "NOT_WAITING")
    due, cap = order.upkeep_due(g, seat), capacity(g, seat)
    if due <= cap:
        reject("E2D-ACT-36", f"{seat}'s upkeep {due} fits the {cap} unit(s) they can designate; no card may be discarded",
               "UPKEEP")
    g, found = ops.take_in_play(g, ev.card, seat)
    if not found:
        reject("E2D-ACT-36", f"{seat} has no tool card {ev.card!r} in play", "NO_CARD")
    g = note(g, f"{seat} discards {ev.card} (upkeep)")
    if order.upkeep_due(g, seat) == 0:
        g = rep(g, upkeep=tuple(s for s in g.upkeep if s != seat))
    return g


def on_end_turn(state: State, g: GameState, ev: EndTurn, ctx) -> GameState:
    require_judge(ev, "E2D-ACT-37", "end_turn")
    if g.phase != "end":
        reject("E2D-ACT-37", "the main phase is not over: servants are still to act", "MAIN_PHASE")
    # the notes afresh: ``g``'s are the event before's (``rules.OWN_NOTES``)
    g = turn_end_sweep(g, phase="draw", upkeep_done=(), notes=(f"turn {g.turn} ends: ether reset, every servant unacted",))
    if state.options.turn_limit is not None and g.turn >= state.options.turn_limit:
        return sbc.finish_turn_limit(g)
    return g


def turn_end_sweep(g: GameState, **more: object) -> GameState:
    """E2D-TURN-8 in one copy of each servant: the end-of-turn modifiers, restrictions and cost
    changes expire, every ether unit goes off except the held ones, every servant is unacted.
    ``more``: other fields of the game state changed in the same copy (the phase, the note)."""
    def sweep(sv: Servant) -> Servant:
        mods = sv.modifiers
        if mods and any(m.duration == "end_of_turn" for m in mods):
            mods = tuple(m for m in mods if m.duration != "end_of_turn")
        pl = sv.pool
        held = pl.held_upkeep + pl.held_lock + pl.held_invisible  # ``Pool.held``, read without a property call
        return rep(sv, modifiers=mods, pool=pl if pl.on == held else rep(pl, on=held),
                   action="unacted", atk_count=0, atk_paid=False, pool_atks=0)

    def all_off(p: PlayerState) -> PlayerState:
        m = p.master
        held = m.held_upkeep + m.held_lock + m.held_invisible  # ``Pool.held``
        return rep(p, master=m if m.on == held else rep(m, on=held), servants=tuple(map(sweep, p.servants)))

    return rep(g, players=tuple(map(all_off, g.players)),
               restrictions=tuple(r for r in g.restrictions if r.duration != "end_of_turn"),
               costs=tuple(c for c in g.costs if c.duration != "end_of_turn"), **more)


def on_concede(state: State, g: GameState, ev: Concede, ctx) -> GameState:
    seat = seat_of_name(state, ev.player)
    require_sender(state, ev, seat, "E2D-ACT-38", f"{seat}'s concession", judge_ok=True)
    if g.status != "in_progress":
        reject("E2D-ACT-38", f"no game is running (game {g.number} is {g.status})", "NOT_RUNNING")
    return sbc.lose(g, seat, "concession")


