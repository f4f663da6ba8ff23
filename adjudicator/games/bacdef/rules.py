"""The BACDEF transitions: one handler per event type (rules/bacdef.md §3-§8), found by the
event's type in ``HANDLERS``.

``step`` makes a working copy of the state (``state.clone``); the handler checks the event in the
chapter's order (§5.1: stage and step, then who entered it, then the event's own preconditions),
raising ``Violation``, and changes the copy. It returns the source of the op list the event
entered, if any, whose ops the engine then checks strictly. The engine carries out every
automatic step the event made possible (BAC-GEN-3) until the table must decide again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from adjudicator.games.bacdef import events as E
from adjudicator.games.bacdef.catalog import build_catalog
from adjudicator.games.bacdef.checks import (
    STEP_LABELS,
    awaiting_check,
    declaration_window,
    f_decision_check,
    not_a_player,
    not_actor,
    not_judge,
    one_declaration,
    pending_first,
    reject,
    setup_step,
    turn_step,
    wrong_step,
)
from adjudicator.games.bacdef.config import Options
from adjudicator.games.bacdef.damage import heal, hit
from adjudicator.games.bacdef.deck import check_deck_letters, create_cards
from adjudicator.games.bacdef.effects import validate_ops
from adjudicator.games.bacdef.engine import settle
from adjudicator.games.bacdef.rewind import check_rewind, check_replay
from adjudicator.games.bacdef.state import (
    SPECIALS,
    Frame,
    Instance,
    LastingEffect,
    Slot,
    State,
    TurnState,
    clone,
    find_instance,
    in_turn,
    instances_of,
    orders_missing,
    other,
    pop,
    push,
    put,
    replace_in,
    resolves_with_effect,
    special_used,
    without,
)
from adjudicator.games.bacdef.turns import end_set, new_set, set_floor, start_turn
from adjudicator.games.bacdef.zones import mark_special, note, set_card, to_discard
from adjudicator.engine.protocol import JUDGE, Action, Context, Malformed, Violation

Handler = Callable[[State, Any, Context], str | None]


# -- match_started (§3) -----------------------------------------------------------------------------
def start(started: E.BacMatchStarted, options: Options, seq: int) -> State:
    players = tuple(started.players)
    for i, p in enumerate(players):
        if "-" in p:
            raise Malformed(f"player name {p!r} cannot be used (no '-': card ids are <player>-<n>)", f"$.players[{i}]")
    s = State(players=players, options=options, catalog=build_catalog(started.catalog), set_wins={p: 0 for p in players})
    if started.decks is not None:
        if set(started.decks) != set(players):
            raise Malformed(f"decks must name both players {list(players)}, not {sorted(started.decks)}", "$.decks")
        for p in players:
            check_deck_letters(started.decks[p], options, f"{p}'s deck")
        s.decks_set1 = {p: tuple(started.decks[p]) for p in players}
    new_set(s)
    return s


# -- setup (§5.2) -----------------------------------------------------------------------------------
def on_register_deck(s: State, ev: E.RegisterDeck, ctx: Context) -> None:
    setup_step(s, "deck", "register_deck")
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-2")
    if s.set.players[ev.player].deck:  # a step check (BAC-SETUP-5), so before `by` (§5.1)
        raise reject("BAC-SETUP-5", "E_WRONG_STEP", f"{ev.player} already registered a deck for set {s.set.set_no}")
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-2")
    check_deck_letters(ev.letters, s.options, f"{ev.player}'s deck")
    create_cards(s, ev.player, ev.letters)
    if s.set.set_no == 1:
        s.decks_set1 = {**(s.decks_set1 or {}), ev.player: tuple(ev.letters)}
    a, b = s.players  # both, written out: no generator at each registration
    if s.set.players[a].deck and s.set.players[b].deck:
        s.set.stage = "guards"


def on_place_guards(s: State, ev: E.PlaceGuards, ctx: Context) -> None:
    setup_step(s, "guards", "place_guards")
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-3")
    ps = s.set.players[ev.player]
    if ps.guards:  # a step check (BAC-SETUP-5), so before `by` (§5.1)
        raise reject("BAC-SETUP-5", "E_WRONG_STEP", f"{ev.player} already placed guards for set {s.set.set_no}")
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-3")
    ids = list(ev.card_ids)
    if len(ids) != 2 or len(set(ids)) != 2 or not set(ids).issubset(ps.hand):
        raise reject("BAC-SETUP-2", "E_GUARD_COUNT", f"{ev.player} must choose 2 different cards of their own deck as guards, not {ids}")
    hand, guards = ps.hand, ps.guards
    for n, cid in enumerate(ids, 1):
        set_card(s, replace(s.set.cards[cid], zone="guard", slot=n))
        hand = without(hand, cid)
        guards = guards + (Slot(card_id=cid, state="U"),)
    s.set.players[ev.player] = replace(ps, hand=hand, guards=guards)
    a, b = s.players
    if s.set.players[a].guards and s.set.players[b].guards:
        s.set.stage = "first_player"


def set_loser(s: State) -> str | None:
    """The loser of the last set won, who chooses under ``loser_chooses`` (BAC-RUL-6)."""
    decided = [r for r in s.set_results if r.outcome == "win"]
    if s.options.first_player_rule != "loser_chooses" or not decided:
        return None
    return other(s, decided[-1].winner)


def on_decide_first_player(s: State, ev: E.DecideFirstPlayer, ctx: Context) -> None:
    setup_step(s, "first_player", "decide_first_player")
    if ev.by != JUDGE:
        raise not_judge(ev, "BAC-ACT-4", "the first-player result")
    if ev.first_player not in s.players:
        raise not_a_player(s, ev.first_player, "BAC-ACT-4")
    loser = set_loser(s)
    if loser is not None and ev.chosen_by != loser:
        raise reject("BAC-ACT-4", "E_NOT_ACTOR", f"under loser_chooses the loser of the last set ({loser}) chooses, not {ev.chosen_by}")
    s.set.first_player = ev.first_player
    s.set.stage = "turns"
    start_turn(s, 1, ctx.seq)


# -- the battle (§5.3) ------------------------------------------------------------------------------
def on_place_field_card(s: State, ev: E.PlaceFieldCard, ctx: Context) -> None:
    t = turn_step(s, "place_field_card", "placement")
    if t.step != "standby":
        raise wrong_step(t, "placing a field card")
    player, cid = ev.player, ev.card_id
    if player not in s.players:
        raise not_a_player(s, player, "BAC-ACT-5")
    if ev.by != player and ev.by != JUDGE:
        raise not_actor(ev, player, "BAC-ACT-5")
    if t.handless[player]:
        raise reject("BAC-LIM-9", "E_HANDLESS", f"{player} had no hand card at turn start and places nothing this turn")
    st = s.set
    ps = st.players[player]
    if cid not in ps.hand:
        where = st.cards[cid].zone if cid in st.cards else "nowhere in this set"
        raise reject("BAC-ACT-5", "E_CARD_ZONE", f"{cid!r} is not in {player}'s hand (it is {where})")
    if t.placed.get(player):
        raise reject("BAC-LIM-4", "E_ALREADY_PLACED", f"{player} already placed a field card this turn; {cid!r} stays in hand")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "place")
    st.players[player] = replace(ps, hand=without(ps.hand, cid))
    st.cards[cid] = replace(st.cards[cid], zone="field", face="down", orientation="upright")  # ``set_card``
    t.placed = put(t.placed, player, cid)


def on_declare_knock(s: State, ev: E.DeclareKnock, ctx: Context) -> None:
    t = turn_step(s, "declare_knock", "knock")
    player = ev.player
    if player not in s.players:
        raise not_a_player(s, player, "BAC-ACT-6")
    if player != t.attacker:
        raise reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{player} is the defender this turn; only the attacker ({t.attacker}) can knock")
    if t.declared.get(player):
        raise one_declaration(player)
    if t.step != "action" or t.closed.get(player):
        raise wrong_step(t, "a knock")
    if ev.by != player and ev.by != JUDGE:
        raise not_actor(ev, player, "BAC-ACT-6")
    cid = t.placed.get(player)
    cards = s.set.cards
    if not cid or cards[cid].zone != "field":
        raise reject("BAC-ACT-6", "E_CARD_ZONE", f"{player} has no field card to knock with")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "declare")
    cards[cid] = replace(cards[cid], orientation="sideways", knocked=True)  # ``set_card``
    iid = f"I{len(t.instances) + 1}"
    t.instances += (Instance(id=iid, controller=player, side="attacker", kind="knock", card_id=cid, letter=None),)
    t.declared = put(t.declared, player, True)
    t.notes += (f"auto: knock instance {iid}",)  # ``note``
    close_step(s, t, player)


def skill_problem(s: State, t: TurnState, player: str, card_id: str, extra_of: str | None) -> Violation | None:
    """Why ``player`` cannot declare ``card_id`` as a skill now (BAC-ACT-7, BAC-LIM-6, BAC-EFF-0,
    BAC-LIM-2, BAC-LIM-3), once the step and the author are right; None when they can."""
    c = s.set.cards.get(card_id)
    if extra_of is None:
        if c is None or c.owner != player or c.zone != "field" or c.face != "down":
            return reject("BAC-ACT-7", "E_CARD_ZONE", f"{card_id!r} is not {player}'s face-down field card")
    else:
        if c is None or card_id not in s.set.players[player].hand:
            return reject("BAC-ACT-7", "E_CARD_ZONE", f"an extra deployment comes from the hand; {card_id!r} is not in {player}'s hand")
        base = find_instance(t, extra_of)
        if base is None or base.controller != player or t.extra_allowance.get(player, 0) < 1:
            return reject("BAC-LIM-6", "E_NO_EXTRA", f"{player} has no extra deployment left from {extra_of}")
    entry = s.catalog[c.letter]
    attacking = player == t.attacker
    if not (entry.action_allowed if attacking else entry.counter_allowed):
        return reject("BAC-EFF-0", "E_TIMING", f"the catalog does not allow {c.letter} in the {STEP_LABELS[t.step]} step")
    if entry.knock_skill and not attacking:
        return reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{c.letter} is a knock skill; only the attacker ({t.attacker}) can use it")
    if c.letter in SPECIALS and special_used(s, player, c.letter):
        return reject("BAC-LIM-3", "E_SPECIAL_USED", f"{c.letter} was already activated this set; {card_id!r} cannot be declared")
    return None


def on_declare_skill(s: State, ev: E.DeclareSkill, ctx: Context) -> None:
    t = turn_step(s, "declare_skill", "skill")
    player, extra_of = ev.player, ev.extra_of
    if player not in s.players:
        raise not_a_player(s, player, "BAC-ACT-7")
    declaration_window(t, player, "declare_skill", extra_of is not None)
    if ev.by != player and ev.by != JUDGE:
        raise not_actor(ev, player, "BAC-ACT-7")
    if t.handless[player]:
        raise reject("BAC-LIM-9", "E_HANDLESS", f"{player} had no hand card at turn start and cannot act")
    problem = skill_problem(s, t, player, ev.card_id, extra_of)
    if problem is not None:
        raise problem
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "declare")
    st = s.set
    c = st.cards[ev.card_id]
    entry = s.catalog[c.letter]
    if extra_of is not None:
        ps = st.players[player]
        st.players[player] = replace(ps, hand=without(ps.hand, c.id))
        t.extra_allowance = put(t.extra_allowance, player, t.extra_allowance[player] - 1)
    st.cards[c.id] = c = replace(c, zone="field", face="up", orientation="upright", skill_used=True)  # ``set_card``
    iid = f"I{len(t.instances) + 1}"
    side = "attacker" if player == t.attacker else "defender"
    t.instances += (Instance(id=iid, controller=player, side=side, kind="skill", card_id=c.id, letter=c.letter, extra_of=extra_of),)
    if c.letter in SPECIALS and entry.battle_effect:
        mark_special(s, player, c.letter)
    if entry.extra_deploys or player not in t.extra_allowance:  # a new dict only for a new value
        t.extra_allowance = put(t.extra_allowance, player, t.extra_allowance.get(player, 0) + entry.extra_deploys)
    t.declared = put(t.declared, player, True)
    if side == "defender":
        t.reaction = "counter"
    t.notes += (f"auto: skill instance {iid} ({c.letter})",)  # ``note``
    if t.extra_allowance[player] == 0:
        close_step(s, t, player)


def close_step(s: State, t: TurnState, player: str) -> None:
    """A deployment step closes: the Counter step follows the Action step (a defender with no field
    card goes through at once), and the Resolution step follows the Counter step."""
    t.closed = put(t.closed, player, True)
    if t.extra_allowance.get(player) != 0:  # a new dict only for a new value
        t.extra_allowance = put(t.extra_allowance, player, 0)
    if player != t.attacker:
        t.step = "resolution"
        return
    t.step = "counter"
    d = t.defender
    cid = t.placed.get(d)
    if t.handless[d] or not cid or s.set.cards[cid].zone != "field":
        t.reaction = "through"
        t.closed = put(t.closed, d, True)
        t.declared = put(t.declared, d, True)
        note(s, f"auto: {d} has no field card; through")
        t.step = "resolution"


def on_finish_deployment(s: State, ev: E.FinishDeployment, ctx: Context) -> None:
    t = turn_step(s, "finish_deployment")
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-8")
    declaration_window(t, ev.player, "finish_deployment", True)
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-8")
    if t.extra_allowance.get(ev.player, 0) < 1:
        raise reject("BAC-ACT-8", "E_WRONG_STEP", f"{ev.player} has no deployment to finish; declare first (no passing)")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "declare")
    close_step(s, t, ev.player)


def on_declare_through(s: State, ev: E.DeclareThrough, ctx: Context) -> None:
    t = turn_step(s, "declare_through", "through")
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-9")
    if ev.player == t.defender and t.declared.get(ev.player):
        reaction = "countered" if t.reaction == "counter" else "went through"
        raise reject("BAC-LIM-5", "E_WRONG_STEP", f"{ev.player} already {reaction} this battle; one reaction")
    if t.step != "counter" or ev.player != t.defender:
        raise wrong_step(t, f"through by {ev.player}")
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-9")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "declare")
    t.reaction = "through"
    t.declared = put(t.declared, ev.player, True)
    close_step(s, t, ev.player)


# -- resolution and its choices (§7) ---------------------------------------------------------------
def on_choose_order(s: State, ev: E.ChooseResolutionOrder, ctx: Context) -> None:
    t = turn_step(s, "choose_resolution_order")
    if t.step != "resolution":
        raise wrong_step(t, "choosing a resolution order")
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-10")
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-10")
    own = sorted(i.id for i in instances_of(t, ev.player))
    if t.queue_fixed or t.order.get(ev.player):
        raise reject("BAC-ACT-10", "E_ORDER", "the resolution order is already fixed")
    if len(own) < 2:
        raise reject("BAC-ACT-10", "E_ORDER", f"{ev.player} has {len(own)} instance(s); no order to choose")
    if sorted(ev.instance_ids) != own:
        raise reject("BAC-ACT-10", "E_ORDER", f"{list(ev.instance_ids)} is not an order of {ev.player}'s instances {own}")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "order")
    t.order = put(t.order, ev.player, tuple(ev.instance_ids))


def on_resolve_effect(s: State, ev: E.ResolveEffect, ctx: Context) -> str:
    t = turn_step(s, "resolve_effect")
    if t.step != "resolution":
        raise wrong_step(t, "resolve_effect")
    if ev.by != JUDGE:
        raise not_judge(ev, "BAC-ACT-11", "resolve_effect")
    if not t.queue_fixed and orders_missing(t):  # a fixed queue has every order it needs
        raise reject("BAC-ACT-10", "E_ORDER", f"the resolution order of {', '.join(orders_missing(t))} is still missing")
    if t.awaiting is not None and t.awaiting.kind != "effect":
        raise reject("BAC-TURN-10", "E_WRONG_STEP", f"waiting for {t.awaiting.player}'s {t.awaiting.kind} choice first")
    inst = find_instance(t, ev.instance_id)
    if inst is not None and inst.status == "negated":
        raise reject("BAC-RES-16", "E_INSTANCE_NEGATED", f"{inst.id} was negated and produces nothing")
    if inst is None or not t.queue or t.queue[0] != inst.id:
        head = t.queue[0] if t.queue else "none"
        raise reject("BAC-RES-4", "E_NOT_HEAD", f"{ev.instance_id} is not next to resolve; the head of the queue is {head}")
    if not inst.converted and not resolves_with_effect(s, inst):
        raise reject("BAC-RES-5", "E_AUTO_INSTANCE", f"{inst.id} resolves automatically")
    t.instances = replace_in(t.instances, inst, replace(inst, status="resolved"))  # ``set_instance``
    t.queue = t.queue[1:]
    t.awaiting = None
    validate_ops(s, ev.ops, "resolution", inst.controller)
    t.work += (Frame(kind="ops", controller=inst.controller, source=inst.id, ops=tuple(ev.ops)),)  # ``push``
    return inst.id


def on_assign_damage(s: State, ev: E.AssignDamage, ctx: Context) -> None:
    t = awaiting_check(s, ev, "damage", "BAC-ACT-12", "assign_damage")
    a = t.awaiting
    if len(ev.slots) != a.points:
        raise reject("BAC-ACT-12", "E_ASSIGNMENT", f"{ev.player} takes {a.points} point(s); give one slot per point, not {len(ev.slots)}")
    players = s.set.players
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "damage")
    t.awaiting = None
    for n, slot in enumerate(ev.slots, 1):
        if slot not in (1, 2) or players[ev.player].guards[slot - 1].state == "X":  # as the last point left it
            raise reject("BAC-ACT-12", "E_ASSIGNMENT", f"point {n} cannot go to slot {slot}: it is no longer a live guard")
        hit(s, ev.player, slot)
    note(s, f"auto: {ev.player} took {a.points} {a.dmg_kind} damage on slots {list(ev.slots)}")


def on_assign_heal(s: State, ev: E.AssignHeal, ctx: Context) -> None:
    t = awaiting_check(s, ev, "heal", "BAC-ACT-13", "assign_heal")
    points = t.awaiting.points
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "heal")
    t.awaiting = None
    heal(s, ev.player, points, list(ev.slots))


def on_choose_lost(s: State, ev: E.ChooseLostCards, ctx: Context) -> None:
    t = awaiting_check(s, ev, "lost", "BAC-ACT-14", "choose_lost_cards")
    a = t.awaiting
    hand = s.set.players[a.victim].hand
    ids = list(ev.card_ids)
    if len(ids) != a.points or len(set(ids)) != len(ids) or any(c not in hand for c in ids):
        raise reject("BAC-ACT-14", "E_ASSIGNMENT", f"choose exactly {a.points} different card(s) from {a.victim}'s hand, not {ids}")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "lost")
    t.awaiting = None
    for cid in ids:
        to_discard(s, set_card(s, replace(s.set.cards[cid], face="down")))
    note(s, f"auto: {a.victim} lost {len(ids)} card(s)")


def on_activate_fall(s: State, ev: E.ActivateFallSkill, ctx: Context) -> str:
    t = f_decision_check(s, ev, "BAC-ACT-15", "activate_fall_skill")
    if special_used(s, ev.player, "F"):
        # Under special_once_scope = global, two Fs can be pending when the first is activated;
        # the limit is checked at every activation (BAC-LIM-3, BAC-LIM-11): the other can only decline.
        raise reject("BAC-LIM-3", "E_SPECIAL_USED", f"F was already activated this set; {ev.card_id!r} can only be declined")
    validate_ops(s, ev.ops, "fall", ev.player)
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "fall")
    pop(t)
    t.awaiting = None
    c = set_card(s, replace(s.set.cards[ev.card_id], face="up"))
    mark_special(s, ev.player, "F")
    note(s, f"auto: {ev.player}'s F ({c.id}) activated")
    push(t, Frame(kind="ops", controller=ev.player, source=f"F:{c.id}", ops=tuple(ev.ops)))
    return f"F:{c.id}"


def on_decline_fall(s: State, ev: E.DeclineFallSkill, ctx: Context) -> None:
    t = f_decision_check(s, ev, "BAC-ACT-16", "decline_fall_skill")
    if s.options.replay_must_repeat:
        check_replay(s, ev, ctx, "fall")
    pop(t)
    t.awaiting = None


# -- the End phase and the set's end (§4, §6) ----------------------------------------------------
def end_sources(s: State) -> list[tuple[str, str]]:
    """What an end-phase effect may come from: the turn's instances and the lasting effects,
    each with its controller (BAC-ACT-17)."""
    t = s.set.turn
    return [(i.id, i.controller) for i in t.instances] + [(l.id, l.controller) for l in s.set.lasting]


def end_source_controller(s: State, source: str) -> str | None:
    """The controller of ``source`` among ``end_sources`` (their ids are unique: I1.., L1..),
    found without building the list."""
    for i in s.set.turn.instances:
        if i.id == source:
            return i.controller
    for l in s.set.lasting:
        if l.id == source:
            return l.controller
    return None


def on_end_effect(s: State, ev: E.ApplyEndPhaseEffect, ctx: Context) -> str:
    t = turn_step(s, "apply_end_phase_effect")
    if t.step != "end":
        raise wrong_step(t, "apply_end_phase_effect")
    if ev.by != JUDGE:
        raise not_judge(ev, "BAC-ACT-17", "end-phase effects")
    if t.awaiting is not None or t.work:
        raise pending_first(t, "apply_end_phase_effect", "BAC-ACT-17")
    controller = end_source_controller(s, ev.source)
    if controller is None:
        raise reject("BAC-ACT-17", "E_BAD_OP", f"source {ev.source!r} is neither an instance of this turn nor a lasting effect")
    validate_ops(s, ev.ops, "end", controller)
    source = f"end:{ev.source}"
    t.work += (Frame(kind="ops", controller=controller, source=source, ops=tuple(ev.ops)),)  # ``push``
    return source


def on_confirm_end(s: State, ev: E.ConfirmEndPhase, ctx: Context) -> None:
    t = turn_step(s, "confirm_end_phase")
    if t.step != "end":
        raise wrong_step(t, "confirm_end_phase")
    if ev.by != JUDGE:
        raise not_judge(ev, "BAC-ACT-18", "confirm_end_phase")
    if t.awaiting is not None or t.work:
        raise pending_first(t, "confirm_end_phase", "BAC-ACT-18")
    a, d = t.attacker, t.defender
    players = s.set.players
    lose_a, lose_d = players[a].overflow >= 1, players[d].overflow >= 1  # ``losing``
    set_floor(s, ctx.seq)
    if lose_a and lose_d:
        return end_set(s, "win", d, f"both players took the 5th point in turn {t.no}; the defender wins (BAC-RUL-12)", ctx.seq)
    if lose_a or lose_d:
        loser = a if lose_a else d
        return end_set(s, "win", other(s, loser), f"{loser} had no guard left and took damage (turn {t.no})", ctx.seq)
    if not players[a].hand and not players[d].hand:
        if s.options.both_hands_empty_rule == "void_set":
            return end_set(s, "void", None, f"both hands empty at the end of turn {t.no} (BAC-RUL-14)", ctx.seq)
        return end_set(s, "win", d, f"both hands empty at the end of turn {t.no}; the defender wins (BAC-RUL-14)", ctx.seq)
    if s.set.lasting:
        s.set.lasting = still_lasting(s.set.lasting, t.no)
    start_turn(s, t.no + 1, ctx.seq)


def still_lasting(lasting: tuple[LastingEffect, ...], turn_no: int) -> tuple[LastingEffect, ...]:
    """The lasting effects that outlive turn ``turn_no`` (BAC-EFF-13)."""
    return tuple(l for l in lasting if l.expires_turn > turn_no)


def on_declare_void(s: State, ev: E.DeclareSetVoid, ctx: Context) -> None:
    if not in_turn(s):
        raise reject("BAC-REW-8", "E_WRONG_STEP", "a set can be declared void only during a turn")
    if ev.by != JUDGE:
        raise not_judge(ev, "BAC-ACT-20", "declare_set_void")
    if not s.options.judge_may_void_early:
        raise reject("BAC-REW-8", "E_CONFIG", "this match does not allow an early void (judge_may_void_early is off)")
    if s.set.turn.replays_used < 1:
        raise reject("BAC-REW-8", "E_NO_CONTRADICTION", "no contradiction has been declared in this turn; the set cannot be voided early")
    end_set(s, "void", None, f"declared void by the judge: {ev.reason}", ctx.seq)


def on_concede(s: State, ev: E.ConcedeSet, ctx: Context) -> None:
    if ev.player not in s.players:
        raise not_a_player(s, ev.player, "BAC-ACT-22")
    if ev.by != ev.player and ev.by != JUDGE:
        raise not_actor(ev, ev.player, "BAC-ACT-22")
    if not s.options.allow_concession:
        raise reject("BAC-ACT-22", "E_CONFIG", f"concession is off in this match (allow_concession); {ev.player} cannot concede")
    end_set(s, "win", other(s, ev.player), f"{ev.player} conceded set {s.set.set_no}", ctx.seq)


HANDLERS: dict[type, Handler] = {
    E.RegisterDeck: on_register_deck,
    E.PlaceGuards: on_place_guards,
    E.DecideFirstPlayer: on_decide_first_player,
    E.PlaceFieldCard: on_place_field_card,
    E.DeclareKnock: on_declare_knock,
    E.DeclareSkill: on_declare_skill,
    E.FinishDeployment: on_finish_deployment,
    E.DeclareThrough: on_declare_through,
    E.ChooseResolutionOrder: on_choose_order,
    E.ResolveEffect: on_resolve_effect,
    E.AssignDamage: on_assign_damage,
    E.AssignHeal: on_assign_heal,
    E.ChooseLostCards: on_choose_lost,
    E.ActivateFallSkill: on_activate_fall,
    E.DeclineFallSkill: on_decline_fall,
    E.ApplyEndPhaseEffect: on_end_effect,
    E.ConfirmEndPhase: on_confirm_end,
    E.DeclareSetVoid: on_declare_void,
    E.ConcedeSet: on_concede,
}


#: the handlers that read the turn, the cards and the players without changing them, and drop the
#: turn (the next turn, the next set or the match's end replaces it): their working copy shares
#: them (``clone(shallow=True)``), the End phase confirmed at every turn's end copies no turn
TURN_ENDING = frozenset({on_confirm_end, on_declare_void, on_concede})


def step(state: State, ev: Action, ctx: Context) -> State:
    """The one transition: the new state after ``ev``, or ``Violation``; ``state`` is not changed."""
    handler = HANDLERS.get(type(ev))  # none for a correction or a rewind (nor their subclasses)
    if handler is None:
        if isinstance(ev, E.BacCorrect):
            raise reject("BAC-REW-14", "E_NO_CORRECTION", "BACDEF has no retroactive correction; use a judge-error rewind to just before the wrong entry")
        if state.status != "in_progress":
            raise reject("BAC-OVR-7", "E_MATCH_OVER", f"the match is over ({state.status})")
        if isinstance(ev, E.BacRewind):
            check_rewind(state, ev, ctx)
            return state
        handler = HANDLERS[type(ev)]
    elif state.status != "in_progress":
        raise reject("BAC-OVR-7", "E_MATCH_OVER", f"the match is over ({state.status})")
    s = clone(state, True, handler in TURN_ENDING)  # fresh, shallow: by position, a call at every event
    strict = handler(s, ev, ctx)
    settle(s, strict)
    return s
