"""Brute-force oracle for :class:`routing.Problem`.

This module is the third, deliberately naive implementation of ``docs/ROUTING.md``.  It reads
only the public data classes (never ``routing._*`` or ``routing.cpsat``) and follows the
contract literally:

* every simple path is enumerated, parallel segments included, honouring junction side
  labels, terminal nodes and the hex-once rule;
* each path is scored for each train by brute force over the counting choices (which stops
  are skipped, which row takes each stop, which stops a row counts, which node is
  designated), then the counted-set rules (token counted, counts with a set) are applied to
  each choice;
* every route set (each train: no route or one route) is tried, with the set rules and the
  route-set bonuses applied to the whole set.

The only shortcuts are ones that cannot change the optimum; each is justified where it is
made.  ``naive_solve(problem, prune=False)`` switches the route-set bound off so that the
bound itself can be checked on tiny problems.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from routing import GroupScope, NodeKind, Problem, RouteResult, Solution

__all__ = [
    "naive_solve",
    "naive_route_value",
    "naive_total",
    "naive_routes",
]

#: Counting choice for a stop that the train passes without counting (its kind is in ``skip``).
_SKIP = -1


# --------------------------------------------------------------------------------- context
class _Context:
    """Plain-Python copies of the problem arrays plus per-problem lookups."""

    def __init__(self, problem: Problem) -> None:
        net = problem.network
        rules = problem.rules
        self.problem = problem
        self.names = net.node_names
        self.kind = [int(k) for k in net.node_kind]
        self.value = [int(v) for v in net.node_value]
        self.node_hex = [int(h) for h in net.node_hex]
        self.terminal = [bool(t) for t in net.node_terminal]
        self.group = [int(g) for g in net.node_group]
        self.seg_u = [int(x) for x in net.seg_u]
        self.seg_v = [int(x) for x in net.seg_v]
        self.seg_side_u = [int(x) for x in net.seg_side_u]
        self.seg_side_v = [int(x) for x in net.seg_side_v]
        self.seg_hex = [int(x) for x in net.seg_hex]
        bonus = rules.node_bonus_map()
        # Contract item 12: the stop value includes the company's node bonus.
        self.stop_value = [self.value[n] + bonus.get(n, 0) for n in range(net.n_nodes)]
        self.rules = rules
        self.set_groups = {g for g, scope in rules.group_scope if scope == GroupScope.SET}
        self.end_pairs = [(dict(b.a), dict(b.b), b) for b in rules.end_pair_bonuses]
        self.end_tokens = [(dict(b.amounts), b) for b in rules.end_token_bonuses]
        self.hex_names = net.hex_names
        # Route-set rule "distinct designated nodes": nodes sharing a key in designated_keys
        # are one; a node without a key is its own (in a namespace apart from the keys).
        keys = dict(rules.designated_keys)
        self.des_key = [("key", keys[n]) if n in keys else ("node", n) for n in range(net.n_nodes)]
        bits = {key: i for i, key in enumerate(dict.fromkeys(self.des_key))}
        self.des_bit = [bits[key] for key in self.des_key]

    def is_stop(self, n: int) -> bool:
        return self.kind[n] != NodeKind.JUNCTION

    def side(self, seg: int, node: int) -> int:
        """Side label of segment ``seg`` at its end ``node``."""
        return self.seg_side_u[seg] if self.seg_u[seg] == node else self.seg_side_v[seg]

    def label(self, n: int) -> str:
        return f"{self.names[n]!r} ({NodeKind(self.kind[n]).name.lower()})"


@dataclass
class _Eval:
    """Best scoring of one node sequence for one train with one designated node."""

    value: int
    counted: tuple[int, ...]
    designated: int | None
    stop_revenue: int
    bonuses: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------------- routes
def _reentered_hex(hexes, exempt: frozenset[int]) -> int | None:
    """The first hex of the sequence ``hexes`` outside ``exempt`` that appears in two separate
    runs (contract item 11), or ``None``.

    Exempt hexes are only exempt from the rule: they still separate runs, so ``a e a`` with
    ``e`` exempt re-enters ``a`` (the route left ``a`` and came back).
    """
    left: set[int] = set()  # hexes the route has left
    current = None
    for h in hexes:
        if h == current:
            continue
        if h in left and h not in exempt:
            return h
        if current is not None:
            left.add(current)
        current = h
    return None


def _hex_sequence(ctx: _Context, nodes, segments) -> list[int]:
    """Contract item 11: walking from ``v0`` to ``vk``, the hex of every stop and of every
    segment in order; junctions are skipped."""
    out = [ctx.node_hex[nodes[0]]]
    for s, n in zip(segments, nodes[1:], strict=True):
        out.append(ctx.seg_hex[s])
        if ctx.is_stop(n):
            out.append(ctx.node_hex[n])
    return out


def _structure_error(ctx: _Context, nodes, segments) -> str | None:
    """Contract items 1-4 and 11 (they do not depend on the train); ``None`` when satisfied."""
    n_nodes, n_segs = len(ctx.kind), len(ctx.seg_u)
    if len(nodes) < 2:
        return "length: a route needs at least two nodes"
    if len(segments) != len(nodes) - 1:
        return f"segments: {len(nodes)} nodes need {len(nodes) - 1} segments, got {len(segments)}"
    for n in nodes:
        if not 0 <= n < n_nodes:
            return f"nodes: node {n} does not exist"
    for i, s in enumerate(segments):
        if not 0 <= s < n_segs:
            return f"segments: segment {s} does not exist"
        if {ctx.seg_u[s], ctx.seg_v[s]} != {nodes[i], nodes[i + 1]}:
            return f"segments: segment {s} does not join {ctx.label(nodes[i])} and next node"
    if len(set(nodes)) != len(nodes):
        return "simple: the route visits a node twice"
    for end in (nodes[0], nodes[-1]):
        if not ctx.is_stop(end):
            return f"ends: route ends at junction {ctx.label(end)}"
    for i in range(1, len(nodes) - 1):
        n = nodes[i]
        if not ctx.is_stop(n) and ctx.side(segments[i - 1], n) == ctx.side(segments[i], n):
            return f"junction: back-tracking through {ctx.label(n)} (same side label)"
        if ctx.terminal[n]:
            return f"terminal: {ctx.label(n)} may only be an end of the route"
    if ctx.rules.hex_once:
        h = _reentered_hex(_hex_sequence(ctx, nodes, segments), ctx.rules.hex_once_exempt)
        if h is not None:
            return f"hex once: the route re-enters hex {ctx.hex_names[h]!r} after leaving it"
    return None


def _train_error(ctx: _Context, train, nodes) -> str | None:
    """Contract items 5-9; ``None`` when satisfied."""
    rules = ctx.rules
    stops = [n for n in nodes if ctx.is_stop(n)]
    if len(stops) < train.min_stops:
        return f"length: {len(stops)} stops, train {train.name!r} needs {train.min_stops}"
    if rules.token_nodes is not None and not set(nodes) & rules.token_nodes:
        return "token: the route visits none of the company's token nodes"
    seen: set[int] = set()
    for n in nodes:
        g = ctx.group[n]
        if g >= 0:
            if g in seen:
                return f"group: the route visits two nodes of group {g}"
            seen.add(g)
    v0, vk = nodes[0], nodes[-1]
    for a, b in rules.forbidden_end_pairs:
        if (v0 in a and vk in b) or (v0 in b and vk in a):
            return f"forbidden ends: {ctx.label(v0)} to {ctx.label(vk)}"
    if train.end_kinds and not (
        train.end_kinds >> ctx.kind[v0] & 1 or train.end_kinds >> ctx.kind[vk] & 1
    ):
        return f"end kinds: neither end is of a kind train {train.name!r} must end at"
    return None


def _maximal(sets) -> frozenset[frozenset[int]]:
    """The inclusion-maximal members of ``sets``."""
    keep: list[frozenset[int]] = []
    for c in sorted(set(sets), key=len, reverse=True):
        if not any(c < m for m in keep):
            keep.append(c)
    return frozenset(keep)


def _counted_sets(ctx: _Context, train, others) -> frozenset[frozenset[int]] | str:
    """Every inclusion-maximal feasible set of counted stops among ``others``.

    ``others`` are the visited stops outside ``designated_kind``.  Brute force over each
    stop's choice, in route order: skip it (kind in ``skip``), or assign it to a row taking
    its kind (at most ``visit`` per row) and either count it (at most ``pay`` per row) or not.

    Only maximal sets are kept: every value and bonus amount is >= 0 (enforced by ``Network``
    and ``Problem.check``), and every bonus condition as well as the counted-set rules of
    item 10 (``C`` holds a token node; ``|C \\ S| >= k``) only get easier as ``C`` grows.  So a
    feasible ``C`` is valid whenever a subset of it is, and never scores less.  The same holds
    for the sets reachable from one intermediate state (same prefix), which is why each state
    keeps only its maximal sets and results are memoised per state.
    """
    rows = train.rows
    options = []
    for n in others:
        opts = [_SKIP] if train.skip >> ctx.kind[n] & 1 else []
        opts += [r for r, row in enumerate(rows) if row.kinds >> ctx.kind[n] & 1]
        if not opts:
            return f"counting: train {train.name!r} can neither skip nor count {ctx.label(n)}"
        options.append(opts)
    memo: dict = {}

    def state(i: int, visit, pay) -> tuple:
        """Canonical ``(i, visit, pay)``: remaining capacities clipped to the stops still to
        come, and pay to visit (a row counts only stops it takes).  Clipped states allow
        exactly the same choices, so they share one memo entry."""
        left = len(others) - i
        visit = tuple(min(v, left) for v in visit)
        return i, visit, tuple(min(p, v) for p, v in zip(pay, visit, strict=True))

    def dec(caps: tuple[int, ...], r: int) -> tuple[int, ...]:
        return caps[:r] + (caps[r] - 1,) + caps[r + 1 :]

    def reach(key: tuple):
        """Maximal counted sets over ``others[i:]`` given each row's remaining capacity."""
        i, visit, pay = key
        if i == len(others):
            return frozenset({frozenset()})
        if key not in memo:
            out: set[frozenset[int]] = set()
            for r in options[i]:
                if r == _SKIP:
                    out |= reach(state(i + 1, visit, pay))
                    continue
                if visit[r] == 0:
                    continue
                out |= reach(state(i + 1, dec(visit, r), pay))  # assigned, not counted
                if pay[r] > 0:
                    sub = reach(state(i + 1, dec(visit, r), dec(pay, r)))
                    out |= {c | {others[i]} for c in sub}
            memo[key] = _maximal(out)
        return memo[key]

    found = reach(state(0, tuple(row.visit for row in rows), tuple(row.pay for row in rows)))
    if not found:
        return f"counting: the route has more stops than train {train.name!r} may visit"
    return found


def _counted_rules(ctx: _Context, nodes, fulls: list) -> list | str:
    """Contract item 10's rules on ``C``: keep the ``(d, C)`` choices in ``fulls`` that satisfy
    them all, or name the first rule (in contract order) that no choice satisfies."""
    rules = ctx.rules
    if not fulls:
        return "counting: the route counts no stop"
    if rules.token_counted and rules.token_nodes is not None:
        fulls = [(d, c) for d, c in fulls if c & rules.token_nodes]
        if not fulls:
            return "token counted: no choice of counted stops includes a token node"
    visited = set(nodes)
    for i, (group, k) in enumerate(rules.min_counted_with):
        if visited & group:
            most = max(len(c - group) for _, c in fulls)
            fulls = [(d, c) for d, c in fulls if len(c - group) >= k]
            if not fulls:
                return (
                    f"min counted with[{i}]: the route visits "
                    f"{', '.join(ctx.label(n) for n in sorted(visited & group))} and counts at "
                    f"most {most} stop(s) outside that set; {k} are needed"
                )
    return fulls


def _score(ctx: _Context, train, nodes, counted: frozenset[int], designated) -> _Eval:
    """Contract items 12-13 for one choice of ``C`` (``counted``, ``designated`` included)."""
    rules = ctx.rules
    v0, vk = nodes[0], nodes[-1]
    visited = set(nodes)
    stop = sum(ctx.stop_value[n] for n in counted)
    raw: dict[str, int] = {}

    def add(name: str, amount: int) -> None:
        if amount:
            raw[name] = raw.get(name, 0) + amount

    for a, b, bonus in ctx.end_pairs:
        best = 0
        for x, y in ((v0, vk), (vk, v0)):
            if x in a and y in b and (not bonus.counted or (x in counted and y in counted)):
                best = max(best, a[x] + b[y])
        add(bonus.name, best)
    for bonus in rules.set_pair_bonuses:
        pool = counted if bonus.counted else visited
        # One node in both sets satisfies both sides; that is the only way nodes coincide.
        if pool & bonus.a and pool & bonus.b:
            add(bonus.name, bonus.amount)
    for amounts, bonus in ctx.end_tokens:
        best = 0
        for x in (v0, vk):
            if x in counted and x in amounts and len(counted - {x}) >= bonus.min_other_stops:
                best = max(best, amounts[x])
        add(bonus.name, best)
    factor = train.multiplier * train.runs
    bonuses = {name: factor * amount for name, amount in raw.items()}
    order = tuple(n for n in nodes if n in counted)
    return _Eval(factor * (stop + sum(raw.values())), order, designated, factor * stop, bonuses)


def _evaluate(ctx: _Context, train, nodes) -> dict | str:
    """Best :class:`_Eval` per designated node (key ``None`` without one), or the error."""
    err = _train_error(ctx, train, nodes)
    if err:
        return err
    stops = [n for n in nodes if ctx.is_stop(n)]
    if train.designated_kind:
        pool = [n for n in stops if train.designated_kind >> ctx.kind[n] & 1]
        if not pool:
            return f"designated: the route visits no stop train {train.name!r} must score"
        # The undesignated rest of D earns nothing and needs no row, so it is left out.
        others = [n for n in stops if n not in pool]
        choices: list[int | None] = list(pool)
    else:
        others, choices = stops, [None]
    counted_sets = _counted_sets(ctx, train, others)
    if isinstance(counted_sets, str):
        return counted_sets
    fulls = [(d, c | {d} if d is not None else c) for d in choices for c in counted_sets]
    fulls = _counted_rules(ctx, nodes, [(d, c) for d, c in fulls if c])
    if isinstance(fulls, str):
        return fulls
    best: dict[int | None, _Eval] = {}
    for d, full in fulls:
        ev = _score(ctx, train, nodes, full, d)
        if d not in best or ev.value > best[d].value:
            best[d] = ev
    return best


def _route_options(ctx: _Context, train, nodes, segments) -> dict | str:
    nodes, segments = tuple(int(n) for n in nodes), tuple(int(s) for s in segments)
    err = _structure_error(ctx, nodes, segments)
    return err if err else _evaluate(ctx, train, nodes)


def _enumerate_paths(ctx: _Context) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every structurally valid route (items 1-4, 7 and 11), once per direction pair.

    A path and its reverse score the same (every rule is symmetric in the two ends), so only
    the orientation with ``v0 < vk`` is kept.  Paths visiting two nodes of a group are not
    extended: no extension can make such a path valid again.  Nor are paths whose hex
    sequence re-enters a hex under ``hex_once``: a path's hex sequence is a prefix of the
    hex sequence of every extension.
    """
    hex_once, exempt = ctx.rules.hex_once, ctx.rules.hex_once_exempt
    g = ctx.problem.network.to_networkx()
    adj: dict[int, list[tuple[int, int, int, int]]] = {n: [] for n in g.nodes}
    for u, v, key, data in g.edges(keys=True, data=True):
        adj[u].append((v, key, data["side"][u], data["side"][v]))
        adj[v].append((u, key, data["side"][v], data["side"][u]))
    for lst in adj.values():
        lst.sort(key=lambda item: item[1])
    paths = []

    def extend(nodes: list[int], segs: list[int], side_in: int, groups: set[int]) -> None:
        x = nodes[-1]
        prefix = _hex_sequence(ctx, nodes, segs) if hex_once else []
        for y, seg, side_x, _side_y in adj[x]:
            if y in nodes:
                continue
            if len(nodes) > 1 and not ctx.is_stop(x) and side_x == side_in:
                continue
            gy = ctx.group[y]
            if gy >= 0 and gy in groups:
                continue
            if hex_once:
                seq = [*prefix, ctx.seg_hex[seg]]
                if ctx.is_stop(y):
                    seq.append(ctx.node_hex[y])
                if _reentered_hex(seq, exempt) is not None:
                    continue
            nodes.append(y)
            segs.append(seg)
            if gy >= 0:
                groups.add(gy)
            if ctx.is_stop(y) and nodes[0] < y:
                paths.append((tuple(nodes), tuple(segs)))
            if not ctx.terminal[y]:
                extend(nodes, segs, ctx.side(seg, y), groups)
            if gy >= 0:
                groups.discard(gy)
            nodes.pop()
            segs.pop()

    for start in range(len(ctx.kind)):
        if ctx.is_stop(start):
            extend([start], [], 0, {ctx.group[start]} - {-1})
    return paths


# --------------------------------------------------------------------------------- route sets
@dataclass
class _Cand:
    """One option for a train: a path with a designated node and its best scoring."""

    train: int
    nodes: tuple[int, ...]
    segments: tuple[int, ...]
    ev: _Eval
    set_groups: frozenset[int]
    on_must_visit: bool
    longest: tuple[int, ...]  # per LongestRouteBonus: per_stop * matching stops
    claims: tuple[int, ...]  # per BonusRoute: what this route could claim (>= 0)
    # Bit masks of segments, set-scoped groups and the designated node's key (see
    # ``_Context.des_bit``), for quick clash tests.
    des_mask: int = 0
    seg_mask: int = 0
    group_mask: int = 0

    def __post_init__(self) -> None:
        self.seg_mask = sum(1 << s for s in set(self.segments))
        self.group_mask = sum(1 << g for g in self.set_groups)


def _make_cand(ctx: _Context, t: int, nodes, segments, ev: _Eval) -> _Cand:
    rules = ctx.rules
    visited = set(nodes)
    stops = [n for n in nodes if ctx.is_stop(n)]
    longest = tuple(
        b.per_stop * sum(1 for n in stops if b.kinds >> ctx.kind[n] & 1)
        for b in rules.longest_route_bonuses
    )
    hexes = {ctx.seg_hex[s] for s in segments} | {ctx.node_hex[n] for n in stops}
    claims = tuple(
        max(0, b.amount - b.per_hex * len(hexes)) if visited & b.a and visited & b.b else 0
        for b in rules.bonus_routes
    )
    return _Cand(
        train=t,
        nodes=tuple(nodes),
        segments=tuple(segments),
        ev=ev,
        set_groups=frozenset(ctx.group[n] for n in nodes if ctx.group[n] in ctx.set_groups),
        on_must_visit=bool(visited & rules.must_visit),
        longest=longest,
        claims=claims,
        des_mask=0 if ev.designated is None else 1 << ctx.des_bit[ev.designated],
    )


def _set_error(ctx: _Context, chosen: list[_Cand]) -> str | None:
    """The route-set rules; ``None`` when satisfied."""
    segs: set[int] = set()
    groups: set[int] = set()
    designated: dict[tuple, int] = {}  # designated key -> the node designated with it
    for c in chosen:
        if segs & set(c.segments):
            return f"disjoint track: segment(s) {sorted(segs & set(c.segments))} used twice"
        segs |= set(c.segments)
        # Each route visits at most one node per group, so set_groups counts node-visits.
        if groups & c.set_groups:
            return f"set group: group(s) {sorted(groups & c.set_groups)} visited twice"
        groups |= c.set_groups
        d = c.ev.designated
        if d is not None:
            key = ctx.des_key[d]
            if designated.get(key) == d:
                return f"designated: {ctx.label(d)} is designated by two routes"
            if key in designated:
                return (
                    f"designated keys: {ctx.label(designated[key])} and {ctx.label(d)} share "
                    f"designated key {key[1]} and are both designated"
                )
            designated[key] = d
    if ctx.rules.must_visit and chosen and not any(c.on_must_visit for c in chosen):
        return "must visit: no route visits a must_visit node"
    return None


def _set_bonus_claims(ctx: _Context, chosen: list[_Cand]) -> list[tuple[int, str, int]]:
    """Route-set bonuses as ``(index into chosen, name, amount)``, best route for each."""
    out = []
    rules = ctx.rules
    # Bonuses are independent of each other, so taking the best route for each is optimal.
    for i, b in enumerate(rules.longest_route_bonuses):
        if chosen:
            j = max(range(len(chosen)), key=lambda k, i=i: chosen[k].longest[i])
            if chosen[j].longest[i] > 0:
                out.append((j, b.name, chosen[j].longest[i]))
    for i, b in enumerate(rules.bonus_routes):
        if chosen:
            j = max(range(len(chosen)), key=lambda k, i=i: chosen[k].claims[i])
            if chosen[j].claims[i] > 0:
                out.append((j, b.name, chosen[j].claims[i]))
    return out


def _set_total(ctx: _Context, chosen: list[_Cand]) -> int:
    return sum(c.ev.value for c in chosen) + sum(a for _, _, a in _set_bonus_claims(ctx, chosen))


def _candidates(ctx: _Context, paths) -> list[list[_Cand]]:
    """Per train, every (path, designated node) option, best value first."""
    cache: dict = {}
    out = []
    for t, train in enumerate(ctx.problem.trains):
        cands = []
        for nodes, segs in paths:
            key = (train, nodes)  # scoring depends on the node sequence only
            if key not in cache:
                cache[key] = _evaluate(ctx, train, nodes)
            res = cache[key]
            if isinstance(res, str):
                continue
            cands.extend(_make_cand(ctx, t, nodes, segs, ev) for ev in res.values())
        cands.sort(key=lambda c: -c.ev.value)
        out.append(cands)
    return out


def naive_solve(problem: Problem, prune: bool = True) -> Solution:
    """The optimum of ``problem`` by exhaustive search.

    Parameters
    ----------
    problem : routing.Problem
    prune : bool
        Skip route-set branches whose upper bound (route values so far + the best value of
        each remaining train + the largest possible route-set bonuses) cannot beat the best
        total found.  That bound is valid, so pruning never changes the total.

    Returns
    -------
    routing.Solution
        ``stats["method"] == "oracle"``, ``optimal`` True and ``bound == total``.
    """
    t0 = time.perf_counter()
    ctx = _Context(problem)
    paths = _enumerate_paths(ctx)
    cands = _candidates(ctx, paths)
    n_trains = len(cands)
    all_cands = [c for lst in cands for c in lst]
    rules = problem.rules
    # Route-set bonuses can add at most the largest claim of each bonus.
    set_bound = sum(
        max((c.longest[i] for c in all_cands), default=0)
        for i in range(len(rules.longest_route_bonuses))
    )
    set_bound += sum(
        max((c.claims[i] for c in all_cands), default=0) for i in range(len(rules.bonus_routes))
    )

    best: dict = {"total": 0, "routes": []}  # no routes at all is always valid and worth 0
    expanded = 0

    def fits(c: _Cand, segs: int, groups: int, designated: int) -> bool:
        """The set rules that adding routes can only break, never repair (not must_visit)."""
        return not (segs & c.seg_mask or groups & c.group_mask or designated & c.des_mask)

    def rest_bound(t: int, segs, groups, designated) -> int:
        """Upper bound on the route values of trains ``t..``: each one's best route that
        fits the routes chosen so far (lists are sorted, so the first fit is the best)."""
        total = 0
        for lst in cands[t:]:
            total += next((c.ev.value for c in lst if fits(c, segs, groups, designated)), 0)
        return total

    def search(t: int, chosen: list[_Cand], value: int, segs, groups, designated) -> None:
        nonlocal expanded
        expanded += 1
        if t == n_trains:
            if chosen and _set_error(ctx, chosen) is None:  # full re-check, must_visit too
                total = _set_total(ctx, chosen)
                if total > best["total"]:
                    best["total"], best["routes"] = total, list(chosen)
            return
        if prune:
            after = rest_bound(t + 1, segs, groups, designated)
            if value + rest_bound(t, segs, groups, designated) + set_bound <= best["total"]:
                return
        for c in cands[t]:
            if prune and value + c.ev.value + after + set_bound <= best["total"]:
                break  # sorted by value: no later candidate can do better
            if not fits(c, segs, groups, designated):
                continue
            chosen.append(c)
            search(
                t + 1,
                chosen,
                value + c.ev.value,
                segs | c.seg_mask,
                groups | c.group_mask,
                designated | c.des_mask,
            )
            chosen.pop()
        search(t + 1, chosen, value, segs, groups, designated)

    search(0, [], 0, 0, 0, 0)
    routes = _results(ctx, best["routes"])
    total = best["total"]
    assert sum(r.revenue for r in routes) == total
    stats = {
        "seconds": time.perf_counter() - t0,
        "method": "oracle",
        "routes_considered": len(all_cands),
        "paths": len(paths),
        "nodes_expanded": expanded,
    }
    return Solution(routes=routes, total=total, optimal=True, bound=total, stats=stats)


def _results(ctx: _Context, chosen: list[_Cand]) -> list[RouteResult]:
    claims = _set_bonus_claims(ctx, chosen)
    out = []
    for j, c in enumerate(chosen):
        bonuses = dict(c.ev.bonuses)
        extra = 0
        for k, name, amount in claims:
            if k == j:
                bonuses[name] = bonuses.get(name, 0) + amount
                extra += amount
        train = ctx.problem.trains[c.train]
        out.append(
            RouteResult(
                train=c.train,
                train_name=train.name,
                nodes=c.nodes,
                segments=c.segments,
                counted=c.ev.counted,
                revenue=c.ev.value + extra,
                stop_revenue=c.ev.stop_revenue,
                bonuses=bonuses,
                designated=c.ev.designated,
            )
        )
    return sorted(out, key=lambda r: r.train)


# --------------------------------------------------------------------------------- public helpers
def naive_route_value(problem: Problem, train_index: int, nodes, segments):
    """Score one route of train ``train_index`` on its own.

    Returns
    -------
    tuple or None
        ``(value, counted, designated, bonus_breakdown)`` for the best choice of designated
        node and counted stops (``value`` is multiplied, route-set bonuses excluded;
        ``bonus_breakdown`` maps per-route bonus names to multiplied amounts), or ``None`` if
        the route breaks a rule.
    """
    ctx = _Context(problem)
    res = _route_options(ctx, problem.trains[train_index], nodes, segments)
    if isinstance(res, str):
        return None
    ev = max(res.values(), key=lambda e: e.value)
    return ev.value, ev.counted, ev.designated, dict(ev.bonuses)


def naive_total(problem: Problem, routes) -> int:
    """Best total of a declared route set, maximised over designated nodes and counting.

    Parameters
    ----------
    routes : sequence of ``(train_index, nodes, segments)``

    Raises
    ------
    ValueError
        Naming the broken rule (and the route) when the set is invalid.
    """
    ctx = _Context(problem)
    seen: set[int] = set()
    options: list[list[_Cand]] = []
    for i, (t, nodes, segments) in enumerate(routes):
        if not 0 <= t < len(problem.trains):
            raise ValueError(f"route {i}: train index {t} does not exist")
        if t in seen:
            raise ValueError(f"route {i}: train {t} runs twice")
        seen.add(t)
        nodes, segments = tuple(int(n) for n in nodes), tuple(int(s) for s in segments)
        res = _route_options(ctx, problem.trains[t], nodes, segments)
        if isinstance(res, str):
            raise ValueError(f"route {i} (train {t}): {res}")
        options.append([_make_cand(ctx, t, nodes, segments, ev) for ev in res.values()])
    best, error = None, None
    # Designated nodes are chosen jointly: try every combination.
    for chosen in itertools.product(*options):
        err = _set_error(ctx, list(chosen))
        if err:
            error = err
            continue
        total = _set_total(ctx, list(chosen))
        best = total if best is None else max(best, total)
    if best is None:
        raise ValueError(f"route set: {error}")
    return best


def naive_routes(
    problem: Problem, train_index: int
) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every valid route of one train as ``(nodes, segments, value)``, best first (debugging)."""
    ctx = _Context(problem)
    train = problem.trains[train_index]
    out = []
    for nodes, segs in _enumerate_paths(ctx):
        res = _evaluate(ctx, train, nodes)
        if not isinstance(res, str):
            out.append((nodes, segs, max(e.value for e in res.values())))
    return sorted(out, key=lambda r: -r[2])
