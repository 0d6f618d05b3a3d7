"""Numba kernel choosing one route (or none) per train: exact branch and bound.

Routes of each train type are sorted by value, descending.  Trains are searched in a fixed
order; the bound at depth ``k`` is ``prefix + value(candidate) + U[k+1]`` where ``U[k+1]``
is the exact optimum (or a proven upper bound) of the suffix problem over trains ``k+1..``
solved first without the prefix (the Rails revenue calculator's idea).  Because every rule
is now an additive value plus bit conflicts (see :mod:`routing._enumerate`), the suffix
optimum is admissible.  Sorted candidates let a level stop at the first that cannot beat
the incumbent.  Consecutive identical trains take strictly increasing route indices, so
``r`` identical trains still to place from route ``i`` on earn at most the ``r`` values from
``i`` (a prefix-sum window), and when one runs nothing the rest of its run does too.

Anytime behaviour: each suffix's best route set, plus the best route of the next train that
fits it, seeds the incumbent of the next larger suffix, so under a deadline the answer for
all trains is never worse than the best answer proven (or found) for fewer of them.  Once
the deadline passes, the remaining suffixes only get that seed and the greedy route set, and
a proven bound from the suffix bound: ``U[k] <= U[k+1] + best route of train k``, the ``m``
best routes of a run of ``m`` identical trains plus the bound after the run, and
``U[k] <= m * U[k+1] / (m - 1)`` (dropping the least of ``m`` identical routes leaves a
route set of the suffix after ``k``; values are non-negative).
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .interrupt import clock

_CHECK_EVERY = 8191


@kernel
def _take_ub(k, i, cur, values, csum, run, hi, suffix_ub):
    """Bound on a branch where train ``k`` takes route ``i``: the rest of its run of
    identical trains takes later (smaller) routes, the trains after the run at most their
    suffix bound."""
    rest = suffix_ub[k + 1]
    r = run[k]
    if r > 1:
        end = i + r
        if end > hi[k]:
            end = hi[k]
        alt = csum[end] - csum[i + 1] + suffix_ub[k + r]
        if alt < rest:
            rest = alt
    return cur + values[i] + rest


@kernel
def _search(
    k0, values, csum, run, cross, must, lo, hi, same_prev, suffix_ub, enforce_must,
    best, best_choice, deadline, stop, counter,
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
            if clock(stop) > deadline:  # +inf once Ctrl-C was pressed (routing.interrupt)
                done = False
                break
        if i == hi[k]:
            # run nothing with this train; identical later trains then run nothing too
            idx[k] = i + 1
            if cur[k] + suffix_ub[k + run[k]] <= best:
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
        # bound of taking route i (as _take_ub, written out: a call costs reference counts)
        rest = suffix_ub[k + 1]
        r = run[k]
        if r > 1:
            end = i + r
            if end > hi[k]:
                end = hi[k]
            alt = csum[end] - csum[i + 1] + suffix_ub[k + r]
            if alt < rest:
                rest = alt
        if cur[k] + values[i] + rest <= best:
            # sorted: no later route at this level can do better (running nothing has its
            # own bound)
            idx[k] = hi[k]
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
        if nxt > hi[q]:
            continue
        b = cur[q] + suffix_ub[q + run[q]]  # the empty choice
        if nxt < hi[q]:
            b2 = _take_ub(q, nxt, cur[q], values, csum, run, hi, suffix_ub)
            if b2 > b:
                b = b2
        if b > bound:
            bound = b
    return best, bound, False


@kernel
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


@kernel
def _extend(k0, values, cross, lo, hi, choice):
    """Give train ``k0`` the best route that fits the routes ``choice`` holds for the
    trains after it (in place); returns that route's value (0 if none fits)."""
    T = lo.shape[0]
    W = cross.shape[1]
    used = np.zeros(W, dtype=np.uint64)
    for k in range(k0 + 1, T):
        if choice[k] < hi[k]:
            for w in range(W):
                used[w] |= cross[choice[k], w]
    choice[k0] = hi[k0]
    for i in range(lo[k0], hi[k0]):
        clash = False
        for w in range(W):
            if used[w] & cross[i, w]:
                clash = True
                break
        if not clash:
            choice[k0] = i
            return values[i]
    return 0


@kernel
def _must_ok(k0, choice, must, hi):
    ran = 0
    hit = 0
    for k in range(k0, hi.shape[0]):
        if choice[k] < hi[k]:
            ran += 1
            if must[choice[k]]:
                hit += 1
    return ran == 0 or hit > 0


@kernel
def pack(values, cross, must, lo, hi, same_prev, has_must, deadline, stop):
    """Optimal choice of one route per train.

    Parameters are the concatenated route arrays (sorted descending within each train
    type), per train slot the index range ``[lo, hi)`` of its type, and whether the slot's
    type equals the previous slot's.  Returns ``(best, choice, bound, optimal, expanded)``.
    """
    T = lo.shape[0]
    suffix_ub = np.zeros(T + 1, dtype=np.int64)
    counter = np.zeros(1, dtype=np.int64)
    csum = np.zeros(values.shape[0] + 1, dtype=np.int64)
    for i in range(values.shape[0]):
        csum[i + 1] = csum[i] + values[i]
    run = np.ones(T + 1, dtype=np.int64)
    for k in range(T - 2, -1, -1):
        if same_prev[k + 1]:
            run[k] = run[k + 1] + 1
    choice = np.empty(T, dtype=np.int64)
    seed = np.empty(T, dtype=np.int64)
    for k in range(T):
        choice[k] = hi[k]
        seed[k] = hi[k]
    seed_val = 0
    best = 0
    optimal = True
    bound = 0
    for k0 in range(T - 1, -1, -1):
        enforce = has_must and k0 == 0
        sub_choice = np.empty(T, dtype=np.int64)
        for k in range(T):
            sub_choice[k] = hi[k]
        sub_best = _greedy(k0, values, cross, must, lo, hi, same_prev, enforce, sub_choice)
        # the next smaller suffix's route set, plus this train's best route that fits it
        cand = seed.copy()
        cand_val = seed_val + _extend(k0, values, cross, lo, hi, cand)
        if cand_val > sub_best and (not enforce or _must_ok(k0, cand, must, hi)):
            sub_best = cand_val
            sub_choice = cand
        # proven bounds from the suffix after k0 (valid whether or not it was solved)
        m = run[k0]
        ub = suffix_ub[k0 + 1] + (values[lo[k0]] if lo[k0] < hi[k0] else 0)
        end = lo[k0] + m
        if end > hi[k0]:
            end = hi[k0]
        top = csum[end] - csum[lo[k0]] + suffix_ub[k0 + m]
        if top < ub:
            ub = top
        if m > 1:
            scaled = (m * suffix_ub[k0 + 1]) // (m - 1)
            if scaled < ub:
                ub = scaled
        if optimal:
            sub_best, s_ub, done = _search(
                k0, values, csum, run, cross, must, lo, hi, same_prev, suffix_ub, enforce,
                sub_best, sub_choice, deadline, stop, counter,
            )  # fmt: skip
            if not done:
                optimal = False
            if s_ub < ub:
                ub = s_ub
        if ub < sub_best:  # pragma: no cover - every bound above is proven
            ub = sub_best
        suffix_ub[k0] = ub
        seed = sub_choice
        seed_val = sub_best
        if k0 == 0:
            best = sub_best
            choice = sub_choice
            bound = ub
    return best, choice, bound, optimal, counter[0]
