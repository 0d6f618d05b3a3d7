"""Final player values and game-end reasons of the 1836Jr-30 and 1836Jr-56 records.

Every 18xx.games fixture of the two titles (tests/data/records, MIT, see SOURCE.md) is
replayed without the solver; the money side (:mod:`engine.money_1836jr`,
:mod:`engine.money_1856`) must end with exactly the record's ``result`` and
``game_end_reason``, with money conserved and every corporation's certificates summing to
100% after every action.  Hand-built checks cover the market, share and loan arithmetic with
the numbers worked out in comments.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.game.market import IPO, POOL, ShareRegistry, StockGrid, parse_price_id
from engine.games import load_record
from engine.money_1836jr import BANK
from engine.replay import Replayer, ReplayError

RECORDS = Path(__file__).parent / "data" / "records"
FILES = sorted((RECORDS / "1836Jr30").glob("*.json")) + sorted(
    (RECORDS / "1836jr56").glob("*.json")
)


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _fresh(title_dir: str, name: str):
    """A replayer set up but before any action: the money side at the game's start."""
    return Replayer(load_record(RECORDS / title_dir / name), solve=False)


def test_every_fixture_is_here():
    assert [_id(p) for p in FILES] == [
        "1836Jr30/1836Jr30_game_end_bankrupt",
        "1836Jr30/2809",
        "1836Jr30/2851",
        "1836jr56/1836jr56_game_end_bank",
        "1836jr56/hotseat003",
    ]


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_record_replays_to_its_result(path):
    raw = json.loads(path.read_text())
    rep = Replayer(load_record(path), solve=False)
    money = rep.rules.money
    bank_cash = rep.state.data.BANK_CASH
    checked = []

    def invariants(done: int) -> None:
        money.ledger.check_conserved()
        assert money.ledger.total() == bank_cash  # nothing created or destroyed
        for sym, corp in money.registry.corps.items():
            if corp.certs[0].holder is not None:  # closed corporations' shares are gone
                assert sum(c.percent for c in corp.certs) == 100, sym
        checked.append(done)

    for _ in rep.turns(invariants):
        pass
    assert len(checked) == len(rep.actions)
    final = rep.rules.final_result(rep.state)
    assert final.differences(raw["result"]) == {}
    assert final.result == {str(k): v for k, v in raw["result"].items()}
    assert final.reason == raw["game_end_reason"]
    assert final.bank_broken == (raw["game_end_reason"] == "bank")


def test_bankrupt_records_name_the_bankrupt_player():
    # 1836Jr30: the player who sold out before B declared; 1836Jr-56: Player 1, whose
    # forced loan repayment left him below zero (his value -120 is the record's)
    for path, who in (
        (RECORDS / "1836Jr30" / "1836Jr30_game_end_bankrupt.json", 15155),
        (RECORDS / "1836jr56" / "hotseat003.json", "Player 1"),
    ):
        rep = Replayer(load_record(path), solve=False)
        for _ in rep.turns():
            pass
        final = rep.rules.final_result(rep.state)
        assert [p.id for p in final.players if p.bankrupt] == [who]


# ---------------------------------------------------------------------- the 2-D market
def test_market_edges_follow_1830():
    grid = StockGrid(_fresh("1836Jr30", "2809.json").state.data.MARKET)
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
    grid = StockGrid(_fresh("1836Jr30", "2809.json").state.data.MARKET)
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


# ---------------------------------------------------------------------- presidency
def test_presidency_moves_with_the_majority_and_partial_sale():
    reg = ShareRegistry(["p1", "p2", "p3"])
    reg.add("X")
    reg.give(["X_0"], "p1")  # p1 pars: president with 20%
    assert reg.president("X") == "p1"
    for cert in ("X_1", "X_2", "X_3"):
        reg.give([cert], "p2")
    # p2 30% > p1 20%: p2 takes the president's certificate and gives p1 two shares
    assert reg.president("X") == "p2"
    assert reg.percent("X", "p1") == 20 and reg.percent("X", "p2") == 30
    assert [c.id for c in reg.certs_of("p2", "X")][0] == "X_0"
    # p2 sells 20% as its president's certificate plus one share, keeping 10%: p1 (20%)
    # becomes president, his two shares go to the pool, one comes back to p2
    ordinary = [c.id for c in reg.certs_of("p2", "X") if not c.president]
    reg.give([ordinary[0], "X_0"], POOL, percent=20)
    assert reg.president("X") == "p1"
    assert reg.cert("X_0").holder == "p1"
    assert (reg.percent("X", "p1"), reg.percent("X", "p2"), reg.percent("X", POOL)) == (
        20,
        10,
        20,
    )
    assert reg.percent("X", IPO) == 50  # 20 + 10 + 20 + 50 = 100


def test_tie_goes_to_the_nearest_player_after_the_president():
    reg = ShareRegistry(["p1", "p2", "p3"])
    reg.add("X")
    reg.give(["X_0"], "p2")
    reg.give(["X_1", "X_2"], "p3")
    reg.give(["X_3", "X_4"], "p1")
    # p2 sells two shares' worth (its president's certificate): p3 and p1 hold 20% each;
    # p3 comes first after p2 in seat order and becomes president
    reg.give(["X_0"], POOL)
    assert reg.president("X") == "p3" and reg.cert("X_0").holder == "p3"
    assert reg.percent("X", POOL) == 20


# ---------------------------------------------------------------------- 1830 money
def test_1830_float_dividend_and_sale_arithmetic():
    money = _fresh("1836Jr30", "2809.json").rules.money
    p1, p2, p3 = money.players
    bank0 = money.cash(BANK)
    money.grid.set_par("B", 0, 6)  # par 100
    money.buy_certs(p1, ["B_0"], IPO)  # 2 x 100 = 200 to the bank
    money.buy_certs(p2, ["B_1", "B_2", "B_3"], IPO)  # 300
    assert "B" not in money.floated and money.cash("B") == 0  # 40% sold
    money.buy_certs(p1, ["B_4", "B_5"], IPO)  # 60% sold: B floats with 10 x 100
    assert "B" in money.floated and money.cash("B") == 1000
    assert money.cash(BANK) == bank0 + 700 - 1000
    money.registry.give(["B_6"], POOL)  # one share in the market
    # p1 40%, p2 30%, market 10%, IPO 20%; 135 paid out is 13.5 a share, rounded up per
    # holder: p1 4 x 13.5 = 54, p2 3 x 13.5 = 40.5 -> 41, B (market share) 13.5 -> 14
    before = {h: money.cash(h) for h in (p1, p2, "B")}
    money.dividend("B", "payout", 135)
    assert money.cash(p1) - before[p1] == 54
    assert money.cash(p2) - before[p2] == 41
    assert money.cash("B") - before["B"] == 14
    assert money.price("B") == 112  # paying moves right: 100 -> 112
    money.dividend("B", "withhold", 135)  # B keeps 135; withholding moves left
    assert money.cash("B") - before["B"] == 14 + 135 and money.price("B") == 100
    money.dividend("B", "payout", 0)  # no revenue: left, 100 -> 90
    assert money.price("B") == 90
    # p2 sells 20% at 90: receives 180; the price drops a row per share: (0,5) -> (2,5)
    cash = money.cash(p2)
    money.sell(p2, ["B_1", "B_2"], 20)
    assert money.cash(p2) - cash == 180 and money.price("B") == 76
    money.ledger.check_conserved()


def test_1830_money_errors_name_the_account():
    money = _fresh("1836Jr30", "2809.json").rules.money
    with pytest.raises(ReplayError, match="B has 0 and cannot pay 10"):
        money.pay("B", BANK, 10, "a token")
    # a bank that pays beyond its cash breaks (and may go on paying)
    money.pay(BANK, "B", money.cash(BANK) + 5, "test")
    assert money.bank_broken and money.cash(BANK) == -5


# ---------------------------------------------------------------------- 1856 money
def test_1856_escrow_capitalization_and_destination():
    rep = _fresh("1836jr56", "hotseat003.json")
    money, state = rep.rules.money, rep.state
    p1, p2 = money.players[:2]
    money.grid.set_par("B", 0, 4)  # par 100, B capitalized in escrow
    money.before_par("B")
    assert money.cap["B"] == "escrow"
    money.buy_certs(p1, ["B_0"], IPO)  # 200: B held 100% before the sale -> B
    money.buy_certs(p2, ["B_1"], IPO)  # IPO 80% before -> B
    money.buy_certs(p2, ["B_2"], IPO)  # 70% -> B
    money.buy_certs(p2, ["B_3"], IPO)  # 60% -> B: five shares paid in, 500
    money.buy_certs(p1, ["B_4"], IPO)  # 50% before: the bank holds 100 in escrow
    assert money.cash("B") == 500 and money.escrow["B"] == 100
    money._do_destination_connection(state, {"corporations": ["B"]})
    assert money.cash("B") == 600 and money.escrow["B"] is None
    assert money.cap["B"] == "incremental"
    money.buy_certs(p2, ["B_5"], IPO)  # incremental: every IPO sale pays B
    assert money.cash("B") == 700
    # a 20% sale moves the price down one row per 10% (down_per_10): (0,4) -> (2,4), 80
    money.sell(p2, ["B_1", "B_2"], 20)
    assert money.price("B") == 80


def test_1856_loans_and_interest():
    rep = _fresh("1836jr56", "hotseat003.json")
    money = rep.rules.money
    p1 = money.players[0]
    money.grid.set_par("B", 0, 4)
    money.before_par("B")
    money.buy_certs(p1, ["B_0", "B_1"], IPO)  # players hold 30%: at most 3 loans
    assert money.max_loans("B") == 3
    cash = money.cash("B")
    money._do_take_loan(None, {"entity": "B"})  # before interest this round: 100
    assert money.cash("B") - cash == 100
    money.took_loan.clear()
    money.paid_interest.add("B")
    money._do_take_loan(None, {"entity": "B"})  # after interest: 100 - 10 = 90
    assert money.cash("B") - cash == 190 and money.loans["B"] == 2
    money.loans["B"] = 3
    money.pay("B", BANK, money.cash("B") - 25)  # B keeps 25
    # 3 loans owe 30: B pays 20 (its cash in tens), 10 comes out of a run of 50
    turn = SimpleNamespace(sym="B", ran=True, revenue=50, extra={})
    money.pay_interest(turn)
    assert money.cash("B") == 5 and turn.extra["penalty"] == 10
    assert money.dividend_revenue(turn) == 40
    # no run: the president pays what the treasury cannot (he may go below zero)
    p1_cash = money.cash(p1)
    money.pay_interest(SimpleNamespace(sym="B", ran=False, revenue=None, extra={}))
    assert money.cash("B") == 5 and money.cash(p1) == p1_cash - 30
    # players sell down to 20%: 3 loans > 2 allowed, one is repaid (5 from B, 95 from p1)
    money.registry.give(["B_1"], POOL)
    p1_cash = money.cash(p1)
    money.force_repay("B")
    assert money.loans["B"] == 2 and money.cash("B") == 0 and money.cash(p1) == p1_cash - 95
    # at the end each 10% loses 10 per loan left: p1's 20% at 100 is worth 200 - 2 x 20
    assert money.share_value(p1) == 200 - 40


def test_1856_national_price():
    money = _fresh("1836jr56", "hotseat003.json").rules.money
    # three merged: the lowest (90) is dropped; 0.2 x (125 + 160) / 2 = 28.5 -> 28 x 5 = 140;
    # above 115 the price rounds to 25s: 140 % 25 = 15 >= 12.5 -> 150
    money.pre_prices = {"HSM": 125, "B": 160, "GCL": 90}
    assert money.national_price() == 150
    money.pre_prices = {"HSM": 90}  # 0.2 x 90 = 18 x 5 = 90 < 105 -> 100 (the minimum)
    assert money.national_price() == 100
    money.pre_prices = {"HSM": 110, "B": 115}  # 0.2 x 112.5 = 22.5 -> 110
    assert money.national_price() == 110


# ---------------------------------------------------------------------- private auction
def test_waterfall_auction_money():
    money = _fresh("1836Jr30", "2809.json").rules.money
    p1, p2, p3 = money.players  # 600 each

    def bid(p, company, price):
        money._do_bid(None, {"entity": p, "company": company, "price": price})

    def pass_(p):
        money._do_pass(None, {"entity": p, "entity_type": "player"})

    bid(p1, "E-SF", 45)  # not the cheapest: the bid waits, no money moves
    assert money.cash(p1) == 600
    bid(p2, "ACC", 20)  # the cheapest: bought at once; E-SF, now cheapest, goes to p1 at 45
    assert (money.cash(p1), money.cash(p2)) == (555, 580)
    bid(p2, "GCB", 110)
    bid(p3, "GCB", 115)
    bid(p1, "CdH", 70)  # p1 buys CdH; GCB has two bids: p2 and p3 bid it up
    assert money.auction.auctioning == "GCB" and money.cash(p1) == 485
    pass_(p2)  # p2 drops out: p3 pays 115
    assert money.cash(p3) == 485 and money.companies["GCB"].owner == p3
    for p in (p1, p2, p3):  # everybody passes with CFL the cheapest: the privates pay
        pass_(p)
    # p1: E-SF 10 + CdH 15; p2: ACC 5; p3: GCB 20
    assert (money.cash(p1), money.cash(p2), money.cash(p3)) == (510, 585, 505)
    money.ledger.check_conserved()


def test_waterfall_all_pass_lowers_the_cheapest_private():
    money = _fresh("1836Jr30", "2809.json").rules.money
    for p in money.players:  # nobody bids: ACC's price drops from 20 to 15
        money._do_pass(None, {"entity": p, "entity_type": "player"})
    assert money.auction.discount == {"ACC": 5}
    for _ in range(3):  # three more rounds of passes: 15 -> 10 -> 5 -> 0, the next takes it
        for p in money.players:
            money._do_pass(None, {"entity": p, "entity_type": "player"})
    assert money.companies["ACC"].owner == money.players[0]  # after the last passer
    assert money.cash(money.players[0]) == 600  # for nothing


def test_replay_report_carries_the_final_result():
    from engine.replay import replay

    path = RECORDS / "1836jr56" / "hotseat003.json"
    report = replay(path, solve=False)
    raw = json.loads(path.read_text())
    assert report.final.result == {str(k): v for k, v in raw["result"].items()}
    assert report.final.reason == "bankrupt"
    # Player 1 ends below zero: cash 0 after bankruptcy, then B's forced repayment of a loan
    # (100) falls on him; his 20% of B at 60 less 20 for each of B's 8 loans, plus ACC (20):
    # -100 + 120 - 160 + 20 = -120
    p1 = next(p for p in report.final.players if p.id == "Player 1")
    assert (p1.cash, p1.shares, p1.companies, p1.value) == (-100, -40, 20, -120)
