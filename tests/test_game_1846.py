"""1846 rules engine: hand-built rule checks, each with its arithmetic.

Facts: the 1846 rules as tobymao/18xx @111f7f69 implements them (g_1846/game.rb,
step/dividend.rb, step/buy_train.rb, game.rb emergency_issuable_bundles).  Market row:
0c 10 20 30 40 50 60 70 80 90 100 112 124 137 150 165 180 ... (index 10 = $100).
"""

from __future__ import annotations

import pytest

from engine.app.analysis import copy_game
from engine.game import IllegalAction, invariants
from engine.game.shares import POOL
from engine.games import load_game, new_game
from engine.games.bots import play_random
from engine.games.g1846.game import Game1846
from tests.bot_support import brute_force_lays, to_stage

PLAYERS = ["A", "B", "C", "D"]


def _draft(game: Game1846) -> None:
    """Everyone takes the first card offered until the draft ends."""
    while game.round.kind == "draft":
        game.apply(next(a for a in game.legal_actions() if a["type"] == "bid"))


def _stock_game(seed: int = 1) -> Game1846:
    game = Game1846(PLAYERS, seed)
    _draft(game)
    assert game.round.kind == "stock"
    return game


def _par(game: Game1846, corp: str, price: int) -> str:
    player = game.round.current
    game.apply({"type": "par", "entity": player, "corporation": corp, "share_price": price})
    return player


def _pass_stock_round(game: Game1846) -> None:
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})


def _to_stage(game: Game1846, op: str, stage: str) -> None:
    to_stage(game, op, stage, limit=500)


def _nyc_at_dividend(revenue: int, par: int = 100) -> tuple[Game1846, str]:
    game = _stock_game()
    pres = _par(game, "NYC", par)
    _pass_stock_round(game)
    _to_stage(game, "NYC", "dividend")
    t = game.or_turn
    t.revenue = revenue  # a hand-built run
    _set_price(game, "NYC", par)
    return game, pres


def _set_price(game: Game1846, corp: str, price: int) -> None:
    """Put ``corp`` back at ``price`` (it lost a space for not running in OR 1)."""
    market = game.market
    while market.price(corp) < price:
        market.right(corp)
    while market.price(corp) > price:
        market.left(corp)
    game._version += 1


# ---------------------------------------------------------------------- stock round
def test_par_floats_at_twenty_percent_with_home_token():
    game = _stock_game()
    bank = game.cash("bank")
    pres = _par(game, "NYC", 100)
    # the president's certificate is 20%: the par floats NYC; incremental capital: NYC
    # receives 2 x 100 = 200 from the president
    assert game.shares.percent("NYC", pres) == 20
    assert game.state.operators["NYC"].floated
    assert game.cash("NYC") == 200
    assert game.cash("bank") == bank
    assert "NYC" in game.state.tokens[("D20", 0)]  # HOME_TOKEN_TIMING = :float
    assert game.market.price("NYC") == 100
    invariants(game)


def test_ic_receives_its_par_price_as_subsidy():
    game = _stock_game()
    bank = game.cash("bank")
    _par(game, "IC", 80)
    # 2 x 80 = 160 for the certificate plus an 80 subsidy from the bank
    assert game.cash("IC") == 240
    assert game.cash("bank") == bank - 80


def test_sixty_percent_limit():
    game = _stock_game()
    pres = _par(game, "NYC", 40)
    while game.shares.percent("NYC", pres) < 60:
        p = game.round.current
        if p == pres:
            share = game.shares.ordinary("NYC", "NYC")[0].id
            game.apply({"type": "buy_shares", "entity": p, "shares": [share]})
        else:
            game.apply({"type": "pass", "entity": p})
    while game.round.current != pres:
        game.apply({"type": "pass", "entity": game.round.current})
    # 20 + 4 x 10 = 60%: one more share would make 70% > 60%
    assert not any(
        a["type"] == "buy_shares" and a["corporation"] == "NYC" for a in game.legal_actions()
    )
    before = game.to_dict()
    share = game.shares.ordinary("NYC", "NYC")[0].id
    with pytest.raises(IllegalAction, match="60%"):
        game.apply({"type": "buy_shares", "entity": pres, "shares": [share]})
    assert game.to_dict() == before


def test_president_sale_moves_price_left_other_sale_does_not():
    game = _stock_game()
    pres = _par(game, "NYC", 100)
    other = game.round.current
    share = game.shares.ordinary("NYC", "NYC")[0].id
    game.apply({"type": "buy_shares", "entity": other, "shares": [share]})
    game.state.operators["NYC"].operated = True  # SELL_AFTER = :p_any_operate
    while game.round.current != other:
        game.apply({"type": "pass", "entity": game.round.current})
    cash = game.cash(other)
    game.apply({"type": "sell_shares", "entity": other, "corporation": "NYC", "percent": 10})
    # not the president: SELL_MOVEMENT = :left_block_pres leaves 100; 10% at 100 = 100
    assert game.market.price("NYC") == 100
    assert game.cash(other) == cash + 100
    game.apply({"type": "pass", "entity": other})
    while game.round.current != pres:
        game.apply({"type": "pass", "entity": game.round.current})
    # the president may not sell into the president's certificate (nobody has 20%)
    assert not any(a["type"] == "sell_shares" and a["entity"] == pres for a in game.legal_actions())
    # but after buying a share he may sell 10%: the price drops one space, 100 -> 90
    share = game.shares.ordinary("NYC", "NYC")[0].id
    game.apply({"type": "buy_shares", "entity": pres, "shares": [share]})
    while game.round.current != pres:
        game.apply({"type": "pass", "entity": game.round.current})
    game.apply({"type": "sell_shares", "entity": pres, "corporation": "NYC", "percent": 10})
    assert game.market.price("NYC") == 90
    invariants(game)


def test_shares_in_pool_at_end_of_stock_round_move_price_left():
    game = _stock_game()
    _par(game, "NYC", 100)
    game.shares.move([game.shares.ordinary("NYC", "NYC")[0].id], POOL)  # a share in the pool
    _pass_stock_round(game)
    # one share in the market at the end of the round: 100 -> 90
    assert game.market.price("NYC") == 90


# ---------------------------------------------------------------------- dividends
def test_payout_moves_price_right_and_pays_per_share():
    game, pres = _nyc_at_dividend(200)
    cash_pres, cash_nyc = game.cash(pres), game.cash("NYC")
    game.apply({"type": "dividend", "entity": "NYC", "kind": "payout"})
    # 200 >= 2 x 100: two spaces right, 100 -> 112 -> 124; 20 a share: the president's
    # two shares 40, the eight treasury shares (incremental) 160 to NYC
    assert game.market.price("NYC") == 124
    assert game.cash(pres) == cash_pres + 40
    assert game.cash("NYC") == cash_nyc + 160
    invariants(game)


def test_half_pay_withholds_whole_dollars_per_share():
    game, pres = _nyc_at_dividend(150)
    cash_pres, cash_nyc = game.cash(pres), game.cash("NYC")
    game.apply({"type": "dividend", "entity": "NYC", "kind": "half"})
    # withheld: 150 // 2 // 10 * 10 = 70; paid 80 = 8 a share: president 16, treasury 64;
    # 50 <= 80 < 100: the price stays
    assert game.market.price("NYC") == 100
    assert game.cash(pres) == cash_pres + 16
    assert game.cash("NYC") == cash_nyc + 70 + 64


def test_withhold_and_small_dividend_move_price_left():
    game, _pres = _nyc_at_dividend(150)
    cash_nyc = game.cash("NYC")
    game.apply({"type": "dividend", "entity": "NYC", "kind": "withhold"})
    # nothing paid: 0 < 100 / 2, one space left, 100 -> 90; NYC keeps 150
    assert game.market.price("NYC") == 90
    assert game.cash("NYC") == cash_nyc + 150


def test_three_spaces_right_only_from_165():
    game, _pres = _nyc_at_dividend(400)
    game.apply({"type": "dividend", "entity": "NYC", "kind": "payout"})
    # 400 >= 3 x 100 but the price is below 165: two spaces, 100 -> 124
    assert game.market.price("NYC") == 124


# ---------------------------------------------------------------------- trains
def test_emergency_issue_before_buying_a_train():
    game = _stock_game()
    _par(game, "NYC", 100)
    _pass_stock_round(game)
    _to_stage(game, "NYC", "train")
    game.pay("NYC", "bank", game.cash("NYC") - 50)  # NYC has 50; the 2-train costs 80
    _set_price(game, "NYC", 100)
    legal = game.legal_actions()
    # issuable: player shares 2 - pool 0 = 2; one share at 2 spaces left (80) = 80,
    # two at 3 spaces left (70 each) = 140; 50 + 80 >= 80 already: only the 1-share
    # bundle; no pass (NYC must own a train) and no train it cannot pay yet
    issues = [a for a in legal if a["type"] == "sell_shares"]
    assert [(a["percent"], a["price"]) for a in issues] == [(10, 80)]
    assert not any(a["type"] == "pass" for a in legal)
    assert not any(a["type"] == "buy_train" and a["price"] > 50 for a in legal)
    game.apply(issues[0])
    # the emergency issue moves the price one space per share: 100 -> 90
    assert game.market.price("NYC") == 90
    assert game.cash("NYC") == 130
    game.apply(next(a for a in game.legal_actions() if a["type"] == "buy_train"))
    assert game.cash("NYC") == 50
    invariants(game)


def test_president_contributes_after_issuing():
    game = _stock_game()
    pres = _par(game, "NYC", 40)
    _pass_stock_round(game)
    _to_stage(game, "NYC", "train")
    game.pay("NYC", "bank", game.cash("NYC"))  # NYC has nothing
    _set_price(game, "NYC", 40)
    # at 40 one share sells 2 spaces left (20), two shares 3 left (10 each = 20): no
    # bundle reaches 80, so the biggest one: 2 shares for 20, price 40 -> 20
    issues = [a for a in game.legal_actions() if a["type"] == "sell_shares"]
    assert [(a["percent"], a["price"]) for a in issues] == [(20, 20)]
    game.apply(issues[0])
    assert game.market.price("NYC") == 20
    cash = game.cash(pres)
    buy = next(a for a in game.legal_actions() if a["type"] == "buy_train")
    assert buy["price"] == 80
    income = sum(
        int(i["spec"]["revenue"])
        for i in game.state.companies.values()
        if i["owner"] == pres and not i["closed"]
    )
    game.apply(buy)
    # NYC pays its 20, the president the other 60 (then OR 1.2 starts and pays him his
    # privates' revenue)
    assert game.round.num == 2
    assert game.cash(pres) == cash - 60 + income
    assert game.cash("NYC") == 0
    invariants(game)


def test_illegal_action_leaves_the_game_unchanged():
    game = _stock_game()
    _par(game, "NYC", 100)
    _pass_stock_round(game)
    _to_stage(game, "NYC", "track")
    before = game.to_dict()
    legal = game.legal_actions()
    cash = dict(game.ledger.balances)
    # K3 is far from NYC's network (D20): not connected
    with pytest.raises(IllegalAction, match="lay_tile by NYC"):
        game.apply({"type": "lay_tile", "entity": "NYC", "hex": "J4", "tile": "9",
                    "rotation": 0})  # fmt: skip
    with pytest.raises(IllegalAction, match="not B's turn|not allowed|turn"):
        game.apply({"type": "pass", "entity": "nobody"})
    with pytest.raises(IllegalAction, match="no 'type'"):
        game.apply({"entity": "NYC"})
    assert game.to_dict() == before
    assert game.legal_actions() == legal
    assert game.ledger.balances == cash


def test_run_routes_declaring_a_wrong_revenue_is_refused():
    game = _stock_game()
    _par(game, "NYC", 100)
    _pass_stock_round(game)
    for _ in range(200):
        legal = game.legal_actions()
        run = next((a for a in legal if a["type"] == "run_routes"), None)
        if run is not None:
            break
        game.apply(next((a for a in legal if a["type"] == "pass"), legal[0]))
    with pytest.raises(IllegalAction, match="optimum"):
        game.apply({**run, "revenue": run["revenue"] + 10})
    game.apply(run)


# ---------------------------------------------------------------------- setup and saves
def test_removals_follow_player_count():
    # 4 players: one corporation of C&O/ERIE/PRR out; 5 - 4 + 1 = 2 privates of each group
    game = Game1846(PLAYERS, 5)
    assert len(game.removed_corporations) == 1
    assert len(game.removed_companies) == 4
    # 3 players: two corporations, three privates per group
    game = Game1846(["A", "B", "C"], 5)
    assert len(game.removed_corporations) == 2
    assert len(game.removed_companies) == 6


def test_draft_charges_the_listed_price():
    game = Game1846(PLAYERS, 2)
    start = {p: game.cash(p) for p in PLAYERS}
    _draft(game)
    for p in PLAYERS:
        owned = [c for c, i in game.state.companies.items() if i["owner"] == p]
        spec = {c["sym"]: c for c in game.data.COMPANIES}
        # value - discount: MS 60 + 80 = 140, BIG4 40 + 60 = 100, the others face value
        price = sum(spec[c]["value"] - spec[c].get("discount", 0) for c in owned)
        assert game.cash(p) == start[p] - price


def test_save_and_load_replay_to_the_same_state():
    outcome = play_random("1846", 4, seed=11, max_actions=200_000)
    game = outcome.game
    again = load_game(game.to_dict())
    assert again.result() == game.result()
    assert again.end_reason == game.end_reason
    assert again.ledger.balances == game.ledger.balances
    copy = new_game("1846", game.seats, game.seed, actions=game.actions[:150])
    assert len(copy.actions) == 150


def test_bad_setup_is_refused():
    with pytest.raises(ValueError, match="3-5 players"):
        Game1846(["A", "B"], 0)
    with pytest.raises(ValueError, match="distinct"):
        Game1846(["A", "A", "B"], 0)
    with pytest.raises(ValueError, match="company symbol"):
        Game1846(["NYC", "B", "C"], 0)
    with pytest.raises(ValueError, match="no rules engine"):
        new_game("1830", PLAYERS)


def test_tile_lays_equal_a_brute_force_through_bot_games():
    """The engine's lay options (cached per hex tile, the walk extended after lays) at the
    start of track stages of a bot game against a brute force over every hex, manifest tile
    and rotation through the engine's per-lay checks on a fresh walk
    (:func:`tests.bot_support.brute_force_lays`), less the lays the company cannot pay
    for; and a listed lay applies."""
    checked = []

    def compare(game, _action):
        t = game.or_turn
        if game.finished or game.round.kind != "operating" or t is None:
            return
        if t.stage != "track" or t.lays or game.receivership(t.op) or len(checked) >= 30:
            return
        if game.pending_actions() is not None or game.together is not None:
            return  # (a private's pair lay under way: the Little Miami's blocks the turn)
        mine = [a for a in game.legal_actions() if a["type"] == "lay_tile" and a["entity"] == t.op]
        cash = game.cash(t.op)
        theirs = {k for k in brute_force_lays(game) if game.lay_cost(t.op, *k) <= cash}
        keys = {(a["hex"], a["tile"], a["rotation"]) for a in mine}
        assert keys == theirs, (t.op, sorted(keys ^ theirs)[:5])
        if mine and len(checked) % 5 == 0:
            trial = copy_game(game)
            trial.apply(dict(mine[-1]))
            assert trial.state.board.placed(mine[-1]["hex"]).tile.name == mine[-1]["tile"]
        checked.append(t.op)

    play_random("1846", 4, seed=21, on_action=compare, check=False)
    assert len(checked) >= 20


# ---------------------------------------------------------------------- certificates
def test_presidency_passes_on_purchase_and_sale():
    from engine.game.shares import ShareRegistry

    reg = ShareRegistry(["A", "B", "C"])
    reg.add_corporation("X")
    reg.par("X", "A")  # A: 20% (the president's certificate)
    for p in ("B", "B", "B"):
        reg.buy(p, reg.ordinary("X", "X")[0].id)
    # B holds 30% > A's 20%: B takes the president's certificate and hands A two 10%
    # shares for it (A still 20%, B still 30%)
    assert reg.president("X") == "B"
    assert reg.president_cert("X").owner == "B"
    assert (reg.percent("X", "A"), reg.percent("X", "B")) == (20, 30)
    assert [c.percent for c in reg.certs_of("A", "X")] == [10, 10]
    # B may sell 10% (keeps 20% = A's: a tie keeps the presidency) or more once A can
    # take the certificate (A has 20%)
    assert reg.sale_sizes("B", "X") == [10, 20, 30]
    reg.sell("B", "X", 20)
    # B would keep 10% < A's 20%: A takes the president's certificate and hands B two
    # 10% shares; B sells 20% of ordinary shares to the pool and keeps 10%
    assert reg.president("X") == "A"
    assert (reg.percent("X", "A"), reg.percent("X", "B"), reg.percent("X", POOL)) == (20, 10, 20)
    assert reg.total("X") == 100


def test_bankrupt_dump_puts_corporation_in_receivership():
    from engine.game.shares import ShareRegistry

    reg = ShareRegistry(["A", "B"])
    reg.add_corporation("X")
    reg.par("X", "A")
    reg.buy("B", reg.ordinary("X", "X")[0].id)
    reg.dump("A", "X")
    # B has 10% < 20%: nobody can take the certificate; it lies in the pool
    assert reg.president("X") is None
    assert reg.president_cert("X").owner == POOL
    # B buys the president's certificate from the pool as one share (g_1846 receivership
    # rule), returning one 10% share: B 20% and president
    reg.buy("B", reg.president_cert("X").id)
    assert reg.president("X") == "B" and reg.percent("X", "B") == 20


# 18xx.games records: every public fixture of 1846 and its 2-player variant replays through
# this engine to its recorded result (tests/test_game_records.py, engine.games.records).
