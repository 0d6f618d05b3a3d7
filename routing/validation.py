"""Scoring routes a player declares: :func:`validate_routes`.

Routes are given as node sequences.  Junctions may be left out: between two listed nodes the
validator looks for track through junctions only, and when several pieces of track would do
(parallel track, two ways round), it searches for a choice that makes the whole route set
legal.  Errors name the rule, the route and the stops or hexes (never internal segment
numbers), in the player's words: a route through a full city says the city is blocked, and
by whom when the caller says so (``blocked_by``).

What cannot be a route is rejected first, by checks linear in the input (more nodes than
the network has, unknown node ids, a node or a piece of track listed twice), before the
network is compiled or any track is looked up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice, product

import numpy as np

from ._compile import Compiled, compile_problem, option_buffer, train_params
from .network import NodeKind
from .problem import Problem
from .rules import GroupScope
from .solution import RouteError, RouteResult, Solution

__all__ = ["ScoredRoutes", "best_scoring", "validate_routes"]

_MAX_COMBINATIONS = 100_000
#: At most this many stops are listed in a message (the rest as "...").
_MAX_LISTED = 12


@dataclass
class ScoredRoutes:
    """Declared routes, scored: ``routes`` in declaration order and their ``total``.

    ``optimum`` is the solver's answer for the same problem when :func:`routing.validate`
    was asked to ``compare`` (else ``None``); ``notes`` then says how the declared total
    compares to it.
    """

    routes: list[RouteResult]
    total: int
    notes: list[str] = field(default_factory=list)
    optimum: Solution | None = None

    @property
    def shortfall(self) -> int | None:
        """How much less than the proven optimum the declared routes earn (0 when they are
        optimal); ``None`` without a proven optimum."""
        if self.optimum is None or not self.optimum.optimal:
            return None
        return max(0, self.optimum.total - self.total)


def _name(problem: Problem, node: int) -> str:
    return problem.network.node_names[node]


def _hex_of(problem: Problem, node: int) -> str:
    net = problem.network
    return net.hex_names[int(net.node_hex[node])]


def _seg_place(problem: Problem, j: int) -> str:
    """A piece of track in the player's words: its two ends and its hex."""
    net = problem.network
    u, v = int(net.seg_u[j]), int(net.seg_v[j])
    return (
        f"the track between {_name(problem, u)!r} and {_name(problem, v)!r} "
        f"in hex {net.hex_names[int(net.seg_hex[j])]}"
    )


def _listing(problem: Problem, nodes) -> str:
    names = [repr(_name(problem, x)) for x in nodes]
    if len(names) > _MAX_LISTED:
        names = names[:_MAX_LISTED] + ["..."]
    return ", ".join(names)


def _kinds(mask: int) -> str:
    names = [k.name.lower() for k in NodeKind if k != NodeKind.JUNCTION and (mask >> int(k)) & 1]
    return " or ".join(names) or "none"


def _owners(value) -> str:
    if isinstance(value, str):
        return value
    return ", ".join(str(x) for x in value)


def _terminal_reason(problem: Problem, node: int, blocked_by) -> str:
    """Why ``node`` may only end a route, in the player's words."""
    kind = int(problem.network.node_kind[node])
    place = f"hex {_hex_of(problem, node)}"
    if blocked_by and node in blocked_by:
        return f"the city in {place} is blocked by {_owners(blocked_by[node])}"
    if kind == NodeKind.CITY:
        return f"the city in {place} is blocked for this company"
    if kind == NodeKind.OFFBOARD:
        return f"it is an off-board area ({place})"
    return f"it is a terminal stop ({place})"


def _node_id(x, n: int, where: str, pos: int, r_i: int) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
        raise RouteError(
            f"{where}: item {pos + 1} ({x!r}) is not a node id (routes list node ids)",
            route_index=r_i,
        )
    x = int(x)
    if not 0 <= x < n:
        raise RouteError(
            f"{where}: item {pos + 1}: node {x} does not exist (the network has {n} nodes)",
            route_index=r_i,
        )
    return x


def _bounded(seq, limit: int) -> list:
    """``seq`` as a list, reading at most ``limit + 1`` items (its length is checked first
    when it has one)."""
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
        raise TypeError
    if hasattr(seq, "__len__"):
        if len(seq) > limit:
            return [None] * (limit + 1)  # only its length matters: it is rejected
        return list(seq)
    return list(islice(seq, limit + 1))


def _segment_index(problem: Problem) -> dict[tuple[int, int], list[int]]:
    """Segments by their (smaller, larger) end node ids, built once per validation."""
    net = problem.network
    index: dict[tuple[int, int], list[int]] = {}
    for j, (u, v) in enumerate(zip(net.seg_u.tolist(), net.seg_v.tolist(), strict=True)):
        index.setdefault((min(u, v), max(u, v)), []).append(j)
    return index


def _pieces(c: Compiled, problem: Problem, index, a: int, b: int, where: str, r_i: int):
    """All ways from listed node ``a`` to listed node ``b``: (segments, junctions) tuples."""
    net = problem.network
    out: list[tuple] = [((j,), ()) for j in index.get((min(a, b), max(a, b)), ())]
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
        raise RouteError(
            f"{where}: no track joins {_name(problem, a)!r} and {_name(problem, b)!r}",
            route_index=r_i,
            nodes=(a, b),
        )
    return out


def _read(problem: Problem, routes) -> list[tuple]:
    """The declared routes, checked in time linear in their length before anything else:
    ``[(train, nodes, segments or None, where, index)]``."""
    net = problem.network
    n, m = net.n_nodes, net.n_segments
    n_trains = len(problem.trains)
    try:
        items = _bounded(routes, n_trains)
    except TypeError:
        raise RouteError("routes must be a sequence of (train_index, nodes[, segments])") from None
    if len(items) > n_trains:
        count = len(routes) if hasattr(routes, "__len__") else f"more than {n_trains}"
        raise RouteError(
            f"{count} routes declared, but the company has {n_trains} train"
            f"{'s' if n_trains != 1 else ''}"
        )
    out = []
    used_trains: set[int] = set()
    for r_i, item in enumerate(items):
        try:
            t, nodes, *rest = item
        except (TypeError, ValueError):
            raise RouteError(
                f"route {r_i + 1}: expected (train_index, nodes[, segments])", route_index=r_i
            ) from None
        if (
            isinstance(t, (bool, np.bool_))
            or not isinstance(t, (int, np.integer))
            or not 0 <= t < n_trains
        ):
            raise RouteError(f"route {r_i + 1}: unknown train index {t!r}", route_index=r_i)
        t = int(t)
        where = f"route {r_i + 1} (train {problem.trains[t].name!r})"
        if t in used_trains:
            raise RouteError(f"{where}: the train already runs another route", route_index=r_i)
        used_trains.add(t)
        try:
            listed = _bounded(nodes, n)
        except TypeError:
            raise RouteError(
                f"{where}: nodes must be a sequence of node ids", route_index=r_i
            ) from None
        if len(listed) > n:
            count = len(nodes) if hasattr(nodes, "__len__") else f"more than {n}"
            raise RouteError(
                f"{where}: lists {count} nodes, but the network has only {n} (a route visits "
                "each node at most once)",
                route_index=r_i,
            )
        if len(listed) < 2:
            raise RouteError(f"{where}: needs at least two nodes", route_index=r_i)
        ids = [_node_id(x, n, where, p, r_i) for p, x in enumerate(listed)]
        first: dict[int, int] = {}
        for x in ids:
            if x in first:
                raise RouteError(
                    f"{where}: visits {_name(problem, x)!r} twice", route_index=r_i, nodes=(x,)
                )
            first[x] = 1
        segs = None
        if rest and rest[0] is not None:
            try:
                given = _bounded(rest[0], m)
            except TypeError:
                raise RouteError(
                    f"{where}: segments must be a sequence of track ids", route_index=r_i
                ) from None
            if len(given) > m:
                raise RouteError(
                    f"{where}: gives more pieces of track than the network has ({m})",
                    route_index=r_i,
                )
            if len(given) != len(ids) - 1:
                raise RouteError(
                    f"{where}: needs one piece of track between each pair of listed nodes "
                    f"({len(ids) - 1}), got {len(given)}",
                    route_index=r_i,
                )
            segs = []
            seen: set[int] = set()
            for p, j in enumerate(given):
                a, b = ids[p], ids[p + 1]
                hop = f"the track given between {_name(problem, a)!r} and {_name(problem, b)!r}"
                if (
                    isinstance(j, (bool, np.bool_))
                    or not isinstance(j, (int, np.integer))
                    or not 0 <= j < m
                ):
                    raise RouteError(
                        f"{where}: {hop} ({j!r}) is not a piece of track of the network",
                        route_index=r_i,
                        nodes=(a, b),
                    )
                j = int(j)
                if {int(net.seg_u[j]), int(net.seg_v[j])} != {a, b}:
                    raise RouteError(
                        f"{where}: {hop} does not join them (it is {_seg_place(problem, j)})",
                        route_index=r_i,
                        nodes=(a, b),
                    )
                if j in seen:  # pragma: no cover - distinct nodes make distinct pieces
                    raise RouteError(
                        f"{where}: uses {_seg_place(problem, j)} twice", route_index=r_i
                    )
                seen.add(j)
                segs.append(j)
        out.append((t, ids, segs, where, r_i))
    return out


def _check_route(
    c: Compiled,
    problem: Problem,
    t: int,
    nodes: list[int],
    segs: list[int],
    where: str,
    r_i: int,
    blocked_by=None,
) -> None:
    net = problem.network
    train = problem.trains[t]
    kind = net.node_kind

    def fail(message: str, *names) -> RouteError:
        return RouteError(f"{where}: {message}", route_index=r_i, nodes=names)

    seen_at: dict[int, int] = {}
    for x in nodes:
        if x in seen_at:
            raise fail(f"visits {_name(problem, x)!r} twice", x)
        seen_at[x] = 1
    if len(set(segs)) != len(segs):
        dup = next(j for j in segs if segs.count(j) > 1)
        raise fail(f"uses {_seg_place(problem, dup)} twice")
    for end in (nodes[0], nodes[-1]):
        if kind[end] == NodeKind.JUNCTION:
            raise fail(f"ends at junction {_name(problem, end)!r}, not at a stop", end)
    for p in range(1, len(nodes) - 1):
        node = nodes[p]
        if net.node_terminal[node]:
            raise fail(
                f"runs through {_name(problem, node)!r}, which may only end a route: "
                + _terminal_reason(problem, node, blocked_by),
                node,
            )
        if kind[node] == NodeKind.JUNCTION:
            s_in, s_out = segs[p - 1], segs[p]
            side_in = net.seg_side_u[s_in] if net.seg_u[s_in] == node else net.seg_side_v[s_in]
            side_out = net.seg_side_u[s_out] if net.seg_u[s_out] == node else net.seg_side_v[s_out]
            if side_in == side_out:
                raise fail(
                    f"reverses at junction {_name(problem, node)!r} in hex "
                    f"{_hex_of(problem, node)} (no back-tracking)",
                    node,
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
                    raise fail(f"enters hex {net.hex_names[h]!r} a second time")
                if prev is not None:
                    left.add(prev)
                prev = h
    if len(stops) < train.min_stops:
        raise fail(
            f"visits {len(stops)} stops, needs at least {train.min_stops}: "
            f"{_listing(problem, stops)}"
        )
    tokens = problem.rules.token_nodes
    if tokens is not None and not any(n in tokens for n in stops):
        raise fail(f"does not visit a station of the company (stops {_listing(problem, stops)})")
    seen: dict[int, int] = {}
    for n in stops:
        g = int(net.node_group[n])
        if g >= 0:
            if g in seen:
                raise fail(
                    f"visits both {_name(problem, seen[g])!r} and {_name(problem, n)!r},"
                    " which may not share a route",
                    seen[g],
                    n,
                )
            seen[g] = n
    for a, b in problem.rules.forbidden_end_pairs:
        x, y = stops[0], stops[-1]
        if (x in a and y in b) or (x in b and y in a):
            raise fail(f"may not run from {_name(problem, x)!r} to {_name(problem, y)!r}", x, y)
    if train.end_kinds and not any(
        (train.end_kinds >> int(kind[e])) & 1 for e in (stops[0], stops[-1])
    ):
        raise fail(
            f"train {train.name!r} must start or end at a {_kinds(train.end_kinds)}; this route "
            f"runs from {_name(problem, stops[0])!r} to {_name(problem, stops[-1])!r}",
            stops[0],
            stops[-1],
        )
    allowed = train.skip | train.designated_kind
    for r in train.rows:
        allowed |= r.kinds
    free = train.skip | train.designated_kind
    must = [n for n in stops if not (free >> int(kind[n])) & 1]
    capacity = sum(r.visit for r in train.rows)
    if len(must) > capacity:
        raise fail(
            f"visits {len(must)} stops but train {train.name!r} may visit at most {capacity}: "
            f"{_listing(problem, must)}"
        )
    for n in stops:
        if not (allowed >> int(kind[n])) & 1:
            raise fail(
                f"train {train.name!r} cannot visit {_name(problem, n)!r} "
                f"({NodeKind(int(kind[n])).name.lower()})",
                n,
            )
    if train.designated_kind and not any(
        (train.designated_kind >> int(kind[n])) & 1 for n in stops
    ):
        raise fail(f"goods train {train.name!r} must include a {_kinds(train.designated_kind)}")


def _score(c: Compiled, problem: Problem, t: int, stops: list[int], desig: int):
    train = problem.trains[t]
    row_kinds, row_pay, row_visit, flags = train_params(train)
    counted = np.zeros(len(stops) + 1, dtype=np.bool_)
    n_bonus = c.n_bonus
    bonus = np.zeros(max(n_bonus, 1), dtype=np.int64)
    value = c.kernels.evaluate(
        np.array(stops, dtype=np.int64), len(stops), desig, c.node_kind, c.node_val, c.node_token,
        row_kinds, row_pay, row_visit, flags[0], flags[1], flags[3], c.token_counted,
        c.ep_a, c.ep_b, c.ep_counted, c.sp_a, c.sp_b, c.sp_amount, c.sp_counted,
        c.et_amt, c.et_min_other, c.mcw_in, c.mcw_k, counted, bonus,
        np.empty(c.kernels.scratch_words(len(stops)), dtype=np.int64),
        np.empty(2 * len(stops) + 2, dtype=np.bool_),
        option_buffer(c),
    )  # fmt: skip
    return int(value), counted, bonus[:n_bonus].copy()


def validate_routes(
    problem: Problem, routes: Sequence, *, blocked_by: Mapping | None = None
) -> ScoredRoutes:
    """Check and score declared routes.

    Parameters
    ----------
    problem : Problem
    routes : sequence of ``(train_index, nodes)`` or ``(train_index, nodes, segments)``
        ``nodes`` may omit junctions.
    blocked_by : mapping, optional
        Node id -> who blocks it (a company name, or several): the caller's knowledge of
        why a city may only end a route, used in the message of a route running through it.

    Returns
    -------
    ScoredRoutes
        Each route's ``counted`` and ``skipped`` stops say which of the visited stops earn.

    Raises
    ------
    RouteError
        Naming the broken rule and where it broke (route, stops, hexes).
    """
    if not isinstance(problem, Problem):
        raise ValueError(f"validate expects a routing.Problem, got {type(problem).__name__}")
    parsed = _read(problem, routes)  # linear checks first: nothing expensive yet
    c = compile_problem(problem, reachable_only=False)
    net = problem.network
    index = _segment_index(problem)

    # choose track pieces for every hop of every route so the whole set is legal
    first_error: RouteError | None = None
    per_route: list[list[tuple[list[int], list[int]]]] = []
    for t, nodes, explicit, where, r_i in parsed:
        if explicit is not None:
            _check_route(c, problem, t, nodes, explicit, where, r_i, blocked_by)
            per_route.append([(nodes, explicit)])
            continue
        options = [
            _pieces(c, problem, index, nodes[p], nodes[p + 1], where, r_i)
            for p in range(len(nodes) - 1)
        ]
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
                _check_route(c, problem, t, full_nodes, segs, where, r_i, blocked_by)
            except RouteError as err:
                first_error = first_error or err
                continue
            legal.append((full_nodes, segs))
        if not legal:
            raise first_error or RouteError(
                f"{where}: no legal way along the listed nodes", route_index=r_i
            )
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
                    f"route {r_i + 1} and route {owner[j] + 1} both run on "
                    f"{_seg_place(problem, j)}",
                    route_index=r_i,
                    nodes=(int(net.seg_u[j]), int(net.seg_v[j])),
                )
            owner[j] = r_i
    scope = rules.group_scope_map()
    group_owner: dict[int, tuple[int, int]] = {}
    for r_i, (nodes, _) in enumerate(choice):
        for x in nodes:
            g = int(net.node_group[x])
            if g >= 0 and scope.get(g) == GroupScope.SET:
                if g in group_owner:
                    o_route, o_node = group_owner[g]
                    raise RouteError(
                        f"route {r_i + 1} visits {_name(problem, x)!r} and route "
                        f"{o_route + 1} visits {_name(problem, o_node)!r}; only one route of "
                        "the set may visit these stops",
                        route_index=r_i,
                        nodes=(o_node, x),
                    )
                group_owner[g] = (r_i, x)
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
            where = parsed[bad[0]][3]
            why = "the train cannot count this combination of stops"
            if rules.token_counted:
                why += " with a company station among the counted stops"
            if rules.min_counted_with:
                why += " (mind the minimum number of other stops some stops require)"
            first_problem = first_problem or RouteError(
                f"{where}: {why} ({_listing(problem, stops_of[bad[0]])})",
                route_index=parsed[bad[0]][4],
            )
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
                skipped=tuple(stops[p] for p in range(len(stops)) if not counted[p]),
            )
        )
    return ScoredRoutes(results, best_total + claim_total)


def best_scoring(problem: Problem, results: list, total: int) -> tuple[list, int]:
    """``(results, total)`` of the same routes, scored their best way.

    A solution short of the optimum may count a route's stops a worse way than the routes
    allow (a CP-SAT incumbent: nothing in that model asks an express train for its best
    stops until the optimum), and an answer should say what its routes earn.
    :func:`routing.solve` applies this to every answer that is not proven, so a proven
    optimum keeps each method's own scoring and the methods stay independent where they
    are compared.
    """
    scored = validate_routes(problem, [(r.train, r.nodes, r.segments) for r in results])
    if scored.total > total:
        return list(scored.routes), scored.total
    return results, total
