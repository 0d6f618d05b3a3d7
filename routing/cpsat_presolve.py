"""Presolve for the CP-SAT model (:mod:`routing.cpsat`): per train, the part of the network a
valid route could use, with pass-through junctions contracted into links.

Every reduction here only removes nodes and segments that no valid route of the train can
contain, or merges segments that any route uses together, so the optimum is unchanged.
Nothing is shared with the numba search.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

from .network import NodeKind
from .problem import Problem
from .trains import UNLIMITED, Train

__all__ = ["Link", "live_graph"]

_JUNCTION = int(NodeKind.JUNCTION)


def _bit(kind: int) -> int:
    return 1 << int(kind)


def _admissible(problem: Problem, train: Train) -> list[bool]:
    """Which nodes a route of ``train`` could contain at all.

    A junction is admissible unless terminal (a terminal node must be an end, and junctions
    cannot be ends).  A stop is admissible when it can be designated, skipped or assigned to a
    row; any other stop makes every route through it invalid (ROUTING.md rule 10).
    """
    net = problem.network
    usable = train.designated_kind | train.skip
    for row in train.rows:
        usable |= row.kinds
    out = []
    for v in range(net.n_nodes):
        kind = int(net.node_kind[v])
        if kind == _JUNCTION:
            out.append(not bool(net.node_terminal[v]))
        else:
            out.append(bool(usable & _bit(kind)))
    return out


def _stop_costs(problem: Problem, train: Train) -> tuple[list[int], float]:
    """Per node, 1 if a visit uses up room in a row with a finite visit cap, else 0; and the
    total room ``K`` (``inf`` if no such row).  A route visits at most ``K`` costly stops."""
    net = problem.network
    free = train.skip | train.designated_kind
    room = 0
    for row in train.rows:
        if row.visit >= UNLIMITED:
            free |= row.kinds
        else:
            room += row.visit
    costs = [0 if int(k) == _JUNCTION or free & _bit(int(k)) else 1 for k in net.node_kind]
    return costs, (room if any(costs) else math.inf)


def _prune(
    problem: Problem, alive_node: list[bool], segs: list[int], costs: list[int], room: float
) -> list[int]:
    """Drop unreachable nodes and impassable junctions (to a fixpoint); return live segments.

    A node survives if some token node reaches it along a path whose interior avoids terminal
    nodes and which visits at most ``room`` costly stops (0-1 breadth-first search): that path
    is part of any route through the node.  ``alive_node`` is updated in place.
    """
    net = problem.network
    tokens = problem.rules.token_nodes
    terminal = net.node_terminal
    while True:
        changed = False
        segs = [j for j in segs if alive_node[int(net.seg_u[j])] and alive_node[int(net.seg_v[j])]]
        if tokens is not None:
            adj: dict[int, list[int]] = {}
            for j in segs:
                u, v = int(net.seg_u[j]), int(net.seg_v[j])
                adj.setdefault(u, []).append(v)
                adj.setdefault(v, []).append(u)
            dist = {t: costs[t] for t in tokens if alive_node[t] and costs[t] <= room}
            queue = deque(dist)
            while queue:
                v = queue.popleft()
                # A terminal node is only an end: a route may leave a terminal *token* node
                # (it starts there) but never passes through any terminal node.
                if terminal[v] and v not in tokens:
                    continue
                for w in adj.get(v, ()):
                    d = dist[v] + costs[w]
                    if d <= room and d < dist.get(w, math.inf):
                        dist[w] = d
                        if costs[w]:
                            queue.append(w)
                        else:
                            queue.appendleft(w)
            for v in range(net.n_nodes):
                if alive_node[v] and v not in dist:
                    alive_node[v] = False
                    changed = True
        incident: dict[int, list[tuple[int, int]]] = {}
        for j in segs:
            u, v = int(net.seg_u[j]), int(net.seg_v[j])
            if alive_node[u] and alive_node[v]:
                incident.setdefault(u, []).append((int(net.seg_side_u[j]), v))
                incident.setdefault(v, []).append((int(net.seg_side_v[j]), u))
        for v in range(net.n_nodes):
            if not alive_node[v]:
                continue
            inc = incident.get(v, [])
            if int(net.node_kind[v]) == _JUNCTION:
                passable = any(
                    s1 != s2 and w1 != w2
                    for i, (s1, w1) in enumerate(inc)
                    for s2, w2 in inc[i + 1 :]
                )
            else:
                passable = bool(inc)
            if not passable:
                alive_node[v] = False
                changed = True
        if not changed:
            return [
                j for j in segs if alive_node[int(net.seg_u[j])] and alive_node[int(net.seg_v[j])]
            ]


@dataclass(frozen=True)
class Link:
    """A chain of segments between two circuit nodes ``u`` and ``v`` whose interior nodes are
    pass-through junctions (exactly two live segments, different side labels, not named by any
    rule).  A route uses all of a link or none of it, so a link is one arc pair of the circuit.

    ``segs`` and ``inner`` are listed from ``u`` to ``v``; ``side_u`` / ``side_v`` are the side
    labels of the end segments at ``u`` / ``v``; ``hexes`` are the hexes of the segments.
    """

    u: int
    v: int
    segs: tuple[int, ...]
    inner: tuple[int, ...]
    side_u: int
    side_v: int
    hexes: frozenset[int]


def _protected(problem: Problem) -> set[int]:
    """Nodes some rule names: they keep their own visit literal."""
    net, rules = problem.network, problem.rules
    out = {v for v in range(net.n_nodes) if int(net.node_group[v]) >= 0}
    for bonus in (*rules.set_pair_bonuses, *rules.bonus_routes):
        out |= bonus.a | bonus.b
    for group, _ in rules.min_counted_with:
        out |= group
    return out


def _links(problem: Problem, alive_node: list[bool], segs: list[int]) -> tuple[list[Link], bool]:
    """Contract pass-through junctions; return the links and whether a link closed on itself
    (it is dropped: a route cannot use it without visiting its end twice)."""
    net = problem.network
    protected = _protected(problem)
    incident: dict[int, list[int]] = {}
    for j in segs:
        incident.setdefault(int(net.seg_u[j]), []).append(j)
        incident.setdefault(int(net.seg_v[j]), []).append(j)

    def other(j: int, v: int) -> int:
        return int(net.seg_v[j]) if int(net.seg_u[j]) == v else int(net.seg_u[j])

    def side(j: int, v: int) -> int:
        return int(net.seg_side_u[j]) if int(net.seg_u[j]) == v else int(net.seg_side_v[j])

    def through(v: int) -> bool:
        inc = incident.get(v, [])
        return (
            int(net.node_kind[v]) == _JUNCTION
            and v not in protected
            and len(inc) == 2
            and side(inc[0], v) != side(inc[1], v)
            and other(inc[0], v) != other(inc[1], v)
        )

    done: set[int] = set()
    links: list[Link] = []
    dropped = False
    for j0 in segs:
        if j0 in done:
            continue
        # Walk from j0 to both sides while the node reached is pass-through.
        chain = [j0]
        done.add(j0)
        ends = []
        closed = False
        for start in (int(net.seg_u[j0]), int(net.seg_v[j0])):
            v, j = start, j0
            part: list[tuple[int, int]] = []  # (node, segment beyond it)
            while through(v):
                a, b = incident[v]
                j = b if a == j else a
                if j in done:  # the chain is a cycle of pass-through junctions
                    closed = True
                    break
                done.add(j)
                part.append((v, j))
                v = other(j, v)
            ends.append((v, part))
            if closed:
                break
        if closed or ends[0][0] == ends[1][0]:
            dropped = True
            continue
        (u, left), (v, right) = ends
        seq_segs = [j for _, j in reversed(left)] + chain + [j for _, j in right]
        inner = [n for n, _ in reversed(left)] + [n for n, _ in right]
        links.append(
            Link(
                u=u,
                v=v,
                segs=tuple(seq_segs),
                inner=tuple(inner),
                side_u=side(seq_segs[0], u),
                side_v=side(seq_segs[-1], v),
                hexes=frozenset(int(net.seg_hex[j]) for j in seq_segs),
            )
        )
    return links, dropped


def live_graph(problem: Problem, train: Train) -> tuple[list[int], list[Link]]:
    """Circuit nodes and links some valid route of ``train`` might use.

    Removed are: inadmissible nodes (stops the train can neither designate, skip nor assign,
    terminal junctions); nodes not reachable from a token node along a path whose interior
    avoids terminal nodes and which visits at most as many stops needing finite row room as the
    rows offer (every route visits a token node, and the route contains such a path to each of
    its nodes); junctions that cannot be passed through, i.e. that lack two live segments with
    different side labels leading to different neighbours.  Dropping these never removes a
    valid route, so the optimum is unchanged.  Pass-through junctions are then contracted into
    :class:`Link` objects (a route uses such a junction's two segments together or not at all).

    Returns
    -------
    nodes : sorted list of the node ids that remain circuit nodes.
    links : list of Link.
    """
    net = problem.network
    alive_node = _admissible(problem, train)
    costs, room = _stop_costs(problem, train)
    segs = list(range(net.n_segments))
    while True:
        segs = _prune(problem, alive_node, segs, costs, room)
        links, dropped = _links(problem, alive_node, segs)
        if not dropped:
            break
        kept = {j for link in links for j in link.segs}
        segs = [j for j in segs if j in kept]
    inner = {n for link in links for n in link.inner}
    nodes = [v for v in range(net.n_nodes) if alive_node[v] and v not in inner]
    return nodes, links
