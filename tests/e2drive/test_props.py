"""What must always hold in E2Drive, whatever the table does (hypothesis, stateful):

- ether: for every pool, held <= on <= size, never negative; a destroyed servant's pool is off and
  unheld; master size is 2 + damage cards (E2D-LIM-12, E2D-STATE-4, E2D-LIM-5);
- cards are conserved: deck + hand + trash + damage cards + own tool cards in play + the 3 servants
  on the field = 33 per player;
- damage is counted in 10D steps and never below 0 (E2D-RES-8, E2D-EFF-4);
- a refused action changes nothing.

The machine plays the actions ``legal()`` offers, and now and then a judge's status or damage op
(which may be refused, and must then leave the state alone)."""

from __future__ import annotations

import msgspec
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from adjudicator.engine.protocol import Violation
from tests.e2drive.test_board import board_from_view
from tests.e2drive.builder import ev
from tests.e2drive.harness import GAME, Table, table
from tests.gamekit import action_fields
from adjudicator.games.e2drive.state import SEATS, player, pool, servant, slots_of

REFS = [f"P{p}.S{s}" for p in (1, 2) for s in (1, 2, 3)]


def cards_of(g, seat: str) -> int:
    p = player(g, seat)
    in_play = len([t for t in p.tool_field]) + sum(1 for q in g.players for sv in q.servants for t in sv.equipment
                                                    if t.owner == seat)
    return p.deck_count + p.hand_count + len(p.trash) + p.damage_cards + in_play + 3


class E2DriveMachine(RuleBasedStateMachine):
    t: Table

    @initialize(p1=st.sampled_from([["F-Alpha", "F-Kappa", "F-Sigma"], ["F-Beta", "F-Gamma", "F-Shade"]]),
                p2=st.sampled_from([["F-Delta", "F-Epsilon", "F-Mu"], ["F-Rho", "F-Lambda", "F-Sigma"]]))
    def start(self, p1, p2):
        self.t = table(p1, p2)

    def running(self) -> bool:
        return GAME.outcome(self.t.state).status == "in_progress"

    @precondition(lambda self: self.running())
    @rule(data=st.data())
    def play_a_legal_action(self, data):
        offered = [a for a in GAME.legal(self.t.state) if a.type not in ("concede", "void_game")] or GAME.legal(self.t.state)
        action = data.draw(st.sampled_from(offered), label="action")
        fields = data.draw(action_fields(action), label="fields")
        try:
            self.t.enter({"type": action.type, "by": action.who, **fields})
        except Violation as v:
            raise AssertionError(f"offered {action.type} {fields} refused: {v}") from None

    @precondition(lambda self: self.running())
    @rule(ref=st.sampled_from(REFS), status=st.sampled_from(["invisible", "freeze", "heat", "wait"]),
          on=st.booleans(), hurt=st.sampled_from([0, 10, 20, 30]))
    def judge_changes_a_servant(self, ref, status, on, hurt):
        ops = [{"op": "STATUS", "servant": ref, "status": status, "state": "on" if on else "off"}]
        if hurt:
            ops.append({"op": "DAMAGE", "servant": ref, "n": hurt})
        line = ev("judge_effect", source="F-Tool-1", ops=ops)
        before = msgspec.msgpack.encode(self.t.state)
        try:
            self.t.enter(line)
        except Violation:
            assert msgspec.msgpack.encode(self.t.state) == before

    @rule()
    def look(self):
        """Every viewer's view, the board (what the view shows) and the explanation can be drawn at any moment."""
        for viewer in (None, "P1", "P2"):
            GAME.view(self.t.state, viewer)
            assert GAME.board(self.t.state, viewer) == board_from_view(self.t.state, viewer)
        GAME.explain(self.t.state, {})

    @invariant()
    def ether_within_bounds(self):
        if not hasattr(self, "t") or not self.t.g.players:
            return
        g = self.t.g
        for seat in SEATS:
            for ref in slots_of(seat) + [f"{seat}.M"]:
                pl = pool(g, ref)
                assert 0 <= pl.held_upkeep and 0 <= pl.held_lock and 0 <= pl.held_invisible <= 1
                assert pl.held <= pl.on <= pl.size, (ref, pl)
            for ref in slots_of(seat):
                sv = servant(g, ref)
                if sv.destroyed:
                    assert sv.pool.on == 0 and sv.pool.held == 0
            assert player(g, seat).master.size == 2 + player(g, seat).damage_cards

    @invariant()
    def cards_conserved(self):
        if not hasattr(self, "t") or not self.t.g.players:
            return
        for seat in SEATS:
            assert cards_of(self.t.g, seat) == 33

    @invariant()
    def damage_in_10d_steps(self):
        if not hasattr(self, "t") or not self.t.g.players:
            return
        for ref in REFS:
            d = servant(self.t.g, ref).damage
            assert d >= 0 and d % 10 == 0


TestE2DriveMachine = E2DriveMachine.TestCase
TestE2DriveMachine.settings = settings(stateful_step_count=40)
