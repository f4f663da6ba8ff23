"""Every example under every ``--help`` runs as printed (cli/help.py), on the table it speaks of.

Each example is run in a folder of its own holding what it names: the sample BACDEF decks as
``alice.txt`` and ``bob.txt``, the recorded BACDEF match ``table-3`` (fixtures/bacdef/
demo-contradiction.jsonl, cut at the position the example needs), a DemonBrave match ``g1`` (fixtures/demonbrave/golden/ex08-reversal.jsonl, cut as a pair's attack is declared), the
club's store ``club.sqlite3``, exported files, keys and checkpoints. A shell's ``> FILE``,
``< FILE`` and ``| less`` around an example are carried out by the test. The PostgreSQL store of
``adj store copy`` is the test database (``ADJ_TEST_PG``)."""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.help import EXAMPLES
from cli.main import main
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parents[1]
TABLE_3 = ROOT / "fixtures" / "bacdef" / "demo-contradiction.jsonl"
G1 = ROOT / "fixtures" / "demonbrave" / "golden" / "ex08-reversal.jsonl"
PG_IN_EXAMPLES = "postgresql://judge@db/club"

#: example -> how many lines of the recorded match table-3 is cut to for it (default: all of it)
TABLE_3_AT = {
    "adj act table-3 place_field_card player=alice card_id=alice-2 --by alice": 4,
    "adj act table-3 assign_damage player=bob slots=[1,2] --by bob --key table-3/bob/9": 9,
    "adj act table-3 resolve_effect instance_id=I1 'ops=[{\"op\":\"DAMAGE\",\"target\":\"bob\",\"amount\":2}]' --by judge": 8,
    "adj rewind table-3 --to 11 --reason \"bob's F was revealed\" --by judge cause=contradiction": 12,
    "adj undo table-3 --by alice": 5,  # alice has just placed her field card
    "adj undo table-3 --by judge": 5,
}

#: example -> what was entered just before it
BEFORE = {"adj undo table-3 --by judge": ("undo", "table-3", "--by", "alice")}


#: commands whose examples tests/test_cli_help.py runs in their own order (a key made, then used),
#: and ``adj serve``, which runs until stopped: test_every_serve_example_starts_and_stops below
RUN_ELSEWHERE = ("keys", "keys new", "store policy", "serve")


def all_examples() -> list[str]:
    elsewhere = {line for name in RUN_ELSEWHERE for line in EXAMPLES[name]}
    elsewhere |= {line for line in EXAMPLES["verify"] if "--checkpoint" in line}
    return [line for line in dict.fromkeys(line for lines in EXAMPLES.values() for line in lines) if line not in elsewhere]


def adj(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def keypair(folder: Path, name: str) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    (folder / f"{name}.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                           serialization.NoEncryption()))
    (folder / f"{name}.pub").write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                                       serialization.PublicFormat.SubjectPublicKeyInfo))


def lay_the_table(folder: Path, example: str) -> None:
    """What the example names, in ``folder`` and in the store ``$ADJ_STORE`` (store.sqlite3)."""
    for deck in ("alice", "bob"):
        shutil.copy(ROOT / "fixtures" / "bacdef" / "decks" / f"{deck}.txt", folder / f"{deck}.txt")
    shutil.copy(ROOT / "fixtures" / "demonbrave" / "deck-standard.txt", folder / "deck.txt")
    if example.startswith("adj new ") or example.startswith("adj deck ") or example.startswith("adj games"):
        return
    lines = TABLE_3.read_text(encoding="utf-8").splitlines(keepends=True)[: TABLE_3_AT.get(example)]
    (folder / "table-3.jsonl").write_text("".join(lines), encoding="utf-8")
    g1 = G1.read_text(encoding="utf-8").splitlines(keepends=True)[:98]  # bob's pair attacks alice's
    (folder / "g1.jsonl").write_text("".join(g1), encoding="utf-8")
    if example.startswith("adj import "):
        return
    assert adj("import", "table-3.jsonl").exit_code == 0
    if example.startswith("adj audit"):  # two checkpoints, a proof of each kind, the organiser's key
        (folder / "round-3.json").write_text(adj("audit", "checkpoint", "--json").stdout)
    assert adj("import", "g1.jsonl").exit_code == 0
    shutil.copy(folder / "store.sqlite3", folder / "club.sqlite3")
    if example.startswith("adj audit"):
        (folder / "round-4.json").write_text(adj("audit", "checkpoint", "--json").stdout)
        assert adj("audit", "consistency", "round-3.json", "round-4.json", "--out", "c.json").exit_code == 0
        (folder / "organiser.pub").write_text(adj("audit", "pubkey").stdout)
        (folder / "proof.json").write_text(adj("audit", "prove", "table-3").stdout)
    for name in ("judge-ann", "judge-ben", "alice", "bob"):
        keypair(folder, name)
    for record in ("alice.jsonl", "bob.jsonl", "bob-table-3.jsonl"):  # each player's copy of the record
        (folder / record).write_text(adj("export", "table-3").stdout, encoding="utf-8")
    if "--judge-key judge-ann.pem" in example:
        assert adj("judges", "add", "ann", "--pubkey", "judge-ann.pub").exit_code == 0


def run(example: str, folder: Path):
    """The example as a shell would run it: its words, and its redirections."""
    words = shlex.split(example)
    stdin = stdout = None
    env = {}
    while "=" in words[0]:  # ``VAR=value adj ...``: the variable for this command only
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if "|" in words:
        words = words[: words.index("|")]  # ``| less``: the reader is the test
    if "<" in words:
        i = words.index("<")
        stdin, words = (folder / words[i + 1]).read_text(encoding="utf-8"), words[:i] + words[i + 2:]
    if ">" in words:
        i = words.index(">")
        stdout, words = folder / words[i + 1], words[:i] + words[i + 2:]
    assert words[0] == "adj"
    result = CliRunner().invoke(main, words[1:], input=stdin, env=env, catch_exceptions=False)
    if stdout is not None:
        stdout.write_text(result.stdout, encoding="utf-8")
    return result


@pytest.mark.parametrize("example", all_examples())
def test_every_help_example_runs(example, tmp_path, monkeypatch, request):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ADJ_STORE", str(tmp_path / "store.sqlite3"))
    for var in ("ADJ_JUDGE_KEY", "ADJ_PLAYER_KEY"):
        monkeypatch.delenv(var, raising=False)
    if PG_IN_EXAMPLES in example:
        example = example.replace(PG_IN_EXAMPLES, request.getfixturevalue("pg_schema"))
    lay_the_table(tmp_path, example)
    if example in BEFORE:
        assert adj(*BEFORE[example]).exit_code == 0
    result = run(example, tmp_path)
    assert (result.exit_code, result.stderr) == (0, ""), f"{example}\n{result.output}"


@pytest.mark.parametrize("example", EXAMPLES["serve"])
def test_every_serve_example_starts_and_stops(example, tmp_path, request):
    """``adj serve`` runs until stopped: each example is started as a process of its own, on
    127.0.0.1 and a free port whatever it names, with the store it names made local (a file here,
    the test database's own schema for a PostgreSQL URL), and stopped by its PID with SIGTERM."""
    import signal
    import subprocess
    import sys
    import time

    from tests.test_server_support import LAUNCH

    words = shlex.split(example)[1:]
    for option, value in (("--host", "127.0.0.1"), ("--port", "0")):
        if option in words:
            words[words.index(option) + 1] = value
        else:
            words += [option, value]
    store = words[words.index("--store") + 1]
    words[words.index("--store") + 1] = (request.getfixturevalue("pg_schema") if store.startswith("postgresql://")
                                         else str(tmp_path / store))
    if "--judges" in words:  # the judges' list it names: one judge, without a key, its token in a file
        (tmp_path / words[words.index("--judges") + 1]).write_text("ann - ann.token\n", encoding="utf-8")
    out = tmp_path / "serve.out"
    with open(out, "w") as sink:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCH, *words], cwd=tmp_path, stdout=sink,
                                stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                                start_new_session=True)
        try:
            deadline = time.monotonic() + 30
            while "adj serve: listening on http://127.0.0.1:" not in out.read_text():
                assert proc.poll() is None, out.read_text()
                assert time.monotonic() < deadline, f"{example} did not start: {out.read_text()}"
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)
            code = proc.wait(20)
    assert code == 0, out.read_text()
    assert "judge token:" in out.read_text() or (tmp_path / "ann.token").exists()
