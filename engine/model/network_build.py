"""Board → base :class:`routing.Network`.

One node per city, town, offboard and tile junction, plus one junction per hex side where two
hexes' track meets.  Track paths become segments.  The side label of a segment end at a hex-side
junction is the hex the segment lies in, so a route through that junction must cross from one
hex into the other (no reversing on a hex side).  A tile's own junction (Lawson track) gives
every path a side of its own, so any two of its paths may be joined.

Node names: ``D6.c1`` (city 1 of D6), ``D6.t0`` (town), ``D6.o`` (offboard; ``D6.o1`` for a
second one), ``D6.j0`` (tile junction) and ``D6|E7`` (the side between D6 and E7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.model.board import Board
from engine.model.tiles.parse import Edge, Revenue
from routing import Network, NodeKind

__all__ = ["BaseNetwork", "NodeInfo", "build_network", "node_name"]

_KIND = {"city": NodeKind.CITY, "town": NodeKind.TOWN, "offboard": NodeKind.OFFBOARD}
_SUFFIX = {"city": "c", "town": "t", "offboard": "o", "junction": "j"}


def node_name(coord: str, kind: str, index: int = 0) -> str:
    """Name of a node part: ``D6.c1``, ``D6.t0``, ``D6.o``, ``D6.j0``."""
    if kind == "offboard" and index == 0:
        return f"{coord}.o"
    return f"{coord}.{_SUFFIX[kind]}{index}"


@dataclass(frozen=True)
class NodeInfo:
    """Where a network node comes from.

    ``kind`` is ``city``, ``town``, ``offboard``, ``junction`` (a tile's junction) or ``side``
    (a hex side; ``coord`` is one hex, ``other`` the other).
    """

    coord: str
    kind: str
    index: int = 0
    other: str | None = None
    groups: tuple[str, ...] = ()
    revenue: Revenue | None = None
    slots: int = 0


@dataclass(frozen=True)
class _TileSpec:
    """What the builder reads of one tile at one rotation, read once per process.

    ``parts``: ``(kind, index, slots, groups, revenue)`` of every route stop;
    ``paths``: ``(((edge, None) | (None, (kind, index))) x 2, terminal)``.
    """

    parts: tuple
    junction: bool
    paths: tuple


#: (id of the tile, rotation) -> (tile, spec); the tile is kept so that its id stays its own
_SPECS: dict[tuple[int, int], tuple[object, _TileSpec]] = {}


def _tile_spec(placed) -> _TileSpec:
    tile = placed.tile
    key = (id(tile), placed.rotation)
    found = _SPECS.get(key)
    if found is not None and found[0] is tile:
        return found[1]
    parts = tuple(
        (kind, part.index, getattr(part, "slots", 0), part.groups, part.revenue)
        for kind, group in (("city", tile.cities), ("town", tile.towns),
                            ("offboard", tile.offboards))  # fmt: skip
        for part in group
        if part.route != "never"  # not a route stop in 18xx.games (ports as bonus markers)
    )
    paths = tuple(
        (
            tuple((end.num, None) if isinstance(end, Edge) else (None, (end.kind, end.index))
                  for end in path.ends()),  # fmt: skip
            path.terminal,
        )
        for path in placed.paths
    )
    spec = _TileSpec(parts, bool(tile.junction), paths)
    _SPECS[key] = (tile, spec)
    return spec


@dataclass(frozen=True)
class _Fragment:
    """One hex's share of the network at one tile and rotation.

    ``stops``: ``(key, kind, part index, slots, revenue, name, info)`` of its stops and
    tile junction (``key`` is the :attr:`BaseNetwork.index` key); ``paths``:
    ``(end, end, terminal)`` of every path that stays on the map, an end being
    ``(None, (kind, index))`` for a stop of the hex or ``(other, None)`` for the side it
    shares with hex ``other``.
    """

    stops: tuple
    paths: tuple


def _fragment(board: Board, coord: str, placed, cache: dict | None) -> _Fragment:
    """The fragment of ``coord`` with ``placed`` on it; kept in ``cache`` (the printed
    map's, valid while its links hold) by hex, tile and rotation."""
    key = (coord, id(placed.tile), placed.rotation)
    if cache is not None:
        found = cache.get(key)
        if found is not None and found[0] is placed.tile:
            return found[1]
    spec = _tile_spec(placed)
    stops = [
        ((coord, kind, index), kind, index, slots, revenue, node_name(coord, kind, index),
         NodeInfo(coord, kind, index, None, groups, revenue, slots))
        for kind, index, slots, groups, revenue in spec.parts
    ]  # fmt: skip
    if spec.junction:
        stops.append(((coord, "junction", 0), "junction", 0, 0, None,
                      node_name(coord, "junction"), NodeInfo(coord, "junction")))  # fmt: skip
    known = {(stop[1], stop[2]) for stop in stops}
    paths = []
    for ends_spec, terminal in spec.paths:
        ends = []
        for edge, stop in ends_spec:
            if stop is None:
                other = board.map_link(coord, edge)
                ends.append(None if other is None else (other, None))
            else:
                ends.append((None, stop) if stop in known else None)
        if None not in ends:  # else: off the map, into a cut side, or a non-route stop
            paths.append((ends[0], ends[1], terminal))
    fragment = _Fragment(tuple(stops), tuple(paths))
    if cache is not None:
        cache[key] = (placed.tile, fragment)
    return fragment


@dataclass
class BaseNetwork:
    """A built network with its lookups."""

    network: Network
    info: list[NodeInfo]
    index: dict[tuple[str, str, int], int] = field(default_factory=dict)
    group_ids: dict[str, int] = field(default_factory=dict)
    tokens: dict[int, tuple[str, ...]] = field(default_factory=dict)


def build_network(
    board: Board,
    phase_colors: Sequence[str],
    tokens: Mapping[tuple[str, int], Sequence[str]] | None = None,
    company: str | None = None,
) -> BaseNetwork:
    """Build the base network of ``board``.

    Parameters
    ----------
    board : Board
    phase_colors : sequence of str
        The phase's tile colours; a per-colour revenue takes the latest colour it names.
    tokens : mapping (hex, city index) -> company symbols
    company : str, optional
        The operating company: a city whose slots are all filled by *other* companies'
        tokens is terminal for it.

    Returns
    -------
    BaseNetwork
    """
    tokens = {k: tuple(v) for k, v in (tokens or {}).items()}
    coords = board.track_hexes()
    rank = {c: i for i, c in enumerate(coords)}
    cache = board.printed_facts("network fragments") if board.printed_links_hold() else None
    fragments = [(coord, _fragment(board, coord, board.placed(coord), cache)) for coord in coords]

    # ---- nodes: [kind, value, hex rank, name, terminal, info]
    nodes: list[list] = []
    index: dict[tuple[str, str, int], int] = {}
    for coord, fragment in fragments:
        here_rank = rank[coord]
        for key, kind, part_index, slots, revenue, name, info in fragment.stops:
            index[key] = len(nodes)
            if revenue is None:  # the tile's junction
                nodes.append([NodeKind.JUNCTION, 0, here_rank, name, False, info])
                continue
            terminal = kind == "offboard"
            if kind == "city" and company is not None and slots > 0:
                here = tokens.get((coord, part_index), ())
                terminal = len(here) >= slots and company not in here
            nodes.append(
                [_KIND[kind], revenue.value(phase_colors), here_rank, name, terminal, info]
            )

    # paths reaching each side, by (this hex, the other hex)
    uses: dict[tuple[str, str], int] = {}
    # a path into a hex this board leaves out (a part of a map) is dropped, as if unlinked
    on_board = [
        (coord, [path for path in fragment.paths
                 if (path[0][0] is None or path[0][0] in rank)
                 and (path[1][0] is None or path[1][0] in rank)])
        for coord, fragment in fragments
    ]  # fmt: skip
    for coord, paths in on_board:
        for a, b, _terminal in paths:
            for other, _stop in (a, b):
                if other is not None:
                    uses[(coord, other)] = uses.get((coord, other), 0) + 1

    # ---- side junctions.  18xx.games forbids two routes on the same hex edge even along
    # different paths; one shared junction enforces that only while one hex has a single
    # path there.  When both hexes have several, each hex gets its own half junction and
    # one crossing segment joins them, so crossing the side uses that one (exclusive)
    # segment.  A side that track reaches from one hex only leads nowhere: its paths are
    # dropped here (the pruning below would remove them and their junction anyway).
    segs: list[tuple] = []  # (u, v, hex rank, side_u, side_v); side -1 = unique
    side_nodes: dict[tuple[str, str], int] = {}

    def add_side(here: str, there: str) -> int:
        side_nodes[(here, there)] = index[(f"{here}|{there}", "side", 0)] = len(nodes)
        nodes.append([NodeKind.JUNCTION, 0, rank[here], f"{here}|{there}", False,
                      NodeInfo(here, "side", 0, there)])  # fmt: skip
        return side_nodes[(here, there)]

    def side_node(coord: str, other: str) -> int:
        a, b = (coord, other) if rank[coord] <= rank[other] else (other, coord)
        split = uses.get((a, b), 0) >= 2 and uses.get((b, a), 0) >= 2
        key = (coord, other) if split else (a, b)
        found = side_nodes.get(key)
        if found is None:
            if split:
                add_side(a, b)
                add_side(b, a)
                segs.append((side_nodes[(a, b)], side_nodes[(b, a)], rank[a], rank[b], rank[a]))
            else:
                add_side(a, b)
            found = side_nodes[key]
        return found

    for coord, paths in on_board:
        here_rank = rank[coord]
        for a, b, terminal in paths:
            ends = []
            for other, stop in (a, b):
                if other is None:
                    ends.append((index[(coord, *stop)], -1))
                elif (other, coord) in uses:
                    ends.append((side_node(coord, other), here_rank))
                else:
                    ends.append(None)  # a side nothing reaches from the other hex
            live = None not in ends
            if live and ends[0][0] == ends[1][0]:
                continue
            if terminal:
                # a terminal path makes its stops terminal even where it leads nowhere
                for end in ends:
                    if end is not None and nodes[end[0]][0] != NodeKind.JUNCTION:
                        nodes[end[0]][4] = True
            if live:
                (u, su), (v, sv) = ends
                segs.append((u, v, here_rank, su, sv))

    # ---- prune junctions that no route can pass: fewer than two distinct sides.  A
    # worklist: a dead segment takes its side away from both ends, which may leave another
    # junction with a single side, and so on.
    alive = [True] * len(segs)
    junction = [n[0] == NodeKind.JUNCTION for n in nodes]
    at: dict[int, list[int]] = {}  # junction -> its segments
    sides: dict[int, dict] = {}  # junction -> side -> segments there
    # each segment's two (node, side) ends; a side unique to the segment is its own
    seg_ends = [((u, ("seg", j) if su < 0 else su), (v, ("seg", j) if sv < 0 else sv))
                for j, (u, v, _, su, sv) in enumerate(segs)]  # fmt: skip
    for j, ends in enumerate(seg_ends):
        for node, side in ends:
            if junction[node]:
                at.setdefault(node, []).append(j)
                count = sides.setdefault(node, {})
                count[side] = count.get(side, 0) + 1
    dead = [n for n, count in sides.items() if len(count) < 2]
    queued = set(dead)
    while dead:
        for j in at[dead.pop()]:
            if not alive[j]:
                continue
            alive[j] = False
            for node, side in seg_ends[j]:
                if not junction[node]:
                    continue
                count = sides[node]
                count[side] -= 1
                if not count[side]:
                    del count[side]
                if len(count) < 2 and node not in queued:
                    queued.add(node)
                    dead.append(node)

    used = set()
    for j, seg in enumerate(segs):
        if alive[j]:
            used.add(seg[0])
            used.add(seg[1])
    keep = [i for i, n in enumerate(nodes) if not junction[i] or i in used]
    if not keep:
        raise ValueError("the board has no stops, so there is no network to route on")
    remap = {old: new for new, old in enumerate(keep)}

    # ---- groups: one id per group name, in order of appearance; a node of several groups
    # keeps the first (titles may override)
    group_ids: dict[str, int] = {}
    node_group = []
    for old in keep:
        groups = nodes[old][5].groups
        for g in groups:
            group_ids.setdefault(g, len(group_ids))
        node_group.append(group_ids[groups[0]] if groups and not junction[old] else -1)
    kept = [nodes[old] for old in keep]
    live = [seg for j, seg in enumerate(segs) if alive[j]]
    # a side label unique to a segment: -(its index + 1), as NetworkBuilder gives it
    seg_sides = [(su if su >= 0 else -(k + 1), sv if sv >= 0 else -(k + 1))
                 for k, (_u, _v, _h, su, sv) in enumerate(live)]  # fmt: skip
    network = Network(
        node_kind=np.array([n[0] for n in kept], dtype=np.int8),
        node_value=np.array([n[1] for n in kept], dtype=np.int32),
        node_hex=np.array([n[2] for n in kept], dtype=np.int32),
        node_terminal=np.array([n[4] for n in kept], dtype=np.bool_),
        node_group=np.array(node_group, dtype=np.int32),
        seg_u=np.array([remap[s[0]] for s in live], dtype=np.int32),
        seg_v=np.array([remap[s[1]] for s in live], dtype=np.int32),
        seg_side_u=np.array([s[0] for s in seg_sides], dtype=np.int32),
        seg_side_v=np.array([s[1] for s in seg_sides], dtype=np.int32),
        seg_hex=np.array([s[2] for s in live], dtype=np.int32),
        node_names=tuple(n[3] for n in kept),
        hex_names=coords,
    )
    new_index = {key: remap[old] for key, old in index.items() if old in remap}
    node_tokens = {
        new_index[(coord, "city", city)]: tuple(syms)
        for (coord, city), syms in tokens.items()
        if (coord, "city", city) in new_index and syms
    }
    return BaseNetwork(network, [n[5] for n in kept], new_index, group_ids, node_tokens)
