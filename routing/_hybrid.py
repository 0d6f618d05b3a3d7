"""``solve(method="auto")``: the numba search, handing over to CP-SAT when it would stall.

The numba search enumerates every route of each train type and packs them exactly; on every
real position that takes milliseconds, but unlimited trains (D, E, long N) on full, dense
boards have many millions of routes and the enumeration cannot finish.  The CP-SAT model
(:mod:`routing.cpsat`) does not enumerate routes and proves those cases in seconds, while it
is slow where numba is fast.  So:

1. Enumerate each train type under a budget (``max_routes`` variants and ``enum_seconds``).
2. Every type complete: pack exactly, as ``method="numba"`` does -- the answer is the numba
   answer, CP-SAT never runs -- unless the packing itself stalls (``pack_seconds``: sixteen
   7/8 trains on a late 1846 board take it 15 s); then its incumbent (never worse than
   its best route set for fewer of the trains, see :mod:`routing._pack`) goes to CP-SAT
   as in 3.
3. Some type cut short: pack the routes found (a valid incumbent) and give the problem to
   CP-SAT with the remaining time, the incumbent as a solution hint and as a lower bound on
   the objective, and each completely enumerated type's best route value as a proven cap.

The better route set is returned with ``bound = min(numba's valid bound, CP-SAT's bound)``:
both are proven upper bounds on the optimum, so their minimum is too.  ``optimal`` is only
reported when the returned total reaches that bound.  After Ctrl-C (:mod:`routing.interrupt`)
the remaining phases are skipped and the best routes so far come back.
"""

from __future__ import annotations

import math
import time

from ._compile import compile_problem
from ._jit import Kernels, run_tiered
from ._search import Enumerated, check_time_limit, empty_solution, preload_enumeration
from .interrupt import catching, requested
from .problem import Problem
from .solution import Solution

__all__ = ["solve_auto", "AUTO_MAX_ROUTES", "AUTO_ENUM_SECONDS", "AUTO_PACK_SECONDS"]

#: Route variants per train type the numba enumeration may keep before CP-SAT takes over.
#: The 1,556 real positions of the benchmark library have at most 36,546 (all types
#: together; a goods-train contention of a 1812 bot game 69,723); a 12-train on a full,
#: dense 120-hex board has about 1,000,000, a D train there tens of millions.  Past this
#: count the enumeration would need seconds more, while CP-SAT, hinted with the routes found
#: so far, proves those dense boards in well under a second (the hard tier:
#: docs/BENCHMARKS.md).  A count, not a time, so the switch does not move with the load.
AUTO_MAX_ROUTES = 120_000
#: Seconds the enumeration may take (at most this share of a time limit, see below): the
#: backstop for train types whose variants come slowly.  Kernel loading does not count.
AUTO_ENUM_SECONDS = 1.0
#: Share of a time limit the enumeration may use at most (as in ``method="numba"``); CP-SAT
#: gets what is left.
_ENUM_SHARE = 0.4
#: Seconds the exact packing of a complete enumeration may take before CP-SAT takes over
#: (at most this share of a time limit: ``_PACK_SHARE``).
AUTO_PACK_SECONDS = 1.0
_PACK_SHARE = 0.3
#: Share of a time limit (or seconds without one) for packing a cut-short enumeration: the
#: incumbent it gives is only a hint, so it must not eat CP-SAT's time.
_PARTIAL_PACK_SHARE = 0.05
_PARTIAL_PACK_SECONDS = 1.0


def _caps(en: Enumerated) -> tuple[dict[int, int], dict[int, tuple[int, int]]]:
    """Proven caps from the types whose enumeration completed: per train, its route value
    before the multiplier (the best variant claiming no route-set bonus), and its earnings
    (route value times the multiplier plus the route-set bonuses it claims) without a
    longest-route claim and in any case (``routing.cpsat_model.build_model``)."""
    problem = en.c.problem
    n_lr = len(problem.rules.longest_route_bonuses)
    every = (1 << len(en.c.claim_names)) - 1
    caps, claim_caps = {}, {}
    for slot, train in enumerate(problem.trains):
        if en.type_complete(slot):
            caps[slot] = en.best_value_without(slot, every) // (train.multiplier * train.runs)
            without = en.best_value_without(slot, (1 << n_lr) - 1)
            claim_caps[slot] = (without, en.best_value(slot))
    return caps, claim_caps


def _seeds(en: Enumerated) -> list:
    """With a longest-route bonus, each completely enumerated type's best route that claims
    none: when another train collects that bonus, such a route often belongs to an optimal
    route set, and CP-SAT completes it with the other trains in a small solve."""
    problem = en.c.problem
    n_lr = len(problem.rules.longest_route_bonuses)
    if not any(b.per_stop > 0 for b in problem.rules.longest_route_bonuses):
        return []
    seeds, seen = [], set()
    for slot in range(len(problem.trains)):
        if en.type_complete(slot) and en.type_of[slot] not in seen:
            seen.add(en.type_of[slot])
            route = en.best_route_without(slot, (1 << n_lr) - 1)
            if route is not None:
                seeds.append(route)
    return seeds


def solve_auto(
    problem: Problem,
    time_limit: float | None = None,
    *,
    max_routes: int = AUTO_MAX_ROUTES,
    enum_seconds: float = AUTO_ENUM_SECONDS,
    pack_seconds: float = AUTO_PACK_SECONDS,
    num_workers: int = 2,
    seed: int = 1,
    use_min_total: bool = True,
    kernels: str = "auto",
) -> Solution:
    """Numba search with a CP-SAT hand-over; see :func:`routing.solve` and the module
    docstring.

    Parameters
    ----------
    problem : Problem
    time_limit : float, optional
        Seconds for the whole solve.
    max_routes : int
        Route variants per train type the enumeration may keep before CP-SAT takes over.
    enum_seconds : float
        Seconds the enumeration may take before CP-SAT takes over.
    pack_seconds : float
        Seconds the packing of a complete enumeration may take before CP-SAT takes over.
    num_workers, seed : int
        CP-SAT workers and random seed (used only when CP-SAT runs).
    use_min_total : bool
        Constrain CP-SAT's objective to at least numba's incumbent (always valid: the
        incumbent is a feasible route set, so the optimum stays in the model).
    kernels : {"auto", "ahead", "compiled", "interpreted"}
        Which tier runs the numba search (:mod:`routing._jit`).  The interpreted tier
        answers only what it finishes itself; a hand-over to CP-SAT is left to the
        compiled tier, which enumerates much further first.

    Returns
    -------
    Solution
        ``stats["method"]`` is ``"auto"``; ``stats["engine"]`` says which solver produced
        the routes (``"numba"`` or ``"cpsat"``), ``stats["handover"]`` whether CP-SAT ran.
    """
    if not isinstance(problem, Problem):
        raise ValueError(f"solve expects a routing.Problem, got {type(problem).__name__}")
    check_time_limit(time_limit)
    for name, val in (("max_routes", max_routes), ("enum_seconds", enum_seconds),
                      ("pack_seconds", pack_seconds)):  # fmt: skip
        if isinstance(val, bool) or not isinstance(val, (int, float)) or not val > 0:
            raise ValueError(f"{name} must be a positive number, got {val!r}")
    if isinstance(max_routes, float):
        raise ValueError(f"max_routes must be an integer, got {max_routes!r}")
    with catching():
        t0 = time.perf_counter()
        deadline = t0 + time_limit if time_limit is not None else math.inf

        def run(tier: Kernels, stop: float) -> tuple[Solution, bool]:
            return _solve_auto(
                problem, t0, time_limit, int(max_routes), enum_seconds, pack_seconds,
                num_workers, seed, use_min_total, tier, stop,
            )  # fmt: skip

        return run_tiered(kernels, run, deadline)


def _solve_auto(
    problem, t0, time_limit, max_routes, enum_seconds, pack_seconds, num_workers, seed,
    use_min_total, kernels, stop,
) -> tuple[Solution, bool]:  # fmt: skip
    limited = time_limit is not None
    c = compile_problem(problem, kernels=kernels)
    if not problem.trains:
        return empty_solution(t0, "auto"), True
    preload_enumeration(c)
    # enum_seconds is search time (kernel loading is not); a time limit counts from the start
    enum_deadline = time.perf_counter() + enum_seconds
    if limited:
        enum_deadline = min(enum_deadline, t0 + _ENUM_SHARE * time_limit)
    en = Enumerated(c, min(enum_deadline, stop), int(max_routes))
    if en.complete:
        # exactly the numba search (the enumeration and packing budgets are the difference)
        now = time.perf_counter()
        pack_budget = min(pack_seconds, _PACK_SHARE * time_limit) if limited else pack_seconds
        best, bound, _optimal, results, expanded = en.pack(min(now + pack_budget, stop))
        bound = max(bound, best)
        if bound == best or requested():  # proven (a finished packing's bound is its best)
            stats = {"seconds": 0.0, "method": "auto", "engine": "numba", "handover": False,
                     "kernels": kernels.tier, **en.stats()}  # fmt: skip
            stats["nodes_expanded"] += expanded
            if requested():
                stats["interrupted"] = True
            stats["seconds"] = time.perf_counter() - t0
            return Solution(results, best, bound == best, bound, stats), True
        # the packing stalled: its incumbent and proven bound go to CP-SAT
        nb_bound = bound
        handover = "pack"
    else:
        # hand-over: an incumbent from the routes found so far, then CP-SAT
        now = time.perf_counter()
        pack_budget = _PARTIAL_PACK_SHARE * time_limit if limited else _PARTIAL_PACK_SECONDS
        best, _bound, _optimal, results, expanded = en.pack(min(now + pack_budget, stop))
        nb_bound = max(en.valid_bound(), best)
        handover = "enumeration"
    stats = {"seconds": 0.0, "method": "auto", "engine": "numba", "handover": True,
             "handover_after": handover, "kernels": kernels.tier, **en.stats(),
             "numba_total": best, "numba_bound": nb_bound}  # fmt: skip
    stats["nodes_expanded"] += expanded
    stats["numba_seconds"] = round(time.perf_counter() - t0, 3)
    if math.isfinite(stop) and not requested():
        # the interpreted tier hands nothing over: the compiled one answers instead (and
        # this answer, valid but unproven, stands only if the time limit has run out)
        stats["seconds"] = time.perf_counter() - t0
        return Solution(results, best, best == nb_bound, nb_bound, stats), False
    total, routes, bound = best, results, nb_bound
    remaining = None if not limited else time_limit - (time.perf_counter() - t0)
    if best < nb_bound and (remaining is None or remaining > 0.05) and not requested():
        from .cpsat import solve_cpsat

        caps, claim_caps = _caps(en)
        cp = solve_cpsat(
            problem,
            time_limit=remaining,
            num_workers=num_workers,
            seed=seed,
            hint=results,
            known_caps=caps,
            known_claim_caps=claim_caps,
            seeds=_seeds(en),
            min_total=best if use_min_total and best > 0 else None,
        )
        stats.update({"cpsat_total": cp.total, "cpsat_bound": cp.bound,
                      "cpsat_status": cp.stats.get("status"),
                      "cpsat_seconds": round(cp.stats["seconds"], 3)})  # fmt: skip
        if cp.total > total:
            total, routes = cp.total, cp.routes
            stats["engine"] = "cpsat"
        bound = min(bound, cp.bound)
    if total > bound:  # pragma: no cover - both solvers' bounds hold for every route set
        raise RuntimeError(f"auto: proven bound {bound} is below the total {total} found")
    if requested():
        stats["interrupted"] = True
    stats["seconds"] = time.perf_counter() - t0
    return Solution(routes, total, total == bound, bound, stats), True
