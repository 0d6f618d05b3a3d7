"""``eighteen bench``: run solvers over a tier of the benchmark library and check them.

Registered on the ``eighteen`` group in :mod:`engine.app.cli`; the work is
:mod:`engine.app.bench` (the harness) and :mod:`engine.app.bench_library` (the library).

Exit status: 0 when no answer was wrong or failed (skipped instances do not count); 1 when
one was (each named on standard error with the command that reruns it), a solver could not
be started, or ``--id`` / ``--match`` select nothing; 2 for bad arguments (an unknown tier,
a sample below 1, an empty ``--match``).
"""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["bench"]


def _non_empty(_ctx, param, values: tuple[str, ...]) -> tuple[str, ...]:
    """``values`` of a repeatable text option, none of them empty."""
    if any(not v.strip() for v in values):
        raise click.BadParameter("an empty text matches every instance; leave it out",
                                 param=param)  # fmt: skip
    return values


def _output(flag: str, dest: str, default: str, text: str):
    """An option naming a file the command writes."""
    return click.option(flag, dest, type=click.Path(dir_okay=False), default=default,
                        show_default=True, help=text)  # fmt: skip


@click.command("bench")
@click.option(
    "--tier",
    type=click.Choice(["real", "hard", "tiny"]),
    default="real",
    show_default=True,
    help="Library tier to run.",
)
@click.option(
    "--solver",
    "solvers",
    multiple=True,
    required=True,
    metavar="SPEC",
    help="auto, numba, cpsat, oracle, module:function, or a command reading an "
    "instance on stdin and printing a solution; repeatable.",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Run N instances drawn from the tier (seeded; default: all).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --sample.")
@click.option(
    "--id", "ids", multiple=True, metavar="ID", help="Run only this instance; repeatable."
)
@click.option(
    "--match",
    "matches",
    multiple=True,
    metavar="TEXT",
    callback=_non_empty,
    help="Run only instances whose provenance contains TEXT (e.g. 'record 1846/'); "
    "repeatable: any of them.",
)
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    default=30.0,
    show_default=True,
    help="Seconds per instance (a command is killed then).",
)
@_output("--csv", "csv_path", "bench.csv", "Per-instance results.")
@_output("--plot", "plot_path", "bench.png", "Cactus plot (.png or .svg); '' for none.")
@click.option("--dump", is_flag=True, help="Print the instance document of --id and exit.")
def bench(tier, solvers, sample, seed, ids, matches, time_limit, csv_path, plot_path,
          dump) -> None:  # fmt: skip
    """Run each SPEC over a library tier; report solved, proven, wrong, skipped and times.

    Every answer is checked with routing.validate and against the instance's certified
    optimum.  A wrong answer is named with the command that reruns it.  A command solver
    gets EIGHTEEN_TIME_LIMIT, EIGHTEEN_INSTANCE_ID and EIGHTEEN_PROVENANCE in its
    environment and exits with status 3 for an instance it does not take (skipped).
    """
    from rich.console import Console
    from rich.table import Table

    from engine.app import bench as bh
    from engine.app.bench_library import LibraryError, load_tier
    from routing.instance import canonical_json

    try:
        entries = bh.pick(load_tier(tier), sample, ids, seed, matches)
        if dump:
            if len(ids) != 1:
                raise click.UsageError("--dump needs exactly one --id")
            click.echo(canonical_json(entries[0].instance))
            return
        runners = [bh.solver_from_spec(spec) for spec in solvers]
    except (LibraryError, bh.SolverError) as exc:
        raise click.ClickException(str(exc)) from None
    err = Console(stderr=True)

    def note(o: bh.Outcome) -> None:
        if o.status in ("wrong", "failed"):
            err.print(f"[red]{o.status}[/red] {o.id} ({o.solver}): {o.message}", highlight=False,
                      soft_wrap=True)  # fmt: skip

    try:
        outcomes = bh.run_bench(runners, entries, time_limit, on_outcome=note)
    except bh.SolverError as exc:
        raise click.ClickException(str(exc)) from None
    table = Table(title=f"tier {tier}: {len(entries)} instances, {time_limit:g} s limit")
    columns = ("solver", "solved", "proven", "unsolved", "wrong", "failed", "skipped", "median s",
               "max s")  # fmt: skip
    for col in columns:
        table.add_column(col, justify="left" if col == "solver" else "right", overflow="fold")
    for s in bh.summarise(outcomes):
        c = s.counts
        counts = [c["solved"], s.proven, c["unsolved"], c["wrong"], c["failed"], c["skipped"]]
        table.add_row(s.solver, *map(str, counts), f"{s.median:.3f}", f"{s.max:.3f}")
    Console().print(table)
    bh.write_csv(outcomes, Path(csv_path))
    if plot_path:
        bh.draw_plot(outcomes, Path(plot_path))
    if any(o.status in ("wrong", "failed") for o in outcomes):
        raise click.exceptions.Exit(1)
