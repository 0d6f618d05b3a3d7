"""What every title's random bot games must satisfy, shared by the ``tests/test_bots*.py``.

:func:`engine.game.bots.play_random` already checks :func:`engine.game.invariants` after every
action; :func:`play_to_end` adds that the game ended, by one of the title's game-end
reasons, with a final value for every seat.  :func:`seed_chunks` cuts a run of seeds into
tests of their own, so that pytest-xdist spreads the games over every core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.game.base import BaseGame
from engine.game.bots import play_random


def play_to_end(
    title: str,
    players: int,
    seed: int,
    reasons: Iterable[str],
    on_action: Callable | None = None,
) -> BaseGame:
    """Play one seeded random game to its end and check how it ended."""
    outcome = play_random(title, players, seed=seed, max_actions=20_000, on_action=on_action)
    game = outcome.game
    assert game.finished, f"{title} seed {seed}: not finished"
    assert game.end_reason in set(reasons), f"{title} seed {seed}: {game.end_reason}"
    assert set(game.result()) == set(game.seats), f"{title} seed {seed}: seats without a value"
    return game


def seed_chunks(total: int, size: int, first: int = 0) -> list[range]:
    """``total`` seeds from ``first`` in runs of ``size`` (one test each)."""
    return [range(start, min(start + size, first + total))
            for start in range(first, first + total, size)]  # fmt: skip
