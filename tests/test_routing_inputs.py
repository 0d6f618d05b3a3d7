"""Bad input reaches the user as a ValueError that names the item, never a numba crash."""

from __future__ import annotations

import numpy as np
import pytest

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
