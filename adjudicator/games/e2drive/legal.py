"""The actions open now (``adj legal``), each with structured ``choices`` built so that every
combination they allow is accepted: the acting order (whose servant acts, the coin a tie between
players needs, the pick within one player) and what the acting servant may do."""

from __future__ import annotations

from adjudicator.games.e2drive import ether, order
from adjudicator.games.e2drive.attack import able_to_attack, atk_cost, can_defend, can_evade, defend_pools, evasion_cost, legal_targets
from adjudicator.games.e2drive.common import owner, restricted
from adjudicator.games.e2drive.events import Coin
from adjudicator.games.e2drive.voided import offered, point
from adjudicator.games.e2drive.flow import capacity, compelled, designatable, match_decided, unheld_on
from adjudicator.games.e2drive.state import SEATS, GameState, State, alive, limited, other, player, pool, servant, slots_of
from adjudicator.games.e2drive.tools import KIND_RANK, discount_applies, tool_cost
from adjudicator.engine.kit import one, text
from adjudicator.engine.protocol import JUDGE, LegalAction

del KIND_RANK


def _name(state: State, seat: str) -> str:
    return state.names[SEATS.index(seat)]


def legal(state: State) -> list[LegalAction]:
    g = state.game
    if g.status != "in_progress":
        if match_decided(state):
            return []
        return [LegalAction(who=JUDGE, type="game_started", note="deal the next game", choices={})]
    out = [LegalAction(who=_name(state, s), type="concede", anytime=True, choices={"player": one(_name(state, s))})
           for s in SEATS]
    out.append(LegalAction(who=JUDGE, type="void_game", anytime=True, choices={"reason": text()}))
    if g.attack is not None:
        return _attack(state, g) + out
    if g.tie is not None:
        return _tie(state, g) + out
    if g.forced_revival:
        return [LegalAction(who=_name(state, s), type="forced_revival", note="all three destroyed: revive one",
                            choices={"servant": one(*slots_of(s))}) for s in g.forced_revival] + out
    if g.upkeep:
        return _upkeep(state, g) + out
    if g.phase == "draw":
        return [LegalAction(who=JUDGE, type="start_turn", note=f"turn {g.turn + 1}: both draw", choices={})] + out
    if g.phase == "end":
        return [LegalAction(who=JUDGE, type="end_turn", note="reset ether, every servant unacted", choices={})] + out
    if g.acting is None:
        return out
    return _action(state, g, g.acting) + _quick(state, g, other(owner(g.acting))) + out


def _attack(state: State, g: GameState) -> list[LegalAction]:
    a = g.attack
    assert a is not None
    if a.step in ("coin_attacker", "coin_target"):
        ref = a.attacker if a.step == "coin_attacker" else a.target
        old = offered(g, point(g, Coin(by=JUDGE, result="heads")))
        hint = f" (the abandoned branch had {old}, E2D-RWD-7)" if old else ""
        return [LegalAction(who=JUDGE, type="coin", note=f"invisibility coin for {ref}{hint}", choices={"result": one("heads", "tails")})]
    who = _name(state, owner(a.target))
    pools = defend_pools(owner(a.target), a.target, state.options)
    if a.step == "defense":
        out = [LegalAction(who=who, type="defense", note=f"{a.target} does not DEF",
                           choices={"defend": one(False), "payment": one([])})]
        if can_defend(g, a, state.options):
            out.append(LegalAction(who=who, type="defense", note=f"{a.target} DEFs (1e)",
                                   choices={"defend": one(True), "payment": one(*ether.payments(g, pools, 1))}))
        return out
    out = [LegalAction(who=who, type="evasion", note=f"{a.target} takes {a.dmg_target}D",
                       choices={"evade": one(False), "payment": one([])})]
    if can_evade(g, a, state.options):
        cost = evasion_cost(g, a.target)
        out.append(LegalAction(who=who, type="evasion", note=f"{a.target} evades: 10D ({cost}e)",
                               choices={"evade": one(True), "payment": one(*ether.payments(g, pools, cost))}))
    return out


def _tie(state: State, g: GameState) -> list[LegalAction]:
    tie = g.tie
    assert tie is not None
    if tie.winner is None:
        return [LegalAction(who=JUDGE, type="tie_break", note=f"SPD tie between players: {', '.join(tie.candidates)}",
                            choices={"winner": one(*SEATS), "method": one("coin", "rps")})]
    return [LegalAction(who=_name(state, tie.winner), type="select_actor", note="tied at the top SPD: pick one",
                        choices={"servant": one(*tie.candidates)})]


def canonical_upkeep(g: GameState, seat: str, due: int) -> list[dict]:
    own = designatable(g, seat)
    on_total = sum(unheld_on(g, r) for r in own)
    units: dict[str, int] = {}
    left = due
    for r in own:  # on units first
        n = min(unheld_on(g, r), left)
        if n:
            units[r] = n
            left -= n
    if left and on_total < due:
        for r in own:
            pl = pool(g, r)
            room = pl.size - pl.held_lock - pl.held_invisible - units.get(r, 0)
            n = min(room, left)
            if n:
                units[r] = units.get(r, 0) + n
                left -= n
    return [{"pool": r, "n": n} for r, n in units.items()]


def _upkeep(state: State, g: GameState) -> list[LegalAction]:
    out = []
    for s in g.upkeep:
        due, cap = order.upkeep_due(g, s), capacity(g, s)
        if due > cap:
            cards = [t.card for t in player(g, s).tool_field] + [t.card for p in g.players for sv in p.servants
                                                                  for t in sv.equipment if t.owner == s]
            out.append(LegalAction(who=_name(state, s), type="discard_upkeep_card", note=f"upkeep {due} > {cap} designatable",
                                   choices={"player": one(_name(state, s)), "card": one(*sorted(set(cards)))}))
        else:
            out.append(LegalAction(who=_name(state, s), type="designate_upkeep", note=f"upkeep due {due}",
                                   choices={"player": one(_name(state, s)), "units": one(canonical_upkeep(g, s, due))}))
    return out


def _action(state: State, g: GameState, ref: str) -> list[LegalAction]:
    seat, opts = owner(ref), state.options
    who = _name(state, seat)
    pools = ether.acting_pools(seat, ref)
    out: list[LegalAction] = []
    if able_to_attack(g, ref, opts):
        out.append(LegalAction(who=who, type="attack", note=f"{ref} ATKs ({atk_cost(g, ref)}e)", choices={
            "attacker": one(ref), "target": one(*legal_targets(g, ref, opts)),
            "payment": one(*ether.payments(g, pools, atk_cost(g, ref)))}))
    if not compelled(g, ref, opts) and not restricted(g, ref, "end_action"):
        out.append(LegalAction(who=who, type="end_action", note=after_this(state, g), choices={"servant": one(ref)}))
    if not restricted(g, ref, "effect"):
        out.append(LegalAction(who=who, type="use_effect", note="its effect, as its text says (ops entered)",
                               choices={"servant": one(ref), "payment": one([]), "targets": one([]), "ops": one([])}))
    p = player(g, seat)
    if not restricted(g, ref, "tool"):
        out += _tools(state, g, seat, pools, "play_tool", kinds=(1, 2, 3, 4))
    for t in p.tool_field:
        c = state.catalog.tools.get(t.card)
        if c is not None and c.field_declared:
            out.append(LegalAction(who=who, type="activate_field_tool", choices={
                "card": one(t.card), "payment": one([]), "targets": one([]), "ops": one([])}))
    out += _change_revive(state, g, seat, who)
    if limited(g, seat) and not restricted(g, ref, "overdrive") and p.master.off >= 1:
        params = _od_params(state, g, ref)
        if params:
            out.append(LegalAction(who=who, type="overdrive", note=f"{servant(g, ref).type} overdrive (1e)", choices={
                "servant": one(ref), "payment": one([{"pool": f"{seat}.M", "n": 1}]), "params": one(*params)}))
    return out


def after_this(state: State, g: GameState) -> str:
    """Who acts once the acting servant's action ends (E2D-TURN-4), for the judge at the table."""
    tied = order.top_tied(g, state.options)
    if not tied:
        return "then the main phase ends"
    spd = dict(order.ranked(g, state.options))[tied[0]]
    if len(tied) == 1:
        return f"then {tied[0]} acts (SPD {spd})"
    owners = {owner(r) for r in tied}
    if len(owners) == 1:
        return f"then {owners.pop()} picks among {', '.join(tied)} (SPD {spd})"
    return f"then {', '.join(tied)} tie at SPD {spd}: a coin or rock-paper-scissors from the table (tie_break)"


def _hand_cards(state: State, g: GameState, seat: str, pool_: dict) -> list[str]:
    p = player(g, seat)
    if p.hand_count < 1:
        return []
    if len(p.hand_known) == p.hand_count:
        return sorted({c for c in p.hand_known if c in pool_})
    return sorted(pool_)


def _tools(state: State, g: GameState, seat: str, pools: list[str], type_: str, kinds: tuple[int, ...]) -> list[LegalAction]:
    out = []
    for cid in _hand_cards(state, g, seat, state.catalog.tools):
        c = state.catalog.tools[cid]
        if c.kind not in kinds or (c.kind == 3 and len(player(g, seat).tool_field) >= 3):
            continue
        cost = tool_cost(g, seat, cid, c)
        pays = ether.payments(g, pools, cost, limit=4)
        if discount_applies(state, g, seat, cost):
            pays += ether.payments(g, [f"{seat}.M"], cost - 1, limit=2)
        if not pays:
            continue
        if c.kind == 2:
            spots = [[r] for s in SEATS for r in alive(g, s) if len(servant(g, r).equipment) < 2]
            if not spots:
                continue
            targets = one(*spots)
        else:
            targets = one([])
        out.append(LegalAction(who=_name(state, seat), type=type_, note=f"{cid} (kind {c.kind}, {cost}e)", choices={
            "card": one(cid), "payment": one(*pays), "targets": targets, "ops": one([])}))
    return out


def _quick(state: State, g: GameState, seat: str) -> list[LegalAction]:
    return _tools(state, g, seat, [f"{seat}.M"], "play_quick_tool", kinds=(4,))


def _change_revive(state: State, g: GameState, seat: str, who: str) -> list[LegalAction]:
    out = []
    p = player(g, seat)
    card_ok = p.deck_count > 0 or state.options.voluntary_unpayable_damage_card == "lose"
    names = {servant(g, r).name for r in slots_of(seat)}
    if card_ok or limited(g, seat):
        ins = [c for c in _hand_cards(state, g, seat, state.catalog.servants) if state.catalog.servants[c].name not in names]
        outs = [r for r in alive(g, seat) if not restricted(g, r, "change")]
        if ins and outs:
            out.append(LegalAction(who=who, type="change", choices={"out": one(*outs), "in_card": one(*ins)}))
    dead = [r for r in slots_of(seat) if servant(g, r).destroyed and not restricted(g, r, "revive")]
    if card_ok and dead:
        out.append(LegalAction(who=who, type="revive", note="costs a damage card", choices={"servant": one(*dead)}))
    return out


def _od_params(state: State, g: GameState, ref: str) -> list[dict]:
    kind = servant(g, ref).type
    seat = owner(ref)
    opp = other(seat)
    if kind in ("Buster", "Blocker", "Slicer"):
        return [{}]
    if kind == "Restorer":
        return [{"targets": [r]} for r in alive(g, opp)]
    if kind == "Etherizer":
        return [{"locks": [{"pool": r, "n": 1}]} for r in alive(g, opp) + [f"{opp}.M"] if pool(g, r).off >= 1]
    if kind == "Irregular":
        return [{"choices": [c]} for c in ("ATK", "DEF", "SPD", "heal")]
    out: list[dict] = [{"choices": ["self_draw"]}, {"choices": ["opp_draw"]}]
    trash = player(g, seat).trash
    out.append({"choices": [{"kind": "trash_to_hand", "card": trash[-1]}] if trash else ["trash_to_hand"]})
    opp_p = player(g, opp)
    if opp_p.hand_count == 0:
        out.append({"choices": ["opp_discard"]})
    elif opp_p.hand_known:
        out.append({"choices": [{"kind": "opp_discard", "card": opp_p.hand_known[0]}]})
    return out
