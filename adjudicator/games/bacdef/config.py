"""BACDEF house rules (rules/bacdef.md §0, BAC-GEN-5): each option declared once, with its
default, its allowed values and the rule that governs it."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from adjudicator.engine.kit import option


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    knock_card_fate: Annotated[Literal["return_to_hand", "drop"], option("BAC-RUL-1")] = "return_to_hand"
    require_each_special: Annotated[bool, option("BAC-RUL-2")] = False
    rebuild_deck_each_set: Annotated[bool, option("BAC-RUL-4")] = True
    first_player_rule: Annotated[Literal["decide_each_set", "loser_chooses"], option("BAC-RUL-6")] = "decide_each_set"
    special_once_scope: Annotated[Literal["per_player", "global"], option("BAC-RUL-7")] = "per_player"
    heal_can_restore_destroyed: Annotated[bool, option("BAC-RUL-9")] = True
    both_hands_empty_rule: Annotated[Literal["defender_wins", "void_set"], option("BAC-RUL-14")] = "defender_wins"
    drop_phase_f_order: Annotated[Literal["defender_first", "attacker_first"], option("BAC-RUL-17")] = "defender_first"
    contradiction_replays: Annotated[int, option("BAC-RUL-22", ge=0)] = 2
    replay_must_repeat: Annotated[bool, option("BAC-RUL-23")] = False
    judge_may_void_early: Annotated[bool, option("BAC-RUL-25")] = True
    void_set_consumes_slot: Annotated[bool, option("BAC-RUL-26")] = False
    void_set_limit: Annotated[int, option("BAC-RUL-26", "int >= 1 | null", ge=1)] | None = 3
    allow_judge_rewind: Annotated[bool, option("BAC-RUL-27")] = True
    allow_concession: Annotated[bool, option("BAC-RUL-35")] = True
