"""PBWCG tests. Rules the code names but no event can reach (tests/test_rule_coverage.py)."""

UNREACHABLE = {
    "PBW-ACT-1": "every event type of the union has a handler and a second match_started is malformed input "
                 "(the fold refuses it before the game); the name stays as the guard of the handler table",
}
