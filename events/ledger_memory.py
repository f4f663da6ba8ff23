"""The audit ledger of the memory store: the same tables as the SQL backends, as Python lists."""

from __future__ import annotations

from events.checkpoint import Checkpoint, KeyRecord, Leaf, Signature
from events.envelope import Rejection
from events.ledger import Ledger, plan_leaves
from events.rows import EVENT_COLUMNS, rejection_from_row
from events.store import StoreError

_AT, _SEQ, _HASH = (EVENT_COLUMNS.index(c) for c in ("recorded_at", "seq", "hash"))


class MemoryLedger(Ledger):
    """For ``events.memory.MemoryStore`` (reads its ``_logs``, ``_rejections`` and ``_lock``).

    A rejected attempt's ``ref`` is its place (from 1) in its match's list of rejections."""

    def _ledger(self) -> dict:
        data = self.__dict__.get("_ledger_data")
        if data is None:
            data = self.__dict__["_ledger_data"] = {"leaves": [], "checkpoints": [], "keys": [], "signatures": {}}
        return data

    def audit_sequence(self) -> int:
        with self._lock:  # type: ignore[attr-defined]
            data = self._ledger()
            leaves: list[Leaf] = data["leaves"]
            done = {(leaf.kind, leaf.match_id, leaf.seq, leaf.ref) for leaf in leaves}
            sigs = data["signatures"]
            events = [
                (row[_AT], mid, row[_SEQ], row[_HASH], sigs.get(row[_HASH]))
                for mid, log in self._logs.items()  # type: ignore[attr-defined]
                for row in log
                if ("event", mid, row[_SEQ], 0) not in done
            ]
            rejections = [
                (ref, r) for (mid, ref), r in self.audit_rejections().items() if ("rejection", mid, 0, ref) not in done
            ]
            keys = [k for k in data["keys"] if ("key", "", 0, k.ref) not in done]
            leaves.extend(plan_leaves(len(leaves), events, rejections, keys))
            return len(leaves)

    def audit_leaves(self) -> list[Leaf]:
        return list(self._ledger()["leaves"])

    def audit_add_checkpoint(self, checkpoint: Checkpoint) -> None:
        self._ledger()["checkpoints"].append(checkpoint)

    def audit_checkpoints(self) -> list[Checkpoint]:
        return list(self._ledger()["checkpoints"])

    def audit_add_key(self, role: str, name: str, public_key: str, by: str, recorded_at: str) -> KeyRecord:
        with self._lock:  # type: ignore[attr-defined]
            keys = self._ledger()["keys"]
            if any(k.role == role and k.name == name for k in keys):
                raise StoreError(f"{role} {name!r} already has a registered key; a key is registered once")
            record = KeyRecord(ref=len(keys) + 1, role=role, name=name, public_key=public_key, by=by,
                               recorded_at=recorded_at)
            keys.append(record)
            return record

    def audit_keys(self) -> list[KeyRecord]:
        return list(self._ledger()["keys"])

    def audit_put_signature(self, signature: Signature) -> None:
        self._ledger()["signatures"].setdefault(signature.hash, signature)

    def audit_signatures(self, match_id: str | None = None) -> dict[str, Signature]:
        sigs = self._ledger()["signatures"]
        return {h: s for h, s in sigs.items() if match_id is None or s.match_id == match_id}

    def audit_rejections(self) -> dict[tuple[str, int], Rejection]:
        return {
            (mid, i): rejection_from_row(row)
            for mid, rows in self._rejections.items()  # type: ignore[attr-defined]
            for i, row in enumerate(rows, 1)
        }
