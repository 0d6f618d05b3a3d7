"""Random-legal-play bots: whole games of random (weighted) legal actions.

The bot groups the legal actions by kind (``lay_tile``, ``pass``, a dividend kind, a sale
by a player, an issue by a corporation ...), picks a kind with :data:`WEIGHTS` and then an
action of that kind uniformly, and a price uniformly where a range is allowed.  The
weights favour building, buying trains and paying out over passing, withholding and selling,
so that games reach their end.  Every choice comes from one seeded generator: a
(title, players, seed) triple always plays the same game.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.game import invariants
from engine.game.base import BaseGame
from engine.games import new_game

__all__ = ["WEIGHTS", "BotResult", "choose", "play_on", "play_random"]

#: Relative weight of each kind of action (unknown kinds weigh 1).
WEIGHTS: dict[str, float] = {
    "bid": 1.0,
    "par": 3.0,
    "buy_shares": 3.0,
    "sell_shares": 0.3,
    "issue": 0.3,
    "redeem": 0.3,
    "pass": 1.0,
    "lay_tile": 4.0,
    "place_token": 2.0,
    "run_routes": 1.0,
    "dividend:payout": 5.0,
    "dividend:half": 2.0,
    "dividend:withhold": 1.0,
    "buy_train": 4.0,
    "discard_train": 1.0,
    "buy_company": 0.5,
    "assign": 1.0,
    "bankrupt": 0.05,
}


def _kind(action: dict) -> str:
    kind = action["type"]
    if kind == "dividend":
        return f"dividend:{action.get('kind')}"
    if kind == "sell_shares" and action.get("entity") == action.get("corporation"):
        return "issue"
    if kind == "buy_shares" and action.get("entity") == action.get("corporation"):
        return "redeem"
    return kind


def choose(legal: list[dict], rng: random.Random) -> dict:
    """One weighted random action of ``legal`` (a price drawn within its range)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    groups: dict[str, list[dict]] = {}
    for action in legal:
        groups.setdefault(_kind(action), []).append(action)
    kinds = sorted(groups)
    kind = rng.choices(kinds, [WEIGHTS.get(k, 1.0) for k in kinds])[0]
    action = dict(rng.choice(groups[kind]))
    if "min_price" in action:
        action["price"] = rng.randint(action.pop("min_price"), action.pop("max_price"))
    return action


@dataclass
class BotResult:
    """A finished bot game."""

    game: BaseGame
    actions: int
    seconds: float

    @property
    def end_reason(self) -> str | None:
        return self.game.end_reason

    @property
    def result(self) -> dict[str, int]:
        return self.game.result()


def play_on(
    game: BaseGame,
    rng: random.Random,
    max_actions: int = 20_000,
    check: bool = True,
    on_action=None,
) -> int:
    """Let bots play ``game`` on, with random legal actions, until it ends or
    ``max_actions`` more actions were played; return how many were played.

    Raises
    ------
    engine.game.InvariantError
        (``check``) A broken invariant, naming it.
    """
    count = 0
    while not game.finished and count < max_actions:
        action = choose(game.legal_actions(), rng)
        game.apply(action)
        count += 1
        if check:
            invariants(game)
        if on_action is not None:
            on_action(game, action)
    return count


def play_random(
    title: str,
    players: int | list[str],
    seed: int = 0,
    max_actions: int = 20_000,
    check: bool = True,
    on_action=None,
    stop_at_limit: bool = False,
) -> BotResult:
    """Play one whole game with random legal actions.

    Parameters
    ----------
    title : str
    players : int or list of str
        A number of players (named ``P1`` ...) or their ids.
    seed : int
        Seeds the game (setup draws) and the bot's choices.
    max_actions : int
        Stop after this many actions: give up with ``RuntimeError`` if the game has not
        ended by then, or (``stop_at_limit``) return the game where it stands.
    check : bool
        Check :func:`engine.game.invariants` after every action.
    on_action : callable, optional
        ``on_action(game, action)`` after each applied action.
    stop_at_limit : bool
        Return an unfinished game at ``max_actions`` instead of raising.

    Returns
    -------
    BotResult

    Raises
    ------
    RuntimeError
        The game did not end within ``max_actions`` (unless ``stop_at_limit``).
    engine.game.InvariantError
        A broken invariant (the message names it and the action count).
    """
    if isinstance(players, int):
        players = [f"P{i + 1}" for i in range(players)]
    rng = random.Random(seed)
    t0 = time.perf_counter()
    game = new_game(title, players, seed)
    if check:
        invariants(game)
    count = play_on(game, rng, max_actions, check, on_action)
    if not game.finished and not stop_at_limit:
        raise RuntimeError(
            f"{title} seed {seed}: no end after {max_actions} actions "
            f"(turn {game.turn}, {game.round.kind} round)"
        )
    return BotResult(game, count, time.perf_counter() - t0)
