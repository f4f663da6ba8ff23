"""The checks an event passes before it changes anything, in the chapter's order (§5.1): the
stage and step first, then who entered it, then the event's own preconditions."""

from __future__ import annotations

from typing import Any

from adjudicator.games.bacdef.state import Stage, State, TurnState
from adjudicator.engine.protocol import JUDGE, Action, Violation

STEP_LABELS = {
    "standby": "Standby",
    "action": "Action",
    "counter": "Counter",
    "resolution": "Resolution",
    "damage": "Damage",
    "fall": "Fall",
    "remaining": "Remaining",
    "drop": "Drop",
    "end": "End",
}


def reject(rule: str, code: str, message: str) -> Violation:
    """The violation to raise: ``raise reject(...)``."""
    return Violation(rule, message, code)


# Who may enter an event, each as a violation to raise and a check that raises it: the handlers
# test the condition themselves (``if ev.by != JUDGE: raise not_judge(...)``), a call fewer at
# every event.
def not_actor(ev: Action, player: str, rule: str) -> Violation:
    """For an event for ``player`` entered by neither ``player`` nor the judge."""
    return reject(rule, "E_NOT_ACTOR", f"{ev.by} cannot enter this for {player}; only {player} or the judge can")


def not_judge(ev: Action, rule: str, what: str) -> Violation:
    """For an event only the judge enters (``what``), entered by someone else."""
    return reject(rule, "E_NOT_ACTOR", f"only the judge enters {what}; {ev.by} tried")


def not_a_player(s: State, player: str, rule: str) -> Violation:
    """For an event naming ``player``, who is not a player of the match."""
    return reject(rule, "E_NOT_ACTOR", f"no player named {player!r} in this match ({' and '.join(s.players)})")


def require_actor(ev: Action, player: str, rule: str) -> None:
    if ev.by != player and ev.by != JUDGE:
        raise not_actor(ev, player, rule)


def require_judge(ev: Action, rule: str, what: str) -> None:
    if ev.by != JUDGE:
        raise not_judge(ev, rule, what)


def require_player(s: State, player: str, rule: str) -> None:
    if player not in s.players:
        raise not_a_player(s, player, rule)


def setup_step(s: State, stage: Stage, what: str) -> None:
    if s.set is None or s.set.stage != stage:
        now = s.set.stage if s.set else "none"
        raise reject("BAC-SETUP-5", "E_WRONG_STEP", f"{what} belongs to the {stage.replace('_', '-')} step; the set is at the {now.replace('_', '-')} step")


def turn_step(s: State, what: str, skipped: str | None = None) -> TurnState:
    """The current turn; a turn event outside a turn is refused (``state.in_turn``, asked here
    without a call of its own: every turn event asks it). ``skipped``: what a skipped turn
    refuses (BAC-TURN-3), checked next, in the same call."""
    st = s.set
    if st is None or st.stage != "turns" or st.turn is None:
        if st is not None and st.stage in ("deck", "guards", "first_player"):
            raise reject("BAC-SETUP-5", "E_WRONG_STEP", f"{what} is a turn event; the set is still in setup ({st.stage.replace('_', '-')} step)")
        raise reject("BAC-TURN-10", "E_WRONG_STEP", f"{what} is not allowed now")
    t = st.turn
    if skipped is not None and t.skipped:
        raise reject("BAC-TURN-3", "E_TURN_SKIPPED", f"turn {t.no} is skipped ({t.attacker} has no hand card); no {skipped}")
    return t


def wrong_step(t: TurnState, what: str) -> Violation:
    return reject("BAC-TURN-10", "E_WRONG_STEP", f"{what} is not allowed in the {STEP_LABELS[t.step]} step")


def one_declaration(player: str) -> Violation:
    return reject("BAC-LIM-5", "E_WRONG_STEP", f"{player} already declared this battle; one action, one reaction")


def declaration_window(t: TurnState, player: str, what: str, extra: bool) -> None:
    """The step checks of §5.1 for declare_skill / finish_deployment."""
    is_attacker = player == t.attacker
    own = "action" if is_attacker else "counter"
    if t.step == own and not t.closed.get(player):
        if not extra and t.declared.get(player) and what == "declare_skill":
            raise one_declaration(player)
        return
    if is_attacker and (t.step == "counter" or (t.step == "action" and t.closed.get(player))):
        raise reject("BAC-RES-2", "E_WRONG_STEP", f"{player}'s deployment step has closed; the defender deploys now")
    # §5.1 names BAC-RES-7 and BAC-RES-12 for a declare_skill only; a late finish_deployment
    # falls to "otherwise BAC-TURN-10".
    if what == "declare_skill" and t.step in ("resolution", "damage"):
        raise reject("BAC-RES-7", "E_WRONG_STEP", f"no skill can be declared in the {STEP_LABELS[t.step]} step; both deployment steps have closed")
    if what == "declare_skill" and t.step in ("fall", "remaining", "drop", "end"):
        raise reject("BAC-RES-12", "E_WRONG_STEP", f"only F can act from the Fall step on; {what} by {player} is too late")
    if not extra and t.declared.get(player):
        raise one_declaration(player)
    raise wrong_step(t, f"{what} by {player}")


def awaiting_check(s: State, ev: Any, kind: str, rule: str, what: str) -> TurnState:
    """A choice the reducer waits for (damage slots, heal slots, lost cards), by its chooser."""
    t = turn_step(s, what)
    a = t.awaiting
    if a is None or a.kind != kind:
        raise wrong_step(t, what)
    player = ev.player
    if player not in s.players:
        raise not_a_player(s, player, rule)
    if player != a.player:
        raise reject(rule, "E_NOT_ACTOR", f"the reducer waits for {a.player}'s choice, not {player}'s")
    if ev.by != player and ev.by != JUDGE:
        raise not_actor(ev, player, rule)
    return t


def pending_f_frame(t: TurnState, card_id: str) -> int | None:
    for i, f in enumerate(t.work):
        if f.kind == "f_decision" and f.card_id == card_id:
            return i
    return None


def f_decision_check(s: State, ev: Any, rule: str, what: str) -> TurnState:
    t = turn_step(s, what)
    if t.step not in ("fall", "remaining", "drop", "end"):
        # §5.1: the step comes first; F decisions are taken from the Fall step on (BAC-TURN-10).
        raise wrong_step(t, what)
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, rule)
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, rule)
    c = s.set.cards.get(ev.card_id)
    if c is None or c.owner != ev.player:
        raise reject(rule, "E_NOT_ACTOR", f"{ev.card_id!r} is not {ev.player}'s card")
    head = t.awaiting is not None and t.awaiting.kind == "f_decision" and t.awaiting.ref == ev.card_id
    if not head:
        if pending_f_frame(t, ev.card_id) is not None or ev.card_id in t.fall_queue:
            step_rule = {"fall": "BAC-RES-12", "drop": "BAC-RES-17"}.get(t.step, rule)
            raise reject(step_rule, "E_NOT_PENDING_F", f"{ev.card_id}'s decision is not first; another F decision comes before it")
        raise reject(rule, "E_NOT_PENDING_F", f"no F decision is pending for {ev.card_id!r} now")
    return t


def pending_first(t: TurnState, what: str, rule: str) -> Violation:
    """For ``what``, entered while a choice or pending effects wait
    (``if t.awaiting is not None or t.work: raise pending_first(...)``)."""
    a = t.awaiting
    who = f"{a.player}'s {a.kind}" if a else "pending effects"
    return reject(rule, "E_WRONG_STEP", f"{what} must wait: {who} first")
