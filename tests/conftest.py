"""Shared test configuration: hypothesis profiles.

``ci`` (default) keeps the property suites to a few minutes; ``slow`` is for ``-m slow`` runs.
Set ``HYPOTHESIS_PROFILE=dev`` for a quick local loop.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("dev", parent=settings.get_profile("ci"), max_examples=50)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
