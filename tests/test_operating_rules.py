"""Operating-round rules of the rules engine on hand-built positions.

Each situation is a game put into a position's state
(:func:`engine.games.positions.game_at_position`, at the company's operating turn) or a
real game (:func:`engine.games.new_game`).  The engine's :meth:`BaseGame.legal_actions`
lists what the company may do; :meth:`BaseGame.apply` refuses anything else with an
:class:`IllegalAction` naming the rule and leaves the game as it was.  Legal options are
checked against hand-worked answers and a brute force over every hex, manifest tile and
rotation through the engine's own per-lay checks.

Map facts used below (pointy maps; edges 0 lower-left, 1 left, 2 upper-left, 3 upper-right,
4 right, 5 lower-right):

- 1846: PRR's home F20 (gray) has track to edges 1, 2, 4, 5; its edge 2 faces E19's edge 5,
  where a mountain border costs $40.  NYC's home D20 has track to edges 0, 1, 3; its edge 0
  faces E19's edge 3.  E17 (Z city) is E19's edge-1 neighbour.  Detroit C15 has 2 slots.
- 1836Jr-30: Nord's home Lille I3 has track to edges 0 (Paris J2) and 4 (I5, a plain hex
  whose six neighbours are all open).  Gand H4 is left of Brussels H6 (one slot, track to
  edges 1 and 3); H6's edge 3 faces Antwerp G7's edge 0.  The private GCB blocks tile lays
  on G7 while a player owns it (``blocks_hexes``, ``owner_type: player``).
- 1842: LBE's home is J14; ELE's home is I13; only the HAV builds on Hamburg L10 and
  Harburg M9.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import routing
from engine.app.analysis import candidate_moves, copy_game
from engine.game.errors import IllegalAction
from engine.games import load_position, new_game
from engine.games.positions import LARGE_CASH, game_at_position
from engine.model.position import PositionError
from tests.bot_support import brute_force_lays, to_stage

EXAMPLES = sorted((Path(__file__).parent.parent / "engine" / "examples").glob("*.json"))


def _game(title, phase, company, tiles=(), tokens=(), trains=(), owned=(), **extras):
    """The engine at ``company``'s turn in a hand-built position (``tiles``: (hex, tile,
    rotation), ``tokens``: (hex, city, company)); ``extras`` as a position's."""
    return game_at_position(
        {
            "title": title,
            "phase": phase,
            "company": company,
            "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
            "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
            "trains": list(trains),
            "owned_companies": list(owned),
            "extras": extras,
        }
    )


def _snapshot(game) -> tuple:
    state, t = game.state, game.or_turn
    return (
        {h: (p.tile.name, p.rotation) for h, p in state.board.laid.items()},
        copy.deepcopy(state.tokens),
        {c.id: (c.owner, c.name, c.obsolete) for c in state.trains.values()},
        list(state.depot),
        state.phase_index,
        {c: (i["owner"], i["closed"]) for c, i in state.companies.items()},
        dict(game.ledger.balances),
        (game.round.kind, game.round.num, len(game.actions)),
        None if t is None else (t.op, t.index, list(t.lays), t.tokened, copy.deepcopy(t.flags)),
        game.legal_actions(),
    )


def _rejected(game, action: dict, pattern: str) -> None:
    """``action`` is refused naming the rule (``pattern``) and the game is unchanged."""
    before = _snapshot(game)
    with pytest.raises(IllegalAction, match=pattern):
        game.apply(action)
    assert _snapshot(game) == before


def _lay(entity, hex_, tile, rotation) -> dict:
    return {"type": "lay_tile", "entity": entity, "hex": hex_, "tile": tile, "rotation": rotation}


def _token(entity, hex_, city=0) -> dict:
    return {"type": "place_token", "entity": entity, "hex": hex_, "city": city}


def _lays(game, hex_=None) -> list[tuple]:
    """(hex, tile, rotation, cost) of the operating company's own lays now."""
    op = game.or_turn.op
    return [
        (a["hex"], a["tile"], a["rotation"], a["cost"])
        for a in game.legal_actions()
        if a["type"] == "lay_tile" and a["entity"] == op and hex_ in (None, a["hex"])
    ]


def _tokens(game) -> list[tuple]:
    op = game.or_turn.op
    return [
        (a["hex"], a["city"], a["cost"])
        for a in game.legal_actions()
        if a["type"] == "place_token" and a["entity"] == op
    ]


def _trains(game) -> list[tuple]:
    return [
        (a["train"], a["variant"], a["price"])
        for a in game.legal_actions()
        if a["type"] == "buy_train" and not a.get("exchange")
    ]


def _check_by_brute_force(game) -> None:
    """The engine's lays (every rotation, even of a symmetric tile) equal the brute force,
    and each of them applies on a copy of the game."""
    op = game.or_turn.op
    listed = [a for a in game.legal_actions() if a["type"] == "lay_tile" and a["entity"] == op]
    keys = {(a["hex"], a["tile"], a["rotation"]) for a in listed}
    assert len(keys) == len(listed) and keys and keys == brute_force_lays(game)
    for a in listed[:: max(1, len(listed) // 12)]:  # a spread of them: a copy each
        trial = copy_game(game)
        trial.apply(dict(a))
        placed = trial.state.board.placed(a["hex"])
        assert (placed.tile.name, placed.rotation) == (a["tile"], a["rotation"])


# ---------------------------------------------------------------------------------- tiles
def test_tile_breaking_existing_track_is_rejected():
    # E19 holds straight 9 at rotation 2 (edges 2-5); green 20 at rotation 0 has 0-3 and 1-4
    game = _game("1846", "II", "PRR", tiles=[("E19", "9", 2)], tokens=[("F20", 0, "PRR")])
    _rejected(
        game,
        _lay("PRR", "E19", "20", 0),
        r"tile '20' rotation 0 breaks the existing track edge 2-edge 5 of tile '9'",
    )


def test_tile_not_connected_to_the_network_is_rejected():
    # NYC reaches only D20 and its track's neighbours; E9 is on the far side of the map
    game = _game("1846", "I", "NYC", tokens=[("D20", 0, "NYC")])
    _rejected(game, _lay("NYC", "E9", "9", 0), "E9 is not connected to NYC's network")
    # E19's edge 3 faces D20's track to edge 0, so a tile with an exit there connects: 9 at
    # rotation 0 (edges 0 and 3) misses E19's border (edge 5), so it costs the $20 minimum
    assert ("E19", "9", 0, 20) in _lays(game, "E19")
    game.apply(_lay("NYC", "E19", "9", 0))
    assert game.state.board.placed("E19").tile.name == "9"


def test_tile_lay_through_a_blocked_city_is_rejected():
    # Nord at Gand H4 (57 at rotation 1: edges 1 and 4) runs into Brussels H6; B's token fills
    # H6's only slot, so the walk ends there and H6's edge-3 track to Antwerp G7 is not
    # Nord's.  The private GCB, which blocks G7 for its player owner, belongs to B here, so
    # it blocks nothing.
    tiles, gcb_with_b = [("H4", "57", 1)], {"B": {"owned_companies": ["GCB"]}}
    blocked = _game(
        "1836Jr30", "3", "Nord", tiles, [("H4", 0, "Nord"), ("H6", 0, "B")], companies=gcb_with_b
    )
    net = blocked.network("Nord")
    assert ("H6", 0) in net.cities  # an end, not a way through
    assert not net.hexes.get("G7")
    _rejected(blocked, _lay("Nord", "G7", "57", 0), "G7 is not connected to Nord's network")
    free = _game("1836Jr30", "3", "Nord", tiles, [("H4", 0, "Nord")], companies=gcb_with_b)
    assert free.network("Nord").hexes["G7"] == {0}
    # 57 is a straight city: rotations 0 and 3 lay the same track; G7 has no terrain
    assert _lays(free, "G7") == [("G7", "57", 0, 0), ("G7", "57", 3, 0)]


def test_private_reserved_hex_and_upgrade_rule_are_enforced():
    # G7 is blocked for the private GCB while a player owns it (its blocks_hexes ability)
    game = _game("1836Jr30", "3", "Nord", [("H4", "57", 1)], [("H4", 0, "Nord")])
    assert game.state.companies["GCB"]["owner"] in game.seats
    _rejected(game, _lay("Nord", "G7", "57", 0), "G7 is blocked by GCB")
    # 1846 upgrades must add track the company can use (semi-restrictive): PRR reaches E19's
    # straight 2-5 from edge 5; green 26 at rotation 2 adds 2-1 (not reachable: nothing
    # arrives at edge 2), at rotation 5 it adds 5-4 (reached from edge 5)
    game = _game("1846", "II", "PRR", tiles=[("E19", "9", 2)], tokens=[("F20", 0, "PRR")])
    _rejected(game, _lay("PRR", "E19", "26", 2), "gives PRR no new track or a changed city")
    assert ("E19", "26", 5, 20) in _lays(game, "E19")  # the border was paid by the 9: $20


def test_1842_hav_only_hexes():
    game = _game("1842", "2", "LBE", tokens=[("J14", 0, "LBE")])
    _rejected(game, _lay("LBE", "L10", "HH1A", 0), "only the HAV builds on Hamburg and Harburg")
    # LBE may not build on I13, ELE's home, while only yellow is out (7.2.1)
    _rejected(game, _lay("LBE", "I13", "57", 0), "I13 is ELE's home hex")
    assert not {h for h, *_ in _lays(game)} & {"L10", "M9", "I13"}
    # the HAV has no station: it lays on Hamburg without a connection, and nowhere else
    hav = _hav_building()
    lays = [(a["entity"], a["hex"], a["tile"]) for a in hav.legal_actions()]
    assert lays == [("HAV", "L10", "HH1A"), ("HAV", "L10", "HH1B")]
    _rejected(hav, _lay("HAV", "K13", "3", 2), "the HAV lays tiles only on Hamburg")


def _hav_building():
    """A 3-player 1842 game at the HAV's first build: A, B and C choose HBE, KE and RE in
    the starting round, A and B buy GEE and SSE, C pars AKE at 100 and each player buys
    10%: AKE starts.  Hand-built then: AKE holds 50% of the HAV (its director
    certificate), so the HAV starts (3.4.2), and two of HBE's building tokens stand for
    the two the HAV's first tile costs (the building-token count stays whole)."""
    game = new_game("1842", ["A", "B", "C"], 0)
    for player, company in zip(game.seats, ("HBE", "KE", "RE"), strict=True):
        game.apply({"type": "bid", "entity": player, "company": company})
    while game.round.kind == "start":
        game.apply(game.legal_actions()[0])
    game.apply({"type": "buy_company", "entity": "A", "company": "GEE"})
    game.apply({"type": "buy_company", "entity": "B", "company": "SSE"})
    game.apply({"type": "par", "entity": "C", "corporation": "AKE", "share_price": 100})
    for player in game.seats:
        share = game.ipo("AKE")[0].id
        game.apply({"type": "buy_shares", "entity": player, "corporation": "AKE",
                    "shares": [share]})  # fmt: skip
    while game.round.kind == "stock":
        game.apply({"type": "pass", "entity": game.round.current})
    left = 50
    for cert in list(game.hav.by_corp["HAV"]):
        if cert.owner == "HAV" and 0 < cert.percent <= left:
            cert.owner, left = "AKE", left - cert.percent
    assert left == 0
    game.hav.presidents["HAV"] = game.hav.certs["HAV_0"].owner
    game.state.operators["HAV"].floated = True
    game.market.start("HAV")
    game.building["HBE"] -= 2
    game.hav_tokens += 2
    game._version += 1
    to_stage(game, "HAV", "hav_build", 300)
    return game


def test_legal_lays_hand_count_and_brute_force():
    # Nord alone at I3 in phase 2 (yellow only).  Its track reaches I5's edge 1 (and Paris,
    # where no tile goes); I3 itself takes no yellow tile.  Plain I5 takes 7, 8 or 9 with an
    # exit on edge 1, all six sides being open: 7 (edges r, r+1) at r = 0, 1; 8 (r, r+2) at
    # r = 1, 5; 9 (r, r+3) at r = 1 and 4 (the same track) - six rotations, five different
    # tracks, no terrain: cost 0.
    game = _game("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")])
    assert _lays(game) == [
        ("I5", "7", 0, 0),
        ("I5", "7", 1, 0),
        ("I5", "8", 1, 0),
        ("I5", "8", 5, 0),
        ("I5", "9", 1, 0),
        ("I5", "9", 4, 0),
    ]
    manifest = game.state.board.manifest_tile
    tracks = {(h, t, frozenset(frozenset((p.a, p.b)) for p in manifest(t).rotated_paths(r)))
              for h, t, r, _c in _lays(game)}  # fmt: skip
    assert len(tracks) == 5
    _check_by_brute_force(game)


@pytest.mark.parametrize("name", ["1846-late", "1836jr56-mid", "1836jr30-early", "1862-mid"])
def test_legal_lays_equal_a_brute_force_on_examples(name):
    # semi-restrictive 1846, permissive 1836Jr-56, 1836Jr-30 and 1862
    _check_by_brute_force(game_at_position(EXAMPLES[0].parent / f"{name}.json"))


def test_terrain_and_border_costs():
    # E19 carries a $40 mountain border on edge 5 towards PRR's F20, whose track faces back:
    # any tile using edge 5 pays max($20, no terrain) + $40 = $60; with Tunnel Blasting
    # ($20 off mountains) $20 + $20 = $40.  F18's printed mountain costs $40 = max(20, 40).
    game = _game("1846", "I", "PRR", tokens=[("F20", 0, "PRR")])
    assert ("E19", "9", 2, 60) in _lays(game, "E19")
    assert {c for *_k, c in _lays(game, "F18")} == {40}
    tbc = _game("1846", "I", "PRR", tokens=[("F20", 0, "PRR")], owned=["TBC"])
    assert ("E19", "9", 2, 40) in _lays(tbc, "E19")
    assert ("F18", "9", 1, 20) in _lays(tbc, "F18")  # 40 - 20, at least 20


# ---------------------------------------------------------------------------------- tokens
def _nyc_to_e17(company="NYC"):
    # 8 at rotation 1 on E19 joins edges 1 and 3 (E17 and D20); 291 at rotation 4 puts E17's
    # city on edges 4 and 5, so NYC's track reaches the Z city E17
    return _game(
        "1846",
        "II",
        company,
        tiles=[("E19", "8", 1), ("E17", "291", 4)],
        tokens=[("D20", 0, "NYC"), ("C15", 0, "MS"), ("C15", 0, "GT"), ("F20", 0, "PRR")],
    )


def test_token_without_route_and_in_full_city_are_rejected():
    game = _nyc_to_e17()
    _rejected(game, _token("NYC", "G7"), "NYC has no route to G7 city 0")
    _rejected(game, _token("NYC", "C15"), r"C15 city 0 is full \(2 tokens for 2 slots: MS, GT\)")
    _rejected(game, _token("NYC", "D20"), "NYC already has a token in D20 city 0")


def test_token_options_and_costs():
    # NYC's charter [0, 80, 80, 80]: the home token is down, the next costs $80
    assert _tokens(_nyc_to_e17()) == [("E17", 0, 80)]
    # PRR's own ability: E11 for $40 when connected, else $60 without a connection
    assert ("E11", 0, 60) in _tokens(_nyc_to_e17("PRR"))
    # 1836Jr-30 charters [0, 40, 100, ...]: B's second token F40 (Gand H4 is reached from
    # Brussels H6's edge 1 through 57 at rotation 1); tokens follow the track stage
    jr = _game("1836Jr30", "3", "B", [("H4", "57", 1)], [("H6", 0, "B")])
    jr.apply({"type": "pass", "entity": "B"})
    assert jr.or_turn.stage == "token" and _tokens(jr) == [("H4", 0, 40)]


# ---------------------------------------------------------------------------------- trains
def test_fourth_train_in_phase_4_and_skipped_type_are_rejected():
    # 1836Jr-30 phase 4 (train limit 3): the 2s and 3s are sold, the first 4 too
    game = _game("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["3", "3", "4"])
    _rejected(
        game,
        {"type": "buy_train", "entity": "Nord", "train": "4-1", "variant": "4", "price": 300},
        "Nord has 3 trains and phase 4's train limit is 3",
    )
    assert candidate_moves(game, ("train",)) == []  # at no stage of the turn
    game = _game("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["4"])
    _rejected(
        game,
        {"type": "buy_train", "entity": "Nord", "train": "5-0", "variant": "5", "price": 450},
        r"train 5-0 is not for sale yet: .* \(now: 4-1\)",
    )
    to_stage(game, "Nord", "train", 300)
    assert _trains(game) == [("4-1", "4", 300)]


def test_1846_variants_and_prices():
    game = _game("1846", "II", "NYC", tokens=[("D20", 0, "NYC")], trains=["4"])
    to_stage(game, "NYC", "train", 300)
    # the next 4-train: as a 4 for $180 or as its 3/5 side for $160
    assert set(_trains(game)) == {("4-1", "4", 180), ("4-1", "3/5", 160)}
    # 1846 minors buy no trains: their turn has no train stage
    ms = _game("1846", "II", "MS", tokens=[("C15", 0, "MS")])
    assert "train" not in ms.or_turn.stages and candidate_moves(ms, ("train",)) == []
    _rejected(
        ms,
        {"type": "buy_train", "entity": "MS", "train": "4-1", "variant": "4", "price": 180},
        "trains are bought in the train stage",
    )


def test_1836jr30_one_bank_train_of_each_type_per_round():
    game = _game("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["4"])
    to_stage(game, "Nord", "train", 300)
    game.apply({"type": "buy_train", "entity": "Nord", "train": "4-1", "variant": "4",
                "price": 300})  # fmt: skip
    _rejected(
        game,
        {"type": "buy_train", "entity": "Nord", "train": "4-2", "variant": "4", "price": 300},
        "already bought a 4 train from the bank this round",
    )
    assert "4-2" not in {t for t, _v, _p in _trains(game)}
    to_stage(game, "Nord", "train", 300)  # the next operating round's turn may
    assert ("4-2", "4", 300) in _trains(game)
    game.apply({"type": "buy_train", "entity": "Nord", "train": "4-2", "variant": "4",
                "price": 300})  # fmt: skip
    assert [t.id for t in game.state.trains_of("Nord")] == ["4-0", "4-1", "4-2"]


# ---------------------------------------------------------------------------------- turns
def test_second_tile_lay_in_one_turn_is_rejected():
    game = _game("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")])
    game.apply(_lay("Nord", "I5", "9", 1))  # I3 - I5 - I7
    assert 1 in game.network("Nord").hexes["I7"]
    _rejected(game, _lay("Nord", "I7", "9", 1), r"Nord has made its 1 tile lay this turn")
    assert candidate_moves(game, ("tile",)) == []


def test_1846_two_lays_one_upgrade():
    # PRR with yellow 9s on E19 (edges 2-5) and F18 (edges 1-4, its edge 4 faces F20)
    game = _game(
        "1846", "II", "PRR", tiles=[("E19", "9", 2), ("F18", "9", 1)], tokens=[("F20", 0, "PRR")]
    )
    assert ("F18", "27", 4, 20) in _lays(game, "F18")
    game.apply(_lay("PRR", "E19", "26", 5))
    assert game.or_turn.lays == [("E19", True)]
    _rejected(game, _lay("PRR", "F18", "27", 4), "may not lay an upgrade as its tile lay 2")
    assert {game.state.board.color(h) for h, *_r in _lays(game)} == {"white"}
    game.apply(_lay("PRR", "D18", "7", 4))  # edges 4 and 5; 5 meets E19's new edge 2
    _rejected(game, _lay("PRR", "F18", "27", 4), "PRR has made its 2 tile lays this turn")
    assert _lays(game) == []


def test_1842_two_tiles_in_the_first_round_not_in_one_hex():
    # phase 3 (green out): a yellow lay could be upgraded in the same turn but for 3.3.3
    game = _game("1842", "3", "LBE", tokens=[("J14", 0, "LBE")])
    game.state.operators["LBE"].operated = False  # its first operating round: two lays
    game._version += 1
    game.apply(_lay("LBE", "K13", "3", 2))
    assert game.state.board.tile("K13").name == "3"
    _rejected(game, _lay("LBE", "K13", "87", 1), "already laid a tile on K13 this turn")
    assert _lays(game) and "K13" not in {h for h, *_r in _lays(game)}
    # a position is not a first operating round: one lay (7.2)
    later = _game("1842", "3", "LBE", tokens=[("J14", 0, "LBE")])
    later.apply(_lay("LBE", "K13", "3", 2))
    _rejected(later, _lay("LBE", "J12", "3", 4), "LBE has made its 1 tile lay this turn")


def test_one_token_per_turn():
    game = _nyc_to_e17()
    game.apply(_token("NYC", "E17"))
    assert game.cash("NYC") == LARGE_CASH - 80
    _rejected(game, _token("NYC", "E17"), "NYC already placed a station token this turn")
    assert _tokens(game) == []


# ---------------------------------------------------------------------------------- routes
def test_route_through_a_full_city_is_rejected():
    """Nord (3-train) at Gand H4 may end at B's full Brussels H6 but not run through it to
    Antwerp G7."""
    game = _game(
        "1836Jr30",
        "3",
        "Nord",
        [("H4", "57", 1), ("G7", "57", 0)],
        [("H4", 0, "Nord"), ("H6", 0, "B")],
        trains=["3"],
    )
    to_stage(game, "Nord", "route", 300)
    assert [a["revenue"] for a in game.legal_actions() if a["type"] == "run_routes"] == [50]
    # declared through H6: the walk ends at the full city, so no track of Nord's goes on
    through = [{"train": "3-0", "connections": [["H4", "H6"], ["H6", "G7"]]}]
    _rejected(game, {"type": "run_routes", "entity": "Nord", "routes": through},
              "no track on the board joins stops along H6-G7")  # fmt: skip
    # and on the whole map the route rules refuse it
    problem, view = game.route_problem("Nord", full_board=True)
    h4, h6, g7 = (view.city_node(h) for h in ("H4", "H6", "G7"))
    path = [h4, view.node("H4|H6"), h6, view.node("G7|H6"), g7]
    with pytest.raises(routing.RouteError, match="runs through 'H6.c0', which may only end"):
        routing.validate(problem, [(0, path)])
    assert routing.validate(problem, [(0, [h4, h6])]).total == 20 + 30  # 57's 20 + Brussels
    game.apply({"type": "run_routes", "entity": "Nord",
                "routes": [{"train": "3-0", "connections": [["H4", "H6"]]}]})  # fmt: skip
    assert game.events[-1]["revenue"] == 50


# ---------------------------------------------------------------------------------- positions
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_positions_load_and_round_trip(path):
    position = load_position(path)
    game = game_at_position(position)
    first = game.state.position(position.company, position.extras)
    again = game_at_position(first).state.position(position.company, position.extras)
    assert again == first
    assert sorted(map(repr, first.tiles)) == sorted(map(repr, position.tiles))
    assert sorted(map(repr, first.tokens)) == sorted(map(repr, position.tokens))
    assert sorted(first.trains) == sorted(position.trains)
    assert sorted(first.owned_companies) == sorted(position.owned_companies)
    assert first.phase == position.phase
    assert sorted(map(repr, first.assignments)) == sorted(map(repr, position.assignments))


def test_position_with_impossible_trains_is_rejected():
    # 1836Jr-30 has five 2-trains
    with pytest.raises(PositionError, match=r"trains\[5\]: no '2' train left for Nord"):
        _game("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")], trains=["2"] * 6)
