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
from functools import lru_cache

from engine.model.board import Board
from engine.model.hexgrid import parse_coordinate
from engine.model.tiles.parse import Edge, Revenue
from routing import Network, NetworkBuilder, NodeKind

__all__ = ["BaseNetwork", "NodeInfo", "build_network", "node_name", "hex_sort_key"]

_KIND = {"city": NodeKind.CITY, "town": NodeKind.TOWN, "offboard": NodeKind.OFFBOARD}
_SUFFIX = {"city": "c", "town": "t", "offboard": "o", "junction": "j"}


@lru_cache(maxsize=4096)
def hex_sort_key(coord: str) -> tuple:
    """Natural order of coordinates (``D8`` before ``D10``; cached, every build sorts)."""
    try:
        letters, number = parse_coordinate(coord)
    except ValueError:
        return (coord, 0)
    return (len(letters), letters, number)


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
    coords = sorted(
        (c for c, cell in board.cells.items() if cell.color != "empty"), key=hex_sort_key
    )
    rank = {c: i for i, c in enumerate(coords)}
    # one lookup per hex side for this build (path ends ask for the same sides many times)
    linked_memo: dict[tuple[str, int], str | None] = {}

    def linked(coord: str, edge: int) -> str | None:
        key = (coord, edge)
        if key not in linked_memo:
            linked_memo[key] = board.linked_neighbour(coord, edge)
        return linked_memo[key]

    # ---- nodes: (kind, value, hex, name, terminal, groups, info)
    nodes: list[dict] = []
    index: dict[tuple[str, str, int], int] = {}

    def add_node(key, **attrs) -> int:
        index[key] = len(nodes)
        nodes.append(attrs)
        return index[key]

    specs = [(coord, _tile_spec(board.placed(coord))) for coord in coords]
    for coord, spec in specs:
        for kind, part_index, slots, groups, revenue in spec.parts:
            here = tokens.get((coord, part_index), ())
            blocked = (
                kind == "city"
                and company is not None
                and slots > 0
                and len(here) >= slots
                and company not in here
            )
            add_node(
                (coord, kind, part_index),
                kind=_KIND[kind],
                value=revenue.value(phase_colors),
                hex=coord,
                name=node_name(coord, kind, part_index),
                terminal=kind == "offboard" or blocked,
                info=NodeInfo(coord, kind, part_index, None, groups, revenue, slots),
            )
        if spec.junction:
            add_node(
                (coord, "junction", 0),
                kind=NodeKind.JUNCTION,
                value=0,
                hex=coord,
                name=node_name(coord, "junction"),
                terminal=False,
                info=NodeInfo(coord, "junction"),
            )

    # ---- segments: [u, v, hex, side_u, side_v]; side None = unique to the segment
    segs: list[list] = []
    # Pass 1: resolve path ends; an edge end becomes ("side", neighbour).
    records = []
    uses: dict[tuple[str, str], int] = {}  # (hex, neighbour) -> paths reaching that side
    for coord, spec in specs:
        for ends_spec, terminal in spec.paths:
            ends = []
            for edge, key in ends_spec:
                if key is None:
                    other = linked(coord, edge)
                    ends.append(None if other is None else ("side", other))
                else:
                    node = index.get((coord, *key))
                    ends.append(None if node is None else ("node", node))
            if None in ends:
                continue  # runs off the map, into a cut side, or into a non-route stop
            for kind, other in ends:
                if kind == "side":
                    uses[(coord, other)] = uses.get((coord, other), 0) + 1
            records.append((coord, terminal, ends))

    # Pass 2: side junctions.  18xx.games forbids two routes on the same hex edge even along
    # different paths; one shared junction enforces that only while one hex has a single path
    # there.  When both hexes have several, each hex gets its own half junction and one
    # crossing segment joins them, so crossing the side uses that one (exclusive) segment.
    side_nodes: dict[tuple[str, str], int] = {}

    def add_side(name: str, here: str, there: str) -> int:
        return add_node(
            (name, "side", 0),
            kind=NodeKind.JUNCTION,
            value=0,
            hex=here,
            name=name,
            terminal=False,
            info=NodeInfo(here, "side", 0, there),
        )

    def side_node(coord: str, other: str) -> int:
        a, b = (coord, other) if rank[coord] <= rank[other] else (other, coord)
        split = uses.get((a, b), 0) >= 2 and uses.get((b, a), 0) >= 2
        key = (coord, other) if split else (a, b)
        if key not in side_nodes:
            if split:
                side_nodes[(a, b)] = add_side(f"{a}|{b}", a, b)
                side_nodes[(b, a)] = add_side(f"{b}|{a}", b, a)
                segs.append([side_nodes[(a, b)], side_nodes[(b, a)], a, b, a])
            else:
                side_nodes[(a, b)] = add_side(f"{a}|{b}", a, b)
        return side_nodes[key]

    for coord, terminal, ends in records:
        resolved = [
            (side_node(coord, ref), coord) if kind == "side" else (ref, None) for kind, ref in ends
        ]
        (u, su), (v, sv) = resolved
        if u == v:
            continue
        if terminal:
            for node, _ in resolved:
                if nodes[node]["kind"] != NodeKind.JUNCTION:
                    nodes[node]["terminal"] = True
        segs.append([u, v, coord, su, sv])

    # ---- prune junctions that no route can pass: fewer than two distinct sides.  A
    # worklist: a dead segment takes its side away from both ends, which may leave another
    # junction with a single side, and so on.
    alive = [True] * len(segs)
    junction = [n["kind"] == NodeKind.JUNCTION for n in nodes]
    at: dict[int, list[int]] = {}  # junction -> its segments
    sides: dict[int, dict] = {}  # junction -> side -> segments there
    # each segment's two (node, side) ends; a side unique to the segment is its own
    seg_ends = [((u, ("seg", j) if su is None else su), (v, ("seg", j) if sv is None else sv))
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
    for j, (u, v, *_rest) in enumerate(segs):
        if alive[j]:
            used.update((u, v))
    keep = [i for i, n in enumerate(nodes) if n["kind"] != NodeKind.JUNCTION or i in used]
    remap = {old: new for new, old in enumerate(keep)}

    # ---- groups: one id per group name, in order of appearance
    group_ids: dict[str, int] = {}
    builder = NetworkBuilder()
    for coord in coords:
        builder.hex_id(coord)
    info: list[NodeInfo] = []
    new_index: dict[tuple[str, str, int], int] = {}
    for key, old in index.items():
        if old in remap:
            new_index[key] = remap[old]
    for old in keep:
        n = nodes[old]
        if n["kind"] == NodeKind.JUNCTION:
            builder.add_junction(hex=n["hex"], name=n["name"])
        else:
            group = -1
            for g in n["info"].groups:
                group_ids.setdefault(g, len(group_ids))
            if n["info"].groups:
                # a node of several groups keeps the first; titles may override
                group = group_ids[n["info"].groups[0]]
            builder.add_stop(
                n["kind"],
                n["value"],
                hex=n["hex"],
                name=n["name"],
                terminal=n["terminal"],
                group=group,
            )
        info.append(n["info"])
    for j, (u, v, coord, su, sv) in enumerate(segs):
        if not alive[j]:
            continue
        side_u = builder.hex_id(su) if su is not None else None
        side_v = builder.hex_id(sv) if sv is not None else None
        builder.add_segment(remap[u], remap[v], hex=coord, side_u=side_u, side_v=side_v)

    if not keep:
        raise ValueError("the board has no stops, so there is no network to route on")
    network = builder.build()
    node_tokens = {
        new_index[(coord, "city", city)]: tuple(syms)
        for (coord, city), syms in tokens.items()
        if (coord, "city", city) in new_index and syms
    }
    return BaseNetwork(network, info, new_index, group_ids, node_tokens)
