"""Every rule ID the BACDEF reducer can name in a rejection is asserted by a test.

The IDs are read from the reducer's source (``adjudicator/games/bacdef/*.py``): every string
literal that is exactly a rule ID (``BAC-LIM-4``), whether passed to ``reject``/``Violation``/a
``require_*`` helper or kept in a table such as ``OP_RULES``. The house-rule options
(``config.py``) only document which ruling a flag belongs to, so they are left out.

A test "asserts" a rule when the ID appears quoted in a test file under ``tests/bacdef/``
(as in ``t.reject(line, "BAC-LIM-4", "E_ALREADY_PLACED")``). A rule the reducer names but no
event can reach is listed in ``UNREACHABLE`` (``tests/bacdef/__init__.py``) with the reason; it must still be cited (test
name or docstring) by the test of the behaviour it stands for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.bacdef import UNREACHABLE

ROOT = Path(__file__).resolve().parents[2]
REDUCER = ROOT / "adjudicator" / "games" / "bacdef"
TESTS = Path(__file__).resolve().parent
RULE_ID = re.compile(r"^BAC-[A-Z]+-\d+$")

def reducer_rule_ids() -> set[str]:
    found: set[str] = set()
    for path in sorted(REDUCER.glob("*.py")):
        if path.name == "config.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(x, ast.Name) and x.id == "OPTION_RULES" for x in targets):
                    skip |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.match(node.value) and id(node) not in skip:
                found.add(node.value)
    return found


def _test_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("test_*.py")) if p.name != Path(__file__).name)


def cited(rule: str, text: str) -> bool:
    return re.search(rule.replace("-", "[-_]") + r"(?!\d)", text) is not None


def test_the_extraction_finds_the_reducer_rules():
    ids = reducer_rule_ids()
    assert {"BAC-LIM-4", "BAC-SETUP-5", "BAC-REW-14", "BAC-EFF-7", "BAC-OVR-7"} <= ids
    assert "BAC-RUL-1" not in ids  # only in the options
    assert set(UNREACHABLE) <= ids, "an UNREACHABLE entry the reducer no longer names"


def test_every_rule_the_reducer_names_is_asserted_by_a_test():
    text = _test_sources()
    missing = sorted(r for r in reducer_rule_ids() - set(UNREACHABLE) if f'"{r}"' not in text)
    assert missing == [], f"rules enforced by the reducer with no test asserting them: {missing}"


def test_unreachable_rules_are_cited_by_the_test_of_their_behaviour():
    text = _test_sources()
    assert [r for r in UNREACHABLE if not cited(r, text)] == []
