"""Two records of one match, compared event by event: where they part, and how.

A *record* is a match as one side kept it: a match file (sealed or not) or a stored match. Each is
read and adjudicated on its own first, as ``adj check`` and ``adj verify`` would: a sealed file or a
stored match that does not verify is an integrity failure (``IntegrityError``), a line that does not
read is malformed input (``Malformed``); a line of an unsealed file that a rule refuses is part of
that side's account, kept with its verdict (a table session: it changes nothing).

Two records are then compared by content, not by hash: a line is its ``type``, ``by`` and fields
as the game decodes them (so a line typed again, with another ``recorded_at``, still agrees). The
record's commentary, a judge's ``note`` and a player's ``confirm``, is not compared: it is about
the match, not a table action (a player's own file seldom has it).

- ``common``: how many table actions agree from the start;
- the *divergence*: the first place they do not, with both sides' lines (``a``, ``b``) and their
  verdicts there, each side adjudicated in its own record from the common prefix, and a kind
  (what record B is, against record A):

  - ``changed``: the two sides have a different action there;
  - ``missing``: B lacks A's action (B goes on with A's next one, or ends);
  - ``extra``: B has an action A lacks;
  - ``reordered``: the two sides have the same two adjacent actions in the other order, both
    orders accepted and reaching the same state: independent actions, not a conflict (two
    actions that do not commute are ``changed``);
  - ``different_match``: the records are not of one match: their ``match_started`` lines differ,
    or both name their match (a stored match's id, a file's ``match_id``) and the names differ
    (``same_match`` says the judge vouches that they are one match, e.g. a player's file stored
    under a name of its own);

  which kind is the one that explains the most of what follows (with one line changed, dropped,
  added or a pair swapped, exactly that one, since it makes the rest agree to the end);
- ``rejoin``: where the two agree again after it, if they do, and whether the table is then the
  same on both sides.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from difflib import SequenceMatcher
from typing import Any

import msgspec

from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.kit import Game, event_type
from adjudicator.engine.protocol import Correct, Malformed, Rewind
from adjudicator.records.matchfile import FileFold, parse_lines
from events.envelope import canonical, split_flat

#: Line types outside the game's history, never compared: the judge's calls and the players'
#: confirmations are remarks on the record, not table actions.
CALLS = frozenset(("note", "penalty", "confirm"))

KINDS = ("changed", "missing", "extra", "reordered", "different_match")


@dataclass
class RecordLine:
    """One line of a record: where it is (a file's line number, a stored match's seq), what it
    says, its verdict in its own record, and the head seq of that record after it."""

    no: int
    type: str
    by: str
    fields: dict[str, Any]
    key: bytes  # the content compared: type, by and the fields as the game decodes them
    accepted: bool = True
    rule: str | None = None
    code: str | None = None
    message: str | None = None
    head: int = 0  # the record's head seq right after this line (its state is the fold's there)
    seq: int | None = None  # its seq in the record, when accepted
    hash: str | None = None  # its hash, when accepted
    #: in a record's account: the event a correction inserted (``no`` is the correction's line)
    inserted: bool = False
    #: in a record's account: the state right after it, along the account (None: not set)
    state: Any = None


@dataclass
class Record:
    """One side's account of a match, read and adjudicated."""

    name: str  # as given: a file's path or a stored match's id
    source: str  # "file" or "match"
    sealed: bool
    match_id: str | None  # the name the record gives its match, if any
    game: Game
    fold: Fold
    lines: list[RecordLine]

    @property
    def players(self) -> tuple[str, ...]:
        return self.fold.players

    @cached_property
    def actions(self) -> list[RecordLine]:
        """The record's account, the lines compared: its effective history's table actions in
        order, an event a correction inserted in its place, without the rewinds and corrections
        themselves and without what a rewind abandoned; and, where a file has them, the lines a
        rule refused, where they were entered (they change nothing). Notes and confirmations are
        not table actions."""
        fold = self.fold
        by_seq = {ln.seq: ln for ln in self.lines if ln.seq is not None}
        states = fold.line_states()
        refused: dict[int, list[RecordLine]] = {}  # seq -> the refused lines entered right after it
        last = 0
        for ln in self.lines:
            if ln.accepted:
                last = ln.seq if ln.type not in CALLS else last  # type: ignore[assignment]
            else:
                refused.setdefault(last, []).append(ln)
        out: list[RecordLine] = []
        for entry, state in zip(fold.entries, states):
            event = entry.event
            if entry.inserted:
                correction = by_seq[entry.seq]
                fields, key = _content(self.game, event_type(event), event.by, event_fields(event))
                out.append(RecordLine(correction.no, event_type(event), event.by, fields, key, head=entry.seq,
                                      inserted=True, state=state))
                continue
            if not isinstance(event, (Rewind, Correct)):
                out.append(dataclasses.replace(by_seq[entry.seq], state=state))
            out.extend(dataclasses.replace(ln, state=state) for ln in refused.get(entry.seq, ()))
        return out

    def state_after(self, line: RecordLine | None) -> Any:
        """The state right after ``line`` (before the first line: None): along the record's
        account for a line of it, else as it was when the line was folded."""
        if line is None:
            return None
        if line.state is not None:
            return line.state
        return self.fold.history[line.head] if line.head else None

    @property
    def state(self) -> Any:
        return self.fold.state

    @classmethod
    def from_lines(cls, lines: Iterable[str], name: str, clock: Callable[[], str]) -> Record:
        """A match file: every line read and adjudicated as ``adj check`` does. ``Malformed`` for
        input that does not read; ``IntegrityError`` for a sealed file that does not verify."""
        parsed = parse_lines(lines)
        first_mid = next((obj["match_id"] for _, obj in parsed if isinstance(obj.get("match_id"), str)), None)
        table = FileFold(parsed[0], first_mid or "reconcile", clock)
        out: list[RecordLine] = []
        for no, obj in parsed:
            verdict, stored = table.line(no, obj)
            env, fields = split_flat(obj)
            if stored is not None:
                type_, by, fields = stored.type, stored.by, stored.fields
            else:  # refused: decoded as the fold did, for the content compared
                type_, by = env["type"], env["by"]
                fields = event_fields(decode_event(table.game, type_, by, fields, path=f"line {no}: $"))
            fields, key = _content(table.game, type_, by, fields)
            line = RecordLine(no, type_, by, fields, key, verdict.accepted, verdict.rule,
                              verdict.code, verdict.message, table.fold.head,
                              stored.seq if stored else None, stored.hash if stored else None)
            out.append(line)
        return cls(name, "file", table.sealed, table.match_id if table.sealed else first_mid, table.game, table.fold, out)

    @classmethod
    def from_match(cls, match: Any, name: str) -> Record:
        """A stored match, as ``MatchService.load`` gives it (chain verified, every event
        re-adjudicated): its events are its lines, numbered by seq."""
        game = match.game
        out = [RecordLine(ev.seq, ev.type, ev.by, *_content(game, ev.type, ev.by, ev.fields), head=ev.seq,
                          seq=ev.seq, hash=ev.hash)
               for ev in match.events]
        return cls(name, "match", True, match.match_id, game, match.fold, out)


def _content(game: Game, type_: str, by: str, fields: dict[str, Any]) -> tuple[dict[str, Any], bytes]:
    """A line's fields as the game decodes them (defaults, declared types, the declared order),
    and the content compared: so that two ways of writing one action agree."""
    try:
        fields = event_fields(decode_event(game, type_, by, fields))
    except Malformed:  # read already; kept as written
        fields = dict(fields)
    return fields, canonical([type_, by, fields])


@dataclass
class Divergence:
    """Where the two records part: the kind, and each side's line there (None: that side ended)."""

    kind: str
    a: RecordLine | None
    b: RecordLine | None
    detail: str
    #: for ``reordered`` (and a swap that is not independent): each side's second line
    a_next: RecordLine | None = None
    b_next: RecordLine | None = None


@dataclass
class Rejoin:
    """Where the two records agree again: each side's first line of the run that agrees, how many
    actions agree from there, whether they agree to the end, and whether the table is the same on
    both sides just before it."""

    a: RecordLine
    b: RecordLine
    run: int
    to_the_end: bool
    same_table: bool


@dataclass
class Signed:
    """The last head every player of a record confirmed (``adjudicator.engine.confirming``): the
    head's line in that record, its seq and hash, and the lines of the confirmations."""

    head: RecordLine
    seq: int
    hash: str
    confirmations: list[RecordLine]


def signed_head(rec: Record) -> Signed | None:
    """The last head every player confirmed in ``rec``, if any."""
    both = rec.fold.both_confirmed()
    if both is None:
        return None
    seq, hash_, seqs = both
    by_seq = {ln.seq: ln for ln in rec.lines if ln.seq is not None}
    head = by_seq.get(seq)
    if head is None:
        return None
    return Signed(head, seq, hash_, [by_seq[s] for s in seqs if s in by_seq])


@dataclass
class Reconciliation:
    a: Record
    b: Record
    agree: bool
    common: int  # table actions that agree from the start
    divergence: Divergence | None = None
    rejoin: Rejoin | None = None
    #: the last action of the common prefix on each side (None: nothing in common)
    a_common: RecordLine | None = None
    b_common: RecordLine | None = None
    notes: list[str] = field(default_factory=list)
    a_signed: Signed | None = None
    b_signed: Signed | None = None

    @property
    def answered_by(self) -> str | None:
        """"a" or "b" when the place the records part is at or before the last head every player
        signed in that record (and only in that one): the players' own signatures answer the
        dispute. None otherwise."""
        d = self.divergence
        if d is None or d.kind == "different_match":
            return None
        hits = [side for side, signed, line in (("a", self.a_signed, d.a), ("b", self.b_signed, d.b))
                if signed is not None and (line is None or line.no <= signed.head.no)]
        return hits[0] if len(hits) == 1 else None


def _run(xs: Sequence[bytes], i: int, ys: Sequence[bytes], j: int) -> tuple[int, bool]:
    """How many items agree from ``xs[i]`` and ``ys[j]``, and whether that reaches both ends."""
    n = 0
    while i + n < len(xs) and j + n < len(ys) and xs[i + n] == ys[j + n]:
        n += 1
    return n, i + n == len(xs) and j + n == len(ys)


def same_state(x: Any, y: Any) -> bool:
    """Two states are the same when they encode to the same bytes."""
    try:
        return msgspec.msgpack.encode(x) == msgspec.msgpack.encode(y)
    except (TypeError, msgspec.EncodeError):
        return x == y


def different_match(a: Record, b: Record, same_match: bool = False) -> str | None:
    """Why the two records are not of one match, or None when they are."""
    if a.game.name != b.game.name:
        return f"A is a match of {a.game.name}, B of {b.game.name}"
    sa, sb = a.lines[0], b.lines[0]
    if sa.key != sb.key:
        fa, fb = sa.fields, sb.fields
        differ = sorted(k for k in {*fa, *fb} if canonical(fa.get(k)) != canonical(fb.get(k)))
        if sa.by != sb.by:
            differ.insert(0, "by")
        return f"their match_started lines differ ({', '.join(differ)})"
    if not same_match and a.match_id and b.match_id and a.match_id != b.match_id:
        return (f"they name different matches ({a.match_id!r}, {b.match_id!r}); if they are one match under two names, "
                "say so with --same-match")
    return None


def reconcile(a: Record, b: Record, same_match: bool = False) -> Reconciliation:
    """Compare two records of one match (see the module's docstring), with the last head every
    player signed in each."""
    out = _reconcile(a, b, same_match)
    out.a_signed, out.b_signed = signed_head(a), signed_head(b)
    return out


def _reconcile(a: Record, b: Record, same_match: bool) -> Reconciliation:
    why = different_match(a, b, same_match)
    if why is not None:
        return Reconciliation(a, b, False, 0, Divergence("different_match", a.lines[0], b.lines[0], why))
    xa, xb = a.actions, b.actions
    ka, kb = [ln.key for ln in xa], [ln.key for ln in xb]
    c, _ = _run(ka, 0, kb, 0)
    notes = []
    if a.match_id and b.match_id and a.match_id != b.match_id:
        notes.append(f"A names its match {a.match_id!r}, B {b.match_id!r}: compared as one match, as asked")
    common_a, common_b = xa[c - 1] if c else None, xb[c - 1] if c else None
    if c == len(ka) == len(kb):
        return Reconciliation(a, b, True, c, a_common=common_a, b_common=common_b, notes=notes)
    at_a, at_b = (xa[c] if c < len(xa) else None), (xb[c] if c < len(xb) else None)
    if at_a is None:
        div = Divergence("extra", None, at_b, f"B goes on after A ends: {len(kb) - c} more action(s)")
        step = (0, 1)
    elif at_b is None:
        div = Divergence("missing", at_a, None, f"B ends where A goes on: {len(ka) - c} more action(s)")
        step = (1, 0)
    else:
        div, step = _classify(a, b, xa, xb, ka, kb, c)
    out = Reconciliation(a, b, False, c, div, a_common=common_a, b_common=common_b, notes=notes)
    out.rejoin = _rejoin(a, b, xa, xb, ka, kb, c, step)
    return out


def _classify(a: Record, b: Record, xa: list[RecordLine], xb: list[RecordLine], ka: list[bytes], kb: list[bytes],
              c: int) -> tuple[Divergence, tuple[int, int]]:
    """The kind of the divergence at ``c`` where both sides have an action: the hypothesis that
    makes the most of the rest agree (reaching both ends first, then the longest run)."""
    swap = c + 1 < len(ka) and c + 1 < len(kb) and ka[c] == kb[c + 1] and ka[c + 1] == kb[c]
    hypotheses = [("reordered", 2, 2)] if swap else []
    hypotheses += [("changed", 1, 1), ("missing", 1, 0), ("extra", 0, 1)]
    best = None
    for order, (kind, da, db) in enumerate(hypotheses):
        run, end = _run(ka, c + da, kb, c + db)
        score = (end, run, -order)
        if best is None or score > best[0]:
            best = (score, kind, da, db)
    assert best is not None
    (end, run, _), kind, da, db = best
    if not end and run == 0 and kind in ("missing", "extra"):
        kind, da, db = "changed", 1, 1  # nothing after it agrees either way: the two simply differ there
    la, lb = xa[c], xb[c]
    if kind == "reordered":
        a2, b2 = xa[c + 1], xb[c + 1]
        accepted = la.accepted and a2.accepted and lb.accepted and b2.accepted
        if accepted and same_state(a.state_after(a2), b.state_after(b2)):
            return Divergence("reordered", la, lb, "the same two actions in the other order: independent "
                                                   "(both orders are accepted and reach the same state)", a2, b2), (2, 2)
        why = "one order is refused" if not accepted else "the two orders reach different states"
        return Divergence("changed", la, lb, f"the same two actions in the other order, which do not commute: {why}",
                          a2, b2), (2, 2)
    if kind == "missing":
        return Divergence("missing", la, lb, f"B lacks A's line {la.no} and goes on with A's next action"), (1, 0)
    if kind == "extra":
        return Divergence("extra", la, lb, f"B has line {lb.no}, which A lacks, then goes on with A's action"), (0, 1)
    return Divergence("changed", la, lb, "the two sides have a different action here"), (1, 1)


def _rejoin(a: Record, b: Record, xa: list[RecordLine], xb: list[RecordLine], ka: list[bytes], kb: list[bytes],
            c: int, step: tuple[int, int]) -> Rejoin | None:
    """Where the records agree again after the divergence at ``c``: right after its span when the
    next actions agree, else at the next run that agrees (``difflib``)."""
    i, j = c + step[0], c + step[1]
    run, end = _run(ka, i, kb, j)
    if run == 0:
        blocks = SequenceMatcher(None, ka[i:], kb[j:], autojunk=False).get_matching_blocks()
        found = next((m for m in blocks if m.size), None)
        if found is None:
            return None
        i, j = i + found.a, j + found.b
        run, end = _run(ka, i, kb, j)
    before_a = xa[i - 1] if i else None
    before_b = xb[j - 1] if j else None
    return Rejoin(xa[i], xb[j], run, end, same_table(a, before_a, b, before_b))


def same_table(a: Record, la: RecordLine | None, b: Record, lb: RecordLine | None) -> bool:
    """Whether the table (the judge's board) is the same right after ``la`` in A and ``lb`` in B."""
    sa, sb = a.state_after(la), b.state_after(lb)
    if sa is None or sb is None:
        return sa is None and sb is None
    return msgspec.json.encode(a.game.board(sa, None)) == msgspec.json.encode(b.game.board(sb, None))
