"""BACDEF hidden information (§9): what each player and a spectator may see."""

from __future__ import annotations

import json

from adjudicator.games.bacdef import GAME
from adjudicator.games.bacdef.events import PRIVATE_FIELDS
from tests.bacdef.builders import P1, P2, Table, start


def text(view: dict) -> str:
    return json.dumps(view, ensure_ascii=False)


def knocked_turn() -> Table:
    """Turn 1, Counter step: P1 knocked with P1-5 (D, face-down); P2's field card P2-3 is face-down."""
    t = start()
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3", "declare_knock player=P1")
    return t


def test_BAC_HID_2_opponent_sees_no_hand_deck_guard_or_face_down_field_identity():
    """BAC-RUL-32: deck lists are private too."""
    t = knocked_turn()
    bob = t.view("P2")
    alice = bob["set"]["players"][P1]
    assert "hand" not in alice and "deck" not in alice and alice["hand_count"] == 4
    assert alice["guards"] == [{"slot": 1, "state": "U"}, {"slot": 2, "state": "U"}]
    assert alice["field"] == [{"id": None, "face": "down", "orientation": "sideways"}]
    knock = bob["set"]["turn"]["instances"][0]
    assert (knock["kind"], knock["card_id"], knock["letter"]) == ("knock", None, None)
    hidden = [t.cid(c) for c in t.hand("P1") + t.guard_ids("P1") + t.field("P1")]
    assert hidden == ["alice-2", "alice-3", "alice-4", "alice-6", "alice-7", "alice-1", "alice-5"]
    dump = text(bob) + GAME.describe(t.state, P2)
    assert not [cid for cid in hidden if cid in dump]
    # bob sees his own cards
    own = bob["set"]["players"][P2]
    assert [c["id"] for c in own["hand"]] == ["bob-1", "bob-4", "bob-5", "bob-6"]
    assert [c["letter"] for c in own["hand"]] == ["A", "C", "C", "D"]
    assert own["guards"][0] == {"slot": 1, "state": "U", "card_id": "bob-7", "letter": "F"}
    assert own["deck"] == ["A", "B", "B", "C", "C", "D", "F"]


def test_BAC_HID_2_spectator_sees_neither_player_and_the_judge_sees_all():
    t = knocked_turn()
    spectator = t.view("carol")
    for p in (P1, P2):
        pv = spectator["set"]["players"][p]
        assert "hand" not in pv and "deck" not in pv and all("card_id" not in g for g in pv["guards"])
    assert "alice-5" not in text(spectator) and "bob-3" not in text(spectator)
    judge = t.view(None)
    assert [c["id"] for c in judge["set"]["players"][P1]["hand"]] == ["alice-2", "alice-3", "alice-4", "alice-6"]
    assert judge["set"]["players"][P1]["field"] == [{"id": "alice-5", "face": "down", "letter": "D", "orientation": "sideways"}]
    assert judge["set"]["turn"]["instances"][0]["card_id"] == "alice-5"


def test_BAC_HID_2_knocked_card_going_back_is_never_revealed():
    """BAC-EX-10: a special card knocked face-down is a normal card, and it goes back unseen."""
    t = knocked_turn()
    t.do("declare_through player=P2", "assign_damage player=P2 slots=[1]")
    assert t.step == "end" and "P1-5" in t.hand("P1")
    assert t.used("P1") == ""  # a knock is no activation (BAC-LIM-3)
    notes = "\n".join(t.turn.notes)
    assert "alice-5" not in text(t.view("P2")) + text(t.view("carol")) + notes
    assert "bob-3" not in text(t.view("P1")) + text(t.view("carol")) + notes
    assert "auto: alice's field card returns to alice's hand" in t.turn.notes


def test_BAC_HID_2_face_down_discards_keep_their_identity():
    t = start({"knock_card_fate": "drop"})
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_knock player=P1", "declare_through player=P2", "assign_damage player=P2 slots=[2]")
    assert t.discard("P1") == ["P1-5↓"]
    assert t.view("P2")["set"]["players"][P1]["discard"] == [{"id": None, "face": "down"}]
    assert t.view("P1")["set"]["players"][P1]["discard"] == [{"id": "alice-5", "face": "down", "letter": "D"}]
    assert "alice's knocked card (face-down) dropped in the Drop phase" in " ".join(t.turn.notes)
    assert "alice-5" not in "\n".join(t.turn.notes)


def test_BAC_HID_3_public_facts():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-5", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-5", "declare_through player=P2", "resolve_effect instance_id=I1 ops=[DAMAGE P2 1]")
    spectator = t.view("carol")
    alice, bob = spectator["set"]["players"][P1], spectator["set"]["players"][P2]
    assert (alice["hand_count"], alice["D"], alice["overflow"], alice["special_used"]["D"]) == (4, 0, 0, True)
    # only the activation revealed a special: which others the decks hold stays private (BAC-HID-2)
    assert (alice["special_used"], bob["special_used"]) == ({"D": True}, {})
    assert t.view("P1")["set"]["players"][P1]["special_used"] == {"D": True, "E": False, "F": False}
    assert alice["field"] == [{"id": "alice-5", "face": "up", "letter": "D", "orientation": "upright"}]
    turn = spectator["set"]["turn"]
    assert turn["instances"][0]["letter"] == "D" and turn["instances"][0]["card_id"] == "alice-5"
    assert turn["packets"] == [{"id": "Q1", "source_side": "attacker", "target": P2, "amount": 1, "kind": "skill", "applied": True}]
    assert turn["damage_received"] == {P1: 0, P2: 1}
    assert turn["awaiting"] == {"kind": "damage", "player": P2, "ref": "Q1", "points": 1}
    assert [g["state"] for g in bob["guards"]] == ["U", "U"] and spectator["set_wins"] == {P1: 0, P2: 0}


def test_BAC_HID_4_no_leak_of_a_face_down_F_decision():
    t = start()
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-2", "declare_through player=P2")
    t.do("resolve_effect instance_id=I1 ops=[DAMAGE P2 4]")
    t.do("assign_damage player=P2 slots=[1,1,2]")  # P2-7 (F, face-down guard) destroyed
    assert t.step == "fall" and t.awaiting() == ("f_decision", "P2")
    for viewer in ("P1", "carol"):
        v = t.view(viewer)
        assert v["set"]["turn"]["awaiting"] == {"kind": "fall_processing"}
        assert v["set"]["players"][P2]["discard"] == [{"id": None, "face": "down"}]
        assert v["set"]["players"][P2]["guards"] == [{"slot": 1, "state": "X"}, {"slot": 2, "state": "S"}]
        assert "bob-7" not in text(v) and "F queued" not in text(v)
    assert "bob-7" not in GAME.describe(t.state, P1)
    assert t.view("P2")["set"]["turn"]["awaiting"] == {"kind": "f_decision", "player": P2, "card_id": "bob-7"}
    assert t.view(None)["set"]["turn"]["awaiting"] == {"kind": "f_decision", "player": P2, "card_id": "bob-7"}
    # the decline event's card is private, like every face-down identity
    assert PRIVATE_FIELDS["decline_fall_skill"] == ("card_id",)
    t.do("decline_fall_skill player=P2 card_id=P2-7")
    assert "bob-7" not in text(t.view("P1")) and "F" not in t.view("P1")["set"]["players"][P2]["special_used"]


def test_BAC_HID_4_face_up_F_decision_is_public():
    """An armed F is face-up when it drops: its decision may show."""
    t = start(guards=(("P1-1", "P1-2"), ("P2-1", "P2-2")))
    t.do("place_field_card player=P1 card_id=P1-7", "place_field_card player=P2 card_id=P2-3")
    t.do("declare_skill player=P1 card_id=P1-7", "declare_through player=P2")
    assert t.step == "drop"
    assert t.view("P2")["set"]["turn"]["awaiting"] == {"kind": "f_decision", "player": P1, "card_id": "alice-7"}
