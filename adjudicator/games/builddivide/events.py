"""Build Divide events (rules §5) and primitive ops (§10.2), with the chapter's names and fields.

Additive differences (docs/games/builddivide.md, "Events"): ``match_started`` carries the
``catalog`` (§15); play events that the judge may enter on a player's behalf take an optional
``player`` (left out: the author, or for the judge the turn player); ops that name a player's
zone take an optional ``player`` (left out: the controller of what resolves)."""

from __future__ import annotations

from typing import Any, Literal, Union

import msgspec

from adjudicator.engine.protocol import Action, Correct, MatchStarted, Rewind

Colour = Literal["BLACK", "BLUE", "WHITE", "RED", "GENERIC"]
ZoneName = Literal["DECK", "HAND", "LIFE", "ENERGY", "FIELD", "GRAVEYARD", "REMOVE", "D_DECK"]
Duration = Literal["END_OF_TURN", "WHILE_ON_FIELD"]


class Pay(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One payment entry (BD-ACT-0): an energy card of the payer and the colour it pays as."""

    energy: str
    as_: Colour = msgspec.field(name="as")


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    main: tuple[str, ...]
    d_deck: tuple[str, ...] = ()
    territory: str
    checklist: dict[str, bool] = {}
    judge_approval: bool = False


def check_private(private: dict[str, Any], shapes: dict[str, tuple[str, Any]]) -> None:
    """The keys a ``private`` object may hold (§9), each with the shape of its value: an unknown key
    or a value of another shape is malformed input, never ignored. Raised from ``__post_init__``,
    the ValueError reaches the fold as a ValidationError; the path after `` - at `` is the key's."""
    for key, value in private.items():
        if key not in shapes:
            raise ValueError(f"private: unknown key {key!r}; the keys allowed: {', '.join(shapes)} - at `$.private.{key}`")
        what, fits = shapes[key]
        if not fits(value):
            raise ValueError(f"private.{key}: {what}, not {value!r} - at `$.private.{key}`")


def _names(n: int) -> tuple[str, Any]:
    return f"the {n} card names", lambda v: isinstance(v, list) and len(v) == n and all(isinstance(x, str) for x in v)


A_NAME = ("a card name", lambda v: isinstance(v, str))


# -- ops (§10.2) ------------------------------------------------------------------------------------
class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class DamageUnit(Op, tag="DAMAGE_UNIT"):  # BD-EFF-10
    unit: str
    n: int


class DamagePlayer(Op, tag="DAMAGE_PLAYER"):  # BD-EFF-11; §15: `players` for one effect that damages both
    n: int
    player: str | None = None
    players: tuple[str, ...] | None = None
    names: tuple[str, ...] = ()  # life cards removed without checks (BD-RUL-7), in the order they go

    def __post_init__(self) -> None:
        if (self.player is None) == (self.players is None):
            raise ValueError("DAMAGE_PLAYER takes `player`, or `players` for one effect that damages both (§15), not "
                             + ("both" if self.player is not None else "neither"))
        if self.players is not None and (len(self.players) != 2 or self.players[0] == self.players[1]):
            raise ValueError(f"DAMAGE_PLAYER `players` names both players, each once, not {list(self.players)!r}")

    @property
    def victims(self) -> tuple[str, ...]:
        return self.players if self.players is not None else (self.player or "",)


class Destroy(Op, tag="DESTROY"):  # BD-EFF-12
    unit: str


class ModifyStat(Op, tag="MODIFY_STAT"):  # BD-EFF-13
    unit: str
    stat: Literal["POWER", "HIT"]
    delta: int
    duration: Duration = "END_OF_TURN"


class SetStatus(Op, tag="SET_STATUS"):  # BD-EFF-14
    unit: str
    tag: str
    duration: Duration = "END_OF_TURN"


class ClearStatus(Op, tag="CLEAR_STATUS"):  # BD-EFF-14
    unit: str
    tag: str


class Stand(Op, tag="STAND"):  # BD-EFF-15
    card: str
    player: str | None = None


class Rest(Op, tag="REST"):  # BD-EFF-15
    card: str
    player: str | None = None


class DrawOp(Op, tag="DRAW"):  # BD-EFF-16
    players: tuple[str, ...]
    n: int = 1


class DiscardOp(Op, tag="DISCARD"):  # BD-EFF-17
    player: str
    cards: tuple[str, ...] | None = None
    n: int | None = None


class Move(Op, tag="MOVE"):  # BD-EFF-18
    from_zone: ZoneName
    to_zone: ZoneName
    card: str | None = None
    n: int | None = None
    position: Literal["TOP", "BOTTOM"] = "TOP"
    face: Literal["UP", "DOWN"] = "UP"
    player: str | None = None


class PutOntoField(Op, tag="PUT_ONTO_FIELD"):  # BD-EFF-19
    card: str
    from_zone: ZoneName
    standing: bool = True
    player: str | None = None


class AddEnergy(Op, tag="ADD_ENERGY"):  # BD-EFF-20
    card: str
    from_zone: ZoneName
    standing: bool = True
    player: str | None = None


class Look(Op, tag="LOOK"):  # BD-EFF-21
    player: str
    zone: ZoneName
    n: int = 1


class RevealOp(Op, tag="REVEAL"):  # BD-EFF-21
    cards: tuple[str, ...]


class ShuffleOp(Op, tag="SHUFFLE"):  # BD-EFF-22
    player: str
    zone: Literal["DECK"] = "DECK"


class ReleaseOp(Op, tag="RELEASE"):  # BD-EFF-23
    releasing_unit: str
    payment: tuple[Pay, ...] = ()


class CloseTerritory(Op, tag="CLOSE_TERRITORY"):  # BD-EFF-23
    player: str


class Negate(Op, tag="NEGATE"):  # BD-EFF-24
    stack_item: str  # the item's instance reference in the resolution zone (§15)


class AdjustDamage(Op, tag="ADJUST_DAMAGE"):  # BD-EFF-25
    delta: int


class WinGame(Op, tag="WIN_GAME"):  # BD-EFF-26
    player: str
    note: str = ""


class Patch(Op, tag="PATCH"):  # BD-EFF-27
    path: str
    value: Any = None
    note: str = ""


AnyOp = Union[DamageUnit, DamagePlayer, Destroy, ModifyStat, SetStatus, ClearStatus, Stand, Rest, DrawOp, DiscardOp,
              Move, PutOntoField, AddEnergy, Look, RevealOp, ShuffleOp, ReleaseOp, CloseTerritory, Negate,
              AdjustDamage, WinGame, Patch]


# -- events (§5) --------------------------------------------------------------------------------------
class BdMatchStarted(MatchStarted, tag="match_started"):  # BD-ACT-35
    decks: dict[str, DeckList] = {}
    catalog_version: str = ""
    catalog: tuple[dict[str, Any], ...] = ()


class RegisterDeck(Action, tag="register_deck"):  # BD-ACT-1
    player: str
    main: tuple[str, ...]
    territory: str
    d_deck: tuple[str, ...] = ()
    checklist: dict[str, bool] = {}
    judge_approval: bool = False


class Shuffle(Action, tag="shuffle"):  # BD-ACT-2
    player: str
    zone: Literal["DECK"] = "DECK"


class PlaceTerritory(Action, tag="place_territory"):  # BD-ACT-3
    player: str


class DecideFirstPlayer(Action, tag="decide_first_player"):  # BD-ACT-4
    first_player: str
    method: Literal["RPS", "DIE", "COIN", "JUDGE", "LOSER_CHOOSES"] = "RPS"


class DrawOpening(Action, tag="draw_opening"):  # BD-ACT-5
    player: str
    private: dict[str, Any] = {}

    def __post_init__(self) -> None:
        check_private(self.private, {"cards": _names(5)})


class Mulligan(Action, tag="mulligan"):  # BD-ACT-6
    player: str
    redraw: bool
    private: dict[str, Any] = {}

    def __post_init__(self) -> None:
        check_private(self.private, {"new_cards": _names(5)})
        if "new_cards" in self.private and not self.redraw:
            raise ValueError("private.new_cards: only a redraw draws new cards (redraw is false) - at `$.private.new_cards`")


class PlaceLife(Action, tag="place_life"):  # BD-ACT-7
    player: str


class PlaceInitialEnergy(Action, tag="place_initial_energy"):  # BD-ACT-8
    player: str
    cards: tuple[str, ...]


class AdvancePhase(Action, tag="advance_phase"):  # BD-ACT-9
    pass


class Draw(Action, tag="draw"):  # BD-ACT-10
    player: str
    private: dict[str, Any] = {}

    def __post_init__(self) -> None:
        check_private(self.private, {"card": A_NAME})


class PlaceEnergy(Action, tag="place_energy"):  # BD-ACT-11
    card: str


class PlayCard(Action, tag="play_card"):  # BD-ACT-12
    card: str
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()
    cost_adjustment: int = 0
    player: str | None = None


class ReleaseTerritory(Action, tag="release_territory"):  # BD-ACT-13
    player: str
    releasing_unit: str
    payment: tuple[Pay, ...] = ()


class ActivateAbility(Action, tag="activate_ability"):  # BD-ACT-14
    source: str
    ability_id: str
    payment: tuple[Pay, ...] = ()
    cost_ops: tuple[AnyOp, ...] = ()
    player: str | None = None


class Trigger(Action, tag="trigger"):  # BD-ACT-15
    source: str
    ability_id: str
    controller: str


class Pass(Action, tag="pass"):  # BD-ACT-16
    player: str


class ResolveTop(Action, tag="resolve_top"):  # BD-ACT-17
    ops: tuple[AnyOp, ...] = ()
    targets_final: tuple[str, ...] = ()


class DeclareAttack(Action, tag="declare_attack"):  # BD-ACT-18
    attacker: str
    target: str


class DeclareBlock(Action, tag="declare_block"):  # BD-ACT-19
    blocker: str


class NoBlock(Action, tag="no_block"):  # BD-ACT-20
    pass


class ResolveBattle(Action, tag="resolve_battle"):  # BD-ACT-21
    pass


class LifeCheck(Action, tag="life_check"):  # BD-ACT-22
    victim: str
    card_name: str | None = None
    icons: tuple[Literal["BUSTER", "SHOT"], ...] | None = None


class ShotPlay(Action, tag="shot_play"):  # BD-ACT-23
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()


class ShotDecline(Action, tag="shot_decline"):  # BD-ACT-24
    pass


class EndDiscard(Action, tag="end_discard"):  # BD-ACT-25
    cards: tuple[str, ...]


class Concede(Action, tag="concede"):  # BD-ACT-26
    player: str


class JudgeOps(Action, tag="judge_ops"):  # BD-ACT-27
    ops: tuple[AnyOp, ...]
    note: str = ""


class JudgeResult(Action, tag="judge_result"):  # BD-ACT-30
    winner: str | None
    reason: str


class JudgeVoidGame(Action, tag="judge_void_game"):  # BD-ACT-31
    note: str = ""


class ConfirmResult(Action, tag="confirm_result"):  # BD-ACT-32
    pass


class GameCleanup(Action, tag="game_cleanup"):  # BD-ACT-33
    mixed_cards_found: bool = False


class JudgeVoidMatch(Action, tag="judge_void_match"):  # BD-ACT-34
    note: str = ""


class BdRewind(Rewind, tag="rewind"):  # BD-ACT-29
    pass


class BdCorrect(Correct, tag="correct"):  # BD-ACT-36
    pass


Event = Union[BdMatchStarted, RegisterDeck, Shuffle, PlaceTerritory, DecideFirstPlayer, DrawOpening, Mulligan,
              PlaceLife, PlaceInitialEnergy, AdvancePhase, Draw, PlaceEnergy, PlayCard, ReleaseTerritory,
              ActivateAbility, Trigger, Pass, ResolveTop, DeclareAttack, DeclareBlock, NoBlock, ResolveBattle,
              LifeCheck, ShotPlay, ShotDecline, EndDiscard, Concede, JudgeOps, JudgeResult, JudgeVoidGame,
              ConfirmResult, GameCleanup, JudgeVoidMatch, BdRewind, BdCorrect]

#: private facts (§9): shown only to the player the event concerns, and to judges
PRIVATE_FIELDS = {"draw_opening": ("private",), "mulligan": ("private",), "draw": ("private",), "register_deck": ("d_deck",)}
