"""The rules engine: a whole game from setup to final scores, driven by plain-data actions.

.. code-block:: python

    from engine.games import new_game
    game = new_game("1846", ["A", "B", "C", "D"], seed=7)
    while not game.finished:
        game.apply(game.legal_actions()[0])
    print(game.result())

A game is a deterministic function of ``(title, players, seed, options, actions)``:
:meth:`BaseGame.to_dict` is the save and :func:`engine.games.load_game` replays it.  A title
subclasses :class:`BaseGame` (in ``engine.games.<title>``); the title registry
(:mod:`engine.games`) finds the classes.  See docs/GAME_ENGINE.md for the design and the
hooks a title implements.
"""

from __future__ import annotations

from engine.game.base import BaseGame, Round, action_key
from engine.game.errors import IllegalAction
from engine.game.invariants import InvariantError, invariants
from engine.game.shares import POOL, ShareRegistry

__all__ = [
    "BaseGame",
    "Round",
    "IllegalAction",
    "InvariantError",
    "invariants",
    "action_key",
    "POOL",
    "ShareRegistry",
]
