"""Properties of PBWCG under random play (hypothesis): random legal table actions mixed with
random judge effects keep HP within the cap after a heal, endurance and WP within range, at most
3 distinct bad statuses, every registered card in exactly one zone; and a forgotten recovery
check carried out by ``correct`` gives the figures of the same history entered correctly."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from adjudicator.engine import registry
from adjudicator.engine.fold import decode_event
from adjudicator.games.pbwcg import values as V
from adjudicator.engine.protocol import Violation
from tests.gamekit import action_fields
from tests.pbwcg.builder import Table
from tests.pbwcg.golden_a import TIE_B1_A2
from tests.pbwcg.helpers import CHK

GAME = registry.get("pbwcg")
BS_NAMES = ("Poison", "Sleep", "Blind", "Burn", "Confusion")


def zones_of(s) -> list[str]:
    out: list[str] = []
    for p in s.players:
        out += list(p.deck) + list(p.hand) + list(p.discard) + list(p.removed) + list(p.support_list)
        out += [x.card for x in p.set_zone if x is not None]
    out += [c.card for c in s.characters] + [e for c in s.characters for e in c.equipment]
    if s.field_state is not None:
        out.append(s.field_state.card)
    return out


class RandomBattle(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.t = Table()

    @property
    def s(self):
        return self.t.state

    @rule(data=st.data())
    def play(self, data):
        offered = [a for a in GAME.legal(self.s) if not a.anytime]
        if not offered:
            return
        action = data.draw(st.sampled_from(offered))
        fields = data.draw(action_fields(action))
        self.t.fold.advance(decode_event(GAME, action.type, action.who, fields), self.t.fold.head + 1)

    @rule(data=st.data(), kind=st.sampled_from(["heal", "damage", "end", "bs", "wp"]), n=st.integers(0, 12))
    def judge_effect(self, data, kind, n):
        s = self.s
        if not s.battle_started or s.result is not None or s.pending_choice is not None or not s.characters:
            return
        c = data.draw(st.sampled_from([c.card for c in s.characters]))
        p = data.draw(st.sampled_from(list(s.names())))
        before_hp, cap = s.player(p).hp, V.hp_cap(s, p)
        op = {
            "heal": {"op": "hp_heal", "player": p, "n": n},
            "damage": {"op": "hp_damage", "player": p, "n": n % 4},
            "end": {"op": data.draw(st.sampled_from(["endurance_damage", "endurance_heal"])), "character": c, "n": n % 3},
            "bs": {"op": "apply_bs", "character": c, "bs": data.draw(st.sampled_from(BS_NAMES)),
                   "source": data.draw(st.sampled_from(["attack", "set_card", "other"]))},
            "wp": {"op": "wp_change", "pc": c, "delta": n - 6},
        }[kind]
        try:
            self.t.act("effect", "judge", source="random", ops=[op])
        except Violation as v:
            assert v.rule_id == "PBW-LIM-21" and kind == "wp"
            return
        if kind == "heal" and self.s.result is None:
            after = self.s.player(p).hp
            assert after == before_hp if before_hp > cap else after == min(cap, before_hp + n)

    @invariant()
    def ranges(self):
        for c in self.s.characters:
            assert 0 <= c.endurance <= c.endurance_max
            assert 0 <= c.wp <= c.wp_max
            names = [b.name for b in c.bs]
            assert len(names) <= 3 and len(set(names)) == len(names)
            assert set(names) <= set(self.s.history_of(c.card))

    @invariant()
    def cards_conserved(self):
        held = zones_of(self.s)
        assert sorted(held) == sorted(self.s.cards), "a card is in no zone or in two"


RandomBattle.TestCase.settings = settings(max_examples=20, stateful_step_count=80, deadline=None)
TestRandomBattle = RandomBattle.TestCase


def _battle(die: int, check_in_place: bool, later_turns: int) -> Table:
    """B2 holds Poison; its turn-1 recovery check is entered in place, or forgotten."""
    t = Table()
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture", ops=[{"op": "apply_bs", "character": "B2", "bs": "Poison"}])
    t.field_step()
    t.idle_rest()
    if check_in_place:
        t.act("bs_recovery_check", "P2", actor="B2", bs="Poison", check={**CHK, "declared": "odd", "die": die})
    t.end_turn()
    if later_turns:
        t.start_turn()
        t.pl_turns()
        t.field_step()
        while (a := t.next_actor()) is not None:
            t.begin(a)
            if a == "B2" and die % 2 == 0:  # the check failed: Poison still takes effect
                t.act("bs_effect", "P2", actor="B2", bs="Poison", ops=[{"op": "hp_damage", "player": "P2", "n": 1}])
            t.act("wait", t.controller(a), actor=a)
            t.end(a)
    return t


def figures(s) -> bytes:
    """What the table sees: HP, zones, characters, turn and step (seqs of obligations aside)."""
    return msgspec.msgpack.encode((s.players, s.characters, s.bs_history, s.turn, s.step, s.result, s.action_order))


@settings(max_examples=12, deadline=None)
@given(die=st.integers(1, 6), later=st.integers(0, 1))
def test_correction_equals_the_history_entered_correctly(die, later):
    """PBW-COR-5: a forgotten check inserted by ``correct`` at the closing event gives the same
    figures as the check entered in its place (when no later event conflicts)."""
    right = _battle(die, True, later)
    forgot = _battle(die, False, later)
    closing = next(seq for seq, ev in forgot.fold.log if type(ev).__name__ == "TurnEnded")
    forgot.act("correct", "P1", at_seq=closing, reason="forgotten", basis="forgotten_check", confirmations=["P1", "P2"],
               event={"type": "bs_recovery_check", "by": "P2", "actor": "B2", "bs": "Poison",
                      "check": {**CHK, "declared": "odd", "die": die}})
    assert figures(forgot.state) == figures(right.state)
    rec = [o for o in forgot.state.obligations if o.kind == "REC" and o.bs == "Poison"]
    done = [o for o in right.state.obligations if o.kind == "REC" and o.bs == "Poison"]
    assert rec[0].status == "corrected" and done[0].status == "fulfilled"


def _burning(n: int, in_place: bool, later: int) -> Table:
    """A1 holds Burn; at its turn-1 main turn the effect (n HP damage to P1) is entered, or forgotten."""
    t = Table()
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    t.pl_turns()
    t.act("effect", "judge", source="fixture", ops=[{"op": "apply_bs", "character": "A1", "bs": "Burn"}])
    t.field_step()
    while (a := t.next_actor()) != "A1":
        t.idle(a)
    t.begin("A1")
    if in_place:
        t.act("bs_effect", "P1", actor="A1", bs="Burn", ops=[{"op": "hp_damage", "player": "P1", "n": n}])
    t.act("normal_attack", "P1", actor="A1", target="B2")
    t.end("A1")
    t.idle_rest()
    t.end_turn()
    for _ in range(later):
        t.start_turn()
        t.pl_turns()
        t.field_step()
        while (a := t.next_actor()) is not None:
            t.begin(a)
            if a == "A1":
                t.act("bs_effect", "P1", actor="A1", bs="Burn", ops=[])
            t.act("wait", t.controller(a), actor=a)
            t.end(a)
        t.end_turn()
    return t


@settings(max_examples=12, deadline=None)
@given(n=st.integers(0, 12), later=st.integers(0, 1))
def test_corrected_bs_effect_equals_the_history_entered_correctly(n, later):
    """PBW-COR-3/-5 for a TRIG obligation: the forgotten bs_effect inserted before the first
    event that closed it gives the figures of the battle where it was entered in place."""
    right = _burning(n, True, later)
    forgot = _burning(n, False, later)
    closing = next(o.closed_seq for o in forgot.state.obligations if o.kind == "TRIG" and o.character == "A1")
    forgot.act("correct", "P2", at_seq=closing, reason="Burn forgotten", basis="forgotten_check", confirmations=["P1", "P2"],
               event={"type": "bs_effect", "by": "P1", "actor": "A1", "bs": "Burn", "ops": [{"op": "hp_damage", "player": "P1", "n": n}]})
    assert figures(forgot.state) == figures(right.state)
    assert forgot.hp("P1") == 21 - n
