"""The output table and the resume journal of :mod:`engine.app.batch`.

:data:`COLUMNS` is the flat table :func:`engine.app.batch.run_batch` writes, one row per
position or scored record turn; :func:`write_table` writes it atomically as CSV or Parquet
and :func:`read_table` reads it back.  :class:`Journal` is the append-only JSON-lines log
(``<out>.journal``, :func:`journal_path`) that lets a stopped batch resume: one line per
finished item, written through to the operating system before the next result is taken
and fsynced at least every :data:`SYNC_SECONDS`; a line cut short by a kill is dropped on
the next open.  Everything here is also importable from
:mod:`engine.app.batch`.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "BatchError",
    "Settings",
    "COLUMNS",
    "IDENTITY_COLUMNS",
    "Journal",
    "journal_path",
    "write_table",
    "read_table",
]


#: Output columns and their types (``str``, ``int``, ``bool``, ``float``; every one nullable).
COLUMNS: dict[str, str] = {
    "key": "str",  # item key: the file path, or "path:line" for a JSON-lines input
    "file": "str",  # the input file (or the argument that matched nothing)
    "line": "int",  # line number within a JSON-lines input, else null
    "row": "int",  # 0-based row number within the item
    "kind": "str",  # "position" or "record" (null when the file could not be read)
    "title": "str",  # the position's title id, or the record's title as recorded
    "company": "str",  # the operating company
    "phase": "str",
    "trains": "str",  # the company's train names, space-separated
    "n_trains": "int",
    "action_id": "int",  # record turns: the run_routes action id
    "declared": "int",  # record turns: the revenue 18xx.games stored (or our score of it)
    "scored": "int",  # record turns: our score of the declared routes
    "optimum": "int",  # the optimal revenue found
    "optimal": "bool",  # the optimum is proven
    "bound": "int",  # a proven upper bound on the optimal revenue
    "gap": "int",  # record turns: optimum - declared
    "matches": "bool",  # record turns: our route scores equal the stored ones
    "note": "str",  # record turns: why the declared routes could not be scored
    "seconds": "float",  # build (+ validate) + solve time; varies from run to run
    "error": "str",  # why the item failed (one line), else null
}

#: The columns that must agree between two runs of the same batch (all but ``seconds``).
IDENTITY_COLUMNS: tuple[str, ...] = tuple(c for c in COLUMNS if c != "seconds")

_JOURNAL_VERSION = 1
#: Most seconds a finished item waits in the operating system's buffers before the journal
#: is fsynced (a power cut, not a crash, loses that much work; a resumed run redoes it).
SYNC_SECONDS = 0.25


class BatchError(ValueError):
    """The batch as a whole cannot run (bad output path, mismatched or locked journal)."""


@dataclass(frozen=True)
class Settings:
    """Options that change results; a journal is only resumed with equal settings.

    Parameters
    ----------
    time_limit : float, optional
        Seconds per solve (unproven optima are flagged ``optimal=False``).
    lenient : bool
        Records: apply actions the rules forbid instead of failing the record.
    """

    time_limit: float | None = None
    lenient: bool = False

    def __post_init__(self) -> None:
        if self.time_limit is not None and not (
            isinstance(self.time_limit, int | float) and self.time_limit >= 0
        ):
            raise BatchError(f"time_limit must be a number >= 0, got {self.time_limit!r}")


# ---------------------------------------------------------------------------------- journal
def journal_path(out: str | Path) -> Path:
    """The journal of output ``out``: ``<out>.journal`` beside it."""
    out = Path(out)
    return out.with_name(out.name + ".journal")


class Journal:
    """Append-only JSON-lines log of finished items, fsynced per item.

    The first line is a header with the :class:`~engine.app.batch.Settings`; every other line is
    ``{"key": ..., "rows": [...]}``.  Opening takes an exclusive lock (POSIX), so two
    batches cannot write one journal.

    Parameters
    ----------
    path : path
    settings : Settings
    """

    def __init__(self, path: str | Path, settings: Settings) -> None:
        self.path = Path(path)
        self.settings = settings
        self.entries: dict[str, list[dict]] = {}
        self.dropped = 0
        self._fh: io.TextIOWrapper | None = None
        self._synced = time.monotonic()

    def _header(self) -> dict:
        return {
            "eighteen_batch_journal": _JOURNAL_VERSION,
            "settings": asdict(self.settings),
            "columns": list(COLUMNS),
        }

    def open(self) -> dict[str, list[dict]]:
        """Lock and read the journal; return ``{key: rows}`` of the finished items."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open
        try:
            import fcntl

            fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX: no lock
            pass
        except OSError:
            self.close()
            raise BatchError(f"{self.path}: another batch is writing this journal") from None
        self._fh.seek(0)
        lines = self._fh.read().split("\n")
        # a complete line ends in "\n": the piece after the last one is a cut line (or "")
        complete, tail = lines[:-1], lines[-1]
        self.dropped = 1 if tail.strip() else 0
        header, entries = None, {}
        for n, line in enumerate(complete):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                obj = None
            if n == 0:
                header = obj
                continue
            if (
                isinstance(obj, dict)
                and isinstance(obj.get("key"), str)
                and isinstance(obj.get("rows"), list)
                and all(isinstance(r, dict) for r in obj["rows"])
            ):
                rows = [{c: r.get(c) for c in COLUMNS} for r in obj["rows"]]
                entries.setdefault(obj["key"], rows)
            else:
                self.dropped += 1
        if header is None and entries:
            self.close()
            raise BatchError(f"{self.path}: not a batch journal (bad first line); delete it")
        if header is not None:
            self._check_header(header)
        if header is None or self.dropped:
            self._rewrite(entries)
        self.entries = entries
        return dict(entries)

    def _check_header(self, header: Any) -> None:
        ok = isinstance(header, dict) and header.get("eighteen_batch_journal") == _JOURNAL_VERSION
        if not ok or header.get("columns") != list(COLUMNS):
            self.close()
            raise BatchError(
                f"{self.path}: not a journal of this version of eighteen batch; delete it"
            )
        if header.get("settings") != asdict(self.settings):
            old = ", ".join(f"{k}={v}" for k, v in header["settings"].items())
            self.close()
            raise BatchError(
                f"{self.path}: written with other settings ({old}); rerun with those or "
                "delete the journal"
            )

    def _rewrite(self, entries: dict[str, list[dict]]) -> None:
        """Replace the journal by header + ``entries`` (drops cut and bad lines)."""
        lines = [json.dumps(self._header())]
        lines += [json.dumps({"key": k, "rows": rows}) for k, rows in entries.items()]
        _write_atomic(self.path, "".join(line + "\n" for line in lines))
        # the lock stays on the old inode; reopen the new file and lock it again
        assert self._fh is not None
        self._fh.close()
        self._fh = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - held open
        with contextlib.suppress(ImportError, OSError):
            import fcntl

            fcntl.flock(self._fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def append(self, key: str, rows: list[dict]) -> None:
        """Record a finished item: written through to the operating system before returning
        (a crash of this process loses nothing), and on disk (fsync) within
        :data:`SYNC_SECONDS` and at :meth:`close` (a power cut loses at most that much work,
        which a resumed run does again).  An fsync per item took 0.6 ms, a sixth of a
        corpus position's whole batch time."""
        if self._fh is None:
            raise BatchError(f"{self.path}: journal is not open")
        if key in self.entries:
            return
        self._fh.write(json.dumps({"key": key, "rows": rows}) + "\n")
        self._fh.flush()
        now = time.monotonic()
        if now - self._synced >= SYNC_SECONDS:
            os.fsync(self._fh.fileno())
            self._synced = now
        self.entries[key] = rows

    def close(self) -> None:
        if self._fh is not None:
            with contextlib.suppress(OSError):
                self._fh.flush()
                os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _write_atomic(path: Path, data: str | Callable[[str], None]) -> None:
    """Write ``path`` (text, or a function writing the path it is given) via a temporary
    file in its directory and :func:`os.replace`, fsynced."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            if not callable(data):
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        if callable(data):
            data(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        os.fsync(dir_fd)
        os.close(dir_fd)


# ---------------------------------------------------------------------------------- output
def row_sort_key(row: dict) -> tuple:
    return (row["file"] or "", row["line"] or 0, row["key"] or "", row["row"] or 0)


def write_table(rows: list[dict], out: str | Path) -> Path:
    """Write ``rows`` (sorted) atomically as CSV or Parquet, by the suffix of ``out``.

    CSV: a header of :data:`COLUMNS`, empty cells for nulls, ``true``/``false``.  Parquet:
    typed, nullable columns (string, int64, bool, float64).
    """
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".parquet"):
        raise BatchError(f"{out}: output must end in .csv or .parquet")
    rows = sorted(rows, key=row_sort_key)
    if suffix == ".csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(list(COLUMNS))
        cell = {None: "", True: "true", False: "false"}  # 0 == False: look up bools only
        for r in rows:
            vals = [r.get(c) for c in COLUMNS]
            writer.writerow([cell[v] if v is None or isinstance(v, bool) else v for v in vals])
        _write_atomic(out, buf.getvalue())
        return out
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"str": pa.string(), "int": pa.int64(), "bool": pa.bool_(), "float": pa.float64()}
    schema = pa.schema([pa.field(c, types[t], nullable=True) for c, t in COLUMNS.items()])
    table = pa.Table.from_pylist([{c: r.get(c) for c in COLUMNS} for r in rows], schema=schema)
    _write_atomic(out, lambda tmp: pq.write_table(table, tmp))
    return out


def read_table(path: str | Path) -> list[dict]:
    """Rows of a table :func:`write_table` wrote, with Python types (for checks and tests)."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    conv = {"str": str, "int": int, "float": float, "bool": lambda s: s == "true"}
    with open(path, newline="", encoding="utf-8") as fh:
        return [
            {c: (None if v == "" else conv[COLUMNS[c]](v)) for c, v in rec.items()}
            for rec in csv.DictReader(fh)
        ]
