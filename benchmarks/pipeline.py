"""Time the path from game state to proven answer, per position; runnable on any checkout.

Three measures, each over a list of inputs:

* ``files``: a position file -> proven :class:`routing.Solution` (read, checked, problem
  built, solved: what ``eighteen solve`` and the batch run per position), timed per file;
* ``live``: the live game state right after an action -> proven optimum of the company
  about to run (``BaseGame.optimal_run`` with the game's route cache emptied, so the
  engine builds and solves afresh), timed at every ``run_routes`` of the records;
* ``analyse``: a position file -> every legal tile lay, token and train of its company
  ranked by its exact revenue (``engine.app.analysis.analyse_position`` in this process with
  its default workers, kernels loaded), timed per file; its "total" is the ranking itself.

It uses only APIs that the baseline commit has too (``engine.games.build_problem``,
``routing.solve``, ``engine.app.report.open_replay``, ``analyse_position``), so
:mod:`benchmarks.test_bench_pipeline` runs this file under a checkout of the old code (a git
worktree, ``PYTHONPATH``) beside the current one, in one run, and compares both the
times and the optima.

``python benchmarks/pipeline.py files|live INPUTS... [--warm N]`` prints one JSON object:
``{"seconds": [...], "totals": [...], "optimal": [...]}`` in the order of the inputs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _load_compiled_kernels() -> None:
    """The compiled kernels loaded before anything is timed: a checkout with the interpreted
    tier (``routing._jit``) would otherwise time interpreted solves until its allowance is
    spent; older ones load the kernels on their first solve, in the warm-up."""
    import routing

    # a checkout without routing/kernels.py has no tier to skip; the editable install's
    # finder would hand it the main checkout's module instead of an ImportError
    if not (Path(routing.__file__).parent / "kernels.py").is_file():
        return
    from routing.kernels import load_kernels

    load_kernels()


def time_files(files: list[str], warm: int = 20) -> dict:
    """Seconds, optimum and proof of each position file, read to solution."""
    import routing
    from engine.games import build_problem

    _load_compiled_kernels()
    for path in files[:warm]:  # kernels loaded, caches of the maps filled
        routing.solve(build_problem(path)[0])
    seconds, totals, optimal = [], [], []
    for path in files:
        t0 = time.perf_counter()
        problem, _view = build_problem(path)
        solution = routing.solve(problem)
        seconds.append(time.perf_counter() - t0)
        totals.append(int(solution.total))
        optimal.append(bool(solution.optimal))
    return {"seconds": seconds, "totals": totals, "optimal": optimal}


def time_live(records: list[str], warm: int = 1) -> dict:
    """Seconds, optimum and proof of the live game's optimal run at every ``run_routes``
    of ``records``, each taken right after the action before it (the first ``warm``
    records only warm up)."""
    from engine.app.report import open_replay

    _load_compiled_kernels()
    seconds, totals, optimal = [], [], []
    for k, record in enumerate(records):
        rep = open_replay(record)

        def before(_i: int, raw: dict, rep=rep, keep=k >= warm) -> None:
            game = rep.game
            op = str(raw.get("entity"))
            if raw.get("type") != "run_routes" or game.finished or op not in game.state.operators:
                return
            # the engine keeps the optimum it found for the legal-action list: drop it, so
            # the timed call builds and solves the problem afresh
            game.__dict__.pop("_routes", None)
            game.__dict__.pop("_last_run", None)
            t0 = time.perf_counter()
            revenue, solution = game.optimal_run(op)
            elapsed = time.perf_counter() - t0
            if keep:
                seconds.append(elapsed)
                totals.append(int(revenue))
                optimal.append(solution is None or bool(solution.optimal))

        for _step in rep.steps(before=before):
            pass
    return {"seconds": seconds, "totals": totals, "optimal": optimal}


def time_analyse(files: list[str], warm: int = 1) -> dict:
    """Seconds and ranking of one in-process analysis of each position file (every move
    kind, as many workers as the machine has cores: the default, which forks only where the
    code under test does); the first ``warm`` files are analysed once before, untimed."""
    from engine.app.analysis import analyse_position

    _load_compiled_kernels()
    for path in files[:warm]:
        analyse_position(path)
    seconds, totals, optimal = [], [], []
    for path in files:
        t0 = time.perf_counter()
        result = analyse_position(path)
        seconds.append(time.perf_counter() - t0)
        moves = [m for kind in sorted(result.moves) for m in result.moves[kind]]
        totals.append(sorted([m.label, m.revenue] for m in moves))
        optimal.append(result.optimal and all(m.optimal for m in moves))
    return {"seconds": seconds, "totals": totals, "optimal": optimal}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("measure", choices=("files", "live", "analyse"))
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--warm", type=int, default=None)
    args = parser.parse_args(argv)
    if args.measure == "files":
        out = time_files(args.inputs, 20 if args.warm is None else args.warm)
    elif args.measure == "analyse":
        out = time_analyse(args.inputs, 1 if args.warm is None else args.warm)
    else:
        out = time_live(args.inputs, 1 if args.warm is None else args.warm)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    sys.path.insert(0, str(Path.cwd()))
    main()
