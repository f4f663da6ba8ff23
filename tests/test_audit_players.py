"""Players' keys: in a match started when all its players had registered keys, a table terminal
with a player's key can enter only that player's actions; other matches keep today's rules."""

from __future__ import annotations

import json

import pytest

from events.signing import create_signing_key
from tests.test_audit_cli import adj  # noqa: F401  (fixture)
from tests.test_cli import ok


@pytest.fixture
def keys(tmp_path):
    return {name: create_signing_key(str(tmp_path / "keys" / f"{name}.pem")) for name in ("alice", "bob", "carol")}


@pytest.fixture
def registered(adj, keys):
    for name in ("alice", "bob"):
        ok(adj("players", "add", name, "--pubkey", keys[name].path + ".pub"))
    return keys


def test_a_terminal_enters_only_its_own_players_actions(adj, registered, monkeypatch):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    monkeypatch.setenv("ADJ_PLAYER_KEY", registered["alice"].path)  # alice's table terminal
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    r = adj("act", "m", "take", "player=bob", "count=2", "--by", "bob")
    assert r.exit_code == 2
    assert r.stderr == (f"error: in m every player's action is signed with that player's registered key, and the key "
                        f"{registered['alice'].path!r} is not bob's: enter bob's actions at bob's terminal "
                        "(--player-key FILE or ADJ_PLAYER_KEY); nothing was written\n")
    assert adj.head("m") == 2
    ok(adj("act", "m", "take", "player=bob", "count=2", "--by", "bob", "--player-key", registered["bob"].path))
    monkeypatch.delenv("ADJ_PLAYER_KEY")
    r = adj("act", "m", "take", "player=alice", "count=1", "--by", "alice")
    assert r.exit_code == 2 and "and no player's key was given" in r.stderr
    rows = json.loads(ok(adj("matches", "--json")).stdout)["matches"]
    assert [(row["match_id"], row["signed"], row["signed_by"]) for row in rows] == [("m", True, "players")]
    ok(adj("audit", "checkpoint"))
    assert "  m: 2 action(s) signed by their players" in ok(adj("verify")).stdout.splitlines()
    decisions = json.loads(ok(adj("verify", "--json")).stdout)["audit"]["decisions"]
    assert [(d["seq"], d["role"], d["signer"]) for d in decisions] == [(2, "player", "alice"), (3, "player", "bob")]


def test_an_attempt_entered_for_another_player_is_not_recorded_as_theirs(adj, registered):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    # at alice's terminal, a take for bob that the rules would refuse (not bob's turn)
    r = adj("act", "m", "take", "player=bob", "count=2", "--by", "bob", "--player-key", registered["alice"].path)
    assert r.exit_code == 2 and f"the key {registered['alice'].path!r} is not bob's" in r.stderr
    assert (adj.head("m"), adj.rejections("m")) == (1, [])
    # bob's own refused attempt is recorded
    r = adj("act", "m", "take", "player=bob", "count=2", "--by", "bob", "--player-key", registered["bob"].path)
    assert (r.exit_code, r.stderr) == (1, "NIM-TURN-1: it is alice's turn, not bob's\n")
    assert adj.rejections("m") == [(1, "take", "NIM-TURN-1")]


def test_matches_without_every_players_key_keep_todays_rules(adj, registered):
    ok(adj("new", "nim", "--player", "alice", "--player", "carol", "--id", "c"))
    ok(adj("act", "c", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("act", "c", "take", "player=carol", "count=1", "--by", "carol"))
    rows = json.loads(ok(adj("matches", "--json")).stdout)["matches"]
    assert [(row["match_id"], row["signed"]) for row in rows] == [("c", False)]
    ok(adj("verify"))


def test_a_match_started_before_the_keys_keeps_todays_rules(adj, keys):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "early"))
    for name in ("alice", "bob"):
        ok(adj("players", "add", name, "--pubkey", keys[name].path + ".pub"))
    ok(adj("act", "early", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("verify"))


def test_a_missing_or_misattributed_player_signature_is_reported(adj, registered):
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice", "--player-key", registered["alice"].path))
    ok(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob", "--player-key", registered["bob"].path))
    adj.sql("DELETE FROM audit_signatures WHERE seq = 2")
    # alice's key signs bob's event, and the row says so
    from events.sqlite import SQLiteStore

    with SQLiteStore(adj.path) as store:
        bob_hash = store.read("m", 3, 3)[0].hash
    alice = registered["alice"]
    adj.sql("UPDATE audit_signatures SET signer = 'alice', public_key = ?, value = ? WHERE seq = 3",
            alice.public_key, alice.sign(bob_hash.encode()))
    r = adj("verify", "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout)["audit"]["problems"] == [
        "m seq 2 (take by alice): an action of alice without alice's signature",
        "m seq 3 (take by bob): signed by player 'alice', not by bob",
    ]


def test_log_says_who_signed_each_event_and_marks_the_unsigned_ones(adj, registered):
    """Where no key backs an entry, its --by is a claim: alice can enter bob's take as bob."""
    ok(adj("new", "nim", "--player", "alice", "--player", "carol", "--opt", "pile=9", "--id", "c"))
    ok(adj("act", "c", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("act", "c", "take", "player=carol", "count=2", "--by", "carol"))  # typed at alice's terminal, say
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice", "--player-key", registered["alice"].path))
    unsigned = ("[unsigned]: no key signed it, so its author is only what was typed with --by, a claim anyone at a "
                "terminal could make (docs/audit.md)")
    log = ok(adj("log", "c")).stdout.splitlines()
    assert log[1:5] == ["no entry is signed: each author is only what was typed with --by, a claim anyone at a "
                        "terminal could make (docs/audit.md)",
                        '  1  judge  match_started  game=nim options={"pile":9} players=[alice,carol] rules_version=1',
                        "  2  alice  take           count=1 player=alice",
                        "  3  carol  take           count=2 player=carol"]
    log = ok(adj("log", "m")).stdout.splitlines()
    assert log[1:4] == [unsigned,
                        '  1  judge  match_started  game=nim options={"pile":9} players=[alice,bob] rules_version=1  '
                        '[unsigned]',
                        "  2  alice  take           count=1 player=alice  [signed: player alice]"]
    history = json.loads(ok(adj("log", "m", "--json")).stdout)["history"]
    assert [h["signed"] for h in history] == [None, {"role": "player", "signer": "alice"}]
