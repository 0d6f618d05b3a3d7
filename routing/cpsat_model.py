"""CP-SAT model construction for :mod:`routing.cpsat`.

:mod:`routing.cpsat_presolve` gives each train its live graph, this module states the model
over it, and :mod:`routing.cpsat` solves it and turns the answer into a
:class:`routing.Solution`.  The formulation is explained in the docstring of
:mod:`routing.cpsat`.  Nothing here is shared with the numba search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from ortools.sat.python import cp_model

from .cpsat_presolve import Link, live_graph
from .network import NodeKind
from .problem import Problem
from .rules import GroupScope
from .trains import Train

__all__ = ["TrainModel", "RouteSetModel", "build_model", "build_single", "add_hint"]

_JUNCTION = int(NodeKind.JUNCTION)


def _bit(kind: int) -> int:
    return 1 << int(kind)


# ---------------------------------------------------------------------------------- model
@dataclass
class TrainModel:
    """Variables of one train's route.  Empty ``nodes`` means the train cannot run."""

    index: int
    factor: int  # multiplier * runs
    nodes: list[int] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    active: cp_model.IntVar | int = 0
    visit: dict[int, cp_model.IntVar] = field(default_factory=dict)
    arcs: list[tuple[int, int, int, cp_model.IntVar]] = field(default_factory=list)  # u, v, link
    start: dict[int, cp_model.IntVar] = field(default_factory=dict)
    end: dict[int, cp_model.IntVar] = field(default_factory=dict)
    counted: dict[int, list[cp_model.IntVar]] = field(default_factory=dict)
    designated: dict[int, cp_model.IntVar] = field(default_factory=dict)
    value: cp_model.LinearExprT = 0  # route value before the multiplier

    def count_expr(self, node: int) -> cp_model.LinearExprT:
        return sum(self.counted.get(node, ()))


@dataclass
class RouteSetModel:
    """The whole CP-SAT model with the handles needed to read a solution back."""

    model: cp_model.CpModel
    trains: list[TrainModel]
    objective: cp_model.LinearExprT


class _Builder:
    def __init__(self, problem: Problem) -> None:
        self.p = problem
        self.net = problem.network
        self.rules = problem.rules
        self.m = cp_model.CpModel()
        self.node_bonus = self.rules.node_bonus_map()
        self.live_cache: dict[tuple, tuple[list[int], list[Link]]] = {}
        # Per train: the route-set bonus gains it collects and its longest-route claims
        # (for the claim-aware caps of build_model).
        self.gains: dict[int, list[cp_model.LinearExprT]] = {}
        self.lr_claims: dict[int, list[cp_model.IntVar]] = {}

    def stop_value(self, v: int) -> int:
        return int(self.net.node_value[v]) + self.node_bonus.get(v, 0)

    def is_stop(self, v: int) -> bool:
        return int(self.net.node_kind[v]) != _JUNCTION

    # ------------------------------------------------------------------ one train
    def train(self, t: int, train: Train) -> TrainModel:
        m, net = self.m, self.net
        tm = TrainModel(index=t, factor=train.multiplier * train.runs)
        key = (train.designated_kind, train.skip, train.rows)
        if key not in self.live_cache:
            self.live_cache[key] = live_graph(self.p, train)
        nodes, links = self.live_cache[key]
        if len(nodes) < 2 or not links:
            return tm
        tm.nodes, tm.links = nodes, links
        tm.active = active = m.new_bool_var(f"t{t}_active")
        pos = {v: i + 1 for i, v in enumerate(nodes)}  # circuit node 0 is the depot
        circuit: list[tuple[int, int, cp_model.IntVar]] = [(0, 0, active.Not())]
        for v in nodes:
            lit = m.new_bool_var(f"t{t}_v{v}")
            tm.visit[v] = lit
            circuit.append((pos[v], pos[v], lit.Not()))
            # With the depot on its self-loop the circuit could close among network nodes.
            m.add_implication(lit, active)
        arcs_at: dict[int, list[tuple[int, cp_model.IntVar]]] = {}  # node -> (side, arc lit)
        for k, link in enumerate(links):
            u, v = link.u, link.v
            fwd = m.new_bool_var(f"t{t}_l{k}_f")
            bwd = m.new_bool_var(f"t{t}_l{k}_b")
            tm.arcs += [(u, v, k, fwd), (v, u, k, bwd)]
            circuit += [(pos[u], pos[v], fwd), (pos[v], pos[u], bwd)]
            m.add_at_most_one(fwd, bwd)
            arcs_at.setdefault(u, []).extend([(link.side_u, fwd), (link.side_u, bwd)])
            arcs_at.setdefault(v, []).extend([(link.side_v, fwd), (link.side_v, bwd)])
        for v in nodes:
            if self.is_stop(v):
                s, e = m.new_bool_var(f"t{t}_start{v}"), m.new_bool_var(f"t{t}_end{v}")
                tm.start[v], tm.end[v] = s, e
                circuit += [(0, pos[v], s), (pos[v], 0, e)]
                # depot -> v -> depot would be a route of one node (k = 0).
                m.add_at_most_one(s, e)
                if net.node_terminal[v]:
                    # A terminal stop is an end whenever it is visited.
                    m.add(s + e >= tm.visit[v])
            else:
                # Junction: entering and leaving arcs must have different side labels.  Each
                # segment contributes both its directions to the side's count, so "at most one
                # arc per side" forbids entering and leaving by one side and also using two
                # different segments of one side.
                by_side: dict[int, list[cp_model.IntVar]] = {}
                for side, lit in arcs_at.get(v, ()):
                    by_side.setdefault(side, []).append(lit)
                for lits in by_side.values():
                    if len(lits) > 2:
                        m.add_at_most_one(lits)
        m.add_circuit(circuit)
        # A route and its reverse are the same route: keep the orientation whose first node
        # has the smaller circuit index.  sum(pos*start) - sum(pos*end) <= -1 when active.
        m.add(sum(pos[v] * (tm.start[v] - tm.end[v]) for v in tm.start) + active <= 0)
        self.counting(tm, train)
        self.route_rules(tm, train)
        tm.value = self.route_value(tm)
        return tm

    def counting(self, tm: TrainModel, train: Train) -> None:
        """Designation, skipping and row assignment (ROUTING.md rule 10)."""
        m, net = self.m, self.net
        stops = [v for v in tm.nodes if self.is_stop(v)]
        kind = {v: int(net.node_kind[v]) for v in stops}
        desig_stops = [v for v in stops if train.designated_kind & _bit(kind[v])]
        other = [v for v in stops if not train.designated_kind & _bit(kind[v])]
        if train.designated_kind:
            for v in desig_stops:
                d = m.new_bool_var(f"t{tm.index}_desig{v}")
                m.add_implication(d, tm.visit[v])
                tm.designated[v] = d
                tm.counted[v] = [d]
            m.add(sum(tm.designated.values()) == tm.active)
        rows = train.rows
        cands = [[v for v in other if r.kinds & _bit(kind[v])] for r in rows]
        # A cap is binding only if the row could be offered more stops than it allows.
        visit_binds = [r.visit < len(c) for r, c in zip(rows, cands, strict=True)]
        pay_binds = [r.pay < r.visit and r.pay < len(c) for r, c in zip(rows, cands, strict=True)]
        assigned: list[list[cp_model.IntVar]] = [[] for _ in rows]
        counted: list[list[cp_model.IntVar]] = [[] for _ in rows]
        for v in other:
            rs = [i for i, r in enumerate(rows) if r.kinds & _bit(kind[v])]
            can_skip = bool(train.skip & _bit(kind[v]))
            need_assign = not can_skip or any(visit_binds[i] for i in rs)
            cnt: list[cp_model.IntVar] = []
            if need_assign:
                if len(rs) == 1 and not can_skip:
                    lits = [tm.visit[v]]
                else:
                    lits = [m.new_bool_var(f"t{tm.index}_a{v}_{i}") for i in rs]
                    if can_skip:
                        m.add(sum(lits) <= tm.visit[v])
                    else:
                        m.add(sum(lits) == tm.visit[v])
                for i, a in zip(rs, lits, strict=True):
                    assigned[i].append(a)
                    if pay_binds[i]:
                        c = m.new_bool_var(f"t{tm.index}_c{v}_{i}")
                        m.add_implication(c, a)
                    else:
                        # Counting is monotone (every value and bonus only grows with C), so
                        # counting every assigned stop loses nothing when the pay cap is slack.
                        c = a
                    counted[i].append(c)
                    cnt.append(c)
            elif rs:
                # Skippable and no visit cap binds: "assigned but not counted" and "skipped"
                # are interchangeable, so only the counted choice needs a literal.
                if len(rs) == 1 and not pay_binds[rs[0]]:
                    lits = [tm.visit[v]]
                else:
                    lits = [m.new_bool_var(f"t{tm.index}_c{v}_{i}") for i in rs]
                    m.add(sum(lits) <= tm.visit[v])
                for i, c in zip(rs, lits, strict=True):
                    counted[i].append(c)
                    cnt.append(c)
            if cnt:
                tm.counted[v] = cnt
        for i, r in enumerate(rows):
            if visit_binds[i]:
                m.add(sum(assigned[i]) <= r.visit)
            if pay_binds[i]:
                m.add(sum(counted[i]) <= r.pay)
        total_counted = sum(sum(c) for c in tm.counted.values())
        m.add(total_counted >= tm.active)  # C is non-empty
        # Top-pay counting is optimal unless a skippable stop could need a row's visit room.
        plain = not visit_binds[0] or not train.skip & rows[0].kinds if len(rows) == 1 else False
        if plain and pay_binds[0] and self.values_only():
            self.count_the_best(tm, [v for v in other if rows[0].kinds & _bit(kind[v])])

    def values_only(self) -> bool:
        """True if nothing but stop values depends on which stops are counted, so that
        counting the most valuable visited stops is always an optimal choice."""
        r = self.rules
        return not (
            any(b.counted for b in r.end_pair_bonuses)
            or any(b.counted for b in r.set_pair_bonuses)
            or r.end_token_bonuses
            or r.min_counted_with
            or (r.token_counted and r.token_nodes is not None)
        )

    def count_the_best(self, tm: TrainModel, stops: list[int]) -> None:
        """Symmetry breaking for a row that counts the best ``pay`` of any number of stops
        (express trains): in a fixed order (value, then node id), a visited stop left
        uncounted forbids counting any later stop.  Some optimal choice of C always has
        this form when only stop values depend on C."""
        m = self.m
        order = sorted(
            (
                v
                for v in stops
                if len(tm.counted.get(v, ())) == 1 and tm.counted[v][0] is not tm.visit[v]
            ),
            key=lambda v: (-self.stop_value(v), v),
        )
        seen_gap = None  # literal: some earlier stop is visited but not counted
        for v in order:
            c = tm.counted[v][0]
            if seen_gap is not None:
                m.add_implication(seen_gap, c.Not())
            gap = m.new_bool_var(f"t{tm.index}_gap{v}")
            # gap >= visit - c, and gap >= the previous gap (the objective never needs gap
            # to be 1 beyond that, and a spurious 1 only forbids more counting).
            m.add(gap >= tm.visit[v] - c)
            if seen_gap is not None:
                m.add_implication(seen_gap, gap)
            seen_gap = gap

    def route_rules(self, tm: TrainModel, train: Train) -> None:
        """Rules 5-9 of ROUTING.md for one route."""
        m, net, rules = self.m, self.net, self.rules
        stops = [v for v in tm.nodes if self.is_stop(v)]
        if train.min_stops > 2:  # two distinct stop ends already give two stops
            m.add(sum(tm.visit[v] for v in stops) >= train.min_stops * tm.active)
        if rules.token_nodes is not None:
            m.add(sum(tm.visit[v] for v in rules.token_nodes if v in tm.visit) >= tm.active)
        groups: dict[int, list[int]] = {}
        for v in tm.nodes:
            if int(net.node_group[v]) >= 0:
                groups.setdefault(int(net.node_group[v]), []).append(v)
        for members in groups.values():
            if len(members) > 1:
                m.add_at_most_one(tm.visit[v] for v in members)
        for a, b in rules.forbidden_end_pairs:
            start_a = sum(tm.start[v] for v in a if v in tm.start)
            start_b = sum(tm.start[v] for v in b if v in tm.start)
            end_a = sum(tm.end[v] for v in a if v in tm.end)
            end_b = sum(tm.end[v] for v in b if v in tm.end)
            m.add(start_a + end_b <= 1)
            m.add(start_b + end_a <= 1)
        if train.end_kinds:
            ok = [v for v in stops if train.end_kinds & _bit(int(net.node_kind[v]))]
            m.add(sum(tm.start[v] + tm.end[v] for v in ok) >= tm.active)
        if rules.token_counted and rules.token_nodes is not None:
            m.add(sum(tm.count_expr(v) for v in rules.token_nodes) >= tm.active)
        for group, k in rules.min_counted_with:
            if k <= 0:
                continue
            outside = sum(tm.count_expr(v) for v in tm.counted if v not in group)
            for v in group:
                if v in tm.visit:
                    m.add(outside >= k * tm.visit[v])
        if rules.hex_once:
            self.hex_once(tm)

    def hex_once(self, tm: TrainModel) -> None:
        """ROUTING.md rule 11: each non-exempt hex forms one run of the route's hex sequence.

        The sequence is the route's stops and segments in order (junctions dropped); two
        neighbours in it are *adjacent*.  The elements of hex ``h`` split into runs, and
        ``runs = elements - adjacencies inside h``.  Adjacencies are: consecutive segments of
        a link (fixed per link), a stop and the end segment of a link at it, and the two link
        ends at a junction (``2 z <= links used there with an end segment in h``).
        """
        m, net = self.m, self.net
        exempt = self.rules.hex_once_exempt
        runs: dict[int, list] = {}

        def add(h: int, term) -> None:
            if h not in exempt:
                runs.setdefault(h, []).append(term)

        use: dict[int, cp_model.LinearExprT] = {}
        at: dict[int, list[tuple[int, int]]] = {}  # node -> (hex of end segment, link)
        for k, link in enumerate(tm.links):
            lits = [lit for _, _, kk, lit in tm.arcs[2 * k : 2 * k + 2] if kk == k]
            use[k] = sum(lits)
            hexes = [int(net.seg_hex[j]) for j in link.segs]
            per_hex: dict[int, int] = {}
            for i, h in enumerate(hexes):
                if i == 0 or hexes[i - 1] != h:
                    per_hex[h] = per_hex.get(h, 0) + 1
            for h, n in per_hex.items():
                add(h, n * use[k])
            at.setdefault(link.u, []).append((hexes[0], k))
            at.setdefault(link.v, []).append((hexes[-1], k))
        for v in tm.nodes:
            if self.is_stop(v):
                h = int(net.node_hex[v])
                add(h, tm.visit[v])
                for hs, k in at.get(v, ()):
                    if hs == h:
                        add(h, -use[k])
            else:
                by_hex: dict[int, list[int]] = {}
                for hs, k in at.get(v, ()):
                    by_hex.setdefault(hs, []).append(k)
                for h, ks in by_hex.items():
                    if len(ks) > 1 and h not in exempt:
                        z = m.new_bool_var(f"t{tm.index}_hx{v}_{h}")
                        m.add(2 * z <= sum(use[k] for k in ks))
                        add(h, -z)
        for terms in runs.values():
            # Even a single term can exceed 1: a link that leaves a hex and comes back into
            # it (two separate track pieces of a crossing tile) counts that hex twice.
            m.add(sum(terms) <= 1)

    def route_value(self, tm: TrainModel) -> cp_model.LinearExprT:
        """Stop values of C plus the per-route bonuses, before the multiplier."""
        m, rules = self.m, self.rules
        terms = [self.stop_value(v) * tm.count_expr(v) for v in tm.counted]
        total_counted = sum(tm.count_expr(v) for v in tm.counted)
        t = tm.index
        for k, bonus in enumerate(rules.end_pair_bonuses):
            a = {v: x for v, x in bonus.a if v in tm.start}
            b = {v: x for v, x in bonus.b if v in tm.start}
            if not a or not b:
                continue
            # One end takes the "a" role and the other end the "b" role; the two role literals
            # sit on different nodes, so they are the two ends of the route.
            ra = {v: m.new_bool_var(f"t{t}_ep{k}_a{v}") for v in a}
            rb = {v: m.new_bool_var(f"t{t}_ep{k}_b{v}") for v in b}
            for roles in (ra, rb):
                for v, lit in roles.items():
                    m.add(lit <= tm.start[v] + tm.end[v])
                    if bonus.counted:
                        m.add(lit <= tm.count_expr(v))
            m.add_at_most_one(ra.values())
            m.add(sum(ra.values()) == sum(rb.values()))
            for v in set(ra) & set(rb):
                m.add_at_most_one(ra[v], rb[v])
            terms += [a[v] * lit for v, lit in ra.items()] + [b[v] * lit for v, lit in rb.items()]
        for k, bonus in enumerate(rules.set_pair_bonuses):
            if bonus.amount <= 0:
                continue
            lit_of = tm.count_expr if bonus.counted else (lambda v: tm.visit[v])
            pool = tm.counted if bonus.counted else tm.visit
            a = [lit_of(v) for v in bonus.a if v in pool]
            b = [lit_of(v) for v in bonus.b if v in pool]
            if not a or not b:
                continue
            sp = m.new_bool_var(f"t{t}_sp{k}")
            m.add(sp <= sum(a))
            m.add(sp <= sum(b))
            terms.append(bonus.amount * sp)
        for k, bonus in enumerate(rules.end_token_bonuses):
            cand = {v: x for v, x in bonus.amounts if x > 0 and v in tm.counted and v in tm.start}
            if not cand:
                continue
            et = {v: m.new_bool_var(f"t{t}_et{k}_{v}") for v in cand}
            for v, lit in et.items():
                m.add(lit <= tm.start[v] + tm.end[v])
                m.add(lit <= tm.count_expr(v))
            m.add_at_most_one(et.values())
            # |C \ {x}| >= min_other_stops with x in C  <=>  |C| >= min_other_stops + 1.
            m.add(total_counted >= (bonus.min_other_stops + 1) * sum(et.values()))
            terms += [cand[v] * lit for v, lit in et.items()]
        # Build expressions from term lists: "+=" on a CP-SAT sum mutates it in place, and
        # the same object may be shared (e.g. a train's value inside the objective).
        return cp_model.LinearExpr.sum(terms)

    # ------------------------------------------------------------------ route set
    def route_set(self, tms: list[TrainModel]) -> cp_model.LinearExprT:
        m, net, rules = self.m, self.net, self.rules
        running = [tm for tm in tms if tm.nodes]
        terms = [tm.factor * tm.value for tm in running]
        train_of = {tm.index: self.p.trains[tm.index] for tm in running}
        # Disjoint track.
        seg_use: dict[int, list[cp_model.IntVar]] = {}
        for tm in running:
            for _, _, k, lit in tm.arcs:
                for j in tm.links[k].segs:
                    seg_use.setdefault(j, []).append(lit)
        for lits in seg_use.values():
            if len(lits) > 2:
                m.add_at_most_one(lits)
        # Set-scoped groups.
        scope = rules.group_scope_map()
        for g, s in scope.items():
            if s != GroupScope.SET:
                continue
            lits = [tm.visit[v] for tm in running for v in tm.nodes if int(net.node_group[v]) == g]
            if len(lits) > 1:
                m.add_at_most_one(lits)
        # Distinct designated nodes (nodes sharing a designated key count as one).
        keys = dict(rules.designated_keys)
        desig: dict[tuple, list[cp_model.IntVar]] = {}
        for tm in running:
            for v, lit in tm.designated.items():
                key = ("key", keys[v]) if v in keys else ("node", v)
                desig.setdefault(key, []).append(lit)
        for lits in desig.values():
            if len(lits) > 1:
                m.add_at_most_one(lits)
        if rules.must_visit:
            hits = sum(tm.visit[v] for tm in running for v in rules.must_visit if v in tm.visit)
            for tm in running:
                m.add(hits >= tm.active)
        for k, bonus in enumerate(rules.longest_route_bonuses):
            if bonus.per_stop <= 0:
                continue
            claims = []
            for tm in running:
                eligible = [
                    v
                    for v in tm.nodes
                    if self.is_stop(v) and bonus.kinds & _bit(int(net.node_kind[v]))
                ]
                if not eligible:
                    continue
                claim = m.new_bool_var(f"t{tm.index}_lr{k}")
                claims.append(claim)
                # The claimed count n = claim * (eligible stops visited), linearised as
                # n <= visited and n <= cap * claim (the objective pushes n up).  Unlike one
                # "y = visit AND claim" literal per stop, whose implications CP-SAT keeps out
                # of its LP below linearization level 2, both rows stay linear, so the LP
                # sees that only one route collects the bonus.
                cap = min(len(eligible), self.max_stops(tm, train_of[tm.index]))
                n = m.new_int_var(0, cap, f"t{tm.index}_lr{k}_n")
                m.add(n <= sum(tm.visit[v] for v in eligible))
                m.add(n <= cap * claim)
                terms.append(bonus.per_stop * n)
                self.gains.setdefault(tm.index, []).append(bonus.per_stop * n)
                self.lr_claims.setdefault(tm.index, []).append(claim)
            if len(claims) > 1:
                m.add(sum(claims) <= 1)
        hexes: dict[int, cp_model.LinearExprT] = {}
        for k, bonus in enumerate(rules.bonus_routes):
            if bonus.amount <= 0:
                continue
            claims = []
            for tm in running:
                a = [tm.visit[v] for v in bonus.a if v in tm.visit]
                b = [tm.visit[v] for v in bonus.b if v in tm.visit]
                if not a or not b:
                    continue
                claim = m.new_bool_var(f"t{tm.index}_br{k}")
                m.add(claim <= sum(a))
                m.add(claim <= sum(b))
                claims.append(claim)
                if bonus.per_hex == 0:
                    terms.append(bonus.amount * claim)
                    self.gains.setdefault(tm.index, []).append(bonus.amount * claim)
                    continue
                if tm.index not in hexes:
                    hexes[tm.index] = self.hex_count(tm)
                gain = m.new_int_var(0, bonus.amount, f"t{tm.index}_br{k}_gain")
                m.add(gain <= bonus.amount * claim)
                m.add(gain <= bonus.amount - bonus.per_hex * hexes[tm.index]).only_enforce_if(claim)
                terms.append(gain)
                self.gains.setdefault(tm.index, []).append(gain)
            if len(claims) > 1:
                m.add_at_most_one(claims)
        self.symmetry(tms)
        self.parallel_links(running)
        return cp_model.LinearExpr.sum(terms)

    def max_stops(self, tm: TrainModel, train: Train) -> int:
        """Most stops a route of ``train`` can visit: every live stop it may skip or
        designate (rule 10 puts no limit on those) plus at most the rows' visit caps of
        the others."""
        free = train.skip | train.designated_kind
        stops = [v for v in tm.nodes if self.is_stop(v)]
        n_free = sum(1 for v in stops if free & _bit(int(self.net.node_kind[v])))
        room = sum(min(r.visit, len(stops)) for r in train.rows)
        return n_free + min(len(stops) - n_free, room)

    def parallel_links(self, running: list[TrainModel]) -> None:
        """Order interchangeable parallel links: two links between the same circuit nodes
        with the same side labels there differ only in their segments' hexes, so unless a
        rule reads hexes, a route set using the second but not the first can use the first
        instead.  Demand that the first is used (by any train) whenever the second is."""
        groups, holders = parallel_groups(self.p, running)
        by_index = {tm.index: tm for tm in running}

        def use(key):
            return sum(
                lit for t, k in holders[key] for *_, lit in by_index[t].arcs[2 * k : 2 * k + 2]
            )

        for keys in groups:
            for first, second in pairwise(keys):
                self.m.add(use(second) <= use(first))

    def hex_count(self, tm: TrainModel) -> cp_model.LinearExprT:
        """Number of distinct hexes of the route's segments and stops (a lower-bounded
        count: each hex literal is forced up by what uses the hex; the objective keeps it
        from rising further because it only ever costs)."""
        m, net = self.m, self.net
        users: dict[int, list[cp_model.IntVar]] = {}
        for _, _, k, lit in tm.arcs:
            for h in tm.links[k].hexes:
                users.setdefault(h, []).append(lit)
        for v in tm.nodes:
            if self.is_stop(v):
                users.setdefault(int(net.node_hex[v]), []).append(tm.visit[v])
        total = []
        for h, lits in users.items():
            hx = m.new_bool_var(f"t{tm.index}_hex{h}")
            for lit in lits:
                m.add_implication(lit, hx)
            total.append(hx)
        return cp_model.LinearExpr.sum(total)

    def symmetry(self, tms: list[TrainModel]) -> None:
        """Order identical trains: swapping their routes (with the route-set bonuses they
        claim) changes nothing, so demand a non-increasing route value along the group."""
        classes: dict[tuple, list[TrainModel]] = {}
        for tm in tms:
            if not tm.nodes:
                continue
            tr = self.p.trains[tm.index]
            key = (
                tr.rows,
                tr.skip,
                tr.multiplier,
                tr.runs,
                tr.end_kinds,
                tr.designated_kind,
                tr.min_stops,
            )
            classes.setdefault(key, []).append(tm)
        for group in classes.values():
            for first, second in pairwise(group):
                self.m.add(first.active >= second.active)
                self.m.add(first.value >= second.value)


def parallel_groups(
    problem: Problem, running: list[TrainModel]
) -> tuple[list[list[tuple[int, ...]]], dict[tuple[int, ...], list[tuple[int, int]]]]:
    """Interchangeable parallel links (see ``_Builder.parallel_links``).

    Returns the groups, each a sorted list of link keys (segment ids from the lower end),
    and per key the ``(train index, link index)`` pairs that hold the link.  No groups when
    a rule reads hexes (then parallel links are not interchangeable).
    """
    rules, net = problem.rules, problem.network
    holders: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    if rules.hex_once or any(b.per_hex and b.amount > 0 for b in rules.bonus_routes):
        return [], holders
    shape: dict[tuple[int, ...], tuple] = {}
    present: dict[tuple[int, ...], set[int]] = {}
    for tm in running:
        for k, link in enumerate(tm.links):
            key = link.segs if link.u < link.v else tuple(reversed(link.segs))
            ends = (
                (link.u, link.side_u, link.v, link.side_v)
                if link.u < link.v
                else (link.v, link.side_v, link.u, link.side_u)
            )
            shape[key] = ends
            present.setdefault(key, set()).add(tm.index)
            holders.setdefault(key, []).append((tm.index, k))
    groups: dict[tuple, list[tuple[int, ...]]] = {}
    for key, ends in shape.items():
        # Junction side labels matter at the ends; at stops they are ignored.
        u, su, v, sv = ends
        stop_u = int(net.node_kind[u]) != _JUNCTION
        stop_v = int(net.node_kind[v]) != _JUNCTION
        norm = (u, None if stop_u else su, v, None if stop_v else sv)
        groups.setdefault((norm, frozenset(present[key])), []).append(key)
    return [sorted(keys) for keys in groups.values() if len(keys) > 1], holders


def build_model(
    problem: Problem,
    caps: dict[int, int] | None = None,
    claim_caps: dict[int, tuple[int, int]] | None = None,
) -> RouteSetModel:
    """Build the CP-SAT model of ``problem`` (see :mod:`routing.cpsat`).

    Parameters
    ----------
    problem : Problem
    caps : dict, optional
        Train index -> a proven upper bound on its route value (before the multiplier);
        added as a redundant constraint that tightens the relaxation.
    claim_caps : dict, optional
        Train index -> ``(without, with_)``: proven upper bounds on the train's earnings
        (route value times the multiplier plus the route-set bonuses it claims) when it
        claims no longest-route bonus (``without``) and in any case (``with_``).  Added as
        ``earnings <= without + (with_ - without) * (longest-route claims)``, which lets
        the relaxation see that only one route collects a longest-route bonus.
    """
    b = _Builder(problem)
    tms = [b.train(t, train) for t, train in enumerate(problem.trains)]
    objective = b.route_set(tms)
    for t, cap in (caps or {}).items():
        if tms[t].nodes:
            b.m.add(tms[t].value <= cap)
    for t, (without, with_) in (claim_caps or {}).items():
        tm = tms[t]
        if not tm.nodes:
            continue
        earn = tm.factor * tm.value + cp_model.LinearExpr.sum(b.gains.get(t, []))
        claims = cp_model.LinearExpr.sum(b.lr_claims.get(t, []))
        # Claiming k >= 1 longest-route bonuses leaves the right side >= with_; claiming
        # none leaves without.  with_ >= without, as it bounds a superset of route sets.
        b.m.add(earn <= without + max(0, with_ - without) * claims)
    b.m.maximize(objective)
    return RouteSetModel(b.m, tms, objective)


def build_single(problem: Problem, t: int) -> RouteSetModel:
    """A relaxation for train ``t`` alone: its best route value (before the multiplier)
    under the per-route rules, with the route-set rules dropped."""
    b = _Builder(problem)
    tm = b.train(t, problem.trains[t])
    b.m.maximize(tm.value)
    return RouteSetModel(b.m, [tm], tm.value)


# ---------------------------------------------------------------------------------- hints
def _route_hint(tm: TrainModel, nodes, segs, counted, designated):
    """Hints making ``tm`` run the given route: ``(values, used)`` with ``values`` mapping a
    variable index to ``(literal, value)`` for every literal but the arcs, and ``used`` the
    ``(link index, node entered from)`` pairs of the route.  ``None`` if the route does not
    fit this train's live graph (then no hint is given for the train)."""
    link_of = {j: k for k, link in enumerate(tm.links) for j in link.segs}
    pos = {v: i for i, v in enumerate(tm.nodes)}
    if not nodes or nodes[0] not in tm.start or nodes[-1] not in tm.end:
        return None
    if pos[nodes[0]] > pos[nodes[-1]]:  # the model keeps the orientation starting lower
        nodes, segs = list(reversed(nodes)), list(reversed(segs))
    values: dict[int, tuple] = {}

    def put(lit, val: int) -> None:
        values.setdefault(lit.index, (lit, val))

    put(tm.active, 1)
    put(tm.start[nodes[0]], 1)
    put(tm.end[nodes[-1]], 1)
    used = []
    i = 0
    while i < len(segs):
        k = link_of.get(segs[i])
        if k is None or nodes[i] not in pos:
            return None
        put(tm.visit[nodes[i]], 1)
        used.append((k, nodes[i]))
        i += len(tm.links[k].segs)
    put(tm.visit[nodes[-1]], 1)
    for lit in [*tm.visit.values(), *tm.start.values(), *tm.end.values()]:
        put(lit, 0)
    for v, lit in tm.designated.items():
        put(lit, 1 if v == designated else 0)
    for v, lits in tm.counted.items():
        if len(lits) == 1 and lits[0] is not tm.visit.get(v) and lits[0].index >= 0:
            put(lits[0], 1 if v in counted else 0)
    return values, used


def add_hint(problem: Problem, rsm: RouteSetModel, routes, *, fix: bool = False) -> int:
    """Give CP-SAT a known route set (``routing.RouteResult`` objects) as a solution hint.

    The hint obeys the model's symmetry breaking: routes of identical trains are handed out
    by decreasing value, and interchangeable parallel links are renamed so that the used
    ones come first.  With ``fix`` the trains given a route are instead constrained to run
    it (and the others are left free).  Returns the number of trains hinted.
    """
    claim_names = {b.name for b in problem.rules.longest_route_bonuses}
    claim_names |= {b.name for b in problem.rules.bonus_routes}

    def key(t: int) -> tuple:
        tr = problem.trains[t]
        return (tr.rows, tr.skip, tr.multiplier, tr.runs, tr.end_kinds, tr.designated_kind,
                tr.min_stops)  # fmt: skip

    def own_value(r) -> int:
        return r.revenue - sum(x for name, x in r.bonuses.items() if name in claim_names)

    running = [tm for tm in rsm.trains if tm.nodes]
    by_train = {r.train: r for r in routes}
    classes: dict[tuple, list[int]] = {}
    for tm in running:
        classes.setdefault(key(tm.index), []).append(tm.index)
    assigned: dict[int, object] = {}
    for members in classes.values():
        rs = sorted((by_train[t] for t in members if t in by_train), key=own_value, reverse=True)
        for t, r in zip(members, rs, strict=False):
            assigned[t] = r
    parts: dict[int, tuple[dict, list]] = {}
    for tm in running:
        r = assigned.get(tm.index)
        if r is None:
            lits = [tm.active, *tm.visit.values()]
            parts[tm.index] = ({lit.index: (lit, 0) for lit in lits}, [])
        else:
            part = _route_hint(tm, list(r.nodes), list(r.segments), set(r.counted), r.designated)
            if part is not None:
                parts[tm.index] = part
    # rename used parallel links to the first ones of their group
    groups, holders = parallel_groups(problem, running)
    where = {tk: key for key, tks in holders.items() for tk in tks}
    for keys in groups:
        rank = {key: i for i, key in enumerate(keys)}
        users = sorted(
            (rank[where[(t, k)]], t, j)
            for t, (_, used) in parts.items()
            for j, (k, _) in enumerate(used)
            if where.get((t, k)) in rank
        )
        for new_rank, (_, t, j) in enumerate(users):
            new_k = dict(holders[keys[new_rank]])[t]
            parts[t][1][j] = (new_k, parts[t][1][j][1])
    values: dict[int, tuple] = {}
    for tm in running:
        if tm.index not in parts or (fix and tm.index not in assigned):
            continue
        part, used = parts[tm.index]
        arcs = {2 * k + (0 if entry == tm.links[k].u else 1) for k, entry in used}
        values.update(part)
        for a, (*_, lit) in enumerate(tm.arcs):
            values.setdefault(lit.index, (lit, 1 if a in arcs else 0))
    for lit, val in values.values():
        if fix:
            rsm.model.add(lit == int(bool(val)))
        else:
            rsm.model.add_hint(lit, bool(val))
    return len(parts)
