"""What each answer holds, for the viewer asking: the JSON of ``adj act``, ``state``, ``legal``,
``log`` and ``export`` with ``--json`` and ``--as`` (cli/main.py, cli/matches.py, cli/report.py), built from the
same functions of ``adjudicator.presentation.render``.

A viewer is None (the judge: everything), a player of the match, or a spectator (``""``). What a
player or a spectator is given follows the game's ``view`` and private fields (``Game.redact``), as
``--as`` does; beyond that: the reducer's notes are given to the judge only (they are the game's own
words about the state, which ``--as`` never prints), and ``to_move`` tells a player only whether
they are to move (``render.to_move``). These functions run on the thread that holds the fold.
"""

from __future__ import annotations

from collections import OrderedDict
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
from events.envelope import StoredEvent
from server import schema


class Memo:
    """A game whose ``open_now`` (``Fold.open_now``), ``board`` and ``view`` of a state are computed
    once: an answer draws the board before and after an entry, lists who is to move and what
    changed, and the next entry's answer starts from this one's state. Keyed by the state object, which is immutable and
    held here while its results are (the last ``SIZE`` states), so an id is never reused meanwhile."""

    SIZE = 64

    def __init__(self, game: Any):
        self._game = game
        self._kept: OrderedDict[tuple[str, int, Any], tuple[Any, Any]] = OrderedDict()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def _once(self, what: str, state: Any, viewer: Any, compute: Any) -> Any:
        key = (what, id(state), viewer)
        hit = self._kept.get(key)
        if hit is not None and hit[0] is state:
            self._kept.move_to_end(key)
            return hit[1]
        value = compute()
        self._kept[key] = (state, value)
        if len(self._kept) > self.SIZE:
            self._kept.popitem(last=False)
        return value

    def open_now(self, fold: Any) -> Any:
        """``fold.open_now()``: keyed by the state and the match's head too (the judge's rewind
        offer depends on the effective history, and a rewind returns to a state already seen)."""
        return self._once("open_now", fold.state, (fold.match_id, fold.head), fold.open_now)

    def board(self, state: Any, viewer: str | None = None) -> Any:
        return self._once("board", state, viewer, lambda: self._game.board(state, viewer))

    def view(self, state: Any, viewer: str | None = None) -> Any:
        return self._once("view", state, viewer, lambda: self._game.view(state, viewer))


_memos: dict[int, Memo] = {}


def memo(game: Any) -> Memo:
    """The one ``Memo`` of a game (a game is a registered singleton); used on the folds' thread."""
    found = _memos.get(id(game))
    if found is None or found._game is not game:
        found = _memos[id(game)] = Memo(game)
    return found


def open_now(match: Match) -> list[Any]:
    """The actions open in ``match`` now (``Fold.open_now``), computed once per state and head."""
    return memo(match.game).open_now(match.fold)


def shown_event(match: Match, ev: StoredEvent, viewer: str | None) -> dict[str, Any]:
    """The event object as ``viewer`` may see it; a redacted one has no ``prev`` or ``hash``."""
    out = event_json(ev)
    if viewer is not None:  # as the match stands now: a fact revealed by then is shown (Game.revealed)
        fields = match.game.redact(ev.type, ev.by, ev.fields, viewer, match.players, seq=ev.seq, state=match.state)
        if fields != ev.fields:
            out.update(fields=fields, prev=None, hash=None)
    return out


def movers(match: Match, viewer: str | None) -> list[str]:
    if match.outcome().status != "in_progress" or match.fold.decided() is not None:
        return []
    return to_move(open_now(match), viewer)


def accepted(verdict: Verdict, viewer: str | None, before: tuple[int, Any] | None = None) -> schema.Accepted:
    """``adj act --json`` of an accepted entry (cli/report.py), for ``viewer``. ``before``: the
    head seq and state the entry was made on, when known (the fold keeps only some past states,
    and would compute that one again)."""
    match, ev = verdict.match, verdict.event
    assert ev is not None
    out = match.outcome()
    states: Any = match.fold.history
    if before is not None and before[0] == ev.seq - 1 and ev.seq == match.head:
        states = {before[0]: before[1], ev.seq: match.state}
    did = effect(memo(match.game), states, ev.seq) if ev.seq in states else None
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
    game = memo(match.game) if at_seq is None else match.game
    open_then = open_now(match) if seq == match.head else match.game.legal(st)  # the judge's offers never make a mover
    moving = to_move(open_then, viewer) if out.status == "in_progress" else []
    return schema.State(match_id=match.match_id, seq=seq, head_seq=match.head if head_seq is None else head_seq,
                        as_=as_, abandoned_by=gone, state=plain(game.view(st, viewer)), outcome=out,
                        to_move=moving)


def board(match: Match, viewer: str | None) -> dict[str, Any]:
    """The table as the game draws it (``Game.board``) for ``viewer``: the page's model."""
    return {"match_id": match.match_id, "seq": match.head, "board": plain(memo(match.game).board(match.state, viewer)),
            "outcome": plain(match.outcome()), "to_move": movers(match, viewer)}


def legal(match: Match, viewer: str | None, as_: str | None) -> schema.Legal:
    """``adj legal --json``: the judge sees every open action, anyone else those that are theirs."""
    actions = open_now(match) if match.fold.decided() is None else []
    if viewer is not None:
        actions = [a for a in actions if a.who == viewer]
    return msgspec.convert({"match_id": match.match_id, "as": as_, "actions": [action_json(a) for a in actions],
                            "outcome": plain(match.outcome())}, schema.Legal)


def _rows(service: MatchService, match: Match, viewer: str | None) -> list[Any]:
    """The history rows of ``adj log``: events (with who signed each), branches, attempts, redacted."""
    store = service.store
    signatures = store.audit_signatures(match.match_id) if hasattr(store, "audit_signatures") else None
    return redacted(history(match.events, match.fold.branches, store.rejections(match.match_id), signatures),
                    match.game, match.players, viewer, match.state)


def log(service: MatchService, match_id: str, viewer: str | None, as_: str | None) -> schema.Log:
    """``adj log --json`` (folds the whole match: run on the reading thread)."""
    match = service.load(match_id)
    rows = _rows(service, match, viewer)
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


# -- the text adj prints (``Accept: text/plain``; cli/remote.py prints it as it comes) -------------------
def _label(match: Match, as_: str | None) -> str:
    if as_ is None:
        return ""
    return f", as {as_}" if as_ in match.players else ", as a spectator"


def accepted_lines(verdict: Verdict, viewer: str | None, before: tuple[int, Any] | None = None) -> list[str]:
    """What ``adj act`` (``rewind``, ``correct``) prints for an accepted entry (cli/report.py)."""
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import Effect, event_line

    data = accepted(verdict, viewer, before)
    match, ev = verdict.match, data.event
    lines = [f"{match.match_id} seq {event_line(ev.seq, ev.by, ev.type, ev.fields)}"]
    if data.abandoned is not msgspec.UNSET:
        lines.append("abandoned: " + (", ".join(map(str, data.abandoned)) or "nothing"))
    if ev.type == "correct" and isinstance(ev.fields.get("event"), dict):
        inner = dict(ev.fields["event"])
        at = ev.fields.get("at_seq")
        lines.append(f"inserted before seq {at}: " + event_line("+", inner.pop("by", ""), inner.pop("type", ""), inner))
    lines.extend(f"  {n}" for n in data.notes)
    states: Any = match.fold.history
    if before is not None and before[0] == ev.seq - 1 and ev.seq == match.head:
        states = {before[0]: before[1], ev.seq: match.state}
    did = effect(memo(match.game), states, ev.seq) if ev.seq in states else Effect([], [], "", "")
    lines.extend(did.lines())
    out = match.outcome()
    if out.status != "in_progress" and not did.milestones:
        lines.append(f"outcome: {outcome_text(out)}")
    if data.to_move:
        lines.append(f"to move: {', '.join(data.to_move)}")
    return lines


def state_lines(match: Match, viewer: str | None, as_: str | None, at_seq: int | None = None,
                head_seq: int | None = None, gone: int | None = None) -> list[str]:
    """What ``adj state [--at SEQ] [--as PLAYER]`` prints."""
    from adjudicator.engine.words import outcome_text

    seq = match.head if at_seq is None else at_seq
    head = match.head if head_seq is None else head_seq
    st = match.fold.state_at(seq)
    out = match.fold.outcome(seq)
    open_then = open_now(match) if seq == match.head else match.game.legal(st)  # the judge's offers never make a mover
    moving = to_move(open_then, viewer) if out.status == "in_progress" else []
    top = f"{match.match_id} after seq {seq}" + (" (head)" if seq == head else f" of {head}")
    if gone is not None:
        top += f", abandoned by rewind at {gone}"
    lines = [top + _label(match, as_), match.game.describe(st, viewer), f"outcome: {outcome_text(out)}"]
    if moving:
        lines.append(f"to move: {', '.join(moving)}")
    elif viewer in match.players and out.status == "in_progress":
        lines.append(f"to move: not {viewer}")
    return lines


def legal_text(match: Match, viewer: str | None, as_: str | None) -> list[str]:
    """What ``adj legal [--as PLAYER]`` prints."""
    from adjudicator.engine.words import outcome_text
    from adjudicator.presentation.render import legal_lines

    actions = open_now(match) if match.fold.decided() is None else []
    if viewer is not None:
        actions = [a for a in actions if a.who == viewer]
    return legal_lines(actions) or [f"nothing is open{' for ' + as_ if as_ else ''}; "
                                    f"outcome: {outcome_text(match.outcome())}"]


def log_lines(service: MatchService, match_id: str, viewer: str | None) -> list[str]:
    """What ``adj log [--as PLAYER]`` prints (the whole match: the reading thread)."""
    from adjudicator.presentation.render import log_text

    match = service.load(match_id)
    return log_text(match_id, match, _rows(service, match, viewer))


def matches_lines(rows: schema.Matches, filtered: bool = False) -> list[str]:
    """What ``adj matches`` prints, for the matches listed."""
    from adjudicator.engine.words import outcome_text

    def when(stamp: str) -> str:
        return stamp[:16].replace("T", " ") if stamp else "-"

    out = []
    for r in rows.matches:
        if r.outcome is None:
            out.append(f"{r.match_id}  {r.head_seq} events  UNREADABLE: {r.error}")
            continue
        stands = outcome_text(r.outcome) + (f", waiting for {', '.join(r.waiting_for)}" if r.waiting_for else "")
        out.append(f"{r.match_id}  {r.game}  {' v '.join(r.players)}  {r.head_seq} events  {stands}"
                   f"  started {when(r.started_at)}, last moved {when(r.updated_at)}"
                   + (f"  signed by {r.signed_by}" if r.signed else ""))
    return out or [f"no matches in the store{' that match' if filtered else ''}"]
