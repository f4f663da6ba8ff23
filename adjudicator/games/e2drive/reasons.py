"""How an E2Drive game or match ends, and those endings in the table's words."""

from __future__ import annotations

import enum


class Reason(enum.StrEnum):
    """How an E2Drive game or match ended (E2D-OVR-3…5, -8, E2D-RWD-10)."""

    DAMAGE_CARDS = "damage_cards"  # a 4th damage card
    FAILED_DRAW = "failed_draw"  # a draw from an empty deck
    FAILED_PLACEMENT = "failed_placement"  # a damage card with an empty deck
    CONCESSION = "concession"
    SIMULTANEOUS = "simultaneous"  # both lost in one event
    TURN_LIMIT = "turn_limit"  # house rule turn_limit
    VOID = "void"  # void_game / void_match
    MAJORITY = "majority"  # best of N: a majority of games
    GAMES_USED = "games_used"  # best of N: the games are used up without a majority


TEXT = {
    Reason.DAMAGE_CARDS: "the loser's 4th damage card", Reason.FAILED_DRAW: "the loser could not draw",
    Reason.FAILED_PLACEMENT: "the loser's deck could not supply a damage card", Reason.CONCESSION: "concession",
    Reason.SIMULTANEOUS: "both players lost in the same event", Reason.TURN_LIMIT: "the turn limit was reached",
    Reason.VOID: "voided by the judge", Reason.MAJORITY: "a majority of the games",
    Reason.GAMES_USED: "the games are used up without a majority",
}
