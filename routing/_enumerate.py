"""Numba kernel enumerating every valid route of one train type.

Depth-first over stop-to-stop legs with bitsets of used segments and junctions.  Each valid
route is scored once (:func:`routing._evaluate.evaluate`) and stored as one *variant* per
designated node (goods-train mine) and per subset of route-set bonuses it can claim, with
its cross-route bitset: segments, set-scoped groups, the designated node and the claims.
The packing kernel then treats all rules as additive values plus bit conflicts.
"""

from __future__ import annotations

import numpy as np

from ._buffers import grow1, grow2
from ._count import NO_LIMIT, sort_by_value
from ._evaluate import evaluate, scratch_words
from ._jit import kernel
from .interrupt import clock

_CHECK_EVERY = 4095
#: Variants the outputs hold before they first grow.
_FIRST_CAPACITY = 1024
#: What :func:`_walk` returns: every start stop walked, cut short (deadline or
#: ``max_variants``), or out of output room (the caller grows the outputs and walks on).
_DONE = 0
_CUT = 1
_FULL = 2


@kernel
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


#: What :func:`_score_one_row` returns for a route it leaves to the general evaluator.
_UNDECIDED = -2


@kernel(inline="always")
def _score_one_row(
    path, plen, node_kind, node_val, node_token, token_counted, kinds, pay, visit, skip, vals,
    optional, holds,
):  # fmt: skip
    """Value of a route for a one-row train with no bonus in play (greedy, see _count).

    With ``token_counted`` ("a counted stop holds a token") a route whose stops are all
    mandatory is scored here too: the best ``pay`` stops, or, when none of them holds a
    token, the best ``pay - 1`` and the best token stop (an exchange argument: the optimum
    counts some token stop, at best the best one, beside the best others).  A route with a
    skippable stop is then :data:`_UNDECIDED`, for :func:`routing._evaluate.evaluate`.
    """
    m = 0
    mandatory = 0
    total = 0
    any_token = False
    for p in range(plen):
        k = node_kind[path[p]]
        is_opt = (skip >> k) & 1 == 1
        if is_opt and (kinds >> k) & 1 == 0:
            continue  # skipped: this row cannot count it anyway
        vals[m] = node_val[path[p]]
        optional[m] = is_opt
        holds[m] = node_token[path[p]]
        any_token = any_token or holds[m]
        total += vals[m]
        if not is_opt:
            mandatory += 1
        m += 1
    if mandatory > visit:
        return -1
    if token_counted:
        if mandatory < m or pay <= 0:
            return _UNDECIDED
        if not any_token:
            return -1
    if mandatory == m and m <= pay:
        return total if m > 0 else -1
    # descending insertion sort, then greedy with a cap on optional (skippable) stops
    for i in range(1, m):
        v = vals[i]
        o = optional[i]
        h = holds[i]
        j = i - 1
        while j >= 0 and vals[j] < v:
            vals[j + 1] = vals[j]
            optional[j + 1] = optional[j]
            holds[j + 1] = holds[j]
            j -= 1
        vals[j + 1] = v
        optional[j + 1] = o
        holds[j + 1] = h
    if token_counted:
        # every stop is mandatory here and m > pay
        total = 0
        counted_token = False
        for i in range(pay):
            total += vals[i]
            counted_token = counted_token or holds[i]
        if not counted_token:
            for i in range(pay, m):
                if holds[i]:
                    total += vals[i] - vals[pay - 1]
                    break
        return total
    free = visit - mandatory
    total = 0
    cnt = 0
    for i in range(m):
        if cnt >= pay:
            break
        if optional[i]:
            if free <= 0:
                continue
            free -= 1
        total += vals[i]
        cnt += 1
    return total if cnt > 0 else -1


@kernel
def enumerate_routes(
    node_kind, node_val, node_terminal, node_group, node_token, node_must, node_active, node_hex,
    leg_ptr, leg_end, leg_bits, leg_hex_bits, leg_hex_new, n_seg_words, hex_once,
    row_kinds, row_pay, row_visit, flags, token_counted, mcw_in, mcw_k, opt,
    forbid_a, forbid_b,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    lr_per_stop, lr_kinds, br_a, br_b, br_amount, br_per_hex,
    group_bit, desig_bit, claim_bit, n_cross_words,
    deadline, stop, max_variants, max_desig,
):  # fmt: skip
    """Enumerate the routes of one train.

    ``max_desig``: how many of the problem's trains designate a node (goods trains); a route
    needs at most that many designation variants.

    Returns ``(value, cross, start, leg_ptr, legs, desig, claims, must, n, expanded, done)``:
    per variant its value, cross-route bitset, start stop, leg sequence (CSR), designated
    node (-1), claimed route-set bonuses (bit mask), whether it visits a must-visit node;
    then the variant count, DFS steps, and False if the deadline or ``max_variants`` cut
    the enumeration short.
    """
    n = node_kind.shape[0]
    skip = flags[0]
    mult = flags[1]
    end_kinds = flags[2]
    desig_kind = flags[3]
    min_stops = flags[4]
    n_rows = row_kinds.shape[0]
    row_union = 0
    absorbed = 0
    for r in range(n_rows):
        row_union |= row_kinds[r]
        if row_visit[r] >= NO_LIMIT:
            absorbed |= row_kinds[r]
    allowed_kinds = row_union | skip | desig_kind
    # Stops the route must count that no unlimited row absorbs fill the limited rows, so a
    # route holds at most the limited rows' capacity of them (a goods train's unlimited
    # port row must not lift the limit on its cities).
    free_kinds = skip | desig_kind | absorbed
    max_assign = 0
    for r in range(n_rows):
        if row_visit[r] < NO_LIMIT and row_kinds[r] & ~free_kinds != 0:
            max_assign += row_visit[r]
    # "A counted stop holds a token" binds nothing when every token stop is one the train
    # may not skip, a row takes (not a designated kind, which no row sees), and the rows
    # that take it pay every stop they visit: such a stop is always counted.
    if token_counted:
        auto = True
        for x in range(n):
            if node_token[x]:
                k = node_kind[x]
                if (skip >> k) & 1 or (desig_kind >> k) & 1:
                    auto = False
                taken = False
                for r in range(n_rows):
                    if (row_kinds[r] >> k) & 1:
                        taken = True
                        if row_pay[r] < row_visit[r]:
                            auto = False
                if not taken:
                    auto = False
        if auto:
            token_counted = False
    w_route = leg_bits.shape[1]
    w_hex = leg_hex_bits.shape[1]
    n_groups = group_bit.shape[0]
    n_lr = lr_per_stop.shape[0]
    n_br = br_amount.shape[0]
    n_claim = n_lr + n_br
    n_bonus = ep_a.shape[0] + sp_a.shape[0] + et_amt.shape[0]

    cap = _FIRST_CAPACITY
    out_val = np.empty(cap, dtype=np.int64)
    out_cross = np.empty((cap, n_cross_words), dtype=np.uint64)
    out_start = np.empty(cap, dtype=np.int64)
    out_lptr = np.empty(cap + 1, dtype=np.int64)
    out_legs = np.empty(cap * 4, dtype=np.int64)
    out_desig = np.empty(cap, dtype=np.int64)
    out_claims = np.empty(cap, dtype=np.int64)
    out_must = np.empty(cap, dtype=np.bool_)
    out_lptr[0] = 0

    path = np.empty(n + 1, dtype=np.int64)
    path_leg = np.empty(n + 1, dtype=np.int64)
    it = np.empty(n + 1, dtype=np.int64)
    used = np.zeros((n + 1, w_route), dtype=np.uint64)
    hexes = np.zeros((n + 1, w_hex), dtype=np.uint64)
    visited = np.zeros(n, dtype=np.bool_)
    group_cnt = np.zeros(max(n_groups, 1), dtype=np.int64)
    counted_buf = np.zeros(n + 1, dtype=np.bool_)
    bonus_buf = np.zeros(max(n_bonus, 1), dtype=np.int64)
    desig_list = np.empty(n + 1, dtype=np.int64)
    claim_val = np.zeros(max(n_claim, 1), dtype=np.int64)
    claim_idx = np.empty(max(n_claim, 1), dtype=np.int64)
    set_bits = np.zeros(n_cross_words, dtype=np.uint64)
    scratch = np.empty(scratch_words(n + 1), dtype=np.int64)
    flags_scratch = np.empty(2 * (n + 1), dtype=np.bool_)
    n_assign = np.empty(n + 1, dtype=np.int64)
    # Routes of a one-row train that touch no bonus node are scored inline: calling the
    # general evaluator costs a reference-count round trip per array argument.
    simple_train = n_rows == 1 and mcw_k.shape[0] == 0 and desig_kind == 0
    bonus_node = np.zeros(n, dtype=np.bool_)
    for b in range(ep_a.shape[0]):
        for x in range(n):
            if ep_a[b, x] >= 0 or ep_b[b, x] >= 0:
                bonus_node[x] = True
    for b in range(et_amt.shape[0]):
        for x in range(n):
            if et_amt[b, x] >= 0:
                bonus_node[x] = True
    for b in range(sp_a.shape[0]):
        for x in range(n):
            if sp_a[b, x] or sp_b[b, x]:
                bonus_node[x] = True
    # When no designated-kind node (a mine) is a token or a bonus node and no
    # min-counted-with rule applies, the designated node only adds its own value: a route
    # is counted once and its other designations are that value shifted.
    desig_plain = desig_kind != 0 and mcw_k.shape[0] == 0
    for x in range(n):
        if (desig_kind >> node_kind[x]) & 1 and (node_token[x] or bonus_node[x]):
            desig_plain = False
    fast_vals = np.empty(n + 1, dtype=np.int64)
    fast_opt = np.empty(n + 1, dtype=np.bool_)
    fast_holds = np.empty(n + 1, dtype=np.bool_)

    state = np.zeros(6, dtype=np.int64)
    while True:
        status = _walk(
            state, node_kind, node_val, node_terminal, node_group, node_token, node_must,
            node_active, node_hex, leg_ptr, leg_end, leg_bits, leg_hex_bits, leg_hex_new,
            n_seg_words, hex_once, row_kinds, row_pay, row_visit, skip, mult, end_kinds,
            desig_kind, min_stops, allowed_kinds, free_kinds, max_assign, token_counted,
            mcw_in, mcw_k, opt, forbid_a, forbid_b,
            ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
            lr_per_stop, lr_kinds, br_a, br_b, br_amount, br_per_hex,
            group_bit, desig_bit, claim_bit, n_cross_words, deadline, stop, max_variants,
            max_desig,
            simple_train, desig_plain, bonus_node,
            path, path_leg, it, used, hexes, visited, group_cnt, counted_buf, bonus_buf,
            desig_list, claim_val, claim_idx, set_bits, scratch, flags_scratch, n_assign,
            fast_vals, fast_opt, fast_holds,
            out_val, out_cross, out_start, out_lptr, out_legs, out_desig, out_claims, out_must,
        )  # fmt: skip
        if status != _FULL:
            break
        # room for the variants of the route that did not fit (at least doubled)
        rows = state[4]
        out_val = grow1(out_val, rows)
        out_cross = grow2(out_cross, rows)
        out_start = grow1(out_start, rows)
        out_lptr = grow1(out_lptr, rows + 1)
        out_desig = grow1(out_desig, rows)
        out_claims = grow1(out_claims, rows)
        out_must = grow1(out_must, rows)
        out_legs = grow1(out_legs, state[5])
    nv = state[1]
    n_legs_out = state[2]
    expanded = state[3]
    done = status == _DONE
    return (
        out_val[:nv], out_cross[:nv], out_start[:nv], out_lptr[: nv + 1], out_legs[:n_legs_out],
        out_desig[:nv], out_claims[:nv], out_must[:nv], nv, expanded, done,
    )  # fmt: skip


@kernel
def _walk(
    state, node_kind, node_val, node_terminal, node_group, node_token, node_must, node_active,
    node_hex, leg_ptr, leg_end, leg_bits, leg_hex_bits, leg_hex_new, n_seg_words, hex_once,
    row_kinds, row_pay, row_visit, skip, mult, end_kinds, desig_kind, min_stops,
    allowed_kinds, free_kinds, max_assign, token_counted, mcw_in, mcw_k, opt,
    forbid_a, forbid_b,
    ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted, et_amt, et_min_other,
    lr_per_stop, lr_kinds, br_a, br_b, br_amount, br_per_hex,
    group_bit, desig_bit, claim_bit, n_cross_words, deadline, stop, max_variants, max_desig,
    simple_train, desig_plain, bonus_node,
    path, path_leg, it, used, hexes, visited, group_cnt, counted_buf, bonus_buf, desig_list,
    claim_val, claim_idx, set_bits, scratch, flags_scratch, n_assign, fast_vals, fast_opt,
    fast_holds,
    out_val, out_cross, out_start, out_lptr, out_legs, out_desig, out_claims, out_must,
):  # fmt: skip
    """The depth-first walk of :func:`enumerate_routes`, from start stop ``state[0]`` on.

    ``state`` is ``[start stop, variants, legs stored, steps, variants needed, legs
    needed]``: where the walk begins and the counts so far; on return, where it stopped (on
    :data:`_FULL`, the start stop whose routes must be walked again, with the counts from
    before it, and the output room the route that did not fit needs).  A function of its own so
    that the outputs are never rebound inside the walk: numba keeps the reference counts of
    an array that a loop may rebind on every pass (a profile of the walk showed those atomic
    adds and subtracts as its hottest instructions).
    """
    n = node_kind.shape[0]
    w_route = leg_bits.shape[1]
    w_hex = leg_hex_bits.shape[1]
    n_lr = lr_per_stop.shape[0]
    n_br = br_amount.shape[0]
    n_forbid = forbid_a.shape[0]
    nv = state[1]
    n_legs_out = state[2]
    expanded = state[3]
    done = True
    for s in range(state[0], n):
        if not done:
            break
        state[0] = s
        state[1] = nv
        state[2] = n_legs_out
        state[3] = expanded
        if not node_active[s] or node_kind[s] == 0:
            continue
        if (allowed_kinds >> node_kind[s]) & 1 == 0:
            continue
        if end_kinds != 0 and (end_kinds >> node_kind[s]) & 1 == 0:
            # A route must end at an end-kind stop (a goods train's port), so each route is
            # found from that end; a search from any other stop would only find it again.
            continue
        depth = 0
        path[0] = s
        visited[s] = True
        g = node_group[s]
        if g >= 0:
            group_cnt[g] += 1
        assign = 0 if (free_kinds >> node_kind[s]) & 1 else 1
        if assign > max_assign:
            visited[s] = False
            if g >= 0:
                group_cnt[g] -= 1
            continue
        n_assign[0] = assign
        for w in range(w_route):
            used[0, w] = 0
        for w in range(w_hex):
            hexes[0, w] = 0
        hs = node_hex[s]
        hexes[0, hs >> 6] = np.uint64(1) << np.uint64(hs & 63)
        it[0] = leg_ptr[s]
        while depth >= 0:
            u = path[depth]
            if it[depth] < leg_ptr[u + 1] and (depth == 0 or not node_terminal[u]):
                leg = it[depth]
                it[depth] += 1
                t = leg_end[leg]
                if visited[t]:
                    continue
                kt = node_kind[t]
                if (allowed_kinds >> kt) & 1 == 0:
                    continue
                gt = node_group[t]
                if gt >= 0 and group_cnt[gt] > 0:
                    continue
                a2 = n_assign[depth]
                if (free_kinds >> kt) & 1 == 0:
                    a2 += 1
                    if a2 > max_assign:
                        continue
                clash = False
                for w in range(w_route):
                    if used[depth, w] & leg_bits[leg, w]:
                        clash = True
                        break
                if clash:
                    continue
                if hex_once:
                    for w in range(w_hex):
                        if hexes[depth, w] & leg_hex_new[leg, w]:
                            clash = True
                            break
                    if clash:
                        continue
                expanded += 1
                if (expanded & _CHECK_EVERY) == 0:
                    if clock(stop) > deadline:  # +inf once Ctrl-C was pressed
                        done = False
                        break
                d1 = depth + 1
                path[d1] = t
                path_leg[d1] = leg
                n_assign[d1] = a2
                for w in range(w_route):
                    used[d1, w] = used[depth, w] | leg_bits[leg, w]
                for w in range(w_hex):
                    hexes[d1, w] = hexes[depth, w] | leg_hex_bits[leg, w]
                visited[t] = True
                if gt >= 0:
                    group_cnt[gt] += 1
                it[d1] = leg_ptr[t]
                depth = d1
                plen = d1 + 1
                if plen < min_stops:
                    continue
                if not s < t and (end_kinds == 0 or (end_kinds >> kt) & 1):
                    continue  # found from its other end as well
                # ---- route-level checks
                tok = False
                must = False
                for p in range(plen):
                    tok = tok or node_token[path[p]]
                    must = must or node_must[path[p]]
                if not tok:
                    continue
                bad = False
                for f in range(n_forbid):
                    if (forbid_a[f, s] and forbid_b[f, t]) or (forbid_a[f, t] and forbid_b[f, s]):
                        bad = True
                        break
                if bad:
                    continue
                n_desig = 0
                if desig_kind != 0:
                    for p in range(plen):
                        if (desig_kind >> node_kind[path[p]]) & 1:
                            desig_list[n_desig] = path[p]
                            n_desig += 1
                    if n_desig == 0:
                        continue
                else:
                    desig_list[0] = -1
                    n_desig = 1
                # route-set claims (independent of the counting choice)
                n_claimable = 0
                for f in range(n_lr):
                    c = 0
                    for p in range(plen):
                        if (lr_kinds[f] >> node_kind[path[p]]) & 1:
                            c += 1
                    claim_val[f] = lr_per_stop[f] * c
                    if claim_val[f] > 0:
                        claim_idx[n_claimable] = f
                        n_claimable += 1
                if n_br > 0:
                    nh = 0
                    for w in range(w_hex):
                        nh += _popcount(hexes[d1, w])
                    for f in range(n_br):
                        has_a = False
                        has_b = False
                        for p in range(plen):
                            has_a = has_a or br_a[f, path[p]]
                            has_b = has_b or br_b[f, path[p]]
                        claim_val[n_lr + f] = 0
                        if has_a and has_b:
                            v = br_amount[f] - br_per_hex[f] * np.int64(nh)
                            if v > 0:
                                claim_val[n_lr + f] = v
                                claim_idx[n_claimable] = n_lr + f
                                n_claimable += 1
                for w in range(n_cross_words):
                    set_bits[w] = 0
                for w in range(n_seg_words):
                    set_bits[w] = used[d1, w]
                for p in range(plen):
                    gp = node_group[path[p]]
                    if gp >= 0 and group_bit[gp] >= 0:
                        b = group_bit[gp]
                        set_bits[b >> 6] |= np.uint64(1) << np.uint64(b & 63)
                fast = simple_train
                if fast:
                    for p in range(plen):
                        if bonus_node[path[p]]:
                            fast = False
                            break
                if desig_plain and n_desig > 1:
                    # Keep the designations worth most, one per key, at most as many as the
                    # problem has designating trains: whatever keys the others take, one of
                    # them is left, and it is worth at least any designation dropped.
                    sort_by_value(desig_list, n_desig, node_val)
                    kept = 0
                    for a in range(n_desig):
                        if kept >= max_desig:
                            break
                        fresh_key = True
                        for b in range(kept):
                            if desig_bit[desig_list[b]] == desig_bit[desig_list[a]]:
                                fresh_key = False
                        if fresh_key:
                            desig_list[kept] = desig_list[a]
                            kept += 1
                    n_desig = kept
                val0 = -1
                for di in range(n_desig):
                    dnode = desig_list[di]
                    if di > 0 and desig_plain:
                        val = -1
                        if val0 >= 0:
                            val = val0 + (node_val[dnode] - node_val[desig_list[0]]) * mult
                    else:
                        val = _UNDECIDED
                        if fast:
                            val = _score_one_row(
                                path, plen, node_kind, node_val, node_token, token_counted,
                                row_kinds[0], row_pay[0], row_visit[0], skip, fast_vals,
                                fast_opt, fast_holds,
                            )  # fmt: skip
                            if val >= 0:
                                val *= mult
                    if val == _UNDECIDED:
                        val = evaluate(
                            path, plen, dnode, node_kind, node_val, node_token,
                            row_kinds, row_pay, row_visit, skip, mult, desig_kind, token_counted,
                            ep_a, ep_b, ep_counted, sp_a, sp_b, sp_amount, sp_counted,
                            et_amt, et_min_other, mcw_in, mcw_k,
                            counted_buf, bonus_buf, scratch, flags_scratch, opt,
                        )  # fmt: skip
                    if di == 0:
                        val0 = val
                    if val < 0:
                        continue
                    if (
                        nv + (1 << n_claimable) > out_val.shape[0]
                        or n_legs_out + d1 * (1 << n_claimable) > out_legs.shape[0]
                    ):
                        # no room for this route's variants: start this stop's routes again
                        # once the caller made room for them (the outputs are never rebound
                        # here)
                        state[4] = nv + (1 << n_claimable)
                        state[5] = n_legs_out + d1 * (1 << n_claimable)
                        for p in range(depth + 1):
                            visited[path[p]] = False
                            gp = node_group[path[p]]
                            if gp >= 0:
                                group_cnt[gp] -= 1
                        return _FULL
                    for subset in range(1 << n_claimable):
                        if nv >= max_variants:
                            done = False
                            break
                        total = val
                        cmask = 0
                        for w in range(n_cross_words):
                            out_cross[nv, w] = set_bits[w]
                        for q in range(n_claimable):
                            if (subset >> q) & 1:
                                f = claim_idx[q]
                                total += claim_val[f]
                                cmask |= 1 << f
                                b = claim_bit[f]
                                out_cross[nv, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
                        if dnode >= 0:
                            b = desig_bit[dnode]
                            out_cross[nv, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
                        out_val[nv] = total
                        out_start[nv] = s
                        for p in range(1, plen):
                            out_legs[n_legs_out] = path_leg[p]
                            n_legs_out += 1
                        out_lptr[nv + 1] = n_legs_out
                        out_desig[nv] = dnode
                        out_claims[nv] = cmask
                        out_must[nv] = must
                        nv += 1
                    if not done:
                        break
                if not done:
                    break
            else:
                # backtrack
                visited[u] = False
                gu = node_group[u]
                if gu >= 0:
                    group_cnt[gu] -= 1
                depth -= 1
        if not done:
            state[1] = nv
            state[2] = n_legs_out
            state[3] = expanded
            return _CUT
    state[0] = n
    state[1] = nv
    state[2] = n_legs_out
    state[3] = expanded
    return _DONE
