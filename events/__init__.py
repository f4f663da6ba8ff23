"""Game-agnostic event log: the envelope, canonical encoding, hash chain and stores.

Nothing in this package knows any game: an event's own fields are an opaque mapping here.
"""

from events.envelope import (
    ENVELOPE_KEYS,
    Draft,
    Rejection,
    StoredEvent,
    canonical,
    chain_hash,
    from_line,
    to_line,
)
from events.chain import IntegrityError, verify_chain
from events.factory import open_store, store_location
from events.store import ConflictError, MatchInfo, Store, StoreError, UnknownMatch

__all__ = [
    "ENVELOPE_KEYS",
    "ConflictError",
    "Draft",
    "IntegrityError",
    "MatchInfo",
    "Rejection",
    "Store",
    "StoreError",
    "StoredEvent",
    "UnknownMatch",
    "canonical",
    "chain_hash",
    "from_line",
    "open_store",
    "store_location",
    "to_line",
    "verify_chain",
]
