"""Local rule D, three or more players (rules/pbwcg.md PBW-RUL-47, §15): the PL order, a player
going out and entering nothing more, checks rolled by any other player, attacks on a player whose
field holds no PC, and how the battle ends."""

from __future__ import annotations

from tests.pbwcg.builder import GAME, Table
from tests.pbwcg.golden_a import TIE_B1_A2


def three() -> Table:
    """Turn 1 of a three-player battle, at P3's PL turn: order B1, A2, A1, C1, B2, C2."""
    t = Table(players=("P1", "P2", "P3"))
    t.setup()
    t.start_turn(ties=[TIE_B1_A2])
    return t


def hp(t: Table) -> dict[str, int]:
    return {p.name: p.hp for p in t.state.players}


def test_pl_turns_in_reverse_order_of_each_players_first_pc_PBW_RUL_47():
    """PBW-RUL-47, PBW-RUL-15: first PCs of P2, P1, P3 in places 1, 2, 4 -> PL turns P3, P1, P2;
    a player with no PC in the order takes the first PL turn."""
    t = three()
    assert t.state.action_order == ("B1", "A2", "A1", "C1", "B2", "C2")
    assert t.state.pl_order == ("P3", "P1", "P2") and t.state.pl_order[t.state.pl_index] == "P3"
    t.refuse("PBW-TURN-4", "pl_turn_ended", "P1", player="P1")
    t.pl_turns()
    t.act("effect", "judge", source="fixture: P2's PCs fall",
          ops=[{"op": "incapacitate", "character": "B1"}, {"op": "incapacitate", "character": "B2"}])
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    assert t.state.action_order == ("A2", "A1", "C1", "C2") and t.state.pl_order == ("P2", "P3", "P1")


def test_a_player_at_0_is_out_their_cards_leave_and_they_enter_nothing_more_PBW_RUL_47():
    t = three()
    t.act("card_set", "P3", player="P3", card="P3F01", set_slot=2)
    t.end_pl_turn()
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P3", "n": 14}])
    st = t.state
    assert st.out == ("P3",) and st.result is None and GAME.outcome(st).status == "in_progress"
    assert st.field("P3") == () and st.player("P3").removed == ("C1", "C2", "P3F01")
    assert st.player("P3").hand == ("P3F02", "P3F03", "P3F04", "P3F05") and st.player("P3").set_zone == (None,) * 5
    assert "P3 is out of the battle (HP 0): their cards leave it (PBW-RUL-47)" in st.notes
    assert GAME.view(st, None)["players"]["P3"]["out"] is True
    v = t.refuse("PBW-RUL-47", "surrender", "P3", player="P3")
    assert (v.code, v.message) == ("OUT", "P3 is out of the battle and enters nothing more; surrender is refused")
    t.refuse("PBW-RUL-47", "hand_discarded", "judge", player="P3", cards=["P3F02"])
    t.refuse("PBW-EFF-25", "effect", "judge", source="too late", ops=[{"op": "hp_heal", "player": "P3", "n": 5}])
    assert [a.who for a in GAME.legal(t.state) if a.type == "surrender"] == ["P1", "P2"]
    t.pl_turns()
    t.act("draw_agreed", "P1", confirmations=["P1", "P2"])  # the players in the battle (PBW-ACT-30)
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("drawn", None, "agreement")


def test_the_pl_turn_of_a_player_who_goes_out_in_it_passes_on_PBW_RUL_47():
    t = three()
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P3", "n": 20}])
    assert t.state.out == ("P3",) and t.state.step == "PL" and t.state.pl_order[t.state.pl_index] == "P1"
    t.act("pl_turn_ended", "P1", player="P1")
    t.act("pl_turn_ended", "P2", player="P2")
    assert t.state.step == "FIELD"
    t.field_step()
    t.begin("B1")
    t.end("B1")
    t.idle("A2")
    t.idle("A1")
    assert t.next_actor() == "B2"  # C1 and C2 left with P3


def test_checks_are_rolled_by_any_player_other_than_the_declarer_PBW_RUL_47_PBW_HID_5():
    t = three()
    t.pl_turns()
    t.field_step()
    t.begin("B1")
    t.refuse("PBW-HID-5", "normal_attack", "P2", actor="B1", target="A2", evasion_tag=True,
             checks={"evasion": [{"declarer": "P1", "roller": "P1", "declared": "odd", "die": 2}]})
    t.act("normal_attack", "P2", actor="B1", target="A2", evasion_tag=True,
          checks={"evasion": [{"declarer": "P1", "roller": "P3", "declared": "odd", "die": 2}]})
    assert hp(t)["P1"] == 21 - 3 and t.char("A2").endurance == 6  # the check failed: the hit lands
    legal = [a for a in GAME.legal(t.state) if a.type == "main_turn_ended"]
    assert legal and legal[0].who == "P2"


def test_a_pl_attack_may_target_any_player_whose_field_holds_no_pc_PBW_RUL_47():
    t = three()
    t.pl_turns()
    t.act("effect", "judge", source="fixture: P3's PCs fall",
          ops=[{"op": "incapacitate", "character": "C1"}, {"op": "incapacitate", "character": "C2"}])
    t.field_step()
    t.begin("B1")
    offered = next(a for a in GAME.legal(t.state) if a.type == "normal_attack")
    assert offered.choices["target"].values == ("A1", "A2", "P3")
    t.act("normal_attack", "P2", actor="B1", target="P3")  # trunc(AV BODY 6 / 2) = 3
    assert hp(t) == {"P1": 21, "P2": 18, "P3": 11}
    t.end("B1")
    t.begin("A2")
    t.refuse("PBW-RES-9", "normal_attack", "P1", actor="A2", target="P2")  # P2 still has PCs


def test_the_last_player_left_wins_and_all_left_at_once_draw_PBW_RUL_47():
    t = three()
    t.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P1", "n": 21},
                                                     {"op": "hp_damage", "player": "P3", "n": 20}])
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("won", "P2", "hp_zero") and t.state.out == ()
    u = three()
    u.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": p, "n": 30} for p in ("P1", "P2", "P3")])
    out = GAME.outcome(u.state)
    assert (out.status, out.winner, out.reason) == ("drawn", None, "both_hp_zero")
    x = Table({"player_count": 3, "simultaneous_defeat": "active_player_wins"}, players=("P1", "P2", "P3"))
    x.setup()
    x.start_turn(ties=[TIE_B1_A2])
    x.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": "P3", "n": 30}])
    x.act("effect", "judge", source="fixture", ops=[{"op": "hp_damage", "player": p, "n": 30} for p in ("P1", "P2")])
    out = GAME.outcome(x.state)  # P3 went out first; P1 and P2 fell at once in P1's PL turn (PBW-RUL-3)
    assert (out.status, out.winner, out.reason) == ("won", "P1", "both_hp_zero") and x.state.out == ("P3",)


def test_a_surrender_puts_one_player_out_and_the_last_one_left_wins_PBW_OVR_4_PBW_RUL_47():
    t = three()
    t.act("surrender", "P1", player="P1")
    assert t.state.out == ("P1",) and t.state.result is None and t.state.field("P1") == ()
    t.act("surrender", "P3", player="P3")
    out = GAME.outcome(t.state)
    assert (out.status, out.winner, out.reason) == ("won", "P2", "surrender")
    t.act("result_confirmed", "P2", confirmations=["P2", "P3"])
    assert t.state.confirmed
