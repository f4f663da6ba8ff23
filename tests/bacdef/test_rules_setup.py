"""BACDEF setup: deck validation (§2), the setup steps (§3) and the setup events (§5.2)."""

from __future__ import annotations

import msgspec
import pytest

from adjudicator.games.bacdef import GAME
from adjudicator.engine.protocol import Violation
from tests.bacdef.builders import DECK1, DECK2, P1, P2, Table, setup, start


def deck_line(seat: str, letters: str) -> str:
    return f"register_deck player={seat} letters=[{letters}]"


# -- BAC-DECK-6: the validator and its order ----------------------------------------------------
def test_BAC_DECK_3_deck_is_exactly_seven_cards():
    t = Table()
    t.reject(deck_line("P2", "A,A,B,C,D,F"), "BAC-DECK-3", "E_DECK_SIZE", "6 cards")
    t.reject(deck_line("P2", "A,A,B,C,D,E,F,A"), "BAC-DECK-3", "E_DECK_SIZE", "8 cards")
    assert t.state.set.stage == "deck" and t.ps("P2").deck == ()


def test_BAC_DECK_1_every_card_is_a_letter_A_to_F():
    t = Table()
    t.reject(deck_line("P1", "A,A,B,C,D,E,G"), "BAC-DECK-1", "E_DECK_LETTER", "'G'")
    t.reject(deck_line("P1", "A,A,B,C,D,E,a"), "BAC-DECK-1", "E_DECK_LETTER", "'a'")


def test_BAC_DECK_5_specials_at_most_once_each():
    t = Table()
    t.reject(deck_line("P2", "A,B,B,C,D,D,F"), "BAC-DECK-5", "E_DECK_SPECIAL_DUP", "2 D cards")
    t.reject(deck_line("P2", "A,B,B,C,E,E,E"), "BAC-DECK-5", "E_DECK_SPECIAL_DUP", "3 E cards")
    t.reject(deck_line("P2", "A,B,B,C,D,F,F"), "BAC-DECK-5", "E_DECK_SPECIAL_DUP", "2 F cards")


def test_BAC_DECK_4_normal_letters_any_number_and_specials_optional():
    """BAC-DECK-4 / BAC-DECK-5: seven A is a legal deck under the defaults (BAC-RUL-2)."""
    t = Table()
    t.do(deck_line("P1", "A,A,A,A,A,A,A"), deck_line("P2", "C,C,C,B,B,B,B"))
    assert t.state.set.stage == "guards"
    assert t.ps("P1").deck == ("A",) * 7


def test_BAC_RUL_2_require_each_special():
    t = Table({"require_each_special": True})
    t.reject(deck_line("P1", "A,A,A,A,A,A,A"), "BAC-RUL-2", "E_DECK_SPECIAL_MISSING", "D, E, F")
    t.reject(deck_line("P1", "A,A,A,A,D,E,B"), "BAC-RUL-2", "E_DECK_SPECIAL_MISSING", "lacks F")
    t.do(deck_line("P1", "A,A,B,C,D,E,F"))
    assert t.ps("P1").deck == tuple(DECK1)


def test_BAC_DECK_6_checks_run_in_the_listed_order():
    t = Table({"require_each_special": True})
    # size before letters, letters before duplicates, duplicates before the missing special
    t.reject(deck_line("P1", "G,D,D,A,A,A"), "BAC-DECK-3", "E_DECK_SIZE")
    t.reject(deck_line("P1", "G,D,D,A,A,A,A"), "BAC-DECK-1", "E_DECK_LETTER")
    t.reject(deck_line("P1", "D,D,A,A,A,A,A"), "BAC-DECK-5", "E_DECK_SPECIAL_DUP")


def test_BAC_DECK_6_deck_check_of_the_game_object():
    assert GAME.check_deck(list(DECK1)) == []
    problems = GAME.check_deck(["A", "A", "A", "A", "A", "A", "A"], GAME.decode_options({"require_each_special": True}))
    assert [(v.rule_id, v.code) for v in problems] == [("BAC-RUL-2", "E_DECK_SPECIAL_MISSING")]
    # every problem, not only the first
    problems = GAME.check_deck(["G", "D", "D", "A", "A", "A"])
    assert [(v.rule_id, v.code) for v in problems] == [
        ("BAC-DECK-3", "E_DECK_SIZE"), ("BAC-DECK-1", "E_DECK_LETTER"), ("BAC-DECK-5", "E_DECK_SPECIAL_DUP")]


# -- BAC-ACT-1 match_started ---------------------------------------------------------------------
def test_BAC_ACT_1_decks_in_match_started_skip_the_deck_step():
    t = Table(decks={"P1": DECK1, "P2": DECK2})
    assert t.state.set.stage == "guards"
    assert t.hand("P1") == [f"P1-{n}" for n in range(1, 8)]
    assert t.card("P2-7").letter == "F" and t.card("P2-2").letter == "B"
    t.reject(deck_line("P1", "A,A,B,C,D,E,F"), "BAC-SETUP-5", "E_WRONG_STEP", "guards step")


def test_BAC_ACT_1_decks_in_match_started_are_validated():
    with pytest.raises(Violation) as exc:
        Table(decks={"P1": DECK1, "P2": ("A", "B", "B", "C", "D", "D", "F")})
    assert (exc.value.rule_id, exc.value.code) == ("BAC-DECK-5", "E_DECK_SPECIAL_DUP")
    assert "bob's deck has 2 D cards" in exc.value.message


def test_BAC_OVR_1_exactly_two_different_players():
    with pytest.raises(Violation) as exc:
        Table(players=("alice", "alice"))
    assert (exc.value.rule_id, exc.value.code) == ("BAC-OVR-1", "E_CONFIG")
    assert "['alice', 'alice']" in exc.value.message


@pytest.mark.parametrize(
    "entry, quote",
    [
        ({"A": {"class": "special"}}, "catalog A: class is fixed to normal"),
        ({"D": {"class": "normal"}}, "catalog D: class is fixed to special"),
        ({"F": {"fall_skill": False}}, "catalog F: fall_skill is fixed to true"),
        ({"E": {"fall_skill": True}}, "catalog E: fall_skill is fixed to false"),
        ({"G": {}}, "entry 'G'"),
        ({"B": {"extra_deploys": -1}}, "catalog B: extra_deploys cannot be negative"),
    ],
)
def test_BAC_EFF_0_catalog_fixed_fields(entry, quote):
    with pytest.raises(Violation) as exc:
        Table(catalog=entry)
    assert (exc.value.rule_id, exc.value.code) == ("BAC-EFF-0", "E_BAD_OP")
    assert quote in exc.value.message


def test_BAC_EFF_0_catalog_defaults_and_stated_fixed_fields():
    """BAC-DECK-2 classes by letter; BAC-RUL-3 / BAC-DECK-8 one catalog entry per letter."""
    t = Table(catalog={"F": {"class": "special", "fall_skill": True, "title": "Fall"}, "B": {"extra_deploys": 1}})
    cat = msgspec.to_builtins(t.state.catalog)
    assert cat["F"] == {
        "class": "special",
        "title": "Fall",
        "text": "",
        "action_allowed": True,
        "counter_allowed": True,
        "battle_effect": False,
        "knock_skill": False,
        "fall_skill": True,
        "extra_deploys": 0,
    }
    assert cat["A"]["battle_effect"] is True and cat["A"]["class"] == "normal" and cat["A"]["fall_skill"] is False
    assert cat["B"]["extra_deploys"] == 1
    assert [cat[x]["class"] for x in "ABCDEF"] == ["normal"] * 3 + ["special"] * 3


# -- BAC-ACT-2 register_deck ---------------------------------------------------------------------
def test_BAC_ACT_2_register_deck_creates_cards_in_list_order():
    t = Table()
    t.do(deck_line("P1", "F,E,D,C,B,A,A"))
    assert t.hand("P1") == [f"P1-{n}" for n in range(1, 8)]
    assert [t.card(f"P1-{n}").letter for n in range(1, 8)] == list("FEDCBAA")
    assert all(t.card(f"P1-{n}").zone == "hand" and t.card(f"P1-{n}").face == "down" for n in range(1, 8))
    assert t.state.set.stage == "deck"  # P2 is still missing
    t.do(deck_line("P2", "A,B,B,C,C,D,F"))
    assert t.state.set.stage == "guards"


def test_BAC_ACT_2_register_deck_by_another_player_or_the_judge():
    t = Table()
    t.reject(deck_line("P1", "A,A,B,C,D,E,F"), "BAC-ACT-2", "E_NOT_ACTOR", "bob cannot enter this for alice", by="P2")
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), by="judge")
    assert t.ps("P1").deck == tuple(DECK1)


def test_BAC_ACT_2_unknown_player_is_not_an_actor():
    t = Table()
    t.reject("register_deck player=carol letters=[A,A,A,A,A,A,A]", "BAC-ACT-2", "E_NOT_ACTOR", "'carol'", by="judge")


# -- BAC-SETUP-5 step order ----------------------------------------------------------------------
def test_BAC_SETUP_5_setup_events_out_of_step():
    """BAC-EX-1 steps 3 and 7."""
    t = Table()
    t.reject("place_guards player=P1 card_ids=[P1-7,P1-1]", "BAC-SETUP-5", "E_WRONG_STEP", "place_guards", "deck step")
    t.reject("decide_first_player first_player=P1 method=rps", "BAC-SETUP-5", "E_WRONG_STEP", "deck step")
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), deck_line("P2", "A,B,B,C,C,D,F"))
    t.do("place_guards player=P1 card_ids=[P1-7,P1-1]")
    t.reject("decide_first_player first_player=P1 method=rps", "BAC-SETUP-5", "E_WRONG_STEP", "guards step")
    t.reject(deck_line("P2", "A,B,B,C,C,D,F"), "BAC-SETUP-5", "E_WRONG_STEP", "register_deck", "guards step")
    t.do("place_guards player=P2 card_ids=[P2-7,P2-2]")
    t.reject("place_guards player=P2 card_ids=[P2-7,P2-2]", "BAC-SETUP-5", "E_WRONG_STEP", "first-player step")
    t.do("decide_first_player first_player=P1 method=rps")
    t.reject("decide_first_player first_player=P2 method=rps", "BAC-SETUP-5", "E_WRONG_STEP", "decide_first_player")


def test_BAC_SETUP_5_second_registration_by_the_same_player():
    t = Table()
    t.do(deck_line("P1", "A,A,B,C,D,E,F"))
    t.reject(deck_line("P1", "A,A,A,A,A,A,A"), "BAC-SETUP-5", "E_WRONG_STEP", "alice already registered a deck for set 1")
    # the step check comes before who entered it (§5.1)
    t.reject(deck_line("P1", "A,A,A,A,A,A,A"), "BAC-SETUP-5", "E_WRONG_STEP", by="P2")
    t.do(deck_line("P2", "A,B,B,C,C,D,F"), "place_guards player=P1 card_ids=[P1-7,P1-1]")
    t.reject("place_guards player=P1 card_ids=[P1-2,P1-3]", "BAC-SETUP-5", "E_WRONG_STEP", "alice already placed guards for set 1")
    t.reject("place_guards player=P1 card_ids=[P1-2,P1-3]", "BAC-SETUP-5", "E_WRONG_STEP", by="P2")
    assert t.guard_ids("P1") == ["P1-7", "P1-1"]


@pytest.mark.parametrize(
    "line",
    [
        "place_field_card player=P1 card_id=P1-2",
        "declare_knock player=P1",
        "declare_skill player=P1 card_id=P1-2",
        "declare_through player=P2",
        "finish_deployment player=P1",
        "confirm_end_phase",
        "resolve_effect instance_id=I1 ops=[]",
        "assign_damage player=P1 slots=[1]",
        "apply_end_phase_effect source=I1 ops=[]",
    ],
)
def test_BAC_SETUP_5_turn_events_during_setup(line):
    t = Table()
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), deck_line("P2", "A,B,B,C,C,D,F"))
    t.reject(line, "BAC-SETUP-5", "E_WRONG_STEP", "still in setup (guards step)")


# -- BAC-SETUP-2 / BAC-ACT-3 guards --------------------------------------------------------------
def test_BAC_SETUP_2_guards_are_two_distinct_own_cards():
    """BAC-EX-1 step 5, plus an opponent's card and a wrong count."""
    t = Table()
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), deck_line("P2", "A,B,B,C,C,D,F"))
    t.reject("place_guards player=P1 card_ids=[P1-7,P1-7]", "BAC-SETUP-2", "E_GUARD_COUNT", "['P1-7', 'P1-7']")
    t.reject("place_guards player=P1 card_ids=[P1-7,P2-1]", "BAC-SETUP-2", "E_GUARD_COUNT", "P2-1")
    t.reject("place_guards player=P1 card_ids=[P1-7]", "BAC-SETUP-2", "E_GUARD_COUNT", "['P1-7']")
    t.reject("place_guards player=P1 card_ids=[P1-7,P1-1,P1-2]", "BAC-SETUP-2", "E_GUARD_COUNT")
    t.reject("place_guards player=P1 card_ids=[P1-7,P1-8]", "BAC-SETUP-2", "E_GUARD_COUNT", "P1-8")


def test_BAC_ACT_3_place_guards_by_another_player():
    t = Table()
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), deck_line("P2", "A,B,B,C,C,D,F"))
    t.reject("place_guards player=P1 card_ids=[P1-7,P1-1]", "BAC-ACT-3", "E_NOT_ACTOR", "bob", by="P2")


def test_BAC_SETUP_2_guards_go_face_down_upright_in_the_given_order():
    t = Table()
    t.do(deck_line("P1", "A,A,B,C,D,E,F"), deck_line("P2", "A,B,B,C,C,D,F"))
    t.do("place_guards player=P1 card_ids=[P1-1,P1-7]")
    assert t.guard_ids("P1") == ["P1-1", "P1-7"] and t.slots("P1") == "UU"
    c = t.card("P1-7")
    assert (c.zone, c.face, c.orientation, c.slot) == ("guard", "down", "upright", 2)
    assert t.hand("P1") == ["P1-2", "P1-3", "P1-4", "P1-5", "P1-6"]
    assert t.state.set.stage == "guards"


# -- BAC-SETUP-3 / BAC-ACT-4 first player; BAC-SETUP-4 initial values ------------------------
def test_BAC_SETUP_4_initial_values_after_setup():
    """BAC-EX-1 expected state; BAC-TURN-1: start_seq is the decide_first_player seq. BAC-SETUP-1 decks in the Deck step, BAC-RUL-5 deck, guards, first player."""
    t = start()
    assert t.seq == 6
    assert (t.turn.no, t.turn.start_seq, t.turn.attacker, t.turn.defender, t.step) == (1, 6, P1, P2, "standby")
    assert t.guard_ids("P1") == ["P1-7", "P1-1"] and t.guard_ids("P2") == ["P2-7", "P2-2"]
    assert t.slots("P1") == t.slots("P2") == "UU"
    assert t.hand("P1") == ["P1-2", "P1-3", "P1-4", "P1-5", "P1-6"]
    assert t.hand("P2") == ["P2-1", "P2-3", "P2-4", "P2-5", "P2-6"]
    assert (t.D("P1"), t.D("P2"), t.overflow("P1"), t.overflow("P2")) == (0, 0, 0, 0)
    assert t.discard("P1") == t.discard("P2") == []
    assert t.field("P1") == t.field("P2") == []
    assert t.used("P1") == t.used("P2") == ""
    assert t.dmg() == (0, 0)
    assert t.state.set.first_player == P1 and t.state.set.stage == "turns"


def test_BAC_ACT_4_first_player_is_entered_by_the_judge():
    """BAC-SETUP-3 / BAC-HID-1: the judge enters the result, not the hand signs."""
    t = Table()
    setup(t, first=None)
    t.reject("decide_first_player first_player=P1 method=rps", "BAC-ACT-4", "E_NOT_ACTOR", "alice tried", by="P1")
    t.reject("decide_first_player first_player=carol method=rps", "BAC-ACT-4", "E_NOT_ACTOR", "'carol'")
    t.do("decide_first_player first_player=P2 method=coin")
    assert (t.turn.attacker, t.turn.defender, t.state.set.first_player) == (P2, P1, P2)


def test_BAC_OVR_3_first_player_attacks_on_odd_turns():
    t = start(first="P2")
    assert t.turn.attacker == P2
    t.do("place_field_card player=P1 card_id=P1-2", "place_field_card player=P2 card_id=P2-1")
    t.do("declare_knock player=P2", "declare_through player=P1", "assign_damage player=P1 slots=[1]", "confirm_end_phase")
    assert (t.turn.no, t.turn.attacker, t.turn.defender) == (2, P1, P2)


def test_BAC_GEN_2_a_rejected_event_is_recorded_beside_the_log_and_changes_nothing():
    """Through the match service: the refusal carries the rule ID and the code; the log does not move."""
    from adjudicator.service import MatchService
    from events.memory import MemoryStore

    svc = MatchService(MemoryStore(), clock=lambda: "2026-01-01T00:00:00Z")
    assert svc.new("bacdef", [P1, P2], match_id="m1").accepted
    v = svc.submit("m1", "register_deck", P1, {"player": P1, "letters": ["A", "A", "B", "C", "D", "D", "F"]})
    assert (v.accepted, v.violation.rule_id, v.violation.code) == (False, "BAC-DECK-5", "E_DECK_SPECIAL_DUP")
    assert v.match.head == 1 and svc.store.head("m1") == 1
    [r] = svc.store.rejections("m1")
    assert (r.head_seq, r.type, r.by, r.rule) == (1, "register_deck", P1, "BAC-DECK-5")
    assert r.message == "alice's deck has 2 D cards; D, E and F at most once each"
    assert svc.submit("m1", "register_deck", P1, {"player": P1, "letters": list(DECK1)}).accepted
    assert svc.store.head("m1") == 2


def test_BAC_ACT_1_the_judge_starts_the_match():
    from adjudicator.engine.fold import Fold, decode_event

    fold = Fold(GAME, "m")
    started = decode_event(GAME, "match_started", P1, {"game": "bacdef", "players": [P1, P2]})
    with pytest.raises(Violation) as exc:
        fold.advance(started, 1)
    assert (exc.value.rule_id, exc.value.code, exc.value.message) == ("BAC-ACT-1", "E_NOT_ACTOR", "only the judge starts a match; alice tried")
    assert fold.head == 0 and fold.state is None
    t = Table()
    assert (t.seq, t.state.set.set_no, t.state.set.stage, t.state.set_wins) == (1, 1, "deck", {P1: 0, P2: 0})
