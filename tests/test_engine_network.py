"""Position -> base network -> routing.Problem, on the synthetic title ``tiny``; a network
patched at one hex against one built afresh, on the bundled examples."""

import copy
import importlib.util
import pathlib
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


# ------------------------------------------------------------------ patching one hex
def _canonical(base) -> tuple:
    """A base network as names: what build and patch must agree on, whatever the order of
    nodes and segments (a side unique to its segment is "own")."""
    net = base.network
    names, hexes = net.node_names, net.hex_names
    group_name = {gid: name for name, gid in base.group_ids.items()}
    nodes = sorted(
        (names[i], int(net.node_kind[i]), int(net.node_value[i]), hexes[int(net.node_hex[i])],
         bool(net.node_terminal[i]), group_name.get(int(net.node_group[i])), base.info[i])
        for i in range(net.n_nodes)
    )  # fmt: skip

    def side(label: int) -> str:
        return hexes[label] if label >= 0 else "own"

    segments = sorted(
        tuple(sorted([(names[int(net.seg_u[j])], side(int(net.seg_side_u[j]))),
                      (names[int(net.seg_v[j])], side(int(net.seg_side_v[j])))]))
        + (hexes[int(net.seg_hex[j])],)
        for j in range(net.n_segments)
    )  # fmt: skip
    index = sorted((key, names[node]) for key, node in base.index.items())
    tokens = sorted((names[node], syms) for node, syms in base.tokens.items())
    return nodes, segments, index, tokens


EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "engine" / "examples"


def _arrays(base) -> list:
    """A base network's arrays and names, in their order."""
    net = base.network
    fields = ("node_kind", "node_value", "node_hex", "node_terminal", "node_group", "seg_u",
              "seg_v", "seg_side_u", "seg_side_v", "seg_hex")  # fmt: skip
    return [getattr(net, f).tolist() for f in fields] + [list(net.node_names)]


def _operating_game(example: str):
    """The game of a bundled example and the company operating in it, with its legal
    tile lays (none where it is past its track stage)."""
    from engine.app.analysis import position_game

    game = position_game(str(EXAMPLES / example))
    op = game.or_turn.op
    lays = [a for a in game.legal_actions() if a["type"] == "lay_tile" and a["entity"] == op]
    return game, op, lays


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_patching_a_laid_hex_gives_the_network_a_full_build_gives(example):
    """Every legal tile lay of every bundled example: the board's base network patched at
    the laid hex (patch_network) has the nodes, segments, look-ups and tokens of the network
    built afresh on the board with the lay."""
    from engine.model.network_build import build_network, patch_network
    from engine.model.title import phase_of

    game, op, lays = _operating_game(example)
    position = game.state.position(op)
    colors = list(phase_of(game.title.data, position.phase).get("tiles", []))
    tokens = position.tokens_by_city()
    board = game.state.board
    base = build_network(board, colors, tokens, op)
    unchanged = 0
    for a in lays:
        after = board.copy()
        after.lay(a["hex"], a["tile"], int(a["rotation"]), check=False)
        patched = patch_network(base, after, a["hex"], colors, tokens, op)
        assert patched is not None, a  # the whole board: the same hexes
        fresh = build_network(after, colors, tokens, op)
        assert _canonical(patched) == _canonical(fresh), a
        # a lay that changes nothing leaves the network as it was, node for node and segment
        # for segment (what lets the analysis solve such candidates once)
        if _arrays(fresh) == _arrays(base):
            unchanged += 1
            assert _arrays(patched) == _arrays(base), a
        # and a patch of the patch: back to the board without the lay
        again = patch_network(patched, board, a["hex"], colors, tokens, op)
        assert _canonical(again) == _canonical(base), a
    if lays:
        assert _arrays(patch_network(base, board, lays[0]["hex"], colors, tokens, op)) \
            == _arrays(base)


def test_a_patch_refuses_what_it_cannot_patch():
    """Another phase, company or token elsewhere, or a board of other hexes: no patch (the
    caller builds)."""
    from engine.model.network_build import build_network, patch_network

    game, op, lays = _operating_game("1846-late.json")
    board = game.state.board
    tokens = game.state.position(op).tokens_by_city()
    colors = ["yellow", "green", "brown"]
    base = build_network(board, colors, tokens, op)
    hex_ = lays[0]["hex"]
    assert patch_network(base, board, hex_, colors, tokens, op) is not None
    assert patch_network(base, board, hex_, ["yellow", "green"], tokens, op) is None
    other = next(sym for syms in tokens.values() for sym in syms if sym != op)
    assert patch_network(base, board, hex_, colors, tokens, other) is None
    (far, _city), syms = next((k, v) for k, v in tokens.items() if k[0] != hex_)
    moved = {**tokens, (far, _city): (*syms, "XX")}
    assert patch_network(base, board, hex_, colors, moved, op) is None
    part = game.route_board(op)
    if part.track_hexes() != board.track_hexes():
        assert patch_network(base, part, hex_, colors, tokens, op) is None


@pytest.mark.parametrize("example", ["1846-late.json", "1836jr30-mid.json", "1862-mid.json",
                                     "1812-mid.json", "1842-mid.json"])  # fmt: skip
def test_candidate_lays_solve_to_the_optimum_of_a_fresh_build(example, monkeypatch):
    """What the analysis solves per candidate lay (route_problem_after_lay, which patches the
    live board's network where the lay reaches no new hex) has the optimum of the problem
    built afresh on the same part of the board."""
    import engine.model.routes as routes_module
    import engine.model.title as title_module

    game, op, lays = _operating_game(example)
    if not lays:
        pytest.skip("no tile lay at this example's stage")
    patched = []
    real_patch = title_module.patch_network

    def spy(*args, **kwargs):
        out = real_patch(*args, **kwargs)
        patched.append(out is not None)
        return out

    monkeypatch.setattr(title_module, "patch_network", spy)
    from engine.app.analysis import operating_position, position_after_tile

    base_position = operating_position(game, op)
    for a in lays[:40]:
        hex_, tile, rot = a["hex"], a["tile"], int(a["rotation"])
        after = position_after_tile(base_position, game.state.board, hex_, tile, rot)
        problem, view = game.route_problem_after_lay(op, after, hex_, tile, rot)
        fresh, _ = routes_module.fast_problem(game.title, after, view.board)
        assert routing.solve(problem).total == routing.solve(fresh).total, a
    assert any(patched), "no candidate went through the patch"


@pytest.fixture(scope="module")
def lays_1846_late():
    return _operating_game("1846-late.json")


@given(data=st.data())
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_chain_of_patches_gives_the_network_of_the_last_board(lays_1846_late, data):
    """Random legal lays of 1846-late on different hexes, one after the other, each patched
    into the network of the board before it: the last patch has the network a fresh build of
    the last board has (a patch starts from a patch's state as well as from a build's)."""
    from engine.model.network_build import build_network, patch_network

    game, op, lays = lays_1846_late
    colors = ["yellow", "green", "brown"]
    tokens = game.state.position(op).tokens_by_city()
    by_hex: dict[str, list[dict]] = {}
    for a in lays:
        by_hex.setdefault(a["hex"], []).append(a)
    hexes = data.draw(st.lists(st.sampled_from(sorted(by_hex)), min_size=1, max_size=6,
                               unique=True))  # fmt: skip
    board = game.state.board.copy()
    network = build_network(board, colors, tokens, op)
    for hex_ in hexes:
        a = data.draw(st.sampled_from(by_hex[hex_]))
        board = board.copy()
        board.lay(hex_, a["tile"], int(a["rotation"]), check=False)
        network = patch_network(network, board, hex_, colors, tokens, op)
        assert network is not None
    assert _canonical(network) == _canonical(build_network(board, colors, tokens, op))


def test_a_copy_of_the_game_leaves_the_base_network_behind():
    """The analysis copies the game for each train purchase: the copy does not carry the
    live board's kept base network (a deep copy of it per candidate), and builds its own
    when asked."""
    from engine.app.analysis import copy_game

    game, op, _lays = _operating_game("1846-late.json")
    base = game.route_base(op)
    assert game.route_base(op) is base  # kept while the board stays
    copied = copy_game(game)
    assert copied.__dict__.get("_route_base") is None
    assert _canonical(copied.route_base(op)) == _canonical(base)
