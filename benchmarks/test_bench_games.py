"""(g) Whole games of the rules engine played by the random bot, and the invariant check.

* ``games: <title>``: :func:`engine.games.bots.play_random` from setup to game end, four
  players, fixed seeds.  Tool ``bot-game`` plays without checks (the engine alone: legal
  actions, the bot's choice, apply); ``bot-game+invariants`` (full run only) plays the same
  games with :func:`engine.game.invariants` after every action, as the tests do, and times
  those calls on their own (``extra_info["invariants_seconds"]``): their share of the very
  same games, which two medians taken minutes apart on a loaded machine cannot give.
  ``extra_info`` keeps each game's actions and seconds (games/s and actions/s).
* ``invariants: <title>``: one :func:`engine.game.invariants` call on the state halfway
  through the ``bot-game`` game (built untimed), beside the mean cost of one bot action over
  that first half (``extra_info["action_seconds"]``).

Checking answers: every timed game must end by a game-end reason of its title (as in the
bot tests), with a result for every seat and the invariants holding at the end; a game
played with and without checks must take the same actions (the checks change nothing).

Default: one short game per title (the seeds in :data:`SEEDS`, chosen for short games);
``EIGHTEEN_BENCH_FULL=1``: :data:`FULL_SEEDS` games per title, with and without checks.
"""

from __future__ import annotations

import time

import pytest

from benchmarks.common import FULL, extra
from engine.game import invariants
from engine.games import TITLES
from engine.games.bots import play_random

PLAYERS = 4
#: Plain run: one game per title, a seed whose game is short (0.5-1.2 s on the 2-core
#: machine when chosen).  The bot's game follows the order of the legal actions, so an
#: engine change may lengthen it; pick another short seed then.  A title not listed here
#: plays seed 0.
SEEDS = {"1846": 4, "1842": 5, "1836Jr30": 1, "1862": 2, "1812": 1, "1836Jr56": 3}
#: Full run: seeds 0..9 for every title (some 1812 games take half a minute).
FULL_SEEDS = tuple(range(10))


def _reasons(title: str) -> set[str]:
    """The title's game-end reasons, as its bot tests (``tests/test_bots*.py``) accept them."""
    import importlib

    module = {"1846": "test_bots"}.get(title, f"test_bots_g{title.lower()}")
    try:
        return set(importlib.import_module(f"tests.{module}").REASONS)
    except (ImportError, AttributeError):
        pytest.fail(f"{title}: no REASONS in tests/{module}.py to check its games against")


def _seeds(title: str) -> tuple[int, ...]:
    return FULL_SEEDS if FULL else (SEEDS.get(title, 0),)


#: (title, seed) -> actions of the unchecked game: the halfway point and the cross-check.
LENGTHS: dict[tuple[str, int], int] = {}


def _play_games(title: str, check: bool) -> tuple[list, list, object]:
    """A target for pedantic: each round plays the next seed (setup hands it over).

    With ``check`` the invariants run after every action, as ``play_random(check=True)``
    runs them, but timed on their own: their share of the same game is then measured in
    the same seconds, whatever the load of the machine does between two games."""
    played: list = []
    checking: list[float] = []

    def timed_check(game, _action) -> None:
        t0 = time.perf_counter()
        invariants(game)
        checking[-1] += time.perf_counter() - t0

    def play(seed: int) -> None:
        checking.append(0.0)
        hook = timed_check if check else None
        played.append((seed, play_random(title, PLAYERS, seed=seed, check=False, on_action=hook)))

    return played, checking, play


def _check_game(title: str, seed: int, outcome, reasons: set[str]) -> None:
    game = outcome.game
    where = f"{title} seed {seed}"
    assert game.finished, f"{where}: not finished"
    assert game.end_reason in reasons, f"{where}: {game.end_reason}"
    assert set(game.result()) == set(game.seats), where
    invariants(game)


@pytest.mark.parametrize("check", [False, True], ids=["bot-game", "bot-game+invariants"])
@pytest.mark.parametrize("title", list(TITLES))
def test_bot_game(benchmark, title, check):
    if check and not FULL:
        pytest.skip("full run only: a second game per title")
    benchmark.group = f"games: {title}"
    seeds = _seeds(title)
    reasons = _reasons(title)
    played, checking, play = _play_games(title, check)
    order = iter(seeds)
    benchmark.pedantic(play, setup=lambda: ((next(order),), {}), rounds=len(seeds),
                       iterations=1)  # fmt: skip
    assert [s for s, _ in played] == list(seeds)
    for seed, outcome in played:
        _check_game(title, seed, outcome, reasons)
        known = LENGTHS.setdefault((title, seed), outcome.actions)
        assert known == outcome.actions, f"{title} seed {seed}: checks changed the game"
    actions = [o.actions for _, o in played]
    seconds = [round(o.seconds, 4) for _, o in played]
    extra(benchmark, suite="games", tool="bot-game+invariants" if check else "bot-game",
          title=title, players=PLAYERS, seeds=list(seeds), actions=actions, seconds=seconds,
          games_per_s=len(played) / sum(seconds), actions_per_s=sum(actions) / sum(seconds),
          invariants_seconds=[round(c, 4) for c in checking] if check else None,
          agree=True)  # fmt: skip


class _Halfway(Exception):  # noqa: N818 - a signal, not an error
    pass


def _halfway(title: str, seed: int):
    """The game of ``(title, seed)`` stopped after half its actions, that number, and the
    mean seconds of one bot action (legal actions, choice, apply) over that half."""
    if (title, seed) not in LENGTHS:  # this test run alone: learn the game's length
        LENGTHS[(title, seed)] = play_random(title, PLAYERS, seed=seed, check=False).actions
    half = LENGTHS[(title, seed)] // 2
    seen: list = []

    def stop(game, _action) -> None:
        seen.append(game)
        if len(seen) >= half:
            raise _Halfway

    t0 = time.perf_counter()
    with pytest.raises(_Halfway):
        play_random(title, PLAYERS, seed=seed, check=False, on_action=stop)
    per_action = (time.perf_counter() - t0) / half
    return seen[-1], half, per_action


@pytest.mark.parametrize("title", list(TITLES))
def test_invariants(benchmark, title):
    benchmark.group = f"invariants: {title}"
    seed = _seeds(title)[0]
    game, half, per_action = _halfway(title, seed)
    assert not game.finished and len(game.actions) >= half
    invariants(game)  # the state is sound: the timed calls check, and pass
    benchmark.pedantic(invariants, args=(game,), rounds=200 if FULL else 1, iterations=1)
    extra(benchmark, suite="invariants", tool="invariants", title=title, seed=seed,
          after_actions=half, action_seconds=per_action, agree=True)  # fmt: skip
