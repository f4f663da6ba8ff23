"""The JSON vocabulary of ``--json``: one shape for a refusal, an event, an outcome, an error, and
the object each command prints, as msgspec types. docs/json.md carries the JSON Schema of each,
generated from these types (``python -m cli.schema`` prints that section; a test keeps it current),
and the tests check every command's output against its type.

Common words: ``events`` is always a count of events, ``history`` always a list of them; an event
carries its own fields as the object ``fields``; every refusal is a ``Refusal``; every other
failure an ``Error``; every outcome an ``Outcome``.
"""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec

from adjudicator.engine.protocol import Choice, Outcome


class _Out(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of every output type: an unknown key is a mismatch."""


class Refusal(_Out, kw_only=True):
    """An action refused by a rule (exit 1): in ``act``, ``new``, ``rewind``, ``correct``; a line
    of ``check`` or ``import`` (``line`` set); a recorded attempt in ``log`` and ``replay``."""

    accepted: Literal[False] = False
    match_id: str | None
    head_seq: int | None  # the seq the log stood at when it was tried
    line: int | None = None  # the line of a match file
    type: str | None
    by: str | None
    rule: str
    code: str | None
    message: str


class Event(_Out, kw_only=True):
    """One stored event: its envelope and its own fields."""

    match_id: str
    seq: int
    type: str
    by: str
    recorded_at: str
    fields: dict[str, Any]
    prev: str | None  # None in a player's export (``--as``): a redacted event has no hash of its own
    hash: str | None


class Change(_Out, kw_only=True):
    path: str
    old: Any = None  # absent when added
    new: Any = None  # absent when removed


class Signer(_Out, kw_only=True):
    """The registered key that signed an event (docs/audit.md)."""

    role: Literal["judge", "player"]
    signer: str


class EventEntry(Event, kw_only=True, tag="event", tag_field="kind"):
    """An event in ``log`` and ``replay`` (``changes``: replay only; ``signed``: log only, null
    for an event no key signed)."""

    abandoned_by: int | None
    signed: Signer | None = None
    changes: list[Change] | None = None
    words: list[dict[str, Any]] | None = None  # replay: the changes in the table's words (the board's)


class AttemptEntry(Refusal, kw_only=True, tag="rejected", tag_field="kind"):
    """A rejected attempt in ``log`` and ``replay``, with the fields that were tried."""

    fields: dict[str, Any]
    recorded_at: str


class Error(_Out, kw_only=True):
    """A failure that is not a refusal by a rule: ``usage``, ``malformed``, ``input`` (exit 2),
    ``unknown_match``, ``exists``, ``store``, ``unsupported``, ``game_unavailable`` (exit 2),
    ``conflict`` (exit 1: another entry landed first), ``integrity`` (exit 3)."""

    error: Literal["usage", "malformed", "input", "unknown_match", "exists", "store", "unsupported",
                   "game_unavailable", "conflict", "integrity"]
    message: str
    path: str | None = None  # where in the input
    match_id: str | None = None
    seq: int | None = None  # integrity: the event that failed
    head_seq: int | None = None  # exists, conflict: where the match stands
    expected_seq: int | None = None  # conflict: where the writer expected it
    written: bool = False


class TableChange(_Out, kw_only=True):
    kind: str
    player: str | None
    zone: str | None
    card: str | None
    from_: Any = msgspec.field(name="from", default=None)
    to: Any = None
    text: str


# -- what each command prints ----------------------------------------------------------------------
class Accepted(_Out, kw_only=True):
    """``act``, ``new``, ``rewind``, ``correct`` when the action is accepted."""

    accepted: Literal[True]
    match_id: str
    seq: int
    event: Event
    outcome: Outcome
    to_move: list[str]
    notes: list[str]
    milestones: list[str]
    changes: list[Change]
    words: list[TableChange]  # the changes on the table in its words (a game that draws a board)
    phase: str | None
    waiting: str | None
    abandoned: list[int] | None = None  # rewind: the seqs it abandoned


class Check(_Out, kw_only=True):
    events: int
    accepted: int
    rejection: Refusal | None
    rejections: list[Refusal]
    outcome: Outcome | None
    state: dict[str, Any] | None


class Imported(_Out, kw_only=True):
    match_id: str
    events: int
    outcome: Outcome


class Exported(_Out, kw_only=True):
    match_id: str
    events: int
    history: list[Event]


class Coverage(_Out, kw_only=True):
    """``adj verify MATCH``: the latest checkpoint (signed by a ``--pubkey`` key, when given) and
    the seqs 1 to ``covered_to`` of the match under it (0: none)."""

    tree_size: int
    root: str
    created_at: str
    key: str
    covered_to: int


class Verified(_Out, kw_only=True):
    match_id: str
    ok: bool
    events: int
    rejections_rechecked: int | None = None
    error: str | None = None
    checkpoint: Coverage | None = None  # verify MATCH: null when no checkpoint verifies


class AuditSummary(_Out, kw_only=True):
    """Over the whole store: the audit tree, its signed checkpoints and the signed decisions
    (docs/audit.md)."""

    ok: bool
    leaves: int
    pending: int  # entries not yet under a checkpoint
    checkpoints: list[Any]
    problems: list[Any]
    decisions: list[dict[str, Any]]


class Verify(_Out, kw_only=True):
    ok: bool
    matches: list[Verified]
    audit: AuditSummary | None = None  # over the whole store only


class Action(_Out, kw_only=True):
    """An action open now: ``fields`` maps each field to its allowed values (a ``Choice``);
    ``text`` is the line ``adj legal`` prints."""

    who: str
    type: str
    fields: dict[str, Choice]
    text: str
    note: str
    anytime: bool


class Legal(_Out, kw_only=True):
    match_id: str
    as_: str | None = msgspec.field(name="as")
    actions: list[Action]
    outcome: Outcome


class MatchRow(_Out, kw_only=True):
    match_id: str
    head_seq: int
    started_at: str  # recorded_at of seq 1
    updated_at: str  # recorded_at of the head: when the match last moved
    game: str | None
    players: list[str]
    outcome: Outcome | None  # None when the match does not read (``error`` says why)
    waiting_for: list[str]  # who the table waits for (the judge's view); empty once the match is over
    error: str | None
    signed: bool  # its decisions must be signed (docs/audit.md)
    signed_by: Literal["judges", "players"] | None


class Matches(_Out, kw_only=True):
    matches: list[MatchRow]


class SummaryRewind(_Out, kw_only=True):
    seq: int
    by: str
    abandoned: bool  # itself cut off by a later rewind
    to_seq: int
    reason: str


class SummaryCorrection(_Out, kw_only=True):
    seq: int
    by: str
    abandoned: bool
    at_seq: int
    inserted: str  # the type of the action it put in
    reason: str


class SummaryNote(_Out, kw_only=True):
    seq: int
    by: str
    abandoned: bool
    at_seq: int
    text: str


class SummaryPenalty(_Out, kw_only=True):
    seq: int
    by: str
    abandoned: bool
    at_seq: int
    player: str
    infraction: str
    penalty: str
    reason: str


class Summary(_Out, kw_only=True):
    """``adj summary``: a match in a few lines."""

    match_id: str
    game: str
    players: list[str]
    events: int
    started_at: str
    updated_at: str
    outcome: Outcome
    turns: int | None  # how many times the turn passed to a player, along the effective history (None: no turn shown)
    rewinds: list[SummaryRewind]
    corrections: list[SummaryCorrection]
    notes: list[SummaryNote]
    penalties: list[SummaryPenalty]
    rejected: int  # attempts refused by a rule


class State(_Out, kw_only=True):
    match_id: str
    seq: int
    head_seq: int
    as_: str | None = msgspec.field(name="as")
    abandoned_by: int | None
    state: dict[str, Any]  # the game's view: its own keys (docs/games/)
    outcome: Outcome
    to_move: list[str]


class Branch(_Out, kw_only=True):
    rewind_seq: int
    to_seq: int
    abandoned: list[int]


class Log(_Out, kw_only=True):
    match_id: str
    game: str
    players: list[str]
    head_seq: int
    as_: str | None = msgspec.field(name="as", default=None)
    history: list[Union[EventEntry, AttemptEntry]]
    branches: list[Branch]
    outcome: Outcome


class Replay(_Out, kw_only=True):
    match_id: str
    from_: int = msgspec.field(name="from")
    to: int
    as_: str | None = msgspec.field(name="as")
    history: list[Union[EventEntry, AttemptEntry]]
    outcome: Outcome


class Option(_Out, kw_only=True):
    name: str
    default: Any
    values: str
    rule: str


class GameRow(_Out, kw_only=True):
    name: str
    title: str | None
    available: bool
    error: str | None = None
    rules_version: str | None
    rules_versions: list[str]
    options: list[Option]
    players: list[int] | None = None  # fewest and most
    reasons: list[str] | None = None  # the outcome reason codes


class Games(_Out, kw_only=True):
    games: list[GameRow]


class DeckProblem(_Out, kw_only=True):
    rule: str
    code: str | None
    message: str


class DeckCheck(_Out, kw_only=True):
    ok: bool
    game: str
    deck: Any
    violations: list[DeckProblem]


class Copied(_Out, kw_only=True):
    copied: list[str]
    from_: str = msgspec.field(name="from")
    to: str


class PageWritten(_Out, kw_only=True):
    """``adj replay --html FILE``."""

    match_id: str
    html: str
    as_: str | None = msgspec.field(name="as")
    events: int
    bytes: int


class Diff(_Out, kw_only=True):
    match_id: str
    from_: int = msgspec.field(name="from")
    to: int
    as_: str | None = msgspec.field(name="as")
    changes: list[TableChange]


class RecordInfo(_Out, kw_only=True):
    """One record of ``adj reconcile``: a file (sealed or not) or a stored match."""

    name: str
    source: Literal["file", "match"]
    sealed: bool
    match_id: str | None
    game: str
    players: list[str]
    lines: int
    actions: int  # the lines compared: every line but notes and confirmations
    outcome: Outcome


class SideVerdict(_Out, kw_only=True):
    """A side's line at the divergence, its verdict from the common prefix, and what it changes."""

    line: int  # a file's line, a stored match's seq; for an event a correction inserted, the correction's
    inserted: bool
    type: str
    by: str
    fields: dict[str, Any]
    accepted: bool
    rule: str | None
    code: str | None
    message: str | None
    changes: list[TableChange]


class Divergence(_Out, kw_only=True):
    kind: Literal["changed", "missing", "extra", "reordered", "different_match"]
    detail: str
    a_line: int | None
    b_line: int | None
    a: SideVerdict | None
    b: SideVerdict | None
    after_line: dict[str, int | None]
    pair: dict[str, int] | None


class Rejoin(_Out, kw_only=True):
    a_line: int
    b_line: int
    run: int
    to_the_end: bool
    same_table: bool


class FirstRefused(_Out, kw_only=True):
    line: int
    type: str
    by: str
    rule: str | None
    code: str | None
    message: str | None


class Version(_Out, kw_only=True):
    actions: int
    accepted: int
    first_refused: FirstRefused | None
    changes: list[TableChange]


class Figure(_Out, kw_only=True):
    player: str | None
    what: str
    a: Any
    b: Any


class SignedHead(_Out, kw_only=True):
    """The last head every player signed in a record (``adj confirm``)."""

    line: int
    seq: int
    hash: str
    by: list[str]
    confirmation_lines: list[int]


class Signatures(_Out, kw_only=True):
    a: SignedHead | None
    b: SignedHead | None
    answered_by: Literal["a", "b"] | None  # the record whose signed head is past the place they part
    text: str | None


class Settled(_Out, kw_only=True):
    take: Literal["A", "B"]
    into: str
    method: Literal["note", "append", "correct", "rewind"]
    events: list[Event]
    abandoned: list[int]


class Reconcile(_Out, kw_only=True):
    """``adj reconcile A B``: printed when the records agree (exit 0) and when they differ (exit 1)."""

    agree: bool
    common: int
    a: RecordInfo
    b: RecordInfo
    divergence: Divergence | None
    rejoin: Rejoin | None
    versions: dict[str, Version] | None
    figures: list[Figure]
    notes: list[str]
    signed: Signatures
    settled: Settled | None = None  # with --take: how the judge's decision went into the stored match


#: command -> (what it prints when it succeeds, what it may print when it fails)
COMMANDS: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "games": (Games, (Error,)),
    "matches": (Matches, (Error,)),
    "summary": (Summary, (Error,)),
    "store copy": (Copied, (Error,)),
    "new": (Accepted, (Refusal, Error)),
    "act": (Accepted, (Refusal, Error)),
    "undo": (Accepted, (Refusal, Error)),
    "rewind": (Accepted, (Refusal, Error)),
    "correct": (Accepted, (Refusal, Error)),
    "legal": (Legal, (Error,)),
    "explain": (dict[str, Any], (Error,)),
    "state": (State, (Error,)),
    "log": (Log, (Error,)),
    "replay": (Replay, (Error,)),
    "replay --html": (PageWritten, (Error,)),
    "note": (Accepted, (Refusal, Error)),
    "penalty": (Accepted, (Refusal, Error)),
    "diff": (Diff, (Error,)),
    "check": (Check, (Check, Error)),
    "import": (Imported, (Refusal, Error)),
    "export": (Exported, (Error,)),
    "verify": (Verify, (Verify, Error)),
    "deck check": (DeckCheck, (DeckCheck, Error)),
    "reconcile": (Reconcile, (Reconcile, Error)),
    "confirm": (Accepted, (Refusal, Error)),
}


def _components() -> tuple[dict[Any, dict[str, Any]], dict[str, Any]]:
    """Each type's schema (a ``$ref`` for a Struct) and the shared ``$defs``."""
    types = list(dict.fromkeys(t for ok, failed in COMMANDS.values() for t in (ok, *failed)))
    parts, defs = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    return dict(zip(types, parts)), defs


def schema(command: str) -> dict[str, Any]:
    """The JSON Schema of what ``adj COMMAND --json`` prints: ``oneOf`` success and failure."""
    ok, failed = COMMANDS[command]
    parts, defs = _components()
    return {"oneOf": [parts[t] for t in dict.fromkeys((ok, *failed))], "$defs": defs}


def matches(command: str, data: Any, *, failed: bool = False) -> Any:
    """``data`` decoded as the type it must have (``msgspec.ValidationError`` if it has none)."""
    ok, fails = COMMANDS[command]
    errors = []
    for tp in fails if failed else (ok,):
        try:
            return msgspec.convert(data, tp, strict=True)
        except msgspec.ValidationError as exc:
            errors.append(f"{tp.__name__ if isinstance(tp, type) else tp}: {exc}")
    raise msgspec.ValidationError("; ".join(errors))


def docs_section() -> str:
    """The "Schemas" section of docs/json.md: per command the ``oneOf``, then the shared ``$defs``."""
    parts, defs = _components()

    def js(obj: Any) -> str:
        return msgspec.json.format(msgspec.json.encode(obj), indent=1).decode()

    out = ["## Schemas", "", "Generated from cli/schema.py (`python -m cli.schema`). Per command, `oneOf` the object",
           "printed on success and those printed on failure; the definitions they refer to follow.", ""]
    for command, (ok, failed) in COMMANDS.items():
        one = msgspec.json.encode({"oneOf": [parts[t] for t in dict.fromkeys((ok, *failed))]}).decode()
        out.append(f"- `adj {command} --json`: `{one}`")
    out += ["", "### $defs", "", "```json", js(defs), "```", ""]
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    print(docs_section())
