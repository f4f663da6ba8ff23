"""The judge's desk on the command line: the replay page (``adj replay --html``), judge's notes
and penalties in the chain (``adj note``, ``adj penalty``), and ``adj diff`` between two points.

Registered on ``adj`` by ``cli.main``; like every command, the library (and Jinja2, for the page)
is imported inside the command.
"""

from __future__ import annotations

from typing import Any

import click

from cli.errors import Rejected
from cli.main import Env, check_viewer, command, main, match_argument

PENALTIES = ("warning", "game_loss", "match_loss")


def write_page(env: Env, match_id: str, path: str, player: str | None) -> None:
    """``adj replay MATCH --html FILE``: the self-contained page, for the judge or one player."""
    from adjudicator.page import render_page

    service = env.service()
    match = service.load(match_id)
    viewer = check_viewer(match, player)
    html = render_page(match, service.store.rejections(match_id), viewer)
    with click.open_file(path, "w", encoding="utf-8") as fh:
        fh.write(html)
    who = f"as {viewer}" if viewer else "for the judge"
    env.emit({"match_id": match_id, "html": path, "as": player, "events": match.head, "bytes": len(html.encode())},
             [f"wrote {path}: {match_id}, {match.head} events, {who}"])
