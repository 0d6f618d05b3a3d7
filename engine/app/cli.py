"""The ``eighteen`` command line: solve, validate and render positions, replay records.

Every user error (bad file, bad JSON, impossible position, unknown example, illegal route)
ends with a one-line message and exit status 1; set ``EIGHTEEN_DEBUG=1`` to see tracebacks of
unexpected failures.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import click

from engine.app.cli_common import (
    STDIN,
    example_path,
    examples_dir,
    is_record_file,
    list_examples,
    one_line,
    plain,
    read_input,
    record_problem,
    solve_one_question,
    time_limit_options,
)
from engine.app.files import write_text_atomic

__all__ = ["main", "cli", "examples_dir", "list_examples"]


class _Group(click.Group):
    """Turns expected errors into one-line messages instead of tracebacks."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except (ValueError, KeyError, OSError, TypeError) as exc:
            if os.environ.get("EIGHTEEN_DEBUG"):
                raise
            raise click.ClickException(one_line(exc)) from None
        except Exception as exc:  # noqa: BLE001 - the CLI must never show a traceback
            if os.environ.get("EIGHTEEN_DEBUG"):
                raise
            raise click.ClickException(
                f"internal error: {type(exc).__name__}: {one_line(exc)}"
            ) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="eighteen", prog_name="eighteen")
def cli() -> None:
    """Provably optimal route revenue for 18xx positions."""


def _load_problem(position: str | dict | None, example: str | None):
    from engine.games import build_problem

    if example and position:
        raise click.UsageError("give a POSITION file or --example, not both")
    if not example and not position:
        raise click.UsageError("give a POSITION file or --example NAME")
    if isinstance(position, dict):
        return build_problem(position)
    path = example_path(example) if example else Path(position)
    return build_problem(str(path))


def _hex_and_location(view, net, node: int) -> tuple[str, str | None]:
    """The hex of ``node`` and its location name (None where the map has none)."""
    coord = net.hex_names[int(net.node_hex[node])]
    return coord, view.location_name(coord) if coord in view.board else None


def _stop_label(view, net, node: int) -> str:
    """``D6.c1 Chicago``: node name plus the hex's location name."""
    name = _hex_and_location(view, net, node)[1]
    node_name = net.node_names[node]
    return f"{node_name} {name}" if name else node_name


def _route_stops(view, net, route) -> list[dict]:
    """The stops of ``route`` in order: node id and name (``D6.c1``), hex, the hex's
    location name where the title's map has one, printed value and whether it counted."""
    counted = set(route.counted)
    stops = []
    for n in route.nodes:
        if net.node_kind[n] == 0:
            continue  # a path node, not a stop
        coord, location = _hex_and_location(view, net, n)
        stops.append({
            "node": int(n),
            "name": net.node_names[n],
            "hex": coord,
            "location": location,
            "value": int(net.node_value[n]),
            "counted": n in counted,
        })  # fmt: skip
    return stops


def _solution_json(problem, view, solution) -> dict:
    """:meth:`routing.Solution.to_dict` (its keys unchanged) with what a reader needs
    without the network: each route's ``stops`` by name, the title, company, phase, label,
    the position's ``extras`` and the figures reported beside the revenue."""
    out = solution.to_dict()
    for route, data in zip(solution.routes, out["routes"], strict=True):
        data["stops"] = _route_stops(view, problem.network, route)
    position = view.position
    spec = getattr(view, "spec", None)
    out.update({
        "title": view.title.id,
        "company": position.company,
        "phase": position.phase,
        "label": problem.label,
        "extras": position.extras,
        "reported": dict(spec.extras) if spec is not None else {},
    })  # fmt: skip
    return out


def _print_solution(problem, view, solution) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(soft_wrap=True)
    net = problem.network
    table = Table(title=plain(problem.label or "routes"), show_lines=False)
    table.add_column("train")
    table.add_column("route (stops; \\[skipped])")
    table.add_column("stop revenue", justify="right")
    table.add_column("bonuses")
    table.add_column("revenue", justify="right")
    for r in solution.routes:
        stops = []
        for stop in _route_stops(view, net, r):
            label = _stop_label(view, net, stop["node"])
            stops.append(f"{label} ({stop['value']})" if stop["counted"] else f"[{label}]")
        bonuses = ", ".join(f"{k} {v:+d}" for k, v in r.bonuses.items()) or "-"
        table.add_row(plain(r.train_name), plain(" - ".join(stops)), str(r.stop_revenue),
                      plain(bonuses), str(r.revenue))  # fmt: skip
    running = {r.train for r in solution.routes}
    for i, train in enumerate(problem.trains):
        if i not in running:
            table.add_row(plain(train.name), "(no route)", "0", "-", "0")
    console.print(table)
    seconds = solution.stats.get("seconds")
    time_text = f"{seconds:.2f} s" if isinstance(seconds, int | float) else "?"
    method = solution.stats.get("method", "?")
    engine = [solution.stats[k] for k in ("engine", "kernels") if solution.stats.get(k)]
    if engine:
        method += f" ({', '.join(engine)})"
    console.print(
        f"total [bold]{solution.total}[/bold]  optimal {'yes' if solution.optimal else 'no'}  "
        f"bound {solution.bound}  time {time_text}  method {method}"
    )
    spec = getattr(view, "spec", None)
    if spec is not None and spec.extras:
        console.print("extras: " + ", ".join(f"{k} {v}" for k, v in spec.extras.items()),
                      markup=False)  # fmt: skip


@cli.command()
@click.argument("position", required=False)
@click.option("--example", "example", metavar="NAME", help="Solve a bundled example position.")
@click.option(
    "--action", "action", type=int, default=None, metavar="N",
    help="With a record: solve the position just before action N (default: after the last).",
)
@click.option(
    "--company", "company", metavar="SYM", default=None,
    help="With a record: the company to solve (default: the one operating).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the Solution as JSON.")
@time_limit_options()
@click.option(
    "--method",
    type=click.Choice(["auto", "numba", "cpsat"]),
    default="auto",
    show_default=True,
    help="auto: numba search, handing over to CP-SAT when a train has too many routes.",
)
def solve(position, example, action, company, as_json, time_limit, method) -> None:
    """Optimal routes for POSITION: a position file, or a game record (an 18xx.games export
    or a ``play --save`` file, finished or in progress) at one of its actions."""
    import routing

    position = read_input(position) if position else position
    if position and not example and is_record_file(position):
        problem, view, label = record_problem(position, action, company)
        problem = routing.Problem(problem.network, problem.trains, problem.rules, label=label)
    else:
        if action is not None or company is not None:
            raise click.UsageError("--action and --company go with a game record, not a position")
        problem, view = _load_problem(position, example)
    solution = solve_one_question(problem, time_limit, method)
    if as_json:
        click.echo(json.dumps(_solution_json(problem, view, solution), indent=2))
    else:
        _print_solution(problem, view, solution)
    if solution.stats.get("interrupted"):
        # Ctrl-C: the best routes so far and a valid bound were printed
        raise click.ClickException("interrupted: the routes above are the best found so far")


@cli.command()
def examples() -> None:
    """List the bundled example positions."""
    from rich.console import Console
    from rich.table import Table

    names = list_examples()
    if not names:
        click.echo(f"no examples in {examples_dir()}")
        return
    table = Table(title="examples (eighteen solve --example NAME)")
    for col in ("name", "title", "company", "phase", "trains"):
        table.add_column(col)
    for name in names:
        try:
            data = json.loads((examples_dir() / f"{name}.json").read_text(encoding="utf-8"))
            row = [
                str(data.get("title", "?")),
                str(data.get("company", "?")),
                str(data.get("phase", "?")),
                " ".join(map(str, data.get("trains", []))),
            ]
        except (OSError, ValueError, AttributeError):
            row = ["(unreadable)", "", "", ""]
        table.add_row(plain(name), *(plain(x) for x in row))
    Console(soft_wrap=True).print(table)


def _resolve_stop(view, problem, item, where: str) -> int:
    net = problem.network
    if isinstance(item, int) and not isinstance(item, bool):
        if not 0 <= item < net.n_nodes:
            raise click.ClickException(f"{where}: node {item} does not exist")
        return item
    if not isinstance(item, str):
        raise click.ClickException(f"{where}: a stop must be a node name or a hex, got {item!r}")
    if item in net.node_names:
        return net.node_names.index(item)
    stops = view.stop_nodes(item) if item in view.board else []
    if len(stops) == 1:
        return stops[0]
    if len(stops) > 1:
        names = ", ".join(view.name_of(n) for n in stops)
        raise click.ClickException(f"{where}: hex {item} has several stops; name one of {names}")
    raise click.ClickException(f"{where}: no stop or node called {item!r}")


def _routes_list(path: str) -> list:
    """The routes a ROUTES file (``-``: standard input) holds: a list, ``{"routes": [...]}``,
    or a whole 18xx.games ``run_routes`` action."""
    from engine.model.jsonio import JSONInputError, parse_json

    if path == STDIN:
        data = read_input(path)  # parsed: its errors name standard input
        path = "standard input"
    else:
        try:
            data = parse_json(Path(path).read_text(encoding="utf-8"), path)
        except FileNotFoundError:
            raise click.ClickException(f"{path}: no such file") from None
        except IsADirectoryError:
            raise click.ClickException(f"{path}: is a directory, not a routes file") from None
        except UnicodeDecodeError:
            raise click.ClickException(f"{path}: not UTF-8 text") from None
        except JSONInputError as exc:
            raise click.ClickException(str(exc)) from None
    if isinstance(data, dict) and "type" in data and data["type"] != "run_routes":
        raise click.ClickException(
            f"{path}: a {_shown(data['type'])} action, not run_routes (or a list of routes)"
        )
    if isinstance(data, dict) and "routes" in data:
        data = data["routes"]
    if not isinstance(data, list):
        raise click.ClickException(f"{path}: expected a list of routes")
    return data


def _shown(value: object, most: int = 40) -> str:
    """``repr(value)`` for a message, cut short: a generated file may hold anything."""
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


def _is_connections_route(item) -> bool:
    return isinstance(item, dict) and "connections" in item


#: Ways to read a routes file: (which train each id is, or None; the route sets to try).
_Ways = list[tuple[str | None, list[list[tuple]]]]


def _read_routes(path: str, view, problem) -> tuple[_Ways, list[str] | None]:
    """The route sets to try on :func:`routing.validate`, and what to call the k-th route
    of a set in messages (None: the file's order, as :func:`routing.validate` numbers them).

    Today's format (``train``, ``stops``) gives one set; 18xx.games routes (``train`` id,
    ``connections``) give, for every way their ids can be the position's trains, every
    reading of their connections onto the network (:func:`engine.model.routes.route_readings`),
    in the order the record replay scores them.
    """
    data = _routes_list(path)
    path = "standard input" if path == STDIN else path
    if data and all(_is_connections_route(item) for item in data):
        return _connection_readings(path, data, view, problem)
    names = [t.name for t in problem.trains]
    used: set[int] = set()
    out = []
    for i, item in enumerate(data):
        where = f"{path}: routes[{i}]"
        if not isinstance(item, dict) or "stops" not in item or "train" not in item:
            raise click.ClickException(
                f"{where} needs 'train' and 'stops' (or every route 'train' and 'connections')"
            )
        train = item["train"]
        if isinstance(train, int) and not isinstance(train, bool):
            index = train
            if not 0 <= index < len(names):
                raise click.ClickException(f"{where}: train index {index} out of range")
        else:
            free = [k for k, n in enumerate(names) if n == str(train) and k not in used]
            if not free:
                raise click.ClickException(
                    f"{where}: the company has no (further) train {_shown(train)}; trains: {names}"
                )
            index = free[0]
        used.add(index)
        if not isinstance(item["stops"], list):
            raise click.ClickException(f"{where}: 'stops' must be a list")
        stops = [
            _resolve_stop(view, problem, s, f"{where}.stops[{k}]")
            for k, s in enumerate(item["stops"])
        ]
        out.append((index, stops))
    return [(None, [out])], None


def _check_connections_route(item: dict, where: str) -> None:
    """An 18xx.games route has the shape the reader walks, or a message names the part."""

    def names(value) -> bool:
        return isinstance(value, list) and all(isinstance(h, str) and h for h in value)

    train = item.get("train")
    if not isinstance(train, str) or not train:
        raise click.ClickException(f"{where}.train must be a train id such as '4-0'")
    conns = item["connections"]
    if not isinstance(conns, list):
        raise click.ClickException(f"{where}.connections must be a list of hex lists")
    for k, hexes in enumerate(conns):
        if not names(hexes) or not hexes:
            raise click.ClickException(
                f"{where}.connections[{k}] must be a non-empty list of hex ids, got "
                f"{_shown(hexes)}"
            )
    if item.get("nodes") is not None and not names(item["nodes"]):
        raise click.ClickException(f"{where}.nodes must be a list of node ids such as 'D6-0'")


def _connection_readings(path: str, data: list, view, problem) -> tuple[_Ways, list[str]]:
    from engine.model.record import ReplayError
    from engine.model.routes import declaration_order, position_routes, route_readings

    for i, item in enumerate(data):
        _check_connections_route(item, f"{path}: routes[{i}]")
    try:
        ways = position_routes(view, problem, data)
    except ReplayError as exc:
        raise click.ClickException(f"{path}: {one_line(exc)}") from None
    if not ways[0]:
        raise click.ClickException(f"{path}: no route has a connection")
    # the ways differ only in which train an id is: the same routes, in the same order
    in_file = [i for i, item in enumerate(data) if item["connections"]]
    order = declaration_order(ways[0])
    labels = [f"route {in_file[j] + 1} (train {ways[0][j].train_id})" for j in order]
    names = [t.name for t in problem.trains]
    out = [(", ".join(f"{r.train_id} as the {names[r.train_index]}" for r in read),
            list(route_readings(read, order))) for read in ways]  # fmt: skip
    return out, labels


def _route_names(message: str, labels: list[str] | None) -> str:
    """``message`` of :func:`routing.validate` with its ``route N`` named by ``labels``."""
    if labels is None:
        return message

    def name(m: re.Match) -> str:
        k = int(m.group(1))
        return labels[k - 1] if 0 < k <= len(labels) else m.group(0)

    return re.sub(r"\broute (\d+)\b(?: \(train [^)]*\))?", name, message)


@cli.command()
@click.argument("position")
@click.argument("routes")
@time_limit_options(what="the optimum's solve (for comparison)")
def validate(position, routes, time_limit) -> None:
    """Score the routes declared in ROUTES for POSITION, or say which rule they break.

    ROUTES is a list of routes ``{"train": "4/6", "stops": ["D6.c1", "E7", ...]}``, or of
    18xx.games routes ``{"train": "5-1", "connections": [["D6", "E7"], ...]}``, or a whole
    18xx.games ``run_routes`` action."""
    import routing

    if position == STDIN and routes == STDIN:
        raise click.UsageError("POSITION and ROUTES cannot both be standard input ('-')")
    problem, view = _load_problem(read_input(position), None)
    first = None
    ways, labels = _read_routes(routes, view, problem)
    legal = []  # (which trains, total, routes) of the first legal reading of each way
    for trains, readings in ways:
        for declared in readings:
            try:
                total = routing.validate(problem, declared, blocked_by=view.blocked_by()).total
            except routing.RouteError as exc:
                first = first or exc
                continue
            legal.append((trains, total, declared))
            break
    if not legal:
        why = _route_names(one_line(first), labels)
        shown = "standard input" if routes == STDIN else routes
        raise click.ClickException(f"{shown}: illegal routes: {why}")
    trains, total, declared = legal[0]
    scored = routing.validate(problem, declared, blocked_by=view.blocked_by(), compare=True,
                              time_limit=time_limit)  # fmt: skip
    others = [f"{t}: {n}" for t, n, _ in legal[1:] if n != total]
    if others:
        ambiguous = (f"the routes do not say which train an id is: scored with {trains}; "
                     f"also legal: {'; '.join(others)}")  # fmt: skip
    from rich.console import Console
    from rich.table import Table

    net = problem.network
    table = Table(title=plain(f"declared routes: {problem.label}"))
    for col in ("train", "route (stops; \\[skipped])", "bonuses", "revenue"):
        table.add_column(col)
    for r in scored.routes:
        counted = set(r.counted)
        stops = [_stop_label(view, net, n) if n in counted else f"[{_stop_label(view, net, n)}]"
                 for n in r.nodes if net.node_kind[n] != 0]  # fmt: skip
        bonuses = ", ".join(f"{k} {v:+d}" for k, v in r.bonuses.items()) or "-"
        table.add_row(plain(r.train_name), plain(" - ".join(stops)), plain(bonuses),
                      str(r.revenue))  # fmt: skip
    console = Console(soft_wrap=True)
    console.print(table)
    best = getattr(scored, "optimum", None)
    beside = f"  (optimum {best.total}{'' if best.optimal else ', not proven'})" if best else ""
    console.print(f"total [bold]{scored.total}[/bold]{beside}")
    for note in getattr(scored, "notes", []) or []:
        console.print(f"note: {note}", markup=False)
    if others:
        console.print(f"note: {ambiguous}", markup=False)


@cli.command()
@click.argument("position", required=False)
@click.option("--example", "example", metavar="NAME", help="Render a bundled example.")
@click.option("--routes", "with_routes", is_flag=True, help="Solve and draw the optimal routes.")
@time_limit_options()
@click.option("-o", "--output", required=True,
              help="File to write: SVG, or PNG when it ends in .png.")  # fmt: skip
def render(position, example, with_routes, time_limit, output) -> None:
    """Draw POSITION as a board (optionally with its optimal routes, in the company's colour,
    with a legend of each train's route and revenue): SVG, or PNG for a ``.png`` file."""
    from engine.model.render import render_view

    problem, view = _load_problem(read_input(position) if position else None, example)
    routes, legend = [], []
    caption = problem.label
    if with_routes:
        solution = solve_one_question(problem, time_limit)  # answered as solve answers
        routes = [(r.train_name, list(r.nodes)) for r in solution.routes]
        net = problem.network
        for r in solution.routes:
            stops = [_stop_label(view, net, n) for n in r.counted]
            legend.append(f"{r.train_name}: {' - '.join(stops)}: {r.revenue}")
        proven = "proven optimal" if solution.optimal else f"not proven, bound {solution.bound}"
        caption += f" - total {solution.total} ({proven})"
    svg = render_view(view, problem.network, routes, caption, legend)
    if str(output).lower().endswith(".png"):
        import cairosvg

        write_text_atomic(output, cairosvg.svg2png(bytestring=svg.encode("utf-8")))
    else:
        write_text_atomic(output, svg)
    click.echo(f"wrote {output}")


def _turn_note(turn) -> str:
    """Why a turn needs a footnote (routes refused, revenues differ, optimum unproven)."""
    notes = []
    if turn.diverged:
        notes.append("after the replay left the record's path")
    if turn.error:
        notes.append(turn.error)
    if turn.scored is not None and not turn.matches:
        notes.append(f"our route revenues {turn.scored_routes} != stored {turn.declared_routes}")
    if turn.optimum is not None and not turn.optimal:
        notes.append(f"optimum not proven (bound {turn.bound})")
    return "; ".join(notes)


def _final_table(final: dict, title: str):
    """The players' values (18xx.games ``result``) and why the game ended."""
    from rich.table import Table

    state = f"game end: {final['reason']}" if final["finished"] else "game in progress"
    table = Table(title=plain(f"{title}: final scores ({state})"))
    for col in ("player", "cash", "value", "recorded"):
        table.add_column(col, justify="left" if col == "player" else "right")
    recorded = final.get("recorded_result") or {}
    for p in final["players"]:
        theirs = recorded.get(str(p["id"]))
        table.add_row(plain(str(p["name"])), str(p["cash"]), str(p["value"]),
                      "-" if theirs is None else str(theirs))  # fmt: skip
    return table


def _turn_row(turn, footnote: str) -> list[str]:
    def num(v) -> str:
        return "-" if v is None else str(v)

    gap = turn.gap
    return [
        str(turn.action_id),
        plain(turn.round.removeprefix("OR ")),
        plain(turn.company),
        plain(turn.phase),
        plain(" ".join(turn.trains)),
        num(turn.declared),
        num(turn.scored),
        num(turn.optimum),
        "-" if gap is None else (f"[bold]{gap:+d}[/bold]" if gap > 0 else f"{gap:+d}"),
        f"{turn.seconds:.1f}s",
        footnote,
    ]


@cli.command()
@click.argument("record")
@click.option("--report", "report_path", help="Write a JSON report.")
@click.option(
    "--export-positions",
    "export_dir",
    type=click.Path(file_okay=False),
    help="Write the position of every operating run as a position file into DIR.",
)
@click.option(
    "--every-action", is_flag=True,
    help="With --export-positions: a position before every action, not only at runs.",
)
@time_limit_options(what="each run's solve")
@click.option(
    "--lenient", is_flag=True,
    help="Skip actions the engine refuses (noted; every later figure is marked) instead of "
    "stopping with an error.",
)
def replay(record, report_path, export_dir, every_action, time_limit, lenient) -> None:
    """Replay a game record (18xx.games export or play --save file) through the rules
    engine and score every operating run: declared, ours, optimum."""
    from rich import box
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Table

    from engine.app import report as rp

    console = Console(soft_wrap=True)
    err = Console(stderr=True)
    progress = Progress(
        TextColumn("replaying"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task("record", total=1)
        report = rp.replay(
            read_input(record),
            time_limit=time_limit,
            strict=not lenient,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    # two spaces between columns and no edges: the whole table, headers in full, fits in
    # 80 columns; a long train list wraps
    table = Table(title=plain(f"{report.record} ({report.title}): operating runs"),
                  box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False,
                  show_edge=False)  # fmt: skip
    for col, just in (
        ("action", "right"),
        ("OR", "left"),
        ("company", "left"),
        ("phase", "left"),
        ("trains", "left"),
        ("declared", "right"),
        ("ours", "right"),
        ("optimum", "right"),
        ("gap", "right"),
        ("time", "right"),
        ("note", "left"),
    ):
        table.add_column(col, justify=just, max_width=6 if col == "trains" else None)
    footnotes = []
    for turn in report.turns:
        note = _turn_note(turn)
        if note:
            footnotes.append(f"[{len(footnotes) + 1}] action {turn.action_id}: {note}")
        table.add_row(*_turn_row(turn, f"\\[{len(footnotes)}]" if note else ""))
    console.print(table)
    for line in footnotes:
        console.print(line, markup=False)
    s = report.summary
    console.print(
        f"positions {s['positions']}  optimum beat the declared revenue in "
        f"{s['optimum_beats_declared']}  revenue left on the table {s['revenue_left_on_table']}"
        f"  declared routes not validated {s['declared_not_validated']}  revenue mismatches "
        f"{s['revenue_mismatches']}  time {s['seconds']:.2f} s",
        markup=False,
    )
    console.print(f"route rules: {report.rules}", markup=False)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)
    final = report.final
    console.print(_final_table(final, report.record))
    if final["matches_record"] is True:
        console.print("the replayed result equals the record's result", markup=False)
    elif final["matches_record"] is False:
        console.print("warning: the replayed result differs from the record's result",
                      markup=False)  # fmt: skip
    if report_path:
        rp.write_text_atomic(report_path, json.dumps(report.to_dict(), indent=2) + "\n")
        console.print(f"wrote {report_path}", markup=False)
    if export_dir:
        if every_action:
            written = rp.export_every_action(record, export_dir)
        else:
            written = rp.export_positions(report, export_dir)
        console.print(f"wrote {len(written)} positions to {export_dir}", markup=False)
    if report.diverged_at is not None:
        raise click.ClickException(
            "the replay left the record's path (lenient: figures after it are the engine's)"
        )


# Commands kept in their own modules join the group here; those modules import nothing from
# this one at import time, so ``python -m engine.app.cli`` works too.
from engine.app.cli_analyse import analyse as _analyse  # noqa: E402
from engine.app.cli_batch import batch as _batch  # noqa: E402
from engine.app.cli_bench import bench as _bench  # noqa: E402
from engine.app.cli_history import history as _history  # noqa: E402
from engine.app.cli_play import play as _play  # noqa: E402
from engine.app.cli_serve import serve as _serve  # noqa: E402

for _command in (_analyse, _batch, _bench, _history, _play, _serve):
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Console entry point."""
    cli.main(args=argv if argv is not None else sys.argv[1:], prog_name="eighteen")


if __name__ == "__main__":  # pragma: no cover
    main()
