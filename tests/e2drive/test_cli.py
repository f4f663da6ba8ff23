"""E2Drive through the command line: deck checks, a golden match checked, a match played with
``adj act`` and its ``legal``, ``state --as`` and ``explain``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2drive.builder import DECK, SERVANTS_A, SERVANTS_B
from tests.test_cli import Adj, fails, ok

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive"


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def test_deck_check_lists_every_violation_with_its_rule(adj, tmp_path):
    ok(adj("deck", "check", "e2drive", str(FIX / "deck-a.sample.json")), "ok\n")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"deck": DECK[:29], "servants": ["F-Alpha", "F-Alpha", "F-Beta"]}))
    result = adj("deck", "check", "e2drive", str(bad), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [v["rule"] for v in data["violations"]] == ["E2D-DECK-6", "E2D-DECK-10"]


def test_check_a_golden_match(adj):
    result = adj("check", str(FIX / "golden" / "ex05b-limited-change.jsonl"), "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["outcome"]["status"] == "won" and data["outcome"]["winner"] == "P2"


def test_a_match_at_the_table(adj, tmp_path):
    cat = tmp_path / "catalog.json"
    cat.write_text((FIX / "catalog.sample.json").read_text())
    regs = {"alice": {"deck": DECK, "servants": SERVANTS_A}, "bob": {"deck": DECK, "servants": SERVANTS_B}}
    ok(adj("new", "e2drive", "--player", "alice", "--player", "bob", "--id", "g", "--setup", f"catalog=@{cat}",
           "--setup", "registrations=" + json.dumps(regs)))
    ok(adj("act", "g", "game_started", "--by", "judge"))
    ok(adj("act", "g", "start_turn", "--by", "judge"))
    legal = json.loads(ok(adj("legal", "g", "--json")).stdout)["actions"]
    assert {(a["who"], a["type"]) for a in legal} >= {("alice", "attack"), ("alice", "end_action"), ("bob", "play_quick_tool")}
    ok(adj("act", "g", "attack", "attacker=P1.S3", "target=P2.S1", 'payment=[{"pool":"P1.S3","n":1}]', "--by", "alice"))
    ok(adj("act", "g", "defense", "defend=true", 'payment=[{"pool":"P2.S1","n":1}]', "--by", "bob"))
    state = json.loads(ok(adj("state", "g", "--json")).stdout)["state"]
    assert state["servants"]["P2.S1"]["damage"] == 30 and state["acting"] == "P1.S1"  # F-Sigma 40 − F-Beta 10
    bobs = json.loads(ok(adj("state", "g", "--as", "bob", "--json")).stdout)["state"]
    assert list(bobs["registrations"]) == ["P2"]
    result = adj("act", "g", "attack", "attacker=P1.S3", "target=P2.S1", 'payment=[{"pool":"P1.S3","n":1}]', "--by", "alice")
    assert result.exit_code == 1 and "E2D-LIM-2" in result.stderr
    explained = json.loads(ok(adj("explain", "g", "P1.S1", "P2.S2", "--json")).stdout)
    assert explained["attack"]["cases"]["with_def"]["target_damage"] == 10  # ATK 50 vs DEF 60: mutual 10D


def test_new_with_deck_files_maps_them_to_registrations(adj):
    """`adj new --deck PLAYER=FILE` takes E2Drive's registration files into
    match_started.registrations (E2D-ACT-10), as the documentation starts a match."""
    deck_a, deck_b = json.loads((FIX / "deck-a.sample.json").read_text()), json.loads((FIX / "deck-b.sample.json").read_text())
    out = json.loads(ok(adj("new", "e2drive", "--player", "alice", "--player", "bob", "--id", "g",
                            "--deck", f"alice={FIX / 'deck-a.sample.json'}", "--deck", f"bob={FIX / 'deck-b.sample.json'}",
                            "--catalog", str(FIX / "catalog.sample.json"), "--json")).stdout)
    fields = out["event"]["fields"]
    assert "decks" not in fields
    assert fields["registrations"] == {"alice": {"deck": deck_a["deck"], "servants": deck_a["servants"]},
                                       "bob": {"deck": deck_b["deck"], "servants": deck_b["servants"]}}
    ok(adj("act", "g", "game_started", "--by", "judge"))
    state = json.loads(ok(adj("state", "g", "--as", "alice", "--json")).stdout)["state"]
    assert state["registrations"] == {"P1": {"deck": deck_a["deck"], "servants": deck_a["servants"]}}
    assert [state["servants"][r]["name"] for r in ("P1.S1", "P1.S2", "P1.S3")] == deck_a["servants"]
    assert (state["player"]["P1"]["deck"], state["player"]["P1"]["hand"], state["status"]) == (25, 5, "in_progress")


def test_new_with_a_deck_file_missing_its_servants_is_refused_by_e2d_deck_9(adj, tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(DECK))
    result = adj("new", "e2drive", "--player", "alice", "--player", "bob", "--deck", f"alice={plain}",
                 "--deck", f"bob={FIX / 'deck-b.sample.json'}", "--catalog", str(FIX / "catalog.sample.json"))
    assert result.exit_code == 1 and result.stderr.startswith("E2D-DECK-9: ") and adj.match_ids() == []


def test_new_with_decks_given_twice(adj):
    regs = {"alice": {"deck": DECK, "servants": SERVANTS_A}, "bob": {"deck": DECK, "servants": SERVANTS_B}}
    fails(adj("new", "e2drive", "--player", "alice", "--player", "bob", "--deck", f"alice={FIX / 'deck-a.sample.json'}",
              "--setup", "registrations=" + json.dumps(regs), "--catalog", str(FIX / "catalog.sample.json")), 2,
          "error: Invalid value: give the decks either with --deck or with --setup registrations=, not both\n")



def test_state_and_act_speak_the_tables_words(adj):
    """Issue 26: `adj state --as P` shows P's own hand (to P only), `adj act` says what changed in
    the table's words, and nothing is printed twice."""
    ok(adj("new", "e2drive", "--player", "alice", "--player", "bob", "--id", "g",
           "--deck", f"alice={FIX / 'deck-a.sample.json'}", "--deck", f"bob={FIX / 'deck-b.sample.json'}",
           "--catalog", str(FIX / "catalog.sample.json")))
    hands = {"alice": ["F-Tool-1", "F-Gear", "F-Mu", "F-Mu", "F-Delta"], "bob": ["F-Quick-1", "F-Tool-3", "F-Gear", "F-Mu", "F-Gamma"]}
    ok(adj("act", "g", "game_started", "draws=" + json.dumps(hands), "--by", "judge"))
    out = ok(adj("act", "g", "start_turn", "--by", "judge")).stdout.splitlines()
    assert "  alice's hand: 5 -> 6 cards" in out and not [line for line in out if "alice hand" in line or "alice deck" in line]
    alice = ok(adj("state", "g", "--as", "alice")).stdout.splitlines()
    assert alice[3] == "P1 alice: deck 24, hand 6 (F-Delta, F-Gear, F-Mu, F-Mu, F-Tool-1 and 1 unknown), damage cards 0, master ether 0/2 on, upkeep due 0"
    assert alice[7] == "P2 bob: deck 24, hand 6, damage cards 0, master ether 0/2 on, upkeep due 0"
    bob = ok(adj("state", "g", "--as", "bob")).stdout.splitlines()
    assert bob[3].startswith("P1 alice: deck 24, hand 6, ") and bob[7].startswith("P2 bob: deck 24, hand 6 (F-Gamma, F-Gear, F-Mu, F-Quick-1, F-Tool-3 and 1 unknown)")
    assert alice[2] == "turn 1, main phase; acting: P1.S3; waiting for alice to act with P1.S3"
    out = ok(adj("act", "g", "attack", "attacker=P1.S3", "target=P2.S1", 'payment=[{"pool":"P1.S3","n":1}]', "--by", "alice")).stdout
    assert out.splitlines()[1:] == ["  P1.S3 ATKs P2.S1", "  F-Sigma in alice's servants: ether on 0 -> 1", "  waiting for P2.S1's DEF decision",
                                    "  ATK: P1.S3 → P2.S1, paying P1.S3×1", "now: main phase", "to move: bob"]
    out = ok(adj("act", "g", "rewind", "to_seq=3", "reason=the ATK was a mis-entry", "--by", "judge")).stdout.splitlines()
    assert out[1:3] == ["  rewind to seq 3: the ATK was a mis-entry", "  F-Sigma in alice's servants: ether on 1 -> 0"]
    assert "  P1.S3 (F-Sigma) acts" not in out  # the note of seq 3, said when it was entered
    ok(adj("act", "g", "attack", "attacker=P1.S3", "target=P2.S1", 'payment=[{"pool":"P1.S3","n":1}]', "--by", "alice"))
    out = ok(adj("act", "g", "concede", "player=bob", "--by", "bob")).stdout.splitlines()
    assert out[1:] == ["  P2 loses: concession", "  P1 wins", "  ── won by alice; concession", "  game 1: won by alice (concession)",
                       "  over: ATK: P1.S3 → P2.S1, paying P1.S3×1", "now: main phase"]
    assert ok(adj("state", "g")).stdout.splitlines()[1] == "E2Drive game 1: won by alice (concession)"
