"""Stateful property test: the backends, driven by the same random sequence of operations, answer
exactly like a plain model of the contract and like each other.

Each step goes to the memory store, to one of two handles on one SQLite file, and (when the
server is there) to PostgreSQL; every answer is compared with the model's.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from events.chain import verify_chain
from events.envelope import Draft, Rejection
from events.memory import MemoryStore
from events.sqlite import SQLiteStore
from events.store import ConflictError, Store
from tests.test_store_support import pg_schema  # noqa: F401  (fixture)

MATCHES = ["m1", "m2", "試合"]
KEYS = [None, None, "k1", "k2", "k3"]
values = st.one_of(st.integers(-5, 5), st.text(max_size=3), st.lists(st.integers(0, 3), max_size=2))
drafts = st.builds(
    lambda t, b, f: Draft(type=t, by=b, recorded_at="2024-05-01T10:00:00Z", fields=f),
    st.sampled_from(["take", "rewind", "宣言"]),
    st.sampled_from(["alice", "bob", "judge"]),
    st.dictionaries(st.sampled_from(["count", "player", "名"]), values, max_size=2),
)


def machine(make_stores):
    class StoreMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.prefix = uuid.uuid4().hex[:8] + "-"  # keeps examples apart in a shared database
            self.stores: list[list[Store]] = make_stores()  # each entry: handles on one store
            self.model: dict[str, list[tuple]] = {}
            self.keys: dict[tuple[str, str], tuple[int, int]] = {}
            self.rejected: dict[str, list[Rejection]] = {}
            self.turn = 0

        def handles(self):
            self.turn += 1
            return [hs[self.turn % len(hs)] for hs in self.stores]

        @rule(m=st.sampled_from(MATCHES), batch=st.lists(drafts, max_size=3), skew=st.sampled_from([0, 0, 0, -1, 1]), key=st.sampled_from(KEYS))
        def append(self, m, batch, skew, key):
            mid = self.prefix + m
            log = self.model.setdefault(mid, [])
            expected = max(len(log) + skew, 0)
            if key is not None and (mid, key) in self.keys:
                lo, hi = self.keys[(mid, key)]
                want = ("events", [row for row in log[lo - 1 : hi]])
            elif expected != len(log):
                want = ("conflict", (expected, len(log)))
            else:
                want = ("events", [(d.type, d.by, d.fields) for d in batch])
            answers = []
            for store in self.handles():
                try:
                    out = store.append(mid, batch, expected, idempotency_key=key)
                    answers.append(("events", [(e.type, e.by, e.fields) for e in out]))
                except ConflictError as exc:
                    answers.append(("conflict", (exc.expected_seq, exc.actual_seq)))
            assert all(a == want for a in answers), (want, answers)
            if want[0] == "events" and not (key is not None and (mid, key) in self.keys):
                if batch and key is not None:
                    self.keys[(mid, key)] = (len(log) + 1, len(log) + len(batch))
                log.extend((d.type, d.by, d.fields) for d in batch)

        @rule(m=st.sampled_from(MATCHES), lo=st.integers(-1, 8), span=st.integers(-1, 8))
        def read(self, m, lo, span):
            mid = self.prefix + m
            log = self.model.get(mid, [])
            hi = lo + span
            want = [row for seq, row in enumerate(log, 1) if max(lo, 1) <= seq <= hi]
            for store in self.handles():
                assert [(e.type, e.by, e.fields) for e in store.read(mid, lo, hi)] == want

        @rule(m=st.sampled_from(MATCHES), rule_id=st.sampled_from(["NIM-TURN-1", "BAC-LIM-4"]), d=drafts)
        def reject(self, m, rule_id, d):
            mid = self.prefix + m
            r = Rejection(
                match_id=mid,
                head_seq=len(self.model.get(mid, [])),
                type=d.type,
                by=d.by,
                recorded_at=d.recorded_at,
                fields=d.fields,
                rule=rule_id,
                message="refused",
            )
            self.rejected.setdefault(mid, []).append(r)
            for store in self.handles():
                store.record_rejection(r)

        @invariant()
        def agree(self):
            heads = {mid: len(log) for mid, log in self.model.items() if log}
            for handles in self.stores:
                for store in handles:
                    listed = {m.match_id: m.head_seq for m in store.matches() if m.match_id.startswith(self.prefix)}
                    assert listed == heads
                    for mid, log in self.model.items():
                        assert store.head(mid) == len(log)
                        events = store.read(mid)
                        assert verify_chain(events, mid) == len(log)
                        assert [(e.type, e.by, e.fields) for e in events] == log
                        assert store.rejections(mid) == self.rejected.get(mid, [])
                    for (mid, key), (lo, hi) in self.keys.items():
                        assert [e.seq for e in store.events_for_key(mid, key)] == list(range(lo, hi + 1))
            # every backend computed the very same hashes
            for mid in self.model:
                hashes = {tuple(e.hash for e in hs[0].read(mid)) for hs in self.stores}
                assert len(hashes) == 1

        def teardown(self):
            for handles in self.stores:
                for store in handles:
                    store.close()

    return StoreMachine


@pytest.mark.parametrize("with_pg", [False, pytest.param(True, marks=pytest.mark.postgres)])
def test_backends_behave_like_the_model_and_like_each_other(request, tmp_path, with_pg):
    url = request.getfixturevalue("pg_schema") if with_pg else None
    counter = iter(range(10**9))

    def make_stores():
        path = str(tmp_path / f"props-{next(counter)}.sqlite3")
        stores = [[MemoryStore()], [SQLiteStore(path), SQLiteStore(path)]]
        if url:
            from events.postgres import PostgresStore

            stores.append([PostgresStore(url), PostgresStore(url)])
        return stores

    run_state_machine_as_test(
        machine(make_stores), settings=settings(settings.default, stateful_step_count=25, deadline=None)
    )
