"""Synthetic 18xx-like boards for benchmarks and tests.

:func:`synthetic_board` lays random tiles on a rectangle of pointy hexes: cities with
several exits, towns, plain track with crossings and curves, offboards along two borders.
Track meets at hex edges through junctions whose side label is the hex, exactly as the
engine builds real boards, so a route cannot reverse at an edge.
"""

from __future__ import annotations

import numpy as np

from .network import Network, NetworkBuilder, NodeKind
from .problem import Problem
from .rules import Rules
from .trains import Train

__all__ = ["synthetic_board", "synthetic_problem"]

# pointy-top axial neighbour offsets, edge e = 0..5
_NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def synthetic_board(
    cols: int = 12,
    rows: int = 10,
    seed: int = 0,
    city_share: float = 0.22,
    town_share: float = 0.10,
    fill: float = 0.95,
    density: float = 0.6,
) -> tuple[Network, list[int]]:
    """A random dense board of ``cols * rows`` hexes.

    Parameters
    ----------
    cols, rows : int
        Board size in hexes (12 x 10 = 120 hexes by default).
    seed : int
        Random seed; the same seed gives the same board.
    city_share, town_share : float
        Fraction of laid hexes holding a city or a town.
    fill : float
        Fraction of hexes with a tile at all (board fill).

    Returns
    -------
    network : Network
    cities : list of int
        The city node ids (for placing tokens).
    """
    rng = np.random.default_rng(seed)
    b = NetworkBuilder()
    coords = [(q - r // 2, r) for r in range(rows) for q in range(cols)]
    index = {c: i for i, c in enumerate(coords)}
    edge_node: dict[tuple[int, int], int] = {}

    def edge_junction(h: int, e: int) -> int:
        q, r = coords[h]
        dq, dr = _NEIGHBOURS[e]
        other = index.get((q + dq, r + dr))
        key = (min(h, other), max(h, other)) if other is not None else (h, -1 - e)
        if key not in edge_node:
            edge_node[key] = b.add_junction(hex=f"h{h}", name=f"e{key[0]}_{key[1]}")
        return edge_node[key]

    # decide which hex edges carry track first, so that tiles line up across edges
    used_edges: list[list[int]] = [[] for _ in coords]
    laid = [rng.random() < fill for _ in coords]
    for h, (q, r) in enumerate(coords):
        for e in range(3):
            dq, dr = _NEIGHBOURS[e]
            other = index.get((q + dq, r + dr))
            if other is not None and laid[h] and laid[other] and rng.random() < density:
                used_edges[h].append(e)
                used_edges[other].append(e + 3)

    cities: list[int] = []
    for h, (q, r) in enumerate(coords):
        name = f"h{h}"
        edges = used_edges[h]
        if not laid[h] or not edges:
            continue
        border = (q + r // 2) in (0, cols - 1)
        roll = rng.random()
        if border and roll < 0.4:
            node = b.add_stop(
                NodeKind.OFFBOARD, int(rng.choice([30, 40, 50, 60])), hex=name, name=f"{name}.o"
            )
        elif roll < city_share:
            node = b.add_stop(
                NodeKind.CITY, int(rng.choice([20, 30, 40, 50])), hex=name, name=f"{name}.c0"
            )
            cities.append(node)
        elif roll < city_share + town_share:
            node = b.add_stop(NodeKind.TOWN, int(rng.choice([10, 20])), hex=name, name=f"{name}.t0")
        else:
            node = -1
        if node >= 0:
            for e in edges:
                b.add_segment(node, edge_junction(h, e), hex=name, side_v=h)
            continue
        # plain track: pair the edges up (curves and straights), crossings allowed
        order = list(rng.permutation(edges))
        if len(order) % 2:
            order.append(int(rng.choice([e for e in range(6) if e not in order])))
        for a, c in zip(order[::2], order[1::2], strict=True):
            b.add_segment(
                edge_junction(h, int(a)), edge_junction(h, int(c)), hex=name, side_u=h, side_v=h
            )
    return b.build(), cities


def synthetic_problem(
    trains: list[Train] | None = None,
    n_tokens: int = 3,
    seed: int = 0,
    **board,
) -> Problem:
    """A :func:`synthetic_board` with a company holding ``n_tokens`` city tokens."""
    net, cities = synthetic_board(seed=seed, **board)
    rng = np.random.default_rng(seed + 1)
    tokens = rng.choice(cities, size=min(n_tokens, len(cities)), replace=False).tolist()
    if trains is None:
        trains = [Train.n("4", 4), Train.n("5", 5)]
    return Problem(net, tuple(trains), Rules.make(token_nodes=tokens), label=f"synthetic-{seed}")
