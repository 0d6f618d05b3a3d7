"""The 18xx board engine: maps, tiles, positions and the title hooks.

``engine`` turns an 18xx position (title, laid tiles, tokens, trains) into a
:class:`routing.Problem`; see docs/ENGINE_API.md.  Title packages live in ``engine.games``.
"""

from engine.games import build_problem, load_position
from engine.model.board import Board
from engine.model.hexgrid import HexGrid
from engine.model.position import Position, PositionError, save_position
from engine.model.title import RouteSpec, RouteView, Title, default_route_spec

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
