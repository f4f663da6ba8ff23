"""The generic fold: stored events -> typed events -> state, with rewinds and corrections.

The *effective history* is the list of entries whose states lead to the current state. An
accepted ``rewind`` cuts it back to ``to_seq`` and appends itself; the cut entries stay in the
log as an abandoned branch. An accepted ``correct`` inserts its event before ``at_seq`` and
re-checks every later effective entry; the first one that no longer holds rejects the
correction. Games gate both through their own ``check`` (which sees the whole log) and shape
the state after a rewind through ``apply_rewind``.

``Fold.advance`` computes everything before it changes anything, so a rejected event leaves the
fold exactly as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import msgspec

from adjudicator.protocol import (
    Action,
    Context,
    Correct,
    Game,
    Malformed,
    MatchStarted,
    Rewind,
    Violation,
)
from events.envelope import ENVELOPE_KEYS, StoredEvent

#: Rule IDs of the spine itself, for what no game chapter covers.
RULE_REWIND_TARGET = "ADJ-REW-1"
RULE_CORRECT_TARGET = "ADJ-COR-1"


class Entry(NamedTuple):
    seq: int  # the stored seq; for an inserted event, the seq of the correct that inserted it
    event: Action
    state: Any  # the state after this entry
    inserted: bool = False


class Branch(NamedTuple):
    rewind_seq: int
    to_seq: int
    abandoned: tuple[int, ...]


def decode_event(game: Game, type_: str, by: str, fields: Mapping[str, Any], *, strict: bool = True, path: str = "$") -> Action:
    """Decode one event of ``game`` from its type, author and fields, or raise ``Malformed``."""
    clash = ENVELOPE_KEYS.intersection(fields) - {"type", "by"}
    if clash:
        raise Malformed(f"field {sorted(clash)[0]!r} is reserved for the envelope", f"{path}.{sorted(clash)[0]}")
    data = dict(fields)
    data["type"] = type_
    data["by"] = by
    try:
        return msgspec.convert(data, game.event_type, strict=strict)
    except msgspec.ValidationError as exc:
        raise malformed_from(exc, type_, path) from None


def malformed_from(exc: msgspec.ValidationError, type_: str, path: str = "$") -> Malformed:
    text = str(exc)
    where = path
    if " - at `" in text:
        text, _, at = text.partition(" - at `")
        where = path + at.rstrip("`")[1:]
    if text.startswith("Invalid value") and "type" in where[-5:]:
        return Malformed(f"unknown action {type_!r}", where)
    return Malformed(f"{type_}: {text}", where)


class Fold:
    """Incremental adjudication of one match."""

    def __init__(self, game: Game, match_id: str):
        self.game = game
        self.match_id = match_id
        self.log: list[tuple[int, Action]] = []
        self.entries: list[Entry] = []
        self.branches: list[Branch] = []
        self.history: dict[int, Any] = {}  # state right after each stored seq was folded
        self._pos: dict[int, int] = {}
        self._effective_seqs: list[int] = []

    # -- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.entries[-1].state if self.entries else None

    @property
    def head(self) -> int:
        return self.log[-1][0] if self.log else 0

    def state_at(self, seq: int) -> Any:
        """The state right after event ``seq`` was folded (in its own branch, if abandoned)."""
        return self.history[seq]

    def effective_seqs(self) -> set[int]:
        return {e.seq for e in self.entries if not e.inserted}

    def context(self, seq: int) -> Context:
        return Context(
            seq=seq,
            log=self.log,
            effective=self._effective_seqs,
            state_at=lambda s: self.entries[self._pos[s]].state,
        )

    # -- folding -----------------------------------------------------------------------------
    def decode(self, stored: StoredEvent) -> Action:
        return decode_event(self.game, stored.type, stored.by, stored.fields)

    def advance(self, event: Action, seq: int) -> Any:
        """Check ``event`` as the event at ``seq`` and fold it in; raise and change nothing if illegal."""
        new_entries, branch = self._compute(self.entries, self._pos, event, seq)
        # commit
        self.log.append((seq, event))
        if new_entries is None:  # plain append
            self.entries.append(branch)  # type: ignore[arg-type]
            self._pos[seq] = len(self.entries) - 1
            self._effective_seqs.append(seq)
        else:
            self.entries = new_entries
            self._pos = {e.seq: i for i, e in enumerate(new_entries) if not e.inserted}
            self._effective_seqs = [e.seq for e in new_entries if not e.inserted]
            if branch is not None:
                self.branches.append(branch)
        self.history[seq] = self.entries[-1].state
        return self.entries[-1].state

    def preview(self, event: Action, seq: int) -> Any:
        """The state ``event`` would lead to, without folding it in (raises if illegal)."""
        new_entries, entry = self._compute(self.entries, self._pos, event, seq)
        return (new_entries[-1] if new_entries is not None else entry).state

    def _compute(self, entries: list[Entry], pos: dict[int, int], event: Action, seq: int):
        """Returns (None, new Entry) for a plain append, or (new entry list, Branch | None)."""
        game = self.game
        if isinstance(event, MatchStarted):
            if entries:
                raise Malformed("match_started may only be the first event of a match", "$.type")
            state = game.initial(event, Context(seq=seq))
            return None, Entry(seq, event, state)
        if not entries:
            raise Malformed(f"a match begins with match_started, not {event_type(event)!r}", "$.type")
        ctx = Context(
            seq=seq,
            log=self.log,
            effective=[e.seq for e in entries if not e.inserted] if entries is not self.entries else self._effective_seqs,
            state_at=lambda s: entries[pos[s]].state,
        )
        current = entries[-1].state
        if isinstance(event, Rewind):
            game.check(current, event, ctx)
            idx = pos.get(event.to_seq)
            if idx is None or event.to_seq >= seq:
                raise Violation(
                    RULE_REWIND_TARGET,
                    f"cannot rewind to seq {event.to_seq}: it is not an earlier event of the effective history",
                )
            target = entries[idx].state
            new_state = game.apply_rewind(current, target, event, ctx)
            abandoned = tuple(e.seq for e in entries[idx + 1 :] if not e.inserted)
            return entries[: idx + 1] + [Entry(seq, event, new_state)], Branch(seq, event.to_seq, abandoned)
        if isinstance(event, Correct):
            game.check(current, event, ctx)
            return self._correct(entries, pos, event, seq, ctx), None
        game.check(current, event, ctx)
        return None, Entry(seq, event, game.apply(current, event, ctx))

    def _correct(self, entries: list[Entry], pos: dict[int, int], event: Correct, seq: int, ctx: Context) -> list[Entry]:
        idx = pos.get(event.at_seq)
        if idx is None or idx == 0 or event.at_seq >= seq:
            raise Violation(
                RULE_CORRECT_TARGET,
                f"cannot insert before seq {event.at_seq}: it is not a later event of the effective history",
            )
        inner = dict(event.event)
        type_ = inner.pop("type", None)
        by = inner.pop("by", None)
        if not isinstance(type_, str):
            raise Malformed("the corrected event needs a string 'type'", "$.event.type")
        if not isinstance(by, str):
            raise Malformed("the corrected event needs a string 'by'", "$.event.by")
        inserted = decode_event(self.game, type_, by, inner, path="$.event")
        if isinstance(inserted, (MatchStarted, Rewind, Correct)):
            raise Malformed(f"a correction cannot insert a {type_!r} event", "$.event.type")
        rebuilt = entries[:idx]
        rebuilt_pos = {e.seq: i for i, e in enumerate(rebuilt) if not e.inserted}
        replay = [(seq, inserted, True)] + [(e.seq, e.event, e.inserted) for e in entries[idx:]]
        for s, ev, was_inserted in replay:
            try:
                plain, result = self._compute(rebuilt, rebuilt_pos, ev, s)
            except Violation as v:
                if was_inserted and s == seq:
                    raise
                raise Violation(
                    v.rule_id,
                    f"the correction conflicts with seq {s} ({event_type(ev)}), which would no longer hold: {v.message}",
                    v.code,
                ) from None
            if plain is None:
                rebuilt.append(result._replace(inserted=was_inserted, seq=s))
            else:
                rebuilt = plain
            rebuilt_pos = {e.seq: i for i, e in enumerate(rebuilt) if not e.inserted}
        final = rebuilt[-1].state
        apply_correct = getattr(self.game, "apply_correct", None)
        if apply_correct is not None:
            final = apply_correct(final, event, ctx)
        return rebuilt + [Entry(seq, event, final)]


def event_type(event: Action) -> str:
    return type(event).__struct_config__.tag  # type: ignore[attr-defined]


def event_fields(event: Action) -> dict[str, Any]:
    """The event's own fields (no type, no by), as plain JSON-able data."""
    data = msgspec.json.decode(msgspec.json.encode(event))  # tuples become lists, as stored
    data.pop("type", None)
    data.pop("by", None)
    return data
