"""The pages ``adj serve`` serves (a seat's table, a spectator's, the judge's table, the floor):
their data for one viewer, and their markup.

Everything is drawn from what the desk draws from (``Game.board`` for the table, ``legal()`` and
its ``Choice`` for the forms, ``render.history`` and ``changes.board_changes`` for the recent
events in the table's words), for every game alike: a game writes no page code. The same rule as
the desk's player page holds: what a viewer may not know is not in the data at all (their own
board, their own open actions, the history as ``render.seen_by`` shows it to them).

The markup is Jinja2 with autoescaping and holds no data and no inline script or style: the pages'
scripts are files of their own (``ASSETS``), served from the server itself, so a
Content-Security-Policy of ``'self'`` covers everything, and they fetch the data with the caller's
token as a ``Bearer`` header.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from importlib.resources import files
from typing import Any

from adjudicator.engine.judging import PENALTIES
from adjudicator.engine.kit import Board, integer, one, text
from adjudicator.engine.protocol import JUDGE, LegalAction
from adjudicator.engine.words import outcome_text
from adjudicator.presentation.changes import board_changes
from adjudicator.presentation.page import row_text, zone_json
from adjudicator.presentation.render import action_json, history, milestones, plain, seen_by, to_move

#: Events (and refused attempts) the table page lists under the table.
RECENT = 8

#: The files the pages load, with their media types (text is sent as UTF-8): everything a page
#: needs comes from the server.
ASSETS = {
    "board.js": "text/javascript",
    "page.js": "text/javascript",
    "live.js": "text/javascript",
    "forms.js": "text/javascript",
    "table.js": "text/javascript",
    "judge.js": "text/javascript",
    "floor.js": "text/javascript",
    "page.css": "text/css",
    "serve.css": "text/css",
    "icon.svg": "image/svg+xml",
}

#: The policy of every served page: its scripts, styles, images and requests from the server only.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

_HERE = files("adjudicator.presentation") / "templates"


@lru_cache(maxsize=None)
def asset(name: str) -> tuple[bytes, str, str]:
    """``(content, media type, version)`` of one of ``ASSETS`` (KeyError for any other name)."""
    media = ASSETS[name]
    body = (_HERE / name).read_bytes()
    return body, media, hashlib.sha256(body).hexdigest()[:12]


def asset_url(name: str) -> str:
    """The address of an asset, with its version: a changed file is a new address, so the
    pages may be cached without ever running an old script beside a new one."""
    return f"/static/{name}?v={asset(name)[2]}"


@lru_cache(maxsize=1)
def _env() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (_HERE / name).read_text(encoding="utf-8")),
                             autoescape=True)
    env.globals["asset"] = asset_url
    return env


def render(template: str, **context: Any) -> str:
    """One of the served pages (``table.html``, ``judge.html``, ``floor.html``)."""
    return _env().get_template(template).render(**context)


# -- a table, for one viewer -------------------------------------------------------------------------
def board_json(board: Board) -> dict[str, Any]:
    """The table as board.js draws it (the desk's zones and cards, not pooled)."""
    return {"players": list(board.players), "counters": plain(board.counters),
            "zones": [zone_json(z) for z in board.zones], "turn": board.turn, "phase": board.phase,
            "waiting": board.waiting, "notes": list(board.notes)}


def card_labels(board: Board) -> dict[str, str]:
    """``{card id: label}`` of the cards the viewer sees, so that a choice naming a card reads as
    the card (the label) and not only as its id."""
    return {c.id: c.label for z in board.zones for c in z.cards if c.id and c.label and c.label != c.id}


def _kind(row: Any) -> str:
    return "rejected" if row.seq is None else row.type if row.type in ("note", "penalty") else "event"


def recent(game: Any, match: Any, events: Sequence[Any], rejections: Sequence[Any], viewer: str | None,
           board_at: Any, n: int = RECENT) -> list[dict[str, Any]]:
    """The last ``n`` rows of the history (events and refused attempts) as ``viewer`` may see
    them, newest last, each with what it changed on the table in the table's words.
    ``events``: the stored events, the last ones at least (a resident fold may hold only those);
    ``board_at(seq)``: the viewer's board after that event, or None when it is not held."""
    first = events[0].seq if events else 1
    tried = [r for r in rejections if r.head_seq >= first - 1]
    rows = history(events, match.fold.branches, tried)[-n:]
    states = match.fold.history
    results = milestones(game, states, (r.seq for r in rows if r.seq is not None))
    out = []
    for row in rows:
        shown = seen_by(row, game, match.players, viewer, match.state)  # what is revealed by now, shown
        item: dict[str, Any] = {"seq": row.seq, "by": row.by, "type": row.type, "kind": _kind(row),
                                "text": row_text(shown), "words": [], "results": results.get(row.seq, [])}
        if row.seq is None:
            item.update(rule=row.rule, message=shown.message, head=row.head_seq)
        else:
            if row.abandoned_by is not None:
                item["abandoned_by"] = row.abandoned_by
            before, after = board_at(row.seq - 1), board_at(row.seq)
            if before is not None and after is not None:
                item["words"] = [c.text for c in board_changes(before, after)]
        out.append(item)
    return out


def table_now(game: Any, match: Any, events: Sequence[Any], rejections: Sequence[Any], viewer: str | None,
              legal: Sequence[LegalAction], decided: bool) -> dict[str, Any]:
    """What a table page shows now, for ``viewer`` (None: the judge; ``""``: a spectator): the
    table, the outcome, who is to move (to a player: only whether it is them), the viewer's
    open actions with their choices, and the recent events. ``game`` may be a memo of the
    match's game (``legal``, ``board``); ``decided``: a judge's decision ended the match."""
    out = match.outcome()
    board = game.board(match.state, viewer)
    states = match.fold.history

    def board_at(seq: int) -> Board | None:
        if seq == 0:
            return Board(players=tuple(match.players))
        return game.board(states[seq], viewer) if seq in states else None

    open_ = [] if decided else list(legal)
    moving = to_move(open_, viewer) if out.status == "in_progress" else []
    mine = open_ if viewer is None else [a for a in open_ if a.who == viewer]
    last = events[-1] if events else None
    return {
        "match_id": match.match_id,
        "game": match.game.name,
        "title": match.game.title,
        "players": list(match.players),
        "viewer": JUDGE if viewer is None else viewer,
        "seq": match.head,
        "since": last.recorded_at if last is not None else None,
        "board": board_json(board),
        "labels": card_labels(board),
        "outcome": plain(out),
        "outcome_text": outcome_text(out),
        "to_move": moving,
        "legal": [action_json(a) for a in mine],
        "recent": recent(game, match, events, rejections, viewer, board_at),
        "calls": judge_calls(match.players, match.head) if viewer is None else [],
    }


def judge_calls(players: Sequence[str], head: int) -> list[dict[str, Any]]:
    """The judge's calls every match has (docs/desk.md: ``note`` and ``penalty``), as forms."""
    at = integer(1, max(head, 1))
    return [action_json(a) for a in (
        LegalAction(who=JUDGE, type="note", anytime=True, note="a judge's note on the record, about one event",
                    choices={"at_seq": at, "text": text()}),
        LegalAction(who=JUDGE, type="penalty", anytime=True, note="a penalty, about one event",
                    choices={"player": one(*players), "infraction": text(), "penalty": one(*PENALTIES), "at_seq": at,
                             "reason": text()}),
    )]


# -- the floor -----------------------------------------------------------------------------------------
def floor_card(game: Any, match: Any, updated_at: str, rejections: Sequence[Any], legal: Sequence[LegalAction],
               decided: bool) -> dict[str, Any]:
    """One table on the floor, as the judges see it: players, game, turn and phase, who the table
    waits for and since when, an open dispute (a refused attempt since the last accepted entry,
    or the table waiting for a judge's decision), the result when finished. No card and no field
    of any event: the floor is a view from the judges' desk."""
    out = match.outcome()
    board = game.board(match.state, "")
    moving = to_move(legal, None) if out.status == "in_progress" and not decided else []
    refused = [r for r in rejections if r.head_seq == match.head]
    last = refused[-1] if refused else None
    return {
        "match_id": match.match_id,
        "game": match.game.name,
        "title": match.game.title,
        "players": list(match.players),
        "head_seq": match.head,
        "since": updated_at,
        "turn": board.turn or None,
        "phase": board.phase or None,
        "waiting": board.waiting or None,
        "to_move": moving,
        "judge_waited": JUDGE in moving,
        "refused": None if last is None else {"by": last.by, "type": last.type, "rule": last.rule,
                                              "at": last.recorded_at, "count": len(refused)},
        "outcome": plain(out),
        "outcome_text": outcome_text(out),
        "finished": out.status != "in_progress",
    }

