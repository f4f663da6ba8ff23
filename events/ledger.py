"""The audit ledger every store keeps beside its logs: the leaves of one Merkle tree over everything
the store holds, signed checkpoints of that tree, registered public keys, and event signatures.

Leaves are given their place lazily, by ``audit_sequence`` (called when a checkpoint is made), not
by the appends: the hot path of an append is unchanged and takes no store-wide lock. Sequencing
runs under a store-wide lock and only ever adds leaves at the end, so every process on every host
sees one tree that only grows. What it adds, in one batch, is everything not yet in the tree:
events, rejected attempts and registered keys, merged by ``recorded_at`` while each match's events
keep their seq order and rejections and keys the order they were recorded in.

The backends implement the ``audit_*`` methods (``events.ledger_sql`` for SQLite and PostgreSQL,
``events.ledger_memory`` for the memory store); this module holds the parts they share.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator, Sequence

from events.checkpoint import (
    KIND_RANK,
    Checkpoint,
    KeyRecord,
    Leaf,
    Signature,
    event_leaf,
    key_leaf,
    rejection_leaf,
)
from events.envelope import Rejection
from events.merkle import leaf_hash

#: An event not yet in the tree: recorded_at, match_id, seq, hash, its signature if any.
PendingEvent = tuple[str, str, int, str, "Signature | None"]


def plan_leaves(
    start: int,
    events: Iterable[PendingEvent],
    rejections: Iterable[tuple[int, Rejection]],
    keys: Iterable[KeyRecord],
) -> list[Leaf]:
    """The leaves for everything pending, numbered from ``start``, in the ledger's order.

    Each queue (one per match's events, in seq order; rejections by id; keys by id) keeps its own
    order; the queues are merged by (recorded_at, kind, match_id, seq or id)."""
    by_match: dict[str, list[tuple]] = {}
    for recorded_at, match_id, seq, hash_, sig in sorted(events, key=lambda e: (e[1], e[2])):
        data = event_leaf(match_id, seq, hash_, sig)
        by_match.setdefault(match_id, []).append((recorded_at, KIND_RANK["event"], match_id, seq, 0, "event", data))
    queues: list[list[tuple]] = list(by_match.values())
    queues.append(
        [(r.recorded_at, KIND_RANK["rejection"], r.match_id, 0, ref, "rejection", rejection_leaf(r))
         for ref, r in sorted(rejections, key=lambda x: x[0])]
    )
    queues.append(
        [(k.recorded_at, KIND_RANK["key"], "", 0, k.ref, "key", key_leaf(k)) for k in sorted(keys, key=lambda k: k.ref)]
    )
    out = []
    for i, (_, _, match_id, seq, ref, kind, data) in enumerate(heapq.merge(*queues, key=lambda t: t[:5])):
        out.append(Leaf(index=start + i, kind=kind, match_id=match_id, seq=seq, ref=ref, hash=leaf_hash(data).hex()))
    return out


class Ledger:
    """The audit methods of a store. Every backend overrides all of them."""

    def audit_sequence(self) -> int:
        """Give every event, rejection and key not yet in the tree its leaf; the tree's size."""
        raise NotImplementedError

    def audit_leaves(self) -> list[Leaf]:
        """Every leaf, in index order."""
        raise NotImplementedError

    def audit_leaf_batches(self, size: int) -> Iterator[list[Leaf]]:
        """Every leaf, in index order, ``size`` at a time (read a batch at a time where the backend
        keeps them elsewhere: the tree need not be held whole)."""
        leaves = self.audit_leaves()
        for i in range(0, len(leaves), size):
            yield leaves[i : i + size]

    def audit_event_leaves(self, match_id: str) -> list[Leaf]:
        """The leaves of the events of one match, in index order."""
        return [leaf for leaf in self.audit_leaves() if leaf.kind == "event" and leaf.match_id == match_id]

    def audit_add_checkpoint(self, checkpoint: Checkpoint) -> None:
        raise NotImplementedError

    def audit_checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint, in the order they were recorded."""
        raise NotImplementedError

    def audit_add_key(self, role: str, name: str, public_key: str, by: str, recorded_at: str) -> KeyRecord:
        """Register a key; ``StoreError`` if ``name`` already has one in that role."""
        raise NotImplementedError

    def audit_keys(self) -> list[KeyRecord]:
        raise NotImplementedError

    def audit_put_signature(self, signature: Signature) -> None:
        """Keep a signature beside the event it signs (written before the event is appended)."""
        raise NotImplementedError

    def audit_signatures(self, match_id: str | None = None) -> dict[str, Signature]:
        """Signatures by the hash they sign (of one match, or of all)."""
        raise NotImplementedError

    def audit_rejections(self) -> dict[tuple[str, int], Rejection]:
        """Every rejected attempt by (match_id, ref), ``ref`` being what its leaf names."""
        raise NotImplementedError


def leaf_hashes(leaves: Sequence[Leaf]) -> list[bytes]:
    return [bytes.fromhex(leaf.hash) for leaf in leaves]
