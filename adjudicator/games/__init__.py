"""The games, one package each, in one shape (docs/games/adding-a-game.md): ``game.py`` at the top
declares the game on the kit and nothing in the package imports it back; below it the events,
the state, the rules and the view. A game imports only ``adjudicator.engine`` and its own modules."""
