"""Paying a cost with energy (BD-ACT-0, BD-RUL-18): exact payment, colour parts and the generic
part, no pool. ``pay`` returns the payer with the listed energy rested, or raises BD-ACT-0
quoting what was tried; ``split`` is the judge's explanation of a payment."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide.catalog import Card
from adjudicator.games.builddivide.events import Pay
from adjudicator.games.builddivide.state import PaymentNote, Player, State, replace
from adjudicator.engine.protocol import Violation


class Cost:
    """A cost to pay: the colour parts and the total (generic part = total - colour parts)."""

    __slots__ = ("total", "colours")

    def __init__(self, total: int, colours: Mapping[str, int]):
        self.total = max(0, total)
        self.colours = {c: n for c, n in colours.items() if n > 0}

    @property
    def generic(self) -> int:
        return max(0, self.total - sum(self.colours.values()))

    def text(self) -> str:
        parts = [f"{c} {n}" for c, n in sorted(self.colours.items())]
        generic = self.generic
        if generic:
            parts.append(f"{generic} generic")
        return f"{self.total} ({' + '.join(parts) or 'free'})"


def card_cost(card: Card, adjustment: int = 0) -> Cost:
    """A card's play cost; a judge's ``cost_adjustment`` changes the generic part (never below 0)."""
    colours = card.colour_cost  # Cost keeps a copy of its own
    total = card.total_cost + adjustment
    return Cost(max(total, sum(colours.values())), colours)


def release_cost(territory: Card, reducer: int, order: str) -> Cost:
    """A territory's release cost reduced by the releasing unit's printed total cost (BD-RUL-28)."""
    colours = dict(territory.release_colour_cost or {})
    total = territory.release_cost_total or 0
    generic = max(0, total - sum(colours.values()))
    left = reducer
    if order == "GENERIC_FIRST":
        cut = min(generic, left)
        generic, left = generic - cut, left - cut
    for c in sorted(colours):
        cut = min(colours[c], left)
        colours[c], left = colours[c] - cut, left - cut
    if order != "GENERIC_FIRST":
        cut = min(generic, left)
        generic -= cut
    return Cost(generic + sum(colours.values()), colours)


def _show(payment: Sequence[Pay]) -> str:
    return "[" + ", ".join(f"{p.energy} as {p.as_}" for p in payment) + "]"


def _bad(player: Player, what: str, cost: Cost, payment: Sequence[Pay], why: str) -> Violation:
    return Violation("BD-ACT-0", f"{player.name} cannot pay {what} (cost {cost.text()}) with {_show(payment)}: {why}", "BAD_PAYMENT")


def pay(s: State, player: Player, payment: Sequence[Pay], cost: Cost, what: str, path: str = "$.payment",
        overpay: bool | None = None) -> Player:
    """The payer with the paid energy rested; BD-ACT-0 when the payment is not valid. Each entry
    names one energy card by its instance reference (§15; ``Malformed`` at ``path`` when it could
    mean several)."""
    names, catalog = s.names, s.catalog
    paid: dict[tuple[str, int], str] = {}
    chosen = []  # the cards of ``paid``, in the entries' order
    by_colour: dict[str, int] = {}  # how many entries pay as each colour
    for i, p in enumerate(payment):
        found = R.energy_named(player, p.energy, names)
        if len(found) > 1:  # malformed: the error lists the cards it could mean
            R.find(p.energy, R.of_player(player, ("ENERGY",)), names, f"{path}[{i}].energy")
        if not found:
            raise _bad(player, what, cost, payment, f"{p.energy} is not in {player.name}'s energy zone")
        card = found[0]
        key = (card.name, card.k)
        if not card.standing:
            raise _bad(player, what, cost, payment, f"{p.energy} is rested")
        if key in paid:
            raise _bad(player, what, cost, payment, f"{p.energy} is listed twice ({paid[key]} and {p.energy}): each entry rests one energy card")
        paid[key] = p.energy
        chosen.append(card)
        entry = catalog.get(card.name)
        colours = entry.colours if entry is not None else ()
        if p.as_ == "GENERIC" and colours:
            raise _bad(player, what, cost, payment, f"{p.energy} is {'/'.join(colours)}: it pays as one of its colours, not GENERIC")
        if p.as_ != "GENERIC" and p.as_ not in colours:
            raise _bad(player, what, cost, payment, f"{p.energy} is {'/'.join(colours) or 'colourless'}, not {p.as_}")
        by_colour[p.as_] = by_colour.get(p.as_, 0) + 1
    for c, n in cost.colours.items():
        if by_colour.get(c, 0) < n:
            raise _bad(player, what, cost, payment, f"{c} {n} needs {n} energy paid as {c}, {by_colour.get(c, 0)} given")
    overpay = s.options.allow_overpay if overpay is None else overpay
    if len(payment) < cost.total or (len(payment) > cost.total and not overpay):
        raise _bad(player, what, cost, payment, f"{len(payment)} entries for a total cost of {cost.total}")
    # each key of ``paid`` names one card of the zone (a reference meaning several was refused above)
    energy = player.energy
    rested = list(energy)
    for card in chosen:
        rested[energy.index(card)] = replace(card, standing=False)
    return replace(player, energy=tuple(rested))


def check_entries(s: State, player: Player, payment: Sequence[Pay], what: str) -> Player:
    """A payment whose cost the catalog does not give (an activated ability's): every entry must
    be a standing energy of the payer paying as one of its colours; the entries are rested."""
    free = Cost(len(payment), dict(Counter(p.as_ for p in payment if p.as_ != "GENERIC")))
    return pay(s, player, payment, free, what, overpay=True)


def note(payer: str, what: str, payment: Sequence[Pay], cost: Cost) -> PaymentNote:
    return PaymentNote(payer=payer, what=what, cost=cost.text(), entries=_parts(payment, cost))


def split(payment: Sequence[Pay], cost: Cost) -> list[dict[str, Any]]:
    """Which energy pays which part of the cost: colour parts first, the rest generic."""
    return [{"energy": energy, "as": as_, "pays": pays} for energy, as_, pays in _parts(payment, cost)]


def _parts(payment: Sequence[Pay], cost: Cost) -> tuple[tuple[str, str, str], ...]:
    """(energy, as, the part it pays) of each entry: colour parts first, the rest generic."""
    need = dict(cost.colours)
    out = []
    for p in payment:
        if need.get(p.as_, 0) > 0:
            need[p.as_] -= 1
            out.append((p.energy, p.as_, f"{p.as_} part"))
        else:
            out.append((p.energy, p.as_, "generic part"))
    return tuple(out)
