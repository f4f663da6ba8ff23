"""BACDEF events and ops: the chapter's names and fields, as written (rules/bacdef.md §5, §10.2).

Fields marked private in the chapter are listed in ``PRIVATE_FIELDS``; the projection for a
player hides them unless the event is that player's own.
"""

from __future__ import annotations

from typing import Literal, Union

import msgspec

from adjudicator.protocol import Action, Correct, MatchStarted, Rewind

Letter = Literal["A", "B", "C", "D", "E", "F"]


# -- ops (§10.2) --------------------------------------------------------------------------------
class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class Damage(Op, tag="DAMAGE"):
    target: str
    amount: int


class Knock(Op, tag="KNOCK"):
    count: int = 1


class Heal(Op, tag="HEAL"):
    target: str
    amount: int


class Negate(Op, tag="NEGATE"):
    instance: str


class Convert(Op, tag="CONVERT"):
    instance: str


class Lose(Op, tag="LOSE"):
    victim: str
    count: int
    chooser: str = "victim"  # "victim", "opponent", or a player name


class Drop(Op, tag="DROP"):
    card_id: str


class Return(Op, tag="RETURN"):
    card_id: str


class Reveal(Op, tag="REVEAL"):
    card_id: str


class TurnGuard(Op, tag="TURN_GUARD"):
    player: str
    slot: int
    to: Literal["U", "S"]


class Prevent(Op, tag="PREVENT"):
    player: str
    amount: Union[int, Literal["all"]]
    kind: Literal["any", "knock"] = "any"


class Defer(Op, tag="DEFER"):
    ops: tuple["AnyOp", ...]


class Lasting(Op, tag="LASTING"):
    text: str
    until: Literal["end_of_turn", "end_of_next_turn"] = "end_of_turn"


class Note(Op, tag="NOTE"):
    text: str


AnyOp = Union[Damage, Knock, Heal, Negate, Convert, Lose, Drop, Return, Reveal, TurnGuard, Prevent, Defer, Lasting, Note]


# -- catalog (§10.1) ----------------------------------------------------------------------------
class CatalogEntry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # ``class`` and ``fall_skill`` are fixed by the letter; they may be given, and are checked
    # (BAC-EFF-0), so a catalog file can state them for readers.
    class_: Literal["normal", "special"] | None = msgspec.field(default=None, name="class")
    title: str = ""
    text: str = ""
    action_allowed: bool = True
    counter_allowed: bool = True
    battle_effect: bool | None = None  # default: True for A-E, False for F
    knock_skill: bool = False
    fall_skill: bool | None = None
    extra_deploys: int = 0


# -- setup events (§5.2) ------------------------------------------------------------------------
class BacMatchStarted(MatchStarted, tag="match_started"):
    catalog: dict[str, CatalogEntry] = {}
    decks: dict[str, tuple[str, ...]] | None = None


class RegisterDeck(Action, tag="register_deck"):
    player: str
    letters: tuple[str, ...]


class PlaceGuards(Action, tag="place_guards"):
    player: str
    card_ids: tuple[str, ...]


class DecideFirstPlayer(Action, tag="decide_first_player"):
    first_player: str
    method: str = ""
    chosen_by: str | None = None


# -- turn events (§5.3) -------------------------------------------------------------------------
class PlaceFieldCard(Action, tag="place_field_card"):
    player: str
    card_id: str


class DeclareKnock(Action, tag="declare_knock"):
    player: str


class DeclareSkill(Action, tag="declare_skill"):
    player: str
    card_id: str
    extra_of: str | None = None


class FinishDeployment(Action, tag="finish_deployment"):
    player: str


class DeclareThrough(Action, tag="declare_through"):
    player: str


class ChooseResolutionOrder(Action, tag="choose_resolution_order"):
    player: str
    instance_ids: tuple[str, ...]


class ResolveEffect(Action, tag="resolve_effect"):
    instance_id: str
    ops: tuple[AnyOp, ...] = ()


class AssignDamage(Action, tag="assign_damage"):
    player: str
    slots: tuple[int, ...]


class AssignHeal(Action, tag="assign_heal"):
    player: str
    slots: tuple[int, ...]


class ChooseLostCards(Action, tag="choose_lost_cards"):
    player: str
    card_ids: tuple[str, ...]


class ActivateFallSkill(Action, tag="activate_fall_skill"):
    player: str
    card_id: str
    ops: tuple[AnyOp, ...] = ()


class DeclineFallSkill(Action, tag="decline_fall_skill"):
    player: str
    card_id: str


class ApplyEndPhaseEffect(Action, tag="apply_end_phase_effect"):
    source: str
    ops: tuple[AnyOp, ...] = ()


class ConfirmEndPhase(Action, tag="confirm_end_phase"):
    pass


# -- rewind, void, concession (§5.4, §8) --------------------------------------------------------
class BacRewind(Rewind, tag="rewind"):
    cause: Literal["contradiction", "judge_error"] = "contradiction"
    instance_ids: tuple[str, ...] = ()


class DeclareSetVoid(Action, tag="declare_set_void"):
    reason: str


class ConcedeSet(Action, tag="concede_set"):
    player: str


class BacCorrect(Correct, tag="correct"):
    pass


Event = Union[
    BacMatchStarted,
    RegisterDeck,
    PlaceGuards,
    DecideFirstPlayer,
    PlaceFieldCard,
    DeclareKnock,
    DeclareSkill,
    FinishDeployment,
    DeclareThrough,
    ChooseResolutionOrder,
    ResolveEffect,
    AssignDamage,
    AssignHeal,
    ChooseLostCards,
    ActivateFallSkill,
    DeclineFallSkill,
    ApplyEndPhaseEffect,
    ConfirmEndPhase,
    BacRewind,
    DeclareSetVoid,
    ConcedeSet,
    BacCorrect,
]

#: (event type, field) pairs that only the judge and the owning player may see (§9).
PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "register_deck": ("letters",),
    "place_guards": ("card_ids",),
    "place_field_card": ("card_id",),
    "choose_lost_cards": ("card_ids",),
    "decline_fall_skill": ("card_id",),
}

