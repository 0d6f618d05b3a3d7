"""Numba kernel scoring one stop sequence for one train: counting plus per-route bonuses.

The route's bonuses may require particular stops to be counted (both ends for an E–W
bonus).  Every combination of "this bonus taken, with this forcing" is scored by the
counting kernels and the best kept: exact, and cheap because few routes touch bonus nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._count import INFEASIBLE, count_rows, count_single


@njit(cache=True)
def evaluate(
    path, plen, desig,
    node_kind, node_val,
    row_kinds, row_pay, row_visit, skip, mult, desig_kind,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    out_counted, out_bonus, scratch, flags_scratch,
):  # fmt: skip
    """Best multiplied value of stop sequence ``path[:plen]`` with designated node ``desig``.

    ``out_counted[p]`` flags the counted stops (by position); ``out_bonus`` receives each
    per-route bonus taken, in the order end-pair, set-pair, end-token (multiplied).
    ``scratch`` (int64) and ``flags_scratch`` (bool) are work space of at least
    ``4 * plen`` and ``2 * plen`` entries, so the hot path allocates nothing.
    Returns the value, or ``INFEASIBLE``.
    """
    vals = scratch[0:plen]
    kinds = scratch[plen : 2 * plen]
    pos = scratch[2 * plen : 3 * plen]
    order = scratch[3 * plen : 4 * plen]
    forced = flags_scratch[0:plen]
    counted = flags_scratch[plen : 2 * plen]
    # stops the rows see: everything but designated-kind nodes
    m = 0
    for p in range(plen):
        node = path[p]
        if desig_kind != 0 and (desig_kind >> node_kind[node]) & 1:
            continue
        vals[m] = node_val[node]
        kinds[m] = node_kind[node]
        pos[m] = p
        forced[m] = False
        m += 1
    base_val = 0
    base_cnt = 0
    if desig >= 0:
        base_val = node_val[desig]
        base_cnt = 1
    single = row_kinds.shape[0] == 1
    n_b = ep_a.shape[0] + sp_a.shape[0] + et_amt.shape[0]
    if n_b == 0:
        # no per-route bonus: one counting pass
        if single:
            val, cnt = count_single(
                vals, kinds, forced, m, row_kinds[0], row_pay[0], row_visit[0], skip, counted,
                order,
            )
        else:
            val, cnt = count_rows(
                vals, kinds, forced, m, row_kinds, row_visit, row_kinds.shape[0], skip, counted
            )
        if val == INFEASIBLE or cnt + base_cnt == 0:
            return INFEASIBLE
        for p in range(plen):
            out_counted[p] = desig >= 0 and path[p] == desig
        for i in range(m):
            if counted[i]:
                out_counted[pos[i]] = True
        return (val + base_val) * mult
    return _evaluate_bonuses(
        path, plen, desig, m, vals, kinds, pos, order, forced, counted, base_val, base_cnt,
        row_kinds, row_pay, row_visit, skip, mult,
        ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
        out_counted, out_bonus,
    )  # fmt: skip


@njit(cache=True)
def _evaluate_bonuses(
    path, plen, desig, m, vals, kinds, pos, order, forced, counted, base_val, base_cnt,
    row_kinds, row_pay, row_visit, skip, mult,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    out_counted, out_bonus,
):  # fmt: skip
    """:func:`evaluate` for a route that may earn per-route bonuses."""
    n_ep = ep_a.shape[0]
    n_sp = sp_a.shape[0]
    n_et = et_amt.shape[0]
    n_b = n_ep + n_sp + n_et
    # options per bonus: (amount, forced node x, forced node y)
    max_opt = 2
    for b in range(n_sp):
        cnt_a = 0
        cnt_b = 0
        for p in range(plen):
            if sp_a[b, path[p]]:
                cnt_a += 1
            if sp_b[b, path[p]]:
                cnt_b += 1
        if cnt_a * cnt_b > max_opt:
            max_opt = cnt_a * cnt_b
    opt_amt = np.zeros((n_b, max_opt), dtype=np.int64)
    opt_x = np.full((n_b, max_opt), -1, dtype=np.int64)
    opt_y = np.full((n_b, max_opt), -1, dtype=np.int64)
    opt_min = np.full((n_b, max_opt), -1, dtype=np.int64)
    n_opt = np.zeros(n_b, dtype=np.int64)
    first = path[0]
    last = path[plen - 1]
    for b in range(n_ep):
        amt = -1
        if ep_a[b, first] >= 0 and ep_b[b, last] >= 0:
            amt = ep_a[b, first] + ep_b[b, last]
        if ep_a[b, last] >= 0 and ep_b[b, first] >= 0:
            alt = ep_a[b, last] + ep_b[b, first]
            if alt > amt:
                amt = alt
        if amt >= 0:
            opt_amt[b, 0] = amt
            if ep_counted[b]:
                opt_x[b, 0] = first
                opt_y[b, 0] = last
            n_opt[b] = 1
    for b in range(n_sp):
        k = n_ep + b
        if sp_counted[b]:
            for p in range(plen):
                if not sp_a[b, path[p]]:
                    continue
                for q in range(plen):
                    if sp_b[b, path[q]]:
                        opt_amt[k, n_opt[k]] = sp_amount[b]
                        opt_x[k, n_opt[k]] = path[p]
                        opt_y[k, n_opt[k]] = path[q]
                        n_opt[k] += 1
        else:
            has_a = False
            has_b = False
            for p in range(plen):
                has_a = has_a or sp_a[b, path[p]]
                has_b = has_b or sp_b[b, path[p]]
            if has_a and has_b:
                opt_amt[k, 0] = sp_amount[b]
                n_opt[k] = 1
    for b in range(n_et):
        k = n_ep + n_sp + b
        for end in (first, last):
            if et_amt[b, end] >= 0:
                opt_amt[k, n_opt[k]] = et_amt[b, end]
                opt_x[k, n_opt[k]] = end
                opt_min[k, n_opt[k]] = et_min_other[b]
                n_opt[k] += 1
            if first == last:
                break

    single = row_kinds.shape[0] == 1
    best = INFEASIBLE
    combo = np.zeros(n_b, dtype=np.int64)  # 0 = not taken, j+1 = option j
    while True:
        # forced set for this combination
        ok = True
        for i in range(m):
            forced[i] = False
        for b in range(n_b):
            c = combo[b]
            if c == 0:
                continue
            for node in (opt_x[b, c - 1], opt_y[b, c - 1]):
                if node < 0 or node == desig:
                    continue
                found = False
                for i in range(m):
                    if path[pos[i]] == node:
                        forced[i] = True
                        found = True
                if not found:
                    ok = False  # a designated-kind node that is not the designated one
        if ok:
            if single:
                val, cnt = count_single(
                    vals, kinds, forced, m, row_kinds[0], row_pay[0], row_visit[0], skip,
                    counted, order,
                )
            else:
                val, cnt = count_rows(
                    vals, kinds, forced, m, row_kinds, row_visit, row_kinds.shape[0], skip,
                    counted,
                )
            if val != INFEASIBLE:
                total = val + base_val
                n_counted = cnt + base_cnt
                bonus = 0
                for b in range(n_b):
                    c = combo[b]
                    if c == 0:
                        continue
                    if opt_min[b, c - 1] >= 0 and n_counted - 1 < opt_min[b, c - 1]:
                        ok = False
                    bonus += opt_amt[b, c - 1]
                if ok and n_counted > 0 and (total + bonus) * mult > best:
                    best = (total + bonus) * mult
                    for p in range(plen):
                        out_counted[p] = False
                    for i in range(m):
                        if counted[i]:
                            out_counted[pos[i]] = True
                    if desig >= 0:
                        for p in range(plen):
                            if path[p] == desig:
                                out_counted[p] = True
                    for b in range(n_b):
                        c = combo[b]
                        out_bonus[b] = 0 if c == 0 else opt_amt[b, c - 1] * mult
        # next combination (mixed radix over bonuses)
        b = 0
        while b < n_b:
            combo[b] += 1
            if combo[b] <= n_opt[b]:
                break
            combo[b] = 0
            b += 1
        if b == n_b:
            break
    return best
