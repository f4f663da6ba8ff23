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
            for other in st.names():
                if other != p:
                    hand = next(z for z in board.zones if z.owner == other and z.name == "hand")
                    assert hand.cards == () and hand.count == len(st.player(other).hand)


def test_face_down_initial_pcs_and_the_figures_they_decide_are_hidden_before_battle_start():
    """PBW-HID-1, PBW-RUL-10: until battle_started the initial PCs are the placing player's; the
    HP cap is their printed HP + 10 (PBW-LIM-9), so it is hidden with them, and so are the labels
    the board groups a PC's cards under."""
    from adjudicator.engine.kit import HIDDEN
    from tests.pbwcg.builder import GAME, Table

    t = Table()
    t.act("initial_pcs_placed", "P1", player="P1", pcs=["A1", "A2"])
    t.act("initial_pcs_placed", "P2", player="P2", pcs=["B1", "B2"])
    st = t.state
    for viewer in ("P2", "carol"):
        view = msgspec.to_builtins(GAME.view(st, viewer))
        board = GAME.board(st, viewer)
        assert view["players"]["P1"]["hp_cap"] == HIDDEN and board.counters["P1"]["HP cap"] == HIDDEN
        assert view["players"]["P1"]["pcs"] == {"1": HIDDEN, "3": HIDDEN}
        seen = strings(view) | strings(msgspec.to_builtins(board)) | set(GAME.describe(st, viewer).split())
        assert not seen & {"A1", "A2", "31", "/31"}, sorted(seen & {"A1", "A2", "31", "/31"})
        field = next(z for z in board.zones if z.owner == "P1" and z.name == "field")
        assert [(c.id, c.group, c.face_up) for c in field.cards] == [(None, None, False), (None, None, False)]
    mine = msgspec.to_builtins(GAME.view(st, "P2"))["players"]["P2"]
    assert mine["hp_cap"] == 28 and GAME.board(st, "P2").counters["P2"]["HP cap"] == 28
    assert GAME.view(st, None)["players"]["P1"]["hp_cap"] == 31
    t.act("battle_started", "P1", confirmations=["P1", "P2"])
    assert GAME.view(t.state, "P2")["players"]["P1"]["hp_cap"] == 31  # face up: public (PBW-HID-1)
