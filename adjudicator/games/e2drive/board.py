"""The E2Drive table as one viewer may see it (the kit's generic ``Board``; rules §9), in the
table's words: what changed between two boards is what ``adj act``, ``adj diff`` and ``adj replay``
say (``adjudicator.presentation.changes``).

Every count the table shows once: the deck, the hand, the damage cards and the trash are zones
(their sizes speak for them); a player's counters are the master ether counters, how many of them
are on, the limited state and the upkeep due; a servant's are its damage, its ether on and held,
and its stats. A hand shows the cards known to be in it to its owner and the judge, a count to the
rest; a face-down servant shows its opponent no card. What else the table shows (an ATK under way,
locks, restrictions, cost changes, the games of the match) is in the notes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from adjudicator.games.e2drive import order
from adjudicator.games.e2drive.state import SEATS, PlayerState, State, limited, player, servant, slots_of
from adjudicator.games.e2drive.stats import stats
from adjudicator.games.e2drive.view import PHASE_WORDS, overdrive_view, result_text, seat_of_viewer, waiting
from adjudicator.engine.kit import Board, BoardCard, Drawings, Zone, hand_zone


#: What was drawn last for a slot, a seat's servants and a player's open zones, with what it was
#: drawn from (the kit's ``Drawings``).
_DRAWN = Drawings()
_remember = _DRAWN.keep


def _servant_card(state: State, r: str, name: str, sv: Any, hidden: bool) -> tuple[BoardCard, Zone | None]:
    cur = stats(sv, state.options)
    e = sv.pool
    nums = {"damage": sv.damage, "ether on": e.on, "ether held": e.held_upkeep + e.held_lock + e.held_invisible,
            "SPD": cur["SPD"]}
    if not hidden:
        nums.update({"DUR": cur["DUR"], "ATK": cur["ATK"], "DEF": cur["DEF"]})
    overdrive = {} if hidden else overdrive_view(sv)
    tags = tuple([r, sv.action] + sv.status.names() + (["destroyed"] if sv.destroyed else [])
                 + [f"overdrive {k} {val}" for k, val in overdrive.items() if k != "expires"])
    card = BoardCard(id=None if hidden else sv.card, label=None if hidden else sv.name,
                     face_up=not hidden, turned=sv.action == "acted", counters=nums, tags=tags)
    equipment = None
    if sv.equipment:
        equipment = Zone(name=f"{r} equipment", owner=name,
                         cards=tuple(BoardCard(id=t.card, label=t.card, tags=(f"owner {t.owner}",)) for t in sv.equipment))
    return card, equipment


def _servants(state: State, seat: str, name: str, other: bool) -> list[Zone]:
    """The servants of ``seat`` as ``view`` shows them to a viewer of another seat (``other``) or
    of this one and the judge: to another, a face-down servant by its SPD alone (E2D-HID-1 (d))."""
    g = state.game
    cards = []
    equipment: list[Zone] = []
    for r in slots_of(seat):
        sv = servant(g, r)
        hidden = other and sv.face_down
        key = ("slot", r, name, hidden)
        hit = _DRAWN.get(key)
        if hit is not None and hit[0] is sv and hit[1] is state.options:
            card, zone = hit[2], hit[3]
        else:
            card, zone = _servant_card(state, r, name, sv, hidden)
            _remember(key, (sv, state.options, card, zone))
        cards.append(card)
        if zone is not None:
            equipment.append(zone)
    key = ("servants", seat, name, other)
    hit = _DRAWN.get(key)
    if hit is not None and len(hit[0]) == len(cards) and all(a is b for a, b in zip(hit[0], cards)) \
            and len(hit[1]) == len(equipment) and all(a is b for a, b in zip(hit[1], equipment)):
        return hit[2]
    zones = [Zone(name="servants", owner=name, cards=tuple(cards)), *equipment]
    _remember(key, (cards, equipment, zones))
    return zones


def _open_zones(p: PlayerState, name: str) -> list[Zone]:
    """The zones of a player every viewer sees alike."""
    key = ("open", name)
    hit = _DRAWN.get(key)
    if hit is not None and hit[0] is p:
        return hit[1]
    zones = [
        Zone(name="tool field", owner=name,
             cards=tuple(BoardCard(id=t.card, label=t.card, counters={"upkeep": t.upkeep}) for t in p.tool_field)),
        Zone(name="damage cards", owner=name, cards=tuple(BoardCard(face_up=False) for _ in range(p.damage_cards))),
        Zone(name="trash", owner=name, cards=tuple(BoardCard(id=c, label=c) for c in p.trash)),
        Zone(name="deck", owner=name, count=p.deck_count),
    ]
    _remember(key, (p, zones))
    return zones


def _hand(p: PlayerState, sees: bool) -> Zone:
    return hand_zone(p.name, p.hand_known, p.hand_count, sees)


#: a status in the table's words, after the servant's slot (E2D-LIM-14, -15, -17, -18)
STATUS_WORDS = {"invisible": "invisible", "freeze": "frozen", "heat": "has heat", "wait": "has wait"}


@functools.lru_cache(maxsize=4096)
def _game_note(names: tuple[str, ...], number: int, result: str | None, reason: str | None) -> str:
    """A game of the match and its result (worked out once: a long match's board lists every game
    played, at every event)."""
    return f"game {number}: {result_text(names, result, reason)}"


def _notes(state: State) -> list[str]:
    g = state.game
    out = []
    for seat in SEATS:  # a status or a destruction shows till it ends ("over: ...")
        held = player(g, seat).servants
        hit = _DRAWN.get(("statuses", seat))
        if hit is not None and hit[0] is held:
            out += hit[1]
            continue
        mine = []
        for r in slots_of(seat):
            sv = servant(g, r)
            mine += [f"{r} {STATUS_WORDS.get(st, st)}" for st in sv.status.names()]
            if sv.destroyed:
                mine.append(f"{r} destroyed")
        _remember(("statuses", seat), (held, mine))
        out += mine
    a = g.attack
    if a is not None:
        paid = " + ".join(f"{x.pool}×{x.n}" for x in a.payment) or "0e"
        out.append(f"ATK: {a.attacker} → {a.target}, paying {paid}")
    out += [f"lock: {lk.n} of {lk.pool} held by the Etherizer overdrive of {lk.by_slot}" for lk in g.locks]
    out += [f"{'permitted' if r.permit else 'forbidden'}: {r.action} by {r.subject} ({r.duration.replace('_', ' ')})"
            for r in g.restrictions]
    out += [f"tool costs {c.delta:+}e for {c.scope} ({c.duration.replace('_', ' ')})" for c in g.costs]
    hit = _DRAWN.get(("games", state.names))
    if hit is not None and hit[0] is state.games:
        out += hit[1]
    else:
        played = [_game_note(state.names, r.number, r.result, r.reason) for r in state.games]
        _remember(("games", state.names), (state.games, played))
        out += played
    if state.voided:
        out.append("the match is void")
    return out


def board(state: State, viewer: str | None = None) -> Board:
    """The table as ``viewer`` sees it: what ``view`` shows them, drawn (built from the state
    without the rest of the view, for the page draws a board at every event)."""
    return boards(state, (viewer,))[0]


def boards(state: State, viewers: Sequence[str | None]) -> list[Board]:
    """The table as each of ``viewers`` sees it: what all see alike is worked out once."""
    g = state.game
    if not g.players:
        return [Board(players=state.names) for _ in viewers]
    counters: dict[str, dict[str, Any]] = {}
    open_: dict[str, list[Zone]] = {}
    for s, name in zip(SEATS, state.names):
        p = player(g, s)
        counters[name] = {"master ether counters": p.master.size, "master ether on": p.master.on,
                          "limited state": limited(g, s), "upkeep due": order.upkeep_due(g, s)}
        open_[s] = _open_zones(p, name)
    turn, phase, waits, notes = str(g.turn), PHASE_WORDS[g.phase], waiting(state), tuple(_notes(state))
    servants: dict[tuple[str, bool], list[Zone]] = {}
    hands: dict[tuple[str, bool], Zone] = {}
    face_down = {s: any(servant(g, r).face_down for r in slots_of(s)) for s in SEATS}
    out = []
    for viewer in viewers:
        me = seat_of_viewer(state, viewer)
        zones: list[Zone] = []
        for s, name in zip(SEATS, state.names):
            sees = me is None or me == s
            # another seat's viewer sees these servants apart only where one is face down
            other = me is not None and me != s and face_down[s]
            if (s, other) not in servants:
                servants[(s, other)] = _servants(state, s, name, other)
            if (s, sees) not in hands:
                p = player(g, s)
                key = ("hand", name, sees)
                hit = _DRAWN.get(key)
                if hit is not None and hit[0] is p:
                    hands[(s, sees)] = hit[1]
                else:
                    hands[(s, sees)] = _hand(p, sees)
                    _remember(key, (p, hands[(s, sees)]))
            zones += [*servants[(s, other)], *open_[s], hands[(s, sees)]]
        out.append(Board(players=state.names, counters=counters, zones=tuple(zones), turn=turn, phase=phase,
                         waiting=waits, notes=notes))
    return out
