"""The pages of ``adj serve`` (docs/serve.md, "The pages"): a seat's table, a spectator's, the
judge's table and the floor, and the data each page reads. Routes only: what the pages hold is
``adjudicator.presentation.table`` (drawn with the desk's own code), who may read what is
``server.auth``.

A page is a shell with no data in it: its scripts (served from ``/static/``, never inline, never
from elsewhere: the Content-Security-Policy allows the server itself only) read the caller's token
from the address's fragment (``#token=...``, which a browser never sends) into the tab's session
storage, and ask for the data with it as a ``Bearer`` header, as any client of the API does. So a
token is never in a URL that reaches a server or its logs, and a page holds what its caller's token
may see, nothing more.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery

from adjudicator.presentation import table as pages
from adjudicator.presentation.page import MARK_KINDS, page_data
from server import auth, schema, views
from server.errors import ApiError, not_found

#: Every page's headers: its own policy, no referrer, never framed, never sniffed, never cached.
PAGE_HEADERS = {"Content-Security-Policy": pages.CSP, "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


def _server(request: Request) -> Any:
    return request.app.state.adj


def _page(html: str, status: int = 200) -> Response:
    return Response(html, status_code=status, media_type="text/html", headers=PAGE_HEADERS)


async def _known(srv: Any, match_id: str) -> bool:
    return bool(await srv.tables.read(srv.tables.reader.head, match_id))


def _missing(match_id: str) -> Response:
    return _page(pages.render("missing.html", match_id=match_id), 404)


# -- the pages ------------------------------------------------------------------------------------------
@get("/tables/{match_id:str}", include_in_schema=False)
async def table_page(request: Request, match_id: FromPath[str]) -> Response:
    """A seat's table (its token in the fragment), or a spectator's (no token)."""
    srv = _server(request)
    if not await _known(srv, match_id):
        return _missing(match_id)
    return _page(pages.render("table.html", match_id=match_id))


@get("/tables/{match_id:str}/judge", include_in_schema=False)
async def judge_page(request: Request, match_id: FromPath[str]) -> Response:
    srv = _server(request)
    if not await _known(srv, match_id):
        return _missing(match_id)
    return _page(pages.render("judge.html", match_id=match_id, mark_kinds=MARK_KINDS))


@get("/floor", include_in_schema=False)
async def floor_page() -> Response:
    return _page(pages.render("floor.html"))


@get("/static/{name:str}", include_in_schema=False)
async def static(name: FromPath[str]) -> Response:
    try:
        body, media, _ = pages.asset(name)
    except KeyError:
        raise not_found(f"no file {name!r} among the pages' files") from None
    return Response(body, media_type=media, headers={"Cache-Control": "public, max-age=86400",
                                                     "X-Content-Type-Options": "nosniff"})


@get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    body, media, _ = pages.asset("icon.svg")
    return Response(body, media_type=media, headers={"Cache-Control": "public, max-age=86400"})


# -- what the pages read ------------------------------------------------------------------------------
def _now(srv: Any, match_id: str, viewer: str | None) -> dict[str, Any]:
    """On the table's thread: the table now for ``viewer``, from the resident fold."""
    m = srv.tables.current(match_id)
    game = views.memo(m.game)
    events = list(m.events[-2 * pages.RECENT:])
    if not events or (events[0].seq > 1 and len(events) < 2 * pages.RECENT):  # a fold resumed from a snapshot
        events = srv.tables.store.read(match_id, max(1, m.head - 2 * pages.RECENT + 1))
    return pages.table_now(game, m, events, srv.tables.store.rejections(match_id), viewer, views.open_now(m),
                           m.fold.decided() is not None)


@get("/tables/{match_id:str}/now", summary="The table now, for the caller's page", tags=["pages"])
async def table_now(request: Request, match_id: FromPath[str]) -> dict[str, Any]:
    """The table as the caller may see it (``Game.board``), who is to move, the caller's open
    actions with their choices (all of them for a judge, with the judge's calls), and the last
    events in the table's words."""
    srv = _server(request)
    who = await srv.identify(request)
    return await srv.tables.call(_now, srv, match_id, who.viewer(match_id))


def _desk(srv: Any, match_id: str) -> dict[str, Any]:
    """On the reading thread: the judge's desk of the whole match (``adj replay --html``'s data)."""
    match = srv.tables.reading.load(match_id)
    return page_data(match, srv.tables.reader.rejections(match_id), None)


@get("/tables/{match_id:str}/desk", summary="The judge's desk of a match: every event, every viewer (a judge)",
     tags=["pages"])
async def table_desk(request: Request, match_id: FromPath[str]) -> dict[str, Any]:
    srv = _server(request)
    auth.judge_only(await srv.identify(request), "the judge's desk")
    return await srv.tables.read(_desk, srv, match_id)


def _floor(srv: Any, only: str | None) -> list[dict[str, Any]]:
    """On the table's thread: one card per match (or the one asked for)."""
    cards = []
    for info in srv.tables.store.matches():
        if only is not None and info.match_id != only:
            continue
        try:
            m = srv.tables.current(info.match_id)
            game = views.memo(m.game)
            cards.append(pages.floor_card(game, m, info.updated_at, srv.tables.store.rejections(info.match_id),
                                          views.open_now(m), m.fold.decided() is not None))
        except Exception as exc:  # noqa: BLE001 - an unreadable match is shown, not fatal
            cards.append({"match_id": info.match_id, "head_seq": info.head_seq, "error": str(exc)})
    return cards


@get("/floor/tables", summary="One card per table for the floor page (a judge)", tags=["pages"])
async def floor_tables(request: Request, match: FromQuery[str | None] = None) -> dict[str, Any]:
    """``match``: that table's card only (the floor page asks again for a table that moved)."""
    srv = _server(request)
    auth.judge_only(await srv.identify(request), "the floor")
    cards = await srv.tables.call(_floor, srv, match)
    if match is not None and not cards:
        raise ApiError(404, schema.Error(error="unknown_match", message=f"no match {match!r} in the store",
                                         match_id=match))
    return {"now": srv.clock(), "tables": cards}


ROUTES = [table_page, judge_page, floor_page, static, favicon, table_now, table_desk, floor_tables]
