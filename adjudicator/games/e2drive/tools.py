"""Tool cards and effects (E2D-ACT-19…22, -39, E2D-LIM-3, -4, -11, E2D-RES-13): costs with their
modifiers and the Etherizer discount, the four kinds and their fields, quick tools in the opponent's
action paid from master ether only, servant effects and the judge's card effects."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import ether, ops
from adjudicator.games.e2drive.common import owner, reject, require_judge, require_sender, restricted
from adjudicator.games.e2drive.events import ActivateFieldTool, JudgeEffect, PlayQuickTool, PlayTool, ToolCard, UseEffect
from adjudicator.games.e2drive.state import (
    POOL_AT,
    SEATS,
    SLOT_OF,
    GameState,
    InPlayTool,
    PlayerState,
    State,
    alive,
    limited,
    note,
    other,
    parse_slot,
    player,
    servant,
    slots_of,
    with_player,
    with_servant,
)

#: E2D-RES-13 (E2D-RUL-38): the rank of each tool kind's effects
KIND_RANK = {4: 2, 1: 3, 2: 4, 3: 5}


def tool_cost(g: GameState, seat: str, card_id: str, card: ToolCard) -> int:
    if not g.costs:  # no cost change in play: the printed cost
        return max(0, card.cost)
    delta = sum(c.delta for c in g.costs if c.scope in ("all", seat, card.name, card_id))
    return max(0, card.cost + delta)


def discount_applies(state: State, g: GameState, seat: str, cost: int) -> bool:
    """E2D-ACT-31 (b), E2D-RUL-12: limited, with an Etherizer as the one non-destroyed servant."""
    if cost < 2 or not limited(g, seat):
        return False
    sv = servant(g, alive(g, seat)[0])
    if sv.type != "Etherizer":
        return False
    return not state.options.etherizer_discount_requires_activation or any(lk.by_instance == sv.instance for lk in g.locks)


def tool_costs(state: State, g: GameState, seat: str, card_id: str, card: ToolCard, master_only: bool) -> list[int]:
    cost = tool_cost(g, seat, card_id, card)
    if master_only and discount_applies(state, g, seat, cost):
        return [cost, cost - 1]
    return [cost]


def hand_without(p: PlayerState, card_id: str, rule: str) -> tuple[str, ...]:
    """The known hand of ``p`` once ``card_id`` leaves it; a rejection when it is not there."""
    if p.hand_count < 1:
        reject(rule, f"{p.seat}'s hand is empty", "NOT_IN_HAND")
    known = p.hand_known
    if card_id not in known:
        if len(known) == p.hand_count:
            reject(rule, f"{card_id} is not in {p.seat}'s hand", "NOT_IN_HAND")
        return known
    hand = list(known)
    hand.remove(card_id)
    return tuple(hand)


def closed(state: State, g: GameState, targets: tuple[str, ...], targeted: list[str], seat: str | None) -> GameState:
    """E2D-RES-1 after a card's or an effect's resolution: the until-targeted effects of its targets
    and of the servants its ops targeted end (``ops.close``); with none, ``g`` as it is."""
    if not targets and not targeted:
        return g
    return ops.close(state, g, list(targets) + targeted, seat)


def check_targets(g: GameState, targets: tuple[str, ...]) -> None:
    for i, ref in enumerate(targets):
        parse_slot(ref, f"$.targets[{i}]")
        if servant(g, ref).destroyed:
            reject("E2D-ACT-5", f"{ref} ({servant(g, ref).name}) is destroyed and cannot be targeted", "DESTROYED")


def _play(state: State, g: GameState, ev: PlayTool | PlayQuickTool, seat: str, rule: str, quick: bool) -> GameState:
    card = state.catalog.tools.get(ev.card)
    if card is None:
        reject(rule, f"{ev.card!r} is not a tool card of the catalog", "NOT_TOOL")
    kind = card.kind
    if quick and kind != 4:
        reject("E2D-ACT-20", f"{ev.card} is a kind-{kind} tool; only quick tools (kind 4) are played in the "
                             "opponent's action", "NOT_QUICK")
    k = 0 if seat == "P1" else 1
    p = g.players[k]
    hand = hand_without(p, ev.card, rule)  # checked first; the card leaves after the payment
    if ev.targets:
        check_targets(g, ev.targets)
    if kind == 2:
        if len(ev.targets) != 1:
            reject(rule, f"an equipment card goes on exactly one servant; targets: {list(ev.targets)}", "TARGETS")
        if len(servant(g, ev.targets[0]).equipment) >= 2:
            reject("E2D-LIM-4", f"{ev.targets[0]} already carries 2 equipment cards; {ev.card} stays in hand", "EQUIPMENT_FULL")
    if kind == 3 and len(p.tool_field) >= 3:
        reject("E2D-LIM-3", f"{seat}'s tool field already holds 3 cards; {ev.card} stays in hand", "TOOL_FIELD_FULL")
    pools = [f"{seat}.M"] if quick else ether.acting_pools(seat, g.acting or "")
    units = ether.totals(ev.payment)
    master_only = True
    for r in units:
        if POOL_AT[r][1] is not None:  # ``totals`` let only pool references through
            master_only = False
            break
    costs = tool_costs(state, g, seat, ev.card, card, master_only)
    units = ether.check_payment(g, ev.payment, costs, pools, ev.card, units=units)
    # the payment, the card leaving the hand, and the note: one copy of the game state; with no op
    # to apply first, a single-use or quick card goes to the trash and a field tool to the tool field
    # in that same copy
    players = ether.paid_players(g, units)
    p = players[k]
    more = {}
    if ev.ops or kind == 2:
        players[k] = rep(p, hand_count=p.hand_count - 1, hand_known=hand)
    elif kind == 3:
        tool = InPlayTool(card=ev.card, owner=seat, kind=3, upkeep=card.upkeep, instance=g.next_instance)
        players[k] = rep(p, hand_count=p.hand_count - 1, hand_known=hand, tool_field=p.tool_field + (tool,))
        more["next_instance"] = g.next_instance + 1
    else:
        players[k] = rep(p, hand_count=p.hand_count - 1, hand_known=hand, trash=p.trash + (ev.card,))
    # (its notes afresh: ``g``'s are the event before's, ``rules.OWN_NOTES``)
    g = rep(g, players=tuple(players), notes=(f"{seat} plays {ev.card} (kind {kind})",), **more)
    if not ev.ops:
        targeted: list[str] = []
        if kind == 2:
            g = _equip(g, ev, seat, card)
    else:
        g, targeted = ops.apply_text(state, g, ev.ops, KIND_RANK[kind], ev.card, seat)
        if kind in (1, 4):
            g = ops.to_trash(g, seat, ev.card)
        elif kind == 2:
            g = _equip(g, ev, seat, card)
        else:
            p = player(g, seat)
            tool = InPlayTool(card=ev.card, owner=seat, kind=3, upkeep=card.upkeep, instance=g.next_instance)
            g = with_player(g, rep(p, tool_field=p.tool_field + (tool,)), next_instance=g.next_instance + 1)
    return closed(state, g, ev.targets, targeted, seat)


def _equip(g: GameState, ev: PlayTool | PlayQuickTool, seat: str, card: ToolCard) -> GameState:
    """An equipment card goes on its target, or to the trash when the target was destroyed meanwhile."""
    ref = ev.targets[0]
    sv = servant(g, ref)
    if sv.destroyed:
        return ops.to_trash(g, seat, ev.card)
    tool = InPlayTool(card=ev.card, owner=seat, kind=2, upkeep=card.upkeep, instance=g.next_instance)
    return with_servant(g, ref, rep(sv, equipment=sv.equipment + (tool,)), next_instance=g.next_instance + 1)


def on_play_tool(state: State, g: GameState, ev: PlayTool, ctx) -> GameState:
    if g.acting is None:
        reject("E2D-ACT-19", "tool cards are played in one of your servant's actions; none is acting", "NOT_ACTING")
    seat = owner(g.acting)
    require_sender(state, ev, seat, "E2D-ACT-19", "play_tool (the active player's)")
    if g.restrictions and restricted(g, g.acting, "tool"):
        reject("E2D-ACT-19", f"an effect forbids tool cards in {g.acting}'s action", "RESTRICTED")
    return _play(state, g, ev, seat, "E2D-ACT-19", quick=False)


def on_play_quick_tool(state: State, g: GameState, ev: PlayQuickTool, ctx) -> GameState:
    if g.acting is None:
        reject("E2D-ACT-20", "quick tools are played in the opponent's servant action; none is acting", "NOT_ACTING")
    seat = other(owner(g.acting))
    require_sender(state, ev, seat, "E2D-ACT-20", "play_quick_tool (the non-active player's)")
    return _play(state, g, ev, seat, "E2D-ACT-20", quick=True)


def on_activate_field_tool(state: State, g: GameState, ev: ActivateFieldTool, ctx) -> GameState:
    if g.acting is None:
        reject("E2D-ACT-21", "a field tool is declared in your servant's action; none is acting", "NOT_ACTING")
    seat = owner(g.acting)
    require_sender(state, ev, seat, "E2D-ACT-21", "activate_field_tool (the active player's)")
    tool = next((t for t in player(g, seat).tool_field if t.card == ev.card), None)
    card = state.catalog.tools.get(ev.card)
    if tool is None or card is None or not card.field_declared:
        reject("E2D-ACT-21", f"{ev.card} is not a field tool in {seat}'s tool field that is declared from the field",
               "NOT_DECLARABLE")
    if ev.targets:
        check_targets(g, ev.targets)
    units = ether.totals(ev.payment)
    units = ether.check_payment(g, ev.payment, [sum(units.values())], ether.acting_pools(seat, g.acting), ev.card,
                                units=units)
    # the note in the payment's copy, afresh: ``g``'s notes are the event before's (``rules.OWN_NOTES``)
    g = ether.pay(g, units, notes=(f"{seat} declares {ev.card} from the tool field",))
    g, targeted = ops.apply_text(state, g, ev.ops, 5, ev.card, seat)
    return closed(state, g, ev.targets, targeted, seat)


def on_use_effect(state: State, g: GameState, ev: UseEffect, ctx) -> GameState:
    seat = (SLOT_OF.get(ev.servant) or parse_slot(ev.servant, "$.servant"))[0]
    require_sender(state, ev, seat, "E2D-ACT-22", f"the effect of {ev.servant}")
    if g.acting != ev.servant:
        reject("E2D-ACT-22", f"{ev.servant}'s effect is used only in its own action (acting: {g.acting or 'none'})",
               "NOT_ACTING")
    if g.restrictions and restricted(g, ev.servant, "effect"):
        reject("E2D-ACT-22", f"an effect forbids {ev.servant} to use its effect", "RESTRICTED")
    if ev.targets:
        check_targets(g, ev.targets)
    units = ether.totals(ev.payment)
    units = ether.check_payment(g, ev.payment, [sum(units.values())], ether.acting_pools(seat, ev.servant),
                                f"{ev.servant}'s effect", units=units)
    # the note in the payment's copy, afresh: ``g``'s notes are the event before's (``rules.OWN_NOTES``)
    g = ether.pay(g, units, notes=(f"{ev.servant} uses its effect",))
    g, targeted = ops.apply_text(state, g, ev.ops, 7, ev.servant, seat)
    return closed(state, g, ev.targets, targeted, seat)


def source_rank(state: State, g: GameState, source: str | None) -> tuple[int, str | None]:
    if source is None:
        return 8, None
    if source in state.catalog.tools:
        return KIND_RANK[state.catalog.tools[source].kind], None
    try:
        seat, _ = parse_slot(source)
        return 6, seat
    except Exception:
        return 8, None


def on_judge_effect(state: State, g: GameState, ev: JudgeEffect, ctx) -> GameState:
    require_judge(ev, "E2D-ACT-39", "judge_effect")
    if g.status != "in_progress":
        reject("E2D-ACT-39", f"game {g.number} is not running", "NOT_RUNNING")
    if ev.overrides and ev.source is None:
        reject("E2D-EFF-6", "overriding a basic rule needs the source card whose text does it", "NO_SOURCE")
    rank, src_seat = source_rank(state, g, ev.source)
    rank = ev.rank if ev.rank is not None else rank
    if ev.payment:
        units = ether.totals(ev.payment)
        eligible = ([ev.source, f"{src_seat}.M"] if src_seat else
                    [r for s in SEATS for r in slots_of(s) + [f"{s}.M"]])
        units = ether.check_payment(g, ev.payment, [sum(units.values())], eligible, "this effect", units=units)
        g = ether.pay(g, units)
    ctx_ = ops.OpContext(rank=rank, source=ev.source, seat=src_seat, overrides=frozenset(ev.overrides))
    g, targeted = ops.apply_all(state, g, ev.ops, ctx_)
    g = note(g, f"judge effect ({len(ev.ops)} op(s), rank {rank})" + (f" overriding {', '.join(ev.overrides)}" if ev.overrides else ""))
    return ops.close(state, g, targeted, src_seat)
