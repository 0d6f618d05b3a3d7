"""Readable boards (:func:`engine.model.render.render_svg`): a tile's cities never overlap
(Chicago's four), tokens wear their companies' colours, routes follow the track's curves,
routes in one colour differ by dash pattern, and the legend is drawn."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import routing
from engine.games import build_problem
from engine.model.render import ROUTE_COLORS, company_colors, render_svg

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "engine" / "examples").glob("*.json"))
NS = "{http://www.w3.org/2000/svg}"


def _draw(path, **kw):
    problem, view = build_problem(path)
    solution = routing.solve(problem, time_limit=10)
    routes = [(r.train_name, list(r.nodes)) for r in solution.routes]
    svg = render_svg(view.board, view.position.tokens_by_city(), view.phase_colors, view.base,
                     routes, "t", network=problem.network, **kw)  # fmt: skip
    return ET.fromstring(svg.split("?>", 1)[1]), view, solution


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_cities_of_a_tile_do_not_overlap(path):
    root, _view, _ = _draw(path)
    slots: dict[str, list[tuple[str, float, float, float]]] = {}
    for c in root.iter(f"{NS}circle"):
        if c.get("class") == "slot":
            slots.setdefault(c.get("data-hex"), []).append(
                (c.get("data-city"), float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
            )
    for hex_, items in slots.items():
        for i, (ci, xi, yi, ri) in enumerate(items):
            for cj, xj, yj, rj in items[i + 1 :]:
                if ci != cj:
                    assert math.hypot(xi - xj, yi - yj) >= ri + rj - 0.5, (hex_, ci, cj)


def test_chicago_four_cities_apart():
    path = next(p for p in EXAMPLES if p.stem == "1846-late")
    root, _view, _ = _draw(path)
    chicago = [c for c in root.iter(f"{NS}circle")
               if c.get("class") == "slot" and c.get("data-hex") == "D6"]  # fmt: skip
    assert len({c.get("data-city") for c in chicago}) == 4


def test_company_colours_routes_and_legend():
    path = next(p for p in EXAMPLES if p.stem == "1846-late")
    problem, view = build_problem(path)
    colors = company_colors(view.data)
    assert colors["PRR"][0] == "#FF0000"
    solution = routing.solve(problem, time_limit=10)
    routes = [(r.train_name, list(r.nodes)) for r in solution.routes]
    legend = [f"{r.train_name}: {r.revenue}" for r in solution.routes]
    own = colors[view.position.company][0]
    svg = render_svg(view.board, view.position.tokens_by_city(), view.phase_colors, view.base,
                     routes, "t", network=problem.network, company_colors=colors,
                     route_colors=[own] * len(routes), legend=legend)  # fmt: skip
    root = ET.fromstring(svg.split("?>", 1)[1])
    tokens = [c for c in root.iter(f"{NS}circle") if c.get("class") == "token"]
    assert {c.get("fill") for c in tokens if c.get("data-company") == "PRR"} == {"#FF0000"}
    lines = [p for p in root.iter(f"{NS}polyline") if p.get("class") == "route"]
    assert {p.get("stroke") for p in lines} == {own}
    assert len({p.get("stroke-dasharray") for p in lines}) == len(lines)  # told apart
    # a route bends through hex centres like its track: more points than nodes
    assert any(len(p.get("points").split()) > len(n) for p, (_, n) in zip(lines, routes,
                                                                           strict=True))
    texts = ["".join(g.itertext()) for g in root.iter(f"{NS}g") if g.get("class") == "legend"]
    assert texts == legend
    # names over everything, with a halo
    assert re.search(r'class="location halo"', svg)


def test_default_route_colours_stay_distinct():
    path = next(p for p in EXAMPLES if p.stem == "1846-late")
    root, _view, solution = _draw(path)
    strokes = [p.get("stroke") for p in root.iter(f"{NS}polyline") if p.get("class") == "route"]
    assert strokes == list(ROUTE_COLORS[: len(solution.routes)])
