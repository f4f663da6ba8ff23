"""Where input enters: JSON read from files and arguments, bounded, and the bounds on one event.

Every JSON value that comes in (a line of a match file, a ``FIELD=VALUE`` given as JSON, a
``--setup`` value, a deck list) goes through ``read_json``; every action submitted goes through
``check_event`` before it is decoded, whatever its source. Both raise ``Malformed`` naming the
place, never a ``RecursionError`` or a ``UnicodeEncodeError`` from deeper down.

The limits (docs/json.md, "Limits"): at most 32 levels of nesting; a line of a match file, or
one JSON value on the command line, at most 1,000,000 characters; a string (a reason, a name, a
card id, an object key) at most 1,000 characters; an event at most 64 fields; a list or an object
at most 10,000 items.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from adjudicator.engine.protocol import Malformed

#: nesting of lists and objects in one value (a match file's deepest line nests 8 levels)
MAX_DEPTH = 32
#: characters in one line of a match file, or in one JSON value given on the command line
MAX_LINE = 1_000_000
#: characters in one string: a reason, a name, a card id, a key
MAX_TEXT = 1_000
#: fields of one event, not counting its type and author
MAX_FIELDS = 64
#: items in one list or object
MAX_ITEMS = 10_000


_compact = msgspec.json.Encoder().encode
_canonical = msgspec.json.Encoder(order="sorted").encode

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


class NotJSON(Malformed):
    """The text is not JSON at all (as opposed to JSON beyond the limits)."""


class _Duplicate(Exception):
    def __init__(self, key: str):
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(text: str, where: str) -> Any:
    """One JSON value from ``text``, or ``Malformed`` at ``where`` (``"line 7"``, ``"--setup"``):
    not JSON, a key given twice in one object, nested or sized beyond the limits, a string that
    is not valid Unicode."""
    if len(text) > MAX_LINE:
        raise Malformed(f"{where} is {len(text):,} characters long; at most {MAX_LINE:,} are read", where)
    first_error = None
    try:
        value = msgspec.json.decode(text)
        if _plainly_within(text, value):
            return value
    except RecursionError:
        raise Malformed(f"{where} is nested more than {MAX_DEPTH} levels deep", where) from None
    except msgspec.DecodeError as exc:
        if "truncated" not in str(exc):  # msgspec calls a lone surrogate escape "truncated": json says more
            raise NotJSON(f"{where} is not valid JSON ({exc})", where) from None
        first_error = exc
    import json  # here, not at the top: only what msgspec does not take as it is reaches it

    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant)
    except _Duplicate as dup:
        raise Malformed(f"{where}: key {dup.key!r} is given twice in one object", where) from None
    except RecursionError:
        raise Malformed(f"{where} is nested more than {MAX_DEPTH} levels deep", where) from None
    except ValueError as exc:
        raise NotJSON(f"{where} is not valid JSON ({first_error or exc})", where) from None
    check_value(value, where)
    return value


def read_canonical(text: str) -> tuple[Any, bytes] | None:
    """The value of ``text`` and its UTF-8 bytes when the text is the value's canonical JSON
    (compact, keys sorted: as the store writes every line of a sealed file), else None, for
    ``read_json`` to read it (and say what is wrong). One encoding, keys sorted, proves such a
    text plainly within the limits (``_plainly_within``: the keys of a canonical text are in the
    order read) and gives the bytes its hash covers."""
    if _short(text):
        try:
            value = msgspec.json.decode(text)
            data = text.encode()
            if _canonical(value) == data:
                return value, data
        except (TypeError, ValueError):  # not JSON (a msgspec.DecodeError), or not valid Unicode
            pass
    return None


def _short(text: str) -> bool:
    """No string in ``text`` can be longer than ``MAX_TEXT``, no container hold more than
    ``MAX_ITEMS``, and it has fewer brackets than ``MAX_DEPTH`` (so no deeper nesting)."""
    return len(text) <= MAX_TEXT and text.count("{") + text.count("[") <= MAX_DEPTH


def _plainly_within(text: str, value: Any) -> bool:
    """True when a decoded line is within every limit without a walk: short (``_short``) and
    compact (as every exported and sealed line is, and what most tools write): its re-encoding,
    keys in the order read, is the text itself, so no key was given twice (the decoded object
    would have lost one) and no string holds an escaped surrogate."""
    if not _short(text):
        return False
    try:
        return _compact(value) == text.encode()
    except (TypeError, ValueError, UnicodeEncodeError):
        return False


def check_value(value: Any, where: str = "$") -> None:
    """``Malformed`` unless ``value`` keeps within the limits and every string is valid Unicode.
    Iterative, so that no depth of nesting can exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(value, "$", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            check_text(item, where, path)
        elif isinstance(item, (list, tuple, Mapping)):
            if depth >= MAX_DEPTH:
                raise Malformed(f"{where} is nested more than {MAX_DEPTH} levels deep (at {path})", f"{where}: {path}")
            if len(item) > MAX_ITEMS:
                raise Malformed(f"{where} holds {len(item):,} items at {path}; at most {MAX_ITEMS:,}", f"{where}: {path}")
            if isinstance(item, Mapping):
                for key, sub in item.items():
                    if isinstance(key, str):
                        check_text(key, where, f"{path}.<key>")
                    stack.append((sub, f"{path}.{key}", depth + 1))
            else:
                stack.extend((sub, f"{path}[{i}]", depth + 1) for i, sub in enumerate(item))


def check_text(text: str, where: str, path: str = "$") -> None:
    """``Malformed`` for a string beyond ``MAX_TEXT`` or one that is not valid Unicode (a lone
    surrogate, as ``\\ud800`` in JSON or an undecodable byte in an argument gives)."""
    if len(text) > MAX_TEXT:
        raise Malformed(f"{where}: a text of {len(text):,} characters at {path}; at most {MAX_TEXT:,}", f"{where}: {path}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise Malformed(
            f"{where}: the text at {path} is not valid Unicode ({text[exc.start]!r} at character {exc.start + 1})",
            f"{where}: {path}",
        ) from None


def check_event(type_: Any, by: Any, fields: Mapping[str, Any], *, values_checked: bool = False) -> None:
    """The bounds on one action, whatever its source: a non-empty author and type within the
    text limit, at most ``MAX_FIELDS`` fields, every value within the limits (``values_checked``:
    already done, as ``read_json`` does for a whole line)."""
    if not (type(type_) is str and type(by) is str and type_.isascii() and by.isascii() and type_.strip() and by.strip()
            and len(type_) <= MAX_TEXT and len(by) <= MAX_TEXT):  # the common case, in one test; the loop words the rest
        _check_texts(type_, by)
    if len(fields) > MAX_FIELDS:
        raise Malformed(f"the event has {len(fields)} fields; at most {MAX_FIELDS}", "$")
    if not values_checked:
        check_value(fields, "the event")


def _check_texts(type_: Any, by: Any) -> None:
    for name, text in (("type", type_), ("by", by)):
        if not isinstance(text, str) or not text.strip():
            raise Malformed(f"an event needs a non-empty {'author' if name == 'by' else 'type'} ({name!r} is {text!r})", f"$.{name}")
        check_text(text, f"the event's {name!r}", f"$.{name}")


def check_match_id(match_id: str) -> None:
    if not isinstance(match_id, str) or not _ID.fullmatch(match_id):  # fullmatch: "$" lets "x\n" through
        raise Malformed(
            f"match id {match_id!r} must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
            "$.match_id",
        )
