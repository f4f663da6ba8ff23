"""Turn and set boundaries (rules/bacdef.md §4, §6, BAC-OVR-7): a new turn, a new set, a set
result and the match result it may bring, and the seq a judge-error rewind cannot go before."""

from __future__ import annotations

from adjudicator.games.bacdef.deck import create_cards
from adjudicator.games.bacdef.state import PlayerState, SetResult, SetState, State, TurnState, put


def set_floor(s: State, seq: int) -> None:
    """A turn completed or a set ended at ``seq``: a judge-error rewind goes no further back (BAC-REW-11)."""
    s.floor_seq = seq


def start_turn(s: State, no: int, seq: int) -> None:
    st = s.set
    a, b = s.players  # the dicts by player, written out: a new turn comes at every turn's end
    first = st.first_player
    attacker = first if no % 2 == 1 else (b if first == a else a)
    handless = {a: not st.players[a].hand, b: not st.players[b].hand}
    # one dict for the fields that start equal: they are replaced whole, never changed in place
    # (``state.SHARED_DICTS``)
    no_one = {a: False, b: False}
    none_yet = {a: 0, b: 0}
    t = TurnState(
        no=no,
        attacker=attacker,
        defender=b if attacker == a else a,
        start_seq=seq,
        handless=handless,
        placed={a: None, b: None},
        declared=no_one,
        closed=no_one,
        extra_allowance=none_yet,
        order={},
        damage_received=none_yet,
    )
    st.turn = t
    if handless[attacker]:
        t.skipped = True
        t.step = "end"
        t.notes = (f"auto: turn {no} skipped, {attacker} (attacker) has no hand card",)


def new_set(s: State) -> None:
    """The next set at its Deck step, or at its Guards step when the decks are reused (BAC-RUL-4)."""
    set_no = (s.set.set_no + 1) if s.set else 1
    s.set = SetState(set_no=set_no, stage="deck", players={p: PlayerState() for p in s.players})
    reuse = s.decks_set1 if (set_no == 1 or not s.options.rebuild_deck_each_set) else None
    if reuse:
        for p, letters in reuse.items():
            create_cards(s, p, letters)
        s.set.stage = "guards"


def match_over(s: State) -> bool:
    """BAC-OVR-7 / BAC-RUL-26: two sets won, the void-set limit reached, or the slots used."""
    if max(s.set_wins.values()) >= 2:
        return True
    limit = s.options.void_set_limit
    if limit is not None and s.void_sets >= limit:
        return True
    return s.options.void_set_consumes_slot and len(s.set_results) >= 3


def end_set(s: State, outcome: str, winner: str | None, reason: str, seq: int) -> None:
    st = s.set
    s.set_results = s.set_results + (SetResult(set_no=st.set_no, outcome=outcome, winner=winner, reason=reason),)
    if outcome == "win":
        s.set_wins = put(s.set_wins, winner, s.set_wins[winner] + 1)
    else:
        s.void_sets += 1
    set_floor(s, seq)
    if not match_over(s):
        new_set(s)
        return
    a, b = s.players
    if s.set_wins[a] == s.set_wins[b]:
        s.status, s.match_winner = "drawn", None
    else:
        s.status = "won"
        s.match_winner = a if s.set_wins[a] > s.set_wins[b] else b
    st.turn = None
    st.stage = "over"
