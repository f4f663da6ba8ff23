"""The page works out "what changed" in its script, from the boards it holds (board.js's
``changes``): word for word what ``changes.board_changes`` (``adj diff``) says between the boards
of the seq before and the seq of each event, for every viewer. Chromium as in
tests/test_page_browser.py (which says when these tests skip)."""

from __future__ import annotations

import glob
from typing import Any

import msgspec
import pytest

from adjudicator.engine.kit import Board
from adjudicator.presentation.changes import board_changes
from adjudicator.service import MatchService, MemoryStore
from bench import gen
from tests.test_page import BACDEF_FORKS, enter, evil_catalog
from tests.test_page_browser import driver, load, pages  # noqa: F401  (fixtures)

GOLDEN = sorted(glob.glob("fixtures/*/golden/*.jsonl"))
LONG = {"demonbrave": {"match_games": 999}, "e2drive": {"games_per_match": 999}}


def expected(match: Any, items: list[dict], viewer: str | None) -> list[list[str]]:
    """What changed at each item, as ``adj diff`` words it (a rejected attempt: nothing)."""
    game, history = match.game, match.fold.history
    empty = Board(players=tuple(match.players))
    board = {}

    def at(seq: int) -> Board:
        if seq not in board:
            board[seq] = game.board(history[seq], viewer) if seq else empty
        return board[seq]

    return [[] if it["seq"] is None else [c.text for c in board_changes(at(it["seq"] - 1), at(it["seq"]))] for it in items]


def shown(driver: Any, viewer: str) -> tuple[list[dict], list[list[str]]]:  # noqa: F811
    return driver.execute_script(
        "adjDesk.setViewer(arguments[0]); const d = adjDesk.data;"
        "return [d.items, d.items.map((_, i) => adjDesk.changesAt(i))];", viewer)


def check(driver: Any, url: str, match: Any) -> int:  # noqa: F811
    load(driver, url)
    viewers = driver.execute_script("return adjDesk.data.viewers")
    said = 0
    for v in viewers:
        items, got = shown(driver, v)
        want = expected(match, items, None if v == "judge" else v)
        assert got == want, v
        said += sum(map(len, want))
    return said


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.split("/")[1] + "/" + p.rsplit("/", 1)[1])
def test_every_golden_match_changes_as_adj_diff_words_them(driver, pages, path):  # noqa: F811
    service = MatchService(MemoryStore())
    match = enter(service, path, "g")
    check(driver, pages("g-" + path.replace("/", "-"), service, match), match)


@pytest.mark.parametrize("game", sorted(LONG))
def test_a_long_random_match_changes_as_adj_diff_words_them(driver, pages, game):  # noqa: F811
    lines = gen.random_match(game, 5, 400, LONG[game])
    service = MatchService(MemoryStore())
    match = service.import_lines([msgspec.json.encode(x).decode() for x in lines], "r")
    assert check(driver, pages("r-" + game, service, match), match) > 400


def test_changes_in_the_tables_words(driver, pages):  # noqa: F811
    service = MatchService(MemoryStore())
    match = enter(service, BACDEF_FORKS, "b", evil_catalog)
    load(driver, pages("b-changes", service, match))
    items, judge = shown(driver, "judge")
    k = next(n for n, i in enumerate(items) if i["seq"] == 2)
    assert "alice-1 moved from alice's hand to alice's guards" in judge[k]
    _, bob = shown(driver, "bob")
    assert "alice's hand: 7 -> 5 cards" in bob[k]
    assert not any("alice-1" in c for c in bob[k])
    assert "what changed" in driver.execute_script(f"adjDesk.select({k}); return document.getElementById('details').textContent")
