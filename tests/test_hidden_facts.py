"""What is private stays private, checked for every registered game from what the game declares.

The judge sees everything, so comparing a player's view with the judge's cannot catch a hidden card
shown to the opponent. Here the facts are the private fields of each event (``private_fields``,
their owner from ``owner_of``), and three things must hold for everyone but that owner (and the
judge), in golden matches of every game and in random legal play:

- the event that enters a private fact does not show it in their view: no string of the fact
  first appears there right then (a card name the public catalog lists is a name, not the fact);
- nor on their board: no card in the owner's zones newly shows a face (or a group) that is one of
  the fact's strings;
- the history they are shown (``render.redacted``) hides every private field of another's event,
  the inserted event of a correction included.

A fact the game says is ``revealed`` by then (a simultaneous reveal) is public from that state on.
"""

from __future__ import annotations

import glob
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.fold import Fold, decode_event
from adjudicator.engine.kit import Game
from adjudicator.engine.protocol import Malformed, Violation
from adjudicator.presentation.render import history, redacted
from adjudicator.service import MatchService, MemoryStore
from tests.gamekit import MASKS, action_fields, conformance_games, real_games, strings
from tests.test_games_contract import started_fold

STEPS = 40
SPECTATOR = "carol"


def private_parts(game: Game, type_: str, by: str, fields: dict[str, Any], players,
                  seq: int | None = None, state: Any = None) -> list[tuple[str, str | None, Any]]:
    """``(field, owner, value)`` of each private field the event carries (those ``revealed`` by
    ``state``, where given, are public and left out)."""
    out = []
    for name in game.private_fields.get(type_, ()):
        if fields.get(name) is None:
            continue
        if seq is not None and state is not None and game.revealed(seq, type_, by, fields, name, state):
            continue
        out.append((name, game.owner_of(type_, by, fields, name, players), fields[name]))
    return out


def secrets_of(game: Game, type_: str, by: str, fields: dict[str, Any], players,
               seq: int | None = None, state: Any = None) -> dict[str, dict[str, set[str]]]:
    """viewer -> owner -> the strings of the owner's private facts in this event."""
    out: dict[str, dict[str, set[str]]] = {}
    for _name, owner, value in private_parts(game, type_, by, fields, players, seq, state):
        for viewer in (*players, SPECTATOR):
            if viewer != owner:
                out.setdefault(viewer, {}).setdefault(owner or "", set()).update(strings(value) - MASKS)
    return out


def view_strings(game: Game, state: Any, viewer: str) -> set[str]:
    return strings(msgspec.to_builtins(game.view(state, viewer)))


def board_faces(game: Game, state: Any, viewer: str) -> set[tuple[str | None, str]]:
    """(zone owner, id, label or group) of every card the viewer's board shows: a card's group
    (the unit it is drawn with) names it as surely as its face."""
    out = set()
    for zone in game.board(state, viewer).zones:
        for card in zone.cards:
            out.update((zone.owner, s) for s in (card.id, card.label, card.group) if s)
    return out


def public_names(started_fields: dict[str, Any]) -> set[str]:
    """The names a public card catalog lists (a card's name is not a secret; where it is, is)."""
    catalog = started_fields.get("catalog")
    return strings(catalog) if isinstance(catalog, dict) else set()


def check_event(game: Game, before: Any, after: Any, type_: str, by: str, fields: dict[str, Any], players,
                names: set[str], where: str, seq: int) -> None:
    facts = private_parts(game, type_, by, fields, players)
    for viewer, by_owner in secrets_of(game, type_, by, fields, players, seq, after).items():
        # a string of the viewer's own fact in the same event may show (both decks hold an SA)
        own = set().union(set(), *(strings(v) for _n, o, v in facts if o == viewer))
        secret = set().union(*by_owner.values()) - own
        new = view_strings(game, after, viewer) - view_strings(game, before, viewer)
        leaked = sorted((new & secret) - names)
        assert leaked == [], f"{where}: {type_} by {by} shows {viewer} the private {leaked}"
        new_faces = board_faces(game, after, viewer) - board_faces(game, before, viewer)
        shown = sorted(f for o, f in new_faces if f in by_owner.get(o or "", set()))
        assert shown == [], f"{where}: {type_} by {by} turns up {shown} on {viewer}'s board"


def hidden(value: Any, viewer: str) -> bool:
    """Whether a redacted field hides its value from ``viewer``: a mask, or a mapping per player
    that masks every entry but the viewer's own."""
    if isinstance(value, str):
        return value in MASKS
    if isinstance(value, dict):
        return all(hidden(v, viewer) for k, v in value.items() if k != viewer)
    return False


def golden_matches() -> list[str]:
    return sorted(p for name in real_games() for p in glob.glob(f"fixtures/{name}/golden/*.jsonl"))


def checked(path: str):
    with open(path, encoding="utf-8") as fh:
        return MatchService(MemoryStore()).check_lines(fh.read().splitlines()).match


@pytest.mark.parametrize("path", golden_matches())
def test_a_private_fact_is_not_shown_to_others_by_the_event_that_enters_it(path):
    match = checked(path)
    game, players = match.game, match.players
    names = public_names(dict(match.events[0].fields))
    for ev in match.events[1:]:
        check_event(game, match.fold.history[ev.seq - 1], match.fold.history[ev.seq], ev.type, ev.by, dict(ev.fields),
                    players, names, f"{path} seq {ev.seq}", ev.seq)


@pytest.mark.parametrize("path", golden_matches())
def test_the_history_a_viewer_is_shown_hides_every_private_field_of_another(path):
    match = checked(path)
    game, players = match.game, match.players
    rows = history(match.events, match.fold.branches)
    events = {ev.seq: ev for ev in match.events}
    for viewer in (*players, SPECTATOR):
        for row in redacted(rows, game, players, viewer, match.state):
            if row.seq is None or row.seq not in events:
                continue
            ev, shown = events[row.seq], dict(row.fields)
            pairs = [(ev.type, ev.by, dict(ev.fields), shown)]
            if ev.type == "correct" and isinstance(ev.fields.get("event"), dict):
                inner, inner_shown = dict(ev.fields["event"]), dict(shown["event"])
                pairs.append((inner.pop("type"), inner.pop("by"), inner, inner_shown))
            for type_, by, fields, seen in pairs:
                for name, owner, _value in private_parts(game, type_, by, fields, players, row.seq, match.state):
                    if owner != viewer:
                        assert hidden(seen.get(name), viewer), f"{path} seq {row.seq}: {viewer} is shown {type_}.{name}"


@pytest.mark.parametrize("name", conformance_games())
@settings(max_examples=max(5, settings.default.max_examples // 4))  # ci 15, deep 500
@given(data=st.data())
def test_random_play_shows_no_private_fact_to_another(name, data):
    fold: Fold = started_fold(name)
    game = fold.game
    players = tuple(game.players_of(fold.state))
    names = public_names(msgspec.to_builtins(next(iter(fold.log))[1]))
    for _ in range(STEPS):
        state = fold.state
        offered = game.legal(state)
        if not offered or game.outcome(state).status != "in_progress":
            break
        plain = [a for a in offered if not a.anytime]
        action = data.draw(st.sampled_from(plain or offered), label="action")
        fields = data.draw(action_fields(action), label=f"{action.type} fields")
        try:
            fold.advance(decode_event(game, action.type, action.who, fields), fold.head + 1)
        except (Violation, Malformed) as exc:
            raise AssertionError(f"offered {action.type} by {action.who} {fields} was refused: {exc}") from None
        check_event(game, state, fold.state, action.type, action.who, fields, players, names, f"{name} seq {fold.head}",
                    fold.head)


@pytest.mark.parametrize("path", golden_matches())
def test_every_entry_a_player_made_was_offered_to_that_player(path):
    """What ``adj legal`` offers and what is accepted agree: an entry accepted from a player was among
    that player's legal actions right before it (the other way round is checked by random play)."""
    match = checked(path)
    game = match.game
    for ev in match.events[1:]:
        if ev.by not in match.players or ev.type in ("rewind", "correct"):
            continue
        offered = {(a.who, a.type) for a in game.legal(match.fold.history[ev.seq - 1])}
        assert (ev.by, ev.type) in offered, f"{path} seq {ev.seq}: {ev.by}'s {ev.type} was accepted but not offered"
