"""1842 Hamburg/Schleswig-Holstein data: the RECONSTRUCTED map keeps the rulebook's facts."""

from __future__ import annotations

from engine.games.g1842 import data
from engine.model.board import Board


def test_map_is_marked_reconstructed():
    assert data.RECONSTRUCTED is True
    assert "RECONSTRUCTED" in data.__doc__
    assert data.RULEBOOK_FACTS and data.GUESSES


def test_tile_box_matches_rulebook_totals():
    # Rulebook 2: 57 yellow, 47 green, 20 brown, 6 grey tiles.
    board = Board.from_data(data)
    totals: dict[str, int] = {}
    for tile, count in board.manifest.values():
        totals[tile.color] = totals.get(tile.color, 0) + count
    assert totals == {"yellow": 57, "green": 47, "brown": 20, "gray": 6}


def test_rulebook_coordinates_and_blocked_sides():
    board = Board.from_data(data)
    assert board.location_name("L10") == "Hamburg"
    assert board.location_name("M9") == "Harburg"
    assert board.location_name("M15") == "Lauenburg"
    for a, b in (("D8", "E9"), ("M7", "L8"), ("M9", "L8")):
        edge = board.grid.edge_between(a, b)
        assert board.edge_cut(a, edge), (a, b)
    # N14 joins M15 and O13 (Lauenburger Privileg)
    assert set(board.neighbours("N14").values()) >= {"M15", "O13"}


def test_two_value_tiles_carry_their_low_value():
    board = Board.from_data(data)
    for name, values in data.TWO_VALUE_TILES.items():
        tile = board.manifest_tile(name)
        assert [c.revenue.flat for c in tile.cities] == [low for low, _ in values]
    for hex_, values in data.TWO_VALUE_HEXES.items():
        tile = board.tile(hex_)
        assert [c.revenue.flat for c in tile.cities] == [low for low, _ in values]
