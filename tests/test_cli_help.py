"""Help at the terminal: an example under every command, the version, shell completion."""

from __future__ import annotations

from importlib.metadata import version

import click
import pytest
from click.testing import CliRunner

from cli.main import main
from tests.test_cli import Adj, ok


def all_commands(group: click.Group = main, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            out.extend(all_commands(cmd, (*prefix, name)))
        else:
            out.append((*prefix, name))
    return out


@pytest.mark.parametrize("words", all_commands(), ids=lambda w: " ".join(w) or "adj")
def test_every_help_has_an_example(words):
    result = CliRunner().invoke(main, [*words, "--help"], prog_name="adj")
    assert result.exit_code == 0
    head, _, examples = result.stdout.partition("\n  Examples:\n")
    assert examples, result.stdout
    first = examples.splitlines()[0].strip()
    assert first.startswith(" ".join(("adj", *words))) or not words or words[0] == "store" and first.startswith("adj store")


def test_version():
    result = CliRunner().invoke(main, ["--version"], prog_name="adj")
    assert (result.exit_code, result.stdout) == (0, f"adj {version('adjudicator')}\n")


def test_rewind_help_names_the_game_fields():
    assert "cause=contradiction" in CliRunner().invoke(main, ["rewind", "--help"]).stdout


def complete(adj: Adj, line: str) -> list[str]:
    words = line.split(" ")
    env = {"_ADJ_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    result = CliRunner().invoke(main, [], prog_name="adj", env=env)
    assert result.exit_code == 0, result.output
    return [row.split(",", 1)[1] for row in result.stdout.splitlines() if row]


def test_completion_of_match_ids_and_action_names(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "table-3"))
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "table-4"))
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "final"))
    assert complete(adj, f"adj --store {adj.path} state ta") == ["table-3", "table-4"]
    assert complete(adj, f"adj act --store {adj.path} table-3 ") == ["take"]
    assert complete(adj, f"adj --store {tmp_path / 'none.sqlite3'} log ") == []
    assert not (tmp_path / "none.sqlite3").exists()


def test_the_examples_of_keys_store_policy_and_verify_run(tmp_path, monkeypatch):
    """Each example under `adj keys new --help`, `adj store policy --help` and `adj verify --help`
    (the one with a key and a checkpoint), run in order as a user would, exits 0."""
    import shlex

    from cli.help import EXAMPLES

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("ADJ_STORE", str(tmp_path / "store.sqlite3"))

    def run(line: str) -> None:
        words = shlex.split(line)
        out = None
        if ">" in words:
            words, out = words[: words.index(">")], words[words.index(">") + 1]
        assert words[0] == "adj"
        result = CliRunner().invoke(main, words[1:], prog_name="adj")
        assert (result.exit_code, result.stderr) == (0, ""), (line, result.output)
        if out:
            (tmp_path / out).write_text(result.stdout)

    for line in dict.fromkeys((*EXAMPLES["keys"], *EXAMPLES["keys new"], *EXAMPLES["store policy"])):
        run(line)
    assert (tmp_path / "keys" / "alice.pem").exists() and (tmp_path / "organiser.pub").exists()
    monkeypatch.setenv("ADJ_STORE", str(tmp_path / "round.sqlite3"))
    run("adj audit checkpoint --key organiser.pem --json > round-3.json")
    (verify,) = [line for line in EXAMPLES["verify"] if "--checkpoint" in line]
    run(verify)
