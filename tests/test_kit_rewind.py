"""What the kit gives every game for rewinds and corrections (adjudicator/engine/kit.py):

- the judge-only gate: a rewind or a correction entered by a player is refused by the kit, under
  the rule and code the game declares (``rewind_rule``, ``correct_rule``), before the game's own
  gate; a game that declares None lets its ``step`` say who may go back (PBWCG's players may,
  BACDEF's rule depends on the kind of rewind);
- ``legal_at`` through ``Fold.open_now``: the judge's rewind offer, whose targets are effective
  seqs the fold accepts, in a whole fold and in one resumed from a snapshot alike.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.engine import registry
from adjudicator.engine.fold import Fold, decode_event, event_fields
from adjudicator.engine.kit import Game, correct_action, event_type, insertion_points
from adjudicator.engine.protocol import JUDGE, Correct, LegalAction, MatchStarted, Rewind, Violation
from tests.gamekit import FIXTURES, NIM_START, real_games
from tests.test_import_stream import accepted_lines

#: the rule, code and words of the kit's refusal of a player's rewind and correction, as each
#: game's chapter gives them (None: the game's own step decides who may go back)
GATES = {
    "bacdef": (None, None),
    "builddivide": (("BD-REW-2", "JUDGE_ONLY", "only a judge may rewind; {by} cannot"),
                    ("BD-REW-2", "JUDGE_ONLY", "only a judge may correct the log; {by} cannot")),
    "demonbrave": (("DB-RWD-2", "JUDGE_ONLY", "only the judge may enter rewind; {by} cannot"),
                   ("DB-RWD-2", "JUDGE_ONLY", "only the judge may enter correct; {by} cannot")),
    "e2drive": (("E2D-RWD-2", "NOT_ACTOR", "only the judge enters a rewind, not {by}"),
                ("E2D-RWD-2", "NOT_ACTOR", "only the judge enters a correction, not {by}")),
    "pbwcg": (None, None),
    "nim": (("NIM-JDG-1", None, "only the judge may rewind"), ("NIM-JDG-1", None, "only the judge may correct")),
}

#: whether a game's golden matches offer the judge a rewind somewhere (E2Drive and PBWCG offer none)
OFFERING = {"bacdef": True, "builddivide": True, "demonbrave": True, "e2drive": False, "pbwcg": False}


def fold_of(lines: list[dict]) -> Fold:
    game = registry.get(lines[0]["game"])
    fold = Fold(game, "t")
    for seq, line in enumerate(lines, 1):
        fields = {k: v for k, v in line.items() if k not in ("type", "by", "seq")}
        fold.advance(decode_event(game, line["type"], line["by"], fields), seq)
    return fold


def golden(name: str) -> list[Path]:
    return sorted((FIXTURES / name / "golden").glob("*.jsonl"))


def a_match(name: str) -> Fold:
    """A match of ``name`` with a few plain events: nim's opening and takes, else the first golden
    match of the game with at least four events before its first rewind or correction, up to it."""
    if name == "nim":
        takes = [{"type": "take", "by": p, "player": p, "count": 1} for p in ("alice", "bob", "alice")]
        return fold_of([*NIM_START, *takes])
    for path in golden(name):
        lines = [json.loads(x) for x in accepted_lines(path)]
        first = next((i for i, x in enumerate(lines) if x["type"] in ("rewind", "correct")), len(lines))
        if first >= 4:
            return fold_of(lines[:first])
    raise AssertionError(f"{name} has no golden match to go back in")


def refusal(fold: Fold, event) -> Violation | None:
    try:
        fold.preview(event, fold.head + 1)
    except Violation as v:
        return v
    return None


@pytest.mark.parametrize("name", registry.names())
def test_a_players_rewind_and_correction_meet_the_kits_gate(name):
    fold = a_match(name)
    game = fold.game
    player = fold.players[0]
    eff = fold.effective_order()
    last = next(e for s, e in reversed(fold.log) if s == eff[-1])
    inner = {"type": event_type(last), "by": last.by, **event_fields(last)}
    rewind = decode_event(game, "rewind", player, {"to_seq": eff[-2], "reason": "back"})
    correct = decode_event(game, "correct", player, {"at_seq": eff[-1], "event": inner, "reason": "missed"})
    assert (isinstance(rewind, Rewind), isinstance(correct, Correct)) == (True, True)
    if name in GATES:
        declared = [None if g is None else g[:2] for g in GATES[name]]
        assert [game.rewind_rule, game.correct_rule] == declared
    for event, rule in ((rewind, game.rewind_rule), (correct, game.correct_rule)):
        head, state = fold.head, fold.state
        if rule is None:  # the kit lets it through to the game's own step
            assert game.check_judge_only(event) is None
            continue
        v = refusal(fold, event)
        assert v is not None, f"{name}: {player}'s {event_type(event)} was accepted"
        assert (v.rule_id, v.code, v.message) == (*rule, game.judge_only_text(event))
        assert (fold.head, fold.state) == (head, state)
        if name in GATES:
            words = GATES[name][0 if isinstance(event, Rewind) else 1][2]
            assert v.message == words.format(by=player)
    # the judge passes the kit's gate (the game's own limits may still refuse)
    for event in (rewind, correct):
        judge_event = decode_event(game, event_type(event), JUDGE, event_fields(event))
        assert game.check_judge_only(judge_event) is None


def fields_of(action: LegalAction, name: str, value) -> dict:
    """The fields of an offered action with ``name`` set to ``value`` and every other field at its
    first allowed value (an optional one left out)."""
    out = {}
    for field, c in action.choices.items():
        if field == name:
            out[field] = value
        elif c.optional:
            continue
        elif c.kind == "one":
            out[field] = c.values[0]
        elif c.kind == "some":
            out[field] = list(c.values[: c.min])
        elif c.kind == "int":
            out[field] = c.min
        else:
            out[field] = "offered"
    return out


def check_offers(fold: Fold) -> int:
    """Every rewind target and insertion point ``open_now`` offers is an effective seq and is
    accepted by the fold; the number checked."""
    eff = set(fold.effective_order())
    checked = 0
    for action in fold.open_now():
        key = {"rewind": "to_seq", "correct": "at_seq"}.get(action.type)
        if key is None:
            continue
        for seq in action.choices[key].values:
            assert seq in eff, f"{action.type} offers {key}={seq}, not an effective seq"
            event = decode_event(fold.game, action.type, action.who, fields_of(action, key, seq))
            v = refusal(fold, event)
            assert v is None, f"offered {action.type} {key}={seq} after seq {fold.head} was refused: {v}"
            checked += 1
    return checked


@pytest.mark.parametrize("name", real_games())
def test_offered_rewind_targets_are_effective_seqs_the_fold_accepts(name):
    checked = 0
    for path in golden(name):
        lines = [json.loads(x) for x in accepted_lines(path)]
        game = registry.get(lines[0]["game"])
        fold = Fold(game, "t")
        for seq, line in enumerate(lines, 1):
            fields = {k: v for k, v in line.items() if k not in ("type", "by", "seq")}
            fold.advance(decode_event(game, line["type"], line["by"], fields), seq)
            if seq % 5 == 0 or seq == len(lines):
                checked += check_offers(fold)
    if name in OFFERING:
        assert (checked > 0) == OFFERING[name], f"{name}: {checked} offered rewind targets"


@pytest.mark.parametrize("name", real_games())
def test_a_fold_resumed_from_a_snapshot_offers_what_the_whole_fold_does(name):
    """A resumed fold has the effective seqs, not the events: the offer folds nothing again."""
    for path in golden(name):
        lines = [json.loads(x) for x in accepted_lines(path)]
        fold = fold_of(lines)
        if fold.effective_order()[-1] != fold.head:  # a judge's call at the head: not compacted there
            continue
        whole = fold.open_now()
        resumed = fold.compacted()
        assert resumed.resumed_at == fold.head
        assert resumed.open_now() == whole, path.name


def test_legal_at_adds_the_judges_rewind_to_every_earlier_effective_seq_by_default():
    """The kit's defaults, on nim's state with its own opt-out taken away."""
    from tests.toygame import Nim

    class Plain(Nim):
        rewind_offer = Game.rewind_offer  # the kit's

    fold = a_match("nim")
    game, ctx = Plain(), fold.context(fold.head + 1)
    offered = game.legal_at(fold.state, ctx)
    assert offered[:-1] == fold.game.legal(fold.state)
    rewind = offered[-1]
    assert (rewind.who, rewind.type, rewind.anytime) == (JUDGE, "rewind", True)
    assert rewind.choices["to_seq"].values == (1, 2, 3)
    assert isinstance(fold.log[0][1], MatchStarted)


def test_a_correction_offered_the_documented_way_is_accepted_at_every_point():
    """adding-a-game.md: ``correct_offer`` from ``insertion_points`` of the rewind targets and
    ``correct_action`` with an event accepted before every point (nimx's judge's ``adjust``)."""
    from tests import spinegame

    class Offering(spinegame.NimX):
        def correct_offer(self, state, ctx):
            at = insertion_points(ctx, self.rewind_targets(state, ctx))
            return correct_action(at, [{"type": "adjust", "by": JUDGE, "delta": 1}], note="a stone put back")

    game = Offering()
    fold = Fold(game, "t")
    lines = [("match_started", JUDGE, {"game": "nimx", "players": ["alice", "bob"], "options": {"pile": 9}}),
             *(("take", p, {"player": p, "count": 1}) for p in ("alice", "bob", "alice"))]
    for seq, (t, by, fields) in enumerate(lines, 1):
        fold.advance(decode_event(game, t, by, fields), seq)
    offered = [a for a in fold.open_now() if a.type == "correct"]
    assert [(a.who, a.anytime, a.choices["at_seq"].values) for a in offered] == [(JUDGE, True, (2, 3, 4))]
    assert check_offers(fold) == 3  # before 2, 3 and 4 (nim enters its rewinds, offers none)
