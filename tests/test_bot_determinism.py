"""A bot game is a function of its title, players and seed, whatever the process did before.

The engine caches walks, tile options and route problems per process, and Python orders
sets of strings by a hash that changes from process to process.  If a legal list's order
leaked from either, the bot (which picks by position) would play another game.  Here each
title's game is played in this process (whose caches other tests have warmed) and in a
fresh one with another hash seed that first plays two other games, and the saves must be
the same.  (1836Jr-30 seed 27 differed before the walk extended after a lay started in a
fixed order and 1836Jr-30 sorted its lay list.)
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from engine.games.bots import play_random

#: (title, players, seed): short games, one per title.
GAMES = [("1846", 3, 4), ("1836Jr30", 2, 27), ("1836Jr56", 3, 2), ("1842", 3, 5),
         ("1862", 5, 33), ("1812", 4, 14)]  # fmt: skip

_SCRIPT = """
import hashlib, json, sys
from engine.games.bots import play_random
games = json.loads(sys.argv[1])
for title, players, seed in games:  # other games first: the caches hold their walks
    play_random(title, players, seed=seed + 1000)
for title, players, seed in games:
    save = json.dumps(play_random(title, players, seed=seed).game.to_dict(), sort_keys=True)
    print(hashlib.sha256(save.encode()).hexdigest())
"""


def _digest(title: str, players: int, seed: int) -> str:
    save = json.dumps(play_random(title, players, seed=seed).game.to_dict(), sort_keys=True)
    return hashlib.sha256(save.encode()).hexdigest()


def test_bot_games_do_not_depend_on_the_process():
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, json.dumps(GAMES)],
        capture_output=True, text=True, env=env, cwd=root, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    theirs = out.stdout.split()
    ours = [_digest(*game) for game in GAMES]
    differing = [game for game, a, b in zip(GAMES, ours, theirs, strict=True) if a != b]
    assert not differing, f"games that differ between processes: {differing}"
