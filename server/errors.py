"""Failures as HTTP answers: each kind its own status, one JSON shape (docs/serve.md, "Errors").

| status | ``error`` | when |
|---|---|---|
| 400 | ``malformed``, ``usage``, ``input`` | not JSON, a key given twice, a wrong type, beyond the input limits (``path`` says where) |
| 401 | ``unauthorized`` | no credential where one is needed, or a token that is unknown or revoked |
| 403 | ``forbidden`` | a credential that may not do this: another seat's or match's action, a judge's with a seat's token |
| 404 | ``unknown_match``, ``not_found`` | no such match, or no such route |
| 409 | ``conflict``, ``exists`` | another entry landed first, a stale ``expect_seq``, a match id that is taken |
| 413 | ``too_large`` | a body beyond the size cap, refused before it is read |
| 422 | ``rejected`` | refused by a rule: the refusal of ``adj act --json`` |
| 500 | ``integrity`` | the stored log does not verify |
| 503 | ``store`` | the store cannot be used now |

The messages are the command line's (``cli/errors.py``), without its advice to run a command.
"""

from __future__ import annotations

from typing import Any

from server.schema import Error, Refusal


class ApiError(Exception):
    """A failure with its status and body."""

    def __init__(self, status: int, body: Error | Refusal, headers: dict[str, str] | None = None):
        super().__init__(body.message)
        self.status = status
        self.body = body
        self.headers = headers or {}


def unauthorized(message: str) -> ApiError:
    return ApiError(401, Error(error="unauthorized", message=message), {"WWW-Authenticate": 'Bearer realm="adj"'})


def forbidden(message: str, match_id: str | None = None) -> ApiError:
    return ApiError(403, Error(error="forbidden", message=message, match_id=match_id))


def malformed(message: str, path: str | None = "$") -> ApiError:
    return ApiError(400, Error(error="malformed", message=message, path=path))


def not_found(message: str) -> ApiError:
    return ApiError(404, Error(error="not_found", message=message))


def too_large(limit: int) -> ApiError:
    return ApiError(413, Error(error="too_large", message=f"the body is larger than {limit:,} bytes; nothing was read"))


def refusal(match_id: str | None, head_seq: int | None, type_: str | None, by: str | None, rule: str,
            code: str | None, message: str) -> ApiError:
    return ApiError(422, Refusal(match_id=match_id, head_seq=head_seq, type=type_, by=by, rule=rule, code=code,
                                 message=message))


def from_exception(exc: BaseException) -> ApiError | None:
    """The answer for a domain exception, or None for anything else (a bug: a 500 that says so)."""
    if isinstance(exc, ApiError):
        return exc
    from adjudicator.authority.judges import SignatureRequired
    from adjudicator.engine.protocol import Malformed, Violation
    from adjudicator.service import ConflictError, IntegrityError, StoreError, UnknownMatch

    if isinstance(exc, Violation):
        return refusal(None, None, None, None, exc.rule_id, exc.code, exc.message)
    if isinstance(exc, ConflictError):
        if exc.expected_seq == 0:
            return ApiError(409, Error(error="exists", message=f"{exc}; nothing was written", match_id=exc.match_id,
                                       head_seq=exc.actual_seq))
        text = (f"another entry landed first: match {exc.match_id!r} is now at seq {exc.actual_seq}, not "
                f"{exc.expected_seq}. Nothing was written: look at the state again and re-enter the action "
                "if it still applies.")
        return ApiError(409, Error(error="conflict", message=text, match_id=exc.match_id, head_seq=exc.actual_seq,
                                   expected_seq=exc.expected_seq))
    if isinstance(exc, Malformed):
        return malformed(exc.message, exc.path)
    if isinstance(exc, UnknownMatch):
        return ApiError(404, Error(error="unknown_match", message=str(exc), match_id=exc.match_id))
    if isinstance(exc, IntegrityError):
        return ApiError(500, Error(error="integrity", message=str(exc), match_id=exc.match_id, seq=exc.seq))
    if isinstance(exc, SignatureRequired):  # the server holds no registered key for this judge
        return forbidden(str(exc))
    if isinstance(exc, StoreError):
        return ApiError(503, Error(error="store", message=str(exc)))
    if isinstance(exc, ImportError):
        return ApiError(503, Error(error="game_unavailable", message=f"a game module cannot be loaded: {exc}"))
    return None


def body_of(err: ApiError) -> dict[str, Any]:
    import msgspec

    return msgspec.to_builtins(err.body)
