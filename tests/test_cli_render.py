"""adjudicator/presentation/render.py: the text the command line prints, apart from any game."""

from __future__ import annotations

import json

import pytest

from adjudicator.engine.fold import Branch
from adjudicator.engine.protocol import LegalAction, Outcome
from adjudicator.engine.words import format_value, json_text, outcome_text
from adjudicator.presentation.render import MISSING, Change, change_line, diff, format_fields, history, history_lines, legal_lines, to_move
from events.envelope import Rejection, StoredEvent


def test_format_value_reads_back_as_field_value():
    assert [format_value(v) for v in (None, True, 3, "alice-7", "two words", "", [2, 1], ["A", "B"], [])] == [
        "null", "true", "3", "alice-7", '"two words"', '""', "[2,1]", "[A,B]", "[]"]
    assert format_value([{"op": "DAMAGE", "amount": 1}]) == '[{"op":"DAMAGE","amount":1}]'
    assert format_value({"pile": 7}) == '{"pile":7}'
    assert format_fields({"player": "bob", "slots": [2, 1], "note": "a b", "extra_of": None}) == (
        'player=bob slots=[2,1] note="a b"')


def test_outcome_text():
    assert outcome_text(Outcome(status="in_progress")) == "in progress"
    assert outcome_text(Outcome(status="won", winner="bob", score={"alice": 1, "bob": 2})) == "won by bob (alice 1, bob 2)"
    assert outcome_text(Outcome(status="void", detail="third contradiction")) == "void; third contradiction"


def test_legal_lines_group_by_who_in_the_games_order():
    legal = [
        LegalAction(who="bob", type="place", fields="card=<bob-1|bob-2>"),
        LegalAction(who="judge", type="rewind", note="contradiction only"),
        LegalAction(who="bob", type="concede"),
    ]
    assert to_move(legal) == ["bob", "judge"]
    assert legal_lines(legal) == ["bob: place card=<bob-1|bob-2>", "bob: concede", "judge: rewind  (contradiction only)"]


def test_diff_paths():
    old = {"pile": 7, "hands": {"a": ["x", "y"], "b": []}, "guards": [{"s": "U"}, {"s": "U"}], "gone": 1, "n": None}
    new = {"pile": 4, "hands": {"a": ["y"], "b": []}, "guards": [{"s": "S"}, {"s": "U"}], "added": [1], "n": 0}
    assert diff(old, new) == [
        Change("pile", 7, 4),
        Change("hands.a", ["x", "y"], ["y"]),
        Change("guards[0].s", "U", "S"),
        Change("gone", 1, MISSING),
        Change("n", None, 0),
        Change("added", MISSING, [1]),
    ]
    assert diff(old, old) == []
    assert diff(1, True) == [Change("$", 1, True)]  # equal in Python, not the same value


def test_diff_of_lists_of_objects_that_change_length_names_what_left_and_came():
    old = [{"id": "a-1"}, {"id": "a-2"}, {"id": "a-1"}]
    new = [{"id": "a-1"}, {"id": "a-3"}]
    assert diff({"q": old}, {"q": new}) == [
        Change("q[]", {"id": "a-2"}, MISSING),
        Change("q[]", {"id": "a-1"}, MISSING),
        Change("q[]", MISSING, {"id": "a-3"}),
    ]
    assert [change_line(c) for c in diff({"q": old, "n": 1}, {"q": new, "n": 2})][-2:] == [
        '+ q[]: {"id":"a-3"}', "  n: 1 -> 2"]
    assert change_line(Change("x", 1, MISSING)) == "- x: 1"


def _ev(seq: int, by: str, type_: str, **fields) -> StoredEvent:
    return StoredEvent(match_id="m", seq=seq, type=type_, by=by, recorded_at="", fields=fields, prev="", hash="")


def test_history_places_attempts_after_the_head_they_were_tried_at():
    events = [_ev(1, "judge", "match_started"), _ev(2, "alice", "take", n=1), _ev(3, "judge", "rewind", to_seq=1)]
    tried = [
        Rejection(match_id="m", head_seq=1, type="take", by="bob", recorded_at="", fields={"n": 9}, rule="R-1", message="no"),
        Rejection(match_id="m", head_seq=0, type="match_started", by="judge", recorded_at="", fields={}, rule="R-0", message="bad"),
        Rejection(match_id="m", head_seq=7, type="take", by="bob", recorded_at="", fields={}, rule="R-7", message="later"),
    ]
    rows = history(events, [Branch(3, 1, (2,))], tried)
    assert history_lines(rows) == [
        "x    judge  match_started  [rejected: R-0: bad]",
        "  1  judge  match_started",
        "x    bob    take           n=9  [rejected: R-1: no]",
        "~ 2  alice  take           n=1  [abandoned by rewind at 3]",
        "  3  judge  rewind         to_seq=1",
        "x    bob    take           [rejected: R-7: later]",
    ]
    assert rows[3].to_json() == {"kind": "event", "match_id": "m", "seq": 2, "type": "take", "by": "alice", "recorded_at": "",
                                 "fields": {"n": 1}, "prev": "", "hash": "", "abandoned_by": 3}
    assert rows[2].to_json() == {"kind": "rejected", "accepted": False, "match_id": "m", "head_seq": 1, "line": None,
                                 "type": "take", "by": "bob", "rule": "R-1", "code": None, "message": "no",
                                 "fields": {"n": 9}, "recorded_at": ""}


def test_legal_lines_show_structured_choices_where_the_game_gives_no_text():
    from adjudicator.engine.kit import integer, one, some
    from adjudicator.engine.protocol import LegalAction
    from adjudicator.presentation.render import action_json, legal_lines

    acts = [LegalAction(who="bob", type="assign", choices={"player": one("bob"), "slots": some([1, 2, 3], 1, 2)}),
            LegalAction(who="bob", type="take", fields="count=<1-3>", choices={"count": integer(1, 3)})]
    assert legal_lines(acts) == ["bob: assign player=bob slots=[1-2 of 1|2|3]", "bob: take count=<1-3>"]
    assert action_json(acts[0])["text"] == "assign player=bob slots=[1-2 of 1|2|3]"
    assert action_json(acts[0])["fields"]["slots"] == {"kind": "some", "values": (1, 2, 3), "min": 1, "max": 2, "optional": False}


@pytest.mark.parametrize("value", [
    [{"op": "NOTE", "text": "recorded by the judge"}], {"a": [1, True, None, 'quote " and back\\slash'], "b": {}},
    "two words", "café", ["café", "ok"], [1.5, 1e16, 1e-7], ["a\nb\tc\x7f\u2028"], ("a", (1, 2)), {"n": {"m": []}},
    "lone \ud800", {1: "int key"},
])
@pytest.mark.parametrize("ascii_only", [False, True])
def test_json_text_writes_what_json_writes(value, ascii_only):
    # written by msgspec where the two agree (no json import at most commands), by json otherwise:
    # the same text either way
    assert json_text(value, ascii_only) == json.dumps(value, ensure_ascii=ascii_only, separators=(",", ":"))


def test_a_list_that_changed_length_pairs_its_items_by_value():
    # the items kept are paired by their JSON, by msgspec or by json: a float among them too
    old = [{"id": "A", "n": 1}, {"id": "B", "x": 1.5}, {"id": "C", "s": "é"}]
    new = [{"id": "C", "s": "é"}, {"id": "D"}, {"x": 1.5, "id": "B"}, {"id": "A", "n": 1}]
    assert diff(old, new) == [Change("[]", MISSING, {"id": "D"})]
    assert diff(new, old) == [Change("[]", {"id": "D"}, MISSING)]
