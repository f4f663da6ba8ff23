"""Golden matches of every game: ``fixtures/<game>/golden/<name>.jsonl`` replayed as a table
session, against ``<name>.expect.json`` beside it.

The file is replayed with ``MatchService.check_lines``: a rejected line changes nothing and the
next line goes on from the same state (design.md). The expectation gives:

- ``accepted``: how many lines are accepted;
- ``rejected``: every refused line, by line number, with its ``rule`` (and ``code`` where given);
  every other line must be accepted;
- ``checkpoints``: ``{"after_line": N, "view": {...}}``: the judge's view after line N, compared
  as a subset (every key given is there and equal; lists have the same length and are compared
  item by item the same way). Checkpoints without ``view`` belong to a game's own golden test;
- ``outcome``: the final outcome, compared the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from adjudicator.service import CheckReport, MatchService, MemoryStore
from tests.gamekit import FIXTURES

CASES = sorted(FIXTURES.glob("*/golden/*.jsonl"))


def contains(actual: Any, expected: Any, path: str = "$") -> list[str]:
    """Where ``actual`` differs from ``expected`` read as a subset; [] when it holds."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, found {actual!r}"]
        out = []
        for k, v in expected.items():
            if k not in actual:
                out.append(f"{path}.{k}: missing")
            else:
                out += contains(actual[k], v, f"{path}.{k}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, found {actual!r}"]
        return [d for i, (a, e) in enumerate(zip(actual, expected)) for d in contains(a, e, f"{path}[{i}]")]
    return [] if actual == expected and type(actual) is type(expected) else [f"{path}: expected {expected!r}, found {actual!r}"]


def seq_after_line(report: CheckReport) -> dict[int, int]:
    """Line number -> the seq of the last accepted line up to it."""
    out, seq = {}, 0
    for v in report.verdicts:
        seq += v.accepted
        out[v.line] = seq
    return out


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_golden_match(path: Path):
    expect = json.loads(path.with_suffix(".expect.json").read_text(encoding="utf-8"))
    report = MatchService(MemoryStore()).check_lines(path.read_text(encoding="utf-8").splitlines())
    wanted = expect.get("rejected", {})
    refused = {str(v.line): v for v in report.verdicts if not v.accepted}
    found = {line: {"rule": v.rule, **({"code": v.code} if "code" in wanted.get(line, {}) else {})} for line, v in refused.items()}
    assert found == wanted
    if "accepted" in expect:
        assert report.accepted == expect["accepted"]
    match = report.match
    assert match is not None
    seq_of = seq_after_line(report)
    for cp in expect.get("checkpoints", []):
        if "view" in cp:
            view = msgspec.to_builtins(match.game.view(match.fold.state_at(seq_of[cp["after_line"]]), None))
            assert contains(view, cp["view"]) == [], f"after line {cp['after_line']} ({cp.get('label', '')})"
    if "outcome" in expect:
        assert contains(msgspec.to_builtins(match.outcome()), expect["outcome"]) == []


def test_contains_reads_the_expectation_as_a_subset():
    assert contains({"a": 1, "b": [1, {"c": 2, "d": 3}]}, {"b": [1, {"c": 2}]}) == []
    assert contains({"a": 1}, {"a": 2}) == ["$.a: expected 2, found 1"]
    assert contains({"a": [1, 2]}, {"a": [1]}) == ["$.a: expected [1], found [1, 2]"]
    assert contains({"a": True}, {"a": 1}) == ["$.a: expected 1, found True"]
    assert contains({}, {"x": None}) == ["$.x: missing"]
