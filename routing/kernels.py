"""Are the search's compiled kernels cached, and compiling them ahead of the first solve.

The numba kernels compile on the first solve after an install (about 30 s of CPU on one
core) and are then loaded from numba's on-disk cache (``cache=True``).  On 64-bit Linux
they are also compiled ahead of time into an extension module (:mod:`routing._ahead`,
about a minute more), which a fresh process loads in milliseconds.  A command that
answers one question should not make its user wait for either, so :func:`kernels_cached`
and :func:`ahead_built` tell whether this installation has them, and
:func:`compile_in_background` starts a detached process that builds both
(``python -m routing.kernels``) while the caller answers with the interpreted search,
which needs no compilation.

Whether the kernels are cached is recorded by a stamp file next to numba's cache, named by
a digest of the kernel modules' sources: a changed source (an upgrade, an edit) has no
stamp, so it counts as not cached until a solve compiled it again.  The stamp is written
after a numba solve compiled or loaded every kernel (:func:`compile_kernels`).  The ahead
module is named by the same digest.
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
    "build_ahead",
    "ahead_built",
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
    from ._ahead import write_atomically

    path = stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, f"compiled {time.strftime('%Y-%m-%dT%H:%M:%S')}\n".encode())
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


def ahead_built() -> bool:
    """True when this installation's kernels compiled ahead of time are built for this
    processor (a process then runs them at once, :mod:`routing._ahead`)."""
    from ._jit import ahead

    return ahead() is not None


def build_ahead() -> Path | None:
    """Build the kernels compiled ahead of time (:mod:`routing._ahead`) unless they are
    built, on a platform that has them; returns where they are, or None.

    About a minute of one core.  One process builds at a time (a lock file beside the
    module; another process that wants it waits, then finds it built), and the module is
    written under a temporary name and renamed into place, so a reader sees the whole
    module or none.
    """
    import fcntl

    from ._ahead import module_name, supported
    from ._jit import ahead_path, source_digest

    if not supported():
        return None
    path = ahead_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f"{module_name(source_digest())}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.is_file():
            _build_ahead(path)
    return path


def _record_signatures() -> dict[str, tuple]:
    """The argument types of every exported entry point, recorded while the interpreted
    tier solves a small board, whose trains reach every kernel."""
    import numpy as np

    from . import solve
    from ._ahead import type_code
    from ._jit import AHEAD_EXPORTS, ENTRY_POINTS, Kernels, bind_kernels
    from .interrupt import clock
    from .synthetic import synthetic_problem

    seen: dict[str, set[tuple]] = {}

    def record(twin: Callable, options: dict) -> Callable:
        def run(*args):
            seen.setdefault(twin.__name__, set()).add(tuple(type_code(a) for a in args))
            return twin(*args)

        return run

    by_name = bind_kernels(record, clock)
    kernels = Kernels("recording", **{n: by_name[n] for n in ENTRY_POINTS})
    with np.errstate(over="ignore"):
        solve(synthetic_problem(seed=0, cols=5, rows=4), method="numba", kernels=kernels)
    signatures = {}
    for name in AHEAD_EXPORTS:
        found = seen.get(name, set())
        if len(found) != 1:  # one export, one signature: the callers must agree on types
            raise RuntimeError(f"kernel {name} was called with {len(found)} signatures")
        signatures[name] = next(iter(found))
    return signatures


def _numba_type(code: tuple):
    import numpy as np
    from numba.core import types
    from numba.np.numpy_support import from_dtype

    if code[0] != "array":
        return {"int64": types.int64, "float64": types.float64, "bool": types.boolean}[code[0]]
    return types.Array(from_dtype(np.dtype(code[1])), code[2], "C", readonly=not code[3])


def _build_ahead(path: Path) -> None:
    import tempfile
    import warnings

    from ._ahead import module_name, processor, signature_path, write_atomically
    from ._clock import compiled_clock
    from ._jit import bind_kernels, import_numba, source_digest

    signatures = _record_signatures()
    numba = import_numba()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba marks pycc as pending deprecation
        from numba.pycc import CC
    import llvmlite.binding

    by_name = bind_kernels(lambda twin, options: numba.njit(**options)(twin), compiled_clock())
    name = module_name(source_digest())
    with tempfile.TemporaryDirectory(prefix="eighteen-ahead-") as work:
        compiler = CC(name)
        compiler.output_dir = work
        # built where it runs (in the background after an install), so for this processor,
        # as numba's own compiler does; the loader refuses a build for another one
        compiler.target_cpu = numba.core.config.CPU_NAME or llvmlite.binding.get_host_cpu_name()
        compiler.verbose = False
        for kernel, codes in signatures.items():
            argument_types = tuple(_numba_type(code) for code in codes)
            compiler.export(kernel, argument_types)(by_name[kernel].py_func)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiler.compile()
        built = next(Path(work).glob(f"{name}*"))
        # the signatures first: the module is what says the tier is built
        record = {"processor": processor(), "signatures": signatures}
        write_atomically(signature_path(path.parent, source_digest()), repr(record).encode())
        write_atomically(path, built.read_bytes())


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
        build_ahead()
    finally:
        with contextlib.suppress(OSError):
            lock.unlink()


if __name__ == "__main__":
    _main()
