"""The benchmark harness: run a solver over a tier of the library and check every answer.

A solver is named by a :func:`solver_from_spec` string:

* a built-in: ``auto`` (:func:`routing.solve`'s default), ``numba``, ``cpsat`` (one
  worker), ``oracle`` (the brute force of ``tests/naive.py``; a source checkout only, and
  only sensible on the tiny tier);
* ``module:function``: a Python function ``function(problem, time_limit)`` returning a
  :class:`routing.Solution` or a solution document; it raises :class:`NotApplicable` for an
  instance it does not take;
* any other string: a command, run once per instance with the instance document on
  standard input; it prints a solution document on standard output and must finish within
  the time limit (then it is killed with every process it started, and the instance counts
  as unsolved).  Its environment also holds ``EIGHTEEN_TIME_LIMIT`` (seconds),
  ``EIGHTEEN_INSTANCE_ID`` (the entry's id) and ``EIGHTEEN_PROVENANCE`` (the entry's
  provenance line, e.g. ``record 1846/3099.json action 543 PRR``), so that an adapter can
  rebuild the position an instance came from.  A command that does not take the instance
  exits with status :data:`SKIP_STATUS` (3), the reason on the last line of its standard
  error.

Every answer is checked: its routes with :func:`routing.validate`, its total against their
score and against the instance's certified optimum.  An answer is

``solved``      it earns the optimum (``proven`` when the solver also says it is optimal);
``unsolved``    no answer in time, or a lower total that the solver says is not proven;
``wrong``       illegal routes, a total that is not their score, a total above the certified
                optimum, or below it without the solver saying it is not proven;
``failed``      the solver crashed or printed something that is not a solution document;
``skipped``     the solver says the instance is not one it takes (exit status 3, or
                :class:`NotApplicable`): never counted wrong or failed, and left out of the
                times.

A wrong answer names the instance and the command that reruns just that instance.
"""

from __future__ import annotations

import contextlib
import csv
import importlib
import inspect
import io
import json
import os
import random
import re
import shlex
import signal
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import routing
from engine.app.bench_library import Entry
from engine.app.files import write_text_atomic
from routing.instance import (
    DeclaredSolution,
    DocumentError,
    canonical_json,
    problem_from_instance,
    solution_from_document,
    solution_to_document,
)

__all__ = [
    "BUILT_IN",
    "SKIP_STATUS",
    "STATUSES",
    "SolverError",
    "NotApplicable",
    "Solver",
    "Outcome",
    "Summary",
    "solver_from_spec",
    "pick",
    "check_answer",
    "run_bench",
    "summarise",
    "write_csv",
    "draw_plot",
    "reproducer",
]

BUILT_IN = ("auto", "numba", "cpsat", "oracle")
#: Default seconds per instance.
DEFAULT_LIMIT = 30.0
_MODULE_FUNCTION = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
STATUSES = ("solved", "unsolved", "wrong", "failed", "skipped")
#: The exit status by which a command solver says an instance is not one it takes.
SKIP_STATUS = 3


class SolverError(ValueError):
    """A solver spec that names nothing runnable; the message names it."""


class NotApplicable(Exception):  # noqa: N818 - a verdict, not an error
    """Raised by a ``module:function`` solver for an instance it does not take (the message
    says why); the instance counts as ``skipped``."""


# ---------------------------------------------------------------------------------- solvers
@dataclass
class Answer:
    """What one solver call gave: a declared solution, or why there is none."""

    solution: DeclaredSolution | None
    seconds: float
    failure: str | None = None  # crashed or garbage
    timed_out: bool = False
    skipped: str | None = None  # the solver does not take the instance: why


@dataclass
class Solver:
    """A runnable solver: ``run(entry, time_limit) -> Answer``."""

    spec: str
    run: Callable[[Entry, float], Answer]
    warm_up: Callable[[Entry], None] | None = None


def _built_in(name: str) -> Callable[[routing.Problem, float], routing.Solution]:
    if name == "oracle":
        try:
            from tests.naive import naive_solve
        except ImportError:
            raise SolverError("solver 'oracle': tests/naive.py is not importable (run from a "
                              "source checkout)") from None  # fmt: skip
        return lambda problem, _limit: naive_solve(problem)
    if name == "cpsat":
        return lambda problem, limit: routing.solve(problem, time_limit=limit, method="cpsat",
                                                    num_workers=1)  # fmt: skip
    # a benchmark times the compiled search: the interpreted tier is for one-off answers
    return lambda problem, limit: routing.solve(problem, time_limit=limit, method=name,
                                                kernels="compiled")  # fmt: skip


def _as_declared(answer: Any) -> DeclaredSolution:
    if isinstance(answer, routing.Solution):
        answer = solution_to_document(answer)
    return solution_from_document(answer)


def _in_process(spec: str, fn: Callable[[routing.Problem, float], Any]) -> Solver:
    def run(entry: Entry, limit: float) -> Answer:
        problem = problem_from_instance(entry.instance)
        t0 = time.perf_counter()
        try:
            out = fn(problem, limit)
        except NotApplicable as exc:
            return Answer(None, time.perf_counter() - t0, skipped=str(exc) or "not applicable")
        except Exception as exc:  # noqa: BLE001 - a crashing solver is a result, not our crash
            return Answer(None, time.perf_counter() - t0, f"raised {type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - t0
        try:
            return Answer(_as_declared(out), seconds)
        except DocumentError as exc:
            return Answer(None, seconds, f"returned a bad solution: {exc}")

    def warm_up(entry: Entry) -> None:
        # The first solve compiles (or loads) the numba kernels; keep that out of the times.
        with contextlib.suppress(Exception):
            fn(problem_from_instance(entry.instance), 5.0)

    return Solver(spec, run, warm_up)


def _function(spec: str) -> Solver:
    module_name, name = spec.split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SolverError(f"solver {spec!r}: cannot import {module_name!r}: {exc}") from None
    fn = getattr(module, name, None)
    if not callable(fn):
        raise SolverError(f"solver {spec!r}: {module_name} has no function {name!r}")
    try:
        takes_limit = len(inspect.signature(fn).parameters) >= 2
    except (TypeError, ValueError):
        takes_limit = True
    return _in_process(spec, fn if takes_limit else lambda problem, _limit: fn(problem))


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else ""


def _run_in_session(argv: list[str], text: str, limit: float,
                    env: dict[str, str]) -> subprocess.CompletedProcess:  # fmt: skip
    """Run a command solver in a session of its own; at the time limit the whole session
    is killed (a solver's worker processes too: routes-18xx runs a process pool), then
    ``TimeoutExpired`` is raised."""
    with subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env,
                          start_new_session=True) as process:  # fmt: skip
        try:
            out, err = process.communicate(text, timeout=limit)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
        return subprocess.CompletedProcess(argv, process.returncode, out, err)


def _command(spec: str) -> Solver:
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise SolverError(f"solver {spec!r}: not a command line: {exc}") from None
    if not argv:
        raise SolverError("solver '': empty command")

    def run(entry: Entry, limit: float) -> Answer:
        text = canonical_json(entry.instance)
        env = {**os.environ, "EIGHTEEN_TIME_LIMIT": str(limit), "EIGHTEEN_INSTANCE_ID": entry.id,
               "EIGHTEEN_PROVENANCE": entry.provenance}  # fmt: skip
        t0 = time.perf_counter()
        try:
            done = _run_in_session(argv, text, limit, env)
        except subprocess.TimeoutExpired:
            return Answer(None, time.perf_counter() - t0, timed_out=True)
        except OSError as exc:
            raise SolverError(f"solver {spec!r}: cannot run {argv[0]!r}: {exc.strerror}") from None
        seconds = time.perf_counter() - t0
        if done.returncode == SKIP_STATUS:
            return Answer(None, seconds, skipped=_last_line(done.stderr) or "not applicable")
        if done.returncode != 0:
            why = _last_line(done.stderr) or "no message"
            return Answer(None, seconds, f"exited with status {done.returncode}: {why}")
        try:
            doc = json.loads(done.stdout)
        except json.JSONDecodeError:
            shown = _last_line(done.stdout) or "nothing"
            return Answer(None, seconds, f"printed no solution JSON: {shown[:60]!r}")
        try:
            return Answer(solution_from_document(doc), seconds)
        except DocumentError as exc:
            return Answer(None, seconds, f"printed a bad solution: {exc}")

    return Solver(spec, run)


def solver_from_spec(spec: str) -> Solver:
    """The solver ``spec`` names (see the module docstring).

    Raises
    ------
    SolverError
        A module that does not import, a function it does not have, an empty command.
    """
    spec = spec.strip()
    if spec in BUILT_IN:
        return _in_process(spec, _built_in(spec))
    if _MODULE_FUNCTION.match(spec):
        return _function(spec)
    return _command(spec)


# ---------------------------------------------------------------------------------- checking
@dataclass
class Outcome:
    """One solver's result on one instance."""

    solver: str
    id: str
    tier: str
    status: str
    optimum: int
    total: int | None
    proven: bool
    seconds: float
    message: str = ""


def check_answer(entry: Entry, answer: Answer) -> tuple[str, int | None, bool, str]:
    """``(status, total, proven, message)`` of ``answer`` to ``entry`` (see the module
    docstring for the statuses)."""
    if answer.skipped is not None:
        return "skipped", None, False, answer.skipped
    if answer.timed_out:
        return "unsolved", None, False, "killed at the time limit"
    if answer.failure is not None:
        return "failed", None, False, answer.failure
    declared = answer.solution
    problem = problem_from_instance(entry.instance)
    try:
        scored = routing.validate(problem, declared.routes)
    except (routing.RouteError, ValueError) as exc:
        return "wrong", declared.total, declared.proven, f"illegal routes: {exc}"
    if scored.total != declared.total:
        return ("wrong", declared.total, declared.proven,
                f"claims {declared.total}, its routes earn {scored.total}")  # fmt: skip
    if declared.total > entry.optimum:
        return ("wrong", declared.total, declared.proven,
                f"earns {declared.total}, above the certified optimum {entry.optimum}: "
                "the certificate is wrong")  # fmt: skip
    if declared.total < entry.optimum:
        if declared.proven is False:  # the solver says it ran out of time: no claim
            return ("unsolved", declared.total, False,
                    f"{declared.total} < optimum {entry.optimum}, not proven")  # fmt: skip
        return ("wrong", declared.total, declared.proven,
                f"earns {declared.total}, below the certified optimum {entry.optimum}")  # fmt: skip
    return "solved", declared.total, bool(declared.proven), ""


def reproducer(entry: Entry, spec: str, limit: float) -> str:
    """The command that reruns ``spec`` on just ``entry``."""
    return (f"eighteen bench --tier {entry.tier} --id {entry.id} --solver {shlex.quote(spec)} "
            f"--time-limit {limit:g}")  # fmt: skip


# ---------------------------------------------------------------------------------- running
def pick(entries: Sequence[Entry], sample: int | None = None, ids: Sequence[str] = (),
         seed: int = 0, match: Sequence[str] = ()) -> list[Entry]:  # fmt: skip
    """The entries to run: those named by ``ids`` (all when none) whose provenance contains
    one of the texts of ``match`` (any, when none), then a ``sample`` of them drawn with
    ``seed`` (kept in library order).

    Raises
    ------
    SolverError
        An id the tier does not have, an empty ``match`` text, or ``match`` texts that
        select nothing.
    """
    chosen = list(entries)
    if ids:
        by_id = {e.id: e for e in entries}
        for i in ids:
            if i not in by_id:
                raise SolverError(f"instance {i!r} is not in the tier")
        chosen = [by_id[i] for i in dict.fromkeys(ids)]
    if match:
        if not all(match):
            raise SolverError("an empty match text selects every entry; leave it out")
        chosen = [e for e in chosen if any(text in e.provenance for text in match)]
        if not chosen:
            texts = " or ".join(repr(t) for t in match)
            raise SolverError(f"no instance {'named ' if ids else ''}in the tier has {texts} "
                              "in its provenance")  # fmt: skip
    if sample is not None and sample < len(chosen):
        keep = set(random.Random(seed).sample(range(len(chosen)), sample))
        chosen = [e for k, e in enumerate(chosen) if k in keep]
    return chosen


def run_bench(solvers: Solver | Sequence[Solver], entries: Sequence[Entry],
              time_limit: float = DEFAULT_LIMIT,
              on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:  # fmt: skip
    """Run every solver on every entry and check the answers.  The solvers take turns on
    each entry, so that a change of the machine's load meets them alike."""
    solvers = [solvers] if isinstance(solvers, Solver) else list(solvers)
    for solver in solvers:
        if solver.warm_up is not None and entries:
            solver.warm_up(entries[0])
    outcomes = []
    for entry in entries:
        for solver in solvers:
            answer = solver.run(entry, time_limit)
            status, total, proven, message = check_answer(entry, answer)
            if status == "wrong":
                message = f"{message}; rerun: {reproducer(entry, solver.spec, time_limit)}"
            outcome = Outcome(solver.spec, entry.id, entry.tier, status, entry.optimum, total,
                              proven, answer.seconds, message)  # fmt: skip
            outcomes.append(outcome)
            if on_outcome is not None:
                on_outcome(outcome)
    return outcomes


@dataclass
class Summary:
    """One solver's line of the table."""

    solver: str
    tier: str
    instances: int
    counts: dict[str, int] = field(default_factory=dict)
    proven: int = 0
    median: float = 0.0
    max: float = 0.0


def summarise(outcomes: Sequence[Outcome]) -> list[Summary]:
    """One :class:`Summary` per (solver, tier), in first-seen order.  Times are over the
    instances with an answer or a kill (a crash's time included; a skip's not)."""
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault((o.solver, o.tier), []).append(o)
    out = []
    for (solver, tier), group in groups.items():
        times = [o.seconds for o in group if o.status != "skipped"]
        out.append(Summary(
            solver, tier, len(group),
            {s: sum(o.status == s for o in group) for s in STATUSES},
            sum(o.status == "solved" and o.proven for o in group),
            statistics.median(times) if times else 0.0, max(times, default=0.0),
        ))  # fmt: skip
    return out


_CSV_FIELDS = ("solver", "tier", "id", "status", "optimum", "total", "proven", "seconds",
               "message")  # fmt: skip


def write_csv(outcomes: Sequence[Outcome], path: str | Path) -> Path:
    """Every outcome as a CSV row, written atomically."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(_CSV_FIELDS)
    for o in outcomes:
        writer.writerow([o.solver, o.tier, o.id, o.status, o.optimum,
                         "" if o.total is None else o.total, int(o.proven),
                         f"{o.seconds:.6f}", o.message])  # fmt: skip
    return write_text_atomic(path, buf.getvalue())


def draw_plot(outcomes: Sequence[Outcome], path: str | Path) -> Path:
    """A cactus plot: per solver, how many instances it solved within each time (log
    scale), written atomically as PNG or SVG (by the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    try:
        for s in summarise(outcomes):
            mine = [o for o in outcomes if (o.solver, o.tier) == (s.solver, s.tier)]
            times = sorted(o.seconds for o in mine if o.status == "solved")
            ax.step(times, range(1, len(times) + 1), where="post",
                    label=f"{s.solver} ({s.tier}): {len(times)}/{s.instances}")  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlabel("seconds per instance")
        ax.set_ylabel("instances solved within")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="lower right", fontsize="small")
        buf = io.BytesIO()
        fig.savefig(buf, format=path.suffix.lstrip(".") or "png", bbox_inches="tight")
    finally:
        plt.close(fig)
    return write_text_atomic(path, buf.getvalue())
