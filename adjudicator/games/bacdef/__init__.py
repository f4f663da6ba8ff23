"""BACDEF (バックデフ): the game registered as ``bacdef`` (rules/bacdef.md)."""

from adjudicator.games.bacdef.game import GAME, RULES_VERSION, Bacdef
from adjudicator.games.bacdef.state import State, clone

__all__ = ["GAME", "RULES_VERSION", "Bacdef", "State", "clone"]
