"""Setup, registration, the match's own events and who may enter what (rules §2, §3, §5, §8)."""

from __future__ import annotations

import pytest

from adjudicator.engine.protocol import Violation
from tests.builddivide.helpers import A, B, accepted, catalog, clone, deck, ev, opening, refused, run, setup, started, to_main, view


def test_BD_OVR_1_two_players_only():
    line = started()
    line["players"] = [A, B, "carol"]
    v = refused([line])
    assert (v.rule, v.code) == ("BD-OVR-1", "PLAYER_COUNT")


def test_BD_ACT_37_someone_outside_the_match_is_refused():
    v = refused(to_main() + [ev("place_energy", "mallory", card="PLN")])
    assert (v.rule, v.code) == ("BD-ACT-37", "NOT_IN_MATCH") and "'mallory' is neither a player" in v.message


@pytest.mark.parametrize("type_,rule,fields", [
    ("shuffle", "BD-ACT-2", {}), ("place_territory", "BD-ACT-3", {}), ("draw_opening", "BD-ACT-5", {}),
    ("mulligan", "BD-ACT-6", {"redraw": False}), ("place_life", "BD-ACT-7", {}),
    ("place_initial_energy", "BD-ACT-8", {"cards": ["PLN", "U1k"]}), ("concede", "BD-ACT-26", {}),
])
def test_a_player_acts_only_for_themself(type_, rule, fields):
    lines = [started()] + setup()
    upto = {"shuffle": 1, "place_territory": 3, "draw_opening": 6, "mulligan": 8, "place_life": 10,
            "place_initial_energy": 12, "concede": 14}[type_]
    v = refused(lines[:upto] + [ev(type_, B, player=A, **fields)])
    assert (v.rule, v.code) == (rule, "NOT_ALLOWED") and f"{B} cannot enter this for {A}" in v.message


def test_BD_ACT_1_register_deck_by_the_player_before_the_shuffle():
    line = {**started(), "decks": {}}
    reg = ev("register_deck", A, player=A, **deck())
    assert refused([line, {**reg, "by": B}]).rule == "BD-ACT-1"
    m = accepted([line, reg, ev("register_deck", "judge", player=B, **deck())])
    assert view(m)["players"][B]["deck"] == 40
    v = refused([started(), ev("shuffle", A, player=A), ev("register_deck", A, player=A, **deck())])
    assert (v.rule, v.code) == ("BD-SET-1", "OUT_OF_ORDER")


def test_BD_DECK_22_setup_waits_for_valid_registrations_and_the_message_lists_every_rule():
    v = refused([{**started(), "decks": {A: deck()}}, ev("shuffle", A, player=A)])
    assert (v.rule, v.code) == ("BD-DECK-22", "NO_DECK") and "bob" in v.message
    bad = deck()
    bad["main"] = bad["main"] + ["U5k"] * 4 + ["U7k"] * 4 + ["NCMD"] * 2 + ["BST"]  # 51 cards, 13 busters, 5 BST
    v = refused([started({A: bad, B: deck()})])
    assert v.rule == "BD-DECK-10" and "(BD-DECK-10, BD-DECK-12, BD-DECK-13)" in v.message


def test_BD_DECK_16_17_20_territory_rules_and_unknown_cards():
    from adjudicator.games.builddivide import GAME

    d = deck()
    d["d_deck"] = ["TER1"]
    found = GAME.check_deck(d, GAME.decode_options({"d_deck_allows_territory": False}))
    assert [v.rule_id for v in found] == ["BD-DECK-16"] and "TER1" in found[0].message
    assert GAME.check_deck(d, None) == []
    assert [v.rule_id for v in GAME.check_deck({**deck(), "territory": "QCMD"})] == ["BD-DECK-17"]
    found = GAME.check_deck({**deck(), "main": deck()["main"][:-1] + ["NOPE"]})
    assert [v.rule_id for v in found] == ["BD-DECK-20"] and "NOPE" in found[0].message


def test_BD_DECK_19_a_rule_modifying_territory_needs_judge_approval_and_changes_the_numbers():
    from adjudicator.games.builddivide import GAME

    ter = clone("TER1", "TERX", deck_rule_overrides={"main_min": 30, "hand_limit": 7})
    small = {**deck(), "territory": "TERX", "main": deck()["main"][:35], "catalog": catalog(ter)}
    found = GAME.check_deck(small)
    assert [v.rule_id for v in found] == ["BD-DECK-19"] and "judge_approval" in found[0].message
    assert GAME.check_deck({**small, "judge_approval": True}) == []
    cat = catalog(ter)
    d = {**deck(cat=cat), "territory": "TERX", "judge_approval": True}
    m = accepted([started({A: d, B: deck()}, None, cat)] + setup())
    assert view(m)["players"][A]["territory"]["name"] == "TERX"


def test_BD_SET_1_steps_in_order_and_BD_SET_2_one_mulligan():
    lines = [started()] + setup()
    assert refused(lines[:1] + [ev("place_territory", A, player=A)]).rule == "BD-SET-1"
    assert refused(lines[:2] + [ev("shuffle", A, player=A)]).rule == "BD-SET-1"  # a step is done once
    v = refused(lines[:9] + [ev("mulligan", A, player=A, redraw=True)])
    assert (v.rule, v.code) == ("BD-SET-2", "ALREADY_DECIDED")
    v = refused(lines[:9] + [ev("place_life", A, player=A)])
    assert (v.rule, v.code) == ("BD-SET-1", "OUT_OF_ORDER") and "bob has not decided" in v.message
    assert refused(to_main() + [ev("mulligan", A, player=A, redraw=True)]).rule == "BD-SET-2"  # BD-LIM-3: not after setup


def test_BD_ACT_4_first_player_is_a_player():
    lines = [started()] + setup()
    v = refused(lines[:5] + [ev("decide_first_player", "judge", first_player="carol", method="RPS")])
    assert v.rule == "BD-ACT-4" and "'carol'" in v.message


def test_BD_ACT_8_two_initial_energy_cards_named_from_the_deck_and_BD_HID_5():
    lines = [started()] + setup()
    v = refused(lines[:12] + [ev("place_initial_energy", A, player=A, cards=["PLN"])])
    assert (v.rule, v.code) == ("BD-ACT-8", "WRONG_COUNT")
    v = refused(lines[:12] + [ev("place_initial_energy", A, player=A, cards=["PLN", "U6k"])])
    assert (v.rule, v.code) == ("BD-HID-5", "UNKNOWN_IDENTITY") and "'U6k'" in v.message
    warn = [started(options={"identity_check": "WARN"})] + setup()
    m = accepted(warn[:12] + [ev("place_initial_energy", A, player=A, cards=["PLN", "U6k"])])
    assert [e["name"] for e in view(m)["players"][A]["energy"]] == ["PLN", "U6k"]


def test_setup_figures_BD_SET_3():
    v = view(accepted(opening()))
    assert (v["status"], v["turn"], v["turn_player"], v["phase"]) == ("IN_PROGRESS", 1, A, "STAND")
    for p in (A, B):
        s = v["players"][p]
        assert (s["deck"], s["hand_count"], s["life"], s["yellow"], s["red"], s["energy_standing"]) == (23, 5, 10, 5, 5, 2)


def test_BD_ACT_26_concede_and_BD_OVR_8_nothing_after_it():
    m = accepted(to_main() + [ev("concede", B, player=B)])
    out = m.outcome()
    assert (out.status, out.winner, out.reason) == ("won", A, "concession")
    v = refused(to_main() + [ev("concede", B, player=B), ev("place_energy", A, card="PLN")])
    assert (v.rule, v.code) == ("BD-OVR-8", "GAME_OVER")


@pytest.mark.parametrize("type_,rule,fields", [
    ("judge_ops", "BD-ACT-27", {"ops": []}), ("judge_result", "BD-ACT-30", {"winner": A, "reason": "x"}),
    ("judge_void_game", "BD-ACT-31", {}), ("confirm_result", "BD-ACT-32", {}), ("judge_void_match", "BD-ACT-34", {}),
    ("game_cleanup", "BD-ACT-33", {"mixed_cards_found": False}),
])
def test_judge_events_are_the_judges(type_, rule, fields):
    v = refused(to_main() + [ev(type_, A, **fields)])
    assert (v.rule, v.code) == (rule, "JUDGE_ONLY")


def test_BD_ACT_30_judge_result_and_BD_ACT_32_confirm_and_BD_REW_10():
    assert refused(to_main() + [ev("confirm_result", "judge")]).rule == "BD-ACT-32"
    lines = to_main() + [ev("judge_result", "judge", winner=B, reason="game loss for a marked sleeve")]
    out = accepted(lines).outcome()
    assert (out.status, out.winner, out.reason) == ("won", B, "judge")
    assert refused(to_main() + [ev("judge_result", "judge", winner="carol", reason="x")]).rule == "BD-ACT-30"
    v = refused(lines + [ev("confirm_result", "judge"), ev("judge_result", "judge", winner=A, reason="changed")])
    assert (v.rule, v.code) == ("BD-REW-10", "CONFIRMED")
    out = accepted(to_main() + [ev("judge_result", "judge", winner=None, reason="agreed draw")]).outcome()
    assert (out.status, out.winner) == ("drawn", None)


def test_BD_ACT_33_cleanup_after_a_result_and_BD_ACT_31_void_after_a_void_match():
    v = refused(to_main() + [ev("game_cleanup", "judge")])
    assert (v.rule, v.code) == ("BD-ACT-33", "NOT_ENDED")
    lines = to_main() + [ev("concede", B, player=B), ev("game_cleanup", "judge"), ev("judge_void_match", "judge", note="x")]
    assert accepted(lines).outcome().status == "void"
    v = refused(lines + [ev("judge_void_game", "judge")])
    assert v.rule == "BD-OVR-8"


def test_BD_ACT_33_game_cleanup_is_a_judge_event_a_players_is_refused():
    """The chapter lists game_cleanup among the judge events, never entered by players: after game 1
    of a best of three a player's cleanup is refused under BD-ACT-33 and game 2 does not open."""
    lines = [started(options={"best_of": 3})] + setup() + [ev("concede", B, player=B)]
    for who in (A, B):
        v = refused(lines + [ev("game_cleanup", who, mixed_cards_found=False)])
        assert (v.rule, v.code) == ("BD-ACT-33", "JUDGE_ONLY")
    _, m = run(lines + [ev("game_cleanup", A, mixed_cards_found=False)])
    assert (view(m)["game_no"], view(m)["status"]) == (1, "ENDED")
    m = accepted(lines + [ev("game_cleanup", "judge", mixed_cards_found=False)])
    assert (view(m)["game_no"], view(m)["status"], view(m)["setup_step"]) == (2, "SETUP", 1)


def test_BD_REW_2_only_a_judge_rewinds_or_corrects():
    lines = to_main() + [ev("place_energy", A, card="PLN")]
    assert refused(lines + [ev("rewind", A, to_seq=16, reason="oops")]).rule == "BD-REW-2"
    v = refused(lines + [ev("correct", A, at_seq=17, reason="x", event={"type": "judge_ops", "by": "judge", "ops": []})])
    assert (v.rule, v.code) == ("BD-REW-2", "JUDGE_ONLY")


def test_BD_REW_13_a_correction_within_the_turn_is_replayed_and_conflicts_name_the_event():
    lines = to_main(a=["U5k"]) + [ev("judge_ops", "judge", ops=[{"op": "PUT_ONTO_FIELD", "card": "U5k", "from_zone": "DECK", "player": A}]),
                                  ev("place_energy", A, card="PLN")]
    fix = {"type": "judge_ops", "by": "judge", "ops": [{"op": "DAMAGE_UNIT", "unit": "U5k", "n": 1000}], "note": "forgotten"}
    m = accepted(lines + [ev("correct", "judge", at_seq=18, event=fix, reason="a forgotten effect")])
    assert view(m)["players"][A]["field"][0]["damage"] == 1000
    assert view(m)["players"][A]["energy_placed_this_turn"] is True
    too_early = ev("correct", "judge", at_seq=5, event=fix, reason="x")
    v = refused(lines + [too_early])
    assert (v.rule, v.code) == ("BD-REW-13", "OUT_OF_SCOPE")
    conflict = ev("correct", "judge", at_seq=18, reason="x",
                  event={"type": "place_energy", "by": A, "card": "U1k"})
    v = refused(lines + [conflict])
    assert v.rule == "BD-LIM-1" and "seq 18" in v.message


def test_BD_REW_6_current_game_scope_reaches_back_to_setup():
    lines = to_main() + [ev("place_energy", A, card="PLN")]
    assert refused(lines + [ev("rewind", "judge", to_seq=3, reason="x")]).rule == "BD-REW-6"
    m = accepted([started(options={"rewind_scope": "CURRENT_GAME"})] + lines[1:] + [ev("rewind", "judge", to_seq=3, reason="x")])
    assert view(m)["setup_step"] == 3


def test_rejected_match_started_deck_is_not_stored():
    report, match = run([started({A: {**deck(), "main": deck()["main"][:39]}, B: deck()})])
    assert report.accepted == 0 and report.verdicts[0].rule == "BD-DECK-10"


def test_violation_is_exported():
    assert issubclass(Violation, Exception)


def test_BD_ACT_4_the_loser_chooses_the_first_player_of_the_next_game():
    lines = [started(options={"best_of": 3, "next_game_first_player": "LOSER_CHOOSES"})] + setup()
    lines += [ev("concede", B, player=B), ev("game_cleanup", "judge")] + setup()[:4]
    v = refused(lines + [ev("decide_first_player", A, first_player=A, method="LOSER_CHOOSES")])
    assert (v.rule, v.code) == ("BD-ACT-4", "NOT_ALLOWED") and "bob lost the last game" in v.message
    m = accepted(lines + [ev("decide_first_player", B, first_player=B, method="LOSER_CHOOSES")])
    assert view(m)["first_player"] == B and view(m)["game_no"] == 2 and view(m)["wins"] == {A: 1, B: 0}


def test_legal_asks_for_the_missing_deck_list_first():
    from adjudicator.games.builddivide import GAME

    m = accepted([{**started(), "decks": {A: deck()}}])
    offered = [(a.who, a.type) for a in GAME.legal(m.state) if not a.anytime]
    assert offered == [(B, "register_deck")]


def test_illegal_deck_policy_VOID_voids_the_game_at_cleanup():
    lines = [started(options={"illegal_deck_policy": "VOID"})] + setup() + [ev("concede", B, player=B)]
    m = accepted(lines + [ev("game_cleanup", "judge", mixed_cards_found=True)])
    d = view(m)
    assert (d["game_no"], d["status"], d["wins"], d["past_games"], d["outcome"]) == (2, "SETUP", {A: 0, B: 0}, ["void"], "in_progress")
    m = accepted([started()] + setup() + [ev("concede", B, player=B), ev("game_cleanup", "judge", mixed_cards_found=True)])
    assert view(m)["game_no"] == 1 and m.outcome().winner == A  # JUDGE_DECIDES: the result stands until the judge acts


def test_BD_ACT_4_legal_offers_the_first_player_decision_to_whoever_may_enter_it():
    from adjudicator.games.builddivide import GAME

    lines = [started()] + setup()[:4]
    offered = [(a.who, a.type) for a in GAME.legal(accepted(lines).state) if not a.anytime]
    assert offered == [(A, "decide_first_player"), (B, "decide_first_player"), ("judge", "decide_first_player")]
    for who in (A, B, "judge"):  # BD-ACT-4: the judge, or either player recording what both saw
        assert view(accepted(lines + [ev("decide_first_player", who, first_player=B, method="RPS")]))["first_player"] == B
    lines = [started(options={"best_of": 3, "next_game_first_player": "LOSER_CHOOSES"})] + setup()
    lines += [ev("concede", B, player=B), ev("game_cleanup", "judge")] + setup()[:4]
    offered = [(a.who, a.type) for a in GAME.legal(accepted(lines).state) if not a.anytime]
    assert offered == [(B, "decide_first_player"), ("judge", "decide_first_player")]


def test_BD_ACT_34_a_void_match_voids_every_game_and_nothing_of_it_counts_BD_REW_11():
    lines = [started(options={"best_of": 3})] + setup() + [ev("concede", A, player=A), ev("game_cleanup", "judge")]
    before = view(accepted(lines))
    assert (before["game_no"], before["status"], before["wins"], before["past_games"]) == (2, "SETUP", {A: 0, B: 1}, [B])
    m = accepted(lines + [ev("judge_void_match", "judge", note="marked cards")])
    d = view(m)
    assert (d["game_no"], d["status"], d["wins"], d["past_games"]) == (2, "VOID", {A: 0, B: 0}, ["void"])
    assert d["result"] == {"winner": None, "reason": "void", "detail": "marked cards"}
    out = m.outcome()
    assert (out.status, out.winner, out.score, out.reason) == ("void", None, {A: 0, B: 0}, "void")
    m = accepted([started()] + setup() + [ev("concede", A, player=A), ev("judge_void_match", "judge", note="x")])
    d = view(m)  # best of one, voided before the cleanup: the game ended with a result, which no longer counts
    assert (d["status"], d["wins"], d["past_games"], d["result"]["reason"], m.outcome().status) == ("VOID", {A: 0, B: 0}, [], "void", "void")
