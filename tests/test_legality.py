"""Operating-round legality (engine.legality, engine.operating) on hand-built positions.

Every illegal action is rejected with an :class:`IllegalAction` naming the rule and leaves
the state as it was; legal options are checked against hand-worked answers and a brute
force over every hex, manifest tile and rotation.

Map facts used below (pointy maps; edges 0 lower-left, 1 left, 2 upper-left, 3 upper-right,
4 right, 5 lower-right):

- 1846: PRR's home F20 (gray) has track to edges 1, 2, 4, 5; its edge 2 faces E19's edge 5,
  where a mountain border costs $40.  NYC's home D20 has track to edges 0, 1, 3; its edge 0
  faces E19's edge 3.  E17 (Z city) is E19's edge-1 neighbour.  Detroit C15 has 2 slots.
- 1836Jr-30: Nord's home Lille I3 has track to edges 0 (Paris J2) and 4 (I5, a plain hex
  whose six neighbours are all open).  Gand H4 is left of Brussels H6 (one slot, track to
  edges 1 and 3); H6's edge 3 faces Antwerp G7's edge 0.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import routing
from engine.game.errors import IllegalAction
from engine.games import build_problem, load_position
from engine.legality import (
    _path_key,
    check_tile_lay,
    check_token,
    check_train_purchase,
    legal_tile_lays,
    legal_token_placements,
    reachable,
    state_from_position,
    train_purchase_options,
)
from engine.model.position import PositionError, position_from_dict
from engine.operating import OperatingTurn

EXAMPLES = sorted((Path(__file__).parent.parent / "engine" / "examples").glob("*.json"))
RECORDS = Path(__file__).parent / "data" / "records"


def _state(title, phase, company, tiles=(), tokens=(), trains=(), owned=(), companies=None):
    """Engine state of a hand-built position (``tiles``: (hex, tile, rotation), ``tokens``:
    (hex, city, company))."""
    position = position_from_dict(
        {
            "title": title,
            "phase": phase,
            "company": company,
            "tiles": [{"hex": h, "tile": t, "rotation": r} for h, t, r in tiles],
            "tokens": [{"hex": h, "city": c, "company": s} for h, c, s in tokens],
            "trains": list(trains),
            "owned_companies": list(owned),
        }
    )
    return state_from_position(position, companies=companies)


def _snapshot(state) -> tuple:
    return (
        {h: (p.tile.name, p.rotation) for h, p in state.board.laid.items()},
        dict(state.tile_hex),
        copy.deepcopy(state.tokens),
        {t.id: (t.owner, t.name, t.obsolete) for t in state.trains.values()},
        list(state.depot),
        state.phase_index,
        {c: (i["owner"], i["closed"]) for c, i in state.companies.items()},
    )


def _rejected(fn, pattern, state, *args, **kwargs):
    before = _snapshot(state)
    with pytest.raises(IllegalAction, match=pattern):
        fn(*args, **kwargs)
    assert _snapshot(state) == before


# ---------------------------------------------------------------------------------- tiles
def test_tile_breaking_existing_track_is_rejected():
    # E19 holds straight 9 at rotation 2 (edges 2-5); green 20 at rotation 0 has 0-3 and 1-4
    state = _state("1846", "II", "PRR", tiles=[("E19", "9", 2)], tokens=[("F20", 0, "PRR")])
    _rejected(
        check_tile_lay,
        r"tile 20 rotation 0 on E19: .*breaks the existing track edge 2-edge 5",
        state,
        state,
        "PRR",
        "E19",
        "20",
        0,
    )


def test_tile_not_connected_to_the_network_is_rejected():
    # NYC reaches only D20 and its track's neighbours; E9 is on the far side of the map
    state = _state("1846", "I", "NYC", tokens=[("D20", 0, "NYC")])
    _rejected(
        check_tile_lay,
        "tile 9 rotation 0 on E9 does not connect to NYC's network",
        state,
        state,
        "NYC",
        "E9",
        "9",
        0,
    )
    # E19's edge 3 faces D20's track to edge 0, so a tile with an exit there connects
    assert check_tile_lay(state, "NYC", "E19", "9", 0).hex == "E19"  # 9 at 0: edges 0 and 3


def test_tile_lay_through_a_blocked_city_is_rejected():
    # Nord at Gand H4 (57 at rotation 1: edges 1 and 4) runs into Brussels H6; B's token fills
    # H6's only slot, so the walk ends there and H6's edge-3 track to Antwerp G7 is not
    # Nord's.  The private GCB, which reserves G7, is taken as closed.
    tiles, closed = [("H4", "57", 1)], {"GCB": None}
    blocked = _state(
        "1836Jr30", "3", "Nord", tiles, [("H4", 0, "Nord"), ("H6", 0, "B")], companies=closed
    )
    assert ("H6", "city", 0) in reachable(blocked, "Nord").stops  # an end, not a way through
    assert not reachable(blocked, "Nord").edges_of("G7")
    _rejected(
        check_tile_lay,
        "tile 57 rotation 0 on G7 does not connect to Nord's network",
        blocked,
        blocked,
        "Nord",
        "G7",
        "57",
        0,
    )
    free = _state("1836Jr30", "3", "Nord", tiles, [("H4", 0, "Nord")], companies=closed)
    assert reachable(free, "Nord").edges_of("G7") == {0}
    assert check_tile_lay(free, "Nord", "G7", "57", 0).cost == 0


def test_private_reserved_hex_and_upgrade_rule_are_enforced():
    # G7 is reserved for the private GCB while a player owns it (its blocks_hexes ability)
    state = _state("1836Jr30", "3", "Nord", [("H4", "57", 1)], [("H4", 0, "Nord")])
    _rejected(
        check_tile_lay, "G7 is reserved for the private GCB", state, state, "Nord", "G7", "57", 0
    )
    # 1846 upgrades must add track the company can use: PRR reaches E19's straight 2-5 from
    # edge 5; green 26 at rotation 2 adds 2-1 (not reachable: nothing arrives at edge 2),
    # at rotation 5 it adds 5-4 (reached from edge 5)
    state = _state("1846", "II", "PRR", tiles=[("E19", "9", 2)], tokens=[("F20", 0, "PRR")])
    _rejected(
        check_tile_lay,
        "gives PRR no new track or a changed city",
        state,
        state,
        "PRR",
        "E19",
        "26",
        2,
    )
    assert check_tile_lay(state, "PRR", "E19", "26", 5).cost == 20  # border already paid


def test_1842_hav_only_hexes():
    state = _state("1842", "2", "LBE", tokens=[("J14", 0, "LBE")])
    _rejected(
        check_tile_lay, "only the HAV lays tiles on L10", state, state, "LBE", "L10", "HH1A", 0
    )
    # the HAV has no station: it lays on Hamburg and Harburg without a connection
    lays = legal_tile_lays(state, "HAV")
    assert {o.hex for o in lays} == {"L10"} and {o.tile for o in lays} == {"HH1A", "HH1B"}
    # and nowhere else; LBE may not build on I13, ELE's home, while only yellow is out
    _rejected(check_tile_lay, "the HAV lays tiles only on", state, state, "HAV", "K13", "3", 2)
    _rejected(check_tile_lay, "I13 is ELE's home hex", state, state, "LBE", "I13", "57", 0)


def test_legal_lays_hand_count_and_brute_force():
    # Nord alone at I3 in phase 2 (yellow only).  Its track reaches I5's edge 1 (and Paris,
    # where no tile goes); I3 itself takes no yellow tile.  Plain I5 takes 7, 8 or 9 with an
    # exit on edge 1, all six sides being open: 7 (edges r, r+1) at r = 0, 1; 8 (r, r+2) at
    # r = 1, 5; 9 (r, r+3) at r = 1 (4 lays the same track) - five lays, no terrain: cost 0.
    state = _state("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")])
    got = legal_tile_lays(state, "Nord")
    assert [(o.hex, o.tile, o.rotation, o.cost, o.upgrade) for o in got] == [
        ("I5", "7", 0, 0, False),
        ("I5", "7", 1, 0, False),
        ("I5", "8", 1, 0, False),
        ("I5", "8", 5, 0, False),
        ("I5", "9", 1, 0, False),
    ]
    _brute_force(state, "Nord", got)


@pytest.mark.parametrize("name", ["1846-late", "1836jr56-mid"])
def test_legal_lays_equal_a_brute_force_on_examples(name):
    position = load_position(Path(__file__).parent.parent / "engine" / "examples" / f"{name}.json")
    state = state_from_position(position)
    _brute_force(state, position.company, legal_tile_lays(state, position.company))


def _brute_force(state, sym, got):
    """Every hex x manifest tile x rotation through check_tile_lay, rotations laying the same
    track counted once, equals the enumeration."""
    found = set()
    for h in state.board.cells:
        for name, (tile, _count) in state.board.manifest.items():
            for r in range(6):
                try:
                    option = check_tile_lay(state, sym, h, name, r)
                except IllegalAction:
                    continue
                found.add((h, name, _path_key(tile, r), option.cost))
    listed = {
        (o.hex, o.tile, _path_key(state.board.manifest_tile(o.tile), o.rotation), o.cost)
        for o in got
    }
    assert len(listed) == len(got) and listed == found and found


def test_terrain_and_border_costs():
    # E19 carries a $40 mountain border on edge 5 towards PRR's F20, whose track faces back:
    # any tile using edge 5 pays max($20, no terrain) + $40 = $60; with Tunnel Blasting
    # ($20 off mountains) $20 + $20 = $40.  F18's printed mountain costs $40 = max(20, 40).
    state = _state("1846", "I", "PRR", tokens=[("F20", 0, "PRR")])
    lays = legal_tile_lays(state, "PRR")
    assert ("E19", "9", 2, 60) in {(o.hex, o.tile, o.rotation, o.cost) for o in lays}
    assert {o.cost for o in lays if o.hex == "F18"} == {40}
    tbc = _state("1846", "I", "PRR", tokens=[("F20", 0, "PRR")], owned=["TBC"])
    assert check_tile_lay(tbc, "PRR", "E19", "9", 2).cost == 40
    assert check_tile_lay(tbc, "PRR", "F18", "9", 1).cost == 20  # 40 - 20, at least 20


# ---------------------------------------------------------------------------------- tokens
def _nyc_to_e17():
    # 8 at rotation 1 on E19 joins edges 1 and 3 (E17 and D20); 291 at rotation 4 puts E17's
    # city on edges 4 and 5, so NYC's track reaches the Z city E17
    return _state(
        "1846",
        "II",
        "NYC",
        tiles=[("E19", "8", 1), ("E17", "291", 4)],
        tokens=[("D20", 0, "NYC"), ("C15", 0, "MS"), ("C15", 0, "GT"), ("F20", 0, "PRR")],
    )


def test_token_without_route_and_in_full_city_are_rejected():
    state = _nyc_to_e17()
    _rejected(check_token, "NYC has no route to G7 city 0", state, state, "NYC", "G7", 0)
    _rejected(
        check_token,
        r"C15 city 0 is full \(2 tokens for 2 slots: MS, GT\)",
        state,
        state,
        "NYC",
        "C15",
        0,
    )
    _rejected(check_token, "already has a token", state, state, "NYC", "D20", 0)


def test_token_options_and_costs():
    state = _nyc_to_e17()
    # NYC's charter [0, 80, 80, 80]: the home token is down, the next costs $80
    assert [(o.hex, o.city, o.cost) for o in legal_token_placements(state, "NYC")] == [
        ("E17", 0, 80)
    ]
    # PRR's own ability: E11 for $40 when connected, else $60 without a connection
    assert ("E11", 0, 60, "PRR") in {
        (o.hex, o.city, o.cost, o.ability) for o in legal_token_placements(state, "PRR")
    }
    # 1836Jr-30 charters [0, 40, 100, ...]: B's second token F40 (Gand H4 is reached from
    # Brussels H6's edge 1 through 57 at rotation 1)
    jr = _state("1836Jr30", "3", "B", [("H4", "57", 1)], [("H6", 0, "B")])
    assert [(o.hex, o.cost) for o in legal_token_placements(jr, "B")] == [("H4", 40)]


# ---------------------------------------------------------------------------------- trains
def test_fourth_train_in_phase_4_and_skipped_type_are_rejected():
    # 1836Jr-30 phase 4 (train limit 3): the 2s and 3s are sold, the first 4 too
    state = _state("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["3", "3", "4"])
    _rejected(
        check_train_purchase,
        "Nord has 3 trains and phase 4's train limit is 3",
        state,
        state,
        "Nord",
        "4-1",
    )
    assert not [o for o in train_purchase_options(state, "Nord") if o.source == "depot"]
    state = _state("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["4"])
    _rejected(
        check_train_purchase, r"not for sale yet: .* \(now: 4-1\)", state, state, "Nord", "5-0"
    )
    assert [
        (o.train_id, o.variant, o.source, o.price) for o in train_purchase_options(state, "Nord")
    ] == [("4-1", "4", "depot", 300)]


def test_1846_variants_and_prices():
    state = _state("1846", "II", "NYC", tokens=[("D20", 0, "NYC")], trains=["4"])
    options = {(o.variant, o.price) for o in train_purchase_options(state, "NYC")}
    assert options == {("4", 180), ("3/5", 160)}
    assert train_purchase_options(state, "MS") == []  # 1846 minors buy no trains


def test_1836jr30_one_bank_train_of_each_type_per_round():
    state = _state("1836Jr30", "4", "Nord", tokens=[("I3", 0, "Nord")], trains=["4"])
    turn = OperatingTurn(state, "Nord")
    assert turn.buy_train("4-1").price == 300
    _rejected(
        turn.buy_train, "already bought a 4-train from the bank this operating round", state, "4-2"
    )
    assert "4-2" not in {o.train_id for o in turn.train_options()}
    OperatingTurn(state, "Nord").buy_train("4-2")  # the next round's turn may
    assert [t.id for t in state.trains_of("Nord")] == ["4-0", "4-1", "4-2"]


# ---------------------------------------------------------------------------------- turns
def test_second_tile_lay_in_one_turn_is_rejected():
    state = _state("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")])
    turn = OperatingTurn(state, "Nord")
    turn.lay_tile("I5", "9", 1)  # I3 - I5 - I7
    assert ("I7", 1) in reachable(state, "Nord").edges
    _rejected(
        turn.lay_tile,
        r"Nord has made its 1 tile lay this turn \(1836Jr30: one tile",
        state,
        "I7",
        "9",
        1,
    )
    assert turn.legal_tile_lays() == []


def test_1846_two_lays_one_upgrade():
    # PRR with yellow 9s on E19 (edges 2-5) and F18 (edges 1-4, its edge 4 faces F20)
    state = _state(
        "1846", "II", "PRR", tiles=[("E19", "9", 2), ("F18", "9", 1)], tokens=[("F20", 0, "PRR")]
    )
    turn = OperatingTurn(state, "PRR")
    assert turn.lay_tile("E19", "26", 5).upgrade
    _rejected(turn.lay_tile, "may not lay an upgrade as its tile lay 2", state, "F18", "26", 4)
    assert {o.upgrade for o in turn.legal_tile_lays()} == {False}
    turn.lay_tile("D18", "7", 4)  # edges 4 and 5; 5 meets E19's new edge 2
    _rejected(turn.lay_tile, "PRR has made its 2 tile lays this turn", state, "G19", "14", 0)


def test_1842_two_tiles_in_the_first_round_not_in_one_hex():
    state = _state("1842", "2", "LBE", tokens=[("J14", 0, "LBE")])
    turn = OperatingTurn(state, "LBE", first_or=True)
    turn.lay_tile("K13", "3", 2)
    _rejected(turn.lay_tile, "already laid a tile on K13 this turn", state, "K13", "3", 3)
    later = OperatingTurn(_state("1842", "2", "LBE", tokens=[("J14", 0, "LBE")]), "LBE")
    assert len(later.slots) == 1 and len(turn.slots) == 2


def test_one_token_per_turn():
    state = _nyc_to_e17()
    turn = OperatingTurn(state, "NYC")
    assert turn.place_token("E17", 0).cost == 80
    _rejected(turn.place_token, "already placed a station token this turn", state, "E17", 0)
    assert turn.legal_token_placements() == []


# ---------------------------------------------------------------------------------- routes
def test_route_through_a_full_city_is_rejected_by_validation():
    """From an engine state: Nord (3-train) at Gand H4 may end at B's full Brussels H6 but not
    run through it to Antwerp G7."""
    state = _state(
        "1836Jr30",
        "3",
        "Nord",
        [("H4", "57", 1), ("G7", "57", 0)],
        [("H4", 0, "Nord"), ("H6", 0, "B")],
        trains=["3"],
    )
    problem, view = build_problem(state.position("Nord"))
    h4, h6, g7 = (view.city_node(h) for h in ("H4", "H6", "G7"))
    through = [h4, view.node("H4|H6"), h6, view.node("G7|H6"), g7]
    with pytest.raises(routing.RouteError, match="runs through 'H6.c0', which may only end"):
        routing.validate(problem, [(0, through)])
    assert routing.validate(problem, [(0, [h4, h6])]).total == 20 + 30  # 57's 20 + Brussels


# ---------------------------------------------------------------------------------- positions
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_positions_load_and_round_trip(path):
    position = load_position(path)
    state = state_from_position(position)
    first = state.position(position.company, position.extras)
    again = state_from_position(first).position(position.company, position.extras)
    assert again == first
    assert sorted(map(repr, first.tiles)) == sorted(map(repr, position.tiles))
    assert sorted(map(repr, first.tokens)) == sorted(map(repr, position.tokens))
    assert sorted(first.trains) == sorted(position.trains)
    assert sorted(first.owned_companies) == sorted(position.owned_companies)
    assert first.phase == position.phase and first.assignments == position.assignments


def test_position_with_impossible_trains_is_rejected():
    # 1836Jr-30 has five 2-trains
    with pytest.raises(PositionError, match=r"trains\[5\]: no '2' train left for Nord"):
        _state("1836Jr30", "2", "Nord", tokens=[("I3", 0, "Nord")], trains=["2"] * 6)
