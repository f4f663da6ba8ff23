"""Deck construction (rules/pbwcg.md §2): every problem of a deck and its support list, each as a
``Violation`` with its rule ID, in the order of the section (PBW-DECK-10)."""

from __future__ import annotations

import functools
import unicodedata
from operator import attrgetter
from typing import Any

import msgspec

from adjudicator.games.pbwcg.config import Options
from adjudicator.games.pbwcg.events import CardDef, PlayerDeck
from adjudicator.engine.protocol import Malformed, Violation

DECK_LIMIT = 40
WEAPON_PARTS = {"ONE_HAND", "TWO_HAND", "HEAD", "FOOT"}
ARMOR_PARTS = {"ONE_HAND", "OUTER", "NORMAL", "UNDER"}
REQUIRED = {
    "PC": ("world", "hp", "stats", "main_attribute", "wp", "sp"),
    "EQUIPMENT": ("kind", "part", "mods", "weight"),
    "SET": ("category",),
    "SUPPORT": ("world", "cp", "stats", "main_attribute"),
}
NON_NEGATIVE = ("hp", "wp", "sp", "weight", "cp", "endurance_max")
ATTRIBUTES = frozenset({"BODY", "TECH", "MIND"})
HOLY_GRAIL = {"holy grail", "聖杯"}


@functools.lru_cache(maxsize=4096)
def same_name(name: str) -> str:
    """PBW-RUL-7: NFKC, trimmed, case-folded (a pure function of the name: each registration
    compares every card's, and the same names come back in every match of a player)."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def is_holy_grail(card: CardDef) -> bool:
    """PBW-DECK-7: the set card "M: Holy Grail" (category M, name Holy Grail in either language)."""
    name = same_name(card.name)
    for lead in ("m:", "セットカード:m:"):
        name = name.removeprefix(lead).strip()
    return card.card_type == "SET" and (card.category == "M" or same_name(card.name) != name) and name in HOLY_GRAIL


def read_deck(text: str) -> dict[str, Any]:
    """A deck file: ``{"deck": [card...], "support_list": [card...]}`` or a JSON array of cards."""
    try:
        data = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        raise Malformed(f"a PBWCG deck file is JSON (a list of cards or {{deck, support_list}}): {exc}", "$") from None
    if isinstance(data, list):
        data = {"deck": data}
    if isinstance(data, dict):  # keys starting with "_" are comments ("_sample")
        data = {k: v for k, v in data.items() if not k.startswith("_")}
    try:
        return msgspec.to_builtins(msgspec.convert(data, PlayerDeck))
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", "$") from None


#: per card type, the fields it needs, read at once (a one-field type's read twice: a tuple all
#: the same); and the fields that are 0 or more
_REQUIRED_OF = {t: attrgetter(*names) if len(names) > 1 else attrgetter(names[0], names[0])
                for t, names in REQUIRED.items()}
_NON_NEGATIVE_OF = attrgetter(*NON_NEGATIVE)
_NAME_OF, _TYPE_OF = attrgetter("name"), attrgetter("card_type")


def _plainly_valid(card: CardDef) -> bool:
    """Whether ``card_problems`` finds nothing: the checks of every card of every registration,
    without building a message (a card with a problem goes through the full checks)."""
    if None in _REQUIRED_OF[card.card_type](card):
        return False
    for value in _NON_NEGATIVE_OF(card):
        if value is not None and value < 0:
            return False
    stats, mods = card.stats, card.mods
    if stats is not None and stats.keys() != ATTRIBUTES or mods is not None and mods.keys() != ATTRIBUTES:
        return False
    if card.card_type == "EQUIPMENT":
        if card.main_attribute is not None:
            return False
        if card.kind and card.part and card.part not in (WEAPON_PARTS if card.kind == "WEAPON" else ARMOR_PARTS):
            return False
    return True


def card_problems(card: CardDef, where: str) -> list[Violation]:
    """PBW-DECK-2 (the fields of the card's type) and PBW-DECK-9 (types and ranges)."""
    if _plainly_valid(card):
        return []
    out = []
    for name in REQUIRED[card.card_type]:
        if getattr(card, name) is None:
            out.append(Violation("PBW-DECK-2", f"{where}: {card.card_type} card {card.id!r} ({card.name}) has no {name}", "DECK_INVALID"))
    if card.card_type == "EQUIPMENT" and card.kind and card.part:
        allowed = WEAPON_PARTS if card.kind == "WEAPON" else ARMOR_PARTS
        if card.part not in allowed:
            out.append(Violation("PBW-DECK-2", f"{where}: {card.kind} {card.id!r} cannot take part {card.part}; allowed: {', '.join(sorted(allowed))}", "DECK_INVALID"))
    for name in NON_NEGATIVE:
        value = getattr(card, name)
        if value is not None and value < 0:
            out.append(Violation("PBW-DECK-9", f"{where}: {card.id!r} has {name} {value}; it must be 0 or more", "DECK_INVALID"))
    for name in ("stats", "mods"):
        value = getattr(card, name)
        if value is not None and value.keys() != ATTRIBUTES:
            out.append(Violation("PBW-DECK-9", f"{where}: {card.id!r} {name} must give BODY, TECH and MIND, not {sorted(value)}", "DECK_INVALID"))
    if card.card_type == "EQUIPMENT" and card.main_attribute is not None:
        out.append(Violation("PBW-DECK-9", f"{where}: equipment {card.id!r} has no main attribute", "DECK_INVALID"))
    return out


def deck_problems(deck: PlayerDeck, options: Options, who: str = "deck") -> list[Violation]:
    """Every problem of one player's registration, in the order of §2."""
    cards = deck.deck
    out: list[Violation] = []
    if len(cards) > DECK_LIMIT:
        out.append(Violation("PBW-DECK-3", f"{who} holds {len(cards)} cards; at most {DECK_LIMIT}, the two initial PCs included", "DECK_INVALID"))
    # (the names and types of every card read in C, once: a registration is checked in every match)
    names = list(map(same_name, map(_NAME_OF, cards)))
    if len(set(names)) < len(names):
        seen: dict[str, str] = {}
        for c, key in zip(cards, names):
            if key in seen:
                out.append(Violation("PBW-DECK-4", f"{who} holds {seen[key]!r} and {c.name!r}: one card of a name (after NFKC, trimming and case)", "DECK_INVALID"))
            else:
                seen[key] = c.name
    types = list(map(_TYPE_OF, cards))
    pcs = types.count("PC")
    if pcs < 2:
        out.append(Violation("PBW-DECK-5", f"{who} holds {pcs} PC card(s); at least 2 are needed for the initial PCs", "DECK_INVALID"))
    if not options.summon_support_in_deck and "SUPPORT" in types:
        for c in cards:
            if c.card_type == "SUPPORT":
                out.append(Violation("PBW-DECK-6", f"{who} holds summon support {c.id!r} ({c.name}); supports go in the support list", "DECK_INVALID"))
    for c in deck.support_list:
        if c.card_type != "SUPPORT":
            out.append(Violation("PBW-DECK-6", f"{who}'s support list holds {c.card_type} card {c.id!r}; it takes summon supports only", "DECK_INVALID"))
    if options.local_F_exclude_holy_grail:
        for c in cards + deck.support_list:
            if is_holy_grail(c):
                out.append(Violation("PBW-DECK-7", f"{who} holds {c.name!r}: local rule F excludes M: Holy Grail", "DECK_INVALID"))
    for c in cards + deck.support_list:
        if not _plainly_valid(c):
            out.extend(card_problems(c, who))
    return out


def deck_warnings(deck: PlayerDeck) -> list[str]:
    """PBW-DECK-8: a deck under 7 cards cannot give both initial PCs and a 5-card hand."""
    if len(deck.deck) < 7:
        return [f"PBW-DECK-8: the deck holds {len(deck.deck)} cards; the opening hand will be short"]
    return []
