"""Merkle tree hashing and proofs as RFC 9162 (Certificate Transparency v2), section 2.1, has them.

Pure functions over lists of leaf hashes (32-byte ``bytes``): no store, no clock.

- ``leaf_hash(data) = SHA-256(0x00 || data)``, ``node_hash(l, r) = SHA-256(0x01 || l || r)``.
- The tree of ``n`` leaves splits at ``k``, the largest power of two below ``n``: the left subtree
  holds leaves ``[0, k)``, the right one ``[k, n)`` (so the tree need not be balanced). The
  empty tree's root is ``SHA-256()`` of nothing.
- An inclusion proof (``PATH``) and a consistency proof (``PROOF``) are lists of node hashes in
  the RFC's order, and are checked with the RFC's verification algorithms (2.1.3.2, 2.1.4.2).
"""

from __future__ import annotations

from collections.abc import Sequence

from events.digest import sha256

EMPTY_ROOT = sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) of the leaf hashes ``leaves`` (iteratively: no recursion limit for big trees)."""
    if not leaves:
        return EMPTY_ROOT
    # Merge perfect subtrees as a binary counter does: the stack holds the roots of the perfect
    # subtrees of the leaves seen so far, largest first; at the end they fold right to left,
    # which is exactly the RFC's split at the largest power of two.
    stack: list[tuple[int, bytes]] = []
    for h in leaves:
        size, node = 1, h
        while stack and stack[-1][0] == size:
            left_size, left = stack.pop()
            size, node = left_size + size, node_hash(left, node)
        stack.append((size, node))
    node = stack[-1][1]
    for _, left in reversed(stack[:-1]):
        node = node_hash(left, node)
    return node


def inclusion_path(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]): the audit path of leaf ``index`` in the tree of ``leaves``."""
    n = len(leaves)
    if not 0 <= index < n:
        raise ValueError(f"leaf {index} is not in a tree of {n} leaves")
    path: list[bytes] = []
    lo, hi, m = 0, n, index
    while hi - lo > 1:
        k = _split(hi - lo)
        if m < k:
            path.append(root(leaves[lo + k : hi]))
            hi = lo + k
        else:
            path.append(root(leaves[lo : lo + k]))
            lo, m = lo + k, m - k
    path.reverse()  # the RFC lists the path from the leaf upwards
    return path


def consistency_path(old_size: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]): shows the tree of the first ``old_size`` leaves is a prefix of ``leaves``."""
    n = len(leaves)
    if not 0 <= old_size <= n:
        raise ValueError(f"a tree of {old_size} leaves cannot precede one of {n}")
    if old_size in (0, n):
        return []
    out: list[bytes] = []
    lo, hi, m, whole = 0, n, old_size, True
    while m != hi - lo:  # SUBPROOF(m, D[lo:hi], whole)
        k = _split(hi - lo)
        if m <= k:
            out.append(root(leaves[lo + k : hi]))
            hi = lo + k
        else:
            out.append(root(leaves[lo : lo + k]))
            lo, m, whole = lo + k, m - k, False
    if not whole:
        out.append(root(leaves[lo:hi]))
    out.reverse()
    return out


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 2.1.3.2: does ``path`` lead from leaf hash ``leaf`` at ``index`` to the root?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, path: Sequence[bytes]
) -> bool:
    """RFC 9162 2.1.4.2: is the tree (``new_size``, ``new_root``) an extension of the older one?"""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == new_size:
        return not path and old_root == new_root
    if old_size == 0:
        return not path  # every tree extends the empty one
    if not path:
        return False
    nodes = list(path)
    if old_size & (old_size - 1) == 0:  # an exact power of two: the old root is a node of the new tree
        nodes.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = nodes[0]
    for c in nodes[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0


class PackedHashes(Sequence[bytes]):
    """Leaf hashes (32 bytes each) packed end to end in one buffer: a tree of n leaves in 32n
    bytes, where a list of ``bytes`` takes about twice that. A slice is a view of the same buffer."""

    def __init__(self, buffer: bytearray | None = None, start: int = 0, stop: int | None = None):
        self._buffer = bytearray() if buffer is None else buffer
        self._start = start
        self._stop = stop

    def append(self, digest: bytes) -> None:
        if self._start or self._stop is not None:
            raise TypeError("a slice of the hashes cannot grow")
        if len(digest) != 32:
            raise ValueError("a leaf hash is 32 bytes")
        self._buffer += digest

    def __len__(self) -> int:
        stop = len(self._buffer) // 32 if self._stop is None else self._stop
        return stop - self._start

    def __getitem__(self, i):  # type: ignore[override]
        n = len(self)
        if isinstance(i, slice):
            lo, hi, step = i.indices(n)
            if step != 1:
                raise ValueError("only contiguous slices of the hashes")
            return PackedHashes(self._buffer, self._start + lo, self._start + max(lo, hi))
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        at = (self._start + i) * 32
        return bytes(self._buffer[at : at + 32])

    def __iter__(self):
        buf, at = self._buffer, self._start * 32
        for k in range(len(self)):
            yield bytes(buf[at + 32 * k : at + 32 * k + 32])
