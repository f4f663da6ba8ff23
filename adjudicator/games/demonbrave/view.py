"""What the table sees: per-player views (§9), a text rendering, the open actions, and the
explanation of a comparison ("which pair wins, and why")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.ranking import (
    ChoiceError,
    BattleOutcome,
    battle,
    compare_ranks,
    is_reversed,
    rank_unit,
    rank_view,
    unit_vs_unit,
)
from adjudicator.games.demonbrave.battle import can_block
from adjudicator.games.demonbrave.match import match_result, match_score
from adjudicator.games.demonbrave.state import PLAYER, State, Unit
from adjudicator.protocol import JUDGE, LegalAction, Malformed


# -- units ------------------------------------------------------------------------------------------
def unit_text(state: State, owner: str, u: Unit) -> str:
    r = rank_unit(state, owner, u)
    flags = " attacked" if u.attacked else ""
    if u.is_pair:
        return f"{u.unit_id}[{' '.join(u.cards)}] {r.text()}{flags}"
    return f"{u.unit_id} ({'joker, 14' if r.category == 'JOKER' else r.key[0]}){flags}"


def unit_view(state: State, owner: str, u: Unit) -> dict[str, Any]:
    return {
        "unit": u.unit_id,
        "kind": u.kind,
        "cards": list(u.cards),
        "attacked": u.attacked,
        "blocks": u.blocks,
        "rank": rank_view(rank_unit(state, owner, u)),
        "text": unit_text(state, owner, u),
    }


def _sees_hand(viewer: str | None, owner: str) -> bool:
    return viewer in (None, JUDGE) or viewer == owner


def _sees_rule_cards(state: State, viewer: str | None, owner: str) -> bool:
    if viewer in (None, JUDGE) or viewer == owner or state.config.rule_card_reveal == "open_sequential":
        return True
    return all(p.selected for p in state.players)  # DB-HID-1: simultaneous reveal


def outcome_view(out: BattleOutcome) -> dict[str, Any]:
    d: dict[str, Any] = {"rule": out.rule, "result": out.result, "summary": out.summary}
    if out.trash:
        d["trash"] = [f"{o}:{c}" for o, c in out.trash]
    if out.life_loss:
        d["life_loss"] = {p: n for p, n in out.life_loss}
    if out.candidates:
        d["candidates"] = list(out.candidates)
    if out.decision is not None:
        d["decided_by"] = {"rule": out.decision.rule, "basis": out.decision.basis}
    return d


def attack_view(state: State) -> dict[str, Any] | None:
    a = state.attack
    if a is None:
        return None
    d: dict[str, Any] = {
        "attacker": a.attacker,
        "attacker_player": a.attacker_player,
        "target": a.target,
        "defender": a.defender,
        "step": a.step,
        "declared_seq": a.declared_seq,
    }
    if a.step == "BLOCK_DECLARED":
        d["blocker"] = a.blocker
    if a.target == PLAYER and a.step == "DECLARED":
        d["may_block_with"] = can_block(state, a.defender)
    d["outcome_if_resolved_now"] = outcome_view(battle(state, a, None, strict=False))
    return d


def view(state: State, player: str | None = None) -> dict[str, Any]:
    players = {}
    for p in state.players:
        entry: dict[str, Any] = {
            "life": p.life,
            "deck": p.deck_count,
            "hand": p.hand_count,
            "field": [unit_view(state, p.name, u) for u in p.field],
            "trash": list(p.trash),
            "selected_rule_cards": p.selected,
        }
        if _sees_hand(player, p.name):
            entry["hand_known"] = list(p.hand_known)
        if _sees_rule_cards(state, player, p.name):
            entry["rule_cards"] = list(p.rule_cards)
        players[p.name] = entry
    result = state.result
    match = match_result(state)
    return {
        "game": "demonbrave",
        "game_index": state.match.game_index,
        "status": state.status,
        "result": None if result is None else {"outcome": result.outcome, "winner": result.winner, "reason": result.reason},
        "turn": state.turn_number,
        "turn_player": state.turn_player,
        "phase": state.phase,
        "first_player": state.first_player,
        "draw_done": state.draw_done,
        "order": "reversed" if is_reversed(state) else "normal",
        "reversals": [{"source_seq": r.source_seq, "expires_turn": r.expires_turn} for r in state.reversals],
        "players": players,
        "shared_rule_cards": list(state.shared_rule_cards),
        "attack": attack_view(state),
        "chain": [
            {"entry_id": e.entry_id, "controller": e.controller, "rule_card": e.rule_card, "effect_id": e.effect_id, "targets": list(e.targets), "negated": e.negated}
            for e in state.chain
        ],
        "chain_resolving": state.chain_resolving,
        "modifiers": [{"player": m.owner, "card": m.card, "mode": m.mode, "value": m.value, "expires_turn": m.expires_turn} for m in state.modifiers],
        "statuses": [{"player": s.owner, "target": s.target, "status": s.status, "expires_turn": s.expires_turn} for s in state.statuses],
        "pair_counter": state.pair_counter,
        "entry_counter": state.entry_counter,
        "idle_turns": state.idle_turns,
        "match": {
            "games": state.config.match_games,
            "results": [{"game": r.game_index, "outcome": r.outcome, "winner": r.winner, "reason": r.reason} for r in state.match.results],
            "score": match_score(state),
            "result": None if match is None else {"outcome": match.outcome, "winner": match.winner, "reason": match.reason},
        },
    }


def describe(state: State, player: str | None = None) -> str:
    v = view(state, player)
    head = f"DemonBrave game {v['game_index']}: {state.status}"
    if state.status == "IN_PROGRESS":
        head += f", turn {state.turn_number}, {state.turn_player}'s {state.phase} phase, order {v['order']}"
    if state.result is not None:
        r = state.result
        head += f" — {'won by ' + str(r.winner) if r.outcome == 'WIN' else r.outcome.lower()} ({r.reason})"
    lines = [head]
    for p in state.players:
        e = v["players"][p.name]
        hand = f"hand {p.hand_count}"
        if "hand_known" in e and e["hand_known"]:
            hand += f" (known: {' '.join(e['hand_known'])})"
        rc = " ".join(e["rule_cards"]) if "rule_cards" in e else ("hidden" if p.selected else "-")
        lines.append(f"{p.name}: life {p.life}, deck {p.deck_count}, {hand}, rule cards: {rc or '-'}")
        lines.append("  field: " + (" · ".join(unit_text(state, p.name, u) for u in p.field) or "empty"))
        lines.append("  trash: " + (" ".join(p.trash) or "empty"))
    if state.shared_rule_cards:
        lines.append("shared rule cards: " + " ".join(state.shared_rule_cards))
    if state.reversals:
        lines.append("reversals: " + ", ".join(f"from seq {r.source_seq} until {'END of turn ' + str(r.expires_turn) if r.expires_turn else 'permanent'}" for r in state.reversals))
    a = v["attack"]
    if a is not None:
        step = a["step"] + (f", blocker {a['blocker'] or 'none'}" if "blocker" in a else "")
        lines.append(f"attack: {a['attacker_player']}'s {a['attacker']} → {a['target']} ({step}); if resolved now: {a['outcome_if_resolved_now']['summary']} [{a['outcome_if_resolved_now']['rule']}]")
    if state.chain:
        lines.append("chain (top last): " + ", ".join(f"{e.entry_id} {e.effect_id} by {e.controller}{' (negated)' if e.negated else ''}" for e in state.chain))
    if state.config.match_games > 1:
        lines.append("match: " + ", ".join(f"{k} {n}" for k, n in v["match"]["score"].items()) + f" (best of {state.config.match_games})")
    return "\n".join(lines)


# -- which actions are open (for "what can I do?") ----------------------------------------------------
def legal(state: State) -> list[LegalAction]:
    out: list[LegalAction] = []
    add = lambda who, type_, fields="", note="": out.append(LegalAction(who=who, type=type_, fields=fields, note=note))  # noqa: E731
    names = state.names
    if state.status == "SETUP":
        if not state.hands_drawn:
            for p in state.players:
                if p.deck_registered is None:
                    add(p.name, "deck_registered", f"player={p.name} cards=[54 ids]", "optional")
        if state.config.rule_card_pool == "shared":
            if not state.shared_rule_cards:
                add(JUDGE, "rule_cards_selected", f"rule_cards=[{state.config.rule_cards_per_player} ids]")
        else:
            for p in state.players:
                if not p.selected:
                    add(p.name, "rule_cards_selected", f"player={p.name} rule_cards=[{state.config.rule_cards_per_player} ids]")
        if all(p.selected for p in state.players) and state.first_player is None:
            add(JUDGE, "first_player_decided", f"first_player=<{'|'.join(names)}> method=<rps|coin|other>")
        if state.first_player is not None and not state.hands_drawn:
            add(JUDGE, "decks_shuffled", "", "optional")
            add(JUDGE, "opening_hands_drawn", "p1_cards=[5 ids]? p2_cards=[5 ids]?")
        if state.hands_drawn and state.config.mulligan == "one_free":
            first = state.first_player or names[0]
            order = [first, state.opponent(first)]
            for n in order:
                if not state.player(n).mulligan_done:
                    add(n, "mulligan", f"player={n} take=<true|false>")
                    break
    elif state.status == "IN_PROGRESS":
        tp = state.turn_player or names[0]
        other = state.opponent(tp)
        a = state.attack
        if state.chain:
            add(JUDGE, "resolve_chain_entry", f"entry_id={state.chain[-1].entry_id} ops=[...]?", "when both players have passed")
        if state.phase == "DRAW" and not state.draw_done:
            p = state.player(tp)
            n = Z.available_draw(state, p, Z.required_draw(state, p))
            add(tp, "draw", f"count={n} cards=[...]?")
        elif not state.chain:
            if a is None:
                if state.phase == "MAIN":
                    if state.player(tp).hand_count:
                        add(tp, "play_card", "card=<id>")
                    if len(state.player(tp).field) >= 2:
                        add(tp, "form_pair", "units=[<unit ids>]")
                if state.phase == "BATTLE":
                    ready = [u.unit_id for u in state.player(tp).field if not u.attacked]
                    if ready:
                        add(tp, "declare_attack", f"attacker=<{'|'.join(ready)}> target=<unit id|PLAYER>")
                add(tp, "advance_phase", "", {"MAIN": "to BATTLE" if state.turn_number > 1 else "to END", "BATTLE": "to END", "END": "ends the turn", "DRAW": "to MAIN"}.get(state.phase or "", ""))
            else:
                if a.target == PLAYER and a.step == "DECLARED":
                    blockers = can_block(state, a.defender)
                    add(a.defender, "declare_block", f"blocker=<{'|'.join(blockers + ['null'])}>")
                    if not blockers:
                        add(tp, "resolve_battle", "", "no unit can block")
                else:
                    add(tp, "resolve_battle", "choice=<card>?")
        if not (state.phase == "DRAW" and not state.draw_done) and not (state.chain_resolving and not state.config.activations_during_resolution):
            for who in (tp, other):
                cards = state.shared_rule_cards if state.config.rule_card_pool == "shared" else state.player(who).rule_cards
                if cards:
                    add(who, "activate_effect", f"rule_card=<{'|'.join(cards)}> effect_id=<id> targets=[...]?")
        for who in names:
            add(who, "concede", f"player={who}")
        add(JUDGE, "declare_result", "outcome=<WIN|DRAW> winner=<name>? reason=<text>")
    else:
        if match_result(state) is None:
            add(JUDGE, "game_started", f"game_index={state.match.game_index + (0 if state.status == 'VOID' else 1)}")
    add(JUDGE, "judge_adjust", "ops=[...] reason=<text>")
    if state.status != "VOID":
        add(JUDGE, "void_game", "reason=<text>")
    add(JUDGE, "rewind", "to_seq=<seq> reason=<text> judge_override=<bool>?")
    add(JUDGE, "correct", "at_seq=<seq> event={...} reason=<text>")
    return out


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
