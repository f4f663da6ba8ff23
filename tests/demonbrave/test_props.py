"""Properties (hypothesis): the pair ranking is a total preorder, reversal mirrors the single-card
order except the joker, classification is consistent; and a state machine of random play driven
by ``legal()`` (every offered action accepted, cards conserved, replay equals incremental state, a
refused action changes nothing, events round-trip through their stored form)."""

from __future__ import annotations

import msgspec
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from adjudicator.engine.fold import Fold, decode_event, event_fields, event_type
from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.config import Config
from adjudicator.games.demonbrave.ranking import ChoiceError, card_strength, compare_pairs, compare_ranks, rank_cards
from adjudicator.games.demonbrave.state import PLAYER
from adjudicator.games.demonbrave.view import waiting
from adjudicator.engine.protocol import Violation
from tests.gamekit import action_fields

A, B = "alice", "bob"

configs = st.builds(
    Config,
    pair_category_order=st.sampled_from([("FREE", "SET", "RUN"), ("FREE", "RUN", "SET")]),
    pair_size_rule=st.sampled_from(["prefix_longer_wins", "size_first", "ignore_size"]),
    run_min_length=st.sampled_from([2, 3]),
    run_wraparound=st.booleans(),
    joker_in_pair=st.sampled_from(["wild", "top_card"]),
)
pair_cards = st.lists(st.sampled_from(C.ALL_CARDS), min_size=2, max_size=6, unique=True)
plain_cards = st.sampled_from([c for c in C.ALL_CARDS if not C.is_joker(c)])


# -- ranking (§6.2) -----------------------------------------------------------------------------
@given(configs, st.booleans(), pair_cards, pair_cards)
def test_pair_comparison_is_antisymmetric(cfg, rev, x, y):
    a, b = rank_cards(x, rev, cfg), rank_cards(y, rev, cfg)
    assert compare_pairs(a, b, cfg).sign == -compare_pairs(b, a, cfg).sign
    assert compare_pairs(a, a, cfg).winner == "equal"


@given(configs, st.booleans(), pair_cards, pair_cards, pair_cards)
def test_pair_comparison_is_transitive(cfg, rev, x, y, z):
    # ignore_size is not a preorder: see test_ignore_size_ties_are_not_transitive
    assume(cfg.pair_size_rule != "ignore_size")
    a, b, c = (rank_cards(v, rev, cfg) for v in (x, y, z))
    ab, bc, ac = (compare_pairs(p, q, cfg).sign for p, q in ((a, b), (b, c), (a, c)))
    if ab >= 0 and bc >= 0:
        assert ac >= 0
    if ab > 0 and bc >= 0 or ab >= 0 and bc > 0:
        assert ac > 0


def test_ignore_size_ties_are_not_transitive():
    """With pair_size_rule = ignore_size (DB-RES-9), [9,9,1] ties [9,9] and [9,9] ties [9,9,2], but
    [9,9,2] beats [9,9,1]: the option gives no total preorder (docs/games/demonbrave.md)."""
    cfg = Config(pair_size_rule="ignore_size")
    x, y, z = (rank_cards(v, False, cfg) for v in (["S9", "D5", "C3"], ["H9", "D5"], ["S9", "D5", "C4"]))
    assert (compare_pairs(x, y, cfg).winner, compare_pairs(y, z, cfg).winner, compare_pairs(z, x, cfg).winner) == ("equal", "equal", "a")


@given(configs, st.booleans(), pair_cards, pair_cards)
def test_equal_pairs_have_the_same_tier_and_equal_keys(cfg, rev, x, y):
    """Antisymmetric where it must be: "equal" only for one tier and indistinguishable keys."""
    a, b = rank_cards(x, rev, cfg), rank_cards(y, rev, cfg)
    if compare_pairs(a, b, cfg).winner == "equal":
        assert a.tier == b.tier
        if cfg.pair_size_rule != "ignore_size":
            assert a.key == b.key


@given(configs, st.booleans(), pair_cards)
def test_classification_is_consistent(cfg, rev, x):
    r = rank_cards(x, rev, cfg)
    assert len(r.key) == len(x) and list(r.key) == sorted(r.key, reverse=True)
    assert all(1 <= k <= 14 for k in r.key)
    plain = [c for c in x if not C.is_joker(c)]
    if r.category == "SET":
        assert len({C.number(c) for c in plain}) <= 1
    if r.category == "RUN":
        assert len({C.suit(c) for c in plain}) <= 1 and len(x) >= cfg.run_min_length
    if r.category == "FREE":
        assert all(m.strength == 14 for m in r.members if C.is_joker(m.card))
    # DB-RES-2: a reversal never changes a tier
    assert rank_cards(x, not rev, cfg).category == r.category


@given(plain_cards, plain_cards)
def test_reversal_flips_single_order(x, y):
    n = card_strength(x, False) - card_strength(y, False)
    r = card_strength(x, True) - card_strength(y, True)
    assert (n > 0) == (r < 0) and (n == 0) == (r == 0)


@given(plain_cards, st.booleans())
def test_joker_is_the_strongest_single_in_both_orders(x, rev):
    cfg = Config()
    joker, card = rank_cards(["JK1"], rev, cfg), rank_cards([x], rev, cfg)
    assert compare_ranks(joker, card, cfg).winner == "a"
    assert compare_ranks(card, joker, cfg).winner == "b"


@given(configs, st.booleans(), pair_cards, plain_cards)
def test_every_pair_outranks_every_plain_single(cfg, rev, x, y):
    assume(y not in x)
    d = compare_ranks(rank_cards(x, rev, cfg), rank_cards([y], rev, cfg), cfg)
    assert (d.winner, d.rule) == ("a", "DB-RES-6")


# -- random legal play ----------------------------------------------------------------------------
#: actions that end the game: left out so that play goes on (the conformance suite offers them)
ENDINGS = {"concede", "declare_result", "void_game"}


WILD = [
    ("play_card", A, {"card": "S3"}),
    ("play_card", B, {"card": "JK1"}),
    ("declare_attack", A, {"attacker": "PAIR-1", "target": PLAYER}),
    ("declare_attack", B, {"attacker": "S3", "target": "PLAYER"}),
    ("form_pair", A, {"units": ["S3", "H9"]}),
    ("draw", A, {"count": 1}),
    ("draw", B, {"count": 5}),
    ("advance_phase", B, {}),
    ("declare_block", A, {"blocker": None}),
    ("resolve_battle", B, {"choice": "H9"}),
    ("resolve_chain_entry", "judge", {"entry_id": "E2"}),
    ("activate_effect", A, {"rule_card": "T-BURN", "effect_id": "T-BURN.burn"}),
    ("judge_adjust", "judge", {"ops": [{"op": "TRASH", "cards": ["S3"]}], "reason": "x"}),
]


class DemonBravePlay(RuleBasedStateMachine):
    @initialize(first=st.sampled_from([A, B]), order=st.sampled_from([["FREE", "SET", "RUN"], ["FREE", "RUN", "SET"]]))
    def start(self, first, order):
        self.fold = Fold(GAME, "prop")
        self.events = []
        setup = [
            ("match_started", "judge", {"game": "demonbrave", "players": [A, B], "options": {"pair_category_order": order}}),
            ("rule_cards_selected", A, {"rule_cards": ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]}),
            ("rule_cards_selected", B, {"rule_cards": ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]}),
            ("first_player_decided", "judge", {"first_player": first, "method": "coin"}),
            ("opening_hands_drawn", "judge", {}),
        ]
        for type_, by, fields in setup:
            self._advance(decode_event(GAME, type_, by, fields))

    def _advance(self, event):
        self.fold.advance(event, self.fold.head + 1)
        self.events.append(event)

    @precondition(lambda self: self.fold.state.status == "IN_PROGRESS")
    @rule(data=st.data())
    def act(self, data):
        """An action offered by ``legal()``, built from its choices: it must be accepted. The type
        is drawn first, so that advancing the phase is as likely as playing one more card."""
        offered = [a for a in GAME.legal(self.fold.state) if a.type not in ENDINGS]
        plain = [a for a in offered if not a.anytime]
        assert plain, f"nothing is open in {GAME.describe(self.fold.state)}"
        pool = plain if data.draw(st.integers(0, 9), label="prefer table actions") else offered
        type_ = data.draw(st.sampled_from(sorted({a.type for a in pool})), label="type")
        action = data.draw(st.sampled_from([a for a in pool if a.type == type_]), label="action")
        fields = data.draw(action_fields(action), label="fields")
        self._advance(decode_event(GAME, action.type, action.who, fields))

    @rule(attempt=st.sampled_from(WILD))
    def refused_attempt_changes_nothing(self, attempt):
        type_, by, fields = attempt
        event = decode_event(GAME, type_, by, fields)
        before, head, n_entries = self.fold.state, self.fold.head, len(self.fold.entries)
        try:
            self.fold.preview(event, head + 1)
        except Violation:
            assert self.fold.state is before and self.fold.head == head and len(self.fold.entries) == n_entries
            assert msgspec.json.encode(self.fold.state) == msgspec.json.encode(before)
        except ChoiceError:  # pragma: no cover - never escapes the reducer
            raise

    @invariant()
    def cards_are_conserved(self):
        for p in self.fold.state.players:
            assert Z.count_cards(p) == 54
            assert len(set(p.field_cards()) | set(p.trash) | set(p.hand_known)) == len(p.field_cards()) + len(p.trash) + len(p.hand_known)
            assert p.life >= 0 and all(len(u.cards) >= 1 for u in p.field)
            assert all(u.is_pair == u.unit_id.startswith("PAIR-") for u in p.field)

    @invariant()
    def waiting_is_who_legal_waits_for(self):
        """The board's "waiting for" (found without building the actions) names the authors of
        the actions ``legal`` offers that are not anytime, in its order."""
        s = self.fold.state
        assert waiting(s) == list(dict.fromkeys(a.who for a in GAME.legal(s) if not a.anytime))

    @invariant()
    def events_round_trip(self):
        if self.events:
            e = self.events[-1]
            assert decode_event(GAME, event_type(e), e.by, event_fields(e)) == e

    def teardown(self):
        if not getattr(self, "fold", None):
            return
        replay = Fold(GAME, "replay")
        for seq, event in enumerate(self.events, 1):
            replay.advance(event, seq)
        assert replay.state == self.fold.state


DemonBravePlay.TestCase.settings = settings(DemonBravePlay.TestCase.settings, stateful_step_count=60)
TestDemonBravePlay = DemonBravePlay.TestCase
