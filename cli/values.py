"""``FIELD=VALUE`` words of the command line, turned into an event's fields.

The reducers decode with ``strict=False`` for command-line input, so a plain word such as
``3`` or ``true`` may stay a string here: the game's event type converts it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import click

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def field_value(text: str) -> Any:
    """One VALUE: a JSON object, or a JSON array holding objects or arrays, is that JSON;
    ``[a,b,c]`` is a list of strings; ``null`` is None; anything else is the string itself.
    JSON is read within the input limits (``adjudicator.engine.inputs``)."""
    from adjudicator.engine.inputs import NotJSON, read_json

    s = text.strip()
    if s == "null":
        return None
    if s.startswith("{"):
        try:
            value = read_json(s, _where(text))
        except NotJSON as exc:
            raise click.BadParameter(exc.message) from None
        if isinstance(value, dict):
            return value
    if s.startswith("[") and s.endswith("]"):
        try:
            value = read_json(s, _where(text))
        except NotJSON:
            value = None
        if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
            return value
        inner = s[1:-1].strip()
        return [item.strip().strip("'\"") for item in inner.split(",")] if inner else []
    return text


def _where(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:37]) + "..."


def json_value(text: str) -> Any:
    """A house-rule option: JSON when it parses (``2``, ``true``, ``null``, ``"x"``), else the word."""
    from adjudicator.engine.inputs import NotJSON, read_json

    try:
        return read_json(text, _where(text))
    except NotJSON:
        return text


def split_pair(word: str, what: str = "FIELD=VALUE") -> tuple[str, str]:
    key, eq, value = word.partition("=")
    key = key.strip()
    if not eq or not _KEY.match(key):
        raise click.BadParameter(f"{word!r} is not {what}")
    return key, value


def pairs(words: Iterable[str], parse=field_value, what: str = "FIELD=VALUE", reserved: Iterable[str] = ()) -> dict[str, Any]:
    """``KEY=VALUE`` words as a mapping; a repeated or reserved key is bad usage."""
    out: dict[str, Any] = {}
    reserved = set(reserved)
    for word in words:
        key, value = split_pair(word, what)
        if key in reserved:
            raise click.BadParameter(f"{key!r} cannot be given as {what} here (it has its own option)")
        if key in out:
            raise click.BadParameter(f"{key!r} is given twice")
        out[key] = parse(value)
    return out

