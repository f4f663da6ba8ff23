"""Who may enter what (DB-ACT-1, DB-ACT-4...6, DB-RWD-2, §5.1; rulings R-DB-9 and R-DB-18 of
docs/games/demonbrave.md): someone outside the match is refused for every event, the judge's
events and the judge-only setup events are refused to a player, and nothing is written."""

from __future__ import annotations

import pytest

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.games.demonbrave import GAME
from adjudicator.engine.protocol import Violation
from tests.demonbrave.builder import JUDGE, RULE_CARDS, Table
from tests.test_cli import Adj

A, B, M = "alice", "bob", "mallory"


def refused(t: Table, rule: str, code: str, type_: str, by: str, says: str, **fields) -> None:
    before, head = t.state, t.seq
    with pytest.raises(Violation) as err:
        t.fold.preview(decode_event(GAME, type_, by, fields), head + 1)
    assert (err.value.rule_id, err.value.code) == (rule, code), err.value
    assert says in err.value.message, err.value.message
    assert t.state == before and t.seq == head


def selected() -> Table:
    t = Table()
    t.ev("rule_cards_selected", A, rule_cards=RULE_CARDS)
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    return t


# -- match_started (DB-ACT-1) -----------------------------------------------------------------
def start(by: str):
    fields = {"game": "demonbrave", "players": [A, B]}
    return Fold(GAME, "m").advance(decode_event(GAME, "match_started", by, fields), 1)


def test_db_act_1_match_started_by_someone_outside_the_match():
    with pytest.raises(Violation) as err:
        start(M)
    assert (err.value.rule_id, err.value.code) == ("DB-ACT-1", "ILLEGAL_ACTION")
    assert "'mallory' is neither a player of this match (alice, bob) nor the judge" in err.value.message


@pytest.mark.parametrize("by", [JUDGE, A, B])
def test_db_act_1_match_started_by_the_judge_or_a_player(by):
    s = start(by)
    assert (s.status, s.names, s.players[0].life) == ("SETUP", (A, B), 5)


# -- the judge-only setup events (DB-ACT-4, DB-ACT-5, DB-ACT-6) --------------------------------
def test_db_act_4_first_player_decided_by_a_player():
    t = selected()
    refused(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", A, "only the judge enters the first player", first_player=A)
    refused(t, "DB-ACT-4", "ILLEGAL_ACTION", "first_player_decided", M, "'mallory' is neither a player", first_player=A)
    t.ev("first_player_decided", JUDGE, first_player=A)
    assert t.state.first_player == A


def test_db_act_5_decks_shuffled_by_a_player():
    t = selected()
    t.ev("first_player_decided", JUDGE, first_player=A)
    refused(t, "DB-ACT-5", "ILLEGAL_ACTION", "decks_shuffled", B, "only the judge enters decks_shuffled")
    refused(t, "DB-ACT-5", "ILLEGAL_ACTION", "decks_shuffled", M, "'mallory' is neither a player")
    t.ev("decks_shuffled", JUDGE)


def test_db_act_6_opening_hands_drawn_by_a_player():
    t = selected()
    t.ev("first_player_decided", JUDGE, first_player=A)
    refused(t, "DB-ACT-6", "ILLEGAL_ACTION", "opening_hands_drawn", A, "only the judge enters opening_hands_drawn")
    refused(t, "DB-ACT-6", "ILLEGAL_ACTION", "opening_hands_drawn", M, "'mallory' is neither a player")
    t.ev("opening_hands_drawn", JUDGE)
    assert (t.state.status, t.state.turn_player) == ("IN_PROGRESS", A)


def test_db_act_2_and_db_act_3_outsider_refused_players_accepted():
    from adjudicator.games.demonbrave.cards import ALL_CARDS

    t = Table()
    refused(t, "DB-ACT-2", "ILLEGAL_ACTION", "deck_registered", M, "'mallory' is neither a player", player=A, cards=list(ALL_CARDS))
    refused(t, "DB-ACT-3", "ILLEGAL_ACTION", "rule_cards_selected", M, "'mallory' is neither a player", rule_cards=RULE_CARDS)
    t.ev("deck_registered", A, player=A, cards=list(ALL_CARDS))
    t.ev("rule_cards_selected", B, rule_cards=RULE_CARDS)
    assert t.state.player(B).selected and t.state.player(A).deck_registered == ALL_CARDS


# -- the judge's events (DB-RWD-2) -------------------------------------------------------------
@pytest.mark.parametrize("type_, fields", [
    ("judge_adjust", {"ops": [{"op": "NOTE", "text": "x"}], "reason": "x"}),
    ("declare_result", {"outcome": "DRAW", "reason": "x"}),
    ("void_game", {"reason": "x"}),
    ("rewind", {"to_seq": 2, "reason": "x"}),
    ("correct", {"at_seq": 6, "event": {"type": "play_card", "by": A, "card": "S3"}, "reason": "x"}),
])
def test_db_rwd_2_judge_events_by_someone_outside_the_match(type_, fields):
    t = Table().setup(first=A)
    t.play("S3")
    refused(t, "DB-RWD-2", "JUDGE_ONLY", type_, M, "only the judge may enter", **fields)


# -- through the command line ------------------------------------------------------------------
def test_adj_new_and_act_refuse_authors_and_write_nothing(tmp_path):
    adj = Adj(tmp_path / "store.sqlite3")
    r = adj("new", "demonbrave", "--player", A, "--player", B, "--id", "g", "--by", M)
    assert r.exit_code == 1 and "DB-ACT-1" in r.stderr and "mallory" in r.stderr, r.stderr
    assert adj.match_ids() == []
    r = adj("new", "demonbrave", "--player", A, "--player", B, "--id", "g", "--by", A)
    assert r.exit_code == 0 and r.stdout == "g\n"
    for who in (A, B):
        assert adj("act", "g", "rule_cards_selected", f"rule_cards=[{','.join(RULE_CARDS)}]", "--by", who).exit_code == 0
    for who, rule in ((A, "DB-ACT-4"), (M, "DB-ACT-4")):
        r = adj("act", "g", "first_player_decided", "first_player=alice", "--by", who)
        assert r.exit_code == 1 and rule in r.stderr, r.stderr
    assert adj.head("g") == 3
    assert adj("act", "g", "first_player_decided", "first_player=alice", "--by", JUDGE).exit_code == 0
    assert adj.head("g") == 4
