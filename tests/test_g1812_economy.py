"""1812 non-route rules: market, dividends, shares, loans, costs, auctions, mergers, end.

The rulebook is the seed text ``shared/seeds/1812-rules.txt`` (v1.0a); each test names its
section and works the arithmetic out in a comment.  The seed's own numeric examples are
§7.3.3 (Hull -> Sunderland station marker, £120) and §7.2 (a loan nets £45); §8 has no
numeric example, so the merger tests are built from its text (highest + lowest, rounded
down to a market value, four spaces down, £135 cap, half-share upgrade/downgrade).

Market cells (economy_data.MARKET), index: 40 0, 45 1, 50 2, 55 3, 60 4, 65 5, 70 6,
80 7, 90 8, 100 9, 110 10, 120 11, 135 12, 150 13, 165 14, 180 15, 200 16, 220 17,
245 18, 270 19, 300 20, 330 21, 360 22, 400 23.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.g1812 import auction as au
from engine.games.g1812 import data
from engine.games.g1812 import economy as ec
from engine.games.g1812 import economy_costs as co
from engine.games.g1812 import economy_data as ed
from engine.games.g1812 import merger as mg
from engine.games.g1812.economy import POOL, TREASURY, RuleViolation
from engine.model.hexgrid import DIRECTIONS, HexGrid

FAST = settings(max_examples=60)
MINOR_PRICES = [p for p in ed.MARKET if p <= ed.MINOR_MAX_PRICE]


# ============================================================================ data
def test_data_bank_cash_limits_and_zones():
    # §1.1 £8,000 in the bank; §3.1 £195 each; §4.1 certificate limits 15/10/10.
    assert ed.BANK_CASH == 8000
    assert ed.STARTING_CASH == {2: 195, 3: 195, 4: 195}
    assert ed.CERT_LIMIT == {2: 15, 3: 10, 4: 10}
    # §6.2.1 yellow £50-£100 and §6.2.3/§8.4 red £65-£135 are runs of market cells.
    for zone in (ed.MINOR_START_PRICES, ed.PUBLIC_START_PRICES):
        i = ed.MARKET.index(zone[0])
        assert ed.MARKET[i : i + len(zone)] == zone
    assert (ed.MINOR_START_PRICES[0], ed.MINOR_START_PRICES[-1]) == (50, 100)
    assert (ed.PUBLIC_START_PRICES[0], ed.PUBLIC_START_PRICES[-1]) == (65, 135)
    # §8.3/§8.4 agree with the cells: the least merger sum, £100, four spaces down is the
    # lowest red space: 100 (9) -> 90, 80, 70, 65 (5).
    assert ed.MARKET[ed.MARKET.index(100) - 4] == 65
    # §1.4.3: 2 + 8 x 1 = 10 shares.
    assert ed.DIRECTOR_SHARES + ed.ORDINARY_CERTIFICATES == ed.PUBLIC_SHARES == 10


# ============================================================================ market (§4)
def test_phase_number_and_market_validation():
    assert ec.phase_number("3") == 3 and ec.phase_number(6) == 6
    with pytest.raises(ValueError, match="phase must be one of 2, 3, 4, 5, 6"):
        ec.phase_number("1")
    with pytest.raises(ValueError, match="two markers"):
        ec.Market(cells=(("A",), ("A",)) + ((),) * (len(ed.MARKET) - 2))
    with pytest.raises(ValueError, match="cells"):
        ec.Market(cells=((),))


def test_cell_at_or_below_and_shift_price():
    assert ec.cell_at_or_below(115) == 110  # §8.3 "rounded down"
    assert ec.cell_at_or_below(105) == 100
    assert ec.cell_at_or_below(40) == 40
    with pytest.raises(ValueError, match="amount"):
        ec.cell_at_or_below(39)
    assert ec.shift_price(40, -1) is None  # §4.2: below £40 is the Closed box
    assert ec.shift_price(45, -1) == 40
    assert ec.shift_price(150, 1, minor=True) == 150  # §7.3.5 minor cap
    assert ec.shift_price(135, 2, minor=True) == 150
    assert ec.shift_price(150, 1) == 165
    assert ec.shift_price(400, 1) == 400  # top cell
    with pytest.raises(ValueError, match="price 75"):
        ec.shift_price(75, 1)


def test_market_piles_moves_and_closure():
    m = ec.place(ec.place(ec.Market(), "A", 70), "B", 70)
    assert m.pile(70) == ("A", "B")  # §6.2.1: a newcomer goes under
    # A goes up and comes back: it lands at the bottom of the £70 pile (§7.3.5).
    m2 = ec.move(ec.move(m, "A", 1), "A", -1)
    assert m2.pile(70) == ("B", "A") and m2.price("A") == 70
    # A minor at £150 that cannot move keeps its place on top (§7.3.5).
    top = ec.place(ec.place(ec.Market(), "M1", 150), "M2", 150)
    assert ec.move(top, "M1", 1, minor=True).pile(150) == ("M1", "M2")
    # 45 -> 40 -> Closed box (§4.2).
    c = ec.move(ec.move(ec.place(ec.Market(), "X", 45), "X", -1), "X", -1)
    assert c.closed == ("X",) and "X" not in c.companies()
    assert ec.remove(m, "A").pile(70) == ("B",)
    with pytest.raises(ValueError, match="already"):
        ec.place(m, "A", 80)
    with pytest.raises(ValueError, match="no marker"):
        m.price("Z")
    with pytest.raises(ValueError, match="not a stock-market value"):
        ec.place(m, "C", 75)


def test_operating_order_minors_then_publics():
    # §7: minors by price (falling), then publics; a pile top first.
    m = ec.Market()
    for name, price in [("m1", 60), ("GNR", 100), ("m2", 80), ("m3", 60), ("NER", 135)]:
        m = ec.place(m, name, price)
    assert ec.operating_order(m, {"m1", "m2", "m3"}) == ("m2", "m1", "m3", "NER", "GNR")
    with pytest.raises(ValueError, match="m9"):
        ec.operating_order(m, {"m9"})


@FAST
@given(st.lists(st.tuples(st.sampled_from(range(5)), st.integers(-3, 3)), max_size=30))
def test_market_moves_keep_each_marker_once(moves):
    m = ec.Market()
    for i in range(5):
        m = ec.place(m, f"c{i}", 70)
    for i, steps in moves:
        name = f"c{i}"
        if name in m.closed:
            continue
        m = ec.move(m, name, steps, minor=i % 2 == 0)
    on = m.companies()
    assert sorted(on + m.closed) == [f"c{i}" for i in range(5)]
    assert all(m.price(c) <= 150 for c in on if int(c[1]) % 2 == 0)  # minors capped


# ============================================================================ dividends
def test_minor_dividend():
    # §7.3.5: £70 -> £35 owner, £35 treasury, up one; nothing -> down one.
    assert ec.minor_dividend(70) == ec.MinorPayout(35, 35, 1)
    assert ec.minor_dividend(0) == ec.MinorPayout(0, 0, -1)
    with pytest.raises(ValueError, match="multiple of £10"):
        ec.minor_dividend(15)
    with pytest.raises(ValueError, match="earnings"):
        ec.minor_dividend(-10)


def test_public_dividend_payout():
    # §7.3.5: £150 paid out = £15 a share.  A 5 -> 75, B 2 -> 30, treasury 2 -> 30 to the
    # company, pool 1 -> 15 kept by the bank; 75 + 30 + 30 + 15 = 150.  10 x 15 = 150 >= 100:
    # up one.
    r = ec.public_dividend(150, "payout", 100, {"A": 5, "B": 2, TREASURY: 2, POOL: 1})
    assert (r.dividend, r.per_share) == (150, 15)
    assert r.players == {"A": 75, "B": 30}
    assert (r.company, r.bank, r.steps) == (30, 15, 1)
    # Ten times the dividend per share *equal* to the price also moves it up.
    assert ec.public_dividend(100, "payout", 100, {"A": 10}).steps == 1
    # £90 at price £100: 90 < 100, no move.
    assert ec.public_dividend(90, "payout", 100, {"A": 10}).steps == 0


def test_public_dividend_half_and_withhold():
    # §7.3.5 half: £130 / 2 = 65, rounded up to £70 paid (7 a share), £60 kept.
    # 10 x 7 = 70 < 80: no move.  A (6 shares) 42, treasury 4 -> 28 + 60 kept = 88.
    r = ec.public_dividend(130, "half", 80, {"A": 6, TREASURY: 4})
    assert (r.dividend, r.per_share, r.players, r.company, r.steps) == (70, 7, {"A": 42}, 88, 0)
    # £140 / 2 = 70 exactly: no rounding; 70 >= 70 moves up.
    assert ec.public_dividend(140, "half", 70, {"A": 10}).dividend == 70
    assert ec.public_dividend(140, "half", 70, {"A": 10}).steps == 1
    # Withhold: all £130 to the company, down one; zero earnings paid out: down one.
    w = ec.public_dividend(130, "withhold", 80, {"A": 10})
    assert (w.company, w.players, w.steps) == (130, {}, -1)
    assert ec.public_dividend(0, "payout", 80, {"A": 10}).steps == -1
    with pytest.raises(ValueError, match="sum to 10"):
        ec.public_dividend(100, "payout", 80, {"A": 9})
    with pytest.raises(ValueError, match="kind"):
        ec.public_dividend(100, "all", 80, {"A": 10})


@FAST
@given(
    st.integers(0, 120).map(lambda x: 10 * x),
    st.sampled_from(["payout", "half", "withhold"]),
    st.lists(st.integers(0, 4), min_size=4, max_size=4),
    st.sampled_from(ed.MARKET),
)
def test_dividends_conserve_earnings(earnings, kind, split, price):
    a, b, t, _ = split
    holdings = {"A": a, "B": b, TREASURY: t, POOL: 10 - a - b - t}  # a + b + t <= 12
    holdings = holdings if holdings[POOL] >= 0 else {"A": 10}
    r = ec.public_dividend(earnings, kind, price, holdings)
    assert sum(r.players.values()) + r.company + r.bank == earnings
    m = ec.minor_dividend(earnings)
    assert m.owner + m.treasury == earnings


# ============================================================================ shares
ORDER = ["A", "B", "C", "D"]


def test_director_after():
    # §6.2.2: a tie does not change the Director; strictly more does.
    assert ec.director_after({"A": 2, "B": 2}, "A", ORDER) == "A"
    assert ec.director_after({"A": 2, "B": 3}, "A", ORDER) == "B"
    # §6.1: the new Director needs at least 20%: B's 1 share beats A's 0 but is not enough.
    assert ec.director_after({"A": 0, "B": 1}, "A", ORDER) == "A"
    # Two rivals tie at 3 > 1: the first after the Director (C) in Player Order wins.
    assert ec.director_after({"A": 3, "B": 1, "D": 3}, "C", ORDER) == "D"
    assert ec.director_after({"A": 3, "B": 1, "D": 3}, "B", ORDER) == "D"
    with pytest.raises(ValueError, match="director 'Z'"):
        ec.director_after({"A": 2}, "Z", ORDER)


def sale(**kw):
    args = dict(
        kind="public",
        operated=True,
        price=90,
        seller="A",
        shares=1,
        holdings={"A": 4, "B": 2},
        director="A",
        pool=0,
        order=ORDER,
    )
    args.update(kw)
    return ec.sell_shares(**args)


def test_sell_shares():
    # §6.1: the Director sells 2 at £90: £180, price down one space whatever the number.
    assert sale(shares=2) == ec.SaleResult(180, -1, "A")
    # A non-Director's sale does not move the price.
    assert sale(seller="B") == ec.SaleResult(90, 0, "A")
    # A sells 3 of 4: 1 < B's 2, B takes over; the outgoing Director's sale still drops it.
    assert sale(shares=3) == ec.SaleResult(270, -1, "B")
    with pytest.raises(RuleViolation, match="Director's Certificate"):
        sale(shares=3, holdings={"A": 4, "B": 1})
    with pytest.raises(RuleViolation, match="more than 50%"):
        sale(pool=4, shares=2)
    with pytest.raises(RuleViolation, match="operating turn"):
        sale(operated=False)
    with pytest.raises(RuleViolation, match="minor companies may never be sold"):
        sale(kind="minor")
    with pytest.raises(ValueError, match="holds 2 shares"):
        sale(seller="B", shares=3)


def buy(**kw):
    args = dict(
        phase="3",
        buyer_shares=2,
        buyer_certificates=5,
        n_players=4,
        sold_this_round=False,
        director_owned=True,
        source=TREASURY,
        available=3,
    )
    args.update(kw)
    return ec.check_share_purchase(**args)


def test_check_share_purchase():
    assert buy() == "company"  # §6.2.2: treasury shares pay the company
    assert buy(source=POOL) == "bank"
    for kw, match in [
        ({"phase": "2"}, "Phase 3"),
        ({"buyer_certificates": 10}, "Certificate Limit"),
        ({"buyer_shares": 6}, "60%"),
        ({"sold_this_round": True}, "sold"),
        ({"director_owned": False}, "Director"),
        ({"available": 0}, "no share"),
    ]:
        with pytest.raises(RuleViolation, match=match):
            buy(**kw)
    assert buy(n_players=2, buyer_certificates=14) == "company"  # limit 15 with 2 players
    with pytest.raises(ValueError, match="source"):
        buy(source="ipo")


def test_certificate_count_and_limit():
    # §4.1: 2 privates + 1 minor charter + GNR Director (4 shares = Director's + 2 = 3
    # certificates) + NER 1 = 2 + 1 + 3 + 1 = 7.
    assert ec.certificate_count(2, 1, {"GNR": 4, "NER": 1}, ["GNR"]) == 7
    assert ec.cert_limit(2) == 15 and ec.cert_limit(3) == 10
    with pytest.raises(ValueError, match="n_players"):
        ec.cert_limit(5)
    with pytest.raises(ValueError, match="director of 'NER'"):
        ec.certificate_count(0, 0, {"NER": 1}, ["NER"])


def test_player_order_after_stock():
    # §6.3: most cash first; B and C tie at 100 and keep their previous order (C before B).
    cash = {"A": 50, "B": 100, "C": 100, "D": 300}
    assert ec.player_order_after_stock(cash, ["C", "A", "B", "D"]) == ("D", "C", "B", "A")
    with pytest.raises(ValueError, match="same players"):
        ec.player_order_after_stock(cash, ["A", "B"])


# ============================================================================ loans (§7.2)
def test_loan_nets_45_and_minimum_loans():
    # §7.2 worked figure: "each new Loan gives the Company a net £45" (50 - 5 interest).
    assert ec.take_loans(0, 1) == 45
    assert ec.take_loans(10, 3) == 10 + 3 * 45
    # £100 from £10: 90 short, 90 / 45 = 2 loans; £55 from £10: 45 short = 1 loan.
    assert ec.loans_needed(10, 100, 0, "public") == 2
    assert ec.loans_needed(10, 55, 0, "public") == 1
    assert ec.loans_needed(100, 100, 5, "public") == 0  # affordable: no loan
    # A minor with 1 of 2 loans needs 3 for £100 from £0: refused.
    with pytest.raises(RuleViolation, match="only 1 allowed"):
        ec.loans_needed(0, 100, 1, "minor")
    assert (ec.loan_limit("minor"), ec.loan_limit("public")) == (2, 5)
    with pytest.raises(ValueError, match="company kind"):
        ec.loan_limit("major")


def test_pay_interest():
    # §7.3.6: 3 loans at the start, £30 cash: 3 x 5 = 15 paid, 15 left.
    assert ec.pay_interest(30, 3, 3, "public") == ec.InterestResult(15, 3, 15, 0, 0)
    # £10 cash, £15 owed: one more loan, 10 + 50 - 5 - 15 = 40; £20 interest in all.
    assert ec.pay_interest(10, 3, 3, "public") == ec.InterestResult(40, 4, 20, 1, 0)
    # A loan taken this turn already paid: 1 at the start of 3 -> £5 owed.
    assert ec.pay_interest(20, 1, 3, "public").paid == 5
    # A minor at its limit (2) with £3: pays all it has, price down one.
    assert ec.pay_interest(3, 2, 2, "minor") == ec.InterestResult(0, 2, 3, 0, -1)
    with pytest.raises(ValueError, match="loans_at_start"):
        ec.pay_interest(10, 3, 2, "public")


@FAST
@given(st.integers(0, 200), st.integers(0, 5), st.integers(0, 2))
def test_interest_money_balance(cash, start, extra):
    loans = min(start + extra, 7)
    start = min(start, loans)
    r = ec.pay_interest(cash, start, loans, "public")
    # What the company has = cash + loan principal - interest paid (to the bank).
    assert r.cash == cash + ed.LOAN_VALUE * r.new_loans - r.paid
    assert r.cash >= 0 and (r.steps == -1) == (r.paid < 5 * start)


def test_repay_loans_and_train_loans():
    # §7.3.7: £120 and 3 loans: repay 2 (£100), £20 left.  £49: none.
    assert ec.repay_loans(120, 3) == (2, 20)
    assert ec.repay_loans(49, 2) == (0, 49)
    assert ec.repay_loans(500, 1) == (1, 450)
    ec.check_train_loans(False, "bank")
    ec.check_train_loans(False, "pool")
    with pytest.raises(RuleViolation, match="without a train"):
        ec.check_train_loans(True, "bank")
    with pytest.raises(RuleViolation, match="another company"):
        ec.check_train_loans(False, "company")


# ============================================================================ rounds, end
def test_next_round():
    # §2, §5: Phase 2: SR, OR1, OR2; Phase 3+: SR, OR1, MR1, OR2, MR2.
    assert ec.next_round("stock", 1, "2") == ("operating", 1)
    assert ec.next_round("operating", 1, "2") == ("operating", 2)
    assert ec.next_round("operating", 2, "2") == ("stock", 1)
    assert ec.next_round("operating", 1, "3") == ("merger", 1)
    assert ec.next_round("merger", 1, "3") == ("operating", 2)
    assert ec.next_round("merger", 2, "6") == ("stock", 1)
    with pytest.raises(ValueError, match="phase"):
        ec.next_round("stock", 1, "7")
    with pytest.raises(ValueError, match="round kind"):
        ec.next_round("auction", 1, "2")


def test_bank_and_game_end():
    # §9: bank with £100 owes £150: £100 cash + £50 in IOUs; it has then run out.
    assert ec.bank_pays(100, 150) == (100, 50)
    assert ec.bank_pays(-20, 30) == (0, 30)
    assert ec.bank_broken(0) and ec.bank_broken(-50) and not ec.bank_broken(1)
    # Broken: the game ends after the next (or current) Operating Round, not before.
    assert not ec.game_ends_after("stock", True)
    assert not ec.game_ends_after("merger", True)
    assert ec.game_ends_after("operating", True)
    assert not ec.game_ends_after("operating", False)


def test_final_scores():
    # §9: GNR at £100 with 2 loans -> 80 (100 -> 90 -> 80); minor m1 at £45 with 2 loans ->
    # Closed (45 -> 40 -> Closed) = 0; NER at £70, no loans.
    assert ec.final_price(100, 2) == 80
    assert ec.final_price(45, 2) == 0
    prices = {"GNR": 100, "NER": 70, "m1": 45, "m2": 60}
    loans = {"GNR": 2, "m1": 2}
    players = {
        # A: £50 + 3 GNR x 80 + P1 (face £15) + m2 at 2 x 60 = 50 + 240 + 15 + 120 = 425.
        "A": ec.Holdings(cash=50, privates=("P1",), minors=("m2",), shares={"GNR": 3}),
        # B: £215 + 2 NER x 70 + m1 at 2 x 0 = 355.
        "B": ec.Holdings(cash=215, minors=("m1",), shares={"NER": 2}),
        # C: £425 cash only: ties with A.
        "C": ec.Holdings(cash=425),
    }
    values, winners = ec.scores(players, prices, loans)
    assert values == {"A": 425, "B": 355, "C": 425}
    assert winners == ("A", "C")
    with pytest.raises(ValueError, match="no final price for 'SR'"):
        ec.player_value(ec.Holdings(cash=0, shares={"SR": 1}), prices)
    with pytest.raises(ValueError, match="private company 'P99'"):
        ec.player_value(ec.Holdings(cash=0, privates=("P99",)), prices)


def test_all_players_lose():
    assert ec.all_players_lose(0, 0, 99, 100)
    assert not ec.all_players_lose(0, 0, 100, 100)
    assert not ec.all_players_lose(1, 0, 0, 100)
    assert not ec.all_players_lose(0, 1, 0, 100)


# ============================================================================ costs
def test_station_marker_example_hull_sunderland():
    # §7.3.3 (the rulebook's example): one marker in Hull (G16), the second in Sunderland
    # (F5): 6 hexes x £20 = £120.  Flat doubled coordinates: G16 = (6, 15), F5 = (5, 4);
    # dx 1, dy 11: 1 + (11 - 1) / 2 = 6.
    assert co.hex_distance("G16", "F5") == 6
    assert co.station_marker_cost(1, co.hex_distance("G16", "F5")) == 120
    # A third marker 3 hexes from the nearest: 3 x £40 = £120.
    assert co.station_marker_cost(2, 3) == 120
    with pytest.raises(ValueError, match="deployed"):
        co.station_marker_cost(0, 3)


def _bfs_distance(a: str, b: str) -> int:
    grid = HexGrid.make("flat")
    start, goal = grid.xy(a), grid.xy(b)
    seen, todo = {start: 0}, deque([start])
    while todo:
        x, y = todo.popleft()
        if (x, y) == goal:
            return seen[(x, y)]
        for dx, dy in DIRECTIONS["flat"]:
            nxt = (x + dx, y + dy)
            if nxt not in seen and -2 <= nxt[0] <= 10 and -2 <= nxt[1] <= 24:
                seen[nxt] = seen[(x, y)] + 1
                todo.append(nxt)
    raise AssertionError("unreachable")


ALL_HEXES = sorted({h for hexes in data.HEXES.values() for hs in hexes.values() for h in hs})


@FAST
@given(st.sampled_from(ALL_HEXES), st.sampled_from(ALL_HEXES))
def test_hex_distance_matches_neighbour_steps(a, b):
    assert co.hex_distance(a, b) == _bfs_distance(a, b)


def test_trains_limits_and_obsolescence():
    assert co.train_price("3") == 200 and co.train_price("2G") == 180
    # §2.1-§2.5 limits (minor, public): 2/4, 2/4, 1/3, 0/2, 0/2.
    assert [co.train_limit(p, "minor") for p in "23456"] == [2, 2, 1, 0, 0]
    assert [co.train_limit(p, "public") for p in "23456"] == [4, 4, 3, 2, 2]
    assert co.can_buy_train(3, "3", "public") and not co.can_buy_train(4, "3", "public")
    assert co.excess_trains(4, "5", "public") == 2
    assert co.obsolete_trains("4") == {"2", "1G"}
    assert co.obsolete_trains("5") == {"3", "2G"}
    assert co.obsolete_trains("6") == {"3+1", "2+1G"}
    assert co.obsolete_trains("3") == frozenset()
    with pytest.raises(ValueError, match="unknown train"):
        co.train_price("6")


def test_train_supply():
    # §7.3.8: after the first 2 is bought the unsold ones go; after the first 3 the unsold
    # 3s (here 4) become 4 x 3+1.
    supply = {"2": None, "3": 5, "3+1": 0, "4": 4, "5": None, "3D": None}
    assert co.new_trains_for_sale(supply, "2") == ("2",)
    s2 = co.refresh_supply(supply, ["1G"])
    assert "2" not in s2 and co.new_trains_for_sale(s2, "2") == ("3",)
    s3 = co.refresh_supply({**s2, "3": 4}, ["1G", "3"])
    assert s3["3+1"] == 4 and "3" not in s3
    # Phase 5: the (unlimited) 5 and the 3D are both on sale.
    assert co.new_trains_for_sale({"4": 0, "5": None, "3D": None}, "5") == ("5", "3D")
    assert co.new_trains_for_sale({"4": 0, "5": None, "3D": None}, "4") == ("5",)


def test_trade_in_and_train_prices():
    # §7.3.8 Phase 5: trading a 4 (£400) in gives 400 // 4 = £100 off a 5: 500 - 100 = 400.
    assert co.trade_in_allowance("4", "5") == 100
    assert co.bank_train_price("5", "5", trade_in="4") == 400
    # 3D (£750): 750 / 4 = 187.5, rounded down to £187; 3+2G (£360) -> £90.
    assert co.trade_in_allowance("3D", "6") == 187
    assert co.trade_in_allowance("3+2G", "5") == 90
    # Stephenson's Engine Works: a 3 for 200 - 40 = £160 (Phase 3).
    assert co.bank_train_price("3", "3", stephenson=True) == 160
    with pytest.raises(RuleViolation, match="Phases 5 and 6"):
        co.trade_in_allowance("4", "4")
    with pytest.raises(RuleViolation, match="obsolete"):
        co.trade_in_allowance("3", "5")
    with pytest.raises(RuleViolation, match="closed at Phase 5"):
        co.bank_train_price("5", "5", stephenson=True)
    co.check_company_train_price(1, 10)
    with pytest.raises(RuleViolation, match="treasury"):
        co.check_company_train_price(11, 10)
    with pytest.raises(RuleViolation, match="£1"):
        co.check_company_train_price(0, 10)


def test_privates():
    # §1.4.1: P1 (face £15) sells to a company for £1-£15.
    co.check_private_price("P1", 15)
    with pytest.raises(RuleViolation, match="£1 to £15"):
        co.check_private_price("P1", 16)
    assert co.private_income(["P1", "P5", "P12"]) == 5 + 10 + 10
    # §2.4: at Phase 5 only #11 and #12 stay.
    assert co.open_privates(["P1", "P11", "P12"], "5") == ("P11", "P12")
    assert co.open_privates(["P1", "P11"], "4") == ("P1", "P11")
    # §3.1: twice the player number, reproducible from the seed.
    chosen = co.select_privates(random.Random(7), 3)
    assert len(chosen) == 6 == len(set(chosen))
    assert chosen == co.select_privates(random.Random(7), 3)
    with pytest.raises(ValueError, match="rng"):
        co.select_privates(7, 3)


def test_tile_costs_start_public_home_station():
    # §7.3.2: yellow in £40 terrain as the second operation: 40 + 20 = £60.
    assert co.tile_operation_cost("C6", 40, upgrade=False, second=True) == 60
    assert co.tile_operation_cost("C6", 40, upgrade=True, second=False) == 0
    # Newcastle's yellow-to-green upgrade pays its £20 (§7.3.2 exception).
    assert co.tile_operation_cost("E4", 20, upgrade=True, second=False) == 20
    assert co.tile_operation_cost("C6", 40, upgrade=False, second=False, private_lay=True) == 0
    # §6.2.3: start at £100: Director pays 2 x 100 = £200 for 2 shares, 8 stay in treasury.
    assert co.start_public(100, "4") == co.StartPublic(100, 200, 2, 8)
    with pytest.raises(RuleViolation, match="Phase 4"):
        co.start_public(100, "3")
    with pytest.raises(RuleViolation, match="red-outlined"):
        co.start_public(150, "4")
    assert co.home_station_cost(30) == 60 and co.home_station_cost(0) == 0


# ============================================================================ auctions
def test_private_auction_flow():
    # §3.2: B nominates P5 at £30 (its minimum); C raises to £35, D passes, A passes,
    # B raises to £40, C passes: B wins for £40.  Turns go C, D, A, B, C.
    order = ["A", "B", "C", "D"]
    assert au.private_minimum("P5") == 30
    a = au.open_auction("P5", "B", 30, order, cash=195, minimum=au.private_minimum("P5"))
    assert a.to_act == "C"
    a = au.raise_bid(a, "C", 35, 195)
    a = au.pass_bid(a, "D")
    a = au.pass_bid(a, "A")
    assert a.to_act == "B" and au.winner(a) is None
    a = au.raise_bid(a, "B", 40, 195)
    assert a.to_act == "C"
    a = au.pass_bid(a, "C")
    assert au.winner(a) == ("B", 40)
    assert au.next_player(order, "B") == "C"  # the next turn after the buyer
    with pytest.raises(RuleViolation, match="over"):
        au.pass_bid(a, "C")


def test_auction_bid_rules():
    order = ["A", "B", "C"]
    with pytest.raises(RuleViolation, match="at least £30"):
        au.open_auction("P5", "A", 25, order, 195, 30)
    with pytest.raises(RuleViolation, match="multiples of £5"):
        au.open_auction("P5", "A", 32, order, 195, 30)
    with pytest.raises(RuleViolation, match="more than his cash"):
        au.open_auction("m1", "A", 200, order, 195, 100)
    a = au.open_auction("P5", "A", 30, order, 195, 30)
    with pytest.raises(RuleViolation, match="B's turn"):
        au.raise_bid(a, "C", 40, 195)
    with pytest.raises(RuleViolation, match="at least £35"):
        au.raise_bid(a, "B", 30, 195)
    # A player who passed may not come back: after B passes it is C, then A is alone.
    a = au.pass_bid(a, "B")
    assert a.to_act == "C" and "B" not in a.bidders
    a = au.pass_bid(a, "C")
    assert au.winner(a) == ("A", 30)
    assert au.after_private_passes(False) == "redraw"
    assert au.after_private_passes(True) == "operating"


@FAST
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 4)), max_size=40), st.integers(2, 4))
def test_auction_always_ends_with_the_highest_bid(script, n):
    order = [f"p{i}" for i in range(n)]
    a = au.open_auction("m1", "p0", 100, order, 500, 100)
    highest = ("p0", 100)
    for raise_it, step in script:
        if au.winner(a):
            break
        p = a.to_act
        if raise_it and a.high_bid + 5 * step <= 500:
            a = au.raise_bid(a, p, a.high_bid + 5 * step, 500)
            highest = (p, a.high_bid)
        else:
            a = au.pass_bid(a, p)
    while not au.winner(a):
        a = au.pass_bid(a, a.to_act)
    assert au.winner(a) == highest


def test_minor_start_price_and_start():
    # §6.2.1: half the bid rounded down to a yellow space, £50-£100.
    assert au.minor_start_price(100) == 50  # 100 / 2 = 50
    assert au.minor_start_price(135) == 65  # 67.5 -> 65
    assert au.minor_start_price(145) == 70  # 72.5 -> 70
    assert au.minor_start_price(175) == 80  # 87.5 -> 80
    assert au.minor_start_price(200) == 100
    assert au.minor_start_price(215) == 100  # 107.5 -> the top yellow space, 100
    with pytest.raises(ValueError, match="bid"):
        au.minor_start_price(95)
    a = au.open_auction("m3", "A", 175, ["A", "B", "C"], 195, 100)
    a = au.pass_bid(au.pass_bid(a, "B"), "C")
    # The whole £175 goes into the minor's treasury; its marker starts at £80.
    assert au.start_minor(a, "3") == au.MinorStart("m3", "A", 175, 80)
    with pytest.raises(RuleViolation, match="Phase 4"):
        au.start_minor(a, "4")


# ============================================================================ mergers (§8)
def test_formation_price_arithmetic():
    # §8.2 conversion: 100 (9) four down -> 65 (5); 150 (13) -> 100 (9); 120 (11) -> 80 (7).
    assert mg.formation_price([100]) == 65
    assert mg.formation_price([150]) == 100
    assert mg.formation_price([120]) == 80
    # §8.3 merger: highest + lowest, rounded down to a market value, four down, cap £135.
    # 100 + 50 = 150 (13) -> 100 (9).
    assert mg.formation_price([100, 50]) == 100
    # 60 + 55 = 115, rounded down to 110 (10) -> 70 (6).
    assert mg.formation_price([60, 55]) == 70
    # The middle minor does not count: 90 + 50 = 140 -> 135 (12) -> 90 (8).
    assert mg.formation_price([90, 70, 50]) == 90
    # 120 + 80 = 200 (16) -> 135 (12): exactly the cap.
    assert mg.formation_price([120, 80]) == 135
    # 150 + 70 = 220 (17) -> 150 (13) > 135: capped at £135.  150 + 150 = 300 (20) -> 200,
    # capped at £135.
    assert mg.formation_price([150, 70]) == 135
    assert mg.formation_price([150, 150]) == 135
    with pytest.raises(RuleViolation, match="£95, less than £100"):
        mg.formation_price([50, 45])
    with pytest.raises(RuleViolation, match="£100 or more"):
        mg.formation_price([90])


@FAST
@given(st.lists(st.sampled_from(MINOR_PRICES), min_size=2, max_size=6))
def test_merged_price_is_a_red_space(prices):
    if max(prices) + min(prices) < 100:
        with pytest.raises(RuleViolation):
            mg.formation_price(prices)
        return
    # §8.4: the new company's marker is always on a red-outlined space (£65-£135).
    assert mg.formation_price(prices) in ed.PUBLIC_START_PRICES


def test_convert():
    # §8.2: minor at £120 with £80, 1 loan, a 3-train -> public at £80; owner A gets the
    # Director's Certificate + one share (3 shares), 7 in the treasury.
    m = mg.Minor("m5", "A", 120, cash=80, loans=1, trains=("3",), station="E4")
    f = mg.convert(m, "3")
    assert (f.price, f.shares, f.director, f.treasury_shares) == (80, {"A": 3}, "A", 7)
    assert (f.cash, f.loans, f.trains, f.payments) == (80, 1, ("3",), ())
    with pytest.raises(RuleViolation, match="£100 or more"):
        mg.convert(mg.Minor("m5", "A", 90), "3")
    with pytest.raises(RuleViolation, match="Phase 3"):
        mg.convert(m, "2")


def test_merge_two_owners_upgrade_and_director_tie():
    # §8.3: A's m1 (£100, £60 cash, 1 loan) operates before B's m2 (£50, £30, 2 loans).
    # Price: 100 + 50 = 150 -> 100 (four down).  Each charter = 1.5 shares: A and B each
    # have a half share; upgrade = 100 / 2 = £50 to the company.  Both can pay: 2 shares
    # each; tie -> A, owner of the earliest operating minor, is Director.
    # Treasury: 60 + 30 + 50 + 50 = 190; shares 2 + 2 = 4, 6 in the treasury; loans 3.
    minors = [
        mg.Minor("m1", "A", 100, cash=60, loans=1),
        mg.Minor("m2", "B", 50, cash=30, loans=2),
    ]
    f = mg.merge(minors, {"A": 50, "B": 195}, "3")
    assert f.price == 100
    assert f.shares == {"A": 2, "B": 2} and f.director == "A"
    assert f.payments == (("A", "company", 50), ("B", "company", 50))
    assert (f.cash, f.loans, f.treasury_shares) == (190, 3, 6)
    # Reversed operating order: B's minor first, so B is Director.
    assert mg.merge(minors[::-1], {"A": 50, "B": 195}, "3").director == "B"


def test_merge_downgrades_and_no_director():
    # Price 65: 60 + 45 = 105 -> 100 -> 65.  Upgrade = ceil(65 / 2) = £33; downgrade =
    # floor(65 / 2) = £32 from the bank.  A (£40) upgrades, B (£20) downgrades.
    minors = [mg.Minor("m1", "A", 60, cash=5), mg.Minor("m2", "B", 45, cash=5)]
    f = mg.merge(minors, {"A": 40, "B": 20}, "4")
    assert f.price == 65
    assert f.payments == (("A", "company", 33), ("bank", "B", 32))
    assert f.shares == {"A": 2, "B": 1} and f.director == "A"
    assert f.cash == 5 + 5 + 33 and f.treasury_shares == 7
    # Both too poor: both downgrade to 1 share, nobody has two: not allowed (§8.3 note).
    with pytest.raises(RuleViolation, match="no player has two shares"):
        mg.merge(minors, {"A": 32, "B": 0}, "4")


def test_merge_runs_out_of_shares():
    # Six minors: A owns three (4.5 shares), B, C and D one each (1.5).  Prices 150 ... 60:
    # 150 + 60 = 210 -> 200 (16) -> 135 (12) (cap reached exactly).  Whole shares first:
    # 4 + 1 + 1 + 1 = 7; three are left for four half shares.  Operating order
    # D, C, B, A, A, A: D, C, B upgrade (£68 = ceil(135 / 2) each); A finds no share left
    # and downgrades (floor(135 / 2) = £67 from the bank) although rich.
    minors = [
        mg.Minor("m1", "D", 150, cash=10),
        mg.Minor("m2", "C", 120, cash=10),
        mg.Minor("m3", "B", 100, cash=10),
        mg.Minor("m4", "A", 90, cash=10),
        mg.Minor("m5", "A", 80, cash=10),
        mg.Minor("m6", "A", 60, cash=10),
    ]
    cash = {"A": 1000, "B": 68, "C": 100, "D": 100}
    f = mg.merge(minors, cash, "5")
    assert f.price == 135
    assert f.shares == {"D": 2, "C": 2, "B": 2, "A": 4} and f.director == "A"
    assert f.treasury_shares == 0
    assert f.payments == (
        ("D", "company", 68),
        ("C", "company", 68),
        ("B", "company", 68),
        ("bank", "A", 67),
    )
    assert f.cash == 60 + 3 * 68


def test_merge_limits():
    m = [mg.Minor(f"m{i}", "A", 100) for i in range(5)]
    with pytest.raises(RuleViolation, match="more than four"):
        mg.merge(m, {"A": 0}, "3")
    with pytest.raises(RuleViolation, match="two to six"):
        mg.merge(m[:1], {"A": 0}, "3")
    # One owner, two minors: 3 shares, no half share, no payment.
    f = mg.merge(m[:2], {"A": 0}, "3")
    assert (f.shares, f.payments, f.treasury_shares) == ({"A": 3}, (), 7)
    with pytest.raises(ValueError, match="no cash given for owner 'B'"):
        mg.merge([m[0], mg.Minor("x", "B", 100)], {"A": 0}, "3")
    with pytest.raises(ValueError, match="not a minor's market price"):
        mg.Minor("x", "B", 165)


@FAST
@given(
    st.lists(
        st.tuples(st.sampled_from("ABCD"), st.sampled_from(MINOR_PRICES), st.integers(0, 200)),
        min_size=2,
        max_size=6,
    ),
    st.dictionaries(st.sampled_from("ABCD"), st.integers(0, 150), min_size=4),
)
def test_merge_conserves_money_and_shares(spec, cash):
    minors = [mg.Minor(f"m{i}", o, p, cash=c) for i, (o, p, c) in enumerate(spec)]
    try:
        f = mg.merge(minors, cash, "3")
    except RuleViolation:
        return
    # Money: players' change + company's change + bank's change = 0.
    players = sum(-a for payer, _, a in f.payments if payer in cash) + sum(
        a for _, payee, a in f.payments if payee in cash
    )
    company = f.cash - sum(m.cash for m in minors)
    bank = -sum(a for payer, _, a in f.payments if payer == "bank")
    assert players + company + bank == 0
    # Shares: ten in all; each owner has 1.5 per charter, rounded one way or the other.
    assert sum(f.shares.values()) + f.treasury_shares == 10
    for p, n in f.shares.items():
        k = sum(1 for m in minors if m.owner == p)
        assert n in (3 * k // 2, -(-3 * k // 2))
    assert f.shares[f.director] == max(f.shares.values()) >= 2


def test_station_choices():
    # §8.3: two minors both in Leeds (C14): only one marker; three minors: pairs of hexes.
    assert mg.station_choices(["C14", "C14"]) == (("C14",),)
    assert mg.station_choices(["C14", "C14", "E4"]) == (("C14", "E4"),)
    assert len(mg.station_choices(["C14", "E4", "G16"])) == 3


def test_takeover():
    # §8.5: GNR (A 3, B 2, Director A, 2 in the treasury) takes over B's minor (£40 cash,
    # 2 loans): B gets a treasury share -> 3 = A's 3, A stays Director; 1 share left.
    m = mg.Minor("m2", "B", 70, cash=40, loans=2, trains=("3",))
    t = mg.takeover(
        m, holdings={"A": 3, "B": 2}, director="A", treasury_shares=2, order=ORDER, phase="3"
    )
    assert (t.shares, t.director, t.treasury_shares) == ({"A": 3, "B": 3}, "A", 1)
    assert (t.cash, t.loans, t.trains) == (40, 2, ("3",))
    # With B at 3 already, the exchange gives B 4 > 3: B becomes Director.
    t2 = mg.takeover(
        m, holdings={"A": 3, "B": 3}, director="A", treasury_shares=1, order=ORDER, phase="3"
    )
    assert t2.director == "B" and t2.treasury_shares == 0
    with pytest.raises(RuleViolation, match="no share in its treasury"):
        mg.takeover(m, holdings={"A": 3}, director="A", treasury_shares=0, order=ORDER, phase="3")
    assert mg.takeover_token_ok(1, False)
    assert not mg.takeover_token_ok(0, False) and not mg.takeover_token_ok(1, True)


def test_offer_after_formation():
    # §8.4: holders first from the Director on, in Player Order; then everybody.
    assert mg.offer_order("C", ORDER, {"A", "C"}) == ("C", "A")
    assert mg.offer_order("C", ORDER) == ("C", "D", "A", "B")
    # Holds 3 (room 3 to 60%), 8 of 10 certificates (room 2), 7 in treasury, £250 at £100
    # (2): at most 2.
    kw = dict(shares_held=3, certificates=8, n_players=4, treasury_shares=7, cash=250, price=100)
    assert mg.offer_limit(**kw) == 2
    assert mg.offer_limit(**{**kw, "certificates": 5, "cash": 1000}) == 3  # the 60% cap
    assert mg.offer_limit(**{**kw, "certificates": 11}) == 0  # over the limit: nothing
