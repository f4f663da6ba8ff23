"""The match service: load a match, check an action, append it or record the rejected attempt.

This is the one place where the pure reducers meet a store and a clock. The clock only stamps
``recorded_at``, which no rule reads.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import os
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from adjudicator.engine import confirming, registry
from adjudicator.engine.fold import Fold, NeedsHistory, Rolling, decode_event, event_fields, event_type, runs, unrun_within
from adjudicator.engine.kit import Game
from adjudicator.engine.inputs import check_event, check_match_id
from adjudicator.engine.judging import CALL_TYPES
from adjudicator.engine.protocol import JUDGE, Malformed, Outcome, Violation
from events.chain import IntegrityError, verify_chain
from events.envelope import Draft, Rejection, StoredEvent, canonical, to_line
from events.factory import open_store, store_location
from events.store import Appending, ConflictError, Store, StoreError, UnknownMatch, check_idempotency_key

if TYPE_CHECKING:
    from adjudicator.records.matchfile import FileFold, LineVerdict

#: What the command line needs of the stores, so that it speaks to ``adjudicator`` only.
__all__ = [
    "ConflictError", "IntegrityError", "LineRefused", "Malformed", "MatchService", "MemoryStore", "StoreError", "UnknownMatch",
    "Violation", "check_match_id", "copy_matches", "open_store", "parse_lines", "store_location",
]


def __getattr__(name: str) -> Any:
    """What only some commands need, imported when asked for (a command that reads or enters one
    action does not load the file reader, the in-memory store or the store copier)."""
    if name == "MemoryStore":
        from events.memory import MemoryStore

        return MemoryStore
    if name == "copy_matches":
        from events.copy import copy_matches

        return copy_matches
    if name == "parse_lines":
        from adjudicator.records.matchfile import parse_lines

        return parse_lines
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Told ``(done, total)`` as long work goes on (a terminal shows it; tests count it).
Progress = Callable[[int, int], None]


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


class _Record:
    """A plain record: its fields in ``__slots__``, given in that order to ``__init__``, compared
    and shown by them (what ``dataclasses`` would build, without importing it and building the
    classes' methods at every command's start: issue 25)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value, as a dataclass

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={getattr(self, f)!r}" for f in self.__slots__)
        return f"{type(self).__qualname__}({fields})"


class Match(_Record):
    """A match loaded from its log and folded: the state now, and everything to show its past."""

    __slots__ = ("match_id", "game", "fold", "events", "snapshot_seq")

    def __init__(self, match_id: str, game: Game, fold: Fold, events: list[StoredEvent] | None = None,
                 snapshot_seq: int = 0) -> None:
        self.match_id = match_id
        self.game = game
        self.fold = fold
        #: the log; for a match resumed from a snapshot (``MatchService.current``), the events after it
        self.events: list[StoredEvent] = [] if events is None else events
        self.snapshot_seq = snapshot_seq  # the seq of the snapshot the store keeps for it, as far as known

    @property
    def state(self) -> Any:
        return self.fold.state

    @property
    def head(self) -> int:
        return self.fold.head

    @property
    def players(self) -> tuple[str, ...]:
        return self.fold.players

    def outcome(self) -> Outcome:
        return self.fold.outcome()  # the game's, unless a judge's penalty decided it


class Verdict(_Record):
    """The answer to one submitted action."""

    __slots__ = ("accepted", "event", "match", "violation", "type", "by")

    def __init__(self, accepted: bool, event: StoredEvent | None, match: Match, violation: Violation | None = None,
                 type: str | None = None, by: str | None = None) -> None:  # noqa: A002 - the field's name
        self.accepted = accepted
        self.event = event
        self.match = match
        self.violation = violation
        self.type = type  # of a refused attempt: what was tried, and by whom
        self.by = by


class LineRefused(Violation):
    """A line of an imported file was refused by a rule: nothing was imported."""

    def __init__(self, verdict: LineVerdict):
        self.verdict = verdict
        super().__init__(verdict.rule or "", f"line {verdict.line} ({verdict.type}): {verdict.message}", verdict.code)


class CheckReport(_Record):
    """The result of adjudicating a whole JSONL log without storing anything."""

    __slots__ = ("events", "accepted", "verdicts", "match")

    def __init__(self, events: int, accepted: int, verdicts: list[LineVerdict], match: Match | None) -> None:
        self.events = events
        self.accepted = accepted
        self.verdicts = verdicts
        self.match = match

    @property
    def rejections(self) -> list[LineVerdict]:
        return [v for v in self.verdicts if not v.accepted]


class MatchService:
    def __init__(self, store: Store, clock: Callable[[], str] = utc_now, cache_size: int = 64):
        self.store = store
        self.clock = clock
        # matches this service folded, most recent last: a terminal entering action after
        # action does not re-read and re-fold the whole log each time
        self._folded: OrderedDict[str, Match] = OrderedDict()
        self._cache_size = cache_size

    def _current(self, match_id: str) -> Match:
        """The match as the store holds it now. The copy folded here last time is reused while
        the store's head has not moved (the log only grows, and a seq is written once, so the same
        head seq means the same events); otherwise the match is loaded and verified afresh."""
        match = self._folded.get(match_id)
        if match is not None and self.store.head(match_id) == match.head:
            self._folded.move_to_end(match_id)
            return match
        match = self.current(match_id)
        self._remember(match)
        return match

    def current(self, match_id: str) -> Match:
        """The match now, for what needs only the present (its state, what is open, the next
        plain action): folded from the snapshot the store keeps and the events after it, whose
        chain is verified from the snapshot's event on; the whole log when there is no snapshot
        that fits (adjudicator/engine/snapshot.py), or when an event after it needs what came before.
        Its ``events`` are then the events after the snapshot only."""
        kept = self.store.snapshot(match_id)
        match = self._resumed(match_id, kept) if kept is not None else None
        return match if match is not None else self.load(match_id)

    def _resumed(self, match_id: str, kept: tuple[int, bytes], upto: int | None = None) -> Match | None:
        """The match folded from ``kept`` (a snapshot's seq and data, as the store keeps them) and
        the events after it through ``upto`` (None: the head), their chain verified from the
        snapshot's event on; None when the snapshot does not fit: not at a stored event of the
        effective history (never a judge's call), not of this code or of that event, a state the
        game cannot read (altered in the store: a snapshot is typed, not trusted), or an event
        after it that needs what came before (a rewind, a correction)."""
        from adjudicator.engine import snapshot

        at, data = kept
        events = self.store.read(match_id, at, upto)
        if not events or events[0].seq != at or (upto is not None and events[-1].seq != upto) or events[0].type in CALL_TYPES:
            return None
        try:
            game = registry.get(str(self.store.read(match_id, 1, 1)[0].fields.get("game", "")))
        except Malformed:
            return None
        found = snapshot.decode(game, data)
        if found is None or found[0].seq != at or found[0].hash != events[0].hash:
            return None
        snap, state = found
        verify_chain(events[1:], match_id, from_seq=at + 1, prev=snap.hash)
        effective = unrun_within(snap.effective, at)
        if not effective or effective[-1] != at:
            return None
        try:
            game.outcome(state)
            game.legal(state)
            game.view(state)
            fold = Fold.resumed(game, match_id, at, state, snap.players, snap.penalties, effective)
            fold.base_point = snap.point
            fold.replay(events[1:])
        except Exception:  # noqa: BLE001 - NeedsHistory, or the game failing on it: the log decides
            return None
        return Match(match_id, game, fold, events[1:], snapshot_seq=at)

    def _keep_snapshot(self, match: Match, head: StoredEvent | None = None) -> None:
        """Keep a snapshot of ``match`` at its head (the event ``head``, by default the last of its
        events) when the last one is ``snapshot.EVERY`` events behind. A snapshot is a cache: a
        store that cannot keep one changes nothing."""
        from adjudicator.engine import snapshot

        head = head or (match.events[-1] if match.events else None)
        if match.head - match.snapshot_seq < snapshot.EVERY or head is None or head.seq != match.head:
            return
        data = _snapshot_of(match.game, match.fold, head)
        if data is None:
            return
        try:
            self.store.save_snapshot(match.match_id, match.head, data)
        except StoreError:
            return
        match.snapshot_seq = match.head

    def check_snapshot(self, match: Match) -> bool:
        """Check the snapshot kept for ``match`` (loaded whole) against its log: its event and its
        state are those the log folds to. False when there is none, or it is from other code (no
        command uses it); ``IntegrityError`` when it does not match."""
        found = self._kept_snapshot(match.match_id, match.game)
        if found is None:
            return False
        seq, snap, state = found
        if not 1 <= seq <= len(match.events):
            raise IntegrityError(match.match_id, seq, "the snapshot kept for this seq is not of the event stored there")
        penalties = [(s, p) for s, p in match.fold.penalties if s <= seq]
        effective = runs(walk_effective(match.events[:seq])[0])
        at = match.events[seq - 1]
        point = None if at.type == confirming.TYPE else confirming.point_at(match.game, match.fold.history, seq)
        _snapshot_fits(match.match_id, seq, snap, state, at.hash, match.fold.state_at(seq),
                       match.players, penalties, effective, point)
        return True

    def _kept_snapshot(self, match_id: str, game: Game, at: int | None = None) -> tuple[int, Any, Any] | None:
        """``(seq, snapshot, state)`` of the last snapshot kept for the match (of the one kept at
        ``at``), when it is one of ``game``'s by this code."""
        from adjudicator.engine import snapshot

        kept = self.store.snapshot(match_id) if at is None else self.store.snapshot_at(match_id, at)
        if kept is None or at is not None and kept[0] != at:
            return None
        found = snapshot.decode(game, kept[1])
        return None if found is None else (kept[0], *found)

    def _remember(self, match: Match) -> None:
        self._folded[match.match_id] = match
        self._folded.move_to_end(match.match_id)
        while len(self._folded) > self._cache_size:
            self._folded.popitem(last=False)

    # -- loading -----------------------------------------------------------------------------
    def load(self, match_id: str, *, upto: int | None = None, progress: Progress | None = None,
             states: dict[int, Any] | None = None) -> Match:
        """Read, verify and fold a match. A stored event that no longer adjudicates is an
        integrity failure: the log was altered, or it was written under other rules.
        ``states``: filled as ``fold_stored`` says."""
        events = self.store.read(match_id, 1, upto)
        if not events:
            raise UnknownMatch(match_id)
        verify_chain(events, match_id)
        return fold_stored(events, progress, states)

    def load_at(self, match_id: str, seq: int, since: int | None = None) -> tuple[Match, int, int | None] | None:
        """The match folded through event ``seq`` only, for a look at the past that does not cost
        the whole match: ``(match, the head seq, the seq of the rewind that abandoned seq or
        None)``, or None when ``seq`` is not an event of the match. Its ``fold.state_at`` gives
        the state after ``seq``, and after ``since`` (an earlier seq, default ``seq``) too.

        It is folded from the snapshot kept at or nearest before ``since`` and the events after
        it, whose chain is verified from the snapshot's event on, when one fits and the events
        from it to ``seq`` need nothing before it (``_resumed_through``); else the events through
        ``seq`` are read, their chain verified and folded. A state after an event is the same
        either way: it depends on the events up to it alone. Of the rest of the log, only the
        rewinds are read (whether one abandoned ``seq``: the first later one to an earlier seq).
        ``verify`` checks the whole log."""
        head = self.store.head(match_id)
        if not head:
            raise UnknownMatch(match_id)
        if not 1 <= seq <= head or since is not None and not 1 <= since <= seq:
            return None
        match = self._resumed_through(match_id, seq if since is None else since, seq)
        if match is None:
            events = self.store.read(match_id, 1, seq)
            verify_chain(events, match_id)
            match = fold_stored(events)
        gone = None
        last = match.events[-1] if match.events else None  # None: resumed at seq, never a judge's call
        if last is None or last.type not in CALL_TYPES:  # a judge's call stands outside the history
            gone = next((r for r, to in self.store.rewinds_after(match_id, seq) if type(to) is int and to < seq), None)
        return match, head, gone

    def _resumed_through(self, match_id: str, since: int, seq: int) -> Match | None:
        """The match resumed from the snapshot kept at or nearest before ``since`` and folded
        through ``seq``, its states after ``since`` and ``seq`` computed; None when there is no
        snapshot that fits (as for ``current``), or when what lies between needs the events
        before it (a rewind, a correction)."""
        kept = self.store.snapshot_at(match_id, since)
        match = self._resumed(match_id, kept, seq) if kept is not None else None
        if match is None:
            return None
        try:
            match.fold.outcome(since)
            match.fold.outcome(seq)
        except Exception:  # noqa: BLE001 - NeedsHistory, or the game failing on it: the log decides
            return None
        return match

    # -- writing -----------------------------------------------------------------------------
    def new(
        self,
        game_name: str,
        players: Sequence[str],
        *,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        match_id: str | None = None,
        by: str = JUDGE,
    ) -> Verdict:
        game = registry.get(game_name)
        fields: dict[str, Any] = {"game": game_name, "players": list(players), "options": dict(options or {})}
        fields["rules_version"] = game.rules_versions[-1]
        fields.update(setup or {})
        match_id = self._fresh_id(game_name) if match_id is None else match_id
        check_match_id(match_id)
        return self.submit(match_id, "match_started", by, fields, strict=True)

    def _fresh_id(self, game_name: str) -> str:
        taken = {m.match_id for m in self.store.matches()}
        n = 1
        while f"{game_name}-{n}" in taken:
            n += 1
        return f"{game_name}-{n}"

    def submit(
        self,
        match_id: str,
        type_: str,
        by: str,
        fields: Mapping[str, Any],
        *,
        strict: bool = True,
        idempotency_key: str | None = None,
        expect_seq: int | None = None,
    ) -> Verdict:
        """Check one action against the match and append it, or record the rejected attempt.

        ``Malformed`` is raised before anything is read or written. A ``Violation`` is recorded
        beside the log and returned in the verdict. ``ConflictError`` means another entry
        landed first; nothing was written and the caller may re-submit (it is re-checked).
        A retry under an ``idempotency_key`` already stored returns the events stored under it
        (accepted, nothing written), whatever the head is now: it is not checked again. The
        retry must be the same action (type, author and fields as stored): another action under
        a key already used is ``Malformed``, nothing written.

        A refused ``match_started`` is not recorded: there is no match for it to belong to, and
        a later match that gets the same id must not inherit it. Nor is a refused ``confirm``: a
        signature that does not hold is not a table action, and nothing of it is written.

        ``expect_seq``: the head the caller saw. When the match is elsewhere, ``ConflictError`` and
        nothing is checked or written; the append itself is made at that head, so an entry that
        lands meanwhile makes it a ``ConflictError`` too (a client acting on what it was shown).
        """
        check_event(type_, by, fields)
        if idempotency_key is not None:
            try:
                check_idempotency_key(idempotency_key)
            except ValueError as exc:
                raise Malformed(str(exc), "idempotency_key") from None
            retried = self._retried(match_id, idempotency_key, type_, by, fields, strict)
            if retried is not None:
                return retried
        fields = dict(fields)
        if type_ == "match_started":
            head = self.store.head(match_id)
            if head:
                raise ConflictError(match_id, 0, head)
            check_match_id(match_id)
            game = registry.get(str(fields.get("game", "")))
            if fields.get("rules_version") is None:  # left out: the current version is recorded
                fields["rules_version"] = game.rules_versions[-1]
            event = decode_event(game, type_, by, fields, strict=strict)
            match = Match(match_id, game, Fold(game, match_id), [])
        else:
            match = self._current(match_id)
            if expect_seq is not None and match.head != expect_seq:
                raise ConflictError(match_id, expect_seq, match.head)
            event = decode_event(match.game, type_, by, fields, strict=strict)
        fields = event_fields(event)
        try:
            try:
                match.fold.preview(event, match.head + 1)
            except NeedsHistory:  # resumed from a snapshot, and this event needs what came before it
                match = self.load(match_id)
                match.fold.preview(event, match.head + 1)
        except Violation as v:
            if type_ in UNRECORDED:
                return Verdict(False, None, match, v, type_, by)
            # a racing attempt under the same key may have landed since the key was looked up, and
            # this one was checked after it: a retry is answered as one, never checked again
            if idempotency_key is not None:
                retried = self._retried(match_id, idempotency_key, type_, by, fields, strict)
                if retried is not None:
                    return retried
            self.store.record_rejection(
                Rejection(
                    match_id=match_id,
                    head_seq=match.head,
                    type=type_,
                    by=by,
                    recorded_at=self.clock(),
                    fields=fields,
                    rule=v.rule_id,
                    message=v.message,
                    code=v.code,
                )
            )
            return Verdict(False, None, match, v, type_, by)
        draft = Draft(type=type_, by=by, recorded_at=self.clock(), fields=fields)
        stored = self.store.append(match_id, [draft], match.head, idempotency_key=idempotency_key)
        if stored and stored[-1].seq <= match.head:  # the key was used meanwhile, by another process
            _same_action(stored[-1], event, idempotency_key or "")
            return Verdict(True, stored[-1], self._current(match_id))
        for ev in stored:
            if ev.seq > match.head:
                # the event just checked is the one stored: advance reuses the preview's result
                typed = event if ev.seq == match.head + 1 and len(stored) == 1 else match.fold.decode(ev)
                match.fold.advance(typed, ev.seq)
                match.fold.sealed(ev.seq, ev.hash)
                match.events.append(ev)
        self._remember(match)
        self._keep_snapshot(match)
        return Verdict(True, stored[-1] if stored else None, match)

    def _retried(self, match_id: str, key: str, type_: str, by: str, fields: Mapping[str, Any],
                 strict: bool) -> Verdict | None:
        """The answer to a retry under ``key`` when events are stored under it: those events,
        accepted and not checked again (``Malformed`` if this is another action); else None."""
        done = self.store.events_for_key(match_id, key)
        if not done:
            return None
        match = self.load(match_id)  # its report shows the state around an event that may be older than a snapshot
        _same_action(done[-1], decode_event(match.game, type_, by, fields, strict=strict), key)
        return Verdict(True, done[-1], match)

    # -- whole files -------------------------------------------------------------------------
    def import_lines(
        self, lines: Iterable[str], match_id: str | None = None, default_id: str = "imported", progress: Progress | None = None
    ) -> Match:
        """Import a JSONL match. Every line must be accepted (else ``Violation``, nothing
        written); a file that carries hashes must verify (else ``IntegrityError``) and is
        stored byte for byte, under its own match id.

        The id is ``match_id`` if given, else the file's ``match_id`` field, else ``default_id``.

        The lines are read, adjudicated and written as they come, ``IMPORT_BATCH`` events at a
        time, in one transaction of the store (``Store.appending``), and the fold lets go of the
        past after each batch (``FileFold.compact``): a long file is imported in memory that does
        not grow with it, unless a rewind or a correction needs the events before. The match
        returned holds the events since the fold's last batch, as one resumed from a snapshot."""
        from adjudicator.records.matchfile import EMPTY, Envelopes, FileFold, LineVerdict, read_lines

        total = len(lines) if isinstance(lines, Sized) else 0
        parsed = read_lines(lines)
        first = next(parsed, None)
        if first is None:
            raise Malformed(EMPTY, "line 1")
        envelopes = Envelopes("hash" in first[1], match_id or default_id)
        envelopes.check(first[0], first[1])
        file_mid = first[1].get("match_id")
        if envelopes.sealed and match_id and file_mid and match_id != file_mid:
            raise Malformed(
                f"the file is sealed for match {file_mid!r}; it cannot be imported as {match_id!r} (its hashes cover "
                f"the id): leave out --id to import it as {file_mid!r}", "$.match_id"
            )
        if envelopes.sealed and file_mid is not None:  # the hashes cover it: it is the id the match is stored under
            check_match_id(file_mid)
        mid = match_id or file_mid or default_id
        check_match_id(mid)

        from adjudicator.engine import snapshot

        kept = [0]  # the seq of the last snapshot kept with the events

        def run(out: Appending | None) -> FileFold:
            pending: list[StoredEvent] = []

            def history() -> list[StoredEvent]:
                out.add(pending, hashed=True)  # type: ignore[union-attr]
                pending.clear()
                return out.read()  # type: ignore[union-attr]

            table = FileFold(first[:2], mid, self.clock, envelopes, history if out is not None else None)
            refused: LineVerdict | None = None
            for no, obj, data in itertools.chain((first,), parsed):
                verdict, stored = table.line(no, obj, data)
                if stored is None:
                    refused = refused or verdict  # the lines after it are still read: bad input is named first
                elif out is not None:
                    pending.append(stored)
                    if refused is None and stored.seq - kept[0] >= snapshot.EVERY:  # a look back starts near
                        data = _snapshot_of(table.game, table.fold, stored)
                        if data is not None:
                            out.save_snapshot(stored.seq, data)
                            kept[0] = stored.seq
                    if len(pending) >= IMPORT_BATCH:
                        out.add(pending, hashed=True)  # each sealed, or its hash verified, by FileFold.line
                        pending.clear()
                        table.compact()
                if progress is not None:  # lines read, of the file's lines (0: not known)
                    progress(no, total)
            if refused is not None:
                raise LineRefused(refused)
            if out is not None:
                out.add(pending, hashed=True)
            return table

        with ExitStack() as stack:
            try:
                out = stack.enter_context(self.store.appending(mid, 0))
            except ConflictError:
                run(None)  # the file is judged first: what is wrong with it is said before the conflict
                raise
            table = run(out)
        match = Match(table.match_id, table.game, table.fold, table.events, snapshot_seq=kept[0])
        self._remember(match)  # adjudicated once: no second read and fold
        self._keep_snapshot(match, table.last)
        return match

    def export_lines(self, match_id: str, viewer: str | None = None) -> list[str]:
        """The match as sealed JSONL; for a ``viewer`` (a player), the lines that player may see:
        private fields hidden (``Game.redact``) and no ``prev`` or ``hash``, since a redacted line
        no longer matches its hash. Such a file is a view of the log, not a copy to import."""
        if viewer is None:
            events = self.store.read(match_id)
            if not events:
                raise UnknownMatch(match_id)
            return [to_line(e) for e in events]
        match = self.load(match_id)
        out = []
        for e in match.events:
            fields = match.game.redact(e.type, e.by, e.fields, viewer, match.players, seq=e.seq, state=match.state)
            line = {"match_id": e.match_id, "seq": e.seq, "type": e.type, "by": e.by, "recorded_at": e.recorded_at, **fields}
            out.append(msgspec.json.encode(line, order="sorted").decode())
        return out

    def verify(self, match_id: str, progress: Progress | None = None) -> Match:
        """Hash chain, full re-adjudication and every snapshot kept beside the log;
        ``IntegrityError`` on any failure. The log is read, checked and folded ``VERIFY_BATCH``
        events at a time, and the fold lets go of the past after each batch, as an import's does:
        a long match is verified in flat memory unless a rewind or a correction reaches back (then
        the events before it are read again and folded whole). The match returned holds the
        events since the last batch; ``load`` gives a whole match."""
        return self._verify(match_id, progress)[0]

    def _verify(self, match_id: str, progress: Progress | None = None, rejections: bool = False,
                seen: Callable[[list[StoredEvent]], None] | None = None) -> tuple[Match, int]:
        """``verify``; with ``rejections``, also every rejected attempt re-adjudicated at the head
        it was tried at (as ``recheck_rejections``), in the same pass. ``seen`` is given each batch
        of events as it is read, before it is checked. Returns the match and how many attempts
        were checked."""
        total = self.store.head(match_id)
        if not total:
            raise UnknownMatch(match_id)
        tried: dict[int, list[Rejection]] = {}
        for r in self.store.rejections(match_id) if rejections else ():
            tried.setdefault(r.head_seq, []).append(r)
        first = self.store.read(match_id, 1, 1)
        if seen is not None:
            seen(first)
        verify_chain(first, match_id)
        events = list(first)  # since the fold's start

        def whole() -> Fold:  # what came before the batch, read again: folded whole from here on
            nonlocal events
            events = self.store.read(match_id, 1, rolling.fold.head)
            verify_chain(events, match_id)
            return fold_stored(events).fold

        # match_started: its game, or the integrity failure; only the rolling fold holds the fold,
        # so that it lets go of the past for good
        rolling = Rolling(fold_stored(events).fold, whole)
        game = rolling.fold.game
        kept = self.store.snapshot_seqs(match_id)  # every snapshot, read when the fold is at its event
        outside = [s for s in kept if s < 1]
        kept = [s for s in kept if s >= 1]
        checked = 0

        def attempts(head: int) -> None:  # those tried at ``head``, where the fold stands
            nonlocal checked
            for r in tried.pop(head, ()):
                checked += rolling.apply(_check_attempt, match_id, game, head, r)

        from adjudicator.engine import snapshot

        def snapshot_at(ev: StoredEvent) -> None:  # the snapshot, against the fold right after its event
            snap = self._kept_snapshot(match_id, game, ev.seq)
            if snap is None:
                return
            fold = rolling.fold
            _snapshot_fits(match_id, ev.seq, snap[1], snap[2], ev.hash, fold.state, fold.players,
                           list(fold.penalties), fold.effective_runs(), snapshot.point_of(game, fold))

        attempts(0)
        batch = first
        while True:
            for ev in batch:
                if ev.seq > 1:
                    attempts(ev.seq - 1)
                    rolling.apply(Fold.replay, (ev,))
                    events.append(ev)
                if kept and kept[0] == ev.seq:
                    del kept[0]
                    snapshot_at(ev)
                if progress is not None:
                    progress(ev.seq, total)
            last = events[-1]
            if len(batch) == VERIFY_BATCH and rolling.compact():  # more may come: the fold lets go of the past
                events = []
            batch = self.store.read(match_id, last.seq + 1, last.seq + VERIFY_BATCH)
            if not batch:
                break
            if seen is not None:
                seen(batch)
            verify_chain(batch, match_id, from_seq=last.seq + 1, prev=last.hash)
        head = rolling.fold.head
        attempts(head)
        if tried:
            raise IntegrityError(match_id, None, f"an attempt is recorded at head seq {min(tried)}, beyond the log's head")
        for seq in outside + kept:  # kept for no event of the log (before seq 1, after the head)
            if self._kept_snapshot(match_id, game, seq) is not None:
                raise IntegrityError(match_id, seq, "the snapshot kept for this seq is not of the event stored there")
        return Match(match_id, game, rolling.fold, events), checked

    def verify_each(self, match_ids: Sequence[str], progress: Progress | None = None,
                    observe: Observe | None = None, heads: Mapping[str, int] | None = None) -> list[Verified]:
        """``verify`` and ``recheck_rejections`` of every match, in order, each one's result
        or its ``IntegrityError``. Matches are spread over processes (on Linux, this one and one
        forked from it for each further core this process may use; elsewhere, a pool of one a core;
        each opens the store for reading once and takes the next share of the matches as it ends
        one) when the store is a file or a server, there is more than one such core, and the work
        is large enough to pay for starting them (``PARALLEL_EVENTS``).

        ``observe(store, match_id)``, when given, is fed every event of the match as it is read
        to be verified (``feed``), and asked at the end for what it found (``finish``, which may
        read what was not fed, when the match did not verify): that is ``Verified.found``. It runs
        in the process that verifies the match, so it is sent there: a module's function or a
        picklable object. ``heads``: each match's head seq, when the caller listed the matches
        already (otherwise they are listed again here, to share them out)."""
        if len(match_ids) == 1:  # its events as they are folded
            return [self._verified(match_ids[0], progress, observe)]
        workers = min(usable_cores(), len(match_ids))
        url = getattr(self.store, "url", "")
        listed: Mapping[str, int] = {}
        if url in ("", "memory:"):  # another process cannot open it
            workers = 1
        elif workers > 1:
            listed = heads if heads is not None else {m.match_id: m.head_seq for m in self.store.matches()}
            workers = workers if sum(listed.get(m, 0) for m in match_ids) >= PARALLEL_EVENTS else 1
        if workers < 2:
            results = []
            for done, m in enumerate(match_ids, 1):
                results.append(self._verified(m, None, observe))
                if progress is not None:
                    progress(done, len(match_ids))
            return results
        if hasattr(os, "fork") and sys.platform.startswith("linux"):
            out = self._verify_forked(shares(match_ids, listed, workers), workers, url, progress, observe)
            return [out[m] for m in match_ids]
        from concurrent.futures import ProcessPoolExecutor, as_completed

        out = {}
        # the platform's way to start them; a worker opens the store itself once
        with ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(url, observe)) as pool:
            futures = [pool.submit(_verify_share, share) for share in shares(match_ids, listed, workers)]
            done = 0
            for f in as_completed(futures):
                for r in f.result():
                    out[r.match_id] = r
                done += len(f.result())
                if progress is not None:
                    progress(done, len(match_ids))
        return [out[m] for m in match_ids]

    def _verify_forked(self, todo: list[list[str]], workers: int, url: str, progress: Progress | None,
                       observe: Observe | None) -> dict[str, Verified]:
        """``verify_each`` over ``workers`` processes: this one and ``workers - 1`` forked from it
        (nothing imported again, no pool to start or stop), each taking the next share off a pipe
        that holds them all, largest first, until none is left. A forked process opens the store
        itself once (it never touches the connection it inherits), writes each share's results
        back as it is done, and ends without running this process's exit handlers."""
        import pickle
        import threading

        total = sum(map(len, todo))
        got: list[list[Verified] | BaseException] = []  # each share's results, as they are done
        queue_r, queue_w = os.pipe()
        os.write(queue_w, b"".join(i.to_bytes(4, "little") for i in range(len(todo))))  # fits a pipe's buffer
        os.close(queue_w)
        sys.stdout.flush()
        sys.stderr.flush()
        pids: list[int] = []
        readers: list[threading.Thread] = []

        def read_back(fd: int) -> None:  # a thread of this process: what a forked one wrote
            with os.fdopen(fd, "rb") as back:
                while True:
                    try:
                        got.append(pickle.load(back))
                    except (EOFError, pickle.UnpicklingError):  # its end (cut short: counted below)
                        return

        try:
            for _ in range(workers - 1):
                back_r, back_w = os.pipe()
                pid = os.fork()
                if pid == 0:  # the forked process: never returns
                    os.close(back_r)
                    _forked_worker(queue_r, back_w, todo, url, observe)
                os.close(back_w)
                pids.append(pid)
                readers.append(threading.Thread(target=read_back, args=(back_r,), daemon=True))
            for t in readers:  # once every process is forked: none is forked with a thread running
                t.start()
            while (i := _next_share(queue_r)) is not None:
                got.append([self._verified(m, None, observe) for m in todo[i]])
                if progress is not None:
                    progress(sum(len(s) for s in got if not isinstance(s, BaseException)), total)
        finally:
            os.close(queue_r)
            for t in readers:
                if t.ident is not None:
                    t.join()
            ended = [os.waitpid(pid, 0)[1] for pid in pids]
        out: dict[str, Verified] = {}
        for share in got:
            if isinstance(share, BaseException):
                raise share
            out.update((r.match_id, r) for r in share)
        if sum(map(len, got)) != total or any(ended):
            raise RuntimeError("a process verifying a share of the store's matches ended before it was done")
        if progress is not None:
            progress(total, total)
        return out

    def _verified(self, match_id: str, progress: Progress | None = None, observe: Observe | None = None) -> Verified:
        watch = observe(self.store, match_id) if observe is not None else None
        try:
            match, rechecked = self._verify(match_id, progress, rejections=True, seen=watch and watch.feed)
            result = Verified(match_id, True, match.head, rechecked)
        except IntegrityError as exc:
            result = Verified(match_id, False, self.store.head(match_id), 0, str(exc))
        if watch is not None:
            result.found = watch.finish()
        return result

    def check_lines(self, lines: Iterable[str], match_id: str = "check", progress: Progress | None = None) -> CheckReport:
        """Adjudicate a JSONL match as a table session, storing nothing: every line's verdict."""
        from adjudicator.records.matchfile import FileFold, parse_lines

        parsed = parse_lines(lines)
        table = FileFold(parsed[0], match_id, self.clock)
        verdicts = []
        for done, (no, obj) in enumerate(parsed, 1):
            verdicts.append(table.line(no, obj)[0])
            if progress is not None:
                progress(done, len(parsed))
        match = Match(table.match_id, table.game, table.fold, table.events) if table.fold.entries else None
        return CheckReport(events=len(parsed), accepted=sum(v.accepted for v in verdicts), verdicts=verdicts, match=match)

    def recheck_rejections(self, match: Match) -> int:
        """Re-adjudicate every rejected attempt recorded for ``match`` (as ``load`` returns it)
        at the head it was tried at: each must still be refused, by the same rule. Returns how
        many were checked; ``IntegrityError`` names the first whose verdict differs."""
        pending: dict[int, list[Rejection]] = {}
        for r in self.store.rejections(match.match_id):
            pending.setdefault(r.head_seq, []).append(r)
        if not pending:
            return 0
        fold = Fold(match.game, match.match_id)
        checked = 0
        for head in range(match.head + 1):
            for r in pending.pop(head, ()):
                checked += _check_attempt(fold, match.match_id, match.game, head, r)
            if head < match.head:
                fold.replay((match.events[head],))
        if pending:
            raise IntegrityError(
                match.match_id, None, f"an attempt is recorded at head seq {min(pending)}, beyond the log's head"
            )
        return checked


def _snapshot_of(game: Game, fold: Fold, head: StoredEvent) -> bytes | None:
    """The snapshot of ``fold`` at its head, the event ``head``; None where none is kept: at a
    judge's call (outside the effective history: the next action keeps one), or for a game
    without a state type."""
    from adjudicator.engine import snapshot

    if head.type in CALL_TYPES or head.seq != fold.head:
        return None
    return snapshot.encode(game, fold, head.hash)


def _check_attempt(fold: Fold, match_id: str, game: Game, head: int, r: Rejection) -> int:
    """Re-adjudicate a rejected attempt at ``head``, where ``fold`` stands: it must still be refused,
    by the same rule (``IntegrityError`` otherwise). ``NeedsHistory`` from a fold resumed from its
    present, when the attempt needs the past. Returns 1, the attempt checked."""
    where = f"the {r.type!r} attempted by {r.by} at head seq {head}"
    try:
        if head == 0:  # a match_started tried before the match existed may name another game
            attempt = Fold(registry.get(str(r.fields.get("game", ""))), match_id)
            attempt.preview(decode_event(attempt.game, r.type, r.by, r.fields), head + 1)
        else:
            fold.preview(decode_event(game, r.type, r.by, r.fields), head + 1)
    except Violation as v:
        if v.rule_id != r.rule:
            raise IntegrityError(match_id, None, f"{where} was refused by {r.rule}; re-adjudicated, by {v.rule_id}") from None
    except Malformed as exc:
        raise IntegrityError(match_id, None, f"{where} no longer decodes: {exc}") from None
    else:
        raise IntegrityError(match_id, None, f"{where} was refused by {r.rule}; re-adjudicated, it is accepted")
    return 1


def _snapshot_fits(match_id: str, seq: int, snap: Any, state: Any, hash_: str, folded: Any, players: Sequence[str],
                   penalties: list, effective: list[tuple[int, int]], point: str | None) -> None:
    """``IntegrityError`` unless the snapshot ``snap`` (with its decoded ``state``) kept at ``seq``
    is of the event stored there (``hash_``) and holds what the log folds to there: ``point`` is
    its event's confirmation point (``confirming.point``), which the snapshot may leave out (None)."""
    if snap.seq != seq or snap.hash != hash_:
        raise IntegrityError(match_id, seq, "the snapshot kept for this seq is not of the event stored there")
    if (state != folded or list(snap.players) != list(players) or snap.penalties != penalties
            or [tuple(r) for r in snap.effective] != [tuple(r) for r in effective]
            or snap.point is not None and snap.point != point):
        raise IntegrityError(match_id, seq, "the snapshot kept for this seq does not match the state the log folds to")


#: Refused attempts of these types are not recorded (``MatchService.submit``).
UNRECORDED = frozenset(("match_started", "confirm"))

#: Events an import writes at a time, after which its fold lets go of the past (``import_lines``).
IMPORT_BATCH = 1000

#: Events ``verify`` reads at a time, after which its fold lets go of the past.
VERIFY_BATCH = 1000

#: Events in all from which ``verify_each`` spreads matches over processes: below it, starting
#: them (each forks, opens the store and gathers its results) costs more than it saves. On 2 cores
#: with nothing else running, a pool of two processes took 14 ms to start and collect, and broke
#: even at about 1,000 events (E2Drive, ``verify_each`` and the audit); at 5,000 they were x1.5
#: faster. Forking one process beside this one costs less (2 BACDEF matches, 249 events: 13 ms
#: more than one process, where the pool took 45 ms more, on a machine with other work running).
PARALLEL_EVENTS = 5_000

#: How finely ``verify_each`` cuts the matches: each share holds about a ``SHARES_EACH``-th of
#: what is left for each process, so that the shares grow smaller to the end, and every process
#: ends within a small share of the others (the largest matches go first).
SHARES_EACH = 4


def usable_cores() -> int:
    """The cores this process may run on (fewer than the machine's when pinned, as by ``taskset``)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on every platform
        return os.cpu_count() or 1


def shares(match_ids: Sequence[str], heads: Mapping[str, int], workers: int) -> list[list[str]]:
    """The matches cut into shares, the largest matches first (a long match is one share of its
    own), each share of about a ``SHARES_EACH``-th of the events left for each process: large
    shares first, then ever smaller ones, down to one match."""
    order = sorted(match_ids, key=lambda m: -heads.get(m, 0))
    left = sum(heads.get(m, 0) for m in match_ids)
    out: list[list[str]] = []
    size = events = 0
    for m in order:
        if not out or events >= size:
            left -= events
            out.append([])
            size, events = max(1, left // (workers * SHARES_EACH)), 0
        out[-1].append(m)
        events += heads.get(m, 0)
    return out


class Watch(Protocol):
    """What ``verify_each``'s ``observe`` gives for a match: fed its events, then asked what it found."""

    def feed(self, events: Sequence[StoredEvent]) -> None: ...

    def finish(self) -> Any: ...


Observe = Callable[[Store, str], Watch]


class Verified(_Record):
    """One match of ``MatchService.verify_each``: verified (with the rejected attempts checked
    again), or the integrity failure that stopped it."""

    __slots__ = ("match_id", "ok", "events", "rejections_rechecked", "error", "found")

    def __init__(self, match_id: str, ok: bool, events: int, rejections_rechecked: int = 0, error: str | None = None,
                 found: Any = None) -> None:
        self.match_id = match_id
        self.ok = ok
        self.events = events
        self.rejections_rechecked = rejections_rechecked
        self.error = error
        self.found = found  # what ``verify_each``'s ``observe`` found in it


#: A process of ``verify_each``: the service over the store it opened, and the ``observe`` given.
_worker: tuple[MatchService, Observe | None] | None = None


def _start_worker(url: str, observe: Observe | None) -> None:
    """Open the store for reading, once for all the shares this process is given."""
    from multiprocessing.util import Finalize

    global _worker
    store = open_store(url, write=False)
    Finalize(store, store.close, exitpriority=10)
    _worker = (MatchService(store), observe)


def _verify_share(match_ids: list[str]) -> list[Verified]:
    """``verify_each`` of a share of the matches, in a process of its own."""
    assert _worker is not None
    service, observe = _worker
    return [service._verified(m, None, observe) for m in match_ids]


def _next_share(queue: int) -> int | None:
    """The index of the next share off the pipe every process takes from (None: none left). A
    read of 4 bytes from a pipe written whole before any process read it is never split."""
    data = os.read(queue, 4)
    return int.from_bytes(data, "little") if len(data) == 4 else None


def _forked_worker(queue: int, back: int, todo: list[list[str]], url: str, observe: Observe | None) -> None:
    """A process forked by ``verify_each``: opens the store, verifies shares off ``queue`` until
    none is left, writing each one's results to ``back`` (or what was raised), and ends at once
    (``os._exit``: this process's exit handlers, and the store it inherited, are not its own)."""
    import pickle

    import gc

    gc.freeze()  # what it inherited is never collected here: its pages stay shared
    code = 0
    try:
        with os.fdopen(back, "wb") as out:
            try:
                store = open_store(url, write=False)
                try:
                    service = MatchService(store)
                    while (i := _next_share(queue)) is not None:
                        pickle.dump([service._verified(m, None, observe) for m in todo[i]], out)
                        out.flush()
                finally:
                    store.close()
            except BaseException as exc:  # given to the process that forked this one, which raises it
                code = 1
                try:
                    pickle.dump(exc, out)
                except Exception:
                    pickle.dump(RuntimeError(repr(exc)), out)
    finally:
        os._exit(code)


def _same_action(done: StoredEvent, event: Any, key: str) -> None:
    """A retry under an idempotency key must repeat the action stored under it."""
    fields = event_fields(event)
    if (done.type, done.by) == (event_type(event), event.by) and canonical(done.fields) == canonical(fields):
        return
    from adjudicator.presentation.render import event_line

    raise Malformed(
        f"the key {key!r} was used for seq {event_line(done.seq, done.by, done.type, done.fields)}; "
        f"a different action needs a key of its own (nothing was written)",
        "idempotency_key",
    )


def fold_stored(events: Sequence[StoredEvent], progress: Progress | None = None,
                states: dict[int, Any] | None = None) -> Match:
    """Fold a verified log. Any event that does not adjudicate is an integrity failure.

    ``states``: filled with every seq -> the state right after it, as ``Fold.history`` gives it,
    taken as each event is folded (when its state is still at hand: the fold keeps one in
    ``KEEP``, and ``history`` computes the others again). For whoever walks through every state
    of a whole match (the page of ``adj replay --html``): they all stay in memory."""
    first = events[0]
    match_id = first.match_id
    if first.type != "match_started":
        raise IntegrityError(match_id, first.seq, f"the log begins with {first.type!r}, not match_started")
    try:
        game = registry.get(str(first.fields.get("game", "")))
    except Malformed as exc:
        raise IntegrityError(match_id, 1, exc.message) from None
    fold = Fold(game, match_id)
    if states is not None:
        history, told = fold.history, progress

        def progress(seq: int, last: int) -> None:
            if seq in history:
                states[seq] = history[seq]
            if told is not None:
                told(seq, last)

    fold.replay(events, progress, events[-1].seq)
    return Match(match_id, game, fold, list(events))


def walk_effective(events: Sequence[StoredEvent]) -> tuple[list[int], dict[int, int]]:
    """The effective history after ``events`` (accepted events of a match, from seq 1), and
    ``{abandoned seq: seq of the rewind that abandoned it}``, read from the log's structure
    alone: every stored event was accepted, so the effective history follows from the rewinds'
    ``to_seq`` (a correction's inserted event has no seq of its own, and a judge's call stands
    outside the history). The same as ``Fold.branches``, without folding."""
    effective: list[int] = []
    gone: dict[int, int] = {}
    for ev in events:
        if ev.type in CALL_TYPES:
            continue
        if ev.type == "rewind":
            cut = effective.index(ev.fields["to_seq"]) + 1
            for s in effective[cut:]:
                gone[s] = ev.seq
            del effective[cut:]
        effective.append(ev.seq)
    return effective, gone
