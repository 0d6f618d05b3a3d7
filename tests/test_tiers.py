"""The search's two kernel tiers (:mod:`routing._jit`): the same answers, and the rule that
picks one.

* Compiled and interpreted give the same solution (total, bound, proof, every route with its
  stops, segments, bonuses and revenue) on random problems and on every bundled example;
  the interpreted one also matches the brute-force oracle.
* ``kernels="auto"``: a process solves interpreted while it has spent less than loading
  costs (``LOAD_SECONDS`` when numba's cache holds the kernels), cuts an interpreted solve
  short at what is left of that allowance and runs it again compiled, and stays compiled
  once it loaded the kernels.
* A fresh process answers a position without importing numba at all.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

import routing
from routing import _jit
from tests.naive import naive_solve
from tests.strategies import problems

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "engine" / "examples").glob("*.json"))


def _answer(solution: routing.Solution) -> tuple:
    routes = tuple(
        (r.train, r.nodes, r.segments, r.counted, r.revenue, tuple(sorted(r.bonuses.items())),
         r.designated)
        for r in solution.routes
    )  # fmt: skip
    return solution.total, solution.bound, solution.optimal, routes


@settings(max_examples=150, deadline=None)
@given(problems(n_trains=(1, 3)))
def test_tiers_agree_on_random_problems(problem):
    interpreted = routing.solve(problem, method="numba", kernels="interpreted")
    compiled = routing.solve(problem, method="numba", kernels="compiled")
    assert interpreted.stats["kernels"] == "interpreted"
    assert compiled.stats["kernels"] == "compiled"
    assert _answer(interpreted) == _answer(compiled)
    assert interpreted.total == naive_solve(problem).total


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_tiers_agree_on_the_examples(path):
    from engine.games import build_problem

    problem, _view = build_problem(str(path))
    interpreted = routing.solve(problem, kernels="interpreted")
    compiled = routing.solve(problem, kernels="compiled")
    assert interpreted.optimal
    assert _answer(interpreted) == _answer(compiled)


def _raw_enumeration(problem: routing.Problem, kernels: _jit.Kernels, max_variants: int) -> list:
    from routing._compile import compile_problem
    from routing._search import _enumerate

    compiled = compile_problem(problem, True, kernels=kernels)
    out = []
    for train in problem.trains:
        found = _enumerate(compiled, train, math.inf, max_variants)
        legs = [tuple(found.legs_of(i).tolist()) for i in range(found.n)]
        out.append((found.n, found.expanded, found.done, found.value.tolist(),
                    found.start.tolist(), found.cross.tolist(), legs))  # fmt: skip
    return out


@pytest.mark.parametrize("max_variants", [20_000_000, 300])
def test_enumeration_outgrowing_its_outputs_finds_the_same_routes(monkeypatch, max_variants):
    """The walk stops when its outputs are full, which grow, and walks that start stop
    again: with room for one variant at first (interpreted, so the module constant can be
    changed) it must find exactly what the compiled walk finds with 1,024, in the same
    order, and stop at the same ``max_variants`` cut."""
    from engine.games import build_problem
    from routing import _enumerate

    problem, _view = build_problem(str(ROOT / "engine" / "examples" / "1846-late.json"))
    compiled = _raw_enumeration(problem, _jit.compiled(), max_variants)
    # each train has hundreds of variants (446 and 509 today), so room for one grows eight
    # times or more; the cut stops both at exactly 300
    counts = [found[0] for found in compiled]
    assert all(n >= 256 for n in counts) if max_variants > 1_000 else counts == [300, 300]
    monkeypatch.setattr(_enumerate, "_FIRST_CAPACITY", 1)
    assert _raw_enumeration(problem, _jit.interpreted(), max_variants) == compiled


def test_unknown_kernels_are_refused():
    from routing.synthetic import synthetic_problem

    problem = synthetic_problem(seed=0, cols=3, rows=3)
    with pytest.raises(ValueError, match="kernels must be one of auto, compiled, interpreted"):
        routing.solve(problem, kernels="jit")


# ------------------------------------------------------------------------- the rule itself
class _Runs:
    """A stand-in for a solve: records the tier of each run and finishes (or not) as told."""

    def __init__(self, interpreted_finishes: bool) -> None:
        self.tiers: list[str] = []
        self.stops: list[float] = []
        self.interpreted_finishes = interpreted_finishes

    def __call__(self, kernels: _jit.Kernels, stop: float) -> tuple[str, bool]:
        self.tiers.append(kernels.tier)
        self.stops.append(stop)
        return kernels.tier, kernels.tier == "compiled" or self.interpreted_finishes


@pytest.fixture
def fresh_process(monkeypatch):
    """This process as if it had not loaded the compiled tier, with the kernels cached."""
    monkeypatch.setattr(_jit, "compiled_loaded", lambda: False)
    monkeypatch.setattr(_jit, "_interpreted_seconds", 0.0)
    monkeypatch.setattr(_jit, "kernels_cached", lambda: True)


def test_auto_interprets_within_the_allowance(fresh_process):
    runs = _Runs(interpreted_finishes=True)
    assert _jit.run_tiered("auto", runs) == "interpreted"
    assert runs.tiers == ["interpreted"]
    assert math.isfinite(runs.stops[0])  # cut short at what is left of the allowance
    assert 0.0 < _jit.interpreter_allowance() <= _jit.LOAD_SECONDS


def test_auto_runs_compiled_after_an_interpreted_run_is_cut_short(fresh_process):
    runs = _Runs(interpreted_finishes=False)
    assert _jit.run_tiered("auto", runs) == "compiled"
    assert runs.tiers == ["interpreted", "compiled"]
    assert runs.stops[1] == math.inf


def test_a_cut_short_run_stands_when_the_time_limit_is_over(fresh_process):
    runs = _Runs(interpreted_finishes=False)
    assert _jit.run_tiered("auto", runs, deadline=0.0) == "interpreted"  # deadline passed
    assert runs.tiers == ["interpreted"]


def test_auto_loads_once_the_allowance_is_spent(fresh_process, monkeypatch):
    # spent 0.6 s interpreting already: loading costs 0.6 s, so the rule says load now
    monkeypatch.setattr(_jit, "_interpreted_seconds", _jit.LOAD_SECONDS)
    runs = _Runs(interpreted_finishes=True)
    assert _jit.run_tiered("auto", runs) == "compiled"
    assert runs.tiers == ["compiled"]


def test_the_allowance_is_the_compile_time_without_a_cache(fresh_process, monkeypatch):
    monkeypatch.setattr(_jit, "kernels_cached", lambda: False)
    assert _jit.interpreter_allowance() == _jit.COMPILE_SECONDS


def test_explicit_tiers_ignore_the_rule(fresh_process):
    for choice in ("compiled", "interpreted"):
        runs = _Runs(interpreted_finishes=False)
        assert _jit.run_tiered(choice, runs) == choice
        assert runs.tiers == [choice]


# ------------------------------------------------------------------- in a fresh process
_FRESH = """
import json, sys
from routing import _jit
import routing
from engine.games import build_problem

problem, _view = build_problem(sys.argv[1])
first = routing.solve(problem)
numba_after_first = "numba" in sys.modules
# what is left of the allowance: gone, so the next solve loads the compiled tier
_jit._interpreted_seconds = _jit.LOAD_SECONDS
second = routing.solve(problem)
third = routing.solve(problem, time_limit=30)
print(json.dumps({
    "numba_after_first": numba_after_first,
    "tiers": [s.stats["kernels"] for s in (first, second, third)],
    "totals": [s.total for s in (first, second, third)],
    "optimal": [s.optimal for s in (first, second, third)],
}))
"""


def test_a_fresh_process_solves_interpreted_then_loads():
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, str(ROOT / "engine" / "examples" / "1846-late.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    result = json.loads(out)
    assert result["numba_after_first"] is False  # no numba import for an interpreted answer
    assert result["tiers"] == ["interpreted", "compiled", "compiled"]
    assert result["totals"] == [670] * 3  # 1846-late: B&O's 4/6 and 7/8 earn 270 + 400
    assert all(result["optimal"])


def test_importing_the_engine_does_not_import_numba():
    code = "import sys, routing, engine.games, engine.app.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout  # fmt: skip
    assert out.strip() == "False"


def test_loading_the_kernels_leaves_numba_linear_algebra_working():
    # the compiled tier sets numba up without SciPy's BLAS (routing._jit._import_numba);
    # afterwards np.dot in anyone's numba code, and scipy.linalg itself, still work
    code = (
        "import numpy as np\n"
        "from routing.kernels import load_kernels\n"
        "load_kernels()\n"
        "import numba, scipy.linalg\n"
        "dot = numba.njit(lambda a, b: np.dot(a, b))\n"
        "print(dot(np.ones(3), np.arange(3.0)), scipy.linalg.norm(np.ones(4)))\n"
    )
    pytest.importorskip("scipy")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, check=True).stdout  # fmt: skip
    assert out.split() == ["3.0", "2.0"]  # 0 + 1 + 2, and the norm of four ones is 2
