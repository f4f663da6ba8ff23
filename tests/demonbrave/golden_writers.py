"""The registry of the golden-match writers (``make_fixtures``): each example module registers its
writers with ``@fixture(name, example, title)``."""

from __future__ import annotations

from typing import Callable

from tests.demonbrave.builder import Table

A, B = "alice", "bob"
FILES: dict[str, tuple[str, str, Callable[[], Table]]] = {}


def fixture(name: str, example: str, title: str):
    """Register the writer of ``golden/<name>.jsonl``: the chapter's example ``example``."""

    def register(fn: Callable[[], Table]) -> Callable[[], Table]:
        FILES[name] = (example, title, fn)
        return fn

    return register


def ranked(unit: str, category: str, key: list[int]) -> dict:
    """A unit of a checkpoint's field, with its tier category and key vector (DB-RES-5, DB-RES-8)."""
    return {"unit": unit, "rank": {"category": category, "key": key}}
