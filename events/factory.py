"""``open_store``: the store a URL names (memory, SQLite or PostgreSQL), kept apart from the
interface in ``events.store`` so that the backends can import the interface without a circle."""

from __future__ import annotations

import os
import re

from events.store import Store, StoreError

#: ``mysql://``, ``redis:``...: a URL scheme (a drive letter is not one: it is a single letter)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def default_store_path() -> str:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "adjudicator", "store.sqlite3")


def open_store(url: str | None = None, *, write: bool = True) -> Store:
    """Open the store named by ``url``, ``$ADJ_STORE``, or the per-user default file.

    ``memory:`` is an in-process store; ``postgresql://...`` (or ``postgres://``) is PostgreSQL;
    ``sqlite:///path`` or a plain path is a SQLite file. Any other ``scheme:`` is ``StoreError``.
    Opened for reading only (``write=False``), a SQLite store is never created: a file that does
    not exist reads as an empty store, and nothing (no folder, no file) is made.
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
    elif _SCHEME.match(url):
        raise StoreError(
            f"unknown kind of store {url.split(':', 1)[0] + ':'!r} in {url!r}: a store is a SQLite file path "
            "(or sqlite:///path), a postgresql:// URL, or memory: (write ./NAME for a file whose name has a colon)"
        )
    from events.sqlite import SQLiteStore

    if not write and url != ":memory:" and not os.path.exists(url):
        from events.memory import MemoryStore

        empty = MemoryStore()
        empty.url = url
        return empty
    return SQLiteStore(url, readonly=not write)
