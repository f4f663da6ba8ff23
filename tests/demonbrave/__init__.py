"""DemonBrave tests: helpers (``builder``, ``replay``, ``make_fixtures``) and the rule tests.

``UNREACHABLE`` lists the rule IDs the game's code names that no event can reach, with the
reason (read by the generic rule-ID coverage check, tests/test_rule_coverage.py). Every rule ID
the package names is reached by some event and asserted by a test here or by a golden
expectation (fixtures/demonbrave/golden/*.expect.json), so the list is empty.
"""

UNREACHABLE: dict[str, str] = {}
