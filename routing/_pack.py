"""Numba kernel choosing one route (or none) per train: exact branch and bound.

Routes of each train type are sorted by value, descending.  Trains are searched in a fixed
order; the bound at depth ``k`` is ``prefix + value(candidate) + U[k+1]`` where ``U[k+1]``
is the exact optimum (or a proven upper bound) of the suffix problem over trains ``k+1..``
solved first without the prefix (the Rails revenue calculator's idea).  Because every rule
is now an additive value plus bit conflicts (see :mod:`routing._enumerate`), the suffix
optimum is admissible.  Sorted candidates let a level stop at the first that cannot beat
the incumbent.  Consecutive identical trains take strictly increasing route indices.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

_CHECK_EVERY = 8191


@njit(cache=True)
def _search(
    k0, values, cross, must, lo, hi, same_prev, suffix_ub, enforce_must,
    best, best_choice, deadline, counter,
):  # fmt: skip
    """Branch and bound over trains ``k0..T-1``.

    ``best``/``best_choice`` is the incumbent (improved in place, choice index ``hi[k]``
    means the train runs nothing).  Returns ``(best, bound, done)``.
    """
    T = lo.shape[0]
    W = cross.shape[1]
    idx = np.empty(T + 1, dtype=np.int64)
    cur = np.zeros(T + 1, dtype=np.int64)
    mustc = np.zeros(T + 1, dtype=np.int64)
    ran = np.zeros(T + 1, dtype=np.int64)
    used = np.zeros((T + 1, W), dtype=np.uint64)
    choice = np.empty(T, dtype=np.int64)
    k = k0
    idx[k] = lo[k]
    done = True
    while k >= k0:
        if k == T:
            ok = True
            if enforce_must and ran[k] > 0 and mustc[k] == 0:
                ok = False
            if ok and cur[k] > best:
                best = cur[k]
                for q in range(k0, T):
                    best_choice[q] = choice[q]
            k -= 1
            continue
        i = idx[k]
        if i > hi[k]:
            k -= 1
            continue
        counter[0] += 1
        if (counter[0] & _CHECK_EVERY) == 0:
            with objmode(now="float64"):
                now = time.perf_counter()
            if now > deadline:
                done = False
                break
        if i == hi[k]:
            # run nothing with this train; identical later trains then run nothing too
            idx[k] = i + 1
            if cur[k] + suffix_ub[k + 1] <= best:
                continue
            choice[k] = i
            nk = k + 1
            cur[nk] = cur[k]
            mustc[nk] = mustc[k]
            ran[nk] = ran[k]
            for w in range(W):
                used[nk, w] = used[k, w]
            if nk < T:
                idx[nk] = hi[nk] if same_prev[nk] else lo[nk]
            k = nk
            continue
        if cur[k] + values[i] + suffix_ub[k + 1] <= best:
            # sorted: nothing later at this level (the empty choice included) can do better
            idx[k] = hi[k] + 1
            continue
        idx[k] = i + 1
        clash = False
        for w in range(W):
            if used[k, w] & cross[i, w]:
                clash = True
                break
        if clash:
            continue
        choice[k] = i
        nk = k + 1
        cur[nk] = cur[k] + values[i]
        mustc[nk] = mustc[k] + (1 if must[i] else 0)
        ran[nk] = ran[k] + 1
        for w in range(W):
            used[nk, w] = used[k, w] | cross[i, w]
        if nk < T:
            idx[nk] = i + 1 if same_prev[nk] else lo[nk]
        k = nk
    if done:
        return best, best, True
    # proven bound: every unexplored branch hangs off some level on the stack
    bound = best
    for q in range(k0, k + 1):
        if q >= T:
            continue
        nxt = idx[q]
        if nxt < hi[q]:
            b = cur[q] + values[nxt] + suffix_ub[q + 1]
        elif nxt == hi[q]:
            b = cur[q] + suffix_ub[q + 1]
        else:
            continue
        if b > bound:
            bound = b
    return best, bound, False


@njit(cache=True)
def _greedy(k0, values, cross, must, lo, hi, same_prev, enforce_must, choice):
    """A quick incumbent: each train takes its best route compatible with the previous."""
    T = lo.shape[0]
    W = cross.shape[1]
    used = np.zeros(W, dtype=np.uint64)
    total = 0
    ran = 0
    mustc = 0
    for k in range(k0, T):
        start = lo[k]
        if same_prev[k] and k > k0:
            start = choice[k - 1] + 1 if choice[k - 1] < hi[k - 1] else hi[k]
        choice[k] = hi[k]
        for i in range(start, hi[k]):
            clash = False
            for w in range(W):
                if used[w] & cross[i, w]:
                    clash = True
                    break
            if not clash:
                choice[k] = i
                total += values[i]
                ran += 1
                mustc += 1 if must[i] else 0
                for w in range(W):
                    used[w] |= cross[i, w]
                break
    if enforce_must and ran > 0 and mustc == 0:
        for k in range(k0, T):
            choice[k] = hi[k]
        return 0
    return total


@njit(cache=True)
def pack(values, cross, must, lo, hi, same_prev, has_must, deadline):
    """Optimal choice of one route per train.

    Parameters are the concatenated route arrays (sorted descending within each train
    type), per train slot the index range ``[lo, hi)`` of its type, and whether the slot's
    type equals the previous slot's.  Returns ``(best, choice, bound, optimal, expanded)``.
    """
    T = lo.shape[0]
    suffix_ub = np.zeros(T + 1, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    choice = np.empty(T, dtype=np.int64)
    for k in range(T):
        choice[k] = hi[k]
    best = 0
    optimal = True
    bound = 0
    for k0 in range(T - 1, -1, -1):
        enforce = has_must and k0 == 0
        sub_choice = np.empty(T, dtype=np.int64)
        for k in range(T):
            sub_choice[k] = hi[k]
        sub_best = _greedy(k0, values, cross, must, lo, hi, same_prev, enforce, sub_choice)
        if not optimal:
            # out of time already: the suffix bound is the first route of each train
            ub = suffix_ub[k0 + 1] + (values[lo[k0]] if lo[k0] < hi[k0] else 0)
            suffix_ub[k0] = ub
            if k0 == 0:
                best = sub_best
                choice = sub_choice
                bound = ub
            continue
        sub_best, ub, done = _search(
            k0, values, cross, must, lo, hi, same_prev, suffix_ub, enforce,
            sub_best, sub_choice, deadline, counter,
        )  # fmt: skip
        suffix_ub[k0] = ub
        if not done:
            optimal = False
        if k0 == 0:
            best = sub_best
            choice = sub_choice
            bound = ub
    return best, choice, bound, optimal, counter[0]
