"""Current stats (E2D-RES-14) and the direct readings of both fields the state-based checks use:
the shortcut for a servant without modifiers gives what the whole rule gives, and reading the
fields directly gives what looking every slot up gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace as rep

from adjudicator.games.e2drive import damage, order
from adjudicator.games.e2drive.config import Options
from adjudicator.games.e2drive.state import (
    GameState,
    Modifier,
    Overdrive,
    PlayerState,
    Servant,
    Stats,
    Statuses,
    alive,
    all_slots,
    both_fields,
    has_alive,
    limited,
    map_servants,
    servant,
    slots_of,
    update_servant,
    with_servant,
)
from adjudicator.games.e2drive.stats import STATS, stat


def rule_stat(sv: Servant, name: str, options: Options) -> int:
    """E2D-RES-14 read word for word: printed value, the SET of the highest rank whose values
    agree (invisibility a rank-8 SET of SPD to 10, or SPD 10 outright when fixed), every ADD, the
    overdrive bonus, heat and wait."""
    if name == "SPD" and sv.status.invisible and options.invisible_spd_mode == "fixed":
        return 10
    sets = [m for m in sv.modifiers if m.stat == name and m.op == "set"]
    if name == "SPD" and sv.status.invisible:
        sets.append(Modifier(id=0, stat="SPD", op="set", value=10, duration="permanent", rank=8))
    value = getattr(sv.printed, name)
    for rank in sorted({m.rank for m in sets}):
        values = {m.value for m in sets if m.rank == rank}
        if len(values) == 1:
            value = values.pop()
            break
    value += sum(m.value for m in sv.modifiers if m.stat == name and m.op == "add")
    value += {"ATK": sv.od.buster, "DEF": sv.od.blocker, "SPD": sv.od.slicer_spd}.get(name, 0)
    if sv.status.heat and name != "SPD":
        value -= 10
    if sv.status.wait and name == "SPD":
        value -= 20
    return value


tens = st.integers(-4, 8).map(lambda n: n * 10)
modifiers = st.lists(st.builds(Modifier, id=st.integers(1, 9), stat=st.sampled_from(STATS + ("EXTRA",)),
                               op=st.sampled_from(["add", "set"]), value=tens, duration=st.just("permanent"),
                               rank=st.integers(1, 8)), max_size=4).map(tuple)
servants = st.builds(
    Servant, instance=st.just(1), card=st.just("F-Test"), name=st.just("F-Test"), type=st.just("Buster"),
    printed=st.builds(Stats, DUR=tens, ATK=tens, DEF=tens, SPD=tens),
    damage=st.integers(0, 9).map(lambda n: n * 10), destroyed=st.booleans(),
    status=st.builds(Statuses, invisible=st.booleans(), heat=st.booleans(), wait=st.booleans()),
    modifiers=st.one_of(st.just(()), modifiers),
    od=st.builds(Overdrive, buster=tens, blocker=tens, slicer_spd=tens))
options = st.sampled_from([Options(), Options(invisible_spd_mode="fixed")])


@given(sv=servants, name=st.sampled_from(STATS), opts=options)
def test_stat_is_the_rule_E2D_RES_14(sv, name, opts):
    assert stat(sv, name, opts) == rule_stat(sv, name, opts)


def game_of(p1: tuple[Servant, ...], p2: tuple[Servant, ...], damage_cards: int = 0) -> GameState:
    return GameState(status="in_progress", players=(PlayerState(seat="P1", name="a", servants=p1, damage_cards=damage_cards),
                                                    PlayerState(seat="P2", name="b", servants=p2, damage_cards=damage_cards)))


@given(svs=st.lists(servants, min_size=6, max_size=6), damage_cards=st.integers(0, 3))
def test_direct_readings_of_both_fields_match_the_slot_lookups(svs, damage_cards):
    g = game_of(tuple(svs[:3]), tuple(svs[3:]), damage_cards)
    assert list(both_fields(g)) == [(r, servant(g, r)) for r in all_slots()]
    for seat in ("P1", "P2"):
        lookups = [r for r in slots_of(seat) if not servant(g, r).destroyed]
        assert alive(g, seat) == lookups
        assert has_alive(g.players[0 if seat == "P1" else 1]) == bool(lookups)
        assert limited(g, seat) == (damage_cards == 3 and len(lookups) == 1)  # E2D-LIM-9


@given(svs=st.lists(servants, min_size=6, max_size=6))
def test_map_servants_copies_every_servant_once_and_leaves_the_input(svs):
    g = game_of(tuple(svs[:3]), tuple(svs[3:]))
    before = [(r, sv) for r, sv in both_fields(g)]
    h = map_servants(g, lambda sv: rep(sv, damage=sv.damage + 10))
    assert [(r, sv) for r, sv in both_fields(g)] == before
    assert [(r, sv.damage) for r, sv in both_fields(h)] == [(r, sv.damage + 10) for r, sv in before]


@given(svs=st.lists(servants, min_size=6, max_size=6), acted=st.lists(st.booleans(), min_size=6, max_size=6), opts=options)
def test_top_tied_is_the_head_of_the_ranking_E2D_TURN_4(svs, acted, opts):
    svs = [rep(sv, action="acted") if a else sv for sv, a in zip(svs, acted)]
    g = game_of(tuple(svs[:3]), tuple(svs[3:]))
    ranking = order.ranked(g, opts)
    assert order.top_tied(g, opts) == [r for r, spd in ranking if spd == ranking[0][1]]


@given(svs=st.lists(servants, min_size=6, max_size=6), ref=st.sampled_from(all_slots()), dmg=st.integers(0, 9))
def test_update_servant_is_with_servant_of_the_replaced_one_and_leaves_the_input(svs, ref, dmg):
    g = game_of(tuple(svs[:3]), tuple(svs[3:]))
    before = list(both_fields(g))
    assert update_servant(g, ref, damage=dmg * 10) == with_servant(g, ref, rep(servant(g, ref), damage=dmg * 10))
    assert list(both_fields(g)) == before


@given(svs=st.lists(servants, min_size=6, max_size=6), ref=st.sampled_from(all_slots()), dmg=st.integers(0, 9), opts=options)
def test_destruction_check_since_a_checked_state_reads_only_the_changed_fields(svs, ref, dmg, opts):
    """A field whose servants are those of a state the check left as it was holds no doomed
    servant: skipping it gives what the whole check gives."""
    g = damage.destruction_check(game_of(tuple(svs[:3]), tuple(svs[3:])), opts)
    assert damage.destruction_check(g, opts) is g  # checked: nothing more is doomed
    h = damage.add_damage(g, ref, dmg * 10)
    assert damage.destruction_check(h, opts, g.players) == damage.destruction_check(h, opts)
