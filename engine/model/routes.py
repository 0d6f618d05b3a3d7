"""Declared 18xx.games routes -> node sequences of the engine's network, and problems fast.

A recorded ``run_routes`` route lists ``connections``: one list of hex ids per stretch of
track from one stop to the next (the *chain*; tobymao/18xx @111f7f69 ``route.rb``
``chain_id``: one hex per track path, a path through an already seen junction skipped, or
``"HEX a.b"`` for a path inside one tile between its nodes ``a`` and ``b``).  Chains keep
their own direction, so consecutive chains share one stop at either end.  Some records also
keep ``nodes`` (``"D6-2"``: hex and part index of each stop) and per-route ``revenue``.

:func:`declared_routes` walks the engine's network along each chain's hexes to find the
stops and the junctions between them; the results go to :func:`routing.validate`.
:func:`position_routes` does the same for a position file, which names its trains but not
their 18xx.games ids.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import routing
from engine.model.fast_board import part_kinds
from engine.model.network_build import BaseNetwork
from engine.model.position import Position
from engine.model.record import ReplayError
from engine.model.title import RouteView, Title, base_network, problem_of_view
from routing import NodeKind

__all__ = [
    "DeclaredRoute",
    "fast_problem",
    "declared_routes",
    "position_routes",
    "declaration_order",
    "route_readings",
]

#: Give up on a route whose chains could be read in more ways than this.
_MAX_READINGS = 64


@dataclass
class DeclaredRoute:
    """One recorded route read onto the network.

    ``readings`` are candidate ``(nodes, segments)`` paths (junctions included), best
    first; usually one.
    """

    train_id: str
    train_index: int
    readings: list[tuple[list[int], list[int]]]
    recorded: int | None
    stops: int


def fast_problem(
    title: Title, position: Position, board, patch: tuple[BaseNetwork, str] | None = None
) -> tuple[routing.Problem, RouteView]:
    """:func:`engine.model.title.build_problem` on a board that already carries the tiles.

    The replay keeps one board and lays tiles as the game goes, so rebuilding the map from
    the title data for every position (what ``build_problem`` does) is skipped; the rest is
    the same sequence: base network, the title hook, its overrides, the problem.  The
    position itself is checked by the replay (tile lays, tokens) and by the title's
    ``check_position`` hook here.

    ``patch``: ``(base, hex)``, as :func:`engine.model.title.base_network` takes it.
    """
    if title.check_position is not None:
        title.check_position(position, board)
    view = RouteView(title, position, board, base_network(title, position, board, patch))
    return problem_of_view(view), view


class _Walker:
    """Chains of one network: junction-only paths between stops along given hexes."""

    def __init__(self, view: RouteView, network: routing.Network) -> None:
        self.view = view
        self.net = network
        self.adj: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
        for j in range(network.n_segments):
            u, v = int(network.seg_u[j]), int(network.seg_v[j])
            su, sv = int(network.seg_side_u[j]), int(network.seg_side_v[j])
            self.adj[u].append((j, v, su, sv))
            self.adj[v].append((j, u, sv, su))
        self.hex_index = {h: i for i, h in enumerate(network.hex_names)}

    def stops_of(self, hex_: str, allowed: set[int] | None) -> list[int]:
        if hex_ not in self.view.board:
            raise ReplayError(f"hex {hex_!r} is not on the map")
        stops = self.view.stop_nodes(hex_)
        if allowed is not None:
            stops = [n for n in stops if n in allowed] or stops
        return stops

    def chains(self, hexes: list[str], allowed: set[int] | None) -> list[tuple]:
        """``(start, end, nodes, segments)`` for every junction-only path from a stop of
        ``hexes[0]`` to a stop of ``hexes[-1]`` whose track runs through exactly ``hexes``."""
        seq = [h for k, h in enumerate(hexes) if k == 0 or h != hexes[k - 1]]
        want = [self.hex_index.get(h, -1) for h in seq]
        if -1 in want:
            return []
        ends = set(self.stops_of(seq[-1], allowed))
        out: list[tuple] = []
        net = self.net
        for start in self.stops_of(seq[0], allowed):
            # depth-first: (node, position in seq, side we entered by, nodes, segments)
            stack = [(start, 0, None, [start], [])]
            while stack:
                node, pos, side_in, path, segs = stack.pop()
                for seg, other, my_side, other_side in self.adj[node]:
                    h = int(net.seg_hex[seg])
                    if h == want[pos]:
                        npos = pos
                    elif pos + 1 < len(want) and h == want[pos + 1]:
                        npos = pos + 1
                    else:
                        continue
                    if node != start and my_side == side_in:
                        continue  # no reversing at a junction
                    if other in path:
                        continue
                    if net.node_kind[other] != NodeKind.JUNCTION:
                        if npos == len(want) - 1 and other in ends and other != start:
                            out.append((start, other, path + [other], segs + [seg]))
                        continue
                    stack.append((other, npos, other_side, path + [other], segs + [seg]))
        return out

    def direct(self, a: int, b: int) -> list[tuple]:
        """Paths of one segment between two nodes of a tile (``"HEX a.b"`` chains)."""
        return [(a, b, [a, b], [seg]) for seg, other, _, _ in self.adj[a] if other == b]


def _chain_options(walker: _Walker, node_of, hexes: list, allowed) -> list:
    """Chains for one connection; ``"HEX a.b"`` names a path between two nodes of a tile."""
    if len(hexes) == 1 and " " in str(hexes[0]):
        hex_, pair = str(hexes[0]).split(" ", 1)
        a, dot, b = pair.partition(".")
        if not (dot and a.isdigit() and b.isdigit()):
            raise ReplayError(f"{hexes[0]!r} is not a path inside a tile ('HEX a.b')")
        return walker.direct(node_of(hex_, int(a)), node_of(hex_, int(b)))
    return walker.chains([str(h).split(" ")[0] for h in hexes], allowed)


def declared_routes(
    state, sym: str, view: RouteView, problem: routing.Problem, action: dict
) -> list[DeclaredRoute]:
    """Read the routes of a ``run_routes`` action onto ``problem``'s network.

    Raises
    ------
    ReplayError
        A train the company does not own, or a chain with no matching track.
    """
    walker = _Walker(view, problem.network)
    trains = state.trains_of(sym)
    index_of = {t.id: i for i, t in enumerate(trains)}

    def node_of(hex_: str, part: int) -> int:
        if hex_ not in view.board:
            raise ReplayError(f"hex {hex_!r} is not on the map")
        kind, index = state.resolve_node(hex_, part)
        node = view.base.index.get((hex_, kind, index))
        if node is None:
            raise ReplayError(f"hex {hex_}: {kind} {index} is not on the company's network")
        return node

    out = []
    for r_i, route in enumerate(action.get("routes") or []):
        where = f"route {r_i + 1} (train {route.get('train')})"
        train_id = str(route.get("train"))
        if train_id not in index_of:
            owned = ", ".join(index_of) or "none"
            raise ReplayError(f"{where}: {sym} does not own train {train_id} (owns {owned})")
        conns = route.get("connections") or []
        if not conns:
            continue
        allowed = None
        if route.get("nodes"):
            allowed = set()
            for sig in route["nodes"]:
                hex_, _, part = str(sig).rpartition("-")
                try:
                    allowed.add(node_of(hex_, int(part)))
                except (KeyError, ReplayError, ValueError):
                    continue
        options = []
        for hexes in conns:
            try:
                opts = _chain_options(walker, node_of, list(hexes), allowed)
            except ReplayError as exc:
                joined = "-".join(map(str, hexes))
                raise ReplayError(f"{where}: connection {joined}: {exc}") from None
            if not opts:
                raise ReplayError(
                    f"{where}: no track on the board joins stops along {'-'.join(map(str, hexes))}"
                )
            options.append(opts)
        readings = _orient(options)
        if not readings:
            raise ReplayError(f"{where}: its chains do not join into one route")
        if allowed:
            readings.sort(key=lambda r: sum(1 for n in r[0] if n in allowed), reverse=True)
        stops = sum(1 for n in readings[0][0] if problem.network.node_kind[n] != NodeKind.JUNCTION)
        out.append(
            DeclaredRoute(train_id, index_of[train_id], readings, route.get("revenue"), stops)
        )
    return out


@dataclass(frozen=True)
class _PositionTrain:
    id: str


class _PositionState:
    """What :func:`declared_routes` reads of a game's state, for a position: the company's
    trains (in the problem's order) under the 18xx.games ids the routes give them, and the
    parts of the tiles on the position's board."""

    def __init__(self, board, train_ids: list[str]) -> None:
        self._board = board
        self._trains = [_PositionTrain(i) for i in train_ids]

    def trains_of(self, sym: str) -> list[_PositionTrain]:
        return list(self._trains)

    def resolve_node(self, hex_: str, part: int) -> tuple[str, int]:
        tile = self._board.tile(hex_)
        kinds = part_kinds(tile.code)
        if not 0 <= part < len(kinds) or kinds[part] is None:
            raise ReplayError(f"hex {hex_}: tile {tile.name} has no node part {part}")
        return kinds[part]


def _train_family(data, name: str) -> set[str]:
    """``name`` and the names it shares a physical train with (1846: a ``5`` is sold as a
    ``5`` or a ``4/6``), as the title's ``TRAINS`` list them."""
    for train in getattr(data, "TRAINS", []):
        names = {str(train["name"]), *(str(v["name"]) for v in train.get("variants", []))}
        if name in names:
            return names
    return {name}


#: Give up on train assignments beyond this many (a position's trains are few).
_MAX_ASSIGNMENTS = 24


def position_routes(view: RouteView, problem: routing.Problem,
                    routes: list[dict]) -> list[list[DeclaredRoute]]:  # fmt: skip
    """Read 18xx.games routes (``train`` id such as ``"5-1"``, ``connections``, optionally
    ``nodes``) onto the network of a position's problem, once for every way their train
    ids can be the position's trains.

    A position names its trains (``4/6``), not their ids: the train of id ``5-1`` is one of
    the problem's trains named ``5`` or a variant of it (``4/6``), one train per id.  When
    several fit (a ``4`` and a ``3/5`` are both ``4-N``), every assignment is read, those
    with exact names first.

    Raises
    ------
    ReplayError
        Naming the route (``route 2 (train 5-1)``): no such train left, or a connection no
        track on the board joins.
    """
    names = [t.name for t in problem.trains]
    first_route: dict[str, int] = {}
    for r_i, route in enumerate(routes):
        first_route.setdefault(str(route.get("train")), r_i)
    fits = {}
    for train_id in first_route:
        name = train_id.rpartition("-")[0] or train_id
        family = _train_family(view.data, name)
        fits[train_id] = sorted((k for k, n in enumerate(names) if n in family),
                                key=lambda k: names[k] != name)  # fmt: skip
    assignments = _assignments(list(first_route), fits)
    if not assignments:
        taken: set[int] = set()
        for train_id, r_i in first_route.items():
            free = [k for k in fits[train_id] if k not in taken]
            if not free:
                name = train_id.rpartition("-")[0] or train_id
                raise ReplayError(
                    f"route {r_i + 1} (train {train_id}): {view.company} has no (further) "
                    f"train {name!r} or a variant of it; trains: {', '.join(names) or 'none'}"
                )
            taken.add(free[0])
    out = []
    for chosen in assignments:
        ids = [f"~unused-{k}" for k in range(len(names))]
        for train_id, k in chosen.items():
            ids[k] = train_id
        state = _PositionState(view.board, ids)
        out.append(declared_routes(state, view.company, view, problem, {"routes": routes}))
    return out


def _assignments(ids: list[str], fits: dict[str, list[int]]) -> list[dict[str, int]]:
    """Every way to give each id its own train among ``fits[id]``, in preference order."""
    found: list[dict[str, int]] = []

    def extend(i: int, chosen: dict[str, int]) -> None:
        if len(found) >= _MAX_ASSIGNMENTS:
            return
        if i == len(ids):
            found.append(dict(chosen))
            return
        for k in fits[ids[i]]:
            if k not in chosen.values():
                chosen[ids[i]] = k
                extend(i + 1, chosen)
                del chosen[ids[i]]

    extend(0, {})
    return found


def _orient(options: list[list[tuple]]) -> list[tuple[list[int], list[int]]]:
    """``(nodes, segments)`` paths joining the chains in order, each in either direction."""
    results: list[tuple[list[int], list[int]]] = []

    def extend(i: int, nodes: list[int], segs: list[int]) -> None:
        if len(results) >= _MAX_READINGS:
            return
        if i == len(options):
            if len(set(nodes)) == len(nodes):
                results.append((nodes, segs))
            return
        for a, b, p, q in options[i]:
            if i == 0:
                extend(1, list(p), list(q))
                extend(1, p[::-1], q[::-1])
            elif nodes[-1] == a:
                extend(i + 1, nodes + p[1:], segs + q)
            elif nodes[-1] == b:
                extend(i + 1, nodes + p[::-1][1:], segs + q[::-1])

    extend(0, [], [])
    seen = set()
    unique = []
    for nodes, segs in results:
        key = (tuple(nodes), tuple(segs))
        if key not in seen:
            seen.add(key)
            unique.append((nodes, segs))
    return unique


def declaration_order(routes: list[DeclaredRoute]) -> list[int]:
    """The order to score declared routes in: most stops first, ties to the larger
    18xx.games train id (string order).

    18xx.games gives the Mail Contract to the route with most stops, ties to the larger train
    id; :func:`routing.validate` gives it to the first best route, so routes are declared to
    it in this order.
    """

    def larger_id_first(train_id: str) -> tuple:
        return (*(-ord(ch) for ch in train_id), 1)

    return sorted(
        range(len(routes)), key=lambda i: (-routes[i].stops, larger_id_first(routes[i].train_id))
    )


def route_readings(routes: list[DeclaredRoute], order: list[int], limit: int = 16):
    """Route sets to try on :func:`routing.validate`: the first reading of every route, then
    single alternatives (a declared route may read onto the network more than one way)."""
    base = [(routes[i].train_index, *routes[i].readings[0]) for i in order]
    yield base
    tried = 1
    for k, i in enumerate(order):
        for alt in routes[i].readings[1:]:
            if tried >= limit:
                return
            choice = list(base)
            choice[k] = (routes[i].train_index, *alt)
            tried += 1
            yield choice
