"""A match file (JSONL) as it comes in: one JSON object a line, its envelope keys checked.

A sealed file (an export: ``hash`` on line 1, and then on every line) carries ``seq``, ``prev``,
``hash``, ``recorded_at`` and ``match_id`` as the store wrote them; an envelope key of the wrong
type there is an altered log, an integrity failure (``IntegrityError``). A file without hashes
(written by hand, or by a tool at the table) may carry, and is held to (``Malformed`` otherwise):

- ``match_id``: a valid match id, the same on every line that has one;
- ``recorded_at``: a string, kept as the time the line was entered;
- ``seq``: an integer, which must be the seq the line gets (checked as the file is adjudicated);
- no ``prev``: a link means nothing without the hash it belongs to.

``type`` and ``by`` are strings on every line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

import msgspec

from adjudicator.inputs import check_match_id, read_json
from adjudicator.protocol import Malformed
from events.chain import IntegrityError
from events.envelope import StoredEvent, split_flat


class Wire(msgspec.Struct, kw_only=True):
    """The envelope keys a line may carry, with their types."""

    type: str
    by: str
    match_id: str | msgspec.UnsetType = msgspec.UNSET
    seq: Annotated[int, msgspec.Meta(ge=1)] | msgspec.UnsetType = msgspec.UNSET
    recorded_at: str | msgspec.UnsetType = msgspec.UNSET
    prev: str | msgspec.UnsetType = msgspec.UNSET
    hash: str | msgspec.UnsetType = msgspec.UNSET


def parse_lines(lines: Iterable[str]) -> list[tuple[int, dict[str, Any]]]:
    """Parse JSONL into ``(line number, flat object)`` pairs; ``Malformed`` names the bad line.
    Blank lines are skipped; every other line is one JSON object within the input limits."""
    out = []
    for no, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text:
            continue
        obj = read_json(text, f"line {no}")
        if not isinstance(obj, dict):
            raise Malformed(f"line {no} is not a JSON object", f"line {no}")
        out.append((no, obj))
    if not out:
        raise Malformed("the log is empty: a match file starts with a match_started line", "line 1")
    return out


def check_envelopes(parsed: list[tuple[int, dict[str, Any]]], match_id: str) -> bool:
    """Check every line's envelope keys (see the module's docstring); True if the file is sealed.
    ``match_id`` names the match in an integrity failure when the file does not."""
    sealed = "hash" in parsed[0][1]
    first_mid = None
    for no, obj in parsed:
        env = split_flat(obj)[0]
        try:
            wire = msgspec.convert(env, Wire, strict=True)
        except msgspec.ValidationError as exc:
            text, _, at = str(exc).partition(" - at `")
            where = f"line {no}: {at.rstrip('`') or '$'}"
            if sealed:
                raise IntegrityError(match_id, None, f"{where}: {text}: the sealed file was altered") from None
            raise Malformed(f"{where}: {text}", where) from None
        if sealed:
            continue
        if wire.prev is not msgspec.UNSET:
            raise Malformed(f"line {no} has a prev but no hash: a link means nothing without its hash", f"line {no}: $.prev")
        if wire.match_id is not msgspec.UNSET:
            try:
                check_match_id(wire.match_id)
            except Malformed as exc:
                raise Malformed(f"line {no}: {exc.message}", f"line {no}: $.match_id") from None
            if first_mid is not None and wire.match_id != first_mid:
                raise Malformed(f"line {no} belongs to match {wire.match_id!r}, not {first_mid!r}", f"line {no}: $.match_id")
            first_mid = wire.match_id
    return sealed


def stored_from_flat(no: int, obj: dict[str, Any], match_id: str) -> StoredEvent:
    """The stored event a sealed line holds (its envelope already checked)."""
    env, fields = split_flat(obj)
    try:
        return StoredEvent(
            match_id=env.get("match_id", match_id),
            seq=env["seq"],
            type=env["type"],
            by=env["by"],
            recorded_at=env.get("recorded_at", ""),
            fields=fields,
            prev=env.get("prev", ""),
            hash=env["hash"],
        )
    except KeyError as exc:
        raise IntegrityError(match_id, None, f"line {no} carries a hash but no {exc.args[0]!r}") from None
