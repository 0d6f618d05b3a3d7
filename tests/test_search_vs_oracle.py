"""The numba search against the brute-force oracle on random problems.

Every disagreement is written to ``tests/failures/`` as a reproducer (the problem as JSON
plus both solutions) before the test fails; hypothesis shrinks it first.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings

from routing import RouteError, solve, validate
from routing.instance import problem_to_instance
from tests.naive import naive_solve, naive_total
from tests.strategies import problems

FAILURES = Path(__file__).parent / "failures"
CI_EXAMPLES = int(os.environ.get("EIGHTEEN_PROPERTY_EXAMPLES", "1000"))


def _record(problem, ours, theirs, label: str) -> str:
    FAILURES.mkdir(exist_ok=True)
    blob = {
        "problem": problem_to_instance(problem),
        "numba": ours.to_dict(),
        "reference": theirs.to_dict(),
    }
    path = FAILURES / f"{label}-{abs(hash(json.dumps(blob, sort_keys=True))) % 10**10}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(blob, indent=1))
    tmp.replace(path)
    return str(path)


def check_against_oracle(problem) -> None:
    ours = solve(problem)
    theirs = naive_solve(problem)
    try:
        _compare(problem, ours, theirs)
    except AssertionError as err:
        where = _record(problem, ours, theirs, "numba-vs-oracle")
        raise AssertionError(f"{err}; reproducer: {where}") from None


def _compare(problem, ours, theirs) -> None:
    if ours.total != theirs.total or not ours.optimal:
        raise AssertionError(
            f"numba total {ours.total} (optimal={ours.optimal}) != oracle {theirs.total}"
        )
    assert ours.bound == ours.total
    # the routes we return must be legal and add up, by the oracle's own scoring ...
    declared = [(r.train, r.nodes, r.segments) for r in ours.routes]
    assert naive_total(problem, declared) == ours.total
    # ... and by our validator
    try:
        assert validate(problem, declared).total == ours.total
    except RouteError as err:
        raise AssertionError(f"validate rejects our own routes: {err}") from None
    assert sum(r.revenue for r in ours.routes) == ours.total


@settings(max_examples=CI_EXAMPLES)
@given(problems(n_trains=(1, 4)))
def test_numba_matches_oracle(problem):
    check_against_oracle(problem)


@pytest.mark.slow
@settings(max_examples=20_000)
@given(problems(n_trains=(1, 4)))
def test_numba_matches_oracle_slow(problem):
    check_against_oracle(problem)
