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
    from adjudicator import registry

    registry.register("nim", "tests.toygame:GAME")
