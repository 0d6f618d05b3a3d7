"""1836Jr-30 revenue rules as a :class:`~engine.model.title.RouteSpec` hook.

Everything 1830 does (N-trains, unlimited diesels, a route must include an own station token,
cities full of other companies' tokens are terminal, off-board areas are terminal) is the
engine's default; Amsterdam's two cities on the green and brown NY tiles are separate,
ungrouped stops, so one train may score both (seed: "as per the rules for New York City").
The only 1836Jr addition is Paris and the Channel ports, shared with 1836Jr-56 in
:mod:`engine.games.g1836jr_common`.
"""

from __future__ import annotations

from engine.games.g1836jr30 import data
from engine.games.g1836jr_common import port_spec
from engine.model.title import RouteSpec, RouteView

__all__ = ["route_spec", "check_position"]


def route_spec(view: RouteView) -> RouteSpec:
    """Trains, token requirement and the Paris/Channel-port bonus for ``view.company``."""
    return port_spec(view, data)


def check_position(position, board) -> None:
    """Reject assignments: no 1836Jr-30 company places a marker on the map.

    Raises
    ------
    ValueError
        Naming the first assignment.
    """
    if position.assignments:
        raise ValueError(
            f"assignments[0]: 1836Jr-30 has no hex markers, got {position.assignments[0].ability!r}"
        )
