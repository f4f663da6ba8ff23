"""The store interface shared by every backend, and ``open_store`` to pick one.

Contract (tests/test_store_contract.py runs it against every backend):

- ``append(match_id, drafts, expected_seq)`` is atomic. It succeeds only if the match's head is
  exactly ``expected_seq`` (0 for a new match); otherwise it raises ``ConflictError`` and writes
  nothing. The store assigns seq, prev and hash, so a chain written through it is always sound.
- ``idempotency_key``: an append that repeats a key already stored for that match writes nothing
  and returns the events stored under that key, so a client that lost its connection can retry.
- ``read`` returns events in seq order; a row that no longer decodes raises ``IntegrityError``.
- Rejected attempts are kept beside the log (``record_rejection`` / ``rejections``), never in it.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Sequence

import msgspec

from events.envelope import Draft, Rejection, StoredEvent


class StoreError(Exception):
    """A store could not be opened or used."""


class ConflictError(StoreError):
    """The match's head moved: another writer appended first. Nothing was written."""

    def __init__(self, match_id: str, expected_seq: int, actual_seq: int):
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        if expected_seq == 0:
            msg = f"match {match_id!r} already exists (head is seq {actual_seq})"
        else:
            msg = (
                f"match {match_id!r} moved on: expected head seq {expected_seq}, "
                f"found {actual_seq}; another entry was recorded first, nothing was written"
            )
        super().__init__(msg)


class UnknownMatch(StoreError):
    def __init__(self, match_id: str):
        self.match_id = match_id
        super().__init__(f"no match {match_id!r} in the store")


class MatchInfo(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    head_seq: int
    created_at: str
    updated_at: str


class Store(ABC):
    """Append-only, per-match event logs with optimistic concurrency."""

    url: str = ""

    @abstractmethod
    def append(
        self,
        match_id: str,
        drafts: Sequence[Draft],
        expected_seq: int,
        *,
        idempotency_key: str | None = None,
    ) -> tuple[StoredEvent, ...]: ...

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        """Append events that already carry seq, prev and hash (import, copy).

        The events must continue the chain at ``expected_seq``; they are stored byte for byte,
        so a copied match keeps its hashes.
        """
        raise NotImplementedError

    @abstractmethod
    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]: ...

    @abstractmethod
    def head(self, match_id: str) -> int:
        """The seq of the last event, 0 when the match does not exist."""

    @abstractmethod
    def matches(self) -> list[MatchInfo]: ...

    @abstractmethod
    def record_rejection(self, rejection: Rejection) -> None: ...

    @abstractmethod
    def rejections(self, match_id: str) -> list[Rejection]: ...

    def close(self) -> None:  # pragma: no cover - trivial default
        pass

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
