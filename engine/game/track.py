"""Where a company's track network reaches, and which tile lays and tokens that allows.

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
from dataclasses import dataclass, field

from engine.model.board import path_subset
from engine.model.fast_board import city_map
from engine.model.hexgrid import opposite
from engine.model.tiles.parse import Edge, NodeRef

__all__ = [
    "Reach", "reach", "extend", "tile_options", "LayOption", "legal_lays", "uses_fresh_track",
    "lay_problem", "tokenable_cities",
]  # fmt: skip


@dataclass
class Reach:
    """What one company's network reaches.

    Attributes
    ----------
    hexes : dict hex -> set of edges
        Connected edges per hex (``graph.rb`` ``connected_hexes``).
    cities : set of (hex, city)
        Cities the network reaches (``connected_nodes``), blocked ones included.
    track : set of hex
        Hexes holding walked track or a token: every stop of every route lies there.
    """

    hexes: dict[str, set[int]] = field(default_factory=dict)
    cities: set[tuple[str, int]] = field(default_factory=set)
    track: set[str] = field(default_factory=set)
    seen: set = field(default_factory=set, repr=False)


def _blocked(board, tokens, hex_: str, city: int, sym: str) -> bool:
    here = tokens.get((hex_, city), ())
    if sym in here:
        return False
    try:
        return len(here) >= board.city_slots(hex_, city)
    except ValueError:
        return True


#: (tile name, colour, code, rotation) -> {end: [(path index, other end, edges of the path)]}
_ADJ: dict[tuple, dict] = {}


def _adjacency(placed) -> dict:
    tile = placed.tile
    key = (tile.name, tile.color, tile.code, placed.rotation)
    adj = _ADJ.get(key)
    if adj is None:
        adj = {}
        for i, path in enumerate(placed.paths):
            edges = path.edges()
            adj.setdefault(path.a, []).append((i, path.b, edges))
            adj.setdefault(path.b, []).append((i, path.a, edges))
        _ADJ[key] = adj
    return adj


def reach(board, tokens: dict[tuple[str, int], list[str]], sym: str) -> Reach:
    """Walk ``sym``'s network from its station tokens (see the module docstring).

    A walk state is an edge by which the walk enters a hex, or a node of a tile (city,
    town, junction) with the path it arrived by.  Track arriving at a hex edge always
    continues into the neighbour, never back into the same tile, and a walk leaves a node by
    another path than the one it came by (``path.rb``/``node.rb`` ``walk``).
    """
    out = Reach()
    queue: deque = deque()
    for (hex_, city), syms in tokens.items():
        if sym not in syms:
            continue
        out.hexes.setdefault(hex_, set()).update(board.neighbours(hex_).keys())
        out.cities.add((hex_, city))
        queue.append((hex_, NodeRef("city", city), -1))
    out.seen = set(queue)
    _walk(board, tokens, sym, out, queue)
    return out


def extend(board, tokens, sym: str, old: Reach, laid: list[str]) -> Reach:
    """:func:`reach` after tiles were laid on ``laid`` (same tokens): the old walk goes on
    from the edges it entered those hexes by and the tokens there (a lay only adds track
    or city slots; path numbers on the new tiles differ, so node states start again)."""
    out = Reach({h: set(e) for h, e in old.hexes.items()}, set(old.cities), set(old.track))
    where = set(laid)
    out.seen = {s for s in old.seen if s[0] not in where or s[2] is None or s[2] == -1}
    # in a fixed order, not the set's (string hashes differ from process to process)
    queue: deque = deque(sorted((s for s in out.seen if s[0] in where), key=_state_key))
    _walk(board, tokens, sym, out, queue)
    return out


def _state_key(state: tuple) -> tuple:
    hex_, end, via = state
    if isinstance(end, Edge):
        return (hex_, 0, "", end.num, -2 if via is None else via)
    return (hex_, 1, end.kind, end.index, -2 if via is None else via)


def _walk(board, tokens, sym: str, out: Reach, queue: deque) -> None:
    seen = out.seen
    while queue:
        hex_, end, via = queue.popleft()
        edges = out.hexes.setdefault(hex_, set())
        out.track.add(hex_)
        for i, other, path_edges in _adjacency(board.placed(hex_)).get(end, ()):
            if i == via:
                continue
            for e in path_edges:
                edges.add(e)
                nb = board.linked_neighbour(hex_, e)
                if nb is not None:
                    out.hexes.setdefault(nb, set()).add(opposite(e))
            if isinstance(other, Edge):
                nb = board.linked_neighbour(hex_, other.num)
                if nb is None:
                    continue
                nxt = (nb, Edge(opposite(other.num)), None)
            else:
                if other.kind == "city":
                    out.cities.add((hex_, other.index))
                    if _blocked(board, tokens, hex_, other.index, sym):
                        continue
                elif other.kind == "offboard":
                    continue
                nxt = (hex_, other, i)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)


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
    tile = board.manifest_tile(opt.tile)
    paths = tile.rotated_paths(opt.rotation)
    mapping = city_map(old, tile, opt.rotation) if here else {}
    tokens: dict[int, list[str]] = {}
    for c, syms in here:
        if mapping.get(c) is not None:
            tokens.setdefault(mapping[c], []).extend(syms)
    starts = [(Edge(e), -1) for e in enters]
    starts += [(NodeRef("city", c), -1) for c, syms in tokens.items() if sym in syms]
    seen = set(starts)
    stack = list(starts)
    while stack:
        end, via = stack.pop()
        for i, path in enumerate(paths):
            if i == via:
                continue
            if path.a == end:
                far = path.b
            elif path.b == end:
                far = path.a
            else:
                continue
            if i in opt.fresh:
                return True
            if isinstance(far, Edge) or far.kind == "offboard" or path.terminal:
                continue
            if far.kind == "city":
                here = tokens.get(far.index, [])
                if len(here) >= tile.cities[far.index].slots and sym not in here:
                    continue
            if (far, i) not in seen:
                seen.add((far, i))
                stack.append((far, i))
    return False


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
