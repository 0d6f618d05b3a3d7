"""The one stock market (:class:`engine.game.market.StockGrid`): edges, operating order and
bad input, on 1836Jr-30's 2-D market (1830's, from 18xx.games ``g_1836_jr30`` data).
"""

from __future__ import annotations

import pytest

from engine.game.market import StockGrid, parse_price_id
from engine.games.g1836jr30.data import MARKET


def test_market_edges_follow_1830():
    grid = StockGrid(MARKET)
    grid.set_par("A", 0, 6)  # 100p in the top row
    grid.move("A", "right", 12)  # 100 -> ... -> 350, the top right corner
    assert grid.price("A") == 350 and grid.where["A"] == (0, 18)
    grid.move("A", "right")  # right at the row's end goes up; the top row stays
    assert grid.where["A"] == (0, 18)
    grid.set_par("B", 2, 6)  # 82p
    grid.move("B", "right", 9)  # to 200, the end of row 2 (16 cells)
    assert grid.where["B"] == (2, 15) and grid.price("B") == 200
    grid.move("B", "right")  # no cell right of it: up to row 1, column 15 (240)
    assert grid.where["B"] == (1, 15) and grid.price("B") == 240
    grid.set_par("C", 1, 6)  # 90p
    grid.move("C", "left", 6)  # to 53y at column 0
    assert grid.price("C") == 53
    grid.move("C", "left")  # left of column 0 goes down: 46y
    assert grid.where["C"] == (2, 0) and grid.price("C") == 46
    grid.set_par("D", 4, 6)  # 71p in row 4 (11 cells)
    grid.move("D", "down", 3)  # 71 -> 67 -> 67 -> 67 (rows 5, 6, 7, column 6)
    assert grid.where["D"] == (7, 6)
    grid.move("D", "right")  # 68 is the last cell of row 7
    grid.move("D", "down")  # row 8 has no column 7: the move is ignored (the ledge)
    assert grid.where["D"] == (7, 7) and grid.price("D") == 68
    grid.set_par("E", 6, 6, check_par=False)
    grid.move("E", "down", 10)  # rows 7..10 in column 6, then the bottom row stays
    assert grid.where["E"] == (10, 6) and grid.price("E") == 40


def test_operating_order_price_then_column_then_arrival():
    grid = StockGrid(MARKET)
    grid.set_par("A", 0, 6)  # 100 at column 6
    grid.set_par("B", 1, 6)
    grid.move("B", "right")  # 100 at column 7: further right operates first
    grid.set_par("C", 3, 6)  # 76p
    grid.set_par("D", 3, 6)  # 76p, arrived after C
    assert grid.operating_order("ABCD") == ["B", "A", "C", "D"]
    grid.move("C", "right")
    grid.move("C", "left")  # C comes back to 76 after D: D now first
    assert grid.operating_order("CD") == ["D", "C"]


def test_bad_market_input_is_named():
    with pytest.raises(ValueError, match=r"market\[0\]\[1\]: unknown cell type 'q'"):
        StockGrid([["60y", "82q"]])
    with pytest.raises(ValueError, match="needs at least one non-empty row"):
        StockGrid([])
    with pytest.raises(ValueError, match="not 'price,row,column'"):
        parse_price_id("82;2;6")
    assert parse_price_id("82,2,6") == (82, 2, 6)
    with pytest.raises(ValueError, match="is not a par price"):
        StockGrid([["60y", "82p"]]).set_par("X", 0, 0)
