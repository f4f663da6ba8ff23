"""Registrations and the catalog (E2D-DECK-6…12): every problem, one ``Violation`` each."""

from __future__ import annotations

from collections import Counter

import msgspec

from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.events import SERVANT_TYPES, Catalog, Registration
from adjudicator.engine.protocol import Violation


def catalog_problems(catalog: Catalog) -> list[Violation]:
    """E2D-DECK-11 (E2D-RUL-24): stats in multiples of 10, DUR >= 0, a known type and kind, costs >= 0."""
    out = []
    for cid, s in catalog.servants.items():
        for name, v in (("DUR", s.DUR), ("ATK", s.ATK), ("DEF", s.DEF), ("SPD", s.SPD)):
            if v % 10:
                out.append(Violation("E2D-DECK-11", f"catalog {cid}: {name} {v} is not a multiple of 10", "CATALOG"))
        if s.DUR < 0:
            out.append(Violation("E2D-DECK-11", f"catalog {cid}: DUR {s.DUR} is below 0", "CATALOG"))
        if s.type not in SERVANT_TYPES:
            out.append(Violation("E2D-DECK-11", f"catalog {cid}: type {s.type!r} is not one of {', '.join(SERVANT_TYPES)}",
                                 "CATALOG"))
    for cid, t in catalog.tools.items():
        if t.kind not in (1, 2, 3, 4):
            out.append(Violation("E2D-DECK-11", f"catalog {cid}: kind {t.kind} is not 1, 2, 3 or 4", "CATALOG"))
        if t.cost < 0 or t.upkeep < 0:
            out.append(Violation("E2D-DECK-11", f"catalog {cid}: cost and upkeep are whole numbers >= 0", "CATALOG"))
    for cid in set(catalog.servants) & set(catalog.tools):
        out.append(Violation("E2D-DECK-11", f"catalog id {cid!r} is both a servant and a tool", "CATALOG"))
    return out


def registration_problems(reg: Registration, catalog: Catalog, options: Options, who: str = "") -> list[Violation]:
    """E2D-DECK-6…10 for one player's registration."""
    lead = f"{who}: " if who else ""
    out = []
    if len(reg.deck) != 30:
        out.append(Violation("E2D-DECK-6", f"{lead}the deck has {len(reg.deck)} cards; it must have exactly 30", "DECK"))
    unknown = sorted({c for c in reg.deck if c not in catalog.servants and c not in catalog.tools})
    if unknown:
        out.append(Violation("E2D-DECK-7", f"{lead}not in the catalog: {', '.join(unknown)}", "DECK"))

    def name(c: str) -> str:
        entry = catalog.servants.get(c) or catalog.tools.get(c)
        return entry.name if entry is not None else c

    counted = list(reg.deck) + (list(reg.servants) if options.copy_limit_includes_starting_servants else [])
    for n, k in sorted(Counter(name(c) for c in counted).items()):
        if k > 3:
            out.append(Violation("E2D-DECK-8", f"{lead}{k} cards named {n}; at most 3 of a name", "DECK"))
    if len(reg.servants) != 3:
        out.append(Violation("E2D-DECK-9", f"{lead}{len(reg.servants)} starting servants; exactly 3 are registered", "DECK"))
    not_servants = [c for c in reg.servants if c not in catalog.servants]
    if not_servants:
        out.append(Violation("E2D-DECK-9", f"{lead}starting servants must be servant cards: {', '.join(not_servants)}",
                             "DECK"))
    names = [name(c) for c in reg.servants]
    dup = sorted(n for n, k in Counter(names).items() if k > 1)
    if dup:
        out.append(Violation("E2D-DECK-10", f"{lead}starting servants share a name: {', '.join(dup)}", "DECK"))
    return out


class DeckFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A deck file for ``adj deck check``: a registration, with the catalog it uses inline."""

    deck: tuple[str, ...]
    servants: tuple[str, ...] = ()
    catalog: Catalog | None = None  # None: the sample catalog
    note: str = ""
