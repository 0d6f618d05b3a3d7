"""Titles, the title hook and position → :class:`routing.Problem`.

A title package exposes ``TITLE = Title(id, data, route_spec)`` (docs/TITLE_DATA.md).  For one
position the engine builds the board and the base network, hands a :class:`RouteView` to the
title's ``route_spec`` hook, and turns the :class:`RouteSpec` it returns into a
:class:`routing.Problem` (docs/ENGINE_API.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from types import ModuleType
from typing import Any

import numpy as np

import routing
from engine.model.board import Board
from engine.model.network_build import BaseNetwork, NodeInfo, build_network, patch_network
from engine.model.position import Assignment, Position, check_position
from engine.model.tiles.parse import Revenue
from routing import NodeKind, kind_mask

__all__ = [
    "Title",
    "RouteView",
    "RouteSpec",
    "base_network",
    "build_problem",
    "problem_of_view",
    "route_view",
    "apply_route_spec",
    "default_route_spec",
    "train_from_data",
    "trains_from_data",
    "phase_of",
    "NODE_KINDS",
]

#: 18xx.games node type names -> routing kinds (for train ``distance`` rows).
NODE_KINDS = {
    "city": NodeKind.CITY,
    "town": NodeKind.TOWN,
    "halt": NodeKind.TOWN,
    "offboard": NodeKind.OFFBOARD,
    "port": NodeKind.PORT,
    "mine": NodeKind.MINE,
}

#: Distances at or above this are "no limit" (18xx.games writes 99 or 999).
_UNLIMITED_FROM = 99

_JUNCTION = int(NodeKind.JUNCTION)
#: NodeKind by its number (the kinds are numbered from 0 without gaps)
_NODE_KIND = tuple(sorted(NodeKind))
assert all(int(kind) == i for i, kind in enumerate(_NODE_KIND))


@dataclass(frozen=True)
class Title:
    """A title: its data module and its revenue-rule hook.

    Parameters
    ----------
    id : str
        18xx.games title id (``"1846"``).
    data : module
        The title's ``data.py`` (facts only).
    route_spec : callable RouteView -> RouteSpec
        The title's rules hook.
    name : str
        Display name; defaults to ``id``.
    check_tile : callable, optional
        Extension: ``(board, hex, tile, rotation, problems) -> problems`` lets a title relax
        or add tile-lay checks (``problems`` are the engine's findings, a list of strings).
    check_position : callable, optional
        Extension: ``(position, board) -> None``; raise ``ValueError`` for a position the
        title forbids beyond the engine's generic checks.
    options : tuple of str
        Title options that change the route rules; a position names those in effect
        (``Position.options``), and a game's positions carry those of its options.
    """

    id: str
    data: ModuleType | Any
    route_spec: Callable[[RouteView], RouteSpec]
    name: str = ""
    check_tile: Callable | None = None
    check_position: Callable | None = None
    options: tuple[str, ...] = ()


@dataclass
class RouteSpec:
    """What a title hook returns for one company at one position.

    ``value``/``terminal``/``kind``/``group`` override the base network node by node;
    ``extras`` are figures reported beside the revenue (not added to it).  *(ext)*
    ``network`` replaces the base network (e.g. with extra mine nodes); its first
    ``view.network.n_nodes`` nodes must be the base nodes, unchanged in order and name.
    """

    trains: list[routing.Train]
    rules: routing.Rules = field(default_factory=routing.Rules)
    value: dict[int, int] = field(default_factory=dict)
    terminal: dict[int, bool] = field(default_factory=dict)
    kind: dict[int, NodeKind] = field(default_factory=dict)
    group: dict[int, int] = field(default_factory=dict)
    extras: dict[str, int] = field(default_factory=dict)
    network: routing.Network | None = None


def phase_of(data, name: str) -> dict:
    """The phase dict called ``name``; ``KeyError`` listing the phases otherwise."""
    for phase in getattr(data, "PHASES", []):
        if str(phase["name"]) == str(name):
            return phase
    raise KeyError(f"unknown phase {name!r}; known: {[p['name'] for p in data.PHASES]}")


class RouteView:
    """Read-only view of one company's position, for the title hook.

    Attributes
    ----------
    title : Title
    position : Position
    board : Board
        The map with the position's tiles laid.
    phase : dict
        The phase dict from ``data.PHASES``.
    phase_colors : list of str
        The phase's tile colours (``phase["tiles"]``).
    company : str
        The operating company's symbol.
    network : routing.Network
        The base network (before the hook's overrides).
    base : BaseNetwork
        The network with its node lookups.
    """

    def __init__(self, title: Title, position: Position, board: Board, base: BaseNetwork):
        self.title = title
        self.data = title.data
        self.position = position
        self.board = board
        self.phase = phase_of(title.data, position.phase)
        self.phase_colors: list[str] = list(self.phase.get("tiles", []))
        self.company = position.company
        self.base = base
        self.network: routing.Network = base.network
        self.spec: RouteSpec | None = None  # set by build_problem after the hook ran

    # made when a hook first asks: many hooks never do, and a view is made per problem
    @cached_property
    def _by_hex(self) -> dict[str, list[int]]:
        by_hex: dict[str, list[int]] = {}
        for i, info in enumerate(self.base.info):
            by_hex.setdefault(info.coord, []).append(i)
        return by_hex

    @cached_property
    def _kinds(self) -> list[int]:
        # the base nodes' kinds as plain ints: hooks ask for them node by node, and reading
        # a numpy array one item at a time is slow
        return self.base.network.node_kind.tolist()

    # ------------------------------------------------------------------ position facts
    @property
    def trains(self) -> list[str]:
        """Train names the company owns, as in the position."""
        return list(self.position.trains)

    @property
    def owned_companies(self) -> list[str]:
        return list(self.position.owned_companies)

    @property
    def extras(self) -> dict:
        return self.position.extras

    def assignments(self, ability: str | None = None) -> list[Assignment]:
        """Assignments, optionally only those of ``ability``."""
        return [a for a in self.position.assignments if ability is None or a.ability == ability]

    # ------------------------------------------------------------------ node lookups
    def node(self, name: str) -> int:
        """Node id of ``name`` (``"D6.c1"``, ``"D6|E7"``)."""
        return self.network.node_index(name)

    def info(self, node: int) -> NodeInfo:
        return self.base.info[node]

    def _lookup(self, hex: str, kind: str, index: int) -> int:  # noqa: A002
        try:
            return self.base.index[(hex, kind, index)]
        except KeyError:
            raise KeyError(f"hex {hex} has no {kind} {index} in the network") from None

    def city_node(self, hex: str, city: int = 0) -> int:  # noqa: A002
        """Node of city ``city`` (18xx.games city index) on ``hex``; ``KeyError`` if none."""
        return self._lookup(hex, "city", city)

    def town_node(self, hex: str, index: int = 0) -> int:  # noqa: A002
        return self._lookup(hex, "town", index)

    def offboard_node(self, hex: str, index: int = 0) -> int:  # noqa: A002
        return self._lookup(hex, "offboard", index)

    def has_node(self, hex: str, kind: str, index: int = 0) -> bool:  # noqa: A002
        return (hex, kind, index) in self.base.index

    def stop_nodes(self, hex: str) -> list[int]:  # noqa: A002
        """Every stop node (cities, towns, offboards) on ``hex``."""
        kinds = self._kinds
        return [n for n in self._by_hex.get(hex, []) if kinds[n] != _JUNCTION]

    def nodes_of_hex(self, hex: str) -> list[int]:  # noqa: A002
        """Every node on ``hex``, junctions included (a side belongs to its first hex)."""
        return list(self._by_hex.get(hex, []))

    def hex_of(self, node: int) -> str:
        return self.network.hex_names[int(self.network.node_hex[node])]

    def kind_of(self, node: int) -> NodeKind:
        return _NODE_KIND[self._kinds[node]]

    def name_of(self, node: int) -> str:
        return self.network.node_names[node]

    def stops(self, *kinds: NodeKind) -> list[int]:
        """Stop nodes, optionally only of ``kinds``."""
        want = {int(k) for k in kinds}
        return [
            n
            for n, kind in enumerate(self._kinds)
            if kind != _JUNCTION and (not want or kind in want)
        ]

    # ------------------------------------------------------------------ tokens
    def tokens_at(self, node: int) -> tuple[str, ...]:
        """Company symbols with a token in city node ``node``."""
        return self.base.tokens.get(node, ())

    @property
    def own_token_nodes(self) -> frozenset[int]:
        """City nodes holding a token of the operating company."""
        return frozenset(n for n, syms in self.base.tokens.items() if self.company in syms)

    def slots_of(self, node: int) -> int:
        return self.base.info[node].slots

    def reservations_at(self, node: int) -> list[str]:
        """Home reservations (company symbols) of a city node."""
        info = self.base.info[node]
        return list(self.board.reservations.get((info.coord, info.index), []))

    def is_blocked(self, node: int, company: str | None = None) -> bool:
        """Is city ``node`` full of other companies' tokens (for ``company``)?"""
        company = company or self.company
        here = self.tokens_at(node)
        slots = self.slots_of(node)
        return slots > 0 and len(here) >= slots and company not in here

    def blocked_by(self) -> dict[int, tuple[str, ...]]:
        """City nodes full of other companies' tokens, each with those companies: the
        ``blocked_by`` of :func:`routing.validate`, which then names who blocks a route."""
        return {n: tuple(syms) for n, syms in self.base.tokens.items() if self.is_blocked(n)}

    # ------------------------------------------------------------------ hex facts
    def labels(self, hex: str) -> tuple[str, ...]:  # noqa: A002
        return self.board.labels(hex)

    def icons(self, hex: str) -> tuple[str, ...]:  # noqa: A002
        """Icon names now on ``hex`` (laid tile's plus sticky printed ones)."""
        return tuple(i.name for i in self.board.icons(hex))

    def nodes_with_label(self, label: str) -> list[int]:
        """Stop nodes on hexes whose current tile carries ``label``."""
        return [n for h in self.board.hexes_with_label(label) for n in self.stop_nodes(h)]

    def nodes_with_icon(self, name: str, printed: bool = False) -> list[int]:
        """Stop nodes on hexes showing icon ``name`` (``printed``: as printed on the map)."""
        hexes = (
            [
                h
                for h in self.board.coords()
                if any(i.name == name for i in self.board.printed_icons(h))
            ]
            if printed
            else self.board.hexes_with_icon(name)
        )
        return [n for h in hexes for n in self.stop_nodes(h)]

    def groups_of(self, node: int) -> tuple[str, ...]:
        """18xx.games group names of a stop (``"E"``, ``"Chicago"``)."""
        return self.base.info[node].groups

    def nodes_in_group(self, name: str) -> list[int]:
        return [i for i, info in enumerate(self.base.info) if name in info.groups]

    def revenue_of(self, node: int) -> Revenue | None:
        """The printed revenue (flat or per colour) of a stop."""
        return self.base.info[node].revenue

    def location_name(self, hex: str) -> str | None:  # noqa: A002
        return self.board.location_name(hex)

    def tile_name(self, hex: str) -> str:  # noqa: A002
        return self.board.tile(hex).name

    # ------------------------------------------------------------------ trains
    def train_data(self, name: str) -> dict:
        """The ``data.TRAINS`` entry (or variant) called ``name``."""
        for t in getattr(self.data, "TRAINS", []):
            if t["name"] == name:
                return t
            for v in t.get("variants", []) or []:
                if v["name"] == name:
                    return {**t, **v}
        raise KeyError(f"unknown train {name!r}")

    def default_trains(self) -> list[routing.Train]:
        """The position's trains converted by :func:`train_from_data`."""
        return [train_from_data(self.train_data(name)) for name in self.trains]


def train_from_data(spec: dict) -> routing.Train:
    """A routing train from an 18xx.games train dict (``name``, ``distance``, ``multiplier``).

    ``distance`` is a number (every stop counts) or rows ``{"nodes": [...], "pay": p,
    "visit": v}``; 99 or more means no limit.  Titles with special trains build their own.
    """
    name = str(spec["name"])
    distance = spec.get("distance", 0)
    extra = {}
    if spec.get("multiplier"):
        extra["multiplier"] = int(spec["multiplier"])

    def lim(n: int) -> int:
        return routing.UNLIMITED if n >= _UNLIMITED_FROM else int(n)

    if isinstance(distance, int | float):
        n = lim(int(distance))
        return routing.Train(name, (routing.TrainRow(routing.PASSENGER_KINDS, n, n),), **extra)
    rows = []
    for row in distance:
        kinds = kind_mask(*(NODE_KINDS[k] for k in row["nodes"] if k in NODE_KINDS))
        rows.append(routing.TrainRow(kinds, lim(row["pay"]), lim(row["visit"])))
    if len(rows) > 1:
        # several rows must pay what they visit (routing.Train contract)
        rows = [routing.TrainRow(r.kinds, r.visit, r.visit) for r in rows]
    skip = kind_mask(NodeKind.MINE)
    return routing.Train(name, tuple(rows), skip=skip, **extra)


def trains_from_data(names: Iterable[str], data) -> list[routing.Train]:
    """Convert train names of ``data.TRAINS`` with :func:`train_from_data`."""
    table = {}
    for t in getattr(data, "TRAINS", []):
        table[t["name"]] = t
        for v in t.get("variants", []) or []:
            table[v["name"]] = {**t, **v}
    return [train_from_data(table[n]) for n in names]


def default_route_spec(view: RouteView) -> RouteSpec:
    """Plain rules: the position's trains, every route through an own token."""
    return RouteSpec(
        trains=view.default_trains(),
        rules=routing.Rules.make(token_nodes=view.own_token_nodes),
    )


def apply_route_spec(network: routing.Network, spec: RouteSpec) -> routing.Network:
    """The base network with the hook's per-node overrides."""
    if not (spec.value or spec.terminal or spec.kind or spec.group):
        return network
    # only the fields the hook changes are copied and checked again
    arrays: dict[str, np.ndarray] = {}
    for table, key in (
        (spec.value, "node_value"),
        (spec.terminal, "node_terminal"),
        (spec.kind, "node_kind"),
        (spec.group, "node_group"),
    ):
        if not table:
            continue
        column = arrays[key] = np.array(getattr(network, key))
        for node, v in table.items():
            if not 0 <= int(node) < network.n_nodes:
                raise ValueError(f"RouteSpec.{key[5:]} names node {node}, which does not exist")
            column[int(node)] = int(v)
    return network.with_nodes(**arrays)


def route_view(position: Position, title: Title, check: bool = True) -> RouteView:
    """Board, base network and :class:`RouteView` of ``position`` (no hook applied)."""
    if check:
        board = check_position(position, title)
    else:
        from engine.model.position import position_board

        board = position_board(position, title, check=False)
    return RouteView(title, position, board, base_network(title, position, board))


def base_network(
    title: Title, position: Position, board, patch: tuple[BaseNetwork, str] | None = None
) -> BaseNetwork:
    """The base network of ``position`` (its phase's colours, its tokens, its company) on
    ``board``, which carries the position's tiles.

    ``patch``: ``(base, hex)``, the base network of a board that differs from ``board`` in
    the tile of ``hex`` alone; the network is then :func:`patch_network` of it where it can
    be, else built."""
    colors = list(phase_of(title.data, position.phase).get("tiles", []))
    tokens = position.tokens_by_city()
    if patch is not None:
        patched = patch_network(patch[0], board, patch[1], colors, tokens, position.company)
        if patched is not None:
            return patched
    return build_network(board, colors, tokens, position.company)


def build_problem(
    position: Position, title: Title, check: bool = True
) -> tuple[routing.Problem, RouteView]:
    """The :class:`routing.Problem` of ``position`` and the view the hook saw.

    Parameters
    ----------
    position : Position
    title : Title
        :func:`engine.games.build_problem` finds the registered title itself.
    check : bool
        Check the position against its title first (default).

    Returns
    -------
    (routing.Problem, RouteView)
        ``view.spec`` holds the hook's :class:`RouteSpec` (for ``extras``).
    """
    view = route_view(position, title, check)
    return problem_of_view(view), view


def problem_of_view(view: RouteView) -> routing.Problem:
    """The :class:`routing.Problem` the title's hook makes of ``view``; ``view.spec`` is set
    to the hook's :class:`RouteSpec`.

    Raises
    ------
    TypeError, ValueError
        A hook that returns no :class:`RouteSpec`, or a network that does not keep the base
        nodes first and in order.
    """
    spec = view.title.route_spec(view)
    if not isinstance(spec, RouteSpec):
        raise TypeError(
            f"title {view.title.id}: route_spec returned {type(spec).__name__}, not RouteSpec"
        )
    view.spec = spec
    network = spec.network if spec.network is not None else view.network
    if network is not view.base.network:
        base_names = view.base.network.node_names
        if network.node_names[: len(base_names)] != base_names:
            raise ValueError(
                f"title {view.title.id}: the hook's network must keep the base nodes first, "
                "in order (append new nodes)"
            )
    network = apply_route_spec(network, spec)
    position = view.position
    return routing.Problem(
        network,
        tuple(spec.trains),
        spec.rules,
        label=f"{position.title} {position.company} phase {position.phase}",
    )
