"""The card catalog (rules BD-EFF-1, §15): one entry per card name, carried by ``match_started``.

The catalog is decoded here, entry by entry, so that a bad entry is malformed input naming the
entry (its index and card name) and the field: ``catalog entry 3 ('U5k'): colours: unknown
colour 'GREEN'`` at ``$.catalog[3].colours``. No card text is a rule: the service reads only
the figures (type, colours, costs, power, hit, icons, titles, release cost, deck overrides)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from adjudicator.engine.protocol import Malformed

COLOURS = ("BLACK", "BLUE", "WHITE", "RED")
ICONS = ("BUSTER", "SHOT")
TYPES = ("UNIT", "COMMAND", "TERRITORY")
TIMINGS = ("NORMAL", "QUICK")

#: the fields an entry may carry (§15: exactly the BD-EFF-1 names)
FIELDS = ("name", "type", "is_ace", "titles", "colours", "total_cost", "colour_cost", "timing",
          "power", "hit", "icons", "abilities", "text", "entered_by")
TERRITORY_FIELDS = ("release_cost_total", "release_colour_cost", "title", "character_face_rule_mod", "deck_rule_overrides")
#: the fields that do not apply to a type: null or absent (§15), read as the Card's defaults. The
#: chapter names power and hit of a command or a territory, timing of a territory and the territory
#: fields of a unit or a command; a territory's play cost (it is never played) is read the same way.
NOT_APPLICABLE = {
    "UNIT": TERRITORY_FIELDS,
    "COMMAND": ("power", "hit", *TERRITORY_FIELDS),
    "TERRITORY": ("power", "hit", "timing", "total_cost", "colour_cost"),
}
#: the numbers a rule-modifying territory may replace (BD-DECK-19)
OVERRIDE_KEYS = ("main_min", "main_max", "buster_exact", "shot_max", "d_deck_min", "d_deck_max", "copy_limit", "hand_limit")


class Ability(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    kind: str
    timing: str = "NORMAL"
    note: str = ""


class Card(msgspec.Struct, frozen=True, kw_only=True):
    """One catalog entry (BD-EFF-1)."""

    name: str
    type: str
    is_ace: bool = False
    titles: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    total_cost: int = 0
    colour_cost: dict[str, int] = {}
    timing: str = "NORMAL"
    power: int = 0
    hit: int = 0
    icons: tuple[str, ...] = ()
    release_cost_total: int | None = None
    release_colour_cost: dict[str, int] | None = None
    title: str | None = None
    character_face_rule_mod: bool = False
    deck_rule_overrides: dict[str, int] | None = None
    abilities: tuple[Ability, ...] = ()
    text: str = ""
    entered_by: str = ""

    @property
    def generic_cost(self) -> int:
        return self.total_cost - sum(self.colour_cost.values())


def _bad(i: int, name: Any, field: str, message: str) -> Malformed:
    who = f"catalog entry {i}" + (f" ({name!r})" if isinstance(name, str) else "")
    return Malformed(f"{who}: {field}: {message}", f"$.catalog[{i}].{field}")


def _subset(i: int, name: Any, field: str, value: Any, allowed: Sequence[str], what: str) -> None:
    if not isinstance(value, list | tuple):
        raise _bad(i, name, field, f"must be a list of {what}s ({', '.join(allowed)}), not {value!r}")
    for v in value:
        if v not in allowed:
            raise _bad(i, name, field, f"unknown {what} {v!r}; {what}s: {', '.join(allowed)}")


def _costs(i: int, name: Any, field: str, value: Any) -> None:
    if not isinstance(value, Mapping):
        raise _bad(i, name, field, f"must be an object of colour: int, not {value!r}")
    for k, v in value.items():
        if k not in COLOURS:
            raise _bad(i, name, field, f"unknown colour {k!r}; colours: {', '.join(COLOURS)}")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise _bad(i, name, f"{field}.{k}", f"must be an int >= 0, not {v!r}")


def _applicable(i: int, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The entry without the fields that do not apply to its type (null or absent, §15); an unknown
    key, or a field of the type missing, is malformed."""
    name = raw.get("name")
    for key in raw:
        if key not in FIELDS and key not in TERRITORY_FIELDS:
            raise _bad(i, name, key, f"unknown key; the keys allowed: {', '.join(FIELDS + TERRITORY_FIELDS)}")
    if raw.get("type") not in TYPES:
        raise _bad(i, name, "type", f"unknown type {raw.get('type')!r}; types: {', '.join(TYPES)}")
    skip = NOT_APPLICABLE[raw["type"]]
    entry = {k: v for k, v in raw.items() if not (k in skip and v is None)}
    for field in FIELDS + TERRITORY_FIELDS:
        if field not in entry and field not in skip:
            why = "a territory carries the release fields of BD-EFF-1" if field in TERRITORY_FIELDS else "every entry carries the BD-EFF-1 fields"
            raise _bad(i, name, field, f"missing ({why}; only a field that does not apply to a {raw['type'].lower()} may be left out)")
    return entry


def _check_entry(i: int, raw: Mapping[str, Any]) -> None:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _bad(i, name, "name", f"must be a non-empty string, not {name!r}")
    if "timing" in raw and raw["timing"] not in TIMINGS:
        raise _bad(i, name, "timing", f"unknown timing {raw['timing']!r}; timings: {', '.join(TIMINGS)}")
    _subset(i, name, "colours", raw["colours"], COLOURS, "colour")
    _subset(i, name, "icons", raw["icons"], ICONS, "icon")
    colour_cost = raw.get("colour_cost", {})
    _costs(i, name, "colour_cost", colour_cost)
    for field in ("total_cost", "power", "hit"):
        if field in raw and (not isinstance(raw[field], int) or isinstance(raw[field], bool)):
            raise _bad(i, name, field, f"must be an int, not {raw[field]!r}")
    if sum(colour_cost.values()) > raw.get("total_cost", 0):
        raise _bad(i, name, "colour_cost", f"colour parts {sum(colour_cost.values())} exceed total_cost {raw.get('total_cost', 0)}")
    if raw["type"] == "TERRITORY":
        _costs(i, name, "release_colour_cost", raw["release_colour_cost"] or {})
        over = raw["deck_rule_overrides"]
        if over is not None:
            if not isinstance(over, Mapping):
                raise _bad(i, name, "deck_rule_overrides", "must be null or an object")
            for k in over:
                if k not in OVERRIDE_KEYS:
                    raise _bad(i, name, f"deck_rule_overrides.{k}", f"unknown number; known: {', '.join(OVERRIDE_KEYS)}")


def decode_catalog(entries: Sequence[Any]) -> dict[str, Card]:
    """The catalog by card name; ``Malformed`` naming the first bad entry and field."""
    out: dict[str, Card] = {}
    for i, raw in enumerate(entries):
        if not isinstance(raw, Mapping):
            raise Malformed(f"catalog entry {i} is not an object", f"$.catalog[{i}]")
        entry = _applicable(i, raw)
        _check_entry(i, entry)
        try:
            card = msgspec.convert(entry, Card)
        except msgspec.ValidationError as exc:
            text, _, at = str(exc).partition(" - at `")
            field = at.rstrip("`")[2:] if at else "?"
            raise _bad(i, raw.get("name"), field, text) from None
        if card.name in out:
            raise _bad(i, card.name, "name", "a second entry for the same card name")
        out[card.name] = card
    return out
