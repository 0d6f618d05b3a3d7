"""Numba kernel scoring one stop sequence for one train: counting plus per-route bonuses.

The route's bonuses may require particular stops to be counted (both ends for an E–W
bonus), and some rules require it outright (a token stop must be counted).  Every
combination of "this bonus taken, with this forcing" is scored by the counting kernels and
the best kept: exact, and cheap because few routes touch bonus nodes.  A route without
bonuses takes one counting pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._count import INFEASIBLE, count_rows, count_single

#: Added to the value of stops outside a ``min_counted_with`` set to count them first.
_BOOST = 1 << 40


@njit(cache=True)
def _count(vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order):
    if row_kinds.shape[0] == 1:
        return count_single(
            vals, kinds, forced, m, row_kinds[0], row_pay[0], row_visit[0], skip, counted, order
        )
    return count_rows(
        vals, kinds, forced, m, row_kinds, row_visit, row_kinds.shape[0], skip, counted
    )


@njit(cache=True)
def _min_counted_ok(path, plen, pos, counted, m, desig, mcw_in, mcw_k):
    """Whether every ``min_counted_with`` condition the route triggers holds."""
    for b in range(mcw_k.shape[0]):
        hit = False
        for p in range(plen):
            if mcw_in[b, path[p]]:
                hit = True
        if not hit:
            continue
        outside = 0
        for i in range(m):
            if counted[i] and not mcw_in[b, path[pos[i]]]:
                outside += 1
        if desig >= 0 and not mcw_in[b, desig]:
            outside += 1
        if outside < mcw_k[b]:
            return False
    return True


@njit(cache=True)
def _count_constrained(
    vals,
    kinds,
    forced,
    m,
    row_kinds,
    row_pay,
    row_visit,
    skip,
    counted,
    order,
    path,
    plen,
    pos,
    desig,
    mcw_in,
    mcw_k,
    boosted,
):
    """Count, then repair a violated ``min_counted_with`` by counting outside stops first.

    The repair maximises the number of counted stops outside the sets, then value; it is
    exact for trains that count every stop they visit (N and D trains), which is where the
    seed titles use the rule.
    """
    val, cnt = _count(vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order)
    if val == INFEASIBLE or mcw_k.shape[0] == 0:
        return val, cnt
    if _min_counted_ok(path, plen, pos, counted, m, desig, mcw_in, mcw_k):
        return val, cnt
    for i in range(m):
        boosted[i] = vals[i]
        inside = False
        for b in range(mcw_k.shape[0]):
            if mcw_in[b, path[pos[i]]]:
                inside = True
        if not inside:
            boosted[i] += _BOOST
    val, cnt = _count(
        boosted, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order
    )
    if val == INFEASIBLE or not _min_counted_ok(path, plen, pos, counted, m, desig, mcw_in, mcw_k):
        return INFEASIBLE, 0
    val = 0
    for i in range(m):
        if counted[i]:
            val += vals[i]
    return val, cnt


@njit(cache=True)
def _token_counted(path, pos, counted, m, desig, node_token):
    if desig >= 0 and node_token[desig]:
        return True
    for i in range(m):
        if counted[i] and node_token[path[pos[i]]]:
            return True
    return False


@njit(cache=True)
def _touches_bonus(path, plen, ep_a, ep_b, sp_a, sp_b, et_amt):
    """Whether any per-route bonus could apply to this route (cheap, allocation-free)."""
    first = path[0]
    last = path[plen - 1]
    for b in range(ep_a.shape[0]):
        if (ep_a[b, first] >= 0 and ep_b[b, last] >= 0) or (
            ep_a[b, last] >= 0 and ep_b[b, first] >= 0
        ):
            return True
    for b in range(et_amt.shape[0]):
        if et_amt[b, first] >= 0 or et_amt[b, last] >= 0:
            return True
    for b in range(sp_a.shape[0]):
        has_a = False
        has_b = False
        for p in range(plen):
            has_a = has_a or sp_a[b, path[p]]
            has_b = has_b or sp_b[b, path[p]]
        if has_a and has_b:
            return True
    return False


@njit(cache=True)
def evaluate(
    path, plen, desig,
    node_kind, node_val, node_token,
    row_kinds, row_pay, row_visit, skip, mult, desig_kind, token_counted,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    mcw_in, mcw_k,
    out_counted, out_bonus, scratch, flags_scratch,
):  # fmt: skip
    """Best multiplied value of stop sequence ``path[:plen]`` with designated node ``desig``.

    ``out_counted[p]`` flags the counted stops (by position); ``out_bonus`` receives each
    per-route bonus taken, in the order end-pair, set-pair, end-token (multiplied).
    ``scratch`` (int64) and ``flags_scratch`` (bool) are work space of at least
    ``5 * plen`` and ``2 * plen`` entries, so the hot path allocates nothing.
    Returns the value, or ``INFEASIBLE``.
    """
    vals = scratch[0:plen]
    kinds = scratch[plen : 2 * plen]
    pos = scratch[2 * plen : 3 * plen]
    order = scratch[3 * plen : 4 * plen]
    boosted = scratch[4 * plen : 5 * plen]
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
    if not _touches_bonus(path, plen, ep_a, ep_b, sp_a, sp_b, et_amt):
        # no per-route bonus: one counting pass, unless the token rule needs forcing
        val, cnt = _count_constrained(
            vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order,
            path, plen, pos, desig, mcw_in, mcw_k, boosted,
        )  # fmt: skip
        if val == INFEASIBLE or cnt + base_cnt == 0:
            return INFEASIBLE
        if not token_counted or _token_counted(path, pos, counted, m, desig, node_token):
            for b in range(out_bonus.shape[0]):
                out_bonus[b] = 0
            for p in range(plen):
                out_counted[p] = desig >= 0 and path[p] == desig
            for i in range(m):
                if counted[i]:
                    out_counted[pos[i]] = True
            return (val + base_val) * mult
    return _evaluate_general(
        path, plen, desig, m, vals, kinds, pos, order, boosted, forced, counted, base_val,
        base_cnt, node_token, row_kinds, row_pay, row_visit, skip, mult, token_counted,
        ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
        mcw_in, mcw_k, out_counted, out_bonus,
    )  # fmt: skip


@njit(cache=True)
def _evaluate_general(
    path, plen, desig, m, vals, kinds, pos, order, boosted, forced, counted, base_val,
    base_cnt, node_token, row_kinds, row_pay, row_visit, skip, mult, token_counted,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    mcw_in, mcw_k, out_counted, out_bonus,
):  # fmt: skip
    """:func:`evaluate` for a route with per-route bonuses or a token to force."""
    n_ep = ep_a.shape[0]
    n_sp = sp_a.shape[0]
    n_et = et_amt.shape[0]
    n_bonus = n_ep + n_sp + n_et
    # one extra mandatory "bonus" of amount 0 whose options force a token stop
    force_token = token_counted and not (desig >= 0 and node_token[desig])
    n_b = n_bonus + (1 if force_token else 0)
    max_opt = plen if plen > 2 else 2
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
    if force_token:
        k = n_bonus
        for p in range(plen):
            if node_token[path[p]]:
                opt_x[k, n_opt[k]] = path[p]
                n_opt[k] += 1
        if n_opt[k] == 0:
            return INFEASIBLE

    best = INFEASIBLE
    combo = np.zeros(n_b, dtype=np.int64)  # 0 = not taken, j+1 = option j
    if force_token:
        combo[n_bonus] = 1  # the token group is mandatory: never "not taken"
    while True:
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
            val, cnt = _count_constrained(
                vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order,
                path, plen, pos, desig, mcw_in, mcw_k, boosted,
            )  # fmt: skip
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
                    for b in range(n_bonus):
                        c = combo[b]
                        out_bonus[b] = 0 if c == 0 else opt_amt[b, c - 1] * mult
        # next combination (mixed radix over bonuses; the token group never wraps to 0)
        b = 0
        while b < n_b:
            combo[b] += 1
            if combo[b] <= n_opt[b]:
                break
            combo[b] = 1 if (force_token and b == n_bonus) else 0
            b += 1
        if b == n_b:
            break
    return best
