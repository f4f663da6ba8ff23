"""Instance references (rules §15): how an event names a card in play, that is in a player's
energy zone, field or territory, or in the resolution zone.

A deck holds up to four cards of a name, so two units or four energy cards of one name on the
table are ordinary (BD-LIM-7). Each card that enters a player's play zones gets the next number
k of its name for that player in this game (a card that leaves and comes back gets the next one,
BD-RUL-38; moving from the resolution zone to the field keeps it). A reference is the card name
while it is the only card of that name in the zones the field looks in, else ``NAME#k``; a field
that may name either player's card takes ``PLAYER:REF``, and a bare REF only while it is
unambiguous across both sides. An ambiguous bare name is malformed input that lists the
references it could mean; a reference that names no card is the field's own rule to refuse.

An ability in the resolution zone is named the same way by its ability id."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

from adjudicator.games.builddivide.state import Energy, Player, State, Unit
from adjudicator.engine.protocol import Malformed

PLAY_ZONES = ("ENERGY", "FIELD", "TERRITORY")
WORDS = {"ENERGY": "energy zone", "FIELD": "field", "TERRITORY": "territory", "STACK": "resolution zone"}


class Placed(NamedTuple):
    """One card in play: whose it is (the controller, in the resolution zone), where, its name and
    number, and ``key``: the unit's instance or the resolution-zone item's id (0 otherwise)."""

    owner: str
    zone: str  # ENERGY | FIELD | TERRITORY | STACK
    name: str
    k: int
    key: int = 0

    @property
    def instance(self) -> str:
        """The full reference, valid in every field that looks in this card's zone."""
        return f"{self.owner}:{self.name}#{self.k}"


def of_player(p: Player, zones: Collection[str] = PLAY_ZONES) -> list[Placed]:
    out: list[Placed] = []
    if "ENERGY" in zones:
        out += [Placed(p.name, "ENERGY", e.name, e.k) for e in p.energy]
    if "FIELD" in zones:
        out += [Placed(p.name, "FIELD", u.name, u.k, u.iid) for u in p.field]
    if "TERRITORY" in zones and p.territory is not None:
        out.append(Placed(p.name, "TERRITORY", p.territory.name, 1))
    return out


def in_play(s: State, owners: Iterable[str] | None = None, zones: Collection[str] = PLAY_ZONES) -> list[Placed]:
    """The cards in ``zones`` of ``owners`` (all players when None), in seat order."""
    names = s.names if owners is None else tuple(owners)
    out = [c for p in s.game.players if p.name in names for c in of_player(p, zones)]
    if "STACK" in zones:
        out += [Placed(i.controller, "STACK", i.card or i.ability_id or "", i.k, i.id) for i in s.game.stack if i.controller in names]
    return out


def energy_named(p: Player, text: str, players: Sequence[str]) -> list[Energy]:
    """The energy cards of ``p`` that ``text`` could mean: ``matching`` over ``p``'s energy zone
    alone, without listing its cards first (a bare name, the common case, without ``parse``)."""
    if ":" in text or "#" in text:
        owner, name, k = parse(text, players)
        if owner is not None and owner != p.name:
            return []
    else:
        name, k = text, None
    found = []
    for e in p.energy:
        if e.name == name and (k is None or e.k == k):
            found.append(e)
    return found


def units_named(s: State, text: str, owners: Collection[str] | None = None) -> list[tuple[Player, Unit]]:
    """The units on the fields of ``owners`` (every player's when None) that ``text`` could mean,
    with their owners, in seat order: ``matching`` over those fields, without listing them first."""
    owner, name, k = parse(text, s.names)
    return [(p, u) for p in s.game.players if (owners is None or p.name in owners) and (owner is None or p.name == owner)
            for u in p.field if u.name == name and (k is None or u.k == k)]


def parse(text: str, players: Sequence[str]) -> tuple[str | None, str, int | None]:
    """``PLAYER:NAME#k`` into (player, name, k); the player and the number may be left out."""
    owner, sep, rest = text.partition(":")
    if not sep or owner not in players:
        owner, rest = None, text
    name, sep, k = rest.rpartition("#")
    if sep and name and k.isdigit():
        return owner, name, int(k)
    return owner, rest, None


def matching(text: str, scope: Iterable[Placed], players: Sequence[str]) -> list[Placed]:
    owner, name, k = parse(text, players)
    return [c for c in scope if c.name == name and (owner is None or c.owner == owner) and (k is None or c.k == k)]


def find(text: str, scope: Sequence[Placed], players: Sequence[str], path: str) -> Placed | None:
    """The one card of ``scope`` that ``text`` names, None when it names none; ``Malformed`` at
    ``path`` when it could mean several, listing them."""
    found = matching(text, scope, players)
    if len(found) > 1:
        where = " and ".join(dict.fromkeys(WORDS[c.zone] for c in found))
        raise Malformed(f"{text!r} is ambiguous: the {where} holds {len(found)} cards it could mean "
                        f"({', '.join(ref(c, scope) for c in found)}); name one of them", path)
    return found[0] if found else None


def ref(c: Placed, scope: Sequence[Placed]) -> str:
    """The shortest reference that means ``c`` alone among ``scope``."""
    same = [x for x in scope if x.name == c.name]
    if len(same) <= 1:
        return c.name
    if sum(1 for x in same if x.k == c.k) == 1:
        return f"{c.name}#{c.k}"
    if sum(1 for x in same if x.owner == c.owner) == 1:
        return f"{c.owner}:{c.name}"
    return c.instance


def refs(scope: Sequence[Placed]) -> list[str]:
    return [ref(c, scope) for c in scope]
