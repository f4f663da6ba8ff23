"""Strength and tiers (rules §6.1, §6.2): the classification table DB-RES-10, joker rules and
comparisons, each test citing the rule it checks."""

from __future__ import annotations

import pytest

from adjudicator.games.demonbrave.config import Config
from adjudicator.games.demonbrave.ranking import card_strength, compare_keys, compare_pairs, rank_cards

DEFAULT = Config()


def cards(text: str) -> list[str]:
    return text.split()


# DB-RES-10: the chapter's classification examples, normal and reversed key vectors.
@pytest.mark.parametrize(
    "text, category, normal, reversed_",
    [
        ("S3 H9", "FREE", (7, 1), (13, 7)),
        ("D8 H8", "SET", (6, 6), (8, 8)),
        ("D5 D6", "RUN", (4, 3), (11, 10)),
        ("H5 C10 SQ", "FREE", (10, 8, 3), (11, 6, 4)),
        ("S7 JK1", "RUN", (6, 5), (10, 9)),
        ("S5 S7 JK1", "RUN", (5, 4, 3), (11, 10, 9)),
        ("JK1 JK2", "RUN", (13, 12), (13, 12)),
        ("S7 H7 JK1", "SET", (5, 5, 5), (9, 9, 9)),
        ("JK1 S3 H9", "FREE", (14, 7, 1), (14, 13, 7)),
        ("S5 S8 JK1", "FREE", (14, 6, 3), (14, 11, 8)),
    ],
)
def test_db_res_10_classification_table(text, category, normal, reversed_):
    n = rank_cards(cards(text), False, DEFAULT)
    r = rank_cards(cards(text), True, DEFAULT)
    assert (n.category, n.key) == (category, normal)
    assert (r.category, r.key) == (category, reversed_)


def test_db_res_7_joker_assignment_in_run_follows_the_order():
    # DB-RES-7 (b), DB-EX-13 (a)/(c): JK1 is S8 in normal order, S6 when reversed.
    n = rank_cards(["S7", "JK1"], False, DEFAULT)
    r = rank_cards(["S7", "JK1"], True, DEFAULT)
    assert [m.assigned for m in n.members if m.card == "JK1"] == ["S8"]
    assert [m.assigned for m in r.members if m.card == "JK1"] == ["S6"]


def test_db_res_7_top_card_jokers_are_never_wild():
    # DB-RES-7 (d), DB-EX-13 (e): with joker_in_pair = top_card, S7 JK1 is FREE [14,5].
    r = rank_cards(["S7", "JK1"], False, Config(joker_in_pair="top_card"))
    assert (r.category, r.key) == ("FREE", (14, 5))


def test_db_res_4_joker_single_is_14_in_both_orders():
    assert card_strength("JK1", False) == 14
    assert card_strength("JK2", True) == 14
    assert card_strength("C2", False) == 13
    assert card_strength("C2", True) == 1
    assert card_strength("S3", True) == 13


def test_db_res_5_run_wraparound_and_min_length():
    # DB-RES-5: 2-3 is not a run by default; with run_wraparound it is.
    assert rank_cards(["S2", "S3"], False, DEFAULT).category == "FREE"
    assert rank_cards(["S2", "S3"], False, Config(run_wraparound=True)).category == "RUN"
    # HK-HA-H2 is a run; with run_min_length 3 a 2-card run is only FREE.
    assert rank_cards(["HK", "HA", "H2"], False, DEFAULT).category == "RUN"
    assert rank_cards(["D5", "D6"], False, Config(run_min_length=3)).category == "FREE"


def test_db_res_9_tier_then_key():
    # DB-RES-9 / DB-EX-7: SET beats FREE; FREE loses to RUN; same tier, first element decides.
    set_77 = rank_cards(["S7", "H7"], False, DEFAULT)
    free = rank_cards(["DA", "C2"], False, DEFAULT)
    assert compare_pairs(set_77, free, DEFAULT).winner == "a"
    run = rank_cards(["H4", "H5"], False, DEFAULT)
    assert compare_pairs(rank_cards(["SK", "D3"], False, DEFAULT), run, DEFAULT).winner == "b"
    jj = rank_cards(["SJ", "HJ"], False, DEFAULT)
    eights = rank_cards(["D8", "C8", "H8"], False, DEFAULT)
    d = compare_pairs(jj, eights, DEFAULT)
    assert (d.winner, d.rule) == ("a", "DB-RES-9")
    assert compare_pairs(jj, eights, Config(pair_size_rule="size_first")).winner == "b"
    # pair_category_order FREE,RUN,SET puts SET above RUN.
    swapped = Config(pair_category_order=("FREE", "RUN", "SET"))
    assert compare_pairs(rank_cards(["S7", "H7"], False, swapped), rank_cards(["H4", "H5"], False, swapped), swapped).winner == "a"
    assert compare_pairs(set_77, run, DEFAULT).winner == "b"


def test_db_res_9_size_rules():
    assert compare_keys((9, 9, 1), (9, 9), "prefix_longer_wins")[0] == 1
    assert compare_keys((9, 9, 1), (9, 9), "ignore_size")[0] == 0
    assert compare_keys((5, 5, 5), (9, 9), "size_first")[0] == 1
    assert compare_keys((7, 7), (7, 7), "prefix_longer_wins")[0] == 0
