"""``benchmarks.routes18xx_solver``: routes-18xx as an ``eighteen bench`` command solver.

A real run on a few small 1846 record positions (one with Chicago and four trains) must
solve every one of them: the rebuilt position, routes-18xx's answer and its translation
back into node ids all have to be right for the harness to count it solved.  A minor's
run is skipped; an instance that is not its provenance's problem fails with one line.
"""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.app import bench as bh
from engine.app.bench_library import load_tier
from routing.instance import problem_from_instance, solution_from_document

pytest.importorskip("routes18xx")

from benchmarks import routes18xx_adapter as r18  # noqa: E402 - after the importorskip
from benchmarks import routes18xx_solver as solver  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEC = f"{sys.executable} -m benchmarks.routes18xx_solver"
#: provenance -> status: two small B&O runs, one with two 2 trains; four trains through
#: Chicago (a hex of four cities); a minor's run (routes-18xx runs corporations only).
CASES = {
    "record 1846/1846_game_end_reason_bankrupt.json action 35 B&O": "solved",
    "record 1846/1846_game_end_reason_bankrupt.json action 52 B&O": "solved",
    "record 1846/19962.json action 283 B&O": "solved",
    "record 1846/222264.json action 31 MS": "skipped",
}


@pytest.fixture(scope="module")
def entries():
    by_provenance = {e.provenance: e for e in load_tier("real")}
    return [by_provenance[p] for p in CASES]


@pytest.fixture
def checkout(monkeypatch):
    """The command runs ``-m benchmarks...``: it needs the checkout on its path."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))


def test_routes18xx_solves_small_1846_runs_through_the_harness(entries, checkout):
    outcomes = bh.run_bench(bh.solver_from_spec(SPEC), entries, 60.0)
    got = {e.provenance: (o.status, o.message) for e, o in zip(entries, outcomes, strict=True)}
    assert {p: s for p, (s, _m) in got.items()} == CASES, got
    assert all(o.proven and o.total == o.optimum for o in outcomes if o.status == "solved")
    skipped = got["record 1846/222264.json action 31 MS"][1]
    assert skipped == "routes18xx_solver: not applicable: MS is a minor; routes-18xx runs " \
        "corporations only"  # fmt: skip


def _result(entry):
    """routes-18xx's answer to ``entry`` (rebuilt from its provenance)."""
    return r18.solve(solver.rebuild(entry.instance, entry.provenance))


def test_the_translation_names_the_instances_nodes(entries):
    entry = entries[2]  # four trains, one of them into Chicago
    problem = problem_from_instance(entry.instance)
    result = _result(entry)
    assert any("D6" in r["stops"] for r in result.routes)
    doc = solver.to_solution(problem, result)
    answer = bh.check_answer(entry, bh.Answer(solution_from_document(doc), 1.0))
    assert answer[:2] == ("solved", entry.optimum)
    net = problem.network
    for route, theirs in zip(doc["routes"], result.routes, strict=True):
        assert [net.hex_names[net.node_hex[n]] for n in route["nodes"]] == theirs["stops"]
    # a translation that loses a stop is caught: the routes no longer earn the total
    bad = copy.deepcopy(doc)
    bad["routes"][-1]["nodes"] = bad["routes"][-1]["nodes"][:-1]
    assert bh.check_answer(entry, bh.Answer(solution_from_document(bad), 1.0))[0] == "wrong"


def test_an_instance_that_is_not_its_provenances_problem_fails(entries):
    entry = entries[0]
    other = copy.deepcopy(entry.instance)
    values = other["network"]["node_value"]
    values[values.index(max(values))] += 10
    with pytest.raises(solver.AdapterError, match="the rebuilt position poses instance"):
        solver.solve_instance(other, entry.provenance)


@pytest.mark.parametrize(("stdin", "env", "code", "message"), [
    ("{}", {}, 2, "routes18xx_solver: no provenance: run it from eighteen bench"),
    ("not json", {"EIGHTEEN_PROVENANCE": "record 1846/3099.json action 543 PRR"}, 2,
     "routes18xx_solver: standard input is not JSON"),
    ('{"version": 1}', {"EIGHTEEN_PROVENANCE": "record 1846/3099.json action 543 PRR"}, 2,
     "routes18xx_solver: instance"),
    ("{}", {"EIGHTEEN_PROVENANCE": "record 1812/x.json action 5 GNR"}, 3,
     "routes18xx_solver: not applicable: routes-18xx here covers 1846 only, not 1812"),
    ("{}", {"EIGHTEEN_PROVENANCE": "record 18462pVariant/x.json action 5 PRR"}, 3,
     "routes18xx_solver: not applicable: routes-18xx 0.9.2 has no 1846 2-player variant"),
])  # fmt: skip
def test_bad_input_gives_one_line(stdin, env, code, message, checkout):
    environ = {k: v for k, v in os.environ.items() if k != "EIGHTEEN_PROVENANCE"}
    done = subprocess.run(SPEC.split(), input=stdin, capture_output=True, text=True,
                          env={**environ, **env}, timeout=60)  # fmt: skip
    assert done.returncode == code, done.stderr
    assert done.stderr.startswith(message), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
