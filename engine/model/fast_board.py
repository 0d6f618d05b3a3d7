"""Board helpers for the engine's board state: a cached board, 18xx.games ids and part indices,
and how tokens follow their cities on an upgrade.

Facts follow tobymao/18xx @111f7f69 (MIT): ``tile.rb`` (a part's index is its position in the
tile code, lanes expanded; ids are ``NAME-INDEX``) and ``hex.rb`` ``city_map_for`` (an old
city maps to the new city whose exits include its own; cities without exits keep their
index).
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from engine.model.board import Board, PlacedTile
from engine.model.hexgrid import opposite, parse_coordinate
from engine.model.record import ReplayError
from engine.model.tiles import TileDef
from engine.model.tiles.parse import Edge, NodeRef

__all__ = ["FastBoard", "split_id", "part_kinds", "city_map", "describe_path", "hex_key"]

_ID = re.compile(r"^(.*)-(\d+)$")


def split_id(ident: str) -> tuple[str, int]:
    """``"4-3"`` -> ``("4", 3)``; ``"D6-0"`` -> ``("D6", 0)`` (18xx.games ``name-index`` ids)."""
    m = _ID.match(str(ident))
    if not m:
        raise ReplayError(f"malformed id {ident!r} (expected NAME-INDEX)")
    return m.group(1), int(m.group(2))


def part_kinds(code: str) -> list[tuple[str, int] | None]:
    """18xx.games part index -> ``(kind, index among that kind)`` of a tile code.

    ``tile.rb`` numbers every part of the code in order (a path with ``lanes:n`` counts n
    times); city and pass parts are cities, town and halt parts towns.  Non-stop parts map to
    ``None``.
    """
    out: list[tuple[str, int] | None] = []
    counts = {"city": 0, "town": 0, "offboard": 0, "junction": 0}
    for part in code.split(";"):
        part = part.strip()
        if not part:
            continue
        ptype, _, body = part.partition("=")
        kind = {"pass": "city", "halt": "town"}.get(ptype, ptype)
        if kind in counts:
            out.append((kind, counts[kind]))
            counts[kind] += 1
        elif ptype == "path":
            lanes = re.search(r"(?:^|,)lanes:(\d+)", body)
            out.extend([None] * max(int(lanes.group(1)) if lanes else 1, 1))
        else:
            out.append(None)
    return out


class _Placed(PlacedTile):
    """A :class:`PlacedTile` that computes its rotated paths and exits once."""

    @cached_property
    def paths(self):  # noqa: D102 - as PlacedTile.paths
        return self.tile.rotated_paths(self.rotation)

    @cached_property
    def exits(self):  # noqa: D102 - as PlacedTile.exits
        return self.tile.exits(self.rotation)


class FastBoard(Board):
    """A :class:`Board` that caches what the network builder asks for again and again.

    Neighbours depend on the printed map only; linked neighbours and placed tiles change
    only when a tile is laid, which clears those of the hex and its sides.  A replay builds
    hundreds of networks on one board, so this makes its problems cheap to build.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._neighbours: dict[str, dict[int, str]] = {}
        self._linked: dict[tuple[str, int], str | None] = {}
        self._placed: dict[str, PlacedTile] = {}

    @classmethod
    def _of_printed_map(cls, *printed_map) -> FastBoard:
        board = super()._of_printed_map(*printed_map)
        board._linked, board._placed = {}, {}
        return board

    def neighbours(self, coord: str) -> dict[int, str]:
        cached = self._neighbours.get(coord)
        if cached is None:
            cached = self._neighbours[coord] = super().neighbours(coord)
        return cached

    def linked_neighbour(self, coord: str, edge: int) -> str | None:
        key = (coord, edge)
        if key not in self._linked:
            self._linked[key] = super().linked_neighbour(coord, edge)
        return self._linked[key]

    def placed(self, coord: str) -> PlacedTile:
        cached = self._placed.get(coord)
        if cached is None:
            p = super().placed(coord)
            cached = self._placed[coord] = _Placed(p.tile, p.rotation, p.preprinted)
        return cached

    def lay(self, coord: str, name: str, rotation: int = 0, check: bool = True) -> PlacedTile:
        placed = super().lay(coord, name, rotation, check)
        self.laid[coord] = _Placed(placed.tile, placed.rotation, placed.preprinted)
        # A lay changes the tile (so borders and exits) of one hex: only the sides of that
        # hex, seen from it and from its neighbours, can link differently now.
        self._placed.pop(coord, None)
        for edge, other in self.neighbours(coord).items():
            self._linked.pop((coord, edge), None)
            self._linked.pop((other, opposite(edge)), None)
        return self.laid[coord]

    def copy(self) -> FastBoard:
        """:meth:`Board.copy`, starting from this board's link and placed-tile caches (a
        :meth:`lay` on the copy drops the entries it changes, as on this board)."""
        other = super().copy()
        other._linked = dict(self._linked)
        other._placed = dict(self._placed)
        return other


@lru_cache(maxsize=4096)
def hex_key(coord: str) -> tuple:
    """Sort key putting ``D8`` before ``D10`` (cached: positions sort every hex often)."""
    try:
        return parse_coordinate(coord)
    except ValueError:
        return (coord, 0)


def describe_path(path) -> str:
    """``"edge 1-city 0"``: a path's ends, for messages."""

    def end(e) -> str:
        return f"edge {e.num}" if isinstance(e, Edge) else f"{e.kind} {e.index}"

    return f"{end(path.a)}-{end(path.b)}"


def _city_exits(placed_paths, n_cities: int) -> list[frozenset[int]]:
    """Edges each city's own paths reach (``node.rb`` ``exits``)."""
    exits: list[set[int]] = [set() for _ in range(n_cities)]
    for p in placed_paths:
        for end, other in ((p.a, p.b), (p.b, p.a)):
            if isinstance(end, NodeRef) and end.kind == "city" and isinstance(other, Edge):
                exits[end.index].add(other.num)
    return [frozenset(e) for e in exits]


def city_map(old, tile: TileDef, rotation: int) -> dict[int, int | None]:
    """Old city index -> new city index on an upgrade (``hex.rb`` ``city_map_for``)."""
    old_cities = old.tile.cities
    new_cities = tile.cities
    old_exits = _city_exits(old.paths, len(old_cities))
    new_exits = _city_exits(tile.rotated_paths(rotation), len(new_cities))
    if not any(old_exits) and len(old_cities) == len(new_cities):
        mapping: dict[int, int | None] = {i: i for i in range(len(old_cities))}
    else:
        mapping = {}
        for i, ex in enumerate(old_exits):
            mapping[i] = next((j for j, nex in enumerate(new_exits) if ex and ex <= nex), None)
    used = [j for j in mapping.values() if j is not None]
    for i in range(len(old_cities)):
        if mapping[i] is not None:
            continue
        j = i if i < len(new_cities) else None
        if j is None or j in used:
            j = next((k for k in range(len(new_cities)) if k not in used), None)
        mapping[i] = j
        used.append(j)
    return mapping
