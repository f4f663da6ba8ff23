"""What `adj act` says after each E2Drive event and what `adj state` shows, in the table's words
(issue 26): the changes come from the board (``board.py``), never from the view's key paths
(`player.P2.lost: null -> concession`) or its field names (`ether_on`, `master_on`), and no line is
said twice. Every event of every golden match is checked."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from adjudicator.games.e2drive.board import board
from adjudicator.presentation.render import PUBLIC, effect
from adjudicator.service import MatchService
from events.memory import MemoryStore
from tests.e2drive.builder import ev
from tests.e2drive.golden_kit import je, status
from tests.e2drive.harness import PAWNS, table

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive"
FILES = sorted((FIX / "golden").glob("*.jsonl")) + [FIX / "conformance.jsonl"]
#: the view's field names and values that are no table talk
CODE_WORDS = re.compile(r"ether_on|ether_held|master_on|master_size|upkeep_due|damage_cards|\bnull\b|^\s*[a-z_]+(\.[\w\[\]]+)+:")


def said(path: Path) -> list[tuple[int, list[str], bool]]:
    """Per accepted event: its seq, the lines `adj act` prints after it (the game's notes, then
    the effect), and whether the public view changed (beyond those notes: a rewind to a position
    the board draws alike changes only them) while the board said nothing."""
    match = MatchService(MemoryStore()).check_lines(path.read_text(encoding="utf-8").splitlines()).match
    assert match is not None
    out = []
    for seq in range(2, match.fold.head + 1):
        eff = effect(match.game, match.fold.history, seq)
        lines = [f"  {n}" for n in match.game.notes(match.fold.history[seq])] + eff.lines()
        changed = [c for c in eff.changes if not c.path.startswith("notes")]
        out.append((seq, lines, bool(changed) and not eff.words))
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_act_says_each_change_once_in_the_tables_words(path):
    for seq, lines, unworded in said(path):
        twice = [line for line, n in Counter(lines).items() if n > 1]
        assert twice == [], (seq, lines)
        assert [line for line in lines if CODE_WORDS.search(line)] == [], (seq, lines)
        assert not unworded, (seq, lines)  # the view changed: the board says how


def test_counts_are_zones_and_counters_are_the_tables():
    t = table(["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)
    b = msgspec.to_builtins(board(t.state, PUBLIC))
    assert b["counters"]["P1"] == {"master ether counters": 2, "master ether on": 0, "limited state": False, "upkeep due": 0}
    assert [(z["name"], z.get("count")) for z in b["zones"] if z["owner"] == "P1"] == [
        ("servants", None), ("tool field", None), ("damage cards", None), ("trash", None), ("deck", 24), ("hand", 6)]
    assert b["zones"][0]["cards"][0]["counters"] == {"damage": 0, "ether on": 0, "ether held": 0, "SPD": 50, "DUR": 60,
                                                     "ATK": 40, "DEF": 20}


def test_statuses_and_destruction_are_said_and_said_over():
    t = table(["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)
    t.enter(je(status("P2.S1", "freeze"), {"op": "DESTROY", "servant": "P2.S2"}))
    notes = board(t.state).notes
    assert "P2.S1 frozen" in notes and "P2.S2 destroyed" in notes
    t.enter(je(status("P2.S1", "freeze", "off")))
    assert "P2.S1 frozen" not in board(t.state).notes
    t.enter(ev("concede", "P2", player="P2"))
    assert board(t.state).notes[-1] == "game 1: won by P1 (concession)"
