"""The BACDEF card catalog (rules/bacdef.md §10.1): one typed rule per letter A-F."""

from __future__ import annotations

from typing import Literal

import msgspec

from adjudicator.engine.protocol import Violation

LETTERS = ("A", "B", "C", "D", "E", "F")


class CatalogEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An entry as ``match_started.catalog`` gives it: everything may be left out.

    ``class`` and ``fall_skill`` are fixed by the letter; they may be given, and are checked
    (BAC-EFF-0), so a catalog file can state them for readers."""

    class_: Literal["normal", "special"] | None = msgspec.field(default=None, name="class")
    title: str = ""
    text: str = ""
    action_allowed: bool = True
    counter_allowed: bool = True
    battle_effect: bool | None = None  # default: True for A-E, False for F
    knock_skill: bool = False
    fall_skill: bool | None = None
    extra_deploys: int = 0


class CardRule(msgspec.Struct, frozen=True, kw_only=True):
    """A letter's rule as the reducer reads it: every field settled."""

    class_: Literal["normal", "special"] = msgspec.field(name="class")
    title: str
    text: str
    action_allowed: bool
    counter_allowed: bool
    battle_effect: bool
    knock_skill: bool
    fall_skill: bool
    extra_deploys: int


def _bad(message: str) -> Violation:
    return Violation("BAC-EFF-0", message, "E_BAD_OP")


def card_rule(letter: str, entry: CatalogEntry) -> CardRule:
    """BAC-EFF-0 / §10.1: the entry of one letter with its defaults filled in, fixed fields checked."""
    cls = "special" if letter in "DEF" else "normal"
    fall = letter == "F"
    if entry.class_ is not None and entry.class_ != cls:
        raise _bad(f"catalog {letter}: class is fixed to {cls}, not {entry.class_}")
    if entry.fall_skill is not None and entry.fall_skill != fall:
        raise _bad(f"catalog {letter}: fall_skill is fixed to {str(fall).lower()} (only F falls)")
    if entry.extra_deploys < 0:
        raise _bad(f"catalog {letter}: extra_deploys cannot be negative")
    return CardRule(
        class_=cls,
        title=entry.title,
        text=entry.text,
        action_allowed=entry.action_allowed,
        counter_allowed=entry.counter_allowed,
        battle_effect=(letter != "F") if entry.battle_effect is None else entry.battle_effect,
        knock_skill=entry.knock_skill,
        fall_skill=fall,
        extra_deploys=entry.extra_deploys,
    )


def build_catalog(raw: dict[str, CatalogEntry]) -> dict[str, CardRule]:
    """BAC-RUL-3 / BAC-DECK-8: one rule per letter; a letter left out takes the defaults."""
    for key in raw:
        if key not in LETTERS:
            raise _bad(f"the catalog has an entry {key!r}; entries are the letters A-F")
    return {letter: card_rule(letter, raw.get(letter) or CatalogEntry()) for letter in LETTERS}
