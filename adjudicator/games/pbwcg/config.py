"""PBWCG match options (rules/pbwcg.md PBW-OVR-12): the local rules A-F and the rulings that are
options, each declared once with its default, its allowed values and the rule that governs it."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from adjudicator.engine.kit import option

Attr = Literal["BODY", "TECH", "MIND"]

#: PBW-RUL-2: BODY > TECH > MIND > BODY
DEFAULT_SUPERIORITY: tuple[tuple[Attr, Attr], ...] = (("BODY", "TECH"), ("TECH", "MIND"), ("MIND", "BODY"))


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    judge_present: Annotated[bool, option("PBW-OVR-1")] = False
    local_A_delayed_recovery: Annotated[bool, option("PBW-LIM-14")] = False
    local_B_no_corrections: Annotated[bool, option("PBW-COR-8")] = False
    local_C_judge_errors: Annotated[Literal["off", "C", "C_alpha"], option("PBW-COR-9")] = "off"
    player_count: Annotated[int, option("PBW-RUL-47", "int >= 2, the number of players (3 or more: local rule D)", ge=2)] = 2
    base_endurance: Annotated[int, option("PBW-LIM-10", ge=1)] = 8
    local_F_exclude_holy_grail: Annotated[bool, option("PBW-DECK-7")] = False
    custom_rules: Annotated[tuple[str, ...], option("PBW-OVR-13", "list of text")] = ()
    slot_numbering: Annotated[Literal["column_major", "row_major"], option("PBW-RUL-1")] = "column_major"
    superiority: Annotated[
        tuple[tuple[Attr, Attr], ...], option("PBW-RUL-2", "list of [superior, inferior] attribute pairs")
    ] = DEFAULT_SUPERIORITY
    simultaneous_defeat: Annotated[Literal["draw", "active_player_wins"], option("PBW-RUL-3")] = "draw"
    best_of: Annotated[int, option("PBW-RUL-5", "odd int >= 1 (only 1 is played here)", ge=1)] = 1
    summon_support_in_deck: Annotated[bool, option("PBW-RUL-8")] = False
    speed_includes_weapon_tech: Annotated[bool, option("PBW-RUL-16")] = False
    overweight_basis: Annotated[Literal["excess", "total"], option("PBW-RUL-17")] = "excess"
    two_hand_blocks_one_hand: Annotated[bool, option("PBW-RUL-18")] = False
    validate_range: Annotated[bool, option("PBW-RUL-30")] = False
    ability_bs_exemption: Annotated[Literal["self_only", "all_ability"], option("PBW-RUL-33")] = "self_only"
    support_hits_reduce_pl_hp: Annotated[bool, option("PBW-RUL-37")] = False
    support_vanishes_with_master: Annotated[bool, option("PBW-RUL-37")] = True
    allow_record_fixes: Annotated[bool, option("PBW-RUL-45")] = True
