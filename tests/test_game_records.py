"""18xx.games records through the full rules engine (engine.games.records).

Every public fixture of 1846, the 1846 2-player variant and 1836Jr-30 (tests/data/records,
MIT-licensed, SOURCE.md) replays action by action through ``BaseGame.apply`` - every
recorded action legal in our engine, the invariants checked after each - to exactly the
``result`` and ``game_end_reason`` the site recorded.  Conventions: a record ended by hand
(``end_game``) ends ``manually_ended`` with the values at that point; ``dnf``: 18xx.games
played the game on by itself to its 100-turn limit, and so does our engine (every step
after the last action is automatic).

Declared routes (``run_routes`` with ``routes``) are scored by
``OperatingMixin.check_routes``; the hand-built checks below give the arithmetic.  Boards
at record positions: tiles and revenues are the recorded ones (12666 before action 129:
NYC's token in D20 (city 10), E21 (city 10), E17 green 292 (city 40), plain track in E19
and D18).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.game import IllegalAction, invariants
from engine.game.shares import POOL
from engine.games import load_game, load_record
from engine.games.g1836jr30.game import Game1836Jr30
from engine.games.g1846.game import Game1846
from engine.games.records import RecordFeed, from_record, new_record_game, replay_record_game
from engine.model.record import ReplayError, filter_actions
from tests.test_game_g1836jr30 import _auction, _floated, _refresh

RECORDS = Path(__file__).parent / "data" / "records"
FILES = [p for folder in ("1846", "18462pVariant", "1836Jr30")
         for p in sorted((RECORDS / folder).glob("*.json"))]  # fmt: skip



def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _upto(name: str, action_id: int):
    """The game of record ``name`` just before its action ``action_id``."""
    record = load_record(RECORDS / f"{name}.json")
    game = new_record_game(record)
    feed = RecordFeed(game)
    for raw in filter_actions(record.actions):
        if raw.get("id") == action_id:
            return game, raw
        feed.apply(raw)
    raise AssertionError(f"{name} has no action {action_id}")


def test_every_record_is_here():
    assert len(FILES) == 12 + 4 + 3


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_record_replays_to_its_recorded_result(path):
    recorded = json.loads(path.read_text())
    game = replay_record_game(path, on_action=lambda game, raw: invariants(game))
    assert game.finished
    assert game.end_reason == recorded["game_end_reason"]
    assert game.result() == recorded["result"]


# ---------------------------------------------------------------------- declared routes
NYC_RUN = [
    {"train": "2-4", "connections": [["D20", "E19", "E21"]]},
    {"train": "2-6", "connections": [["E17", "D18", "D20"]]},
]


def test_declared_routes_earn_their_own_revenue():
    game, raw = _upto("1846/12666", 129)
    optimum = next(a for a in game.legal_actions() if a["type"] == "run_routes")["revenue"]
    # the recorded run: 2-4 D20 + E21 = 10 + 10 = 20; 2-6 E17 + D20 = 40 + 10 = 50: 70,
    # below the optimum the engine would book without routes
    assert optimum > 70
    act = from_record(game, raw)
    assert act["routes"] == NYC_RUN
    game.apply(act)
    assert game.actions[-1]["revenue"] == 70
    assert sorted((r["id"], r["revenue"]) for r in game.or_turn.routes) == [
        ("2-4", 20),
        ("2-6", 50),
    ]


def test_one_declared_route_and_no_route():
    game, _raw = _upto("1846/12666", 129)
    game.apply({"type": "run_routes", "entity": "NYC", "routes": NYC_RUN[1:]})
    assert game.actions[-1]["revenue"] == 50  # E17 40 + D20 10, the other train idle
    game, _raw = _upto("1846/12666", 129)
    game.apply({"type": "run_routes", "entity": "NYC", "routes": []})
    assert game.actions[-1]["revenue"] == 0


@pytest.mark.parametrize(
    ("routes", "message"),
    [
        ([{"train": "4-0", "connections": [["E17", "D18", "D20"]]}],
         r"train 4-0 may not run now \(runnable: 2-4, 2-6\)"),
        ([{"train": "2-4", "connections": [["D20", "D18", "E19"]]}],
         r"train 2-4\): no track on the board joins stops along D20-D18-E19"),
        ([{"train": "2-6", "connections": [["E17", "D18", "D20"], ["D20", "E19", "E21"]]}],
         r"train 2-6: .*visits 3 stops but train '2' may visit at most 2"),
        ([NYC_RUN[1], {**NYC_RUN[0], "train": "2-6"}],
         r"train 2-6: .*the train already runs another route"),
        ([{"train": "2-4"}, 5], r"'routes' must be a list of route objects"),
    ],
)  # fmt: skip
def test_an_invalid_declared_route_is_refused_naming_train_and_rule(routes, message):
    game, _raw = _upto("1846/12666", 129)
    before, cash = game.to_dict(), dict(game.ledger.balances)
    with pytest.raises(IllegalAction, match=message):
        game.apply({"type": "run_routes", "entity": "NYC", "routes": routes})
    assert game.to_dict() == before and game.ledger.balances == cash


def test_west_west_is_scored_under_the_rule_the_record_was_played_with():
    # IC's 4-train runs St. Louis (I1) to Chicago Connections (C5): West to West.
    # 18xx.games allows it and records play with allow_west_west; what it paid (the
    # record's route revenues): 50 + 50 + 120 = 220
    game, raw = _upto("1846/20381", 274)
    assert "allow_west_west" in game.options
    game.apply(from_record(game, raw))
    assert game.actions[-1]["revenue"] == 220
    # the seed summary's ban (a game without the option) refuses that route
    seed_rules = [o for o in game.options if o != "allow_west_west"]
    banned = type(game)(game.seats, game.seed, seed_rules, game.actions[:-1])
    with pytest.raises(IllegalAction, match=r"train 4-1: .*may not run from 'I1.o' to 'C5.o'"):
        banned.apply(from_record(banned, raw))


def test_a_replayed_record_saves_and_loads_with_its_declared_routes():
    path = RECORDS / "1846" / "20381.json"
    game = replay_record_game(path)
    again = load_game(game.to_dict())
    assert again.result() == game.result() == json.loads(path.read_text())["result"]


def test_record_errors_name_record_and_action(tmp_path):
    data = json.loads((RECORDS / "1846" / "hs_wwhjwjvo_1716866882.json").read_text())
    bid = next(a for a in data["actions"] if a["type"] == "bid")
    bid["company"] = "NOPE"
    with pytest.raises(ReplayError, match=rf"^broken: action {bid['id']} \(bid by "):
        replay_record_game(load_record(data, name="broken"))


# ---------------------------------------------------------------------- 1846 options
def test_two_player_variant_setup():
    game = Game1846(["A", "B"], 7, ["two_player"])
    # game.rb: $7000 in the bank, $600 each; 70% per player; 7 2-trains
    assert game.cash("A") == game.cash("B") == 600 and game.cash("bank") == 7000 - 1200
    assert game.holding_limit("NYC") == 70
    assert sum(1 for t in game.state.trains.values() if t.sym == "2") == 7
    north, south = {"ERIE", "GT", "NYC", "PRR"}, {"B&O", "C&O", "IC"}
    out = set(game.removed_corporations)
    assert len(out & north) == 1 and len(out & south) == 1 and len(out) == 2
    seconds = {"B&O": "H12", "C&O": "H12", "ERIE": "D20", "GT": "D14", "IC": "G7",
               "NYC": "E17", "PRR": "E11"}  # fmt: skip
    for sym in out:  # the home token stays; a second one now (ERIE) or once green
        assert game.state.tokens_of(sym)
        if sym == "ERIE":
            assert ("D20", 0) in game.state.tokens_of("ERIE")
        else:
            assert game.second_tokens[seconds[sym]] == sym
    # one private per group removed, plus the 2nd-edition one: 2 + 2
    assert len(game.removed_companies) == 4
    # the draft: B first (reverse seat order), every unowned private at its price,
    # cheapest first; no pass before anyone owns a private
    legal = game.legal_actions()
    assert {a["entity"] for a in legal} == {"B"} and all(a["type"] == "bid" for a in legal)
    prices = [a["price"] for a in legal]
    assert prices == sorted(prices)
    game.apply(legal[0])
    assert game.cash("B") == 600 - prices[0]  # bought at once
    assert any(a["type"] == "pass" for a in game.legal_actions())


def test_first_edition_leaves_out_boomtown_and_little_miami():
    game = Game1846(["A", "B", "C", "D"], 3, ["first_ed"])
    assert game.state.companies["BT"]["closed"] and game.state.companies["LM"]["closed"]
    # 4 players: 5 - 4 = 1 private per group out (no 2nd-edition extra); the deck: 12 - 2
    # 1st-edition-only - 2 removed = 8 privates and 4 Pass cards
    assert len(game.removed_companies) == 2
    assert len(game.draft_deck) == 12
    assert not {"BT", "LM"} & set(game.draft_deck)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (["A", "B"], [], "3-5 players"),
        (["A", "B", "C"], ["two_player"], "'two_player' takes 2 players"),
        (["A", "B", "C"], ["first_ed", "second_ed_co"], "exclude each other"),
        (["A", "B", "C"], ["third_ed"], "unknown option 'third_ed'"),
    ],
)
def test_bad_1846_options_are_refused(players, options, message):
    with pytest.raises(ValueError, match=message):
        Game1846(players, 0, options)


# ---------------------------------------------------------------------- 1836Jr-30 option
@pytest.mark.parametrize("option", [False, True])
def test_multiple_brown_shares_from_the_ipo_only_with_the_option(option):
    game = Game1836Jr30(["P1", "P2", "P3"], 1, ["multiple_brown_from_ipo"] if option else [])
    _auction(game)
    _floated(game, "HSM", 67, "P1")
    # price (and, with this hand-built move, par price) 20: a brown cell
    game.market.grid.set_par("HSM", 7, 1, check_par=False)
    _refresh(game)
    game.apply({"type": "pass", "entity": "P1"})
    cash = game.cash("P2")
    buy = {"type": "buy_shares", "entity": "P2", "corporation": "HSM", "source": "treasury",
           "percent": 10}  # fmt: skip
    game.apply(buy)
    assert game.cash("P2") == cash - 20  # an IPO share costs the par price
    if option:
        game.apply(buy)  # a second IPO share in the same turn: 2 x 20
        assert game.shares.percent("HSM", "P2") == 20 and game.cash("P2") == cash - 40
    else:  # one certificate a turn, several only from the market (P2's turn is over)
        with pytest.raises(IllegalAction):
            game.apply(buy)
        assert game.shares.percent("HSM", "P2") == 10
    assert game.shares.percent("HSM", POOL) == 0
