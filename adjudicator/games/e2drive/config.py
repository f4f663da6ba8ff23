"""E2Drive house rules (rules/e2drive.md E2D-STATE-7): each option declared once, with its default,
its allowed values and the ruling that governs it. The defaults are the chapter's."""

from typing import Annotated, Literal

import msgspec

from adjudicator.engine.kit import option
from adjudicator.engine.protocol import Malformed


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    simultaneous_loss: Annotated[Literal["draw", "both_lose"], option("E2D-RUL-31")] = "draw"
    turn_limit: Annotated[int, option("E2D-RUL-52", "null (none) | int >= 1", ge=1)] | None = None
    games_per_match: Annotated[int, option("E2D-RUL-34", "odd int >= 1", ge=1)] = 1
    mulligan: Annotated[bool, option("E2D-RUL-33")] = False
    copy_limit_includes_starting_servants: Annotated[bool, option("E2D-RUL-35")] = False
    atk_may_target_own: Annotated[bool, option("E2D-RUL-1")] = False
    def_evade_may_use_master: Annotated[bool, option("E2D-RUL-22")] = True
    quick_tools_in_attack_window: Annotated[bool, option("E2D-RUL-28")] = False
    voluntary_unpayable_damage_card: Annotated[Literal["reject", "lose"], option("E2D-RUL-29")] = "reject"
    change_action_state: Annotated[Literal["inherit", "unacted", "acted"], option("E2D-RUL-16")] = "inherit"
    revive_action_state: Annotated[Literal["keep", "unacted", "acted"], option("E2D-RUL-18")] = "keep"
    until_targeted_counts_own_actions: Annotated[bool, option("E2D-RUL-5")] = True
    buster_overdrive_mode: Annotated[Literal["floor", "add", "recoil"], option("E2D-RUL-6")] = "floor"
    blocker_reflect_requires_def: Annotated[bool, option("E2D-RUL-7")] = True
    blocker_reflect_mode: Annotated[Literal["add", "replace"], option("E2D-RUL-8")] = "add"
    slicer_extra_scope: Annotated[Literal["per_action", "pool"], option("E2D-RUL-10")] = "per_action"
    etherizer_lock_release_on_leave: Annotated[bool, option("E2D-RUL-11")] = True
    etherizer_discount_requires_activation: Annotated[bool, option("E2D-RUL-12")] = False
    overdrive_effects_survive_limited_exit: Annotated[bool, option("E2D-RUL-15")] = True
    invisible_spd_mode: Annotated[Literal["set_then_modify", "fixed"], option("E2D-RUL-25")] = "set_then_modify"
    reuse_voided_random: Annotated[bool, option("E2D-RUL-50")] = True
    max_rewind_turns: Annotated[int, option("E2D-RWD-2", "null (none) | int >= 0", ge=0)] | None = None

    def __post_init__(self) -> None:
        if self.games_per_match % 2 == 0:
            raise Malformed(f"option games_per_match must be an odd number of games (1, 3, 5...), not {self.games_per_match}",
                            "$.options.games_per_match")
