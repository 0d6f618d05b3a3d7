"""The invariant checker must catch each kind of broken state it claims to check.

A random 1846 game is played into its operating rounds (so there are shares, trains, tiles
and tokens), then one thing at a time is broken behind the engine's back, and
:func:`engine.game.invariants` must name it.
"""

from __future__ import annotations

import random

import pytest

from engine.game import invariants
from engine.game.invariants import InvariantError
from engine.games import new_game
from engine.games.bots import choose


@pytest.fixture()
def game():
    """A 4-player 1846 game after some operating: tiles laid and tokens placed."""
    g, rng = new_game("1846", ["P1", "P2", "P3", "P4"], 3), random.Random(3)
    while len(g.state.board.laid) < 3 or not g.state.tokens:
        g.apply(choose(g.legal_actions(), rng))
    invariants(g)  # a reachable state passes
    return g


def test_money_created_outside_the_ledger(game):
    game.ledger.balances["P1"] += 10  # 10 more in the game than it started with
    with pytest.raises(InvariantError, match="money not conserved"):
        invariants(game)


def test_certificates_not_summing_to_100(game):
    corp, certs = next((c, cs) for c, cs in game.shares.by_corp.items() if cs)
    certs[-1].percent += 10  # 110% of corp
    with pytest.raises(InvariantError, match=f"{corp}'s certificates sum to 110%"):
        invariants(game)


def test_train_card_lost(game):
    ident = next(iter(game.state.trains))
    del game.state.trains[ident]  # one card fewer than the manifest prints
    with pytest.raises(InvariantError, match="differ from the manifest"):
        invariants(game)


def test_more_tiles_than_the_manifest(game):
    # every copy of a plain-track tile on the map, and one more (cached checks must see the
    # new lays: they go through the state, which counts them as board changes)
    board = game.state.board
    name, have = min(((n, c) for n, (tile, c) in board.manifest.items()
                      if not tile.cities and not tile.towns and not tile.offboards),
                     key=lambda nc: nc[1])  # fmt: skip
    free = [h for h, cell in board.cells.items()
            if cell.color == "white" and h not in board.laid and not board.tile(h).cities
            and not board.tile(h).towns]  # fmt: skip
    on_map = sum(1 for p in board.laid.values() if p.tile.name == name)
    for k, hex_ in enumerate(free[: have - on_map + 1]):
        game.state.lay_tile(hex_, f"{name}-{100 + k}", 0, check=False)
    with pytest.raises(InvariantError, match=f"{have + 1} tiles {name} on the map"):
        invariants(game)


def test_token_beyond_the_slots(game):
    (hex_, city), syms = next(iter(game.state.tokens.items()))
    slots = game.state.board.tile(hex_).cities[city].slots
    others = [c for c in game.state.operators if c not in syms][: slots - len(syms) + 1]
    syms.extend(others)  # one token more than the city has slots
    with pytest.raises(InvariantError, match=f"{hex_} city {city} holds"):
        invariants(game)
