"""Change, revival and forced revival (E2D-ACT-23…25, E2D-LIM-5, -6, E2D-RUL-16…18, -29, -30, -45)."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, sbc
from adjudicator.games.e2drive.common import owner, reject, require_sender, restricted
from adjudicator.games.e2drive.events import Change, ForcedRevival, ReviveServant
from adjudicator.games.e2drive.state import (
    new_servant,
    GameState,
    Pool,
    State,
    Statuses,
    limited,
    note,
    parse_slot,
    player,
    servant,
    slots_of,
    with_player,
    with_servant,
)


def revived(state: State, g: GameState, ref: str) -> GameState:
    """E2D-ACT-24 effect: not destroyed, 0D, no status, ether off, the action state per the flag."""
    sv = servant(g, ref)
    mode = state.options.revive_action_state
    action = sv.action if mode == "keep" else mode
    if action == "acting":
        action = "acted"
    g = with_servant(g, ref, rep(sv, destroyed=False, damage=0, status=Statuses(), pool=Pool(size=3), modifiers=(),
                                 action=action, atk_count=0, atk_paid=False, pool_atks=0))
    return note(g, f"{ref} ({sv.name}) revived, {action}")


def active_seat(state: State, ev, rule: str, what: str) -> str:
    g = state.game
    if g.acting is None:
        reject(rule, f"{what} is declared in one of your own servant's actions; no servant is acting", "NOT_ACTING")
    seat = owner(g.acting)
    require_sender(state, ev, seat, rule, what)
    return seat


def _damage_card_due(state: State, seat: str, rule_ok: bool = True) -> None:
    if player(state.game, seat).deck_count == 0 and state.options.voluntary_unpayable_damage_card == "reject":
        reject("E2D-LIM-5", f"{seat}'s deck is empty: no card for the damage card this costs (E2D-RUL-29)", "EMPTY_DECK")


def on_change(state: State, g: GameState, ev: Change, ctx) -> GameState:
    parse_slot(ev.out, "$.out")
    seat = active_seat(state, ev, "E2D-ACT-23", "a change")
    if owner(ev.out) != seat:
        reject("E2D-ACT-23", f"{ev.out} is not {seat}'s servant", "NOT_OWN")
    out = servant(g, ev.out)
    if out.destroyed:
        reject("E2D-ACT-5", f"{ev.out} ({out.name}) is destroyed: only its revival may choose it", "DESTROYED")
    card = state.catalog.servants.get(ev.in_card)
    p = player(g, seat)
    if card is None:
        reject("E2D-ACT-23", f"{ev.in_card!r} is not a servant card of the catalog", "NOT_SERVANT")
    if p.hand_count < 1 or (len(p.hand_known) == p.hand_count and ev.in_card not in p.hand_known):
        reject("E2D-ACT-23", f"{ev.in_card} is not in {seat}'s hand", "NOT_IN_HAND")
    if card.name == out.name:
        reject("E2D-ACT-23", f"{ev.in_card} has the same name as {ev.out} ({out.name}); same-name servants cannot be changed",
               "SAME_NAME")
    for ref in slots_of(seat):
        if ref != ev.out and servant(g, ref).name == card.name:
            reject("E2D-LIM-6", f"{seat} already has a servant named {card.name} on the field", "NAME_TAKEN")
    if restricted(g, ev.out, "change"):
        reject("E2D-ACT-23", f"an effect forbids changing {ev.out}", "RESTRICTED")
    due = not limited(g, seat)
    if due:
        _damage_card_due(state, seat)
        g = sbc.damage_card(g, seat)
    g = damage.strip(g, ev.out, state.options)
    g = damage.to_trash(g, seat, out.card)
    p = player(g, seat)
    hand = list(p.hand_known)
    if ev.in_card in hand:
        hand.remove(ev.in_card)
    g = with_player(g, rep(p, hand_count=p.hand_count - 1, hand_known=tuple(hand)))

    new = new_servant(state, ev.in_card, g.next_instance)
    mode = state.options.change_action_state
    if out.action == "acting":
        new = rep(new, action="acting", atk_count=out.atk_count, atk_paid=out.atk_paid, pool_atks=out.pool_atks)
    else:
        new = rep(new, action=out.action if mode == "inherit" else mode)
    g = with_servant(rep(g, next_instance=g.next_instance + 1), ev.out, new)
    return note(g, f"{ev.out}: {out.name} changed for {new.name}" + ("" if due else " (limited: no damage card)"))


def on_revive(state: State, g: GameState, ev: ReviveServant, ctx) -> GameState:
    parse_slot(ev.servant, "$.servant")
    seat = active_seat(state, ev, "E2D-ACT-24", "a revival")
    sv = servant(g, ev.servant)
    if owner(ev.servant) != seat:
        reject("E2D-ACT-24", f"{ev.servant} is not {seat}'s servant", "NOT_OWN")
    if not sv.destroyed:
        reject("E2D-ACT-24", f"{ev.servant} ({sv.name}) is not destroyed", "NOT_DESTROYED")
    if restricted(g, ev.servant, "revive"):
        reject("E2D-ACT-24", f"an effect forbids reviving {ev.servant}", "RESTRICTED")
    _damage_card_due(state, seat)
    g = sbc.damage_card(g, seat)
    return revived(state, g, ev.servant)


def on_forced_revival(state: State, g: GameState, ev: ForcedRevival, ctx) -> GameState:
    parse_slot(ev.servant, "$.servant")
    seat = owner(ev.servant)
    if seat not in g.forced_revival:
        reject("E2D-ACT-25", f"no forced revival of {seat} is pending", "NOT_WAITING")
    require_sender(state, ev, seat, "E2D-ACT-25", f"{seat}'s forced revival", judge_ok=True)
    g = sbc.damage_card(g, seat)
    g = revived(state, g, ev.servant)
    return rep(g, forced_revival=tuple(s for s in g.forced_revival if s != seat))
