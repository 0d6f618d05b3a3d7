"""The board: preprinted hexes of a title plus the tiles laid on them.

Rules follow tobymao/18xx (``lib/engine/game/base.rb`` ``init_hexes``/``connect_hexes``/
``upgrades_to?``, ``lib/engine/step/tracker.rb`` ``legal_tile_rotation?``, ``lib/engine/hex.rb``
``lay`` @111f7f69, MIT):

- a hex's preprinted tile comes from the title's ``HEXES`` (a standard tile name or a code);
- a laid tile replaces it; the preprinted borders stay, and only *sticky* preprinted icons;
- an edge is cut by an impassable border printed on either side of it;
- a tile's exit must lead to a neighbouring hex; a blue, gray or red neighbour counts only if
  its own track faces back (18xx.games ``IMPASSABLE_HEX_COLORS``);
- upgrades go one colour up the white → yellow → green → brown → gray ladder (a position only
  lists the final tile, so any later colour is accepted), keep the old track, the label and the
  number of towns (and of cities when the hex has no label).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from engine.model.hexgrid import HexGrid, hex_order, opposite
from engine.model.tiles import COLOR_ORDER, TILES, TileDef, parse_tile, standard_tile
from engine.model.tiles.parse import Edge, NodeRef, Path

__all__ = ["Board", "PlacedTile", "HexCell", "IMPASSABLE_HEX_COLORS", "UNLIMITED_TILES"]

#: id(title data module) -> (module, its map attributes, grid, cells, manifest, reservations,
#: neighbour cache, printed-facts caches)
_PRINTED: dict[int, tuple] = {}
_UNSET = object()
_MAP_ATTRIBUTES = ("TITLE", "LAYOUT", "AXES", "LOCATION_NAMES", "HEXES", "TILES", "CORPORATIONS",
                   "MINORS")  # fmt: skip

#: Neighbours of these colours only connect where their track faces back (18xx.games default).
IMPASSABLE_HEX_COLORS = ("blue", "gray", "red")

#: Count used for ``"unlimited"`` manifest entries.
UNLIMITED_TILES = 10**6

_TRACK_MATCH = {"broad": ("broad", "dual"), "narrow": ("narrow", "dual"), "dual": ("dual",)}


@dataclass(frozen=True)
class PlacedTile:
    """A tile on a hex with its rotation (preprinted tiles have rotation 0)."""

    tile: TileDef
    rotation: int = 0
    preprinted: bool = True

    @property
    def paths(self) -> tuple[Path, ...]:
        return self.tile.rotated_paths(self.rotation)

    @property
    def exits(self) -> tuple[int, ...]:
        return self.tile.exits(self.rotation)


@dataclass(frozen=True)
class HexCell:
    """A map hex as printed."""

    coord: str
    color: str
    printed: TileDef
    location_name: str | None = None


def _manifest_entry(name: str, entry: Any) -> tuple[TileDef, int]:
    """Parse one ``TILES`` manifest entry into (tile, count)."""
    where = f"TILES[{name!r}]"
    if isinstance(entry, Mapping):
        count = entry.get("count", 1)
        color, code = entry.get("color"), entry.get("code")
        if code is None:
            if name not in TILES:
                raise ValueError(f"{where}: custom tile needs 'color' and 'code'")
            tile = standard_tile(name)
            if color is not None and color != tile.color:
                tile = parse_tile(name, str(color), tile.code)
        else:
            if color is None:
                raise ValueError(f"{where}: custom tile needs a 'color'")
            tile = parse_tile(name, str(color), str(code))
    else:
        count = entry
        if name not in TILES:
            raise ValueError(f"{where}: {name!r} is not a standard tile; give color and code")
        tile = standard_tile(name)
    if count == "unlimited":
        count = UNLIMITED_TILES
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"{where}: count must be a non-negative integer or 'unlimited'")
    return tile, count


def _end_matches(old, new, to_city: frozenset[int] = frozenset()) -> bool:
    if isinstance(old, Edge):
        return isinstance(new, Edge) and old.num == new.num
    if not isinstance(new, NodeRef):
        return False
    if old.kind == "town" and new.kind == "city":
        return old.index in to_city  # 18xx.games ``to_city`` towns may become cities
    return old.kind == new.kind


def _path_ends(paths: tuple[Path, ...], path: Path) -> list:
    """Ends of ``path`` with a tile junction replaced by the far ends of its other paths."""
    out = []
    for end in path.ends():
        if isinstance(end, NodeRef) and end.kind == "junction":
            for other in paths:
                if other is path:
                    continue
                if end in other.ends():
                    out.extend(
                        e
                        for e in other.ends()
                        if not (isinstance(e, NodeRef) and e.kind == "junction")
                    )
        else:
            out.append(end)
    return out


def path_subset(
    old_paths: tuple[Path, ...], new_paths: tuple[Path, ...], to_city: frozenset[int] = frozenset()
) -> list[Path]:
    """Old paths that no new path covers (18xx.games ``Path#<=`` on ends and gauge).

    ``to_city`` holds indices of old towns that may turn into cities.
    """
    missing = []
    for old in old_paths:
        old_ends = _path_ends(old_paths, old)
        ok = False
        for new in new_paths:
            if new.track not in _TRACK_MATCH.get(old.track, (old.track,)):
                continue
            new_ends = _path_ends(new_paths, new)
            if all(any(_end_matches(t, o, to_city) for o in new_ends) for t in old_ends):
                ok = True
                break
        if not ok:
            missing.append(old)
    return missing


class Board:
    """Preprinted map plus laid tiles.

    Parameters
    ----------
    grid : HexGrid
    cells : mapping coordinate -> HexCell
    manifest : mapping tile name -> (TileDef, count)
    reservations : mapping (coordinate, city index) -> company symbols with a home there
    """

    def __init__(
        self,
        grid: HexGrid,
        cells: Mapping[str, HexCell],
        manifest: Mapping[str, tuple[TileDef, int]] | None = None,
        reservations: Mapping[tuple[str, int], list[str]] | None = None,
    ) -> None:
        self.grid = grid
        self.cells: dict[str, HexCell] = dict(cells)
        self.manifest: dict[str, tuple[TileDef, int]] = dict(manifest or {})
        self.reservations: dict[tuple[str, int], list[str]] = {
            k: list(v) for k, v in (reservations or {}).items()
        }
        self.laid: dict[str, PlacedTile] = {}
        # neighbours and unbordered links depend on the printed map only; boards of one
        # title share these caches
        self._neighbours: dict[str, dict[int, str]] = {}
        self._printed_facts: dict[str, dict] = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_data(cls, data: ModuleType | Any) -> Board:
        """Build the preprinted board of a title data module (see docs/TITLE_DATA.md).

        The parsed printed map of a module is kept: every position of a title starts from
        it, and parsing costs more than solving a small position.
        """
        # the parse is reused while the module's map attributes are the very same objects
        source = tuple(getattr(data, name, None) for name in _MAP_ATTRIBUTES)
        cached = _PRINTED.get(id(data))
        if (
            cached is None
            or cached[0] is not data
            or any(a is not b for a, b in zip(cached[1], source, strict=True))
        ):
            cached = _PRINTED[id(data)] = (data, source, *cls._parse_data(data), {}, {})
        _, _, grid, cells, manifest, reservations, neighbours, facts = cached
        return cls._of_printed_map(grid, cells, manifest, reservations, neighbours, facts)

    @classmethod
    def _of_printed_map(cls, grid, cells, manifest, reservations, neighbours, facts) -> Board:
        """A board without tiles laid that shares the printed map's tables rather than
        copying them, as every board of one map does: nothing changes a board's cells,
        manifest or reservations once it is made (a game keeps its own reservations), and
        copying them cost more than laying a position's tiles."""
        board = cls.__new__(cls)
        board.grid, board.cells, board.manifest = grid, cells, manifest
        board.reservations = reservations
        board.laid = {}
        board._neighbours, board._printed_facts = neighbours, facts
        return board

    @staticmethod
    def _parse_data(data: ModuleType | Any) -> tuple:
        title = getattr(data, "TITLE", "?")
        grid = HexGrid.make(getattr(data, "LAYOUT", "pointy"), getattr(data, "AXES", None))
        names = dict(getattr(data, "LOCATION_NAMES", {}) or {})
        cells: dict[str, HexCell] = {}
        for color, by_code in dict(getattr(data, "HEXES", {})).items():
            for code, coords in dict(by_code).items():
                if isinstance(coords, str):
                    coords = [coords]
                for coord in coords:
                    try:
                        grid.xy(coord)
                    except ValueError as exc:
                        raise ValueError(f"title {title}: HEXES[{color!r}]: {exc}") from None
                    if coord in cells:
                        raise ValueError(f"title {title}: hex {coord} appears twice in HEXES")
                    if code in TILES and color not in ("empty",):
                        # 18xx.games resolves a standard tile name before parsing a code
                        tile = standard_tile(code)
                    else:
                        try:
                            tile = parse_tile(coord, str(color), str(code))
                        except ValueError as exc:
                            raise ValueError(f"title {title}: hex {coord}: {exc}") from None
                    cells[coord] = HexCell(coord, str(color), tile, names.get(coord))
        manifest = {}
        for name, entry in dict(getattr(data, "TILES", {}) or {}).items():
            try:
                manifest[str(name)] = _manifest_entry(str(name), entry)
            except ValueError as exc:
                raise ValueError(f"title {title}: {exc}") from None
        reservations: dict[tuple[str, int], list[str]] = {}
        for ent in [*getattr(data, "CORPORATIONS", []), *getattr(data, "MINORS", [])]:
            coords = ent.get("coordinates")
            if not coords:
                continue
            coords = [coords] if isinstance(coords, str) else list(coords)
            cities = ent.get("city", 0)
            for i, coord in enumerate(coords):
                city = cities[i] if isinstance(cities, list | tuple) else cities
                reservations.setdefault((coord, int(city or 0)), []).append(ent["sym"])
        return grid, cells, manifest, reservations

    # ------------------------------------------------------------------ hexes
    def __contains__(self, coord: str) -> bool:
        return coord in self.cells

    def check_hex(self, coord: str) -> HexCell:
        """The cell at ``coord``; ``ValueError`` naming it if it is not on the map."""
        try:
            return self.cells[coord]
        except (KeyError, TypeError):
            raise ValueError(f"hex {coord!r} is not on the map") from None

    def placed(self, coord: str) -> PlacedTile:
        """The tile currently on ``coord`` (laid, else preprinted)."""
        if coord in self.laid:
            return self.laid[coord]
        printed = self.printed_facts("printed tiles")
        found = printed.get(coord)
        if found is None:
            found = printed[coord] = PlacedTile(self.check_hex(coord).printed, 0, True)
        return found

    def tile(self, coord: str) -> TileDef:
        return self.placed(coord).tile

    def color(self, coord: str) -> str:
        """Current colour (laid tile's, else the printed hex's)."""
        if coord in self.laid:
            return self.laid[coord].tile.color
        return self.check_hex(coord).color

    def location_name(self, coord: str) -> str | None:
        return self.check_hex(coord).location_name

    def labels(self, coord: str) -> tuple[str, ...]:
        return self.tile(coord).labels

    def borders(self, coord: str):
        """Borders on ``coord``: the printed ones (they survive tile lays) plus the laid tile's."""
        printed = self.check_hex(coord).printed.borders
        if coord in self.laid:
            pl = self.laid[coord]
            return printed + tuple(
                type(b)((b.edge + pl.rotation) % 6, b.type, b.cost) for b in pl.tile.borders
            )
        return printed

    def icons(self, coord: str):
        """Icons now on ``coord``: the laid tile's plus the sticky printed ones."""
        printed = self.check_hex(coord).printed.icons
        if coord in self.laid:
            return self.laid[coord].tile.icons + tuple(i for i in printed if i.sticky)
        return printed

    def printed_icons(self, coord: str):
        return self.check_hex(coord).printed.icons

    def neighbours(self, coord: str) -> dict[int, str]:
        """Every existing neighbour of ``coord`` by edge (cut edges included)."""
        cached = self._neighbours.get(coord)
        if cached is not None:
            return cached
        self.check_hex(coord)
        out = {}
        for edge in range(6):
            nx, ny = self.grid.neighbour_xy(coord, edge)
            try:
                other = self.grid.coord(nx, ny)
            except ValueError:
                continue
            if other in self.cells and self.cells[other].color != "empty":
                out[edge] = other
        self._neighbours[coord] = out
        return out

    def edge_cut(self, coord: str, edge: int) -> bool:
        """Is the side ``edge`` of ``coord`` cut by an impassable border on either side?"""
        if any(b.impassable and b.edge == edge for b in self.borders(coord)):
            return True
        other = self.neighbours(coord).get(edge)
        if other is None:
            return False
        back = opposite(edge)
        return any(b.impassable and b.edge == back for b in self.borders(other))

    def linked_neighbour(self, coord: str, edge: int) -> str | None:
        """The hex track leaving ``coord`` by ``edge`` may enter, or ``None`` (off the map,
        cut by a border, or into a blue/gray/red hex whose track does not face back)."""
        other = self.neighbours(coord).get(edge)
        if other is None:
            return None
        if (
            self._bordered(coord)
            or self._bordered(other)
            or (other in self.laid and self.cells[other].color in IMPASSABLE_HEX_COLORS)
        ):
            return self._link(coord, edge, other)
        # Only the printed map decides this side (no laid tile with borders on either hex,
        # no tile on a blue/gray/red neighbour), so boards of one map share the answer.
        links = self.printed_facts("links")
        key = (coord, edge)
        found = links.get(key, _UNSET)
        if found is _UNSET:
            found = links[key] = self._link(coord, edge, other)
        return found

    def track_hexes(self) -> tuple[str, ...]:
        """Every hex that can carry track (all but ``empty`` ones), in natural order
        (``D8`` before ``D10``); kept for every board of the map."""
        facts = self.printed_facts("track hexes")
        found = facts.get("order")
        if found is None:
            found = facts["order"] = tuple(sorted(
                (c for c, cell in self.cells.items() if cell.color != "empty"), key=hex_order
            ))  # fmt: skip
        return found

    def printed_facts(self, kind: str) -> dict:
        """A cache named ``kind`` for facts that follow from the printed map alone, shared
        by every board of the map (:meth:`from_data`, :meth:`copy`).

        Callers key it by what else the fact depends on (a hex's tile and rotation, say)
        and only store facts that no laid tile's borders can change.
        """
        found = self._printed_facts.get(kind)
        if found is None:
            found = self._printed_facts[kind] = {}
        return found

    def printed_links_hold(self) -> bool:
        """Do the printed map's links hold on every side (no laid tile has borders, and no
        tile lies on a blue, gray or red hex)?  Facts derived from the links alone may then
        be taken from :meth:`printed_facts`."""
        cells = self.cells
        return not any(
            p.tile.borders or cells[c].color in IMPASSABLE_HEX_COLORS for c, p in self.laid.items()
        )

    def map_link(self, coord: str, edge: int) -> str | None:
        """:meth:`linked_neighbour` on the whole map, for a board that is a part of one
        (whose own links stop at its edge); facts kept in :meth:`printed_facts` use it."""
        return self.linked_neighbour(coord, edge)

    def _bordered(self, coord: str) -> bool:
        placed = self.laid.get(coord)
        return placed is not None and bool(placed.tile.borders)

    def _link(self, coord: str, edge: int, other: str) -> str | None:
        if self.edge_cut(coord, edge):
            return None
        if self.cells[other].color in IMPASSABLE_HEX_COLORS and opposite(edge) not in (
            self.placed(other).exits
        ):
            return None
        return other

    # ------------------------------------------------------------------ tiles
    def manifest_tile(self, name: str) -> TileDef:
        """A tile of the title's manifest; ``ValueError`` naming it otherwise."""
        try:
            return self.manifest[name][0]
        except KeyError:
            raise ValueError(f"tile {name!r} is not in the title's tile manifest") from None

    def tile_count(self, name: str) -> int:
        return self.manifest[name][1] if name in self.manifest else 0

    def tiles_in_use(self) -> Counter:
        """Copies of each tile on the map (do not modify the answer: it is cached until the
        next :meth:`lay`, which every change of ``laid`` goes through)."""
        cached = self.__dict__.get("_in_use")
        if cached is None or cached[0] is not self.laid or cached[1] != len(self.laid):
            counts = Counter(p.tile.name for p in self.laid.values())
            cached = self.__dict__["_in_use"] = (self.laid, len(self.laid), counts)
        return cached[2]

    def exit_problems(self, coord: str, tile: TileDef, rotation: int) -> list[str]:
        """Why the exits of ``tile`` at ``rotation`` on ``coord`` run nowhere (empty if fine)."""
        problems = []
        for edge in tile.exits(rotation):
            if self.linked_neighbour(coord, edge) is not None:
                continue  # the usual case, answered from the shared printed links
            other = self.neighbours(coord).get(edge)
            if other is None:
                problems.append(f"track on edge {edge} runs off the map")
            elif self.edge_cut(coord, edge):
                problems.append(f"track on edge {edge} runs into an impassable border to {other}")
            else:
                problems.append(
                    f"track on edge {edge} runs into {self.cells[other].color} hex {other}, "
                    "whose track does not face back"
                )
        return problems

    def lay_problems(self, coord: str, tile: TileDef, rotation: int) -> list[str]:
        """:meth:`upgrade_problems` and then :meth:`exit_problems` (a new list).

        Where the printed map alone decides them (no laid tile with borders on the hex or
        a neighbour, no tile on a blue, gray or red neighbour), the answer is kept for
        every board of the map: positions lay the same tiles on the same hexes again and
        again.
        """
        laid, cells = self.laid, self.cells
        printed = True
        # the laid ones of the hex and its neighbours (a set operation, at C speed), as
        # _bordered and a tile on a blue, gray or red hex
        for c in laid.keys() & (coord, *self.neighbours(coord).values()):
            if laid[c].tile.borders or cells[c].color in IMPASSABLE_HEX_COLORS:
                printed = False
                break
        if not printed:
            return self.upgrade_problems(coord, tile, rotation) + self.exit_problems(
                coord, tile, rotation
            )
        cache = self.printed_facts("lay problems")
        key = (coord, id(tile), rotation)
        found = cache.get(key)
        if found is None or found[0] is not tile:
            problems = self.upgrade_problems(coord, tile, rotation)
            problems += self.exit_problems(coord, tile, rotation)
            found = cache[key] = (tile, tuple(problems))
        return list(found[1])

    def upgrade_problems(self, coord: str, tile: TileDef, rotation: int) -> list[str]:
        """Why ``tile`` at ``rotation`` cannot replace the printed hex (empty if fine).

        The position lists only the final tile, so colour may skip steps; the rest follows
        18xx.games ``upgrades_to?`` against the printed hex.
        """
        cell = self.check_hex(coord)
        old = cell.printed
        problems = []
        if cell.color not in COLOR_ORDER or cell.color == COLOR_ORDER[-1]:
            return [f"hex {coord} is {cell.color} and takes no tiles"]
        if tile.color not in COLOR_ORDER:
            return [f"tile {tile.name!r} has colour {tile.color!r}, not a track colour"]
        if COLOR_ORDER.index(tile.color) <= COLOR_ORDER.index(cell.color):
            problems.append(f"tile {tile.name!r} ({tile.color}) cannot replace a {cell.color} hex")
        to_city = frozenset(t.index for t in old.towns if t.to_city)
        missing = path_subset(old.paths, tile.rotated_paths(rotation), to_city)
        if missing:
            problems.append(
                f"tile {tile.name!r} at rotation {rotation} drops the printed track "
                f"{_describe(missing[0])}"
            )
        expected = old.label
        if old.future_label and COLOR_ORDER.index(tile.color) >= _color_index(old.future_label[1]):
            expected = old.future_label[0] or None
        if expected != tile.label:
            problems.append(
                f"tile {tile.name!r} has label {tile.label!r} but hex {coord} needs {expected!r}"
            )
        if len(old.towns) != len(tile.towns) and not any(t.to_city for t in old.towns):
            problems.append(
                f"tile {tile.name!r} has {len(tile.towns)} towns, hex {coord} has {len(old.towns)}"
            )
        if not old.label and len(old.cities) != len(tile.cities):
            problems.append(
                f"tile {tile.name!r} has {len(tile.cities)} cities, hex {coord} has "
                f"{len(old.cities)}"
            )
        if old.label and old.cities and not tile.cities:
            problems.append(f"tile {tile.name!r} has no city for labelled hex {coord}")
        return problems

    def lay(self, coord: str, name: str, rotation: int = 0, check: bool = True) -> PlacedTile:
        """Lay manifest tile ``name`` on ``coord``; ``ValueError`` naming what is wrong."""
        self.check_hex(coord)
        tile = self.manifest_tile(name)
        if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 5:
            raise ValueError(f"hex {coord}: rotation {rotation!r} is not 0-5")
        if check:
            problems = self.lay_problems(coord, tile, rotation)
            if problems:
                raise ValueError(f"hex {coord}: tile {name!r} rotation {rotation}: {problems[0]}")
        placed = PlacedTile(tile, rotation, False)
        self.laid[coord] = placed
        self.__dict__.pop("_in_use", None)
        return placed

    def shared_with_copies(self) -> list[object]:
        """What a copy of this board shares with it rather than copies: the printed map
        (grid, cells, manifest, neighbours) and the caches of facts it alone decides
        (:meth:`printed_facts`), which hold for every board of the map."""
        return [self.grid, self.manifest, self.cells, self._neighbours, self._printed_facts]

    def copy(self) -> Board:
        """An independent board with the same tiles, sharing the printed map's caches."""
        other = type(self)._of_printed_map(self.grid, self.cells, self.manifest,
                                           self.reservations, self._neighbours,
                                           self._printed_facts)  # fmt: skip
        other.laid = dict(self.laid)
        return other

    # ------------------------------------------------------------------ cities
    def city_slots(self, coord: str, city: int) -> int:
        """Token slots of city ``city`` on ``coord``; ``ValueError`` if there is no such city."""
        cities = self.tile(coord).cities
        if not isinstance(city, int) or not 0 <= city < len(cities):
            raise ValueError(
                f"hex {coord} has no city {city!r} (it has {len(cities)} "
                f"{'city' if len(cities) == 1 else 'cities'})"
            )
        return cities[city].slots

    def hexes_with_label(self, label: str) -> list[str]:
        return [c for c in self.cells if label in self.labels(c)]

    def hexes_with_icon(self, name: str) -> list[str]:
        return [c for c in self.cells if any(i.name == name for i in self.icons(c))]

    def coords(self) -> Iterable[str]:
        return self.cells.keys()


def _color_index(color: str) -> int:
    return COLOR_ORDER.index(color) if color in COLOR_ORDER else len(COLOR_ORDER)


def _describe(path: Path) -> str:
    def end(e) -> str:
        return f"edge {e.num}" if isinstance(e, Edge) else f"{e.kind} {e.index}"

    return f"{end(path.a)}-{end(path.b)}"
