"""The preconditions every DemonBrave transition shares: who is acting, whose turn it is, the
phase, the chain, and the rule ID each event type reports a failed precondition under (§5.4,
DB-ACT-19). Every check raises ``Violation(rule_id, message, code)`` and changes nothing."""

from __future__ import annotations

from adjudicator.engine.kit import event_type
from adjudicator.games.demonbrave.events import (
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
from adjudicator.games.demonbrave.state import State
from adjudicator.engine.protocol import JUDGE, Action, Violation

#: The DB-ACT rule of each event type: reported with WRONG_PHASE, UNIT_NOT_OWNED,
#: CARD_NOT_IN_HAND and ILLEGAL_ACTION (§5.4, DB-ACT-19).
ACT_RULE: dict[type, str] = {
    DbMatchStarted: "DB-ACT-1",
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
    DeclareResult: "DB-RWD-11",
    VoidGame: "DB-RWD-11",
}

#: The judge's events of §8: entered by anyone else, JUDGE_ONLY (DB-RWD-2).
RWD_EVENTS = (JudgeAdjust, DeclareResult, VoidGame, DbRewind, DbCorrect)


def illegal(event: Action, message: str, code: str = "ILLEGAL_ACTION") -> Violation:
    return Violation(ACT_RULE[type(event)], message, code)


def actor(state: State, event: Action, default: str | None) -> str:
    """The acting player: ``player`` if given (entered by that player or the judge), else the
    author, else (the judge without ``player``) ``default``."""
    named = getattr(event, "player", None)
    first, second = state.players  # the names compared one by one: no tuple of them made at every event
    if named is not None:
        if named != first.name and named != second.name:
            raise illegal(event, f"{named!r} is not a player of this match ({', '.join(state.names)})")
        if event.by not in (JUDGE, named):
            raise illegal(event, f"{event.by} cannot enter {event_type(event)} for {named}")
        return named
    by = event.by
    if by != JUDGE:
        if by != first.name and by != second.name:
            raise illegal(event, f"{by!r} is neither a player of this match ({', '.join(state.names)}) nor the judge")
        return by
    if default is None:
        raise illegal(event, f"the judge entering {event_type(event)} must name the player (player=...)")
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


def setup_only(state: State, event: Action) -> None:
    if state.status != "SETUP":
        raise illegal(event, f"{event_type(event)} belongs to the setup, which is over (turn {state.turn_number})")


def judge_only(event: Action) -> None:
    if event.by != JUDGE:
        raise Violation("DB-RWD-2", f"only the judge may enter {event_type(event)}; {event.by} cannot", "JUDGE_ONLY")


def judge_enters(event: Action, what: str) -> None:
    """A setup event only the judge enters (R-DB-9, R-DB-18): refused under its own DB-ACT rule."""
    if event.by != JUDGE:
        raise illegal(event, f"only the judge enters {what}; {event.by} cannot")


def outsider(event: Action, players: tuple[str, ...] | list[str]) -> Violation:
    """The refusal of an event entered by someone who is neither a player of the match nor the
    judge: JUDGE_ONLY for the judge's events (DB-RWD-2), else the event's DB-ACT rule."""
    if isinstance(event, RWD_EVENTS):
        return Violation("DB-RWD-2", f"only the judge may enter {event_type(event)}; {event.by} is not even a player of this match", "JUDGE_ONLY")
    return illegal(event, f"{event.by!r} is neither a player of this match ({', '.join(players)}) nor the judge")
