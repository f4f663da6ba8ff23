"""The state of a DemonBrave match (rules §11): frozen Structs and tuples, replaced, never mutated.

Pair tiers and key vectors are derived, never stored (DB-RES-7 (e)); see ``ranking``.
"""


from typing import Literal

import msgspec

from adjudicator.games.demonbrave.config import Config
from adjudicator.games.demonbrave.events import RuleCard

PLAYER = "PLAYER"  # the target of an attack on the opponent player
Phase = Literal["DRAW", "MAIN", "BATTLE", "END"]
GameStatus = Literal["SETUP", "IN_PROGRESS", "FINISHED", "VOID"]


class Unit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A single (one card; its id is the card id) or a pair (2+ cards; ``PAIR-n``)."""

    unit_id: str
    cards: tuple[str, ...]  # join order
    attacked: bool = False
    blocks: int = 0

    @property
    def is_pair(self) -> bool:
        return len(self.cards) >= 2

    @property
    def kind(self) -> str:
        return "PAIR" if self.is_pair else "SINGLE"


class EffectUse(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    rule_card: str
    effect_id: str
    turn_number: int
    this_turn: int
    this_game: int


class Player(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    life: int
    deck_count: int = 54
    hand_count: int = 0
    hand_known: tuple[str, ...] = ()  # sorted
    field: tuple[Unit, ...] = ()  # in the order units came to the field
    trash: tuple[str, ...] = ()  # oldest first
    rule_cards: tuple[str, ...] = ()
    selected: bool = False
    effect_uses: tuple[EffectUse, ...] = ()
    deck_registered: tuple[str, ...] | None = None  # stands for the following games until replaced (DB-ACT-1)
    deck_this_game: bool = False  # a list was registered in this game's setup (match_started.decks: game 1)
    mulligan_done: bool = False

    def unit(self, unit_id: str) -> Unit | None:
        for u in self.field:
            if u.unit_id == unit_id:
                return u
        return None

    def field_cards(self) -> tuple[str, ...]:
        return tuple(c for u in self.field for c in u.cards)

    def unit_of(self, card: str) -> Unit | None:
        for u in self.field:
            if card in u.cards:
                return u
        return None


class Attack(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    attacker: str
    attacker_player: str
    target: str  # unit id or PLAYER
    defender: str
    step: Literal["DECLARED", "BLOCK_DECLARED"] = "DECLARED"
    blocker: str | None = None  # meaningful once step is BLOCK_DECLARED (None = no block)
    declared_seq: int = 0


class ChainEntry(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    entry_id: str
    controller: str
    rule_card: str
    effect_id: str
    targets: tuple[str, ...] = ()
    negated: bool = False
    source_seq: int = 0


class Reversal(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    source_seq: int
    expires_turn: int | None  # None = permanent


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    owner: str
    card: str
    mode: Literal["SET_NUMBER", "SHIFT"]
    value: int
    expires_turn: int | None
    seq: int


class StatusEntry(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A status on a unit or card of ``owner``'s field, or (owner None) on a player."""

    owner: str | None
    target: str
    status: str
    expires_turn: int | None  # None = until it leaves the field / permanent
    seq: int


class Result(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    outcome: Literal["WIN", "DRAW", "VOID"]
    winner: str | None = None
    reason: str = ""


class GameRecord(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    game_index: int
    outcome: Literal["WIN", "DRAW", "VOID"]
    winner: str | None = None
    reason: str = ""


class MatchProgress(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Where the match around the games stands: the game being played and the games done."""

    game_index: int = 1
    results: tuple[GameRecord, ...] = ()
    #: the first player of the last game played to its end (DB-RUL-30); a void game is replaced,
    #: not played, so the game that replaces it looks back past it
    previous_first_player: str | None = None


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    players: tuple[Player, Player]
    config: Config
    catalog: tuple[RuleCard, ...]
    status: GameStatus = "SETUP"
    first_player: str | None = None
    turn_number: int = 0
    turn_player: str | None = None
    phase: Phase | None = None
    draw_done: bool = False
    attack: Attack | None = None
    chain: tuple[ChainEntry, ...] = ()  # top last
    chain_resolving: bool = False
    reversals: tuple[Reversal, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    statuses: tuple[StatusEntry, ...] = ()
    shared_rule_cards: tuple[str, ...] = ()
    pair_counter: int = 1
    entry_counter: int = 1
    turn_progress: bool = False
    idle_turns: int = 0
    result: Result | None = None
    match: MatchProgress = MatchProgress()
    hands_drawn: bool = False
    turn_start_seq: int = 0  # the event that started the current turn (DB-RWD-3)
    #: the effective seqs since the current turn (or the setup) began, for the rewinds ``legal``
    #: offers; a rewind returns to the state at its target, whose list ends there
    recent: tuple[int, ...] = ()
    #: what the last event set off on its own, for the table (``notes``); not read by any rule
    notes: tuple[str, ...] = ()
    end_seq: int | None = None  # the event that ended the game

    # -- lookups ---------------------------------------------------------------------------
    @property
    def names(self) -> tuple[str, str]:
        return (self.players[0].name, self.players[1].name)

    def player(self, name: str) -> Player:
        return self.players[0] if self.players[0].name == name else self.players[1]

    def opponent(self, name: str) -> str:
        return self.players[1].name if self.players[0].name == name else self.players[0].name

    def players_with(self, p: Player) -> tuple[Player, Player]:
        """The players with ``p`` in the place of the player of its name."""
        if self.players[0].name == p.name:
            return (p, self.players[1])
        return (self.players[0], p)

    def with_player(self, p: Player) -> "State":
        return msgspec.structs.replace(self, players=self.players_with(p))

    def rule_card(self, card_id: str) -> RuleCard | None:
        for rc in self.catalog:
            if rc.id == card_id:
                return rc
        return None
