"""1862 USA/Canada (Ohley) rules engine: hand-built checks of the special rules.

The rulebook is ``shared/seeds/1862-usa-canada-ohley-rules.txt`` (sections quoted per test).
Market (rows top to bottom, 0-based; par squares in column 5):
row 0: _ _ _ 85 92 100p 110 120 ... 330 375 425e ...; row 1: _ _ 70 80 85 92p 100 ...;
row 9: 10 20 30 40 50; row 10: CL 10 25 35.

The standard opening used below (:func:`_isr`): with four players A-D each in turn buys
the private on sale at its printed price: A BOM 20 + PSC 150, B ERIE 40 + FNY 180, C BO 70 +
SOC 220, D RMC 100 + NYSH 270 (then sets NYH's par at 100).  Cash after it: A 430, B 380,
C 310, D 230; B holds two NYC 10 % shares aside (FNY), D the NYH 30 % president's share.
"""

from __future__ import annotations

import pytest

from engine.game import IllegalAction, invariants
from engine.game.shares import POOL
from engine.games import load_game, new_game
from engine.games.g1862 import economy as eco
from engine.games.g1862.game import Game1862

PLAYERS = ["A", "B", "C", "D"]


def _isr(game: Game1862) -> None:
    """Every player in turn buys the private on sale; NYSH's buyer pars NYH at 100."""
    while game.round.kind == "initial":
        legal = game.legal_actions()
        par = [a for a in legal if a["type"] == "par"]
        if par:
            game.apply(next(a for a in par if a["share_price"] == 100))
            continue
        game.apply(next(a for a in legal if a["type"] == "bid" and "min_price" not in a))


def _pass_stock(game: Game1862) -> None:
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})


def _nyc_game() -> Game1862:
    """A pars NYC at 100 (300 for the 30 %), B's two FNY shares join, B buys one more:
    60 % out of the initial offering, NYC floats with 10 x 100 = 1000."""
    game = Game1862(PLAYERS, 1)
    _isr(game)
    game.apply({"type": "par", "entity": "A", "corporation": "NYC", "share_price": 100})
    game.apply({"type": "buy_shares", "entity": "B", "corporation": "NYC",
                "source": "treasury", "percent": 10, "shares": ["NYC_3"]})  # fmt: skip
    return game


def _give_train(game: Game1862, op: str, name: str) -> None:
    """Hand-built: ``op`` takes the next depot train called ``name`` (price paid)."""
    state = game.state
    ident = next(t for t in state.depot if state.trains[t].sym == name)
    state.depot.remove(ident)
    state.trains[ident].owner = op
    game.pay(op, "bank", int(state.train_spec(state.trains[ident])["price"]))
    _touch(game)


def _to_stage(game: Game1862, op: str, stage: str) -> None:
    """Pass (or run, or withhold) until ``op`` reaches ``stage`` of its turn."""
    for _ in range(300):
        t = game.or_turn
        if game.round.kind == "operating" and t is not None and t.op == op and t.stage == stage:
            return
        legal = game.legal_actions()
        pick = next((a for a in legal if a["type"] in ("pass", "run_routes")), None)
        pick = pick or next((a for a in legal if a.get("kind") == "withhold"), legal[0])
        game.apply(pick)
    raise AssertionError(f"{op} never reached {stage}")


def _place(game: Game1862, corp: str, pos: tuple[int, int]) -> None:
    """Hand-built: put ``corp``'s price marker on ``pos``."""
    game.market.remove(corp)
    game.market.place(corp, *pos)
    _touch(game)


def _touch(game: Game1862) -> None:
    """After a hand-built change: the cached legal actions are stale."""
    game._version += 1
    game._legal_cache = None


def _finish_round(game: Game1862) -> None:
    """Play the current operating round passively (pass, run, withhold)."""
    kind = game.round.kind
    while game.round.kind == kind:
        legal = game.legal_actions()
        pick = next((a for a in legal if a["type"] in ("pass", "run_routes")), None)
        game.apply(pick or next((a for a in legal if a.get("kind") == "withhold"), legal[0]))


# ---------------------------------------------------------------------- setup, initial SR
def test_setup_money_trains_and_first_turn():
    game = Game1862(PLAYERS, 1)
    # §Player Starting Capital: 4 players 600; the bank keeps 22,000 - 4 x 600 = 19,600
    assert [game.cash(p) for p in PLAYERS] == [600] * 4
    assert game.cash("bank") == 19_600
    # 42 train cards: 2:7 3:6 4:5 5:4 6:3 8:2 10:7 and 2 of each E-train
    assert len(game.state.trains) == 42
    assert game.round.kind == "initial" and game.round.current == "A"
    legal = game.legal_actions()
    # only certificate 1 (BOM, 20) is bought; later ones take bids of printed price + 5
    assert {"type": "bid", "entity": "A", "company": "BOM", "price": 20} in legal
    erie = next(a for a in legal if a.get("company") == "ERIE")
    assert (erie["min_price"], erie["max_price"]) == (45, 600)
    with pytest.raises(ValueError, match="4-7 players"):
        Game1862(["A", "B", "C"], 1)


def test_bids_overbid_choice_single_bid_sale_and_auction():
    """§Initial Stock Round: earmarked bids, keep-or-withdraw, one bid sells at once,
    two bids go to an auction from the bidder left of the highest one."""
    game = Game1862(PLAYERS, 1)
    game.apply({"type": "bid", "entity": "A", "company": "ERIE", "price": 45})
    # A's 45 is earmarked: 600 - 45 = 555 free
    assert game._free_cash("A") == 555 and game.cash("A") == 600
    game.apply({"type": "bid", "entity": "B", "company": "ERIE", "price": 50})
    # A, overbid, chooses at once: keep (pass) or withdraw
    assert {a["type"] for a in game.legal_actions()} == {"pass", "withdraw_bid"}
    game.apply({"type": "pass", "entity": "A"})
    # a new bid must beat the highest (50) by at least 5
    with pytest.raises(IllegalAction, match="outside 55-600"):
        game.apply({"type": "bid", "entity": "C", "company": "ERIE", "price": 51})
    game.apply({"type": "bid", "entity": "C", "company": "BOM", "price": 20})
    # ERIE has two bids: auction from the left of B (the 50 bid): C, D bid nothing -> A
    legal = game.legal_actions()
    assert legal[0]["entity"] == "A" and legal[0]["min_price"] == 55
    assert legal[0]["max_price"] == 600  # his free 555 plus his own 45 on ERIE
    game.apply({"type": "bid", "entity": "A", "company": "ERIE", "price": 55})
    game.apply({"type": "pass", "entity": "B"})
    assert game.state.companies["ERIE"]["owner"] == "A"
    assert game.cash("A") == 600 - 55 and game.cash("B") == 600 and game.cash("C") == 580
    # D (next after C) bids 105 on RMC; A buys BO (70): RMC has one bid, D gets it at 105
    assert game.round.current == "D"
    game.apply({"type": "bid", "entity": "D", "company": "RMC", "price": 105})
    game.apply({"type": "bid", "entity": "A", "company": "BO", "price": 70})
    assert game.state.companies["RMC"]["owner"] == "D" and game.cash("D") == 600 - 105
    assert game.privates_unsold() == ["PSC", "FNY", "SOC", "NYSH"]
    invariants(game)


def test_withdrawn_bid_frees_the_money_and_leaves_one_bidder():
    game = Game1862(PLAYERS, 1)
    game.apply({"type": "bid", "entity": "A", "company": "ERIE", "price": 45})
    game.apply({"type": "bid", "entity": "B", "company": "ERIE", "price": 50})
    game.apply({"type": "withdraw_bid", "entity": "A", "company": "ERIE"})
    assert game._free_cash("A") == 600 and game.bids == {"ERIE": {"B": 50}}
    # C buys BOM: ERIE has B's bid only and goes to B at 50 at once
    game.apply({"type": "bid", "entity": "C", "company": "BOM", "price": 20})
    assert game.state.companies["ERIE"]["owner"] == "B" and game.cash("B") == 550
    assert game.privates_unsold()[0] == "BO" and game.round.current == "D"


def test_certificate_one_is_offered_cheaper_until_free():
    """All pass: BOM is offered 5$ cheaper to each next player; at 0$ it must be taken."""
    game = Game1862(PLAYERS, 1)
    for p in PLAYERS:
        game.apply({"type": "pass", "entity": p})
    prices = []
    for p in ("A", "B", "C"):
        prices.append(next(a["price"] for a in game.legal_actions() if a["type"] == "bid"))
        game.apply({"type": "pass", "entity": p})
    assert prices == [15, 10, 5]
    # D is offered it at 0: buying is the only choice
    assert game.legal_actions() == [{"type": "bid", "entity": "D", "company": "BOM", "price": 0}]
    game.apply(game.legal_actions()[0])
    assert game.state.companies["BOM"]["owner"] == "D" and game.cash("D") == 600


def test_unsold_privates_end_the_round_with_private_revenue_only():
    """All pass with ERIE on sale: an operating round paying only BOM's 5$, then another
    initial stock round led by the player left of the last one who acted (A)."""
    game = Game1862(PLAYERS, 1)
    game.apply({"type": "bid", "entity": "A", "company": "BOM", "price": 20})
    for p in ("B", "C", "D", "A"):
        game.apply({"type": "pass", "entity": p})
    assert game.round.kind == "initial" and game.turn == 2
    assert game.cash("A") == 600 - 20 + 5
    assert game.round.current == "B"


def test_privates_bring_shares_and_nysh_buyer_sets_nyh_par():
    game = Game1862(PLAYERS, 1)
    _isr(game)
    assert [game.cash(p) for p in PLAYERS] == [430, 380, 310, 230]
    # NYSH: D holds the NYH 30 % president's share, par 100 set without paying
    assert game.shares.president("NYH") == "D" and game.shares.percent("NYH", "D") == 30
    assert game.market.par_price("NYH") == 100 and not game.state.operators["NYH"].floated
    # FNY's two NYC shares wait for NYC's par; they count against B's limit (2 privates + 2)
    assert game.granted["NYC"] == [("B", 10), ("B", 10)] and game.num_certs("B") == 4
    # the initial stock round goes on as a stock round without sales; group 1 only
    assert game.round.kind == "stock" and game.round.data["initial"]
    legal = game.legal_actions()
    assert not any(a["type"] == "sell_shares" for a in legal)
    assert {a["corporation"] for a in legal if a["type"] == "par"} == {"NYC", "CP"}
    with pytest.raises(IllegalAction, match="group 2"):
        game.apply({"type": "par", "entity": "A", "corporation": "CPR", "share_price": 100})
    invariants(game)


def test_par_float_and_capital_from_the_bank():
    """§Starting a Public Company: NYC's 30 % costs 3 x 100; with B's 20 % (FNY) and one
    more 10 % bought at par, 60 % is sold and the bank pays NYC 10 x 100."""
    game = Game1862(PLAYERS, 1)
    _isr(game)
    bank = game.cash("bank")
    game.apply({"type": "par", "entity": "A", "corporation": "NYC", "share_price": 100})
    assert game.cash("A") == 430 - 300 and game.shares.percent("NYC", "B") == 20
    assert not game.state.operators["NYC"].floated
    game.apply({"type": "buy_shares", "entity": "B", "corporation": "NYC",
                "source": "treasury", "percent": 10, "shares": ["NYC_3"]})  # fmt: skip
    assert game.state.operators["NYC"].floated and game.cash("NYC") == 1000
    assert game.cash("bank") == bank + 300 + 100 - 1000


def test_groups_open_in_turn_and_stay_open():
    """§Buying Shares: group 2 once no group-1 share is left in the initial offering,
    group 3 once every group-2 company floated; a later closing shuts nothing."""
    game = Game1862(PLAYERS, 1)
    _isr(game)
    for corp, price in (("NYC", 100), ("CP", 70)):
        game.apply({"type": "par", "entity": game.round.current, "corporation": corp,
                    "share_price": price})  # fmt: skip
    for corp in ("NYH", "NYC", "CP"):  # hand-built: every offered share sold to C
        game.shares.move([c.id for c in game.ipo_certs(corp)], "C")
    _touch(game)
    game.apply({"type": "pass", "entity": game.round.current})
    assert game.groups_open == {1, 2}
    assert any(a.get("corporation") == "CPR" for a in game.legal_actions() if a["type"] == "par")
    for corp in ("CPR", "UP", "ATS", "SP"):
        game.state.operators[corp].floated = True  # hand-built
    game.apply({"type": "pass", "entity": game.round.current})
    assert game.groups_open == {1, 2, 3}


# ---------------------------------------------------------------------- stock round
def test_sale_prices_floated_and_not_floated_and_sold_out_rise():
    """§Selling Shares: a floated company pays the price before the move (one row down),
    one not floated the price after it."""
    game = _nyc_game()
    game.apply({"type": "buy_shares", "entity": "C", "corporation": "NYH",
                "source": "treasury", "percent": 10, "shares": ["NYH_1"]})  # fmt: skip
    _pass_stock(game)
    _finish_round(game)
    # OR 1: NYC has no train: no income, the price falls (0,5) 100 -> (0,4) 92
    assert game.round.kind == "stock" and game.market.price("NYC") == 92
    assert game.market.where["NYC"] == (0, 4)
    p = game.round.current
    while p != "B":
        game.apply({"type": "pass", "entity": p})
        p = game.round.current
    cash = game.cash("B")
    game.apply({"type": "sell_shares", "entity": "B", "corporation": "NYC", "percent": 10})
    # floated: B gets 92 (before), NYC moves down to (1,4) = 85
    assert game.cash("B") == cash + 92 and game.market.where["NYC"] == (1, 4)
    game.apply({"type": "pass", "entity": "B"})
    game.apply({"type": "sell_shares", "entity": "C", "corporation": "NYH", "percent": 10})
    # NYH not floated, at (0,5) 100: down to (1,5) = 92 first, C gets 92 (C also had the
    # OR's private revenue: BO 15 + SOC 35)
    assert game.cash("C") == 310 - 100 + 15 + 35 + 92 and game.market.price("NYH") == 92
    assert len(game.pool_certs("NYH")) == 1
    invariants(game)


def test_certificate_and_holding_limits():
    game = _nyc_game()
    # §Certificate Limit: 4 players, 13 companies: 22; 12 companies: 20; 60/70 %
    assert game.cert_limit("A") == 22 and game.holding_limit("NYC") == 70
    game.out.append("SP")
    assert game.cert_limit("A") == 20
    # the rulebook's example: 5 players, 13 companies 18 -> 4 players, 10 companies 16
    five = Game1862(PLAYERS + ["E"], 1)
    assert five.cert_limit("A") == 18 and five.holding_limit("NYC") == 60
    five.bankrupt.append("E")
    five.out.extend(["CPR", "UP", "ATS"])
    assert five.cert_limit("A") == 16 and five.holding_limit("NYC") == 70


# ---------------------------------------------------------------------- operating round
def test_yellow_phase_one_lay_then_green_two_or_an_upgrade():
    game = _nyc_game()
    _pass_stock(game)
    assert game.or_turn.op == "NYC" and game.state.tokens[("F28", 0)] == ["NYC"]
    lays = [a for a in game.legal_actions() if a["type"] == "lay_tile"]
    assert {a["hex"] for a in lays} == {"G27"}
    game.apply(next(a for a in lays if a["tile"] == "57" and a["rotation"] == 0))
    # yellow phase: one tile; the turn moves on to the station marker
    assert not any(a["type"] == "lay_tile" for a in game.legal_actions())
    # hand-built green phase at NYC's next turn: two yellow lays or one upgrade
    _pass_stock_until_nyc_track(game)
    game.state.phase_index = 1
    _touch(game)
    legal = game.legal_actions()
    assert any(a["hex"] == "F28" and a["tile"] == "NY_G" for a in legal if "tile" in a)
    assert any(a["hex"] == "G27" and a["tile"] == "15" for a in legal if "tile" in a)
    # a yellow tile on H26 (a white hex); then a second yellow tile but no upgrade
    game.apply(next(a for a in legal if a.get("hex") == "H26"))
    after = [a for a in game.legal_actions() if a["type"] == "lay_tile"]
    assert after and all(game.state.board.color(a["hex"]) == "white" for a in after)
    game.apply(after[0])
    assert not any(a["type"] == "lay_tile" for a in game.legal_actions())
    # an upgrade instead ends the turn's track building at once
    _pass_stock_until_nyc_track(game)
    game.apply(next(a for a in game.legal_actions() if a.get("tile") == "NY_G"))
    assert not any(a["type"] == "lay_tile" for a in game.legal_actions())


def _pass_stock_until_nyc_track(game: Game1862) -> None:
    for _ in range(300):
        t = game.or_turn
        if game.round.kind == "operating" and t and t.op == "NYC" and t.stage == "track" \
                and not t.lays:  # fmt: skip
            return
        legal = game.legal_actions()
        pick = next((a for a in legal if a["type"] == "pass"), None)
        game.apply(pick or next((a for a in legal if a.get("kind") == "withhold"), legal[0]))
    raise AssertionError("NYC never reached its track stage")


def test_station_marker_costs_across_the_border():
    """§Placing Station Markers: 40$ then 100$, 1.5 times across the border."""
    game = _nyc_game()
    _pass_stock(game)
    # NYC (US) has its home token; its next marker costs 40 in the US, 60 in Canada
    assert game.token_cost("NYC", "G27") == 40 and game.token_cost("NYC", "E25") == 60
    # CP (home Montreal, Canada), once its home marker is down: 60 in the US, 40 in Canada
    game.state.place_home("CP")
    assert game.token_cost("CP", "G27") == 60 and game.token_cost("CP", "D26") == 40
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    tok = next(a for a in game.legal_actions() if a.get("hex") == "G27")
    assert (tok["type"], tok["cost"]) == ("place_token", 40)
    game.apply(tok)
    # the third marker costs 100 (150 across the border)
    assert game.token_cost("NYC", "H26") == 100 and game.token_cost("NYC", "E25") == 150
    assert game.cash("NYC") == 1000 - 40


def test_run_payout_and_price_moves_right():
    """F28 NY (20) - G27 (57: 20) with a 2-train: 40; paid out 4 per 10 %: A 30 % 12,
    B 30 % 12, the 40 % in the initial offering stays in the bank; (0,5) 100 -> (0,6) 110."""
    game = _nyc_game()
    _pass_stock(game)
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    _give_train(game, "NYC", "2")
    _to_stage(game, "NYC", "route")
    game.apply({"type": "run_routes", "entity": "NYC"})
    assert game.or_turn.revenue == 40
    a, b, bank = game.cash("A"), game.cash("B"), game.cash("bank")
    game.apply({"type": "dividend", "entity": "NYC", "kind": "payout"})
    assert (game.cash("A") - a, game.cash("B") - b, bank - game.cash("bank")) == (12, 12, 24)
    assert game.market.where["NYC"] == (0, 6) and game.market.price("NYC") == 110
    # FNY closes when NYC pays its first dividend
    assert game.state.companies["FNY"]["closed"]
    invariants(game)


def test_redemption_worked_example_500_and_900_debt():
    """§Share Redemption / Example: green phase, price 100; A 30 % + 10 %, B 10 % + 10 %,
    C 10 %, initial offering 10 %, pool 10 % + 10 %.  Half of every share at 100:
    A 150 + 50 = 200, B 100, C 50, offering 50 and pool 100 (to the bank): 500.
    Debt: 500 / 60 per 100 -> 9 x 100 = 900 owed, 540 paid, 40 left for the treasury."""
    game = _nyc_game()
    _pass_stock(game)
    owners = {"NYC_0": "A", "NYC_1": "A", "NYC_2": "B", "NYC_3": "B", "NYC_4": "C",
              "NYC_5": "NYC", "NYC_6": POOL, "NYC_7": POOL}  # fmt: skip
    for cid, owner in owners.items():
        game.shares.move([cid], owner)
    game.state.phase_index = 1  # green
    _touch(game)
    _to_stage(game, "NYC", "redeem")
    _place(game, "NYC", (0, 5))
    treasury = game.cash("NYC")
    cash = {h: game.cash(h) for h in ("A", "B", "C", "bank")}
    redeem = [a for a in game.legal_actions() if a["type"] == "buy_shares"]
    assert {a["source"] for a in redeem} == {"debt", "treasury"}
    assert all(a["price"] == 500 for a in redeem)
    game.apply(next(a for a in redeem if a["source"] == "debt"))
    gained = {h: game.cash(h) - cash[h] for h in cash}
    assert gained == {"A": 200, "B": 100, "C": 50, "bank": 50 + 100 - 540}
    assert game.cash("NYC") - treasury == 40 and game.debt["NYC"] == 900
    pct = {h: sorted(c.percent for c in game.shares.certs_of(h, "NYC"))
           for h in ("A", "B", "C", "NYC", POOL)}  # fmt: skip
    assert pct == {"A": [5, 5, 10], "B": [5, 5], "C": [5], "NYC": [5, 50], POOL: [5, 5]}
    assert game.shares.president("NYC") == "A" and game.redeemed("NYC")
    invariants(game)
    # §Income Reckoning: of 150, each 5 % gets 8 (rounded up), the company's 50 % the rest
    # 150 - 10 x 8 = 70; A's 20 % = 4 x 8 = 32
    amounts = game.dividend_amounts("NYC", 150)
    assert amounts == {"A": 32, "B": 16, "C": 8, "NYC": 70}
    assert (
        eco.distribute_dividend(
            150, {"x": [10, 5, 5, 5, 5, 5, 5, 5, 5], eco.COMPANY: [50]}
        ).amounts[eco.COMPANY]
        == 70
    )


def test_closed_square_closes_the_company_and_its_markers_turn_blank():
    """§Share Price 0: from (9,0) 10$ no income moves left, then down onto the closed
    square; treasury to the bank, shares gone, the marker stays as a blank blocker, the
    certificate limit falls to the 12-company row (22 -> 20)."""
    game = _nyc_game()
    _pass_stock(game)
    _place(game, "NYC", (9, 0))
    bank = game.cash("bank")
    _to_stage(game, "NYC", "token")
    game.apply({"type": "pass", "entity": "NYC"})  # no trains: withhold 0, left -> closed
    assert game.out == ["NYC"] and game.state.operators["NYC"].closed
    assert game.cash("bank") == bank + 1000 and game.cash("NYC") == 0
    assert "NYC" not in game.shares.by_corp and not game.shares.certs_of("B")
    assert game.state.blanks() == [("F28", 0, "NYC")]
    assert game.state.city_room("F28", 0, "NYH") is not None
    assert game.cert_limit("A") == 20
    invariants(game)


def test_forced_train_purchase_president_pays_and_bankruptcy():
    """§Purchasing Trains: a company with a route and no train must buy one; short of the
    cheapest (100) the president pays the difference.  §Bankruptcy when he cannot."""
    game = _nyc_game()
    _pass_stock(game)
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    _to_stage(game, "NYC", "train")
    game.pay("NYC", "bank", 1000 - 30)  # hand-built: 30 left in the treasury
    _touch(game)
    legal = game.legal_actions()
    assert not any(a["type"] == "pass" for a in legal)
    buy = next(a for a in legal if a["type"] == "buy_train")
    assert buy["price"] == 100 and buy["train"] == "2-0"
    a = game.cash("A")
    game.apply(buy)
    assert game.cash("A") == a - 70 and game.cash("NYC") == 0
    assert game.state.trains["2-0"].owner == "NYC"


def test_bankruptcy_closes_the_presidents_companies_and_pays_the_others():
    game = _nyc_game()
    _pass_stock(game)
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    _to_stage(game, "NYC", "train")
    game.pay("NYC", "bank", 1000)
    game.pay("A", "bank", game.cash("A") - 40)  # A: 40 cash, only NYC shares (president)
    _touch(game)
    legal = game.legal_actions()
    assert {"type": "bankrupt", "entity": "NYC"} in legal
    b = game.cash("B")
    game.apply({"type": "bankrupt", "entity": "NYC"})
    # NYC leaves the game; B's 30 % is paid at the current price (no income in this OR:
    # 100 -> 92): 3 x 92 = 276; A owes the 2-train's 100 less NYC's 0 and his 40: 60
    assert game.bankrupt == ["A"] and game.out == ["NYC"]
    assert game.cash("B") == b + 276
    assert game.player_debt["A"] == 60 and game.player_value("A") == 40 - 60
    assert all(game.state.companies[c]["closed"] for c in ("BOM", "PSC"))
    invariants(game)


def _drop_depot(game: Game1862, name: str) -> None:
    """Hand-built: the depot's ``name`` trains leave the game unsold."""
    state = game.state
    for ident in [t for t in state.depot if state.trains[t].sym == name]:
        state.depot.remove(ident)
        state.trains[ident].owner = None


def test_fourth_train_scraps_twos_and_e_trains_follow_their_series():
    """§Effects of Purchasing New Trains: the first 4 scraps the 2s (limit 3), the first 5
    makes 5E available (limit 2); excess trains go back to the bank (owner's choice)."""
    game = _nyc_game()
    _pass_stock(game)
    state = game.state
    _give_train(game, "NYC", "2")
    _drop_depot(game, "2")
    state.buy_train("NYC", state.depot_trains()[0].id)  # the first 3: phase 3
    assert state.phase_name == "3" and game.train_limit("NYC") == 4
    _drop_depot(game, "3")
    assert [t.sym for t in state.depot_trains()] == ["4"]
    state.buy_train("NYC", state.depot_trains()[0].id)
    assert state.phase_name == "4" and game.train_limit("NYC") == 3
    assert [t.sym for t in state.trains_of("NYC")] == ["3", "4"]  # the 2 is scrapped
    assert "5E" not in {t.sym for t in state.depot_trains()}
    _drop_depot(game, "4")
    state.buy_train("NYC", state.depot_trains()[0].id)
    assert {t.sym for t in state.depot_trains()} == {"5", "5E"}
    # limit 2 with three trains: NYC returns one, which is for sale again at full price
    _touch(game)
    discard = game.pending_actions()
    assert {a["train"] for a in discard} == {t.id for t in state.trains_of("NYC")}
    game.apply(next(a for a in discard if a["train"].startswith("3-")))
    assert [t.sym for t in state.trains_of("NYC")] == ["4", "5"]
    assert "3" in {t.sym for t in state.depot_trains()}


def test_rocky_mountain_company_lays_an_extra_tile_160_off_and_closes():
    """§Special Abilities: RMC's owner, president of a company, lays an additional yellow
    tile with up to 160$ of the printed cost waived (a 40$ hill costs 0)."""
    game = Game1862(PLAYERS, 1)
    _isr(game)  # D owns RMC
    game.apply({"type": "pass", "entity": "A"})
    game.apply({"type": "pass", "entity": "B"})
    game.apply({"type": "pass", "entity": "C"})
    game.apply({"type": "par", "entity": "D", "corporation": "CP", "share_price": 70})
    for p, cert in (("A", "CP_1"), ("B", "CP_2"), ("C", "CP_3")):
        game.apply({"type": "buy_shares", "entity": p, "corporation": "CP",
                    "source": "treasury", "percent": 10, "shares": [cert]})  # fmt: skip
    assert game.state.operators["CP"].floated  # 30 + 3 x 10 = 60 %
    _pass_stock(game)
    assert game.or_turn.op == "CP"
    rmc = [a for a in game.legal_actions() if a["entity"] == "RMC"]
    assert rmc and all(a["cost"] == 0 for a in rmc)
    game.apply(rmc[0])
    assert game.state.companies["RMC"]["closed"] and game.cash("CP") == 700
    # the company's own lay is still there
    assert any(a["type"] == "lay_tile" and a["entity"] == "CP" for a in game.legal_actions())


def test_game_end_above_379_after_the_set_debt_paid_back_and_scores():
    """§Ending the Game: a price above 379$ ends the game after the current set; debt is
    paid back (the president makes up the rest); scores are cash plus shares."""
    game = _nyc_game()
    _pass_stock(game)
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    _give_train(game, "NYC", "2")
    _to_stage(game, "NYC", "route")
    game.apply({"type": "run_routes", "entity": "NYC"})
    _place(game, "NYC", (0, 17))  # 375
    game.debt["NYC"] = 1000  # hand-built: NYC holds 900, A pays the other 100
    _touch(game)
    game.apply({"type": "dividend", "entity": "NYC", "kind": "payout"})
    assert game.market.price("NYC") == 425 and game.end_trigger[0] == "stock_market"
    a = game.cash("A")
    while not game.finished:
        legal = game.legal_actions()
        game.apply(next((x for x in legal if x["type"] == "pass"), legal[0]))
    # no stock round after the set of operating rounds (one in the yellow phase)
    assert game.end_reason == "stock_market" and game.round.kind == "operating"
    assert game.cash("A") == a - 100 and game.cash("NYC") == 0
    # A: cash + 30 % at 425 (NYC_0); B: cash + 30 %
    assert game.result()["A"] == game.cash("A") + 3 * 425
    assert game.result()["B"] == game.cash("B") + 3 * 425


# ---------------------------------------------------------------------- engine contract
def test_illegal_action_names_the_rule_and_leaves_the_game_unchanged():
    game = Game1862(PLAYERS, 1)
    _isr(game)
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="not A's turn|B"):
        game.apply({"type": "pass", "entity": "B"})
    with pytest.raises(IllegalAction):
        game.apply({"type": "sell_shares", "entity": "A", "corporation": "NYH", "percent": 10})
    assert game.to_dict() == before


def test_save_and_load_replay_the_same_game():
    game = _nyc_game()
    _pass_stock(game)
    game.apply({"type": "lay_tile", "entity": "NYC", "hex": "G27", "tile": "57",
                "rotation": 0})  # fmt: skip
    again = load_game(game.to_dict())
    assert again.to_dict() == game.to_dict() and again.result() == game.result()
    same = new_game("1862UsaCanada", PLAYERS, 1, actions=game.actions)
    assert same.state.board.tile("G27").name == "57"
