"""Deck construction (§2.2): every violated rule of a deck list, in the order of the section, each
naming the offending cards (BD-DECK-22)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from adjudicator.games.builddivide.catalog import Card
from adjudicator.games.builddivide.config import Options
from adjudicator.games.builddivide.events import DeckList
from adjudicator.engine.protocol import Malformed, Violation

DEFAULTS = {"main_min": 40, "main_max": 50, "buster_exact": 12, "shot_max": 12, "d_deck_min": 0, "d_deck_max": 12, "copy_limit": 4}


def limits(deck: DeckList, catalog: Mapping[str, Card]) -> dict[str, int]:
    """The numbers of BD-DECK-10…16, replaced by a rule-modifying territory's overrides (BD-DECK-19)."""
    out = dict(DEFAULTS)
    ter = catalog.get(deck.territory)
    if ter is not None and ter.deck_rule_overrides:
        out.update({k: v for k, v in ter.deck_rule_overrides.items() if k in out})
    return out


def _names(cards: list[str]) -> str:
    shown = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in Counter(cards).items())
    return shown if len(shown) < 200 else shown[:197] + "..."


def problems(deck: DeckList, catalog: Mapping[str, Card], options: Options | None = None) -> list[Violation]:
    """Every problem of ``deck``, one ``Violation`` per rule, in §2.2 order; [] when it is legal."""
    o = options or Options()
    out: list[Violation] = []

    def bad(rule: str, message: str) -> None:
        out.append(Violation(rule, message, "DECK_INVALID"))

    unknown = sorted({n for n in (*deck.main, *deck.d_deck, deck.territory) if n not in catalog})
    lim = limits(deck, catalog)
    ter = catalog.get(deck.territory)
    if ter is not None and ter.deck_rule_overrides and not deck.judge_approval:
        import json  # here, as in read: a table command loads this module, never json

        bad("BD-DECK-19", f"territory {deck.territory} changes the deck rules ({json.dumps(ter.deck_rule_overrides, sort_keys=True)}); "
                          "the list needs judge_approval")
    n = len(deck.main)
    if not lim["main_min"] <= n <= lim["main_max"]:
        bad("BD-DECK-10", f"the main deck holds {n} cards, not {lim['main_min']}-{lim['main_max']}")
    terr = [c for c in deck.main if c in catalog and catalog[c].type == "TERRITORY"]
    if terr:
        bad("BD-DECK-11", f"the main deck holds territory cards: {_names(terr)}")
    counts = Counter(deck.main) + Counter(deck.d_deck)
    if o.copy_limit_includes_territory:
        counts[deck.territory] += 1
    over = sorted(f"{k} x{v}" for k, v in counts.items() if v > lim["copy_limit"])
    if over:
        bad("BD-DECK-12", f"more than {lim['copy_limit']} copies of a name across main deck, D deck"
                          f"{' and territory' if o.copy_limit_includes_territory else ''}: {', '.join(over)}")
    busters = [c for c in deck.main if c in catalog and "BUSTER" in catalog[c].icons]
    if len(busters) != lim["buster_exact"]:
        bad("BD-DECK-13", f"the main deck holds {len(busters)} cards with the buster icon, not exactly {lim['buster_exact']}"
                          f" ({_names(busters) or 'none'})")
    shots = [c for c in deck.main if c in catalog and "SHOT" in catalog[c].icons]
    if len(shots) > lim["shot_max"]:
        bad("BD-DECK-14", f"the main deck holds {len(shots)} cards with the shot icon, more than {lim['shot_max']} ({_names(shots)})")
    if not lim["d_deck_min"] <= len(deck.d_deck) <= lim["d_deck_max"]:
        bad("BD-DECK-15", f"the D deck holds {len(deck.d_deck)} cards, not {lim['d_deck_min']}-{lim['d_deck_max']}")
    if not o.d_deck_allows_territory:
        dter = [c for c in deck.d_deck if c in catalog and catalog[c].type == "TERRITORY"]
        if dter:
            bad("BD-DECK-16", f"the D deck holds territory cards and d_deck_allows_territory is false: {_names(dter)}")
    if ter is not None and ter.type != "TERRITORY":
        bad("BD-DECK-17", f"the territory {deck.territory} is a {ter.type}, not a territory card")
    if unknown:
        bad("BD-DECK-20", f"cards missing from the catalog: {', '.join(unknown)}")
    order = ["BD-DECK-10", "BD-DECK-11", "BD-DECK-12", "BD-DECK-13", "BD-DECK-14", "BD-DECK-15", "BD-DECK-16",
             "BD-DECK-17", "BD-DECK-19", "BD-DECK-20"]
    return sorted(out, key=lambda v: order.index(v.rule_id))


def rejection(player: str, found: list[Violation]) -> Violation:
    """The one Violation that refuses a registration: the lowest violated rule, every rule listed."""
    first = found[0]
    all_ids = ", ".join(v.rule_id for v in found)
    return Violation(first.rule_id, f"{player}'s deck list is not valid ({all_ids}): " + "; ".join(
        f"{v.rule_id}: {v.message}" for v in found), "DECK_INVALID")


def read(text: str) -> dict[str, Any]:
    """A deck file: a JSON object ``{main, d_deck, territory, checklist?, judge_approval?, catalog?}``."""
    import json  # here: a deck is read when a match starts, not by a table command

    try:
        data = json.loads(text)
    except ValueError as exc:
        raise Malformed(f"a Build Divide deck file is a JSON object {{main, d_deck, territory}} ({exc})", "$") from None
    if not isinstance(data, dict):
        raise Malformed("a Build Divide deck file is a JSON object {main, d_deck, territory}", "$")
    for key in ("main", "territory"):
        if key not in data:
            raise Malformed(f"the deck file has no {key!r}", f"$.{key}")
    return data
