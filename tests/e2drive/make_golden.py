"""Writes fixtures/e2drive/golden/*.jsonl and their .expect.json: every worked example of rules
§13 (E2D-EX-1…20) as a match entered at the table. Positions the examples start from are reached
with the judge's primitive ops (``judge_effect``), as a table would set them up by card effects.

Run: ``.venv/bin/python -m tests.e2drive.make_golden`` (the files are committed; the golden
runner replays them)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2drive.builder import catalog, ev, jsonl, pay, started

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "e2drive" / "golden"
PAWN = {"type": "Irregular", "DUR": 50, "ATK": 10, "DEF": 10, "SPD": 10}
EXTRA = {"F-Pawn-1": PAWN, "F-Pawn-2": PAWN, "F-Pawn-3": PAWN}


def merge(*parts: dict) -> dict:
    out: dict = {}
    for p in parts:
        for k, v in p.items():
            out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def sv(ref: str, **fields: Any) -> dict:
    return {"servants": {ref: fields}}


def pl(seat: str, **fields: Any) -> dict:
    return {"player": {seat: fields}}


# -- ops -------------------------------------------------------------------------------------------
def dmg(ref, n): return {"op": "DAMAGE", "servant": ref, "n": n}
def destroy(ref): return {"op": "DESTROY", "servant": ref}
def acted(ref): return {"op": "ACTION_STATE", "servant": ref, "state": "acted"}
def status(ref, s, state="on"): return {"op": "STATUS", "servant": ref, "status": s, "state": state}
def ether(pool, n, state="on"): return {"op": "ETHER", "pool": pool, "n": n, "state": state}
def dcard(seat): return {"op": "MOVE", "card": "unknown", "from": "deck", "to": "damage_cards", "player": seat}
def draw(seat, n): return {"op": "DRAW", "player": seat, "n": n}
def je(*ops, **kw): return ev("judge_effect", ops=list(ops), **kw)


class Golden:
    def __init__(self, name: str, example: str, title: str):
        self.name, self.example, self.title = name, example, title
        self.lines: list[dict] = []
        self.rejected: dict[str, dict] = {}
        self.checkpoints: list[dict] = []

    def add(self, line: dict, reject: str | None = None, check: dict | None = None, label: str = "") -> "Golden":
        self.lines.append(line)
        n = len(self.lines)
        if reject:
            self.rejected[str(n)] = {"rule": reject}
        if check is not None:
            self.checkpoints.append({"after_line": n, "label": label or line["type"], "view": check})
        return self

    def many(self, *lines: dict) -> "Golden":
        for x in lines:
            self.add(x)
        return self

    @property
    def n(self) -> int:
        return len(self.lines)

    def write(self, outcome: dict | None = None) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / f"{self.name}.jsonl").write_text(jsonl(self.lines), encoding="utf-8")
        expect = {"example": self.example, "title": self.title, "accepted": self.n - len(self.rejected),
                  "rejected": self.rejected, "checkpoints": self.checkpoints,
                  "outcome": outcome or {"status": "in_progress"}}
        (OUT / f"{self.name}.expect.json").write_text(json.dumps(expect, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def opening(g: Golden, p1: list[str], p2: list[str], servants: dict | None = None, tools: dict | None = None,
            options: dict | None = None, draws: dict | None = None, before_turn: list[dict] | None = None) -> Golden:
    cat = catalog({**EXTRA, **(servants or {})}, tools)
    g.add(started(p1, p2, options=options, cat=cat))
    g.add(ev("game_started", **({"draws": draws} if draws else {})))
    for x in before_turn or []:
        g.add(x)
    return g.add(ev("start_turn"))


PAWNS = ["F-Pawn-1", "F-Pawn-2"]


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


BETA = {"type": "Slicer", "DUR": 40, "ATK": 30, "DEF": 10, "SPD": 30}
LAMBDA = {"type": "Blocker", "DUR": 30, "ATK": 20, "DEF": 30, "SPD": 20}


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


MU = {"type": "Irregular", "DUR": 50, "ATK": 30, "DEF": 30, "SPD": 30}


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


GAMMA = {"type": "Restorer", "DUR": 50, "ATK": 30, "DEF": 20, "SPD": 30}


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


PI = {"type": "Irregular", "DUR": 30, "ATK": 10, "DEF": 20, "SPD": 10}
TAU = {"type": "Irregular", "DUR": 40, "ATK": 20, "DEF": 10, "SPD": 30}


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


def end_main(g: Golden, acting: str, others: list[str]) -> Golden:
    """Mark every other unacted servant acted and end the acting one's action: the main phase ends."""
    g.add(je(*[acted(r) for r in others]))
    return g.add(ev("end_action", acting[:2], servant=acting))


ALL = [f"P{p}.S{s}" for p in (1, 2) for s in (1, 2, 3)]


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


def spd(v: int, t: str = "Irregular", invisible: bool = False) -> dict:
    return {"type": t, "DUR": 50, "ATK": 30, "DEF": 20, "SPD": v, "starts_invisible": invisible}


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


GHOST = {"type": "Irregular", "DUR": 50, "ATK": 50, "DEF": 20, "SPD": 50}
WISP = {"type": "Irregular", "DUR": 40, "ATK": 20, "DEF": 30, "SPD": 10}


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


def limited_p1(extra: list[dict] | None = None) -> dict:
    """P1 limited: 3 damage cards (master 5), P1.S2 and P1.S3 destroyed."""
    return je(dcard("P1"), dcard("P1"), dcard("P1"), destroy("P1.S2"), destroy("P1.S3"), *(extra or []))


RHO = {"type": "Blocker", "DUR": 70, "ATK": 20, "DEF": 60, "SPD": 10}


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
    from tests.e2drive.builder import DECK, SERVANTS_A, SERVANTS_B

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


ALL_EXAMPLES = [ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09, ex10, ex11, ex12, ex13, ex14, ex15, ex16, ex17, ex18,
                ex19, ex19d, ex20]


if __name__ == "__main__":
    for old in OUT.glob("*.json*"):
        old.unlink()
    for make in ALL_EXAMPLES:
        make()
