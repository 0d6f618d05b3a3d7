"""Shared pieces of the benchmark suites: corpus, solver calls, rounds, correctness checks.

``EIGHTEEN_BENCH_FULL=1`` switches on the big runs (the whole corpus, routes-18xx on every
1846 position, 20 rounds for fast solvers, cold compilation); without it every benchmark
runs on a small subset so that ``pytest benchmarks/`` stays short.
"""

from __future__ import annotations

import functools
import json
import math
import os
import platform
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

import routing
from engine.app.bench_library import cpsat_gaps
from engine.games import build_problem, load_position

HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
FULL = os.environ.get("EIGHTEEN_BENCH_FULL", "") not in ("", "0")

#: CP-SAT workers.  The numba search is single-threaded, so CP-SAT gets one worker too: a
#: per-core comparison.  (Two workers are safe since ``routing.cpsat`` leaves out OR-Tools
#: 9.15's crashing local-search subsolvers, see benchmarks/repro/.)
CPSAT_WORKERS = 1
#: Seconds a solver may take in a correctness (reference) solve before we call it stuck.
REFERENCE_LIMIT = 300.0
#: Rounds for fast solvers in a full run, and the time budget per (case, tool) for slow ones.
FULL_ROUNDS = 20
ROUND_BUDGET = 5.0 if FULL else 2.0

#: Default subsets (plain ``pytest benchmarks/``): one quick position per title class.
DEFAULT_CORPUS = (
    "1812-mid.json",
    "1836jr30-late.json",
    "1836jr56-mid.json",
    "1842-late.json",
    "1846-late.json",
    "1862-late.json",
)
DEFAULT_1846 = ("1846-early.json", "1846-mid.json")


@dataclass(frozen=True)
class Entry:
    """One corpus position (a row of positions/index.json)."""

    file: str
    title: str
    phase: str
    stage: str
    company: str
    trains: tuple[str, ...]
    source: str

    @property
    def name(self) -> str:
        return self.file.removesuffix(".json")

    @property
    def path(self) -> Path:
        return POSITIONS / self.file


def corpus() -> list[Entry]:
    """Every position of the corpus, examples first."""
    index = json.loads((POSITIONS / "index.json").read_text())
    return [
        Entry(e["file"], e["title"], e["phase"], e["stage"] or "", e["company"],
              tuple(e["trains"]), e["source"])
        for e in index["positions"]
    ]  # fmt: skip


def corpus_cases() -> list[Entry]:
    """The positions suite (b) runs: all in a full run, else the default subsets."""
    return [e for e in corpus() if FULL or e.file in DEFAULT_CORPUS + DEFAULT_1846]


def cases_1846() -> list[Entry]:
    """The positions suite (c) runs: every 1846 position, else :data:`DEFAULT_1846`."""
    return [e for e in corpus() if e.title == "1846" and (FULL or e.file in DEFAULT_1846)]


#: Records of the issue-18 measures in a plain run (a full run takes all 21).
DEFAULT_RECORDS = ("1846/19962.json", "1836Jr30/2851.json")
RECORDS = HERE.parent / "tests" / "data" / "records"


def issue_records() -> list[Path]:
    """The public records whose exported positions the issue-18 measures run on: all 21
    in a full run, else :data:`DEFAULT_RECORDS`."""
    every = sorted(RECORDS.glob("*/*.json"))
    if FULL:
        return every
    return [p for p in every if f"{p.parent.name}/{p.name}" in DEFAULT_RECORDS]


def issue_positions(out: Path) -> list[str]:
    """Every run position of :func:`issue_records` (exported by the engine into ``out``)
    followed by the corpus positions of :func:`corpus_cases`: the set issue 18 measures."""
    from engine.app.report import export_positions, replay

    files: list[str] = []
    for record in issue_records():
        files += [str(p) for p in export_positions(replay(record, solve=False), out)]
    return files + [str(POSITIONS / e.file) for e in corpus_cases()]


@functools.cache
def problem_of(file: str) -> routing.Problem:
    problem, _view = build_problem(load_position(POSITIONS / file))
    return problem


def position_of(file: str):
    return load_position(POSITIONS / file)


# ---------------------------------------------------------------------------------- solvers
def solve_numba(problem: routing.Problem, time_limit: float | None = None) -> routing.Solution:
    return routing.solve(problem, time_limit=time_limit, method="numba")


def solve_cpsat(problem: routing.Problem, time_limit: float | None = None) -> routing.Solution:
    return routing.solve(problem, method="cpsat", time_limit=time_limit,
                         num_workers=CPSAT_WORKERS)  # fmt: skip


def solve_oracle(problem: routing.Problem) -> routing.Solution:
    from tests.naive import naive_solve

    return naive_solve(problem)


def rounds_for(seconds: float, fast_rounds: int = FULL_ROUNDS) -> int:
    """Rounds for a solver whose single run takes ``seconds``: the full count when cheap,
    else as many as fit in :data:`ROUND_BUDGET` (at least 3 in a full run)."""
    if not FULL:
        return max(1, min(5, int(ROUND_BUDGET / max(seconds, 1e-6))))
    if seconds * fast_rounds <= ROUND_BUDGET:
        return fast_rounds
    return max(3, min(fast_rounds, math.floor(ROUND_BUDGET / max(seconds, 1e-6))))


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t0


def quantile(values, q: float) -> float:
    """The ``q`` quantile of ``values`` as the element at rank ``int(q * n)`` of the sorted
    values (``q = 0.99``: the p99 the benchmarks report)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def extra(benchmark, **info) -> None:
    """Record facts the report needs beside the timings (and the load while running)."""
    benchmark.extra_info.update(info)
    benchmark.extra_info["loadavg"] = os.getloadavg()[0]


# ---------------------------------------------------------------------------------- machine
def eighteen_command(*args: str) -> list[str]:
    """The ``eighteen`` command as an installed copy runs it: the console script that pip
    wrote beside this interpreter, else (a checkout not installed) the same entry point
    through ``python -c``.

    The script is taken from the interpreter's own folder, not from ``PATH``: a version
    manager (pyenv on the benchmark machine) puts a shell shim first on ``PATH``, which starts
    a shell and the manager before Python; that start-up is the manager's, not the
    command's."""
    script = Path(sys.executable).with_name("eighteen")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script), *args]
    return [sys.executable, "-c", "from engine.app.cli import main; main()", *args]


def write_bytecode(tree: Path = HERE.parent) -> None:
    """Python's bytecode cache of ``tree``'s packages written, as a pip install writes it
    (and any first import does, unless ``PYTHONDONTWRITEBYTECODE`` is set, as it is on the
    machines these benchmarks ran on).  A fresh-process benchmark calls this first: without
    it every timed process would compile eighteen's source again, which no installed copy
    does."""
    import compileall

    for package in ("routing", "engine"):
        compileall.compile_dir(tree / package, quiet=2)


def baseline_tree(commit: str) -> Path:
    """The files of ``commit``, extracted once with ``git archive`` into the user's cache
    (its numba cache is kept there too, so only the first full run compiles the old
    kernels): the old code a benchmark runs beside this checkout, as a child process with
    ``PYTHONPATH`` set to the tree.

    The calling benchmark is skipped (``pytest.skip``) where git or the commit is missing.
    """
    try:
        return _extract(commit)
    except (OSError, subprocess.CalledProcessError) as exc:
        import pytest

        pytest.skip(f"baseline {commit} not available from git: {exc}")


def _extract(commit: str) -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    tree = cache / "eighteen-bench" / commit
    if not (tree / "routing" / "__init__.py").is_file():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", commit],
                                 check=True, capture_output=True).stdout  # fmt: skip
        partial = tree.with_suffix(".tar")
        partial.write_bytes(archive)
        with tarfile.open(partial) as tar:
            tar.extractall(tree, filter="data")
        partial.unlink()
    return tree


def report_against_baseline(name: str, table: dict[str, dict[str, dict]],
                            columns: list[tuple[str, str, str]]) -> None:  # fmt: skip
    """Print ``table`` (measure -> code -> row) with one column per ``(key, header, spec)``
    (``spec`` a format spec such as ``"10.2f"``, its width the header's) and write it,
    with the load average, to ``benchmarks/results/<name>.json`` (atomically)."""
    from engine.app.files import write_text_atomic

    width = max([7, *map(len, table)])
    head = [f"{'measure':{width}} {'code':18}"]
    head += [f"{header:>{spec.split('.')[0].rstrip('df')}}" for _k, header, spec in columns]
    lines = [" ".join(head)]
    for measure, rows in table.items():
        for code, row in rows.items():
            cells = [f"{measure:{width}} {code:18}"]
            cells += [f"{row[key]:{spec}}" for key, _header, spec in columns]
            lines.append(" ".join(cells))
    print("\n" + "\n".join(lines))
    results = HERE / "results" / f"{name}.json"
    write_text_atomic(results, json.dumps({"load": os.getloadavg()[0], **table}, indent=1))


def machine() -> dict:
    """nproc, CPU model, Python and numba versions, load: the facts a table needs."""
    import numba
    import ortools

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "numba": numba.__version__,
        "ortools": ortools.__version__,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


# ------------------------------------------------------------------------------ references
@dataclass(frozen=True)
class Reference:
    """numba's and CP-SAT's answers for one position, and what they tell about each other."""

    total: int  # numba's proven optimum
    cpsat_total: int
    cpsat_gaps: tuple[str, ...]

    @property
    def cpsat_agrees(self) -> bool:
        return self.cpsat_total == self.total

    def cpsat_note(self) -> str:
        gaps = ", ".join(f"Rules.{g}" for g in self.cpsat_gaps)
        return (
            f"CP-SAT answers {self.cpsat_total}, numba {self.total}: the CP-SAT model "
            f"ignores {gaps}, so it solves a relaxation (benchmarks/DISCREPANCIES.md)"
        )


@functools.cache
def reference(file: str) -> Reference:
    """Solve a corpus position with numba and CP-SAT and check them against each other.

    They must agree; the one accepted exception is a rule the CP-SAT model does not read
    (:func:`cpsat_gaps`): it then solves a relaxation, whose optimum bounds numba's from above.
    """
    p = problem_of(file)
    a = solve_numba(p, time_limit=REFERENCE_LIMIT)
    b = solve_cpsat(p, time_limit=REFERENCE_LIMIT)
    assert a.optimal, f"{file}: numba did not prove its answer in {REFERENCE_LIMIT} s"
    assert b.optimal, f"{file}: CP-SAT did not prove its answer in {REFERENCE_LIMIT} s"
    gaps = tuple(cpsat_gaps(p))
    if a.total != b.total:
        assert gaps, f"{file}: numba {a.total} != CP-SAT {b.total}"
        assert a.total <= b.total, f"{file}: numba {a.total} above the relaxation {b.total}"
    return Reference(a.total, b.total, gaps)
