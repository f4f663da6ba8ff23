"""E2Drive: a two-player servant battle card game (rules/e2drive.md). ``GAME`` is the reducer
registered as ``e2drive``."""

from adjudicator.games.e2drive.game import GAME, E2Drive

__all__ = ["GAME", "E2Drive"]
