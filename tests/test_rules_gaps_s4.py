"""Session 4 rule gaps: Little Miami's connection checks (1846) and the GCB exchange before
the B is parred (1836Jr-30), on hand-built positions.

Facts: tobymao/18xx @111f7f69 ``g_1846/entities.rb`` (LM: two lays on H12/G13,
``must_lay_together``, no connection to the owner needed), ``g_1846/game.rb``
(``check_little_miami_graph_before!``/``_after!``,
``little_miami_a_new_path_used_for_connection?``), ``step/special_track.rb``;
``g_1836_jr30/entities.rb`` (GCB: ``exchange`` for B from ipo/market),
``step/exchange.rb``, ``share_pool.rb`` ``buy_shares`` (an exchange does not par).
Map: H12 (Cincinnati) edge 3 faces G13 (Dayton) edge 0; H12 edge 2 faces G11 edge 5,
G13 edge 1 faces G11 edge 4.
"""

from __future__ import annotations

import pytest

from engine.game import IllegalAction, invariants
from engine.games.g1836jr30.game import Game1836Jr30
from engine.games.g1846.game import Game1846
from tests.bot_support import to_stage


# ------------------------------------------------------------------------- 1846 Little Miami
def _lm_game(tiles=(), phase: int = 0) -> Game1846:
    """B&O parred and at its track stage, owning the Little Miami; ``tiles`` hand-laid
    ``(hex, tile id, rotation)`` first."""
    game = Game1846(["A", "B", "C", "D"], 1)
    while game.round.kind == "draft":
        game.apply(next(a for a in game.legal_actions() if a["type"] == "bid"))
    game.apply({"type": "par", "entity": game.round.current, "corporation": "B&O",
                "share_price": 100})  # fmt: skip
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    to_stage(game, "B&O", "track", limit=500)
    game.state.companies["LM"].update(owner="B&O", closed=False)
    game.state.phase_index = phase
    for hex_, tile, rot in tiles:
        game.state.lay_tile(hex_, tile, rot)
    game._version += 1
    game._legal_cache = None
    return game


def _lm_lays(game: Game1846) -> set[tuple[str, str, int]]:
    return {(a["hex"], a["tile"], a["rotation"]) for a in game.legal_actions()
            if a["entity"] == "LM" and a["type"] == "lay_tile"}  # fmt: skip


def _lay(game: Game1846, hex_: str, tile: str, rot: int) -> None:
    game.apply({"type": "lay_tile", "entity": "LM", "hex": hex_, "tile": tile, "rotation": rot})


def test_little_miami_second_lay_must_connect_cincinnati_and_dayton():
    game = _lm_game()
    # first lay: 293 (exits 0, 3) on H12 points edge 3 at Dayton
    _lay(game, "H12", "293", 0)
    lays = _lm_lays(game)
    # legal: 57 turned 0 has exits 0 and 3, edge 0 meets H12's edge 3: the two cities join
    assert ("G13", "57", 0) in lays
    # illegal: 57 turned 1 has exits 1 and 4, none towards H12: no connection
    assert ("G13", "57", 1) not in lays
    # exactly the G13 tiles with an exit 0: 5 (0,1)/(5,0), 57 (0,3)/(3,0), 6 (0,2)/(4,0)
    assert lays == {("G13", "5", 0), ("G13", "5", 5), ("G13", "57", 0), ("G13", "57", 3),
                    ("G13", "6", 0), ("G13", "6", 4)}  # fmt: skip
    # the step blocks on the LM: no corporation lay, token or pass in between, and no LM
    # pass either (it would leave H12 and G13 apart, postprocess_little_miami)
    assert {a["entity"] for a in game.legal_actions()} == {"LM"}
    with pytest.raises(IllegalAction):
        _lay(game, "G13", "57", 1)
    _lay(game, "G13", "57", 0)
    # both lays for free ($20 less the $20 discount), the ability is spent
    assert game.cash("B&O") == 200 and not _lm_lays(game)
    invariants(game)


def test_little_miami_first_lay_needs_a_way_to_connect():
    game = _lm_game()
    # nothing else to forfeit the pair with (no assign, no C&WI, no MC/O&I): a first lay
    # on H12 must point at Dayton (exit 3), since G13 is only reached from H12 directly
    h12 = {(t, r) for h, t, r in _lm_lays(game) if h == "H12"}
    assert h12 == {("291", 2), ("291", 3), ("292", 1), ("293", 0), ("293", 3)}


def test_little_miami_not_usable_once_the_cities_are_connected():
    # H12 291 turned 1 (exits 1, 2) -> G11 tile 7 turned 4 (exits 4, 5) -> G13 tile 6
    # turned 1 (exits 1, 3): Cincinnati and Dayton are joined already
    joined = [("H12", "291-0", 1), ("G11", "7-0", 4), ("G13", "6-0", 1)]
    assert not _lm_lays(_lm_game(joined))
    # without the G13 tile they are not: the LM may lay
    assert _lm_lays(_lm_game(joined[:2]))


def test_little_miami_new_track_on_each_hex_must_be_used():
    # phase II (green); H12 291 turned 1 (exits 1, 2) and G11 7 turned 4 (4, 5) lead from
    # Cincinnati to G13's edge 1; G13 is still empty, so the cities are not joined
    game = _lm_game([("H12", "291-0", 1), ("G11", "7-0", 4)], phase=1)
    # first lay: H12 up to 295 turned 1 (exits 1, 2, 3, 4): new exits 3 and 4
    _lay(game, "H12", "295", 1)
    lays = _lm_lays(game)
    # legal: 5 turned 0 (exits 0, 1) takes H12's new exit 3 straight into Dayton
    assert ("G13", "5", 0) in lays
    # illegal: 5 turned 1 (exits 1, 2) joins the cities only over H12's old exit 2 and
    # G11: the LM's new track on H12 is not used
    assert ("G13", "5", 1) not in lays
    # the LM may also stop after the first lay?  no: H12 and G13 are not joined yet
    assert {"type": "pass", "entity": "LM"} not in game.legal_actions()
    _lay(game, "G13", "5", 0)
    invariants(game)


def test_little_miami_may_pass_when_the_first_lay_connects():
    # G13 holds 57 turned 0 (exits 0, 3) already; H12 is empty: not joined.  B&O also owns
    # the Steamboat, whose assignment (step Assign, before SpecialTrack) stays open
    game = _lm_game([("G13", "57-0", 0)])
    game.state.companies["SC"]["owner"] = "B&O"
    _lay(game, "H12", "293", 0)  # exits 0, 3: now joined over H12's new exit 3
    legal = game.legal_actions()
    # no second lay (G13 is yellow in phase I), but the LM's pass passes the after-check
    # (H12's new track joins the cities); the assignments stay open, the B&O waits
    assert not _lm_lays(game)
    assert {"type": "pass", "entity": "LM"} in legal
    assert {a["entity"] for a in legal} == {"LM", "SC"}
    game.apply({"type": "pass", "entity": "LM"})
    # the pass forfeits the second lay; the corporation's own turn goes on
    assert game.ability_uses["LM"] == 2 and game.together is None
    assert any(a["entity"] == "B&O" for a in game.legal_actions())


def test_little_miami_no_pass_while_apart_but_an_assignment_forfeits():
    game = _lm_game()
    game.state.companies["SC"]["owner"] = "B&O"
    # with the Steamboat's assignment to fall back on, any first lay is open, even 293
    # turned 1 (exits 1, 4), which no G13 tile can join to Dayton
    assert ("H12", "293", 1) in _lm_lays(game)
    _lay(game, "H12", "293", 1)
    legal = game.legal_actions()
    # no second lay joins the cities and no pass (they are apart): only the assignment
    assert not _lm_lays(game) and {a["entity"] for a in legal} == {"SC"}
    game.apply(next(a for a in legal if a["entity"] == "SC"))
    # it forfeits the LM's second lay (game.rb check_special_tile_lay)
    assert game.ability_uses["LM"] == 2 and game.together is None


# ------------------------------------------------------------------- 1836Jr-30 GCB exchange
def _jr30_stock_game() -> Game1836Jr30:
    game = Game1836Jr30(["P1", "P2", "P3"], 1)
    while game.round.kind == "auction":
        par = [a for a in game.legal_actions() if a["type"] == "par"]
        if par:
            game.apply(next(a for a in par if a["share_price"] == 100))
            continue
        first = game.round.data["available"][0]
        game.apply({"type": "bid", "entity": game.round.current, "company": first,
                    "price": game.min_bid(first)})  # fmt: skip
    return game


def test_gcb_exchange_before_the_b_is_parred_then_the_par():
    game = _jr30_stock_game()
    # P1 bought ACC and GCB in the auction; the B has no par price yet
    assert game.state.companies["GCB"]["owner"] == "P1" and "B" not in game.shares.by_corp
    offer = [a for a in game.legal_actions() if a["entity"] == "GCB"]
    assert offer == [{"type": "buy_shares", "entity": "GCB", "corporation": "B",
                      "shares": ["B_1"], "source": "treasury", "percent": 10,
                      "price": 0}]  # fmt: skip
    with pytest.raises(IllegalAction, match="B_0"):  # the president's certificate: no
        game.apply({"type": "buy_shares", "entity": "GCB", "shares": ["B_0"]})
    certs, cash = game.num_certs("P1"), game.cash("P1")
    # an 18xx.games record names the certificate; any ordinary IPO one will do
    game.apply({"type": "buy_shares", "entity": "GCB", "shares": ["B_5"]})
    # the GCB closes, B_5 waits for the par; nothing is paid, nothing parred
    assert game.state.companies["GCB"]["closed"] and game.loose_certs["B_5"] == "P1"
    assert game.num_certs("P1") == certs and game.cash("P1") == cash
    assert "B" not in game.shares.by_corp
    invariants(game)
    # P2 pars the B later at 90 (the par is P2's choice): 20% for 180
    while game.round.current != "P2":
        game.apply({"type": "pass", "entity": game.round.current})
    p2 = game.cash("P2")
    game.apply({"type": "par", "entity": "P2", "corporation": "B", "share_price": 90})
    assert game.cash("P2") == p2 - 180 and game.shares.president("B") == "P2"
    # P1's certificate joins: 10% P1, 20% P2, 70% in the IPO; not floated (60% needed)
    assert game.shares.certs["B_5"].owner == "P1" and "B_5" not in game.loose_certs
    assert game.shares.percent("B", "P1") == 10 and game.shares.percent("B", "B") == 70
    assert not game.state.operators["B"].floated
    invariants(game)
