"""Rule tests of the games of a match (DB-ACT-1, DB-ACT-2, DB-RUL-30, DB-RWD-11): what a new game
resets and what it keeps, the deck list of a replacement game, and who goes first in the games
after the first. The rule ID is in each test's name."""

from __future__ import annotations

import msgspec

from adjudicator.games.demonbrave import GAME
from adjudicator.games.demonbrave.cards import ALL_CARDS
from tests.demonbrave.builder import JUDGE, RULE_CARDS, Table
from tests.demonbrave.checks import refuse, started

A, B = "alice", "bob"
DECK = list(ALL_CARDS)
#: what a game_started keeps, and what only says where the log stands (not a field of the game)
KEPT = {"config", "catalog", "match", "players", "turn_start_seq", "recent", "notes"}


def selections(t: Table) -> None:
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)


def test_db_act_1_game_started_resets_every_per_game_field():
    t = started(options={"match_games": 3})
    t.play("S3", "H9", "DK")
    t.pair("S3", "H9")
    t.ev("activate_effect", A, rule_card="J", effect_id="J.reverse")
    t.ev("resolve_chain_entry", JUDGE, entry_id="E1")
    t.ev("concede", B, player=B)
    assert (t.state.pair_counter, t.state.entry_counter, len(t.state.reversals)) == (2, 2, 1)
    t.ev("game_started", JUDGE, game_index=2)
    fresh = Table(options={"match_games": 3}).state
    s = t.state
    for name in msgspec.structs.asdict(s):
        if name not in KEPT:
            assert getattr(s, name) == getattr(fresh, name), name
    assert s.players == fresh.players  # lives 5, decks 54, hands, fields, trash and rule cards empty
    assert (s.status, s.turn_number, s.first_player, s.match.game_index) == ("SETUP", 0, None, 2)
    assert [(r.game_index, r.outcome, r.winner) for r in s.match.results] == [(1, "WIN", A)]  # the match is kept
    assert s.config == fresh.config and s.config.match_games == 3


def test_db_act_1_and_db_act_2_a_void_game_is_replayed_with_a_corrected_deck_list():
    t = Table()
    t.ev("deck_registered", A, player=A, cards=DECK)
    t.ev("deck_registered", B, player=B, cards=DECK)
    refuse(t, "DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", B, player=B, cards=DECK, says="already registered for game 1")
    t.setup(first=B)
    t.goto(9, "MAIN")
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")  # DB-EX-14 (f)
    refuse(t, "DB-ACT-18", "GAME_OVER", "deck_registered", B, player=B, cards=DECK)
    t.ev("game_started", JUDGE, game_index=1)
    assert [p.deck_this_game for p in t.state.players] == [False, False]
    assert t.state.player(A).deck_registered == tuple(DECK)  # a list stands until it is replaced
    offered = {(a.who, a.type) for a in GAME.legal(t.state)}
    assert {(A, "deck_registered"), (B, "deck_registered")} <= offered
    corrected = DECK[::-1]
    t.ev("deck_registered", B, player=B, cards=corrected)
    assert t.state.player(B).deck_registered == tuple(corrected) and t.state.player(B).deck_this_game
    refuse(t, "DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", B, player=B, cards=DECK, says="once in each game's setup")
    assert (B, "deck_registered") not in {(a.who, a.type) for a in GAME.legal(t.state)}
    t.setup(first=B)
    assert (t.state.status, t.state.turn_number, t.state.match.game_index) == ("IN_PROGRESS", 1, 1)


def test_db_act_2_a_list_of_match_started_is_game_1s_registration():
    t = Table()
    t.fold = type(t.fold)(GAME, "decks")
    t.ev("match_started", JUDGE, game="demonbrave", players=[A, B], decks={A: DECK})
    refuse(t, "DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", A, player=A, cards=DECK, says="already registered for game 1")
    t.ev("deck_registered", B, player=B, cards=DECK)


def test_db_rul_30_loser_chooses_who_goes_first():
    t = started(options={"match_games": 3})  # next_game_first_player = loser_chooses (default)
    t.ev("concede", B, player=B)
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    offered = [(a.who, a.type) for a in GAME.legal(t.state) if a.type == "first_player_decided"]
    assert offered == [(B, "first_player_decided"), (JUDGE, "first_player_decided")]
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", A, first_player=A, method="other",
           says="bob lost game 1 and chooses who goes first")
    t.ev("first_player_decided", B, first_player=A, method="other")  # the loser may also go second
    assert t.state.first_player == A


def test_db_rul_30_after_a_draw_or_in_game_1_the_judge_records_the_toss():
    t = Table(options={"match_games": 3})
    selections(t)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", A, first_player=A, says="only the judge")
    t.ev("first_player_decided", JUDGE, first_player=A, method="coin")
    t.ev("opening_hands_drawn", JUDGE)
    t.ev("declare_result", JUDGE, outcome="DRAW", reason="both agree")
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", B, first_player=B, says="only the judge")
    t.ev("first_player_decided", JUDGE, first_player=B, method="coin")


def test_db_rul_30_loser_chooses_looks_past_a_void_game():
    t = started(options={"match_games": 3})
    t.ev("concede", A, player=A)  # bob wins game 1: alice chooses for game 2
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    t.ev("first_player_decided", A, first_player=A, method="other")
    t.ev("opening_hands_drawn", JUDGE)
    t.ev("void_game", JUDGE, reason="alice's deck holds 53 cards")
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", B, first_player=B, says="alice lost game 1")
    t.ev("first_player_decided", A, first_player=B, method="other")


def test_db_rul_30_alternate_looks_past_a_void_game():
    t = started(options={"match_games": 3, "next_game_first_player": "alternate"})  # alice first in game 1
    t.ev("concede", B, player=B)
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    t.ev("first_player_decided", JUDGE, first_player=B)
    t.ev("opening_hands_drawn", JUDGE)
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")
    t.ev("game_started", JUDGE, game_index=2)  # replaces game 2: the game before it is game 1
    selections(t)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player=A,
           says="alice went first in the previous game; with next_game_first_player = alternate (DB-RUL-30) bob goes first, not alice")
    offered = [a for a in GAME.legal(t.state) if a.type == "first_player_decided"]
    assert [a.choices["first_player"].values for a in offered] == [(B,)]
    t.ev("first_player_decided", JUDGE, first_player=B)


def test_db_rul_30_alternate_after_a_game_voided_in_its_setup():
    t = started(options={"match_games": 3, "next_game_first_player": "alternate"})
    t.ev("concede", B, player=B)
    t.ev("game_started", JUDGE, game_index=2)
    t.ev("void_game", JUDGE, reason="bob's deck holds 53 cards")  # before anyone went first
    t.ev("game_started", JUDGE, game_index=2)
    selections(t)
    refuse(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", JUDGE, first_player=A, says="bob goes first")
    t.ev("first_player_decided", JUDGE, first_player=B)
