"""House rules: the configuration of rules §11.3. Every flag has a default; the defaults are
standard play. ``match_started.options`` is decoded into ``Config`` (unknown names and bad
values are malformed input, with the option's path)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from adjudicator.fold import malformed_from
from adjudicator.protocol import Malformed, OptionSpec

Category = Literal["FREE", "SET", "RUN"]


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    starting_life: int = 5
    opening_hand: int = 5
    refill_target: int = 5
    rule_cards_per_player: int = 5
    rule_card_pool: Literal["per_player", "shared"] = "per_player"
    allow_duplicate_rule_cards: bool = False
    rule_card_reveal: Literal["simultaneous", "open_sequential"] = "simultaneous"
    mulligan: Literal["none", "one_free"] = "none"
    pair_category_order: tuple[Category, ...] = ("FREE", "SET", "RUN")
    pair_size_rule: Literal["prefix_longer_wins", "size_first", "ignore_size"] = "prefix_longer_wins"
    run_min_length: int = 2
    run_wraparound: bool = False
    joker_in_pair: Literal["wild", "top_card"] = "wild"
    pair_extend: bool = True
    pair_merge: bool = False
    single_vs_pair_trash: Literal["one_chosen", "all_weaker"] = "one_chosen"
    single_vs_pair_tie: Literal["trade", "void"] = "trade"
    weaker_attacking_pair: Literal["void", "trashed"] = "void"
    stronger_blocking_pair: Literal["void", "attacker_trashed"] = "void"
    joker_survives_block: bool = False
    blocks_per_unit_per_turn: int | None = None
    reversal_stacking: Literal["toggle", "idempotent"] = "toggle"
    activations_during_resolution: bool = False
    deck_exhaustion: Literal["draw_available", "lose_on_failed_draw", "reshuffle_trash"] = "draw_available"
    stalemate_idle_turns: int = 4
    simultaneous_zero_life: Literal["draw", "turn_player_wins", "non_turn_player_wins"] = "draw"
    life_cap: int | None = None
    match_games: int = 1
    next_game_first_player: Literal["loser_chooses", "alternate"] = "loser_chooses"
    rewind_scope: Literal["current_turn", "any"] = "current_turn"
    draw_identities_required: bool = False


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(name="starting_life", default=5, values="int >= 1", rule="DB-OVR-2"),
    OptionSpec(name="opening_hand", default=5, values="int 1-54", rule="DB-SETUP-1"),
    OptionSpec(name="refill_target", default=5, values="int >= 1", rule="DB-TURN-4"),
    OptionSpec(name="rule_cards_per_player", default=5, values="int >= 0", rule="DB-DECK-6"),
    OptionSpec(name="rule_card_pool", default="per_player", values="per_player | shared", rule="DB-RUL-14"),
    OptionSpec(name="allow_duplicate_rule_cards", default=False, values="true | false", rule="DB-RUL-14"),
    OptionSpec(name="rule_card_reveal", default="simultaneous", values="simultaneous | open_sequential", rule="DB-RUL-14"),
    OptionSpec(name="mulligan", default="none", values="none | one_free", rule="DB-RUL-27"),
    OptionSpec(name="pair_category_order", default=["FREE", "SET", "RUN"], values="FREE,SET,RUN | FREE,RUN,SET", rule="DB-RUL-1"),
    OptionSpec(name="pair_size_rule", default="prefix_longer_wins", values="prefix_longer_wins | size_first | ignore_size", rule="DB-RUL-2"),
    OptionSpec(name="run_min_length", default=2, values="2 | 3", rule="DB-RUL-3"),
    OptionSpec(name="run_wraparound", default=False, values="true | false", rule="DB-RUL-3"),
    OptionSpec(name="joker_in_pair", default="wild", values="wild | top_card", rule="DB-RUL-4"),
    OptionSpec(name="pair_extend", default=True, values="true | false", rule="DB-RUL-5"),
    OptionSpec(name="pair_merge", default=False, values="true | false", rule="DB-RUL-5"),
    OptionSpec(name="single_vs_pair_trash", default="one_chosen", values="one_chosen | all_weaker", rule="DB-RUL-7"),
    OptionSpec(name="single_vs_pair_tie", default="trade", values="trade | void", rule="DB-RUL-8"),
    OptionSpec(name="weaker_attacking_pair", default="void", values="void | trashed", rule="DB-RUL-9"),
    OptionSpec(name="stronger_blocking_pair", default="void", values="void | attacker_trashed", rule="DB-RUL-10"),
    OptionSpec(name="joker_survives_block", default=False, values="true | false", rule="DB-RUL-11"),
    OptionSpec(name="blocks_per_unit_per_turn", default=None, values="null (unlimited) | int >= 1", rule="DB-RUL-13"),
    OptionSpec(name="reversal_stacking", default="toggle", values="toggle | idempotent", rule="DB-RUL-17"),
    OptionSpec(name="activations_during_resolution", default=False, values="true | false", rule="DB-RUL-16"),
    OptionSpec(name="deck_exhaustion", default="draw_available", values="draw_available | lose_on_failed_draw | reshuffle_trash", rule="DB-RUL-21"),
    OptionSpec(name="stalemate_idle_turns", default=4, values="int >= 0 (0 = off)", rule="DB-RUL-22"),
    OptionSpec(name="simultaneous_zero_life", default="draw", values="draw | turn_player_wins | non_turn_player_wins", rule="DB-RUL-23"),
    OptionSpec(name="life_cap", default=None, values="null | int >= 1", rule="DB-RUL-24"),
    OptionSpec(name="match_games", default=1, values="odd int >= 1", rule="DB-RUL-30"),
    OptionSpec(name="next_game_first_player", default="loser_chooses", values="loser_chooses | alternate", rule="DB-RUL-30"),
    OptionSpec(name="rewind_scope", default="current_turn", values="current_turn | any", rule="DB-RUL-34"),
    OptionSpec(name="draw_identities_required", default=False, values="true | false", rule="DB-RUL-36"),
)


def _bad(name: str, message: str) -> Malformed:
    return Malformed(f"option {name}: {message}", f"$.options.{name}")


def config_from(options: Mapping[str, Any]) -> Config:
    """Decode ``match_started.options``; strings from a command line (``"true"``, ``"3"``,
    ``"FREE,RUN,SET"``) are accepted for their typed values."""
    data = dict(options)
    order = data.get("pair_category_order")
    if isinstance(order, str):
        data["pair_category_order"] = [p.strip().upper() for p in order.strip("[]").split(",") if p.strip()]
    for key in ("blocks_per_unit_per_turn", "life_cap"):
        if isinstance(data.get(key), str) and data[key].strip().lower() in ("null", "none", ""):
            data[key] = None
    try:
        cfg = msgspec.convert(data, Config, strict=False)
    except msgspec.ValidationError as exc:
        m = malformed_from(exc, "match_started", "$.options")
        raise Malformed(f"bad option: {m.message.removeprefix('match_started: ')}", m.path) from None
    if tuple(cfg.pair_category_order) not in (("FREE", "SET", "RUN"), ("FREE", "RUN", "SET")):
        raise _bad("pair_category_order", f"must be FREE,SET,RUN or FREE,RUN,SET, not {','.join(cfg.pair_category_order)}")
    for name, low in (("starting_life", 1), ("opening_hand", 1), ("refill_target", 1), ("rule_cards_per_player", 0), ("run_min_length", 2), ("stalemate_idle_turns", 0)):
        if getattr(cfg, name) < low:
            raise _bad(name, f"must be at least {low}, not {getattr(cfg, name)}")
    if cfg.opening_hand > 54:
        raise _bad("opening_hand", "a deck has only 54 cards")
    if cfg.run_min_length > 13:
        raise _bad("run_min_length", "a run has at most 13 cards")
    if cfg.blocks_per_unit_per_turn is not None and cfg.blocks_per_unit_per_turn < 1:
        raise _bad("blocks_per_unit_per_turn", "must be null (unlimited) or at least 1")
    if cfg.life_cap is not None and cfg.life_cap < cfg.starting_life:
        raise _bad("life_cap", f"must be null or at least the starting life {cfg.starting_life}")
    if cfg.match_games < 1 or cfg.match_games % 2 == 0:
        raise _bad("match_games", f"must be an odd number of games (1, 3, 5...), not {cfg.match_games}")
    return cfg
