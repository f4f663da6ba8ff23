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


def store_location(url: str | None = None) -> tuple[str, str]:
    """What a store URL names, as ``(kind, where)``: the one reading of ``--store`` for every
    command. ``kind`` is ``memory``, ``postgresql`` or ``sqlite``; ``where`` is the URL for
    PostgreSQL and the file's path for SQLite.

    ``url`` falls back on ``$ADJ_STORE``, then the per-user default file. ``sqlite:///path`` and
    ``sqlite:////path`` both name the absolute path ``/path`` (as ``file:`` URLs and other tools
    write it); ``sqlite://relative/path`` a path relative to the working folder; a plain path is
    itself. Any other ``scheme:`` is ``StoreError``.
    """
    url = url or os.environ.get("ADJ_STORE") or default_store_path()
    if url == "memory:":
        return "memory", url
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql", url
    if url.startswith("sqlite://"):
        path = url[len("sqlite://") :]
        if not path:
            raise StoreError(f"{url!r} names no file: write sqlite:///PATH")
        return "sqlite", re.sub(r"^/+", "/", path)
    if _SCHEME.match(url):
        raise StoreError(
            f"unknown kind of store {url.split(':', 1)[0] + ':'!r} in {url!r}: a store is a SQLite file path "
            "(or sqlite:///path), a postgresql:// URL, or memory: (write ./NAME for a file whose name has a colon)"
        )
    return "sqlite", re.sub(r"^/+", "/", url)  # POSIX may read a leading // apart; these stores do not


def open_store(url: str | None = None, *, write: bool = True) -> Store:
    """Open the store named by ``url``, ``$ADJ_STORE``, or the per-user default file
    (``store_location`` reads it).

    ``memory:`` is an in-process store; ``postgresql://...`` (or ``postgres://``) is PostgreSQL;
    ``sqlite:///path`` or a plain path is a SQLite file. Any other ``scheme:`` is ``StoreError``.
    Opened for reading only (``write=False``), a SQLite store is never created: a file that does
    not exist reads as an empty store, and nothing (no folder, no file) is made.
    """
    kind, where = store_location(url)
    if kind == "memory":
        from events.memory import MemoryStore

        return MemoryStore()
    if kind == "postgresql":
        from events.postgres import PostgresStore

        return PostgresStore(where)
    from events.sqlite import SQLiteStore

    if not write and where != ":memory:" and not os.path.exists(where):
        from events.memory import MemoryStore

        empty = MemoryStore()
        empty.url = where
        return empty
    return SQLiteStore(where, readonly=not write)
