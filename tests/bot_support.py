"""What every title's random bot games must satisfy, shared by the ``tests/test_bots*.py``.

:func:`engine.games.bots.play_random` already checks :func:`engine.game.invariants` after every
action; :func:`play_to_end` adds that the game ended, by one of the title's game-end
reasons, with a final value for every seat.  :func:`seed_chunks` cuts a run of seeds into
tests of their own, so that pytest-xdist spreads the games over every core;
:func:`assert_replays_from_log` checks that a game is a function of its seed and its save;
:func:`to_stage` plays a hand-built game passively to a stage of an operating turn;
:func:`brute_force_lays` lists the tile lays of a track stage afresh, for checking the
engine's cached listing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from engine.game.base import BaseGame
from engine.game.track import lay_problem, reach
from engine.games import load_game
from engine.games.bots import play_random
from engine.model.tiles import COLOR_ORDER


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


def assert_replays_from_log(title: str, players: int, seed: int) -> None:
    """A bot game is a function of its seed, and its JSON save replays to the same end."""
    a = play_random(title, players, seed=seed)
    b = play_random(title, players, seed=seed)
    assert a.game.to_dict() == b.game.to_dict()
    again = load_game(json.loads(a.game.save()))
    assert again.finished and again.end_reason == a.game.end_reason
    assert again.result() == a.game.result()


def to_stage(game: BaseGame, op: str, stage: str, limit: int) -> None:
    """Play passively (pass, else run the routes, else the first choice) until ``op``
    reaches ``stage`` of its operating turn, within ``limit`` actions."""
    for _ in range(limit):
        t = game.or_turn
        if game.round.kind == "operating" and t is not None and t.op == op and t.stage == stage:
            return
        legal = game.legal_actions()
        choice = next((a for a in legal if a["type"] == "pass"), None)
        choice = choice or next((a for a in legal if a["type"] == "run_routes"), legal[0])
        game.apply(choice)
    raise AssertionError(f"{op} never reached {stage}")


def brute_force_lays(game: BaseGame) -> set[tuple[str, str, int]]:
    """(hex, tile, rotation) of every hex x manifest tile x rotation that passes each of the
    engine's per-lay checks for the operating company: the tile rules
    (``GameState.tile_problems``: the colour ladder, old track kept, supply, ...), the
    title's own (``explain_lay``: turn limits, blocked and reserved hexes) and the
    connection and track rule (``track.lay_problem``) on a walk made afresh, not the game's
    cached or extended one.  Costs are not checked."""
    state, op = game.state, game.or_turn.op
    board = state.board
    net = reach(board, game.reach_tokens(op), op)
    restrictive = game.TRACK_RESTRICTION == "semi_restrictive"
    colours = set(state.phase.get("tiles", ()))
    found = set()
    for hex_ in board.cells:
        cur = board.color(hex_)
        if cur not in COLOR_ORDER or cur == COLOR_ORDER[-1]:
            continue
        want = COLOR_ORDER[COLOR_ORDER.index(cur) + 1]  # tile_problems: one colour up
        if want not in colours:
            continue
        for name, (tile, _count) in board.manifest.items():
            if tile.color != want:
                continue
            for r in range(6):
                if state.tile_problems(hex_, tile, r):
                    continue
                if game.explain_lay(op, op, hex_, name, r):
                    continue
                if lay_problem(state, op, net, hex_, name, r, restrictive):
                    continue
                found.add((hex_, name, r))
    return found
