"""The game's random draws, as 18xx.games makes them, so a record's seed gives its draws.

18xx.games seeds a linear congruential generator with the game's seed (tobymao/18xx
@111f7f69 ``lib/engine/game/base.rb`` ``rand``: ``(1103515245 * x + 12345) % 2**31``).
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["lcg_draws", "RAND_A", "RAND_C", "RAND_M"]

#: The generator's multiplier, increment and modulus (``base.rb``).
RAND_A, RAND_C, RAND_M = 1_103_515_245, 12_345, 2**31


def lcg_draws(seed: int) -> Iterator[int]:
    """The numbers 18xx.games draws after seeding with ``seed``, in order."""
    value = seed % RAND_M
    while True:
        value = (RAND_A * value + RAND_C) % RAND_M
        yield value
