"""engine.app.forked: jobs on forked copies of the process, results in order, failures
raised, dead children's jobs run again, no fork while another thread runs."""

from __future__ import annotations

import functools
import os
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.app.forked import _blocks, fork_usable, run_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _square_with_pid(i: int, pause: float = 0.0) -> tuple[int, int]:
    time.sleep(pause)
    return i * i, os.getpid()


def test_results_come_back_in_order_from_every_process():
    # 40 jobs of 5 ms: long enough that both forks start while jobs are left to take
    jobs = [functools.partial(_square_with_pid, i, 0.005) for i in range(40)]
    out = run_forked(jobs, 3)
    assert [value for value, _pid in out] == [i * i for i in range(40)]
    pids = {pid for _value, pid in out}
    assert os.getpid() in pids and len(pids) == 3


def test_a_process_with_slower_jobs_takes_fewer():
    # The jobs this process runs take 20 ms, a child's 2 ms: taking blocks from the queue
    # when free, the child runs most of them, and the run takes far less than the 60 jobs
    # would take here (1.2 s), or than an even split would (30 x 20 ms = 0.6 s).
    parent = os.getpid()
    jobs = [functools.partial(_slow_here, parent, i) for i in range(60)]
    start = time.perf_counter()
    out = run_forked(jobs, 2)
    elapsed = time.perf_counter() - start
    assert [i for i, _pid in out] == list(range(60))
    here = sum(1 for _i, pid in out if pid == parent)
    assert here < 20, here
    assert elapsed < 0.5, elapsed


def _slow_here(parent: int, i: int) -> tuple[int, int]:
    time.sleep(0.02 if os.getpid() == parent else 0.002)
    return i, os.getpid()


@settings(max_examples=20, deadline=None)
@given(n_jobs=st.integers(0, 30), workers=st.integers(1, 5))
def test_any_split_gives_what_a_loop_gives(n_jobs, workers):
    jobs = [functools.partial(pow, i, 3) for i in range(n_jobs)]
    assert run_forked(jobs, workers) == [i**3 for i in range(n_jobs)]
    blocks = _blocks(n_jobs, workers)
    # consecutive, covering every job once, and never longer as the queue empties
    assert [i for block in blocks for i in block] == list(range(n_jobs))
    sizes = [len(block) for block in blocks]
    assert all(size > 0 for size in sizes) and sizes == sorted(sizes, reverse=True)


def test_blocks_shrink_to_single_jobs_and_fit_the_queue():
    # 89 jobs, 2 workers: each block a quarter of what is left, rounded up:
    # 23 (66 left), 17 (49), 13 (36), 9 (27), 7 (20), 5 (15), 4 (11), 3 (8), 2 (6), 2 (4),
    # 1, 1, 1, 1
    assert [len(b) for b in _blocks(89, 2)] == [23, 17, 13, 9, 7, 5, 4, 3, 2, 2, 1, 1, 1, 1]
    # a million jobs still make few enough blocks for a pipe's buffer (4 bytes each)
    assert len(_blocks(1_000_000, 64)) * 4 <= 1 << 15


def test_progress_counts_every_result_once():
    seen = []
    run_forked([functools.partial(abs, -i) for i in range(25)], 2, lambda d, t: seen.append((d, t)))
    assert seen == [(d, 25) for d in range(1, 26)]


def _fails_in_a_child(parent: int, i: int) -> int:
    time.sleep(0.005)  # so that the child starts while jobs are left to take
    if os.getpid() != parent:
        raise KeyError(f"job {i} in a child")
    return i


def test_a_child_s_exception_is_raised_here_and_no_child_is_left_behind(monkeypatch):
    forked = []

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    real_fork = os.fork
    monkeypatch.setattr(os, "fork", fork)
    parent = os.getpid()
    jobs = [functools.partial(_fails_in_a_child, parent, i) for i in range(40)]
    with pytest.raises(KeyError, match="in a child"):
        run_forked(jobs, 2)
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # the child was reaped


def _dies_in_a_child(parent: int, i: int) -> int:
    time.sleep(0.005)
    if os.getpid() != parent:
        os._exit(3)  # a worker killed mid-way: no result, no exception
    return -i


def test_the_jobs_of_a_child_that_dies_are_run_here():
    parent = os.getpid()
    jobs = [functools.partial(_dies_in_a_child, parent, i) for i in range(40)]
    assert run_forked(jobs, 2) == [-i for i in range(40)]


def test_no_fork_while_another_thread_runs():
    # the test process may run threads of its own (other tests' servers and clusters)
    assert fork_usable() == (threading.active_count() == 1)
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not fork_usable()
    finally:
        release.set()
        thread.join()
    assert fork_usable() == (threading.active_count() == 1)


def test_the_run_leaves_the_collector_as_it_found_it():
    import gc

    jobs = [functools.partial(abs, -i) for i in range(8)]
    assert gc.get_freeze_count() == 0
    run_forked(jobs, 2)
    assert gc.get_freeze_count() == 0  # frozen for the forks only
    gc.freeze()  # a caller's own freeze stays
    try:
        frozen = gc.get_freeze_count()
        run_forked(jobs, 2)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_the_jobs_of_a_refused_fork_are_run_here(monkeypatch):
    def refuse() -> int:
        raise BlockingIOError("fork: Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    parent = os.getpid()
    out = run_forked([functools.partial(_square_with_pid, i) for i in range(10)], 3)
    assert out == [(i * i, parent) for i in range(10)]
