"""Pin the brute-force oracle to ``docs/ROUTING.md`` with hand-computed cases.

Every expected number is worked out in a comment from the contract, never from a solver.
The property tests at the end only check that the oracle runs on generated problems and
agrees with itself (its total, its own route-set scoring, pruning on/off, JSON round trip)
and with the contract spelled out literally where it takes shortcuts (counting, counted-set
rules, hex-once runs and pruning).
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from routing import (
    BonusRoute,
    EndPairBonus,
    EndTokenBonus,
    GroupScope,
    LongestRouteBonus,
    NetworkBuilder,
    NodeKind,
    Problem,
    Rules,
    SetPairBonus,
    Train,
    kind_mask,
)
from routing.instance import problem_from_instance, problem_to_instance
from tests.naive import (
    _SKIP,
    _Context,
    _counted_sets,
    _enumerate_paths,
    _maximal,
    _reentered_hex,
    _structure_error,
    _train_error,
    naive_route_value,
    naive_solve,
    naive_total,
)
from tests.strategies import STOP_KIND_LIST, networks, problems, trains

C, T, O, P, M = NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT, NodeKind.MINE


def line(*stops, kind=C):
    """A straight line of stops; each item is a value or a ``(kind, value)`` pair.

    Node ``i`` is in hex ``h{i}``, segment ``i`` joins nodes ``i`` and ``i + 1`` in hex ``h{i}``.
    """
    b = NetworkBuilder()
    ids = []
    for i, s in enumerate(stops):
        k, v = s if isinstance(s, tuple) else (kind, s)
        ids.append(b.add_stop(k, v, hex=f"h{i}", name=chr(ord("A") + i)))
    for i in range(len(ids) - 1):
        b.add_segment(ids[i], ids[i + 1], hex=f"h{i}")
    return b.build()


def solve_total(net, trains, rules=None) -> int:
    problem = Problem(net, tuple(trains), rules or Rules())
    sol = naive_solve(problem)
    assert sol.optimal and sol.bound == sol.total == sum(r.revenue for r in sol.routes)
    return sol.total


# --------------------------------------------------------------------------------- basics
def test_n_train_counts_every_stop_up_to_n():
    net = line(20, 30, 40)
    assert solve_total(net, [Train.n("2", 2)]) == 70  # B+C = 30+40
    assert solve_total(net, [Train.n("3", 3)]) == 90  # A+B+C
    # A 2-train may not visit three stops: the whole line is an invalid route for it.
    assert naive_route_value(Problem(net, (Train.n("2", 2),)), 0, [0, 1, 2], [0, 1]) is None


def test_no_routes_is_worth_zero():
    net = line(20, 30)
    rules = Rules.make(token_nodes=[])  # a token set that no route can visit
    sol = naive_solve(Problem(net, (Train.n("2", 2),), rules))
    assert sol.total == 0 and sol.routes == []


def test_n_m_train_counts_best_n():
    # 2/3 on A(10)-B(50)-C(30): visits all three, counts B and C = 80.
    net = line(10, 50, 30)
    problem = Problem(net, (Train.n_m("2/3", 2, 3),))
    value, counted, designated, _ = naive_route_value(problem, 0, [0, 1, 2], [0, 1])
    assert (value, set(counted), designated) == (80, {1, 2}, None)
    # Four stops exceed its visit limit of three.
    problem4 = Problem(line(10, 50, 30, 40), (Train.n_m("2/3", 2, 3),))
    assert naive_route_value(problem4, 0, [0, 1, 2, 3], [0, 1, 2]) is None


def test_express_train_skips():
    # 2E on A(50)-B(10)-C(10)-D(60): runs A..D and counts A and D = 110;
    # a plain 2-train can only take two adjacent stops: C+D = 70.
    net = line(50, 10, 10, 60)
    assert solve_total(net, [Train.express("2E", 2)]) == 110
    assert solve_total(net, [Train.n("2", 2)]) == 70


def test_plus_train_rows():
    # 2+1 on T(10)-C(20)-C(30)-T(5): the town row takes one town, the main row two stops.
    # T0-C1-C2 = 60; C1-C2-T3 = 55; all four need 3 slots for 4 stops: invalid.
    net = line((T, 10), (C, 20), (C, 30), (T, 5))
    problem = Problem(net, (Train.plus("2+1", 2, 1),))
    assert naive_route_value(problem, 0, [0, 1, 2, 3], [0, 1, 2]) is None
    assert solve_total(net, [Train.plus("2+1", 2, 1)]) == 60


def test_unlimited_train_and_mine_skipped():
    # D counts every passenger stop; the mine (skip by default) earns nothing: 10+20+30 = 60.
    net = line(10, (M, 100), 20, 30)
    assert solve_total(net, [Train.unlimited("D")]) == 60


def test_multiplier_and_runs_multiply_route_bonuses_not_set_bonuses():
    # A(10)-B(20) with an end-pair bonus 5+5 and a longest-route bonus of 1 per stop.
    net = line(10, 20)
    rules = Rules.make(
        end_pair_bonuses=[EndPairBonus.make({0: 5}, {1: 5}, name="ew")],
        longest_route_bonuses=[LongestRouteBonus(1, name="mail")],
    )
    train = Train.n("2", 2).with_(multiplier=2, runs=2)
    problem = Problem(net, (train,), rules)
    # Route value = 2 * 2 * (10 + 20 + 10) = 160; the mail bonus 1 * 2 stops is not multiplied.
    sol = naive_solve(problem)
    assert sol.total == 162
    (r,) = sol.routes
    assert (r.revenue, r.stop_revenue, r.bonuses) == (162, 120, {"ew": 40, "mail": 2})


# --------------------------------------------------------------------------------- network rules
def test_junction_side_labels_forbid_back_tracking():
    # A(10) -0- J -1- B(20), C(30) -1- J: the J-B and J-C segments leave J by the same side,
    # so B-J-C is back-tracking; A-J-B (30) and A-J-C (40) are fine.  Best 2-train: 40.
    b = NetworkBuilder()
    a, bb, c = (b.add_stop(C, v, hex=h) for v, h in ((10, "a"), (20, "b"), (30, "c")))
    j = b.add_junction(hex="j")
    s_aj = b.add_segment(a, j, hex="j", side_v=0)
    s_jb = b.add_segment(j, bb, hex="j", side_u=1)
    s_jc = b.add_segment(j, c, hex="j", side_u=1)
    net = b.build()
    problem = Problem(net, (Train.n("2", 2),))
    assert naive_route_value(problem, 0, [bb, j, c], [s_jb, s_jc]) is None
    assert naive_route_value(problem, 0, [a, j, c], [s_aj, s_jc])[0] == 40
    with pytest.raises(ValueError, match="junction"):
        naive_total(problem, [(0, [bb, j, c], [s_jb, s_jc])])
    assert naive_solve(problem).total == 40


def test_lawson_junction_allows_every_pair():
    # Same shape with unique side labels (builder default): B-J-C = 50 is now legal.
    b = NetworkBuilder()
    a, bb, c = (b.add_stop(C, v, hex=h) for v, h in ((10, "a"), (20, "b"), (30, "c")))
    j = b.add_junction(hex="j")
    for x in (a, bb, c):
        b.add_segment(j, x, hex="j")
    assert solve_total(b.build(), [Train.n("2", 2)]) == 50


def test_side_labels_at_stops_are_ignored():
    # A(10) -s5- B(20) -s5- C(30): both segments carry label 5 at town B; only junctions care,
    # so the 3-train runs A-B-C = 60.
    b = NetworkBuilder()
    a, t, c = b.add_stop(C, 10, hex="a"), b.add_stop(T, 20, hex="b"), b.add_stop(C, 30, hex="c")
    b.add_segment(a, t, hex="a", side_v=5)
    b.add_segment(t, c, hex="c", side_u=5)
    assert solve_total(b.build(), [Train.n("3", 3)]) == 60


def test_terminal_offboards_at_both_ends():
    # O1(40) - A(10) - O2(50), offboards terminal: both may be ends of one route: 100.
    assert solve_total(line((O, 40), 10, (O, 50)), [Train.n("3", 3)]) == 100


def test_terminal_city_only_as_an_end():
    # A(10)-X(100, tokened out: terminal)-B(10), 3-train: A-X-B would pass through X, so the
    # best is A-X or X-B = 110 instead of 120.
    b = NetworkBuilder()
    a = b.add_stop(C, 10, hex="a")
    x = b.add_stop(C, 100, hex="x", terminal=True)
    c = b.add_stop(C, 10, hex="c")
    b.add_segment(a, x, hex="a")
    b.add_segment(x, c, hex="c")
    net = b.build()
    assert solve_total(net, [Train.n("3", 3)]) == 110
    with pytest.raises(ValueError, match="terminal"):
        naive_total(Problem(net, (Train.n("3", 3),)), [(0, [a, x, c], [0, 1])])


def test_both_cities_of_a_two_city_hex_count():
    # A(20) - C1(30, hex H) - X(10) - C2(40, hex H): one hex, two cities, both counted: 100.
    b = NetworkBuilder()
    a = b.add_stop(C, 20, hex="A")
    c1 = b.add_stop(C, 30, hex="H")
    x = b.add_stop(T, 10, hex="X")
    c2 = b.add_stop(C, 40, hex="H")
    for u, v in ((a, c1), (c1, x), (x, c2)):
        b.add_segment(u, v, hex="X")
    sol = naive_solve(Problem(b.build(), (Train.n("4", 4),)))
    assert sol.total == 100 and set(sol.routes[0].counted) == {a, c1, x, c2}


def test_route_scoped_group_and_set_scoped_group():
    # G1(50) and G2(50) are group 0 (one station complex).  X(10)-G1, Y(10)-G2, G1-G2 and a
    # separate Z(20)-W(20).  Two 2-trains.
    b = NetworkBuilder()
    g1 = b.add_stop(C, 50, hex="g", group=0)
    g2 = b.add_stop(C, 50, hex="g", group=0)
    x = b.add_stop(C, 10, hex="x")
    y = b.add_stop(C, 10, hex="y")
    z = b.add_stop(C, 20, hex="z")
    w = b.add_stop(C, 20, hex="w")
    b.add_segment(x, g1, hex="x")
    b.add_segment(y, g2, hex="y")
    s_gg = b.add_segment(g1, g2, hex="g")
    b.add_segment(z, w, hex="z")
    net = b.build()
    trains = [Train.n("2", 2), Train.n("2", 2)]
    # G1-G2 would be 100 but visits two nodes of the group: invalid for any scope.
    assert naive_route_value(Problem(net, tuple(trains)), 0, [g1, g2], [s_gg]) is None
    # Route scope: X-G1 (60) + Y-G2 (60) = 120.
    assert solve_total(net, trains) == 120
    # Set scope: only one visit of the group in the whole set: X-G1 (60) + Z-W (40) = 100.
    rules = Rules.make(group_scope={0: GroupScope.SET})
    assert solve_total(net, trains, rules) == 100


# --------------------------------------------------------------------------------- route sets
def test_joint_optimum_uses_routes_that_are_not_individually_best():
    # A(60)-B(10)-C(60), a 3-train and a 2-train.  The 3-train alone is best on A-B-C = 130,
    # which leaves no track for the 2-train: 130.  Splitting, 3-train on A-B (70) and 2-train
    # on B-C (70), earns 140.
    net = line(60, 10, 60)
    problem = Problem(net, (Train.n("3", 3), Train.n("2", 2)))
    assert naive_route_value(problem, 0, [0, 1, 2], [0, 1])[0] == 130
    assert naive_solve(problem).total == 140
    with pytest.raises(ValueError, match="disjoint"):
        naive_total(problem, [(0, [0, 1, 2], [0, 1]), (1, [1, 2], [1])])


def test_parallel_track_and_bonus_route_claimed_once():
    # A(10, hex a) and B(10, hex b) joined by two parallel segments, in hexes a and c.
    # Two 2-trains each run A-B (20 each).  BonusRoute A->B 100 - 10/hex: over the first
    # segment the route covers hexes {a, b} -> 80, over the second {a, b, c} -> 70.  It is
    # claimed once, by the better route: 20 + 20 + 80 = 120 (not 190).
    b = NetworkBuilder()
    a = b.add_stop(C, 10, hex="a")
    bb = b.add_stop(C, 10, hex="b")
    b.add_segment(a, bb, hex="a")
    b.add_segment(a, bb, hex="c")
    rules = Rules.make(bonus_routes=[BonusRoute.make([a], [bb], 100, per_hex=10, name="br")])
    problem = Problem(b.build(), (Train.n("2", 2), Train.n("2", 2)), rules)
    sol = naive_solve(problem)
    assert sol.total == 120
    assert sorted(r.bonuses.get("br", 0) for r in sol.routes) == [0, 80]
    assert naive_total(problem, [(0, [a, bb], [1]), (1, [a, bb], [0])]) == 120


def test_bonus_route_hexes_are_segment_and_stop_hexes():
    # A(10, hex a) -[hex a]- J(junction, hex j) -[hex b]- B(10, hex b): the junction's own hex
    # holds no segment and no stop, so hexes(route) = |{a, b}| = 2: 100 - 2*10 = 80, total 100.
    b = NetworkBuilder()
    a = b.add_stop(C, 10, hex="a")
    j = b.add_junction(hex="j")
    bb = b.add_stop(C, 10, hex="b")
    b.add_segment(a, j, hex="a")
    b.add_segment(j, bb, hex="b")
    rules = Rules.make(bonus_routes=[BonusRoute.make([a], [bb], 100, per_hex=10, name="br")])
    assert solve_total(b.build(), [Train.n("2", 2)], rules) == 100


def test_longest_route_bonus_is_taken_once():
    # Lines A-B-C and D-E (all 10), a 3-train and a 2-train: routes 30 and 20.
    # Mail contract 10 per stop on one route: the longer, 3 stops -> 30.  Total 80, not 100.
    b = NetworkBuilder()
    n = [b.add_stop(C, 10, hex=str(i)) for i in range(5)]
    b.add_segment(n[0], n[1])
    b.add_segment(n[1], n[2])
    b.add_segment(n[3], n[4])
    rules = Rules.make(longest_route_bonuses=[LongestRouteBonus(10, name="mail")])
    sol = naive_solve(Problem(b.build(), (Train.n("3", 3), Train.n("2", 2)), rules))
    assert sol.total == 80
    assert {r.train: r.bonuses.get("mail", 0) for r in sol.routes} == {0: 30, 1: 0}


def test_longest_route_bonus_counts_visited_not_counted_stops():
    # 2E on A(10)-B(0)-C(0)-D(10): counts A and D (20) but visits four stops: mail 4*10 = 40.
    rules = Rules.make(longest_route_bonuses=[LongestRouteBonus(10, name="mail")])
    assert solve_total(line(10, 0, 0, 10), [Train.express("2E", 2)], rules) == 60


def test_goods_trains_score_distinct_mines():
    # Ports P1(20), P2(20); mines M1(50), M2(10); segments P1-M1, P2-M1, P2-M2.  Two 1G trains
    # (end at a port, score one mine, ports count in their own row).
    #   P1-M1 70 (M1)   P2-M1 70 (M1)   P2-M2 30 (M2)   P1-M1-P2 90 (M1)
    #   P1-M1-P2-M2 90 (M1) or 50 (M2)  M1-P2-M2: no port end, invalid.
    # P1-M1 + P2-M1 = 140 would score M1 twice; the best legal pair is P1-M1-P2 + P2-M2 = 120.
    b = NetworkBuilder()
    p1 = b.add_stop(P, 20, hex="p1")
    p2 = b.add_stop(P, 20, hex="p2")
    m1 = b.add_stop(M, 50, hex="m1")
    m2 = b.add_stop(M, 10, hex="m2")
    s0 = b.add_segment(p1, m1)
    s1 = b.add_segment(p2, m1)
    s2 = b.add_segment(p2, m2)
    problem = Problem(b.build(), (Train.goods("1G", 1), Train.goods("1G", 1)))
    assert naive_route_value(problem, 0, [m1, p2, m2], [s1, s2]) is None
    assert naive_route_value(problem, 0, [p1, m1, p2, m2], [s0, s1, s2])[:3] == (
        90,
        (p1, m1, p2),
        m1,
    )
    sol = naive_solve(problem)
    assert sol.total == 120
    assert sorted(r.designated for r in sol.routes) == sorted([m1, m2])
    with pytest.raises(ValueError, match="designated"):
        naive_total(problem, [(0, [p1, m1], [s0]), (1, [p2, m1], [s1])])


def test_must_visit():
    # A(10)-B(10) and C(50)-D(50) apart.  One 2-train: 100 freely, 20 if A must be visited.
    # With two 2-trains both run: 120 either way.
    b = NetworkBuilder()
    n = [b.add_stop(C, v, hex=str(i)) for i, v in enumerate((10, 10, 50, 50))]
    b.add_segment(n[0], n[1])
    b.add_segment(n[2], n[3])
    net = b.build()
    rules = Rules.make(must_visit=[n[0]])
    assert solve_total(net, [Train.n("2", 2)]) == 100
    assert solve_total(net, [Train.n("2", 2)], rules) == 20
    assert solve_total(net, [Train.n("2", 2)] * 2, rules) == 120
    with pytest.raises(ValueError, match="must visit"):
        naive_total(Problem(net, (Train.n("2", 2),), rules), [(0, [n[2], n[3]], [1])])


def test_token_forbidden_ends_node_bonus():
    net = line(10, 20, 30, 40)
    # Token on A: a 2-train must touch A: A-B = 30.
    assert solve_total(net, [Train.n("2", 2)], Rules.make(token_nodes=[0])) == 30
    # C-D forbidden as ends: B-C = 50 is the best 2-train route.
    assert solve_total(net, [Train.n("2", 2)], Rules.make(forbidden_end_pairs=[([2], [3])])) == 50
    # Node bonus 100 on A: A-B = 130.
    assert solve_total(net, [Train.n("2", 2)], Rules.make(node_bonus={0: 100})) == 130


def test_end_kinds():
    # A train that must end at an offboard: on O(30, terminal)-A(10)-B(50), 2-train: O-A = 40
    # (A-B = 60 has no offboard end).
    net = line((O, 30), 10, 50)
    train = Train.n("2", 2, end_kinds=1 << int(O))
    assert solve_total(net, [train]) == 40


# --------------------------------------------------------------------------------- route bonuses
def test_end_pair_bonus_counted_changes_which_stops_count():
    # 1/3 on A(10)-B(100)-D(10), bonus A:30 + D:40 for the two ends.
    net = line(10, 100, 10)
    plain = Train.n_m("1/3", 1, 3)
    for counted, expected in ((False, 170), (True, 100)):
        rules = Rules.make(end_pair_bonuses=[EndPairBonus.make({0: 30}, {2: 40}, counted=counted)])
        # counted=False: count B (100) + 70 = 170.  counted=True: both ends would have to
        # count, but only one stop counts: best is B alone = 100.
        assert solve_total(net, [plain], rules) == expected
    # 2/3 with a big counted bonus A:60 + D:60: counting A and D (20 + 120 = 140) beats
    # counting the best stops B and A (110).
    rules = Rules.make(end_pair_bonuses=[EndPairBonus.make({0: 60}, {2: 60}, counted=True)])
    problem = Problem(net, (Train.n_m("2/3", 2, 3),), rules)
    value, counted, _, bonuses = naive_route_value(problem, 0, [0, 1, 2], [0, 1])
    assert (value, counted, bonuses) == (140, (0, 2), {"end-pair": 120})


def test_end_pair_bonus_either_orientation_larger_taken():
    # Ends A and B are each in both maps: A->B 5+7 = 12, B->A 50+1 = 51: the larger, 51.
    net = line(10, 10)
    bonus = EndPairBonus.make({0: 5, 1: 50}, {1: 7, 0: 1}, name="ew")
    problem = Problem(net, (Train.n("2", 2),), Rules.make(end_pair_bonuses=[bonus]))
    assert naive_route_value(problem, 0, [0, 1], [0])[3] == {"ew": 51}


def test_set_pair_bonus_counted_or_visited():
    # 2E on A(10)-B(0)-C(50): B is visited; with counted=False A+B pair pays, with counted=True
    # the 2E must count A and B (10 + 0 + 40 = 50), which loses to A and C (60).
    net = line(10, 0, 50)
    for counted, expected in ((False, 100), (True, 60)):
        rules = Rules.make(set_pair_bonuses=[SetPairBonus.make([0], [1], 40, counted=counted)])
        assert solve_total(net, [Train.express("2E", 2)], rules) == expected


def test_end_token_bonus_needs_other_counted_stops():
    # 2-train and 3-train on A(10)-B(10)-C(10); 20 at A if 2 other stops count.
    net = line(10, 10, 10)
    rules = Rules.make(end_token_bonuses=[EndTokenBonus.make({0: 20}, min_other_stops=2)])
    assert solve_total(net, [Train.n("2", 2)], rules) == 20  # A-B: only 1 other stop
    assert solve_total(net, [Train.n("3", 3)], rules) == 50  # A-B-C: 30 + 20


# --------------------------------------------------------------------------------- token counted
def test_token_counted_binds_for_trains_that_may_leave_the_token_uncounted():
    # Token on A in A(10)-B(50)-C(40).
    net = line(10, 50, 40)
    off = Rules.make(token_nodes=[0])
    on = Rules.make(token_nodes=[0], token_counted=True)
    # 2/3 without the rule: A-B-C counts B+C = 90 (visiting A is enough).  With it, A must
    # count: A-B-C counts A+B = 60 (A+C = 50), A-B also 60; B-C visits no token.  60.
    assert solve_total(net, [Train.n_m("2/3", 2, 3)], off) == 90
    assert solve_total(net, [Train.n_m("2/3", 2, 3)], on) == 60
    # 1E: A-B-C counts B = 50 without the rule; with it the one counted stop must be A: 10.
    assert solve_total(net, [Train.express("1E", 1)], off) == 50
    problem = Problem(net, (Train.express("1E", 1),), on)
    assert naive_route_value(problem, 0, [0, 1, 2], [0, 1])[:3] == (10, (0,), None)


def test_token_counted_does_not_bind_when_every_stop_counts_or_without_tokens():
    net = line(10, 50, 40)
    # A 3-train counts A, B and C anyway: 100 with or without the rule.
    for rules in (Rules.make(token_nodes=[0]), Rules.make(token_nodes=[0], token_counted=True)):
        assert solve_total(net, [Train.n("3", 3)], rules) == 100
    # token_nodes None: no token rule at all, counted or not: 2/3 on A-B-C counts B+C = 90.
    assert solve_total(net, [Train.n_m("2/3", 2, 3)], Rules.make(token_counted=True)) == 90


def test_token_counted_token_the_train_can_only_skip():
    # A(50)-T(10, town, token)-B(40); the train counts cities only and skips towns.
    # Without the rule A-T-B counts A+B = 90 (T is visited).  With it T must be counted,
    # which this train never does, and every route must visit T: no route runs, 0.
    net = line(50, (T, 10), 40)
    train = Train.n("2", 2, kinds=kind_mask(C), skip=kind_mask(T))
    assert solve_total(net, [train], Rules.make(token_nodes=[1])) == 90
    on = Rules.make(token_nodes=[1], token_counted=True)
    assert solve_total(net, [train], on) == 0
    with pytest.raises(ValueError, match="token counted"):
        naive_total(Problem(net, (train,), on), [(0, [0, 1, 2], [0, 1])])


def test_token_counted_designated_node_is_counted():
    # P(20, port)-M1(50, mine)-M2(30, mine, token), one 1G (ends at a port, scores one mine;
    # the port counts in its own row).  P-M1 visits no token.  P-M1-M2:
    #   without the rule it designates M1: 20 + 50 = 70;
    #   with it, designating M1 leaves the token M2 uncounted; designating M2: 20 + 30 = 50.
    net = line((P, 20), (M, 50), (M, 30))
    goods = (Train.goods("1G", 1),)
    assert solve_total(net, goods, Rules.make(token_nodes=[2])) == 70
    problem = Problem(net, goods, Rules.make(token_nodes=[2], token_counted=True))
    assert naive_route_value(problem, 0, [0, 1, 2], [0, 1])[:3] == (50, (0, 2), 2)
    assert naive_solve(problem).total == 50


# --------------------------------------------------------------------------------- designated keys
def _two_ports_two_mines():
    """P1(20), P2(20) ports; M1(50), M2(10) mines; segments P1-M1, P2-M1, P2-M2."""
    b = NetworkBuilder()
    p1 = b.add_stop(P, 20, hex="p1")
    p2 = b.add_stop(P, 20, hex="p2")
    m1 = b.add_stop(M, 50, hex="m1")
    m2 = b.add_stop(M, 10, hex="m2")
    segs = b.add_segment(p1, m1), b.add_segment(p2, m1), b.add_segment(p2, m2)
    return b.build(), (p1, p2, m1, m2), segs


def test_designated_keys_make_two_mines_one():
    # Two 1G trains; goods routes (see test_goods_trains_score_distinct_mines):
    #   P1-M1 70, P2-M1 70, P2-M2 30, P1-M1-P2 90 (M1), P1-M1-P2-M2 90 (M1) or 50 (M2).
    # Without keys: P1-M1-P2 + P2-M2 = 120.  With M1 and M2 under one key only one of them
    # may be designated in the whole set, and every goods route designates one: a single
    # train runs, best 90.
    net, (p1, p2, m1, m2), (s0, s1, s2) = _two_ports_two_mines()
    goods = (Train.goods("1G", 1), Train.goods("1G", 1))
    assert solve_total(net, goods) == 120
    keyed = Rules.make(designated_keys={m1: m1, m2: m1})
    assert solve_total(net, goods, keyed) == 90
    declared = [(0, [p1, m1, p2], [s0, s1]), (1, [p2, m2], [s2])]
    assert naive_total(Problem(net, goods), declared) == 120
    with pytest.raises(ValueError, match="designated keys"):
        naive_total(Problem(net, goods, keyed), declared)


def test_designated_keys_that_differ_do_not_bind():
    # Same network and trains.  M1 and M2 under different keys, or only M1 keyed (M2 is its
    # own key): nothing is shared, so the best set is still 90 + 30 = 120.
    net, (_, _, m1, m2), _ = _two_ports_two_mines()
    goods = [Train.goods("1G", 1), Train.goods("1G", 1)]
    assert solve_total(net, goods, Rules.make(designated_keys={m1: m1, m2: m2})) == 120
    assert solve_total(net, goods, Rules.make(designated_keys={m1: 7})) == 120


# --------------------------------------------------------------------------------- hex once
def _two_city_hex(hex_ax="X", hex_xc="X", hex_x="X"):
    """A(30, hex H) -[hex_ax]- X(10, town, hex_x) -[hex_xc]- C(40, hex H)."""
    b = NetworkBuilder()
    a = b.add_stop(C, 30, hex="H")
    x = b.add_stop(T, 10, hex=hex_x)
    c = b.add_stop(C, 40, hex="H")
    b.add_segment(a, x, hex=hex_ax)
    b.add_segment(x, c, hex=hex_xc)
    return b.build()


def test_hex_once_forbids_coming_back_to_a_hex():
    # A-X-C has the hex sequence H (A), X, X (X), X, H (C): runs H, X, H, so H is re-entered.
    # 3-train: 80 without the rule; with it A-X (H, X, X) = 40 and X-C = 50: 50.
    net = _two_city_hex()
    three = (Train.n("3", 3),)
    on = Rules.make(hex_once=True)
    assert solve_total(net, three) == 80
    assert solve_total(net, three, on) == 50
    # Exempting H lifts it (80); exempting X does not (50).
    for exempt, expected in (("H", 80), ("X", 50)):
        rules = Rules.make(hex_once=True, hex_once_exempt=[net.hex_names.index(exempt)])
        assert solve_total(net, three, rules) == expected
    with pytest.raises(ValueError, match="hex once"):
        naive_total(Problem(net, three, on), [(0, [0, 1, 2], [0, 1])])


def test_hex_once_does_not_bind_without_a_return():
    on = Rules.make(hex_once=True)
    # Town and both segments in H as well: H, H, H, H, H is one run: A-X-C = 80 is legal.
    assert solve_total(_two_city_hex("H", "H", "H"), [Train.n("3", 3)], on) == 80
    # The line helper puts segment i in node i's hex: A-B-C gives h0, h0, h1, h1, h2, no
    # return: 10+20+30 = 60.
    assert solve_total(line(10, 20, 30), [Train.n("3", 3)], on) == 60


def test_hex_once_counts_intermediate_stops_but_skips_junctions():
    # A(10, a) -[a]- B(20, town, hex b) -[a]- C(30, c): a, a, b, a, c re-enters a, so A-B-C
    # is out; A-B (a, a, b) = 30 and B-C (b, a, c) = 50 are fine.  3-train: 50, 60 freely.
    b = NetworkBuilder()
    a, bb, c = b.add_stop(C, 10, hex="a"), b.add_stop(T, 20, hex="b"), b.add_stop(C, 30, hex="c")
    b.add_segment(a, bb, hex="a")
    b.add_segment(bb, c, hex="a")
    net = b.build()
    assert solve_total(net, [Train.n("3", 3)]) == 60
    assert solve_total(net, [Train.n("3", 3)], Rules.make(hex_once=True)) == 50
    # Same shape with a junction J (hex j) for B: a, a, a, c (the junction's hex is not in
    # the sequence): A-J-C is legal, 2-train 10+30 = 40.
    b = NetworkBuilder()
    a, j, c = b.add_stop(C, 10, hex="a"), b.add_junction(hex="j"), b.add_stop(C, 30, hex="c")
    b.add_segment(a, j, hex="a")
    b.add_segment(j, c, hex="a")
    assert solve_total(b.build(), [Train.n("2", 2)], Rules.make(hex_once=True)) == 40


def test_hex_once_walks_the_chosen_parallel_segment():
    # A(30, H)-X(10, town, X)-C(40, hex C) with two parallel A-X segments, s0 in X and s1 in
    # C, and X-C (s2) in X.  Over s0: H, X, X, X, C is fine; over s1: H, C, X, X, C re-enters
    # C.  A-X-C over s0: 80.
    b = NetworkBuilder()
    a = b.add_stop(C, 30, hex="H")
    x = b.add_stop(T, 10, hex="X")
    c = b.add_stop(C, 40, hex="C")
    s0 = b.add_segment(a, x, hex="X")
    s1 = b.add_segment(a, x, hex="C")
    s2 = b.add_segment(x, c, hex="X")
    problem = Problem(b.build(), (Train.n("3", 3),), Rules.make(hex_once=True))
    assert naive_total(problem, [(0, [a, x, c], [s0, s2])]) == 80
    with pytest.raises(ValueError, match="hex once"):
        naive_total(problem, [(0, [a, x, c], [s1, s2])])
    sol = naive_solve(problem)
    assert sol.total == 80 and sol.routes[0].segments == (s0, s2)


def test_hex_once_exempt_hex_still_separates_runs():
    # A(10, a) -[e]- J(junction, hex e) -[a]- C(30, c): the sequence is a, e, a, c.  An
    # exempt hex is exempt from the rule, not removed from the sequence: with e exempt, a is
    # still left and re-entered, so the only route A-J-C is out: 0.  Exempting a: 40.
    b = NetworkBuilder()
    a, j, c = b.add_stop(C, 10, hex="a"), b.add_junction(hex="e"), b.add_stop(C, 30, hex="c")
    b.add_segment(a, j, hex="e")
    b.add_segment(j, c, hex="a")
    net = b.build()
    assert solve_total(net, [Train.n("2", 2)]) == 40
    for exempt, expected in ((None, 0), ("e", 0), ("a", 40)):
        ids = [] if exempt is None else [net.hex_names.index(exempt)]
        rules = Rules.make(hex_once=True, hex_once_exempt=ids)
        assert solve_total(net, [Train.n("2", 2)], rules) == expected


# --------------------------------------------------------------------------------- min counted with
def test_min_counted_with_port_needs_two_other_stops():
    # P(30, port)-A(20)-B(10) and "a route visiting P counts 2 stops outside {P}".
    net = line((P, 30), 20, 10)
    rules = Rules.make(min_counted_with=[([0], 2)])
    # 2-train: P-A would count {P, A}: 1 stop outside {P}, invalid.  A-B = 30.  (50 freely.)
    assert solve_total(net, [Train.n("2", 2)]) == 50
    assert solve_total(net, [Train.n("2", 2)], rules) == 30
    # 2/3: P-A-B visits P even if P is not counted.  {P, A} (50) and {P, B} (40) have one
    # stop outside {P}; {A, B} = 30 has two.  So 30 (80 - 30 = 50 freely: P+A).
    assert solve_total(net, [Train.n_m("2/3", 2, 3)]) == 50
    problem = Problem(net, (Train.n_m("2/3", 2, 3),), rules)
    assert naive_route_value(problem, 0, [0, 1, 2], [0, 1])[:2] == (30, (1, 2))
    with pytest.raises(ValueError, match=r"min counted with\[0\]"):
        naive_total(Problem(net, (Train.n("2", 2),), rules), [(0, [0, 1], [0])])


def test_min_counted_with_does_not_bind_on_long_enough_routes():
    net = line((P, 30), 20, 10)
    # 3-train: P-A-B counts {A, B} outside {P}: 2 >= 2, legal: 60 as without the rule.
    assert solve_total(net, [Train.n("3", 3)], Rules.make(min_counted_with=[([0], 2)])) == 60
    # k = 0 never binds: the 2-train keeps P-A = 50.
    assert solve_total(net, [Train.n("2", 2)], Rules.make(min_counted_with=[([0], 0)])) == 50


def test_min_counted_with_counts_outside_the_whole_set():
    # S = {P, A}, k = 1, on P(30)-A(20)-B(10).  P-A: C \ S is empty, invalid; P-A-B with a
    # 3-train: C \ S = {B}, legal: 60.  A second entry ({B}, 3) then forbids every route
    # visiting B (a 3-stop route counts at most 2 stops outside {B}).  P-A fails entry 0,
    # A-B and P-A-B fail entry 1: nothing runs, 0.
    net = line((P, 30), 20, 10)
    one = Rules.make(min_counted_with=[([0, 1], 1)])
    assert solve_total(net, [Train.n("3", 3)], one) == 60
    assert naive_route_value(Problem(net, (Train.n("3", 3),), one), 0, [0, 1], [0]) is None
    two = Rules.make(min_counted_with=[([0, 1], 1), ([2], 3)])
    problem = Problem(net, (Train.n("3", 3),), two)
    assert naive_solve(problem).total == 0
    with pytest.raises(ValueError, match=r"min counted with\[1\]"):
        naive_total(problem, [(0, [0, 1, 2], [0, 1])])


# --------------------------------------------------------------------------------- JSON
def test_json_round_trip_keeps_the_new_rules_and_reads_old_files():
    net, (p1, p2, m1, m2), _ = _two_ports_two_mines()
    rules = Rules.make(
        token_nodes=[p1],
        token_counted=True,
        designated_keys={m1: m1, m2: m1},
        hex_once=True,
        hex_once_exempt=[0, 2],
        min_counted_with=[([p1, p2], 2), ([m2], 1)],
    )
    problem = Problem(net, (Train.goods("1G", 1),), rules)
    data = json.loads(json.dumps(problem_to_instance(problem)))
    assert problem_from_instance(data).rules == rules
    # A reproducer written before these rules existed loads with all of them off.
    for key in ("token_counted", "designated_keys", "hex_once", "hex_once_exempt"):
        del data["rules"][key]
    del data["rules"]["min_counted_with"]
    assert problem_from_instance(data).rules == Rules.make(token_nodes=[p1])


# --------------------------------------------------------------------------------- properties
def _check_self_consistent(problem) -> None:
    sol = naive_solve(problem)
    assert sol.optimal and sol.bound == sol.total == sum(r.revenue for r in sol.routes)
    declared = [(r.train, r.nodes, r.segments) for r in sol.routes]
    assert naive_total(problem, declared) == sol.total
    for r in sol.routes:
        # Valid on its own (its value may exceed the part of r.revenue it earns inside the
        # set when distinct designated nodes force a worse choice there).
        assert naive_route_value(problem, r.train, r.nodes, r.segments) is not None
        assert r.revenue == r.stop_revenue + sum(r.bonuses.values())
        assert set(r.counted) <= set(r.nodes)
        assert r.designated is None or r.designated in r.counted


@settings(max_examples=150)
@given(problems(n_trains=(1, 4)))
def test_oracle_is_self_consistent(problem):
    _check_self_consistent(problem)


@settings(max_examples=60)
@given(problems(n_trains=(1, 3), size=(6, 8)))
def test_pruning_does_not_change_the_total(problem):
    # The unpruned search is exponential in the trains, hence the tiny networks.
    assert naive_solve(problem, prune=False).total == naive_solve(problem).total


@settings(max_examples=60)
@given(problems(n_trains=(1, 4), small=False))
def test_enumerated_paths_are_structurally_valid_and_json_round_trips(problem):
    ctx = _Context(problem)
    paths = _enumerate_paths(ctx)
    assert len(set(paths)) == len(paths)
    for nodes, segs in paths:
        assert _structure_error(ctx, nodes, segs) is None
    data = json.loads(json.dumps(problem_to_instance(problem)))
    assert problem_to_instance(problem_from_instance(data)) == data
    assert problem_from_instance(data).rules == problem.rules


@settings(max_examples=150)
@given(trains(), st.lists(st.sampled_from(STOP_KIND_LIST), min_size=1, max_size=6))
def test_counting_matches_the_literal_enumeration(train, kinds):
    # The memoised counting search against contract item 10 spelled out: every stop is
    # skipped, or assigned to a row taking its kind and counted or not; rows respect visit
    # and pay.  Both must give the same inclusion-maximal counted sets (or both none).
    net = line(*[(k, 10) for k in kinds])
    ctx = _Context(Problem(net, (train,)))
    stops = list(range(len(kinds)))
    per_stop = []
    for k in kinds:
        opts = [(_SKIP, False)] if train.skip >> int(k) & 1 else []
        for r, row in enumerate(train.rows):
            if row.kinds >> int(k) & 1:
                opts += [(r, True), (r, False)]
        per_stop.append(opts)
    found = set()
    for choice in itertools.product(*per_stop):
        rows_ok = all(
            sum(1 for r, _ in choice if r == i) <= row.visit
            and sum(1 for r, c in choice if r == i and c) <= row.pay
            for i, row in enumerate(train.rows)
        )
        if rows_ok:
            found.add(frozenset(n for n, (_, c) in zip(stops, choice, strict=True) if c))
    got = _counted_sets(ctx, train, stops)
    if not found:
        assert isinstance(got, str)
    else:
        assert got == _maximal(found)


@settings(max_examples=100)
@given(st.lists(st.integers(0, 3), max_size=8), st.frozensets(st.integers(0, 3), max_size=2))
def test_reentered_hex_is_a_non_exempt_hex_in_two_runs(seq, exempt):
    # Contract item 11 spelled out: collapse the sequence into runs; a non-exempt hex with
    # two runs is a return.  Exempt hexes still separate runs.
    runs = [h for h, _ in itertools.groupby(seq)]
    returns = {h for h in runs if runs.count(h) > 1 and h not in exempt}
    got = _reentered_hex(seq, exempt)
    assert got in returns if returns else got is None


@settings(max_examples=60)
@given(networks(hex_reentry=True), st.data())
def test_hex_once_paths_are_the_structural_paths_without_a_return(net, data):
    # The enumeration prunes on the hex sequence's prefix; it must find exactly the
    # unrestricted paths that pass the literal hex-once check.
    exempt = data.draw(st.frozensets(st.integers(0, net.n_hexes - 1), max_size=2))
    on = _Context(Problem(net, (), Rules.make(hex_once=True, hex_once_exempt=exempt)))
    every = _enumerate_paths(_Context(Problem(net, ())))
    expected = [(n, s) for n, s in every if _structure_error(on, n, s) is None]
    assert sorted(_enumerate_paths(on)) == sorted(expected)


@settings(max_examples=150)
@given(
    trains(),
    st.lists(st.tuples(st.sampled_from(STOP_KIND_LIST), st.sampled_from([0, 10, 30])), max_size=5),
    st.data(),
)
def test_counted_set_rules_match_every_counting_choice(train, stops, data):
    # The oracle scores only inclusion-maximal counted sets and then applies token_counted
    # and min_counted_with; that is exact because both rules only get easier as C grows.
    # Check it against every counting choice (not only maximal ones) on a line of stops.
    net = line((C, 10), *stops)
    n = net.n_nodes
    node_set = st.frozensets(st.integers(0, n - 1), min_size=1, max_size=2)
    rules = Rules.make(
        token_nodes=data.draw(node_set),
        token_counted=True,
        min_counted_with=[(data.draw(node_set), data.draw(st.integers(0, 3)))],
    )
    problem = Problem(net, (train,), rules)
    ctx = _Context(problem)
    nodes, segs = tuple(range(n)), tuple(range(n - 1))
    got = naive_route_value(problem, 0, nodes, segs)
    if _structure_error(ctx, nodes, segs) or _train_error(ctx, train, nodes):
        assert got is None
        return
    designated = [i for i in nodes if train.designated_kind >> ctx.kind[i] & 1]
    others = [i for i in nodes if i not in designated]
    per_stop = []
    for i in others:
        opts = [(_SKIP, False)] if train.skip >> ctx.kind[i] & 1 else []
        opts += [
            (r, c)
            for r, row in enumerate(train.rows)
            if row.kinds >> ctx.kind[i] & 1
            for c in (True, False)
        ]
        per_stop.append(opts)
    ((group, k),) = rules.min_counted_with
    best = None
    for d in designated if train.designated_kind else [None]:
        for choice in itertools.product(*per_stop):
            if not all(
                sum(1 for r, _ in choice if r == j) <= row.visit
                and sum(1 for r, c in choice if r == j and c) <= row.pay
                for j, row in enumerate(train.rows)
            ):
                continue
            counted = {i for i, (_, c) in zip(others, choice, strict=True) if c}
            counted |= {d} - {None}
            if not counted or not counted & rules.token_nodes:
                continue
            if set(nodes) & group and len(counted - group) < k:
                continue
            value = sum(ctx.stop_value[i] for i in counted) * train.multiplier * train.runs
            best = value if best is None else max(best, value)
    assert (None if got is None else got[0]) == best
