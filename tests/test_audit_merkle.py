"""The Merkle tree of RFC 9162: the Certificate Transparency test vectors (the eight leaves of
RFC 6962's reference tests), the RFC's recursive definitions, and proofs that fail when altered."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from events.merkle import (
    EMPTY_ROOT,
    consistency_path,
    inclusion_path,
    leaf_hash,
    node_hash,
    root,
    verify_consistency,
    verify_inclusion,
)

DATA = [bytes.fromhex(x) for x in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                     "606162636465666768696a6b6c6d6e6f")]
LEAVES = [leaf_hash(d) for d in DATA]
ROOTS = {
    1: "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    2: "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    3: "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    4: "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    5: "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    6: "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    7: "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    8: "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
}


def mth(leaves):
    """MTH(D[n]) written as the RFC writes it, recursively."""
    n = len(leaves)
    if n == 0:
        return hashlib.sha256(b"").digest()
    if n == 1:
        return leaves[0]
    k = 1
    while k * 2 < n:
        k *= 2
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def test_roots_of_the_ct_test_vectors():
    assert root([]) == EMPTY_ROOT == bytes.fromhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    for n, want in ROOTS.items():
        assert root(LEAVES[:n]).hex() == want


def test_inclusion_and_consistency_paths_of_the_ct_test_vectors():
    assert [h.hex() for h in inclusion_path(0, LEAVES)] == [
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]
    assert [h.hex() for h in consistency_path(6, LEAVES)] == [
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ]
    assert [h.hex() for h in consistency_path(2, LEAVES[:5])] == [
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ]
    assert consistency_path(1, LEAVES) == inclusion_path(0, LEAVES)
    assert consistency_path(8, LEAVES) == [] and consistency_path(0, LEAVES) == []


def test_empty_and_equal_trees():
    r = root(LEAVES)
    assert verify_consistency(0, 8, EMPTY_ROOT, r, [])
    assert verify_consistency(8, 8, r, r, [])
    assert not verify_consistency(8, 8, r, EMPTY_ROOT, [])
    assert not verify_consistency(3, 8, root(LEAVES[:3]), r, [])
    assert not verify_consistency(5, 4, root(LEAVES[:5]), root(LEAVES[:4]), [])
    assert not verify_inclusion(8, 8, LEAVES[0], [], r)


@given(st.lists(st.binary(max_size=8), min_size=1, max_size=70), st.data())
def test_proofs_verify_and_fail_when_altered(datas, data):
    leaves = [leaf_hash(d) for d in datas]
    n = len(leaves)
    r = root(leaves)
    assert r == mth(leaves)
    i = data.draw(st.integers(0, n - 1))
    path = inclusion_path(i, leaves)
    assert verify_inclusion(i, n, leaves[i], path, r)
    assert not verify_inclusion(i, n, leaf_hash(datas[i] + b"x"), path, r)
    if path:
        j = data.draw(st.integers(0, len(path) - 1))
        bad = list(path)
        bad[j] = hashlib.sha256(bad[j]).digest()
        assert not verify_inclusion(i, n, leaves[i], bad, r)
        assert not verify_inclusion(i, n, leaves[i], path[:-1], r)
    assert not verify_inclusion(i + n, n, leaves[i], path, r)
    m = data.draw(st.integers(0, n))
    proof = consistency_path(m, leaves)
    assert verify_consistency(m, n, root(leaves[:m]), r, proof)
    if 0 < m < n:
        assert not verify_consistency(m, n, root(leaves[:m]), root(leaves[:-1] + [leaf_hash(b"other")]), proof)
        other = leaves[: m - 1] + [leaf_hash(datas[m - 1] + b"x")]
        assert not verify_consistency(m, n, root(other), r, proof)
        assert not verify_consistency(m, n, root(leaves[:m]), r, proof[:-1])


@given(st.lists(st.binary(min_size=1, max_size=4), max_size=40), st.data())
def test_hashes_packed_in_one_buffer_give_the_roots_and_proofs_of_a_list(data, draw):
    from events.merkle import PackedHashes

    hashes = [leaf_hash(d) for d in data]
    packed = PackedHashes()
    for h in hashes:
        packed.append(h)
    n = draw.draw(st.integers(0, len(hashes)))
    assert list(packed[:n]) == hashes[:n] and root(packed[:n]) == root(hashes[:n])
    m = draw.draw(st.integers(0, n))
    assert consistency_path(m, packed[:n]) == consistency_path(m, hashes[:n])
    if n:
        i = draw.draw(st.integers(0, n - 1))
        assert inclusion_path(i, packed[:n]) == inclusion_path(i, hashes[:n]) and packed[i] == hashes[i]
