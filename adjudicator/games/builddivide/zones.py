"""Players, zones and the moves between them: drawing (§6.5), the unseen pool (BD-HID-5), the
life zone (BD-STATE-7), derived power and hit (BD-STATE-6), state checks (BD-LIM-12) and game
results (BD-OVR-3/5/8)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide.catalog import Card
from adjudicator.games.builddivide.state import Energy, GameState, Player, Result, State, Unit, replace
from adjudicator.engine.protocol import Violation


# -- lookups --------------------------------------------------------------------------------------
def player(s: State, name: str) -> Player:
    for p in s.game.players:
        if p.name == name:
            return p
    raise StopIteration  # as ``next`` of an exhausted search: no such player is seated


def seated(players: tuple[Player, ...], changed: Player) -> tuple[Player, ...]:
    """``players`` with the one of ``changed``'s name replaced by it (none replaced when no player has it)."""
    name = changed.name
    if len(players) == 2:  # the table of two (BD-OVR-1), without building a generator
        a, b = players
        return (changed, b) if a.name == name else (a, changed) if b.name == name else players
    return tuple(changed if p.name == name else p for p in players)


def swap(cards: tuple[Any, ...], old: Any, new: Any) -> tuple[Any, ...]:
    """``cards`` (a field, an energy zone) with ``new`` in place of ``old``, one of them: each card
    in play is unique (its iid, or its name and number), so ``index`` finds ``old`` itself."""
    i = cards.index(old)
    return cards[:i] + (new,) + cards[i + 1:]


def put(s: State, *changed: Player, **game: object) -> State:
    """``s`` with each of ``changed`` in its seat, and ``game``'s fields of the game changed too: one
    copy of the game state for all of them."""
    players = s.game.players
    for p in changed:
        players = seated(players, p)
    return replace(s, game=replace(s.game, players=players, **game))


def set_game(s: State, **changes) -> State:
    return replace(s, game=replace(s.game, **changes))


def opponent(s: State, name: str) -> str:
    a, b = s.names
    return b if name == a else a


def card(s: State, name: str) -> Card | None:
    return s.catalog.get(name)


def find_unit(s: State, ref: str, path: str, owner: str | None = None) -> tuple[Player, Unit] | None:
    """The unit on ``owner``'s field (either field when None) that the instance reference ``ref``
    names (§15), None when it names none; ``Malformed`` at ``path`` when it could mean several."""
    owners = None if owner is None else (owner,)
    found = R.units_named(s, ref, owners)
    if len(found) > 1:  # malformed: the error lists the units it could mean
        R.find(ref, R.in_play(s, owners, ("FIELD",)), s.names, path)
    return found[0] if found else None


def unit_ref(s: State, unit: Unit, owner: str | None = None) -> str:
    """How a unit is named on ``owner``'s field (on either field when None)."""
    scope = R.in_play(s, None if owner is None else (owner,), ("FIELD",))
    return next((R.ref(c, scope) for c in scope if c.key == unit.iid), unit.name)


def enter_play(p: Player, name: str) -> tuple[Player, int]:
    """``p`` with one more card of ``name`` entered into its play zones, and that card's number
    (§15: a card that leaves play and comes back gets the next one)."""
    k = p.entered.get(name, 0) + 1
    return replace(p, entered={**p.entered, name: k}), k


def by_iid(s: State, iid: int) -> tuple[Player, Unit] | None:
    """The unit instance ``iid`` if it is still on a field."""
    for p in s.game.players:
        for u in p.field:
            if u.iid == iid:
                return p, u
    return None


def add_energy(p: Player, name: str, standing: bool = True) -> Player:
    """``name`` joins ``p``'s energy zone face up, with the next number of its name."""
    p, k = enter_play(p, name)
    return replace(p, energy=p.energy + (Energy(name=name, k=k, standing=standing),))


def fielded(g: GameState, p: Player, name: str, k: int, standing: bool = True) -> tuple[Player, Unit]:
    """``p`` with a new unit instance (BD-RES-19) of ``name`` number ``k`` on its field, and that
    unit: its iid is the game's ``next_item``, which the copy of the game it enters moves on to
    ``unit.iid + 1``."""
    unit = Unit(name=name, k=k, iid=g.next_item, standing=standing, entered_turn=g.turn_number)
    return replace(p, field=p.field + (unit,)), unit


def enter_field(s: State, owner: str, name: str, standing: bool = True, k: int | None = None) -> State:
    """A new unit instance on ``owner``'s field: number ``k`` when it comes from the resolution
    zone (it stays in play), the next number of its name when it enters play now."""
    p = player(s, owner)
    if k is None:
        p, k = enter_play(p, name)
    p, unit = fielded(s.game, p, name, k, standing)
    return put(s, p, next_item=unit.iid + 1)


def power(s: State, u: Unit) -> int:
    c = s.catalog.get(u.name)
    return _derived(u, "POWER", c.power if c else 0)


def hit(s: State, u: Unit) -> int:
    c = s.catalog.get(u.name)
    return _derived(u, "HIT", c.hit if c else 0)


def _derived(u: Unit, stat: str, printed: int) -> int:
    """A unit's ``stat`` now (BD-STATE-6): the catalog's ``printed`` figure, or a judge's PATCH of
    it (BD-EFF-27), plus the unit's modifiers of that stat; most units have neither."""
    if u.printed:
        printed = u.printed.get(stat, printed)
    if not u.modifiers:
        return printed
    return printed + sum(m.delta for m in u.modifiers if m.stat == stat)


def has_status(u: Unit, tag: str) -> bool:
    return any(x.tag == tag for x in u.statuses)


def life_split(p: Player) -> tuple[int, int]:
    """(yellow, red): the bottom five life cards are red, the rest yellow (BD-STATE-7)."""
    n = len(p.life)
    return max(0, n - 5), min(5, n)


def life_text(p: Player) -> str:
    y, r = life_split(p)
    return f"{len(p.life)} (Y{y}/R{r})"


# -- the unseen pool (BD-HID-5) -------------------------------------------------------------------------
def disclosed(s: State, p: Player, name: str, where: str) -> tuple[dict[str, int], tuple[str, ...]]:
    """A card of ``p`` becomes public from deck, hand or life: it must be in the unseen pool.
    ``p``'s unseen pool and revealed names after it (for a copy of ``p`` with its other changes)."""
    left = p.unseen.get(name, 0)
    if left <= 0:
        if s.options.identity_check == "REJECT":
            raise Violation("BD-HID-5", f"{name!r} cannot come from {p.name}'s {where}: every {name!r} of "
                                        f"{p.name}'s registered main deck is already known elsewhere", "UNKNOWN_IDENTITY")
        return p.unseen, p.revealed + (name,)
    return {**p.unseen, name: left - 1}, p.revealed + (name,)


def reveal(s: State, p: Player, name: str, where: str) -> Player:
    """``p`` after its card ``name`` becomes public (``disclosed``)."""
    unseen, revealed = disclosed(s, p, name, where)
    return replace(p, unseen=unseen, revealed=revealed)


def keep_disclosures(current: State, target: State) -> State:
    """BD-REW-8: what the abandoned events revealed stays known (the state is otherwise the target's)."""
    if current.game.game_no != target.game.game_no:
        return target
    players = []
    for p in target.game.players:
        was = player(current, p.name)
        extra = list(was.revealed)
        for name in p.revealed:
            if name in extra:
                extra.remove(name)
        players.append(replace(p, disclosed_abandoned=was.disclosed_abandoned + tuple(extra)))
    owed = target.game.shuffle_owed
    if target.options.rewind_card_return == "SHUFFLE":  # BD-REW-8: drawn cards went back into the deck
        owed += tuple(p.name for p in target.game.players if player(current, p.name).deck_draws > p.deck_draws and p.name not in owed)
    return replace(target, game=replace(target.game, players=tuple(players), shuffle_owed=owed))


def unreveal(p: Player, name: str) -> Player:
    """A public card goes back to deck, hand or life: it returns to the pool."""
    return replace(p, unseen={**p.unseen, name: p.unseen.get(name, 0) + 1})


def hand_without(hand: tuple[str | None, ...], name: str) -> tuple[str | None, ...] | None:
    """The hand after ``name`` leaves it: that card if known, else one card whose name nobody
    recorded (None); None when neither is there."""
    if name in hand:
        i = hand.index(name)
    elif None in hand:
        i = hand.index(None)
    else:
        return None
    return hand[:i] + hand[i + 1:]


def take_from_hand(s: State, p: Player, name: str, rule: str, what: str) -> Player:
    """``name`` leaves ``p``'s hand and becomes public; ``rule`` when it cannot be in the hand."""
    hand = hand_without(p.hand, name)
    if hand is None:
        shown = f"hand of {len(p.hand)}" + (f" ({', '.join(h for h in p.hand if h)})" if p.hand else "")
        raise Violation(rule, f"{p.name} cannot {what} {name!r}: it is not in {p.name}'s {shown}", "NOT_IN_HAND")
    unseen, revealed = disclosed(s, p, name, "hand")
    return replace(p, hand=hand, unseen=unseen, revealed=revealed)


# -- drawing (§6.5) -----------------------------------------------------------------------------------------
def draw_one(s: State, p: Player, rule_draw: bool, name: str | None = None) -> Player | None:
    """One card drawn: from the deck, else from the top of the life zone (no trigger check), else
    None (the player loses, BD-OVR-3b). With ``life_fallback_all_draws`` false only the rule draw
    falls back: an effect draw from an empty deck draws nothing and loses nothing (BD-RUL-9,
    BD-OVR-4), and ``p`` comes back as it was."""
    if p.deck_count > 0:
        return replace(p, deck_count=p.deck_count - 1, deck_draws=p.deck_draws + 1, hand=p.hand + (name,))
    if not (rule_draw or s.options.life_fallback_all_draws):
        return p
    if p.life:
        return replace(p, life=p.life[:-1], hand=p.hand + (p.life[-1] if name is None else name,))
    return None


def draw_many(s: State, names: Iterable[str], n: int, rule_draw: bool = False) -> State:
    """Each named player draws ``n`` cards card by card in parallel; losses found at the same card
    index are applied together (BD-EFF-16, BD-RUL-10/11)."""
    names = list(names)
    for _ in range(n):
        losers = []
        for name in names:
            got = draw_one(s, player(s, name), rule_draw)
            if got is None:
                losers.append(name)
            else:
                s = put(s, got)
        if losers:
            return lose(s, losers, "deck_out", "cannot draw: deck and life zone are empty")
    return s


# -- results ------------------------------------------------------------------------------------------
def end_game(s: State, winner: str | None, reason: str, detail: str) -> State:
    return set_game(s, status="ENDED", result=Result(winner=winner, reason=reason, detail=detail),
                    attack=None, damage=None, pending_damage=(), release_window=None)


def lose(s: State, losers: list[str], reason: str, detail: str) -> State:
    """``losers`` lose at once; two at once follow ``simultaneous_loss_result`` (BD-RUL-11)."""
    if len(set(losers)) == 1:
        loser = losers[0]
        return end_game(s, opponent(s, loser), reason, f"{loser} {detail}")
    tp = s.game.turn_player
    rule = s.options.simultaneous_loss_result
    if rule == "DRAW" or tp is None:
        return end_game(s, None, "simultaneous_loss", f"both players {detail}")
    winner = opponent(s, tp) if rule == "TURN_PLAYER_LOSES" else tp
    return end_game(s, winner, "simultaneous_loss", f"both players {detail} ({rule})")


def over(s: State) -> bool:
    return s.game.status != "IN_PROGRESS" and s.game.status != "SETUP"


# -- state checks (BD-LIM-12) ---------------------------------------------------------------------------------
def leave_field(s: State, owner: Player, unit: Unit, to: str = "graveyard") -> State:
    """A unit leaves the field (damage, modifiers and statuses go with it, BD-RES-19)."""
    field = list(owner.field)
    field.remove(unit)
    p = replace(owner, field=tuple(field))
    if to == "graveyard":
        p = replace(p, graveyard=p.graveyard + (unit.name,))
    elif to == "remove":
        p = replace(p, remove_zone=p.remove_zone + (unit.name,))
    s = put(s, p)
    win = s.game.release_window
    if win is not None and win[1] == unit.iid:
        s = set_game(s, release_window=None)
    return s


def state_checks(s: State, before: State | None = None) -> State:
    """SC1: every unit whose marked damage is at least its power is destroyed, all at once. The
    check runs after most events over every unit on the table: ``power`` is written out here, the
    catalog's figure read once a unit and ``_derived`` asked only for a unit with a PATCH or a
    modifier. ``before``: the state the event started from, whose checks were made after the event
    before it: a field still the same tuple holds the same units, none of them to destroy."""
    if over(s):
        return s
    players = s.game.players
    if before is not None:
        if players is before.game.players:
            return s
        players = [p for p, q in zip(players, before.game.players) if p.field is not q.field]  # seats do not move
    catalog = s.catalog
    doomed = []
    for p in players:
        for u in p.field:
            c = catalog.get(u.name)
            printed = c.power if c else 0
            if u.damage >= (_derived(u, "POWER", printed) if u.printed or u.modifiers else printed):
                doomed.append((p, u))
    if not doomed:
        return s
    for p, u in doomed:
        s = leave_field(s, player(s, p.name), u)
    return s

