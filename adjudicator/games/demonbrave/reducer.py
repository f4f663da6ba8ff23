"""The DemonBrave reducer: one ``check`` and one ``apply`` function per event type.

``check`` raises ``Violation(rule_id, message, code)`` with the chapter's rule ID and error
code (§5.4), testing preconditions in the order the chapter writes them (§5.1: DB-ACT-18
first). ``apply`` assumes a legal event and returns a new state; ``settle`` then runs the
automatic consequences (DB-RES-50, DB-LIM-11) and the bookkeeping every event shares.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import ops as O
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from adjudicator.games.demonbrave.config import Config
from adjudicator.kit import decode_options
from adjudicator.games.demonbrave.events import (
    PLAY_EVENTS,
    SETUP_EVENTS,
    ActivateEffect,
    AdvancePhase,
    Concede,
    DbCorrect,
    DbMatchStarted,
    DbRewind,
    DeckRegistered,
    DeclareAttack,
    DeclareBlock,
    DeclareResult,
    DecksShuffled,
    Draw,
    Effect,
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
from adjudicator.games.demonbrave.ranking import ChoiceError, battle, card_protected, has_status
from adjudicator.games.demonbrave.state import (
    PLAYER,
    Attack,
    ChainEntry,
    EffectUse,
    GameRecord,
    Player,
    Result,
    State,
)
from adjudicator.protocol import JUDGE, Action, Context, Malformed, Violation

RULES_VERSIONS = ("1.0",)

#: The DB-ACT rule of each event type: reported with WRONG_PHASE, UNIT_NOT_OWNED,
#: CARD_NOT_IN_HAND and ILLEGAL_ACTION (§5.4, DB-ACT-19).
ACT_RULE: dict[type, str] = {
    GameStarted: "DB-ACT-1",
    DeckRegistered: "DB-ACT-2",
    RuleCardsSelected: "DB-ACT-3",
    FirstPlayerDecided: "DB-ACT-4",
    DecksShuffled: "DB-ACT-5",
    OpeningHandsDrawn: "DB-ACT-6",
    Mulligan: "DB-ACT-7",
    Draw: "DB-ACT-8",
    AdvancePhase: "DB-ACT-9",
    PlayCard: "DB-ACT-10",
    FormPair: "DB-ACT-11",
    ActivateEffect: "DB-ACT-12",
    ResolveChainEntry: "DB-ACT-13",
    DeclareAttack: "DB-ACT-14",
    DeclareBlock: "DB-ACT-15",
    ResolveBattle: "DB-ACT-16",
    Concede: "DB-ACT-17",
    JudgeAdjust: "DB-RWD-7",
    DeclareResult: "DB-RWD-11",
    VoidGame: "DB-RWD-11",
    DbRewind: "DB-RWD-3",
    DbCorrect: "DB-RWD-6",
}

CORRECTABLE = {"draw", "advance_phase", "play_card", "form_pair", "activate_effect", "resolve_chain_entry",
               "declare_attack", "declare_block", "resolve_battle", "concede", "judge_adjust"}


def tag(event: Action) -> str:
    return type(event).__struct_config__.tag  # type: ignore[attr-defined]


def illegal(event: Action, message: str, code: str = "ILLEGAL_ACTION") -> Violation:
    return Violation(ACT_RULE[type(event)], message, code)


# -- setup: match_started (DB-ACT-1) ------------------------------------------------------------
def initial(started: DbMatchStarted, ctx: Context) -> State:
    if started.rules_version is not None and started.rules_version not in RULES_VERSIONS:
        raise Malformed(
            f"DemonBrave rules version {started.rules_version!r} is not known; known: {', '.join(RULES_VERSIONS)}",
            "$.rules_version",
        )
    names = tuple(started.players)  # two different names: checked by the fold (player_count)
    for n in names:
        if n in (JUDGE, PLAYER) or not n:
            raise Violation("DB-OVR-1", f"{n!r} cannot be a player's name (it is reserved)", "ILLEGAL_ACTION")
    cfg = decode_options(Config, started.options, "DemonBrave")
    catalog = started.catalog if started.catalog is not None else SAMPLE_CATALOG
    ids = [rc.id for rc in catalog]
    if len(set(ids)) != len(ids):
        raise Malformed("the rule-card catalog lists an id twice", "$.catalog")
    decks = dict(started.decks or {})
    for who, deck in decks.items():
        if who not in names:
            raise Malformed(f"deck for {who!r}, who is not a player ({', '.join(names)})", f"$.decks.{who}")
        C.check_deck(deck, who=f"{who}'s deck")
    players = tuple(Player(name=n, life=cfg.starting_life, deck_registered=decks.get(n)) for n in names)
    return State(players=players, config=cfg, catalog=catalog)  # type: ignore[arg-type]


# -- who is acting ------------------------------------------------------------------------------
def actor(state: State, event: Action, default: str | None) -> str:
    """The acting player: ``player`` if given (entered by that player or the judge), else the
    author, else (the judge without ``player``) ``default``."""
    named = getattr(event, "player", None)
    if named is not None:
        if named not in state.names:
            raise illegal(event, f"{named!r} is not a player of this match ({', '.join(state.names)})")
        if event.by not in (JUDGE, named):
            raise illegal(event, f"{event.by} cannot enter {tag(event)} for {named}")
        return named
    if event.by != JUDGE:
        if event.by not in state.names:
            raise illegal(event, f"{event.by!r} is neither a player of this match ({', '.join(state.names)}) nor the judge")
        return event.by
    if default is None:
        raise illegal(event, f"the judge entering {tag(event)} must name the player (player=...)")
    return default


def need_turn_player(state: State, who: str, what: str) -> None:
    if who != state.turn_player:
        raise Violation("DB-TURN-9", f"{who} cannot {what}: it is {state.turn_player}'s turn", "NOT_TURN_PLAYER")


def need_chain_empty(state: State, what: str) -> None:
    if state.chain:
        top = state.chain[-1].entry_id
        raise Violation("DB-RES-42", f"cannot {what} while the chain is open (top entry {top}); resolve it first", "CHAIN_OPEN")


def need_phase(state: State, event: Action, phase: str, tried: str, what: str) -> None:
    if state.phase != phase:
        raise illegal(event, f"{tried}: {what} only in the {phase} phase; it is the {state.phase} phase of turn {state.turn_number}", "WRONG_PHASE")


# -- setup events (§5.2) ------------------------------------------------------------------------
def check_game_started(state: State, ev: GameStarted, ctx: Context) -> None:
    if ev.by != JUDGE:
        raise illegal(ev, f"only the judge opens a game of the match, not {ev.by}")
    if state.status not in ("FINISHED", "VOID"):
        raise illegal(ev, f"game {state.match.game_index} is still {state.status.lower().replace('_', ' ')}; a new game opens only after it ends")
    if match_result(state) is not None:
        raise illegal(ev, "the match already has a result; no further game is played")
    expected = state.match.game_index if state.status == "VOID" else state.match.game_index + 1
    if ev.game_index != expected:
        raise illegal(ev, f"the next game is game {expected}, not {ev.game_index}")


def apply_game_started(state: State, ev: GameStarted, ctx: Context) -> State:
    cfg = state.config
    players = tuple(Player(name=p.name, life=cfg.starting_life, deck_registered=p.deck_registered) for p in state.players)
    return State(
        players=players,  # type: ignore[arg-type]
        config=cfg,
        catalog=state.catalog,
        match=Z.rep(state.match, game_index=ev.game_index, previous_first_player=state.first_player),
        turn_start_seq=ctx.seq,
    )


def setup_only(state: State, ev: Action) -> None:
    if state.status != "SETUP":
        raise illegal(ev, f"{tag(ev)} belongs to the setup, which is over (turn {state.turn_number})")


def check_deck_registered(state: State, ev: DeckRegistered, ctx: Context) -> None:
    who = actor(state, ev, None)
    setup_only(state, ev)
    if state.hands_drawn:
        raise illegal(ev, "decks are registered before the opening hands are drawn")
    if state.player(who).deck_registered is not None:
        raise illegal(ev, f"{who}'s deck is already registered")
    C.check_deck(ev.cards, who=f"{who}'s deck")


def apply_deck_registered(state: State, ev: DeckRegistered, ctx: Context) -> State:
    return state.with_player(Z.rep(state.player(ev.player), deck_registered=tuple(ev.cards)))


def check_rule_cards_selected(state: State, ev: RuleCardsSelected, ctx: Context) -> None:
    cfg = state.config
    if cfg.rule_card_pool == "shared":
        if ev.player is not None:
            actor(state, ev, None)
        elif ev.by != JUDGE and ev.by not in state.names:
            raise illegal(ev, f"{ev.by!r} is neither a player nor the judge")
        if state.shared_rule_cards or state.status != "SETUP":
            raise Violation("DB-ACT-3", "the shared rule cards are already selected", "ALREADY_SELECTED")
        who = "the shared pool"
    else:
        name = actor(state, ev, None)
        if state.player(name).selected or state.status != "SETUP":
            raise Violation("DB-ACT-3", f"{name} has already selected rule cards", "ALREADY_SELECTED")
        who = name
    picked = ev.rule_cards
    if len(picked) != cfg.rule_cards_per_player:
        raise Violation("DB-DECK-6", f"{who} selected {len(picked)} rule cards; exactly {cfg.rule_cards_per_player} are selected", "RULE_CARD_COUNT")
    if not cfg.allow_duplicate_rule_cards:
        twice = sorted({r for r in picked if picked.count(r) > 1})
        if twice:
            raise Violation("DB-DECK-6", f"{who} selected {', '.join(twice)} more than once; the rule cards must be distinct", "RULE_CARD_DUPLICATE")
    unknown = [r for r in picked if state.rule_card(r) is None]
    if unknown:
        raise Violation("DB-DECK-6", f"{', '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not in the rule-card catalog", "RULE_CARD_UNKNOWN")


def apply_rule_cards_selected(state: State, ev: RuleCardsSelected, ctx: Context) -> State:
    if state.config.rule_card_pool == "shared":
        state = Z.rep(state, shared_rule_cards=tuple(ev.rule_cards))
        for p in state.players:
            state = state.with_player(Z.rep(p, selected=True))
        return state
    name = actor(state, ev, None)
    return state.with_player(Z.rep(state.player(name), rule_cards=tuple(ev.rule_cards), selected=True))


def check_first_player_decided(state: State, ev: FirstPlayerDecided, ctx: Context) -> None:
    setup_only(state, ev)
    if state.first_player is not None:
        raise illegal(ev, f"the first player is already decided: {state.first_player}")
    missing = [p.name for p in state.players if not p.selected]
    if missing:
        raise Violation("DB-SETUP-1", f"the first player is decided after both rule-card selections; {', '.join(missing)} {'has' if len(missing) == 1 else 'have'} not selected", "SETUP_ORDER")
    if ev.first_player not in state.names:
        raise illegal(ev, f"{ev.first_player!r} is not a player of this match ({', '.join(state.names)})")
    before = state.match.previous_first_player
    if state.config.next_game_first_player == "alternate" and before is not None and ev.first_player == before:
        raise illegal(ev, f"{before} went first in the previous game; with next_game_first_player = alternate (DB-RUL-30) {state.opponent(before)} goes first")


def apply_first_player_decided(state: State, ev: FirstPlayerDecided, ctx: Context) -> State:
    return Z.rep(state, first_player=ev.first_player)


def check_decks_shuffled(state: State, ev: DecksShuffled, ctx: Context) -> None:
    setup_only(state, ev)
    if state.first_player is None:
        raise Violation("DB-SETUP-1", "decks are shuffled after the first player is decided", "SETUP_ORDER")


def apply_noop(state: State, ev: Action, ctx: Context) -> State:
    return state


def check_opening_hands_drawn(state: State, ev: OpeningHandsDrawn, ctx: Context) -> None:
    setup_only(state, ev)
    if state.first_player is None:
        raise Violation("DB-SETUP-1", "opening hands are drawn after the first player is decided", "SETUP_ORDER")
    if state.hands_drawn:
        raise illegal(ev, "the opening hands are already drawn")
    n = state.config.opening_hand
    for name, cards in zip(state.names, (ev.p1_cards, ev.p2_cards)):
        if cards is None:
            if state.config.draw_identities_required:
                raise illegal(ev, f"{name}'s opening hand must be listed (draw_identities_required)", "CARD_IDENTITY_REQUIRED")
            continue
        if len(cards) != n:
            raise illegal(ev, f"{name}'s opening hand lists {len(cards)} cards, not {n}")
        p = state.player(name)
        for c in cards:
            if not C.is_card(c):
                raise illegal(ev, C.describe_bad(c), "CARD_NOT_IN_HAND")
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise illegal(ev, f"{name}'s opening hand lists {', '.join(twice)} twice", "CARD_NOT_IN_HAND")
        del p


def start_play(state: State, seq: int) -> State:
    """DB-SETUP-1 step 9: turn 1, the first player's MAIN phase (no draw)."""
    return Z.rep(
        state,
        status="IN_PROGRESS",
        turn_number=1,
        turn_player=state.first_player,
        phase="MAIN",
        draw_done=True,
        turn_start_seq=seq,
        turn_progress=False,
    )


def apply_opening_hands_drawn(state: State, ev: OpeningHandsDrawn, ctx: Context) -> State:
    n = state.config.opening_hand
    for name, cards in zip(state.names, (ev.p1_cards, ev.p2_cards)):
        p = state.player(name)
        p = Z.rep(p, deck_count=p.deck_count - n, hand_count=n, hand_known=tuple(sorted(cards or ())))
        state = state.with_player(p)
    state = Z.rep(state, hands_drawn=True)
    if state.config.mulligan == "none":
        state = start_play(state, ctx.seq)
    return state


def check_mulligan(state: State, ev: Mulligan, ctx: Context) -> None:
    who = actor(state, ev, None)
    if state.config.mulligan != "one_free":
        raise illegal(ev, "there is no mulligan in this match (mulligan = none)")
    setup_only(state, ev)
    if not state.hands_drawn:
        raise Violation("DB-SETUP-1", "the mulligan comes after the opening hands are drawn", "SETUP_ORDER")
    if state.player(who).mulligan_done:
        raise illegal(ev, f"{who} has already decided on the mulligan")
    first = state.first_player or state.names[0]
    if who != first and not state.player(first).mulligan_done:
        raise illegal(ev, f"the first player {first} decides on the mulligan first")


def apply_mulligan(state: State, ev: Mulligan, ctx: Context) -> State:
    p = state.player(ev.player)
    p = Z.rep(p, mulligan_done=True, hand_known=() if ev.take else p.hand_known)
    state = state.with_player(p)
    if all(q.mulligan_done for q in state.players):
        state = start_play(state, ctx.seq)
    return state


# -- play events (§5.3) -------------------------------------------------------------------------
def check_draw(state: State, ev: Draw, ctx: Context) -> None:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "draw now")
    need_phase(state, ev, "DRAW", f"{who}'s draw of {ev.count}", "the turn player draws")
    if state.draw_done:
        raise illegal(ev, f"{who} has already drawn this turn")
    p = state.player(who)
    r = Z.required_draw(state, p)
    n = Z.available_draw(state, p, r)
    if ev.count != n:
        if n < r:
            where = "deck and trash" if state.config.deck_exhaustion == "reshuffle_trash" else "deck"
            raise Violation("DB-LIM-13", f"{who} must draw {n}, not {ev.count}: hand {p.hand_count} calls for {r} but the {where} holds only {n}", "BAD_DRAW_COUNT")
        raise Violation("DB-TURN-4", f"{who} must draw {r}, not {ev.count}: hand {p.hand_count} → {'draw up to ' + str(state.config.refill_target) if r > 1 or p.hand_count < state.config.refill_target else 'draw 1'}", "BAD_DRAW_COUNT")
    cards = ev.cards
    if cards is None:
        if state.config.draw_identities_required and ev.count > 0:
            raise illegal(ev, f"the {ev.count} drawn cards must be listed (draw_identities_required)", "CARD_IDENTITY_REQUIRED")
        return
    if state.config.draw_identities_required and len(cards) != ev.count:
        raise illegal(ev, f"{len(cards)} cards listed for a draw of {ev.count}", "CARD_IDENTITY_REQUIRED")
    if len(cards) > ev.count:
        raise illegal(ev, f"{len(cards)} cards listed for a draw of {ev.count}")
    check_drawn_identities(state, ev, p, cards)


def check_drawn_identities(state: State, ev: Action, p: Player, cards) -> None:
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


def apply_draw(state: State, ev: Draw, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    state = Z.draw_cards(state, who, Z.required_draw(state, state.player(who)), ev.cards)
    return Z.rep(state, draw_done=True)


def check_advance_phase(state: State, ev: Action, ctx: Context) -> None:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "advance the phase")
    need_chain_empty(state, "advance the phase")
    if state.attack is not None:
        raise Violation("DB-RES-11", f"cannot advance the phase while {state.attack.attacker}'s attack on {state.attack.target} is in progress; resolve it first", "ATTACK_PENDING")
    if state.phase == "DRAW" and not state.draw_done:
        raise Violation("DB-TURN-4", f"{who} must draw before leaving the DRAW phase", "DRAW_NOT_DONE")


def apply_advance_phase(state: State, ev: Action, ctx: Context) -> State:
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


def check_play_card(state: State, ev: PlayCard, ctx: Context) -> None:
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


def apply_play_card(state: State, ev: PlayCard, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    p = Z.add_single(Z.hand_remove(state.player(who), ev.card), ev.card)
    return state.with_player(p)


def check_form_pair(state: State, ev: FormPair, ctx: Context) -> None:
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "form a pair")
    need_phase(state, ev, "MAIN", f"{who}'s form_pair [{', '.join(ev.units)}]", "pairs are formed")
    need_chain_empty(state, "form a pair")
    problem = Z.pair_problem(state, who, ev.units)
    if problem is not None:
        code, message = problem
        raise illegal(ev, f"{who}'s form_pair [{', '.join(ev.units)}]: {message}", code)


def apply_form_pair(state: State, ev: FormPair, ctx: Context) -> State:
    return Z.with_pair(state, actor(state, ev, state.turn_player), ev.units)


# -- rule-card effects and the chain (§6.6) -----------------------------------------------------
def find_effect(state: State, rule_card: str, effect_id: str) -> Effect | None:
    rc = state.rule_card(rule_card)
    if rc is None:
        return None
    for e in rc.effects:
        if e.effect_id == effect_id:
            return e
    return None


def uses(state: State, who: str, rule_card: str, effect_id: str) -> EffectUse | None:
    for u in state.player(who).effect_uses:
        if u.rule_card == rule_card and u.effect_id == effect_id:
            return u
    return None


def check_activate_effect(state: State, ev: ActivateEffect, ctx: Context) -> None:
    who = actor(state, ev, state.turn_player)
    if state.phase == "DRAW" and not state.draw_done:
        raise Violation("DB-TURN-4", f"no effect is activated before {state.turn_player}'s draw", "DRAW_NOT_DONE")
    if state.chain_resolving and not state.config.activations_during_resolution:
        raise Violation("DB-RES-43", f"{who} cannot activate {ev.rule_card} while the chain is resolving; wait until it is empty", "CHAIN_RESOLVING")
    owned = state.shared_rule_cards if state.config.rule_card_pool == "shared" else state.player(who).rule_cards
    if ev.rule_card not in owned:
        raise Violation("DB-ACT-12", f"{who} has not selected the rule card {ev.rule_card} (selected: {', '.join(owned) or 'none'})", "RULE_CARD_NOT_OWNED")
    effect = find_effect(state, ev.rule_card, ev.effect_id)
    if effect is None:
        rc = state.rule_card(ev.rule_card)
        known = ", ".join(e.effect_id for e in rc.effects) if rc else ""
        raise illegal(ev, f"the rule card {ev.rule_card} has no effect {ev.effect_id!r} (it has: {known or 'none'})")
    if who != state.turn_player:
        if effect.usable_in_opponent_turn is False or (effect.usable_in_opponent_turn is None and not ev.judge_asserted):
            why = "is not usable in the opponent's turn" if effect.usable_in_opponent_turn is False else "is not known to be usable in the opponent's turn (the judge may assert it: judge_asserted=true)"
            raise Violation("DB-RES-40", f"{who} cannot activate {ev.effect_id} in {state.turn_player}'s turn: it {why}", "NOT_ALLOWED_IN_OPPONENT_TURN")
    if any(s.owner is None and s.target == who and s.status == "CANNOT_ACTIVATE" for s in state.statuses):
        raise illegal(ev, f"{who} cannot activate effects now (CANNOT_ACTIVATE)")
    used = uses(state, who, ev.rule_card, ev.effect_id)
    if used is not None:
        this_turn = used.this_turn if used.turn_number == state.turn_number else 0
        if effect.limit_per_turn is not None and this_turn >= effect.limit_per_turn:
            raise Violation("DB-LIM-7", f"{who} has used {ev.effect_id} {this_turn} time(s) this turn; the limit is {effect.limit_per_turn}", "EFFECT_LIMIT")
        if effect.limit_per_game is not None and used.this_game >= effect.limit_per_game:
            raise Violation("DB-LIM-7", f"{who} has used {ev.effect_id} {used.this_game} time(s) this game; the limit is {effect.limit_per_game}", "EFFECT_LIMIT")
    if ev.cost_ops:
        O.apply_ops(state, ev.cost_ops, ctx.seq)


def apply_activate_effect(state: State, ev: ActivateEffect, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    state = O.apply_ops(state, ev.cost_ops, ctx.seq)
    entry = ChainEntry(
        entry_id=f"E{state.entry_counter}",
        controller=who,
        rule_card=ev.rule_card,
        effect_id=ev.effect_id,
        targets=tuple(ev.targets),
        source_seq=ctx.seq,
    )
    used = uses(state, who, ev.rule_card, ev.effect_id)
    if used is None:
        new_use = EffectUse(rule_card=ev.rule_card, effect_id=ev.effect_id, turn_number=state.turn_number, this_turn=1, this_game=1)
    else:
        this_turn = used.this_turn + 1 if used.turn_number == state.turn_number else 1
        new_use = EffectUse(rule_card=ev.rule_card, effect_id=ev.effect_id, turn_number=state.turn_number, this_turn=this_turn, this_game=used.this_game + 1)
    p = state.player(who)
    p = Z.rep(p, effect_uses=tuple(u for u in p.effect_uses if u is not used) + (new_use,))
    return Z.rep(state.with_player(p), chain=state.chain + (entry,), entry_counter=state.entry_counter + 1)


def entry_ops(state: State, ev: ResolveChainEntry) -> tuple:
    """The ops that carry out the top entry: as entered, or the catalog's canonical ops."""
    entry = state.chain[-1]
    if ev.ops is not None:
        return ev.ops
    if entry.negated:
        return ()
    effect = find_effect(state, entry.rule_card, entry.effect_id)
    if effect is None or effect.canonical_ops is None:
        raise illegal(ev, f"the catalog does not say what {entry.effect_id} does; enter the ops that carry out its text (ops=[...])")
    values = {
        "$TARGET": entry.targets[0] if entry.targets else None,
        "$CONTROLLER": entry.controller,
        "$OPPONENT": state.opponent(entry.controller),
    }
    try:
        return O.decode_ops(O.substitute(list(effect.canonical_ops), values))
    except O.OpError as exc:
        raise Violation(O.RULE, f"{entry.entry_id} ({entry.effect_id}): {exc}", O.CODE) from None


def check_resolve_chain_entry(state: State, ev: ResolveChainEntry, ctx: Context) -> None:
    if ev.by != JUDGE and ev.by not in state.names:
        raise illegal(ev, f"{ev.by!r} is neither a player of this match nor the judge")
    if not state.chain:
        raise illegal(ev, f"there is no chain entry to resolve ({ev.entry_id})")
    top = state.chain[-1]
    if ev.entry_id != top.entry_id:
        order = ", ".join(e.entry_id for e in reversed(state.chain))
        raise Violation("DB-RES-41", f"{ev.entry_id} is not the top of the chain; entries resolve last in, first out: {order}", "NOT_TOP_OF_CHAIN")
    if top.negated and ev.ops:
        raise illegal(ev, f"{top.entry_id} was negated: it resolves with no ops (ops=[])")
    O.apply_ops(_popped(state), entry_ops(state, ev), ctx.seq)


def _popped(state: State) -> State:
    chain = state.chain[:-1]
    return Z.rep(state, chain=chain, chain_resolving=bool(chain))


def apply_resolve_chain_entry(state: State, ev: ResolveChainEntry, ctx: Context) -> State:
    ops = entry_ops(state, ev)
    return O.apply_ops(_popped(state), ops, ctx.seq)


# -- battle (§6.3, §6.4) ------------------------------------------------------------------------
def check_declare_attack(state: State, ev: DeclareAttack, ctx: Context) -> None:
    if state.turn_number == 1:
        raise Violation("DB-TURN-3", f"{ev.player or ev.by}'s {ev.attacker} cannot attack {ev.target}: there is no battle on turn 1, the first player's first turn", "NO_BATTLE_FIRST_TURN")
    who = actor(state, ev, state.turn_player)
    need_turn_player(state, who, "attack")
    need_phase(state, ev, "BATTLE", f"{who}'s attack with {ev.attacker}", "attacks are declared")
    if state.attack is not None:
        raise Violation("DB-RES-11", f"{state.attack.attacker}'s attack on {state.attack.target} is still in progress; resolve it first", "ATTACK_PENDING")
    need_chain_empty(state, "declare an attack")
    me = state.player(who)
    unit = me.unit(ev.attacker)
    if unit is None:
        holder = me.unit_of(ev.attacker)
        if holder is not None:
            raise illegal(ev, f"{who}'s {ev.attacker} is inside {holder.unit_id}; the pair {holder.unit_id} attacks as one unit", "UNIT_NOT_OWNED")
        raise illegal(ev, f"{who} has no unit {ev.attacker} on the field", "UNIT_NOT_OWNED")
    kind = "pair" if unit.is_pair else "single"
    if unit.attacked:
        raise Violation("DB-LIM-1", f"{who}'s {kind} {ev.attacker} already attacked this turn", "ALREADY_ATTACKED")
    if has_status(state, who, unit, "CANNOT_ATTACK"):
        raise illegal(ev, f"{who}'s {kind} {ev.attacker} cannot attack (CANNOT_ATTACK)")
    if ev.target == PLAYER:
        if not unit.is_pair and not has_status(state, who, unit, "MAY_ATTACK_PLAYER"):
            raise Violation("DB-LIM-2", f"{who}'s single {ev.attacker} cannot attack the player; only pairs attack the player", "SINGLE_CANNOT_ATTACK_PLAYER")
        return
    foe = state.opponent(who)
    target = state.player(foe).unit(ev.target)
    if target is None:
        holder = state.player(foe).unit_of(ev.target)
        if holder is not None:
            raise illegal(ev, f"{foe}'s {ev.target} is inside {holder.unit_id}; attack the pair {holder.unit_id}", "BAD_TARGET")
        raise illegal(ev, f"{foe} has no unit {ev.target} on the field (targets: a unit of {foe}'s field or PLAYER)", "BAD_TARGET")
    if has_status(state, foe, target, "CANNOT_BE_ATTACKED"):
        raise illegal(ev, f"{foe}'s {ev.target} cannot be attacked (CANNOT_BE_ATTACKED)", "BAD_TARGET")


def apply_declare_attack(state: State, ev: DeclareAttack, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    p = state.player(who)
    p = Z.rep(p, field=tuple(Z.rep(u, attacked=True) if u.unit_id == ev.attacker else u for u in p.field))
    attack = Attack(attacker=ev.attacker, attacker_player=who, target=ev.target, defender=state.opponent(who), declared_seq=ctx.seq)
    return Z.rep(state.with_player(p), attack=attack)


def can_block(state: State, owner: str) -> list[str]:
    limit = state.config.blocks_per_unit_per_turn
    return [
        u.unit_id for u in state.player(owner).field
        if not has_status(state, owner, u, "CANNOT_BLOCK") and (limit is None or u.blocks < limit)
    ]


def check_declare_block(state: State, ev: DeclareBlock, ctx: Context) -> None:
    a = state.attack
    if a is None or a.target != PLAYER or a.step != "DECLARED":
        what = "no attack is in progress" if a is None else f"the attack on {a.target} cannot be blocked" if a.target != PLAYER else "the block is already decided"
        raise illegal(ev, f"nothing to block: {what}")
    who = actor(state, ev, a.defender)
    if who != a.defender:
        raise illegal(ev, f"only {a.defender}, who is attacked, decides a block; not {who}")
    need_chain_empty(state, "declare a block")
    if ev.blocker is None:
        return
    me = state.player(who)
    unit = me.unit(ev.blocker)
    if unit is None:
        holder = me.unit_of(ev.blocker)
        extra = f"; {ev.blocker} is inside {holder.unit_id}" if holder else ""
        raise illegal(ev, f"{who} has no unit {ev.blocker} on the field{extra}", "UNIT_NOT_OWNED")
    if has_status(state, who, unit, "CANNOT_BLOCK"):
        raise illegal(ev, f"{who}'s {ev.blocker} cannot block (CANNOT_BLOCK)")
    limit = state.config.blocks_per_unit_per_turn
    if limit is not None and unit.blocks >= limit:
        raise Violation("DB-LIM-6", f"{who}'s {ev.blocker} has blocked {unit.blocks} time(s) this turn; the limit is {limit}", "BLOCK_LIMIT")


def apply_declare_block(state: State, ev: DeclareBlock, ctx: Context) -> State:
    a = state.attack
    assert a is not None  # checked
    if ev.blocker is not None:
        p = state.player(a.defender)
        p = Z.rep(p, field=tuple(Z.rep(u, blocks=u.blocks + 1) if u.unit_id == ev.blocker else u for u in p.field))
        state = state.with_player(p)
    return Z.rep(state, attack=Z.rep(a, step="BLOCK_DECLARED", blocker=ev.blocker))


def check_resolve_battle(state: State, ev: ResolveBattle, ctx: Context) -> None:
    if ev.by != JUDGE:
        if ev.by not in state.names:
            raise illegal(ev, f"{ev.by!r} is neither a player of this match nor the judge")
        need_turn_player(state, ev.by, "resolve the battle")
    need_chain_empty(state, "resolve the battle")
    a = state.attack
    if a is None:
        raise illegal(ev, "no attack is in progress")
    if a.target == PLAYER and a.step == "DECLARED":
        blockers = can_block(state, a.defender)
        attacker = state.player(a.attacker_player).unit(a.attacker)
        if blockers and attacker is not None:
            raise illegal(ev, f"{a.defender} has not decided whether to block {a.attacker} (with {', '.join(blockers)}, or declare_block blocker=null)", "BLOCK_DECISION_NEEDED")
    try:
        battle(state, a, ev.choice)
    except ChoiceError as exc:
        raise Violation("DB-RES-24", exc.message, exc.code) from None


def apply_resolve_battle(state: State, ev: ResolveBattle, ctx: Context) -> State:
    a = state.attack
    assert a is not None  # checked
    out = battle(state, a, ev.choice)
    items = [(o, c) for o, c in out.trash if not card_protected(state, o, c)]
    state = Z.trash_from_field(state, items)
    for who, amount in out.life_loss:
        p = state.player(who)
        state = state.with_player(Z.rep(p, life=max(0, p.life - amount)))
    return Z.rep(state, attack=None)


def check_concede(state: State, ev: Concede, ctx: Context) -> None:
    actor(state, ev, None)


def apply_concede(state: State, ev: Concede, ctx: Context) -> State:
    return Z.rep(state, status="FINISHED", result=Result(outcome="WIN", winner=state.opponent(ev.player), reason="CONCESSION"))


# -- judge events (§8) --------------------------------------------------------------------------
def judge_only(ev: Action) -> None:
    if ev.by != JUDGE:
        raise Violation("DB-RWD-2", f"only the judge may enter {tag(ev)}; {ev.by} cannot", "JUDGE_ONLY")


def check_judge_adjust(state: State, ev: JudgeAdjust, ctx: Context) -> None:
    judge_only(ev)
    O.apply_ops(state, ev.ops, ctx.seq)


def apply_judge_adjust(state: State, ev: JudgeAdjust, ctx: Context) -> State:
    return O.apply_ops(state, ev.ops, ctx.seq)


def check_declare_result(state: State, ev: DeclareResult, ctx: Context) -> None:
    judge_only(ev)
    if state.status in ("FINISHED", "VOID"):
        raise illegal(ev, f"game {state.match.game_index} is already over ({state.status.lower()})")
    if ev.outcome == "WIN" and ev.winner not in state.names:
        raise illegal(ev, f"a WIN names the winner, one of {', '.join(state.names)} (got {ev.winner!r})")
    if ev.outcome == "DRAW" and ev.winner is not None:
        raise illegal(ev, "a DRAW has no winner")


def apply_declare_result(state: State, ev: DeclareResult, ctx: Context) -> State:
    return Z.rep(state, status="FINISHED", result=Result(outcome=ev.outcome, winner=ev.winner, reason=f"JUDGE: {ev.reason}"))


def check_void_game(state: State, ev: VoidGame, ctx: Context) -> None:
    judge_only(ev)
    if state.status == "VOID":
        raise illegal(ev, f"game {state.match.game_index} is already void")


def apply_void_game(state: State, ev: VoidGame, ctx: Context) -> State:
    return Z.rep(state, status="VOID", result=Result(outcome="VOID", reason=ev.reason))


def _scope_problem(state: State, target: State | None, seq_point: int, what: str) -> str | None:
    """DB-RWD-3: why going back to ``seq_point`` needs ``judge_override``, or None."""
    if target is not None and target.status == "SETUP" and state.status != "SETUP":
        return f"{what} reaches back into the setup"
    if state.end_seq is not None and seq_point < state.end_seq:
        return f"{what} reaches before seq {state.end_seq}, which ended the game"
    if state.config.rewind_scope == "current_turn" and state.status != "SETUP" and seq_point < state.turn_start_seq:
        return f"{what} leaves the current turn {state.turn_number}, which began at seq {state.turn_start_seq}"
    return None


def check_rewind(state: State, ev: DbRewind, ctx: Context) -> None:
    judge_only(ev)
    if ev.to_seq not in ctx.effective or ctx.state_at is None:
        return  # the fold reports a target outside the effective history (ADJ-REW-1)
    problem = _scope_problem(state, ctx.state_at(ev.to_seq), ev.to_seq, f"a rewind to seq {ev.to_seq}")
    if problem and not ev.judge_override:
        raise Violation("DB-RWD-3", f"{problem}; only with judge_override=true", "REWIND_OUT_OF_SCOPE")


def check_correct(state: State, ev: DbCorrect, ctx: Context) -> None:
    judge_only(ev)
    inner = ev.event.get("type")
    if inner not in CORRECTABLE:
        raise Violation("DB-RWD-6", f"a correction inserts a play event or a judge_adjust, not {inner!r}", "ILLEGAL_ACTION")
    eff = list(ctx.effective)
    if ev.at_seq not in eff or ctx.state_at is None or eff.index(ev.at_seq) == 0:
        return  # the fold reports a bad insertion point (ADJ-COR-1)
    before = eff[eff.index(ev.at_seq) - 1]
    problem = _scope_problem(state, ctx.state_at(before), before, f"a correction before seq {ev.at_seq}")
    if problem and not ev.judge_override:
        raise Violation("DB-RWD-6", f"{problem}; only with judge_override=true", "REWIND_OUT_OF_SCOPE")


# -- dispatch -----------------------------------------------------------------------------------
CHECKS: dict[type, Callable[[State, Any, Context], None]] = {
    GameStarted: check_game_started,
    DeckRegistered: check_deck_registered,
    RuleCardsSelected: check_rule_cards_selected,
    FirstPlayerDecided: check_first_player_decided,
    DecksShuffled: check_decks_shuffled,
    OpeningHandsDrawn: check_opening_hands_drawn,
    Mulligan: check_mulligan,
    Draw: check_draw,
    AdvancePhase: check_advance_phase,
    PlayCard: check_play_card,
    FormPair: check_form_pair,
    ActivateEffect: check_activate_effect,
    ResolveChainEntry: check_resolve_chain_entry,
    DeclareAttack: check_declare_attack,
    DeclareBlock: check_declare_block,
    ResolveBattle: check_resolve_battle,
    Concede: check_concede,
    JudgeAdjust: check_judge_adjust,
    DeclareResult: check_declare_result,
    VoidGame: check_void_game,
    DbRewind: check_rewind,
    DbCorrect: check_correct,
}

APPLIES: dict[type, Callable[[State, Any, Context], State]] = {
    GameStarted: apply_game_started,
    DeckRegistered: apply_deck_registered,
    RuleCardsSelected: apply_rule_cards_selected,
    FirstPlayerDecided: apply_first_player_decided,
    DecksShuffled: apply_noop,
    OpeningHandsDrawn: apply_opening_hands_drawn,
    Mulligan: apply_mulligan,
    Draw: apply_draw,
    AdvancePhase: apply_advance_phase,
    PlayCard: apply_play_card,
    FormPair: apply_form_pair,
    ActivateEffect: apply_activate_effect,
    ResolveChainEntry: apply_resolve_chain_entry,
    DeclareAttack: apply_declare_attack,
    DeclareBlock: apply_declare_block,
    ResolveBattle: apply_resolve_battle,
    Concede: apply_concede,
    JudgeAdjust: apply_judge_adjust,
    DeclareResult: apply_declare_result,
    VoidGame: apply_void_game,
    DbCorrect: apply_noop,
}


def check(state: State, event: Action, ctx: Context) -> None:
    kind = type(event)
    if (kind in SETUP_EVENTS or kind in PLAY_EVENTS) and kind is not GameStarted and state.status in ("FINISHED", "VOID"):
        how = f"won by {state.result.winner}" if state.result and state.result.winner else (state.result.outcome.lower() if state.result else "over")
        raise Violation("DB-ACT-18", f"game {state.match.game_index} is over ({how}); {tag(event)} is not accepted", "GAME_OVER")
    if kind in PLAY_EVENTS and state.status == "SETUP":
        raise Violation("DB-SETUP-1", f"{tag(event)} comes after the setup; play has not started", "SETUP_ORDER")
    CHECKS[kind](state, event, ctx)


def apply(state: State, event: Action, ctx: Context) -> State:
    return settle(state, APPLIES[type(event)](state, event, ctx), event, ctx)


# -- automatic consequences (DB-RES-50, DB-LIM-11) ----------------------------------------------
def _zones(state: State) -> tuple:
    return tuple((p.life, p.deck_count, p.hand_count, p.trash, tuple((u.unit_id, u.cards) for u in p.field)) for p in state.players)


def settle(before: State, after: State, event: Action, ctx: Context) -> State:
    state = after
    ends_turn = isinstance(event, AdvancePhase) and before.phase == "END"
    if not ends_turn and state.status == "IN_PROGRESS" and _zones(before) != _zones(state):
        state = Z.rep(state, turn_progress=True)  # DB-LIM-12: not an idle turn
    state = _forget_left_field(state)
    if state.status == "IN_PROGRESS":
        state = _life_check(state)
    ended = ("FINISHED", "VOID")
    if state.status in ended and (before.status not in ended or before.result != state.result):
        assert state.result is not None
        record = GameRecord(game_index=state.match.game_index, outcome=state.result.outcome, winner=state.result.winner, reason=state.result.reason)
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
    """DB-LIM-11 (2), DB-RUL-23."""
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


# -- the match (DB-RUL-30) ----------------------------------------------------------------------
def match_score(state: State) -> dict[str, int]:
    return {n: sum(1 for r in state.match.results if r.outcome == "WIN" and r.winner == n) for n in state.names}


def match_result(state: State) -> Result | None:
    """The match result once decided: with one game, that game's result."""
    n = state.config.match_games
    played = [r for r in state.match.results if r.outcome != "VOID"]
    if n == 1:
        if not played:
            return None
        r = played[-1]
        return Result(outcome=r.outcome, winner=r.winner, reason=r.reason)
    score = match_score(state)
    a, b = state.names
    remaining = n - len(played)
    for me, other in ((a, b), (b, a)):
        if score[me] > score[other] + remaining:
            return Result(outcome="WIN", winner=me, reason=f"MATCH {score[me]}-{score[other]}")
    if remaining <= 0:
        return Result(outcome="DRAW", reason=f"MATCH {score[a]}-{score[b]}")
    return None
