"""Bad input reaches the user as a ValueError that names the item, never a numba crash."""

from __future__ import annotations

import numpy as np
import pytest

import routing
from routing import (
    EndPairBonus,
    Network,
    NetworkBuilder,
    NodeKind,
    Problem,
    Rules,
    Train,
    TrainRow,
    solve,
)


def _net(**overrides) -> Network:
    fields = dict(
        node_kind=[1, 1],
        node_value=[10, 20],
        node_hex=[0, 1],
        node_terminal=[False, False],
        node_group=[-1, -1],
        seg_u=[0],
        seg_v=[1],
        seg_side_u=[0],
        seg_side_v=[0],
        seg_hex=[0],
        hex_names=("A1", "A3"),
    )
    fields.update(overrides)
    return Network(**fields)


def test_valid_network_builds():
    assert _net().n_nodes == 2


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        (dict(seg_v=[7]), "segment 0 refers to node 7"),
        (dict(seg_u=[-1]), "segment 0 refers to node -1"),
        (dict(node_value=[10, -5]), "negative value -5"),
        (dict(node_kind=[1, 9]), "unknown kind 9"),
        (dict(node_hex=[0, 5]), "unknown hex index 5"),
        (dict(node_value=[10]), "'node_value' has 1 entries"),
        (dict(seg_hex=[0, 0]), "'seg_hex' has 2 entries"),
        (dict(seg_v=[0]), "loop on node"),
        (dict(node_group=[-1, -3]), "invalid group id -3"),
        (dict(node_value=[[1, 2], [3, 4]]), "one-dimensional"),
        (dict(node_value=["a", "b"]), "cannot convert"),
    ],
)
def test_network_errors_name_the_item(overrides, fragment):
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(")):
        _net(**overrides)


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        (dict(node_value=[10, -5]), "negative value -5"),
        (dict(node_kind=[1, 9]), "unknown kind 9"),
        (dict(node_group=[-1, -3]), "invalid group id -3"),
        (dict(node_terminal=[True]), "'node_terminal' has 1 entries"),
        # a longer node_kind makes three nodes, so the fields it leaves are one short
        (dict(node_kind=[1, 1, 1]), "'node_value' has 2 entries"),
    ],
)
def test_with_nodes_checks_as_the_constructor(fields, fragment):
    with pytest.raises(ValueError, match=fragment):
        _net().with_nodes(**fields)


def test_with_nodes_replaces_only_node_fields():
    net = _net()
    other = net.with_nodes(node_value=[5, 6])
    assert other.node_value.tolist() == [5, 6] and net.node_value.tolist() == [10, 20]
    assert not other.node_value.flags.writeable
    assert other.seg_u is net.seg_u and other.node_names == net.node_names
    with pytest.raises(TypeError, match="seg_u"):
        net.with_nodes(seg_u=[1])


def test_empty_network_rejected():
    with pytest.raises(ValueError, match="empty"):
        NetworkBuilder().build()


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: Train("x", (TrainRow(0b110, 3, 2),)), "pays 3 stops but visits only 2"),
        (lambda: Train("x", (TrainRow(0b110, 0, 0),)), "zero stops"),
        (lambda: Train("x", ()), "no counting rows"),
        (lambda: Train("x", (TrainRow(1 << 9, 2, 2),)), "invalid kind mask"),
        (lambda: Train.n("x", 2, multiplier=0), "multiplier >= 1"),
        (lambda: Train("x", (TrainRow(0b10, 2, 3), TrainRow(0b100, 1, 1))), "must pay every"),
    ],
)
def test_train_errors_name_the_train(make, fragment):
    with pytest.raises(ValueError, match=fragment):
        make()


@pytest.mark.parametrize(
    ("rules", "fragment"),
    [
        (Rules.make(token_nodes=[5]), "token_nodes refers to node 5"),
        (Rules.make(token_nodes=[0], node_bonus={9: 10}), "node_bonus refers to node 9"),
        (Rules.make(token_nodes=[0], node_bonus={1: -10}), "negative"),
        (Rules.make(token_nodes=[0], must_visit=[4]), "must_visit refers to node 4"),
        (Rules.make(token_nodes=[0], group_scope={3: "set"}), "group_scope names group 3"),
        (
            Rules.make(token_nodes=[0], end_pair_bonuses=[EndPairBonus.make({0: 10}, {8: 5})]),
            "end_pair_bonus 'end-pair' refers to node 8",
        ),
        (Rules.make(token_nodes=[0], hex_once_exempt=[9]), "hex_once_exempt names hex index 9"),
    ],
)
def test_rule_errors_name_the_item(rules, fragment):
    with pytest.raises(ValueError, match=fragment):
        Problem(_net(), (Train.n("2", 2),), rules)


def test_train_that_is_not_a_train():
    with pytest.raises(ValueError, match="train 0 is not a routing.Train"):
        Problem(_net(), ("2-train",), Rules())


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "soon"])
def test_bad_time_limit(limit):
    problem = Problem(_net(), (Train.n("2", 2),), Rules.make(token_nodes=[0]))
    with pytest.raises(ValueError, match="time_limit"):
        solve(problem, time_limit=limit)


def test_unknown_method():
    problem = Problem(_net(), (Train.n("2", 2),), Rules.make(token_nodes=[0]))
    with pytest.raises(ValueError, match="unknown method 'fast'"):
        solve(problem, method="fast")


def test_solve_rejects_non_problem():
    with pytest.raises(ValueError, match="routing.Problem"):
        solve({"trains": []})


def test_arrays_are_frozen_copies():
    kinds = np.array([1, 1], dtype=np.int8)
    net = _net(node_kind=kinds)
    kinds[0] = 3
    assert net.node_kind[0] == NodeKind.CITY
    with pytest.raises(ValueError):
        net.node_kind[0] = 2


# ------------------------------------------------------------------ declared routes (validate)
def _line() -> tuple[routing.Problem, dict[str, int]]:
    """A - J - B - C - D in hexes A1 .. A9 (J a junction on the A1/A3 edge), B a city full of
    another company's stations (terminal), a parallel track A1-A3 ... and a town T off C."""
    b = NetworkBuilder()
    ids = {
        "A": b.add_stop(NodeKind.CITY, 10, "A1", "A1.c0"),
        "J": b.add_junction("A1", "A1|A3"),
        "B": b.add_stop(NodeKind.CITY, 20, "A3", "A3.c0", terminal=True),
        "C": b.add_stop(NodeKind.CITY, 30, "A5", "A5.c0"),
        "D": b.add_stop(NodeKind.CITY, 40, "A7", "A7.c0"),
        "T": b.add_stop(NodeKind.TOWN, 5, "A9", "A9.t0"),
    }
    b.add_segment(ids["A"], ids["J"], "A1", side_v=1)
    b.add_segment(ids["J"], ids["B"], "A3", side_u=2)
    b.add_segment(ids["B"], ids["C"], "A5")
    b.add_segment(ids["C"], ids["D"], "A7")
    b.add_segment(ids["C"], ids["T"], "A9")
    rules = Rules.make(token_nodes=[ids["C"]])
    trains = (Train.n("2", 2), Train.n_m("2/3", 2, 3), Train.express("3E", 3))
    return Problem(b.build(), trains, rules), ids


def _within(seconds: float, fn):
    """``fn()``, failing the test if it takes longer than ``seconds`` (SIGALRM)."""
    import signal

    def expired(*_):
        raise TimeoutError(f"took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_a_million_stop_route_is_rejected_at_once():
    problem, ids = _line()
    route = [ids["C"], ids["D"]] * 500_000
    with pytest.raises(routing.RouteError, match=r"route 1 \(train '2'\): lists 1000000 nodes, "
                       r"but the network has only 6") as err:  # fmt: skip
        _within(1.0, lambda: routing.validate(problem, [(0, route)]))
    assert err.value.route_index == 0


def test_long_explicit_segments_are_rejected_at_once():
    problem, ids = _line()
    nodes = [ids["C"], ids["D"]]
    with pytest.raises(routing.RouteError, match="more pieces of track than the network has"):
        _within(1.0, lambda: routing.validate(problem, [(0, nodes, [3] * 1_000_000)]))


@pytest.mark.parametrize(
    ("route", "fragment"),
    [
        (["A5.c0", "A7.c0"], r"item 1 \('A5.c0'\) is not a node id"),
        ([2, 99], "item 2: node 99 does not exist"),
        ([3, 4, 3], "visits 'A5.c0' twice"),
        ([3, 4, True], r"item 3 \(True\) is not a node id"),
    ],
)
def test_declared_nodes_are_checked_first(route, fragment):
    problem, _ = _line()
    with pytest.raises(routing.RouteError, match=fragment):
        routing.validate(problem, [(0, route)])


def test_more_routes_than_trains():
    problem, ids = _line()
    route = (0, [ids["C"], ids["D"]])
    with pytest.raises(routing.RouteError, match="4 routes declared, but the company has 3"):
        routing.validate(problem, [route] * 4)


def test_route_through_a_blocked_city_says_so_and_by_whom():
    problem, ids = _line()
    through = [ids["A"], ids["B"], ids["C"]]
    with pytest.raises(routing.RouteError) as err:
        routing.validate(problem, [(1, through)])
    assert "runs through 'A3.c0', which may only end a route" in str(err.value)
    assert "the city in hex A3 is blocked" in str(err.value)
    assert err.value.nodes == (ids["B"],)
    with pytest.raises(routing.RouteError, match="the city in hex A3 is blocked by NYC, ERIE"):
        routing.validate(problem, [(1, through)], blocked_by={ids["B"]: ("NYC", "ERIE")})


def test_shared_track_names_stops_and_hex_not_segments():
    problem, ids = _line()
    with pytest.raises(routing.RouteError) as err:
        routing.validate(problem, [(0, [ids["C"], ids["D"]]), (1, [ids["D"], ids["C"]])])
    message = str(err.value)
    assert message.startswith("route 2 and route 1 both run on the track between 'A5.c0' and "
                              "'A7.c0' in hex A7"), message  # fmt: skip
    assert "segment" not in message


def test_explicit_track_errors_name_stops():
    problem, ids = _line()
    with pytest.raises(routing.RouteError) as err:
        routing.validate(problem, [(0, [ids["C"], ids["D"]], [4])])
    assert "does not join them (it is the track between 'A5.c0' and 'A9.t0' in hex A9)" in str(
        err.value
    )


def test_skipped_stops_of_n_m_and_express_trains():
    problem, ids = _line()
    route = [ids["B"], ids["C"], ids["D"]]  # 20, 30, 40: a 2/3 counts C and D
    scored = routing.validate(problem, [(1, route)])
    (r,) = scored.routes
    assert r.counted == (ids["C"], ids["D"]) and r.skipped == (ids["B"],)
    solution = routing.solve(Problem(problem.network, (Train.express("2E", 2),), problem.rules))
    (r,) = solution.routes
    assert set(r.counted) == {ids["C"], ids["D"]}
    assert set(r.skipped) == set(r.nodes) - set(r.counted) - {ids["J"]}
    again = routing.Solution.from_dict(solution.to_dict())
    assert again.routes[0].skipped == r.skipped


def test_validate_compares_with_the_optimum():
    problem, ids = _line()
    one = Problem(problem.network, problem.trains[:1], problem.rules)
    scored = routing.validate(one, [(0, [ids["C"], ids["T"]])], compare=True)
    assert scored.total == 35 and scored.optimum.total == 70 and scored.shortfall == 35
    assert scored.notes == ["the best routes earn 70, 35 more than declared"]
    best = routing.validate(one, [(0, [ids["C"], ids["D"]])], compare=True)
    assert best.shortfall == 0 and best.notes == ["optimal: no routes earn more than 70"]


def test_a_fingerprint_ignores_names_and_nothing_else():
    """Two cities of 10 and 20 joined by one segment, a 2-train: the optimum (30) does not
    depend on the names, so renamed problems share a fingerprint; a changed value (20 -> 30,
    optimum 40), a second train or a token rule changes it."""
    two = Train.n("2", 2)
    base = Problem(_net(), (two,))
    renamed = Problem(_net(node_names=("Chicago", "Detroit"), hex_names=("X1", "X3")), (two,),
                      label="another label")  # fmt: skip
    assert base.fingerprint() == renamed.fingerprint()
    assert solve(base).total == solve(renamed).total == 30
    others = [
        Problem(_net(node_value=[10, 30]), (two,)),
        Problem(_net(), (two, two)),
        Problem(_net(), (two,), Rules(token_nodes=frozenset({0}))),
        Problem(_net(seg_side_v=[1]), (two,)),
    ]
    prints = {p.fingerprint() for p in others}
    assert len(prints) == len(others) and base.fingerprint() not in prints
