"""Numba kernel scoring one stop sequence for one train: counting plus per-route bonuses.

The route's bonuses may require particular stops to be counted (both ends for an E–W
bonus), and some rules require it outright (a token stop must be counted).  Every
combination of "this bonus taken, with this forcing" is scored by the counting kernels and
the best kept: exact, and cheap because few routes touch bonus nodes.

Each helper is called from exactly one place, so LLVM inlines every piece once; compile
time grows with the number of call sites, not just the amount of code.
"""

from __future__ import annotations

import numpy as np

from ._count import HALL_WORDS, INFEASIBLE, count_rows, count_single
from ._jit import kernel

#: Added to the value of stops outside a ``min_counted_with`` set to count them first.
_BOOST = 1 << 40


@kernel
def scratch_words(plen):
    """Length of the int64 ``scratch`` :func:`evaluate` needs for a route of ``plen`` stops."""
    return 5 * plen + 5 + HALL_WORDS


@kernel(allocates=False)
def _count(vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order, hall):
    if row_kinds.shape[0] == 1:
        return count_single(
            vals, kinds, forced, m, row_kinds[0], row_pay[0], row_visit[0], skip, counted, order
        )
    return count_rows(
        vals, kinds, forced, m, row_kinds, row_visit, row_kinds.shape[0], skip, counted, order,
        hall,
    )


@kernel(allocates=False)
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


@kernel(allocates=False)
def _count_constrained(
    vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order,
    path, plen, pos, desig, mcw_in, mcw_k, boosted, hall,
):  # fmt: skip
    """Count; if a ``min_counted_with`` condition fails, count outside stops first.

    The second pass maximises the number of counted stops outside the sets, then value; it
    is exact for trains that count every stop they visit (N and D trains), which is where the
    seed titles use the rule.
    """
    for attempt in range(2):
        use = vals
        if attempt == 1:
            for i in range(m):
                boosted[i] = vals[i]
                inside = False
                for b in range(mcw_k.shape[0]):
                    if mcw_in[b, path[pos[i]]]:
                        inside = True
                if not inside:
                    boosted[i] += _BOOST
            use = boosted
        val, cnt = _count(
            use, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order, hall
        )
        if val == INFEASIBLE:
            return INFEASIBLE, 0
        if mcw_k.shape[0] == 0 or _min_counted_ok(
            path, plen, pos, counted, m, desig, mcw_in, mcw_k
        ):
            if attempt == 1:
                val = 0
                for i in range(m):
                    if counted[i]:
                        val += vals[i]
            return val, cnt
    return INFEASIBLE, 0


@kernel(allocates=False)
def evaluate(
    path, plen, desig,
    node_kind, node_val, node_token,
    row_kinds, row_pay, row_visit, skip, mult, desig_kind, token_counted,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    mcw_in, mcw_k,
    out_counted, out_bonus, scratch, flags_scratch, opt,
):  # fmt: skip
    """Best multiplied value of stop sequence ``path[:plen]`` with designated node ``desig``.

    ``out_counted[p]`` flags the counted stops (by position); ``out_bonus`` receives each
    per-route bonus taken, in the order end-pair, set-pair, end-token (multiplied).
    ``scratch`` (int64, ``5 * plen``), ``flags_scratch`` (bool, ``2 * plen``) and ``opt``
    (int64 ``[4, n_bonus + 1, max_options]``, see :func:`option_buffer`) are work space, so
    nothing is allocated per route.  Returns the value, or ``INFEASIBLE``.
    """
    vals = scratch[0:plen]
    kinds = scratch[plen : 2 * plen]
    pos = scratch[2 * plen : 3 * plen]
    order = scratch[3 * plen : 4 * plen]
    boosted = scratch[4 * plen : 5 * plen]
    hall = scratch[5 * plen : 5 * plen + HALL_WORDS]
    forced = flags_scratch[0:plen]
    counted = flags_scratch[plen : 2 * plen]
    opt_amt = opt[0]
    opt_x = opt[1]
    opt_y = opt[2]
    opt_min = opt[3]
    # stops the rows see: everything but designated-kind nodes.  (np.int64, not a literal 0:
    # a literal would make numba compile the callees a second time for Literal[int](0).)
    m = np.int64(0)
    for p in range(plen):
        node = path[p]
        if desig_kind != 0 and (desig_kind >> node_kind[node]) & 1:
            continue
        vals[m] = node_val[node]
        kinds[m] = node_kind[node]
        pos[m] = p
        m += 1
    base_val = 0
    base_cnt = 0
    if desig >= 0:
        base_val = node_val[desig]
        base_cnt = 1

    # the options of each bonus: (amount, forced node x, forced node y, min other stops)
    n_ep = ep_a.shape[0]
    n_sp = sp_a.shape[0]
    n_et = et_amt.shape[0]
    n_bonus = n_ep + n_sp + n_et
    force_token = token_counted and not (desig >= 0 and node_token[desig])
    n_b = n_bonus + (1 if force_token else 0)
    first = path[0]
    last = path[plen - 1]
    for b in range(n_b):
        opt_min[b, 0] = 0  # opt_min[b, 0] doubles as the option count of bonus b
    for b in range(n_ep):
        amt = -1
        if ep_a[b, first] >= 0 and ep_b[b, last] >= 0:
            amt = ep_a[b, first] + ep_b[b, last]
        if ep_a[b, last] >= 0 and ep_b[b, first] >= 0:
            alt = ep_a[b, last] + ep_b[b, first]
            if alt > amt:
                amt = alt
        if amt >= 0:
            _add_option(
                opt, b, amt, first if ep_counted[b] else -1, last if ep_counted[b] else -1, -1
            )
    for b in range(n_sp):
        k = n_ep + b
        if sp_counted[b]:
            for p in range(plen):
                if sp_a[b, path[p]]:
                    for q in range(plen):
                        if sp_b[b, path[q]]:
                            _add_option(opt, k, sp_amount[b], path[p], path[q], -1)
        else:
            has_a = False
            has_b = False
            for p in range(plen):
                has_a = has_a or sp_a[b, path[p]]
                has_b = has_b or sp_b[b, path[p]]
            if has_a and has_b:
                _add_option(opt, k, sp_amount[b], -1, -1, -1)
    for b in range(n_et):
        k = n_ep + n_sp + b
        for end in (first, last):
            if et_amt[b, end] >= 0:
                _add_option(opt, k, et_amt[b, end], end, -1, et_min_other[b])
    if force_token:
        for p in range(plen):
            if node_token[path[p]]:
                _add_option(opt, n_bonus, 0, path[p], -1, -1)
        if opt_min[n_bonus, 0] == 0:
            return INFEASIBLE

    best = INFEASIBLE
    # The token rule ("a counted stop holds a token") is the last option group.  Each
    # combination of the other bonuses is first counted without it: when that counting
    # already holds a token it is the best one the rule allows (forcing only restricts), so
    # the forced countings, one per token stop, run only when it holds none.  (Not with a
    # min-counted-with rule, whose second counting pass is exact only for N and D trains.)
    n_tok = opt_min[n_bonus, 0] if force_token else 0
    t_first = 1 if force_token and mcw_k.shape[0] > 0 else 0
    for b in range(n_b):
        opt_x[b, 0] = 0
    while True:
        for t in range(t_first, n_tok + 1):
            ok = True
            for i in range(m):
                forced[i] = False
            for b in range(n_b):
                c = t if b == n_bonus else opt_x[b, 0]
                if c == 0:
                    continue
                for node in (opt_x[b, c], opt_y[b, c]):
                    if node < 0 or node == desig:
                        continue
                    found = False
                    for i in range(m):
                        if path[pos[i]] == node:
                            forced[i] = True
                            found = True
                    if not found:
                        ok = False  # a designated-kind node that is not the designated one
            if not ok:
                continue
            val, cnt = _count_constrained(
                vals, kinds, forced, m, row_kinds, row_pay, row_visit, skip, counted, order,
                path, plen, pos, desig, mcw_in, mcw_k, boosted, hall,
            )  # fmt: skip
            if val == INFEASIBLE:
                continue
            if t == 0 and force_token:
                holds = False
                for i in range(m):
                    if counted[i] and node_token[path[pos[i]]]:
                        holds = True
                if not holds:
                    continue
            n_counted = cnt + base_cnt
            bonus = 0
            for b in range(n_bonus):
                c = opt_x[b, 0]
                if c == 0:
                    continue
                if opt_min[b, c] >= 0 and n_counted - 1 < opt_min[b, c]:
                    ok = False
                bonus += opt_amt[b, c]
            if ok and n_counted > 0 and (val + base_val + bonus) * mult > best:
                best = (val + base_val + bonus) * mult
                for p in range(plen):
                    out_counted[p] = desig >= 0 and path[p] == desig
                for i in range(m):
                    if counted[i]:
                        out_counted[pos[i]] = True
                for b in range(n_bonus):
                    c = opt_x[b, 0]
                    out_bonus[b] = 0 if c == 0 else opt_amt[b, c] * mult
            if t == 0 and ok:
                break  # the unforced counting holds a token: no forced one does better
        # next combination of the other bonuses (mixed radix)
        b = 0
        while b < n_bonus:
            opt_x[b, 0] += 1
            if opt_x[b, 0] <= opt_min[b, 0]:
                break
            opt_x[b, 0] = 0
            b += 1
        if b == n_bonus:
            break
    return best


@kernel(allocates=False)
def _add_option(opt, b, amount, x, y, min_other):
    """Append an option to bonus ``b`` (1-based slot; the count lives in ``opt[3, b, 0]``)."""
    j = opt[3, b, 0] + 1
    opt[3, b, 0] = j
    opt[0, b, j] = amount
    opt[1, b, j] = x
    opt[2, b, j] = y
    opt[3, b, j] = min_other
