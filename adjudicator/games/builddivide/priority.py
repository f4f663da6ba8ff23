"""Priority with ``strict_priority`` (BD-RES-3, BD-RUL-19). The turn player holds priority after
every action; a play gives it to the opponent; ``pass`` hands it over. ``resolve_top`` and
``advance_phase`` need both players to have passed in succession. Without the option nothing here
applies: ``resolve_top`` and ``advance_phase`` stand for the passes."""

from __future__ import annotations

from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.state import State
from adjudicator.engine.protocol import JUDGE, Action, Violation

PLAYS = (E.PlayCard, E.ActivateAbility)
NEED_BOTH = (E.ResolveTop, E.AdvancePhase)


def holder(s: State) -> str:
    return s.game.priority or s.game.turn_player or s.names[0]


def _player(s: State, ev: Action) -> str:
    given = ev.player if isinstance(ev, PLAYS) else None
    return given or (ev.by if ev.by != JUDGE else s.game.turn_player or "")


def check(s: State, ev: Action) -> None:
    """Before an event: a play needs priority, a resolution or a phase change both passes."""
    if not s.options.strict_priority or s.game.status != "IN_PROGRESS":
        return
    if isinstance(ev, PLAYS) and _player(s, ev) != holder(s):
        raise Violation("BD-RES-3", f"{_player(s, ev)} does not hold priority ({holder(s)} does): pass or wait", "NO_PRIORITY")
    if isinstance(ev, NEED_BOTH) and s.game.passes < 2:
        raise Violation("BD-RES-3", f"both players pass in succession before {'the top item resolves' if isinstance(ev, E.ResolveTop) else 'the phase ends'}"
                                    f" ({s.game.passes} pass so far)", "NOT_PASSED")


def after(s: State, ev: Action) -> State:
    """After an accepted event other than ``pass``: a play hands priority over, anything else
    gives it back to the turn player; the run of passes starts again."""
    if not s.options.strict_priority or s.game.status != "IN_PROGRESS" or isinstance(ev, E.Pass):
        return s
    if isinstance(ev, (*PLAYS, E.ShotPlay)):
        who = s.game.damage.victim if isinstance(ev, E.ShotPlay) and s.game.damage else _player(s, ev)
        return Z.set_game(s, priority=Z.opponent(s, who), passes=0)
    return Z.set_game(s, priority=s.game.turn_player, passes=0)


def pass_(s: State, ev: E.Pass, ctx: object) -> State:
    if not s.options.strict_priority:
        raise Violation("BD-ACT-16", "pass is entered only with strict_priority; without it resolve_top and advance_phase "
                                     "stand for both players passing", "NOT_TRACKED")
    if s.game.status != "IN_PROGRESS":
        raise Violation("BD-SET-1", f"pass belongs to play, and game {s.game.game_no} is not in play", "OUT_OF_ORDER")
    if ev.player != holder(s) or ev.by not in (JUDGE, ev.player):
        raise Violation("BD-RES-3", f"{ev.player} does not hold priority ({holder(s)} does)", "NO_PRIORITY")
    return Z.set_game(s, priority=Z.opponent(s, ev.player), passes=s.game.passes + 1)
