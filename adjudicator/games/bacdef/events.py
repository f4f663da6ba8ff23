"""BACDEF events: the chapter's names and fields, as written (rules/bacdef.md §5; the ops they
carry are in ``ops.py``, the catalog entries in ``catalog.py``).

Fields marked private in the chapter are listed in ``PRIVATE_FIELDS``; the projection for a
player hides them unless the event is that player's own.
"""

from __future__ import annotations

from typing import Literal, Union

from adjudicator.games.bacdef.catalog import CatalogEntry
from adjudicator.games.bacdef.ops import AnyOp
from adjudicator.engine.protocol import Action, Correct, MatchStarted, Rewind


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

#: the decisions a replay must repeat under ``replay_must_repeat`` (BAC-REW-6)
PlayerDecision = Union[
    PlaceFieldCard,
    DeclareKnock,
    DeclareSkill,
    FinishDeployment,
    DeclareThrough,
    ChooseResolutionOrder,
    AssignDamage,
    AssignHeal,
    ChooseLostCards,
    ActivateFallSkill,
    DeclineFallSkill,
]

#: (event type, field) pairs that only the judge and the owning player may see (§9).
PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "match_started": ("decks",),  # each player sees their own list (BAC-SETUP-1, BAC-RUL-32)
    "register_deck": ("letters",),
    "place_guards": ("card_ids",),
    "place_field_card": ("card_id",),
    "choose_lost_cards": ("card_ids",),
    "decline_fall_skill": ("card_id",),
}

