"""The reducer protocol every game implements, and the errors it speaks.

A game is a module-level object registered by name (``adjudicator.registry``). Its reducer is
pure: ``check`` raises ``Violation`` when an event is illegal now, ``apply`` returns a new state
and never mutates its input; neither reads a clock, a random source or any I/O.

Events are frozen msgspec Structs tagged by ``type``; every game declares a tagged union of its
own event classes, which the fold uses to decode a stored event's fields (``forbid_unknown_fields``
makes a typo an error, not a silently ignored key).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

import msgspec


class Violation(Exception):
    """An action broken against a rule: the rule ID, a plain message, and the chapter's code."""

    def __init__(self, rule_id: str, message: str, code: str | None = None):
        self.rule_id = rule_id
        self.message = message
        self.code = code
        super().__init__(f"{rule_id}: {message}")


class Malformed(Exception):
    """Input that does not decode: unknown action, missing field, wrong type, bad JSON."""

    def __init__(self, message: str, path: str = "$"):
        self.path = path
        self.message = message
        super().__init__(f"{message} (at {path})" if path and path != "$" else message)


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every event class: ``by`` is who entered it (a player name or ``judge``)."""

    by: str


class MatchStarted(Action, tag="match_started"):
    """Seq 1 of every match. Games subclass it to add their setup fields."""

    game: str
    players: tuple[str, ...]
    rules_version: str | None = None
    options: dict[str, Any] = {}


class Rewind(Action, tag="rewind"):
    """Generic rewind: the effective history returns to the state after ``to_seq``."""

    to_seq: int
    reason: str


class Correct(Action, tag="correct"):
    """Generic correction: ``event`` is inserted before ``at_seq`` and later events re-checked."""

    at_seq: int
    event: dict[str, Any]
    reason: str


JUDGE = "judge"

Status = Literal["in_progress", "won", "drawn", "void"]


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    status: Status
    winner: str | None = None
    score: dict[str, int] | None = None
    detail: str = ""


class LegalAction(msgspec.Struct, frozen=True, kw_only=True):
    """One action open now: who may enter it, its type, and a template of its fields.

    ``anytime`` marks actions open at every moment (a concession, a judge's rewind): they do not
    make their author someone the table is waiting for."""

    who: str
    type: str
    fields: str = ""
    note: str = ""
    anytime: bool = False


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    default: Any
    values: str
    rule: str = ""


class NotEffective(KeyError):
    """``Context.state_at`` was asked for a seq that is not in the effective history."""

    def __init__(self, seq: int):
        self.seq = seq
        super().__init__(seq)

    def __str__(self) -> str:
        return f"seq {self.seq} is not an event of the effective history"


class Context(msgspec.Struct, frozen=True, kw_only=True):
    """What a reducer may know beyond the state: the event's seq and the log so far.

    ``log`` is every accepted event before this one, abandoned branches included, as
    ``(seq, event)`` pairs; ``effective`` is the seqs of the effective history in order;
    ``state_at(seq)`` is the state after an effective event, and raises ``NotEffective`` for
    any other seq. Rewind and correction checks use these (design.md: a game's check of a
    rewind sees the whole log). All three are read-only snapshots of the moment the event is
    checked: later events never show through them. When a correction re-checks a later event,
    that event sees the log before its own seq, and the effective history as rebuilt so far.
    """

    seq: int
    log: Sequence[tuple[int, Action]] = ()
    effective: Sequence[int] = ()
    state_at: Callable[[int], Any] | None = None


class Game(Protocol):
    name: ClassVar[str]
    title: ClassVar[str]
    rules_versions: ClassVar[tuple[str, ...]]  # the last one is current
    options: ClassVar[Sequence[OptionSpec]]
    event_type: ClassVar[Any]  # the tagged union of this game's events (MatchStarted first)

    def initial(self, started: Any, ctx: Context) -> Any: ...
    def check(self, state: Any, event: Action, ctx: Context) -> None: ...
    def apply(self, state: Any, event: Action, ctx: Context) -> Any: ...
    def apply_rewind(self, current: Any, target: Any, event: Rewind, ctx: Context) -> Any: ...
    def outcome(self, state: Any) -> Outcome: ...
    def view(self, state: Any, player: str | None = None) -> Mapping[str, Any]: ...
    def describe(self, state: Any, player: str | None = None) -> str: ...
    def legal(self, state: Any) -> list[LegalAction]: ...
    def check_deck(self, deck: Any, options: Mapping[str, Any] | None = None) -> Any: ...
    def read_deck(self, text: str) -> Any: ...

    # Optional members (callers use ``getattr(game, name, None)``; a game may leave them out):
    #   transition(state, event, ctx) -> state  -- check and apply in one pass (raises
    #       Violation, never mutates its input); the fold calls it instead of check + apply,
    #       for games whose check must carry the event out anyway.
    #   milestones(before, after) -> list[str]  -- what an event that changed the score or
    #       ended the match means, in the game's words, for the history view.
    #   notes(state) -> list[str]  -- what the last event set off automatically (the chapter's
    #       derived notes), shown after an accepted action.
    #   correction_conflict: ClassVar[tuple[str, str]]  -- (rule_id, code) under which the fold
    #       reports a correction that makes a later event illegal (see Fold._conflict).
    #   apply_correct(state, event: Correct, ctx) -> state  -- the state after a correction.
    #   explain(state, query: Mapping[str, Any]) -> Mapping[str, Any]  -- a structured answer to
    #       a judge's question about the state (e.g. which of two units is stronger and by
    #       which rule); ``Malformed`` for a query it cannot answer. See ``Explains``.


class Explains(Protocol):
    """A game that can explain its state (optional; see ``Game``)."""

    def explain(self, state: Any, query: Mapping[str, Any]) -> Mapping[str, Any]: ...
