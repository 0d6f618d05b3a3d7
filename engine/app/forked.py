"""Run independent jobs on forked copies of this process.

An analysis solves tens to hundreds of small route problems (a few milliseconds each) that
share everything the process has loaded: the compiled kernels, the game, the printed map and
the facts cached about it.  A forked copy inherits all of that for the price of the fork
(about 5 ms here), where a pool of fresh processes would load it again and a
:class:`concurrent.futures.ProcessPoolExecutor` pickles every task and result through its
queues.  So :func:`run_forked` forks ``workers - 1`` children, runs one share of the jobs
itself, and reads the children's results from one pipe each as they finish.

Forking copies only the calling thread; a lock another thread holds at that moment stays
held in the child forever.  :func:`fork_usable` is therefore false while any other thread
runs, and callers then run their jobs in this process.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import selectors
import signal
import struct
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["fork_usable", "run_forked"]

T = TypeVar("T")
_MISSING = object()  # a result not received yet

_HEADER = struct.Struct("<Q")  # byte length of the pickled frame that follows
#: Jobs per block: the shares are blocks of neighbouring jobs dealt out in turn, because
#: neighbouring candidates (lays on one hex) often build the same problem, which a worker
#: then solves once, while dealing many small blocks keeps the shares' costs even.
_BLOCKS_PER_WORKER = 4


def fork_usable() -> bool:
    """Can this process fork workers safely: ``os.fork`` exists and no other thread runs?"""
    return hasattr(os, "fork") and threading.active_count() == 1


def _shares(n_jobs: int, workers: int) -> list[list[int]]:
    """Job indices of each worker: blocks of neighbours dealt out round-robin."""
    size = max(1, -(-n_jobs // (workers * _BLOCKS_PER_WORKER)))
    shares: list[list[int]] = [[] for _ in range(workers)]
    for block, start in enumerate(range(0, n_jobs, size)):
        shares[block % workers].extend(range(start, min(start + size, n_jobs)))
    return shares


def _frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _child(
    jobs: Sequence[Callable[[], object]], share: list[int], out: int, inherited: list[int]
) -> None:
    """Run ``share`` and write ``(index, ok, value)`` frames to ``out``; never returns (so
    that nothing a child does can go on into the parent's code).  ``inherited``: the pipe
    ends of the parent's, closed first."""
    status = 1
    try:
        for fd in inherited:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent reports the interrupt
        with os.fdopen(out, "wb", buffering=0) as pipe:
            for i in share:
                try:
                    pipe.write(_frame((i, True, jobs[i]())))
                except Exception as exc:  # sent to the parent, which raises it
                    try:
                        frame = _frame((i, False, exc))
                    except Exception:  # an exception that does not pickle
                        frame = _frame((i, False, RuntimeError(f"{type(exc).__name__}: {exc}")))
                    pipe.write(frame)
                    break  # the parent stops at the first failure
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, no flush of the parent's buffers


class _Reader:
    """Frames of one child's pipe, read as they arrive."""

    def __init__(self, pid: int, fd: int, share: list[int]) -> None:
        self.pid, self.fd, self.share = pid, fd, share
        self.buffer = bytearray()
        self.open = True

    def read(self) -> list[tuple]:
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.open = False
        self.buffer += chunk
        frames = []
        while len(self.buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self.buffer)
            end = _HEADER.size + size
            if len(self.buffer) < end:
                break
            frames.append(pickle.loads(self.buffer[_HEADER.size : end]))
            del self.buffer[:end]
        return frames


def run_forked(
    jobs: Sequence[Callable[[], T]],
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[T]:
    """Every job's result, in order, computed by this process and ``workers - 1`` forks.

    Parameters
    ----------
    jobs : sequence of callables ``() -> result``
        Independent jobs whose results pickle.  The children inherit them with the rest of
        the process: the jobs themselves are never pickled.
    workers : int
        Processes in all, this one included (at least 1; at most one per job is used).
    progress : callable(done, total), optional
        Called in this process after each result arrives.

    Returns
    -------
    list
        ``jobs[i]()`` at index ``i``.  The jobs of a child that dies before it sends their
        results, or of a fork the system refuses, are run in this process.

    Raises
    ------
    Exception
        The first exception a job raised (in whichever process ran it); the other children
        are stopped first.
    """
    total = len(jobs)
    workers = max(1, min(int(workers), total))
    results: list = [_MISSING] * total
    done = 0

    def record(i: int, ok: bool, value: object) -> None:
        nonlocal done
        if not ok:
            raise value  # type: ignore[misc]
        results[i] = value
        done += 1
        if progress is not None:
            progress(done, total)

    shares = _shares(total, workers)
    readers: list[_Reader] = []
    selector = selectors.DefaultSelector()
    # frozen, the inherited objects are left out of the children's collections, whose
    # reference scans would otherwise copy their pages; a caller's own freeze is left alone
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    unforked: list[int] = []  # the jobs of forks the system refused (no processes left)
    try:
        for share in shares[1:]:
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:
                os.close(read_end)
                os.close(write_end)
                unforked += share
                continue
            if pid == 0:
                _child(jobs, share, write_end, [read_end, *(other.fd for other in readers)])
            os.close(write_end)
            reader = _Reader(pid, read_end, share)
            readers.append(reader)
            selector.register(read_end, selectors.EVENT_READ, reader)
        if freeze:
            gc.unfreeze()
            freeze = False

        def drain(timeout: float | None) -> None:
            for key, _events in selector.select(timeout):
                reader = key.data
                for i, ok, value in reader.read():
                    record(i, ok, value)
                if not reader.open:
                    selector.unregister(reader.fd)

        for i in shares[0]:
            record(i, True, jobs[i]())
            if readers:
                drain(0)
        while selector.get_map():
            drain(None)
    finally:
        if freeze:
            gc.unfreeze()
        selector.close()
        for reader in readers:
            if reader.open:
                _stop(reader.pid)
            os.close(reader.fd)
            _reap(reader.pid)
    # a child that died early (killed, out of memory) left some of its jobs undone
    for i in [*unforked, *(i for reader in readers for i in reader.share)]:
        if results[i] is _MISSING:
            record(i, True, jobs[i]())
    return results


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
