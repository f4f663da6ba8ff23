"""The judge settles a dispute on the record: ``adj reconcile A B --take A|B --into MATCH --reason``
(adjudicator/authority/settle.py): a rewind (the other account stays as an abandoned branch), a
correction, plain appends, or a judge's note; the game gates it; a refusal writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import schema
from tests.test_cli import START, Adj, fails, ok, take, write_jsonl


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


def stored(adj: Adj, tmp_path, match_id: str, *lines: dict) -> str:
    ok(adj("import", write_jsonl(tmp_path / f"{match_id}.jsonl", [START, *lines]), "--id", match_id))
    return match_id


def record(tmp_path, name: str, *lines: dict) -> str:
    return write_jsonl(tmp_path / name, [START, *lines])


def log_types(adj: Adj, match_id: str) -> list[tuple[int, str, str, dict, int | None]]:
    data = json.loads(ok(adj("log", match_id, "--json")).stdout)
    return [(e["seq"], e["by"], e["type"], e["fields"], e["abandoned_by"]) for e in data["history"] if e["kind"] == "event"]


def test_taking_the_other_account_rewinds_and_keeps_the_stored_one_as_a_branch(adj, tmp_path):
    stored(adj, tmp_path, "t3", take("alice", 2), take("bob", 1), take("alice", 1))
    bob = record(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 2))
    result = adj("reconcile", "t3", bob, "--take", "B", "--into", "t3", "--reason", "bob took two: both agree now", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    schema.matches("reconcile", data)
    settled = data["settled"]
    assert (settled["take"], settled["into"], settled["method"], settled["abandoned"]) == ("B", "t3", "rewind", [3, 4])
    assert [(e["seq"], e["type"], e["by"]) for e in settled["events"]] == [(5, "rewind", "judge"), (6, "take", "bob")]
    reason = settled["events"][0]["fields"]["reason"]
    assert reason == f"reconcile: B ({bob}) taken over A (t3) from where they part (changed): bob took two: both agree now"
    assert log_types(adj, "t3")[2:] == [
        (3, "bob", "take", {"player": "bob", "count": 1}, 5),
        (4, "alice", "take", {"player": "alice", "count": 1}, 5),
        (5, "judge", "rewind", {"to_seq": 2, "reason": reason}, None),
        (6, "bob", "take", {"player": "bob", "count": 2}, None),
    ]
    ok(adj("verify", "t3"))
    # the stored match now holds bob's account: the two agree
    ok(adj("reconcile", "t3", bob))


def test_the_text_says_how_it_was_settled(adj, tmp_path):
    stored(adj, tmp_path, "t3", take("alice", 2), take("bob", 1))
    bob = record(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 2))
    out = ok(adj("reconcile", "t3", bob, "--take", "b", "--into", "t3", "--reason", "r")).stdout.splitlines()
    assert out[-1] == "settled for B in t3: a rewind, then its account, seqs 4-5; abandoned: 3"


def test_an_action_the_stored_match_lacks_is_inserted_by_a_correction(adj, tmp_path):
    # PBWCG: the Poison recovery check of turn 1 was made at the table but never entered (PBW-COR: a
    # forgotten check may be corrected within a turn, with both players' confirmation)
    lines = Path("fixtures/pbwcg/golden/ex15-c-correction.jsonl").read_text(encoding="utf-8").splitlines()[:45]
    check = json.dumps({"type": "bs_recovery_check", "by": "P2", "actor": "B2", "bs": "Poison",
                        "check": {"declarer": "P2", "roller": "P1", "declared": "odd", "die": 4}})
    (tmp_path / "p.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "p2.jsonl").write_text("\n".join([*lines[:25], check, *lines[25:]]) + "\n")
    ok(adj("import", str(tmp_path / "p.jsonl"), "--id", "p"))
    p2 = str(tmp_path / "p2.jsonl")
    data = json.loads(ok(adj("reconcile", "p", p2, "--take", "B", "--into", "p", "--reason", "made at the table",
                             "--with", "basis=forgotten_check", "--with", "confirmations=[P1,P2]", "--json")).stdout)
    assert (data["divergence"]["kind"], data["divergence"]["a_line"], data["settled"]["method"]) == ("extra", 26, "correct")
    (event,) = data["settled"]["events"]
    assert (event["seq"], event["type"], event["by"], event["fields"]["at_seq"], event["fields"]["basis"]) == (
        46, "correct", "judge", 26, "forgotten_check")
    assert event["fields"]["event"]["type"] == "bs_recovery_check"
    ok(adj("verify", "p"))
    # the stored match's account is now the one taken: the inserted check stands where it belongs
    data = json.loads(ok(adj("reconcile", "p", p2, "--json")).stdout)
    assert (data["agree"], data["common"]) == (True, 46)


def test_an_account_that_goes_on_is_appended(adj, tmp_path):
    stored(adj, tmp_path, "t3", take("alice", 2))
    bob = record(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 1), take("alice", 1))
    data = json.loads(ok(adj("reconcile", "t3", bob, "--take", "B", "--into", "t3", "--reason", "r", "--json")).stdout)
    assert data["settled"]["method"] == "append"
    assert [(e["seq"], e["by"]) for e in data["settled"]["events"]] == [(3, "bob"), (4, "alice")]


def test_when_the_stored_match_holds_the_account_taken_a_note_records_it(adj, tmp_path):
    stored(adj, tmp_path, "t3", take("alice", 2), take("bob", 1), take("alice", 1))
    bob = record(tmp_path, "bob.jsonl", take("alice", 2), take("bob", 2))
    data = json.loads(ok(adj("reconcile", "t3", bob, "--take", "A", "--into", "t3", "--reason", "alice's count", "--json")).stdout)
    (note,) = data["settled"]["events"]
    assert (data["settled"]["method"], note["seq"], note["type"], note["fields"]["at_seq"]) == ("note", 5, "note", 3)
    assert note["fields"]["text"] == (f"reconcile: A (t3) taken over A (t3) from where they part (changed): alice's count; "
                                      "the other account: line 3: bob take player=bob count=2")
    assert json.loads(ok(adj("state", "t3", "--json")).stdout)["state"]["pile"] == 1  # the game did not change
    assert adj.head("t3") == 5


def test_a_refused_step_writes_nothing(adj):
    # BACDEF: a judge's error is rewound no further back than the last completed turn (BAC-REW-11)
    a = "fixtures/bacdef/disputes/damage-slot.a.jsonl"
    ok(adj("import", a, "--id", "t3"))
    result = adj("reconcile", "t3", "fixtures/bacdef/disputes/damage-slot.b.jsonl", "--take", "B", "--into", "t3",
                 "--reason", "slot 1", "--with", "cause=judge_error")
    assert result.exit_code == 1
    assert result.stderr == ("BAC-REW-11: the settlement is refused at the rewind by judge (step 1 of 28); nothing was "
                             "written: seq 10 is before seq 37, the last completed turn or set result; it stands\n")
    assert adj.head("t3") == 37 and adj.rejections("t3") == []


def test_settling_needs_the_stored_match_the_reason_and_a_dispute(adj, tmp_path):
    stored(adj, tmp_path, "t3", take("alice", 2))
    a = record(tmp_path, "a.jsonl", take("alice", 2))
    b = record(tmp_path, "b.jsonl", take("alice", 1))
    fails(adj("reconcile", a, b, "--take", "A", "--into", "t3", "--reason", "r"), 2,
          "error: --into names the stored match being settled: give 't3' as A or B\n")
    fails(adj("reconcile", "t3", a, "--take", "A", "--into", "t3", "--reason", "r"), 2,
          "error: the records agree: there is nothing to settle (at --take)\n")
    fails(adj("reconcile", "t3", b, "--take", "A", "--into", "t3"), 2,
          "error: --take settles the dispute in a stored match: give --into MATCH and --reason TEXT\n")
    fails(adj("reconcile", "t3", b, "--into", "t3"), 2,
          "error: --into, --reason and --with settle a dispute: give them with --take A|B\n")
    assert adj.head("t3") == 2
