"""1836Jr-30 rules engine: hand-built rule checks, each with its arithmetic.

Facts: the seed rulebook (../shared/seeds/1836jr-rules.txt, 1836Jr-30 = 1830 with changes)
and tobymao/18xx @111f7f69 (g_1836_jr30/game.rb, entities.rb; step/waterfall_auction.rb,
buy_sell_par_shares.rb, dividend.rb, buy_train.rb, buy_single_train_of_type.rb).
Market (row 0): 60y 67 71 76 82 90 [100p] 112 ...; row 1: ... 82 [90p] 100 ...;
privates ACC 20, E-SF 40, CdH 70, GCB 110, CFL 160 (+ GCL_1), CFLV 220 (+ Nord president).
"""

from __future__ import annotations

import pytest

from engine.game import IllegalAction, invariants
from engine.game.shares import POOL
from engine.games import load_game, new_game
from engine.games.g1836jr30.game import Game1836Jr30
from tests.bot_support import to_stage

PLAYERS = ["P1", "P2", "P3"]


def _auction(game: Game1836Jr30, nord_par: int = 100) -> None:
    """Each player in turn buys the cheapest private at its price; the CFLV's buyer sets
    the Nord's par price."""
    while game.round.kind == "auction":
        par = [a for a in game.legal_actions() if a["type"] == "par"]
        if par:
            game.apply(next(a for a in par if a["share_price"] == nord_par))
            continue
        first = game.round.data["available"][0]
        game.apply({"type": "bid", "entity": game.round.current, "company": first,
                    "price": game.min_bid(first)})  # fmt: skip


def _stock_game() -> Game1836Jr30:
    game = Game1836Jr30(PLAYERS, 1)
    _auction(game)
    assert game.round.kind == "stock"
    return game


def _refresh(game: Game1836Jr30) -> None:
    """Re-read the legal actions after a hand-built change of the state."""
    game._version += 1
    game._legal_cache = None
    game._advance()


def _floated(game: Game1836Jr30, corp: str, par: int, president: str, holders=()) -> None:
    """A hand-built floated corporation: par, president, ordinary shares to ``holders`` and
    the float money from the bank (no other money moves)."""
    game.create_shares(corp)
    game.market.par(corp, par)
    game.shares.par(corp, president)
    game.after_par(corp, president, par)  # a private's certificate joins (CFL: GCL_1)
    for p in holders:
        game.shares.buy(p, game.shares.ordinary(corp, corp)[0].id)
    game.state.operators[corp].floated = True
    game.pay("bank", corp, 10 * par, f"{corp} floats")


def _pass_stock_round(game: Game1836Jr30) -> None:
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})


def _to_stage(game: Game1836Jr30, op: str, stage: str) -> None:
    to_stage(game, op, stage, limit=200)


# ---------------------------------------------------------------------------------- setup
def test_setup_cash_limits_and_the_auction_waterfall():
    game = Game1836Jr30(PLAYERS, 1)
    # 3 players: F600 each out of the F6000 bank; certificate limit 13
    assert [game.cash(p) for p in PLAYERS] == [600, 600, 600]
    assert game.cash("bank") == 6000 - 3 * 600
    assert game.cert_limit("P1") == 13
    _auction(game)
    # P1 ACC 20 + GCB 110; P2 E-SF 40 + CFL 160; P3 CdH 70 + CFLV 220
    assert [game.cash(p) for p in PLAYERS] == [600 - 130, 600 - 200, 600 - 290]
    assert game.cash("bank") == 4200 + 620
    # the CFL's buyer holds GCL_1 before the GCL has a price; it counts as a certificate
    assert game.loose_certs == {"GCL_1": "P2"}
    assert game.num_certs("P2") == 3
    # the CFLV's buyer got the Nord president's certificate free at the chosen par
    assert game.shares.president("Nord") == "P3" and game.market.par_price("Nord") == 100
    assert game.shares.percent("Nord", "P3") == 20 and game.cash("P3") == 310
    # the last purchase was P3's: the next player, P1, has the priority deal
    assert game.round.current == "P1" and game.players[0] == "P1"
    invariants(game)


def test_auction_all_pass_discounts_the_acc_then_pays_revenue():
    game = Game1836Jr30(PLAYERS, 1)
    for p in PLAYERS:
        game.apply({"type": "pass", "entity": p})
    # everyone passed with the ACC unsold: its price drops 20 -> 15
    assert game.min_bid("ACC") == 15
    game.apply({"type": "bid", "entity": "P1", "company": "ACC", "price": 15})
    for p in ("P2", "P3", "P1"):
        game.apply({"type": "pass", "entity": p})
    # everyone passed after the ACC was sold: the owned privates pay (ACC: 5)
    assert game.cash("P1") == 600 - 15 + 5


def test_auction_between_two_bidders_and_committed_cash():
    game = Game1836Jr30(PLAYERS, 1)
    # a bid on a private other than the cheapest must beat its face value by 5
    assert game.min_bid("E-SF") == 45
    game.apply({"type": "bid", "entity": "P1", "company": "E-SF", "price": 45})
    assert game.max_bid("P1", "CdH") == 600 - 45  # the open bid is committed
    game.apply({"type": "bid", "entity": "P2", "company": "E-SF", "price": 50})
    game.apply({"type": "bid", "entity": "P3", "company": "ACC", "price": 20})
    # the E-SF is now the cheapest with two bids: the lower bidder P1 raises or drops out
    legal = game.legal_actions()
    assert {a["entity"] for a in legal} == {"P1"}
    assert next(a for a in legal if a["type"] == "bid")["min_price"] == 55
    game.apply({"type": "pass", "entity": "P1"})
    assert game.state.companies["E-SF"]["owner"] == "P2"
    assert (game.cash("P1"), game.cash("P2"), game.cash("P3")) == (600, 550, 580)
    # the CdH is the cheapest now: a bid buys it at 70 or more (up to P1's 600)
    with pytest.raises(IllegalAction, match="outside 70-600"):
        game.apply({"type": "bid", "entity": "P1", "company": "CdH", "price": 10})


# ---------------------------------------------------------------------------------- stock
def test_par_ipo_price_float_and_no_sales_in_the_first_stock_round():
    game = _stock_game()
    game.apply({"type": "par", "entity": "P1", "corporation": "B", "share_price": 100})
    assert game.cash("P1") == 470 - 200  # the 20% president's certificate at 2 x 100
    assert not any(a["type"] == "sell_shares" for a in game.legal_actions())
    # nothing else to do (one certificate a turn, no sales in the first stock round): P1's
    # turn passes by itself (buy_sell_par_shares.rb: no valid action)
    assert game.round.current == "P2"
    bank = game.cash("bank")
    for p in ("P2", "P3", "P1", "P2"):
        game.apply({"type": "buy_shares", "entity": p, "corporation": "B", "source": "treasury",
                    "percent": 10})  # fmt: skip
        assert not any(a["type"] == "sell_shares" for a in game.legal_actions())
        if game.round.current == p:  # a player with nothing left to do passes by itself
            game.apply({"type": "pass", "entity": p})
    # four IPO shares at the par price 100 go to the bank; 60% sold: the B floats with
    # ten times its par price from the bank
    assert game.state.operators["B"].floated
    assert game.cash("B") == 1000
    assert game.cash("bank") == bank + 4 * 100 - 1000
    invariants(game)


def test_one_share_a_turn_then_sales_and_the_gcb_exchange():
    game = _stock_game()
    game.apply({"type": "par", "entity": "P1", "corporation": "B", "share_price": 100})
    legal = game.legal_actions()
    # no second certificate this turn and no sales in the first stock round: P1's turn
    # ends by itself; the GCB may still be exchanged for a B share (P1 owns it; the
    # exchange is open at any choice, step/exchange.rb)
    assert not any(a["type"] in ("buy_shares", "par") and a["entity"] == "P1" for a in legal)
    with pytest.raises(IllegalAction, match="not P1's turn"):
        game.apply({"type": "buy_shares", "entity": "P1", "corporation": "B",
                    "source": "treasury", "percent": 10})  # fmt: skip
    exchange = next(a for a in legal if a["entity"] == "GCB")
    certs = game.num_certs("P1")
    game.apply(exchange)
    # the GCB closes and a 10% B certificate replaces it: same certificate count
    assert game.state.companies["GCB"]["closed"]
    assert game.shares.percent("B", "P1") == 30 and game.num_certs("P1") == certs


def test_sale_drops_a_row_per_share_and_blocks_buying_back():
    game = _stock_game()
    _floated(game, "B", 100, "P1", holders=["P2", "P2", "P3", "P3"])
    game.turn = 2  # sales are allowed from the second stock round on
    _refresh(game)
    game.apply({"type": "pass", "entity": "P1"})
    cash = game.cash("P2")
    game.apply({"type": "sell_shares", "entity": "P2", "corporation": "B", "percent": 20})
    # two shares at 100; the price falls two rows: 100 (row 0) -> 90 -> 82 (column 6)
    assert game.cash("P2") == cash + 200
    assert game.market.price("B") == 82 and game.shares.percent("B", POOL) == 20
    assert not any(a["type"] == "buy_shares" and a["corporation"] == "B" and a["entity"] == "P2"
                   for a in game.legal_actions())  # fmt: skip
    with pytest.raises(IllegalAction, match="may not buy it back"):
        game.apply({"type": "buy_shares", "entity": "P2", "corporation": "B", "source": POOL,
                    "percent": 10})  # fmt: skip
    invariants(game)


def test_brown_zone_buys_several_and_yellow_shares_do_not_count():
    game = _stock_game()
    _floated(game, "HSM", 67, "P1")
    # put the HSM price on 20 (row 7, column 1: brown "b") and 4 shares in the pool
    game.market.grid.set_par("HSM", 7, 1, check_par=False)
    game.shares.move([c.id for c in game.shares.ordinary("HSM", "HSM")[:4]], POOL)
    _refresh(game)
    game.apply({"type": "pass", "entity": "P1"})
    before = game.num_certs("P2")
    for _ in range(3):  # several market shares in one turn in a brown cell
        game.apply({"type": "buy_shares", "entity": "P2", "corporation": "HSM", "source": POOL,
                    "percent": 10})  # fmt: skip
    assert game.shares.percent("HSM", "P2") == 30
    assert game.num_certs("P2") == before  # brown shares do not count against the limit
    # a yellow cell ("y", 60 on row 0) does not count either; a plain cell does
    game.market.grid.set_par("HSM", 0, 0, check_par=False)
    assert game.num_certs("P2") == before
    # P2's 30% outweighs P1's 20%: P2 took the presidency, so holds 20% + 10% in two
    # certificates, which count once the price leaves the zones (76, row 0, column 3)
    assert game.shares.president("HSM") == "P2"
    game.market.grid.set_par("HSM", 0, 3, check_par=False)
    game._version += 1
    assert game.num_certs("P2") == before + 2


def test_sold_out_corporation_moves_up_at_the_end_of_the_stock_round():
    game = _stock_game()
    _floated(game, "HSM", 90, "P1", holders=["P1", "P2", "P2", "P2", "P3", "P3", "P3", "P1"])
    _refresh(game)
    _pass_stock_round(game)
    # players hold 100%: 90 (row 1, column 6) moves up to 100 (row 0, column 6)
    assert game.market.price("HSM") == 100


# ---------------------------------------------------------------------------------- operating
def _b_with_route(game: Game1836Jr30) -> None:
    """B floated at 100 (P1 president, P2 and P3 10% each, 10% in the pool) and a tile 57
    on Gand (H4) joined to Brussels: a 2-train runs 30 + 20 = 50."""
    _floated(game, "B", 100, "P1", holders=["P2", "P3"])
    game.shares.move([game.shares.ordinary("B", "B")[0].id], POOL)
    game.state.lay_tile("H4", "57-0", 1)
    _refresh(game)


def test_dividend_per_share_pool_pays_the_corporation_and_price_moves():
    game = _stock_game()
    _b_with_route(game)
    _pass_stock_round(game)
    # no train: no run, nothing earned, the price moves left 100 -> 90 (row 0)
    _to_stage(game, "B", "train")
    assert game.market.price("B") == 90
    # a corporation without a train and with a route must buy one (no pass)
    legal = game.legal_actions()
    assert not any(a["type"] == "pass" for a in legal)
    game.apply(next(a for a in legal if a["type"] == "buy_train"))
    assert game.cash("B") == 1000 - 80
    _pass_stock_round_after_or(game)
    _to_stage(game, "B", "route")
    game.apply({"type": "run_routes", "entity": "B"})
    cash = {p: game.cash(p) for p in (*PLAYERS, "B")}
    game.apply({"type": "dividend", "entity": "B", "kind": "payout"})
    # 50 = 5 a share: P1 20% -> 10, P2 and P3 10 -> 5, the pool's 10% -> 5 to the B,
    # the 50% still in the IPO pays nobody; the price moves right 90 -> 100 (row 0)
    assert game.cash("P1") - cash["P1"] == 10
    assert game.cash("P2") - cash["P2"] == 5 and game.cash("P3") - cash["P3"] == 5
    assert game.cash("B") - cash["B"] == 5
    assert game.market.price("B") == 100
    invariants(game)


def test_one_train_of_a_type_from_the_bank_per_operating_round():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    for ident in ("2-0", "2-1", "2-2", "2-3"):
        game.state.buy_train("HSM", ident, check=False)
        game.state.trains[ident].owner = None  # out of the game
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    game.apply({"type": "buy_train", "entity": "B", "train": "2-4", "variant": "2"})
    # the last 2 and the first 3 may both be bought this round (seed, "Purchasing Trains")
    game.apply({"type": "buy_train", "entity": "B", "train": "3-0", "variant": "3"})
    assert game.cash("B") == 1000 - 80 - 180 and game.state.phase_name == "3"
    # but no second 3: the B moves on to buying privates (phase 3)
    assert not any(a["type"] == "buy_train" for a in game.legal_actions())
    with pytest.raises(IllegalAction, match="already bought a 3 train"):
        game.apply({"type": "buy_train", "entity": "B", "train": "3-1", "variant": "3"})


def _pass_stock_round_after_or(game: Game1836Jr30) -> None:
    while game.round.kind == "operating":
        legal = game.legal_actions()
        choice = next((a for a in legal if a["type"] == "pass"), None)
        choice = choice or next((a for a in legal if a["type"] == "run_routes"), None)
        choice = choice or next((a for a in legal if a.get("kind") == "withhold"), legal[0])
        game.apply(choice)
    _pass_stock_round(game)


def test_withholding_and_no_run_move_the_price_left():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    # no route and no train: nothing earned, the price moves left 100 -> 90 (row 0)
    assert game.market.price("B") == 90


def test_tile_costs_blocked_hexes_and_the_amsterdam_canal():
    game = _stock_game()
    _floated(game, "HSM", 100, "P1")
    game.state.phase_index = 1  # phase 3: green tiles, privates for sale
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "HSM", "track")
    lays = game.legal_actions()
    # Amsterdam (D6, yellow NY) may not be upgraded while the ACC belongs to a player
    assert not any(a.get("hex") == "D6" for a in lays)
    # Utrecht (E7): a white city without terrain
    assert {a["cost"] for a in lays if a.get("hex") == "E7"} == {0}
    # the HSM buys the ACC (phase 3: half to twice face value, 10-40)
    buy = next(a for a in lays if a["type"] == "buy_company" and a["company"] == "ACC")
    assert (buy["min_price"], buy["max_price"]) == (10, 40)
    game.apply({**buy, "price": 25})
    # P1 got the ACC's 5 and the GCB's 20 at the start of the round, then the 25
    assert game.cash("P1") == 470 + 5 + 20 + 25 and game.cash("HSM") == 1000 - 25
    d6 = [a for a in game.legal_actions() if a.get("hex") == "D6"]
    # now Amsterdam takes the green NY tile 54 for the printed F40
    assert d6 and {a["tile"] for a in d6} == {"54"} and {a["cost"] for a in d6} == {40}
    invariants(game)


def test_e_sf_free_tile_and_cdh_teleport():
    game = _stock_game()
    _floated(game, "NFL", 100, "P1")
    _floated(game, "GCL", 90, "P3")
    game.state.companies["E-SF"]["owner"] = "NFL"
    game.state.companies["CdH"]["owner"] = "GCL"
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "NFL", "track")
    free = [a for a in game.legal_actions() if a["entity"] == "E-SF"]
    # tile 2 or 56 on B8 for nothing (the F80 causeway is not paid), besides the own lay
    assert free and {a["tile"] for a in free} <= {"2", "56"} and {a["cost"] for a in free} == {0}
    cash = game.cash("NFL")
    game.apply(free[0])
    assert game.cash("NFL") == cash and game.or_turn.stage == "track"
    assert not any(a["entity"] == "E-SF" for a in game.legal_actions())
    _to_stage(game, "GCL", "track")
    tele = [a for a in game.legal_actions() if a["entity"] == "CdH"]
    # tile 57 on the empty J8 without a connection, paying the F60 mountain
    assert tele and {a["tile"] for a in tele} == {"57"} and {a["cost"] for a in tele} == {60}
    game.apply(tele[0])
    assert game.cash("GCL") == 900 + 15 - 60  # the CdH's revenue came first
    token = [a for a in game.legal_actions() if a["type"] == "place_token"]
    assert token and token[0]["entity"] == "CdH" and token[0]["hex"] == "J8"
    game.apply(token[0])
    # the teleport token is the next charter token (F40) for nothing, the turn's token
    assert game.cash("GCL") == 900 + 15 - 60
    assert "GCL" in game.state.tokens[("J8", 0)] and game.or_turn.tokened
    assert game.next_token_price("GCL") == 100  # charter 0, 40, 100, 100: two used
    invariants(game)


def test_nbds_home_on_the_two_city_hex_and_lifted_tokens():
    game = _stock_game()
    _floated(game, "NBDS", 100, "P1")
    game.state.phase_index = 1  # phase 3: green tiles
    _refresh(game)
    # Arnhem/Nijmegen is reserved for the NBDS as a whole until its home token is down
    assert game._homes_held_for("B") == {"E11"}
    _pass_stock_round(game)
    _to_stage(game, "NBDS", "track")
    # the trackless yellow OO hex: the home token went to the reserved city 0
    assert game.state.tokens[("E11", 0)] == ["NBDS"] and game._homes_held_for("B") == set()
    lay = next(a for a in game.legal_actions() if a.get("tile") == "59")
    assert lay["cost"] == 40  # the river printed on E11
    game.apply(lay)
    # track on a trackless two-city hex lifts the token; the NBDS places it again, free
    legal = game.legal_actions()
    assert {(a["entity"], a["hex"], a["cost"]) for a in legal} == {("NBDS", "E11", 0)}
    game.apply({"type": "place_token", "entity": "NBDS", "hex": "E11", "city": 1})
    assert game.state.tokens[("E11", 1)] == ["NBDS"] and ("E11", 0) not in game.state.tokens
    assert game.cash("NBDS") == 1000 - 40
    invariants(game)


def test_an_oo_upgrade_keeps_the_two_cities_apart():
    game = _stock_game()
    game.state.lay_tile("E11", "59-0", 0, check=False)  # city 0 on edge 0, city 1 on 2
    game.state.phase_index = 3  # phase 5: brown tiles
    # brown 64 has cities on edges {0, 2} and {3, 4} (rotation 0): both old cities would
    # merge and a new one appear (tracker.rb legal_tile_rotation?); rotation 4 ({4, 0} and
    # {1, 2}) keeps each old city in its own new city
    rotations = {o.rotation for h, o in game._lay_options(["E11"], None) if o.tile == "64"}
    assert 0 not in rotations and 4 in rotations


def test_trade_in_a_four_for_a_diesel():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    # every 2, 3, 4, 5 and the first 6 sold (phase 6, diesels for sale); the B keeps a 4
    for card in sorted(game.state.trains.values(), key=lambda t: t.order):
        if card.sym in "2345" or card.id == "6-0":
            game.state.buy_train("HSM", card.id, check=False)
    for card in game.state.trains.values():
        if card.owner == "HSM":
            card.owner = None  # out of the game
    game.state.trains["4-0"].owner = "B"
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    legal = game.legal_actions()
    # a diesel costs 1100 (more than the B's 1000), or 1100 - 300 = 800 trading in the 4
    trade = [a for a in legal if a.get("exchange") == "4-0"]
    assert trade and trade[0]["price"] == 800 and trade[0]["variant"] == "D"
    assert not any(a["type"] == "buy_train" and a["price"] == 1100 for a in legal)
    game.apply(trade[0])
    assert [t.sym for t in game.state.trains_of("B")] == ["D"]
    assert game.cash("B") == 1000 - 800
    # the traded 4 went back to the bank, and the first diesel rusts every 4
    assert game.state.trains["4-0"].owner is None


def test_emergency_buy_president_contributes_for_the_cheapest_train():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    game.state.lay_tile("H4", "57-0", 1)
    game.pay("B", "bank", 1000 - 30)  # the B has 30 left
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    legal = game.legal_actions()
    # only the cheapest depot train (2: F80); P1 pays the 50 the B lacks
    depot = [a for a in legal if a["type"] == "buy_train" and "min_price" not in a]
    assert [a["train"] for a in depot] == ["2-0"]
    assert not any(a["type"] in ("pass", "bankrupt", "sell_shares") for a in legal)
    p1 = game.cash("P1")
    game.apply(depot[0])
    assert game.cash("B") == 0 and game.cash("P1") == p1 - 50


def test_emergency_sale_sells_only_what_is_needed():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    _floated(game, "HSM", 100, "P2", holders=["P1", "P1"])
    game.state.lay_tile("H4", "57-0", 1)
    game.pay("B", "bank", 1000)
    game.pay("P1", "bank", game.cash("P1") - 10)
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    legal = game.legal_actions()
    # the B has 0, P1 10 + the ACC's 5 and the GCB's 20 paid at the start of the round:
    # 45 short of the cheapest train (80); one HSM share at 100 (the B runs first, the
    # HSM has not moved) covers it, so selling two is not allowed (selling_minimum_shares?)
    assert game.cash("P1") == 35 and game.market.price("HSM") == 100
    sales = [a for a in legal if a["type"] == "sell_shares"]
    assert [(a["corporation"], a["percent"]) for a in sales] == [("HSM", 10)]
    assert not any(a["type"] in ("buy_train", "bankrupt", "pass") for a in legal)
    game.apply(sales[0])
    # 35 + 100 = 135; the HSM falls a row (100 -> 90); then P1 pays the whole 80
    assert game.cash("P1") == 135 and game.market.price("HSM") == 90
    game.apply(next(a for a in game.legal_actions() if a["type"] == "buy_train"))
    assert game.cash("P1") == 135 - 80 and game.cash("B") == 0
    invariants(game)


def test_bankruptcy_ends_the_game_at_once():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    game.state.lay_tile("H4", "57-0", 1)
    game.pay("B", "bank", 1000)
    game.pay("P1", "bank", game.cash("P1") - 10)  # P1 has 10 and only the B's certificate
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "B", "train")
    legal = game.legal_actions()
    # 0 + 10 and no share P1 may sell (the B's presidency cannot pass): bankrupt (the
    # GCB's exchange, open at any time, aside)
    assert [a["type"] for a in legal if a["type"] != "buy_train" and a["entity"] != "GCB"] == [
        "bankrupt"
    ]
    game.apply({"type": "bankrupt", "entity": "B"})
    assert game.finished and game.end_reason == "bankrupt"
    assert game.cash("P1") == 0
    invariants(game)


def test_cflv_closes_when_the_nord_buys_its_first_train_and_fives_close_all():
    game = _stock_game()
    game.state.operators["Nord"].floated = True
    game.pay("bank", "Nord", 1000)
    _refresh(game)
    _pass_stock_round(game)
    _to_stage(game, "Nord", "train")
    assert not game.state.companies["CFLV"]["closed"]
    game.apply(next(a for a in game.legal_actions() if a["type"] == "buy_train"))
    assert game.state.companies["CFLV"]["closed"]
    assert not game.state.companies["ACC"]["closed"]
    game.train_event("close_companies", None)
    assert all(info["closed"] for info in game.state.companies.values())


def test_bank_break_ends_the_game_after_the_operating_round_set():
    game = _stock_game()
    _floated(game, "B", 100, "P1")
    game.pay("bank", "P2", game.cash("bank") - 10)  # ten left: the next private pay breaks it
    _refresh(game)
    _pass_stock_round(game)
    # the operating round starts with private revenue (105 > 10): the bank breaks, and the
    # game ends when this set of operating rounds (one in phase 2) is over
    assert game.bank_broken and not game.finished
    while not game.finished:
        legal = game.legal_actions()
        game.apply(next((a for a in legal if a["type"] == "pass"), legal[0]))
        assert game.round.kind == "operating" or game.finished
    assert game.end_reason == "bank"
    # values: cash + shares at the market price + open privates at face value
    p1 = game.cash("P1") + game.market.price("B") * 2 + 20 + 110
    assert game.result()["P1"] == p1


# ---------------------------------------------------------------------------------- API
def test_illegal_actions_leave_the_game_unchanged_and_saves_replay():
    game = _stock_game()
    before = game.save()
    with pytest.raises(IllegalAction, match="not P2's turn"):
        game.apply({"type": "pass", "entity": "P2"})
    with pytest.raises(IllegalAction, match="not a par price|cannot be parred"):
        game.apply({"type": "par", "entity": "P1", "corporation": "B", "share_price": 99})
    assert game.save() == before
    game.apply({"type": "par", "entity": "P1", "corporation": "HSM", "share_price": 76})
    again = load_game(game.to_dict())
    assert again.save() == game.save()
    assert again.cash("P1") == game.cash("P1") == 470 - 152
    with pytest.raises(ValueError, match="2-4 players"):
        new_game("1836Jr30", ["P1"])
