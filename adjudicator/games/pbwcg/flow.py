"""Setup and the turn structure (rules/pbwcg.md §3, §4): placement, battle start, the order check
with its tie-breaks, draws, PL turns, the field step, main turns and the turn end."""

from __future__ import annotations

import msgspec

from adjudicator.games.pbwcg import events as E
from adjudicator.games.pbwcg import values as V
from adjudicator.games.pbwcg.combat import Env, add_obligation, reject
from adjudicator.games.pbwcg.ops import draw_cards, discard_hand, run_ops, to_discard
from adjudicator.games.pbwcg.state import (
    Character, MainTurn, Player, State, TieGroup, note, pl_turn_from, set_player, with_char, with_player,
)
from adjudicator.engine.protocol import JUDGE, Context


#: the state with ``changes``: msgspec's own replace, called directly (a function that only
#: passed its keywords on cost a frame and a dictionary on nearly every event)
replace = msgspec.structs.replace


# (the handlers of every turn test the step and the author themselves and call these two only to
# reject: a call costs more than the test)
def need_step(s: State, event: str, step: str) -> None:
    """PBW-TURN-9: an event is accepted only in its own step."""
    if s.step != step:
        reject("PBW-TURN-9", f"{event} belongs to step {step}; the battle is in {s.step}", "WRONG_STEP")


def need_by(ev: E.Action, player: str) -> None:
    """PBW-TURN-8: each player enters their own actions; the judge may enter any."""
    if ev.by not in (player, JUDGE):
        reject("PBW-TURN-8", f"{ev.by} cannot enter this for {player}", "NOT_ACTOR")


def need_confirmations(s: State, given: tuple[str, ...], rule: str, what: str) -> None:
    """Every player still in the battle (PBW-RUL-47), and the judge when present."""
    needed = set(s.in_battle()) | ({JUDGE} if s.options.judge_present else set())
    missing = sorted(needed - set(given))
    if missing:
        reject(rule, f"{what} needs the confirmation of {', '.join(sorted(needed))}; missing {', '.join(missing)}", "CONFIRMATIONS")


# -- setup (PBW-SET-*) ------------------------------------------------------------------------------
def initial_pcs_placed(s: State, ev: E.InitialPcsPlaced, ctx: Context) -> State:
    need_step(s, "initial_pcs_placed", "SETUP")
    need_by(ev, ev.player)
    if ev.player not in s.names():
        reject("PBW-ACT-3", f"{ev.player!r} is not a player of this battle")
    p = s.player(ev.player)
    if p.placed_initial:
        reject("PBW-ACT-3", f"{ev.player} has already placed the initial PCs")
    if len(ev.pcs) != 2 or len(set(ev.pcs)) != 2 or any(c not in p.deck or s.cards[c].card_type != "PC" for c in ev.pcs):
        reject("PBW-ACT-3", f"{ev.player} places exactly two different PC cards of their own deck, not {list(ev.pcs)}")
    e = s.options.base_endurance
    pcs = tuple(Character(card=c, kind="PC", controller=ev.player, slot=slot, face_up=False, endurance=e, endurance_max=e,
                          wp=s.cards[c].wp or 0, wp_max=s.cards[c].wp or 0, entered_turn=0) for c, slot in zip(ev.pcs, (1, 3)))
    s = with_player(s, ev.player, deck=tuple(c for c in p.deck if c not in ev.pcs), placed_initial=True)
    return replace(s, characters=s.characters + pcs)


def battle_started(s: State, ev: E.BattleStarted, ctx: Context) -> State:
    need_step(s, "battle_started", "SETUP")
    waiting = [p.name for p in s.players if not p.placed_initial and p.name not in s.out]
    if waiting:
        reject("PBW-ACT-4", f"the initial PCs of {', '.join(waiting)} are not placed yet")
    need_confirmations(s, ev.confirmations, "PBW-ACT-4", "battle_started")
    s = replace(s, characters=tuple(msgspec.structs.replace(c, face_up=True) for c in s.characters),
                battle_started=True, step="READY")
    for p in s.in_battle():  # PBW-SET-6: HP = the printed HP of the two initial PCs
        s = with_player(s, p, hp=sum(s.cards[c.card].hp or 0 for c in s.field(p, "PC")))
    return s


# -- T1: the order check (PBW-TURN-2, PBW-TURN-11) --------------------------------------------------------
def _groups(s: State, turn: int) -> list[tuple[int, list[str]]]:
    """The characters in the order check of ``turn`` (those that entered before it), grouped by
    speed, fastest first, each group in field order."""
    by_speed: dict[int, list[str]] = {}
    speed = V.speed
    for c in s.characters:
        if c.entered_turn < turn:
            by_speed.setdefault(speed(s, c), []).append(c.card)
    groups = []
    for sp in sorted(by_speed, reverse=True):
        groups.append((sp, by_speed[sp]))
    return groups


def _kept_order(s: State, sp: int, members: list[str]) -> tuple[str, ...] | None:
    for g in s.tie_groups:
        if g.speed == sp and set(members) <= set(g.order):
            return tuple([m for m in g.order if m in members])
    return None


def _kept_orders(s: State, groups: list[tuple[int, list[str]]]) -> list[tuple[str, ...] | None]:
    """Each speed group's order: its one member, or the order a tie break kept (None: not broken yet)."""
    kept = []
    for sp, m in groups:
        kept.append(_kept_order(s, sp, m) if len(m) > 1 else tuple(m))
    return kept


def turn_started(s: State, ev: E.TurnStarted, ctx: Context) -> State:
    if s.step == "T7":  # (a hand of 5 cards or fewer has no 6 that count)
        due = []
        for p in s.players:
            if len(p.hand) > 5 and len(set(p.hand) - set(p.special_hand)) > 5 and p.name not in s.out:
                due.append(p.name)
        if due:
            reject("PBW-TURN-7", f"{', '.join(due)} must discard down to 5 (hand_discarded) before turn {ev.turn}")
    elif s.step != "READY":
        reject("PBW-TURN-9", f"turn_started follows battle_started or the turn end (T7); the battle is in {s.step}", "WRONG_STEP")
    if ev.turn != s.turn + 1:
        reject("PBW-ACT-5", f"the next turn is {s.turn + 1}, not {ev.turn}")
    players = []
    for p in s.players:
        players.append(replace(p, facedown_discard_used=False, drawn=False, placements_used=0, pl_activations_used=0))
    # the order check (T1) reads the characters, the tie groups and the PL order, none of which
    # this event changes: it is made on ``s`` and the new turn's state is one copy
    groups = _groups(s, ev.turn)
    kept = _kept_orders(s, groups)
    pending = []
    for (sp, m), k in zip(groups, kept):
        if k is None:
            pending.append(tuple(m))
    if pending:  # T1 waits for the tie breaks
        return replace(s, turn=ev.turn, step="T1", players=tuple(players), main=None, actor_index=-1, pl_index=0,
                       action_order=(), order_speeds=(), pending_ties=tuple(pending), last_seq=ctx.seq)
    order, speeds, pl_order = _order(s, groups, kept)
    return _after_draw(replace(s, turn=ev.turn, players=tuple(players), main=None, actor_index=-1, pl_index=0, pending_ties=(),
                               action_order=order, order_speeds=speeds, pl_order=pl_order, step="T2", last_seq=ctx.seq))


def finish_order(s: State) -> State:
    """The action order once every tie of this turn is broken; T2 begins."""
    groups = _groups(s, s.turn)
    order, speeds, pl_order = _order(s, groups, _kept_orders(s, groups))
    return _after_draw(replace(s, action_order=order, order_speeds=speeds, pl_order=pl_order, step="T2"))


def _order(s: State, groups: list[tuple[int, list[str]]],
           kept: list[tuple[str, ...] | None]) -> tuple[tuple[str, ...], tuple[int, ...], tuple[str, ...]]:
    """The action order and its speeds from the speed groups (``kept``: their orders,
    _kept_orders), and the PL order that follows from it."""
    order: list[str] = []
    speeds: list[int] = []
    for (sp, members), k in zip(groups, kept):
        order += k or members
        speeds += [sp] * len(members)
    return tuple(order), tuple(speeds), pl_order_of(s, order)


def pl_order_of(s: State, order: list[str]) -> tuple[str, ...]:
    """PBW-RUL-15, PBW-RUL-47: the PL turns go in reverse order of each player's first PC in the
    action order, so the controller of the first PC takes the last PL turn; a player with no PC
    in the order goes before them, as in the previous turn's PL order (seat order at first), so
    that with no PC in the order at all the previous PL order stays."""
    controller = {}  # (a card id is on a field once)
    for c in s.characters:
        if c.kind == "PC":
            controller[c.card] = c.controller
    first: dict[str, int] = {}  # each player's first place, in the order of the places
    for i, card in enumerate(order):
        p = controller.get(card)
        if p is not None and p not in first:
            first[p] = i
    out = s.out
    before = []
    for p in s.pl_order or s.names():
        if p not in first and p not in out:
            before.append(p)
    return tuple(before) + tuple(reversed(first))


def _tie_order(ev: E.TieBreak) -> tuple[str, ...]:
    members = list(ev.members)
    k = len(members)
    faces = 6 // k
    assignment = ev.assignment or {}
    if set(assignment) != set(members) or any(len(v) != faces for v in assignment.values()):
        reject("PBW-ACT-6", f"each of the {k} tied characters gets {faces} faces of the die")
    owner: dict[int, str] = {}
    for m, fs in assignment.items():
        for f in fs:
            if not 1 <= f <= 6 or f in owner:
                reject("PBW-ACT-6", f"face {f} is not a free face of the die")
            owner[f] = m
    placed: list[str] = []
    for i, roll in enumerate(ev.rolls or ()):
        if len(placed) >= k - 1:
            reject("PBW-ACT-6", f"roll {i + 1} ({roll}) comes after the order was already decided")
        m = owner.get(roll)
        if m is not None and m not in placed:
            placed.append(m)
    if len(placed) < k - 1:
        reject("PBW-ACT-6", f"the rolls {list(ev.rolls or ())} do not decide the order of {members}")
    return tuple(placed) + tuple(m for m in members if m not in placed)


def tie_break(s: State, ev: E.TieBreak, ctx: Context) -> State:
    need_step(s, "tie_break", "T1")
    group = next((g for g in s.pending_ties if set(g) == set(ev.members) and len(g) == len(ev.members)), None)
    if group is None:
        reject("PBW-ACT-6", f"{list(ev.members)} is not a tie group waiting to be ordered: {[list(g) for g in s.pending_ties]}")
    if sorted(ev.order) != sorted(ev.members):
        reject("PBW-ACT-6", f"order {list(ev.order)} must list exactly the members {list(ev.members)}")
    if ev.method == "other":
        if ev.rolls or ev.assignment:
            reject("PBW-ACT-6", "method other takes no assignment or rolls")
        if ev.by != JUDGE:  # PBW-TURN-11: the judge, or both players, use any fair method (§15)
            need_confirmations(s, ev.confirmations, "PBW-TURN-11", "a tie broken by method other without the judge")
    elif len(ev.members) > 6 or ev.rolls is None:
        reject("PBW-ACT-6", "give assignment and rolls, or method other (required for more than 6 tied)")
    else:
        follows = _tie_order(ev)
        if follows != tuple(ev.order):
            reject("PBW-ACT-6", f"rolls {list(ev.rolls)} give the order {list(follows)}, not {list(ev.order)}")
    sp = V.speed(s, s.char(group[0]))  # type: ignore[arg-type]
    groups = tuple(g for g in s.tie_groups if g.speed != sp) + (TieGroup(speed=sp, order=tuple(ev.order)),)
    s = replace(s, tie_groups=groups, pending_ties=tuple(g for g in s.pending_ties if g is not group))
    return s if s.pending_ties else finish_order(s)


# -- T2: draws (PBW-TURN-3) ---------------------------------------------------------------------------
def draw_needed(s: State, player: str) -> int:
    return _draws_due(s, s.player(player))


def _draws_due(s: State, p: Player) -> int:
    return 0 if p.drawn or p.name in s.out else min(5 if s.turn == 1 else 1, len(p.deck))


def _after_draw(s: State) -> State:
    """T2 ends once no player has a draw due: the first PL turn begins."""
    for p in s.players:
        if not p.drawn and _draws_due(s, p):
            return s
    return pl_turn_from(s, 0)


def cards_drawn(s: State, ev: E.CardsDrawn, ctx: Context) -> State:
    if s.step != "T2":
        need_step(s, "cards_drawn", "T2")
    if ev.by != ev.player:
        need_by(ev, ev.player)
    p = s.find(ev.player)
    if p is None:
        reject("PBW-ACT-7", f"{ev.player!r} is not a player of this battle")
    n = _draws_due(s, p)
    if n == 0 or len(ev.cards) != n:
        reject("PBW-ACT-7", f"{ev.player} draws {n} card(s) now, not {len(ev.cards)}")
    return _after_draw(draw_cards(s, p, ev.cards, "PBW-ACT-7", True))


# -- T3/T4, T5 ------------------------------------------------------------------------------------
def pl_turn_ended(s: State, ev: E.PlTurnEnded, ctx: Context) -> State:
    if s.step != "PL":
        need_step(s, "pl_turn_ended", "PL")
    current = s.pl_order[s.pl_index]
    if ev.player != current:
        reject("PBW-TURN-4", f"this is {current}'s PL turn, not {ev.player}'s")
    if ev.by != ev.player:
        need_by(ev, ev.player)
    return pl_turn_from(s, s.pl_index + 1)


def field_sources(s: State) -> list[str]:
    """PBW-ACT-14: what may carry out a per-turn effect at T5: the face-up persistent set cards of
    every field, then the field state."""
    out = [x.card for p in s.players for x in p.set_zone if x is not None and x.face_up]
    if s.field_state is not None and s.field_state.card not in out:
        out.append(s.field_state.card)
    return out


def field_effect(s: State, ev: E.FieldEffect, ctx: Context) -> State:
    need_step(s, "field_effect", "FIELD")
    if ev.source not in field_sources(s):
        reject("PBW-ACT-14", f"{ev.source!r} is neither the field state nor a face-up persistent set card")
    need_by(ev, s.owner[ev.source])  # the card's effect is its owner's to enter (PBW-TURN-8)
    return run_ops(s, ev.ops, Env(ctx.seq, ev.by, s.owner[ev.source]))


def field_step_ended(s: State, ev: E.FieldStepEnded, ctx: Context) -> State:
    """PBW-TURN-5, PBW-LIM-15: durations of field cards and persistent set cards -1; 0 ends them."""
    if s.step != "FIELD":
        need_step(s, "field_step_ended", "FIELD")
    for p in s.players:
        for i, x in enumerate(p.set_zone):
            if x is not None and x.face_up and x.remaining is not None:
                if x.remaining <= 1:
                    s = note(to_discard(s, x.card), f"{x.card} ends (duration over)")
                else:
                    zone = list(s.player(p.name).set_zone)
                    zone[i] = msgspec.structs.replace(x, remaining=x.remaining - 1)
                    s = with_player(s, p.name, set_zone=tuple(zone))
    fs = s.field_state
    if fs is not None and fs.remaining is not None:
        s = to_discard(s, fs.card) if fs.remaining <= 1 else replace(s, field_state=msgspec.structs.replace(fs, remaining=fs.remaining - 1))
    return replace(s, step="MAIN", main=None, actor_index=-1, last_seq=ctx.seq)  # (``step`` copies once less)


# -- T6: main turns (PBW-TURN-6) --------------------------------------------------------------------------
def next_actor(s: State) -> tuple[int, str] | None:
    nxt = _next_on_field(s)
    return None if nxt is None else (nxt[0], nxt[1].card)


def _next_on_field(s: State) -> tuple[int, Character] | None:
    """The place in the action order of the next character to act that is still on a field, and it."""
    order, chars = s.action_order, s.characters
    for i in range(s.actor_index + 1, len(order)):
        card = order[i]
        for c in chars:  # (``s.char``, without a call per place)
            if c.card == card:
                return i, c
    return None


def close_open(s: State, kind: str, seq: int) -> State:
    """PBW-COR-2: the open obligations of ``kind`` become missed, closed by ``seq``."""
    for o in s.obligations:
        if o.kind == kind and o.status == "open":
            break
    else:
        return s
    return replace(s, obligations=tuple(
        msgspec.structs.replace(o, status="missed", closed_seq=seq) if o.kind == kind and o.status == "open" else o
        for o in s.obligations))


def _between_main_turns(s: State, what: str) -> None:
    """In the main step with no main turn open (PBW-TURN-9), for ``what`` to start the next or end the turn."""
    if s.step != "MAIN":
        need_step(s, what, "MAIN")
    main = s.main
    if main is not None and main.step != "M5":
        reject("PBW-TURN-9", f"{main.actor}'s main turn has not ended (main_turn_ended)", "WRONG_STEP")


def main_turn_started(s: State, ev: E.MainTurnStarted, ctx: Context) -> State:
    _between_main_turns(s, "main_turn_started")
    nxt = _next_on_field(s)
    if nxt is None or nxt[1].card != ev.actor:
        expected = "no one: every character has acted (turn_ended)" if nxt is None else nxt[1].card
        reject("PBW-ACT-16", f"the next main turn is {expected}'s, not {ev.actor}'s")
    at, c = nxt
    if ev.by != c.controller:
        need_by(ev, c.controller)
    if s.obligations:
        s = close_open(s, "REC", ctx.seq)
    for b in c.bs:
        s = add_obligation(s, "TRIG", ev.actor, b.name, ctx.seq)
    return replace(s, actor_index=at, main=MainTurn(actor=ev.actor), last_seq=ctx.seq)  # (``step`` copies once less)


def main_turn_ended(s: State, ev: E.MainTurnEnded, ctx: Context) -> State:
    """PBW-ACT-23: timed statuses of the actor -1 (PBW-LIM-15, local A: PBW-LIM-14); M5 opens."""
    main = s.main
    if s.step != "MAIN" or main is None or main.step == "M5":
        reject("PBW-TURN-9", "main_turn_ended ends a main turn in progress", "WRONG_STEP")
    if ev.actor != main.actor:
        reject("PBW-ACT-23", f"this is {main.actor}'s main turn, not {ev.actor}'s")
    c = s.char(ev.actor)
    if c is None:  # the actor left the field during its own turn
        return replace(s, main=msgspec.structs.replace(main, step="M5"))
    if ev.by != c.controller:
        need_by(ev, c.controller)
    late = s.options.local_A_delayed_recovery
    if c.statuses and _timed(c.statuses):  # else the character stays as it is
        statuses = []
        for st in c.statuses:
            if st.remaining is not None and not (late and st.applied_turn == s.turn):
                if st.remaining <= 1:
                    s = note(s, f"{st.name} on {c.card} ends")
                    continue
                st = msgspec.structs.replace(st, remaining=st.remaining - 1)
            statuses.append(st)
        s = with_char(s, c.card, statuses=tuple(statuses))
    for b in c.bs:
        if not (late and b.applied_turn == s.turn):
            s = add_obligation(s, "REC", c.card, b.name, ctx.seq)
    return replace(s, main=msgspec.structs.replace(main, step="M5"), last_seq=ctx.seq)  # (``step`` copies once less)


def _timed(statuses: tuple) -> bool:
    for st in statuses:
        if st.remaining is not None:
            return True
    return False


def turn_ended(s: State, ev: E.TurnEnded, ctx: Context) -> State:
    _between_main_turns(s, "turn_ended")
    nxt = _next_on_field(s)
    if nxt is not None:
        reject("PBW-ACT-25", f"{nxt[1].card} has not had its main turn yet")
    if s.obligations:
        s = close_open(s, "REC", ctx.seq)
    for c in s.characters:  # "until end of turn" ends (PBW-LIM-15)
        if c.statuses:
            for st in c.statuses:
                if st.end_of_turn:
                    s = with_char(s, c.card, statuses=tuple(st for st in c.statuses if not st.end_of_turn))
                    break
    return replace(s, step="T7", main=None, last_seq=ctx.seq)  # (``step`` copies once less)


def hand_discarded(s: State, ev: E.HandDiscarded, ctx: Context) -> State:
    """PBW-ACT-26, PBW-LIM-16: exactly (count - 5) cards that are not special hand."""
    need_step(s, "hand_discarded", "T7")
    need_by(ev, ev.player)
    if ev.player not in s.names():
        reject("PBW-ACT-26", f"{ev.player!r} is not a player of this battle")
    p = s.player(ev.player)
    counted = [c for c in p.hand if c not in p.special_hand]
    due = len(counted) - 5
    if due <= 0 or len(ev.cards) != due or any(c in p.special_hand for c in ev.cards):
        reject("PBW-ACT-26", f"{ev.player} discards {max(due, 0)} non-special card(s) now, not {list(ev.cards)}")
    return discard_hand(s, ev.player, ev.cards, "PBW-ACT-26")


# -- several battles (PBW-RUL-5, §15) ------------------------------------------------------------------
def next_battle(s: State, ev: E.NextBattle, ctx: Context) -> State:
    """After a battle's result_confirmed, while no player has won more than best_of / 2 battles,
    the next one opens: a fresh setup (turn 0) from the decks match_started registered, with
    fresh HP, hands and BS histories. A drawn battle counts for nobody (§15)."""
    best = s.options.best_of
    if best == 1:
        reject("PBW-RUL-5", "best_of is 1: the match is one battle", "BEST_OF")
    if s.result is None or not s.confirmed:
        reject("PBW-RUL-5", f"battle {s.battle} has no confirmed result yet (result_confirmed comes first)", "BEST_OF")
    won = s.battles_won()
    winner = s.match_winner()
    if winner is not None:
        reject("PBW-RUL-5", f"{winner} has won {won[winner]} battles of best of {best}: the match is over", "BEST_OF")
    if ev.battle != s.battle + 1:
        reject("PBW-RUL-5", f"the next battle is battle {s.battle + 1}, not {ev.battle}", "BEST_OF")
    score = ", ".join(f"{p} {won[p]}" for p in s.names())
    return State(options=s.options, players=s.registered, cards=s.cards, owner=s.owner, registered=s.registered,
                 battle=ev.battle, battle_seq=ctx.seq, wins=won, last_seq=ctx.seq,
                 notes=(f"battle {ev.battle} of best of {best} begins (battles won: {score})",))
