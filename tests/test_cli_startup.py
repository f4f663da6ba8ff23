"""What ``adj state``, ``adj legal`` and ``adj act`` load: the game the match plays and what these
commands use, never the server, the HTML pages, the key pairs' cryptography, PostgreSQL's driver or
another game (issue 25: these run once a table action, and their start-up is most of their cost).

Each command runs as the ``adj`` process does (its console-script entry point), on a match of
each game made by random play (bench/gen.py), and says which modules it imported; nothing is timed
here (bench/run.py measures the CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import entry_points

import msgspec
import pytest

from adjudicator.engine import registry
from adjudicator.service import MatchService, open_store
from bench import gen
from bench.run import act_fields

GAMES = ("bacdef", "builddivide", "demonbrave", "e2drive", "pbwcg")

#: Never loaded by a command that reads a match or enters one action: the server and its HTTP
#: client, the HTML pages, signatures (no key is given here), PostgreSQL, and what only other
#: commands use (urllib.parse and ipaddress, the match-file reader, the in-memory store, difflib).
NEVER = ("litestar", "uvicorn", "httpx", "segno", "jinja2", "cryptography", "psycopg", "server",
         "adjudicator.presentation.page", "adjudicator.presentation.table", "adjudicator.records.matchfile", "events.memory", "events.postgres",
         "urllib.parse", "ipaddress", "difflib")

#: Nor what costs a table command's start without need: OpenSSL's hashes (``events.digest`` takes the
#: interpreter's SHA-256 for a short run), dataclasses and json (msgspec writes the values).
STDLIB_NEVER = ("_hashlib", "dataclasses", "json")

#: The ``adj`` console script's entry point (pyproject.toml), read here: importlib.metadata itself
#: imports much that a command does not.
(ENTRY,) = entry_points(group="console_scripts", name="adj")

#: Runs ``adj`` as its console script does, then writes the names of the modules it imported.
RUN = (
    "import atexit, sys\n"
    "out = sys.argv.pop(1)\n"
    "def written():\n"
    "    names = sorted(sys.modules)\n"
    "    import json\n"  # only now: whether the command imported json is one of the questions
    "    with open(out, 'w') as fh:\n"
    "        json.dump(names, fh)\n"
    "atexit.register(written)\n"
    "sys.argv[0] = 'adj'\n"
    f"from {ENTRY.module} import {ENTRY.attr} as adj\n"
    "sys.exit(adj())\n"
)


def imported(argv: list[str], store: str, out: str) -> set[str]:
    run = subprocess.run([sys.executable, "-c", RUN, out, *argv], capture_output=True, text=True,
                         env=dict(os.environ, ADJ_STORE=store))
    assert run.returncode == 0, run.stdout + run.stderr
    with open(out, encoding="utf-8") as fh:
        return set(json.load(fh))


def unwanted(modules: set[str], game: str) -> list[str]:
    others = [f"adjudicator.games.{g}" for g in GAMES if g != game]
    stdlib = list(STDLIB_NEVER)
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in (*NEVER, *stdlib, *others)))


@pytest.fixture(scope="module", params=GAMES)
def match(request, tmp_path_factory):
    """A stored match of the game (random play, a few dozen events) and its next action."""
    game = request.param
    lines = gen.random_match(game, 3, 41)
    assert lines is not None and len(lines) > 10, game
    store = str(tmp_path_factory.mktemp(game) / "store.sqlite3")
    with open_store(store, write=True) as s:
        MatchService(s).import_lines([msgspec.json.encode(x).decode() for x in lines[:-1]], "m")
    nxt = lines[-1]
    return game, store, ["act", "m", nxt["type"], *act_fields(nxt), "--by", nxt["by"]]


@pytest.mark.parametrize("command", ["state", "legal", "act"])
def test_a_table_command_loads_its_game_and_nothing_it_does_not_use(match, command, tmp_path):
    game, store, act = match
    argv = act if command == "act" else [command, "m"]
    modules = imported(argv, store, str(tmp_path / "modules.json"))
    assert f"adjudicator.games.{game}" in modules  # it did read the match
    assert unwanted(modules, game) == []


def test_the_check_sees_what_it_looks_for(tmp_path):
    # a check that cannot fail is no check: adj games loads every game
    modules = imported(["games"], str(tmp_path / "none.sqlite3"), str(tmp_path / "modules.json"))
    games = {".".join(m.split(".")[:3]) for m in unwanted(modules, "demonbrave") if m.startswith("adjudicator.")}
    assert games == {f"adjudicator.games.{g}" for g in GAMES if g != "demonbrave"}
    # and the standard modules it looks for, in every game
    stdlib = {"json", "json.decoder", "dataclasses", "_hashlib", "hashlib", "jsonschema"}
    for game in GAMES:
        assert unwanted(stdlib, game) == ["_hashlib", "dataclasses", "json", "json.decoder"]


def test_every_game_is_checked():
    assert set(GAMES) == set(registry.names()) - {"nim"}  # nim: the test suite's own game (conftest.py)
