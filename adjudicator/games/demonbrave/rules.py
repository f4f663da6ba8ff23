"""The DemonBrave transitions: one handler per event type, dispatched by type.

A handler checks its event, raising ``Violation(rule_id, message, code)`` with the chapter's rule
ID and error code (§5.4) in the order the chapter writes the preconditions, then returns the new
state. ``step`` runs what every event shares first (DB-ACT-18 before anything, then the setup
order of play events) and, after the handler, the automatic consequences (DB-RES-50, DB-LIM-11).

The handlers of the turn flow (§4, §5.3) are here; setup, battle, the chain and the judge's events
have a module each (``setup``, ``battle``, ``chain``, ``judge``).
"""

from __future__ import annotations

from bisect import bisect_left

from collections.abc import Callable
from typing import Any

from adjudicator.engine.kit import event_type
from adjudicator.games.demonbrave import battle as B
from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import chain as CH
from adjudicator.games.demonbrave import judge as J
from adjudicator.games.demonbrave import setup as S
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import (
    PLAY_EVENTS,
    SETUP_EVENTS,
    ActivateEffect,
    AdvancePhase,
    Concede,
    DbCorrect,
    DbRewind,
    DeckRegistered,
    DeclareAttack,
    DeclareBlock,
    DeclareResult,
    DecksShuffled,
    Draw,
    FirstPlayerDecided,
    FormPair,
    GameStarted,
    JudgeAdjust,
    Mulligan,
    OpeningHandsDrawn,
    PlayCard,
    ResolveBattle,
    ResolveChainEntry,
    RuleCardsSelected,
    VoidGame,
)
from adjudicator.games.demonbrave.guards import actor, illegal, need_chain_empty, need_phase, need_turn_player
from adjudicator.games.demonbrave.notes import notes_of
from adjudicator.games.demonbrave.state import GameRecord, Player, Result, State
from adjudicator.engine.protocol import Action, Context, Violation

Handler = Callable[[State, Any, Context], State]


# -- the draw (DB-ACT-8, DB-TURN-4, DB-LIM-13) ----------------------------------------------------
def _check_draw_count(state: State, ev: Draw, who: str, p: Player) -> None:
    r = Z.required_draw(state, p)
    n = Z.available_draw(state, p, r)
    if ev.count == n:
        return
    if n < r:
        where = "deck and trash" if state.config.deck_exhaustion == "reshuffle_trash" else "deck"
        raise Violation("DB-LIM-13", f"{who} must draw {n}, not {ev.count}: hand {p.hand_count} calls for {r} but the {where} holds only {n}", "BAD_DRAW_COUNT")
    refill = state.config.refill_target
    rule = "draw up to " + str(refill) if r > 1 or p.hand_count < refill else "draw 1"
    raise Violation("DB-TURN-4", f"{who} must draw {r}, not {ev.count}: hand {p.hand_count} → {rule}", "BAD_DRAW_COUNT")


def check_drawn_identities(state: State, ev: Action, p: Player, cards: tuple[str, ...]) -> None:
    reshuffle = state.config.deck_exhaustion == "reshuffle_trash"
    seen: set[str] = set()
    for c in cards:
        if not C.is_card(c):
            raise illegal(ev, C.describe_bad(c), "CARD_NOT_IN_HAND")
        if c in seen:
            raise illegal(ev, f"{c} is listed twice", "CARD_NOT_IN_HAND")
        seen.add(c)
        if p.unit_of(c) is not None:
            raise illegal(ev, f"{p.name} cannot draw {c}: it is on {p.name}'s field", "CARD_NOT_IN_HAND")
        if c in p.trash and not reshuffle:
            raise illegal(ev, f"{p.name} cannot draw {c}: it is in {p.name}'s trash", "CARD_NOT_IN_HAND")
        if c in p.hand_known:
            raise illegal(ev, f"{p.name} cannot draw {c}: it is already known in {p.name}'s hand", "CARD_NOT_IN_HAND")


def on_draw(state: State, ev: Draw, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "draw now")
    need_phase(state, ev, "DRAW", f"{who}'s draw of {ev.count}", "the turn player draws")
    if state.draw_done:
        raise illegal(ev, f"{who} has already drawn this turn")
    p = state.player(who)
    _check_draw_count(state, ev, who, p)
    cards = ev.cards
    if cards is None:
        if state.config.draw_identities_required and ev.count > 0:
            raise illegal(ev, f"the {ev.count} drawn cards must be listed (draw_identities_required)", "CARD_IDENTITY_REQUIRED")
    else:
        if state.config.draw_identities_required and len(cards) != ev.count:
            raise illegal(ev, f"{len(cards)} cards listed for a draw of {ev.count}", "CARD_IDENTITY_REQUIRED")
        if len(cards) > ev.count:
            raise illegal(ev, f"{len(cards)} cards listed for a draw of {ev.count}")
        check_drawn_identities(state, ev, p, cards)
    state = Z.draw_cards(state, who, Z.required_draw(state, p), cards)
    return Z.rep(state, draw_done=True)


# -- phases and turns (DB-ACT-9, DB-TURN-7, DB-TURN-8) ------------------------------------------
def on_advance_phase(state: State, ev: AdvancePhase, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "advance the phase")
    need_chain_empty(state, "advance the phase")
    if state.attack is not None:
        raise Violation("DB-RES-11", f"cannot advance the phase while {state.attack.attacker}'s attack on {state.attack.target} is in progress; resolve it first", "ATTACK_PENDING")
    if state.phase == "DRAW" and not state.draw_done:
        raise Violation("DB-TURN-4", f"{who} must draw before leaving the DRAW phase", "DRAW_NOT_DONE")
    if state.phase == "DRAW":
        return Z.rep(state, phase="MAIN")
    if state.phase == "MAIN":
        return Z.rep(state, phase="END" if state.turn_number == 1 else "BATTLE")
    if state.phase == "BATTLE":
        return Z.rep(state, phase="END")
    return end_turn(state, ctx.seq)


def _lasting(expires: int | None, turn: int) -> bool:
    return expires is None or expires > turn


def end_turn(state: State, seq: int) -> State:
    """DB-TURN-7 (2): expiries, flags, the stalemate counter, then the other player's DRAW."""
    t = state.turn_number
    players = tuple(Z.rep(p, field=tuple(Z.rep(u, attacked=False, blocks=0) for u in p.field)) for p in state.players)
    state = Z.rep(
        state,
        players=players,
        reversals=tuple(r for r in state.reversals if _lasting(r.expires_turn, t)),
        modifiers=tuple(m for m in state.modifiers if _lasting(m.expires_turn, t)),
        statuses=tuple(s for s in state.statuses if _lasting(s.expires_turn, t)),
    )
    decks_empty = all(p.deck_count == 0 for p in state.players)
    idle = state.idle_turns + 1 if decks_empty and not state.turn_progress else 0
    state = Z.rep(state, idle_turns=idle)
    limit = state.config.stalemate_idle_turns
    if limit and idle >= limit:
        return Z.rep(state, status="FINISHED", result=Result(outcome="DRAW", reason="STALEMATE"))
    return Z.rep(
        state,
        turn_number=t + 1,
        turn_player=state.opponent(state.turn_player or state.names[0]),
        phase="DRAW",
        draw_done=False,
        turn_progress=False,
        chain_resolving=False,
        turn_start_seq=seq,
    )


# -- the main phase (DB-ACT-10, DB-ACT-11) --------------------------------------------------------
def on_play_card(state: State, ev: PlayCard, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, f"play {ev.card}")
    need_phase(state, ev, "MAIN", f"{who}'s play_card {ev.card}", "cards are played")
    need_chain_empty(state, f"play {ev.card}")
    p = state.player(who)
    if p.hand_count < 1:
        raise illegal(ev, f"{who} has no card in hand to play {ev.card}", "CARD_NOT_IN_HAND")
    card = ev.card
    if not C.is_card(card):
        raise illegal(ev, C.describe_bad(card), "CARD_NOT_IN_HAND")
    holder = p.unit_of(card)
    if holder is not None:
        where = "as a single" if holder.unit_id == card else f"in {holder.unit_id}"
        raise illegal(ev, f"{who}'s {card} is already on the field {where}", "CARD_NOT_IN_HAND")
    if card in p.trash:
        raise illegal(ev, f"{who}'s {card} is in the trash, not in hand", "CARD_NOT_IN_HAND")
    if not Z.possible_in_hand(p, card):
        known = ", ".join(p.hand_known)
        raise illegal(ev, f"{card} cannot be in {who}'s hand: every card in it is known ({known})", "CARD_NOT_IN_HAND")
    return state.with_player(Z.add_single(Z.hand_remove(p, card), card))


def on_form_pair(state: State, ev: FormPair, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "form a pair")
    need_phase(state, ev, "MAIN", f"{who}'s form_pair [{', '.join(ev.units)}]", "pairs are formed")
    need_chain_empty(state, "form a pair")
    problem = Z.pair_problem(state, who, ev.units)
    if problem is not None:
        code, message = problem
        raise illegal(ev, f"{who}'s form_pair [{', '.join(ev.units)}]: {message}", code)
    return Z.with_pair(state, who, ev.units)


def on_concede(state: State, ev: Concede, ctx: Context) -> State:
    who = actor(state, ev, None)
    return Z.rep(state, status="FINISHED", result=Result(outcome="WIN", winner=state.opponent(who), reason="CONCESSION"))


# -- dispatch -----------------------------------------------------------------------------------
HANDLERS: dict[type, Handler] = {
    GameStarted: S.on_game_started,
    DeckRegistered: S.on_deck_registered,
    RuleCardsSelected: S.on_rule_cards_selected,
    FirstPlayerDecided: S.on_first_player_decided,
    DecksShuffled: S.on_decks_shuffled,
    OpeningHandsDrawn: S.on_opening_hands_drawn,
    Mulligan: S.on_mulligan,
    Draw: on_draw,
    AdvancePhase: on_advance_phase,
    PlayCard: on_play_card,
    FormPair: on_form_pair,
    ActivateEffect: CH.on_activate_effect,
    ResolveChainEntry: CH.on_resolve_chain_entry,
    DeclareAttack: B.on_declare_attack,
    DeclareBlock: B.on_declare_block,
    ResolveBattle: B.on_resolve_battle,
    Concede: on_concede,
    JudgeAdjust: J.on_judge_adjust,
    DeclareResult: J.on_declare_result,
    VoidGame: J.on_void_game,
    DbRewind: J.on_rewind,
    DbCorrect: J.on_correct,
}


#: the event types DB-ACT-18 refuses once the game is over (a new game's ``game_started`` is not one)
_REFUSED_WHEN_OVER = frozenset(SETUP_EVENTS + PLAY_EVENTS) - {GameStarted}
#: the event types that wait for the setup to close (DB-SETUP-1)
_PLAY = frozenset(PLAY_EVENTS)


def _gates(state: State, event: Action) -> None:
    """What comes before every handler: DB-ACT-18 first, then play events wait for the setup.
    Neither refuses anything while the game is in progress."""
    kind = type(event)
    if state.status in ("FINISHED", "VOID") and kind in _REFUSED_WHEN_OVER:
        res = state.result
        how = f"won by {res.winner}" if res and res.winner else (res.outcome.lower() if res else "over")
        raise Violation("DB-ACT-18", f"game {state.match.game_index} is over ({how}); {event_type(event)} is not accepted", "GAME_OVER")
    if state.status == "SETUP" and kind in _PLAY:
        raise Violation("DB-SETUP-1", f"{event_type(event)} comes after the setup; play has not started", "SETUP_ORDER")


def step(state: State, event: Action, ctx: Context) -> State:
    """The one transition: the shared gates, the event's handler, the automatic consequences.
    A rewind's handler is only its gate (the fold returns to the state at ``to_seq``)."""
    if state.status != "IN_PROGRESS":
        _gates(state, event)
    kind = type(event)
    after = HANDLERS[kind](state, event, ctx)
    if kind is DbRewind:  # the handler table is keyed by exact type: no subclass reaches here
        return after
    # the automatic consequences (``settle``), in this frame when there are none: the turn already
    # counts as progress (DB-LIM-12), no status or modifier to forget, both lives above 0
    if (not after.turn_progress or after.statuses or after.modifiers or after.status != "IN_PROGRESS"
            or after.players[0].life <= 0 or after.players[1].life <= 0):
        after = settle(state, after, event, ctx)
    return Z.rep(after, recent=_recent(state, after, ctx), notes=notes_of(state, after, event))


def _recent(before: State, after: State, ctx: Context) -> tuple[int, ...]:
    """The effective seqs since the current turn (or the setup) began, this one included. Read
    from the context, not carried over: an event a correction inserts is stepped under the seq of
    the correction, which is not where it stands in the history."""
    start = after.turn_start_seq
    if start != before.turn_start_seq:
        return (ctx.seq,)
    eff = ctx.effective  # in increasing seq order: the turn's part is found by bisection
    kept = before.recent
    if kept and kept[0] >= start:
        try:
            last = eff[-1]
        except IndexError:  # nothing effective yet
            last = None
        if kept[-1] == last:
            # ``before`` is the state of the last effective event, stepped in this turn: its list is
            # already the turn's part of ``eff`` (the state of a rewind ends at its target, that of
            # an inserted event at the correction's seq, neither of which ends ``eff``), so no scan
            return kept + (ctx.seq,)
    return tuple(eff[bisect_left(eff, start):]) + (ctx.seq,)


# -- automatic consequences (DB-RES-50, DB-LIM-11) ----------------------------------------------
def _same_zones(before: State, after: State) -> bool:
    """Whether no life and no card moved (lives, deck and hand counts, trash, the field's units
    and their cards; not the units' flags). Parts the event did not replace are the same objects."""
    if before.players is after.players:
        return True
    for b, a in zip(before.players, after.players):
        if b is a:
            continue
        if (b.life, b.deck_count, b.hand_count, b.trash) != (a.life, a.deck_count, a.hand_count, a.trash):
            return False
        if b.field is not a.field and (
            len(b.field) != len(a.field)
            or any(u.unit_id != v.unit_id or u.cards != v.cards for u, v in zip(b.field, a.field))
        ):
            return False
    return True


def settle(before: State, after: State, event: Action, ctx: Context) -> State:
    state = after
    if (not state.turn_progress and state.status == "IN_PROGRESS" and not (isinstance(event, AdvancePhase) and before.phase == "END")
            and not _same_zones(before, state)):
        state = Z.rep(state, turn_progress=True)  # DB-LIM-12: not an idle turn
    if state.statuses or state.modifiers:
        state = _forget_left_field(state)
    if state.status == "IN_PROGRESS" and (state.players[0].life <= 0 or state.players[1].life <= 0):
        state = _life_check(state)
    ended = ("FINISHED", "VOID")
    if state.status in ended and state.result is not None and (before.status not in ended or before.result != state.result):
        r = state.result
        record = GameRecord(game_index=state.match.game_index, outcome=r.outcome, winner=r.winner, reason=r.reason)
        results = state.match.results[:-1] if before.status in ended else state.match.results  # a finished game voided
        state = Z.rep(
            state,
            attack=None,
            chain=(),
            chain_resolving=False,
            end_seq=ctx.seq,
            match=Z.rep(state.match, results=results + (record,)),
        )
    return state


def _forget_left_field(state: State) -> State:
    """Statuses and modifiers on cards or units end when they leave the field (§10.1)."""

    def here(owner: str | None, target: str) -> bool:
        if owner is None:
            return True
        p = state.player(owner)
        return p.unit(target) is not None or p.unit_of(target) is not None

    statuses = tuple(s for s in state.statuses if here(s.owner, s.target))
    modifiers = tuple(m for m in state.modifiers if here(m.owner, m.card))
    if len(statuses) == len(state.statuses) and len(modifiers) == len(state.modifiers):
        return state
    return Z.rep(state, statuses=statuses, modifiers=modifiers)


def _life_check(state: State) -> State:
    """DB-LIM-11 (2), DB-RUL-23: a life at 0 or below ends the game."""
    zero = [p.name for p in state.players if p.life <= 0]
    if not zero:
        return state
    if len(zero) == 1:
        return Z.rep(state, status="FINISHED", result=Result(outcome="WIN", winner=state.opponent(zero[0]), reason="LIFE_ZERO"))
    rule = state.config.simultaneous_zero_life
    if rule == "draw" or state.turn_player is None:
        return Z.rep(state, status="FINISHED", result=Result(outcome="DRAW", reason="BOTH_LIFE_ZERO"))
    winner = state.turn_player if rule == "turn_player_wins" else state.opponent(state.turn_player)
    return Z.rep(state, status="FINISHED", result=Result(outcome="WIN", winner=winner, reason="BOTH_LIFE_ZERO"))
