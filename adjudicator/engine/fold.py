"""The generic fold: stored events -> typed events -> state, with rewinds and corrections.

The *effective history* is the list of entries whose states lead to the current state. An
accepted ``rewind`` cuts it back to ``to_seq`` and appends itself; the cut entries stay in the
log as an abandoned branch. An accepted ``correct`` inserts its event before ``at_seq`` and
re-checks every later effective entry; the first one that no longer holds rejects the
correction. The kit refuses either when entered by anyone but the judge (``Game.check_judge_only``,
under the rule the game declares); games gate both further through their own ``step`` (which
sees the whole log; its result is not used there) and shape the state after a rewind through ``after_rewind``. The state after a
correction is ``step`` of the correction on the corrected history's last state.

When a correction replays an earlier rewind, the rewind is re-checked on the corrected history
and returns to the corrected state at its ``to_seq``, but ``after_rewind`` is given, as the
state the rewind was made from, the state it was made from at the time (the events it cut
are not replayed, so what a game counts there, such as rewinds made, is kept as it was).

Before any game rule, the fold checks what every game shares: the rules version and the player
count of ``match_started`` with distinct names (the game's ``player_count`` and
``player_count_rule``), and that every later event is entered by a player of the match or the
judge (``Game.check_author``).

Not every state is kept: every ``KEEP``-th entry of the effective history keeps its state (and
so do rewinds, ``match_started`` and the last entry); the others give theirs up once the next
event is folded, and a state given up is computed again, from the nearest one kept, when it is
asked for (a rewind's target, a correction's replay, a look at the past). That is exact because
``step`` is pure: an entry's state is ``step`` of the entry before's, in the context of the line
before it, which stays as it was. A state that leaves the effective history (cut off by a rewind,
or replaced by a correction) is kept first, as it was, for ``state_at``. A match's memory is then
its events and one state in ``KEEP``, not a state an event.

``Fold.advance`` computes everything before it changes anything, so a rejected event leaves the
fold exactly as it was. A plain event (neither rewind nor correct) costs O(1): the entries, the
log and the effective seqs are only appended to, and the ``Context`` a check receives reads
them through fixed-length views, so it stays a snapshot of the moment without a copy.
"""

from __future__ import annotations

import operator
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, NamedTuple, TypeVar

import msgspec

from adjudicator.engine import confirming, judging
from adjudicator.engine.kit import Game, event_type
from adjudicator.engine.words import format_value
from adjudicator.engine.protocol import (
    Action,
    Context,
    Correct,
    LegalAction,
    Malformed,
    MatchStarted,
    NotEffective,
    Rewind,
    Violation,
)
from events.chain import IntegrityError
from events.envelope import ENVELOPE_KEYS, StoredEvent

#: Rule IDs of the spine itself, for what no game chapter covers.
RULE_REWIND_TARGET = "ADJ-REW-1"
RULE_CORRECT_TARGET = "ADJ-COR-1"

_NOW = object()  # _step's default: a rewind made now, from the state at the end of the line

_CALLS = (judging.Note, judging.Penalty, judging.UndoRequest)

#: Event types a correction may not insert: they shape the history rather than the game.
_NOT_INSERTABLE = (MatchStarted, Rewind, Correct, judging.Note, judging.Penalty, confirming.Confirm, judging.UndoRequest)

#: Event class -> whether it is a plain event (none of the above): ``Fold._compute``'s short way.
_PLAIN: dict[type, bool] = {}


#: Game class -> {event type: class} of every type but ``correct`` (whose nested event is decoded
#: apart): ``Fold.decode``'s short way, made once per game rather than once per fold.
_TARGETS: dict[type, dict[str, type]] = {}


def _targets(game: Game) -> dict[str, type]:
    known = _TARGETS.get(type(game))
    if known is None:
        classes = {**game.event_classes, **judging.CALL_CLASSES}
        known = _TARGETS[type(game)] = {t: c for t, c in classes.items() if not issubclass(c, Correct)}
    return known


class NeedsHistory(Exception):
    """A fold resumed from a snapshot was asked for what came before the snapshot: a rewind or a
    correction to check, or a look at the log, the effective history or an earlier state. The
    caller folds the whole log instead."""


class _Before(Sequence):
    """The log or the effective history of a resumed fold: not there to be read."""

    def __len__(self) -> int:
        raise NeedsHistory("the events before the snapshot")

    def __getitem__(self, i):  # type: ignore[override]
        raise NeedsHistory("the events before the snapshot")

    def __iter__(self) -> Iterator:
        raise NeedsHistory("the events before the snapshot")

    def __contains__(self, item: object) -> bool:
        raise NeedsHistory("the events before the snapshot")


_BEFORE = _Before()


def _seq_of(pair: tuple[int, Action]) -> int:
    return pair[0]


#: Every KEEP-th entry of the effective history keeps its state (see the module's docstring).
KEEP = 32

#: The events whose entries keep their state whatever their place.
_KEEPS = (Rewind, MatchStarted)


class _Gone:
    """The state of an entry that gave it up: computed again when asked for."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<state not kept>"


GONE = _Gone()


class Entry(msgspec.Struct, frozen=True, gc=False):
    """One entry of an effective history. Never tracked by the garbage collector (a fold keeps one
    an event, and a collection would walk them all): it refers to an event and a state, values
    that never refer back to it, so it can be in no cycle."""

    seq: int  # the stored seq; for an inserted event, the seq of the correct that inserted it
    event: Action
    state: Any  # the state after this entry, or GONE (``Fold.line_states`` gives them all)
    inserted: bool = False


class _History(Mapping):
    """Stored seq -> the state right after it was folded, as it was then (``Fold.state_at``):
    the states kept, and those of the effective history computed again when given up."""

    __slots__ = ("_fold", "kept")

    def __init__(self, fold: Fold):
        self._fold = fold
        self.kept: dict[int, Any] = {}

    def __getitem__(self, seq: int) -> Any:
        got = self.kept.get(seq, GONE)
        if got is not GONE:
            return got
        fold = self._fold
        i = fold._pos.get(seq)
        if i is None:
            raise KeyError(seq)
        return fold._resolve(fold._cur, i)

    def __contains__(self, seq: object) -> bool:
        return seq in self.kept or seq in self._fold._pos

    def __iter__(self) -> Iterator[int]:
        fold = self._fold
        if fold._base:
            yield fold._base
        for seq, _ in fold.log:
            yield seq

    def __len__(self) -> int:
        return len(self._fold.log) + (1 if self._fold._base else 0)

    def __copy__(self) -> dict[int, Any]:
        return dict(self.items())

    def __repr__(self) -> str:
        return f"{dict(self.items())!r}"


class Branch(NamedTuple):
    rewind_seq: int
    to_seq: int
    abandoned: tuple[int, ...]


class _Prefix(msgspec.Struct, gc=False, eq=False):
    """The first ``n`` items of a list that is only ever appended to: a snapshot without a copy.
    A Sequence (registered as one below). A Struct, as one is made for every event checked:
    built in C. Not tracked by the garbage collector: it refers to a list of the fold's, which
    never refers back to it."""

    _items: list
    _n: int

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):  # type: ignore[override]
        n = self._n
        if type(i) is int:  # the common case first (a game reads the last seq at every step)
            if i < 0:
                i += n
            if 0 <= i < n:
                return self._items[i]
            raise IndexError("index out of range")
        if isinstance(i, slice):
            return [self._items[j] for j in range(n)[i]]
        i = operator.index(i)
        return self[i]

    def __iter__(self) -> Iterator:
        return islice(self._items, self._n)  # the items' own iteration (C for a list; runs run by run)

    def __repr__(self) -> str:
        return f"{list(self)!r}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __contains__ = Sequence.__contains__
    __reversed__ = Sequence.__reversed__
    index = Sequence.index
    count = Sequence.count


Sequence.register(_Prefix)


class _StateAt(msgspec.Struct):
    """A context's ``state_at``: the state after an effective seq, over the first ``n`` entries
    of a line (later appends are not seen). A Struct rather than a closure: one is made for
    every event checked, most never called."""

    _fold: Fold
    _line: _Line
    _n: int

    def __call__(self, seq: int) -> Any:
        fold = self._fold
        i = self._line.pos.get(seq)
        if i is None or i >= self._n:
            if seq < fold._base:
                raise NeedsHistory(f"the state after seq {seq}, before the snapshot")
            raise NotEffective(seq)
        return fold._resolve(self._line, i)


class Runs(Sequence):
    """Increasing seqs kept as runs of consecutive ones: the effective history of a fold resumed
    from a snapshot (``Fold.resumed``, ``Fold.compacted``). A match's effective history is a few
    runs (a rewind or a judge's call starts a new one), so a million-event match resumes without
    spelling out a million seqs, and keeps 24 bytes a run rather than 8 a seq. Only appended to
    at its end (and its last seq taken off, ``pop``); read by index, by bisection (it is sorted),
    and ``in`` and ``index`` in O(log runs)."""

    __slots__ = ("_firsts", "_lasts", "_starts", "_n")

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()) -> None:
        """``pairs``: increasing runs ``(first, last)`` with a gap between each two (``unrun_within`` checks them)."""
        self._firsts, self._lasts, self._starts = array("q"), array("q"), array("q")
        self._n = 0
        for a, b in pairs:
            self._firsts.append(a)
            self._lasts.append(b)
            self._starts.append(self._n)
            self._n += b - a + 1

    @classmethod
    def of(cls, seqs: Iterable[int]) -> Runs:
        """The runs of increasing ``seqs``."""
        out = cls()
        for s in seqs:
            out.append(s)
        return out

    def append(self, seq: int) -> None:
        lasts = self._lasts
        if self._n and lasts[-1] == seq - 1:
            lasts[-1] = seq
        else:
            self._firsts.append(seq)
            lasts.append(seq)
            self._starts.append(self._n)
        self._n += 1

    def pop(self) -> int:
        if not self._n:
            raise IndexError("pop from empty runs")
        lasts = self._lasts
        seq = lasts[-1]
        if self._firsts[-1] == seq:
            self._firsts.pop()
            lasts.pop()
            self._starts.pop()
        else:
            lasts[-1] = seq - 1
        self._n -= 1
        return seq

    def runs(self) -> list[tuple[int, int]]:
        return list(zip(self._firsts, self._lasts))

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(self._n)[i]]
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("index out of range")
        starts = self._starts
        k = len(starts) - 1
        if i < starts[k]:  # not in the last run: bisect the runs' starts
            k = bisect_right(starts, i) - 1
        return self._firsts[k] + i - starts[k]

    def __iter__(self) -> Iterator[int]:
        for a, b in zip(self._firsts, self._lasts):
            yield from range(a, b + 1)

    def __reversed__(self) -> Iterator[int]:
        for a, b in zip(reversed(self._firsts), reversed(self._lasts)):
            yield from range(b, a - 1, -1)

    def _run_of(self, seq: object) -> int:
        """The index of the run holding ``seq``, or -1."""
        if type(seq) is not int:
            return -1
        k = bisect_right(self._firsts, seq) - 1
        return k if k >= 0 and seq <= self._lasts[k] else -1

    def __contains__(self, seq: object) -> bool:
        return self._run_of(seq) >= 0

    def index(self, seq: Any, start: int = 0, stop: int | None = None) -> int:
        k = self._run_of(seq)
        i = self._starts[k] + seq - self._firsts[k] if k >= 0 else -1
        if k < 0 or i < start or (stop is not None and i >= stop):
            raise ValueError(f"{seq!r} is not in the runs")
        return i

    def count(self, seq: Any) -> int:
        return 1 if seq in self else 0

    def __copy__(self) -> Runs:
        return Runs(self.runs())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Runs):
            return self.runs() == other.runs()
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == self._n and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # appended to: not hashable

    def __repr__(self) -> str:
        return f"Runs({self.runs()!r})"


class _Line:
    """An effective history: the entries, stored seq -> index, and the stored seqs in order.

    Inserted entries are in ``entries`` only: they have no stored seq of their own.
    """

    __slots__ = ("entries", "pos", "eff")

    def __init__(self, entries: list[Entry], pos: dict[int, int] | None = None, eff: list[int] | None = None):
        self.entries = entries
        if pos is None or eff is None:
            pos = {e.seq: i for i, e in enumerate(entries) if not e.inserted}
            eff = [e.seq for e in entries if not e.inserted]
        self.pos = pos
        self.eff = eff

    def push(self, entry: Entry) -> None:
        self.entries.append(entry)
        if not entry.inserted:
            self.pos[entry.seq] = len(self.entries) - 1
            self.eff.append(entry.seq)


def decode_event(game: Game, type_: str, by: str, fields: Mapping[str, Any], *, strict: bool = True, path: str = "$") -> Action:
    """Decode one event of ``game`` from its type, author and fields, or raise ``Malformed``.

    A ``correct`` has its nested event decoded too (``Malformed`` at ``$.event...``), and that
    event is given back in its declared types: ``{"type", "by", ...every field}``.
    """
    if not ENVELOPE_KEYS.isdisjoint(fields):
        clash = sorted(k for k in ENVELOPE_KEYS.intersection(fields) if k not in ("type", "by"))
        clash += [k for k, v in (("type", type_), ("by", by)) if k in fields and fields[k] != v]
        if clash:
            raise Malformed(f"field {clash[0]!r} is reserved for the envelope", f"{path}.{clash[0]}")
    data = dict(fields)
    # one Struct class when the type is known (fast: see Game.event_classes), converted without
    # its type (the class is the type's: its tag would only be matched to itself); the union
    # otherwise, whose error names what is wrong with the type
    classes = judging.CALL_CLASSES if type_ in judging.CALL_TYPES else game.event_classes
    target = classes.get(type_) if type(type_) is str else None
    if target is None:
        target = judging.JudgeCall if type_ in judging.CALL_TYPES else game.event_type
        data["type"] = type_
    data["by"] = by
    try:
        event = msgspec.convert(data, target, strict=strict)
    except msgspec.ValidationError as exc:
        known = [*game.event_classes, *judging.CALL_TYPES]
        one = target if target is not game.event_type and target is not judging.JudgeCall else None
        raise malformed_from(exc, type_, path, one, {**fields, "type": type_, "by": by}, known) from None
    if isinstance(event, Correct):
        inserted = decode_inserted(game, event, strict=strict, path=path)
        event = msgspec.structs.replace(event, event={"type": event_type(inserted), "by": inserted.by, **event_fields(inserted)})
    return event


def decode_known(game: Game, type_: str, by: str, fields: Mapping[str, Any], path: str = "$") -> Action | None:
    """``decode_event``'s common case, without its checks for the rest: the event of a type with
    a class of its own (not a correction), from its ``fields`` (none of them an envelope key) and
    its author; ``Malformed``, worded as ``decode_event`` words it, for fields that do not convert.
    None for any other type, for ``decode_event``."""
    target = _targets(game).get(type_) if type(type_) is str else None
    return None if target is None else _convert(fields, by, type_, target, path)


def _convert(fields: Mapping[str, Any], by: str, type_: str, target: type, path: str = "$") -> Action:
    """The event of class ``target`` (``type_``'s, which is not a correction) from its ``fields``,
    none of them an envelope key, and its author: ``decode_event``'s common case. The type is not
    among what is converted: the class is the type's, so its tag would only be matched to itself."""
    data = dict(fields)
    data["by"] = by
    try:
        return msgspec.convert(data, target)
    except msgspec.ValidationError as exc:
        raise malformed_from(exc, type_, path, target, {**fields, "type": type_, "by": by}) from None


def decode_inserted(game: Game, correct: Correct, *, strict: bool = True, path: str = "$") -> Action:
    """The event a correction inserts, decoded by ``game``; ``Malformed`` at ``$.event...``."""
    inner = dict(correct.event)
    type_ = inner.pop("type", None)
    by = inner.pop("by", None)
    if not isinstance(type_, str):
        raise Malformed("the corrected event needs a string 'type'", f"{path}.event.type")
    if not isinstance(by, str):
        raise Malformed("the corrected event needs a string 'by'", f"{path}.event.by")
    inserted = decode_event(game, type_, by, inner, strict=strict, path=f"{path}.event")
    if isinstance(inserted, _NOT_INSERTABLE):
        raise Malformed(f"a correction cannot insert a {type_!r} event", f"{path}.event.type")
    return inserted


def malformed_from(exc: msgspec.ValidationError, type_: str, path: str = "$", target: type | None = None,
                   data: Mapping[str, Any] | None = None, known: Iterable[str] = ()) -> Malformed:
    """``Malformed`` from a msgspec error, with the field's path under ``path``, in words that say
    what to enter instead: the nearest action to an unknown one (of ``known``), the fields of
    ``target`` for an unknown field, the allowed values of a choice, true or false for a yes/no
    field; never a class name.

    ``Invalid value 'x' - at `$.type``` is an unknown action; a missing or unknown field is
    placed at the field itself (``$.count``, ``$.slots[1].x``).
    """
    import difflib

    import msgspec.inspect as mi

    text = str(exc)
    where = path
    at = "$"
    if " - at `" in text:
        text, _, at = text.partition(" - at `")
        at = at.rstrip("`")
        where = path + at[1:]
    if where == path + ".type" and text.startswith("Invalid value"):
        near = difflib.get_close_matches(str(type_), sorted(known), n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]}?" if near else ""
        return Malformed(f"unknown action {type_!r}{hint} (adj legal MATCH lists the actions open now)", where)
    for lead in ("Object missing required field `", "Object contains unknown field `"):
        if text.startswith(lead) and text.endswith("`"):
            name = text[len(lead):-1]
            where = f"{where}.{name}"
            info = _type_at(target, at)
            names = [f.encode_name for f in info.fields if f.encode_name not in ("by", "type")] if isinstance(info, mi.StructType) else []
            listed = f" ({'its fields: ' + ', '.join(names) if names else 'it has no fields'})" if info is not None else ""
            what = f"{type_}{' ' + at[2:] if at != '$' else ''}"
            if lead.startswith("Object missing"):
                return Malformed(f"{what}: {name} is missing{listed}", where)
            return Malformed(f"{what}: no field {name!r}{listed}", where)
    info = _type_at(target, at)
    given = _value_at(data, at)
    field = at[2:] or "the value"
    was = "" if given is _NOTHING else f", not {given!r}" if isinstance(given, str) else f", not {format_value(given)}"
    if text.startswith("Invalid enum value") and info is not None:
        allowed = _allowed(info)
        if allowed:
            return Malformed(f"{type_}: {field} is one of {', '.join(allowed)}{was}", where)
    if text.startswith("Expected") and (text.startswith("Expected `bool`") or isinstance(info, mi.BoolType)):
        return Malformed(f"{type_}: {field} is true or false{was}", where)
    expected = re.fullmatch(r"Expected `([^`]+)`, got `([^`]+)`", text)
    if expected:
        want, got = (" or ".join(_KINDS.get(k, "an object") for k in part.split(" | ")) for part in expected.groups())
        return Malformed(f"{type_}: {field} is {want}{was or ', not ' + got}", where)
    return Malformed(f"{type_}: {_no_class_names(text)}", where)


#: msgspec's names of JSON kinds, in words
_KINDS = {"str": "a word", "int": "a whole number", "float": "a number", "bool": "true or false", "null": "null",
          "array": "a list", "object": "a JSON object", "bytes": "bytes"}


_NOTHING: Any = object()


def _type_at(target: type | None, at: str) -> Any:
    """The msgspec type of the value at ``at`` (``$.a[0].b``) in ``target``, or None."""
    import msgspec.inspect as mi

    if target is None:
        return None
    try:
        info: Any = mi.type_info(target)
    except Exception:
        return None
    for part in re.findall(r"\.([^.\[]+)|\[\d+\]", at[1:]) if at != "$" else ():
        info = _unwrap(info)
        if part == "":  # an index
            info = getattr(info, "item_type", None)
        elif isinstance(info, mi.StructType):
            info = next((f.type for f in info.fields if f.encode_name == part), None)
        elif isinstance(info, mi.DictType):
            info = info.value_type
        else:
            return None
        if info is None:
            return None
    return _unwrap(info)


def _unwrap(info: Any) -> Any:
    """``X | None`` is X; a metadata wrapper is what it wraps."""
    import msgspec.inspect as mi

    while True:
        if isinstance(info, mi.Metadata):
            info = info.type
        elif isinstance(info, mi.UnionType):
            rest = [t for t in info.types if not isinstance(t, mi.NoneType)]
            if len(rest) != 1:
                return info
            info = rest[0]
        else:
            return info


def _allowed(info: Any) -> list[str]:
    import msgspec.inspect as mi

    if isinstance(info, mi.LiteralType):
        return [str(v) for v in info.values]
    if isinstance(info, mi.EnumType):
        return [str(m.value) for m in info.cls]
    if isinstance(info, mi.UnionType):
        return [v for t in info.types for v in _allowed(t)]
    return []


def _value_at(data: Mapping[str, Any] | None, at: str) -> Any:
    value: Any = data
    for name, index in re.findall(r"\.([^.\[]+)|\[(\d+)\]", at[1:]) if at != "$" else ():
        try:
            value = value[int(index)] if index else value[name]
        except (KeyError, IndexError, TypeError, ValueError):
            return _NOTHING
    return _NOTHING if data is None else value


def _no_class_names(text: str) -> str:
    """msgspec names a nested Struct by its class (``Expected `Pay```): say "an object"."""
    return re.sub(r"`([A-Z][A-Za-z0-9]*)`", "`object`", text)


class Fold:
    """Incremental adjudication of one match."""

    def __init__(self, game: Game, match_id: str):
        self.game = game
        self.match_id = match_id
        self.log: list[tuple[int, Action]] = []
        self.entries: list[Entry] = []
        self.branches: list[Branch] = []
        self.history = _History(self)  # state right after each stored seq was folded
        self._recent: tuple[list[Entry], int, Any] | None = None  # the last state computed again
        # the last preview (event, seq, log length, result), reused by an advance of that event
        self._previewed: tuple[Action, int, int, Any] | None = None
        self._pos: dict[int, int] = {}
        self._effective_seqs: list[int] = []
        self._cur = _Line(self.entries, self._pos, self._effective_seqs)  # the three above, as one line
        self.penalties: list[tuple[int, judging.Penalty]] = []  # the judge's penalties, in seq order
        self._players: tuple[str, ...] = ()
        self._base = 0  # resumed from a snapshot taken after this seq (0: folded from seq 1)
        # the confirmation point of the event at ``_base`` (``confirming.point``), when the snapshot
        # resumed from carried it: the state before that event is not at hand here
        self.base_point: str | None = None
        self._targets: dict[str, type] | None = None  # event type -> class, for ``decode``
        # the players' confirmations, in seq order (``adjudicator.engine.confirming``); a fold
        # resumed from a snapshot does not know them (a confirmation then needs the whole log)
        self.confirmations: list[tuple[int, confirming.Confirm]] = []
        self._confirmations_known = True
        self._head_hash: tuple[int, str] | None = None  # (seq, hash) of the last event that is not a confirmation
        # ``effective_runs`` last time: (the effective seqs it read, how many, their runs); the
        # seqs of a line are only appended to, so the next call reads only the seqs added since
        self._runs: tuple[Sequence[int], int, list[list[int]]] | None = None

    @classmethod
    def resumed(cls, game: Game, match_id: str, seq: int, state: Any, players: Sequence[str],
                penalties: Sequence[tuple[int, judging.Penalty]], effective: Sequence[int]) -> Fold:
        """A fold that goes on from ``state``, the state after ``seq``, without the events before
        it: enough for plain events. ``effective`` is the effective history up to ``seq``, which
        contexts give as it was (``Runs`` of them are taken over, not copied). Whatever needs
        the events before ``seq`` (a rewind, a correction, a look at the log or at an earlier
        state) raises ``NeedsHistory``, and nothing is changed."""
        if not effective or effective[-1] != seq:
            raise ValueError(f"the effective history of a snapshot at seq {seq} ends with it")
        taken = effective if isinstance(effective, Runs) else Runs.of(effective)
        fold = cls._resume(game, match_id, seq, state, players, penalties, taken)
        fold._confirmations_known = False  # a snapshot does not keep them
        return fold

    @classmethod
    def _resume(cls, game: Game, match_id: str, seq: int, state: Any, players: Sequence[str],
                penalties: Sequence[tuple[int, judging.Penalty]], effective: Runs) -> Fold:
        """``resumed``, taking ``effective`` over."""
        fold = cls(game, match_id)
        fold._base = seq
        fold._players = tuple(players)
        fold.penalties = list(penalties)
        effective.pop()
        fold._effective_seqs = effective  # type: ignore[assignment]  # a sequence of ints, as the list is
        fold._cur = _Line(fold.entries, fold._pos, fold._effective_seqs)
        fold._cur.push(Entry(seq, None, state))  # type: ignore[arg-type]  # the snapshot's event is not kept
        fold.history.kept[seq] = state
        return fold

    def compacted(self) -> Fold:
        """This fold as ``resumed`` from its present, in memory that does not grow with the log:
        what it has read of the match since then is all it keeps (and the effective history, as
        ``Runs``). What needs more raises ``NeedsHistory``. The head must be of the effective
        history (not a judge's call). The two share the effective history: this fold is not used
        again."""
        seq = self.head
        if not self.entries or not self._effective_seqs or self._effective_seqs[-1] != seq:
            raise ValueError(f"seq {seq} is not the end of the effective history")
        eff = self._effective_seqs
        fold = self._resume(self.game, self.match_id, seq, self.state, self._players, self.penalties,
                            eff if isinstance(eff, Runs) else Runs.of(eff))
        fold.confirmations = list(self.confirmations)
        fold._confirmations_known = self._confirmations_known
        fold._head_hash = self._head_hash
        return fold

    @property
    def resumed_at(self) -> int:
        """The seq of the snapshot this fold was resumed from; 0 for a fold of the whole log."""
        return self._base

    # -- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.entries[-1].state if self.entries else None

    @property
    def head(self) -> int:
        return self.log[-1][0] if self.log else self._base

    def state_at(self, seq: int) -> Any:
        """The state right after event ``seq`` was folded, as it was then (in its own branch, if
        abandoned). A later correction does not change it: see ``effective_state_at``."""
        return self.history[seq]

    def effective_state_at(self, seq: int) -> Any:
        """The state after ``seq`` in the effective history as it stands now, corrections
        included: what a rewind to ``seq`` would return to. ``NotEffective`` (a ``KeyError``)
        for an abandoned or unknown seq."""
        self._whole(f"the effective state after seq {seq}")
        return self._state_at(self._cur, len(self.entries))(seq)

    def effective_runs(self) -> list[tuple[int, int]]:
        """The stored seqs of the effective history as runs of consecutive seqs (first, last):
        what a snapshot keeps of it (``resumed``). Read from where the last call left off, when
        the effective history is the one it read, grown since (a snapshot every few hundred
        events of a long import does not read the whole history each time); at once from a
        resumed fold's ``Runs``."""
        eff, done = self._effective_seqs, self._runs
        if isinstance(eff, Runs):
            return eff.runs()
        if done is not None and done[0] is eff and done[1] <= len(eff):
            out = done[2]
            new = eff[done[1]:]
        else:
            out, new = [], eff
        for s in new:
            if out and out[-1][1] == s - 1:
                out[-1][1] = s
            else:
                out.append([s, s])
        self._runs = (eff, len(eff), out)
        return [(a, b) for a, b in out]

    def line_states(self) -> list[Any]:
        """The state after each entry of the effective history (``entries``), in order."""
        return [self._resolve(self._cur, i) for i in range(len(self.entries))]

    def effective_seqs(self) -> set[int]:
        self._whole("the effective history")
        return set(self._effective_seqs)

    def effective_order(self) -> list[int]:
        """The stored seqs of the effective history, in order."""
        self._whole("the effective history")
        return list(self._effective_seqs)

    def _whole(self, what: str) -> None:
        if self._base:
            raise NeedsHistory(what)

    def context(self, seq: int) -> Context:
        """The context an event at ``seq`` is checked in, were it the next event."""
        return self._context(self._line(), seq, len(self.log))

    def open_now(self) -> list[LegalAction]:
        """The actions open in the match now: the game's ``legal_at`` of the state, in the context
        the next event would be checked in (its effective seqs, 8 bytes a seq, are there in a fold
        resumed from a snapshot too: nothing is folded again for the judge's rewind offer)."""
        return self.game.legal_at(self.state, self.context(self.head + 1))

    def _line(self) -> _Line:
        return self._cur

    def _context(self, line: _Line, seq: int, log_len: int, n: int | None = None) -> Context:
        """The context of an event at ``seq``: the first ``log_len`` events of the log, and the
        first ``n`` entries of ``line`` (all of them by default)."""
        if n is None:
            n, n_eff = len(line.entries), len(line.eff)
        else:  # the seqs before a snapshot have no entry: they come first
            pos = line.pos
            n_eff = bisect_left(line.eff, n, key=lambda s: pos.get(s, -1))
        return Context(
            seq=seq,
            log=_BEFORE if self._base else _Prefix(self.log, log_len),
            effective=_Prefix(line.eff, n_eff),
            state_at=self._state_at(line, n),
        )

    def _state_at(self, line: _Line, n: int) -> Callable[[int], Any]:
        """``state_at(seq)`` over the first ``n`` entries of ``line`` (later appends are not seen)."""
        return _StateAt(self, line, n)

    # -- states given up, computed again ---------------------------------------------------------
    def _resolve(self, line: _Line, i: int) -> Any:
        """The state after entry ``i`` of ``line``: kept, or ``step`` from the nearest one kept
        before it (or from the last one computed again, when that is nearer: a walk through
        the past costs one step an entry)."""
        entries = line.entries
        state = entries[i].state
        if state is not GONE:
            return state
        j = i - 1
        while entries[j].state is GONE:
            j -= 1
        state = entries[j].state
        recent = self._recent
        if recent is not None and recent[0] is entries and j < recent[1] <= i:
            j, state = recent[1], recent[2]
        step = self.game.step
        for k in range(j + 1, i + 1):
            state = step(state, entries[k].event, self._context_at(line, k))
        self._recent = (entries, i, state)
        return state

    def _context_at(self, line: _Line, k: int) -> Context:
        """The context entry ``k`` of ``line`` was checked in: the log before its seq, the line
        before it."""
        seq = line.entries[k].seq
        return self._context(line, seq, bisect_left(self.log, seq, key=_seq_of), k)

    def _give_up(self, line: _Line, i: int) -> None:
        """Entry ``i`` of the committed ``line`` gives its state up, unless it keeps it."""
        e = line.entries[i]
        if i % KEEP == 0 or e.state is GONE or isinstance(e.event, _KEEPS):
            return
        if not e.inserted and self.history.kept.get(e.seq) is e.state:
            del self.history.kept[e.seq]
        line.entries[i] = Entry(e.seq, e.event, GONE, e.inserted)

    def _keep_as_was(self, line: _Line, lo: int) -> None:
        """Keep, for ``state_at``, the states of entries ``lo`` on of ``line`` (about to leave the
        effective history, or to be replaced) that are not kept already."""
        kept = self.history.kept
        for i in range(lo, len(line.entries)):
            e = line.entries[i]
            if not e.inserted and e.seq not in kept:
                kept[e.seq] = self._resolve(line, i)

    # -- folding -----------------------------------------------------------------------------
    def decode(self, stored: StoredEvent) -> Action:
        """``decode_event`` of a stored event; the common case (a known type that is not a
        correction, no envelope key among the fields) without its checks for the rest."""
        targets = self._targets
        if targets is None:
            targets = self._targets = _targets(self.game)
        type_, fields = stored.type, stored.fields
        target = targets.get(type_) if type(type_) is str else None
        if target is None or not ENVELOPE_KEYS.isdisjoint(fields):
            return decode_event(self.game, type_, stored.by, fields)
        return _convert(fields, stored.by, type_, target)

    def replay(self, events: Iterable[StoredEvent], progress: Callable[[int, int], None] | None = None,
               last: int = 0) -> None:
        """Fold in stored events, every one accepted when it was written: one that no longer
        adjudicates is an ``IntegrityError`` (the log was altered, or written under other rules).
        ``progress`` is told ``(seq, last)`` after each."""
        confirm = confirming.TYPE
        advance, decode, plain = self.advance, self.decode, self._plain
        targets = self._targets
        if targets is None:
            targets = self._targets = _targets(self.game)
        reserved, convert, invalid = ENVELOPE_KEYS, msgspec.convert, msgspec.ValidationError
        log, penalties, base = self.log, self.penalties, self._base  # lists only ever appended to, and a constant
        head = None  # the last event folded that is not a confirmation: the head hash, told when needed
        try:
            for ev in events:
                type_ = ev.type
                if type_ == confirm and head is not None:  # a confirmation is checked against it
                    self._head_hash, head = (head.seq, head.hash), None
                try:
                    # ``decode``, its common case in this frame
                    fields = ev.fields
                    target = targets.get(type_) if type(type_) is str else None
                    if target is not None and reserved.isdisjoint(fields):
                        data = fields.copy()
                        data["by"] = ev.by
                        try:
                            event = convert(data, target)
                        except invalid:
                            event = _convert(fields, ev.by, type_, target)  # raises, worded
                    else:
                        event = decode(ev)
                    seq = ev.seq
                    # ``advance``, its common case: straight to ``_plain``
                    if (seq > (log[-1][0] if log else base) and self._previewed is None and not penalties
                            and self.entries and _PLAIN.get(type(event))):
                        plain(event, seq)
                    else:
                        advance(event, seq)
                except (Violation, Malformed) as exc:
                    raise IntegrityError(self.match_id, ev.seq, f"stored {type_!r} no longer adjudicates: {exc}") from None
                if type_ != confirm:
                    head = ev
                if progress is not None:
                    progress(ev.seq, last)
        finally:
            if head is not None:
                self._head_hash = (head.seq, head.hash)

    def sealed(self, seq: int, hash_: str) -> None:
        """The event folded in at ``seq`` was stored with ``hash_`` (what a confirmation of the
        head is checked against). ``replay`` knows it; whoever folds with ``advance`` says it."""
        if self.log and self.log[-1][0] == seq and not isinstance(self.log[-1][1], confirming.Confirm):
            self._head_hash = (seq, hash_)

    def confirmable_head(self) -> int:
        """The head a confirmation signs: the last event that is not itself a confirmation."""
        for seq, event in reversed(self.log):
            if not isinstance(event, confirming.Confirm):
                return seq
        return self._base

    @property
    def confirmations_known(self) -> bool:
        """False for a fold resumed from a snapshot: it does not know the confirmations before it."""
        return self._confirmations_known

    def both_confirmed(self) -> tuple[int, str, list[int]] | None:
        """The last head every player confirmed (``confirming.both_signed``)."""
        return confirming.both_signed(self.confirmations, self.players)

    def advance(self, event: Action, seq: int) -> Any:
        """Check ``event`` as the event at ``seq`` and fold it in; raise and change nothing if illegal."""
        log = self.log
        if seq <= (log[-1][0] if log else self._base):
            raise ValueError(f"seq {seq} does not follow the head seq {self.head}")
        done = self._previewed
        if done is None and not self.penalties and self.entries and _PLAIN.get(type(event)):
            return self._plain(event, seq)  # the common case, in one frame
        if done is not None:
            self._previewed = None
            if done[0] is event and done[1] == seq and done[2] == len(log):
                line, entry, branch = done[3]  # just previewed against this very fold: no second pass
            else:
                line, entry, branch = self._compute(event, seq)
        else:
            line, entry, branch = self._compute(event, seq)
        # commit
        log.append((seq, event))
        if entry is not None:  # plain append: O(1)
            cur = self._cur
            entries = cur.entries
            entries.append(entry)
            cur.pos[seq] = n = len(entries) - 1
            cur.eff.append(seq)
            if n:
                self._give_up(cur, n - 1)
                return entry.state  # the history reads it from the line while it is there
            self._players = event.players  # type: ignore[attr-defined]  # match_started
        elif line is not None:
            old = self._cur
            # where the line changes: after a rewind's target, or from a correction's insertion point
            lo = old.pos[event.to_seq] + 1 if branch is not None else old.pos[event.at_seq]  # type: ignore[attr-defined]
            self._keep_as_was(old, lo)
            self.entries, self._pos, self._effective_seqs = line.entries, line.pos, line.eff
            self._cur = line
            for i in range(min(lo, len(line.entries) - 1), len(line.entries) - 1):
                self._give_up(line, i)
            if branch is not None:
                self.branches.append(branch)
        elif isinstance(event, judging.Penalty):  # a judge's call: in the log, outside the game's history
            self.penalties.append((seq, event))
        elif isinstance(event, confirming.Confirm):  # a player's confirmation: the same
            self.confirmations.append((seq, event))
        state = self.entries[-1].state
        self.history.kept[seq] = state
        return state

    def _plain(self, event: Action, seq: int) -> Any:
        """``advance`` of a plain event (neither rewind, correct, a judge's call nor a
        confirmation) at the end of the line, with no judge's penalty given and nothing
        previewed: ``_compute``'s short way and the commit, in one frame."""
        line = self._cur
        entries = line.entries
        n = len(entries)
        current = entries[-1].state
        if current is GONE:
            current = self._resolve(line, n - 1)
        log, eff = self.log, line.eff
        ctx = Context(
            seq=seq,
            log=_BEFORE if self._base else _Prefix(log, len(log)),
            effective=_Prefix(eff, len(eff)),
            state_at=_StateAt(self, line, n),
        )
        game = self.game
        game.check_author(event, self._players)
        state = game.step(current, event, ctx)
        # commit: O(1)
        log.append((seq, event))
        entries.append(Entry(seq, event, state))
        line.pos[seq] = n
        eff.append(seq)
        # the entry before gives its state up, unless it keeps it (``_give_up``)
        i = n - 1
        e = entries[i]
        # a plain event is neither a rewind nor match_started (``_KEEPS``): known by one look-up
        if i % KEEP and e.state is not GONE and (_PLAIN.get(type(e.event)) or not isinstance(e.event, _KEEPS)):
            kept = self.history.kept
            if not e.inserted and kept.get(e.seq) is e.state:
                del kept[e.seq]
            entries[i] = Entry(e.seq, e.event, GONE, e.inserted)
        return state  # the history reads it from the line while it is there

    def preview(self, event: Action, seq: int) -> Any:
        """The state ``event`` would lead to, without folding it in (raises if illegal)."""
        result = self._compute(event, seq)
        self._previewed = (event, seq, len(self.log), result)
        line, entry, _ = result
        if entry is None and line is None:  # a judge's call: the state stays as it is
            return self.state
        return entry.state if entry is not None else line.entries[-1].state  # type: ignore[union-attr]

    def _compute(self, event: Action, seq: int) -> tuple[_Line | None, Entry | None, Branch | None]:
        """``(None, entry, None)`` for a plain append, else ``(new line, None, branch or None)``."""
        cls = type(event)
        plain = _PLAIN.get(cls)
        if plain is None:
            plain = _PLAIN[cls] = not issubclass(cls, _NOT_INSERTABLE)
        if plain and self.entries and not self.penalties:  # the common case, in one frame (as _step does it)
            line = self._cur
            entries = line.entries
            current = entries[-1].state
            if current is GONE:
                current = self._resolve(line, len(entries) - 1)
            log, eff = self.log, line.eff
            ctx = Context(
                seq=seq,
                log=_BEFORE if self._base else _Prefix(log, len(log)),
                effective=_Prefix(eff, len(eff)),
                state_at=_StateAt(self, line, len(entries)),
            )
            game = self.game
            game.check_author(event, self._players)
            return None, Entry(seq, event, game.step(current, event, ctx)), None
        if isinstance(event, MatchStarted):
            if self.entries:
                raise Malformed("match_started may only be the first event of a match", "$.type")
            self._check_started(event)
            return None, Entry(seq, event, self.game.initial(event, Context(seq=seq))), None
        if not self.entries:
            raise Malformed(f"a match begins with match_started, not {event_type(event)!r}", "$.type")
        if self._base and (isinstance(event, (Rewind, Correct)) or isinstance(event, judging.UndoRequest) and not self.log):
            raise NeedsHistory(f"a {event_type(event)} is checked against the events before the snapshot")
        if isinstance(event, confirming.Confirm):  # a player's confirmation: outside the game, checked here
            if not self._confirmations_known:
                raise NeedsHistory("a confirmation is checked against the confirmations before the snapshot")
            head = self.confirmable_head()
            known = self._head_hash[1] if self._head_hash is not None and self._head_hash[0] == head else None
            confirming.check(event, self.players, head, known, self.confirmations)
            return None, None, None
        last = self.log[-1][1] if self.log else None
        if (self.penalties or isinstance(event, _CALLS)) and judging.check(event, self.players, self.head, self.decided(), last):
            return None, None, None  # a judge's call (with no penalty yet, nothing else is checked there)
        line = self._line()
        ctx = self._context(line, seq, len(self.log))
        if isinstance(event, Correct):
            return self._correct(line, event, seq, ctx), None, None
        return self._step(line, event, seq, ctx)

    def _check_started(self, event: MatchStarted) -> None:
        game = self.game
        known = tuple(game.rules_versions)
        if event.rules_version is not None and event.rules_version not in known:
            raise Malformed(
                f"unknown rules version {event.rules_version!r} for {game.name}; known: {', '.join(known)}",
                "$.rules_version",
            )
        players = list(event.players)
        low, high = game.player_count
        if not low <= len(players) <= high or len(set(players)) != len(players):
            count = str(low) if low == high else f"{low} to {high}"
            rule, code = game.player_count_rule
            raise Violation(rule, f"{game.title} is played by {count} different players, not {players}", code)

    def _step(
        self, line: _Line, event: Action, seq: int, ctx: Context, made_from: Any = _NOW
    ) -> tuple[_Line | None, Entry | None, Branch | None]:
        """Check and fold a rewind or a plain event at the end of ``line`` (which is not changed).

        ``made_from`` is the state a replayed rewind was made from, for ``after_rewind``."""
        game = self.game
        current = line.entries[-1].state
        if current is GONE:
            current = self._resolve(line, len(line.entries) - 1)
        if isinstance(event, Rewind):
            idx = line.pos.get(event.to_seq)
            if idx is not None and event.to_seq >= seq:
                idx = None
            bad = Violation(
                RULE_REWIND_TARGET,
                f"cannot rewind to seq {event.to_seq}: it is not an earlier event of the effective history",
            )
            try:
                game.check_author(event, self.players)
                game.check_judge_only(event)  # the kit's gate, then the game's
                game.step(current, event, ctx)  # the gate: its result is not used
            except NotEffective:
                if idx is None:  # the game looked the target up before checking it
                    raise bad from None
                raise
            if idx is None:
                raise bad
            target = self._resolve(line, idx)
            new_state = game.after_rewind(current if made_from is _NOW else made_from, target, event, ctx)
            kept = line.entries[: idx + 1]
            abandoned = tuple(e.seq for e in line.entries[idx + 1 :] if not e.inserted)
            cut = _Line(kept, {s: i for s, i in line.pos.items() if i <= idx}, line.eff[: line.eff.index(event.to_seq) + 1])
            cut.push(Entry(seq, event, new_state))
            return cut, None, Branch(seq, event.to_seq, abandoned)
        game.check_author(event, self.players)
        return None, Entry(seq, event, game.step(current, event, ctx)), None

    def decided(self) -> tuple[int, judging.Penalty] | None:
        """The judge's penalty that decided the match, if one did (``adjudicator.engine.judging``)."""
        if not self.penalties:
            return None
        return judging.deciding(self.penalties, self.game.outcome(self.state).score is None, self.players)

    def outcome(self, seq: int | None = None) -> Any:
        """The match's outcome now, or right after ``seq``: the game's, unless a judge's penalty
        decided it."""
        if seq is None:
            return judging.outcome(self.game.outcome(self.state), self.penalties, self.players)
        given = [(s, p) for s, p in self.penalties if s <= seq]
        return judging.outcome(self.game.outcome(self.history[seq]), given, self.players)

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    def _correct(self, line: _Line, event: Correct, seq: int, ctx: Context) -> _Line:
        """The effective history with ``event``'s correction made and every later entry re-checked."""
        game = self.game
        idx = line.pos.get(event.at_seq)
        if idx == 0 or (idx is not None and event.at_seq >= seq):
            idx = None
        bad = Violation(
            RULE_CORRECT_TARGET,
            f"cannot insert before seq {event.at_seq}: it is not a later event of the effective history",
        )
        try:
            game.check_author(event, self.players)
            game.check_judge_only(event)  # the kit's gate, then the game's
            game.step(self._resolve(line, len(line.entries) - 1), event, ctx)  # the gate, before anything is replayed
        except NotEffective:
            if idx is None:
                raise bad from None
            raise
        if idx is None:
            raise bad
        inserted = decode_inserted(game, event)
        rebuilt = _Line(line.entries[:idx])
        replay = [Entry(seq, inserted, None, True)] + line.entries[idx:]
        for step in replay:
            s, ev, was_inserted = step.seq, step.event, step.inserted
            log_len = len(self.log) if s == seq else bisect_left(self.log, s, key=lambda p: p[0])
            step_ctx = self._context(rebuilt, s, log_len)
            try:
                if isinstance(ev, Correct) and not was_inserted:
                    # An earlier correction: its event is already in place; only its gate is re-checked.
                    rebuilt.push(Entry(s, ev, game.step(self._resolve(rebuilt, len(rebuilt.entries) - 1), ev, step_ctx)))
                    continue
                if isinstance(ev, Rewind):  # the state at the head when it was made
                    made_from = self.history[self.log[bisect_left(self.log, s, key=lambda p: p[0]) - 1][0]]
                    cut, entry, _ = self._step(rebuilt, ev, s, step_ctx, made_from)
                else:
                    cut, entry, _ = self._step(rebuilt, ev, s, step_ctx)
            except Violation as v:
                raise self._conflict(v, event, seq, ev, s, was_inserted, game.correction_conflict) from None
            if entry is not None:
                rebuilt.push(msgspec.structs.replace(entry, inserted=was_inserted))
            else:
                rebuilt = cut  # type: ignore[assignment]
        last = self._resolve(rebuilt, len(rebuilt.entries) - 1)
        rebuilt.push(Entry(seq, event, game.step(last, event, self._context(rebuilt, seq, len(self.log)))))
        return rebuilt

    @staticmethod
    def _conflict(
        v: Violation, event: Correct, seq: int, ev: Action, s: int, was_inserted: bool,
        conflict: tuple[str, str] | None = None,
    ) -> Violation:
        """The rejection of a correction. The inserted event's own violation is reported as it
        is; a later event that no longer holds is reported under the game's
        ``correction_conflict`` ``(rule_id, code)`` when it declares one (the message then
        names the rule the event now fails), else under that event's own rule."""
        if was_inserted and s == seq:
            what = f"the inserted {event_type(ev)} cannot stand before seq {event.at_seq}"
            return Violation(v.rule_id, f"{what}: {v.message}", v.code)
        if was_inserted:
            what = f"the correction conflicts with the {event_type(ev)} inserted by seq {s}, which would no longer hold"
        else:
            what = f"the correction conflicts with seq {s} ({event_type(ev)}), which would no longer hold"
        if conflict is not None:
            rule_id, code = conflict
            return Violation(rule_id, f"{what}: it now fails {v.rule_id} ({v.code}): {v.message}", code)
        return Violation(v.rule_id, f"{what}: {v.message}", v.code)


_T = TypeVar("_T")


class Rolling:
    """The fold of a match read a batch at a time (``adj import``, ``adj verify``), which lets go
    of the past between batches (``compact``). What needs the past raises ``NeedsHistory`` in
    ``apply``; ``whole()``, the caller's fold of every event so far, then takes the fold's place
    for good, and the call is made again on it. Without ``whole`` nothing is let go of."""

    def __init__(self, fold: Fold, whole: Callable[[], Fold] | None = None):
        self.fold = fold
        self._whole = whole

    def apply(self, call: Callable[..., _T], *args: Any) -> _T:
        """``call(fold, *args)``; once more on the whole fold if it needs the past."""
        try:
            return call(self.fold, *args)
        except NeedsHistory:
            if self._whole is None:  # never compacted: it has all of it
                raise
            self.fold, self._whole = self._whole(), None
            return call(self.fold, *args)

    def compact(self) -> bool:
        """``Fold.compacted``, unless the fold is whole for good, has nothing new since it was
        compacted, or stands at a judge's call (outside the effective history: a later event can
        be compacted at). True if it let go of the past."""
        fold = self.fold
        eff = fold._effective_seqs
        if self._whole is None or fold.resumed_at == fold.head or not eff or eff[-1] != fold.head:
            return False
        self.fold = fold.compacted()
        return True


def runs(seqs: Iterable[int]) -> list[tuple[int, int]]:
    """Increasing seqs as runs of consecutive ones: ``[1, 2, 3, 7, 8]`` -> ``[(1, 3), (7, 8)]``."""
    return Runs.of(seqs).runs()


def unrun(pairs: Iterable[tuple[int, int]]) -> list[int]:
    """The seqs of ``runs``."""
    return [s for a, b in pairs for s in range(a, b + 1)]


def unrun_within(pairs: Iterable[tuple[int, int]], last: int) -> Runs | None:
    """The seqs of ``runs``, as ``Runs`` (what ``Fold.resumed`` takes over), or None unless the runs
    are increasing seqs from 1 to ``last``, a gap between each two (read from a store: checked)."""
    checked = []
    low = 1
    for a, b in pairs:
        if not (type(a) is int and type(b) is int and low <= a <= b <= last):
            return None
        checked.append((a, b))
        low = b + 2
    return Runs(checked)


def event_fields(event: Action) -> dict[str, Any]:
    """The event's own fields (no type, no by), as plain JSON-able data."""
    data = msgspec.json.decode(msgspec.json.encode(event))  # tuples become lists, as stored
    data.pop("type", None)
    data.pop("by", None)
    return data
