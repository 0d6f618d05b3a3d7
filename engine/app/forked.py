"""Run independent jobs on forked copies of this process.

An analysis solves tens to hundreds of small route problems (a few milliseconds each) that
share everything the process has loaded: the compiled kernels, the game, the printed map and
the facts cached about it.  A forked copy inherits all of that for the price of the fork
(about 5 ms here), where a pool of fresh processes would load it again and a
:class:`concurrent.futures.ProcessPoolExecutor` pickles every task and result through its
queues.  So :func:`run_forked` forks ``workers - 1`` children, runs jobs itself as well,
and reads the children's results from one pipe each as they finish.

The jobs are not dealt out in advance: every process takes the next block of neighbouring
jobs from a shared queue when it is free, so a process whose jobs turn out slower takes
fewer of them.  The queue is a pipe filled with block numbers before the forks: a read of
one number from a pipe is atomic, so each block goes to exactly one process.  The blocks
shrink as the queue empties (guided scheduling): the first ones are long, so that lays
on one hex, which often build the same problem, go to one process and are solved once,
and the last ones are single jobs, so that the processes finish together.

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
_TICKET = struct.Struct("<I")  # a block number in the queue
#: At most this many blocks, so that the queue fits a pipe's buffer (64 KiB on Linux) and
#: filling it never blocks.
_MAX_BLOCKS = 8192


def fork_usable() -> bool:
    """Can this process fork workers safely: ``os.fork`` exists and no other thread runs?"""
    return hasattr(os, "fork") and threading.active_count() == 1


def _blocks(n_jobs: int, workers: int) -> list[range]:
    """Consecutive blocks of job indices, each ``1 / (2 * workers)`` of the jobs left
    (guided scheduling), so from long runs of neighbours down to single jobs."""
    smallest = max(1, -(-n_jobs // _MAX_BLOCKS))
    blocks = []
    start = 0
    while start < n_jobs:
        size = max(smallest, -(-(n_jobs - start) // (2 * workers)))
        blocks.append(range(start, min(start + size, n_jobs)))
        start += size
    return blocks


def _next_block(queue: int, blocks: list[range]) -> range | None:
    """The next block nobody has taken, or None once the queue is empty."""
    ticket = os.read(queue, _TICKET.size)
    if len(ticket) < _TICKET.size:
        return None  # every write end is closed and every ticket taken
    return blocks[_TICKET.unpack(ticket)[0]]


def _frame(obj: object) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


def _child(
    jobs: Sequence[Callable[[], object]],
    queue: int,
    blocks: list[range],
    out: int,
    inherited: list[int],
) -> None:
    """Run the blocks taken from ``queue`` and write ``(index, ok, value)`` frames to
    ``out``; never returns (so that nothing a child does can go on into the parent's
    code).  ``inherited``: the pipe ends of the parent's, closed first."""
    status = 1
    try:
        for fd in inherited:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # the parent reports the interrupt
        with os.fdopen(out, "wb", buffering=0) as pipe:
            while (block := _next_block(queue, blocks)) is not None:
                for i in block:
                    try:
                        pipe.write(_frame((i, True, jobs[i]())))
                    except Exception as exc:  # sent to the parent, which raises it
                        try:
                            frame = _frame((i, False, exc))
                        except Exception:  # an exception that does not pickle
                            error = RuntimeError(f"{type(exc).__name__}: {exc}")
                            frame = _frame((i, False, error))
                        pipe.write(frame)
                        return  # the parent stops at the first failure (status stays 1)
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, no flush of the parent's buffers


class _Reader:
    """Frames of one child's pipe, read as they arrive."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
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
        ``jobs[i]()`` at index ``i``.  The jobs a child took but died before it sent (killed,
        out of memory) are run in this process; a fork the system refuses leaves one
        process fewer to take jobs.

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

    blocks = _blocks(total, workers)
    queue, feed = os.pipe()
    try:
        os.write(feed, b"".join(_TICKET.pack(b) for b in range(len(blocks))))
    finally:
        os.close(feed)  # closed before the forks: an empty queue then reads as its end
    readers: list[_Reader] = []
    selector = selectors.DefaultSelector()
    # frozen, the inherited objects are left out of the children's collections, whose
    # reference scans would otherwise copy their pages; a caller's own freeze is left alone
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        for _child_number in range(workers - 1):
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:  # no processes left: this one and the forks made take the jobs
                os.close(read_end)
                os.close(write_end)
                break
            if pid == 0:
                _child(jobs, queue, blocks, write_end,
                       [read_end, *(other.fd for other in readers)])  # fmt: skip
            os.close(write_end)
            reader = _Reader(pid, read_end)
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

        while (block := _next_block(queue, blocks)) is not None:
            for i in block:
                record(i, True, jobs[i]())
                if readers:
                    drain(0)
        while selector.get_map():
            drain(None)
    finally:
        if freeze:
            gc.unfreeze()
        selector.close()
        os.close(queue)
        for reader in readers:
            if reader.open:
                _stop(reader.pid)
            os.close(reader.fd)
            _reap(reader.pid)
    # a child that died early (killed, out of memory) left some of the jobs it took undone
    for i, result in enumerate(results):
        if result is _MISSING:
            record(i, True, jobs[i]())
    return results


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
