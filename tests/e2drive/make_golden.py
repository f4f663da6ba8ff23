"""Writes fixtures/e2drive/golden/*.jsonl and their .expect.json: every worked example of rules
§13 (E2D-EX-1…20) as a match entered at the table. Positions the examples start from are reached
with the judge's primitive ops (``judge_effect``), as a table would set them up by card effects.

Run: ``.venv/bin/python -m tests.e2drive.make_golden`` (the files are committed; the golden
runner replays them)."""

from __future__ import annotations

from tests.e2drive.golden_examples_1 import ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09
from tests.e2drive.golden_examples_2 import ex10, ex11, ex12, ex13, ex14, ex15, ex16, ex17, ex18, ex19, ex19d, ex20
from tests.e2drive.golden_kit import OUT

ALL_EXAMPLES = [ex01, ex02, ex03, ex04, ex05, ex06, ex07, ex08, ex09, ex10, ex11, ex12, ex13, ex14, ex15, ex16, ex17, ex18,
                ex19, ex19d, ex20]


if __name__ == "__main__":
    for old in OUT.glob("*.json*"):
        old.unlink()
    for make in ALL_EXAMPLES:
        make()
