"""What the table sees: per-player views (§9), a text rendering, and the actions open now with
every field's allowed values (``legal``). The judge's questions are ``explain``."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from adjudicator.games.demonbrave import cards as C
from adjudicator.games.demonbrave import zones as Z
from adjudicator.games.demonbrave.battle import can_block
from adjudicator.games.demonbrave.chain import owned_rule_cards, resolves_as_catalogued, uses
from adjudicator.games.demonbrave.judge import scope_problem
from adjudicator.games.demonbrave.match import chooser, match_result, match_score
from adjudicator.games.demonbrave.ranking import BattleOutcome, battle, has_status, is_reversed, rank_unit, rank_view
from adjudicator.games.demonbrave.state import PLAYER, Player, State, Unit
from adjudicator.engine.kit import choice_text, json_text, one, some, text
from adjudicator.engine.protocol import JUDGE, Choice, LegalAction


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


# -- which actions are open, with every field's allowed values ---------------------------------------
#: a list of values longer than this is printed as a count, not one by one
SHOWN = 16


def _field_text(name: str, c: Choice) -> str:
    if any(isinstance(v, dict) or (isinstance(v, list) and any(isinstance(x, dict) for x in v)) for v in c.values):
        shown = "|".join(json_text(v, ensure_ascii=True) for v in c.values)
        return f"{name}={shown if len(c.values) == 1 else '<' + shown + '>'}" + ("?" if c.optional else "")
    if len(c.values) <= SHOWN:
        return choice_text(name, c)
    n = str(c.min) if c.max == c.min else f"{c.min}-{c.max}"
    body = f"<one of {len(c.values)} ids>" if c.kind == "one" else f"[{n} of {len(c.values)} ids]"
    return f"{name}={body}" + ("?" if c.optional else "")


def offer(out: list[LegalAction], who: str, type_: str, note: str = "", *, anytime: bool = False, **choices: Choice) -> None:
    fields = " ".join(_field_text(k, c) for k, c in choices.items())
    out.append(LegalAction(who=who, type=type_, fields=fields, note=note, anytime=anytime, choices=choices))


def some_of(values: list[str], lo: int, hi: int | None = None, *, optional: bool = False) -> Choice:
    """``some`` (never more than there is to pick from), or the empty list as the only value when
    there is nothing to pick from."""
    if not values:
        return one([], optional=optional)
    return some(values, lo, min(lo if hi is None else hi, len(values)), optional=optional)


def unlocated(p: Player) -> list[str]:
    """The ids of ``p`` that may be in the deck or the unknown part of the hand (DB-HID-5)."""
    return [c for c in C.ALL_CARDS if not Z.located(p, c)]


def _setup_selection(state: State, out: list[LegalAction]) -> None:
    n = state.config.rule_cards_per_player
    ids = [rc.id for rc in state.catalog]
    if state.config.rule_card_pool == "shared":
        if not state.shared_rule_cards:
            offer(out, JUDGE, "rule_cards_selected", "the shared pool", rule_cards=some(ids, n))
        return
    for p in state.players:
        if not p.selected:
            offer(out, p.name, "rule_cards_selected", player=one(p.name), rule_cards=some(ids, n))


def _setup(state: State, out: list[LegalAction]) -> None:
    if not state.hands_drawn:
        for p in state.players:
            if not p.deck_this_game:
                offer(out, p.name, "deck_registered", "optional", anytime=True, player=one(p.name), cards=some(C.ALL_CARDS, C.DECK_SIZE))
    _setup_selection(state, out)
    if all(p.selected for p in state.players) and state.first_player is None:
        before = state.match.previous_first_player
        alternate = state.config.next_game_first_player == "alternate" and before is not None
        first = [n for n in state.names if not (alternate and n == before)]
        loser = chooser(state)
        for who in (JUDGE,) if loser is None else (loser[0], JUDGE):
            offer(out, who, "first_player_decided", "" if who == JUDGE else "the loser of the last game chooses",
                  first_player=one(*first), method=one("rps", "coin", "other", optional=True))
    if state.first_player is not None and not state.hands_drawn:
        offer(out, JUDGE, "decks_shuffled", "optional", anytime=True)
        n, required = state.config.opening_hand, state.config.draw_identities_required
        hands = {f"p{i}_cards": some(unlocated(p), n, optional=not required) for i, p in enumerate(state.players, 1)}
        offer(out, JUDGE, "opening_hands_drawn", **hands)
    if state.hands_drawn and state.config.mulligan == "one_free":
        first = state.first_player or state.names[0]
        for name in (first, state.opponent(first)):
            if not state.player(name).mulligan_done:
                offer(out, name, "mulligan", player=one(name), take=one(True, False))
                break


def _draw(state: State, out: list[LegalAction], tp: str) -> None:
    p = state.player(tp)
    n = Z.available_draw(state, p, Z.required_draw(state, p))
    pool = unlocated(p)
    if n > p.deck_count:  # reshuffle_trash: the trash becomes the deck during this draw
        pool += list(p.trash)
    required = state.config.draw_identities_required
    cards = some_of(pool, n if required else 0, n, optional=not required)
    offer(out, tp, "draw", count=one(n), cards=cards, player=one(tp, optional=True))


def pair_choices(state: State, who: str) -> list[tuple[Choice, str]]:
    """The ``units`` of every valid ``form_pair`` (DB-ACT-11, DB-RUL-5), each with a note: a new
    pair from 2+ singles; every pair extended by 1+ singles (with pair_extend); any 2+ units
    (with pair_merge). Lists of units that must go together are a ``one`` over the complete list."""
    cfg = state.config
    field = state.player(who).field
    singles = [u.unit_id for u in field if not u.is_pair]
    pairs = [u.unit_id for u in field if u.is_pair]
    if cfg.pair_extend and cfg.pair_merge:
        return [(some([u.unit_id for u in field], 2, len(field)), "")] if len(field) >= 2 else []
    out: list[tuple[Choice, str]] = []
    if len(singles) >= 2:
        out.append((some(singles, 2, len(singles)), "a new pair"))
    if cfg.pair_extend and singles:
        most = len(singles) if len(singles) <= 8 else 2
        extra = "" if most == len(singles) else f"; listed with up to {most} singles, more may be added"
        for pair in pairs:
            joins = [[pair, *group] for k in range(1, most + 1) for group in combinations(singles, k)]
            out.append((one(*joins), f"{pair} grows{extra}"))
    return out


def _main_phase(state: State, out: list[LegalAction], tp: str) -> None:
    p = state.player(tp)
    if p.hand_count:
        hand = [c for c in C.ALL_CARDS if Z.possible_in_hand(p, c)]
        offer(out, tp, "play_card", "" if Z.unknown_in_hand(p) else "every card in hand is known", card=one(*hand), player=one(tp, optional=True))
    for units, note in pair_choices(state, tp):
        offer(out, tp, "form_pair", note, units=units, player=one(tp, optional=True))


def _attacks(state: State, out: list[LegalAction], tp: str) -> None:
    """One ``declare_attack`` per unit that may attack, with the targets it may attack (§6.3)."""
    foe = state.opponent(tp)
    for u in state.player(tp).field:
        if u.attacked or has_status(state, tp, u, "CANNOT_ATTACK"):
            continue
        targets = [t.unit_id for t in state.player(foe).field if not has_status(state, foe, t, "CANNOT_BE_ATTACKED")]
        if u.is_pair or has_status(state, tp, u, "MAY_ATTACK_PLAYER"):
            targets.append(PLAYER)
        if targets:
            offer(out, tp, "declare_attack", attacker=one(u.unit_id), target=one(*targets), player=one(tp, optional=True))


def _battle(state: State, out: list[LegalAction], tp: str) -> None:
    """The attack in progress: the defender's block, then the battle (DB-ACT-15, DB-ACT-16)."""
    a = state.attack
    if a is None:
        return
    if a.target == PLAYER and a.step == "DECLARED":
        blockers = can_block(state, a.defender)
        offer(out, a.defender, "declare_block", blocker=one(*blockers, None), player=one(a.defender, optional=True))
        if blockers and state.player(a.attacker_player).unit(a.attacker) is not None:
            return
    outcome = battle(state, a, None, strict=False)
    choices: dict[str, Choice] = {}
    if state.config.single_vs_pair_trash == "one_chosen" and outcome.candidates:
        choices["choice"] = one(*outcome.candidates, optional=len(outcome.candidates) == 1)
    offer(out, tp, "resolve_battle", outcome.summary, **choices)


def _open_effects(state: State, who: str) -> list[tuple[str, list[str], bool]]:
    """The rule cards ``who`` may activate now, each with the ids of its effects open now and
    whether the judge asserts one of them is allowed in the opponent's turn (§6.6)."""
    if any(s.owner is None and s.target == who and s.status == "CANNOT_ACTIVATE" for s in state.statuses):
        return []
    turn = who == state.turn_player
    out = []
    for rc in dict.fromkeys(owned_rule_cards(state, state.player(who))):
        card = state.rule_card(rc)
        open_ids, asserted = [], False
        for e in card.effects if card is not None else ():
            if not turn and e.usable_in_opponent_turn is False:
                continue
            used = uses(state, who, rc, e.effect_id)
            this_turn = used.this_turn if used and used.turn_number == state.turn_number else 0
            if used and ((e.limit_per_turn is not None and this_turn >= e.limit_per_turn) or (e.limit_per_game is not None and used.this_game >= e.limit_per_game)):
                continue
            open_ids.append(e.effect_id)
            asserted |= not turn and e.usable_in_opponent_turn is None
        if open_ids:
            out.append((rc, open_ids, asserted))
    return out


def _effects(state: State, out: list[LegalAction], who: str) -> None:
    """One ``activate_effect`` per rule card ``who`` may activate now, with its effects (§6.6)."""
    opened = _open_effects(state, who)
    if not opened:
        return
    turn = who == state.turn_player
    me = state.player(who)
    targets = [e.entry_id for e in state.chain] + [u.unit_id for u in me.field] + [c for u in me.field if u.is_pair for c in u.cards]
    for rc, open_ids, asserted in opened:
        judge_asserted = one(True) if asserted else one(False, True, optional=True)
        note = "" if turn else "a response in the opponent's turn" + ("; the judge asserts it is allowed" if asserted else "")
        offer(out, who, "activate_effect", note, anytime=not turn, rule_card=one(rc), effect_id=one(*open_ids),
              targets=some_of(targets, 0, 1, optional=True), cost_ops=one([], optional=True),
              judge_asserted=judge_asserted, player=one(who, optional=True))


def _turn(state: State, out: list[LegalAction]) -> None:
    tp = state.turn_player or state.names[0]
    if state.chain:
        canonical = resolves_as_catalogued(state)
        offer(out, JUDGE, "resolve_chain_entry", "when both players have passed" + ("; ops left out: the catalog's" if canonical else ""),
              entry_id=one(state.chain[-1].entry_id), ops=one([], optional=canonical))
    if state.phase == "DRAW" and not state.draw_done:
        _draw(state, out, tp)
        return
    if not state.chain:
        if state.attack is not None:
            _battle(state, out, tp)
        else:
            if state.phase == "MAIN":
                _main_phase(state, out, tp)
            if state.phase == "BATTLE":
                _attacks(state, out, tp)
            note = {"MAIN": "to BATTLE" if state.turn_number > 1 else "to END", "BATTLE": "to END", "END": "ends the turn", "DRAW": "to MAIN"}
            offer(out, tp, "advance_phase", note.get(state.phase or "", ""), player=one(tp, optional=True))
    if not (state.chain_resolving and not state.config.activations_during_resolution):
        for who in (tp, state.opponent(tp)):
            _effects(state, out, who)


def rewind_targets(state: State) -> list[int]:
    """The seqs a rewind may return to without ``judge_override`` (DB-RWD-3), among the effective
    events of the current turn (or setup)."""
    return [s for s in state.recent if scope_problem(state, None, s, "") is None]


def _judge(state: State, out: list[LegalAction]) -> None:
    if state.status in ("FINISHED", "VOID"):
        if match_result(state) is None:
            offer(out, JUDGE, "game_started", game_index=one(state.match.game_index + (0 if state.status == "VOID" else 1)))
    else:
        offer(out, JUDGE, "declare_result", anytime=True, outcome=one("WIN"), winner=one(*state.names), reason=text())
        offer(out, JUDGE, "declare_result", anytime=True, outcome=one("DRAW"), reason=text())
    if state.status != "VOID":
        offer(out, JUDGE, "void_game", anytime=True, reason=text())
    note = {"op": "NOTE", "text": "recorded by the judge"}
    offer(out, JUDGE, "judge_adjust", "any ops of §10.1; a NOTE is shown", anytime=True, ops=one([note]), reason=text())
    targets = rewind_targets(state)
    if targets:
        offer(out, JUDGE, "rewind", "within the current turn; further back with judge_override", anytime=True,
              to_seq=one(*targets), reason=text(), judge_override=one(False, True, optional=True))
    valid = set(targets)  # a correction lands after the event before at_seq: that one must be in scope
    at = [s for before, s in zip(state.recent, state.recent[1:]) if before in valid]
    if at:
        inserted = {"type": "judge_adjust", "by": JUDGE, "ops": [note], "reason": "forgotten"}
        offer(out, JUDGE, "correct", "inserts a play event or a judge_adjust before at_seq; a judge_adjust is shown", anytime=True,
              at_seq=one(*at), event=one(inserted), reason=text(), judge_override=one(False, True, optional=True))


def legal(state: State) -> list[LegalAction]:
    """The actions open now, each field with its allowed values (``Choice``): every action built
    from any combination of them is accepted. Actions open at any moment (a concession, the judge's
    events, a response in the opponent's turn) are ``anytime``."""
    out: list[LegalAction] = []
    if state.status == "SETUP":
        _setup(state, out)
    elif state.status == "IN_PROGRESS":
        _turn(state, out)
        for who in state.names:
            offer(out, who, "concede", anytime=True, player=one(who))
    _judge(state, out)
    return out


def waiting(state: State) -> list[str]:
    """Who the table waits for: the authors of the actions ``legal`` offers that are not
    ``anytime``, in the order it offers them, found without building the actions (the board
    asks at every event; a property test keeps the two equal)."""
    out: dict[str, None] = {}
    if state.status == "SETUP":
        _setup_waiting(state, out)
    elif state.status == "IN_PROGRESS":
        _turn_waiting(state, out)
    elif state.status in ("FINISHED", "VOID") and match_result(state) is None:
        out[JUDGE] = None  # game_started
    return list(out)


def _setup_waiting(state: State, out: dict[str, None]) -> None:
    if state.config.rule_card_pool == "shared":
        if not state.shared_rule_cards:
            out[JUDGE] = None
    else:
        out.update((p.name, None) for p in state.players if not p.selected)
    if all(p.selected for p in state.players) and state.first_player is None:
        loser = chooser(state)
        out.update((who, None) for who in ((JUDGE,) if loser is None else (loser[0], JUDGE)))
    if state.first_player is not None and not state.hands_drawn:
        out[JUDGE] = None  # opening_hands_drawn
    if state.hands_drawn and state.config.mulligan == "one_free":
        first = state.first_player or state.names[0]
        for name in (first, state.opponent(first)):
            if not state.player(name).mulligan_done:
                out[name] = None
                break


def _turn_waiting(state: State, out: dict[str, None]) -> None:
    tp = state.turn_player or state.names[0]
    if state.chain:
        out[JUDGE] = None  # resolve_chain_entry
    if state.phase == "DRAW" and not state.draw_done:
        out[tp] = None
        return
    if not state.chain:
        a = state.attack
        blocked_first = False
        if a is not None and a.target == PLAYER and a.step == "DECLARED":
            out[a.defender] = None  # declare_block
            blocked_first = bool(can_block(state, a.defender)) and state.player(a.attacker_player).unit(a.attacker) is not None
        if not blocked_first:
            out[tp] = None  # resolve_battle, or advance_phase
    # an effect is an action waited for only in its owner's turn (a response is anytime)
    if tp not in out and state.turn_player == tp and not (state.chain_resolving and not state.config.activations_during_resolution):
        if _open_effects(state, tp):
            out[tp] = None
