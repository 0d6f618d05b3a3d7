"""SVG drawing of a board, its tokens and (optionally) routes.

The drawing is schematic: hexes in their map colour, track as lines or curves through the
hex centre, cities as circles with one ring per slot (tokens filled and labelled), towns as
small discs, offboard values as text, labels, location names and hex ids.  Routes are
polylines through the nodes they visit, one colour per train.  Elements carry ``class`` and
``data-*`` attributes so tests (and CSS) can find them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape

from engine.model.board import Board
from engine.model.network_build import BaseNetwork
from engine.model.tiles.parse import Edge, NodeRef

__all__ = ["render_svg", "ROUTE_COLORS"]

_FILL = {
    "white": "#f2efe2",
    "yellow": "#f5e04a",
    "green": "#6fbf56",
    "brown": "#c8874a",
    "gray": "#b8b8b8",
    "red": "#e0524a",
    "blue": "#5aa7e0",
    "sepia": "#b89a6a",
}
#: Distinct route colours, cycled per train.
ROUTE_COLORS = ("#d62728", "#1f77b4", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#2ca02c")

_R = 48.0  # hex circumradius in px


def _fmt(v: float) -> str:
    return f"{v:.1f}"


def _attr(**kw) -> str:
    return " ".join(
        f'{k.rstrip("_").replace("_", "-")}="{escape(str(v), {chr(34): "&quot;"})}"'
        for k, v in kw.items()
        if v is not None
    )


class _Layout:
    """Pixel positions of hexes, edges and stops."""

    def __init__(self, board: Board):
        self.board = board
        self.grid = board.grid
        self.coords = [c for c, cell in board.cells.items() if cell.color != "empty"]
        pts = [p for c in self.coords for p in self.grid.corners(c, _R)]
        xs, ys = [p[0] for p in pts] or [0.0], [p[1] for p in pts] or [0.0]
        margin = 10.0
        self.dx, self.dy = margin - min(xs), margin - min(ys)
        self.width = max(xs) - min(xs) + 2 * margin
        self.height = max(ys) - min(ys) + 2 * margin

    def center(self, coord: str) -> tuple[float, float]:
        x, y = self.grid.center(coord, _R)
        return x + self.dx, y + self.dy

    def edge_point(self, coord: str, edge: int) -> tuple[float, float]:
        cx, cy = self.center(coord)
        vx, vy = self.grid.edge_vector(edge, _R)
        return cx + vx, cy + vy

    def corners(self, coord: str) -> list[tuple[float, float]]:
        return [(x + self.dx, y + self.dy) for x, y in self.grid.corners(coord, _R)]

    def stop_point(self, coord: str, kind: str, index: int) -> tuple[float, float]:
        """Where a city/town/offboard of ``coord`` is drawn."""
        placed = self.board.placed(coord)
        tile = placed.tile
        stops = [("city", c.index) for c in tile.cities] + [("town", t.index) for t in tile.towns]
        cx, cy = self.center(coord)
        if kind == "offboard" or len(stops) <= 1:
            return cx, cy
        ref = NodeRef(kind, index)
        edges = [
            e.num for p in placed.paths if ref in p.ends() for e in p.ends() if isinstance(e, Edge)
        ]
        if edges:
            # pull the stop towards the sides its track leaves by
            vx = sum(self.grid.edge_vector(e, _R)[0] for e in edges) / len(edges)
            vy = sum(self.grid.edge_vector(e, _R)[1] for e in edges) / len(edges)
            return cx + 0.5 * vx, cy + 0.5 * vy
        pos = stops.index((kind, index)) if (kind, index) in stops else 0
        angle = 2 * math.pi * pos / len(stops) - math.pi / 2
        return cx + 0.45 * _R * math.cos(angle), cy + 0.45 * _R * math.sin(angle)

    def node_point(self, base: BaseNetwork, node: int) -> tuple[float, float]:
        info = base.info[node]
        if info.kind == "side":
            (ax, ay), (bx, by) = self.center(info.coord), self.center(info.other)
            return (ax + bx) / 2, (ay + by) / 2
        if info.kind == "junction":
            return self.center(info.coord)
        return self.stop_point(info.coord, info.kind, info.index)


def _end_point(layout: _Layout, coord: str, end) -> tuple[float, float]:
    if isinstance(end, Edge):
        return layout.edge_point(coord, end.num)
    if end.kind == "junction":
        return layout.center(coord)
    return layout.stop_point(coord, end.kind, end.index)


def render_svg(
    board: Board,
    tokens: dict[tuple[str, int], Sequence[str]] | None = None,
    phase_colors: Sequence[str] = (),
    base: BaseNetwork | None = None,
    routes: Sequence[tuple[str, Sequence[int]]] = (),
    title: str = "",
    network=None,
) -> str:
    """The board as an SVG document.

    Parameters
    ----------
    board : Board
        Map with tiles laid.
    tokens : mapping (hex, city) -> company symbols
    phase_colors : sequence of str
        For offboard values.
    base : BaseNetwork, optional
        Needed to draw ``routes``.
    routes : sequence of (train name, node ids)
    title : str
        Caption.
    network : routing.Network, optional
        The problem's network when a title hook extended the base one (extra nodes are drawn
        between their neighbours).
    """
    tokens = tokens or {}
    lay = _Layout(board)
    caption_h = 24.0 if title else 0.0
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(lay.width)}" '
        f'height="{_fmt(lay.height + caption_h)}" '
        f'viewBox="0 {_fmt(-caption_h)} {_fmt(lay.width)} {_fmt(lay.height + caption_h)}" '
        'font-family="sans-serif">',
    ]
    if title:
        out.append(f'<text x="8" y="-6" font-size="16">{escape(title)}</text>')
    track, marks = [], []
    for coord in lay.coords:
        cell = board.cells[coord]
        placed = board.placed(coord)
        tile = placed.tile
        color = board.color(coord)
        pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in lay.corners(coord))
        out.append(
            f"<polygon {_attr(class_='hex', data_hex=coord, data_tile=tile.name, points=pts)} "
            f'fill="{_FILL.get(color, "#dddddd")}" stroke="#555" stroke-width="1"/>'
        )
        cx, cy = lay.center(coord)
        # impassable borders
        for b in board.borders(coord):
            if b.impassable:
                c = lay.corners(coord)
                p, q = _edge_corners(lay, coord, b.edge, c)
                marks.append(
                    f'<line class="border" x1="{_fmt(p[0])}" y1="{_fmt(p[1])}" '
                    f'x2="{_fmt(q[0])}" y2="{_fmt(q[1])}" stroke="#c00" stroke-width="5"/>'
                )
        for path in placed.paths:
            a = _end_point(lay, coord, path.a)
            b = _end_point(lay, coord, path.b)
            if isinstance(path.a, Edge) and isinstance(path.b, Edge):
                d = f"M{_fmt(a[0])},{_fmt(a[1])} Q{_fmt(cx)},{_fmt(cy)} {_fmt(b[0])},{_fmt(b[1])}"
            else:
                d = f"M{_fmt(a[0])},{_fmt(a[1])} L{_fmt(b[0])},{_fmt(b[1])}"
            width = 4 if path.track == "narrow" else 7
            track.append(
                f'<path class="track" data-hex="{coord}" d="{d}" fill="none" '
                f'stroke="#222" stroke-width="{width}" stroke-linecap="round"/>'
            )
        for city in tile.cities:
            x, y = lay.stop_point(coord, "city", city.index)
            here = list(tokens.get((coord, city.index), ()))
            n = max(city.slots, 1)
            r = _R * (0.2 if n <= 2 else 0.15)
            for s in range(n):
                sx = x + (s - (n - 1) / 2) * 2 * r
                tok = here[s] if s < len(here) else None
                marks.append(
                    f"<circle {_attr(class_='slot', data_hex=coord, data_city=city.index)} "
                    f'cx="{_fmt(sx)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="white" stroke="#222"/>'
                )
                if tok:
                    attrs = _attr(
                        class_="token", data_hex=coord, data_city=city.index, data_company=tok
                    )
                    marks.append(
                        f"<circle {attrs} "
                        f'cx="{_fmt(sx)}" cy="{_fmt(y)}" r="{_fmt(r * 0.85)}" fill="#333"/>'
                        f'<text class="token-label" x="{_fmt(sx)}" y="{_fmt(y + 3)}" '
                        f'font-size="8" fill="white" text-anchor="middle">{escape(tok)}</text>'
                    )
            value = city.revenue.value(phase_colors)
            marks.append(
                f'<text class="revenue" x="{_fmt(x)}" y="{_fmt(y - r - 3)}" font-size="9" '
                f'text-anchor="middle">{value}</text>'
            )
        for town in tile.towns:
            x, y = lay.stop_point(coord, "town", town.index)
            marks.append(
                f"<circle {_attr(class_='town', data_hex=coord, data_town=town.index)} "
                f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(_R * 0.1)}" fill="#111"/>'
                f'<text class="revenue" x="{_fmt(x)}" y="{_fmt(y - 8)}" font-size="9" '
                f'text-anchor="middle">{town.revenue.value(phase_colors)}</text>'
            )
        for off in tile.offboards:
            if off.hide:
                continue
            text = (
                "/".join(str(v) for _, v in off.revenue.by_color)
                if off.revenue.by_color
                else str(off.revenue.flat)
            )
            marks.append(
                f'<text class="offboard" data-hex="{coord}" x="{_fmt(cx)}" '
                f'y="{_fmt(cy + _R * 0.4)}" '
                f'font-size="12" font-weight="bold" text-anchor="middle">{escape(text)}</text>'
            )
        if tile.labels:
            marks.append(
                f'<text class="label" x="{_fmt(cx - _R * 0.72)}" y="{_fmt(cy - _R * 0.2)}" '
                f'font-size="11" font-weight="bold">{escape(tile.labels[-1])}</text>'
            )
        if cell.location_name:
            marks.append(
                f'<text class="location" x="{_fmt(cx)}" y="{_fmt(cy + _R * 0.72)}" '
                f'font-size="7" text-anchor="middle">{escape(cell.location_name)}</text>'
            )
        marks.append(
            f'<text class="hex-id" x="{_fmt(cx)}" y="{_fmt(cy - _R * 0.62)}" font-size="7" '
            f'fill="#555" text-anchor="middle">{escape(coord)}</text>'
        )
    out.extend(track)
    out.extend(marks)
    if routes and base is not None:
        for i, (train, nodes) in enumerate(routes):
            color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
            shift = (i - (len(routes) - 1) / 2) * 3.0  # keep overlapping routes visible
            pts = [_route_point(lay, base, network, n) for n in nodes]
            text = " ".join(f"{_fmt(x + shift)},{_fmt(y + shift)}" for x, y in pts)
            out.append(
                f"<polyline {_attr(class_='route', data_train=train, data_index=i)} "
                f'points="{text}" fill="none" stroke="{color}" stroke-width="4" '
                'stroke-opacity="0.85" stroke-linejoin="round"/>'
            )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _edge_corners(lay: _Layout, coord: str, edge: int, corners):
    """The two corners bounding side ``edge`` (the corners nearest its midpoint)."""
    mx, my = lay.edge_point(coord, edge)
    ranked = sorted(corners, key=lambda p: (p[0] - mx) ** 2 + (p[1] - my) ** 2)
    return ranked[0], ranked[1]


def _route_point(lay: _Layout, base: BaseNetwork, network, node: int) -> tuple[float, float]:
    """Where a route node is drawn; nodes a title added sit between their base neighbours."""
    if node < len(base.info):
        return lay.node_point(base, node)
    net = network if network is not None else base.network
    near = []
    for j in range(net.n_segments):
        u, v = int(net.seg_u[j]), int(net.seg_v[j])
        other = v if u == node else u if v == node else None
        if other is not None and other < len(base.info):
            near.append(lay.node_point(base, other))
    if near:
        return sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near)
    coord = net.hex_names[int(net.node_hex[node])]
    return lay.center(coord) if coord in lay.board.cells else (0.0, 0.0)
