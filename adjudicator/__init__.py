"""Reducers, the generic fold and the match service. Imports go one way: cli -> adjudicator -> events."""
