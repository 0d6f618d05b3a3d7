"""Scoring routes a player declares: :func:`validate_routes`.

Routes are given as node sequences.  Junctions may be left out: between two listed nodes the
validator looks for track through junctions only, and when several pieces of track would do
(parallel track, two ways round), it searches for a choice that makes the whole route set
legal.  Errors name the rule, the route and the node or segment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from ._compile import Compiled, compile_problem, option_buffer, train_params
from ._evaluate import evaluate, scratch_words
from .network import NodeKind
from .problem import Problem
from .rules import GroupScope
from .solution import RouteError, RouteResult

__all__ = ["ScoredRoutes", "validate_routes"]

_MAX_COMBINATIONS = 100_000


@dataclass
class ScoredRoutes:
    """Declared routes, scored: ``routes`` in declaration order and their ``total``."""

    routes: list[RouteResult]
    total: int
    notes: list[str] = field(default_factory=list)


def _name(problem: Problem, node: int) -> str:
    return problem.network.node_names[node]


def _pieces(c: Compiled, problem: Problem, a: int, b: int, where: str) -> list[tuple]:
    """All ways from listed node ``a`` to listed node ``b``: (segments, junctions) tuples."""
    net = problem.network
    out: list[tuple] = []
    # direct segments
    for j in range(net.n_segments):
        u, v = int(net.seg_u[j]), int(net.seg_v[j])
        if (u, v) in ((a, b), (b, a)):
            out.append(((j,), ()))
    if net.node_kind[a] != NodeKind.JUNCTION and net.node_kind[b] != NodeKind.JUNCTION:
        legs = c.legs
        for leg in range(int(legs.ptr[a]), int(legs.ptr[a + 1])):
            if int(legs.end[leg]) != b:
                continue
            segs = tuple(int(x) for x in legs.segs[legs.segs_ptr[leg] : legs.segs_ptr[leg + 1]])
            juncs = tuple(int(x) for x in legs.nodes[legs.nodes_ptr[leg] : legs.nodes_ptr[leg + 1]])
            if juncs:
                out.append((segs, juncs))
    if not out:
        raise RouteError(f"{where}: no track joins {_name(problem, a)!r} and {_name(problem, b)!r}")
    return out


def _check_route(
    c: Compiled, problem: Problem, t: int, nodes: list[int], segs: list[int], where: str
) -> None:
    net = problem.network
    train = problem.trains[t]
    kind = net.node_kind
    if len(set(nodes)) != len(nodes):
        dup = next(n for n in nodes if nodes.count(n) > 1)
        raise RouteError(f"{where}: visits {_name(problem, dup)!r} twice")
    if len(set(segs)) != len(segs):
        raise RouteError(f"{where}: uses a piece of track twice")
    for end in (nodes[0], nodes[-1]):
        if kind[end] == NodeKind.JUNCTION:
            raise RouteError(f"{where}: ends at junction {_name(problem, end)!r}, not at a stop")
    for p in range(1, len(nodes) - 1):
        node = nodes[p]
        if net.node_terminal[node]:
            raise RouteError(
                f"{where}: runs through {_name(problem, node)!r}, which may only end a route"
            )
        if kind[node] == NodeKind.JUNCTION:
            s_in, s_out = segs[p - 1], segs[p]
            side_in = net.seg_side_u[s_in] if net.seg_u[s_in] == node else net.seg_side_v[s_in]
            side_out = net.seg_side_u[s_out] if net.seg_u[s_out] == node else net.seg_side_v[s_out]
            if side_in == side_out:
                raise RouteError(
                    f"{where}: reverses at junction {_name(problem, node)!r} (no back-tracking)"
                )
    stops = [n for n in nodes if kind[n] != NodeKind.JUNCTION]
    if problem.rules.hex_once:
        # stops sit in their hex; edge junctions sit between two and are skipped
        seq = [int(net.node_hex[nodes[0]])]
        for p, j in enumerate(segs):
            seq.append(int(net.seg_hex[j]))
            if kind[nodes[p + 1]] != NodeKind.JUNCTION:
                seq.append(int(net.node_hex[nodes[p + 1]]))
        left: set[int] = set()
        prev = None
        for h in seq:
            if h != prev:
                if h in left and h not in problem.rules.hex_once_exempt:
                    raise RouteError(f"{where}: enters hex {net.hex_names[h]!r} a second time")
                if prev is not None:
                    left.add(prev)
                prev = h
    if len(stops) < train.min_stops:
        raise RouteError(f"{where}: visits {len(stops)} stops, needs at least {train.min_stops}")
    tokens = problem.rules.token_nodes
    if tokens is not None and not any(n in tokens for n in stops):
        raise RouteError(f"{where}: does not visit a station of the company")
    seen: dict[int, int] = {}
    for n in stops:
        g = int(net.node_group[n])
        if g >= 0:
            if g in seen:
                raise RouteError(
                    f"{where}: visits both {_name(problem, seen[g])!r} and {_name(problem, n)!r},"
                    " which may not share a route"
                )
            seen[g] = n
    for a, b in problem.rules.forbidden_end_pairs:
        x, y = stops[0], stops[-1]
        if (x in a and y in b) or (x in b and y in a):
            raise RouteError(
                f"{where}: may not run from {_name(problem, x)!r} to {_name(problem, y)!r}"
            )
    if train.end_kinds and not any(
        (train.end_kinds >> int(kind[e])) & 1 for e in (stops[0], stops[-1])
    ):
        raise RouteError(f"{where}: train {train.name!r} must end at a required kind of stop")
    allowed = train.skip | train.designated_kind
    for r in train.rows:
        allowed |= r.kinds
    free = train.skip | train.designated_kind
    must_count = sum(1 for n in stops if not (free >> int(kind[n])) & 1)
    capacity = sum(r.visit for r in train.rows)
    if must_count > capacity:
        raise RouteError(
            f"{where}: visits {must_count} stops but train {train.name!r} may visit at most "
            f"{capacity}"
        )
    for n in stops:
        if not (allowed >> int(kind[n])) & 1:
            raise RouteError(
                f"{where}: train {train.name!r} cannot visit {_name(problem, n)!r} "
                f"({NodeKind(int(kind[n])).name.lower()})"
            )
    if train.designated_kind and not any(
        (train.designated_kind >> int(kind[n])) & 1 for n in stops
    ):
        raise RouteError(f"{where}: goods train {train.name!r} must include a mine")


def _score(c: Compiled, problem: Problem, t: int, stops: list[int], desig: int):
    train = problem.trains[t]
    row_kinds, row_pay, row_visit, flags = train_params(train)
    counted = np.zeros(len(stops) + 1, dtype=np.bool_)
    n_bonus = c.ep_a.shape[0] + c.sp_a.shape[0] + c.et_amt.shape[0]
    bonus = np.zeros(max(n_bonus, 1), dtype=np.int64)
    value = evaluate(
        np.array(stops, dtype=np.int64), len(stops), desig, c.node_kind, c.node_val, c.node_token,
        row_kinds, row_pay, row_visit, flags[0], flags[1], flags[3], c.token_counted,
        c.ep_a, c.ep_b, c.ep_counted, c.sp_a, c.sp_b, c.sp_amount, c.sp_counted,
        c.et_amt, c.et_min_other, c.mcw_in, c.mcw_k, counted, bonus,
        np.empty(scratch_words(len(stops)), dtype=np.int64),
        np.empty(2 * len(stops) + 2, dtype=np.bool_),
        option_buffer(c),
    )  # fmt: skip
    return int(value), counted, bonus[:n_bonus].copy()


def validate_routes(problem: Problem, routes: Sequence) -> ScoredRoutes:
    """Check and score declared routes.

    Parameters
    ----------
    problem : Problem
    routes : sequence of ``(train_index, nodes)`` or ``(train_index, nodes, segments)``
        ``nodes`` may omit junctions.

    Returns
    -------
    ScoredRoutes

    Raises
    ------
    RouteError
        Naming the broken rule and where it broke.
    """
    if not isinstance(problem, Problem):
        raise ValueError(f"validate expects a routing.Problem, got {type(problem).__name__}")
    c = compile_problem(problem)
    net = problem.network
    n = net.n_nodes
    parsed = []
    used_trains: set[int] = set()
    for r_i, item in enumerate(routes):
        try:
            t, nodes, *rest = item
        except (TypeError, ValueError):
            raise RouteError(
                f"route {r_i + 1}: expected (train_index, nodes[, segments])"
            ) from None
        if not isinstance(t, (int, np.integer)) or not 0 <= t < len(problem.trains):
            raise RouteError(f"route {r_i + 1}: unknown train index {t!r}")
        t = int(t)
        where = f"route {r_i + 1} (train {problem.trains[t].name!r})"
        if t in used_trains:
            raise RouteError(f"{where}: the train already runs another route")
        used_trains.add(t)
        nodes = [int(x) for x in nodes]
        if len(nodes) < 2:
            raise RouteError(f"{where}: needs at least two nodes")
        for x in nodes:
            if not 0 <= x < n:
                raise RouteError(f"{where}: node {x} does not exist")
        if rest and rest[0] is not None:
            segs = [int(x) for x in rest[0]]
            if len(segs) != len(nodes) - 1:
                raise RouteError(f"{where}: needs one segment between each pair of nodes")
            for p, j in enumerate(segs):
                if not 0 <= j < net.n_segments:
                    raise RouteError(f"{where}: segment {j} does not exist")
                ends = {int(net.seg_u[j]), int(net.seg_v[j])}
                if ends != {nodes[p], nodes[p + 1]}:
                    raise RouteError(
                        f"{where}: segment {j} does not join {_name(problem, nodes[p])!r} and "
                        f"{_name(problem, nodes[p + 1])!r}"
                    )
            options = None
            explicit = segs
        else:
            options = [
                _pieces(c, problem, nodes[p], nodes[p + 1], where) for p in range(len(nodes) - 1)
            ]
            explicit = None
        parsed.append((t, nodes, options, explicit, where))

    # choose track pieces for every hop of every route so the whole set is legal
    first_error: RouteError | None = None
    per_route: list[list[tuple[list[int], list[int]]]] = []
    for t, nodes, options, explicit, where in parsed:
        if explicit is not None:
            _check_route(c, problem, t, nodes, explicit, where)
            per_route.append([(nodes, explicit)])
            continue
        legal = []
        count = 0
        for combo in product(*options):
            count += 1
            if count > _MAX_COMBINATIONS:
                break
            full_nodes = [nodes[0]]
            segs: list[int] = []
            for p, (seg, juncs) in enumerate(combo):
                a, b = nodes[p], nodes[p + 1]
                path_nodes = list(juncs)
                if juncs and len(seg) > 1:
                    # orient junctions from a to b
                    first = (
                        int(net.seg_u[seg[0]])
                        if int(net.seg_v[seg[0]]) == a
                        else int(net.seg_v[seg[0]])
                    )
                    if path_nodes and path_nodes[0] != first:
                        path_nodes.reverse()
                full_nodes.extend(path_nodes)
                full_nodes.append(b)
                segs.extend(seg)
            try:
                _check_route(c, problem, t, full_nodes, segs, where)
            except RouteError as err:
                first_error = first_error or err
                continue
            legal.append((full_nodes, segs))
        if not legal:
            raise first_error or RouteError(f"{where}: no legal way along the listed nodes")
        per_route.append(legal)

    best: ScoredRoutes | None = None
    set_error: RouteError | None = None
    count = 0
    for choice in product(*per_route):
        count += 1
        if count > _MAX_COMBINATIONS:
            break
        try:
            scored = _score_set(c, problem, parsed, choice)
        except RouteError as err:
            set_error = set_error or err
            continue
        if best is None or scored.total > best.total:
            best = scored
    if best is None:
        raise set_error or RouteError("the routes cannot be run together")
    return best


def _score_set(c: Compiled, problem: Problem, parsed, choice) -> ScoredRoutes:
    net = problem.network
    rules = problem.rules
    owner: dict[int, int] = {}
    for r_i, (_, segs) in enumerate(choice):
        for j in segs:
            if j in owner:
                raise RouteError(
                    f"route {r_i + 1} and route {owner[j] + 1} share track in hex "
                    f"{net.hex_names[int(net.seg_hex[j])]!r} (segment {j})"
                )
            owner[j] = r_i
    scope = rules.group_scope_map()
    group_owner: dict[int, int] = {}
    for r_i, (nodes, _) in enumerate(choice):
        for x in nodes:
            g = int(net.node_group[x])
            if g >= 0 and scope.get(g) == GroupScope.SET:
                if g in group_owner:
                    raise RouteError(
                        f"route {r_i + 1} and route {group_owner[g] + 1} both visit group {g} "
                        f"({_name(problem, x)!r}); only one route may"
                    )
                group_owner[g] = r_i
    if (
        rules.must_visit
        and choice
        and not any(x in rules.must_visit for nodes, _ in choice for x in nodes)
    ):
        names = ", ".join(sorted(_name(problem, x) for x in rules.must_visit))
        raise RouteError(f"no route visits the required station ({names})")

    # designated nodes: try every distinct assignment (goods trains are few)
    stops_of = [[x for x in nodes if net.node_kind[x] != NodeKind.JUNCTION] for nodes, _ in choice]
    desig_opts = []
    for (t, *_), stops in zip(parsed, stops_of, strict=True):
        dk = problem.trains[t].designated_kind
        desig_opts.append([x for x in stops if (dk >> int(net.node_kind[x])) & 1] if dk else [-1])
    best_total = None
    best_parts = None
    first_problem: RouteError | None = None
    key_of = dict(rules.designated_keys)
    for desigs in product(*desig_opts):
        real = [key_of.get(d, ("node", d)) for d in desigs if d >= 0]
        if len(set(real)) != len(real):
            continue
        parts = []
        for (t, *_), stops, d in zip(parsed, stops_of, desigs, strict=True):
            parts.append(_score(c, problem, t, stops, d))
        bad = [i for i, p in enumerate(parts) if p[0] < 0]
        if bad:
            where = parsed[bad[0]][4]
            why = "the train cannot count this combination of stops"
            if rules.token_counted:
                why += " with a company station among the counted stops"
            if rules.min_counted_with:
                why += " (mind the minimum number of other stops some stops require)"
            first_problem = first_problem or RouteError(f"{where}: {why}")
            continue
        total = sum(p[0] for p in parts)
        if best_total is None or total > best_total:
            best_total, best_parts, best_desigs = total, parts, desigs
    if best_parts is None:
        if any(d for d in desig_opts if d != [-1]):
            raise RouteError("goods trains must each score a different mine")
        raise first_problem or RouteError("the routes cannot be scored")

    # route-set bonuses: each to the route that gains most from it
    claims: list[dict[str, int]] = [{} for _ in choice]
    names = [b.name for b in rules.longest_route_bonuses] + [b.name for b in rules.bonus_routes]
    claim_total = 0
    for f, name in enumerate(names):
        vals = []
        for (nodes, segs), stops in zip(choice, stops_of, strict=True):
            if f < len(rules.longest_route_bonuses):
                b = rules.longest_route_bonuses[f]
                v = b.per_stop * sum(1 for x in stops if (b.kinds >> int(net.node_kind[x])) & 1)
            else:
                b = rules.bonus_routes[f - len(rules.longest_route_bonuses)]
                if any(x in b.a for x in nodes) and any(x in b.b for x in nodes):
                    hexes = {int(net.seg_hex[j]) for j in segs} | {
                        int(net.node_hex[x]) for x in stops
                    }
                    v = b.amount - b.per_hex * len(hexes)
                else:
                    v = 0
            vals.append(v)
        if vals and max(vals) > 0:
            r_best = int(np.argmax(vals))
            claims[r_best][name] = claims[r_best].get(name, 0) + int(vals[r_best])
            claim_total += int(vals[r_best])

    bonus_names = c.ep_names + c.sp_names + c.et_names
    results = []
    for r_i, ((t, *_), (nodes, segs), stops, part, d) in enumerate(
        zip(parsed, choice, stops_of, best_parts, best_desigs, strict=True)
    ):
        value, counted, bonus = part
        bonuses: dict[str, int] = {}
        for b, name in enumerate(bonus_names):
            if bonus[b]:
                bonuses[name] = bonuses.get(name, 0) + int(bonus[b])
        for name, v in claims[r_i].items():
            bonuses[name] = bonuses.get(name, 0) + v
        results.append(
            RouteResult(
                train=t,
                train_name=problem.trains[t].name,
                nodes=tuple(nodes),
                segments=tuple(segs),
                counted=tuple(stops[p] for p in range(len(stops)) if counted[p]),
                revenue=value + sum(claims[r_i].values()),
                stop_revenue=value - int(bonus.sum()),
                bonuses=bonuses,
                designated=None if d < 0 else int(d),
            )
        )
    return ScoredRoutes(results, best_total + claim_total)
