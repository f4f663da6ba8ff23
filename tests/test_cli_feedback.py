"""After every accepted action the table hears what it did: the results it decided, what changed
(public facts only) and the phase now, through the game kit's generic hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.presentation.changes import step_changes
from adjudicator.presentation.render import PUBLIC, diff, plain
from adjudicator.service import MatchService, MemoryStore
from tests.test_cli import Adj, ok

ROOT = Path(__file__).resolve().parent.parent
BACDEF = ROOT / "fixtures/bacdef/demo-contradiction.jsonl"
DEMONBRAVE = ROOT / "fixtures/demonbrave/golden/ex08-double-reversal.jsonl"


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "s.sqlite3")


def start_from(adj, tmp_path, source: Path, lines: int, match_id: str) -> None:
    part = tmp_path / f"{match_id}.jsonl"
    part.write_text("".join(source.read_text().splitlines(keepends=True)[:lines]))
    ok(adj("import", str(part), "--id", match_id))


def test_bacdef_the_end_phase_that_ends_a_set_announces_the_set(adj, tmp_path):
    start_from(adj, tmp_path, BACDEF, 44, "b")
    out = ok(adj("act", "b", "confirm_end_phase", "--by", "judge")).stdout.splitlines()
    assert out[0] == "b seq 45  judge  confirm_end_phase"
    assert out[1] == ("  ── set 1: won by bob — alice had no guard left and took damage (turn 6); "
                      "match alice 0 - 1 bob")
    assert out[-1] == "to move: alice, bob" and "  alice D 5 -> 0" in out  # the table's words (Game.board)


def test_bacdef_a_conceded_set_announces_the_set_and_the_match(adj, tmp_path):
    start_from(adj, tmp_path, BACDEF, 45, "b")
    data = json.loads(ok(adj("act", "b", "concede_set", "player=alice", "--by", "alice", "--json")).stdout)
    assert data["milestones"] == ["set 2: won by bob — alice conceded set 2; match alice 0 - 2 bob",
                                  "match won by bob (alice 0 - 2 bob)"]
    assert (data["outcome"]["status"], data["outcome"]["winner"]) == ("won", "bob")
    text = ok(adj("log", "b")).stdout  # the same words in the history
    assert "── match won by bob (alice 0 - 2 bob)" in text


def test_demonbrave_each_advance_says_the_phase_it_leaves_and_enters(adj, tmp_path):
    start_from(adj, tmp_path, DEMONBRAVE, 21, "d")
    # the game's own note first (Game.notes), then the phase it leaves and enters
    assert ok(adj("act", "d", "advance_phase", "--by", "alice")).stdout.splitlines()[:3] == [
        "d seq 22  alice  advance_phase", "  BATTLE → END: leaving BATTLE, no more attacks this turn",
        "  phase: game 1, turn 2: BATTLE phase -> game 1, turn 2: END phase"]
    assert ok(adj("act", "d", "advance_phase", "--by", "alice")).stdout.splitlines()[:5] == [
        "d seq 23  alice  advance_phase", "  turn 3: bob's DRAW phase; bob draws 5", "  turn: alice -> bob",
        "  phase: game 1, turn 2: END phase -> game 1, turn 3: DRAW phase", "  waiting for bob"]


def test_what_changed_is_said_in_public_terms_only(adj, tmp_path):
    """The changes are those of the view no player holds: a card drawn into a hand shows as a
    count, never as the card."""
    start_from(adj, tmp_path, BACDEF, 20, "b")
    match = MatchService(MemoryStore()).import_lines(BACDEF.read_text().splitlines()[:21], match_id="b")
    event = json.loads(BACDEF.read_text().splitlines()[20])
    fields = [f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in event.items() if k not in ("type", "by")]
    data = json.loads(ok(adj("act", "b", event["type"], *fields, "--by", event["by"], "--json")).stdout)
    public = diff(plain(match.game.view(match.fold.state_at(20), PUBLIC)), plain(match.game.view(match.state, PUBLIC)))
    assert data["changes"] == [c.to_json() for c in public]
    words = step_changes(match.game, match.fold.history, 21, PUBLIC)
    assert data["words"] == [w.to_json() for w in words]
