"""The generic fold over the toy games: rewinds, corrections, branches, contexts and decoding."""

from __future__ import annotations

import copy

import msgspec
import pytest

from adjudicator.engine.fold import (
    RULE_CORRECT_TARGET,
    RULE_REWIND_TARGET,
    Branch,
    GONE,
    Fold,
    decode_event,
    event_fields,
    malformed_from,
)
from adjudicator.engine.protocol import Malformed, NotEffective, Violation
from adjudicator.engine import fold as fold_module
from adjudicator.engine import registry
from tests import spinegame
from tests.toygame import NimCorrect, NimRewind, Take

NIM = registry.get("nim")
NIMX = spinegame.GAME


def ev(g, type_, by="judge", /, **fields):
    return decode_event(g, type_, by, fields)


def take(game, player, count, by=None):
    return ev(game, "take", by or player, player=player, count=count)


def rewind(game, to_seq, by="judge"):
    return ev(game, "rewind", by, to_seq=to_seq, reason="backup")


def correct(game, at_seq, inner, by="judge"):
    return ev(game, "correct", by, at_seq=at_seq, event=inner, reason="forgotten")


def adjust(delta, by="judge"):
    return {"type": "adjust", "by": by, "delta": delta}


def started(game, pile=10, version=None):
    fields = {"game": game.name, "players": ["alice", "bob"], "options": {"pile": pile}}
    if version is not None:
        fields["rules_version"] = version
    return ev(game, "match_started", **fields)


def play(game, *events, pile=10):
    """A fold with match_started at seq 1 and then ``events`` at seqs 2, 3, ..."""
    fold = Fold(game, "m1")
    fold.advance(started(game, pile), 1)
    for seq, event in enumerate(events, 2):
        fold.advance(event, seq)
    return fold


def _parts(fold):
    return {
        "entries": fold.entries,
        "log": fold.log,
        "branches": fold.branches,
        "history": fold.history,
        "pos": fold._pos,
        "eff": fold._effective_seqs,
    }


def snapshot(fold):
    """Everything a rejected event must leave alone, with a shallow copy of each to compare."""
    return {k: (v, copy.copy(v)) for k, v in _parts(fold).items()}


def assert_unchanged(fold, before):
    """Same objects, same contents by value, and the same items by identity."""
    for key, now in _parts(fold).items():
        obj, was = before[key]
        assert now is obj, f"{key} was replaced"
        assert now == was, f"{key} changed"
        if isinstance(now, dict):
            assert all(now[k] is was[k] for k in was), f"an item of {key} was replaced"
        else:
            assert all(a is b for a, b in zip(now, was, strict=True)), f"an item of {key} was replaced"


# -- rewind --------------------------------------------------------------------------------------
def nim_rewound():
    # 2 alice 1 (9), 3 bob 2 (7), 4 alice 3 (4), 5 rewind to 3
    return play(NIM, take(NIM, "alice", 1), take(NIM, "bob", 2), take(NIM, "alice", 3), rewind(NIM, 3))


def test_rewind_keeps_events_up_to_target_then_itself():
    fold = nim_rewound()
    assert fold.effective_order() == [1, 2, 3, 5]
    assert fold.effective_seqs() == {1, 2, 3, 5}
    assert [e.seq for e in fold.entries] == [1, 2, 3, 5]
    assert fold.branches == [Branch(rewind_seq=5, to_seq=3, abandoned=(4,))]
    # the state after the rewind is the state at seq 3, plus the rewind nim counts
    assert fold.state == msgspec.structs.replace(fold.state_at(3), rewinds=1)
    assert fold.state.pile == 7 and fold.state.turn == 0


def test_play_goes_on_after_the_rewind():
    fold = nim_rewound()
    fold.advance(take(NIM, "alice", 2), 6)
    assert fold.effective_order() == [1, 2, 3, 5, 6]
    assert fold.state.pile == 5
    assert fold.state.taken == (3, 2)
    assert fold.state.rewinds == 1


def test_abandoned_seq_keeps_the_state_of_its_own_branch():
    fold = nim_rewound()
    fold.advance(take(NIM, "alice", 1), 6)
    assert fold.state_at(4).pile == 4 and fold.state_at(4).taken == (4, 2)
    assert fold.state_at(6).pile == 6 and fold.state_at(6).taken == (2, 2)
    assert 4 not in fold.effective_seqs()
    with pytest.raises(NotEffective, match="seq 4 is not an event of the effective history"):
        fold.effective_state_at(4)
    # the log keeps every accepted event, abandoned ones included
    assert [s for s, _ in fold.log] == [1, 2, 3, 4, 5, 6]


def test_rewind_to_a_rewind_and_to_match_started():
    fold = nim_rewound()
    fold.advance(take(NIM, "alice", 1), 6)
    fold.advance(rewind(NIM, 5), 7)
    assert fold.effective_order() == [1, 2, 3, 5, 7]
    assert fold.state == msgspec.structs.replace(fold.state_at(5), rewinds=2)
    assert fold.branches[-1] == Branch(7, 5, (6,))
    fold.advance(rewind(NIM, 1), 8)
    assert fold.effective_order() == [1, 8]
    assert fold.branches[-1] == Branch(8, 1, (2, 3, 5, 7))
    assert fold.state.pile == 10 and fold.state.rewinds == 3


@pytest.mark.parametrize(
    "to_seq, why",
    [(4, "abandoned"), (6, "itself"), (7, "later"), (0, "before the match"), (-3, "negative")],
)
def test_rewind_to_a_seq_outside_the_effective_history_is_refused(to_seq, why):
    fold = nim_rewound()
    before = snapshot(fold)
    with pytest.raises(Violation) as err:
        fold.advance(rewind(NIM, to_seq), 6)
    assert err.value.rule_id == RULE_REWIND_TARGET
    assert err.value.message == (
        f"cannot rewind to seq {to_seq}: it is not an earlier event of the effective history"
    )
    assert_unchanged(fold, before)


def test_the_game_rejects_a_rewind_before_the_target_check():
    fold = nim_rewound()
    with pytest.raises(Violation) as err:
        fold.advance(rewind(NIM, 99, by="alice"), 6)
    assert err.value.rule_id == "NIM-JDG-1"
    assert err.value.message == "only the judge may rewind"


def test_rewind_to_the_seq_of_an_inserted_event_whose_correct_was_abandoned():
    g = NIMX
    # 2 alice 1, 3 bob 1, 4 correct: adjust +3 before 3, 5 alice 1, 6 rewind to 3
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), correct(g, 3, adjust(3)), take(g, "alice", 1), rewind(g, 3))
    # the inserted adjust sits before seq 3, so it stays in the effective history ...
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (2, False), (4, True), (3, False), (6, False)]
    assert fold.effective_order() == [1, 2, 3, 6]
    assert fold.branches[-1] == Branch(6, 3, (4, 5))
    # ... and the state after the rewind is the state at 3 as the effective history now has it
    assert fold.state.pile == 11 and fold.state.rewinds == 1
    assert fold.state == msgspec.structs.replace(fold.effective_state_at(6), rewinds=1)
    # seq 4 (the correct) is abandoned: its inserted event gives it no place to rewind to
    with pytest.raises(Violation) as err:
        fold.advance(rewind(g, 4), 7)
    assert err.value.rule_id == RULE_REWIND_TARGET


# -- correct -------------------------------------------------------------------------------------
def test_correct_inserts_between_at_seq_minus_one_and_at_seq():
    g = NIMX
    # pile 10: 2 alice 2 (8), 3 bob 2 (6), 4 correct: adjust +5 before 3
    fold = play(g, take(g, "alice", 2), take(g, "bob", 2), correct(g, 3, adjust(5)))
    assert [(e.seq, e.inserted, type(e.event).__name__) for e in fold.entries] == [
        (1, False, "NimStarted"),
        (2, False, "Take"),
        (4, True, "Adjust"),
        (3, False, "Take"),
        (4, False, "NimCorrect"),
    ]
    assert [s.pile for s in fold.line_states()] == [10, 8, 13, 11, 11]
    assert fold.state.pile == 11 and fold.state.corrections == 1 and fold.state.turn == 0
    assert fold.effective_order() == [1, 2, 3, 4]
    assert fold.effective_seqs() == {1, 2, 3, 4}
    # state_at is the state as folded; effective_state_at has the correction in it
    assert fold.state_at(3).pile == 6
    assert fold.effective_state_at(3).pile == 11
    assert fold.state_at(4) == fold.state


def test_correct_rechecks_later_events_and_reports_the_first_conflict():
    g = NIMX
    # pile 10: 2 alice 3 (7), 3 bob 3 (4), 4 alice 3 (1)
    fold = play(g, take(g, "alice", 3), take(g, "bob", 3), take(g, "alice", 3))
    before = snapshot(fold)
    # adjust -5 before 3: pile 2, then bob 3 (seq 3) and alice 3 (seq 4) both fail; 3 is reported
    with pytest.raises(Violation) as err:
        fold.advance(correct(g, 3, adjust(-5)), 5)
    assert err.value.rule_id == "NIM-TAKE-2"
    assert err.value.message == (
        "the correction conflicts with seq 3 (take), which would no longer hold: "
        "only 2 stones remain; bob tried to take 3"
    )
    assert_unchanged(fold, before)
    # adjust -4 before 4: pile 0 -> refused by the inserted event itself
    with pytest.raises(Violation) as err:
        fold.advance(correct(g, 4, adjust(-4)), 5)
    assert err.value.rule_id == "NIMX-ADJ-1"
    assert err.value.message == (
        "the inserted adjust cannot stand before seq 4: the pile has 4 stones; it cannot change by -4"
    )
    # adjust -2 before 4: pile 2, alice 3 at seq 4 fails
    with pytest.raises(Violation) as err:
        fold.advance(correct(g, 4, adjust(-2)), 5)
    assert err.value.rule_id == "NIM-TAKE-2"
    assert "seq 4 (take)" in err.value.message
    assert_unchanged(fold, before)


def test_correct_in_plain_nim_conflicts_on_turn():
    fold = play(NIM, take(NIM, "alice", 1), take(NIM, "bob", 1))
    with pytest.raises(Violation) as err:
        fold.advance(correct(NIM, 3, {"type": "take", "by": "judge", "player": "bob", "count": 2}), 4)
    assert err.value.rule_id == "NIM-TURN-1"
    assert err.value.message == (
        "the correction conflicts with seq 3 (take), which would no longer hold: it is alice's turn, not bob's"
    )


@pytest.mark.parametrize("at_seq", [1, 0, 4, 5, 99])
def test_correct_target_outside_the_effective_history_is_refused(at_seq):
    fold = play(NIMX, take(NIMX, "alice", 1), take(NIMX, "bob", 1))  # head 3; the correct is seq 4
    before = snapshot(fold)
    with pytest.raises(Violation) as err:
        fold.advance(correct(NIMX, at_seq, adjust(1)), 4)
    assert err.value.rule_id == RULE_CORRECT_TARGET
    assert err.value.message == (
        f"cannot insert before seq {at_seq}: it is not a later event of the effective history"
    )
    assert_unchanged(fold, before)


def test_correct_before_an_abandoned_event_is_refused():
    fold = nim_rewound()
    with pytest.raises(Violation) as err:
        fold.advance(correct(NIM, 4, {"type": "take", "by": "alice", "player": "alice", "count": 1}), 6)
    assert err.value.rule_id == RULE_CORRECT_TARGET


def test_the_game_gates_a_correct_first():
    fold = play(NIMX, take(NIMX, "alice", 1))
    with pytest.raises(Violation) as err:
        fold.advance(correct(NIMX, 99, adjust(1), by="bob"), 3)
    assert err.value.rule_id == "NIM-JDG-1"
    assert err.value.message == "only the judge may correct"


@pytest.mark.parametrize("inner_type", ["match_started", "rewind", "correct"])
def test_a_correction_cannot_insert_history_events(inner_type):
    inner = {
        "match_started": {"type": "match_started", "by": "judge", "game": "nimx", "players": ["a", "b"]},
        "rewind": {"type": "rewind", "by": "judge", "to_seq": 1, "reason": "x"},
        "correct": {"type": "correct", "by": "judge", "at_seq": 2, "event": adjust(1), "reason": "x"},
    }[inner_type]
    with pytest.raises(Malformed) as err:
        correct(NIMX, 2, inner)
    assert err.value.message == f"a correction cannot insert a {inner_type!r} event"
    assert err.value.path == "$.event.type"
    # built without decoding, the fold refuses it the same way and changes nothing
    fold = play(NIMX, take(NIMX, "alice", 1))
    before = snapshot(fold)
    raw = NimCorrect(at_seq=2, event=inner, reason="x", by="judge")
    with pytest.raises(Malformed) as err:
        fold.advance(raw, 3)
    assert err.value.path == "$.event.type"
    assert_unchanged(fold, before)


@pytest.mark.parametrize(
    "inner, message, path",
    [
        ({"by": "judge", "delta": 1}, "the corrected event needs a string 'type'", "$.event.type"),
        ({"type": "adjust", "delta": 1}, "the corrected event needs a string 'by'", "$.event.by"),
        ({"type": "adjust", "by": "judge", "delta": "x"}, "adjust: delta is a whole number, not 'x'", "$.event.delta"),
        ({"type": "adjust", "by": "judge"}, "adjust: delta is missing (its fields: delta)", "$.event.delta"),
        ({"type": "nope", "by": "judge"}, "unknown action 'nope'; did you mean note? (adj legal MATCH lists the actions open now)", "$.event.type"),
        ({"type": "adjust", "by": "judge", "delta": 1, "seq": 3}, "field 'seq' is reserved for the envelope", "$.event.seq"),
    ],
)
def test_a_malformed_inserted_event_names_its_path(inner, message, path):
    with pytest.raises(Malformed) as err:
        correct(NIMX, 2, inner)
    assert (err.value.message, err.value.path) == (message, path)


def test_the_inserted_event_is_stored_in_its_declared_types():
    loose = decode_event(NIMX, "correct", "judge", {"at_seq": "2", "event": {"type": "adjust", "by": "judge", "delta": "4"}, "reason": "r"}, strict=False)
    assert loose.at_seq == 2
    assert loose.event == {"type": "adjust", "by": "judge", "delta": 4}
    assert event_fields(loose) == {"at_seq": 2, "event": {"type": "adjust", "by": "judge", "delta": 4}, "reason": "r"}
    with pytest.raises(Malformed) as err:  # strict decoding stays strict inside
        decode_event(NIMX, "correct", "judge", {"at_seq": 2, "event": {"type": "adjust", "by": "judge", "delta": "4"}, "reason": "r"})
    assert err.value.path == "$.event.delta"


# -- nested cases ---------------------------------------------------------------------------------
def test_correction_after_a_rewind_replays_only_the_effective_history():
    g = NIMX
    # 2 alice 3 (7), 3 bob 3 (4), 4 rewind to 2 (7, bob to move), 5 bob 3 (4), 6 alice 3 (1)
    fold = play(g, take(g, "alice", 3), take(g, "bob", 3), rewind(g, 2), take(g, "bob", 3), take(g, "alice", 3))
    # adjust -1 before 5: pile 6, bob 3 (3), alice 3 (0): alice wins. The abandoned seq 3 is not replayed.
    fold.advance(correct(g, 5, adjust(-1)), 7)
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (2, False), (4, False), (7, True), (5, False), (6, False), (7, False)]
    assert fold.state.pile == 0 and fold.state.winner == "alice" and fold.state.rewinds == 1
    assert fold.effective_order() == [1, 2, 4, 5, 6, 7]
    assert fold.branches == [Branch(4, 2, (3,))]


def test_correction_whose_replay_includes_an_earlier_rewind():
    g = NIMX
    # 2 alice 3 (7), 3 bob 3 (4), 4 rewind to 2 (7), 5 bob 2 (5); then adjust -1 before 2
    fold = play(g, take(g, "alice", 3), take(g, "bob", 3), rewind(g, 2), take(g, "bob", 2))
    fold.advance(correct(g, 2, adjust(-1)), 6)
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (6, True), (2, False), (4, False), (5, False), (6, False)]
    assert [s.pile for s in fold.line_states()] == [10, 9, 6, 6, 4, 4]
    assert fold.state.rewinds == 1 and fold.state.corrections == 1
    assert fold.branches == [Branch(4, 2, (3,))]  # the replayed rewind adds no branch
    # inserted after the rewind's target, the event is cut by the replayed rewind
    fold.advance(correct(g, 4, adjust(-1)), 7)
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (6, True), (2, False), (4, False), (5, False), (6, False), (7, False)]
    assert fold.state.pile == 4 and fold.state.corrections == 2


def test_correction_whose_replay_includes_an_earlier_correction():
    g = NIMX
    # 2 alice 1 (9), 3 bob 1 (8), 4 correct: adjust +5 before 3 (13), 5 correct: adjust +1 before 2 (14)
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), correct(g, 3, adjust(5)), correct(g, 2, adjust(1)))
    # each inserted event is in the effective history exactly once
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (5, True), (2, False), (4, True), (3, False), (4, False), (5, False)]
    assert fold.state.pile == 14 and fold.state.corrections == 2
    assert fold.effective_order() == [1, 2, 3, 4, 5]


def test_a_correction_that_breaks_an_earlier_inserted_event_names_it():
    g = NIMX
    # 2 alice 1 (9), 3 bob 1 (8), 4 correct: adjust -6 before 3 (3, then bob 1 -> 2)
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), correct(g, 3, adjust(-6)))
    assert fold.state.pile == 2
    before = snapshot(fold)
    with pytest.raises(Violation) as err:  # adjust -3 before 2 leaves 6 stones for the adjust -6 of seq 4
        fold.advance(correct(g, 2, adjust(-3)), 5)
    assert err.value.rule_id == "NIMX-ADJ-1"
    assert err.value.message == (
        "the correction conflicts with the adjust inserted by seq 4, which would no longer hold: "
        "the pile has 6 stones; it cannot change by -6"
    )
    assert_unchanged(fold, before)


def test_rewind_after_a_correction_returns_to_the_corrected_state():
    g = NIMX
    # 2 alice 2 (8), 3 bob 2 (6), 4 correct: adjust +5 before 3 (11), 5 alice 1 (10), 6 rewind to 3
    fold = play(g, take(g, "alice", 2), take(g, "bob", 2), correct(g, 3, adjust(5)), take(g, "alice", 1), rewind(g, 3))
    assert fold.state.pile == 11 and fold.state.turn == 0 and fold.state.rewinds == 1
    assert fold.branches == [Branch(6, 3, (4, 5))]
    # rewinding to the correction itself keeps it
    fold2 = play(g, take(g, "alice", 2), take(g, "bob", 2), correct(g, 3, adjust(5)), take(g, "alice", 1), rewind(g, 4))
    assert fold2.state.pile == 11 and fold2.state.corrections == 1
    assert fold2.effective_order() == [1, 2, 3, 4, 6]
    assert fold2.branches == [Branch(6, 4, (5,))]


# -- a rejected event changes nothing -----------------------------------------------------------------
def rejected_cases():
    g = NIMX
    return [
        ("illegal take", take(g, "bob", 1), Violation),
        ("too many", take(g, "alice", 4), Violation),
        ("rewind to abandoned", rewind(g, 3), Violation),
        ("rewind by a player", rewind(g, 2, by="alice"), Violation),
        ("conflicting correction", correct(g, 5, adjust(-7)), Violation),
        ("correction before abandoned", correct(g, 3, adjust(1)), Violation),
        ("second match_started", started(g), Malformed),
        ("raw bad correction", NimCorrect(at_seq=5, event={"type": "rewind", "by": "judge", "to_seq": 1, "reason": "r"}, reason="r", by="judge"), Malformed),
    ]


@pytest.mark.parametrize("name, event, error", rejected_cases(), ids=[c[0] for c in rejected_cases()])
def test_a_rejected_event_changes_nothing(name, event, error):
    g = NIMX
    fold = play(g, take(g, "alice", 3), take(g, "bob", 3), rewind(g, 2), take(g, "bob", 2), correct(g, 5, adjust(1)))
    before = snapshot(fold)
    entries_before = list(fold.entries)
    with pytest.raises(error):
        fold.preview(event, fold.head + 1)
    with pytest.raises(error):
        fold.advance(event, fold.head + 1)
    assert_unchanged(fold, before)
    assert all(a is b for a, b in zip(fold.entries, entries_before, strict=True))


def test_preview_changes_nothing_when_accepted():
    g = NIMX
    fold = play(g, take(g, "alice", 3), take(g, "bob", 3))
    before = snapshot(fold)
    for event in (take(g, "alice", 1), rewind(g, 2), correct(g, 3, adjust(1))):
        state = fold.preview(event, 4)
        assert_unchanged(fold, before)
        assert state == play(g, take(g, "alice", 3), take(g, "bob", 3), event).state


# -- the context a check receives ---------------------------------------------------------------------
class Probe(spinegame.NimX):
    """Records what each check saw; looks the rewind target up before any other check."""

    def __init__(self):
        self.seen = []

    def check(self, state, event, ctx):
        self.seen.append((ctx.seq, type(event).__name__, ctx.log, ctx.effective))
        if isinstance(event, NimRewind):
            ctx.state_at(event.to_seq)  # NotEffective when the target is not there
        return super().check(state, event, ctx)


def test_the_context_is_a_snapshot_of_the_log_and_effective_history():
    g = Probe()
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), rewind(g, 2), take(g, "bob", 2), take(g, "alice", 1))
    seen = {seq: (log, eff) for seq, _, log, eff in g.seen}
    # the rewind at 4 saw the whole log before it, and later events did not leak in
    assert [s for s, _ in seen[4][0]] == [1, 2, 3]
    assert list(seen[4][1]) == [1, 2, 3]
    assert [s for s, _ in seen[5][0]] == [1, 2, 3, 4]
    assert list(seen[5][1]) == [1, 2, 4]
    assert [s for s, _ in seen[6][0]] == [1, 2, 3, 4, 5]  # abandoned 3 included
    assert seen[6][1] == [1, 2, 4, 5]
    assert seen[4][0][-1][0] == 3 and len(seen[4][0]) == 3 and seen[4][0][:2] == fold.log[:2]


def test_recheck_during_a_correction_sees_the_log_before_the_rechecked_event(monkeypatch):
    monkeypatch.setattr(fold_module, "KEEP", 1)  # every state kept: only the checks are seen
    g = Probe()
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), take(g, "alice", 1))
    g.seen.clear()
    fold.advance(correct(g, 3, adjust(2)), 5)
    seen = [(seq, kind, [s for s, _ in log], list(eff)) for seq, kind, log, eff in g.seen]
    assert seen == [
        (5, "NimCorrect", [1, 2, 3, 4], [1, 2, 3, 4]),
        (5, "Adjust", [1, 2, 3, 4], [1, 2]),
        (3, "Take", [1, 2], [1, 2]),
        (4, "Take", [1, 2, 3], [1, 2, 3]),
        (5, "NimCorrect", [1, 2, 3, 4], [1, 2, 3, 4]),  # step on the corrected history: the state after it
    ]


def test_a_game_looking_up_a_bad_rewind_target_gets_the_spine_rule():
    g = Probe()
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), rewind(g, 2))
    with pytest.raises(Violation) as err:
        fold.advance(rewind(g, 3), 5)  # abandoned
    assert err.value.rule_id == RULE_REWIND_TARGET


# -- decoding ---------------------------------------------------------------------------------------
class Slot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    x: int


class Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    slots: tuple[Slot, ...]


def validation_error(data):
    try:
        msgspec.convert(data, Row)
    except msgspec.ValidationError as exc:
        return exc
    raise AssertionError("no error")


@pytest.mark.parametrize(
    "data, message, path",
    [
        ({"slots": [{"x": 1}, {"x": "s"}]}, "play: slots[1].x is a whole number, not a word", "$.slots[1].x"),
        ({"slots": [{"x": 1}, {}]}, "play slots[1]: x is missing", "$.slots[1].x"),
        ({"slots": [{"x": 1}, {"x": 1, "y": 2}]}, "play slots[1]: no field 'y'", "$.slots[1].y"),
        ({"slots": [{"x": 1}, 3]}, "play: slots[1] is a JSON object, not a whole number", "$.slots[1]"),
        ({}, "play: slots is missing", "$.slots"),
    ],
)
def test_malformed_from_names_the_field_path(data, message, path):
    err = malformed_from(validation_error(data), "play")
    assert (err.message, err.path) == (message, path)
    assert str(err) == f"{message} (at {path})"
    under = malformed_from(validation_error(data), "play", "line 4: $")
    assert under.path == "line 4: " + path


def test_unknown_action_only_for_the_top_level_tag():
    err = malformed_from(msgspec.ValidationError("Invalid value 'x' - at `$.type`"), "x")
    assert (err.message, err.path) == ("unknown action 'x' (adj legal MATCH lists the actions open now)", "$.type")
    nested = malformed_from(msgspec.ValidationError("Invalid value 'q' - at `$.slots[0].type`"), "play")
    assert (nested.message, nested.path) == ("play: Invalid value 'q'", "$.slots[0].type")
    near = malformed_from(msgspec.ValidationError("Invalid value 'q' - at `$.subtype`"), "play")
    assert near.message == "play: Invalid value 'q'"


@pytest.mark.parametrize(
    "type_, fields, message, path",
    [
        ("x", {}, "unknown action 'x' (adj legal MATCH lists the actions open now)", "$.type"),
        ("take", {"player": "alice", "count": "2"}, "take: count is a whole number, not '2'", "$.count"),
        ("take", {"player": "alice"}, "take: count is missing (its fields: player, count)", "$.count"),
        ("take", {"player": "alice", "count": 1, "cnt": 1}, "take: no field 'cnt' (its fields: player, count)", "$.cnt"),
        ("take", {"player": "alice", "count": 1, "seq": 4}, "field 'seq' is reserved for the envelope", "$.seq"),
        ("take", {"player": "alice", "count": 1, "type": "rewind"}, "field 'type' is reserved for the envelope", "$.type"),
        ("take", {"player": "alice", "count": 1, "by": "bob"}, "field 'by' is reserved for the envelope", "$.by"),
    ],
)
def test_decode_errors(type_, fields, message, path):
    with pytest.raises(Malformed) as err:
        decode_event(NIM, type_, "alice", fields)
    assert (err.value.message, err.value.path) == (message, path)


def test_decode_accepts_its_own_type_and_by_among_the_fields():
    event = decode_event(NIM, "take", "alice", {"type": "take", "by": "alice", "player": "alice", "count": 1})
    assert event == Take(player="alice", count=1, by="alice")


def test_non_strict_decoding_converts_strings():
    assert decode_event(NIM, "take", "alice", {"player": "alice", "count": "2"}, strict=False).count == 2


# -- match_started and sequencing ---------------------------------------------------------------------
def test_unknown_rules_version_is_refused_by_name():
    fold = Fold(NIM, "m1")
    with pytest.raises(Malformed) as err:
        fold.advance(started(NIM, version="9"), 1)
    assert err.value.message == "unknown rules version '9' for nim; known: 1"
    assert err.value.path == "$.rules_version"
    assert fold.log == [] and fold.entries == [] and fold.history == {}
    fold.advance(started(NIM, version="1"), 1)
    assert fold.state.pile == 10


def test_a_match_begins_with_match_started_once():
    fold = Fold(NIM, "m1")
    with pytest.raises(Malformed, match="a match begins with match_started, not 'take'"):
        fold.advance(take(NIM, "alice", 1), 1)
    fold.advance(started(NIM), 1)
    with pytest.raises(Malformed, match="match_started may only be the first event of a match"):
        fold.advance(started(NIM), 2)


def test_game_setup_violation_from_initial():
    fold = Fold(NIM, "m1")
    with pytest.raises(Violation) as err:
        fold.advance(ev(NIM, "match_started", game="nim", players=["a", "a"]), 1)
    # the player count is declared by the game and checked by the fold, under the game's rule
    assert (err.value.rule_id, err.value.message) == ("NIM-SET-1", "Nim (test game) is played by 2 different players, not ['a', 'a']")
    assert fold.entries == [] and fold.log == []


def test_seq_must_follow_the_head():
    fold = play(NIM, take(NIM, "alice", 1))
    with pytest.raises(ValueError, match="seq 2 does not follow the head seq 2"):
        fold.advance(take(NIM, "bob", 1), 2)
    assert fold.head == 2


# -- cost of the plain path -----------------------------------------------------------------------------
def test_plain_advance_appends_in_place():
    fold = play(NIM, pile=100_000)
    entries, eff, pos, log = fold.entries, fold._effective_seqs, fold._pos, fold.log
    for seq in range(2, 502):
        player = ("alice", "bob")[seq % 2]
        fold.advance(take(NIM, player, 1), seq)
    assert fold.entries is entries and fold._effective_seqs is eff and fold._pos is pos and fold.log is log
    assert len(entries) == 501 and fold.state.pile == 100_000 - 500


def test_a_replayed_rewind_keeps_what_the_game_counted_when_it_was_made():
    g = NIMX
    # 2 alice 1 (9), 3 rewind to 2 (rewinds 1), 4 rewind to 2 again: it cuts 3 and counts 2
    fold = play(g, take(g, "alice", 1), rewind(g, 2), rewind(g, 2))
    assert fold.state.rewinds == 2 and fold.effective_order() == [1, 2, 4]
    # a correction before 2 replays the rewind at 4 on the corrected history: the pile changes,
    # the rewinds made do not (the rewind at 3 is not replayed, but it was made)
    fold.advance(correct(g, 2, adjust(2)), 5)
    assert fold.state.pile == 11 and fold.state.rewinds == 2 and fold.state.corrections == 1
    assert [(e.seq, e.inserted) for e in fold.entries] == [(1, False), (5, True), (2, False), (4, False), (5, False)]
    assert fold.branches == [Branch(3, 2, ()), Branch(4, 2, (3,))]


class _Counting:
    """The toy game, counting how often the fold asks it to step."""

    def __init__(self):
        from tests.toygame import GAME

        self._game = GAME
        self.calls = 0

    def __getattr__(self, name):
        return getattr(self._game, name)

    def step(self, state, event, ctx):
        self.calls += 1
        return self._game.step(state, event, ctx)


def test_advance_after_a_preview_of_the_same_event_does_no_second_pass():
    from adjudicator.engine.fold import Fold
    from tests.toygame import NimStarted

    game = _Counting()
    fold = Fold(game, "m")
    fold.advance(NimStarted(by="judge", game="nim", players=("a", "b")), 1)
    take = Take(by="a", player="a", count=2)
    previewed = fold.preview(take, 2)
    assert game.calls == 1  # one step
    assert fold.advance(take, 2) == previewed and previewed.pile == 8
    assert game.calls == 1  # reused
    # an equal but different object, or a fold that moved on, is computed afresh
    other = Take(by="b", player="b", count=1)
    fold.preview(other, 3)
    fold.advance(Take(by="b", player="b", count=1), 3)
    assert game.calls == 3 and fold.state.pile == 7


def test_a_state_given_up_is_computed_again_in_the_context_it_was_checked_in(monkeypatch):
    """With KEEP 4 most entries give their state up; computing one again steps from the nearest
    state kept, each event in the context it had when it was folded (the log before its seq, the
    line before it), and gives the state it had."""
    monkeypatch.setattr(fold_module, "KEEP", 4)
    g = Probe()
    fold = play(g, take(g, "alice", 1), take(g, "bob", 1), take(g, "alice", 1), take(g, "bob", 1),
                correct(g, 3, adjust(2)), take(g, "alice", 1), rewind(g, 5), take(g, "alice", 1), take(g, "bob", 1))
    first = {}
    for seq, kind, log, eff in g.seen:
        first.setdefault((seq, kind), ([s for s, _ in log], list(eff)))
    assert sum(e.state is GONE for e in fold.entries) >= 3
    kept = fold_module.KEEP
    monkeypatch.setattr(fold_module, "KEEP", 1)
    whole = play(Probe(), take(g, "alice", 1), take(g, "bob", 1), take(g, "alice", 1), take(g, "bob", 1),
                 correct(g, 3, adjust(2)), take(g, "alice", 1), rewind(g, 5), take(g, "alice", 1), take(g, "bob", 1))
    monkeypatch.setattr(fold_module, "KEEP", kept)
    g.seen.clear()
    assert fold.line_states() == whole.line_states()
    assert dict(fold.history.items()) == dict(whole.history.items())
    assert g.seen, "no state was computed again"
    for seq, kind, log, eff in g.seen:
        assert ([s for s, _ in log], list(eff)) == first[(seq, kind)], (seq, kind)
