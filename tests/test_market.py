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


def test_title_policies_gap_right_may_enter_and_step():
    from engine.games.g1812.market import Market1812
    from engine.games.g1842.economy import Grid1842

    # 1842: a right move with no field to enter goes up (GAP_RIGHT = "up"); blue is HAV-only.
    g = Grid1842()
    assert g.right_of((9, 0), "HAV") == (9, 1)  # 25u -> 30h: the HAV enters blue
    assert g.right_of((9, 0)) == (8, 0)  # any other token: no field right, one up (35b)
    assert g.down_of((8, 1)) == (8, 1)  # 40b -> blue 30h below: no move
    assert g.down_of((8, 1), "HAV") == (9, 1)
    # The default (18xx.games): a right move onto a missing cell does not happen.
    s = StockGrid([["50", "", "70"], ["40", "45", "60"]])
    assert s.right_of((0, 0)) == (0, 0) and s.right_of((1, 2)) == (0, 2)

    # 1812: one row, the Closed box "0c" at column 0, then 40, 45, ... 135, 150 (column 14).
    m = Market1812()
    m.place_at("M", 135)
    m.place_at("P", 135)
    assert m.shift("M", 3, minor=True) is False and m.price("M") == 150  # 135 -> 150, capped
    assert m.shift("P", 3) is False and m.price("P") == 180  # 135 -> 150 -> 165 -> 180
    m.place_at("Q", 150)  # arrives under M
    assert m.pile(150) == ("M", "Q")
    m.shift("M", 1, minor=True)  # no move: M keeps the top of the pile
    assert m.pile(150) == ("M", "Q")
    m.shift("Q", 1)
    m.shift("Q", -1)  # Q comes back: bottom of the pile, still under M
    assert m.pile(150) == ("M", "Q")
    m.place_at("X", 45)
    assert m.shift("X", -3) is True  # 45 -> 40 -> Closed box: off the chart
    assert not m.has("X") and m.closed == ["X"]
    # minors first (M), then publics by price: P 180 before Q 150.
    assert m.order(["P", "Q", "M", "X"], minors={"M"}) == ["M", "P", "Q"]
