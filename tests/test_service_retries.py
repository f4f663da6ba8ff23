"""The audit trail and retries: a refused creation belongs to no match, and an idempotency key
stands for one action only."""

from __future__ import annotations

import pytest

from adjudicator.engine.protocol import Malformed
from adjudicator.service import MatchService
from events.memory import MemoryStore
from events.sqlite import SQLiteStore
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)


@pytest.fixture(params=["memory", "sqlite"])
def svc(request, tmp_path):
    store = MemoryStore() if request.param == "memory" else SQLiteStore(str(tmp_path / "s.sqlite3"))
    yield MatchService(store)
    store.close()


def test_a_refused_creation_is_not_inherited_by_the_next_match_under_that_id(svc):
    refused = svc.new("nim", ["alice", "bob"], options={"pile": 0})
    assert not refused.accepted and refused.violation.rule_id == "NIM-SET-1"
    assert refused.match.match_id == "nim-1"
    made = svc.new("nim", ["x", "y"], options={"pile": 5})
    assert made.accepted and made.match.match_id == "nim-1"
    assert svc.store.rejections("nim-1") == []
    assert svc.recheck_rejections(svc.verify("nim-1")) == 0


def test_a_refused_creation_under_a_given_id_leaves_no_record(svc):
    assert not svc.new("nim", ["alice", "bob"], options={"pile": 0}, match_id="z").accepted
    assert svc.store.rejections("z") == [] and svc.store.head("z") == 0


def test_a_retry_under_the_same_key_returns_the_stored_event(svc):
    svc.new("nim", ["alice", "bob"], options={"pile": 9}, match_id="m")
    first = svc.submit("m", "take", "alice", {"player": "alice", "count": "2"}, strict=False, idempotency_key="k1")
    again = svc.submit("m", "take", "alice", {"player": "alice", "count": 2}, idempotency_key="k1")
    assert again.accepted and again.event == first.event and svc.store.head("m") == 2


@pytest.mark.parametrize(
    "type_, by, fields",
    [
        ("take", "alice", {"player": "alice", "count": 1}),  # another count
        ("take", "bob", {"player": "bob", "count": 2}),  # another author
        ("rewind", "judge", {"to_seq": 1, "reason": "slip"}),  # another action
    ],
)
def test_the_same_key_for_a_different_action_is_refused_and_writes_nothing(svc, type_, by, fields):
    svc.new("nim", ["alice", "bob"], options={"pile": 9}, match_id="m")
    svc.submit("m", "take", "alice", {"player": "alice", "count": 2}, idempotency_key="k1")
    with pytest.raises(Malformed) as err:
        svc.submit("m", type_, by, fields, idempotency_key="k1")
    assert err.value.message == (
        "the key 'k1' was used for seq 2  alice  take  count=2 player=alice; "
        "a different action needs a key of its own (nothing was written)"
    )
    assert svc.store.head("m") == 2 and svc.store.rejections("m") == []


def test_cli_refused_new_then_a_new_match_shows_no_inherited_attempt(tmp_path):
    from click.testing import CliRunner

    from cli.main import main

    run = lambda *a: CliRunner().invoke(main, ["--store", str(tmp_path / "s.sqlite3"), *a])  # noqa: E731
    assert run("new", "nim", "--player", "a", "--player", "b", "--opt", "pile=0").exit_code == 1
    made = run("new", "nim", "--player", "x", "--player", "y")
    assert (made.exit_code, made.stdout) == (0, "nim-1\n")
    log = run("log", "nim-1")
    assert log.exit_code == 0 and "rejected" not in log.stdout


def test_cli_same_key_for_another_action_exits_2(tmp_path):
    from click.testing import CliRunner

    from cli.main import main

    run = lambda *a: CliRunner().invoke(main, ["--store", str(tmp_path / "s.sqlite3"), *a])  # noqa: E731
    run("new", "nim", "--player", "alice", "--player", "bob", "--id", "g2")
    assert run("act", "g2", "take", "player=alice", "count=1", "--by", "alice", "--key", "k1").exit_code == 0
    again = run("act", "g2", "take", "player=bob", "count=1", "--by", "bob", "--key", "k1")
    assert again.exit_code == 2
    assert again.stderr == ("error: the key 'k1' was used for seq 2  alice  take  count=1 player=alice; "
                            "a different action needs a key of its own (nothing was written) (at idempotency_key)\n")


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two_terminals(request, tmp_path):
    """Two services on one store, as two processes would hold it (on a file or a server, each its own
    connection)."""
    if request.param == "memory":
        store = MemoryStore()
        stores = [store, store]
    elif request.param == "sqlite":
        stores = [SQLiteStore(str(tmp_path / "s.sqlite3")) for _ in range(2)]
    else:
        from events.postgres import PostgresStore

        url = request.getfixturevalue("pg_schema")
        stores = [PostgresStore(url) for _ in range(2)]
    yield [MatchService(s) for s in stores]
    for s in stores:
        s.close()


def test_a_retry_that_loses_the_race_to_its_own_first_attempt_is_answered_once_and_not_checked(two_terminals, monkeypatch):
    """The first attempt lands between the retry's look-up of its key and its read of the match: the
    retry must not check the action against a match that already holds it (alice's take would then
    be refused, it being bob's turn) nor record a rejection."""
    first, retry = two_terminals
    first.new("nim", ["alice", "bob"], options={"pile": 9}, match_id="m")
    take = {"player": "alice", "count": 2}
    look_up = retry.store.events_for_key
    landed = []

    def racing(match_id, key):
        found = look_up(match_id, key)
        if not landed:  # the first attempt commits right after the retry found nothing
            landed.append(None)
            landed[0] = first.submit("m", "take", "alice", take, idempotency_key="t1-alice")
        return found

    monkeypatch.setattr(retry.store, "events_for_key", racing)
    again = retry.submit("m", "take", "alice", take, idempotency_key="t1-alice")
    assert (again.accepted, again.violation, again.event) == (True, None, landed[0].event)
    assert [(e.seq, e.type) for e in retry.store.read("m")] == [(1, "match_started"), (2, "take")]
    assert retry.store.rejections("m") == []
