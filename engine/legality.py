"""Operating-round legality: what a company may lay, token and buy now.

Everything here reads a :class:`~engine.game.state.GameState` and never changes it.

.. code-block:: python

    from engine.legality import legal_tile_lays, legal_token_placements, reachable
    reach = reachable(state, "NYC")            # stops and hex edges NYC's network reaches
    for lay in legal_tile_lays(state, "NYC"):  # TileLayOption(hex, tile, rotation, cost, upgrade)
        ...
    check_tile_lay(state, "NYC", "E9", "9", 0)   # IllegalAction naming the rule, if illegal

Connectivity follows tobymao/18xx @111f7f69 (MIT) ``lib/engine/graph.rb`` ``compute`` and
``part/node.rb``/``part/path.rb`` ``walk`` (facts only): the walk starts at the company's
station tokens (every edge of a token's hex counts as reached), follows track into the
neighbouring hexes, passes a city only if it is not filled by other companies' tokens (a
blocked city, and any offboard, ends the walk but is reached), never turns back on a hex side
and crosses a tile junction from one of its paths to another.  The walk here explores every
(path, direction) once, so it reaches everything 18xx.games' depth-first walk reaches.  A
tile may go where one of its exits meets an edge the network reaches (``step/tracker.rb``
``legal_tile_rotation?``); the title's track restriction then asks upgrades to use new track
(``check_track_restrictions!``).  Title facts (tile lays per turn, costs, blocked hexes) are
in :data:`TITLE_LEGALITY`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.game.errors import IllegalAction
from engine.game.state import GameState
from engine.model.board import path_subset
from engine.model.fast_board import city_map, hex_key
from engine.model.hexgrid import opposite
from engine.model.tiles import COLOR_ORDER, TileDef
from engine.model.tiles.parse import Edge

__all__ = [
    "IllegalAction",
    "Reach",
    "TileLayOption",
    "TitleLegality",
    "TITLE_LEGALITY",
    "legality_of",
    "reachable",
    "legal_tile_lays",
    "legal_token_placements",
    "train_purchase_options",
    "check_tile_lay",
    "check_token",
    "check_train_purchase",
    "tile_lay_cost",
    "state_from_position",
]


# ---------------------------------------------------------------------------------- title facts
def _one_lay(state: GameState, sym: str, first_or: bool) -> tuple[dict, ...]:
    """One yellow lay or one upgrade per turn (1830 rules; 18xx.games ``TILE_LAYS``)."""
    return ({"lay": True, "upgrade": True},)


def _lays_1846(state: GameState, sym: str, first_or: bool) -> tuple[dict, ...]:
    """Two yellow tiles, or one yellow and one upgrade (seed: "2 gelbe oder ein gelbes und ein
    Hochrüsten"; g_1846/game.rb ``TILE_LAYS``)."""
    return ({"lay": True, "upgrade": True}, {"lay": True, "upgrade": "not_if_upgraded"})


def _lays_1842(state: GameState, sym: str, first_or: bool) -> tuple[dict, ...]:
    """1842 (rules 3.3.3, 3.2, 7.2): corporations lay two tiles in their first operating round,
    companies with a "2nd tile" marker (RE, GEE) two; never twice in one hex."""
    spec = _operator_spec(state, sym)
    second = "2nd tile" in (spec.get("activity_markers") or [])
    if (first_or and state.operator(sym).kind == "corporation") or second:
        return (
            {"lay": True, "upgrade": True},
            {"lay": True, "upgrade": True, "cannot_reuse_same_hex": True},
        )
    return _one_lay(state, sym, first_or)


def _lays_1812(state: GameState, sym: str, first_or: bool) -> tuple[dict, ...]:
    """1812 §7.3.2: a second tile operation in another hex costs £20; one may be an upgrade."""
    return (
        {"lay": True, "upgrade": True},
        {"lay": True, "upgrade": "not_if_upgraded", "cost": 20, "cannot_reuse_same_hex": True},
    )


def _lays_1862(state: GameState, sym: str, first_or: bool) -> tuple[dict, ...]:
    """1862 "Laying of track": one yellow tile in the yellow phase, later two yellow tiles or
    one upgrade."""
    if list(state.phase.get("tiles", [])) == ["yellow"]:
        return ({"lay": True, "upgrade": False},)
    return ({"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False})


@dataclass(frozen=True)
class TitleLegality:
    """Title facts the legality checks need.

    Attributes
    ----------
    track_restriction : str
        ``permissive`` (any lay reaching the network), ``semi_restrictive`` (an upgrade must
        use new track the company reaches or change a city it reaches) or ``restrictive``
        (an upgrade must use new track) - 18xx.games ``TRACK_RESTRICTION``.
    min_tile_cost : int
        Every lay costs at least this (1846 ``TILE_COST``: max($20, terrain)).
    lay_slots : callable
        ``(state, sym, first_or) -> tuple of dict``: the tile lays of one turn, in order
        (``lay``/``upgrade``: True, False or ``"not_if_upgraded"``; ``cost``: extra cost;
        ``cannot_reuse_same_hex``).
    one_depot_train_per_type : bool
        At most one train of each type from the bank per operating round (1836Jr-30).
    minors_buy_trains : bool
    exclusive_hexes : mapping
        Operator -> the only hexes it lays on; nobody else lays there (1842 HAV).
    home_ban_in_yellow : bool
        No tile on another company's home hex while only yellow tiles are out (1842 7.2.1).
    """

    track_restriction: str = "permissive"
    min_tile_cost: int = 0
    lay_slots: Callable[[GameState, str, bool], tuple[dict, ...]] = _one_lay
    one_depot_train_per_type: bool = False
    minors_buy_trains: bool = True
    exclusive_hexes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    home_ban_in_yellow: bool = False


#: Title id -> its facts.  1846: g_1846/game.rb (``TILE_LAYS``, ``TILE_COST``, default
#: ``TRACK_RESTRICTION`` = semi-restrictive, minors buy no trains: step/buy_train.rb); 1836Jr-30:
#: g_1836_jr30/game.rb (permissive, ``BuySingleTrainOfType``; seed "Purchasing Trains");
#: 1836Jr-56: g_1856 (semi-restrictive default); 1842, 1812, 1862: their rulebooks (seeds).
TITLE_LEGALITY: dict[str, TitleLegality] = {
    "1846": TitleLegality("semi_restrictive", 20, _lays_1846, minors_buy_trains=False),
    "1836Jr30": TitleLegality("permissive", one_depot_train_per_type=True),
    "1836Jr56": TitleLegality("semi_restrictive"),
    "1842": TitleLegality(
        "restrictive",
        0,
        _lays_1842,
        exclusive_hexes={"HAV": ("L10", "M9")},
        home_ban_in_yellow=True,
    ),
    "1812": TitleLegality("semi_restrictive", 0, _lays_1812),
    "1862UsaCanada": TitleLegality("permissive", 0, _lays_1862),
}


def legality_of(state: GameState) -> TitleLegality:
    """The :class:`TitleLegality` of the state's title (plain 1830 rules if it has none)."""
    return TITLE_LEGALITY.get(state.title.id, TitleLegality())


def _operator_spec(state: GameState, sym: str) -> dict:
    for ent in (*state.data.CORPORATIONS, *getattr(state.data, "MINORS", [])):
        if ent["sym"] == sym:
            return ent
    return {}


def _check_operator(state: GameState, sym: str) -> None:
    if sym not in state.operators:
        raise IllegalAction(
            f"{sym!r} is not a corporation or minor of {state.title.id} "
            f"(known: {', '.join(sorted(state.operators))})"
        )
    if state.operators[sym].closed:
        raise IllegalAction(f"{sym} has closed")


# ---------------------------------------------------------------------------------- tile index
@dataclass(frozen=True)
class _TileIndex:
    """A rotated tile's paths, indexed for the walk: ``at_edge[e]`` and ``at_node[(kind, i)]``
    list ``(path, end)`` pairs whose end ``end`` (0 = a, 1 = b) lies there."""

    ends: tuple[tuple[Any, Any], ...]
    terminal: tuple[bool, ...]
    at_edge: dict[int, tuple[tuple[int, int], ...]]
    at_node: dict[tuple[str, int], tuple[tuple[int, int], ...]]


_INDEX: dict[tuple[int, int], tuple[TileDef, _TileIndex]] = {}


def _tile_index(tile: TileDef, rotation: int) -> _TileIndex:
    key = (id(tile), rotation)
    hit = _INDEX.get(key)
    if hit is not None and hit[0] is tile:
        return hit[1]
    paths = tile.rotated_paths(rotation)
    at_edge: dict[int, list[tuple[int, int]]] = {}
    at_node: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i, p in enumerate(paths):
        for k, end in enumerate(p.ends()):
            if isinstance(end, Edge):
                at_edge.setdefault(end.num, []).append((i, k))
            else:
                at_node.setdefault((end.kind, end.index), []).append((i, k))
    index = _TileIndex(
        tuple(p.ends() for p in paths),
        tuple(p.terminal for p in paths),
        {e: tuple(v) for e, v in at_edge.items()},
        {n: tuple(v) for n, v in at_node.items()},
    )
    _INDEX[key] = (tile, index)  # the tile is kept alive, so its id is not reused
    return index


def _path_key(tile: TileDef, rotation: int) -> tuple:
    """What a rotation puts on the hex (two rotations with equal keys lay the same track)."""

    def end(e):
        return ("edge", e.num) if isinstance(e, Edge) else (e.kind, e.index)

    return tuple(
        sorted(
            (tuple(sorted((end(p.a), end(p.b)))), p.terminal, p.track)
            for p in tile.rotated_paths(rotation)
        )
    )


_ROTATIONS: dict[int, tuple[TileDef, tuple[int, ...]]] = {}


def _distinct_rotations(tile: TileDef) -> tuple[int, ...]:
    hit = _ROTATIONS.get(id(tile))
    if hit is not None and hit[0] is tile:
        return hit[1]
    seen, out = set(), []
    for r in range(6):
        key = _path_key(tile, r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    _ROTATIONS[id(tile)] = (tile, tuple(out))
    return tuple(out)


# ---------------------------------------------------------------------------------- reach
@dataclass(frozen=True)
class Reach:
    """What one company's network reaches (see the module docstring for the walk).

    Attributes
    ----------
    company : str
    stops : frozenset of (hex, kind, index)
        Cities, towns and offboards a route of the company can reach (blocked cities as an
        end).
    edges : frozenset of (hex, edge)
        Hex edges the network's track reaches; a tile may be laid on a hex where one of its
        exits is such an edge.  Every edge of a hex holding one of the company's tokens
        counts.
    paths : frozenset of (hex, path index)
        Track the network uses (path indices of the rotated tile now on the hex).
    tokens : frozenset of (hex, city)
        The company's station tokens.
    """

    company: str
    stops: frozenset[tuple[str, str, int]]
    edges: frozenset[tuple[str, int]]
    paths: frozenset[tuple[str, int]]
    tokens: frozenset[tuple[str, int]]
    _arrive: Mapping[str, frozenset[int]] = field(default_factory=dict, repr=False)
    _by_hex: Mapping[str, frozenset[int]] = field(default_factory=dict, repr=False)

    def edges_of(self, hex_: str) -> frozenset[int]:
        """Reached edges of ``hex_``."""
        return self._by_hex.get(hex_, frozenset())

    def reaches_city(self, hex_: str, city: int) -> bool:
        return (hex_, "city", city) in self.stops

    @property
    def hexes(self) -> list[str]:
        """Hexes with a reached edge, in map order."""
        return sorted(self._by_hex, key=hex_key)


def _never_blocks(state: GameState, hex_: str) -> bool:
    """Title cities whose tokens never block (1842 7.4.1: Bergedorf and Stade; Hamburg once
    tile 5028 lies, rule 3.4.2.1)."""
    data = state.data
    if hex_ in getattr(data, "NON_BLOCKING_HEXES", ()):
        return True
    if hex_ == getattr(data, "HAMBURG_HEX", None) and hex_ in state.board.laid:
        return state.board.tile(hex_).name in getattr(data, "HAMBURG_OPEN_TILES", ())
    return False


def _blocks(
    state: GameState,
    hex_: str,
    kind: str,
    index: int,
    sym: str,
    tile: TileDef,
    tokens: Mapping[tuple[str, int], list[str]],
) -> bool:
    """Does the walk stop at this node (``city.rb``/``offboard.rb`` ``blocks?``)?"""
    if kind == "offboard":
        return True
    if kind != "city":
        return False
    here = tokens.get((hex_, index), ())
    slots = tile.cities[index].slots if index < len(tile.cities) else 0
    return slots > 0 and len(here) >= slots and sym not in here and not _never_blocks(state, hex_)


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _state_key(state: GameState) -> tuple:
    laid = tuple((h, id(p.tile), p.rotation) for h, p in state.board.laid.items())
    tokens = tuple((k, tuple(v)) for k, v in state.tokens.items())
    return laid, tokens


def reachable(state: GameState, sym: str) -> Reach:
    """What ``sym``'s network reaches from its station tokens over the track laid.

    Cached per board and token layout (the cache is dropped once either changes).

    Raises
    ------
    IllegalAction
        ``sym`` is not a corporation or minor of the title.
    """
    if sym not in state.operators:
        _check_operator(state, sym)
    key = _state_key(state)
    per_state = _CACHE.get(state)
    if per_state is None or per_state[0] != key:
        per_state = (key, {})
        _CACHE[state] = per_state
    if sym not in per_state[1]:
        per_state[1][sym] = _walk(state, sym)
    return per_state[1][sym]


def _walk(state: GameState, sym: str) -> Reach:
    board = state.board
    tokens = state.tokens
    linked = board.linked_neighbour
    starts = sorted(k for k, syms in tokens.items() if sym in syms)
    stops: set[tuple[str, str, int]] = set()
    paths: set[tuple[str, int]] = set()
    edges: dict[str, set[int]] = {}
    arrive: dict[str, set[int]] = {}
    index_of: dict[str, _TileIndex] = {}
    tile_of: dict[str, TileDef] = {}

    def index(h: str) -> _TileIndex:
        ti = index_of.get(h)
        if ti is None:
            placed = board.placed(h)
            tile_of[h] = placed.tile
            ti = index_of[h] = _tile_index(placed.tile, placed.rotation)
        return ti

    stack: list[tuple] = []
    for h, c in starts:
        here = edges.setdefault(h, set())
        for e in range(6):
            if linked(h, e) is not None:
                here.add(e)
        stops.add((h, "city", c))
        stack.append((h, "city", c, -1))
    seen_paths: set[tuple[str, int, int]] = set()
    seen_nodes: set[tuple[str, str, int, int]] = set()
    while stack:
        item = stack.pop()
        if len(item) == 4:  # a node entered by path ``via`` (-1: a token)
            if item in seen_nodes:
                continue
            seen_nodes.add(item)
            h, kind, idx, via = item
            for i, k in index(h).at_node.get((kind, idx), ()):
                if i != via:
                    stack.append((h, i, 1 - k))
            continue
        if item in seen_paths:
            continue
        seen_paths.add(item)
        h, i, t = item
        ti = index(h)
        if (h, i) not in paths:
            paths.add((h, i))
            for end in ti.ends[i]:
                if isinstance(end, Edge):
                    edges.setdefault(h, set()).add(end.num)
                    nb = linked(h, end.num)
                    if nb is not None:
                        edges.setdefault(nb, set()).add(opposite(end.num))
                elif end.kind != "junction":
                    stops.add((h, end.kind, end.index))
        far = ti.ends[i][t]
        if isinstance(far, Edge):
            nb = linked(h, far.num)
            if nb is None:
                continue
            back = opposite(far.num)
            arrive.setdefault(nb, set()).add(back)
            for j, k in index(nb).at_edge.get(back, ()):
                stack.append((nb, j, 1 - k))
        elif far.kind == "junction":
            for j, k in ti.at_node.get(("junction", far.index), ()):
                if j != i:
                    stack.append((h, j, 1 - k))
        elif not ti.terminal[i] and not _blocks(
            state, h, far.kind, far.index, sym, tile_of[h], tokens
        ):
            stack.append((h, far.kind, far.index, i))
    return Reach(
        company=sym,
        stops=frozenset(stops),
        edges=frozenset((h, e) for h, es in edges.items() for e in es),
        paths=frozenset(paths),
        tokens=frozenset(starts),
        _arrive={h: frozenset(v) for h, v in arrive.items()},
        _by_hex={h: frozenset(v) for h, v in edges.items() if v},
    )


def _uses_new_track(
    state: GameState,
    sym: str,
    hex_: str,
    tile: TileDef,
    rotation: int,
    reach: Reach,
    restriction: str,
) -> bool:
    """After laying ``tile`` on ``hex_``, does ``sym`` reach new track on it (or, when
    semi-restrictive, a city whose value the lay changes)?  ``step/tracker.rb``
    ``check_track_restrictions!``.

    Only the walk inside ``hex_`` can change: it starts where the network entered the hex
    before the lay (the neighbours' track is unchanged) and at ``sym``'s tokens there.
    """
    old = state.board.placed(hex_)
    if not old.paths:
        return True
    new_paths = tile.rotated_paths(rotation)
    ti = _tile_index(tile, rotation)
    mapping = city_map(old, tile, rotation)
    tokens: dict[tuple[str, int], list[str]] = {}
    for (h, c), syms in state.tokens.items():
        if h == hex_ and mapping.get(c) is not None:
            tokens.setdefault((h, mapping[c]), []).extend(syms)
    stack: list[tuple] = []
    for e in reach._arrive.get(hex_, ()):
        for i, k in ti.at_edge.get(e, ()):
            stack.append((i, 1 - k))
    for (_h, c), syms in tokens.items():
        if sym in syms:
            stack.append(("city", c, -1))
    used: set[int] = set()
    seen: set[tuple] = set()
    while stack:
        item = stack.pop()
        if item in seen:
            continue
        seen.add(item)
        if len(item) == 3:
            kind, idx, via = item
            for i, k in ti.at_node.get((kind, idx), ()):
                if i != via:
                    stack.append((i, 1 - k))
            continue
        i, t = item
        used.add(i)
        far = ti.ends[i][t]
        if isinstance(far, Edge):
            continue
        if far.kind == "junction":
            stack.extend(
                (j, 1 - k) for j, k in ti.at_node.get(("junction", far.index), ()) if j != i
            )
        elif not ti.terminal[i] and not _blocks(
            state, hex_, far.kind, far.index, sym, tile, tokens
        ):
            stack.append((far.kind, far.index, i))
    uncovered = path_subset(new_paths, old.paths)
    for i in sorted(used):
        np_ = new_paths[i]
        if np_ in uncovered:
            return True
        if restriction == "semi_restrictive":
            op = next((p for p in old.paths if not path_subset((np_,), (p,))), None)
            if op is not None and _revenues(old.tile, op) != _revenues(tile, np_):
                return True
    return False


def _revenues(tile: TileDef, path) -> list[int]:
    out = []
    for end in path.ends():
        if not isinstance(end, Edge) and end.kind in ("city", "town", "offboard"):
            parts = {"city": tile.cities, "town": tile.towns, "offboard": tile.offboards}
            out.append(parts[end.kind][end.index].revenue.max)
    return sorted(out)


# ---------------------------------------------------------------------------------- tile lays
@dataclass(frozen=True, order=True)
class TileLayOption:
    """A legal tile lay: ``tile`` at ``rotation`` on ``hex`` for ``cost``; ``upgrade`` when it
    replaces a tile (or a printed yellow or later hex)."""

    hex: str
    tile: str
    rotation: int
    cost: int
    upgrade: bool


def _company_abilities(state: GameState, sym: str, kind: str) -> list[dict]:
    """Abilities of type ``kind`` of the private companies ``sym`` owns (open ones)."""
    out = []
    for info in state.companies.values():
        if info["owner"] == sym and not info["closed"]:
            out.extend(a for a in info["spec"].get("abilities", []) or [] if a.get("type") == kind)
    return out


def tile_lay_cost(state: GameState, sym: str, hex_: str, tile: TileDef, rotation: int) -> int:
    """What ``sym`` pays to lay ``tile`` on ``hex_`` (before a turn's extra lay fee).

    The terrain printed on the tile now there (``upgrade=cost:...``; the first tile on a
    terrain hex pays it, later upgrades are free) plus water/mountain borders the lay closes
    (a border is paid once, by the lay that joins both sides: ``tracker.rb``
    ``remove_border_calculate_cost!``), less the owned privates' ``tile_discount`` (1846
    Tunnel Blasting: $20 on mountains), at least the title's minimum (1846: $20), less the
    operator's own ``tile_lay`` discount (1846 IC: free yellow track on its icon hexes).
    """
    board = state.board
    current = board.placed(hex_)
    terrain = sum(u.cost for u in current.tile.upgrades)
    discounts = _company_abilities(state, sym, "tile_discount")
    off = sum(
        int(a.get("discount", 0))
        for a in discounts
        if not a.get("terrain") or a["terrain"] in current.tile.terrains
    )
    cost = terrain - min(terrain, off)
    cost = max(legality_of(state).min_tile_cost, cost)
    new_exits = set(tile.exits(rotation))
    old_exits = set(current.exits)
    for border in board.check_hex(hex_).printed.borders:
        if not border.cost or border.impassable or border.edge not in new_exits:
            continue
        if border.edge in old_exits:
            continue  # already joined or waiting for the neighbour (who pays then)
        nb = board.linked_neighbour(hex_, border.edge)
        if nb is None or opposite(border.edge) not in board.placed(nb).exits:
            continue
        off = max(
            (int(a.get("discount", 0)) for a in discounts if a.get("terrain") == border.type),
            default=0,
        )
        cost += border.cost - min(border.cost, off)
    for ability in _operator_spec(state, sym).get("abilities", []) or []:
        if (
            ability.get("type") == "tile_lay"
            and hex_ in ability.get("hexes", [])
            and tile.name in ability.get("tiles", [tile.name])
        ):
            cost -= min(cost, int(ability.get("discount", 0)))
    return cost


def _blocked_hex(state: GameState, sym: str, hex_: str) -> str | None:
    """Title and private-company reasons ``sym`` may not build on ``hex_`` (None if none)."""
    cfg = legality_of(state)
    for owner, hexes in cfg.exclusive_hexes.items():
        if hex_ in hexes and sym != owner:
            return f"only the {owner} lays tiles on {hex_}"
    if sym in cfg.exclusive_hexes and hex_ not in cfg.exclusive_hexes[sym]:
        return f"the {sym} lays tiles only on {', '.join(cfg.exclusive_hexes[sym])}"
    for csym, info in state.companies.items():
        if info["closed"] or info["owner"] in state.operators:
            continue
        for ability in info["spec"].get("abilities", []) or []:
            if ability.get("type") == "blocks_hexes" and hex_ in ability.get("hexes", []):
                return (
                    f"{hex_} is reserved for the private {csym} until a corporation buys it "
                    "or it closes"
                )
    exclusive = hex_ in cfg.exclusive_hexes.get(sym, ())  # (the HAV's first tile is yellow)
    yellow_only = list(state.phase.get("tiles", [])) == ["yellow"]
    if cfg.home_ban_in_yellow and not exclusive and yellow_only:
        for other, op in state.operators.items():
            if other != sym and hex_ in op.home and not op.closed:
                return f"{hex_} is {other}'s home hex and only yellow tiles are out"
    return None


def _tile_named(state: GameState, tile: str | TileDef) -> TileDef:
    if isinstance(tile, TileDef):
        return tile
    name = str(tile)
    manifest = state.board.manifest
    if name not in manifest and "-" in name:
        name = name.rsplit("-", 1)[0]  # an 18xx.games tile id "57-1"
    if name not in manifest:
        raise IllegalAction(f"tile {tile!r} is not in the {state.title.id} tile manifest")
    return manifest[name][0]


def check_tile_lay(
    state: GameState,
    sym: str,
    hex_: str,
    tile: str | TileDef,
    rotation: int,
    *,
    connect: bool = True,
) -> TileLayOption:
    """Check that ``sym`` may lay ``tile`` (a name, ``"57-1"`` id or TileDef) on ``hex_``.

    Parameters
    ----------
    connect : bool
        Require the connection to ``sym``'s network and the track restriction (default);
        False for lays a private's ability allows anywhere.

    Returns
    -------
    TileLayOption
        With the cost (:func:`tile_lay_cost`).

    Raises
    ------
    IllegalAction
        Naming the rule: a blocked or reserved hex, the colour, phase, manifest, kept track
        and labels (:meth:`GameState.tile_problems`), no connection to the network, or an
        upgrade that uses no new track.
    """
    _check_operator(state, sym)
    board = state.board
    if hex_ not in board:
        raise IllegalAction(f"hex {hex_!r} is not on the {state.title.id} map")
    tdef = _tile_named(state, tile)
    if isinstance(rotation, bool) or not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise IllegalAction(f"rotation {rotation!r} is not 0-5")
    where = f"tile {tdef.name} rotation {rotation} on {hex_}"
    why = _blocked_hex(state, sym, hex_)
    if why:
        raise IllegalAction(f"{where}: {why}")
    problems = state.tile_problems(hex_, tdef, rotation)
    if problems:
        raise IllegalAction(f"{where}: {problems[0]}")
    cfg = legality_of(state)
    if connect and sym not in cfg.exclusive_hexes:
        reach = reachable(state, sym)
        reached = reach.edges_of(hex_)
        if not set(tdef.exits(rotation)) & reached:
            raise IllegalAction(
                f"{where} does not connect to {sym}'s network (none of its exits "
                f"{sorted(tdef.exits(rotation))} meets track {sym} reaches"
                + (f"; reached edges there: {sorted(reached)})" if reached else ")")
            )
        restriction = cfg.track_restriction
        if restriction != "permissive" and not _uses_new_track(
            state, sym, hex_, tdef, rotation, reach, restriction
        ):
            rule = "new track" + (" or a changed city" if restriction == "semi_restrictive" else "")
            raise IllegalAction(
                f"{where} gives {sym} no {rule} to run on ({state.title.id} {restriction} "
                "track rule: an upgrade must add track the company can use)"
            )
    upgrade = board.color(hex_) != "white"
    return TileLayOption(
        hex_, tdef.name, rotation, tile_lay_cost(state, sym, hex_, tdef, rotation), upgrade
    )


def legal_tile_lays(
    state: GameState,
    sym: str,
    *,
    hexes: Iterable[str] | None = None,
    upgrades: bool = True,
    lays: bool = True,
) -> list[TileLayOption]:
    """Every legal tile lay and upgrade of ``sym`` now.

    Parameters
    ----------
    hexes : iterable of str, optional
        Only these hexes.
    upgrades, lays : bool
        Include upgrades (the hex has a tile or a yellow or later printed hex) / yellow lays
        on white hexes (an :class:`~engine.operating.OperatingTurn` narrows these).

    Returns
    -------
    list of TileLayOption
        Sorted by hex (map order), tile name, rotation; rotations laying the same track are
        given once (the lowest).
    """
    _check_operator(state, sym)
    board = state.board
    cfg = legality_of(state)
    exclusive = sym in cfg.exclusive_hexes
    if exclusive:
        candidates = list(cfg.exclusive_hexes[sym])
        reach = None
    else:
        reach = reachable(state, sym)
        candidates = reach.hexes
    if hexes is not None:
        wanted = set(hexes)
        for h in wanted:
            if h not in board:
                raise IllegalAction(f"hex {h!r} is not on the {state.title.id} map")
        candidates = [h for h in candidates if h in wanted]
    phase_colors = set(state.phase.get("tiles", []))
    used = board.tiles_in_use()
    by_color: dict[str, list[TileDef]] = {}
    for name, (tdef, count) in board.manifest.items():
        if tdef.color in phase_colors and used[name] < count:
            by_color.setdefault(tdef.color, []).append(tdef)
    out: list[TileLayOption] = []
    for h in sorted(candidates, key=hex_key):
        color = board.color(h)
        if color not in COLOR_ORDER[:-1]:
            continue
        upgrade = color != "white"
        if (upgrade and not upgrades) or (not upgrade and not lays):
            continue
        if _blocked_hex(state, sym, h):
            continue
        nxt = COLOR_ORDER[COLOR_ORDER.index(color) + 1]
        reached = reach.edges_of(h) if reach is not None else None
        open_edges = {e for e in range(6) if board.linked_neighbour(h, e) is not None}
        printed = board.check_hex(h).printed
        old_exits = set(board.placed(h).exits)
        # quick necessary conditions of tile_problems, unless a title hook may relax them
        quick = state.title.check_tile is None
        for tdef in by_color.get(nxt, []):
            if quick and not _may_replace(printed, tdef):
                continue
            for r in _distinct_rotations(tdef):
                exits = set(tdef.exits(r))
                if quick and not (exits <= open_edges and old_exits <= exits):
                    continue
                if reached is not None and not exits & reached:
                    continue
                if state.tile_problems(h, tdef, r):
                    continue
                if (
                    reach is not None
                    and cfg.track_restriction != "permissive"
                    and not _uses_new_track(state, sym, h, tdef, r, reach, cfg.track_restriction)
                ):
                    continue
                cost = tile_lay_cost(state, sym, h, tdef, r)
                out.append(TileLayOption(h, tdef.name, r, cost, upgrade))
    out.sort(key=lambda o: (hex_key(o.hex), _name_key(o.tile), o.rotation))
    return out


def _may_replace(printed: TileDef, tile: TileDef) -> bool:
    """Quick necessary part of ``Board.upgrade_problems``: towns and (unlabelled) cities as
    printed, and the printed label unless a future label may change it."""
    if len(printed.towns) != len(tile.towns) and not any(t.to_city for t in printed.towns):
        return False
    if not printed.label and len(printed.cities) != len(tile.cities):
        return False
    return bool(printed.future_label) or printed.label == tile.label


def _name_key(name: str) -> tuple:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


# ---------------------------------------------------------------------------------- tokens
# Token and train rules live with the operating turn (engine.operating); these entry points
# keep the whole legality API importable from here.
def check_token(state: GameState, sym: str, hex_: str, city: int):
    """Check a station token; see :func:`engine.operating.check_token`."""
    from engine.operating import check_token as check

    return check(state, sym, hex_, city)


def legal_token_placements(state: GameState, sym: str):
    """Every legal station token of ``sym``; see
    :func:`engine.operating.legal_token_placements`."""
    from engine.operating import legal_token_placements as options

    return options(state, sym)


# ---------------------------------------------------------------------------------- trains
def train_purchase_options(state: GameState, sym: str, *, bought_types: Iterable[str] = ()):
    """Trains and variants ``sym`` may buy now: a list of :class:`TrainOption`.

    See :func:`engine.operating.purchase_options` (the purchase rules live with the turn).
    """
    from engine.operating import purchase_options

    return purchase_options(state, sym, bought_types=bought_types)


def state_from_position(position, **kwargs) -> GameState:
    """Engine state of a position file; see :func:`engine.operating.state_from_position`."""
    from engine.operating import state_from_position as load

    return load(position, **kwargs)


def check_train_purchase(
    state: GameState,
    sym: str,
    train: str,
    variant: str | None = None,
    exchange: str | None = None,
    *,
    bought_types: Iterable[str] = (),
):
    """Check a train purchase; see :func:`engine.operating.check_purchase`."""
    from engine.operating import check_purchase

    return check_purchase(state, sym, train, variant, exchange, bought_types=bought_types)
