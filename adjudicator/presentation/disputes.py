"""Two records of one match, in the table's words (``adj reconcile``): where they part, what each
side's version changes on the table (as ``adj diff`` says it), where they agree again, and the
figures that differ at the end. ``reconcile_json`` and ``reconcile_lines`` say the same thing, as
data and as text; the comparison itself is ``adjudicator.records.reconcile``.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine.kit import Board
from adjudicator.engine.words import outcome_text
from adjudicator.presentation.changes import BoardChange, board_changes, grouped_lines, zone_name, zone_size
from adjudicator.presentation.render import event_line, plain
from adjudicator.records.reconcile import Reconciliation, Record, RecordLine, Signed


def board_after(record: Record, line: RecordLine | None) -> Board:
    """The judge's picture of the table right after ``line`` in ``record`` (before the first
    line: an empty table)."""
    state = record.state_after(line)
    if state is None:
        return Board(players=tuple(record.players))
    return record.game.board(state, None)


def line_changes(record: Record, common: RecordLine | None, line: RecordLine | None) -> list[BoardChange]:
    """What ``line`` changes on the table, from the common prefix (none when it is refused)."""
    if line is None or not line.accepted:
        return []
    return board_changes(board_after(record, common), board_after(record, line))


def version_changes(record: Record, common: RecordLine | None) -> list[BoardChange]:
    """What the side's whole version changes on the table: from the common prefix to its end."""
    end = record.game.board(record.state, None)
    return board_changes(board_after(record, common), end)


def figures(r: Reconciliation) -> list[dict[str, Any]]:
    """The figures that differ at the end: each player's counters (score, life, damage...), the
    size of each zone (hands, decks...), and the outcome."""
    a, b = r.a, r.b
    ba, bb = a.game.board(a.state, None), b.game.board(b.state, None)
    out: list[dict[str, Any]] = []
    oa, ob = a.fold.outcome(), b.fold.outcome()
    for p in dict.fromkeys([*(oa.score or {}), *(ob.score or {})]):
        x, y = (oa.score or {}).get(p), (ob.score or {}).get(p)
        if x != y:
            out.append({"player": p, "what": "score", "a": x, "b": y})
    for p in dict.fromkeys([*ba.counters, *bb.counters]):
        ca, cb = ba.counters.get(p, {}), bb.counters.get(p, {})
        for k in dict.fromkeys([*ca, *cb]):
            if ca.get(k) != cb.get(k):
                out.append({"player": p, "what": k, "a": ca.get(k), "b": cb.get(k)})
    sizes_a = {zone_name(z): (z.owner, zone_size(z)) for z in ba.zones}
    sizes_b = {zone_name(z): (z.owner, zone_size(z)) for z in bb.zones}
    for name in dict.fromkeys([*sizes_a, *sizes_b]):
        (owner, x), (_, y) = sizes_a.get(name, (None, None)), sizes_b.get(name, (None, None))
        if x != y:
            out.append({"player": owner or sizes_b.get(name, (None,))[0], "what": f"{name} (cards)", "a": x, "b": y})
    if (oa.status, oa.winner) != (ob.status, ob.winner):
        out.append({"player": None, "what": "outcome", "a": outcome_text(oa), "b": outcome_text(ob)})
    return out


def version_verdicts(rec: Record, common: int) -> dict[str, Any]:
    """How the side's version adjudicates from the common prefix (its first ``common`` actions):
    how many of its table actions are accepted, and the first it has refused (in a file, a refused
    line is part of its account)."""
    after = rec.actions[common:]
    refused = next((ln for ln in after if not ln.accepted), None)
    return {"actions": len(after), "accepted": sum(ln.accepted for ln in after),
            "first_refused": None if refused is None else {"line": refused.no, "type": refused.type, "by": refused.by,
                                                           "rule": refused.rule, "code": refused.code,
                                                           "message": refused.message}}


def _record_json(rec: Record) -> dict[str, Any]:
    return {"name": rec.name, "source": rec.source, "sealed": rec.sealed, "match_id": rec.match_id, "game": rec.game.name,
            "players": list(rec.players), "lines": len(rec.lines), "actions": len(rec.actions),
            "outcome": plain(rec.fold.outcome())}


def verdict_json(rec: Record, line: RecordLine | None, common: RecordLine | None, changes: bool = True) -> dict[str, Any] | None:
    """A side's line at the divergence and its verdict there, with what it changes on the table."""
    if line is None:
        return None
    return {"line": line.no, "inserted": line.inserted, "type": line.type, "by": line.by, "fields": line.fields,
            "accepted": line.accepted, "rule": line.rule, "code": line.code, "message": line.message,
            "changes": [c.to_json() for c in line_changes(rec, common, line)] if changes else []}


def _signed_json(signed: Signed | None) -> dict[str, Any] | None:
    if signed is None:
        return None
    return {"line": signed.head.no, "seq": signed.seq, "hash": signed.hash, "by": [c.by for c in signed.confirmations],
            "confirmation_lines": [c.no for c in signed.confirmations]}


def signed_answer(r: Reconciliation) -> str | None:
    """What the players' signatures say about the dispute, in words; None when no record carries
    a head every player signed."""
    if r.a_signed is None and r.b_signed is None:
        return None
    parts = []
    for side, signed in (("A", r.a_signed), ("B", r.b_signed)):
        if signed is not None:
            who = " and ".join(c.by for c in signed.confirmations)
            parts.append(f"in {side}, {who} signed the head at line {signed.head.no}")
    text = "; ".join(parts)
    d = r.divergence
    if d is None or d.kind == "different_match":
        return text
    side = r.answered_by
    if side is not None:
        where = d.a if side == "a" else d.b
        return (f"{text}: the records part at line {where.no if where else '(end)'} of {side.upper()}, at or before that head: "
                f"the players' own signatures answer the dispute for {side.upper()}'s version")
    both = [x for x, signed, line in (("A", r.a_signed, d.a), ("B", r.b_signed, d.b))
            if signed is not None and (line is None or line.no <= signed.head.no)]
    if len(both) == 2:
        return f"{text}: both records carry signed heads past the place they part: the players signed two histories"
    return f"{text}: the records part after it: the signatures do not answer the dispute"


def reconcile_json(r: Reconciliation) -> dict[str, Any]:
    """The answer as data (docs/json.md, ``adj reconcile --json``)."""
    out: dict[str, Any] = {"agree": r.agree, "common": r.common, "a": _record_json(r.a), "b": _record_json(r.b),
                           "divergence": None, "rejoin": None, "versions": None, "figures": [], "notes": list(r.notes),
                           "signed": {"a": _signed_json(r.a_signed), "b": _signed_json(r.b_signed),
                                      "answered_by": r.answered_by, "text": signed_answer(r)}}
    d = r.divergence
    if d is None:
        return out
    other = d.kind == "different_match"
    out["divergence"] = {
        "kind": d.kind, "detail": d.detail,
        "a_line": d.a.no if d.a else None, "b_line": d.b.no if d.b else None,
        "a": verdict_json(r.a, d.a, r.a_common, not other), "b": verdict_json(r.b, d.b, r.b_common, not other),
        "after_line": {"a": r.a_common.no if r.a_common else None, "b": r.b_common.no if r.b_common else None},
        "pair": ({"a_line": d.a_next.no, "b_line": d.b_next.no} if d.a_next and d.b_next else None),
    }
    if other:
        return out
    if r.rejoin is not None:
        j = r.rejoin
        out["rejoin"] = {"a_line": j.a.no, "b_line": j.b.no, "run": j.run, "to_the_end": j.to_the_end,
                         "same_table": j.same_table}
    out["versions"] = {side: {**version_verdicts(rec, r.common), "changes": [c.to_json() for c in version_changes(rec, common)]}
                       for side, rec, common in (("a", r.a, r.a_common), ("b", r.b, r.b_common))}
    out["figures"] = figures(r)
    return out


def _source(rec: Record) -> str:
    what = "stored match" if rec.source == "match" else ("sealed file" if rec.sealed else "file")
    named = f", match {rec.match_id}" if rec.match_id and rec.match_id != rec.name else ""
    return f"{rec.name} ({what}{named}): {len(rec.lines)} lines, {len(rec.actions)} table actions"


def _verdict_lines(side: str, rec: Record, line: RecordLine | None, common: RecordLine | None, words: bool) -> list[str]:
    if line is None:
        return [f"  {side}: (ends here)"]
    where = f"the event the correction at line {line.no} inserts" if line.inserted else f"line {line.no}"
    head = f"  {side} {where}: " + event_line("", line.by, line.type, line.fields).strip()
    if line.accepted:
        out = [head + "  [accepted]"]
    else:
        out = [head + f"  [refused: {line.rule}: {line.message}]"]
    if words:
        out.extend(f"      {c.text}" for c in line_changes(rec, common, line))
    return out


def _value(v: Any) -> str:
    return "-" if v is None else str(v)


def reconcile_lines(r: Reconciliation) -> list[str]:
    """The answer as text."""
    a, b = r.a, r.b
    out = [f"A: {_source(a)}", f"B: {_source(b)}", *(f"note: {n}" for n in r.notes)]
    answer = signed_answer(r)
    d = r.divergence
    if d is None:
        out.append(f"the records agree: {r.common} table actions, the same on both sides")
        out.extend([f"signed: {answer}"] if answer else [])
        return out
    if d.kind == "different_match":
        out.append(f"different matches: {d.detail}")
        out.extend(_verdict_lines("A", a, d.a, None, False))
        out.extend(_verdict_lines("B", b, d.b, None, False))
        return out
    where = (f"A to line {r.a_common.no}, B to line {r.b_common.no}" if r.a_common and r.b_common else "nothing")
    out.append(f"the records agree on the first {r.common} table actions ({where})")
    at = f"A line {d.a.no if d.a else '(end)'} / B line {d.b.no if d.b else '(end)'}"
    out.append(f"they part at {at}: {d.kind}: {d.detail}")
    if answer:
        out.append(f"signed: {answer}")
    out.extend(_verdict_lines("A", a, d.a, r.a_common, True))
    if d.a_next is not None:
        out.extend(_verdict_lines("A", a, d.a_next, d.a, False))
    out.extend(_verdict_lines("B", b, d.b, r.b_common, True))
    if d.b_next is not None:
        out.extend(_verdict_lines("B", b, d.b_next, d.b, False))
    j = r.rejoin
    if j is None:
        out.append("they do not agree again")
    else:
        span = "to the end" if j.to_the_end else f"for {j.run} table action(s)"
        table = "the table is the same on both sides there" if j.same_table else "the table differs there"
        out.append(f"they agree again from A line {j.a.no} / B line {j.b.no}, {span}; {table}")
    for side, rec, common in (("A", a, r.a_common), ("B", b, r.b_common)):
        changes = version_changes(rec, common)
        v = version_verdicts(rec, r.common)
        judged = f"{v['accepted']} of its {v['actions']} table action(s) accepted"
        if v["first_refused"]:
            f = v["first_refused"]
            judged += f"; first refused: line {f['line']} ({f['type']} by {f['by']}): {f['rule']}: {f['message']}"
        out.append(f"{side}'s version, from the common point to its end: {judged}")
        out.extend(f"  {x}" for x in grouped_lines(changes, rec.players) or ["no change on the table"])
    figs = figures(r)
    if figs:
        out.append("figures that differ at the end:")
        for f in figs:
            what = f"{f['player']} {f['what']}" if f["player"] and not f["what"].startswith(f"{f['player']}'s") else f["what"]
            out.append(f"  {what}: A {_value(f['a'])}, B {_value(f['b'])}")
    else:
        out.append("the figures at the end are the same on both sides")
    return out


# -- the judge's page of a dispute (adj reconcile A B --html FILE) ----------------------------------
#: at most this many lines of each side are listed on the page, from where they part
PAGE_LINES = 300


def _board_view(board: Board) -> dict[str, Any]:
    """A board as the page's template draws it (the judge's picture)."""

    def zone(z: Any) -> dict[str, Any]:
        return {"name": z.name, "size": zone_size(z), "count": z.count, "cards": list(z.cards)}

    players = [{"name": p, "counters": list(board.counters.get(p, {}).items()),
                "zones": [zone(z) for z in board.zones if z.owner == p]} for p in board.players]
    return {"phase": board.phase, "turn": board.turn, "waiting": board.waiting, "players": players,
            "shared": [zone(z) for z in board.zones if z.owner is None], "notes": list(board.notes)}


def _segments(total: int, common: int, apart_end: int | None) -> list[dict[str, Any]]:
    """A side's strip: the common prefix, the stretch apart, then where they agree again."""
    if total == 0:
        return []
    apart_end = total if apart_end is None else apart_end
    out = []
    for kind, lo, hi, title in (("common", 0, common, "the same on both sides"),
                                ("apart", common, apart_end, "where the two accounts differ"),
                                ("again", apart_end, total, "the same actions again")):
        if hi > lo:
            out.append({"kind": kind, "width": round(100 * (hi - lo) / total, 3), "title": f"{title} ({hi - lo})"})
    return out


def page_model(r: Reconciliation) -> dict[str, Any]:
    """What the dispute's page shows: both records side by side from where they part, the table
    after each side's version, and the signed heads on the two records' timeline."""
    d = r.divergence
    rejoin = r.rejoin
    out: dict[str, Any] = {
        "title": f"{r.a.name} and {r.b.name}: " + ("the records agree" if r.agree else f"{d.kind}" if d else ""),
        "game": r.a.game.title, "agree": r.agree, "common": r.common, "notes": list(r.notes),
        "kind": d.kind if d else None, "detail": d.detail if d else None, "signed": signed_answer(r), "figures": [],
        "rejoin": None,
    }
    if rejoin is not None:
        span = "to the end" if rejoin.to_the_end else f"for {rejoin.run} table action(s)"
        table = "the table is the same on both sides there" if rejoin.same_table else "the table differs there"
        out["rejoin"] = f"They agree again from A line {rejoin.a.no} / B line {rejoin.b.no}, {span}; {table}."
    for key, rec, at, common, signed, again in (("a", r.a, d.a if d else None, r.a_common, r.a_signed, rejoin.a if rejoin else None),
                                                 ("b", r.b, d.b if d else None, r.b_common, r.b_signed, rejoin.b if rejoin else None)):
        acts = rec.actions
        other = d is not None and d.kind == "different_match"
        mine = acts[r.common:] if not other else acts
        shown = mine[:PAGE_LINES]
        signed_line = signed.head if signed is not None else None
        lines = [{"no": ln.no, "text": event_line("", ln.by, ln.type, ln.fields).strip(), "accepted": ln.accepted,
                  "rule": ln.rule, "message": ln.message, "rejoin": ln is again, "signed": ln is signed_line
                  or (signed_line is not None and ln.seq == signed_line.seq and not ln.inserted)} for ln in shown]
        signed_at = next((i + 1 for i, ln in enumerate(acts) if signed_line is not None and ln.seq == signed_line.seq
                          and not ln.inserted), None)
        v = version_verdicts(rec, r.common)
        again_at = next((i for i, ln in enumerate(acts) if ln is again), None)
        out[key] = {
            "key": key, "label": key.upper(), "name": rec.name,
            "what": "stored match" if rec.source == "match" else ("sealed file" if rec.sealed else "file"),
            "at": at.no if at else "(end)", "actions": len(acts), "lines": lines, "more": len(mine) - len(shown),
            "verdicts": f"{v['accepted']} of {v['actions']} accepted",
            "board": _board_view(rec.game.board(rec.state, None)),
            "changes": [] if other else [c.text for c in version_changes(rec, common)],
            "segments": _segments(len(acts), r.common, again_at),
            "signed_at": signed_at,
            "signed_pos": None if signed_at is None or not acts else round(100 * (signed_at - 0.5) / len(acts), 3),
        }
    if d is not None and d.kind != "different_match":
        out["figures"] = [{"what": f"{f['player']} {f['what']}" if f["player"] and not str(f["what"]).startswith(f"{f['player']}'s")
                           else f["what"], "a": _value(f["a"]), "b": _value(f["b"])} for f in figures(r)]
    return out


def render_reconcile_page(r: Reconciliation) -> str:
    """The dispute's page: one self-contained HTML file (no script), every string escaped."""
    from importlib.resources import files

    import jinja2
    from markupsafe import Markup

    here = files("adjudicator.presentation") / "templates"
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (here / name).read_text(encoding="utf-8")),
                             autoescape=True)
    html = env.get_template("reconcile.html").render(p=page_model(r), style=Markup((here / "page.css").read_text(encoding="utf-8")))
    return html.lstrip()
