"""DemonBrave through the match service and a store: a golden match's accepted lines import,
verify (hash chain and re-adjudication from scratch) and fold to the same state; refused actions
are recorded beside the log; a new match with deck lists starts from ``MatchService.new``."""

from __future__ import annotations

import json

import msgspec
import pytest

from adjudicator.games.demonbrave.cards import ALL_CARDS
from adjudicator.service import MatchService
from events.memory import MemoryStore
from tests.demonbrave.replay import FIXTURES, Replay


@pytest.mark.parametrize("name", ["ex04-blocks", "ex09-chain-order", "ex14-d-correction", "ex14-e-rewind-and-replay", "ex14-f-void-game"])
def test_golden_match_imports_verifies_and_exports(name):
    r = Replay(name)
    accepted = [json.dumps(r.lines[v.line - 1]) for v in r.report.verdicts if v.accepted]
    svc = MatchService(MemoryStore())
    match = svc.import_lines(accepted, match_id=name)
    assert msgspec.json.encode(match.state) == msgspec.json.encode(r.state)
    again = svc.verify(name)
    assert msgspec.json.encode(again.state) == msgspec.json.encode(r.state)
    exported = svc.export_lines(name)
    other = MatchService(MemoryStore()).import_lines(exported)
    assert msgspec.json.encode(other.state) == msgspec.json.encode(r.state)


def test_new_match_with_decks_and_a_refused_action_recorded():
    store = MemoryStore()
    svc = MatchService(store)
    deck = list(ALL_CARDS)
    v = svc.new("demonbrave", ["alice", "bob"], setup={"decks": {"alice": deck, "bob": deck}}, match_id="m1")
    assert v.accepted and v.match.state.player("alice").deck_registered == tuple(deck)
    for type_, by, fields in [
        ("rule_cards_selected", "alice", {"rule_cards": ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]}),
        ("rule_cards_selected", "bob", {"rule_cards": ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]}),
        ("first_player_decided", "judge", {"first_player": "bob"}),
        ("opening_hands_drawn", "judge", {}),
    ]:
        assert svc.submit("m1", type_, by, fields).accepted
    v = svc.submit("m1", "play_card", "alice", {"card": "S3"})
    assert not v.accepted and (v.violation.rule_id, v.violation.code) == ("DB-TURN-9", "NOT_TURN_PLAYER")
    assert v.match.head == 5
    v = svc.submit("m1", "draw", "bob", {"count": "1"}, strict=False)  # command-line strings convert
    assert v.accepted is False and v.violation.code == "WRONG_PHASE"


def test_fixture_files_are_plain_match_files():
    for path in FIXTURES.glob("ex*.jsonl"):
        first = json.loads(path.read_text().splitlines()[0])
        assert first["type"] == "match_started" and first["game"] == "demonbrave" and first["players"] == ["alice", "bob"]
