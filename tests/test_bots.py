"""Random-legal-play bots: whole 1846 games, invariants checked after every action.

:func:`engine.games.bots.play_random` checks :func:`engine.game.invariants` after each
action (money conserved, shares 100%, trains and tiles as in the manifests, tokens on legal
slots); these tests check that every game ends with a game-end reason of the rules and that
no exception escapes.  The default run plays 200 games (3, 4 and 5 players in turn) as ten
tests of 20, which pytest-xdist spreads over the cores; the slow mark plays 2,000.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from engine.games.bots import choose
from tests.bot_support import assert_replays_from_log, play_to_end, seed_chunks

#: Game-end reasons of 1846 (game.rb GAME_END_CHECK) and 18xx.games' turn-100 stop.
REASONS = {"bank", "bankrupt", "all_closed", "dnf"}
#: Games of every 20 (seeds in order) that end by the broken bank, at least.
BANK_PER_20 = 15


def _play_many(seeds) -> Counter:
    return Counter(play_to_end("1846", 3 + seed % 3, seed, REASONS).end_reason for seed in seeds)


@pytest.mark.parametrize("seeds", seed_chunks(200, 20), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_two_hundred_random_games_end_with_invariants(seeds):
    t0 = time.perf_counter()
    reasons = _play_many(seeds)
    seconds = time.perf_counter() - t0
    print(f"{len(seeds)} games in {seconds:.1f} s: {dict(reasons)}")
    # most games end the ordinary way (the bank breaks); a random table sometimes closes
    # every corporation it floated, which 18xx.games ends at turn 100 (dnf)
    assert reasons["bank"] >= BANK_PER_20
    assert reasons["dnf"] <= 20 - BANK_PER_20


@pytest.mark.slow
def test_two_thousand_random_games_end_with_invariants():
    reasons = _play_many(range(10_000, 12_000))
    assert reasons["bank"] >= 1500


def test_bot_games_are_deterministic_and_replay_from_the_log():
    assert_replays_from_log("1846", 4, seed=3)


def test_choose_draws_prices_in_range_and_rejects_empty():
    import random

    rng = random.Random(0)
    legal = [{"type": "buy_company", "entity": "NYC", "company": "MAIL", "price": 80,
              "min_price": 1, "max_price": 80}]  # fmt: skip
    prices = {choose(legal, rng)["price"] for _ in range(200)}
    assert min(prices) >= 1 and max(prices) <= 80 and len(prices) > 20
    with pytest.raises(ValueError, match="no legal action"):
        choose([], rng)
