"""Writing DemonBrave match files line by line, with every line adjudicated as it is written.

``Table`` keeps a real fold of the match, so a line meant to be accepted that is refused (or
a line meant to be refused that is accepted) stops the writer at once: a golden file cannot
drift from the reducer unnoticed. Used by ``make_fixtures`` and by tests that need a position.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.state import State
from adjudicator.engine.protocol import Violation

JUDGE = "judge"
NOTSET = object()
RULE_CARDS = ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]


class Table:
    def __init__(self, p1: str = "alice", p2: str = "bob", *, options: dict[str, Any] | None = None, catalog: list[dict] | None = None):
        self.p1, self.p2 = p1, p2
        self.lines: list[dict[str, Any]] = []
        self.verdicts: list[tuple[str, str] | None] = []
        self.checkpoints: list[dict[str, Any]] = []
        self.outcome: dict[str, Any] | None = None
        self.fold = Fold(GAME, "build")
        fields: dict[str, Any] = {"game": "demonbrave", "players": [p1, p2]}
        if options:
            fields["options"] = options
        if catalog is not None:
            fields["catalog"] = catalog
        self.ev("match_started", JUDGE, **fields)

    # -- lines -------------------------------------------------------------------------------
    def _event(self, type_: str, by: str, fields: dict[str, Any]):
        return decode_event(GAME, type_, by, fields)

    def ev(self, type_: str, by: str, **fields: Any) -> int:
        """Write a line that must be accepted; returns its seq."""
        event = self._event(type_, by, fields)
        seq = self.fold.head + 1
        try:
            self.fold.advance(event, seq)
        except Violation as v:
            raise AssertionError(f"line {len(self.lines) + 1} {type_} {fields} was refused: {v} ({v.code})") from None
        self.lines.append({"type": type_, "by": by, **fields})
        self.verdicts.append(None)
        return seq

    def reject(self, rule: str, code: str, type_: str, by: str, **fields: Any) -> None:
        """Write a line that must be refused under ``rule`` with ``code``."""
        event = self._event(type_, by, fields)
        try:
            self.fold.preview(event, self.fold.head + 1)
        except Violation as v:
            if (v.rule_id, v.code) != (rule, code):
                raise AssertionError(f"{type_} {fields}: refused by {v.rule_id} {v.code} ({v.message}), expected {rule} {code}") from None
        else:
            raise AssertionError(f"{type_} {fields} was accepted; expected {rule} {code}")
        self.lines.append({"type": type_, "by": by, **fields})
        self.verdicts.append((rule, code))

    @property
    def state(self) -> State:
        return self.fold.state

    @property
    def seq(self) -> int:
        return self.fold.head

    @property
    def tp(self) -> str:
        return self.state.turn_player or self.p1

    def other(self, name: str) -> str:
        return self.p2 if name == self.p1 else self.p1

    # -- setup -------------------------------------------------------------------------------
    def setup(self, first: str, rule_cards: dict[str, list[str]] | None = None, hands: dict[str, list[str]] | None = None) -> "Table":
        rc = rule_cards or {}
        self.ev("rule_cards_selected", self.p1, rule_cards=rc.get(self.p1, RULE_CARDS))
        self.ev("rule_cards_selected", self.p2, rule_cards=rc.get(self.p2, RULE_CARDS))
        self.ev("first_player_decided", JUDGE, first_player=first, method="coin")
        hands = hands or {}
        fields: dict[str, Any] = {}
        if self.p1 in hands:
            fields["p1_cards"] = hands[self.p1]
        if self.p2 in hands:
            fields["p2_cards"] = hands[self.p2]
        self.ev("opening_hands_drawn", JUDGE, **fields)
        return self

    # -- turn flow ---------------------------------------------------------------------------
    def draw(self, cards: list[str] | None = None) -> int:
        st = self.state
        p = st.player(self.tp)
        n = Z.available_draw(st, p, Z.required_draw(st, p))
        fields: dict[str, Any] = {"count": n}
        if cards is not None:
            fields["cards"] = cards
        return self.ev("draw", self.tp, **fields)

    def advance(self, n: int = 1) -> int:
        seq = self.seq
        for _ in range(n):
            if self.state.phase == "DRAW" and not self.state.draw_done:
                self.draw()
            seq = self.ev("advance_phase", self.tp)
        return seq

    def to_phase(self, phase: str) -> None:
        """Go on (drawing as needed) until the turn player's ``phase`` of this turn."""
        while self.state.phase != phase:
            if self.state.phase == "END":
                raise AssertionError(f"no {phase} phase left in turn {self.state.turn_number}")
            self.advance()

    def end_turn(self) -> None:
        turn = self.state.turn_number
        while self.state.turn_number == turn and self.state.status == "IN_PROGRESS":
            self.advance()

    def goto(self, turn: int, phase: str = "MAIN") -> None:
        while self.state.turn_number < turn:
            self.end_turn()
        if phase != "DRAW":
            self.to_phase(phase)

    # -- main phase --------------------------------------------------------------------------
    def play(self, *cards: str) -> None:
        for c in cards:
            self.ev("play_card", self.tp, card=c)

    def pair(self, *units: str) -> str:
        before = self.state.pair_counter
        self.ev("form_pair", self.tp, units=list(units))
        return f"PAIR-{before}" if self.state.pair_counter > before else units[0]

    # -- battle ------------------------------------------------------------------------------
    def attack(self, attacker: str, target: str, *, block: Any = NOTSET, choice: str | None = None) -> None:
        self.ev("declare_attack", self.tp, attacker=attacker, target=target)
        if block is not NOTSET:
            self.ev("declare_block", self.other(self.tp), blocker=block)
        fields = {} if choice is None else {"choice": choice}
        self.ev("resolve_battle", self.tp, **fields)

    # -- example positions -------------------------------------------------------------------
    def adjust(self, ops: list[dict[str, Any]], reason: str) -> int:
        return self.ev("judge_adjust", JUDGE, ops=ops, reason=reason)

    def number_pairs_from(self, n: int, player: str, spare: tuple[str, str]) -> None:
        """Bring the pair counter to ``n`` (so that the example's pair ids are the chapter's):
        a pair of two spare deck cards is formed and its cards go back to the deck, n - counter
        times, in one judge_adjust."""
        a, b = spare
        ops: list[dict[str, Any]] = []
        for _ in range(n - self.state.pair_counter):
            ops += [
                {"op": "MOVE", "card": a, "from": "deck", "to": "field", "player": player},
                {"op": "MOVE", "card": b, "from": "deck", "to": "field", "player": player},
                {"op": "FORM_PAIR", "units": [a, b], "player": player},
                {"op": "MOVE", "card": a, "from": "field", "to": "deck", "player": player},
                {"op": "MOVE", "card": b, "from": "field", "to": "deck", "player": player},
            ]
        if ops:
            self.adjust(ops, f"example position: pair ids continue from PAIR-{n} as in the chapter")

    def number_entries_from(self, n: int, player: str, rule_card: str, effect_id: str) -> None:
        """Bring the chain-entry counter to ``n`` with activations resolved without ops."""
        while self.state.entry_counter < n:
            entry = f"E{self.state.entry_counter}"
            self.ev("activate_effect", player, rule_card=rule_card, effect_id=effect_id)
            self.ev("resolve_chain_entry", JUDGE, entry_id=entry, ops=[])

    # -- expectations (the golden runner's format, tests/test_golden.py) ---------------------
    def expect(self, label: str, **view: Any) -> None:
        """A checkpoint after the last line written: these keys of the judge's view, as the
        example states them. Checked now, so a file is never written with a wrong figure."""
        from tests.test_golden import contains

        actual = msgspec.to_builtins(GAME.view(self.state, None))
        wrong = contains(actual, view)
        if wrong:
            raise AssertionError(f"checkpoint {label!r} after line {len(self.lines)}: {wrong}")
        self.checkpoints.append({"after_line": len(self.lines), "label": label, "view": view})

    def expect_outcome(self, **outcome: Any) -> None:
        from tests.test_golden import contains

        wrong = contains(msgspec.to_builtins(GAME.outcome(self.state)), outcome)
        if wrong:
            raise AssertionError(f"outcome: {wrong}")
        self.outcome = outcome

    def expectation(self, example: str, title: str) -> dict[str, Any]:
        rejected = {str(no): {"rule": v[0], "code": v[1]} for no, v in enumerate(self.verdicts, 1) if v is not None}
        out: dict[str, Any] = {
            "example": example,
            "title": title,
            "accepted": sum(v is None for v in self.verdicts),
            "rejected": rejected,
            "checkpoints": self.checkpoints,
        }
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out

    # -- output ------------------------------------------------------------------------------
    def write(self, path: Path, example: str = "", title: str = "") -> None:
        path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines), encoding="utf-8")
        if example:
            expect = json.dumps(self.expectation(example, title), ensure_ascii=False, indent=1)
            path.with_suffix(".expect.json").write_text(expect + "\n", encoding="utf-8")


def units(*written: str) -> list[dict[str, Any]]:
    """A field as the chapter writes it, in field order: ``S3`` or ``PAIR-1[S3 H9]``."""
    out: list[dict[str, Any]] = []
    for w in written:
        uid, _, rest = w.partition("[")
        out.append({"unit": uid, "cards": rest.rstrip("]").split()} if rest else {"unit": uid})
    return out


def free_ids(state: State, player: str, avoid: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Ids of ``player`` that may still be in the deck or the unknown part of the hand."""
    from adjudicator.games.demonbrave.cards import ALL_CARDS

    p = state.player(player)
    return [c for c in ALL_CARDS if not Z.located(p, c) and c not in avoid]


def play_any(t: Table, n: int, avoid: set[str] = set()) -> list[str]:
    """The turn player plays ``n`` cards of unknown identity (any ids not in ``avoid``)."""
    cards = free_ids(t.state, t.tp, avoid)[:n]
    t.play(*cards)
    return cards


def deck_to(t: Table, player: str, n: int, zone: str, avoid: set[str] = set()) -> list[dict]:
    """Ops moving ``n`` cards of ``player`` from the deck to ``zone``."""
    return [{"op": "MOVE", "card": c, "from": "deck", "to": zone, "player": player} for c in free_ids(t.state, player, avoid)[:n]]
