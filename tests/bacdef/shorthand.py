"""The chapter's example notation -> events, so examples can be written as the chapter writes them.

``place_field_card player=P1 card_id=P1-2`` becomes
``{"type": "place_field_card", "by": "alice", "player": "alice", "card_id": "alice-2"}``:
P1/P2 are the seat names, ops use the short form of §10.2 (``DAMAGE P2 1``), and the author is
the named player, or the judge for judge events (§13 notation).
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

JUDGE_EVENTS = {
    "decide_first_player",
    "resolve_effect",
    "apply_end_phase_effect",
    "confirm_end_phase",
    "rewind",
    "declare_set_void",
    "match_started",
    "correct",
}
OP_FIELDS = {
    "DAMAGE": ("target", "amount"),
    "KNOCK": ("count",),
    "HEAL": ("target", "amount"),
    "NEGATE": ("instance",),
    "CONVERT": ("instance",),
    "LOSE": ("victim", "count", "chooser"),
    "DROP": ("card_id",),
    "RETURN": ("card_id",),
    "REVEAL": ("card_id",),
    "TURN_GUARD": ("player", "slot", "to"),
    "PREVENT": ("player", "amount", "kind"),
    "LASTING": ("text", "until"),
    "NOTE": ("text",),
}
INT_FIELDS = {"amount", "count", "slot", "to_seq", "at_seq"}


class Seats:
    def __init__(self, p1: str = "alice", p2: str = "bob"):
        self.names = {"P1": p1, "P2": p2}

    def sub(self, text: str) -> str:
        return re.sub(r"\bP([12])\b", lambda m: self.names["P" + m.group(1)], text)


def _scalar(v: str, key: str | None = None) -> Any:
    if key in INT_FIELDS or (re.fullmatch(r"-?\d+", v) and key not in {"card_id", "reason", "text", "method"}):
        try:
            return int(v)
        except ValueError:
            return v
    return v


def parse_ops(text: str, seats: Seats) -> list[dict[str, Any]]:
    """``[DAMAGE P2 4, DEFER [DAMAGE P2 1]]`` -> op objects."""
    text = text.strip()
    assert text.startswith("[") and text.endswith("]"), text
    body = text[1:-1].strip()
    ops, depth, cur = [], 0, ""
    for ch in body:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    out = []
    for o in ops:
        name, _, rest = o.partition(" ")
        if name == "DEFER":
            out.append({"op": "DEFER", "ops": parse_ops(rest, seats)})
            continue
        vals = shlex.split(seats.sub(rest)) if rest else []
        d: dict[str, Any] = {"op": name}
        for key, v in zip(OP_FIELDS[name], vals):
            d[key] = _scalar(v, key) if not (key == "amount" and v == "all") else "all"
        out.append(d)
    return out


def parse(line: str, seats: Seats) -> dict[str, Any]:
    """One example line -> one event object."""
    type_, _, rest = line.strip().partition(" ")
    fields: dict[str, Any] = {}
    # split on spaces outside brackets and quotes
    parts, depth, cur, quote = [], 0, "", False
    for ch in rest:
        if ch == '"':
            quote = not quote
        if ch == "[" and not quote:
            depth += 1
        if ch == "]" and not quote:
            depth -= 1
        if ch == " " and depth == 0 and not quote:
            if cur:
                parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    by = None
    for part in parts:
        key, _, val = part.partition("=")
        if key == "by":
            by = seats.sub(val)
            continue
        if key == "ops":
            fields[key] = parse_ops(val, seats)
        elif val.startswith("[") and val.endswith("]"):
            items = [x.strip() for x in val[1:-1].split(",") if x.strip()]
            fields[key] = [_scalar(seats.sub(x), "slot" if key == "slots" else None) for x in items]
        else:
            v = val[1:-1] if val.startswith('"') and val.endswith('"') else val
            fields[key] = _scalar(seats.sub(v), key)
    if by is None:
        by = "judge" if type_ in JUDGE_EVENTS else fields.get("player", "judge")
    return {"type": type_, "by": by, **fields}


def to_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
