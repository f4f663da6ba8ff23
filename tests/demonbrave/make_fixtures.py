"""Write the golden matches of fixtures/demonbrave/golden/ (the worked examples of rules §13).

    .venv/bin/python -m tests.demonbrave.make_fixtures

Every line is adjudicated while it is written (``Table``), so a file is written only if the
reducer accepts and refuses exactly the lines the example says. The tests replay the files and
check the example's figures independently (tests/demonbrave/test_golden.py) and the generic runner
checks each file against its ``.expect.json`` (tests/test_golden.py).

Seat order is always alice (P1), bob (P2). Where an example takes a position as given (turn
number, pair ids, lives, deck sizes), the file reaches it by play where that is simple, and
otherwise by a ``judge_adjust`` whose reason begins "example position".
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.demonbrave import golden_ex01_07, golden_ex08_13, golden_ex14_15  # noqa: F401  (they register the writers)
from tests.demonbrave.builder import Table
from tests.demonbrave.golden_writers import FILES

OUT = Path(__file__).resolve().parents[2] / "fixtures" / "demonbrave" / "golden"


def build(name: str) -> Table:
    return FILES[name][2]()


def main(argv: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    names = argv or list(FILES)
    for name in names:
        example, title, _ = FILES[name]
        t = build(name)
        t.write(OUT / f"{name}.jsonl", example, title)
        print(f"{name}.jsonl: {len(t.lines)} lines, {sum(v is not None for v in t.verdicts)} refused")


if __name__ == "__main__":
    main(sys.argv[1:])
