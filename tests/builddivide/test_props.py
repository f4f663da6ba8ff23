"""Random legal play (driven by ``legal()``'s choices) with Build Divide's invariants after every
step: every card of both decks is in exactly one zone (life and D deck included), no energy is
paid twice, and the points of a player damage equal the life cards revealed for it."""

from __future__ import annotations

import msgspec
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event
from adjudicator.engine.protocol import Violation
from adjudicator.games.builddivide import refs as R
from tests.builddivide.helpers import A, B, ev, opening
from tests.gamekit import action_fields

GAME = registry.get("builddivide")
START = opening(a=["U5k", "U6k", "E1", "E2", "SHOT3", "ABL"], b=["U5k", "U6k", "E1", "E2", "SHOT3", "SHOT3"]) + [
    ev("judge_ops", "judge", note="units and energy to fight with", ops=[
        {"op": "PUT_ONTO_FIELD", "card": "U5k", "from_zone": "DECK", "player": A},
        {"op": "PUT_ONTO_FIELD", "card": "ABL", "from_zone": "DECK", "player": A},
        {"op": "PUT_ONTO_FIELD", "card": "U6k", "from_zone": "DECK", "player": B},
        *[{"op": "ADD_ENERGY", "card": n, "from_zone": "DECK", "player": p} for p in (A, B) for n in ("E1", "E2")],
        {"op": "MOVE", "n": 8, "from_zone": "LIFE", "to_zone": "DECK", "face": "DOWN", "player": B}])]
EXTRA = [{"name": n, "type": "COMMAND", "is_ace": False, "titles": [], "colours": c, "total_cost": 0, "colour_cost": {},
          "timing": "NORMAL", "power": 0, "hit": 0, "icons": [], "abilities": [], "text": "sample energy", "entered_by": "test"}
         for n, c in (("E1", ["RED"]), ("E2", ["BLUE"]))] + [
    {"name": "ABL", "type": "UNIT", "is_ace": False, "titles": [], "colours": ["WHITE"], "total_cost": 2, "colour_cost": {"WHITE": 1},
     "timing": "NORMAL", "power": 2000, "hit": 1, "icons": [], "text": "sample", "entered_by": "test",
     "abilities": [{"id": "a1", "kind": "ACTIVATED", "timing": "NORMAL", "note": ""}, {"id": "t1", "kind": "AUTOMATIC", "timing": "NORMAL", "note": ""}]}]
START[0]["catalog"] = START[0]["catalog"] + EXTRA


def total_cards(state, name: str) -> int:
    g = state.game
    p = next(x for x in g.players if x.name == name)
    on_stack = sum(1 for i in g.stack if i.kind == "CARD" and i.controller == name)
    shot = 1 if g.damage is not None and g.damage.victim == name and g.damage.shot_card else 0
    return (p.deck_count + len(p.hand) + len(p.life) + len(p.energy) + len(p.field) + len(p.graveyard) + len(p.remove_zone)
            + len(p.d_deck) + on_stack + shot)


class Play(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.fold = Fold(GAME, "props")
        for i, line in enumerate(START, 1):
            fields = {k: v for k, v in line.items() if k not in ("type", "by")}
            self.fold.advance(decode_event(GAME, line["type"], line["by"], fields), i)
        self.cards = {n: total_cards(self.fold.state, n) for n in (A, B)}
        self.reveals = 0
        self.life_at_start: int | None = None

    @rule(data=st.data())
    def act(self, data):
        state = self.fold.state
        if GAME.outcome(state).status != "in_progress":
            return
        offered = [a for a in GAME.legal(state) if not a.anytime]
        if not offered:
            return
        action = data.draw(st.sampled_from(offered), label="action")
        fields = data.draw(action_fields(action), label="fields")
        event = decode_event(GAME, action.type, action.who, fields)
        before = state
        try:
            self.fold.advance(event, self.fold.head + 1)
        except Violation as v:
            raise AssertionError(f"offered {action.type} {fields} refused: {v}") from None
        after = self.fold.state
        self.check_payment(before, after, fields, action.who)
        self.track_damage(before, after, action.type)

    def check_payment(self, before, after, fields, who):
        """Energy is never paid twice: a payment rests exactly its entries, each standing before."""
        payment = fields.get("payment")
        if not payment:
            return
        standing = lambda s: sum(1 for p in s.game.players if p.name == who for e in p.energy if e.standing)  # noqa: E731
        p0 = next(p for p in before.game.players if p.name == who)
        scope = R.of_player(p0, ("ENERGY",))
        paid = [R.find(x["energy"], scope, before.names, "$") for x in payment]  # §15: each entry one energy card
        assert None not in paid and len(set(paid)) == len(paid), f"{payment} names an energy card twice or none"
        assert all(e.standing for e in p0.energy for c in paid if (e.name, e.k) == (c.name, c.k))
        assert standing(before) - standing(after) == len(payment)

    def track_damage(self, before, after, type_):
        d0, d1 = before.game.damage, after.game.damage
        if d0 is None and d1 is not None:
            self.reveals = 0
            self.life_at_start = len(next(p for p in after.game.players if p.name == d1.victim).life)
        if type_ == "life_check":
            self.reveals += 1
        if d1 is not None:
            victim = next(p for p in after.game.players if p.name == d1.victim)
            assert d1.dealt == self.reveals
            assert self.life_at_start - len(victim.life) == self.reveals

    @invariant()
    def cards_are_conserved(self):
        if hasattr(self, "fold"):
            for n in (A, B):
                assert total_cards(self.fold.state, n) == self.cards[n]

    def teardown(self):
        if hasattr(self, "fold"):
            again = Fold(GAME, "props")
            for seq, event in self.fold.log:
                again.advance(event, seq)
            assert msgspec.msgpack.encode(again.state) == msgspec.msgpack.encode(self.fold.state)


Play.TestCase.settings = settings(Play.TestCase.settings, stateful_step_count=40, max_examples=min(Play.TestCase.settings.max_examples, 10))
TestPlay = Play.TestCase
