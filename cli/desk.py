"""The judge's desk on the command line: the replay page (``adj replay --html``), judge's notes
and penalties in the chain (``adj note``, ``adj penalty``), and ``adj diff`` between two points.

Registered on ``adj`` (``cli.app.main``); like every command, the library (and Jinja2, for the page)
is imported inside the command.
"""

from __future__ import annotations

from typing import Any

import click

from cli.app import Env, check_viewer, command, main, match_argument, viewer_label

#: as ``adjudicator.engine.judging.PENALTIES`` (not imported at start-up; a test keeps the two equal)
PENALTIES = ("caution", "warning", "game_loss", "match_loss", "disqualification")


def write_page(env: Env, match_id: str, path: str, player: str | None) -> None:
    """``adj replay MATCH --html FILE``: the self-contained page, for the judge or one player."""
    import gc

    # the page is a great many small objects that live until it is written and form no cycle: the
    # collector would walk them all again and again for nothing
    collecting = gc.isenabled()
    gc.disable()
    try:
        _write_page(env, match_id, path, player)
    finally:
        if collecting:
            gc.enable()


def _write_page(env: Env, match_id: str, path: str, player: str | None) -> None:
    from adjudicator.presentation.page import render_page

    service = env.service()
    states: dict[int, Any] = {}  # the page walks through every state: each kept as it is folded, not computed again
    match = service.load(match_id, states=states)
    viewer = check_viewer(match, player)
    html = render_page(match, service.store.rejections(match_id), viewer, states)
    with click.open_file(path, "w", encoding="utf-8") as fh:
        fh.write(html)
    if path == "-":  # the page went to stdout: nothing else may
        return
    who = f"as {viewer}" if viewer else "for the judge"
    env.emit({"match_id": match_id, "html": path, "as": player, "events": match.head, "bytes": len(html.encode())},
             [f"wrote {path}: {match_id}, {match.head} events, {who}"])


# -- the judge's calls ------------------------------------------------------------------------------
def _call(env: Env, match_id: str, type_: str, by: str, fields: dict[str, Any]) -> None:
    from cli.report import report as _report

    _report(env, env.service(write=True).submit(match_id, type_, by, fields, strict=True))


@command(main, "note")
@match_argument
@click.argument("text")
@click.option("--at", "at_seq", type=int, required=True, metavar="SEQ", help="The event the note is about.")
@click.option("--by", required=True, help="Who enters it: only the judge may.")
def note(env: Env, match_id: str, text: str, at_seq: int, by: str) -> None:
    """Put a judge's note on the record about event --at (the game state does not change)."""
    _call(env, match_id, "note", by, {"at_seq": at_seq, "text": text})


@command(main, "penalty")
@match_argument
@click.option("--player", required=True, help="The player penalised.")
@click.option("--infraction", required=True, metavar="NAME", help="The infraction, by its name.")
@click.option("--penalty", "penalty_", required=True, type=click.Choice(PENALTIES),
              help="game_loss (in a match of one game), match_loss and disqualification decide the match.")
@click.option("--at", "at_seq", type=int, required=True, metavar="SEQ", help="The event the penalty is about.")
@click.option("--reason", required=True)
@click.option("--by", required=True, help="Who enters it: only the judge may.")
def penalty(env: Env, match_id: str, player: str, infraction: str, penalty_: str, at_seq: int, reason: str, by: str) -> None:
    """Give a player a penalty, on the record; a match loss decides the match."""
    _call(env, match_id, "penalty", by, {"player": player, "infraction": infraction, "penalty": penalty_,
                                         "at_seq": at_seq, "reason": reason})


# -- what changed between two points ---------------------------------------------------------------
@command(main, "diff")
@match_argument
@click.argument("a", type=int, metavar="A")
@click.argument("b", type=int, metavar="B")
@click.option("--as", "player", metavar="PLAYER", help="What this player may see change (default: the judge).")
def diff(env: Env, match_id: str, a: int, b: int, player: str | None) -> None:
    """What changed on the table from right after event A to right after event B: per player and
    zone, in the words of adj state (cards moved, counters changed)."""
    from adjudicator.presentation.changes import board_changes, grouped_lines
    from events.store import UnknownMatch

    service = env.service()
    head = service.store.head(match_id)
    if not head:
        raise UnknownMatch(match_id)
    viewer = check_viewer(None, player)
    for name, seq in (("A", a), ("B", b)):
        if not 1 <= seq <= head:
            raise click.BadParameter(f"{match_id} has events 1 to {head}, not {seq}", param_hint=name)
    # folded through the later of the two only, from the snapshot nearest before the earlier
    match = service.load_at(match_id, max(a, b), since=min(a, b))[0]  # type: ignore[index]
    game, states = match.game, match.fold.history
    changes = board_changes(game.board(states[a], viewer), game.board(states[b], viewer))
    head = f"{match_id}: after seq {a} -> after seq {b}" + (f", as {viewer_label(match, player)}" if player else "")
    env.emit({"match_id": match_id, "from": a, "to": b, "as": player, "changes": [c.to_json() for c in changes]},
             [head, *(grouped_lines(changes, match.players) or ["no change on the table"])])
