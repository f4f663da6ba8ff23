"""Writes fixtures/pbwcg/golden/*: one match per worked example of rules/pbwcg.md §13, entered
through the real fold (the generator stops at once if a line is not judged as the chapter says).
Run: python -m tests.pbwcg.make_golden"""

from __future__ import annotations

import json

from tests.pbwcg import golden_a as A
from tests.pbwcg import golden_b as B
from tests.pbwcg import golden_c as C
from tests.pbwcg.builder import FIX, Table

WON_P1 = {"status": "won", "winner": "P1", "reason": "hp_zero"}
WON_P2 = {"status": "won", "winner": "P2", "reason": "hp_zero"}
RUNNING = {"status": "in_progress", "winner": None}

CASES = [
    ("ex01-setup-order", "PBW-EX-1", "Setup, HP, order", A.ex01, RUNNING),
    ("ex02-normal-attacks", "PBW-EX-2", "Normal attacks", A.ex02, RUNNING),
    ("ex03-pl-turn-caps", "PBW-EX-3", "PL-turn caps (Z set in turn 1: two placements a PL turn)", A.ex03, RUNNING),
    ("ex04-equipment-speed", "PBW-EX-4", "Equipment, weight, speed", A.ex04, RUNNING),
    ("ex04-overweight-total", "PBW-EX-4", "Overweight basis total", lambda: A.ex04(True), RUNNING),
    ("ex05-part-limit", "PBW-EX-5", "Part limit", A.ex05, RUNNING),
    ("ex05-two-hands", "PBW-EX-5", "two_hand_blocks_one_hand", lambda: A.ex05(True), RUNNING),
    ("ex06-ability-damage", "PBW-EX-6", "Damage table: the ability line", A.ex06, RUNNING),
    ("ex07-hp-cap", "PBW-EX-7", "HP cap", A.ex07, RUNNING),
    ("ex08-bs-limits", "PBW-EX-8", "BS limits", A.ex08, RUNNING),
    ("ex09-receipt-check", "PBW-EX-9", "Receipt check", B.ex09, RUNNING),
    ("ex09-judge-rolls", "PBW-EX-9", "Receipt check with a judge", lambda: B.ex09(True), RUNNING),
    ("ex10-evasion-magic", "PBW-EX-10", "Evasion and magic", B.ex10, RUNNING),
    ("ex11-player-attack", "PBW-EX-11", "Attack on the player", B.ex11, WON_P1),
    ("ex12-both-zero-draw", "PBW-EX-12", "Both players at 0 in T5", lambda: B.ex12(False),
     {"status": "drawn", "winner": None, "reason": "both_hp_zero"}),
    ("ex12-active-player-wins", "PBW-EX-12", "Both at 0 in B1's main turn, active_player_wins", lambda: B.ex12(True),
     {"status": "won", "winner": "P2", "reason": "both_hp_zero"}),
    ("ex13-move-forced-move", "PBW-EX-13", "Move, swap, forced move", B.ex13, RUNNING),
    ("ex14-hand-limit-empty-deck", "PBW-EX-14", "Hand limit, empty deck (turns 2-3 for 6-7)", B.ex14, RUNNING),
    ("ex15-ab-conflict-then-rewind", "PBW-EX-15", "Forgotten recovery check: (a) conflict, (d) confirmations, (b) rewind", C.ex15_ab, RUNNING),
    ("ex15-c-correction", "PBW-EX-15", "Forgotten recovery check: (c) accepted correction", C.ex15_c, RUNNING),
    ("ex16-forgotten-effect-ends-battle", "PBW-EX-16", "Forgotten BS effect ends the battle", C.ex16, WON_P2),
    ("ex17-window", "PBW-EX-17", "Window of one turn", C.ex17, RUNNING),
    ("ex17-local-b", "PBW-EX-17", "Local rule B", lambda: C.ex17(True), RUNNING),
    ("ex18-c-off", "PBW-EX-18", "Judge error with C off", lambda: C.ex18("off", True), RUNNING),
    ("ex18-c", "PBW-EX-18", "Judge error under C", lambda: C.ex18("C", True), RUNNING),
    ("ex18-c-no-judge", "PBW-EX-18", "C without a judge", lambda: C.ex18("C", False), RUNNING),
    ("ex18-c-alpha", "PBW-EX-18", "Judge error under C-alpha", lambda: C.ex18("C_alpha", True), RUNNING),
    ("ex19-default", "PBW-EX-19", "Recovery and durations without local A", lambda: C.ex19(False), RUNNING),
    ("ex19-local-a", "PBW-EX-19", "Local rule A", lambda: C.ex19(True), RUNNING),
    ("ex20-summon-supports", "PBW-EX-20", "Summon supports", B.ex20, RUNNING),
    ("ex20-other-world", "PBW-EX-20", "A support summoned to a field of another world", lambda: B.ex20(True), RUNNING),
    ("ex21-tie-recheck", "PBW-EX-21", "Tie re-check", B.ex21, RUNNING),
    ("ex22-deck-validation", "PBW-EX-22", "Deck validation", B.ex22, RUNNING),
    ("ex23-local-e", "PBW-EX-23", "Local rule E", B.ex23, RUNNING),
    ("ex24-record-fix-under-b", "PBW-EX-24", "Record fix, also under local B", lambda: C.ex24({"local_B_no_corrections": True}), RUNNING),
    ("ex24-no-record-fixes", "PBW-EX-24", "allow_record_fixes false", lambda: C.ex24({"allow_record_fixes": False}), RUNNING),
    ("ex25-local-d", "PBW-EX-25", "Local rule D: three players, P3 out, P2 wins", B.ex25, WON_P2),
]


def three_players() -> None:
    """fixtures/pbwcg/conformance-three-players.jsonl: the opening the game-agnostic random play
    (tests/test_games_contract.py) starts a three-player battle from (local rule D, with
    validate_range, best of 3): turn 1 played, turn 2 drawn, every HP low enough for a player to
    go out and the battle to end."""
    t = Table({"player_count": 3, "validate_range": True, "best_of": 3}, players=("P1", "P2", "P3"))
    t.setup()
    t.start_turn(ties=[A.TIE_B1_A2])
    t.pl_turns()
    t.field_step()
    t.idle_rest()
    t.end_turn()
    t.start_turn()
    t.act("effect", "judge", source="fixture: a long battle", ops=[
        {"op": "hp_damage", "player": "P1", "n": 16}, {"op": "hp_damage", "player": "P2", "n": 13},
        {"op": "hp_damage", "player": "P3", "n": 11}])
    path = FIX / "conformance-three-players.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in t.lines), encoding="utf-8")


def main(only: str | None = None) -> None:
    for name, example, title, build, outcome in CASES:
        if only and only not in name:
            continue
        try:
            t = build()
        except Exception as exc:
            print(f"{name}: FAILED {type(exc).__name__}: {exc}")
            continue
        t.write(name, example, title, outcome)
        print(f"{name}: {len(t.lines)} lines, {len(t.rejected)} refused")
    if not only:
        three_players()


if __name__ == "__main__":
    import sys

    main(sys.argv[1] if len(sys.argv) > 1 else None)
