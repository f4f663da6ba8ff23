"""What the E2Drive handlers share: rejections, who a player is, restrictions."""

from __future__ import annotations

from typing import NoReturn

from adjudicator.games.e2drive.state import SEATS, SLOT_OF, GameState, State, parse_slot
from adjudicator.engine.protocol import JUDGE, Action, Malformed, Violation


def reject(rule: str, message: str, code: str = "ILLEGAL") -> NoReturn:
    raise Violation(rule, message, code)


def seat_of_name(state: State, who: str, path: str = "$.player") -> str:
    """A player field: the seat label (P1, P2) or the player's name."""
    if who in SEATS:
        return who
    if who in state.names:
        return SEATS[state.names.index(who)]
    raise Malformed(f"{who!r} is not a player of this match ({state.names[0]} = P1, {state.names[1]} = P2)", path)


def sender_seat(state: State, ev: Action) -> str | None:
    """The seat of the event's author; None for the judge."""
    if ev.by == JUDGE:
        return None
    return SEATS[state.names.index(ev.by)]


def require_sender(state: State, ev: Action, seat: str, rule: str, what: str, judge_ok: bool = False) -> None:
    by = ev.by  # ``sender_seat``, in this frame: it runs for nearly every event
    by = None if by == JUDGE else SEATS[state.names.index(by)]
    if by == seat or (judge_ok and by is None):
        return
    reject(rule, f"{what} is entered by {state.names[SEATS.index(seat)]} ({seat}), not {ev.by}", "NOT_ACTOR")


def require_judge(ev: Action, rule: str, what: str) -> None:
    if ev.by != JUDGE:
        reject(rule, f"only the judge enters {what}, not {ev.by}", "NOT_ACTOR")


def owner(ref: str) -> str:
    known = SLOT_OF.get(ref)
    return known[0] if known is not None else parse_slot(ref)[0]


def restricted(g: GameState, ref: str, action: str) -> bool:
    """RESTRICT / PERMIT on the same subject and action: the higher rank (lower number) wins;
    equal ranks cancel and the basic rule (allowed) applies (E2D-EFF-5)."""
    if not g.restrictions:
        return False
    entries = [r for r in g.restrictions if r.subject == ref and r.action == action]
    if not entries:
        return False
    best = min(r.rank for r in entries)
    top = {r.permit for r in entries if r.rank == best}
    return top == {False}
