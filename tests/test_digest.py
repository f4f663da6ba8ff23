"""``events.digest``: the interpreter's SHA-256 and OpenSSL's give the same digests, and which one
hashes a run of inputs depends on its length alone (issue 25: OpenSSL's is quicker per input, but
costs a table command's start some 2 ms to load)."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from events import digest
from events.chain import IntegrityError, verify_chain
from events.envelope import Draft, chain_hash, seal


@given(st.binary(max_size=4096))
def test_both_give_the_same_digest(data: bytes) -> None:
    assert digest.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert digest.sha256_for(digest.BULK)(data).digest() == digest.sha256(data).digest()


def test_a_long_run_is_hashed_by_openssl() -> None:
    assert digest.sha256_for(digest.BULK) is hashlib.sha256
    assert digest.sha256_for(10**6) is hashlib.sha256


def test_a_short_run_does_not_load_openssl() -> None:
    """In a fresh interpreter, a few inputs leave ``hashlib`` unloaded; a long run loads it, and
    from then on every run takes it."""
    code = (
        "import sys\n"
        "from events import digest\n"
        "short = digest.sha256_for(3)\n"
        "print(short is digest.sha256, 'hashlib' in sys.modules, '_hashlib' in sys.modules)\n"
        "long = digest.sha256_for(digest.BULK)\n"
        "import hashlib\n"
        "print(long is hashlib.sha256, digest.sha256_for(1) is hashlib.sha256)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "True False False"
    assert out[1] == "True True"


def test_a_chain_verifies_and_fails_alike_with_either() -> None:
    events, prev = [], ""
    for seq in range(1, 6):
        ev = seal("m", seq, prev, Draft(type="take", by="alice", recorded_at="2026-01-01T00:00:00Z", fields={"n": seq}),
                  bulk=seq % 2 == 0)
        assert ev.hash == chain_hash(match_id="m", seq=seq, type="take", by="alice", recorded_at="2026-01-01T00:00:00Z",
                                     fields={"n": seq}, prev=prev)
        events.append(ev)
        prev = ev.hash
    assert verify_chain(events, "m") == 5
    for i in range(5):
        assert verify_chain(events[i:i + 1], "m", from_seq=i + 1, prev=events[i - 1].hash if i else "", bulk=True) == 1
    tampered = [*events[:2], msgspec.structs.replace(events[2], fields={"n": 99}), *events[3:]]
    for bulk in (False, True):
        with pytest.raises(IntegrityError, match="hash does not match") as caught:
            verify_chain(tampered, "m", bulk=bulk)
        assert caught.value.seq == 3
