"""Random BACDEF play (a hypothesis state machine) keeps what must always hold.

Each step draws one action from those that make sense at the table now (and, now and then, one
that breaks a rule), submits it through the match service, and checks:
- the 7 cards of each player are conserved across hand, guards, field and discard;
- overflow only with both guards destroyed; never more than 3 points received in a turn;
- replaying the stored log from scratch gives exactly the incremental state;
- a rejected action changes nothing (same head, same state, one more rejection record);
- every stored event decodes and re-encodes to the same fields.
"""

from __future__ import annotations

import msgspec
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from adjudicator.engine.fold import decode_event, event_fields
from adjudicator.games.bacdef.rules import find_instance, instances_of, orders_missing
from adjudicator.games.bacdef.state import State
from adjudicator.service import MatchService, fold_stored
from events.memory import MemoryStore

PLAYERS = ("alice", "bob")
DECK_A = ["A", "A", "B", "C", "D", "E", "F"]
DECK_B = ["A", "B", "B", "C", "C", "D", "F"]


def candidates(s: State, draw) -> list[tuple[str, str, dict]]:
    """Concrete actions that fit the current moment (type, by, fields)."""
    out: list[tuple[str, str, dict]] = []
    st_ = s.set
    if s.status != "in_progress" or st_ is None:
        return out
    other = {PLAYERS[0]: PLAYERS[1], PLAYERS[1]: PLAYERS[0]}
    if st_.stage == "deck":
        for p, deck in zip(PLAYERS, (DECK_A, DECK_B)):
            if not st_.players[p].deck:
                out.append(("register_deck", p, {"player": p, "letters": draw(st.permutations(deck))}))
        return out
    if st_.stage == "guards":
        for p in PLAYERS:
            if not st_.players[p].guards:
                ids = draw(st.lists(st.sampled_from(st_.players[p].hand), min_size=2, max_size=2, unique=True))
                out.append(("place_guards", p, {"player": p, "card_ids": ids}))
        return out
    if st_.stage == "first_player":
        return [("decide_first_player", "judge", {"first_player": draw(st.sampled_from(PLAYERS)), "method": "rps"})]
    t = st_.turn
    a = t.awaiting
    if a is not None:
        if a.kind == "effect":
            inst = find_instance(t, a.ref)
            ctrl = inst.controller
            opp = other[ctrl]
            menu = [
                [],
                [{"op": "DAMAGE", "target": opp, "amount": draw(st.integers(1, 4))}],
                [{"op": "DAMAGE", "target": ctrl, "amount": 1}],
                [{"op": "HEAL", "target": ctrl, "amount": draw(st.integers(1, 2))}],
                [{"op": "LOSE", "victim": opp, "count": 1}],
                [{"op": "DEFER", "ops": [{"op": "DAMAGE", "target": opp, "amount": 1}]}],
                [{"op": "PREVENT", "player": ctrl, "amount": 1, "kind": "any"}],
                [{"op": "KNOCK", "count": 1}],
            ]
            pending = [i.id for i in t.instances if i.status == "pending" and i.id != inst.id]
            if pending:
                menu.append([{"op": "NEGATE", "instance": draw(st.sampled_from(pending))}])
            out.append(("resolve_effect", "judge", {"instance_id": a.ref, "ops": draw(st.sampled_from(menu))}))
        elif a.kind == "damage":
            slots = draw(st.lists(st.sampled_from([1, 2]), min_size=a.points, max_size=a.points))
            out.append(("assign_damage", a.player, {"player": a.player, "slots": slots}))
        elif a.kind == "heal":
            slots = draw(st.lists(st.sampled_from([1, 2]), min_size=1, max_size=a.points))
            out.append(("assign_heal", a.player, {"player": a.player, "slots": slots}))
        elif a.kind == "lost":
            hand = st_.players[a.victim].hand
            ids = draw(st.lists(st.sampled_from(hand), min_size=a.points, max_size=a.points, unique=True))
            out.append(("choose_lost_cards", a.player, {"player": a.player, "card_ids": ids}))
        elif a.kind == "f_decision":
            opp = other[a.player]
            ops = draw(st.sampled_from([[], [{"op": "DAMAGE", "target": opp, "amount": 1}], [{"op": "HEAL", "target": a.player, "amount": 1}]]))
            out.append(("activate_fall_skill", a.player, {"player": a.player, "card_id": a.ref, "ops": ops}))
            out.append(("decline_fall_skill", a.player, {"player": a.player, "card_id": a.ref}))
    elif t.step == "standby":
        for p in PLAYERS:
            if not t.handless[p] and not t.placed.get(p):
                out.append(("place_field_card", p, {"player": p, "card_id": draw(st.sampled_from(st_.players[p].hand))}))
    elif t.step == "action":
        p = t.attacker
        out.append(("declare_knock", p, {"player": p}))
        out.append(("declare_skill", p, {"player": p, "card_id": t.placed[p]}))
    elif t.step == "counter":
        p = t.defender
        out.append(("declare_through", p, {"player": p}))
        out.append(("declare_skill", p, {"player": p, "card_id": t.placed[p]}))
    elif t.step == "resolution":
        for p in orders_missing(t):
            ids = [i.id for i in instances_of(t, p)]
            out.append(("choose_resolution_order", p, {"player": p, "instance_ids": draw(st.permutations(ids))}))
    elif t.step == "end":
        out.append(("confirm_end_phase", "judge", {}))
        out.append(("confirm_end_phase", "judge", {}))
    if t is not None and draw(st.integers(0, 30)) == 0:
        out.append(("rewind", "judge", {"to_seq": t.start_seq, "reason": "contradiction", "cause": "contradiction"}))
    return out


def noise(s: State, draw) -> tuple[str, str, dict]:
    """An action that is usually illegal now."""
    p = draw(st.sampled_from(PLAYERS))
    return draw(
        st.sampled_from(
            [
                ("declare_knock", p, {"player": p}),
                ("confirm_end_phase", p, {}),
                ("place_field_card", p, {"player": p, "card_id": f"{p}-{draw(st.integers(1, 7))}"}),
                ("declare_through", p, {"player": p}),
                ("assign_damage", p, {"player": p, "slots": [1]}),
                ("correct", "judge", {"at_seq": 2, "reason": "x", "event": {"type": "confirm_end_phase", "by": "judge"}}),
            ]
        )
    )


def conserved(s: State) -> None:
    st_ = s.set
    if st_ is None or st_.stage in ("deck", "over"):
        return
    for p in PLAYERS:
        ps = st_.players[p]
        if not ps.deck:
            continue
        mine = {cid for cid, c in st_.cards.items() if c.owner == p}
        assert len(mine) == 7, (p, mine)
        hand = list(ps.hand)
        guards = [g.card_id for g in ps.guards if g.state != "X"]
        field = [cid for cid in mine if st_.cards[cid].zone == "field"]
        discard = list(ps.discard)
        zones = hand + guards + field + discard
        assert sorted(zones) == sorted(mine), (p, hand, guards, field, discard)
        for cid in hand:
            assert st_.cards[cid].zone == "hand"
        for cid in guards:
            assert st_.cards[cid].zone == "guard"
        for cid in discard:
            assert st_.cards[cid].zone == "discard"
        if ps.overflow > 0:
            assert all(g.state == "X" for g in ps.guards)
        if st_.turn is not None:
            assert 0 <= st_.turn.damage_received[p] <= 3


class BacdefPlay(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.svc = MatchService(MemoryStore(), clock=lambda: "2026-01-01T00:00:00Z")
        v = self.svc.new("bacdef", list(PLAYERS), match_id="m", options={"contradiction_replays": 1})
        assert v.accepted
        self.match = v.match

    @rule(data=st.data())
    def act(self, data):
        s = self.match.state
        cands = candidates(s, data.draw)
        if data.draw(st.integers(0, 9)) == 0 or not cands:
            choice = noise(s, data.draw)
        else:
            choice = data.draw(st.sampled_from(cands))
        type_, by, fields = choice
        head = self.svc.store.head("m")
        before = self.match.state
        before_bytes = msgspec.msgpack.encode(before)
        rejections = len(self.svc.store.rejections("m"))
        v = self.svc.submit("m", type_, by, fields)
        event(f"{type_} {'accepted' if v.accepted else 'rejected'}")
        if v.accepted:
            assert self.svc.store.head("m") == head + 1
            self.match = v.match
        else:
            # a rejected action changes nothing but the record of the attempt
            assert self.svc.store.head("m") == head
            assert msgspec.msgpack.encode(before) == before_bytes  # input never mutated
            assert self.svc.load("m").state == before
            assert len(self.svc.store.rejections("m")) == rejections + 1
            assert v.violation.rule_id.startswith(("BAC-", "ADJ-"))

    @invariant()
    def cards_conserved(self):
        if hasattr(self, "match"):
            conserved(self.match.state)

    @invariant()
    def replay_equals_incremental(self):
        if hasattr(self, "match"):
            replayed = fold_stored(self.svc.store.read("m"))
            assert replayed.state == self.match.state

    @invariant()
    def events_round_trip(self):
        if hasattr(self, "match"):
            for ev in self.svc.store.read("m"):
                typed = decode_event(self.match.game, ev.type, ev.by, ev.fields)
                assert event_fields(typed) == ev.fields


BacdefPlay.TestCase.settings = settings(settings(), stateful_step_count=60)
TestBacdefPlay = BacdefPlay.TestCase
