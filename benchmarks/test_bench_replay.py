"""(f) Replaying records, building problems, and batch throughput.

* ``replay: <title>`` and ``replay: all 21 records``: :func:`engine.app.report.replay`, strict,
  of the records in ``tests/data/records/`` (what ``eighteen replay``, ``history`` and
  :mod:`engine.app.batch` run): the one rules engine with every run solved (``engine``).
* ``problem build: <title>``: the problems of the corpus positions of one title, built by
  :func:`engine.model.title.build_problem` (``build_problem``: the map rebuilt from the title data
  and the position checked, as ``eighteen solve`` and the batch do; ``build_problem-nocheck``:
  unchecked, as :mod:`engine.app.analysis` does) and by the replay's and the game engine's fast
  path :func:`engine.model.routes.fast_problem` on a board that already carries the tiles
  (``fast_problem``; the board is built once, untimed).  The game engine also cuts the board
  to the company's reach first (``route_board``); that cut is not timed here.
* ``batch: <n> positions (<inputs>)``: :func:`engine.app.batch.run_batch` over the corpus
  (``benchmarks/positions/``) and over the set issue 18 measures (every run position the
  engine exports from the records, then the corpus), in this process (``synchronous``), on
  a running, warmed local Dask cluster (``dask-<k>-workers``) and with the cluster it
  starts itself (``dask-new-cluster``, start-up included; full run only, corpus only).
  ``batch: Dask start-up`` times
  that start-up alone: a :class:`~dask.distributed.LocalCluster` as :mod:`engine.app.batch`
  starts it, a client, and every worker warmed (engine imported, one position of each
  title solved).

Checking answers: every replay obeys the checks of ``tests/test_replay.py`` (declared routes
validate and score the revenue the record stores, documented rule differences aside; the
optimum is proven and at least the declared revenue); both problem builders give the same
network and the numba optimum of the reference solve; every batch row carries the numba
optimum of its position (solved before timing) and no error.

Default: one record of each title, the default corpus subset; ``EIGHTEEN_BENCH_FULL=1``:
every record and every corpus position, several rounds.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pytest

from benchmarks.common import (
    FULL,
    corpus_cases,
    extra,
    issue_positions,
    problem_of,
    rounds_for,
    solve_numba,
    timed,
)
from engine.app.batch import Item, analyse_chunk, run_batch
from engine.app.report import replay
from engine.games import build_problem, get_title, load_position, load_record, route_view
from engine.model.routes import fast_problem

# Dask's worker processes import eighteen: they find its bytecode written, as an installed
# copy has it
pytestmark = pytest.mark.usefixtures("bytecode_written")

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records"
#: Plain run: one quick record of each title (11-49 positions, 160-460 actions each).
DEFAULT_RECORDS = (
    "1836Jr30/2851.json",
    "1836jr56/hotseat003.json",
    "1846/19962.json",
    "18462pVariant/16904.json",
)
#: Replayed untimed first: loads the numba kernels and the 1846 tables.
WARMUP_RECORD = RECORDS / "1846" / "hs_sudambau_1600037415.json"
WORKERS = os.cpu_count() or 1


def _record_groups() -> dict[str, list[Path]]:
    """Records by their recorded title, in a stable order."""
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(RECORDS.glob("*/*.json")):
        rel = f"{path.parent.name}/{path.name}"
        if FULL or rel in DEFAULT_RECORDS:
            groups[load_record(path).title].append(path)
    return dict(sorted(groups.items()))


RECORD_GROUPS = _record_groups()
CASES = corpus_cases()
BUILD_GROUPS: dict[str, list] = defaultdict(list)
for _entry in CASES:
    BUILD_GROUPS[_entry.title].append(_entry)


# ----------------------------------------------------------------------------------- replay
@pytest.fixture(scope="module")
def warm_replay():
    replay(WARMUP_RECORD, solve=True)


def _check_engine(reports) -> int:
    """Every run validated, scored as stored, optimum proven; the record's result reached."""
    turns = 0
    for report in reports:
        assert report.final["matches_record"] is not False, report.record
        for turn in report.turns:
            where = f"{report.record} action {turn.action_id} ({turn.company})"
            turns += 1
            assert turn.optimum is not None and turn.optimal, where
            assert turn.error is None and turn.matches, f"{where}: {turn.error}"
            assert turn.optimum >= turn.reference, where
    return turns


def _replay_all(paths: list[Path]) -> list:
    return [replay(p, solve=True, strict=True) for p in paths]


@pytest.mark.parametrize("title", list(RECORD_GROUPS))
def test_replay(benchmark, warm_replay, title):
    """Replay and solve every record of a title through the one rules engine and its
    report.  (The old record replayer ran beside it until it was deleted; its figures from
    that last run are in the README.)"""
    tool = "engine"
    benchmark.group = f"replay: {title}"
    paths = RECORD_GROUPS[title]
    reports = benchmark.pedantic(_replay_all, args=(paths,), rounds=3 if FULL else 1, iterations=1)
    turns = _check_engine(reports)
    extra(benchmark, suite="replay", tool=tool, title=title,
          records=len(paths), positions=turns, actions=sum(r.actions for r in reports),
          agree=True)  # fmt: skip


ALL_RECORDS = sorted(RECORDS.glob("*/*.json"))


def test_replay_every_record(benchmark, warm_replay):
    """All 21 records replayed and every run solved, in one process (target: 15 s)."""
    tool = "engine"
    benchmark.group = "replay: all 21 records, every run solved"
    paths = ALL_RECORDS if FULL else ALL_RECORDS[:2]
    reports = benchmark.pedantic(_replay_all, args=(paths,), rounds=3 if FULL else 1, iterations=1)
    turns = _check_engine(reports)
    extra(benchmark, suite="replay", tool=tool, title="all", records=len(paths),
          positions=turns, actions=sum(r.actions for r in reports), agree=True)  # fmt: skip


# ---------------------------------------------------------------------------- problem build
@pytest.fixture(scope="module")
def build_inputs():
    """title -> [(entry, position, board)]: positions loaded and boards built, untimed."""
    out = {}
    for title, entries in BUILD_GROUPS.items():
        rows = []
        for e in entries:
            position = load_position(e.path)
            rows.append((e, position, route_view(position, check=False).board))
        out[title] = rows
    return out


def _build(rows, tool: str) -> list:
    if tool == "fast_problem":
        return [fast_problem(get_title(p.title), p, board)[0] for _e, p, board in rows]
    check = tool == "build_problem"
    return [build_problem(p, check=check)[0] for _e, p, _board in rows]


@pytest.mark.parametrize("tool", ["build_problem", "build_problem-nocheck", "fast_problem"])
@pytest.mark.parametrize("title", list(BUILD_GROUPS))
def test_problem_build(benchmark, build_inputs, title, tool):
    benchmark.group = f"problem build: {title}"
    rows = build_inputs[title]
    _, seconds = timed(_build, rows, tool)  # warm-up (title modules, caches)
    problems = benchmark.pedantic(
        _build, args=(rows, tool), rounds=rounds_for(seconds), iterations=1
    )
    for (entry, _p, _b), problem in zip(rows, problems, strict=True):
        ref = problem_of(entry.file)  # build_problem's problem, cached
        assert problem.network.node_names == ref.network.node_names, entry.name
        assert problem.network.n_segments == ref.network.n_segments, entry.name
        assert len(problem.trains) == len(ref.trains), entry.name
        got, want = solve_numba(problem), solve_numba(ref)
        assert got.optimal and want.optimal and got.total == want.total, entry.name
    extra(benchmark, suite="build", tool=tool, title=title, positions=len(rows), agree=True)


# ------------------------------------------------------------------------------------ batch
CORPUS_FILES = [str(e.path) for e in CASES]
#: One position of each title: what a worker solves to warm up.
WARM_FILES = [str(rows[0].path) for rows in BUILD_GROUPS.values()]
#: The inputs a batch runs on: the corpus, and the set issue 18 measures (every exported
#: run position of the records, then the corpus).
BATCH_INPUTS = ("corpus", "records+corpus")


@pytest.fixture(scope="module")
def batch_files(tmp_path_factory) -> dict[str, list[str]]:
    exported = issue_positions(tmp_path_factory.mktemp("exported"))
    return {"corpus": CORPUS_FILES, "records+corpus": exported}


@pytest.fixture(scope="module")
def batch_reference(batch_files) -> dict[str, dict[str, int]]:
    """inputs -> file -> numba optimum, solved here before any timing (once per file:
    the issue's set holds the corpus too)."""
    optimum: dict[str, int] = {}
    for file in {os.path.normpath(f) for files in batch_files.values() for f in files}:
        sol = solve_numba(build_problem(file)[0])
        assert sol.optimal, file
        optimum[file] = int(sol.total)
    return {inputs: {os.path.normpath(f): optimum[os.path.normpath(f)] for f in files}
            for inputs, files in batch_files.items()}  # fmt: skip


def _check_batch(result, reference: dict[str, int]) -> None:
    assert not result.failures, result.failures[:3]
    got = {r["file"]: (r["optimum"], r["optimal"]) for r in result.rows}
    assert len(result.rows) == len(reference)
    assert got == {f: (total, True) for f, total in reference.items()}


def _cluster():
    """A local cluster as :func:`engine.app.batch.run_batch` starts one (engine/app/batch.py
    ``_run_dask``), and its client."""
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)  # fmt: skip
    return cluster, Client(cluster)


def _warm(client) -> None:
    """Workers up: the compiled kernels loaded (a long batch's workers switch to them after
    their first 0.6 s of interpreted solves, routing._jit) and a first chunk analysed."""
    from routing.kernels import load_kernels

    client.run(load_kernels)
    items = [Item(key=f, file=f) for f in WARM_FILES]
    for rows in client.run(analyse_chunk, items).values():
        assert all(r[0]["error"] is None for r in rows), rows


def _close(started: list) -> None:
    while started:
        cluster, client = started.pop()
        with contextlib.suppress(Exception):
            client.close()
        with contextlib.suppress(Exception):
            cluster.close()


#: A started, warmed (cluster, client) that test_dask_startup leaves for the warm batch run,
#: so that a plain run starts one cluster less (about 3 s); closed at the end of the module.
_SPARE: list = []


@pytest.fixture(scope="module", autouse=True)
def _close_spare():
    yield
    _close(_SPARE)


@pytest.fixture(scope="module")
def warm_cluster():
    if not _SPARE:
        cluster, client = _cluster()
        _SPARE.append((cluster, client))
        _warm(client)
    return _SPARE[0][0]


def test_dask_startup(benchmark):
    benchmark.group = "batch: Dask start-up"
    started: list = []
    split: dict[str, float] = {}

    def start() -> None:
        t0 = time.perf_counter()
        cluster, client = _cluster()
        started.append((cluster, client))
        split["cluster"] = time.perf_counter() - t0
        _warm(client)  # raises on a failed warm-up solve: the start-up is checked
        split["warm-up"] = time.perf_counter() - t0 - split["cluster"]

    try:
        # a timed round is closed by the teardown; the plain run's one (untimed) is kept
        benchmark.pedantic(start, rounds=3 if FULL else 1, iterations=1,
                           teardown=lambda: _close(started))  # fmt: skip
        if started and not _SPARE:
            _SPARE.append(started.pop())
    finally:
        _close(started)
    extra(benchmark, suite="batch", tool="dask-startup", workers=WORKERS,
          cluster_seconds=round(split["cluster"], 3), warmup_seconds=round(split["warm-up"], 3),
          agree=True)  # fmt: skip


def _runner(files: list[str], tmp_path: Path, **kwargs):
    """run_batch into a fresh output each round (a reused one would resume its journal)."""
    count = itertools.count()

    def setup():
        return (files, tmp_path / f"run{next(count)}" / "out.csv"), kwargs

    return setup


@pytest.mark.parametrize("inputs", BATCH_INPUTS)
@pytest.mark.parametrize("mode", ["synchronous", "dask-warm", "dask-new-cluster"])
def test_batch_throughput(benchmark, batch_files, batch_reference, tmp_path, request, mode,
                          inputs):  # fmt: skip
    if mode == "dask-new-cluster" and (not FULL or inputs != "corpus"):
        # start-up + a warm run, both timed above; about 6 s more (tests/test_batch.py runs
        # this path)
        pytest.skip("full run only, on the corpus: the start-up and the warm run are timed "
                    "on their own")  # fmt: skip
    files = batch_files[inputs]
    benchmark.group = f"batch: {len(files)} positions ({inputs})"
    tool, rounds, workers = mode, 3 if mode == "dask-new-cluster" else 5, 1
    if mode == "synchronous":
        kwargs = {"scheduler": "synchronous"}
    elif mode == "dask-warm":
        kwargs = {"scheduler": request.getfixturevalue("warm_cluster").scheduler_address}
        tool, workers = f"dask-{WORKERS}-workers", WORKERS
    else:
        kwargs = {"workers": WORKERS}
        workers = WORKERS
    setup, split = _runner(files, tmp_path, **kwargs), {}
    teardown = None
    if mode == "dask-warm":
        setup, teardown, split = _cpu_split(setup, _SPARE[0][1])
    result = benchmark.pedantic(run_batch, setup=setup, teardown=teardown,
                                rounds=rounds if FULL else 1, iterations=1)  # fmt: skip
    _check_batch(result, batch_reference[inputs])
    cpu = {name: round(statistics.median(seconds), 3) for name, seconds in split.items()}
    extra(benchmark, suite="batch", tool=tool, inputs=inputs, positions=len(files),
          workers=workers, agree=True, **cpu)  # fmt: skip
    if cpu:
        print(f"\n{len(files)} positions on {WORKERS} warm workers, median of the rounds: "
              f"wall {cpu['wall_seconds']:.3f} s; CPU: workers {cpu['worker_cpu_seconds']:.3f} s "
              f"of the {WORKERS * cpu['wall_seconds']:.3f} s their cores had, this process "
              f"(client and scheduler) {cpu['client_cpu_seconds']:.3f} s")  # fmt: skip


def _cpu_split(setup, client):
    """``setup`` and a teardown for a warm Dask batch round that note its wall time, the
    CPU seconds of this process (the client, and the local cluster's scheduler, which runs
    here) and the workers' CPU seconds (summed): where the cores' time goes.  Both are read
    outside the timed call."""
    split: dict[str, list[float]] = defaultdict(list)
    start: dict[str, float] = {}

    def workers_cpu() -> float:
        return sum(client.run(time.process_time).values())

    def measured_setup():
        start["workers"] = workers_cpu()
        start["client"], start["wall"] = time.process_time(), time.perf_counter()
        return setup()

    def teardown(*_args, **_kwargs) -> None:
        wall, client_cpu = time.perf_counter(), time.process_time()
        split["wall_seconds"].append(wall - start["wall"])
        split["client_cpu_seconds"].append(client_cpu - start["client"])
        split["worker_cpu_seconds"].append(workers_cpu() - start["workers"])

    return measured_setup, teardown, split


def _timed_chunk(items: list[Item], start_at: float) -> float:
    """Seconds of :func:`analyse_chunk` over ``items`` in a pool process, started at the
    wall-clock time ``start_at`` (so that two processes start together); every row checked."""
    from routing.kernels import load_kernels

    load_kernels()
    analyse_chunk(items[:20])  # the kernels and the maps' tables in place, untimed
    time.sleep(max(0.0, start_at - time.time()))
    t0 = time.perf_counter()
    rows = analyse_chunk(items)
    elapsed = time.perf_counter() - t0
    assert all(r[0]["error"] is None for r in rows)
    return elapsed


@pytest.mark.skipif(WORKERS < 2, reason="needs two cores")
def test_batch_work_alone_and_two_at_once(benchmark, batch_files):
    """What the machine gives a second core: the batch's own work (``analyse_chunk`` of the
    issue-18 set, no Dask) in one process alone, then in two processes at once, each
    process timing its own run.  Per-core throughput with every core busy (what ``batch``
    has once its workers are up) is at most the alone rate divided by this slowdown."""
    import concurrent.futures
    import multiprocessing

    files = batch_files["records+corpus"]
    items = [Item(key=f, file=f) for f in files]
    context = multiprocessing.get_context("fork")
    alone: list[float] = []
    together: list[float] = []

    def pair() -> None:
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            solo = pool.submit(_timed_chunk, items, time.time() + 1.0)
            alone.append(solo.result())
            start_at = time.time() + 1.0
            both = [pool.submit(_timed_chunk, items, start_at) for _ in range(2)]
            together.extend(f.result() for f in both)

    benchmark.group = f"batch: {len(items)} positions, one process alone and two at once"
    benchmark.pedantic(pair, rounds=3 if FULL else 1, iterations=1)
    solo_s, both_s = min(alone), statistics.median(together)
    slowdown = both_s / solo_s
    extra(benchmark, suite="batch", tool="two-at-once", positions=len(items),
          alone_seconds=round(solo_s, 3), together_seconds=round(both_s, 3),
          slowdown=round(slowdown, 3), alone_rate=round(len(items) / solo_s, 1),
          per_core_rate_together=round(len(items) / both_s, 1), agree=True)  # fmt: skip
    print(f"\n{len(items)} positions: alone {solo_s:.3f} s ({len(items) / solo_s:.0f}/s), "
          f"each of two at once {both_s:.3f} s ({len(items) / both_s:.0f}/s per core): "
          f"slowdown x{slowdown:.2f}")
