"""``open_store``: the store a URL names (memory, SQLite or PostgreSQL), kept apart from the
interface in ``events.store`` so that the backends can import the interface without a circle."""

from __future__ import annotations

import os

from events.store import Store


def default_store_path() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "adjudicator", "store.sqlite3")


def open_store(url: str | None = None) -> Store:
    """Open the store named by ``url``, ``$ADJ_STORE``, or the per-user default file.

    ``memory:`` is an in-process store; ``postgresql://...`` (or ``postgres://``) is PostgreSQL;
    anything else is the path of a SQLite file (``sqlite:///path`` is accepted too).
    """
    url = url or os.environ.get("ADJ_STORE") or default_store_path()
    if url == "memory:":
        from events.memory import MemoryStore

        return MemoryStore()
    if url.startswith(("postgresql://", "postgres://")):
        from events.postgres import PostgresStore

        return PostgresStore(url)
    if url.startswith("sqlite://"):
        url = url[len("sqlite://") :]
    from events.sqlite import SQLiteStore

    return SQLiteStore(url)
