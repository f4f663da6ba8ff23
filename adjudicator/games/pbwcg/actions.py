"""Actions of the PL turns and main turns, and the events of any time (rules/pbwcg.md §5, §7)."""

from __future__ import annotations

import msgspec

from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.combat import Attack, Env, check_result, reject, resolve_attack
from adjudicator.games.pbwcg.decks import is_holy_grail
from adjudicator.games.pbwcg.flow import need_by, need_confirmations, replace
from adjudicator.games.pbwcg.ops import eliminate, run_ops, summon_pc, to_discard
from adjudicator.games.pbwcg.state import (
    MAIN_STEPS, Character, MainTurn, Player, Result, SetSlot, State, with_char, with_player, without_card,
)
from adjudicator.engine.protocol import JUDGE, Context


# -- PL turns (PBW-TURN-4) ----------------------------------------------------------------------------
def own_pl_turn(s: State, ev: E.Action, player: str, what: str) -> None:
    if s.step != "PL":
        reject("PBW-TURN-9", f"{what} is made in a PL turn; the battle is in {s.step}", "WRONG_STEP")
    current = s.pl_order[s.pl_index]
    if player != current:
        reject("PBW-TURN-4", f"this is {current}'s PL turn: {player} cannot make {what} now")
    need_by(ev, player)


def placement(p: Player, what: str) -> int:
    """PBW-LIM-1: at most trunc(max_pc_count / 2) sets, summons and equips in one PL turn; the
    player's count of them with this one."""
    cap = V.trunc_div(p.max_pc_count, 2)
    if p.placements_used >= cap:
        reject("PBW-LIM-1", f"{p.name} has made {p.placements_used} of {cap} placements this PL turn; {what} is one too many", "PLACEMENT_CAP")
    return p.placements_used + 1


def in_hand(s: State, p: Player, card: str, kind: str, rule: str) -> None:
    if card not in p.hand:
        reject(rule, f"{card!r} is not in {p.name}'s hand")
    if s.cards[card].card_type != kind:
        reject(rule, f"{card} is a {s.cards[card].card_type} card, not {kind}")


# (a placement's player is changed once: their count, the card out of the hand and where it goes)
def card_set(s: State, ev: E.CardSet, ctx: Context) -> State:
    own_pl_turn(s, ev, ev.player, f"card_set of {ev.card}")
    p = s.player(ev.player)
    in_hand(s, p, ev.card, "SET", "PBW-ACT-8")
    zone = list(p.set_zone)
    if not 1 <= ev.set_slot <= 5 or zone[ev.set_slot - 1] is not None:
        reject("PBW-LIM-7", f"set slot {ev.set_slot} is not an empty slot 1-5 of {ev.player}'s set zone")
    used = placement(p, f"setting {ev.card}")
    zone[ev.set_slot - 1] = SetSlot(card=ev.card, face_up=False, set_turn=s.turn)
    return with_player(s, ev.player, placements_used=used, set_zone=tuple(zone), hand=without_card(p.hand, ev.card))


def pc_summoned(s: State, ev: E.PcSummoned, ctx: Context) -> State:
    own_pl_turn(s, ev, ev.player, f"pc_summoned of {ev.card}")
    p = s.player(ev.player)
    in_hand(s, p, ev.card, "PC", "PBW-ACT-9")
    s = with_player(s, ev.player, placements_used=placement(p, f"summoning {ev.card}"))
    return summon_pc(s, ev.player, ev.card, ev.slot, True)


def equipped(s: State, ev: E.Equipped, ctx: Context) -> State:
    own_pl_turn(s, ev, ev.player, f"equipped {ev.card}")
    p = s.player(ev.player)
    in_hand(s, p, ev.card, "EQUIPMENT", "PBW-ACT-10")
    pc = s.char(ev.pc)
    if pc is None or pc.kind != "PC" or pc.controller != ev.player:
        reject("PBW-ACT-10", f"{ev.pc!r} is not a PC on {ev.player}'s field")
    s = with_player(s, ev.player, placements_used=placement(p, f"equipping {ev.card}"), hand=without_card(p.hand, ev.card))
    return with_char(s, ev.pc, equipment=pc.equipment + (ev.card,))


def set_card_discarded(s: State, ev: E.SetCardDiscarded, ctx: Context) -> State:
    own_pl_turn(s, ev, ev.player, "set_card_discarded")
    p = s.player(ev.player)
    slot = p.set_zone[ev.set_slot - 1] if 1 <= ev.set_slot <= 5 else None
    if slot is None or slot.face_up:
        reject("PBW-ACT-11", f"set slot {ev.set_slot} of {ev.player} holds no face-down card")
    if p.facedown_discard_used:
        reject("PBW-LIM-5", f"{ev.player} has already discarded a face-down set card this turn", "DISCARD_CAP")
    return with_player(to_discard(s, slot.card), ev.player, facedown_discard_used=True)


def _activation_context(s: State, ev: E.SetCardActivated, card: str) -> tuple[State, Character | None]:
    """Where the activation is made: the own PL turn (PBW-LIM-3) or M2 of an own PC (PBW-LIM-2)."""
    magic = s.cards[card].category == "MAGIC"
    if s.step == "PL":
        own_pl_turn(s, ev, ev.player, "set_card_activated")
        if magic:
            reject("PBW-LIM-6", f"MAGIC card {card} is activated only in M2 of a PC's main turn, not in a PL turn")
        p = s.player(ev.player)
        if p.pl_activations_used >= 2:
            reject("PBW-LIM-3", f"{ev.player} has activated 2 set cards in this PL turn", "ACTIVATION_CAP")
        return with_player(s, ev.player, pl_activations_used=p.pl_activations_used + 1), None
    main = s.main
    if s.step != "MAIN" or main is None or MAIN_STEPS.index(main.step) > 1:
        reject("PBW-TURN-9", "set_card_activated is made in a PL turn or in M2 of a main turn", "WRONG_STEP")
    actor = s.char(main.actor)
    need_by(ev, ev.player)
    if actor is None or actor.controller != ev.player or actor.kind != "PC":
        reject("PBW-LIM-2", f"in {main.actor}'s main turn only the controller of an acting PC activates a set card; {ev.player} cannot")
    if main.set_activated:
        reject("PBW-LIM-2", f"{ev.player} has already activated a set card in {main.actor}'s main turn", "ACTIVATION_CAP")
    if magic and (main.actions_left <= 0 or main.step != "M1" and main.step != "M2"):
        reject("PBW-LIM-6", f"MAGIC card {card} needs {main.actor}'s unused action")
    new_main = msgspec.structs.replace(main, step="M2", set_activated=True, magic_used=magic,
                                      actions_left=0 if magic else main.actions_left)
    return replace(s, main=new_main), actor


def set_card_activated(s: State, ev: E.SetCardActivated, ctx: Context) -> State:
    acting = s.char(s.main.actor) if s.step == "MAIN" and s.main is not None else None
    if acting is not None and acting.controller != ev.player:  # PBW-RUL-23
        reject("PBW-LIM-2", f"in {acting.card}'s main turn only {acting.controller} may activate a set card, not {ev.player}")
    p = s.find(ev.player)
    slot = p.set_zone[ev.set_slot - 1] if p is not None and 1 <= ev.set_slot <= 5 else None
    if slot is None or slot.face_up:
        reject("PBW-ACT-12", f"set slot {ev.set_slot} of {ev.player} holds no face-down card")
    if slot.set_turn >= s.turn:
        reject("PBW-LIM-4", f"{slot.card} was set in turn {slot.set_turn}; it may be activated from turn {slot.set_turn + 1}")
    if s.options.local_F_exclude_holy_grail and is_holy_grail(s.cards[slot.card]):
        reject("PBW-DECK-7", f"local rule F: {s.cards[slot.card].name} may not be activated")
    s, actor = _activation_context(s, ev, slot.card)
    zone = list(s.player(ev.player).set_zone)
    zone[ev.set_slot - 1] = msgspec.structs.replace(slot, face_up=True)
    s = with_player(s, ev.player, set_zone=tuple(zone))
    env = Env(ctx.seq, ev.by, ev.player)
    s = run_ops(s, ev.ops, env)
    if ev.attack is not None:
        magic = s.cards[slot.card].category == "MAGIC"
        a = ev.attack
        atk = Attack(actor, a.value, None if a.attribute == "NONE" else a.attribute, "magic" if magic else "effect", False,
                     a.bs, a.break_ops, a.single_target)
        s = resolve_attack(s, atk, a.targets, a.checks, env, run_ops)
    still = s.player(ev.player).set_zone[ev.set_slot - 1]
    if still is None or still.card != slot.card:
        return s  # an op moved it (set_field...)
    if ev.persistent is not None:
        if s.cards[slot.card].category == "FIELD":  # PBW-LIM-18
            if s.field_state is not None:
                s = to_discard(s, s.field_state.card)
            s = replace(with_player(s, ev.player, set_zone=tuple(None if x is still else x for x in s.player(ev.player).set_zone)),
                        field_state=SetSlot(card=slot.card, face_up=True, set_turn=slot.set_turn, remaining=ev.persistent.duration))
            return s
        zone = list(s.player(ev.player).set_zone)
        zone[ev.set_slot - 1] = msgspec.structs.replace(still, remaining=ev.persistent.duration)
        return with_player(s, ev.player, set_zone=tuple(zone))
    return to_discard(s, slot.card)


# -- main turns (PBW-TURN-6) ------------------------------------------------------------------------------
#: the place of each step of a main turn (PBW-TURN-6)
_STEP_AT = {step: i for i, step in enumerate(MAIN_STEPS)}


def in_main(s: State, ev: E.Action, actor: str, what: str, last: str) -> tuple[MainTurn, Character]:
    """The actor's main turn, at a step no later than ``last`` (PBW-TURN-9): the main turn with
    its step moved on (for the caller's copy of the state), and the actor."""
    main = s.main
    if s.step != "MAIN" or main is None:
        reject("PBW-TURN-9", f"{what} is made in a main turn; the battle is in {s.step}", "WRONG_STEP")
    at, upto = _STEP_AT[main.step], _STEP_AT[last]
    if at > upto:
        reject("PBW-TURN-9", f"{what} belongs to {last}; {main.actor}'s main turn is past it ({main.step})", "WRONG_STEP")
    if actor != main.actor:
        reject("PBW-ACT-16", f"this is {main.actor}'s main turn, not {actor}'s")
    c = s.char(actor)
    if c is None:
        reject("PBW-ACT-16", f"{actor} is no longer on the field")
    need_by(ev, c.controller)
    return (main if at == upto else msgspec.structs.replace(main, step=last)), c


def bs_effect(s: State, ev: E.BsEffect, ctx: Context) -> State:
    main, c = in_main(s, ev, ev.actor, "bs_effect", "M1")
    held = [b.name for b in c.bs]
    if ev.bs not in held or ev.bs in main.effects_done:
        reject("PBW-ACT-17", f"{ev.actor} does not hold {ev.bs} with its effect still due (held: {held})")
    s = replace(s, main=msgspec.structs.replace(main, effects_done=main.effects_done + (ev.bs,)),
                obligations=tuple(msgspec.structs.replace(o, status="fulfilled", fulfilled_seq=ctx.seq)
                                  if o.kind == "TRIG" and o.character == ev.actor and o.bs == ev.bs and o.status == "open" else o
                                  for o in s.obligations))
    return run_ops(s, ev.ops, Env(ctx.seq, ev.by, c.controller))


def equipment_discarded(s: State, ev: E.EquipmentDiscarded, ctx: Context) -> State:
    main, c = in_main(s, ev, ev.pc, "equipment_discarded", "M2")
    if not ev.cards or any(x not in c.equipment for x in ev.cards) or len(set(ev.cards)) != len(ev.cards):
        reject("PBW-ACT-18", f"{list(ev.cards)} are not items equipped to {ev.pc} (equipment: {list(c.equipment)})")
    s = replace(s, main=main)
    for x in ev.cards:
        s = to_discard(s, x)
    return s


def use_action(main: MainTurn, actor: str, what: str) -> MainTurn:
    """The main turn with the actor's action spent (PBW-LIM-19; not after a MAGIC card, PBW-LIM-6)."""
    if main.magic_used:
        reject("PBW-LIM-6", f"a MAGIC card used {actor}'s action: {what} is not accepted")
    if main.actions_left <= 0:
        reject("PBW-LIM-19", f"{actor} has used its action this main turn: {what} is one too many", "ACTION_USED")
    return msgspec.structs.replace(main, actions_left=main.actions_left - 1)


def in_range(s: State, attacker: Character, targets: tuple[str, ...], given: int | None) -> None:
    """PBW-RUL-30 under validate_range (§15): the attack gives its printed range, and no target
    lies further away than it."""
    if not s.options.validate_range:
        return
    if given is None:
        reject("PBW-RUL-30", f"validate_range is on: {attacker.card}'s attack gives the range printed on it (range)", "RANGE_MISSING")
    for t in targets:
        d = V.distance(s, attacker, t)
        if d is not None and d > given:
            reject("PBW-RUL-30", f"{t} is at distance {d} from {attacker.card}; the attack's range {given} does not reach it", "OUT_OF_RANGE")


def normal_attack(s: State, ev: E.NormalAttack, ctx: Context) -> State:
    main, c = in_main(s, ev, ev.actor, "normal_attack", "M3")
    s = replace(s, main=use_action(main, ev.actor, "normal_attack"))
    in_range(s, c, (ev.target,), ev.range)
    value, attr = V.normal_attack_value(s, c)
    atk = Attack(c, value, attr, "normal", ev.evasion_tag, ev.bs, ev.break_ops, True)
    checks = {ev.target: ev.checks} if ev.checks is not None else {}
    return resolve_attack(s, atk, (ev.target,), checks, Env(ctx.seq, ev.by, c.controller), run_ops)


def ability_used(s: State, ev: E.AbilityUsed, ctx: Context) -> State:
    main, c = in_main(s, ev, ev.actor, "ability_used", "M3")
    s = replace(s, main=use_action(main, ev.actor, "ability_used"))
    ab = ev.ability
    if c.kind != "PC":
        reject("PBW-ACT-20", f"{ev.actor} is a summon support; abilities belong to PCs")
    known = [a.name for a in s.cards[c.card].abilities]
    if known and ab.name not in known:
        reject("PBW-ACT-20", f"{ev.actor} has no ability {ab.name!r} (registered: {known})")
    if c.wp < ab.wp_cost:
        reject("PBW-LIM-21", f"{ev.actor} has WP {c.wp}; {ab.name or 'the ability'} costs {ab.wp_cost}", "WP")
    if any(t in s.names() for t in ev.targets):
        reject("PBW-RES-9", "no ability may target a player; only a normal attack may")
    if ab.single_target and len(ev.targets) > 1:
        reject("PBW-ACT-20", f"a single-target ability names one target, not {list(ev.targets)}")
    s = with_char(s, c.card, wp=c.wp - ab.wp_cost)  # paid at declaration (PBW-RUL-31)
    env = Env(ctx.seq, ev.by, c.controller)
    if ev.targets:
        in_range(s, c, ev.targets, ev.range)
        value, attr = V.ability_value(s, c, ab.attribute, ab.modifier)
        atk = Attack(s.char(c.card), value, attr, "ability", ab.evasion_tag, ab.bs, ab.break_ops, ab.single_target)
        s = resolve_attack(s, atk, ev.targets, ev.checks, env, run_ops)
    return run_ops(s, ev.ops, env)


def move(s: State, ev: E.Move, ctx: Context) -> State:
    """PBW-ACT-21, PBW-RUL-20: a move into an occupied slot swaps; the other PC keeps its turn."""
    main, c = in_main(s, ev, ev.actor, "move", "M3")
    if c.kind != "PC":
        reject("PBW-ACT-21", f"{ev.actor} is a summon support: only PCs move")
    if ev.to_slot == c.slot or not 1 <= ev.to_slot <= s.player(c.controller).max_pc_count:
        reject("PBW-ACT-21", f"slot {ev.to_slot} is not another slot of {c.controller}'s field")
    s = replace(s, main=use_action(main, ev.actor, "move"))
    other = next((o for o in s.characters if o.slot == ev.to_slot and o.controller == c.controller and o.kind == "PC"), None)
    if other is not None:
        s = with_char(s, other.card, slot=c.slot)
    return with_char(s, c.card, slot=ev.to_slot)


def wait(s: State, ev: E.Wait, ctx: Context) -> State:
    main, _ = in_main(s, ev, ev.actor, "wait", "M3")
    return replace(s, main=use_action(main, ev.actor, "wait"))


def bs_recovery_check(s: State, ev: E.BsRecoveryCheck, ctx: Context) -> State:
    main = s.main
    if s.step != "MAIN" or main is None or main.step != "M5":
        reject("PBW-TURN-9", "bs_recovery_check is made at M5, after main_turn_ended", "WRONG_STEP")
    if ev.actor != main.actor:
        reject("PBW-ACT-24", f"this is {main.actor}'s M5, not {ev.actor}'s")
    c = s.char(ev.actor)
    ob = next((o for o in s.obligations if o.kind == "REC" and o.character == ev.actor and o.bs == ev.bs and o.status == "open"), None)
    if c is None or ob is None:
        held = next((b for b in c.bs if b.name == ev.bs), None) if c is not None else None
        if held is not None and s.options.local_A_delayed_recovery and held.applied_turn == s.turn:
            reject("PBW-LIM-14", f"local rule A: {ev.bs} was received in turn {s.turn}; its first recovery check is in turn {s.turn + 1}")
        reject("PBW-ACT-24", f"no recovery check of {ev.bs} on {ev.actor} is due")
    need_by(ev, c.controller)
    ok = check_result(s, ev.check, c, Env(ctx.seq, ev.by), f"recovery check of {ev.bs} on {ev.actor}")
    s = replace(s, obligations=tuple(msgspec.structs.replace(o, status="fulfilled", fulfilled_seq=ctx.seq) if o is ob else o
                                     for o in s.obligations))
    if ok:
        s = with_char(s, c.card, bs=tuple(b for b in c.bs if b.name != ev.bs))
    return s


# -- any time ------------------------------------------------------------------------------------------
def effect(s: State, ev: E.Effect, ctx: Context) -> State:
    """PBW-ACT-27: by the judge, or by a player with both players' confirmations."""
    if ev.by != JUDGE and not set(s.in_battle()) <= set(ev.confirmations):
        reject("PBW-ACT-27", f"an effect is entered by the judge or with every player's confirmation; {ev.by} has {list(ev.confirmations)}")
    if not s.battle_started:
        reject("PBW-TURN-9", "effects are carried out once the battle has started", "WRONG_STEP")
    return run_ops(s, ev.ops, Env(ctx.seq, ev.by))


def choice_made(s: State, ev: E.ChoiceMade, ctx: Context) -> State:
    pc = s.pending_choice
    if pc is None:
        reject("PBW-ACT-28", "no choice is pending")
    need_by(ev, pc.player)
    c = s.char(pc.subject)
    if ev.subject != pc.subject or c is None or ev.card not in V.items_of_part(s, c, pc.part):
        reject("PBW-ACT-28", f"the pending choice is one {pc.part} item of {pc.subject} to discard, not {ev.card!r} of {ev.subject!r}")
    return replace(to_discard(s, ev.card), pending_choice=None)


def surrender(s: State, ev: E.Surrender, ctx: Context) -> State:
    if ev.player not in s.names():
        reject("PBW-ACT-29", f"{ev.player!r} is not a player of this battle")
    need_by(ev, ev.player)
    return eliminate(s, [ev.player], ctx.seq, "surrender", lambda: None)  # the opponent wins (PBW-OVR-4), or the battle goes on (PBW-RUL-47)


def draw_agreed(s: State, ev: E.DrawAgreed, ctx: Context) -> State:
    need_confirmations(s, ev.confirmations, "PBW-ACT-30", "draw_agreed")
    return replace(s, result=Result(status="drawn", winner=None, reason="agreement", seq=ctx.seq), step="OVER")


def result_confirmed(s: State, ev: E.ResultConfirmed, ctx: Context) -> State:
    if s.result is None or s.confirmed:
        reject("PBW-ACT-31", "there is no unconfirmed result to confirm")
    need_confirmations(s, ev.confirmations, "PBW-ACT-31", "result_confirmed")
    return replace(s, confirmed=True)
