"""Exact route-revenue optimisation for 18xx track networks.

``routing`` is game-agnostic: a :class:`Problem` is a :class:`Network`, the company's
:class:`Train` objects and :class:`Rules`.  :func:`solve` returns a :class:`Solution` with a
proven upper bound; :func:`validate` scores routes a player declares.  Compilation happens on
the first solve, never at import.
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
        and a valid upper ``bound``.
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
        :func:`routing.cpsat.solve_cpsat` (``num_workers``, ``seed``, ...).

    Returns
    -------
    Solution
    """
    if method == "numba":
        from ._search import solve_numba

        return solve_numba(problem, time_limit=time_limit, **kw)
    if method == "cpsat":
        from .cpsat import solve_cpsat

        return solve_cpsat(problem, time_limit=time_limit, **kw)
    if method == "auto":
        from ._hybrid import solve_auto

        return solve_auto(problem, time_limit=time_limit, **kw)
    raise ValueError(f"unknown method {method!r}; expected 'auto', 'numba' or 'cpsat'")


def validate(problem: Problem, routes):
    """Score routes a player declares; raise :class:`RouteError` naming the broken rule.

    ``routes`` is a sequence of ``(train_index, node_sequence)`` or of
    ``(train_index, node_sequence, segment_sequence)``; see :mod:`routing.validation`.
    """
    from .validation import validate_routes

    return validate_routes(problem, routes)
