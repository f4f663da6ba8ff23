"""Plain-text rendering of a match for people at a table: event lines, outcomes, the history
with its abandoned branches and rejected attempts, and what changed between two views.

Game-agnostic: it reads only the envelope, an event's fields, ``Outcome`` and the mappings a
game's ``view`` returns. The command line prints what these functions build.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from adjudicator.engine.kit import HIDDEN, fields_text
from adjudicator.engine.protocol import JUDGE, LegalAction
from adjudicator.engine.words import written_alike, format_value
from events.envelope import Rejection, StoredEvent

#: Marks a key or list item that is absent on one side of a ``Change``.
MISSING: Any = msgspec.UNSET


# -- values and fields -------------------------------------------------------------------------
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


def action_json(a: LegalAction) -> dict[str, Any]:
    """An open action in ``--json``: its fields as structured choices, and the line printed."""
    text = f"{a.type} {a.fields or fields_text(a.choices)}".strip()
    return {"who": a.who, "type": a.type, "fields": plain(a.choices), "text": text, "note": a.note, "anytime": a.anytime}


def legal_lines(legal: Sequence[LegalAction]) -> list[str]:
    """``who: type fields`` lines, grouped by who (in the game's order)."""
    lines = []
    for who in dict.fromkeys(a.who for a in legal):
        for a in legal:
            if a.who == who:
                text = f"{who}: {a.type}"
                shown = a.fields or fields_text(a.choices)  # the game's text, else its choices
                if shown:
                    text += f" {shown}"
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
    source: StoredEvent | Rejection | None = None  # what the row shows
    #: for an event whose signature was looked up: (role, signer) of the key that signed it, or
    #: False when none did (its ``by`` is a claim); None when not looked up
    signed: tuple[str, str] | bool | None = None

    def to_json(self) -> dict[str, Any]:
        """An event entry (``kind`` "event": the event object and ``abandoned_by``), or a rejected
        attempt (``kind`` "rejected": the refusal object with the fields tried); docs/json.md."""
        src = self.source
        if isinstance(src, Rejection):
            return {"kind": "rejected", **refusal_json(src.match_id, src.head_seq, src.type, src.by, src.rule, src.code,
                                                        self.message or ""), "fields": self.fields, "recorded_at": src.recorded_at}
        if isinstance(src, StoredEvent):
            out = {"kind": "event", **event_json(src), "fields": self.fields, "abandoned_by": self.abandoned_by}
            if self.fields != src.fields:  # redacted for a viewer: the hash of the whole event would betray it
                out.update(prev=None, hash=None)
            if self.signed is not None:
                out["signed"] = {"role": self.signed[0], "signer": self.signed[1]} if self.signed else None
            return out
        raise ValueError("a history row needs the event or the attempt it shows")


def event_json(ev: StoredEvent) -> dict[str, Any]:
    """The event object of ``--json``: the envelope, and the event's own fields as ``fields``."""
    return {"match_id": ev.match_id, "seq": ev.seq, "type": ev.type, "by": ev.by, "recorded_at": ev.recorded_at,
            "fields": ev.fields, "prev": ev.prev, "hash": ev.hash}


def event_json_from_line(line: str) -> dict[str, Any]:
    """The event object of an exported line (a player's export has no ``prev`` or ``hash``: null)."""
    flat = msgspec.json.decode(line)
    envelope = ("match_id", "seq", "type", "by", "recorded_at", "prev", "hash")
    out = {k: flat.get(k) for k in envelope}
    out["fields"] = {k: v for k, v in flat.items() if k not in envelope}
    return {k: out[k] for k in ("match_id", "seq", "type", "by", "recorded_at", "fields", "prev", "hash")}


def refusal_json(match_id: str | None, head_seq: int | None, type_: str | None, by: str | None, rule: str,
                 code: str | None, message: str, line: int | None = None) -> dict[str, Any]:
    """The refusal object of ``--json``, the same for an action, a file's line and a recorded attempt."""
    return {"accepted": False, "match_id": match_id, "head_seq": head_seq, "line": line, "type": type_, "by": by,
            "rule": rule, "code": code, "message": message}


def abandoned_by(branches: Iterable[Any]) -> dict[int, int]:
    """``{abandoned seq: seq of the rewind that abandoned it}`` from ``Fold.branches``."""
    return {seq: b.rewind_seq for b in branches for seq in b.abandoned}


def history(events: Sequence[StoredEvent], branches: Iterable[Any], rejections: Sequence[Rejection] = (),
            signatures: Mapping[str, Any] | None = None) -> list[Row]:
    """Every stored event in seq order, each rejected attempt right after the event the log
    stood at when it was tried. With ``signatures`` (the signatures kept beside the events, by
    the hash they sign), each event's row says who signed it, or that nobody did."""
    gone = abandoned_by(branches)
    tried: dict[int, list[Rejection]] = {}
    for r in rejections:
        tried.setdefault(r.head_seq, []).append(r)

    def attempts(head: int) -> list[Row]:
        return [Row(None, r.by, r.type, dict(r.fields), rule=r.rule, message=r.message, head_seq=r.head_seq, source=r)
                for r in tried.pop(head, ())]

    def signer(ev: StoredEvent) -> tuple[str, str] | bool | None:
        if signatures is None:
            return None
        sig = signatures.get(ev.hash)
        return False if sig is None else (sig.role, sig.signer)

    rows = attempts(0)
    for ev in events:
        rows.append(Row(ev.seq, ev.by, ev.type, dict(ev.fields), gone.get(ev.seq), source=ev, signed=signer(ev)))
        rows.extend(attempts(ev.seq))
    for head in sorted(tried):  # attempts at a head the log no longer has: keep them visible
        rows.extend(attempts(head))
    return rows


def seen_by(row: Row, game: Any, players: Sequence[str], viewer: str | None, state: Any = None) -> Row:
    """``row`` as ``viewer`` may see it (None or the judge: as it is). An event's private fields
    are hidden unless the viewer owns them (``Game.redact``).

    A rejected attempt is private to its author and the judge, for every game alike: a refused
    action leaves hidden what it named (the card stays in the hand it was tried from), and its
    message may quote that. Anyone else sees who tried which action, at which head, and the rule
    that refused it; of its fields only those left out (null) or naming a player of the match (or
    the judge) are shown, the rest, and the message, are ``HIDDEN``. Given the ``state`` the
    history is shown at, a private fact revealed by then (``Game.revealed``) is shown."""
    if viewer is None or viewer == JUDGE:
        return row
    if row.seq is not None:
        return row._replace(fields=game.redact(row.type, row.by, row.fields, viewer, players, seq=row.seq, state=state))
    if row.by == viewer:  # what they tried, and were told at the time
        return row
    names = {*players, JUDGE}
    fields = {k: v if v is None or isinstance(v, str) and v in names else HIDDEN for k, v in row.fields.items()}
    return row._replace(fields=fields, message=HIDDEN)


def redacted(rows: Sequence[Row], game: Any, players: Sequence[str], viewer: str | None, state: Any = None) -> list[Row]:
    """The history as ``viewer`` may see it (``seen_by``), at ``state`` (the head, where given)."""
    if viewer is None:
        return list(rows)
    return [seen_by(r, game, players, viewer, state) for r in rows]


#: The mark of an event no key signed, and what it means.
UNSIGNED = "[unsigned]"
UNSIGNED_NOTE = ("[unsigned]: no key signed it, so its author is only what was typed with --by, a claim anyone "
                 "at a terminal could make (docs/audit.md)")
NONE_SIGNED_NOTE = ("no entry is signed: each author is only what was typed with --by, a claim anyone at a terminal "
                    "could make (docs/audit.md)")


def signature_marks(rows: Sequence[Row]) -> tuple[list[Row], list[str]]:
    """The rows to print and the note above them: where no event of the match is signed, one note
    says so and no line is marked; where signed and unsigned events mix, each unsigned one is."""
    looked_up = [r for r in rows if r.seq is not None and r.signed is not None]
    if not looked_up:
        return list(rows), []
    if all(r.signed is False for r in looked_up):
        return [r._replace(signed=None) for r in rows], [NONE_SIGNED_NOTE]
    return list(rows), [UNSIGNED_NOTE] if any(r.signed is False for r in looked_up) else []


def history_lines(rows: Sequence[Row]) -> list[str]:
    """Aligned lines: ``  seq  by  type  fields``; ``~`` marks an abandoned event, ``x`` a
    rejected attempt (with its rule); an event whose signature was looked up ends with who
    signed it, or ``[unsigned]``."""
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
        if r.signed is not None:
            text += f"  [signed: {r.signed[0]} {r.signed[1]}]" if r.signed else f"  {UNSIGNED}"
        out.append(text.rstrip())
    return out


def milestones(game: Any, states: Mapping[int, Any], seqs: Iterable[int],
               outcome: Callable[[int], Any] | None = None) -> dict[int, list[str]]:
    """``{seq: lines}`` for the events that changed the score or ended the match: the game's
    own words (``Game.milestones(before, after)``). ``outcome``: the game's outcome right after
    a seq, where the caller keeps them (default: ``game.outcome`` of the state)."""
    out: dict[int, list[str]] = {}
    for seq in seqs:
        if seq - 1 not in states or seq not in states:
            continue
        if outcome is None:
            o1, o2 = game.outcome(states[seq - 1]), game.outcome(states[seq])
        else:
            o1, o2 = outcome(seq - 1), outcome(seq)
        if (o1.score, o1.status) == (o2.score, o2.status):
            continue
        out[seq] = list(game.milestones(states[seq - 1], states[seq]))
    return out


def log_text(match_id: str, match: Any, rows: Sequence[Row]) -> list[str]:
    """What ``adj log`` prints of ``match`` (its ``game``, ``players``, ``head``, ``fold`` and
    ``outcome()``) from its history ``rows`` as one viewer may see them: a line an event, a
    signature's mark, the results an event decided, and the outcome."""
    from adjudicator.engine.words import outcome_text

    marks = milestones(match.game, match.fold.history, (r.seq for r in rows if r.seq is not None))
    shown, note = signature_marks(rows)
    body: list[str] = []
    for row, line in zip(shown, history_lines(shown)):
        body.append(line)
        body.extend(f"  ── {m}" for m in marks.get(row.seq, ()))
    return [f"{match_id}: {match.game.name}, {' v '.join(match.players)}, {match.head} events",
            *note, *body, f"outcome: {outcome_text(match.outcome())}"]


#: The viewer of what is said aloud at the table: no player, so no private fact is in its view.
PUBLIC = ""
#: How many changes an accepted action lists (``adj replay`` shows them all).
SHOWN_CHANGES = 6


class Effect(NamedTuple):
    """What an accepted event did, as the whole table may hear it: the results it decided
    (``Game.milestones``), the changes on the table in its words (``adjudicator.presentation.changes``, from
    ``Game.board``), the changes to the public view (for a game that draws no board), and the
    phase and wait now."""

    changes: list[Change]
    milestones: list[str]
    phase: str
    waiting: str
    words: list[Any] = []  # ``adjudicator.presentation.changes.BoardChange``

    def lines(self) -> list[str]:
        out = [f"  ── {m}" for m in self.milestones]
        if self.words:  # words said twice (two copies of a card moved alike) are said once, counted
            times = Counter(w.text for w in self.words)
            said = [t if n == 1 else f"{t} (×{n})" for t, n in times.items()]
            shown = set(list(times)[:SHOWN_CHANGES])
            total = len(said)
        else:  # no board: the view's changes, those said in a few words (a whole object is no table talk)
            said = [change_line(c).strip() for c in self.changes if _simple(c.old) and _simple(c.new)]
            shown = set()
            total = len(self.changes)
        out.extend(f"  {text}" for text in said[:SHOWN_CHANGES])
        if total > min(len(said), SHOWN_CHANGES):
            out.append(f"  ... and {total - min(len(said), SHOWN_CHANGES)} more change(s): adj replay shows them all")
        # the now line does not repeat what a line above said: the change of phase, what is awaited
        waits = self.waiting and not any(w.kind == "waiting" and w.text in shown for w in self.words)
        now = "; ".join(filter(None, (self.phase, f"waiting for {self.waiting}" if waits else "")))
        if now and not any(w.kind == "phase" for w in self.words):
            out.append(f"now: {now}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"changes": [c.to_json() for c in self.changes], "words": [w.to_json() for w in self.words],
                "milestones": self.milestones, "phase": self.phase or None, "waiting": self.waiting or None}


def _simple(value: Any) -> bool:
    """A value said in a few words: a scalar, or a list of scalars."""
    if isinstance(value, Mapping):
        return False
    if isinstance(value, (list, tuple)):
        return all(not isinstance(v, (Mapping, list, tuple)) for v in value)
    return True


def effect(game: Any, states: Mapping[int, Any], seq: int) -> Effect:
    """The ``Effect`` of the event at ``seq`` from the states before and after it."""
    after = states[seq]
    before = states.get(seq - 1)
    changes = diff(plain(game.view(before, PUBLIC)), plain(game.view(after, PUBLIC))) if before is not None else []
    marks = milestones(game, states, [seq]).get(seq, [])
    board = game.board(after, PUBLIC)
    from adjudicator.presentation.changes import step_changes

    return Effect(changes, marks, board.phase, board.waiting, step_changes(game, states, seq, PUBLIC))


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


_sorted = msgspec.json.Encoder(order="sorted")


def _key(value: Any) -> str | bytes:
    """A key equal for equal plain values: their JSON with sorted keys, by msgspec where it writes
    as json does (``words.json_text``; ``adj act``'s report then does not load json), by json
    otherwise (bytes and text never equal: the two kinds of key never meet)."""
    if written_alike(value, False):
        try:
            return _sorted.encode(value)
        except (msgspec.EncodeError, UnicodeError):
            pass
    import json

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
