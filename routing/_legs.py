"""Numba kernel compressing junction chains into stop-to-stop legs.

A leg is a simple path from one stop to another through junctions only, obeying the side
labels (no back-tracking at a junction).  Each leg carries a bitset of the segments and
junctions it uses and of the hexes it touches, so the route search never looks at junctions
again.
"""

from __future__ import annotations

import numpy as np

from ._buffers import grow1
from ._jit import kernel


@kernel
def _reenters(hseq, n, exempt):
    """Whether hex sequence ``hseq[:n]`` leaves a non-exempt hex and comes back to it."""
    for i in range(1, n):
        h = hseq[i]
        if h == hseq[i - 1] or exempt[h]:
            continue
        for j in range(i - 1):
            if hseq[j] == h and hseq[j + 1] != h:
                return True
    return False


@kernel
def reach(n, seg_u, seg_v, node_terminal, token):
    """Nodes on a connected piece of track that holds a token (``token``: a node mask).

    A terminal node is reached but not passed through, unless it holds a token.
    """
    m = seg_u.shape[0]
    first = np.zeros(n + 1, dtype=np.int64)  # adjacency in CSR form
    for s in range(m):
        first[seg_u[s] + 1] += 1
        first[seg_v[s] + 1] += 1
    for u in range(n):
        first[u + 1] += first[u]
    fill = first[:n].copy()
    adj = np.empty(2 * m, dtype=np.int64)
    for s in range(m):
        u, v = seg_u[s], seg_v[s]
        adj[fill[u]] = v
        fill[u] += 1
        adj[fill[v]] = u
        fill[v] += 1
    seen = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)  # a node is pushed once, when first seen
    top = 0
    for u in range(n):
        if token[u]:
            seen[u] = True
            stack[top] = u
            top += 1
    while top:
        top -= 1
        u = stack[top]
        if node_terminal[u] and not token[u]:
            continue
        for k in range(first[u], first[u + 1]):
            v = adj[k]
            if not seen[v]:
                seen[v] = True
                stack[top] = v
                top += 1
    return seen


@kernel
def legs(
    node_kind, node_hex, node_terminal, node_token, seg_u, seg_v, seg_side_u, seg_side_v,
    seg_hex, n_hexes, from_tokens, hex_once, hex_exempt,
):  # fmt: skip
    """The legs of a network as the search takes them, from the network's own arrays.

    ``from_tokens``: only the nodes :func:`reach` finds from the ``node_token`` nodes are
    active (else every node).  Returns ``(active, ptr, end, segs_ptr, segs, nodes_ptr,
    nodes, bits, hex_bits, hex_new)``: the active nodes, :func:`build_legs`' legs and
    :func:`leg_bitsets`' bits, whose first ``max(1, ceil(segments / 64))`` words hold the
    segments and the rest the active junctions.
    """
    n = node_kind.shape[0]
    m = seg_u.shape[0]
    if from_tokens:
        active = reach(n, seg_u, seg_v, node_terminal, node_token)
    else:
        active = np.ones(n, dtype=np.bool_)
    # both directions of every segment between active nodes, in CSR form by the node they
    # leave: at each node its segments as the first end, then as the second, in id order
    inc_ptr = np.zeros(n + 1, dtype=np.int64)
    for j in range(m):
        if active[seg_u[j]] and active[seg_v[j]]:
            inc_ptr[seg_u[j] + 1] += 1
            inc_ptr[seg_v[j] + 1] += 1
    for u in range(n):
        inc_ptr[u + 1] += inc_ptr[u]
    fill = inc_ptr[:n].copy()
    size = inc_ptr[n]
    inc_seg = np.empty(size, dtype=np.int64)
    inc_other = np.empty(size, dtype=np.int64)
    inc_side_here = np.empty(size, dtype=np.int64)
    inc_side_other = np.empty(size, dtype=np.int64)
    for first in (True, False):
        for j in range(m):
            if active[seg_u[j]] and active[seg_v[j]]:
                here, other = (seg_u[j], seg_v[j]) if first else (seg_v[j], seg_u[j])
                side_here, side_other = (
                    (seg_side_u[j], seg_side_v[j]) if first else (seg_side_v[j], seg_side_u[j])
                )
                k = fill[here]
                fill[here] += 1
                inc_seg[k] = j
                inc_other[k] = other
                inc_side_here[k] = side_here
                inc_side_other[k] = side_other
    ptr, end, segs_ptr, segs, nodes_ptr, nodes = build_legs(
        node_kind, active, node_hex, seg_hex, inc_ptr, inc_seg, inc_other, inc_side_here,
        inc_side_other, hex_once, hex_exempt,
    )  # fmt: skip
    # junction bits start on a fresh word after the segments' words: those words alone
    # decide conflicts between different routes
    junction_bit = np.full(n, -1, dtype=np.int64)
    n_junctions = 0
    for u in range(n):
        if node_kind[u] == 0 and active[u]:
            junction_bit[u] = n_junctions
            n_junctions += 1
    n_seg_words = max(1, (m + 63) // 64)
    w_route = n_seg_words + (n_junctions + 63) // 64
    w_hex = max(1, (n_hexes + 63) // 64)
    bits, hex_bits, hex_new = leg_bitsets(
        end.shape[0], ptr, end, segs_ptr, segs, nodes_ptr, nodes, junction_bit, node_hex,
        seg_hex, n_seg_words, w_route, w_hex, hex_exempt,
    )  # fmt: skip
    return active, ptr, end, segs_ptr, segs, nodes_ptr, nodes, bits, hex_bits, hex_new


@kernel
def build_legs(
    node_kind, node_active, node_hex, seg_hex,
    inc_ptr, inc_seg, inc_other, inc_side_here, inc_side_other,
    hex_once, hex_exempt,
):  # fmt: skip
    """Every leg, grouped by start stop.

    Returns ``(ptr, end, segs_ptr, segs, nodes_ptr, nodes)`` in CSR form: legs leaving stop
    ``u`` are ``ptr[u]:ptr[u+1]``; leg ``l``'s segments are ``segs[segs_ptr[l]:segs_ptr[l+1]]``
    and its junctions ``nodes[nodes_ptr[l]:nodes_ptr[l+1]]``, both in order from the start.
    """
    n = node_kind.shape[0]
    ptr = np.zeros(n + 1, dtype=np.int64)
    end = np.empty(256, dtype=np.int64)
    segs_ptr = np.zeros(257, dtype=np.int64)
    segs = np.empty(1024, dtype=np.int64)
    nodes_ptr = np.zeros(257, dtype=np.int64)
    nodes = np.empty(1024, dtype=np.int64)
    n_legs = 0
    n_segs = 0
    n_nodes = 0
    p_seg = np.empty(n + 2, dtype=np.int64)  # segments on the current path
    p_node = np.empty(n + 2, dtype=np.int64)  # junctions on the current path
    p_side = np.empty(n + 2, dtype=np.int64)  # side label we arrived by
    p_it = np.empty(n + 2, dtype=np.int64)
    on_path = np.zeros(n, dtype=np.bool_)
    hseq = np.empty(n + 4, dtype=np.int64)
    for s in range(n):
        ptr[s + 1] = ptr[s]
        if not node_active[s] or node_kind[s] == 0:
            continue
        # depth 0 iterates the start's incidences; depth d >= 1 sits on junction p_node[d]
        depth = 0
        p_it[0] = inc_ptr[s]
        while depth >= 0:
            here = s if depth == 0 else p_node[depth]
            if p_it[depth] >= inc_ptr[here + 1]:
                if depth > 0:
                    on_path[p_node[depth]] = False
                depth -= 1
                continue
            k = p_it[depth]
            p_it[depth] += 1
            other = inc_other[k]
            if not node_active[other] or other == s or on_path[other]:
                continue
            if depth > 0 and (inc_seg[k] == p_seg[depth] or inc_side_here[k] == p_side[depth]):
                continue
            d1 = depth + 1
            p_seg[d1] = inc_seg[k]
            if node_kind[other] != 0:
                # reached a stop: emit the leg p_seg[1..d1]
                if hex_once:
                    hseq[0] = node_hex[s]
                    for q in range(1, d1 + 1):
                        hseq[q] = seg_hex[p_seg[q]]
                    hseq[d1 + 1] = node_hex[other]
                    if _reenters(hseq, d1 + 2, hex_exempt):
                        continue
                if n_legs + 1 >= end.shape[0]:
                    end = grow1(end, n_legs + 2)
                    segs_ptr = grow1(segs_ptr, n_legs + 3)
                    nodes_ptr = grow1(nodes_ptr, n_legs + 3)
                if n_segs + d1 >= segs.shape[0]:
                    segs = grow1(segs, n_segs + d1 + 1)
                if n_nodes + d1 >= nodes.shape[0]:
                    nodes = grow1(nodes, n_nodes + d1 + 1)
                end[n_legs] = other
                for q in range(1, d1 + 1):
                    segs[n_segs] = p_seg[q]
                    n_segs += 1
                for q in range(1, d1):
                    nodes[n_nodes] = p_node[q]
                    n_nodes += 1
                n_legs += 1
                segs_ptr[n_legs] = n_segs
                nodes_ptr[n_legs] = n_nodes
                ptr[s + 1] = n_legs
                continue
            # a junction: go through it
            p_node[d1] = other
            p_side[d1] = inc_side_other[k]
            p_it[d1] = inc_ptr[other]
            on_path[other] = True
            depth = d1
    return (
        ptr, end[:n_legs], segs_ptr[: n_legs + 1], segs[:n_segs], nodes_ptr[: n_legs + 1],
        nodes[:n_nodes],
    )  # fmt: skip


@kernel
def leg_bitsets(
    n_legs, ptr, end, segs_ptr, segs, nodes_ptr, nodes, junction_bit, node_hex, seg_hex,
    n_seg_words, w_route, w_hex, hex_exempt,
):  # fmt: skip
    """Per leg: used segments and junctions, touched hexes, and hexes new to a route."""
    bits = np.zeros((n_legs, w_route), dtype=np.uint64)
    hex_bits = np.zeros((n_legs, w_hex), dtype=np.uint64)
    hex_new = np.zeros((n_legs, w_hex), dtype=np.uint64)
    one = np.uint64(1)
    for u in range(ptr.shape[0] - 1):
        for leg in range(ptr[u], ptr[u + 1]):
            for q in range(segs_ptr[leg], segs_ptr[leg + 1]):
                j = segs[q]
                bits[leg, j >> 6] |= one << np.uint64(j & 63)
                h = seg_hex[j]
                hex_bits[leg, h >> 6] |= one << np.uint64(h & 63)
            for q in range(nodes_ptr[leg], nodes_ptr[leg + 1]):
                b = n_seg_words * 64 + junction_bit[nodes[q]]
                bits[leg, b >> 6] |= one << np.uint64(b & 63)
            for stop in (u, end[leg]):
                h = node_hex[stop]
                hex_bits[leg, h >> 6] |= one << np.uint64(h & 63)
            for w in range(w_hex):
                hex_new[leg, w] = hex_bits[leg, w]
            h = node_hex[u]
            hex_new[leg, h >> 6] &= ~(one << np.uint64(h & 63))
            for h in range(hex_exempt.shape[0]):
                if hex_exempt[h]:
                    hex_new[leg, h >> 6] &= ~(one << np.uint64(h & 63))
    return bits, hex_bits, hex_new
