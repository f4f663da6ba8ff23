"""E2D-EX-10…20 as golden matches."""

from __future__ import annotations

from tests.e2drive.builder import DECK, SERVANTS_A, SERVANTS_B, ev, pay, started
from tests.e2drive.golden_kit import (
    ALL, GHOST, Golden, PAWNS, RHO, acted, dcard, destroy, dmg, end_main, ether, je, limited_p1, merge, opening, pl, status, sv,
)


def ex10() -> None:
    variants = [
        ("a", {}, 60, True, 20, 0, "Buster overdrive: ATK 70, B 20; DEF 60 → diff 10, floor max(10, 20) = 20D"),
        ("def80", {}, 80, True, 20, 10, "DEF 80: diff −10 → both 10D, then the target max(10, 20) = 20D"),
        ("add", {"buster_overdrive_mode": "add"}, 60, True, 30, 0, "Mode add: 10 + 20 = 30D"),
        ("recoil", {"buster_overdrive_mode": "recoil"}, 60, True, 10, 20, "Mode recoil: the target 10D, the Buster 20D"),
        ("nodef", {}, 60, False, 70, 0, "No DEF: no adjustment, 70D; 70 > 70 is false, F-Rho survives"),
    ]
    for part, opts, df, defend, dt, da, title in variants:
        g = opening(Golden(f"ex10{part}-buster", "E2D-EX-10", title), ["F-Alpha"] + PAWNS, ["F-Rho"] + PAWNS,
                    servants={"F-Rho": {**RHO, "DEF": df}}, options=opts)
        g.add(limited_p1([acted("P2.S2"), acted("P2.S3")]), check=merge(pl("P1", limited=True, master={"size": 5, "on": 0})))
        g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={}),
              check=merge(sv("P1.S1", ATK=70, overdrive={"buster_ATK": 20}), pl("P1", master={"on": 2})))
        g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.M", 1)), check=pl("P1", master={"on": 3}))
        g.add(ev("defense", "P2", defend=defend, payment=pay("P2.S1", 1) if defend else []),
              check=merge(sv("P2.S1", damage=dt, destroyed=False), sv("P1.S1", damage=da, ATK=70, overdrive={"buster_ATK": 20})))
        if part == "a":
            g.add(ev("overdrive", "P2", servant="P2.S1", payment=pay("P2.M", 1), params={}), reject="E2D-LIM-10")
        g.write()


def ex11() -> None:
    sigma_frozen = [("a", {}, False, 30), ("replace", {"blocker_reflect_mode": "replace"}, False, 20), ("frozen", {}, True, 0)]
    for part, opts, frozen, p1_dmg in sigma_frozen:
        title = {"a": "Blocker overdrive: compulsion refuses end_action; DEF 60 vs ATK 40 → both 10D, reflection +20",
                 "replace": "Mode replace: the attacker takes DEF − ATK = 20D instead of 10D + 20",
                 "frozen": "A frozen attacker is not able to ATK: its end_action is accepted"}[part]
        g = opening(Golden(f"ex11{part}-blocker", "E2D-EX-11", title), ["F-Sigma"] + PAWNS, ["F-Pawn-3", "F-Kappa", "F-Pawn-1"],
                    options=opts)
        g.add(je(dcard("P2"), dcard("P2"), dcard("P2"), destroy("P2.S1"), destroy("P2.S3"), dmg("P2.S2", 20),
                 acted("P1.S2"), acted("P1.S3")), check=merge(pl("P2", limited=True), {"acting": "P1.S1"}))
        g.add(ev("end_action", "P1", servant="P1.S1"), check={"acting": "P2.S2"})
        g.add(ev("overdrive", "P2", servant="P2.S2", payment=pay("P2.M", 3), params={}),
              check=merge(sv("P2.S2", DEF=60, overdrive={"blocker_DEF": 30}), pl("P2", master={"on": 3})))
        g.add(ev("end_action", "P2", servant="P2.S2"), check={"phase": "end"})
        g.add(ev("end_turn"), check=merge(pl("P2", master={"on": 0}), sv("P2.S2", DEF=60)))
        g.add(ev("start_turn"), check={"acting": "P1.S1", "turn": 2})
        if frozen:
            g.add(je(status("P1.S1", "freeze"), source="F-Tool-1"))
            g.add(ev("end_action", "P1", servant="P1.S1"), check=merge(sv("P1.S1", action="acted"), {"acting": "P2.S2"}))
            g.write()
            continue
        g.add(ev("end_action", "P1", servant="P1.S1"), reject="E2D-LIM-13")
        g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=pay("P1.S1", 1)))
        g.add(ev("defense", "P2", defend=True, payment=pay("P2.S2", 1)),
              check=merge(sv("P1.S1", damage=p1_dmg, destroyed=False), sv("P2.S2", damage=30, DEF=30, overdrive={})))
        g.write()


def ex12() -> None:
    slicer = {"type": "Slicer", "DUR": 50, "ATK": 30, "DEF": 10, "SPD": 30}
    pad = {"type": "Irregular", "DUR": 60, "ATK": 10, "DEF": 10, "SPD": 10}
    g = opening(Golden("ex12-slicer", "E2D-EX-12", "Slicer overdrive: SPD 50, X 2; the first paid ATK costs 1e, later ones 0e; the 3rd ends the action"),
                ["F-Slice"] + PAWNS, ["F-Pad", "F-Pad-2", "F-Pawn-3"], servants={"F-Slice": slicer, "F-Pad": pad, "F-Pad-2": pad})
    g.add(limited_p1([acted("P2.S2"), acted("P2.S3")]), check={"acting": "P1.S1"})
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={}),
          check=merge(sv("P1.S1", SPD=50, extra_atk_allowance=2), pl("P1", master={"on": 2})))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    g.add(ev("defense", "P2", defend=False, payment=[]), check=merge(sv("P2.S1", damage=30), sv("P1.S1", action="acting", atk_count=1)))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=pay("P1.S1", 1)), reject="E2D-ACT-2")
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=[]))
    g.add(ev("evasion", "P2", evade=False, payment=[]), check=merge(sv("P2.S2", damage=30), sv("P1.S1", action="acting", atk_count=2)))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=[]))
    g.add(ev("defense", "P2", defend=True, payment=pay("P2.S1", 1)),
          check=merge(sv("P2.S1", damage=50, destroyed=False, action="acting", ether={"on": 1}), sv("P1.S1", action="acted", ether={"on": 1}),
                      pl("P1", master={"on": 2}), {"acting": "P2.S1"}))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=[]), reject="E2D-LIM-2")
    g.write()


def ex13() -> None:
    eth = {"type": "Etherizer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    g = opening(Golden("ex13-etherizer", "E2D-EX-13", "Etherizer: locks on P2.M survive the reset until the Etherizer is targeted; the master-only discount"),
                ["F-Delta"] + PAWNS, ["F-Sigma"] + PAWNS, servants={"F-Delta": eth},
                draws={"P1": ["F-Tool-3", "F-Mu", "F-Mu", "F-Gear", "F-Gear"], "P2": ["F-Quick-1", "F-Mu", "F-Mu", "F-Gear", "F-Gear"]})
    g.add(limited_p1(), check=merge(pl("P1", limited=True), {"acting": "P1.S1"}))
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"locks": [{"pool": "P2.M", "n": 2}]}),
          check=merge(pl("P1", master={"on": 2}), pl("P2", master={"on": 2, "held_lock": 2}), {"locks": [{"by": "P1.S1", "pool": "P2.M", "n": 2}]}))
    g.add(ev("play_tool", "P1", card="F-Tool-3", payment=pay("P1.S1", 1, "P1.M", 1)), reject="E2D-ACT-2")
    g.add(ev("play_tool", "P1", card="F-Tool-3", payment=pay("P1.M", 2)),
          check=merge(pl("P1", master={"on": 4}, trash=["F-Tool-3"])))
    g.add(ev("play_quick_tool", "P2", card="F-Quick-1", payment=pay("P2.M", 1)), reject="E2D-ACT-2")
    g.add(ev("end_action", "P1", servant="P1.S1"), check={"acting": "P2.S1"})
    g.add(je(acted("P2.S2"), acted("P2.S3")))
    g.add(ev("end_action", "P2", servant="P2.S1"), check={"phase": "end"})
    g.add(ev("end_turn"), check=merge(pl("P1", master={"on": 0}), pl("P2", master={"on": 2, "held_lock": 2})))
    g.add(ev("start_turn"), check={"acting": "P1.S1"})
    g.add(ev("end_action", "P1", servant="P1.S1"), check={"acting": "P2.S1"})
    g.add(ev("attack", "P2", attacker="P2.S1", target="P1.S1", payment=pay("P2.S1", 1)))
    g.add(ev("evasion", "P1", evade=False, payment=[]),
          check=merge(pl("P2", master={"on": 0, "held_lock": 0}), {"locks": []}, sv("P1.S1", damage=40)))
    g.write()


def ex14() -> None:
    rest = {"type": "Restorer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    s20 = {"type": "Irregular", "DUR": 20, "ATK": 10, "DEF": 10, "SPD": 10}
    s40 = {"type": "Irregular", "DUR": 40, "ATK": 10, "DEF": 10, "SPD": 10}
    g = opening(Golden("ex14a-restorer", "E2D-EX-14", "Restorer: per unit it heals 10D and a listed servant takes 10D; a target destroyed before its unit refuses the event"),
                ["F-Gamma"] + PAWNS, ["F-S20", "F-S40", "F-Pawn-3"], servants={"F-Gamma": rest, "F-S20": s20, "F-S40": s40})
    g.add(limited_p1([dmg("P1.S1", 30), dmg("P2.S1", 20)]), check=merge(sv("P1.S1", damage=30), pl("P1", limited=True)))
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"targets": ["P2.S1", "P2.S1"]}), reject="E2D-ACT-30")
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"targets": ["P2.S1", "P2.S2"]}),
          check=merge(sv("P1.S1", damage=10), sv("P2.S1", damage=30, destroyed=True), sv("P2.S2", damage=10),
                      pl("P1", master={"on": 2})))
    g.write()
    irr = {"type": "Irregular", "DUR": 60, "ATK": 20, "DEF": 20, "SPD": 60}
    g = opening(Golden("ex14b-irregular", "E2D-EX-14", "Irregular: ATK +10 until targeted and a 10D heal"),
                ["F-Irr"] + PAWNS, PAWNS + ["F-Pawn-3"], servants={"F-Irr": irr})
    g.add(limited_p1([dmg("P1.S1", 20)]))
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"choices": ["ATK", "heal"]}),
          check=merge(sv("P1.S1", ATK=30, damage=10, overdrive={"irregular_ATK": 10}), pl("P1", master={"on": 2})))
    g.write()
    junk = {"type": "Junker", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    g = opening(Golden("ex14c-junker", "E2D-EX-14", "Junker opp_discard with the opponent's hand empty: accepted, nothing discarded"),
                ["F-Epsilon"] + PAWNS, PAWNS + ["F-Pawn-3"], servants={"F-Epsilon": junk})
    back = [{"op": "MOVE", "card": "unknown", "from": "hand", "to": "deck", "player": "P2"}] * 6
    g.add(limited_p1(back), check=pl("P2", hand=0, deck=30))
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 1), params={"choices": ["opp_discard"]}),
          check=merge(pl("P1", master={"on": 1}), pl("P2", hand=0, trash=[])))
    g.write()


def ex15() -> None:
    g = opening(Golden("ex15a-upkeep", "E2D-EX-15", "Upkeep: only on units may be designated while enough exist; the reset keeps held units"),
                ["F-Sigma", "F-Kappa", "F-Alpha"], PAWNS + ["F-Pawn-3"])
    g.checkpoints.append({"after_line": g.n, "label": "P1.S1 acts", "view": {"acting": "P1.S1"}})
    g.add(ev("play_tool", "P1", card="F-Field-U", payment=pay("P1.S1", 1)), check=pl("P1", tool_field=[{"card": "F-Field-U", "upkeep": 1}]))
    g.add(je(ether("P1.S1", 1), status("P1.S3", "invisible"), ether("P1.M", 1), acted("P1.S2"), acted("P1.S3"), acted("P2.S1"), acted("P2.S2"), acted("P2.S3")))
    g.add(ev("end_action", "P1", servant="P1.S1"),
          check=merge({"phase": "end", "upkeep_pending": ["P1"]}, sv("P1.S1", ether={"on": 2}), sv("P1.S2", ether={"on": 0}),
                      sv("P1.S3", ether={"on": 1, "held_invisible": 1}), pl("P1", master={"on": 1}, upkeep_due=1)))
    g.add(ev("designate_upkeep", "P1", player="P1", units=pay("P1.S2", 1)), reject="E2D-ACT-35")
    g.add(ev("designate_upkeep", "P1", player="P1", units=pay("P1.M", 1)), check=merge(pl("P1", master={"on": 1, "held_upkeep": 1}), {"upkeep_pending": []}))
    g.add(ev("end_turn"), check=merge(sv("P1.S1", ether={"on": 0}, action="unacted"), sv("P1.S2", ether={"on": 0}),
                                      sv("P1.S3", ether={"on": 1}), pl("P1", master={"on": 1, "held_upkeep": 1}), {"phase": "draw"}))
    g.write()
    g = opening(Golden("ex15b-upkeep-discard", "E2D-EX-15", "Upkeep 6 > 5 designatable: end_turn waits, a card is discarded, then all on units"),
                ["F-Sigma", "F-Kappa", "F-Alpha"], PAWNS + ["F-Pawn-3"])
    g.checkpoints.append({"after_line": g.n, "label": "P1.S1 acts", "view": {"acting": "P1.S1"}})
    g.add(ev("play_tool", "P1", card="F-Field-A", payment=[]))
    g.add(ev("play_tool", "P1", card="F-Field-B", payment=[]))
    g.add(je(ether("P1.S1", 2), ether("P1.M", 1), destroy("P1.S2"), destroy("P1.S3"), acted("P2.S1"), acted("P2.S2"), acted("P2.S3")))
    g.add(ev("end_action", "P1", servant="P1.S1"), check=merge({"upkeep_pending": ["P1"]}, pl("P1", upkeep_due=6)))
    g.add(ev("end_turn"), reject="E2D-ACT-6")
    g.add(ev("designate_upkeep", "P1", player="P1", units=pay("P1.S1", 3, "P1.M", 2)), reject="E2D-ACT-35")
    g.add(ev("discard_upkeep_card", "P1", player="P1", card="F-Field-A"),
          check=pl("P1", upkeep_due=3, trash=["F-Field-A"], tool_field=[{"card": "F-Field-B", "upkeep": 3}]))
    g.add(ev("designate_upkeep", "P1", player="P1", units=pay("P1.S1", 2, "P1.M", 1)))
    g.add(ev("end_turn"), check=merge(sv("P1.S1", ether={"on": 2, "held_upkeep": 2}), pl("P1", master={"on": 1, "held_upkeep": 1})))
    g.write()


def ex16() -> None:
    big = {"type": "Irregular", "DUR": 200, "ATK": 10, "DEF": 10, "SPD": 10}
    g = opening(Golden("ex16-caps-payments", "E2D-EX-16", "Caps and payment sources: tool field 3, equipment 2, quick tools from master only, freeze, in-play tools"),
                ["F-Alpha"] + PAWNS, ["F-Big"] + PAWNS, servants={"F-Big": big})
    g.add(je(acted("P1.S2"), acted("P1.S3")), check={"acting": "P1.S1"})
    g.add(ev("play_tool", "P1", card="F-Field-D", payment=pay("P1.S1", 1)))
    g.add(ev("play_tool", "P1", card="F-Field-A", payment=[]))
    g.add(ev("play_tool", "P1", card="F-Field-B", payment=[]), check=merge(sv("P1.S1", ether={"on": 1}), pl("P1", hand=3)))
    g.add(ev("play_tool", "P1", card="F-Field-U", payment=pay("P1.S1", 1)), reject="E2D-LIM-3")
    g.add(ev("play_tool", "P1", card="F-Gear", payment=pay("P1.S1", 1), targets=["P2.S1"]))
    g.add(je({"op": "MOVE", "card": "F-Gear", "from": "hand", "to": "equipment", "player": "P2", "servant": "P2.S1"}, source="F-Gear"),
          check=sv("P2.S1", equipment=[{"card": "F-Gear", "owner": "P1"}, {"card": "F-Gear", "owner": "P2"}]))
    g.add(ev("play_tool", "P1", card="F-Gear", payment=pay("P1.S1", 1), targets=["P2.S1"]), reject="E2D-LIM-4")
    g.add(ev("play_quick_tool", "P2", card="F-Quick-1", payment=pay("P2.S1", 1)), reject="E2D-ACT-3")
    g.add(ev("play_quick_tool", "P2", card="F-Quick-1", payment=pay("P2.M", 1)),
          check=merge(pl("P2", master={"on": 1}, trash=["F-Quick-1"])))
    g.add(ev("play_quick_tool", "P2", card="F-Tool-1", payment=pay("P2.M", 1)), reject="E2D-ACT-20")
    g.add(je({"op": "MOVE", "card": "F-Field-D", "from": "tool_field", "to": "trash", "player": "P1"}), reject="E2D-LIM-11")
    g.add(je(status("P1.S1", "freeze")))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)), reject="E2D-LIM-14")
    g.add(je(status("P1.S1", "freeze", "off")))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)), check={"attack": {"step": "defense"}})
    g.add(ev("play_quick_tool", "P2", card="F-Quick-1", payment=pay("P2.M", 1)), reject="E2D-ACT-6")
    g.add(ev("defense", "P2", defend=False, payment=[]), check=sv("P2.S1", damage=50))
    g.add(je(destroy("P2.S1"), source="F-Tool-1"),
          check=merge(sv("P2.S1", destroyed=True, equipment=[]), pl("P1", trash=["F-Gear"]), pl("P2", trash=["F-Quick-1", "F-Gear"])))
    g.write()


def ex17() -> None:

    g = Golden("ex17-deck-validation", "E2D-EX-17", "Registrations: 30 cards, 3 of a name, 3 starting servants with different names")
    g.add(started(deck_a=DECK[:29]), reject="E2D-DECK-6")
    g.add(started(deck_a=DECK[:26] + ["F-Tool-1"] * 4), reject="E2D-DECK-8")
    g.add(started(servants_a=["F-Alpha", "F-Alpha", "F-Beta"]), reject="E2D-DECK-10")
    g.add(started(servants_a=SERVANTS_A + ["F-Beta"]), reject="E2D-DECK-9")
    with_alpha = DECK[:27] + ["F-Alpha"] * 3
    g.add(started(deck_a=with_alpha, options={"copy_limit_includes_starting_servants": True}), reject="E2D-DECK-8")
    g.add(started(deck_a=with_alpha), check={"registrations": {"P1": {"servants": SERVANTS_A}, "P2": {"servants": SERVANTS_B}},
                                             "status": "setup"})
    g.write()


def ex18() -> None:
    g = opening(Golden("ex18a-rewind", "E2D-EX-18", "Rewind: the abandoned ATK, destruction and end_action leave nothing in the state"),
                ["F-Sigma"] + PAWNS, ["F-Pawn-3", "F-Kappa", "F-Pawn-1"])
    g.add(je(dmg("P2.S2", 10), acted("P1.S2"), acted("P1.S3"), acted("P2.S3"),
             {"op": "MOVE", "card": "F-Gear", "from": "hand", "to": "equipment", "player": "P2", "servant": "P2.S2"}, source="F-Gear"),
          check=merge({"acting": "P1.S1"}, sv("P2.S2", damage=10, equipment=[{"card": "F-Gear", "owner": "P2"}])))
    mark = g.n
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S2", payment=pay("P1.S1", 1)))
    g.add(ev("defense", "P2", defend=False, payment=[]),
          check=merge(sv("P2.S2", damage=50, destroyed=True, equipment=[]), pl("P2", trash=["F-Gear"]), {"acting": "P2.S1"}))
    g.add(ev("end_action", "P2", servant="P2.S1"), check={"phase": "end"})
    g.add(ev("rewind", to_seq=mark, reason="wrong target entered"),
          check=merge({"acting": "P1.S1", "phase": "main"}, sv("P1.S1", ether={"on": 0}),
                      sv("P2.S2", damage=10, destroyed=False, action="unacted", equipment=[{"card": "F-Gear", "owner": "P2"}]),
                      pl("P2", trash=[]), sv("P2.S1", action="unacted")))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)), check={"attack": {"target": "P2.S1"}})
    g.write()
    g = opening(Golden("ex18b-rewind-window", "E2D-EX-18", "max_rewind_turns = 0: a rewind into the previous turn is refused"),
                ["F-Sigma"] + PAWNS, PAWNS + ["F-Pawn-3"], options={"max_rewind_turns": 0})
    turn1 = g.n
    end_main(g, "P1.S1", [r for r in ALL if r != "P1.S1"])
    g.add(ev("end_turn"))
    g.add(ev("start_turn"), check={"turn": 2})
    g.add(ev("rewind", to_seq=turn1, reason="back to turn 1"), reject="E2D-RWD-2")
    g.add(ev("rewind", to_seq=g.n - 1, reason="back to the start of turn 2"), check={"turn": 2, "acting": "P1.S1"})
    g.write()


def ex19() -> None:
    g = opening(Golden("ex19a-correct", "E2D-EX-19", "Correction: a forgotten passive heal inserted where it belonged; later events still hold"),
                ["F-Sigma"] + PAWNS, PAWNS + ["F-Pawn-3"])
    g.add(je(dmg("P2.S1", 30)), check=sv("P2.S1", damage=30))
    at = g.n + 1
    g.add(ev("play_tool", "P1", card="F-Tool-1", payment=pay("P1.S1", 1)))
    g.add(ev("play_tool", "P1", card="F-Tool-1", payment=pay("P1.M", 1)))
    g.add(ev("correct", at_seq=at, reason="forgotten passive",
             event={"type": "judge_effect", "by": "judge", "source": "P2.S1", "rank": 6,
                    "ops": [{"op": "HEAL", "servant": "P2.S1", "n": 10}]}),
          check=merge(sv("P2.S1", damage=20), sv("P1.S1", ether={"on": 1}), pl("P1", master={"on": 1})))
    g.write()
    g = opening(Golden("ex19b-correct-conflict", "E2D-EX-19", "A correction that would freeze an attacker before its ATK is refused; rewind and re-enter instead"),
                ["F-Pawn-3"] + PAWNS, ["F-Sigma"] + PAWNS)
    g.add(je(acted("P1.S2"), acted("P1.S3"), acted("P2.S2"), acted("P2.S3")), check={"acting": "P2.S1"})
    at = g.n + 1
    g.add(ev("attack", "P2", attacker="P2.S1", target="P1.S1", payment=pay("P2.S1", 1)))
    g.add(ev("defense", "P1", defend=False, payment=[]), check=sv("P1.S1", damage=40))
    freeze = {"type": "judge_effect", "by": "judge", "source": "F-Tool-1", "ops": [status("P2.S1", "freeze")]}
    g.add(ev("correct", at_seq=at, reason="forgotten freeze", event=freeze), reject="E2D-RWD-4")
    g.add(ev("rewind", to_seq=at - 1, reason="forgotten freeze"), check=merge(sv("P1.S1", damage=0), {"acting": "P2.S1"}))
    g.add({k: v for k, v in freeze.items()}, check=sv("P2.S1", statuses=["freeze"]))
    g.add(ev("attack", "P2", attacker="P2.S1", target="P1.S1", payment=pay("P2.S1", 1)), reject="E2D-LIM-14")
    g.add(ev("end_action", "P2", servant="P2.S1"), check={"acting": "P1.S1"})
    g.write()


def ex19d() -> None:
    g = opening(Golden("ex19d-reuse-voided-coin", "E2D-EX-19", "Rewind before an invisible ATK whose coin was tails: the same ATK again, heads is accepted with a warning"),
                ["F-Ghost"] + PAWNS, PAWNS + ["F-Pawn-3"], servants={"F-Ghost": GHOST})
    g.add(je(status("P1.S1", "invisible")), check=sv("P1.S1", face_up=False))
    mark = g.n
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    g.add(ev("coin", result="tails"), check=sv("P1.S1", action="acted"))
    g.add(ev("rewind", to_seq=mark, reason="the ATK was declared before the table was ready"), check=sv("P1.S1", action="acting"))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)))
    g.add(ev("coin", result="heads"),
          check=merge(sv("P1.S1", face_up=True), {"notes": ["E2D-RWD-7 warning: the abandoned branch had 'tails' at this coin; 'heads' entered",
                                                           "coin for P1.S1: heads; P1.S1 is face-up, its held unit released but on (E2D-RUL-25)"]}))
    g.write()


def ex20() -> None:
    g = opening(Golden("ex20a-concession", "E2D-EX-20", "A concession entered for the wrong player is rewound; the right one ends the game"),
                ["F-Sigma"] + PAWNS, PAWNS + ["F-Pawn-3"])
    g.add(ev("concede", "P2", player="P2"), check={"status": "finished", "result": "P1"})
    g.add(ev("rewind", to_seq=g.n - 1, reason="the concession was P1's"), check={"status": "in_progress", "result": None})
    g.add(ev("concede", "P1", player="P1"), check={"status": "finished", "result": "P2"})
    g.write({"status": "won", "winner": "P2", "reason": "concession"})
    g = opening(Golden("ex20b-void-game", "E2D-EX-20", "void_game: the game counts for nobody and is replayed; rewinds stay in the new game"),
                ["F-Sigma"] + PAWNS, PAWNS + ["F-Pawn-3"])
    first = g.n
    g.add(ev("concede", "P2", player="P2"))
    g.add(ev("void_game", reason="wrong decks dealt"), check={"status": "void", "games": [{"game": 1, "result": "void"}]})
    g.add(ev("game_started"), check={"game": 2, "status": "in_progress", "phase": "draw"})
    g.add(ev("rewind", to_seq=first, reason="back into the voided game"), reject="E2D-RWD-11")
    g.add(ev("start_turn"), check={"turn": 1, "acting": "P1.S1"})
    g.write({"status": "in_progress"})
