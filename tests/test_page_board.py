"""The board model of BACDEF and DemonBrave (``Game.board``): every card in one place, zone sizes
as the state says, and a player's board holding nothing the player may not see."""

from __future__ import annotations

import glob
from collections import Counter

import pytest

from adjudicator.engine.kit import Board
from adjudicator.service import MatchService, MemoryStore

BACDEF_DEMO = "fixtures/bacdef/demo-contradiction.jsonl"
FIXTURES = sorted(glob.glob("fixtures/bacdef/golden/*.jsonl")) + sorted(glob.glob("fixtures/demonbrave/golden/*.jsonl")) + [BACDEF_DEMO]


def checked(path: str):
    with open(path, encoding="utf-8") as fh:
        return MatchService(MemoryStore()).check_lines(fh.read().splitlines()).match


def ids(board: Board) -> Counter:
    return Counter(c.id for z in board.zones for c in z.cards if c.id is not None)


def zone(board: Board, owner: str | None, name: str):
    return next(z for z in board.zones if z.owner == owner and z.name == name)


def size(z) -> int:
    return z.count if z.count is not None else len(z.cards)


@pytest.mark.parametrize("path", FIXTURES)
def test_a_players_board_shows_no_card_the_judge_does_not_and_the_same_zone_sizes(path):
    match = checked(path)
    game = match.game
    for seq, st in match.fold.history.items():
        judge = game.board(st, None)
        for p in match.players:
            mine = game.board(st, p)
            assert not ids(mine) - ids(judge), (seq, p)
            assert [(z.owner, z.name, size(z)) for z in mine.zones] == [(z.owner, z.name, size(z)) for z in judge.zones], (seq, p)
            assert (mine.turn, mine.phase, mine.counters) == (judge.turn, judge.phase, judge.counters)


def test_bacdef_board_every_card_in_one_zone_and_hidden_faces_without_id():
    match = checked(BACDEF_DEMO)
    game = match.game
    st = match.fold.state_at(5)  # alice placed alice-3 face down on her field
    judge = game.board(st, None)
    assert ids(judge) == Counter({f"{p}-{n}": 1 for p in ("alice", "bob") for n in range(1, 8)})
    assert [c.id for c in zone(judge, "alice", "field").cards] == ["alice-3"]
    assert zone(judge, "alice", "field").cards[0].face_up is False
    assert zone(judge, "alice", "hand").count == 4
    assert [c.tags for c in zone(judge, "alice", "guards").cards] == [("slot 1", "U"), ("slot 2", "U")]
    bob = game.board(st, "bob")
    hidden = zone(bob, "alice", "field").cards[0]
    assert (hidden.id, hidden.label, hidden.face_up) == (None, None, False)
    assert zone(bob, "alice", "hand").cards == () and zone(bob, "alice", "hand").count == 4
    assert "alice-3" not in ids(bob) and "alice-1" not in ids(bob)  # her face-down guards and field card
    assert judge.turn == "alice" and judge.phase == "set 1, turn 1: Standby step"
    assert judge.waiting == "bob to place a field card"
    assert judge.counters["alice"]["D"] == 0 and judge.counters["bob"]["sets won"] == 0


def test_bacdef_board_damage_turns_a_guard_and_destroys_it_into_the_discard():
    match = checked(BACDEF_DEMO)
    game = match.game
    before, after = game.board(match.fold.state_at(9), None), game.board(match.fold.state_at(10), None)
    assert [c.id for c in zone(before, "bob", "guards").cards] == ["bob-7", "bob-2"]
    assert [c.id for c in zone(after, "bob", "guards").cards] == ["bob-7"]  # slot 2 took 2 points: X
    assert "bob-2" in [c.id for c in zone(after, "bob", "discard").cards]
    assert after.counters["bob"]["D"] == 2 and after.counters["bob"]["guard slots"] == "1:U 2:X"


def test_demonbrave_board_counts_as_the_state_says_and_pairs_grouped():
    match = checked("fixtures/demonbrave/golden/ex07-pair-vs-pair.jsonl")
    game = match.game
    for seq, st in match.fold.history.items():
        b = game.board(st, None)
        for p in st.players:
            assert size(zone(b, p.name, "deck")) == p.deck_count
            assert size(zone(b, p.name, "hand")) == p.hand_count
            assert [c.id for c in zone(b, p.name, "trash").cards] == list(p.trash)
            field = zone(b, p.name, "field").cards
            assert [c.id for c in field] == [c for u in p.field for c in u.cards]
            assert [c.group for c in field] == [u.unit_id if u.is_pair else None for u in p.field for _ in u.cards]
            assert b.counters[p.name]["life"] == p.life
        assert b.turn == (st.turn_player or "")
    paired = [c for st in match.fold.history.values() for c in zone(game.board(st, None), "alice", "field").cards if c.group]
    assert paired, "the example forms a pair"


def test_demonbrave_rule_cards_hidden_until_both_selected_DB_HID_1():
    match = checked("fixtures/demonbrave/golden/ex01-opening.jsonl")
    game = match.game
    st = match.fold.state_at(2)  # alice selected, bob not yet
    alice_for_bob = zone(game.board(st, "bob"), "alice", "rule cards")
    assert alice_for_bob.cards == () and alice_for_bob.count == 5
    assert len(zone(game.board(st, "alice"), "alice", "rule cards").cards) == 5
    st = match.fold.state_at(3)
    assert len(zone(game.board(st, "bob"), "alice", "rule cards").cards) == 5
