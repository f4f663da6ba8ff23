"""Ether (E2D-ACT-2, -3, E2D-LIM-12, E2D-STATE-4): payments, holds, locks and the turn-end reset.

A payment is checked last (E2D-ACT-41 step 3): a pool not eligible for the action is E2D-ACT-3; a
total other than the cost, a destroyed servant's pool or a pool with too few off units is E2D-ACT-2.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from msgspec.structs import replace as rep

from adjudicator.games.e2drive.events import Pay
from adjudicator.games.e2drive.state import POOL_AT, POOL_REFS, GameState, PlayerState, Pool, pool_at, parse_pool, player, pool, servant, slots_of, with_pool, with_pools
from adjudicator.engine.protocol import Malformed, Violation


def totals(payment: Sequence[Pay], path: str = "$.payment") -> dict[str, int]:
    """The units per pool of a payment (repeated pools add up); ``Malformed`` for a bad entry."""
    out: dict[str, int] = {}
    for i, p in enumerate(payment):
        if p.pool not in POOL_REFS:
            parse_pool(p.pool, f"{path}[{i}].pool")
        if p.n < 1:
            raise Malformed(f"a payment entry pays at least 1 unit, not {p.n}", f"{path}[{i}].n")
        out[p.pool] = out.get(p.pool, 0) + p.n
    return out


def shown(payment: Sequence[Pay]) -> str:
    return " + ".join(f"{p.pool}×{p.n}" for p in payment) or "nothing"


def check_payment(g: GameState, payment: Sequence[Pay], costs: Iterable[int], eligible: Iterable[str], what: str,
                  path: str = "$.payment", units: dict[str, int] | None = None) -> dict[str, int]:
    """Check a payment for ``what`` against the allowed totals ``costs`` and the ``eligible`` pools.

    ``units``: ``totals(payment, path)`` when the caller has already read them."""
    if units is None:
        units = totals(payment, path)
    if not isinstance(eligible, (list, tuple)):  # read twice below: a one-pass iterable is read once
        eligible = list(eligible)
    for ref in units:
        if ref not in eligible:
            raise Violation("E2D-ACT-3", f"{ref} cannot pay for {what}; eligible: {', '.join(sorted(set(eligible))) or 'none'}",
                            "PAYMENT_POOL")
    if not isinstance(costs, (list, tuple)):
        costs = list(costs)
    total = sum(units.values())
    if total not in costs:
        want = " or ".join(f"{c}e" for c in sorted(set(costs)))
        raise Violation("E2D-ACT-2", f"{what} costs {want}; the payment {shown(payment)} is {total}e", "PAYMENT")
    for ref, n in units.items():
        s, i = POOL_AT[ref]  # ``totals`` let only pool references through
        p = g.players[s]
        if i is None:
            pl = p.master
        else:
            sv = p.servants[i]
            if sv.destroyed:
                raise Violation("E2D-ACT-2", f"{ref} is destroyed; its ether never pays", "PAYMENT")
            pl = sv.pool
        if pl.size - pl.on < n:
            raise Violation("E2D-ACT-2", f"{ref} has {pl.off} off unit(s); {what} tried to pay {n} from it", "PAYMENT")
    return units


def pay(g: GameState, units: dict[str, int], **more: object) -> GameState:
    """``units`` turned on; ``more``: other fields of the game state changed in the same copy
    (the note of the payment)."""
    if not units:
        return rep(g, **more) if more else g
    return rep(g, players=tuple(paid_players(g, units)), **more)


def paid_players(g: GameState, units: dict[str, int]) -> list[PlayerState]:
    """The players of ``g`` once ``units`` are paid (turned on), for a caller that changes them
    further before its one copy of the game state."""
    players = list(g.players)
    for ref, n in units.items():  # each pool once (the keys of ``units``): read as ``g`` has it
        s, i = POOL_AT[ref]  # ``totals`` let only pool references through
        p = players[s]
        if i is None:
            pl = p.master
            players[s] = rep(p, master=rep(pl, on=min(pl.size, pl.on + n)))
        else:
            svs = p.servants
            sv = svs[i]
            pl = sv.pool
            players[s] = rep(p, servants=svs[:i] + (rep(sv, pool=rep(pl, on=min(pl.size, pl.on + n))),) + svs[i + 1:])
    return players


def payable(g: GameState, pools: Iterable[str]) -> int:
    """Off units across ``pools`` that may pay (destroyed servants' pools never pay)."""
    total = 0
    players = g.players
    for ref in pools:
        s, i = POOL_AT.get(ref) or pool_at(ref)
        if i is None:
            pl = players[s].master
        else:
            sv = players[s].servants[i]
            if sv.destroyed:
                continue
            pl = sv.pool
        total += pl.size - pl.on
    return total


def acting_pools(seat: str, acting: str) -> list[str]:
    """The acting servant's pool and its owner's master (E2D-ACT-3, E2D-RUL-40)."""
    return [acting, f"{seat}.M"]


def payments(g: GameState, pools: Sequence[str], cost: int, limit: int = 6) -> list[list[dict]]:
    """Some concrete payments of exactly ``cost`` from ``pools`` (for ``legal``), as JSON objects."""
    avail = [(ref, pool(g, ref).off) for ref in pools
             if not (parse_pool(ref)[1] is not None and servant(g, ref).destroyed)]
    out: list[list[dict]] = []

    def walk(i: int, left: int, acc: list[dict]) -> None:
        if len(out) >= limit:
            return
        if left == 0:
            out.append(list(acc))
            return
        if i >= len(avail):
            return
        ref, off = avail[i]
        for n in range(min(off, left), -1, -1):
            walk(i + 1, left - n, acc + ([{"pool": ref, "n": n}] if n else []))

    walk(0, cost, [])
    return out


def release_locks_of(g: GameState, instance: int) -> GameState:
    """The locks an Etherizer instance made turn off (E2D-ACT-31, E2D-RUL-11)."""
    keep = []
    for lk in g.locks:
        if lk.by_instance != instance:
            keep.append(lk)
            continue
        pl = pool(g, lk.pool)
        n = min(lk.n, pl.held_lock)
        freed = rep(pl, held_lock=pl.held_lock - n)
        g = with_pool(g, lk.pool, rep(freed, on=max(freed.held, pl.on - n)))
    return rep(g, locks=tuple(keep))


def drop_locks_on(g: GameState, ref: str) -> GameState:
    """Locks held on a pool that leaves (destroyed or changed servant) vanish (E2D-RES-9)."""
    return rep(g, locks=tuple(lk for lk in g.locks if lk.pool != ref))


def release_upkeep(g: GameState, seat: str) -> GameState:
    """Last turn's upkeep designations are released; their units stay on (E2D-ACT-35)."""
    changes = {}
    for ref in slots_of(seat) + [f"{seat}.M"]:
        pl = pool(g, ref)
        if pl.held_upkeep:
            changes[ref] = rep(pl, held_upkeep=0)
    return with_pools(g, changes) if changes else g


def release_all_upkeep(g: GameState, **more: object) -> GameState:
    """``release_upkeep`` of both players, and ``more`` changes of the game state, in one copy:
    each pool with units held for upkeep gets them back unheld (still on)."""
    players = []
    for p in g.players:
        m = p.master
        svs = p.servants
        if m.held_upkeep or any(sv.pool.held_upkeep for sv in svs):
            p = rep(p, master=rep(m, held_upkeep=0) if m.held_upkeep else m,
                    servants=tuple(rep(sv, pool=rep(sv.pool, held_upkeep=0)) if sv.pool.held_upkeep else sv for sv in svs))
        players.append(p)
    return rep(g, players=tuple(players), **more)


def off_pool(pl: Pool) -> Pool:
    """A destroyed servant's pool: everything off, nothing held (E2D-RES-9)."""
    return Pool(size=pl.size)


def master_size(g: GameState, seat: str) -> int:
    return 2 + player(g, seat).damage_cards
