"""Routes as people and 18xx.games read them: stop labels, and ``run_routes`` actions.

:func:`run_routes_action` turns a :class:`routing.Solution` into the ``run_routes`` action
18xx.games takes: per route the train id and its ``connections``, one list of hex ids per
stretch of track from one stop to the next, the inverse of what
:func:`engine.model.routes.declared_routes` reads (a stretch inside one tile between two of
its nodes is ``"HEX a.b"``, the tile's part numbers).  Each route also names its stops in
``nodes`` (``"D6-2"``: hex and part number), which tells apart the cities of a hex such as
Chicago's four.
"""

from __future__ import annotations

import routing
from engine.model.fast_board import part_kinds
from routing import NodeKind

__all__ = ["stop_label", "route_stops", "connections", "stop_parts", "run_routes_action"]


def stop_label(view, network, node: int) -> str:
    """``D6.c1 Chicago``: node name plus the hex's location name."""
    coord = network.hex_names[int(network.node_hex[node])]
    name = view.location_name(coord) if coord in view.board else None
    node_name = network.node_names[node]
    return f"{node_name} {name}" if name else node_name


def route_stops(view, network, route: routing.RouteResult) -> list[dict]:
    """The stops of ``route`` in order: node, label, hex, value and whether it counts."""
    counted = set(route.counted)
    out = []
    for n in route.nodes:
        if network.node_kind[n] == NodeKind.JUNCTION:
            continue
        out.append(
            {
                "node": int(n),
                "name": network.node_names[n],
                "label": stop_label(view, network, n),
                "hex": network.hex_names[int(network.node_hex[n])],
                "value": int(network.node_value[n]),
                "counted": n in counted,
            }
        )
    return out


def _part(view, node: int) -> tuple[str, int] | None:
    """``(hex, 18xx.games part number)`` of a base-network stop, None for other nodes."""
    info = view.base.info
    if not 0 <= node < len(info) or info[node].kind not in ("city", "town", "offboard"):
        return None
    item = info[node]
    kinds = part_kinds(view.board.tile(item.coord).code)
    key = (item.kind, item.index)
    return (item.coord, kinds.index(key)) if key in kinds else None


def stop_parts(view, network, nodes) -> list[str]:
    """``"HEX-part"`` of every stop of a node sequence (18xx.games route ``nodes``)."""
    out = []
    for n in nodes:
        if network.node_kind[n] == NodeKind.JUNCTION:
            continue
        part = _part(view, int(n))
        if part is not None:
            out.append(f"{part[0]}-{part[1]}")
    return out


def connections(view, network, nodes, segments) -> list[list[str]]:
    """18xx.games ``connections`` of a route: the hexes of each stretch between stops."""
    nodes, segments = [int(n) for n in nodes], [int(s) for s in segments]
    n_base = len(view.base.info)
    chains: list[tuple[list[int], list[int]]] = []
    cur_nodes, cur_segs = [nodes[0]], []
    for k, seg in enumerate(segments):
        nxt = nodes[k + 1]
        cur_nodes.append(nxt)
        cur_segs.append(seg)
        # a node a title added (nxt >= n_base) is no stop of the map: the stretch goes on
        if network.node_kind[nxt] != NodeKind.JUNCTION and nxt < n_base:
            chains.append((cur_nodes, cur_segs))
            cur_nodes, cur_segs = [nxt], []
    out = []
    for chain_nodes, chain_segs in chains:
        hexes: list[str] = []
        for s in chain_segs:
            h = int(network.seg_hex[s])
            if not 0 <= h < len(network.hex_names):
                continue
            name = network.hex_names[h]
            if not hexes or hexes[-1] != name:
                hexes.append(name)
        a, b = _part(view, chain_nodes[0]), _part(view, chain_nodes[-1])
        if len(chain_segs) == 1 and a and b and a[0] == b[0] and hexes == [a[0]]:
            out.append([f"{a[0]} {a[1]}.{b[1]}"])  # a path inside one tile
        elif hexes:
            out.append(hexes)
    return out


def run_routes_action(
    view,
    network,
    solution: routing.Solution,
    company: str,
    train_ids: list[str],
) -> dict:
    """The 18xx.games ``run_routes`` action that runs ``solution``'s routes.

    ``train_ids`` are the 18xx.games ids of the problem's trains, in its order.
    """
    routes = []
    for r in solution.routes:
        routes.append(
            {
                "train": train_ids[r.train],
                "connections": connections(view, network, r.nodes, r.segments),
                "nodes": stop_parts(view, network, r.nodes),
                "revenue": int(r.revenue),
            }
        )
    return {
        "type": "run_routes",
        "entity": company,
        "entity_type": "corporation",
        "routes": routes,
    }
