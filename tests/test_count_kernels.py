"""The stop-counting kernels of ``routing._count`` against brute force.

:func:`routing._count.count_rows` picks the counted stops of a several-row train greedily
(a transversal matroid, Hall's condition over the limited rows).  Here every assignment of
every stop (skip it, or put it in a row that takes its kind) is tried, and the best
``(value, count)`` must be the kernel's, with the kernel's own counted set feasible: the
compiled kernel and the same kernel interpreted (:mod:`routing._jit`).
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from routing import _jit
from routing._count import HALL_WORDS, INFEASIBLE, NO_LIMIT

TIERS = {"compiled": _jit.compiled, "interpreted": _jit.interpreted}

KINDS = (1, 2, 3, 4)


def _brute(vals, kinds, forced, rows, skip):
    """Best ``(value, count)`` over all assignments, or ``None`` if none is feasible."""
    best = None
    choices = []
    for k, f in zip(kinds, forced, strict=True):
        opts = [r for r, (mask, _cap) in enumerate(rows) if (mask >> k) & 1]
        if (skip >> k) & 1 and not f:
            opts.append(-1)
        choices.append(opts)
    for pick in product(*choices):
        fill = [0] * len(rows)
        for r in pick:
            if r >= 0:
                fill[r] += 1
        if any(fill[r] > cap for r, (_m, cap) in enumerate(rows)):
            continue
        value = sum(v for v, r in zip(vals, pick, strict=True) if r >= 0)
        score = (value, sum(1 for r in pick if r >= 0))
        best = score if best is None or score > best else best
    return best


def _fits(counted_kinds, rows) -> bool:
    """Can these stops all be put into rows that take their kinds (capacities kept)?"""
    choices = [[r for r, (m, _c) in enumerate(rows) if (m >> k) & 1] for k in counted_kinds]
    for pick in product(*choices):
        fill = [0] * len(rows)
        for r in pick:
            fill[r] += 1
        if all(fill[r] <= cap for r, (_m, cap) in enumerate(rows)):
            return True
    return not counted_kinds


@st.composite
def _cases(draw):
    n_rows = draw(st.integers(2, 3))
    rows = []
    for _ in range(n_rows):
        mask = 0
        for k in draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=3, unique=True)):
            mask |= 1 << k
        cap = draw(st.one_of(st.integers(0, 3), st.just(NO_LIMIT + 1)))
        rows.append((mask, cap))
    n = draw(st.integers(0, 7))
    vals = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=n, max_size=n))
    forced = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    skip = 0
    for k in draw(st.lists(st.sampled_from(KINDS), max_size=3, unique=True)):
        skip |= 1 << k
    return vals, kinds, forced, rows, skip


def _kernel(vals, kinds, forced, rows, skip, tier="compiled"):
    n = len(vals)
    counted = np.zeros(n, dtype=np.bool_)
    value, count = TIERS[tier]().count_rows(
        np.array(vals, dtype=np.int64), np.array(kinds, dtype=np.int64),
        np.array(forced, dtype=np.bool_), n,
        np.array([m for m, _c in rows], dtype=np.int64),
        np.array([c for _m, c in rows], dtype=np.int64), len(rows), skip, counted,
        np.empty(n + 1, dtype=np.int64), np.full(HALL_WORDS, 99, dtype=np.int64),
    )  # fmt: skip
    return int(value), int(count), counted


@pytest.mark.parametrize("tier", sorted(TIERS))
@settings(max_examples=300, deadline=None)
@given(_cases())
def test_count_rows_matches_brute_force(tier, case):
    vals, kinds, forced, rows, skip = case
    value, count, counted = _kernel(vals, kinds, forced, rows, skip, tier)
    expected = _brute(vals, kinds, forced, rows, skip)
    if expected is None:
        assert value == INFEASIBLE
        return
    assert (value, count) == expected
    # the counted set itself: worth that value, every forced or unskippable stop in it
    assert sum(v for v, c in zip(vals, counted, strict=True) if c) == value
    assert int(counted.sum()) == count
    for k, f, c in zip(kinds, forced, counted, strict=True):
        assert c or ((skip >> k) & 1 and not f)
    limited = [r for r in rows if r[1] < NO_LIMIT]
    absorbed = 0
    for mask, cap in rows:
        if cap >= NO_LIMIT:
            absorbed |= mask
    rest = [k for k, c in zip(kinds, counted, strict=True) if c and not (absorbed >> k) & 1]
    assert _fits(rest, limited)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_goods_train_rows_by_hand(tier):
    # a 4+2G-like train: row 0 takes cities (1) and towns (2), 2 of them; row 1 towns only,
    # 1 of them; ports (4) unlimited; towns may be skipped.  Stops: city 50, town 40,
    # town 30, town 20, port 10.  Cities must count: city 50 -> row 0.  Towns by value:
    # 40 -> row 0 (full now), 30 -> row 1, 20 has no room and is skipped.  Port 10 is
    # absorbed.  50 + 40 + 30 + 10 = 130 from 4 stops.
    rows = [((1 << 1) | (1 << 2), 2), (1 << 2, 1), (1 << 4, NO_LIMIT + 1)]
    value, count, counted = _kernel([50, 40, 30, 20, 10], [1, 2, 2, 2, 4], [False] * 5,
                                    rows, 1 << 2, tier)  # fmt: skip
    assert (value, count) == (130, 4)
    assert list(counted) == [True, True, True, False, True]
    # forcing the 20 town (a bonus needs it): 50 + 20 forced, then 40 fits row 0 or 1:
    # 50 + 20 + 40 + 10 = 120; the 30 town no longer fits
    value, count, _ = _kernel([50, 40, 30, 20, 10], [1, 2, 2, 2, 4],
                              [False, False, False, True, False], rows, 1 << 2, tier)  # fmt: skip
    assert (value, count) == (120, 4)
    # three cities for a row of 2: infeasible (a city must count)
    value, _, _ = _kernel([10, 10, 10], [1, 1, 1], [False] * 3, rows, 1 << 2, tier)
    assert value == INFEASIBLE
