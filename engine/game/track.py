"""The track walk, where a company's network reaches, and which tile lays and tokens that
allows.

:func:`walk` is the engine's one walk over tile paths; its options serve every title's
connection checks (a company's network here, 1846's Little Miami, 1836Jr's route to a
second stop and destinations) and the walk inside a hex of :func:`uses_fresh_track`.

Facts follow tobymao/18xx @111f7f69 (MIT): ``lib/engine/graph.rb`` ``compute`` (a walk from
every city holding the company's token; the token hexes count as reached on all sides; a
city whose slots are all taken by other companies and offboards end the walk; every edge a
walked path uses, and the facing edge of the neighbour, is "connected"),
``lib/engine/step/tracker.rb`` ``legal_tile_rotation?`` (a new tile's exits must all lead
onto the map and at least one must be a connected edge; old track is kept) and
``check_track_restrictions!`` (``:semi_restrictive``: an upgrade must add track or change a
city's value), ``lib/engine/city.rb`` ``tokenable?`` (a free, unreserved slot; one token per
company per hex).

The tile-colour ladder, labels, city and town counts and the title's own tile checks are
:meth:`engine.game.state.GameState.tile_problems`; their answer depends only on the hex's
current tile and the phase's colours, so it is cached per process.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.model.board import Board, PlacedTile, path_subset
from engine.model.fast_board import city_map
from engine.model.hexgrid import opposite
from engine.model.tiles.parse import Edge, NodeRef

__all__ = [
    "Walk", "walk", "Reach", "reach", "extend", "tile_options", "LayOption", "legal_lays",
    "uses_fresh_track", "lay_problem", "tokenable_cities",
]  # fmt: skip

#: A node on the map: its hex, and the kind and index of the node part on the hex's tile
#: (``("B5", "city", 0)``; plain tuples, which hash fast).
Node = tuple[str, str, int]

#: Node kinds that count as stops for :func:`walk`'s ``stops``.
_STOPS = frozenset({"city", "town", "offboard"})

#: :func:`walk`'s ``turns``.
_TURNS = ("never", "nodes", "always")

#: Edge number -> the facing edge number, and the facing :class:`Edge` (built once: the
#: walk crosses hex sides all the time)
_OPPOSITE = tuple(opposite(e) for e in range(6))
_FACING = tuple(Edge(opposite(e)) for e in range(6))


@dataclass
class Walk:
    """What a :func:`walk` reached.

    Attributes
    ----------
    hexes : dict hex -> set of edges
        Connected edges per hex: every edge of a path the walk took, and the facing edge of
        the neighbour across it (``graph.rb`` ``connected_hexes``).
    nodes : set of (hex, kind, index)
        Nodes the walk reached (``connected_nodes``), the starts and those that end it
        (blocked cities, offboards, ...) included.
    track : set of hex
        Hexes the walk entered: every stop of every route lies there.
    seen : set of states
        The walk's states ``(hex, end, via)``: ``end`` is the :class:`Edge` by which it
        entered the hex (``via`` None), a node it is at having come by path ``via`` of
        the hex's tile (-1: a start, or any path when it may turn at nodes), or a path
        index (a path start, ``via`` None).
    done : bool
        Whether the walk ended early at a goal or at enough stops.
    """

    hexes: dict[str, set[int]] = field(default_factory=dict)
    nodes: set[Node] = field(default_factory=set)
    track: set[str] = field(default_factory=set)
    seen: set = field(default_factory=set, repr=False)
    done: bool = False

    @property
    def cities(self) -> set[tuple[str, int]]:
        """``(hex, city index)`` of the cities among :attr:`nodes`."""
        return {(h, i) for h, kind, i in self.nodes if kind == "city"}


class Reach(Walk):
    """What one company's network reaches: :func:`reach`'s walk from its station tokens
    (the token hexes count as connected on all sides)."""


#: (tile name, colour, code, rotation) -> {path end or path index: [(path index, other
#: end, edges of the path, terminal)]}; a path index leads to both ends of that path
_ADJ: dict[tuple, dict] = {}


def _adjacency(placed) -> dict:
    tile = placed.tile
    key = (tile.name, tile.color, tile.code, placed.rotation)
    adj = _ADJ.get(key)
    if adj is None:
        adj = {}
        for i, path in enumerate(placed.paths):
            edges = path.edges()
            adj.setdefault(path.a, []).append((i, path.b, edges, path.terminal))
            adj.setdefault(path.b, []).append((i, path.a, edges, path.terminal))
            adj[i] = [(i, path.b, edges, path.terminal), (i, path.a, edges, path.terminal)]
        _ADJ[key] = adj
    return adj


def walk(
    board: Board,
    starts: Iterable[tuple[str, Edge | NodeRef | int]],
    *,
    overlay: Mapping[str, PlacedTile] | None = None,
    tokens: Mapping[tuple[str, int], Sequence[str]] | None = None,
    sym: str | None = None,
    pass_offboards: bool = False,
    pass_terminal: bool = True,
    no_pass: Collection = (),
    turns: str = "never",
    within: Collection[str] | None = None,
    goal: Collection = (),
    stops: int = 0,
    no_stop: Collection[str] = (),
    out: Walk | None = None,
) -> Walk:
    """Walk the track of ``board`` from ``starts``, breadth first (``node.rb``/``path.rb``
    ``walk``, ``graph.rb`` ``compute``): the one track walk of the engine.

    A walk takes every path of a tile from where it is.  At a node it goes on by the
    node's other paths; at a hex side it crosses into the neighbour's paths on the facing
    side (:meth:`~engine.model.board.Board.linked_neighbour`: not off the map, not over
    an impassable border).

    Parameters
    ----------
    board : Board
        The map and its tiles.
    starts : iterable of (hex, end)
        Where the walk starts: a :class:`NodeRef` (at that node, leaving by all its
        paths; the node counts as reached), an :class:`Edge` (entering the hex over that
        side, as track coming from the neighbour) or a path index of the hex's tile (that
        path, walked both ways).
    overlay : mapping hex -> PlacedTile, optional
        Hexes whose tile is replaced for this walk (a lay being tried; not a red, gray
        or blue hex, whose linking :meth:`~engine.model.board.Board.linked_neighbour`
        reads off the board).
    tokens : mapping (hex, city) -> companies, optional
        Station tokens: a city whose slots are all taken by companies other than ``sym``
        ends the walk (``city.rb`` ``blocks?``).  None: no city blocks.
    sym : str, optional
        The company walking (its own tokens never block).
    pass_offboards : bool
        Whether the walk goes on through offboards (default: they end it).
    pass_terminal : bool
        Whether the walk goes on through the node a terminal path leads to (default:
        yes; False as ``path.rb``, where a terminal path ends the walk).
    no_pass : collection of hexes and (hex, kind, index) nodes
        Nodes the walk reaches but does not go on from: those named and every node on
        the hexes named (an avoided node, never-pass port hexes).
    turns : {"never", "nodes", "always"}
        Whether the walk may go back the way it came.  "never" (as a train runs): it
        leaves a node by another path than the one it came by.  "nodes": it may leave a
        node by the path it came by too.  "always": at a hex side it also turns into the
        other paths of its own hex on that side (when the neighbour has track there), as
        a walk over every path touching a reached path does.
    within : collection of hexes, optional
        Hexes the walk stays in: it does not cross into any other hex.
    goal : collection of hexes, (hex, path index) paths and (hex, kind, index) nodes
        The walk ends (``done``) as soon as it enters a hex named over a side with track
        there, takes a path named or reaches a node named (a start counts).
    stops : int
        When positive, the walk ends (``done``) as soon as it has reached that many
        distinct stops: cities, towns and offboards (the starts count), none on a hex of
        ``no_stop``.
    no_stop : collection of hexes
        Hexes whose nodes are not stops for ``stops`` (``route: never``).
    out : Walk, optional
        A walk to go on (its states are seen already; ``starts`` may be among them).

    Returns
    -------
    Walk
        ``out`` (or a new :class:`Walk`) with what the walk reached, stopped early when
        ``done``.

    Raises
    ------
    ValueError
        If ``turns`` is not one of its values.
    """
    if turns not in _TURNS:
        raise ValueError(f"turns must be one of {_TURNS}, not {turns!r}")
    if out is None:
        out = Walk()
    hexes, nodes, track, seen = out.hexes, out.nodes, out.track, out.seen
    counted = 0
    queue: deque = deque()
    for hex_, end in starts:
        if isinstance(end, NodeRef):
            node = (hex_, end.kind, end.index)
            nodes.add(node)
            if node in goal:
                out.done = True
            queue.append((hex_, end, -1))
        else:
            queue.append((hex_, end, None))
    if stops:
        counted = sum(1 for h, kind, _i in nodes if kind in _STOPS and h not in no_stop)
        if counted >= stops:
            out.done = True
    if out.done:
        return out
    seen.update(queue)
    if overlay:

        def placed_at(hex_: str):
            found = overlay.get(hex_)
            return found if found is not None else board.placed(hex_)

    else:
        placed_at = board.placed
    linked = board.linked_neighbour
    node_turns = turns != "never"
    side_turns = turns == "always"
    at_sides = side_turns or within is not None or bool(goal)
    watch = bool(goal) or stops > 0
    fussy = bool(no_pass) or not pass_terminal
    adjacency, back, facing, is_edge = _adjacency, _OPPOSITE, _FACING, Edge
    while queue:
        hex_, end, via = queue.popleft()
        placed = placed_at(hex_)
        edges = hexes.setdefault(hex_, set())
        track.add(hex_)
        for i, other, path_edges, terminal in adjacency(placed).get(end, ()):
            if i == via:
                continue
            if goal and (hex_, i) in goal:
                out.done = True
                return out
            for e in path_edges:
                edges.add(e)
                nb = linked(hex_, e)
                if nb is not None:
                    hexes.setdefault(nb, set()).add(back[e])
            if type(other) is is_edge:
                nb = linked(hex_, other.num)
                if nb is None:
                    continue
                nxt = (nb, facing[other.num], None)
                if at_sides:
                    if within is not None and nb not in within:
                        continue
                    on = adjacency(placed_at(nb)).get(nxt[1])
                    if on and nb in goal:
                        out.done = True
                        return out
                    if on and side_turns:
                        turn = (hex_, other, None)
                        if turn not in seen:
                            seen.add(turn)
                            queue.append(turn)
            else:
                kind = other.kind
                index = other.index
                node = (hex_, kind, index)
                if not watch:
                    nodes.add(node)
                elif node not in nodes:
                    nodes.add(node)
                    if node in goal:
                        out.done = True
                        return out
                    if stops and kind in _STOPS and hex_ not in no_stop:
                        counted += 1
                        if counted >= stops:
                            out.done = True
                            return out
                if kind == "city":
                    if tokens is not None:
                        here = tokens.get((hex_, index), ())
                        if sym not in here:
                            cities = placed.tile.cities
                            if index >= len(cities) or len(here) >= cities[index].slots:
                                continue
                elif kind == "offboard" and not pass_offboards:
                    continue
                if fussy and (
                    (terminal and not pass_terminal) or hex_ in no_pass or node in no_pass
                ):
                    continue
                nxt = (hex_, other, -1 if node_turns else i)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return out


def reach(board, tokens: dict[tuple[str, int], list[str]], sym: str) -> Reach:
    """Walk ``sym``'s network from its station tokens (see the module docstring).

    :func:`walk` from every city holding a ``sym`` token, cities full of other
    companies' tokens and offboards ending it; the token hexes count as connected on all
    sides.
    """
    out = Reach()
    starts = []
    for (hex_, city), syms in tokens.items():
        if sym not in syms:
            continue
        out.hexes.setdefault(hex_, set()).update(board.neighbours(hex_).keys())
        starts.append((hex_, NodeRef("city", city)))
    return walk(board, starts, tokens=tokens, sym=sym, out=out)


def extend(board, tokens, sym: str, old: Reach, laid: list[str]) -> Reach:
    """:func:`reach` after tiles were laid on ``laid`` (same tokens): the old walk goes on
    from the edges it entered those hexes by and the tokens there (a lay only adds track
    or city slots; path numbers on the new tiles differ, so node states start again)."""
    out = Reach({h: set(e) for h, e in old.hexes.items()}, set(old.nodes), set(old.track))
    where = set(laid)
    out.seen = {s for s in old.seen if s[0] not in where or s[2] is None or s[2] == -1}
    # in a fixed order, not the set's (string hashes differ from process to process)
    again = sorted((s for s in out.seen if s[0] in where), key=_state_key)
    return walk(board, [(h, end) for h, end, _via in again], tokens=tokens, sym=sym, out=out)


def _state_key(state: tuple) -> tuple:
    hex_, end, via = state
    if isinstance(end, Edge):
        return (hex_, 0, "", end.num, -2 if via is None else via)
    return (hex_, 1, end.kind, end.index, -2 if via is None else via)


@dataclass(frozen=True)
class LayOption:
    """One tile at one rotation that may go on a hex (supply and connection aside).

    ``fresh`` are the indices of its paths that are new track or change the value of a
    stop on them (``check_track_restrictions!``); an upgrade is legal only if the company
    reaches one of them.
    """

    tile: str
    rotation: int
    exits: frozenset[int]
    upgrade: bool
    adds_track: bool
    color: str = ""
    fresh: frozenset[int] = frozenset()


#: (title id, hex, current tile, rotation) -> options for every phase
_OPTIONS: dict[tuple, tuple[LayOption, ...]] = {}


def tile_options(state, hex_: str) -> tuple[LayOption, ...]:
    """Every manifest tile and rotation the rules allow on ``hex_`` now, ignoring supply and
    connection (cached per hex tile; every rotation, even one with the same track)."""
    placed = state.board.placed(hex_)
    colors = tuple(state.phase.get("tiles", ()))
    key = (state.title.id, hex_, placed.tile.name, placed.rotation, colors)
    found = _PHASED.get(key)
    if found is None:
        every = key[:4]
        cached = _OPTIONS.get(every)
        if cached is None:
            cached = _OPTIONS[every] = _all_options(state, hex_, placed)
        found = _PHASED[key] = tuple(o for o in cached if o.color in colors)
    return found


#: the same, for one phase's colours
_PHASED: dict[tuple, tuple[LayOption, ...]] = {}


def _all_options(state, hex_: str, placed) -> tuple[LayOption, ...]:
    """:func:`tile_options` for every phase (the phase's colours filter it)."""
    board = state.board
    from engine.model.tiles import COLOR_ORDER

    cur = board.color(hex_)
    out: list[LayOption] = []
    if cur in COLOR_ORDER and cur != COLOR_ORDER[-1]:
        want = COLOR_ORDER[COLOR_ORDER.index(cur) + 1]
        old_exits = frozenset(placed.exits)
        upgrade = cur != "white"  # 1846 TILE_LAYS: replacing a coloured tile upgrades
        cur_tile = placed.tile
        # an exit must lead onto the map (board.exit_problems), checked first
        valid = {e for e in range(6) if board.linked_neighbour(hex_, e) is not None}
        # a future label is printed on the hex (1836Jr-56 H6/I3/E5), not on the laid tile
        relabel = cur_tile.future_label or board.check_hex(hex_).printed.future_label
        for name, (tile, _count) in board.manifest.items():
            if tile.color != want:
                continue
            # cheap necessary conditions before the full check: towns kept, a city for a
            # city, the label
            if len(tile.towns) != len(cur_tile.towns) and not any(
                t.to_city for t in cur_tile.towns
            ):
                continue
            if cur_tile.cities and not tile.cities:
                continue
            if cur_tile.label != tile.label and not relabel:
                continue
            for rot in range(6):
                new_exits = set(tile.exits(rot))
                if not old_exits <= new_exits or not new_exits <= valid:
                    continue  # an upgrade keeps every old exit
                problems = state.tile_problems(hex_, tile, rot)
                problems = [p for p in problems if not p.startswith(("no tile", "phase "))]
                if problems:
                    continue
                exits = frozenset(tile.exits(rot))
                fresh = _fresh_paths(placed, tile, rot) if upgrade else frozenset()
                out.append(LayOption(name, rot, exits, upgrade, bool(fresh), tile.color, fresh))
    return tuple(out)


def _revenues(tile, path) -> list[int]:
    parts = {"city": tile.cities, "town": tile.towns, "offboard": tile.offboards}
    return sorted(
        parts[e.kind][e.index].revenue.max
        for e in path.ends()
        if isinstance(e, NodeRef) and e.kind in parts
    )


def _fresh_paths(placed, tile, rotation: int) -> frozenset[int]:
    """Paths of ``tile`` that no old path covers, or that cover one with other stop values
    (``:semi_restrictive``: new track or a changed city)."""
    new_paths = tile.rotated_paths(rotation)
    uncovered = path_subset(new_paths, placed.paths)
    out = set()
    for i, np_ in enumerate(new_paths):
        if np_ in uncovered:
            out.add(i)
            continue
        old = next((p for p in placed.paths if not path_subset((np_,), (p,))), None)
        if old is not None and _revenues(placed.tile, old) != _revenues(tile, np_):
            out.add(i)
    return frozenset(out)


#: (hex, old tile, rotation, new tile, rotation, entry edges, tokens there, company) -> bool
_FRESH: dict[tuple, bool] = {}


def _entries(net: Reach) -> dict[str, frozenset[int]]:
    """Edges by which ``net``'s walk enters each hex (built once per walk)."""
    found = net.__dict__.get("_entries")
    if found is None:
        by_hex: dict[str, set[int]] = {}
        for h, end, via in net.seen:
            if via is None:
                by_hex.setdefault(h, set()).add(end.num)
        found = net.__dict__["_entries"] = {h: frozenset(e) for h, e in by_hex.items()}
    return found


def uses_fresh_track(
    state, sym: str, net: Reach, hex_: str, opt: LayOption, here: tuple = ()
) -> bool:
    """After the upgrade, does ``sym``'s walk inside the hex use one of ``opt.fresh``?

    Only the walk inside the hex changes: it starts at the edges by which the network
    entered the hex and at ``sym``'s tokens there.
    ``here`` are the ``(city, companies)`` tokens on the hex.
    """
    board = state.board
    old = board.placed(hex_)
    enters = _entries(net).get(hex_, frozenset())
    key = (hex_, old.tile.name, old.rotation, opt.tile, opt.rotation, enters, here, sym)
    found = _FRESH.get(key)
    if found is None:
        found = _FRESH[key] = _walk_fresh(board, old, sym, hex_, opt, enters, here)
    return found


def _walk_fresh(board, old, sym, hex_, opt, enters, here) -> bool:
    """:func:`walk` inside ``hex_`` with ``opt`` laid, from the edges ``enters`` and
    ``sym``'s tokens there (``here``, following their cities to the new tile): does it
    take a path of ``opt.fresh``?  Terminal paths end it too (``path.rb``)."""
    tile = board.manifest_tile(opt.tile)
    mapping = city_map(old, tile, opt.rotation) if here else {}
    tokens: dict[tuple[str, int], list[str]] = {}
    for c, syms in here:
        if mapping.get(c) is not None:
            tokens.setdefault((hex_, mapping[c]), []).extend(syms)
    starts = [(hex_, Edge(e)) for e in enters]
    starts += [(hex_, NodeRef("city", c)) for (_h, c), syms in tokens.items() if sym in syms]
    overlay = {hex_: PlacedTile(tile, opt.rotation, False)}
    found = walk(board, starts, overlay=overlay, tokens=tokens, sym=sym, pass_terminal=False,
                 within=(hex_,), goal={(hex_, i) for i in opt.fresh})  # fmt: skip
    return found.done


def legal_lays(state, sym: str, net: Reach, hexes=None) -> list[tuple[str, LayOption]]:
    """``(hex, option)`` pairs ``sym`` may lay: connected (a new exit on a connected edge),
    tiles in supply, upgrades adding track or changing a city (``:semi_restrictive``).

    ``hexes`` limits the hexes looked at (a private's ability); they then need no
    connection.
    """
    board = state.board
    in_use = board.tiles_in_use()
    manifest = board.manifest
    cells = board.cells
    on_hex: dict[str, list] = {}
    for (h, c), syms in state.tokens.items():
        on_hex.setdefault(h, []).append((c, tuple(syms)))
    out = []
    # sorted: the order of the legal list must not depend on how the walk was cached
    targets = hexes if hexes is not None else sorted(net.hexes)
    for hex_ in targets:
        if hex_ not in cells:
            continue
        edges = net.hexes.get(hex_, set()) if hexes is None else None
        here = tuple(sorted(on_hex.get(hex_, ())))
        for opt in tile_options(state, hex_):
            if opt.upgrade and not opt.adds_track:
                continue
            if edges is not None and opt.exits.isdisjoint(edges):
                continue
            if in_use[opt.tile] >= manifest[opt.tile][1]:
                continue
            if (
                opt.upgrade
                and hexes is None
                and not uses_fresh_track(state, sym, net, hex_, opt, here)
            ):
                continue
            out.append((hex_, opt))
    return out


def lay_problem(
    state, sym: str, net: Reach, hex_: str, tile: str, rotation: int, restrictive: bool = True
) -> str | None:
    """Why :func:`legal_lays` leaves out ``tile`` at ``rotation`` on ``hex_`` for ``sym``
    (None: it lists it), for a lay that :meth:`GameState.tile_problems` allows: no
    connection, no exit on a connected edge, or (``restrictive``, 18xx.games
    ``:semi_restrictive``) an upgrade that gives ``sym`` no new track or changed city."""
    edges = net.hexes.get(hex_)
    if not edges:
        return f"{hex_} is not connected to {sym}'s network"
    exits = frozenset(state.board.manifest_tile(tile).exits(rotation))
    if exits.isdisjoint(edges):
        on = ", ".join(str(e) for e in sorted(edges))
        return (
            f"tile {tile} rotation {rotation} on {hex_} does not connect to {sym}'s network "
            f"(no exit on its connected edge{'s' if len(edges) > 1 else ''} {on})"
        )
    if not restrictive:
        return None
    opt = next((o for o in tile_options(state, hex_) if (o.tile, o.rotation) == (tile, rotation)),
               None)  # fmt: skip
    if opt is None or not opt.upgrade:
        return None
    here = tuple(sorted((c, tuple(syms)) for (h, c), syms in state.tokens.items() if h == hex_))
    if not opt.adds_track or not uses_fresh_track(state, sym, net, hex_, opt, here):
        return (
            f"tile {tile} rotation {rotation} on {hex_} gives {sym} no new track or a changed "
            "city it reaches (semi-restrictive track rule)"
        )
    return None


def tokenable_cities(state, sym: str, net: Reach) -> list[tuple[str, int]]:
    """Cities ``sym``'s network reaches with a slot it may take (not in a hex where it
    already has a token)."""
    mine = {h for (h, _c), syms in state.tokens.items() if sym in syms}
    out = []
    for hex_, city in sorted(net.cities):
        if hex_ in mine:
            continue
        if state.city_room(hex_, city, sym) is None:
            out.append((hex_, city))
    return out
