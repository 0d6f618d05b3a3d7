"""Random-legal-play bots: whole 1836Jr-30 games, invariants checked after every action.

:func:`engine.games.bots.play_random` checks :func:`engine.game.invariants` after each
action (money conserved, shares 100%, trains and tiles as in the manifests, tokens on legal
slots); these tests check that every game ends with a game-end reason of the rules (a broken
bank, a bankruptcy; 18xx.games' turn-100 stop should not be needed) and that no exception
escapes.  The default run plays 200 games (2, 3 and 4 players in turn) as ten tests of 20,
which pytest-xdist spreads over the cores; the slow mark plays 2,000.
"""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from click.testing import CliRunner

from tests.bot_support import assert_replays_from_log, play_to_end, seed_chunks

#: Game-end reasons of 1836Jr-30 (game.rb GAME_END_CHECK) and 18xx.games' turn-100 stop.
REASONS = {"bank", "bankrupt", "dnf"}
#: Games of every 20 (seeds in order) that end by the broken bank, at least.
BANK_PER_20 = 17


def _play_many(seeds) -> Counter:
    reasons: Counter = Counter()
    for seed in seeds:
        game = play_to_end("1836Jr-30", 2 + seed % 3, seed, REASONS)
        # the bank pays each player's starting cash; nobody ends below zero
        assert all(game.cash(p) >= 0 for p in game.seats)
        reasons[game.end_reason] += 1
    return reasons


@pytest.mark.parametrize("seeds", seed_chunks(200, 20), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_two_hundred_random_games_end_with_invariants(seeds):
    t0 = time.perf_counter()
    reasons = _play_many(seeds)
    seconds = time.perf_counter() - t0
    print(f"{len(seeds)} games in {seconds:.1f} s: {dict(reasons)}")
    # random tables nearly always run the bank dry; a bankruptcy is rare; no game needs
    # 18xx.games' turn-100 stop
    assert reasons["bank"] >= BANK_PER_20
    assert reasons["dnf"] == 0


@pytest.mark.slow
def test_two_thousand_random_games_end_with_invariants():
    reasons = _play_many(range(10_000, 12_000))
    assert reasons["bank"] >= 1800
    assert reasons["dnf"] == 0


def test_bot_games_are_deterministic_and_replay_from_the_log():
    assert_replays_from_log("1836Jr30", 3, seed=4)


def test_eighteen_play_prints_revenues_and_scores(tmp_path):
    from engine.app.cli import cli

    save = tmp_path / "game.json"
    out = CliRunner().invoke(
        cli, ["play", "1836Jr-30", "--players", "2", "--seed", "5", "--bots", "--save", str(save)]
    )
    assert out.exit_code == 0, out.output
    assert "OR 1" in out.output or "OR 2" in out.output
    assert "game ended (" in out.output and "1. P" in out.output
    replay = CliRunner().invoke(cli, ["play", "--load", str(save), "--json"])
    assert replay.exit_code == 0, replay.output
    data = json.loads(replay.output)
    assert data["title"] == "1836Jr30" and data["finished"] is True
