"""``engine.games.positions.game_at_position``: a rules-engine game in a position's state.

Hand-built checks, each with its arithmetic: the phase reached by buying the depot's trains
in order (rust, obsolescence, the depot), the company floated with its trains, privates and
cash, other companies' trains, the turn state of ``turn`` (what the company already did)
and the title parts (1846 borders, the C&WI token, removed corporations; 1812's unlimited
trains; 1836Jr-30's one train of a type per turn).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from engine.app.analysis import analyse_position, candidate_moves
from engine.games import load_position
from engine.games.positions import LARGE_CASH, game_at_position
from engine.model.fast_board import FastBoard
from engine.model.position import PositionError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "engine" / "examples"
BENCH = ROOT / "benchmarks" / "positions"


def _position(name: str, **changes):
    position = load_position(EXAMPLES / f"{name}.json")
    extras = dict(position.extras)
    for key in ("cash", "turn"):
        if key in changes:
            extras[key] = changes.pop(key)
    return replace(position, extras=extras, **changes)


def test_the_phase_is_reached_by_buying_the_depot_in_order():
    # 1846 for 5 players (extras.players): 9 2-trains, 6 4-trains, 5 5-trains, 9 6-trains.
    # Phase IV begins with the first 6 (on: 6): every 2, 4 and 5 is sold before it; the 2s
    # rust on the 6 (rusts_on) and the 4s are obsolete (obsolete_on 6).  B&O takes the first
    # 6 as its 7/8, PRR and NYC a 7/8 each from the depot: 9 - 3 = 6 6-trains left
    game = game_at_position(EXAMPLES / "1846-late.json")
    state = game.state
    assert state.phase_name == "IV"
    twos = [c for c in state.trains.values() if c.sym == "2"]
    assert len(twos) == 9 and all(c.owner is None for c in twos)
    assert Counter(state.trains[i].sym for i in state.depot) == {"6": 6}
    assert [(c.id, c.name) for c in state.trains_of("B&O")] == [("5-0", "4/6"), ("6-0", "7/8")]
    assert [c.name for c in state.trains_of("PRR")] == ["4/6", "7/8"]


def test_the_company_operates_floated_with_its_cash_and_privates():
    game = game_at_position(EXAMPLES / "1846-late.json")
    assert game.round.kind == "operating" and game.or_turn.op == "B&O"
    assert game.or_turn.stage == "track" and game.or_turn.lays == []
    assert game.shares.president("B&O") == "player1"
    assert game.state.operators["B&O"].floated
    assert game.state.owned_companies("B&O") == ["C&WI", "TBC"]
    assert game.cash("B&O") == LARGE_CASH
    assert "no cash given: every legal move is listed" in game.position_notes
    # the other companies float under the second seat with the trains extras.companies gives
    assert game.shares.president("GT") == "player2"
    assert [c.name for c in game.state.trains_of("GT")] == ["5"]
    assert game.position_info.other_trains == ("PRR", "NYC", "C&O", "ERIE", "GT", "IC")


def test_cash_limits_the_moves():
    # B&O with $20: 1846 lays cost at least $20 (TILE_COST), so the $20 ones stay and the
    # three $60 upgrades go (86 + 3 with the full treasury)
    rich = candidate_moves(game_at_position(_position("1846-late")), ("tile",))
    assert Counter(m.cost for m in rich) == {20: 86, 60: 3}
    poor_game = game_at_position(_position("1846-late", cash=20))
    assert poor_game.cash("B&O") == 20
    poor = candidate_moves(poor_game, ("tile",))
    assert Counter(m.cost for m in poor) == {20: 86}
    assert "no cash given: every legal move is listed" not in poor_game.position_notes


def test_tiles_laid_this_turn_leave_only_what_is_still_allowed():
    # 1846: two lays a turn, at most one an upgrade (TILE_LAYS).  After an upgrade only a
    # yellow lay on an empty (white) hex is left; after two lays none
    position = _position("1846-late")
    printed = FastBoard.from_data(game_at_position(position).title.data)
    game = game_at_position(position)
    board = game.state.board
    upgraded = next(
        t.hex for t in position.tiles
        if printed.color(t.hex) == "white" and board.color(t.hex) == "green"
    )  # fmt: skip
    game = game_at_position(_position("1846-late", turn={"tiles_laid": [upgraded]}))
    assert game.or_turn.lays == [(upgraded, True)]
    lays = candidate_moves(game, ("tile",))
    assert lays and all(m.label.startswith("lay ") for m in lays)
    assert all(game.state.board.color(m.details["hex"]) == "white" for m in lays)
    yellow = next(m.details["hex"] for m in lays)
    game = game_at_position(_position("1846-late", turn={"tiles_laid": [upgraded, yellow]}))
    assert candidate_moves(game, ("tile",)) == []


def test_a_token_placed_this_turn_ends_the_tokens():
    # 1846-mid: PRR may token in four cities; one token a turn (tokener.rb)
    assert len(candidate_moves(game_at_position(_position("1846-mid")), ("token",))) == 4
    game = game_at_position(_position("1846-mid", turn={"tokens_placed": ["E17"]}))
    assert candidate_moves(game, ("token",)) == []
    assert candidate_moves(game, ("tile",))  # the track stage goes on


def test_one_lay_and_one_bank_train_of_a_type_per_turn_1836jr30():
    # 1836Jr-30 (1830): one tile a turn; after it the token stage (H10 for 100)
    game = game_at_position(_position("1836jr30-early", turn={"tiles_laid": ["H8"]}))
    assert game.or_turn.stage == "token"
    assert [m.kind for m in candidate_moves(game)] == ["token", "train"]
    # a train bought this turn: the track and token stages are over, and the bank sells
    # one train of a type a turn (BuySingleTrainOfType): the next 3 is not offered again
    # (with nothing left to buy the engine moves on to the private-purchase stage)
    game = game_at_position(_position("1836jr30-early", turn={"trains_bought": ["3"]}))
    t = game.or_turn
    assert t.index >= t.stages.index("train") and t.flags["bought_types"] == {"3"}
    assert candidate_moves(game) == []
    fresh = candidate_moves(game_at_position(_position("1836jr30-early")), ("train",))
    assert [(m.details["variant"], m.cost) for m in fresh] == [("3", 180)]


def test_1846_borders_paid_and_the_c_and_wi_token():
    game = game_at_position(EXAMPLES / "1846-late.json")
    # G17 (tile 8, exits 0 and 4) and its neighbour across its water border (edge 4, $20)
    # both have track: the lay that joined them paid it, so an upgrade costs the $20
    # minimum, not 20 + 20
    assert ("G17", 4) in game.paid_borders
    assert {m.cost for m in candidate_moves(game, ("tile",)) if m.details["hex"] == "G17"} == {20}
    # B&O's charter has 4 tokens ([0, 80, 80, 80]); its Chicago token (D6 city 3) came with
    # the C&WI, an extra one: 4 + 1 = 5 tokens, all 5 on the map
    assert game.token_adjust["B&O"] == 1 and game.ability_uses["C&WI"] == 1
    assert len(game.state.tokens_of("B&O")) == 5 and game.tokens_left("B&O") == 0


def test_1846_removed_corporations_reserve_nothing():
    # 12666 (3 players): C&O and PRR are removed; PRR's home token stays (F20, in the
    # position) but its E11 reservation does not hold, so B&O may token there for $80
    game = game_at_position(BENCH / "1846-12666-a243-BO.json")
    assert game.state.operators["PRR"].removed
    assert "PRR" not in game.state.reservations.get(("E11", 0), [])
    tokens = {(m.details["hex"], m.cost) for m in candidate_moves(game, ("token",))}
    assert ("E11", 80) in tokens


def test_1846_assignments_are_the_games():
    game = game_at_position(EXAMPLES / "1846-mid.json")
    assert game.assigned_hex == {"MPC": "D6", "SC": "D14"}
    assert game.assigned_corp == {"MPC": "PRR", "SC": "NYC"}
    assert sorted(map(repr, game.assignments())) == sorted(
        map(repr, load_position(EXAMPLES / "1846-mid.json").assignments)
    )


def test_1812_unlimited_trains_are_minted():
    # 1812 phase 2: minor 6 runs a 2 and a 1G (both sides of the unlimited 2/1G card): the
    # one card in the Bank is taken and a new one minted (§7.3.8)
    game = game_at_position(EXAMPLES / "1812-early.json")
    assert [c.name for c in game.state.trains_of("6")] == ["2", "1G"]
    # phase 6 begins with the first 3D (available from phase 5): the 5s are unlimited, so
    # one 5 is bought for phase 5 and then the 3D, not 5s for ever
    game = game_at_position(EXAMPLES / "1812-late.json")
    assert game.state.phase_name == "6"
    assert sum(1 for c in game.state.trains.values() if c.sym == "5") <= 3


def test_a_company_that_is_not_operating_needs_known_trains():
    position = _position("1846-late")
    bare = replace(position, extras={})
    with pytest.raises(PositionError, match="trains of GT are unknown"):
        analyse_position(bare, company="GT", workers=1)
    with pytest.raises(PositionError, match="company: unknown company .XYZ."):
        game_at_position(replace(position, company="XYZ"))
