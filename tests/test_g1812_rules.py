"""1812: one test per revenue rule, on hand-built positions.

Every position is solved by ``routing.solve`` and cross-checked with the brute-force oracle
``tests/naive.py``; the expected revenue is worked out in a comment.  The rules are the
rulebook's (``shared/seeds/1812-rules.txt``), facts from 18xx.games (engine/games/g1812/data.py).

Flat map, edges: 0 bottom (S), 1 lower-left, 2 upper-left, 3 top (N), 4 upper-right,
5 lower-right; tile rotation r adds r.  Tiles used: 3 (town, 0-1), 4 (town, 0-3),
58 (town, 0-2), 6 (city 20, 0-2), 57 (city 20, 0-3), 7/8/9 (track 0-1/0-2/0-3),
202 (Y city 30, 0-2), 621 (Y city 30, 0-3), 207 (Y city 40, 0-1-2-3), 622 (Y city 40,
0-2-3-4), 611 (city 40, 0..4), 623 (Y city 50, all), X20 (Hull 50, 1..5).

Printed values by phase (2 | 3 | 4 | 5-6): Berwick 10|30|40|40, Newark 20|30|40|50,
Derby 30|40|50|50, Lincoln 20|30|40|40, mine 30|40|50|60, North-South bonus 40|50|60|70.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import routing
from engine import build_problem
from engine.games.g1812 import data, rules
from routing import NodeKind

sys.path.insert(0, str(Path(__file__).parent))
from naive import naive_solve  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"


# ----------------------------------------------------------------------------- helpers
def position(company, trains, tiles=(), tokens=(), phase="2", owned=()) -> dict:
    """A position dict: ``tiles`` as (hex, tile, rotation), ``tokens`` as (hex, city, company)."""
    return {
        "title": "1812",
        "phase": phase,
        "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
        "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
        "company": company,
        "trains": list(trains),
        "owned_companies": list(owned),
    }


def solve(pos: dict):
    """(problem, solution); the numba search and the naive oracle must agree."""
    problem, _view = build_problem(pos)
    solution = routing.solve(problem)
    assert solution.optimal
    oracle = naive_solve(problem)
    assert solution.total == oracle.total, (solution.total, oracle.total)
    return problem, solution


def total(pos: dict) -> int:
    return solve(pos)[1].total


def node(problem, name: str) -> int:
    return problem.network.node_index(name)


# Newcastle south circle (E4 c0, edges 0 and 4 -> port F3) - Durham E6 (town + mine) -
# Middlesbrough E8 - E10 - E12 - York north circle (E14 c1, edge 3).
YORK_LINE = [("E6", "4", 0), ("E8", "57", 0), ("E10", "9", 0), ("E12", "9", 0)]
# Newcastle - Durham - Middlesbrough (E8 edges 3, 5) - gray F9 - Middlesbrough port G8.
DURHAM_TO_G8 = [("E6", "4", 0), ("E8", "6", 3)]
# Berwick F1 - E2 mine - Newcastle (green, one city) - Durham - Middlesbrough - York (green).
NORTH_LINE = [
    ("E2", "8", 4),
    ("E4", "622", 0),
    ("E6", "4", 0),
    ("E8", "57", 0),
    ("E10", "9", 0),
    ("E12", "9", 0),
    ("E14", "207", 0),
]
# ... York - Selby (town) - E18 - Newark (S).
TO_NEWARK = [("E16", "4", 0), ("E18", "9", 0)]
# Leeds south circle (edge 1) - B15 mine - B13 - Harrogate (town) - Leeds north circle (edge 3).
LEEDS_LOOP = [("B15", "7", 3), ("B13", "8", 4), ("C12", "3", 0)]
# Sheffield - Derby - D19 - Newark - E18 - Lincoln.
SHEFFIELD_SOUTH = [("C18", "621", 0), ("D19", "8", 5), ("E18", "7", 5)]
# Hartlepool port G6 - Hartlepool F7 - Middlesbrough E8 - Durham E6 - Newcastle E4 - port F3.
HARTLEPOOL_LINE = [("E8", "611", 0), ("F7", "4", 1), ("E6", "4", 0), ("E4", "622", 0)]
# Hull (brown X20) - F15 - York (green, edges 3-4-5-0) - Selby - E18 - Newark.
HULL_LINE = [("G16", "X20", 0), ("F15", "9", 2), ("E14", "207", 3), *TO_NEWARK]


# ----------------------------------------------------------------------------- passenger
def test_n_train_may_skip_small_cities_but_not_large():
    # 2-train from Newcastle (30): Durham (town 10) may be skipped, Middlesbrough (20) may
    # not, so York (30) is out of reach: Newcastle + Middlesbrough = 50 (not 30 + 30 = 60).
    pos = position("6", ["2"], YORK_LINE, [("E4", 0, "6")])
    assert total(pos) == 50
    # A 3-train reaches York: 30 + 20 + 30 = 80 (Durham skipped).
    pos["trains"] = ["3"]
    assert total(pos) == 80


def test_three_plus_one_adds_one_small_city():
    # 3+1 (Phase 3): the 3-train's 80 plus Durham (10) = 90.
    pos = position("6", ["3+1"], YORK_LINE, [("E4", 0, "6")], phase="3")
    assert total(pos) == 90


def test_passenger_trains_do_not_run_to_ports_or_end_at_mines():
    # Newcastle north circle (30) - E2 mine - Berwick (10): the 2-train scores 40.  It may
    # neither end at the port F3 nor stop at the mine (one city and a mine are not "two
    # cities", §7.3.4).
    pos = position("5", ["2"], [("E2", "8", 4)], [("E4", 1, "5")])
    problem, solution = solve(pos)
    assert solution.total == 40
    city, mine, port = node(problem, "E4.c1"), node(problem, "E2.m0"), node(problem, "F3.o")
    for nodes in ([city, port], [city, mine]):
        with pytest.raises(routing.RouteError):
            routing.validate(problem, [(0, nodes)])


def test_3d_counts_any_three_and_doubles():
    # Phase 6, NER at Newcastle (40): Berwick 40, Newcastle 40, Durham 10, Middlesbrough 20,
    # York 40.  The 3D skips Middlesbrough (a large city) and Durham: (40+40+40) x 2 = 240.
    pos = position("NER", ["3D"], NORTH_LINE, [("E4", 0, "NER")], phase="6")
    assert total(pos) == 240
    # A 5-train may not skip Middlesbrough: 40 + 40 + 20 + 40 + Durham 10 = 150.
    pos["trains"] = ["5"]
    assert total(pos) == 150


def test_north_south_bonus_at_the_ends_doubled_by_3d():
    # Berwick (N, 40) ... Newark (S, 50): the 3D counts both ends and one 40:
    # (40 + 50 + 40 + N-S 70) x 2 = 400 (the best three without the bonus would be 260).
    pos = position("NER", ["3D"], NORTH_LINE + TO_NEWARK, [("E4", 0, "NER")], phase="6")
    problem, solution = solve(pos)
    assert solution.total == 400
    (route,) = solution.routes
    names = {problem.network.node_names[n] for n in route.counted}
    assert {"F1.o", "E20.c0"} <= names
    # A 5-train counts the five large stops: 40 + 40 + 20 + 40 + 50 + 70 = 260, not doubled.
    pos["trains"] = ["5"]
    assert total(pos) == 260


def test_derby_and_newark_do_not_end_routes():
    # Phase 5, MR at Sheffield (30): Sheffield - Derby (50) - Newark (50) - Lincoln (40), all
    # red areas but Derby and Newark may be passed (§7.1): 170.  South-south: no bonus.
    pos = position("MR", ["4"], SHEFFIELD_SOUTH, [("C18", 0, "MR")], phase="5")
    assert total(pos) == 170
    # Derby's one slot taken by another company: it may only end a route: 30 + 50 = 80.
    pos["tokens"].append({"hex": "C20", "city": 0, "company": "GNR"})
    assert total(pos) == 80


def test_leeds_two_yellow_circles_never_on_one_route():
    # Minor 4 at Leeds south (30): Leeds - B15 mine - B13 - Harrogate (10) - Leeds north.
    # Both circles on one route are forbidden (§7.1): 30 + 10 = 40, not 30 + 30 = 60.
    pos = position("4", ["2"], LEEDS_LOOP, [("C14", 0, "4")])
    problem, solution = solve(pos)
    assert solution.total == 40
    groups = problem.network.node_group
    assert groups[node(problem, "C14.c0")] == groups[node(problem, "C14.c1")] >= 0


def test_carlisle_is_one_area_and_p10_pays_on_both_hexes():
    problem, _ = build_problem(position("4", ["2"], (), [("C14", 0, "4")], owned=["P10"]))
    a4, a8 = node(problem, "A4.o"), node(problem, "A8.o")
    assert problem.network.node_group[a4] == problem.network.node_group[a8] >= 0
    bonus = problem.rules.node_bonus_map()
    assert bonus[a4] == bonus[a8] == 20


def test_city_private_bonus_and_phase_5_closing():
    # Middleton Railway: +10 Leeds.  Phase 4, a 4-train on the Leeds loop: 30 + 10 + 10 = 50.
    pos = position("LYR", ["4"], LEEDS_LOOP, [("C14", 0, "LYR")], phase="4", owned=["P2"])
    assert total(pos) == 50
    # Phase 5 closes privates #1-#10: 40.
    pos["phase"], pos["trains"] = "5", ["5"]
    assert total(pos) == 40


def test_hull_docks_bonus_doubled_by_3d():
    # Phase 6, GNR at Hull (brown 50, +20 Hull Docks, permanent): Hull - York (40) - Selby -
    # Newark (50); the 3D: (70 + 40 + 50) x 2 = 320; without the private (50+40+50) x 2 = 280.
    pos = position("GNR", ["3D"], HULL_LINE, [("G16", 0, "GNR")], phase="6", owned=["P11"])
    assert total(pos) == 320
    pos["owned_companies"] = ["P10"]  # closed in Phase 6, and not on the route anyway
    assert total(pos) == 280


# ----------------------------------------------------------------------------- goods
def test_goods_train_runs_to_a_port_with_one_mine():
    # Phase 3, minor 6 at Newcastle (30): port F3 - Newcastle - Durham (town 10, mine 40) -
    # Middlesbrough (20) - port G8.  Port and mine do not count towards the train's number.
    own = [("E4", 0, "6")]
    # 2G: Newcastle + Middlesbrough + mine = 30 + 20 + 40 = 90 (ports worth 0).
    assert total(position("6", ["2G"], DURHAM_TO_G8, own, phase="3")) == 90
    # 2+1G adds Durham: 100.
    assert total(position("6", ["2+1G"], DURHAM_TO_G8, own, phase="3")) == 100
    # 1G: one city only, so F3 - Newcastle - Durham mine: 30 + 40 = 70.
    assert total(position("6", ["1G"], DURHAM_TO_G8, own, phase="3")) == 70
    # The passenger side: Newcastle + Middlesbrough = 50.
    assert total(position("6", ["2"], DURHAM_TO_G8, own, phase="3")) == 50


def test_goods_train_needs_a_mine():
    # Minor 5 at Newcastle north: only the port F3 is reachable, no mine: 0.
    assert total(position("5", ["2G"], (), [("E4", 1, "5")], phase="3")) == 0


def test_goods_train_needs_a_port():
    # Phase 2, minor 8 at Sheffield (30) - Doncaster (town 10, mine) - Selby (10): no port, so
    # the 1G earns nothing; the 2-train 30 + 10 = 40.
    tiles = [("C18", "202", 2), ("D17", "4", 1), ("E16", "4", 1)]
    assert total(position("8", ["2", "1G"], tiles, [("C18", 0, "8")])) == 40


@pytest.mark.parametrize(
    ("phase", "train", "expected"),
    [
        # 1G: F3 - Newcastle (30) - E2 mine (30): a mine-to-port run, Berwick not reached.
        ("2", "1G", 60),
        # F3 - Newcastle (30) - E2 mine - Berwick: 30 + Berwick 30 + mine 40.
        ("3", "2G", 100),
        ("4", "2G", 30 + 40 + 50),
        ("5", "4+2G", 30 + 40 + 60),
    ],
)
def test_mine_and_red_area_values_by_phase(phase, train, expected):
    pos = position("NER", [train], [("E2", "8", 4)], [("E4", 1, "NER")], phase=phase)
    assert total(pos) == expected


def test_goods_train_scores_one_mine_only():
    # Phase 4, NER at Newcastle (30): F3 - Newcastle - Durham (town 10, mine 50) - D7 mine -
    # Darlington (10).  2G: 30 + one small city 10 + one mine 50 = 90 (not + 50 again).
    tiles = [("E6", "58", 1), ("D7", "8", 4), ("D9", "4", 0)]
    assert total(position("NER", ["2G"], tiles, [("E4", 0, "NER")], phase="4")) == 90


def test_port_bonus_privates():
    # The 2G run above (90) ends at Newcastle port F3: Wylam +10, Stanhope & Tyne +10.
    own = [("E4", 0, "6")]
    assert total(position("6", ["2G"], DURHAM_TO_G8, own, phase="3", owned=["P3"])) == 100
    assert total(position("6", ["2G"], DURHAM_TO_G8, own, phase="3", owned=["P3", "P8"])) == 110
    # Passenger trains never reach ports: no bonus.
    assert total(position("6", ["2"], DURHAM_TO_G8, own, phase="3", owned=["P3"])) == 50


def test_2_plus_2_gd_doubles_everything():
    # Phase 6, NER at Middlesbrough (40): port G6 - Hartlepool (10) - Middlesbrough -
    # Durham (10, mine 60) - Newcastle (40) - port F3.  2+2GD: 2 large + 2 small + mine +
    # Hartlepool Docks at G6 (+10, permanent), doubled: (40+40+10+10+60+10) x 2 = 340.
    own = [("E8", 0, "NER")]
    pos = position("NER", ["2+2GD"], HARTLEPOOL_LINE, own, phase="6", owned=["P12"])
    assert total(pos) == 340
    pos["owned_companies"] = []
    assert total(pos) == 320
    # 4+2G on the same run, not doubled: 170.
    assert total(position("NER", ["4+2G"], HARTLEPOOL_LINE, own, phase="6", owned=["P12"])) == 170


def test_three_plus_two_g_up_to_three_large_and_two_small():
    # Phase 4, same run: 3+2G: Middlesbrough 40 + Newcastle 40 + Hartlepool 10 + Durham 10 +
    # mine 50 + Hartlepool Docks 10 = 160.
    pos = position("NER", ["3+2G"], HARTLEPOOL_LINE, [("E8", 0, "NER")], phase="4", owned=["P12"])
    assert total(pos) == 160


def test_each_goods_train_scores_a_different_mine():
    # Phase 4, NER at Newcastle (30) and Middlesbrough (20), two 2G, the only mine is Durham.
    # Illegal: F3 - Newcastle - Durham (30+10+50 = 90) and G8 - Middlesbrough - Durham
    # (20+10+50 = 80) = 170, both scoring Durham through two different mine nodes of E6.
    # Legal best: one run F3 - Newcastle - Durham - Middlesbrough - G8 = 30 + 20 + 50 = 100;
    # the other 2G has no mine left.
    tokens = [("E4", 0, "NER"), ("E8", 0, "NER")]
    problem, solution = solve(position("NER", ["2G", "2G"], DURHAM_TO_G8, tokens, phase="4"))
    assert solution.total == 100
    # Every mine node of E6 carries E6's key.
    keys = dict(problem.rules.designated_keys)
    durham = [
        n for n in range(problem.network.n_nodes) if problem.network.node_names[n][:4] == "E6.m"
    ]
    assert len(durham) > 1 and {keys[n] for n in durham} == {problem.network.hex_names.index("E6")}
    # Tile 4 in E6 has two paths (side - Durham), so E6 has two mine nodes, one per path.
    # Each run alone is legal; together they score one mine twice.
    run_a = [node(problem, n) for n in ("F3.o", "E4.c0", "E6.m1", "E6.t0")]
    run_b = [node(problem, n) for n in ("G8.o", "E8.c0", "E6.m0", "E6.t0")]
    assert routing.validate(problem, [(0, run_a)]).total == 90
    assert routing.validate(problem, [(1, run_b)]).total == 80
    with pytest.raises(routing.RouteError):
        routing.validate(problem, [(0, run_a), (1, run_b)])


def test_3d_must_count_its_own_station():
    # Phase 6, NER only at Middlesbrough (20) on the north line: the three best (Berwick,
    # Newcastle, York, 40 each: 240) leave the station out; legal: (40+40+20) x 2 = 200.
    pos = position("NER", ["3D"], NORTH_LINE, [("E8", 0, "NER")], phase="6")
    problem, solution = solve(pos)
    assert solution.total == 200
    assert problem.rules.token_counted
    (route,) = solution.routes
    assert node(problem, "E8.c0") in route.counted


@pytest.mark.parametrize(("station", "expected"), [("E8", 260), ("E4", 300)])
def test_2_plus_2_gd_must_count_its_own_station(station, expected):
    # Phase 6, 2+2GD on F3 - Newcastle (40) - Durham (10, mine 60) - Middlesbrough (20) -
    # York (40).  NER only at Middlesbrough: the two large cities counted must include it,
    # (20 + 40 + 10 + 60) x 2 = 260 (not Newcastle + York = 300).  NER at Newcastle: 300.
    pos = position("NER", ["2+2GD"], NORTH_LINE, [(station, 0, "NER")], phase="6")
    assert total(pos) == expected


@pytest.mark.parametrize(
    "name", ["2", "1G", "3", "2G", "3+1", "2+1G", "4", "3+2G", "5", "4+2G", "3D", "2+2GD"]
)
def test_token_counted_binds_only_3d_and_2_plus_2_gd(name):
    # token_counted is a company-wide flag.  It is exact for 1812 because station markers sit
    # in cities and every train but 3D/2+2GD counts each city it visits: no skip of ``city``
    # and every row holding ``city`` pays all it visits.
    train = rules.make_train(name)
    city = routing.kind_mask(NodeKind.CITY)
    counts_every_city = not train.skip & city and all(
        r.pay == r.visit for r in train.rows if r.kinds & city
    )
    assert counts_every_city == (name not in ("3D", "2+2GD"))


# ----------------------------------------------------------------------------- modelling
def test_mine_nodes_split_each_path_without_joining_paths():
    # A crossing in hex X (paths a-c and b-d, as tile 16) between four stops.
    b = routing.NetworkBuilder()
    stops = [b.add_stop(NodeKind.CITY, 10, hex=h) for h in ("A", "B", "C", "D")]
    sides = [b.add_junction(hex="X") for _ in range(4)]
    for stop, side in zip(stops, sides, strict=True):
        b.add_segment(stop, side, hex="Y", side_v=1)
    b.add_segment(sides[0], sides[2], hex="X", side_u=2, side_v=2)
    b.add_segment(sides[1], sides[3], hex="X", side_u=2, side_v=2)
    net = b.build()
    new, mines = rules.add_mine_nodes(net, ["X"], 60)
    assert list(mines) == ["X"] and len(mines["X"]) == 2
    assert np.array_equal(new.node_kind[: net.n_nodes], net.node_kind)
    for m in mines["X"]:
        assert new.node_kind[m] == NodeKind.MINE and new.node_value[m] == 60
    ends = []
    for m in mines["X"]:
        ends.append(
            {int(new.seg_v[j]) if new.seg_u[j] == m else int(new.seg_u[j])
             for j in range(new.n_segments) if m in (new.seg_u[j], new.seg_v[j])}
        )  # fmt: skip
    assert sorted(map(sorted, ends)) == [[sides[0], sides[2]], [sides[1], sides[3]]]
    # The junction side labels are kept, so no route turns from one path onto the other.
    p = routing.Problem(new, (routing.Train.n("4", 4),))
    assert naive_solve(p).total == 20


def test_ports_are_port_nodes_and_only_goods_trains_score_them():
    problem, _ = build_problem(position("6", ["2G"], (), [("E4", 0, "6")]))
    kinds = problem.network.node_kind
    assert {problem.network.node_names[n] for n in np.flatnonzero(kinds == NodeKind.PORT)} == {
        f"{h}.o" for h in data.PORT_HEXES
    }
    assert not any(r.kinds & routing.kind_mask(NodeKind.PORT) for r in rules.make_train("5").rows)


def test_city_named_tiles():
    # §7.3.2: "Leeds in grey and Hull in brown" (X30, X20) go on those cities only.
    from engine.games import load_position
    from engine.model.position import PositionError

    load_position(position("2", ["2"], [("G16", "X20", 0)], phase="5"))
    with pytest.raises(PositionError, match="only be laid on G16"):
        load_position(position("8", ["2"], [("C18", "X20", 0)], phase="5"))


def test_train_table():
    # Every card side is a train; G-trains end at a port and designate a mine.
    for name in ("2", "1G", "3", "2G", "3+1", "2+1G", "4", "3+2G", "5", "4+2G", "3D", "2+2GD"):
        train = rules.make_train(name)
        assert bool(train.designated_kind) == name.endswith(("G", "GD"))
        assert train.multiplier == (2 if name in ("3D", "2+2GD") else 1)
    # 3+2G: "up to five cities, up to three of which may be large" (§7.3.4).
    cto = routing.kind_mask(NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD)
    rows = [(r.kinds, r.pay, r.visit) for r in rules.make_train("3+2G").rows]
    assert rows[:2] == [(cto, 3, 3), (routing.kind_mask(NodeKind.TOWN), 2, 2)]
    assert [p["name"] for p in data.PHASES] == ["2", "3", "4", "5", "6"]


# ----------------------------------------------------------------------------- examples
@pytest.mark.parametrize("name", ["early", "mid", "late"])
def test_example_builds_a_problem(name):
    path = EXAMPLES / f"1812-{name}.json"
    problem, view = build_problem(str(path))
    assert isinstance(problem, routing.Problem)
    assert problem.trains and view.title.id == "1812"
    if name == "late":
        assert {t.name for t in problem.trains} == {"3D", "4+2G"}


@pytest.mark.parametrize("name", ["early", "mid", "late"])
def test_example_totals(name):
    # Worked out in each file's extras.note; the search and the oracle must agree.
    path = EXAMPLES / f"1812-{name}.json"
    problem, _ = build_problem(str(path))
    expected = json.loads(path.read_text())["extras"]["expected_total"]
    assert routing.solve(problem).total == expected
    assert naive_solve(problem).total == expected
