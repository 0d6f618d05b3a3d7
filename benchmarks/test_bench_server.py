"""(f) ``eighteen serve`` under load: concurrent clients on loopback, every answer checked.

* ``server-load``: ``eighteen serve --port 0`` (two solver processes) in a child process;
  ``CLIENTS`` concurrent clients each send ``REQUESTS`` mixed requests (three solves to one
  what-if analysis, ``cache: false`` so that every one is solved again) on example positions
  of every title and on positions of a bundled record.  Every answer must equal the
  in-process figure; the latency p50/p99, throughput and error count (0 allowed) go into
  ``extra_info`` and are printed.
* ``in-process``: the baseline in the same run, one warm ``routing.solve`` (and
  ``analyse_position``) of the same positions in this process, one after the other.
* ``serve: a full garbage collection after the warm-up``: ``gc.collect(2)`` in this process
  once :func:`engine.app.server.work.warm` has run (the state a solver process is in when
  it takes requests), with what it holds frozen (``frozen``: what ``warm`` does) and not
  (``not-frozen``: the code before); Python runs such a collection now and then in the
  middle of a request.

The plain test run (``--benchmark-disable``) sends 4 x 6 requests; ``EIGHTEEN_BENCH_FULL=1``
sends 16 x 50.  The load is bounded in count and time and goes to 127.0.0.1 only.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from pathlib import Path

import pytest

from tests.server_support import running_server

httpx = pytest.importorskip("httpx")

import routing  # noqa: E402
from benchmarks.common import FULL, extra, quantile  # noqa: E402
from engine.app.analysis import analyse_position  # noqa: E402
from engine.app.cli import record_problem  # noqa: E402
from engine.games import build_problem  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "engine" / "examples"
RECORD = "record:1846-20381"
RECORD_FILE = ROOT / "engine" / "app" / "server" / "records" / "1846-20381.json"
RECORD_ACTIONS = (166, 268)  # two run_routes of the record (OR 2.1 and OR 3.1)
SOLVE_EXAMPLES = tuple(sorted(p.stem for p in EXAMPLES.glob("*.json")))
ANALYSE_EXAMPLES = ("1812-mid", "1836jr30-mid", "1836jr56-mid", "1842-mid", "1862-early")
CLIENTS, REQUESTS = (16, 50) if FULL else (4, 6)
TIME_LIMIT = 10.0
GROUP = "serve: mixed solve/analyse requests"


def _examples_solved() -> dict:
    out = {}
    for name in SOLVE_EXAMPLES:
        problem, _ = build_problem(EXAMPLES / f"{name}.json")
        out[("solve", f"example:{name}", None)] = routing.solve(problem, time_limit=TIME_LIMIT)
    for action in RECORD_ACTIONS:
        problem, _view, _label = record_problem(str(RECORD_FILE), action, None)
        out[("solve", RECORD, action)] = routing.solve(problem, time_limit=TIME_LIMIT)
    return out


def _examples_analysed() -> dict:
    out = {}
    for name in ANALYSE_EXAMPLES:
        a = analyse_position(EXAMPLES / f"{name}.json", kinds=("tile",), workers=1,
                             time_limit=TIME_LIMIT)  # fmt: skip
        out[("analyse", f"example:{name}", None)] = a
    return out


@pytest.fixture(scope="module")
def expected():
    """The in-process answers every server answer must equal (kernels warmed first)."""
    _examples_solved()
    return {**_examples_solved(), **_examples_analysed()}


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2) as (url, _stopped):
        yield url


def _plan(keys: list, seed: int) -> list[list]:
    """Each client's requests: three solves to one analysis, shuffled."""
    rng = random.Random(seed)
    solves = [k for k in keys if k[0] == "solve"]
    analyses = [k for k in keys if k[0] == "analyse"]
    return [
        [rng.choice(analyses) if rng.random() < 0.25 else rng.choice(solves)
         for _ in range(REQUESTS)]  # fmt: skip
        for _ in range(CLIENTS)
    ]


def _check(key, body: dict, expected: dict) -> str | None:
    """Why an answer is wrong (None: it equals the in-process figure)."""
    ref = expected[key]
    if key[0] == "solve":
        if (body["total"], body["optimal"], body["bound"]) != (ref.total, ref.optimal, ref.bound):
            return f"{key}: total {body['total']} != {ref.total}"
        if sorted(r["revenue"] for r in body["routes"]) != sorted(r.revenue for r in ref.routes):
            return f"{key}: route revenues differ"
        return None
    got = sorted((m["label"], m["revenue"]) for m in body["moves"]["tile"])
    want = sorted((m.label, m.revenue) for m in ref.moves["tile"])
    if body["revenue"] != ref.revenue or got != want:
        return f"{key}: ranking differs"
    return None


async def _load(url: str, expected: dict) -> dict:
    plans = _plan(sorted(expected, key=str), seed=18)
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + (900 if FULL else 240)
    limits = httpx.Limits(max_connections=CLIENTS)
    timeout = httpx.Timeout(300.0)

    async def client(http: httpx.AsyncClient, plan: list) -> None:
        for key in plan:
            if time.monotonic() > deadline:
                errors.append("deadline passed")
                return
            kind, doc, action = key
            body = {"doc": doc, "action": action, "time_limit": TIME_LIMIT, "cache": False}
            if kind == "analyse":
                body.update(kinds=["tile"], top=1000)
            t0 = time.perf_counter()
            try:
                r = await http.post(f"{url}api/{kind}", json=body)
            except httpx.HTTPError as exc:
                errors.append(f"{key}: {type(exc).__name__}: {exc}")
                continue
            latencies.append(time.perf_counter() - t0)
            if r.status_code != 200:
                errors.append(f"{key}: HTTP {r.status_code} {r.text[:200]}")
                continue
            why = _check(key, r.json(), expected)
            if why:
                errors.append(why)

    t0 = time.perf_counter()
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as http:
        await asyncio.gather(*(client(http, plan) for plan in plans))
    wall = time.perf_counter() - t0
    lat = sorted(latencies)
    return {
        "requests": sum(len(p) for p in plans),
        "answered": len(lat),
        "errors": errors,
        "wall_s": wall,
        "throughput_rps": len(lat) / wall if wall else 0.0,
        "p50_s": statistics.median(lat) if lat else None,
        "p99_s": quantile(lat, 0.99) if lat else None,
        "max_s": lat[-1] if lat else None,
    }


def test_server_load(benchmark, server, expected):
    benchmark.group = GROUP
    result = benchmark.pedantic(lambda: asyncio.run(_load(server, expected)),
                                rounds=1, iterations=1)  # fmt: skip
    print(f"\nserver load: {CLIENTS} clients x {REQUESTS} requests: p50 {result['p50_s']:.3f} s"
          f"  p99 {result['p99_s']:.3f} s  max {result['max_s']:.3f} s  "
          f"{result['throughput_rps']:.1f} req/s  errors {len(result['errors'])}")  # fmt: skip
    extra(benchmark, suite="serve", tool="server-load", clients=CLIENTS, per_client=REQUESTS,
          p50_s=result["p50_s"], p99_s=result["p99_s"], max_s=result["max_s"],
          throughput_rps=result["throughput_rps"], errors=len(result["errors"]))  # fmt: skip
    assert result["errors"] == [], result["errors"][:5]
    assert result["answered"] == result["requests"]


def test_in_process_baseline(benchmark, expected):
    """The same positions solved (and analysed) once each, warm, in this process."""
    benchmark.group = GROUP

    def run() -> dict:
        t0 = time.perf_counter()
        solved = _examples_solved()
        t1 = time.perf_counter()
        analysed = _examples_analysed()
        t2 = time.perf_counter()
        return {
            "solved": solved,
            "analysed": analysed,
            "solve_s": (t1 - t0) / len(solved),
            "analyse_s": (t2 - t1) / len(analysed),
        }

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    for key, sol in result["solved"].items():
        assert sol.total == expected[key].total, key
    print(f"\nin-process baseline: mean solve {result['solve_s'] * 1000:.1f} ms, mean tile "
          f"analysis {result['analyse_s']:.3f} s")  # fmt: skip
    extra(benchmark, suite="serve", tool="in-process", mean_solve_s=result["solve_s"],
          mean_analyse_s=result["analyse_s"])  # fmt: skip


@pytest.mark.parametrize("tool", ["frozen", "not-frozen"])
def test_full_collection_after_warm_up(benchmark, tool):
    import gc

    from engine.app.server.work import warm

    benchmark.group = "serve: a full garbage collection after the warm-up"
    frozen_before = gc.get_freeze_count()
    assert warm() > 0
    assert gc.get_freeze_count() > frozen_before  # warm froze what the process holds
    objects = gc.get_freeze_count() + len(gc.get_objects())  # the frozen ones are not listed
    if tool == "not-frozen":
        gc.unfreeze()
    try:
        benchmark.pedantic(gc.collect, args=(2,), rounds=5 if FULL else 1, iterations=1)
    finally:
        gc.unfreeze()  # this pytest process goes on as it was
    extra(benchmark, suite="server", tool=tool, tracked_objects=objects, agree=True)
