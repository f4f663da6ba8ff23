"""What a judge sees: the comparison "which pair wins and why" (DB-RES-9, DB-RES-27, DB-RES-30),
per-player views (DB-HID-1, DB-HID-6), the text rendering and the open actions."""

from __future__ import annotations

import pytest

from adjudicator.games.demonbrave import GAME, compare, explain
from adjudicator.engine.kit import one
from adjudicator.engine.protocol import Malformed
from tests.demonbrave.builder import Table
from tests.demonbrave.replay import FIXTURES, Replay

A, B = "alice", "bob"


def test_compare_pairs_of_different_tiers_db_res_9():
    r = Replay("ex04-blocks")
    s = r.after(r.find("declare_attack") - 1)
    out = compare(s, "PAIR-1", "PAIR-4")
    assert (out["a"]["category"], out["a"]["tier"], out["a"]["key"]) == ("FREE", 2, [7, 1])
    assert (out["b"]["category"], out["b"]["tier"], out["b"]["key"]) == ("SET", 3, [6, 6])
    assert (out["stronger"], out["rule"]) == ("b", "DB-RES-9")
    assert out["basis"].startswith("tier: FREE (2) against SET (3)")
    assert out["if_a_attacks_b"]["rule"] == "DB-RES-27" and out["if_a_attacks_b"]["result"] == "void"
    assert out["if_b_attacks_a"]["result"] == "target_trashed"
    assert out["order"] == "normal" and out["a"]["player"] == A and out["b"]["player"] == B


def test_compare_same_tier_by_key_db_res_9():
    r = Replay("ex07-pair-vs-pair")
    s = r.after(r.find("declare_attack") - 1)
    out = GAME.explain(s, {"a": "PAIR-16", "b": "PAIR-20"})
    assert (out["a"]["category"], out["b"]["category"]) == ("SET", "SET")
    assert out["stronger"] == "a" and "key element 1: 9 against 6" in out["basis"]
    out = GAME.explain(s, {"units": ["PAIR-15", "PAIR-19"]})
    assert out["stronger"] == "equal" and out["if_a_attacks_b"]["result"] == "both_trashed"


def test_compare_in_reversed_order_and_joker_members():
    r = Replay("ex08-reversal")
    s = r.after(r.find("resolve_chain_entry", entry_id="E1"))
    out = compare(s, "PAIR-21", "PAIR-22")
    assert out["order"] == "reversed" and out["a"]["key"] == [2, 2] and out["b"]["key"] == [13, 13]
    r = Replay("ex13-jokers-in-pairs")
    s = r.after(r.find("declare_attack") - 1)
    out = compare(s, "PAIR-50", "PAIR-51")
    assert out["a"]["category"] == "RUN" and {"card": "JK1", "strength": 6, "as": "S8"} in out["a"]["members"]
    assert out["if_a_attacks_b"]["summary"].startswith("PAIR-50 RUN (JK1=S8) [6,5] beats PAIR-51 SET [12,12]")


def test_explain_singles_and_choices_db_res_24():
    r = Replay("ex06-single-vs-pair")
    s = r.after(r.find("declare_attack") - 1)
    out = compare(s, "SA", "PAIR-10")
    assert out["rule"] == "DB-RES-6" and out["stronger"] == "b"
    assert out["if_a_attacks_b"]["result"] == "choice_needed" and out["if_a_attacks_b"]["candidates"] == ["H5", "C10", "SQ"]
    s = r.after(r.find("declare_attack"))
    out = explain(s, {})
    assert out["attack"]["outcome_if_resolved_now"]["rule"] == "DB-RES-24"
    assert out["comparison"]["a"]["unit"] == "SA"


def test_explain_attack_on_player_with_blocker_db_res_30():
    r = Replay("ex04-blocks")
    block = r.find("declare_block")
    out = explain(r.after(block), {})
    assert out["attack"]["blocker"] == "PAIR-4"
    assert out["attack"]["outcome_if_resolved_now"]["rule"] == "DB-RES-30"
    assert out["comparison"]["stronger"] == "b"


def test_explain_refuses_unclear_questions():
    t = Table().setup(first=A)
    t.play("S3")
    t.end_turn()
    t.to_phase("MAIN")
    t.play("S3")
    with pytest.raises(Malformed) as err:
        compare(t.state, "S3", "S3")
    assert "alice:S3 or bob:S3" in err.value.message
    out = compare(t.state, "alice:S3", "bob:S3")
    assert out["stronger"] == "equal" and out["if_a_attacks_b"]["result"] == "both_trashed"
    with pytest.raises(Malformed):
        explain(t.state, {})  # no attack in progress
    with pytest.raises(Malformed):
        explain(t.state, {"a": "PAIR-9", "b": "S3"})
    assert explain(t.state, {"unit": "alice:S3"})["unit"]["key"] == [1]


def test_views_hide_hands_and_describe_the_table():
    t = Table()
    t.setup(first=A, hands={A: ["S3", "H9", "DK", "CA", "JK1"], B: ["S4", "H2", "DK", "CA", "JK2"]})
    t.play("S3", "H9")
    t.pair("S3", "H9")
    own, other, judge = GAME.view(t.state, A), GAME.view(t.state, B), GAME.view(t.state)
    assert own["players"][A]["hand_known"] == ["CA", "DK", "JK1"]
    assert "hand_known" not in other["players"][A] and other["players"][A]["hand"] == 3
    assert judge["players"][B]["hand_known"] == ["CA", "DK", "H2", "JK2", "S4"]
    unit = own["players"][A]["field"][0]
    assert unit["unit"] == "PAIR-1" and unit["rank"]["category"] == "FREE" and unit["rank"]["key"] == [7, 1]
    text = GAME.describe(t.state, B)
    assert "PAIR-1[S3 H9] FREE [7,1]" in text and "turn 1, alice's MAIN phase" in text
    assert "JK1" not in text.split("bob:")[0]


def test_legal_lists_the_open_actions():
    t = Table().setup(first=A)
    assert {a.type for a in GAME.legal(t.state) if a.who == A} >= {"play_card", "advance_phase", "activate_effect", "concede"}
    t.end_turn()
    draw = [a for a in GAME.legal(t.state) if a.type == "draw"]
    assert draw and draw[0].who == B and draw[0].fields.startswith("count=1")
    r = Replay("ex04-blocks")
    s = r.after(r.find("declare_attack"))
    blocks = [a for a in GAME.legal(s) if a.type == "declare_block"]
    assert blocks[0].who == B and "PAIR-4" in blocks[0].fields and "null" in blocks[0].fields
    assert [a.type for a in GAME.legal(Replay("ex10a-life-zero").state) if a.who != "judge"] == []


def offered(state, type_: str, who: str | None = None) -> list:
    return [a for a in GAME.legal(state) if a.type == type_ and (who is None or a.who == who)]


def test_legal_gives_concrete_values_for_every_field():
    t = Table()
    t.setup(first=A, hands={A: ["S3", "H3", "DK", "CA", "JK1"]})
    (play,) = offered(t.state, "play_card", A)
    assert play.choices["card"].values == ("S3", "H3", "DK", "CA", "JK1")  # the real cards in hand
    assert play.fields == "card=<S3|H3|DK|CA|JK1> player=alice?" and play.note == "every card in hand is known"
    effects = offered(t.state, "activate_effect", A)
    assert [(a.choices["rule_card"].values, a.choices["effect_id"].values) for a in effects] == [
        (("J",), ("J.reverse",)), (("T-NEG",), ("T-NEG.negate",)), (("T-REV",), ("T-REV.reverse",)),
        (("T-BURN",), ("T-BURN.burn",)), (("T-BOUNCE",), ("T-BOUNCE.bounce",))]
    # in alice's turn bob may answer with effects usable in the opponent's turn, or, where the
    # catalog does not know, with the judge's assertion; T-REV is not usable there (DB-RES-40)
    answers = offered(t.state, "activate_effect", B)
    assert [(a.choices["effect_id"].values, a.choices["judge_asserted"]) for a in answers] == [
        (("J.reverse",), one(True)), (("T-NEG.negate",), one(False, True, optional=True)),
        (("T-BURN.burn",), one(True)), (("T-BOUNCE.bounce",), one(False, True, optional=True))]
    assert all(a.anytime for a in answers)
    t.play("S3", "H3", "DK")
    (pair,) = offered(t.state, "form_pair", A)
    assert pair.choices["units"].kind == "some" and pair.choices["units"].values == ("S3", "H3", "DK")
    t.pair("S3", "H3")
    (grow,) = offered(t.state, "form_pair", A)  # DK alone cannot form a new pair
    assert grow.note == "PAIR-1 grows" and grow.choices["units"] == one(["PAIR-1", "DK"])


def test_legal_offers_the_battle_choices_db_res_24():
    r = Replay("ex06-single-vs-pair")
    s = r.after(r.find("declare_attack"))  # SA attacks PAIR-10 [H5 C10 SQ]: three weaker members
    (battle,) = offered(s, "resolve_battle")
    assert (battle.who, battle.choices["choice"].values, battle.choices["choice"].optional) == (A, ("H5", "C10", "SQ"), False)
    s = r.after(r.find("declare_attack", attacker="H8"))  # H8 (6) against PAIR-12 [S8 D9]: S8 equal
    (battle,) = offered(s, "resolve_battle")
    assert (battle.choices["choice"].values, battle.choices["choice"].optional) == (("S8",), True)
    attacks = offered(r.after(r.find("declare_attack") - 1), "declare_attack")
    assert [(a.choices["attacker"].values, a.choices["target"].values) for a in attacks] == [
        (("SA",), ("PAIR-10", "PAIR-11", "PAIR-12"))] * 1 + [((u,), ("PAIR-10", "PAIR-11", "PAIR-12")) for u in ("D6", "H8", "C4")]


def test_legal_offers_the_judges_rewind_within_the_turn_db_rwd_3():
    t = Table().setup(first=A)
    start = t.seq  # opening_hands_drawn began turn 1
    t.play("S3")
    t.play("H9")
    (rewind,) = offered(t.state, "rewind")
    assert rewind.who == "judge" and rewind.anytime and rewind.choices["to_seq"].values == (start, start + 1, start + 2)
    assert rewind.choices["reason"].kind == "text"
    (correct,) = offered(t.state, "correct")
    assert correct.choices["at_seq"].values == (start + 1, start + 2)
    t.ev("rewind", "judge", to_seq=start + 1, reason="H9 was not played")
    (rewind,) = offered(t.state, "rewind")
    assert rewind.choices["to_seq"].values == (start, start + 1)  # the abandoned seq is not offered


def test_outcome_and_view_of_a_finished_match():
    r = Replay("ex10a-life-zero")
    v = GAME.view(r.state)
    assert v["result"] == {"outcome": "WIN", "winner": A, "reason": "LIFE_ZERO"}
    assert v["match"]["result"]["winner"] == A
    assert "won by alice" in GAME.describe(r.state)


def test_docs_show_every_action_with_a_jsonl_line_that_decodes():
    import json
    import re
    import typing
    from pathlib import Path

    from adjudicator.engine.fold import decode_event
    from adjudicator.games.demonbrave.events import Event

    doc = (Path(__file__).resolve().parents[2] / "docs" / "games" / "demonbrave.md").read_text(encoding="utf-8")
    lines = [line for block in re.findall(r"```jsonl\n(.*?)```", doc, re.S) for line in block.splitlines() if line.strip()]
    shown = set()
    for line in lines:
        obj = json.loads(line)
        type_, by = obj.pop("type"), obj.pop("by")
        decode_event(GAME, type_, by, obj)
        shown.add(type_)
    tags = {cls.__struct_config__.tag for cls in typing.get_args(Event)}
    assert tags == shown, f"not documented: {sorted(tags - shown)}"


def _waited_for(state):
    """Who the table waits for, read from ``legal``: the authors of the actions not ``anytime``."""
    return list(dict.fromkeys(a.who for a in GAME.legal(state) if not a.anytime))


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.jsonl")))
def test_waiting_is_who_legal_waits_for_at_every_state(name):
    """The board's "waiting for" (``view.waiting``, found without building the actions) names
    exactly the authors of the actions ``legal`` offers that are not anytime, in its order: in
    setup, turns, attacks, chains and between games."""
    from adjudicator.games.demonbrave.view import waiting

    history = Replay(name).fold.history
    for seq in history:
        assert waiting(history[seq]) == _waited_for(history[seq]), (name, seq)


@pytest.mark.parametrize("name", ["ex01-opening", "ex14-e-rewind-and-replay", "ex15-target-leaves"])
def test_every_viewers_board_drawn_at_once_is_their_own(name):
    """``boards`` (what all see alike worked out once, for the page) gives each viewer the board
    ``board`` gives them alone: the judge's hands to the judge, a count of the other's to a player."""
    history = Replay(name).fold.history
    viewers = (None, A, B, "carol")
    for seq in history:
        drawn = GAME.boards(history[seq], viewers)
        assert drawn == [GAME.board(history[seq], v) for v in viewers], (name, seq)
        assert drawn[1] != drawn[0] or not any(z.name == "hand" and z.cards for z in drawn[0].zones)


def test_boards_drawn_from_what_the_state_before_shared_are_those_drawn_afresh():
    """The board keeps what it drew last for a player and the games played, by what it drew them
    from: at every event of a long random match the boards are equal to those drawn with nothing
    kept."""
    from adjudicator.games.demonbrave import board as drawing
    from tests.gamekit import check_drawings_kept

    check_drawings_kept("demonbrave", {"match_games": 999}, drawing._DRAWN)

