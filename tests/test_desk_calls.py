"""Judge's calls in the chain (adjudicator/engine/judging.py): notes and penalties for every game without
code of its own, the state never changed, the outcome decided by a match loss, ADJ-JDG-1..4."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.engine import judging
from adjudicator.presentation.page import page_data
from adjudicator.engine.protocol import Malformed
from adjudicator.service import MatchService, MemoryStore, fold_stored
from cli import desk
from tests.test_cli import Adj, fails, ok
from tests.test_page import enter

BACDEF = "fixtures/bacdef/golden/ex-05-cap-and-fifth-point.jsonl"  # in progress, alice 1 set - bob 0
DEMONBRAVE = "fixtures/demonbrave/golden/ex03-single-vs-single.jsonl"


def nim(service: MatchService, match_id: str = "n") -> None:
    service.new("nim", ["alice", "bob"], options={"pile": 9}, match_id=match_id)
    service.submit(match_id, "take", "alice", {"player": "alice", "count": 2})


def warning(at: int = 2, player: str = "bob", penalty: str = "warning") -> dict:
    return {"player": player, "infraction": "slow play", "penalty": penalty, "at_seq": at, "reason": "third reminder"}


@pytest.fixture(params=["nim", "bacdef", "demonbrave"])
def any_game(request):
    service = MatchService(MemoryStore())
    if request.param == "nim":
        nim(service, "g")
    else:
        enter(service, BACDEF if request.param == "bacdef" else DEMONBRAVE, "g")
    return service


def test_a_note_and_a_penalty_change_no_game_state_in_any_game(any_game):
    service = any_game
    before = service.load("g")
    head, state, out = before.head, before.state, before.outcome()
    v = service.submit("g", "note", "judge", {"at_seq": 2, "text": "bob asked about <b>the cap</b>"})
    assert v.accepted and v.event.seq == head + 1
    v = service.submit("g", "penalty", "judge", warning())
    assert v.accepted and v.event.seq == head + 2
    after = service.load("g")  # verified and re-folded from the store
    assert after.state == state and after.fold.history[head + 2] is after.fold.history[head]
    assert after.outcome() == out
    assert after.fold.effective_order()[-1] == head  # outside the game's effective history
    assert [e.type for e in after.events[-2:]] == ["note", "penalty"]
    assert after.events[-1].prev == after.events[-2].hash  # in the same hash chain
    assert fold_stored(service.store.read("g")).state == state


def test_ADJ_JDG_1_only_the_judge_makes_a_call(any_game):
    service = any_game
    head = service.load("g").head
    v = service.submit("g", "note", "alice", {"at_seq": 1, "text": "I was right"})
    assert (v.accepted, v.violation.rule_id, v.violation.message) == (False, "ADJ-JDG-1", "only the judge enters a note; alice tried")
    v = service.submit("g", "penalty", "bob", warning(player="alice"))
    assert (v.accepted, v.violation.rule_id) == (False, "ADJ-JDG-1")
    assert service.store.head("g") == head
    assert [(r.type, r.rule) for r in service.store.rejections("g")][-2:] == [("note", "ADJ-JDG-1"), ("penalty", "ADJ-JDG-1")]


@pytest.mark.parametrize("at", [0, -1, 3, 99])
def test_ADJ_JDG_2_a_call_names_an_event_of_the_log(at):
    service = MatchService(MemoryStore())
    nim(service)
    v = service.submit("n", "note", "judge", {"at_seq": at, "text": "x"})
    assert (v.violation.rule_id, v.violation.message) == ("ADJ-JDG-2", f"a note is about an event of the log (seq 1 to 2), not seq {at}")
    assert service.store.head("n") == 2


def test_ADJ_JDG_3_a_penalty_names_a_player_of_the_match():
    service = MatchService(MemoryStore())
    nim(service)
    v = service.submit("n", "penalty", "judge", warning(player="carol"))
    assert (v.violation.rule_id, v.violation.message) == ("ADJ-JDG-3", "'carol' does not play in this match (alice, bob)")


def test_ADJ_JDG_4_a_match_loss_decides_the_match_and_ends_play():
    service = MatchService(MemoryStore())
    enter(service, BACDEF, "b")
    assert service.load("b").outcome().status == "in_progress"
    v = service.submit("b", "penalty", "judge", {**warning(at=12, penalty="match_loss"), "infraction": "marked cards", "reason": "sleeves"})
    assert v.accepted
    out = v.match.outcome()
    assert (out.status, out.winner, out.reason, out.score) == ("won", "alice", "penalty", {"alice": 1, "bob": 0})
    assert out.detail == "match loss for bob (marked cards; penalty at seq 38, about seq 12): sleeves"
    v = service.submit("b", "confirm_end_phase", "judge", {})
    assert (v.violation.rule_id, v.violation.message) == (
        "ADJ-JDG-4", "the match was decided by the match_loss of bob at seq 38; no more play is entered (a judge's note still may be)")
    v = service.submit("b", "rewind", "judge", {"to_seq": 30, "reason": "undo", "cause": "judge_error"})
    assert v.violation.rule_id == "ADJ-JDG-4"
    v = service.submit("b", "penalty", "judge", warning(player="alice", penalty="disqualification"))
    assert (v.violation.rule_id, v.violation.message) == ("ADJ-JDG-4", "the match was already decided by the match_loss of bob at seq 38")
    assert service.submit("b", "note", "judge", {"at_seq": 38, "text": "appeal lodged"}).accepted
    assert service.submit("b", "penalty", "judge", warning(player="alice")).accepted  # a warning still may be
    assert service.load("b").outcome() == out


def test_a_game_loss_decides_a_match_of_one_game_but_not_a_match_of_sets():
    service = MatchService(MemoryStore())
    enter(service, DEMONBRAVE, "d")
    assert service.load("d").outcome().score is None
    v = service.submit("d", "penalty", "judge", warning(at=5, player="alice", penalty="game_loss"))
    out = v.match.outcome()
    assert (out.status, out.winner, out.reason) == ("won", "bob", "penalty")
    service = MatchService(MemoryStore())
    enter(service, BACDEF, "b")
    v = service.submit("b", "penalty", "judge", warning(at=5, penalty="game_loss"))
    out = v.match.outcome()
    assert (out.status, out.winner, out.score) == ("in_progress", None, {"alice": 1, "bob": 0})
    assert out.detail == "game loss for bob (slow play; penalty at seq 38): the table enters the game's own concession"
    assert service.submit("b", "concede_set", "bob", {"player": "bob"}).accepted


def test_a_rewind_does_not_undo_a_call():
    service = MatchService(MemoryStore())
    nim(service)
    service.submit("n", "take", "bob", {"player": "bob", "count": 1})
    assert service.submit("n", "penalty", "judge", warning(at=3)).accepted
    v = service.submit("n", "rewind", "judge", {"to_seq": 2, "reason": "bob miscounted"})
    assert v.accepted
    fold = service.load("n").fold
    assert fold.branches[-1].abandoned == (3,)  # the take, not the penalty
    assert [(s, p.penalty) for s, p in fold.penalties] == [(4, "warning")]


def test_calls_are_malformed_with_a_path_when_fields_are_wrong():
    service = MatchService(MemoryStore())
    nim(service)
    with pytest.raises(Malformed) as exc:
        service.submit("n", "penalty", "judge", warning(penalty="yellow_card"))
    assert exc.value.path == "$.penalty"
    with pytest.raises(Malformed) as exc:
        service.submit("n", "note", "judge", {"at_seq": 1})
    assert exc.value.path == "$.text"
    with pytest.raises(Malformed) as exc:  # a correction inserts game events only
        service.submit("n", "correct", "judge", {"at_seq": 2, "reason": "r", "event": {"type": "note", "by": "judge", "at_seq": 1, "text": "x"}})
    assert (exc.value.path, exc.value.message) == ("$.event.type", "a correction cannot insert a 'note' event")
    assert service.store.head("n") == 2


@given(st.lists(st.sampled_from(["note", "warning", "caution", "take"]), max_size=8))
def test_calls_never_change_the_state_property(script):
    """Whatever mix of calls and takes: the state equals the state of the takes alone."""
    with_calls, plain = MatchService(MemoryStore()), MatchService(MemoryStore())
    nim(with_calls)
    nim(plain)
    turn = ["bob", "alice"]
    for step in script:
        if step == "take":
            p = turn[0]
            a = with_calls.submit("n", "take", p, {"player": p, "count": 1})
            b = plain.submit("n", "take", p, {"player": p, "count": 1})
            assert a.accepted == b.accepted
            if a.accepted:
                turn.reverse()
        elif step == "note":
            assert with_calls.submit("n", "note", "judge", {"at_seq": 1, "text": step}).accepted
        else:
            assert with_calls.submit("n", "penalty", "judge", warning(at=1, penalty=step)).accepted
    a, b = with_calls.load("n"), plain.load("n")
    assert a.state == b.state and a.outcome() == b.outcome()


def test_the_page_marks_notes_and_penalties():
    service = MatchService(MemoryStore())
    nim(service)
    service.submit("n", "note", "judge", {"at_seq": 2, "text": "<i>asked</i>"})
    service.submit("n", "penalty", "judge", warning(penalty="match_loss"))
    match = service.load("n")
    data = page_data(match, [])
    assert [i["kind"] for i in data["items"]] == ["event", "event", "note", "penalty"]
    marks = data["per"]["judge"]["m"]
    assert marks[2] == [["note", "judge's note at seq 2: <i>asked</i>"]]
    assert marks[3] == [["penalty", "match_loss for bob (slow play) at seq 2: third reminder"]]
    assert data["outcome"].startswith("won by alice; match loss for bob")


# -- the command line -----------------------------------------------------------------------------
def test_cli_penalty_names_are_the_spines():
    assert desk.PENALTIES == judging.PENALTIES


def test_cli_note_penalty_log_and_exit_codes(tmp_path):
    adj = Adj(tmp_path / "s.sqlite3")
    ok(adj("new", "nim", "--player", "alice", "--player", "bob", "--opt", "pile=7", "--id", "m"))
    ok(adj("act", "m", "take", "player=alice", "count=3", "--by", "alice"))
    ok(adj("note", "m", "--at", "2", "bob says alice took 4", "--by", "judge"),
       'm seq 3  judge  note  at_seq=2 text="bob says alice took 4"\nto move: bob\n')
    fails(adj("note", "m", "--at", "2", "no", "--by", "bob"), 1, "ADJ-JDG-1: only the judge enters a note; bob tried\n")
    result = ok(adj("penalty", "m", "--player", "bob", "--infraction", "unsporting conduct", "--penalty", "match_loss",
                    "--at", "2", "--reason", "shouted at the opponent", "--by", "judge", "--json"))
    data = json.loads(result.stdout)
    assert (data["seq"], data["outcome"]["winner"], data["outcome"]["reason"], data["to_move"]) == (4, "alice", "penalty", [])
    bad = adj("penalty", "m", "--player", "bob", "--infraction", "x", "--penalty", "red_card", "--at", "2", "--reason", "r", "--by", "judge")
    assert bad.exit_code == 2 and "'red_card' is not one of" in bad.stderr
    fails(adj("act", "m", "take", "player=bob", "count=1", "--by", "bob"), 1,
          "ADJ-JDG-4: the match was decided by the match_loss of bob at seq 4; no more play is entered (a judge's note still may be)\n")
    ok(adj("legal", "m"), "nothing is open; outcome: won by alice; match loss for bob (unsporting conduct; penalty at seq 4, "
                          "about seq 2): shouted at the opponent\n")
    log = ok(adj("log", "m")).stdout.splitlines()
    assert log[4].split() == ["3", "judge", "note", "at_seq=2", 'text="bob', "says", "alice", "took", '4"']
    assert log[6] == ('  4  judge  penalty        at_seq=2 infraction="unsporting conduct" penalty=match_loss player=bob '
                      'reason="shouted at the opponent"')
    assert log[-1] == "outcome: won by alice; match loss for bob (unsporting conduct; penalty at seq 4, about seq 2): shouted at the opponent"
    ok(adj("verify", "m"))
    state = json.loads(ok(adj("state", "m", "--at", "3", "--json")).stdout)
    assert state["outcome"]["status"] == "in_progress" and state["to_move"] == ["bob"]
