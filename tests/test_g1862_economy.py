"""1862 USA/Canada (Ohley): the economic rules (engine/games/g1862/economy*.py).

Section names (§...) are those of shared/seeds/1862-usa-canada-ohley-rules.txt.  The
rulebook's own worked examples are reproduced exactly, with the arithmetic in a comment;
property tests check the invariants (dividends add up, redemption conserves money, market
moves stay on the board and go the right way, auctions end with the highest bid).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.g1862 import data
from engine.games.g1862 import economy as e
from engine.games.g1862 import economy_data as ed
from engine.games.g1862 import economy_initial as ei

IPO, POOL, CO = e.IPO, e.POOL, e.COMPANY


def pct(holdings):
    """Redemption output (Cert tuples) -> plain percent lists, for distribute_dividend."""
    return {h: [c.percent for c in certs] for h, certs in holdings.items()}


# ============================================================================ data
# §Share Price Index (companion table), each row exactly as the seed lists it.
RULEBOOK_ROWS = [
    [85, 92, 100, 110, 120, 132, 146, 162, 180, 200, 225, 255, 290, 330, 375, 425, 480, 540],
    [70, 80, 85, 92, 100, 110, 120, 132, 146, 162, 180, 200, 225, 255, 290, 330, 380, 440, 510],
    [55, 65, 75, 80, 85, 92, 100, 110, 120, 132, 146, 162, 180, 200, 225, 255, 290],
    [40, 50, 60, 70, 75, 80, 85, 92, 100, 110, 120, 132, 146, 162, 180],
    [35, 45, 55, 65, 70, 75, 80, 85, 92, 100, 110, 120],
    [30, 40, 50, 60, 65, 70, 75, 80, 85, 92],
    [25, 35, 45, 55, 62, 68, 72, 75],
    [20, 30, 40, 50, 60, 65, 70],
    [15, 25, 35, 45, 55, 62],
    [10, 20, 30, 40, 50],
    ["CL", 10, 25, 35],
]


def test_market_rows_are_the_rulebooks():
    for r, row in enumerate(e.MARKET.cells):
        listed = [("CL" if sq.close else sq.price) for sq in row if sq is not None]
        assert listed == RULEBOOK_ROWS[r], f"row {r + 1}"
    # "the first three values ... are preceded by three blank squares"
    assert e.MARKET.cells[0][:3] == [None, None, None]
    # 'CL' is the bottommost left-hand square
    assert e.is_closed((10, 0)) and not e.is_closed((10, 1))


def test_par_squares_one_column_and_columns_rise_upwards():
    # §Buying Shares: 70 in the sixth row ... 100 in the first row
    expected = {100: (0, 5), 92: (1, 5), 85: (2, 5), 80: (3, 5), 75: (4, 5), 70: (5, 5)}
    assert {par: e.par_position(par) for par in ed.PAR_ROWS} == expected
    pars = [sq for row in e.MARKET.cells for sq in row if sq is not None and sq.par]
    assert sorted(sq.price for sq in pars) == [70, 75, 80, 85, 92, 100]
    # every square with a square above: the one above is the next higher price in its row
    for row in e.MARKET.cells[1:]:
        for sq in row:
            if sq is None or sq.close or e.MARKET.cell(sq.row - 1, sq.col) is None:
                continue
            above = e.price_at((sq.row - 1, sq.col))
            assert above > sq.price, (sq, above)


def test_game_end_squares_are_the_prices_above_379():
    ends = sorted(sq.price for row in e.MARKET.cells for sq in row
                  if sq is not None and "endgame" in sq.types)  # fmt: skip
    assert ends == [380, 425, 440, 480, 510, 540]
    assert not e.ends_game_price(375) and not e.ends_game_price(379) and e.ends_game_price(380)


def test_starting_capital_and_bank():
    # §Player Starting Capital: 4 players 600$, 5: 500$, 6: 440$, 7: 400$
    assert ed.STARTING_CAPITAL == {4: 600, 5: 500, 6: 440, 7: 400}
    # "paper money ... for a total value of 22.000$"; 4 players: 22000 - 4 * 600 = 19600 left
    assert ed.BANK_TOTAL - 4 * ed.STARTING_CAPITAL[4] == 19600
    assert data.BANK_CASH == ed.BANK_TOTAL


def test_certificate_sets_match_the_components():
    # §General: 3 companies x (30 % P, 7 x 10 %, 10 % P, 8 x 5 %, 50 %) = 3 x 18 = 54 certificates
    # and 10 companies x (20 % P, 8 x 10 %, 10 % P, 8 x 5 %, 50 %) = 10 x 19 = 190
    after = len(ed.SHARES_AFTER_REDEMPTION) + 1  # + the company's 50 %
    assert 3 * (len(ed.SHARES_BEFORE_REDEMPTION[1]) + after) == 54
    assert 10 * (len(ed.SHARES_BEFORE_REDEMPTION[2]) + after) == 190
    for group, shares in ed.SHARES_BEFORE_REDEMPTION.items():
        assert sum(shares) == 100 and shares[0] == ed.PRESIDENT_PERCENT[group]
        assert ed.PRESIDENT_PERCENT[group] == (30 if group == 1 else 20)
    assert sum(ed.SHARES_AFTER_REDEMPTION) + ed.COMPANY_REDEEMED_PERCENT == 100
    # data.py's companies use the same share lists
    for corp in data.CORPORATIONS:
        assert tuple(corp["shares"]) == ed.SHARES_BEFORE_REDEMPTION[corp["group"]]


def test_private_table():
    # §Private Companies / General, numbers 1-6 as printed (7, 8 are cut off in the seed)
    printed = [("BOM", 20, 5), ("ERIE", 40, 10), ("BO", 70, 15), ("RMC", 100, 15),
               ("PSC", 150, 25), ("FNY", 180, 30)]  # fmt: skip
    got = [(c["sym"], c["value"], c["revenue"]) for c in data.COMPANIES[:6]]
    assert got == printed
    assert ei.private_order() == ("BOM", "ERIE", "BO", "RMC", "PSC", "FNY", "SOC", "NYSH")


def test_train_manifest():
    # §General: 42 train cards
    assert sum(t["count"] for t in ed.TRAINS.values()) == ed.TOTAL_TRAIN_CARDS == 42
    assert set(ed.TRAINS) == set(ed.TRAIN_SERIES) | set(ed.E_TRAINS)
    for name in ("2", "3", "4", "5", "6"):  # prices shared with data.TRAINS (18xx.games)
        printed = next(t["price"] for t in data.TRAINS if t["name"] == name)
        assert ed.TRAINS[name]["price"] == printed
    assert list(ed.PHASE_ORDER) == [p["name"] for p in data.PHASES]


# ============================================================================ market moves
def test_dividend_moves_right_withhold_left():
    # §Share Price Movement: paid -> one square right; not paid -> one square left
    assert e.price_at(e.move_after_operating((0, 5), 120, True)) == 110
    assert e.price_at(e.move_after_operating((0, 5), 120, False)) == 92
    assert e.move_after_operating((0, 5), 0, False) == (0, 4)  # no income: fails to pay


def test_dividend_at_row_end_moves_up():
    # row 3 ends with 290 at column 17; "when this is not possible, it is moved up one row"
    assert e.price_at((2, 17)) == 290
    assert e.move_after_operating((2, 17), 300, True) == (1, 17)  # 330 above it
    assert e.price_at((1, 17)) == 330
    # the top row's last square (540) cannot go further
    assert e.move_after_operating((0, 20), 300, True) == (0, 20)


def test_withhold_at_row_start_moves_down_and_closes():
    # row 1 starts with 85 (column 3): left impossible -> down one row, to 80
    assert e.price_at(e.move_after_operating((0, 3), 50, False)) == 80
    # 10$ at the start of row 10 -> down onto 'CL': the company is out of the game
    pos = e.move_after_operating((9, 0), 0, False)
    assert pos == (10, 0) and e.is_closed(pos)
    # 10$ in the bottom row -> left onto 'CL'
    assert e.is_closed(e.move_after_operating((10, 1), 0, False))


def test_sale_and_sold_out_moves():
    # §Share Price Changes: one row down; bottom row: no adjustment
    assert e.price_at(e.move_after_sale((0, 5))) == 92
    assert e.move_after_sale((10, 3)) == (10, 3)
    # no square below 510 (row 3 is shorter): the marker stays
    assert e.move_after_sale((1, 20)) == (1, 20)
    # §Share Value Changes: sold out -> one row up; topmost row: no adjustment
    assert e.price_at(e.move_after_sold_out((1, 5))) == 100
    assert e.move_after_sold_out((0, 7)) == (0, 7)
    assert e.move_after_sold_out((3, 0)) == (3, 0)  # 40: no square above it


def test_paying_zero_is_refused():
    with pytest.raises(ValueError, match="revenue 0"):
        e.move_after_operating((0, 5), 0, True)
    with pytest.raises(ValueError, match="no market square"):
        e.move_after_sale((0, 0))
    with pytest.raises(ValueError, match="pays"):
        e.move_after_operating((0, 5), 10, 1)


def test_operating_order():
    # §Sequence within Operating Round: highest price first; same square: uppermost first;
    # same price on different squares: furthest right first
    markers = {
        "NYC": ((0, 5), 2),  # 100, placed under NYH
        "NYH": ((0, 5), 1),  # 100, on top
        "CP": ((1, 6), 7),  # 100 one row lower but further right
        "UP": ((0, 6), 9),  # 110
        "SP": ((2, 5), 0),  # 85
    }
    assert e.operating_order(markers) == ["UP", "CP", "NYH", "NYC", "SP"]
    with pytest.raises(ValueError, match="marker of 'X'"):
        e.operating_order({"X": (0, 5)})


OPEN_SQUARES = [(sq.row, sq.col) for row in e.MARKET.cells for sq in row
                if sq is not None and not sq.close]  # fmt: skip


@pytest.mark.parametrize("pos", OPEN_SQUARES)
def test_moves_stay_on_the_board_and_go_the_right_way(pos):
    # every open square: moves land on squares and never go the wrong way
    price = e.price_at(pos)
    up = e.move_after_operating(pos, 10, True)
    down = e.move_after_operating(pos, 10, False)
    sold = e.move_after_sale(pos)
    for new in (up, down, sold, e.move_after_sold_out(pos)):
        assert e.MARKET.cell(*new) is not None
    assert e.price_at(up) >= price and e.price_at(e.move_after_sold_out(pos)) >= price
    assert e.price_at(down) <= price and e.price_at(sold) <= price
    assert up != pos or pos == (0, 20)  # only the very top-right square cannot rise


# ============================================================================ shares
def test_certificate_prices():
    # §Buying Shares: 30 %/20 % cost 3/2 times; a 5 % share half, rounded up
    assert e.certificate_price(100, 30) == 300
    assert e.certificate_price(92, 20) == 184
    assert e.certificate_price(85, 5) == 43  # 85 / 2 = 42.5 -> 43
    assert e.certificate_price(80, 5) == 40
    with pytest.raises(ValueError, match="percent"):
        e.certificate_price(100, 7)
    with pytest.raises(ValueError, match="price"):
        e.certificate_price(0, 10)


def test_sale_price_before_or_after_the_move():
    # §Selling Shares: floated -> old (higher) price; not floated -> new (lower) price
    s = e.sale((0, 5), [10, 10], floated=True)
    assert (s.price, s.proceeds, s.position) == (100, 200, (1, 5))  # 2 x 100, marker to 92
    s = e.sale((0, 5), [10, 10], floated=False)
    assert (s.price, s.proceeds, s.position) == (92, 184, (1, 5))  # 2 x 92
    # two 5 % shares at 85: 43 + 43 = 86 (each rounded up)
    assert e.sale((2, 5), [5, 5], floated=True).proceeds == 86
    with pytest.raises(ValueError, match="20 % certificate"):
        e.sale((0, 5), [20], floated=True)
    with pytest.raises(ValueError, match="non-empty"):
        e.sale((0, 5), [], floated=True)


def test_sale_refusals():
    ok = dict(initial_round=False, parred=True, pool_certificates=0, selling=1)
    assert e.sale_refusal(**ok) is None
    assert "initial stock round" in e.sale_refusal(**{**ok, "initial_round": True})
    assert "par value" in e.sale_refusal(**{**ok, "parred": False})
    assert "president" in e.sale_refusal(**ok, president_share=True)
    # 5 shares already in the bankpool: no sale; 3 there and 2 offered: fine, 3 offered: not
    assert "at most 5" in e.sale_refusal(**{**ok, "pool_certificates": 5})
    assert e.sale_refusal(**{**ok, "pool_certificates": 3, "selling": 2}) is None
    assert e.sale_refusal(**{**ok, "pool_certificates": 3, "selling": 3}) is not None
    assert "forced" in e.sale_refusal(**ok, forced=True, changes_presidency=True)
    assert e.sale_refusal(**ok, forced=False, changes_presidency=True) is None
    with pytest.raises(ValueError, match="selling"):
        e.sale_refusal(**{**ok, "selling": 0})


def test_holding_limit():
    # §Certificate Limit: more than 4 players 60 %; fewer than 5: 70 %
    assert [e.holding_limit(n) for n in (7, 6, 5, 4, 3)] == [60, 60, 60, 70, 70]


def test_certificate_limit_table_and_bankruptcy_example():
    assert e.certificate_limit(4, 13) == 22 and e.certificate_limit(7, 13) == 13
    assert e.certificate_limit(3, 12) == 26 and e.certificate_limit(6, 11) == 12
    # §Bankruptcy example: 5 players, player A presiding over 3 companies goes bankrupt:
    # the limit falls from 18 (5 players, 13 companies) to 16 (4 players, 13 - 3 = 10 companies)
    assert e.certificate_limit(5, 13) == 18
    assert e.certificate_limit(5 - 1, 13 - 3) == 16
    # below the table: the 10-company row is held, strict refuses
    assert e.certificate_limit(4, 7) == e.certificate_limit(4, 10) == 16
    with pytest.raises(ValueError, match="no row for 9 companies"):
        e.certificate_limit(4, 9, strict=True)
    with pytest.raises(ValueError, match="3 players with 13 companies"):
        e.certificate_limit(3, 13)
    with pytest.raises(ValueError, match="companies"):
        e.certificate_limit(4, 14)


def test_certificate_count_grows_with_redemption():
    # A holds 30 % P + 10 % (2 certificates) and 2 privates: 4; after redemption
    # 10 % P + 5 % + 5 % (3 certificates): 5 - the count can exceed the limit this way
    assert e.certificate_count({"XY": [30, 10]}, privates=2) == 4
    assert e.certificate_count({"XY": [10, 5, 5]}, privates=2) == 5
    with pytest.raises(ValueError, match="XY: bad certificate"):
        e.certificate_count({"XY": [15]}, privates=0)


def test_transfer_of_presidency():
    seats = ["A", "B", "C", "D"]
    # equal share: no transfer
    assert e.president_after({"A": 30, "B": 30}, seats, "A") == "A"
    assert e.president_after({"A": 20, "B": 30}, seats, "A") == "B"
    # C and B both 40 % over A's 30 %, outgoing president D: first to D's left is A, then B
    assert e.president_after({"A": 30, "B": 40, "C": 40, "D": 20}, seats, "D") == "B"
    assert e.president_after({"A": 30, "B": 40, "C": 40, "D": 20}, seats, "B") == "B"
    with pytest.raises(ValueError, match="holder 'E'"):
        e.president_after({"E": 10}, seats, "A")
    # voluntary: only if another player holds at least the president's certificate's size
    assert e.may_give_up_presidency({"A": 40, "B": 20}, "A", 20)
    assert not e.may_give_up_presidency({"A": 40, "B": 20}, "A", 30)
    assert e.may_give_up_presidency({"A": 20, "B": 10}, "A", 10)  # after redemption


def test_float_and_capital():
    # §Starting a Public Company: at least 60 % sold; the bank pays 10 x par
    assert e.is_floated(40) and not e.is_floated(50)
    # NYH: the NYSH owner got the 30 % president's share; 3 more 10 % shares float it
    assert not e.is_floated(100 - 30 - 20) and e.is_floated(100 - 30 - 30)
    assert e.float_capital(100) == 1000 and e.float_capital(70) == 700
    with pytest.raises(ValueError, match="par value 90"):
        e.float_capital(90)
    with pytest.raises(ValueError, match="ipo_percent"):
        e.is_floated(110)


# ============================================================================ dividends
def test_dividend_example_150_with_redeemed_share():
    # §Income Reckoning and Payment: "Of a dividend of 150$, each 5% share receives 8$,
    # the company's redeemed 50% share gets the remaining 70$."
    # 5 % of 150 = 7.5 -> 8; players' half = ten 5 % units = 80; company 150 - 80 = 70
    holdings = {"A": [10, 5, 5], "B": [5, 5], "C": [5], IPO: [5], POOL: [5, 5], CO: [50]}
    p = e.distribute_dividend(150, holdings)
    assert p.per_unit == 8 and p.unit == 5
    assert p.amounts == {"A": 32, "B": 16, "C": 8, IPO: 8, POOL: 16, CO: 70}
    assert sum(p.amounts.values()) == 150
    # the bank keeps the initial offering's and the pool's 8 + 16; it pays 150 - 24 = 126
    assert p.bank_pays == 126


def test_dividend_before_redemption():
    # 120$ over 10 % shares: 12 per 10 %; A 30 % P + 10 % = 48, B 20 %, C 10 %, IPO 10 %, pool 20 %
    holdings = {"A": [30, 10], "B": [10, 10], "C": [10], IPO: [10], POOL: [10, 10]}
    p = e.distribute_dividend(120, holdings)
    assert p.amounts == {"A": 48, "B": 24, "C": 12, IPO: 12, POOL: 24}
    assert p.bank_pays == 48 + 24 + 12


def test_dividend_refusals():
    good = {"A": [30, 10, 10, 10], "B": [10, 10, 10, 10]}
    with pytest.raises(ValueError, match="multiple of 10"):
        e.distribute_dividend(155, good)
    with pytest.raises(ValueError, match="90 %"):
        e.distribute_dividend(100, {"A": [30, 10, 10, 10], "B": [10, 10, 10]})
    with pytest.raises(ValueError, match="president's share, found 2"):
        e.distribute_dividend(100, {"A": [30, 20, 10, 10], "B": [10, 10, 10]})
    with pytest.raises(ValueError, match="company's own holding"):
        e.distribute_dividend(100, {"A": [10, 5, 5, 5, 5, 5, 5, 5, 5], CO: [40, 10]})
    with pytest.raises(ValueError, match="'A': a 30 % certificate cannot exist after"):
        e.distribute_dividend(100, {"A": [30, 10, 10], CO: [50]})


HOLDERS = ["A", "B", "C", IPO, POOL]
#: who gets each of up to 9 certificates
OWNERS = st.lists(st.sampled_from(HOLDERS), min_size=9, max_size=9)


def _split(owners, certs):
    """Deal ``certs`` (percents) to ``owners`` (one holder per certificate)."""
    out: dict = {}
    for holder, c in zip(owners, certs, strict=False):
        out.setdefault(holder, []).append(c)
    return out


@settings(max_examples=300)
@given(OWNERS, st.integers(0, 200), st.booleans(), st.booleans())
def test_dividend_shares_add_up(owners, tens, redeemed, group1):
    revenue = 10 * tens
    if redeemed:
        holdings = _split(owners, ed.SHARES_AFTER_REDEMPTION)
        holdings[CO] = [50]
    else:
        holdings = _split(owners, ed.SHARES_BEFORE_REDEMPTION[1 if group1 else 2])
    p = e.distribute_dividend(revenue, holdings)
    assert sum(p.amounts.values()) == revenue
    for h, certs in holdings.items():
        if h == CO:
            assert 0 <= p.amounts[CO] <= revenue * 50 // 100  # rounding favours the players
        else:
            assert p.amounts[h] * 100 >= revenue * sum(certs)  # at least the exact share


# ============================================================================ redemption
def test_redemption_example_500_and_900_debt():
    # §Share Redemption / Example: green phase, price 100$.
    holdings = {"A": [30, 10], "B": [10, 10], "C": [10], IPO: [10], POOL: [10, 10]}
    r = e.redeem(100, holdings, "green", use_debt=True)
    # A: 15 % + 5 % worth = 150 + 50 = 200; B: 2 x 50 = 100; C: 50; IPO: 50; pool: 2 x 50 = 100
    assert r.payments == {"A": 200, "B": 100, "C": 50, IPO: 50, POOL: 100}
    # "The company needs 500$ to buy back its shares."
    assert r.cost == 500
    # "debt certificates of a total value of 900$ with a payment of 540$" (9 x 60 = 540 >= 500;
    # 8 x 60 = 480 would not do); "the remaining 40$ are added to the company's treasury"
    assert (r.debt, r.debt_payment, r.treasury_change) == (900, 540, 40)
    # After: A 10 % P + 2 x 5 %; B 2 x 5 %; C 5 %; IPO 5 %; pool 2 x 5 %; company 50 %
    assert r.holdings == {
        "A": (e.Cert(10, True), e.Cert(5), e.Cert(5)),
        "B": (e.Cert(5), e.Cert(5)),
        "C": (e.Cert(5),),
        IPO: (e.Cert(5),),
        POOL: (e.Cert(5), e.Cert(5)),
        CO: (e.Cert(50),),
    }
    # A: 20 %, B: 10 %, C: 5 %, IPO 5 %, pool 10 %, company 50 %
    assert {h: sum(c.percent for c in v) for h, v in r.holdings.items()} == {
        "A": 20, "B": 10, "C": 5, IPO: 5, POOL: 10, CO: 50
    }  # fmt: skip
    # the same company then pays 150$: the example of §Income Reckoning (8$ per 5 %, 70$)
    assert e.distribute_dividend(150, pct(r.holdings)).amounts[CO] == 70


def test_debt_certificates():
    # §Share Redemption: per 100$ debt 60$ (green), 80$ (brown), 90$ (gray)
    assert e.debt_for(500, "green") == (900, 540)
    assert e.debt_for(480, "green") == (800, 480)  # exact payment available
    assert e.debt_for(500, "brown") == (700, 560)  # 7 x 80; 6 x 80 = 480 is short
    assert e.debt_for(500, "gray") == (600, 540)  # 6 x 90; 5 x 90 = 450 is short
    assert e.debt_for(0, "gray") == (0, 0)
    with pytest.raises(ValueError, match="yellow"):
        e.debt_for(100, "yellow")


def test_redemption_from_treasury_and_group2_odd_price():
    # group 2 at 85$: the 20 % president gets 10 %'s worth = 85; each 10 % gets 5 %'s = 43
    holdings = {"A": [20, 10], "B": [10, 10, 10], IPO: [10, 10], POOL: [10, 10]}
    r = e.redeem(85, holdings, "brown", use_debt=False, treasury=500)
    assert r.payments == {"A": 85 + 43, "B": 3 * 43, IPO: 2 * 43, POOL: 2 * 43}
    assert r.cost == 85 + 8 * 43 == 429
    assert (r.debt, r.debt_payment, r.treasury_change) == (0, 0, -429)
    assert r.holdings["A"] == (e.Cert(10, True), e.Cert(5))
    with pytest.raises(ValueError, match="treasury 400 cannot pay"):
        e.redeem(85, holdings, "brown", use_debt=False, treasury=400)
    with pytest.raises(ValueError, match="not possible in the 'yellow' phase"):
        e.redeem(85, holdings, "yellow", use_debt=True)
    redeemed = {"A": [10, 5, 5, 5, 5, 5, 5, 5, 5], CO: [50]}
    with pytest.raises(ValueError, match="already redeemed"):
        e.redeem(85, redeemed, "brown", use_debt=True)


PRICES = sorted({sq.price for row in e.MARKET.cells for sq in row if sq and not sq.close})


@settings(max_examples=300)
@given(OWNERS, st.sampled_from(PRICES), st.sampled_from(["green", "brown", "gray"]),
       st.booleans(), st.booleans())  # fmt: skip
def test_redemption_conserves_money_and_halves_holdings(owners, price, colour, group1, debt):
    holdings = _split(owners, ed.SHARES_BEFORE_REDEMPTION[1 if group1 else 2])
    r = e.redeem(price, holdings, colour, use_debt=debt, treasury=10_000)
    assert sum(r.payments.values()) == r.cost
    # money: what the company gets from the bank for its debt = what it pays out + its change
    assert r.debt_payment == r.cost + r.treasury_change
    if debt:
        rate = ed.DEBT_PAYMENT_PER_100[colour]
        assert 0 <= r.treasury_change < rate and r.debt_payment == r.debt // 100 * rate
    for h, certs in holdings.items():
        assert 2 * sum(c.percent for c in r.holdings[h]) == sum(certs)
        # cash = half the holding's value, each 5 % half-share rounded up
        assert r.payments[h] * 20 >= price * sum(certs)
    assert sum(c.percent for v in r.holdings.values() for c in v) == 100
    assert sum(c.president for v in r.holdings.values() for c in v) == 1


# ============================================================================ end, closing, score
def test_debt_settlement_and_closure():
    # §Ending the Game: 900$ debt, 300$ in the treasury: the president makes up 600$
    assert e.debt_settlement(900, 300) == (300, 600)
    assert e.debt_settlement(900, 1000) == (900, 0)
    # §Share Price 0: treasury and debt back to the bank; the president covers the shortfall
    assert e.closure_settlement(1000, 900) == e.Closure(1000, 0)
    assert e.closure_settlement(300, 900) == e.Closure(300, 600)
    with pytest.raises(ValueError, match="debt"):
        e.debt_settlement(-1, 0)


def test_bankruptcy_compensation_and_score():
    # §Bankruptcy: other shareholders paid at the current price: at 85$, 10 % + 5 % = 85 + 43
    comp = e.bankruptcy_compensation(85, {"B": [10, 5], "C": [5], POOL: [5], CO: [50]})
    assert comp == {"B": 128, "C": 43}
    # §Winning the Game: cash + shares at market; a bankrupt player's debt is deducted
    assert e.player_value(250, [(100, 30), (85, 5)], debt=0) == 250 + 300 + 43
    assert e.player_value(0, [(100, 10)], debt=60) == 40


def test_game_end_conditions():
    # §Timing: bank out of money; a price over 379$; 8 companies out; fewer than 3 players
    assert e.game_end_reasons(5000, [375, 100], 7, 3) == ()
    assert e.game_end_reasons(0, [], 0, 4) == ("bank",)
    everything = ("bank", "share price", "companies out", "players")
    assert e.game_end_reasons(-20, [380], 8, 2) == everything
    assert e.final_or_set("operating") == "current" and e.final_or_set("stock") == "next"
    with pytest.raises(ValueError, match="triggered_in"):
        e.final_or_set("merger")


# ============================================================================ phases, trains
def test_phases_rounds_and_limits():
    # §Effects of Purchasing New Trains / §Stock Rounds: 1, 2 (type 3), 3 (type 5) ORs
    names = ["2", "3", "4", "5", "6", "8", "10"]
    assert [e.operating_rounds(p) for p in names] == [1, 2, 2, 3, 3, 3, 3]
    assert [e.train_limit(p) for p in names] == [4, 4, 3, 2, 2, 2, 2]
    assert [e.phase_colour(p) for p in names] == ["yellow", "green", "green", "brown",
                                                  "brown", "gray", "gray"]  # fmt: skip
    with pytest.raises(ValueError, match="unknown phase '7'"):
        e.operating_rounds("7")


def test_phase_changes_and_scrapping():
    assert e.phase_after_purchase("2", "3") == "3"
    assert e.phase_after_purchase("3", "3") == "3"
    assert e.phase_after_purchase("5", "5E") == "5"  # E-trains never start a phase
    # first 4 scraps the 2s, first 6 the 3s, first 8 the 4s
    assert e.scrapped_by("3", "4") == ("2",)
    assert e.scrapped_by("5", "6") == ("3",)
    assert e.scrapped_by("6", "8") == ("4",)
    assert e.scrapped_by("2", "3") == () and e.scrapped_by("4", "4") == ()
    assert e.scrapped_by("8", "8E") == ()
    with pytest.raises(ValueError, match="unknown train '7'"):
        e.phase_after_purchase("6", "7")


def test_trains_for_sale_and_e_trains():
    full = {k: v["count"] for k, v in ed.TRAINS.items()}
    assert e.trains_for_sale(full, "2") == ("2",)
    # no 3 until all 2s are sold
    assert e.trains_for_sale({**full, "2": 0}, "2") == ("3",)
    # 5E only after the first 5 was bought (phase 5); then alongside the 5s
    assert e.trains_for_sale({**full, "2": 0, "3": 0, "4": 0}, "4") == ("5",)
    assert e.trains_for_sale({**full, "2": 0, "3": 0, "4": 0, "5": 3}, "5") == ("5", "5E")
    # 5E need not be sold out before the 6s: both on offer in phase 6
    bank = {**full, "2": 0, "3": 0, "4": 0, "5": 0, "6": 2}
    assert e.trains_for_sale(bank, "6") == ("6", "5E", "6E")
    # an excess 4 given back after the phase change to 5 is for sale again
    assert e.trains_for_sale({**full, "2": 0, "3": 0, "4": 0, "5": 3}, "5", {"4": 1}) == (
        "5", "5E", "4"
    )  # fmt: skip
    with pytest.raises(ValueError, match="returned train '2'"):
        e.trains_for_sale(bank, "6", {"2": 1})


# ============================================================================ initial stock round
def test_next_private_and_bids():
    assert ei.next_private([]) == "BOM"
    assert ei.next_private(["BOM", "ERIE"]) == "BO"
    assert ei.next_private(ei.private_order()) is None
    # §Initial Stock Round: at least 5$ over the printed price or the highest bid
    assert ei.minimum_bid("ERIE", {}) == 45
    assert ei.minimum_bid("ERIE", {"A": 50, "B": 60}) == 65
    with pytest.raises(ValueError, match="unknown private company 'XX'"):
        ei.minimum_bid("XX", {})


def test_earmarked_money_and_bid_refusals():
    bids = {"RMC": {"A": 110}, "PSC": {"A": 160, "B": 170}}
    # A's money on RMC (highest) and PSC (overbid but kept) is earmarked: 600 - 270
    assert ei.free_cash(600, "A", bids) == 330
    assert ei.bid_refusal("BOM", "A", 25, 600, bids, sold=[]) == (
        "BOM is on sale at its printed price: buy it, do not bid"
    )
    assert "at least 175$" in ei.bid_refusal("PSC", "C", 170, 600, bids, sold=[])
    assert ei.bid_refusal("PSC", "C", 175, 600, bids, sold=[]) is None
    # A may raise his own PSC bid with its 160$ plus his free 330$: up to 490$
    assert ei.bid_refusal("PSC", "A", 490, 600, bids, sold=[]) is None
    assert "only 490$" in ei.bid_refusal("PSC", "A", 495, 600, bids, sold=[])
    assert "already sold" in ei.bid_refusal("BOM", "A", 30, 600, bids, sold=["BOM"])


def test_unsold_certificate_1_gets_cheaper():
    # §Initial Stock Round: 5$ less to each next player; whoever is offered it at 0$ buys it
    assert [ei.offer_price("BOM", k) for k in range(6)] == [20, 15, 10, 5, 0, 0]
    with pytest.raises(ValueError, match="only certificate 1"):
        ei.offer_price("ERIE", 1)


def test_resolve_offer():
    assert ei.resolve_offer({}) == ("offer", None, None)
    assert ei.resolve_offer({"C": 75}) == ("sold", "C", 75)  # one bid: sold at the bid
    assert ei.resolve_offer({"C": 75, "A": 80}) == ("auction", "A", 80)


def test_auction_example():
    # seats A B C D; bids on RMC: A 105, B 110, D 120 (highest).  The auction starts with the
    # bidding player left of D: A, then B, then D, clockwise.
    a = ei.start_auction("RMC", {"A": 105, "B": 110, "D": 120}, ["A", "B", "C", "D"])
    assert a.order == ("A", "B", "D") and a.to_act == "A" and a.high == 120
    with pytest.raises(ValueError, match="at least 125"):
        ei.auction_bid(a, "A", 121, 500)
    with pytest.raises(ValueError, match="'A''s turn"):
        ei.auction_pass(a, "B")
    a = ei.auction_bid(a, "A", 125, 500)  # A leads at 125
    a = ei.auction_pass(a, "B")  # B is out
    assert a.to_act == "D"
    a = ei.auction_bid(a, "D", 130, 300)
    assert a.to_act == "A"
    a = ei.auction_pass(a, "A")
    assert a.done and a.leader == "D" and a.high == 130 and a.to_act is None
    with pytest.raises(ValueError, match="over"):
        ei.auction_pass(a, "A")
    with pytest.raises(ValueError, match="two or more"):
        ei.start_auction("RMC", {"A": 105}, ["A", "B"])


@settings(max_examples=200)
@given(st.lists(st.tuples(st.booleans(), st.integers(5, 20)), max_size=40),
       st.sets(st.sampled_from("ABCDEFG"), min_size=2))  # fmt: skip
def test_auction_always_ends_with_the_highest_bid(moves, bidders):
    seats = list("ABCDEFG")
    bids = {p: 100 + 5 * i for i, p in enumerate(sorted(bidders))}
    a = ei.start_auction("PSC", bids, seats)
    highest = max(bids.values())
    for raise_, step in moves:
        if a.done:
            break
        if raise_:
            a = ei.auction_bid(a, a.to_act, a.high + step, 10_000)
            highest = a.high
        else:
            a = ei.auction_pass(a, a.to_act)
    while not a.done:  # everyone else passes
        a = ei.auction_pass(a, a.to_act)
    assert a.high == highest and a.active == {a.leader}


def test_priority_deal():
    # §Stock Rounds / Sequence: left of the last player who acted; nobody acted: unchanged
    seats = ["A", "B", "C", "D"]
    assert ei.priority_after(seats, "B", "A") == "C"
    assert ei.priority_after(seats, "D", "A") == "A"
    assert ei.priority_after(seats, None, "C") == "C"
    with pytest.raises(ValueError, match="last actor 'E'"):
        ei.priority_after(seats, "E", "A")


def test_private_revenue_and_closings():
    assert ei.private_revenue("SOC", []) == 35
    # "When the first of these companies is floated, the revenue ... is reduced to 15$"
    assert ei.private_revenue("SOC", ["UP"]) == 15
    assert ei.private_revenue("FNY", ["NYC"]) == 30
    everything = ei.private_order()
    assert ei.privates_closing(everything, floated=["UP"], paid=[]) == frozenset()
    # SOC closes once both floated; NYSH when NYH floats; PSC / FNY on the first dividend
    assert ei.privates_closing(everything, ["UP", "CPR"], []) == {"SOC"}
    assert ei.privates_closing(everything, ["NYH"], ["NYC", "WP"]) == {"NYSH", "FNY", "PSC"}
    assert ei.privates_closing(["BOM"], ["NYH"], ["NYC"]) == frozenset()
    assert ei.private_grants("FNY") == (("NYC", 10, False), ("NYC", 10, False))
    assert ei.private_grants("NYSH") == (("NYH", 30, True),)
    assert ei.private_grants("BOM") == ()


def test_group_availability():
    ipo0 = {"NYH": 0, "NYC": 0, "CP": 0}
    assert ei.available_groups(1, ipo0, [], []) == frozenset()
    assert ei.available_groups(0, {**ipo0, "CP": 10}, [], []) == {1}
    assert ei.available_groups(0, ipo0, [], []) == {1, 2}
    g2 = data.CORP_GROUPS[2]
    assert ei.available_groups(0, ipo0, g2[:-1], []) == {1, 2}
    assert ei.available_groups(0, ipo0, g2, []) == {1, 2, 3}
    # group 4 (the rulebook's; empty in the 18xx.games split used): all group-3 presidents sold
    groups = {1: ("NYH", "NYC", "CP"), 2: ("CPR", "UP"), 3: ("NP", "CN"), 4: ("TP",)}
    assert ei.available_groups(0, ipo0, ["CPR", "UP"], ["NP"], groups) == {1, 2, 3}
    assert ei.available_groups(0, ipo0, ["CPR", "UP"], ["NP", "CN"], groups) == {1, 2, 3, 4}
    assert ei.group_of("CPR") == 2
    with pytest.raises(ValueError, match="'CP'"):
        ei.available_groups(0, {"NYH": 0, "NYC": 0}, [], [])


def test_station_markers_and_rmc():
    # §Placing Station Markers: home free, then 40$, then 100$; across the border 60$ / 150$
    assert [ei.station_marker_cost(i) for i in range(4)] == [0, 40, 100, 100]
    assert [ei.station_marker_cost(i, True) for i in range(3)] == [0, 60, 150]
    # §Special Abilities: RMC waives up to 160$: mountain+river 160 -> 0, 120 -> 0
    assert ei.rmc_build_cost(160) == 0 and ei.rmc_build_cost(120) == 0
    assert ei.rmc_build_cost(200) == 40
    with pytest.raises(ValueError, match="index"):
        ei.station_marker_cost(-1)
