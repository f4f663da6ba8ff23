"""Snapshots: a match's state after one of its events, kept beside the log every ``EVERY`` events
(all of them kept, one a seq), so that what needs only the present (``adj act``, ``adj state`` and
``adj legal`` without ``--at``) folds the events after the last snapshot instead of the whole
match, and a look at the past (``adj state --at SEQ``, ``adj diff``) the events after the one
nearest before SEQ. Their cost no longer grows with the match's length.

A snapshot is derived data: the hash chain does not cover it. It names the event it was taken
after (seq and hash) and the code that computed it (a digest of the spine's and the game's
source); one that does not fit the log or the code, or does not decode, is ignored and the whole
log is folded. ``adj verify`` folds the whole log and checks every snapshot against it, so a
snapshot is trusted as far as the last verify, as the log itself is.

The state is kept as msgpack and decoded by the game's state type (the return type of its
``initial``): typed data only, never code, whatever the store holds.
"""

import functools
import os
import sys
import typing
from typing import Any

import msgspec

from adjudicator.engine import confirming, judging
from adjudicator.engine.fold import Fold
from adjudicator.engine.kit import Game
from events.digest import sha256

#: Events between two snapshots: the most a command folds beyond the last one, or a look at the
#: past beyond the one before its seq.
EVERY = 500

#: 3: the confirmation point of the snapshot's event (``point``)
FORMAT = 3


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    format: int
    code: str  # the digest of the code that computed it
    game: str
    seq: int
    hash: str  # of the event at seq
    players: tuple[str, ...]
    penalties: list[tuple[int, judging.Penalty]]
    effective: list[tuple[int, int]]  # the effective history up to seq, as runs (first, last)
    state: msgspec.Raw
    # what the event at seq ended that the players naturally confirm (``confirming.point``), "" for
    # nothing: ``adj legal`` at that event needs no state before it; None when the fold that took
    # the snapshot could not tell
    point: str | None = None


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Snapshot)


def state_type(game: Game) -> Any:
    """The type of ``game``'s states (the return type of its ``initial``), or None when it is not
    a Struct: such a game gets no snapshots."""
    return _state_type(type(game))


@functools.cache
def _state_type(cls: type) -> Any:
    try:
        tp = typing.get_type_hints(cls.initial).get("return")
    except Exception:  # unresolvable annotations: no snapshots, never a failure
        return None
    return tp if isinstance(tp, type) and issubclass(tp, msgspec.Struct) else None


@functools.cache
def code_digest(cls: type) -> str:
    """SHA-256 of the source of the engine (``adjudicator/engine/*.py``, this package) and of the
    game's package: a snapshot computed by other code is not used.

    Worked out once for the sources as they are, and kept in the engine's ``__pycache__`` with
    each file's size and modification time (as Python keeps a module's bytecode): a command whose
    sources have not changed since reads it there, not some 300 KB of source (a few ms of every
    ``adj state``, ``legal`` and ``act``: issue 25). Where it cannot be kept, it is worked out."""
    spine = os.path.dirname(os.path.abspath(__file__))
    game_dir = os.path.dirname(os.path.abspath(sys.modules[cls.__module__].__file__ or ""))
    files = [os.path.join(folder, name) for folder in sorted({spine, game_dir})
             for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    try:
        stamp = [(path, st.st_size, st.st_mtime_ns) for path in files for st in (os.stat(path),)]
    except OSError:
        return _digest_of(files)
    kept_at = os.path.join(spine, "__pycache__", f"code-digest.{cls.__module__}.{cls.__qualname__}.json")
    try:
        with open(kept_at, "rb") as fh:
            kept = _kept_digest.decode(fh.read())
        if kept.stamp == stamp:
            return kept.digest
    except (OSError, msgspec.DecodeError):
        pass
    digest = _digest_of(files)
    if [(path, st.st_size, st.st_mtime_ns) for path in files for st in (os.stat(path),)] == stamp:  # unchanged meanwhile
        try:
            os.makedirs(os.path.dirname(kept_at), exist_ok=True)
            part = f"{kept_at}.{os.getpid()}"
            with open(part, "wb") as fh:
                fh.write(msgspec.json.encode(_KeptDigest(stamp=stamp, digest=digest)))
            os.replace(part, kept_at)
        except OSError:  # a read-only install: worked out at every command
            pass
    return digest


class _KeptDigest(msgspec.Struct, frozen=True):
    stamp: list[tuple[str, int, int]]
    digest: str


_kept_digest = msgspec.json.Decoder(_KeptDigest)


def _digest_of(files: list[str]) -> str:
    digest = sha256()
    for path in files:
        with open(path, "rb") as fh:
            digest.update(os.path.basename(path).encode() + b"\0" + fh.read() + b"\0")
    return digest.hexdigest()


def encode(game: Game, fold: Fold, hash_: str) -> bytes | None:
    """The snapshot of ``fold`` at its head, whose event has ``hash_``; None for a game without
    a state type."""
    if state_type(game) is None:
        return None
    return _encoder.encode(Snapshot(
        format=FORMAT, code=code_digest(type(game)), game=game.name, seq=fold.head, hash=hash_,
        players=tuple(fold.players), penalties=list(fold.penalties), effective=fold.effective_runs(),
        state=msgspec.Raw(_encoder.encode(fold.state)),
        point=point_of(game, fold),
    ))


def point_of(game: Game, fold: Fold) -> str | None:
    """What a snapshot of ``fold`` at its head carries as ``point``: the head's confirmation point
    (``confirming.point``), None when the fold cannot tell or the head is a confirmation."""
    return confirming.point(fold, game) if fold.confirmable_head() == fold.head else None


def decode(game: Game, data: bytes) -> tuple[Snapshot, Any] | None:
    """``(snapshot, state)`` when ``data`` is a snapshot of ``game`` by this code; else None."""
    tp = state_type(game)
    if tp is None:
        return None
    try:
        snap = _decoder.decode(data)
        if snap.format != FORMAT or snap.game != game.name or snap.code != code_digest(type(game)):
            return None
        return snap, msgspec.msgpack.decode(snap.state, type=tp)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
