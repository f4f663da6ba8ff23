"""The actions open now (rules/bacdef.md §5), each with who may enter it and, for every field, the
concrete values it may take (``LegalAction.choices``): any action built from them is accepted.

Where a field's values depend on each other (damage slots placed point by point, heal slots,
a deck), the choice is a ``one`` over the complete list of valid values. An op list is the
judge's transcription of a card's text, which no program can know: ``ops`` offers a menu of op
lists that are legal now (the empty list first), not every list the judge might enter.

Hidden information (BAC-HID-2, -4): an action is offered to the person who decides it, so
``adj legal --as PLAYER`` shows a player only their own; a lost-card choice made by the
victim's opponent is entered by the judge, since its values are the victim's hand card ids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.games.bacdef.damage import damage_orders, heal_orders
from adjudicator.games.bacdef.deck import legal_decks
from adjudicator.games.bacdef.rules import end_sources, set_loser, skill_problem
from adjudicator.games.bacdef.state import Await, State, TurnState, find_instance, in_turn, instances_of, orders_missing, other, special_used
from adjudicator.engine.kit import fields_text, one, some, text
from adjudicator.engine.protocol import JUDGE, Choice, LegalAction


def act(who: str, type_: str, choices: dict[str, Choice] | None = None, *, fields: str = "", note: str = "", anytime: bool = False) -> LegalAction:
    """One offered action; its printed ``fields`` derive from ``choices`` unless given."""
    choices = choices or {}
    return LegalAction(who=who, type=type_, fields=fields or fields_text(choices), note=note, anytime=anytime, choices=choices)


def legal(s: State) -> list[LegalAction]:
    if s.status != "in_progress" or s.set is None:
        return []
    return STAGES[s.set.stage](s) + anytime(s)


# -- setup (§5.2) -----------------------------------------------------------------------------------
def _deck_stage(s: State) -> list[LegalAction]:
    rule = "; each of D, E and F" if s.options.require_each_special else ""
    decks = legal_decks(s.options)
    return [
        act(p, "register_deck", {"player": one(p), "letters": one(*decks)},
            fields=f"player={p} letters=[7 letters A-F; D, E, F at most once{rule}]",
            note="any order of a legal deck; the order numbers the card ids")
        for p in s.players
        if not s.set.players[p].deck
    ]


def _guards_stage(s: State) -> list[LegalAction]:
    out = []
    for p in s.players:
        hand = s.set.players[p].hand
        if not s.set.players[p].guards:
            out.append(act(p, "place_guards", {"player": one(p), "card_ids": some(hand, 2)},
                           fields=f"player={p} card_ids=[2 of {', '.join(hand)}]"))
    return out


def _first_player_stage(s: State) -> list[LegalAction]:
    loser = set_loser(s)
    chosen_by = one(loser) if loser is not None else one(*s.players, optional=True)
    choices = {"first_player": one(*s.players), "method": one("rps"), "chosen_by": chosen_by}
    return [act(JUDGE, "decide_first_player", choices)]


def _turns_stage(s: State) -> list[LegalAction]:
    t = s.set.turn
    if t is None:
        return []
    if t.awaiting is not None:
        return AWAITING[t.awaiting.kind](s, t, t.awaiting)
    return STEPS.get(t.step, _nothing)(s, t)


def _nothing(s: State, t: TurnState) -> list[LegalAction]:
    return []


# -- the battle -------------------------------------------------------------------------------------
def _standby(s: State, t: TurnState) -> list[LegalAction]:
    return [
        act(p, "place_field_card", {"player": one(p), "card_id": one(*s.set.players[p].hand)})
        for p in s.players
        if not t.handless[p] and not t.placed.get(p)
    ]


def _deployment(s: State, t: TurnState, p: str) -> list[LegalAction]:
    """The declarations of the deploying player ``p``: the first one, or extra deployments."""
    if not t.declared[p]:
        first = [act(p, "declare_knock", {"player": one(p)})] if p == t.attacker else []
        card = t.placed[p]
        if skill_problem(s, t, p, card, None) is None:
            first.append(act(p, "declare_skill", {"player": one(p), "card_id": one(card)}))
        if p == t.defender:
            first.append(act(p, "declare_through", {"player": one(p)}))
        return first
    out = []
    bases = [i.id for i in instances_of(t, p)]
    cards = [c for c in s.set.players[p].hand if skill_problem(s, t, p, c, bases[0]) is None]
    if cards:
        out.append(act(p, "declare_skill", {"player": one(p), "card_id": one(*cards), "extra_of": one(*bases)},
                       note=f"{t.extra_allowance[p]} extra deployment(s) left"))
    out.append(act(p, "finish_deployment", {"player": one(p)}, note="no more extra deployments"))
    return out


def _action(s: State, t: TurnState) -> list[LegalAction]:
    return _deployment(s, t, t.attacker)


def _counter(s: State, t: TurnState) -> list[LegalAction]:
    return _deployment(s, t, t.defender)


def _resolution(s: State, t: TurnState) -> list[LegalAction]:
    out = []
    for p in orders_missing(t):
        ids = [i.id for i in instances_of(t, p)]
        out.append(act(p, "choose_resolution_order", {"player": one(p), "instance_ids": some(ids, len(ids))},
                       note="in the order chosen"))
    return out


def _end(s: State, t: TurnState) -> list[LegalAction]:
    out = []
    sources = [src for src, _ in end_sources(s)]
    if sources:
        ops = one(*op_menu(s, None, "end"))
        out.append(act(JUDGE, "apply_end_phase_effect", {"source": one(*sources), "ops": ops},
                       fields="source=<instance or lasting id> ops=[...]", note="the ops that carry out the effect"))
    out.append(act(JUDGE, "confirm_end_phase"))
    return out


# -- what the reducer waits for -----------------------------------------------------------------------
def _effect(s: State, t: TurnState, a: Await) -> list[LegalAction]:
    inst = find_instance(t, a.ref)
    ops = one(*op_menu(s, inst.controller, "resolution", exclude=inst.id))
    return [act(JUDGE, "resolve_effect", {"instance_id": one(a.ref), "ops": ops},
                fields=f"instance_id={a.ref} ops=[...]", note="the ops that carry out the card's text")]


def _damage(s: State, t: TurnState, a: Await) -> list[LegalAction]:
    marks = tuple(g.state for g in s.set.players[a.player].guards)
    return [act(a.player, "assign_damage", {"player": one(a.player), "slots": one(*damage_orders(marks, a.points))},
                note=f"one live slot per point, {a.points} point(s)")]


def _heal(s: State, t: TurnState, a: Await) -> list[LegalAction]:
    return [act(a.player, "assign_heal", {"player": one(a.player), "slots": one(*heal_orders(s, a.player, a.points))},
                note="a slot for each heal point with a choice")]


def _lost(s: State, t: TurnState, a: Await) -> list[LegalAction]:
    hand = s.set.players[a.victim].hand
    choices = {"player": one(a.player), "card_ids": some(hand, a.points)}
    if a.player == a.victim:
        return [act(a.player, "choose_lost_cards", choices)]
    # the opponent picks unseen; the ids are the victim's secret (BAC-HID-2), so the judge enters them
    return [act(JUDGE, "choose_lost_cards", choices, note=f"{a.player} picks {a.points} of {a.victim}'s hand cards unseen")]


def _f_decision(s: State, t: TurnState, a: Await) -> list[LegalAction]:
    p, card = a.player, a.ref
    out = []
    if not special_used(s, p, "F"):
        out.append(act(p, "activate_fall_skill", {"player": one(p), "card_id": one(card), "ops": one(*op_menu(s, p, "fall"))},
                       fields=f"player={p} card_id={card} ops=[...]"))
    out.append(act(p, "decline_fall_skill", {"player": one(p), "card_id": one(card)}))
    return out


# -- open at any moment ----------------------------------------------------------------------------
def anytime(s: State) -> list[LegalAction]:
    out = []
    if in_turn(s):
        t = s.set.turn
        choices = {"to_seq": one(t.start_seq), "cause": one("contradiction"), "reason": text()}
        if t.instances:
            choices["instance_ids"] = some([i.id for i in t.instances], 0, len(t.instances), optional=True)
        out.append(act(JUDGE, "rewind", choices, fields=f"to_seq={t.start_seq} cause=contradiction reason=<text>", anytime=True))
    if s.options.allow_judge_rewind:
        seqs = sorted({s.floor_seq, *([s.set.turn.start_seq] if in_turn(s) else [])})
        choices = {"to_seq": one(*seqs), "cause": one("judge_error"), "reason": text()}
        out.append(act(JUDGE, "rewind", choices, anytime=True, note="back to the last completed turn or set result, or later"))
    if in_turn(s) and s.options.judge_may_void_early and s.set.turn.replays_used >= 1:
        out.append(act(JUDGE, "declare_set_void", {"reason": text()}, anytime=True))
    if s.options.allow_concession:
        out += [act(p, "concede_set", {"player": one(p)}, anytime=True) for p in s.players]
    return out


# -- op lists the judge may enter -----------------------------------------------------------------
def op_menu(s: State, controller: str | None, where: str, exclude: str | None = None) -> list[list[dict[str, Any]]]:
    """Op lists legal now, the empty one first. ``controller`` None: any controller (an End-phase
    effect, whose source is chosen in the same action), so no KNOCK."""
    a, b = s.players
    me = controller or a
    opp = other(s, me)
    menu: list[list[dict[str, Any]]] = [
        [],
        [{"op": "DAMAGE", "target": opp, "amount": 1}],
        [{"op": "DAMAGE", "target": opp, "amount": 2}],
        [{"op": "DAMAGE", "target": me, "amount": 1}],
        [{"op": "HEAL", "target": me, "amount": 1}],
        [{"op": "LOSE", "victim": opp, "count": 1}],
        [{"op": "PREVENT", "player": me, "amount": 1, "kind": "any"}],
        [{"op": "NOTE", "text": "the card's text is carried out at the table"}],
        [{"op": "LASTING", "text": "a lasting effect", "until": "end_of_turn"}],
    ]
    t = s.set.turn
    if controller is not None and controller == t.attacker:
        menu.append([{"op": "KNOCK", "count": 1}])
    if where == "resolution":
        menu.append([{"op": "DEFER", "ops": [{"op": "DAMAGE", "target": opp, "amount": 1}]}])
        for i in t.instances:
            if i.status == "pending" and i.id != exclude:
                menu += [[{"op": "NEGATE", "instance": i.id}], [{"op": "CONVERT", "instance": i.id}]]
    return menu


STAGES: dict[str, Callable[[State], list[LegalAction]]] = {
    "deck": _deck_stage,
    "guards": _guards_stage,
    "first_player": _first_player_stage,
    "turns": _turns_stage,
    "over": lambda s: [],
}

STEPS: dict[str, Callable[[State, TurnState], list[LegalAction]]] = {
    "standby": _standby,
    "action": _action,
    "counter": _counter,
    "resolution": _resolution,
    "end": _end,
}

AWAITING: dict[str, Callable[[State, TurnState, Await], list[LegalAction]]] = {
    "effect": _effect,
    "damage": _damage,
    "heal": _heal,
    "lost": _lost,
    "f_decision": _f_decision,
}
