"""``eighteen history``: declared against optimal revenue over a recorded game, as HTML.

Registered on the :data:`engine.app.cli.cli` group, so bad input (missing file, bad JSON,
unsupported title, an unknown ``--at`` round) ends with the group's one-line error.
"""

from __future__ import annotations

from pathlib import Path

import click

from engine.app.cli_common import time_limit_options

__all__ = ["history"]


def _progress():
    """The replay command's progress bar: on standard error, only on a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn


    err = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


@click.command("history")
@click.argument("record")
@click.option(
    "-o", "--output", required=True, help="HTML file to write."
)
@time_limit_options(what="each run's solve")
@click.option(
    "--boards",
    type=click.IntRange(min=0),
    default=None,
    help="Draw N evenly spaced turns plus the largest gap (default 3; 0 with --at).",
)
@click.option(
    "--at",
    "at",
    multiple=True,
    metavar="OR-LABEL",
    help="Also draw the board of this round ('OR 2.1', or 2.1:NYC for one company); repeatable.",
)
@click.option("--no-plots", is_flag=True, help="Leave the matplotlib plots out.")
@click.option("--lenient", is_flag=True, help="Apply actions the rules forbid instead of stopping.")
def history(record, output, time_limit, boards, at, no_plots, lenient) -> None:
    """Per operating round, each company's declared and optimal revenue, as one HTML file."""
    from engine.app import history as hist
    from engine.app.cli_common import plain, read_input
    from engine.games import is_save, load_record

    out = Path(output)
    if not out.parent.is_dir():
        raise click.ClickException(f"{output}: folder {out.parent} does not exist")
    if boards is None:
        boards = 0 if at else 3
    if not no_plots:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise click.ClickException(
                "the plots need matplotlib (pip install matplotlib), or pass --no-plots"
            ) from None
    with _progress() as progress:
        task = progress.add_task(f"replaying {plain(Path(record).stem or 'input')}", total=1)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        loaded = load_record(read_input(record))
        if not is_save(loaded.raw):  # a save's rounds are known only from the replay
            hist.check_at(loaded, at)  # a typo in --at fails before the replay, not after
        h = hist.game_history(loaded, time_limit=time_limit, strict=not lenient, progress=tick)
        chosen = hist.pick_boards(h, boards, at)
        if chosen:
            progress.update(task, description="drawing boards", completed=0)
        drawn = hist.draw_boards(h, chosen, time_limit=time_limit, progress=tick)
    page = hist.history_html(h, drawn, plots=not no_plots, time_limit=time_limit)
    hist.write_history(out, page)
    s = h.report.summary
    click.echo(
        f"wrote {output}: {len(h.rounds)} operating rounds, {s['positions']} turns, optimum "
        f"beat the declaration in {s['optimum_beats_declared']}, "
        f"{s['revenue_left_on_table']} left on the table, {len(drawn)} boards"
    )
