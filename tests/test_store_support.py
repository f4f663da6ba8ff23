"""Helpers and fixtures shared by the store tests (this module holds no test of its own).

Every PostgreSQL test gets a schema of its own (``pg_schema``): the store creates its tables
there on first use, the test sees only its own matches, and the schema is dropped afterwards,
so the tests are independent of each other and of earlier runs.
"""

from __future__ import annotations

import urllib.parse
import uuid

import pytest


def schema_url(base_url: str, schema: str) -> str:
    """``base_url`` with ``search_path`` set to ``schema`` (a libpq ``options`` parameter)."""
    parts = urllib.parse.urlsplit(base_url)
    query = urllib.parse.parse_qsl(parts.query)
    query = [(k, v) for k, v in query if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def pg_execute(url: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one statement on a connection of its own (autocommit); the rows it returns, if any."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(sql, params)
        return cur.fetchall() if cur.description else []


def fresh_schema(base_url: str) -> tuple[str, str]:
    schema = "adj_t_" + uuid.uuid4().hex[:12]
    pg_execute(base_url, f"CREATE SCHEMA {schema}")
    return schema, schema_url(base_url, schema)


def drop_schema(base_url: str, schema: str) -> None:
    pg_execute(base_url, f"DROP SCHEMA IF EXISTS {schema} CASCADE")


@pytest.fixture
def pg_schema(pg_url):
    """The URL of a fresh, empty schema in the test database; dropped after the test."""
    schema, url = fresh_schema(pg_url)
    try:
        yield url
    finally:
        drop_schema(pg_url, schema)


def register_nim() -> None:
    """Register the toy game (tests/conftest.py does it for pytest; spawned workers must too)."""
    from adjudicator.engine import registry

    registry.register("nim", "tests.toygame:GAME")


def run_processes(target, arg_tuples, *, timeout: float = 120.0) -> list:
    """Run ``target(queue, *args)`` in one spawned OS process per argument tuple; every item the
    processes put on the queue, once all have exited with status 0."""
    import multiprocessing as mp
    import queue as queue_mod
    import time

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=target, args=(out, *args), daemon=True) for args in arg_tuples]
    for p in procs:
        p.start()
    results = []
    deadline = time.monotonic() + timeout
    try:
        while any(p.is_alive() for p in procs) or not out.empty():
            if time.monotonic() > deadline:
                raise AssertionError(f"processes still running after {timeout} s")
            try:
                results.append(out.get(timeout=0.2))
            except queue_mod.Empty:
                pass
    finally:
        for p in procs:
            if p.is_alive():
                p.kill()
            p.join(5)
    codes = [p.exitcode for p in procs]
    assert codes == [0] * len(procs), f"worker exit codes: {codes}"
    return results
