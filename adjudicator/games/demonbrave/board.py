"""The DemonBrave table as one viewer may see it (the kit's generic ``Board``; rules §9).

A hand shows the cards known to be in it to its owner and the judge (cards drawn without being
entered are unknown even to the record), a count to the rest. Rule cards are the owner's until
both players have selected (DB-HID-1), unless the house rule reveals them one by one. A pair's
cards share a ``group``; a unit that attacked this turn is turned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.games.demonbrave.ranking import is_reversed
from adjudicator.games.demonbrave.match import match_score
from adjudicator.games.demonbrave.state import PLAYER, Player, State
from adjudicator.games.demonbrave.view import waiting
from adjudicator.engine.kit import Board, BoardCard, Drawings, Zone, hand_zone
from adjudicator.engine.protocol import JUDGE


def _sees_hand(viewer: str | None, owner: str) -> bool:
    return viewer in (None, JUDGE) or viewer == owner


def _sees_rule_cards(s: State, viewer: str | None, owner: str) -> bool:
    if _sees_hand(viewer, owner) or s.config.rule_card_reveal == "open_sequential":
        return True
    return all(p.selected for p in s.players)


def _rule_label(s: State, card: str) -> str:
    rc = s.rule_card(card)
    return f"{card} {rc.label}" if rc is not None and rc.label not in ("", f"<{card}>") else card


def _hand(p: Player, sees: bool) -> Zone:
    return hand_zone(p.name, p.hand_known, p.hand_count, sees)


def _rules(s: State, p: Player, sees: bool) -> Zone:
    if not sees:
        return Zone(name="rule cards", owner=p.name, count=len(p.rule_cards))
    return Zone(name="rule cards", owner=p.name, cards=tuple(BoardCard(id=c, label=_rule_label(s, c)) for c in p.rule_cards),
                count=len(p.rule_cards))


#: What was drawn last for a player (their open zones, hand, rule cards) and the games played,
#: with what it was drawn from (the kit's ``Drawings``).
_DRAWN = Drawings()
_kept = _DRAWN.kept


def _open_zones(p: Player) -> tuple[Zone, Zone, Zone]:
    """The zones every viewer sees alike: the deck (a count), the field, the trash."""
    return _kept(("open", p.name), (p,), lambda: _draw_open_zones(p))


def _draw_open_zones(p: Player) -> tuple[Zone, Zone, Zone]:
    field = tuple(
        BoardCard(id=c, label=c, turned=u.attacked, counters={"blocks": u.blocks} if u.blocks else {},
                  group=u.unit_id if u.is_pair else None)
        for u in p.field for c in u.cards
    )
    return (Zone(name="deck", owner=p.name, count=p.deck_count), Zone(name="field", owner=p.name, cards=field),
            Zone(name="trash", owner=p.name, cards=tuple(BoardCard(id=c, label=c) for c in p.trash)))


def _notes(s: State) -> list[str]:
    notes = []
    a = s.attack
    if a is not None:
        target = f"{a.defender} (the player)" if a.target == PLAYER else f"{a.defender}'s {a.target}"
        step = "declared" if a.step == "DECLARED" else f"blocked by {a.blocker}" if a.blocker else "not blocked"
        notes.append(f"attack: {a.attacker_player}'s {a.attacker} → {target}, {step}")
    notes += [f"chain {e.entry_id}: {e.controller}'s {e.effect_id} ({e.rule_card})" + (" negated" if e.negated else "")
              for e in s.chain]
    if is_reversed(s):
        notes.append("strength order reversed")
    notes += _kept(("games",), (s.match.results,), lambda: [
        f"game {r.game_index}: " + (f"won by {r.winner}" if r.outcome == "WIN" else r.outcome.lower()) + (f" ({r.reason})" if r.reason else "")
        for r in s.match.results])
    if s.result is not None:
        r = s.result
        notes.append("result: " + (f"won by {r.winner}" if r.outcome == "WIN" else r.outcome.lower()) + f" ({r.reason})")
    return notes


def board(s: State, viewer: str | None = None) -> Board:
    return boards(s, (viewer,))[0]


def boards(s: State, viewers: Sequence[str | None]) -> list[Board]:
    """The table as each of ``viewers`` sees it: what all see alike is worked out once."""
    counters: dict[str, dict[str, Any]] = {}
    score = match_score(s) if s.config.match_games > 1 else {}
    for p in s.players:
        counters[p.name] = {"life": p.life}
        if score:
            counters[p.name]["games won"] = score.get(p.name, 0)
    shared = []
    if s.shared_rule_cards:
        shared.append(Zone(name="shared rule cards", cards=tuple(BoardCard(id=c, label=_rule_label(s, c)) for c in s.shared_rule_cards)))
    if s.status == "IN_PROGRESS":
        phase = f"game {s.match.game_index}, turn {s.turn_number}: {s.phase} phase"
    else:
        phase = f"game {s.match.game_index}: {s.status.lower().replace('_', ' ')}"
    waits, notes = ", ".join(waiting(s)), tuple(_notes(s))
    open_ = {p.name: _open_zones(p) for p in s.players}
    hands: dict[tuple[str, bool], Zone] = {}
    rules: dict[tuple[str, bool], Zone] = {}
    out = []
    for viewer in viewers:
        zones: list[Zone] = []
        for p in s.players:
            deck, field, trash = open_[p.name]
            h, r = _sees_hand(viewer, p.name), _sees_rule_cards(s, viewer, p.name)
            hand = hands.get((p.name, h)) or hands.setdefault((p.name, h), _kept(("hand", p.name, h), (p,), lambda: _hand(p, h)))
            rule = rules.get((p.name, r)) or rules.setdefault(
                (p.name, r), _kept(("rules", p.name, r), (p, s.catalog), lambda: _rules(s, p, r)))
            zones += [deck, hand, field, trash, rule]
        out.append(Board(players=s.names, counters=counters, zones=tuple(zones + shared), turn=s.turn_player or "",
                         phase=phase, waiting=waits, notes=notes))
    return out
