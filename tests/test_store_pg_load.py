"""Load: 50 processes play whole matches into one PostgreSQL database at once (bench/pg_load.py).

Run with ``pytest -s`` to see the throughput reached; ``python bench/pg_load.py`` runs the same
load on its own with figures.
"""

from __future__ import annotations

import pytest

from tests.test_store_support import pg_execute, pg_schema  # noqa: F401  (fixture)

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

PROCS = 50


def test_fifty_processes_playing_whole_matches_lose_and_duplicate_nothing(pg_schema):
    from bench.pg_load import run_load, workload

    source, plan = workload(PROCS, None, "probe")
    total = sum(len(lines) for items in plan for _, lines in items)
    # run_load checks every match as stored against the same match adjudicated alone on a memory
    # store (outcome, final views, the actions in order), the chain by full verification, and
    # that the database holds exactly one row per accepted action.
    report = run_load(pg_schema, PROCS, prefix="load")
    print("\n" + report.summary())
    assert report.procs == PROCS and all(items for items in plan)
    assert report.source == source
    assert report.events == total and report.rejected == 0
    assert report.matches == sum(len(items) for items in plan)
    assert pg_execute(pg_schema, "SELECT count(*) FROM events") == [(total,)]
    assert pg_execute(pg_schema, "SELECT count(*) FROM rejections") == [(0,)]


def test_the_generated_nim_matches_stand_in_when_there_are_no_fixtures(pg_schema):
    from bench.pg_load import run_load

    report = run_load(pg_schema, 4, 3, prefix="nim", games="nim")
    assert report.source == "generated nim matches"
    assert (report.procs, report.matches, report.rejected) == (4, 12, 0)
    assert pg_execute(pg_schema, "SELECT count(*) FROM events") == [(report.events,)]
