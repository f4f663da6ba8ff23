"""What the server takes and answers, as msgspec Structs: the OpenAPI document is generated from
these classes, and each response is one of them.

The answers are the JSON of the command line's ``--json`` (docs/json.md, "One vocabulary"): an
accepted action, the state, the open actions, the log, a refusal and an error have the same keys
here as there (``tests/test_server_api.py`` reads every answer with the CLI's own types,
``cli/schema.py``). What is the server's own: the requests, a created match with its seats'
tokens, the list of matches with filters, and the errors of credentials (``unauthorized``,
``forbidden``), of size (``too_large``) and of an unknown route (``not_found``).
"""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec

from adjudicator.engine.protocol import Choice, Outcome


class _In(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base of a request: an unknown key is malformed input, named."""


class _Out(msgspec.Struct, kw_only=True):
    """Base of an answer."""


# -- requests ---------------------------------------------------------------------------------------
class CreateMatch(_In, kw_only=True):
    """``POST /matches`` (a judge): a match of ``game`` between ``players`` in seat order.
    ``decks`` maps a player to the text of a deck file (what ``adj new --deck`` reads);
    ``setup`` holds any other ``match_started`` field (a catalog, a first player...)."""

    game: str
    players: list[str]
    id: str | None = None
    options: dict[str, Any] = {}
    decks: dict[str, str] = {}
    setup: dict[str, Any] = {}


class Entry(_In, kw_only=True):
    """``POST /matches/{id}/events``: one action. Its own fields sit beside ``type`` (as on a line
    of a match file); ``by`` defaults to the caller (a seat's player, or ``judge``); ``key`` makes a
    retry idempotent; ``expect_seq`` refuses the entry (409) unless the match's head is that seq."""

    type: str
    by: str | None = None
    key: str | None = None
    expect_seq: int | None = None


#: The keys of an entry that are not the action's own fields.
ENTRY_KEYS = ("type", "by", "key", "expect_seq")


# -- the vocabulary of --json -------------------------------------------------------------------------
class Event(_Out, kw_only=True):
    match_id: str
    seq: int
    type: str
    by: str
    recorded_at: str
    fields: dict[str, Any]
    prev: str | None  # None where a field was hidden from the caller: the hash would betray it
    hash: str | None


class Change(_Out, kw_only=True):
    path: str
    old: Any = msgspec.UNSET
    new: Any = msgspec.UNSET


class Accepted(_Out, kw_only=True):
    """An accepted action (201), as ``adj act --json`` prints it, seen by the caller."""

    accepted: Literal[True] = True
    match_id: str
    seq: int
    event: Event
    outcome: Outcome
    to_move: list[str]
    notes: list[str]
    milestones: list[str]
    changes: list[Change]
    words: list[dict[str, Any]]
    phase: str | None
    waiting: str | None
    abandoned: list[int] | msgspec.UnsetType = msgspec.UNSET  # a rewind: the seqs it abandoned


class Refusal(_Out, kw_only=True):
    """An action refused by a rule (422): the refusal of ``adj act --json``, with ``error``."""

    error: Literal["rejected"] = "rejected"
    accepted: Literal[False] = False
    match_id: str | None
    head_seq: int | None
    line: int | None = None
    type: str | None
    by: str | None
    rule: str
    code: str | None
    message: str


class Error(_Out, kw_only=True, omit_defaults=True):
    """Any failure but a refusal by a rule, with the CLI's kinds and the server's own."""

    error: Literal["usage", "malformed", "input", "unknown_match", "exists", "store", "unsupported",
                   "game_unavailable", "conflict", "integrity", "unauthorized", "forbidden", "too_large",
                   "not_found"]
    message: str
    path: str | None = None
    match_id: str | None = None
    seq: int | None = None
    head_seq: int | None = None
    expected_seq: int | None = None
    written: bool = False


class State(_Out, kw_only=True):
    match_id: str
    seq: int
    head_seq: int
    as_: str | None = msgspec.field(name="as")
    abandoned_by: int | None
    state: dict[str, Any]
    outcome: Outcome
    to_move: list[str]


class Action(_Out, kw_only=True):
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


class EventEntry(Event, kw_only=True, tag="event", tag_field="kind"):
    abandoned_by: int | None
    signed: dict[str, str] | None | msgspec.UnsetType = msgspec.UNSET  # who signed it (role, signer); null: nobody


class AttemptEntry(_Out, kw_only=True, tag="rejected", tag_field="kind"):
    accepted: Literal[False] = False
    match_id: str | None
    head_seq: int | None
    line: int | None = None
    type: str | None
    by: str | None
    rule: str
    code: str | None
    message: str
    fields: dict[str, Any]
    recorded_at: str


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


class Exported(_Out, kw_only=True):
    """``adj export --json``: the judge's is the sealed log; another caller's a view (no hashes)."""

    match_id: str
    events: int
    history: list[Event]


class Verified(_Out, kw_only=True):
    match_id: str
    ok: bool
    events: int
    rejections_rechecked: int | None = None
    error: str | None = None


# -- the server's own -----------------------------------------------------------------------------------
class Seat(_Out, kw_only=True):
    """A seat's credential: its secret ``token`` and its ``url`` (the token in the fragment, which
    a browser never sends to a server), with that url as an SVG QR code to print for the table."""

    token: str
    url: str
    qr_svg: str


class Created(_Out, kw_only=True):
    match_id: str
    seats: dict[str, Seat]
    spectator_url: str
    accepted: Accepted


class MatchRow(_Out, kw_only=True):
    """A row of ``adj matches --json``."""

    match_id: str
    head_seq: int
    started_at: str
    updated_at: str
    signed: bool
    signed_by: str | None
    game: str | None
    players: list[str]
    outcome: Outcome | None
    waiting_for: list[str]  # who the table waits for, as the caller may know it
    error: str | None = None


class Matches(_Out, kw_only=True):
    matches: list[MatchRow]


class Revoked(_Out, kw_only=True):
    match_id: str
    player: str
    revoked: int  # how many tokens of that seat stopped working


AnyError = Union[Refusal, Error]
