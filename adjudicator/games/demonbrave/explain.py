"""The judge's questions (``Game.explain``): which of two units is stronger and why, what an
attack would do, how one unit ranks. Computed by the functions ``resolve_battle`` uses
(``ranking``), so an explanation cannot disagree with a verdict."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.games.demonbrave.ranking import ChoiceError, compare_ranks, is_reversed, rank_unit, rank_view, unit_vs_unit
from adjudicator.games.demonbrave.state import PLAYER, State, Unit
from adjudicator.games.demonbrave.view import attack_view, outcome_view, unit_text
from adjudicator.engine.protocol import Malformed


# -- explaining a comparison ------------------------------------------------------------------------
def find_unit(state: State, ref: str, where: str = "$") -> tuple[str, Unit]:
    """A unit named ``PAIR-3``, ``S3`` (if on one field only) or ``alice:S3``; a card inside a
    pair names its pair."""
    if not isinstance(ref, str) or not ref:
        raise Malformed(f"name a unit: PAIR-n, a card id, or player:unit (got {ref!r})", where)
    owner, sep, uid = ref.partition(":")
    owners = [owner] if sep else list(state.names)
    if not sep:
        uid = ref
    if sep and owner not in state.names:
        raise Malformed(f"{owner!r} is not a player of this match ({', '.join(state.names)})", where)
    hits = []
    for n in owners:
        p = state.player(n)
        u = p.unit(uid) or p.unit_of(uid)
        if u is not None:
            hits.append((n, u))
    if not hits:
        raise Malformed(f"no unit {ref!r} is on a field", where)
    if len(hits) > 1:
        raise Malformed(f"{uid} is on both fields; write {hits[0][0]}:{uid} or {hits[1][0]}:{uid}", where)
    return hits[0]


def _side(state: State, owner: str, u: Unit) -> dict[str, Any]:
    return {"player": owner, "unit": u.unit_id, "cards": list(u.cards), **rank_view(rank_unit(state, owner, u)), "text": unit_text(state, owner, u)}


def _would(state: State, a_owner: str, a: Unit, t_owner: str, t: Unit) -> dict[str, Any]:
    try:
        out = unit_vs_unit(state, a_owner, a, t_owner, t, None, strict=False)
    except ChoiceError as exc:  # pragma: no cover - strict=False never raises
        return {"error": exc.message}
    return outcome_view(out)


def compare(state: State, unit_a: str, unit_b: str) -> dict[str, Any]:
    """Each side's tier category and strength keys, which is stronger and the rule that
    decided it; for units of different players, what each attack would do."""
    a_owner, a = find_unit(state, unit_a, "$.a")
    b_owner, b = find_unit(state, unit_b, "$.b")
    ra, rb = rank_unit(state, a_owner, a), rank_unit(state, b_owner, b)
    d = compare_ranks(ra, rb, state.config)
    result: dict[str, Any] = {
        "order": "reversed" if is_reversed(state) else "normal",
        "config": {"pair_category_order": list(state.config.pair_category_order), "pair_size_rule": state.config.pair_size_rule, "joker_in_pair": state.config.joker_in_pair},
        "a": _side(state, a_owner, a),
        "b": _side(state, b_owner, b),
        "stronger": d.winner,
        "rule": d.rule,
        "basis": d.basis,
    }
    if a_owner != b_owner:
        result["if_a_attacks_b"] = _would(state, a_owner, a, b_owner, b)
        result["if_b_attacks_a"] = _would(state, b_owner, b, a_owner, a)
    return result


def explain(state: State, query: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``{"a": ref, "b": ref}`` (or ``{"units": [a, b]}``) compares two units; ``{"unit": ref}``
    ranks one; ``{}`` explains the attack in progress."""
    q = dict(query or {})
    units = q.get("units")
    if units is not None:
        if not isinstance(units, (list, tuple)) or len(units) != 2:
            raise Malformed("units: name exactly two units to compare", "$.units")
        q["a"], q["b"] = units
    if "a" in q or "b" in q:
        if "a" not in q or "b" not in q:
            raise Malformed("name both units to compare: a and b", "$.b" if "a" in q else "$.a")
        return compare(state, q["a"], q["b"])
    if "unit" in q:
        owner, u = find_unit(state, q["unit"], "$.unit")
        return {"order": "reversed" if is_reversed(state) else "normal", "unit": _side(state, owner, u)}
    a = state.attack
    if a is None:
        raise Malformed("no attack is in progress; name two units to compare (a=..., b=...)", "$")
    out: dict[str, Any] = {"attack": attack_view(state)}
    attacker = state.player(a.attacker_player).unit(a.attacker)
    other_id = a.blocker if a.target == PLAYER else a.target
    other = state.player(a.defender).unit(other_id) if other_id else None
    if attacker is not None and other is not None:
        out["comparison"] = compare(state, f"{a.attacker_player}:{attacker.unit_id}", f"{a.defender}:{other.unit_id}")
    return out
