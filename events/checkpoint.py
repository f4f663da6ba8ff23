"""What the audit tree is made of: its leaves, its checkpoints and the signatures kept beside events.

docs/audit.md specifies every byte of these formats, so that a verifier can be written from it
alone. In short:

- A leaf is the canonical JSON (``events.envelope.canonical``) of an object with a ``kind``:
  ``event`` (match_id, seq, hash, signature), ``rejection`` (the whole rejected attempt) or
  ``key`` (a public key registered for a judge or a player).
- A checkpoint's signed text is four lines: ``adjudicator-checkpoint/1``, the tree size, the
  root as lowercase hex, the time it was made; the Ed25519 signature covers exactly those bytes.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import Rejection, canonical

CHECKPOINT_HEADER = "adjudicator-checkpoint/1"

#: Leaf kinds, and their rank when leaves recorded at the same instant are put in order.
KIND_RANK = {"key": 0, "event": 1, "rejection": 2}


class Signature(msgspec.Struct, frozen=True, kw_only=True):
    """An Ed25519 signature over an event's hash (the 64 hex characters, as ASCII), kept beside it."""

    hash: str
    match_id: str
    seq: int
    role: str  # "judge" or "player"
    signer: str  # the registered name whose key made it
    public_key: str  # base64 of the 32 raw bytes
    value: str  # base64 of the 64-byte signature

    def leaf_part(self) -> dict[str, str]:
        return {"role": self.role, "signer": self.signer, "public_key": self.public_key, "value": self.value}


class KeyRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A public key registered in the store for a judge or a player."""

    ref: int
    role: str
    name: str
    public_key: str  # base64 of the 32 raw bytes
    by: str
    recorded_at: str


class Leaf(msgspec.Struct, frozen=True, kw_only=True):
    """One leaf of the store's tree: what it stands for, and its RFC 9162 leaf hash (hex)."""

    index: int
    kind: str
    match_id: str  # "" for a key
    seq: int  # the event's seq (0 for other kinds)
    ref: int  # the rejection's or key's id in the store (0 for events)
    hash: str


class Checkpoint(msgspec.Struct, frozen=True, kw_only=True):
    """A signed statement of the tree's size and root at one moment."""

    tree_size: int
    root: str
    created_at: str
    public_key: str
    signature: str

    def body(self) -> str:
        return checkpoint_body(self.tree_size, self.root, self.created_at)

    def to_json(self) -> dict[str, Any]:
        return {"body": self.body(), **msgspec.structs.asdict(self)}


def checkpoint_body(tree_size: int, root_hex: str, created_at: str) -> str:
    return f"{CHECKPOINT_HEADER}\n{tree_size}\n{root_hex}\n{created_at}\n"


def parse_checkpoint(obj: Any) -> Checkpoint:
    """A checkpoint from its JSON form; ``ValueError`` if the body and the fields disagree.

    Only the body is signed: the fields beside it are read from it, and must say the same."""
    if not isinstance(obj, dict) or not isinstance(obj.get("body"), str):
        raise ValueError("a checkpoint is an object with a 'body' text")
    lines = obj["body"].split("\n")
    if len(lines) != 5 or lines[0] != CHECKPOINT_HEADER or lines[4] != "":
        raise ValueError(f"a checkpoint body is four lines, the first {CHECKPOINT_HEADER!r}")
    size_text, root_hex, created_at = lines[1], lines[2], lines[3]
    if not size_text.isdigit() or len(root_hex) != 64 or any(c not in "0123456789abcdef" for c in root_hex):
        raise ValueError("a checkpoint body gives the tree size in decimal and the root as 64 lowercase hex digits")
    cp = Checkpoint(
        tree_size=int(size_text),
        root=root_hex,
        created_at=created_at,
        public_key=str(obj.get("public_key", "")),
        signature=str(obj.get("signature", "")),
    )
    signed = {"tree_size": cp.tree_size, "root": cp.root, "created_at": cp.created_at}
    for key, value in signed.items():
        if key in obj and obj[key] != value:
            raise ValueError(f"the checkpoint's {key!r} differs from its signed body")
    return cp


def event_leaf(match_id: str, seq: int, hash_: str, signature: Signature | None) -> bytes:
    return canonical(
        {
            "kind": "event",
            "match_id": match_id,
            "seq": seq,
            "hash": hash_,
            "signature": signature.leaf_part() if signature is not None else None,
        }
    )


def rejection_leaf(r: Rejection) -> bytes:
    body = msgspec.structs.asdict(r)
    body["kind"] = "rejection"
    return canonical(body)


def key_leaf(k: KeyRecord) -> bytes:
    return canonical(
        {"kind": "key", "role": k.role, "name": k.name, "public_key": k.public_key, "by": k.by, "recorded_at": k.recorded_at}
    )
