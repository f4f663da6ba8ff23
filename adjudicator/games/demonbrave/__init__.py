"""DemonBrave: a two-player battle game played with playing cards and rule cards
(rules/demonbrave.md). ``GAME`` is the reducer registered as ``demonbrave``."""

from adjudicator.games.demonbrave.game import GAME, DemonBrave
from adjudicator.games.demonbrave.explain import compare, explain

__all__ = ["GAME", "DemonBrave", "compare", "explain"]
