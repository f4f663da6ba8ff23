"""Auditing a store: signed checkpoints of its Merkle tree, proofs a third party can check, and the
whole-store verification (docs/audit.md).

The command line reaches ``events`` through this module only. ``cryptography`` is imported only
when a key is made, read, used or checked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.authority.judges import SignatureRules, SignaturesFound, report_signatures
from events.checkpoint import Checkpoint, KeyRecord, Leaf, Signature, checkpoint_body, event_leaf, key_leaf
from events.checkpoint import parse_checkpoint, rejection_leaf
from events.chain import IntegrityError
from events.envelope import StoredEvent
from events.ledger import leaf_hashes
from events.merkle import PackedHashes, consistency_path, inclusion_path, leaf_hash, root, verify_consistency
from events.proof import ProofError, ProofReport, check_checkpoint, check_proof
from events.store import Store, StoreError

__all__ = [
    "Auditor", "Checkpoint", "ProofError", "ProofReport", "StoreAudit", "check_checkpoint", "check_proof",
    "default_key_path", "parse_checkpoint",
]


def default_key_path() -> str:
    """The checkpoint signing key of this user: ``$XDG_DATA_HOME/adjudicator/audit-key.pem``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "adjudicator", "audit-key.pem")


def signing_key(path: str | None, *, create: bool = False) -> Any:
    """The key at ``path`` (default: this user's), created on first use when ``create``."""
    from events.signing import create_signing_key, load_signing_key

    path = path or default_key_path()
    if create and path == default_key_path() and not os.path.exists(path):
        return create_signing_key(path)
    return load_signing_key(path)


def new_key_pair(path: str, public_path: str) -> Any:
    """A new Ed25519 key pair written to ``path`` (private, owner-only) and ``public_path`` (PEM),
    neither written over (``ValueError``, nothing written)."""
    from events.signing import create_signing_key

    return create_signing_key(path, public_path)


def read_public_key(path: str) -> str:
    from events.signing import read_public_key as read

    return read(path)


def public_pem(public_key: str) -> str:
    from events.signing import public_pem as pem

    return pem(public_key)


def fingerprint(public_key: str) -> str:
    from events.signing import fingerprint as fp

    return fp(public_key)


def check_match_file(events: Sequence[StoredEvent], proof: Any, pinned: Sequence[str]) -> dict[str, Any]:
    """An exported match (its sealed, verified events) against its proof file: the proof verifies,
    and the file ends exactly at the head the proof shows in the signed tree, so nothing was cut
    off its end; every signature in the proof signs one of the file's events."""
    report = check_proof(proof, pinned)
    if report.kind != "match":
        raise ProofError(f"a match file's proof is a 'match' proof, not {report.kind!r}")
    head, last = report.leaves[0], events[-1]
    if (head.get("match_id"), head.get("seq"), head.get("hash")) != (last.match_id, last.seq, last.hash):
        raise ProofError(f"the file ends at {last.match_id} seq {last.seq}; the proven head is "
                         f"{head.get('match_id')} seq {head.get('seq')}: events were cut off or changed")
    by_hash = {e.hash: e for e in events}
    signers = []
    for s in report.signers:
        ev = by_hash.get(s["hash"])
        if ev is None or ev.seq != s["seq"]:
            raise ProofError(f"the proof's signature of seq {s['seq']} signs no event of the file")
        signers.append({**s, "type": ev.type, "by": ev.by})
    cp = report.checkpoints[0]
    return {"head_seq": last.seq, "tree_size": cp["tree_size"], "root": cp["root"], "key": cp["key"],
            "signers": signers}


#: Events ``Auditor.coverage`` reads at a time.
COVERAGE_BATCH = 1000

#: Events the whole-store verification reads at a time, where it reads a match itself.
AUDIT_BATCH = 1000


def _missing(leaf: Leaf) -> str:
    return f"leaf {leaf.index}: {leaf.match_id} seq {leaf.seq} is no longer in the store (cut off or deleted)"


@dataclass
class MatchAudit:
    """What the whole-store verification found in one match's events: small, to be sent back
    from the process that read them. ``unreadable``: a row of the match no longer decodes (then
    the match counts as gone: every leaf of it shows as missing, and nothing else is said of it)."""

    match_id: str
    unreadable: str | None = None
    leaf_problems: list[tuple[int, str]] = field(default_factory=list)  # (leaf index, problem)
    pending: int = 0  # events not yet under any leaf
    signatures: SignaturesFound = (None, [], [])


class StorePlan:
    """``Auditor.plan``: what each match's events are held to beyond their chain, the registered
    keys (the tree's leaves of a match are read with its events). Called with a store and a match
    id, it gives the ``EventsAudit`` of that match, which is fed the match's events in seq order as
    they are read (``MatchService.verify_each``). Small: it is sent to every process that verifies."""

    def __init__(self, keys: list[KeyRecord]):
        self.keys = keys
        self._rules: SignatureRules | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_rules": None}

    def __call__(self, store: Store, match_id: str) -> EventsAudit:
        if self._rules is None:
            self._rules = SignatureRules(self.keys)
        return EventsAudit(store, match_id, self._rules)

    def read(self, store: Store, match_id: str) -> MatchAudit:
        """The match's events read here, a batch at a time."""
        return self(store, match_id).finish()


class EventsAudit:
    """The whole-store verification of one match's events, given in seq order (``feed``, as
    often as wanted; an event seen already is passed over): each against the leaves of the tree
    that stand for it, and its signature. ``finish`` reads whatever was not fed. What is found of a
    leaf is keyed by its index, which is the tree's key: ``Auditor.verify`` keeps it only for a leaf
    that is in its place (a leaf out of its place is reported as such, not checked)."""

    def __init__(self, store: Store, match_id: str, rules: SignatureRules):
        self.store = store
        self.match_id = match_id
        self.sigs = store.audit_signatures(match_id)  # type: ignore[attr-defined]
        leaves = store.audit_event_leaves(match_id)  # type: ignore[attr-defined]
        self.covered = {leaf.seq for leaf in leaves if leaf.ref == 0}
        self.unchecked: dict[int, list[Leaf]] = {}
        for leaf in leaves:
            self.unchecked.setdefault(leaf.seq, []).append(leaf)
        self.signatures = rules.match(match_id)
        self.found = MatchAudit(match_id)
        self.last = 0

    def feed(self, events: Sequence[StoredEvent]) -> None:
        found = self.found
        for ev in events:
            if ev.seq <= self.last:
                continue
            self.last = ev.seq
            sig = self.sigs.get(ev.hash)
            for leaf in self.unchecked.pop(ev.seq, ()):
                if leaf_hash(event_leaf(ev.match_id, ev.seq, ev.hash, sig)).hex() != leaf.hash:
                    found.leaf_problems.append((leaf.index, f"leaf {leaf.index}: {leaf.match_id} seq {leaf.seq} (or its "
                                                            "signature) is not what the audit tree holds (altered after the fact)"))
            if ev.seq not in self.covered:
                found.pending += 1
            self.signatures.event(ev, sig)

    def finish(self) -> MatchAudit:
        """What was found, once the events not fed yet are read."""
        try:
            head = self.store.head(self.match_id)
            for lo in range(self.last + 1, head + 1, AUDIT_BATCH):
                self.feed(self.store.read(self.match_id, lo, lo + AUDIT_BATCH - 1))
        except IntegrityError as exc:  # a row that no longer decodes: its leaves show as missing
            return MatchAudit(self.match_id, unreadable=str(exc))
        found = self.found
        found.leaf_problems += [(leaf.index, _missing(leaf)) for leaves in self.unchecked.values() for leaf in leaves]
        found.signatures = self.signatures.result()
        return found


def _pins(pinned: Sequence[str], trusted: Checkpoint | None) -> Sequence[str]:
    """The keys trusted to sign checkpoints: those given, else the trusted checkpoint's own."""
    return pinned or ([trusted.public_key] if trusted is not None else [])


@dataclass
class StoreAudit:
    """What the whole-store verification found beyond the chains of the matches."""

    leaves: int = 0
    pending: int = 0  # events, rejected attempts and keys not yet under any checkpoint
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)  # signed entries and their signers

    @property
    def ok(self) -> bool:
        return not self.problems


class Auditor:
    """The audit operations over one store (any backend)."""

    def __init__(self, store: Store, clock: Callable[[], str] | None = None):
        from adjudicator.service import utc_now

        self.store = store
        self.clock = clock or utc_now

    # -- the tree ---------------------------------------------------------------------------
    def _tree(self, size: int | None = None) -> tuple[list[Leaf], list[bytes]]:
        leaves = self.store.audit_leaves()  # type: ignore[attr-defined]
        if size is not None:
            leaves = leaves[:size]
        return leaves, leaf_hashes(leaves)

    def checkpoint(self, key: Any) -> Checkpoint:
        """Bring everything recorded so far into the tree, and sign its size and root."""
        size = self.store.audit_sequence()  # type: ignore[attr-defined]
        _, hashes = self._tree(size)
        if len(hashes) != size:
            raise IntegrityError("audit tree", None, f"the ledger holds {len(hashes)} leaves, not {size}")
        created_at = self.clock()
        top = root(hashes).hex()
        cp = Checkpoint(tree_size=size, root=top, created_at=created_at, public_key=key.public_key,
                        signature=key.sign(checkpoint_body(size, top, created_at).encode()))
        self.store.audit_add_checkpoint(cp)  # type: ignore[attr-defined]
        return cp

    def checkpoints(self) -> list[Checkpoint]:
        return self.store.audit_checkpoints()  # type: ignore[attr-defined]

    def latest(self) -> Checkpoint | None:
        cps = self.checkpoints()
        return max(cps, key=lambda c: c.tree_size) if cps else None

    def stored_checkpoint(self, tree_size: int) -> Checkpoint:
        for cp in reversed(self.checkpoints()):
            if cp.tree_size == tree_size:
                return cp
        raise StoreError(f"no checkpoint of tree size {tree_size} in the store; adj audit checkpoint lists them")

    # -- proofs -----------------------------------------------------------------------------
    def _leaf_data(self, leaf: Leaf, events: dict[tuple[str, int], StoredEvent], sigs: dict[str, Signature]) -> bytes:
        ev = events.get((leaf.match_id, leaf.seq))
        if ev is None:
            raise IntegrityError(leaf.match_id, leaf.seq, "the event the audit tree holds is no longer in the store")
        return event_leaf(ev.match_id, ev.seq, ev.hash, sigs.get(ev.hash))

    def _inclusion(self, leaf: Leaf, data: bytes, cp: Checkpoint, hashes: list[bytes]) -> dict[str, Any]:
        if leaf_hash(data).hex() != leaf.hash:
            raise IntegrityError(leaf.match_id or "audit tree", leaf.seq or None,
                                 f"leaf {leaf.index} no longer matches what the store holds")
        return {"proof": "inclusion", "leaf_index": leaf.index, "leaf": data.decode("utf-8"),
                "path": [h.hex() for h in inclusion_path(leaf.index, hashes[: cp.tree_size])],
                "checkpoint": cp.to_json()}

    def _covering(self, leaf: Leaf) -> Checkpoint:
        cps = [cp for cp in self.checkpoints() if cp.tree_size > leaf.index]
        if not cps:
            what = f"{leaf.match_id} seq {leaf.seq}" if leaf.kind == "event" else f"this {leaf.kind}"
            raise StoreError(f"{what} is not under a checkpoint yet: make one with adj audit checkpoint")
        return max(cps, key=lambda c: c.tree_size)

    def _event_leaf(self, leaves: list[Leaf], match_id: str, seq: int) -> Leaf:
        for leaf in leaves:
            if leaf.kind == "event" and leaf.match_id == match_id and leaf.seq == seq:
                return leaf
        raise StoreError(f"{match_id} seq {seq} is not in the audit tree yet: make a checkpoint with adj audit checkpoint")

    def prove(self, match_id: str, seq: int | None = None) -> dict[str, Any]:
        """The inclusion proof of an event (the match's head by default) under the latest checkpoint."""
        from events.store import UnknownMatch

        events = self.store.read(match_id)
        if not events:
            raise UnknownMatch(match_id)
        seq = events[-1].seq if seq is None else seq
        if not 1 <= seq <= len(events):
            raise StoreError(f"{match_id} has events 1 to {len(events)}, not {seq}")
        leaves, hashes = self._tree()
        leaf = self._event_leaf(leaves, match_id, seq)
        cp = self._covering(leaf)
        by_seq = {(e.match_id, e.seq): e for e in events}
        data = self._leaf_data(leaf, by_seq, self.store.audit_signatures(match_id))  # type: ignore[attr-defined]
        return self._inclusion(leaf, data, cp, hashes)

    def consistency(self, old: Checkpoint, new: Checkpoint) -> dict[str, Any]:
        """The proof that ``new``'s tree extends ``old``'s (both as the store's tree has them)."""
        if old.tree_size > new.tree_size:
            old, new = new, old
        _, hashes = self._tree(new.tree_size)
        if len(hashes) < new.tree_size or root(hashes).hex() != new.root:
            raise IntegrityError("audit tree", None, f"the store's tree does not have the root of size {new.tree_size}")
        path = consistency_path(old.tree_size, hashes)
        if not verify_consistency(old.tree_size, new.tree_size, bytes.fromhex(old.root), bytes.fromhex(new.root), path):
            raise IntegrityError("audit tree", None,
                                 f"the tree of size {new.tree_size} does not extend the checkpoint of size {old.tree_size}")
        return {"proof": "consistency", "old": old.to_json(), "new": new.to_json(), "path": [h.hex() for h in path]}

    def match_proof(self, match_id: str) -> dict[str, Any]:
        """What ``adj export --with-proof`` writes: the head's inclusion, the signatures beside the
        match's events, and the inclusion of every key that made one (docs/audit.md)."""
        head = self.prove(match_id)
        cp = parse_checkpoint(head["checkpoint"])
        sigs = sorted(self.store.audit_signatures(match_id).values(), key=lambda s: s.seq)  # type: ignore[attr-defined]
        leaves, hashes = self._tree()
        keys = {k.ref: k for k in self.store.audit_keys()}  # type: ignore[attr-defined]
        wanted = {(s.role, s.signer, s.public_key) for s in sigs}
        key_proofs = []
        for leaf in leaves[: cp.tree_size]:
            k = keys.get(leaf.ref) if leaf.kind == "key" else None
            if k is not None and (k.role, k.name, k.public_key) in wanted:
                key_proofs.append(self._inclusion(leaf, key_leaf(k), cp, hashes))
        events = {e.hash for e in self.store.read(match_id)}
        return {"proof": "match", "match_id": match_id, "head": head,
                "signatures": [{"seq": s.seq, "hash": s.hash, "role": s.role, "signer": s.signer,
                                "public_key": s.public_key, "value": s.value} for s in sigs if s.hash in events],
                "keys": key_proofs}

    # -- verification -----------------------------------------------------------------------
    def plan(self) -> StorePlan:
        """What the whole-store verification holds each match's events to, read once: handed to
        ``MatchService.verify_each`` (``observe``), it checks each match's events as they are read
        to verify the match, in the process that verifies it; ``verify`` then gathers what it found."""
        return StorePlan(self.store.audit_keys())  # type: ignore[attr-defined]

    def verify(self, pinned: Sequence[str] = (), trusted: Checkpoint | None = None, plan: StorePlan | None = None,
               found: Sequence[MatchAudit] | None = None) -> StoreAudit:
        """Every leaf against what the store holds now, every checkpoint's signature and root,
        successive checkpoints' consistency, and every signature beside an event. With ``pinned``
        keys, a store without a checkpoint is a failure; with a ``trusted`` checkpoint (the last
        one the auditor trusted), so is a store whose tree or checkpoints no longer reach it.

        ``found``: what ``plan`` found in every match of the store, in the store's order (as
        ``MatchService.verify_each`` returns it); by default each match is read here, a batch at
        a time. No more than a batch of events or of leaves is held at once: of the tree, only its
        leaves' hashes (32 bytes a leaf)."""
        plan = plan or self.plan()
        if found is None:
            found = [plan.read(self.store, info.match_id) for info in self.store.matches()]
        report = StoreAudit()
        pinned = _pins(pinned, trusted)
        rejections = self.store.audit_rejections()  # type: ignore[attr-defined]
        keys = {k.ref: k for k in plan.keys}
        report.problems.extend(m.unreadable for m in found if m.unreadable is not None)
        readable = {m.match_id: m for m in found if m.unreadable is None}
        event_problems: dict[int, str] = {}
        for m in readable.values():
            event_problems.update(m.leaf_problems)
        hashes = PackedHashes()
        covered = set()  # of the rejections' and keys' leaves (the events' are counted with their matches)
        i = 0
        for batch in self.store.audit_leaf_batches(AUDIT_BATCH):  # type: ignore[attr-defined]
            for leaf in batch:
                digest = bytes.fromhex(leaf.hash)
                # one altered to another length: a hash no leaf has, so no root signed holds it either
                hashes.append(digest if len(digest) == 32 else leaf_hash(b"altered leaf hash " + digest))
                if leaf.kind != "event":
                    covered.add((leaf.kind, leaf.match_id, leaf.seq, leaf.ref))
                if leaf.index != i:
                    problem: str | None = f"leaf {i}: the tree's leaves are not numbered densely (found {leaf.index})"
                elif leaf.kind == "event":
                    problem = event_problems.get(i) if leaf.match_id in readable else _missing(leaf)
                else:
                    problem = self._check_leaf(i, leaf, rejections, keys)
                if problem:
                    report.problems.append(problem)
                i += 1
        report.leaves = i
        report.pending = (sum(m.pending for m in readable.values())
                          + sum(("rejection", m, 0, r) not in covered for m, r in rejections)
                          + sum(("key", "", 0, r) not in covered for r in keys))
        self._check_checkpoints(hashes, pinned, report)
        self._check_trust(hashes, pinned, trusted, report)
        report_signatures([readable[m].signatures for m in sorted(readable)], report)
        return report

    def coverage(self, match_id: str, pinned: Sequence[str] = (),
                 trusted: Checkpoint | None = None) -> tuple[dict[str, Any] | None, list[str]]:
        """Which events of a match (its chain verified) are under the store's latest checkpoint
        (signed by a ``pinned`` key, when any is given): ``({"tree_size", "root", "created_at",
        "key", "covered_to"}, problems)``, or ``(None, problems)`` when no checkpoint verifies.
        Each covered event must still be what its leaf holds (read a batch at a time); the
        checkpoints are held to ``pinned`` and ``trusted`` as ``verify`` holds them."""
        report = StoreAudit()
        pinned = _pins(pinned, trusted)
        leaves, hashes = self._tree()
        self._check_checkpoints(hashes, pinned, report)
        self._check_trust(hashes, pinned, trusted, report)
        good = [row for row in report.checkpoints if row["ok"]]
        if not good:
            return None, report.problems
        latest = max(good, key=lambda row: row["tree_size"])
        mine = sorted((leaf for leaf in leaves[: latest["tree_size"]] if leaf.kind == "event" and leaf.match_id == match_id),
                      key=lambda leaf: leaf.seq)
        sigs = self.store.audit_signatures(match_id)  # type: ignore[attr-defined]
        covered = 0
        for i in range(0, len(mine), COVERAGE_BATCH):
            batch = mine[i : i + COVERAGE_BATCH]
            by_seq = {e.seq: e for e in self.store.read(match_id, batch[0].seq, batch[-1].seq)}
            for leaf in batch:
                ev = by_seq.get(leaf.seq)
                data = event_leaf(ev.match_id, ev.seq, ev.hash, sigs.get(ev.hash)) if ev is not None else None
                if data is None or leaf_hash(data).hex() != leaf.hash:
                    report.problems.append(f"leaf {leaf.index}: {match_id} seq {leaf.seq} (or its signature) is not what "
                                           f"the checkpoint of tree size {latest['tree_size']} holds (altered or cut off)")
                else:
                    covered = max(covered, leaf.seq)
        return {**{k: latest[k] for k in ("tree_size", "root", "created_at", "key")}, "covered_to": covered}, report.problems

    @staticmethod
    def _check_leaf(i: int, leaf: Leaf, rejections, keys) -> str | None:
        """A rejection's or a key's leaf (an event's is checked with its match's events)."""
        if leaf.kind == "rejection":
            r = rejections.get((leaf.match_id, leaf.ref))
            if r is None:
                return f"leaf {i}: a rejected attempt of {leaf.match_id} is no longer in the store (removed)"
            data, what = rejection_leaf(r), f"the rejected {r.type!r} by {r.by} in {leaf.match_id}"
        elif leaf.kind == "key":
            k = keys.get(leaf.ref)
            if k is None:
                return f"leaf {i}: a registered key is no longer in the store (removed)"
            data, what = key_leaf(k), f"the key of {k.role} {k.name!r}"
        else:
            return f"leaf {i}: unknown kind {leaf.kind!r}"
        if leaf_hash(data).hex() != leaf.hash:
            return f"leaf {i}: {what} is not what the audit tree holds (altered after the fact)"
        return None

    @staticmethod
    def _check_trust(hashes: Sequence[bytes], pinned: Sequence[str], trusted: Checkpoint | None, report: StoreAudit) -> None:
        """A store once checkpointed under a trusted key that now has no such checkpoint, or only
        an older one than the ``trusted`` checkpoint, or a tree that no longer has its root, had
        its audit tables emptied, cut back or rewritten (``report.checkpoints`` checked already)."""
        good = [row for row in report.checkpoints if row["ok"]]
        if pinned and not report.checkpoints and trusted is None:  # with one, it says more below
            keys = ", ".join(fingerprint(k) for k in pinned)
            report.problems.append(f"the store has no checkpoint, where one signed by the trusted key ({keys}) was "
                                   "expected: its audit tables were emptied, or it was never checkpointed "
                                   "(adj audit checkpoint)")
        if trusted is None:
            return
        made = f"the trusted checkpoint of tree size {trusted.tree_size} (made {trusted.created_at})"
        if not report.checkpoints:
            report.problems.append(f"the store has no checkpoint, though it had {made}: its audit tables were emptied")
        elif good and max(row["tree_size"] for row in good) < trusted.tree_size:
            latest = max(row["tree_size"] for row in good)
            report.problems.append(f"the store's latest checkpoint is of tree size {latest}, older than {made}: "
                                   "its later checkpoints were removed")
        if trusted.tree_size > len(hashes) or root(hashes[: trusted.tree_size]).hex() != trusted.root:
            report.problems.append(f"the store's tree no longer has the root of {made}: the audit tree was cut back "
                                   "or rewritten")

    def _check_checkpoints(self, hashes: Sequence[bytes], pinned: Sequence[str], report: StoreAudit) -> None:
        """Each checkpoint: signed (by a pinned key, when keys are pinned), its root the root of the
        tree's first ``tree_size`` leaves, and each one consistent with the one recorded before."""
        previous: Checkpoint | None = None
        for cp in self.checkpoints():
            row = {"tree_size": cp.tree_size, "root": cp.root, "created_at": cp.created_at,
                   "key": fingerprint(cp.public_key), "ok": False}
            report.checkpoints.append(row)
            where = f"checkpoint of tree size {cp.tree_size} made {cp.created_at}"
            try:
                check_checkpoint(cp.to_json(), pinned)
            except ProofError as exc:
                report.problems.append(f"{where}: {exc}")
                continue
            if cp.tree_size > len(hashes) or root(hashes[: cp.tree_size]).hex() != cp.root:
                report.problems.append(f"{where}: its root is not the root of the store's tree (the ledger was rewritten)")
                continue
            if previous is not None:
                old, new = sorted((previous, cp), key=lambda c: c.tree_size)
                path = consistency_path(old.tree_size, hashes[: new.tree_size])
                if not verify_consistency(old.tree_size, new.tree_size, bytes.fromhex(old.root),
                                          bytes.fromhex(new.root), path):
                    report.problems.append(f"{where}: not consistent with the checkpoint of size {previous.tree_size}")
                    continue
            row["ok"] = True
            previous = cp
