"""The Build Divide game object, registered as ``builddivide`` (rules/builddivide.md)."""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.games.builddivide import attack as A
from adjudicator.games.builddivide import deck as D
from adjudicator.games.builddivide import priority as P
from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import rules as R
from adjudicator.games.builddivide import setup as S
from adjudicator.games.builddivide import view as V
from adjudicator.games.builddivide.catalog import decode_catalog
from adjudicator.games.builddivide.config import Options
from adjudicator.games.builddivide.sample import sample_catalog
from adjudicator.games.builddivide.state import State, replace
from adjudicator.games.builddivide.zones import keep_disclosures
from adjudicator.engine.kit import Board, Game, event_type
from adjudicator.engine.protocol import JUDGE, Action, Context, LegalAction, Malformed, Outcome, Violation

RULES_VERSIONS = ("2024-12-14",)


class Reason(enum.StrEnum):
    """How a Build Divide game or match ended (BD-OVR-3/4/5, §8)."""

    ZERO_LIFE_DAMAGE = "zero_life_damage"  # BD-OVR-3a
    DECK_OUT = "deck_out"  # BD-OVR-3b
    CARD_WIN = "card_win"  # BD-OVR-3c
    SIMULTANEOUS_LOSS = "simultaneous_loss"  # BD-RUL-11
    CONCESSION = "concession"  # BD-ACT-26
    JUDGE = "judge"  # BD-ACT-30
    VOID = "void"  # BD-ACT-34
    MATCH = "match"  # best of three: the games decided it


HANDLERS = {
    E.RegisterDeck: S.register_deck, E.Shuffle: S.shuffle, E.PlaceTerritory: S.place_territory,
    E.DecideFirstPlayer: S.decide_first_player, E.DrawOpening: S.draw_opening, E.Mulligan: S.mulligan,
    E.PlaceLife: S.place_life, E.PlaceInitialEnergy: S.place_initial_energy, E.AdvancePhase: R.advance_phase,
    E.Draw: R.draw, E.PlaceEnergy: R.place_energy, E.PlayCard: R.play_card, E.ReleaseTerritory: R.release,
    E.ActivateAbility: R.activate_ability, E.Trigger: R.trigger, E.Pass: P.pass_, E.ResolveTop: R.resolve_top,
    E.DeclareAttack: A.declare_attack, E.DeclareBlock: A.declare_block, E.NoBlock: A.no_block,
    E.ResolveBattle: A.resolve_battle, E.LifeCheck: A.life_check, E.ShotPlay: A.shot_play,
    E.ShotDecline: A.shot_decline, E.EndDiscard: R.end_discard, E.Concede: S.concede, E.JudgeOps: R.judge_ops,
    E.JudgeResult: S.judge_result, E.JudgeVoidGame: S.judge_void_game, E.ConfirmResult: S.confirm_result,
    E.GameCleanup: S.game_cleanup, E.JudgeVoidMatch: S.judge_void_match,
}
#: events still open once a game has a result (BD-OVR-8)
AFTER_RESULT = (E.JudgeResult, E.JudgeVoidGame, E.ConfirmResult, E.GameCleanup, E.JudgeVoidMatch, E.BdRewind, E.BdCorrect)


def _scope_start(s: State) -> int:
    """The earliest seq a rewind may go back to (BD-REW-6)."""
    g = s.game
    if s.options.rewind_scope == "CURRENT_GAME" or g.status == "SETUP":
        return g.opened_at
    return g.turn_started_at


def rewind_gate(s: State, ev: E.BdRewind, ctx: Context) -> None:
    """BD-REW-6 (the kit has refused anyone but a judge under BD-REW-2)."""
    eff = list(ctx.effective)
    if s.game.result_confirmed:
        raise Violation("BD-REW-6", f"game {s.game.game_no}'s result is confirmed: no rewind goes back into it", "CONFIRMED")
    lo = _scope_start(s)
    if ev.to_seq not in eff or ev.to_seq >= eff[-1] or ev.to_seq < lo:
        raise Violation("BD-REW-6", f"a rewind goes back to an earlier event of the {s.options.rewind_scope.lower().replace('_', ' ')} "
                                    f"(seq {lo} to {eff[-1] - 1}), not to seq {ev.to_seq}", "OUT_OF_SCOPE")


def rewind_targets(s: State, ctx: Context) -> Sequence[int]:
    """The seqs ``rewind_gate`` accepts: the effective ones of the scope before the last (BD-REW-6)."""
    if s.game.result_confirmed:
        return ()
    eff = ctx.effective
    return eff[bisect_left(eff, _scope_start(s)): len(eff) - 1]


def correct_gate(s: State, ev: E.BdCorrect, ctx: Context) -> None:
    """BD-REW-13 (the kit has refused anyone but a judge under BD-REW-2)."""
    eff = list(ctx.effective)
    if s.game.result_confirmed:
        raise Violation("BD-REW-13", f"game {s.game.game_no}'s result is confirmed: nothing is inserted into it", "CONFIRMED")
    lo = _scope_start(s)
    if ev.at_seq not in eff or eff.index(ev.at_seq) == 0 or eff[eff.index(ev.at_seq) - 1] < lo:
        raise Violation("BD-REW-13", f"a correction inserts before an event of the {s.options.rewind_scope.lower().replace('_', ' ')} "
                                     f"after seq {lo}, not before seq {ev.at_seq}", "OUT_OF_SCOPE")


class BuildDivide(Game):
    name = "builddivide"
    title = "Build Divide"
    rules_versions = RULES_VERSIONS
    prefix = "BD"
    event_type = E.Event
    Options = Options
    Reason = Reason
    player_count = (2, 2)
    player_count_rule = ("BD-OVR-1", "PLAYER_COUNT")
    author_rule = ("BD-ACT-37", "NOT_IN_MATCH")
    rewind_rule = correct_rule = ("BD-REW-2", "JUDGE_ONLY")
    private_fields = E.PRIVATE_FIELDS

    def initial(self, started: E.BdMatchStarted, ctx: Context) -> State:
        return S.initial(started, ctx)

    def step(self, state: State, event: Action, ctx: Context) -> State:
        handler = HANDLERS.get(type(event))
        if handler is None:  # a rewind or a correction: its gate alone (the kit carries it out)
            if isinstance(event, E.BdRewind):
                rewind_gate(state, event, ctx)
                return state
            if isinstance(event, E.BdCorrect):
                correct_gate(state, event, ctx)
                return state
        g = state.game
        if state.match_result is not None and not isinstance(event, E.JudgeVoidMatch):
            raise Violation("BD-OVR-8", "the match is void: nothing more is entered", "MATCH_OVER")
        if g.status == "ENDED" and not isinstance(event, AFTER_RESULT):
            r = g.result
            raise Violation("BD-OVR-8", f"game {g.game_no} is over ({r.detail if r else ''}): "
                                        f"{event_type(event)} is not entered any more", "GAME_OVER")
        owed = g.shuffle_owed
        if owed and not (isinstance(event, E.Shuffle) and event.player in owed):
            raise Violation("BD-REW-8", f"the rewind put cards drawn by the abandoned events back into {' and '.join(owed)}'s deck "
                                        f"(rewind_card_return SHUFFLE, BD-RUL-43): a shuffle of that deck comes first, "
                                        f"not {event_type(event)}", "SHUFFLE_OWED")
        window = g.release_window
        strict = state.options.strict_priority  # priority is tracked with strict_priority alone (BD-RES-3)
        if strict:
            P.check(state, event)
        if handler is None:
            raise KeyError(type(event))  # not an event of this game
        new = handler(state, event, ctx)
        if strict:
            new = P.after(new, event)
        seq = ctx.seq
        if window is not None and new.game.release_window == window and not isinstance(event, E.ReleaseTerritory):
            return replace(new, game=replace(new.game, release_window=None), seq=seq)  # BD-RUL-45
        return new if new.seq == seq else replace(new, seq=seq)  # a handler may set it in its own copy of the state

    def judge_only_text(self, event: Action) -> str:
        what = "rewind" if isinstance(event, E.BdRewind) else "correct the log"
        return f"only a judge may {what}; {event.by} cannot"

    def rewind_targets(self, state: State, ctx: Context) -> Sequence[int]:
        return rewind_targets(state, ctx)

    def after_rewind(self, current: State, target: State, event: Action, ctx: Context) -> State:
        """The state at ``to_seq``, keeping what the abandoned events revealed (BD-REW-8)."""
        return keep_disclosures(current, target)

    def outcome(self, state: State) -> Outcome:
        return V.outcome(state)

    def view(self, state: State, viewer: str | None = None) -> Mapping[str, Any]:
        return V.view(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> str:
        return V.describe(state, viewer)

    def players_of(self, state: State) -> tuple[str, ...]:
        return state.names

    def legal(self, state: State) -> list[LegalAction]:
        return V.legal(state)

    def board(self, state: State, viewer: str | None = None) -> Board:
        return V.board(state, viewer)

    def explain(self, state: State, query: Mapping[str, Any]) -> Mapping[str, Any]:
        return V.explain(state, query)

    def read_deck(self, text: str) -> dict[str, Any]:
        return D.read(text)

    def check_deck(self, deck: Any, options: Options | None = None) -> list[Violation]:
        """Every violated rule of §2.2, each naming the offending cards; the catalog is the deck
        file's ``catalog`` (a list of BD-EFF-1 entries), else the shipped sample."""
        data = dict(deck)
        entries = data.pop("catalog", None)
        catalog = decode_catalog(entries if entries is not None else sample_catalog())
        try:
            deck_list = msgspec.convert(data, E.DeckList)
        except msgspec.ValidationError as exc:
            raise Malformed(f"deck list: {exc}", "$") from None
        return D.problems(deck_list, catalog, options)

    def check_author(self, event: Action, players: Sequence[str]) -> None:
        if event.by != JUDGE and event.by not in players:
            raise Violation("BD-ACT-37", f"{event.by!r} is neither a player of this match ({', '.join(players)}) nor the judge", "NOT_IN_MATCH")

    def owner_of(self, type_: str, by: str, fields: Mapping[str, Any], name: str, players: Sequence[str]) -> str | None:
        player = fields.get("player")
        return player if isinstance(player, str) else by


GAME = BuildDivide()
