"""Copy matches between stores with their hashes intact (``adj store copy``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from events.chain import verify_chain
from events.envelope import Rejection, StoredEvent
from events.store import Store, UnknownMatch

#: Told a match's events and rejected attempts before any of it is written; raises to refuse it.
Admit = Callable[[Sequence[StoredEvent], Sequence[Rejection]], None]


def copy_matches(src: Store, dst: Store, match_ids: Iterable[str] | None = None, admit: Admit | None = None) -> list[str]:
    """Copy each match (all of them by default) from ``src`` to ``dst``, event for event.

    Every chain is verified before it is written (``IntegrityError``); a match that ``src``
    does not hold raises ``UnknownMatch``; a match already present in ``dst`` raises
    ``ConflictError``; ``admit`` (the target's own conditions, such as its registered keys) may
    refuse a match with its own error. In each case nothing of that match is written; matches
    copied before it stay copied. The rejected attempts recorded beside each log are copied
    after its events. Returns the ids copied.
    """
    ids = list(match_ids) if match_ids is not None else [m.match_id for m in src.matches()]
    done = []
    for mid in ids:
        events = src.read(mid)
        if not events:
            raise UnknownMatch(mid)
        verify_chain(events, mid)
        rejections = src.rejections(mid)
        if admit is not None:
            admit(events, rejections)
        dst.append_stored(events, 0)
        for r in rejections:
            dst.record_rejection(r)
        done.append(mid)
    return done
