"""Random-legal-play bots: whole 1812 games, every invariant checked after every action.

:func:`engine.games.bots.play_random` checks :func:`engine.game.invariants` after each action
(money conserved with the bank's IOUs, shares 100%, train cards as minted, tiles within the
manifest, tokens on legal slots); ``on_action`` adds :func:`engine.games.g1812.game.check_1812`
(§14.1 train counts, 3+1s as many as the 3s they replaced, minors with one owner and one
marker at most £150, loan limits, holdings above 60% only by exchange, public companies in
play within the limit).  Every game must end with a reason of the rules: the bank (§9) or
"all players lose" (§9, last paragraph).

Revenues are the exact optimum of every run; late-game 3D and 2+2GD trains on a random
network make a game cost 0.1-7 s of CPU (about 1.5 s on average), so the default run plays
100 games (2, 3 and 4 players in turn) as five tests of 20, which pytest-xdist spreads over
the cores; the slow mark plays 2,000.
"""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from engine.app.cli import cli
from engine.games import load_game
from engine.games.bots import play_random
from engine.games.g1812.game import check_1812
from tests.bot_support import assert_replays_from_log, seed_chunks

#: Game-end reasons of 1812 (§9) and the engine's safety net (never expected).
REASONS = {"bank", "all_lose"}
#: Least games of 20 that end by the bank (seeds 0-199, measured: 18-20 of every 20).
BANK_PER_20 = 17


def _check(game, action) -> None:
    check_1812(game)


def _play(seed: int):
    outcome = play_random("1812", 2 + seed % 3, seed=seed, max_actions=20_000, on_action=_check)
    game = outcome.game
    assert game.finished, f"seed {seed}: not finished"
    assert game.end_reason in REASONS, f"seed {seed}: {game.end_reason}"
    assert set(game.result()) == set(game.seats)
    return game


def _play_many(count: int, first: int = 0) -> Counter:
    return Counter(_play(seed).end_reason for seed in range(first, first + count))


@pytest.mark.parametrize("seeds", seed_chunks(100, 20), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_a_hundred_random_games_end_with_invariants(seeds):
    games = [_play(seed) for seed in seeds]
    reasons = Counter(game.end_reason for game in games)
    # most random tables end by the bank; "all players lose" ends a few early ones
    assert reasons["bank"] >= BANK_PER_20
    # real games: auctions, rounds, trains (a quick "all lose" ends after about 60 actions)
    assert all(len(game.actions) > 50 for game in games)


@pytest.mark.slow
@pytest.mark.parametrize("seeds", seed_chunks(2000, 100, first=10_000),
                         ids=lambda r: f"{r.start}-{r.stop - 1}")  # fmt: skip
def test_two_thousand_random_games_end_with_invariants(seeds):
    reasons = _play_many(len(seeds), first=seeds.start)
    assert reasons["bank"] >= 5 * BANK_PER_20


def test_bot_games_are_deterministic_and_replay_from_the_log():
    assert_replays_from_log("1812", 4, seed=14)  # a short game (about 400 actions, phase 3)


def test_cli_plays_a_whole_game_and_prints_or_revenues(tmp_path):
    save = tmp_path / "game.json"
    out = CliRunner().invoke(
        cli, ["play", "1812", "--players", "4", "--seed", "11", "--bots", "--save", str(save)]
    )
    assert out.exit_code == 0, out.output
    # minor 8 runs its 2-train for 70 in the second OR of turn 3 (its first run)
    assert "OR 3.2: 8 70 (2)" in out.output and "game ended (bank)" in out.output
    assert load_game(save).finished
