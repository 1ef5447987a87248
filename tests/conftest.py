"""Shared test configuration.

Hypothesis: no per-example deadline (CI runs on two shared cores, where a slow example is
load, not a bug) and no too-slow health check; every property test still runs its examples.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "nomicpoker",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile("nomicpoker")
