"""A match file (JSONL) as it comes in: one JSON object a line, its envelope keys checked.

A sealed file (an export: ``hash`` on line 1, and then on every line) carries ``seq``, ``prev``,
``hash``, ``recorded_at`` and ``match_id`` as the store wrote them; an envelope key of the wrong
type there, or a ``recorded_at`` missing or not an RFC 3339 time in UTC, is an altered log, an
integrity failure (``IntegrityError``). A file without hashes
(written by hand, or by a tool at the table) may carry, and is held to (``Malformed`` otherwise):

- ``match_id``: a valid match id, the same on every line that has one;
- ``recorded_at``: an RFC 3339 time in UTC, kept as the time the line was entered;
- ``seq``: an integer, which must be the seq the line gets (checked as the file is adjudicated);
- no ``prev``: a link means nothing without the hash it belongs to.

``type`` and ``by`` are strings on every line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, Rolling, decode_event, decode_known, event_fields
from adjudicator.engine.inputs import check_event, check_match_id, read_canonical, read_json
from adjudicator.engine.kit import Game
from adjudicator.engine.protocol import Malformed, Violation
from events.chain import IntegrityError, verify_chain
from events.digest import BULK
from events.envelope import Draft, StoredEvent, body_hash, line_body, seal, split_flat, utc_time_problem


class Wire(msgspec.Struct, kw_only=True):
    """The envelope keys a line may carry, with their types."""

    type: str
    by: str
    match_id: str | msgspec.UnsetType = msgspec.UNSET
    seq: Annotated[int, msgspec.Meta(ge=1)] | msgspec.UnsetType = msgspec.UNSET
    recorded_at: str | msgspec.UnsetType = msgspec.UNSET
    prev: str | msgspec.UnsetType = msgspec.UNSET
    hash: str | msgspec.UnsetType = msgspec.UNSET


def read_lines(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any], bytes | None]]:
    """``(line number, flat object, canonical bytes)`` of each line as it is read; ``Malformed``
    names the bad line. Blank lines are skipped; every other line is one JSON object within the
    input limits. Once the first line carries a hash (the file is sealed), a line's bytes come
    with it when they are its canonical JSON (``read_canonical``), as the store wrote them: what
    its hash covers, but for the hash (``FileFold.line``); None otherwise."""
    sealed = None
    for no, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        if sealed and (read := read_canonical(text)) is not None:
            obj, data = read
        else:
            obj, data = read_json(text, f"line {no}"), None
        if not isinstance(obj, dict):
            raise Malformed(f"line {no} is not a JSON object", f"line {no}")
        if sealed is None:
            sealed = "hash" in obj
        yield no, obj, data


def parse_lines(lines: Iterable[str]) -> list[tuple[int, dict[str, Any]]]:
    """Every line of ``read_lines``; ``Malformed`` for a file with none."""
    out = [(no, obj) for no, obj, _ in read_lines(lines)]
    if not out:
        raise Malformed(EMPTY, "line 1")
    return out


EMPTY = "the log is empty: a match file starts with a match_started line"


class Envelopes:
    """The envelope keys of a file's lines, checked one line at a time, in order (see the
    module's docstring). The file is sealed when its first line carries a hash; ``match_id``
    names the match in an integrity failure when the file does not."""

    def __init__(self, sealed: bool, match_id: str):
        self.sealed = sealed
        self.match_id = match_id
        self.first_mid: str | None = None
        self.lines = 0

    def check(self, no: int, obj: dict[str, Any], env: dict[str, Any] | None = None) -> None:
        """Check line ``no``: ``obj``, whose envelope keys are ``env`` when already split off."""
        if env is None:
            env = split_flat(obj)[0]
        sealed = self.sealed
        try:
            wire = msgspec.convert(env, Wire, strict=True)
        except msgspec.ValidationError as exc:
            text, _, at = str(exc).partition(" - at `")
            where = f"line {no}: {at.rstrip('`') or '$'}"
            if sealed:
                raise IntegrityError(self.match_id, None, f"{where}: {text}: the sealed file was altered") from None
            raise Malformed(f"{where}: {text}", where) from None
        self.lines += 1
        if sealed:
            if self.lines == 1 and isinstance(wire.match_id, str):  # the match the file was sealed for
                self.match_id = wire.match_id
            if wire.hash is msgspec.UNSET:
                raise Malformed(f"line {no} has no hash while line 1 has one", f"line {no}: $.hash")
            problem = "it is missing" if wire.recorded_at is msgspec.UNSET else utc_time_problem(wire.recorded_at)
            if problem:  # the store never writes one: someone did, and sealed it again
                raise IntegrityError(self.match_id, None, f"line {no}: $.recorded_at: {problem}: the sealed file was altered")
            return
        if wire.recorded_at is not msgspec.UNSET:
            problem = utc_time_problem(wire.recorded_at)
            if problem:
                raise Malformed(f"line {no}: $.recorded_at: {problem}", f"line {no}: $.recorded_at")
        if wire.hash is not msgspec.UNSET and self.lines > 1:
            raise Malformed(f"line {no} has a hash while line 1 has none", f"line {no}: $.hash")
        if wire.prev is not msgspec.UNSET:
            raise Malformed(f"line {no} has a prev but no hash: a link means nothing without its hash", f"line {no}: $.prev")
        if wire.match_id is not msgspec.UNSET:
            try:
                check_match_id(wire.match_id)
            except Malformed as exc:
                raise Malformed(f"line {no}: {exc.message}", f"line {no}: $.match_id") from None
            if self.first_mid is not None and wire.match_id != self.first_mid:
                raise Malformed(f"line {no} belongs to match {wire.match_id!r}, not {self.first_mid!r}", f"line {no}: $.match_id")
            self.first_mid = wire.match_id


def stored_from_flat(no: int, env: dict[str, Any], fields: dict[str, Any], match_id: str) -> StoredEvent:
    """The stored event a sealed line holds: its envelope keys ``env`` (already checked) and
    ``fields`` (``split_flat``)."""
    try:
        return StoredEvent(
            match_id=env.get("match_id", match_id),
            seq=env["seq"],
            type=env["type"],
            by=env["by"],
            recorded_at=env["recorded_at"],
            fields=fields,
            prev=env.get("prev", ""),
            hash=env["hash"],
        )
    except KeyError as exc:
        raise IntegrityError(match_id, None, f"line {no} carries a hash but no {exc.args[0]!r}") from None


@dataclass
class LineVerdict:
    line: int
    type: str
    by: str
    accepted: bool
    rule: str | None = None
    code: str | None = None
    message: str | None = None
    head_seq: int | None = None  # how many lines were accepted before this one


class FileFold:
    """The lines of one match file adjudicated in order, as a table session: a refused line
    changes nothing, and the next line goes on from the same state. A sealed file is verified as
    it is read: each line must continue the chain and be accepted (``IntegrityError`` otherwise).

    ``events`` are the accepted lines as stored events, since the fold's start: from seq 1, or
    from where ``compact`` last left off. ``compact`` lets go of what the fold holds of the past
    (``Fold.compacted``); when a later event needs it (a rewind, a correction, a look at the log),
    ``history`` is asked for every accepted event so far, they are folded again, and the file
    is folded whole from there on."""

    def __init__(self, first: tuple[int, dict[str, Any]], match_id: str, clock: Callable[[], str],
                 envelopes: Envelopes | None = None, history: Callable[[], list[StoredEvent]] | None = None):
        no, obj = first
        if envelopes is None:
            envelopes = Envelopes("hash" in obj, match_id)
            envelopes.check(no, obj)
        self.envelopes = envelopes
        self.sealed = envelopes.sealed
        self.match_id = str(obj.get("match_id", match_id)) if self.sealed else match_id
        if obj["type"] != "match_started":
            raise Malformed(f"line {no}: a match file starts with match_started, not {obj['type']!r}", f"line {no}: $.type")
        fields = split_flat(obj)[1]
        self.game = registry.get(str(fields.get("game", "")))
        if not self.sealed and fields.get("rules_version") is None:
            fields["rules_version"] = self.game.rules_versions[-1]
        self._first = (no, fields)
        self.rolling = Rolling(Fold(self.game, self.match_id), self._whole if history is not None else None)
        self.events: list[StoredEvent] = []
        self.last: StoredEvent | None = None  # the last event accepted
        self.history = history
        self._clock = clock
        self._prev = ""

    def line(self, no: int, obj: dict[str, Any], data: bytes | None = None) -> tuple[LineVerdict, StoredEvent | None]:
        """The verdict on one line, and its stored event when it is accepted. ``data``: the line's
        bytes when they are its canonical JSON (``read_lines``), with which a sealed line is
        checked in one pass (``_verified``)."""
        first_no, first_fields = self._first
        fold, mid, sealed = self.fold, self.match_id, self.sealed
        seq = fold.head + 1
        stored = self._verified(obj, data) if data is not None and sealed and no != first_no else None
        if stored is None:
            env, fields = split_flat(obj)
            if no != first_no:
                self.envelopes.check(no, obj, env)
            else:
                fields = first_fields
            if sealed:
                stored = stored_from_flat(no, env, fields, mid)
                verify_chain((stored,), mid, from_seq=self.envelopes.lines, prev=self._prev, bulk=self.envelopes.lines >= BULK)
            type_, by, said = env["type"], env["by"], None if sealed else env.get("seq")
        else:
            type_, by, fields, said = stored.type, stored.by, stored.fields, None
        try:
            event = line_event(self.game, no, type_, by, fields, seq, said)
            self._advance(event, seq)
        except Malformed as exc:
            where = exc.path if exc.path.startswith("line ") else f"line {no}: {exc.path}"
            if sealed:
                raise IntegrityError(mid, stored.seq, f"sealed {type_!r} does not decode ({where}): {exc.message}") from None
            raise Malformed(exc.message, where) from None
        except Violation as v:
            if sealed:
                raise IntegrityError(mid, stored.seq, f"sealed {type_!r} does not adjudicate: {v}") from None
            return LineVerdict(no, type_, by, False, v.rule_id, v.code, v.message, self.fold.head), None
        if not sealed:
            draft = Draft(type=type_, by=by, recorded_at=env.get("recorded_at") or self._clock(), fields=event_fields(event))
            stored = seal(mid, seq, self._prev, draft, fresh=True, bulk=seq >= BULK)
        self.fold.sealed(seq, stored.hash)  # what a confirmation of this head is checked against
        self._prev = stored.hash
        self.last = stored
        self.events.append(stored)
        return LineVerdict(no, type_, by, True), stored

    def _verified(self, obj: dict[str, Any], data: bytes) -> StoredEvent | None:
        """The stored event of a sealed line whose bytes ``data`` are its canonical JSON, checked
        in one pass: it carries every envelope key, of the type ``Envelopes.check`` wants, continues
        the chain (``verify_chain``), and its hash is the hash of the line without it
        (``line_body``). ``obj`` itself becomes the event's fields. None when anything is off, with
        ``obj`` untouched, for the checks one at a time to say what."""
        try:
            mid, seq, type_, by, at, prev, hash_ = (
                obj["match_id"], obj["seq"], obj["type"], obj["by"], obj["recorded_at"], obj["prev"], obj["hash"]
            )
        except KeyError:
            return None
        lines = self.envelopes.lines + 1
        if not (mid == self.match_id and type(seq) is int and seq == lines and prev == self._prev and type(type_) is str
                and type(by) is str and type(at) is str and type(hash_) is str and utc_time_problem(at) is None):
            return None
        body = line_body(data, hash_)
        if body is None or body_hash(prev, body, lines >= BULK) != hash_:
            return None
        self.envelopes.lines = lines
        del obj["match_id"], obj["seq"], obj["type"], obj["by"], obj["recorded_at"], obj["prev"], obj["hash"]
        return StoredEvent(match_id=mid, seq=seq, type=type_, by=by, recorded_at=at, fields=obj, prev=prev, hash=hash_)

    @property
    def fold(self) -> Fold:
        return self.rolling.fold

    def _advance(self, event: Any, seq: int) -> None:
        self.rolling.apply(Fold.advance, event, seq)

    def _whole(self) -> Fold:
        """Every event accepted so far (``history``), folded again: the fold from here on."""
        events = self.history()  # type: ignore[misc]
        fold = Fold(self.game, self.match_id)
        fold.replay(events)
        self.events = events
        return fold

    def compact(self) -> bool:
        """Let go of the past (``Rolling.compact``); True if it did."""
        if not self.rolling.compact():
            return False
        self.events = []
        return True


def line_event(game: Game, no: int, type_: Any, by: Any, fields: dict[str, Any], seq: int, said: int | None) -> Any:
    """The typed event of one line, within the input limits; the seq an unsealed line ``said`` it
    has, when it did, must be the seq the line gets."""
    if said is not None and said != seq:
        raise Malformed(f"line {no} says seq {said}, but it comes as seq {seq} of the match", f"line {no}: $.seq")
    try:
        check_event(type_, by, fields, values_checked=True)  # read_json checked the line
    except Malformed as exc:
        raise Malformed(f"line {no}: {exc.message}", f"line {no}: {exc.path}") from None
    path = f"line {no}: $"
    event = decode_known(game, type_, by, fields, path)  # split from the envelope keys: none among them
    return event if event is not None else decode_event(game, type_, by, fields, path=path)
