"""The judge settles a dispute on the record (``adj reconcile A B --take A|B --into MATCH``).

``MATCH`` is the stored match being settled: one of the two records. The judge's choice goes into
it through the events every game already has, with the judge's reason, so the other account stays
visible:

- the stored match already holds the account taken: nothing in the game changes; a judge's
  ``note`` at the place they part records the decision and the other account's lines there;
- the account taken only goes on where the stored match ends: its further actions are appended;
- the account taken has one action the stored match lacks, and agrees with it from there to the
  end: a ``correct`` inserts that action where it belongs (every later event is checked again);
- otherwise a ``rewind`` to the last action both accounts share, then the account taken from
  there: the stored match's own account stays in the log as the branch the rewind abandoned.

The game gates the rewind and the correction as always (``--with KEY=VALUE`` gives their game
fields, e.g. BACDEF's ``cause=judge_error``). Everything is checked on the match's fold before
anything is written, then appended at once: a refusal (exit 1) or a conflict writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine.fold import decode_event, event_fields
from adjudicator.engine.inputs import check_event
from adjudicator.engine.kit import event_type
from adjudicator.engine.protocol import JUDGE, Malformed, Violation
from adjudicator.engine.words import format_value
from adjudicator.records.reconcile import Reconciliation, Record, RecordLine
from events.envelope import Draft, StoredEvent

#: at most this many of the other account's actions are quoted in a judge's note
QUOTED = 8
#: a note's text stays within the input limit on a string
TEXT_LIMIT = 1000


@dataclass
class Settlement:
    """What the settlement wrote: how (``note``, ``append``, ``correct`` or ``rewind``), the events
    stored, and the seqs the rewind abandoned."""

    take: str  # "a" or "b"
    into: str
    method: str
    events: list[StoredEvent] = field(default_factory=list)
    abandoned: list[int] = field(default_factory=list)


class Refused(Violation):
    """A step of the settlement was refused by a rule: nothing was written."""

    def __init__(self, v: Violation, what: str):
        super().__init__(v.rule_id, f"{what}: {v.message}", v.code)
        self.cause = v


def _line_text(line: RecordLine) -> str:
    shown = " ".join(f"{k}={format_value(v)}" for k, v in line.fields.items() if v is not None)
    return f"line {line.no}: {line.by} {line.type}" + (f" {shown}" if shown else "")


def _stored_record(r: Reconciliation, into: str) -> str:
    for side, rec in (("a", r.a), ("b", r.b)):
        if rec.source == "match" and rec.name == into:
            return side
    raise Malformed(f"--into names the stored match being settled: give {into!r} as A or B", "--into")


def plan(r: Reconciliation, take: str, into: str, reason: str, with_fields: Mapping[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """How the settlement goes, and the events it appends (``{"type", "by", "fields"}``), before
    anything is checked."""
    d = r.divergence
    if d is None:
        raise Malformed("the records agree: there is nothing to settle", "--take")
    if d.kind == "different_match":
        raise Malformed(f"the records are of different matches ({d.detail}): there is nothing to settle", "--take")
    stored_side = _stored_record(r, into)
    recs = {"a": r.a, "b": r.b}
    y, x = recs[stored_side], recs[take]
    commons = {"a": r.a_common, "b": r.b_common}
    common_y = commons[stored_side]
    at_y = d.a if stored_side == "a" else d.b  # the stored match's line where they part (None: it ended)
    at_x = d.a if take == "a" else d.b
    label = {"a": "A", "b": "B"}
    why = f"reconcile: {label[take]} ({x.name}) taken over {label[stored_side]} ({y.name}) from where they part ({d.kind}): {reason}"
    if take == stored_side:
        other = recs["b" if take == "a" else "a"]
        other_at = d.b if take == "a" else d.a
        quoted = [ln for ln in other.actions[r.common:]][:QUOTED] if other_at is not None else []
        text = f"{why}; the other account: " + ("; ".join(_line_text(ln) for ln in quoted) or "it ends there")
        if len(text) > TEXT_LIMIT:
            text = text[: TEXT_LIMIT - 3] + "..."
        at_seq = at_y.seq if at_y is not None and at_y.seq is not None else (common_y.seq if common_y else 1)
        return "note", [{"type": "note", "by": JUDGE, "fields": {"at_seq": at_seq, "text": text}}]
    later = [ln for ln in x.actions[r.common:] if ln.accepted]
    if at_y is None:  # the stored match ends where the account taken goes on
        return "append", [{"type": ln.type, "by": ln.by, "fields": dict(ln.fields)} for ln in later]
    j = r.rejoin
    extra = (d.kind == ("extra" if take == "b" else "missing") and at_x is not None and j is not None and j.to_the_end
             and (j.a if stored_side == "a" else j.b) is at_y and at_y.seq is not None and not at_y.inserted)
    if extra:  # one action the stored match lacks, and the same from there to the end: inserted where it belongs
        inserted = {"type": at_x.type, "by": at_x.by, **at_x.fields}
        return "correct", [{"type": "correct", "by": JUDGE,
                            "fields": {**dict(with_fields), "at_seq": at_y.seq, "event": inserted, "reason": why}}]
    if common_y is None or common_y.seq is None:
        raise Malformed("the last action both accounts share is not an event of the stored match's log "
                        "(an event a correction inserted): there is no event to rewind to", "--take")
    rewind = {"type": "rewind", "by": JUDGE, "fields": {**dict(with_fields), "to_seq": common_y.seq, "reason": why}}
    return "rewind", [rewind, *({"type": ln.type, "by": ln.by, "fields": dict(ln.fields)} for ln in later)]


def settle(service: Any, r: Reconciliation, take: str, into: str, reason: str,
           with_fields: Mapping[str, Any] | None = None) -> Settlement:
    """Settle the dispute ``r`` for record ``take`` ("a" or "b") in the stored match ``into``.
    ``Refused`` (a ``Violation``) when a rule refuses a step, ``Malformed`` when there is nothing
    to settle or ``into`` is not one of the records; nothing is written then."""
    if take not in ("a", "b"):
        raise Malformed(f"--take is A or B, not {take!r}", "--take")
    if not isinstance(reason, str) or not reason.strip():
        raise Malformed("the judge's reason is needed: --reason TEXT", "--reason")
    method, steps = plan(r, take, into, reason, with_fields or {})
    match = service.load(into)  # the whole match, folded from its log: checked on it before anything is written
    fold, game = match.fold, match.game
    head = match.head
    drafts = []
    for i, step in enumerate(steps):
        check_event(step["type"], step["by"], step["fields"])
        event = decode_event(game, step["type"], step["by"], step["fields"], strict=False)
        try:
            fold.advance(event, head + 1 + i)
        except Violation as v:
            what = f"the {step['type']} by {step['by']}" + (f" (step {i + 1} of {len(steps)})" if len(steps) > 1 else "")
            raise Refused(v, f"the settlement is refused at {what}; nothing was written") from None
        drafts.append(Draft(type=event_type(event), by=event.by, recorded_at=service.clock(), fields=event_fields(event)))
    stored = list(service.store.append(into, drafts, head))
    abandoned: list[int] = []
    if method == "rewind":
        branch = next((b for b in fold.branches if b.rewind_seq == head + 1), None)
        abandoned = list(branch.abandoned) if branch is not None else []
    return Settlement(take, into, method, stored, abandoned)
