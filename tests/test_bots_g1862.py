"""Random-legal-play bots: whole 1862 USA/Canada (Ohley) games, invariants after every action.

:func:`engine.games.bots.play_random` checks :func:`engine.game.invariants` after each action
(money conserved, shares 100 %, trains and tiles as in the manifests, tokens on legal
slots).  These tests add that every game ends with one of the rulebook's game-end reasons
(§Ending the Game / Timing: the bank, a price above 379$, 8 companies out, fewer than three
players), that the money in the game is still the rulebook's 22,000$, and that a game
replays from its log.

A game takes 1-3 s of CPU (about 1,400 actions, a route solve per company turn, the
invariants after every action); the default run plays 100 games (player counts 4-7 in
turn) as five tests of 20, so that pytest-xdist spreads them over the cores, and the slow
mark plays 2,000.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from click.testing import CliRunner

from engine.app.cli_play import play
from engine.games.bots import play_random
from engine.games.g1862 import economy_data as ed
from tests.bot_support import assert_replays_from_log, seed_chunks

#: Game-end reasons of the engine (Game1862.GAME_END) and the base engine's turn-100 stop.
REASONS = {"bank", "stock_market", "companies_out", "players", "dnf"}
#: Least games of 20 that end by the bank or the market (seeds 0-199, measured: 19-20 of
#: every 20, the rest by eight companies out).
BANK_OR_MARKET_PER_20 = 18


def _play_many(count: int, first: int = 0) -> Counter:
    reasons: Counter = Counter()
    for seed in range(first, first + count):
        outcome = play_random("1862", 4 + seed % 4, seed=seed, max_actions=20_000)
        game = outcome.game
        assert game.finished, f"seed {seed}: not finished"
        assert game.end_reason in REASONS, f"seed {seed}: {game.end_reason}"
        assert set(game.result()) == set(game.seats)
        # all the money of the game: 22,000$, wherever it is (the bank may be negative)
        assert game.ledger.total() == ed.BANK_TOTAL, f"seed {seed}"
        # companies out of the game hold nothing; the others' prices are on the market
        for corp in game.out:
            assert corp not in game.shares.by_corp and corp not in game.market.where
        reasons[game.end_reason] += 1
    return reasons


@pytest.mark.parametrize("seeds", seed_chunks(100, 20), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_a_hundred_random_games_end_with_invariants(seeds):
    t0 = time.perf_counter()
    reasons = _play_many(len(seeds), first=seeds.start)
    seconds = time.perf_counter() - t0
    print(f"seeds {seeds.start}-{seeds.stop - 1}: {seconds / len(seeds):.2f} s a game, "
          f"{dict(reasons)}")  # fmt: skip
    # random tables end the ordinary ways: the bank breaks or a price passes 379$ (seeds
    # 0-199, measured: BANK_OR_MARKET_PER_20 or more of every 20, no game to turn 100)
    assert reasons["bank"] + reasons["stock_market"] >= BANK_OR_MARKET_PER_20
    assert reasons["dnf"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("seeds", seed_chunks(2000, 100, first=10_000),
                         ids=lambda r: f"{r.start}-{r.stop - 1}")  # fmt: skip
def test_two_thousand_random_games_end_with_invariants(seeds):
    reasons = _play_many(len(seeds), first=seeds.start)
    assert reasons["bank"] + reasons["stock_market"] >= 5 * BANK_OR_MARKET_PER_20 - 5
    assert reasons["dnf"] <= 1


def test_bot_games_are_deterministic_and_replay_from_the_log():
    assert_replays_from_log("1862", 5, seed=33)  # a short game (about 500 actions)


def test_play_command_plays_1862_to_the_end():
    result = CliRunner().invoke(play, ["1862", "--players", "4", "--seed", "2", "--bots",
                                       "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["finished"] and out["end_reason"] in REASONS
    assert sorted(out["result"]) == ["P1", "P2", "P3", "P4"]
    assert out["revenues"] and all(r["revenue"] >= 0 for r in out["revenues"])
