"""``eighteen batch``: many positions and records into one CSV or Parquet table.

Registered on the ``eighteen`` group in :mod:`engine.app.cli`; the work is :mod:`engine.app.batch`.

Exit status: 0 when every item was analysed; 3 when the batch finished but some items failed
(the table is written, their rows carry an ``error``, and the failures are listed on stderr);
1 when the batch could not run at all (bad option or output path, a journal written with
other settings or in use, an unreachable scheduler); 130 when interrupted (rerun the same
command to resume).
"""

from __future__ import annotations

import click

from engine.app.cli_common import time_limit_options, workers_option_value

__all__ = ["batch", "EXIT_ITEMS_FAILED"]

#: Exit status of a batch that finished with some failed items.
EXIT_ITEMS_FAILED = 3


@click.command("batch")
@click.argument("inputs", nargs=-1, required=True, metavar="DIR_OR_GLOB...")
@click.option(
    "-o",
    "--out",
    required=True,
    type=click.Path(dir_okay=False),
    help="Output table: .csv or .parquet (journal: OUT.journal beside it).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Dask scheduler address of a running cluster, or 'synchronous' to run in this "
    "process; default: a new local cluster.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes of the local cluster (default and most: one per core).",
)
@time_limit_options(default=None)
@click.option("--lenient", is_flag=True, help="Records: apply actions the rules forbid.")
@click.option("--retry-failed", is_flag=True, help="Redo items the journal holds as failed.")
def batch(inputs, out, scheduler, workers, time_limit, lenient, retry_failed) -> None:
    """Analyse every position and record in DIR_OR_GLOB... into one table.

    Positions give their company's optimal revenue; records give one row per operating
    turn (declared, our score, optimum, gap).  Finished items are journalled, so a rerun
    after an interruption resumes.  Exit 0: all done; 3: some items failed (listed);
    1: the batch could not run.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from engine.app.batch import BatchError, Settings, journal_path, run_batch

    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers sets up a local cluster; it cannot go with --scheduler")
    if workers is not None:
        workers = workers_option_value(workers)
    err = Console(stderr=True, soft_wrap=True)
    progress = Progress(
        TextColumn("batch"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    task = progress.add_task("items", total=None)
    try:
        with progress:
            result = run_batch(
                inputs,
                out,
                Settings(time_limit=time_limit, lenient=lenient),
                scheduler=scheduler,
                workers=workers,
                retry_failed=retry_failed,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
    except BatchError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(
            f"interrupted; finished items are in {journal_path(out)}: rerun the same command "
            "to resume",
            err=True,
        )
        click.get_current_context().exit(130)
    parts = [f"{result.ran} analysed", f"{result.skipped} from the journal"]
    if result.unread:
        parts.append(f"{result.unread} naming no readable input")
    click.echo(
        f"wrote {result.out}: {len(result.rows)} rows from {result.items} items "
        f"({', '.join(parts)}), {len(result.failures)} failed, in {result.seconds:.1f} s"
    )
    if result.failures:
        click.echo(f"{len(result.failures)} failed:", err=True)
        for failure in result.failures:
            click.echo(f"  {failure['error']}", err=True)
        click.get_current_context().exit(EXIT_ITEMS_FAILED)
