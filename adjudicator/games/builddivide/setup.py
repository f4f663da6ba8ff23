"""Match creation, deck registration and the setup steps of a game (rules §3, BD-ACT-1…8, 35),
and the events that close a game or the match (BD-ACT-26, 30…34)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from adjudicator.games.builddivide import deck as D
from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.catalog import decode_catalog
from adjudicator.games.builddivide.config import Options
from adjudicator.games.builddivide.state import GameState, Player, Result, State, Territory, replace
from adjudicator.engine.kit import decode_options, event_type
from adjudicator.engine.protocol import JUDGE, Context, Malformed, Violation

STEP_NAMES = {1: "shuffle", 3: "place_territory", 4: "decide_first_player", 5: "draw_opening", 6: "mulligan",
              7: "place_life", 8: "place_initial_energy"}


def initial(started: E.BdMatchStarted, ctx: Context) -> State:
    options = decode_options(Options, started.options, "Build")
    catalog = decode_catalog(started.catalog)
    names = tuple(started.players)
    for who in started.decks:
        if who not in names:
            raise Malformed(f"decks names {who!r}, who is not a player of this match", f"$.decks.{who}")
    s = State(names=(names[0], names[1]), options=options, catalog=catalog, catalog_version=started.catalog_version,
              wins={n: 0 for n in names}, seq=ctx.seq)
    for who, deck in started.decks.items():
        found = D.problems(deck, catalog, options)
        if found:
            raise D.rejection(who, found)
    s = replace(s, decks=dict(started.decks))
    return open_game(s, 1, ctx.seq)


def fresh_player(s: State, name: str) -> Player:
    deck = s.decks.get(name)
    if deck is None:
        return Player(name=name)
    return Player(name=name, deck_count=len(deck.main), unseen=dict(Counter(deck.main)), d_deck=deck.d_deck,
                  territory=Territory(name=deck.territory), entered={deck.territory: 1})  # in play from setup step 3


def open_game(s: State, game_no: int, seq: int) -> State:
    players = tuple(fresh_player(s, n) for n in s.names)
    return replace(s, game=GameState(game_no=game_no, opened_at=seq, players=players))


def _act_for(ev: E.Action, player: str, rule: str, s: State) -> None:
    if player not in s.names:
        raise Violation(rule, f"{player!r} is not a player of this match ({', '.join(s.names)})", "NOT_A_PLAYER")
    if ev.by not in (JUDGE, player):
        raise Violation(rule, f"{ev.by} cannot enter this for {player}: only {player} or a judge may", "NOT_ALLOWED")


def _setup_step(s: State, step: int, ev: E.Action) -> None:
    g = s.game
    if g.status != "SETUP":
        raise Violation("BD-SET-1", f"{STEP_NAMES[step]} belongs to the setup, and game {g.game_no} has already started", "OUT_OF_ORDER")
    if g.setup_step != step:
        raise Violation("BD-SET-1", f"setup is at step {g.setup_step} ({STEP_NAMES.get(g.setup_step, '?')}"
                                    f"{' by both players' if g.setup_step != 4 else ''}); {STEP_NAMES[step]} is step {step}",
                        "OUT_OF_ORDER")


def _done(s: State, p: Player, step: int, next_step: int) -> State:
    s = Z.put(s, replace(p, setup_done=p.setup_done + (step,)))
    if all(step in q.setup_done for q in s.game.players):
        s = Z.set_game(s, setup_step=next_step)
    return s


def _once(s: State, p: Player, step: int, rule: str = "BD-SET-1") -> None:
    if step in p.setup_done:
        raise Violation(rule, f"{p.name} has already done {STEP_NAMES[step]} in this setup", "OUT_OF_ORDER")


def register_deck(s: State, ev: E.RegisterDeck, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-1", s)
    g = s.game
    if g.status != "SETUP" or any(1 in p.setup_done for p in g.players):
        raise Violation("BD-SET-1", f"{ev.player}'s deck list can be registered only before the shuffle of setup step 1", "OUT_OF_ORDER")
    deck = E.DeckList(main=ev.main, d_deck=ev.d_deck, territory=ev.territory, checklist=ev.checklist, judge_approval=ev.judge_approval)
    found = D.problems(deck, s.catalog, s.options)
    if found:
        raise D.rejection(ev.player, found)
    s = replace(s, decks={**s.decks, ev.player: deck})
    return Z.put(s, fresh_player(s, ev.player))


def shuffle(s: State, ev: E.Shuffle, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-2", s)
    if ev.player in s.game.shuffle_owed:  # rewind_card_return SHUFFLE (BD-REW-8)
        return replace(s, game=replace(s.game, shuffle_owed=tuple(n for n in s.game.shuffle_owed if n != ev.player)))
    if s.game.status == "IN_PROGRESS":
        return s  # a shuffle a rule or an op requires: knowledge only
    _setup_step(s, 1, ev)
    missing = [n for n in s.names if n not in s.decks]
    if missing:
        raise Violation("BD-DECK-22", f"setup cannot start: no valid deck list registered for {', '.join(missing)}", "NO_DECK")
    p = Z.player(s, ev.player)
    _once(s, p, 1)
    return _done(s, p, 1, 3)


def place_territory(s: State, ev: E.PlaceTerritory, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-3", s)
    _setup_step(s, 3, ev)
    p = Z.player(s, ev.player)
    _once(s, p, 3)
    p = replace(p, territory=replace(p.territory, face="CHARACTER", standing=True, placed=True))
    return _done(s, p, 3, 4)


def decide_first_player(s: State, ev: E.DecideFirstPlayer, ctx: Context) -> State:
    _setup_step(s, 4, ev)
    if ev.first_player not in s.names:
        raise Violation("BD-ACT-4", f"{ev.first_player!r} is not a player of this match ({', '.join(s.names)})", "NOT_A_PLAYER")
    chooser = loser_chooses(s)
    if chooser is not None and ev.by not in (JUDGE, chooser):
        raise Violation("BD-ACT-4", f"{chooser} lost the last game and chooses who goes first (next_game_first_player LOSER_CHOOSES), "
                                    f"not {ev.by}", "NOT_ALLOWED")
    return Z.set_game(s, first_player=ev.first_player, setup_step=5)


def loser_chooses(s: State) -> str | None:
    """With ``next_game_first_player`` LOSER_CHOOSES, the loser of the last decided game (BD-RUL-13)."""
    if s.options.next_game_first_player != "LOSER_CHOOSES":
        return None
    last = next((r for r in reversed(s.past) if r.winner is not None), None)
    return None if last is None else Z.opponent(s, last.winner)


def _private_cards(private: dict[str, Any], key: str, n: int) -> tuple[str | None, ...]:
    """The cards named in ``private`` (their shape checked when the event was decoded), else n unknown ones."""
    cards = private.get(key)
    return (None,) * n if cards is None else tuple(cards)


def draw_opening(s: State, ev: E.DrawOpening, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-5", s)
    _setup_step(s, 5, ev)
    p = Z.player(s, ev.player)
    _once(s, p, 5)
    if p.deck_count < 5:
        raise Violation("BD-ACT-5", f"{p.name}'s deck holds {p.deck_count} cards, fewer than the 5 of an opening hand", "SHORT_DECK")
    p = replace(p, deck_count=p.deck_count - 5, deck_draws=p.deck_draws + 5, hand=_private_cards(ev.private, "cards", 5))
    return _done(s, p, 5, 6)


def mulligan(s: State, ev: E.Mulligan, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-6", s)
    p = Z.player(s, ev.player)
    if p.mulligan != "UNDECIDED":  # BD-SET-2, BD-LIM-3: once, and only in setup
        raise Violation("BD-SET-2", f"{p.name} has already decided on the mulligan ({p.mulligan})", "ALREADY_DECIDED")
    _setup_step(s, 6, ev)
    hand = _private_cards(ev.private, "new_cards", 5) if ev.redraw else p.hand
    p = replace(p, hand=hand, mulligan="REDRAWN" if ev.redraw else "KEPT", deck_draws=p.deck_draws + (5 if ev.redraw else 0))
    return _done(s, p, 6, 7)


def place_life(s: State, ev: E.PlaceLife, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-7", s)
    if s.game.setup_step == 6:
        waiting = [q.name for q in s.game.players if q.mulligan == "UNDECIDED"]
        raise Violation("BD-SET-1", f"the life zones are placed after both mulligan decisions; {', '.join(waiting)} has not decided",
                        "OUT_OF_ORDER")
    _setup_step(s, 7, ev)
    p = Z.player(s, ev.player)
    _once(s, p, 7)
    if p.deck_count < 10:
        raise Violation("BD-ACT-7", f"{p.name}'s deck holds {p.deck_count} cards, fewer than the 10 life cards", "SHORT_DECK")
    p = replace(p, deck_count=p.deck_count - 10, life=(None,) * 10)
    return _done(s, p, 7, 8)


def place_initial_energy(s: State, ev: E.PlaceInitialEnergy, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-8", s)
    _setup_step(s, 8, ev)
    p = Z.player(s, ev.player)
    _once(s, p, 8)
    if len(ev.cards) != 2:
        raise Violation("BD-ACT-8", f"{p.name} places exactly 2 initial energy cards, not {len(ev.cards)}", "WRONG_COUNT")
    for name in ev.cards:
        p = Z.reveal(s, p, name, "deck")
    p = replace(p, deck_count=p.deck_count - 2)
    for name in ev.cards:
        p = Z.add_energy(p, name)
    s = _done(s, p, 8, 9)
    if s.game.setup_step == 9:  # BD-SET-1 step 9: turn 1 is the first player's, in the stand phase
        s = Z.set_game(s, status="IN_PROGRESS", turn_number=1, turn_player=s.game.first_player, phase="STAND",
                       turn_started_at=ctx.seq)
    return s


# -- closing a game or the match ----------------------------------------------------------------------
def concede(s: State, ev: E.Concede, ctx: Context) -> State:
    _act_for(ev, ev.player, "BD-ACT-26", s)
    return Z.end_game(s, Z.opponent(s, ev.player), "concession", f"{ev.player} concedes")


def _judge(ev: E.Action, rule: str) -> None:
    if ev.by != JUDGE:
        raise Violation(rule, f"only a judge enters {event_type(ev)}; {ev.by} cannot", "JUDGE_ONLY")


def judge_result(s: State, ev: E.JudgeResult, ctx: Context) -> State:
    _judge(ev, "BD-ACT-30")
    if s.game.deck_loss_owed:
        return _deck_loss(s, ev, ctx)
    if s.game.result_confirmed:
        raise Violation("BD-REW-10", f"game {s.game.game_no}'s result is confirmed; only judge_void_game changes it now", "CONFIRMED")
    if ev.winner is not None and ev.winner not in s.names:
        raise Violation("BD-ACT-30", f"{ev.winner!r} is not a player of this match", "NOT_A_PLAYER")
    return Z.end_game(s, ev.winner, "judge", ev.reason)


def _deck_loss(s: State, ev: E.JudgeResult, ctx: Context) -> State:
    """BD-REW-12 with ``illegal_deck_policy`` GAME_LOSS: the game is lost by the offender, whom the
    judge names by the winner; the result replaces the game's (confirmed or not) and the match
    goes on as after a clean check."""
    if ev.winner not in s.names:
        raise Violation("BD-REW-12", f"mixed cards were found and the policy is GAME_LOSS: the judge names the winner "
                                     f"(the offender's opponent, one of {', '.join(s.names)}), not {ev.winner!r}", "WINNER_NEEDED")
    result = Result(winner=ev.winner, reason="judge", detail=f"game loss for {Z.opponent(s, ev.winner)} (mixed cards): {ev.reason}")
    s = Z.set_game(s, result=result, result_confirmed=True, deck_loss_owed=False)
    if match_over(s, result):
        return s
    return open_game(replace(s, past=s.past + (result,)), s.game.game_no + 1, ctx.seq)


def confirm_result(s: State, ev: E.ConfirmResult, ctx: Context) -> State:
    _judge(ev, "BD-ACT-32")
    if s.game.status != "ENDED" or s.game.result_confirmed:
        raise Violation("BD-ACT-32", f"game {s.game.game_no} has no unconfirmed result to confirm", "NO_RESULT")
    return Z.set_game(s, result_confirmed=True)


def match_over(s: State, extra: Result | None = None) -> bool:
    results = list(s.past) + ([extra] if extra is not None else [])
    if s.match_result is not None:
        return True
    if s.options.best_of == 1:
        return any(r.reason != "void" for r in results)
    return any(sum(1 for r in results if r.winner == n and r.reason != "void") >= 2 for n in s.names)


def game_cleanup(s: State, ev: E.GameCleanup, ctx: Context) -> State:
    _judge(ev, "BD-ACT-33")  # a judge event (never entered by players), its author checked first (BD-ACT-37)
    if s.game.status != "ENDED" or s.game.cleaned_up:
        raise Violation("BD-ACT-33", f"game {s.game.game_no} has not ended (or is cleaned up already): the post-game check comes after a result",
                        "NOT_ENDED")
    s = Z.set_game(s, cleaned_up=True)
    if ev.mixed_cards_found and s.options.illegal_deck_policy == "VOID":
        void = Result(winner=None, reason="void", detail="mixed cards found at game_cleanup (illegal_deck_policy VOID)")
        return open_game(replace(s, past=s.past + (void,)), s.game.game_no + 1, ctx.seq)
    if ev.mixed_cards_found and s.options.illegal_deck_policy == "GAME_LOSS":
        return Z.set_game(s, deck_loss_owed=True)  # BD-REW-12: the offender is the judge's finding
    if ev.mixed_cards_found or match_over(s, s.game.result):
        return s  # BD-RUL-44: the judge decides (judge_result or judge_void_game)
    return open_game(replace(s, past=s.past + (s.game.result,)), s.game.game_no + 1, ctx.seq)


def judge_void_game(s: State, ev: E.JudgeVoidGame, ctx: Context) -> State:
    _judge(ev, "BD-ACT-31")
    if s.game.deck_loss_owed:
        raise Violation("BD-REW-12", "mixed cards were found and illegal_deck_policy is GAME_LOSS, not VOID: the judge enters "
                                     "judge_result naming the offender's opponent as the winner", "GAME_LOSS_POLICY")
    if s.match_result is not None:
        raise Violation("BD-ACT-31", "the match is void: no game follows", "MATCH_VOID")
    void = Result(winner=None, reason="void", detail=ev.note or "judge_void_game")
    return open_game(replace(s, past=s.past + (void,)), s.game.game_no + 1, ctx.seq)


def judge_void_match(s: State, ev: E.JudgeVoidMatch, ctx: Context) -> State:
    """BD-ACT-34, BD-REW-11: every game of the match becomes VOID, the current one included, and
    the match closes without a result: nothing of it counts."""
    _judge(ev, "BD-ACT-34")
    void = Result(winner=None, reason="void", detail=ev.note or "judge_void_match")
    past = tuple(r if r.reason == "void" else Result(winner=None, reason="void", detail=f"void with the match (was: {r.detail})")
                 for r in s.past)
    s = Z.set_game(s, status="VOID", result=void, attack=None, damage=None, pending_damage=(), release_window=None)
    return replace(s, past=past, match_result=void)
