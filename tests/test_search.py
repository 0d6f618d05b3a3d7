"""Hand-built positions for the numba search: the traps, every rule, time limits, caching.

Each expected revenue is worked out in a comment; every case is also checked against the
brute-force oracle so a mistake in the arithmetic shows up as a disagreement.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from routing import (
    BonusRoute,
    EndPairBonus,
    LongestRouteBonus,
    Network,
    NetworkBuilder,
    NodeKind,
    Problem,
    Rules,
    Train,
    solve,
    validate,
)
from routing.synthetic import synthetic_problem
from tests.naive import naive_solve

CITY, TOWN, OFF, PORT, MINE = (
    NodeKind.CITY,
    NodeKind.TOWN,
    NodeKind.OFFBOARD,
    NodeKind.PORT,
    NodeKind.MINE,
)


def _solve(problem: Problem, expected: int):
    got = solve(problem)
    assert got.optimal and got.bound == got.total
    assert got.total == expected, got
    assert naive_solve(problem).total == expected
    declared = [(r.train, r.nodes, r.segments) for r in got.routes]
    assert validate(problem, declared).total == expected
    return got


def test_joint_optimum_is_not_individually_optimal():
    # A(40) - B(30) - C(50) in a line, plus A - D(20) by its own track.
    # Alone, a 2-train's best is B-C = 80 and a 3-train's best is A-B-C = 120.
    # Together the 3-train cannot run A-B-C if the 2-train takes B-C; the optimum is
    # 3-train D-A-B (20+40+30 = 90) + 2-train ... no: best pair is 3-train A-B-C (120)
    # + 2-train A-D (60) = 180, whereas the 2-train's solo best B-C (80) leaves the 3-train
    # only D-A (60): 140.
    b = NetworkBuilder()
    a, bb, c, d = (
        b.add_stop(CITY, v, hex=h) for v, h in ((40, "A"), (30, "B"), (50, "C"), (20, "D"))
    )
    b.add_segment(a, bb, "AB")
    b.add_segment(bb, c, "BC")
    b.add_segment(a, d, "AD")
    p = Problem(b.build(), (Train.n("2", 2), Train.n("3", 3)), Rules.make(token_nodes=[a]))
    got = _solve(p, 180)
    by_train = {r.train: set(r.counted) for r in got.routes}
    assert by_train[0] == {a, d} and by_train[1] == {a, bb, c}


def test_junction_without_back_tracking():
    # A(20) and B(30) both reach junction J on the same side: A-J-B would reverse over J's
    # sharp angle.  C(10) leaves J on the other side.  Best 2-train: B-J-C = 40 (not A-B = 50).
    b = NetworkBuilder()
    a, bb, c = b.add_stop(CITY, 20, "A"), b.add_stop(CITY, 30, "B"), b.add_stop(CITY, 10, "C")
    j = b.add_junction("J")
    b.add_segment(a, j, "A", side_v=0)
    b.add_segment(bb, j, "B", side_v=0)
    b.add_segment(j, c, "C", side_u=1)
    p = Problem(b.build(), (Train.n("2", 2),), Rules.make(token_nodes=[a, bb]))
    _solve(p, 40)


def test_tokened_out_city_only_as_an_end():
    # A(20, ours) - X(50, full of other tokens: terminal) - B(40).
    # A 3-train cannot run A-X-B (120); it can end at X: A-X = 70.
    b = NetworkBuilder()
    a = b.add_stop(CITY, 20, "A")
    x = b.add_stop(CITY, 50, "X", terminal=True)
    bb = b.add_stop(CITY, 40, "B")
    b.add_segment(a, x, "AX")
    b.add_segment(x, bb, "XB")
    p = Problem(b.build(), (Train.n("3", 3),), Rules.make(token_nodes=[a]))
    _solve(p, 70)


def test_both_cities_of_a_two_city_hex():
    # Hex H holds two separate cities H1(30) and H2(30) joined through A(20) and B(10):
    # H1 - A - H2 - B.  A 4-train counts all four: 30 + 20 + 30 + 10 = 90.
    b = NetworkBuilder()
    h1 = b.add_stop(CITY, 30, "H")
    h2 = b.add_stop(CITY, 30, "H")
    a, bb = b.add_stop(CITY, 20, "A"), b.add_stop(CITY, 10, "B")
    b.add_segment(h1, a, "A")
    b.add_segment(a, h2, "A")
    b.add_segment(h2, bb, "B")
    p = Problem(b.build(), (Train.n("4", 4),), Rules.make(token_nodes=[a]))
    _solve(p, 90)


def test_group_per_route_like_chicago():
    # The same two cities in one group (Chicago): only one per route: best 4-train is
    # H1 - A - ... can't include H2: A(20)+H1(30) = 50, or H2(30)+A(20)+... H2-B side:
    # A - H2 - B = 20 + 30 + 10 = 60.
    b = NetworkBuilder()
    h1 = b.add_stop(CITY, 30, "H", group=0)
    h2 = b.add_stop(CITY, 30, "H", group=0)
    a, bb = b.add_stop(CITY, 20, "A"), b.add_stop(CITY, 10, "B")
    b.add_segment(h1, a, "A")
    b.add_segment(a, h2, "A")
    b.add_segment(h2, bb, "B")
    p = Problem(b.build(), (Train.n("4", 4),), Rules.make(token_nodes=[a]))
    _solve(p, 60)


def _star():
    """Hub T(10, token) with spokes to W(40 offboard), E1(30 offboard), E2(20 offboard), C(30)."""
    b = NetworkBuilder()
    t = b.add_stop(CITY, 10, "T")
    w = b.add_stop(OFF, 40, "W")
    e1 = b.add_stop(OFF, 30, "E1")
    e2 = b.add_stop(OFF, 20, "E2")
    c = b.add_stop(CITY, 30, "C")
    for x, h in ((w, "W"), (e1, "E1"), (e2, "E2"), (c, "C")):
        b.add_segment(t, x, h)
    return b.build(), t, w, e1, e2, c


def test_bonuses_that_do_not_add_up_across_trains():
    # Mail-contract style: +10 per stop of ONE route only.  Two 3-trains on the star:
    # W-T-E1 (80, 3 stops) and E2-T-C (60, 3 stops): 140 + one route's 3 stops * 10 = 170,
    # not 140 + 60 = 200.
    net, t, w, e1, e2, c = _star()
    rules = Rules.make(token_nodes=[t], longest_route_bonuses=[LongestRouteBonus(10)])
    p = Problem(net, (Train.n("3", 3), Train.n("3", 3)), rules)
    got = _solve(p, 170)
    assert sum(1 for r in got.routes if r.bonuses.get("longest-route")) == 1


def test_end_pair_bonus_needs_both_ends_counted():
    # E/W bonus W:+30, E1:+20 when both ends are counted.  A 4/6... here a 2/3 train
    # (visit 3, count best 2) on W-T-E1: counting W and E1 (40+30) + 50 bonus = 120 beats
    # counting anything with T.
    net, t, w, e1, e2, c = _star()
    rules = Rules.make(token_nodes=[t], end_pair_bonuses=[EndPairBonus.make({w: 30}, {e1: 20})])
    p = Problem(net, (Train.n_m("2/3", 2, 3),), rules)
    got = _solve(p, 120)
    assert got.routes[0].bonuses == {"end-pair": 50}


def test_token_counted():
    # 2/3 train on W-T-E1 must count the token T(10): best is W + T = 50, not W + E1 = 70.
    net, t, w, e1, e2, c = _star()
    p = Problem(net, (Train.n_m("2/3", 2, 3),), Rules.make(token_nodes=[t], token_counted=True))
    _solve(p, 50)
    # without the rule: 70
    _solve(Problem(net, (Train.n_m("2/3", 2, 3),), Rules.make(token_nodes=[t])), 70)


def test_min_counted_with():
    # W counts only with two other counted stops: a 2-train can't use W (best T-C = 40);
    # a 3-train runs W-T-C = 80.
    net, t, w, e1, e2, c = _star()
    rules = Rules.make(token_nodes=[t], min_counted_with=[([w], 2)])
    _solve(Problem(net, (Train.n("2", 2),), rules), 40)
    _solve(Problem(net, (Train.n("3", 3),), rules), 80)


def test_bonus_route_claimed_once():
    # Bonus route T..C worth 100 - 10 per hex.  Two 2-trains: T-C (40, hexes T and C: +80)
    # and T-W (50); the bonus is claimed once: 40 + 80 + 50 = 170.
    net, t, w, e1, e2, c = _star()
    rules = Rules.make(token_nodes=[t], bonus_routes=[BonusRoute.make([t], [c], 100)])
    _solve(Problem(net, (Train.n("2", 2), Train.n("2", 2)), rules), 170)


def test_goods_trains_need_distinct_mines_by_key():
    # Port P(0) - city A(20, token) - two mine nodes M1, M2 of the same mine (key 7), each
    # worth 30, on separate track: P-A-M1 and ... a goods route must end at the port, so the
    # two goods trains need two port links.  With the key, only one may score the mine:
    # 50 + (the other runs P2-A-M2 but cannot score it: needs a mine) = 50.
    b = NetworkBuilder()
    a = b.add_stop(CITY, 20, "A")
    p1, p2 = b.add_stop(PORT, 0, "P1", terminal=True), b.add_stop(PORT, 0, "P2", terminal=True)
    m1, m2 = b.add_stop(MINE, 30, "M"), b.add_stop(MINE, 30, "M")
    for x, y in ((p1, a), (p2, a), (a, m1), (a, m2)):
        b.add_segment(x, y, "h")
    net = b.build()
    trains = (Train.goods("1G", 1), Train.goods("1G", 1))
    _solve(Problem(net, trains, Rules.make(token_nodes=[a])), 100)
    _solve(Problem(net, trains, Rules.make(token_nodes=[a], designated_keys={m1: 7, m2: 7})), 50)


def test_a_lone_goods_train_designates_the_best_mine_of_its_route():
    # Port P - mine M1 (30) - city A (20, token) - mine M2 (50) - city B (10), one line, and
    # a 2-train.  The only goods train keeps one variant per route (its best mine): 1G on
    # P-M1-A-M2-B counts A 20 + mine 50 = 70; the 2-train has no track left: 70.  With the
    # 2-train running A-M2-B instead (20 + 10 = 30) the 1G runs P-M1-A for 20 + 30 = 50: 80.
    b = NetworkBuilder()
    p, m1 = b.add_stop(PORT, 0, "P", terminal=True), b.add_stop(MINE, 30, "M1")
    a, m2, bb = b.add_stop(CITY, 20, "A"), b.add_stop(MINE, 50, "M2"), b.add_stop(CITY, 10, "B")
    for x, y in ((p, m1), (m1, a), (a, m2), (m2, bb)):
        b.add_segment(x, y, "h")
    net = b.build()
    rules = Rules.make(token_nodes=[a])
    got = _solve(Problem(net, (Train.goods("1G", 1),), rules), 70)
    assert got.routes[0].designated == m2
    got = _solve(Problem(net, (Train.goods("1G", 1), Train.n("2", 2)), rules), 80)
    assert {r.designated for r in got.routes} == {m1, None}


def test_two_goods_trains_keep_a_second_mine_for_each_route():
    # X: port P1 - mine M1 (50) - mine M2 (30) - city A (20, token), the only route there
    # (it needs the token); Y: port P2 - mine M1' (50, the same mine as M1: key 7) - city B
    # (10, token).  X alone takes M1: 70.  Together Y needs M1', so X must designate its
    # second mine M2: 20 + 30 and 10 + 50 = 110 (X on M1 would leave Y without a mine: 70).
    b = NetworkBuilder()
    p1, p2 = b.add_stop(PORT, 0, "P1", terminal=True), b.add_stop(PORT, 0, "P2", terminal=True)
    m2, a, m1 = b.add_stop(MINE, 30, "M2"), b.add_stop(CITY, 20, "A"), b.add_stop(MINE, 50, "M1")
    m1b, bb = b.add_stop(MINE, 50, "M1'"), b.add_stop(CITY, 10, "B")
    for x, y in ((p1, m1), (m1, m2), (m2, a), (p2, m1b), (m1b, bb)):
        b.add_segment(x, y, "h")
    net = b.build()
    rules = Rules.make(token_nodes=[a, bb], designated_keys={m1: 7, m1b: 7})
    _solve(Problem(net, (Train.goods("1G", 1),), rules), 70)
    got = _solve(Problem(net, (Train.goods("1G", 1), Train.goods("1G", 1)), rules), 110)
    assert {r.designated for r in got.routes} == {m2, m1b}


def test_a_token_on_a_mine_is_not_counted_by_rows():
    # Found by the oracle property test: the token stop is a mine, which a goods train only
    # designates (no row counts it), so "a counted stop holds a token" still binds; numba
    # had taken the stop as always counted and found 10 where the oracle finds 0.
    from routing.instance import read_instance

    problem = read_instance(Path(__file__).parent / "data" / "token_on_mine.json")
    assert naive_solve(problem).total == 0
    _solve(problem, 0)


def test_hex_once():
    # A(20) -> hex X -> B(30) -> back into hex X -> C(40): re-enters X.  With hex_once a
    # 3-train can only run A-B (50) or B-C (70).  Without, A-B-C = 90.
    b = NetworkBuilder()
    a, bb, c = b.add_stop(CITY, 20, "A"), b.add_stop(CITY, 30, "B"), b.add_stop(CITY, 40, "C")
    j1, j2 = b.add_junction("X"), b.add_junction("X")
    b.add_segment(a, j1, "X")
    b.add_segment(j1, bb, "X")
    b.add_segment(bb, j2, "B")
    b.add_segment(j2, c, "X")
    net = b.build()
    _solve(Problem(net, (Train.n("3", 3),), Rules.make(token_nodes=[a, c])), 90)
    _solve(Problem(net, (Train.n("3", 3),), Rules.make(token_nodes=[a, c], hex_once=True)), 70)


def test_time_limit_returns_best_so_far_and_valid_bound():
    trains = [Train.unlimited("D"), Train.unlimited("D")]
    problem = synthetic_problem(trains, seed=1, density=0.8, city_share=0.3)
    t0 = time.perf_counter()
    got = solve(problem, time_limit=1.0)
    elapsed = time.perf_counter() - t0
    assert elapsed < 3.0, f"solve overran its 1 s limit: {elapsed:.2f} s"
    assert not got.optimal
    assert got.bound >= got.total > 0
    declared = [(r.train, r.nodes, r.segments) for r in got.routes]
    assert validate(problem, declared).total == got.total


def test_second_process_does_not_recompile(tmp_path):
    # this process compiles (or loads) the kernels; a fresh process must only load them
    solve(synthetic_problem(seed=3))
    code = (
        "import json\n"
        "from routing import solve\n"
        "from routing.synthetic import synthetic_problem\n"
        "from routing import _jit\n"
        "solve(synthetic_problem(seed=3), kernels='compiled')\n"
        "tier = _jit.compiled()\n"
        "ks = [tier.enumerate_routes, tier.pack, tier.legs]\n"
        "print(json.dumps([sum(k.stats.cache_misses.values()) for k in ks]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 0, 0]


@pytest.mark.parametrize("tier", ["interpreted", "compiled"])
def test_legs_kernel_by_hand(tier):
    """The legs the search takes, from a network's own arrays (``routing._legs.legs``).

    Stops A=0, B=1, C=2, a junction J=3, a city D=4 tokened out (terminal) and E=5 beyond it;
    each node in the hex of its number.  Segments: 0 A-J (reaching J on side 0), 1 J-B
    (side 1 at J), 2 J-C (side 0 at J), 3 C-D, 4 D-E.  The token is on A.

    Reached from A: A, J, B, C and D, which ends a route but is not passed: not E.
    Legs, from each stop by its segments as first end, then as second end:
      A: A-J-B (in at side 0, out at 1); A-J-C would go in and out at side 0 -> [B]
      B: in at J's side 1: out to C (0), then to A (segment 0, side 0) -> [C, A]
      C: C-D (segment 3), then in at J's side 0: out to B (1) only -> [D, B]
      D: D-E leads to an unreached node; D-C -> [C]
    Leg A-J-B: segments 0 and 1 -> word 0 = 0b11; junction J is the first junction bit, in
    word 1 -> 1; hexes of segments 0, 1 and stops A, B -> 0b11, new to a route started at
    A: 0b10.
    """
    import numpy as np

    from routing import _jit

    net = Network(node_kind=[1, 1, 1, 0, 1, 1], node_value=[10] * 6, node_hex=range(6),
                  node_terminal=[False, False, False, False, True, False], node_group=[-1] * 6,
                  seg_u=[0, 3, 3, 2, 4], seg_v=[3, 1, 2, 4, 5], seg_side_u=[-1, 1, 0, -4, -5],
                  seg_side_v=[0, -2, -3, -4, -5], seg_hex=[0, 1, 2, 2, 4])  # fmt: skip
    kernels = _jit.interpreted() if tier == "interpreted" else _jit.compiled()
    token = np.array([True] + [False] * 5)
    active, ptr, end, segs_ptr, segs, nodes_ptr, nodes, bits, hex_bits, hex_new = kernels.legs(
        net.node_kind, net.node_hex, net.node_terminal, token, net.seg_u, net.seg_v,
        net.seg_side_u, net.seg_side_v, net.seg_hex, 6, True, False, np.zeros(6, np.bool_),
    )  # fmt: skip
    assert active.tolist() == [True, True, True, True, True, False]
    assert ptr.tolist() == [0, 1, 3, 5, 5, 6, 6]
    assert end.tolist() == [1, 2, 0, 4, 1, 2]
    assert segs[segs_ptr[0] : segs_ptr[1]].tolist() == [0, 1]
    assert nodes[nodes_ptr[0] : nodes_ptr[1]].tolist() == [3]
    assert bits[0].tolist() == [0b11, 1]
    assert hex_bits[0].tolist() == [0b11] and hex_new[0].tolist() == [0b10]
