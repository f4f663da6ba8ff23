"""What the golden-match writers share (``make_golden``): the Golden file builder, the judge's ops
that set up a worked example's position, the opening of a match and the fixture servants."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2drive.builder import catalog, ev, jsonl, started

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive" / "golden"
PAWN = {"type": "Irregular", "DUR": 50, "ATK": 10, "DEF": 10, "SPD": 10}
EXTRA = {"F-Pawn-1": PAWN, "F-Pawn-2": PAWN, "F-Pawn-3": PAWN}


def merge(*parts: dict) -> dict:
    out: dict = {}
    for p in parts:
        for k, v in p.items():
            out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def sv(ref: str, **fields: Any) -> dict:
    return {"servants": {ref: fields}}


def pl(seat: str, **fields: Any) -> dict:
    return {"player": {seat: fields}}


# -- ops -------------------------------------------------------------------------------------------
def dmg(ref, n): return {"op": "DAMAGE", "servant": ref, "n": n}
def destroy(ref): return {"op": "DESTROY", "servant": ref}
def acted(ref): return {"op": "ACTION_STATE", "servant": ref, "state": "acted"}
def status(ref, s, state="on"): return {"op": "STATUS", "servant": ref, "status": s, "state": state}
def ether(pool, n, state="on"): return {"op": "ETHER", "pool": pool, "n": n, "state": state}
def dcard(seat): return {"op": "MOVE", "card": "unknown", "from": "deck", "to": "damage_cards", "player": seat}
def draw(seat, n): return {"op": "DRAW", "player": seat, "n": n}
def je(*ops, **kw): return ev("judge_effect", ops=list(ops), **kw)


class Golden:
    def __init__(self, name: str, example: str, title: str):
        self.name, self.example, self.title = name, example, title
        self.lines: list[dict] = []
        self.rejected: dict[str, dict] = {}
        self.checkpoints: list[dict] = []

    def add(self, line: dict, reject: str | None = None, check: dict | None = None, label: str = "") -> "Golden":
        self.lines.append(line)
        n = len(self.lines)
        if reject:
            self.rejected[str(n)] = {"rule": reject}
        if check is not None:
            self.checkpoints.append({"after_line": n, "label": label or line["type"], "view": check})
        return self

    def many(self, *lines: dict) -> "Golden":
        for x in lines:
            self.add(x)
        return self

    @property
    def n(self) -> int:
        return len(self.lines)

    def write(self, outcome: dict | None = None) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{self.name}.jsonl").write_text(jsonl(self.lines), encoding="utf-8")
        expect = {"example": self.example, "title": self.title, "accepted": self.n - len(self.rejected),
                  "rejected": self.rejected, "checkpoints": self.checkpoints,
                  "outcome": outcome or {"status": "in_progress"}}
        (OUT / f"{self.name}.expect.json").write_text(json.dumps(expect, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def opening(g: Golden, p1: list[str], p2: list[str], servants: dict | None = None, tools: dict | None = None,
            options: dict | None = None, draws: dict | None = None, before_turn: list[dict] | None = None) -> Golden:
    cat = catalog({**EXTRA, **(servants or {})}, tools)
    g.add(started(p1, p2, options=options, cat=cat))
    g.add(ev("game_started", **({"draws": draws} if draws else {})))
    for x in before_turn or []:
        g.add(x)
    return g.add(ev("start_turn"))


PAWNS = ["F-Pawn-1", "F-Pawn-2"]


BETA = {"type": "Slicer", "DUR": 40, "ATK": 30, "DEF": 10, "SPD": 30}
LAMBDA = {"type": "Blocker", "DUR": 30, "ATK": 20, "DEF": 30, "SPD": 20}


MU = {"type": "Irregular", "DUR": 50, "ATK": 30, "DEF": 30, "SPD": 30}


GAMMA = {"type": "Restorer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 30}


PI = {"type": "Irregular", "DUR": 30, "ATK": 10, "DEF": 20, "SPD": 10}
TAU = {"type": "Irregular", "DUR": 40, "ATK": 20, "DEF": 10, "SPD": 30}


def end_main(g: Golden, acting: str, others: list[str]) -> Golden:
    """Mark every other unacted servant acted and end the acting one's action: the main phase ends."""
    g.add(je(*[acted(r) for r in others]))
    return g.add(ev("end_action", acting[:2], servant=acting))


ALL = [f"P{p}.S{s}" for p in (1, 2) for s in (1, 2, 3)]


def spd(v: int, t: str = "Irregular", invisible: bool = False) -> dict:
    return {"type": t, "DUR": 50, "ATK": 30, "DEF": 20, "SPD": v, "starts_invisible": invisible}


GHOST = {"type": "Irregular", "DUR": 50, "ATK": 50, "DEF": 20, "SPD": 50}
WISP = {"type": "Irregular", "DUR": 40, "ATK": 20, "DEF": 30, "SPD": 10}


def limited_p1(extra: list[dict] | None = None) -> dict:
    """P1 limited: 3 damage cards (master 5), P1.S2 and P1.S3 destroyed."""
    return je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3"), *(extra or []))


RHO = {"type": "Blocker", "DUR": 70, "ATK": 20, "DEF": 60, "SPD": 10}
