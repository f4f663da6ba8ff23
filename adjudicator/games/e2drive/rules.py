"""The E2Drive transition: one handler per event type, behind the gate of E2D-ACT-41 step 1 (a
pending decision accepts only its answers; outside the main phase only turn-start and turn-end
events), followed by the state-based checks (E2D-LIM-16) after every accepted event."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import attack, flow, overdrive, servants, tools
from adjudicator.games.e2drive import events as E
from adjudicator.games.e2drive.common import reject
from adjudicator.games.e2drive.sbc import settle
from adjudicator.games.e2drive.state import GameRecord, GameState, State
from adjudicator.engine.kit import event_type
from adjudicator.engine.protocol import JUDGE, Action, Context, NotEffective

#: accepted whatever is pending, in any phase of a running game (E2D-ACT-6, E2D-TURN-9)
ALWAYS = (E.Concede, E.JudgeEffect, E.E2dRewind, E.E2dCorrect, E.VoidGame, E.VoidMatch)
OUTSIDE_MAIN = {"draw": (E.StartTurn,), "end": (E.DesignateUpkeep, E.DiscardUpkeepCard, E.EndTurn)}


def answers(state: State) -> tuple[type, ...] | None:
    """The event types that answer the pending decision; None when nothing is pending."""
    g = state.game
    out: tuple[type, ...] = ()
    if g.attack is not None:
        out += (E.Coin, E.Defense, E.Evasion)
        if state.options.quick_tools_in_attack_window and g.attack.step in ("defense", "evasion"):
            out += (E.PlayQuickTool,)
    if g.tie is not None:
        out += (E.TieBreak, E.SelectActor)
    if g.forced_revival:
        out += (E.ForcedRevival,)
    if g.upkeep:
        out += (E.DesignateUpkeep, E.DiscardUpkeepCard)
    return out or None


def pending_text(g: GameState) -> str:
    if g.attack is not None:
        return {"coin_attacker": "an invisibility coin", "coin_target": "an invisibility coin",
                "defense": f"{g.attack.target}'s DEF decision", "evasion": f"{g.attack.target}'s evasion decision"}[g.attack.step]
    if g.tie is not None:
        return "the SPD tie-break" if g.tie.winner is None else f"{g.tie.winner}'s pick of the acting servant"
    if g.forced_revival:
        return f"the forced revival of {', '.join(g.forced_revival)}"
    return f"the upkeep designation of {', '.join(g.upkeep)}"


#: the events the gate lets through whatever the game's status
UNGATED = (E.GameStarted,) + ALWAYS


def gate(state: State, ev: Action) -> None:
    if isinstance(ev, UNGATED):
        return
    g = state.game
    if g.status != "in_progress":
        reject("E2D-TURN-9", f"{_tag(ev)}: game {g.number} is {'not started' if g.status == 'setup' else g.status}", "NOT_RUNNING")
    if g.attack is None and g.tie is None and not g.forced_revival and not g.upkeep:
        pending = None  # what ``answers`` finds when nothing is pending, without building it
    else:
        pending = answers(state)
    if pending is not None:
        if not isinstance(ev, pending):
            reject("E2D-ACT-6", f"{_tag(ev)} cannot be entered while {pending_text(g)} is pending", "PENDING")
        return
    if g.phase != "main" and not isinstance(ev, OUTSIDE_MAIN.get(g.phase, ())):
        reject("E2D-TURN-9", f"{_tag(ev)} cannot be entered outside the main phase (now: {g.phase})", "PHASE")


def _tag(ev: Action) -> str:
    """The event's type as entered (its tag), for a rejection's message."""
    return type(ev).__struct_config__.tag  # type: ignore[attr-defined,no-any-return]


# -- corrections (§8) ----------------------------------------------------------------------------------
def _within(state: State, ev: Action, seq: int, ctx: Context, what: str) -> None:
    """E2D-RWD-11 and E2D-RWD-2's reach (the kit has refused anyone but the judge: ``E2Drive.rewind_rule``)."""
    if ctx.state_at is None:
        return
    try:
        target: State = ctx.state_at(seq)
    except NotEffective:
        raise
    if target.game.number != state.game.number:
        reject("E2D-RWD-11", f"seq {seq} belongs to game {target.game.number}; corrections stay inside game "
                             f"{state.game.number}", "OTHER_GAME")
    n = state.options.max_rewind_turns
    if n is not None and target.game.turn < state.game.turn - n:
        reject("E2D-RWD-2", f"seq {seq} is in turn {target.game.turn}; {what} reaches back at most {n} turn(s) "
                            f"before turn {state.game.turn}", "TOO_FAR")


def on_rewind(state: State, ev: E.E2dRewind, ctx: Context) -> State:
    _within(state, ev, ev.to_seq, ctx, "a rewind")
    return state


def on_correct(state: State, ev: E.E2dCorrect, ctx: Context) -> State:
    seq = ev.at_seq - 1 if ev.at_seq > 1 else ev.at_seq
    if ctx.effective and ev.at_seq in ctx.effective:
        i = list(ctx.effective).index(ev.at_seq)
        seq = ctx.effective[i - 1] if i > 0 else ev.at_seq
    _within(state, ev, seq, ctx, "a correction")
    return state


def on_void_game(state: State, ev: E.VoidGame, ctx: Context) -> State:
    if ev.by != JUDGE:
        reject("E2D-RWD-2", f"only the judge voids a game, not {ev.by}", "NOT_ACTOR")
    g = state.game
    if g.status not in ("in_progress", "finished") or state.voided:
        reject("E2D-RWD-10", f"game {g.number} is {g.status}: there is no game to void", "NO_GAME")
    games = state.games
    if g.status == "finished":
        games = games[:-1]
    g = rep(g, status="void", result="void", reason="void", attack=None, tie=None, forced_revival=(), upkeep=(),
            notes=(f"game {g.number} void: {ev.reason}",))
    return rep(state, game=g, games=games + (GameRecord(number=g.number, result="void", reason="void"),))


def on_void_match(state: State, ev: E.VoidMatch, ctx: Context) -> State:
    if ev.by != JUDGE:
        reject("E2D-RWD-2", f"only the judge voids the match, not {ev.by}", "NOT_ACTOR")
    if state.voided:
        reject("E2D-RWD-10", "the match is already void", "NO_GAME")
    g = state.game
    if g.status == "in_progress":
        g = rep(g, status="void", result="void", reason="void", attack=None, tie=None)
    return rep(state, voided=True, game=rep(g, notes=(f"match void: {ev.reason}",)))


#: the handlers of game events: ``handler(state, g, ev, ctx)`` gets the match state as the event
#: found it and ``g``, the game to start from (its notes cleared, but for ``OWN_NOTES``), and
#: returns the game after the event; ``settle`` writes it into the match state (one copy of the
#: match state an event)
HANDLERS = {
    E.GameStarted: flow.on_game_started,
    E.StartTurn: flow.on_start_turn,
    E.TieBreak: flow.on_tie_break,
    E.SelectActor: flow.on_select_actor,
    E.Attack: attack.on_attack,
    E.Coin: attack.on_coin,
    E.Defense: attack.on_defense,
    E.Evasion: attack.on_evasion,
    E.PlayTool: tools.on_play_tool,
    E.PlayQuickTool: tools.on_play_quick_tool,
    E.ActivateFieldTool: tools.on_activate_field_tool,
    E.UseEffect: tools.on_use_effect,
    E.Change: servants.on_change,
    E.ReviveServant: servants.on_revive,
    E.ForcedRevival: servants.on_forced_revival,
    E.Overdrive: overdrive.on_overdrive,
    E.EndAction: flow.on_end_action,
    E.DesignateUpkeep: flow.on_designate_upkeep,
    E.DiscardUpkeepCard: flow.on_discard_upkeep_card,
    E.EndTurn: flow.on_end_turn,
    E.Concede: flow.on_concede,
    E.JudgeEffect: tools.on_judge_effect,
}
#: the corrections and voids: ``handler(state, ev, ctx)`` returns the match state, and no
#: state-based check follows
MATCH_HANDLERS = {
    E.E2dRewind: on_rewind,
    E.E2dCorrect: on_correct,
    E.VoidGame: on_void_game,
    E.VoidMatch: on_void_match,
}


#: the game events whose handler writes the event's notes afresh in its first copy of the game
#: (game_started makes the game anew): their ``g`` keeps the notes of the event before, which they
#: never add to, and step clears them in no copy of its own
OWN_NOTES = (E.GameStarted, E.StartTurn, E.Attack, E.Defense, E.Evasion, E.PlayTool, E.PlayQuickTool,
             E.ActivateFieldTool, E.UseEffect, E.SelectActor, E.EndAction, E.DesignateUpkeep, E.EndTurn)

#: each E2Drive event class: (its handler, whether the gate lets it through unchecked, whether it is
#: a game event (its handler returns the game, the state-based checks follow), whether step clears
#: the notes of the event before for its handler), read in one look-up (the classes are final: none
#: derives from another)
PLAN = {cls: (handler, cls in UNGATED, cls in HANDLERS, cls not in OWN_NOTES)
        for cls, handler in {**HANDLERS, **MATCH_HANDLERS}.items()}


def step(state: State, ev: Action, ctx: Context) -> State:
    plan = PLAN.get(type(ev))
    if plan is None:
        return _step(state, ev, ctx)
    handler, ungated, settled, fresh = plan
    start = state.game
    if not ungated and not (start.status == "in_progress" and start.phase == "main" and start.attack is None
                            and start.tie is None and not start.forced_revival and not start.upkeep):
        gate(state, ev)  # else nothing is pending in a running main phase: the gate lets every event through
    if not settled:
        return handler(state, ev, ctx)
    g = rep(start, notes=()) if fresh and start.notes else start
    return settle(state, handler(state, g, ev, ctx), start if start.status == "in_progress" else None)


def _step(state: State, ev: Action, ctx: Context) -> State:
    """``step`` of an event that is not one of E2Drive's: the gate, then E2D-ACT-1."""
    gate(state, ev)
    reject("E2D-ACT-1", f"{event_type(ev)} is not an E2Drive event")
