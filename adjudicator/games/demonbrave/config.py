"""House rules: the configuration of rules §11.3. Every flag has a default; the defaults are
standard play. ``match_started.options`` is decoded into ``Config`` by the kit's
``decode_options`` (unknown names and bad values are malformed input, with the option's path)."""


from typing import Annotated, Literal

import msgspec

from adjudicator.engine.kit import option
from adjudicator.engine.protocol import Malformed

Category = Literal["FREE", "SET", "RUN"]


def _bad(name: str, message: str) -> Malformed:
    return Malformed(f"option {name}: {message}", f"$.options.{name}")


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    starting_life: Annotated[int, option("DB-OVR-2", ge=1)] = 5
    opening_hand: Annotated[int, option("DB-SETUP-1", ge=1, le=54)] = 5
    refill_target: Annotated[int, option("DB-TURN-4", ge=1)] = 5
    rule_cards_per_player: Annotated[int, option("DB-DECK-6", ge=0)] = 5
    rule_card_pool: Annotated[Literal["per_player", "shared"], option("DB-RUL-14")] = "per_player"
    allow_duplicate_rule_cards: Annotated[bool, option("DB-RUL-14")] = False
    rule_card_reveal: Annotated[Literal["simultaneous", "open_sequential"], option("DB-RUL-14")] = "simultaneous"
    mulligan: Annotated[Literal["none", "one_free"], option("DB-RUL-27")] = "none"
    pair_category_order: Annotated[tuple[Category, ...], option("DB-RUL-1", "FREE,SET,RUN | FREE,RUN,SET")] = ("FREE", "SET", "RUN")
    pair_size_rule: Annotated[Literal["prefix_longer_wins", "size_first", "ignore_size"], option("DB-RUL-2")] = "prefix_longer_wins"
    run_min_length: Annotated[int, option("DB-RUL-3", "2 | 3", ge=2, le=13)] = 2
    run_wraparound: Annotated[bool, option("DB-RUL-3")] = False
    joker_in_pair: Annotated[Literal["wild", "top_card"], option("DB-RUL-4")] = "wild"
    pair_extend: Annotated[bool, option("DB-RUL-5")] = True
    pair_merge: Annotated[bool, option("DB-RUL-5")] = False
    single_vs_pair_trash: Annotated[Literal["one_chosen", "all_weaker"], option("DB-RUL-7")] = "one_chosen"
    single_vs_pair_tie: Annotated[Literal["trade", "void"], option("DB-RUL-8")] = "trade"
    weaker_attacking_pair: Annotated[Literal["void", "trashed"], option("DB-RUL-9")] = "void"
    stronger_blocking_pair: Annotated[Literal["void", "attacker_trashed"], option("DB-RUL-10")] = "void"
    joker_survives_block: Annotated[bool, option("DB-RUL-11")] = False
    blocks_per_unit_per_turn: Annotated[int, option("DB-RUL-13", "null (unlimited) | int >= 1", ge=1)] | None = None
    reversal_stacking: Annotated[Literal["toggle", "idempotent"], option("DB-RUL-17")] = "toggle"
    activations_during_resolution: Annotated[bool, option("DB-RUL-16")] = False
    deck_exhaustion: Annotated[Literal["draw_available", "lose_on_failed_draw", "reshuffle_trash"], option("DB-RUL-21")] = "draw_available"
    stalemate_idle_turns: Annotated[int, option("DB-RUL-22", "int >= 0 (0 = off)", ge=0)] = 4
    simultaneous_zero_life: Annotated[Literal["draw", "turn_player_wins", "non_turn_player_wins"], option("DB-RUL-23")] = "draw"
    life_cap: Annotated[int, option("DB-RUL-24", "null | int >= 1", ge=1)] | None = None
    match_games: Annotated[int, option("DB-RUL-30", "odd int >= 1", ge=1)] = 1
    next_game_first_player: Annotated[Literal["loser_chooses", "alternate"], option("DB-RUL-30")] = "loser_chooses"
    rewind_scope: Annotated[Literal["current_turn", "any"], option("DB-RUL-34")] = "current_turn"
    draw_identities_required: Annotated[bool, option("DB-RUL-36")] = False

    def __post_init__(self) -> None:
        """What no single field's type can say (raised with the option's path)."""
        if tuple(self.pair_category_order) not in (("FREE", "SET", "RUN"), ("FREE", "RUN", "SET")):
            raise _bad("pair_category_order", f"must be FREE,SET,RUN or FREE,RUN,SET, not {','.join(self.pair_category_order)}")
        if self.life_cap is not None and self.life_cap < self.starting_life:
            raise _bad("life_cap", f"must be null or at least the starting life {self.starting_life}")
        if self.match_games % 2 == 0:
            raise _bad("match_games", f"must be an odd number of games (1, 3, 5...), not {self.match_games}")


