"""``eighteen analyse``: rank a company's legal moves by the revenue they gain."""

from __future__ import annotations

import json

import click

from engine.app.cli_common import time_limit_options

__all__ = ["analyse"]


@click.command()
@click.argument("position", required=False)
@click.option("--example", metavar="NAME", help="Analyse a bundled example position.")
@click.option(
    "--company", metavar="SYM",
    help="Company to analyse (default: the position's; another company of a position file "
    "as if its turn began now).",
)  # fmt: skip
@click.option(
    "--action", "action", type=int, default=None, metavar="N",
    help="With a record: the position just before action N (default: after the last).",
)
@click.option(
    "--kinds",
    default="tile,token,train",
    show_default=True,
    help="Comma-separated move kinds to rank: tile, token, train.",
)
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="Moves shown per kind (the JSON form lists all).")  # fmt: skip
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default and most: the machine's cores).")  # fmt: skip
@time_limit_options(what="each move's solve")
@click.option("--json", "as_json", is_flag=True, help="Print the whole analysis as JSON.")
def analyse(position, example, company, action, kinds, top, workers, time_limit,
            as_json) -> None:  # fmt: skip
    """Rank every legal tile lay, token and train purchase of a company by revenue gain.

    POSITION is a position file, or a game record (an 18xx.games export or a play --save
    file) at one of its actions: then only the moves the operating company can still make
    and pay for this turn are ranked."""
    from engine.app.analysis import MOVE_KINDS, analyse_game, position_game
    from engine.app.cli_common import (
        compile_kernels_first,
        example_path,
        is_record_file,
        operating_company,
        plain,
        read_input,
        record_game,
        workers_option_value,
    )

    if example and position:
        raise click.UsageError("give a POSITION file or --example, not both")
    if not example and not position:
        raise click.UsageError("give a POSITION file or --example NAME")
    source = read_input(position) if position and not example else None
    path = example_path(example) if example else source
    game = None
    if not example and is_record_file(path if isinstance(path, dict) else str(path)):
        rep = record_game(path, action)
        where = f"{rep.name} at action {action}" if action is not None else f"{rep.name} (now)"
        company = operating_company(rep.game, company, where, need_operating=True)
        game = rep.game
    elif action is not None:
        raise click.UsageError("--action goes with a game record, not a position")
    workers = workers_option_value(workers)
    wanted = tuple(k.strip() for k in kinds.split(",") if k.strip())
    bad = [k for k in wanted if k not in MOVE_KINDS]
    if bad or not wanted:
        raise click.BadParameter(
            f"unknown move kind {bad[0]!r}" if bad else "no move kind given",
            param_hint="--kinds",
        )
    if game is None:
        # the position is read and checked before the kernels are: a bad file is refused
        # at once, not after a first run's compilation
        game = position_game(path if isinstance(path, dict) else str(path), company)
        company = None
    compile_kernels_first()
    if as_json:
        # no progress bar and no tables: the JSON form does without rich (tens of
        # milliseconds of imports in a command that takes a few hundred)
        result = analyse_game(game, company=company, kinds=wanted, workers=workers,
                              time_limit=time_limit)  # fmt: skip
        click.echo(json.dumps(result.to_dict(), indent=2))
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    err = Console(stderr=True)
    # refreshed by each update, not by rich's refresh thread: the analysis forks its
    # workers only while no other thread runs (engine.app.forked)
    progress = Progress(
        TextColumn("solving moves"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        auto_refresh=False,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("moves", total=None)
        result = analyse_game(
            game,
            company=company,
            kinds=wanted,
            workers=workers,
            time_limit=time_limit,
            progress=lambda done, total: progress.update(
                task, completed=done, total=total, refresh=True
            ),
        )
    console = Console(soft_wrap=True)
    console.print(
        f"{plain(result.title)} phase {plain(result.phase)}: {plain(result.company)} earns "
        f"[bold]{result.revenue}"
        f"[/bold] now ({'optimal' if result.optimal else 'not proven optimal'})"
    )
    companies = Table(title="optimal revenue of every company on the board")
    for col in ("company", "trains", "revenue"):
        companies.add_column(col, justify="right" if col == "revenue" else "left")
    for c in result.companies:
        revenue = "?" if c.revenue is None else str(c.revenue) + ("" if c.optimal else " *")
        companies.add_row(plain(c.company), plain(" ".join(c.trains) or "-"), revenue)
    console.print(companies)
    for kind in wanted:
        moves = result.moves.get(kind, [])
        if not moves:
            why = result.no_moves.get(kind, "none is legal")
            console.print(f"no {kind} moves of {result.company}: {why}", markup=False)
            continue
        table = Table(title=plain(f"{kind} moves of {result.company}: {len(moves)} legal, "
                                  "best first"))  # fmt: skip
        for col in ("move", "cost", "revenue", "gain"):
            table.add_column(col, justify="left" if col == "move" else "right")
        for m in moves[:top]:
            cost = "agreed" if m.cost is None else str(m.cost)
            revenue = str(m.revenue) + ("" if m.optimal else " *")
            table.add_row(plain(m.label), cost, revenue, f"{m.gain:+d}")
        console.print(table)
    for note in result.notes:
        console.print(f"note: {note}", markup=False)
    console.print(f"{sum(len(v) for v in result.moves.values())} moves solved in "
                  f"{result.seconds:.2f} s on {result.workers} worker(s)")  # fmt: skip
