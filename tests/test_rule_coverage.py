"""Every rule ID a game's code can name is asserted by a test, for every game.

The IDs are read from the game package's source (``adjudicator/games/<game>/*.py``, its options in
``config.py`` excepted: they only say which ruling a flag belongs to): every string literal that is
exactly a rule ID of the game's ``prefix``. A test asserts a rule when the ID appears quoted in a
test file ``tests/<game>/test_*.py`` or as a ``"rule"`` of a golden expectation
(``fixtures/<game>/golden/*.expect.json``). A rule the code names but no event can reach is listed
in ``UNREACHABLE`` (``tests/<game>/__init__.py``) with the reason, and must still be cited by the
test of the behaviour it stands for.
"""

from __future__ import annotations

import ast
import importlib
import json
import re

import pytest

from adjudicator.engine import registry
from tests.gamekit import FIXTURES, GAMES_DIR, ROOT, real_games


def rule_pattern(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(prefix)}-[A-Z][A-Z0-9]*-\d+[a-z]?$")


def named_rules(name: str) -> set[str]:
    pattern = rule_pattern(registry.get(name).prefix)
    found: set[str] = set()
    for path in sorted((GAMES_DIR / name).glob("*.py")):
        if path.name == "config.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and pattern.match(node.value):
                found.add(node.value)
    return found


def asserted_text(name: str) -> str:
    tests = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / name).glob("test_*.py"))]
    rules = []
    for p in sorted((FIXTURES / name / "golden").glob("*.expect.json")):
        rules += [f'"{r["rule"]}"' for r in json.loads(p.read_text(encoding="utf-8")).get("rejected", {}).values()]
    return "\n".join(tests + rules)


def unreachable(name: str) -> dict[str, str]:
    return dict(getattr(importlib.import_module(f"tests.{name}"), "UNREACHABLE", {}))


def cited(rule: str, text: str) -> bool:
    return re.search(rule.replace("-", "[-_]") + r"(?![0-9])", text) is not None


@pytest.mark.parametrize("name", real_games())
def test_every_rule_the_game_names_is_asserted_by_a_test(name):
    text = asserted_text(name)
    missing = sorted(r for r in named_rules(name) - set(unreachable(name)) if f'"{r}"' not in text)
    assert missing == [], f"{name}: rules the code names with no test asserting them: {missing}"


@pytest.mark.parametrize("name", real_games())
def test_unreachable_rules_are_named_by_the_code_and_cited_by_a_test(name):
    gone = unreachable(name)
    assert set(gone) <= named_rules(name), "an UNREACHABLE entry the code no longer names"
    assert all(reason for reason in gone.values())
    text = asserted_text(name)
    assert [r for r in gone if not cited(r, text)] == []


def test_the_extraction_reads_literals_of_the_prefix_only():
    assert rule_pattern("BAC").match("BAC-LIM-4") and rule_pattern("DB").match("DB-RWD-3")
    assert not rule_pattern("BAC").match("BAC-LIM") and not rule_pattern("DB").match("XDB-RWD-3")
    assert {"BAC-LIM-4", "BAC-OVR-7"} <= named_rules("bacdef")
    assert "BAC-RUL-1" not in named_rules("bacdef")  # only in the options


def odd_rule_ids(name: str) -> set[str]:
    """Strings in the game's code that look like one of its rule IDs but have another shape, so the
    coverage check above would never see them (``DB-ACT15``, ``DB-act-1``, ``DB-ACT-1-2``)."""
    prefix = registry.get(name).prefix
    like = re.compile(rf"^{re.escape(prefix)}-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")
    pattern = rule_pattern(prefix)
    found: set[str] = set()
    for path in sorted((GAMES_DIR / name).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and like.match(node.value):
                if not pattern.match(node.value):
                    found.add(node.value)
    return found


@pytest.mark.parametrize("name", real_games())
def test_every_rule_id_the_game_names_has_the_shape_the_coverage_check_reads(name):
    assert odd_rule_ids(name) == set()
