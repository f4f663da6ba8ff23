"""A small table for BACDEF rule tests: start a match, enter events in the chapter's notation,
and read the state back in the chapter's terms (P1/P2, ``P1-3``, slot states ``U``/``S``/``X``).

Events go through the generic fold (``adjudicator.engine.fold.Fold``), the same path the match service
uses, so rewinds see the whole log. ``Table.do`` insists that each line is accepted;
``Table.reject`` insists that it is refused, that the refusal names the given rule and code, that
the message quotes what was tried, and that the refusal changed nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.games.bacdef import GAME
from adjudicator.games.bacdef.state import PlayerState, State, TurnState, damage_level
from adjudicator.engine.protocol import Violation
from tests.bacdef.shorthand import Seats, parse

P1, P2 = "alice", "bob"

# The chapter's default decks (§13): P1-1 A ... P1-7 F; P2-1 A ... P2-7 F.
DECK1 = ("A", "A", "B", "C", "D", "E", "F")
DECK2 = ("A", "B", "B", "C", "C", "D", "F")
# Guards of BAC-EX-1.
GUARDS1 = ("P1-7", "P1-1")
GUARDS2 = ("P2-7", "P2-2")


def _letters(deck: tuple[str, ...] | list[str]) -> str:
    return "[" + ",".join(deck) + "]"


class Table:
    """One match, driven line by line."""

    def __init__(
        self,
        options: dict[str, Any] | None = None,
        catalog: dict[str, Any] | None = None,
        decks: dict[str, Any] | None = None,
        players: tuple[str, str] = (P1, P2),
    ):
        self.seats = Seats(*players)
        self.names = dict(self.seats.names)
        self.fold = Fold(GAME, "m")
        started: dict[str, Any] = {
            "type": "match_started",
            "by": "judge",
            "game": "bacdef",
            "players": list(players),
            "options": dict(options or {}),
            "catalog": dict(catalog or {}),
        }
        if decks is not None:
            started["decks"] = {self.name(k): list(v) for k, v in decks.items()}
        self._advance(started)

    # -- names -------------------------------------------------------------------------------
    def name(self, who: str) -> str:
        """``P1`` -> ``alice``; a real name is returned as it is."""
        return self.names.get(who, who)

    def chap(self, card_id: str) -> str:
        """``alice-3`` -> ``P1-3``."""
        for seat, nm in self.names.items():
            if card_id.startswith(nm + "-"):
                return seat + card_id[len(nm) :]
        return card_id

    def cid(self, card_id: str) -> str:
        """``P1-3`` -> ``alice-3``."""
        return self.seats.sub(card_id)

    # -- entering events -----------------------------------------------------------------------
    def event(self, line: str | dict[str, Any], **fields: Any) -> dict[str, Any]:
        ev = parse(line, self.seats) if isinstance(line, str) else dict(line)
        for k, v in fields.items():
            ev[k] = self.name(v) if k == "by" else v
        return ev

    def _advance(self, ev: dict[str, Any]) -> State:
        fields = {k: v for k, v in ev.items() if k not in ("type", "by")}
        decoded = decode_event(GAME, ev["type"], ev["by"], fields)
        return self.fold.advance(decoded, self.fold.head + 1)

    def do(self, *lines: str | dict[str, Any], **fields: Any) -> State:
        """Enter each line; each MUST be accepted."""
        for line in lines:
            ev = self.event(line, **fields)
            try:
                self._advance(ev)
            except Violation as v:
                raise AssertionError(f"{ev} was rejected: {v.rule_id} {v.code}: {v.message}") from None
        return self.state

    def script(self, text: str) -> State:
        """Enter every non-empty line of ``text`` (``#`` starts a comment); each MUST be accepted."""
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if line:
                self.do(line)
        return self.state

    def attempt(self, line: str | dict[str, Any], **fields: Any) -> Violation:
        """Enter ``line``, which MUST be refused without any change; return the refusal."""
        ev = self.event(line, **fields)
        before = msgspec.msgpack.encode(self.state) if self.fold.entries else None
        head = self.fold.head
        try:
            self._advance(ev)
        except Violation as v:
            after = msgspec.msgpack.encode(self.state) if self.fold.entries else None
            assert before == after and self.fold.head == head, "a rejected event changed the state"
            return v
        raise AssertionError(f"{ev} was accepted; a rejection was expected")

    def reject(self, line: str | dict[str, Any], rule: str, code: str, *quotes: str, **fields: Any) -> Violation:
        """Enter ``line``: it MUST be refused by ``rule`` with ``code``, and the message MUST
        contain each of ``quotes`` (chapter ids such as ``P1-3`` are translated)."""
        v = self.attempt(line, **fields)
        assert (v.rule_id, v.code) == (rule, code), f"expected {rule} {code}, got {v.rule_id} {v.code}: {v.message}"
        for q in quotes:
            q = self.cid(q)
            assert q in v.message, f"{q!r} not in the message {v.message!r}"
        return v

    # -- reading state ---------------------------------------------------------------------------
    @property
    def state(self) -> State:
        return self.fold.state

    @property
    def seq(self) -> int:
        return self.fold.head

    @property
    def turn(self) -> TurnState:
        return self.state.set.turn

    def ps(self, who: str) -> PlayerState:
        return self.state.set.players[self.name(who)]

    def slots(self, who: str) -> str:
        """Slot states in slot order, e.g. ``"US"``."""
        return "".join(g.state for g in self.ps(who).guards)

    def guard_ids(self, who: str) -> list[str]:
        return [self.chap(g.card_id) for g in self.ps(who).guards]

    def D(self, who: str) -> int:
        return damage_level(self.ps(who))

    def overflow(self, who: str) -> int:
        return self.ps(who).overflow

    def hand(self, who: str) -> list[str]:
        return [self.chap(c) for c in self.ps(who).hand]

    def discard(self, who: str) -> list[str]:
        """Discard pile in arrival order, each with its face: ``["P1-3↑", "P1-1↓"]``."""
        cards = self.state.set.cards
        return [self.chap(c) + ("↑" if cards[c].face == "up" else "↓") for c in self.ps(who).discard]

    def card(self, card_id: str):
        return self.state.set.cards[self.cid(card_id)]

    def field(self, who: str) -> list[str]:
        nm = self.name(who)
        return sorted(self.chap(c.id) for c in self.state.set.cards.values() if c.owner == nm and c.zone == "field")

    def used(self, who: str) -> str:
        """Specials used, e.g. ``"DF"``."""
        return "".join(k for k in "DEF" if self.ps(who).special_used.get(k))

    def dmg(self) -> tuple[int, int]:
        t = self.turn
        return t.damage_received[self.name("P1")], t.damage_received[self.name("P2")]

    @property
    def step(self) -> str:
        return self.turn.step

    def awaiting(self) -> tuple[str, str] | None:
        a = self.turn.awaiting
        if a is None:
            return None
        return a.kind, self.seat_of(a.player)

    def seat_of(self, name: str) -> str:
        for seat, nm in self.names.items():
            if nm == name:
                return seat
        return name

    def wins(self) -> tuple[int, int]:
        w = self.state.set_wins
        return w[self.name("P1")], w[self.name("P2")]

    def results(self) -> list[tuple[str, str | None]]:
        return [(r.outcome, self.seat_of(r.winner) if r.winner else None) for r in self.state.set_results]

    def outcome(self) -> tuple[str, str | None]:
        o = GAME.outcome(self.state)
        return o.status, (self.seat_of(o.winner) if o.winner else None)

    def view(self, who: str | None) -> dict[str, Any]:
        return GAME.view(self.state, self.name(who) if who else None)


# -- starting positions -------------------------------------------------------------------------
def setup(
    t: Table,
    decks: tuple[tuple[str, ...], tuple[str, ...]] | None = (DECK1, DECK2),
    guards: tuple[tuple[str, str], tuple[str, str]] = (GUARDS1, GUARDS2),
    first: str | None = "P1",
) -> Table:
    """The setup steps of one set: decks (unless None: already registered), guards, first player."""
    if decks is not None:
        t.do(f"register_deck player=P1 letters={_letters(decks[0])}", f"register_deck player=P2 letters={_letters(decks[1])}")
    t.do(
        f"place_guards player=P1 card_ids=[{guards[0][0]},{guards[0][1]}]",
        f"place_guards player=P2 card_ids=[{guards[1][0]},{guards[1][1]}]",
    )
    if first is not None:
        t.do(f"decide_first_player first_player={first} method=rps")
    return t


def start(
    options: dict[str, Any] | None = None,
    catalog: dict[str, Any] | None = None,
    decks: tuple[tuple[str, ...], tuple[str, ...]] = (DECK1, DECK2),
    guards: tuple[tuple[str, str], tuple[str, str]] = (GUARDS1, GUARDS2),
    first: str = "P1",
) -> Table:
    """A match at turn 1 of set 1, Standby step: decks registered, guards placed, first player decided."""
    return setup(Table(options, catalog), decks, guards, first)


def play_turn(t: Table, attacker_card: str, defender_card: str | None, action: str, reaction: str | None = None) -> None:
    """Standby placements and the declarations of one battle, in the chapter's notation.

    ``action`` is ``knock`` or ``skill``; ``reaction`` is ``through``, ``skill`` or None (automatic)."""
    a, d = t.seat_of(t.turn.attacker), t.seat_of(t.turn.defender)
    t.do(f"place_field_card player={a} card_id={attacker_card}")
    if defender_card:
        t.do(f"place_field_card player={d} card_id={defender_card}")
    t.do(f"declare_knock player={a}" if action == "knock" else f"declare_skill player={a} card_id={attacker_card}")
    if reaction == "through":
        t.do(f"declare_through player={d}")
    elif reaction == "skill":
        t.do(f"declare_skill player={d} card_id={defender_card}")


def lines(*items: str) -> list[str]:
    return list(items)


def effect_turn(t: Table, card: str, ops: str, defender_card: str | None = None, confirm: bool = True) -> None:
    """A whole battle used to shape a position: the attacker places ``card`` and uses it as a
    skill, the defender places ``defender_card`` (default: their first hand card) and goes
    through, and the judge resolves the skill with ``ops`` (short form, e.g. ``[DROP P2-2]``).
    With ``confirm``, the End phase is confirmed as well (nothing may be pending)."""
    a, d = t.seat_of(t.turn.attacker), t.seat_of(t.turn.defender)
    t.do(f"place_field_card player={a} card_id={card}")
    if not t.turn.handless[t.name(d)]:
        t.do(f"place_field_card player={d} card_id={defender_card or t.hand(d)[0]}")
    t.do(f"declare_skill player={a} card_id={card}")
    if t.step == "counter":
        t.do(f"declare_through player={d}")
    t.do(f"resolve_effect instance_id={t.turn.queue[0]} ops={ops}")
    if confirm:
        t.do("confirm_end_phase")


def handless_p2(options: dict[str, Any] | None = None, catalog: dict[str, Any] | None = None) -> Table:
    """Turn 3, P1 attacker, Standby; P2 has no hand card (four lost in turn 1, the last one used
    as a skill in turn 2). P2 discard: P2-3..P2-6 face-down, then P2-1 face-up; guards untouched."""
    t = start(options, catalog)
    effect_turn(t, "P1-2", "[LOSE P2 4]", defender_card="P2-1")
    assert t.hand("P2") == ["P2-1"]
    effect_turn(t, "P2-1", "[]", defender_card="P1-3")
    assert (t.turn.no, t.turn.attacker, t.hand("P2")) == (3, P1, [])
    return t
