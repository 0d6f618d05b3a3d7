"""Plain-dict (JSON-ready) serialisation of :class:`routing.Problem` for reproducers.

When two solvers disagree on a generated problem, the test writes
``json.dumps(problem_to_json(problem))`` next to the failure; ``problem_from_json`` rebuilds the
identical problem (same node, segment and hex indices) so the case can be replayed and turned
into a regression test.
"""

from __future__ import annotations

import json
from pathlib import Path

from routing import (
    BonusRoute,
    EndPairBonus,
    EndTokenBonus,
    LongestRouteBonus,
    Network,
    Problem,
    Rules,
    SetPairBonus,
    Train,
    TrainRow,
)

__all__ = ["problem_to_json", "problem_from_json", "write_reproducer", "read_reproducer"]

_ARRAYS = (
    "node_kind",
    "node_value",
    "node_hex",
    "node_terminal",
    "node_group",
    "seg_u",
    "seg_v",
    "seg_side_u",
    "seg_side_v",
    "seg_hex",
)

FORMAT = 1


def _nodes(s) -> list[int]:
    return sorted(int(n) for n in s)


def _pairs(p) -> list[list[int]]:
    return [[int(k), int(v)] for k, v in p]


def problem_to_json(problem: Problem) -> dict:
    """``problem`` as a dict of lists, ints, strings and bools (``json.dumps``-able).

    Train ``meta`` is not kept (it never affects routing).
    """
    net = problem.network
    r = problem.rules
    network = {name: getattr(net, name).tolist() for name in _ARRAYS}
    network["node_names"] = list(net.node_names)
    network["hex_names"] = list(net.hex_names)
    trains = [
        {
            "name": t.name,
            "rows": [[row.kinds, row.pay, row.visit] for row in t.rows],
            "skip": t.skip,
            "multiplier": t.multiplier,
            "runs": t.runs,
            "end_kinds": t.end_kinds,
            "designated_kind": t.designated_kind,
            "min_stops": t.min_stops,
        }
        for t in problem.trains
    ]
    rules = {
        "token_nodes": None if r.token_nodes is None else _nodes(r.token_nodes),
        "node_bonus": _pairs(r.node_bonus),
        "group_scope": [[int(g), s] for g, s in r.group_scope],
        "forbidden_end_pairs": [[_nodes(a), _nodes(b)] for a, b in r.forbidden_end_pairs],
        "end_pair_bonuses": [
            {"a": _pairs(b.a), "b": _pairs(b.b), "name": b.name, "counted": b.counted}
            for b in r.end_pair_bonuses
        ],
        "set_pair_bonuses": [
            {
                "a": _nodes(b.a),
                "b": _nodes(b.b),
                "amount": b.amount,
                "name": b.name,
                "counted": b.counted,
            }
            for b in r.set_pair_bonuses
        ],
        "end_token_bonuses": [
            {"amounts": _pairs(b.amounts), "min_other_stops": b.min_other_stops, "name": b.name}
            for b in r.end_token_bonuses
        ],
        "longest_route_bonuses": [
            {"per_stop": b.per_stop, "kinds": b.kinds, "name": b.name}
            for b in r.longest_route_bonuses
        ],
        "bonus_routes": [
            {
                "a": _nodes(b.a),
                "b": _nodes(b.b),
                "amount": b.amount,
                "per_hex": b.per_hex,
                "name": b.name,
            }
            for b in r.bonus_routes
        ],
        "must_visit": _nodes(r.must_visit),
        "token_counted": r.token_counted,
        "designated_keys": _pairs(r.designated_keys),
        "hex_once": r.hex_once,
        "hex_once_exempt": _nodes(r.hex_once_exempt),
        "min_counted_with": [[_nodes(a), int(k)] for a, k in r.min_counted_with],
    }
    return {
        "format": FORMAT,
        "label": problem.label,
        "network": network,
        "trains": trains,
        "rules": rules,
    }


def problem_from_json(d: dict) -> Problem:
    """Inverse of :func:`problem_to_json`.

    Rules keys missing from ``d`` (reproducers written before ``token_counted``,
    ``designated_keys``, ``hex_once``, ``hex_once_exempt`` and ``min_counted_with`` existed)
    take their defaults, which leave the problem as it was.
    """
    if d.get("format", FORMAT) != FORMAT:
        raise ValueError(f"unknown problem format {d.get('format')!r}")
    nd = d["network"]
    network = Network(
        **{name: nd[name] for name in _ARRAYS},
        node_names=tuple(nd.get("node_names", ())),
        hex_names=tuple(nd.get("hex_names", ())),
    )
    trains = tuple(
        Train(
            name=t["name"],
            rows=tuple(TrainRow(*row) for row in t["rows"]),
            skip=t["skip"],
            multiplier=t["multiplier"],
            runs=t["runs"],
            end_kinds=t["end_kinds"],
            designated_kind=t["designated_kind"],
            min_stops=t["min_stops"],
        )
        for t in d["trains"]
    )
    rd = d["rules"]
    rules = Rules.make(
        token_nodes=rd["token_nodes"],
        node_bonus=dict(map(tuple, rd["node_bonus"])),
        group_scope=dict(map(tuple, rd["group_scope"])),
        forbidden_end_pairs=[(a, b) for a, b in rd["forbidden_end_pairs"]],
        end_pair_bonuses=[
            EndPairBonus.make(
                dict(map(tuple, b["a"])), dict(map(tuple, b["b"])), b["name"], b["counted"]
            )
            for b in rd["end_pair_bonuses"]
        ],
        set_pair_bonuses=[
            SetPairBonus.make(b["a"], b["b"], b["amount"], b["name"], b["counted"])
            for b in rd["set_pair_bonuses"]
        ],
        end_token_bonuses=[
            EndTokenBonus.make(dict(map(tuple, b["amounts"])), b["min_other_stops"], b["name"])
            for b in rd["end_token_bonuses"]
        ],
        longest_route_bonuses=[
            LongestRouteBonus(b["per_stop"], b["kinds"], b["name"])
            for b in rd["longest_route_bonuses"]
        ],
        bonus_routes=[
            BonusRoute.make(b["a"], b["b"], b["amount"], b["per_hex"], b["name"])
            for b in rd["bonus_routes"]
        ],
        must_visit=rd["must_visit"],
        # Absent from reproducers written before these rules existed: default to off.
        token_counted=rd.get("token_counted", False),
        designated_keys=dict(map(tuple, rd.get("designated_keys", []))),
        hex_once=rd.get("hex_once", False),
        hex_once_exempt=rd.get("hex_once_exempt", []),
        min_counted_with=[(a, k) for a, k in rd.get("min_counted_with", [])],
    )
    return Problem(network, trains, rules, label=d.get("label", ""))


def write_reproducer(problem: Problem, path: str | Path, **extra) -> Path:
    """Write ``problem`` (plus ``extra`` notes, e.g. both solvers' totals) as JSON."""
    path = Path(path)
    data = problem_to_json(problem)
    if extra:
        data["notes"] = extra
    path.write_text(json.dumps(data, indent=1, default=str))
    return path


def read_reproducer(path: str | Path) -> Problem:
    """The problem stored by :func:`write_reproducer`."""
    return problem_from_json(json.loads(Path(path).read_text()))
