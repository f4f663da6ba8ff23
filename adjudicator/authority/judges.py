"""Who entered it, provably: judges' keys registered in the store, and their signatures.

When a store has at least one registered judge, every judge's decision appended to it must carry
an Ed25519 signature over the event's hash, made with a registered judge's key: ``SignedStore``
wraps the store the match service writes through, signs such events before they are appended
(the signature is written first, beside the log, keyed by the hash) and refuses them without a
key. A store without registered judges works as before. ``check_signatures`` is the audit side.

A store may also require keys for every seat (``require_keys``, ``adj store policy``): from then
on a match enters it only when every one of its players has a registered key (so that each
player's actions are signed by that player), and every judge's decision needs a registered judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from events.checkpoint import Checkpoint, KeyRecord, Leaf, Signature
from events.ledger import Ledger
from events.envelope import Draft, Rejection, StoredEvent, seal
from events.store import Appending, MatchInfo, Store, StoreError

JUDGE = "judge"
PLAYER = "player"
CONFIRM = "confirm"  # a player's confirmation of the head (adjudicator/engine/confirming.py)

#: Event types that are a judge's decision whoever enters them (beside every event ``by`` judge).
JUDGE_DECISIONS = frozenset({
    "rewind", "correct",  # every game (adjudicator/engine/protocol.py)
    "note", "penalty",  # a judge's note and a penalty (adjudicator/engine/judging.py)
    "judge_adjust", "declare_result",  # DemonBrave's judge's adjustment and declared result
})

ROLES = ("judge", "player")

#: The store's policy is kept as a record beside the keys (role ``policy``, no public key), so that
#: it is a leaf of the audit tree like them: recorded once, and its removal shows.
POLICY = "policy"
REQUIRE_KEYS = "require-keys"


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


def keys_required(keys: Sequence[KeyRecord]) -> KeyRecord | None:
    """The record of the store's requiring keys for every seat, or None when it does not."""
    return next((k for k in keys if k.role == POLICY and k.name == REQUIRE_KEYS), None)


def require_keys(store: Store, by: str, recorded_at: str) -> KeyRecord:
    """From now on, require keys for every seat of every match entering the store; the record made
    (``StoreError`` when it already does). It is never lifted."""
    return store.audit_add_key(POLICY, REQUIRE_KEYS, "", by, recorded_at)  # type: ignore[attr-defined]


def signed_players(players: Sequence[str], started_at: str, keys: Sequence[KeyRecord]) -> frozenset[str]:
    """The players whose actions in a match must be signed with their own keys: all of them when
    every player of the match had a registered key when it started, else none (today's rules)."""
    registered = {k.name for k in keys if k.role == PLAYER and k.recorded_at <= started_at}
    return frozenset(players) if players and all(p in registered for p in players) else frozenset()


def _players(started: Any) -> list[str]:
    players = started.fields.get("players")
    return [p for p in players if isinstance(p, str)] if isinstance(players, list) else []


class SignedStore(Ledger, Store):
    """The store as the match service writes through it. With registered judges, a judge's decision
    is signed with ``judge_key()``; in a match whose players all had registered keys when it
    started, a player's action is signed with ``player_key()``, which must be that player's. Each
    returns an ``events.signing.SigningKey`` or None when none was given."""

    def __init__(self, inner: Store, judge_key: Callable[[], Any], player_key: Callable[[], Any] = lambda: None):
        self.inner = inner
        self.url = inner.url
        self._judge_key = judge_key
        self._player_key = player_key


    def _plan(self, match_id: str, items: Sequence[Any], started: Any = None) -> list[tuple[Any, str, str] | None]:
        """For each draft, event or rejected attempt (``type`` and ``by``): (key, role, registered
        name) to sign it with, or None; ``SignatureRequired`` when one is needed and not given.
        ``started``: the match's ``match_started`` (draft or event), when it is not stored yet."""
        plan: list[tuple[Any, str, str] | None] = [None] * len(items)
        keys = self.inner.audit_keys()  # type: ignore[attr-defined]
        if not keys:
            return plan
        required = keys_required(keys) is not None
        players: frozenset[str] = frozenset()
        if required and started is not None:  # the match enters now: every seat has a key, and signs
            players = frozenset(_players(started))
            keyless = [p for p in _players(started) if not any(k.role == PLAYER and k.name == p for k in keys)]
            if keyless:
                raise SignatureRequired(
                    f"this store requires keys for every seat, and {', '.join(keyless)} "
                    f"{'has' if len(keyless) == 1 else 'have'} no registered key: register "
                    f"{'it' if len(keyless) == 1 else 'them'} (adj players add NAME --pubkey FILE) before {match_id} "
                    "enters it; nothing was written"
                )
        elif any(k.role == PLAYER for k in keys):
            if started is None:
                started = (self.inner.read(match_id, 1, 1) or [None])[0]
            if started is not None:
                players = signed_players(_players(started), started.recorded_at, keys)
        for i, x in enumerate(items):
            if x.type == CONFIRM:  # a confirmation is signed with the player's registered key, where there is one
                from adjudicator.authority.confirm import check_registered

                check_registered(keys, x.by, x.fields, x.recorded_at)
            if is_judge_decision(x.type, x.by):
                plan[i] = self._judge(keys, f"{x.type!r} by {x.by} in {match_id}", required)
            elif x.by in players:
                plan[i] = self._player(keys, x.by, match_id)
        return plan

    def _judge(self, keys: Sequence[KeyRecord], what: str, required: bool = False) -> tuple[Any, str, str] | None:
        judges = [k for k in keys if k.role == JUDGE]
        if not judges:
            if required:
                raise SignatureRequired(
                    f"this store requires keys for every seat, the judge's too, and no judge is registered: {what} "
                    "needs a registered judge's key (adj judges add NAME --pubkey FILE); nothing was written"
                )
            return None
        key = self._judge_key()
        if key is None:
            raise SignatureRequired(
                f"this store has registered judges, so {what} must be signed by one of them: give the judge's key "
                "with --judge-key FILE or ADJ_JUDGE_KEY (nothing was written)"
            )
        for k in judges:
            if k.public_key == key.public_key:
                return key, JUDGE, k.name
        raise SignatureRequired(
            f"the key {key.path!r} is not a registered judge's (judges: {', '.join(k.name for k in judges)}); "
            "nothing was written"
        )

    def _player(self, keys: Sequence[KeyRecord], player: str, match_id: str) -> tuple[Any, str, str]:
        key = self._player_key()
        own = next(k for k in keys if k.role == PLAYER and k.name == player)
        if key is None or key.public_key != own.public_key:
            given = "no player's key was given" if key is None else f"the key {key.path!r} is not {player}'s"
            raise SignatureRequired(
                f"in {match_id} every player's action is signed with that player's registered key, and {given}: "
                f"enter {player}'s actions at {player}'s terminal (--player-key FILE or ADJ_PLAYER_KEY); "
                "nothing was written"
            )
        return key, PLAYER, player

    def _sign(self, events: Sequence[StoredEvent], plan: Sequence[tuple[Any, str, str] | None]) -> None:
        for ev, signer in zip(events, plan):
            if signer is not None:
                key, role, name = signer
                self.inner.audit_put_signature(  # type: ignore[attr-defined]
                    Signature(hash=ev.hash, match_id=ev.match_id, seq=ev.seq, role=role, signer=name,
                              public_key=key.public_key, value=key.sign(ev.hash.encode("ascii")))
                )

    def append(self, match_id: str, drafts: Sequence[Draft], expected_seq: int, *,
               idempotency_key: str | None = None) -> tuple[StoredEvent, ...]:
        done = self.inner.events_for_key(match_id, idempotency_key) if idempotency_key else ()
        plan = self._plan(match_id, drafts, drafts[0] if expected_seq == 0 else None) if drafts and not done else []
        if any(plan):
            # the hashes the store will give these drafts: it seals them exactly so
            head = self.inner.read(match_id, expected_seq, expected_seq) if expected_seq else []
            prev = head[-1].hash if head else ""  # no head there: the append below is a conflict
            sealed = []
            for i, draft in enumerate(drafts):
                sealed.append(seal(match_id, expected_seq + 1 + i, prev, draft))
                prev = sealed[-1].hash
            self._sign(sealed, plan)
        return self.inner.append(match_id, drafts, expected_seq, idempotency_key=idempotency_key)

    def append_stored(self, events: Sequence[StoredEvent], expected_seq: int) -> None:
        if events:  # an imported judge's decision is vouched for by the judge who imports it
            self._sign(events, self._plan(events[0].match_id, events, _start(events)))
        self.inner.append_stored(events, expected_seq)

    def admit(self, events: Sequence[StoredEvent], rejections: Sequence[Rejection]) -> None:
        """Ask of a whole match (its events from seq 1, and its rejected attempts) what storing them
        here will ask, before anything of it is written: ``SignatureRequired`` unless every one of
        them could be entered into this store as it stands (``adj store copy``)."""
        if events:
            self._plan(events[0].match_id, [*events, *rejections], _start(events))

    def appending(self, match_id: str, expected_seq: int) -> AbstractContextManager[Appending]:
        """The inner store's own when no key is registered (nothing to sign); otherwise the events
        are held and stored by ``append_stored``, which signs them."""
        if not self.inner.audit_keys():  # type: ignore[attr-defined]
            return self.inner.appending(match_id, expected_seq)
        return super().appending(match_id, expected_seq)

    def events_for_key(self, match_id: str, idempotency_key: str) -> tuple[StoredEvent, ...]:
        return self.inner.events_for_key(match_id, idempotency_key)

    def read(self, match_id: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredEvent]:
        return self.inner.read(match_id, from_seq, to_seq)

    def head(self, match_id: str) -> int:
        return self.inner.head(match_id)

    def rewinds_after(self, match_id: str, seq: int) -> list[tuple[int, int]]:
        return self.inner.rewinds_after(match_id, seq)

    def save_snapshot(self, match_id: str, seq: int, data: bytes) -> None:
        self.inner.save_snapshot(match_id, seq, data)

    def snapshot(self, match_id: str) -> tuple[int, bytes] | None:
        return self.inner.snapshot(match_id)

    def snapshot_at(self, match_id: str, seq: int) -> tuple[int, bytes] | None:
        return self.inner.snapshot_at(match_id, seq)

    def snapshot_seqs(self, match_id: str) -> list[int]:
        return self.inner.snapshot_seqs(match_id)

    def matches(self) -> list[MatchInfo]:
        return self.inner.matches()

    def record_rejection(self, rejection: Rejection) -> None:
        """Record an attempt the rules refused, once its author is who it claims to be as an
        entry's would be: a claim to be a judge (or, in a match signed by its players, to be a
        player) that no key backs is ``SignatureRequired``, and nothing is recorded."""
        self._plan(rejection.match_id, [rejection])
        self.inner.record_rejection(rejection)

    def rejections(self, match_id: str) -> list[Rejection]:
        return self.inner.rejections(match_id)

    def close(self) -> None:
        self.inner.close()

    # -- the audit ledger, as the store keeps it (events.ledger.Ledger) -------------------------
    def audit_sequence(self) -> int:
        return self.inner.audit_sequence()  # type: ignore[attr-defined]

    def audit_leaves(self) -> list[Leaf]:
        return self.inner.audit_leaves()  # type: ignore[attr-defined]

    def audit_leaf_batches(self, size: int) -> Iterator[list[Leaf]]:
        return self.inner.audit_leaf_batches(size)  # type: ignore[attr-defined]

    def audit_event_leaves(self, match_id: str) -> list[Leaf]:
        return self.inner.audit_event_leaves(match_id)  # type: ignore[attr-defined]

    def audit_add_checkpoint(self, checkpoint: Checkpoint) -> None:
        self.inner.audit_add_checkpoint(checkpoint)  # type: ignore[attr-defined]

    def audit_checkpoints(self) -> list[Checkpoint]:
        return self.inner.audit_checkpoints()  # type: ignore[attr-defined]

    def audit_add_key(self, role: str, name: str, public_key: str, by: str, recorded_at: str) -> KeyRecord:
        return self.inner.audit_add_key(role, name, public_key, by, recorded_at)  # type: ignore[attr-defined]

    def audit_keys(self) -> list[KeyRecord]:
        return self.inner.audit_keys()  # type: ignore[attr-defined]

    def audit_put_signature(self, signature: Signature) -> None:
        self.inner.audit_put_signature(signature)  # type: ignore[attr-defined]

    def audit_signatures(self, match_id: str | None = None) -> dict[str, Signature]:
        return self.inner.audit_signatures(match_id)  # type: ignore[attr-defined]

    def audit_rejections(self) -> dict[tuple[str, int], Rejection]:
        return self.inner.audit_rejections()  # type: ignore[attr-defined]


def _start(events: Sequence[StoredEvent]) -> StoredEvent | None:
    """The match_started among ``events``, when they begin the match."""
    return events[0] if events[0].seq == 1 else None


def match_signing_modes(store: Store) -> dict[str, str]:
    """Match id -> "players" (its players sign their actions) or "judges" (signed judges'
    decisions only), for the matches that carry signatures or are to."""
    keys = store.audit_keys()  # type: ignore[attr-defined]
    out = {s.match_id: JUDGE + "s" for s in store.audit_signatures().values()}  # type: ignore[attr-defined]
    if any(k.role == PLAYER for k in keys):
        for info in store.matches():
            started = store.read(info.match_id, 1, 1)
            if started and signed_players(_players(started[0]), started[0].recorded_at, keys):
                out[info.match_id] = PLAYER + "s"
    return out


def _required(ev: StoredEvent, judges_since: str | None, players: frozenset[str]) -> tuple[str, str | None] | None:
    """The signature an event must carry: (role, signer or None for any judge), or None.
    ``judges_since``: when judges' decisions came to need a judge's signature."""
    if is_judge_decision(ev.type, ev.by):
        return (JUDGE, None) if judges_since is not None and ev.recorded_at >= judges_since else None
    return (PLAYER, ev.by) if ev.by in players else None


def check_signatures(events: dict[tuple[str, int], StoredEvent], sigs: dict[str, Signature],
                     keys: list[KeyRecord], report: Any) -> None:
    """Every signature beside an event verifies with a key registered to its signer; every judge's
    decision recorded once a judge was registered is signed by a judge, and every action of a
    player in a match signed by its players is signed by that player. Fills ``report.decisions``
    and ``report.problems``."""
    rules = SignatureRules(keys)
    checks: dict[str, MatchSignatures] = {}
    for (match_id, _), ev in sorted(events.items()):
        if match_id not in checks:
            checks[match_id] = rules.match(match_id)
        checks[match_id].event(ev, sigs.get(ev.hash))
    report_signatures([checks[m].result() for m in sorted(checks)], report)


#: What ``MatchSignatures`` found in one match: the problem of its start (a match started, when keys
#: were required, without every player's key), the problems of its events and its signed events.
SignaturesFound = tuple["str | None", list[str], list[dict[str, Any]]]


def report_signatures(found: Sequence[SignaturesFound], report: Any) -> None:
    """The problems and signed events of the matches (``found``, in match id order) into
    ``report``: the start of every match first, then every event in (match id, seq) order."""
    report.problems.extend(start for start, _, _ in found if start is not None)
    for _, problems, decisions in found:
        report.problems.extend(problems)
        report.decisions.extend(decisions)


class SignatureRules:
    """What ``check_signatures`` holds every event to, from the registered ``keys``: made once,
    then one ``MatchSignatures`` a match (it needs nothing of other matches)."""

    def __init__(self, keys: Sequence[KeyRecord]):
        self.keys = list(keys)
        self.registered = {(k.role, k.name): k for k in keys}
        self.policy = keys_required(keys)
        self.judges_since = min((k.recorded_at for k in keys if k.role == JUDGE or k is self.policy), default=None)

    def match(self, match_id: str) -> MatchSignatures:
        return MatchSignatures(self, match_id)


class MatchSignatures:
    """``check_signatures`` of one match, its events given one at a time in seq order (a long
    match in flat memory)."""

    def __init__(self, rules: SignatureRules, match_id: str):
        self.rules = rules
        self.match_id = match_id
        self.players: frozenset[str] = frozenset()
        self.start: str | None = None
        self.problems: list[str] = []
        self.decisions: list[dict[str, Any]] = []

    def event(self, ev: StoredEvent, sig: Signature | None) -> None:
        rules, keys, match_id, seq = self.rules, self.rules.keys, self.match_id, ev.seq
        if seq == 1:
            self.players = signed_players(_players(ev), ev.recorded_at, keys)
            policy = rules.policy
            if policy is not None and ev.recorded_at >= policy.recorded_at and not self.players:
                self.start = (f"{match_id}: started at {ev.recorded_at}, when the store required keys for every seat "
                              f"(since {policy.recorded_at}), but not every player had a registered key")
        where = f"{match_id} seq {seq} ({ev.type} by {ev.by})"
        if ev.type == CONFIRM:
            own = next((k for k in keys if k.role == PLAYER and k.name == ev.by and k.recorded_at <= ev.recorded_at), None)
            if own is not None and ev.fields.get("public_key") != own.public_key:
                self.problems.append(f"{where}: a confirmation signed with a key that is not {ev.by}'s registered key")
        need = _required(ev, rules.judges_since, self.players)
        if sig is None:
            if need is not None:
                whose = "a judge's decision without a judge's signature" if need[0] == JUDGE else \
                    f"an action of {ev.by} without {ev.by}'s signature"
                self.problems.append(f"{where}: {whose}")
            return
        from events.signing import verify_signature

        k = rules.registered.get((sig.role, sig.signer))
        if k is None or k.public_key != sig.public_key:
            self.problems.append(f"{where}: signed with a key that is not registered to {sig.role} {sig.signer!r}")
        elif not verify_signature(sig.public_key, sig.value, ev.hash.encode("ascii")):
            self.problems.append(f"{where}: the signature of {sig.role} {sig.signer!r} does not verify")
        elif need is not None and (sig.role != need[0] or need[1] not in (None, sig.signer)):
            self.problems.append(f"{where}: signed by {sig.role} {sig.signer!r}, not by "
                                 + ("a judge" if need[0] == JUDGE else f"{ev.by}"))
        else:
            self.decisions.append({"match_id": match_id, "seq": seq, "type": ev.type, "by": ev.by,
                                   "role": sig.role, "signer": sig.signer})

    def result(self) -> SignaturesFound:
        return self.start, self.problems, self.decisions
