"""Instance and solution documents: a :class:`~routing.Problem` and its routes as plain JSON.

An *instance document* is a game-agnostic JSON object holding everything a route solver
needs: the network arrays, the company's trains, its rules, the company's name and a
``version``.  A *solution document* holds routes as node and segment sequences and their
total.  The layouts are published as JSON Schema (``routing/schema/instance.schema.json``,
``routing/schema/solution.schema.json``, see :func:`schema`); ``docs/BENCHMARKS.md``
describes them field by field.

Reading checks a document item by item before any object is built, so that a bad document
fails with one :class:`DocumentError` naming the item, e.g.
``instance.network.seg_u[17]: node 999 does not exist``; never with a traceback from deep
inside the constructors.  :func:`problem_to_instance` and :func:`problem_from_instance` are
inverse: the problem read back has the same node, segment and hex indices, so a reproducer
replays exactly.

.. code-block:: python

    from routing.instance import problem_to_instance, problem_from_instance, canonical_json
    doc = problem_to_instance(problem, company="PRR")
    text = canonical_json(doc)          # sorted keys, no spaces: the same bytes every time
    assert problem_from_instance(json.loads(text)).rules == problem.rules
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from .network import Network, NodeKind
from .problem import Problem
from .rules import (
    BonusRoute,
    EndPairBonus,
    EndTokenBonus,
    GroupScope,
    LongestRouteBonus,
    Rules,
    SetPairBonus,
)
from .solution import Solution
from .trains import Train, TrainRow

__all__ = [
    "VERSION",
    "DocumentError",
    "DeclaredSolution",
    "problem_to_instance",
    "problem_from_instance",
    "solution_to_document",
    "solution_from_document",
    "canonical_json",
    "instance_hash",
    "schema",
    "write_instance",
    "read_instance",
]

#: Version of both document layouts; a reader refuses any other.
VERSION = 1

_NODE_ARRAYS = ("node_kind", "node_value", "node_hex", "node_terminal", "node_group")
_SEGMENT_ARRAYS = ("seg_u", "seg_v", "seg_side_u", "seg_side_v", "seg_hex")
_TRAIN_INTS = ("skip", "multiplier", "runs", "end_kinds", "designated_kind", "min_stops")
_RULES_FIELDS = tuple(f.name for f in fields(Rules))
#: What a train field left out of a document means: the :class:`Train` default.
_TRAIN_DEFAULTS = {f.name: f.default for f in fields(Train) if f.name in _TRAIN_INTS}
_SCHEMA_DIR = Path(__file__).parent / "schema"


class DocumentError(ValueError):
    """A document that is not a valid instance or solution; the message names the item."""


# ------------------------------------------------------------------------------- writing
def _nodes(s: Iterable[int]) -> list[int]:
    return sorted(int(n) for n in s)


def _pairs(p: Iterable[tuple[int, int]]) -> list[list[int]]:
    return [[int(k), int(v)] for k, v in p]


def _rules_to_dict(r: Rules) -> dict[str, Any]:
    return {
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
        ],  # fmt: skip
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
        ],  # fmt: skip
        "must_visit": _nodes(r.must_visit),
        "token_counted": r.token_counted,
        "designated_keys": _pairs(r.designated_keys),
        "hex_once": r.hex_once,
        "hex_once_exempt": _nodes(r.hex_once_exempt),
        "min_counted_with": [[_nodes(a), int(k)] for a, k in r.min_counted_with],
    }


def problem_to_instance(problem: Problem, company: str = "") -> dict[str, Any]:
    """``problem`` as an instance document (lists, ints, strings and bools only).

    Parameters
    ----------
    problem : Problem
    company : str
        The operating company's name, for reports (routing never reads it).

    Returns
    -------
    dict
        Train ``meta`` is not kept: it never affects routing.
    """
    net = problem.network
    network: dict[str, Any] = {
        name: getattr(net, name).tolist() for name in _NODE_ARRAYS + _SEGMENT_ARRAYS
    }
    network["node_names"] = list(net.node_names)
    network["hex_names"] = list(net.hex_names)
    trains = [
        {
            "name": t.name,
            "rows": [[row.kinds, row.pay, row.visit] for row in t.rows],
            **{key: int(getattr(t, key)) for key in _TRAIN_INTS},
        }
        for t in problem.trains
    ]
    return {
        "version": VERSION,
        "label": problem.label,
        "company": str(company),
        "network": network,
        "trains": trains,
        "rules": _rules_to_dict(problem.rules),
    }


def canonical_json(doc: Any) -> str:
    """``doc`` as JSON with sorted keys and no spaces: equal documents, equal bytes."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def instance_hash(doc: dict[str, Any]) -> str:
    """SHA-256 (hex) of the routing content of an instance document: its network, trains
    and rules (the label and company name do not change the problem)."""
    core = {key: doc[key] for key in ("network", "trains", "rules")}
    return hashlib.sha256(canonical_json(core).encode()).hexdigest()


# ------------------------------------------------------------------------------- reading
def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _get(d: dict, key: str, where: str, default: Any = ...) -> Any:
    if key not in d:
        if default is ...:
            raise DocumentError(f"{where}: missing field {key!r}")
        return default
    return d[key]


def _what(x: Any) -> str:
    text = json.dumps(x) if isinstance(x, (int, float, str, bool)) or x is None else ""
    kind = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(x), "a number" if isinstance(x, (int, float)) else type(x).__name__
    )
    return f"{kind} {text}".strip() if text and len(text) <= 40 else kind


def _expect(x: Any, where: str, ok: bool, expected: str) -> Any:
    if not ok:
        raise DocumentError(f"{where}: expected {expected}, got {_what(x)}")
    return x


def _object(x: Any, where: str) -> dict:
    return _expect(x, where, isinstance(x, dict), "an object")


def _list(x: Any, where: str) -> list:
    return _expect(x, where, isinstance(x, list), "a list")


def _bool(x: Any, where: str) -> bool:
    return _expect(x, where, isinstance(x, bool), "true or false")


def _str(x: Any, where: str) -> str:
    return _expect(x, where, isinstance(x, str), "a string")


def _int(x: Any, where: str, low: int | None = None) -> int:
    _expect(x, where, _is_int(x), "an integer")
    if low is not None and x < low:
        raise DocumentError(f"{where}: {x} is below {low}")
    return x


def _index(x: Any, where: str) -> int:
    return _int(x, where, low=0)


def _each(check: Callable[[Any, str], Any], x: Any, where: str) -> list:
    """``check`` applied to every item of the list ``x`` (each named by its index)."""
    return [check(v, f"{where}[{i}]") for i, v in enumerate(_list(x, where))]


def _node(x: Any, where: str, n: int) -> int:
    _int(x, where)
    if not 0 <= x < n:
        raise DocumentError(f"{where}: node {x} does not exist (the network has {n} nodes)")
    return x


def _node_list(x: Any, where: str, n: int) -> list[int]:
    return [_node(v, f"{where}[{i}]", n) for i, v in enumerate(_list(x, where))]


def _node_amounts(x: Any, where: str, n: int) -> dict[int, int]:
    out = {}
    for i, pair in enumerate(_list(x, where)):
        w = f"{where}[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise DocumentError(f"{w}: expected a [node, amount] pair, got {_what(pair)}")
        out[_node(pair[0], f"{w}[0]", n)] = _int(pair[1], f"{w}[1]")
    return out


def _known(d: dict, keys: Iterable[str], where: str) -> None:
    """Refuse a field the layout does not have (a typo would otherwise be ignored)."""
    unknown = sorted(set(d) - set(keys))
    if unknown:
        raise DocumentError(f"{where}.{unknown[0]}: unknown field")


def _version(doc: dict, where: str) -> None:
    # "format": 1 is how reproducers written before the instance format named the version.
    version = doc.get("version", doc.get("format", ...))
    if version is ...:
        raise DocumentError(f"{where}: missing field 'version'")
    if version != VERSION:
        raise DocumentError(f"{where}.version: unknown version {version!r} (expected {VERSION})")


def _read_network(nd: dict, where: str) -> Network:
    _known(nd, (*_NODE_ARRAYS, *_SEGMENT_ARRAYS, "node_names", "hex_names"), where)
    arrays: dict[str, list] = {}
    for name in _NODE_ARRAYS + _SEGMENT_ARRAYS:
        values = _list(_get(nd, name, where), f"{where}.{name}")
        check = _bool if name == "node_terminal" else _int
        arrays[name] = [check(v, f"{where}.{name}[{i}]") for i, v in enumerate(values)]
    n, m = len(arrays["node_kind"]), len(arrays["seg_u"])
    if n == 0:
        raise DocumentError(f"{where}.node_kind: the network has no nodes")
    for name in _NODE_ARRAYS[1:] + _SEGMENT_ARRAYS[1:]:
        expected, per = (n, "node") if name.startswith("node") else (m, "segment")
        if len(arrays[name]) != expected:
            raise DocumentError(
                f"{where}.{name}: {len(arrays[name])} entries, expected one per {per} ({expected})"
            )
    names = _each(_str, _get(nd, "node_names", where, []), f"{where}.node_names")
    hexes = _each(_str, _get(nd, "hex_names", where, []), f"{where}.hex_names")
    if names and len(names) != n:
        raise DocumentError(f"{where}.node_names: {len(names)} entries, expected {n}")
    kinds = {int(k) for k in NodeKind}
    for i, k in enumerate(arrays["node_kind"]):
        if k not in kinds:
            raise DocumentError(f"{where}.node_kind[{i}]: unknown kind {k}")
    for i, v in enumerate(arrays["node_value"]):
        if v < 0:
            raise DocumentError(f"{where}.node_value[{i}]: negative value {v}")
    for i, g in enumerate(arrays["node_group"]):
        if g < -1:
            raise DocumentError(f"{where}.node_group[{i}]: invalid group {g} (-1 for none)")
    for end in ("seg_u", "seg_v"):
        for j, x in enumerate(arrays[end]):
            _node(x, f"{where}.{end}[{j}]", n)
    for j, (u, v) in enumerate(zip(arrays["seg_u"], arrays["seg_v"], strict=True)):
        if u == v:
            raise DocumentError(f"{where}.seg_v[{j}]: segment {j} is a loop on node {u}")
    if hexes:
        for name in ("node_hex", "seg_hex"):
            for i, h in enumerate(arrays[name]):
                if not 0 <= h < len(hexes):
                    raise DocumentError(
                        f"{where}.{name}[{i}]: hex {h} does not exist ({len(hexes)} hexes)"
                    )
    else:
        for name in ("node_hex", "seg_hex"):
            for i, h in enumerate(arrays[name]):
                _int(h, f"{where}.{name}[{i}]", low=0)
    return Network(**arrays, node_names=tuple(names), hex_names=tuple(hexes))


def _read_train(td: dict, where: str) -> Train:
    _known(td, ("name", "rows", *_TRAIN_INTS), where)
    rows = []
    for i, row in enumerate(_list(_get(td, "rows", where), f"{where}.rows")):
        w = f"{where}.rows[{i}]"
        if not isinstance(row, list) or len(row) != 3:
            raise DocumentError(f"{w}: expected [kinds, pay, visit], got {_what(row)}")
        rows.append(TrainRow(*(_int(v, f"{w}[{k}]") for k, v in enumerate(row))))
    ints = {key: _int(_get(td, key, where, _TRAIN_DEFAULTS[key]), f"{where}.{key}")
            for key in _TRAIN_INTS}  # fmt: skip
    try:
        return Train(name=_str(_get(td, "name", where), f"{where}.name"), rows=tuple(rows), **ints)
    except ValueError as exc:
        raise DocumentError(f"{where}: {exc}") from None


def _read_rules(rd: dict, where: str, net: Network) -> Rules:
    n = net.n_nodes
    w = where
    _known(rd, _RULES_FIELDS, where)

    def field(key: str, default: Any) -> Any:
        return _get(rd, key, w, default)

    def named(key: str) -> list[tuple[str, dict]]:
        items = _list(field(key, []), f"{w}.{key}")
        return [(f"{w}.{key}[{i}]", _object(b, f"{w}.{key}[{i}]")) for i, b in enumerate(items)]

    token_nodes = field("token_nodes", None)
    if token_nodes is not None:
        token_nodes = _node_list(token_nodes, f"{w}.token_nodes", n)
    group_scope = {}
    for i, pair in enumerate(_list(field("group_scope", []), f"{w}.group_scope")):
        p = f"{w}.group_scope[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise DocumentError(f"{p}: expected a [group, scope] pair, got {_what(pair)}")
        scope = _str(pair[1], f"{p}[1]")
        if scope not in (GroupScope.ROUTE, GroupScope.SET):
            raise DocumentError(f"{p}[1]: unknown scope {scope!r} (expected 'route' or 'set')")
        group_scope[_int(pair[0], f"{p}[0]", low=0)] = scope
    forbidden = []
    for i, pair in enumerate(_list(field("forbidden_end_pairs", []), f"{w}.forbidden_end_pairs")):
        p = f"{w}.forbidden_end_pairs[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise DocumentError(f"{p}: expected a [nodes, nodes] pair, got {_what(pair)}")
        forbidden.append((_node_list(pair[0], f"{p}[0]", n), _node_list(pair[1], f"{p}[1]", n)))
    min_counted = []
    for i, pair in enumerate(_list(field("min_counted_with", []), f"{w}.min_counted_with")):
        p = f"{w}.min_counted_with[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise DocumentError(f"{p}: expected a [nodes, count] pair, got {_what(pair)}")
        min_counted.append((_node_list(pair[0], f"{p}[0]", n), _int(pair[1], f"{p}[1]", low=0)))
    try:
        return Rules.make(
            token_nodes=token_nodes,
            node_bonus=_node_amounts(field("node_bonus", []), f"{w}.node_bonus", n),
            group_scope=group_scope,
            forbidden_end_pairs=forbidden,
            end_pair_bonuses=[
                EndPairBonus.make(_node_amounts(_get(b, "a", p), f"{p}.a", n),
                                  _node_amounts(_get(b, "b", p), f"{p}.b", n),
                                  _str(_get(b, "name", p, "end-pair"), f"{p}.name"),
                                  _bool(_get(b, "counted", p, True), f"{p}.counted"))
                for p, b in named("end_pair_bonuses")
            ],
            set_pair_bonuses=[
                SetPairBonus.make(_node_list(_get(b, "a", p), f"{p}.a", n),
                                  _node_list(_get(b, "b", p), f"{p}.b", n),
                                  _int(_get(b, "amount", p), f"{p}.amount"),
                                  _str(_get(b, "name", p, "set-pair"), f"{p}.name"),
                                  _bool(_get(b, "counted", p, True), f"{p}.counted"))
                for p, b in named("set_pair_bonuses")
            ],
            end_token_bonuses=[
                EndTokenBonus.make(_node_amounts(_get(b, "amounts", p), f"{p}.amounts", n),
                                   _int(_get(b, "min_other_stops", p, 2), f"{p}.min_other_stops"),
                                   _str(_get(b, "name", p, "end-token"), f"{p}.name"))
                for p, b in named("end_token_bonuses")
            ],
            longest_route_bonuses=[
                LongestRouteBonus(_int(_get(b, "per_stop", p), f"{p}.per_stop"),
                                  _int(_get(b, "kinds", p, 0b111110), f"{p}.kinds"),
                                  _str(_get(b, "name", p, "longest-route"), f"{p}.name"))
                for p, b in named("longest_route_bonuses")
            ],
            bonus_routes=[
                BonusRoute.make(_node_list(_get(b, "a", p), f"{p}.a", n),
                                _node_list(_get(b, "b", p), f"{p}.b", n),
                                _int(_get(b, "amount", p), f"{p}.amount"),
                                _int(_get(b, "per_hex", p, 10), f"{p}.per_hex"),
                                _str(_get(b, "name", p, "bonus-route"), f"{p}.name"))
                for p, b in named("bonus_routes")
            ],
            must_visit=_node_list(field("must_visit", []), f"{w}.must_visit", n),
            # Absent from reproducers written before these rules existed: off, as then.
            token_counted=_bool(field("token_counted", False), f"{w}.token_counted"),
            designated_keys=_node_amounts(field("designated_keys", []), f"{w}.designated_keys", n),
            hex_once=_bool(field("hex_once", False), f"{w}.hex_once"),
            hex_once_exempt=_each(_index, field("hex_once_exempt", []), f"{w}.hex_once_exempt"),
            min_counted_with=min_counted,
        )  # fmt: skip
    except DocumentError:
        raise
    except (TypeError, ValueError) as exc:
        raise DocumentError(f"{where}: {exc}") from None


def problem_from_instance(doc: Any, where: str = "instance") -> Problem:
    """The :class:`Problem` an instance document describes (inverse of
    :func:`problem_to_instance`).

    Parameters
    ----------
    doc : dict
        A parsed instance document.
    where : str
        How error messages name the document's root.

    Raises
    ------
    DocumentError
        Naming the first bad item, e.g. ``instance.trains[1].rows[0][2]: expected an
        integer, got a string "x"``.
    """
    doc = _object(doc, where)
    _known(doc, ("version", "format", "label", "company", "network", "trains", "rules", "notes",
                 "source"), where)  # fmt: skip
    _version(doc, where)
    label = _str(_get(doc, "label", where, ""), f"{where}.label")
    _str(_get(doc, "company", where, ""), f"{where}.company")
    net = _read_network(_object(_get(doc, "network", where), f"{where}.network"),
                        f"{where}.network")  # fmt: skip
    trains = tuple(
        _read_train(_object(t, f"{where}.trains[{i}]"), f"{where}.trains[{i}]")
        for i, t in enumerate(_list(_get(doc, "trains", where), f"{where}.trains"))
    )
    rules = _read_rules(_object(_get(doc, "rules", where, {}), f"{where}.rules"),
                        f"{where}.rules", net)  # fmt: skip
    try:
        return Problem(net, trains, rules, label=label)
    except ValueError as exc:
        raise DocumentError(f"{where}: {exc}") from None


# ------------------------------------------------------------------------------ solutions
@dataclass(frozen=True)
class DeclaredSolution:
    """A solution document as read: what a solver claims.

    Attributes
    ----------
    routes : tuple of (train, nodes, segments)
        In the form :func:`routing.validate` takes (``segments`` None when the document
        leaves them out).
    total : int
        The revenue the solver claims.
    proven : bool or None
        The solver claims ``total`` is optimal (True), says it is not proven (False), or
        does not say (None).
    bound : int or None
        The upper bound the solver claims, if any.
    """

    routes: tuple[tuple[int, tuple[int, ...], tuple[int, ...] | None], ...]
    total: int
    proven: bool | None = None
    bound: int | None = None


def solution_to_document(solution: Solution) -> dict[str, Any]:
    """``solution`` as a solution document."""
    return {
        "version": VERSION,
        "total": int(solution.total),
        "proven": bool(solution.optimal),
        "bound": int(solution.bound),
        "routes": [
            {
                "train": int(r.train),
                "nodes": [int(x) for x in r.nodes],
                "segments": [int(x) for x in r.segments],
            }
            for r in solution.routes
        ],  # fmt: skip
    }


def solution_from_document(doc: Any, where: str = "solution") -> DeclaredSolution:
    """Read a solution document (the routes are checked against a problem by
    :func:`routing.validate`, not here).

    Raises
    ------
    DocumentError
        Naming the first bad item.
    """
    doc = _object(doc, where)
    _known(doc, ("version", "total", "proven", "bound", "routes", "stats"), where)
    _version(doc, where)
    routes = []
    for i, r in enumerate(_list(_get(doc, "routes", where), f"{where}.routes")):
        p = f"{where}.routes[{i}]"
        r = _object(r, p)
        _known(r, ("train", "nodes", "segments"), p)
        nodes = tuple(_each(_index, _get(r, "nodes", p), f"{p}.nodes"))
        segments = _get(r, "segments", p, None)  # None: the validator finds the track
        if segments is not None:
            segments = tuple(_each(_index, segments, f"{p}.segments"))
        routes.append((_int(_get(r, "train", p), f"{p}.train", low=0), nodes, segments))
    bound = _get(doc, "bound", where, None)
    proven = _get(doc, "proven", where, None)
    return DeclaredSolution(
        routes=tuple(routes),
        total=_int(_get(doc, "total", where), f"{where}.total"),
        proven=None if proven is None else _bool(proven, f"{where}.proven"),
        bound=None if bound is None else _int(bound, f"{where}.bound"),
    )


# ---------------------------------------------------------------------------- schema, files
@cache
def _schema_text(name: str) -> str:
    return (_SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")


def schema(name: str = "instance") -> dict[str, Any]:
    """The published JSON Schema of ``"instance"`` or ``"solution"`` documents."""
    if name not in ("instance", "solution"):
        raise ValueError(f"unknown schema {name!r}; expected 'instance' or 'solution'")
    return json.loads(_schema_text(name))


def write_instance(problem: Problem, path: str | Path, **notes: Any) -> Path:
    """Write ``problem`` as an instance document, plus ``notes`` (e.g. the totals two
    solvers disagree on) under ``"notes"``, which readers ignore."""
    path = Path(path)
    doc = problem_to_instance(problem)
    if notes:
        doc["notes"] = notes
    path.write_text(json.dumps(doc, indent=1, default=str), encoding="utf-8")
    return path


def read_instance(path: str | Path) -> Problem:
    """The problem of an instance document file.

    Raises
    ------
    DocumentError
        Not JSON, or a bad item (the message names the file and the item).
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DocumentError(f"{path.name}: cannot read an instance: {exc}") from None
    return problem_from_instance(doc, where=path.name)
