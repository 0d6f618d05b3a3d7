"""(e) Dense synthetic boards with unbounded trains: numba vs auto vs CP-SAT.

Full (fill 1.0), dense (track density 0.9) 12 x 10 boards with one D, one 6E or one
12-train: the ``length-dense`` points of ``benchmarks/scaling.py``, where the numba
enumeration meets millions of routes.  Each tool gets the same time limit and the answer is
recorded as it comes -- total, proven bound, ``optimal`` -- because a tool that stops at the
limit is part of the result, not a failure.  What is asserted: a claimed optimum equals its
bound, and every tool's bound is at least every tool's total (bounds are proofs).  Every tool
uses one core (CP-SAT one worker, inside ``auto`` too), as in the other suites.

Default (plain ``pytest benchmarks/``): seed 0 and a 2 s limit, about 15 s for this file.
``EIGHTEEN_BENCH_FULL=1``: seeds 0 and 1 and the 20 s limit of ``scaling.py``.
"""

from __future__ import annotations

import functools

import pytest

import routing
from benchmarks.common import CPSAT_WORKERS, FULL, extra, timed
from routing import Train
from routing.synthetic import synthetic_problem

BOARD = {"cols": 12, "rows": 10, "fill": 1.0, "density": 0.9}
TRAINS = ("D", "6E", "12")
SEEDS = (0, 1) if FULL else (0,)
TIME_LIMIT = 20.0 if FULL else 2.0
TOOLS = ("numba", "auto", "cpsat")
CASES = [(name, seed) for name in TRAINS for seed in SEEDS]
GROUP = "dense synthetic, unbounded trains"


def _train(name: str) -> Train:
    if name == "D":
        return Train.unlimited("D")
    if name.endswith("E"):
        return Train.express(name, int(name[:-1]))
    return Train.n(name, int(name))


@functools.cache
def problem(name: str, seed: int) -> routing.Problem:
    return synthetic_problem([_train(name)], seed=seed, **BOARD)


def run(tool: str, p: routing.Problem) -> routing.Solution:
    if tool == "numba":
        return routing.solve(p, time_limit=TIME_LIMIT, method="numba")
    return routing.solve(p, time_limit=TIME_LIMIT, method=tool, num_workers=CPSAT_WORKERS)


#: (case, tool) -> (total, bound) of the timed runs, for the cross-tool checks.
_SEEN: dict[tuple, dict[str, tuple[int, int]]] = {}


def _check(case, tool: str, sol: routing.Solution) -> None:
    assert sol.total <= sol.bound
    assert not sol.optimal or sol.total == sol.bound
    seen = _SEEN.setdefault(case, {})
    seen[tool] = (sol.total, sol.bound)
    best_total = max(t for t, _ in seen.values())
    least_bound = min(b for _, b in seen.values())
    assert best_total <= least_bound, f"{case}: a total {best_total} above a bound {least_bound}"


def _case_id(case) -> str:
    name, seed = case
    return f"{name}-s{seed}"


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_dense(benchmark, case, tool):
    benchmark.group = f"{GROUP}: {_case_id(case)}"
    p = problem(*case)
    routing.solve(synthetic_problem([_train("2")], seed=0, cols=4, rows=4))  # kernels loaded
    sol, seconds = timed(lambda: benchmark.pedantic(run, args=(tool, p), rounds=1, iterations=1))
    _check(case, tool, sol)
    extra(benchmark, suite="dense", tool=tool, case=_case_id(case), trains=case[0],
          seed=case[1], time_limit=TIME_LIMIT, total=sol.total, bound=sol.bound,
          optimal=sol.optimal, seconds=round(seconds, 3),
          handover=sol.stats.get("handover"), engine=sol.stats.get("engine"))  # fmt: skip
