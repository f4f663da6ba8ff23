"""SHA-256 for the event chain, the audit tree and snapshots: the interpreter's own (``_sha2``, and
``_sha256`` before Python 3.12), as the standard ``random`` takes its SHA-512, not OpenSSL's through
``hashlib``, whose loading is some 2 ms of every ``adj`` command's start (issue 25). The digests
are the same; OpenSSL's is quicker on long inputs only, and the chain hashes short ones."""

from __future__ import annotations

try:
    from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]  # Python 3.11
    except ImportError:  # an interpreter built without them
        from hashlib import sha256  # type: ignore[assignment,unused-ignore]

__all__ = ["sha256"]
