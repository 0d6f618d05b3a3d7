"""The first run after an install: answers without waiting for the kernels to compile.

``eighteen solve`` with an empty numba cache answers from the CP-SAT model and compiles the
kernels in a detached background process (:mod:`routing.kernels`); once that wrote its
stamp, the next run solves with numba.  The commands here run with ``NUMBA_CACHE_DIR`` set
to an empty folder, as a fresh installation has.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from routing.kernels import ensure_kernels, kernels_cached, stamp_path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from engine.app.cli import main; main()"]
EXPECTED = 670  # engine/examples/1846-late.json, proven by numba and CP-SAT


def _solve(cache: Path) -> tuple[dict, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([*CLI, "solve", "--example", "1846-late", "--json"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout), out.stderr


def _stop_background(cache: Path) -> None:
    for lock in cache.glob("*.compiling"):
        pid = int(lock.read_text().split()[0])
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)  # its own session: the compiler and any child


def test_the_stamp_lives_in_the_cache_it_vouches_for(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not kernels_cached()
    assert stamp_path().parent == tmp_path and stamp_path().name.startswith("eighteen-kernels-")
    stamp_path().write_text("compiled\n")
    assert kernels_cached()
    # cached: nothing compiles and nobody is told it does
    assert ensure_kernels(lambda: pytest.fail("said it compiles")) is False
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not kernels_cached()


def test_a_first_run_answers_interpreted_while_the_kernels_compile(tmp_path):
    try:
        data, err = _solve(tmp_path)
        # the exact optimum, proven, by the search run interpreted (nothing to compile for
        # it), and said so
        assert data["total"] == EXPECTED and data["optimal"]
        assert data["stats"]["method"] == "auto"
        assert data["stats"]["kernels"] == "interpreted"
        assert "compiling in the background" in err
        locks = list(tmp_path.glob("*.compiling"))
        assert len(locks) == 1  # the background compile started
        # a second question while it runs starts no second compile, and is answered too
        again, _err = _solve(tmp_path)
        assert again["total"] == EXPECTED and list(tmp_path.glob("*.compiling")) == locks
    finally:
        _stop_background(tmp_path)


@pytest.mark.slow
def test_after_the_background_compile_the_next_run_uses_numba(tmp_path):
    try:
        _solve(tmp_path)
        deadline = time.monotonic() + 600
        while not list(tmp_path.glob("eighteen-kernels-*.ok")):
            assert time.monotonic() < deadline, "the background compile wrote no stamp"
            time.sleep(1)
        assert not list(tmp_path.glob("*.compiling"))  # it cleaned up after itself
        data, err = _solve(tmp_path)
        assert data["total"] == EXPECTED and data["stats"]["method"] == "auto"
        assert "background" not in err
    finally:
        _stop_background(tmp_path)


def test_a_kernel_cache_entry_is_stamped_with_every_kernel_source():
    """numba keeps a compiled kernel while its own file is unchanged, and a caller's machine
    code holds its callees: an edit to the route evaluator alone must not leave the route
    enumeration running the old evaluator from the cache.  So every kernel's cache entry is
    stamped with the digest of all the kernel modules."""
    from routing import _jit
    from routing.kernels import load_kernels

    load_kernels()
    tier = _jit.compiled()
    for dispatcher in (tier.enumerate_routes, tier.evaluate, tier.pack, tier.legs):
        locator = dispatcher._cache._impl.locator
        assert type(locator).__name__ == "KernelCacheLocator"
        assert locator.get_source_stamp() == _jit.source_digest()


def test_functions_that_are_not_kernels_keep_numba_s_own_cache_stamp(tmp_path):
    import importlib.util

    import numba

    from routing import _jit

    _jit.compiled()  # installs the locator
    path = tmp_path / "plain_numba_function.py"
    path.write_text("def twice(x):\n    return 2 * x\n")
    spec = importlib.util.spec_from_file_location("plain_numba_function", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    dispatcher = numba.njit(cache=True)(module.twice)
    assert dispatcher(4) == 8
    assert type(dispatcher._cache._impl.locator).__name__ != "KernelCacheLocator"
