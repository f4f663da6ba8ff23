"""``adj reconcile A B`` (cli/disputes.py): two files, a file and a stored match, two stored matches;
exit 0 when they agree, 1 when they differ, 2 on bad input (nothing written), 3 when a record does
not verify; ``--json`` one object also on failure; the golden dispute of every game
(``fixtures/<game>/disputes/<name>.{a,b}.jsonl`` against ``<name>.expect.json``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import schema
from tests.gamekit import FIXTURES
from tests.test_cli import START, Adj, fails, ok, take, write_jsonl
from tests.test_golden import contains

DISPUTES = sorted(FIXTURES.glob("*/disputes/*.a.jsonl"))


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def nim(tmp_path, name: str, *lines: dict, **extra) -> str:
    return write_jsonl(tmp_path / name, [{**START, **extra}, *({**x, **extra} for x in lines)])


@pytest.mark.parametrize("a", DISPUTES, ids=lambda p: f"{p.parent.parent.name}/{p.name[:-len('.a.jsonl')]}")
def test_golden_dispute(adj, a: Path):
    stem = str(a)[: -len(".a.jsonl")]
    expect = json.loads(Path(stem + ".expect.json").read_text(encoding="utf-8"))
    result = adj("reconcile", str(a), stem + ".b.jsonl", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == expect["exit"] == 1
    schema.matches("reconcile", data, failed=True)
    want = {k: v for k, v in expect.items() if k not in ("title", "exit")}
    assert contains(data, want) == []
    for side in ("a", "b"):  # what an accepted line changes is said in the table's words (the games word it)
        v = data["divergence"][side]
        assert v is None or bool(v["changes"]) == v["accepted"]
    # the same answer as text: the place, both verdicts, and the figures
    text = adj("reconcile", str(a), stem + ".b.jsonl").stdout.splitlines()
    d = expect["divergence"]
    assert text[3].startswith(f"they part at A line {d['a_line']} / B line {d['b_line']}: {d['kind']}: ")


def test_identical_records_agree_exit_0(adj, tmp_path):
    a = nim(tmp_path, "a.jsonl", take("alice", 2), take("bob", 1))
    b = nim(tmp_path, "b.jsonl", take("alice", 2), take("bob", 1), recorded_at="2026-05-01T20:00:00Z")
    out = ok(adj("reconcile", a, b)).stdout.splitlines()
    assert out == [f"A: {a} (file): 3 lines, 3 table actions", f"B: {b} (file): 3 lines, 3 table actions",
                   "the records agree: 3 table actions, the same on both sides"]
    data = json.loads(ok(adj("reconcile", a, b, "--json")).stdout)
    assert (data["agree"], data["common"], data["divergence"]) == (True, 3, None)
    schema.matches("reconcile", data)


def test_a_file_against_a_stored_match_and_two_stored_matches(adj, tmp_path):
    ok(adj("import", nim(tmp_path, "t.jsonl", take("alice", 2), take("bob", 1)), "--id", "t3"))
    ok(adj("import", nim(tmp_path, "u.jsonl", take("alice", 2), take("bob", 2)), "--id", "t3-bob"))
    bob = nim(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 2))
    result = adj("reconcile", "t3", bob)
    assert (result.exit_code, result.stderr) == (1, "the records differ: changed at A line 3, B line 3\n")
    lines = result.stdout.splitlines()
    assert lines[:6] == [
        "A: t3 (stored match): 3 lines, 3 table actions",
        f"B: {bob} (file): 3 lines, 3 table actions",
        "the records agree on the first 2 table actions (A to line 2, B to line 2)",
        "they part at A line 3 / B line 3: changed: the two sides have a different action here",
        "  A line 3: bob  take  player=bob count=1  [accepted]",
        "  B line 3: bob  take  player=bob count=2  [accepted]",
    ]
    assert lines[-1] == "the figures at the end are the same on both sides"  # nim draws no table: only the outcome counts
    # two stored matches name different matches: said so, unless the judge vouches for them
    data = json.loads(adj("reconcile", "t3", "t3-bob", "--json").stdout)
    assert (data["common"], data["divergence"]["kind"], data["divergence"]["a_line"]) == (0, "different_match", 1)
    data = json.loads(adj("reconcile", "t3", "t3-bob", "--same-match", "--json").stdout)
    assert (data["common"], data["divergence"]["kind"], data["notes"]) == (
        2, "changed", ["A names its match 't3', B 't3-bob': compared as one match, as asked"])


def test_missing_and_extra_at_the_end(adj, tmp_path):
    a = nim(tmp_path, "a.jsonl", take("alice", 2), take("bob", 1))
    b = nim(tmp_path, "b.jsonl", take("alice", 2))
    data = json.loads(adj("reconcile", a, b, "--json").stdout)
    d = data["divergence"]
    assert (d["kind"], d["a_line"], d["b_line"], d["b"], d["detail"]) == (
        "missing", 3, None, None, "B ends where A goes on: 1 more action(s)")
    data = json.loads(adj("reconcile", b, a, "--json").stdout)
    assert (data["divergence"]["kind"], data["divergence"]["a_line"], data["divergence"]["b_line"]) == ("extra", None, 3)


def test_each_side_is_adjudicated_from_the_common_prefix(adj, tmp_path):
    a = nim(tmp_path, "a.jsonl", take("alice", 2), take("bob", 1), take("alice", 1))
    b = nim(tmp_path, "b.jsonl", take("alice", 2), take("alice", 1), take("bob", 1))
    data = json.loads(adj("reconcile", a, b, "--json").stdout)
    d = data["divergence"]
    assert d["kind"] == "changed"  # the same two takes in the other order do not commute: one is refused
    assert d["detail"] == "the same two actions in the other order, which do not commute: one order is refused"
    assert (d["a"]["accepted"], d["b"]["accepted"], d["b"]["rule"]) == (True, False, "NIM-TURN-1")
    assert d["pair"] == {"a_line": 4, "b_line": 4}
    assert data["versions"]["b"]["first_refused"]["line"] == 3


def test_bad_input_names_the_record_and_the_line_and_writes_nothing(adj, tmp_path):
    a = nim(tmp_path, "a.jsonl", take("alice", 2))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(START) + "\n" + json.dumps({"type": "take", "by": "alice", "player": "alice", "count": "two"}) + "\n")
    result = adj("reconcile", a, str(bad), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"] == "malformed" and data["path"] == "B: line 2: $.count"
    assert data["message"].startswith(f"B ({bad}): take: count is a whole number, not 'two'")
    assert result.stderr.startswith(f"error: B ({bad}): take: count is a whole number, not 'two'")
    fails(adj("reconcile", a, "nowhere"), 2, "error: B: 'nowhere' is neither a file nor a match in the store\n")
    fails(adj("reconcile", "no/such.jsonl", a), 2, "error: A: no file 'no/such.jsonl'\n")
    assert adj.match_ids() == []


def test_a_record_that_does_not_verify_exits_3(adj, tmp_path):
    ok(adj("import", nim(tmp_path, "t.jsonl", take("alice", 2), take("bob", 1)), "--id", "t3"))
    sealed = tmp_path / "t3.jsonl"
    sealed.write_text(ok(adj("export", "t3")).stdout)
    ok(adj("reconcile", "t3", str(sealed)))
    lines = sealed.read_text().splitlines()
    lines[2] = lines[2].replace('"count":1', '"count":2')
    sealed.write_text("\n".join(lines) + "\n")
    result = adj("reconcile", "t3", str(sealed), "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert (data["error"], data["path"], data["match_id"]) == ("integrity", "B", "t3")
    assert data["message"].startswith(f"B ({sealed}) does not verify: ")
    adj.sql("UPDATE events SET payload = replace(payload, '\"count\":2', '\"count\":3') WHERE seq = 2")
    result = adj("reconcile", "t3", str(tmp_path / "t.jsonl"))
    assert result.exit_code == 3 and result.stderr.startswith("A (t3) does not verify: ")


def test_a_records_account_is_its_effective_history(adj, tmp_path):
    """What a rewind abandoned is not part of a record's account; nor are the rewind itself, a
    judge's note or a penalty: a stored match with a rewind agrees with a file of what stood."""
    rewind = {"type": "rewind", "by": "judge", "to_seq": 2, "reason": "bob took two"}
    note = {"type": "note", "by": "judge", "at_seq": 2, "text": "checked"}
    ok(adj("import", nim(tmp_path, "t.jsonl", take("alice", 2), take("bob", 1), rewind, note, take("bob", 2)), "--id", "t3"))
    bob = nim(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 2))
    data = json.loads(ok(adj("reconcile", "t3", bob, "--json")).stdout)
    assert (data["agree"], data["common"], data["a"]["lines"], data["a"]["actions"]) == (True, 3, 6, 3)
    # a refused line of a file stays in its account, where it was entered
    refused = nim(tmp_path, "refused.jsonl", take("alice", 2), take("alice", 1), take("bob", 2))
    data = json.loads(adj("reconcile", "t3", refused, "--json").stdout)
    d = data["divergence"]
    assert (d["kind"], d["a_line"], d["b_line"], d["b"]["accepted"], d["b"]["rule"]) == ("extra", 6, 3, False, "NIM-TURN-1")
    assert data["rejoin"] == {"a_line": 6, "b_line": 4, "run": 1, "to_the_end": True, "same_table": True}
