"""The state of an E2Drive match (rules/e2drive.md §11): frozen Structs and tuples, replaced, never
mutated. Current stats, limited state, upkeep due and candidates are derived (E2D-STATE-6)."""

import re
from collections.abc import Callable
from typing import Literal

import msgspec
from msgspec.structs import replace as rep

from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.events import Catalog, Pay
from adjudicator.engine.protocol import Malformed

SEATS = ("P1", "P2")
SLOTS = ("S1", "S2", "S3")
SLOT_RE = re.compile(r"^(P[12])\.(S[123])$")
POOL_RE = re.compile(r"^(P[12])\.(S[123]|M)$")
ActionMark = Literal["unacted", "acting", "acted"]


class Pool(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """E2D-STATE-4: held_upkeep + held_lock + held_invisible <= on <= size; off units pay."""

    size: int
    on: int = 0
    held_upkeep: int = 0
    held_lock: int = 0
    held_invisible: int = 0

    @property
    def off(self) -> int:
        return self.size - self.on

    @property
    def held(self) -> int:
        return self.held_upkeep + self.held_lock + self.held_invisible


class Statuses(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    invisible: bool = False
    freeze: bool = False
    heat: bool = False
    wait: bool = False

    def names(self) -> list[str]:
        flags = {"invisible": self.invisible, "freeze": self.freeze, "heat": self.heat, "wait": self.wait}
        return [n for n, on in flags.items() if on]


class Stats(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    DUR: int
    ATK: int
    DEF: int
    SPD: int


class InPlayTool(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    card: str
    owner: str  # seat
    kind: int
    upkeep: int = 0
    instance: int = 0


class Modifier(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    id: int
    stat: Literal["DUR", "ATK", "DEF", "SPD", "EXTRA"]
    op: Literal["add", "set"]
    value: int
    duration: Literal["end_of_turn", "until_targeted", "while_source", "permanent"]
    rank: int = 8
    source: str = ""


class Overdrive(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Active overdrive effects of one servant, all *until targeted* (E2D-ACT-27…29)."""

    buster: int = 0  # the buster bonus B (ATK +P)
    blocker: int = 0  # DEF +P; compulsion and reflection while > 0
    slicer_spd: int = 0
    slicer_extra: int = 0  # the extra-ATK allowance X

    @property
    def any(self) -> bool:
        return bool(self.buster or self.blocker or self.slicer_spd or self.slicer_extra)


class Servant(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    instance: int
    card: str
    name: str
    type: str
    printed: Stats
    damage: int = 0
    destroyed: bool = False
    action: ActionMark = "unacted"
    status: Statuses = Statuses()
    pool: Pool = Pool(size=3)
    equipment: tuple[InPlayTool, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    od: Overdrive = Overdrive()
    atk_count: int = 0  # the ATKs made in the current action, in every slicer_extra_scope (E2D-RUL-10)
    atk_paid: bool = False
    pool_atks: int = 0  # of them, those that took 1 from the Slicer's X for good (slicer_extra_scope = pool)

    @property
    def face_down(self) -> bool:
        return self.status.invisible


class Restriction(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    subject: str
    action: str
    permit: bool
    rank: int
    duration: str
    source: str = ""


class CostMod(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    scope: str
    delta: int
    duration: str
    source: str = ""


class Lock(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    by_instance: int
    by_slot: str
    pool: str
    n: int


class PlayerState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    seat: str
    name: str
    deck_count: int = 30
    hand_count: int = 0
    hand_known: tuple[str, ...] = ()  # owner-only, sorted
    trash: tuple[str, ...] = ()
    damage_cards: int = 0
    damage_card_ids: tuple[str, ...] = ()  # judge-only
    master: Pool = Pool(size=2)
    tool_field: tuple[InPlayTool, ...] = ()
    servants: tuple[Servant, ...] = ()
    lost: str | None = None


class AttackSeq(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    attacker: str
    target: str
    target_was_unacted: bool
    payment: tuple[Pay, ...]
    step: Literal["coin_attacker", "coin_target", "defense", "evasion"]
    defended: bool = False
    evaded: bool = False
    dmg_target: int = 0
    dmg_attacker: int = 0
    committed: bool = False  # the payment was committed (after the coins, E2D-RES-2 step 4)
    why: tuple[str, ...] = ()


class TiePending(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    candidates: tuple[str, ...]
    winner: str | None = None  # the seat who picks; None while a tie-break between players is due


class GameState(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    number: int = 1
    status: Literal["setup", "in_progress", "finished", "void"] = "setup"
    result: str | None = None  # "P1" | "P2" | "draw" | "both_lose"
    reason: str | None = None
    turn: int = 0
    phase: Literal["setup", "draw", "main", "end"] = "setup"
    acting: str | None = None
    attack: AttackSeq | None = None
    tie: TiePending | None = None
    forced_revival: tuple[str, ...] = ()
    upkeep: tuple[str, ...] = ()  # seats whose upkeep designation is pending
    upkeep_done: tuple[str, ...] = ()
    locks: tuple[Lock, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    costs: tuple[CostMod, ...] = ()
    players: tuple[PlayerState, ...] = ()
    next_instance: int = 1
    next_modifier: int = 1
    start_seq: int = 0
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    voided_random: tuple[tuple[str, str], ...] = ()  # (decision point, result) of abandoned branches (E2D-RWD-7)


class GameRecord(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    number: int
    result: str  # "P1" | "P2" | "draw" | "both_lose" | "void"
    reason: str


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    names: tuple[str, str]
    options: Options
    catalog: Catalog
    registrations: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # seat -> (deck, servants); sealed
    games: tuple[GameRecord, ...] = ()
    voided: bool = False
    game: GameState = GameState()


# -- addressing ---------------------------------------------------------------------------------------
def other(seat: str) -> str:
    return "P2" if seat == "P1" else "P1"


def seat_index(seat: str) -> int:
    return 0 if seat == "P1" else 1


#: the six slot references, parsed once (the state looks servants up by them on every damage, stat
#: and order computation): ref -> (seat, slot index) and ref -> (index in ``players``, slot index)
_SLOT_OF = {f"{seat}.{s}": (seat, i) for seat in ("P1", "P2") for i, s in enumerate(SLOTS)}
_SLOT_AT = {ref: (seat_index(seat), i) for ref, (seat, i) in _SLOT_OF.items()}
#: ref -> (seat, slot index) of the six slots: what ``parse_slot`` gives them, for a caller's own frame
SLOT_OF = _SLOT_OF
#: ref -> (player index, slot index) of the six slots: what ``slot_at`` gives them
SLOT_AT = _SLOT_AT
#: the slot references of each seat and of both, in slot order (P1's first)
_SLOTS_OF = {seat: tuple(f"{seat}.{s}" for s in SLOTS) for seat in SEATS}
ALL_SLOTS = _SLOTS_OF["P1"] + _SLOTS_OF["P2"]
#: seat -> its three slot references: what ``slots_of`` gives, without a copy (read it, never change it)
SLOTS_OF = _SLOTS_OF
#: the eight pool references (six slots, two masters), parsed once: ref -> (seat, slot index or None)
_POOL_OF: dict[str, tuple[str, int | None]] = {**_SLOT_OF, "P1.M": ("P1", None), "P2.M": ("P2", None)}
_POOL_AT = {ref: (seat_index(seat), i) for ref, (seat, i) in _POOL_OF.items()}
#: ref -> (player index, slot index or None) of the eight pools: what ``pool_at`` gives them
POOL_AT = _POOL_AT
#: every well-formed pool reference (what ``parse_pool`` accepts)
POOL_REFS = frozenset(_POOL_OF)


def parse_slot(ref: str, path: str = "$") -> tuple[str, int]:
    known = _SLOT_OF.get(ref)
    if known is not None:
        return known
    m = SLOT_RE.match(ref)
    if m is None:
        raise Malformed(f"{ref!r} is not a servant slot (P1.S1 … P2.S3)", path)
    return m.group(1), SLOTS.index(m.group(2))


def parse_pool(ref: str, path: str = "$") -> tuple[str, int | None]:
    """(seat, slot index) of a pool; slot None for master ether."""
    known = _POOL_OF.get(ref)
    if known is not None:
        return known
    m = POOL_RE.match(ref)
    if m is None:
        raise Malformed(f"{ref!r} is not an ether pool (P1.S1 … P2.S3, P1.M, P2.M)", path)
    return m.group(1), None if m.group(2) == "M" else SLOTS.index(m.group(2))


def player(g: GameState, seat: str) -> PlayerState:
    return g.players[0 if seat == "P1" else 1]


def with_player(g: GameState, p: PlayerState, **more: object) -> GameState:
    """``p`` in its seat; ``more``: other fields of the game state changed in the same copy."""
    p1, p2 = g.players
    return rep(g, players=(p, p2) if p.seat == "P1" else (p1, p), **more)


def slot_at(ref: str) -> tuple[int, int]:
    """(player index, slot index) of a slot reference: from the table, else parsed (an error for
    a reference that is not a slot)."""
    at = _SLOT_AT.get(ref)
    if at is None:
        seat, i = parse_slot(ref)
        at = (seat_index(seat), i)
    return at


def pool_at(ref: str) -> tuple[int, int | None]:
    """(player index, slot index or None for the master pool) of a pool reference."""
    at = _POOL_AT.get(ref)
    if at is None:
        seat, i = parse_pool(ref)
        at = (seat_index(seat), i)
    return at


def servant(g: GameState, ref: str) -> Servant:
    at = _SLOT_AT.get(ref)  # ``slot_at``, its common case in this frame
    s, i = at if at is not None else slot_at(ref)
    return g.players[s].servants[i]


def with_servant(g: GameState, ref: str, sv: Servant, **more: object) -> GameState:
    """``sv`` at ``ref``; ``more``: other fields of the game state changed in the same copy."""
    at = _SLOT_AT.get(ref)
    s, i = at if at is not None else slot_at(ref)
    players = g.players
    p = players[s]
    svs = p.servants
    p = rep(p, servants=svs[:i] + (sv,) + svs[i + 1:])
    return rep(g, players=(p, players[1]) if s == 0 else (players[0], p), **more)


def update_servant(g: GameState, ref: str, **changes: object) -> GameState:
    """The servant at ``ref`` with ``changes`` replaced: one look-up of the slot where
    ``with_servant(g, ref, rep(servant(g, ref), ...))`` makes two."""
    return rep(g, players=players_updating(g, ref, **changes))


def players_updating(g: GameState, ref: str, **changes: object) -> tuple[PlayerState, ...]:
    """The players of ``g`` with the servant at ``ref`` changed by ``changes``: what
    ``update_servant`` writes, for a caller that changes other fields of the game state in the
    same copy (``rep(g, players=players_updating(g, ref, ...), acting=..., notes=...)``)."""
    at = _SLOT_AT.get(ref)
    s, i = at if at is not None else slot_at(ref)
    players = g.players
    p = players[s]
    svs = p.servants
    p = rep(p, servants=svs[:i] + (rep(svs[i], **changes),) + svs[i + 1:])
    return (p, players[1]) if s == 0 else (players[0], p)


def map_servants(g: GameState, change: Callable[[Servant], Servant]) -> GameState:
    """Every servant of both fields replaced by ``change(servant)``, in one copy of the game state."""
    return rep(g, players=tuple(rep(p, servants=tuple(map(change, p.servants))) for p in g.players))


def slots_of(seat: str) -> list[str]:
    known = _SLOTS_OF.get(seat)
    return list(known) if known is not None else [f"{seat}.{s}" for s in SLOTS]


def all_slots() -> list[str]:
    return list(ALL_SLOTS)


def both_fields(g: GameState) -> zip:
    """(slot, servant) of both fields in slot order, P1's first, read without parsing a reference."""
    return zip(ALL_SLOTS, g.players[0].servants + g.players[1].servants)


def pool(g: GameState, ref: str) -> Pool:
    at = _POOL_AT.get(ref)
    s, i = at if at is not None else pool_at(ref)
    p = g.players[s]
    return p.master if i is None else p.servants[i].pool


def with_pool(g: GameState, ref: str, pl: Pool) -> GameState:
    s, i = pool_at(ref)
    players = g.players
    p = players[s]
    if i is None:
        p = rep(p, master=pl)
    else:
        svs = p.servants
        p = rep(p, servants=svs[:i] + (rep(svs[i], pool=pl),) + svs[i + 1:])
    return rep(g, players=(p, players[1]) if s == 0 else (players[0], p))


def with_pools(g: GameState, changes: dict[str, Pool], **more: object) -> GameState:
    """Several pools written at once (a payment from a servant and its master): one copy of each
    player touched and of the game state, whatever the number of pools; ``more``: other fields of
    the game state changed in that same copy."""
    players = list(g.players)
    touched: dict[int, tuple[Pool | None, list[Servant] | None]] = {}
    for ref, pl in changes.items():
        s, i = pool_at(ref)
        master, svs = touched.get(s, (None, None))
        if i is None:
            master = pl
        else:
            if svs is None:
                svs = list(players[s].servants)
            svs[i] = rep(svs[i], pool=pl)
        touched[s] = (master, svs)
    for s, (master, svs) in touched.items():
        p = players[s]
        players[s] = rep(p, master=p.master if master is None else master,
                         servants=p.servants if svs is None else tuple(svs))
    return rep(g, players=tuple(players), **more)


def alive(g: GameState, seat: str) -> list[str]:
    return [r for r, sv in zip(_SLOTS_OF[seat], player(g, seat).servants) if not sv.destroyed]


def has_alive(p: PlayerState) -> bool:
    """Whether a non-destroyed servant is left on ``p``'s field."""
    for sv in p.servants:
        if not sv.destroyed:
            return True
    return False


def limited(g: GameState, seat: str) -> bool:
    """E2D-LIM-9: exactly 3 damage cards and exactly one non-destroyed servant."""
    p = player(g, seat)
    return p.damage_cards == 3 and sum(not sv.destroyed for sv in p.servants) == 1


def note(g: GameState, text: str) -> GameState:
    return rep(g, notes=g.notes + (text,))


def new_servant(state: State, card_id: str, instance: int) -> Servant:
    """A servant entering play from the catalog, with its printed stats (E2D-SETUP-1, E2D-ACT-24)."""
    c = state.catalog.servants[card_id]
    return Servant(instance=instance, card=card_id, name=c.name, type=c.type,
                   printed=Stats(DUR=c.DUR, ATK=c.ATK, DEF=c.DEF, SPD=c.SPD))
