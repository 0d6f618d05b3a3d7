"""Exact reduction of a train multiset: more identical trains than routes can run at once.

Routes of one route set use disjoint track, and every route visits a station of the company
(when ``rules.token_nodes`` is set), so it runs on at least one segment that touches a
token node.  Hence at most ``capacity`` routes run together: the number of segments at the
token nodes (every segment without tokens).  Identical trains are interchangeable, so of a
type with more than ``capacity`` trains only ``capacity`` need to be searched; the others
run nothing in some optimal route set.  2,000 2-trains on a board become a dozen.
"""

from __future__ import annotations

import numpy as np

from .problem import Problem
from .solution import Solution

__all__ = ["route_capacity", "cut_trains", "restore_trains"]


def route_capacity(problem: Problem) -> int:
    """An upper bound on how many routes can run at once (see the module docstring)."""
    net = problem.network
    tokens = problem.rules.token_nodes
    if tokens is None:
        return net.n_segments
    at_token = np.zeros(net.n_nodes, dtype=np.bool_)
    at_token[list(tokens)] = True
    return int(np.count_nonzero(at_token[net.seg_u] | at_token[net.seg_v]))


def cut_trains(problem: Problem) -> tuple[Problem, tuple[int, ...] | None]:
    """``(problem with at most route_capacity trains of each type, original index of each
    kept train)``; ``None`` instead of the indices when nothing was cut."""
    cap = route_capacity(problem)
    if len(problem.trains) <= cap:
        return problem, None
    seen: dict = {}
    keep = []
    for slot, train in enumerate(problem.trains):
        if seen.get(train, 0) < cap:
            keep.append(slot)
        seen[train] = seen.get(train, 0) + 1
    if len(keep) == len(problem.trains):
        return problem, None
    trains = tuple(problem.trains[s] for s in keep)
    return Problem(problem.network, trains, problem.rules, problem.label), tuple(keep)


def restore_trains(solution: Solution, keep: tuple[int, ...], n_trains: int) -> Solution:
    """Map the routes of a solution of the cut problem back to the original train indices
    (in place); ``stats["trains_cut"]`` says how many trains were left out."""
    for route in solution.routes:
        route.train = keep[route.train]
    solution.routes.sort(key=lambda r: r.train)
    solution.stats["trains_cut"] = n_trains - len(keep)
    return solution
