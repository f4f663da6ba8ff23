"""``--catalog FILE``: a card catalog for any game whose ``match_started`` has a ``catalog`` field.

The file is JSONL (one entry a line) or a JSON array. ``adj new`` puts the entries into
``match_started.catalog``; ``adj check`` and ``adj import`` put them into the file's first line when
that line carries no catalog. The game checks the entries themselves (a bad entry is malformed
input naming the entry and the field). Every JSON value is read by the bounded reader of
``adjudicator.engine.inputs`` (nesting, sizes, duplicate keys), like every other input."""

from __future__ import annotations

import typing
from collections.abc import Iterable, Iterator
from typing import Any

import click

CATALOG_HELP = "A card catalog (JSONL or a JSON array) for match_started.catalog, when the match carries none."


def takes_catalog(game: Any) -> bool:
    """Whether the game's ``match_started`` (the first event of its union) has a ``catalog`` field."""
    import msgspec

    args = typing.get_args(game.event_type)
    started = args[0] if args else game.event_type
    return any(f.name == "catalog" for f in msgspec.structs.fields(started))


def read_catalog(path: str, text: str) -> Any:
    """The entries of a JSONL file or a JSON array (a JSON object, a game's catalog by key, as is)."""
    from adjudicator.engine.inputs import read_json

    s = text.strip()
    if s.startswith("[") or s.startswith("{") and "\n{" not in s:
        value = read_json(s, f"{path}")
        if isinstance(value, list) or isinstance(value, dict):
            return value
        raise click.BadParameter(f"{path} is not a JSON array or object", param_hint="'--catalog'")
    return [read_json(line, f"{path} line {no}") for no, line in enumerate(text.splitlines(), 1) if line.strip()]


def catalog_for(game_name: str, path: str, text: str) -> Any:
    from adjudicator.engine import registry

    if not takes_catalog(registry.get(game_name)):
        raise click.BadParameter(f"{game_name} matches carry no catalog", param_hint="'--catalog'")
    return read_catalog(path, text)


def fill_first_line(lines: Iterable[str], path: str, text: str) -> Iterator[str]:
    """The match file's lines with the catalog put into its ``match_started`` when it has none."""
    lines = iter(lines)
    for line in lines:
        if not line.strip():
            yield line
            continue
        yield _with_catalog(line, path, text)
        break
    yield from lines


def _with_catalog(line: str, path: str, text: str) -> str:
    import json

    from adjudicator.engine.inputs import read_json
    from adjudicator.engine.protocol import Malformed

    try:
        first = read_json(line, "line 1")
    except Malformed:
        return line  # the service reports the bad line
    if not isinstance(first, dict) or first.get("type") != "match_started" or first.get("catalog"):
        return line
    if "hash" in first:
        raise click.BadParameter("the file is sealed (it carries hashes): its match_started cannot take a catalog", param_hint="'--catalog'")
    first["catalog"] = catalog_for(str(first.get("game")), path, text)
    return json.dumps(first)
