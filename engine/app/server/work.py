"""The server's CPU-heavy jobs, and the pool that runs them off the event loop.

The numba kernels hold the GIL while they run, so a solve in a thread of the server
process would stall every other request; the jobs here (solves, analyses, whole replays)
run in worker processes instead.  Their arguments and results are plain data (problems,
position and record dicts) that pickle.  :class:`Workers` with ``processes=0`` runs them in
threads of the server process instead (tests, small machines).
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from pathlib import Path

__all__ = [
    "Workers",
    "warm",
    "solve_problem",
    "analyse",
    "timeline",
    "history",
    "WARM_EXAMPLE",
]

#: The small position solved to load the kernels.
WARM_EXAMPLE = Path(__file__).resolve().parent.parent.parent / "examples" / "1846-early.json"


def warm() -> int:
    """Load the compiled kernels (compiled or read from the cache: a server solves many
    problems), solve one small position and freeze what the process holds (:func:`gc.freeze`);
    returns the position's revenue."""
    import routing
    from engine.games import build_problem
    from routing.kernels import load_kernels

    load_kernels()
    problem, _view = build_problem(str(WARM_EXAMPLE))
    revenue = int(routing.solve(problem, time_limit=30).total)
    # what the process holds now (the kernels, the map tables) stays for its life: frozen,
    # a full garbage collection no longer walks it, which took tens of milliseconds a time
    # in the middle of a request (benchmarks/test_bench_server.py)
    gc.freeze()
    return revenue


def _init_worker() -> None:
    # Ctrl-C goes to the whole process group: the server shuts the pool down itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm()


def solve_problem(problem, time_limit: float):
    """:func:`routing.solve` with a time limit."""
    import routing

    return routing.solve(problem, time_limit=time_limit)


def analyse(position: dict, company: str | None, kinds: tuple[str, ...], time_limit: float):
    """The what-if ranking of a position (:func:`engine.app.analysis.analyse_position`),
    one process (the server's pool already spreads requests over the cores)."""
    from engine.app.analysis import analyse_position

    result = analyse_position(
        position, company=company, kinds=kinds, workers=1, time_limit=time_limit
    )
    return result.to_dict()


def _round_label(game) -> str:
    kind = game.round.kind
    if kind == "operating":
        return f"OR {game.turn}.{game.round.num}"
    if kind == "stock":
        return f"SR {game.turn}"
    return f"{kind} {game.turn}"


def timeline(data: dict) -> dict:
    """Every action of a record with its number, type, entity and the round it is in (the
    engine's, read just before the action); actions the engine refuses are marked and the
    replay goes on past them."""
    from engine.app.report import action_number, open_replay

    rep = open_replay(data)
    rows: list[dict] = []

    def look(i: int, raw: dict) -> None:
        game = rep.game
        t = game.or_turn if game.round.kind == "operating" and not game.finished else None
        rows.append(
            {
                "index": i,
                "number": action_number(raw, i),
                "type": str(raw.get("type")),
                "entity": None if raw.get("entity") is None else str(raw.get("entity")),
                "round": _round_label(game),
                "round_kind": game.round.kind,
                "operating": t.op if t is not None else None,
                "refused": None,
            }
        )

    for i, _raw, refused in rep.steps(strict=False, before=look):
        if refused is not None:
            rows[i]["refused"] = refused
    game = rep.game
    return {
        "name": rep.name,
        "title": rep.title,
        "actions": rows,
        "finished": bool(game.finished),
        "end_reason": game.end_reason,
        "companies": sorted(str(c) for c in game.state.operators),
    }


def history(data: dict, time_limit: float) -> dict:
    """The replay report of a record (:func:`engine.app.report.replay`), lenient."""
    from engine.app.report import replay

    return replay(data, time_limit=time_limit, strict=False).to_dict()


class Workers:
    """A pool for the jobs above: ``processes`` worker processes (each warmed on start), or
    with ``processes=0`` a few threads of this process."""

    def __init__(self, processes: int | None = None) -> None:
        if processes is None:
            processes = min(2, os.cpu_count() or 1)
        self.processes = processes
        self._pool: Executor | None = None
        self._starting = threading.Lock()

    def start(self) -> None:
        with self._starting:
            if self._pool is None:
                self._pool = self._new_pool()

    def _new_pool(self) -> Executor:
        if self.processes > 0:
            import multiprocessing

            context = multiprocessing.get_context("spawn")  # the server has threads: no fork
            pool = ProcessPoolExecutor(
                max_workers=self.processes, mp_context=context, initializer=_init_worker
            )
            # start every worker now, warmed, rather than on the first request
            futures = [pool.submit(warm) for _ in range(self.processes)]
            for f in futures:
                f.result()
            return pool
        return ThreadPoolExecutor(max_workers=4, thread_name_prefix="eighteen-job")

    async def run(self, fn, *args, **kw):
        """Run ``fn(*args, **kw)`` in the pool and await its result."""
        pool = self._pool
        if pool is None:
            await asyncio.to_thread(self.start)
            pool = self._pool
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, partial(fn, *args, **kw))

    def reset(self) -> None:
        """Drop a broken pool without waiting; the next job starts a new one."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
