"""Are the search's compiled kernels cached, and compiling them ahead of the first solve.

The numba kernels compile on the first solve after an install (about 30 s of CPU on one
core) and are then loaded from numba's on-disk cache (``cache=True``).  A command that
answers one question should not make its user wait for that, so :func:`kernels_cached`
tells whether this installation's kernels are in the cache, and :func:`compile_in_background`
starts a detached process that compiles them (``python -m routing.kernels``) while the
caller answers with the CP-SAT model, which needs no compilation.

Whether the kernels are cached is recorded by a stamp file next to numba's cache, named by
a digest of the kernel modules' sources: a changed source (an upgrade, an edit) has no
stamp, so it counts as not cached until a solve compiled it again.  The stamp is written
after a numba solve compiled or loaded every kernel (:func:`compile_kernels`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from ._jit import compiled_loaded, kernels_cached, stamp_path

__all__ = [
    "kernels_cached",
    "compile_kernels",
    "ensure_kernels",
    "load_kernels",
    "compile_in_background",
    "stamp_path",
]

_HERE = Path(__file__).resolve().parent
#: A background compile that started less than this many seconds ago is still running (or
#: died): no second one is started before.
_LOCK_SECONDS = 600.0


def _write_stamp() -> None:
    path = stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(f"compiled {time.strftime('%Y-%m-%dT%H:%M:%S')}\n")
        os.replace(temporary, path)
    except OSError:
        pass  # a read-only cache: every run then compiles, as numba itself would


def compile_kernels() -> None:
    """Compile (or load) every kernel of the numba search and record that they are cached.

    One exact solve of a small board with two train kinds reaches every kernel: the route
    enumeration, its evaluation, the leg builder, the counters and the packing.  Afterwards
    this process runs the compiled kernels.
    """
    from . import solve
    from .synthetic import synthetic_problem

    problem = synthetic_problem(seed=0, cols=5, rows=4)
    solution = solve(problem, method="numba", kernels="compiled")
    if solution.optimal and not kernels_cached():
        _write_stamp()


def ensure_kernels(before_compiling: Callable[[], None] | None = None) -> bool:
    """:func:`compile_kernels` unless :func:`kernels_cached`, calling ``before_compiling``
    first (a message to the user); returns whether it compiled."""
    if kernels_cached():
        return False
    if before_compiling is not None:
        before_compiling()
    compile_kernels()
    return True


def load_kernels(before_compiling: Callable[[], None] | None = None) -> None:
    """Load the compiled kernels into this process now (compiling them first, after
    ``before_compiling``, unless they are cached): for a process that will solve many
    problems, which the interpreted tier (:mod:`routing._jit`) would only slow down."""
    if not ensure_kernels(before_compiling) and not compiled_loaded():
        compile_kernels()


def compile_in_background() -> bool:
    """Start ``python -m routing.kernels`` detached from this process (its own session,
    no terminal output), unless one started in the last ten minutes.  Returns whether one
    was started."""
    lock = stamp_path().with_suffix(".compiling")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        if lock.is_file() and time.time() - lock.stat().st_mtime < _LOCK_SECONDS:
            return False
        process = subprocess.Popen(
            [sys.executable, "-m", "routing.kernels"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env={**os.environ, "PYTHONPATH": _pythonpath()},
        )  # fmt: skip
        lock.write_text(f"{process.pid}\n")
    except OSError:
        return False
    return True


def _pythonpath() -> str:
    """The child must import this ``routing`` (a source checkout may not be installed)."""
    root = str(_HERE.parent)
    rest = os.environ.get("PYTHONPATH", "")
    return root if not rest else f"{root}{os.pathsep}{rest}"


def _main() -> None:
    lock = stamp_path().with_suffix(".compiling")
    try:
        compile_kernels()
    finally:
        with contextlib.suppress(OSError):
            lock.unlink()


if __name__ == "__main__":
    _main()
