"""Property: whatever is done to a checkpointed store behind its back (an event edited, deleted,
inserted, two swapped, the end of a log cut off, a rejected attempt dropped, a whole match's chain
rewritten consistently, a checkpoint replaced), the chain, the tree or a signed checkpoint shows
it; and an untouched store always verifies. Run on memory, SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.checkpoint import Checkpoint
from events.signing import create_signing_key
from tests.test_audit import _reseal, _seq
from tests.test_audit_support import make_rig, play
from tests.test_store_support import drop_schema, fresh_schema

TAKES = st.lists(st.tuples(st.sampled_from(["alice", "bob"]), st.integers(1, 4)), min_size=1, max_size=8)
KINDS = ["edit", "delete", "insert", "reorder", "truncate", "drop_rejection", "rewrite", "checkpoint"]


def _with_field(row: tuple, i_payload: int = 5) -> tuple:
    fields = json.loads(row[i_payload])
    fields["noted"] = True
    return row[:i_payload] + (json.dumps(fields, sort_keys=True, separators=(",", ":")),) + row[i_payload + 1:]


def apply_tampering(rig, kind: str, data) -> bool:
    """Tamper with match "a"; False when this store offers nothing of that kind to tamper with."""
    rows = rig.event_rows("a")
    n = len(rows)
    pick = lambda lo, hi: data.draw(st.integers(lo, hi))  # noqa: E731
    if kind == "edit":
        i = pick(0, n - 1)
        rows[i] = _with_field(rows[i])
    elif kind == "delete":
        if n < 2:
            return False
        i = pick(0, n - 2)  # a middle event (cutting off the end is "truncate")
        rows = rows[:i] + [_seq(r, r[1] - 1) for r in rows[i + 1:]]
    elif kind == "insert":
        i = pick(1, n)
        rows = rows[:i] + [_seq(_with_field(rows[i - 1]), i + 1)] + [_seq(r, r[1] + 1) for r in rows[i:]]
    elif kind == "reorder":
        if n < 2:
            return False
        i = pick(0, n - 2)
        j = pick(i + 1, n - 1)
        rows[i], rows[j] = _seq(rows[j], i + 1), _seq(rows[i], j + 1)
    elif kind == "truncate":
        rows = rows[: n - pick(1, n)]
    elif kind == "drop_rejection":
        count = len(rig.store.rejections("a"))
        if not count:
            return False
        rig.drop_rejection("a", pick(0, count - 1))
        return True
    elif kind == "rewrite":
        i = pick(0, n - 1)
        rows = _reseal(rows[:i] + [_with_field(rows[i])] + rows[i + 1:])
    elif kind == "checkpoint":
        cps = rig.auditor.checkpoints()
        i = pick(0, len(cps) - 1)
        forged = data.draw(st.binary(min_size=32, max_size=32)).hex()
        c = cps[i]
        cps[i] = Checkpoint(tree_size=c.tree_size, root=forged, created_at=c.created_at, public_key=c.public_key,
                            signature=c.signature)
        rig.set_checkpoints(cps)
        return True
    rig.put_event_rows("a", rows)
    return True


def run_case(rig, key, takes_a, takes_b, kind, data) -> None:
    play(rig.service, "a", takes_a)
    rig.auditor.checkpoint(key)
    play(rig.service, "b", takes_b)
    rig.auditor.checkpoint(key)
    assert rig.detect([key.public_key]) == []
    if apply_tampering(rig, kind, data):
        assert rig.detect([key.public_key]), f"{kind} went unnoticed"


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    return create_signing_key(str(tmp_path_factory.mktemp("keys") / "log.pem"))


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
@given(takes_a=TAKES, takes_b=TAKES, kind=st.sampled_from(KINDS), data=st.data())
def test_tampering_is_always_caught(backend, key, tmp_path_factory, takes_a, takes_b, kind, data):
    rig = make_rig(backend, None, tmp_path_factory.mktemp("store"))
    try:
        run_case(rig, key, takes_a, takes_b, kind, data)
    finally:
        rig.store.close()


# pg_url only names the server; each example makes and drops a schema of its own
@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(takes_a=TAKES, takes_b=TAKES, kind=st.sampled_from(KINDS), data=st.data())
def test_tampering_is_always_caught_on_postgres(pg_url, key, takes_a, takes_b, kind, data):
    from events.postgres import PostgresStore
    from tests.test_audit_support import Rig

    schema, url = fresh_schema(pg_url)
    rig = Rig("postgres", PostgresStore(url), url)
    try:
        run_case(rig, key, takes_a, takes_b, kind, data)
    finally:
        rig.store.close()
        drop_schema(pg_url, schema)
