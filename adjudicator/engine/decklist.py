"""Reading a deck-list file, for every game: a JSON array of strings, or entries separated by
spaces, commas, semicolons or new lines, where ``#`` starts a comment. What an entry means
(a letter, a card id) is the game's business."""

from __future__ import annotations

import re

from adjudicator.engine.inputs import NotJSON, read_json
from adjudicator.engine.protocol import Malformed

_SPLIT = re.compile(r"[\s,;]+")


def entries(text: str, what: str) -> list[str]:
    """The entries of a deck list, in order; ``Malformed`` for an empty list or bad JSON.
    ``what`` names an entry in messages ("letters", "card ids")."""
    stripped = text.strip()
    if not stripped:
        raise Malformed(f"the deck list is empty: list its {what}", "line 1")
    if stripped.startswith("{"):
        raise Malformed(f"a deck list is a JSON array of {what}, or {what} separated by spaces or lines; not a JSON object", "$")
    if stripped.startswith("["):
        try:
            items = read_json(stripped, "the deck list")
        except NotJSON as exc:
            raise Malformed(f"the deck list looks like JSON but does not decode ({exc.message})", "$") from None
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise Malformed(f"a JSON deck list is an array of {what} (strings)", "$")
        return [i.strip() for i in items]
    out: list[str] = []
    for line in stripped.splitlines():
        out.extend(t for t in _SPLIT.split(line.split("#", 1)[0]) if t)
    return out
