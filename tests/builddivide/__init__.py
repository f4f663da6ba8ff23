"""Build Divide tests. ``UNREACHABLE``: rule IDs the code names that no event can reach."""

UNREACHABLE: dict[str, str] = {}
