"""The live channel: server-sent events for one match and for the whole floor (docs/serve.md, "Live").

Two parts, as boardgame.io's transport and pub/sub:

- ``PubSub``: one interface that says "this match moved". ``LocalPubSub`` tells the streams of this
  process; ``PostgresPubSub`` also tells every server on the same PostgreSQL store, with
  ``NOTIFY adj_moved, 'MATCH'``, and listens for the others'. Scaling out changes the constructor,
  not the code. A notice carries only the match id: what moved is always read from the store.
- ``Hub``: the streams of this server. A notice makes it read, once for all the streams of that
  match, what the store holds past what it has handed on (events by seq, recorded attempts by
  count), and hand that to every stream, each of which shows it to its own viewer.

A stream of one match sends each accepted event with its seq as the event ``id``; on (re)connecting
with ``Last-Event-ID: N`` (or ``?after=N``) it first sends the events after N from the store, then
goes on live, skipping what it already sent: nothing lost, nothing repeated, whatever the order of
notices and reads. A notice that never comes (another server died between its commit and its
NOTIFY, a listener reconnecting) is made up for by the hub looking at the store every
``POLL`` seconds while it has streams.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import uuid
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec

from adjudicator.engine import registry
from adjudicator.presentation.render import PUBLIC
from events.envelope import Rejection, StoredEvent
from server.wire import escape

log = logging.getLogger("adj.serve")

#: Seconds between two looks at the store while streams are open (a notice may be lost).
POLL = 5.0
#: Seconds of silence after which a stream sends a comment, so proxies keep it open.
KEEPALIVE = 15.0
#: Items a slow stream may fall behind before it is closed (its client resumes from its last id).
BACKLOG = 2000
#: Floor messages kept for a floor stream that resumes.
FLOOR_KEPT = 10_000

CHANNEL = "adj_moved"

Notify = Callable[[str | None], None]  # a match id, or None: anything may have moved


class PubSub(ABC):
    """Says that a match moved, to the streams of every server on the store."""

    def __init__(self) -> None:
        self._callbacks: list[Notify] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    def subscribe(self, callback: Notify) -> None:
        self._callbacks.append(callback)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def close(self) -> None:
        pass

    def _tell_here(self, match_id: str | None) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for cb in self._callbacks:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(cb, match_id)

    @abstractmethod
    def publish(self, match_id: str) -> None:
        """From any thread, after an event was appended or an attempt recorded."""


class LocalPubSub(PubSub):
    """One server: the notice goes to this process's streams."""

    def publish(self, match_id: str) -> None:
        self._tell_here(match_id)


class PostgresPubSub(PubSub):
    """Several servers on one PostgreSQL store: ``NOTIFY`` after each entry, ``LISTEN`` on a
    connection of its own, on a thread of its own; this server's streams are told at once too.
    After the listening connection is lost and opened again, every stream looks at the store."""

    def __init__(self, url: str):
        super().__init__()
        self.url = url
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._send = None
        self._send_lock = threading.Lock()
        self.listening = threading.Event()

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name="adjudicator-serve")

    async def start(self) -> None:
        await super().start()
        self._thread = threading.Thread(target=self._listen, name="adj-listen", daemon=True)
        self._thread.start()
        await asyncio.get_running_loop().run_in_executor(None, self.listening.wait, 10.0)

    def _listen(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        self._tell_here(None)  # notices may have been missed meanwhile
                    first = False
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5, stop_after=256):
                            self._tell_here(n.payload or None)
            except Exception as exc:  # noqa: BLE001 - the connection went: open it again
                self.listening.clear()
                if not self._stop.is_set():
                    log.warning("live: lost the PostgreSQL listener (%s); reconnecting", str(exc).strip())
                    self._stop.wait(1.0)

    def publish(self, match_id: str) -> None:
        self._tell_here(match_id)  # this server's streams need not wait for the round trip
        with self._send_lock:
            for attempt in (1, 2):
                try:
                    if self._send is None or self._send.closed:
                        self._send = self._connect()
                    self._send.execute("SELECT pg_notify(%s, %s)", (CHANNEL, match_id))
                    return
                except Exception as exc:  # noqa: BLE001 - the other servers' polls make up for it
                    self._send = None
                    if attempt == 2:
                        log.warning("live: could not NOTIFY for %s (%s)", match_id, str(exc).strip())

    async def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._thread.join, 5.0)
        if self._send is not None:
            self._send.close()


def pubsub_for(url: str) -> PubSub:
    return PostgresPubSub(url) if url.startswith(("postgresql://", "postgres://")) else LocalPubSub()


# -- what a stream is handed ------------------------------------------------------------------------------
class Moved(msgspec.Struct, frozen=True):
    """What the hub read for one match: new events, new recorded attempts, and the table now."""

    match_id: str
    events: tuple[StoredEvent, ...]
    attempts: tuple[Rejection, ...]
    table: dict[str, Any] | None  # head_seq, movers (all of them: the judge's), waiting, phase, outcome


_CLOSE = object()
#: What a stream sends after ``KEEPALIVE`` seconds without news: a comment, which a reader skips.
KEEPALIVE_LINE = b": keep-alive\n\n"


async def _waiting(q: asyncio.Queue) -> AsyncIterator[Any]:
    """What ``q`` brings, until ``_CLOSE``; ``KEEPALIVE_LINE`` after each ``KEEPALIVE`` seconds
    with nothing in it (a proxy between does not close a quiet connection)."""
    while True:
        try:
            item = await asyncio.wait_for(q.get(), KEEPALIVE)
        except asyncio.TimeoutError:
            yield KEEPALIVE_LINE
            continue
        if item is _CLOSE:
            return
        yield item


def sse(event: str, data: Any, id_: str | int | None = None) -> bytes:
    """One server-sent event: JSON data on one line."""
    head = f"id: {id_}\n" if id_ is not None else ""
    return f"{head}event: {event}\n".encode() + b"data: " + escape(msgspec.json.encode(data)) + b"\n\n"


class _Feed:
    """The streams of one match and where the hub stands in it."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue] = set()
        self.seq: int | None = None  # the last event handed on
        self.attempts: int | None = None  # recorded attempts counted
        self.busy = False
        self.again = False


class Hub:
    """This server's streams. ``read(fn, *args)`` runs a store read on the reading thread;
    ``table(match_id)`` gives the table now (on the folds' thread)."""

    def __init__(self, pubsub: PubSub, store: Any, read: Callable[..., Any], table: Callable[[str], Any]):
        self.pubsub = pubsub
        self.store = store
        self.read = read
        self.table = table
        self.feeds: dict[str, _Feed] = {}
        self.floor: set[asyncio.Queue] = set()
        self.floor_seq: dict[str, int] = {}  # per match: the last event the floor handed on
        self.floor_attempts: dict[str, int] = {}  # per match: the recorded attempts the floor counted
        self.floor_kept: deque[tuple[int, bytes, bytes]] = deque(maxlen=FLOOR_KEPT)  # (n, judge's, others')
        self.instance = uuid.uuid4().hex[:8]
        self._n = itertools.count(1)
        self._floor_ready = False
        self._busy: dict[str, list[bool]] = {}  # per match: a read running, another asked for
        self.closing = asyncio.Event()
        self._poller: asyncio.Task | None = None
        pubsub.subscribe(self.moved)

    async def start(self) -> None:
        await self.pubsub.start()
        self._poller = asyncio.create_task(self._poll())

    async def close(self) -> None:
        self.closing.set()
        for q in [*self.floor, *(q for f in self.feeds.values() for q in f.queues)]:
            q.put_nowait(_CLOSE)
        if self._poller is not None:
            self._poller.cancel()
        await self.pubsub.close()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            if self.feeds or self.floor:
                self.moved(None)

    # -- a match moved --------------------------------------------------------------------------------
    def moved(self, match_id: str | None) -> None:
        """Told by the pub/sub (on the event loop): read what is new for the streams concerned."""
        ids = list(self.feeds) if match_id is None else [match_id]
        if self.floor and match_id is None:
            ids = list(dict.fromkeys([*ids, *self.floor_seq]))
        for m in ids:
            if m in self.feeds or (self.floor and self._floor_ready):
                asyncio.ensure_future(self._pull(m))

    async def _pull(self, match_id: str) -> None:
        """``_pull_once``, one at a time per match: a notice during a read makes one more read."""
        state = self._busy.setdefault(match_id, [False, False])
        if state[0]:
            state[1] = True
            return
        state[0] = True
        try:
            while True:
                state[1] = False
                await self._pull_once(match_id)
                if not state[1]:
                    break
        except Exception:  # noqa: BLE001 - a read failed: the next notice or poll tries again
            log.exception("live: reading %s", match_id)
        finally:
            del self._busy[match_id]

    async def _pull_once(self, match_id: str) -> None:
        feed = self.feeds.get(match_id)
        since = [self.floor_seq.get(match_id, 0) if self.floor else None, feed.seq if feed is not None else None]
        low = min(s for s in since if s is not None) if any(s is not None for s in since) else None
        if low is None:
            return
        events = tuple(await self.read(self.store.read, match_id, low + 1))
        attempts: tuple[Rejection, ...] = ()
        refused: tuple[Rejection, ...] = ()  # the floor's: attempts it has not told of
        if (feed is not None and feed.attempts is not None) or self.floor:
            every = await self.read(self.store.rejections, match_id)
            if feed is not None and feed.attempts is not None:
                attempts = tuple(every[feed.attempts:])
                feed.attempts = len(every)
            if self.floor:
                refused = tuple(every[self.floor_attempts.get(match_id, 0):])
                self.floor_attempts[match_id] = len(every)
        if not events and not attempts and not refused:
            return
        try:
            table = await self.table(match_id)
        except Exception:  # noqa: BLE001 - an unknown or unreadable match: events only
            table = None
        if feed is not None and feed.seq is not None:
            mine = tuple(e for e in events if e.seq > feed.seq)
            if mine or attempts:
                feed.seq = mine[-1].seq if mine else feed.seq
                self._hand(feed.queues, Moved(match_id, mine, attempts, table))
        if self.floor:
            done = self.floor_seq.get(match_id, 0)
            mine = tuple(e for e in events if e.seq > done)
            if mine:
                self.floor_seq[match_id] = mine[-1].seq
            if mine or refused:
                self._to_floor(Moved(match_id, mine, refused, table))

    @staticmethod
    def _hand(queues: set[asyncio.Queue], item: Any) -> None:
        for q in list(queues):
            if q.qsize() >= BACKLOG:
                queues.discard(q)
                q.put_nowait(_CLOSE)
            else:
                q.put_nowait(item)

    # -- one match --------------------------------------------------------------------------------------
    async def match_stream(self, match_id: str, viewer: str | None, after: int) -> AsyncIterator[bytes]:
        """The stream of one match for ``viewer`` (None: the judge), from the event after ``after``."""
        feed = self.feeds.get(match_id)
        if feed is None:
            feed = self.feeds[match_id] = _Feed()
        q: asyncio.Queue = asyncio.Queue()
        feed.queues.add(q)  # first: whatever is handed on from now is queued
        try:
            first = await self.read(self.store.read, match_id, 1, 1)
            game = registry.get(str(first[0].fields.get("game", "")))
            players = [p for p in first[0].fields.get("players", ()) if isinstance(p, str)]
            if feed.seq is None:
                feed.seq = await self.read(self.store.head, match_id)
                feed.attempts = len(await self.read(self.store.rejections, match_id))
            sent = after
            caught = await self.read(self.store.read, match_id, after + 1)
            for ev in caught:
                yield _accepted(game, players, ev, viewer)
                sent = ev.seq
            table = await self.table(match_id)
            yield sse("table", _table(match_id, table, viewer))
            async for item in _waiting(q):
                if item is KEEPALIVE_LINE:
                    yield item
                    continue
                out = []
                for ev in item.events:
                    if ev.seq > sent:
                        out.append(_accepted(game, players, ev, viewer))
                        sent = ev.seq
                for r in item.attempts:
                    out.append(sse("rejected", _attempt(game, players, r, viewer)))
                if item.table is not None:
                    out.append(sse("table", _table(match_id, item.table, viewer)))
                if out:
                    yield b"".join(out)
        finally:
            feed.queues.discard(q)
            if not feed.queues and self.feeds.get(match_id) is feed:
                del self.feeds[match_id]

    # -- the floor --------------------------------------------------------------------------------------
    def _to_floor(self, moved: Moved) -> None:
        for r in moved.attempts:  # a refused attempt: a dispute the judges may be called to
            n = next(self._n)
            data = {"match_id": moved.match_id, "head_seq": r.head_seq, "type": r.type, "by": r.by, "rule": r.rule}
            fid = f"{self.instance}.{n}"
            item = (n, sse("rejected", data, fid), sse("rejected", data, fid))
            self.floor_kept.append(item)
            self._hand(self.floor, item)
        for ev in moved.events:
            n = next(self._n)
            base = {"match_id": moved.match_id, "seq": ev.seq, "type": ev.type, "by": ev.by}
            last = ev is moved.events[-1] and moved.table is not None
            judge = {**base, **(_table(moved.match_id, moved.table, None) if last else {})}
            others = {**base, **(_table(moved.match_id, moved.table, PUBLIC) if last else {})}
            fid = f"{self.instance}.{n}"
            item = (n, sse("entry", judge, fid), sse("entry", others, fid))
            self.floor_kept.append(item)
            self._hand(self.floor, item)

    async def floor_stream(self, judge: bool, last_id: str | None) -> AsyncIterator[bytes]:
        """Every match's accepted entries: type and author (no fields), the table now. Resuming
        from an id of this server's that it still keeps, the entries after it; otherwise a
        ``floor`` message with every match's head first."""
        q: asyncio.Queue = asyncio.Queue()
        self.floor.add(q)
        pick = 1 if judge else 2
        try:
            if not self._floor_ready:
                for info in await self.read(self.store.matches):
                    self.floor_seq.setdefault(info.match_id, info.head_seq)
                    if info.match_id not in self.floor_attempts:
                        self.floor_attempts[info.match_id] = len(await self.read(self.store.rejections, info.match_id))
                self._floor_ready = True
            inst, _, n = (last_id or "").partition(".")
            kept = list(self.floor_kept)
            sent = 0
            if inst == self.instance and n.isdigit() and (not kept or kept[0][0] <= int(n) + 1):
                sent = int(n)
                for item in kept:
                    if item[0] > sent:
                        yield item[pick]
                        sent = item[0]
            else:
                heads = await self.read(self.store.matches)
                sent = kept[-1][0] if kept else 0
                yield sse("floor", {"matches": [{"match_id": m.match_id, "head_seq": m.head_seq} for m in heads]},
                          f"{self.instance}.{sent}")
            async for item in _waiting(q):
                if item is KEEPALIVE_LINE:
                    yield item
                    continue
                if item[0] > sent:
                    yield item[pick]
                    sent = item[0]
        finally:
            self.floor.discard(q)


def _accepted(game: Any, players: list[str], ev: StoredEvent, viewer: str | None) -> bytes:
    """An accepted event for ``viewer``, its private fields hidden whether or not revealed later
    (``Game.revealed`` needs the match's state, which the stream does not fold: the log shows
    what has been revealed since)."""
    from adjudicator.presentation.render import event_json

    out = event_json(ev)
    if viewer is not None:
        fields = game.redact(ev.type, ev.by, ev.fields, viewer, players)
        if fields != ev.fields:
            out.update(fields=fields, prev=None, hash=None)
    return sse("accepted", {"match_id": ev.match_id, "seq": ev.seq, "event": out}, ev.seq)


def _attempt(game: Any, players: list[str], r: Rejection, viewer: str | None) -> dict[str, Any]:
    from adjudicator.presentation.render import Row, redacted

    row = Row(None, r.by, r.type, dict(r.fields), rule=r.rule, message=r.message, head_seq=r.head_seq, source=r)
    return redacted([row], game, players, viewer)[0].to_json()


def _table(match_id: str, table: dict[str, Any] | None, viewer: str | None) -> dict[str, Any]:
    """The table now for ``viewer``: who it waits for (to a player, only whether it is them)."""
    if table is None:
        return {"match_id": match_id}
    movers = table["movers"]
    shown = movers if viewer is None else ([viewer] if viewer in movers else [])
    return {"match_id": match_id, "head_seq": table["head_seq"], "to_move": shown, "waiting": table["waiting"],
            "phase": table["phase"], "outcome": table["outcome"]}
