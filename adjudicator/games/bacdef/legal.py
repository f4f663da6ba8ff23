"""The actions open now (rules/bacdef.md §5), each with who may enter it and the choices of its
fields."""

from __future__ import annotations

from adjudicator.games.bacdef.state import State, instances_of, orders_missing
from adjudicator.protocol import JUDGE, LegalAction


def legal(s: State) -> list[LegalAction]:
    if s.status != "in_progress" or s.set is None:
        return []
    st = s.set
    out: list[LegalAction] = []

    def add(who: str, type_: str, fields: str = "", note: str = "", anytime: bool = False) -> None:
        out.append(LegalAction(who=who, type=type_, fields=fields, note=note, anytime=anytime))

    if st.stage == "deck":
        for p in s.players:
            if not st.players[p].deck:
                add(p, "register_deck", f"player={p} letters=[7 letters A-F; D, E, F at most once]")
    elif st.stage == "guards":
        for p in s.players:
            if not st.players[p].guards:
                add(p, "place_guards", f"player={p} card_ids=[2 of {', '.join(st.players[p].hand)}]")
    elif st.stage == "first_player":
        add(JUDGE, "decide_first_player", f"first_player=<{'|'.join(s.players)}> method=rps")
    elif st.stage == "turns" and st.turn is not None:
        t = st.turn
        a = t.awaiting
        if a is not None:
            if a.kind == "effect":
                add(JUDGE, "resolve_effect", f"instance_id={a.ref} ops=[...]", "the ops that carry out the card's text")
            elif a.kind == "damage":
                add(a.player, "assign_damage", f"player={a.player} slots=[{a.points} slot number(s)]")
            elif a.kind == "heal":
                add(a.player, "assign_heal", f"player={a.player} slots=[slot per heal point with a choice]")
            elif a.kind == "lost":
                add(a.player, "choose_lost_cards", f"player={a.player} card_ids=[{a.points} of {a.victim}'s hand]")
            elif a.kind == "f_decision":
                add(a.player, "activate_fall_skill", f"player={a.player} card_id={a.ref} ops=[...]")
                add(a.player, "decline_fall_skill", f"player={a.player} card_id={a.ref}")
        elif t.step == "standby":
            for p in s.players:
                if not t.handless[p] and not t.placed.get(p):
                    add(p, "place_field_card", f"player={p} card_id=<{'|'.join(st.players[p].hand)}>")
        elif t.step == "action":
            p = t.attacker
            if not t.declared[p]:
                add(p, "declare_knock", f"player={p}")
                add(p, "declare_skill", f"player={p} card_id={t.placed[p]}")
            else:
                add(p, "declare_skill", f"player={p} card_id=<hand card> extra_of=<instance>")
                add(p, "finish_deployment", f"player={p}")
        elif t.step == "counter":
            p = t.defender
            if not t.declared[p]:
                add(p, "declare_skill", f"player={p} card_id={t.placed[p]}")
                add(p, "declare_through", f"player={p}")
            else:
                add(p, "declare_skill", f"player={p} card_id=<hand card> extra_of=<instance>")
                add(p, "finish_deployment", f"player={p}")
        elif t.step == "resolution":
            for p in orders_missing(t):
                ids = [i.id for i in instances_of(t, p)]
                add(p, "choose_resolution_order", f"player={p} instance_ids=[{','.join(ids)} in the order chosen]")
        elif t.step == "end":
            add(JUDGE, "apply_end_phase_effect", "source=<instance or lasting id> ops=[...]")
            add(JUDGE, "confirm_end_phase")
        add(JUDGE, "rewind", f"to_seq={t.start_seq} cause=contradiction reason=<text>", anytime=True)
        if s.options.judge_may_void_early and t.replays_used >= 1:
            add(JUDGE, "declare_set_void", "reason=<text>", anytime=True)
    if s.options.allow_concession:
        for p in s.players:
            add(p, "concede_set", f"player={p}", anytime=True)
    return out


