"""Games registered by name, imported only when asked for (keeps `adj` quick to start)."""

from __future__ import annotations

import importlib

from adjudicator.engine.kit import Game
from adjudicator.engine.protocol import Malformed

_GAMES: dict[str, str] = {
    "bacdef": "adjudicator.games.bacdef:GAME",
    "builddivide": "adjudicator.games.builddivide:GAME",
    "demonbrave": "adjudicator.games.demonbrave:GAME",
    "pbwcg": "adjudicator.games.pbwcg:GAME",
    "e2drive": "adjudicator.games.e2drive:GAME",
}
_loaded: dict[str, Game] = {}


def names() -> list[str]:
    return sorted(_GAMES)


def get(name: str) -> Game:
    """The game registered as ``name``; ``Malformed`` naming the known games otherwise."""
    if name in _loaded:
        return _loaded[name]
    target = _GAMES.get(name)
    if target is None:
        raise Malformed(f"unknown game {name!r}; known games: {', '.join(names())}", "$.game")
    module, attr = target.split(":")
    game = vars(importlib.import_module(module))[attr]
    if not isinstance(game, Game):
        raise TypeError(f"{target} is not an adjudicator.engine.kit.Game")
    _loaded[name] = game
    return game


def register(name: str, target: str) -> None:
    """Register a game as ``"package.module:OBJECT"`` (used by tests and plug-ins)."""
    _GAMES[name] = target
    _loaded.pop(name, None)
