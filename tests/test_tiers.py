"""The search's kernel tiers (:mod:`routing._jit`): the same answers, and the rule that
picks one.

* Compiled, ahead (compiled ahead of time, :mod:`routing._ahead`) and interpreted give the
  same solution (total, bound, proof, every route with its stops, segments, bonuses and
  revenue) on random problems and on every bundled example; the interpreted one also
  matches the brute-force oracle.
* ``kernels="auto"``: a process solves with the ahead tier, when it is built, until a tenth
  of its time there reaches what loading the compiled tier costs; without it, interpreted
  while it has spent less than loading costs (``LOAD_SECONDS`` when numba's cache holds the
  kernels), cutting an interpreted solve short at what is left of that allowance and
  running it again compiled; and it stays compiled once it loaded the kernels.
* A fresh process answers a position without importing numba at all, with the ahead tier
  or interpreted.
* The ahead tier refuses an argument of a type it was not built for (an extension module
  compiled ahead of time would read past it), and a build for another processor.
"""

from __future__ import annotations

import json
import math
import os
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


@pytest.fixture(scope="module")
def ahead_tier(ahead_kernels_built) -> _jit.Kernels:
    """The ahead tier, loaded (built first if need be, ``tests/conftest.py``)."""
    tier = _jit.ahead()
    assert tier is not None and tier.tier == "ahead"
    return tier


@settings(max_examples=150, deadline=None)
@given(problems(n_trains=(1, 3)))
def test_tiers_agree_on_random_problems(ahead_tier, problem):
    interpreted = routing.solve(problem, method="numba", kernels="interpreted")
    compiled = routing.solve(problem, method="numba", kernels="compiled")
    ahead = routing.solve(problem, method="numba", kernels="ahead")
    tiers = [s.stats.get("kernels") for s in (interpreted, compiled, ahead)]
    # a problem answered before any search (no route can earn) names no tier
    assert tiers in (["interpreted", "compiled", "ahead"], [None, None, None])
    assert _answer(interpreted) == _answer(compiled) == _answer(ahead)
    assert interpreted.total == naive_solve(problem).total


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_tiers_agree_on_the_examples(ahead_tier, path):
    from engine.games import build_problem

    problem, _view = build_problem(str(path))
    interpreted = routing.solve(problem, kernels="interpreted")
    compiled = routing.solve(problem, kernels="compiled")
    ahead = routing.solve(problem, kernels="ahead")
    assert interpreted.optimal
    assert _answer(interpreted) == _answer(compiled) == _answer(ahead)


def test_the_ahead_tier_refuses_an_argument_of_another_type(ahead_tier):
    import numpy as np

    # a path of stops 0 - 1 - 2, one hex each, a token on 0
    net = routing.Network(node_kind=[1, 1, 1], node_value=[10, 20, 30], node_hex=[0, 1, 2],
                          node_terminal=[False] * 3, node_group=[-1] * 3, seg_u=[0, 1],
                          seg_v=[1, 2], seg_side_u=[-1, -2], seg_side_v=[-1, -2],
                          seg_hex=[0, 1])  # fmt: skip
    token = np.array([True, False, False])
    exempt = np.zeros(3, dtype=np.bool_)

    def legs(*changed):
        args = [net.node_kind, net.node_hex, net.node_terminal, token, net.seg_u, net.seg_v,
                net.seg_side_u, net.seg_side_v, net.seg_hex, 3, True, False, exempt]  # fmt: skip
        for i, value in changed:
            args[i] = value
        return ahead_tier.legs(*args)

    # every node is reached; the legs 0-1, then from 1 by its segments as their first end
    # (segment 1, to 2) before those as their second (segment 0, to 0), then 2-1
    active, ptr, end = legs()[:3]
    assert active.tolist() == [True] * 3
    assert ptr.tolist() == [0, 1, 3, 4] and end.tolist() == [1, 2, 0, 1]
    # 64-bit segment ends: the compiled function would read them as 32-bit ones, pairs of
    # halves
    with pytest.raises(TypeError, match="legs: argument 4 must be a C-contiguous 1-d int32"):
        legs((4, net.seg_u.astype(np.int64)))
    with pytest.raises(TypeError, match="argument 3 must be a C-contiguous"):
        legs((3, np.repeat(token, 2)[::2]))  # a strided view
    with pytest.raises(TypeError, match="argument 9 has type float"):
        legs((9, 3.0))
    with pytest.raises(TypeError, match="takes 13 arguments, got 12"):
        ahead_tier.legs(*[net.node_kind] * 12)


def test_a_build_for_another_processor_is_not_loaded(ahead_tier, monkeypatch):
    from routing import _ahead

    assert _jit.load_ahead() is not None
    monkeypatch.setattr(_ahead, "processor", lambda: "another-processor")
    assert _jit.load_ahead() is None
    monkeypatch.undo()
    monkeypatch.setenv("EIGHTEEN_AHEAD", "0")  # and the switch that turns the tier off
    assert _jit.load_ahead() is None


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
    choices = "auto, ahead, compiled, interpreted"
    with pytest.raises(ValueError, match=f"kernels must be one of {choices}"):
        routing.solve(problem, kernels="jit")


def test_the_ahead_tier_unbuilt_is_refused_by_name(monkeypatch):
    from routing.synthetic import synthetic_problem

    monkeypatch.setattr(_jit, "ahead", lambda: None)
    with pytest.raises(ValueError, match="ahead-of-time kernels are not built"):
        routing.solve(synthetic_problem(seed=0, cols=3, rows=3), kernels="ahead")


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
    """This process as if it had not loaded the compiled tier, with the kernels cached and
    no ahead tier built."""
    monkeypatch.setattr(_jit, "compiled_loaded", lambda: False)
    monkeypatch.setattr(_jit, "_interpreted_seconds", 0.0)
    monkeypatch.setattr(_jit, "_ahead_seconds", 0.0)
    monkeypatch.setattr(_jit, "kernels_cached", lambda: True)
    monkeypatch.setattr(_jit, "ahead", lambda: None)


@pytest.fixture
def ahead_built(fresh_process, monkeypatch):
    """:func:`fresh_process` with an ahead tier built (a stand-in: the rule only looks at
    its name)."""
    stand_in = _jit.Kernels("ahead", *([None] * len(_jit.ENTRY_POINTS)))
    monkeypatch.setattr(_jit, "ahead", lambda: stand_in)


def test_auto_runs_the_ahead_tier_when_it_is_built(ahead_built):
    runs = _Runs(interpreted_finishes=False)
    assert _jit.run_tiered("auto", runs) == "ahead"
    assert runs.tiers == ["ahead"] and runs.stops == [math.inf]  # never cut short
    # it may spend ten times the load price there: what it loses, a tenth of that, is the
    # price itself (0.6 s / 0.1 = 6 s)
    assert _jit.ahead_allowance() <= _jit.LOAD_SECONDS / _jit.AHEAD_SLOWDOWN
    assert _jit.ahead_allowance() == pytest.approx(6.0, abs=0.5)


def test_auto_loads_the_compiled_tier_once_the_ahead_allowance_is_spent(ahead_built, monkeypatch):
    monkeypatch.setattr(_jit, "_ahead_seconds", _jit.LOAD_SECONDS / _jit.AHEAD_SLOWDOWN)
    runs = _Runs(interpreted_finishes=True)
    assert _jit.run_tiered("auto", runs) == "compiled"
    assert runs.tiers == ["compiled"]  # no interpreted detour either


def test_auto_stays_compiled_once_loaded_even_with_the_ahead_tier(ahead_built, monkeypatch):
    monkeypatch.setattr(_jit, "compiled_loaded", lambda: True)
    runs = _Runs(interpreted_finishes=True)
    assert _jit.run_tiered("auto", runs) == "compiled"
    assert _jit.ahead_allowance() == 0.0


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


def test_explicit_tiers_ignore_the_rule(ahead_built):
    for choice in ("ahead", "compiled", "interpreted"):
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


def _fresh(ahead: bool) -> dict:
    env = {**os.environ, "EIGHTEEN_AHEAD": "1" if ahead else "0"}
    out = subprocess.run(
        [sys.executable, "-c", _FRESH, str(ROOT / "engine" / "examples" / "1846-late.json")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    return json.loads(out)


def test_a_fresh_process_solves_interpreted_then_loads():
    result = _fresh(ahead=False)
    assert result["numba_after_first"] is False  # no numba import for an interpreted answer
    assert result["tiers"] == ["interpreted", "compiled", "compiled"]
    assert result["totals"] == [670] * 3  # 1846-late: B&O's 4/6 and 7/8 earn 270 + 400
    assert all(result["optimal"])


def test_a_fresh_process_solves_with_the_ahead_tier(ahead_tier):
    result = _fresh(ahead=True)
    assert result["numba_after_first"] is False  # the extension module needs no numba
    # the interpreted allowance spent says nothing to the ahead tier's rule
    assert result["tiers"] == ["ahead", "ahead", "ahead"]
    assert result["totals"] == [670] * 3
    assert all(result["optimal"])


def test_importing_the_engine_does_not_import_numba():
    code = "import sys, routing, engine.games, engine.app.cli; print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True).stdout  # fmt: skip
    assert out.strip() == "False"


def test_loading_the_kernels_leaves_numba_linear_algebra_working():
    # the compiled tier sets numba up without SciPy's BLAS (routing._jit.import_numba);
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
