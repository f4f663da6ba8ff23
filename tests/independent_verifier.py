"""A second, minimal verifier written only from docs/audit.md, as an auditor would write one.

It imports nothing from the project: hashlib, json and base64 from the standard library, and the
``cryptography`` library for Ed25519. Every function raises ``Invalid`` when something does not
verify."""

from __future__ import annotations

import base64
import hashlib
import json

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key


class Invalid(Exception):
    pass


def canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def public_key_from_pem(pem: bytes) -> bytes:
    key = load_pem_public_key(pem)
    return key.public_bytes_raw()


def ed25519_ok(public_key_raw: bytes, signature_b64: str, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key_raw).verify(base64.b64decode(signature_b64), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def checkpoint(cp: dict, trusted_raw: bytes) -> tuple[int, bytes]:
    """(tree size, root) of a checkpoint signed by the trusted key."""
    body = cp["body"]
    lines = body.split("\n")
    if len(lines) != 5 or lines[0] != "adjudicator-checkpoint/1" or lines[4] != "":
        raise Invalid("not a checkpoint body")
    if base64.b64decode(cp["public_key"]) != trusted_raw:
        raise Invalid("checkpoint signed by another key")
    if not ed25519_ok(trusted_raw, cp["signature"], body.encode("utf-8")):
        raise Invalid("bad checkpoint signature")
    return int(lines[1]), bytes.fromhex(lines[2])


def inclusion_ok(index: int, size: int, leaf: bytes, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2."""
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn //= 2
                    sn //= 2
        else:
            r = node_hash(r, p)
        fn //= 2
        sn //= 2
    return sn == 0 and r == root


def consistency_ok(m: int, n: int, old_root: bytes, new_root: bytes, path: list[bytes]) -> bool:
    """RFC 9162 2.1.4.2, with the equal-size and empty-tree cases of docs/audit.md."""
    if m > n:
        return False
    if m == n:
        return not path and old_root == new_root
    if m == 0:
        return not path
    if not path:
        return False
    if m & (m - 1) == 0:
        path = [old_root] + path
    fn, sn = m - 1, n - 1
    while fn % 2 == 1:
        fn //= 2
        sn //= 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn //= 2
                    sn //= 2
        else:
            sr = node_hash(sr, c)
        fn //= 2
        sn //= 2
    return fr == old_root and sr == new_root and sn == 0


def inclusion_proof(proof: dict, trusted_raw: bytes) -> tuple[dict, bytes]:
    """(the decoded leaf, the checkpoint's root) of a valid inclusion proof."""
    size, root = checkpoint(proof["checkpoint"], trusted_raw)
    data = proof["leaf"].encode("utf-8")
    path = [bytes.fromhex(h) for h in proof["path"]]
    if not inclusion_ok(proof["leaf_index"], size, leaf_hash(data), path, root):
        raise Invalid("leaf not in the signed tree")
    return json.loads(data), root


def consistency_proof(proof: dict, trusted_raw: bytes) -> None:
    m, old_root = checkpoint(proof["old"], trusted_raw)
    n, new_root = checkpoint(proof["new"], trusted_raw)
    if not consistency_ok(m, n, old_root, new_root, [bytes.fromhex(h) for h in proof["path"]]):
        raise Invalid("the new tree does not extend the old one")


def event_hash(line: dict) -> str:
    body = {k: v for k, v in line.items() if k != "hash"}
    return hashlib.sha256(line["prev"].encode("ascii") + canonical(body)).hexdigest()


def match_file(lines: list[dict], proof: dict, trusted_raw: bytes) -> list[tuple[int, str, str]]:
    """Check an exported match and its proof; the (seq, role, signer) of each signed event."""
    prev = ""
    for i, line in enumerate(lines, 1):
        if line["seq"] != i or line["prev"] != prev or event_hash(line) != line["hash"]:
            raise Invalid(f"line {i} does not verify")
        prev = line["hash"]
    head, root = inclusion_proof(proof["head"], trusted_raw)
    last = lines[-1]
    if head["kind"] != "event" or (head["match_id"], head["seq"], head["hash"]) != (last["match_id"], last["seq"], last["hash"]):
        raise Invalid("the file does not end at the proven head")
    keys = {}
    for item in proof["keys"]:
        key, key_root = inclusion_proof(item, trusted_raw)
        if key_root != root or key["kind"] != "key":
            raise Invalid("a key is not in the same tree")
        keys[(key["role"], key["name"])] = key["public_key"]
    hashes = {line["seq"]: line["hash"] for line in lines}
    signed = []
    for sig in proof["signatures"]:
        if keys.get((sig["role"], sig["signer"])) != sig["public_key"] or hashes.get(sig["seq"]) != sig["hash"]:
            raise Invalid("a signature by an unregistered key, or of no event of the file")
        if not ed25519_ok(base64.b64decode(sig["public_key"]), sig["value"], sig["hash"].encode("ascii")):
            raise Invalid("a bad signature")
        signed.append((sig["seq"], sig["role"], sig["signer"]))
    return signed
