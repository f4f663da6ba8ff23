"""What a viewer is told (`adj state --as`, `adj legal --as`) comes only from what that viewer
may know: per game, at every event of a recorded match, for each player and for a spectator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.presentation.render import plain, to_move
from adjudicator.service import MatchService, MemoryStore
from tests.test_cli import Adj, ok
from tests.test_import_stream import accepted_lines

ROOT = Path(__file__).resolve().parent.parent
MATCHES = {
    "bacdef": ROOT / "fixtures/bacdef/demo-contradiction.jsonl",
    "demonbrave": ROOT / "fixtures/demonbrave/golden/ex08-double-reversal.jsonl",
    "pbwcg": ROOT / "fixtures/pbwcg/golden/ex25-local-d.jsonl",  # three players, one of them out (PBW-RUL-47)
}


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_viewer_is_told_only_whether_they_are_to_move(game):
    match = MatchService(MemoryStore()).import_lines(accepted_lines(MATCHES[game]), match_id="t")
    assert match.game.name == game
    for seq, st in match.fold.history.items():
        if seq == 0:
            continue
        legal = match.game.legal(st)
        for viewer in (*match.players, "carol"):
            own = [a for a in legal if a.who == viewer and not a.anytime]
            assert to_move(legal, viewer) == ([viewer] if own else []), (seq, viewer)
        assert set(to_move(legal)) >= set(to_move(legal, match.players[0]))


def test_bacdef_fall_processing_does_not_tell_alice_that_bob_decides(tmp_path):
    """BAC-HID-4: at seq 30 bob's destroyed face-down guard is his F, and only he may decide
    on it; alice (and a spectator) see 'fall processing', never that bob is to move."""
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("import", str(MATCHES["bacdef"]), "--id", "t"))
    judge = json.loads(ok(adj("state", "t", "--at", "30", "--json")).stdout)
    assert judge["to_move"] == ["bob"]
    for viewer in ("alice", "carol"):
        text = ok(adj("state", "t", "--at", "30", "--as", viewer)).stdout
        assert "waiting for: the table — fall processing" in text
        assert "to move: bob" not in text and "bob to" not in text
        data = json.loads(ok(adj("state", "t", "--at", "30", "--as", viewer, "--json")).stdout)
        assert data["to_move"] == []
        assert ok(adj("legal", "t", "--as", viewer)).stdout.startswith(f"nothing is open for {viewer}")
    assert json.loads(ok(adj("state", "t", "--at", "30", "--as", "bob", "--json")).stdout)["to_move"] == ["bob"]


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_state_as_a_viewer_is_that_viewers_view(game, tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    lines = accepted_lines(MATCHES[game])  # a golden match holds refused lines too
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok(adj("import", str(tmp_path / "m.jsonl"), "--id", "t"))
    match = MatchService(MemoryStore()).import_lines(lines, match_id="t")
    for seq in (1, match.head // 2, match.head):
        for viewer in (*match.players, "carol"):
            data = json.loads(ok(adj("state", "t", "--at", str(seq), "--as", viewer, "--json")).stdout)
            assert data["state"] == plain(match.game.view(match.fold.state_at(seq), viewer))
            running = match.fold.outcome(seq).status == "in_progress"  # a decided match has no one to move
            assert data["to_move"] == (to_move(match.game.legal(match.fold.state_at(seq)), viewer) if running else [])


def test_a_players_log_hides_private_fields_and_the_hashes_that_would_betray_them(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("import", str(MATCHES["bacdef"]), "--id", "t"))
    judge = json.loads(ok(adj("log", "t", "--json")).stdout)["history"]
    bob = json.loads(ok(adj("log", "t", "--as", "bob", "--json")).stdout)["history"]
    assert len(judge) == len(bob)
    hidden = [(j, b) for j, b in zip(judge, bob) if j["fields"] != b["fields"]]
    assert hidden, "alice's guards are private in BACDEF"
    for j, b in hidden:
        assert b["kind"] == "event" and (b["prev"], b["hash"]) == (None, None)
        assert "(hidden)" in json.dumps(b["fields"])
    same = [b for j, b in zip(judge, bob) if j["fields"] == b["fields"] and b["kind"] == "event"]
    assert all(b["hash"] for b in same)
