"""The state of a PBWCG battle (rules/pbwcg.md §11): frozen Structs and tuples, replaced with
``msgspec.structs.replace``, never mutated. Derived figures (HP cap, AV, DV, speed) are computed
in ``values``, never stored (PBW-STATE-1)."""

from __future__ import annotations

from typing import Literal

import msgspec

from adjudicator.games.pbwcg.config import Options
from adjudicator.games.pbwcg.events import CardDef, Mods

Step = Literal["SETUP", "READY", "T1", "T2", "PL", "FIELD", "MAIN", "M1", "M2", "M3", "M5", "T7", "OVER"]
#: the order of the steps of a main turn (PBW-TURN-6; M4 is the end declaration itself)
MAIN_STEPS = ("M1", "M2", "M3", "M5")


class _S(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    pass


class Status(_S):
    name: str
    mods: Mods = Mods()
    remaining: int | None = None  # turns; None: permanent or until end of turn
    end_of_turn: bool = False
    applied_turn: int = 0
    bracketed: bool = False


class BS(_S):
    name: str
    applied_turn: int
    source: str


class Character(_S):
    """A PC or summon support on a field."""

    card: str
    kind: Literal["PC", "SUPPORT"]
    controller: str
    slot: int | None = None
    master: str | None = None
    face_up: bool = True
    endurance: int = 0
    endurance_max: int = 0
    wp: int = 0
    wp_max: int = 0
    equipment: tuple[str, ...] = ()
    bs: tuple[BS, ...] = ()
    statuses: tuple[Status, ...] = ()
    entered_turn: int = 0


class SetSlot(_S):
    card: str
    face_up: bool = False
    set_turn: int = 0
    remaining: int | None = None


class Player(_S):
    name: str
    hp: int = 0
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    special_hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    set_zone: tuple[SetSlot | None, ...] = (None,) * 5
    support_list: tuple[str, ...] = ()
    max_pc_count: int = 4
    placements_used: int = 0
    pl_activations_used: int = 0
    facedown_discard_used: bool = False
    placed_initial: bool = False
    drawn: bool = False  # this turn's T2 draw entered


class Obligation(_S):
    id: str
    kind: Literal["TRIG", "REC", "EVA", "RCPT"]
    character: str
    bs: str | None
    created_seq: int
    closed_seq: int | None = None
    status: Literal["open", "fulfilled", "missed", "corrected", "cancelled"] = "open"
    fulfilled_seq: int | None = None


class MainTurn(_S):
    actor: str
    step: str = "M1"
    actions_left: int = 1
    set_activated: bool = False
    magic_used: bool = False  # a MAGIC card used the action (PBW-LIM-6)
    effects_done: tuple[str, ...] = ()  # BS whose bs_effect was entered
    recovered: tuple[str, ...] = ()  # BS whose recovery check was entered


class TieGroup(_S):
    speed: int
    order: tuple[str, ...]


class PendingChoice(_S):
    kind: Literal["equipment"]
    player: str
    subject: str
    part: str


class Result(_S):
    status: Literal["won", "drawn"]
    winner: str | None
    reason: str
    seq: int


class State(_S):
    options: Options
    players: tuple[Player, ...]
    cards: dict[str, CardDef]  # registered data, frozen for the battle (PBW-OVR-9); never changed
    owner: dict[str, str]  # card id -> the player who registered it; never changed
    characters: tuple[Character, ...] = ()
    bs_history: tuple[tuple[str, tuple[str, ...]], ...] = ()  # card -> BS received this battle
    field_state: SetSlot | None = None
    turn: int = 0
    step: Step = "SETUP"
    battle_started: bool = False
    pl_order: tuple[str, ...] = ()
    pl_index: int = 0
    action_order: tuple[str, ...] = ()
    order_speeds: tuple[int, ...] = ()
    actor_index: int = -1
    main: MainTurn | None = None
    tie_groups: tuple[TieGroup, ...] = ()
    pending_ties: tuple[tuple[str, ...], ...] = ()
    obligations: tuple[Obligation, ...] = ()
    pending_choice: PendingChoice | None = None
    result: Result | None = None
    confirmed: bool = False
    out: tuple[str, ...] = ()  # players out of the battle (local rule D, PBW-RUL-47), in the order they left
    battle: int = 1  # the battle of the match (best_of, PBW-RUL-5)
    battle_seq: int = 1  # the seq that opened it: match_started, or its next_battle (§15)
    wins: dict[str, int] = {}  # battles won before this one, per player
    registered: tuple[Player, ...] = ()  # the players as match_started registered them: each battle starts from them
    last_seq: int = 1
    notes: tuple[str, ...] = ()  # what the last event set off on its own (PBW-TURN-8)

    # -- lookups ---------------------------------------------------------------------------------
    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def find(self, name: str) -> Player | None:
        """The player of that name, or None for a name that is not a player's."""
        for p in self.players:
            if p.name == name:
                return p
        return None

    def names(self) -> tuple[str, ...]:
        return tuple([p.name for p in self.players])

    def battles_won(self) -> dict[str, int]:
        """Battles won in the match, this one included once it is won (§15: a drawn battle counts
        for nobody)."""
        won = dict(self.wins)
        if self.result is not None and self.result.winner is not None:
            won[self.result.winner] = won.get(self.result.winner, 0) + 1
        return won

    def match_winner(self) -> str | None:
        """The player who has won more than best_of / 2 battles (PBW-RUL-5), if any."""
        won = self.battles_won()
        return next((p for p, n in won.items() if 2 * n > self.options.best_of), None)

    def in_battle(self) -> tuple[str, ...]:
        """The players still in the battle, in seat order (all of them but under local rule D)."""
        names = self.names()
        return tuple(p for p in names if p not in self.out) if self.out else names

    def char(self, card: str) -> Character | None:
        for c in self.characters:
            if c.card == card:
                return c
        return None

    def field(self, player: str, kind: str | None = None) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.controller == player and (kind is None or c.kind == kind))

    def history_of(self, card: str) -> tuple[str, ...]:
        for c, h in self.bs_history:
            if c == card:
                return h
        return ()


def without_card(zone: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``zone`` without ``card`` (the same tuple when it does not hold it)."""
    return tuple(filter(card.__ne__, zone)) if card in zone else zone


# (the one entry changed in a list of the others: one tuple built, not two slices and two joins)
def set_player(s: State, new: Player) -> State:
    """``s`` with ``new`` in place of the player of its name. Hot callers build ``new`` with
    ``replace`` themselves: keywords passed on through ``with_player`` cost a dictionary and
    a copy of it at each call."""
    name = new.name
    players = list(s.players)
    for i, p in enumerate(players):
        if p.name == name:
            players[i] = new
            return msgspec.structs.replace(s, players=tuple(players))
    return s


def with_player(s: State, name: str, **changes) -> State:
    for p in s.players:
        if p.name == name:
            return set_player(s, msgspec.structs.replace(p, **changes))
    return s


def with_char(s: State, card: str, **changes) -> State:
    chars = list(s.characters)
    for i, c in enumerate(chars):
        if c.card == card:
            chars[i] = msgspec.structs.replace(c, **changes)
            return msgspec.structs.replace(s, characters=tuple(chars))
    return s


def without_char(s: State, card: str) -> State:
    return msgspec.structs.replace(s, characters=tuple(c for c in s.characters if c.card != card))


def add_history(s: State, card: str, bs: str) -> State:
    found = False
    out = []
    for c, h in s.bs_history:
        if c == card:
            found = True
            h = h if bs in h else h + (bs,)
        out.append((c, h))
    if not found:
        out.append((card, (bs,)))
    return msgspec.structs.replace(s, bs_history=tuple(out))


def pl_turn_from(s: State, i: int) -> State:
    """The PL turn of the first player from place ``i`` of the PL order still in the battle, with
    its counters reset (PBW-STATE-4); the field step once every PL turn is over (PBW-TURN-4)."""
    order, out = s.pl_order, s.out
    for j in range(i, len(order)):
        name = order[j]
        if name not in out:
            p = s.player(name)  # turn_started reset the counters: the player is replaced only when they are not 0
            if p.placements_used or p.pl_activations_used:
                s = set_player(s, msgspec.structs.replace(p, placements_used=0, pl_activations_used=0))
            return msgspec.structs.replace(s, step="PL", pl_index=j)
    return msgspec.structs.replace(s, step="FIELD")


def note(s: State, text: str) -> State:
    return msgspec.structs.replace(s, notes=s.notes + (text,))
