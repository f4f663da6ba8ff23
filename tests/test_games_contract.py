"""The game contract, checked the same way over every registered game (OpenSpiel's habit).

A game is tested here by being registered and giving ``fixtures/<game>/conformance.jsonl`` (the
lines play starts from; ``conformance-<name>.jsonl`` beside it are further openings, such as a
match of three players). Random play is driven by what is open now alone (``Fold.open_now``: the
game's ``legal()`` and the kit's offers of the judge's rewind and correction): each step takes one
offered action and builds its fields from the action's ``choices``, so that

- every offered action is accepted, whatever combination its choices allow;
- ``step`` never mutates the state it is given;
- the same action entered by someone outside the match is refused, and changes nothing;
- every event round-trips through its stored form;
- a player's view and board hold nothing the judge's do not (no string of theirs is unknown to the
  judge's view), and a player's ``legal`` is the judge's restricted to that player;
- replaying the log from scratch gives the state reached step by step.
"""

from __future__ import annotations

import enum

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.kit import Board, Game, option_specs
from adjudicator.engine.protocol import Malformed, Violation
from tests.gamekit import MASKS, action_fields, conformance_games, game_of, real_games, start_lines, strings

STEPS = 40
OUTSIDER = "mallory"


def encoded(state) -> bytes:
    return msgspec.msgpack.encode(state)


def started_fold(opening: str) -> Fold:
    game = registry.get(game_of(opening))
    fold = Fold(game, "conformance")
    for i, line in enumerate(start_lines(opening), 1):
        fields = {k: v for k, v in line.items() if k not in ("type", "by")}
        if i == 1 and fields.get("rules_version") is None:
            fields["rules_version"] = game.rules_versions[-1]
        fold.advance(decode_event(game, line["type"], line["by"], fields), i)
    return fold


def check_views(game: Game, state) -> None:
    judge = msgspec.to_builtins(game.view(state, None))
    judge_board = msgspec.to_builtins(game.board(state, None))
    known = strings(judge) | strings(judge_board)
    for viewer in game.players_of(state):
        seen = strings(msgspec.to_builtins(game.view(state, viewer))) - MASKS
        assert seen <= known | {viewer}, f"{viewer}'s view shows what the judge's does not: {sorted(seen - known)[:5]}"
        board = game.board(state, viewer)
        assert isinstance(board, Board)
        assert strings(msgspec.to_builtins(board)) - MASKS <= known | {viewer}


@pytest.mark.parametrize("name", conformance_games())
@settings(max_examples=max(5, settings.default.max_examples // 3))  # ci 20, deep 666
@given(data=st.data())
def test_random_legal_play_keeps_the_contract(name, data):
    fold = started_fold(name)
    game = fold.game
    for _ in range(STEPS):
        state = fold.state
        offered = fold.open_now()
        if not offered or game.outcome(state).status != "in_progress":
            break
        plain = [a for a in offered if not a.anytime]
        pool = plain if plain and data.draw(st.integers(0, 9), label="prefer table actions") else offered
        action = data.draw(st.sampled_from(pool), label="action")
        fields = data.draw(action_fields(action), label=f"{action.type} fields")
        try:
            event = decode_event(game, action.type, action.who, fields)
        except Malformed as exc:
            raise AssertionError(f"offered {action.type} by {action.who} {fields} does not decode: {exc}") from None
        assert decode_event(game, action.type, action.who, event_fields(event)) == event  # round trip

        # someone outside the match is refused, and nothing changes
        before, head = encoded(state), fold.head
        with pytest.raises(Violation):
            fold.preview(decode_event(game, action.type, OUTSIDER, fields), head + 1)
        assert fold.head == head and fold.state is state and encoded(state) == before

        try:
            fold.advance(event, head + 1)
        except Violation as v:
            raise AssertionError(f"offered {action.type} by {action.who} {fields} was refused: {v}") from None
        assert encoded(state) == before, f"{action.type} mutated the state it was given"
        check_views(game, fold.state)

    replay = Fold(game, "conformance")
    for seq, event in fold.log:
        replay.advance(event, seq)
    assert encoded(replay.state) == encoded(fold.state)


@pytest.mark.parametrize("name", ["nim"] + real_games())
def test_declarations(name):
    game = registry.get(name)
    assert isinstance(game, Game)
    assert game.name == name and game.title and game.rules_versions and game.prefix
    assert issubclass(game.Reason, enum.Enum) and game.reasons()
    low, high = game.player_count
    assert 1 <= low <= high
    specs = option_specs(game.Options)
    assert [s.name for s in specs] == [s.name for s in game.options]
    defaults = game.decode_options({})
    assert msgspec.to_builtins(defaults) == msgspec.to_builtins(game.Options())
    for s in specs:  # every option names the rule that governs it
        assert s.rule.startswith(game.prefix + "-"), f"{name} option {s.name} has no rule ID"


@pytest.mark.parametrize("name", real_games())
def test_every_game_gives_a_conformance_opening(name):
    assert name in conformance_games(), f"fixtures/{name}/conformance.jsonl is missing"
