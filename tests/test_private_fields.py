"""Private fields of events (Game.private_fields, Game.redact) hidden from the players who may
not know them, in `adj log --as`, `adj replay --as` and `adj export --as` (BAC-HID-4, DB-HID-1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.engine import registry
from adjudicator.engine.kit import HIDDEN
from adjudicator.presentation.render import history, redacted
from adjudicator.service import MatchService, MemoryStore
from tests.test_cli import Adj, fails, ok

ROOT = Path(__file__).resolve().parent.parent
from tests.test_cli_bacdef import deck, placed  # noqa: F401  (fixtures)


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def test_redact_hides_a_private_field_from_everyone_but_its_owner_and_the_judge():
    game = registry.get("bacdef")
    fields = {"player": "alice", "card_ids": ["alice-1", "alice-2"]}
    players = ("alice", "bob")
    assert game.redact("place_guards", "alice", fields, "bob", players) == {"player": "alice", "card_ids": HIDDEN}
    assert game.redact("place_guards", "alice", fields, "alice", players) == fields
    assert game.redact("place_guards", "alice", fields, None, players) == fields
    assert game.redact("place_guards", "alice", fields, "judge", players) == fields
    # a field no rule makes private is shown to everyone
    assert game.redact("decide_first_player", "judge", {"first_player": "bob"}, "alice", players) == {"first_player": "bob"}


def test_a_correction_hides_the_private_fields_of_the_event_it_inserts():
    # BAC-HID-4: guards placed face down stay hidden when a correction inserts their placement,
    # although ``correct`` itself declares no private field
    game = registry.get("bacdef")
    players = ("alice", "bob")
    fields = {"at_seq": 3, "reason": "forgotten", "event": {"type": "place_guards", "by": "alice", "player": "alice",
                                                            "card_ids": ["alice-7", "alice-1"]}}
    assert game.redact("correct", "judge", fields, "bob", players) == {
        "at_seq": 3, "reason": "forgotten",
        "event": {"type": "place_guards", "by": "alice", "player": "alice", "card_ids": HIDDEN}}
    assert game.redact("correct", "judge", fields, "alice", players) == fields
    assert game.redact("correct", "judge", fields, None, players) == fields


def test_demonbrave_opening_hands_belong_to_their_seats():
    game = registry.get("demonbrave")
    fields = {"p1_cards": ["S3"], "p2_cards": ["H4"]}
    players = ("alice", "bob")
    assert game.redact("opening_hands_drawn", "judge", fields, "alice", players) == {"p1_cards": ["S3"], "p2_cards": HIDDEN}
    assert game.redact("opening_hands_drawn", "judge", fields, "bob", players) == {"p1_cards": HIDDEN, "p2_cards": ["H4"]}


def test_log_as_a_player_hides_the_opponents_guards_and_field_card(adj, placed):
    judge = ok(adj("log", "b")).stdout
    assert "card_ids=[alice-1,alice-2]" in judge and "card_id=alice-3" in judge
    bob = ok(adj("log", "b", "--as", "bob")).stdout
    assert "alice-1" not in bob and "alice-2" not in bob and "alice-3" not in bob
    assert "card_ids=[bob-1,bob-2]" in bob  # his own
    rows = json.loads(ok(adj("log", "b", "--as", "bob", "--json")).stdout)["history"]
    assert [r["fields"].get("card_ids") for r in rows if r["type"] == "place_guards"] == [HIDDEN, ["bob-1", "bob-2"]]


def test_a_refused_attempt_keeps_its_rule_but_not_a_message_quoting_a_hidden_card(adj, placed):
    fails(adj("act", "b", "place_field_card", "player=alice", "card_id=alice-4", "--by", "alice"), 1,
          "BAC-LIM-4: alice already placed a field card this turn; 'alice-4' stays in hand\n")
    rows = json.loads(ok(adj("log", "b", "--as", "bob", "--json")).stdout)["history"]
    refused = [{k: r[k] for k in ("kind", "head_seq", "by", "type", "fields", "rule", "message")}
               for r in rows if r["kind"] == "rejected"]
    assert refused == [{"kind": "rejected", "head_seq": 5, "by": "alice", "type": "place_field_card",
                        "fields": {"player": "alice", "card_id": HIDDEN}, "rule": "BAC-LIM-4", "message": HIDDEN}]
    mine = [r for r in json.loads(ok(adj("log", "b", "--as", "alice", "--json")).stdout)["history"] if r["kind"] == "rejected"]
    assert mine[0]["message"] == "alice already placed a field card this turn; 'alice-4' stays in hand"


def test_replay_as_a_player_hides_them_too(adj, placed):
    out = ok(adj("replay", "b", "--as", "bob")).stdout
    assert "alice-1" not in out and "alice-3" not in out


def test_export_as_a_player_is_a_view_without_hashes(adj, placed):
    lines = [json.loads(x) for x in ok(adj("export", "b", "--as", "bob")).stdout.splitlines()]
    assert [x["seq"] for x in lines] == [1, 2, 3, 4, 5]
    assert all("hash" not in x and "prev" not in x for x in lines)
    assert lines[1]["card_ids"] == HIDDEN and lines[2]["card_ids"] == ["bob-1", "bob-2"] and lines[4]["card_id"] == HIDDEN
    sealed = [json.loads(x) for x in ok(adj("export", "b")).stdout.splitlines()]
    assert sealed[1]["card_ids"] == ["alice-1", "alice-2"] and all("hash" in x for x in sealed)


def test_a_private_field_held_per_player_shows_each_player_their_own_entry():
    """PBW-HID-1: match_started's decks are a mapping keyed by player; a player sees their own
    entry, the others' are hidden, a spectator sees none and the judge sees all. Whoever entered
    match_started owns no more of it than their own entry."""
    game = registry.get("pbwcg")
    fields = {"game": "pbwcg", "players": ["P1", "P2", "P3"], "decks": {"P1": {"deck": ["A1"]}, "P2": {"deck": ["B1"]}, "P3": {"deck": ["C1"]}}}
    players = ("P1", "P2", "P3")
    assert game.redact("match_started", "P1", fields, "P2", players)["decks"] == {"P1": HIDDEN, "P2": {"deck": ["B1"]}, "P3": HIDDEN}
    assert game.redact("match_started", "P1", fields, "P1", players)["decks"] == {"P1": {"deck": ["A1"]}, "P2": HIDDEN, "P3": HIDDEN}
    assert game.redact("match_started", "P1", fields, "carol", players)["decks"] == {"P1": HIDDEN, "P2": HIDDEN, "P3": HIDDEN}
    assert game.redact("match_started", "P1", fields, "judge", players) == fields
    assert game.redact("match_started", "P1", fields, "P2", players)["players"] == ["P1", "P2", "P3"]


def test_bacdef_deck_lists_given_at_the_start_are_each_players_own_BAC_SETUP_1():
    game = registry.get("bacdef")
    players = ("alice", "bob")
    fields = {"game": "bacdef", "players": list(players), "decks": {"alice": ["A", "A", "B", "C", "D", "E", "F"],
                                                                   "bob": ["A", "B", "B", "C", "C", "D", "F"]}}
    assert game.redact("match_started", "judge", fields, "bob", players)["decks"] == {
        "alice": HIDDEN, "bob": ["A", "B", "B", "C", "C", "D", "F"]}
    assert game.redact("match_started", "judge", fields, "carol", players)["decks"] == {"alice": HIDDEN, "bob": HIDDEN}
    assert game.redact("match_started", "judge", fields, None, players) == fields


def test_a_refused_attempt_is_its_authors_and_the_judges_whatever_fields_the_game_declares_private(adj, tmp_path):
    """DemonBrave's play_card has no private field (a played card is seen by all), but a refused
    one leaves the card in alice's hand: bob, or a spectator, sees that alice tried to play a card
    and the rule that refused it, never which card, in the log, the replay and the desk page."""
    ok(adj("import", "fixtures/demonbrave/golden/ex08-double-reversal.jsonl", "--id", "t"))
    ok(adj("act", "t", "draw", "player=alice", "count=1", "cards=[S9]", "--by", "alice"))
    fails(adj("act", "t", "play_card", "card=S9", "--by", "alice"), 1,
          "DB-ACT-10: alice's play_card S9: cards are played only in the MAIN phase; it is the DRAW phase of turn 16\n")
    said = "alice's play_card S9: cards are played only in the MAIN phase; it is the DRAW phase of turn 16"
    for viewer in ("bob", "carol"):
        log = ok(adj("log", "t", "--as", viewer)).stdout
        assert "S9" not in log
        assert log.splitlines()[-2] == f'x      alice  play_card             card="{HIDDEN}"  [rejected: DB-ACT-10: {HIDDEN}]'
        (refused,) = [r for r in json.loads(ok(adj("log", "t", "--as", viewer, "--json")).stdout)["history"]
                      if r["kind"] == "rejected"]
        assert {k: refused[k] for k in ("by", "type", "head_seq", "rule", "code", "fields", "message")} == {
            "by": "alice", "type": "play_card", "head_seq": 102, "rule": "DB-ACT-10", "code": "WRONG_PHASE",
            "fields": {"card": HIDDEN, "player": None}, "message": HIDDEN}
        assert "S9" not in ok(adj("replay", "t", "--from", "100", "--as", viewer)).stdout
        ok(adj("replay", "t", "--as", viewer, "--html", str(tmp_path / f"{viewer}.html")))
        page = (tmp_path / f"{viewer}.html").read_text()
        assert "S9" not in page and "DB-ACT-10" in page
    for viewer in ("alice", "judge"):  # the author, told at the time, and the judge see it all
        log = ok(adj("log", "t", "--as", viewer)).stdout
        assert log.splitlines()[-2] == f"x      alice  play_card             card=S9  [rejected: DB-ACT-10: {said}]"


def test_demonbrave_rule_cards_are_hidden_in_the_log_until_both_are_recorded_DB_HID_1(tmp_path):
    """A private fact the game reveals (``Game.revealed``): alice's selection is hidden from bob in
    the history until his own is recorded, then shown to both (simultaneous reveal)."""
    lines = (ROOT / "fixtures/demonbrave/golden/ex08-double-reversal.jsonl").read_text().splitlines()
    service = MatchService(MemoryStore())
    service.import_lines(lines[:2], match_id="d")  # match_started, alice's selection
    alice_cards = ["J", "T-NEG", "T-REV", "T-BURN", "T-BOUNCE"]

    def selections(viewer):
        match = service.load("d")
        rows = redacted(history(match.events, match.fold.branches), match.game, match.players, viewer, match.state)
        return [r.fields["rule_cards"] for r in rows if r.type == "rule_cards_selected"]

    assert selections("bob") == [HIDDEN] and selections("alice") == [alice_cards] and selections(None) == [alice_cards]
    assert json.loads(service.export_lines("d", "bob")[1])["rule_cards"] == HIDDEN
    assert service.submit("d", "rule_cards_selected", "bob", {"rule_cards": alice_cards}).accepted
    assert selections("bob") == [alice_cards, alice_cards] and selections("carol") == [alice_cards, alice_cards]
    assert json.loads(service.export_lines("d", "bob")[1])["rule_cards"] == alice_cards
