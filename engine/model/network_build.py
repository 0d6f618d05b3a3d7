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
from itertools import compress, filterfalse

from engine.model.board import Board
from engine.model.tiles.parse import Edge, Revenue
from routing import Network, NodeKind

__all__ = ["BaseNetwork", "NodeInfo", "build_network", "node_name"]

_KIND = {"city": NodeKind.CITY, "town": NodeKind.TOWN, "offboard": NodeKind.OFFBOARD}
_OFFBOARD = int(NodeKind.OFFBOARD)
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
        for kind, group in (
            ("city", tile.cities),
            ("town", tile.towns),
            ("offboard", tile.offboards),
        )  # fmt: skip
        for part in group
        if part.route != "never"  # not a route stop in 18xx.games (ports as bonus markers)
    )
    paths = tuple(
        (
            tuple(
                (end.num, None) if isinstance(end, Edge) else (None, (end.kind, end.index))
                for end in path.ends()
            ),  # fmt: skip
            path.terminal,
        )
        for path in placed.paths
    )
    spec = _TileSpec(parts, bool(tile.junction), paths)
    _SPECS[key] = (tile, spec)
    return spec


@dataclass(frozen=True)
class _Fragment:
    """One hex's share of the network at one tile and rotation, in the form the builder
    reads: everything here follows from the hex, its tile and the printed map's links, so
    it is worked out once per map and not at every build.

    ``stops``: ``(key, node kind, value, revenue, name, info, token key, slots)`` of its
    stops and tile junction (``key`` is the :attr:`BaseNetwork.index` key; ``value`` the
    revenue when it is flat, else None; ``token key`` the ``(hex, city)`` of a city with
    token slots, else None).  ``paths``: ``(end, end, terminal)`` of every path that stays
    on the map, an end being ``(None, key)`` for a stop of the hex or
    ``(other, (hex, other), (other, hex), here side, there side)`` for the side it shares
    with hex ``other`` (a side being the ``(name, index key, info)`` of its junction as
    seen from that hex).  ``uses``: ``((hex, other), number of path ends there)`` of every
    side the paths reach; ``others``: the hexes across those sides.
    """

    stops: tuple
    paths: tuple
    uses: tuple
    others: frozenset


def _side(here: str, there: str) -> tuple:
    """Name, index key and info of the junction on the side of ``here`` towards ``there``."""
    name = f"{here}|{there}"
    return name, (name, "side", 0), NodeInfo(here, "side", 0, there)


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
        ((coord, kind, index), int(_KIND[kind]), None if revenue.by_color else revenue.flat,
         revenue, node_name(coord, kind, index),
         NodeInfo(coord, kind, index, None, groups, revenue, slots),
         (coord, index) if kind == "city" and slots > 0 else None, slots)
        for kind, index, slots, groups, revenue in spec.parts
    ]  # fmt: skip
    if spec.junction:
        name = node_name(coord, "junction")
        stops.append(((coord, "junction", 0), int(NodeKind.JUNCTION), 0, None, name,
                      NodeInfo(coord, "junction"), None, 0))  # fmt: skip
    known = {(stop[0][1], stop[0][2]) for stop in stops}
    paths = []
    uses: dict[tuple[str, str], int] = {}
    for ends_spec, terminal in spec.paths:
        ends = []
        for edge, stop in ends_spec:
            if stop is None:
                other = board.map_link(coord, edge)
                ends.append(None if other is None else (other, None))
            else:
                ends.append((None, stop) if stop in known else None)
        if None in ends:  # off the map, into a cut side, or a non-route stop
            continue
        path = []
        for other, stop in ends:
            if other is None:
                path.append((None, (coord, *stop)))
            else:
                here = (coord, other)
                uses[here] = uses.get(here, 0) + 1
                path.append((other, here, (other, coord), _side(coord, other), _side(other, coord)))
        paths.append((path[0], path[1], terminal))
    fragment = _Fragment(
        tuple(stops), tuple(paths), tuple(uses.items()), frozenset(o for _c, o in uses)
    )
    if cache is not None:
        cache[key] = (placed.tile, fragment)
    return fragment


def _on_board(coord: str, fragment: _Fragment, rank: Mapping[str, int]) -> tuple[tuple, tuple]:
    """The paths and side uses of ``fragment`` without those into hexes the board leaves
    out (a part of a map), as if those sides were unlinked."""
    paths = tuple(
        path for path in fragment.paths
        if (path[0][0] is None or path[0][0] in rank) and (path[1][0] is None or path[1][0] in rank)
    )  # fmt: skip
    uses: dict[tuple[str, str], int] = {}
    for a, b, _terminal in paths:
        for end in (a, b):
            if end[0] is not None:
                uses[end[1]] = uses.get(end[1], 0) + 1
    return paths, tuple(uses.items())


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
    # the fragments of the printed tiles by hex, so that a hex without a laid tile costs a
    # look-up (the fragment of a laid tile is found by hex, tile and rotation)
    printed = board.printed_facts("printed fragments") if cache is not None else {}
    laid = board.laid  # what board.placed answers first; the rest is the printed tile
    rank_keys = rank.keys()
    JUNCTION = int(NodeKind.JUNCTION)  # the constant as a plain int, for speed

    # ---- nodes, one column per field: kind, value, hex rank, name, terminal, info
    kinds: list[int] = []
    values: list[int] = []
    hexes: list[int] = []
    names: list[str] = []
    terminals: list[bool] = []
    infos: list[NodeInfo] = []
    index: dict[tuple[str, str, int], int] = {}
    # paths reaching each side, by (this hex, the other hex)
    uses: dict[tuple[str, str], int] = {}
    on_board: list[tuple[str, int, tuple]] = []
    for here_rank, coord in enumerate(coords):
        placed = laid.get(coord)
        if placed is None:
            fragment = printed.get(coord)
            if fragment is None:
                fragment = _fragment(board, coord, board.placed(coord), cache)
                if cache is not None:
                    printed[coord] = fragment
        else:
            fragment = _fragment(board, coord, placed, cache)
        for key, kind, value, revenue, name, info, token_key, slots in fragment.stops:
            index[key] = len(kinds)
            kinds.append(kind)
            values.append(revenue.value(phase_colors) if value is None else value)
            hexes.append(here_rank)
            names.append(name)
            infos.append(info)
            if token_key is not None and company is not None:
                here = tokens.get(token_key, ())
                terminals.append(len(here) >= slots and company not in here)
            else:
                terminals.append(kind == _OFFBOARD)
        if fragment.paths:
            # a path into a hex this board leaves out (a part of a map) is dropped, as if
            # unlinked
            if rank_keys >= fragment.others:
                on_board.append((coord, here_rank, fragment.paths))
                uses.update(fragment.uses)
            else:
                paths, used = _on_board(coord, fragment, rank)
                on_board.append((coord, here_rank, paths))
                uses.update(used)

    # ---- side junctions.  18xx.games forbids two routes on the same hex edge even along
    # different paths; one shared junction enforces that only while one hex has a single
    # path there.  When both hexes have several, each hex gets its own half junction and
    # one crossing segment joins them, so crossing the side uses that one (exclusive)
    # segment.  A side that track reaches from one hex only leads nowhere: its paths are
    # dropped here (the pruning below would remove them and their junction anyway).
    segs: list[tuple] = []  # (u, v, hex rank, side_u, side_v); side -1 = unique
    # (this hex, the other hex) -> the junction a path of this hex reaches there: both
    # keys of a side name one junction, or each its own half where the side is split
    side_nodes: dict[tuple[str, str], int] = {}

    def add_side(side: tuple, hex_rank: int) -> int:
        name, key, info = side
        node = index[key] = len(kinds)
        kinds.append(JUNCTION)
        values.append(0)
        hexes.append(hex_rank)
        names.append(name)
        terminals.append(False)
        infos.append(info)
        return node

    # the pruning below needs, per junction, its segments and how many end there on each
    # side; they are counted as the segments are made.  A side unique to segment j is
    # -(j + 1).
    at: dict[int, list[int]] = {}  # junction -> its segments
    sides: dict[int, dict] = {}  # junction -> side -> segments there

    def note(node: int, side: int, j: int) -> None:
        found = at.get(node)
        if found is None:
            at[node] = [j]
            sides[node] = {side: 1}
        else:
            found.append(j)
            count = sides[node]
            count[side] = count.get(side, 0) + 1

    def side_node(coord: str, end: tuple) -> int:
        other, here, back, here_side, back_side = end
        if rank[coord] > rank[other]:  # the side's junction is named from its first hex
            coord, other, here, back, here_side, back_side = (
                other, coord, back, here, back_side, here_side
            )  # fmt: skip
        first = add_side(here_side, rank[coord])
        if uses[here] >= 2 and uses[back] >= 2:
            second = add_side(back_side, rank[other])
            j = len(segs)
            segs.append((first, second, rank[coord], rank[other], rank[coord]))
            note(first, rank[other], j)
            note(second, rank[coord], j)
            side_nodes[here], side_nodes[back] = first, second
        else:
            side_nodes[here] = side_nodes[back] = first
        return side_nodes[end[1]]

    # each path end is a stop of its hex (side label -1: unique to the segment) or the
    # junction of the side it leads to (side label: its hex), or nothing (-1) for a side
    # that no track reaches from the other hex; written out twice, not as a function
    # called per end, as this is the builder's hottest loop
    for coord, here_rank, paths in on_board:
        for a, b, terminal in paths:
            if a[0] is None:
                u, su = index[a[1]], -1
            elif a[2] in uses:
                u = side_nodes.get(a[1])
                if u is None:
                    u = side_node(coord, a)
                su = here_rank
            else:
                u = su = -1
            if b[0] is None:
                v, sv = index[b[1]], -1
            elif b[2] in uses:
                v = side_nodes.get(b[1])
                if v is None:
                    v = side_node(coord, b)
                sv = here_rank
            else:
                v = sv = -1
            if u == v:  # both ends on one node, or both lead nowhere
                continue
            if terminal:
                # a terminal path makes its stops terminal even where it leads nowhere
                for node in (u, v):
                    if node >= 0 and kinds[node] != JUNCTION:
                        terminals[node] = True
            if u >= 0 and v >= 0:
                j = len(segs)
                segs.append((u, v, here_rank, su, sv))
                if su >= 0:
                    note(u, su, j)
                elif kinds[u] == JUNCTION:
                    note(u, -(j + 1), j)
                if sv >= 0:
                    note(v, sv, j)
                elif kinds[v] == JUNCTION:
                    note(v, -(j + 1), j)

    # ---- prune junctions that no route can pass: fewer than two distinct sides.  A
    # worklist: a dead segment takes its side away from both ends, which may leave another
    # junction with a single side, and so on.
    dead = [n for n, count in sides.items() if len(count) < 2]
    alive = [True] * len(segs)
    pruned = bool(dead)
    queued = set(dead)
    while dead:
        for j in at[dead.pop()]:
            if not alive[j]:
                continue
            alive[j] = False
            u, v, _h, su, sv = segs[j]
            for node, side in ((u, su), (v, sv)):
                if kinds[node] != JUNCTION:
                    continue
                count = sides[node]
                side = side if side >= 0 else -(j + 1)
                count[side] -= 1
                if not count[side]:
                    del count[side]
                if len(count) < 2 and node not in queued:
                    queued.add(node)
                    dead.append(node)

    live_segs = list(compress(segs, alive)) if pruned else segs
    seg_u, seg_v = ([s[k] for s in live_segs] for k in (0, 1))
    # a junction without a live segment is left out (the columns are then picked by
    # map and compress, at C speed)
    n_nodes = len(kinds)
    unused = {i for i, kind in enumerate(kinds) if kind == JUNCTION}.difference(seg_u, seg_v)
    keep = list(filterfalse(unused.__contains__, range(n_nodes)))
    if not keep:
        raise ValueError("the board has no stops, so there is no network to route on")
    if len(keep) < n_nodes:
        remap = dict(zip(keep, range(len(keep)), strict=True))
        kinds, values, hexes, names, terminals, infos = (
            list(map(column.__getitem__, keep))
            for column in (kinds, values, hexes, names, terminals, infos)
        )  # fmt: skip
        seg_u, seg_v = list(map(remap.__getitem__, seg_u)), list(map(remap.__getitem__, seg_v))
        new_index = {key: remap[old] for key, old in index.items() if old in remap}
    else:
        new_index = index

    # ---- groups: one id per group name, in order of appearance; a node of several groups
    # keeps the first (titles may override)
    group_ids: dict[str, int] = {}
    node_group = []
    for kind, info in zip(kinds, infos, strict=True):
        groups = info.groups
        for g in groups:
            group_ids.setdefault(g, len(group_ids))
        node_group.append(group_ids[groups[0]] if groups and kind != JUNCTION else -1)
    # a side label unique to a segment: -(its index + 1), as NetworkBuilder gives it
    network = Network(
        node_kind=kinds,
        node_value=values,
        node_hex=hexes,
        node_terminal=terminals,
        node_group=node_group,
        seg_u=seg_u,
        seg_v=seg_v,
        seg_side_u=[s[3] if s[3] >= 0 else -(k + 1) for k, s in enumerate(live_segs)],
        seg_side_v=[s[4] if s[4] >= 0 else -(k + 1) for k, s in enumerate(live_segs)],
        seg_hex=[s[2] for s in live_segs],
        node_names=tuple(names),
        hex_names=coords,
    )
    node_tokens = {
        new_index[(coord, "city", city)]: tuple(syms)
        for (coord, city), syms in tokens.items()
        if (coord, "city", city) in new_index and syms
    }
    return BaseNetwork(network, infos, new_index, group_ids, node_tokens)
