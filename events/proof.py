"""Checking a proof with nothing but the proof and a public key: no store, no rules of any game.

Three kinds of proof file (docs/audit.md gives their fields):

- ``inclusion``: a leaf (its exact bytes), its index, the audit path, and the signed checkpoint
  of the tree it is in;
- ``consistency``: two signed checkpoints and the path showing the later tree extends the earlier;
- ``match``: what ``adj export MATCH --with-proof`` writes: the inclusion proof of the match's
  head, the inclusion proofs of the keys that signed its events, and those signatures.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.checkpoint import Checkpoint, parse_checkpoint
from events.envelope import decode_json
from events.merkle import leaf_hash, verify_consistency, verify_inclusion
from events.signing import fingerprint, verify_signature


class ProofError(ValueError):
    """The proof does not verify, or is not a proof at all."""


class ProofReport(msgspec.Struct, kw_only=True):
    kind: str
    checkpoints: list[dict[str, Any]]  # tree_size, root, created_at, key (fingerprint)
    leaves: list[dict[str, Any]] = []  # the decoded leaves proven included
    signers: list[dict[str, Any]] = []  # match proofs: who signed which event


def _hex_list(obj: Any, what: str) -> list[bytes]:
    if not isinstance(obj, list) or not all(isinstance(h, str) for h in obj):
        raise ProofError(f"{what} is a list of hex strings")
    try:
        return [bytes.fromhex(h) for h in obj]
    except ValueError:
        raise ProofError(f"{what} holds something that is not hex") from None


def check_checkpoint(obj: Any, public_keys: Sequence[str]) -> Checkpoint:
    """Parse a checkpoint and check its signature, made by one of ``public_keys`` (base64)."""
    try:
        cp = parse_checkpoint(obj)
    except ValueError as exc:
        raise ProofError(str(exc)) from None
    if public_keys and cp.public_key not in public_keys:
        raise ProofError(
            f"the checkpoint of tree size {cp.tree_size} is signed by key {_fp(cp.public_key)}, not by the key given"
        )
    if not verify_signature(cp.public_key, cp.signature, cp.body().encode()):
        raise ProofError(f"the signature of the checkpoint of tree size {cp.tree_size} does not verify")
    return cp


def _fp(public_key: str) -> str:
    try:
        return fingerprint(public_key)
    except ValueError:
        return "(not a key)"


def _cp_json(cp: Checkpoint) -> dict[str, Any]:
    return {"tree_size": cp.tree_size, "root": cp.root, "created_at": cp.created_at, "key": _fp(cp.public_key)}


def check_inclusion(obj: Any, public_keys: Sequence[str]) -> tuple[Checkpoint, dict[str, Any]]:
    """An inclusion proof: (its checkpoint, the decoded leaf)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("leaf"), str) or not isinstance(obj.get("leaf_index"), int):
        raise ProofError("an inclusion proof has 'leaf' (text), 'leaf_index', 'path' and 'checkpoint'")
    cp = check_checkpoint(obj.get("checkpoint"), public_keys)
    path = _hex_list(obj.get("path"), "the path")
    data = obj["leaf"].encode("utf-8")
    if not verify_inclusion(obj["leaf_index"], cp.tree_size, leaf_hash(data), path, bytes.fromhex(cp.root)):
        raise ProofError(f"leaf {obj['leaf_index']} is not in the tree of size {cp.tree_size} that the checkpoint signs")
    try:
        leaf = decode_json(data)
    except msgspec.DecodeError:
        raise ProofError("the leaf is not JSON") from None
    if not isinstance(leaf, dict):
        raise ProofError("the leaf is not a JSON object")
    return cp, leaf


def check_consistency(obj: Any, public_keys: Sequence[str]) -> tuple[Checkpoint, Checkpoint]:
    if not isinstance(obj, dict):
        raise ProofError("a consistency proof has 'old', 'new' and 'path'")
    old = check_checkpoint(obj.get("old"), public_keys)
    new = check_checkpoint(obj.get("new"), public_keys)
    path = _hex_list(obj.get("path"), "the path")
    if not verify_consistency(old.tree_size, new.tree_size, bytes.fromhex(old.root), bytes.fromhex(new.root), path):
        raise ProofError(
            f"the tree of size {new.tree_size} does not extend the tree of size {old.tree_size}: the log was rewritten"
        )
    return old, new


def check_match_proof(obj: Any, public_keys: Sequence[str]) -> ProofReport:
    """A match's proof: its head is in the signed tree, and every signature beside its events was
    made by a key whose registration is in the same tree."""
    if not isinstance(obj.get("keys", []), list) or not isinstance(obj.get("signatures", []), list):
        raise ProofError("a match proof's 'keys' and 'signatures' are lists")
    cp, head = check_inclusion(obj.get("head"), public_keys)
    if head.get("kind") != "event" or head.get("match_id") != obj.get("match_id"):
        raise ProofError(f"the proven leaf is not an event of match {obj.get('match_id')!r}")
    keys: dict[str, tuple[str, str]] = {}  # public key -> (role, name)
    leaves = [head]
    for item in obj.get("keys", []):
        kcp, key = check_inclusion(item, public_keys)
        if kcp.root != cp.root or key.get("kind") != "key":
            raise ProofError("a key's proof is not a key leaf of the same checkpoint")
        keys[str(key.get("public_key"))] = (str(key.get("role")), str(key.get("name")))
        leaves.append(key)
    signers = []
    for sig in obj.get("signatures", []):
        if not isinstance(sig, dict):
            raise ProofError("a signature is an object")
        who = keys.get(sig.get("public_key"))
        if who is None or who != (sig.get("role"), sig.get("signer")):
            raise ProofError(f"seq {sig.get('seq')} is signed with a key not registered to {sig.get('signer')!r}")
        if not verify_signature(str(sig.get("public_key")), str(sig.get("value")), str(sig.get("hash")).encode("ascii")):
            raise ProofError(f"the signature of seq {sig.get('seq')} does not verify")
        signers.append({"seq": sig.get("seq"), "hash": sig.get("hash"), "role": who[0], "signer": who[1]})
    return ProofReport(kind="match", checkpoints=[_cp_json(cp)], leaves=leaves, signers=signers)


def check_proof(obj: Any, public_keys: Sequence[str]) -> ProofReport:
    """Check any proof file's object against the trusted ``public_keys`` (base64); ``ProofError``."""
    kind = obj.get("proof") if isinstance(obj, dict) else None
    if kind == "inclusion":
        cp, leaf = check_inclusion(obj, public_keys)
        return ProofReport(kind=kind, checkpoints=[_cp_json(cp)], leaves=[leaf])
    if kind == "consistency":
        old, new = check_consistency(obj, public_keys)
        return ProofReport(kind=kind, checkpoints=[_cp_json(old), _cp_json(new)])
    if kind == "match":
        return check_match_proof(obj, public_keys)
    raise ProofError(f"not a proof file: 'proof' is {kind!r}, not 'inclusion', 'consistency' or 'match'")
