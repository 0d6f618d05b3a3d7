"""(e) Position analysis: every legal tile lay of B&O on the late-game 1846 example, solved.

* ``analyse-1-worker`` / ``analyse-2-workers``: :func:`engine.app.analysis.analyse_position` in
  this process (kernels loaded): the legal-lay enumeration, one position and one exact solve
  per lay, on one core or two forked workers.
* ``cli-analyse``: ``eighteen analyse --example 1846-late --kinds tile --json`` in a fresh
  process with a warm numba cache, wall time (the issue's target: under 10 s).
* ``cli-analyse-all`` / ``cli-analyse-all-no-ahead`` (group "analyse: fresh command"):
  ``eighteen analyse --example 1846-late --json``, every legal lay, token and train, in a
  fresh process (Python's bytecode written first, as an installed copy has it) with the
  kernels compiled ahead of time, and with them turned off
  (``EIGHTEEN_AHEAD=0``: the command loads numba's compiled kernels from its cache first,
  the path before the ahead tier, as the baseline in the same run).  Both must print the
  same ranking as :func:`analyse_position` in this process.
* ``cpsat-baseline`` (full run only): the same candidate positions solved by the CP-SAT model,
  the only other exact solver for them.

Every variant must produce the same ranking, so a broken one cannot be timed.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import routing
from benchmarks.common import CPSAT_WORKERS, FULL, eighteen_command, extra
from engine.app.analysis import analyse_position, candidate_moves
from engine.games import build_problem, load_position

# the fresh commands find Python's bytecode written, as an installed copy does
pytestmark = pytest.mark.usefixtures("bytecode_written")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "engine" / "examples" / "1846-late.json"
GROUP = "analyse: every legal tile lay of B&O, 1846-late"
CLI = eighteen_command("analyse", "--example", "1846-late", "--kinds", "tile", "--json")


@pytest.fixture(scope="module")
def reference():
    """The ranking every variant must reproduce: (label, revenue) of each legal lay."""
    result = analyse_position(EXAMPLE, kinds=("tile",), workers=1)
    return sorted((m.label, m.revenue) for m in result.moves["tile"])


def _ranking(result) -> list:
    return sorted((m.label, m.revenue) for m in result.moves["tile"])


@pytest.mark.parametrize("workers", [1, 2])
def test_analyse_in_process(benchmark, reference, workers):
    benchmark.group = GROUP
    result = benchmark.pedantic(
        analyse_position, args=(EXAMPLE,), kwargs={"kinds": ("tile",), "workers": workers},
        rounds=5 if FULL else 1, iterations=1,
    )  # fmt: skip
    assert _ranking(result) == reference
    extra(benchmark, suite="analyse", tool=f"analyse-{workers}-worker", moves=len(reference),
          agree=True)  # fmt: skip


def test_cli_analyse_fresh_process(benchmark, reference):
    benchmark.group = GROUP

    def run() -> dict:
        out = subprocess.run(CLI, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        return json.loads(out.stdout)

    data = benchmark.pedantic(run, rounds=3 if FULL else 1, iterations=1)
    assert sorted((m["label"], m["revenue"]) for m in data["moves"]["tile"]) == reference
    extra(benchmark, suite="analyse", tool="cli-analyse", moves=len(reference), agree=True)


CLI_ALL = CLI[: CLI.index("--kinds")] + ["--json"]


@pytest.fixture(scope="module")
def reference_all() -> dict:
    """``kind -> sorted (label, revenue)`` of every legal move of every kind, in process."""
    result = analyse_position(EXAMPLE, workers=1)
    return {kind: sorted((m.label, m.revenue) for m in moves)
            for kind, moves in result.moves.items()}  # fmt: skip


@pytest.mark.parametrize("tool", ["cli-analyse-all", "cli-analyse-all-no-ahead"])
def test_cli_analyse_everything_fresh(benchmark, reference_all, tool):
    import os

    from routing.kernels import build_ahead

    benchmark.group = "analyse: fresh command, every legal lay, token and train, 1846-late"
    build_ahead()  # as the first command of an installation does in the background
    env = {**os.environ, "EIGHTEEN_AHEAD": "0" if tool.endswith("no-ahead") else "1"}

    def run() -> dict:
        out = subprocess.run(CLI_ALL, cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=600)  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        return json.loads(out.stdout)

    data = benchmark.pedantic(run, rounds=5 if FULL else 1, iterations=1)
    got = {kind: sorted((m["label"], m["revenue"]) for m in moves)
           for kind, moves in data["moves"].items()}  # fmt: skip
    assert got == reference_all
    extra(benchmark, suite="analyse", tool=tool,
          moves=sum(len(v) for v in reference_all.values()), agree=True)  # fmt: skip


@pytest.mark.skipif(not FULL, reason="full run only: about a CP-SAT solve per legal lay")
def test_cpsat_baseline(benchmark, reference):
    benchmark.group = GROUP
    moves = candidate_moves(load_position(EXAMPLE), ("tile",))

    def run() -> list:
        out = []
        for m in moves:
            problem, _ = build_problem(m.position, check=False)
            sol = routing.solve(problem, method="cpsat", num_workers=CPSAT_WORKERS)
            out.append((m.label, sol.total))
        return sorted(out)

    assert benchmark.pedantic(run, rounds=1, iterations=1) == reference
    extra(benchmark, suite="analyse", tool="cpsat-baseline", moves=len(reference), agree=True)
