"""engine.app.forked: jobs on forked copies of the process, results in order, failures
raised, dead children's jobs run again, no fork while another thread runs."""

from __future__ import annotations

import functools
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.app.forked import _shares, fork_usable, run_forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _square_with_pid(i: int) -> tuple[int, int]:
    return i * i, os.getpid()


def test_results_come_back_in_order_from_every_process():
    jobs = [functools.partial(_square_with_pid, i) for i in range(40)]
    out = run_forked(jobs, 3)
    assert [value for value, _pid in out] == [i * i for i in range(40)]
    pids = {pid for _value, pid in out}
    # this process ran one share, two forks the others
    assert os.getpid() in pids and len(pids) == 3


@settings(max_examples=20, deadline=None)
@given(n_jobs=st.integers(0, 30), workers=st.integers(1, 5))
def test_any_split_gives_what_a_loop_gives(n_jobs, workers):
    jobs = [functools.partial(pow, i, 3) for i in range(n_jobs)]
    assert run_forked(jobs, workers) == [i**3 for i in range(n_jobs)]
    shares = _shares(n_jobs, workers)
    assert sorted(i for share in shares for i in share) == list(range(n_jobs))


def test_progress_counts_every_result_once():
    seen = []
    run_forked([functools.partial(abs, -i) for i in range(25)], 2, lambda d, t: seen.append((d, t)))
    assert seen == [(d, 25) for d in range(1, 26)]


def _fails_in_a_child(parent: int, i: int) -> int:
    if os.getpid() != parent and i == 4:
        raise KeyError(f"job {i}")
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
    jobs = [functools.partial(_fails_in_a_child, parent, i) for i in range(24)]
    # with 2 workers, 24 jobs make 8 blocks of 3: blocks 1, 3, 5, 7 (jobs 3-5, ...) are the
    # child's share
    assert 4 in _shares(24, 2)[1]
    with pytest.raises(KeyError, match="job 4"):
        run_forked(jobs, 2)
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # the child was reaped


def _dies_in_a_child(parent: int, i: int) -> int:
    if os.getpid() != parent:
        os._exit(3)  # a worker killed mid-way: no result, no exception
    return -i


def test_the_jobs_of_a_child_that_dies_are_run_here():
    parent = os.getpid()
    jobs = [functools.partial(_dies_in_a_child, parent, i) for i in range(12)]
    assert run_forked(jobs, 2) == [-i for i in range(12)]


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
