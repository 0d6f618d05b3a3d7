"""Ctrl-C during a solve: stop searching and return the best routes so far.

A compiled kernel does not return to the interpreter while it runs, so a
``KeyboardInterrupt`` raised by Python's default SIGINT handler would only surface when the
kernel returns -- and then unwind it, losing its incumbent.  Instead, while a solve runs in
the main thread, :func:`catching` installs a handler that only records the request, in the
one-entry array :func:`stop_flag` that every solve hands its kernels.  The kernels'
deadline checks (every few thousand steps, well under a millisecond apart) call
``clock(stop)``: it first runs pending signal handlers (interpreted, Python does that
between bytecodes; compiled, the check calls ``PyErr_CheckSignals``, see
:mod:`routing._clock`) and reads ``+inf`` once the flag is set, so every kernel stops
exactly as at its deadline, with a valid incumbent and bound.  The Python driver then skips
its remaining phases and marks the answer ``stats["interrupted"]``.

A second Ctrl-C raises ``KeyboardInterrupt`` as usual (to abort a driver that does not
stop).  Outside the main thread, or when the program has its own SIGINT handler, nothing is
installed and Ctrl-C behaves as the program decides.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from contextlib import contextmanager

import numpy as np

__all__ = ["clock", "stop_flag", "requested", "catching", "active"]

_state = {"depth": 0, "installed": False}
#: Set (to 1) by the handler of :func:`catching` when Ctrl-C was pressed; the kernels read it.
_STOP = np.zeros(1, dtype=np.uint8)


def clock(stop: np.ndarray) -> float:
    """``time.perf_counter()``, or ``+inf`` once ``stop[0]`` is set (the interpreted
    kernels' deadline check)."""
    if stop[0]:
        return math.inf
    return time.perf_counter()


def stop_flag() -> np.ndarray:
    """The array a solve passes its kernels: its one entry is set once Ctrl-C was pressed."""
    return _STOP


def requested() -> bool:
    """Was Ctrl-C pressed during the current solve?"""
    return bool(_STOP[0])


def active() -> bool:
    """Is the handler of :func:`catching` installed (so Ctrl-C only sets a flag)?"""
    return bool(_state["installed"])


def _handler(signum, frame) -> None:
    if _STOP[0]:
        raise KeyboardInterrupt
    _STOP[0] = 1


@contextmanager
def catching():
    """Within this block (in the main thread, with Python's default SIGINT handler in
    place) Ctrl-C requests a stop instead of raising; see the module docstring.  Nested
    blocks share the outermost one's handler; the request is cleared when it exits."""
    main = threading.current_thread() is threading.main_thread()
    outer = main and _state["depth"] == 0
    old = None
    if outer:
        _STOP[0] = 0
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            old = signal.signal(signal.SIGINT, _handler)
            _state["installed"] = True
    if main:
        _state["depth"] += 1
    try:
        yield
    finally:
        if main:
            _state["depth"] -= 1
        if outer:
            if old is not None:
                signal.signal(signal.SIGINT, old)
                _state["installed"] = False
            _STOP[0] = 0
