"""The search's kernels compiled ahead of time into an extension module: the *ahead* tier.

The just-in-time tier costs a fresh process about 0.6 s before its first solve: importing
numba and loading the kernels from its cache.  The same kernels compiled ahead of time
(numba's ``pycc``, by :func:`routing.kernels.build_ahead`) are a plain extension module that
loads in milliseconds and needs neither numba nor a compiler at run time, so a one-off
command answers at compiled speed.

This module names the build (by the digest of the kernel sources, so an edited kernel is
never run from an old build, and by the processor it was built for) and loads it.  An
ahead-of-time function converts no argument and checks none (an ``int32`` array where it
was built for ``int64`` is read past its end), so :func:`load` wraps each entry point in a
check of every argument against the type it was built for, which raises ``TypeError``
naming the kernel and the argument.

Linux on 64 bits only (the deadline check calls Linux's clock, :mod:`routing._clock`);
elsewhere there is no ahead tier.  It imports nothing of ``routing``.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "supported",
    "processor",
    "module_name",
    "extension_path",
    "signature_path",
    "type_code",
    "write_atomically",
    "load",
]

#: The Python types a scalar argument may have, by the numba type it was built for.
_SCALARS = {"int64": (int, np.integer), "float64": (float, int, np.floating, np.integer),
            "bool": (bool, np.bool_)}  # fmt: skip


def supported() -> bool:
    """Can this platform build and run the ahead tier?"""
    return sys.platform.startswith("linux") and sys.maxsize > 2**32


def processor() -> str:
    """What identifies this machine's processor for a build: a digest of its model and
    feature flags (read from ``/proc/cpuinfo``, without importing the compiler)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "unknown"
    wanted = ("model name", "flags")
    lines = sorted({line.strip() for line in text.splitlines() if line.startswith(wanted)})
    return hashlib.blake2b("\n".join(lines).encode(), digest_size=8).hexdigest()


def module_name(digest: str) -> str:
    """The extension module's name for kernel sources of ``digest``."""
    return f"eighteen_kernels_{digest}"


def extension_path(directory: Path, digest: str) -> Path:
    """Where the module for kernel sources of ``digest`` lives in the kernel cache."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return directory / f"{module_name(digest)}{suffix}"


def signature_path(directory: Path, digest: str) -> Path:
    """The file beside the module that records its argument types and processor."""
    return directory / f"{module_name(digest)}.signatures"


def type_code(value: Any) -> tuple:
    """The type of one kernel argument as the build records it: ``("array", dtype, ndim,
    writeable)`` or the name of a scalar's numba type."""
    if isinstance(value, np.ndarray):
        if not value.flags.c_contiguous:
            raise TypeError("a kernel argument is not C-contiguous")
        return ("array", value.dtype.str, value.ndim, bool(value.flags.writeable))
    if isinstance(value, (bool, np.bool_)):
        return ("bool",)
    if isinstance(value, (int, np.integer)):
        return ("int64",)
    if isinstance(value, (float, np.floating)):
        return ("float64",)
    raise TypeError(f"a kernel argument of type {type(value).__name__} cannot be compiled ahead")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name and rename it into place (a
    failed write leaves no temporary behind)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _checked(name: str, func: Callable, codes: tuple) -> Callable:
    """``func`` behind a check that every argument has the type it was compiled for."""
    arrays = [(i, np.dtype(c[1]), c[2], c[3]) for i, c in enumerate(codes) if c[0] == "array"]
    scalars = [(i, _SCALARS[c[0]]) for i, c in enumerate(codes) if c[0] != "array"]
    n = len(codes)

    def run(*args):
        if len(args) != n:
            raise TypeError(f"kernel {name} takes {n} arguments, got {len(args)}")
        for i, dtype, ndim, writeable in arrays:
            arg = args[i]
            if not (
                type(arg) is np.ndarray
                and arg.dtype == dtype
                and arg.ndim == ndim
                and arg.flags.c_contiguous
                and (arg.flags.writeable or not writeable)
            ):
                raise TypeError(
                    f"kernel {name}: argument {i} must be a C-contiguous {ndim}-d {dtype} "
                    f"array{' that can be written' if writeable else ''}, got {_describe(arg)}"
                )
        for i, accepted in scalars:
            if not isinstance(args[i], accepted):
                raise TypeError(f"kernel {name}: argument {i} has type {_describe(args[i])}")
        return func(*args)

    return run


def _describe(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.ndim}-d {value.dtype} array (C-contiguous: {value.flags.c_contiguous})"
    return type(value).__name__


def load(directory: Path, digest: str, names: tuple[str, ...]) -> dict[str, Callable] | None:
    """The entry points ``names`` of the module built for kernel sources of ``digest``,
    each behind its argument check; None when it is not built for this processor (or cannot
    be loaded here, or ``EIGHTEEN_AHEAD=0`` turns the tier off)."""
    if os.environ.get("EIGHTEEN_AHEAD", "1") == "0" or not supported():
        return None
    path, signatures_file = extension_path(directory, digest), signature_path(directory, digest)
    if not path.is_file() or not signatures_file.is_file():
        return None
    name = module_name(digest)
    try:
        record = ast.literal_eval(signatures_file.read_text())
        if record["processor"] != processor():
            return None  # built for another processor (a cache shared between machines)
        signatures = record["signatures"]
        module = sys.modules.get(name)
        if module is None:
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            sys.modules[name] = module
        return {n: _checked(n, getattr(module, n), signatures[n]) for n in names}
    except (OSError, ImportError, ValueError, SyntaxError, KeyError, TypeError, AttributeError):
        return None  # a build for another interpreter, or a damaged file: not this tier
