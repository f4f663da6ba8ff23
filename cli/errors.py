"""Domain errors mapped to click exceptions with the exit codes of design.md.

0 done; 1 an action was refused by a rule, or another entry landed first (check again and
re-enter); 2 bad usage, malformed input, a match id that is taken, or a store that cannot be
used as asked (unknown kind, read-only): nothing written; 3 integrity failure. docs/cli.md says
which failure gets which code. The message goes to stderr; with
``--json`` a JSON object describing the failure goes to stdout as well, so a script always has
one object to read.
"""

from __future__ import annotations

from typing import Any

import click


def dumps(obj: Any) -> str:
    """Compact JSON of plain data, msgspec Structs and tuples included."""
    import msgspec

    return msgspec.json.encode(obj).decode()


class AdjError(click.ClickException):
    exit_code = 2

    def __init__(self, message: str, payload: dict[str, Any] | None = None):
        super().__init__(message)
        self.payload = payload
        self.as_json = False

    def show(self, file: Any = None) -> None:
        if self.as_json and self.payload is not None:
            click.echo(dumps(self.payload))
        click.echo(self.format_message(), err=True)


class Rejected(AdjError):
    """An action was refused by a rule: ``RULE-ID: message``."""

    exit_code = 1


class Conflict(AdjError):
    """Another entry landed first; nothing was written."""

    exit_code = 1


class BadInput(AdjError):
    """Bad usage or malformed input; nothing was written."""

    exit_code = 2

    def format_message(self) -> str:
        return f"error: {self.message}"


class Unsupported(BadInput):
    """The game does not offer what was asked (an explanation, say)."""

    def __init__(self, message: str):
        super().__init__(message, {"error": "unsupported", "message": message})


class IntegrityFailure(AdjError):
    """A hash, a link, a sequence or a re-adjudicated verdict does not verify."""

    exit_code = 3


def translate(exc: BaseException) -> AdjError | None:
    """The ``AdjError`` for a domain exception, or None for anything else (a bug: let it show)."""
    if isinstance(exc, AdjError):
        return exc
    if isinstance(exc, click.UsageError):  # raised by a command's body, after parsing
        return BadInput(exc.format_message(), {"error": "usage", "message": exc.format_message()})
    from adjudicator.engine.protocol import Malformed, Violation
    from adjudicator.presentation.render import refusal_json
    from adjudicator.service import ConflictError, IntegrityError, LineRefused, StoreError, UnknownMatch

    if isinstance(exc, LineRefused):
        v = exc.verdict
        return Rejected(f"{exc.rule_id}: {exc.message}",
                        refusal_json(None, v.head_seq, v.type, v.by, v.rule or "", v.code, v.message or "", v.line))
    if isinstance(exc, Violation):
        return Rejected(f"{exc.rule_id}: {exc.message}", refusal_json(None, None, None, None, exc.rule_id, exc.code, exc.message))
    if isinstance(exc, ConflictError):
        if exc.expected_seq == 0:  # the id is taken: a usage error (choose another), not a refusal
            text = f"{exc}; nothing was written"
            return BadInput(text, {"error": "exists", "match_id": exc.match_id, "head_seq": exc.actual_seq,
                                   "written": False, "message": text})
        else:
            text = (
                f"another entry landed first: match {exc.match_id!r} is now at seq {exc.actual_seq}, "
                f"not {exc.expected_seq}. Nothing was written: check the state again "
                f"(adj state {exc.match_id}) and re-enter the action if it still applies."
            )
        return Conflict(
            text,
            {
                "error": "conflict",
                "written": False,
                "match_id": exc.match_id,
                "expected_seq": exc.expected_seq,
                "head_seq": exc.actual_seq,
                "message": text,
            },
        )
    if isinstance(exc, Malformed):
        where = f" (at {exc.path})" if exc.path and exc.path != "$" and exc.path not in exc.message else ""
        return BadInput(f"{exc.message}{where}", {"error": "malformed", "message": exc.message, "path": exc.path})
    if isinstance(exc, UnknownMatch):
        return BadInput(
            f"{exc}; `adj matches` lists the matches",
            {"error": "unknown_match", "match_id": exc.match_id, "message": str(exc)},
        )
    if isinstance(exc, IntegrityError):
        return IntegrityFailure(
            str(exc), {"error": "integrity", "match_id": exc.match_id, "seq": exc.seq, "message": exc.detail}
        )
    if isinstance(exc, StoreError):
        return BadInput(str(exc), {"error": "store", "message": str(exc)})
    if isinstance(exc, (OSError, UnicodeDecodeError)):
        return BadInput(str(exc), {"error": "input", "message": str(exc)})
    if isinstance(exc, ImportError):
        return BadInput(f"a game module cannot be loaded: {exc}", {"error": "game_unavailable", "message": str(exc)})
    return None
