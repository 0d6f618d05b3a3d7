"""1842 rules engine: hand-built rule checks, each with its arithmetic.

Oracle: the rulebook ``../shared/seeds/1842-schleswig-holstein-rules.txt`` (sections as
printed).  Figures the rulebook lacks are the reconstruction's (``economy_data``,
``data``): face values AKE 100, SE 86; companies HBE 200, KE 220, RE 240, GEE 260, SSE 280
(each with a 2-train worth 100 M); trains 2: 100, 3: 200, 4: 300, 5: 450.  Market rows
(row 2 holds the AKE's 100 start field at column 5):

    row 2: 67 73 80 86p 92p 100p 108 116 ...
    row 3: 61 67 73p 80p 86 92 100 ...
    row 4: 55y 61 67 73 80 86 92 100
"""

from __future__ import annotations

import pytest

from engine.game import IllegalAction, invariants
from engine.games import load_game, new_game
from engine.games.g1842.game import Game1842, check_1842
from engine.games.g1842.game_shares import POOL

P3 = ["A", "B", "C"]


# ---------------------------------------------------------------------- helpers
def _choose(game: Game1842, choices: dict[str, str]) -> None:
    """The secret choices of the starting round, then any displaced player's first option."""
    for p in game.seats:
        game.apply({"type": "bid", "entity": p, "company": choices[p]})
    while game.round.kind == "start":
        game.apply(game.legal_actions()[0])


def _package_sold(seed: int = 0) -> Game1842:
    """Three players: A HBE, B KE, C RE in the starting round; in the first stock round
    A buys GEE and B buys SSE (the lowest unsold each time, 6.1)."""
    game = Game1842(P3, seed)
    _choose(game, {"A": "HBE", "B": "KE", "C": "RE"})
    # last buyer C (RE, the highest single choice): A, left of C, starts (6.1)
    assert game.round.kind == "stock" and game.round.current == "A"
    game.apply({"type": "buy_company", "entity": "A", "company": "GEE"})
    game.apply({"type": "buy_company", "entity": "B", "company": "SSE"})
    return game


def _ake_started(seed: int = 0) -> Game1842:
    """AKE parred by C and 50% sold in the first stock round (10% each to A, B and C); it
    starts at the round's end."""
    game = _package_sold(seed)
    game.apply({"type": "par", "entity": "C", "corporation": "AKE", "share_price": 100})
    for p in ("A", "B", "C"):
        game.apply({"type": "buy_shares", "entity": p, "corporation": "AKE",
                    "shares": [game.ipo("AKE")[0].id]})  # fmt: skip
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    return game


def _to_stage(game: Game1842, op: str, stage: str) -> None:
    """Play passively (pass, run, withhold, first choice) until ``op`` reaches ``stage``."""
    for _ in range(300):
        t = game.or_turn
        if game.round.kind == "operating" and t is not None and t.op == op and t.stage == stage:
            return
        legal = game.legal_actions()
        pick = next((a for a in legal if a["type"] == "pass"), None)
        pick = pick or next((a for a in legal if a["type"] == "run_routes"), None)
        pick = pick or next((a for a in legal if a.get("kind") == "withhold"), legal[0])
        game.apply(pick)
    raise AssertionError(f"{op} never reached {stage}")


def _give_train(game: Game1842, op: str, sym: str = "2") -> None:
    """Hand ``op`` a depot train and, for the AKE, Elmshorn's tile: Altona 30 + Elmshorn
    20 = 50 for a 2-train (a hand-built position)."""
    if op == "AKE" and "K9" not in game.state.board.laid:
        game.state.lay_tile("K9", "5-0", 4)
    ident = next(i for i in game.state.depot if game.state.trains[i].sym == sym)
    game.state.depot.remove(ident)
    game.state.trains[ident].owner = op
    game._version += 1


def _drive(game: Game1842, until) -> None:
    """Play passively until ``until(game)`` holds."""
    for _ in range(400):
        if until(game):
            return
        legal = game.legal_actions()
        pick = next((a for a in legal if a["type"] == "pass"), None)
        pick = pick or next((a for a in legal if a["type"] == "run_routes"), None)
        pick = pick or next((a for a in legal if a.get("kind") == "withhold"), legal[0])
        game.apply(pick)
    raise AssertionError("the condition never held")


def _cash(game: Game1842, *holders: str) -> dict[str, int]:
    return {h: game.cash(h) for h in holders}


# ---------------------------------------------------------------------- starting round
def test_starting_round_example_of_section_5_with_six_players():
    # 5: A HBE, B KE, C HBE, D KE, E SSE, F SSE (F the banker).  No single choice: F buys
    # SSE first; E, displaced, buys RE (his choice of the unselected GEE/RE); left of E is
    # A, who buys HBE; C takes the only unselected company left, GEE; D, left of C, buys
    # KE; B has no company, starts the first stock round and buys the AKE director
    # certificate (5.1).
    game = Game1842(list("ABCDEF"))
    for p, c in zip("ABCDEF", ["HBE", "KE", "HBE", "KE", "SSE", "SSE"], strict=True):
        game.apply({"type": "bid", "entity": p, "company": c})
    legal = game.legal_actions()
    assert {a["entity"] for a in legal} == {"E"}
    assert sorted(a["company"] for a in legal) == ["GEE", "RE"]
    game.apply({"type": "bid", "entity": "E", "company": "RE"})
    owners = {m: game.minor_owner[m] for m in ("HBE", "KE", "RE", "GEE", "SSE")}
    assert owners == {"HBE": "A", "KE": "D", "RE": "E", "GEE": "C", "SSE": "F"}
    # each paid the face value from 370 (6 players): 370 - 200, -220, -240, -260, -280
    assert _cash(game, *"ABCDEF") == {"A": 170, "B": 370, "C": 110, "D": 150, "E": 130,
                                      "F": 90}  # fmt: skip
    # companies hold the price less the 2-train's 100 M
    assert _cash(game, "HBE", "KE", "RE", "GEE", "SSE") == {
        "HBE": 100,
        "KE": 120,
        "RE": 140,
        "GEE": 160,
        "SSE": 180,
    }
    assert all(len(game.state.trains_of(m)) == 1 for m in owners)
    # bank: 11,000 - 6 x 370 + 1,200 paid - 700 treasuries = 9,280
    assert game.cash("bank") == 9280
    assert game.round.kind == "stock" and game.round.current == "B"
    assert game.legal_actions() == [
        {"type": "par", "entity": "B", "corporation": "AKE", "share_price": 100}
    ]
    invariants(game)
    check_1842(game)


def test_a_package_company_starts_with_station_train_and_building_tokens():
    game = Game1842(P3)
    _choose(game, {"A": "HBE", "B": "KE", "C": "RE"})
    # HBE: 200 - 100 = 100 M, a 2-train, its station in Bergedorf, 3 building tokens;
    # RE: 4 tokens and its "2nd tile" marker (3.1, 3.1.1)
    assert game.cash("HBE") == 100 and game.cash("A") == 730 - 200
    assert game.state.tokens_of("HBE") == [("L12", 0)]
    assert game.building == {"HBE": 3, "KE": 3, "RE": 4}
    assert game.markers["RE"] == {"2nd tile"}


# ---------------------------------------------------------------------- first stock round
def test_first_stock_round_sells_the_package_in_order_and_nothing_may_be_sold():
    game = Game1842(P3)
    _choose(game, {"A": "HBE", "B": "KE", "C": "RE"})
    legal = game.legal_actions()
    # 6.1: only the lowest unsold company (GEE, 260) or a pass
    assert legal == [{"type": "buy_company", "entity": "A", "company": "GEE", "price": 260},
                     {"type": "pass", "entity": "A"}]  # fmt: skip
    with pytest.raises(IllegalAction, match="GEE|SSE|not among|not allowed"):
        game.apply({"type": "buy_company", "entity": "A", "company": "SSE"})
    before = game.save()
    with pytest.raises(IllegalAction):
        game.apply({"type": "sell_shares", "entity": "A", "corporation": "AKE", "percent": 10})
    assert game.save() == before  # a refused action changes nothing
    # everybody passes: an operating round of the companies sold, then the first stock
    # round goes on (6.1)
    for p in ("A", "B", "C"):
        game.apply({"type": "pass", "entity": p})
    assert game.round.kind == "operating" and game.round.entities == ["HBE", "KE", "RE"]
    _to_stage(game, "RE", "train")
    game.apply({"type": "pass", "entity": "RE"})
    assert game.round.kind == "stock" and game.first_sr
    assert game.legal_actions()[0]["company"] == "GEE"


def test_minor_revenue_is_split_half_and_half():
    game = Game1842(P3)
    _choose(game, {"A": "HBE", "B": "KE", "C": "RE"})
    for p in ("A", "B", "C"):
        game.apply({"type": "pass", "entity": p})
    _to_stage(game, "KE", "route")
    run = game.legal_actions()[0]
    assert run["type"] == "run_routes"
    before = _cash(game, "KE", "B")
    game.apply(run)
    # 3.1.2: half to the treasury, half to the owner
    half = run["revenue"] // 2
    assert game.cash("KE") - before["KE"] == run["revenue"] - half
    assert game.cash("B") - before["B"] == half


# ---------------------------------------------------------------------- corporations
def test_corporation_starts_at_fifty_percent_with_ten_times_face_value():
    game = _ake_started()
    # director 20% + 3 x 10% = 50% sold: at the round's end the bank hands over 10 x 100
    assert game.started("AKE") and game.cash("AKE") == 1000
    assert game.state.tokens_of("AKE") == [("L10", 1)]  # Altona, free
    assert game.market.where["AKE"] == (2, 5) and game.market.price("AKE") == 100
    # C bought the director certificate (200) and one share (100): 730 - 240 (RE) - 300
    assert game.cash("C") == 190
    assert "BHE" in game.available()  # 3.3.1: BHE once 50% of AKE is sold


def test_payout_pays_pool_shares_to_the_treasury_and_nothing_for_the_offering():
    game = _ake_started()
    _give_train(game, "AKE")
    _to_stage(game, "AKE", "dividend")
    game.shares.certs["AKE_5"].owner = POOL  # 10% in the pool, 40% in the offering
    game._version += 1
    game.or_turn.revenue = 150
    before = _cash(game, "A", "B", "C", "AKE", "bank")
    game.apply({"type": "dividend", "entity": "AKE", "kind": "payout"})
    # 15 per 10%: A 10% -> 15, B 10% -> 15, C 30% -> 45, pool 10% -> 15 to AKE,
    # offering 40% -> nothing (3.3.4); the bank pays 90
    after = _cash(game, "A", "B", "C", "AKE", "bank")
    assert {k: after[k] - before[k] for k in after} == {
        "A": 15,
        "B": 15,
        "C": 45,
        "AKE": 15,
        "bank": -90,
    }
    assert game.market.price("AKE") == 108  # one field right (8)


def test_withholding_moves_the_token_left():
    game = _ake_started()
    _give_train(game, "AKE")
    _to_stage(game, "AKE", "dividend")
    game.or_turn.revenue = 80
    game._version += 1
    game.apply({"type": "dividend", "entity": "AKE", "kind": "withhold"})
    assert game.cash("AKE") == 1000 + 80 and game.market.price("AKE") == 92  # 100 -> 92


def test_sales_move_one_field_up_to_twenty_percent_and_two_from_thirty():
    market_game = _ake_started()
    m = market_game.market
    m.sale("AKE", 20)  # 100 (row 2) -> 92 (row 3)
    assert m.price("AKE") == 92
    m.sale("AKE", 30)  # 92 (row 3, col 5) -> 86 (row 4) -> 80 (row 5, col 5)
    assert m.price("AKE") == 80


def test_director_changes_hand_over_two_ordinary_certificates():
    from engine.games.g1842.game_shares import ShareBook

    # WHE: director 20%, one 20% and six 10% certificates (2).  B directs with 20 + 10;
    # A holds 20 + 10 and buys 10 more: 40 > 30, so A becomes director and hands B "two
    # ordinary shares" (3.3.6): his two 10% certificates, keeping the 20% one
    book = ShareBook(["A", "B", "C"])
    book.add_structure("WHE", [20, 20, 10, 10, 10, 10, 10, 10])
    book.take("B", "WHE_0")
    book.take("A", "WHE_1")
    book.take("B", "WHE_2")
    book.take("A", "WHE_3")
    assert book.president("WHE") == "B"  # a tie keeps the director
    book.take("A", "WHE_4")
    assert book.president("WHE") == "A"
    assert sorted(c.id for c in book.certs_of("A")) == ["WHE_0", "WHE_1"]
    assert sorted(c.id for c in book.certs_of("B")) == ["WHE_2", "WHE_3", "WHE_4"]
    # A (director 20 + a 20% certificate) cannot sell 10%: he would stay director (30 vs
    # B's 30) and has no 10% certificate; selling 20% or more passes the office to B, who
    # hands A two 10% certificates first (3.3.6, 6.2: whole certificates only)
    assert book.sale_sizes("A", "WHE") == [20, 30, 40]
    book.sell("A", "WHE", 20)  # A's 20% certificate goes; A keeps the two 10% ones
    assert book.president("WHE") == "B" and book.percent("WHE", "A") == 20
    assert book.percent("WHE", POOL) == 20 and book.percent("WHE", "B") == 30


def test_top_right_field_ends_the_game_after_the_current_operating_round():
    game = _ake_started()
    _give_train(game, "AKE")
    _to_stage(game, "AKE", "dividend")
    m = game.market
    m.place("AKE", 0, 13)  # 220, one field left of the top-right 240
    game.or_turn.revenue = 50
    game._version += 1
    game.apply({"type": "dividend", "entity": "AKE", "kind": "payout"})
    # 9: the token reached the top-right field; the current OR is completed first
    assert m.at_end("AKE") and game.end_trigger == ("top_right", "current_or")
    assert not game.finished
    _drive(game, lambda g: g.finished)
    assert game.end_reason == "top_right" and game.round.kind == "operating"
    # scores: cash + shares at market value (+ companies at face value): C holds 30% AKE
    # at 240 and RE (face value 240)
    assert game.result()["C"] == game.cash("C") + 3 * 240 + 240


def test_station_costs_three_times_the_city_value():
    game = _ake_started()
    # Elmshorn K9 with the yellow tile 5 (a city worth 20): 3 x 20 = 60 (7.3)
    game.state.lay_tile("K9", "5-0", 4)
    assert game.station_cost("K9", 0) == 3 * 20


def test_two_lays_in_the_first_operating_round_in_different_hexes():
    game = _ake_started()
    _to_stage(game, "AKE", "track")
    first = next(a for a in game.legal_actions() if a["type"] == "lay_tile")
    game.apply(first)
    legal = game.legal_actions()
    # 3.3.3: a second lay, not in the same hex
    assert any(a["type"] == "lay_tile" for a in legal)
    assert all(a["hex"] != first["hex"] for a in legal if a["type"] == "lay_tile")
    second = next(a for a in legal if a["type"] == "lay_tile")
    game.apply(second)
    assert game.or_turn.stage == "token"


def test_nobody_but_the_hav_builds_on_hamburg():
    game = _ake_started()
    _to_stage(game, "AKE", "track")
    assert all(a["hex"] not in ("L10", "M9") for a in game.legal_actions()
               if a["type"] == "lay_tile")  # fmt: skip
    with pytest.raises(IllegalAction, match="only the HAV"):
        game.apply({"type": "lay_tile", "entity": "AKE", "hex": "L10", "tile": "HH1A",
                    "rotation": 0})  # fmt: skip


# ---------------------------------------------------------------------- HAV
def _hav_started(game: Game1842, holders: dict[str, int], pool: int = 0) -> None:
    """Put HAV certificates with ``holders`` and the pool and start it (3.4.2)."""
    certs = list(game.hav.by_corp["HAV"])
    for who, pct in [*holders.items(), (POOL, pool)]:
        while pct:
            cert = next(c for c in certs if c.owner == "HAV" and c.percent <= pct)
            cert.owner = who
            pct -= cert.percent
    game.hav.presidents["HAV"] = game.hav.certs["HAV_0"].owner
    game.state.operators["HAV"].floated = True
    game.market.start("HAV")
    game._version += 1


def test_hav_dividend_example_of_3_4_2_2():
    # 40% held by corporations, 20% in the pool, 110 M in the treasury: 60% purchased,
    # 110 / 6 = 18.3 rounded down to 5 M -> 15 per 10%: corporations 60, bank 30, 20 kept;
    # the token moves one field right (30 -> 35)
    game = _ake_started()
    _hav_started(game, {"AKE": 40}, pool=20)
    game.pay("bank", "HAV", 110)
    before = _cash(game, "AKE", "HAV", "bank")
    game.skip_hav_pay("HAV")  # the HAV's payout (its turn's last step)
    after = _cash(game, "AKE", "HAV", "bank")
    assert {k: after[k] - before[k] for k in after} == {"AKE": 60, "HAV": -90, "bank": 30}
    assert game.cash("HAV") == 20 and game.market.price("HAV") == 35


def test_simplified_hav_pays_five_per_share_from_the_bank():
    # "10.3 HAV simplified": 5 M per held 10%, the price stays 30: AKE 40% -> 20
    game = _package_sold()
    game = Game1842(P3, 0, ["hav_simplified"], game.actions)
    game.apply({"type": "par", "entity": "C", "corporation": "AKE", "share_price": 100})
    _hav_started(game, {"AKE": 40}, pool=20)
    before = game.cash("AKE")
    game.skip_hav_pay("HAV")
    assert game.cash("AKE") - before == 20 and game.share_value("HAV") == 30


def test_hav_first_tile_links_harburg_and_costs_two_building_tokens():
    game = _ake_started()
    _hav_started(game, {"AKE": 50})
    game.hav_tokens = 5
    game.box_tokens -= 5  # keep the building-token count whole (from the box)
    _to_stage(game, "HAV", "hav_build")
    legal = game.legal_actions()
    # 3.4.2.1: the first tile joins Hamburg to Harburg from the station the director
    # chooses (HH1A: Altona, HH1B: Hauptbahnhof); it must be built (no pass)
    assert sorted((a["tile"], a["rotation"], a["tokens"]) for a in legal) == [
        ("HH1A", 0, 2),
        ("HH1B", 0, 2),
    ]
    game.apply(legal[0])
    assert game.hav_tokens == 3 and game.spent_tokens == 2
    assert game.state.board.tile("L10").name == legal[0]["tile"]


def test_routes_through_hamburg_pay_the_hav_ten_each():
    game = _ake_started()
    _hav_started(game, {"AKE": 50})
    _give_train(game, "AKE")  # Altona (a Hamburg station) - Elmshorn: 30 + 20
    _to_stage(game, "AKE", "route")
    before = game.cash("HAV")
    run = game.legal_actions()[0]
    game.apply(run)
    # one route with a Hamburg station: the bank pays the HAV 10 M (3.4.2.2)
    assert run["revenue"] == 50 and game.cash("HAV") - before == 10


# ---------------------------------------------------------------------- trains
def _ake_at_train(seed: int = 0) -> Game1842:
    game = _ake_started(seed)
    _to_stage(game, "AKE", "train")
    return game


def test_forced_purchase_sells_hav_first_then_the_director_pays():
    game = _ake_at_train()
    assert not game.state.trains_of("AKE")
    # AKE has 30 M: it must first sell its HAV certificates (3.3.5.1 step 1)
    game.pay("AKE", "bank", game.cash("AKE") - 30)
    game.state.operators["BHE"].floated = True
    _hav_started(game, {"BHE": 20, "AKE": 30})
    game._version += 1
    legal = game.legal_actions()
    sells = [a for a in legal if a["type"] == "sell_shares"]
    buys = [a for a in legal if a["type"] == "buy_train"]
    # 2-train 100: 70 missing; 30 M a share: 30% (90 M) is the fewest that covers it
    assert sorted(a["percent"] for a in sells) == [10, 20, 30]
    assert all(a["price"] <= 30 for a in buys if "min_price" not in a)
    game.apply(next(a for a in sells if a["percent"] == 30))
    assert game.cash("AKE") == 30 + 90
    # 30% sold moves a token two fields down, but the HAV's 30 lies on the bottom row (8)
    assert game.market.price("HAV") == 30
    game.apply(next(a for a in game.legal_actions() if a["type"] == "buy_train"))
    assert game.state.trains_of("AKE")


def test_director_tops_up_and_goes_bankrupt_when_he_cannot():
    game = _ake_at_train()
    c_cash = game.cash("C")
    game.pay("AKE", "bank", game.cash("AKE") - 40)
    game._version += 1
    legal = game.legal_actions()
    buy = next(a for a in legal if a["type"] == "buy_train" and "min_price" not in a)
    assert buy["price"] == 100  # a 2-train: 40 from AKE, 60 from its director C
    game.apply(buy)
    assert game.cash("AKE") == 0 and game.cash("C") == c_cash - 60

    game = _ake_at_train(seed=1)
    game.pay("AKE", "bank", game.cash("AKE"))
    for p in ("A", "B", "C"):
        game.pay(p, "bank", game.cash(p))
    for minor in ("HBE", "KE", "RE", "GEE", "SSE"):  # no liquidation would raise money
        game.pay(minor, "bank", max(0, game.cash(minor) - 40))
    game._version += 1
    legal = game.legal_actions()
    # C owns RE (treasury 40: liquidation raises nothing), no predecessor and no other
    # shares: the only way out is bankruptcy (3.3.5.1, 10.4)
    assert legal == [{"type": "bankrupt", "entity": "AKE"}]
    price = game.market.price("AKE")
    game.apply(legal[0])
    assert "C" in game.bankrupt and game.state.operators["RE"].closed
    # C's 30% of AKE (3 x price) goes to AKE; A and B hold 10% each (< 20%): receivership;
    # the bank buys AKE a 2-train for 100, which AKE can pay; the token fell 2 fields
    assert game.shares.president("AKE") is None and game.shares.percent("AKE", POOL) == 30
    assert game.cash("AKE") == 3 * price - 100 and "AKE" not in game.loans
    assert [t.name for t in game.state.trains_of("AKE")] == ["2"]
    invariants(game)
    check_1842(game)


def _broke(game: Game1842, keep: dict[str, int] | None = None) -> None:
    """Empty AKE's treasury and the players' cash; companies keep at most 40 M (so that a
    liquidation would raise nothing) unless ``keep`` says otherwise."""
    keep = keep or {}
    for who in ("AKE", "A", "B", "C", "HBE", "KE", "RE", "GEE", "SSE"):
        left = keep.get(who, 40 if who in ("HBE", "KE", "RE", "GEE", "SSE") else 0)
        game.pay(who, "bank", max(0, game.cash(who) - left))
    game._version += 1


def test_receivership_borrows_for_its_train_and_repays_from_revenue():
    game = _ake_at_train(seed=1)
    state = game.state
    state.phase_index = 2  # phase 4: the cheapest train is a 4-train for 300
    state.depot = [i for i in state.depot if state.trains[i].sym in ("4", "5", "6", "8")]
    for card in state.trains_of("RE"):  # so that RE's liquidation puts no 2-train in the pool
        state.rust(card)
    _broke(game)
    price = game.market.price("AKE")
    game.apply({"type": "bankrupt", "entity": "AKE"})
    # C's 30% sells for 3 x price into AKE's treasury; the bank lends the rest of the 300
    assert game.loans["AKE"] == 300 - 3 * price and game.cash("AKE") == 0
    game.state.lay_tile("K9", "5-0", 4)  # Altona 30 + Elmshorn 20 = 50 for AKE's 4-train
    runs = len(game.events)
    _drive(game, lambda g: any(e["entity"] == "AKE" and e["type"] == "dividend"
                               for e in g.events[runs:]))  # fmt: skip
    # 10.4: the revenue (50) repays the loan first; the rest is withheld
    loan = 300 - 3 * price
    assert game.cash("AKE") == 50 - min(50, loan)
    assert game.loans.get("AKE", 0) == max(0, loan - 50)
    invariants(game)
    check_1842(game)


def test_surrendered_predecessor_pays_the_director_and_is_run_by_the_bank():
    game = _ake_at_train()
    game.minor_owner["GEE"] = "C"  # C, AKE's director, owns RE and (here) GEE
    _broke(game)
    # steps 3 (no other shares) and 4 (RE's 40 M would raise nothing) are empty: C must
    # give GEE to the bank for the HMBG director certificate's face value, 2 x 80 = 160
    assert game.legal_actions() == [{"type": "surrender", "entity": "GEE"}]
    game.apply({"type": "surrender", "entity": "GEE"})
    assert game.cash("C") == 160 and "GEE" in game.bank_managed
    buy = next(a for a in game.legal_actions() if a["type"] == "buy_train")
    game.apply(buy)  # the 2-train: AKE has 0, C adds 100
    assert game.cash("C") == 60
    assert game.stages_for("GEE") == ("route", "dividend")  # the bank only runs it
    invariants(game)
    check_1842(game)


def test_first_five_train_transforms_predecessors_and_cuts_the_offering():
    game = _ake_at_train()
    game.last_four_sold = True
    # one 10% of SE is sold (A), so with the director certificate 30% is out: the
    # offering (70%) is cut to 50%, 20% going to the pool as a sale: 86 -> 80 (3.2 b.8)
    game.pre.take("A", game.ipo("SE")[0].id, check=False)
    state = game.state
    state.phase_index = 2  # phase 4: the next train is the first 5
    state.depot = [i for i in state.depot if state.trains[i].sym in ("5", "6", "8")]
    game.pay("bank", "AKE", 1000)
    sse_cash = game.cash("SSE")
    game._version += 1
    five = next(a for a in game.legal_actions() if a["type"] == "buy_train"
                and a["variant"] == "5" and "min_price" not in a)  # fmt: skip
    game.apply(five)
    assert game.first_five and game.started("SE") and game.started("HMBG")
    assert game.shares.president("SE") == "B"  # SSE's owner (3.2 step 1)
    assert game.shares.percent("SE", POOL) == 20 and game.market.price("SE") == 80
    assert game.cash("SE") == sse_cash + 8 * 86  # 3.2 step 6
    assert game.state.tokens_of("SE") == [("F8", 0)] and game.state.operators["SSE"].closed
    # the privates carry sale markers: auctioned at the start of the next OR (3.1.4)
    assert game.sale_marker == {"HBE", "KE", "RE"}
    invariants(game)
    check_1842(game)


# ---------------------------------------------------------------------- auctions
def test_auction_winner_pays_the_owner_and_takes_treasury_trains_and_station():
    game = _ake_started()
    _give_train(game, "AKE")
    game.state.phase_index = 1  # green: owners are asked at an OR's start (3.1.4.1)
    _drive(game, lambda g: g.round.kind == "stock")
    _drive(game, lambda g: g.round.kind == "operating")
    assert game.legal_actions() == [{"type": "offer", "entity": "HBE"},
                                    {"type": "pass", "entity": "HBE"}]  # fmt: skip
    game.apply({"type": "offer", "entity": "HBE"})
    hbe_cash, a_cash, ake_cash = game.cash("HBE"), game.cash("A"), game.cash("AKE")
    bid = game.legal_actions()[0]
    assert bid["entity"] == "AKE" and bid["min_price"] == hbe_cash  # minimum: its treasury
    box = game.box_tokens + game.building["HBE"]
    game.apply({**bid, "price": hbe_cash + 50})
    # AKE pays A 50 more than HBE's treasury and takes that treasury: net -50 (3.1.4.1)
    assert game.cash("A") == a_cash + hbe_cash + 50
    assert game.cash("AKE") == ake_cash - 50
    assert game.state.operators["HBE"].closed and len(game.state.trains_of("AKE")) == 2
    assert ("L12", 0) in game.state.tokens_of("AKE")  # the exchange token
    assert game.box_tokens == box  # HBE's unused building tokens went to the box
    invariants(game)
    check_1842(game)


def test_liquidation_charges_forty_and_pays_the_rest_to_the_owner():
    game = _ake_started()
    owner, treasury = game.minor_owner["KE"], game.cash("KE")
    gain = game.liquidate("KE")
    assert gain == treasury - 40 and game.cash(owner) >= gain
    assert game.state.operators["KE"].closed and not game.state.tokens_of("KE")


# ---------------------------------------------------------------------- flow and saves
def test_illegal_actions_name_the_rule_and_leave_the_game_unchanged():
    game = _ake_started()
    before = game.save()
    with pytest.raises(IllegalAction, match="turn"):
        game.apply({"type": "pass", "entity": "nobody"})
    with pytest.raises(IllegalAction, match="no 'type'"):
        game.apply({"entity": "A"})
    assert game.save() == before


def test_a_game_replays_from_its_save():
    import random

    from engine.games.bots import choose

    game, rng = Game1842(["A", "B", "C", "D"], 3), random.Random(3)
    for _ in range(150):
        game.apply(choose(game.legal_actions(), rng))
    again = load_game(game.to_dict())
    assert again.legal_actions() == game.legal_actions()
    assert again.result() == game.result() and again.ledger.balances == game.ledger.balances


def test_options_are_validated():
    with pytest.raises(ValueError, match="unknown 1842 option"):
        new_game("1842", P3, 0, ["no_such_rule"])
    with pytest.raises(ValueError, match="exchange_privates"):
        new_game("1842", P3, 0, ["exchange_privates"])
    game = new_game("1842", P3, 0, ["additional_corporations"])
    # 11.2.3, 11.2.4: larger certificate limit; the optional trains are in
    assert game.cert_limit("A") == 17
    assert sum(1 for c in game.state.depot if c.startswith("2-")) == 8
