"""The CP-SAT model against the oracle on random problems, and against the numba search on
every bundled example position.

A disagreement is written to ``tests/failures/`` (problem JSON plus both solutions) before
the test fails; hypothesis shrinks it first.  CP-SAT runs with one worker here because one
worker is deterministic (the default of two is safe since the model leaves out OR-Tools 9.15's
crashing local-search workers).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings

from engine.games import build_problem, load_position
from routing import solve
from routing.instance import problem_to_instance
from tests.naive import naive_solve, naive_total
from tests.strategies import problems

FAILURES = Path(__file__).parent / "failures"
CI_EXAMPLES = int(os.environ.get("EIGHTEEN_CPSAT_EXAMPLES", "500"))
EXAMPLES = sorted((Path(__file__).parents[1] / "engine" / "examples").glob("*.json"))


def _record(problem, ours, theirs, label: str) -> str:
    FAILURES.mkdir(exist_ok=True)
    blob = {
        "problem": problem_to_instance(problem),
        "cpsat": ours.to_dict(),
        "reference": theirs.to_dict(),
    }
    text = json.dumps(blob, indent=1)
    path = FAILURES / f"{label}-{abs(hash(text)) % 10**10}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return str(path)


def check_cpsat(problem) -> None:
    ours = solve(problem, method="cpsat", num_workers=1, time_limit=60)
    theirs = naive_solve(problem)
    ok = ours.optimal and ours.total == theirs.total and ours.bound == ours.total
    if ok and ours.routes:
        declared = [(r.train, r.nodes, r.segments) for r in ours.routes]
        try:
            ok = naive_total(problem, declared) == ours.total
        except ValueError:
            ok = False
        ok = ok and sum(r.revenue for r in ours.routes) == ours.total
    if not ok:
        where = _record(problem, ours, theirs, "cpsat-vs-oracle")
        pytest.fail(
            f"CP-SAT total {ours.total} (optimal={ours.optimal}, bound={ours.bound}) vs oracle "
            f"{theirs.total}; reproducer: {where}"
        )


@settings(max_examples=CI_EXAMPLES)
@given(problems(n_trains=(1, 4)))
def test_cpsat_matches_oracle(problem):
    check_cpsat(problem)


@pytest.mark.slow
@settings(max_examples=20_000)
@given(problems(n_trains=(1, 4)))
def test_cpsat_matches_oracle_slow(problem):
    check_cpsat(problem)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_positions_agree(path):
    problem = build_problem(load_position(path))[0]
    fast = solve(problem)
    model = solve(problem, method="cpsat", num_workers=1, time_limit=60)
    assert fast.optimal and model.optimal, (fast.optimal, model.optimal)
    assert fast.total == model.total, (fast.total, model.total)


def test_cpsat_shares_no_search_code():
    # the cross-check is only worth something if the model cannot inherit a search bug
    import ast

    root = Path(__file__).parents[1] / "routing"
    for name in ("cpsat.py", "cpsat_model.py"):
        tree = ast.parse((root / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                module = node.module or ""
                assert not module.lstrip(".").startswith("_"), (name, module)
                assert module.lstrip(".") not in ("validation", "synthetic"), (name, module)


def test_cpsat_time_limit_returns_feasible_routes_and_a_valid_bound():
    from routing import Train, validate
    from routing.synthetic import synthetic_problem

    trains = [Train.n("4", 4), Train.n("5", 5), Train.n("6", 6), Train.n("8", 8)]
    problem = synthetic_problem(trains, seed=0, density=0.9, city_share=0.3)
    exact = solve(problem)
    quick = solve(problem, method="cpsat", num_workers=1, time_limit=0.5)
    assert quick.bound >= exact.total >= quick.total
    assert quick.optimal == (quick.total == exact.total == quick.bound)
    if quick.routes:
        declared = [(r.train, r.nodes, r.segments) for r in quick.routes]
        assert validate(problem, declared).total == quick.total


@pytest.mark.parametrize("limit", [0, -2, float("nan")])
def test_cpsat_rejects_bad_time_limits(limit):
    from routing import Train
    from routing.synthetic import synthetic_problem

    with pytest.raises(ValueError, match="time_limit"):
        solve(synthetic_problem([Train.n("2", 2)], seed=0), method="cpsat", time_limit=limit)
