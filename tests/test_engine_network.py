"""Position -> base network -> routing.Problem, on the synthetic title ``tiny``."""

import copy
import importlib.util
import pathlib
import sys

import pytest

import routing
from engine.games import build_problem, route_view
from engine.model.position import position_from_dict
from engine.model.title import RouteSpec, Title, default_route_spec
from routing import NodeKind

DATA = pathlib.Path(__file__).parent / "data"


def _tiny():
    if "tiny_title" not in sys.modules:
        spec = importlib.util.spec_from_file_location("tiny_title", DATA / "tiny_title.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["tiny_title"] = module
        spec.loader.exec_module(module)
    return sys.modules["tiny_title"].register()


TINY = _tiny()

POS = {
    "title": "tiny",
    "phase": "2",
    "company": "AA",
    "trains": ["2", "4/6"],
    "tiles": [
        {"hex": "B3", "tile": "57", "rotation": 2},
        {"hex": "C4", "tile": "3", "rotation": 2},
        {"hex": "B5", "tile": "8", "rotation": 4},
    ],
    "tokens": [{"hex": "B3", "company": "AA"}, {"hex": "B7", "company": "BB"}],
}


def _pos(**changes):
    pos = copy.deepcopy(POS)
    pos.update(changes)
    return pos


def test_base_network_nodes_and_segments():
    problem, view = build_problem(POS)
    net = problem.network
    names = set(net.node_names)
    assert {"A2.o", "B3.c0", "C4.t0", "B7.c0", "C6.o"} <= names
    assert {"A2|B3", "B3|C4", "B5|C4", "B5|B7"} <= names
    # C6's track faces B5, whose tile does not continue there: the side is pruned
    assert "B5|C6" not in names
    # B7's printed track towards the missing B9 is dropped
    assert net.n_segments == 7
    assert view.city_node("B3") == net.node_index("B3.c0")
    assert view.offboard_node("A2") == net.node_index("A2.o")
    assert view.town_node("C4") == net.node_index("C4.t0")
    assert view.hex_of(view.city_node("B7")) == "B7"
    assert view.stop_nodes("B3") == [view.city_node("B3")]
    assert view.tokens_at(view.city_node("B7")) == ("BB",)
    assert view.own_token_nodes == frozenset({view.city_node("B3")})
    assert view.nodes_with_label("W") == [view.offboard_node("A2")]
    assert view.nodes_in_group("W") == [view.offboard_node("A2")]
    assert view.location_name("B3") == "Home"
    assert problem.rules.token_nodes == view.own_token_nodes


def test_values_kinds_and_terminals():
    problem, view = build_problem(POS)
    net = problem.network
    a2, b3, c4 = view.offboard_node("A2"), view.city_node("B3"), view.town_node("C4")
    assert net.node_kind[a2] == NodeKind.OFFBOARD and net.node_terminal[a2]
    assert net.node_value[a2] == 30 and net.node_value[b3] == 20 and net.node_value[c4] == 10
    assert net.node_group[a2] == 0
    assert not net.node_terminal[view.city_node("B7")]
    brown, _ = build_problem(_pos(phase="5"))
    assert brown.network.node_value[a2] == 60


def test_side_labels_force_crossing():
    problem, _ = build_problem(POS)
    net = problem.network
    side = net.node_index("B5|C4")
    labels = {
        int(net.seg_side_u[j]) if net.seg_u[j] == side else int(net.seg_side_v[j])
        for j in range(net.n_segments)
        if side in (net.seg_u[j], net.seg_v[j])
    }
    assert len(labels) == 2


def test_blocked_city_is_terminal():
    pos = _pos(
        tokens=[{"hex": "B3", "company": "BB"}],
        company="CC",
        tiles=POS["tiles"],
    )
    problem, view = build_problem(pos)
    assert problem.network.node_terminal[view.city_node("B3")]
    problem, view = build_problem(_pos(tokens=[{"hex": "B3", "company": "AA"}]))
    assert not problem.network.node_terminal[view.city_node("B3")]


def test_solve_and_validate():
    problem, view = build_problem(POS)
    solution = routing.solve(problem, time_limit=30)
    assert solution.optimal and solution.total == 110
    stops = ["A2.o", "B3.c0", "C4.t0", "B7.c0"]
    scored = routing.validate(problem, [(1, [problem.network.node_index(s) for s in stops])])
    assert scored.total == 90


def test_hook_overrides_are_applied():
    def hook(view):
        spec = default_route_spec(view)
        c4 = view.town_node("C4")
        spec.value[c4] = 50
        spec.kind[c4] = NodeKind.PORT
        spec.terminal[view.city_node("B7")] = True
        spec.extras["bonus"] = 7
        return spec

    title = Title("tiny", TINY.data, hook)
    problem, view = build_problem(position_from_dict(POS), title=title)
    net = problem.network
    c4 = view.town_node("C4")
    assert net.node_value[c4] == 50 and net.node_kind[c4] == NodeKind.PORT
    assert net.node_terminal[view.city_node("B7")]
    assert view.spec.extras == {"bonus": 7}
    assert view.network.node_value[c4] == 10  # the base network is untouched


def test_hook_must_return_route_spec():
    title = Title("tiny", TINY.data, lambda view: None)
    with pytest.raises(TypeError, match="RouteSpec"):
        build_problem(POS, title=title)
    assert isinstance(default_route_spec(route_view(position_from_dict(POS))), RouteSpec)


def test_train_conversion():
    _, view = build_problem(POS)
    two, four_six = view.default_trains()
    assert two.rows[0].pay == 2 and two.rows[0].visit == 2
    assert four_six.rows[0].pay == 4 and four_six.rows[0].visit == 6


def test_two_routes_may_not_cross_the_same_hex_side():
    """18xx.games reuses no (hex, edge): two switch tiles facing each other share one side."""
    from types import SimpleNamespace

    from engine.model.board import Board
    from engine.model.network_build import build_network

    data = SimpleNamespace(
        TITLE="switch",
        LAYOUT="pointy",
        HEXES={
            "gray": {
                "city=revenue:10;path=a:4,b:_0": ["B1"],
                "city=revenue:20;path=a:5,b:_0": ["A2"],
                "city=revenue:30;path=a:1,b:_0": ["B7"],
                "city=revenue:40;path=a:2,b:_0": ["C6"],
            },
            "white": {"": ["B3", "B5"]},
        },
        TILES={"23": 2},
    )
    board = Board.from_data(data)
    board.lay("B3", "23", 4)
    board.lay("B5", "23", 1)
    base = build_network(board, ["green"])
    net = base.network
    assert {"B3|B5", "B5|B3"} <= set(net.node_names)
    two = routing.Train.n("2", 2)
    problem = routing.Problem(net, (two, two))
    assert routing.solve(problem, time_limit=30).total == 60


def test_a_lay_on_a_board_copy_leaves_the_board_as_it_was():
    """The analysis lays each candidate tile on a copy of the live board: the copy builds
    the network of a board with that lay, and the board keeps its own (tile, links,
    network) though both share the printed map's caches."""
    from engine.app.analysis import candidate_moves
    from engine.games.positions import game_at_position
    from engine.model.network_build import build_network
    from engine.model.position import load_position, position_board

    example = pathlib.Path(__file__).resolve().parents[1] / "engine/examples/1846-late.json"
    game = game_at_position(load_position(example))
    board = game.state.board
    lay = next(m for m in candidate_moves(game, ("tile",)) if m.label.startswith("upgrade"))
    hex_, tile, rotation = (lay.details[k] for k in ("hex", "tile", "rotation"))

    def arrays(b) -> list:
        net = build_network(b, ["yellow", "green", "brown"]).network
        return [net.node_kind.tolist(), net.seg_u.tolist(), net.seg_v.tolist()]

    before, placed = arrays(board), board.placed(hex_)
    copied = board.copy()
    copied.lay(hex_, tile, rotation, check=False)
    assert board.placed(hex_) is placed and arrays(board) == before
    assert copied.placed(hex_).tile.name == tile
    fresh = position_board(position_from_dict(lay.position), game.title, check=False)
    assert arrays(copied) == arrays(fresh) != before
