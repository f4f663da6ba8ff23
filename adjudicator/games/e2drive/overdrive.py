"""Overdrive (E2D-ACT-26…33): only in the limited state, paid from master ether only, k units at a
time; the servant's type selects the effect. Lasting effects end when the servant is next targeted."""

from __future__ import annotations

from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, ether, sbc
from adjudicator.games.e2drive.common import owner, reject, require_sender, restricted
from adjudicator.games.e2drive.events import JunkerChoice, Overdrive
from adjudicator.games.e2drive.state import (
    GameState,
    Lock,
    Modifier,
    State,
    limited,
    note,
    other,
    parse_pool,
    parse_slot,
    player,
    pool,
    servant,
    with_player,
    with_pool,
    with_servant,
)

IRREGULAR = ("ATK", "DEF", "SPD", "heal")
JUNKER = ("self_draw", "trash_to_hand", "opp_discard", "opp_draw")


def on_overdrive(state: State, g: GameState, ev: Overdrive, ctx) -> GameState:
    parse_slot(ev.servant, "$.servant")
    seat = owner(g.acting) if g.acting is not None else owner(ev.servant)
    require_sender(state, ev, seat, "E2D-ACT-26", "an overdrive (the active player's)")
    if not limited(g, seat):
        reject("E2D-LIM-10", f"{seat} is not in the limited state (3 damage cards, one servant left): no overdrive",
               "NOT_LIMITED")
    if g.acting != ev.servant:
        reject("E2D-ACT-26", f"{ev.servant} is not the acting servant ({g.acting or 'none'})", "NOT_ACTING")
    if restricted(g, ev.servant, "overdrive"):
        reject("E2D-ACT-26", f"an effect forbids {ev.servant} to overdrive", "RESTRICTED")
    k = sum(ether.totals(ev.payment).values())
    sv = servant(g, ev.servant)
    kind = sv.type
    _check_params(g, ev, kind, k)
    units = ether.check_payment(g, ev.payment, [k] if k >= 1 else [1], [f"{seat}.M"], f"the overdrive of {ev.servant}")
    g = ether.pay(g, units, notes=g.notes + (f"{ev.servant} ({kind}) overdrives with {k}e",))  # the note in the payment's copy
    return EFFECTS[kind](state, g, ev, seat, k)


def _check_params(g: GameState, ev: Overdrive, kind: str, k: int) -> None:
    p = ev.params
    if kind == "Restorer" and len(p.targets) != k:
        reject("E2D-ACT-30", f"a Restorer overdrive of {k}e lists {k} target(s), not {len(p.targets)}", "PARAMS")
    if kind == "Etherizer" and sum(x.n for x in p.locks) != k:
        reject("E2D-ACT-31", f"an Etherizer overdrive of {k}e locks {k} unit(s), not {sum(x.n for x in p.locks)}", "PARAMS")
    if kind in ("Junker", "Irregular") and len(p.choices) != k:
        rule = "E2D-ACT-32" if kind == "Junker" else "E2D-ACT-33"
        reject(rule, f"a {kind} overdrive of {k}e makes {k} choice(s), not {len(p.choices)}", "PARAMS")
    if kind == "Irregular" and any(c not in IRREGULAR for c in p.choices):
        reject("E2D-ACT-33", f"Irregular choices are ATK, DEF, SPD or heal, not {list(p.choices)}", "PARAMS")
    if kind == "Junker":
        for c in p.choices:
            name = c.kind if isinstance(c, JunkerChoice) else c
            if name not in JUNKER:
                reject("E2D-ACT-32", f"Junker choices are {', '.join(JUNKER)}, not {name!r}", "PARAMS")


def _od(g: GameState, ref: str, **bonus: int) -> GameState:
    sv = servant(g, ref)
    od = sv.od
    new = rep(od, **{k: v + {"buster": od.buster, "blocker": od.blocker, "slicer_spd": od.slicer_spd,
                              "slicer_extra": od.slicer_extra}[k] for k, v in bonus.items()})
    return with_servant(g, ref, rep(sv, od=new))


def buster(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    return note(_od(g, ev.servant, buster=10 * k), f"Buster: ATK +{10 * k} until targeted")


def blocker(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    return note(_od(g, ev.servant, blocker=10 * k), f"Blocker: DEF +{10 * k} until targeted; compulsion on")


def slicer(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    return note(_od(g, ev.servant, slicer_spd=10 * k, slicer_extra=k), f"Slicer: SPD +{10 * k}, X +{k} until targeted")


def restorer(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    opp = other(seat)
    for i, ref in enumerate(ev.params.targets):
        parse_slot(ref, f"$.params.targets[{i}]")
        if owner(ref) != opp:
            reject("E2D-ACT-30", f"Restorer targets are the opponent's servants, not {ref}", "PARAMS")
        if servant(g, ref).destroyed:
            reject("E2D-ACT-30", f"{ref} is destroyed before unit {i + 1} resolves (enter one unit per event)", "PARAMS")
        g = damage.add_damage(g, ev.servant, -10)
        g = damage.add_damage(g, ref, 10)
        g = damage.destruction_check(g, state.options)
    g = note(g, f"Restorer: {ev.servant} heals {10 * k}D, {', '.join(ev.params.targets)} take 10D each")
    return damage.end_until_targeted(g, list(ev.params.targets), state.options, seat)


def etherizer(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    opp = other(seat)
    inst = servant(g, ev.servant).instance
    for i, lk in enumerate(ev.params.locks):
        s, idx = parse_pool(lk.pool, f"$.params.locks[{i}].pool")
        if s != opp or (idx is not None and servant(g, lk.pool).destroyed):
            reject("E2D-ACT-31", f"locks take off units of the opponent's master or non-destroyed servants, not {lk.pool}",
                   "PARAMS")
        pl = pool(g, lk.pool)
        if pl.off < lk.n:
            reject("E2D-ACT-31", f"{lk.pool} has {pl.off} off unit(s); {lk.n} cannot be locked", "PARAMS")
        g = with_pool(g, lk.pool, rep(pl, on=pl.on + lk.n, held_lock=pl.held_lock + lk.n))
        g = rep(g, locks=g.locks + (Lock(by_instance=inst, by_slot=ev.servant, pool=lk.pool, n=lk.n),))
    return note(g, f"Etherizer: {k} unit(s) of {opp} locked")


def junker(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    opp = other(seat)
    for i, c in enumerate(ev.params.choices):
        name, card = (c.kind, c.card) if isinstance(c, JunkerChoice) else (c, None)
        if name == "self_draw":
            g = sbc.draw(g, seat)
        elif name == "opp_draw":
            g = sbc.draw(g, opp)
        elif name == "trash_to_hand":
            p = player(g, seat)
            if p.trash:
                if card not in p.trash:
                    reject("E2D-ACT-32", f"trash_to_hand names a card of {seat}'s trash, not {card!r}", "PARAMS")
                j = len(p.trash) - 1 - p.trash[::-1].index(card)
                g = with_player(g, rep(p, trash=p.trash[:j] + p.trash[j + 1:], hand_count=p.hand_count + 1,
                                       hand_known=tuple(sorted(p.hand_known + (card,)))))
        else:  # opp_discard: the opponent chooses; the card is entered in this event (E2D-RUL-13)
            p = player(g, opp)
            if p.hand_count:
                if card is None:
                    reject("E2D-ACT-32", f"opp_discard names the card {opp} chose to discard", "PARAMS")
                hand = list(p.hand_known)
                if card in hand:
                    hand.remove(card)
                g = with_player(g, rep(p, hand_count=p.hand_count - 1, hand_known=tuple(hand), trash=p.trash + (card,)))
        if sbc.any_lost(g):
            return note(g, f"Junker: stopped at choice {i + 1} ({name}): a draw from an empty deck")
    return note(g, f"Junker: {', '.join(c.kind if isinstance(c, JunkerChoice) else c for c in ev.params.choices)}")


def irregular(state: State, g: GameState, ev: Overdrive, seat: str, k: int) -> GameState:
    for c in ev.params.choices:
        if c == "heal":
            g = damage.add_damage(g, ev.servant, -10)
            continue
        sv = servant(g, ev.servant)
        m = Modifier(id=g.next_modifier, stat=c, op="add", value=10, duration="until_targeted", rank=7,  # type: ignore[arg-type]
                     source="overdrive")
        g = with_servant(rep(g, next_modifier=g.next_modifier + 1), ev.servant, rep(sv, modifiers=sv.modifiers + (m,)))
    return note(g, f"Irregular: {', '.join(str(c) for c in ev.params.choices)}")


EFFECTS = {"Buster": buster, "Blocker": blocker, "Slicer": slicer, "Restorer": restorer, "Etherizer": etherizer,
           "Junker": junker, "Irregular": irregular}
