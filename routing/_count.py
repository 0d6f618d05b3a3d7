"""Numba kernels that choose which stops of one route a train counts.

Given the stops a route visits (values, kinds, and which must be counted because a bonus
depends on them), return the best revenue and how many stops are counted.  Every stop is
either skipped (its kind in the train's skip mask), or assigned to a row, which counts at
most ``pay`` of at most ``visit`` stops.

* One row: the counted set is a laminar-matroid basis (at most ``pay`` stops, at most
  ``visit - mandatory`` of them skippable), so greedy in value order is exact.  Forced stops
  go first.  A max-weight basis is also a max-cardinality one, which the end-token bonus
  relies on.
* Several rows (``pay == visit`` each, at most 3): rows without limit absorb every stop of
  their kinds; for the rest, the stop sets that fit the limited rows form a transversal
  matroid, so greedy in value order (mandatory stops first) is exact again.  It also
  counts the most stops among the best sets, for the same reason.
"""

from __future__ import annotations

from ._jit import kernel

INFEASIBLE = -1
NO_LIMIT = 1 << 19  # caps at or above this are "no limit"
#: Scratch words :func:`count_rows` needs: kinds and capacities of up to 3 limited rows,
#: load and room of their 8 subsets.
HALL_WORDS = 22


@kernel(allocates=False)
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


@kernel(allocates=False)
def count_rows(vals, kinds, forced, n, row_kinds, row_cap, n_rows, skip, counted, order, hall):
    """Best value and count for several rows that pay every stop they take.

    Returns ``(value, n_counted)`` or ``(INFEASIBLE, 0)``; ``counted`` as in
    :func:`count_single`; ``order`` is scratch space of at least ``n`` entries and
    ``hall`` of :data:`HALL_WORDS` (the kernel runs once per route variant, so it
    allocates nothing).

    Rows without a limit absorb every stop of their kinds.  The sets of the other stops
    that fit into the limited rows are the independent sets of a transversal matroid, so
    the best set holding every mandatory stop is found greedily: the mandatory stops
    first, then the rest by value, each taken if the set still fits.  "Fits" is Hall's
    condition over the (at most 3) limited rows: for every set ``R`` of rows, the stops
    that only ``R``'s rows can take number at most ``R``'s capacity.  Every stop added
    has a value >= 0, so the greedy set also has the most stops among the best ones (the
    tie rule the end-token bonus relies on).
    """
    absorb_mask = 0
    for w in range(HALL_WORDS):
        hall[w] = 0
    lim_kinds = hall[0:3]
    lim_cap = hall[3:6]
    # load[R]: stops taken so far whose rows all lie in R; room[R]: R's total capacity
    load = hall[6:14]
    room = hall[14:22]
    n_lim = 0
    for r in range(n_rows):
        if row_cap[r] >= NO_LIMIT:
            absorb_mask |= row_kinds[r]
        else:
            lim_kinds[n_lim] = row_kinds[r]
            lim_cap[n_lim] = row_cap[r]
            n_lim += 1
    n_sets = 1 << n_lim
    for rs in range(n_sets):
        for q in range(n_lim):
            if (rs >> q) & 1:
                room[rs] += lim_cap[q]
    total = 0
    cnt = 0
    n_rest = 0
    for i in range(n):
        counted[i] = False
        kb = kinds[i]
        if (absorb_mask >> kb) & 1:
            counted[i] = True
            total += vals[i]
            cnt += 1
        elif forced[i] or (skip >> kb) & 1 == 0:
            if not _take(kb, lim_kinds, n_lim, n_sets, load, room):
                return INFEASIBLE, 0
            counted[i] = True
            total += vals[i]
            cnt += 1
        else:
            order[n_rest] = i
            n_rest += 1
    sort_by_value(order, n_rest, vals)  # optional stops, best first
    for a in range(n_rest):
        i = order[a]
        if _take(kinds[i], lim_kinds, n_lim, n_sets, load, room):
            counted[i] = True
            total += vals[i]
            cnt += 1
    return total, cnt


@kernel(inline="always")
def sort_by_value(items, n, value):
    """Sort ``items[:n]`` by ``value[item]``, descending and stable (insertion sort: the
    lists are a route's stops)."""
    for a in range(1, n):
        x = items[a]
        b = a - 1
        while b >= 0 and value[items[b]] < value[x]:
            items[b + 1] = items[b]
            b -= 1
        items[b + 1] = x


@kernel(inline="always")
def _take(kind, lim_kinds, n_lim, n_sets, load, room):
    """Add a stop of ``kind`` to the limited rows if Hall's condition still holds."""
    rows = 0
    for q in range(n_lim):
        if (lim_kinds[q] >> kind) & 1:
            rows |= 1 << q
    for rs in range(n_sets):
        if rs & rows == rows and load[rs] + 1 > room[rs]:
            return False
    for rs in range(n_sets):
        if rs & rows == rows:
            load[rs] += 1
    return True
