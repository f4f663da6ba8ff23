"""Rule IDs the BACDEF code names that no event can reach, with the reason (read by the rule-ID
coverage checks, tests/test_rule_coverage.py and tests/bacdef/test_rule_coverage.py)."""

UNREACHABLE = {
    # E_AUTO_INSTANCE: an automatic instance (knock, no battle effect) is resolved by the
    # reducer as soon as it reaches the head of the queue, so a resolve_effect naming it is
    # refused earlier, by BAC-RES-4 (not the head) or BAC-TURN-10 (another choice awaited).
    "BAC-RES-5": "an automatic instance never waits at the head of the queue",
    # LASTING and NOTE have no field that can be illegal: they never give E_BAD_OP.
    "BAC-EFF-13": "LASTING has no illegal form",
    "BAC-EFF-14": "NOTE has no illegal form",
}
