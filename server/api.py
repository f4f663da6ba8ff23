"""The HTTP API's routes, and nothing else (docs/serve.md has each with a curl example).

Each route reads the caller (``Server.identify``), asks ``server.auth`` what it may do, runs the
work on the right thread (``server.matches.Tables``) and answers with a type of ``server.schema``,
built as the command line builds its ``--json`` (``server.views``). Failures are raised as
``server.errors.ApiError`` or the domain's own exceptions, which ``server.app`` turns into answers.
Pages (a seat's table, the judge's, the floor) are not routes of the API: they are ``server.pages``.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery
from litestar.response import Stream

from adjudicator.engine import registry
from adjudicator.engine.inputs import read_json
from adjudicator.presentation.render import plain
from server import auth, schema, views
from server.errors import ApiError, malformed, refusal
from server.wire import SafeResponse

_E = {
    400: ResponseSpec(schema.Error, description="Malformed: not JSON, a key given twice, a wrong type, beyond a limit"),
    401: ResponseSpec(schema.Error, description="No credential where one is needed, or an unknown or revoked token"),
    403: ResponseSpec(schema.Error, description="This credential may not do this"),
    404: ResponseSpec(schema.Error, description="No such match"),
}
_ENTRY = {**_E, 409: ResponseSpec(schema.Error, description="Another entry landed first, or expect_seq is stale"),
          413: ResponseSpec(schema.Error, description="The body is beyond the size cap"),
          422: ResponseSpec(schema.Refusal, description="Refused by a rule (the rule ID and message)")}


def _server(request: Request) -> Any:
    return request.app.state.adj


def _text(request: Request) -> bool:
    """Whether the caller asks for the text ``adj`` prints (``Accept: text/plain``) rather than JSON."""
    return "text/plain" in request.headers.get("accept", "")


def _lines(lines: list[str], status: int = 200) -> Response:
    return SafeResponse("\n".join(lines) + "\n", status_code=status, media_type="text/plain; charset=utf-8")


async def _body(request: Request) -> Any:
    """The body as one JSON value, within the input limits of docs/json.md (the size cap is
    enforced before it is read: 413)."""
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise malformed(f"the body is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at {exc.start})") from None
    return read_json(text, "the body")


def _convert(value: Any, type_: type) -> Any:
    if not isinstance(value, dict):
        raise malformed(f"the body must be a JSON object, not {type(value).__name__}")
    try:
        return msgspec.convert(value, type_)
    except msgspec.ValidationError as exc:
        text = str(exc)
        path = text.rpartition(" - at `")[2].rstrip("`") if " - at `" in text else "$"
        raise malformed(f"the body: {text}", path) from None


# -- matches ----------------------------------------------------------------------------------------
@post("/matches", status_code=201, responses={**_E, 409: ResponseSpec(schema.Error, description="The id is taken"),
                                              422: ResponseSpec(schema.Refusal, description="Refused by a setup rule")},
      summary="Create a match (a judge)", tags=["matches"])
async def create_match(request: Request) -> schema.Created:
    srv = _server(request)
    who = await srv.identify(request)
    judge = auth.judge_only(who, "creating a match")
    body: schema.CreateMatch = _convert(await _body(request), schema.CreateMatch)
    game = registry.get(body.game)
    known = [o.name for o in game.options]
    for key in body.options:
        if key not in known:
            raise malformed(f"{body.game} has no option {key!r}; options: {', '.join(known) or 'none'}", f"$.options.{key}")
    setup = dict(body.setup)
    for reserved in ("game", "players", "options"):
        if reserved in setup:
            raise malformed(f"{reserved!r} has a key of its own; it cannot be given in setup", f"$.setup.{reserved}")
    if body.decks:  # as adj new --deck reads deck files: each game puts them in its own setup field
        decks = {}
        for player, text in body.decks.items():
            if player not in body.players:
                raise malformed(f"{player!r} is not a player of this match", f"$.decks.{player}")
            decks[player] = plain(game.read_deck(text))
        fields = game.deck_setup(decks)
        both = [k for k in fields if k in setup]
        if both:
            raise malformed(f"give the decks either in decks or in setup.{both[0]}, not both", "$.decks")
        setup.update(fields)
    verdict = await srv.tables.call(srv.new, judge, body.game, body.players, body.options, setup, body.id)
    if not verdict.accepted:
        v = verdict.violation
        raise refusal(body.id, 0, "match_started", auth.JUDGE, v.rule_id, v.code, v.message)
    match_id = verdict.match.match_id
    srv.pubsub.publish(match_id)
    seats = {}
    for player in verdict.match.players:
        token = await srv.to_thread(srv.credentials.issue, match_id, player, srv.clock())
        seats[player] = srv.seat(match_id, token)
    accepted = await srv.tables.call(views.accepted, verdict, None)
    return schema.Created(match_id=match_id, seats=seats, spectator_url=srv.table_url(match_id), accepted=accepted)


@get("/matches", summary="The matches, with filters", tags=["matches"], responses={401: _E[401]})
async def list_matches(request: Request, game: FromQuery[str | None] = None, status: FromQuery[str | None] = None,
                       player: FromQuery[str | None] = None, waiting: FromQuery[str | None] = None) -> schema.Matches:
    """``game``, ``status`` (in_progress, won, drawn, void), ``player`` (one of the players) and
    ``waiting`` (a player the table waits for, as far as the caller may know it) filter the list."""
    srv = _server(request)
    who = await srv.identify(request)
    rows = await srv.tables.call(srv.matches, who, game, status, player, waiting)
    filtered = any(x is not None for x in (game, status, player, waiting))
    return _lines(views.matches_lines(rows, filtered)) if _text(request) else rows  # type: ignore[return-value]


@get("/matches/{match_id:str}/state", summary="The state, as the caller may see it", tags=["matches"], responses=_E)
async def match_state(request: Request, match_id: FromPath[str], at: FromQuery[int | None] = None) -> schema.State:
    """``adj state --json --as CALLER``; ``at``: right after that event (abandoned ones too)."""
    srv = _server(request)
    who = await srv.identify(request)
    viewer, as_ = who.viewer(match_id), who.as_for(match_id)
    make = views.state_lines if _text(request) else views.state
    if at is None:
        out = await srv.tables.call(lambda: make(srv.tables.current(match_id), viewer, as_))
    else:
        found = await srv.tables.read(srv.tables.reading.load_at, match_id, at)
        if found is None:
            head = await srv.tables.read(srv.tables.reader.head, match_id)
            raise malformed(f"{match_id} has events 1 to {head}, not {at}", "$.at")
        match, head_seq, gone = found
        out = make(match, viewer, as_, at, head_seq, gone)
    return _lines(out) if _text(request) else out  # type: ignore[return-value]


@get("/matches/{match_id:str}/board", summary="The table as the game draws it, for the caller", tags=["matches"],
     responses=_E)
async def match_board(request: Request, match_id: FromPath[str]) -> dict[str, Any]:
    srv = _server(request)
    who = await srv.identify(request)
    return await srv.tables.call(lambda: views.board(srv.tables.current(match_id), who.viewer(match_id)))


@get("/matches/{match_id:str}/legal", summary="The actions open now (the caller's own, or all for a judge)",
     tags=["matches"], responses=_E)
async def match_legal(request: Request, match_id: FromPath[str]) -> schema.Legal:
    srv = _server(request)
    who = await srv.identify(request)
    make = views.legal_text if _text(request) else views.legal
    out = await srv.tables.call(lambda: make(srv.tables.current(match_id), who.viewer(match_id), who.as_for(match_id)))
    return _lines(out) if _text(request) else out  # type: ignore[return-value]


@get("/matches/{match_id:str}/log", summary="The history, branches and rejected attempts, as the caller may see it",
     tags=["matches"], responses=_E)
async def match_log(request: Request, match_id: FromPath[str]) -> schema.Log:
    srv = _server(request)
    who = await srv.identify(request)
    if _text(request):
        return _lines(await srv.tables.read(views.log_lines, srv.tables.reading, match_id, who.viewer(match_id)))  # type: ignore[return-value]
    return await srv.tables.read(views.log, srv.tables.reading, match_id, who.viewer(match_id), who.as_for(match_id))


@get("/matches/{match_id:str}/export", summary="The match file: sealed for a judge, a view for anyone else",
     tags=["matches"], responses=_E)
async def match_export(request: Request, match_id: FromPath[str]) -> schema.Exported:
    srv = _server(request)
    who = await srv.identify(request)
    return await srv.tables.read(views.export, srv.tables.reading, match_id, who.viewer(match_id))


@get("/matches/{match_id:str}/verify", summary="Hash chain and re-adjudication of the match", tags=["matches"],
     responses=_E)
async def match_verify(request: Request, match_id: FromPath[str]) -> schema.Verified:
    srv = _server(request)
    who = await srv.identify(request)
    result = (await srv.tables.read(srv.tables.reading.verify_each, [match_id]))[0]
    if result.events == 0 and not result.ok:
        raise ApiError(404, schema.Error(error="unknown_match", message=f"no match {match_id!r} in the store",
                                         match_id=match_id))
    return schema.Verified(match_id=match_id, ok=result.ok, events=result.events,
                           rejections_rechecked=result.rejections_rechecked,
                           error=result.error if who.role == "judge" or result.error is None else
                           "the match does not verify (a judge sees where)")


# -- entering -----------------------------------------------------------------------------------------
@post("/matches/{match_id:str}/events", status_code=201, responses=_ENTRY, summary="Enter one action",
      tags=["entering"])
async def enter(request: Request, match_id: FromPath[str]) -> Response[schema.Accepted]:
    """The action's own fields sit beside ``type``; see ``Entry`` for ``by``, ``key`` and
    ``expect_seq``. A seat's token enters that player's actions; a judge's anything. A retry with
    the same ``key`` answers the entry already stored (header ``Idempotent-Replayed: true``)."""
    srv = _server(request)
    who = await srv.identify(request)
    value = await _body(request)
    if not isinstance(value, dict):
        raise malformed(f"the body must be a JSON object, not {type(value).__name__}")
    entry: schema.Entry = _convert({k: value[k] for k in schema.ENTRY_KEYS if k in value}, schema.Entry)
    fields = {k: v for k, v in value.items() if k not in schema.ENTRY_KEYS}
    by = auth.entering(who, match_id, entry.type, entry.by)
    began = time.perf_counter()
    verdict, replayed, before = await srv.tables.call(srv.enter, who, match_id, entry, by, fields)
    srv.pubsub.publish(match_id)
    if not verdict.accepted:
        v = verdict.violation
        raise refusal(match_id, verdict.match.head, verdict.type, verdict.by, v.rule_id, v.code, v.message)
    make = views.accepted_lines if _text(request) else views.accepted
    body = await srv.tables.call(make, verdict, who.viewer(match_id), before)
    # the time the entry took in the server (checked, appended, answer built): bench/serve.py reads it
    headers = {"Server-Timing": f"entry;dur={(time.perf_counter() - began) * 1000:.3f}"}
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    if _text(request):
        return SafeResponse("\n".join(body) + "\n", status_code=201, headers=headers, media_type="text/plain; charset=utf-8")
    return SafeResponse(body, status_code=201, headers=headers)


@post("/matches/{match_id:str}/seats/{player:str}/token", status_code=201, responses=_E,
      summary="Issue a seat a new token, revoking its others (a judge)", tags=["credentials"])
async def reissue(request: Request, match_id: FromPath[str], player: FromPath[str]) -> schema.Seat:
    srv = _server(request)
    auth.judge_only(await srv.identify(request), "issuing a seat's token")
    await srv.seat_of(match_id, player)
    await srv.to_thread(srv.credentials.revoke, match_id, player, srv.clock())
    token = await srv.to_thread(srv.credentials.issue, match_id, player, srv.clock())
    return srv.seat(match_id, token)


@delete("/matches/{match_id:str}/seats/{player:str}/token", status_code=200, responses=_E,
        summary="Revoke every token of a seat (a judge)", tags=["credentials"])
async def revoke(request: Request, match_id: FromPath[str], player: FromPath[str]) -> schema.Revoked:
    srv = _server(request)
    auth.judge_only(await srv.identify(request), "revoking a seat's token")
    await srv.seat_of(match_id, player)
    n = await srv.to_thread(srv.credentials.revoke, match_id, player, srv.clock())
    return schema.Revoked(match_id=match_id, player=player, revoked=n)


# -- live ---------------------------------------------------------------------------------------------
_SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@get("/matches/{match_id:str}/stream", summary="Server-sent events of one match, as the caller may see it",
     tags=["live"], responses=_E, media_type="text/event-stream")
async def match_stream(request: Request, match_id: FromPath[str], after: FromQuery[int | None] = None) -> Stream:
    """``accepted`` (id: the seq), ``rejected`` and ``table`` (who it waits for) messages; resume
    with ``Last-Event-ID`` (or ``?after=SEQ``)."""
    srv = _server(request)
    who = await srv.identify(request)
    head = await srv.tables.read(srv.tables.reader.head, match_id)
    if not head:
        raise ApiError(404, schema.Error(error="unknown_match", message=f"no match {match_id!r} in the store",
                                         match_id=match_id))
    last = request.headers.get("last-event-id")
    if last is not None:
        if not last.strip().isdigit():
            raise malformed(f"Last-Event-ID of a match's stream is a seq, not {last!r}", "Last-Event-ID")
        after = int(last)
    stream = srv.hub.match_stream(match_id, who.viewer(match_id), max(after or 0, 0))
    return Stream(stream, media_type="text/event-stream", headers=_SSE_HEADERS)


@get("/floor/stream", summary="Server-sent events of every match: each entry and who each table waits for",
     tags=["live"], responses={401: _E[401]}, media_type="text/event-stream")
async def floor_stream(request: Request) -> Stream:
    srv = _server(request)
    who = await srv.identify(request)
    stream = srv.hub.floor_stream(who.role == "judge", request.headers.get("last-event-id"))
    return Stream(stream, media_type="text/event-stream", headers=_SSE_HEADERS)


@get("/openapi.json", include_in_schema=False, summary="This API's OpenAPI 3.1 document")
async def openapi_json(request: Request) -> Response[bytes]:
    return SafeResponse(_server(request).openapi(), media_type="application/json")


ROUTES = [create_match, list_matches, match_state, match_board, match_legal, match_log, match_export, match_verify,
          enter, reissue, revoke, match_stream, floor_stream, openapi_json]
