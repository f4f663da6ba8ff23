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


def test_explain_at_a_past_seq_is_the_state_folded_through_it(adj, tmp_path):
    """``--at SEQ`` folds through SEQ only (as ``adj state --at``), and answers as the whole match's
    state after SEQ does; a seq the match does not have is bad usage."""
    from adjudicator.presentation.render import plain
    from adjudicator.service import MatchService, open_store

    match = MatchService(open_store(str(tmp_path / "store.sqlite3"))).load("ex07-pair-vs-pair")
    units = ("alice:PAIR-14", "bob:PAIR-18")
    for seq in (match.head - 1, match.head):
        want = plain(match.game.explain(match.fold.state_at(seq), {"a": units[0], "b": units[1]}))
        got = json.loads(ok(adj("explain", "ex07-pair-vs-pair", *units, "--at", str(seq), "--json")).stdout)
        assert got == want
    fails(adj("explain", "ex07-pair-vs-pair", *units, "--at", str(match.head + 1)), 2,
          f"error: Invalid value for '--at': ex07-pair-vs-pair has events 1 to {match.head}, not {match.head + 1}\n")
