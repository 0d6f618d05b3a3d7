"""Solver variants for ``eighteen bench --solver benchmarks.bench_variants:NAME``: the default
method as it was before a change, so that before and after run side by side in one run."""

from __future__ import annotations

import routing

__all__ = ["auto_before_count_switch"]


def auto_before_count_switch(problem: routing.Problem, time_limit: float) -> routing.Solution:
    """``method="auto"`` with the hand-over of before the count switch: up to 1,500,000
    route variants or 4 s of enumeration (kernel loading no longer counts in either)."""
    return routing.solve(problem, time_limit=time_limit, max_routes=1_500_000, enum_seconds=4.0)
