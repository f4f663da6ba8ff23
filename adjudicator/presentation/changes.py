"""What changed between two pictures of the table, in the table's words (``adj diff``, the page).

Game-agnostic: it compares two ``Board``s (``Game.board``), so every game that draws its table
gets the same wording: cards moved from zone to zone, cards turned or flipped, counters on cards
and players changed, piles that grew or shrank, whose turn and which phase. Cards are followed
by id; a card whose face the viewer may not see has no id, so only the size of its zone speaks
for it ("bob's hand: 7 -> 6 cards"), and nothing hidden leaks into the words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from adjudicator.engine.kit import Board, BoardCard, Zone


class BoardChange(NamedTuple):
    """One change: ``kind`` (moved, entered, left, card, counter, pile, turn, phase, waiting,
    note), the player it belongs to (None: the table), the zone, the card, and the words."""

    kind: str
    player: str | None
    zone: str | None
    text: str
    card: str | None = None
    old: Any = None
    new: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "zone": self.zone, "card": self.card,
                "from": self.old, "to": self.new, "text": self.text}


def zone_name(z: Zone) -> str:
    return f"{z.owner}'s {z.name}" if z.owner else z.name


def zone_size(z: Zone) -> int:
    return z.count if z.count is not None else len(z.cards)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return "-" if v is None else str(v)


def _places(board: Board, ids: set[str] | None = None) -> dict[str, list[tuple[str, Zone, BoardCard]]]:
    """Where each card is (``ids``: only those cards), in the board's order: the zone's name,
    the zone, the card."""
    out: dict[str, list[tuple[str, Zone, BoardCard]]] = {}
    for z in board.zones:
        name = None
        for c in z.cards:
            if c.id is not None and (ids is None or c.id in ids):
                if name is None:
                    name = zone_name(z)
                out.setdefault(c.id, []).append((name, z, c))
    return out


def _named(board: Board) -> dict[str, Zone]:
    """The board's zones by name (a name given twice: the last zone of that name)."""
    return {zone_name(z): z for z in board.zones}


def _touched(before: Board, after: Board, old: dict[str, Zone], new: dict[str, Zone]) -> set[str] | None:
    """The cards in a zone that is not the same on both sides (None: every card, when a board
    names two zones alike). A card found only in zones equal on both sides has not changed."""
    if len(old) != len(before.zones) or len(new) != len(after.zones):
        return None
    ids: set[str] = set()
    for name, z in new.items():
        a = old.get(name)
        if a is None or a != z:
            ids.update(c.id for c in z.cards if c.id is not None)
            if a is not None:
                ids.update(c.id for c in a.cards if c.id is not None)
    for name, a in old.items():
        if name not in new:
            ids.update(c.id for c in a.cards if c.id is not None)
    return ids


def _card_changes(card: str, where: str, z: Zone, a: BoardCard, b: BoardCard) -> list[BoardChange]:
    if a == b:
        return []
    out = []
    if a.face_up != b.face_up:
        out.append(BoardChange("card", z.owner, z.name, f"{card} in {where} turned face {'up' if b.face_up else 'down'}", card, a.face_up, b.face_up))
    if a.turned != b.turned:
        out.append(BoardChange("card", z.owner, z.name, f"{card} in {where} {'turned sideways' if b.turned else 'stood upright'}", card, a.turned, b.turned))
    for k in dict.fromkeys([*a.counters, *b.counters]):
        x, y = a.counters.get(k, 0), b.counters.get(k, 0)
        if x != y:
            out.append(BoardChange("counter", z.owner, z.name, f"{card} in {where}: {k} {x} -> {y}", card, x, y))
    if a.group != b.group:
        text = f"{card} in {where} " + (f"joined {b.group}" if b.group else f"left {a.group}")
        out.append(BoardChange("card", z.owner, z.name, text, card, a.group, b.group))
    return out


def _cards(before: Board, after: Board, old_zones: dict[str, Zone], new_zones: dict[str, Zone]) -> list[BoardChange]:
    touched = _touched(before, after, old_zones, new_zones)
    old, new = _places(before, touched), _places(after, touched)
    out: list[BoardChange] = []
    for card in dict.fromkeys([*old, *new]):
        was, now = old.get(card, ()), new.get(card, ())
        if len(was) == 1 and len(now) == 1 and was[0][0] == now[0][0]:  # the common case: it stayed where it was
            out += _card_changes(card, now[0][0], now[0][1], was[0][2], now[0][2])
            continue
        was, now = list(was), list(now)
        # the same card in the same zone on both sides: only its face, turn and counters can change
        for place in list(was):
            match = next((q for q in now if q[0] == place[0]), None)
            if match is not None:
                was.remove(place)
                now.remove(match)
                out += _card_changes(card, match[0], match[1], place[2], match[2])
        while was and now:
            (a, _, _), (b, zb, _) = was.pop(0), now.pop(0)
            out.append(BoardChange("moved", zb.owner, zb.name, f"{card} moved from {a} to {b}", card, a, b))
        out += [BoardChange("left", z.owner, z.name, f"{card} left {name}", card, name, None) for name, z, _ in was]
        out += [BoardChange("entered", z.owner, z.name, f"{card} came into {name}", card, None, name) for name, z, _ in now]
    return out


def _piles(old: dict[str, Zone], new: dict[str, Zone], after: Board) -> list[BoardChange]:
    """Zones whose size changed where some card is unseen (a deck, a hidden hand)."""
    out = []
    named = new.items() if len(new) == len(after.zones) else ((zone_name(z), z) for z in after.zones)
    for name, z in named:
        a = old.get(name)
        n_old, n_new = (zone_size(a) if a else 0), zone_size(z)
        if n_old == n_new:
            continue
        hidden = any(c.id is None for c in z.cards) or (a is not None and any(c.id is None for c in a.cards))
        counted_only = not z.cards and (a is None or not a.cards)
        if n_old != n_new and (hidden or counted_only):
            out.append(BoardChange("pile", z.owner, z.name, f"{name}: {n_old} -> {n_new} cards", None, n_old, n_new))
    return out


def _counters(before: Board, after: Board) -> list[BoardChange]:
    if before.counters == after.counters:
        return []
    out = []
    for p in dict.fromkeys([*before.counters, *after.counters]):
        a, b = before.counters.get(p, {}), after.counters.get(p, {})
        for k in dict.fromkeys([*a, *b]):
            if a.get(k) != b.get(k):
                out.append(BoardChange("counter", p, None, f"{p} {k} {_value(a.get(k))} -> {_value(b.get(k))}", None, a.get(k), b.get(k)))
    return out


def _table(before: Board, after: Board) -> list[BoardChange]:
    out = []
    if before.turn != after.turn and after.turn:
        out.append(BoardChange("turn", None, None, f"turn: {before.turn or '-'} -> {after.turn}", None, before.turn, after.turn))
    if before.phase != after.phase:
        out.append(BoardChange("phase", None, None, f"phase: {before.phase or '-'} -> {after.phase or '-'}", None, before.phase, after.phase))
    if before.waiting != after.waiting and after.waiting:
        out.append(BoardChange("waiting", None, None, f"waiting for {after.waiting}", None, before.waiting, after.waiting))
    if before.notes == after.notes:
        return out
    gone = Counter(before.notes)
    added = []
    for n in after.notes:
        if gone[n]:
            gone[n] -= 1
        else:
            added.append(n)
            out.append(BoardChange("note", None, None, n, None, None, n))
    # a note that went without one of the same head taking its place ("attack: ...") has ended
    heads = {n.split(":")[0] for n in added}
    out += [BoardChange("note", None, None, f"over: {n}", None, n, None)
            for n in gone.elements() if n.split(":")[0] not in heads]
    return out


def board_changes(before: Board, after: Board) -> list[BoardChange]:
    """Every change from ``before`` to ``after``: counters of players, then cards, then piles,
    then the table (turn, phase, what it waits for, new notes)."""
    old, new = _named(before), _named(after)
    return _counters(before, after) + _cards(before, after, old, new) + _piles(old, new, after) + _table(before, after)


def grouped_lines(changes: Iterable[BoardChange], players: Iterable[str]) -> list[str]:
    """Changes as ``adj diff`` prints them: per player (in seat order), per zone, then the table."""
    changes = list(changes)
    lines: list[str] = []
    for p in [*players, None]:
        mine = [c for c in changes if c.player == p]
        if not mine:
            continue
        lines.append(f"{p}:" if p is not None else "table:")
        for zone in dict.fromkeys(c.zone for c in mine):
            here = [c for c in mine if c.zone == zone]
            if zone is None:
                lines.extend(f"  {c.text}" for c in here)
            else:
                lines.append(f"  {zone}:")
                lines.extend(f"    {c.text}" for c in here)
    return lines


def step_changes(game: Any, states: Any, seq: int, viewer: str | None = None) -> list[BoardChange]:
    """What event ``seq`` changed on the table as ``viewer`` sees it (``states``: the fold's
    ``history``, seq -> the state right after it, in its own branch)."""
    after = game.board(states[seq], viewer)
    before = game.board(states[seq - 1], viewer) if seq - 1 in states else Board(players=after.players)
    return board_changes(before, after)
