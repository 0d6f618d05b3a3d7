"""The 18xx board engine: maps, tiles, positions and the title hooks.

``engine`` turns an 18xx position (title, laid tiles, tokens, trains) into a
:class:`routing.Problem`; see docs/ENGINE_API.md.  Title packages live in ``engine.games``.
"""

from .board import Board
from .hexgrid import HexGrid
from .position import Position, PositionError, load_position, save_position
from .title import RouteSpec, RouteView, Title, build_problem, default_route_spec

__all__ = [
    "Board",
    "HexGrid",
    "Position",
    "PositionError",
    "load_position",
    "save_position",
    "Title",
    "RouteView",
    "RouteSpec",
    "build_problem",
    "default_route_spec",
]
