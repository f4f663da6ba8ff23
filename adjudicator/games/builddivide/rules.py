"""Turn events (rules §4, §5, §6): one handler per event type. Each raises ``Violation`` with the
chapter's rule ID when the event is illegal now, in the order of BD-ACT-37, else returns the new
state. Setup and match events are in ``setup.py``."""

from __future__ import annotations

import operator
from typing import Any

from adjudicator.games.builddivide import battle as B
from adjudicator.games.builddivide import events as E
from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.ops import OpContext, apply_ops, release_territory
from adjudicator.games.builddivide.payment import card_cost, check_entries, note, pay
from adjudicator.games.builddivide.state import DamageProc, PaymentNote, Player, StackItem, State, Unit, replace
from adjudicator.engine.protocol import JUDGE, Context, Violation

PHASES = ("STAND", "DRAW", "MAIN", "ATTACK", "END")
NEXT_PHASE = dict(zip(PHASES, PHASES[1:]))


# Each handler asks these questions itself and calls the helper only to word the refusal: a legal
# event goes through without a call (the common case, folded once per stored event).
def in_setup(s: State, what: str) -> Violation:
    """BD-SET-1: an event of play (``what``) while the game is still in setup (``status == "SETUP"``)."""
    return Violation("BD-SET-1", f"{what} belongs to play, and game {s.game.game_no} is still in setup (step {s.game.setup_step})", "OUT_OF_ORDER")


def not_your_turn(ev: E.Action, tp: str, rule: str, what: str) -> Violation:
    """``ev`` is for the turn player ``tp`` (or a judge) alone: ``ev.by not in (JUDGE, tp)``."""
    return Violation(rule, f"{ev.by} cannot {what}: it is {tp}'s turn", "NOT_YOUR_TURN")


def acting_player(s: State, ev: E.Action, given: str | None, rule: str) -> str:
    """The player an event is entered for: ``given``, else the author, else (judge) the turn player."""
    name = given or (ev.by if ev.by != JUDGE else s.game.turn_player or "")
    if name not in s.names:
        raise Violation(rule, f"{name!r} is not a player of this match", "NOT_A_PLAYER")
    if ev.by not in (JUDGE, name):
        raise Violation(rule, f"{ev.by} cannot act for {name}", "NOT_ALLOWED")
    return name


def busy(s: State) -> str:
    """What keeps the table from moving on: '' when nothing does."""
    g = s.game
    if g.stack:
        return f"the resolution zone holds {len(g.stack)} item(s)"
    if g.damage is not None:
        return f"damage to {g.damage.victim} is being dealt ({g.damage.waiting.lower()} awaited)"
    if g.attack is not None:
        return f"{g.attack.attacker}'s attack is in progress ({g.attack.step.lower()} step)"
    return ""


# -- the turn (§4) ---------------------------------------------------------------------------------------
def advance_phase(s: State, ev: E.AdvancePhase, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "advance_phase")
    g = s.game
    tp = g.turn_player or ""
    if ev.by not in (JUDGE, tp):
        raise not_your_turn(ev, tp, "BD-TURN-8", "advance the phase")
    why = busy(s)
    if not why and g.phase == "DRAW" and not g.drawn_this_phase and g.turn_number > 1:
        why = f"{tp} has not drawn yet"
    if not why and g.end_step == "DISCARD":
        why = f"{tp} owes an end-phase discard down to {hand_limit(s, tp)} cards"
    if why:
        raise Violation("BD-TURN-8", f"the phase cannot advance: {why}", "NOT_NOW")
    if g.phase != "END":
        nxt = NEXT_PHASE[g.phase or "STAND"]  # the event's seq in the same copy (``step`` sets it otherwise)
        return replace(s, game=replace(g, phase=nxt, drawn_this_phase=False, end_step="END_OPEN" if nxt == "END" else None), seq=ctx.seq)
    if g.end_step == "END_OPEN":
        return end_steps(s, tp)
    return next_turn(s, tp, ctx.seq)


def hand_limit(s: State, name: str) -> int:
    p = Z.player(s, name)
    ter = s.catalog.get(p.territory.name) if p.territory else None
    if ter is not None and ter.deck_rule_overrides and "hand_limit" in ter.deck_rule_overrides:
        return ter.deck_rule_overrides["hand_limit"]
    return s.options.hand_limit


def _end_of_turn(u: Unit) -> Unit:
    """BD-TURN-7 steps 2-3 for one unit: its damage removed, its end-of-turn modifiers and
    statuses expired; the unit itself when it has none of them."""
    mods, statuses = u.modifiers, u.statuses
    if mods and any(m.duration == "END_OF_TURN" for m in mods):
        mods = tuple(m for m in mods if m.duration != "END_OF_TURN")
    if statuses and any(x.duration == "END_OF_TURN" for x in statuses):
        statuses = tuple(x for x in statuses if x.duration != "END_OF_TURN")
    if u.damage == 0 and mods is u.modifiers and statuses is u.statuses:
        return u
    return replace(u, damage=0, modifiers=mods, statuses=statuses)


def end_steps(s: State, tp: str) -> State:
    """BD-TURN-7 steps 2-4: all damage removed, end-of-turn effects expire, the hand-limit check
    (the state checks that follow move no card of a hand or a territory: it is made first)."""
    owed = len(Z.player(s, tp).hand) > hand_limit(s, tp)
    players = []
    for p in s.game.players:
        for u in p.field:
            if u.damage or u.modifiers or u.statuses:  # a field with nothing of these is kept without a call a unit
                field = tuple(map(_end_of_turn, p.field))
                if any(map(operator.is_not, field, p.field)):  # a unit with damage or an end-of-turn effect
                    p = replace(p, field=field)
                break
        players.append(p)
    return Z.state_checks(replace(s, game=replace(s.game, players=tuple(players), end_step="DISCARD" if owed else "END_CLOSE")), s)


def next_turn(s: State, tp: str, seq: int) -> State:
    """The opponent's turn starts with its stand phase: every rested card of theirs stands."""
    nxt = Z.opponent(s, tp)
    p = Z.player(s, nxt)
    ter = p.territory
    p = replace(p, field=_stood(p.field), energy=_stood(p.energy),
                territory=ter if ter is None or ter.standing else replace(ter, standing=True), energy_placed_this_turn=False)
    g = s.game  # one copy of the game, without ``put``'s keyword dict; the event's seq with it
    return replace(s, game=replace(g, players=Z.seated(g.players, p), turn_number=g.turn_number + 1, turn_player=nxt, phase="STAND",
                                   end_step=None, drawn_this_phase=False, turn_started_at=seq), seq=seq)


def _stood(cards: tuple[Any, ...]) -> tuple[Any, ...]:
    """Units or energy cards, every one standing: the cards already standing are kept as they are
    (a loop, not ``all`` over a generator: most zones have no rested card)."""
    for c in cards:
        if not c.standing:
            return tuple(c if c.standing else replace(c, standing=True) for c in cards)
    return cards


def draw(s: State, ev: E.Draw, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "draw")
    g = s.game
    tp = g.turn_player or ""
    if ev.player != tp or ev.by not in (JUDGE, tp):
        raise Violation("BD-TURN-4", f"only the turn player {tp} draws in the draw phase ({ev.by} for {ev.player})", "NOT_YOUR_TURN")
    if g.phase != "DRAW":
        raise Violation("BD-TURN-4", f"the rule draw happens in the draw phase, not the {(g.phase or '').lower()} phase", "NOT_NOW")
    if g.turn_number == 1:
        raise Violation("BD-TURN-4", f"{tp} goes first: the draw of turn 1 is skipped (BD-LIM-6)", "FIRST_TURN")
    if g.drawn_this_phase:
        raise Violation("BD-TURN-4", f"{tp} has already drawn this draw phase", "ALREADY_DRAWN")
    name = ev.private.get("card")
    got = Z.draw_one(s, Z.player(s, tp), True, name)
    if got is None:
        return Z.lose(Z.set_game(s, drawn_this_phase=True), [tp], "deck_out", "has to draw with an empty deck and an empty life zone")
    return replace(s, game=replace(g, players=Z.seated(g.players, got), drawn_this_phase=True), seq=ctx.seq)


# -- main-phase actions -------------------------------------------------------------------------------------
def place_energy(s: State, ev: E.PlaceEnergy, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "place_energy")
    g = s.game
    tp = g.turn_player or ""
    if ev.by not in (JUDGE, tp) or g.phase != "MAIN":
        who = "not your turn" if ev.by not in (JUDGE, tp) else f"the {(g.phase or '').lower()} phase"
        raise Violation("BD-TURN-5", f"{ev.by} cannot place energy ({ev.card}) now: {who}; energy is placed in one's own main phase", "NOT_NOW")
    why = busy(s)
    if why:
        raise Violation("BD-TURN-5", f"energy is placed only with nothing pending: {why}", "NOT_NOW")
    p = Z.player(s, tp)
    if p.energy_placed_this_turn:
        raise Violation("BD-LIM-1", f"{tp} already placed an energy this turn; {ev.card!r} stays in hand", "ENERGY_PLACED")
    p = Z.take_from_hand(s, p, ev.card, "BD-ACT-11", "place as energy")
    return Z.put(s, replace(Z.add_energy(p, ev.card), energy_placed_this_turn=True))


def _timing(s: State, name: str, timing: str, what: str) -> None:
    """BD-RES-1: NORMAL only in one's own main phase with nothing pending; QUICK any time one may
    act, but inside damage to a player only in response to a shot (BD-RUL-39)."""
    g = s.game
    if timing == "QUICK":
        if g.damage is not None and g.damage.waiting != "STACK":
            raise Violation("BD-RES-1", f"{what} (QUICK) cannot be played while damage to {g.damage.victim} is being dealt", "TIMING")
        return
    why = busy(s)
    if name != g.turn_player or g.phase != "MAIN" or why:
        where = why or (f"it is {g.turn_player}'s turn" if name != g.turn_player else f"the {(g.phase or '').lower()} phase")
        raise Violation("BD-RES-1", f"{what} has NORMAL timing: only in its owner's main phase with nothing pending ({where})", "TIMING")


def play_card(s: State, ev: E.PlayCard, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "play_card")
    who = acting_player(s, ev, ev.player, "BD-ACT-12")
    c = s.catalog.get(ev.card)
    if c is None or c.type not in ("UNIT", "COMMAND"):
        kind = "not in the catalog" if c is None else f"a {c.type.lower()}"
        raise Violation("BD-ACT-12", f"{who} cannot play {ev.card!r}: it is {kind}; only units and commands are played", "NOT_PLAYABLE")
    _timing(s, who, c.timing, ev.card)
    p = Z.take_from_hand(s, Z.player(s, who), ev.card, "BD-ACT-12", "play")
    cost = card_cost(c, ev.cost_adjustment)
    p = pay(s, p, ev.payment, cost, ev.card)
    return onto_stack(s, p, card=ev.card, targets=targets(s, ev.targets, "$.targets"), hand_play=True,
                      last_payment=note(who, ev.card, ev.payment, cost))


def onto_stack(s: State, p: Player, *, card: str | None = None, ability_id: str | None = None, source: str | None = None,
               targets: tuple[str, ...] = (), from_shot: bool = False, hand_play: bool = False,
               last_payment: PaymentNote | None = None, last_trigger: tuple[int, str] | None = None,
               damage: DamageProc | None = None) -> State:
    """A played card or an ability of ``p`` (the controller as the event left it: hand and energy
    paid) goes on top of the resolution zone (BD-RES-2), numbered as it enters play (§15);
    ``last_payment``, ``last_trigger`` and ``damage``: the game's other changes that come with it,
    in the same copy of the state (None: as it is; spelled out, not a keyword dict, for speed)."""
    p, k = Z.enter_play(p, card or ability_id or "")
    g = s.game
    top = StackItem(id=g.next_item, kind="CARD" if card else "ABILITY", controller=p.name, card=card, ability_id=ability_id, k=k,
                    source=source, targets=targets, from_shot=from_shot, hand_play=hand_play)
    return replace(s, game=replace(g, players=Z.seated(g.players, p), stack=g.stack + (top,), next_item=top.id + 1,
                                   last_payment=g.last_payment if last_payment is None else last_payment,
                                   last_trigger=g.last_trigger if last_trigger is None else last_trigger,
                                   damage=g.damage if damage is None else damage))


def targets(s: State, given: tuple[str, ...], path: str) -> tuple[str, ...]:
    """Targets as chosen (BD-RES-4): a player, a card in play by an instance reference that means
    one card (§15), or a card out of play by its name."""
    scope = None  # the cards in play, listed once and only for a target that is not a player
    for i, text in enumerate(given):
        if text not in s.names:
            if scope is None:
                scope = R.in_play(s, zones=(*R.PLAY_ZONES, "STACK"))
            R.find(text, scope, s.names, f"{path}[{i}]")
    return given


def release(s: State, ev: E.ReleaseTerritory, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "release_territory")
    who = acting_player(s, ev, ev.player, "BD-ACT-13")
    p = Z.player(s, who)
    if p.territory is None or p.territory.face != "CHARACTER":
        raise Violation("BD-ACT-13", f"{who}'s territory {p.territory.name if p.territory else ''} is not closed: it cannot be released", "NOT_CLOSED")
    found = Z.find_unit(s, ev.releasing_unit, "$.releasing_unit", who)
    window = s.game.release_window
    if found is None or window != (who, found[1].iid):
        ace = s.catalog.get(found[1].name) if found else None
        ter = s.catalog.get(p.territory.name)
        if found is None:
            why = f"it is not a unit on {who}'s field"
        elif ace is not None and ter is not None and ter.title not in ace.titles:
            why = f"its title ({', '.join(ace.titles) or 'none'}) differs from {p.territory.name}'s ({ter.title})"
        elif window is None or window[0] != who:
            why = "no ace has just entered from a hand play with its cost paid (the release window is closed)"
        else:
            opened = Z.by_iid(s, window[1])
            why = f"the release window is {Z.unit_ref(s, opened[1], who) if opened else 'another unit'}'s"
        raise Violation("BD-ACT-13", f"{ev.releasing_unit} cannot release {who}'s territory: {why}", "NO_WINDOW")
    return release_territory(s, who, found[1], ev.payment)


def activate_ability(s: State, ev: E.ActivateAbility, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "activate_ability")
    who = acting_player(s, ev, ev.player, "BD-ACT-14")
    source = R.find(ev.source, R.in_play(s, (who,)), s.names, "$.source")
    c = Z.card(s, source.name if source else R.parse(ev.source, s.names)[1])
    ability = next((a for a in c.abilities if a.id == ev.ability_id), None) if c else None
    if ability is None or ability.kind != "ACTIVATED":
        raise Violation("BD-ACT-14", f"{ev.source!r} has no activated ability {ev.ability_id!r} in the catalog", "NO_ABILITY")
    if source is None:
        raise Violation("BD-ACT-14", f"{ev.source!r} is not one of {who}'s cards on the table", "NO_SOURCE")
    _timing(s, who, ability.timing, f"{ev.source}'s {ev.ability_id}")
    for op in ev.cost_ops:
        if isinstance(op, E.DiscardOp) and op.n and len(Z.player(s, op.player).hand) < op.n:
            raise Violation("BD-ACT-14", f"the cost 'discard {op.n}' cannot be paid: {op.player} holds {len(Z.player(s, op.player).hand)} card(s)",
                            "COST_UNPAID")
    try:
        s = apply_ops(s, ev.cost_ops, OpContext("BD-ACT-14", who, "$.cost_ops"))
    except Violation as v:
        raise Violation("BD-ACT-14", f"the cost of {ev.ability_id} cannot be paid: {v.message}", "COST_UNPAID") from None
    p = check_entries(s, Z.player(s, who), ev.payment, f"{ev.source}'s {ev.ability_id}")
    return onto_stack(s, p, ability_id=ev.ability_id, source=ev.source)


def trigger(s: State, ev: E.Trigger, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "trigger")
    acting_player(s, ev, ev.controller, "BD-ACT-15")
    late = trigger_out_of_order(s, ev.controller)
    if late is not None:
        raise Violation("BD-RES-6", f"{ev.controller}'s {ev.source} {ev.ability_id} comes too late: in a run of triggers "
                                    f"({s.options.trigger_order}, BD-RUL-20) {late}'s go in after {ev.controller}'s, "
                                    f"and {late}'s were already put in", "TRIGGER_ORDER")
    R.find(ev.source, R.in_play(s, (ev.controller,)), s.names, "$.source")  # unambiguous; a source out of play is not checked
    return onto_stack(s, Z.player(s, ev.controller), ability_id=ev.ability_id, source=ev.source, last_trigger=(ctx.seq, ev.controller))


def trigger_out_of_order(s: State, controller: str) -> str | None:
    """BD-RES-6 / BD-RUL-20: triggers entered one right after another are the simultaneous ones;
    the first group's (TP's under APNAP, NTP's under NAPAP) go in before the second group's. The
    player of the second group whose trigger was entered just before, if ``controller`` belongs
    to the first group; else None."""
    last = s.game.last_trigger
    tp = s.game.turn_player
    if last is None or last[0] != s.seq or tp is None:
        return None
    first = tp if s.options.trigger_order == "APNAP" else Z.opponent(s, tp)
    return last[1] if controller == first and last[1] != first else None


def resolve_top(s: State, ev: E.ResolveTop, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "resolve_top")
    g = s.game
    if not g.stack:
        raise Violation("BD-ACT-17", "the resolution zone is empty: nothing to resolve", "EMPTY_STACK")
    item = g.stack[-1]
    if ev.ops:
        s = apply_ops(Z.set_game(s, stack=g.stack[:-1]), ev.ops, OpContext("BD-ACT-17", item.controller, "$.ops"), s)  # the state checks included
        if Z.over(s):
            return s
        stack = s.game.stack  # as the ops left it
    else:  # no op: the table is as the event found it, its state checks made; the item leaves as it settles
        stack = g.stack[:-1]
    s = _settle(s, item, stack)
    d = s.game.damage
    if d is not None and d.waiting != "SHOT" and not s.game.stack:
        s = B.proceed(s)  # BD-RES-12 step 8: the zone is empty again; the damage goes on (its total recomputed)
    return s


def _settle(s: State, item: StackItem, stack: tuple[StackItem, ...]) -> State:
    """Where a resolved card goes: a unit enters the field standing (an ace may open the release
    window, BD-ACT-13); a command goes to its owner's graveyard; ``stack``, the resolution zone
    without the item, in the same copy of the game. The state checks have been made (by
    ``apply_ops``, or before the event): the unit that enters is the only one they could destroy
    now (BD-LIM-12)."""
    g = s.game
    if item.kind != "CARD" or item.card is None:
        return replace(s, game=replace(g, stack=stack))
    c = s.catalog[item.card]
    p = Z.player(s, item.controller)
    if c.type != "UNIT":
        p = replace(p, graveyard=p.graveyard + (item.card,))
        return replace(s, game=replace(g, players=Z.seated(g.players, p), stack=stack))
    ter = s.catalog.get(p.territory.name) if p.territory else None
    opens = c.is_ace and item.hand_play and ter is not None and p.territory.face == "CHARACTER" and ter.title in c.titles
    p, unit = Z.fielded(g, p, item.card, item.k)
    s = replace(s, game=replace(g, players=Z.seated(g.players, p), stack=stack, next_item=unit.iid + 1,
                                release_window=(item.controller, unit.iid) if opens else g.release_window))
    return Z.state_checks(s) if unit.damage >= Z.power(s, unit) else s


def end_discard(s: State, ev: E.EndDiscard, ctx: Context) -> State:
    if s.game.status == "SETUP":
        raise in_setup(s, "end_discard")
    tp = s.game.turn_player or ""
    if ev.by not in (JUDGE, tp):
        raise not_your_turn(ev, tp, "BD-ACT-25", "discard at the end phase")
    if s.game.end_step != "DISCARD":
        raise Violation("BD-ACT-25", f"no end-phase discard is owed now ({(s.game.phase or '').lower()} phase)", "NOT_NOW")
    p = Z.player(s, tp)
    owed = len(p.hand) - hand_limit(s, tp)
    if len(ev.cards) != owed:
        raise Violation("BD-LIM-2", f"{tp} holds {len(p.hand)} cards and must discard exactly {owed} down to "
                                    f"{hand_limit(s, tp)}, not {len(ev.cards)}", "WRONG_COUNT")
    for name in ev.cards:
        p = Z.take_from_hand(s, p, name, "BD-ACT-25", "discard")
        p = replace(p, graveyard=p.graveyard + (name,))
    return Z.set_game(Z.put(s, p), end_step="END_CLOSE")


def judge_ops(s: State, ev: E.JudgeOps, ctx: Context) -> State:
    if ev.by != JUDGE:
        raise Violation("BD-ACT-27", f"only a judge enters judge_ops; {ev.by} cannot", "JUDGE_ONLY")
    if s.game.status == "SETUP":
        raise in_setup(s, "judge_ops")
    s = apply_ops(s, ev.ops, OpContext("BD-ACT-27", s.game.turn_player or s.names[0], "$.ops"))
    d = s.game.damage
    if d is not None and d.waiting != "SHOT" and not s.game.stack and not Z.over(s):
        s = B.proceed(s)
    return s
