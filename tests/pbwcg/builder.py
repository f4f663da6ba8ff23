"""A table for PBWCG tests: lines entered one by one through the real fold, so a test (or the
golden-file generator) can play routine steps and then assert the figures the chapter states."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event
from adjudicator.engine.protocol import Violation

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "pbwcg"
GAME = registry.get("pbwcg")


def sample_deck(player: str) -> dict[str, Any]:
    data = json.loads((FIX / f"deck-{player.lower()}.sample.json").read_text(encoding="utf-8"))
    return {k: v for k, v in data.items() if not k.startswith("_")}


def started(options: dict | None = None, decks: dict | None = None, by: str = "P1",
            players: tuple[str, ...] = ("P1", "P2")) -> dict[str, Any]:
    """match_started with the sample decks; a third player (P3) brings local rule D's player_count."""
    if len(players) > 2 and options is None:
        options = {"player_count": len(players)}
    return {"type": "match_started", "by": by, "game": "pbwcg", "players": list(players),
            "options": options or {}, "decks": decks or {p: sample_deck(p) for p in players}}


#: the initial PCs each sample deck places
INITIAL = {"P1": ("A1", "A2"), "P2": ("B1", "B2"), "P3": ("C1", "C2")}


class Table:
    def __init__(self, options: dict | None = None, decks: dict | None = None, start: bool = True,
                 players: tuple[str, ...] = ("P1", "P2")):
        self.fold = Fold(GAME, "t")
        self.lines: list[dict[str, Any]] = []
        self.rejected: dict[str, dict[str, str]] = {}
        self.checkpoints: list[dict[str, Any]] = []
        if start:
            self.enter(started(options, decks, players=players))

    # -- entering ---------------------------------------------------------------------------------
    def _event(self, line: dict[str, Any]):
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        return decode_event(GAME, line["type"], line["by"], fields)

    def enter(self, line: dict[str, Any]) -> int:
        """Enter a line that must be accepted; its seq."""
        seq = self.fold.head + 1
        self.fold.advance(self._event(line), seq)
        self.lines.append(line)
        return seq

    def act(self, type_: str, by: str, **fields) -> int:
        return self.enter({"type": type_, "by": by, **fields})

    def refuse(self, rule: str, type_: str, by: str, **fields) -> Violation:
        """Enter a line that must be refused by ``rule``; nothing changes."""
        line = {"type": type_, "by": by, **fields}
        try:
            self.fold.preview(self._event(line), self.fold.head + 1)
        except Violation as v:
            if v.rule_id != rule:
                raise AssertionError(f"{type_} refused by {v.rule_id} ({v.message}), expected {rule}") from None
            self.lines.append(line)
            self.rejected[str(len(self.lines))] = {"rule": rule}
            return v
        raise AssertionError(f"{type_} {fields} was accepted; expected {rule}")

    # -- reading ----------------------------------------------------------------------------------
    @property
    def state(self):
        return self.fold.state

    def view(self) -> dict[str, Any]:
        return json.loads(json.dumps(GAME.view(self.state, None)))

    def hp(self, p: str) -> int:
        return self.state.player(p).hp

    def char(self, c: str):
        return self.state.char(c)

    def checkpoint(self, label: str, view: dict[str, Any]) -> None:
        self.checkpoints.append({"after_line": len(self.lines), "label": label, "view": view})

    # -- routine steps ----------------------------------------------------------------------------
    def setup(self, p1=("A1", "A2"), p2=("B1", "B2")) -> None:
        players = self.state.names()
        for p in players:
            self.act("initial_pcs_placed", p, player=p, pcs=list({"P1": p1, "P2": p2}.get(p, INITIAL[p])))
        self.act("battle_started", "P1", confirmations=list(players) + (["judge"] if self.state.options.judge_present else []))

    def discards(self) -> None:
        """T7: every hand over 5 (special hand not counted) is cut to 5, the first cards first."""
        for p in self.state.players:
            counted = [c for c in p.hand if c not in p.special_hand]
            if len(counted) > 5:
                self.act("hand_discarded", p.name, player=p.name, cards=counted[: len(counted) - 5])

    def start_turn(self, draws: dict[str, list[str]] | None = None, ties: list[dict] | None = None) -> None:
        if self.state.step == "T7":
            self.discards()
        self.act("turn_started", "P1", turn=self.state.turn + 1)
        for t in ties or []:
            self.act("tie_break", "P1", **t)
        while self.state.pending_ties:  # any further tie: the order as listed, by a fair method
            g = self.state.pending_ties[0]
            self.act("tie_break", "judge", members=list(g), method="other", order=list(g))
        from adjudicator.games.pbwcg.flow import draw_needed

        for p in self.state.names():
            n = draw_needed(self.state, p)
            if n:
                chosen = (draws or {}).get(p) or [c for c in self.state.player(p).deck if c.startswith(f"{p}F")][:n]
                self.act("cards_drawn", p, player=p, cards=list(chosen)[:n])

    def pl_turns(self) -> None:
        while self.state.step == "PL":
            p = self.state.pl_order[self.state.pl_index]
            self.act("pl_turn_ended", p, player=p)

    def end_pl_turn(self) -> None:
        p = self.state.pl_order[self.state.pl_index]
        self.act("pl_turn_ended", p, player=p)

    def pl_until(self, player: str) -> None:
        """End PL turns until it is ``player``'s."""
        while self.state.step == "PL" and self.state.pl_order[self.state.pl_index] != player:
            self.end_pl_turn()

    def field_step(self) -> None:
        self.act("field_step_ended", "P1")

    def next_actor(self) -> str | None:
        from adjudicator.games.pbwcg.flow import next_actor

        n = next_actor(self.state)
        return None if n is None else n[1]

    def controller(self, card: str) -> str:
        return self.state.char(card).controller

    def begin(self, actor: str) -> None:
        self.act("main_turn_started", self.controller(actor), actor=actor)

    def end(self, actor: str) -> None:
        self.act("main_turn_ended", self.controller(actor), actor=actor)

    def idle(self, actor: str) -> None:
        self.begin(actor)
        self.act("wait", self.controller(actor), actor=actor)
        self.end(actor)

    def idle_rest(self) -> None:
        while (a := self.next_actor()) is not None:
            self.idle(a)

    def end_turn(self) -> None:
        self.act("turn_ended", "P1")

    def idle_turn(self, ties: list[dict] | None = None) -> None:
        self.start_turn(ties=ties)
        self.pl_turns()
        self.field_step()
        self.idle_rest()
        self.end_turn()

    # -- files --------------------------------------------------------------------------------------
    def write(self, name: str, example: str, title: str, outcome: dict | None = None) -> None:
        out = FIX / "golden"
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{name}.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in self.lines), encoding="utf-8")
        expect: dict[str, Any] = {"example": example, "title": title, "accepted": self.fold.head,
                                  "rejected": self.rejected, "checkpoints": self.checkpoints}
        if outcome is not None:
            expect["outcome"] = outcome
        (out / f"{name}.expect.json").write_text(json.dumps(expect, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
