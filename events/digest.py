"""SHA-256 for the event chain, the audit tree and snapshots.

``sha256`` is the interpreter's own (``_sha2``, and ``_sha256`` before Python 3.12), as the
standard ``random`` takes its SHA-512: OpenSSL's, through ``hashlib``, costs some 2 ms to load,
which every ``adj`` command would pay at its start (issue 25). OpenSSL's is the quicker per
input, though (about 2 us for an event's 300-byte body, where the interpreter's takes 4 to 5):
``sha256_for(count)`` gives it for a run of ``count`` inputs long enough to pay its loading, or
once something has loaded it (a server, a long replay). The digests are the same either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

try:
    from _sha2 import sha256  # type: ignore[import-not-found,unused-ignore]  # Python 3.12+
except ImportError:
    try:
        from _sha256 import sha256  # type: ignore[import-not-found,no-redef,unused-ignore]  # Python 3.11
    except ImportError:  # an interpreter built without them
        from hashlib import sha256  # type: ignore[assignment,unused-ignore]

__all__ = ["BULK", "sha256", "sha256_for"]

#: Inputs from which OpenSSL's SHA-256 pays for its loading: some 2 ms, against 2 to 3 us saved
#: on each event's body.
BULK = 1_000


def sha256_for(count: int) -> Callable[..., Any]:
    """The SHA-256 to hash ``count`` inputs with: OpenSSL's when they are ``BULK`` or more, or when
    ``hashlib`` is loaded already; the interpreter's own otherwise."""
    if count >= BULK or "hashlib" in sys.modules:
        import hashlib

        return hashlib.sha256
    return sha256
