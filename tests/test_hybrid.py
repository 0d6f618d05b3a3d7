"""``solve(method="auto")``: numba search with a CP-SAT hand-over (routing/_hybrid.py).

Checked against the brute-force oracle on random problems (as they come, where numba always
finishes, and with the enumeration budget forced to one route so that CP-SAT takes over from
a partial incumbent), on a dense synthetic board whose D train has millions of routes, and
under time limits (the bound must stay at or above the optimum).  The CP-SAT solution hint
built from numba's routes is checked on its own: fixed to the hint, CP-SAT must accept it at
numba's value.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from ortools.sat.python import cp_model

from routing import Train, solve, validate
from routing.cpsat_model import add_hint, build_model
from routing.synthetic import synthetic_problem
from tests.naive import naive_solve, naive_total
from tests.strategies import problems

DENSE = {"cols": 12, "rows": 10, "fill": 1.0, "density": 0.9}


def _check_routes(problem, sol) -> None:
    declared = [(r.train, r.nodes, r.segments) for r in sol.routes]
    assert validate(problem, declared).total == sol.total
    assert sum(r.revenue for r in sol.routes) == sol.total


@settings(max_examples=100)
@given(problems(n_trains=(1, 4)))
def test_auto_matches_oracle(problem):
    ours = solve(problem, method="auto")
    ref = naive_solve(problem)
    assert ours.optimal and ours.total == ref.total == ours.bound
    assert not ours.stats["handover"]  # tiny problems: numba always finishes
    _check_routes(problem, ours)


@settings(max_examples=100)
@given(problems(n_trains=(1, 3)))
def test_auto_handover_matches_oracle(problem):
    # a budget of one route cuts every enumeration with two or more routes short, so CP-SAT
    # takes over with numba's partial incumbent as hint and as a floor on the objective
    ours = solve(problem, method="auto", max_routes=1, num_workers=1)
    ref = naive_solve(problem)
    assert ours.optimal and ours.total == ref.total == ours.bound
    if ours.routes:
        declared = [(r.train, r.nodes, r.segments) for r in ours.routes]
        assert naive_total(problem, declared) == ours.total
    _check_routes(problem, ours)


@settings(max_examples=150)
@given(problems(n_trains=(1, 4)))
def test_hint_is_a_feasible_solution_at_numbas_value(problem):
    sol = solve(problem, method="numba")
    rsm = build_model(problem)
    hinted = add_hint(problem, rsm, sol.routes)
    assert hinted == sum(1 for tm in rsm.trains if tm.nodes)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    status = solver.solve(rsm.model)
    # the hinted literals pin down the routes; CP-SAT only picks the counted stops, and the
    # best choice for numba's routes is worth numba's total (route-set bonuses can only be
    # left unclaimed, never overclaimed, so the model value is at most the total)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE), solver.status_name(status)
    assert round(solver.objective_value) == sol.total


@functools.cache
def _dense_d():
    return synthetic_problem([Train.unlimited("D")], seed=0, **DENSE)


@functools.cache
def _cpsat_optimum(which: str) -> int:
    problem = {"d": _dense_d, "small": _small}[which]()
    ref = solve(problem, method="cpsat", time_limit=120)
    assert ref.optimal
    return ref.total


def test_dense_d_train_hands_over_and_proves():
    problem = _dense_d()
    # numba alone cannot finish: its enumeration stops at the budget, with the crude bound
    nb = solve(problem, method="numba", max_variants=20_000)
    assert not nb.optimal and not nb.stats["enumeration_complete"]
    ours = solve(problem, method="auto", max_routes=20_000)
    assert ours.stats["handover"] and not ours.stats["enumeration_complete"]
    assert ours.optimal and ours.bound == ours.total == _cpsat_optimum("d")
    assert ours.total >= nb.total
    _check_routes(problem, ours)


@functools.cache
def _small():
    # a 5- and a 6-train on the dense board: CP-SAT needs about 6 s (one worker) to prove
    # the optimum, so a hand-over under a fraction of a second stops short of the proof
    return synthetic_problem([Train.n("5", 5), Train.n("6", 6)], seed=0, **DENSE)


@pytest.mark.parametrize("limit", [0.3, 1.0])
def test_time_limit_keeps_a_valid_bound(limit):
    problem = _small()
    opt = _cpsat_optimum("small")
    assert solve(problem, method="numba").total == opt  # numba proves it too, by enumeration
    ours = solve(problem, method="auto", time_limit=limit, max_routes=50, num_workers=1)
    assert ours.stats["handover"]
    assert ours.total <= opt <= ours.bound
    assert ours.optimal == (ours.total == ours.bound)
    _check_routes(problem, ours)


def test_no_handover_when_numba_finishes():
    problem = synthetic_problem([Train.n("8", 8)], seed=0, **DENSE)
    ours = solve(problem, method="auto")
    ref = solve(problem, method="numba")
    # about 27,000 routes: far below the budget, so the answer is numba's, CP-SAT not run
    assert not ours.stats["handover"] and ours.stats["engine"] == "numba"
    assert ours.optimal and ours.total == ref.total and "cpsat_total" not in ours.stats


@pytest.mark.parametrize(
    ("kw", "word"),
    [({"max_routes": 0}, "max_routes"), ({"enum_seconds": -1}, "enum_seconds"),
     ({"max_routes": 2.5}, "max_routes"), ({"time_limit": 0}, "time_limit")],
)  # fmt: skip
def test_bad_arguments_name_the_item(kw, word):
    with pytest.raises(ValueError, match=word):
        solve(_dense_d(), method="auto", **kw)


def test_the_1812_packing_that_stalled_finishes():
    # A late 1812 bot-game problem (tests/data/packing_stall_1812.json): a 4+2G and a
    # 2+2GD both want the same few ports and mines, so the best routes of each clash.
    # Starting from the greedy incumbent (each train's best route in turn) the exact packing
    # tried billions of route pairs (18 s) and had to hand over to CP-SAT; seeded with the
    # one-train optimum plus the other train's best route that fits it, it proves the
    # optimum in a few thousand steps.
    from pathlib import Path

    from routing.instance import read_instance

    problem = read_instance(Path(__file__).parent / "data" / "packing_stall_1812.json")
    auto = solve(problem, method="auto", pack_seconds=0.2)
    assert auto.optimal and auto.total == auto.bound == 630
    assert not auto.stats["handover"] and auto.stats["nodes_expanded"] < 1_000_000
    _check_routes(problem, auto)
    # both trains run, each with a mine of its own
    assert len(auto.routes) == 2
    assert len({r.designated for r in auto.routes}) == 2


def _sixteen_7_8():
    import json
    from pathlib import Path

    from engine.games import build_problem

    position = json.loads(
        (Path(__file__).parents[1] / "engine/examples/1846-late.json").read_text()
    )
    position["trains"] = ["7/8"] * 16
    # more trains than phase IV allows (2): no game has this position, and the position
    # checks refuse it (tests/test_bad_input.py); the solver is what is under test here
    return build_problem(position, check=False)[0]


def test_a_stalled_packing_hands_over_to_cpsat():
    # 1846 phase IV with sixteen 7/8 trains: 509 routes, of which the packing needs about
    # 15 s to prove the best sixteen (1450).  After a second its incumbent -- at least the
    # eight-train optimum, 1270, which it proves on the way -- and its proven bound go to
    # CP-SAT.  (Two seconds of packing, not the default one: on a loaded machine a second
    # did not always reach the eight trains' 1270, 0.2 s of work on a quiet one.)
    problem = _sixteen_7_8()
    auto = solve(problem, method="auto", time_limit=8.0, pack_seconds=2.0)
    assert auto.stats["handover"] and auto.stats["handover_after"] == "pack"
    assert 1270 <= auto.stats["numba_total"] <= auto.total <= auto.bound
    assert auto.bound <= auto.stats["numba_bound"]
    _check_routes(problem, auto)
