"""House rules of Build Divide: the flags of rules §11.1, each with its default and its ruling.
``match_started.options`` is decoded into ``Options`` by the kit (an unknown name or value is
malformed input naming the option)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from adjudicator.engine.kit import option


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    best_of: Annotated[Literal[1, 3], option("BD-RUL-14", "1 | 3")] = 1
    first_player_method: Annotated[Literal["RPS", "DIE", "COIN", "JUDGE"], option("BD-RUL-13")] = "RPS"
    next_game_first_player: Annotated[Literal["REDECIDE", "LOSER_CHOOSES"], option("BD-RUL-13")] = "REDECIDE"
    hand_limit: Annotated[int, option("BD-RUL-27", "int >= 0 (5; a territory override changes it)", ge=0)] = 5
    buster_extra_damage: Annotated[Literal[1, 0], option("BD-RUL-2", "1 | 0")] = 1
    shot_mode: Annotated[Literal["PLAY_WITH_COST", "NONE"], option("BD-RUL-3")] = "PLAY_WITH_COST"
    recompute_hit_each_point: Annotated[bool, option("BD-RUL-5")] = True
    effect_damage_trigger_checks: Annotated[bool, option("BD-RUL-7")] = True
    life_fallback_all_draws: Annotated[bool, option("BD-RUL-9")] = True
    simultaneous_loss_result: Annotated[Literal["DRAW", "TURN_PLAYER_LOSES", "TURN_PLAYER_WINS"], option("BD-RUL-11")] = "DRAW"
    allow_overpay: Annotated[bool, option("BD-RUL-18")] = False
    strict_priority: Annotated[bool, option("BD-RUL-19")] = False
    trigger_order: Annotated[Literal["APNAP", "NAPAP"], option("BD-RUL-20")] = "APNAP"
    release_requires_hand_play: Annotated[bool, option("BD-RUL-28")] = True
    release_reduction_order: Annotated[Literal["GENERIC_FIRST", "COLOUR_FIRST"], option("BD-RUL-28")] = "GENERIC_FIRST"
    d_deck_allows_territory: Annotated[bool, option("BD-RUL-31")] = True
    copy_limit_includes_territory: Annotated[bool, option("BD-RUL-31")] = True
    identity_check: Annotated[Literal["REJECT", "WARN"], option("BD-RUL-40")] = "REJECT"
    rewind_scope: Annotated[Literal["CURRENT_TURN", "CURRENT_GAME"], option("BD-RUL-43")] = "CURRENT_TURN"
    rewind_card_return: Annotated[Literal["DECK_TOP", "SHUFFLE"], option("BD-RUL-43")] = "DECK_TOP"
    illegal_deck_policy: Annotated[Literal["JUDGE_DECIDES", "GAME_LOSS", "VOID"], option("BD-RUL-44")] = "JUDGE_DECIDES"
