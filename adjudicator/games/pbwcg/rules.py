"""The PBWCG transition: ``initial`` for match_started, ``step`` for everything after it, one
handler per event type (rules/pbwcg.md §5), the gates that hold for every event, and the
state-based checks after each accepted one (PBW-LIM-20)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

import msgspec

from adjudicator.games.pbwcg import actions as A
from adjudicator.games.pbwcg import corrections as C
from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg import flow as F
from adjudicator.games.pbwcg.combat import reject
from adjudicator.games.pbwcg.config import Options
from adjudicator.games.pbwcg.decks import deck_problems
from adjudicator.games.pbwcg.ops import state_checks
from adjudicator.games.pbwcg.state import Player, State
from adjudicator.engine.kit import decode_options, event_type
from adjudicator.engine.protocol import Action, Context, Malformed, Violation

HANDLERS: dict[type, Callable[[State, Action, Context], State]] = {  # type: ignore[dict-item]
    E.InitialPcsPlaced: F.initial_pcs_placed, E.BattleStarted: F.battle_started, E.TurnStarted: F.turn_started,
    E.TieBreak: F.tie_break, E.CardsDrawn: F.cards_drawn, E.CardSet: A.card_set, E.PcSummoned: A.pc_summoned,
    E.Equipped: A.equipped, E.SetCardDiscarded: A.set_card_discarded, E.SetCardActivated: A.set_card_activated,
    E.PlTurnEnded: F.pl_turn_ended, E.FieldEffect: F.field_effect, E.FieldStepEnded: F.field_step_ended,
    E.MainTurnStarted: F.main_turn_started, E.BsEffect: A.bs_effect, E.EquipmentDiscarded: A.equipment_discarded,
    E.NormalAttack: A.normal_attack, E.AbilityUsed: A.ability_used, E.Move: A.move, E.Wait: A.wait,
    E.MainTurnEnded: F.main_turn_ended, E.BsRecoveryCheck: A.bs_recovery_check, E.TurnEnded: F.turn_ended,
    E.HandDiscarded: F.hand_discarded, E.Effect: A.effect, E.ChoiceMade: A.choice_made, E.Surrender: A.surrender,
    E.DrawAgreed: A.draw_agreed, E.ResultConfirmed: A.result_confirmed, E.NextBattle: F.next_battle,
}
#: accepted once a battle has a result (PBW-OVR-3); next_battle checks that it is confirmed
AFTER_RESULT = (E.ResultConfirmed, E.NextBattle)
#: accepted while a choice is pending (PBW-ACT-28)
DURING_CHOICE = (E.ChoiceMade, E.Surrender)
#: table-wide events, entered by either player or the judge (§15)
TABLE_WIDE = (E.TurnStarted, E.FieldStepEnded, E.TurnEnded, E.TieBreak, E.BattleStarted, E.DrawAgreed, E.ResultConfirmed, E.Effect)


_ID_OF = attrgetter("id")


def initial(started: E.PbwMatchStarted, ctx: Context) -> State:
    """PBW-ACT-1/2: options fixed, decks validated (the first problem rejects, PBW-DECK-10)."""
    options: Options = decode_options(Options, started.options, "PBWCG")
    players = list(started.players)
    if len(players) != options.player_count:  # PBW-OVR-1: two players, more only under local rule D
        if options.player_count == 2:
            raise Violation("PBW-OVR-1", f"a battle has two players; {len(players)} ({', '.join(players)}) play under local rule D only, with player_count {len(players)}", "PLAYER_COUNT")
        raise Violation("PBW-RUL-47", f"local rule D with player_count {options.player_count} needs {options.player_count} players, not {len(players)} ({', '.join(players)})", "PLAYER_COUNT")
    if options.best_of % 2 == 0:
        raise Malformed(f"option best_of must be an odd int >= 1, not {options.best_of}", "$.options.best_of")
    if set(started.decks) != set(players):
        raise Malformed(f"decks must be given for exactly the players {players}, not {sorted(started.decks)}", "$.decks")
    cards: dict[str, E.CardDef] = {}
    owner: dict[str, str] = {}
    for p in players:
        deck = started.decks[p]
        for c in deck.deck + deck.support_list:
            cid = c.id
            if cid in cards or cid in players:
                raise Malformed(f"card id {cid!r} is used twice (card ids are unique in a match and differ from player names)", f"$.decks.{p}")
            cards[cid] = c
            owner[cid] = p
    for p in players:
        problems = deck_problems(started.decks[p], options, f"{p}'s deck")
        if problems:
            raise problems[0]
    state_players = tuple([Player(name=p, deck=tuple(map(_ID_OF, started.decks[p].deck)),
                                  support_list=tuple(map(_ID_OF, started.decks[p].support_list))) for p in players])
    return State(options=options, players=state_players, cards=cards, owner=owner, registered=state_players,
                 wins={p: 0 for p in players}, battle_seq=ctx.seq, last_seq=ctx.seq)


def step(s: State, event: Action, ctx: Context) -> State:
    if s.out and not isinstance(event, E.NextBattle):  # PBW-RUL-47, §15: a player out of the battle enters nothing more
        who = event.by if event.by in s.out else getattr(event, "player", None)
        if who in s.out:
            reject("PBW-RUL-47", f"{who} is out of the battle and enters nothing more; {event_type(event)} is refused", "OUT")
    handler = HANDLERS.get(type(event))
    if handler is None:
        if isinstance(event, E.PbwCorrect):
            return C.gate_correct(s, event, ctx)
        if isinstance(event, E.PbwRewind):
            return C.gate_rewind(s, event, ctx)
    before = s
    seq = ctx.seq
    # the notes of the last event cleared (most events follow one that set off nothing); this
    # event's seq is set after the handler, which sets it itself in its last copy on the events
    # of every turn (``last_seq`` is never read by a handler)
    if s.notes:
        s = msgspec.structs.replace(s, notes=())
    if s.result is not None and not isinstance(event, AFTER_RESULT):
        what = f"won by {s.result.winner}" if s.result.winner else "drawn"
        more = ", next_battle" if s.options.best_of > 1 else ""
        reject("PBW-OVR-3", f"the battle is over ({what}); only result_confirmed{more}, correct and rewind are accepted", "BATTLE_OVER")
    if s.pending_choice is not None and not isinstance(event, DURING_CHOICE):
        pc = s.pending_choice
        reject("PBW-ACT-28", f"{pc.player} must first choose the {pc.part} item of {pc.subject} to discard (choice_made)", "CHOICE_PENDING")
    if handler is None:
        reject("PBW-ACT-1", f"{event_type(event)} cannot be entered here")
    main = s.main
    if main is not None and main.step == "M1" and s.obligations and not isinstance(event, E.BsEffect):
        s = F.close_open(s, "TRIG", seq)  # PBW-COR-2: the first other event of a main turn closes its TRIG duties
    s = handler(s, event, ctx)
    if s.battle_started:  # the active player (PBW-RUL-3) is the one before the event: asked only when both HP are down
        s = state_checks(s, seq, before)
        if s.step == "T1" and not s.pending_ties and s.result is None:  # the ties waiting lost their members
            s = F.finish_order(s)
    if s.result is not None:
        return msgspec.structs.replace(s, step="OVER", last_seq=seq)
    return s if s.last_seq == seq else msgspec.structs.replace(s, last_seq=seq)
