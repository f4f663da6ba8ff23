"""The BACDEF reducer: checks and effects of every event (rules/bacdef.md §3-§8, §10).

One handler per event type, registered in ``HANDLERS``. A handler receives a private copy of
the state (see ``state.clone``), checks the event in the chapter's order (stage and step, then
who entered it, then the event's own preconditions; §5.1) raising ``Violation``, and then
changes the copy. After the handler the engine (``run``) carries out every automatic step the
event made possible (BAC-GEN-3) until the table must decide something again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from adjudicator.games.bacdef import events as E
from adjudicator.games.bacdef.state import (
    LETTERS,
    SPECIALS,
    Await,
    Card,
    Frame,
    Instance,
    LastingEffect,
    Packet,
    PlayerState,
    SetResult,
    SetState,
    Shield,
    Slot,
    State,
    TurnState,
    capacity,
    live_slots,
    losing,
    other,
)
from adjudicator.protocol import JUDGE, Action, Context, Violation

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


def reject(rule: str, code: str, message: str) -> None:
    raise Violation(rule, message, code)


# -- small helpers -----------------------------------------------------------------------------
def catalog_entry(s: State, letter: str) -> dict[str, Any]:
    return s.catalog[letter]


def card(s: State, card_id: str) -> Card | None:
    return s.set.cards.get(card_id) if s.set else None


def letter_of(c: Card) -> str:
    return c.letter


def show_card(c: Card) -> str:
    return f"{c.id} ({c.letter})"


def note(s: State, text: str) -> None:
    t = s.set.turn if s.set else None
    if t is not None:
        t.notes.append(text)


def special_used(s: State, player: str, letter: str) -> bool:
    if s.options["special_once_scope"] == "global":
        return any(s.set.players[p].special_used.get(letter, False) for p in s.players)
    return s.set.players[player].special_used.get(letter, False)


def mark_special(s: State, player: str, letter: str) -> None:
    s.set.players[player].special_used[letter] = True


def in_turn(s: State) -> bool:
    return s.set is not None and s.set.stage == "turns" and s.set.turn is not None


def require_actor(ev: Action, player: str, rule: str) -> None:
    if ev.by not in (player, JUDGE):
        reject(rule, "E_NOT_ACTOR", f"{ev.by} cannot enter this for {player}; only {player} or the judge can")


def require_judge(ev: Action, rule: str, what: str) -> None:
    if ev.by != JUDGE:
        reject(rule, "E_NOT_ACTOR", f"only the judge enters {what}; {ev.by} tried")


def require_player(s: State, player: str, rule: str) -> None:
    if player not in s.players:
        reject(rule, "E_NOT_ACTOR", f"no player named {player!r} in this match ({' and '.join(s.players)})")


def hand_sorted(s: State, player: str) -> None:
    ps = s.set.players[player]
    ps.hand.sort(key=lambda cid: int(cid.rsplit("-", 1)[1]))


# -- the engine: frames, ops, damage, heal, F triggers, step machine ---------------------------
class Engine:
    """Carries out ops and automatic steps on a private copy of the state."""

    def __init__(self, s: State, seq: int):
        self.s = s
        self.seq = seq

    @property
    def t(self) -> TurnState:
        return self.s.set.turn  # type: ignore[return-value]

    # ---- F triggers (BAC-RES-11) ----
    def dropped(self, c: Card) -> None:
        """A card entered its owner's discard pile (a drop): trigger F if it is an unused F."""
        if c.letter != "F" or special_used(self.s, c.owner, "F"):
            return
        t = self.t
        if t is None:
            return
        if t.step in ("resolution", "damage"):
            t.fall_queue.append(c.id)
            if c.face == "up":  # a face-down F's trigger must not show in public (BAC-HID-4)
                note(self.s, f"auto: {c.owner}'s F queued for the Fall step")
        else:
            t.work.append(Frame(kind="f_decision", controller=c.owner, source=f"F:{c.id}", card_id=c.id))

    def to_discard(self, c: Card) -> None:
        ps = self.s.set.players[c.owner]
        if c.id in ps.hand:
            ps.hand.remove(c.id)
        c.zone = "discard"
        c.orientation = "upright"
        ps.discard.append(c.id)
        self.dropped(c)

    # ---- damage (BAC-RES-10) ----
    def damage(self, target: str, amount: int, kind: str, source: str) -> int:
        """Apply damage per BAC-RES-10; returns the points nullified by the cap."""
        s, t = self.s, self.t
        ps = s.set.players[target]
        # 1. shields
        for sh in t.shields:
            if amount <= 0:
                break
            if sh.player != target or (sh.kind == "knock" and kind != "knock"):
                continue
            if sh.remaining is None:
                note(s, f"auto: {amount} point(s) to {target} prevented")
                amount = 0
            else:
                used = min(sh.remaining, amount)
                sh.remaining -= used
                amount -= used
                if used:
                    note(s, f"auto: {used} point(s) to {target} prevented")
        t.shields = [sh for sh in t.shields if sh.remaining is None or sh.remaining > 0]
        # 2. cap (BAC-LIM-1)
        room = 3 - t.damage_received[target]
        eff = min(amount, room)
        if amount > eff:
            note(s, f"auto: {amount - eff} point(s) to {target} nullified by the 3-point cap")
        if eff <= 0:
            return amount - eff
        t.damage_received[target] += eff
        live = live_slots(ps)
        if len(live) <= 1 or eff >= capacity(ps):
            for _ in range(eff):
                live = live_slots(ps)
                self.hit(target, live[0] if live else None)
            note(s, f"auto: {eff} {kind} damage to {target} from {source} placed")
        else:
            t.awaiting = Await(kind="damage", player=target, points=eff, dmg_kind=kind, ref=source)
        return amount - eff

    def hit(self, target: str, slot: int | None) -> None:
        ps = self.s.set.players[target]
        if slot is None:
            ps.overflow += 1
            return
        g = ps.guards[slot - 1]
        c = self.s.set.cards[g.card_id]
        if g.state == "U":
            g.state = "S"
            c.orientation = "sideways"
        elif g.state == "S":
            g.state = "X"
            self.to_discard(c)

    # ---- heal (BAC-EFF-3) ----
    def heal_candidates(self, target: str) -> list[int]:
        ps = self.s.set.players[target]
        out = []
        for i, g in enumerate(ps.guards, 1):
            if g.state == "S":
                out.append(i)
            elif g.state == "X" and self.s.options["heal_can_restore_destroyed"]:
                c = self.s.set.cards[g.card_id]
                if c.zone == "discard" and c.id in ps.discard:
                    out.append(i)
        return out

    def heal(self, target: str, points: int, choices: list[int] | None = None, rule: str = "BAC-EFF-3") -> None:
        """Apply heal points one at a time; wait for ``assign_heal`` at the first real choice."""
        s = self.s
        ps = s.set.players[target]
        pending = list(choices) if choices is not None else None
        for k in range(points):
            if ps.overflow > 0:
                ps.overflow -= 1
                note(s, f"auto: heal removes 1 overflow from {target}")
                continue
            cands = self.heal_candidates(target)
            if not cands:
                note(s, f"auto: heal point on {target} has no effect (BAC-LIM-7)")
                continue
            if len(cands) == 1:
                self.restore(target, cands[0])
                continue
            if pending is None:
                self.t.awaiting = Await(kind="heal", player=target, points=points - k)
                return
            if not pending:
                reject("BAC-ACT-13", "E_ASSIGNMENT", f"{target} must choose a slot for each heal point with a choice; too few slots given")
            slot = pending.pop(0)
            if slot not in cands:
                reject("BAC-ACT-13", "E_ASSIGNMENT", f"slot {slot} of {target} cannot be healed now (candidates: {cands})")
            self.restore(target, slot)
        if pending:
            reject("BAC-ACT-13", "E_ASSIGNMENT", f"more slots given than heal points with a choice ({pending} left over)")

    def restore(self, target: str, slot: int) -> None:
        ps = self.s.set.players[target]
        g = ps.guards[slot - 1]
        c = self.s.set.cards[g.card_id]
        if g.state == "S":
            g.state = "U"
            c.orientation = "upright"
        elif g.state == "X":
            g.state = "S"
            ps.discard.remove(c.id)
            c.zone = "guard"
            c.face = "down"
            c.orientation = "sideways"
        note(self.s, f"auto: {target} slot {slot} healed to {g.state}")

    # ---- ops (§10.2) ----
    def run_op(self, op: dict[str, Any], frame: Frame, strict: bool) -> None:
        s, t = self.s, self.t
        kind = op["op"]
        ctrl = frame.controller
        in_resolution = t.step == "resolution" and frame.kind == "ops" and not frame.source.startswith(("F:", "end", "deferred"))
        if kind == "DAMAGE":
            dkind = "rebound" if op["target"] == ctrl else "skill"
            if in_resolution:
                self.packet(ctrl, frame.source, op["target"], op["amount"], dkind)
            else:
                self.damage(op["target"], op["amount"], dkind, frame.source)
        elif kind == "KNOCK":
            if ctrl != t.attacker:
                reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{ctrl} is not the attacker this turn, so no knock")
            if in_resolution:
                self.packet(ctrl, frame.source, t.defender, op.get("count", 1), "knock")
            else:
                self.damage(t.defender, op.get("count", 1), "knock", frame.source)
        elif kind == "HEAL":
            self.heal(op["target"], op["amount"])
        elif kind in ("NEGATE", "CONVERT"):
            inst = find_instance(t, op["instance"])
            if inst is None or inst.status != "pending":
                reject("BAC-RES-7", "E_TARGET_RESOLVED", f"{op['instance']} is no longer pending; nothing can touch it")
            if kind == "NEGATE":
                inst.status = "negated"
                note(s, f"auto: {inst.id} negated")
            else:
                inst.converted = True
                note(s, f"auto: {inst.id} converted; its new content is entered when it resolves")
        elif kind == "LOSE":
            victim = op["victim"]
            chooser = op.get("chooser", "victim")
            chooser = victim if chooser == "victim" else other(s, victim) if chooser == "opponent" else chooser
            hand = s.set.players[victim].hand
            if len(hand) <= op["count"]:
                for cid in list(hand):
                    c = s.set.cards[cid]
                    c.face = "down"
                    self.to_discard(c)
                note(s, f"auto: {victim} loses every hand card")
            else:
                t.awaiting = Await(kind="lost", player=chooser, victim=victim, points=op["count"])
        elif kind == "DROP":
            c = s.set.cards[op["card_id"]]
            if c.zone == "discard":
                if strict:
                    reject("BAC-EFF-7", "E_BAD_OP", f"DROP: {c.id} is already in the discard pile")
                note(s, f"DROP {c.id}: already discarded, no effect")
                return
            if c.zone == "guard":
                ps = s.set.players[c.owner]
                for g in ps.guards:
                    if g.card_id == c.id:
                        g.state = "X"
            if c.zone == "field":
                c.orientation = "upright"
            self.to_discard(c)
            note(s, f"auto: {c.id} dropped")
        elif kind == "RETURN":
            c = s.set.cards[op["card_id"]]
            if c.zone not in ("field", "discard"):
                if strict:
                    reject("BAC-EFF-8", "E_BAD_OP", f"RETURN: {c.id} is in the {c.zone}, not on the field or in the discard pile")
                note(s, f"RETURN {c.id}: not on the field or discarded, no effect")
                return
            ps = s.set.players[c.owner]
            if c.zone == "discard":
                ps.discard.remove(c.id)
            c.zone, c.face, c.orientation = "hand", "down", "upright"
            # Back in hand, the card is a plain hand card again: a later placement that is knocked
            # or left through returns to hand in the End phase (BAC-TURN-9; BAC-EX-10).
            c.skill_used = c.knocked = False
            ps.hand.append(c.id)
            hand_sorted(s, c.owner)
            note(s, f"auto: {c.id} returned to {c.owner}'s hand")
        elif kind == "REVEAL":
            s.set.cards[op["card_id"]].face = "up"
        elif kind == "TURN_GUARD":
            ps = s.set.players[op["player"]]
            g = ps.guards[op["slot"] - 1]
            if g.state == "X":
                if strict:
                    reject("BAC-EFF-10", "E_BAD_OP", f"TURN_GUARD: {op['player']}'s slot {op['slot']} is destroyed")
                return
            g.state = op["to"]
            s.set.cards[g.card_id].orientation = "upright" if op["to"] == "U" else "sideways"
        elif kind == "PREVENT":
            amt = op["amount"]
            t.shields.append(Shield(player=op["player"], remaining=None if amt == "all" else amt, kind=op.get("kind", "any")))
        elif kind == "DEFER":
            t.deferred.append(Frame(kind="ops", controller=ctrl, source=f"deferred:{frame.source}", ops=list(op["ops"])))
        elif kind == "LASTING":
            s.set.lasting_counter += 1
            until = op.get("until", "end_of_turn")
            s.set.lasting.append(
                LastingEffect(
                    id=f"L{s.set.lasting_counter}",
                    source=frame.source,
                    controller=ctrl,
                    text=op["text"],
                    expires_turn=t.no + (1 if until == "end_of_next_turn" else 0),
                )
            )
        elif kind == "NOTE":
            note(s, f"note: {op['text']}")

    def packet(self, ctrl: str, source: str, target: str, amount: int, kind: str) -> None:
        t = self.t
        side = "attacker" if ctrl == t.attacker else "defender"
        pid = f"Q{len(t.packets) + 1}"
        t.packets.append(Packet(id=pid, source_side=side, source_instance=source, target=target, amount=amount, kind=kind))
        note(self.s, f"auto: packet {pid} ({ctrl}->{target}, {amount}, {kind})")

    # ---- the loop ----
    def run(self) -> None:
        s = self.s
        guard = 0
        while in_turn(s):
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, not a rule
                raise RuntimeError("BACDEF engine did not settle")
            t = self.t
            if t.awaiting is not None:
                return
            if t.work:
                f = t.work[-1]
                if f.kind == "f_decision":
                    t.awaiting = Await(kind="f_decision", player=f.controller, ref=f.card_id)
                    return
                if not f.ops:
                    t.work.pop()
                    continue
                op = f.ops.pop(0)
                self.run_op(op, f, strict=(f.source, self.seq) == getattr(self, "_strict_frame", None))
                continue
            if not self.advance_step():
                return

    def advance_step(self) -> bool:
        """Move to the next step when nothing is pending; False when the table must act."""
        s, t = self.s, self.t
        step = t.step
        if step == "standby":
            needed = [p for p in s.players if not t.handless[p]]
            if all(t.placed.get(p) for p in needed):
                t.step = "action"
                return True
            return False
        if step in ("action", "counter"):
            return False
        if step == "resolution":
            if not t.queue_fixed:
                missing = orders_missing(t)
                if missing:
                    return False
                build_queue(t)
            while t.queue:
                inst = find_instance(t, t.queue[0])
                if inst.status == "negated":
                    t.queue.pop(0)
                    note(s, f"auto: {inst.id} negated, skipped")
                    continue
                if inst.converted:
                    t.awaiting = Await(kind="effect", player=JUDGE, ref=inst.id)
                    return False
                if inst.kind == "knock":
                    t.queue.pop(0)
                    inst.status = "resolved"
                    self.packet(inst.controller, inst.id, t.defender, 1, "knock")
                    continue
                if not resolves_with_effect(s, inst):
                    t.queue.pop(0)
                    inst.status = "resolved"
                    note(s, f"auto: {inst.id} resolves with no effect")
                    continue
                t.awaiting = Await(kind="effect", player=JUDGE, ref=inst.id)
                return False
            t.step = "damage"
            return True
        if step == "damage":
            order = [p for p in t.packets if p.source_side == "defender"] + [p for p in t.packets if p.source_side == "attacker"]
            for p in order:
                if not p.applied:
                    p.applied = True
                    p.nullified = self.damage(p.target, p.amount, p.kind, p.id)  # recorded (BAC-RES-10)
                    return True
            t.step = "fall"
            queued = sorted(t.fall_queue, key=lambda cid: 0 if s.set.cards[cid].owner == t.attacker else 1)
            t.fall_queue = []
            for cid in reversed(queued):
                t.work.append(Frame(kind="f_decision", controller=s.set.cards[cid].owner, source=f"F:{cid}", card_id=cid))
            return True
        if step == "fall":
            t.step = "remaining"
            for f in reversed(t.deferred):
                t.work.append(f)
            t.deferred = []
            return True
        if step == "remaining":
            t.step = "drop"
            self.drop_phase()
            return True
        if step == "drop":
            t.step = "end"
            self.end_phase_returns()
            return True
        return False  # end: the judge confirms

    def drop_phase(self) -> None:
        """BAC-TURN-8 / BAC-RES-17: skill-used (and, under the option, knocked) field cards drop."""
        s, t = self.s, self.t
        moved: list[Card] = []
        # Cards of one player enter the pile in declaration order (I1 first), as BAC-EX-14 lists them.
        declared = {}
        for n, inst in enumerate(t.instances):
            declared.setdefault(inst.card_id, n)
        for p in (t.defender, t.attacker):
            field = (c for c in s.set.cards.values() if c.owner == p and c.zone == "field")
            for c in sorted(field, key=lambda c: (declared.get(c.id, len(t.instances)), c.id)):
                if c.skill_used or (c.knocked and s.options["knock_card_fate"] == "drop"):
                    c.zone = "discard"
                    c.orientation = "upright"
                    s.set.players[p].discard.append(c.id)
                    moved.append(c)
                    what = c.id if c.face == "up" else f"{p}'s knocked card (face-down)"  # BAC-HID-2
                    note(s, f"auto: {what} dropped in the Drop phase")
        triggered = [c for c in moved if c.letter == "F" and not special_used(s, c.owner, "F")]
        first = t.defender if s.options["drop_phase_f_order"] == "defender_first" else t.attacker
        triggered.sort(key=lambda c: 0 if c.owner == first else 1)
        for c in reversed(triggered):
            t.work.append(Frame(kind="f_decision", controller=c.owner, source=f"F:{c.id}", card_id=c.id))

    def end_phase_returns(self) -> None:
        s = self.s
        for c in s.set.cards.values():
            if c.zone == "field":
                c.zone, c.orientation, c.knocked = "hand", "upright", False
                s.set.players[c.owner].hand.append(c.id)
                # a knocked or through card going back is never revealed (BAC-HID-2)
                what = c.id if c.face == "up" else f"{c.owner}'s field card"
                note(s, f"auto: {what} returns to {c.owner}'s hand")
        for p in s.players:
            hand_sorted(s, p)


def find_instance(t: TurnState, iid: str) -> Instance | None:
    for i in t.instances:
        if i.id == iid:
            return i
    return None


def resolves_with_effect(s: State, inst: Instance) -> bool:
    return bool(catalog_entry(s, inst.letter)["battle_effect"]) if inst.letter else False


def instances_of(t: TurnState, player: str) -> list[Instance]:
    return [i for i in t.instances if i.controller == player]


def orders_missing(t: TurnState) -> list[str]:
    return [p for p in (t.defender, t.attacker) if len(instances_of(t, p)) >= 2 and not t.order.get(p)]


def build_queue(t: TurnState) -> None:
    queue: list[str] = []
    for p in (t.defender, t.attacker):
        own = instances_of(t, p)
        queue.extend(t.order.get(p) or [i.id for i in own])
    t.queue = queue
    t.queue_fixed = True


# -- turn and set boundaries ---------------------------------------------------------------------
def start_turn(s: State, no: int, seq: int) -> None:
    st = s.set
    attacker = st.first_player if no % 2 == 1 else other(s, st.first_player)
    defender = other(s, attacker)
    handless = {p: not st.players[p].hand for p in s.players}
    t = TurnState(
        no=no,
        attacker=attacker,
        defender=defender,
        start_seq=seq,
        handless=handless,
        placed={p: None for p in s.players},
        declared={p: False for p in s.players},
        closed={p: False for p in s.players},
        extra_allowance={p: 0 for p in s.players},
        order={},
        damage_received={p: 0 for p in s.players},
    )
    st.turn = t
    if handless[attacker]:
        t.skipped = True
        t.step = "end"
        t.notes.append(f"auto: turn {no} skipped, {attacker} (attacker) has no hand card")


def new_set(s: State, seq: int) -> None:
    set_no = (s.set.set_no + 1) if s.set else 1
    st = SetState(set_no=set_no, stage="deck", players={p: PlayerState() for p in s.players})
    s.set = st
    reuse = s.decks_set1 if (set_no == 1 or not s.options["rebuild_deck_each_set"]) else None
    if reuse:
        for p, letters in reuse.items():
            create_cards(s, p, letters)
        st.stage = "guards"


def create_cards(s: State, player: str, letters: list[str]) -> None:
    st = s.set
    ps = st.players[player]
    ps.deck = list(letters)
    ps.special_used = {L: False for L in SPECIALS}
    ps.hand = []
    for n, letter in enumerate(letters, 1):
        cid = f"{player}-{n}"
        st.cards[cid] = Card(id=cid, owner=player, letter=letter)
        ps.hand.append(cid)


def end_set(s: State, outcome: str, winner: str | None, reason: str, seq: int) -> None:
    st = s.set
    s.set_results.append(SetResult(set_no=st.set_no, outcome=outcome, winner=winner, reason=reason))
    if outcome == "win":
        s.set_wins[winner] += 1
    else:
        s.void_sets += 1
    s.floor_seq = seq
    # BAC-OVR-7 / BAC-RUL-26
    a, b = s.players
    over = False
    if max(s.set_wins.values()) >= 2:
        over = True
    elif s.options["void_set_limit"] is not None and s.void_sets >= s.options["void_set_limit"]:
        over = True
    elif s.options["void_set_consumes_slot"] and len(s.set_results) >= 3:
        over = True
    if over:
        if s.set_wins[a] == s.set_wins[b]:
            s.status, s.match_winner = "drawn", None
        else:
            s.status = "won"
            s.match_winner = a if s.set_wins[a] > s.set_wins[b] else b
        st.turn = None
        st.stage = "over"
    else:
        new_set(s, seq)


# -- deck validation (BAC-DECK-6) ---------------------------------------------------------------
def deck_problems(letters: list[str] | tuple[str, ...], options: dict[str, Any], who: str = "the deck") -> list[Violation]:
    """Every problem of a deck under BAC-DECK-1/3/5 and BAC-RUL-2, in the chapter's order."""
    out = []
    if len(letters) != 7:
        out.append(Violation("BAC-DECK-3", f"{who} has {len(letters)} cards; a deck is exactly 7", "E_DECK_SIZE"))
    for x in dict.fromkeys(x for x in letters if x not in LETTERS):
        out.append(Violation("BAC-DECK-1", f"{who} has {x!r}; every card is one of A-F", "E_DECK_LETTER"))
    for sp in SPECIALS:
        if letters.count(sp) > 1:
            out.append(Violation("BAC-DECK-5", f"{who} has {letters.count(sp)} {sp} cards; D, E and F at most once each", "E_DECK_SPECIAL_DUP"))
    if options.get("require_each_special"):
        missing = [sp for sp in SPECIALS if sp not in letters]
        if missing:
            out.append(Violation("BAC-RUL-2", f"{who} lacks {', '.join(missing)}; this match requires each of D, E and F", "E_DECK_SPECIAL_MISSING"))
    return out


def check_deck_letters(letters: list[str] | tuple[str, ...], options: dict[str, Any], who: str = "the deck") -> None:
    """Raise the first problem of ``deck_problems``."""
    problems = deck_problems(letters, options, who)
    if problems:
        raise problems[0]


# -- op validation at entry (§10.2) ------------------------------------------------------------
OP_RULES = {
    "DAMAGE": "BAC-EFF-1",
    "KNOCK": "BAC-EFF-2",
    "HEAL": "BAC-EFF-3",
    "NEGATE": "BAC-EFF-4",
    "CONVERT": "BAC-EFF-5",
    "LOSE": "BAC-EFF-6",
    "DROP": "BAC-EFF-7",
    "RETURN": "BAC-EFF-8",
    "REVEAL": "BAC-EFF-9",
    "TURN_GUARD": "BAC-EFF-10",
    "PREVENT": "BAC-EFF-11",
    "DEFER": "BAC-EFF-12",
    "LASTING": "BAC-EFF-13",
    "NOTE": "BAC-EFF-14",
}


def validate_ops(s: State, ops: list[dict[str, Any]], context: str, controller: str) -> None:
    """Reject the whole list if any op is illegal here (``context``: resolution, fall, end, deferred)."""
    t = s.set.turn
    for op in ops:
        kind = op["op"]
        rule = OP_RULES[kind]

        def bad(msg: str) -> None:
            reject(rule, "E_BAD_OP", f"{kind}: {msg}")

        if kind in ("NEGATE", "CONVERT", "DEFER") and context != "resolution":
            bad("only allowed while a battle instance resolves" + (" (and never nested)" if kind == "DEFER" and context == "deferred" else ""))
        for key in ("target", "victim", "player"):
            if key in op and op[key] not in s.players:
                bad(f"{key} {op[key]!r} is not a player of this match")
        if kind in ("DAMAGE", "HEAL") and op["amount"] < 1:
            bad(f"amount must be at least 1, not {op['amount']}")
        if kind == "KNOCK":
            if op.get("count", 1) < 1:
                bad(f"count must be at least 1, not {op['count']}")
            if controller != t.attacker:
                reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{controller} is the defender this turn; only the attacker ({t.attacker}) can knock")
        if kind == "LOSE":
            if op["count"] < 1:
                bad(f"count must be at least 1, not {op['count']}")
            ch = op.get("chooser", "victim")
            if ch not in ("victim", "opponent") and ch not in s.players:
                bad(f"chooser must be 'victim', 'opponent' or a player, not {ch!r}")
        if kind in ("DROP", "RETURN", "REVEAL") and op["card_id"] not in s.set.cards:
            bad(f"no card {op['card_id']!r}")
        if kind == "TURN_GUARD" and op["slot"] not in (1, 2):
            bad(f"slot must be 1 or 2, not {op['slot']}")
        if kind == "PREVENT" and op["amount"] != "all" and op["amount"] < 1:
            bad(f"amount must be at least 1 or 'all', not {op['amount']}")
        if kind in ("NEGATE", "CONVERT"):
            inst = find_instance(t, op["instance"])
            if inst is None:
                bad(f"no instance {op['instance']!r} in this battle")
            if inst.status != "pending":
                reject("BAC-RES-7", "E_TARGET_RESOLVED", f"{kind} {inst.id}: it is already {inst.status}; nothing touches a resolved instance")
        if kind == "DEFER":
            validate_ops(s, list(op["ops"]), "deferred", controller)


def ops_as_dicts(ops: tuple[E.AnyOp, ...]) -> list[dict[str, Any]]:
    return [msgspec.to_builtins(o) for o in ops]


# -- handlers -------------------------------------------------------------------------------
Handler = Callable[[State, Any, Context, Engine], None]
HANDLERS: dict[type, Handler] = {}


def handles(cls: type) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        HANDLERS[cls] = fn
        return fn

    return deco


def setup_step(s: State, stage: str, what: str) -> None:
    if s.set is None or s.set.stage != stage:
        now = s.set.stage if s.set else "none"
        reject("BAC-SETUP-5", "E_WRONG_STEP", f"{what} belongs to the {stage.replace('_', '-')} step; the set is at the {now.replace('_', '-')} step")


@handles(E.RegisterDeck)
def on_register_deck(s: State, ev: E.RegisterDeck, ctx: Context, eng: Engine) -> None:
    setup_step(s, "deck", "register_deck")
    require_player(s, ev.player, "BAC-ACT-2")
    if s.set.players[ev.player].deck:  # a step check (BAC-SETUP-5), so before `by` (§5.1)
        reject("BAC-SETUP-5", "E_WRONG_STEP", f"{ev.player} already registered a deck for set {s.set.set_no}")
    require_actor(ev, ev.player, "BAC-ACT-2")
    check_deck_letters(list(ev.letters), s.options, f"{ev.player}'s deck")
    create_cards(s, ev.player, list(ev.letters))
    if s.set.set_no == 1:
        s.decks_set1 = dict(s.decks_set1 or {})
        s.decks_set1[ev.player] = list(ev.letters)
    if all(s.set.players[p].deck for p in s.players):
        s.set.stage = "guards"


@handles(E.PlaceGuards)
def on_place_guards(s: State, ev: E.PlaceGuards, ctx: Context, eng: Engine) -> None:
    setup_step(s, "guards", "place_guards")
    require_player(s, ev.player, "BAC-ACT-3")
    ps = s.set.players[ev.player]
    if ps.guards:  # a step check (BAC-SETUP-5), so before `by` (§5.1)
        reject("BAC-SETUP-5", "E_WRONG_STEP", f"{ev.player} already placed guards for set {s.set.set_no}")
    require_actor(ev, ev.player, "BAC-ACT-3")
    ids = list(ev.card_ids)
    if len(ids) != 2 or len(set(ids)) != 2 or any(cid not in ps.hand for cid in ids):
        reject("BAC-SETUP-2", "E_GUARD_COUNT", f"{ev.player} must choose 2 different cards of their own deck as guards, not {ids}")
    for n, cid in enumerate(ids, 1):
        c = s.set.cards[cid]
        c.zone, c.slot = "guard", n
        ps.hand.remove(cid)
        ps.guards.append(Slot(card_id=cid, state="U"))
    if all(s.set.players[p].guards for p in s.players):
        s.set.stage = "first_player"


@handles(E.DecideFirstPlayer)
def on_decide_first_player(s: State, ev: E.DecideFirstPlayer, ctx: Context, eng: Engine) -> None:
    setup_step(s, "first_player", "decide_first_player")
    require_judge(ev, "BAC-ACT-4", "the first-player result")
    require_player(s, ev.first_player, "BAC-ACT-4")
    if s.options["first_player_rule"] == "loser_chooses":
        decided = [r for r in s.set_results if r.outcome == "win"]
        if decided:
            loser = other(s, decided[-1].winner)
            if ev.chosen_by != loser:
                reject("BAC-ACT-4", "E_NOT_ACTOR", f"under loser_chooses the loser of the last set ({loser}) chooses, not {ev.chosen_by}")
    s.set.first_player = ev.first_player
    s.set.stage = "turns"
    start_turn(s, 1, ctx.seq)


def skipped_check(s: State, what: str) -> None:
    t = s.set.turn
    if t is not None and t.skipped:
        reject("BAC-TURN-3", "E_TURN_SKIPPED", f"turn {t.no} is skipped ({t.attacker} has no hand card); no {what}")


def turn_step(s: State, what: str) -> TurnState:
    if not in_turn(s):
        if s.set is not None and s.set.stage in ("deck", "guards", "first_player"):
            reject("BAC-SETUP-5", "E_WRONG_STEP", f"{what} is a turn event; the set is still in setup ({s.set.stage.replace('_', '-')} step)")
        reject("BAC-TURN-10", "E_WRONG_STEP", f"{what} is not allowed now")
    return s.set.turn


def wrong_step(t: TurnState, what: str, rule: str = "BAC-TURN-10") -> None:
    reject(rule, "E_WRONG_STEP", f"{what} is not allowed in the {STEP_LABELS[t.step]} step")


@handles(E.PlaceFieldCard)
def on_place_field_card(s: State, ev: E.PlaceFieldCard, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "place_field_card")
    skipped_check(s, "placement")
    if t.step != "standby":
        wrong_step(t, "placing a field card")
    require_player(s, ev.player, "BAC-ACT-5")
    require_actor(ev, ev.player, "BAC-ACT-5")
    if t.handless[ev.player]:
        reject("BAC-LIM-9", "E_HANDLESS", f"{ev.player} had no hand card at turn start and places nothing this turn")
    ps = s.set.players[ev.player]
    if ev.card_id not in ps.hand:
        where = s.set.cards[ev.card_id].zone if ev.card_id in s.set.cards else "nowhere in this set"
        reject("BAC-ACT-5", "E_CARD_ZONE", f"{ev.card_id!r} is not in {ev.player}'s hand (it is {where})")
    if t.placed.get(ev.player):
        reject("BAC-LIM-4", "E_ALREADY_PLACED", f"{ev.player} already placed a field card this turn; {ev.card_id!r} stays in hand")
    check_replay(s, ev, ctx, "place")
    c = s.set.cards[ev.card_id]
    ps.hand.remove(c.id)
    c.zone, c.face, c.orientation = "field", "down", "upright"
    t.placed[ev.player] = c.id


def declaration_window(s: State, t: TurnState, player: str, what: str, extra: bool) -> None:
    """The step checks of §5.1 for declare_skill / finish_deployment."""
    is_attacker = player == t.attacker
    own = "action" if is_attacker else "counter"
    if t.step == own and not t.closed.get(player):
        if not extra and t.declared.get(player) and what == "declare_skill":
            reject("BAC-LIM-5", "E_WRONG_STEP", f"{player} already declared this battle; one action, one reaction")
        return
    if is_attacker and (t.step == "counter" or (t.step == "action" and t.closed.get(player))):
        reject("BAC-RES-2", "E_WRONG_STEP", f"{player}'s deployment step has closed; the defender deploys now")
    # §5.1 names BAC-RES-7 and BAC-RES-12 for a declare_skill only; a late finish_deployment
    # falls to "otherwise BAC-TURN-10".
    if what == "declare_skill" and t.step in ("resolution", "damage"):
        reject("BAC-RES-7", "E_WRONG_STEP", f"no skill can be declared in the {STEP_LABELS[t.step]} step; both deployment steps have closed")
    if what == "declare_skill" and t.step in ("fall", "remaining", "drop", "end"):
        reject("BAC-RES-12", "E_WRONG_STEP", f"only F can act from the Fall step on; {what} by {player} is too late")
    if not extra and t.declared.get(player):
        reject("BAC-LIM-5", "E_WRONG_STEP", f"{player} already declared this battle; one action, one reaction")
    wrong_step(t, f"{what} by {player}")


@handles(E.DeclareKnock)
def on_declare_knock(s: State, ev: E.DeclareKnock, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "declare_knock")
    skipped_check(s, "knock")
    require_player(s, ev.player, "BAC-ACT-6")
    if ev.player != t.attacker:
        reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{ev.player} is the defender this turn; only the attacker ({t.attacker}) can knock")
    if t.step != "action" or t.closed.get(ev.player):
        if t.declared.get(ev.player):
            reject("BAC-LIM-5", "E_WRONG_STEP", f"{ev.player} already declared this battle; one action, one reaction")
        wrong_step(t, "a knock")
    if t.declared.get(ev.player):
        reject("BAC-LIM-5", "E_WRONG_STEP", f"{ev.player} already declared this battle; one action, one reaction")
    require_actor(ev, ev.player, "BAC-ACT-6")
    cid = t.placed.get(ev.player)
    if not cid or s.set.cards[cid].zone != "field":
        reject("BAC-ACT-6", "E_CARD_ZONE", f"{ev.player} has no field card to knock with")
    check_replay(s, ev, ctx, "declare")
    c = s.set.cards[cid]
    c.orientation, c.knocked = "sideways", True
    iid = f"I{len(t.instances) + 1}"
    t.instances.append(Instance(id=iid, controller=ev.player, side="attacker", kind="knock", card_id=cid, letter=None))
    t.declared[ev.player] = True
    note(s, f"auto: knock instance {iid}")
    close_step(s, t, ev.player)


@handles(E.DeclareSkill)
def on_declare_skill(s: State, ev: E.DeclareSkill, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "declare_skill")
    skipped_check(s, "skill")
    require_player(s, ev.player, "BAC-ACT-7")
    declaration_window(s, t, ev.player, "declare_skill", ev.extra_of is not None)
    require_actor(ev, ev.player, "BAC-ACT-7")
    if t.handless[ev.player]:
        reject("BAC-LIM-9", "E_HANDLESS", f"{ev.player} had no hand card at turn start and cannot act")
    ps = s.set.players[ev.player]
    c = s.set.cards.get(ev.card_id)
    if ev.extra_of is None:
        if c is None or c.owner != ev.player or c.zone != "field" or c.face != "down":
            reject("BAC-ACT-7", "E_CARD_ZONE", f"{ev.card_id!r} is not {ev.player}'s face-down field card")
    else:
        if c is None or ev.card_id not in ps.hand:
            reject("BAC-ACT-7", "E_CARD_ZONE", f"an extra deployment comes from the hand; {ev.card_id!r} is not in {ev.player}'s hand")
        base = find_instance(t, ev.extra_of)
        if base is None or base.controller != ev.player or t.extra_allowance.get(ev.player, 0) < 1:
            reject("BAC-LIM-6", "E_NO_EXTRA", f"{ev.player} has no extra deployment left from {ev.extra_of}")
    entry = catalog_entry(s, c.letter)
    side = "attacker" if ev.player == t.attacker else "defender"
    if not entry["action_allowed" if side == "attacker" else "counter_allowed"]:
        reject("BAC-EFF-0", "E_TIMING", f"the catalog does not allow {c.letter} in the {STEP_LABELS[t.step]} step")
    if entry["knock_skill"] and side != "attacker":
        reject("BAC-LIM-2", "E_KNOCK_NOT_ATTACKER", f"{c.letter} is a knock skill; only the attacker ({t.attacker}) can use it")
    if c.letter in SPECIALS and special_used(s, ev.player, c.letter):
        reject("BAC-LIM-3", "E_SPECIAL_USED", f"{c.letter} was already activated this set; {ev.card_id!r} cannot be declared")
    check_replay(s, ev, ctx, "declare")
    if ev.extra_of is not None:
        ps.hand.remove(c.id)
        t.extra_allowance[ev.player] -= 1
    c.zone, c.face, c.orientation, c.skill_used = "field", "up", "upright", True
    iid = f"I{len(t.instances) + 1}"
    t.instances.append(
        Instance(id=iid, controller=ev.player, side=side, kind="skill", card_id=c.id, letter=c.letter, extra_of=ev.extra_of)
    )
    if c.letter in SPECIALS and entry["battle_effect"]:
        mark_special(s, ev.player, c.letter)
    t.extra_allowance[ev.player] = t.extra_allowance.get(ev.player, 0) + int(entry["extra_deploys"])
    t.declared[ev.player] = True
    if side == "defender":
        t.reaction = "counter"
    note(s, f"auto: skill instance {iid} ({c.letter})")
    if t.extra_allowance[ev.player] == 0:
        close_step(s, t, ev.player)


def close_step(s: State, t: TurnState, player: str) -> None:
    t.closed[player] = True
    t.extra_allowance[player] = 0
    if player == t.attacker:
        t.step = "counter"
        d = t.defender
        cid = t.placed.get(d)
        if t.handless[d] or not cid or s.set.cards[cid].zone != "field":
            t.reaction = "through"
            t.closed[d] = True
            t.declared[d] = True
            note(s, f"auto: {d} has no field card; through")
            t.step = "resolution"
    else:
        t.step = "resolution"


@handles(E.FinishDeployment)
def on_finish_deployment(s: State, ev: E.FinishDeployment, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "finish_deployment")
    require_player(s, ev.player, "BAC-ACT-8")
    declaration_window(s, t, ev.player, "finish_deployment", True)
    require_actor(ev, ev.player, "BAC-ACT-8")
    if t.extra_allowance.get(ev.player, 0) < 1:
        reject("BAC-ACT-8", "E_WRONG_STEP", f"{ev.player} has no deployment to finish; declare first (no passing)")
    check_replay(s, ev, ctx, "declare")
    close_step(s, t, ev.player)


@handles(E.DeclareThrough)
def on_declare_through(s: State, ev: E.DeclareThrough, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "declare_through")
    skipped_check(s, "through")
    require_player(s, ev.player, "BAC-ACT-9")
    if ev.player == t.defender and t.declared.get(ev.player):
        reaction = "countered" if t.reaction == "counter" else "went through"
        reject("BAC-LIM-5", "E_WRONG_STEP", f"{ev.player} already {reaction} this battle; one reaction")
    if t.step != "counter" or ev.player != t.defender:
        wrong_step(t, f"through by {ev.player}")
    require_actor(ev, ev.player, "BAC-ACT-9")
    check_replay(s, ev, ctx, "declare")
    t.reaction = "through"
    t.declared[ev.player] = True
    close_step(s, t, ev.player)


@handles(E.ChooseResolutionOrder)
def on_choose_order(s: State, ev: E.ChooseResolutionOrder, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "choose_resolution_order")
    if t.step != "resolution":
        wrong_step(t, "choosing a resolution order")
    require_player(s, ev.player, "BAC-ACT-10")
    require_actor(ev, ev.player, "BAC-ACT-10")
    own = sorted(i.id for i in instances_of(t, ev.player))
    if t.queue_fixed or t.order.get(ev.player):
        reject("BAC-ACT-10", "E_ORDER", "the resolution order is already fixed")
    if len(own) < 2:
        reject("BAC-ACT-10", "E_ORDER", f"{ev.player} has {len(own)} instance(s); no order to choose")
    if sorted(ev.instance_ids) != own:
        reject("BAC-ACT-10", "E_ORDER", f"{list(ev.instance_ids)} is not an order of {ev.player}'s instances {own}")
    check_replay(s, ev, ctx, "order")
    t.order[ev.player] = list(ev.instance_ids)


@handles(E.ResolveEffect)
def on_resolve_effect(s: State, ev: E.ResolveEffect, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "resolve_effect")
    if t.step != "resolution":
        wrong_step(t, "resolve_effect")
    require_judge(ev, "BAC-ACT-11", "resolve_effect")
    if orders_missing(t) and not t.queue_fixed:
        reject("BAC-ACT-10", "E_ORDER", f"the resolution order of {', '.join(orders_missing(t))} is still missing")
    if t.awaiting is not None and t.awaiting.kind != "effect":
        reject("BAC-TURN-10", "E_WRONG_STEP", f"waiting for {t.awaiting.player}'s {t.awaiting.kind} choice first")
    inst = find_instance(t, ev.instance_id)
    if inst is not None and inst.status == "negated":
        reject("BAC-RES-16", "E_INSTANCE_NEGATED", f"{inst.id} was negated and produces nothing")
    if inst is None or not t.queue or t.queue[0] != inst.id:
        head = t.queue[0] if t.queue else "none"
        reject("BAC-RES-4", "E_NOT_HEAD", f"{ev.instance_id} is not next to resolve; the head of the queue is {head}")
    if not inst.converted and (inst.kind == "knock" or not resolves_with_effect(s, inst)):
        reject("BAC-RES-5", "E_AUTO_INSTANCE", f"{inst.id} resolves automatically")
    ops = ops_as_dicts(ev.ops)
    inst.status = "resolved"
    t.queue.pop(0)
    t.awaiting = None
    validate_ops(s, ops, "resolution", inst.controller)
    t.work.append(Frame(kind="ops", controller=inst.controller, source=inst.id, ops=ops))
    eng._strict_frame = (inst.id, ctx.seq)


def awaiting_check(s: State, ev: Any, kind: str, rule: str, what: str) -> TurnState:
    t = turn_step(s, what)
    a = t.awaiting
    if a is None or a.kind != kind:
        wrong_step(t, what)
    require_player(s, ev.player, rule)
    if ev.player != a.player:
        reject(rule, "E_NOT_ACTOR", f"the reducer waits for {a.player}'s choice, not {ev.player}'s")
    require_actor(ev, ev.player, rule)
    return t


@handles(E.AssignDamage)
def on_assign_damage(s: State, ev: E.AssignDamage, ctx: Context, eng: Engine) -> None:
    t = awaiting_check(s, ev, "damage", "BAC-ACT-12", "assign_damage")
    a = t.awaiting
    if len(ev.slots) != a.points:
        reject("BAC-ACT-12", "E_ASSIGNMENT", f"{ev.player} takes {a.points} point(s); give one slot per point, not {len(ev.slots)}")
    ps = s.set.players[ev.player]
    check_replay(s, ev, ctx, "damage")
    t.awaiting = None
    for n, slot in enumerate(ev.slots, 1):
        if slot not in (1, 2) or ps.guards[slot - 1].state == "X":
            reject("BAC-ACT-12", "E_ASSIGNMENT", f"point {n} cannot go to slot {slot}: it is no longer a live guard")
        eng.hit(ev.player, slot)
    note(s, f"auto: {ev.player} took {a.points} {a.dmg_kind} damage on slots {list(ev.slots)}")


@handles(E.AssignHeal)
def on_assign_heal(s: State, ev: E.AssignHeal, ctx: Context, eng: Engine) -> None:
    t = awaiting_check(s, ev, "heal", "BAC-ACT-13", "assign_heal")
    points = t.awaiting.points
    check_replay(s, ev, ctx, "heal")
    t.awaiting = None
    eng.heal(ev.player, points, list(ev.slots))


@handles(E.ChooseLostCards)
def on_choose_lost(s: State, ev: E.ChooseLostCards, ctx: Context, eng: Engine) -> None:
    t = awaiting_check(s, ev, "lost", "BAC-ACT-14", "choose_lost_cards")
    a = t.awaiting
    hand = s.set.players[a.victim].hand
    ids = list(ev.card_ids)
    if len(ids) != a.points or len(set(ids)) != len(ids) or any(c not in hand for c in ids):
        reject("BAC-ACT-14", "E_ASSIGNMENT", f"choose exactly {a.points} different card(s) from {a.victim}'s hand, not {ids}")
    check_replay(s, ev, ctx, "lost")
    t.awaiting = None
    for cid in ids:
        c = s.set.cards[cid]
        c.face = "down"
        eng.to_discard(c)
    note(s, f"auto: {a.victim} lost {len(ids)} card(s)")


def pending_f_frame(t: TurnState, card_id: str) -> int | None:
    for i, f in enumerate(t.work):
        if f.kind == "f_decision" and f.card_id == card_id:
            return i
    return None


def f_decision_check(s: State, ev: Any, rule: str, what: str) -> TurnState:
    t = turn_step(s, what)
    if t.step not in ("fall", "remaining", "drop", "end"):
        # §5.1: the step comes first; F decisions are taken from the Fall step on (BAC-TURN-10).
        wrong_step(t, what)
    require_player(s, ev.player, rule)
    require_actor(ev, ev.player, rule)
    c = s.set.cards.get(ev.card_id)
    if c is None or c.owner != ev.player:
        reject(rule, "E_NOT_ACTOR", f"{ev.card_id!r} is not {ev.player}'s card")
    head = t.awaiting is not None and t.awaiting.kind == "f_decision" and t.awaiting.ref == ev.card_id
    if not head:
        if pending_f_frame(t, ev.card_id) is not None or ev.card_id in t.fall_queue:
            step_rule = {"fall": "BAC-RES-12", "drop": "BAC-RES-17"}.get(t.step, rule)
            reject(step_rule, "E_NOT_PENDING_F", f"{ev.card_id}'s decision is not first; another F decision comes before it")
        reject(rule, "E_NOT_PENDING_F", f"no F decision is pending for {ev.card_id!r} now")
    return t


@handles(E.ActivateFallSkill)
def on_activate_fall(s: State, ev: E.ActivateFallSkill, ctx: Context, eng: Engine) -> None:
    t = f_decision_check(s, ev, "BAC-ACT-15", "activate_fall_skill")
    if special_used(s, ev.player, "F"):
        # Under special_once_scope = global, two Fs can be pending when the first is activated;
        # the limit is checked at every activation (BAC-LIM-3, BAC-LIM-11): the other can only decline.
        reject("BAC-LIM-3", "E_SPECIAL_USED", f"F was already activated this set; {ev.card_id!r} can only be declined")
    ops = ops_as_dicts(ev.ops)
    validate_ops(s, ops, "fall", ev.player)
    check_replay(s, ev, ctx, "fall")
    t.work.pop()
    t.awaiting = None
    c = s.set.cards[ev.card_id]
    c.face = "up"
    mark_special(s, ev.player, "F")
    note(s, f"auto: {ev.player}'s F ({c.id}) activated")
    t.work.append(Frame(kind="ops", controller=ev.player, source=f"F:{c.id}", ops=ops))
    eng._strict_frame = (f"F:{c.id}", ctx.seq)


@handles(E.DeclineFallSkill)
def on_decline_fall(s: State, ev: E.DeclineFallSkill, ctx: Context, eng: Engine) -> None:
    t = f_decision_check(s, ev, "BAC-ACT-16", "decline_fall_skill")
    check_replay(s, ev, ctx, "fall")
    t.work.pop()
    t.awaiting = None


def nothing_pending(t: TurnState, what: str, rule: str) -> None:
    if t.awaiting is not None or t.work:
        a = t.awaiting
        who = f"{a.player}'s {a.kind}" if a else "pending effects"
        reject(rule, "E_WRONG_STEP", f"{what} must wait: {who} first")


@handles(E.ApplyEndPhaseEffect)
def on_end_effect(s: State, ev: E.ApplyEndPhaseEffect, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "apply_end_phase_effect")
    if t.step != "end":
        wrong_step(t, "apply_end_phase_effect")
    require_judge(ev, "BAC-ACT-17", "end-phase effects")
    nothing_pending(t, "apply_end_phase_effect", "BAC-ACT-17")
    inst = find_instance(t, ev.source)
    lasting = next((l for l in s.set.lasting if l.id == ev.source), None)
    if inst is None and lasting is None:
        reject("BAC-ACT-17", "E_BAD_OP", f"source {ev.source!r} is neither an instance of this turn nor a lasting effect")
    controller = inst.controller if inst else lasting.controller
    ops = ops_as_dicts(ev.ops)
    validate_ops(s, ops, "end", controller)
    t.work.append(Frame(kind="ops", controller=controller, source=f"end:{ev.source}", ops=ops))
    eng._strict_frame = (f"end:{ev.source}", ctx.seq)


@handles(E.ConfirmEndPhase)
def on_confirm_end(s: State, ev: E.ConfirmEndPhase, ctx: Context, eng: Engine) -> None:
    t = turn_step(s, "confirm_end_phase")
    if t.step != "end":
        wrong_step(t, "confirm_end_phase")
    require_judge(ev, "BAC-ACT-18", "confirm_end_phase")
    nothing_pending(t, "confirm_end_phase", "BAC-ACT-18")
    a, d = t.attacker, t.defender
    lose = {p: losing(s.set.players[p]) for p in s.players}
    s.floor_seq = ctx.seq
    if lose[a] and lose[d]:
        end_set(s, "win", d, f"both players took the 5th point in turn {t.no}; the defender wins (BAC-RUL-12)", ctx.seq)
        return
    if lose[a] or lose[d]:
        loser = a if lose[a] else d
        end_set(s, "win", other(s, loser), f"{loser} had no guard left and took damage (turn {t.no})", ctx.seq)
        return
    if not s.set.players[a].hand and not s.set.players[d].hand:
        if s.options["both_hands_empty_rule"] == "void_set":
            end_set(s, "void", None, f"both hands empty at the end of turn {t.no} (BAC-RUL-14)", ctx.seq)
        else:
            end_set(s, "win", d, f"both hands empty at the end of turn {t.no}; the defender wins (BAC-RUL-14)", ctx.seq)
        return
    s.set.lasting = [l for l in s.set.lasting if l.expires_turn > t.no]
    start_turn(s, t.no + 1, ctx.seq)


@handles(E.DeclareSetVoid)
def on_declare_void(s: State, ev: E.DeclareSetVoid, ctx: Context, eng: Engine) -> None:
    if not in_turn(s):
        reject("BAC-REW-8", "E_WRONG_STEP", "a set can be declared void only during a turn")
    require_judge(ev, "BAC-ACT-20", "declare_set_void")
    if not s.options["judge_may_void_early"]:
        reject("BAC-REW-8", "E_CONFIG", "this match does not allow an early void (judge_may_void_early is off)")
    if s.set.turn.replays_used < 1:
        reject("BAC-REW-8", "E_NO_CONTRADICTION", "no contradiction has been declared in this turn; the set cannot be voided early")
    end_set(s, "void", None, f"declared void by the judge: {ev.reason}", ctx.seq)


@handles(E.ConcedeSet)
def on_concede(s: State, ev: E.ConcedeSet, ctx: Context, eng: Engine) -> None:
    require_player(s, ev.player, "BAC-ACT-22")
    require_actor(ev, ev.player, "BAC-ACT-22")
    if not s.options["allow_concession"]:
        reject("BAC-ACT-22", "E_CONFIG", f"concession is off in this match (allow_concession); {ev.player} cannot concede")
    end_set(s, "win", other(s, ev.player), f"{ev.player} conceded set {s.set.set_no}", ctx.seq)


# -- rewinds (§8) ------------------------------------------------------------------------------
def contradiction_count(ctx: Context, start_seq: int) -> int:
    return sum(
        1
        for _, e in ctx.log
        if isinstance(e, E.BacRewind) and e.cause == "contradiction" and e.to_seq == start_seq
    )


def check_rewind(s: State, ev: E.BacRewind, ctx: Context) -> None:
    if ev.cause == "contradiction":
        if not in_turn(s):
            reject("BAC-REW-3", "E_WRONG_STEP", "a contradiction can be declared only during a turn")
        require_judge(ev, "BAC-ACT-19", "a contradiction rewind")
        t = s.set.turn
        if ev.to_seq != t.start_seq:
            reject("BAC-REW-3", "E_REWIND_TARGET", f"a contradiction rewinds to the start of turn {t.no} (seq {t.start_seq}), not to seq {ev.to_seq}")
        return
    require_judge(ev, "BAC-ACT-21", "a judge-error rewind")
    if not s.options["allow_judge_rewind"]:
        reject("BAC-REW-10", "E_CONFIG", "judge-error rewinds are off in this match (allow_judge_rewind)")
    if ev.to_seq < s.floor_seq:
        reject("BAC-REW-11", "E_REWIND_TARGET", f"seq {ev.to_seq} is before seq {s.floor_seq}, the last completed turn or set result; it stands")
    if ev.to_seq >= ctx.seq or ev.to_seq not in set(ctx.effective):
        reject("BAC-REW-11", "E_REWIND_TARGET", f"seq {ev.to_seq} is not an earlier event of the effective history")


def apply_rewind(current: State, target: State, ev: E.BacRewind, ctx: Context) -> State:
    s = _clone(target)
    if ev.cause == "contradiction":
        t_start = current.set.turn.start_seq
        k = contradiction_count(ctx, t_start)
        if k < current.options["contradiction_replays"]:
            s.set.turn.replays_used = k + 1
            s.set.turn.notes = [f"auto: turn {s.set.turn.no} rewound for a contradiction; replay {k + 1} of {current.options['contradiction_replays']}"]
        else:
            end_set(
                s,
                "void",
                None,
                f"contradiction declared {k + 1} times in turn {current.set.turn.no}: the set is void (BAC-REW-7)",
                ctx.seq,
            )
        return s
    if s.set is not None and s.set.turn is not None:
        s.set.turn.replays_used = contradiction_count(ctx, s.set.turn.start_seq)
        s.set.turn.notes = [f"auto: judge-error rewind to seq {ev.to_seq}"]
    return s


# -- replay_must_repeat (BAC-REW-6) ------------------------------------------------------------
DECISION_TYPES = {
    "place": (E.PlaceFieldCard,),
    "declare": (E.DeclareKnock, E.DeclareSkill, E.DeclareThrough, E.FinishDeployment),
    "order": (E.ChooseResolutionOrder,),
    "damage": (E.AssignDamage,),
    "heal": (E.AssignHeal,),
    "lost": (E.ChooseLostCards,),
    "fall": (E.ActivateFallSkill, E.DeclineFallSkill),
}


def check_replay(s: State, ev: Any, ctx: Context, category: str) -> None:
    """Under ``replay_must_repeat``, the k-th decision of a kind by a player in a replay must
    equal the k-th such decision of attempt 1 of the same turn."""
    if not s.options["replay_must_repeat"] or not in_turn(s) or s.set.turn.replays_used < 1 or not ctx.log:
        return
    t = s.set.turn
    kinds = DECISION_TYPES[category]
    rewinds = [
        seq for seq, e in ctx.log if isinstance(e, E.BacRewind) and e.cause == "contradiction" and e.to_seq == t.start_seq
    ]
    if not rewinds:
        return
    first_attempt = [e for seq, e in ctx.log if t.start_seq < seq < rewinds[0]]
    eff = set(ctx.effective)
    current = [e for seq, e in ctx.log if seq > rewinds[-1] and seq in eff]

    def mine(seq_events: list) -> list:
        return [e for e in seq_events if isinstance(e, kinds) and getattr(e, "player", None) == ev.player]

    k = len(mine(current))
    before = mine(first_attempt)
    if k < len(before):
        was = before[k]
        if type(was) is not type(ev) or msgspec.to_builtins(was) | {"by": ""} != msgspec.to_builtins(ev) | {"by": ""}:
            reject("BAC-REW-6", "E_REPLAY_MISMATCH", f"the replay must repeat attempt 1: {ev.player} then entered {describe_event(was)}")


def describe_event(e: Any) -> str:
    d = msgspec.to_builtins(e)
    t = d.pop("type")
    d.pop("by", None)
    return t + " " + " ".join(f"{k}={v}" for k, v in d.items())


def _clone(s: State) -> State:
    from adjudicator.games.bacdef.state import clone

    return clone(s)


# -- entry points used by the game object --------------------------------------------------
def step(state: State, ev: Action, ctx: Context) -> State:
    if isinstance(ev, E.BacCorrect):
        reject("BAC-REW-14", "E_NO_CORRECTION", "BACDEF has no retroactive correction; use a judge-error rewind to just before the wrong entry")
    if state.status != "in_progress":
        reject("BAC-OVR-7", "E_MATCH_OVER", f"the match is over ({state.status})")
    if isinstance(ev, E.BacRewind):
        check_rewind(state, ev, ctx)
        return state
    handler = HANDLERS.get(type(ev))
    if handler is None:  # pragma: no cover - every event class has a handler
        raise Violation("BAC-TURN-10", f"{type(ev).__name__} is not handled", "E_WRONG_STEP")
    s = _clone(state)
    if s.set is not None and s.set.turn is not None:
        s.set.turn.notes = []
    eng = Engine(s, ctx.seq)
    handler(s, ev, ctx, eng)
    eng.run()
    return s
