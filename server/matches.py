"""The resident matches of one server: folded once, kept in memory (an LRU), and checked against
the store's head before every use, so that an entry costs one check and one append.

All that touches the folds runs on one thread of its own (``Tables.call``): entries into one server
are checked and appended one at a time, in the order they arrive, and only an entry through another
server can make an append a conflict (which the store decides: docs/stores.md). What reads the whole
log (the log, an export, a verify, the live streams' catch-up) runs on a second thread over a
connection of its own (``Tables.read``), so a long read never holds up the table.

A match held here is current when the store's head is the seq it was folded to (a seq is written
once and the log only grows, so the same head is the same events). When another server moved it,
the events since are read, their chain verified from the last hash held, and folded on; when that
cannot be done (a rewind that needs the past of a fold resumed from a snapshot), the match is
folded again from the store's snapshot, as ``adj act`` does. A match folded far past its snapshot
lets go of its past (``Fold.compacted``), so memory stays that of a short match.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from adjudicator.authority.judges import SignedStore
from adjudicator.engine.fold import NeedsHistory
from adjudicator.service import Match, MatchService, Verdict
from events.chain import verify_chain
from events.factory import open_store
from events.store import Store

_T = TypeVar("_T")

#: Events a resident fold holds before it lets go of its past.
KEEP = 2000


class ResidentService(MatchService):
    """``MatchService`` whose matches stay folded: one moved on by another writer is caught up
    with the events since, not folded again."""

    def _current(self, match_id: str) -> Match:
        match = self._folded.get(match_id)
        if match is not None and match.events:
            head = self.store.head(match_id)
            if head == match.head:
                self._folded.move_to_end(match_id)
                return match
            if head > match.head:
                try:
                    new = self.store.read(match_id, match.head + 1, head)
                    verify_chain(new, match_id, from_seq=match.head + 1, prev=match.events[-1].hash)
                    match.fold.replay(new)
                    match.events.extend(new)
                    self._folded.move_to_end(match_id)
                    return match
                except (NeedsHistory, Exception):  # noqa: BLE001 - folded again below: the store decides
                    self._folded.pop(match_id, None)
        return super()._current(match_id)

    def compact(self, match: Match) -> None:
        """Let a long resident fold go of its past, keeping its present (the next rewind or
        correction that needs the past folds the match from the store again)."""
        fold = match.fold
        if len(fold.log) < KEEP:
            return
        runs = fold.effective_runs()
        if not runs or runs[-1][1] != fold.head:  # the head is a judge's call, outside the history
            return
        match.fold = fold.compacted()
        del match.events[:-1]


class Tables:
    """The resident matches and the threads they are used on.

    ``store`` is the server's store (entries go through it, signed as ``judge_key()`` says);
    ``reader`` a second connection to it for long reads (the same object for a memory store)."""

    def __init__(self, store: Store, reader: Store, judge_key: Callable[[], Any], cache_size: int = 256):
        self.store = store
        self.reader = reader
        self.service = ResidentService(SignedStore(store, judge_key), cache_size=cache_size)
        self.reading = MatchService(reader)
        self._table = ThreadPoolExecutor(1, thread_name_prefix="adj-table")
        self._read = self._table if reader is store else ThreadPoolExecutor(1, thread_name_prefix="adj-read")

    @classmethod
    def open(cls, url: str | None, judge_key: Callable[[], Any], cache_size: int = 256) -> Tables:
        store = open_store(url, write=True)
        reader = store if store.url in ("memory:", "", ":memory:") else open_store(store.url, write=False)
        return cls(store, reader, judge_key, cache_size)

    async def call(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn`` on the table's thread: what uses the resident folds or writes."""
        return await asyncio.get_running_loop().run_in_executor(self._table, functools.partial(fn, *args, **kwargs))

    async def read(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn`` on the reading thread: what reads the store without the folds."""
        return await asyncio.get_running_loop().run_in_executor(self._read, functools.partial(fn, *args, **kwargs))

    # -- on the table's thread ------------------------------------------------------------------
    def current(self, match_id: str) -> Match:
        """The match at the store's head (folded on, or from the store, when it moved)."""
        return self.service._current(match_id)

    def submit(self, match_id: str, type_: str, by: str, fields: dict[str, Any], *,
               key: str | None = None, expect_seq: int | None = None) -> Verdict:
        """One entry, checked as ``adj act`` checks it (a word such as ``"3"`` converts to the
        field's type). A long resident fold lets go of its past first, keeping the state the
        answer compares the new one with."""
        held = self.service._folded.get(match_id)
        if held is not None:
            self.service.compact(held)
        return self.service.submit(match_id, type_, by, fields, strict=False, idempotency_key=key,
                                   expect_seq=expect_seq)

    def close(self) -> None:
        self._table.shutdown(wait=True)
        if self._read is not self._table:
            self._read.shutdown(wait=True)
        for s in {id(self.store): self.store, id(self.reader): self.reader}.values():
            s.close()
