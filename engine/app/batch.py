"""Analyse many positions and records at once, on Dask or in-process, and resume after a stop.

:func:`run_batch` finds the items named by files, directories and globs (:func:`discover`),
analyses each with :func:`analyse_item` (the optimum of a position file; every scored
``run_routes`` turn of an 18xx.games record, as :func:`engine.app.report.replay` reports it) and
writes one flat table (:data:`COLUMNS`) as CSV or Parquet.  The table format and the
journal are in :mod:`engine.app.batch_io` (re-exported here).

.. code-block:: python

    from engine.app.batch import run_batch

    if __name__ == "__main__":  # the local cluster starts worker processes (spawn)
        result = run_batch(["benchmarks/positions/1*.json"], "results.parquet")
        print(len(result.rows), [f["key"] for f in result.failures])

Items run on a ``dask.distributed`` ``LocalCluster`` (one single-threaded worker process per
core) by default, on an existing cluster when ``scheduler`` is its address, or one after
another in this process with ``scheduler="synchronous"``.

Resuming.  As each item finishes its rows are appended to a JSON-lines journal next to the
output (``<out>.journal``), one line per item carrying the item key, flushed and fsynced
before the next result is taken.  A rerun of the same batch reads the journal, skips every
item already in it and runs only the rest; the output file is then rewritten atomically from
the journal.  A line cut short by a kill is ignored (and its item redone), so a rerun never
loses a finished item nor writes one twice.  Rows are sorted by ``file``, ``line``, ``row``,
so the output does not depend on the order in which items finished; only ``seconds`` varies
from run to run.

Failures.  Problems of one item (a missing path, a glob matching nothing, bad JSON, an
impossible position, a record of an unsupported title, a record that loses sync) give that
item a row whose ``error`` column holds a one-line message; the other items go on.  Failures
are journalled like results (a rerun does not redo them unless ``retry_failed``), except a
missing path or an empty glob (checked afresh on every run) and a lost worker (redone).
"""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.app.batch_io import (
    COLUMNS,
    IDENTITY_COLUMNS,
    BatchError,
    Journal,
    Settings,
    journal_path,
    read_table,
    row_sort_key,
    write_table,
)

# the table and the journal live in batch_io; they stay importable from here
from engine.app.cli_common import one_line
from engine.model.jsonio import JSONInputError, parse_json, read_text

__all__ = [
    "BatchError",
    "Settings",
    "Item",
    "BatchResult",
    "COLUMNS",
    "IDENTITY_COLUMNS",
    "discover",
    "analyse_item",
    "analyse_chunk",
    "plan_tasks",
    "Journal",
    "journal_path",
    "write_table",
    "read_table",
    "run_batch",
]

_JSON_LINES = (".jsonl", ".ndjson")
_SCAN_SUFFIXES = (".json", *_JSON_LINES)


@dataclass(frozen=True)
class Item:
    """One unit of work: a file, or one line of a JSON-lines file.

    ``error`` is set for an argument that named nothing (such items are not run).
    """

    key: str
    file: str
    line: int | None = None
    text: str | None = field(default=None, repr=False)
    error: str | None = None
    size: int = 0


@dataclass
class BatchResult:
    """What :func:`run_batch` did.

    Attributes
    ----------
    rows : list of dict
        Every output row, sorted (as written).
    failures : list of dict
        ``{"key", "error"}`` for every failed item, sorted by key.
    ran, skipped, unread : int
        Items analysed in this run, items taken from the journal, and arguments that named
        no readable input (a missing path, a glob or folder without files, an unreadable or
        empty JSON-lines file): each is an item with a failure row.
    seconds : float
        Wall time of the run (cluster start-up included).
    out, journal : Path
    """

    rows: list[dict]
    failures: list[dict]
    ran: int
    skipped: int
    seconds: float
    out: Path
    journal: Path
    unread: int = 0

    @property
    def items(self) -> int:
        """Every item of the batch, failed ones included."""
        return self.ran + self.skipped + self.unread


# ---------------------------------------------------------------------------------- discovery
def _norm(path: str | Path) -> str:
    return os.path.normpath(str(path))


def _file_items(path: str, size: int) -> list[Item]:
    """The items of one file of ``size`` bytes: itself, or one per non-blank line of a
    JSON-lines file."""
    if not path.lower().endswith(_JSON_LINES):
        return [Item(key=path, file=path, size=size)]
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [Item(key=path, file=path, error=f"{path}: cannot read: {exc}")]
    items = []
    for n, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            items.append(Item(key=f"{path}:{n}", file=path, line=n, text=line, size=len(line)))
    if not items:
        return [Item(key=path, file=path, error=f"{path}: no JSON lines in the file")]
    return items


def _scan_dir(directory: str) -> list[str]:
    """``*.json``/``*.jsonl``/``*.ndjson`` under ``directory``, hidden ones left out."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            if not name.startswith(".") and name.lower().endswith(_SCAN_SUFFIXES):
                found.append(_norm(os.path.join(root, name)))
    return sorted(found)


def discover(inputs: Sequence[str | Path], exclude: Iterable[str | Path] = ()) -> list[Item]:
    """The items named by ``inputs``, in a stable order.

    Parameters
    ----------
    inputs : sequence of str or Path
        Files, directories (searched recursively for ``.json``, ``.jsonl`` and ``.ndjson``
        files, hidden ones left out) and glob patterns (``**`` allowed).  A ``.jsonl`` or
        ``.ndjson`` file holds one position or record per line, each its own item.
    exclude : iterable of paths
        Files never taken as input (the output and its journal).

    Returns
    -------
    list of Item
        Sorted by file and line, each key once.  An argument that names nothing becomes an
        item with ``error`` set.
    """
    if isinstance(inputs, str | Path):
        raise BatchError("inputs must be a list of paths or globs, not one string")
    # one stat per file gives both its size and its identity, which says whether it is an
    # excluded file under another name (a realpath per file cost more than the stat)
    skip = set()
    for path in exclude:
        with contextlib.suppress(OSError):
            found = os.stat(path)
            skip.add((found.st_dev, found.st_ino))
    items: dict[str, Item] = {}
    for arg in inputs:
        arg = str(arg)
        if not arg.strip():
            items.setdefault("", Item(key="", file="", error="an empty path was given"))
            continue
        if os.path.isdir(arg):
            files = _scan_dir(arg)
            if not files:
                items.setdefault(arg, Item(arg, arg, error=f"{arg}: no .json or .jsonl files"))
        elif os.path.exists(arg):
            files = [_norm(arg)]
        elif glob.has_magic(arg):
            files = []
            for match in sorted(glob.glob(arg, recursive=True)):
                files.extend(_scan_dir(match) if os.path.isdir(match) else [_norm(match)])
            if not files:
                items.setdefault(arg, Item(arg, arg, error=f"{arg}: no files match"))
        else:
            items.setdefault(arg, Item(arg, arg, error=f"{arg}: no such file or directory"))
            continue
        for path in files:
            try:
                found = os.stat(path)
            except OSError:
                found = None  # gone since it was listed: the read names it
            if found is not None and (found.st_dev, found.st_ino) in skip:
                continue
            for item in _file_items(path, found.st_size if found is not None else 0):
                items.setdefault(item.key, item)
    return sorted(items.values(), key=lambda it: (it.file, it.line or 0, it.key))


# ---------------------------------------------------------------------------------- analysis
def _row(item: Item, row: int, **values: Any) -> dict:
    out = dict.fromkeys(COLUMNS)
    out.update(key=item.key, file=item.file, line=item.line, row=row)
    out.update(values)
    return out


def _run_row(item: Item, row: int, kind: str, title: str, company: str, phase: str,
             trains: Sequence[str], **values: Any) -> dict:  # fmt: skip
    """A row of one company's run: what it is, whose it is, its trains, then ``values``."""
    return _row(item, row, kind=kind, title=title, company=company, phase=phase,
                trains=" ".join(trains), n_trains=len(trains), **values)  # fmt: skip


def _error_text(exc: BaseException) -> str:
    from engine.model.position import PositionError
    from engine.model.record import ReplayError

    text = one_line(exc)
    if isinstance(exc, PositionError | ReplayError | ValueError | KeyError | OSError):
        return text
    return f"internal error: {type(exc).__name__}: {text}"


def _read_item(item: Item) -> tuple[Any, str]:
    """The parsed JSON of an item and the name to report it under."""
    where = item.key
    text = item.text if item.text is not None else read_text(item.file)
    try:
        return parse_json(text, where), where
    except JSONInputError as exc:
        if item.line is not None:  # one line of a JSON-lines file: name that line
            text = str(exc).replace("at line 1 column", f"at line {item.line} column")
            raise ValueError(text) from None
        raise


def _kind(data: Any, where: str) -> str:
    if isinstance(data, dict) and "actions" in data:
        return "record"
    if isinstance(data, dict) and "company" in data and "title" in data:
        return "position"
    raise ValueError(
        f"{where}: neither a position (no 'title'/'company') nor an 18xx.games record "
        "(no 'actions')"
    )


def _analyse_position(item: Item, data: dict, where: str, settings: Settings) -> list[dict]:
    import routing
    from engine.games import build_problem
    from engine.model.position import position_from_dict

    t0 = time.perf_counter()
    position = position_from_dict(data, where)
    problem, _view = build_problem(position)
    solution = routing.solve(problem, time_limit=settings.time_limit)
    seconds = time.perf_counter() - t0
    return [
        _run_row(
            item,
            0,
            "position",
            position.title,
            position.company,
            position.phase,
            position.trains,
            optimum=int(solution.total),
            optimal=bool(solution.optimal),
            bound=None if solution.bound is None else int(solution.bound),
            seconds=round(seconds, 6),
        )
    ]


def _analyse_record(item: Item, data: dict, where: str, settings: Settings) -> list[dict]:
    from engine.app.report import replay
    from engine.games import load_record

    record = load_record(data, name=where)
    rows: list[dict] = []

    def turn_row(turn) -> dict:
        return _run_row(
            item,
            len(rows),
            "record",
            record.title,
            turn.company,
            turn.phase,
            turn.trains,
            action_id=turn.action_id,
            declared=turn.reference,
            scored=turn.scored,
            optimum=turn.optimum,
            optimal=turn.optimal,
            bound=turn.bound,
            gap=turn.gap,
            matches=turn.matches,
            note=turn.error,
            seconds=round(turn.seconds, 6),
        )

    try:
        replay(record, time_limit=settings.time_limit, strict=not settings.lenient,
               on_turn=lambda turn: rows.append(turn_row(turn)))  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - keep the turns scored before the failure
        # the turns before a lost sync are sound; keep them and end the item with its error
        rows.append(
            _row(
                item,
                len(rows),
                kind="record",
                title=record.title,
                error=f"{where}: {_error_text(exc)}",
            )
        )
    return rows


def analyse_item(item: Item, settings: Settings | None = None) -> list[dict]:
    """The output rows of one item; never raises for a problem of the item itself.

    Parameters
    ----------
    item : Item
    settings : Settings, optional

    Returns
    -------
    list of dict
        Rows with every key of :data:`COLUMNS`.  A position gives one row; a record one
        row per ``run_routes`` turn (none when it has no turn); a failed item ends with a
        row whose ``error`` says why.
    """
    if not isinstance(item, Item):
        raise TypeError(f"analyse_item needs an Item, got {type(item).__name__}")
    settings = settings or Settings()
    if item.error is not None:
        return [_row(item, 0, error=item.error)]
    kind = None
    try:
        data, where = _read_item(item)
        kind = _kind(data, where)
        if kind == "position":
            return _analyse_position(item, data, where, settings)
        return _analyse_record(item, data, where, settings)
    except Exception as exc:  # noqa: BLE001 - one bad item must not stop the batch
        text = _error_text(exc)
        if not text.startswith(item.key):
            text = f"{item.key}: {text}"
        return [_row(item, 0, kind=kind, error=text)]


# ---------------------------------------------------------------------------------- running
def analyse_chunk(items: Sequence[Item], settings: Settings | None = None) -> list[list[dict]]:
    """:func:`analyse_item` of each item (one Dask task runs several small items)."""
    return [analyse_item(item, settings) for item in items]


def plan_tasks(items: Sequence[Item], slots: int) -> list[list[Item]]:
    """Group items into Dask tasks, largest first, in tasks that shrink as the work runs out.

    A task costs a few milliseconds of Dask overhead, as much as solving a small position,
    so small positions travel together; yet the last tasks must be small, or one slot
    finishes a big task while the others wait.  Guided self-scheduling does both: each task
    takes, in order of size, items up to half the remaining bytes per slot, and never less
    than a 32nd of the bytes per slot, so a record of tens of kB gets a task of its own and
    the smallest positions close the run in small tasks.

    Parameters
    ----------
    items : sequence of Item
        Their ``size`` (bytes) stands for their cost.
    slots : int
        Tasks the cluster runs at once (worker threads).

    Returns
    -------
    list of list of Item
        Every item exactly once, largest first; every task but the last holds more than
        half of its budget, so there are at most ``64 * slots + 1`` tasks.
    """
    slots = max(1, slots)
    order = sorted(items, key=lambda it: (-it.size, it.key))
    cost = [max(1, it.size) for it in order]  # at least a byte: empty files fill tasks too
    remaining = sum(cost)
    floor = max(1, remaining // (32 * slots))
    tasks: list[list[Item]] = []
    start = 0
    while start < len(order):
        budget = max(floor, remaining // (2 * slots))
        end, weight = start, 0
        while end < len(order) and (end == start or weight + cost[end] <= budget):
            weight += cost[end]
            end += 1
        tasks.append(order[start:end])
        remaining -= weight
        start = end
    return tasks


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _run_dask(items, settings, scheduler, workers, on_result) -> None:
    import logging

    from dask.distributed import Client, LocalCluster, as_completed

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            n = workers or os.cpu_count() or 1
            # processes, one thread each: the numba kernels hold the GIL for part of a solve
            # Ctrl-C reaches the whole process group: worker processes started with SIGINT
            # ignored leave it to this one, which then closes the cluster in order (a
            # Ctrl-C during these ~2 s of start-up is lost; the next one works)
            old = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
            try:
                cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            finally:
                if old is not None:
                    signal.signal(signal.SIGINT, old)
            stack.enter_context(cluster)
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(scheduler, timeout="20s"))
            except (OSError, TimeoutError, ValueError) as exc:
                raise BatchError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
            n = sum(w.get("nthreads", 1) for w in client.scheduler_info()["workers"].values())
            if n == 0:  # tasks would wait for ever
                raise BatchError(f"the Dask cluster at {scheduler} has no workers")
        futures = {
            client.submit(analyse_chunk, chunk, settings, pure=False, retries=0): chunk
            for chunk in plan_tasks(items, n)
        }
        for fut in as_completed(futures):
            chunk = futures.pop(fut)
            try:
                results = [
                    (item, rows, True) for item, rows in zip(chunk, fut.result(), strict=True)
                ]
            except Exception as exc:  # noqa: BLE001 - a lost worker fails only its items
                # not journalled: the next run tries these items again
                text = f"worker failed: {_error_text(exc)}"
                results = [(it, [_row(it, 0, error=f"{it.key}: {text}")], False) for it in chunk]
            for item, rows, durable in results:
                on_result(item, rows, durable)


def run_batch(
    inputs: Sequence[str | Path],
    out: str | Path,
    settings: Settings | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    retry_failed: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> BatchResult:
    """Analyse every item of ``inputs`` and write the table ``out``, resuming its journal.

    Parameters
    ----------
    inputs : sequence of paths or globs
        See :func:`discover`.
    out : path
        ``.csv`` or ``.parquet``; the journal is :func:`journal_path` of it.
    settings : Settings, optional
    scheduler : str, optional
        None: a new local cluster; ``"synchronous"``: in this process, one item after
        another; else the address of a running Dask scheduler (``tcp://host:8786``).
    workers : int, optional
        Worker processes of the local cluster (default: one per core).
    retry_failed : bool
        Also redo items the journal holds as failed.
    progress : callable, optional
        ``progress(done, total)`` over the items run now.

    Returns
    -------
    BatchResult

    Raises
    ------
    BatchError
        Bad output path or options, a journal of other settings or in use, an unreachable
        scheduler.
    """
    t0 = time.perf_counter()
    settings = settings or Settings()
    out = Path(out)
    if out.suffix.lower() not in (".csv", ".parquet"):
        raise BatchError(f"{out}: output must end in .csv or .parquet")
    if out.is_dir():
        raise BatchError(f"{out}: is a directory")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise BatchError(f"workers must be a whole number >= 1, got {workers!r}")
    if workers is not None and scheduler is not None:
        raise BatchError("workers applies to the local cluster only, not with a scheduler")
    out.parent.mkdir(parents=True, exist_ok=True)
    jpath = journal_path(out)
    items = discover(inputs, exclude=(out, jpath))
    with Journal(jpath, settings) as journal:
        done = journal.open()
        if retry_failed and any(r["error"] for rows in done.values() for r in rows):
            # drop the failed items first, so the journal never holds a key twice
            done = {k: rows for k, rows in done.items() if not any(r["error"] for r in rows)}
            journal._rewrite(done)
            journal.entries = dict(done)
        skipped = [it for it in items if it.error is None and it.key in done]
        todo = [it for it in items if it.error is None and it.key not in done]
        rows_of: dict[str, list[dict]] = {it.key: done[it.key] for it in skipped}
        for it in items:
            if it.error is not None:
                rows_of[it.key] = analyse_item(it, settings)
        count = 0

        def on_result(item: Item, rows: list[dict], durable: bool) -> None:
            nonlocal count
            if durable:
                journal.append(item.key, rows)
            rows_of[item.key] = rows
            count += 1
            if progress is not None:
                progress(count, len(todo))

        if progress is not None:
            progress(0, len(todo))
        if todo:
            if scheduler == "synchronous":
                for item in todo:
                    on_result(item, analyse_item(item, settings), True)
            else:
                _run_dask(todo, settings, scheduler, workers, on_result)
    rows = sorted((r for rows in rows_of.values() for r in rows), key=row_sort_key)
    write_table(rows, out)
    failures = sorted(
        ({"key": r["key"], "error": r["error"]} for r in rows if r["error"]),
        key=lambda f: f["key"],
    )
    return BatchResult(
        rows=rows,
        failures=failures,
        ran=len(todo),
        skipped=len(skipped),
        seconds=time.perf_counter() - t0,
        out=out,
        journal=jpath,
        unread=sum(1 for it in items if it.error is not None),
    )
