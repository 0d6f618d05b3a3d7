"""Random-legal-play bots on 1842: whole games, invariants checked after every action.

Two kinds of bot play, both drawing from the legal actions only:

- the standard bot (:func:`engine.games.bots.play_random`), which among other things trades
  trains between companies at random prices, so that its games mostly end in the green or
  brown phase when the bank breaks or a token reaches the top-right field;
- a restricted bot that never buys a train from another company (a legal subset of play),
  whose companies must buy from the bank: its games reach the brown and grey phases, the
  predecessors' forced transformation, the privates' forced auctions and the grey Hamburg
  tiles.

After every action :func:`engine.game.invariants` (money conserved, shares 100%, train
and tile counts, tokens on legal slots) and :func:`engine.games.g1842.game.check_1842`
(the HAV's and the successors' certificates, building tokens, companies, loans, market)
must hold; every game must end by a rule of section 9 (or 18xx.games' turn-100 stop).

Timing (measured on the shared 2-core machine): about 1 s of CPU per game with the
checks; the default run plays 100 games as five tests of 20 (pytest-xdist spreads them over
the cores), the 2,000-game run is marked slow.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from click.testing import CliRunner

from engine.game import invariants
from engine.games import new_game
from engine.games.bots import choose, play_random
from engine.games.g1842.game import check_1842
from tests.bot_support import seed_chunks

#: Game-end reasons: section 9 (top-right field, bank) and 10.4 (all but one bankrupt).
REASONS = {"top_right", "bank", "bankrupt", "dnf"}
#: Options by seed: the base game, the simplified HAV, the additional corporations.
OPTIONS = ([], ["hav_simplified"], ["additional_corporations"], [])


def _restricted(legal: list[dict], rng: random.Random) -> dict:
    """A random legal action, never a train bought from another company."""
    own = [a for a in legal if not (a["type"] == "buy_train" and "min_price" in a)]
    return choose(own or legal, rng)


def _play(seed: int):
    players = [f"P{i + 1}" for i in range(3 + seed % 4)]
    options = OPTIONS[(seed // 4) % len(OPTIONS)]
    if seed % 2 == 0:
        outcome = play_random("1842", players, seed, on_action=lambda g, a: check_1842(g))
        return outcome.game, outcome.actions
    game, rng = new_game("1842", players, seed, options), random.Random(seed)
    invariants(game)
    count = 0
    while not game.finished:
        assert count < 20_000, f"seed {seed}: no end after 20,000 actions"
        game.apply(_restricted(game.legal_actions(), rng))
        count += 1
        invariants(game)
        check_1842(game)
    return game, count


def _play_many(count: int, first: int = 0) -> tuple[Counter, Counter]:
    reasons: Counter = Counter()
    phases: Counter = Counter()
    for seed in range(first, first + count):
        game, _actions = _play(seed)
        assert game.finished, f"seed {seed}: not finished"
        assert game.end_reason in REASONS, f"seed {seed}: {game.end_reason}"
        assert set(game.result()) == set(game.seats)
        reasons[game.end_reason] += 1
        phases[game.state.phase_name] += 1
    return reasons, phases


@pytest.mark.parametrize("seeds", seed_chunks(100, 20), ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_a_hundred_random_games_end_with_invariants(seeds):
    t0 = time.perf_counter()
    reasons, phases = _play_many(len(seeds), first=seeds.start)
    seconds = time.perf_counter() - t0
    print(f"{len(seeds)} games in {seconds:.1f} s: {dict(reasons)}, final phases {dict(phases)}")
    assert reasons["dnf"] == 0
    # most games get past the green phase (5-trains and later; seeds 0-199: 17-20 of 20)
    assert sum(n for ph, n in phases.items() if ph in ("5", "6", "8")) >= 15


def test_a_restricted_bot_game_reaches_the_grey_phase():
    # seed 29 (odd: the restricted bot, which buys trains from the bank only) plays into
    # phase 8, the grey tiles' phase, and ends with the broken bank
    game, _actions = _play(29)
    assert game.state.phase_name == "8" and game.end_reason == "bank"


@pytest.mark.slow
def test_two_thousand_random_games_end_with_invariants():
    reasons, _phases = _play_many(2000, first=10_000)
    assert reasons["dnf"] <= 20


def test_eighteen_play_prints_revenues_and_scores():
    from engine.app.cli import cli

    result = CliRunner().invoke(cli, ["play", "1842 Schleswig-Holstein", "--players", "3",
                                       "--seed", "2", "--bots"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "OR 1.1:" in result.output and "game ended (" in result.output
    assert result.output.strip().splitlines()[-1].startswith("3. ")
