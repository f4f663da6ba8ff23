"""Playing cards as people write them: ``S3``, ``HK``, ``D10``, ``JK1`` (rules §0.3, §2).

A card id is a suit letter (S, H, D, C) followed by a number (A, 2-10, J, Q, K), or one of the
two jokers ``JK1``/``JK2``. Every player's deck is the same 54 ids (DB-DECK-2), so a card id
names a card only together with its owner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.engine.protocol import Violation

SUITS = ("S", "H", "D", "C")
#: Daifugo order, weakest first; the position + 1 is the index (DB-DECK-8).
NUMBERS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
INDEX = {n: i + 1 for i, n in enumerate(NUMBERS)}
JOKERS = ("JK1", "JK2")
JOKER_STRENGTH = 14
ALL_CARDS: tuple[str, ...] = tuple(s + n for s in SUITS for n in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")) + JOKERS
CARD_SET = frozenset(ALL_CARDS)
DECK_SIZE = len(ALL_CARDS)  # 54

#: Spellings that are rewritten silently (unambiguous) and those only suggested in a message.
_SAFE_NUMBERS = {"T": "10", "ACE": "A", "JACK": "J", "QUEEN": "Q", "KING": "K"}
_NUMBER_WORDS = {**_SAFE_NUMBERS, "1": "A", "11": "J", "12": "Q", "13": "K"}
_SUIT_WORDS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "SPADE": "S", "HEART": "H", "DIAMOND": "D", "CLUB": "C"}
NOTATION_HELP = "a card is S, H, D or C followed by A, 2-10, J, Q or K (S3, HK, D10), or a joker JK1/JK2"


def is_card(text: Any) -> bool:
    return isinstance(text, str) and text in CARD_SET


def is_joker(card: str) -> bool:
    return card in JOKERS


def suit(card: str) -> str | None:
    return None if is_joker(card) else card[0]


def number(card: str) -> str | None:
    return None if is_joker(card) else card[1:]


def index(card: str) -> int:
    """The printed index 1..13 of a non-joker card (3 = 1 ... 2 = 13)."""
    return INDEX[card[1:]]


def suggest(text: str, numbers: dict[str, str] | None = None) -> str | None:
    """The canonical id a mistyped card most likely meant (``s3`` -> ``S3``, ``ST`` -> ``S10``,
    ``S1`` -> ``SA``)."""
    words = _NUMBER_WORDS if numbers is None else numbers
    t = text.strip().upper().replace(" ", "")
    if t in CARD_SET:
        return t
    if t in ("JOKER1", "JOKER2", "J1", "J2", "JOKER"):
        return "JK" + (t[-1] if t[-1] in "12" else "1")
    for word, letter in _SUIT_WORDS.items():
        if t.startswith(word):
            t = letter + t[len(word):].lstrip("S")
            break
    if len(t) >= 2 and t[0] in SUITS:
        n = words.get(t[1:], t[1:])
        if t[0] + n in CARD_SET:
            return t[0] + n
    if len(t) >= 2 and t[-1] in SUITS:  # number first: 3S, 10H
        n = words.get(t[:-1], t[:-1])
        if t[-1] + n in CARD_SET:
            return t[-1] + n
    return None


def describe_bad(text: Any) -> str:
    """A plain message for something that is not a card id."""
    if not isinstance(text, str):
        return f"{text!r} is not a card: {NOTATION_HELP}"
    hint = suggest(text)
    more = f"; did you mean {hint!r}?" if hint and hint != text else ""
    return f"{text!r} is not a card: {NOTATION_HELP}{more}"


def label(cards: Iterable[str]) -> str:
    return " ".join(cards)


# -- deck lists (DB-DECK-1, DB-DECK-2) -------------------------------------------------------------


def read_deck(text: str) -> tuple[str, ...]:
    """Read a deck list: card ids separated by spaces, commas or new lines; ``#`` starts a
    comment; ``NxCARD`` is not allowed (every card exists once). A JSON array is accepted too.

    Unambiguous spellings are written canonically (``s3`` -> ``S3``, ``3S`` -> ``S3``, ``ST`` ->
    ``S10``); anything else (``S1``, ``S11``) is kept as written so that ``check_deck`` names it."""
    from adjudicator.engine.decklist import entries

    tokens = entries(text, "54 card ids (S3, HK, D10, JK1...)")
    return tuple(suggest(t, _SAFE_NUMBERS) or t for t in tokens)


def deck_problems(cards: Any) -> list[str]:
    """What is wrong with a deck list under DB-DECK-2 (a), (b), (c); empty when it is valid."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        return [f"a deck is a list of 54 card ids, not {cards!r}"]
    have = set(cards)
    if len(cards) == DECK_SIZE and have == CARD_SET:  # the usual deck: every card once, nothing else
        return []
    problems = []
    if len(cards) != DECK_SIZE:
        problems.append(f"it has {len(cards)} cards, not {DECK_SIZE}")
    bad = [c for c in cards if not is_card(c)]
    for c in bad[:5]:
        problems.append(describe_bad(c))
    if len(bad) > 5:
        problems.append(f"and {len(bad) - 5} more entries that are not cards")
    twice = sorted(c for c, n in Counter(c for c in cards if is_card(c)).items() if n > 1)
    if twice:
        problems.append(f"{', '.join(twice)} occur{'s' if len(twice) == 1 else ''} more than once")
    missing = [c for c in ALL_CARDS if c not in have]
    if missing and len(cards) <= DECK_SIZE:
        problems.append(f"missing: {', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''}")
    return problems


def check_deck(cards: Any, options: Mapping[str, Any] | None = None, who: str = "the deck") -> dict[str, Any]:
    """Validate a deck list (DB-DECK-2); ``Violation`` ``DECK_INVALID`` naming every problem."""
    problems = deck_problems(cards)
    if problems:
        raise Violation("DB-DECK-2", f"{who} is not a valid DemonBrave deck: " + "; ".join(problems), "DECK_INVALID")
    return {"cards": len(cards), "jokers": sum(1 for c in cards if is_joker(c)), "valid": True}
