"""The search's kernels, written once in Python and run in three tiers.

A kernel is a plain function over arrays, marked with :func:`kernel`.  Its module keeps it
plain, so the interpreter can run it as written: the *interpreted* tier, which needs
neither numba nor any loading.  :func:`compiled` makes the *compiled* tier: a numba
dispatcher (``njit(cache=True)``) for every kernel, each compiled from a copy of the
kernel whose globals name the other kernels' dispatchers (:func:`bind_kernels`).
:func:`ahead` loads the *ahead* tier: the same copies compiled ahead of time into an
extension module (:mod:`routing._ahead`).  Every tier runs the same source on the same
arrays and gives the same answers (``tests/test_tiers.py``); numba's integers wrap on
overflow, so the interpreted tier runs with NumPy's overflow warnings off.

Why three tiers: the compiled kernels are much faster per solve, but a process pays for
them once before its first compiled solve: importing numba and loading them from numba's
cache (about 0.6 s, ``benchmarks/test_bench_compile.py``), or compiling them after an
install (about 30 s of CPU).  The ahead tier loads in milliseconds and runs almost as fast,
but exists only once it was built (in the background after an install, 64-bit Linux only).
So :func:`run_tiered` follows the ski-rental rule: a process solves with the ahead tier, or
without it interpreted, until what that choice has cost it over the compiled tier reaches
what loading the compiled tier would cost, and then loads the compiled tier for good.  A
solve the interpreter does not finish within what is left of its allowance is cut short and
run again compiled.  Either way the process spends at most about twice what the better
choice, made in hindsight, would have cost it.
"""

from __future__ import annotations

import hashlib
import math
import os
import sys
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, wraps
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

__all__ = [
    "KERNEL_CHOICES",
    "Kernels",
    "kernel",
    "ENTRY_POINTS",
    "bind_kernels",
    "interpreted",
    "compiled",
    "ahead",
    "ahead_path",
    "load_ahead",
    "AHEAD_EXPORTS",
    "import_numba",
    "cache_dir",
    "source_digest",
    "compiled_loaded",
    "current",
    "run_tiered",
    "interpreter_allowance",
    "ahead_allowance",
    "kernels_cached",
    "stamp_path",
]

#: The ``kernels`` argument of the solvers: ``"auto"`` (the rule above), ``"ahead"``,
#: ``"compiled"`` or ``"interpreted"`` (that tier only).
KERNEL_CHOICES = ("auto", "ahead", "compiled", "interpreted")
#: What loading the compiled tier costs a fresh process when numba's cache holds the
#: kernels (import and load: the difference of the two fresh-process figures above), and
#: when it does not (a compile, about 30 s): the interpreter's allowance under the
#: ski-rental rule.
LOAD_SECONDS = 0.6
COMPILE_SECONDS = 30.0
#: How much longer a solve takes with the ahead tier than with the compiled one, about a
#: tenth (``benchmarks/test_bench_compile.py::test_ahead_against_compiled_in_process``): the
#: same source, but each ahead entry point checks its arguments in Python.  Under the
#: ski-rental rule a process solves with the ahead tier until what it has lost by that,
#: ``AHEAD_SLOWDOWN`` of its ahead-tier time, reaches what loading the compiled tier costs.
AHEAD_SLOWDOWN = 0.1

F = TypeVar("F", bound=Callable[..., Any])
_HERE = Path(__file__).resolve().parent

#: Every kernel with its numba options, in definition order.
_REGISTRY: list[tuple[Callable, dict]] = []
#: The kernel modules, imported (and so registered) by :func:`_registered`.
_MODULES = ("_buffers", "_count", "_evaluate", "_legs", "_enumerate", "_pack")


def kernel(
    func: F | None = None, *, inline: str | None = None, allocates: bool = True
) -> F | Callable[[F], F]:
    """Mark ``func`` as a kernel and return it unchanged.

    ``@kernel``, or with options: ``inline="always"`` has numba inline it into its callers;
    ``allocates=False`` says it creates no array (it may slice the ones it is given), so
    numba compiles it without reference counting.  That matters for a kernel called once
    per route: numba counts a reference to every array argument and every slice on each
    call, with an atomic add and subtract apiece, and in the route enumeration those were
    the hottest instructions.
    """

    def mark(f: F) -> F:
        options: dict = {} if inline is None else {"inline": inline}
        if not allocates:
            options["_nrt"] = False
        _REGISTRY.append((f, options))
        return f

    return mark if func is None else mark(func)


@dataclass(frozen=True)
class Kernels:
    """One tier's kernels that Python code calls."""

    tier: str
    legs: Callable
    enumerate_routes: Callable
    evaluate: Callable
    scratch_words: Callable
    pack: Callable
    #: The stop counters, for their own tests (the search calls them inside ``evaluate``);
    #: None in the ahead tier, which does not export them.
    count_rows: Callable | None
    count_single: Callable | None


ENTRY_POINTS = tuple(name for name in Kernels.__dataclass_fields__ if name != "tier")


def _registered() -> dict[str, types.ModuleType]:
    """The kernel modules by name, imported (so every kernel is registered)."""
    import importlib

    package = __name__.rpartition(".")[0]
    return {name: importlib.import_module(f"{package}.{name}") for name in _MODULES}


def _quiet(func: Callable) -> Callable:
    """``func`` with NumPy's overflow warnings off: numba's integers wrap silently, and the
    kernels rely on it (a popcount multiplies past 2**64)."""

    @wraps(func)
    def run(*args):
        with np.errstate(over="ignore"):
            return func(*args)

    return run


_interpreted: Kernels | None = None
_compiled: Kernels | None = None
#: Seconds this process has spent solving with the interpreted tier under ``"auto"``.
_interpreted_seconds = 0.0
#: Seconds this process has spent solving with the ahead tier under ``"auto"``.
_ahead_seconds = 0.0


def interpreted() -> Kernels:
    """The interpreted tier."""
    global _interpreted
    if _interpreted is None:
        _registered()
        plain = {func.__name__: func for func, _ in _REGISTRY}
        _interpreted = Kernels("interpreted", **{n: _quiet(plain[n]) for n in ENTRY_POINTS})
    return _interpreted


def compiled() -> Kernels:
    """The compiled tier (imports numba; each dispatcher loads its kernel from numba's cache,
    or compiles it, on its first call)."""
    global _compiled
    if _compiled is None:
        _compiled = _compile_tier()
    return _compiled


def import_numba() -> types.ModuleType:
    """``numba``, imported without SciPy's BLAS when nothing imported that yet.

    numba imports ``scipy.linalg`` while it sets up (0.2-0.35 s, a third of loading the
    kernels into a fresh process) only to decide whether ``np.correlate`` and
    ``np.convolve`` may call BLAS; the kernels call neither.  So that one import is made to
    fail while numba sets up, and is allowed again at once: ``np.dot`` and the rest of
    numba's linear algebra import SciPy when they are compiled, as before.
    """
    name = "scipy.linalg.cython_blas"
    blocked = name not in sys.modules
    if blocked:
        sys.modules[name] = None  # type: ignore[assignment] - "import fails", by design
    try:
        import numba
        import numba.np.arraymath  # noqa: F401 - where numba makes that decision
    finally:
        if blocked and sys.modules.get(name, False) is None:
            del sys.modules[name]
    return numba


def _locate_kernels_by_digest() -> None:
    """Make numba's cache judge a kernel by every kernel module's source, not its own file's.

    numba keeps a compiled function as long as its own source file is unchanged, and a
    caller's machine code holds the callees it was compiled with: an edit to the route
    evaluator alone would leave the route enumeration running the old evaluator from the
    cache, a silently wrong search.  So a kernel's cache entry is stamped with the digest
    of all the kernel modules (:func:`source_digest`); numba still chooses where it lives.
    """
    from numba.core import caching

    # numba's own classes (CacheImpl was _CacheImpl in older releases); without them numba
    # judges each kernel by its own file, as it always did
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    base = getattr(caching, "_CacheLocator", None)
    locators = getattr(impl, "_locator_classes", None)
    if base is None or not isinstance(locators, list):
        return

    class KernelCacheLocator(base):
        def __init__(self, located: Any) -> None:
            self._located = located

        def ensure_cache_path(self) -> None:
            self._located.ensure_cache_path()

        def get_cache_path(self) -> str:
            return self._located.get_cache_path()

        def get_source_stamp(self) -> str:
            return source_digest()

        def get_disambiguator(self) -> str:
            return self._located.get_disambiguator()

        @classmethod
        def from_function(cls, py_func: Callable, py_file: str) -> Any:
            if not getattr(py_func, "_routing_kernel", False):
                return None
            for locator in locators:
                if locator is not cls:
                    located = locator.from_function(py_func, py_file)
                    if located is not None:
                        return cls(located)
            return None

    if not any(c.__name__ == "KernelCacheLocator" for c in locators):
        locators.insert(0, KernelCacheLocator)


def bind_kernels(decorate: Callable[[Callable, dict], Any], clock: Any) -> dict[str, Any]:
    """Every kernel as ``decorate(copy, options)`` makes it, by name.

    Each copy runs the kernel's code with a copy of its module's globals in which the other
    kernels' names are bound to what ``decorate`` made of them, and the deadline check
    (:func:`routing.interrupt.clock`) to ``clock``: how the compiled tiers turn the plain
    functions into numba functions that call each other, and how
    :func:`routing.kernels.build_ahead` records the types each entry point is called with.
    """
    from .interrupt import clock as interpreted_clock

    modules = _registered()
    # each kernel module's namespace, copied: the copies name the decorated kernels where
    # the modules themselves keep the plain functions the interpreted tier runs
    namespaces = {m.__name__: dict(vars(m)) for m in modules.values()}
    # by the plain function's id (a namespace also holds unhashable values); the plain
    # function is kept beside its decorated copy to check that an id is that function's
    decorated: dict[int, tuple[Callable, Any]] = {}
    for func, options in _REGISTRY:
        namespace = namespaces[func.__module__]
        twin = types.FunctionType(
            func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__
        )
        twin.__qualname__, twin.__doc__ = func.__qualname__, func.__doc__
        twin.__module__ = func.__module__  # numba's cache is named by module and qualname
        twin._routing_kernel = True  # type: ignore[attr-defined] - see _locate_kernels_by_digest
        decorated[id(func)] = (func, decorate(twin, options))
    for namespace in namespaces.values():
        for name, value in namespace.items():
            plain, made = decorated.get(id(value), (None, None))
            if plain is value:
                namespace[name] = made
            elif value is interpreted_clock:
                namespace[name] = clock
    return {func.__name__: made for func, made in decorated.values()}


def _compile_tier() -> Kernels:
    numba = import_numba()
    _locate_kernels_by_digest()
    from ._clock import compiled_clock

    by_name = bind_kernels(
        lambda twin, options: numba.njit(cache=True, **options)(twin),
        compiled_clock(cache=True),
    )
    return Kernels("compiled", **{name: by_name[name] for name in ENTRY_POINTS})


# ---------------------------------------------------------------- is the compiled tier cached
def cache_dir() -> Path:
    """Where numba keeps this package's kernels: ``NUMBA_CACHE_DIR`` if set, else the
    package's ``__pycache__`` when it is writable, else the user's cache."""
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:
        return Path(override)
    here = _HERE / "__pycache__"
    if os.access(here if here.is_dir() else _HERE, os.W_OK):
        return here
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "eighteen"


@cache
def source_digest() -> str:
    """A digest of the kernel modules' sources (``routing/_*.py``) and the interpreter."""
    digest = hashlib.blake2b(digest_size=8)
    digest.update(sys.version.encode())
    for path in sorted(_HERE.glob("_*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def stamp_path() -> Path:
    """The file that says this installation's kernels are cached (written by
    :func:`routing.kernels.compile_kernels`)."""
    return cache_dir() / f"eighteen-kernels-{source_digest()}.ok"


def kernels_cached() -> bool:
    """True when the kernels of this installation were compiled into numba's cache (a
    process can load them instead of compiling them)."""
    return stamp_path().is_file()


# --------------------------------------------------------------------------- which tier runs
def compiled_loaded() -> bool:
    """True once this process loaded (or compiled) the compiled tier's route enumeration."""
    return _compiled is not None and bool(_compiled.enumerate_routes.overloads)


#: The entry points the ahead module exports: every one the solvers call.  The stop counters
#: (``count_rows``, ``count_single``) are inlined into :func:`routing._evaluate.evaluate` and
#: not exported: exporting them beside it breaks the typing of ``evaluate`` in numba's
#: ahead-of-time compiler (0.68), and only their own tests call them directly.
AHEAD_EXPORTS = tuple(n for n in ENTRY_POINTS if n not in ("count_rows", "count_single"))


def ahead_path() -> Path:
    """Where this installation's ahead tier lives (it may not be built)."""
    from ._ahead import extension_path

    return extension_path(cache_dir(), source_digest())


def load_ahead() -> Kernels | None:
    """The ahead tier loaded from the kernel cache now, or None (:func:`routing._ahead.load`)."""
    from ._ahead import load

    functions = load(cache_dir(), source_digest(), AHEAD_EXPORTS)
    if functions is None:
        return None
    return Kernels("ahead", **functions, count_rows=None, count_single=None)


def ahead() -> Kernels | None:
    """The ahead tier (:mod:`routing._ahead`) if it is built for these kernel sources and
    this processor."""
    global _ahead, _ahead_refused
    if _ahead is None and not _ahead_refused:
        _ahead = load_ahead()
        # built but not loadable here (another processor, turned off): not asked again;
        # not built yet: asked again next time (a stat), a background build may finish
        _ahead_refused = _ahead is None and ahead_path().is_file()
    return _ahead


_ahead: Kernels | None = None
_ahead_refused = False


def current() -> Kernels:
    """The fastest tier this process can run without loading anything slow: the compiled
    one if it is loaded, else the ahead one if it is built, else the interpreted one (for
    work too small to be worth loading for, such as scoring a player's routes)."""
    if compiled_loaded():
        return _compiled  # type: ignore[return-value] - loaded
    return ahead() or interpreted()


def _load_price() -> float:
    return LOAD_SECONDS if kernels_cached() else COMPILE_SECONDS


def interpreter_allowance() -> float:
    """Seconds the interpreted tier may still spend in this process under ``"auto"``."""
    if compiled_loaded():
        return 0.0
    return max(0.0, _load_price() - _interpreted_seconds)


def ahead_allowance() -> float:
    """Seconds the ahead tier may still spend in this process under ``"auto"`` (zero when it
    is not built)."""
    if compiled_loaded() or ahead() is None:
        return 0.0
    return max(0.0, _load_price() / AHEAD_SLOWDOWN - _ahead_seconds)


def run_tiered(
    choice: str | Kernels,
    run: Callable[[Kernels, float], tuple[Any, bool]],
    deadline: float = math.inf,
) -> Any:
    """``run(kernels, stop)`` with the tier ``choice`` names (see :data:`KERNEL_CHOICES`), or
    with ``choice`` itself when it is a :class:`Kernels`.

    ``run`` solves with ``kernels``, giving up at ``time.perf_counter()`` ``stop`` (besides
    its own deadlines; a finite ``stop`` only for an interpreted run under ``"auto"``), and
    returns ``(answer, finished)``; ``finished`` is False when the answer should come from
    the compiled tier instead (``stop`` cut the run short, or it would have handed over to
    CP-SAT).  Under ``"auto"``: the compiled tier once this process loaded it; else the
    ahead tier when it is built (it loads in milliseconds) within its allowance
    (:func:`ahead_allowance`), and the compiled tier once that is spent; without the ahead
    tier, the interpreted one within its allowance, and such a run cut short is run again
    compiled, unless ``deadline`` (the caller's own time limit) has passed too.
    """
    global _interpreted_seconds, _ahead_seconds
    if isinstance(choice, Kernels):
        return run(choice, math.inf)[0]
    if choice not in KERNEL_CHOICES:
        raise ValueError(f"kernels must be one of {', '.join(KERNEL_CHOICES)}, got {choice!r}")
    if choice == "interpreted":
        return run(interpreted(), math.inf)[0]
    if choice == "ahead":
        built = ahead()
        if built is None:
            raise ValueError(
                "the ahead-of-time kernels are not built for this installation "
                "(python -m routing.kernels builds them; 64-bit Linux only)"
            )
        return run(built, math.inf)[0]
    if choice == "auto" and ahead_allowance() > 0.0:
        start = time.perf_counter()
        answer = run(ahead(), math.inf)[0]  # type: ignore[arg-type] - built
        _ahead_seconds += time.perf_counter() - start
        return answer
    allowance = interpreter_allowance() if choice == "auto" else 0.0
    # with the ahead tier built, interpreting never pays: its allowance is for processes
    # that have nothing else to run until the compiled tier is loaded (asked only while
    # that allowance lasts, so a process running the compiled tier never looks for it)
    if allowance > 0.0 and ahead() is None:
        start = time.perf_counter()
        answer, finished = run(interpreted(), start + allowance)
        now = time.perf_counter()
        _interpreted_seconds += now - start
        if finished or now >= deadline:
            return answer
    return run(compiled(), math.inf)[0]
