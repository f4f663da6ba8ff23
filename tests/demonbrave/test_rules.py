"""One test (at least) for every rule ID the DemonBrave reducer enforces: the rule ID and code of
each refusal, its message, and that a refusal changes nothing; plus the automatic rules
(battle rows, expiry, life check, stalemate). The rule ID is in each test's name."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from adjudicator.fold import decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave.catalog import SAMPLE_CATALOG
from adjudicator.games.demonbrave.zones import count_cards
from adjudicator.protocol import Malformed, Violation
from tests.demonbrave.builder import JUDGE, NOTSET, RULE_CARDS, Table, play_any
from tests.demonbrave.replay import field, rank, trash

A, B = "alice", "bob"


def refuse(t: Table, rule: str, code: str, type_: str, by: str, *, says: str = "", **fields) -> str:
    """Assert that the line is refused with ``rule``/``code`` and that nothing changed."""
    before = t.state
    event = decode_event(GAME, type_, by, fields)
    with pytest.raises(Violation) as err:
        t.fold.preview(event, t.seq + 1)
    v = err.value
    assert (v.rule_id, v.code) == (rule, code), f"{v.rule_id} {v.code}: {v.message}"
    assert says in v.message, v.message
    assert t.state == before
    return v.message


def started(first: str = A, options: dict | None = None, **kw) -> Table:
    return Table(options=options, **kw).setup(first=first)


def battle_table(options: dict | None = None) -> Table:
    """Turn 2, bob's MAIN (alice first)."""
    t = started(options=options)
    t.end_turn()
    t.to_phase("MAIN")
    return t


# -- setup (§3, §5.2) -------------------------------------------------------------------------
def start(**fields):
    from adjudicator.fold import Fold

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
    t.play("S3", "H9", "DK", "CA")
    t.pair("S3", "H9")
    t.pair("DK", "CA")
    t.pair("PAIR-2", "PAIR-1")
    assert field(t.state, A) == {"PAIR-1[S3 H9 DK CA]"}


def test_db_lim_5_no_hand_or_field_limit():
    t = started()
    play_any(t, 5)
    assert len(t.state.player(A).field) == 5


# -- battle (§6.3, §6.4, §7) ------------------------------------------------------------------
def _battle(first_cards: list[str], second_cards: list[str], options: dict | None = None) -> Table:
    """alice's cards on turn 1, bob's on turn 2; bob's BATTLE."""
    t = started(options=options)
    t.play(*first_cards)
    t.end_turn()
    t.to_phase("MAIN")
    t.play(*second_cards)
    return t


def test_db_act_14_declare_attack_checks():
    t = _battle(["S3", "H9"], ["DK", "C4", "C5"])
    refuse(t, "DB-ACT-14", "WRONG_PHASE", "declare_attack", B, attacker="DK", target="S3", says="bob's attack with DK")
    t.pair("C4", "C5")
    t.advance()
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "declare_attack", A, attacker="S3", target="DK")
    refuse(t, "DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", B, attacker="SQ", target="S3", says="no unit SQ")
    refuse(t, "DB-ACT-14", "UNIT_NOT_OWNED", "declare_attack", B, attacker="C4", target="S3", says="inside PAIR-1")
    refuse(t, "DB-ACT-14", "BAD_TARGET", "declare_attack", B, attacker="DK", target="HK", says="alice has no unit HK")
    refuse(t, "DB-LIM-2", "SINGLE_CANNOT_ATTACK_PLAYER", "declare_attack", B, attacker="DK", target="PLAYER", says="bob's single DK")
    t.ev("declare_attack", B, attacker="DK", target="S3")
    refuse(t, "DB-RES-11", "ATTACK_PENDING", "declare_attack", B, attacker="PAIR-1", target="PLAYER")
    refuse(t, "DB-RES-11", "ATTACK_PENDING", "advance_phase", B)
    t.ev("resolve_battle", B)
    refuse(t, "DB-LIM-1", "ALREADY_ATTACKED", "declare_attack", B, attacker="DK", target="H9", says="bob's single DK already attacked")


def fight(t: Table, attacker: str, target: str, rule: str, result: str, *, block=NOTSET) -> None:
    """One battle by the turn player, asserting the §6.4 row and result the table is shown
    before it is resolved (the view's forecast is the reducer's own computation)."""
    t.ev("declare_attack", t.tp, attacker=attacker, target=target)
    if block is not NOTSET:
        t.ev("declare_block", t.other(t.tp), blocker=block)
    forecast = GAME.view(t.state)["attack"]["outcome_if_resolved_now"]
    assert (forecast["rule"], forecast["result"]) == (rule, result), forecast
    t.ev("resolve_battle", t.tp)


def test_db_res_20_to_22_single_battles():
    t = _battle(["H9", "C10", "D7", "JK1", "S5"], ["DK", "S5", "H7", "JK2", "C5"])
    t.advance()
    fight(t, "DK", "H9", "DB-RES-20", "target_trashed")  # stronger
    assert trash(t.state, A) == ["H9"]
    fight(t, "S5", "C10", "DB-RES-20", "void")  # weaker
    assert trash(t.state, A) == ["H9"] and trash(t.state, B) == []
    fight(t, "H7", "D7", "DB-RES-20", "both_trashed")  # equal
    assert trash(t.state, A) == ["H9", "D7"] and trash(t.state, B) == ["H7"]
    fight(t, "C5", "JK1", "DB-RES-21", "void")  # against the joker
    assert "JK1" in field(t.state, A) and "C5" in field(t.state, B)
    fight(t, "JK2", "S5", "DB-RES-22", "target_trashed")  # the joker beats a single
    assert trash(t.state, A) == ["H9", "D7", "S5"] and trash(t.state, B) == ["H7"]


def test_db_res_23_and_db_rul_12_joker_vs_joker():
    t = _battle(["JK1"], ["JK2"])
    t.advance()
    fight(t, "JK2", "JK1", "DB-RES-23", "both_trashed")
    assert trash(t.state, A) == ["JK1"] and trash(t.state, B) == ["JK2"]


def test_db_res_26_and_db_lim_9_pair_vs_joker_single():
    t = _battle(["S2", "JK1"], ["S3", "H4"])
    t.pair("S3", "H4")
    t.advance()
    fight(t, "PAIR-1", "JK1", "DB-RES-26", "void")
    assert field(t.state, A) == {"S2", "JK1"} and trash(t.state, A) == []


def test_db_res_25_pair_trashes_any_single():
    t = _battle(["S2", "JK1"], ["S3", "H4"])
    t.pair("S3", "H4")
    t.advance()
    fight(t, "PAIR-1", "S2", "DB-RES-25", "target_trashed")  # 2 is the highest number
    assert trash(t.state, A) == ["S2"] and field(t.state, A) == {"JK1"}


def test_db_res_28_29_30_attacks_on_the_player_and_db_act_15_16():
    t = _battle(["S3", "H3", "JK1"], ["S9", "H9", "D2", "C2"])
    t.pair("S9", "H9")
    t.pair("D2", "C2")
    t.advance()
    refuse(t, "DB-ACT-15", "ILLEGAL_ACTION", "declare_block", A, blocker="JK1", says="no attack is in progress")
    refuse(t, "DB-ACT-16", "ILLEGAL_ACTION", "resolve_battle", B, says="no attack")
    t.ev("declare_attack", B, attacker="PAIR-1", target="PLAYER")
    refuse(t, "DB-ACT-16", "BLOCK_DECISION_NEEDED", "resolve_battle", B, says="alice has not decided")
    refuse(t, "DB-ACT-15", "ILLEGAL_ACTION", "declare_block", B, blocker=None, says="only alice, who is attacked")
    refuse(t, "DB-ACT-15", "UNIT_NOT_OWNED", "declare_block", A, blocker="C4", says="alice has no unit C4")
    refuse(t, "DB-TURN-9", "NOT_TURN_PLAYER", "resolve_battle", A)
    t.ev("declare_block", A, blocker="JK1")  # a joker blocker is trashed too (DB-RUL-11)
    forecast = GAME.view(t.state)["attack"]["outcome_if_resolved_now"]
    assert (forecast["rule"], forecast["result"]) == ("DB-RES-29", "target_trashed")
    t.ev("resolve_battle", B)
    assert trash(t.state, A) == ["JK1"] and t.state.player(A).life == 5
    fight(t, "PAIR-2", "PLAYER", "DB-RES-28", "life_lost", block=None)
    assert t.state.player(A).life == 4
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("S3", "H3")
    t.end_turn()
    t.to_phase("BATTLE")
    fight(t, "PAIR-1", "PLAYER", "DB-RES-30", "target_trashed", block="PAIR-3")  # SET [7,7] against SET [1,1]
    assert trash(t.state, A) == ["JK1", "S3", "H3"] and t.state.player(A).life == 4


def test_db_res_24_choice_rules():
    t = _battle(["H5", "C10", "SQ"], ["SA", "S2"])
    t.advance()
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("H5", "C10", "SQ")
    t.end_turn()
    t.to_phase("BATTLE")
    t.ev("declare_attack", B, attacker="SA", target="PAIR-1")
    refuse(t, "DB-RES-24", "CHOICE_REQUIRED", "resolve_battle", B, says="H5 C10 SQ")
    refuse(t, "DB-RES-24", "INVALID_CHOICE", "resolve_battle", B, choice="HK", says="not a member")
    t.ev("resolve_battle", B, choice="SQ")
    assert trash(t.state, A) == ["SQ"]


def test_db_res_31_pair_shrinkage_keeps_the_attacked_flag():
    t = _battle(["S2", "S5"], ["D6"])
    t.advance()
    t.end_turn()
    t.to_phase("MAIN")
    t.pair("S2", "S5")
    t.advance()
    t.ev("declare_attack", A, attacker="PAIR-1", target="PLAYER")
    t.ev("declare_block", B, blocker=None)
    t.ev("resolve_battle", A)
    t.end_turn()
    t.to_phase("BATTLE")
    t.attack("D6", "PAIR-1")  # S5(3) trashed; S2 becomes a single
    assert field(t.state, A) == {"S2"} and trash(t.state, A) == ["S5"]


def test_db_lim_6_block_limit_counts_per_unit():
    opts = {"blocks_per_unit_per_turn": 1, "joker_survives_block": True}
    t = _battle(["JK1"], ["S9", "H9", "D2", "C2"], options=opts)
    t.pair("S9", "H9")
    t.pair("D2", "C2")
    t.advance()
    t.attack("PAIR-1", "PLAYER", block="JK1")
    assert "JK1" in field(t.state, A)  # DB-RUL-11 option
    t.ev("declare_attack", B, attacker="PAIR-2", target="PLAYER")
    refuse(t, "DB-LIM-6", "BLOCK_LIMIT", "declare_block", A, blocker="JK1", says="limit is 1")
    t.ev("resolve_battle", B)  # nothing could block: resolves directly (DB-ACT-16)
    assert t.state.player(A).life == 4


# -- effects and the chain (§6.6) --------------------------------------------------------------
def test_db_act_12_activation_checks():
    t = Table()
    t.setup(first=A, rule_cards={A: ["J", "T-NEG", "T-REV", "T-BURN", "SAMPLE-HEAL"], B: ["X-1", "X-2", "X-3", "X-4", "SAMPLE-GUARD"]})
    refuse(t, "DB-ACT-12", "RULE_CARD_NOT_OWNED", "activate_effect", A, rule_card="X-1", effect_id="X-1.effect", says="has not selected")
    refuse(t, "DB-ACT-12", "ILLEGAL_ACTION", "activate_effect", A, rule_card="J", effect_id="J.nope", says="has no effect")
    refuse(t, "DB-RES-40", "NOT_ALLOWED_IN_OPPONENT_TURN", "activate_effect", B, rule_card="X-1", effect_id="X-1.effect", says="judge_asserted")
    t.ev("activate_effect", B, rule_card="X-1", effect_id="X-1.effect", judge_asserted=True)
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E1", says="enter the ops")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "SET_STATUS", "target": A, "status": "CANNOT_ACTIVATE"}])
    refuse(t, "DB-ACT-12", "ILLEGAL_ACTION", "activate_effect", A, rule_card="J", effect_id="J.reverse", says="CANNOT_ACTIVATE")


def test_db_lim_7_effect_limits():
    t = Table()
    t.setup(first=A, rule_cards={A: ["J", "T-NEG", "T-REV", "T-BURN", "SAMPLE-HEAL"]})
    t.ev("activate_effect", A, rule_card="SAMPLE-HEAL", effect_id="SAMPLE-HEAL.heal")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    assert t.state.player(A).life == 6  # no cap by default (DB-RUL-24)
    refuse(t, "DB-LIM-7", "EFFECT_LIMIT", "activate_effect", A, rule_card="SAMPLE-HEAL", effect_id="SAMPLE-HEAL.heal", says="this game")


def test_db_res_41_42_43_chain():
    t = started()
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])
    refuse(t, "DB-RES-42", "CHAIN_OPEN", "advance_phase", A)
    refuse(t, "DB-RES-42", "CHAIN_OPEN", "form_pair", A, units=["S3", "H9"])
    refuse(t, "DB-RES-41", "NOT_TOP_OF_CHAIN", "resolve_chain_entry", JUDGE, entry_id="E1", says="E2, E1")
    t.ev("resolve_chain_entry", B, entry_id="E2")
    assert t.state.chain[-1].negated and t.state.chain_resolving
    refuse(t, "DB-RES-43", "CHAIN_RESOLVING", "activate_effect", A, rule_card="J", effect_id="J.reverse")
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E1", ops=[{"op": "NOTE", "text": "x"}], says="negated")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")  # DB-RES-45: no ops
    assert t.state.reversals == () and t.state.chain == () and not t.state.chain_resolving
    refuse(t, "DB-ACT-13", "ILLEGAL_ACTION", "resolve_chain_entry", JUDGE, entry_id="E3", says="no chain entry")


def test_db_res_43_activations_during_resolution_option():
    t = started(options={"activations_during_resolution": True})
    t.ev("activate_effect", A, rule_card="T-REV", effect_id="T-REV.reverse")
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E2")
    t.ev("activate_effect", B, rule_card="T-NEG", effect_id="T-NEG.negate", targets=["E1"])


def test_db_eff_14_invalid_ops_apply_nothing():
    t = started()
    t.play("S3")
    msg = refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x",
                 ops=[{"op": "LOSE_LIFE", "player": B, "amount": 1}, {"op": "TRASH", "cards": ["H9"]}], says="op 2 (TRASH)")
    assert "no op of this event was applied" in msg
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "MODIFY_STRENGTH", "card": "JK1", "mode": "SHIFT", "value": 1}], says="joker")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "NEGATE", "entry_id": "E4"}], says="not an unresolved entry")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "CANCEL_ATTACK"}], says="no attack")
    refuse(t, "DB-EFF-14", "INVALID_OP", "judge_adjust", JUDGE, reason="x", ops=[{"op": "MOVE", "card": "S3", "from": "hand", "to": "trash", "player": A}], says="cannot be")


def test_db_eff_ops_statuses_modifiers_and_protection():
    t = _battle(["S3", "H9"], ["DK", "C4", "C5"])
    t.pair("C4", "C5")
    t.adjust([
        {"op": "SET_STATUS", "target": "S3", "status": "CANNOT_BE_TRASHED", "player": A, "duration": {"kind": "END_PHASE"}},
        {"op": "SET_STATUS", "target": "H9", "status": "CANNOT_BE_ATTACKED", "player": A},
        {"op": "SET_STATUS", "target": "DK", "status": "MAY_ATTACK_PLAYER", "player": B},
        {"op": "MODIFY_STRENGTH", "card": "C4", "mode": "SET_NUMBER", "value": "2", "player": B, "duration": {"kind": "PERMANENT"}},
    ], "test statuses")
    assert rank(t.state, B, "PAIR-1") == ("RUN", (13, 3))  # modifier changes strength, not membership (DB-RUL-33)
    t.advance()
    refuse(t, "DB-ACT-14", "BAD_TARGET", "declare_attack", B, attacker="DK", target="H9", says="CANNOT_BE_ATTACKED")
    t.attack("PAIR-1", "S3")  # DB-RES-32: S3 stays
    assert "S3" in field(t.state, A) and trash(t.state, A) == []
    t.ev("declare_attack", B, attacker="DK", target="PLAYER")  # MAY_ATTACK_PLAYER
    t.ev("declare_block", A, blocker=None)
    t.ev("resolve_battle", B)
    assert t.state.player(A).life == 4
    t.end_turn()
    assert all(s.target != "S3" for s in t.state.statuses)  # END_PHASE status expired (DB-TURN-7)
    assert t.state.modifiers  # PERMANENT stays


def test_db_rul_26_vanished_target_keeps_the_flag():
    t = _battle(["HQ"], ["D4", "C4"])
    t.pair("D4", "C4")
    t.advance()
    t.ev("declare_attack", B, attacker="PAIR-1", target="HQ")
    t.ev("activate_effect", A, rule_card="T-BOUNCE", effect_id="T-BOUNCE.bounce", targets=["HQ"])
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    assert GAME.view(t.state)["attack"]["outcome_if_resolved_now"]["rule"] == "DB-RUL-26"
    t.ev("resolve_battle", B)
    assert t.state.attack is None and t.state.player(B).unit("PAIR-1").attacked
    assert t.state.player(A).hand_count == 5 and "HQ" in t.state.player(A).hand_known


# -- end of the game (§7) ------------------------------------------------------------------------
def test_db_lim_10_and_db_lim_11_life_floor_and_loss():
    t = started()
    t.adjust([{"op": "LOSE_LIFE", "player": B, "amount": 9}], "x")
    s = t.state
    assert s.player(B).life == 0 and s.status == "FINISHED" and s.result.winner == A and s.result.reason == "LIFE_ZERO"


def test_db_act_18_game_over_blocks_everything_but_the_judge():
    t = started()
    t.ev("concede", A, player=A)  # DB-ACT-17 / DB-RUL-31
    assert t.state.result.winner == B
    refuse(t, "DB-ACT-18", "GAME_OVER", "advance_phase", A, says="won by bob")
    refuse(t, "DB-ACT-18", "GAME_OVER", "concede", B, player=B)
    refuse(t, "DB-ACT-18", "GAME_OVER", "rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.adjust([{"op": "NOTE", "text": "judge events stay open"}], "note")


def test_db_act_17_concede_for_oneself_only():
    t = started()
    refuse(t, "DB-ACT-17", "ILLEGAL_ACTION", "concede", A, player=B, says="alice cannot enter concede for bob")


def test_db_lim_12_stalemate_counter_resets_on_progress():
    t = started(options={"stalemate_idle_turns": 2})
    ops = []
    from tests.demonbrave.builder import free_ids

    for who in (A, B):
        p = t.state.player(who)
        ids = free_ids(t.state, who)
        ops += [{"op": "MOVE", "card": c, "from": "deck", "to": "trash", "player": who} for c in ids[p.hand_count:]]
    t.adjust(ops, "empty decks")
    t.end_turn()
    assert t.state.idle_turns == 0  # cards moved this turn
    t.end_turn()
    assert t.state.idle_turns == 1  # bob drew nothing, did nothing
    t.end_turn()
    assert t.state.status == "FINISHED" and t.state.result.reason == "STALEMATE"


def test_db_rul_30_best_of_three():
    t = started(options={"match_games": 3})
    t.ev("concede", B, player=B)
    assert GAME.outcome(t.state).status == "in_progress" and GAME.outcome(t.state).score == {A: 1, B: 0}
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", JUDGE, game_index=3, says="game 2")
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", A, game_index=2, says="only the judge")
    t.ev("game_started", JUDGE, game_index=2)
    t.setup(first=B)
    t.ev("concede", B, player=B)
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.score) == ("won", A, {A: 2, B: 0})
    refuse(t, "DB-ACT-1", "ILLEGAL_ACTION", "game_started", JUDGE, game_index=3, says="already has a result")


# -- judge events (§8) -------------------------------------------------------------------------
def test_db_rwd_2_judge_only():
    t = started()
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "judge_adjust", A, ops=[], reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "rewind", A, to_seq=2, reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "void_game", B, reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "declare_result", B, outcome="DRAW", reason="x")
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "correct", A, at_seq=2, event={"type": "play_card", "by": A, "card": "S3"}, reason="x")


def test_db_rwd_3_rewind_scope_and_override():
    t = started()
    t.play("S3")
    t.end_turn()
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=6, reason="x", says="leaves the current turn 2")
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=3, reason="x", judge_override=False, says="into the setup")
    t.ev("rewind", JUDGE, to_seq=6, reason="x", judge_override=True)
    assert t.state.turn_number == 1 and field(t.state, A) == {"S3"}
    t2 = started(options={"rewind_scope": "any"})
    t2.play("S3")
    t2.end_turn()
    t2.ev("rewind", JUDGE, to_seq=6, reason="x")


def test_db_rwd_6_correction_and_conflict():
    t = started()
    seq = t.ev("play_card", A, card="S3")
    t.play("H9")
    t.ev("correct", JUDGE, at_seq=seq, event={"type": "play_card", "by": A, "card": "DK"}, reason="forgotten")
    assert field(t.state, A) == {"DK", "S3", "H9"} and t.state.player(A).hand_count == 2
    refuse(t, "DB-RWD-6", "ILLEGAL_ACTION", "correct", JUDGE, at_seq=seq, event={"type": "rule_cards_selected", "by": A, "rule_cards": RULE_CARDS}, reason="x", says="play event or a judge_adjust")
    t.play("CA", "JK1")  # hand 0
    refuse(t, "DB-RWD-6", "CORRECTION_CONFLICT", "correct", JUDGE, at_seq=seq, event={"type": "play_card", "by": A, "card": "C5"}, reason="x", says="DB-ACT-10 (CARD_NOT_IN_HAND)")
    # the inserted event itself illegal: its own rule
    refuse(t, "DB-ACT-8", "WRONG_PHASE", "correct", JUDGE, at_seq=seq, event={"type": "draw", "by": A, "count": 1}, reason="x")


def test_db_rwd_7_judge_adjust_outside_timing_rules():
    """DB-RWD-7: the judge's ops apply now, outside timing and phase rules."""
    t = _battle(["S3", "H9"], ["DK"])
    t.advance()
    t.ev("declare_attack", B, attacker="DK", target="S3")
    seq = t.adjust([{"op": "MOVE", "card": "H9", "from": "field", "to": "hand", "player": A},
                    {"op": "CANCEL_ATTACK"}], "the table had already returned H9; the attack was withdrawn")
    s = t.state
    assert seq and s.attack is None and field(s, A) == {"S3"} and "H9" in s.player(A).hand_known
    assert s.player(B).unit("DK").attacked


def test_db_rwd_11_declare_result_and_void():
    t = started()
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="WIN", reason="x", says="names the winner")
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="DRAW", winner=A, reason="x", says="no winner")
    t.ev("declare_result", JUDGE, outcome="WIN", winner=B, reason="slow play")
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "declare_result", JUDGE, outcome="DRAW", reason="x", says="already over")
    t.ev("void_game", JUDGE, reason="marked deck")
    assert GAME.outcome(t.state).status == "void" and [r.outcome for r in t.state.match.results] == ["VOID"]
    refuse(t, "DB-RWD-11", "ILLEGAL_ACTION", "void_game", JUDGE, reason="x", says="already void")


def test_db_rwd_12_rewind_with_override_reopens_a_finished_game():
    t = started()
    seq = t.ev("play_card", A, card="S3")
    t.ev("concede", B, player=B)
    refuse(t, "DB-RWD-3", "REWIND_OUT_OF_SCOPE", "rewind", JUDGE, to_seq=seq, reason="x", says="ended the game")
    t.ev("rewind", JUDGE, to_seq=seq, reason="the concession was a misunderstanding", judge_override=True)
    assert t.state.status == "IN_PROGRESS" and t.state.result is None and t.state.match.results == ()


# -- shipped data -------------------------------------------------------------------------------
def test_sample_catalog_fixture_matches_the_package():
    import json

    shipped = json.loads((Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave" / "rule-cards.sample.json").read_text())
    assert shipped["rule_cards"] == json.loads(json.dumps(msgspec.to_builtins(SAMPLE_CATALOG)))
    assert "SAMPLE" in shipped["note"].upper()


def test_cards_are_conserved_in_every_rule_test_position():
    t = _battle(["S3", "H9"], ["DK"])
    for p in t.state.players:
        assert count_cards(p) == 54


def test_db_rul_30_alternate_first_player_db_act_4():
    t = started(options={"match_games": 3, "next_game_first_player": "alternate"})
    t.ev("concede", A, player=A)
    t.ev("game_started", JUDGE, game_index=2)
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player=A, says="alice went first in the previous game")
    t.ev("first_player_decided", JUDGE, first_player=B)


def test_db_deck_2_shipped_deck_lists():
    root = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave"
    assert GAME.check_deck(GAME.read_deck((root / "deck-standard.txt").read_text())) == []
    problems = [v.message for v in GAME.check_deck(GAME.read_deck((root / "deck-invalid.txt").read_text()))]
    assert problems == [
        "'S1' is not a card: a card is S, H, D or C followed by A, 2-10, J, Q or K (S3, HK, D10), or a joker JK1/JK2; did you mean 'SA'?",
        "S7 occurs more than once",
        "missing: S4, D7",
    ]


def test_db_rwd_2_judge_adjust_by_someone_outside_the_match():
    t = started()
    refuse(t, "DB-RWD-2", "JUDGE_ONLY", "judge_adjust", "mallory", ops=[{"op": "NOTE", "text": "x"}], reason="x", says="not even a player")
