"""The `adj` command line on the toy game nim (tests/toygame.py): every command, exit codes
0/1/2/3, and "nothing written" on every malformed input."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from adjudicator.engine import registry
from adjudicator.engine.protocol import Violation
from adjudicator.service import MatchService
from cli.main import main
from events.sqlite import SQLiteStore
from tests import toygame
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)


class Adj:
    """`adj --store <tmp file> ...` in-process, and a look at what the store holds."""

    def __init__(self, path):
        self.path = str(path)
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(main, ["--store", self.path, *args], input=input, catch_exceptions=False)

    def head(self, match_id: str) -> int:
        with SQLiteStore(self.path) as store:
            return store.head(match_id)

    def rejections(self, match_id: str) -> list[tuple[int, str, str]]:
        with SQLiteStore(self.path) as store:
            return [(r.head_seq, r.type, r.rule) for r in store.rejections(match_id)]

    def match_ids(self) -> list[str]:
        with SQLiteStore(self.path) as store:
            return [m.match_id for m in store.matches()]

    def sql(self, statement: str, *params) -> None:
        db = sqlite3.connect(self.path)
        db.execute(statement, params)
        db.commit()
        db.close()


def ok(result, stdout: str | None = None):
    assert (result.exit_code, result.stderr) == (0, ""), result.output
    if stdout is not None:
        assert result.stdout == stdout
    return result


def fails(result, code: int, stderr: str, stdout: str = ""):
    assert (result.exit_code, result.stderr, result.stdout) == (code, stderr, stdout)
    return result


@pytest.fixture
def adj(tmp_path):
    return Adj(tmp_path / "store.sqlite3")


@pytest.fixture
def m(adj):
    """Match "m": alice and bob, 7 stones; alice took 3 (seq 2)."""
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"), "m\n")
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    return "m"


@pytest.fixture
def branched(adj, m):
    """m, then: bob 2 (3), alice 1 (4), a rejected take, rewind to 2 (5), bob 3 (6)."""
    ok(adj("act", "m", "take", "player=bob", "count=2", "--by", "bob"))
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    fails(adj("act", "m", "take", "player=bob", "count=5", "--by", "bob"), 1,
          "NIM-TAKE-1: bob may take 1 to 3 stones, not 5\n")
    ok(adj("rewind", "m", "--to", "2", "--reason", "miscounted the pile", "--by", "judge"))
    ok(adj("act", "m", "take", "player=bob", "count=3", "--by", "bob"))
    return "m"


def export(adj, match_id: str) -> list[dict]:
    result = ok(adj("export", match_id))
    return [json.loads(line) for line in result.stdout.splitlines()]


def write_jsonl(path, objs) -> str:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))
    return str(path)


START = {"type": "match_started", "by": "judge", "game": "nim", "players": ["alice", "bob"], "options": {"pile": 5}}


def take(player: str, count: int, by: str | None = None) -> dict:
    return {"type": "take", "by": by or player, "player": player, "count": count}


# -- start-up and the games ---------------------------------------------------------------------
def test_help_imports_no_library():
    code = (
        "import sys\nfrom cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('msgspec', 'adjudicator', 'events')), file=sys.stderr)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stderr == "[]\n"
    assert "Exit codes: 0 done; 1 rejected by a rule" in run.stdout


def test_games_lists_versions_and_options_and_survives_a_missing_module(adj, monkeypatch):
    monkeypatch.setitem(registry._GAMES, "ghost", "no_such_module:GAME")
    result = ok(adj("games"))
    lines = result.stdout.splitlines()
    assert "ghost  (unavailable: ModuleNotFoundError: No module named 'no_such_module')" in lines
    i = lines.index("nim  Nim (test game)  rules 1  2 players")
    assert lines[i + 1].split() == ["--opt", "pile=10", "int", ">=", "1", "[NIM-SET-1]"]
    assert lines[i + 2] == "  ends by: last_stone"

    games = {g["name"]: g for g in json.loads(ok(adj("games", "--json")).stdout)["games"]}
    assert games["nim"] == {
        "name": "nim",
        "title": "Nim (test game)",
        "available": True,
        "rules_version": "1",
        "rules_versions": ["1"],
        "players": [2, 2],
        "options": [{"name": "pile", "default": 10, "values": "int >= 1", "rule": "NIM-SET-1"}],
        "reasons": ["last_stone"],
    }
    assert games["ghost"]["available"] is False


# -- new ------------------------------------------------------------------------------------------
def test_new_prints_the_id_and_numbers_matches_per_game(adj):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob"), "nim-1\n")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=3"), "nim-2\n")
    data = json.loads(ok(adj("state", "nim-2", "--json")).stdout)
    assert data["state"]["pile"] == 3
    out = json.loads(ok(adj("new", "nim", "--player", "carol", "--player", "dan", "--id", "final", "--json")).stdout)
    assert (out["accepted"], out["match_id"], out["seq"], out["event"]["fields"]["players"], out["to_move"]) == (
        True, "final", 1, ["carol", "dan"], ["carol"])


@pytest.mark.parametrize(
    "args, stderr",
    [
        (["chess"], f"error: unknown game 'chess'; known games: {', '.join(registry.names())} (at $.game)\n"),
        (["nim", "--opt", "heap=3"], "error: Invalid value for '--opt': nim has no option 'heap'; options: pile\n"),
        (["nim", "--opt", "pile"], "error: Invalid value: 'pile' is not KEY=VALUE\n"),
        (["nim", "--deck", "carol=x.txt"], "error: Invalid value for '--deck': 'carol=x.txt': expected PLAYER=FILE with one of alice, bob\n"),
        (["nim", "--setup", "players=[]"], "error: Invalid value: 'players' cannot be given as KEY=JSON here (it has its own option)\n"),
        (["nim", "--setup", "extra={"], "error: the --setup value is not valid JSON (Input data was truncated)\n"),
        (["nim", "--setup", "extra=1"], "error: match_started: no field 'extra' (its fields: game, players, rules_version, options) (at $.extra)\n"),
        (["nim", "--setup", 'rules_version="9"'], "error: unknown rules version '9' for nim; known: 1 (at $.rules_version)\n"),
        (["nim", "--id", "no spaces"], "error: match id 'no spaces' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit (at $.match_id)\n"),
    ],
)
def test_new_bad_usage_exits_2_and_writes_nothing(adj, args, stderr):
    game, *rest = args
    fails(adj("new", game, "--player", "alice", "--player", "bob", *rest), 2, stderr)
    assert adj.match_ids() == []
    assert adj.rejections("nim-1") == []


def test_new_missing_player_is_a_usage_error(adj):
    result = adj("new", "nim")
    assert result.exit_code == 2
    assert "Missing option '--player'" in result.stderr


def test_new_refused_by_a_rule_exits_1(adj):
    fails(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=0", "--id", "z"), 1,
          "NIM-SET-1: pile must be a whole number of at least 1, not 0\n")
    assert adj.head("z") == 0


def test_new_on_an_existing_id_writes_nothing(adj, m):
    fails(adj("new", "nim", "--player", "x", "--player", "y", "--id", "m"), 2,
          "error: match 'm' already exists (head is seq 2); nothing was written\n")
    assert adj.head("m") == 2


def test_new_setup_reads_json_from_a_file(adj, tmp_path, monkeypatch):
    (tmp_path / "v.json").write_text('"1"')
    ok(adj("new", "nim", "--player", "a", "--player", "b", "--setup", f"rules_version=@{tmp_path / 'v.json'}"), "nim-1\n")


# -- act ------------------------------------------------------------------------------------------
def test_act_accepted_prints_the_event_and_who_moves(adj, m):
    ok(adj("act", "m", "take", "player=bob", "count=2", "--by", "bob"),
       "m seq 3  bob  take  count=2 player=bob\n  pile: 4 -> 2\n  turn: 1 -> 0\n  taken[1]: 0 -> 2\nto move: alice\n")
    ok(adj("act", "m", "take", "player=alice", "count=2", "--by", "alice"),
       "m seq 4  alice  take  count=2 player=alice\n  ── won by alice\n  pile: 2 -> 0\n  turn: 0 -> 1\n  taken[0]: 3 -> 5\n"
       "  winner: null -> alice\n")
    out = json.loads(ok(adj("state", "m", "--json")).stdout)
    assert out["outcome"] == {"status": "won", "winner": "alice", "score": None, "reason": "last_stone", "detail": ""}


def test_act_json(adj, m):
    out = json.loads(ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob", "--json")).stdout)
    assert (out["accepted"], out["seq"], out["to_move"], out["outcome"]["status"]) == (True, 3, ["alice"], "in_progress")
    assert {k: out["event"][k] for k in ("match_id", "seq", "type", "by", "fields")} == {
        "match_id": "m", "seq": 3, "type": "take", "by": "bob", "fields": {"player": "bob", "count": 1}}
    assert len(out["event"]["hash"]) == 64


def test_act_rejected_by_a_rule_exits_1_and_records_the_attempt(adj, m):
    fails(adj("act", "m", "take", "player=bob", "count=4", "--by", "bob"), 1,
          "NIM-TAKE-1: bob may take 1 to 3 stones, not 4\n")
    fails(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice", "--json"), 1,
          "NIM-TURN-1: it is bob's turn, not alice's\n",
          json.dumps({"accepted": False, "match_id": "m", "head_seq": 2, "line": None, "type": "take", "by": "alice",
                      "rule": "NIM-TURN-1", "code": None, "message": "it is bob's turn, not alice's"},
                     separators=(",", ":")) + "\n")
    assert adj.head("m") == 2
    assert adj.rejections("m") == [(2, "take", "NIM-TAKE-1"), (2, "take", "NIM-TURN-1")]


@pytest.mark.parametrize(
    "args, stderr",
    [
        (["zz", "take", "player=bob", "count=1"], "error: no match 'zz' in the store; `adj matches` lists the matches\n"),
        (["m", "grab", "count=1"], "error: unknown action 'grab' (adj legal MATCH lists the actions open now) (at $.type)\n"),
        (["m", "take", "player=bob"], "error: take: count is missing (its fields: player, count) (at $.count)\n"),
        (["m", "take", "player=bob", "count=lots"], "error: take: count is a whole number, not 'lots' (at $.count)\n"),
        (["m", "take", "player=bob", "count=1", "colour=red"], "error: take: no field 'colour' (its fields: player, count) (at $.colour)\n"),
        (["m", "take", "player=bob", "count"], "error: Invalid value: 'count' is not FIELD=VALUE\n"),
        (["m", "take", "player=bob", "count=1", "count=2"], "error: Invalid value: 'count' is given twice\n"),
        (["m", "take", "player=bob", "count=1", "by=alice"], "error: Invalid value: 'by' cannot be given as FIELD=VALUE here (it has its own option)\n"),
        (["m", "take", "player=bob", "count=1", "seq=9"], "error: field 'seq' is reserved for the envelope (at $.seq)\n"),
        (["m", "take", "player=bob", "count={oops"], "error: Invalid value: '{oops' is not valid JSON (JSON is malformed: object keys must be strings (byte 1))\n"),
    ],
)
def test_act_malformed_exits_2_and_writes_nothing(adj, m, args, stderr):
    fails(adj("act", *args, "--by", "bob"), 2, stderr)
    assert adj.head("m") == 2
    assert adj.rejections("m") == []


def test_act_malformed_json_names_the_path(adj, m):
    result = adj("act", "m", "take", "player=bob", "count=x", "--by", "bob", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "malformed", "message": "take: count is a whole number, not 'x'", "path": "$.count"}


def test_act_retry_with_the_same_key_writes_nothing_new(adj, m):
    first = ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob", "--key", "t1-bob"))
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    retry = ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob", "--key", "t1-bob"))
    assert first.stdout.splitlines()[0] == retry.stdout.splitlines()[0] == "m seq 3  bob  take  count=1 player=bob"
    assert adj.head("m") == 4
    assert adj.rejections("m") == []


def test_act_conflict_writes_nothing_and_says_so(adj, m, monkeypatch):
    real = MatchService.load

    def stale(self, match_id, *, upto=None):  # another table entered seq 3 after we read the log
        return real(self, match_id, upto=2)

    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))
    monkeypatch.setattr(MatchService, "load", stale)
    message = (
        "another entry landed first: match 'm' is now at seq 3, not 2. Nothing was written: check the state "
        "again (adj state m) and re-enter the action if it still applies.\n"
    )
    fails(adj("act", "m", "take", "player=bob", "count=2", "--by", "bob"), 1, message)
    result = adj("act", "m", "take", "player=bob", "count=2", "--by", "bob", "--json")
    assert (result.exit_code, result.stderr) == (1, message)
    assert json.loads(result.stdout) == {"error": "conflict", "written": False, "match_id": "m",
                                         "expected_seq": 2, "head_seq": 3, "message": message.rstrip("\n")}
    assert adj.head("m") == 3
    assert adj.rejections("m") == []


def test_act_unknown_store_option_placement(adj, m):
    """--store is accepted after the command as well, and ADJ_STORE names the store too."""
    runner = CliRunner()
    ok(runner.invoke(main, ["legal", "m", "--store", adj.path]), "bob: take player=bob count=<1-3>\n")
    ok(runner.invoke(main, ["legal", "m"], env={"ADJ_STORE": adj.path}), "bob: take player=bob count=<1-3>\n")


# -- legal, state ---------------------------------------------------------------------------------
def test_legal(adj, m):
    ok(adj("legal", "m"), "bob: take player=bob count=<1-3>\n")
    assert json.loads(ok(adj("legal", "m", "--json")).stdout)["actions"] == [
        {"who": "bob", "type": "take", "text": "take player=bob count=<1-3>", "note": "", "anytime": False,
         "fields": {"player": {"kind": "one", "values": ["bob"], "min": 0, "max": None, "optional": False},
                    "count": {"kind": "int", "values": [], "min": 1, "max": 3, "optional": False}}}]
    ok(adj("act", "m", "take", "player=bob", "count=3", "--by", "bob"))
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    # the match is decided: nothing is open but the players' confirmations of its end, never required
    assert ok(adj("legal", "m")).stdout.splitlines() == [
        "nothing is open; outcome: won by alice",
        "alice may sign the head (won by alice: adj confirm m --as alice --player-key FILE)",
        "bob may sign the head (won by alice: adj confirm m --as bob --player-key FILE)"]
    assert [(a["who"], a["type"], a["anytime"]) for a in json.loads(ok(adj("legal", "m", "--json")).stdout)["actions"]] == [
        ("alice", "confirm", True), ("bob", "confirm", True)]


def test_state_now_at_a_seq_and_as_a_player(adj, branched):
    ok(adj("state", "m"), "m after seq 6 (head)\npile 1; alice to move\noutcome: in progress\nto move: alice\n")
    ok(adj("state", "m", "--at", "4"),
       "m after seq 4 of 6, abandoned by rewind at 5\npile 1; bob to move\noutcome: in progress\nto move: bob\n")
    ok(adj("state", "m", "--at", "2", "--as", "alice"),
       "m after seq 2 of 6, as alice\npile 4; bob to move\noutcome: in progress\nto move: not alice\n")
    ok(adj("state", "m", "--at", "2", "--as", "carol"),  # any other name: a spectator
       "m after seq 2 of 6, as carol (spectator)\npile 4; bob to move\noutcome: in progress\n")
    data = json.loads(ok(adj("state", "m", "--at", "5", "--as", "judge", "--json")).stdout)
    assert data == {"match_id": "m", "seq": 5, "head_seq": 6, "as": "judge", "abandoned_by": None,
                    "state": {"players": ["alice", "bob"], "pile": 4, "turn": 1, "taken": [3, 0], "rewinds": 1,
                              "winner": None},
                    "outcome": {"status": "in_progress", "winner": None, "score": None, "reason": None, "detail": ""},
                    "to_move": ["bob"]}


@pytest.mark.parametrize(
    "args, stderr",
    [
        (["--at", "7"], "error: Invalid value for '--at': m has events 1 to 6, not 7\n"),
        (["--at", "0"], "error: Invalid value for '--at': m has events 1 to 6, not 0\n"),
        (["--as", " "], "error: Invalid value for '--as': name a player, judge, or a spectator\n"),
    ],
)
def test_state_bad_usage(adj, branched, args, stderr):
    fails(adj("state", "m", *args), 2, stderr)


def test_state_unknown_match(adj):
    fails(adj("state", "nope"), 2, "error: no match 'nope' in the store; `adj matches` lists the matches\n")
    result = adj("state", "nope", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {"error": "unknown_match", "match_id": "nope",
                                         "message": "no match 'nope' in the store"}


# -- log, replay ----------------------------------------------------------------------------------
def test_log_marks_abandoned_events_and_rejected_attempts(adj, branched):
    ok(adj("log", "m"), "\n".join([
        "m: nim, alice v bob, 6 events",
        "no entry is signed: each author is only what was typed with --by, a claim anyone at a terminal could make "
        "(docs/audit.md)",
        "  1  judge  match_started  game=nim options={\"pile\":7} players=[alice,bob] rules_version=1",
        "  2  alice  take           count=3 player=alice",
        "~ 3  bob    take           count=2 player=bob  [abandoned by rewind at 5]",
        "~ 4  alice  take           count=1 player=alice  [abandoned by rewind at 5]",
        "x    bob    take           count=5 player=bob  [rejected: NIM-TAKE-1: bob may take 1 to 3 stones, not 5]",
        "  5  judge  rewind         reason=\"miscounted the pile\" to_seq=2",
        "  6  bob    take           count=3 player=bob",
        "outcome: in progress",
    ]) + "\n")
    data = json.loads(ok(adj("log", "m", "--json")).stdout)
    assert data["branches"] == [{"rewind_seq": 5, "to_seq": 2, "abandoned": [3, 4]}]
    assert [(h.get("seq"), h.get("abandoned_by"), h.get("rule"), h.get("signed", "-")) for h in data["history"]] == [
        (1, None, None, None), (2, None, None, None), (3, 5, None, None), (4, 5, None, None), (None, None, "NIM-TAKE-1", "-"),
        (5, None, None, None), (6, None, None, None)]
    assert data["outcome"]["status"] == "in_progress"


def test_replay_shows_what_each_event_changed(adj, branched):
    ok(adj("replay", "m", "--from", "4", "--to", "6"), "\n".join([
        "~ 4  alice  take    count=1 player=alice  [abandoned by rewind at 5]",
        "        pile: 2 -> 1",
        "        turn: 0 -> 1",
        "        taken[0]: 3 -> 4",
        "x    bob    take    count=5 player=bob  [rejected: NIM-TAKE-1: bob may take 1 to 3 stones, not 5]",
        "  5  judge  rewind  reason=\"miscounted the pile\" to_seq=2",
        "        pile: 1 -> 4",
        "        taken[0]: 4 -> 3",
        "        taken[1]: 2 -> 0",
        "        rewinds: 0 -> 1",
        "  6  bob    take    count=3 player=bob",
        "        pile: 4 -> 1",
        "        turn: 1 -> 0",
        "        taken[1]: 0 -> 3",
        "outcome after seq 6: in progress",
    ]) + "\n")
    data = json.loads(ok(adj("replay", "m", "--to", "1", "--json")).stdout)
    assert data["history"][0]["changes"][:2] == [{"path": "players", "new": ["alice", "bob"]}, {"path": "pile", "new": 7}]


@pytest.mark.parametrize("args", [["--from", "3", "--to", "2"], ["--to", "7"], ["--from", "0"]])
def test_replay_bad_range_exits_2(adj, branched, args):
    result = adj("replay", "m", *args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: Invalid value: m has events 1 to 6;")


# -- rewind, correct ------------------------------------------------------------------------------
def test_rewind(adj, m):
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))
    fails(adj("rewind", "m", "--to", "1", "--reason", "x", "--by", "bob"), 1, "NIM-JDG-1: only the judge may rewind\n")
    fails(adj("rewind", "m", "--to", "9", "--reason", "x", "--by", "judge"), 1,
          "ADJ-REW-1: cannot rewind to seq 9: it is not an earlier event of the effective history\n")
    ok(adj("rewind", "m", "--to", "1", "--reason", "wrong pile", "--by", "judge"),
       'm seq 4  judge  rewind  reason="wrong pile" to_seq=1\nabandoned: 2, 3\n  pile: 3 -> 7\n  taken[0]: 3 -> 0\n'
       '  taken[1]: 1 -> 0\n  rewinds: 0 -> 1\nto move: alice\n')
    fails(adj("rewind", "m", "--to", "1", "--reason", "x", "--by", "judge", "cause=oops"), 2,
          "error: rewind: no field 'cause' (its fields: to_seq, reason) (at $.cause)\n")
    assert adj.head("m") == 4


def test_correct_inserts_an_action_and_rechecks_what_follows(adj, m):
    ok(adj("rewind", "m", "--to", "1", "--reason", "restart", "--by", "judge"))
    # count=1 arrives as a string: the nested event is converted by the game's own types
    ok(adj("correct", "m", "--at", "3", "take", "player=alice", "count=1", "by=alice", "--reason", "forgot the first take",
           "--by", "judge"),
       'm seq 4  judge  correct  at_seq=3 event={"by":"alice","count":1,"player":"alice","type":"take"} '
       'reason="forgot the first take"\ninserted before seq 3: +  alice  take  count=1 player=alice\nto move: alice\n')
    assert export(adj, "m")[3]["event"] == {"type": "take", "by": "alice", "player": "alice", "count": 1}
    assert ok(adj("log", "m")).stdout.splitlines()[5] == (
        '  4  judge  correct        at_seq=3 reason="forgot the first take"  [inserts: alice take count=1 player=alice]')


def test_correct_that_breaks_a_later_event_is_rejected(adj, m):
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"))
    fails(adj("correct", "m", "--at", "3", "take", "player=alice", "count=1", "--reason", "r", "--by", "judge"), 1,
          "NIM-TURN-1: the inserted take cannot stand before seq 3: it is bob's turn, not alice's\n")
    fails(adj("correct", "m", "--at", "3", "take", "player=bob", "count=1", "--reason", "r", "--by", "judge"), 1,
          "NIM-TURN-1: the correction conflicts with seq 3 (take), which would no longer hold: "
          "it is alice's turn, not bob's\n")
    assert adj.head("m") == 3
    assert [r[2] for r in adj.rejections("m")] == ["NIM-TURN-1", "NIM-TURN-1"]


@pytest.mark.parametrize(
    "args, stderr",
    [
        (["take", "player=alice", "count=x"], "error: take: count is a whole number, not 'x' (at $.event.count)\n"),
        (["take", "player=alice", "count=1", "--with", "basis=x"], "error: correct: no field 'basis' (its fields: at_seq, event, reason) (at $.basis)\n"),
        (["rewind", "to_seq=1", "reason=x"], "error: a correction cannot insert a 'rewind' event (at $.event.type)\n"),
        (["take", "player=alice", "count=1", "by=null"], "error: Invalid value: by= must name who the inserted action is by\n"),
    ],
)
def test_correct_malformed_exits_2(adj, m, args, stderr):
    fails(adj("correct", "m", "--at", "2", *args, "--reason", "r", "--by", "judge"), 2, stderr)
    assert (adj.head("m"), adj.rejections("m")) == (2, [])


# -- check ----------------------------------------------------------------------------------------
def test_check_clean_file(adj, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [START, take("alice", 3), take("bob", 2)])
    ok(adj("check", path), "3 events read, 3 accepted, 0 rejected\noutcome: won by bob\n")
    assert json.loads(ok(adj("check", path, "--json")).stdout) == {
        "events": 3,
        "accepted": 3,
        "rejection": None,
        "rejections": [],
        "outcome": {"status": "won", "winner": "bob", "score": None, "reason": "last_stone", "detail": ""},
        "state": {"players": ["alice", "bob"], "pile": 0, "turn": 0, "taken": [3, 2], "rewinds": 0, "winner": "bob"},
    }
    assert adj.match_ids() == []  # check stores nothing


def test_check_reports_every_rejected_line_and_goes_on(adj, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [START, take("bob", 1), take("alice", 4), take("alice", 2)])
    fails(adj("check", path), 1, "NIM-TURN-1: it is alice's turn, not bob's (line 2)\n", "\n".join([
        "line 2: take by bob rejected: NIM-TURN-1: it is alice's turn, not bob's",
        "line 3: take by alice rejected: NIM-TAKE-1: alice may take 1 to 3 stones, not 4",
        "4 events read, 2 accepted, 2 rejected",
        "outcome: in progress",
    ]) + "\n")
    result = adj("check", path, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["rejection"] == {"accepted": False, "match_id": None, "head_seq": 1, "line": 2, "type": "take", "by": "bob",
                                 "rule": "NIM-TURN-1", "code": None, "message": "it is alice's turn, not bob's"}
    assert [(r["line"], r["rule"]) for r in data["rejections"]] == [(2, "NIM-TURN-1"), (3, "NIM-TAKE-1")]
    assert (data["events"], data["accepted"], data["state"]["pile"]) == (4, 2, 3)


def test_check_reads_stdin(adj):
    text = "".join(json.dumps(o) + "\n" for o in [START, take("alice", 1)])
    ok(adj("check", "-", input=text), "2 events read, 2 accepted, 0 rejected\noutcome: in progress\n")


@pytest.mark.parametrize(
    "content, stderr",
    [
        ("", "error: the log is empty: a match file starts with a match_started line (at line 1)\n"),
        ("\n  \n", "error: the log is empty: a match file starts with a match_started line (at line 1)\n"),
        (json.dumps(START) + '\n{"type": "take", "by": "alice", "player": "al',
         "error: line 2 is not valid JSON (Input data was truncated)\n"),
        (json.dumps(START) + '\n[1]\n', "error: line 2 is not a JSON object\n"),
        (json.dumps(START) + '\n{"type": "grab", "by": "alice"}\n', "error: unknown action 'grab' (adj legal MATCH lists the actions open now) (at line 2: $.type)\n"),
        (json.dumps(take("alice", 1)) + "\n", "error: line 1: a match file starts with match_started, not 'take' (at line 1: $.type)\n"),
    ],
)
def test_check_malformed_file_exits_2(adj, tmp_path, content, stderr):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    fails(adj("check", str(path)), 2, stderr)


def test_check_dev_null_exits_2(adj):
    result = adj("check", "/dev/null", "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"] == "malformed"


def test_check_missing_file_is_a_usage_error(adj, tmp_path):
    result = adj("check", str(tmp_path / "none.jsonl"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


# -- export, import, tampering --------------------------------------------------------------------
def test_export_is_sealed_and_checks_clean(adj, branched, tmp_path):
    events = export(adj, "m")
    assert [e["seq"] for e in events] == [1, 2, 3, 4, 5, 6]
    assert all(e["match_id"] == "m" and len(e["hash"]) == 64 for e in events)
    assert [e["prev"] for e in events[1:]] == [e["hash"] for e in events[:-1]]
    path = write_jsonl(tmp_path / "x.jsonl", events)
    ok(adj("check", path), "6 events read, 6 accepted, 0 rejected\noutcome: in progress\n")
    history = [{**{k: e[k] for k in ("match_id", "seq", "type", "by", "recorded_at", "prev", "hash")},
                "fields": {k: v for k, v in e.items() if k not in ("match_id", "seq", "type", "by", "recorded_at", "prev", "hash")}}
               for e in events]
    assert json.loads(ok(adj("export", "m", "--json")).stdout) == {"match_id": "m", "events": 6, "history": history}


def tamper_field(events):
    events[2]["count"] += 1


def tamper_delete(events):
    del events[2]


def tamper_swap(events):
    events[2], events[3] = events[3], events[2]


def tamper_prev(events):
    events[3]["prev"] = events[1]["hash"]


@pytest.mark.parametrize(
    "tamper, where",
    [
        (tamper_field, "integrity failure in m at seq 3: hash does not match the event's content\n"),
        (tamper_delete, "integrity failure in m at seq 4: expected seq 3, found 4\n"),
        (tamper_swap, "integrity failure in m at seq 4: expected seq 3, found 4\n"),
        (tamper_prev, "integrity failure in m at seq 4: prev does not match the hash of the previous event\n"),
    ],
)
def test_tampered_export_exits_3_on_check_and_import(adj, branched, tmp_path, tamper, where):
    events = export(adj, "m")
    tamper(events)
    path = write_jsonl(tmp_path / "bad.jsonl", events)
    fails(adj("check", path), 3, where)
    result = adj("check", path, "--json")
    assert result.exit_code == 3
    assert json.loads(result.stdout)["error"] == "integrity"
    other = Adj(tmp_path / "other.sqlite3")
    fails(other("import", path), 3, where)
    assert other.match_ids() == []


def test_import_sealed_file_keeps_its_hashes(adj, branched, tmp_path):
    events = export(adj, "m")
    path = write_jsonl(tmp_path / "x.jsonl", events)
    other = Adj(tmp_path / "other.sqlite3")
    ok(other("import", path), "imported m: 6 events; outcome: in progress\n")
    assert export(other, "m") == events
    fails(other("import", path), 2, "error: match 'm' already exists (head is seq 6); nothing was written\n")
    fails(other("import", path, "--id", "n"), 2,
          "error: the file is sealed for match 'm'; it cannot be imported as 'n' (its hashes cover the id): "
          "leave out --id to import it as 'm' (at $.match_id)\n")


def test_import_id_from_option_file_or_name(adj, tmp_path):
    path = write_jsonl(tmp_path / "club-night.jsonl", [START, take("alice", 2)])
    ok(adj("import", path), "imported club-night: 2 events; outcome: in progress\n")
    ok(adj("import", path, "--id", "again", "--json"),
       '{"match_id":"again","events":2,"outcome":{"status":"in_progress","winner":null,"score":null,"reason":null,"detail":""}}\n')
    named = write_jsonl(tmp_path / "n.jsonl", [dict(START, match_id="named"), take("alice", 2)])
    ok(adj("import", named), "imported named: 2 events; outcome: in progress\n")
    assert adj.match_ids() == ["again", "club-night", "named"]


def test_import_is_all_or_nothing(adj, tmp_path):
    path = write_jsonl(tmp_path / "g.jsonl", [START, take("alice", 2), take("alice", 1)])
    fails(adj("import", path), 1, "NIM-TURN-1: line 3 (take): it is bob's turn, not alice's\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    fails(adj("import", str(empty)), 2, "error: the log is empty: a match file starts with a match_started line (at line 1)\n")
    assert adj.match_ids() == []
    assert adj.rejections("g") == []


# -- verify, matches ------------------------------------------------------------------------------
def test_verify_all_and_one(adj, branched):
    ok(adj("new", "nim", "--player", "a", "--player", "b", "--id", "n"))
    no_checkpoint = ("no checkpoint: nothing here is under a signed checkpoint, so events cut off the end of a match, "
                     "or a match rewritten whole, would not show (adj audit checkpoint)")
    ok(adj("verify"), "m: ok: 6 events, chain intact, re-adjudicated; 1 rejected attempt(s) refused again by the same rule\n"
                      f"n: ok: 1 events, chain intact, re-adjudicated\naudit: {no_checkpoint}\n")
    ok(adj("verify", "n"), f"n: ok: 1 events, chain intact, re-adjudicated\n  {no_checkpoint}\n")
    ok(adj("verify", "n", "--json"), '{"ok":true,"matches":[{"match_id":"n","ok":true,"events":1,"rejections_rechecked":0,'
                                     '"checkpoint":null}]}\n')
    fails(adj("verify", "zz"), 2, "error: no match 'zz' in the store; `adj matches` lists the matches\n")


def test_verify_empty_store(adj):
    ok(adj("verify"), "no matches in the store\n")


def test_tampered_store_row_fails_verify_and_matches_with_3(adj, clock, branched):
    ok(adj("new", "nim", "--player", "a", "--player", "b", "--id", "n"))
    adj.sql("UPDATE events SET payload = ? WHERE match_id = 'm' AND seq = 3", '{"count":1,"player":"bob"}')
    failure = "integrity failure in m at seq 3: hash does not match the event's content"
    fails(adj("verify"), 3, "integrity failure: m do(es) not verify\n",
          f"m: FAILED: {failure}\nn: ok: 1 events, chain intact, re-adjudicated\naudit: no checkpoint: nothing here is "
          "under a signed checkpoint, so events cut off the end of a match, or a match rewritten whole, would not show "
          "(adj audit checkpoint)\n")
    result = adj("verify", "m", "--json")
    assert (result.exit_code, json.loads(result.stdout)) == (
        3, {"ok": False, "matches": [{"match_id": "m", "ok": False, "events": 6, "error": failure}]})
    fails(adj("matches"), 3, "1 match(es) do not verify: run adj verify\n",
          f"m  6 events  UNREADABLE: {failure}\nn  nim  a v b  1 events  in progress, waiting for a  "
          f"started 2026-03-01 10:07, last moved 2026-03-01 10:07\n")
    fails(adj("state", "m"), 3, failure + "\n")


def test_a_rejection_record_that_no_longer_holds_fails_verify(adj, branched):
    adj.sql("UPDATE rejections SET rule = 'NIM-TAKE-2' WHERE match_id = 'm'")
    fails(adj("verify", "m"), 3, "integrity failure: m do(es) not verify\n",
          "m: FAILED: integrity failure in m: the 'take' attempted by bob at head seq 4 was refused by NIM-TAKE-2; "
          "re-adjudicated, by NIM-TAKE-1\n")


@pytest.fixture
def clock(monkeypatch):
    """Each event recorded a minute after the one before, from 2026-03-01 10:00 (UTC)."""
    ticks = iter(range(10_000))

    def now() -> str:
        minute = next(ticks)
        return f"2026-03-01T{10 + minute // 60:02d}:{minute % 60:02d}:00.000000Z"

    monkeypatch.setattr(MatchService.__init__, "__defaults__", (now, *MatchService.__init__.__defaults__[1:]))


def test_matches(adj, clock, branched):
    ok(adj("new", "nim", "--player", "carol", "--player", "dan", "--opt", "pile=1", "--id", "quick"))
    ok(adj("act", "quick", "take", "player=carol", "count=1", "--by", "carol"))
    ok(adj("matches"), "m  nim  alice v bob  6 events  in progress, waiting for alice  started 2026-03-01 10:00, "
                       "last moved 2026-03-01 10:06\n"
                       "quick  nim  carol v dan  2 events  won by carol  started 2026-03-01 10:07, last moved 2026-03-01 10:08\n")
    rows = json.loads(ok(adj("matches", "--json")).stdout)["matches"]
    assert [(r["match_id"], r["game"], r["players"], r["head_seq"], r["outcome"]["status"], r["outcome"]["winner"])
            for r in rows] == [
        ("m", "nim", ["alice", "bob"], 6, "in_progress", None),
        ("quick", "nim", ["carol", "dan"], 2, "won", "carol"),
    ]


def test_matches_filters_by_game_player_status_and_who_the_table_waits_for(adj, clock, branched):
    ok(adj("new", "nim", "--player", "carol", "--player", "dan", "--opt", "pile=1", "--id", "quick"))
    ok(adj("act", "quick", "take", "player=carol", "count=1", "--by", "carol"))
    m_line = "m  nim  alice v bob  6 events  in progress, waiting for alice  started 2026-03-01 10:00, last moved 2026-03-01 10:06\n"
    quick = "quick  nim  carol v dan  2 events  won by carol  started 2026-03-01 10:07, last moved 2026-03-01 10:08\n"
    ok(adj("matches", "--player", "carol"), quick)
    ok(adj("matches", "--status", "won"), quick)
    ok(adj("matches", "--status", "in_progress", "--waiting", "alice"), m_line)
    ok(adj("matches", "--game", "nim", "--player", "alice"), m_line)
    ok(adj("matches", "--waiting", "bob"), "no matches in the store that match\n")
    ok(adj("matches", "--game", "bacdef"), "no matches in the store that match\n")
    rows = json.loads(ok(adj("matches", "--waiting", "alice", "--json")).stdout)["matches"]
    assert [(r["match_id"], r["started_at"], r["updated_at"], r["waiting_for"]) for r in rows] == [
        ("m", "2026-03-01T10:00:00.000000Z", "2026-03-01T10:06:00.000000Z", ["alice"])]
    result = adj("matches", "--status", "lost")
    assert result.exit_code == 2 and "'lost' is not one of 'in_progress', 'won', 'drawn', 'void'" in result.stderr


def test_summary_gives_a_match_in_a_few_lines(adj, clock, branched):
    ok(adj("note", "m", "bob counted aloud", "--at", "3", "--by", "judge"))
    ok(adj("penalty", "m", "--player", "bob", "--infraction", "slow_play", "--penalty", "warning", "--at", "6",
           "--reason", "third reminder", "--by", "judge"))
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("summary", "m"),
       "m: nim, alice v bob, 9 events, started 2026-03-01 10:00, last moved 2026-03-01 10:09\n"
       "result: won by alice [last_stone]\n"
       "turns: not counted (nim shows no turn)\n"
       "rewinds: 1\n"
       "  seq 5: back to 2 by judge: miscounted the pile\n"
       "corrections: 0\n"
       "notes: 1\n"
       "  at seq 3: bob counted aloud\n"
       "penalties: 1\n"
       "  bob: warning for slow_play at seq 6: third reminder\n"
       "rejected attempts: 1\n")
    data = json.loads(ok(adj("summary", "m", "--json")).stdout)
    assert (data["events"], data["outcome"]["winner"], data["rewinds"], data["rejected"]) == (
        9, "alice", [{"seq": 5, "by": "judge", "abandoned": False, "to_seq": 2, "reason": "miscounted the pile"}], 1)
    fails(adj("summary", "zz"), 2, "error: no match 'zz' in the store; `adj matches` lists the matches\n")


def test_matches_empty(adj):
    ok(adj("matches"), "no matches in the store\n")
    ok(adj("matches", "--json"), '{"matches":[]}\n')


# -- deck check, store copy -----------------------------------------------------------------------
def test_deck_check(adj, tmp_path, monkeypatch):
    deck = tmp_path / "deck.txt"
    deck.write_text("anything\n")
    ok(adj("deck", "check", "nim", str(deck)), "ok\n")
    monkeypatch.setattr(toygame.GAME, "check_deck", lambda d, options=None: [
        Violation("NIM-DECK-1", "too many stones", "E_SIZE"), Violation("NIM-DECK-2", "no pebbles")])
    fails(adj("deck", "check", "nim", str(deck)), 1, "NIM-DECK-1: too many stones\nNIM-DECK-2: no pebbles\n")
    result = adj("deck", "check", "nim", str(deck), "--json")
    assert json.loads(result.stdout) == {
        "ok": False, "game": "nim", "deck": ["anything"],
        "violations": [{"rule": "NIM-DECK-1", "code": "E_SIZE", "message": "too many stones"},
                       {"rule": "NIM-DECK-2", "code": None, "message": "no pebbles"}]}

    def with_options(d, options=None):  # the game receives its decoded Options
        return [Violation("NIM-DECK-3", f"a pile of {options.pile}")]

    monkeypatch.setattr(toygame.GAME, "check_deck", with_options)
    fails(adj("deck", "check", "nim", str(deck), "--opt", "pile=3"), 1, "NIM-DECK-3: a pile of 3\n")
    fails(adj("deck", "check", "nim", str(deck), "--opt", "stones=3"), 2,
          "error: unknown Nim option 'stones'; options: pile (at $.options.stones)\n")
    fails(adj("deck", "check", "chess", str(deck)), 2,
          f"error: unknown game 'chess'; known games: {', '.join(registry.names())} (at $.game)\n")


def test_store_copy_keeps_hashes(adj, branched, tmp_path):
    target = str(tmp_path / "copy.sqlite3")
    ok(adj("store", "copy", adj.path, target), "copied 1 match(es): m\n")
    copy = Adj(target)
    assert export(copy, "m") == export(adj, "m")
    assert copy.rejections("m") == adj.rejections("m")
    fails(adj("store", "copy", adj.path, target), 2, "error: match 'm' already exists (head is seq 6); nothing was written\n")
    fails(adj("store", "copy", str(tmp_path / "none.sqlite3"), target), 2,
          f"error: Invalid value for FROM: no store at '{tmp_path / 'none.sqlite3'}'\n")
    fails(adj("store", "copy", adj.path, target, "--match", "zz"), 2,
          f"error: Invalid value for '--match': no match 'zz' in '{adj.path}'\n")


@pytest.mark.postgres
def test_a_match_kept_in_postgresql_copies_to_sqlite_with_its_hashes(pg_schema, tmp_path):
    runner = CliRunner()

    def pg(*args: str):
        return runner.invoke(main, ["--store", pg_schema, *args], catch_exceptions=False)

    ok(pg("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"), "m\n")
    ok(pg("act", "m", "take", "player=alice", "count=2", "--by", "alice"))
    fails(pg("act", "m", "take", "player=alice", "count=1", "--by", "alice"), 1, "NIM-TURN-1: it is bob's turn, not alice's\n")
    copy = Adj(tmp_path / "copy.sqlite3")
    ok(pg("store", "copy", pg_schema, copy.path), "copied 1 match(es): m\n")
    assert export(copy, "m") == [json.loads(line) for line in ok(pg("export", "m")).stdout.splitlines()]
    for store in (copy, pg):
        assert ok(store("verify")).stdout.splitlines()[0] == (
            "m: ok: 2 events, chain intact, re-adjudicated; 1 rejected attempt(s) refused again by the same rule")
