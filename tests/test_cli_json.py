"""One JSON vocabulary: every command's --json output, on success and on failure, has the type
cli/schema.py gives it (unknown keys refused), and docs/json.md carries the generated schemas."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest

from cli import schema
from events.sqlite import SQLiteStore
from tests.test_cli import START, Adj, ok, take, write_jsonl

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def adj(tmp_path):
    a = Adj(tmp_path / "s.sqlite3")
    ok(a("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"))
    ok(a("act", "m", "take", "player=alice", "count=2", "--by", "alice"))
    a("act", "m", "take", "player=alice", "count=1", "--by", "alice")  # refused: recorded
    ok(a("act", "m", "take", "player=bob", "count=1", "--by", "bob"))
    return a


def run(adj: Adj, command: str, *args: str) -> tuple[int, object]:
    words = command.split()
    if words[-1] == "--html":  # adj replay MATCH --html FILE
        words, args = words[:-1], (args[0], "--html", *args[1:])
    result = adj(*words, *args, "--json")
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else None


def conforms(command: str, code: int, data: object) -> None:
    schema.matches(command, data, failed=code != 0)


def test_every_command_succeeds_in_its_schema(adj, tmp_path):
    good = write_jsonl(tmp_path / "g.jsonl", [START, take("alice", 1)])
    deck = tmp_path / "d.txt"
    deck.write_text("A A B C D E F")
    calls = [
        ("games",), ("matches",), ("legal", "m"), ("legal", "m", "--as", "bob"), ("state", "m"), ("state", "m", "--as", "carol"),
        ("log", "m"), ("replay", "m"), ("check", good), ("export", "m"), ("verify",), ("verify", "m"),
        ("import", good, "--id", "i"), ("act", "m", "take", "player=alice", "count=1", "--by", "alice"),
        ("rewind", "m", "--to", "2", "--reason", "r", "--by", "judge"),
        ("correct", "m", "--at", "3", "take", "player=bob", "count=1", "--reason", "r", "--by", "judge"),
        ("new", "nim", "--player", "x", "--player", "y"), ("deck check", "bacdef", str(deck)),
        ("store copy", adj.path, str(tmp_path / "copy.sqlite3")), ("log", "m", "--as", "bob"), ("export", "m", "--as", "bob"),
        ("replay --html", "m", str(tmp_path / "m.html")), ("diff", "m", "1", "3"),
        ("note", "m", "slow", "--at", "2", "--by", "judge"),
        ("penalty", "m", "--player", "bob", "--infraction", "slow_play", "--penalty", "warning", "--at", "2",
         "--reason", "r", "--by", "judge"),
        ("reconcile", good, good),
        ("summary", "m"), ("matches", "--waiting", "alice"),
        ("new", "nim", "--player", "x", "--player", "y", "--id", "u"), ("act", "u", "take", "player=x", "count=1", "--by", "x"),
        ("undo", "u", "--by", "x"), ("undo", "u", "--by", "judge"),
    ]
    seen = set()
    for command, *args in calls:
        code, data = run(adj, command, *args)
        if command == "correct" and code == 1:  # nim's correction may clash with later play: a refusal
            conforms(command, code, data)
            continue
        assert code == 0, (command, args, data)
        conforms(command, code, data)
        seen.add(command)
    assert seen >= set(schema.COMMANDS) - {"explain", "correct", "confirm"}  # confirm needs a key: tests/test_confirm.py


@pytest.mark.parametrize(
    "command, args, code",
    [
        ("act", ["m", "take", "player=bob", "count=3", "--by", "alice"], 1),
        ("act", ["m", "take", "count=x", "--by", "alice"], 2),
        ("act", ["zz", "take", "--by", "alice"], 2),
        ("new", ["nim", "--player", "a", "--player", "b", "--opt", "pile=0"], 1),
        ("new", ["nim", "--player", "a", "--player", "b", "--id", "m"], 2),
        ("state", ["zz"], 2),
        ("legal", ["m", "--as", " "], 2),
        ("explain", ["m"], 2),
        ("export", ["zz"], 2),
        ("rewind", ["m", "--to", "9", "--reason", "r", "--by", "judge"], 1),
    ],
)
def test_every_failure_is_a_refusal_or_an_error(adj, command, args, code):
    got, data = run(adj, command, *args)
    assert got == code
    conforms(command, got, data)


def test_explain_on_a_game_without_explanations_is_unsupported(adj):
    assert run(adj, "explain", "m") == (2, {"error": "unsupported", "message": "nim has nothing to explain; adj state shows the position"})


def test_file_refusals_have_the_refusal_shape(adj, tmp_path):
    bad = write_jsonl(tmp_path / "b.jsonl", [START, take("bob", 1)])
    code, data = run(adj, "check", bad)
    assert code == 1
    conforms("check", code, data)
    assert data["rejection"]["line"] == 2 and data["rejection"]["rule"] == "NIM-TURN-1"
    code, data = run(adj, "import", bad)
    assert code == 1
    assert schema.matches("import", data, failed=True) == schema.Refusal(
        match_id=None, head_seq=1, line=2, type="take", by="bob", rule="NIM-TURN-1", code=None,
        message="it is alice's turn, not bob's")


def test_an_integrity_failure_is_an_error_or_a_verify_report(adj):
    adj.sql("UPDATE events SET payload = ? WHERE match_id = 'm' AND seq = 2", '{"count":3,"player":"alice"}')
    for command, args in (("verify", []), ("state", ["m"]), ("log", ["m"])):
        code, data = run(adj, command, *args)
        assert code == 3
        conforms(command, code, data)


def test_log_entries_carry_the_rejected_attempts_code(adj):
    _, data = run(adj, "log", "m")
    kinds = [(e["kind"], e.get("seq"), e.get("rule")) for e in data["history"]]
    assert kinds == [("event", 1, None), ("event", 2, None), ("rejected", None, "NIM-TURN-1"), ("event", 3, None)]
    assert "code" in data["history"][2]


def test_a_store_made_before_rejections_kept_their_code_still_reads(tmp_path):
    path = tmp_path / "old.sqlite3"
    with SQLiteStore(str(path)):
        pass
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE rejections; CREATE TABLE rejections (id INTEGER PRIMARY KEY, match_id TEXT NOT NULL, "
                     "head_seq INTEGER NOT NULL, type TEXT NOT NULL, by TEXT NOT NULL, recorded_at TEXT NOT NULL, "
                     "attempted TEXT NOT NULL, rule TEXT NOT NULL, message TEXT NOT NULL);"
                     "INSERT INTO rejections (match_id, head_seq, type, by, recorded_at, attempted, rule, message) "
                     "VALUES ('m', 1, 'take', 'bob', 't', '{}', 'R-1', 'no');")
    db.commit()
    db.close()
    with SQLiteStore(str(path), readonly=True) as store:  # reading: the column is not added
        assert [(r.rule, r.code) for r in store.rejections("m")] == [("R-1", None)]
    with SQLiteStore(str(path)) as store:  # writing: the column is added
        assert [(r.rule, r.code) for r in store.rejections("m")] == [("R-1", None)]


def test_docs_carry_the_current_schemas():
    text = (ROOT / "docs/json.md").read_text()
    assert schema.docs_section() in text, "run: python -m cli.schema, and put its output in docs/json.md"


def test_each_schema_is_valid_json_schema_shape():
    for command in schema.COMMANDS:
        s = schema.schema(command)
        assert set(s) == {"oneOf", "$defs"} and s["oneOf"]
        msgspec.json.encode(s)
