"""Golden matches: every worked example of rules/bacdef.md §13, replayed as a table session.

Each ``fixtures/bacdef/golden/<name>.jsonl`` is a match exactly as entered at the table, the
rejected attempts of the example included; beside it ``<name>.expect.json`` gives, from the
chapter:

- ``rejected``: for each refused line (by line number) the rule ID and code; every other line
  must be accepted, and ``accepted`` counts them;
- ``checkpoints``: the figures after a given line (``after_line``). Standalone examples have a
  ``start`` checkpoint at the last line of their preamble, so the position the example starts
  from is asserted too; the other checkpoints are the figures the example states, and the
  last one of each example gives every figure of both players (worked out by hand from the
  example's moves). Only the keys given are compared, and each of them exactly;
- ``history`` (rewind examples): the effective history and the abandoned branches.

The file is replayed with ``MatchService.check_lines``: a rejected line changes nothing and
the next line goes on from the same state (design.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from adjudicator.service import CheckReport, MatchService
from events.memory import MemoryStore
from tests.test_golden import seq_after_line

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "bacdef"
GOLDEN = FIXTURES / "golden"
CASES = sorted(p.name[: -len(".jsonl")] for p in GOLDEN.glob("*.jsonl"))


def replay(path: Path) -> CheckReport:
    return MatchService(MemoryStore()).check_lines(path.read_text(encoding="utf-8").splitlines())


def player_figures(view: dict[str, Any], player: str, keys: set[str]) -> dict[str, Any]:
    pv = view["set"]["players"][player]
    every = {
        "guards": [[g["state"], g["card_id"]] for g in pv["guards"]],
        "overflow": pv["overflow"],
        "D": pv["D"],
        "hand": sorted(c["id"] for c in pv["hand"]),
        "hand_count": pv["hand_count"],
        "discard": [[c["id"], c["face"]] for c in pv["discard"]],
        "special_used": pv["special_used"],
    }
    if "damage_received" in keys:
        every["damage_received"] = view["set"]["turn"]["damage_received"][player]
    return {k: every[k] for k in keys}


def figures(view: dict[str, Any], want: dict[str, Any]) -> dict[str, Any]:
    """The same keys as ``want``, read from the judge's view of the state."""
    got: dict[str, Any] = {}
    for key, value in want.items():
        if key in ("after_line", "label"):
            got[key] = value
        elif key == "players":
            got[key] = {p: player_figures(view, p, set(v)) for p, v in value.items()}
        elif key == "turn":
            turn = view["set"].get("turn") or {}
            got[key] = {k: turn.get(k) for k in value}
        elif key in ("set_no", "stage"):
            got[key] = view["set"][key]
        elif key == "set_results":
            got[key] = [[r["outcome"], r["winner"]] for r in view["set_results"]]
        elif key == "instances":
            got[key] = [[i["id"], i["controller"], i["kind"], i["status"]] for i in view["set"]["turn"]["instances"]]
        elif key == "packets":
            got[key] = [[q["id"], q["source_side"], q["target"], q["amount"]] for q in view["set"]["turn"]["packets"]]
        elif key == "awaiting":
            got[key] = view["set"]["turn"]["awaiting"]
        else:  # set_wins, void_sets, status, match_winner
            got[key] = view[key]
    return got


@pytest.mark.parametrize("name", CASES)
def test_golden_example(name: str) -> None:
    expect = json.loads((GOLDEN / f"{name}.expect.json").read_text(encoding="utf-8"))
    report = replay(GOLDEN / f"{name}.jsonl")

    # every line adjudicated; exactly the example's rejections, each by its rule and code
    assert report.events == expect["lines"]
    rejected = {str(v.line): {"rule": v.rule, "code": v.code} for v in report.verdicts if not v.accepted}
    assert rejected == expect["rejected"], [v for v in report.verdicts if not v.accepted]
    assert report.accepted == expect["accepted"]

    # the figures at each checkpoint (the start position, then what the example states)
    assert expect["checkpoints"], "a golden example must state figures"
    game, fold = report.match.game, report.match.fold
    seqs = seq_after_line(report)
    for want in expect["checkpoints"]:
        state = fold.state_at(seqs[want["after_line"]])
        assert figures(game.view(state), want) == want

    # the match outcome agrees with the final figures, where they state it
    last = expect["checkpoints"][-1]
    if "status" in last and last["after_line"] == expect["lines"]:
        outcome = report.match.outcome()
        assert (outcome.status, outcome.winner) == (last["status"], last.get("match_winner"))

    if "history" in expect:
        hist = expect["history"]
        assert fold.effective_order() == hist["effective"]
        assert fold.effective_seqs() == set(hist["effective"])
        assert [[b.rewind_seq, b.to_seq, list(b.abandoned)] for b in fold.branches] == hist["branches"]


def test_every_worked_example_has_a_golden_match() -> None:
    covered: set[int] = set()
    for name in CASES:
        example = json.loads((GOLDEN / f"{name}.expect.json").read_text(encoding="utf-8"))["example"]
        m = re.match(r"BAC-EX-(\d+)(?:\.\.BAC-EX-(\d+))?", example)
        assert m, example
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        covered.update(range(first, last + 1))
    assert covered == set(range(1, 17))


def test_demo_match_with_a_contradiction_runs_to_a_winner() -> None:
    report = replay(FIXTURES / "demo-contradiction.jsonl")
    match = report.match
    view = match.game.view(match.state)

    # a complete recorded match: every line accepted, best of three won 2-1
    assert report.rejections == [] and report.accepted == report.events == len(match.events)
    outcome = match.outcome()
    assert (outcome.status, outcome.winner, outcome.score) == ("won", "alice", {"alice": 2, "bob": 1})
    assert [[r["outcome"], r["winner"]] for r in view["set_results"]] == [["win", "bob"], ["win", "alice"], ["win", "alice"]]

    # one contradiction rewind, back to the start of set 3's first turn
    rewinds = [e for e in match.events if e.type == "rewind"]
    assert [(e.fields["cause"], e.fields["instance_ids"]) for e in rewinds] == [("contradiction", ["I1", "I2"])]
    rewind = rewinds[0]
    turn_start = rewind.fields["to_seq"]
    assert match.events[turn_start - 1].type == "decide_first_player"
    before = match.game.view(match.fold.state_at(turn_start))["set"]
    after = match.game.view(match.fold.state_at(rewind.seq))["set"]
    assert (before["set_no"], before["turn"]["no"], before["turn"]["start_seq"]) == (3, 1, turn_start)
    assert after["players"] == before["players"]
    assert (after["turn"]["step"], after["turn"]["replays_used"], after["turn"]["instances"]) == ("standby", 1, [])

    # the abandoned attempt is a branch, outside the effective history
    abandoned = tuple(range(turn_start + 1, rewind.seq))
    assert [(b.rewind_seq, b.to_seq, b.abandoned) for b in match.fold.branches] == [(rewind.seq, turn_start, abandoned)]
    assert match.fold.effective_seqs() == set(range(1, match.head + 1)) - set(abandoned)
    assert [match.events[s - 1].type for s in abandoned] == ["place_field_card", "place_field_card", "declare_skill", "declare_skill"]


def test_sample_catalog_and_decks() -> None:
    catalog = json.loads((FIXTURES / "catalog.sample.json").read_text(encoding="utf-8"))
    assert sorted(catalog) == ["A", "B", "C", "D", "E", "F"]
    for letter, entry in catalog.items():
        assert entry["title"].startswith(f"Sample {letter}: ")
        assert entry["text"].startswith("Sample text")
    demo_start = json.loads((FIXTURES / "demo-contradiction.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert demo_start["catalog"] == catalog

    from adjudicator.engine import registry

    game = registry.get("bacdef")
    decks = {p.stem: game.read_deck(p.read_text(encoding="utf-8")) for p in sorted((FIXTURES / "decks").glob("*.txt"))}
    assert {name: game.check_deck(deck) for name, deck in decks.items()} == {"alice": [], "bob": []}
    assert decks == {"alice": ["A", "A", "B", "C", "D", "E", "F"], "bob": ["A", "B", "B", "C", "D", "E", "F"]}
    assert demo_start["decks"] == decks
