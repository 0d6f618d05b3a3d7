"""Full rules engine: a whole game from setup to final scores, driven by plain-data actions.

.. code-block:: python

    from engine.game import new_game
    game = new_game("1846", ["A", "B", "C", "D"], seed=7)
    while not game.finished:
        game.apply(game.legal_actions()[0])
    print(game.result())

A game is a deterministic function of ``(title, players, seed, options, actions)``:
:meth:`BaseGame.to_dict` is the save and :func:`load_game` replays it.  See
docs/GAME_ENGINE.md for the design and the hooks a title implements.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from ..games import normalise_id
from ..replay_record import IllegalAction
from .base import BaseGame, Round, action_key
from .invariants import InvariantError, invariants
from .shares import POOL, ShareRegistry

__all__ = [
    "BaseGame",
    "Round",
    "IllegalAction",
    "InvariantError",
    "invariants",
    "action_key",
    "POOL",
    "ShareRegistry",
    "GAMES",
    "game_class",
    "new_game",
    "load_game",
]

#: Title id -> "module:class" of its rules engine.
GAMES: dict[str, str] = {"1846": "engine.games.g1846.game:Game1846"}
GAMES["1842"] = "engine.games.g1842.game:Game1842"
GAMES["1836Jr30"] = "engine.games.g1836jr30.game:Game1836Jr30"
GAMES["1862"] = "engine.games.g1862.game:Game1862"
GAMES["1812"] = "engine.games.g1812.game:Game1812"
GAMES["1836Jr56"] = "engine.games.g1836jr56.game:Game1836Jr56"


def game_class(title: str) -> type[BaseGame]:
    """The rules-engine class of ``title``.

    Raises
    ------
    ValueError
        The title has no full rules engine yet (the message lists those that do).
    """
    table = {normalise_id(k): v for k, v in GAMES.items()}
    target = table.get(normalise_id(str(title)))
    if target is None:
        raise ValueError(f"no rules engine for title {title!r} yet (available: {', '.join(GAMES)})")
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def new_game(title: str, players: list[str], seed: int = 0, options=(), actions=()) -> BaseGame:
    """Start a game of ``title`` (and replay ``actions`` if given)."""
    return game_class(title)(list(players), seed, list(options), list(actions))


def load_game(source: str | Path | dict) -> BaseGame:
    """Load a save (:meth:`BaseGame.to_dict`, or a path to its JSON) by replaying its log.

    Raises
    ------
    ValueError
        A file that cannot be read or is not a save (the message names the item); an
        :class:`IllegalAction` in the log names the action.
    """
    if isinstance(source, dict):
        data, where = source, "save"
    else:
        where = str(source)
        try:
            data = json.loads(Path(source).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"{where}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{where}: not a readable JSON save: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a save is a JSON object")
    for key in ("title", "players", "actions"):
        if key not in data:
            raise ValueError(f"{where}: not a game save (no {key!r})")
    if not isinstance(data["actions"], list):
        raise ValueError(f"{where}: 'actions' must be a list")
    cls = game_class(data["title"])
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"{where}: 'seed' must be an integer, got {seed!r}")
    if not isinstance(data["players"], list) or not isinstance(data.get("options", []), list):
        raise ValueError(f"{where}: 'players' and 'options' must be lists")
    game = cls(list(data["players"]), seed, list(data.get("options", [])))
    for i, action in enumerate(data["actions"]):
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise IllegalAction(f"{where}: action {i}: {exc}") from None
    return game
