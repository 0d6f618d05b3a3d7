"""Growable output buffers for the numba kernels (capacity doubles when full)."""

from __future__ import annotations

import numpy as np

from ._jit import kernel


@kernel
def grow1(a, n):
    """A copy of 1-D ``a`` with room for at least ``n`` entries."""
    b = np.empty(max(2 * a.shape[0], n), dtype=a.dtype)
    # an explicit loop: slice assignment drags numpy's shape-error formatting into the compile
    for i in range(a.shape[0]):
        b[i] = a[i]
    return b


@kernel
def grow2(a, n):
    """A copy of 2-D ``a`` with room for at least ``n`` rows."""
    b = np.empty((max(2 * a.shape[0], n), a.shape[1]), dtype=a.dtype)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            b[i, j] = a[i, j]
    return b
