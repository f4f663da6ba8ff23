"""Builds the golden matches of rules §13 (``fixtures/builddivide/golden``): each example entered
as at the table, with the figures, rejections and results the chapter states.

Positions are reached by play (setup, turns passed with their draws and discards) and by a
judge's ops (``ADD_ENERGY``, ``PUT_ONTO_FIELD``, ``MOVE``) that set the example's starting
figures. The expectations are written from the chapter, never computed: ``python -m
tests.builddivide.golden`` rewrites the files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from tests.builddivide.helpers import A, B, catalog, clone, deck, energy_card, run, setup, started

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "builddivide" / "golden"

ENERGY = [energy_card(n, c) for n, c in (("E1", ["RED"]), ("E2", ["BLUE"]), ("E3", ["BLUE", "RED"]), ("E4", ["WHITE"]),
                                         ("E5", ["RED"]), ("W1", ["WHITE"]), ("W2", ["WHITE"]), ("W3", ["WHITE"]),
                                         ("K1", ["BLACK"]), ("K2", ["BLACK"]), ("K3", ["BLACK"]), ("K4", ["BLACK"]),
                                         ("R1", ["RED"]), ("R2", ["RED"]), ("R3", ["RED"]))]
UNITS = [clone(base, name) for name, base in (("M6", "U6k"), ("M5", "U5k"), ("N5", "U5k"), ("S5", "U5k"), ("S6", "U6k"),
                                               ("T5", "U5k"), ("R4", "U4k"), ("S3", "U3k"), ("R6", "U6k"), ("S2", "U2k"),
                                               ("Z", "U5k"), ("V", "U5k"), ("W", "U2k"), ("Y", "U3k"), ("X", "U5k"),
                                               ("ACE1b", "ACE1"), ("A5", "U5k"), ("A3", "U3k"))]
SHOTS = [clone("SHOT3", n) for n in ("SHOT4", "SHOT5", "SHOT6")]
ABILITY = [clone("U2k", "ABL", abilities=[{"id": "a1", "kind": "ACTIVATED", "timing": "NORMAL", "note": "cost: discard a card"}])]
CATALOG = catalog(*ENERGY, *UNITS, *SHOTS, *ABILITY)


def op(name: str, **args: Any) -> dict[str, Any]:
    return {"op": name, **args}


class Golden:
    """One golden match being written: its lines, the rejections and checkpoints it expects."""

    def __init__(self, a: list[str] | None = None, b: list[str] | None = None, options: dict[str, Any] | None = None,
                 first: str = A, energy: dict[str, list[str]] | None = None, size_a: int = 40, size_b: int = 40,
                 start: dict[str, Any] | None = None, do_setup: bool = True):
        decks = {A: deck(a, size_a, CATALOG), B: deck(b, size_b, CATALOG)}
        self.lines: list[dict[str, Any]] = [start or started(decks, options, CATALOG)]
        self.rejected: dict[str, dict[str, str]] = {}
        self.checkpoints: list[dict[str, Any]] = []
        if do_setup:
            self.lines += setup(first, energy)

    def add(self, type_: str, by: str, **fields: Any) -> Golden:
        self.lines.append({"type": type_, "by": by, **fields})
        return self

    def reject(self, rule: str, type_: str, by: str, **fields: Any) -> Golden:
        self.add(type_, by, **fields)
        self.rejected[str(len(self.lines))] = {"rule": rule}
        return self

    def seq(self) -> int:
        """The seq of the last accepted line (a rejected line uses no seq)."""
        return len(self.lines) - len(self.rejected)

    def ops(self, *ops: dict[str, Any], note: str = "set up the example's position") -> Golden:
        return self.add("judge_ops", "judge", ops=list(ops), note=note)

    def check(self, label: str, **view: Any) -> Golden:
        self.checkpoints.append({"after_line": len(self.lines), "label": label, "view": view})
        return self

    def state(self):
        report, match = run(self.lines)
        return match.state

    def to_turn(self, turn: int, phase: str, keep: tuple[str, ...] = ()) -> Golden:
        """Pass turns (draws and discards included) up to ``turn`` in ``phase``."""
        while True:
            g = self.state().game
            if g.status != "IN_PROGRESS":
                raise RuntimeError(f"the game is {g.status}, not in play: a line before was refused")
            if g.turn_number == turn and g.phase == phase:
                return self
            tp = g.turn_player
            if g.phase == "DRAW" and g.turn_number > 1 and not g.drawn_this_phase:
                self.add("draw", tp, player=tp)
            elif g.end_step == "DISCARD":
                self.add("end_discard", tp, cards=self._discards(tp, keep))
            else:
                self.add("advance_phase", tp)

    def empty(self, who: str, life: int, hand: int | None = None, deck: int = 0) -> Golden:
        """A judge's ops that leave ``who`` with ``life`` life cards, ``hand`` hand cards and ``deck``
        deck cards (the others removed from the game, named from the unseen pool)."""
        p = next(x for x in self.state().game.players if x.name == who)
        ops = []
        if len(p.life) > life:
            ops.append(op("MOVE", n=len(p.life) - life, from_zone="LIFE", to_zone="DECK", face="DOWN", player=who))
        deck_now = p.deck_count + max(0, len(p.life) - life)
        pool = [n for n, c in sorted(p.unseen.items(), key=lambda kv: -kv[1]) for _ in range(c)]
        if hand is not None and len(p.hand) > hand:
            names, pool = pool[: len(p.hand) - hand], pool[len(p.hand) - hand:]
            ops.append(op("DISCARD", player=who, cards=names))
        ops += [op("MOVE", card=n, from_zone="DECK", to_zone="REMOVE", player=who) for n in pool[: deck_now - deck]]
        return self.ops(*ops)

    def _discards(self, who: str, keep: tuple[str, ...]) -> list[str]:
        s = self.state()
        p = next(x for x in s.game.players if x.name == who)
        owed = len(p.hand) - 5
        pool = [n for n, c in sorted(p.unseen.items(), key=lambda kv: -kv[1]) if n not in keep for _ in range(c)]
        return pool[:owed]

    def write(self, name: str, example: str, title: str, outcome: dict[str, Any] | None = None) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{name}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in self.lines), encoding="utf-8")
        expect: dict[str, Any] = {"example": example, "title": title, "accepted": len(self.lines) - len(self.rejected),
                                  "rejected": self.rejected, "checkpoints": self.checkpoints}
        if outcome is not None:
            expect["outcome"] = outcome
        (OUT / f"{name}.expect.json").write_text(json.dumps(expect, indent=1) + "\n", encoding="utf-8")


def pl(**fields: Any) -> dict[str, Any]:
    return fields


def players(a: dict[str, Any] | None = None, b: dict[str, Any] | None = None) -> dict[str, Any]:
    out = {}
    if a is not None:
        out[A] = a
    if b is not None:
        out[B] = b
    return {"players": out}


def unit(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, **fields}


def dump(state) -> dict[str, Any]:
    return msgspec.to_builtins(state)
