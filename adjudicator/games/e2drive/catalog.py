"""The sample catalog (a sample, not real cards: the seed has no card list; names starting with
``F-`` are the chapter's test fixtures of §13). Used by ``adj deck check`` when a deck file brings
no catalog of its own; ``fixtures/e2drive/catalog.sample.json`` is the same data."""

from __future__ import annotations

from adjudicator.games.e2drive.events import Catalog, ServantCard, ToolCard


def _s(name: str, type_: str, dur: int, atk: int, df: int, spd: int, invisible: bool = False) -> ServantCard:
    return ServantCard(name=name, type=type_, DUR=dur, ATK=atk, DEF=df, SPD=spd, starts_invisible=invisible)


def _t(name: str, kind: int, cost: int, upkeep: int = 0, declared: bool = False) -> ToolCard:
    return ToolCard(name=name, kind=kind, cost=cost, upkeep=upkeep, field_declared=declared)


SERVANTS = [
    _s("F-Alpha", "Buster", 60, 50, 20, 40),
    _s("F-Kappa", "Blocker", 40, 30, 30, 20),
    _s("F-Sigma", "Irregular", 60, 40, 20, 50),
    _s("F-Beta", "Slicer", 40, 30, 10, 30),
    _s("F-Gamma", "Restorer", 50, 30, 20, 30),
    _s("F-Delta", "Etherizer", 50, 30, 20, 20),
    _s("F-Epsilon", "Junker", 50, 30, 20, 20),
    _s("F-Lambda", "Blocker", 30, 20, 30, 20),
    _s("F-Mu", "Irregular", 50, 30, 30, 30),
    _s("F-Rho", "Blocker", 70, 20, 60, 10),
    _s("F-Shade", "Slicer", 40, 50, 30, 50, invisible=True),
]
TOOLS = [
    _t("F-Tool-1", 1, 1),
    _t("F-Tool-3", 1, 3),
    _t("F-Quick-1", 4, 1),
    _t("F-Gear", 2, 1),
    _t("F-Field-U", 3, 1, upkeep=1),
    _t("F-Field-A", 3, 0, upkeep=3),
    _t("F-Field-B", 3, 0, upkeep=3),
    _t("F-Field-D", 3, 1, declared=True),
]

SAMPLE = Catalog(servants={c.name: c for c in SERVANTS}, tools={c.name: c for c in TOOLS})
