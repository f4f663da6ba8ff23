"""E2D-EX-1…9 as golden matches."""

from __future__ import annotations

from tests.e2drive.builder import ev, pay
from tests.e2drive.golden_kit import (
    ALL, BETA, GAMMA, GHOST, Golden, LAMBDA, MU, PAWNS, PI, TAU, WISP, acted, dcard, destroy, dmg, draw, end_main, ether, je, merge, opening, pl, spd, status, sv,
)


def ex01() -> None:
    g = opening(Golden("ex01-atk-with-def", "E2D-EX-1", "Normal ATK with DEF: 50 − 30 = 20D, the action ends with the ATK"),
                ["F-Alpha"] + PAWNS, ["F-Kappa"] + PAWNS)
    g.add(je(acted("P1.S2"), acted("P1.S3"), acted("P2.S2"), acted("P2.S3")), check={"acting": "P1.S1", "turn": 1})
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)),
          check=merge(sv("P1.S1", ether={"on": 1}), {"attack": {"step": "defense", "committed": True}}))
    g.add(ev("defense", "P2", defend=True, payment=pay("P2.S1", 1)),
          check=merge(sv("P2.S1", damage=20, counters=2, destroyed=False, ether={"on": 1}, action="acting"),
                      sv("P1.S1", damage=0, action="acted"), {"acting": "P2.S1", "attack": None}))
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S1", payment=pay("P1.S1", 1)), reject="E2D-LIM-2")
    g.write()


def ex02() -> None:
    for part, heat in (("a", False), ("b", True)):
        title = ("Mutual 10D: diff 0 → both 10D; damage equal to DUR survives" if not heat else
                 "Heat: DEF 20, DUR 20 → 10D more destroys F-Lambda; its ether goes off")
        g = opening(Golden(f"ex02{part}-mutual-10d" + ("-heat" if heat else ""), "E2D-EX-2", title),
                    ["F-Pawn-1", "F-Beta", "F-Pawn-2"], ["F-Pawn-1", "F-Lambda", "F-Pawn-2"],
                    servants={"F-Beta": BETA, "F-Lambda": LAMBDA})
        ops = [dmg("P1.S2", 30), dmg("P2.S2", 20)] + [acted(r) for r in ("P1.S1", "P1.S3", "P2.S1", "P2.S3")]
        if heat:
            ops.append(status("P2.S2", "heat"))
        g.add(je(*ops), check=merge({"acting": "P1.S2"}, sv("P2.S2", DEF=20 if heat else 30, DUR=20 if heat else 30, damage=20)))
        g.add(ev("attack", "P1", attacker="P1.S2", target="P2.S2", payment=pay("P1.S2", 1)))
        if not heat:
            g.add(ev("defense", "P2", defend=True, payment=pay("P2.S2", 1)),
                  check=merge(sv("P1.S2", damage=40, destroyed=False, ether={"on": 1}),
                              sv("P2.S2", damage=30, destroyed=False, ether={"on": 1})))
        else:
            g.add(ev("defense", "P2", defend=True, payment=pay("P2.S2", 1)),
                  check=merge(sv("P2.S2", damage=30, destroyed=True, statuses=[], ether={"on": 0}),
                              sv("P1.S2", damage=30), {"forced_revival": []}))
        g.write()
    g = opening(Golden("ex02c-heat-destroys", "E2D-EX-2", "Heat lowers DUR 30 to 20 under 30D: destroyed by the check after the op"),
                PAWNS + ["F-Pawn-3"], PAWNS + ["F-Lambda"], servants={"F-Lambda": LAMBDA})
    g.add(je(dmg("P2.S3", 30)), check=sv("P2.S3", damage=30, destroyed=False))
    g.add(je(status("P2.S3", "heat"), source="F-Tool-1"), check=sv("P2.S3", destroyed=True, damage=30, statuses=[]))
    g.write()


def ex03() -> None:
    def base(name: str, title: str, frozen: bool = False) -> Golden:
        g = opening(Golden(name, "E2D-EX-3", title), ["F-Sigma"] + PAWNS, PAWNS + ["F-Mu"], servants={"F-Mu": MU})
        ops = [acted("P2.S3"), acted("P1.S2"), acted("P1.S3"), acted("P2.S2"), status("P2.S3", "wait"), ether("P2.S3", 1)]
        if frozen:
            ops.append(status("P2.S3", "freeze"))
        return g.add(je(*ops), check=merge({"acting": "P1.S1"}, sv("P2.S3", action="acted", statuses=["freeze", "wait"] if frozen else ["wait"])))

    g = base("ex03a-evasion-wait", "Evasion of an acted target: no DEF, wait makes evasion 2e, 10D")
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S3", payment=pay("P1.S1", 1)),
          check=merge(sv("P1.S1", ether={"on": 1}), {"attack": {"step": "evasion", "dmg_target": 40}}))
    g.add(ev("defense", "P2", defend=True, payment=pay("P2.S3", 1)), reject="E2D-ACT-17")
    g.add(ev("evasion", "P2", evade=True, payment=pay("P2.S3", 1)), reject="E2D-ACT-2")
    g.add(ev("evasion", "P2", evade=True, payment=pay("P2.S3", 2)),
          check=merge(sv("P2.S3", ether={"on": 3}, damage=10), sv("P1.S1", action="acted"), {"acting": "P2.S1"}))
    g.write()
    g = base("ex03b-evasion-master", "Evasion paid with the target's pool and master ether (def_evade_may_use_master)")
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S3", payment=pay("P1.S1", 1)))
    g.add(ev("evasion", "P2", evade=True, payment=pay("P2.S3", 1, "P2.M", 1)),
          check=merge(sv("P2.S3", ether={"on": 2}, damage=10), pl("P2", master={"on": 1})))
    g.write()
    g = base("ex03c-frozen-no-evasion", "A frozen target cannot evade: the ATK completes at once", frozen=True)
    g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S3", payment=pay("P1.S1", 1)),
          check=merge(sv("P2.S3", damage=40, destroyed=False), sv("P1.S1", action="acted"), {"acting": "P2.S1", "attack": None}))
    g.add(ev("evasion", "P2", evade=True, payment=pay("P2.S3", 2)), reject="E2D-ACT-18")
    g.write()


def ex04() -> None:
    g = opening(Golden("ex04-revival", "E2D-EX-4", "Voluntary revival: a damage card from the deck, master +1, 0D, unacted"),
                ["F-Alpha", "F-Beta", "F-Pawn-1"], PAWNS + ["F-Pawn-3"], servants={"F-Beta": BETA})
    g.add(je(dcard("P1"), draw("P1", 5), ether("P1.M", 1), dmg("P1.S2", 50)),
          check=merge(pl("P1", deck=18, damage_cards=1, master={"size": 3, "on": 1}),
                      sv("P1.S2", destroyed=True, action="unacted"), {"acting": "P1.S1"}))
    g.add(ev("revive", "P1", servant="P1.S2"),
          check=merge(pl("P1", deck=17, damage_cards=2, master={"size": 4, "on": 1, "off": 3}),
                      sv("P1.S2", destroyed=False, damage=0, statuses=[], ether={"on": 0}, action="unacted", equipment=[])))
    g.add(ev("revive", "P1", servant="P1.S1"), reject="E2D-ACT-24")
    g.write()


def ex05() -> None:
    draws = {"P1": ["F-Gamma", "F-Delta", "F-Alpha", "F-Gear", "F-Tool-1"]}
    g = Golden("ex05a-change", "E2D-EX-5", "Change: names on the own field (destroyed included), same name as out, a damage card")
    opening(g, ["F-Alpha", "F-Beta", "F-Gamma"], PAWNS + ["F-Pawn-3"], servants={"F-Beta": BETA, "F-Gamma": GAMMA}, draws=draws)
    g.add(ev("play_tool", "P1", card="F-Gear", payment=pay("P1.S1", 1), targets=["P1.S1"]))
    mill = [{"op": "MOVE", "card": "F-Mu", "from": "deck", "to": "trash", "player": "P1"}] * 7
    g.add(je(dcard("P1"), dcard("P1"), *mill, {"op": "DISCARD", "player": "P1", "cards": ["F-Tool-1", "F-Mu"]},
             ether("P1.S1", 1), dmg("P1.S1", 30), status("P1.S1", "heat"), destroy("P1.S3")),
          check=merge(pl("P1", deck=15, damage_cards=2, hand=3, hand_known=["F-Alpha", "F-Delta", "F-Gamma"], master={"size": 4}),
                      sv("P1.S1", damage=30, statuses=["heat"], ether={"on": 2}, equipment=[{"card": "F-Gear", "owner": "P1"}])))
    g.add(ev("change", "P1", out="P1.S1", in_card="F-Gamma"), reject="E2D-LIM-6")
    g.add(ev("change", "P1", out="P1.S1", in_card="F-Alpha"), reject="E2D-ACT-23")
    g.add(ev("change", "P1", out="P1.S1", in_card="F-Delta"),
          check=merge(pl("P1", deck=14, damage_cards=3, master={"size": 5}, hand=2, hand_known=["F-Alpha", "F-Gamma"],
                         trash=["F-Mu"] * 7 + ["F-Tool-1", "F-Mu", "F-Gear", "F-Alpha"], limited=False),
                      sv("P1.S1", card="F-Delta", damage=0, statuses=[], ether={"on": 0}, action="acting", equipment=[]),
                      {"acting": "P1.S1"}))
    g.write()
    g = Golden("ex05b-limited-change", "E2D-EX-5", "Limited: a change costs no damage card; a revival makes the 4th and loses")
    delta = {"type": "Etherizer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    opening(g, ["F-Delta", "F-Beta", "F-Gamma"], PAWNS + ["F-Pawn-3"], servants={"F-Beta": BETA, "F-Gamma": GAMMA, "F-Delta": delta},
            draws={"P1": ["F-Epsilon", "F-Mu", "F-Mu", "F-Tool-1", "F-Tool-1"]})
    g.add(je(dcard("P1"), dcard("P1"), dcard("P1"), *mill, destroy("P1.S3"), destroy("P1.S2")),
          check=merge(pl("P1", deck=14, damage_cards=3, limited=True), {"acting": "P1.S1"}))
    g.add(ev("change", "P1", out="P1.S1", in_card="F-Epsilon"),
          check=merge(pl("P1", deck=14, damage_cards=3, limited=True), sv("P1.S1", name="F-Epsilon", action="acting")))
    g.add(ev("revive", "P1", servant="P1.S2"), check=merge(pl("P1", deck=13, damage_cards=4, lost="damage_cards"),
                                                           {"status": "finished", "result": "P2"}))
    g.write({"status": "won", "winner": "P2", "reason": "damage_cards"})


def ex06() -> None:
    for part, p2_cards in (("a", 3), ("b", 2)):
        title = ("Both last servants destroyed by one ATK with 3 damage cards each: drawn" if part == "a" else
                 "P2 holds 2 damage cards: only P1 loses, P2 wins before any forced revival")
        g = opening(Golden(f"ex06{part}-simultaneous", "E2D-EX-6", title), ["F-Pi"] + PAWNS, ["F-Tau"] + PAWNS,
                    servants={"F-Pi": PI, "F-Tau": TAU})
        ops = [dcard("P1")] * 3 + [dcard("P2")] * p2_cards + [destroy(r) for r in ("P1.S2", "P1.S3", "P2.S2", "P2.S3")]
        ops += [dmg("P1.S1", 30), dmg("P2.S1", 40)]
        if part == "b":
            ops.append(draw("P2", 12))
        g.add(je(*ops), check=merge(pl("P1", limited=True), pl("P2", limited=part == "a", damage_cards=p2_cards),
                                    {"acting": "P2.S1"}, sv("P1.S1", action="unacted")))
        g.add(ev("attack", "P2", attacker="P2.S1", target="P1.S1", payment=pay("P2.S1", 1)))
        g.add(ev("defense", "P1", defend=True, payment=pay("P1.S1", 1)),
              check=merge(sv("P1.S1", damage=40, destroyed=True), sv("P2.S1", damage=50, destroyed=True),
                          {"status": "finished", "forced_revival": []}, pl("P2", deck=10) if part == "b" else {}))
        g.write({"status": "drawn", "winner": None, "reason": "simultaneous"} if part == "a" else
                {"status": "won", "winner": "P2", "reason": "damage_cards"})


def ex07() -> None:
    for part, p2_deck in (("a", 0), ("b", 3)):
        title = "Both decks empty at a draw phase: both lose, drawn" if part == "a" else "Only P1 cannot draw: P2 wins"
        g = opening(Golden(f"ex07{part}-deck-out", "E2D-EX-7", title), ["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)
        g.add(je(draw("P1", 24), draw("P2", 24 - p2_deck)), check=merge(pl("P1", deck=0), pl("P2", deck=p2_deck)))
        end_main(g, "P1.S1", [r for r in ALL if r != "P1.S1"])
        g.add(ev("end_turn"), check={"phase": "draw", "turn": 1})
        p2_hand = 6 + 24 - p2_deck + 1
        g.add(ev("start_turn"), check=merge({"turn": 2, "status": "finished"}, pl("P1", deck=0, lost="failed_draw"),
                                            pl("P2", deck=max(0, p2_deck - 1), hand=p2_hand if p2_deck else p2_hand - 1,
                                               lost="failed_draw" if part == "a" else None)))
        g.write({"status": "drawn", "reason": "simultaneous"} if part == "a" else
                {"status": "won", "winner": "P2", "reason": "failed_draw"})
    junk = {"type": "Junker", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 60}
    g = opening(Golden("ex07c-junker-deck-out", "E2D-EX-7", "Junker opp_draw from an empty deck: P2 loses; self_draw not applied"),
                ["F-Epsilon"] + PAWNS, ["F-Pawn-3"] + PAWNS, servants={"F-Epsilon": junk})
    g.add(je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3"), ether("P1.M", 3), draw("P2", 24)),
          check=merge(pl("P1", limited=True, master={"size": 5, "on": 3}, deck=21, hand=6), pl("P2", deck=0)))
    g.add(ev("overdrive", "P1", servant="P1.S1", payment=pay("P1.M", 2), params={"choices": ["opp_draw", "self_draw"]}),
          check=merge(pl("P2", lost="failed_draw"), pl("P1", deck=21, hand=6, lost=None), {"status": "finished"}))
    g.write({"status": "won", "winner": "P1", "reason": "failed_draw"})
    for part, opts in (("d", {}), ("d-lose", {"voluntary_unpayable_damage_card": "lose"})):
        title = ("Voluntary revival with an empty deck is refused" if not opts else
                 "voluntary_unpayable_damage_card = lose: the revival is accepted and P1 loses")
        g = opening(Golden(f"ex07{part}-revive-empty-deck", "E2D-EX-7", title), ["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS,
                    options=opts)
        g.add(je(dcard("P1"), destroy("P1.S2"), draw("P1", 23)), check=pl("P1", deck=0, damage_cards=1))
        if not opts:
            g.add(ev("revive", "P1", servant="P1.S2"), reject="E2D-LIM-5")
            g.write()
        else:
            g.add(ev("revive", "P1", servant="P1.S2"), check=pl("P1", lost="failed_placement"))
            g.write({"status": "won", "winner": "P2", "reason": "failed_placement"})
    g = opening(Golden("ex07e-forced-revival-empty-deck", "E2D-EX-7", "Last servant destroyed with an empty deck: P1 loses at once"),
                ["F-Sigma"] + PAWNS, ["F-Pawn-3"] + PAWNS)
    g.add(je(dcard("P1"), draw("P1", 23), destroy("P1.S2"), destroy("P1.S3")), check=pl("P1", deck=0, damage_cards=1))
    g.add(je(destroy("P1.S1")), check=merge(pl("P1", lost="failed_placement"), {"forced_revival": []}))
    g.write({"status": "won", "winner": "P2", "reason": "failed_placement"})


def ex08() -> None:
    cards = {"F-A1": spd(40), "F-A2": spd(40), "F-A3": spd(10), "F-B1": spd(40), "F-B2": spd(30), "F-B3": spd(50, invisible=True)}
    for part in ("a", "b"):
        title = ("SPD order: a coin between players, a pick within one player, wait and invisibility at 10" if part == "a" else
                 "Wait removed during P1.S1's action: P2.S2 (SPD 30) acts alone before the tie at 10")
        g = Golden(f"ex08{part}-spd-order", "E2D-EX-8", title)
        opening(g, ["F-A1", "F-A2", "F-A3"], ["F-B1", "F-B2", "F-B3"], servants=cards,
                before_turn=[je(status("P2.S2", "wait"))])
        g.checkpoints.append({"after_line": g.n, "label": "determination 1: a tie across players",
                              "view": {"acting": None, "tie": {"candidates": ["P1.S1", "P1.S2", "P2.S1"], "picks": None},
                                       "order": [["P1.S1", 40], ["P1.S2", 40], ["P2.S1", 40], ["P1.S3", 10], ["P2.S2", 10],
                                                 ["P2.S3", 10]]}})
        g.add(ev("tie_break", winner="P2", method="coin"), check={"acting": "P2.S1"})
        g.add(ev("end_action", "P2", servant="P2.S1"), check={"tie": {"candidates": ["P1.S1", "P1.S2"], "picks": "P1"}})
        g.add(ev("select_actor", "P2", servant="P2.S2"), reject="E2D-TURN-4")
        g.add(ev("select_actor", "P1", servant="P1.S2"), check={"acting": "P1.S2"})
        g.add(ev("end_action", "P1", servant="P1.S2"), check={"acting": "P1.S1"})
        if part == "a":
            g.add(ev("end_action", "P1", servant="P1.S1"), check={"tie": {"candidates": ["P1.S3", "P2.S2", "P2.S3"], "picks": None}})
            g.add(ev("tie_break", winner="P1", method="rps"), check={"acting": "P1.S3"})
            g.add(ev("end_action", "P1", servant="P1.S3"), check={"tie": {"candidates": ["P2.S2", "P2.S3"], "picks": "P2"}})
            g.add(ev("select_actor", "P2", servant="P2.S3"), check={"acting": "P2.S3"})
            g.add(ev("end_action", "P2", servant="P2.S3"), check={"acting": "P2.S2"})
            g.add(ev("end_action", "P2", servant="P2.S2"), check={"acting": None, "phase": "end"})
        else:
            g.add(je(status("P2.S2", "wait", "off"), source="F-Tool-1"))
            g.add(ev("end_action", "P1", servant="P1.S1"), check={"acting": "P2.S2"})
            g.add(ev("end_action", "P2", servant="P2.S2"), check={"tie": {"candidates": ["P1.S3", "P2.S3"], "picks": None}})
        g.write()


def ex09() -> None:
    for part, coins in (("a", ["tails"]), ("b", ["heads", "heads"]), ("c", ["heads", "tails"])):
        title = {"a": "Attacker's coin tails: void, nothing paid, the action ends, the target counts as targeted",
                 "b": "Both coins heads: both face-up, holds released but on, then DEF: 50 − 30 = 20D",
                 "c": "Attacker heads, target tails: void; the attacker stays face-up, nothing paid"}[part]
        g = opening(Golden(f"ex09{part}-invisible-coins", "E2D-EX-9", title), ["F-Ghost"] + PAWNS, PAWNS + ["F-Wisp"],
                    servants={"F-Ghost": GHOST, "F-Wisp": WISP})
        g.add(je(status("P1.S1", "invisible"), status("P2.S3", "invisible")),
              check=merge(sv("P1.S1", face_up=False, SPD=10, ether={"on": 1, "held_invisible": 1}),
                          sv("P2.S3", face_up=False, ether={"on": 1, "held_invisible": 1}), {"acting": "P1.S1"}))
        g.add(ev("attack", "P1", attacker="P1.S1", target="P2.S3", payment=pay("P1.S1", 1)),
              check={"attack": {"step": "coin_attacker"}})
        for i, c in enumerate(coins):
            last = i == len(coins) - 1
            if part == "a":
                g.add(ev("coin", result=c), check=merge(sv("P1.S1", ether={"on": 1}, face_up=False, action="acted"),
                                                        {"attack": None}))
            elif part == "b" and last:
                g.add(ev("coin", result=c), check=merge(sv("P1.S1", face_up=True, ether={"on": 2, "held_invisible": 0}),
                                                        sv("P2.S3", face_up=True, ether={"on": 1, "held_invisible": 0}),
                                                        {"attack": {"step": "defense"}}))
            elif part == "c" and last:
                g.add(ev("coin", result=c), check=merge(sv("P1.S1", face_up=True, ether={"on": 1}, action="acted"),
                                                        sv("P2.S3", face_up=False, ether={"on": 1, "held_invisible": 1})))
            else:
                g.add(ev("coin", result=c), check=merge(sv("P1.S1", face_up=True), {"attack": {"step": "coin_target"}}))
        if part == "b":
            g.add(ev("defense", "P2", defend=True, payment=pay("P2.S3", 1)),
                  check=merge(sv("P2.S3", damage=20, ether={"on": 2}), sv("P1.S1", action="acted")))
        g.write()
