"""SVG drawing of a board, its tokens and (optionally) routes.

The drawing is schematic: hexes in their map colour, track as lines or curves through the
hex centre, cities as circles with one ring per slot (tokens filled and labelled), towns as
small discs, offboard values as text, labels, location names and hex ids.  Routes are
polylines through the nodes they visit, one colour per train.  Elements carry ``class`` and
``data-*`` attributes so tests (and CSS) can find them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from engine.model.board import Board
from engine.model.network_build import BaseNetwork
from engine.model.tiles.parse import Edge, NodeRef

__all__ = ["render_svg", "render_view", "ROUTE_COLORS", "company_colors"]

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
        # room beside the map for names wider than their hex
        mx, my = 30.0, 10.0
        self.dx, self.dy = mx - min(xs), my - min(ys)
        self.width = max(xs) - min(xs) + 2 * mx
        self.height = max(ys) - min(ys) + 2 * my
        self._stops: dict[tuple[str, str, int], tuple[float, float]] = {}

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
        """Where a city/town/offboard of ``coord`` is drawn.

        A lone stop sits at the centre.  Several stops of one tile (Chicago's four cities,
        OO tiles) sit a fixed distance out towards the sides their track leaves by, so they
        never overlap; stops whose track gives no clear side go round a ring.
        """
        key = (coord, kind, index)
        if key not in self._stops:
            self._stops.update(self._tile_stops(coord))
        return self._stops.get(key, self.center(coord))

    def _tile_stops(self, coord: str) -> dict[tuple[str, str, int], tuple[float, float]]:
        placed = self.board.placed(coord)
        tile = placed.tile
        stops = [("city", c.index) for c in tile.cities] + [("town", t.index) for t in tile.towns]
        cx, cy = self.center(coord)
        out: dict[tuple[str, str, int], tuple[float, float]] = {}
        for off in tile.offboards:
            out[(coord, "offboard", off.index)] = (cx, cy)
        if len(stops) <= 1:
            for kind, index in stops:
                out[(coord, kind, index)] = (cx, cy)
            return out
        dist = _R * (0.52 if len(stops) > 2 else 0.45)
        angles: list[float | None] = []
        for kind, index in stops:
            ref = NodeRef(kind, index)
            edges = [e.num for p in placed.paths if ref in p.ends() for e in p.ends()
                     if isinstance(e, Edge)]  # fmt: skip
            vx = sum(self.grid.edge_vector(e, _R)[0] for e in edges)
            vy = sum(self.grid.edge_vector(e, _R)[1] for e in edges)
            angles.append(math.atan2(vy, vx) if edges and math.hypot(vx, vy) > 1e-6 else None)
        pts = [
            (cx + dist * math.cos(a), cy + dist * math.sin(a)) if a is not None else None
            for a in angles
        ]
        need = _R * 0.34  # two single-slot cities side by side
        crowded = any(p is None for p in pts) or any(
            math.dist(pts[i], pts[j]) < need  # type: ignore[arg-type]
            for i in range(len(pts)) for j in range(i + 1, len(pts))
        )  # fmt: skip
        if crowded:
            # a ring in the order of the stops' sides (those with none last)
            order = sorted(range(len(stops)),
                           key=lambda i: (angles[i] is None, angles[i] or 0.0))  # fmt: skip
            start = next((angles[i] for i in order if angles[i] is not None), -math.pi / 2)
            for k, i in enumerate(order):
                a = start + 2 * math.pi * k / len(stops)
                pts[i] = (cx + dist * math.cos(a), cy + dist * math.sin(a))
        for (kind, index), p in zip(stops, pts, strict=True):
            out[(coord, kind, index)] = p  # type: ignore[assignment]
        return out

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
    company_colors: Mapping[str, str | tuple[str, str | None]] | None = None,
    route_colors: Sequence[str] | None = None,
    legend: Sequence[str] | None = None,
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
    company_colors : mapping company -> colour or (colour, text colour), optional
        Token colours (:func:`company_colors` reads them from a title's data); others grey.
    route_colors : sequence of str, optional
        One colour per route (default: a distinct colour per train).  Routes that share a
        colour (a company's colour for all its trains) are told apart by dash patterns.
    legend : sequence of str, optional
        One line per route, drawn under the map beside a sample of its line.
    """
    tokens = tokens or {}
    colors = dict(company_colors or {})
    lay = _Layout(board)
    caption_h = 24.0 if title else 0.0
    legend = list(legend or [])[: len(routes)] if routes and base is not None else []
    legend_h = 16.0 * len(legend) + (10.0 if legend else 0.0)
    height = lay.height + caption_h + legend_h
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(lay.width)}" '
        f'height="{_fmt(height)}" '
        f'viewBox="0 {_fmt(-caption_h)} {_fmt(lay.width)} {_fmt(height)}" '
        'font-family="sans-serif">',
        # a white halo keeps text readable over track and neighbouring hexes
        "<style>.halo{paint-order:stroke;stroke:#fff;stroke-width:2.4px;"
        "stroke-linejoin:round}</style>",
    ]
    if title:
        out.append(f'<text x="8" y="-6" font-size="16">{escape(title)}</text>')
    track, marks, names = [], [], []
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
        several = len(tile.cities) + len(tile.towns) > 1
        values = {c.revenue.value(phase_colors) for c in tile.cities}
        shared = several and len(tile.cities) > 1 and len(values) == 1
        for city in tile.cities:
            x, y = lay.stop_point(coord, "city", city.index)
            here = list(tokens.get((coord, city.index), ()))
            n = max(city.slots, 1)
            r = _R * (0.15 if n > 2 or several else 0.2)
            for s in range(n):
                sx = x + (s - (n - 1) / 2) * 2 * r
                tok = here[s] if s < len(here) else None
                marks.append(
                    f"<circle {_attr(class_='slot', data_hex=coord, data_city=city.index)} "
                    f'cx="{_fmt(sx)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="white" stroke="#222"/>'
                )
                if tok:
                    fill, ink = _token_colors(colors.get(tok))
                    attrs = _attr(
                        class_="token", data_hex=coord, data_city=city.index, data_company=tok
                    )
                    size = min(8.0, r * 1.05)
                    fit = (f' textLength="{_fmt(1.6 * r)}" lengthAdjust="spacingAndGlyphs"'
                           if len(tok) * size * 0.62 > 1.6 * r else "")  # fmt: skip
                    marks.append(
                        f"<circle {attrs} "
                        f'cx="{_fmt(sx)}" cy="{_fmt(y)}" r="{_fmt(r * 0.85)}" fill="{fill}" '
                        f'stroke="#222" stroke-width="0.8"/>'
                        f'<text class="token-label" x="{_fmt(sx)}" y="{_fmt(y + size * 0.36)}" '
                        f'font-size="{_fmt(size)}" fill="{ink}" text-anchor="middle"{fit}>'
                        f"{escape(tok)}</text>"
                    )
            if not shared:
                value = city.revenue.value(phase_colors)
                marks.append(
                    f'<text class="revenue halo" x="{_fmt(x)}" y="{_fmt(y - r - 3)}" '
                    f'font-size="9" text-anchor="middle">{value}</text>'
                )
        if shared:
            # one value for the tile's cities, in the middle they leave free
            marks.append(
                f'<text class="revenue halo" x="{_fmt(cx)}" y="{_fmt(cy + 4)}" font-size="11" '
                f'font-weight="bold" text-anchor="middle">{values.pop()}</text>'
            )
        for town in tile.towns:
            x, y = lay.stop_point(coord, "town", town.index)
            marks.append(
                f"<circle {_attr(class_='town', data_hex=coord, data_town=town.index)} "
                f'cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(_R * 0.1)}" fill="#111"/>'
                f'<text class="revenue halo" x="{_fmt(x)}" y="{_fmt(y - 8)}" font-size="9" '
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
                f'<text class="offboard halo" data-hex="{coord}" x="{_fmt(cx)}" '
                f'y="{_fmt(cy + _R * 0.3)}" '
                f'font-size="12" font-weight="bold" text-anchor="middle">{escape(text)}</text>'
            )
        if tile.labels:
            marks.append(
                f'<text class="label halo" x="{_fmt(cx - _R * 0.78)}" y="{_fmt(cy - _R * 0.3)}" '
                f'font-size="11" font-weight="bold">{escape(tile.labels[-1])}</text>'
            )
        if cell.location_name:
            lines = _wrap(cell.location_name, 14)
            y0 = cy + _R * (0.74 if len(lines) == 1 else 0.6)
            spans = "".join(
                f'<tspan x="{_fmt(cx)}" y="{_fmt(y0 + 8 * k)}">{escape(line)}</tspan>'
                for k, line in enumerate(lines)
            )
            names.append(
                f'<text class="location halo" x="{_fmt(cx)}" y="{_fmt(y0)}" font-size="7" '
                f'text-anchor="middle">{spans}</text>'
            )
        marks.append(
            f'<text class="hex-id" x="{_fmt(cx)}" y="{_fmt(cy - _R * 0.62)}" font-size="7" '
            f'fill="#555" text-anchor="middle">{escape(coord)}</text>'
        )
    out.extend(track)
    if routes and base is not None:
        styles = _route_styles(len(routes), route_colors)
        for i, (train, nodes) in enumerate(routes):
            color, dash = styles[i]
            shift = (i - (len(routes) - 1) / 2) * 3.0  # keep overlapping routes visible
            pts = _route_points(lay, base, network, list(nodes))
            text = " ".join(f"{_fmt(x + shift)},{_fmt(y + shift)}" for x, y in pts)
            casing = "#333" if _token_colors(color)[1] == "black" else "#fff"  # light: dark
            out.append(
                f'<polyline class="route-casing" points="{text}" fill="none" stroke="{casing}" '
                'stroke-width="7" stroke-opacity="0.8" stroke-linejoin="round" '
                'stroke-linecap="round"/>'
            )
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f"<polyline {_attr(class_='route', data_train=train, data_index=i)} "
                f'points="{text}" fill="none" stroke="{color}" stroke-width="4"{dashed} '
                'stroke-opacity="0.9" stroke-linejoin="round" stroke-linecap="round"/>'
            )
        for i, line in enumerate(legend):
            color, dash = styles[i]
            y = lay.height + 12 + 16 * i
            dashed = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(
                f'<g class="legend" data-index="{i}"><line x1="10" y1="{_fmt(y - 4)}" '
                f'x2="44" y2="{_fmt(y - 4)}" stroke="{color}" stroke-width="4"{dashed}/>'
                f'<text x="52" y="{_fmt(y)}" font-size="12">{escape(line)}</text></g>'
            )
    # stops and tokens over the routes, names over everything: all stay readable
    out.extend(marks)
    out.extend(names)
    out.append("</svg>")
    return "\n".join(out) + "\n"


#: Dash patterns telling apart routes drawn in one colour.
_DASHES = ("", "10 5", "3 4", "12 4 3 4", "6 3", "2 6")


def _route_styles(n: int, colors: Sequence[str] | None) -> list[tuple[str, str]]:
    """(colour, dash pattern) of each of ``n`` routes."""
    if not colors:
        return [(ROUTE_COLORS[i % len(ROUTE_COLORS)], "") for i in range(n)]
    seen: dict[str, int] = {}
    out = []
    for i in range(n):
        c = colors[i % len(colors)]
        k = seen.get(c, 0)
        seen[c] = k + 1
        out.append((c, _DASHES[k % len(_DASHES)]))
    return out


def _wrap(text: str, width: int) -> list[str]:
    """``text`` on at most two lines of about ``width`` characters."""
    if len(text) <= width or " " not in text:
        return [text]
    words = text.split()
    best = min(range(1, len(words)),
               key=lambda k: max(len(" ".join(words[:k])), len(" ".join(words[k:]))))  # fmt: skip
    return [" ".join(words[:best]), " ".join(words[best:])]


_NAMED = {"black": "#000000", "white": "#ffffff", "green": "#008000", "darkblue": "#00008b",
          "blue": "#0000ff", "red": "#ff0000", "yellow": "#ffff00", "orange": "#ffa500",
          "purple": "#800080", "brown": "#a52a2a", "gray": "#808080", "grey": "#808080",
          "lightblue": "#add8e6", "pink": "#ffc0cb", "darkgreen": "#006400"}  # fmt: skip


def _token_colors(value) -> tuple[str, str]:
    """(fill, text colour) of a company's token; text black on light colours."""
    if value is None:
        return "#333", "white"
    fill, ink = (value if isinstance(value, tuple) else (value, None))
    if ink:
        return str(fill), str(ink)
    code = _NAMED.get(str(fill).lower(), str(fill))
    if code.startswith("#") and len(code) in (4, 7):
        h = code[1:]
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        try:
            r, g, b = (int(h[k : k + 2], 16) for k in (0, 2, 4))
        except ValueError:
            return str(fill), "white"
        light = 0.299 * r + 0.587 * g + 0.114 * b > 150
        return str(fill), "black" if light else "white"
    return str(fill), "white"


def company_colors(data) -> dict[str, tuple[str, str | None]]:
    """Company -> (colour, text colour or None) from a title's ``CORPORATIONS`` and
    ``MINORS`` data (18xx.games' ``color`` and ``text_color``)."""
    out: dict[str, tuple[str, str | None]] = {}
    for item in list(getattr(data, "CORPORATIONS", []) or []) + list(
        getattr(data, "MINORS", []) or []
    ):
        if isinstance(item, dict) and item.get("sym") and item.get("color"):
            out[str(item["sym"])] = (str(item["color"]), item.get("text_color"))
    return out


def _route_points(lay: _Layout, base: BaseNetwork, network, nodes: list[int]):
    """The points of a route, following the track: a stretch between two sides of one hex
    bends through the hex centre as its track does."""
    pts = [_route_point(lay, base, network, nodes[0])]
    for u, v in zip(nodes, nodes[1:], strict=False):
        end = _route_point(lay, base, network, v)
        hexes = _shared_hex(base, u, v)
        if hexes is not None:
            start = pts[-1]
            c = lay.center(hexes)
            for k in range(1, 8):
                t = k / 8
                x = (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * c[0] + t * t * end[0]
                y = (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * c[1] + t * t * end[1]
                pts.append((x, y))
        pts.append(end)
    return pts


def _shared_hex(base: BaseNetwork, u: int, v: int) -> str | None:
    """The hex whose track joins side nodes ``u`` and ``v`` (None unless both are sides)."""
    if not (u < len(base.info) and v < len(base.info)):
        return None
    a, b = base.info[u], base.info[v]
    if a.kind != "side" or b.kind != "side":
        return None
    common = {a.coord, a.other} & {b.coord, b.other}
    common.discard(None)
    return next(iter(common)) if len(common) == 1 else None


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


def render_view(view, network, routes: Sequence[tuple[str, Sequence[int]]] = (),
                caption: str = "", legend: Sequence[str] | None = None) -> str:  # fmt: skip
    """A :class:`~engine.model.title.RouteView`'s board with ``routes`` (train name, node
    ids on ``network``) in its company's colour, told apart by dash patterns, tokens in
    their companies' colours, and a legend line per route."""
    colors = company_colors(view.data)
    own = colors.get(view.position.company, ("#d62728", None))[0]
    return render_svg(
        view.board,
        view.position.tokens_by_city(),
        view.phase_colors,
        view.base,
        routes,
        caption,
        network=network,
        company_colors=colors,
        route_colors=[own] * len(routes),
        legend=legend or None,
    )
