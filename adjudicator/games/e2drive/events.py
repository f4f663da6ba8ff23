"""E2Drive events, catalog entries and primitive ops, with the chapter's names and fields as written
(rules/e2drive.md §5, §10, and the encoding of §15).

Servant slots are ``P1.S1`` … ``P2.S3``; ether pools are a slot (that servant's own ether) or
``P1.M`` / ``P2.M`` (master ether); a payment is a list of ``{"pool": POOL, "n": N}``.
"""

from typing import Literal, Union

import msgspec

from adjudicator.engine.protocol import Action, Correct, MatchStarted, Rewind

ServantType = Literal["Buster", "Blocker", "Restorer", "Slicer", "Etherizer", "Junker", "Irregular"]
SERVANT_TYPES: tuple[str, ...] = ("Buster", "Blocker", "Restorer", "Slicer", "Etherizer", "Junker", "Irregular")
Stat = Literal["DUR", "ATK", "DEF", "SPD"]
Duration = Literal["end_of_turn", "until_targeted", "while_source", "permanent"]
StatusName = Literal["invisible", "freeze", "heat", "wait"]
OnOff = Literal["on", "off"]


class _Strict(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


# -- catalog (E2D-DECK-2, -4; §15) ---------------------------------------------------------------
class ServantCard(_Strict):
    name: str
    type: str  # checked against the seven types (E2D-DECK-11), so a bad entry is a rule, not a parse error
    DUR: int
    ATK: int
    DEF: int
    SPD: int
    starts_invisible: bool = False
    text: str = ""


class ToolCard(_Strict):
    name: str
    kind: int  # 1 single-use, 2 equipment, 3 field tool, 4 quick (checked: E2D-DECK-11)
    cost: int = 0
    upkeep: int = 0
    field_declared: bool = False
    text: str = ""


class Catalog(_Strict):
    servants: dict[str, ServantCard] = {}
    tools: dict[str, ToolCard] = {}


class Registration(_Strict):
    deck: tuple[str, ...]
    servants: tuple[str, ...]


class Pay(_Strict):
    """One entry of a payment or a designation: ``n`` units of ``pool``."""

    pool: str
    n: int = msgspec.field(default=1)


# -- primitive ops (E2D-EFF-3) ---------------------------------------------------------------------
class Op(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", forbid_unknown_fields=True):
    pass


class Damage(Op, tag="DAMAGE"):
    servant: str
    n: int
    targeting: bool = False


class Heal(Op, tag="HEAL"):
    servant: str
    n: int
    targeting: bool = False


class Draw(Op, tag="DRAW"):
    player: str
    n: int = 1
    cards: tuple[str, ...] = ()  # identities, when hands are tracked


class Discard(Op, tag="DISCARD"):
    player: str
    cards: tuple[str, ...] = ()
    count: int | None = None
    chooser: str = "owner"


class Move(Op, tag="MOVE"):
    card: str
    from_: str = msgspec.field(name="from")  # deck | hand | trash | tool_field | equipment | damage_cards
    to: str
    player: str | None = None  # whose zone (default: the card's owner as the judge knows it)
    servant: str | None = None  # the servant of an equipment field
    position: Literal["top", "bottom"] = "top"


class Shuffle(Op, tag="SHUFFLE"):
    player: str


class Status(Op, tag="STATUS"):
    servant: str
    status: StatusName
    state: OnOff = "on"
    targeting: bool = False


class Modify(Op, tag="MODIFY"):
    servant: str
    stat: Stat
    delta: int
    duration: Duration = "end_of_turn"
    targeting: bool = False


class SetStat(Op, tag="SET"):
    servant: str
    stat: Stat
    value: int
    duration: Duration = "end_of_turn"
    targeting: bool = False


class Ether(Op, tag="ETHER"):
    pool: str
    n: int
    state: OnOff = "on"
    hold: bool = False


class Destroy(Op, tag="DESTROY"):
    servant: str
    targeting: bool = False


class Revive(Op, tag="REVIVE"):
    servant: str
    with_damage_card: bool = True


class ActionState(Op, tag="ACTION_STATE"):
    servant: str
    state: Literal["unacted", "acted"]


class ExtraAtk(Op, tag="EXTRA_ATK"):
    servant: str
    n: int = 1
    duration: Duration = "end_of_turn"


class Restrict(Op, tag="RESTRICT"):
    subject: str  # a servant slot
    action: Literal["attack", "defense", "evasion", "tool", "effect", "change", "revive", "overdrive", "end_action"]
    duration: Duration = "end_of_turn"


class Permit(Op, tag="PERMIT"):
    subject: str
    action: Literal["attack", "defense", "evasion", "tool", "effect", "change", "revive", "overdrive", "end_action"]
    duration: Duration = "end_of_turn"


class Cost(Op, tag="COST"):
    scope: str = "all"  # all | P1 | P2 | a tool card's name
    delta: int = 0
    duration: Duration = "end_of_turn"


class RemoveTool(Op, tag="REMOVE_TOOL"):
    card: str
    player: str | None = None  # whose in-play copy, when both have one


class RevealOp(Op, tag="REVEAL"):
    card: str


class CoinOp(Op, tag="COIN"):
    result: Literal["heads", "tails"]


class EndModifier(Op, tag="END_MODIFIER"):
    id: int


AnyOp = Union[Damage, Heal, Draw, Discard, Move, Shuffle, Status, Modify, SetStat, Ether, Destroy, Revive,
              ActionState, ExtraAtk, Restrict, Permit, Cost, RemoveTool, RevealOp, CoinOp, EndModifier]


# -- overdrive params (E2D-ACT-27…33) ----------------------------------------------------------------
class JunkerChoice(_Strict):
    kind: Literal["self_draw", "trash_to_hand", "opp_discard", "opp_draw"]
    card: str | None = None


class OverdriveParams(_Strict):
    targets: tuple[str, ...] = ()  # Restorer
    locks: tuple[Pay, ...] = ()  # Etherizer
    choices: tuple[Union[str, JunkerChoice], ...] = ()  # Junker, Irregular


# -- setup and flow (§5.2) ---------------------------------------------------------------------------
class E2dMatchStarted(MatchStarted, tag="match_started", kw_only=True):
    registrations: dict[str, Registration]
    catalog: Catalog


class GameStarted(Action, tag="game_started"):
    draws: dict[str, tuple[str, ...]] | None = None


class StartTurn(Action, tag="start_turn"):
    draws: dict[str, str] | None = None


class TieBreak(Action, tag="tie_break"):
    winner: str
    method: Literal["coin", "rps"] = "coin"


class SelectActor(Action, tag="select_actor"):
    servant: str


# -- attack, defence, evasion (§5.3) -------------------------------------------------------------------
class Attack(Action, tag="attack"):
    attacker: str
    target: str
    payment: tuple[Pay, ...] = ()


class Coin(Action, tag="coin"):
    result: Literal["heads", "tails"]


class Defense(Action, tag="defense"):
    defend: bool
    payment: tuple[Pay, ...] = ()


class Evasion(Action, tag="evasion"):
    evade: bool
    payment: tuple[Pay, ...] = ()


# -- cards and effects (§5.4) --------------------------------------------------------------------------
class PlayTool(Action, tag="play_tool"):
    card: str
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()
    ops: tuple[AnyOp, ...] = ()


class PlayQuickTool(Action, tag="play_quick_tool"):
    card: str
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()
    ops: tuple[AnyOp, ...] = ()


class ActivateFieldTool(Action, tag="activate_field_tool"):
    card: str
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()
    ops: tuple[AnyOp, ...] = ()


class UseEffect(Action, tag="use_effect"):
    servant: str
    payment: tuple[Pay, ...] = ()
    targets: tuple[str, ...] = ()
    ops: tuple[AnyOp, ...] = ()


# -- change, revival, overdrive (§5.5, §5.6) -------------------------------------------------------------
class Change(Action, tag="change"):
    out: str
    in_card: str


class ReviveServant(Action, tag="revive"):
    servant: str


class ForcedRevival(Action, tag="forced_revival"):
    servant: str


class Overdrive(Action, tag="overdrive"):
    servant: str
    payment: tuple[Pay, ...] = ()
    params: OverdriveParams = OverdriveParams()


# -- ending, turn end, concession, judge events (§5.7, §8) -------------------------------------------------
class EndAction(Action, tag="end_action"):
    servant: str


class DesignateUpkeep(Action, tag="designate_upkeep"):
    player: str
    units: tuple[Pay, ...] = ()


class DiscardUpkeepCard(Action, tag="discard_upkeep_card"):
    player: str
    card: str


class EndTurn(Action, tag="end_turn"):
    pass


class Concede(Action, tag="concede"):
    player: str


class JudgeEffect(Action, tag="judge_effect"):
    source: str | None = None
    rank: int | None = None
    payment: tuple[Pay, ...] = ()
    ops: tuple[AnyOp, ...] = ()
    overrides: tuple[str, ...] = ()


class E2dRewind(Rewind, tag="rewind"):
    pass


class E2dCorrect(Correct, tag="correct"):
    pass


class VoidGame(Action, tag="void_game"):
    reason: str


class VoidMatch(Action, tag="void_match"):
    reason: str


Event = Union[
    E2dMatchStarted, GameStarted, StartTurn, TieBreak, SelectActor, Attack, Coin, Defense, Evasion,
    PlayTool, PlayQuickTool, ActivateFieldTool, UseEffect, Change, ReviveServant, ForcedRevival, Overdrive,
    EndAction, DesignateUpkeep, DiscardUpkeepCard, EndTurn, Concede, JudgeEffect, E2dRewind, E2dCorrect,
    VoidGame, VoidMatch,
]

#: fields only their owner and the judge may see (E2D-HID-5): registrations are sealed, drawn
#: identities are the drawer's
PRIVATE_FIELDS = {
    "match_started": ("registrations",),
    "game_started": ("draws",),
    "start_turn": ("draws",),
}

#: events a judge-only author enters
JUDGE_EVENTS = (GameStarted, StartTurn, TieBreak, Coin, EndTurn, JudgeEffect, E2dRewind, E2dCorrect, VoidGame, VoidMatch)
