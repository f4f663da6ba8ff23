"""The E2Drive board is drawn from the state without the rest of the view (the page draws one at
every event): it must show exactly what ``view`` shows each viewer. The reference below draws it
from ``view``, as the board did before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine.kit import HIDDEN, Board, BoardCard, Zone
from adjudicator.games.e2drive.board import STATUS_WORDS, _hand
from adjudicator.games.e2drive.state import SEATS, State, player, slots_of
from adjudicator.games.e2drive.view import PHASE_WORDS, result_words, view
from adjudicator.service import MatchService
from events.memory import MemoryStore
from tests.e2drive.harness import GAME

GOLDEN = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive" / "golden"


def _ref_servants(v: dict[str, Any], seat: str, name: str) -> list[Zone]:
    cards = []
    equipment: list[Zone] = []
    for r in slots_of(seat):
        sv = v["servants"][r]
        hidden = sv["card"] == HIDDEN
        e = sv["ether"]
        nums = {"damage": sv["damage"], "ether on": e["on"], "ether held": e["held_upkeep"] + e["held_lock"] + e["held_invisible"],
                "SPD": sv["SPD"]}
        if not hidden:
            nums.update({"DUR": sv["DUR"], "ATK": sv["ATK"], "DEF": sv["DEF"]})
        tags = tuple([r, sv["action"]] + sv["statuses"] + (["destroyed"] if sv["destroyed"] else [])
                     + [f"overdrive {k} {val}" for k, val in sv.get("overdrive", {}).items() if k != "expires"])
        cards.append(BoardCard(id=None if hidden else sv["card"], label=None if hidden else sv["name"],
                               face_up=not hidden, turned=sv["action"] == "acted", counters=nums, tags=tags))
        if sv["equipment"]:
            equipment.append(Zone(name=f"{r} equipment", owner=name,
                                  cards=tuple(BoardCard(id=t["card"], label=t["card"], tags=(f"owner {t['owner']}",))
                                              for t in sv["equipment"])))
    return [Zone(name="servants", owner=name, cards=tuple(cards)), *equipment]


def _ref_notes(state: State, v: dict[str, Any]) -> list[str]:
    g = state.game
    out = []
    for r, sv in v["servants"].items():  # a status or a destruction shows till it ends ("over: ...")
        out += [f"{r} {STATUS_WORDS.get(st, st)}" for st in sv["statuses"]]
        if sv["destroyed"]:
            out.append(f"{r} destroyed")
    a = g.attack
    if a is not None:
        paid = " + ".join(f"{x.pool}×{x.n}" for x in a.payment) or "0e"
        out.append(f"ATK: {a.attacker} → {a.target}, paying {paid}")
    out += [f"lock: {lk['n']} of {lk['pool']} held by the Etherizer overdrive of {lk['by']}" for lk in v.get("locks", [])]
    out += [f"{'permitted' if r['permit'] else 'forbidden'}: {r['action']} by {r['subject']} ({r['duration'].replace('_', ' ')})"
            for r in v.get("restrictions", [])]
    out += [f"tool costs {c['delta']:+}e for {c['scope']} ({c['duration'].replace('_', ' ')})" for c in v.get("cost_modifiers", [])]
    out += [f"game {r.number}: {result_words(state, r.result, r.reason)}" for r in state.games]
    if state.voided:
        out.append("the match is void")
    return out


def board_from_view(state: State, viewer: str | None = None) -> Board:
    g = state.game
    if not g.players:
        return Board(players=state.names)
    v = view(state, viewer)
    zones: list[Zone] = []
    counters: dict[str, dict[str, Any]] = {}
    for s, name in zip(SEATS, state.names):
        pv = v["player"][s]
        p = player(g, s)
        m = pv["master"]
        counters[name] = {"master ether counters": m["size"], "master ether on": m["on"], "limited state": pv["limited"],
                          "upkeep due": pv["upkeep_due"]}
        zones += _ref_servants(v, s, name)
        zones.append(Zone(name="tool field", owner=name,
                          cards=tuple(BoardCard(id=t["card"], label=t["card"], counters={"upkeep": t["upkeep"]})
                                      for t in pv["tool_field"])))
        zones.append(Zone(name="damage cards", owner=name, cards=tuple(BoardCard(face_up=False) for _ in range(pv["damage_cards"]))))
        zones.append(Zone(name="trash", owner=name, cards=tuple(BoardCard(id=c, label=c) for c in pv["trash"])))
        zones.append(Zone(name="deck", owner=name, count=pv["deck"]))
        zones.append(_hand(p, pv["hand_known"] != HIDDEN))
    return Board(players=state.names, counters=counters, zones=tuple(zones), turn=str(g.turn), phase=PHASE_WORDS[g.phase],
                 waiting=v.get("waiting", ""), notes=tuple(_ref_notes(state, v)))


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.jsonl")))
def test_the_board_shows_what_the_view_shows_at_every_state(name):
    report = MatchService(MemoryStore()).check_lines((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    assert report.match is not None
    history = report.match.fold.history
    viewers = (None, "judge", *report.match.players, "spectator")
    for seq in history:
        for viewer in viewers:
            assert GAME.board(history[seq], viewer) == board_from_view(history[seq], viewer), (name, seq, viewer)
        # every viewer's board drawn at once (the page): each their own
        assert GAME.boards(history[seq], viewers) == [board_from_view(history[seq], v) for v in viewers], (name, seq)


def test_boards_drawn_from_what_the_state_before_shared_are_those_drawn_afresh():
    """The board keeps what it drew last for a slot, a seat's servants, a hand and the games
    played, by what it drew them from: at every event of a long random match (rewinds, face-down
    servants, equipment) the boards are equal to those drawn with nothing kept."""
    from adjudicator.games.e2drive import board as drawing
    from tests.gamekit import check_drawings_kept

    check_drawings_kept("e2drive", {"games_per_match": 999}, drawing._DRAWN)


def test_the_outcome_kept_from_the_state_before_is_the_one_worked_out_afresh():
    """``outcome`` keeps the last one it worked out, by what it depends on: at every event of a
    long random match it equals the outcome worked out with nothing kept."""
    import msgspec

    from adjudicator.games.e2drive import view as viewing
    from bench import gen

    lines = gen.random_match("e2drive", 9, 1500, {"games_per_match": 999})
    service = MatchService(MemoryStore())
    service.import_lines([msgspec.json.encode(x).decode() for x in lines], "r")
    match = service.load("r")
    for seq in range(1, match.head + 1):
        state = match.fold.history[seq]
        assert viewing.outcome(state) == viewing._outcome(state), seq
