"""Ed25519 keys and signatures (the ``cryptography`` library, imported only when a key is used).

Private keys are PEM files (PKCS#8, unencrypted: ``adj keys new`` writes them, as OpenSSL's
``genpkey -algorithm ed25519`` does), kept with owner-only permissions. A public key file is PEM
(SubjectPublicKeyInfo) or the base64 of its 32 raw bytes.
Inside the store and in proofs a public key is the base64 of its 32 raw bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from typing import Any


class KeyFileError(ValueError):
    """A key file that cannot be read or used."""


def _ed25519():
    from cryptography.hazmat.primitives.asymmetric import ed25519

    return ed25519


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise KeyFileError(f"{what} is not base64: {text[:20]!r}") from None


def fingerprint(public_key: str) -> str:
    """A short name for a public key (base64): the first 16 hex digits of SHA-256 of its raw bytes."""
    return hashlib.sha256(unb64(public_key, "the public key")).hexdigest()[:16]


class SigningKey:
    """A private key read from a file, with its public half."""

    def __init__(self, key: Any, path: str):
        self._key = key
        self.path = path
        from cryptography.hazmat.primitives import serialization

        raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public_key = b64(raw)

    def sign(self, data: bytes) -> str:
        return b64(self._key.sign(data))


def load_signing_key(path: str) -> SigningKey:
    from cryptography.hazmat.primitives import serialization

    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise KeyFileError(f"cannot read the key {path!r}: {exc.strerror}") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"{path!r} is not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, _ed25519().Ed25519PrivateKey):
        raise KeyFileError(f"{path!r} is not an Ed25519 key")
    return SigningKey(key, path)


def create_signing_key(path: str, public_path: str | None = None) -> SigningKey:
    """Write a new key pair: ``path`` (private, mode 0600) and ``public_path`` (PEM; default
    ``path + '.pub'``), in a folder made 0700 when it is new. Neither file is ever written over:
    ``KeyFileError`` when one exists, and then nothing is written."""
    from cryptography.hazmat.primitives import serialization

    public_path = public_path or path + ".pub"
    for p in (path, public_path):
        if os.path.lexists(p):
            raise KeyFileError(f"{p!r} exists already: a key file is never written over (nothing was written)")
    key = _ed25519().Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pem)
    signing = SigningKey(key, path)
    with open(public_path, "x", encoding="ascii") as fh:
        fh.write(public_pem(signing.public_key))
    return signing


def public_pem(public_key: str) -> str:
    from cryptography.hazmat.primitives import serialization

    key = _ed25519().Ed25519PublicKey.from_public_bytes(unb64(public_key, "the public key"))
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def read_public_key(path: str) -> str:
    """A public key file (PEM, or the base64 of 32 raw bytes) as base64 of its raw bytes."""
    from cryptography.hazmat.primitives import serialization

    try:
        with open(path, "rb") as fh:
            data = fh.read().strip()
    except OSError as exc:
        raise KeyFileError(f"cannot read the public key {path!r}: {exc.strerror}") from None
    if data.startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_public_key(data)
        except ValueError as exc:
            raise KeyFileError(f"{path!r} is not a PEM public key ({exc})") from None
        if not isinstance(key, _ed25519().Ed25519PublicKey):
            raise KeyFileError(f"{path!r} is not an Ed25519 public key")
        return b64(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
    raw = unb64(data.decode("ascii", "replace"), f"the public key in {path!r}")
    if len(raw) != 32:
        raise KeyFileError(f"{path!r}: an Ed25519 public key has 32 bytes, not {len(raw)}")
    return b64(raw)


def verify_signature(public_key: str, signature: str, data: bytes) -> bool:
    """Whether ``signature`` (base64) is ``public_key``'s (base64) Ed25519 signature of ``data``."""
    from cryptography.exceptions import InvalidSignature

    try:
        raw = base64.b64decode(public_key, validate=True)
        sig = base64.b64decode(signature, validate=True)
        _ed25519().Ed25519PublicKey.from_public_bytes(raw).verify(sig, data)
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True
