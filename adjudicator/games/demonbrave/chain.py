"""Rule-card effects and the chain (rules §6.6, DB-ACT-12, DB-ACT-13): an activation pushes an
entry; the top entry resolves with the ops that carry out its text (as entered, or the catalog's
canonical ops), validated as one list (DB-EFF-14)."""

from __future__ import annotations

from typing import Any

from adjudicator.games.demonbrave import ops as O
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.events import ActivateEffect, AnyOp, Effect, ResolveChainEntry, RuleCard
from adjudicator.games.demonbrave.guards import actor, illegal
from adjudicator.games.demonbrave.state import ChainEntry, EffectUse, Player, State
from adjudicator.engine.protocol import JUDGE, Context, Violation

PLACEHOLDERS = ("$TARGET", "$CONTROLLER", "$OPPONENT")  # what ``entry_ops`` fills (DB-EFF-10)


# Derived from the catalog and its effects, which are immutable and shared by every state of a
# match: kept per object (the entry holds the object, so its id cannot be reused while cached).
_EFFECTS: dict[int, tuple[tuple[RuleCard, ...], dict[tuple[str, str], Effect]]] = {}
_OPS: dict[int, tuple[Effect, tuple[str, ...], dict[tuple[str | None, ...], tuple[AnyOp, ...]]]] = {}
_CACHED = 64  # catalogs (a match has one), effects; and decoded ops per effect
#: chain entry ids by number: every game counts from 1 again, and formatting an int costs more
#: than a dict look-up
_ENTRY_IDS: dict[int, str] = {}
_CACHED_IDS = 4096


def _effect_index(catalog: tuple[RuleCard, ...]) -> dict[tuple[str, str], Effect]:
    """(rule card, effect id) -> the effect: the first card with the id, its first such effect."""
    hit = _EFFECTS.get(id(catalog))
    if hit is not None and hit[0] is catalog:
        return hit[1]
    index: dict[tuple[str, str], Effect] = {}
    seen: set[str] = set()
    for rc in catalog:
        if rc.id in seen:
            continue
        seen.add(rc.id)
        for e in rc.effects:
            index.setdefault((rc.id, e.effect_id), e)
    if len(_EFFECTS) >= _CACHED:
        _EFFECTS.clear()
    _EFFECTS[id(catalog)] = (catalog, index)
    return index


def find_effect(state: State, rule_card: str, effect_id: str) -> Effect | None:
    catalog = state.catalog
    hit = _EFFECTS.get(id(catalog))  # ``_effect_index``'s cache, read here: one call less an activation
    index = hit[1] if hit is not None and hit[0] is catalog else _effect_index(catalog)
    return index.get((rule_card, effect_id))


def _placeholders(template: Any, found: set[str]) -> None:
    """The placeholders ``O.substitute`` fills in ``template`` (it walks the same parts)."""
    if isinstance(template, str):
        if template in PLACEHOLDERS:
            found.add(template)
    elif isinstance(template, dict):
        for v in template.values():
            _placeholders(v, found)
    elif isinstance(template, list):
        for v in template:
            _placeholders(v, found)


def canonical_ops(effect: Effect, values: dict[str, str | None]) -> tuple[AnyOp, ...]:
    """The effect's canonical ops with the placeholders filled, decoded (raises ``OpError``).
    Decoded ops are frozen: one tuple serves every resolution that fills the placeholders the
    effect uses with the same values."""
    hit = _OPS.get(id(effect))
    if hit is None or hit[0] is not effect:
        found: set[str] = set()
        _placeholders(list(effect.canonical_ops or ()), found)
        if len(_OPS) >= _CACHED:
            _OPS.clear()
        hit = _OPS[id(effect)] = (effect, tuple(sorted(found)), {})
    _, used, decoded = hit
    key = tuple(map(values.__getitem__, used))  # map, not a generator: no closure made per resolution
    ops = decoded.get(key)
    if ops is None:
        ops = O.decode_ops(O.substitute(list(effect.canonical_ops or ()), values))
        if len(decoded) >= 4 * _CACHED:
            decoded.clear()
        decoded[key] = ops
    return ops


def owned_rule_cards(state: State, p: Player) -> tuple[str, ...]:
    """The rule cards player ``p`` may activate: their own, or the shared pool (DB-RUL-14)."""
    return state.shared_rule_cards if state.config.rule_card_pool == "shared" else p.rule_cards


def _use_index(p: Player, rule_card: str, effect_id: str) -> int:
    """Where ``p``'s uses of the effect are in ``p.effect_uses`` (-1: not used yet)."""
    i = 0
    for u in p.effect_uses:  # counted by hand: no enumerate() pair made per use
        if u.effect_id == effect_id and u.rule_card == rule_card:
            return i
        i += 1
    return -1


def uses(state: State, who: str, rule_card: str, effect_id: str) -> EffectUse | None:
    p = state.player(who)
    i = _use_index(p, rule_card, effect_id)
    return p.effect_uses[i] if i >= 0 else None


def _check_limits(state: State, ev: ActivateEffect, who: str, effect: Effect, used: EffectUse) -> None:
    """DB-LIM-7: the catalog's limits per turn and per game, against the uses so far."""
    this_turn = used.this_turn if used.turn_number == state.turn_number else 0
    if effect.limit_per_turn is not None and this_turn >= effect.limit_per_turn:
        raise Violation("DB-LIM-7", f"{who} has used {ev.effect_id} {this_turn} time(s) this turn; the limit is {effect.limit_per_turn}", "EFFECT_LIMIT")
    if effect.limit_per_game is not None and used.this_game >= effect.limit_per_game:
        raise Violation("DB-LIM-7", f"{who} has used {ev.effect_id} {used.this_game} time(s) this game; the limit is {effect.limit_per_game}", "EFFECT_LIMIT")


def _check_activation(state: State, ev: ActivateEffect, who: str, p: Player) -> int:
    """The preconditions of an activation by ``p`` (named ``who``), in the chapter's order;
    returns where ``p``'s uses of the effect so far are (``_use_index``)."""
    if state.phase == "DRAW" and not state.draw_done:
        raise Violation("DB-TURN-4", f"no effect is activated before {state.turn_player}'s draw", "DRAW_NOT_DONE")
    if state.chain_resolving and not state.config.activations_during_resolution:
        raise Violation("DB-RES-43", f"{who} cannot activate {ev.rule_card} while the chain is resolving; wait until it is empty", "CHAIN_RESOLVING")
    owned = owned_rule_cards(state, p)
    if ev.rule_card not in owned:
        raise Violation("DB-ACT-12", f"{who} has not selected the rule card {ev.rule_card} (selected: {', '.join(owned) or 'none'})", "RULE_CARD_NOT_OWNED")
    effect = find_effect(state, ev.rule_card, ev.effect_id)
    if effect is None:
        rc = state.rule_card(ev.rule_card)
        known = ", ".join(e.effect_id for e in rc.effects) if rc else ""
        raise illegal(ev, f"the rule card {ev.rule_card} has no effect {ev.effect_id!r} (it has: {known or 'none'})")
    if who != state.turn_player:
        if effect.usable_in_opponent_turn is False or (effect.usable_in_opponent_turn is None and not ev.judge_asserted):
            why = "is not usable in the opponent's turn" if effect.usable_in_opponent_turn is False else "is not known to be usable in the opponent's turn (the judge may assert it: judge_asserted=true)"
            raise Violation("DB-RES-40", f"{who} cannot activate {ev.effect_id} in {state.turn_player}'s turn: it {why}", "NOT_ALLOWED_IN_OPPONENT_TURN")
    for s in state.statuses:  # a loop, not any() over a generator: ``who`` stays a plain local
        if s.owner is None and s.target == who and s.status == "CANNOT_ACTIVATE":
            raise illegal(ev, f"{who} cannot activate effects now (CANNOT_ACTIVATE)")
    i = _use_index(p, ev.rule_card, ev.effect_id)
    if i >= 0 and (effect.limit_per_turn is not None or effect.limit_per_game is not None):
        _check_limits(state, ev, who, effect, p.effect_uses[i])
    return i


def on_activate_effect(state: State, ev: ActivateEffect, ctx: Context) -> State:
    who = actor(state, ev, state.turn_player)
    p = state.player(who)
    i = _check_activation(state, ev, who, p)
    if ev.cost_ops:
        state = O.apply_ops(state, ev.cost_ops, ctx.seq)  # the costs are paid at once
        p = state.player(who)  # the costs' ops leave effect uses as they are
    rule_card, effect_id, turn, counter = ev.rule_card, ev.effect_id, state.turn_number, state.entry_counter
    entry_id = _ENTRY_IDS.get(counter)
    if entry_id is None:
        entry_id = f"E{counter}"
        if counter < _CACHED_IDS:
            _ENTRY_IDS[counter] = entry_id
    entry = ChainEntry(
        entry_id=entry_id,
        controller=who,
        rule_card=rule_card,
        effect_id=effect_id,
        targets=tuple(ev.targets),
        source_seq=ctx.seq,
    )
    kept = p.effect_uses
    if i < 0:
        new_use = EffectUse(rule_card=rule_card, effect_id=effect_id, turn_number=turn, this_turn=1, this_game=1)
    else:
        used = kept[i]
        this_turn = used.this_turn + 1 if used.turn_number == turn else 1
        new_use = EffectUse(rule_card=rule_card, effect_id=effect_id, turn_number=turn, this_turn=this_turn, this_game=used.this_game + 1)
        kept = kept[:i] + kept[i + 1:]
    p = Z.rep(p, effect_uses=kept + (new_use,))
    return Z.rep(state, players=state.players_with(p), chain=state.chain + (entry,), entry_counter=counter + 1)


def entry_ops(state: State, ev: ResolveChainEntry) -> tuple[AnyOp, ...]:
    """The ops that carry out the top entry: as entered, or the catalog's canonical ops."""
    entry = state.chain[-1]
    if ev.ops is not None:
        return ev.ops
    if entry.negated:
        return ()
    effect = find_effect(state, entry.rule_card, entry.effect_id)
    if effect is None or effect.canonical_ops is None:
        raise illegal(ev, f"the catalog does not say what {entry.effect_id} does; enter the ops that carry out its text (ops=[...])")
    values = {
        "$TARGET": entry.targets[0] if entry.targets else None,
        "$CONTROLLER": entry.controller,
        "$OPPONENT": state.opponent(entry.controller),
    }
    try:
        return canonical_ops(effect, values)
    except O.OpError as exc:
        raise Violation(O.RULE, f"{entry.entry_id} ({entry.effect_id}): {exc}", O.CODE) from None


def on_resolve_chain_entry(state: State, ev: ResolveChainEntry, ctx: Context) -> State:
    by = ev.by
    if by != JUDGE and by != state.players[0].name and by != state.players[1].name:  # not ``names``: no tuple made
        raise illegal(ev, f"{ev.by!r} is neither a player of this match nor the judge")
    if not state.chain:
        raise illegal(ev, f"there is no chain entry to resolve ({ev.entry_id})")
    top = state.chain[-1]
    if ev.entry_id != top.entry_id:
        order = ", ".join(e.entry_id for e in reversed(state.chain))
        raise Violation("DB-RES-41", f"{ev.entry_id} is not the top of the chain; entries resolve last in, first out: {order}", "NOT_TOP_OF_CHAIN")
    if top.negated and ev.ops:
        raise illegal(ev, f"{top.entry_id} was negated: it resolves with no ops (ops=[])")
    ops = ev.ops if ev.ops is not None else entry_ops(state, ev)  # as entered, or the catalog's
    chain = state.chain[:-1]  # the entry leaves the chain before its ops run (R-DB-8)
    state = Z.rep(state, chain=chain, chain_resolving=bool(chain))
    return O.apply_ops(state, ops, ctx.seq) if ops else state


def resolves_as_catalogued(state: State) -> bool:
    """Whether the top entry can be resolved with ``ops`` left out now: the catalog's canonical
    ops (or none, for a negated entry) apply (for ``legal``)."""
    try:
        on_resolve_chain_entry(state, ResolveChainEntry(by=JUDGE, entry_id=state.chain[-1].entry_id), Context(seq=0))
    except Violation:
        return False
    return True
