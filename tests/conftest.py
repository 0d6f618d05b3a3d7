"""Shared test configuration: hypothesis profiles, and the solver's kernels compiled first.

``ci`` (default) keeps the property suites to a few minutes; ``slow`` is for ``-m slow`` runs.
Set ``HYPOTHESIS_PROFILE=dev`` for a quick local loop.
"""

import os

import pytest
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


@pytest.fixture(scope="session", autouse=True)
def _kernels_compiled():
    """Compile the kernels once per test process before any test, as the first ``eighteen``
    command of an installation does: the commands the tests run then solve with numba
    (:func:`engine.app.cli_common.solve_options_now`) and no test's time holds a compile.
    They are loaded into this process too, so its solves run compiled; the interpreted tier
    is tested on its own (``tests/test_tiers.py``) and by the commands run as processes."""
    from routing.kernels import load_kernels

    load_kernels()


@pytest.fixture(scope="session")
def ahead_kernels_built() -> None:
    """The kernels compiled ahead of time, built first if this installation has not built
    them (about a minute, once: they land in the kernel cache every test process shares);
    skips where the platform has none."""
    from routing.kernels import build_ahead

    if build_ahead() is None:
        pytest.skip("the ahead tier is built on 64-bit Linux only")
