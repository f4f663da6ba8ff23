"""Who entered it, provably: judges' keys registered in the store, and their signatures.

When a store has at least one registered judge, every judge's decision appended to it must carry
an Ed25519 signature over the event's hash, made with a registered judge's key: ``SignedStore``
wraps the store the match service writes through, signs such events before they are appended
(the signature is written first, beside the log, keyed by the hash) and refuses them without a
key. A store without registered judges works as before. ``check_signatures`` is the audit side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from events.checkpoint import KeyRecord, Signature
from events.envelope import Draft, Rejection, StoredEvent, seal
from events.store import MatchInfo, Store, StoreError

JUDGE = "judge"

#: Event types that are a judge's decision whoever enters them (beside every event ``by`` judge).
JUDGE_DECISIONS = frozenset({"rewind", "correct", "judge_note", "penalty", "judge_adjust", "declare_result", "result"})

ROLES = ("judge", "player")


class SignatureRequired(StoreError):
    """A judge's decision without a registered judge's signature. Nothing was written."""


def is_judge_decision(type_: str, by: str) -> bool:
    return by == JUDGE or type_ in JUDGE_DECISIONS


def register_key(store: Store, role: str, name: str, public_key: str, by: str, recorded_at: str) -> KeyRecord:
    """Record ``name``'s public key (base64) for ``role`` in the store."""
    if role not in ROLES:
        raise ValueError(f"a key is registered for a judge or a player, not {role!r}")
    if not name or any(c.isspace() for c in name) or len(name) > 64:
        raise ValueError(f"a name is 1 to 64 characters without spaces, not {name!r}")
    for k in store.audit_keys():  # type: ignore[attr-defined]
        if k.public_key == public_key:
            raise StoreError(f"this key is already registered to {k.role} {k.name!r}")
    return store.audit_add_key(role, name, public_key, by, recorded_at)  # type: ignore[attr-defined]


class SignedStore(Store):
    """The store as the match service sees it when judges may be registered: judge decisions are
    signed with ``key()`` (a ``events.signing.SigningKey``, or None when none was given)."""

    def __init__(self, inner: Store, key: Callable[[], Any]):
        self.inner = inner
        self.url = inner.url
        self._key = key

    def __getattr__(self, name: str) -> Any:  # the audit_* methods and whatever else a backend offers
        return getattr(self.inner, name)

    def _signer(self, what: str) -> tuple[Any, str] | None:
        """(key, judge name) when judges are registered; None when the store has none."""
        judges = [k for k in self.inner.audit_keys() if k.role == JUDGE]  # type: ignore[attr-defined]
        if not judges:
            return None
        key = self._key()
        if key is None:
            raise SignatureRequired(
                f"this store has registered judges, so {what} must be signed by one of them: give the judge's key "
                "with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)"
            )
        for k in judges:
            if k.public_key == key.public_key:
                return key, k.name
        raise SignatureRequired(
            f"the key {key.path!r} is not a registered judge's (judges: {', '.join(k.name for k in judges)}); "
            "nothing was written"
        )

    def _sign(self, events: Sequence[StoredEvent], signer: tuple[Any, str]) -> None:
        key, name = signer
        for ev in events:
            if is_judge_decision(ev.type, ev.by):
                self.inner.audit_put_signature(  # type: ignore[attr-defined]
                    Signature(hash=ev.hash, match_id=ev.match_id, seq=ev.seq, role=JUDGE, signer=name,
                              public_key=key.public_key, value=key.sign(ev.hash.encode("ascii")))
                )

    def _decision_signer(self, items: Sequence[Any], match_id: str) -> tuple[Any, str] | None:
        first = next((x for x in items if is_judge_decision(x.type, x.by)), None)
        if first is None:
            return None
        return self._signer(f"{first.type!r} by {first.by} in {match_id}")

    def append(self, match_id: str, drafts: Sequence[Draft], expected_seq: int, *,
               idempotency_key: str | None = None) -> tuple[StoredEvent, ...]:
        done = self.inner.events_for_key(match_id, idempotency_key) if idempotency_key else ()
        signer = None if done else self._decision_signer(drafts, match_id)
        if signer is not None:
            # the hashes the store will give these drafts: it seals them exactly so
            head = self.inner.read(match_id, expected_seq, expected_seq) if expected_seq else []
            prev = head[-1].hash if head else ""  # no head there: the append below is a conflict
            sealed = []
            for i, draft in enumerate(drafts):
                sealed.append(seal(match_id, expected_seq + 1 + i, prev, draft))
                prev = sealed[-1].hash
            self._sign(sealed, signer)
        return self.inner.append(match_id, drafts, expected_seq, idempotency_key=idempotency_key)

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        signer = self._decision_signer(events, events[0].match_id) if events else None
        if signer is not None:  # an imported judge's decision is vouched for by the judge who imports it
            self._sign(events, signer)
        self.inner.append_stored(events, expected_seq)

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        return self.inner.events_for_key(match_id, idempotency_key)

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        return self.inner.read(match_id, from_seq, to_seq)

    def head(self, match_id: str) -> int:
        return self.inner.head(match_id)

    def matches(self) -> list[MatchInfo]:
        return self.inner.matches()

    def record_rejection(self, rejection: Rejection) -> None:
        self.inner.record_rejection(rejection)

    def rejections(self, match_id: str) -> list[Rejection]:
        return self.inner.rejections(match_id)

    def close(self) -> None:
        self.inner.close()


def check_signatures(events: dict[tuple[str, int], StoredEvent], sigs: dict[str, Signature],
                     keys: list[KeyRecord], report: Any) -> None:
    """Every signature beside an event verifies with a key registered to its signer; every judge's
    decision recorded once a judge was registered is signed. Fills ``report.decisions`` and
    ``report.problems``."""
    from events.signing import verify_signature

    registered = {(k.role, k.name): k for k in keys}
    judges_since = min((k.recorded_at for k in keys if k.role == JUDGE), default=None)
    for (match_id, seq), ev in sorted(events.items()):
        sig = sigs.get(ev.hash)
        where = f"{match_id} seq {seq} ({ev.type} by {ev.by})"
        if sig is None:
            if judges_since is not None and is_judge_decision(ev.type, ev.by) and ev.recorded_at >= judges_since:
                report.problems.append(f"{where}: a judge's decision without a judge's signature")
            continue
        k = registered.get((sig.role, sig.signer))
        if k is None or k.public_key != sig.public_key:
            report.problems.append(f"{where}: signed with a key that is not registered to {sig.role} {sig.signer!r}")
        elif not verify_signature(sig.public_key, sig.value, ev.hash.encode("ascii")):
            report.problems.append(f"{where}: the signature of {sig.role} {sig.signer!r} does not verify")
        else:
            report.decisions.append({"match_id": match_id, "seq": seq, "type": ev.type, "by": ev.by,
                                     "role": sig.role, "signer": sig.signer})
