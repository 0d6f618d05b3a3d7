"""An independent OR-Tools CP-SAT model of the routing problem (``solve(method="cpsat")``).

It cross-checks the numba search and serves as a benchmark baseline, so it shares no
enumeration or bounding code with it: the whole problem of ``docs/ROUTING.md`` is stated as
one constraint model and CP-SAT proves the optimum.

Formulation
-----------
**Presolve** (:mod:`routing.cpsat_presolve`, per train).  Drop stops the train can neither
designate, skip nor assign (a route through them is invalid) and terminal junctions; keep only
nodes some token node reaches along a path whose interior avoids terminal nodes and that
visits at most ``K`` stops needing room in a row with a finite visit cap (``K`` = the sum of
those caps; the path from the token is part of any route through the node); drop junctions
without two segments of different side labels to different neighbours.  Iterated to a
fixpoint.  Then *pass-through junctions* (exactly two live segments, different sides, not named
by any rule) are contracted: a route uses both of their segments or neither, so each maximal
chain of them becomes one :class:`~routing.cpsat_presolve.Link` (its segments, hexes and end
side labels kept; a chain closing on itself is unusable and dropped).  Nothing else is merged.

**Routes as circuits.**  Per train there is one ``add_circuit`` over a directed multigraph
whose circuit nodes are a depot and the live network nodes left after contraction.  Each link
``(u, v)`` gives two arcs ``u -> v`` and ``v -> u`` (parallel links give parallel arcs, which
CP-SAT accepts); each stop ``s`` gives ``depot -> s`` (*s starts the route*) and ``s -> depot``
(*s ends it*).  Junctions get no depot arcs, so ends are stops.  A node off the route takes its
self-loop (``visit`` literal false); the depot's self-loop is ``not active``.  Because a
circuit may also close among network nodes when the depot is idle, ``visit => active``.  The
route ``v0 .. vk`` is the circuit ``depot -> v0 -> .. -> vk -> depot``; simplicity is the
circuit's own "each node at most once" (inner junctions of links belong to one link only),
and ``start + end <= 1`` per stop forbids ``k = 0``.  Both orientations of a route are the
same route, so ``pos(v0) < pos(vk)`` is imposed as ``sum pos*(start - end) + active <= 0``.

*Junction transitions*: at a junction the entering and the leaving arc must have different
side labels.  For each side label ``L`` at junction ``J``, *all* arcs of links with label ``L``
at ``J`` (both directions) form an at-most-one: as exactly one arc enters and one leaves a
visited junction, this is exactly "sides differ" (and it also forbids two links of one side).
Inside a link the transitions were checked by the presolve.  *Terminal stops*: ``visit <=
start + end``.  The line-graph alternative (circuit nodes = segments) would model transitions
directly but square the arc count at busy junctions; side constraints on node degrees are
linear, exact and small.

**Counting** (rule 10).  Designated kinds: a literal per designable node, implied by
``visit``, exactly one per running route (``== active``); at most one per node, or per
``designated_keys`` key, over all trains.  Every other visited stop is skipped or assigned:
literals ``a[s, r]`` with ``sum_r a[s, r] (+ skip) == visit[s]``, row visit caps ``sum_s a[s,
r] <= visit_r`` and counted literals ``c[s, r] <= a[s, r]`` with ``sum_s c[s, r] <= pay_r``.
Literals are only created where a cap can bind: every value, bonus and counted-set rule is
monotone in ``C``, so when a row's pay cap is slack its assigned stops are all counted (``c =
a``), and a skippable stop whose rows have slack visit caps needs only its ``c`` literals.
``C`` is non-empty: ``sum c >= active``.  ``token_counted``: ``sum c[token] >= active``;
``min_counted_with (S, k)``: ``sum_{x not in S} c[x] >= k * visit[v]`` for each ``v`` in ``S``.
When only stop values depend on ``C`` (no counted bonus or counted-set rule), a one-row train
with a binding pay cap (N/M, express) must count its visited stops best-first (a fixed order
by value, then id), which removes the choice among equally good counted sets.

**Route rules.**  ``min_stops``, token and route-scoped groups are linear in ``visit``;
forbidden end pairs are ``start(A) + end(B) <= 1`` and ``start(B) + end(A) <= 1``; end kinds
``sum (start + end) >= active`` over allowed ends.  ``hex_once``: the route's hex sequence
(its stops and segments in order, junctions dropped) splits each hex's elements into runs,
and ``runs = elements - adjacencies inside the hex``, all linear: elements are visited stops
and the runs of a link's own segments; adjacencies are a stop next to the end segment of a
link at it in the same hex, and two links meeting at a junction with end segments in the same
hex (``2 z <= their usage``).  Each non-exempt hex gets ``runs <= 1``.

**Bonuses.**  ``EndPairBonus``: role literals ``ra[x]`` / ``rb[y]`` (at most one of each, as
many ``ra`` as ``rb``, not both on one node), each implied by "is an end" (and "is counted");
two roles on distinct ends name both ends.  ``SetPairBonus``: a literal bounded by the visits
(counts) of ``a`` and of ``b``.  ``EndTokenBonus``: one literal per candidate end, at most one,
``|C| >= (min_other_stops + 1) * sum(literals)``.  Route value = ``multiplier * runs *
(stop values of C + these)``.  Route-set bonuses: ``LongestRouteBonus`` claim literal per
route (at most one), with ``y[s] <= visit[s], y[s] <= claim`` per eligible stop;
``BonusRoute`` claim literal per route (at most one per bonus) implied by visiting ``a`` and
``b``, gain ``<= amount * claim`` and, if claimed, ``gain <= amount - per_hex * H`` where ``H``
sums hex literals forced up by every used segment and visited stop of the hex.

**Route set.**  Each segment at most once over the arc literals of all trains; set-scoped
groups and designated nodes are at-most-ones over all trains; ``must_visit`` is ``hits >=
active`` per train.  Symmetry: identical trains are ordered by ``active`` and by route value
(swapping two identical trains' routes, bonus claims included, changes nothing); parallel
links with the same ends and end sides are used in index order when no rule reads hexes.

**Bounds.**  The circuit relaxation is weak where many long routes compete.  Before the
main solve, each distinct train is solved alone (same per-route rules, route-set rules
dropped: a relaxation), usually in well under a second; the proven values cap each train's
route value in the full model.  The full model runs CP-SAT's core-based search (unsat cores
over the objective literals; strong for D and E trains) beside its LP search (strong for short
trains), with LNS in between.

**Result.**  The routes are read back from the arc literals (links expanded) and re-scored by
an independent checker (:func:`score_routes`) that implements ROUTING.md directly; a mismatch
with the model raises ``RuntimeError`` rather than returning a wrong answer.  ``optimal`` is
CP-SAT's ``OPTIMAL``; ``bound`` is CP-SAT's objective bound when it found a solution, else a
crude valid bound (CP-SAT's bound is unreliable without one).
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time

from ortools.sat.python import cp_model

from .cpsat_model import add_hint, build_model, build_single
from .interrupt import active, catching, requested
from .network import NodeKind
from .problem import Problem
from .solution import RouteResult, Solution, skipped_stops
from .trains import UNLIMITED

__all__ = ["solve_cpsat", "score_routes"]

_JUNCTION = int(NodeKind.JUNCTION)
_STOP_MASK = sum(1 << int(k) for k in NodeKind if k != NodeKind.JUNCTION)


# ---------------------------------------------------------------------------------- checks
def _check_extra(problem: Problem) -> None:
    """Input problems :meth:`Problem.check` lets through; raise ``ValueError`` naming them."""
    if not isinstance(problem, Problem):
        raise ValueError(f"solve_cpsat needs a routing.Problem, got {type(problem).__name__}")
    rules = problem.rules

    def no_dupes(pairs, where: str) -> None:
        seen = set()
        for node, _ in pairs:
            if node in seen:
                raise ValueError(f"{where} lists node {node} twice")
            seen.add(node)

    no_dupes(rules.node_bonus, "node_bonus")
    no_dupes(rules.designated_keys, "designated_keys")
    no_dupes(rules.group_scope, "group_scope")
    for bonus in rules.end_pair_bonuses:
        no_dupes(bonus.a, f"end_pair_bonus {bonus.name!r} (a)")
        no_dupes(bonus.b, f"end_pair_bonus {bonus.name!r} (b)")
    for bonus in rules.end_token_bonuses:
        no_dupes(bonus.amounts, f"end_token_bonus {bonus.name!r}")
        if bonus.min_other_stops < 0:
            raise ValueError(f"end_token_bonus {bonus.name!r} has negative min_other_stops")
    for bonus in rules.longest_route_bonuses:
        if bonus.kinds < 0 or bonus.kinds & ~_STOP_MASK:
            raise ValueError(f"longest_route_bonus {bonus.name!r} has an invalid kind mask")
    for i, pair in enumerate(rules.forbidden_end_pairs):
        if len(pair) != 2:
            raise ValueError(f"forbidden_end_pairs[{i}] is not a pair of node sets")


def _crude_bound(problem: Problem, caps: dict[int, int] | None = None) -> int:
    """A trivially valid upper bound, for a time-out before CP-SAT has one: every stop
    counted by every train, every bonus at its largest (or a train's proven cap)."""
    net, rules = problem.network, problem.rules
    bonus = rules.node_bonus_map()
    stops = sum(int(net.node_value[v]) + bonus.get(v, 0) for v in range(net.n_nodes))
    per_route = stops + sum(
        max((x for _, x in b.a), default=0) + max((x for _, x in b.b), default=0)
        for b in rules.end_pair_bonuses
    )
    per_route += sum(max(b.amount, 0) for b in rules.set_pair_bonuses)
    per_route += sum(max((x for _, x in b.amounts), default=0) for b in rules.end_token_bonuses)
    caps = caps or {}
    total = sum(
        t.multiplier * t.runs * min(per_route, caps.get(i, per_route))
        for i, t in enumerate(problem.trains)
    )
    total += sum(b.per_stop * net.n_nodes for b in rules.longest_route_bonuses)
    return total + sum(max(b.amount, 0) for b in rules.bonus_routes)


def _rows_fit(train, stops, kinds, counted) -> bool:
    """Can the visited non-designated ``stops`` be skipped / assigned with exactly
    ``counted`` of them counted?  A max-flow: counted stops need a row with pay and visit
    room, uncounted unskippable stops need visit room."""
    import networkx as nx

    g = nx.DiGraph()
    need = 0
    for v in stops:
        bit = 1 << kinds[v]
        if v in counted:
            need += 1
            for r, row in enumerate(train.rows):
                if row.kinds & bit:
                    g.add_edge("src", ("s", v), capacity=1)
                    g.add_edge(("s", v), ("pay", r), capacity=1)
        elif not train.skip & bit:
            need += 1
            for r, row in enumerate(train.rows):
                if row.kinds & bit:
                    g.add_edge("src", ("s", v), capacity=1)
                    g.add_edge(("s", v), ("visit", r), capacity=1)
    if need == 0:
        return True
    for r, row in enumerate(train.rows):
        g.add_edge(("pay", r), ("visit", r), capacity=min(row.pay, UNLIMITED))
        g.add_edge(("visit", r), "sink", capacity=min(row.visit, UNLIMITED))
    if "src" not in g or "sink" not in g:
        return False
    return nx.maximum_flow_value(g, "src", "sink") == need


def _route_value(problem: Problem, t: int, nodes, segs, counted, designated):
    """Check one route against ROUTING.md rules 1-10; return (stop value, {bonus: amount}),
    both before the multiplier.  Raises ``RuntimeError`` naming the broken rule."""
    net, rules, train = problem.network, problem.rules, problem.trains[t]

    def fail(msg: str):
        raise RuntimeError(f"cpsat route of train {t} ({train.name}) breaks the rules: {msg}")

    kinds = {v: int(net.node_kind[v]) for v in nodes}
    stops = [v for v in nodes if kinds[v] != _JUNCTION]
    if len(nodes) < 2 or len(segs) != len(nodes) - 1 or len(set(nodes)) != len(nodes):
        fail("not a simple path")
    for i, j in enumerate(segs):
        if {int(net.seg_u[j]), int(net.seg_v[j])} != {nodes[i], nodes[i + 1]}:
            fail(f"segment {j} does not join {nodes[i]} and {nodes[i + 1]}")
    if kinds[nodes[0]] == _JUNCTION or kinds[nodes[-1]] == _JUNCTION:
        fail("an end is a junction")

    def side(j: int, v: int) -> int:
        return int(net.seg_side_u[j]) if int(net.seg_u[j]) == v else int(net.seg_side_v[j])

    for i in range(1, len(nodes) - 1):
        v = nodes[i]
        if kinds[v] == _JUNCTION and side(segs[i - 1], v) == side(segs[i], v):
            fail(f"reverses at junction {v}")
        if net.node_terminal[v]:
            fail(f"passes through terminal {v}")
    if len(stops) < train.min_stops:
        fail("too few stops")
    if rules.token_nodes is not None and not set(nodes) & rules.token_nodes:
        fail("no token node")
    groups = [int(net.node_group[v]) for v in nodes if int(net.node_group[v]) >= 0]
    if len(groups) != len(set(groups)):
        fail("two nodes of one group")
    x, y = nodes[0], nodes[-1]
    for a, b in rules.forbidden_end_pairs:
        if (x in a and y in b) or (x in b and y in a):
            fail("forbidden end pair")
    if train.end_kinds and not any(train.end_kinds & (1 << kinds[e]) for e in (x, y)):
        fail("end kinds")
    counted = set(counted)
    if not counted or not counted <= set(stops):
        fail("counted set empty or not among the visited stops")
    pool = [v for v in stops if not train.designated_kind & (1 << kinds[v])]
    if train.designated_kind:
        if designated is None or designated not in stops or designated not in counted:
            fail("no designated node")
        if not train.designated_kind & (1 << kinds[designated]):
            fail("designated node of a wrong kind")
        if counted - set(pool) != {designated}:
            fail("a second designated-kind node is counted")
    elif designated is not None:
        fail("designated node without designated kind")
    if not _rows_fit(train, pool, kinds, counted):
        fail("stops do not fit the train's rows")
    if rules.token_counted and rules.token_nodes is not None and not counted & rules.token_nodes:
        fail("no token node counted")
    for group, k in rules.min_counted_with:
        if group & set(nodes) and len(counted - group) < k:
            fail("too few counted stops beside a min_counted_with set")
    if rules.hex_once:
        seq = []
        for i, v in enumerate(nodes):
            if kinds[v] != _JUNCTION:
                seq.append(int(net.node_hex[v]))
            if i < len(segs):
                seq.append(int(net.seg_hex[segs[i]]))
        runs = [h for i, h in enumerate(seq) if i == 0 or seq[i - 1] != h]
        again = [h for h in set(runs) if runs.count(h) > 1 and h not in rules.hex_once_exempt]
        if again:
            fail(f"re-enters hex {net.hex_names[again[0]]!r}")
    nb = rules.node_bonus_map()
    value = sum(int(net.node_value[v]) + nb.get(v, 0) for v in counted)
    bonuses: dict[str, int] = {}

    def add(name: str, amount: int) -> None:
        if amount > 0:
            bonuses[name] = bonuses.get(name, 0) + amount

    for bonus in rules.end_pair_bonuses:
        a, b = dict(bonus.a), dict(bonus.b)
        best = 0
        for p, q in ((x, y), (y, x)):
            if p in a and q in b and (not bonus.counted or {p, q} <= counted):
                best = max(best, a[p] + b[q])
        add(bonus.name, best)
    for bonus in rules.set_pair_bonuses:
        pool_ = counted if bonus.counted else set(nodes)
        if pool_ & bonus.a and pool_ & bonus.b:
            add(bonus.name, bonus.amount)
    for bonus in rules.end_token_bonuses:
        amounts = dict(bonus.amounts)
        best = 0
        for e in (x, y):
            if e in counted and e in amounts and len(counted) - 1 >= bonus.min_other_stops:
                best = max(best, amounts[e])
        add(bonus.name, best)
    return value, bonuses


def score_routes(problem: Problem, routes) -> list[RouteResult]:
    """Check a route set against ROUTING.md and score it.

    Parameters
    ----------
    problem : Problem
    routes : sequence of (train, nodes, segments, counted, designated)
        ``counted`` is the chosen ``C`` (designated node included).

    Returns
    -------
    list of RouteResult
        Route-set bonuses go to the best route (lowest train index on ties).

    Raises
    ------
    RuntimeError
        Naming the broken rule.
    """
    net, rules = problem.network, problem.rules
    results = []
    used_segs: set[int] = set()
    trains_seen: set[int] = set()
    set_groups = {g for g, s in rules.group_scope if s == "set"}
    group_hits: dict[int, int] = {}
    desig: set = set()
    keys = {v: ("key", k) for v, k in rules.designated_keys}
    for t, nodes, segs, counted, designated in routes:
        if t in trains_seen:
            raise RuntimeError(f"train {t} runs two routes")
        trains_seen.add(t)
        if used_segs & set(segs):
            raise RuntimeError(f"train {t} reuses a segment of another route")
        used_segs |= set(segs)
        for v in nodes:
            g = int(net.node_group[v])
            if g in set_groups:
                group_hits[g] = group_hits.get(g, 0) + 1
        if designated is not None:
            key = keys.get(designated, ("node", designated))
            if key in desig:
                raise RuntimeError(f"node {designated} designated twice (by key)")
            desig.add(key)
        value, bonuses = _route_value(problem, t, nodes, segs, counted, designated)
        train = problem.trains[t]
        f = train.multiplier * train.runs
        bonuses = {k: f * x for k, x in bonuses.items()}
        order = {v: i for i, v in enumerate(nodes)}
        results.append(
            RouteResult(
                train=t,
                train_name=train.name,
                nodes=tuple(nodes),
                segments=tuple(segs),
                counted=tuple(sorted(counted, key=order.__getitem__)),
                revenue=f * value + sum(bonuses.values()),
                stop_revenue=f * value,
                bonuses=bonuses,
                designated=designated,
                skipped=skipped_stops(nodes, counted, net.node_kind),
            )
        )
    if any(n > 1 for n in group_hits.values()):
        raise RuntimeError("a set-scoped group is visited twice")
    if rules.must_visit and results and not any(rules.must_visit & set(r.nodes) for r in results):
        raise RuntimeError("no route visits a must_visit node")

    def claim(name: str, gains: list[int]) -> None:
        best = max(range(len(gains)), key=lambda i: (gains[i], -i), default=None)
        if best is not None and gains[best] > 0:
            r = results[best]
            r.bonuses[name] = r.bonuses.get(name, 0) + gains[best]
            r.revenue += gains[best]

    for bonus in rules.longest_route_bonuses:
        claim(
            bonus.name,
            [
                bonus.per_stop
                * sum(
                    1
                    for v in r.nodes
                    if int(net.node_kind[v]) != _JUNCTION
                    and bonus.kinds & (1 << int(net.node_kind[v]))
                )
                for r in results
            ],
        )
    for bonus in rules.bonus_routes:
        gains = []
        for r in results:
            if not (bonus.a & set(r.nodes) and bonus.b & set(r.nodes)):
                gains.append(0)
                continue
            hexes = {int(net.seg_hex[j]) for j in r.segments}
            hexes |= {int(net.node_hex[v]) for v in r.nodes if int(net.node_kind[v]) != _JUNCTION}
            gains.append(bonus.amount - bonus.per_hex * len(hexes))
        claim(bonus.name, gains)
    return results


# ---------------------------------------------------------------------------------- solve
def _floor(x: float) -> int:
    """Largest integer <= ``x``, reading a float within 1e-6 of an integer as that integer
    (the objective is integral, so CP-SAT's bound is an integer stored as a float)."""
    near = round(x)
    return near if abs(x - near) < 1e-6 else math.floor(x)


#: CP-SAT 9.15's local-search workers (``ls``; ``fj`` shares their violation code) crash the
#: process now and then on models with optional circuit nodes (google/or-tools#5357, seen
#: here as SIGSEGV / "free(): invalid next size" with 2 workers).  They only ever find
#: solutions, never bounds, so leaving them out costs nothing the proof needs.
_UNSAFE_SUBSOLVERS = ("ls", "ls_lin", "fj", "fj_lin")


def _solver(num_workers, seed, seconds, log, params, longest: bool = False) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    prm = solver.parameters
    prm.num_workers = int(num_workers)
    prm.random_seed = int(seed)
    prm.log_search_progress = bool(log)
    prm.ignore_subsolvers.extend(_UNSAFE_SUBSOLVERS)
    prm.use_feasibility_jump = False
    # Core-based search (unsat cores over the objective's literals) proves the long-route
    # cases (D and E trains) far faster than LP search, which in turn does best on short
    # trains; with two workers both run as full solvers and LNS fills the gaps.  Measured on
    # routing.synthetic boards (12 x 10, four trains): default workers left 3 of 8 mixed D/E
    # cases unproven at 60 s, this portfolio none.  A longest-route bonus (``longest``) is
    # bounded only by the LP at linearization level 2 (max_lp), so a single worker runs that
    # one then: on the hard tier's 5 + 6E board with every bonus, one worker proved it in
    # 8-13 s with max_lp, 11 s with default_lp and 227 s with core.  (Two workers keep core
    # and default_lp: ``auto`` proves that board in about 1.5 s so, and no faster with max_lp
    # in place of either.)
    full = ["core", "default_lp", "max_lp", "quick_restart", "pseudo_costs", "no_lp"]
    if longest and int(num_workers) == 1:
        full = ["max_lp"]
    prm.subsolvers.extend(full[: max(1, min(int(num_workers), len(full)))])
    prm.num_full_subsolvers = max(1, min(int(num_workers), len(full)))
    if seconds is not None:
        prm.max_time_in_seconds = max(0.01, seconds)
    for key, val in (params or {}).items():
        if not hasattr(prm, key):
            raise ValueError(f"params: CP-SAT has no parameter {key!r}")
        if isinstance(val, (list, tuple)):
            # OR-Tools 9.15's repeated fields have clear() but no slice deletion.
            getattr(prm, key).clear()
            getattr(prm, key).extend(val)
        else:
            setattr(prm, key, val)
    return solver


def run_solver(solver: cp_model.CpSolver, model: cp_model.CpModel):
    """``solver.solve(model)``, stoppable by Ctrl-C while the handler of
    :mod:`routing.interrupt` is in force: CP-SAT then leaves SIGINT to Python and runs in a
    worker thread while this one waits and calls ``stop_search`` once an interrupt is
    requested (CP-SAT returns its best solution and bound so far).  Without the handler,
    CP-SAT's own SIGINT handling applies (it stops the search too)."""
    if not active():
        return solver.solve(model)
    solver.parameters.catch_sigint_signal = False
    if requested():  # interrupted before it started: a token run (it reports as usual)
        solver.parameters.max_time_in_seconds = 0.01
        return solver.solve(model)
    out: dict = {}
    finished = threading.Event()

    def work() -> None:
        try:
            out["status"] = solver.solve(model)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            out["error"] = exc
        finally:
            finished.set()

    worker = threading.Thread(target=work, name="cpsat-solve", daemon=True)
    worker.start()
    stopped = False
    try:
        while not finished.wait(0.05):
            if requested() and not stopped:
                solver.stop_search()
                stopped = True
    except BaseException:
        solver.stop_search()  # a second Ctrl-C: stop, then let it propagate
        worker.join()
        raise
    worker.join()
    if "error" in out:
        raise out["error"]
    return out["status"]


def _train_caps(
    problem, num_workers, seed, t0, time_limit, params, known=None
) -> tuple[dict[int, int], list[float]]:
    """Per train, a proven bound on its route value alone (one small CP-SAT solve per
    distinct train), and the seconds each solve took.  Added to the full model the caps
    limit what the relaxation can promise a train, which is where its bound is weakest.
    Trains in ``known`` (index -> proven cap) are not solved again."""
    caps: dict[int, int] = dict(known or {})
    timings: list[float] = []
    seen: dict[tuple, int] = {}
    for t, tr in enumerate(problem.trains):
        if t in caps:
            continue
        key = (tr.rows, tr.skip, tr.end_kinds, tr.designated_kind, tr.min_stops)
        if key in seen:
            if seen[key] in caps:
                caps[t] = caps[seen[key]]
            continue
        seen[key] = t
        rsm = build_single(problem, t)
        if not rsm.trains[0].nodes:
            continue
        solver, status, took = _side_solve(rsm.model, num_workers, seed, t0, time_limit, params)
        timings.append(took)
        cap = _proven_max(solver, status)
        if cap is not None:
            caps[t] = cap
    return caps, timings


def _side_solve(model, num_workers, seed, t0, time_limit, params):
    """Run one of the small solves that come before the main one (caps, completions), with
    a quarter of the time left: ``(solver, status, seconds it took)``."""
    seconds = None
    if time_limit is not None:
        seconds = (float(time_limit) - (time.perf_counter() - t0)) / 4
    solver = _solver(num_workers, seed, seconds, False, params)
    t1 = time.perf_counter()
    status = run_solver(solver, model)
    return solver, status, round(time.perf_counter() - t1, 3)


def _proven_max(solver: cp_model.CpSolver, status) -> int | None:
    """The proven maximum of a maximisation that ran, or None when it proved nothing."""
    # Only a run that found a solution reports a trustworthy bound: an UNKNOWN stop can
    # leave best_objective_bound at 0.0, below the optimum.
    if status == cp_model.OPTIMAL:
        return round(solver.objective_value)
    if status == cp_model.FEASIBLE and solver.best_objective_bound >= solver.objective_value:
        return _floor(solver.best_objective_bound)
    return None


#: Portfolio for a train's earnings solve (:func:`_claim_caps`): CP-SAT's LP at
#: linearization level 2 (``max_lp``) keeps the circuit's Boolean constraints in the
#: relaxation, which is what bounds a longest-route bonus.  Measured on the hard tier's
#: 5 + 6E board (hard-cf81ade59b03), its 6E alone with the mail bonus: 0.3-0.7 s, against
#: 5-14 s for the default portfolio (core + default_lp) over seeds 1-3.
_EARNINGS_SUBSOLVERS = ["max_lp", "core"]


def _claim_caps(
    problem, caps, num_workers, seed, t0, time_limit, params, known=None
) -> tuple[dict[int, tuple[int, int]], list[RouteResult], list[float]]:
    """Per train, proven bounds ``(without, with_)`` on its earnings (route value times the
    multiplier plus the route-set bonuses it claims) when it claims no longest-route bonus
    and in any case (see :func:`routing.cpsat_model.build_model`), with the best route of
    each train alone and the seconds each solve took.

    Only computed when the problem has a longest-route bonus: that bonus is a maximum over
    the routes, which the relaxation cannot see without them (both trains of a pair are
    promised the bonus at once).  ``with_`` comes from solving the train alone with every
    route-set bonus (``must_visit`` dropped: another route may satisfy it, so the solve is
    a relaxation); ``without`` is the route-value cap times the multiplier plus every
    bonus route at its largest, which needs no solve.  Trains in ``known`` are taken as
    given.
    """
    rules = problem.rules
    out: dict[int, tuple[int, int]] = dict(known or {})
    routes: list[RouteResult] = []
    timings: list[float] = []
    if not any(b.per_stop > 0 for b in rules.longest_route_bonuses):
        return out, routes, timings
    solo_rules = dataclasses.replace(rules, must_visit=frozenset())
    extra = sum(max(b.amount, 0) for b in rules.bonus_routes)
    seen: dict[tuple, int] = {}
    for t, tr in enumerate(problem.trains):
        if t in out or t not in caps:
            continue
        key = (tr.rows, tr.skip, tr.end_kinds, tr.designated_kind, tr.min_stops,
               tr.multiplier, tr.runs)  # fmt: skip
        if key in seen:
            if seen[key] in out:
                out[t] = out[seen[key]]
            continue
        seen[key] = t
        without = tr.multiplier * tr.runs * caps[t] + extra
        solo = dataclasses.replace(problem, trains=(tr,), rules=solo_rules)
        rsm = build_model(solo, {0: caps[t]})
        if not rsm.trains[0].nodes:
            continue
        prm = {"subsolvers": _EARNINGS_SUBSOLVERS, **(params or {})}
        solver, status, took = _side_solve(rsm.model, num_workers, seed, t0, time_limit, prm)
        timings.append(took)
        with_ = _proven_max(solver, status)
        if with_ is None:
            continue
        out[t] = (min(without, with_), with_)
        for r in score_routes(solo, _read_routes(solver, rsm)):
            routes.append(dataclasses.replace(r, train=t))
    return out, routes, timings


def _combine(problem, hint, solo_routes) -> list[RouteResult]:
    """A valid route set at least as good as ``hint``: seeded with each solo route in turn,
    then greedily the other solo routes and then the routes of ``hint`` (best first) that
    share no segment with those taken and belong to trains still free."""
    hint = list(hint or [])
    best, best_total = hint, sum(r.revenue for r in hint)
    pool = sorted(solo_routes, key=lambda r: -r.revenue) + sorted(hint, key=lambda r: -r.revenue)
    for seed in solo_routes:
        taken, segs = [seed], set(seed.segments)
        for r in pool:
            if all(r.train != x.train for x in taken) and not segs & set(r.segments):
                taken.append(r)
                segs |= set(r.segments)
        taken.sort(key=lambda x: x.train)
        try:
            scored = score_routes(
                problem,
                [(x.train, list(x.nodes), list(x.segments), list(x.counted), x.designated)
                 for x in taken],
            )  # fmt: skip
        except RuntimeError:  # e.g. a set-scoped group or a designated node taken twice
            continue
        total = sum(x.revenue for x in scored)
        if total > best_total:
            best, best_total = scored, total
    return best


def _complete(
    problem, caps, claim_caps, seed_route, num_workers, seed, t0, time_limit, params
) -> tuple[list[RouteResult], float]:
    """The best route set in which the train of ``seed_route`` runs that route (the other
    trains solved around it, a small model as one train is fixed), or ``[]`` if none was
    found in the time given; and the seconds it took.  Run with the ``max_lp`` portfolio of
    the earnings solves: completing the 5-train's best mail-less route of hard-cf81ade59b03
    with the 6E took it 0.2 s, the default portfolio 1.9 s."""
    rsm = build_model(problem, caps, claim_caps)
    add_hint(problem, rsm, [seed_route], fix=True)
    prm = {"subsolvers": _EARNINGS_SUBSOLVERS, **(params or {})}
    solver, status, took = _side_solve(rsm.model, num_workers, seed, t0, time_limit, prm)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [], took
    return score_routes(problem, _read_routes(solver, rsm)), took


def _read_routes(solver: cp_model.CpSolver, rsm) -> list[tuple]:
    routes = []
    for tm in rsm.trains:
        if not tm.nodes or not solver.boolean_value(tm.active):
            continue
        succ = {}
        for u, v, k, lit in tm.arcs:
            if solver.boolean_value(lit):
                succ[u] = (v, k)
        first = [v for v, lit in tm.start.items() if solver.boolean_value(lit)]
        last = [v for v, lit in tm.end.items() if solver.boolean_value(lit)]
        if len(first) != 1 or len(last) != 1:
            raise RuntimeError(f"cpsat model of train {tm.index}: route has no unique ends")
        nodes, segs = [first[0]], []
        for _ in range(len(tm.nodes) + 1):
            if nodes[-1] == last[0]:
                break
            if nodes[-1] not in succ:
                raise RuntimeError(f"cpsat model of train {tm.index}: broken route path")
            u = nodes[-1]
            v, k = succ[u]
            link = tm.links[k]
            if link.u == u:
                nodes += [*link.inner, v]
                segs += link.segs
            else:
                nodes += [*reversed(link.inner), v]
                segs += reversed(link.segs)
        else:
            raise RuntimeError(f"cpsat model of train {tm.index}: route does not end")
        counted = [v for v, lits in tm.counted.items() if sum(solver.value(c) for c in lits) >= 1]
        desig = [v for v, lit in tm.designated.items() if solver.boolean_value(lit)]
        routes.append((tm.index, nodes, segs, counted, desig[0] if desig else None))
    return routes


def solve_cpsat(
    problem: Problem,
    time_limit: float | None = None,
    *,
    num_workers: int = 2,
    seed: int = 1,
    log: bool = False,
    params: dict | None = None,
    use_caps: bool = True,
    hint: list[RouteResult] | None = None,
    known_caps: dict[int, int] | None = None,
    known_claim_caps: dict[int, tuple[int, int]] | None = None,
    min_total: int | None = None,
    seeds: list[RouteResult] | None = None,
) -> Solution:
    """Optimal routes for ``problem`` by the CP-SAT model (see the module docstring).

    Parameters
    ----------
    problem : Problem
    time_limit : float, optional
        Seconds.  On time-out the best route set found is returned with ``optimal=False``
        (the empty route set if none was found) and CP-SAT's proven bound.
    num_workers : int
        CP-SAT search workers (default 2).  OR-Tools 9.15's local-search workers can crash
        the process on these models with several workers (google/or-tools#5357,
        ``benchmarks/repro/``); they are always left out (see ``_UNSAFE_SUBSOLVERS``), which
        makes several workers safe.  ``num_workers=1`` is deterministic.
    seed : int
        CP-SAT random seed.
    log : bool
        Print CP-SAT's search log.
    params : dict, optional
        Further ``CpSolver.parameters`` fields, e.g. ``{"linearization_level": 2}``.
    use_caps : bool
        Solve each distinct train alone first and cap its route value (see the module
        docstring).
    hint : list of RouteResult, optional
        A valid route set (e.g. another solver's incumbent) given to CP-SAT as a solution
        hint; CP-SAT usually starts from it.  It only steers the search.
    known_caps : dict, optional
        Train index -> a proven upper bound on that train's route value before the
        multiplier and without route-set bonuses; such trains are not solved alone.
    known_claim_caps : dict, optional
        Train index -> ``(without, with_)``, proven upper bounds on that train's earnings
        (route value times the multiplier plus its route-set bonuses) when it claims no
        longest-route bonus and in any case; such trains are not solved alone for them.
    min_total : int, optional
        The total of a known valid route set: the model then only looks for route sets at
        least as good, which leaves the optimum in place.
    seeds : list of RouteResult, optional
        Single routes (of one train each) that, when the problem has a longest-route
        bonus, are each completed with the other trains in a small solve (the train fixed
        to its route) before the main one; the best completion becomes the hint.

    Returns
    -------
    Solution
        ``stats`` holds ``seconds``, ``method`` ("cpsat"), ``status``, ``branches``,
        ``conflicts`` and ``booleans``.

    Raises
    ------
    ValueError
        For an invalid argument or problem item.
    RuntimeError
        If the solution read back from the model breaks ROUTING.md (a model bug).
    """
    t0 = time.perf_counter()
    _check_extra(problem)
    if time_limit is not None and not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if num_workers < 1:
        raise ValueError(f"num_workers must be at least 1, got {num_workers!r}")
    if _crude_bound(problem) >= 1 << 50:
        raise ValueError("problem values are too large for an exact integer model")
    with catching():
        caps, cap_seconds = known_caps, []
        if use_caps:
            caps, cap_seconds = _train_caps(
                problem, num_workers, seed, t0, time_limit, params, known_caps
            )
        claim_caps, solo_routes = known_claim_caps, []
        if use_caps and caps:
            claim_caps, solo_routes, more = _claim_caps(
                problem, caps, num_workers, seed, t0, time_limit, params, known_claim_caps
            )
            cap_seconds = [*cap_seconds, *more]
        if solo_routes:
            hint = _combine(problem, hint, solo_routes)
            # A train's best route alone often belongs to an optimal route set: complete
            # the strongest one with the other trains (one small solve) for the hint.
            lead = max(solo_routes, key=lambda r: r.revenue)
            for start in [*(seeds or []), lead]:
                done, took = _complete(
                    problem, caps, claim_caps, start, num_workers, seed, t0, time_limit, params
                )
                cap_seconds = [*cap_seconds, took]
                if sum(r.revenue for r in done) > sum(r.revenue for r in hint):
                    hint = done
            if hint:
                floor = sum(r.revenue for r in hint)
                min_total = floor if min_total is None else max(min_total, floor)
        rsm = build_model(problem, caps, claim_caps)
        if hint:
            add_hint(problem, rsm, hint)
        if min_total is not None:
            rsm.model.add(rsm.objective >= int(min_total))
        seconds = None if time_limit is None else float(time_limit) - (time.perf_counter() - t0)
        longest = any(b.per_stop > 0 for b in problem.rules.longest_route_bonuses)
        solver = _solver(num_workers, seed, seconds, log, params, longest)
        status = run_solver(solver, rsm.model)
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"cpsat model invalid: {rsm.model.validate()}")
        if status == cp_model.INFEASIBLE:
            if min_total is not None:
                raise RuntimeError(f"cpsat model has no route set worth min_total={min_total}")
            raise RuntimeError("cpsat model infeasible, but running no route is always feasible")
        has_solution = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        results = score_routes(problem, _read_routes(solver, rsm)) if has_solution else []
        total = sum(r.revenue for r in results)
        bound = _crude_bound(problem, caps)
        if has_solution and solver.best_objective_bound >= solver.objective_value:
            # Without a solution CP-SAT's reported bound is not reliable (it can read 0.0).
            bound = min(bound, _floor(solver.best_objective_bound))
        if has_solution:
            model_total = round(solver.objective_value)
            # The model may leave a bonus unclaimed in a non-optimal solution, so the re-scored
            # total can only be higher; at the optimum both must agree.
            if total < model_total or (status == cp_model.OPTIMAL and total != model_total):
                raise RuntimeError(
                    f"cpsat model value {model_total} disagrees with the routes' score {total}"
                )
        if total > bound:
            raise RuntimeError(f"cpsat bound {bound} is below a feasible total {total}")
        interrupted = requested()
    optimal = status == cp_model.OPTIMAL
    if optimal:
        bound = total
    return Solution(
        routes=results,
        total=total,
        optimal=optimal,
        bound=bound,
        stats={
            "seconds": time.perf_counter() - t0,
            "method": "cpsat",
            "status": solver.status_name(status),
            "branches": solver.num_branches,
            "conflicts": solver.num_conflicts,
            "booleans": solver.num_booleans,
            "cap_seconds": cap_seconds,
            **({"interrupted": True} if interrupted else {}),
        },
    )
