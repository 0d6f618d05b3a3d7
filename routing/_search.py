"""Orchestration of the exact numba search: compile, enumerate, pack, report."""

from __future__ import annotations

import math
import time

import numpy as np

from ._compile import Compiled, compile_problem, option_buffer, train_params
from ._jit import Kernels, compiled_loaded, run_tiered
from .interrupt import catching, requested, stop_flag
from .problem import Problem
from .solution import RouteResult, Solution
from .trains import UNLIMITED

__all__ = ["solve_numba"]

#: Route variants kept per train type before the enumeration reports itself incomplete.
DEFAULT_MAX_VARIANTS = 20_000_000


class _Routes:
    """Enumerated variants of one train type, sorted by value (descending)."""

    def __init__(
        self,
        raw: tuple,
    ):
        (val, cross, start, lptr, legs, desig, claims, must, nv, expanded, done) = raw
        order = np.argsort(-val, kind="stable")
        self.value = val[order]
        self.cross = cross[order]
        self.start = start[order]
        self.desig = desig[order]
        self.claims = claims[order]
        self.must = must[order]
        self._order = order
        self._lptr = lptr
        self._legs = legs
        self.n = int(nv)
        self.expanded = int(expanded)
        self.done = bool(done)

    def legs_of(self, i: int) -> np.ndarray:
        j = self._order[i]
        return self._legs[self._lptr[j] : self._lptr[j + 1]]


#: Stands in for "no deadline" in the kernels: finite, so that the ``+inf`` that
#: :func:`routing.interrupt.clock` reads after Ctrl-C is past it.
_NO_DEADLINE = 1e300


def _enumerate(c: Compiled, train, deadline: float, max_variants: int) -> _Routes:
    deadline = min(deadline, _NO_DEADLINE)
    row_kinds, row_pay, row_visit, flags = train_params(train)
    legs = c.legs
    raw = c.kernels.enumerate_routes(
        c.node_kind, c.node_val, c.node_terminal, c.node_group, c.node_token, c.node_must,
        c.active, c.node_hex, legs.ptr, legs.end, legs.bits, legs.hex_bits, legs.hex_new,
        c.n_seg_words, c.hex_once,
        row_kinds, row_pay, row_visit, flags, c.token_counted, c.mcw_in, c.mcw_k,
        option_buffer(c),
        c.forbid_a, c.forbid_b,
        c.ep_a, c.ep_b, c.ep_counted, c.sp_a, c.sp_b, c.sp_amount, c.sp_counted,
        c.et_amt, c.et_min_other,
        c.lr_per_stop, c.lr_kinds, c.br_a, c.br_b, c.br_amount, c.br_per_hex,
        c.group_bit, c.desig_bit, c.claim_bit, c.n_cross_words,
        deadline, stop_flag(), max_variants,
        sum(1 for t in c.problem.trains if t.designated_kind),
    )  # fmt: skip
    return _Routes(raw)


def _route_upper_bound(c: Compiled, train) -> int:
    """A crude but valid upper bound on any route value of ``train`` (for time-outs)."""
    stops = [i for i in range(len(c.node_kind)) if c.active[i] and c.node_kind[i] != 0]
    vals = sorted((int(c.node_val[i]) for i in stops), reverse=True)
    k = min(len(vals), sum(min(r.pay, UNLIMITED) for r in train.rows) + 1)
    best = sum(vals[:k])
    for arr_a, arr_b in ((c.ep_a, c.ep_b),):
        for b in range(arr_a.shape[0]):
            best += max(0, int(arr_a[b].max(initial=0))) + max(0, int(arr_b[b].max(initial=0)))
    best += int(c.sp_amount.sum())
    for b in range(c.et_amt.shape[0]):
        best += max(0, int(c.et_amt[b].max(initial=0)))
    return best * train.multiplier * train.runs


def _claims_upper_bound(c: Compiled) -> int:
    n_stops = int(sum(1 for i in range(len(c.node_kind)) if c.active[i] and c.node_kind[i] != 0))
    return int(c.lr_per_stop.sum()) * n_stops + int(np.clip(c.br_amount, 0, None).sum())


def check_time_limit(time_limit) -> None:
    """Raise ``ValueError`` unless ``time_limit`` is ``None`` or a positive number."""
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, (int, float))
        or time_limit <= 0
        or math.isnan(time_limit)
    ):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")


def preload_enumeration(c: Compiled) -> None:
    """Load the compiled enumeration kernel (from numba's cache, or compile it) if ``c`` is
    for the compiled tier and this process has not loaded it yet: that takes up to about
    2 s from the cache and 30 s fresh, and must not eat a budget that is meant for the
    search itself (``solve(method="auto")``'s ``enum_seconds``)."""
    if c.kernels.tier == "compiled" and not compiled_loaded() and c.problem.trains:
        _enumerate(c, c.problem.trains[0], -1.0, 1)  # a deadline already past: stops at once


class Enumerated:
    """Every train type's enumerated routes (complete or cut short) for one problem."""

    def __init__(self, c: Compiled, deadline: float, max_variants: int) -> None:
        self.c = c
        trains = c.problem.trains
        # one enumeration per distinct train type
        self.types: list = []
        self.type_of: list[int] = []
        for train in trains:
            for ti, other in enumerate(self.types):
                if other == train:
                    self.type_of.append(ti)
                    break
            else:
                self.types.append(train)
                self.type_of.append(len(self.types) - 1)
        self.routes = [_enumerate(c, t, deadline, max_variants) for t in self.types]
        self.complete = all(r.done for r in self.routes)

    def type_complete(self, slot: int) -> bool:
        return self.routes[self.type_of[slot]].done

    def best_value(self, slot: int) -> int:
        r = self.routes[self.type_of[slot]]
        return int(r.value[0]) if r.n else 0

    def best_value_without(self, slot: int, claims: int) -> int:
        """The best variant value (multiplier and route-set claims included) of the train in
        ``slot`` among the variants claiming none of the route-set bonuses in the bit mask
        ``claims`` (bit ``f``: ``c.claim_names[f]``); 0 if there is none."""
        r = self.routes[self.type_of[slot]]
        ok = (r.claims[: r.n] & claims) == 0
        return int(r.value[: r.n][ok].max()) if ok.any() else 0

    def best_route_without(self, slot: int, claims: int) -> RouteResult | None:
        """The route of the best variant counted by :meth:`best_value_without`, as the
        train in ``slot`` alone would run it (``None`` if there is none)."""
        r = self.routes[self.type_of[slot]]
        ok = np.flatnonzero((r.claims[: r.n] & claims) == 0)
        return _route_result(self.c, self.c.problem, slot, r, int(ok[0])) if ok.size else None

    def valid_bound(self) -> int:
        """An upper bound on the optimum that holds even when some enumeration was cut
        short: a completely enumerated type's best variant (route-set claims included)
        caps each of its trains, the others get the crude per-route bound plus every
        route-set bonus at its largest."""
        c = self.c
        total = 0
        crude = False
        for slot, train in enumerate(c.problem.trains):
            if self.type_complete(slot):
                total += self.best_value(slot)
            else:
                total += _route_upper_bound(c, train)
                crude = True
        return total + (_claims_upper_bound(c) if crude else 0)

    def pack(self, deadline: float) -> tuple[int, int, bool, list[RouteResult], int]:
        """Branch and bound over the enumerated routes: ``(best, bound, optimal, routes,
        nodes expanded)``.  ``bound`` and ``optimal`` speak for the whole problem only when
        the enumeration is complete (else see :meth:`valid_bound`)."""
        c, routes, type_of = self.c, self.routes, self.type_of
        trains = c.problem.trains
        # slot order: types by best route value (descending), identical trains adjacent
        best_of = [int(r.value[0]) if r.n else 0 for r in routes]
        slot_order = sorted(range(len(trains)), key=lambda s: (-best_of[type_of[s]], type_of[s], s))
        # identical trains take distinct routes: no more of a type run than it has routes
        placed = [0] * len(routes)
        kept = []
        for s in slot_order:
            if placed[type_of[s]] < routes[type_of[s]].n:
                kept.append(s)
                placed[type_of[s]] += 1
        slot_order = kept
        offsets = [0]
        for r in routes:
            offsets.append(offsets[-1] + r.n)
        if len(routes) == 1:  # one train type (the usual case): its arrays as they are
            values, cross, must = routes[0].value, routes[0].cross, routes[0].must
        else:
            values = np.concatenate([r.value for r in routes])
            cross = np.concatenate([r.cross for r in routes])
            must = np.concatenate([r.must for r in routes])
        types = [type_of[s] for s in slot_order]
        lo = np.array([offsets[t] for t in types], dtype=np.int64)
        hi = np.array([offsets[t + 1] for t in types], dtype=np.int64)
        same_prev = np.array([k > 0 and t == types[k - 1] for k, t in enumerate(types)],
                             dtype=np.bool_)  # fmt: skip
        best, choice, bound, optimal, expanded = c.kernels.pack(
            values, cross, must, lo, hi, same_prev, c.has_must, min(deadline, _NO_DEADLINE),
            stop_flag(),
        )
        best = int(best)
        results = []
        for k, (slot, i) in enumerate(zip(slot_order, choice.tolist(), strict=True)):
            ti = types[k]
            if i >= offsets[ti + 1]:
                continue
            results.append(_route_result(c, c.problem, slot, routes[ti], i - offsets[ti]))
        results.sort(key=lambda r: r.train)
        total = sum(r.revenue for r in results)
        if total != best:  # pragma: no cover - internal consistency guard
            raise AssertionError(f"route reconstruction gives {total}, search found {best}")
        return best, int(bound), bool(optimal), results, int(expanded)

    def stats(self) -> dict:
        return {
            "routes_considered": int(sum(r.n for r in self.routes)),
            "nodes_expanded": int(sum(r.expanded for r in self.routes)),
            "legs": int(len(self.c.legs.end)),
            "enumeration_complete": bool(self.complete),
        }


def empty_solution(t0: float, method: str) -> Solution:
    """The answer for a company without trains."""
    stats = {"seconds": time.perf_counter() - t0, "method": method, "routes_considered": 0,
             "nodes_expanded": 0}  # fmt: skip
    return Solution([], 0, True, 0, stats)


def solve_numba(
    problem: Problem,
    time_limit: float | None = None,
    max_variants: int = DEFAULT_MAX_VARIANTS,
    kernels: str = "auto",
) -> Solution:
    """Exact search; see :func:`routing.solve`."""
    if not isinstance(problem, Problem):
        raise ValueError(f"solve expects a routing.Problem, got {type(problem).__name__}")
    check_time_limit(time_limit)
    with catching():
        t0 = time.perf_counter()
        deadline = t0 + time_limit if time_limit is not None else math.inf

        def run(tier: Kernels, stop: float) -> tuple[Solution, bool]:
            return _solve_numba(problem, t0, time_limit, max_variants, tier, stop)

        return run_tiered(kernels, run, deadline)


def _solve_numba(
    problem: Problem,
    t0: float,
    time_limit: float | None,
    max_variants: int,
    kernels: Kernels,
    stop: float,
) -> tuple[Solution, bool]:
    # sorting and packing a cut-short enumeration takes about as long as the enumeration
    # itself, so it gets 40% of the budget
    enum_deadline = t0 + 0.4 * time_limit if time_limit is not None else math.inf
    # and the packing stops a little early, leaving time to rebuild the routes it found
    pack_deadline = t0 + 0.9 * time_limit if time_limit is not None else math.inf
    c = compile_problem(problem, kernels=kernels)
    if not problem.trains:
        return empty_solution(t0, "numba"), True
    en = Enumerated(c, min(enum_deadline, stop), max_variants)
    best, bound, optimal, results, expanded = en.pack(min(pack_deadline, stop))
    if not en.complete:
        optimal = False
        bound = en.valid_bound()
    stats = {"seconds": 0.0, "method": "numba", "kernels": kernels.tier, **en.stats()}
    stats["nodes_expanded"] += expanded
    if requested():
        stats["interrupted"] = True
    now = time.perf_counter()
    stats["seconds"] = now - t0
    bound = max(bound, best)
    optimal = bool(optimal) and bound == best
    return Solution(results, best, optimal, bound, stats), optimal or now < stop


def _route_result(c: Compiled, problem: Problem, slot: int, routes: _Routes, i: int):
    train = problem.trains[slot]
    legs = c.legs
    stops = [int(routes.start[i])]
    nodes = [int(routes.start[i])]
    segments: list[int] = []
    segs_ptr, nodes_ptr = legs.segs_ptr, legs.nodes_ptr
    for leg in routes.legs_of(i).tolist():
        segments.extend(legs.segs[segs_ptr[leg] : segs_ptr[leg + 1]].tolist())
        nodes.extend(legs.nodes[nodes_ptr[leg] : nodes_ptr[leg + 1]].tolist())
        end = int(legs.end[leg])
        nodes.append(end)
        stops.append(end)
    row_kinds, row_pay, row_visit, flags = train_params(train)
    path = np.array(stops, dtype=np.int64)
    counted = np.zeros(len(stops) + 1, dtype=np.bool_)
    n_bonus = c.n_bonus
    bonus = np.zeros(max(n_bonus, 1), dtype=np.int64)
    desig = int(routes.desig[i])
    value = c.kernels.evaluate(
        path, len(stops), desig, c.node_kind, c.node_val, c.node_token,
        row_kinds, row_pay, row_visit, flags[0], flags[1], flags[3], c.token_counted,
        c.ep_a, c.ep_b, c.ep_counted, c.sp_a, c.sp_b, c.sp_amount, c.sp_counted,
        c.et_amt, c.et_min_other, c.mcw_in, c.mcw_k, counted, bonus,
        np.empty(c.kernels.scratch_words(len(stops)), dtype=np.int64),
        np.empty(2 * len(stops) + 2, dtype=np.bool_),
        option_buffer(c),
    )  # fmt: skip
    names = c.ep_names + c.sp_names + c.et_names
    bonuses: dict[str, int] = {}
    for b, name in enumerate(names):
        if bonus[b]:
            bonuses[name] = bonuses.get(name, 0) + int(bonus[b])
    claims = int(routes.claims[i])
    for f, name in enumerate(c.claim_names):
        if (claims >> f) & 1:
            bonuses[name] = bonuses.get(name, 0)
    revenue = int(routes.value[i])
    claim_total = revenue - int(value)
    if claims:
        # split the claimed total by bonus (recomputed the same way the kernel does)
        for f, name in enumerate(c.claim_names):
            if (claims >> f) & 1:
                bonuses[name] += _claim_value(c, f, stops, segments)
        if (
            sum(bonuses[n] for n in c.claim_names if (claims >> c.claim_names.index(n)) & 1)
            != claim_total
        ):  # pragma: no cover
            raise AssertionError("claimed route-set bonuses do not add up")
    return RouteResult(
        train=slot,
        train_name=train.name,
        nodes=tuple(nodes),
        segments=tuple(segments),
        counted=tuple(stops[p] for p in range(len(stops)) if counted[p]),
        revenue=revenue,
        stop_revenue=int(value) - int(bonus[:n_bonus].sum()),
        bonuses=bonuses,
        designated=None if desig < 0 else desig,
        skipped=tuple(stops[p] for p in range(len(stops)) if not counted[p]),
    )


def _claim_value(c: Compiled, f: int, stops: list[int], segments: list[int]) -> int:
    net = c.problem.network
    n_lr = len(c.lr_per_stop)
    if f < n_lr:
        return int(c.lr_per_stop[f]) * sum(
            1 for s in stops if (int(c.lr_kinds[f]) >> int(c.node_kind[s])) & 1
        )
    b = f - n_lr
    hexes = {int(net.seg_hex[j]) for j in segments} | {int(net.node_hex[s]) for s in stops}
    return int(c.br_amount[b]) - int(c.br_per_hex[b]) * len(hexes)
