"""A player confirms the match's head with their own key (``adj confirm``), and where the store
registers players' keys (``adj players add``), a confirmation is held to the player's registered
key: when it is entered (``SignedStore``), and by ``adj verify``.

The confirmation itself, its message and the checks every record makes of it are in
``adjudicator.engine.confirming``; this module holds what needs a key or the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.engine import confirming
from adjudicator.engine.protocol import Violation
from events.checkpoint import KeyRecord

PLAYER = "player"


def registered_key(keys: Sequence[KeyRecord], player: str, at: str | None = None) -> KeyRecord | None:
    """The key registered to ``player`` (by ``at``, when given), if any."""
    for k in keys:
        if k.role == PLAYER and k.name == player and (at is None or k.recorded_at <= at):
            return k
    return None


def check_registered(keys: Sequence[KeyRecord], player: str, fields: Mapping[str, Any], at: str | None = None) -> None:
    """A confirmation by ``player`` (its ``fields``) is signed with the player's registered key,
    where one is registered: ``Violation`` under ADJ-CONF-6 otherwise."""
    own = registered_key(keys, player, at)
    if own is not None and fields.get("public_key") != own.public_key:
        raise Violation(confirming.RULE_KEY, f"{player}'s registered key is not the key this confirmation is signed with; "
                                             f"{player} confirms with their own key (--player-key FILE)")


def confirmation_fields(player: str, head_seq: int, head: str, key: Any) -> dict[str, Any]:
    """The fields of ``player``'s confirmation of the head ``head_seq`` (hash ``head``), signed with
    ``key`` (``events.signing.SigningKey``)."""
    return {"head_seq": head_seq, "head": head, "public_key": key.public_key,
            "signature": key.sign(confirming.message(player, head))}


def confirm(service: Any, match_id: str, player: str, key: Any) -> Any:
    """Enter ``player``'s confirmation of ``match_id``'s head as it stands, signed with ``key``;
    the service's ``Verdict`` (refused: nothing is written)."""
    match = service.load(match_id)  # whole: the confirmations so far, and the head's hash
    head_seq = match.fold.confirmable_head()
    head = match.events[head_seq - 1].hash
    keys = service.store.audit_keys() if hasattr(service.store, "audit_keys") else []
    fields = confirmation_fields(player, head_seq, head, key)
    check_registered(keys, player, fields)
    return service.submit(match_id, confirming.TYPE, player, fields)
