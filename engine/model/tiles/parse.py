"""Parser of the 18xx.games tile notation into the engine's tile model.

A tile code is a ``;``-separated list of parts, each ``type=key:value,key:value`` (or a bare
string for labels, or just ``type``), e.g.
``city=revenue:20,slots:2;path=a:0,b:_0;label=Z;upgrade=cost:40,terrain:mountain``.

Semantics follow tobymao/18xx ``lib/engine/tile.rb`` and ``lib/engine/part/*.rb``
(@111f7f69, MIT): ``_n`` in a path names the n-th *node part* of the code (city, town, halt,
pass, offboard or junction, in order of appearance); revenues are a number or per-colour
``yellow_30|brown_50``; borders with ``type:impassable`` cut an edge.  Cosmetic parts
(``frame``, ``stripes``, ``stub``, ``partition``, ``future_label`` display data) are kept
only as far as the engine needs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "Revenue",
    "City",
    "Town",
    "Offboard",
    "Edge",
    "NodeRef",
    "Path",
    "Upgrade",
    "Border",
    "Icon",
    "TileDef",
    "parse_tile",
    "parse_revenue",
    "COLOR_ORDER",
]

#: Upgrade order of track colours (18xx.games ``Tile::COLORS`` restricted to track colours).
COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")

#: Colours a revenue may be keyed by.  ``diesel`` is 18xx.games' D-train-only value.
_REVENUE_COLORS = ("yellow", "green", "brown", "gray", "diesel")


@dataclass(frozen=True)
class Revenue:
    """A stop's revenue: one number, or a value per phase colour.

    ``by_color`` is empty for a flat revenue.
    """

    flat: int = 0
    by_color: tuple[tuple[str, int], ...] = ()

    def value(self, phase_colors: Sequence[str] = ()) -> int:
        """Revenue in a phase whose tile colours are ``phase_colors``.

        As in 18xx.games, the latest phase colour the stop has a value for wins; a stop with
        per-colour values but none for the phase's colours is worth 0.
        """
        if not self.by_color:
            return self.flat
        table = dict(self.by_color)
        for color in reversed(list(phase_colors)):
            if color in table:
                return table[color]
        return 0

    @property
    def max(self) -> int:
        return max((v for _, v in self.by_color), default=self.flat)

    def to_code(self) -> str:
        if not self.by_color:
            return str(self.flat)
        return "|".join(f"{c}_{v}" for c, v in self.by_color)


def parse_revenue(text: str, where: str = "revenue") -> Revenue:
    """Parse ``"20"`` or ``"yellow_30|brown_50"``; raise ``ValueError`` naming ``where``."""
    text = text.strip()
    if "|" in text or "_" in text:
        items = []
        for chunk in text.split("|"):
            color, sep, value = chunk.partition("_")
            if not sep or not value.lstrip("-").isdigit():
                raise ValueError(f"{where}: bad per-colour revenue {chunk!r} in {text!r}")
            items.append((color, int(value)))
        return Revenue(0, tuple(items))
    try:
        return Revenue(int(text or 0))
    except ValueError:
        raise ValueError(f"{where}: revenue {text!r} is not a number") from None


@dataclass(frozen=True)
class _Stop:
    index: int  # index among parts of the same class on the tile (city 0, city 1 ...)
    revenue: Revenue = Revenue()
    groups: tuple[str, ...] = ()
    hide: bool = False
    loc: str | None = None
    route: str = "mandatory"  # "mandatory" | "optional" | "never" (never: not a route stop)
    visit_cost: int = 1


@dataclass(frozen=True)
class City(_Stop):
    """A city: token slots, revenue, optional groups (a route visits at most one per group)."""

    slots: int = 1
    kind: str = "city"  # "city" or 18xx.games' "pass"


@dataclass(frozen=True)
class Town(_Stop):
    """A town (dit), or a halt (``kind == "halt"``)."""

    kind: str = "town"
    to_city: bool = False


@dataclass(frozen=True)
class Offboard(_Stop):
    """An off-board location (red area); its revenue usually depends on the phase colour."""

    kind: str = "offboard"


@dataclass(frozen=True)
class Edge:
    """A path end on hex edge ``num`` (0-5, before tile rotation)."""

    num: int


@dataclass(frozen=True)
class NodeRef:
    """A path end on a node part: ``kind`` is ``city``, ``town``, ``offboard`` or ``junction``;
    ``index`` counts parts of that kind on the tile."""

    kind: str
    index: int


End = Edge | NodeRef


@dataclass(frozen=True)
class Path:
    """A piece of track between two ends."""

    a: End
    b: End
    terminal: bool = False
    track: str = "broad"  # broad | narrow | dual

    def ends(self) -> tuple[End, End]:
        return (self.a, self.b)

    def edges(self) -> tuple[int, ...]:
        return tuple(e.num for e in (self.a, self.b) if isinstance(e, Edge))

    def rotated(self, rotation: int) -> Path:
        def rot(end: End) -> End:
            return Edge((end.num + rotation) % 6) if isinstance(end, Edge) else end

        return Path(rot(self.a), rot(self.b), self.terminal, self.track)


@dataclass(frozen=True)
class Upgrade:
    """Terrain / upgrade cost printed on a hex."""

    cost: int
    terrains: tuple[str, ...] = ()


@dataclass(frozen=True)
class Border:
    """A border on an edge; ``type == "impassable"`` cuts the edge, others only cost money."""

    edge: int
    type: str | None = None
    cost: int | None = None

    @property
    def impassable(self) -> bool:
        return self.type == "impassable"


@dataclass(frozen=True)
class Icon:
    """An icon (port, mine, meat packing ...); ``name`` defaults to the image's file stem."""

    image: str
    name: str
    sticky: bool = False
    blocks_lay: bool = False


@dataclass(frozen=True)
class TileDef:
    """A parsed tile, unrotated.

    ``rotation`` is applied by the board (:meth:`rotated_paths`, :meth:`exits`).
    """

    name: str
    color: str
    code: str
    cities: tuple[City, ...] = ()
    towns: tuple[Town, ...] = ()
    offboards: tuple[Offboard, ...] = ()
    junction: bool = False
    paths: tuple[Path, ...] = ()
    labels: tuple[str, ...] = ()
    upgrades: tuple[Upgrade, ...] = ()
    borders: tuple[Border, ...] = ()
    icons: tuple[Icon, ...] = ()
    future_label: tuple[str, str] | None = None  # (label, colour)
    stubs: tuple[int, ...] = ()
    blocks_lay: bool = False
    extra: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def label(self) -> str | None:
        """The tile's label as 18xx.games compares it (the last label part)."""
        return self.labels[-1] if self.labels else None

    @property
    def upgrade_cost(self) -> int:
        return sum(u.cost for u in self.upgrades)

    @property
    def terrains(self) -> tuple[str, ...]:
        seen: list[str] = []
        for u in self.upgrades:
            seen.extend(t for t in u.terrains if t not in seen)
        return tuple(seen)

    def rotated_paths(self, rotation: int) -> tuple[Path, ...]:
        # memoised in the instance (tiles never change; the legal-lay search asks for the
        # same rotations thousands of times a game); __dict__ bypasses the frozen setattr
        memo = self.__dict__.setdefault("_rotated", {})
        found = memo.get(rotation)
        if found is None:
            found = memo[rotation] = tuple(p.rotated(rotation) for p in self.paths)
        return found

    def exits(self, rotation: int = 0) -> tuple[int, ...]:
        """Distinct edges the tile's track reaches, after ``rotation``."""
        memo = self.__dict__.setdefault("_exits", {})
        found = memo.get(rotation)
        if found is None:
            out: list[int] = []
            for p in self.paths:
                for e in p.edges():
                    r = (e + rotation) % 6
                    if r not in out:
                        out.append(r)
            found = memo[rotation] = tuple(out)
        return found

    def stops(self) -> tuple[City | Town | Offboard, ...]:
        return (*self.cities, *self.towns, *self.offboards)


# ---------------------------------------------------------------------------------- parser
_COSMETIC = {"frame", "stripes", "partition"}


def _params(tile: str, part: str, body: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in body.split(","):
        if not item:
            continue
        key, sep, value = item.partition(":")
        if not sep:
            raise ValueError(f"tile {tile!r}: part {part!r}: parameter {item!r} has no ':'")
        out[key.strip()] = value.strip()
    return out


def _int(tile: str, part: str, params: dict[str, str], key: str, default: int | None = None):
    if key not in params:
        if default is None:
            raise ValueError(f"tile {tile!r}: part {part!r} needs {key!r}")
        return default
    try:
        return int(params[key])
    except ValueError:
        raise ValueError(
            f"tile {tile!r}: part {part!r}: {key} {params[key]!r} is not a number"
        ) from None


def _flag(params: dict[str, str], key: str) -> bool:
    # 18xx.games treats any present value as true except the explicit falsy spellings
    value = params.get(key)
    return value is not None and value.lower() not in ("", "0", "false", "no")


def _stop_kw(tile: str, part: str, params: dict[str, str]) -> dict:
    groups = tuple(g for g in params.get("groups", "").split("|") if g)
    route = params.get("route", "mandatory")
    if route not in ("mandatory", "optional", "never"):
        raise ValueError(f"tile {tile!r}: part {part!r}: unknown route mode {route!r}")
    return {
        "revenue": parse_revenue(params.get("revenue", "0"), f"tile {tile!r}: part {part!r}"),
        "groups": groups,
        "hide": _flag(params, "hide"),
        "loc": params.get("loc"),
        "route": route,
        "visit_cost": _int(tile, part, params, "visit_cost", 1),
    }


def parse_tile(name: str, color: str, code: str) -> TileDef:
    """Parse an 18xx.games tile code.

    Parameters
    ----------
    name : str
        Tile name (``"57"``) or, for preprinted hexes, the coordinate; used in messages.
    color : str
        ``white``, ``yellow``, ``green``, ``brown``, ``gray``, ``red``, ``blue`` ...
    code : str
        The tile code.

    Returns
    -------
    TileDef

    Raises
    ------
    ValueError
        Naming the tile and the offending part on malformed code.
    """
    if not isinstance(code, str):
        raise ValueError(f"tile {name!r}: code must be a string, got {type(code).__name__}")
    cities: list[City] = []
    towns: list[Town] = []
    offboards: list[Offboard] = []
    nodes: list[NodeRef] = []  # the ``_n`` cache, in order of appearance
    raw_paths: list[tuple[str, dict[str, str]]] = []
    labels: list[str] = []
    upgrades: list[Upgrade] = []
    borders: list[Border] = []
    icons: list[Icon] = []
    stubs: list[int] = []
    future_label = None
    junction = False
    blocks_lay = False
    extra: dict = {}

    for part in code.split(";"):
        part = part.strip()
        if not part:
            continue
        ptype, _, body = part.partition("=")
        ptype = ptype.strip()
        if ptype == "label":
            # a label's body is the label itself (no key:value pairs)
            if not body:
                raise ValueError(f"tile {name!r}: part {part!r}: empty label")
            labels.append(body)
            continue
        params = _params(name, part, body)
        if ptype in ("city", "pass"):
            kw = _stop_kw(name, part, params)
            slots = _int(name, part, params, "slots", 1)
            if slots < 0:
                raise ValueError(f"tile {name!r}: part {part!r}: negative slots")
            cities.append(City(len(cities), slots=slots, kind=ptype, **kw))
            nodes.append(NodeRef("city", len(cities) - 1))
        elif ptype in ("town", "halt"):
            kw = _stop_kw(name, part, params)
            towns.append(Town(len(towns), kind=ptype, to_city=_flag(params, "to_city"), **kw))
            nodes.append(NodeRef("town", len(towns) - 1))
        elif ptype == "offboard":
            kw = _stop_kw(name, part, params)
            offboards.append(Offboard(len(offboards), **kw))
            nodes.append(NodeRef("offboard", len(offboards) - 1))
        elif ptype == "junction":
            if junction:
                raise ValueError(f"tile {name!r}: part {part!r}: a tile has at most one junction")
            junction = True
            nodes.append(NodeRef("junction", 0))
        elif ptype == "path":
            raw_paths.append((part, params))
        elif ptype == "upgrade":
            terrains = tuple(t for t in params.get("terrain", "").split("|") if t)
            upgrades.append(Upgrade(_int(name, part, params, "cost", 0), terrains))
        elif ptype == "border":
            edge = _int(name, part, params, "edge")
            if not 0 <= edge <= 5:
                raise ValueError(f"tile {name!r}: part {part!r}: edge {edge} is not 0-5")
            cost = _int(name, part, params, "cost", 0) if "cost" in params else None
            borders.append(Border(edge, params.get("type"), cost))
        elif ptype == "icon":
            image = params.get("image", "")
            icon_name = params.get("name") or image.rsplit("/", 1)[-1]
            if not icon_name:
                raise ValueError(f"tile {name!r}: part {part!r}: icon needs an image or name")
            blocks = _flag(params, "blocks_lay")
            blocks_lay = blocks_lay or blocks
            icons.append(Icon(image, icon_name, _flag(params, "sticky"), blocks))
        elif ptype == "stub":
            stubs.append(_int(name, part, params, "edge"))
        elif ptype == "future_label":
            future_label = (params.get("label", ""), params.get("color", ""))
        elif ptype in _COSMETIC:
            extra.setdefault(ptype, []).append(params)
        else:
            raise ValueError(f"tile {name!r}: part {part!r}: unknown part type {ptype!r}")

    paths = []
    for part, params in raw_paths:
        ends = []
        for key in ("a", "b"):
            if key not in params:
                raise ValueError(f"tile {name!r}: part {part!r} needs {key!r}")
            value = params[key]
            if value.startswith("_"):
                try:
                    ref = nodes[int(value[1:])]
                except (ValueError, IndexError):
                    raise ValueError(
                        f"tile {name!r}: part {part!r}: {key}:{value} names no node part "
                        f"(the tile has {len(nodes)})"
                    ) from None
                ends.append(ref)
            else:
                try:
                    num = int(value)
                except ValueError:
                    raise ValueError(
                        f"tile {name!r}: part {part!r}: {key}:{value} is neither an edge nor _n"
                    ) from None
                if not 0 <= num <= 5:
                    raise ValueError(f"tile {name!r}: part {part!r}: edge {num} is not 0-5")
                ends.append(Edge(num))
        if ends[0] == ends[1]:
            raise ValueError(f"tile {name!r}: part {part!r}: path joins an end to itself")
        track = params.get("track", "broad")
        # ``lanes`` only draws parallel track; for routing one path per lane pair would be
        # parallel segments between the same ends, which we keep as the lane count.
        lanes = _int(name, part, params, "lanes", 1)
        for _ in range(max(lanes, 1)):
            paths.append(Path(ends[0], ends[1], _flag(params, "terminal"), track))

    return TileDef(
        name=name,
        color=color,
        code=code,
        cities=tuple(cities),
        towns=tuple(towns),
        offboards=tuple(offboards),
        junction=junction,
        paths=tuple(paths),
        labels=tuple(labels),
        upgrades=tuple(upgrades),
        borders=tuple(borders),
        icons=tuple(icons),
        future_label=future_label,
        stubs=tuple(stubs),
        blocks_lay=blocks_lay,
        extra=extra,
    )
