"""A game's facts in plain words, below every presentation: a value as it would be typed after
``FIELD=``, an outcome in a sentence, a nested mapping as indented lines. The kit's default text
hooks (``describe``, ``milestones``) use them, and so does ``adjudicator.presentation.render``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from adjudicator.engine.protocol import Outcome

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+/@#<>")


def format_value(value: Any) -> str:
    """A value as it would be typed after ``FIELD=``: plain words bare, lists of scalars as
    ``[a,b]``, anything nested as compact JSON."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        if value and set(value) <= _PLAIN:
            return value
        return json_text(value)
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list, tuple)) for v in value):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    return json_text(value)


def written_alike(value: Any, ascii_only: bool) -> bool:
    """Whether msgspec writes ``value`` as ``json.dumps`` does: None, bools, ints, strings (ASCII
    ones only where json escapes the rest), and lists, tuples and string-keyed dicts of them; not
    floats (``1e+16`` against ``1e16``) nor anything else."""
    if value is None or type(value) in (bool, int):
        return True
    if type(value) is str:
        return value.isascii() or not ascii_only
    if type(value) in (list, tuple):
        return all(written_alike(v, ascii_only) for v in value)
    if type(value) is dict:
        return all(type(k) is str and written_alike(k, ascii_only) and written_alike(v, ascii_only)
                   for k, v in value.items())
    return False


def json_text(value: Any, ensure_ascii: bool = False) -> str:
    """``json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":"))`` (for a string alone,
    its separators do not matter), written by msgspec where the two write alike, so that most
    commands never load ``json`` (issue 25: a table command's start-up); by ``json`` otherwise."""
    if written_alike(value, ensure_ascii):
        try:
            return msgspec.json.encode(value).decode()
        except (msgspec.EncodeError, UnicodeError):  # a lone surrogate: json writes it, msgspec does not
            pass
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii, separators=(",", ":"))


#: what a shell passes through unquoted (``[a,b]`` included: the command line's list words)
_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:+/@%=,[]")


def value_word(value: Any) -> str:
    """A value as it is pasted after ``FIELD=`` into a shell, for ``adj act`` to read back: the
    command line's words (``alice``, ``3``, ``true``, ``[a,b]``), compact JSON for anything nested,
    single-quoted when the shell would otherwise change it (``'{"name":"Mind Blast"}'``)."""
    word = value if isinstance(value, str) else format_value(value)
    if word and set(word) <= _SHELL_SAFE:
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def outcome_text(outcome: Outcome) -> str:
    if outcome.status == "won":
        text = f"won by {outcome.winner}"
    elif outcome.status == "in_progress":
        text = "in progress"
    else:
        text = outcome.status
    if outcome.score:
        text += " (" + ", ".join(f"{p} {n}" for p, n in outcome.score.items()) + ")"
    if outcome.detail:
        text += f"; {outcome.detail}"
    return text


def outline(data: Any, indent: str = "") -> list[str]:
    """A nested mapping as indented ``key: value`` lines, for explanations read by people."""
    lines: list[str] = []
    if isinstance(data, Mapping):
        for k, v in data.items():
            if isinstance(v, Mapping) or (isinstance(v, (list, tuple)) and any(isinstance(x, (Mapping, list, tuple)) for x in v)):
                lines.append(f"{indent}{k}:")
                lines.extend(outline(v, indent + "  "))
            else:
                lines.append(f"{indent}{k}: {format_value(v)}")
    elif isinstance(data, (list, tuple)):
        for item in data:
            sub = outline(item, indent + "  ")
            lines.append(f"{indent}- {sub[0].strip()}" if sub else f"{indent}-")
            lines.extend(sub[1:])
    else:
        lines.append(f"{indent}{format_value(data)}")
    return lines
