"""PBWCG (rules/pbwcg.md), registered as ``pbwcg``."""

from adjudicator.games.pbwcg.game import GAME, Pbwcg

__all__ = ["GAME", "Pbwcg"]
