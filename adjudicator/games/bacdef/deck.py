"""BACDEF decks (rules/bacdef.md §2, BAC-DECK-*): the checks of a deck list, the cards a
registered deck makes, and every deck the Deck step accepts (for the legal actions)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from msgspec.structs import replace

from adjudicator.games.bacdef.catalog import LETTERS
from adjudicator.games.bacdef.config import Options
from adjudicator.games.bacdef.state import SPECIALS, Card, State
from adjudicator.engine.protocol import Violation

DECK_SIZE = 7
_LETTERS = frozenset(LETTERS)


def deck_problems(letters: Sequence[str], options: Options, who: str = "the deck") -> list[Violation]:
    """Every problem of a deck under BAC-DECK-1/3/5 and BAC-RUL-2, in the chapter's order."""
    letters = list(letters)
    out = []
    if len(letters) != DECK_SIZE:
        out.append(Violation("BAC-DECK-3", f"{who} has {len(letters)} cards; a deck is exactly 7", "E_DECK_SIZE"))
    if not _LETTERS.issuperset(letters):  # the unknown letters looked for only when there are some
        for x in dict.fromkeys(x for x in letters if x not in LETTERS):
            out.append(Violation("BAC-DECK-1", f"{who} has {x!r}; every card is one of A-F", "E_DECK_LETTER"))
    for sp in SPECIALS:
        if letters.count(sp) > 1:
            out.append(Violation("BAC-DECK-5", f"{who} has {letters.count(sp)} {sp} cards; D, E and F at most once each", "E_DECK_SPECIAL_DUP"))
    if options.require_each_special:
        missing = [sp for sp in SPECIALS if sp not in letters]
        if missing:
            out.append(Violation("BAC-RUL-2", f"{who} lacks {', '.join(missing)}; this match requires each of D, E and F", "E_DECK_SPECIAL_MISSING"))
    return out


def check_deck_letters(letters: Sequence[str], options: Options, who: str = "the deck") -> None:
    """Raise the first problem of ``deck_problems``."""
    problems = deck_problems(letters, options, who)
    if problems:
        raise problems[0]


def legal_decks(options: Options) -> list[list[str]]:
    """Every legal deck in alphabetical order (a deck in any other order is as legal; the order
    only numbers the card ids)."""
    out = []
    fewest = len(SPECIALS) if options.require_each_special else 0
    for k in range(fewest, len(SPECIALS) + 1):
        for specials in combinations(SPECIALS, k):
            for normals in combinations_with_replacement("ABC", DECK_SIZE - k):
                out.append(sorted(normals + specials))
    return sorted(out)


def create_cards(s: State, player: str, letters: Sequence[str]) -> None:
    """The cards of a registered deck, ``<player>-1`` ... ``<player>-7`` in list order, all in hand."""
    st = s.set
    hand = []
    for n, letter in enumerate(letters, 1):
        cid = f"{player}-{n}"
        st.cards[cid] = Card(id=cid, owner=player, letter=letter)
        hand.append(cid)
    st.players[player] = replace(st.players[player], deck=tuple(letters), special_used=dict.fromkeys(SPECIALS, False), hand=tuple(hand))
