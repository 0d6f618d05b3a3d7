"""Board → base :class:`routing.Network`.

One node per city, town, offboard and tile junction, plus one junction per hex side where two
hexes' track meets.  Track paths become segments.  The side label of a segment end at a hex-side
junction is the hex the segment lies in, so a route through that junction must cross from one
hex into the other (no reversing on a hex side).  A tile's own junction (Lawson track) gives
every path a side of its own, so any two of its paths may be joined.

Node names: ``D6.c1`` (city 1 of D6), ``D6.t0`` (town), ``D6.o`` (offboard; ``D6.o1`` for a
second one), ``D6.j0`` (tile junction) and ``D6|E7`` (the side between D6 and E7).

:func:`patch_network` makes the network of a board that differs in one hex from a built one,
redoing only that hex's share (what an analysis of candidate lays needs per candidate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, filterfalse

from engine.model.board import Board
from engine.model.tiles.parse import Edge, Revenue
from routing import Network, NodeKind

__all__ = ["BaseNetwork", "NodeInfo", "build_network", "node_name", "patch_network"]

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
    """A built network with its lookups.

    ``links`` is the builder's state before pruning, which :func:`patch_network` starts
    from to change one hex without building the rest again."""

    network: Network
    info: list[NodeInfo]
    index: dict[tuple[str, str, int], int] = field(default_factory=dict)
    group_ids: dict[str, int] = field(default_factory=dict)
    tokens: dict[int, tuple[str, ...]] = field(default_factory=dict)
    links: _Links | None = field(default=None, repr=False, compare=False)


class _Links:
    """The network before pruning: one column per node field, the segments, and what a
    change of one hex needs to find its share (its stops, its paths, the sides they use).

    A segment is ``(u, v, hex rank, side_u, side_v, order)``, ``order`` its path's place in
    its hex (segments sort by hex rank and order into the builder's order); a side of -1 is
    unique to the segment.  ``side_nodes`` maps ``(this hex, the other hex)`` to the
    junction a path of this hex reaches on their side: both keys of a side name one
    junction, or each its own half where the side is split.
    """

    __slots__ = (
        "coords", "rank", "phase_colors", "tokens", "company", "kinds", "values", "hexes",
        "names", "terminals", "infos", "index", "uses", "side_nodes", "segs", "stops_of",
        "paths_of", "used_of", "gone",
    )  # fmt: skip

    def __init__(self, coords: tuple, phase_colors: tuple, tokens: dict, company) -> None:
        self.coords = coords
        self.rank = {c: i for i, c in enumerate(coords)}
        self.phase_colors = phase_colors
        self.tokens = tokens
        self.company = company
        self.kinds: list[int] = []
        self.values: list[int] = []
        self.hexes: list[int] = []
        self.names: list[str] = []
        self.terminals: list[bool] = []
        self.infos: list[NodeInfo] = []
        self.index: dict[tuple[str, str, int], int] = {}
        # paths reaching each side, by (this hex, the other hex)
        self.uses: dict[tuple[str, str], int] = {}
        self.side_nodes: dict[tuple[str, str], int] = {}
        self.segs: list[tuple] = []
        #: hex -> its stop (and tile junction) nodes; its paths on the board; its side uses
        self.stops_of: dict[str, range] = {}
        self.paths_of: dict[str, tuple] = {}
        self.used_of: dict[str, tuple] = {}
        #: nodes a patch took away (still in the columns, left out of the network)
        self.gone: set[int] = set()

    def copy(self) -> _Links:
        """A copy whose columns, look-ups and segment list may change without touching
        this one (the tuples and infos in them are immutable, so shared)."""
        other = _Links.__new__(_Links)
        for name in ("coords", "rank", "phase_colors", "tokens", "company"):
            setattr(other, name, getattr(self, name))
        for name in ("kinds", "values", "hexes", "names", "terminals", "infos", "segs"):
            setattr(other, name, getattr(self, name).copy())
        for name in ("index", "uses", "side_nodes", "stops_of", "paths_of", "used_of", "gone"):
            setattr(other, name, getattr(self, name).copy())
        return other

    def add_hexes(
        self, hexes: list[tuple[str, int, _Fragment]], reuse: Mapping[tuple, int] | None = None
    ) -> list[tuple[str, int, tuple]]:
        """The stops (and tile junctions) of the hexes ``(hex, its rank, fragment)`` as
        nodes, terminal where a city's slots are all other companies' or the stop is an
        offboard; their paths and side uses noted.  A stop whose key ``reuse`` maps to a
        node takes that node's place, else it is a new node.  Returns ``(hex, rank,
        paths)`` of the hexes with paths, for :meth:`add_paths` once every side's uses are
        known."""
        kinds, values, hexes_of, names = self.kinds, self.values, self.hexes, self.names
        terminals, infos, index = self.terminals, self.infos, self.index
        tokens, company, colors, rank = self.tokens, self.company, self.phase_colors, self.rank
        stops_of, paths_of, used_of, uses = self.stops_of, self.paths_of, self.used_of, self.uses
        rank_keys = rank.keys()
        on_board: list[tuple[str, int, tuple]] = []
        for coord, here_rank, fragment in hexes:
            first = len(kinds)
            mine = []
            for key, kind, value, revenue, name, info, token_key, slots in fragment.stops:
                if token_key is not None and company is not None:
                    here = tokens.get(token_key, ())
                    terminal = len(here) >= slots and company not in here
                else:
                    terminal = kind == _OFFBOARD
                value = revenue.value(colors) if value is None else value
                node = reuse.get(key) if reuse else None
                if node is None:
                    node = len(kinds)
                    kinds.append(kind)
                    values.append(value)
                    hexes_of.append(here_rank)
                    names.append(name)
                    infos.append(info)
                    terminals.append(terminal)
                else:
                    kinds[node], values[node], hexes_of[node] = kind, value, here_rank
                    names[node], infos[node], terminals[node] = name, info, terminal
                index[key] = node
                mine.append(node)
            stops_of[coord] = range(first, len(kinds)) if reuse is None else tuple(mine)
            if fragment.paths:
                # a path into a hex this board leaves out (a part of a map) is dropped, as
                # if unlinked
                if rank_keys >= fragment.others:
                    paths, used = fragment.paths, fragment.uses
                else:
                    paths, used = _on_board(coord, fragment, rank)
                on_board.append((coord, here_rank, paths))
                paths_of[coord], used_of[coord] = paths, used
                uses.update(used)
        return on_board

    def add_side(self, side: tuple, hex_rank: int) -> int:
        name, key, info = side
        node = self.index[key] = len(self.kinds)
        self.kinds.append(_JUNCTION)
        self.values.append(0)
        self.hexes.append(hex_rank)
        self.names.append(name)
        self.terminals.append(False)
        self.infos.append(info)
        return node

    def side_node(self, coord: str, end: tuple, k: int) -> int:
        """The junction that the path end ``end`` of hex ``coord`` reaches, made with its
        side's other junctions on first use.  18xx.games forbids two routes on the same hex
        edge even along different paths; one shared junction enforces that only while one
        hex has a single path there.  When both hexes have several, each hex gets its own
        half junction and one crossing segment joins them, so crossing the side uses that
        one (exclusive) segment."""
        rank, uses, side_nodes = self.rank, self.uses, self.side_nodes
        other, here, back, here_side, back_side = end
        if rank[coord] > rank[other]:  # the side's junction is named from its first hex
            coord, other, here, back, here_side, back_side = (
                other, coord, back, here, back_side, here_side
            )  # fmt: skip
        first = self.add_side(here_side, rank[coord])
        if uses[here] >= 2 and uses[back] >= 2:
            second = self.add_side(back_side, rank[other])
            # ordered just before the segment of the path that crosses it first (path k of
            # the side's first hex, which comes first in the builder's order)
            self.segs.append((first, second, rank[coord], rank[other], rank[coord], k - 0.5))
            side_nodes[here], side_nodes[back] = first, second
        else:
            side_nodes[here] = side_nodes[back] = first
        return side_nodes[end[1]]

    def add_paths(self, on_board: list[tuple[str, int, tuple]]) -> None:
        """Segments of the paths ``(hex, its rank, paths)``.  Each path end is a stop of its
        hex (side -1: unique to the segment) or the junction of the side it leads to (side:
        its hex), or nothing for a side that no track reaches from the other hex: a path
        with such an end leads nowhere and makes no segment.  Written out twice, not as a
        function called per end, as this is the builder's hottest loop."""
        index, uses, side_nodes, segs = self.index, self.uses, self.side_nodes, self.segs
        kinds, terminals, side_node = self.kinds, self.terminals, self.side_node
        for coord, here_rank, paths in on_board:
            for k, (a, b, terminal) in enumerate(paths):
                if a[0] is None:
                    u, su = index[a[1]], -1
                elif a[2] in uses:
                    u = side_nodes.get(a[1])
                    if u is None:
                        u = side_node(coord, a, k)
                    su = here_rank
                else:
                    u = su = -1
                if b[0] is None:
                    v, sv = index[b[1]], -1
                elif b[2] in uses:
                    v = side_nodes.get(b[1])
                    if v is None:
                        v = side_node(coord, b, k)
                    sv = here_rank
                else:
                    v = sv = -1
                if u == v:  # both ends on one node, or both lead nowhere
                    continue
                if terminal:
                    # a terminal path makes its stops terminal even where it leads nowhere
                    for node in (u, v):
                        if node >= 0 and kinds[node] != _JUNCTION:
                            terminals[node] = True
                if u >= 0 and v >= 0:
                    segs.append((u, v, here_rank, su, sv, k))


_JUNCTION = int(NodeKind.JUNCTION)


def _fragments_cache(board: Board) -> dict | None:
    """The printed map's cache of fragments, valid while its links hold."""
    return board.printed_facts("network fragments") if board.printed_links_hold() else None


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
        With the state :func:`patch_network` starts from.
    """
    tokens = {k: tuple(v) for k, v in (tokens or {}).items()}
    links = _Links(board.track_hexes(), tuple(phase_colors), tokens, company)
    cache = _fragments_cache(board)
    # the fragments of the printed tiles by hex, so that a hex without a laid tile costs a
    # look-up (the fragment of a laid tile is found by hex, tile and rotation)
    printed = board.printed_facts("printed fragments") if cache is not None else {}
    laid = board.laid  # what board.placed answers first; the rest is the printed tile
    fragments: list[tuple[str, int, _Fragment]] = []
    for here_rank, coord in enumerate(links.coords):
        placed = laid.get(coord)
        if placed is None:
            fragment = printed.get(coord)
            if fragment is None:
                fragment = _fragment(board, coord, board.placed(coord), cache)
                if cache is not None:
                    printed[coord] = fragment
        else:
            fragment = _fragment(board, coord, placed, cache)
        fragments.append((coord, here_rank, fragment))
    on_board = links.add_hexes(fragments)
    # a side that track reaches from one hex only leads nowhere: its paths make no segment
    # (the pruning below would remove them and their junction anyway)
    links.add_paths(on_board)
    return _finish(links)


def patch_network(
    base: BaseNetwork,
    board: Board,
    coord: str,
    phase_colors: Sequence[str],
    tokens: Mapping[tuple[str, int], Sequence[str]] | None = None,
    company: str | None = None,
) -> BaseNetwork | None:
    """:func:`build_network` of ``board``, made from ``base`` when ``board`` differs from
    the board ``base`` was built from in the tile of ``coord`` alone.

    Only that hex's stops and paths, the junctions of its sides whose crossing changes and
    the paths of the neighbours across those sides are made again; the network is the one
    :func:`build_network` makes, nodes and segments alike, but that nodes new to the hex
    come last (nodes that stay keep their places, segments take the builder's order).  The
    caller vouches that the other hexes carry the tiles they carried.

    Returns
    -------
    BaseNetwork or None
        None where ``base`` cannot be patched so: it keeps no build state, ``board`` has
        other hexes, or the phase, the company or a token outside ``coord`` differs.
    """
    old = base.links
    tokens = {k: tuple(v) for k, v in (tokens or {}).items()}
    if (
        old is None
        or coord not in old.rank
        or board.track_hexes() != old.coords
        or tuple(phase_colors) != old.phase_colors
        or company != old.company
        or {k: v for k, v in tokens.items() if k[0] != coord}
        != {k: v for k, v in old.tokens.items() if k[0] != coord}
    ):
        return None
    links = old.copy()
    links.tokens = tokens
    here_rank = links.rank[coord]
    index, uses, side_nodes = links.index, links.uses, links.side_nodes
    # nodes keep their places where they stay (a city upgraded, a side still crossed the
    # same way), so that a lay that changes nothing reachable gives the network unchanged
    old_stops = {}
    for node in links.stops_of.pop(coord):
        info = links.infos[node]
        old_stops[(coord, info.kind, info.index)] = node
    for key in old_stops:
        del index[key]
    old_used = links.used_of.pop(coord, ())
    for key, _n in old_used:
        del uses[key]
    links.paths_of.pop(coord, None)
    fragment = _fragment(board, coord, board.placed(coord), _fragments_cache(board))
    links.add_hexes([(coord, here_rank, fragment)], old_stops)
    gone = links.gone
    gone.update(set(old_stops.values()).difference(links.stops_of[coord]))
    # a side of the hex whose junction changes (made, unmade, split or joined) loses its
    # junctions, and their segments go; the neighbour's paths there are laid again below
    changed = set()
    new_used = links.used_of.get(coord, ())
    for other in {o for (_c, o), _n in old_used} | {o for (_c, o), _n in new_used}:
        here, back = (coord, other), (other, coord)
        was = side_nodes.get(here)
        if was is not None:
            split = side_nodes[back] != was
            if here in uses and back in uses and (uses[here] >= 2 and uses[back] >= 2) == split:
                continue  # crossed as before: its junctions stay
            for node in {was, side_nodes.pop(back)}:
                gone.add(node)
                del index[(links.names[node], "side", 0)]
            del side_nodes[here]
        changed.add(other)
    # the path segments of the hex and of the neighbours across a changed side go (not the
    # crossing segment of a side that stays), and so does every segment through a node that
    # went; those hexes' paths are laid again, in the builder's order
    redo = sorted({here_rank, *(links.rank[o] for o in changed)})
    again = [(links.coords[r], r, links.paths_of[links.coords[r]]) for r in redo
             if links.coords[r] in links.paths_of]  # fmt: skip
    redo_ranks = set(redo)
    links.segs = [
        s for s in links.segs
        if s[0] not in gone and s[1] not in gone and (s[2] not in redo_ranks or 0 <= s[3] != s[2])
    ]  # fmt: skip
    links.add_paths(again)
    links.segs.sort(key=_builder_order)
    return _finish(links)


def _builder_order(segment: tuple) -> tuple:
    """Where :func:`build_network` puts ``segment``: by its hex, then its path."""
    return segment[2], segment[5]


def _finish(links: _Links) -> BaseNetwork:
    """Prune ``links`` into the network."""
    kinds, segs = links.kinds, links.segs
    # ---- prune junctions that no route can pass: fewer than two distinct sides.  Per
    # junction, its segments and how many end there on each side (a side unique to
    # segment j is -(j + 1)); then a worklist: a dead segment takes its side away from
    # both ends, which may leave another junction with a single side, and so on.
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

    for j, (u, v, _h, su, sv, _k) in enumerate(segs):
        if su >= 0:
            note(u, su, j)
        elif kinds[u] == _JUNCTION:
            note(u, -(j + 1), j)
        if sv >= 0:
            note(v, sv, j)
        elif kinds[v] == _JUNCTION:
            note(v, -(j + 1), j)
    dead = [n for n, count in sides.items() if len(count) < 2]
    alive = [True] * len(segs)
    pruned = bool(dead)
    queued = set(dead)
    while dead:
        for j in at[dead.pop()]:
            if not alive[j]:
                continue
            alive[j] = False
            u, v, _h, su, sv, _k = segs[j]
            for node, side in ((u, su), (v, sv)):
                if kinds[node] != _JUNCTION:
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
    # a junction without a live segment is left out, and so is a removed node (the
    # columns are then picked by map and compress, at C speed)
    n_nodes = len(kinds)
    unused = {i for i, kind in enumerate(kinds) if kind == _JUNCTION}.difference(seg_u, seg_v)
    unused.update(links.gone)
    keep = list(filterfalse(unused.__contains__, range(n_nodes)))
    if not keep:
        raise ValueError("the board has no stops, so there is no network to route on")
    columns = (kinds, links.values, links.hexes, links.names, links.terminals, links.infos)
    index = links.index
    if len(keep) < n_nodes:
        remap = dict(zip(keep, range(len(keep)), strict=True))
        columns = tuple(list(map(column.__getitem__, keep)) for column in columns)
        seg_u, seg_v = list(map(remap.__getitem__, seg_u)), list(map(remap.__getitem__, seg_v))
        index = {key: remap[old] for key, old in index.items() if old in remap}
    kinds, values, hexes, names, terminals, infos = columns

    # ---- groups: one id per group name, in order of appearance; a node of several groups
    # keeps the first (titles may override)
    group_ids: dict[str, int] = {}
    node_group = []
    for kind, info in zip(kinds, infos, strict=True):
        groups = info.groups
        for g in groups:
            group_ids.setdefault(g, len(group_ids))
        node_group.append(group_ids[groups[0]] if groups and kind != _JUNCTION else -1)
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
        hex_names=links.coords,
    )
    node_tokens = {
        index[(coord, "city", city)]: tuple(syms)
        for (coord, city), syms in links.tokens.items()
        if (coord, "city", city) in index and syms
    }
    return BaseNetwork(network, list(infos), index, group_ids, node_tokens, links)
