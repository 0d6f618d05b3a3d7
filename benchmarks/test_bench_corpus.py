"""(b) Every corpus position: the numba search (warm) against the CP-SAT model.

One benchmark group per position (``position <name>``); the 1846 positions' groups also get
routes-18xx from ``test_bench_routes18xx.py``.  Before timing, :func:`benchmarks.common.reference`
solves the position with both tools and checks that they prove the same optimum -- or, where
the CP-SAT model ignores a rule the problem uses, that numba stays below CP-SAT's relaxed
optimum; CP-SAT is then not timed (xfail, naming the rule), so no wrong answer is timed.

Default: :data:`benchmarks.common.DEFAULT_CORPUS` (one quick position per title class plus
two 1846 ones); ``EIGHTEEN_BENCH_FULL=1``: every position of ``positions/index.json``.
"""

from __future__ import annotations

import pytest

from benchmarks.common import (
    FULL,
    corpus_cases,
    extra,
    problem_of,
    reference,
    rounds_for,
    solve_cpsat,
    solve_numba,
    timed,
)

CASES = corpus_cases()


def _facts(entry) -> dict:
    return {"position": entry.name, "title": entry.title, "stage": entry.stage,
            "phase": entry.phase, "trains": list(entry.trains), "source": entry.source}  # fmt: skip


@pytest.mark.parametrize("entry", CASES, ids=lambda e: e.name)
def test_position_numba(benchmark, entry):
    benchmark.group = f"position {entry.name}"
    p = problem_of(entry.file)
    ref = reference(entry.file)
    first, seconds = timed(solve_numba, p)  # warm-up: the kernels are compiled by now
    assert first.optimal and first.total == ref.total
    result = benchmark.pedantic(solve_numba, args=(p,), rounds=rounds_for(seconds), iterations=1)
    assert result.optimal and result.total == ref.total
    extra(benchmark, suite="positions", tool="numba", total=result.total, optimal=True,
          agree=True, **_facts(entry))  # fmt: skip


@pytest.mark.parametrize("entry", CASES, ids=lambda e: e.name)
def test_position_cpsat(benchmark, entry):
    benchmark.group = f"position {entry.name}"
    p = problem_of(entry.file)
    ref = reference(entry.file)
    if not ref.cpsat_agrees:
        pytest.xfail(ref.cpsat_note())
    _, seconds = timed(solve_cpsat, p)
    rounds = rounds_for(seconds, fast_rounds=20 if FULL else 3)
    result = benchmark.pedantic(solve_cpsat, args=(p,), rounds=rounds, iterations=1)
    assert result.optimal and result.total == ref.total
    extra(benchmark, suite="positions", tool="cpsat", total=result.total, optimal=True,
          agree=True, cpsat_gaps=list(ref.cpsat_gaps), **_facts(entry))  # fmt: skip
