"""18xx.games hex coordinates, neighbours and edge numbering.

Conventions (tobymao/18xx ``lib/engine/hex.rb``, ``lib/engine/game/base.rb`` @111f7f69):

- A coordinate is letters plus a number (``"D6"``, ``"AA3"``, ``"a1"`` for negative letters).
  With axes ``{x: letter, y: number}`` the letter gives ``x`` and the number ``y`` (minus one);
  with ``{x: number, y: letter}`` the other way round.  A title without ``AXES`` uses
  letter/number for ``flat`` and number/letter for ``pointy`` maps.
- ``(x, y)`` is a *doubled* coordinate system: on a pointy map horizontal neighbours differ by
  2 in ``x``; on a flat map vertical neighbours differ by 2 in ``y``.
- Edges are numbered 0-5 clockwise.  Flat: 0 is the bottom side, 1 lower-left, 2 upper-left,
  3 top, 4 upper-right, 5 lower-right.  Pointy: 0 lower-left, 1 left, 2 upper-left,
  3 upper-right, 4 right, 5 lower-right.
- A tile laid with rotation ``r`` moves its edge ``e`` to ``(e + r) % 6``; the edge opposite
  ``e`` is ``(e + 3) % 6``.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "hex_order",
    "DIRECTIONS",
    "LETTERS",
    "HexGrid",
    "rotate_edge",
    "opposite",
    "parse_coordinate",
]

#: (dx, dy) in doubled coordinates -> edge number, per layout (facts from hex.rb).
DIRECTIONS: dict[str, dict[tuple[int, int], int]] = {
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}

#: Letter sequence A..Z, AA..AZ; index = coordinate value.
LETTERS: tuple[str, ...] = tuple(string.ascii_uppercase) + tuple(
    "A" + c for c in string.ascii_uppercase
)
#: Lower-case letters stand for negative values (a = -1).
_NEGATIVE = {c: -(i + 1) for i, c in enumerate(string.ascii_lowercase)}

_COORD = re.compile(r"^([A-Za-z]+)(-?[0-9]+)$")


def rotate_edge(edge: int, rotation: int) -> int:
    """Edge ``edge`` of a tile after laying it with ``rotation``."""
    return (edge + rotation) % 6


def opposite(edge: int) -> int:
    """The edge facing ``edge`` on the neighbouring hex."""
    return (edge + 3) % 6


def parse_coordinate(coord: str) -> tuple[str, int]:
    """Split ``"D6"`` into ``("D", 6)``; ``ValueError`` if it is not a coordinate."""
    m = _COORD.match(coord) if isinstance(coord, str) else None
    if not m:
        raise ValueError(f"{coord!r} is not a hex coordinate (expected letters then a number)")
    return m.group(1), int(m.group(2))


@lru_cache(maxsize=4096)
def hex_order(coord: str) -> tuple:
    """Sort key of the natural order of coordinates (``D8`` before ``D10``, ``Z9`` before
    ``AA1``); anything else sorts by its text.  Cached: every network build sorts."""
    try:
        letters, number = parse_coordinate(coord)
    except ValueError:
        return (coord, 0)
    return (len(letters), letters, number)


def _letter_value(letters: str) -> int:
    if letters in LETTERS:
        return LETTERS.index(letters)
    if letters in _NEGATIVE:
        return _NEGATIVE[letters]
    raise ValueError(f"unsupported coordinate letters {letters!r}")


@dataclass(frozen=True)
class HexGrid:
    """Geometry of one map.

    Parameters
    ----------
    layout : {"pointy", "flat"}
    axes : mapping with ``x`` and ``y`` each ``"letter"`` or ``"number"``; ``None`` for the
        18xx.games default of the layout.
    """

    layout: str
    axes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def make(cls, layout: str, axes: Mapping[str, str] | None = None) -> HexGrid:
        layout = str(layout).lower()
        if layout not in DIRECTIONS:
            raise ValueError(f"unknown layout {layout!r}; expected 'pointy' or 'flat'")
        if axes is None:
            axes = (
                {"x": "letter", "y": "number"}
                if layout == "flat"
                else {"x": "number", "y": "letter"}
            )
        ax = {str(k): str(v) for k, v in dict(axes).items()}
        if sorted(ax) != ["x", "y"] or sorted(ax.values()) != ["letter", "number"]:
            raise ValueError(f"axes must map x and y to 'letter' and 'number', got {dict(axes)}")
        return cls(layout, tuple(sorted(ax.items())))

    @property
    def x_axis(self) -> str:
        return dict(self.axes).get("x", "number" if self.layout == "pointy" else "letter")

    # ------------------------------------------------------------------ coordinates
    def xy(self, coord: str) -> tuple[int, int]:
        """Doubled ``(x, y)`` of ``coord``."""
        letters, number = parse_coordinate(coord)
        lv, nv = _letter_value(letters), number - 1
        return (lv, nv) if self.x_axis == "letter" else (nv, lv)

    def coord(self, x: int, y: int) -> str:
        """Inverse of :meth:`xy`."""
        lv, nv = (x, y) if self.x_axis == "letter" else (y, x)
        if lv >= 0:
            if lv >= len(LETTERS):
                raise ValueError(f"no coordinate letters for value {lv}")
            letters = LETTERS[lv]
        else:
            letters = string.ascii_lowercase[-lv - 1]
        return f"{letters}{nv + 1}"

    def neighbour_xy(self, coord: str, edge: int) -> tuple[int, int]:
        x, y = self.xy(coord)
        for (dx, dy), e in DIRECTIONS[self.layout].items():
            if e == edge:
                return x + dx, y + dy
        raise ValueError(f"edge {edge} is not 0-5")

    def neighbour(self, coord: str, edge: int, existing: Iterable[str] | None = None) -> str | None:
        """Coordinate across ``edge`` of ``coord``; ``None`` if not in ``existing`` (if given)."""
        x, y = self.neighbour_xy(coord, edge)
        try:
            other = self.coord(x, y)
        except ValueError:
            return None
        if existing is not None and other not in existing:
            return None
        return other

    def edge_between(self, a: str, b: str) -> int | None:
        """Edge of ``a`` that faces ``b``, or ``None`` if they are not adjacent."""
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        return DIRECTIONS[self.layout].get((bx - ax, by - ay))

    # ------------------------------------------------------------------ drawing
    def center(self, coord: str, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre for hexes of circumradius ``size`` (y grows downwards)."""
        x, y = self.xy(coord)
        r3 = math.sqrt(3)
        if self.layout == "pointy":
            return x * r3 / 2 * size, y * 1.5 * size
        return x * 1.5 * size, y * r3 / 2 * size

    def edge_vector(self, edge: int, size: float = 1.0) -> tuple[float, float]:
        """Vector from a hex centre to the midpoint of its edge ``edge``."""
        r3 = math.sqrt(3)
        for (dx, dy), e in DIRECTIONS[self.layout].items():
            if e == edge:
                if self.layout == "pointy":
                    return dx * r3 / 4 * size, dy * 0.75 * size
                return dx * 0.75 * size, dy * r3 / 4 * size
        raise ValueError(f"edge {edge} is not 0-5")

    def corners(self, coord: str, size: float = 1.0) -> list[tuple[float, float]]:
        """The six corners of the hex (for drawing)."""
        cx, cy = self.center(coord, size)
        start = 30 if self.layout == "pointy" else 0
        return [
            (
                cx + size * math.cos(math.radians(start + 60 * k)),
                cy + size * math.sin(math.radians(start + 60 * k)),
            )
            for k in range(6)
        ]
