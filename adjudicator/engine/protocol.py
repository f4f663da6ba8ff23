"""The reducer protocol every game implements, and the errors it speaks.

The values every game and the fold speak: events, violations, outcomes, legal actions, the
context of a step. The game contract itself is ``adjudicator.engine.kit.Game``.

Events are frozen msgspec Structs tagged by ``type``; every game declares a tagged union of its
own event classes, which the fold uses to decode a stored event's fields (``forbid_unknown_fields``
makes a typo an error, not a silently ignored key).
"""

from collections.abc import Callable, Sequence
from typing import Any, Literal

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


class Action(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True, gc=False):
    """Base of every event class: ``by`` is who entered it (a player name or ``judge``).

    ``gc=False``: an event is data decoded from JSON and never refers back to what holds it, so
    it cannot be part of a reference cycle; untracked, the events a process keeps (every event of
    every match it folded) are not walked by each collection."""

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
    """How a match stands: ``status``, the ``winner``, the ``score`` in games or sets where a
    match has several, the ``reason`` it ended (a code from the game's ``Reason`` enum, as in
    python-chess's ``Termination``) and ``detail``, that reason in plain words."""

    status: Status
    winner: str | None = None
    score: dict[str, int] | None = None
    reason: str | None = None
    detail: str = ""


class Choice(msgspec.Struct, frozen=True, kw_only=True):
    """What one field of a legal action may hold (``adjudicator.engine.kit`` builds them).

    - ``one``: exactly one of ``values`` (a value may itself be a list, e.g. a valid pair);
    - ``some``: a list of distinct items of ``values``, between ``min`` and ``max`` long; every
      such list is legal, in any order;
    - ``int``: a whole number from ``min`` to ``max``;
    - ``text``: free text (a reason), non-empty.

    ``optional`` fields may be left out."""

    kind: Literal["one", "some", "int", "text"]
    values: tuple[Any, ...] = ()
    min: int = 0
    max: int | None = None
    optional: bool = False


class LegalAction(msgspec.Struct, frozen=True, kw_only=True):
    """One action open now: who may enter it, its type, and a template of its fields.

    ``choices`` gives every field's allowed values, so a program (or a test playing at random)
    can build the action; ``anytime`` marks actions open at every moment (a concession, a judge's rewind): they do not
    make their author someone the table is waiting for."""

    who: str
    type: str
    fields: str = ""  # as printed; derived from ``choices`` when left empty
    note: str = ""
    anytime: bool = False
    choices: dict[str, Choice] = {}


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
