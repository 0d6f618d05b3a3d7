"""1842 economy (non-route rules): the rulebook's own examples, every function, invariants.

Oracle: ``../shared/seeds/1842-schleswig-holstein-rules.txt`` (sections as printed).  The
stock market is reconstructed (``economy_data.MARKET``); tests that walk it name the fields
by (row, column) with their values in comments, so a change of the guessed grid shows here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.g1842 import economy as ec
from engine.games.g1842 import economy_data as ed
from engine.games.g1842 import economy_hav as hv
from engine.games.g1842 import economy_minors as mi
from engine.games.g1842 import economy_ops as op
from engine.games.g1842.economy import Cell

SEATS6 = ("A", "B", "C", "D", "E", "F")
FAST = settings(max_examples=100, deadline=None)


# =============================================================================== worked examples
def test_hav_dividend_example_3422():
    # 3.4.2.2: 40% held by corporations, 20% in the pool (so 40% unsold), treasury 110.
    # 60% purchased = 6 tenths; 110 / 6 = 18.33 -> rounded down to 5 M: 15 per 10%.
    # Corporations 4 x 15 = 60, bank 2 x 15 = 30, 110 - 60 - 30 = 20 stay in the treasury.
    d = hv.hav_dividend(110, {"AKE": 20, "BHE": 10, "LBE": 10}, pool_percent=20, ipo_percent=40)
    assert d.per_share == 15
    assert d.to_holders == {"AKE": 30, "BHE": 15, "LBE": 15}
    assert sum(d.to_holders.values()) == 60
    assert d.to_bank == 30
    assert d.retained == 20
    assert d.paid
    # "The token on the stock market is moved one space to the right": 30 -> 35 (row 9).
    start = ec.start_cell("HAV")
    assert ec.price(start) == 30
    after = hv.hav_after_operating(start, d.paid)
    assert after == Cell(start.row, start.col + 1) and ec.price(after) == 35


def test_starting_round_example_5():
    # 5: A HBE, B KE, C HBE, D KE, E SSE, F SSE (F is the banker).  No single choice, so the
    # banker F buys SSE; E (also SSE) takes an unselected company (RE, as assumed there);
    # left of E is F (done), then A: A buys HBE, C takes the only unselected one, GEE;
    # left of C is D, who buys KE; B has no company left and gets the priority deal (AKE).
    choices = {"A": "HBE", "B": "KE", "C": "HBE", "D": "KE", "E": "SSE", "F": "SSE"}
    state = mi.starting_round(choices, SEATS6, banker="F")
    steps = []
    while (pending := mi.starting_round_next(state)) is not None:
        steps.append((pending.player, pending.options))
        pick = "RE" if pending.player == "E" else (pending.options or (None,))[0]
        state = mi.starting_round_buy(state, pending.player, pick)
    assert steps == [
        ("F", ("SSE",)),
        ("E", ("RE", "GEE")),  # the companies nobody chose
        ("A", ("HBE",)),
        ("C", ("GEE",)),  # "the only unselected company GEE"
        ("D", ("KE",)),
        ("B", ()),
    ]
    assert state.purchases == (
        ("F", "SSE"), ("E", "RE"), ("A", "HBE"), ("C", "GEE"), ("D", "KE"), ("B", None),
    )  # fmt: skip
    assert mi.first_stock_round_start(state) == ("B", True)  # 5, 5.1


def test_yellow_zone_forced_sale_example_64():
    # 6.4: token at 67, the player holds 60% and 4 certificates over the limit.  He sells 10%
    # for 67 (one field down to 61), then 10% for 61, which brings the token into the
    # yellow zone; the certificates left no longer count.  4 players: limit 11.
    cell = Cell(3, 1)  # 67; below it 61 (4, 1), then 55 yellow (5, 1)
    assert ec.price(cell) == 67 and ec.zone(cell) == "plain"
    other = {"BHE": [20, 10, 10, 10, 10], "LBE": [20, 10, 10, 10, 10]}  # 10 certificates
    held = [20, 10, 10, 10, 10]  # 60% of AKE in 5 certificates
    cells = {"AKE": cell, "BHE": Cell(0, 0), "LBE": Cell(0, 0)}
    assert ec.certificate_count({"AKE": held, **other}, cells) == 15  # 11 + 4 over
    proceeds = 0
    for expected_price in (67, 61):
        proceeds += ec.price(cell)
        assert ec.price(cell) == expected_price
        cell = ec.after_sale(cell, 10)
        held.remove(10)
    assert proceeds == 67 + 61
    assert ec.zone(cell) == "yellow" and ec.price(cell) == 55
    cells["AKE"] = cell
    # 10 other certificates; AKE's three (20 + 10 + 10) no longer count: 10 <= 11
    assert ec.certificate_count({"AKE": held, **other}, cells) == 10
    assert ec.certificate_limit(4) == 11


def test_forced_transformation_example_32b():
    # 3.2 b) 8: "if only one 10% share of the SE has been sold at this stage, two 10% shares
    # of the SE being placed in the Bank Pool and the stock value will drop accordingly".
    # Sold: director 20% (the exchange share counts) + 10% = 30%; offering 70% -> 50%.
    ipo = (10,) * 7
    t = mi.transform_predecessor(
        "SSE", owner="A", treasury=130, percents={"B": 10}, seats=("A", "B", "C"),
        ipo=ipo, forced=True, markers=(),
    )  # fmt: skip
    assert t.successor == "SE"
    assert t.to_pool == (10, 10) and sum(t.ipo) == 50
    # a 20% sale moves one field down (8): SE starts at 86 (2, 3) and drops to 80 (3, 3)
    assert ec.start_cell("SE") == Cell(2, 3)
    assert t.cell == Cell(3, 3) and ec.price(t.cell) == 80
    # 3.2 a.6: 8 x the face value (86) = 688 added to the predecessor's 130
    assert t.from_bank == 688 and t.treasury == 130 + 688
    assert t.director == "A"  # b) skips step 7
    assert not t.operates_this_round  # 9: the token is flipped


def test_sale_movement_rule_8():
    # 8: up to 20% sold -> one field down; 30% or more -> two.  AKE at 100 (2, 5).
    c = ec.start_cell("AKE")
    assert ec.price(c) == 100
    assert ec.after_sale(c, 10) == ec.after_sale(c, 20) == Cell(3, 5)  # 92
    assert ec.after_sale(c, 30) == ec.after_sale(c, 60) == Cell(4, 5)  # 86
    assert [ec.sale_steps(p) for p in (10, 20, 30, 40)] == [1, 1, 2, 2]


def test_hav_build_explanations_3421():
    # 3.4.2.1: the first tile links Hamburg and Harburg (a yellow Hamburg tile, 2 tokens).
    assert hv.hav_build_options(4, "2", None, "yellow") == (hv.HavBuild("L10", "yellow", 2),)
    # "enough tokens for the second track construction in the yellow phase, the HAV cannot
    # place a tile as there are only green and brown tiles left"
    assert hv.hav_build_options(2, "2", "yellow", "yellow") == ()
    # "With the beginning of the green phase, the HAV has the choice, to upgrade either
    # Hamburg or Harburg."
    assert {o.hex for o in hv.hav_build_options(2, "3", "yellow", "yellow")} == {"L10", "M9"}
    # grey on brown Hamburg once Harburg is brown, free (no token)
    grey = hv.hav_build_options(0, "8", "brown", "brown")
    assert grey == (hv.HavBuild("L10", "grey", 0),)
    assert not hv.hav_must_build(grey)  # "may upgrade"
    assert hv.hav_build_options(0, "8", "brown", "green") == ()


def test_hav_simplified_103():
    # "10.3 HAV simplified": 5 M per share whatever the routes; price stays 30.
    d = hv.hav_simplified_dividend({"AKE": 30, "BHE": 20}, pool_percent=10, ipo_percent=40)
    assert d.to_holders == {"AKE": 15, "BHE": 10} and d.retained == 0 and d.to_bank == 0
    start = ec.start_cell("HAV")
    assert hv.hav_after_operating(start, True, simplified=True) == start
    assert hv.hav_sale(start, 20, simplified=True) == (60, start)


# =============================================================================== market
def test_market_shape_and_zones():
    assert ec.price(Cell(0, 0)) == 80 and ec.zone(Cell(0, 0)) == "plain"
    assert ec.top_right() == Cell(0, 14) and ec.zone(ec.top_right()) == "end"
    assert ec.zone(Cell(7, 0)) == "brown" and ec.zone(Cell(9, 0)) == "blue"
    assert ec.zone(ec.start_cell("AKE")) == "start"
    # rows rise to the right, columns fall downward (so moves are monotone)
    for r, row in enumerate(ed.MARKET):
        prices = [ec.price(Cell(r, c)) for c in range(len(row))]
        assert prices == sorted(prices)
        if r:
            assert all(ec.price(Cell(r, c)) < ec.price(Cell(r - 1, c)) for c in range(len(row)))
    # 6.4: every 61 is below a 67 and above a yellow field
    for r, row in enumerate(ed.MARKET):
        for c, text in enumerate(row):
            if text == "61":
                assert ec.price(Cell(r - 1, c)) == 67 and ec.zone(Cell(r + 1, c)) == "yellow"
    for bad in (Cell(0, 15), Cell(10, 0), Cell(-1, 0), (0, 0)):
        with pytest.raises(ValueError, match="cell"):
            ec.price(bad)


def test_start_cells_face_values():
    # 3.3.2, 8: every corporation starts on the red field of its face value
    for corp, face in ed.FACE_VALUE.items():
        cell = ec.start_cell(corp)
        assert ec.price(cell) == face
        assert ec.zone(cell) == ("blue" if corp == "HAV" else "start")
    with pytest.raises(ValueError, match="XYZ"):
        ec.start_cell("XYZ")


def test_dividend_and_withhold_moves():
    c = ec.start_cell("AKE")  # (2, 5) 100
    assert ec.after_dividend(c) == Cell(2, 6)  # 108
    assert ec.after_dividend(Cell(2, 11)) == Cell(1, 11)  # 158 is row 2's end: up to 170
    assert ec.after_dividend(ec.top_right()) == ec.top_right()
    assert ec.after_withhold(c) == Cell(2, 4)  # 92
    assert ec.after_withhold(Cell(3, 0)) == Cell(4, 0)  # 61 first in row: down to 55
    assert ec.after_withhold(Cell(8, 0)) == Cell(8, 0)  # never into blue (8)
    assert ec.after_withhold(Cell(8, 0), hav=True) == Cell(9, 0)  # the HAV may
    # HAV dividends: 30 -> 35 (row end) -> up to 45
    h = ec.after_dividend(ec.start_cell("HAV"), hav=True)
    assert ec.price(h) == 35 and ec.price(ec.after_dividend(h, hav=True)) == 45


def test_sale_foot_of_column_and_blue():
    assert ec.after_sale(Cell(5, 5), 10) == Cell(5, 5)  # 80: no field below
    assert ec.after_sale(Cell(8, 1), 30) == Cell(8, 1)  # 40: blue below
    assert ec.after_sale(Cell(8, 1), 10, hav=True) == Cell(9, 1)
    for bad in (0, 15, 110, -10, "10"):
        with pytest.raises(ValueError, match="percent"):
            ec.sale_steps(bad)


def test_hundred_percent_rule():
    c = ec.start_cell("AKE")
    assert ec.after_stock_round(c, 100) == Cell(1, 5)  # 100 -> 108
    assert ec.after_stock_round(c, 90) == c
    assert ec.after_stock_round(Cell(0, 3), 100) == Cell(0, 3)  # top stays
    with pytest.raises(ValueError, match="player_percent"):
        ec.after_stock_round(c, 105)


def test_operating_order_7_1():
    tokens = {
        "BHE": (Cell(1, 4), 0),  # 100, column 4
        "AKE": (Cell(2, 5), 0),  # 100, column 5: further right, first
        "SE": (Cell(2, 3), 1),  # 86, below LBE in the stack
        "LBE": (Cell(2, 3), 0),  # 86, top token
        "WHE": (Cell(0, 6), 0),  # 125
    }
    assert ec.operating_order(tokens) == ("WHE", "AKE", "BHE", "LBE", "SE")
    with pytest.raises(ValueError, match="stack index"):
        ec.operating_order({"LBE": (Cell(2, 3), 0), "SE": (Cell(2, 3), 0)})
    with pytest.raises(ValueError, match="XYZ"):
        ec.operating_order({"XYZ": (Cell(0, 0), 0)})


# =============================================================================== shares
def test_share_structures_section_2():
    # 2: four corporations 20 + 8x10, three 20 + 20 + 6x10, one 20 + 6x10 + 20 (the HAV),
    # two optional 20 + 2x20 + 4x10
    shapes = sorted(tuple(sorted(ec.shares_of(c))) for c in ed.FACE_VALUE)
    assert shapes.count((10,) * 8 + (20,)) == 4
    assert shapes.count((10,) * 6 + (20, 20)) == 4  # three corporations + the HAV
    assert shapes.count((10,) * 4 + (20, 20, 20)) == 2
    assert all(sum(ec.shares_of(c)) == 100 and ec.shares_of(c)[0] == 20 for c in ed.FACE_VALUE)


def test_corporation_start_and_capital():
    assert not ec.corporation_starts(40) and ec.corporation_starts(50)  # 3.3.2
    assert ec.starting_capital("AKE") == 10 * 100
    assert ec.starting_capital("HAV") == 0  # 3.4: no treasury
    with pytest.raises(ValueError, match="sold_percent"):
        ec.corporation_starts(55)


def test_availability_chain():
    base = dict(package_sold=False, sold_percent={}, last_four_train_sold=False)
    assert ec.available_corporations(**base) == ("HAV",)
    assert ec.available_corporations(**{**base, "package_sold": True}) == ("AKE", "HAV")
    got = ec.available_corporations(
        package_sold=True, sold_percent={"AKE": 50, "BHE": 50}, last_four_train_sold=True,
        started={"SE"}, options=["additional_corporations"],
    )  # fmt: skip
    assert got == ("AKE", "BHE", "LBE", "WHE", "ELE", "SE", "HMBG", "UEE", "FKE", "HAV")
    no_opt = ec.available_corporations(
        package_sold=True, sold_percent={"AKE": 40}, last_four_train_sold=False, started={"SE"}
    )
    assert no_opt == ("AKE", "HAV")
    with pytest.raises(ValueError, match="sold_percent"):
        ec.available_corporations(**{**base, "sold_percent": {"AKE": 45}})
    with pytest.raises(ValueError, match="option"):
        ec.available_corporations(**base, options=["nope"])


def test_certificate_limits():
    assert [ec.certificate_limit(n) for n in (3, 4, 5, 6)] == [13, 11, 10, 9]  # 6.3
    assert [ec.certificate_limit(n, ["additional_corporations"]) for n in (3, 4, 5, 6)] == [
        17, 14, 12, 11,
    ]  # 11.2.3
    with pytest.raises(ValueError, match="players"):
        ec.certificate_limit(2)


def test_certificate_count_zones():
    certs = {"AKE": [20, 10], "BHE": [10], "LBE": [10, 10]}
    cells = {"AKE": Cell(4, 0), "BHE": Cell(7, 0), "LBE": Cell(0, 0)}  # yellow, brown, plain
    assert ec.certificate_count(certs, cells, minors=1) == 2 + 1  # LBE's two + one minor
    assert ec.certificate_count(certs, {}, minors=0) == 5  # nothing started: all count
    assert ec.holding_limit_applies(Cell(4, 0)) and not ec.holding_limit_applies(Cell(7, 0))
    with pytest.raises(ValueError, match="AKE certificate"):
        ec.certificate_count({"AKE": [30]}, {})
    with pytest.raises(ValueError, match="minors"):
        ec.certificate_count({}, {}, minors=-1)


def test_sell_refusal():
    ok = dict(started=True, first_stock_round=False, bought_this_turn=False, percent=10,
              pool_percent=0)  # fmt: skip
    assert ec.sell_refusal(**ok) is None
    assert "first stock round" in ec.sell_refusal(**{**ok, "first_stock_round": True})
    assert "not started" in ec.sell_refusal(**{**ok, "started": False})
    assert "next turn" in ec.sell_refusal(**{**ok, "bought_this_turn": True})
    assert "50%" in ec.sell_refusal(**{**ok, "pool_percent": 50})
    assert ec.sell_refusal(**{**ok, "pool_percent": 40}) is None  # exactly 50% is fine
    assert "20%" in ec.sell_refusal(**ok, director_certificate=True, others_max_percent=10)
    assert ec.sell_refusal(**ok, director_certificate=True, others_max_percent=20) is None
    with pytest.raises(ValueError, match="percent"):
        ec.sell_refusal(**{**ok, "percent": 0})


def test_buy_refusal():
    ok = dict(available=True, sold_this_round=False, holding_percent=40,
              certificate_percent=10, cell=Cell(0, 0), certificate_count=3, players=4)  # fmt: skip
    assert ec.buy_refusal(**ok) is None
    assert "not available" in ec.buy_refusal(**{**ok, "available": False})
    assert "sold this" in ec.buy_refusal(**{**ok, "sold_this_round": True})
    assert "60%" in ec.buy_refusal(**{**ok, "holding_percent": 60})
    assert "60%" in ec.buy_refusal(**{**ok, "holding_percent": 50, "certificate_percent": 20})
    assert ec.buy_refusal(**{**ok, "holding_percent": 60, "cell": Cell(7, 0)}) is None  # brown
    assert "limit" in ec.buy_refusal(**{**ok, "certificate_count": 11})
    assert ec.buy_refusal(**{**ok, "certificate_count": 11, "cell": Cell(4, 0)}) is None
    with pytest.raises(ValueError, match="certificate_percent"):
        ec.buy_refusal(**{**ok, "certificate_percent": 30})


def test_pay_dividend():
    # 3.3.4 / 7.4.3: 150 M = 15 per 10%; A 40% -> 60, B 20% -> 30, pool 10% -> treasury 15,
    # IPO 30% -> nothing (the bank keeps 45).
    p = ec.pay_dividend(150, {"A": 40, "B": 20}, pool_percent=10, ipo_percent=30)
    assert (p.per_share, p.to_holders, p.to_treasury, p.unpaid) == (15, {"A": 60, "B": 30}, 15, 45)
    odd = ec.pay_dividend(155, {"A": 100}, 0, 0)  # 15 per 10% and 5 left for the treasury
    assert odd.to_holders == {"A": 150} and odd.to_treasury == 5
    with pytest.raises(ValueError, match="100%"):
        ec.pay_dividend(100, {"A": 50}, 0, 0)
    with pytest.raises(ValueError, match="revenue"):
        ec.pay_dividend(-10, {"A": 100}, 0, 0)


def test_director_rules_336():
    seats = ("A", "B", "C", "D")
    assert ec.director_after({"A": 30, "B": 30}, seats, "A") == "A"  # a tie keeps
    assert ec.director_after({"A": 20, "B": 30}, seats, "A") == "B"
    # A sold down to 20: C and D hold 30 each; C sits first to A's left
    assert ec.director_after({"A": 20, "C": 30, "D": 30}, seats, "A") == "C"
    assert ec.director_after({"C": 20, "A": 30, "D": 30}, seats, "C") == "D"  # D before A
    assert ec.director_swap([10, 20, 10]) == (10, 10)  # "two ordinary shares"
    assert ec.director_swap([20, 10]) == (20,)
    with pytest.raises(ValueError, match="20%"):
        ec.director_swap([10])
    with pytest.raises(ValueError, match="seated"):
        ec.director_after({"Z": 10}, seats, "A")
    sale = ec.director_certificate_sale({"A": 20, "B": 20, "C": 20}, seats, "A", 73)
    assert sale == ec.DirectorSale("B", 20, 146)  # B first to A's left; 2 x 73
    with pytest.raises(ValueError, match="20%"):
        ec.director_certificate_sale({"A": 40, "B": 10}, seats, "A", 73)


def test_priority_after():
    assert ec.priority_after(("A", "B", "C"), "C") == "A"
    with pytest.raises(ValueError, match="seated"):
        ec.priority_after(("A", "B"), "Q")


# =============================================================================== operating
def test_train_rules():
    assert [op.train_limit(p) for p in ("2", "5", "8")] == [4, 3, 2]
    assert op.excess_trains(5, 3) == 2 and op.excess_trains(2, 3) == 0
    refuse = op.train_purchase_refusal
    assert refuse(source="bank", price=300, list_price=300, treasury=300) is None
    assert "card price" in refuse(source="bank", price=250, list_price=300, treasury=400)
    assert "treasury" in refuse(source="bank", price=300, list_price=300, treasury=100)
    assert refuse(source="bank", price=300, list_price=300, treasury=100, forced=True) is None
    assert "10" in refuse(source="company", price=5, list_price=300, treasury=100)  # 7.6
    assert refuse(source="company", price=10, list_price=300, treasury=100) is None
    assert "above" in refuse(source="company", price=150, list_price=300, treasury=100,
                             forced=True)  # fmt: skip
    with pytest.raises(ValueError, match="source"):
        refuse(source="pool", price=1, list_price=1, treasury=1)
    with pytest.raises(ValueError, match="phase"):
        op.train_limit("7")


def test_forced_train_funding_33511():
    # 3.3.5.1: a 450 M train, 100 M in the treasury, 30% of the HAV at 45 (8, 2) and a
    # director with 500 M.  Gap 350 needs all three HAV shares (3 x 45 = 135) sold at once;
    # 235 from the treasury, 215 from the director.  A 30% sale moves the HAV two fields
    # down: 45 (8, 2) has no field below but the blue 35 (9, 2), which the HAV may use.
    f = op.forced_train_funding(450, 100, 500, (10, 10, 10), Cell(8, 2))
    assert (f.hav_sold_percent, f.hav_proceeds) == (30, 135)
    assert (f.from_treasury, f.from_director, f.shortfall) == (235, 215, 0)
    assert f.hav_cell == Cell(9, 2)
    # the treasury alone covers it: no HAV sale
    g = op.forced_train_funding(100, 150, 0, (10,), Cell(8, 2))
    assert (g.hav_sold_percent, g.from_treasury, g.from_director) == (0, 100, 0)
    # the pool already holds 40% of the HAV: only one more 10% may go there
    h = op.forced_train_funding(450, 0, 100, (10, 10), Cell(8, 2), hav_pool_percent=40)
    assert (h.hav_sold_percent, h.hav_proceeds, h.from_director, h.shortfall) == (10, 45, 100, 305)
    with pytest.raises(ValueError, match="hav_cell"):
        op.forced_train_funding(450, 0, 0, (10,))
    s = op.forced_train_funding(100, 0, 0, (20,), hav_simplified=True)  # 2 x 30
    assert (s.hav_proceeds, s.shortfall) == (60, 40)


def test_predecessor_surrender_and_bankruptcy():
    assert op.predecessor_surrender_value("SE") == 2 * 86  # 3.3.5.1 step 5
    with pytest.raises(ValueError, match="successor"):
        op.predecessor_surrender_value("AKE")
    # 10.4: 35 M cash + 30% AKE at 100 (3 x 100) + 10% HAV at 30 -> 365 for the corporation
    b = op.bankruptcy_settlement(35, {"AKE": (Cell(2, 5), 30), "HAV": (ec.start_cell("HAV"), 10)})
    assert b.to_corporation == 35 + 300 + 30
    assert b.cells["AKE"] == Cell(4, 5)  # 30% sold: two fields down
    assert op.receivership_income(250, 100) == (100, 0, 150)
    assert op.receivership_income(50, 120) == (50, 70, 0)


def test_tile_lays_tokens_bonus():
    assert op.tile_lays("AKE", first_or=True) == 2 and op.tile_lays("AKE") == 1  # 3.3.3
    assert op.tile_lays("RE", use_marker=True) == 2 and op.tile_lays("GEE", use_marker=True) == 2
    assert op.tile_lays("HBE") == 1 and op.tile_lays("HAV") == 1
    with pytest.raises(ValueError, match="marker"):
        op.tile_lays("HBE", use_marker=True)
    with pytest.raises(ValueError, match="corporations"):
        op.tile_lays("KE", first_or=True)
    assert op.station_cost(20) == 60 and op.station_cost(20, home=True) == 0  # 7.3
    assert op.station_cost(30, replaces_minor=True) == 0
    assert op.exchange_token_refusal("5", replaces_minor=False) is not None
    assert op.exchange_token_refusal("5", replaces_minor=True) is None
    assert op.exchange_token_refusal("8", replaces_minor=False) is None
    assert op.tile_bonus("G17", True) == 60 and op.tile_bonus("G17", False) == 0  # 7.2.3
    assert op.tile_bonus("G15", True) == 0
    colours = [op.phase_colour(p) for p in ("2", "3", "5", "8")]
    assert colours == ["yellow", "green", "brown", "grey"]
    assert [op.operating_rounds(p) for p in ("2", "3", "5")] == [1, 2, 3]


# =============================================================================== game end
def test_game_end_9():
    assert ec.game_end_reason([Cell(0, 14)], 5000, "stock") == "top_right"
    assert ec.game_end_reason([Cell(0, 13)], 0, "operating") == "bank_broken_or"
    assert ec.game_end_reason([], -20, "stock") == "bank_broken_sr"
    assert ec.game_end_reason([Cell(1, 13)], 10, "operating") is None
    assert ec.game_end_timing("top_right") == "current_or"
    assert ec.game_end_timing("bank_broken_or") == "current_set"
    assert ec.game_end_timing("bank_broken_sr") == "one_more_set"
    with pytest.raises(ValueError, match="round_kind"):
        ec.game_end_reason([], 1, "merger")
    with pytest.raises(ValueError, match="reason"):
        ec.game_end_timing("bored")
    # cash + 30% AKE at 100 + 20% HAV at 30
    cells = {"AKE": Cell(2, 5), "HAV": ec.start_cell("HAV")}
    assert ec.player_value(120, {"AKE": 30, "HAV": 20}, cells) == 120 + 300 + 60
    with pytest.raises(ValueError, match="BHE"):
        ec.player_value(0, {"BHE": 10}, cells)


def test_options():
    assert ec.parse_options(["hav_simplified", "exchange_privates"]) == {
        "hav_simplified", "exchange_privates",
    }  # fmt: skip
    with pytest.raises(ValueError, match="nope"):
        ec.parse_options(["nope"])
    with pytest.raises(ValueError, match="list"):
        ec.parse_options("hav_simplified")


# =============================================================================== minors
def test_starting_round_singles_first_and_displaced():
    # 4 players: D alone chose KE (sold first); HBE contested by A, B, C: the chooser left of
    # the last buyer D is A; B and C take unselected companies in seating order.
    state = mi.resolve_starting_round(
        {"A": "HBE", "B": "HBE", "C": "HBE", "D": "KE"}, ("A", "B", "C", "D"), "D",
        pick=lambda p, opts: opts[-1],
    )  # fmt: skip
    assert state.purchases == (("D", "KE"), ("A", "HBE"), ("B", "SSE"), ("C", "GEE"))
    assert mi.first_stock_round_start(state) == ("D", False)  # left of C, the last buyer
    with pytest.raises(ValueError, match="choices"):
        mi.starting_round({"A": "HBE"}, ("A", "B", "C"), "A")
    with pytest.raises(ValueError, match="XX"):
        mi.starting_round({"A": "XX", "B": "KE", "C": "KE"}, ("A", "B", "C"), "A")
    with pytest.raises(ValueError, match="3-6"):
        mi.starting_round({"A": "KE", "B": "KE"}, ("A", "B"), "A")
    s = mi.starting_round({"A": "KE", "B": "KE", "C": "RE"}, ("A", "B", "C"), "A")
    with pytest.raises(ValueError, match="'C'"):
        mi.starting_round_buy(s, "A", "KE")  # C's single choice comes first
    with pytest.raises(ValueError, match="must buy"):
        mi.starting_round_buy(s, "C", "KE")
    with pytest.raises(ValueError, match="not over"):
        mi.first_stock_round_start(s)


def test_first_stock_round_offer_and_six_player_income():
    assert mi.first_stock_round_offer(["HBE", "RE"]) == "KE"  # 6.1 lowest unsold
    assert mi.first_stock_round_offer(ed.STARTING_PACKAGE) is None
    with pytest.raises(ValueError, match="ZZ"):
        mi.first_stock_round_offer(["ZZ"])
    assert mi.ake_director_income(6, 0) == 20 and mi.ake_director_income(6, 1) == 0  # 5.1
    assert mi.ake_director_income(5, 0) == 0


def test_minor_start_revenue_build_trains():
    s = mi.minor_start("RE")  # 3.1: price - 100 for the 2-train
    assert s.treasury == s.price - 100 and s.train == "2" and "2nd tile" in s.markers
    assert mi.minor_start("HBE", 250).treasury == 150
    with pytest.raises(ValueError, match="price"):
        mi.minor_start("HBE", 90)
    assert mi.minor_revenue(70) == (35, 35) and mi.minor_revenue(75) == (38, 37)  # 3.1.2
    assert mi.minor_build("RE", 3, 2, use_marker=True) == 1  # 3.1.1: two tokens
    assert mi.minor_build("KE", 1, 1) == 0
    with pytest.raises(ValueError, match="building tokens"):
        mi.minor_build("KE", 0, 1)
    with pytest.raises(ValueError, match="tiles"):
        mi.minor_build("KE", 3, 2)
    assert "5-train" in mi.minor_train_refusal("GEE", "5", 0, 450, 500)  # 3.1.3
    assert "own" in mi.minor_train_refusal("HBE", "3", 1, 200, 500)  # limit 1
    assert "private money" in mi.minor_train_refusal("RE", "3", 1, 200, 150)
    assert mi.minor_train_refusal("RE", "3", 1, 200, 200) is None
    with pytest.raises(ValueError, match="train"):
        mi.minor_train_refusal("RE", "7", 0, 1, 1)


def test_private_sale_window():
    assert mi.private_sale_window("2", False) is None
    assert mi.private_sale_window("3", False) == "voluntary"  # green phase on
    assert mi.private_sale_window("5", True) == "forced"  # first 5-train


def test_private_auction_3141():
    # minimum = the private's treasury (80); raises of 10; a pass is final; WHE (cap 70)
    # can never reach the minimum and is left out.
    a = mi.auction_start("KE", 80, [("AKE", 200), ("BHE", 120), ("WHE", 70)])
    assert a.active == ("AKE", "BHE") and a.turn == "AKE"
    assert mi.auction_min_bid(a) == 80
    with pytest.raises(ValueError, match="minimum"):
        mi.auction_bid(a, "AKE", 70)
    a = mi.auction_bid(a, "AKE", 80)
    assert a.turn == "BHE" and mi.auction_min_bid(a) == 90
    with pytest.raises(ValueError, match="steps of 10"):
        mi.auction_bid(a, "BHE", 95)
    with pytest.raises(ValueError, match="exceeds"):
        mi.auction_bid(a, "BHE", 130)
    with pytest.raises(ValueError, match="turn"):
        mi.auction_bid(a, "AKE", 90)
    a = mi.auction_bid(a, "BHE", 110)
    with pytest.raises(ValueError, match="not over"):
        mi.auction_result(a)
    a = mi.auction_pass(a, "AKE")
    assert mi.auction_result(a) == ("BHE", 110)
    # settlement: BHE pays 110 to the owner and takes the 80 and the private's train
    sale = mi.settle_private_sale(110, 300, 80, 2, 1, 2, 1)
    assert sale == mi.PrivateSale(300 - 110 + 80, 110, 1, 1)
    with pytest.raises(ValueError, match="HAV"):
        mi.settle_private_sale(110, 100, 80, 0, 1, 2, 0)
    # nobody bids: liquidation (3.1.4.2) - 40 M charge from a 25 M treasury: owner pays 15
    b = mi.auction_pass(mi.auction_start("HBE", 25, [("AKE", 500)]), "AKE")
    assert mi.auction_result(b) is None
    liq = mi.liquidate_private(25, trains=1, building_tokens=2)
    assert (liq.owner_receives, liq.to_bank, liq.trains_to_pool) == (-15, 40, 1)
    assert mi.liquidate_private(100).owner_receives == 60
    assert mi.auction_cap(150, 20, 45) == 240  # money + two HAV shares at 45
    with pytest.raises(ValueError, match="private railway"):
        mi.auction_start("GEE", 10, [])  # predecessors are not auctioned (3.2)


def test_transformation_at_stock_round_end_32a():
    assert not mi.transformation_due(40) and mi.transformation_due(50)
    # GEE -> HMBG (20 + 20 + 6x10): A owns the GEE; B bought the 20% and a 10% (30% > 20%)
    t = mi.transform_predecessor(
        "GEE", owner="A", treasury=90, percents={"B": 30}, seats=("A", "B", "C"),
        ipo=(10,) * 5, forced=False, markers=("2nd tile",),
    )  # fmt: skip
    assert t.successor == "HMBG" and t.director == "B"  # step 7
    assert t.treasury == 90 + 8 * 80 and t.cell == ec.start_cell("HMBG")
    assert t.to_pool == () and t.operates_this_round and t.markers_lost == ("2nd tile",)
    with pytest.raises(ValueError, match="100%"):
        mi.transform_predecessor("GEE", owner="A", treasury=0, percents={}, seats=("A", "B"),
                                 ipo=(10,) * 5, forced=False)  # fmt: skip
    with pytest.raises(ValueError, match="marker"):
        mi.transform_predecessor("SSE", owner="A", treasury=0, percents={}, seats=("A", "B"),
                                 ipo=(10,) * 8, forced=False, markers=("2nd tile",))  # fmt: skip
    assert mi.reduce_ipo_to_half((20, 10, 10, 10, 10)) == ((20, 10, 10, 10), (10,))
    assert mi.reduce_ipo_to_half((20, 20, 10, 10, 10, 10)) == ((20, 10, 10, 10), (20, 10))
    with pytest.raises(ValueError, match="50%"):
        mi.reduce_ipo_to_half((20, 20, 20))


def test_exchange_of_privates_111():
    box = mi.exchange_box(["exchange_privates"])
    assert box["SE"] == (20, 10) and box["HMBG"] == (20, 10) and box["AKE"] == (10,)
    assert "HAV" not in box and mi.exchange_box() == {"HMBG": (20,), "SE": (20,)}
    kw = dict(box=box, started={"AKE", "BHE"}, corporation_cash=200, private_cash=60,
              corporation_trains=2, private_trains=1, train_limit=2, building_tokens=1)  # fmt: skip
    ex = mi.exchange_private("KE", "AKE", connected=True, **kw)
    assert ex.corporation_cash == 260 and ex.trains_to_pool == 1 and "AKE" not in ex.box
    with pytest.raises(ValueError, match="connection"):
        mi.exchange_private("KE", "BHE", connected=False, **kw)
    # forced with no connection anywhere: any certificate (11.1.2)
    forced = mi.exchange_private("KE", "BHE", connected=False, forced=True,
                                 any_connected=False, **kw)  # fmt: skip
    assert "BHE" not in forced.box and forced.corporation_cash == 260
    with pytest.raises(ValueError, match="connection"):  # another corporation is reachable
        mi.exchange_private("KE", "BHE", connected=False, forced=True, any_connected=True, **kw)
    with pytest.raises(ValueError, match="not started"):
        mi.exchange_private("KE", "LBE", connected=True, **kw)
    with pytest.raises(ValueError, match="no 10%"):
        mi.exchange_private("KE", "AKE", connected=True, **{**kw, "box": ex.box})
    pool, ipo = mi.leftover_exchange_certificates(ex.box, started={"BHE"})
    assert pool == {"BHE": 10} and ipo["SE"] == 10 and "AKE" not in ipo  # 11.1.3


# =============================================================================== HAV
def test_hav_income_trading_and_tokens():
    assert hv.hav_income(7) == 70  # 3.4.2.2
    assert hv.hav_ipo_purchase(20, 5) == (3, 2)  # 3.4: one token per 10%
    with pytest.raises(ValueError, match="box"):
        hv.hav_ipo_purchase(10, 0)
    refuse = hv.hav_buy_refusal
    assert "brown" in refuse(buyer="player", phase="4", corporations_started=5, from_ipo=False)
    assert refuse(buyer="player", phase="5", corporations_started=5, from_ipo=False) is None
    assert "three" in refuse(buyer="corporation", phase="2", corporations_started=2,
                             from_ipo=False)  # fmt: skip
    assert "one" in refuse(buyer="corporation", phase="2", corporations_started=3,
                           from_ipo=False, bought_this_turn=True)  # fmt: skip
    assert "box" in refuse(buyer="corporation", phase="2", corporations_started=3,
                           from_ipo=True, box_tokens=0)  # fmt: skip
    assert refuse(buyer="corporation", phase="2", corporations_started=3, from_ipo=True,
                  box_tokens=1) is None  # fmt: skip
    with pytest.raises(ValueError, match="buyer"):
        refuse(buyer="bank", phase="2", corporations_started=3, from_ipo=False)
    assert hv.hav_sell_refusal(percent=20, pool_percent=30) is None
    assert "50%" in hv.hav_sell_refusal(percent=30, pool_percent=30)
    assert hv.hav_sale(Cell(8, 2), 20) == (90, Cell(9, 2))  # 2 x 45; one field down
    assert hv.hav_build(4, hv.HavBuild("L10", "green", 2)) == 2
    with pytest.raises(ValueError, match="tokens"):
        hv.hav_build(1, hv.HavBuild("L10", "green", 2))
    assert hv.hav_must_build(hv.hav_build_options(2, "3", "yellow", "yellow"))
    assert hv.hav_build_options(1, "3", "yellow", "yellow") == ()  # not enough tokens
    assert hv.hav_grey_tile("5028") == (True, False) and hv.hav_grey_tile("5029") == (False, True)
    with pytest.raises(ValueError, match="5028"):
        hv.hav_grey_tile("63")


def test_hav_dividend_edges():
    d = hv.hav_dividend(20, {"AKE": 50}, 0, 50)  # 20 / 5 = 4 -> 0 after rounding down to 5
    assert not d.paid and d.retained == 20
    assert hv.hav_after_operating(ec.start_cell("HAV"), False) == Cell(9, 0)  # 30 -> 25
    with pytest.raises(ValueError, match="purchased"):
        hv.hav_dividend(10, {}, 0, 100)
    with pytest.raises(ValueError, match="100%"):
        hv.hav_dividend(10, {"AKE": 20}, 0, 50)


# =============================================================================== properties
_split = st.lists(st.sampled_from([0, 10, 20, 30]), min_size=1, max_size=5)


@FAST
@given(st.integers(0, 2000), _split, st.sampled_from([0, 10, 20, 30, 40, 50]))
def test_prop_payout_sums_to_revenue(revenue, parts, pool):
    ipo = 100 - pool - sum(parts)
    if ipo < 0:
        return
    holders = {f"P{i}": p for i, p in enumerate(parts)}
    p = ec.pay_dividend(revenue, holders, pool, ipo)
    assert sum(p.to_holders.values()) + p.to_treasury + p.unpaid == revenue


@FAST
@given(st.integers(0, 3000), _split, st.sampled_from([0, 10, 20, 30, 40, 50]))
def test_prop_hav_dividend_conserves_and_is_maximal(treasury, parts, pool):
    ipo = 100 - pool - sum(parts)
    if ipo < 0 or ipo == 100:
        return
    d = hv.hav_dividend(treasury, {f"C{i}": p for i, p in enumerate(parts)}, pool, ipo)
    tenths = (100 - ipo) // 10
    assert sum(d.to_holders.values()) + d.to_bank + d.retained == treasury
    assert d.per_share % 5 == 0 and d.retained >= 0
    assert (d.per_share + 5) * tenths > treasury  # rounded *down* to 5, not further


_cells = st.sampled_from([Cell(r, c) for r, row in enumerate(ed.MARKET) for c in range(len(row))])


@FAST
@given(_cells, st.lists(st.sampled_from(["div", "hold", "sell10", "sell30", "full"]), max_size=30))
def test_prop_market_moves_stay_legal_and_monotone(cell, moves):
    hav = ec.zone(cell) == "blue"
    for m in moves:
        before = ec.price(cell)
        if m == "div":
            cell = ec.after_dividend(cell, hav)
            assert ec.price(cell) >= before
        elif m == "full":
            cell = ec.after_stock_round(cell, 100, hav)
            assert ec.price(cell) >= before
        elif m == "hold":
            cell = ec.after_withhold(cell, hav)
            assert ec.price(cell) <= before
        else:
            cell = ec.after_sale(cell, 10 if m == "sell10" else 30, hav)
            assert ec.price(cell) <= before
        if not hav:
            assert ec.zone(cell) != "blue"


@FAST
@given(
    st.integers(0, 150),
    st.lists(st.integers(0, 400), min_size=1, max_size=4),
    st.lists(st.tuples(st.booleans(), st.integers(0, 5)), max_size=40),
)
def test_prop_auction_money_conserved(minimum, caps, script):
    names = ["AKE", "BHE", "LBE", "WHE"][: len(caps)]
    a = mi.auction_start("RE", minimum, list(zip(names, caps, strict=True)))
    for bid, steps in script:
        if a.turn is None:
            break
        amount = mi.auction_min_bid(a) + 10 * steps
        cap = a.caps[a.order.index(a.turn)]
        if bid and amount <= cap:
            a = mi.auction_bid(a, a.turn, amount)
        else:
            a = mi.auction_pass(a, a.turn)
    while a.turn is not None:
        a = mi.auction_pass(a, a.turn)
    result = mi.auction_result(a)
    if result is None:
        return
    winner, price = result
    cap = caps[names.index(winner)]
    assert minimum <= price <= cap and (price - minimum) % 10 == 0
    corp_cash, private_cash, owner = cap, minimum, 0
    s = mi.settle_private_sale(price, corp_cash, private_cash, 1, 1, 2, 0)
    assert s.corporation_cash + s.owner_receives + owner == corp_cash + private_cash


@FAST
@given(st.integers(0, 200))
def test_prop_liquidation_conserves(cash):
    liq = mi.liquidate_private(cash)
    assert liq.owner_receives + liq.to_bank == cash


@FAST
@given(st.integers(3, 6).flatmap(
    lambda n: st.lists(st.sampled_from(ed.STARTING_PACKAGE), min_size=n, max_size=n)))
def test_prop_starting_round_sells_each_company_once(picks):
    seats = tuple("ABCDEF"[: len(picks)])
    choices = dict(zip(seats, picks, strict=True))
    state = mi.resolve_starting_round(choices, seats, banker=seats[-1])
    bought = [c for _, c in state.purchases if c]
    players = [p for p, _ in state.purchases]
    assert len(set(players)) == len(players) == len(seats)  # each player once
    assert len(set(bought)) == len(bought) == min(5, len(seats))
    for p, c in state.purchases:  # a single chooser always gets their company
        if picks.count(choices[p]) == 1:
            assert c == choices[p]


@FAST
@given(
    st.integers(1, 1000), st.integers(0, 600), st.integers(0, 600),
    st.lists(st.sampled_from([10, 20]), max_size=5), st.sampled_from([0, 10, 20, 30, 40, 50]),
)
def test_prop_forced_funding_adds_up(price, treasury, director, certs, pool):
    f = op.forced_train_funding(price, treasury, director, certs, Cell(8, 2), pool)
    assert f.from_treasury + f.from_director + f.shortfall == price
    assert f.from_treasury <= treasury + f.hav_proceeds
    assert f.from_director <= director
    assert pool + f.hav_sold_percent <= 50
    if f.shortfall:
        assert f.from_director == director


@FAST
@given(st.dictionaries(st.sampled_from("ABCDE"), st.sampled_from([0, 10, 20, 30, 40, 50, 60]),
                       min_size=1), st.sampled_from("ABCDE"))  # fmt: skip
def test_prop_director_holds_the_most(percents, director):
    new = ec.director_after(percents, tuple("ABCDE"), director)
    assert percents.get(new, 0) == max(max(percents.values()), percents.get(director, 0))
    if percents.get(director, 0) >= max(percents.values()):
        assert new == director
