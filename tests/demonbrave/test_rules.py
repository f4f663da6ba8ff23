"""Rule tests of the setup, the turn and the main phase (§3, §4, §5.2, §5.3): for every rule ID
the rule ID and code of each refusal, its message, and that a refusal changes nothing. The rule ID
is in each test's name. Battles and effects: test_rules_battle.py; the end of a game and the
judge's events: test_rules_end.py."""

from __future__ import annotations

import pytest

from adjudicator.engine.fold import decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.engine.protocol import Malformed, Violation
from tests.demonbrave.builder import JUDGE, RULE_CARDS, Table, play_any
from tests.demonbrave.checks import battle_table, refuse, started
from tests.demonbrave.replay import field

A, B = "alice", "bob"


# -- setup (§3, §5.2) -------------------------------------------------------------------------
def start(**fields):
    from adjudicator.engine.fold import Fold

    return Fold(GAME, "t").advance(decode_event(GAME, "match_started", JUDGE, {"game": "demonbrave", **fields}), 1)


def test_db_ovr_1_two_different_players():
    with pytest.raises(Violation) as err:
        start(players=[A, A])
    assert (err.value.rule_id, err.value.code) == ("DB-OVR-1", "ILLEGAL_ACTION")
    with pytest.raises(Violation):
        start(players=[A, JUDGE])
    with pytest.raises(Violation):
        start(players=[A, B, "carol"])
    with pytest.raises(Malformed) as bad:
        start(players=[A, B], options={"pair_size_rule": "longest"})
    assert bad.value.path == "$.options.pair_size_rule"
    with pytest.raises(Malformed) as bad:
        start(players=[A, B], options={"no_such_option": 1})
    assert "no_such_option" in bad.value.path


def test_db_deck_2_deck_lists_in_match_started_and_deck_registered():
    from adjudicator.games.demonbrave.cards import ALL_CARDS

    good = list(ALL_CARDS)
    t = Table()
    t.ev("deck_registered", A, player=A, cards=good)
    msg = refuse(t, "DB-DECK-2", "DECK_INVALID", "deck_registered", B, player=B, cards=good[:-1] + ["S1"], says="'S1' is not a card")
    assert "JK2" in msg  # names what is missing
    refuse(t, "DB-DECK-2", "DECK_INVALID", "deck_registered", B, player=B, cards=good[:-1] + ["S3"], says="S3 occurs more than once")
    refuse(t, "DB-DECK-2", "DECK_INVALID", "deck_registered", B, player=B, cards=good[:53], says="53 cards, not 54")
    # DB-ACT-2: once per player, and only before the opening hands
    refuse(t, "DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", A, player=A, cards=good, says="already registered")
    with pytest.raises(Violation) as err:
        start(players=[A, B], decks={A: good[:10]})
    assert (err.value.rule_id, err.value.code) == ("DB-DECK-2", "DECK_INVALID") and "alice's deck" in err.value.message
    assert start(players=[A, B], decks={A: good}).player(A).deck_registered == tuple(good)


def test_db_deck_2_read_deck_and_check_deck():
    from adjudicator.games.demonbrave.cards import ALL_CARDS

    text = "# alice's deck\n" + " ".join(c.lower() for c in ALL_CARDS[:52]) + ",\nJK1 JK2\n"
    deck = GAME.read_deck(text)
    assert deck == ALL_CARDS
    assert GAME.check_deck(deck) == []
    problems = GAME.check_deck(deck[:-1] + ("X9",))
    assert [(v.rule_id, v.code) for v in problems] == [("DB-DECK-2", "DECK_INVALID")] * len(problems)
    assert any("'X9' is not a card" in v.message for v in problems)
    assert GAME.read_deck('["S3", "ST"]') == ("S3", "S10")  # ST is written S10
    with pytest.raises(Malformed):
        GAME.read_deck("   ")


def test_db_deck_6_rule_card_selection():
    t = Table()
    refuse(t, "DB-DECK-6", "RULE_CARD_COUNT", "rule_cards_selected", A, rule_cards=RULE_CARDS[:4], says="selected 4")
    refuse(t, "DB-DECK-6", "RULE_CARD_DUPLICATE", "rule_cards_selected", A, rule_cards=["J", "J", "T-NEG", "T-REV", "T-BURN"], says="J more than once")
    refuse(t, "DB-DECK-6", "RULE_CARD_UNKNOWN", "rule_cards_selected", A, rule_cards=["J", "T-NEG", "T-REV", "T-BURN", "NOPE"], says="NOPE is not in the rule-card catalog")
    t2 = Table(options={"allow_duplicate_rule_cards": True})
    t2.ev("rule_cards_selected", A, rule_cards=["J", "J", "T-NEG", "T-REV", "T-BURN"])


def test_db_act_3_selection_once_per_player_and_hidden_until_both():
    t = Table()
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    refuse(t, "DB-ACT-3", "ALREADY_SELECTED", "rule_cards_selected", A, rule_cards=RULE_CARDS)
    assert "rule_cards" not in GAME.view(t.state, B)["players"][A]  # DB-HID-1 simultaneous reveal
    assert GAME.view(t.state, A)["players"][A]["rule_cards"] == RULE_CARDS
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    assert GAME.view(t.state, B)["players"][A]["rule_cards"] == RULE_CARDS


def test_db_act_3_shared_pool_is_entered_once_by_the_judge_without_player():
    t = Table(options={"rule_card_pool": "shared"})
    offered = [(a.who, a.type, sorted(a.choices)) for a in GAME.legal(t.state) if a.type == "rule_cards_selected"]
    assert offered == [(JUDGE, "rule_cards_selected", ["rule_cards"])]
    refuse(t, "DB-ACT-3", "ILLEGAL_ACTION", "rule_cards_selected", A, rule_cards=RULE_CARDS,
           says="with rule_card_pool = shared the five rule cards are chosen together and the judge enters them; alice cannot")
    refuse(t, "DB-ACT-3", "ILLEGAL_ACTION", "rule_cards_selected", JUDGE, player=A, rule_cards=RULE_CARDS,
           says="one selection serves both players; leave out player ('alice')")
    refuse(t, "DB-DECK-6", "RULE_CARD_COUNT", "rule_cards_selected", JUDGE, rule_cards=RULE_CARDS[:4], says="the shared pool selected 4")
    t.ev("rule_cards_selected", JUDGE, rule_cards=RULE_CARDS)
    s = t.state
    assert s.shared_rule_cards == tuple(RULE_CARDS) and [p.rule_cards for p in s.players] == [(), ()]
    assert [p.selected for p in s.players] == [True, True]
    refuse(t, "DB-ACT-3", "ALREADY_SELECTED", "rule_cards_selected", JUDGE, rule_cards=RULE_CARDS, says="already selected")
    t.ev("first_player_decided", JUDGE, first_player=A, method="coin")  # DB-SETUP-1: both selections are made
    t.ev("opening_hands_drawn", JUDGE)
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate")  # DB-ACT-12: either player, the shared cards
    assert [(e.entry_id, e.controller, e.rule_card) for e in t.state.chain] == [("E1", B, "T-NEG")]


def test_db_setup_1_order_of_setup_steps():
    t = Table()
    refuse(t, "DB-SETUP-1", "SETUP_ORDER", "first_player_decided", JUDGE, first_player=A, says="have not selected")
    refuse(t, "DB-SETUP-1", "SETUP_ORDER", "opening_hands_drawn", JUDGE)
    refuse(t, "DB-SETUP-1", "SETUP_ORDER", "decks_shuffled", JUDGE)
    refuse(t, "DB-SETUP-1", "SETUP_ORDER", "play_card", A, card="S3", says="play has not started")
    t.setup(first=A)
    s = t.state  # DB-SETUP-3
    assert (s.status, s.turn_number, s.turn_player, s.phase, s.pair_counter) == ("IN_PROGRESS", 1, A, "MAIN", 1)
    assert all((p.life, p.deck_count, p.hand_count) == (5, 49, 5) for p in s.players)


def test_db_act_4_first_player_once_and_a_player():
    t = Table()
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player="carol", says="not a player")
    t.ev("first_player_decided", JUDGE, first_player=B, method="rps")
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player=A, says="already decided")


def test_db_act_5_decks_shuffled_only_in_setup():
    t = started()
    refuse(t, "DB-ACT-5", "ILLEGAL_ACTION", "decks_shuffled", JUDGE, says="setup, which is over")


def test_db_act_6_opening_hands():
    t = Table(options={"draw_identities_required": True})
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    t.ev("first_player_decided", JUDGE, first_player=A)
    refuse(t, "DB-ACT-6", "CARD_IDENTITY_REQUIRED", "opening_hands_drawn", JUDGE)
    five = ["S3", "H9", "DK", "CA", "JK1"]
    refuse(t, "DB-ACT-6", "CARD_NOT_IN_HAND", "opening_hands_drawn", JUDGE, p1_cards=five[:4] + ["S1"], p2_cards=five, says="'S1' is not a card")
    refuse(t, "DB-ACT-6", "CARD_NOT_IN_HAND", "opening_hands_drawn", JUDGE, p1_cards=five[:4] + ["S3"], p2_cards=five, says="twice")
    refuse(t, "DB-ACT-6", "ILLEGAL_ACTION", "opening_hands_drawn", JUDGE, p1_cards=five[:4], p2_cards=five, says="4 cards, not 5")
    t.ev("opening_hands_drawn", JUDGE, p1_cards=five, p2_cards=five)
    assert t.state.player(A).hand_known == tuple(sorted(five))
    assert "hand_known" not in GAME.view(t.state, B)["players"][A]  # DB-HID-6


def test_db_act_7_mulligan():
    t = Table(options={"mulligan": "one_free"})
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    t.ev("first_player_decided", JUDGE, first_player=B)
    refuse(t, "DB-SETUP-1", "SETUP_ORDER", "mulligan", A, player=A, take=True)
    t.ev("opening_hands_drawn", JUDGE, p1_cards=["S3", "H9", "DK", "CA", "JK1"])
    assert t.state.status == "SETUP"
    refuse(t, "DB-ACT-7", "ILLEGAL_ACTION", "mulligan", A, player=A, take=True, says="first player bob decides")
    t.ev("mulligan", B, player=B, take=False)
    t.ev("mulligan", A, player=A, take=True)
    s = t.state
    assert s.status == "IN_PROGRESS" and s.player(A).hand_known == () and (s.player(A).hand_count, s.player(A).deck_count) == (5, 49)
    plain = started()
    refuse(plain, "DB-ACT-7", "ILLEGAL_ACTION", "mulligan", A, player=A, take=True, says="no mulligan")


# -- turn structure (§4) ----------------------------------------------------------------------
def test_db_turn_3_no_battle_on_turn_1_and_db_lim_3():
    t = started()
    t.play("S3", "H9")
    t.pair("S3", "H9")
    refuse(t, "DB-TURN-3", "NO_BATTLE_FIRST_TURN", "declare_attack", A, attacker="PAIR-1", target="PLAYER", says="alice's PAIR-1 cannot attack")
    t.ev("advance_phase", A)
    assert t.state.phase == "END"


def test_db_turn_4_draw_counts_and_draw_first():
    t = started()
    play_any(t, 3)  # alice hand 2
    t.end_turn()
    refuse(t, "DB-TURN-4", "DRAW_NOT_DONE", "advance_phase", B)
    refuse(t, "DB-TURN-4", "DRAW_NOT_DONE", "activate_effect", A, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    refuse(t, "DB-TURN-4", "BAD_DRAW_COUNT", "draw", B, count=0, says="hand 5")
    t.ev("draw", B, count=1)
    refuse(t, "DB-ACT-8", "ILLEGAL_ACTION", "draw", B, count=1, says="already drawn")
    t.end_turn()
    t.ev("draw", A, count=3)  # hand 2 -> 5
    assert t.state.player(A).hand_count == 5


def test_db_act_8_draw_phase_and_identities():
    t = Table(options={"draw_identities_required": True})
    t.setup(first=A, hands={A: ["S3", "H9", "DK", "CA", "JK1"], B: ["S3", "H9", "DK", "CA", "JK1"]})
    refuse(t, "DB-ACT-8", "WRONG_PHASE", "draw", A, count=1, says="only in the DRAW phase")
    t.play("S3")
    t.end_turn()
    refuse(t, "DB-ACT-8", "CARD_IDENTITY_REQUIRED", "draw", B, count=1)
    refuse(t, "DB-ACT-8", "CARD_NOT_IN_HAND", "draw", B, count=1, cards=["H9"], says="already known in bob's hand")
    refuse(t, "DB-ACT-8", "CARD_NOT_IN_HAND", "draw", B, count=1, cards=["H0"], says="'H0' is not a card")
    t.ev("draw", B, count=1, cards=["C5"])
    t.end_turn()
    refuse(t, "DB-ACT-8", "CARD_NOT_IN_HAND", "draw", A, count=1, cards=["S3"], says="on alice's field")


def test_db_turn_9_only_the_turn_player_plays():
    t = started()
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "play_card", B, card="S3", says="it is alice's turn")
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "advance_phase", B)
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "form_pair", B, units=["S3", "H9"])
    t.ev("play_card", JUDGE, card="S3")  # the judge enters it for the turn player
    assert "S3" in field(t.state, A)


def test_db_act_9_player_field_must_match_the_author():
    t = started()
    refuse(t, "DB-ACT-9", "ILLEGAL_ACTION", "advance_phase", B, player=A, says="bob cannot enter advance_phase for alice")
    refuse(t, "DB-ACT-10", "ILLEGAL_ACTION", "play_card", "carol", card="S3", says="neither a player")


def test_db_turn_7_end_phase_expiry_and_flags():
    t = battle_table()
    t.play("S3", "H9")
    t.pair("S3", "H9")
    t.ev("activate_effect", B, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.advance()
    t.ev("declare_attack", B, attacker="PAIR-1", target="PLAYER")
    t.ev("resolve_battle", B)
    assert t.state.player(B).unit("PAIR-1").attacked and t.state.reversals
    t.advance()  # END
    assert t.state.reversals  # still reversed in END
    t.advance()
    s = t.state
    assert s.reversals == () and not s.player(B).unit("PAIR-1").attacked
    assert (s.turn_number, s.turn_player, s.phase, s.draw_done) == (3, A, "DRAW", False)


# -- main phase (§5.3) ------------------------------------------------------------------------
def test_db_act_10_play_card():
    t = started(options=None)
    t.play("S3")
    refuse(t, "DB-ACT-10", "CARD_NOT_IN_HAND", "play_card", A, card="S3", says="already on the field as a single")
    refuse(t, "DB-ACT-10", "CARD_NOT_IN_HAND", "play_card", A, card="S11", says="'S11' is not a card")
    refuse(t, "DB-ACT-10", "CARD_NOT_IN_HAND", "play_card", A, card="s4", says="did you mean 'S4'")
    t.play("H9", "DK", "CA", "JK1")
    refuse(t, "DB-ACT-10", "CARD_NOT_IN_HAND", "play_card", A, card="C5", says="no card in hand")
    t.advance()
    t.end_turn()
    t.to_phase("BATTLE")
    refuse(t, "DB-ACT-10", "WRONG_PHASE", "play_card", B, card="C5", says="bob's play_card C5")


def test_db_act_10_known_hand_limits_what_can_be_played():
    t = Table()
    t.setup(first=A, hands={A: ["S3", "H9", "DK", "CA", "JK1"]})
    refuse(t, "DB-ACT-10", "CARD_NOT_IN_HAND", "play_card", A, card="C5", says="every card in it is known")
    t.play("JK1")


def test_db_act_11_form_pair_rules():
    t = started()
    t.play("S3", "H9", "DK", "CA")
    refuse(t, "DB-ACT-11", "UNIT_NOT_OWNED", "form_pair", A, units=["S3", "C5"], says="no unit C5")
    refuse(t, "DB-ACT-11", "PAIR_TOO_SMALL", "form_pair", A, units=["S3"])
    refuse(t, "DB-ACT-11", "ILLEGAL_ACTION", "form_pair", A, units=["S3", "S3"], says="twice")
    t.pair("S3", "H9")
    refuse(t, "DB-ACT-11", "UNIT_NOT_OWNED", "form_pair", A, units=["S3", "DK"], says="inside PAIR-1")
    refuse(t, "DB-ACT-11", "ILLEGAL_ACTION", "form_pair", A, units=["PAIR-1"], says="at least one more unit")
    t.pair("PAIR-1", "DK")  # extension keeps the id (DB-RUL-5)
    assert "PAIR-1[S3 H9 DK]" in field(t.state, A) and t.state.pair_counter == 2
    t2 = started(options={"pair_extend": False})
    t2.play("S3", "H9", "DK")
    t2.pair("S3", "H9")
    refuse(t2, "DB-ACT-11", "PAIR_EXTEND_FORBIDDEN", "form_pair", A, units=["PAIR-1", "DK"])


def test_db_act_11_merge_when_allowed():
    t = started(options={"pair_merge": True})
    t.play("S3", "H9", "DK", "CA", "C5")
    t.pair("S3", "H9")
    t.pair("DK", "CA")
    refuse(t, "DB-ACT-11", "ILLEGAL_ACTION", "form_pair", A, units=["PAIR-1"], says="at least one more unit")
    t.pair("PAIR-2", "PAIR-1")  # 2+ pairs and no single: the lowest-numbered keeps its id
    assert field(t.state, A) == {"PAIR-1[S3 H9 DK CA]", "C5"} and t.state.pair_counter == 3


def test_db_act_11_pair_extend_off_no_pair_grows_whatever_pair_merge_says():
    t = started(options={"pair_extend": False, "pair_merge": True})
    t.play("S3", "H9", "DK", "CA", "C5")
    t.pair("S3", "H9")
    t.pair("DK", "CA")
    refuse(t, "DB-ACT-11", "PAIR_EXTEND_FORBIDDEN", "form_pair", A, units=["PAIR-1", "PAIR-2"],
           says="PAIR-1, PAIR-2 would grow by merging; with pair_extend off no pair grows, whatever pair_merge says")
    refuse(t, "DB-ACT-11", "PAIR_EXTEND_FORBIDDEN", "form_pair", A, units=["PAIR-2", "PAIR-1", "C5"], says="would grow by merging")
    refuse(t, "DB-ACT-11", "PAIR_EXTEND_FORBIDDEN", "form_pair", A, units=["PAIR-1", "C5"], says="PAIR-1 would grow by extension")
    offered = [a.choices["units"] for a in GAME.legal(t.state) if a.type == "form_pair"]
    assert offered == []  # one single left: no new pair, and no pair may grow
    assert field(t.state, A) == {"PAIR-1[S3 H9]", "PAIR-2[DK CA]", "C5"} and t.state.pair_counter == 3
    t2 = started(options={"pair_extend": False, "pair_merge": False})  # both forbidden: the merge rule is written first
    t2.play("S3", "H9", "DK", "CA")
    t2.pair("S3", "H9")
    t2.pair("DK", "CA")
    refuse(t2, "DB-ACT-11", "PAIR_MERGE_FORBIDDEN", "form_pair", A, units=["PAIR-1", "PAIR-2"], says="cannot be merged")


def test_db_lim_5_no_hand_or_field_limit():
    t = started()
    play_any(t, 5)
    assert len(t.state.player(A).field) == 5
