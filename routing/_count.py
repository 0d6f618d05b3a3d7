"""Numba kernels that choose which stops of one route a train counts.

Given the stops a route visits (values, kinds, and which must be counted because a bonus
depends on them), return the best revenue and how many stops are counted.  Every stop is
either skipped (its kind in the train's skip mask), or assigned to a row, which counts at
most ``pay`` of at most ``visit`` stops.

* One row: the counted set is a laminar-matroid basis (at most ``pay`` stops, at most
  ``visit - mandatory`` of them skippable), so greedy in value order is exact.  Forced stops
  go first.  A max-weight basis is also a max-cardinality one, which the end-token bonus
  relies on.
* Several rows (``pay == visit`` each): rows without limit absorb every stop of their kinds;
  the rest is a small dynamic programme over the limited rows' fill counts.  Ties prefer more
  counted stops, for the same reason.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INFEASIBLE = -1
_BIG_CAP = 1 << 19  # caps at or above this are "no limit"


@njit(cache=True)
def count_single(vals, kinds, forced, n, row_kind, pay, visit, skip, counted, order):
    """Best value and count of one row.  ``counted[i]`` is set for counted stops.

    ``order`` is scratch space of at least ``n`` entries.
    Returns ``(value, n_counted)`` or ``(INFEASIBLE, 0)``.
    """
    mandatory = 0
    for i in range(n):
        kb = (skip >> kinds[i]) & 1
        if kb == 0:
            if (row_kind >> kinds[i]) & 1 == 0:
                return INFEASIBLE, 0
            mandatory += 1
        elif forced[i] and (row_kind >> kinds[i]) & 1 == 0:
            return INFEASIBLE, 0
    if mandatory > visit:
        return INFEASIBLE, 0
    if mandatory == n and n <= pay:
        # the common case (an N-train): every stop counts
        total = 0
        for i in range(n):
            counted[i] = True
            total += vals[i]
        return total, n
    free = visit - mandatory
    # order: forced first, then by value, descending (insertion sort: n is small)
    for i in range(n):
        order[i] = i
        counted[i] = False
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0:
            y = order[j]
            if forced[x] > forced[y] or (forced[x] == forced[y] and vals[x] > vals[y]):
                order[j + 1] = y
                j -= 1
            else:
                break
        order[j + 1] = x
    total = 0
    cnt = 0
    free_used = 0
    for p in range(n):
        i = order[p]
        if cnt >= pay:
            if forced[i]:
                return INFEASIBLE, 0
            break
        if (skip >> kinds[i]) & 1:
            if (row_kind >> kinds[i]) & 1 and free_used < free:
                free_used += 1
            else:
                if forced[i]:
                    return INFEASIBLE, 0
                continue
        counted[i] = True
        total += vals[i]
        cnt += 1
    return total, cnt


@njit(cache=True)
def count_rows(vals, kinds, forced, n, row_kinds, row_cap, n_rows, skip, counted):
    """Best value and count for several rows that pay every stop they take.

    Returns ``(value, n_counted)`` or ``(INFEASIBLE, 0)``; ``counted`` as in
    :func:`count_single`.
    """
    for i in range(n):
        counted[i] = False
    # unlimited rows absorb their kinds
    absorb_mask = 0
    for r in range(n_rows):
        if row_cap[r] >= _BIG_CAP:
            absorb_mask |= row_kinds[r]
    base = 0
    base_cnt = 0
    rest = np.empty(n, dtype=np.int64)
    m = 0
    for i in range(n):
        if (absorb_mask >> kinds[i]) & 1:
            counted[i] = True
            base += vals[i]
            base_cnt += 1
        else:
            rest[m] = i
            m += 1
    # mixed-radix state over the limited rows' fill counts
    lim = np.empty(n_rows, dtype=np.int64)
    stride = np.empty(n_rows, dtype=np.int64)
    n_lim = 0
    size = 1
    for r in range(n_rows):
        if row_cap[r] < _BIG_CAP:
            lim[n_lim] = r
            stride[n_lim] = size
            size *= row_cap[r] + 1
            n_lim += 1
    neg = -(1 << 62)
    # score = value * 1024 + count: ties prefer more counted stops
    dp = np.full((m + 1, size), neg, dtype=np.int64)
    choice = np.full((m + 1, size), -2, dtype=np.int64)
    dp[0, 0] = 0
    for p in range(m):
        i = rest[p]
        kb = kinds[i]
        can_skip = ((skip >> kb) & 1) == 1 and not forced[i]
        for s in range(size):
            cur = dp[p, s]
            if cur == neg:
                continue
            if can_skip and cur > dp[p + 1, s]:
                dp[p + 1, s] = cur
                choice[p + 1, s] = -1
            for q in range(n_lim):
                r = lim[q]
                if (row_kinds[r] >> kb) & 1 == 0:
                    continue
                fill = (s // stride[q]) % (row_cap[r] + 1)
                if fill >= row_cap[r]:
                    continue
                s2 = s + stride[q]
                val = cur + vals[i] * 1024 + 1
                if val > dp[p + 1, s2]:
                    dp[p + 1, s2] = val
                    choice[p + 1, s2] = s
    best_s = -1
    best = neg
    for s in range(size):
        if dp[m, s] > best:
            best = dp[m, s]
            best_s = s
    if best_s < 0:
        return INFEASIBLE, 0
    s = best_s
    for p in range(m, 0, -1):
        c = choice[p, s]
        if c != -1:
            counted[rest[p - 1]] = True
            s = c
    return base + best // 1024, base_cnt + best % 1024
