"""1862 USA/Canada (Ohley): one test per revenue rule on hand-built positions.

Every position is laid on the real 18xx.games map (``engine/games/g1862/data.py``) and solved
with :func:`routing.solve`.  The expected revenue is worked out by hand in each test.  Tile
values used below: yellow city 20, yellow town 10, green 14/15 30, C_G 40, SLC_G 40,
MTL_G 40, Boston (F30) 20; offboards Labrador 20|40 and Mexico 40|80 (yellow/green | brown/gray).
"""

from __future__ import annotations

from collections import deque
from itertools import groupby
from pathlib import Path

import pytest

import routing
from engine.games import build_problem, get_title
from engine.games.g1862 import data
from engine.games.g1862.rules import make_train
from engine.model.board import Board
from tests.naive import naive_solve

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"


def position(phase, company, trains, tiles, tokens, **more):
    """A position dict: ``tiles`` as (hex, tile, rotation), ``tokens`` as (hex, city, sym)."""
    return {
        "title": "1862UsaCanada",
        "phase": phase,
        "company": company,
        "trains": list(trains),
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
        **more,
    }


def solve(pos):
    """(solution, view) of a position; the solve must be proven optimal."""
    problem, view = build_problem(pos)
    solution = routing.solve(problem)
    assert solution.optimal
    return solution, view


def stops(view, route, counted=False):
    nodes = route.counted if counted else [n for n in route.nodes if view.network.is_stop(n)]
    return [view.name_of(n) for n in nodes]


def reentered_tiles(view, route):
    """Hexes a route enters twice (the rule routing cannot express), two-station hexes aside."""
    hexes = [view.network.hex_names[int(view.network.seg_hex[s])] for s in route.segments]
    runs = [h for h, _ in groupby(hexes)]
    return {h for h in runs if runs.count(h) > 1 and h not in data.TWO_STATION_HEXES}


# Northeast track used by several tests: New York city 0 (NYC) - G27 - Richmond (H26, town).
NYC_HOME = [("F28", 0, "NYC")]
G27_H26 = [("G27", "57", 0), ("H26", "4", 0)]


# ------------------------------------------------------------------------------- title
def test_title_is_registered_under_both_ids():
    title = get_title("1862")
    assert title is get_title("1862UsaCanada")
    assert title.id == "1862UsaCanada" == data.TITLE


def test_trains_follow_the_rulebook():
    # Rulebook: 2, 3, 4, 5, 6, 8, 10 plus 5E, 6E, 8E, 10E (18xx.games' 2E-4E, 7/7E do not exist)
    names = [t["name"] for t in data.TRAINS]
    names += [v["name"] for t in data.TRAINS for v in t.get("variants", [])]
    assert names == ["2", "3", "4", "5", "6", "8", "10", "5E", "6E", "8E", "10E"]
    assert make_train("4") == routing.Train.n("4", 4)
    assert make_train("10E") == routing.Train.express("10E", 10)


def _on_map_distance(board, a, b, blocked=("D22", "E21")):
    seen, queue = {a: 0}, deque([a])
    while queue:
        here = queue.popleft()
        if here == b:
            return seen[here]
        for other in board.neighbours(here).values():
            if other not in seen and other not in blocked:
                seen[other] = seen[here] + 1
                queue.append(other)
    raise AssertionError(f"{b} unreachable from {a}")


def test_bonus_distances_are_the_on_map_hex_distances():
    # data.BONUS_DISTANCE_METHOD: fewest hex steps over the map, Great Lakes excluded
    board = Board.from_data(data)
    for corp in data.CORPORATIONS:
        for station in corp["bonus_stations"]:
            d = _on_map_distance(board, corp["coordinates"], station["hex"])
            assert station["distance"] == d, (corp["sym"], station)


# ------------------------------------------------------------------------------- rules
def test_n_train_counts_every_station_up_to_n():
    # Stops: Boston 20 - NY c0 20 - G27 20 - Richmond 10 (a line).  The 3 and the 2 must use
    # separate track: 3 = NY-G27-Richmond 50 and 2 = Boston-NY 40 (or 3 = Boston-NY-G27 60
    # and 2 = G27-Richmond 30): 90 either way.
    solution, _ = solve(position("3", "NYC", ["2", "3"], G27_H26, NYC_HOME))
    assert solution.total == 90
    assert sorted(len(r.counted) for r in solution.routes) == [2, 3]


def test_route_must_include_an_own_station_marker():
    # NYH sits in NY city 1 (exits to F26 and E29).  Boston-NY c0 (40) and NY c0-G27 (40)
    # carry no NYH marker; the only route with one is Erie-town E29 10 + NY c1 20 = 30.
    tiles = [("G27", "57", 0), ("E29", "58", 0)]
    solution, view = solve(position("3", "NYH", ["2"], tiles, [("F28", 1, "NYH")]))
    assert solution.total == 30
    assert stops(view, solution.routes[0]) == ["E29.t0", "F28.c1"]


EXPRESS_LINE = [
    ("G27", "15", 0),  # 30
    ("H26", "4", 0),  # town 10
    ("I25", "8", 1),
    ("I23", "6", 4),  # Atlanta 20
    ("J22", "8", 1),
    ("J20", "57", 1),  # Mobile 20
]


@pytest.mark.parametrize(
    ("train", "expected"),
    [
        # Boston 20, NY 20, G27 30, Richmond 10, Atlanta 20, Mobile 20 in a line: a 5E runs
        # all six and omits Richmond: 120 - 10 = 110.
        ("5E", 110),
        # A plain 5 counts every station it visits, so it drops an end: 20+20+30+10+20 = 100.
        ("5", 100),
    ],
)
def test_e_train_counts_its_best_n_and_may_omit_any_station(train, expected):
    solution, view = solve(position("5", "NYC", [train], EXPRESS_LINE, NYC_HOME))
    assert solution.total == expected
    route = solution.routes[0]
    if train == "5E":
        assert len(stops(view, route)) == 6
        assert "H26.t0" not in stops(view, route, counted=True)


def test_both_new_york_stations_are_scored():
    # Boston 20 - NY c0 20 - G27 30 (tile 15) - F26 - NY c1 20: a 4 runs both New York
    # stations, entering the NY tile twice (allowed: two separate stations) = 90.
    tiles = [("G27", "15", 0), ("F26", "7", 4), ("E29", "3", 0)]
    solution, view = solve(position("4", "NYC", ["4"], tiles, NYC_HOME))
    assert solution.total == 90
    counted = stops(view, solution.routes[0], counted=True)
    assert {"F28.c0", "F28.c1"} <= set(counted)


@pytest.mark.parametrize(
    ("phase", "train", "expected"),
    [
        # Labrador 20 (left value) + Quebec 20 + Montreal 20 in yellow/green phases
        ("3", "3", 60),
        ("4", "3", 60),
        # Labrador 40 (right value) + 20 + 20 in brown/gray phases
        ("5", "5", 80),
        ("8", "8", 80),
    ],
)
def test_offboard_value_follows_the_phase_colour(phase, train, expected):
    tiles = [("D28", "MTL_Y", 1), ("C29", "6", 0), ("B28", "8", 3)]
    solution, view = solve(position(phase, "CP", [train], tiles, [("D28", 0, "CP")]))
    assert solution.total == expected
    assert "A29.o" in stops(view, solution.routes[0], counted=True)


def test_mexico_counts_once_per_route():
    # Santa Fe (J10, tile 15 = 30) touches both Mexico hexes (K9, K11 = 40 each) and Tucson
    # (J8, town 10).  Mexico is one destination: K9-J10-K11 (110) is not allowed, so the 3
    # runs Mexico 40 + Santa Fe 30 + Tucson 10 = 80.  (Interpretation, see data.py.)
    tiles = [("J10", "15", 5), ("J8", "4", 1)]
    solution, view = solve(position("3", "UP", ["3"], tiles, [("J10", 0, "UP")]))
    assert solution.total == 80
    assert "J8.t0" in stops(view, solution.routes[0])


def test_fully_occupied_station_is_a_route_end_only():
    # NYH's marker is in G27; NYC fills NY city 0 (one slot).  G27-NY c0-Boston (60) would
    # run through NY c0; NYH may only end there: Richmond 10 + G27 20 + NY c0 20 = 50.
    tokens = [("G27", 0, "NYH"), ("F28", 0, "NYC")]
    solution, view = solve(position("3", "NYH", ["3"], G27_H26, tokens))
    assert solution.total == 50
    ends = stops(view, solution.routes[0])
    assert "F28.c0" in (ends[0], ends[-1])


def test_baltimore_and_ohio_marker_blocks_like_a_token():
    # The B&O private's marker fills G27's only slot (Baltimore's hex is not on the
    # 18xx.games map; G27 stands in).  Without it a 4 runs Boston-NY-G27-Richmond 70; with it
    # G27 is an end: Boston 20 + NY 20 + G27 20 = 60.
    marker = {"hex": "G27", "city": 0, "ability": "station_marker", "company": "BO"}
    free, _ = solve(position("3", "NYC", ["4"], G27_H26, NYC_HOME))
    blocked, _ = solve(position("3", "NYC", ["4"], G27_H26, NYC_HOME, assignments=[marker]))
    assert (free.total, blocked.total) == (70, 60)


# Minneapolis to Chicago for NP (home Minneapolis D16, bonus station Chicago F20, distance
# 3): two separate lines D16-E17-F18-F20 and D16-D18-E19-F20, four hexes each.
NP_LINES = [
    ("D16", "15", 2),  # 30
    ("E17", "9", 2),
    ("F18", "6", 2),  # 20
    ("F20", "C_G", 5),  # Chicago 40
    ("D18", "58", 5),  # Duluth town 10
    ("E19", "9", 2),
]


@pytest.mark.parametrize(
    ("phase", "trains", "expected"),
    [
        # k = 20: bonus 20 * 3 - 10 * 4 hexes = 20.  D16-F18-F20 = 90 (+20).
        ("3", ["3"], 110),
        # Two 3s: 90 + D16-Duluth-F20 80 = 170; the bonus once per round: 190, not 210.
        ("3", ["3", "3"], 190),
        # k = 30 in brown: 30 * 3 - 40 = 50: 90 + 50 = 140; with two trains 170 + 50 = 220.
        ("5", ["3"], 140),
        ("5", ["3", "3"], 220),
    ],
)
def test_bonus_route_pays_k_times_distance_less_10_per_hex_once(phase, trains, expected):
    solution, _ = solve(position(phase, "NP", trains, NP_LINES, [("D16", 0, "NP")]))
    assert solution.total == expected
    claims = [b for r in solution.routes for b in r.bonuses.values()]
    assert claims == [20 if phase == "3" else 50]


SLC_TILES = [("G9", "SLC_G", 0), ("G11", "57", 1), ("H10", "57", 2)]


@pytest.mark.parametrize(
    ("company", "tiles", "tokens", "extras", "expected"),
    [
        # UP in Denver, CPR in H10, both reach SLC: Denver 20 + SLC (40 + 20) = 80.
        ("UP", SLC_TILES, [("G11", 0, "UP"), ("H10", 0, "CPR")], {}, 80),
        # Same for CPR: H10 20 + SLC 60 = 80.
        ("CPR", SLC_TILES, [("G11", 0, "UP"), ("H10", 0, "CPR")], {}, 80),
        # H10 has no track, so CPR cannot reach SLC: no raise, 20 + 40 = 60.
        ("UP", SLC_TILES[:2], [("G11", 0, "UP"), ("H10", 0, "CPR")], {}, 60),
        # ATS is neither CPR nor UP: 60.
        ("ATS", SLC_TILES, [("G11", 0, "ATS"), ("H10", 0, "CPR"), ("G9", 0, "UP")], {}, 60),
        # The position may overrule the connection test (e.g. CPR owns no train): 60.
        (
            "UP",
            SLC_TILES,
            [("G11", 0, "UP"), ("H10", 0, "CPR")],
            {"slc_both_connected": False},
            60,
        ),
    ],
)
def test_salt_lake_city_plus_20_for_cpr_and_up_when_both_reach_it(
    company, tiles, tokens, extras, expected
):
    solution, view = solve(position("3", company, ["2"], tiles, tokens, extras=extras))
    assert solution.total == expected
    assert view.spec.extras["slc_bonus"] == (20 if expected == 80 else 0)


def test_a_route_may_not_use_the_same_tile_twice():
    # Tile 19 in E27 carries two separate tracks: F26-D28 and D26-E29.  NYH (NY city 1) could
    # run Ottawa 20 - E27 - E29 10 - NY c1 20 - F26 - E27 - Montreal 40 = 90, entering E27
    # twice.  That is illegal; the best legal 4-train route is E29 10 - NY c1 20 - F26 - E27 -
    # Montreal 40 = 70.
    tiles = [
        ("E27", "19", 0),
        ("D28", "MTL_G", 5),
        ("D26", "57", 2),
        ("E29", "3", 0),
        ("F26", "7", 3),
    ]
    solution, view = solve(position("4", "NYH", ["4"], tiles, [("F28", 1, "NYH")]))
    assert all(not reentered_tiles(view, r) for r in solution.routes)
    assert solution.total == 70
    problem, _ = build_problem(position("4", "NYH", ["4"], tiles, [("F28", 1, "NYH")]))
    assert problem.rules.hex_once
    assert naive_solve(problem).total == 70
    # The 90 route is rejected for re-entering E27.
    route = [view.node(n) for n in ("D26.c0", "E29.t0", "F28.c1", "D28.c0")]
    with pytest.raises(routing.RouteError, match="enters hex 'E27' a second time"):
        routing.validate(problem, [(0, route)])


@pytest.mark.parametrize(
    ("tiles", "exempt"),
    [
        # Printed yellow New York and Sacramento: two separate stations each.
        ([], {"F28", "G3"}),
        # Green New York keeps two stations.
        ([("F28", "NY_G", 0)], {"F28", "G3"}),
        # Brown New York merges them into one city: no longer exempt.
        ([("F28", "NY_B", 0)], {"G3"}),
    ],
)
def test_only_tiles_with_two_separate_stations_may_be_entered_twice(tiles, exempt):
    problem, view = build_problem(position("5", "NYC", ["5"], tiles, NYC_HOME))
    assert {problem.network.hex_names[h] for h in problem.rules.hex_once_exempt} == exempt
    assert exempt <= set(data.TWO_STATION_HEXES)


def test_every_track_of_a_two_station_tile_ends_at_a_station():
    # Why exempting the whole hex is exact: on every 1862 tile with two stations (NY_G, S_G
    # and the printed F28, G3) each path runs from an edge to a station, so a route that
    # enters such a hex twice always includes two separate stations.
    board = Board.from_data(data)
    tiles = [td for td, _ in board.manifest.values()]
    tiles += [board.tile(h) for h in data.TWO_STATION_HEXES]
    multi = [td for td in tiles if len(td.cities) + len(td.towns) + len(td.offboards) >= 2]
    assert {td.name for td in multi} >= {"NY_G", "S_G"}
    for td in multi:
        for path in td.paths:
            kinds = {getattr(end, "kind", None) for end in (path.a, path.b)}
            assert kinds & {"city", "town", "offboard"}, (td.name, path)


# ------------------------------------------------------------------------------- examples
@pytest.mark.parametrize("name", ["1862-early", "1862-mid", "1862-late"])
def test_examples_load_and_build_a_problem(name):
    problem, view = build_problem(EXAMPLES / f"{name}.json")
    assert isinstance(problem, routing.Problem)
    assert problem.trains and problem.rules.token_nodes
    if name == "1862-late":
        assert [t.name for t in problem.trains] == ["8E", "10E"]
        assert problem.rules.bonus_routes
    solution = routing.solve(problem)
    assert solution.optimal
    assert solution.total == view.extras["expected_total"]
    # the expected totals hold under the rulebook too: no route uses a tile twice
    assert all(not reentered_tiles(view, r) for r in solution.routes)
    if name == "1862-late":
        # the live bonus: 10E Boston .. New Orleans claims 30 * 7 - 10 * 9 hexes = 120
        assert any(r.bonuses for r in solution.routes)
