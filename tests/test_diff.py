"""``adj diff`` and the wording of changes (adjudicator/presentation/changes.py): per player and zone, in the
table's words, derived from the board model so every game that draws its table gets it."""

from __future__ import annotations

import glob
import json

import pytest

from adjudicator.presentation.changes import board_changes, step_changes
from adjudicator.engine.kit import Board, BoardCard, Zone
from adjudicator.service import MatchService, MemoryStore
from events.sqlite import SQLiteStore
from tests.test_cli import Adj, fails, ok
from tests.test_page import enter

BACDEF = "fixtures/bacdef/demo-contradiction.jsonl"
DEMONBRAVE = "fixtures/demonbrave/golden/ex03-single-vs-single.jsonl"


@pytest.fixture
def adj(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("import", BACDEF, "--id", "b"))
    with SQLiteStore(adj.path) as store:  # entered line by line: the example has a rejected attempt
        enter(MatchService(store), DEMONBRAVE, "d")
    return adj


def test_diff_bacdef_per_player_and_zone(adj):
    lines = ok(adj("diff", "b", "4", "12")).stdout.splitlines()
    assert lines[0] == "b: after seq 4 -> after seq 12"
    assert lines[1:4] == ["alice:", "  discard:", "    alice-3 moved from alice's hand to alice's discard"]
    assert "    bob-2 moved from bob's guards to bob's discard" in lines
    assert "  bob D 0 -> 2" in lines and "  bob guard slots 1:U 2:U -> 1:U 2:X" in lines
    table = lines[lines.index("table:"):]
    assert table == ["table:", "  turn: alice -> bob", "  phase: set 1, turn 1: Standby step -> set 1, turn 2: Standby step",
                     "  waiting for alice to place a field card"]


def test_diff_as_a_player_shows_only_what_they_see(adj):
    judge = ok(adj("diff", "b", "4", "13")).stdout
    bob = ok(adj("diff", "b", "4", "13", "--as", "bob")).stdout
    assert "alice-5" in judge and "alice-5" not in bob  # face down on her field: only its count moves
    assert "    alice's hand: 5 -> 3 cards" in bob.splitlines()
    assert "    alice's field: 0 -> 1 cards" in bob.splitlines()


def test_diff_demonbrave_life_and_trash(adj):
    lines = ok(adj("diff", "d", "29", "37")).stdout.splitlines()
    assert "    H9 moved from alice's field to alice's trash" in lines
    assert "    JK2 moved from bob's field to bob's trash" in lines
    assert "    DK in bob's field turned sideways" in lines


def test_diff_json_for_tools(adj):
    data = json.loads(ok(adj("diff", "d", "30", "31", "--json")).stdout)
    assert (data["match_id"], data["from"], data["to"], data["as"]) == ("d", 30, 31, None)
    assert {"kind": "moved", "player": "alice", "zone": "trash", "card": "H9", "from": "alice's field",
            "to": "alice's trash", "text": "H9 moved from alice's field to alice's trash"} in data["changes"]
    assert {"kind": "note", "player": None, "zone": None, "card": None, "from": "attack: bob's DK → alice's H9, declared",
            "to": None, "text": "over: attack: bob's DK → alice's H9, declared"} in data["changes"]


def test_diff_of_a_point_with_itself_and_bad_seqs(adj):
    ok(adj("diff", "b", "7", "7"), "b: after seq 7 -> after seq 7\nno change on the table\n")
    fails(adj("diff", "b", "7", "999"), 2, "error: Invalid value for B: b has events 1 to 112, not 999\n")
    fails(adj("diff", "b", "0", "7"), 2, "error: Invalid value for A: b has events 1 to 112, not 0\n")
    carol = ok(adj("diff", "b", "4", "13", "--as", "carol")).stdout.splitlines()  # a spectator
    assert carol[0] == "b: after seq 4 -> after seq 13, as carol (spectator)"
    assert "    alice's hand: 5 -> 3 cards" in carol and "    bob's hand: 5 -> 4 cards" in carol and "bob-3" not in str(carol)


def test_replay_words_each_step_like_diff(adj):
    lines = ok(adj("replay", "d", "--from", "31", "--to", "31")).stdout.splitlines()
    assert lines[1:3] == ["        H9 moved from alice's field to alice's trash",
                          "        over: attack: bob's DK → alice's H9, declared"]
    data = json.loads(ok(adj("replay", "d", "--from", "31", "--to", "31", "--json")).stdout)
    assert [w["text"] for w in data["history"][0]["words"]] == [line.strip() for line in lines[1:3]]


def test_words_for_faces_counters_and_groups():
    card = BoardCard(id="c1", label="C1")
    z = lambda *cards, name="field", count=None: Zone(name=name, owner="ann", cards=cards, count=count)  # noqa: E731
    before = Board(players=("ann",), counters={"ann": {"life": 5}}, zones=(z(card),), turn="ann", phase="MAIN")
    after = Board(players=("ann",), counters={"ann": {"life": 4}},
                  zones=(z(BoardCard(id="c1", label="C1", face_up=False, turned=True, counters={"damage": 2}, group="P1")),),
                  turn="ann", phase="END")
    assert [c.text for c in board_changes(before, after)] == [
        "ann life 5 -> 4",
        "c1 in ann's field turned face down",
        "c1 in ann's field turned sideways",
        "c1 in ann's field: damage 0 -> 2",
        "c1 in ann's field joined P1",
        "phase: MAIN -> END",
    ]
    assert board_changes(after, after) == []
    hidden = Board(players=("ann",), zones=(z(name="deck", count=40),))
    fewer = Board(players=("ann",), zones=(z(name="deck", count=39),))
    assert [c.text for c in board_changes(hidden, fewer)] == ["ann's deck: 40 -> 39 cards"]


def test_words_for_a_card_in_a_zone_that_did_not_change_and_in_one_that_did():
    """Only the cards of zones that changed are followed, but each of them wherever it is: a copy
    left in an unchanged zone still pairs with its own place, and the other copy is the one that
    moved. Two zones of one name: every card is followed."""
    def z(name, *ids):
        return Zone(name=name, owner="ann", cards=tuple(BoardCard(id=i, label=i) for i in ids))

    before = Board(players=("ann",), zones=(z("trash", "x", "y"), z("hand", "x", "k"), z("field")))
    after = Board(players=("ann",), zones=(z("trash", "x", "y"), z("hand", "k"), z("field", "x")))
    assert [c.text for c in board_changes(before, after)] == ["x moved from ann's hand to ann's field"]
    twice = Board(players=("ann",), zones=(z("hand", "x"), z("hand", "k")))
    once = Board(players=("ann",), zones=(z("hand", "x"), z("hand", "k", "x")))
    assert [c.text for c in board_changes(twice, once)] == ["x came into ann's hand"]
    assert board_changes(once, once) == []


@pytest.mark.parametrize("path", sorted(glob.glob("fixtures/bacdef/golden/*.jsonl")) + [BACDEF])
def test_bacdef_judge_sees_cards_move_never_appear_within_a_set(path):
    """Every BACDEF card is on the table from the start of its set: between two events of one set
    the judge's words only move, turn or count cards; nothing comes from nowhere."""
    service = MatchService(MemoryStore())
    with open(path, encoding="utf-8") as fh:
        match = service.check_lines(fh.read().splitlines()).match
    game, history = match.game, match.fold.history
    for seq in sorted(history)[1:]:
        before, after = history[seq - 1], history[seq]
        if before.set is None or after.set is None or len(before.set.cards) != len(after.set.cards):
            continue  # a deck registered, or a new set: its cards come to the table
        kinds = {c.kind for c in step_changes(game, history, seq)}
        assert not kinds & {"entered", "left"}, (path, seq)


def test_a_players_words_never_name_a_card_they_cannot_see():
    service = MatchService(MemoryStore())
    match = enter(service, BACDEF, "b")
    game, history = match.game, match.fold.history
    for seq in sorted(history)[1:]:
        seen = {c.id for z in game.board(history[seq], "bob").zones for c in z.cards if c.id}
        seen |= {c.id for z in game.board(history[seq - 1], "bob").zones for c in z.cards if c.id}
        for c in step_changes(game, history, seq, "bob"):
            assert c.card is None or c.card in seen, (seq, c)
