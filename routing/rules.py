"""The rule vocabulary: title rules expressed as data, with no title names.

See ``docs/ROUTING.md`` for the exact semantics every solver (numba search, CP-SAT model and
the brute-force oracle in ``tests/``) implements.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "GroupScope",
    "EndPairBonus",
    "SetPairBonus",
    "EndTokenBonus",
    "LongestRouteBonus",
    "BonusRoute",
    "Rules",
]


class GroupScope:
    """Where a group limit applies."""

    ROUTE = "route"  #: at most one node of the group per route
    SET = "set"  #: at most one visit of the group across all of the company's routes


def _frozen_nodes(nodes: Iterable[int]) -> frozenset[int]:
    return frozenset(int(n) for n in nodes)


def _frozen_amounts(amounts: Mapping[int, int] | Iterable[int], default: int = 0):
    if isinstance(amounts, Mapping):
        return tuple(sorted((int(k), int(v)) for k, v in amounts.items()))
    return tuple(sorted((int(k), int(default)) for k in amounts))


@dataclass(frozen=True)
class EndPairBonus:
    """A bonus when one end of a route is in ``a`` and the other in ``b`` (E–W, N–S).

    The bonus is ``a[x] + b[y]`` for the ends ``x`` and ``y``.  With ``counted`` both ends must
    be counted stops.  It is multiplied by the train's multiplier.
    """

    a: tuple[tuple[int, int], ...]
    b: tuple[tuple[int, int], ...]
    name: str = "end-pair"
    counted: bool = True

    @classmethod
    def make(cls, a: Mapping[int, int], b: Mapping[int, int], name="end-pair", counted=True):
        return cls(_frozen_amounts(a), _frozen_amounts(b), name, counted)


@dataclass(frozen=True)
class SetPairBonus:
    """``amount`` once when a route visits a node of ``a`` and a node of ``b``.

    With ``counted`` the two nodes must be counted.  Multiplied by the train's multiplier.
    """

    a: frozenset[int]
    b: frozenset[int]
    amount: int
    name: str = "set-pair"
    counted: bool = True

    @classmethod
    def make(cls, a: Iterable[int], b: Iterable[int], amount: int, name="set-pair", counted=True):
        return cls(_frozen_nodes(a), _frozen_nodes(b), int(amount), name, counted)


@dataclass(frozen=True)
class EndTokenBonus:
    """A bonus at a counted route end ``x``: ``amounts[x]`` (e.g. 20 per own token there).

    At most one such bonus per route (the larger end), and only if the route counts at least
    ``min_other_stops`` stops besides ``x``.  Multiplied by the train's multiplier.
    """

    amounts: tuple[tuple[int, int], ...]
    min_other_stops: int = 2
    name: str = "end-token"

    @classmethod
    def make(cls, amounts: Mapping[int, int], min_other_stops: int = 2, name="end-token"):
        return cls(_frozen_amounts(amounts), int(min_other_stops), name)


@dataclass(frozen=True)
class LongestRouteBonus:
    """Route-set bonus: ``per_stop`` for every visited stop (kinds in ``kinds``) of *one* route.

    The company takes it on whichever route earns the most (1846 Mail Contract).  Not
    multiplied.
    """

    per_stop: int
    kinds: int = 0b111110
    name: str = "longest-route"


@dataclass(frozen=True)
class BonusRoute:
    """Once-per-round bonus: a route that visits a node of ``a`` and a node of ``b`` may claim
    ``amount - per_hex * hexes(route)`` if that is positive; at most one route claims it.

    ``hexes(route)`` is the number of distinct hexes of the route's segments and stops.
    Not multiplied.
    """

    a: frozenset[int]
    b: frozenset[int]
    amount: int
    per_hex: int = 10
    name: str = "bonus-route"

    @classmethod
    def make(cls, a: Iterable[int], b: Iterable[int], amount: int, per_hex=10, name="bonus-route"):
        return cls(_frozen_nodes(a), _frozen_nodes(b), int(amount), int(per_hex), name)


@dataclass(frozen=True)
class Rules:
    """Everything about the operating company and its title beyond the bare network.

    Parameters
    ----------
    token_nodes : frozenset of int or None
        Nodes holding the company's tokens.  Every route must visit one.  ``None`` lifts the
        requirement (abstract benchmarks).
    node_bonus : mapping node -> int
        Extra value of a node *for this company* when counted (own-token city values, meat
        packing, port or post tokens, Salt Lake City for CPR/UP).
    group_scope : mapping group -> "route" | "set"
        Scope of each network group; groups not named are per route.
    forbidden_end_pairs : tuple of (frozenset, frozenset)
        No route may have one end in the first set and the other in the second (East–East).
    end_pair_bonuses, set_pair_bonuses, end_token_bonuses :
        Per-route bonuses, see the classes.
    longest_route_bonuses, bonus_routes :
        Route-set bonuses, claimed by one route each.
    must_visit : frozenset of int
        If non-empty and the company runs any route, some route visits one of these nodes.
    token_counted : bool
        A stop holding a company token must be among each route's counted stops (not just
        visited), as for 1846's N/M trains and 1812's 3D.
    designated_keys : mapping node -> key
        Designated nodes (goods-train mines) with the same key are one and the same for the
        "distinct designated nodes" rule (a mine drawn as several nodes in its hex).
    hex_once : bool
        A route may not re-enter a hex it has left (1862: "may not include the same tile
        twice"), except the hexes in ``hex_once_exempt`` (hex indices).
    min_counted_with : tuple of (frozenset, int)
        A route visiting a node of the set must count at least ``k`` stops outside the set
        (1836Jr: a port needs two other stops).
    """

    token_nodes: frozenset[int] | None = None
    node_bonus: tuple[tuple[int, int], ...] = ()
    group_scope: tuple[tuple[int, str], ...] = ()
    forbidden_end_pairs: tuple[tuple[frozenset[int], frozenset[int]], ...] = ()
    end_pair_bonuses: tuple[EndPairBonus, ...] = ()
    set_pair_bonuses: tuple[SetPairBonus, ...] = ()
    end_token_bonuses: tuple[EndTokenBonus, ...] = ()
    longest_route_bonuses: tuple[LongestRouteBonus, ...] = ()
    bonus_routes: tuple[BonusRoute, ...] = ()
    must_visit: frozenset[int] = field(default_factory=frozenset)
    token_counted: bool = False
    designated_keys: tuple[tuple[int, int], ...] = ()
    hex_once: bool = False
    hex_once_exempt: frozenset[int] = field(default_factory=frozenset)
    min_counted_with: tuple[tuple[frozenset[int], int], ...] = ()

    @classmethod
    def make(
        cls,
        token_nodes: Iterable[int] | None = None,
        node_bonus: Mapping[int, int] | None = None,
        group_scope: Mapping[int, str] | None = None,
        forbidden_end_pairs: Iterable[tuple[Iterable[int], Iterable[int]]] = (),
        end_pair_bonuses: Iterable[EndPairBonus] = (),
        set_pair_bonuses: Iterable[SetPairBonus] = (),
        end_token_bonuses: Iterable[EndTokenBonus] = (),
        longest_route_bonuses: Iterable[LongestRouteBonus] = (),
        bonus_routes: Iterable[BonusRoute] = (),
        must_visit: Iterable[int] = (),
        token_counted: bool = False,
        designated_keys: Mapping[int, int] | None = None,
        hex_once: bool = False,
        hex_once_exempt: Iterable[int] = (),
        min_counted_with: Iterable[tuple[Iterable[int], int]] = (),
    ) -> Rules:
        """Build rules from plain Python containers."""
        return cls(
            token_nodes=None if token_nodes is None else _frozen_nodes(token_nodes),
            node_bonus=_frozen_amounts(node_bonus or {}),
            group_scope=tuple(sorted((int(g), str(s)) for g, s in (group_scope or {}).items())),
            forbidden_end_pairs=tuple(
                (_frozen_nodes(a), _frozen_nodes(b)) for a, b in forbidden_end_pairs
            ),
            end_pair_bonuses=tuple(end_pair_bonuses),
            set_pair_bonuses=tuple(set_pair_bonuses),
            end_token_bonuses=tuple(end_token_bonuses),
            longest_route_bonuses=tuple(longest_route_bonuses),
            bonus_routes=tuple(bonus_routes),
            must_visit=_frozen_nodes(must_visit),
            token_counted=bool(token_counted),
            designated_keys=_frozen_amounts(designated_keys or {}),
            hex_once=bool(hex_once),
            hex_once_exempt=_frozen_nodes(hex_once_exempt),
            min_counted_with=tuple((_frozen_nodes(a), int(k)) for a, k in min_counted_with),
        )

    def node_bonus_map(self) -> dict[int, int]:
        return dict(self.node_bonus)

    def group_scope_map(self) -> dict[int, str]:
        return dict(self.group_scope)

    def referenced_nodes(self) -> Iterable[tuple[str, int]]:
        """Every node id the rules mention, with where it is mentioned (for validation)."""
        if self.token_nodes is not None:
            for n in self.token_nodes:
                yield "token_nodes", n
        for n, _ in self.node_bonus:
            yield "node_bonus", n
        for i, (a, b) in enumerate(self.forbidden_end_pairs):
            for n in (*a, *b):
                yield f"forbidden_end_pairs[{i}]", n
        for bonus in self.end_pair_bonuses:
            for n, _ in (*bonus.a, *bonus.b):
                yield f"end_pair_bonus {bonus.name!r}", n
        for bonus in self.set_pair_bonuses:
            for n in (*bonus.a, *bonus.b):
                yield f"set_pair_bonus {bonus.name!r}", n
        for bonus in self.end_token_bonuses:
            for n, _ in bonus.amounts:
                yield f"end_token_bonus {bonus.name!r}", n
        for bonus in self.bonus_routes:
            for n in (*bonus.a, *bonus.b):
                yield f"bonus_route {bonus.name!r}", n
        for n in self.must_visit:
            yield "must_visit", n
        for n, _ in self.designated_keys:
            yield "designated_keys", n
        for i, (nodes, _) in enumerate(self.min_counted_with):
            for n in nodes:
                yield f"min_counted_with[{i}]", n
