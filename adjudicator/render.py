"""Plain-text rendering of a match for people at a table: event lines, outcomes, the history
with its abandoned branches and rejected attempts, and what changed between two views.

Game-agnostic: it reads only the envelope, an event's fields, ``Outcome`` and the mappings a
game's ``view`` returns. The command line prints what these functions build.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from adjudicator.kit import HIDDEN
from adjudicator.protocol import LegalAction, Outcome
from events.envelope import Rejection, StoredEvent

#: Marks a key or list item that is absent on one side of a ``Change``.
MISSING: Any = msgspec.UNSET

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+/@#<>")


# -- values and fields -------------------------------------------------------------------------
def format_value(value: Any) -> str:
    """A value as it would be typed after ``FIELD=``: plain words bare, lists of scalars as
    ``[a,b]``, anything nested as compact JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value if value and set(value) <= _PLAIN else json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list, tuple)) for v in value):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def format_fields(fields: Mapping[str, Any], brief: bool = False) -> str:
    """``k=v`` pairs; a field that is null (left out, or its default) is not shown. ``brief``
    shortens a long mapping (a card catalog, say) to its keys, for a history read at a glance."""
    return " ".join(f"{k}={_brief(v) if brief else format_value(v)}" for k, v in fields.items() if v is not None)


def _brief(value: Any) -> str:
    text = format_value(value)
    if isinstance(value, dict) and len(text) > 80:
        return f"<{len(value)} entries: {' '.join(map(str, value))}>"
    return text


def event_line(seq: int | str, by: str, type_: str, fields: Mapping[str, Any]) -> str:
    text = f"{seq}  {by}  {type_}"
    shown = format_fields(fields)
    return f"{text}  {shown}" if shown else text


def outcome_text(outcome: Outcome) -> str:
    if outcome.status == "won":
        text = f"won by {outcome.winner}"
    elif outcome.status == "in_progress":
        text = "in progress"
    else:
        text = outcome.status
    if outcome.score:
        text += " (" + ", ".join(f"{p} {n}" for p, n in outcome.score.items()) + ")"
    if outcome.detail:
        text += f"; {outcome.detail}"
    return text


def to_move(legal: Iterable[LegalAction], viewer: str | None = None) -> list[str]:
    """Who the table is waiting for, in the order the game lists them (actions open at any
    moment, such as a concession, do not count).

    For a ``viewer`` other than the judge (None) only what that viewer may know: whether they
    themselves are to move. Whether someone else has a decision to make can depend on a hidden
    fact (a face-down card that only its owner and the judge know), so it is never shown."""
    movers = list(dict.fromkeys(a.who for a in legal if not a.anytime))
    if viewer is None:
        return movers
    return [viewer] if viewer in movers else []


def legal_lines(legal: Sequence[LegalAction]) -> list[str]:
    """``who: type fields`` lines, grouped by who (in the game's order)."""
    lines = []
    for who in dict.fromkeys(a.who for a in legal):
        for a in legal:
            if a.who == who:
                text = f"{who}: {a.type}"
                if a.fields:
                    text += f" {a.fields}"
                if a.note:
                    text += f"  ({a.note})"
                lines.append(text)
    return lines


# -- the history -------------------------------------------------------------------------------
class Row(NamedTuple):
    """One line of a match's history: a stored event, or a rejected attempt (``seq`` None)."""

    seq: int | None
    by: str
    type: str
    fields: dict[str, Any]
    abandoned_by: int | None = None  # the seq of the rewind that abandoned this event
    rule: str | None = None  # set for a rejected attempt
    message: str | None = None
    head_seq: int | None = None  # for a rejected attempt: the head it was tried at

    def to_json(self) -> dict[str, Any]:
        if self.seq is None:
            return {
                "rejected": True,
                "head_seq": self.head_seq,
                "by": self.by,
                "type": self.type,
                "fields": self.fields,
                "rule": self.rule,
                "message": self.message,
            }
        return {
            "seq": self.seq,
            "by": self.by,
            "type": self.type,
            "fields": self.fields,
            "abandoned_by": self.abandoned_by,
        }


def abandoned_by(branches: Iterable[Any]) -> dict[int, int]:
    """``{abandoned seq: seq of the rewind that abandoned it}`` from ``Fold.branches``."""
    return {seq: b.rewind_seq for b in branches for seq in b.abandoned}


def history(events: Sequence[StoredEvent], branches: Iterable[Any], rejections: Sequence[Rejection] = ()) -> list[Row]:
    """Every stored event in seq order, each rejected attempt right after the event the log
    stood at when it was tried."""
    gone = abandoned_by(branches)
    tried: dict[int, list[Rejection]] = {}
    for r in rejections:
        tried.setdefault(r.head_seq, []).append(r)

    def attempts(head: int) -> list[Row]:
        return [Row(None, r.by, r.type, dict(r.fields), rule=r.rule, message=r.message, head_seq=r.head_seq) for r in tried.pop(head, ())]

    rows = attempts(0)
    for ev in events:
        rows.append(Row(ev.seq, ev.by, ev.type, dict(ev.fields), gone.get(ev.seq)))
        rows.extend(attempts(ev.seq))
    for head in sorted(tried):  # attempts at a head the log no longer has: keep them visible
        rows.extend(attempts(head))
    return rows


def redacted(rows: Sequence[Row], game: Any, players: Sequence[str], viewer: str | None) -> list[Row]:
    """The history as ``viewer`` may see it: each event's private fields hidden unless the viewer
    owns them (``Game.redact``). A rejected attempt whose fields had to be hidden keeps its rule
    but not its message, which may quote what was hidden."""
    if viewer is None:
        return list(rows)
    out = []
    for r in rows:
        fields = game.redact(r.type, r.by, r.fields, viewer, players)
        hid = fields != r.fields
        out.append(r._replace(fields=fields, message=HIDDEN if hid and r.message is not None else r.message))
    return out


def history_lines(rows: Sequence[Row]) -> list[str]:
    """Aligned lines: ``  seq  by  type  fields``; ``~`` marks an abandoned event, ``x`` a
    rejected attempt (with its rule)."""
    seq_w = max((len(str(r.seq)) for r in rows if r.seq is not None), default=1)
    by_w = max((len(r.by) for r in rows), default=0)
    type_w = max((len(r.type) for r in rows), default=0)
    out = []
    for r in rows:
        if r.seq is None:
            mark, seq = "x", ""
        else:
            mark, seq = ("~" if r.abandoned_by is not None else " "), str(r.seq)
        text = f"{mark} {seq:>{seq_w}}  {r.by:<{by_w}}  {r.type:<{type_w}}"
        fields, inserted = r.fields, r.fields.get("event") if r.type == "correct" else None
        if isinstance(inserted, dict):  # a correction: its nested event as an event line
            fields = {k: v for k, v in fields.items() if k != "event"}
        shown = format_fields(fields, brief=True)
        if shown:
            text += f"  {shown}"
        if isinstance(inserted, dict):
            rest = {k: v for k, v in inserted.items() if k not in ("type", "by")}
            what = " ".join(filter(None, (str(inserted.get("by")), str(inserted.get("type")), format_fields(rest))))
            text += f"  [inserts: {what}]"
        if r.seq is None:
            text += f"  [rejected: {r.rule}: {r.message}]"
        elif r.abandoned_by is not None:
            text += f"  [abandoned by rewind at {r.abandoned_by}]"
        out.append(text.rstrip())
    return out


def milestones(game: Any, states: Mapping[int, Any], seqs: Iterable[int]) -> dict[int, list[str]]:
    """``{seq: lines}`` for the events that changed the score or ended the match: the game's
    own words (``Game.milestones(before, after)``)."""
    out: dict[int, list[str]] = {}
    for seq in seqs:
        if seq - 1 not in states or seq not in states:
            continue
        before, after = states[seq - 1], states[seq]
        o1, o2 = game.outcome(before), game.outcome(after)
        if (o1.score, o1.status) == (o2.score, o2.status):
            continue
        out[seq] = list(game.milestones(before, after))
    return out


def outline(data: Any, indent: str = "") -> list[str]:
    """A nested mapping as indented ``key: value`` lines, for explanations read by people."""
    lines: list[str] = []
    if isinstance(data, Mapping):
        for k, v in data.items():
            if isinstance(v, Mapping) or (isinstance(v, (list, tuple)) and any(isinstance(x, (Mapping, list, tuple)) for x in v)):
                lines.append(f"{indent}{k}:")
                lines.extend(outline(v, indent + "  "))
            else:
                lines.append(f"{indent}{k}: {format_value(v)}")
    elif isinstance(data, (list, tuple)):
        for item in data:
            sub = outline(item, indent + "  ")
            lines.append(f"{indent}- {sub[0].strip()}" if sub else f"{indent}-")
            lines.extend(sub[1:])
    else:
        lines.append(f"{indent}{format_value(data)}")
    return lines


# -- what changed ------------------------------------------------------------------------------
class Change(NamedTuple):
    path: str
    old: Any  # MISSING when the key or item was added
    new: Any  # MISSING when it was removed

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        if self.old is not MISSING:
            out["old"] = self.old
        if self.new is not MISSING:
            out["new"] = self.new
        return out


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def diff(old: Any, new: Any, path: str = "") -> list[Change]:
    """What changed from ``old`` to ``new`` (plain data: dicts, lists, scalars), as paths.

    Mappings are compared key by key and equal-length lists item by item. A list whose length
    changed is shown whole when it holds scalars, and as the items removed and added otherwise.
    """
    if old == new and type(old) is type(new):
        return []
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        out: list[Change] = []
        for k in old:
            sub = f"{path}.{k}" if path else str(k)
            out.extend(diff(old[k], new[k], sub) if k in new else [Change(sub, old[k], MISSING)])
        out.extend(Change(f"{path}.{k}" if path else str(k), MISSING, new[k]) for k in new if k not in old)
        return out
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)):
        if len(old) == len(new):
            return [c for i, (a, b) in enumerate(zip(old, new)) for c in diff(a, b, f"{path}[{i}]")]
        if all(not isinstance(v, (Mapping, list, tuple)) for v in (*old, *new)):
            return [Change(path, list(old), list(new))]
        remaining = {}
        for v in new:
            remaining.setdefault(_key(v), []).append(v)
        removed = []
        for v in old:
            same = remaining.get(_key(v))
            if same:
                same.pop()
            else:
                removed.append(v)
        added = [v for vs in remaining.values() for v in vs]
        return [Change(f"{path}[]", v, MISSING) for v in removed] + [Change(f"{path}[]", MISSING, v) for v in added]
    return [Change(path or "$", old, new)]


def change_line(change: Change) -> str:
    if change.old is MISSING:
        return f"+ {change.path}: {format_value(change.new)}"
    if change.new is MISSING:
        return f"- {change.path}: {format_value(change.old)}"
    return f"  {change.path}: {format_value(change.old)} -> {format_value(change.new)}"


def plain(view: Any) -> Any:
    """A game's view as plain JSON data (tuples become lists, Structs dicts)."""
    return msgspec.to_builtins(view)
