"""The board and the views of PBWCG over every golden match: every registered card in one place
on the judge's board, the same zone sizes on a player's board, nothing a player may not see."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import msgspec
import pytest

from adjudicator.service import MatchService, MemoryStore
from tests.gamekit import MASKS, strings

GOLDEN = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "pbwcg" / "golden").glob("*.jsonl"))


def checked(path: Path):
    return MatchService(MemoryStore()).check_lines(path.read_text(encoding="utf-8").splitlines()).match


def size(z) -> int:
    return z.count if z.count is not None else len(z.cards)


@pytest.mark.parametrize("path", GOLDEN[::4], ids=lambda p: p.stem)
def test_board_holds_every_card_once_and_hides_what_it_must(path):
    match = checked(path)
    game = match.game
    for st in list(match.fold.history.values())[1:]:
        judge = game.board(st, None)
        shown = Counter(c.id for z in judge.zones for c in z.cards if c.id is not None)
        decks = sum(z.count for z in judge.zones if z.name == "deck")
        assert all(n == 1 for n in shown.values()) and sum(shown.values()) + decks == len(st.cards)
        known = strings(msgspec.to_builtins(judge)) | strings(msgspec.to_builtins(game.view(st, None)))
        for p in st.names():
            board = game.board(st, p)
            assert [size(z) for z in board.zones] == [size(z) for z in judge.zones]
            assert strings(msgspec.to_builtins(board)) - MASKS <= known
            other = st.opponent(p)
            hand = next(z for z in board.zones if z.owner == other and z.name == "hand")
            assert hand.cards == () and hand.count == len(st.player(other).hand)
