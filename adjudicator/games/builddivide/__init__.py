"""Build Divide: a two-player trading card game of units, energy, a life zone and a territory
(rules/builddivide.md). ``GAME`` is the reducer registered as ``builddivide``."""

from adjudicator.games.builddivide.game import GAME, BuildDivide

__all__ = ["GAME", "BuildDivide"]
