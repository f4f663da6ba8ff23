"""The one place that decides what a credential may do (docs/serve.md, "Identity").

- No credential: a spectator. It reads what a spectator may see and enters nothing.
- A seat's token: that player, in that match only. It enters that player's actions (``by`` is the
  player; which of them the game accepts is the game's ``step``, as at the table) and reads what
  that player may see; in another match it is a spectator, and it enters nothing there.
- A judge's token: a judge, everywhere. It enters anything (``by`` defaults to ``judge``), creates
  matches, and issues and revokes seats' tokens; a judge's decision is signed with that judge's
  registered key, which the server holds (``Judge.key``).

A token is 32 random bytes (URL-safe base64). Only its SHA-256 is kept (seats' in the store's
``serve_tokens`` table, judges' in the server's memory), and a presented token is compared by its
hash with ``hmac.compare_digest``. The table is looked up by that hash: the time of an index look-up
can tell only about the hash, and finding a token from its hash is finding a SHA-256 preimage.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any, NamedTuple

from adjudicator.authority.judges import is_judge_decision
from server.errors import forbidden, unauthorized
from server.tokens import TokenTable

JUDGE = "judge"
#: The viewer a spectator sees as: no player (``adjudicator.presentation.render.PUBLIC``).
SPECTATOR = ""


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Judge(NamedTuple):
    """A judge the server knows: a name, the hash of the judge's token, and the judge's private
    key (``events.signing.SigningKey``) when judges' decisions are to be signed."""

    name: str
    token_hash: str
    key: Any = None


class Identity(NamedTuple):
    role: str  # "judge", "seat" or "spectator"
    match_id: str | None = None  # a seat's match
    seat: str | None = None  # a seat's player
    judge: Judge | None = None

    def viewer(self, match_id: str) -> str | None:
        """Who the caller sees ``match_id`` as: None (the judge: everything), its seat's player,
        or a spectator."""
        if self.role == "judge":
            return None
        if self.role == "seat" and self.match_id == match_id:
            return self.seat
        return SPECTATOR

    def as_for(self, match_id: str) -> str | None:
        """``as`` in an answer about ``match_id``, as ``--as`` gives it (None for the judge)."""
        return self.viewer(match_id)


SPECTATING = Identity("spectator")


class Credentials:
    """The judges of this server and the seats' tokens of the store."""

    def __init__(self, judges: Sequence[Judge], tokens: TokenTable):
        self.judges = tuple(judges)
        self.tokens = tokens

    def identify(self, authorization: str | None) -> Identity:
        """The caller of a request with this ``Authorization`` header (blocking: may read the table)."""
        if authorization is None or not authorization.strip():
            return SPECTATING
        scheme, _, token = authorization.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise unauthorized("a credential is sent as 'Authorization: Bearer TOKEN'")
        if len(token) > 200:
            raise unauthorized("this token is not known here")
        h = token_hash(token)
        found = None
        for j in self.judges:  # every one compared: the time does not tell which matched
            if hmac.compare_digest(h, j.token_hash):
                found = j
        if found is not None:
            return Identity("judge", judge=found)
        held = self.tokens.find(h)
        if held is None or not hmac.compare_digest(held.token_hash, h):
            raise unauthorized("this token is not known here")
        if held.revoked:
            raise unauthorized("this token was revoked by a judge; ask the judge for the seat's new one")
        return Identity("seat", match_id=held.match_id, seat=held.seat)

    def issue(self, match_id: str, seat: str, at: str) -> str:
        """A new token for the seat (blocking); the seat's earlier tokens stay valid until revoked."""
        token = new_token()
        self.tokens.add(token_hash(token), match_id, seat, at)
        return token

    def revoke(self, match_id: str, seat: str, at: str) -> int:
        return self.tokens.revoke(match_id, seat, at)


def judge_only(who: Identity, what: str) -> Judge:
    """The judge, or 401 (no credential) / 403 (a seat's) for ``what``."""
    if who.role == "judge":
        return who.judge  # type: ignore[return-value]
    if who.role == "spectator":
        raise unauthorized(f"{what} needs a judge's token")
    raise forbidden(f"{what} needs a judge's token, not a seat's")


def entering(who: Identity, match_id: str, type_: Any, by: Any) -> str:
    """Who an entry of ``type_`` into ``match_id`` is by, for this caller (``by`` as asked, or
    None); 401 or 403 when the caller may not enter it. Nothing is read or written before this."""
    if who.role == "judge":
        return JUDGE if by is None else by
    if who.role == "spectator":
        raise unauthorized("entering an action needs a seat's or a judge's token")
    if who.match_id != match_id:
        raise forbidden(f"this token is for a seat in match {who.match_id!r}, not in {match_id!r}", match_id)
    if by == JUDGE or (isinstance(type_, str) and is_judge_decision(type_, who.seat or "")):
        what = f"{type_!r} by judge" if by == JUDGE else repr(type_)
        raise forbidden(f"{what} is a judge's decision: it needs a judge's token", match_id)
    if by is not None and by != who.seat:
        raise forbidden(f"this token enters {who.seat}'s actions only, not {by}'s", match_id)
    return who.seat  # type: ignore[return-value]
