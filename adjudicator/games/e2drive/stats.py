"""Current stats (E2D-RES-14): printed value, the SET of highest rank (rank 1 is highest; same-rank
SETs with different values cancel and the next rank applies), invisibility as a rank-8 SET of SPD to
10, then every additive modifier, overdrive bonus, heat (-10 DUR, ATK, DEF) and wait (-20 SPD)."""

from __future__ import annotations

from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.state import Modifier, Servant

STATS = ("DUR", "ATK", "DEF", "SPD")
BASIC_RANK = 8


def _set_value(sets: list[Modifier]) -> int | None:
    for rank in sorted({m.rank for m in sets}):
        values = {m.value for m in sets if m.rank == rank}
        if len(values) == 1:
            return values.pop()
    return None


_INVISIBLE_SET = Modifier(id=0, stat="SPD", op="set", value=10, duration="permanent", rank=BASIC_RANK)


def stat(sv: Servant, name: str, options: Options) -> int:
    status = sv.status
    invisible = name == "SPD" and status.invisible
    if invisible and options.invisible_spd_mode == "fixed":
        return 10
    value = getattr(sv.printed, name)
    mods = sv.modifiers
    if mods:  # most servants have none: then the printed value (or invisibility's 10) stands
        sets = [m for m in mods if m.stat == name and m.op == "set"]
        if invisible:
            sets.append(_INVISIBLE_SET)
        chosen = _set_value(sets)
        if chosen is not None:
            value = chosen
        value += sum(m.value for m in mods if m.stat == name and m.op == "add")
    elif invisible:
        value = 10
    if name == "ATK":
        value += sv.od.buster
    elif name == "DEF":
        value += sv.od.blocker
    elif name == "SPD":
        value += sv.od.slicer_spd
    if status.heat and name in ("DUR", "ATK", "DEF"):
        value -= 10
    if status.wait and name == "SPD":
        value -= 20
    return value


def stats(sv: Servant, options: Options) -> dict[str, int]:
    return {n: stat(sv, n, options) for n in STATS}


def extra_allowance(sv: Servant) -> int:
    """X: how many ATKs beyond the first an action of this servant may make (E2D-ACT-29, op 14);
    with slicer_extra_scope = pool, what is left of it."""
    if not sv.modifiers:
        return sv.od.slicer_extra
    return sv.od.slicer_extra + sum(m.value for m in sv.modifiers if m.stat == "EXTRA")


def atks_used_up(sv: Servant) -> bool:
    """Whether this action may make no further ATK: atk_count > X (E2D-RES-2 step 10). With
    slicer_extra_scope = pool, X is what is left of the stock and the ATKs of this action that took
    from it count back in: an action may make 1 + the X it began with (E2D-RUL-10)."""
    return sv.atk_count > extra_allowance(sv) + sv.pool_atks
