"""``adj reconcile`` on records made from one random legal match (adjudicator/records/reconcile.py).

Each game is played at random from its conformance opening by ``legal()`` choices, as
tests/test_games_contract.py does. Record A is that match; record B is A with one line perturbed:

- a field changed (another value the same offered action allows, or another author),
- a line dropped,
- a pair of adjacent independent actions swapped (both orders accepted, reaching the same state),
- a line added (an action offered at that point).

Reconcile must find exactly that place and kind every time. Identical records (typed again, with
other times) agree; records of two different matches are reported as such, at line 1.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import event as note_kind, given, settings
from hypothesis import strategies as st

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.protocol import LegalAction, Violation
from adjudicator.presentation.disputes import reconcile_json
from adjudicator.records.reconcile import Record, reconcile
from tests.gamekit import action_fields, conformance_games, game_of, start_lines

STEPS = 30
#: a record's account is its effective history: the perturbations are of table actions
HISTORY = ("rewind", "correct")
GAMES = conformance_games()


def clock() -> str:
    return "2026-05-01T10:00:00Z"


def line_of(event: Any) -> dict[str, Any]:
    from adjudicator.engine.kit import event_type

    return {"type": event_type(event), "by": event.by, **event_fields(event)}


def opening(name: str) -> tuple[Fold, list[dict[str, Any]]]:
    game = registry.get(game_of(name))
    fold = Fold(game, "r")
    lines = []
    for i, line in enumerate(start_lines(name), 1):
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        if i == 1 and fields.get("rules_version") is None:
            fields["rules_version"] = game.rules_versions[-1]
        event = decode_event(game, line["type"], line["by"], fields)
        fold.advance(event, i)
        lines.append(line_of(event))
    return fold, lines


@st.composite
def random_match(draw: Any, name: str) -> tuple[list[dict[str, Any]], list[LegalAction | None], Fold]:
    """A legal match: its lines, the offered action each line was made from (None in the
    opening), and its fold."""
    fold, lines = opening(name)
    game = fold.game
    offered: list[LegalAction | None] = [None] * len(lines)
    for _ in range(draw(st.integers(2, STEPS), label="steps")):
        state = fold.state
        actions = [a for a in game.legal(state) if a.type not in HISTORY]
        if not actions or game.outcome(state).status != "in_progress":
            break
        table = [a for a in actions if not a.anytime]
        pool = table if table and draw(st.integers(0, 9), label="prefer table actions") else actions
        action = draw(st.sampled_from(pool), label="action")
        event = decode_event(game, action.type, action.who, draw(action_fields(action), label="fields"))
        fold.advance(event, fold.head + 1)
        lines.append(line_of(event))
        offered.append(action)
    return lines, offered, fold


def jsonl(lines: list[dict[str, Any]], **extra: Any) -> list[str]:
    return [json.dumps({**line, **extra}) for line in lines]


def record(lines: list[dict[str, Any]], name: str = "A", **extra: Any) -> Record:
    return Record.from_lines(jsonl(lines, **extra), name, clock)


def state_bytes(state: Any) -> bytes:
    return msgspec.msgpack.encode(state)


def independent_pairs(name: str, lines: list[dict[str, Any]], fold: Fold) -> list[int]:
    """The indexes k (after line 1) where lines k and k+1 differ and, swapped, are both accepted
    and reach the state the original order reaches."""
    game = fold.game
    out = []
    for k in range(1, len(lines) - 1):
        x, y = lines[k], lines[k + 1]
        if x == y:
            continue
        trial = Fold(game, "swap")
        for seq, ev in fold.log[:k]:
            trial.advance(ev, seq)
        try:
            for seq, ln in ((k + 1, y), (k + 2, x)):
                trial.advance(decode_event(game, ln["type"], ln["by"], {f: v for f, v in ln.items() if f not in ("type", "by")}), seq)
        except Violation:
            continue
        if state_bytes(trial.state) == state_bytes(fold.history[k + 2]):
            out.append(k)
    return out


def first_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int:
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    return i


def expect(a: list[dict[str, Any]], b: list[dict[str, Any]], kind: str, at: int) -> None:
    """Reconcile A and B: the divergence is ``kind`` at index ``at`` (0-based) on both sides."""
    result = reconcile(record(a), record(b, "B"))
    data = reconcile_json(result)
    assert not result.agree and data["agree"] is False
    assert data["common"] == at
    d = data["divergence"]
    line_a = at + 1 if at < len(a) else None
    line_b = at + 1 if at < len(b) else None
    assert (d["kind"], d["a_line"], d["b_line"]) == (kind, line_a, line_b), d["detail"]
    if line_a is not None:
        assert d["a"]["line"] == line_a and d["a"]["type"] == a[at]["type"]
    if line_b is not None:
        assert d["b"]["line"] == line_b and d["b"]["type"] == b[at]["type"]
    else:
        assert d["b"] is None


PERTURBATIONS = ("changed", "missing", "extra", "reordered")


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=max(4, settings.default.max_examples // 2))  # ci 30
@given(data=st.data())
def test_one_perturbed_line_is_found_at_its_place_with_its_kind(name, data):
    lines, offered, fold = data.draw(random_match(name), label="match")
    n = len(lines)
    pairs = independent_pairs(name, lines, fold)
    kinds = [k for k in PERTURBATIONS if k != "reordered" or pairs]
    kind = data.draw(st.sampled_from(kinds), label="perturbation")
    note_kind(kind)
    if kind == "reordered":
        k = data.draw(st.sampled_from(pairs), label="pair")
        b = lines[:k] + [lines[k + 1], lines[k]] + lines[k + 2:]
        return expect(lines, b, "reordered", k)
    k = data.draw(st.integers(1, n - 1), label="line")  # never match_started: that is another match
    if kind == "changed":
        original = lines[k]
        changed = None
        action = offered[k]
        if action is not None and data.draw(st.booleans(), label="change a field, not the author"):
            fields = data.draw(action_fields(action), label="other fields")
            event = decode_event(fold.game, action.type, action.who, fields)
            changed = line_of(event)
        if changed is None or changed == original:
            names = [p for p in (*fold.players, "judge") if p != original["by"]]
            changed = {**original, "by": data.draw(st.sampled_from(names), label="other author")}
        b = lines[:k] + [changed] + lines[k + 1:]
        return expect(lines, b, "changed", k)
    if kind == "missing":
        b = lines[:k] + lines[k + 1:]
        return expect(lines, b, "missing", first_difference(lines, b))
    # extra: an action offered at that point (or a line of the match again)
    game = fold.game
    state = fold.history[k]  # after line k (index k - 1): the extra line comes as index k
    actions = [a for a in game.legal(state) if a.type not in HISTORY]
    if actions and data.draw(st.booleans(), label="an offered action"):
        action = data.draw(st.sampled_from(actions), label="extra action")
        extra = line_of(decode_event(game, action.type, action.who, data.draw(action_fields(action), label="extra fields")))
    else:
        extra = lines[data.draw(st.integers(1, n - 1), label="a line again")]
    b = lines[:k] + [extra] + lines[k:]
    expect(lines, b, "extra", first_difference(lines, b))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=max(3, settings.default.max_examples // 10))  # ci 6
@given(data=st.data())
def test_identical_records_agree_even_typed_again(name, data):
    lines, _, _ = data.draw(random_match(name), label="match")
    a = record(lines, recorded_at="2026-05-01T10:00:00Z")
    b = Record.from_lines([json.dumps({k: line[k] for k in reversed(list(line))}) for line in lines], "B", lambda: "later")
    result = reconcile(a, b)
    assert (result.agree, result.common, result.divergence) == (True, len(lines), None)
    assert reconcile_json(result)["divergence"] is None


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=max(3, settings.default.max_examples // 10))  # ci 6
@given(data=st.data())
def test_records_of_two_different_matches_are_said_to_be_so(name, data):
    one, _, _ = data.draw(random_match(name), label="one match")
    other, _, _ = data.draw(random_match(name), label="another match")
    result = reconcile(record(one, match_id="table-3"), record(other, "B", match_id="table-4"))
    d = reconcile_json(result)["divergence"]
    assert (result.agree, result.common) == (False, 0)
    assert (d["kind"], d["a_line"], d["b_line"]) == ("different_match", 1, 1)
    assert d["detail"] == ("they name different matches ('table-3', 'table-4'); if they are one match under two "
                           "names, say so with --same-match")
    # the same two records compared as one match, as the judge may ask: they part after their common opening
    same = reconcile(record(one, match_id="table-3"), record(other, "B", match_id="table-4"), same_match=True)
    assert same.common == first_difference(one, other)
    assert (same.divergence is None) == (one == other)


def test_a_match_of_another_game_is_another_match():
    lines_a = [json.dumps(x) for x in opening("nim")[1]]
    lines_b = [json.dumps(x) for x in opening("demonbrave")[1]]
    result = reconcile(Record.from_lines(lines_a, "A", clock), Record.from_lines(lines_b, "B", clock))
    assert (result.divergence.kind, result.divergence.detail) == ("different_match", "A is a match of nim, B of demonbrave")
