"""What the ``eighteen`` commands share: the bundled examples, one-line errors, and a
record stopped at an action."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import click

__all__ = [
    "examples_dir",
    "list_examples",
    "example_path",
    "one_line",
    "plain",
    "time_limit_options",
    "workers_option_value",
    "DEFAULT_TIME_LIMIT",
    "compile_kernels_first",
    "solve_one_question",
    "solve_options_now",
    "is_record_file",
    "read_input",
    "STDIN",
    "record_game",
    "operating_company",
    "record_problem",
]


def examples_dir() -> Path:
    """Where example positions live (``EIGHTEEN_EXAMPLES`` overrides, for tests)."""
    env = os.environ.get("EIGHTEEN_EXAMPLES")
    return Path(env) if env else Path(__file__).parent.parent / "examples"


def list_examples() -> list[str]:
    d = examples_dir()
    return sorted(p.stem for p in d.glob("*.json")) if d.is_dir() else []


def example_path(name: str) -> Path:
    path = examples_dir() / f"{name.removesuffix('.json')}.json"
    if not path.is_file():
        known = ", ".join(list_examples()) or "none"
        raise click.ClickException(f"unknown example {name!r}; available: {known}")
    return path


def one_line(exc: BaseException) -> str:
    msg = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return " ".join(msg.split()) or type(exc).__name__


#: The file argument that means standard input.
STDIN = "-"


def read_input(arg: str) -> str | dict:
    """A command's file argument: the path as given, or for ``-`` the JSON read from
    standard input (parsed, so that its errors name "standard input").

    Raises
    ------
    click.ClickException
        Standard input that is not acceptable JSON.
    """
    if arg != STDIN:
        return arg
    import sys

    from engine.model.jsonio import JSONInputError, parse_json

    try:
        return parse_json(sys.stdin.read(), "standard input")
    except JSONInputError as exc:
        raise click.ClickException(str(exc)) from None


def is_record_file(path: str | dict) -> bool:
    """Is ``path`` (or parsed input) a game record (it has an action log) rather than a
    position file?"""
    if isinstance(path, dict):
        return "actions" in path and "phase" not in path
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(1 << 16)
    except (OSError, UnicodeDecodeError):
        return False  # the position reader names the problem
    return '"actions"' in head and '"phase"' not in head[:2000]


def record_game(path: str | dict, action: int | None):
    """The replay of ``path`` stopped just before ``action`` (None: after the last)."""
    from engine.app.report import game_before

    return game_before(path, action)


def operating_company(game, company: str | None, where: str, need_operating: bool) -> str:
    """``company``, or the company operating now; refuse one that cannot be solved."""
    t = game.or_turn if game.round.kind == "operating" else None
    current = t.op if t is not None else None
    if company is None:
        if game.finished:
            raise click.ClickException(
                f"{where}: the game is over ({game.end_reason}); name a company with --company"
            )
        if current is None:
            raise click.ClickException(
                f"{where}: no company is operating there ({game.round.kind} round); "
                "name one with --company"
            )
        return current
    if company not in game.state.operators:
        known = ", ".join(sorted(game.state.operators))
        raise click.ClickException(f"{where}: unknown company {company!r} (companies: {known})")
    if need_operating and company != current:
        raise click.ClickException(
            f"{where}: {company} is not operating there (operating: {current or 'nobody'})"
        )
    return company


def record_problem(path: str | dict, action: int | None, company: str | None):
    """The problem, view and label of a company at an action of a record."""
    rep = record_game(path, action)
    where = f"{rep.name} at action {action}" if action is not None else f"{rep.name} (now)"
    sym = operating_company(rep.game, company, where, need_operating=False)
    problem, view = rep.game.route_problem(sym, full_board=True)
    return problem, view, f"{rep.name} {where.split(' ', 1)[1]}: {sym} phase {view.position.phase}"


def plain(value: object) -> str:
    """``value`` as text that the terminal library shows as it is: user-supplied names
    (players, companies, files) may contain ``[``, which would otherwise read as markup."""
    from rich.markup import escape

    return escape(str(value))


#: Seconds a solve may take in the interactive commands unless ``--no-time-limit``; a solve
#: stopped by it returns the best routes found and a proven bound (marked "not proven").
DEFAULT_TIME_LIMIT = 60.0


def time_limit_options(default: float | None = DEFAULT_TIME_LIMIT, what: str = "a solve"):
    """``--time-limit SECONDS`` (a number > 0; every command reads it the same way) and
    ``--no-time-limit``; the command receives ``time_limit`` (None: no limit)."""
    shown = f"{default:g} s" if default is not None else "none"

    def decorate(command):
        @functools.wraps(command)
        def run(*args, no_time_limit: bool = False, **kwargs):
            if no_time_limit:
                kwargs["time_limit"] = None
            return command(*args, **kwargs)

        run = click.option(
            "--no-time-limit", is_flag=True,
            help="Solve to the proven optimum however long it takes.",
        )(run)  # fmt: skip
        return click.option(
            "--time-limit", type=click.FloatRange(min=0, min_open=True), default=default,
            metavar="SECONDS",
            help=f"Seconds {what} may take (default: {shown}); past it the best routes found "
            "so far and a proven bound are given.",
        )(run)  # fmt: skip

    return decorate


def workers_option_value(workers: int | None, echo=None) -> int:
    """``--workers``: at most the machine's cores (more only queue up), with a note."""
    cores = os.cpu_count() or 1
    if workers is None:
        return cores
    if workers > cores:
        (echo or (lambda text: click.echo(text, err=True)))(
            f"note: --workers {workers} is more than this machine's {cores} cores; using {cores}"
        )
        return cores
    return workers


def compile_kernels_first() -> None:
    """Load the solver's compiled kernels before work that solves many problems, first
    compiling them, saying so on standard error, when this installation has not compiled
    them yet (the first run: about 30 s).  The work that follows is then timed without
    compilation.  With the kernels compiled ahead of time nothing is loaded: they run at
    once, and the solver loads the compiled ones only if the work turns out long enough for
    that to pay (:mod:`routing._jit`)."""
    from routing.kernels import ahead_built, load_kernels

    if ahead_built():
        return
    load_kernels(lambda: click.echo("compiling the solver's kernels (first run only, about "
                                    "30 s) ...", err=True))  # fmt: skip


def solve_one_question(problem, time_limit: float | None, method: str = "auto"):
    """:func:`routing.solve` of one question, with the options of :func:`solve_options_now`
    and its note (if any) on standard error."""
    import routing

    options, note = solve_options_now(method)
    if note:
        click.echo(f"note: {note}", err=True)
    return routing.solve(problem, time_limit=time_limit, **options)


def solve_options_now(method: str) -> tuple[dict, str | None]:
    """The :func:`routing.solve` options one question should be solved with now, and a note
    for the user.

    With the kernels compiled ahead of time, or the compiled kernels cached, ``method`` as
    given (``auto`` then answers with the ahead-of-time kernels, or else with the
    interpreted ones unless loading the compiled ones pays, :mod:`routing._jit`).  Before
    they are compiled, ``auto`` would make a single answer wait half a minute: the kernels
    are compiled in a background process instead
    (:func:`routing.kernels.compile_in_background`) and this answer comes from the same
    search run interpreted, which hands a problem it cannot finish within its budget over
    to the CP-SAT model as it always does; both are exact and need no compilation.
    """
    from routing.kernels import ahead_built, compile_in_background, kernels_cached

    if method != "auto" or ahead_built() or kernels_cached():
        return {"method": method}, None
    compile_in_background()
    return {"method": "auto", "kernels": "interpreted"}, (
        "the solver's kernels are compiling in the background (first run only, about 30 s "
        "of CPU); until then the search runs interpreted (exact too, slower on big boards)"
    )
