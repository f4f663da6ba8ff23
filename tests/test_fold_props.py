"""Random nim play through the service, with rewinds, corrections and illegal attempts.

Invariants after every step: the stored log folded from scratch equals a fold advanced one
accepted event at a time; both equal a plain model of the effective history (a list that a
rewind cuts and a correction inserts into, folded from scratch); a rejected or malformed
attempt changes nothing; every stored event decodes and encodes back to the same fields.
"""

from __future__ import annotations

import msgspec
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.protocol import JUDGE, Context, Correct, Malformed, MatchStarted, Rewind, Violation
from adjudicator.service import MatchService, fold_stored
from events.memory import MemoryStore
from tests import spinegame

MID = "prop"
PLAYERS = ("alice", "bob")
WHO = st.sampled_from(PLAYERS + (JUDGE,))


class NimPlay(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.registration = spinegame.registered()
        self.registration.__enter__()
        self.store = MemoryStore()
        self.svc = MatchService(self.store, clock=lambda: "2026-01-01T00:00:00Z")
        self.fold: Fold | None = None
        self.rejections = 0
        self.accepted = 0
        self.model: list[tuple[int, object, bool]] = []  # the effective history: (seq, event, inserted)
        self.made_from: dict[int, object] = {}  # rewind seq -> the model's state when it was made

    @initialize(game=st.sampled_from(["nim", "nimx"]), pile=st.integers(4, 25))
    def start(self, game, pile):
        verdict = self.svc.new(game, list(PLAYERS), options={"pile": pile}, match_id=MID)
        assert verdict.accepted
        self.game = registry.get(game)
        self.fold = Fold(self.game, MID)
        self.fold.advance(self.fold.decode(verdict.event), 1)
        self.model = [(1, self.fold.log[0][1], False)]

    def teardown(self):
        self.registration.__exit__(None, None, None)

    # -- the one way in ---------------------------------------------------------------------------
    def submit(self, type_, by, fields):
        fold = self.fold
        before = (fold.state, fold.head, list(fold.log), list(fold.entries), list(fold.branches))
        stored_before = self.store.read(MID)
        verdict = self.svc.submit(MID, type_, by, fields)
        if verdict.accepted:
            self.accepted += 1
            assert verdict.event.seq == before[1] + 1
            event = fold.decode(verdict.event)
            fold.advance(event, verdict.event.seq)
            assert verdict.match.state == fold.state
            self.model_accept(verdict.event.seq, event)
            return verdict
        # a rejected action changes nothing but the record of rejections
        self.rejections += 1
        assert verdict.event is None
        assert self.store.read(MID) == stored_before
        assert len(self.store.rejections(MID)) == self.rejections
        last = self.store.rejections(MID)[-1]
        assert (last.rule, last.message, last.head_seq) == (verdict.violation.rule_id, verdict.violation.message, before[1])
        try:
            fold.preview(decode_event(self.game, type_, by, fields), fold.head + 1)
        except Violation as v:
            assert (v.rule_id, v.message) == (verdict.violation.rule_id, verdict.violation.message)
        else:
            raise AssertionError("the service refused what the fold accepts")
        assert (fold.state, fold.head, fold.log, fold.entries, fold.branches) == before
        assert verdict.match.state == fold.state and verdict.match.head == fold.head
        return verdict

    def model_accept(self, seq, event):
        line = self.model
        where = {s: i for i, (s, _, inserted) in enumerate(line) if not inserted}
        if isinstance(event, Rewind):
            self.made_from[seq] = self.model_states()[-1]
            del line[where[event.to_seq] + 1 :]
        elif isinstance(event, Correct):
            i = where[event.at_seq]
            if not isinstance(line[i][1], Rewind):  # before a rewind, the rewind's replay cuts it again
                line.insert(i, (seq, decode_event(self.game, event.event["type"], event.event["by"], {k: v for k, v in event.event.items() if k not in ("type", "by")}), True))
        line.append((seq, event, False))

    def model_states(self):
        game, states, at = self.game, [], {}
        for seq, event, inserted in self.model:
            ctx = Context(seq=seq)
            if isinstance(event, MatchStarted):
                state = game.initial(event, ctx)
            elif isinstance(event, Rewind):
                state = game.after_rewind(self.made_from[seq], at[event.to_seq], event, ctx)
            else:  # a correction's step is taken on the corrected history's last state
                state = game.step(states[-1], event, ctx)
            states.append(state)
            if not inserted:
                at[seq] = state
        return states

    # -- rules -----------------------------------------------------------------------------------------
    def seq_near(self, data, label, lowest):
        """Mostly a seq of the effective history, sometimes any seq at all (abandoned, future...)."""
        effective = [s for s in self.fold.effective_order() if s >= lowest]
        anything = st.integers(lowest - 1, self.fold.head + 1)
        return data.draw(st.one_of(st.sampled_from(effective), anything) if effective else anything, label=label)

    @rule(data=st.data(), count=st.sampled_from([1, 2, 3, 1, 2, 3, 0, 4]))
    def take(self, data, count):
        state = self.fold.state
        mover = state.players[state.turn]
        player = data.draw(st.sampled_from([mover, mover, mover, *PLAYERS]), label="player")
        by = data.draw(st.sampled_from([player, player, JUDGE, *PLAYERS]), label="by")
        self.submit("take", by, {"player": player, "count": count})

    @rule(data=st.data())
    def rewind(self, data):
        to_seq = self.seq_near(data, "to_seq", 1)
        by = data.draw(st.sampled_from([JUDGE, JUDGE, JUDGE, *PLAYERS]), label="by")
        self.submit("rewind", by, {"to_seq": to_seq, "reason": "backup"})

    @rule(data=st.data())
    def correct(self, data):
        at_seq = self.seq_near(data, "at_seq", 2)
        by = data.draw(st.sampled_from([JUDGE, JUDGE, JUDGE, "alice"]), label="by")
        if self.game.name == "nimx" and data.draw(st.booleans(), label="adjust"):
            inner = {"type": "adjust", "by": JUDGE, "delta": data.draw(st.integers(-4, 4), label="delta")}
        else:
            player = data.draw(st.sampled_from(PLAYERS), label="player")
            inner = {"type": "take", "by": JUDGE, "player": player, "count": data.draw(st.integers(1, 3), label="count")}
        self.submit("correct", by, {"at_seq": at_seq, "event": inner, "reason": "forgotten"})

    @rule(delta=st.integers(-5, 5), by=WHO)
    def adjust(self, delta, by):
        if self.game.name == "nimx":
            self.submit("adjust", by, {"delta": delta})

    @rule(
        attempt=st.sampled_from(
            [
                ("pass", {}),
                ("take", {"player": "alice", "count": "one"}),
                ("take", {"player": "alice"}),
                ("rewind", {"to_seq": 1}),
                ("correct", {"at_seq": 2, "event": {"type": "rewind", "by": JUDGE, "to_seq": 1, "reason": "r"}, "reason": "r"}),
                ("correct", {"at_seq": 2, "event": {"by": JUDGE}, "reason": "r"}),
            ]
        )
    )
    def malformed(self, attempt):
        type_, fields = attempt
        stored_before = self.store.read(MID)
        state, head = self.fold.state, self.fold.head
        try:
            self.svc.submit(MID, type_, JUDGE, fields)
        except Malformed:
            pass
        else:
            raise AssertionError(f"{type_} {fields} was not malformed")
        assert self.store.read(MID) == stored_before
        assert len(self.store.rejections(MID)) == self.rejections
        assert (self.fold.state, self.fold.head) == (state, head)

    # -- invariants ------------------------------------------------------------------------------------
    @invariant()
    def replay_equals_incremental(self):
        if self.fold is None:
            return
        replayed = fold_stored(self.store.read(MID))
        assert replayed.state == self.fold.state
        assert replayed.head == self.fold.head
        assert replayed.fold.effective_order() == self.fold.effective_order()
        assert replayed.fold.branches == self.fold.branches
        assert [(e.seq, e.inserted) for e in replayed.fold.entries] == [(e.seq, e.inserted) for e in self.fold.entries]
        assert replayed.fold.line_states() == self.fold.line_states()
        assert replayed.fold.history == self.fold.history

    @invariant()
    def fold_equals_the_model(self):
        if self.fold is None:
            return
        assert [(s, inserted) for s, _, inserted in self.model] == [(e.seq, e.inserted) for e in self.fold.entries]
        assert [e for _, e, _ in self.model] == [e.event for e in self.fold.entries]
        assert self.model_states() == self.fold.line_states()

    @invariant()
    def stored_events_round_trip(self):
        if self.fold is None:
            return
        for ev in self.store.read(MID):
            event = decode_event(self.game, ev.type, ev.by, ev.fields)
            assert event_fields(event) == ev.fields
            again = msgspec.json.decode(msgspec.json.encode(event), type=self.game.event_type)
            assert again == event

    @invariant()
    def state_follows_the_rules(self):
        if self.fold is None:
            return
        state = self.fold.state
        assert state.pile >= 0
        assert (state.winner is not None) == (state.pile == 0)


TestNimPlay = NimPlay.TestCase
