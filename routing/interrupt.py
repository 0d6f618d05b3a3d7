"""Ctrl-C during a solve: stop searching and return the best routes so far.

A numba kernel does not return to the interpreter while it runs, so a ``KeyboardInterrupt``
raised by Python's default SIGINT handler would only surface when the kernel returns -- and
then unwind it, losing its incumbent.  Instead, while a solve runs in the main thread,
:func:`catching` installs a handler that only records the request.  The kernels' deadline
checks (every few thousand steps, well under a millisecond apart) call :func:`clock` from
object mode: calling a Python function runs pending signal handlers, and once an interrupt
was requested :func:`clock` reads ``+inf``, so every kernel stops exactly as at its
deadline, with a valid incumbent and bound.  The Python driver then skips its remaining
phases and marks the answer ``stats["interrupted"]``.

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

__all__ = ["clock", "requested", "catching", "active"]

_state = {"requested": False, "depth": 0, "installed": False}


def clock() -> float:
    """``time.perf_counter()``, or ``+inf`` once an interrupt was requested (the kernels'
    deadline checks call this)."""
    if _state["requested"]:
        return math.inf
    return time.perf_counter()


def requested() -> bool:
    """Was Ctrl-C pressed during the current solve?"""
    return bool(_state["requested"])


def active() -> bool:
    """Is the handler of :func:`catching` installed (so Ctrl-C only sets a flag)?"""
    return bool(_state["installed"])


def _handler(signum, frame) -> None:
    if _state["requested"]:
        raise KeyboardInterrupt
    _state["requested"] = True


@contextmanager
def catching():
    """Within this block (in the main thread, with Python's default SIGINT handler in
    place) Ctrl-C requests a stop instead of raising; see the module docstring.  Nested
    blocks share the outermost one's handler; the request is cleared when it exits."""
    main = threading.current_thread() is threading.main_thread()
    outer = main and _state["depth"] == 0
    old = None
    if outer:
        _state["requested"] = False
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
            _state["requested"] = False
