"""The worked examples of rules §13 as golden matches (see ``golden.py``). Run this module to
rewrite ``fixtures/builddivide/golden``."""

from __future__ import annotations

from tests.builddivide.golden import CATALOG, Golden, op, unit
from tests.builddivide.helpers import A, B, setup, started

BUSTERS = ["BST"] * 4 + ["BST2"] * 4 + ["BST3"] * 4
SHOTS10 = ["SHOT3"] * 4 + ["SHOT4"] * 4 + ["SHOT5"] * 2
PLAIN18 = ["PLN"] * 4 + ["U1k"] * 4 + ["U2k"] * 4 + ["U3k"] * 4 + ["U4k"] * 2


def reg(main, d_deck=(), territory="TER1"):
    return {"player": A, "main": list(main), "d_deck": list(d_deck), "territory": territory, "checklist": {}}


def ex01() -> None:
    g = Golden(start={**started({}, None, CATALOG), "decks": {}}, do_setup=False)
    valid = BUSTERS + SHOTS10 + PLAIN18
    g.add("register_deck", A, **reg(valid))
    g.reject("BD-DECK-14", "register_deck", A, **reg(BUSTERS + SHOTS10 + ["SHOT5"] * 2 + ["SHOT6"] + PLAIN18 + ["U4k", "U4k", "U5k", "U5k"]))
    g.reject("BD-DECK-12", "register_deck", A, **reg(BUSTERS + SHOTS10 + PLAIN18[:14] + ["U5k"] * 4, ["U5k"]))
    g.reject("BD-DECK-13", "register_deck", A, **reg(BUSTERS[:11] + SHOTS10 + PLAIN18 + ["U5k"], ["M6"]))
    g.reject("BD-DECK-15", "register_deck", A, **reg(valid, ["U5k"] * 4 + ["U7k"] * 4 + ["NCMD"] * 4 + ["QCMD"]))
    g.reject("BD-DECK-11", "register_deck", A, **reg(valid[:-1] + ["TER1"]))
    g.reject("BD-DECK-10", "register_deck", A, **reg(valid + ["U5k"] * 4 + ["U7k"] * 4 + ["NCMD"] * 2 + ["M6"]))
    g.check("(a) stays registered after the rejections", status="SETUP", setup_step=1, players={A: {"deck": 40}})
    g.write("ex-01-deck-validation", "BD-EX-1", "Deck validation: one legal list, six lists refused by the rule shown")



def ex02() -> None:
    g = Golden(size_b=50, do_setup=False)
    for t in ("shuffle", "place_territory"):
        g.add(t, A, player=A).add(t, B, player=B)
    g.add("decide_first_player", "judge", first_player=A, method="RPS")
    g.add("draw_opening", A, player=A).check("A draws 5", players={A: {"deck": 35, "hand_count": 5}})
    g.add("draw_opening", B, player=B).check("B draws 5", players={B: {"deck": 45, "hand_count": 5}})
    g.add("mulligan", A, player=A, redraw=True).check("A's mulligan: aside 5, draw 5, return 5, shuffle",
                                                      players={A: {"deck": 35, "hand_count": 5, "mulligan": "REDRAWN"}})
    g.reject("BD-SET-2", "mulligan", A, player=A, redraw=True)
    g.reject("BD-SET-1", "place_life", A, player=A)
    g.add("mulligan", B, player=B, redraw=False).check("B keeps", players={B: {"deck": 45, "hand_count": 5, "mulligan": "KEPT"}})
    g.add("place_life", A, player=A).check("A's life", players={A: {"deck": 25, "life": 10, "yellow": 5, "red": 5}})
    g.add("place_life", B, player=B).check("B's life", players={B: {"deck": 35, "life": 10, "yellow": 5, "red": 5}})
    g.add("place_initial_energy", A, player=A, cards=["U3k", "PLN"])
    g.check("A's energy", players={A: {"deck": 23, "energy_standing": 2, "energy_rested": 0}})
    g.add("place_initial_energy", B, player=B, cards=["U3k", "PLN"])
    after = {"deck": 33, "hand_count": 5, "life": 10, "energy_standing": 2, "field": [], "graveyard": [], "remove_zone": [],
             "territory": {"face": "CHARACTER", "standing": True}, "energy_placed_this_turn": False}
    g.check("BD-SET-3 with n = 40 and n = 50", status="IN_PROGRESS", turn=1, turn_player=A, phase="STAND",
            players={A: {**after, "deck": 23}, B: after})
    g.write("ex-02-setup-mulligan", "BD-EX-2", "Setup in the chapter's order, one mulligan, life and initial energy",
            {"status": "in_progress"})


def ex03() -> None:
    g = Golden(size_b=50, energy={A: ["U3k", "PLN"], B: ["U3k", "PLN"]})
    g.check("turn 1, TP A, stand phase", turn=1, turn_player=A, phase="STAND", players={A: {"deck": 23, "hand_count": 5}})
    g.add("advance_phase", A).check("draw phase", phase="DRAW")
    g.reject("BD-TURN-4", "draw", A, player=A)
    g.add("advance_phase", A).check("no draw owed on turn 1", phase="MAIN")
    g.add("place_energy", A, card="PLN").check("hand 4, energy 3", players={A: {"hand_count": 4, "energy_standing": 3}})
    g.reject("BD-LIM-1", "place_energy", A, card="U1k")
    for _ in range(4):  # ATTACK, END (END_OPEN), steps 2-4 (END_CLOSE), turn 2
        g.add("advance_phase", A)
    g.check("turn 2, TP B", turn=2, turn_player=B, phase="STAND", players={B: {"hand_count": 5, "deck": 33}, A: {"hand_count": 4}})
    g.add("advance_phase", B).check("B's draw phase", phase="DRAW")
    g.reject("BD-TURN-8", "advance_phase", B)
    g.add("draw", B, player=B).check("B draws", players={B: {"deck": 32, "hand_count": 6}})
    g.write("ex-03-first-turns", "BD-EX-3", "First turns: the skipped draw, one energy a turn, the owed draw")





def P(**k):  # a payment entry list: P(E2="BLUE", E3="BLUE") keeps the order given
    return [{"energy": e, "as": c} for e, c in k.items()]


def ex04() -> None:
    g = Golden(a=["U6k", "E1", "E2", "E3", "E4", "E5"], energy={A: ["E1", "E2"], B: ["PLN", "U1k"]})
    g.to_turn(5, "MAIN", keep=("U6k", "E3", "E4", "E5"))
    g.ops(op("ADD_ENERGY", card="E3", from_zone="DECK", player=A), op("ADD_ENERGY", card="E4", from_zone="DECK", player=A),
          op("ADD_ENERGY", card="E5", from_zone="DECK", player=A))
    g.check("A's energy E1-E5 standing", turn=5, turn_player=A, phase="MAIN", players={A: {"energy_standing": 5}})
    g.reject("BD-ACT-0", "play_card", A, card="U6k", payment=P(E2="BLUE", E1="RED", E4="WHITE", E5="RED"))
    g.reject("BD-ACT-0", "play_card", A, card="U6k", payment=P(E2="BLUE", E3="BLUE", E1="RED"))
    g.reject("BD-ACT-0", "play_card", A, card="U6k", payment=P(E2="BLUE", E3="BLUE", E1="RED", E4="WHITE", E5="RED"))
    g.reject("BD-ACT-0", "play_card", A, card="U6k", payment=P(E2="BLUE", E3="WHITE", E1="RED", E4="WHITE"))
    g.add("play_card", A, card="U6k", payment=P(E2="BLUE", E3="BLUE", E1="RED", E4="WHITE"))
    g.check("E1-E4 rested, E5 standing, U6k in the resolution zone", resolution_zone=[{"card": "U6k", "controller": A}],
            players={A: {"energy": [{"name": n, "standing": n == "E5"} for n in ("E1", "E2", "E3", "E4", "E5")]}})
    g.add("resolve_top", "judge", ops=[])
    g.check("U6k on A's field, standing", resolution_zone=[],
            players={A: {"field": [unit("U6k", power=6000, hit=2, damage=0, standing=True)]}})
    g.write("ex-04-payment", "BD-EX-4", "Payment: colour parts, the generic part, exact count, colours of each energy")


def attack_phase(g: Golden, *ops, turn: int = 1) -> Golden:
    g.to_turn(turn, "MAIN")
    if ops:
        g.ops(*ops)
    return g.add("advance_phase", g.state().game.turn_player)


def ex05() -> None:
    g = attack_phase(Golden(a=["U6k"]), op("PUT_ONTO_FIELD", card="U6k", from_zone="DECK", player=A),
                     op("MOVE", n=3, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B))
    g.check("B life 7 (Y2/R5)", phase="ATTACK", players={B: {"life": 7, "yellow": 2, "red": 5}})
    g.add("declare_attack", A, attacker="U6k", target=B).check("U6k rested", players={A: {"field": [unit("U6k", standing=False)]}})
    g.add("no_block", B).check("total 2", damage={"victim": B, "dealt": 0, "total": 2, "waiting": "REVEAL"})
    g.add("life_check", B, victim=B, card_name="PLN").check("point 1", damage={"dealt": 1, "total": 2},
                                                           players={B: {"life": 6, "yellow": 1, "red": 5, "graveyard": ["PLN"]}})
    g.add("life_check", B, victim=B, card_name="BST").check("point 2: buster", damage={"dealt": 2, "bonus": 1, "total": 3},
                                                           players={B: {"life": 5, "yellow": 0, "red": 5}})
    g.add("life_check", B, victim=B, card_name="PLN")
    g.check("point 3 from the red zone; attack end", attack=None, damage=None,
            players={A: {"field": [unit("U6k", standing=False)]}, B: {"life": 4, "yellow": 0, "red": 4, "graveyard": ["PLN", "BST", "PLN"]}})
    g.write("ex-05-buster", "BD-EX-5", "Life damage with a buster: three points from hit 2", {"status": "in_progress"})


def ex06() -> None:
    to_one = op("MOVE", n=9, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B)
    g = attack_phase(Golden(), op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A), to_one)
    g.check("B life 1 (Y0/R1)", players={B: {"life": 1, "yellow": 0, "red": 1}})
    g.add("declare_attack", A, attacker="U5k", target=B).add("no_block", B)
    g.add("life_check", B, victim=B, card_name="BST")
    g.check("point 2 at life 0: A wins", status="ENDED", result={"winner": A, "reason": "zero_life_damage"}, players={B: {"life": 0}})
    g.reject("BD-OVR-8", "life_check", B, victim=B, card_name="PLN")
    g.write("ex-06a-zero-life-win", "BD-EX-6a", "The zero-life win after a buster", {"status": "won", "winner": A, "reason": "zero_life_damage"})

    g = attack_phase(Golden(), op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A), to_one)
    g.add("declare_attack", A, attacker="U5k", target=B).add("no_block", B).add("life_check", B, victim=B, card_name="PLN")
    g.check("life 0, defenceless, still playing", status="IN_PROGRESS", attack=None, damage=None, result=None, players={B: {"life": 0}})
    g.write("ex-06b-defenceless", "BD-EX-6b", "Reaching 0 life cards does not lose", {"status": "in_progress"})

    g = attack_phase(Golden(a=["U6k"]), op("PUT_ONTO_FIELD", card="U6k", from_zone="DECK", player=A),
                     op("MOVE", n=10, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B))
    g.add("declare_attack", A, attacker="U6k", target=B).add("no_block", B)
    g.check("point 1 at life 0: A wins before any reveal", result={"winner": A, "reason": "zero_life_damage"}, players={B: {"graveyard": []}})
    g.write("ex-06c-win-before-reveal", "BD-EX-6c", "Life 0: the first point wins", {"status": "won", "winner": A})

    g = attack_phase(Golden(), op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A),
                     op("MODIFY_STAT", unit="U5k", stat="HIT", delta=-1, duration="END_OF_TURN"),
                     op("MOVE", n=10, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B))
    g.add("declare_attack", A, attacker="U5k", target=B).add("no_block", B)
    g.check("hit 0: no point, no result", attack=None, damage=None, result=None, players={A: {"field": [unit("U5k", hit=0)]}})
    g.write("ex-06d-zero-damage", "BD-EX-6d", "Zero damage deals no point and cannot win (BD-RUL-35)", {"status": "in_progress"})





def shot_start(rest_k2: bool = False) -> Golden:
    g = Golden(b=["SHOT3", "K1", "K2", "R1"], energy={A: ["PLN", "U1k"], B: ["K1", "K2"]})
    ops = [op("PUT_ONTO_FIELD", card="U7k", from_zone="DECK", player=A),
           op("MOVE", n=4, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B),
           op("ADD_ENERGY", card="R1", from_zone="DECK", player=B)]
    if rest_k2:
        ops.append(op("REST", card="K2", player=B))
    attack_phase(g, *ops)
    g.check("B life 6 (Y1/R5)", players={B: {"life": 6, "yellow": 1, "red": 5}})
    g.add("declare_attack", A, attacker="U7k", target=B).add("no_block", B).check("total 3", damage={"total": 3})
    g.add("life_check", B, victim=B, card_name="SHOT3")
    return g.check("point 1: a shot", damage={"dealt": 1, "waiting": "SHOT", "shot_card": "SHOT3"},
                   players={B: {"life": 5, "yellow": 0, "red": 5}})


def ex07() -> None:
    g = shot_start()
    g.add("shot_play", B, payment=P(K1="BLACK", K2="BLACK", R1="RED"))
    g.check("SHOT3 in the resolution zone", resolution_zone=[{"card": "SHOT3", "from_shot": True}], damage={"waiting": "STACK"})
    g.add("resolve_top", "judge", ops=[op("DESTROY", unit="U7k")])
    g.check("attacker gone: 1 of 3 points dealt", attack=None, damage=None,
            players={A: {"field": [], "graveyard": ["U7k"]}, B: {"life": 5, "yellow": 0, "red": 5, "graveyard": ["SHOT3"],
                                                                 "energy_standing": 0, "energy_rested": 3}})
    g.write("ex-07-shot-destroys-attacker", "BD-EX-7", "A shot removes the attacker: the remaining points are lost", {"status": "in_progress"})

    g = shot_start()
    g.add("shot_play", B, payment=P(K1="BLACK", K2="BLACK", R1="RED"))
    g.add("resolve_top", "judge", ops=[op("MODIFY_STAT", unit="U7k", stat="HIT", delta=-1, duration="END_OF_TURN")])
    g.check("hit lowered: total 2", damage={"dealt": 1, "total": 2, "waiting": "REVEAL"})
    g.add("life_check", B, victim=B, card_name="PLN")
    g.check("dealt 2 = total: attack end", attack=None, damage=None, players={B: {"life": 4, "yellow": 0, "red": 4}})
    g.write("ex-07b-shot-lowers-hit", "BD-EX-7", "A shot lowers the attacker's hit: the total is recomputed", {"status": "in_progress"})

    g = shot_start()
    g.add("shot_decline", B).check("declined: total stays 3", damage={"dealt": 1, "total": 3}, players={B: {"graveyard": ["SHOT3"]}})
    g.add("life_check", B, victim=B, card_name="PLN").add("life_check", B, victim=B, card_name="PLN")
    g.check("three points", attack=None, damage=None, players={B: {"life": 3, "yellow": 0, "red": 3}})
    g.write("ex-07c-shot-declined", "BD-EX-7", "A declined shot goes to the graveyard and the damage goes on")

    g = shot_start(rest_k2=True)
    g.reject("BD-ACT-0", "shot_play", B, payment=P(K1="BLACK", K2="BLACK", R1="RED"))
    g.reject("BD-ACT-0", "shot_play", B, payment=P(K1="BLACK", R1="RED"))
    g.add("shot_decline", B).check("SHOT3 to the graveyard, damage continues", damage={"dealt": 1, "total": 3, "waiting": "REVEAL"},
                                   players={B: {"graveyard": ["SHOT3"]}})
    g.write("ex-07d-shot-unpayable", "BD-EX-7", "No valid payment for the shot: it must be declined")


def ex08() -> None:
    g = attack_phase(Golden(a=["M6", "M5", "N5"], b=["S5", "S6", "T5"]),
                     *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=A) for n in ("M6", "M5", "N5")],
                     *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=B) for n in ("S5", "S6", "T5")])
    g.add("declare_attack", A, attacker="M6", target=B).add("declare_block", B, blocker="S5")
    g.check("S5 rested, current target S5", attack={"current_target": "S5", "block_used": True, "step": "BATTLE"},
            players={B: {"field": [unit("S5", standing=False), unit("S6"), unit("T5")]}})
    g.reject("BD-LIM-4", "declare_block", B, blocker="S6")
    g.add("resolve_battle", A).check("S5 destroyed, M6 damage 5000", attack=None,
                                     players={A: {"field": [unit("M6", damage=5000), unit("M5"), unit("N5")]}, B: {"graveyard": ["S5"]}})
    g.add("declare_attack", A, attacker="M5", target=B).add("declare_block", B, blocker="S6").add("resolve_battle", A)
    g.check("S6 survives with 5000, M5 destroyed", players={A: {"graveyard": ["M5"]}, B: {"field": [unit("S6", damage=5000), unit("T5")]}})
    g.add("declare_attack", A, attacker="N5", target=B).add("declare_block", B, blocker="T5").add("resolve_battle", A)
    g.check("tie: both destroyed", players={A: {"field": [unit("M6", damage=5000)], "graveyard": ["M5", "N5"]},
                                            B: {"field": [unit("S6", damage=5000)], "graveyard": ["S5", "T5"], "life": 10}})
    g.add("advance_phase", A).add("advance_phase", A)
    g.check("end-phase step 2: damage removed", end_step="END_CLOSE",
            players={A: {"field": [unit("M6", damage=0)]}, B: {"field": [unit("S6", damage=0)]}})
    g.write("ex-08-block-battle-tie", "BD-EX-8", "Block and battle; equal powers destroy each other", {"status": "in_progress"})


def ex09() -> None:
    g = attack_phase(Golden(a=["U3k", "U1k", "U5k"], b=["R4", "S3"]),
                     *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=A) for n in ("U3k", "U1k", "U5k")],
                     *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=B) for n in ("R4", "S3")],
                     op("REST", card="R4"), op("REST", card="U5k"))
    g.reject("BD-LIM-5", "declare_attack", A, attacker="U3k", target="S3")
    g.add("declare_attack", A, attacker="U3k", target="R4").add("no_block", B).add("resolve_battle", A)
    g.check("R4 survives with 3000; U3k destroyed", players={A: {"graveyard": ["U3k"]}, B: {"field": [unit("R4", damage=3000), unit("S3")]}})
    g.add("declare_attack", A, attacker="U1k", target="R4").add("no_block", B).add("resolve_battle", A)
    g.check("damage accumulates: R4 destroyed; U1k destroyed", players={A: {"graveyard": ["U3k", "U1k"]}, B: {"graveyard": ["R4"]}})
    g.reject("BD-LIM-5", "declare_attack", A, attacker="U5k", target=B)
    g.write("ex-09-targets-accumulate", "BD-EX-9", "Attack targets; damage accumulates over the turn")





def ex10() -> None:
    g = Golden().to_turn(9, "DRAW").empty(A, life=3, hand=2)
    g.check("A deck 0, life 3 (Y0/R3), hand 2", turn=9, turn_player=A, players={A: {"deck": 0, "life": 3, "yellow": 0, "red": 3, "hand_count": 2}})
    g.add("draw", A, player=A)
    g.check("(a) drawn from the red zone, no trigger check", players={A: {"deck": 0, "life": 2, "yellow": 0, "red": 2, "hand_count": 3}})
    g.write("ex-10a-draw-from-life", "BD-EX-10a", "An empty deck: the draw comes from the life zone", {"status": "in_progress"})

    g = Golden().to_turn(9, "DRAW").empty(A, life=0)
    g.add("draw", A, player=A).check("(b) A loses", result={"winner": B, "reason": "deck_out"})
    g.write("ex-10b-deck-and-life-empty", "BD-EX-10b", "Deck and life zone empty: the draw loses",
            {"status": "won", "winner": B, "reason": "deck_out"})

    g = Golden().to_turn(9, "MAIN").empty(A, life=1, deck=1)
    g.ops(op("DRAW", players=[A], n=2), note="card text: draw 2")
    g.check("(c) one from the deck, one from the life zone, no loss", result=None, players={A: {"deck": 0, "life": 0}})
    g.to_turn(11, "DRAW").add("draw", A, player=A).check("A's next required draw loses", result={"winner": B, "reason": "deck_out"})
    g.write("ex-10c-effect-draw-then-rule-draw", "BD-EX-10c", "An effect draw empties deck and life; the next draw loses",
            {"status": "won", "winner": B})

    for option, outcome in ((None, {"status": "drawn", "winner": None, "reason": "simultaneous_loss"}),
                            ("TURN_PLAYER_LOSES", {"status": "won", "winner": B, "reason": "simultaneous_loss"}),
                            ("TURN_PLAYER_WINS", {"status": "won", "winner": A, "reason": "simultaneous_loss"})):
        g = Golden(options={"simultaneous_loss_result": option} if option else None).to_turn(9, "MAIN")
        g.empty(A, life=0).empty(B, life=0)
        g.ops(op("DRAW", players=[A, B], n=1), note="card text: each player draws 1")
        g.write(f"ex-10d-both-draw-{(option or 'draw').lower().replace('_', '-')}", "BD-EX-10d",
                f"Each player draws with both empty: simultaneous loss ({option or 'DRAW'})", outcome)
    g = Golden().to_turn(9, "MAIN").empty(A, life=0).empty(B, life=0)
    g.ops(op("DRAW", players=[A], n=1), op("DRAW", players=[B], n=1), note="entered as two ops")
    g.check("A loses alone at the first op", result={"winner": B, "reason": "deck_out"})
    g.write("ex-10d-two-ops", "BD-EX-10d", "Two DRAW ops: the first loss ends the game", {"status": "won", "winner": B})


def ex11() -> None:
    g = Golden(a=["X"]).to_turn(7, "MAIN")
    hand = lambda who: len(next(p for p in g.state().game.players if p.name == who).hand)  # noqa: E731
    g.ops(op("DRAW", players=[A], n=7 - hand(A)), op("DRAW", players=[B], n=8 - hand(B)),
          op("PUT_ONTO_FIELD", card="X", from_zone="DECK", player=A),
          op("MODIFY_STAT", unit="X", stat="POWER", delta=3000, duration="END_OF_TURN"), op("DAMAGE_UNIT", unit="X", n=6000))
    g.check("A hand 7, B hand 8, X 8000 with 6000 damage", players={A: {"hand_count": 7, "field": [unit("X", power=8000, damage=6000)]},
                                                                     B: {"hand_count": 8}})
    g.add("advance_phase", A).add("advance_phase", A).check("END_OPEN", phase="END", end_step="END_OPEN")
    g.add("advance_phase", A).check("steps 2-4: X damage 0, power 5000; a discard of 2 owed", end_step="DISCARD",
                                    players={A: {"field": [unit("X", power=5000, damage=0, modifiers=[])]}})
    g.reject("BD-TURN-8", "advance_phase", A)
    g.reject("BD-LIM-2", "end_discard", A, cards=["U1k", "U2k", "U3k"])
    before = list(next(p for p in g.state().game.players if p.name == A).graveyard)  # earlier turns' discards
    g.add("end_discard", A, cards=["U1k", "U2k"]).check("hand 5, graveyard +2, END_CLOSE", end_step="END_CLOSE",
                                                        players={A: {"hand_count": 5, "graveyard": before + ["U1k", "U2k"]}})
    g.add("advance_phase", A).check("turn 8, B keeps 8 cards", turn=8, turn_player=B, phase="STAND", players={B: {"hand_count": 8}})
    g.write("ex-11-end-phase", "BD-EX-11", "End phase: damage removed, boosts expire, the hand limit", {"status": "in_progress"})





def ex12() -> None:
    g = Golden(a=["W1", "W2", "U5k", "NCMD", "QCMD", "PLN"], b=["W3", "E5", "QCMD", "PLN"],
               energy={A: ["W1", "W2"], B: ["W3", "E5"]}).to_turn(7, "MAIN")
    g.ops(op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A)).add("advance_phase", A)
    g.check("A's turn 7, attack phase", turn=7, phase="ATTACK", attack=None)
    g.reject("BD-RES-1", "play_card", A, card="NCMD", payment=P(W1="WHITE", W2="WHITE"))
    g.add("play_card", A, card="QCMD", payment=P(W1="WHITE")).add("resolve_top", "judge", ops=[])
    before = list(next(p for p in g.state().game.players if p.name == A).graveyard)
    g.check("QCMD to A's graveyard", resolution_zone=[], players={A: {"graveyard": before}})
    g.reject("BD-TURN-5", "place_energy", A, card="PLN")
    g.add("declare_attack", A, attacker="U5k", target=B)
    g.add("play_card", B, card="QCMD", payment=P(W3="WHITE")).check("B's QUICK play before the block decision",
                                                                  resolution_zone=[{"card": "QCMD", "controller": B}])
    g.reject("BD-TURN-5", "place_energy", B, card="PLN")
    g.write("ex-12-timing", "BD-EX-12", "NORMAL and QUICK timing; energy only in one's own main phase")

    g = Golden(a=["W1", "E5", "QCMD", "PLN", "E1", "E2"], energy={A: ["W1", "E5"], B: ["PLN", "U1k"]}).to_turn(9, "MAIN", keep=("QCMD", "PLN"))
    g.ops(op("ADD_ENERGY", card="E1", from_zone="DECK", player=A), op("ADD_ENERGY", card="E2", from_zone="DECK", player=A))
    deck = next(p for p in g.state().game.players if p.name == A).deck_count
    g.check("A's turn 9: energy 4, none placed", turn=9, players={A: {"energy_standing": 4, "energy_placed_this_turn": False}})
    g.add("play_card", A, card="QCMD", payment=P(W1="WHITE"))
    g.add("resolve_top", "judge", ops=[op("ADD_ENERGY", card="U1k", from_zone="DECK", standing=True)])
    g.check("energy 5 by the effect, deck -1, placement still open",
            players={A: {"deck": deck - 1, "energy_placed_this_turn": False, "energy_standing": 4, "energy_rested": 1}})
    g.add("place_energy", A, card="PLN").check("energy 6", players={A: {"energy_placed_this_turn": True, "energy_standing": 5, "energy_rested": 1}})
    g.write("ex-12b-effect-energy", "BD-EX-12", "Energy added by an effect does not use the placement of the turn")


def ex13() -> None:
    energy = ["K1", "K2", "K3", "K4", "R1", "R2", "R3"]
    g = Golden(a=energy + ["ACE1", "ACE1b"], energy={A: ["K1", "K2"], B: ["PLN", "U1k"]}).to_turn(7, "MAIN", keep=("ACE1", "ACE1b"))
    g.ops(*[op("ADD_ENERGY", card=n, from_zone="DECK", player=A) for n in energy[2:]])
    g.check("TER1 closed, seven energy standing", players={A: {"territory": {"name": "TER1", "face": "CHARACTER"}, "energy_standing": 7}})
    g.add("play_card", A, card="ACE1", payment=P(K1="BLACK", K2="BLACK", R1="RED", R2="RED")).add("resolve_top", "judge", ops=[])
    g.check("1. ACE1 on the field; the release window opens", release_window={"player": A, "unit": "ACE1"},
            players={A: {"field": [unit("ACE1", standing=True)]}})
    g.reject("BD-ACT-0", "release_territory", A, player=A, releasing_unit="ACE1", payment=P(K3="BLACK", K4="BLACK", R3="RED"))
    g.add("release_territory", A, player=A, releasing_unit="ACE1", payment=P(K3="BLACK", K4="BLACK"))
    g.check("3. released; R3 alone stands", players={A: {"territory": {"face": "RELEASED", "released": True}, "energy_standing": 1}})
    g.reject("BD-ACT-13", "release_territory", A, player=A, releasing_unit="ACE1", payment=[])
    g.ops(op("DESTROY", unit="alice:TER1"), note="card text: destroy a territory (both players hold a TER1: named with its player, §15)")
    g.check("5. closed, still in its zone", players={A: {"territory": {"name": "TER1", "face": "CHARACTER"}}})
    g.ops(op("PUT_ONTO_FIELD", card="ACE1b", from_zone="HAND", player=A), note="card text: put an ace onto the field")
    g.reject("BD-ACT-13", "release_territory", A, player=A, releasing_unit="ACE1b", payment=P(R3="RED"))
    g.write("ex-13-territory-release", "BD-EX-13", "Territory release: the window, the reduced cost, closing, no release by an effect's entry")

    g = Golden(a=energy + ["ACE2"], energy={A: ["K1", "K2"], B: ["PLN", "U1k"]}).to_turn(7, "MAIN", keep=("ACE2",))
    g.ops(*[op("ADD_ENERGY", card=n, from_zone="DECK", player=A) for n in energy[2:]])
    g.add("play_card", A, card="ACE2", payment=P(K1="BLACK", K2="BLACK", R1="RED", R2="RED")).add("resolve_top", "judge", ops=[])
    g.check("ACE2 (title T2): no window", release_window=None)
    g.reject("BD-ACT-13", "release_territory", A, player=A, releasing_unit="ACE2", payment=P(K3="BLACK", K4="BLACK"))
    g.write("ex-13b-title-differs", "BD-EX-13", "An ace of another title opens no release window")


def ex14() -> None:
    g = Golden(a=["W1", "W2", "W3", "QCMD", "QCMD", "QCMD"], b=["V", "W", "Y"], energy={A: ["W1", "W2"], B: ["PLN", "U1k"]}).to_turn(1, "MAIN")
    g.ops(op("ADD_ENERGY", card="W3", from_zone="DECK", player=A),
          *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=B) for n in ("V", "W", "Y")], op("DAMAGE_UNIT", unit="V", n=3000))
    g.check("V 5000 with 3000 damage", players={B: {"field": [unit("V", power=5000, damage=3000), unit("W"), unit("Y")]}})
    g.add("play_card", A, card="QCMD", payment=P(W1="WHITE"))
    g.add("resolve_top", "judge", ops=[op("MODIFY_STAT", unit="V", stat="POWER", delta=-2000, duration="END_OF_TURN")])
    g.check("V power 3000, damage 3000: destroyed", players={B: {"graveyard": ["V"], "field": [unit("W"), unit("Y")]}})
    g.add("play_card", A, card="QCMD", payment=P(W2="WHITE"))
    g.add("resolve_top", "judge", ops=[op("MODIFY_STAT", unit="W", stat="POWER", delta=-3000, duration="END_OF_TURN")])
    g.check("W power -1000: destroyed", players={B: {"graveyard": ["V", "W"]}})
    g.add("play_card", A, card="QCMD", payment=P(W3="WHITE"))
    g.add("resolve_top", "judge", ops=[op("MODIFY_STAT", unit="Y", stat="POWER", delta=-3000, duration="END_OF_TURN"),
                                       op("MODIFY_STAT", unit="Y", stat="POWER", delta=3000, duration="END_OF_TURN")])
    g.check("Y survives: the check runs after the whole list", players={B: {"graveyard": ["V", "W"], "field": [unit("Y", power=3000, damage=0)]}})
    g.write("ex-14-power-reduction", "BD-EX-14", "Power reduction destroys at the state check")


def ex15() -> None:
    g = Golden(a=["W1", "E5", "U5k", "QCMD"], b=["R6", "S2"], energy={A: ["W1", "E5"], B: ["PLN", "U1k"]})
    attack_phase(g, op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A),
                 *[op("PUT_ONTO_FIELD", card=n, from_zone="DECK", player=B) for n in ("R6", "S2")], op("REST", card="R6"))
    g.add("declare_attack", A, attacker="U5k", target="R6").add("declare_block", B, blocker="S2")
    g.check("S2 rested, current target S2", attack={"original_target": "R6", "current_target": "S2"},
            players={B: {"field": [unit("R6", standing=False), unit("S2", standing=False)]}})
    g.add("play_card", A, card="QCMD", payment=P(W1="WHITE")).add("resolve_top", "judge", ops=[op("DAMAGE_UNIT", unit="S2", n=2000)])
    g.check("S2 destroyed at the state check", players={B: {"graveyard": ["S2"]}}, attack={"current_target": "S2", "step": "BATTLE"})
    g.add("resolve_battle", A)
    g.check("no battle; the attack ends", attack=None, players={A: {"field": [unit("U5k", damage=0)], "graveyard": ["QCMD"]},
                                                                B: {"field": [unit("R6", damage=0)], "graveyard": ["S2"], "life": 10}})
    g.write("ex-15-blocker-removed", "BD-EX-15", "A block redirects; the blocker removed, no battle and no return to the first target")


def ex17() -> None:
    g = Golden(a=["ABL"]).to_turn(7, "MAIN")
    g.ops(op("PUT_ONTO_FIELD", card="ABL", from_zone="DECK", player=A))
    g.empty(A, life=10, hand=0, deck=next(p for p in g.state().game.players if p.name == A).deck_count)
    g.check("A's hand is empty", players={A: {"hand_count": 0}})
    g.reject("BD-ACT-11", "place_energy", A, card="PLN")
    g.reject("BD-ACT-12", "play_card", A, card="U1k", payment=P(PLN="WHITE"))
    g.reject("BD-ACT-14", "activate_ability", A, source="ABL", ability_id="a1", cost_ops=[op("DISCARD", player=A, n=1)])
    g.ops(op("DISCARD", player=A, n=1), note="a resolving text: discard a card")
    g.add("advance_phase", A).add("advance_phase", A).add("advance_phase", A).check("no discard owed", end_step="END_CLOSE")
    g.add("advance_phase", A).check("turn 8", turn=8, turn_player=B, players={A: {"hand_count": 0}})
    g.write("ex-17-empty-hand", "BD-EX-17", "An empty hand: nothing to place, play or pay with; it never loses", {"status": "in_progress"})





def quick_win(g: Golden, attacker: str = "U6k", owner: str = A) -> Golden:
    """``owner`` wins on their first turn: a unit put onto the field attacks an opponent without life."""
    other = B if owner == A else A
    attack_phase(g, op("PUT_ONTO_FIELD", card=attacker, from_zone="DECK", player=owner),
                 op("MOVE", n=10, from_zone="LIFE", to_zone="DECK", face="DOWN", player=other))
    return g.add("declare_attack", owner, attacker=attacker, target=other).add("no_block", other)


def ex16a() -> None:
    g = Golden(a=["NCMD"]).to_turn(7, "MAIN", keep=("NCMD", "PLN"))
    me = lambda: next(p for p in g.state().game.players if p.name == A)  # noqa: E731
    hand, energy = len(me().hand), len(me().energy)
    g.add("place_energy", A, card="NCMD").check("the wrong card placed", players={A: {"hand_count": hand - 1, "energy_standing": energy + 1}})
    g.add("rewind", "judge", to_seq=g.seq() - 1, reason="wrong card placed")
    g.check("(a) NCMD back in hand, the placement open again; seen by both",
            players={A: {"hand_count": hand, "energy_standing": energy, "energy_placed_this_turn": False, "disclosed_abandoned": ["NCMD"]}})
    g.add("place_energy", A, card="PLN").check("PLN placed", players={A: {"energy_placed_this_turn": True, "energy_standing": energy + 1}})
    g.write("ex-16a-undo-last", "BD-EX-16a", "Undoing the last event with a rewind")


def ex16b() -> None:
    g = Golden(a=["Z"]).to_turn(7, "MAIN")
    turn6 = g.state().game.turn_started_at - 1
    attack_phase(g, op("PUT_ONTO_FIELD", card="Z", from_zone="DECK", player=A), op("MOVE", n=4, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B), turn=7)
    grave = list(next(p for p in g.state().game.players if p.name == B).graveyard)
    g.check("Z standing, B life 6 (Y1/R5)", players={A: {"field": [unit("Z", standing=True, hit=1)]}, B: {"life": 6, "yellow": 1, "red": 5}})
    before = g.seq()
    g.add("declare_attack", A, attacker="Z", target=B).add("no_block", B).add("life_check", B, victim=B, card_name="PLN")
    g.check("the attack dealt 1", attack=None, players={B: {"life": 5, "yellow": 0, "red": 5, "graveyard": grave + ["PLN"]}})
    forbid = op("SET_STATUS", unit="Z", tag="CANNOT_ATTACK", duration="END_OF_TURN")
    g.reject("BD-LIM-5", "correct", "judge", at_seq=before + 1, reason="a continuous effect was forgotten",
             event={"type": "judge_ops", "by": "judge", "ops": [forbid], "note": "Z cannot attack this turn"})
    g.add("rewind", "judge", to_seq=before, reason="a continuous effect was forgotten")
    g.check("(b) restored: Z standing, no attack, B life 6 (Y1/R5)", attack=None, damage=None,
            players={A: {"field": [unit("Z", standing=True)]}, B: {"life": 6, "yellow": 1, "red": 5, "graveyard": grave,
                                                                     "disclosed_abandoned": ["PLN"]}})
    g.ops(forbid, note="the forgotten effect: Z cannot attack this turn")
    g.reject("BD-LIM-5", "declare_attack", A, attacker="Z", target=B)
    g.reject("BD-REW-6", "rewind", "judge", to_seq=turn6, reason="back to turn 6")
    g.write("ex-16b-forgotten-effect", "BD-EX-16b", "A forgotten effect: the correction conflicts, the rewind replaces it")


def ex16c() -> None:
    g = Golden().to_turn(6, "DRAW")
    deck = next(p for p in g.state().game.players if p.name == B).deck_count
    g.reject("BD-TURN-5", "place_energy", B, card="PLN")
    g.reject("BD-TURN-8", "advance_phase", B)
    g.add("draw", "judge", player=B).check("(c) B draws now", players={B: {"deck": deck - 1}})
    g.add("advance_phase", B).add("place_energy", B, card="PLN").check("placed in the main phase", phase="MAIN",
                                                                      players={B: {"energy_placed_this_turn": True}})
    g.write("ex-16c-forgotten-draw", "BD-EX-16c", "A forgotten draw is entered late; later-phase events wait for it")


def ex16d() -> None:
    g = quick_win(Golden(a=["U6k"])).add("confirm_result", "judge").check("(d) confirmed", result_confirmed=True)
    g.reject("BD-REW-6", "rewind", "judge", to_seq=g.seq() - 2, reason="too late")
    g.reject("BD-REW-13", "correct", "judge", at_seq=g.seq() - 1, reason="too late", event={"type": "concede", "by": A, "player": A})
    g.write("ex-16d-after-confirmation", "BD-EX-16d", "After confirm_result no rewind or correction reaches the game",
            {"status": "won", "winner": A})


def ex16e() -> None:
    g = quick_win(Golden(a=["U6k"])).add("confirm_result", "judge").check("A's win counts", wins={A: 1, B: 0})
    g.add("game_cleanup", "judge", mixed_cards_found=True).add("judge_void_game", "judge", note="a card of B found in A's deck")
    g.check("(e) game 1 void; game 2 at setup step 1", game_no=2, status="SETUP", setup_step=1, wins={A: 0, B: 0}, past_games=["void"])
    g.add("shuffle", A, player=A).add("shuffle", B, player=B).check("game 2 setup goes on", setup_step=3)
    g.write("ex-16e-void-game", "BD-EX-16e", "A void game does not count; a new game starts from setup", {"status": "in_progress"})


def ex16e_match() -> None:
    g = quick_win(Golden(a=["U6k"])).add("confirm_result", "judge").add("game_cleanup", "judge", mixed_cards_found=True)
    g.add("judge_void_match", "judge", note="mixed decks")
    g.check("every game void, nothing counts (BD-ACT-34, BD-REW-11)", status="VOID", wins={A: 0, B: 0},
            result={"winner": None, "reason": "void"})
    g.reject("BD-OVR-8", "shuffle", A, player=A)
    g.write("ex-16e-void-match", "BD-EX-16e", "A void match closes without a result", {"status": "void", "winner": None})


def ex16f() -> None:
    g = attack_phase(Golden(a=["U5k"]), op("PUT_ONTO_FIELD", card="U5k", from_zone="DECK", player=A),
                     op("MOVE", n=6, from_zone="LIFE", to_zone="DECK", face="DOWN", player=B))
    g.add("declare_attack", A, attacker="U5k", target=B).add("no_block", B)
    at = g.seq()
    g.add("life_check", B, victim=B, card_name="PLN").check("entered as PLN: life 3, attack over", attack=None, players={B: {"life": 3}})
    g.add("rewind", "judge", to_seq=at, reason="revealed card entered wrongly")
    g.check("(f) the card back on top: life 4 (Y0/R4)", players={B: {"life": 4, "yellow": 0, "red": 4, "graveyard": [], "disclosed_abandoned": ["PLN"]}},
            damage={"dealt": 0, "waiting": "REVEAL"})
    g.add("life_check", B, victim=B, card_name="BST").check("BST: total 2", damage={"dealt": 1, "bonus": 1, "total": 2}, players={B: {"life": 3}})
    g.add("life_check", B, victim=B, card_name="PLN").check("life 2, attack over", attack=None, damage=None,
                                                           players={B: {"life": 2, "yellow": 0, "red": 2, "graveyard": ["BST", "PLN"]}})
    g.write("ex-16f-judge-error", "BD-EX-16f", "A wrongly entered reveal is rewound and entered again")


def best_of_three() -> None:
    g = quick_win(Golden(a=["U6k"], b=["U6k"], options={"best_of": 3}))
    g.check("game 1 to A", status="ENDED", result={"winner": A}, wins={A: 1, B: 0})
    g.add("game_cleanup", "judge").check("game 2 opens", game_no=2, status="SETUP", setup_step=1)
    g.lines += setup(first=B)
    quick_win(g, owner=B).check("game 2 to B", wins={A: 1, B: 1}, game_no=2)
    g.add("game_cleanup", "judge")
    g.lines += setup(first=A)
    g.add("judge_result", "judge", winner=None, reason="both players agree to a draw").check("a drawn game counts for neither",
                                                                                           wins={A: 1, B: 1}, outcome="in_progress")
    g.add("game_cleanup", "judge").check("game 4 opens", game_no=4, past_games=[A, B, "judge"])
    g.lines += setup(first=A)
    g.add("concede", B, player=B).check("B concedes game 4", result={"winner": A, "reason": "concession"})
    g.write("best-of-three", "BD-OVR-7", "Best of three: a win each, a drawn game, then the deciding game",
            {"status": "won", "winner": A, "reason": "match", "score": {A: 2, B: 1}})


def refs(*names: str) -> list[dict[str, str]]:
    return [{"ref": n} for n in names]


def four_copies() -> None:
    """§15 and BD-LIM-7: four U1k as energy and four U3k on the field, each named by its instance
    reference; a negated card's number is used up, and a card that comes back gets the next one."""
    red = lambda *refs_: [{"energy": r, "as": "RED"} for r in refs_]  # noqa: E731
    g = Golden(a=["U1k"] * 4 + ["U3k"] * 4, b=["QCMD"], energy={A: ["U1k", "U1k"], B: ["PLN", "PLN"]}).to_turn(1, "MAIN")
    g.check("two U1k as initial energy", players={A: {"energy": refs("U1k#1", "U1k#2")}, B: {"energy": refs("PLN#1", "PLN#2")}})
    g.add("place_energy", A, card="U1k").check("a third U1k", players={A: {"energy": refs("U1k#1", "U1k#2", "U1k#3")}})
    g.add("play_card", A, card="U3k", payment=red("U1k#1", "U1k#2")).add("resolve_top", "judge", ops=[])
    g.check("the first U3k, alone on the field, is named U3k", players={A: {"field": [{"name": "U3k", "ref": "U3k", "instance": "alice:U3k#1"}],
                                                                            "energy_standing": 1}})
    g.reject("BD-ACT-0", "play_card", A, card="U3k", payment=red("U1k#3", "U1k#1"))
    g.to_turn(3, "MAIN", keep=("QCMD",)).add("place_energy", A, card="U1k")
    g.check("four U1k in the energy zone, standing again", players={A: {"energy": refs("U1k#1", "U1k#2", "U1k#3", "U1k#4"),
                                                                         "energy_standing": 4}})
    g.add("play_card", A, card="U3k", payment=red("U1k#1", "U1k#2")).add("resolve_top", "judge", ops=[])
    g.check("two U3k: U3k#1 and U3k#2", players={A: {"field": refs("U3k#1", "U3k#2")}})
    g.add("play_card", A, card="U3k", payment=red("U1k#4", "U1k#3"))
    g.add("play_card", B, card="QCMD", payment=[{"energy": "PLN#1", "as": "WHITE"}])
    g.check("the third U3k and bob's QCMD in the resolution zone",
            resolution_zone=[{"ref": "U3k", "instance": "alice:U3k#3"}, {"ref": "QCMD", "instance": "bob:QCMD#1"}])
    g.add("resolve_top", "judge", ops=[op("NEGATE", stack_item="U3k")])
    g.check("negated: U3k#3 to the graveyard (bob's BST: his end-phase discard of turn 2)", resolution_zone=[],
            players={A: {"field": refs("U3k#1", "U3k#2"), "graveyard": ["U3k"], "energy_standing": 0}, B: {"graveyard": ["BST", "QCMD"]}})
    g.add("advance_phase", A).add("declare_attack", A, attacker="U3k#2", target=B)
    g.check("U3k#2 attacks", attack={"attacker": "U3k#2", "current_target": B},
            players={A: {"field": [{"ref": "U3k#1", "standing": True}, {"ref": "U3k#2", "standing": False}]}})
    g.add("no_block", B).add("life_check", B, victim=B, card_name="U2k").check("one point", attack=None, players={B: {"life": 9}})
    g.reject("BD-LIM-5", "declare_attack", A, attacker="U3k#3", target=B)
    g.to_turn(5, "MAIN", keep=("QCMD",)).ops(op("PUT_ONTO_FIELD", card="U3k", from_zone="GRAVEYARD", player=A),
                                              note="card text: put a unit from your graveyard onto the field")
    g.check("the negated U3k comes back as U3k#4", players={A: {"field": refs("U3k#1", "U3k#2", "U3k#4"), "graveyard": []}})
    g.add("play_card", A, card="U3k", payment=red("U1k#2", "U1k#1")).add("resolve_top", "judge", ops=[])
    g.check("four U3k on the field", players={A: {"field": [{"name": "U3k", "ref": r, "instance": f"alice:{r}"}
                                                           for r in ("U3k#1", "U3k#2", "U3k#4", "U3k#5")],
                                                 "energy": refs("U1k#1", "U1k#2", "U1k#3", "U1k#4")}})
    g.add("advance_phase", A).add("declare_attack", A, attacker="alice:U3k#5", target=B).add("no_block", B)
    g.add("life_check", B, victim=B, card_name="U2k").check("U3k#5 dealt its point", players={B: {"life": 8}})
    g.write("four-copies", "BD-LIM-7", "Four copies of a unit and of an energy card, named by instance references (§15)",
            {"status": "in_progress"})


if __name__ == "__main__":
    for f in (ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09, ex10, ex11, ex12, ex13, ex14, ex15, ex16a, ex16b, ex16c, ex16d, ex16e, ex16e_match, ex16f, ex17, best_of_three, four_copies):
        f()
