"""Results: :class:`Solution` and :class:`RouteResult`, with JSON round-trip."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

__all__ = ["RouteError", "RouteResult", "Solution", "skipped_stops"]


class RouteError(ValueError):
    """A declared route breaks a rule; the message names the rule and where.

    ``route_index`` is the 0-based position of the offending route among those declared
    (``None`` when the route set as a whole breaks a rule), ``nodes`` the node ids the
    message names (for highlighting them on a board).
    """

    def __init__(self, message: str, *, route_index: int | None = None, nodes=()):
        super().__init__(message)
        self.route_index = route_index
        self.nodes = tuple(int(x) for x in nodes)


@dataclass
class RouteResult:
    """One train's route.

    ``nodes`` is the node sequence from one end to the other, ``segments`` the segment ids
    between consecutive nodes, ``counted`` the stops that earn revenue (the designated node,
    e.g. a goods train's mine, included).  ``revenue`` is what the route earns, route-set
    bonuses it claims included; ``bonuses`` maps each bonus name to what it added (after the
    multiplier); ``stop_revenue`` is the multiplied stop value.  ``skipped`` lists the stops
    the route visits but does not count (an N/M or E train's weakest stops, a goods train's
    other mines), in route order.
    """

    train: int
    train_name: str
    nodes: tuple[int, ...]
    segments: tuple[int, ...]
    counted: tuple[int, ...]
    revenue: int
    stop_revenue: int
    bonuses: dict[str, int] = field(default_factory=dict)
    designated: int | None = None
    skipped: tuple[int, ...] = ()


def skipped_stops(nodes, counted, node_kind) -> tuple[int, ...]:
    """The stops among ``nodes`` (junctions have kind 0) that are not in ``counted``."""
    counted = set(int(x) for x in counted)
    return tuple(int(x) for x in nodes if int(node_kind[x]) != 0 and int(x) not in counted)


@dataclass
class Solution:
    """The answer of a solve.

    Attributes
    ----------
    routes : list of RouteResult
        One per train that runs (trains that run no route are absent).
    total : int
        Revenue of the routes, route-set bonuses included.
    optimal : bool
        True when ``total`` is proven optimal (then ``bound == total``).
    bound : int
        A proven upper bound on the optimal revenue.
    stats : dict
        ``seconds``, ``method`` and solver counters (``routes_considered``, ``nodes_expanded``).
    """

    routes: list[RouteResult]
    total: int
    optimal: bool
    bound: int
    stats: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)

    def to_json(self, **kw) -> str:
        return json.dumps(self.to_dict(), **kw)

    @classmethod
    def from_dict(cls, data: dict) -> Solution:
        routes = [
            RouteResult(
                **{
                    **r,
                    "nodes": tuple(r["nodes"]),
                    "segments": tuple(r["segments"]),
                    "counted": tuple(r["counted"]),
                    "skipped": tuple(r.get("skipped", ())),
                }
            )
            for r in data["routes"]
        ]
        return cls(
            routes, data["total"], data["optimal"], data["bound"], dict(data.get("stats", {}))
        )
