"""(d) Compilation, timed apart from solving: fresh processes with an empty or a warm cache.

* ``solve-cold``: a fresh interpreter with ``NUMBA_CACHE_DIR`` set to a new empty temporary
  folder builds the 1846-late problem and solves it with the compiled kernels
  (``kernels="compiled"``) -- every kernel is compiled.
* ``solve-warm``: the same with a cache a previous, untimed process filled
  (``python -m routing.kernels``: numba's cache and the ahead-of-time module): a fresh
  temporary folder in a full run, the default cache otherwise.  ``cache=True`` loads the
  kernels.
* ``solve-warm-ahead``: the same process solving with the default ``kernels="auto"``, which
  answers with the kernels compiled ahead of time (:mod:`routing._ahead`).
* ``solve-warm-interpreted``: the same with the ahead tier turned off (``EIGHTEEN_AHEAD=0``):
  ``auto`` answers with the interpreted kernels and loads nothing, the path before there
  was an ahead tier (the baseline in the same run).
* ``cli-cold`` / ``cli-warm`` / ``cli-warm-interpreted``: ``eighteen solve --example
  1846-late`` in a fresh process, wall time, empty vs warm cache.  With an empty cache the
  command answers with the interpreted kernels and compiles the others in a background
  process (:mod:`routing.kernels`), which the benchmark stops once the answer is in: it
  times what the user waits for.  With a warm cache it answers with the ahead tier, or,
  turned off, interpreted.

Each process must print the proven optimum (670), so a broken build cannot be timed.
Python's bytecode of the checkout is written first (:func:`benchmarks.common.write_bytecode`),
as an installed copy has it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from benchmarks.common import FULL, eighteen_command, extra

# the fresh processes find Python's bytecode written, as an installed copy does; the
# kernels' caches are what is cold or warm here
pytestmark = pytest.mark.usefixtures("bytecode_written")

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = 670  # engine/examples/1846-late.json, proven by numba and CP-SAT
SOLVE = (
    "from engine.games import build_problem; import routing; "
    "p, _ = build_problem('engine/examples/1846-late.json'); "
    "s = routing.solve(p, kernels='{kernels}'); "
    "assert s.stats['kernels'] == '{tier}', s.stats; print(s.total, s.optimal)"
)
SOLVE_COMPILED = SOLVE.format(kernels="compiled", tier="compiled")
SOLVE_AHEAD = SOLVE.format(kernels="auto", tier="ahead")
SOLVE_INTERPRETED = SOLVE.format(kernels="auto", tier="interpreted")
#: The environment that turns the ahead tier off (the path before it existed).
NO_AHEAD = {"EIGHTEEN_AHEAD": "0"}
CLI = eighteen_command("solve", "--example", "1846-late", "--json")


def _run(cmd: list[str], cache: Path | None, extra_env: dict | None = None) -> str:
    env = {**os.environ, **(extra_env or {})}
    env.pop("NUMBA_CACHE_DIR", None)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def _check_solve(stdout: str) -> None:
    total, optimal = stdout.split()[-2:]
    assert int(total) == EXPECTED and optimal == "True", stdout


def _check_cli(stdout: str, tier: str = "interpreted") -> None:
    import json

    data = json.loads(stdout)
    assert data["total"] == EXPECTED and data["optimal"], stdout[:500]
    # one question is answered by the ahead tier, or without it by the interpreted search
    # (routing._jit)
    assert data["stats"]["method"] == "auto", data["stats"]
    assert data["stats"]["kernels"] == tier, data["stats"]


@pytest.fixture(scope="module")
def warm_cache():
    """A filled cache: a fresh temporary one in a full run, else the default one
    (``routing/__pycache__``, which the test session fills anyway), so a plain run does not
    pay a second cold compile."""
    folder = Path(tempfile.mkdtemp(prefix="numba-warm-")) if FULL else None
    _run([sys.executable, "-m", "routing.kernels"], folder)  # fill it and stamp it (untimed)
    _check_solve(_run([sys.executable, "-c", SOLVE_COMPILED], folder))
    yield folder
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _cold(cmd: list[str], check) -> None:
    folder = Path(tempfile.mkdtemp(prefix="numba-cold-"))
    try:
        check(_run(cmd, folder))
    finally:
        for lock in folder.glob("*.compiling"):  # a background compile the command started
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.killpg(int(lock.read_text().split()[0]), signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def test_solve_cold_cache(benchmark):
    # a plain test run compiles once here (about a minute of CPU) so this benchmark never rots
    benchmark.group = "compile: fresh process, solve 1846-late"
    benchmark.pedantic(_cold, args=([sys.executable, "-c", SOLVE_COMPILED], _check_solve),
                       rounds=2 if FULL else 1, iterations=1)  # fmt: skip
    extra(benchmark, suite="compile", tool="solve-cold", agree=True)


_WARM_SOLVES = {
    "solve-warm": (SOLVE_COMPILED, None),
    "solve-warm-ahead": (SOLVE_AHEAD, None),
    "solve-warm-interpreted": (SOLVE_INTERPRETED, NO_AHEAD),
}


@pytest.mark.parametrize("tool", list(_WARM_SOLVES))
def test_solve_warm_cache(benchmark, warm_cache, tool):
    benchmark.group = "compile: fresh process, solve 1846-late"
    code, extra_env = _WARM_SOLVES[tool]

    def run():
        _check_solve(_run([sys.executable, "-c", code], warm_cache, extra_env))

    benchmark.pedantic(run, rounds=5 if FULL else 1, iterations=1)
    extra(benchmark, suite="compile", tool=tool, agree=True)


def test_cli_cold_cache(benchmark):
    benchmark.group = "compile: eighteen solve --example 1846-late"
    # the answer while the kernels compile in the background
    benchmark.pedantic(_cold, args=(CLI, _check_cli), rounds=2 if FULL else 1, iterations=1)
    extra(benchmark, suite="compile", tool="cli-cold", agree=True)


@pytest.mark.parametrize("tool", ["cli-warm", "cli-warm-interpreted"])
def test_cli_warm_cache(benchmark, warm_cache, tool):
    benchmark.group = "compile: eighteen solve --example 1846-late"
    ahead = tool == "cli-warm"

    def run():
        _check_cli(_run(CLI, warm_cache, None if ahead else NO_AHEAD),
                   "ahead" if ahead else "interpreted")  # fmt: skip

    benchmark.pedantic(run, rounds=5 if FULL else 1, iterations=1)
    extra(benchmark, suite="compile", tool=tool, agree=True)


@pytest.fixture(scope="module")
def corpus_problems() -> list:
    from benchmarks.common import corpus_cases, problem_of

    return [problem_of(entry.file) for entry in corpus_cases()]


@pytest.mark.parametrize("tool", ["compiled", "ahead"])
def test_ahead_against_compiled_in_process(benchmark, corpus_problems, tool):
    """``ahead-vs-compiled``: every corpus position solved in this process with one tier
    (both loaded before, untimed): what ``routing._jit.AHEAD_SLOWDOWN`` stands for.  Both
    must give the same totals."""
    import routing
    from routing.kernels import build_ahead

    benchmark.group = "compile: per solve in process, ahead vs compiled tier, corpus"
    if build_ahead() is None:
        pytest.skip("the ahead tier is built on 64-bit Linux only")
    reference = [routing.solve(p, kernels="compiled").total for p in corpus_problems]

    def run() -> list[int]:
        return [routing.solve(p, kernels=tool).total for p in corpus_problems]

    assert run() == reference  # warm, and the same answers
    assert benchmark.pedantic(run, rounds=7 if FULL else 1, iterations=1) == reference
    extra(benchmark, suite="compile", tool=f"{tool}-in-process",
          positions=len(corpus_problems), agree=True)  # fmt: skip
