import os

import pytest
from hypothesis import HealthCheck, settings

from adjudicator.engine import registry

# Profiles: "ci" (the default of `make test`) keeps the suite inside its time budget on a
# 2-core machine; "deep" (`make test-deep`) explores much further.
settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

registry.register("nim", "tests.toygame:GAME")

PG_URL = os.environ.get("ADJ_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def pg_url():
    """The PostgreSQL test database. In CI it must be reachable: the tests fail, never skip."""
    if not os.environ.get("CI"):
        try:
            import psycopg

            psycopg.connect(PG_URL, connect_timeout=3).close()
        except Exception as exc:  # pragma: no cover - depends on the machine
            pytest.skip(f"no PostgreSQL at {PG_URL}: {exc}")
    return PG_URL
