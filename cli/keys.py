"""The private keys a command is handed (``--judge-key``, ``--player-key``, the checkpoint key):
read, or made on first use, with a bad file a clear exit 2."""

from __future__ import annotations

from typing import Any

from cli.errors import BadInput


def key_file(path: str | None, *, create: bool = True) -> Any:
    """The Ed25519 private key in ``path`` (this user's checkpoint key when None, made on first
    use if ``create``); a file that is no such key is bad input."""
    from adjudicator.authority.audit import signing_key

    try:
        return signing_key(path, create=create)
    except ValueError as exc:
        raise BadInput(str(exc), {"error": "key", "message": str(exc)}) from None


def signing_key_or_none(path: str | None) -> Any:
    """A judge's or player's key (--judge-key, --player-key or their variables); None if not given."""
    return key_file(path, create=False) if path else None
