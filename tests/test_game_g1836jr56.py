"""1836Jr-56 rules engine: hand-built checks of each 1856 rule, with their arithmetic.

Facts: the seed rulebook (../shared/seeds/1836jr-rules.txt, 1836Jr-56 = 1856 with changes)
and tobymao/18xx @111f7f69 (g_1836_jr56/game.rb; g_1856/game.rb, corporation.rb,
round/operating.rb, step/loan.rb, dividend.rb, cash_crisis.rb, nationalization_payoff.rb).
Market row 0: 70 75 80 90 [100p] 110 125 150 ...; par prices 100 90 80 75 70 65; privates
ACC 20, E-SF 40, CdH 50, RdP 70 (revenue 5, 10, 10, 15); loans of 100 at 10 interest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import IllegalAction, invariants
from engine.game.shares import POOL
from engine.game.state import DEPOT
from engine.games import new_game
from engine.games.g1836jr56.game import Game1836Jr56
from engine.games.records import replay_record_game
from tests.bot_support import to_stage

BANK = "bank"


def _auction(game: Game1836Jr56) -> None:
    """Each player in turn buys the cheapest private at face value."""
    while game.round.kind == "auction":
        first = game.round.data["available"][0]
        game.apply({"type": "bid", "entity": game.round.current, "company": first,
                    "price": game.min_bid(first)})  # fmt: skip


def _refresh(game: Game1836Jr56) -> None:
    """Re-read the legal actions after a hand-built change of the state."""
    game._version += 1
    game._legal_cache = None
    game._advance()


def _pass(game: Game1836Jr56, player: str) -> None:
    """End ``player``'s stock turn (unless the engine already took his lone pass)."""
    if game.round.kind == "stock" and game.round.current == player:
        game.apply({"type": "pass", "entity": player})


def _buy_ipo(game: Game1836Jr56, player: str, corp: str) -> None:
    buy = next(
        a for a in game.legal_actions()
        if a["type"] == "buy_shares" and a["corporation"] == corp and a["source"] == "treasury"
    )  # fmt: skip
    assert buy["entity"] == player
    game.apply(buy)
    _pass(game, player)


def _export_until(game: Game1836Jr56, name: str) -> None:
    """The bank's trains before the first ``name`` leave the game one by one, as if bought:
    phases change and every train event fires."""
    state = game.state
    while state.trains[state.depot[0]].sym != name:
        card = state.trains[state.depot[0]]
        state._take(card)
        card.owner = None
        state.train_bought(card, DEPOT)


def _corp(game, corp, par, president, holders=(), cash=0, loans=0) -> None:
    """A hand-built started incremental corporation (its cash from the bank)."""
    game.create_shares(corp)
    game.market.par(corp, par)
    game.shares.par(corp, president)
    game.cap[corp], game.escrow[corp] = "incremental", None
    for p in holders:
        game.shares.buy(p, game.shares.ordinary(corp, corp)[0].id)
    game.start(corp)
    game.pay(BANK, corp, cash)
    game.loans[corp] = loans
    game.state.place_home(corp)


def _to_stage(game: Game1836Jr56, op: str, stage: str) -> None:
    to_stage(game, op, stage, limit=200)


def _nord_escrow_game() -> Game1836Jr56:
    """2 players; P1 pars the Nord at 100 and the two buy four more IPO shares in turn."""
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)  # P1 ACC 20 + CdH 50 = 380 left; P2 E-SF 40 + RdP 70 = 340 left
    for p in game.seats:
        game.pay(BANK, p, 1000)
    _refresh(game)
    game.apply({"type": "par", "entity": "P1", "corporation": "Nord", "share_price": 100})
    _pass(game, "P1")
    for p in ("P2", "P1", "P2", "P1", "P2"):
        _buy_ipo(game, p, "Nord")
    return game


# ---------------------------------------------------------------------------------- setup
def test_setup_cash_limits_and_par_prices():
    game = new_game("1836Jr-56", ["P1", "P2", "P3", "P4"], 1)
    # 4 players: F225 each out of the F6000 bank; certificate limit 10
    assert [game.cash(p) for p in game.seats] == [225] * 4
    assert game.cash(BANK) == 6000 - 4 * 225
    assert game.cert_limit("P1") == 10
    assert game.par_prices() == [100, 90, 80, 75, 70, 65]
    assert game.percent_to_operate == 20 and game.game_cap == "escrow"
    with pytest.raises(ValueError, match="optional rule"):
        new_game("1836Jr56", ["P1", "P2"], 1, options=["eight_train_variant"])
    diesel = new_game("1836Jr56", ["P1", "P2"], 1, options=["diesel_variant"])
    assert {c.sym for c in diesel.state.trains.values()} == {"2", "3", "4", "5", "6", "D"}
    _auction(game)
    before = game.to_dict(), dict(game.ledger.balances)
    with pytest.raises(IllegalAction, match="national"):
        game.apply({"type": "par", "entity": game.round.current, "corporation": "MESS",
                    "share_price": 100})  # fmt: skip
    with pytest.raises(IllegalAction, match="has not formed"):
        game.apply({"type": "buy_shares", "entity": game.round.current, "corporation": "MESS",
                    "source": "treasury", "percent": 10})  # fmt: skip
    assert (game.to_dict(), dict(game.ledger.balances)) == before


# ---------------------------------------------------------------------------------- capital
def test_escrow_capitalisation_pays_five_shares_and_holds_the_rest():
    game = _nord_escrow_game()
    # par 100: the 20% certificate's 200 goes to the Nord (its IPO held 100% > 50%)
    # IPO sales at 80%, 70% and 60% (each > 50% before the sale): 3 x 100 more -> 500
    # IPO sales at 50% and 40%: 2 x 100 held by the bank in escrow
    assert game.cash("Nord") == 500 and game.escrow["Nord"] == 200
    assert game.cap["Nord"] == "escrow"
    assert game.cash("P1") == 380 + 1000 - 200 - 100 - 100
    assert game.cash("P2") == 340 + 1000 - 300
    assert game.cash(BANK) == 6000 - 2 * 450 + 110 + 70 - 2000 + 200
    invariants(game)


def test_reaching_the_destination_releases_escrow():
    game = _nord_escrow_game()
    # track I3 -> I5 -> I7 (hand-laid straights): the Nord's destination I9 is not reached
    game.state.lay_tile("I5", "9-0", 1)
    game.state.lay_tile("I7", "9-1", 1)
    assert not game.hexes_connected("I3", "I9")
    _pass(game, "P1")
    _pass(game, "P2")
    # OR 1: the Nord (70% sold, 20% needed) starts and lays a city on I9 (river: 40)
    assert game.or_turn.op == "Nord" and "Nord" in game.started
    game.apply({"type": "lay_tile", "entity": "Nord", "hex": "I9", "tile": "57", "rotation": 1})
    # the home I3 now joins I9: the 200 in escrow is paid out, the Nord becomes incremental
    assert "Nord" in game.destinated and game.cap["Nord"] == "incremental"
    assert game.cash("Nord") == 500 - 40 + 200 and game.escrow["Nord"] is None
    invariants(game)


def test_an_unparred_corporation_at_its_destination_is_parred_incremental():
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    for p in game.seats:
        game.pay(BANK, p, 1000)
    for hex_, tile in (("I5", "9-0"), ("I7", "9-1"), ("I9", "57-0")):
        game.state.lay_tile(hex_, tile, 1)
    game.check_destinations()  # what every lay calls
    assert "Nord" in game.destinated and game.cap_type("Nord") == "incremental"
    _refresh(game)
    game.apply({"type": "par", "entity": "P1", "corporation": "Nord", "share_price": 90})
    _pass(game, "P1")
    for p in ("P2", "P1", "P2", "P1", "P2"):
        _buy_ipo(game, p, "Nord")
    # incremental: every IPO sale pays the Nord, escrow or not: 2 x 90 + 5 x 90
    assert game.cash("Nord") == 7 * 90 and game.escrow["Nord"] is None


def test_capitalisation_and_the_share_to_start_follow_the_trains():
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    for p in game.seats:
        game.pay(BANK, p, 3000)
    _export_until(game, "4")
    # the last 2 and the last 3 were sold: 20% + 10% + 10% must be sold to start
    assert game.percent_to_operate == 40 and game.game_cap == "escrow"
    _export_until(game, "5")
    # the last 4: 50% to start; corporations parred from now on are incremental
    assert game.percent_to_operate == 50 and game.game_cap == "incremental"
    _refresh(game)
    game.apply({"type": "par", "entity": "P1", "corporation": "HSM", "share_price": 100})
    _pass(game, "P1")
    _buy_ipo(game, "P2", "HSM")
    _buy_ipo(game, "P1", "HSM")
    # incremental: 200 + 100 + 100; 40% sold is short of the 50% to start
    assert game.cash("HSM") == 400 and not game.floatable("HSM")
    _buy_ipo(game, "P2", "HSM")
    assert game.floatable("HSM")
    _export_until(game, "6")
    # the last 5: 60% to start, full capitalisation; the first 5 closed every private
    assert game.percent_to_operate == 60 and game.game_cap == "full"
    assert all(info["closed"] for info in game.state.companies.values())
    _refresh(game)
    bank = game.cash(BANK)
    game.apply({"type": "par", "entity": "P1", "corporation": "NFL", "share_price": 70})
    _pass(game, "P1")
    # full: the par money (2 x 70) goes to the bank, the NFL has nothing yet
    assert game.cash("NFL") == 0 and game.cash(BANK) == bank + 140
    for p in ("P2", "P1", "P2"):
        _buy_ipo(game, p, "NFL")
    assert game.cash("NFL") == 0 and "NFL" not in game.started  # 50% sold
    _buy_ipo(game, "P1", "NFL")
    # 60% sold: it starts at once and receives ten times its par price
    assert game.cash("NFL") == 700 and "NFL" in game.started
    invariants(game)


def test_a_corporation_without_the_share_to_start_is_skipped():
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    game.apply({"type": "par", "entity": "P1", "corporation": "HSM", "share_price": 65})
    _export_until(game, "3")  # the last 2-train: 30% now needed
    _refresh(game)
    for _ in game.seats:
        game.apply({"type": "pass", "entity": game.round.current})
    # HSM has only its president's 20% sold: it does not operate; the next stock round comes
    assert "HSM" not in game.started and game.round.kind == "stock" and game.turn == 2
    assert game.cash("HSM") == 130


# ---------------------------------------------------------------------------------- loans
def test_loans_one_a_round_up_to_the_player_shares():
    game = _nord_escrow_game()
    _pass(game, "P1")
    _pass(game, "P2")
    assert game.or_turn.op == "Nord" and game.or_turn.stage == "track"
    assert game.max_loans("Nord") == 7  # players hold 70%
    game.apply({"type": "take_loan", "entity": "Nord"})
    assert game.loans["Nord"] == 1 and game.cash("Nord") == 600
    before = game.to_dict(), game.cash("Nord")
    with pytest.raises(IllegalAction, match="one loan per operating round"):
        game.apply({"type": "take_loan", "entity": "Nord"})
    assert (game.to_dict(), game.cash("Nord")) == before
    with pytest.raises(IllegalAction, match="after the train step"):
        game.apply({"type": "payoff_loan", "entity": "Nord"})
    # no trains: no run; interest 10 paid from the treasury; after it a loan gives 90
    _to_stage(game, "Nord", "train")
    assert game.cash("Nord") == 590 and "Nord" in game.paid_interest
    assert game.loan_amount("Nord") == 90
    game.apply({"type": "buy_train", "entity": "Nord", "train": "2-0", "variant": "2"})
    # one 2-train a round from the bank: the train step ends by itself; the loan step:
    # repay the loan (590 - 100 train - 100 loan)
    assert game.or_turn.stage == "loan"
    game.apply({"type": "payoff_loan", "entity": "Nord"})
    assert game.loans["Nord"] == 0 and game.cash("Nord") == 390
    invariants(game)


def test_interest_comes_from_the_treasury_then_the_run_then_the_president():
    game = _nord_escrow_game()
    for hex_, tile in (("I5", "9-0"), ("I7", "9-1"), ("I9", "57-0")):
        game.state.lay_tile(hex_, tile, 1)
    _pass(game, "P1")
    _pass(game, "P2")
    # hand-built: 3 loans, 25 in the treasury, a 2-train (no money moves for it)
    game.loans["Nord"] = 3
    game.pay("Nord", BANK, game.cash("Nord") - 25)
    game.state.buy_train("Nord", "2-0", check=False)
    _refresh(game)
    _to_stage(game, "Nord", "route")
    p1, p2 = game.cash("P1"), game.cash("P2")
    game.apply({"type": "run_routes", "entity": "Nord"})
    # the 2-train runs Lille (30) - Namur (20) = 50; interest 3 x 10 = 30:
    # 20 from the treasury (25 less its odd 5), the last 10 out of the run
    assert game.or_turn.revenue == 50 and game.or_turn.flags["penalty"] == 10
    assert game.cash("Nord") == 5
    game.apply({"type": "dividend", "entity": "Nord", "kind": "payout"})
    # 40 paid out, 4 a share: P1 40% -> 16, P2 30% -> 12; the price moves right
    assert game.cash("P1") == p1 + 16 and game.cash("P2") == p2 + 12
    assert game.share_price("Nord") == 110


def test_interest_the_president_cannot_pay_is_a_cash_crisis():
    game = _nord_escrow_game()
    _pass(game, "P1")
    _pass(game, "P2")
    game.loans["Nord"] = 5
    game.pay("Nord", BANK, game.cash("Nord") - 12)
    game.pay("P1", BANK, game.cash("P1") - 15)
    _refresh(game)
    _to_stage(game, "Nord", "track")
    game.apply({"type": "pass", "entity": "Nord"})
    # no train, no run: interest 50 = 10 from the treasury (12 less 2) + 40 from P1 (15 -> -25)
    assert game.cash("Nord") == 2 and game.cash("P1") == -25
    legal = game.legal_actions()
    # P1 must sell: a 10% Nord share (100) covers it; 20% would be more than needed
    assert {(a["type"], a["corporation"], a["percent"]) for a in legal} == {
        ("sell_shares", "Nord", 10)
    }
    game.apply(legal[0])
    # paid 100 (-25 -> 75); the price drops a row (100 -> 90), then the dividend step
    # (nothing run: withhold 0) moves it left (90 -> 80)
    assert game.cash("P1") == 75 and game.share_price("Nord") == 80
    assert game.shares.percent("Nord", "P1") == 30 and game.crisis_player() is None
    invariants(game)


def test_forced_repayment_after_the_train_step():
    game = _nord_escrow_game()
    _pass(game, "P1")
    _pass(game, "P2")
    # hand-built: 9 loans while players hold 70% (7 allowed), 50 in the treasury
    game.loans["Nord"] = 9
    game.pay("Nord", BANK, game.cash("Nord") - 50)
    game.pay("P1", BANK, game.cash("P1") - 120)
    game.post_nationalization = True  # no interest: only the repayment counts here
    _refresh(game)
    assert game.or_turn.op == "Nord" and game.or_turn.stage == "track"
    # no token it can reach, no train, no route to run, no train it can buy: after its
    # track step the turn runs to the loan step by itself
    game.apply({"type": "pass", "entity": "Nord"})
    assert game.or_turn.stage == "loan"
    # excess 2 loans = 200: 50 from the treasury, 150 from P1 (120 -> -30)
    assert game.loans["Nord"] == 7 and game.cash("Nord") == 0 and game.cash("P1") == -30
    # P1 may sell one Nord share (he keeps 30%, as much as P2: no presidency swap)
    sales = [a for a in game.legal_actions() if a["type"] == "sell_shares"]
    assert [(a["corporation"], a["percent"]) for a in sales] == [("Nord", 10)]
    assert not [a for a in game.legal_actions() if a["type"] == "bankrupt"]


def test_bankruptcy_ends_the_game_and_the_values_deduct_loans():
    game = _nord_escrow_game()
    _pass(game, "P1")
    _pass(game, "P2")
    game.loans["Nord"] = 7
    game.pay("Nord", BANK, game.cash("Nord"))
    game.pay("P1", BANK, game.cash("P1"))
    for _ in range(3):
        game.shares.sell("P2", "Nord", 10)  # P2 out of the Nord, the market holds 30%
    game.market.grid.set_par("Nord", 10, 2, check_par=False)  # price 30 (row 10, "30o")
    _refresh(game)
    _to_stage(game, "Nord", "track")
    game.apply({"type": "pass", "entity": "Nord"})
    # interest 70 -> P1 at -70; P1 (40%, president, nobody else holds any) may sell 20% at
    # 30 (the market takes up to 50%): 60 < 70 -> bankrupt is offered
    assert game.cash("P1") == -70
    legal = game.legal_actions()
    assert {"type": "bankrupt", "entity": "P1"} in legal
    game.apply({"type": "bankrupt", "entity": "P1"})
    # he sells 20% (60): -10, which the bank writes off; the game ends at once
    assert game.finished and game.end_reason == "bankrupt" and game.cash("P1") == 0
    # P1 keeps the 20% president's certificate: 2 x 30 - 20 x 7 loans = -80, + ACC 20, CdH 50
    assert game.result()["P1"] == 60 - 140 + 70
    invariants(game)


def test_final_values_lose_ten_per_ten_percent_for_each_loan():
    game = _nord_escrow_game()
    game.loans["Nord"] = 3
    # P1: 1380 - 400 = 980 cash, 40% at 100 = 400 less 40 x 3 = 120, ACC 20 + CdH 50
    assert game.player_value("P1") == 980 + 400 - 120 + 70
    # P2: 1340 - 300 = 1040 cash, 30% = 300 less 90, E-SF 40 + RdP 70
    assert game.player_value("P2") == 1040 + 300 - 90 + 110


# ---------------------------------------------------------------------------------- prices
def test_a_price_in_a_closing_cell_closes_the_corporation():
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    _corp(game, "HSM", 70, "P1", ["P2"], cash=40, loans=1)
    game.market.grid.set_par("HSM", 9, 1, check_par=False)  # "30o"; left of it is "0c"
    game.state.buy_train("HSM", "2-0", check=False)
    bank = game.cash(BANK)
    game._dividend = game._dividend  # the real withhold path below
    game.or_turn = None
    game.price_move("HSM", "left")
    assert game.state.operators["HSM"].closed and "HSM" not in game.shares.by_corp
    assert game.cash("HSM") == 0 and game.cash(BANK) == bank + 40
    assert game.state.trains["2-0"].owner is None and not game.state.tokens_of("HSM")
    invariants(game)


# ---------------------------------------------------------------------------------- national
def test_national_price_rule():
    game = Game1836Jr56(["P1", "P2"], 1)
    cases = [
        ([350], 350),  # 0.2 x 350 = 70 -> 350, a multiple of 25
        ([100, 90], 100),  # 0.2 x 190 / 2 = 19 -> 95 < 105 -> 100
        ([110, 115], 110),  # 22.5 -> 22 -> 110 (105-115)
        ([125, 150, 75], 125),  # the lowest (75) dropped: 27.5 -> 27 -> 135; 135 - 10
        ([200, 180], 200),  # 38 -> 190; 190 % 25 = 15 >= 12.5 -> up to 200
    ]
    for prices, want in cases:
        game.pre_prices = prices
        assert game.national_price() == want, prices


def _nationalization_game() -> Game1836Jr56:
    """Phase 5; the Nord (P1 40%, P2 20%, 2 loans, 750) is about to buy the first 6-train;
    the B (P1 20%, P2 10%, P3 10%, 3 loans, 30) and the HSM (P2 20%, P1 10%, 1 loan, 250)."""
    game = Game1836Jr56(["P1", "P2", "P3"], 1)
    _auction(game)  # P1 ACC + RdP, P2 E-SF, P3 CdH
    _export_until(game, "6")
    _corp(game, "Nord", 100, "P1", ["P2", "P2", "P1"], cash=750, loans=2)
    _corp(game, "B", 90, "P1", ["P3", "P2"], cash=30, loans=3)
    _corp(game, "HSM", 80, "P2", ["P1"], cash=250, loans=1)
    for p in game.seats:
        game.pay(BANK, p, 500)
    _refresh(game)
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    assert game.round.entities == ["Nord", "B", "HSM"]
    _to_stage(game, "Nord", "train")
    return game


def test_first_six_train_calls_the_loans_in():
    game = _nationalization_game()
    # no run: interest 20 (730 left); the 6-train costs 700 (30 left)
    assert game.cash("Nord") == 730
    game.apply({"type": "buy_train", "entity": "Nord", "train": "6-0", "variant": "6"})
    # loans repaid from treasuries, 100 each: the Nord (30) and the B (30) none, the HSM one
    assert game.loans == {**game.loans, "Nord": 2, "B": 3, "HSM": 0}
    assert game.cash("HSM") == 150
    # the candidates in seat order from P1 (the 6-train's buyer's president), then
    # operating order: the Nord, then the B
    assert game.nationalizables == ["Nord", "B"]
    legal = game.legal_actions()
    # the Nord owes 200 - 30 = 170; P1 has it, so he may pay instead of merging
    assert {(a["type"], a["entity"]) for a in legal} == {("merge", "Nord"), ("pass", "Nord")}
    p1 = game.cash("P1")
    game.apply({"type": "pass", "entity": "Nord"})
    assert game.cash("P1") == p1 - 170 and game.cash("Nord") == 0 and game.loans["Nord"] == 0
    with pytest.raises(IllegalAction, match="not Nord's turn"):
        game.apply({"type": "merge", "entity": "Nord", "corporation": "Nord"})
    game.apply({"type": "merge", "entity": "B", "corporation": "B"})
    # the B merged alone: price int(0.2 x 90) x 5 = 90 < 105 -> 100
    assert game.national_formed and game.share_price("MESS") == 100
    # the share exchange: P1 20% of the B -> 1 share (a one-share "false" president: half
    # the certificate, nothing to pay now), P2 and P3 10% -> none; their odd 20% makes one
    # market share; 2 units awarded: ten 10% shares
    assert game.shares.president("MESS") == "P1" and game.shares.percent("MESS", "P1") == 10
    assert game.false_president == "P1" and game.cash("P1") == p1 - 170
    assert game.shares.percent("MESS", POOL) == 10 and game.unit("MESS") == 10
    # the B's cash and loans: 30 to the national, its loans cancelled; its home token swapped
    assert game.cash("MESS") == 30 and game.state.operators["B"].closed
    assert game.state.tokens_of("MESS") == [("H6", 0)]
    # no more loans or interest; the national runs right after the Nord (the B had not run)
    assert game.post_nationalization and not any(game.loans.values())
    assert game.round.entities == ["Nord", "MESS", "B", "HSM"]
    invariants(game)


def test_the_national_borrows_withholds_and_does_not_move():
    game = _nationalization_game()
    # Gand (H4) gets a city joined to Brussels (H6), the B's home: the national's route
    game.state.lay_tile("H4", "57-0", 1)
    _refresh(game)
    game.apply({"type": "buy_train", "entity": "Nord", "train": "6-0", "variant": "6"})
    game.apply({"type": "pass", "entity": "Nord"})
    game.apply({"type": "merge", "entity": "B", "corporation": "B"})
    _to_stage(game, "MESS", "borrow")
    # trainless and never owned a permanent train: it may borrow the bank's next 8-train
    assert {(a["type"], a.get("train")) for a in game.legal_actions()} >= {("borrow_train", "8-0")}
    game.apply({"type": "borrow_train", "entity": "MESS", "train": "8-0"})
    assert game.state.trains["8-0"].owner == "MESS" and game.or_turn.stage == "route"
    with pytest.raises(IllegalAction, match="withhold"):
        game.apply({"type": "dividend", "entity": "MESS", "kind": "payout"})
    cash = game.cash("MESS")
    game.apply({"type": "run_routes", "entity": "MESS"})
    # Brussels 30 + Gand 20 = 50, withheld (no choice); the price does not move
    assert game.cash("MESS") == cash + 50 and game.share_price("MESS") == 100
    # it could buy no train (and buys none that rusts): the borrowed one went back
    assert game.state.trains["8-0"].owner == DEPOT and "8-0" in game.state.discarded
    assert game.or_turn is None or game.or_turn.op != "MESS"
    invariants(game)


def test_the_regie_des_postes_token_and_its_removal():
    game = Game1836Jr56(["P1", "P2", "P3"], 1)
    _auction(game)  # P1 owns the RdP
    _corp(game, "Nord", 100, "P1", ["P2"], cash=300)
    game.state.companies["RdP"]["owner"] = "Nord"
    _refresh(game)
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    assign = [a for a in game.legal_actions() if a["type"] == "assign"]
    assert len(assign) == 18 and {a["entity"] for a in assign} == {"RdP"}
    game.apply({"type": "assign", "entity": "RdP", "target": "I3", "target_type": "hex"})
    assert game.state.companies["RdP"]["closed"]
    assert [(m.hex, m.company) for m in game.assignments()] == [("I3", "Nord")]
    game.train_event("remove_tokens", None)  # the first 6-train's event
    assert game.assignments() == []


def test_a_national_of_more_than_ten_shares_has_twenty_five_percent_shares():
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    _export_until(game, "6")
    _corp(game, "Nord", 100, "P1", ["P1"] * 4 + ["P2"] * 4, cash=710, loans=1)
    _corp(game, "B", 90, "P1", ["P1"] * 4 + ["P2"] * 4, loans=2)
    _corp(game, "HSM", 80, "P1", ["P1"] * 4 + ["P2"] * 3, cash=50, loans=1)
    _refresh(game)
    for _ in game.seats:
        game.apply({"type": "pass", "entity": game.round.current})
    _to_stage(game, "Nord", "train")
    # interest 10 (700 left), the 6-train 700: nothing left to repay any loan with
    game.apply({"type": "buy_train", "entity": "Nord", "train": "6-0", "variant": "6"})
    assert game.nationalizables == ["Nord", "B", "HSM"]
    for corp in ("Nord", "B", "HSM"):
        game.apply({"type": "merge", "entity": corp, "corporation": corp})
    # prices at merging: Nord 90 (it withheld), B 90, HSM 80; the lowest dropped:
    # 0.2 x 180 / 2 = 18 -> 90 < 105 -> 100
    assert game.share_price("MESS") == 100
    # P1 held 60 + 60 + 60 = 180% -> 9 shares; P2 40 + 40 + 30 = 110% -> 5 (10% odd, which
    # is no market share); 14 shares > 10: twenty 5% shares, the president's one 10%
    assert game.unit("MESS") == 5 and game.shares.president("MESS") == "P1"
    assert game.shares.percent("MESS", "P1") == 10 + 7 * 5
    assert game.shares.percent("MESS", "P2") == 5 * 5
    assert game.shares.percent("MESS", "MESS") == 30 and game.shares.percent("MESS", POOL) == 0
    # a 5% share counts half a certificate: the president's 1 + 7 halves
    assert game.num_certs("P1") == 4.5
    # the Nord's 6-train is permanent: the national may pay out and move at once
    assert game.national_permanent and game.state.trains["6-0"].owner == "MESS"
    assert sorted(h for h, _c in game.state.tokens_of("MESS")) == ["D6", "H6", "I3"]
    # the buyer merged: the national was not put in this round; it operates in the next
    assert all(game.state.operators[c].closed for c in ("Nord", "B", "HSM"))
    assert game.round.num == 2 and game.round.entities == ["MESS"]
    assert game.train_limit("MESS") == 3
    invariants(game)


def _false_president_game() -> Game1836Jr56:
    """The B merges alone into the national (see the test above): P1, its president with 20%
    of the B, receives one share, half the president's certificate."""
    game = _nationalization_game()
    game.apply({"type": "buy_train", "entity": "Nord", "train": "6-0", "variant": "6"})
    game.apply({"type": "pass", "entity": "Nord"})  # P1 pays the Nord's 170
    game.apply({"type": "merge", "entity": "B", "corporation": "B"})
    return game


def _to_stock_round(game: Game1836Jr56) -> None:
    for _ in range(200):
        if game.round.kind == "stock":
            return
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a["type"] == "pass"), legal[0]))
    raise AssertionError("no stock round")


def test_a_false_national_president_buys_up_his_certificate_first():
    game = _false_president_game()
    reg = game.shares
    # the president's certificate holds one share (10%); the other half (10%) waits in the
    # IPO, not for sale: 10 + 10 reserved + 70 for sale + 10 in the market = 100
    assert reg.percent("MESS", "P1") == 10 and reg.president_cert("MESS").percent == 10
    assert reg.percent("MESS", "MESS") == 80 and reg.percent("MESS", POOL) == 10
    assert game.reserved_cert not in {c.id for c in game.national_ipo()}
    assert len(game.national_ipo()) == 7
    # meanwhile he may not sell the half certificate (even with a share held by another)
    assert game.sale_sizes("P1", "MESS") == []
    invariants(game)
    _to_stock_round(game)
    while game.round.current != "P1":
        game.apply({"type": "pass", "entity": game.round.current})
    legal = game.legal_actions()
    # his turn: no pass, no other purchase; a national share (IPO or market) or sales
    assert {a["type"] for a in legal} == {"buy_shares", "sell_shares"}
    assert {a["corporation"] for a in legal if a["type"] == "buy_shares"} == {"MESS"}
    assert all(a["corporation"] != "MESS" for a in legal if a["type"] == "sell_shares")
    with pytest.raises(IllegalAction, match="other half"):
        game.apply({"type": "pass", "entity": "P1"})
    cash, bank = game.cash("P1"), game.cash(BANK)
    ipo = next(a for a in legal if a["type"] == "buy_shares" and a["source"] == "treasury")
    game.apply(ipo)
    # he pays the IPO price 100 to the bank; the bought share stays in the IPO and the
    # reserved half joins his certificate: 20%, the IPO 70 (what was for sale), 100 in all
    assert game.cash("P1") == cash - 100 and game.cash(BANK) == bank + 100
    assert reg.percent("MESS", "P1") == 20 and reg.president_cert("MESS").percent == 20
    assert reg.certs[ipo["shares"][0]].owner == "MESS" and reg.percent("MESS", "MESS") == 70
    assert game.false_president is None and reg.total("MESS") == 100
    # the obligation is met: the turn goes on as usual (a pass is offered again)
    assert any(a["type"] == "pass" for a in game.legal_actions())
    invariants(game)


def test_a_national_holder_buying_first_takes_the_false_presidency():
    game = _false_president_game()
    reg = game.shares
    reg.move([game.national_ipo()[-1].id], "P2")  # by hand: P2 holds one national share
    _refresh(game)
    invariants(game)
    _to_stock_round(game)
    assert game.round.current == "P2"
    cash, p1_cash = game.cash("P2"), game.cash("P1")
    buy = next(
        a for a in game.legal_actions()
        if a["type"] == "buy_shares" and a["corporation"] == "MESS" and a["source"] == "market"
    )  # fmt: skip
    game.apply(buy)
    # P2 pays the market price 100 to the bank (the market share stays there), hands his
    # share to P1 and takes the whole certificate: P2 20%, P1 10%, market still 10%
    assert game.cash("P2") == cash - 100 and game.cash("P1") == p1_cash
    assert reg.president("MESS") == "P2" and reg.percent("MESS", "P2") == 20
    assert reg.percent("MESS", "P1") == 10 and reg.percent("MESS", POOL) == 10
    assert game.false_president is None and reg.total("MESS") == 100
    invariants(game)
    _pass(game, "P2")
    _pass(game, "P3")
    # P1 is an ordinary holder now: he may pass
    assert game.round.current == "P1"
    assert {"type": "pass", "entity": "P1"} in game.legal_actions()


def test_a_false_president_who_cannot_pay_is_bankrupt():
    game = _false_president_game()
    _to_stock_round(game)
    reg = game.shares
    # by hand: P1 keeps 50 and no share he could sell (his Nord and HSM go to P2)
    for corp in ("Nord", "HSM"):
        reg.move([c.id for c in reg.certs_of("P1", corp)], "P2")
        reg.presidents[corp] = "P2"
    game.pay("P1", BANK, game.cash("P1") - 50)
    _refresh(game)
    while game.round.current != "P1":
        game.apply({"type": "pass", "entity": game.round.current})
    # 50 < the share's 100 and nothing to sell: bankrupt, the game ends at once
    assert game.legal_actions() == [{"type": "bankrupt", "entity": "P1"}]
    game.apply({"type": "bankrupt", "entity": "P1"})
    assert game.finished and game.end_reason == "bankrupt" and game.bankrupt == ["P1"]


def _token_game() -> Game1836Jr56:
    """Four corporations owing loans, with 13 tokens: B H6 (home), E5 city 0, G7, J6; GCL
    I9 (home), E5 city 1, H4, B10; Nord I3 (home), E7, J8; HSM D6 (home), H10."""
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    _export_until(game, "6")
    _corp(game, "Nord", 100, "P1", ["P1", "P2"], cash=710, loans=1)
    _corp(game, "B", 90, "P1", ["P2"], loans=1)
    _corp(game, "GCL", 90, "P2", ["P1"], loans=1)
    _corp(game, "HSM", 80, "P2", ["P1"], loans=1)
    extra = {"B": [("E5", 0), ("G7", 0), ("J6", 0)], "GCL": [("E5", 1), ("H4", 0), ("B10", 0)],
             "Nord": [("E7", 0), ("J8", 0)], "HSM": [("H10", 0)]}  # fmt: skip
    for corp, places in extra.items():
        for hex_, city in places:
            game.state.place_token(hex_, city, corp)
    _refresh(game)
    for _ in game.seats:
        game.apply({"type": "pass", "entity": game.round.current})
    _to_stage(game, "Nord", "train")
    game.apply({"type": "buy_train", "entity": "Nord", "train": "6-0", "variant": "6"})
    for corp in list(game.nationalizables):
        game.apply({"type": "merge", "entity": corp, "corporation": corp})
    return game


def test_the_national_president_chooses_the_tokens_to_remove():
    game = _token_game()
    assert game.national_formed and sorted(game.nationalized) == ["B", "GCL", "HSM", "Nord"]
    # 13 tokens: the homes H6, I9, I3, D6 and 9 others; E5 holds two (the B's and the
    # GCL's): 13 - 1 duplicate = 12 > 10, so 13 - 10 = 3 go, the duplicate first
    assert game.state.tokens_of("MESS") == []  # on the map once the choice is made
    first = game.legal_actions()
    assert {(a["type"], a["hex"], a["city"]) for a in first} == {
        ("remove_token", "E5", 0), ("remove_token", "E5", 1)}  # fmt: skip
    # a record's removal names the city by tile id ("E5-0-0": the printed E5's first city)
    raw = {"type": "remove_token", "entity": "MESS", "city": "E5-0-0", "slot": 0}
    act = game.record_action(raw, {"type": "remove_token", "entity": "MESS"})
    assert act == {"type": "remove_token", "entity": "MESS", "hex": "E5", "city": 0}
    game.apply(act)
    # then two more, out of any hex but the homes
    rest = {(a["hex"], a["city"]) for a in game.legal_actions()}
    assert rest == {("E5", 1), ("G7", 0), ("J6", 0), ("H4", 0), ("B10", 0), ("E7", 0),
                    ("J8", 0), ("H10", 0)}  # fmt: skip
    with pytest.raises(IllegalAction):
        game.apply({"type": "remove_token", "entity": "MESS", "hex": "H6", "city": 0})
    game.apply({"type": "remove_token", "entity": "MESS", "hex": "G7", "city": 0})
    game.apply({"type": "remove_token", "entity": "MESS", "hex": "J6", "city": 0})
    # ten left, all placed: none spare (ten tokens), one per hex
    placed = sorted(game.state.tokens_of("MESS"))
    assert placed == [("B10", 0), ("D6", 0), ("E5", 1), ("E7", 0), ("H10", 0), ("H4", 0),
                      ("H6", 0), ("I3", 0), ("I9", 0), ("J8", 0)]  # fmt: skip
    assert game.tokens_left("MESS") == 0 and not game.token_removal_pending()
    invariants(game)


def _track_turn_in_phase_5(corp: str, cash: int, lays, tokens=()) -> Game1836Jr56:
    """``corp`` (P1 president) at its track step in phase 5, with ``lays`` (hex, tile id,
    rotation) and its ``tokens`` (hex, city) placed by hand."""
    game = Game1836Jr56(["P1", "P2", "P3"], 1)
    _auction(game)
    _export_until(game, "6")
    _corp(game, corp, 100, "P1", ["P2"], cash=cash)
    for hex_, tile, rotation in lays:
        game.state.lay_tile(hex_, tile, rotation)
    for hex_, city in tokens:
        game.state.place_token(hex_, city, corp)
    _refresh(game)
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    _to_stage(game, corp, "track")
    return game


def test_town_upgrades_from_phase_six():
    # Gand (H4) holds a yellow straight city toward Bruges (H2, edge 1) with a Nord token;
    # Bruges has the sharp town 3 on its edges 4 (Gand) and 5 (Lille)
    game = _track_turn_in_phase_5("Nord", 500, [("H4", "57-0", 1), ("H2", "3-0", 4)],
                                  [("H4", 0)])  # fmt: skip

    def lays_on_h2():
        lays = game.legal_track("Nord")
        return {(a["tile"], a["rotation"]) for a in lays if a.get("hex") == "H2"}

    # phase 5: a town tile has no upgrade (the manifest has no green town tile)
    assert lays_on_h2() == set()
    _export_until(game, "8")  # the first 6-train: phase 6, "upgradeable_towns"
    _refresh(game)
    # the yellow city 5 or the plain curve 7, each at the one rotation keeping exits 4, 5
    assert lays_on_h2() == {("5", 4), ("7", 4)}
    # the bare tile check, which cannot see the phase, refuses a town upgrade itself
    assert game.state.tile_problems("H2", game.state.board.manifest_tile("5"), 4)
    game.apply({"type": "lay_tile", "entity": "Nord", "hex": "H2", "tile": "5", "rotation": 4})
    assert game.state.board.placed("H2").tile.name == "5"
    # the town is gone: the green city 15 (exits 2-5) may follow it although Bruges is
    # printed with a town
    state = game.state
    assert state.tile_problems("H2", state.board.manifest_tile("15"), 2) == []
    assert state.tile_problems("H2", state.board.manifest_tile("15"), 3)  # an exit off the map
    invariants(game)


def test_double_towns_upgrade_to_a_green_city():
    # the double town 2 on B8's edges 0, 3, 4, 5; edge 3 meets the NFL's home A9 (edge 0)
    game = _track_turn_in_phase_5("NFL", 300, [("B8", "2-0", 3)])

    def lays_on_b8():
        return {(a["tile"], a["rotation"]) for a in game.legal_track("NFL") if a.get("hex") == "B8"}

    assert lays_on_b8() == set()  # phase 5
    _export_until(game, "8")
    _refresh(game)
    # phase 6: only the green city 15 at rotation 3 keeps the four exits 0, 3, 4, 5 (the
    # yellow city 5 and plain track are no upgrade of a double town)
    assert lays_on_b8() == {("15", 3)}
    cash = game.cash("NFL")
    game.apply({"type": "lay_tile", "entity": "NFL", "hex": "B8", "tile": "15", "rotation": 3})
    # no cost: B8's water (80) was paid with the first tile
    assert game.state.board.placed("B8").tile.name == "15" and game.cash("NFL") == cash
    invariants(game)


# ---------------------------------------------------------------------------------- records
RECORDS = sorted((Path(__file__).parent / "data" / "records" / "1836jr56").glob("*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_records_replay_to_the_recorded_result(path):
    # every recorded action legal in our engine (engine.games.records), invariants after
    # each; the site's values and game-end reason exactly (hotseat003: a president's
    # interest crisis ends in bankruptcy, the forced repayment charging him once more;
    # 1836jr56_game_end_bank: two corporations merge into the MESS, which borrows a train)
    record = json.loads(path.read_text(encoding="utf-8"))
    game = replay_record_game(path, on_action=lambda g, raw: invariants(g))
    assert game.finished and game.end_reason == record["game_end_reason"]
    assert game.result() == {str(p): v for p, v in record["result"].items()}


def test_brussels_and_lille_take_their_own_brown_tiles():
    # seed: the green 121 upgrades Brussels (H6) to the brown London 126 and Lille (I3) to
    # the brown Barrie 127 (the hexes' printed future labels Lon and Bar)
    game = Game1836Jr56(["P1", "P2"], 1)
    _auction(game)
    _export_until(game, "6")  # phase 5: brown tiles
    _corp(game, "B", 90, "P1", ["P2"], cash=500)
    game.state.lay_tile("H6", "121-0", 1)
    _refresh(game)
    for _ in game.seats:
        game.apply({"type": "pass", "entity": game.round.current})
    assert game.or_turn.op == "B" and game.or_turn.stage == "track"
    tiles = {a["tile"] for a in game.legal_actions() if a.get("hex") == "H6"}
    assert "126" in tiles and "127" not in tiles
