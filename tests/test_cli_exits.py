"""Exit codes mean one thing each (docs/cli.md), and the store is opened as the command needs:
reading creates nothing, an unknown kind of store is bad usage, a read-only store says so."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.main import main

from tests.test_cli import START, Adj, fails, ok, take, write_jsonl


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


@pytest.fixture
def m(adj):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"))
    return "m"


# -- 5: a deck given twice ---------------------------------------------------------------------------
def test_a_deck_given_twice_for_one_player_is_bad_usage(adj, tmp_path):
    (tmp_path / "d1.txt").write_text("A B C")
    (tmp_path / "d2.txt").write_text("D E F")
    fails(adj("new", "bacdef", "--player", "alice", "--player", "bob", "--deck", f"alice={tmp_path / 'd1.txt'}",
              "--deck", f"alice={tmp_path / 'd2.txt'}"), 2, "error: Invalid value for '--deck': alice's deck is given twice\n")
    assert adj.match_ids() == []


# -- 6: where the store is ---------------------------------------------------------------------------
def test_an_unknown_kind_of_store_is_bad_usage_and_creates_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    adj = Adj("mysql://x")
    result = adj("new", "nim", "--player", "a", "--player", "b")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown kind of store 'mysql:' in 'mysql://x': a store is a SQLite file path")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args", [["matches"], ["state", "m1"], ["log", "m1"], ["verify"], ["export", "m1"], ["legal", "m1"]])
def test_reading_a_store_that_does_not_exist_creates_nothing(tmp_path, args):
    path = tmp_path / "no" / "such" / "store.sqlite3"
    result = Adj(path)(*args)
    assert result.exit_code in (0, 2)
    assert result.stderr in ("", "error: no match 'm1' in the store; `adj matches` lists the matches\n")
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("form", ["sqlite:///{}", "sqlite:////{}", "{}", "/{}"])
def test_every_command_reads_a_store_url_the_same_way(tmp_path, form, monkeypatch):
    """One reading of --store for writing and reading commands alike: an absolute path behind
    sqlite:/// or sqlite://// (and a path with a doubled leading slash) is the same file."""
    path = str(tmp_path / "abs.db")
    adj = Adj(form.format(path))
    source = write_jsonl(tmp_path / "m.jsonl", [{**START, "match_id": "m"}, take("alice", 2)])
    ok(adj("import", source), "imported m: 2 events; outcome: in progress\n")
    ok(adj("matches"))
    assert adj("matches").stdout.startswith("m  nim  alice v bob  2 events  in progress")
    ok(adj("state", "m"))
    ok(adj("legal", "m"), "bob: take player=bob count=<1-3>\n")
    ok(adj("verify", "m"))
    ok(adj("store", "copy", form.format(path), str(tmp_path / "copy.db")), "copied 1 match(es): m\n")
    fails(adj("store", "copy", form.format(path), path), 2,
          f"error: Invalid value for TO: {form.format(path)!r} and {path!r} are the same store: nothing to copy\n")
    monkeypatch.setenv("ADJ_STORE", form.format(path))
    result = CliRunner().invoke(main, ["matches"])
    assert (result.exit_code, result.stdout.split("  ")[0]) == (0, "m")
    assert sorted(n for n in os.listdir(tmp_path) if not n.endswith(("-wal", "-shm"))) == ["abs.db", "copy.db", "m.jsonl"]


def test_a_sqlite_url_without_a_path_is_bad_usage(tmp_path):
    fails(Adj("sqlite://")("matches"), 2, "error: 'sqlite://' names no file: write sqlite:///PATH\n")


def test_reading_opens_the_file_read_only(adj, m):
    before = os.stat(adj.path).st_mtime_ns, os.stat(adj.path).st_size
    ok(adj("state", "m"))
    ok(adj("matches"))
    assert (os.stat(adj.path).st_mtime_ns, os.stat(adj.path).st_size) == before


# -- 8: which failure gets which code ----------------------------------------------------------------
def test_already_exists_is_bad_usage_not_a_rule_refusal(adj, m, tmp_path):
    fails(adj("new", "nim", "--player", "x", "--player", "y", "--id", "m"), 2,
          "error: match 'm' already exists (head is seq 1); nothing was written\n")
    out = adj("new", "nim", "--player", "x", "--player", "y", "--id", "m", "--json")
    assert json.loads(out.stdout) == {"error": "exists", "match_id": "m", "head_seq": 1, "written": False,
                                      "message": "match 'm' already exists (head is seq 1); nothing was written"}
    path = write_jsonl(tmp_path / "m.jsonl", [{**START, "match_id": "m"}])
    fails(adj("import", path), 2, "error: match 'm' already exists (head is seq 1); nothing was written\n")
    fails(adj("store", "copy", adj.path, adj.path), 2,
          f"error: Invalid value for TO: {adj.path!r} and {adj.path!r} are the same store: nothing to copy\n")


def test_an_empty_author_is_bad_usage_not_a_stored_rejection(adj, m):
    fails(adj("act", "m", "take", "player=alice", "count=1", "--by", ""), 2,
          "error: an event needs a non-empty author ('by' is '') (at $.by)\n")
    assert adj.rejections("m") == [] and adj.head("m") == 1


def test_a_bacdef_deck_given_as_a_json_object_is_malformed_not_a_deck_rule(adj, tmp_path):
    (tmp_path / "d.json").write_text('{"A": 2, "B": 1}')
    result = adj("new", "bacdef", "--player", "alice", "--player", "bob", "--deck", f"alice={tmp_path / 'd.json'}")
    assert result.exit_code == 2 and "not a JSON object" in result.stderr and "BAC-DECK" not in result.stderr
    result = adj("deck", "check", "bacdef", str(tmp_path / "d.json"))
    assert result.exit_code == 2 and "not a JSON object" in result.stderr


# -- 9: a read-only store ----------------------------------------------------------------------------
def test_every_writing_command_says_the_store_is_read_only(adj, m, tmp_path, monkeypatch):
    path = write_jsonl(tmp_path / "f.jsonl", [START, take("alice", 1)])
    real = sqlite3.connect

    def read_only_connect(database, *args, **kwargs):  # the file as a read-only medium shows it
        if not kwargs.get("uri"):
            database, kwargs["uri"] = f"file:{database}?mode=ro", True
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only_connect)
    message = f"error: the store at {adj.path} is read-only\n"
    fails(adj("new", "nim", "--player", "a", "--player", "b"), 2, message)
    fails(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"), 2, message)
    fails(adj("act", "m", "take", "player=bob", "count=1", "--by", "alice"), 2, message)  # even a rejection's record
    fails(adj("rewind", "m", "--to", "1", "--reason", "r", "--by", "judge"), 2, message)
    fails(adj("import", path, "--id", "z"), 2, message)
    ok(adj("state", "m"))  # reading goes on
    monkeypatch.undo()
    assert adj.head("m") == 1 and adj.match_ids() == ["m"] and adj.rejections("m") == []


# -- 10: a closed pipe -------------------------------------------------------------------------------
def test_a_closed_pipe_ends_quietly(tmp_path):
    env = {**os.environ, "ADJ_STORE": str(tmp_path / "s.sqlite3")}
    adj = [sys.executable, "-c", "from tests.test_store_support import register_nim; register_nim(); "
                                 "from cli.main import main; main(prog_name='adj')"]
    takes = [take("alice" if n % 2 == 0 else "bob", 1) for n in range(3000)]  # a log of about 120 kB of lines:
    path = write_jsonl(tmp_path / "long.jsonl", [{**START, "options": {"pile": 5000}}, *takes])  # more than a pipe holds
    subprocess.run([*adj, "import", path], env=env, check=True, capture_output=True)
    proc = subprocess.Popen([*adj, "log", "long"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"long: nim, alice v bob, 3001 events")
    proc.stdout.close()
    assert (proc.wait(timeout=120), proc.stderr.read()) == (141, b"")
