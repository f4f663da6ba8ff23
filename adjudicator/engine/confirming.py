"""Players' confirmations: a player's Ed25519 signature over the match's head, in the chain.

``confirm`` (``head_seq``, ``head``, ``public_key``, ``signature``) is an event of the spine, like
the judge's ``note`` and ``penalty`` (``adjudicator.engine.judging``): every game has it without
code of its own, the fold checks it here and folds it without calling the game, so the game state
never changes, and it stands outside the game's history (a rewind does not undo it; a correction
cannot insert one).

A confirmation says: "I, player P, agree that the match stands as its head says". The head is
the last event that is not itself a confirmation, so that both players confirm the same head one
after the other. The signature is over the ASCII bytes of

    adjudicator-confirm/1\\n<player>\\n<head hash>\\n

(the head's hash covers the match id, its seq and everything before it). Its ``public_key`` is the
base64 of the 32-byte Ed25519 key, its ``signature`` the base64 of the 64-byte signature.

Rule IDs (docs/audit.md, "Players' confirmations"):

- ADJ-CONF-1: only a player of the match confirms (not the judge, nobody else);
- ADJ-CONF-2: a confirmation is of the head as it stands: ``head_seq`` is the last event that is
  not a confirmation;
- ADJ-CONF-3: ``head`` is the hash of that event;
- ADJ-CONF-4: the signature verifies with ``public_key`` over the confirmation of that head by
  that player (a forged or altered signature, or one copied from another player's or another
  head's confirmation, does not);
- ADJ-CONF-5: a player confirms a head once (a confirmation entered again is a replay);
- ADJ-CONF-6: a player confirms with one key: the key of the player's earlier confirmations in
  the match, never another player's, and, where the store registers players' keys, the player's
  registered key (checked where the keys are: ``adjudicator.authority``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.engine.protocol import JUDGE, Action, Violation

RULE_PLAYER = "ADJ-CONF-1"
RULE_HEAD_SEQ = "ADJ-CONF-2"
RULE_HEAD_HASH = "ADJ-CONF-3"
RULE_SIGNATURE = "ADJ-CONF-4"
RULE_REPLAY = "ADJ-CONF-5"
RULE_KEY = "ADJ-CONF-6"

TYPE = "confirm"
DOMAIN = "adjudicator-confirm/1"


class Confirm(Action, tag="confirm"):
    """``by`` (a player) confirms the head ``head_seq`` whose hash is ``head``."""

    head_seq: int
    head: str
    public_key: str
    signature: str


def message(player: str, head: str) -> bytes:
    """The bytes a confirmation signs."""
    return f"{DOMAIN}\n{player}\n{head}\n".encode("utf-8")


def _raw(text: str, size: int) -> bytes | None:
    import base64  # here, not at the top: only a signed confirmation needs it
    import binascii

    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def verifies(public_key: str, signature: str, data: bytes) -> bool:
    """Whether ``signature`` (base64) is ``public_key``'s (base64) Ed25519 signature of ``data``."""
    key, sig = _raw(public_key, 32), _raw(signature, 64)
    if key is None or sig is None:
        return False
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def check(event: Confirm, players: Sequence[str], head_seq: int, head_hash: str | None,
          confirmations: Sequence[tuple[int, Confirm]]) -> None:
    """Check a confirmation against the match: its players, its head (``head_seq``, the last event
    that is not a confirmation, and that event's hash, None when it is not known here) and the
    confirmations so far. Raises ``Violation`` under the ADJ-CONF rules."""
    who = event.by
    if who == JUDGE or who not in players:
        what = "the judge" if who == JUDGE else repr(who)
        raise Violation(RULE_PLAYER, f"only a player of this match ({', '.join(players)}) confirms its head; {what} tried")
    if event.head_seq != head_seq:
        raise Violation(RULE_HEAD_SEQ, f"a confirmation is of the head as it stands, seq {head_seq}, not seq {event.head_seq}")
    if head_hash is None:
        raise Violation(RULE_HEAD_HASH, f"the hash of the head (seq {head_seq}) is not known here: the confirmation cannot be checked")
    if event.head != head_hash:
        raise Violation(RULE_HEAD_HASH, f"the confirmation signs the hash {event.head[:16]}..., not the hash of the head at "
                                        f"seq {head_seq} ({head_hash[:16]}...)")
    if not verifies(event.public_key, event.signature, message(who, event.head)):
        raise Violation(RULE_SIGNATURE, f"the signature does not verify with the key given: it is not {who}'s signature "
                                        f"over the head at seq {head_seq}")
    for seq, earlier in confirmations:
        if earlier.by == who and earlier.head == event.head:
            raise Violation(RULE_REPLAY, f"{who} already confirmed the head at seq {head_seq} (seq {seq})")
    for seq, earlier in confirmations:
        if earlier.by == who and earlier.public_key != event.public_key:
            raise Violation(RULE_KEY, f"{who} confirmed with another key before (seq {seq}); a player confirms with one key")
        if earlier.by != who and earlier.public_key == event.public_key:
            raise Violation(RULE_KEY, f"this key is {earlier.by}'s (confirmation at seq {seq}), not {who}'s")


def both_signed(confirmations: Sequence[tuple[int, Confirm]], players: Sequence[str]) -> tuple[int, str, list[int]] | None:
    """The last head every player confirmed: ``(head seq, head hash, the seqs of the
    confirmations)``, or None."""
    by_head: dict[tuple[int, str], dict[str, int]] = {}
    for seq, c in confirmations:
        by_head.setdefault((c.head_seq, c.head), {}).setdefault(c.by, seq)
    best = None
    for (head_seq, head), who in by_head.items():
        if players and all(p in who for p in players) and (best is None or head_seq > best[0]):
            best = (head_seq, head, sorted(who.values()))
    return best


def point_at(game: Any, states: Any, seq: int) -> str:
    """The confirmation point of the event at ``seq`` (``Game.confirmation_point`` from the state
    after the event before it to the state after it), read from ``states`` (``Fold.history`` of a
    fold of the whole log); "" when the event is none (the first event, or a state not there)."""
    if seq < 2 or seq not in states or seq - 1 not in states:
        return ""
    return game.confirmation_point(states[seq - 1], states[seq])


def point(fold: Any, game: Any) -> str | None:
    """The confirmation point of the fold's confirmable head, as a fold of the whole log says it
    (``point_at``); None when this fold cannot tell: resumed after the event before the head,
    unless the head is the event it was resumed at and the snapshot carried the answer
    (``Fold.base_point``)."""
    head = fold.confirmable_head()
    states = fold.history
    if head >= 2 and head in states and head - 1 in states:
        return game.confirmation_point(states[head - 1], states[head])
    if fold.resumed_at == 0:
        return ""
    return fold.base_point if head == fold.resumed_at else None


def offers(fold: Any, game: Any) -> list[tuple[str, str]] | None:
    """``(player, why)`` for each player who may naturally confirm the head now: the last event
    that is not a confirmation ended a turn, a set, a game or the match (``Game.confirmation_point``
    says so, in the game's words), and the player has not confirmed that head yet. ``[]`` when it
    is no such moment; None when the fold cannot tell (resumed from a snapshot after the event
    before the head, which did not carry the answer: fold from an earlier one)."""
    why = point(fold, game)
    if why is None:
        return None
    if not why:
        return []
    head = fold.confirmable_head()
    # a confirmation of ``head`` comes after it: a fold resumed at or before ``head`` holds them all,
    # so only a snapshot taken among them needs the whole log
    if not fold.confirmations_known and head < fold.resumed_at:
        return None
    done = {c.by for _, c in fold.confirmations if c.head_seq == head}
    return [(p, why) for p in fold.players if p not in done]
