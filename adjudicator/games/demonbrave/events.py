"""DemonBrave events and primitive ops, with the chapter's names and fields (rules §5, §10.1).

Differences from the chapter, all additive (docs/games/demonbrave.md, "Events"):
- ``player`` is optional on play events: left out, it is the author (``by``) or, for the
  judge, the player the action belongs to (the turn player; the attacked player for
  ``declare_block``), as the chapter's examples write it.
- ``match_started`` may carry a ``catalog`` (rule cards) replacing the shipped sample.
- ops that name cards or units take an optional ``player`` (the owner): both decks hold the
  same 54 ids, so ``S3`` alone may be on both fields.
"""


from typing import Any, Literal, Union

import msgspec

from adjudicator.engine.protocol import Action, Correct, MatchStarted, Rewind

Zone = Literal["deck", "hand", "field", "trash"]
StatusName = Literal["CANNOT_ATTACK", "CANNOT_BLOCK", "CANNOT_BE_ATTACKED", "CANNOT_BE_TRASHED", "MAY_ATTACK_PLAYER", "CANNOT_ACTIVATE"]


class Duration(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``END_PHASE`` of turn ``turn`` (default: the current turn, also written ``CURRENT``),
    ``PERMANENT``, or ``LEAVES_FIELD`` (until the card leaves the field)."""

    kind: Literal["END_PHASE", "PERMANENT", "LEAVES_FIELD"] = "END_PHASE"
    turn: int | Literal["CURRENT"] | None = None


# -- primitive ops (§10.1) ----------------------------------------------------------------------
class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class LoseLife(Op, tag="LOSE_LIFE"):  # OP-1
    player: str
    amount: int


class GainLife(Op, tag="GAIN_LIFE"):  # OP-2
    player: str
    amount: int


class DrawOp(Op, tag="DRAW"):  # OP-3
    player: str
    count: int
    cards: tuple[str, ...] | None = None


class Discard(Op, tag="DISCARD"):  # OP-4
    player: str
    cards: tuple[str, ...]


class Trash(Op, tag="TRASH"):  # OP-5
    cards: tuple[str, ...]
    player: str | None = None


class Move(Op, tag="MOVE"):  # OP-6
    card: str
    from_: Zone = msgspec.field(name="from")
    to: Zone
    deck_pos: Literal["top", "bottom", "shuffle"] | None = None
    player: str | None = None


class ShuffleDeck(Op, tag="SHUFFLE_DECK"):  # OP-7
    player: str


class Reveal(Op, tag="REVEAL"):  # OP-8
    player: str
    cards: tuple[str, ...]
    from_: Zone = msgspec.field(name="from", default="hand")


class ReverseOrder(Op, tag="REVERSE_ORDER"):  # OP-9
    scope: Literal["ALL"] = "ALL"
    duration: Duration = Duration()


class ModifyStrength(Op, tag="MODIFY_STRENGTH"):  # OP-10
    card: str
    mode: Literal["SET_NUMBER", "SHIFT"]
    value: int | str
    duration: Duration = Duration()
    player: str | None = None


class SetStatus(Op, tag="SET_STATUS"):  # OP-11
    target: str
    status: StatusName
    duration: Duration = Duration(kind="LEAVES_FIELD")
    player: str | None = None


class ClearStatus(Op, tag="CLEAR_STATUS"):  # OP-12
    target: str
    status: StatusName
    player: str | None = None


class ResetAttack(Op, tag="RESET_ATTACK"):  # OP-13
    unit: str
    player: str | None = None


class FormPairOp(Op, tag="FORM_PAIR"):  # OP-14
    units: tuple[str, ...]
    player: str | None = None


class RemoveFromPair(Op, tag="REMOVE_FROM_PAIR"):  # OP-15
    card: str
    player: str | None = None


class NegateOp(Op, tag="NEGATE"):  # OP-16
    entry_id: str


class CancelAttack(Op, tag="CANCEL_ATTACK"):  # OP-17
    pass


class NoteOp(Op, tag="NOTE"):  # OP-18
    text: str


AnyOp = Union[
    LoseLife, GainLife, DrawOp, Discard, Trash, Move, ShuffleDeck, Reveal, ReverseOrder, ModifyStrength,
    SetStatus, ClearStatus, ResetAttack, FormPairOp, RemoveFromPair, NegateOp, CancelAttack, NoteOp,
]


# -- rule-card catalog (§10.3, DB-EFF-10) -------------------------------------------------------
class Effect(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    effect_id: str
    summary: str = ""
    usable_in_opponent_turn: bool | None = None
    limit_per_turn: int | None = None
    limit_per_game: int | None = None
    trigger: str | None = None
    #: ops with placeholders: "$TARGET" (the first of ``targets``), "$CONTROLLER", "$OPPONENT".
    canonical_ops: tuple[dict[str, Any], ...] | None = None


class RuleCard(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    label: str = ""
    source: str = ""
    effects: tuple[Effect, ...] = ()


# -- setup events (§5.2) ------------------------------------------------------------------------
class DbMatchStarted(MatchStarted, tag="match_started"):
    decks: dict[str, tuple[str, ...]] | None = None
    catalog: tuple[RuleCard, ...] | None = None


class GameStarted(Action, tag="game_started"):
    game_index: int


class DeckRegistered(Action, tag="deck_registered"):
    player: str
    cards: tuple[str, ...]


class RuleCardsSelected(Action, tag="rule_cards_selected"):
    rule_cards: tuple[str, ...]
    player: str | None = None


class FirstPlayerDecided(Action, tag="first_player_decided"):
    first_player: str
    method: Literal["rps", "coin", "other"] = "other"


class DecksShuffled(Action, tag="decks_shuffled"):
    pass


class OpeningHandsDrawn(Action, tag="opening_hands_drawn"):
    p1_cards: tuple[str, ...] | None = None
    p2_cards: tuple[str, ...] | None = None


class Mulligan(Action, tag="mulligan"):
    player: str
    take: bool


# -- play events (§5.3) -------------------------------------------------------------------------
class Draw(Action, tag="draw"):
    count: int
    cards: tuple[str, ...] | None = None
    player: str | None = None


class AdvancePhase(Action, tag="advance_phase"):
    player: str | None = None


class PlayCard(Action, tag="play_card"):
    card: str
    player: str | None = None


class FormPair(Action, tag="form_pair"):
    units: tuple[str, ...]
    player: str | None = None


class ActivateEffect(Action, tag="activate_effect"):
    rule_card: str
    effect_id: str
    targets: tuple[str, ...] = ()
    cost_ops: tuple[AnyOp, ...] = ()
    judge_asserted: bool = False
    player: str | None = None


class ResolveChainEntry(Action, tag="resolve_chain_entry"):
    entry_id: str
    ops: tuple[AnyOp, ...] | None = None


class DeclareAttack(Action, tag="declare_attack"):
    attacker: str
    target: str  # a unit id of the opponent's field, or PLAYER
    player: str | None = None


class DeclareBlock(Action, tag="declare_block"):
    blocker: str | None  # null = no block; required, so that "no block" is said, not assumed
    player: str | None = None


class ResolveBattle(Action, tag="resolve_battle"):
    choice: str | None = None


class Concede(Action, tag="concede"):
    player: str


# -- judge events (§8) --------------------------------------------------------------------------
class DbRewind(Rewind, tag="rewind"):
    judge_override: bool = False


class DbCorrect(Correct, tag="correct"):
    judge_override: bool = False


class JudgeAdjust(Action, tag="judge_adjust"):
    ops: tuple[AnyOp, ...]
    reason: str


class DeclareResult(Action, tag="declare_result"):
    outcome: Literal["WIN", "DRAW"]
    reason: str
    winner: str | None = None


class VoidGame(Action, tag="void_game"):
    reason: str


Event = Union[
    DbMatchStarted,
    GameStarted,
    DeckRegistered,
    RuleCardsSelected,
    FirstPlayerDecided,
    DecksShuffled,
    OpeningHandsDrawn,
    Mulligan,
    Draw,
    AdvancePhase,
    PlayCard,
    FormPair,
    ActivateEffect,
    ResolveChainEntry,
    DeclareAttack,
    DeclareBlock,
    ResolveBattle,
    Concede,
    DbRewind,
    DbCorrect,
    JudgeAdjust,
    DeclareResult,
    VoidGame,
]

SETUP_EVENTS = (GameStarted, DeckRegistered, RuleCardsSelected, FirstPlayerDecided, DecksShuffled, OpeningHandsDrawn, Mulligan)
PLAY_EVENTS = (Draw, AdvancePhase, PlayCard, FormPair, ActivateEffect, ResolveChainEntry, DeclareAttack, DeclareBlock, ResolveBattle, Concede)

#: (event type, field) pairs only the judge and the acting player may see (§9, DB-HID-1).
PRIVATE_FIELDS: dict[str, tuple[str, ...]] = {
    "rule_cards_selected": ("rule_cards",),  # until both are recorded (DB-HID-1): ``revealed``
    "draw": ("cards",),
    "opening_hands_drawn": ("p1_cards", "p2_cards"),
    "deck_registered": ("cards",),
}
