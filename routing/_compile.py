"""Turn a :class:`~routing.Problem` into the flat arrays the numba kernels take.

Linear-time bookkeeping done once per solve.  The steps are: keep only the part of the
network a route can reach from the company's tokens and compress junction chains into
stop-to-stop *legs*, each with a bitset of the segments and junctions it uses (one kernel
call, :func:`routing._legs.legs`, on the network's own arrays), and lay the rule vocabulary
out as dense tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from ._jit import Kernels, current
from .problem import Problem
from .rules import GroupScope
from .trains import UNLIMITED, Train

#: Hard ceiling on legs, so a pathological junction maze fails loudly instead of hanging.
MAX_LEGS = 2_000_000


@dataclass
class Legs:
    """Stop-to-stop track pieces through junctions, in CSR form by start stop."""

    ptr: np.ndarray  # int64[n_nodes + 1]: legs leaving node u are ptr[u]:ptr[u+1]
    end: np.ndarray  # int32[L]: the stop a leg arrives at
    segs_ptr: np.ndarray  # int64[L + 1]
    segs: np.ndarray  # int32: segment ids of each leg, in order from its start
    nodes: np.ndarray  # int32: junction ids passed, in order (ptr shared with segs minus one each)
    nodes_ptr: np.ndarray  # int64[L + 1]
    bits: np.ndarray  # uint64[L, W_route]: segments, then junctions (within-route conflicts)
    hex_bits: np.ndarray  # uint64[L, W_hex]: hexes of the leg's segments and both end stops
    hex_new: np.ndarray  # uint64[L, W_hex]: hex_bits minus the start stop's hex and exempt hexes


@dataclass
class Compiled:
    """A problem in kernel form.  ``node_*`` arrays are indexed by original node id."""

    problem: Problem
    kernels: Kernels  # the tier that built the legs and runs the search
    active: np.ndarray  # bool[n_nodes]: reachable from a token (or everything)
    node_kind: np.ndarray  # int64
    node_val: np.ndarray  # int64: value + company bonus
    node_terminal: np.ndarray  # bool
    node_group: np.ndarray  # int64
    node_token: np.ndarray  # bool
    node_must: np.ndarray  # bool
    node_hex: np.ndarray  # int64
    legs: Legs
    n_seg_words: int  # words of legs.bits holding segments (cross-route conflicts)
    # rule tables
    forbid_a: np.ndarray  # bool[P, n]
    forbid_b: np.ndarray
    ep_a: np.ndarray  # int64[B, n], -1 where not in the set
    ep_b: np.ndarray
    ep_counted: np.ndarray  # bool[B]
    sp_a: np.ndarray  # bool[B, n]
    sp_b: np.ndarray
    sp_amount: np.ndarray  # int64[B]
    sp_counted: np.ndarray  # bool[B]
    et_amt: np.ndarray  # int64[B, n], -1 where none
    et_min_other: np.ndarray  # int64[B]
    lr_per_stop: np.ndarray  # int64[F]
    lr_kinds: np.ndarray  # int64[F]
    br_a: np.ndarray  # bool[F, n]
    br_b: np.ndarray
    br_amount: np.ndarray  # int64[F]
    br_per_hex: np.ndarray  # int64[F]
    # cross-route extra bits (after the segment bits)
    group_bit: np.ndarray  # int64[n_groups]: bit of a set-scoped group, -1 otherwise
    desig_bit: np.ndarray  # int64[n]: bit of a designatable node, -1 otherwise
    claim_bit: np.ndarray  # int64[F_lr + F_br]: bit of each route-set bonus
    n_cross_words: int
    has_must: bool
    token_counted: bool
    mcw_in: np.ndarray  # bool[B, n]: min_counted_with sets
    mcw_k: np.ndarray  # int64[B]
    hex_once: bool
    ep_names: list[str]
    sp_names: list[str]
    et_names: list[str]
    claim_names: list[str]

    @property
    def n_bonus(self) -> int:
        """Per-route bonuses :func:`routing._evaluate.evaluate` reports: end-pair, set-pair
        and end-token, in that order."""
        return self.ep_a.shape[0] + self.sp_a.shape[0] + self.et_amt.shape[0]

    @cached_property
    def option_shape(self) -> tuple[int, int, int]:
        """The shape of :func:`option_buffer`: ``[4, n_bonus + 1, max_options]``."""
        n = len(self.node_kind)
        pairs = [int(a.sum()) * int(b.sum()) for a, b in zip(self.sp_a, self.sp_b, strict=True)]
        return 4, self.n_bonus + 1, max([n + 2, *pairs]) + 1


def _mask_of(nodes, n: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.bool_)
    out[list(nodes)] = True
    return out


def _masks(sets, n: int) -> np.ndarray:
    """One boolean row of ``n`` per node set of ``sets``: True at its nodes."""
    out = np.zeros((len(sets), n), dtype=np.bool_)
    for row, nodes in enumerate(sets):
        out[row, list(nodes)] = True
    return out


def _amounts(rows, n: int) -> np.ndarray:
    """One row of ``n`` per ``(node, amount)`` sequence of ``rows``: the amount at each of
    its nodes, -1 elsewhere."""
    out = np.full((len(rows), n), -1, dtype=np.int64)
    for row, pairs in enumerate(rows):
        if pairs:
            nodes, amounts = zip(*pairs, strict=True)
            out[row, list(nodes)] = amounts
    return out


def _build_legs(problem: Problem, node_token: np.ndarray, from_tokens: bool,
                kernels: Kernels) -> tuple[np.ndarray, Legs]:  # fmt: skip
    """The active nodes and every stop-to-stop leg through junctions between them (see
    :mod:`routing._legs`): with ``from_tokens``, the nodes on some connected piece of track
    that holds a ``node_token`` node (terminal nodes are reached but not passed, unless
    they hold a token); else every node."""
    net = problem.network
    exempt = np.zeros(max(net.n_hexes, 1), dtype=np.bool_)
    for h in problem.rules.hex_once_exempt:
        exempt[h] = True
    (active, ptr, end, segs_ptr, leg_segs, nodes_ptr, leg_nodes, bits, hex_bits,
     hex_new) = kernels.legs(
        net.node_kind, net.node_hex, net.node_terminal, node_token, net.seg_u, net.seg_v,
        net.seg_side_u, net.seg_side_v, net.seg_hex, net.n_hexes, from_tokens,
        bool(problem.rules.hex_once), exempt,
    )  # fmt: skip
    if len(end) > MAX_LEGS:
        raise ValueError(
            f"network has {len(end)} stop-to-stop track pieces (limit {MAX_LEGS}); "
            "it is too tangled to solve exactly"
        )
    return active, Legs(
        ptr=ptr,
        end=end,
        segs_ptr=segs_ptr,
        segs=leg_segs,
        nodes=leg_nodes,
        nodes_ptr=nodes_ptr,
        bits=bits,
        hex_bits=hex_bits,
        hex_new=hex_new,
    )


def compile_problem(
    problem: Problem, reachable_only: bool = True, kernels: Kernels | None = None
) -> Compiled:
    """Lay ``problem`` out as arrays for ``kernels`` (default: :func:`routing._jit.current`).

    ``reachable_only=False`` keeps the whole network (legs through every junction), for
    the validator: a declared route over unreachable track then breaks the rule that makes
    it unreachable (a blocked city, no station) instead of finding no track at all.
    """
    kernels = kernels or current()
    net = problem.network
    rules = problem.rules
    n = net.n_nodes
    tokens = rules.token_nodes
    node_token = np.ones(n, dtype=np.bool_) if tokens is None else _mask_of(tokens, n)
    active, legs = _build_legs(problem, node_token, reachable_only and tokens is not None,
                               kernels)  # fmt: skip
    n_seg_words = (net.n_segments + 63) // 64 or 1

    node_val = net.node_value.astype(np.int64).copy()
    for node, amount in rules.node_bonus:
        node_val[node] += amount

    # cross-route extra bits
    next_bit = net.n_segments
    n_groups = net.n_groups
    group_bit = np.full(max(n_groups, 1), -1, dtype=np.int64)
    for group, scope in rules.group_scope:
        if scope == GroupScope.SET:
            group_bit[group] = next_bit
            next_bit += 1
    desig_kinds = 0
    for train in problem.trains:
        desig_kinds |= train.designated_kind
    desig_bit = np.full(n, -1, dtype=np.int64)
    if desig_kinds:
        key_of = dict(rules.designated_keys)
        bit_of_key: dict[tuple, int] = {}
        for node in range(n):
            if active[node] and (desig_kinds >> int(net.node_kind[node])) & 1:
                key = ("key", key_of[node]) if node in key_of else ("node", node)
                if key not in bit_of_key:
                    bit_of_key[key] = next_bit
                    next_bit += 1
                desig_bit[node] = bit_of_key[key]
    n_claims = len(rules.longest_route_bonuses) + len(rules.bonus_routes)
    claim_bit = np.arange(next_bit, next_bit + n_claims, dtype=np.int64)
    next_bit += n_claims
    n_cross_words = (next_bit + 63) // 64 or 1

    return Compiled(
        problem=problem,
        kernels=kernels,
        active=active,
        node_kind=net.node_kind.astype(np.int64),
        node_val=node_val,
        node_terminal=net.node_terminal.copy(),
        node_group=net.node_group.astype(np.int64),
        node_token=node_token,
        node_must=_mask_of(rules.must_visit, n),
        node_hex=net.node_hex.astype(np.int64),
        legs=legs,
        n_seg_words=n_seg_words,
        forbid_a=_masks([a for a, _ in rules.forbidden_end_pairs], n),
        forbid_b=_masks([b for _, b in rules.forbidden_end_pairs], n),
        ep_a=_amounts([b.a for b in rules.end_pair_bonuses], n),
        ep_b=_amounts([b.b for b in rules.end_pair_bonuses], n),
        ep_counted=np.array([b.counted for b in rules.end_pair_bonuses], dtype=np.bool_),
        sp_a=_masks([b.a for b in rules.set_pair_bonuses], n),
        sp_b=_masks([b.b for b in rules.set_pair_bonuses], n),
        sp_amount=np.array([b.amount for b in rules.set_pair_bonuses], dtype=np.int64),
        sp_counted=np.array([b.counted for b in rules.set_pair_bonuses], dtype=np.bool_),
        et_amt=_amounts([b.amounts for b in rules.end_token_bonuses], n),
        et_min_other=np.array([b.min_other_stops for b in rules.end_token_bonuses], dtype=np.int64),
        lr_per_stop=np.array([b.per_stop for b in rules.longest_route_bonuses], dtype=np.int64),
        lr_kinds=np.array([b.kinds for b in rules.longest_route_bonuses], dtype=np.int64),
        br_a=_masks([b.a for b in rules.bonus_routes], n),
        br_b=_masks([b.b for b in rules.bonus_routes], n),
        br_amount=np.array([b.amount for b in rules.bonus_routes], dtype=np.int64),
        br_per_hex=np.array([b.per_hex for b in rules.bonus_routes], dtype=np.int64),
        group_bit=group_bit,
        desig_bit=desig_bit,
        claim_bit=claim_bit,
        n_cross_words=n_cross_words,
        has_must=bool(rules.must_visit),
        token_counted=bool(rules.token_counted and rules.token_nodes is not None),
        mcw_in=_masks([a for a, _ in rules.min_counted_with], n),
        mcw_k=np.array([k for _, k in rules.min_counted_with], dtype=np.int64),
        hex_once=bool(rules.hex_once),
        ep_names=[b.name for b in rules.end_pair_bonuses],
        sp_names=[b.name for b in rules.set_pair_bonuses],
        et_names=[b.name for b in rules.end_token_bonuses],
        claim_names=[b.name for b in rules.longest_route_bonuses]
        + [b.name for b in rules.bonus_routes],
    )


@lru_cache(maxsize=256)
def train_params(train: Train) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(row_kinds, row_pay, row_visit, flags)`` with flags =
    ``[skip, multiplier*runs, end_kinds, designated_kind, min_stops]``.

    Kept per train type (a solve asks for them once per enumeration and once per route it
    returns); no kernel writes to them."""
    row_kinds = np.array([r.kinds for r in train.rows], dtype=np.int64)
    row_pay = np.array([min(r.pay, UNLIMITED) for r in train.rows], dtype=np.int64)
    row_visit = np.array([min(r.visit, UNLIMITED) for r in train.rows], dtype=np.int64)
    flags = np.array(
        [
            train.skip,
            train.multiplier * train.runs,
            train.end_kinds,
            train.designated_kind,
            train.min_stops,
        ],
        dtype=np.int64,
    )
    return row_kinds, row_pay, row_visit, flags


def option_buffer(c: Compiled) -> np.ndarray:
    """Work space for :func:`routing._evaluate.evaluate`'s bonus options."""
    return np.zeros(c.option_shape, dtype=np.int64)
