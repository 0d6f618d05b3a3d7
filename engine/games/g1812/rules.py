"""Revenue rules of 1812 as a :class:`engine.model.title.RouteSpec` hook.

Rule mapping (rulebook ``shared/seeds/1812-rules.txt``; facts in :mod:`.data`):

=============================================  =============================================
rule                                           expressed as
=============================================  =============================================
N-train (2, 3, 4, 5): at most N cities and     ``Train`` row (city|town|offboard, N, N),
red areas; intermediate small cities may be    ``skip`` = town (and mine); ports are in no
skipped, large ones not (§7.3.4)               row, so passenger trains cannot run to them
3+1: plus the value of one small city          second row (town, 1, 1)
3D: any 3 cities/red areas, value doubled,     ``Train.express`` (counts the best 3, skips
N–S bonus included                             anything), ``multiplier=2``
G-train: runs to a port, has a mine on the     ``end_kinds`` = PORT, ``designated_kind`` =
route; neither counts towards the number;      MINE (one mine scored, distinct across the
one mine scored, different for each G-train    company's routes), a port row without limit
1G / 2G: 1 / 2 cities, small ones skippable    row (city|town|offboard, n, n), skip town
2+1G / 3+2G / 4+2G: plus 1 / 2 / 2 small       second row (town, k, k): "up to five cities,
cities                                         up to three large" for 3+2G
2+2GD: 2 large cities or red areas + 2 small   rows (city|offboard, 2), (town, 2), skip
cities + a mine, doubled                       anything, ``multiplier=2``
ports are blue offboards in 18xx.games         kind override OFFBOARD -> PORT (terminal)
port worth £0 unless the company owns the      ``Rules.node_bonus`` on the port node (only
private (Newcastle F3, Hartlepool G6, Whitby)  G-trains reach ports)
city / red-area privates (+10 Leeds ...)       ``Rules.node_bonus`` (counted stops only, so a
                                               doubling train doubles it, §7.3.4)
privates #1-#10 close in Phase 5               bonuses of P1-P10 ignored from Phase 5
red areas and ports end a route, except        engine: offboards terminal, Derby/Newark are
Derby and Newark (§7.1)                        red-hex *cities* (pass-through unless full)
Leeds/Newcastle/York in yellow: a route may    one network group per hex with two city
not include both circles (§7.1)                nodes (route scope)
a red area at most once: Carlisle is A4 + A8   one network group for A4 and A8
N–S bonus: ends are an N and an S area, both   ``EndPairBonus(N: bonus, S: 0, counted)``,
counted; by phase                              multiplied by 3D's multiplier
mine value by phase (map table)                value of the mine nodes
a mine ends only a mine-to-port G-run          ``forbidden_end_pairs`` (mines x non-ports)
each G-train a different mine (one mine hex    ``Rules.designated_keys``: every mine node
has one mine node per path)                    keyed by its hex
3D / 2+2GD: one counted city holds a station   ``Rules.token_counted`` (exact for every
                                               train, see below)
=============================================  =============================================

Mines
-----
A mine is a pickaxe marker on a hex (18xx.games: ``icon=image:mine`` on B15, D7, E2 and on
the small cities Doncaster D17 and Durham E6); it is on a route when the route uses track in
that hex (§7.3.4 "must have a mine on the route"; "a hex with both a mine and a small city
... may include both").  The base network has no node for it, so :func:`add_mine_nodes`
splits every track segment lying in a mine hex with a MINE stop of the phase's mine value:
a plain path gets one mine node in its middle, a small-city tile one on each path between
the hex side and the town.  This keeps the topology (nodes only in series, never joining
paths) and puts a mine node on every route through the hex.

Route ends at a mine: a G-train may run from a mine to a port (§7.3.4 "runs to a hex with
both a mine and a small city"; the map table is the "mine to port" value), so a route may
end at a mine node when its other end is a port (only G-trains reach ports).  No other route
ends at a mine (``forbidden_end_pairs``: mines x every non-port stop): a mine is worth
nothing to a passenger train and must not stand in for the second city it needs (§7.3.4
"Each non-G Train must include at least two cities").  A G-train ending at a small city in a
mine hex without counting it is then the same run as ending at the mine, which the rulebook
allows ("may include both" the mine and the small city).

Distinct mines: a hex with several paths has several mine nodes, so "each G-train must include
a different mine" (§7.3.4) is ``Rules.designated_keys`` with the mine hex as key: two routes
may not designate two mine nodes of one hex (e.g. two runs ending at Durham from two sides).

Station counted: "3D trains count any 3 cities or Red Off-board Areas (at least one ... must
contain a Station Marker of the Company)", and the same for 2+2GD (§7.3.4), is
``Rules.token_counted``.  The flag applies to every train of the company, which is exact:
station markers sit only in (large) cities, and every other train may not skip a large city
(its rows hold ``city`` with pay = visit and its ``skip`` has no ``city``), so such a train
counts every token city it visits; only 3D and 2+2GD, which may skip anything, are constrained.

The mine-augmented network reaches :func:`engine.model.title.build_problem` as ``RouteSpec.network``
(node ids of the base network are kept, mine nodes are appended); ``view.network`` is left as
the base network, so the hook has no side effect on the view.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

import routing
from engine.games.g1812 import data
from engine.model.title import RouteSpec, RouteView
from routing import NodeKind, kind_mask

__all__ = [
    "route_spec",
    "check_tile",
    "make_train",
    "train_spec",
    "is_goods",
    "value_index",
    "open_companies",
    "add_mine_nodes",
    "mine_value",
    "north_south_bonus",
]

_KINDS = {"city": NodeKind.CITY, "town": NodeKind.TOWN, "offboard": NodeKind.OFFBOARD}
_PORT = kind_mask(NodeKind.PORT)
_MINE = kind_mask(NodeKind.MINE)


# ----------------------------------------------------------------------------- trains
def train_spec(name: str) -> dict:
    """The ``data.TRAINS`` entry for ``name``, a variant merged over its train.

    Raises
    ------
    KeyError
        For a name that is neither a train nor a variant of 1812.
    """
    for train in data.TRAINS:
        if train["name"] == name:
            return {k: v for k, v in train.items() if k != "variants"}
        for variant in train.get("variants", []):
            if variant["name"] == name:
                base = {k: v for k, v in train.items() if k not in ("variants", "multiplier")}
                return {**base, **variant}
    raise KeyError(f"1812: unknown train {name!r}")


def is_goods(name: str) -> bool:
    """Is ``name`` a G-train (the goods side of a card)?"""
    return bool(train_spec(name).get("goods"))


def _mask(kinds: Iterable[str]) -> int:
    return kind_mask(*(_KINDS[k] for k in kinds))


def make_train(name: str) -> routing.Train:
    """The routing train for an 1812 train name (``"3+1"``, ``"4+2G"``, ``"3D"`` ...).

    Parameters
    ----------
    name : str
        A train or variant name of ``data.TRAINS``.

    Returns
    -------
    routing.Train
        Rows from the data's ``distance``; ``skip`` from the data plus mines; G-trains end at
        a port (counted in a row of its own, worth only private bonuses) and score exactly
        one mine (``designated_kind``).
    """
    spec = train_spec(name)
    rows = [routing.TrainRow(_mask(r["nodes"]), r["pay"], r["visit"]) for r in spec["distance"]]
    skip = _mask(spec.get("skip", []))
    multiplier = int(spec.get("multiplier", 1))
    if len(rows) == 1 and skip & rows[0].kinds == rows[0].kinds:
        # May skip every kind it counts (3D): it counts the best N of any number visited.
        rows = [routing.TrainRow(rows[0].kinds, rows[0].pay, routing.UNLIMITED)]
    if spec.get("goods"):
        # The port is a route end and counts towards nothing; the mine is designated.
        rows.append(routing.TrainRow(_PORT, routing.UNLIMITED, routing.UNLIMITED))
        return routing.Train(
            name,
            tuple(rows),
            skip=skip,
            multiplier=multiplier,
            end_kinds=_PORT,
            designated_kind=_MINE,
        )
    # Passenger trains pass mines without counting them and have no row for ports.
    return routing.Train(name, tuple(rows), skip=skip | _MINE, multiplier=multiplier)


# ----------------------------------------------------------------------------- phase facts
def value_index(phase: str) -> int:
    """Which printed value (0-3) of red areas, mines and the N–S bonus ``phase`` uses."""
    return data.PHASE_VALUE_INDEX[str(phase)]


def mine_value(phase: str) -> int:
    """Value of a scored mine in ``phase`` (map table at I3)."""
    return data.MINE_VALUES[value_index(phase)]


def north_south_bonus(phase: str) -> int:
    """North–South bonus in ``phase`` (map table at I1)."""
    return data.NORTH_SOUTH_BONUS[value_index(phase)]


def open_companies(owned: Sequence[str], phase: str) -> list[str]:
    """Owned privates still open in ``phase`` (#1-#10 close at the start of Phase 5)."""
    order = [p["name"] for p in data.PHASES]
    closed = order.index(str(phase)) >= order.index(data.COMPANIES_CLOSE_PHASE)
    return [c for c in owned if not closed or c in data.PERMANENT_COMPANIES]


# ----------------------------------------------------------------------------- mines
def add_mine_nodes(
    network: routing.Network, mine_hexes: Iterable[str], value: int
) -> tuple[routing.Network, dict[str, list[int]]]:
    """Split every segment lying in a mine hex with a MINE stop.

    Parameters
    ----------
    network : routing.Network
        The base network.
    mine_hexes : iterable of str
        Hex names holding a mine.
    value : int
        The phase's mine value, given to every mine node.

    Returns
    -------
    (routing.Network, dict)
        The new network, whose first ``network.n_nodes`` nodes are the old ones unchanged,
        and the mine nodes by hex (hexes without track have none).
    """
    hex_ids = {name: i for i, name in enumerate(network.hex_names)}
    wanted = {hex_ids[h] for h in mine_hexes if h in hex_ids}
    n = network.n_nodes
    kinds, values = list(network.node_kind), list(network.node_value)
    hexes, terminal = list(network.node_hex), list(network.node_terminal)
    groups, names = list(network.node_group), list(network.node_names)
    seg = [
        list(network.seg_u),
        list(network.seg_v),
        list(network.seg_side_u),
        list(network.seg_side_v),
        list(network.seg_hex),
    ]
    out = [[], [], [], [], []]
    mines: dict[str, list[int]] = {}
    # Side labels at stops are ignored, so the new halves get fresh labels below every
    # label in use (labels of the old ends are kept, which keeps junction rules intact).
    fresh = min([0, *(int(x) for x in seg[2] + seg[3])]) - 1
    for j in range(network.n_segments):
        u, v, su, sv, h = (int(col[j]) for col in seg)
        if h not in wanted:
            for col, x in zip(out, (u, v, su, sv, h), strict=True):
                col.append(x)
            continue
        hex_name = network.hex_names[h]
        m = len(kinds)
        kinds.append(int(NodeKind.MINE))
        values.append(int(value))
        hexes.append(h)
        terminal.append(False)
        groups.append(-1)
        names.append(f"{hex_name}.m{len(mines.get(hex_name, []))}")
        mines.setdefault(hex_name, []).append(m)
        for row in ((u, m, su, fresh, h), (m, v, fresh - 1, sv, h)):
            for col, x in zip(out, row, strict=True):
                col.append(x)
        fresh -= 2
    if len(kinds) == n:
        return network, {}
    net = routing.Network(
        node_kind=np.array(kinds),
        node_value=np.array(values),
        node_hex=np.array(hexes),
        node_terminal=np.array(terminal),
        node_group=np.array(groups),
        seg_u=np.array(out[0]),
        seg_v=np.array(out[1]),
        seg_side_u=np.array(out[2]),
        seg_side_v=np.array(out[3]),
        seg_hex=np.array(out[4]),
        node_names=tuple(names),
        hex_names=network.hex_names,
    )
    return net, mines


def _stop_nodes(view: RouteView, hexes: Iterable[str], kind: NodeKind | None = None) -> list[int]:
    out = []
    for h in hexes:
        out.extend(n for n in view.stop_nodes(h) if kind is None or view.kind_of(n) == kind)
    return out


# ----------------------------------------------------------------------------- tile lays
def check_tile(board, hex: str, tile, rotation: int, problems: list[str]) -> list[str]:  # noqa: A002
    """Title tile check: city-named tiles (§7.3.2 "Leeds in grey and Hull in brown").

    A named tile goes only on its city, and that city takes only its named tile in that
    colour.  ``problems`` are the engine's findings; the result adds ours.
    """
    out = list(problems)
    named = data.NAMED_TILES
    if tile.name in named and named[tile.name] != hex:
        out.append(f"tile {tile.name!r} may only be laid on {named[tile.name]}")
    for name, home in named.items():
        if home == hex and tile.name != name and tile.color == board.manifest_tile(name).color:
            out.append(f"hex {hex} takes only tile {name!r} in {tile.color}")
    return out


# ----------------------------------------------------------------------------- the hook
def route_spec(view: RouteView) -> RouteSpec:
    """1812 rules for the operating company of ``view`` (see the module table).

    Parameters
    ----------
    view : RouteView

    Returns
    -------
    RouteSpec
    """
    phase = str(view.phase["name"])
    trains = [make_train(name) for name in view.trains]
    base = view.network

    kind: dict[int, NodeKind] = {}
    ports = _stop_nodes(view, data.PORT_HEXES, NodeKind.OFFBOARD)
    for node in ports:
        kind[node] = NodeKind.PORT

    # Groups: new ids after the engine's.  A route visits one node of each at most.
    group: dict[int, int] = {}
    next_id = base.n_groups
    areas = [list(hexes) for hexes in data.MULTI_HEX_AREAS.values()]
    circles = [_stop_nodes(view, [h], NodeKind.CITY) for h in data.TWO_CIRCLE_HEXES]
    for members in [*(_stop_nodes(view, hexes) for hexes in areas), *circles]:
        if len(members) > 1:  # upgraded two-circle hexes have one city: nothing to group
            for node in members:
                group[node] = next_id
            next_id += 1

    # Private bonuses (P1-P10 close in Phase 5).  Several privates on one hex add up.
    node_bonus: dict[int, int] = {}
    by_sym = {c["sym"]: c for c in data.COMPANIES}
    for sym in open_companies(view.owned_companies, phase):
        for ability in by_sym.get(sym, {}).get("abilities", []):
            if ability["type"] != "hex_bonus":
                continue
            for node in _stop_nodes(view, ability["hexes"]):
                node_bonus[node] = node_bonus.get(node, 0) + int(ability["amount"])

    # North-South: one end an N area, the other an S area, both counted.
    north = _stop_nodes(view, data.NORTH_HEXES)
    south = _stop_nodes(view, data.SOUTH_HEXES)
    ns = north_south_bonus(phase)
    end_pairs = []
    if north and south:
        end_pairs.append(
            routing.EndPairBonus.make(
                {n: ns for n in north}, {s: 0 for s in south}, name="north-south", counted=True
            )
        )

    network, mines = add_mine_nodes(base, data.MINE_HEXES, mine_value(phase))
    mine_nodes = [m for nodes in mines.values() for m in nodes]
    forbidden = []
    if mine_nodes:
        # Mine-to-port runs only: a mine ends a route only opposite a port.
        port_set = set(ports)
        others = [i for i in range(network.n_nodes) if network.is_stop(i) and i not in port_set]
        forbidden.append((mine_nodes, others))

    # Each G-train a different mine: the nodes of one mine hex are one mine.
    hex_ids = {name: i for i, name in enumerate(network.hex_names)}
    mine_keys = {m: hex_ids[h] for h, nodes in mines.items() for m in nodes}

    rules = routing.Rules.make(
        token_nodes=view.own_token_nodes,
        node_bonus=node_bonus,
        forbidden_end_pairs=forbidden,
        end_pair_bonuses=end_pairs,
        token_counted=True,
        designated_keys=mine_keys,
    )
    return RouteSpec(
        trains=trains,
        rules=rules,
        kind=kind,
        group=group,
        network=network if network is not base else None,
    )
