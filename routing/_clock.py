"""The compiled kernels' deadline check: ``clock(stop)`` without leaving machine code.

The interpreted kernels call :func:`routing.interrupt.clock`.  Compiled, a call into Python
(numba's ``objmode``) would need a Python environment the kernel keeps at run time, which an
extension module compiled ahead of time (:mod:`routing._ahead`) cannot hold.  So on Linux
the compiled check calls two C functions directly: ``PyErr_CheckSignals``, which runs the
handler :func:`routing.interrupt.catching` installed (it sets ``stop[0]``), and
``clock_gettime(CLOCK_MONOTONIC)``, the clock ``time.perf_counter`` reads on Linux, so a
deadline computed in Python compares with it.  Elsewhere the just-in-time tier calls Python
through ``objmode``, as before, and there is no ahead-of-time tier.

Imported only by whatever compiles kernels: it imports numba.
"""

from __future__ import annotations

import math
import sys

import numba
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from .interrupt import clock as interpreted_clock

__all__ = ["NATIVE", "compiled_clock"]

#: Whether the native check works here: Linux's ``CLOCK_MONOTONIC`` is ``time.perf_counter``
#: and a 64-bit ``struct timespec`` is two 64-bit integers.
NATIVE = sys.platform.startswith("linux") and sys.maxsize > 2**32
_CLOCK_MONOTONIC = 1


@intrinsic
def _check_signals(typingctx):
    """``PyErr_CheckSignals()``: run pending Python signal handlers; when one raised (Ctrl-C
    with Python's own handler in place), the kernel returns with that exception, as a call
    into Python would have."""

    def codegen(context, builder, signature, args):
        check = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(32), []), "PyErr_CheckSignals"
        )
        failed = builder.icmp_signed("!=", builder.call(check, []), ir.Constant(ir.IntType(32), 0))
        with cgutils.if_unlikely(builder, failed):
            context.call_conv.return_exc(builder)  # "a Python exception is set"
        return context.get_dummy_value()

    return types.none(), codegen


@intrinsic
def _monotonic(typingctx):
    """``clock_gettime(CLOCK_MONOTONIC)`` in seconds."""

    def codegen(context, builder, signature, args):
        i32, i64, f64 = ir.IntType(32), ir.IntType(64), ir.DoubleType()
        gettime = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, i64.as_pointer()]), "clock_gettime"
        )
        timespec = cgutils.alloca_once(builder, i64, size=2)
        builder.call(gettime, [ir.Constant(i32, _CLOCK_MONOTONIC), timespec])
        seconds = builder.sitofp(builder.load(timespec), f64)
        nanos = builder.sitofp(builder.load(builder.gep(timespec, [ir.Constant(i32, 1)])), f64)
        return builder.fadd(seconds, builder.fmul(nanos, ir.Constant(f64, 1e-9)))

    return types.float64(), codegen


def _native_clock(stop):
    _check_signals()
    if stop[0]:
        return math.inf
    return _monotonic()


def _objmode_clock(stop):
    with numba.objmode(now="float64"):
        now = interpreted_clock(stop)
    return now


def compiled_clock(**options) -> numba.core.registry.CPUDispatcher:
    """The deadline check the compiled kernels call, as a numba function."""
    return numba.njit(**options)(_native_clock if NATIVE else _objmode_clock)
