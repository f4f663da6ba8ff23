"""Reducer fixes found while replaying the worked examples of rules/bacdef.md §13.

Each test plays the smallest match that shows the fault, in the chapter's notation
(``tests.bacdef.shorthand``), and asserts the figures the chapter requires.
"""

from __future__ import annotations

from adjudicator.service import MatchService
from events.memory import MemoryStore
from tests.bacdef.shorthand import Seats, parse, to_jsonl

SEATS = Seats()
START = {
    "type": "match_started",
    "by": "judge",
    "game": "bacdef",
    "players": ["alice", "bob"],
    "options": {},
    "decks": {"alice": ["A", "A", "B", "C", "D", "E", "F"], "bob": ["A", "B", "B", "C", "C", "D", "F"]},
}
SETUP = """
place_guards player=P1 card_ids=[P1-7,P1-1]
place_guards player=P2 card_ids=[P2-7,P2-2]
decide_first_player first_player=P1 method=rps
"""


def play(script: str, start: dict | None = None):
    lines = [l for l in (SETUP + script).strip().splitlines() if l.strip()]
    events = [start or START] + [parse(l, SEATS) for l in lines]
    report = MatchService(MemoryStore()).check_lines(to_jsonl(events).splitlines())
    return report


def test_a_card_returned_to_hand_by_an_effect_is_no_longer_skill_used():
    # BAC-EFF-8 / BAC-TURN-9: P1-2 is used as a skill and put back in hand by RETURN (turn 1).
    # Placed again in turn 3 and knocked, it is not a skill-used card: the Drop phase leaves it
    # and the End phase returns it to hand (as P1-5 in BAC-EX-10).
    report = play(
        """
place_field_card player=P1 card_id=P1-2
place_field_card player=P2 card_id=P2-1
declare_skill player=P1 card_id=P1-2
declare_through player=P2
resolve_effect instance_id=I1 ops=[RETURN P1-2]
confirm_end_phase
place_field_card player=P2 card_id=P2-1
place_field_card player=P1 card_id=P1-3
declare_knock player=P2
declare_through player=P1
assign_damage player=P1 slots=[1]
confirm_end_phase
place_field_card player=P1 card_id=P1-2
place_field_card player=P2 card_id=P2-1
declare_knock player=P1
declare_through player=P2
assign_damage player=P2 slots=[1]
"""
    )
    assert report.rejections == []
    view = report.match.game.view(report.match.state)
    alice = view["set"]["players"]["alice"]
    assert view["set"]["turn"]["no"] == 3 and view["set"]["turn"]["step"] == "end"
    assert sorted(c["id"] for c in alice["hand"]) == ["alice-2", "alice-3", "alice-4", "alice-5", "alice-6"]
    assert alice["discard"] == []


def test_drop_phase_discards_one_players_cards_in_declaration_order():
    # BAC-RES-17 / BAC-EX-14: P1's field card P1-3 (I1, a B that allows one extra deployment)
    # and the extra P1-2 (I2) drop at once; they enter P1's pile as I1, I2 (P1-3, then P1-2),
    # not in card-id order.
    start = dict(START, catalog={"B": {"extra_deploys": 1}})
    report = play(
        """
place_field_card player=P1 card_id=P1-3
place_field_card player=P2 card_id=P2-1
declare_skill player=P1 card_id=P1-3
declare_skill player=P1 card_id=P1-2 extra_of=I1
declare_through player=P2
choose_resolution_order player=P1 instance_ids=[I1,I2]
resolve_effect instance_id=I1 ops=[]
resolve_effect instance_id=I2 ops=[]
""",
        start,
    )
    assert report.rejections == []
    view = report.match.game.view(report.match.state)
    assert view["set"]["turn"]["step"] == "end"
    assert [(c["id"], c["face"]) for c in view["set"]["players"]["alice"]["discard"]] == [("alice-3", "up"), ("alice-2", "up")]
