"""The judge's desk: one self-contained HTML page of a match (``adj replay MATCH --html FILE``).

The page draws the table from the game's ``Board`` at every event, with a timeline over the whole
log: rejected attempts where they were tried, rewinds as forks with the abandoned branch, the
insertion points of corrections, set and game results, judge notes and penalties.

Built for one viewer: the judge's page holds every viewer's picture (the judge, then each
player), a player's page only what that player could know at each moment (their boards, event
fields through ``Game.redact``, their own rejected attempts, and of others' only who tried what and
the rule: ``render.seen_by``). What a viewer may not know is not in the file at all.

Jinja2 renders it with autoescaping; the data the page's script reads is JSON in a
``<script type="application/json">`` element, with ``<``, ``>`` and ``&`` escaped so that no
string can close the element. Jinja2 is imported only when a page is built.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.engine.fold import Branch
from adjudicator.engine.kit import HIDDEN, Board, BoardCard, Game, Zone
from adjudicator.engine import judging
from adjudicator.engine.protocol import JUDGE
from adjudicator.engine.words import outcome_text
from adjudicator.presentation.render import Row, abandoned_by, format_fields, history, milestones, seen_by

#: The kinds of timeline items with a marker on the track, and their legend.
MARK_KINDS = ("rejected", "rewind", "correction", "result", "note", "penalty", "signed")


def script_json(data: Any) -> str:
    """JSON that cannot break out of a ``<script>`` element (nor an HTML comment within it)."""
    text = msgspec.json.encode(data).decode()
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def card_json(c: BoardCard) -> dict[str, Any]:
    """A card with only what differs from the defaults (the page fills them in)."""
    out: dict[str, Any] = {}
    if c.id is not None:
        out["id"] = c.id
    if c.label is not None:
        out["label"] = c.label
    if not c.face_up:
        out["down"] = 1
    if c.turned:
        out["turned"] = 1
    if c.counters:
        out["counters"] = dict(c.counters)
    if c.tags:
        out["tags"] = list(c.tags)
    if c.group is not None:
        out["group"] = c.group
    return out


def zone_json(z: Zone) -> dict[str, Any]:
    out: dict[str, Any] = {"name": z.name, "owner": z.owner, "cards": [card_json(c) for c in z.cards]}
    if z.count is not None:
        out["count"] = z.count
    return out


class _Pool:
    """Equal values stored once: the page lists each distinct zone and board a single time."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[bytes, int] = {}

    def add(self, value: Any, key: Any = None) -> int:
        """The index of ``value``; ``key``: a hashable key that stands for it (default: its JSON)."""
        if key is None:
            key = msgspec.json.encode(value)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.items)
            self.items.append(value)
        return i


def row_text(row: Row) -> str:
    """An event as one line: who, what, its fields; a correction with the event it inserts."""
    fields = dict(row.fields)
    inserted = fields.pop("event", None) if row.type == "correct" else None
    text = " ".join(filter(None, (row.by, row.type, format_fields(fields, brief=True))))
    if isinstance(inserted, Mapping):
        rest = {k: v for k, v in inserted.items() if k not in ("type", "by")}
        text += "  [inserts: " + " ".join(filter(None, (str(inserted.get("by")), str(inserted.get("type")), format_fields(rest)))) + "]"
    return text


class PageBuilder:
    """The page's data for one match and one viewer (None: the judge)."""

    def __init__(self, match: Any, rejections: Sequence[Any], viewer: str | None = None,
                 states: Mapping[int, Any] | None = None):
        self.match = match
        self.states = match.fold.history if states is None else states  # seq -> the state right after it
        self.game: Game = match.game
        self.viewer = viewer
        self.players = tuple(match.players)
        self.viewers: list[str | None] = [None, *self.players] if viewer is None else [viewer]
        self.rows = history(match.events, match.fold.branches, rejections)
        self.zones = _Pool()
        self.boards = _Pool()
        self.counters = _Pool()
        self.notes = _Pool()  # each note's text once; a board's notes are a list of them, also once
        self.note_lists = _Pool()
        self._zone_of: dict[bytes, int] = {}  # a Zone as msgspec encodes it -> its index in ``zones``
        # id -> (a part of the boards of one event, its index), for this event and the one before
        # (a game may hand the same zone again when nothing in it changed)
        self._seen: dict[int, tuple[Any, int]] = {}
        self._seen_before: dict[int, tuple[Any, int]] = {}
        self._notes_of: dict[tuple[str, ...], int] = {}  # a board's notes -> their index in ``note_lists``
        self._state: tuple[int, Any] = (-1, None)
        self._outcomes: dict[int, Any] = {}
        self._board_cache: dict[tuple[int, str | None], tuple[int, Board]] = {}
        self._heads: dict[int, list[int]] | None = None

    def _signed_heads(self) -> dict[int, list[int]]:
        """Head seq -> the confirmations, for every head all the players signed."""
        if self._heads is None:
            fold = self.match.fold
            by_head: dict[int, dict[str, int]] = {}
            for seq, c in fold.confirmations:
                by_head.setdefault(c.head_seq, {}).setdefault(c.by, seq)
            players = list(fold.players)
            self._heads = {h: sorted(who.values()) for h, who in by_head.items() if players and all(p in who for p in players)}
        return self._heads

    def board_at(self, seq: int, viewer: str | None) -> tuple[int, Board]:
        """The index of ``viewer``'s board right after ``seq`` in the page's boards, and the board
        (every viewer's is drawn at once: the game works out once what they see alike)."""
        hit = self._board_cache.get((seq, viewer))
        if hit is None:
            if seq == 0:
                drawn = [Board(players=self.players)] * len(self.viewers)
            else:
                drawn = self.game.boards(self.state_at(seq), self.viewers)
            for v, b in zip(self.viewers, drawn):
                self._board_cache[(seq, v)] = (self._board_index(b), b)
            self._seen_before, self._seen = self._seen, {}
            hit = self._board_cache[(seq, viewer)]
        return hit

    def _board_index(self, b: Board) -> int:
        seen = self._seen  # what the game drew once for every viewer is pooled once
        hit = seen.get(id(b.counters))
        if hit is not None and hit[0] is b.counters:
            counters = hit[1]
        else:
            counters = self.counters.add(b.counters)
            seen[id(b.counters)] = (b.counters, counters)
        before, zones_of = self._seen_before, []
        for z in b.zones:  # _zone, inlined: a long match's page asks it some 40 times an event
            k = id(z)
            hit = seen.get(k)
            if hit is None or hit[0] is not z:
                hit = before.get(k)  # handed again since the event before
                if hit is None or hit[0] is not z:
                    hit = (z, self._zone_index(z))
                seen[k] = hit  # holding z: its id is not given to another while it is in here
            zones_of.append(hit[1])
        zones = tuple(zones_of)
        hit = seen.get(id(b.notes))
        if hit is not None and hit[0] is b.notes:
            notes_i = hit[1]
        else:
            key = tuple(b.notes)
            notes_i = self._notes_of.get(key)  # a long match's notes repeat every game played at every event
            if notes_i is None:
                notes = tuple(self.notes.add(n, n) for n in key)
                notes_i = self._notes_of[key] = self.note_lists.add(notes, notes)
            seen[id(b.notes)] = (b.notes, notes_i)
        data = {"counters": counters, "zones": zones, "turn": b.turn, "phase": b.phase, "waiting": b.waiting, "notes": notes_i}
        return self.boards.add(data, (counters, zones, b.turn, b.phase, b.waiting, notes_i))

    def state_at(self, seq: int) -> Any:
        """The state right after ``seq`` (asked for by every viewer in turn: kept for the next)."""
        if self._state[0] != seq:
            states = self.states
            self._state = (seq, states[seq] if seq in states else self.match.fold.history[seq])
        return self._state[1]

    def game_outcome(self, seq: int) -> Any:
        """The game's outcome right after ``seq`` (the result marks and the outcome line both ask)."""
        got = self._outcomes.get(seq)
        if got is None:
            got = self._outcomes[seq] = self.game.outcome(self.state_at(seq))
        return got

    def outcome_at(self, seq: int) -> Any:
        """The match's outcome right after ``seq``, as ``Fold.outcome(seq)``: the game's, unless a
        judge's penalty decided it."""
        fold = self.match.fold
        return judging.outcome(self.game_outcome(seq), [(s, p) for s, p in fold.penalties if s <= seq], fold.players)

    def _zone_index(self, z: Zone) -> int:
        """The index of ``z`` in the page's zones (most zones are the same from event to event)."""
        key = msgspec.json.encode(z)
        i = self._zone_of.get(key)
        if i is None:
            i = self._zone_of[key] = self.zones.add(zone_json(z))
        return i

    def redacted(self, row: Row, viewer: str | None) -> Row:
        return seen_by(row, self.game, self.players, viewer, self.match.state)

    def build(self) -> dict[str, Any]:
        fold = self.match.fold
        gone = abandoned_by(fold.branches)
        fork_of = {b.rewind_seq: k for k, b in enumerate(fold.branches)}
        results: dict[int, list[str]] = {}  # filled event by event, as the states come (one walk through them)
        inserted_before: dict[int, list[Row]] = {}
        for r in self.rows:
            if r.seq is not None and r.type == "correct" and isinstance(r.fields.get("at_seq"), int):
                inserted_before.setdefault(r.fields["at_seq"], []).append(r)
        items: list[dict[str, Any]] = []
        outcomes = _Pool()  # the outcome after each event, in words (results and penalties included)
        per: dict[str, dict[str, list[Any]]] = {_name(v): {"b": [], "t": [], "m": []} for v in self.viewers}
        for row in self.rows:
            seq = row.seq
            at = seq if seq is not None else row.head_seq or 0
            kind = "rejected" if seq is None else row.type if row.type in ("note", "penalty") else "event"
            item: dict[str, Any] = {"seq": seq, "head": at, "by": row.by, "type": row.type, "kind": kind,
                                    "o": outcomes.add(text := outcome_text(self.outcome_at(at)), text) if at else 0}
            if seq is not None and seq in gone:
                item["ab"] = gone[seq]
                item["fork"] = fork_of[gone[seq]]
            if kind == "rejected":
                item["rule"] = row.rule
            items.append(item)
            if seq is not None:
                results.update(milestones(self.game, self.states, (seq,), self.game_outcome))
            whole = None  # the text of the row as it is, worked out once for every viewer shown all of it
            for v in self.viewers:
                out = per[_name(v)]
                out["b"].append(self.board_at(at, v)[0])
                shown = self.redacted(row, v)
                if shown.fields == row.fields:
                    if whole is None:
                        whole = row_text(row)
                    out["t"].append(whole)
                else:
                    out["t"].append(row_text(shown))
                out["m"].append(self._marks(row, shown, v, results, inserted_before, fold.branches, fork_of))
        return {
            "match": self.match.match_id,
            "game": self.game.name,
            "title": self.game.title,
            "players": list(self.players),
            "viewer": _name(self.viewer),
            "viewers": [_name(v) for v in self.viewers],
            "outcome": outcome_text(self.match.outcome()),
            "head": self.match.head,
            "zones": self.zones.items,
            "counters": self.counters.items,
            "notes": self.notes.items,
            "note_lists": self.note_lists.items,
            "boards": self.boards.items,
            "items": items,
            "per": per,
            "forks": [{"rewind": b.rewind_seq, "to": b.to_seq, "abandoned": list(b.abandoned)} for b in fold.branches],
            "outcomes": outcomes.items or ["in progress"],
            "signed": self._signed(),
        }

    def _signed(self) -> dict[str, Any] | None:
        """The last head every player signed (``adj confirm``): a dispute about an event up to it is
        answered by their signatures."""
        both = self.match.fold.both_confirmed()
        if both is None:
            return None
        seq, _, seqs = both
        return {"seq": seq, "confirmations": seqs,
                "text": f"every player signed the head at seq {seq} (confirmations at seq {', '.join(map(str, seqs))}): "
                        "a dispute about an event up to it is answered by their signatures"}

    def _marks(self, row: Row, shown: Row, viewer: str | None, results: Mapping[int, list[str]],
               inserted_before: Mapping[int, list[Row]], branches: Sequence[Branch], fork_of: Mapping[int, int]) -> list[list[str]]:
        marks: list[list[str]] = []
        if row.seq is None:
            message = shown.message if shown.message != HIDDEN else \
                "(the message is its author's and the judge's: it may quote what you may not know)"
            marks.append(["rejected", f"{row.rule}: {message}"])
            return marks
        for r in inserted_before.get(row.seq, ()):
            inner = self.redacted(r, viewer).fields.get("event")
            what = row_text(Row(None, str(inner.get("by")), str(inner.get("type")),
                                {k: v for k, v in inner.items() if k not in ("type", "by")})) if isinstance(inner, Mapping) else "an event"
            marks.append(["correction", f"seq {r.seq} inserted before this event: {what} ({r.fields.get('reason', '')})"])
        if row.type == "correct":
            marks.append(["correction", f"inserts an event before seq {row.fields.get('at_seq')}"])
        if row.seq in fork_of:
            b = branches[fork_of[row.seq]]
            span = ", ".join(map(str, b.abandoned)) or "nothing"
            marks.append(["rewind", f"rewind to seq {b.to_seq}; abandons {span}"])
        if row.type == "confirm":
            marks.append(["signed", f"{row.by} signed the head at seq {row.fields.get('head_seq')}"])
        if row.seq in self._signed_heads():
            marks.append(["signed", f"every player signed this head (confirmations at seq "
                                    f"{', '.join(map(str, self._signed_heads()[row.seq]))})"])
        if row.type == "note":
            marks.append(["note", f"judge's note at seq {shown.fields.get('at_seq')}: {shown.fields.get('text', '')}"])
        if row.type == "penalty":
            f = shown.fields
            marks.append(["penalty", f"{f.get('penalty')} for {f.get('player')} ({f.get('infraction')}) at seq {f.get('at_seq')}: {f.get('reason', '')}"])
        marks.extend(["result", text] for text in results.get(row.seq, ()))
        return marks


def _name(viewer: str | None) -> str:
    return JUDGE if viewer is None else viewer


def page_data(match: Any, rejections: Sequence[Any], viewer: str | None = None,
              states: Mapping[int, Any] | None = None) -> dict[str, Any]:
    """``states``: seq -> the state right after it, every one (``fold_stored``'s, kept while the
    match was folded); else the fold's ``history`` computes again those it did not keep."""
    return PageBuilder(match, rejections, viewer, states).build()


def render_page(match: Any, rejections: Sequence[Any], viewer: str | None = None,
                states: Mapping[int, Any] | None = None) -> str:
    """The whole page as one HTML string: markup, style, script and data inlined."""
    from importlib.resources import files

    import jinja2
    from markupsafe import Markup

    data = page_data(match, rejections, viewer, states)
    here = files("adjudicator.presentation") / "templates"
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (here / name).read_text(encoding="utf-8")),
                             autoescape=True)
    template = env.get_template("page.html")
    return template.render(
        data=data,
        data_json=Markup(script_json(data)),
        style=Markup((here / "page.css").read_text(encoding="utf-8")),
        script=Markup("\n".join((here / name).read_text(encoding="utf-8") for name in ("board.js", "page.js"))),
        mark_kinds=MARK_KINDS,
    )
