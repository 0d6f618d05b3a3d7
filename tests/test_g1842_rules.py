"""1842 Hamburg/Schleswig-Holstein: one test per revenue rule, on hand-built positions.

The map is RECONSTRUCTED (engine/games/g1842/data.py), so the numbers below are worked out
on our reconstruction.  Every position is solved by ``routing.solve`` and cross-checked with
the brute-force oracle ``tests/naive.py``.

Edge numbers (pointy map): 0 lower-left, 1 left, 2 upper-left, 3 upper-right, 4 right,
5 lower-right.  Tiles used: 3 (town, edges 0-1), 4 (town, 0-3), 5 (city, 0-1), 6 (city, 0-2),
57 (city, 0-3), 9 (straight 0-3), 14 (green city, 2 slots, 0-1-3-4); rotation r adds r.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import routing
from engine import build_problem
from engine.games import load_position, route_view
from engine.games.g1842 import data, rules
from engine.model.position import PositionError
from tests.naive import naive_solve

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"


# ----------------------------------------------------------------------------- helpers
def position(company, trains, tiles=(), tokens=(), phase="2", extras=None) -> dict:
    """A position dict: ``tiles`` as (hex, tile, rotation), ``tokens`` as (hex, city, company)."""
    return {
        "title": "1842",
        "phase": phase,
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
        "company": company,
        "trains": list(trains),
        "extras": dict(extras or {}),
    }


def solve(pos: dict):
    """(problem, view, solution); the numba search and the naive oracle must agree."""
    # The route rules are under test here: some positions keep the arithmetic short with a
    # train the phase no longer has (a 2-train in phase IV), which a real position may not
    # (docs/POSITIONS.md), so they are built without the position checks.
    problem, view = build_problem(pos, check=False)
    solution = routing.solve(problem)
    assert solution.optimal
    oracle = naive_solve(problem)
    assert solution.total == oracle.total, (solution.total, oracle.total)
    return problem, view, solution


def route_names(problem, solution) -> list[list[str]]:
    return [[problem.network.node_names[n] for n in r.nodes] for r in solution.routes]


# Altona (L10 city 1) - Elmshorn (K9) - Ahrensburg (K11) - Hauptbahnhof (L10 city 0): a loop
# out of Altona's NW exit and back into the Hauptbahnhof's NE exit.
HAMBURG_LOOP = [("K9", "5", 4), ("K11", "3", 0)]  # K9 edges 4,5; K11 edges 0,1


# ----------------------------------------------------------------------------- rules
def test_hamburg_stations_never_on_one_route():
    # AKE (Altona) with a 4-train.  The loop Altona 30 - Elmshorn 20 - Ahrensburg 10 - Hbf 30
    # would pay 90 but holds both Hamburg stations (7.4.1).  Best legal route:
    # Altona 30 + Elmshorn 20 + Ahrensburg 10 = 60.
    pos = position("AKE", ["4"], HAMBURG_LOOP, [("L10", 1, "AKE")])
    problem, view, sol = solve(pos)
    hh = rules.hamburg_nodes(view)
    assert len(hh) == 2
    assert problem.network.node_group[hh[0]] == problem.network.node_group[hh[1]] >= 0
    assert sol.total == 60


def test_single_token_in_two_station_city_does_not_block():
    # Phase 3, AKE 3-train from Altona.  Elmshorn (K9) holds one KE token.
    # Green 14 (2 slots): Altona 30 + Elmshorn 30 + Glückstadt 20 = 80.
    # Yellow 6 (1 slot, full): Elmshorn is an end only -> Altona 30 + Elmshorn 20 = 50.
    tokens = [("L10", 1, "AKE"), ("K9", 0, "KE")]
    two_slots = position("AKE", ["3"], [("K9", "14", 1), ("K7", "6", 2)], tokens, phase="3")
    one_slot = position("AKE", ["3"], [("K9", "6", 5), ("K7", "6", 2)], tokens, phase="3")
    assert solve(two_slots)[2].total == 80
    assert solve(one_slot)[2].total == 50


def test_bergedorf_and_stade_never_block():
    # BHE (Hauptbahnhof) 3-train; Bergedorf holds HBE's token in its only slot but does not
    # block (7.4.1): Hbf 30 + Bergedorf 20 (no BHE station: low value) + Büchen 10 = 60.
    # Were it blocking, Hbf + Bergedorf = 50.
    pos = position(
        "BHE", ["3"], [("L14", "4", 1)], [("L10", 0, "BHE"), ("L12", 0, "HBE"), ("M7", 0, "UEE")]
    )
    problem, view, sol = solve(pos)
    assert sol.total == 60
    for hex_ in data.NON_BLOCKING_HEXES:
        node = view.city_node(hex_, 0)
        assert view.is_blocked(node)  # full of another company's token ...
        assert not problem.network.node_terminal[node]  # ... yet passable


def test_two_value_bergedorf_higher_with_own_station():
    # HBE (token in Bergedorf, 20/30) 2-train: Bergedorf 30 + Hbf 30 = 60.
    # BHE (token in Hbf) 2-train over the same track: Hbf 30 + Bergedorf 20 = 50.
    tokens = [("L10", 0, "BHE"), ("L12", 0, "HBE")]
    assert solve(position("HBE", ["2"], [], tokens))[2].total == 60
    assert solve(position("BHE", ["2"], [], tokens))[2].total == 50


def test_two_value_tile_higher_with_own_station():
    # Phase 3, Lübeck carries green L2 (40/60).  Eutin (I13, 57) - Lübeck - Oldesloe (K13, 3).
    # LBE (station in Lübeck) 3-train: Eutin 20 + Lübeck 60 + Oldesloe 10 = 90.
    # ELE (station in Eutin only) 3-train: Eutin 20 + Lübeck 40 + Oldesloe 10 = 70.
    tiles = [("J14", "L2", 0), ("I13", "57", 2), ("K13", "3", 2)]
    tokens = [("J14", 0, "LBE"), ("I13", 0, "ELE")]
    problem, view, sol = solve(position("LBE", ["3"], tiles, tokens, phase="3"))
    assert problem.rules.node_bonus_map() == {view.city_node("J14"): 20}
    assert sol.total == 90
    assert solve(position("ELE", ["3"], tiles, tokens, phase="3"))[2].total == 70


def test_north_sea_baltic_bonus_and_route_need_not_end_at_a_port():
    # SSE (Schleswig F8) 4-train: Friedrichstadt 10 - Husum 20 (North Sea) - E5 -
    # Flensburg 20 (Baltic) - Schleswig 20 = 70, +30 for both seas = 100.  Both coastal towns
    # lie inside the route: it need not end at one (7.4.2, "muss nicht").
    tiles = [("G5", "58", 0), ("F4", "6", 3), ("E5", "8", 4), ("E7", "6", 5), ("F8", "57", 2)]
    problem, view, sol = solve(position("SSE", ["4"], tiles, [("F8", 0, "SSE")]))
    assert sol.total == 100
    (route,) = sol.routes
    ends = {problem.network.node_names[route.nodes[0]], problem.network.node_names[route.nodes[-1]]}
    assert ends == {"G5.t0", "F8.c0"}
    assert route.bonuses == {"north-sea-baltic": 30}
    # 3-train: Husum 20 + Flensburg 20 + Schleswig 20 + 30 = 90.
    assert solve(position("SSE", ["3"], tiles, [("F8", 0, "SSE")]))[2].total == 90


def test_one_route_must_include_the_home_station():
    # AKE: home Altona, second station in Lübeck (30/40: 40 for AKE).
    # Lübeck 40 + Eutin 20 = 60 beats Altona 30 + Elmshorn 20 = 50, but with one train the
    # route must include home: 50.  With two trains both run: 60 + 50 = 110.
    tiles = [("K9", "5", 4), ("I13", "57", 2)]
    tokens = [("L10", 1, "AKE"), ("J14", 0, "AKE")]
    problem, view, sol = solve(position("AKE", ["2"], tiles, tokens))
    assert problem.rules.must_visit == frozenset({view.city_node("L10", 1)})
    assert sol.total == 50
    problem, view, sol = solve(position("AKE", ["2", "2"], tiles, tokens))
    assert sol.total == 110
    # HAV income (3.4.2.2): one of the two routes includes a Hamburg station.
    assert rules.report(view, sol, problem) == {"hav_routes": 1, "hav_income": 10}


def test_gee_train_runs_twice():
    # GEE (Glückstadt K7): track Glückstadt 20 - Elmshorn 20 - Altona 30, one line only.
    # Without the marker: the 3-train's route pays 70 (the 2-train finds no track of its own).
    # "3" runs twice: 140.  "2" runs twice: Glückstadt-Elmshorn 40 x 2 = 80 > 70.
    tiles = [("K7", "6", 2), ("K9", "6", 5)]
    tokens = [("K7", 0, "GEE")]
    assert solve(position("GEE", ["2", "3"], tiles, tokens))[2].total == 70
    problem, view, sol = solve(
        position("GEE", ["2", "3"], tiles, tokens, extras={"gee_runs_twice": "3"})
    )
    assert [t.runs for t in problem.trains] == [1, 2]
    assert sol.total == 140
    # The twice-run route passes Altona: two routes for the HAV.
    assert rules.report(view, sol, problem) == {"hav_routes": 2, "hav_income": 20}
    pos = position("GEE", ["2", "3"], tiles, tokens, extras={"gee_runs_twice": "2"})
    assert solve(pos)[2].total == 80


def test_gee_marker_is_the_gees_only():
    tokens = [("K7", 0, "GEE"), ("L10", 1, "AKE")]
    pos = position("AKE", ["2"], [], tokens, extras={"gee_runs_twice": "2"})
    with pytest.raises(PositionError, match="only the GEE"):
        build_problem(pos)
    pos = position("GEE", ["2"], [], tokens, extras={"gee_runs_twice": "5"})
    with pytest.raises(ValueError, match="does not own"):
        build_problem(pos)


def test_5028_opens_hamburg_5029_does_not():
    # Phase 8, Harburg brown (H3: 40).  The Hbf holds BHE and HMBG (both its slots).
    # LBE (Lübeck L3, own station: 70) 5-train Lübeck - Oldesloe 10 - Ahrensburg 10 - Hbf 80:
    # 5028 (3.4.2.1: everyone runs through Hamburg) goes on to Harburg 40: 210
    #   (on to Bergedorf 20 instead would give 190);
    # 5029 (normal blocking, the Hbf is full) ends at the Hbf: 70 + 10 + 10 + 80 = 170.
    tokens = [("L10", 0, "BHE"), ("L10", 0, "HMBG"), ("J14", 0, "LBE")]
    tiles = [("M9", "H3", 0), ("J14", "L3", 0), ("K13", "87", 1), ("K11", "88", 0)]
    open_ = position("LBE", ["5"], [("L10", "5028", 0), *tiles], tokens, phase="8")
    shut = position("LBE", ["5"], [("L10", "5029", 0), *tiles], tokens, phase="8")
    assert solve(open_)[2].total == 210
    assert solve(shut)[2].total == 170


def test_5028_hav_space_takes_no_corporation_token():
    tokens = [("L10", 1, "AKE"), ("L10", 1, "BHE"), ("L12", 0, "HBE")]
    pos = position("HBE", ["8"], [("L10", "5028", 0), ("M9", "H3", 0)], tokens, phase="8")
    with pytest.raises(PositionError, match="HAV"):
        load_position(pos)
    pos = position("HBE", ["8"], [("L10", "5029", 0), ("M9", "H3", 0)], tokens, phase="8")
    load_position(pos)  # 5029's fourth space is open to everyone


def test_daenemark_is_one_terminal_destination():
    pos = position("FKE", ["2"], [], [("E7", 0, "FKE")])
    problem, view = build_problem(pos)
    dk = [view.city_node(h) for h in data.DAENEMARK_HEXES]
    net = problem.network
    assert net.node_group[dk[0]] == net.node_group[dk[1]] >= 0
    assert all(net.node_terminal[n] for n in dk)


def test_offboard_values_follow_the_phase():
    # a train every phase has: the 5 (no 2-train is left by phase 5)
    for phase, berlin in (("2", 40), ("3", 50), ("5", 70), ("8", 90)):
        view = route_view(load_position(position("BHE", ["5"], [], [("L10", 0, "BHE")], phase)))
        assert int(view.network.node_value[view.offboard_node("L18")]) == berlin


# ----------------------------------------------------------------------------- examples
@pytest.mark.parametrize("name", ["1842-early", "1842-mid", "1842-late"])
def test_example_builds_a_problem(name):
    path = EXAMPLES / f"{name}.json"
    pos = load_position(path)
    problem, view = build_problem(pos)
    assert isinstance(problem, routing.Problem)
    assert problem.rules.must_visit  # every 1842 company has a home station
    assert problem.trains
    expected = json.loads(path.read_text())["extras"].get("expected_total")
    if expected is not None:
        assert routing.solve(problem).total == expected
