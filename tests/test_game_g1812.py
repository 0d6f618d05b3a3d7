"""1812 rules engine: hand-built checks of the special rules, each with its arithmetic.

Rulebook: ../shared/seeds/1812-rules.txt (v1.0a), section numbers in the comments.
Stock market (economy_data.MARKET): 40 45 50 55 60 65 70 80 90 100 110 120 135 150 165 ...
Revenues are fixed by hand (the optimiser is tested in test_g1812_rules.py): a test that
needs earnings replaces the game's ``optimal_run`` by a table.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.game import IllegalAction, invariants
from engine.game.base import BANK
from engine.game.shares import POOL
from engine.game.track import tile_options
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.game import Game1812, check_1812

PLAYERS = ["A", "B", "C"]


# ----------------------------------------------------------------------------- drivers
def _check(g: Game1812) -> None:
    invariants(g)
    check_1812(g)


def _sell_privates(g: Game1812) -> None:
    """Each nominator bids the minimum on the first unsold private; the others pass."""
    while g.round.kind == "auction":
        legal = g.legal_actions()
        if g.round.data["auction"] is None:
            g.apply(next(a for a in legal if a["type"] == "bid"))
        else:
            g.apply({"type": "pass", "entity": legal[0]["entity"]})
    assert g.round.kind == "stock"


def _start_minor(g: Game1812, minor: str, price: int = 100) -> str:
    """The current player auctions ``minor`` at ``price``; everybody else passes."""
    player = g.round.current
    g.apply({"type": "bid", "entity": player, "company": minor, "price": price})
    while g.round.data["auction"] is not None:
        g.apply({"type": "pass", "entity": g.round.data["auction"].to_act})
    return player


def _pass_stock(g: Game1812) -> None:
    while g.round.kind == "stock":
        g.apply({"type": "pass", "entity": g.round.current})


def _revenues(g: Game1812, table: dict[str, int]) -> None:
    """Every company with trains earns ``table[company]`` (0 if absent)."""

    def run(op):
        revenue = table.get(op, 0)
        if not g.runnable_trains(op) or not revenue:
            return 0, None
        route = SimpleNamespace(train="x", revenue=revenue, counted=())
        return revenue, SimpleNamespace(routes=[route], total=revenue)

    g.optimal_run = run


def _act(g: Game1812) -> None:
    """Run the routes or pass when allowed, else the first legal action."""
    legal = g.legal_actions()
    g.apply(next((a for a in legal if a["type"] == "run_routes"), None)
            or next((a for a in legal if a["type"] == "pass"), legal[0]))  # fmt: skip


def _to_stage(g: Game1812, op: str, stage: str, limit: int = 200) -> None:
    for _ in range(limit):
        t = g.or_turn
        if g.round.kind == "operating" and t is not None and t.op == op and t.stage == stage:
            return
        _act(g)
    raise AssertionError(f"{op} never reached {stage}")


def _buy(player: str, corp: str, source: str, percent: int) -> dict:
    return {"type": "buy_shares", "entity": player, "corporation": corp, "source": source,
            "percent": percent}  # fmt: skip


def _touch(g: Game1812) -> None:
    """State edited by hand: the cached legal list is stale; run automatic steps."""
    g._version += 1
    g._advance()


def _give(g: Game1812, holder: str, amount: int) -> None:
    g.pay(BANK, holder, amount, "test")
    g._version += 1


def _set_cash(g: Game1812, holder: str, amount: int) -> None:
    g.pay(holder, BANK, max(0, g.cash(holder) - amount), "test")
    _give(g, holder, amount - g.cash(holder))


def _train(g: Game1812, op: str, name: str = "2") -> str:
    """Hand ``op`` a Bank train of card ``name`` (no phase effects)."""
    st = g.state
    ident = next(i for i in st.depot if st.trains[i].sym == name)
    st._take(st.trains[ident])
    st.trains[ident].owner = op
    if name in ("2", "5", "3D"):
        g.mint_train(name)
    return ident


def _stock_game(n: int = 3, seed: int = 1, cash: int = 400) -> Game1812:
    """The private auction done (minimum bids); every player topped up to ``cash``."""
    g = Game1812(PLAYERS[:n], seed)
    _sell_privates(g)
    for p in g.seats:
        _set_cash(g, p, cash)
    return g


# ----------------------------------------------------------------------------- setup
def test_setup_bank_cash_privates_trains():
    g = Game1812(["A", "B", "C", "D"], 3)
    # §1.1/§3.1: £8,000 in the bank, £195 each: 8000 - 4 x 195 = 7220 left
    assert g.cash(BANK) == 7220 and all(g.cash(p) == 195 for p in g.seats)
    # §3.1: twice the player number of privates, §14.1: 6 x 3/2G and 4 x 4/3+2G for 4
    assert len(g.privates_in_play) == 8
    count = {name: sum(1 for t in g.state.trains.values() if t.sym == name)
             for name in ("2", "3", "3+1", "4", "5", "3D")}  # fmt: skip
    assert count == {"2": 1, "3": 6, "3+1": 0, "4": 4, "5": 1, "3D": 1}
    # §14.1: three station markers a public company with 4 players, four with 2-3
    assert len(g.entity_spec("NER")["tokens"]) == 3
    assert len(Game1812(PLAYERS, 3).entity_spec("NER")["tokens"]) == 4
    assert g.cert_limit("A") == 10 and Game1812(["A", "B"], 3).cert_limit("A") == 15
    # every minor's home space is reserved (§1.4.2, §7.3.3): Leeds holds minors 3 and 4
    assert g.state.reservations[("C14", 1)] == ["3"] and g.state.reservations[("C14", 0)] == ["4"]
    assert g.round.kind == "auction" and g.round.current == "A"
    _check(g)


def test_players_named_like_privates_and_bad_options():
    g = Game1812(["P1", "P2"], 0)
    assert g.round.current == "P1"
    with pytest.raises(ValueError, match="unknown 1812 option"):
        Game1812(PLAYERS, 0, ["no_such_rule"])
    with pytest.raises(ValueError, match="2 or 3 players"):
        Game1812(["A", "B", "C", "D"], 0, ["remove_some_minors"])
    with pytest.raises(ValueError, match="2-4 players"):
        Game1812(["A"], 0)
    # §10 variant: 2n + 2 = 6 minors for 2 players
    v = Game1812(["A", "B"], 0, ["remove_some_minors"])
    assert len(v.minors_in_play) == 6
    assert sum(1 for syms in v.state.reservations.values() for _ in syms) == 6


# ----------------------------------------------------------------------------- §3.2
def test_private_auction_raise_pass_winner_and_next_nominator():
    g = Game1812(PLAYERS, 1)
    item = g.privates_in_play[0]
    low = g.state.companies[item]["spec"]["min_bid"]
    bank = g.cash(BANK)
    g.apply({"type": "bid", "entity": "A", "company": item, "price": low})
    g.apply({"type": "bid", "entity": "B", "company": item, "price": low + 5})
    g.apply({"type": "pass", "entity": "C"})
    g.apply({"type": "pass", "entity": "A"})
    # B wins at low + 5, paid to the bank; C (after B) nominates next
    assert g.state.companies[item]["owner"] == "B"
    assert g.cash("B") == 195 - low - 5 and g.cash(BANK) == bank + low + 5
    assert g.round.current == "C" and g.round.data["auction"] is None
    _check(g)


def test_bids_are_multiples_of_five_within_cash_and_errors_leave_state():
    g = Game1812(PLAYERS, 1)
    item = g.privates_in_play[0]
    low = g.state.companies[item]["spec"]["min_bid"]
    before = g.legal_actions()
    with pytest.raises(IllegalAction, match="multiple of 5"):
        g.apply({"type": "bid", "entity": "A", "company": item, "price": low + 3})
    with pytest.raises(IllegalAction, match="multiple of 5"):
        g.apply({"type": "bid", "entity": "A", "company": item, "price": 200})  # cash 195
    with pytest.raises(IllegalAction, match="not B's turn"):
        g.apply({"type": "bid", "entity": "B", "company": item, "price": low})
    assert g.legal_actions() == before and g.cash("A") == 195 and not g.actions
    # any multiple of £5 in range is accepted, not only the listed ones
    g.apply({"type": "bid", "entity": "A", "company": item, "price": low + 35})
    assert g.round.data["auction"].high_bid == low + 35


def test_all_pass_without_a_sale_draws_new_privates():
    g = Game1812(PLAYERS, 1)
    first = list(g.privates_in_play)
    for p in PLAYERS:
        g.apply({"type": "pass", "entity": p})
    # §3.2: a new random set, the auction starts again with Place Card #1
    assert g.round.kind == "auction" and g.round.current == "A"
    assert len(g.privates_in_play) == 6 and g.privates_in_play != first
    assert any("new set of privates" in line for line in g.log)


def test_all_pass_after_a_sale_gives_two_private_ors_then_the_auction_goes_on():
    g = Game1812(PLAYERS, 1)
    item = g.privates_in_play[0]  # P2 for seed 1: min 15, income 5
    spec = g.state.companies[item]["spec"]
    g.apply({"type": "bid", "entity": "A", "company": item, "price": spec["min_bid"]})
    g.apply({"type": "pass", "entity": "B"})
    g.apply({"type": "pass", "entity": "C"})
    for p in ("B", "C", "A"):
        g.apply({"type": "pass", "entity": p})
    # two ORs where only the private pays: A = 195 - 15 + 2 x 5 = 190
    assert g.cash("A") == 195 - spec["min_bid"] + 2 * spec["revenue"] == 190
    # §6.3 Place Cards by cash: B and C (195, old order) before A (190)
    assert g.round.kind == "auction" and g.players == ["B", "C", "A"] and g.turn == 2
    _check(g)


def test_normal_stock_round_starts_after_the_last_private_buyer():
    g = Game1812(PLAYERS, 1)
    buyers = []
    while g.round.kind == "auction":
        legal = g.legal_actions()
        if g.round.data["auction"] is None:
            buyers.append(g.round.current)
            g.apply(next(a for a in legal if a["type"] == "bid"))
        else:
            g.apply({"type": "pass", "entity": legal[0]["entity"]})
    # six privates: A, B, C, A, B, C nominate and win; the Stock Round goes on with A
    assert buyers == ["A", "B", "C", "A", "B", "C"]
    assert g.round.kind == "stock" and g.round.current == "A" and g.turn == 1


# ----------------------------------------------------------------------------- §6
def test_minor_auction_treasury_start_price_token_and_next_turn():
    g = _stock_game()
    with pytest.raises(IllegalAction):
        g.apply({"type": "bid", "entity": "A", "company": "2", "price": 95})  # minimum £100
    g.apply({"type": "bid", "entity": "A", "company": "2", "price": 100})
    g.apply({"type": "bid", "entity": "B", "company": "2", "price": 155})
    g.apply({"type": "pass", "entity": "C"})
    g.apply({"type": "pass", "entity": "A"})
    # §6.2.1: 155 into the minor; half is 77.5 -> 77, rounded down to the yellow space 70
    assert g.minor_owner["2"] == "B" and g.cash("2") == 155 and g.market.price("2") == 70
    assert g.state.tokens[("G16", 0)] == ["2"]
    # the next turn is the player after the winner B: C
    assert g.round.current == "C" and g.round.data["passes"] == 0
    _check(g)


def test_no_public_shares_before_phase_three_and_place_cards_by_cash():
    g = _stock_game()
    assert not [a for a in g.legal_actions() if a["type"] in ("buy_shares", "par")]
    _start_minor(g, "7", 120)  # A: 195 - privates - 120
    cash = {p: g.cash(p) for p in PLAYERS}
    _pass_stock(g)
    expected = sorted(PLAYERS, key=lambda p: (-cash[p], PLAYERS.index(p)))
    assert g.players == expected and g.round.kind == "operating"


def test_certificate_limit_forces_sales_first():
    g = _stock_game(2)
    g.state.phase_index = 1  # phase 3: shares on sale
    g.open_public("NER")
    g.shares.par("NER", "A")
    g.market.place_at("NER", 100)
    g.state.operators["NER"].operated = True
    g.state.place_token("F5", 0, "NER", check=False)
    for cert in g.shares.ordinary("NER", "NER")[:4]:
        g.shares.move([cert.id], "A")
    # A holds 2 privates + the Director's Certificate + 4 shares = 7; the limit is 15 for 2
    assert g.num_certs("A") == 7
    g.cert_limit = lambda p: 5  # tighten it to see the rule: 7 > 5
    g._version += 1  # the legal list is cached per state version
    legal = g.legal_actions()
    assert legal and all(a["type"] == "sell_shares" for a in legal)
    # the Director's Certificate never goes to the pool: A may sell only its 4 shares
    assert sorted(a["percent"] for a in legal) == [10, 20, 30, 40]


# ----------------------------------------------------------------------------- §7.3.5
def _or_game_with_minor(minor: str = "7", bid: int = 100, seed: int = 1, before=None):
    """``minor`` auctioned at ``bid``; ``before(g)`` edits the state before the first OR."""
    g = _stock_game(seed=seed)
    owner = _start_minor(g, minor, bid)
    if before is not None:
        before(g)
    _pass_stock(g)
    assert g.round.kind == "operating"
    return g, owner


def test_minor_dividend_half_each_and_price_up_then_down():
    g, owner = _or_game_with_minor("7", 100)  # price 50
    _train(g, "7")
    _revenues(g, {"7": 90})
    cash = g.cash(owner)
    _to_stage(g, "7", "train")
    # §7.3.5: 90 -> 45 to the owner, 45 to the minor; earnings > 0: one space up 50 -> 55
    assert g.cash(owner) == cash + 45 and g.cash("7") == 100 + 45
    assert g.market.price("7") == 55
    _revenues(g, {})
    g.apply({"type": "pass", "entity": "7"})
    _to_stage(g, "7", "train")
    # no earnings: one space down 55 -> 50
    assert g.market.price("7") == 50
    _check(g)


def test_minor_price_stops_at_150():
    g, _owner = _or_game_with_minor("7", 200)  # 100 is the top yellow space
    assert g.market.price("7") == 100
    g.market.remove("7")
    g.market.place_at("7", 150)
    _train(g, "7")
    _revenues(g, {"7": 40})
    _to_stage(g, "7", "train")
    assert g.market.price("7") == 150  # §7.3.5: minors never above £150


def _public(g: Game1812, corp: str, director: str, price: int, held: dict) -> None:
    """A public company in play with the Director's Certificate and ``held`` shares."""
    g.open_public(corp)
    g.shares.par(corp, director)
    g.market.place_at(corp, price)
    for holder, n in held.items():
        certs = g.shares.ordinary(corp, corp)[:n]
        g.shares.move([c.id for c in certs], holder)


def test_public_dividend_half_payout_withhold():
    g = _stock_game()
    g.state.phase_index = 1
    # NER at 100: A Director (20%) + 30%, B 20%, pool 10%, treasury 20%
    _public(g, "NER", "A", 100, {"A": 3, "B": 2, POOL: 1})
    g.state.place_token("F5", 0, "NER", check=False)
    _train(g, "NER", "3")
    _pass_stock(g)
    _revenues(g, {"NER": 250})
    cash = {h: g.cash(h) for h in ("A", "B", "NER")}
    _to_stage(g, "NER", "dividend")
    g.apply({"type": "dividend", "entity": "NER", "kind": "half"})
    # §7.3.5 half: 250 / 2 = 125, rounded up to 130 paid out, 13 a share; kept 120
    # A 5 shares 65, B 2 shares 26, treasury 2 shares 26 to NER, pool 13 stays in the bank
    assert g.cash("A") - cash["A"] == 65 and g.cash("B") - cash["B"] == 26
    assert g.cash("NER") - cash["NER"] == 120 + 26
    # 10 x 13 = 130 >= 100: one space up to 110
    assert g.market.price("NER") == 110
    _revenues(g, {"NER": 90})
    _to_stage(g, "NER", "dividend")
    g.apply({"type": "dividend", "entity": "NER", "kind": "payout"})
    # 9 a share: 10 x 9 = 90 < 110, no move
    assert g.market.price("NER") == 110
    _to_stage(g, "NER", "dividend")
    g.apply({"type": "dividend", "entity": "NER", "kind": "withhold"})
    # withheld: one space down to 100
    assert g.market.price("NER") == 100
    _check(g)


# ----------------------------------------------------------------------------- §7.2-7.3.7
def test_track_loans_are_the_fewest_that_pay():
    g, owner = _or_game_with_minor("8", 100)  # Sheffield C18, a white city
    g.pay("8", BANK, 80, "test")  # cash 20
    _revenues(g, {})
    _to_stage(g, "8", "track")
    lays = [a for a in g.legal_actions() if a["type"] == "lay_tile"]
    assert lays and {a["hex"] for a in lays} == {"C18"}  # §7.3.2: its home first
    g.apply(lays[0])
    # next: a yellow lay on a neighbour costs terrain + £20 for the second operation
    second = [a for a in g.legal_actions() if a["type"] == "lay_tile" and a["cost"] > 20]
    lay = second[0]
    # §7.2: fewest loans for cost - 20: each loan is +50 - 5 interest = 45 net
    assert lay["loans"] == -(-(lay["cost"] - 20) // 45)
    g.apply(lay)
    n = lay["loans"]
    assert g.loans["8"] == n and g.cash("8") == 20 + 45 * n - lay["cost"]
    _check(g)


def test_interest_then_repayment():
    def before(g):
        g.loans["7"] = 2
        _give(g, "7", 100)  # 200
        _train(g, "7")

    g, _owner = _or_game_with_minor("7", 100, before=before)
    _revenues(g, {})
    _to_stage(g, "7", "train")
    # §7.3.6: 2 x £5 paid (200 -> 190); §7.3.7: both £50 loans repaid (190 -> 90)
    assert g.cash("7") == 90 and "7" not in g.loans


def test_unpayable_interest_at_the_loan_limit_takes_all_cash_and_a_space():
    def before(g):
        g.loans["7"] = 2  # the minor's limit
        g.pay("7", BANK, 96, "test")  # cash 4 < 2 x 5
        _train(g, "7")

    g, _owner = _or_game_with_minor("7", 100, before=before)  # price 50
    _revenues(g, {})
    _to_stage(g, "7", "track")
    g.apply({"type": "pass", "entity": "7"})  # no route: nothing earned
    # no earnings: 50 -> 45; §7.3.6 no further loan allowed: all £4 to the bank, 45 -> 40
    assert g.cash("7") == 0 and g.market.price("7") == 40


def test_trainless_company_buys_with_minimum_loans_and_may_not_pass():
    g, _owner = _or_game_with_minor("7", 100)
    g.pay("7", BANK, 20, "test")  # cash 80
    _revenues(g, {})
    _to_stage(g, "7", "train")
    legal = g.legal_actions()
    assert not [a for a in legal if a["type"] == "pass"]  # §7.3.8: must buy if it can
    by_side = {a["variant"]: a for a in legal if a["type"] == "buy_train"}
    # 2-train £100: 20 short -> 1 loan; 1G £90: 10 short -> 1 loan (§7.2)
    assert by_side["2"]["loans"] == 1 and by_side["1G"]["loans"] == 1
    g.apply(by_side["1G"])
    # 80 + 45 - 90 = 35; an unlimited 2/1G is minted again for the Bank
    assert g.cash("7") == 35 and g.loans["7"] == 1
    assert any(g.state.trains[i].sym == "2" for i in g.state.depot)
    _check(g)


def test_trainless_without_means_drops_a_space():
    def before(g):
        g.loans["7"] = 2
        g.pay("7", BANK, 95, "test")  # cash 5: interest 10 cannot be paid

    g, _owner = _or_game_with_minor("7", 100, before=before)  # price 50
    _revenues(g, {})
    for _ in range(20):  # minor 7's first turn (the only company: the OR's only turn)
        if g.round.kind != "operating" or g.round.num != 1 or g.or_turn is None:
            break
        _act(g)
    # no earnings 50 -> 45; interest unpaid: 45 -> 40; no train, none affordable: closed
    # (§7.3.5, §7.3.6, §7.3.8, §4.2)
    assert not g.market.has("7") and g.state.operators["7"].closed and "7" not in g.minor_owner
    assert g.cash("7") == 0 and not g.state.tokens_of("7")
    _check(g)


# ----------------------------------------------------------------------------- §2, §7.3.8
def test_phases_supply_refresh_obsolescence_and_privates_closing():
    g, _owner = _or_game_with_minor("7", 100)
    _revenues(g, {})
    st = g.state
    _to_stage(g, "7", "train")
    g.apply(next(a for a in g.legal_actions() if a["type"] == "buy_train" and a["variant"] == "2"))
    assert "2" in g.bought_types and st.phase_name == "2"
    g.refresh_train_supply()
    # §7.3.8: unsold 2/1Gs leave before the next Stock Round; the 3/2G is next
    assert st.trains[st.depot[0]].sym == "3" and "2" in g.retired_trains
    threes = [i for i in st.depot if st.trains[i].sym == "3"]
    ident = _train(g, "7", "3")
    st.train_bought(st.trains[ident], "depot")
    g.bought_types.add("3")
    assert st.phase_name == "3"
    g.refresh_train_supply()
    # the 4 unsold 3/2G (5 for 3 players, one sold) become 4 x 3+1/2+1G
    assert g.converted_threes == len(threes) - 1 == 4
    assert [st.trains[i].sym for i in st.depot[:4]] == ["3+1"] * 4
    _check(g)


def test_trade_in_and_stephenson_discounts():
    g = _stock_game()
    g.state.phase_index = 3  # phase 5: trade-ins (§2.4), 3D on sale
    for ident in list(g.state.depot):  # the 2s, 3s and 4s are long sold
        if g.state.trains[ident].sym in ("2", "3", "4"):
            g.state.rust(g.state.trains[ident])
    g.retired_trains.update({"2", "3"})
    _public(g, "NER", "A", 100, {"A": 2})
    g.state.place_token("F5", 0, "NER", check=False)
    g.mint_train("3+1")
    ident = _train(g, "NER", "3+1")
    g.state.trains[ident].name = "2+1G"
    _give(g, "NER", 1000)
    g.or_turn = SimpleNamespace(op="NER")
    acts = [a for a in g.legal_train("NER") if a.get("exchange") == ident]
    # §7.3.8: a quarter of the 2+1G's £200 face value, £50 off: 5-train 500 -> 450,
    # 4+2G 460 -> 410, 3D 750 -> 700, 2+2GD 460 -> 410
    assert {a["variant"]: a["price"] for a in acts} == {"5": 450, "4+2G": 410, "3D": 700,
                                                        "2+2GD": 410}  # fmt: skip
    g2 = _stock_game()
    _public(g2, "NER", "A", 100, {"A": 2})
    g2.state.companies["P6"]["owner"] = "NER"
    g2.state.companies["P6"]["closed"] = False
    _give(g2, "NER", 500)
    steph = [a for a in g2.legal_train("NER") if a["stephenson"]]
    # Stephenson's Engine Works: £40 off a Bank train: 2 -> 60, 1G -> 50
    assert {a["variant"]: a["price"] for a in steph} == {"2": 60, "1G": 50}


# ----------------------------------------------------------------------------- §7.3.3
def test_station_marker_cost_hull_to_sunderland_is_120():
    g = _stock_game(seed=1)
    g.state.phase_index = 2
    _public(g, "NER", "A", 100, {"A": 2})
    g.state.place_token("G16", 0, "NER", check=False)
    _give(g, "NER", 500)
    g.token_options = lambda op: [("F5", 0)]  # the network is engine.game.track's
    # §7.3.3 example: one marker in Hull, the second in Sunderland, 6 hexes: 6 x 20 = 120
    acts = [a for a in g.legal_token("NER") if a["type"] == "place_token"]
    assert acts == [{"type": "place_token", "entity": "NER", "hex": "F5", "city": 0,
                     "cost": 120}]  # fmt: skip
    g.state.place_token("E8", 0, "NER", check=False)
    # with two markers: £40 a hex from the nearer, Hull (6) or Middlesbrough (2): 80
    assert [a["cost"] for a in g.legal_token("NER") if a["type"] == "place_token"] == [80]


# ----------------------------------------------------------------------------- §8
def _merger_game(prices: dict[str, int], owners: dict[str, str], cash: int = 300):
    """Minors at ``prices`` owned by ``owners``, the Leeds/York/Newcastle cities upgraded
    to green (one city each), phase 3, at the start of a Merger Round."""
    g = _stock_game()
    st = g.state
    st.phase_index = 1
    for hex_ in ("C14", "E4", "E14"):
        # any green Y city left in supply: one city of two spaces
        used = st.board.tiles_in_use()
        opt = next(o for o in tile_options(st, hex_)
                   if used[o.tile] < st.board.tile_count(o.tile))  # fmt: skip
        st.lay_tile(hex_, f"{opt.tile}-0", opt.rotation)
    for minor, price in prices.items():
        owner = owners[minor]
        g.minor_owner[minor] = owner
        g.market.place_at(minor, price)
        st.operators[minor].floated = True
        hex_, city = next(k for k, v in st.reservations.items() if minor in v)
        st.place_token(hex_, city, minor, check=False)
    for p in g.seats:
        _set_cash(g, p, cash)
    g._net_cache = {}
    g.start_merger_round(1)
    _touch(g)
    return g


def test_merger_price_shares_upgrades_and_director():
    # Leeds minors 3 (A, £100) and 4 (B, £60), one green city: connected (§8.3); C's
    # minor 9 (York, £100) keeps the round open after the merger
    g = _merger_game({"3": 100, "9": 100, "4": 60}, {"3": "A", "9": "C", "4": "B"})
    assert g.round.current == "3"  # operating order: 100 before 60
    g.apply({"type": "merge", "entity": "3", "minor": "4"})
    g.apply({"type": "form", "entity": "3", "corporation": "GNR"})
    g.apply({"type": "accept", "entity": "B"})
    # §8.3: 100 + 60 = 160 -> 150 (a market value), four spaces down -> 100
    assert g.market.price("GNR") == 100
    # 1.5 shares each; odd minors: both upgrade for half of 100 = 50 to the company
    # (A first: its minor operates first); 2 shares each, tie -> A (earliest minor)
    assert g.shares.percent("GNR", "A") == 20 and g.shares.percent("GNR", "B") == 20
    assert g.shares.president("GNR") == "A" and g.cash("A") == 250 and g.cash("B") == 250
    assert g.cash("GNR") == 50 + 50  # the minors had no cash
    # both markers stood in the one Leeds city: GNR takes one
    assert g.state.tokens_of("GNR") == [("C14", 0)]
    assert not g.market.has("3") and "3" not in g.minor_owner
    # §8.4 offer: A, then B (the holders), buy any number of the 6 treasury shares at
    # 100: A's £250 pays for two
    legal = g.legal_actions()
    assert legal[0]["entity"] == "A" and max(a.get("percent", 0) for a in legal) == 20
    g.apply(_buy("A", "GNR", "treasury", 20))
    g.apply({"type": "pass", "entity": "B"})
    # then one share each, from the Director (A: 40%, £50 left: nothing) in Player Order:
    # B then C; C buys one for 100
    assert g.legal_actions()[0]["entity"] == "B"
    g.apply({"type": "pass", "entity": "B"})
    g.apply(_buy("C", "GNR", "treasury", 10))
    assert g.shares.percent("GNR", "C") == 10 and g.cash("GNR") == 100 + 200 + 100
    assert g.round.current == "9" and g.round.data["step"] is None
    _check(g)


def test_merger_not_allowed_without_a_two_share_holder():
    # E4 minors 5 (A, £150) and 6 (B, £120): 150 + 120 = 270, four down 180, cap 135;
    # an upgrade costs 135 / 2 rounded up = 68: with £60 each both would downgrade and
    # nobody would hold two shares, so the merger is not allowed (§8.3): 5 can only pass
    g = _merger_game({"5": 150, "6": 120}, {"5": "A", "6": "B"}, cash=60)
    g.apply({"type": "merge", "entity": "5", "minor": "6"})
    assert g.round.current == "6" and g.alive("5") and g.alive("6")


def test_merger_downgrade_and_cap_135():
    g = _merger_game({"5": 150, "6": 120, "3": 100}, {"5": "A", "6": "B", "3": "C"}, cash=60)
    _set_cash(g, "A", 100)
    g.apply({"type": "merge", "entity": "5", "minor": "6"})
    g.apply({"type": "form", "entity": "5", "corporation": "NER"})
    g.apply({"type": "accept", "entity": "B"})
    assert g.market.price("NER") == ed.MERGED_MAX_PRICE == 135
    # A upgrades (pays 68 to NER: 2 shares, Director); B downgrades (67 from the bank)
    assert g.cash("A") == 100 - 68 and g.cash("B") == 60 + 67 and g.cash("NER") == 68
    assert g.shares.president("NER") == "A" and g.shares.percent("NER", "B") == 10
    _check(g)


def test_conversion_price_shares_assets_and_marker():
    g = _merger_game({"9": 100, "3": 60}, {"9": "A", "3": "B"})
    _give(g, "9", 70)
    _train(g, "9")
    g.state.companies["P2"].update(owner="9", closed=False)
    g.loans["9"] = 1
    g.apply({"type": "convert", "entity": "9", "corporation": "MR"})
    # §8.2: £100 four spaces down: 100 -> 90 -> 80 -> 70 -> 65
    assert g.market.price("MR") == 65
    # the owner gets the Director's Certificate and one share; seven stay in the treasury
    assert g.shares.percent("MR", "A") == 30 and len(g.shares.ordinary("MR", "MR")) == 7
    # §8.4: cash, train, private and the loan pass to MR; MR replaces 9's marker at York
    assert g.cash("MR") == 70 and g.loans["MR"] == 1 and "9" not in g.loans
    assert [t.owner for t in g.state.trains.values() if t.owner in ("9", "MR")] == ["MR"]
    assert g.state.companies["P2"]["owner"] == "MR"
    assert g.state.tokens_of("MR") == [("E14", 0)] and not g.state.tokens_of("9")
    _check(g)


def test_merge_needs_track_between_the_minors():
    # Leeds (3) and Newcastle (5) have no track between them: no merge is offered
    g = _merger_game({"3": 100, "5": 60}, {"3": "A", "5": "A"})
    kinds = {a["type"] for a in g.legal_actions()}
    assert "merge" not in kinds and "convert" in kinds


def test_declined_merger_is_not_proposed_again_that_round():
    g = _merger_game({"3": 100, "4": 60, "9": 55}, {"3": "A", "4": "B", "9": "C"})
    g.apply({"type": "merge", "entity": "3", "minor": "4"})
    g.apply({"type": "form", "entity": "3", "corporation": "GNR"})
    g.apply({"type": "decline", "entity": "B"})
    kinds = {a["type"] for a in g.legal_actions()}
    # §8.1: every party must agree; 3 may still convert (price 100) but not merge again
    assert g.round.current == "3" and "merge" not in kinds and "convert" in kinds
    assert g.alive("4") and "GNR" not in g.shares.by_corp


def test_takeover_gives_a_treasury_share_and_the_minors_assets():
    g = _merger_game({"3": 100, "4": 60}, {"3": "A", "4": "B"}, cash=500)
    g.apply({"type": "convert", "entity": "3", "corporation": "GNR"})  # A: Director, 30%
    while g.round.data["step"] is not None:
        g.apply({"type": "pass", "entity": g.legal_actions()[0]["entity"]})
    assert g.round.current == "4"
    g.loans["4"] = 2
    _give(g, "4", 30)
    takeovers = [a for a in g.legal_actions() if a["type"] == "takeover"]
    # GNR took 3's marker in the Leeds city 4 shares: connected (§8.5); GNR already has
    # a marker in Leeds, so it may not put a second one there
    assert takeovers == [{"type": "takeover", "entity": "4", "corporation": "GNR",
                          "token": False}]  # fmt: skip
    g.apply(takeovers[0])
    g.apply({"type": "accept", "entity": "A"})  # GNR's Director agrees
    # B receives one treasury share for the minor; GNR gets its £30 and both loans
    assert g.shares.percent("GNR", "B") == 10 and len(g.shares.ordinary("GNR", "GNR")) == 6
    assert g.cash("GNR") == 30 and g.loans["GNR"] == 2 and not g.alive("4")
    assert g.state.tokens_of("GNR") == [("C14", 0)]
    _check(g)


# ----------------------------------------------------------------------------- §6.1-6.2.3
def test_start_a_public_company_home_station_paid_twice_its_value():
    g = _stock_game(cash=600)
    g.state.phase_index = 2  # phase 4: public companies may start (§6.2.3)
    g.phase_started("4")  # the unstarted minors' spaces are free now
    _touch(g)
    player = g.round.current
    g.apply({"type": "par", "entity": player, "corporation": "MR", "share_price": 80})
    # twice the price into the treasury: 160; the Director's Certificate to the player
    assert g.cash("MR") == 160 and g.shares.president("MR") == player
    homes = {(a["hex"], a["city"]): a["cost"] for a in g.legal_actions()}
    # Derby's city is worth 50 in phase 4 (yellow 30 | green 40 | brown 50): 2 x 50 = 100;
    # an empty white city (Sunderland) is free
    assert homes[("C20", 0)] == 100 and homes[("F5", 0)] == 0
    g.apply({"type": "place_token", "entity": "MR", "hex": "C20", "city": 0})
    assert g.cash("MR") == 60 and g.state.tokens_of("MR") == [("C20", 0)]
    assert g.cash(player) == 600 - 160 and g.round.current != player
    _check(g)


def _operated_public(g: Game1812, held: dict) -> None:
    g.state.phase_index = 1
    _public(g, "NER", "A", 100, held)
    g.state.operators["NER"].operated = True
    g.state.place_token("F5", 0, "NER", check=False)
    _touch(g)


def test_sales_director_drops_price_others_do_not_pool_limit():
    g = _stock_game()
    _operated_public(g, {"A": 3, "B": 2, POOL: 3})
    while g.round.current != "B":
        g.apply({"type": "pass", "entity": g.round.current})
    sizes = sorted(a["percent"] for a in g.legal_actions() if a["type"] == "sell_shares")
    # B holds 20% but the pool holds 30%: at most 20% more may go there (50%)
    assert sizes == [10, 20]
    g.apply({"type": "sell_shares", "entity": "B", "corporation": "NER", "percent": 10})
    assert g.market.price("NER") == 100 and g.cash("B") == 400 + 100  # §6.1: no move
    # B may not buy NER back in this Stock Round (§6.2.2)
    assert not [a for a in g.legal_actions() if a["type"] == "buy_shares"]
    g.apply({"type": "pass", "entity": "B"})
    while g.round.current != "A":
        g.apply({"type": "pass", "entity": g.round.current})
    # the pool holds 40%: the Director may sell one share; the price drops 100 -> 90
    g.apply({"type": "sell_shares", "entity": "A", "corporation": "NER", "percent": 10})
    assert g.market.price("NER") == 90 and g.cash("A") == 400 + 100
    _check(g)


def test_buying_pays_treasury_or_bank_and_stops_at_sixty_percent():
    g = _stock_game()
    _operated_public(g, {"A": 2, POOL: 1})  # A: 20% + 20%
    assert g.round.current == "A"
    buys = {a["source"] for a in g.legal_actions() if a["type"] == "buy_shares"}
    assert buys == {"treasury", POOL}
    bank = g.cash(BANK)
    g.apply(_buy("A", "NER", POOL, 10))
    assert g.cash(BANK) == bank + 100 and g.cash("NER") == 0  # pool: paid to the bank
    g.apply({"type": "pass", "entity": "B"})
    g.apply({"type": "pass", "entity": "C"})
    g.apply(_buy("A", "NER", "treasury", 10))
    assert g.cash("NER") == 100 and g.shares.percent("NER", "A") == 60  # treasury: NER
    g.apply({"type": "pass", "entity": "B"})
    g.apply({"type": "pass", "entity": "C"})
    # §6.2.2: A owns 60%: no more NER
    assert not [a for a in g.legal_actions() if a["type"] == "buy_shares"]


def test_shares_of_a_company_that_has_not_operated_cannot_be_sold():
    g = _stock_game()
    _operated_public(g, {"A": 3})
    g.state.operators["NER"].operated = False
    _touch(g)
    assert not [a for a in g.legal_actions() if a["type"] == "sell_shares"]
    with pytest.raises(IllegalAction, match="not yet completed an operating turn"):
        g.apply({"type": "sell_shares", "entity": "A", "corporation": "NER", "percent": 10})


# ----------------------------------------------------------------------------- §9
def test_bank_broken_in_an_or_ends_the_game_after_that_or_with_loan_adjusted_scores():
    def before(g):
        _train(g, "7")
        g.loans["7"] = 1
        g.pay("7", BANK, 100, "test")  # cash 20
        g.pay(BANK, "C", g.cash(BANK) - 1, "test")  # the bank keeps £1

    g, owner = _or_game_with_minor("7", 120, before=before)  # price 60
    _revenues(g, {"7": 40})
    for _ in range(50):
        if g.finished:
            break
        _act(g)
    # private income breaks the bank (IOUs: it goes negative); the OR is finished first
    assert g.finished and g.end_reason == "bank" and g.round.num == 1 and g.cash(BANK) < 0
    # the minor ran for 40 (60 -> 65), kept 20 + 20 - 5 interest = 35 < 50: the loan
    # stays; §9: one space down per loan: 60, a minor is worth twice that
    assert g.cash("7") == 35 and g.loans["7"] == 1
    assert g.market.price("7") == 65 and g.final_price("7") == 60
    privates = sum(g.state.companies[c]["spec"]["value"] for c in g.privates_in_play
                   if g.state.companies[c]["owner"] == owner)  # fmt: skip
    assert g.result()[owner] == g.cash(owner) + 2 * 60 + privates
    _check(g)


def test_bank_broken_in_a_stock_round_ends_after_the_next_or():
    g = _stock_game()
    g.pay(BANK, "C", g.cash(BANK), "test")
    assert g.bank_broken and not g.finished
    _pass_stock(g)  # Operating Round 1 (only privates) completes: the game ends
    assert g.finished and g.end_reason == "bank" and g.turn == 1


def test_final_value_of_public_shares_with_loans():
    g = _stock_game()
    _operated_public(g, {"A": 3})
    g.loans["NER"] = 2
    # §9: 100 two spaces down -> 80; A holds 5 shares: 400 of its value
    assert g.final_price("NER") == 80
    privates = sum(g.state.companies[c]["spec"]["value"] for c in g.privates_in_play
                   if g.state.companies[c]["owner"] == "A")  # fmt: skip
    assert g.player_value("A") == g.cash("A") + 5 * 80 + privates
    g.loans["NER"] = 10  # ten spaces down from 100 is the Closed box: worth nothing
    assert g.final_price("NER") == 0


def test_phase_five_closes_privates_and_minors_discard_their_trains():
    g, owner = _or_game_with_minor("7", 100)
    st = g.state
    st.phase_index = 2
    _train(g, "7", "4")
    g.phase_started("4")
    st.phase_index = 3
    g.phase_started("5")
    # §2.4: privates #1-#10 close (#11 and #12 stay), minors may own no trains: discard
    assert all(st.companies[c]["closed"] == (c not in ("P11", "P12"))
               for c in g.privates_in_play)  # fmt: skip
    _touch(g)
    assert [a["type"] for a in g.legal_actions()] == ["discard_train"]
    g.apply(g.legal_actions()[0])
    assert not st.trains_of("7") and len(st.discarded) == 1
