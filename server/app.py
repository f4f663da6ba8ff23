"""``adj serve`` put together: the Litestar app from its parts (the routes of ``server.api`` and
``server.pages``, the credentials of ``server.auth``, the resident matches of ``server.matches``,
the live channel of ``server.live``), and the uvicorn process that serves it until SIGINT or
SIGTERM.

Litestar because its request and response types are msgspec Structs, as the whole project's are:
the answers are encoded by msgspec, and the OpenAPI 3.1 document is generated from the same classes
(``server.schema``). uvicorn because it is the plain ASGI server: one process, one event loop; the
work on the matches runs on the threads of ``server.matches``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
from litestar import Litestar, Request, Response
from litestar.exceptions import HTTPException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin

from adjudicator.engine.protocol import Malformed
from adjudicator.presentation.render import PUBLIC, plain, to_move
from adjudicator.service import utc_now
from server import api, auth, pages, schema, views
from server.errors import ApiError, from_exception, malformed
from server.live import Hub, PubSub, pubsub_for
from server.matches import Tables
from server.tokens import tokens_beside
from server.wire import HEADERS, SafeResponse

log = logging.getLogger("adj.serve")

#: Bytes of a request body at most: one JSON value of docs/json.md's 1,000,000 characters, in the
#: UTF-8 of any text (up to 4 bytes a character). A longer body is refused (413) before it is read.
MAX_BODY = 4_000_000


@dataclass
class Settings:
    store_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None  # the address seats' links use (default: http://HOST:PORT)
    cache_size: int = 256  # resident matches
    max_body: int = MAX_BODY
    judges: Sequence[auth.Judge] = field(default_factory=tuple)
    pubsub: PubSub | None = None  # default: by the store (PostgreSQL: LISTEN/NOTIFY)


class Server:
    """What the routes share: the matches, the credentials, the live channel, the addresses."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._signing: Any = None  # the key of the judge whose entry is being made (table thread)
        self.tables = Tables.open(settings.store_url, lambda: self._signing, settings.cache_size)
        self.credentials = auth.Credentials(settings.judges, tokens_beside(self.tables.store))
        self.pubsub = settings.pubsub or pubsub_for(self.tables.store.url)
        self.hub = Hub(self.pubsub, self.tables.reader, self.tables.read, self._table_now)
        self.clock = utc_now
        self.base_url = settings.public_url or f"http://{settings.host}:{settings.port}"
        self._openapi: bytes | None = None
        self.app: Litestar | None = None

    # -- who is asking ----------------------------------------------------------------------------
    async def identify(self, request: Request) -> auth.Identity:
        header = request.headers.get("authorization")
        if header is None:
            return auth.SPECTATING
        return await self.to_thread(self.credentials.identify, header)

    @staticmethod
    async def to_thread(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    # -- on the table's thread ----------------------------------------------------------------------
    def new(self, judge: auth.Judge, game: str, players: list[str], options: dict, setup: dict, match_id: str | None):
        self._signing = judge.key
        try:
            return self.tables.service.new(game, players, options=options, setup=setup, match_id=match_id)
        finally:
            self._signing = None

    def enter(self, who: auth.Identity, match_id: str, entry: schema.Entry, by: str, fields: dict[str, Any]):
        """``(verdict, replayed, before)``: the entry checked and appended (or refused), or, for a
        key already used by the same author, the entry stored under it; and the head seq and state
        the entry was checked on, when the match was held here."""
        replayed = False
        if entry.key is not None:
            try:
                done = self.tables.store.events_for_key(match_id, entry.key)
            except ValueError as exc:
                raise Malformed(str(exc), "$.key") from None
            if done and done[-1].by != by:  # someone else's: said without showing what it was
                raise malformed(f"the key {entry.key!r} was used for another entry in {match_id}; "
                                "an entry needs a key of its own (nothing was written)", "$.key")
            replayed = bool(done)
        held = self.tables.service._folded.get(match_id)
        before = (held.head, held.state) if held is not None and not replayed else None
        self._signing = who.judge.key if who.judge is not None else None
        try:
            verdict = self.tables.submit(match_id, entry.type, by, fields, key=entry.key, expect_seq=entry.expect_seq)
        finally:
            self._signing = None
        return verdict, replayed, before

    def matches(self, who: auth.Identity, game: str | None, status: str | None, player: str | None,
                waiting: str | None) -> schema.Matches:
        """``adj matches --json`` with its filters; who each table waits for as the caller may know it."""
        from adjudicator.authority.judges import match_signing_modes

        filtered = any(x is not None for x in (game, status, player, waiting))
        signed = match_signing_modes(self.tables.store)
        rows = []
        for info in self.tables.store.matches():
            base = dict(match_id=info.match_id, head_seq=info.head_seq, started_at=info.created_at,
                        updated_at=info.updated_at, signed=info.match_id in signed, signed_by=signed.get(info.match_id))
            try:
                m = self.tables.current(info.match_id)
            except Exception as exc:  # noqa: BLE001 - an unreadable match is listed, not fatal
                if not filtered:
                    rows.append(schema.MatchRow(**base, game=None, players=[], outcome=None, waiting_for=[],
                                                error=str(exc)))
                continue
            out = m.outcome()
            moving = views.movers(m, who.viewer(info.match_id))
            if ((game is not None and m.game.name != game) or (status is not None and out.status != status)
                    or (player is not None and player not in m.players) or (waiting is not None and waiting not in moving)):
                continue
            rows.append(schema.MatchRow(**base, game=m.game.name, players=list(m.players), outcome=out,
                                        waiting_for=moving))
        return schema.Matches(matches=rows)

    def _table_now_sync(self, match_id: str) -> dict[str, Any]:
        m = self.tables.current(match_id)
        out = m.outcome()
        game = views.memo(m.game)
        movers = to_move(views.open_now(m)) if out.status == "in_progress" and m.fold.decided() is None else []
        board = game.board(m.state, PUBLIC)
        return {"head_seq": m.head, "movers": movers, "waiting": board.waiting or None, "phase": board.phase or None,
                "outcome": plain(out)}

    async def _table_now(self, match_id: str) -> dict[str, Any]:
        return await self.tables.call(self._table_now_sync, match_id)

    # -- addresses ------------------------------------------------------------------------------------
    def table_url(self, match_id: str) -> str:
        """The page of a match's table (a spectator's; with a seat's token in the fragment, the seat's)."""
        return f"{self.base_url}/tables/{match_id}"

    def floor_url(self) -> str:
        return f"{self.base_url}/floor"

    def seat(self, match_id: str, token: str) -> schema.Seat:
        import segno

        url = f"{self.table_url(match_id)}#token={token}"  # a fragment never reaches a server's log
        return schema.Seat(token=token, url=url, qr_svg=segno.make(url, error="m").svg_inline(scale=4))

    async def seat_of(self, match_id: str, player: str) -> None:
        """404 for an unknown match, 400 for a name that is not one of its players."""
        first = await self.tables.read(self.tables.reader.read, match_id, 1, 1)
        if not first:
            raise ApiError(404, schema.Error(error="unknown_match", message=f"no match {match_id!r} in the store",
                                             match_id=match_id))
        players = first[0].fields.get("players") or []
        if player not in players:
            raise malformed(f"{player!r} is not a player of {match_id} ({', '.join(map(str, players))})", "$.player")

    # -- the OpenAPI document -------------------------------------------------------------------------
    def openapi(self) -> bytes:
        """Litestar's document of the routes, with the request bodies the routes read themselves
        (within the input limits) described by the same Structs."""
        if self._openapi is None:
            assert self.app is not None
            doc = self.app.openapi_schema.to_schema()
            _, components = msgspec.json.schema_components([schema.CreateMatch, schema.Entry],
                                                           ref_template="#/components/schemas/{name}")
            components["Entry"]["additionalProperties"] = True  # the action's own fields
            components["Entry"]["description"] = (schema.Entry.__doc__ or "").replace("\n    ", "\n").strip()
            doc.setdefault("components", {}).setdefault("schemas", {}).update(components)
            for path, ref in (("/matches", "CreateMatch"), ("/matches/{match_id}/events", "Entry")):
                doc["paths"][path]["post"]["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}
            self._openapi = msgspec.json.encode(doc)
        return self._openapi

    async def start(self) -> None:
        await self.hub.start()

    async def stop(self) -> None:
        await self.hub.close()
        await asyncio.to_thread(self.tables.close)
        self.credentials.tokens.close()


def _answer(request: Request, exc: Exception) -> Response:
    err = from_exception(exc)
    if err is None and isinstance(exc, HTTPException):
        kind = {404: "not_found", 413: "too_large", 401: "unauthorized", 403: "forbidden"}.get(exc.status_code, "usage")
        message = exc.detail if exc.status_code != 404 else f"no route {request.url.path!r}; /openapi.json describes the API"
        if exc.status_code == 413:
            message = f"the body is larger than {request.app.state.adj.settings.max_body:,} bytes; nothing was read"
        err = ApiError(exc.status_code, schema.Error(error=kind, message=str(message)))  # type: ignore[arg-type]
    if err is None:
        log.exception("adj serve: %s %s", request.method, request.url.path, exc_info=exc)
        err = ApiError(500, schema.Error(error="store", message=f"the server failed: {type(exc).__name__}"))
    return SafeResponse(msgspec.to_builtins(err.body), status_code=err.status, media_type="application/json",
                        headers={**HEADERS, **err.headers})


def build_app(settings: Settings) -> Litestar:
    """The app over the store of ``settings``; started and stopped by its lifespan."""
    srv = Server(settings)
    app = Litestar(
        route_handlers=[*api.ROUTES, *pages.ROUTES],
        on_startup=[srv.start],
        on_shutdown=[srv.stop],
        exception_handlers={Exception: _answer},
        response_class=SafeResponse,
        response_headers=HEADERS,
        request_max_body_size=settings.max_body,
        openapi_config=OpenAPIConfig(title="adj serve", version="1", path="/schema",
                                     render_plugins=[JsonRenderPlugin()],
                                     description="The match adjudicator as a live service (docs/serve.md)."),
        debug=False,
    )
    app.state.adj = srv
    srv.app = app
    return app


# -- the process ------------------------------------------------------------------------------------------
def serve(settings: Settings, announce: Callable[[str], None] = print, judge_lines: Sequence[str] = ()) -> None:
    """Serve until SIGINT or SIGTERM; ``announce`` the addresses (and ``judge_lines``) once
    listening. Open streams are ended at once on a signal, so that shutdown does not wait on them."""
    import uvicorn

    app = build_app(settings)
    srv: Server = app.state.adj

    class _Uvicorn(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.should_exit or not self.servers:
                return
            host, port = self.servers[0].sockets[0].getsockname()[:2]
            if settings.public_url is None:
                srv.base_url = f"http://{host}:{port}"
            announce(f"adj serve: listening on {srv.base_url} (store: {_where(srv.tables.store.url)}, pid {os.getpid()})")
            announce(f"floor page: {srv.floor_url()}")
            announce(f"API: {srv.base_url}/openapi.json (docs/serve.md)")
            for line in judge_lines:
                announce(line)

        def handle_exit(self, sig: int, frame: Any) -> None:
            loop = _loop_of(srv)
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(lambda: asyncio.ensure_future(srv.hub.close()))
            super().handle_exit(sig, frame)
            self._captured_signals.clear()  # a stop asked for and carried out: exit 0, not the signal's death

    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=5, proxy_headers=False)
    _Uvicorn(config).run()
    announce("adj serve: stopped")


def _loop_of(srv: Server) -> asyncio.AbstractEventLoop | None:
    return srv.pubsub._loop


def _where(url: str) -> str:
    if url.startswith(("postgresql://", "postgres://")):
        from events.postgres import describe_url

        return describe_url(url)
    return url


__all__ = ["MAX_BODY", "Server", "Settings", "build_app", "serve"]
