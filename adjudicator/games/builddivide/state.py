"""Build Divide state (rules §11): frozen Structs, changed with ``msgspec.structs.replace``.

A card in play (energy, field, territory, resolution zone) carries ``k``, the number of its name
among the cards that entered its player's play zones this game: events name it by an instance
reference (§15, ``refs.py``). Hidden cards (the deck, an undisclosed hand card, a life card) are
``None`` where their position matters (hand, life) and a count where it does not (deck)."""

from __future__ import annotations


import msgspec

from adjudicator.games.builddivide.catalog import Card
from adjudicator.games.builddivide.config import Options
from adjudicator.games.builddivide.events import DeckList


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    stat: str  # POWER | HIT
    delta: int
    duration: str  # END_OF_TURN | WHILE_ON_FIELD


class Status(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    tag: str
    duration: str


class Unit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    k: int = 1  # its number among its player's cards of this name in play (§15)
    iid: int = 0  # the instance: a unit that leaves and comes back is a new one (BD-RES-19)
    standing: bool = True
    damage: int = 0
    modifiers: tuple[Modifier, ...] = ()
    statuses: tuple[Status, ...] = ()
    entered_turn: int = 0
    printed: dict[str, int] = {}  # POWER/HIT set by a judge's PATCH in place of the catalog's (BD-EFF-27)


class Energy(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    k: int = 1  # its number among its player's cards of this name in play (§15)
    standing: bool = True


class Territory(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    face: str = "CHARACTER"  # CHARACTER (closed) | RELEASED
    standing: bool = True
    placed: bool = False


class Player(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    name: str
    deck_count: int = 0
    deck_draws: int = 0  # cards drawn from the deck this game (BD-REW-8: what a rewind returns)
    unseen: dict[str, int] = {}  # BD-HID-5: registered main minus cards known outside deck/hand/life
    hand: tuple[str | None, ...] = ()
    life: tuple[str | None, ...] = ()  # index 0 = bottom, -1 = top
    energy: tuple[Energy, ...] = ()
    field: tuple[Unit, ...] = ()
    graveyard: tuple[str, ...] = ()
    remove_zone: tuple[str, ...] = ()
    d_deck: tuple[str, ...] = ()
    territory: Territory | None = None
    energy_placed_this_turn: bool = False
    mulligan: str = "UNDECIDED"  # UNDECIDED | KEPT | REDRAWN
    setup_done: tuple[int, ...] = ()  # setup steps this player has done (1, 3, 5, 6, 7, 8)
    revealed: tuple[str, ...] = ()  # names made public from this player's deck, hand or life, in order
    disclosed_abandoned: tuple[str, ...] = ()  # BD-REW-8: revealed by events a rewind abandoned
    entered: dict[str, int] = {}  # cards of each name that entered this player's play zones this game (§15)


class StackItem(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: int
    kind: str  # CARD | ABILITY
    controller: str
    card: str | None = None
    ability_id: str | None = None
    k: int = 1  # the number of the card (or ability id) among its controller's in play (§15)
    source: str | None = None
    targets: tuple[str, ...] = ()
    from_shot: bool = False
    hand_play: bool = False  # a card played from hand with its cost paid (release window)


class Attack(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    attacker: str
    original_target: str
    current_target: str
    attacker_iid: int = 0
    target_iid: int = 0  # the current target's instance (0: the player)
    block_used: bool = False
    step: str = "BLOCK"  # BLOCK | BATTLE | DAMAGE


class DamageProc(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    victim: str
    source: str
    attack: bool
    amount: int
    source_iid: int = 0  # the attacking unit's instance
    dealt: int = 0
    bonus: int = 0
    waiting: str = "REVEAL"  # REVEAL | SHOT | STACK
    shot_card: str | None = None


class PaymentNote(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """The last payment made: who paid, for what, the cost, and which energy paid which part."""

    payer: str
    what: str
    cost: str
    entries: tuple[tuple[str, str, str], ...]  # (energy, as, the part it pays)


class Result(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    winner: str | None
    reason: str  # a Reason value
    detail: str = ""


class GameState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    game_no: int = 1
    status: str = "SETUP"  # SETUP | IN_PROGRESS | ENDED | VOID
    setup_step: int = 1
    opened_at: int = 1  # the seq that opened this game's setup (BD-REW-6)
    turn_started_at: int = 0  # the seq that started the current turn
    result: Result | None = None
    result_confirmed: bool = False
    cleaned_up: bool = False
    deck_loss_owed: bool = False  # illegal_deck_policy GAME_LOSS: mixed cards found, the judge names the offender (BD-REW-12)
    first_player: str | None = None
    turn_number: int = 0
    turn_player: str | None = None
    phase: str | None = None
    end_step: str | None = None
    drawn_this_phase: bool = False
    stack: tuple[StackItem, ...] = ()
    next_item: int = 1
    attack: Attack | None = None
    damage: DamageProc | None = None
    pending_damage: tuple[tuple[str, int], ...] = ()  # effect damage waiting for the one being dealt (victim, n)
    release_window: tuple[str, int] | None = None  # (player, the entering ace's instance)
    priority: str | None = None  # strict_priority only: who holds priority
    passes: int = 0  # strict_priority only: passes in succession
    players: tuple[Player, ...] = ()
    patches: tuple[str, ...] = ()
    shuffle_owed: tuple[str, ...] = ()  # rewind_card_return SHUFFLE: decks to shuffle after a rewind (BD-REW-8)
    last_trigger: tuple[int, str] | None = None  # (seq, controller) of the latest trigger (BD-RES-6)
    last_payment: PaymentNote | None = None


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    names: tuple[str, str]
    options: Options
    catalog: dict[str, Card]
    catalog_version: str = ""
    decks: dict[str, DeckList] = {}
    game: GameState = GameState()
    past: tuple[Result, ...] = ()  # results of finished games, VOID included (winner None)
    wins: dict[str, int] = {}
    match_result: Result | None = None
    seq: int = 0


replace = msgspec.structs.replace  # replace(obj, **changes): a copy with ``changes``; the rest is shared
