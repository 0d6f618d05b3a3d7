"""The one track walk, :func:`engine.game.track.walk`, option by option on tiny hand-built maps.

Pointy hexes, rows of letters: in row B the hexes B1, B3, B5, ... follow each other west to
east, edge 4 of one facing edge 1 of the next; edge 5 of B3 faces edge 2 of C4, edge 5 of B9
edge 2 of C10.

LINE::

    B1 city --- B3 track --- B5 city (1 slot) --- B7 town --- B9 offboard (red) --- C10 city
      edge 4    1-4          1 and 4              1 and 4     1 and 5 (to C10)      edge 2
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.game.track import Walk, reach, walk
from engine.model.board import Board, PlacedTile
from engine.model.tiles.parse import Edge, NodeRef, parse_tile

#: Where a walk starts: a city (a path end on the tile)
CITY = NodeRef("city", 0)
#: Nodes (hex, kind, index) of LINE
B1, B5, B7, B9, C10 = [("B1", "city", 0), ("B5", "city", 0), ("B7", "town", 0),
                       ("B9", "offboard", 0), ("C10", "city", 0)]  # fmt: skip
#: The town of the turn maps
C4 = ("C4", "town", 0)


def _board(white: dict[str, list[str]], red: dict[str, list[str]] | None = None) -> Board:
    hexes = {"white": white, **({"red": red} if red else {})}
    return Board.from_data(SimpleNamespace(TITLE="walk", LAYOUT="pointy", HEXES=hexes))


@pytest.fixture(scope="module")
def line() -> Board:
    return _board(
        {
            "city=revenue:20;path=a:4,b:_0": ["B1"],
            "path=a:1,b:4": ["B3"],
            "city=revenue:20,slots:1;path=a:1,b:_0;path=a:4,b:_0": ["B5"],
            "town=revenue:10;path=a:1,b:_0;path=a:4,b:_0": ["B7"],
            "city=revenue:10;path=a:2,b:_0": ["C10"],
        },
        {"offboard=revenue:30;path=a:1,b:_0;path=a:5,b:_0": ["B9"]},
    )


def _from_b1(board: Board, **options) -> Walk:
    return walk(board, [("B1", CITY)], **options)


def test_plain_walk_reaches_every_node_up_to_the_offboard(line):
    w = _from_b1(line)
    # B1's city (the start), B5's city, B7's town, B9's offboard; the offboard ends the walk
    assert w.nodes == {B1, B5, B7, B9}
    assert w.track == {"B1", "B3", "B5", "B7", "B9"}
    assert w.cities == {("B1", 0), ("B5", 0)}
    # every edge of a path taken, and the neighbour's facing edge; B9's path to C10 not taken
    assert w.hexes == {"B1": {4}, "B3": {1, 4}, "B5": {1, 4}, "B7": {1, 4}, "B9": {1}}
    assert not w.done


def test_a_city_full_of_other_tokens_ends_the_walk(line):
    tokens = {("B5", 0): ["X"]}
    w = _from_b1(line, tokens=tokens, sym="A")
    # B5's one slot is X's: A reaches the city but does not pass it
    assert w.nodes == {B1, B5}
    assert w.track == {"B1", "B3", "B5"}
    # X's own token never blocks X
    assert B9 in _from_b1(line, tokens=tokens, sym="X").nodes
    # no tokens at all: nothing blocks
    assert B9 in _from_b1(line, tokens=None).nodes


def test_pass_offboards_goes_on_through_the_offboard(line):
    w = _from_b1(line, pass_offboards=True)
    # B9's offboard is passed: its second path leads on to C10's city
    assert C10 in w.nodes and "C10" in w.track


def test_terminal_paths_end_the_walk_when_asked():
    board = _board(
        {"city=revenue:20;path=a:4,b:_0": ["B1"], "city=revenue:10;path=a:2,b:_0": ["C4"]},
        {"offboard=revenue:30;path=a:1,b:_0,terminal:1;path=a:5,b:_0,terminal:1": ["B3"]},
    )
    # B1 - B3 (offboard, both paths terminal) - C4 (a city)
    assert ("C4", "city", 0) in walk(board, [("B1", CITY)], pass_offboards=True).nodes
    ended = walk(board, [("B1", CITY)], pass_offboards=True, pass_terminal=False)
    # B3's offboard is reached by a terminal path, so the walk ends there
    assert ended.nodes == {B1, ("B3", "offboard", 0)}


def test_no_pass_hexes_and_nodes_are_reached_but_not_passed(line):
    # every node of B7 is reached but not passed: B9 stays out of reach
    w = _from_b1(line, no_pass={"B7"})
    assert B7 in w.nodes and B9 not in w.nodes
    # an avoided node: B5's city is reached, B7 is not
    w = _from_b1(line, no_pass={B5})
    assert w.nodes == {B1, B5}


def test_goal_hexes_paths_and_nodes_end_the_walk(line):
    # a hex: entered over a side with track there
    assert _from_b1(line, goal={"B7"}).done
    # C10 lies behind the offboard: out of reach, unless offboards are passed
    assert not _from_b1(line, goal={"C10"}).done
    assert _from_b1(line, goal={"C10"}, pass_offboards=True).done
    # a path (hex, index on the tile): B3's only path
    assert _from_b1(line, goal={("B3", 0)}).done
    # a node: B9's offboard; the walk stops there, before B9's other path
    w = _from_b1(line, goal={B9})
    assert w.done and B9 in w.nodes
    # a start counts
    assert _from_b1(line, goal={B1}).done


def test_stops_ends_the_walk_once_enough_stops_are_reached(line):
    w = _from_b1(line, stops=2)
    # B1's city (the start) and B5's city
    assert w.done and w.nodes == {B1, B5}
    # with B5 no stop: B1, B7's town and B9's offboard make three
    assert _from_b1(line, stops=3, no_stop={"B5"}).done
    # four stops in all (B1, B5, B7, B9): five are never reached
    assert not _from_b1(line, stops=5).done
    assert not _from_b1(line, stops=4, no_stop={"B9"}).done


def test_within_keeps_the_walk_in_some_hexes(line):
    w = _from_b1(line, within={"B1", "B3"})
    # the walk does not cross from B3 into B5
    assert w.track == {"B1", "B3"} and w.nodes == {B1}


def test_overlay_replaces_a_tile_for_the_walk(line):
    curve = PlacedTile(parse_tile("c", "yellow", "path=a:1,b:0"), 0, False)
    w = _from_b1(line, overlay={"B3": curve})
    # B3's track now turns from edge 1 to edge 0 (C2, not on the map): B5 is out of reach
    assert w.nodes == {B1} and "B3" in w.track
    # the board itself is unchanged
    assert B5 in _from_b1(line).nodes


def test_a_path_start_walks_the_path_both_ways(line):
    w = walk(line, [("B3", 0)])
    # B3's straight leads west to B1's city and east to B5's city and beyond
    assert {B1, B5, B9} <= w.nodes
    # an edge start enters B5 over its side 1, as track coming from B3: it goes east only
    w = walk(line, [("B5", Edge(1))])
    assert w.nodes == {B5, B7, B9}


def test_out_goes_on_from_an_earlier_walk(line):
    first = _from_b1(line, within={"B1", "B3"})
    again = walk(line, [("B5", Edge(1))], out=first)
    # the same object, with both walks' reach
    assert again is first
    assert first.nodes == {B1, B5, B7, B9}


#: B1 (see each test) --- B3: straight 1-4 and curve 1-5 (to C4), sharing side 1 --- B5 city;
#: C4: a town on edge 2 (facing B3's edge 5).
_TURN = {
    "path=a:1,b:4;path=a:1,b:5": ["B3"],
    "city=revenue:20;path=a:1,b:_0": ["B5"],
    "town=revenue:10;path=a:2,b:_0": ["C4"],
}


def _turn_board(b1: str) -> Board:
    white = dict(_TURN)
    white[b1] = ["B1"]
    return _board(white)


def test_turns_at_nodes():
    board = _turn_board("city=revenue:20;path=a:4,b:_0")  # B1: a city facing B3
    # from B5 west over B3's straight to B1's city; B3's curve would need a turn on side 1
    assert walk(board, [("B5", CITY)]).nodes == {B5, B1}
    # turning at B1's city, the walk comes back into B3 over side 1 and takes the curve too
    w = walk(board, [("B5", CITY)], turns="nodes")
    assert C4 in w.nodes


def test_turns_at_sides():
    board = _turn_board("path=a:4,b:2")  # B1: track from B3's side to off the map
    # no node to turn at: only turning on B3's side 1 reaches the curve
    assert C4 not in walk(board, [("B5", CITY)], turns="nodes").nodes
    assert C4 in walk(board, [("B5", CITY)], turns="always").nodes
    # no track in B1 facing B3: no turn on that side either
    bare = _turn_board("")
    assert C4 not in walk(bare, [("B5", CITY)], turns="always").nodes
    with pytest.raises(ValueError, match="turns"):
        walk(board, [("B5", CITY)], turns="sometimes")


def test_reach_is_the_walk_from_the_company_tokens(line):
    tokens = {("B1", 0): ["A"], ("B5", 0): ["X"]}
    net = reach(line, tokens, "A")
    # B5 is full of X: A's network ends there; B1 counts as connected on every side
    assert net.cities == {("B1", 0), ("B5", 0)}
    assert net.hexes["B1"] == set(line.neighbours("B1"))
    assert net.track == {"B1", "B3", "B5"}
