"""Exact route-revenue optimisation for 18xx track networks.

``routing`` is game-agnostic: a :class:`Problem` is a :class:`Network`, the company's
:class:`Train` objects and :class:`Rules`.  :func:`solve` returns a :class:`Solution` with a
proven upper bound; :func:`validate` scores routes a player declares.  Compilation happens on
the first solve that is worth it, never at import: until then the same kernels run in the
interpreter (:mod:`routing._jit`).
"""

from .network import STOP_KINDS, Network, NetworkBuilder, NodeKind, kind_mask
from .problem import Problem
from .rules import (
    BonusRoute,
    EndPairBonus,
    EndTokenBonus,
    GroupScope,
    LongestRouteBonus,
    Rules,
    SetPairBonus,
)
from .solution import RouteError, RouteResult, Solution
from .trains import PASSENGER_KINDS, UNLIMITED, Train, TrainRow

__all__ = [
    "NodeKind",
    "STOP_KINDS",
    "kind_mask",
    "Network",
    "NetworkBuilder",
    "Train",
    "TrainRow",
    "UNLIMITED",
    "PASSENGER_KINDS",
    "Rules",
    "GroupScope",
    "EndPairBonus",
    "SetPairBonus",
    "EndTokenBonus",
    "LongestRouteBonus",
    "BonusRoute",
    "Problem",
    "RouteResult",
    "Solution",
    "RouteError",
    "solve",
    "validate",
]


def solve(problem: Problem, time_limit: float | None = None, method: str = "auto", **kw):
    """Optimal routes for ``problem``.

    Parameters
    ----------
    problem : Problem
    time_limit : float, optional
        Seconds.  When reached, the best routes so far are returned with ``optimal=False``
        and a valid upper ``bound``; the routes are never worse than the best route set
        found for part of the trains (the search solves growing subsets of the trains and
        keeps each answer as its starting point).  Ctrl-C does the same at once.
    method : {"auto", "numba", "cpsat"}
        ``"auto"`` (default): the numba search, which hands the problem over to the CP-SAT
        model when a train type has more routes than it may enumerate (``max_routes``,
        ``enum_seconds``; unlimited trains on full, dense boards), warm-started with the
        routes numba found; on every real position the numba search finishes and CP-SAT never
        runs (measured overhead on the 57 corpus positions: none).  ``"numba"``: the exact
        enumeration search alone.  ``"cpsat"``: the independent CP-SAT model alone.
    **kw
        Passed to the method: :func:`routing._hybrid.solve_auto`,
        :func:`routing._search.solve_numba` (``max_variants``) or
        :func:`routing.cpsat.solve_cpsat` (``num_workers``, ``seed``, ...).  The numba
        methods take ``kernels``: ``"auto"`` (default) runs the kernels compiled ahead of
        time when they are built (they load in milliseconds), else the search interpreted
        while a process has spent less time interpreting than loading the compiled kernels
        would cost (0.6 s from numba's cache, 30 s compiling), then compiled;
        ``"ahead"``, ``"compiled"`` or ``"interpreted"`` runs that tier only
        (:mod:`routing._jit`).  The answers are the same.

    Returns
    -------
    Solution
        With ``stats["interrupted"]`` when Ctrl-C stopped the search (the best routes so
        far, a valid ``bound``; see :mod:`routing.interrupt`), ``stats["trains_cut"]`` when
        the company has more identical trains than routes can run at once (see
        :mod:`routing._trim`; the extra trains run nothing).
    """
    if method == "numba":
        from ._search import solve_numba as run
    elif method == "cpsat":
        from .cpsat import solve_cpsat as run
    elif method == "auto":
        from ._hybrid import solve_auto as run
    else:
        raise ValueError(f"unknown method {method!r}; expected 'auto', 'numba' or 'cpsat'")
    if not isinstance(problem, Problem):
        raise ValueError(f"solve expects a routing.Problem, got {type(problem).__name__}")
    from ._trim import cut_trains, restore_trains

    cut, keep = cut_trains(problem)
    solution = run(cut, time_limit=time_limit, **kw)
    if not solution.optimal and solution.routes:
        from .validation import best_scoring

        solution.routes, solution.total = best_scoring(cut, solution.routes, solution.total)
    if keep is not None:
        restore_trains(solution, keep, len(problem.trains))
    return solution


def validate(
    problem: Problem,
    routes,
    *,
    blocked_by=None,
    compare: bool = False,
    time_limit: float | None = None,
):
    """Score routes a player declares; raise :class:`RouteError` naming the broken rule.

    Parameters
    ----------
    problem : Problem
    routes : sequence
        ``(train_index, node_sequence)`` or ``(train_index, node_sequence,
        segment_sequence)`` items; see :mod:`routing.validation`.
    blocked_by : mapping, optional
        Node id -> the company (or companies) whose stations block that city for this
        company; only used to say so when a route runs through it.
    compare : bool
        Also solve ``problem`` (:func:`solve`, ``time_limit``) and put the answer in the
        result's ``optimum`` and a line in its ``notes`` comparing it to the declared total.
    time_limit : float, optional
        Seconds for that solve.

    Returns
    -------
    routing.validation.ScoredRoutes
        ``routes`` (each with ``counted`` and ``skipped`` stops), ``total``, ``notes``,
        ``optimum`` and ``shortfall`` (how much the declared routes miss the proven optimum
        by).
    """
    from .validation import validate_routes

    scored = validate_routes(problem, routes, blocked_by=blocked_by)
    if compare:
        best = solve(problem, time_limit=time_limit)
        scored.optimum = best
        scored.notes.append(_comparison(scored.total, best))
    return scored


def _comparison(declared: int, best: Solution) -> str:
    """One line comparing a declared total with the solver's answer."""
    if best.optimal:
        if declared >= best.total:
            return f"optimal: no routes earn more than {best.total}"
        return f"the best routes earn {best.total}, {best.total - declared} more than declared"
    if declared >= best.bound:
        return f"optimal: no routes earn more than {best.bound}"
    more = f", {best.total - declared} more than declared" if best.total > declared else ""
    return (
        f"the best routes found earn {best.total}{more} (not proven: no routes earn more than "
        f"{best.bound})"
    )
