"""The acting order (E2D-TURN-4…7): action determination by current SPD, the tie between players
settled by a coin or rock-paper-scissors entered from the table, the free pick within one player."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import ether
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.state import ALL_SLOTS, SLOT_AT, GameState, TiePending, both_fields, parse_slot, player, players_updating
from adjudicator.games.e2drive.stats import stat


def candidates(g: GameState) -> list[str]:
    """Unacted, non-destroyed servants of both fields (E2D-TURN-4)."""
    return [r for r, sv in both_fields(g) if not sv.destroyed and sv.action == "unacted"]


def ranked(g: GameState, options: Options) -> list[tuple[str, int]]:
    """The candidates with their current SPD, fastest first (ties in slot order)."""
    return sorted(((r, stat(sv, "SPD", options)) for r, sv in both_fields(g) if not sv.destroyed and sv.action == "unacted"),
                  key=lambda x: -x[1])


def top_tied(g: GameState, options: Options) -> list[str]:
    """The fastest candidates (E2D-TURN-4), in slot order: the head of ``ranked``, in one pass."""
    best, tied = 0, []
    p1, p2 = g.players
    for r, sv in zip(ALL_SLOTS, p1.servants + p2.servants):  # ``both_fields``, in this frame
        if sv.action != "unacted" or sv.destroyed:  # most servants have acted: read that first
            continue
        st = sv.status
        if sv.modifiers or st.invisible or st.wait:
            spd = stat(sv, "SPD", options)
        else:  # no SET, no addition, no invisibility nor wait: what ``stat`` reads for SPD
            spd = sv.printed.SPD + sv.od.slicer_spd
        if not tied or spd > best:
            best, tied = spd, [r]
        elif spd == best:
            tied.append(r)
    return tied


def become_acting(g: GameState, ref: str, notes: tuple[str, ...] | None = None) -> GameState:
    """E2D-TURN-5: the selected servant acts; its ATK count and paid flag start afresh. ``notes``:
    the notes to add to, when not ``g.notes`` (a handler's first copy: none)."""
    s, i = SLOT_AT[ref]  # a candidate's slot (``servant``, read in this frame)
    sv = g.players[s].servants[i]
    who = ref if sv.status.invisible else f"{ref} ({sv.name})"  # face down: not named (E2D-HID-1)
    return rep(g, players=players_updating(g, ref, action="acting", atk_count=0, atk_paid=False, pool_atks=0),
               acting=ref, tie=None, notes=(g.notes if notes is None else notes) + (f"{who} acts",))


def upkeep_due(g: GameState, seat: str) -> int:
    """Sum of the upkeep of the tool cards ``seat`` owns in play (E2D-STATE-6)."""
    total = 0
    for t in player(g, seat).tool_field:
        total += t.upkeep
    for p in g.players:
        for sv in p.servants:
            for t in sv.equipment:  # most servants carry none
                if t.owner == seat:
                    total += t.upkeep
    return total


def determine(g: GameState, options: Options) -> GameState:
    """One action determination, or the end of the main phase when no candidate remains."""
    tied = top_tied(g, options)
    if not tied:
        # the upkeep due reads the tools in play, which the release of both players' designations
        # (E2D-ACT-35) leaves as they are: the release and the turn end are one copy of the state
        due = tuple(s for s in ("P1", "P2") if upkeep_due(g, s) > 0)
        return ether.release_all_upkeep(
            g, phase="end", acting=None, tie=None, upkeep=due, upkeep_done=(),
            notes=g.notes + ("main phase over: turn end" + (f"; upkeep due from {', '.join(due)}" if due else ""),))
    if len(tied) == 1:
        return become_acting(g, tied[0])
    owners = sorted({parse_slot(r)[0] for r in tied})
    if len(owners) == 1:
        return rep(g, tie=TiePending(candidates=tuple(tied), winner=owners[0]),
                   notes=g.notes + (f"{', '.join(tied)} tied: {owners[0]} picks which acts (select_actor)",))
    return rep(g, tie=TiePending(candidates=tuple(tied)),
               notes=g.notes + (f"{', '.join(tied)} tied across players: the table flips a coin (tie_break)",))
