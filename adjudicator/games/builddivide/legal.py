"""The actions open now (``adj legal``), each with who may enter it and its fields as structured
choices. Payments are offered as complete valid payments (one per card), so that every offered
action, built from its choices, is accepted."""

from __future__ import annotations




from adjudicator.games.builddivide import refs as R
from adjudicator.games.builddivide import zones as Z
from adjudicator.games.builddivide.catalog import Card
from adjudicator.games.builddivide.payment import Cost, card_cost, release_cost
from adjudicator.games.builddivide.priority import holder
from adjudicator.games.builddivide.rules import busy, hand_limit, trigger_out_of_order
from adjudicator.games.builddivide.setup import loser_chooses
from adjudicator.games.builddivide.state import Player, State
from adjudicator.engine.kit import one, some, text
from adjudicator.engine.protocol import JUDGE, LegalAction


def a_payment(s: State, p: Player, cost: Cost) -> list[dict[str, str]] | None:
    """One valid payment of ``cost`` from ``p``'s standing energy, or None (greedy: colour parts
    first with the energy of fewest colours, then the generic part)."""
    scope = R.of_player(p, ("ENERGY",))
    free = [R.ref(c, scope) for c, e in zip(scope, p.energy) if e.standing]
    cols = {r: (s.catalog[c.name].colours if c.name in s.catalog else ()) for r, c in zip(R.refs(scope), scope)}
    out: list[dict[str, str]] = []
    for colour, n in sorted(cost.colours.items()):
        for _ in range(n):
            pick = min((e for e in free if colour in cols[e]), key=lambda e: len(cols[e]), default=None)
            if pick is None:
                return None
            free.remove(pick)
            out.append({"energy": pick, "as": colour})
    for _ in range(cost.generic):
        if not free:
            return None
        pick = free.pop(0)
        out.append({"energy": pick, "as": cols[pick][0] if cols[pick] else "GENERIC"})
    return out


def hand_names(s: State, p: Player) -> list[str]:
    """Names that may be entered as coming from ``p``'s hand: the known ones, and every name of the
    unseen pool while a hand card is unknown."""
    names = {h for h in p.hand if h}
    if None in p.hand:
        names |= {n for n, c in p.unseen.items() if c > 0}
    return sorted(n for n in names if p.unseen.get(n, 0) > 0 or s.options.identity_check == "WARN")


def _plays(s: State, who: str, quick_only: bool) -> list[LegalAction]:
    p = Z.player(s, who)
    out = []
    for name in hand_names(s, p):
        c: Card | None = s.catalog.get(name)
        if c is None or c.type not in ("UNIT", "COMMAND") or (quick_only and c.timing != "QUICK"):
            continue
        pay = a_payment(s, p, card_cost(c))
        if pay is not None:
            out.append(LegalAction(who=who, type="play_card", choices={"card": one(name), "payment": one(pay)}))
    return out


def _abilities(s: State, tp: str) -> list[LegalAction]:
    """Activated abilities open at their timing, and automatic ones a player may state have
    triggered, of the cards each player has on the table."""
    out: list[LegalAction] = []
    g = s.game
    for p in g.players:
        scope = R.of_player(p)
        for card, ref in zip(scope, R.refs(scope)):
            c = s.catalog.get(card.name)
            for ab in c.abilities if c else ():
                if ab.kind == "AUTOMATIC" and trigger_out_of_order(s, p.name) is None:
                    out.append(LegalAction(who=p.name, type="trigger", note="when it has triggered", anytime=True,
                                           choices={"source": one(ref), "ability_id": one(ab.id), "controller": one(p.name)}))
                elif ab.kind == "ACTIVATED" and _may_activate(s, p.name, tp, ab.timing):
                    out.append(LegalAction(who=p.name, type="activate_ability", note=ab.note,
                                           choices={"source": one(ref), "ability_id": one(ab.id)}))
    return out


def _may_activate(s: State, who: str, tp: str, timing: str) -> bool:
    d = s.game.damage
    if timing == "QUICK":
        return d is None or d.waiting == "STACK"
    return who == tp and s.game.phase == "MAIN" and not busy(s)


def _setup(s: State) -> list[LegalAction]:
    g = s.game
    out: list[LegalAction] = []
    step = g.setup_step
    todo = [p for p in g.players if step not in p.setup_done]
    simple = {1: "shuffle", 3: "place_territory", 5: "draw_opening", 7: "place_life"}
    if step in simple:
        if step == 1 and any(n not in s.decks for n in s.names):
            return [LegalAction(who=n, type="register_deck", fields=f"player={n} main=[40-50 names] d_deck=[0-12 names] territory=NAME checklist={{}}",
                                note="BD-DECK-22: setup waits for both lists") for n in s.names if n not in s.decks]
        out += [LegalAction(who=p.name, type=simple[step], choices={"player": one(p.name)}) for p in todo]
    elif step == 4:  # BD-ACT-4: the judge, or either player recording what both saw (the loser, if the loser chooses)
        chooser = loser_chooses(s)
        out += [LegalAction(who=who, type="decide_first_player",
                            choices={"first_player": one(*s.names), "method": one(s.options.first_player_method)})
                for who in ((chooser,) if chooser else s.names) + (JUDGE,)]
    elif step == 6:
        out += [LegalAction(who=p.name, type="mulligan", choices={"player": one(p.name), "redraw": one(True, False)})
                for p in g.players if p.mulligan == "UNDECIDED"]
    elif step == 8:
        for p in todo:
            names = sorted(n for n, c in p.unseen.items() if c > 0)
            if len(names) >= 2:
                out.append(LegalAction(who=p.name, type="place_initial_energy", choices={"player": one(p.name), "cards": some(names, 2)}))
    return out


def _attack(s: State, tp: str, ntp: str) -> list[LegalAction]:
    g = s.game
    a = g.attack
    out: list[LegalAction] = []
    if a is None:
        return out
    if a.step == "BLOCK" and not g.stack:
        out.append(LegalAction(who=ntp, type="no_block"))
        blockers = [Z.unit_ref(s, u, ntp) for u in Z.player(s, ntp).field if u.standing and not Z.has_status(u, "CANNOT_BLOCK")]
        if blockers:
            out.append(LegalAction(who=ntp, type="declare_block", choices={"blocker": one(*blockers)}))
    elif a.step == "BATTLE" and not g.stack:
        out.append(LegalAction(who=tp, type="resolve_battle"))
    return out


def _damage(s: State) -> list[LegalAction]:
    d = s.game.damage
    if d is None:
        return []
    v = Z.player(s, d.victim)
    if d.waiting == "REVEAL" and not s.game.stack:
        names = sorted(n for n, c in v.unseen.items() if c > 0 and n in s.catalog)
        acts = [LegalAction(who=d.victim, type="life_check", choices={"victim": one(d.victim), "icons": one([], ["BUSTER"])})]
        if names:
            acts.append(LegalAction(who=d.victim, type="life_check", choices={"victim": one(d.victim), "card_name": one(*names)}))
        return acts
    if d.waiting == "SHOT" and d.shot_card is not None:
        acts = [LegalAction(who=d.victim, type="shot_decline")]
        pay = a_payment(s, v, card_cost(s.catalog[d.shot_card]))
        if pay is not None:
            acts.append(LegalAction(who=d.victim, type="shot_play", choices={"payment": one(pay)}))
        return acts
    return []


def _phase(s: State, tp: str) -> list[LegalAction]:
    g = s.game
    p = Z.player(s, tp)
    out: list[LegalAction] = []
    if g.phase == "DRAW" and g.turn_number > 1 and not g.drawn_this_phase:
        return [LegalAction(who=tp, type="draw", choices={"player": one(tp)})]
    if g.end_step == "DISCARD":
        owed = len(p.hand) - hand_limit(s, tp)
        known = [h for h in p.hand if h]
        pool = dict(p.unseen)
        for k in known:
            pool[k] -= 1
        extra = [n for n, c in sorted(pool.items()) for _ in range(max(0, c))]
        pick = (known + extra)[:owed]
        return [LegalAction(who=tp, type="end_discard", choices={"cards": one(pick)})] if len(pick) == owed else []
    out.append(LegalAction(who=tp, type="advance_phase"))
    if g.phase == "MAIN":
        if not p.energy_placed_this_turn and p.hand:
            names = hand_names(s, p)
            if names:
                out.append(LegalAction(who=tp, type="place_energy", choices={"card": one(*names)}))
        out += _plays(s, tp, quick_only=False)
        win = g.release_window
        ace = Z.by_iid(s, win[1]) if win is not None and win[0] == tp else None
        if ace is not None and p.territory is not None:
            reducer = s.catalog[ace[1].name].total_cost
            pay = a_payment(s, p, release_cost(s.catalog[p.territory.name], reducer, s.options.release_reduction_order))
            if pay is not None:
                out.append(LegalAction(who=tp, type="release_territory",
                                       choices={"player": one(tp), "releasing_unit": one(Z.unit_ref(s, ace[1], tp)), "payment": one(pay)}))
    if g.phase == "ATTACK":
        attackers = [Z.unit_ref(s, u, tp) for u in p.field if u.standing and not Z.has_status(u, "CANNOT_ATTACK")]
        ntp = Z.opponent(s, tp)
        targets = [ntp] + [Z.unit_ref(s, u, ntp) for u in Z.player(s, ntp).field if not u.standing]
        if attackers:
            out.append(LegalAction(who=tp, type="declare_attack", choices={"attacker": one(*attackers), "target": one(*targets)}))
    return out


def legal(s: State) -> list[LegalAction]:
    g = s.game
    out: list[LegalAction] = []
    if s.match_result is not None:
        return out
    if g.shuffle_owed:  # rewind_card_return SHUFFLE (BD-REW-8)
        return [LegalAction(who=n, type="shuffle", choices={"player": one(n)}) for n in g.shuffle_owed]
    if g.status == "SETUP":
        out += _setup(s)
    elif g.status == "ENDED":
        if g.deck_loss_owed:  # BD-REW-12 under GAME_LOSS
            return [LegalAction(who=JUDGE, type="judge_result", choices={"winner": one(*s.names), "reason": text()})]
        if not g.result_confirmed:
            out.append(LegalAction(who=JUDGE, type="confirm_result"))
        if not g.cleaned_up:
            out.append(LegalAction(who=JUDGE, type="game_cleanup", choices={"mixed_cards_found": one(False)}))
        out.append(LegalAction(who=JUDGE, type="judge_void_game", choices={"note": text()}, anytime=True))
        return out
    else:
        tp = g.turn_player or ""
        ntp = Z.opponent(s, tp)
        if g.stack:
            out.append(LegalAction(who=JUDGE, type="resolve_top", note="when both players have passed; ops carry out the text"))
        out += _damage(s)
        if not busy(s):
            out += _phase(s, tp)
        else:
            out += _attack(s, tp, ntp)
        out += _abilities(s, tp)
        if g.damage is None or g.damage.waiting == "STACK":
            for who in (tp, ntp):
                if who != tp or busy(s) or g.phase != "MAIN":
                    out += _plays(s, who, quick_only=True)
    if s.options.strict_priority and g.status == "IN_PROGRESS":
        out = strict(s, out)
    out += [LegalAction(who=n, type="concede", choices={"player": one(n)}, anytime=True) for n in s.names]
    return out


def strict(s: State, offered: list[LegalAction]) -> list[LegalAction]:
    """With strict_priority: plays only for the holder of priority, resolution and phase changes
    only after two passes, and ``pass`` for the holder."""
    who = holder(s)
    both = s.game.passes >= 2
    out = [a for a in offered if not ((a.type in ("play_card", "activate_ability") and a.who != who) or (a.type in ("resolve_top", "advance_phase") and not both))]
    return out + [LegalAction(who=who, type="pass", choices={"player": one(who)})]


