"""What each answer holds, for the viewer asking: the JSON of ``adj act``, ``state``, ``legal``,
``log`` and ``export`` with ``--json`` and ``--as`` (cli/main.py, cli/report.py), built from the
same functions of ``adjudicator.presentation.render``.

A viewer is None (the judge: everything), a player of the match, or a spectator (``""``). What a
player or a spectator is given follows the game's ``view`` and private fields (``Game.redact``), as
``--as`` does; beyond that: the reducer's notes are given to the judge only (they are the game's own
words about the state, which ``--as`` never prints), and ``to_move`` tells a player only whether
they are to move (``render.to_move``). These functions run on the thread that holds the fold.
"""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.presentation.render import (
    action_json,
    effect,
    event_json,
    event_json_from_line,
    history,
    plain,
    redacted,
    to_move,
)
from adjudicator.service import Match, MatchService, Verdict
from events.envelope import Rejection, StoredEvent
from server import schema


def shown_event(match: Match, ev: StoredEvent, viewer: str | None) -> dict[str, Any]:
    """The event object as ``viewer`` may see it; a redacted one has no ``prev`` or ``hash``."""
    out = event_json(ev)
    if viewer is not None:
        fields = match.game.redact(ev.type, ev.by, ev.fields, viewer, match.players)
        if fields != ev.fields:
            out.update(fields=fields, prev=None, hash=None)
    return out


def shown_attempt(match: Match, r: Rejection, viewer: str | None) -> dict[str, Any]:
    """A recorded attempt as ``viewer`` may see it (``render.redacted``: a message that may quote a
    hidden field is hidden with it)."""
    from adjudicator.presentation.render import Row

    row = Row(None, r.by, r.type, dict(r.fields), rule=r.rule, message=r.message, head_seq=r.head_seq, source=r)
    return redacted([row], match.game, match.players, viewer)[0].to_json()


def movers(match: Match, viewer: str | None) -> list[str]:
    if match.outcome().status != "in_progress" or match.fold.decided() is not None:
        return []
    return to_move(match.game.legal(match.state), viewer)


def accepted(verdict: Verdict, viewer: str | None) -> schema.Accepted:
    """``adj act --json`` of an accepted entry (cli/report.py), for ``viewer``."""
    match, ev = verdict.match, verdict.event
    assert ev is not None
    out = match.outcome()
    did = effect(match.game, match.fold.history, ev.seq) if ev.seq in match.fold.history else None
    data: dict[str, Any] = {
        "accepted": True, "match_id": match.match_id, "seq": ev.seq, "event": shown_event(match, ev, viewer),
        "outcome": plain(out), "to_move": movers(match, viewer),
        "notes": list(match.game.notes(match.state)) if viewer is None else [],
        **(did.to_json() if did is not None else
           {"changes": [], "words": [], "milestones": [], "phase": None, "waiting": None}),
    }
    branches = match.fold.branches
    if ev.type == "rewind" and branches and branches[-1].rewind_seq == ev.seq:
        data["abandoned"] = list(branches[-1].abandoned)
    return msgspec.convert(data, schema.Accepted)


def state(match: Match, viewer: str | None, as_: str | None, at_seq: int | None = None, head_seq: int | None = None,
          gone: int | None = None) -> schema.State:
    """``adj state --json`` (the present, or after ``at_seq`` of a match folded through it)."""
    seq = match.head if at_seq is None else at_seq
    st = match.fold.state_at(seq)
    out = match.fold.outcome(seq)
    moving = to_move(match.game.legal(st), viewer) if out.status == "in_progress" else []
    return schema.State(match_id=match.match_id, seq=seq, head_seq=match.head if head_seq is None else head_seq,
                        as_=as_, abandoned_by=gone, state=plain(match.game.view(st, viewer)), outcome=out,
                        to_move=moving)


def board(match: Match, viewer: str | None) -> dict[str, Any]:
    """The table as the game draws it (``Game.board``) for ``viewer``: the page's model."""
    return {"match_id": match.match_id, "seq": match.head, "board": plain(match.game.board(match.state, viewer)),
            "outcome": plain(match.outcome()), "to_move": movers(match, viewer)}


def legal(match: Match, viewer: str | None, as_: str | None) -> schema.Legal:
    """``adj legal --json``: the judge sees every open action, anyone else those that are theirs."""
    actions = match.game.legal(match.state) if match.fold.decided() is None else []
    if viewer is not None:
        actions = [a for a in actions if a.who == viewer]
    return msgspec.convert({"match_id": match.match_id, "as": as_, "actions": [action_json(a) for a in actions],
                            "outcome": plain(match.outcome())}, schema.Legal)


def log(service: MatchService, match_id: str, viewer: str | None, as_: str | None) -> schema.Log:
    """``adj log --json`` (folds the whole match: run on the reading thread)."""
    match = service.load(match_id)
    rows = redacted(history(match.events, match.fold.branches, service.store.rejections(match_id)),
                    match.game, match.players, viewer)
    return msgspec.convert({
        "match_id": match_id, "game": match.game.name, "players": list(match.players), "head_seq": match.head,
        "as": as_, "history": [r.to_json() for r in rows],
        "branches": [{"rewind_seq": b.rewind_seq, "to_seq": b.to_seq, "abandoned": list(b.abandoned)}
                     for b in match.fold.branches],
        "outcome": plain(match.outcome())}, schema.Log)


def export(service: MatchService, match_id: str, viewer: str | None) -> schema.Exported:
    """``adj export --json``: sealed for the judge, a view without hashes for anyone else."""
    lines = service.export_lines(match_id, viewer=viewer)
    rows = [event_json_from_line(line) for line in lines]
    return msgspec.convert({"match_id": match_id, "events": len(rows), "history": rows}, schema.Exported)
