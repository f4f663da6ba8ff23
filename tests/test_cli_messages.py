"""A message says what to do: an unknown action names the nearest one, an unknown or missing field
lists the action's fields, a choice lists its values, a yes/no field asks for true or false, a
mistyped card name is said not to be in the catalog; no message names a class of the code."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests.builddivide.helpers import A, B, ev, to_main
from tests.test_cli import Adj, fails, ok

ROOT = Path(__file__).resolve().parents[1]
LEGAL = "(adj legal MATCH lists the actions open now)"


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def imported(adj, tmp_path, lines, match_id: str) -> str:
    path = tmp_path / f"{match_id}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    ok(adj("import", str(path), "--id", match_id))
    return match_id


def test_an_unknown_action_names_the_nearest(adj):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"))
    fails(adj("act", "m", "tkae", "player=alice", "count=1", "--by", "alice"), 2,
          f"error: unknown action 'tkae'; did you mean take? {LEGAL} (at $.type)\n")
    fails(adj("act", "m", "zzz", "--by", "alice"), 2, f"error: unknown action 'zzz' {LEGAL} (at $.type)\n")
    assert adj.head("m") == 1


def test_a_choice_lists_its_values_and_a_yes_no_field_asks_for_true_or_false(adj, tmp_path):
    g = imported(adj, tmp_path, to_main(), "g")
    fails(adj("act", g, "play_card", "card=U1k", 'payment=[{"energy":"U1k","as":"PINK"}]', "--by", A), 2,
          "error: play_card: payment[0].as is one of BLACK, BLUE, GENERIC, RED, WHITE, not 'PINK' (at $.payment[0].as)\n")
    fails(adj("act", g, "play_card", "card=U1k", 'payment=[{"energy":"U1k","colour":"RED"}]', "--by", A), 2,
          "error: play_card payment[0]: no field 'colour' (its fields: energy, as) (at $.payment[0].colour)\n")
    conformance = ROOT / "fixtures" / "e2drive" / "conformance.jsonl"
    ok(adj("import", str(conformance), "--id", "e"))
    fails(adj("act", "e", "defense", "defend=yes", "--by", "bob"), 2,
          "error: defense: defend is true or false, not 'yes' (at $.defend)\n")


def test_a_mistyped_card_name_is_not_in_the_catalog(adj, tmp_path):
    lines = to_main(a=["U5k"]) + [ev("judge_ops", "judge", note="set up", ops=[
        {"op": "PUT_ONTO_FIELD", "card": "U5k", "from_zone": "DECK", "player": A}]),
        ev("advance_phase", A), ev("declare_attack", A, attacker="U5k", target=B), ev("no_block", B)]
    g = imported(adj, tmp_path, lines, "g")
    fails(adj("act", g, "life_check", f"victim={B}", "card_name=PLM", "--by", B), 1,
          "BD-ACT-22: 'PLM' is not in the catalog; did you mean 'PLN'? (a card the catalog lacks is entered by "
          "its icons instead, BD-RUL-40)\n")


def test_no_game_puts_a_class_name_in_a_message():
    """A message names an action or an op by its tag (``advance_phase``), never by its class
    (``AdvancePhase``): no game formats ``type(x).__name__`` into text."""
    found = []
    for path in (ROOT / "adjudicator" / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "__name__":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
