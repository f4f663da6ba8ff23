"""`adj explain`: a judge shows why the rules decide as they do (DemonBrave pair comparison)."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import Adj, fails, ok


@pytest.fixture
def adj(tmp_path):
    a = Adj(tmp_path / "store.sqlite3")
    ok(a("import", "fixtures/demonbrave/golden/ex07-pair-vs-pair.jsonl"))
    return a


def test_explain_compares_two_pairs_with_the_deciding_rule(adj):
    out = ok(adj("explain", "ex07-pair-vs-pair", "alice:PAIR-14", "bob:PAIR-18")).stdout.splitlines()
    assert "  category: FREE" in out and "  category: RUN" in out
    assert "  key: [11,1]" in out and "  key: [3,2]" in out
    assert "stronger: b" in out
    assert "rule: DB-RES-9" in out
    assert 'basis: "tier: FREE (2) against RUN (4)"' in out


def test_explain_json_gives_both_sides_and_the_attack_results(adj):
    data = json.loads(ok(adj("explain", "ex07-pair-vs-pair", "alice:PAIR-14", "bob:PAIR-18", "--json")).stdout)
    assert (data["a"]["tier"], data["b"]["tier"], data["stronger"], data["rule"]) == (2, 4, "b", "DB-RES-9")
    assert data["if_a_attacks_b"]["result"] == "void"
    assert data["if_b_attacks_a"]["trash"] == ["alice:SK", "alice:D3"]


def test_explain_with_nothing_in_progress_is_bad_usage(adj):
    fails(adj("explain", "ex07-pair-vs-pair"), 2,
          "error: no attack is in progress; name two units to compare (a=..., b=...)\n")


def test_explain_on_a_game_without_explanations_is_bad_usage(adj):
    ok(adj("import", "fixtures/bacdef/demo-contradiction.jsonl"))
    fails(adj("explain", "demo-contradiction"), 2, "error: bacdef has nothing to explain; adj state shows the position\n")
