"""18xx.games coordinates, neighbours and edges."""

import pytest

from engine.model.hexgrid import HexGrid, opposite, rotate_edge


def test_pointy_neighbours_match_18xx_games():
    grid = HexGrid.make("pointy")  # x = number, y = letter
    assert grid.xy("D6") == (5, 3)
    got = {e: grid.neighbour("D6", e) for e in range(6)}
    assert got == {0: "E5", 1: "D4", 2: "C5", 3: "C7", 4: "D8", 5: "E7"}
    assert grid.edge_between("D6", "E7") == 5
    assert grid.edge_between("E7", "D6") == opposite(5)
    assert grid.edge_between("D6", "F6") is None


def test_flat_neighbours_match_18xx_games():
    grid = HexGrid.make("flat")  # x = letter, y = number
    assert grid.xy("G18") == (6, 17)
    assert grid.neighbour("G18", 3) == "G16"  # 1812: border edge 3 of G18 faces G16's edge 0
    assert grid.neighbour("G16", 0) == "G18"
    assert grid.neighbour("B2", 4) == "C1"


def test_axes_override_and_round_trip():
    grid = HexGrid.make("pointy", {"x": "number", "y": "letter"})
    for coord in ("A1", "K20", "AA3", "a2"):
        assert grid.coord(*grid.xy(coord)) == coord
    with pytest.raises(ValueError):
        HexGrid.make("round")
    with pytest.raises(ValueError):
        grid.xy("6D")


def test_rotation_and_geometry():
    assert rotate_edge(4, 3) == 1
    grid = HexGrid.make("pointy")
    (x0, y0), (x1, y1) = grid.center("D6"), grid.center("E7")
    vx, vy = grid.edge_vector(5)
    assert abs((x1 - x0) / 2 - vx) < 1e-9 and abs((y1 - y0) / 2 - vy) < 1e-9
    assert len(grid.corners("D6")) == 6
