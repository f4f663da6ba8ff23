"""PBWCG events, ops and registered cards, with the chapter's names and fields (rules/pbwcg.md
§5, §10) in the encoding of §15. Every event is a tagged, frozen Struct; a typo is malformed input."""

from __future__ import annotations

from typing import Annotated, Literal, Union

import msgspec

from adjudicator.engine.protocol import Action, Correct, MatchStarted, Rewind

Attr = Literal["BODY", "TECH", "MIND"]
MainAttr = Literal["BODY", "TECH", "MIND", "NONE"]
Die = Annotated[int, msgspec.Meta(ge=1, le=6)]
Basis = Literal["forgotten_check", "judge_error", "record_fix", ""]


class _S(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


# -- registered cards (PBW-DECK-2, §15) -----------------------------------------------------------
class Ability(_S):
    name: str
    attribute: MainAttr = "NONE"
    modifier: int = 0
    wp_cost: int = 0
    text: str = ""


class CardDef(_S):
    """One registered card; the fields its ``card_type`` needs are checked by PBW-DECK-2/-9."""

    id: str
    card_type: Literal["PC", "EQUIPMENT", "SET", "SUPPORT"]
    name: str
    world: str | None = None
    hp: int | None = None
    stats: dict[str, int] | None = None
    main_attribute: MainAttr | None = None
    wp: int | None = None
    sp: int | None = None
    race: str | None = None
    class_: str | None = msgspec.field(default=None, name="class")
    traits: str | None = None
    abilities: tuple[Ability, ...] = ()
    kind: Literal["WEAPON", "ARMOR"] | None = None
    part: Literal["ONE_HAND", "TWO_HAND", "HEAD", "FOOT", "OUTER", "NORMAL", "UNDER"] | None = None
    mods: dict[str, int] | None = None
    weight: int | None = None
    category: Literal["RECOVERY", "SUMMON", "FIELD", "MAGIC", "M", "OTHER"] | None = None
    text: str | None = None
    cp: int | None = None
    endurance_max: int | None = None


class PlayerDeck(_S):
    deck: tuple[CardDef, ...] = ()
    support_list: tuple[CardDef, ...] = ()


# -- checks (§5) --------------------------------------------------------------------------------
class Check(_S):
    """A 1/2 test (PBW-HID-4): odd/even against a die, or ``method: other`` with its result."""

    declarer: str
    roller: str
    declared: Literal["odd", "even"] | None = None
    die: Die | None = None
    method: Literal["other"] | None = None
    success: bool | None = None
    override_roles: bool = False


class Checks(_S):
    evasion: tuple[Check, ...] = ()
    receipt: Check | None = None


# -- ops (§10) ----------------------------------------------------------------------------------
class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class Mods(_S):
    stat: dict[str, int] = {}
    attack: dict[str, int] = {}
    defense: dict[str, int] = {}
    speed: int = 0
    evasion: int = 0


class HpDamage(Op, tag="hp_damage"):
    player: str
    n: Annotated[int, msgspec.Meta(ge=0)]


class HpHeal(Op, tag="hp_heal"):
    player: str
    n: Annotated[int, msgspec.Meta(ge=0)]


class HpAdjust(Op, tag="hp_adjust"):
    player: str
    delta: int


class AttackOp(Op, tag="attack"):
    value: int
    targets: tuple[str, ...]
    attribute: MainAttr = "NONE"
    single_target: bool = True
    evasion_tag: bool = False
    bs: str | None = None
    break_ops: tuple["AnyOp", ...] = ()
    checks: dict[str, Checks] = {}
    no_evasion: bool = False


class EnduranceDamage(Op, tag="endurance_damage"):
    character: str
    n: Annotated[int, msgspec.Meta(ge=0)]


class EnduranceHeal(Op, tag="endurance_heal"):
    character: str
    n: Annotated[int, msgspec.Meta(ge=0)]


class WpChange(Op, tag="wp_change"):
    pc: str
    delta: int


class Draw(Op, tag="draw"):
    player: str
    cards: tuple[str, ...]


class DiscardFromHand(Op, tag="discard_from_hand"):
    player: str
    cards: tuple[str, ...]


class MoveCard(Op, tag="move_card"):
    card: str
    from_: Literal["deck", "hand", "discard", "removed"] = msgspec.field(name="from")
    to: Literal["deck", "hand", "discard", "removed"]
    position: Literal["top", "bottom", "shuffled"] | None = None


class SummonPc(Op, tag="summon_pc"):
    player: str
    card: str
    slot: int
    add_hp: bool = True


class SummonSupport(Op, tag="summon_support"):
    card: str
    field_player: str
    master: str


class Incapacitate(Op, tag="incapacitate"):
    character: str


BsSource = Literal["attack", "ability_self", "ability_other", "set_card", "field", "other"]


class ApplyBs(Op, tag="apply_bs"):
    character: str
    bs: str
    source: BsSource = "other"
    break_ops: tuple["AnyOp", ...] = ()
    check: Check | None = None


class RemoveBs(Op, tag="remove_bs"):
    character: str
    bs: str


class ApplyStatus(Op, tag="apply_status"):
    target: str
    name: str
    mods: Mods = Mods()
    duration: Union[Annotated[int, msgspec.Meta(ge=1)], Literal["end_of_turn", "permanent"]] = "permanent"
    bracketed: bool = False


class RemoveStatus(Op, tag="remove_status"):
    target: str
    name: str


class Reposition(Op, tag="reposition"):
    pc: str
    slot: int


class SetField(Op, tag="set_field"):
    card: str
    duration: Annotated[int, msgspec.Meta(ge=1)] | None = None


class ClearField(Op, tag="clear_field"):
    pass


class SetMaxPcCount(Op, tag="set_max_pc_count"):
    player: str
    n: Annotated[int, msgspec.Meta(ge=1)]


class MarkSpecialHand(Op, tag="mark_special_hand"):
    card: str
    special: bool = True


class SetEnduranceMax(Op, tag="set_endurance_max"):
    character: str
    n: Annotated[int, msgspec.Meta(ge=0)]


class GrantAction(Op, tag="grant_action"):
    character: str
    n: Annotated[int, msgspec.Meta(ge=1)] = 1


class Note(Op, tag="note"):
    text: str


AnyOp = Union[
    HpDamage, HpHeal, HpAdjust, AttackOp, EnduranceDamage, EnduranceHeal, WpChange, Draw, DiscardFromHand,
    MoveCard, SummonPc, SummonSupport, Incapacitate, ApplyBs, RemoveBs, ApplyStatus, RemoveStatus, Reposition,
    SetField, ClearField, SetMaxPcCount, MarkSpecialHand, SetEnduranceMax, GrantAction, Note,
]


class AbilityData(_S):
    name: str = ""
    attribute: MainAttr = "NONE"
    modifier: int = 0
    wp_cost: Annotated[int, msgspec.Meta(ge=0)] = 0
    single_target: bool = True
    evasion_tag: bool = False
    bs: str | None = None
    break_ops: tuple[AnyOp, ...] = ()


class Persistent(_S):
    duration: Annotated[int, msgspec.Meta(ge=1)] | None = None


class CardAttack(_S):
    """The attack of a MAGIC (or other) set card: the value and attribute the card states."""

    value: int
    targets: tuple[str, ...]
    attribute: MainAttr = "NONE"
    single_target: bool = True
    bs: str | None = None
    break_ops: tuple[AnyOp, ...] = ()
    checks: dict[str, Checks] = {}


# -- events (§5) --------------------------------------------------------------------------------
class PbwMatchStarted(MatchStarted, tag="match_started"):
    decks: dict[str, PlayerDeck] = {}


class PbwRewind(Rewind, tag="rewind"):
    basis: Basis = ""
    confirmations: tuple[str, ...] = ()
    disadvantaged: str | None = None


class PbwCorrect(Correct, tag="correct"):
    basis: Basis = ""
    confirmations: tuple[str, ...] = ()
    disadvantaged: str | None = None


class InitialPcsPlaced(Action, tag="initial_pcs_placed"):
    player: str
    pcs: tuple[str, ...]


class BattleStarted(Action, tag="battle_started"):
    confirmations: tuple[str, ...] = ()


class TurnStarted(Action, tag="turn_started"):
    turn: int


class TieBreak(Action, tag="tie_break"):
    members: tuple[str, ...]
    order: tuple[str, ...]
    assignment: dict[str, tuple[int, ...]] | None = None
    rolls: tuple[Die, ...] | None = None
    method: Literal["other"] | None = None
    confirmations: tuple[str, ...] = ()  # method other entered without the judge (§15)


class CardsDrawn(Action, tag="cards_drawn"):
    player: str
    cards: tuple[str, ...]


class CardSet(Action, tag="card_set"):
    player: str
    card: str
    set_slot: int


class PcSummoned(Action, tag="pc_summoned"):
    player: str
    card: str
    slot: int


class Equipped(Action, tag="equipped"):
    player: str
    card: str
    pc: str


class SetCardDiscarded(Action, tag="set_card_discarded"):
    player: str
    set_slot: int


class SetCardActivated(Action, tag="set_card_activated"):
    player: str
    set_slot: int
    ops: tuple[AnyOp, ...] = ()
    persistent: Persistent | None = None
    attack: CardAttack | None = None


class PlTurnEnded(Action, tag="pl_turn_ended"):
    player: str


class FieldEffect(Action, tag="field_effect"):
    source: str
    ops: tuple[AnyOp, ...] = ()


class FieldStepEnded(Action, tag="field_step_ended"):
    pass


class MainTurnStarted(Action, tag="main_turn_started"):
    actor: str


class BsEffect(Action, tag="bs_effect"):
    actor: str
    bs: str
    ops: tuple[AnyOp, ...] = ()


class EquipmentDiscarded(Action, tag="equipment_discarded"):
    pc: str
    cards: tuple[str, ...]


#: the range printed on an attack or ability (§15; checked under validate_range, PBW-RUL-30)
Range = Annotated[int, msgspec.Meta(ge=0)]


class NormalAttack(Action, tag="normal_attack"):
    actor: str
    target: str
    evasion_tag: bool = False
    bs: str | None = None
    break_ops: tuple[AnyOp, ...] = ()
    checks: Checks | None = None
    range: Range | None = None


class AbilityUsed(Action, tag="ability_used"):
    actor: str
    ability: AbilityData
    targets: tuple[str, ...] = ()
    checks: dict[str, Checks] = {}
    ops: tuple[AnyOp, ...] = ()
    range: Range | None = None


class Move(Action, tag="move"):
    actor: str
    to_slot: int


class Wait(Action, tag="wait"):
    actor: str


class MainTurnEnded(Action, tag="main_turn_ended"):
    actor: str


class BsRecoveryCheck(Action, tag="bs_recovery_check"):
    actor: str
    bs: str
    check: Check


class TurnEnded(Action, tag="turn_ended"):
    pass


class HandDiscarded(Action, tag="hand_discarded"):
    player: str
    cards: tuple[str, ...]


class Effect(Action, tag="effect"):
    source: str
    ops: tuple[AnyOp, ...] = ()
    confirmations: tuple[str, ...] = ()


class ChoiceMade(Action, tag="choice_made"):
    subject: str
    card: str
    kind: Literal["equipment"] = "equipment"


class Surrender(Action, tag="surrender"):
    player: str


class DrawAgreed(Action, tag="draw_agreed"):
    confirmations: tuple[str, ...] = ()


class ResultConfirmed(Action, tag="result_confirmed"):
    confirmations: tuple[str, ...] = ()


class NextBattle(Action, tag="next_battle"):
    """§15, PBW-RUL-5: the next battle of a match of several (``best_of`` > 1)."""

    battle: int


Event = Union[
    PbwMatchStarted, PbwRewind, PbwCorrect, InitialPcsPlaced, BattleStarted, TurnStarted, TieBreak, CardsDrawn,
    CardSet, PcSummoned, Equipped, SetCardDiscarded, SetCardActivated, PlTurnEnded, FieldEffect, FieldStepEnded,
    MainTurnStarted, BsEffect, EquipmentDiscarded, NormalAttack, AbilityUsed, Move, Wait, MainTurnEnded,
    BsRecoveryCheck, TurnEnded, HandDiscarded, Effect, ChoiceMade, Surrender, DrawAgreed, ResultConfirmed, NextBattle,
]

#: PBW-HID-1: the identities a player's own events carry and the opponent may not see; each
#: player's deck list and support list in ``match_started`` are that player's (PBW-ACT-2)
PRIVATE_FIELDS = {
    "match_started": ("decks",),
    "initial_pcs_placed": ("pcs",),
    "cards_drawn": ("cards",),
    "card_set": ("card",),
}
