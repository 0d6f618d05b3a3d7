"""``eighteen play``: a whole game in the terminal, bots choosing random legal actions.

Registered on the ``eighteen`` group in :mod:`engine.app.cli`; the work is :mod:`engine.game`.
Prints every operating round's optimal revenues (per company: revenue, trains) and the
final scores; ``--save`` writes the game's save (title, players, seed, action log), which
``eighteen play --load`` replays.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from engine.app.cli_common import read_input
from engine.app.files import write_text_atomic

__all__ = ["play"]


def _print_rounds(game, echo) -> None:
    rounds: dict[tuple[int, int], list[dict]] = {}
    for e in game.events:
        if e["type"] == "run":
            rounds.setdefault((e["turn"], e["or"]), []).append(e)
    for (turn, num), runs in sorted(rounds.items()):
        parts = [f"{r['entity']} {r['revenue']} ({'+'.join(r['trains'])})" for r in runs]
        echo(f"OR {turn}.{num}: " + ", ".join(parts))


@click.command("play")
@click.argument("title", required=False)
@click.option("--players", type=click.IntRange(min=1), default=4, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--bots", is_flag=True, help="Every seat is a random-legal-play bot.")
@click.option("--max-actions", type=click.IntRange(min=1), default=20_000, show_default=True)
@click.option("--check/--no-check", default=True, help="Check invariants after every action.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Write the save.")
@click.option("--load", "load_path", metavar="SAVE",
              help="Replay a save ('-': standard input).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def play(title, players, seed, bots, max_actions, check, save_path, load_path, as_json):
    """Play TITLE from setup to final scores (``--bots``), or replay a save (``--load``;
    with ``--bots`` the bots play the loaded game on)."""
    import random

    from engine.games import load_game, resolve_title
    from engine.games.bots import play_on, play_random

    if load_path:
        game = load_game(read_input(load_path))
        if title:
            try:
                asked = resolve_title(title)[0]
            except KeyError as exc:
                raise click.BadParameter(str(exc.args[0]), param_hint="TITLE") from None
            if asked != resolve_title(game.TITLE)[0]:
                raise click.ClickException(
                    f"{load_path}: the save is a game of {game.TITLE}, not {asked}"
                )
        if bots:
            play_on(game, random.Random(seed), max_actions, check)
        actions = len(game.actions)
    else:
        if not title:
            raise click.UsageError("give a TITLE (e.g. 1846) or --load SAVE")
        if not bots:
            raise click.UsageError(
                "interactive play is not supported yet; use --bots for random-legal-play bots"
            )
        outcome = play_random(title, players, seed, max_actions=max_actions, check=check,
                              stop_at_limit=True)  # fmt: skip
        game, actions = outcome.game, outcome.actions
    result = game.result()
    if as_json:
        click.echo(json.dumps({
            "title": game.TITLE, "players": game.seats, "seed": game.seed, "actions": actions,
            "finished": game.finished, "end_reason": game.end_reason, "result": result,
            "revenues": [e for e in game.events if e["type"] == "run"],
        }, indent=1))  # fmt: skip
    else:
        _print_rounds(game, click.echo)
        state = "ended" if game.finished else "stopped"
        click.echo(
            f"game {state} ({game.end_reason or 'in progress'}) after {actions} actions, "
            f"turn {game.turn}, phase {game.state.phase_name}"
        )
        for rank, (player, value) in enumerate(result.items(), 1):
            click.echo(f"{rank}. {player}: {value}")
    if save_path:
        write_text_atomic(Path(save_path), game.save())
