"""The setup transitions (rules §3, §5.2): ``match_started`` and ``game_started`` open a game;
deck lists, rule-card selections, the first player, the opening hands and the mulligan follow in
the order of DB-SETUP-1. Each handler checks its event, then returns the new state."""

from __future__ import annotations

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from adjudicator.games.demonbrave.config import Config
from adjudicator.games.demonbrave.events import (
    DbMatchStarted,
    DeckRegistered,
    DecksShuffled,
    FirstPlayerDecided,
    GameStarted,
    Mulligan,
    OpeningHandsDrawn,
    RuleCardsSelected,
)
from adjudicator.games.demonbrave.guards import actor, illegal, judge_enters, setup_only
from adjudicator.games.demonbrave.match import chooser, match_result
from adjudicator.games.demonbrave.state import PLAYER, Player, State
from adjudicator.engine.kit import decode_options
from adjudicator.engine.protocol import JUDGE, Context, Malformed, Violation

RULES_VERSIONS = ("1.0",)


# -- match_started, game_started (DB-ACT-1) ------------------------------------------------------
def initial(started: DbMatchStarted, ctx: Context) -> State:
    """The state after match_started (its rules version is checked by the fold, against
    ``RULES_VERSIONS`` through the game's ``rules_versions``)."""
    names = tuple(started.players)  # two different names: checked by the fold (player_count)
    if started.by != JUDGE and started.by not in names:  # R-DB-18: the judge or a player starts it
        raise Violation("DB-ACT-1", f"{started.by!r} is neither a player of this match ({', '.join(names)}) nor the judge; only they start it", "ILLEGAL_ACTION")
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
    players = tuple(Player(name=n, life=cfg.starting_life, deck_registered=decks.get(n), deck_this_game=n in decks) for n in names)
    return State(players=players, config=cfg, catalog=catalog, recent=(ctx.seq,))  # type: ignore[arg-type]


def on_game_started(state: State, ev: GameStarted, ctx: Context) -> State:
    if ev.by != JUDGE:
        raise illegal(ev, f"only the judge opens a game of the match, not {ev.by}")
    if state.status not in ("FINISHED", "VOID"):
        raise illegal(ev, f"game {state.match.game_index} is still {state.status.lower().replace('_', ' ')}; a new game opens only after it ends")
    if match_result(state) is not None:
        raise illegal(ev, "the match already has a result; no further game is played")
    expected = state.match.game_index if state.status == "VOID" else state.match.game_index + 1
    if ev.game_index != expected:
        raise illegal(ev, f"the next game is game {expected}, not {ev.game_index}")
    # every per-game field starts afresh; the config, the catalog, the match and the deck lists stand
    cfg = state.config
    players = tuple(Player(name=p.name, life=cfg.starting_life, deck_registered=p.deck_registered) for p in state.players)
    played = state.first_player if state.status == "FINISHED" else state.match.previous_first_player
    return State(
        players=players,  # type: ignore[arg-type]
        config=cfg,
        catalog=state.catalog,
        match=Z.rep(state.match, game_index=ev.game_index, previous_first_player=played),
        turn_start_seq=ctx.seq,
    )


# -- deck lists and rule cards (DB-ACT-2, DB-ACT-3) ---------------------------------------------
def on_deck_registered(state: State, ev: DeckRegistered, ctx: Context) -> State:
    who = actor(state, ev, None)
    setup_only(state, ev)
    if state.hands_drawn:
        raise illegal(ev, "decks are registered before the opening hands are drawn")
    if state.player(who).deck_this_game:
        raise illegal(ev, f"{who}'s deck is already registered for game {state.match.game_index}; "
                          "a list is registered once in each game's setup")
    C.check_deck(ev.cards, who=f"{who}'s deck")
    return state.with_player(Z.rep(state.player(ev.player), deck_registered=tuple(ev.cards), deck_this_game=True))


def _selector(state: State, ev: RuleCardsSelected) -> str | None:
    """Who selects: a player (per-player pool), or None for the shared pool (DB-RUL-14)."""
    if state.config.rule_card_pool == "shared":
        if ev.by != JUDGE:
            raise illegal(ev, f"with rule_card_pool = shared the five rule cards are chosen together and the judge enters them; {ev.by} cannot")
        if ev.player is not None:
            raise illegal(ev, f"with rule_card_pool = shared one selection serves both players; leave out player ({ev.player!r})")
        if state.shared_rule_cards or state.status != "SETUP":
            raise Violation("DB-ACT-3", "the shared rule cards are already selected", "ALREADY_SELECTED")
        return None
    name = actor(state, ev, None)
    if state.player(name).selected or state.status != "SETUP":
        raise Violation("DB-ACT-3", f"{name} has already selected rule cards", "ALREADY_SELECTED")
    return name


def on_rule_cards_selected(state: State, ev: RuleCardsSelected, ctx: Context) -> State:
    cfg = state.config
    name = _selector(state, ev)
    who = name or "the shared pool"
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
    if name is None:
        state = Z.rep(state, shared_rule_cards=tuple(picked))
        for p in state.players:
            state = state.with_player(Z.rep(p, selected=True))
        return state
    return state.with_player(Z.rep(state.player(name), rule_cards=tuple(picked), selected=True))


# -- the first player, the shuffle, the opening hands (DB-ACT-4...7) ----------------------------
def on_first_player_decided(state: State, ev: FirstPlayerDecided, ctx: Context) -> State:
    loser = chooser(state)
    if loser is not None and ev.by not in (JUDGE, loser[0]):
        name, game = loser
        raise illegal(ev, f"{name} lost game {game} and chooses who goes first (next_game_first_player = loser_chooses, DB-RUL-30); "
                          f"{name} or the judge records it, not {ev.by}")
    if loser is None:
        judge_enters(ev, "the first player (DB-SETUP-1 step 5: the judge records the toss)")
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
        raise illegal(ev, f"{before} went first in the previous game; with next_game_first_player = alternate (DB-RUL-30) {state.opponent(before)} goes first, not {ev.first_player}")
    return Z.rep(state, first_player=ev.first_player)


def on_decks_shuffled(state: State, ev: DecksShuffled, ctx: Context) -> State:
    judge_enters(ev, "decks_shuffled (it speaks for both players' decks)")
    setup_only(state, ev)
    if state.first_player is None:
        raise Violation("DB-SETUP-1", "decks are shuffled after the first player is decided", "SETUP_ORDER")
    return state


def _check_opening_hands(state: State, ev: OpeningHandsDrawn) -> None:
    judge_enters(ev, "opening_hands_drawn (it speaks for both players' hands)")
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
        for c in cards:
            if not C.is_card(c):
                raise illegal(ev, C.describe_bad(c), "CARD_NOT_IN_HAND")
        twice = sorted({c for c in cards if cards.count(c) > 1})
        if twice:
            raise illegal(ev, f"{name}'s opening hand lists {', '.join(twice)} twice", "CARD_NOT_IN_HAND")


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


def on_opening_hands_drawn(state: State, ev: OpeningHandsDrawn, ctx: Context) -> State:
    _check_opening_hands(state, ev)
    n = state.config.opening_hand
    for name, cards in zip(state.names, (ev.p1_cards, ev.p2_cards)):
        p = state.player(name)
        p = Z.rep(p, deck_count=p.deck_count - n, hand_count=n, hand_known=tuple(sorted(cards or ())))
        state = state.with_player(p)
    state = Z.rep(state, hands_drawn=True)
    if state.config.mulligan == "none":
        state = start_play(state, ctx.seq)
    return state


def on_mulligan(state: State, ev: Mulligan, ctx: Context) -> State:
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
    p = state.player(ev.player)
    state = state.with_player(Z.rep(p, mulligan_done=True, hand_known=() if ev.take else p.hand_known))
    if all(q.mulligan_done for q in state.players):
        state = start_play(state, ctx.seq)
    return state
