"""Tiles: the standard catalogue and the parser of the 18xx.games tile notation."""

from __future__ import annotations

from functools import cache

from engine.model.tiles.catalog import TILES
from engine.model.tiles.parse import COLOR_ORDER, TileDef, parse_tile

__all__ = ["TILES", "COLOR_ORDER", "TileDef", "parse_tile", "standard_tile"]


@cache
def standard_tile(name: str) -> TileDef:
    """The catalogue tile ``name``, parsed; ``KeyError`` if it is not a standard tile."""
    if name not in TILES:
        raise KeyError(f"tile {name!r} is not in the standard tile catalogue")
    color, code = TILES[name]
    return parse_tile(name, color, code)
