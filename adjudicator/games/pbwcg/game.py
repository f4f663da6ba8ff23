"""The PBWCG game object, registered as ``pbwcg`` (rules/pbwcg.md)."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg import rules as R
from adjudicator.games.pbwcg import view as V
from adjudicator.games.pbwcg.config import Options
from adjudicator.games.pbwcg.decks import deck_problems, read_deck
from adjudicator.games.pbwcg.legal import legal
from adjudicator.games.pbwcg.state import State
from adjudicator.engine.kit import Board, Game
from adjudicator.engine.protocol import Context, LegalAction, Malformed, Outcome, Violation

RULES_VERSION = "pbwcg-2026.1"


class Reason(enum.StrEnum):
    """How a PBWCG battle ended (PBW-OVR-3, -4, -6)."""

    HP_ZERO = "hp_zero"  # the opponent's HP reached 0 or below
    BOTH_HP_ZERO = "both_hp_zero"  # both at one check (PBW-RUL-3)
    SURRENDER = "surrender"
    AGREEMENT = "agreement"  # draw by agreement (PBW-ACT-30)


_TEXT = {
    Reason.HP_ZERO: "the opponent's HP reached 0",
    Reason.BOTH_HP_ZERO: "both players' HP reached 0 at one check",
    Reason.SURRENDER: "a loser's declaration",
    Reason.AGREEMENT: "draw by agreement",
}


class Pbwcg(Game):
    name = "pbwcg"
    title = "PBWCG"
    rules_versions = (RULES_VERSION,)
    prefix = "PBW"
    event_type = E.Event
    Options = Options
    Reason = Reason
    #: two players (PBW-OVR-1), or up to 8 under local rule D, whose player_count ``initial`` matches
    #: with the players listed (PBW-RUL-47)
    player_count = (2, 8)
    player_count_rule = ("PBW-OVR-1", "PLAYER_COUNT")
    author_rule = ("PBW-TURN-8", "NOT_ACTOR")
    private_fields = E.PRIVATE_FIELDS
    #: None: a correction that breaks a later event is refused by the rule that event now breaks,
    #: the message naming its seq (PBW-COR-5, as the chapter's examples EX-15 and EX-16 state)
    correction_conflict = None
    #: no kit gate: players correct and go back too, with their confirmations (PBW-COR-3, PBW-COR-14)
    rewind_rule = correct_rule = None

    def initial(self, started: E.PbwMatchStarted, ctx: Context) -> State:
        return R.initial(started, ctx)

    #: the transition itself, not a method that calls it: ``game.step(state, event, ctx)`` runs
    #: once for every event folded
    step = staticmethod(R.step)

    def undo_fields(self, state: State, requester: str, confirmer: str) -> dict[str, Any]:
        # PBW-COR-11: a mistyped entry is a record fix, confirmed by both players (and the judge if present)
        return {"basis": "record_fix", "confirmations": list(dict.fromkeys((requester, confirmer)))}

    def outcome(self, state: State) -> Outcome:
        r = state.result
        best = state.options.best_of
        if best > 1:  # §15: battles won; the match is won with more than best_of / 2 of them
            score = state.battles_won()
            winner = state.match_winner()
            if winner is None or r is None:
                return Outcome(status="in_progress", score=score)
            reason = Reason(r.reason)
            return Outcome(status="won", winner=winner, score=score, reason=reason.value,
                           detail=f"{score[winner]} battles of best of {best}; battle {state.battle}: {_TEXT[reason]}")
        if r is None:
            return Outcome(status="in_progress")
        reason = Reason(r.reason)
        return Outcome(status=r.status, winner=r.winner, reason=reason.value, detail=_TEXT[reason])

    def milestones(self, before: State, after: State) -> list[str]:
        """A battle's result in a match of several (PBW-RUL-5), then the match's."""
        out = []
        r = after.result
        if after.options.best_of > 1 and r is not None and before.result != r:
            said = f"won by {r.winner}" if r.winner else "drawn"
            out.append(f"battle {after.battle} {said} ({_TEXT[Reason(r.reason)]})")
        return out + super().milestones(before, after)

    def view(self, state: State, viewer: str | None = None) -> Mapping[str, Any]:
        return V.view(state, viewer)

    def describe(self, state: State, viewer: str | None = None) -> str:
        return V.describe(state, viewer)

    def board(self, state: State, viewer: str | None = None) -> Board:
        return V.board(state, viewer)

    def legal(self, state: State) -> list[LegalAction]:
        return legal(state)

    def rewind_offer(self, state: State, ctx: Context) -> list[LegalAction]:
        """None: a rewind needs a basis and the confirmations it calls for (PBW-COR-1, PBW-COR-14),
        which the table gives when it goes back, and is not offered."""
        return []

    def explain(self, state: State, query: Mapping[str, Any]) -> Mapping[str, Any]:
        return V.explain(state, query)

    def notes(self, state: State) -> list[str]:
        return list(state.notes)

    def after_rewind(self, current: State, target: State, event: E.PbwRewind, ctx: Context) -> State:
        """The state at ``to_seq`` (design.md), with the rewind's own note in place of what that
        event set off, which the rewind did not do again."""
        return msgspec.structs.replace(target, notes=(f"back to seq {event.to_seq} ({event.basis})",))

    def players_of(self, state: State) -> Sequence[str]:
        return state.names()

    def read_deck(self, text: str) -> dict[str, Any]:
        return read_deck(text)

    def check_deck(self, deck: Any, options: Options | None = None) -> list[Violation]:
        """Every problem of one player's registration (PBW-DECK-10), each with its rule ID."""
        try:
            parsed = msgspec.convert(deck, E.PlayerDeck)
        except msgspec.ValidationError as exc:
            raise Malformed(f"deck: {exc}", "$") from None
        return deck_problems(parsed, options or Options())

    def owner_of(self, type_: str, by: str, fields: Mapping[str, Any], name: str, players: Sequence[str]) -> str | None:
        player = fields.get("player")
        return player if isinstance(player, str) else by


GAME = Pbwcg()
