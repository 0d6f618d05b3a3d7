"""Results: :class:`Solution` and :class:`RouteResult`, with JSON round-trip."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

__all__ = ["RouteError", "RouteResult", "Solution"]


class RouteError(ValueError):
    """A declared route breaks a rule; the message names the rule and where."""


@dataclass
class RouteResult:
    """One train's route.

    ``nodes`` is the node sequence from one end to the other, ``segments`` the segment ids
    between consecutive nodes, ``counted`` the stops that earn revenue (the designated node,
    e.g. a goods train's mine, included).  ``revenue`` is what the route earns, route-set
    bonuses it claims included; ``bonuses`` maps each bonus name to what it added (after the
    multiplier); ``stop_revenue`` is the multiplied stop value.
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
                }
            )
            for r in data["routes"]
        ]
        return cls(
            routes, data["total"], data["optimal"], data["bound"], dict(data.get("stats", {}))
        )
