"""A store that requires keys for every seat (adj store policy --require-keys): a match enters it
only when every player has a registered key, each player's action is then signed by that player,
and every judge's decision by a registered judge; verify holds the store to it."""

from __future__ import annotations

import json

import pytest

from events.signing import create_signing_key
from tests.test_audit_cli import adj  # noqa: F401  (fixture)
from tests.test_cli import fails, ok


@pytest.fixture
def keys(tmp_path):
    return {name: create_signing_key(str(tmp_path / "keys" / f"{name}.pem")) for name in ("alice", "bob", "ann")}


def test_a_store_that_requires_keys_takes_only_matches_whose_every_seat_has_one(adj, keys, tmp_path):
    ok(adj("store", "policy"), "keys are not required: where no key is registered, --by is a claim "
                               "(adj store policy --require-keys requires them)\n")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "before"))
    club = type(adj)(tmp_path / "club.sqlite3")  # a match played elsewhere, without keys
    ok(club("new", "nim", "--player", "alice", "--player", "bob", "--id", "club"))
    ok(club("act", "club", "take", "player=alice", "count=1", "--by", "alice"))
    ok(club("act", "club", "take", "player=bob", "count=1", "--by", "bob"))
    (tmp_path / "club.jsonl").write_text(ok(club("export", "club")).stdout)
    ok(adj("store", "policy", "--require-keys"), "keys are now required for every seat (set by organiser); "
                                                 "checkpoint: tree size 2\n")
    data = json.loads(ok(adj("store", "policy", "--json")).stdout)
    assert (data["require_keys"], data["by"]) == (True, "organiser")
    ok(adj("store", "policy", "--require-keys"), f"keys are required for every seat since {data['since']} (set by "
                                                 "organiser)\n")  # once: nothing more is written
    for name in ("alice", "bob"):
        ok(adj("players", "add", name, "--pubkey", keys[name].path + ".pub"))
    fails(adj("new", "nim", "--player", "carol", "--player", "dan", "--id", "m"), 2,
          "error: this store requires keys for every seat, and carol, dan have no registered key: register them "
          "(adj players add NAME --pubkey FILE) before m enters it; nothing was written\n")
    fails(adj("new", "nim", "--player", "alice", "--player", "carol", "--id", "m"), 2,
          "error: this store requires keys for every seat, and carol has no registered key: register it "
          "(adj players add NAME --pubkey FILE) before m enters it; nothing was written\n")
    fails(adj("new", "nim", "--player", "alice", "--player", "bob", "--id", "m"), 2,
          "error: this store requires keys for every seat, the judge's too, and no judge is registered: "
          "'match_started' by judge in m needs a registered judge's key (adj judges add NAME --pubkey FILE); "
          "nothing was written\n")
    assert adj.match_ids() == ["before"]
    ok(adj("judges", "add", "ann", "--pubkey", keys["ann"].path + ".pub"))
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=9", "--id", "m",
           "--judge-key", keys["ann"].path))
    r = adj("act", "m", "take", "player=alice", "count=1", "--by", "alice")
    assert r.exit_code == 2 and "in m every player's action is signed with that player's registered key" in r.stderr
    ok(adj("act", "m", "take", "player=alice", "count=1", "--by", "alice", "--player-key", keys["alice"].path))
    # a match cannot come in unsigned by the back door either
    fails(adj("import", str(tmp_path / "club.jsonl"), "--judge-key", keys["ann"].path, "--player-key",
              keys["alice"].path), 2,
          f"error: in club every player's action is signed with that player's registered key, and the key "
          f"{keys['alice'].path!r} is not bob's: enter bob's actions at bob's terminal (--player-key FILE or "
          "ADJ_PLAYER_KEY); nothing was written\n")
    r = adj("store", "copy", club.path, adj.path, "--judge-key", keys["ann"].path)
    assert r.exit_code == 2 and "in club every player's action is signed" in r.stderr
    assert adj.match_ids() == ["before", "m"]
    # a match started before the policy keeps its rules
    ok(adj("act", "before", "take", "player=alice", "count=1", "--by", "alice"))
    ok(adj("audit", "checkpoint"))
    ok(adj("verify"))


def test_only_a_registered_judge_sets_the_policy_once_judges_are_registered(adj, keys):
    ok(adj("judges", "add", "ann", "--pubkey", keys["ann"].path + ".pub"))
    fails(adj("store", "policy", "--require-keys"), 2, "error: judges are registered already: requiring keys takes a "
                                                       "registered judge's key (--judge-key FILE or ADJ_JUDGE_KEY)\n")
    assert json.loads(ok(adj("store", "policy", "--json")).stdout)["require_keys"] is False
    ok(adj("store", "policy", "--require-keys", "--judge-key", keys["ann"].path))
    assert json.loads(ok(adj("store", "policy", "--json")).stdout)["by"] == "ann"


def test_verify_reports_a_match_slipped_in_past_the_policy_and_the_policy_removed(adj, keys):
    from adjudicator.service import MatchService
    from events.sqlite import SQLiteStore

    ok(adj("store", "policy", "--require-keys"))
    with SQLiteStore(adj.path) as store:  # straight into the store, past the signing layer
        MatchService(store).new("nim", ["alice", "bob"], match_id="m")
        started = store.read("m")[0].recorded_at
        since = json.loads(ok(adj("store", "policy", "--json")).stdout)["since"]
    ok(adj("audit", "checkpoint"))
    r = adj("verify", "--json")
    assert r.exit_code == 3
    assert json.loads(r.stdout)["audit"]["problems"] == [
        f"m: started at {started}, when the store required keys for every seat (since {since}), but not every player "
        "had a registered key",
        "m seq 1 (match_started by judge): a judge's decision without a judge's signature",
    ]
    adj.sql("DELETE FROM events")
    adj.sql("DELETE FROM audit_keys WHERE role = 'policy'")
    problems = json.loads(adj("verify", "--json").stdout)["audit"]["problems"]
    assert "leaf 0: a registered key is no longer in the store (removed)" in problems
