"""1846 revenue rules, one test per rule on small hand-built positions.

Every position goes through the engine (position -> board -> network -> title hook ->
``routing.Problem``) and is solved exactly with :func:`routing.solve`; the brute-force oracle
``tests/naive.py`` must agree.  Expected revenues are worked out in the comments.

Map notes (pointy, edges 0 lower-left, 1 left, 2 upper-left, 3 upper-right, 4 right,
5 lower-right):

* Chicago D6 (printed yellow: four 10 cities, city 0 on edge 0 = E5, city 1 on 3 = C7,
  city 2 on 4 = D8, city 3 on 5 = E7; green 298 adds edge 2 = Chicago Connections C5 to all
  four).  E5 edge 0 = F4, edge 4 = E7; E7 edge 2 = D6; F4 edge 0 = Springfield G3; G3 edge 0 =
  H2; H2 edge 0 = St. Louis I1 (W).
* D8, D10, D12: edges 1 and 4 lead along row D to Toledo D14; D14 edge 3 = Detroit C15
  (printed yellow 40, edges 1 = C13 and 3 = Port Huron B16); C15 edge 4 = Windsor C17 (E).
  B16 edges: 0 = C15, 4 = Sarnia B18 (E).  Erie D20 edges: 3 = C21 (E), 4 = Buffalo D22 (E),
  5 = Salamanca E21.
* Holland B8 (two port icons) is reached only from B10 (B10 edge 1); B10 edge 0 = South Bend
  C9.  Cincinnati H12 edge 3 = Dayton G13.

Phase I-II pay an offboard's yellow value, III-IV its brown one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import routing
from engine.games import build_problem, get_title, load_position
from engine.games.g1846 import data
from engine.model.position import PositionError
from tests.naive import naive_solve

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"

# Track from Chicago's city 0 (edge 0) south-west to Springfield G3, and on to St. Louis.
SPRINGFIELD = [("E5", "9", 0), ("F4", "9", 0), ("G3", "57", 0)]
ST_LOUIS = [*SPRINGFIELD, ("H2", "9", 0)]
# Chicago Connections - Chicago city 2 - Toledo - Detroit - Windsor (West to East).
EAST_WEST = [
    ("D6", "298", 0),
    ("D8", "9", 1),
    ("D10", "9", 1),
    ("D12", "9", 1),
    ("D14", "6", 1),
    ("C15", "294", 0),
]


def position(phase, company, trains, tiles, tokens, owned=(), assignments=()) -> dict:
    return {
        "title": "1846",
        "phase": phase,
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
        "company": company,
        "trains": list(trains),
        "owned_companies": list(owned),
        "assignments": [{"hex": h, "ability": a, "company": c} for h, a, c in assignments],
        "extras": {},
    }


def solve(pos: dict) -> int:
    """Optimal revenue of ``pos``; the numba search and the oracle must agree."""
    # The route rules are under test here: some positions keep the arithmetic short with a
    # train the phase no longer has (a 2-train in phase IV), which a real position may not
    # (docs/POSITIONS.md), so they are built without the position checks.
    problem, _ = build_problem(pos, check=False)
    sol = routing.solve(problem)
    assert sol.optimal
    assert naive_solve(problem).total == sol.total
    return sol.total


# ------------------------------------------------------------------------------- token
def test_route_needs_own_token():
    # Port Huron B16 with tile 6 turned to Detroit (edge 0) and Sarnia (edge 4), phase I:
    # B16 20, C15 40, B18 30.  GT's two 2-trains: B16-C15 60 + B16-B18 50 = 110.
    tiles = [("B16", "6", 4)]
    assert solve(position("I", "GT", ["2", "2"], tiles, [("B16", 0, "GT")])) == 110
    # The same track without a GT token (someone else's does not count) earns nothing.
    assert solve(position("I", "GT", ["2", "2"], tiles, [("B16", 0, "NYC")])) == 0


# ------------------------------------------------------------------------------ Chicago
@pytest.mark.parametrize(
    ("phase", "tiles", "expected"),
    [
        # Yellow Chicago: the loop D6.c0-E5-E7-D6.c3 is the only route and visits Chicago
        # twice, so nothing runs (it would pay 10 + 10).
        ("I", [], 0),
        # Green 298 (cities 40, no printed group on the tile): C5-D6.c3-E7-E5-D6.c0 would
        # pay 20 + 40 + 40 = 100; with Chicago once the 4-train runs C5-D6.c0 = 60.
        ("II", [("D6", "298", 0)], 60),
    ],
)
def test_chicago_at_most_once_per_route(phase, tiles, expected):
    loop = [("E5", "7", 3), ("E7", "7", 1)]
    pos = position(phase, "PRR", ["4"], [*tiles, *loop], [("D6", 0, "PRR")])
    assert solve(pos) == expected


# --------------------------------------------------------------------------- East/West
def test_no_east_to_east_route():
    # Erie D20 upgraded to brown 611 turned by 3 (40) reaches C21 (edge 3) and Buffalo D22
    # (edge 4), both East and 60 in phase III, and Salamanca E21 (edge 5, 10), which leads on
    # to Binghamton E23 (East, 50).  Every East-East route (C21-D20-D22 = 160,
    # C21-D20-E21-E23 = 160 ...) is barred; the 4-train takes D22-D20-E21 = 110.
    pos = position("III", "NYC", ["4"], [("D20", "611", 3)], [("D20", 0, "NYC")])
    assert solve(pos) == 110
    problem, view = build_problem(pos)
    east = frozenset(view.offboard_node(h) for h in ("C21", "D22"))
    assert any(east <= a and east <= b for a, b in problem.rules.forbidden_end_pairs)


@pytest.mark.parametrize(("options", "expected"), [([], 110), (["allow_west_west"], 130)])
def test_no_west_to_west_route(options, expected):
    # Phase II, Chicago green: C5 20, D6.c0 40, Springfield 20, St. Louis 50.  The 4-train's
    # C5-D6.c0-G3-I1 = 130 runs West to West, which the German summary forbids: then
    # I1-G3-D6.c0 = 110.  18xx.games (no shared group on C5 and I1) allows the 130: the
    # option allow_west_west.
    tiles = [("D6", "298", 0), *ST_LOUIS]
    pos = {**position("II", "IC", ["4"], tiles, [("G3", 0, "IC")]), "options": options}
    assert solve(pos) == expected


@pytest.mark.parametrize(
    ("train", "expected"),
    [
        # Phase II: C5 20, D6.c2 40, Toledo 20, Detroit (294) 50, Windsor 40; E-W bonus
        # C5 50 + C17 30 = 80.  A 5-train counts all five: 170 + 80 = 250.
        ("5", 250),
        # A 4-train cannot reach both ends: D6.c2-D14-C15-C17 = 40 + 20 + 50 + 40 = 150.
        ("4", 150),
        # 3/5 counts three of the five.  The bonus needs both ends counted, so C5, C15, C17
        # + 80 = 190 beats D6, C15, C17 = 130 (210 if an uncounted end earned the bonus).
        ("3/5", 190),
    ],
)
def test_east_west_bonus_needs_both_ends_counted(train, expected):
    pos = position("II", "NYC", [train], EAST_WEST, [("C15", 0, "NYC")])
    assert solve(pos) == expected


def test_nm_train_must_count_a_token_city():
    # NYC's only token is Toledo (20).  18xx.games makes a 3/5 count a token city
    # (base.rb compute_stops, data.TOKEN_MUST_BE_COUNTED): C5, D14, C17 + 80 = 160, not
    # C5, C15, C17 + 80 = 190 that merely visits D14.
    pos = position("II", "NYC", ["3/5"], EAST_WEST, [("D14", 0, "NYC")])
    assert solve(pos) == 160
    problem, _ = build_problem(pos)
    assert problem.rules.token_counted


def test_nm_token_counted_follows_the_data_flag(monkeypatch):
    # Without the flag the route only has to visit the token city: 190.
    monkeypatch.setattr(data, "TOKEN_MUST_BE_COUNTED", False)
    pos = position("II", "NYC", ["3/5"], EAST_WEST, [("D14", 0, "NYC")])
    assert solve(pos) == 190


# ------------------------------------------------------------------------ Meat Packing
@pytest.mark.parametrize(
    ("phase", "tiles", "token", "meat", "expected"),
    [
        # 2-train D6.c0 10 + Springfield 20 = 30, +30 meat on Chicago for PRR = 60.
        ("I", SPRINGFIELD, ("D6", 0, "PRR"), ("D6", "PRR"), 60),
        # The bonus persists in phase III (after the company closes).
        ("III", SPRINGFIELD, ("D6", 0, "PRR"), ("D6", "PRR"), 60),
        # Assigned to another corporation: no bonus for PRR.
        ("I", SPRINGFIELD, ("D6", 0, "PRR"), ("D6", "NYC"), 30),
        # The first 6-train (phase IV) removes it.
        ("IV", SPRINGFIELD, ("D6", 0, "PRR"), ("D6", "PRR"), 30),
        # On St. Louis: Springfield 20 + I1 50 + 30 = 100 (phase I).
        ("I", ST_LOUIS, ("G3", 0, "PRR"), ("I1", "PRR"), 100),
    ],
)
def test_meat_packing(phase, tiles, token, meat, expected):
    pos = position(
        phase,
        "PRR",
        ["2"],
        tiles,
        [token],
        owned=["MPC"],
        assignments=[(meat[0], "meat_packing", meat[1])],
    )
    assert solve(pos) == expected


# --------------------------------------------------------------------------- Steamboat
@pytest.mark.parametrize(
    ("phase", "owner", "expected"),
    [
        # Holland 40 (yellow) + South Bend 20, +20 per port icon: Holland shows two = +40.
        ("I", "GT", 100),
        # Phase III: Holland's brown value is 10: 10 + 20 + 40 = 70.
        ("III", "GT", 70),
        # Assigned to another company: 60.
        ("I", "NYC", 60),
        # Phase IV removes the bonus: 10 + 20 = 30.
        ("IV", "GT", 30),
    ],
)
def test_steamboat_holland(phase, owner, expected):
    tiles = [("B10", "7", 0), ("C9", "57", 3)]
    pos = position(
        phase, "GT", ["2"], tiles, [("C9", 0, "GT")], assignments=[("B8", "steamboat", owner)]
    )
    assert solve(pos) == expected


def test_steamboat_toledo_for_a_minor():
    # Michigan Southern's 2-train: Toledo 20 + Detroit 40, +20 for Toledo's one port = 80.
    tiles = [("D14", "6", 0), ("C13", "7", 4)]
    pos = position(
        "I", "MS", ["2"], tiles, [("C15", 0, "MS")], assignments=[("D14", "steamboat", "MS")]
    )
    assert solve(pos) == 80


# ---------------------------------------------------------------------------- Boomtown
@pytest.mark.parametrize(("owner", "expected"), [("B&O", 80), ("NYC", 60)])
def test_boomtown(owner, expected):
    # Cincinnati 293 (40) to Dayton 57 (20) = 60, +20 Boomtown for B&O.
    tiles = [("H12", "293", 0), ("G13", "57", 0)]
    pos = position(
        "II", "B&O", ["2"], tiles, [("H12", 0, "B&O")], assignments=[("H12", "boomtown", owner)]
    )
    assert solve(pos) == expected


# ----------------------------------------------------------------------- Mail Contract
@pytest.mark.parametrize(
    ("owned", "expected"),
    [
        # The 3/5 route of the East-West test earns 190 and visits five stops (two of them
        # not counted); the Mail Contract pays $10 for each visited stop: 190 + 50 = 240.
        (["MAIL"], 240),
        # Michigan Central ("MC") is not the Mail Contract.
        (["MC"], 190),
    ],
)
def test_mail_contract_pays_per_visited_stop(owned, expected):
    pos = position("II", "NYC", ["3/5"], EAST_WEST, [("C15", 0, "NYC")], owned=owned)
    assert solve(pos) == expected


def test_mail_contract_on_the_longest_route_only():
    # Two 2-trains from Port Huron (tile 6: Detroit and Sarnia): 60 + 50, plus $10 x 2 stops
    # once (not per route) = 130.
    pos = position("I", "GT", ["2", "2"], [("B16", "6", 4)], [("B16", 0, "GT")], owned=["MAIL"])
    assert solve(pos) == 130


# ------------------------------------------------------------------------ position checks
@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        (("G19", "meat_packing", "PRR"), "cannot be assigned"),
        (("D6", "cattle", "PRR"), "unknown 1846 ability"),
    ],
)
def test_bad_assignments_are_rejected(assignment, message):
    pos = position("I", "PRR", ["2"], [], [], assignments=[assignment])
    with pytest.raises(PositionError, match=message):
        load_position(pos)


# ----------------------------------------------------------------------------- examples
@pytest.mark.parametrize("name", ["1846-early", "1846-mid", "1846-late"])
def test_example_loads_and_solves(name):
    path = EXAMPLES / f"{name}.json"
    pos = load_position(path)
    assert pos.title == "1846"
    problem, view = build_problem(pos)
    assert isinstance(problem, routing.Problem)
    assert view.own_token_nodes
    sol = routing.solve(problem, time_limit=120)
    assert sol.optimal
    assert sol.total == json.loads(path.read_text())["extras"]["expected_total"]
    assert sol.total >= pos.extras["played_total"]


# --------------------------------------------------------------------------------- data
def test_east_west_amounts_match_the_map_icons():
    # game.rb east_west_bonus: East = offboards of group E, West = offboards labelled W; the
    # amount is the offboard's numeric icon.
    east, west = {}, {}
    for code, coords in data.HEXES["red"].items():
        numbers = [
            int(p.split("/")[-1])
            for p in code.split(";")
            if p.startswith("icon=image:1846/") and p.split("/")[-1].isdigit()
        ]
        for coord in coords:
            if "groups:E" in code:
                east[coord] = sum(numbers)
            if "label=W" in code:
                west[coord] = sum(numbers)
    assert east == data.EAST_BONUS
    assert west == data.WEST_BONUS


def test_every_train_converts():
    view_trains = {}
    title = get_title("1846")
    for t in title.data.TRAINS:
        for spec in (t, *t.get("variants", [])):
            view_trains[spec["name"]] = spec
    assert set(view_trains) == {"2", "4", "3/5", "5", "4/6", "6", "7/8"}
    # every train of the title at once, rusted ones too: no game has this position, so it is
    # built without the position checks
    pos = position("IV", "PRR", list(view_trains), [], [("F20", 0, "PRR")])
    problem, _ = build_problem(pos, check=False)
    rows = {t.name: [(r.pay, r.visit) for r in t.rows] for t in problem.trains}
    assert rows["3/5"] == [(3, 5)] and rows["4/6"] == [(4, 6)] and rows["7/8"] == [(7, 8)]
    assert rows["2"] == [(2, 2)] and rows["6"] == [(6, 6)]
