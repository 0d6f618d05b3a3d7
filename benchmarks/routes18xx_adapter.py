"""Run an 1846 position through the ``routes-18xx`` package (the baseline peer).

``routes-18xx`` (PyPI ``routes-18xx==0.9.2``, github Auzzy/18xx-routes) reads three
semicolon-separated files (see ``routes18xx/find_best_routes.py``):

* board state: ``coord; tile_id; orientation`` per laid tile;
* railroads: ``name; trains; stations`` -- full railroad names (``railroads.json``), trains as
  ``2,3/5,4/6``, extra stations as ``E11,D6:E7`` (a Chicago station names its branch by the
  neighbouring hex of its entrance); every listed railroad's home station is placed for it;
* private companies: ``name; owner; coord`` (Steamboat, Meat Packing, Mail Contract, and the
  Big 4 / Michigan Southern minors, whose home tokens it places for unowned minors before
  phase 3).

:func:`write_inputs` translates one of our positions into those files and :func:`solve`
runs the package's own loaders and ``find_best_routes`` on them.  Translations:

* **Orientation.**  routes-18xx's tile database draws most tiles turned against 18xx.games
  (our ``8`` joins edges 0-2, theirs 2-4).  :func:`orientation_offset` finds, per tile, the
  turn that maps their edges onto ours, so ``their orientation = (ours + offset) % 6``.
* **Phase.**  routes-18xx derives the phase from the trains of every listed railroad; a
  position lists only the operating company's trains, so :func:`solve` pins the phase
  (I-IV -> 1-4) on the loaded ``Game`` instead.  Nothing else in the package is touched.
* **Not expressible** (:class:`NotApplicableError`): a minor operating (routes-18xx runs only the
  seven corporations), a position of the 2-player variant (its package data has the 1846
  and 1889 base games only), a Boomtown assignment (2nd edition private, unknown to
  0.9.2), a minor's token after phase II.
* **Removed corporations** (3-4 players): 18xx.games leaves their home tokens but drops their
  reservations; the extractor records them in ``extras["removed_corporations"]`` and they are
  listed as ``removed`` (routes-18xx then places the home station and skips the reservation).

Its search enumerates every route per train and combines them with a ``multiprocessing`` pool
of ``os.cpu_count()`` processes; the time we report includes that pool, as a user would see.
"""

from __future__ import annotations

import functools
import json
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from routes18xx import boardstate, railroads
from routes18xx.find_best_routes import find_best_routes
from routes18xx.game import Game

from engine.games import get_title, load_position
from engine.model.board import Board
from engine.model.position import Position
from engine.model.tiles.parse import Edge, NodeRef

__all__ = [
    "NotApplicableError",
    "Routes18xxResult",
    "orientation_offset",
    "translate",
    "write_inputs",
    "solve",
]

RAILROAD_NAMES = {
    "B&O": "Baltimore & Ohio",
    "IC": "Illinois Central",
    "NYC": "New York Central",
    "C&O": "Chesapeake & Ohio",
    "ERIE": "Erie",
    "GT": "Grand Trunk",
    "PRR": "Pennsylvania",
}
MINOR_NAMES = {"BIG4": "Big 4", "MS": "Michigan Southern"}
PRIVATE_NAMES = {"SC": "Steamboat Company", "MPC": "Meat Packing Company"}
ABILITY_PRIVATE = {
    "steamboat": "SC",
    "port": "SC",
    "sc": "SC",
    "meat_packing": "MPC",
    "meat": "MPC",
    "mpc": "MPC",
}
PHASES = {"I": "1", "II": "2", "III": "3", "IV": "4"}


class NotApplicableError(ValueError):
    """The position uses something routes-18xx 0.9.2 cannot express."""


@dataclass
class Routes18xxResult:
    """routes-18xx's answer: its total, the seconds it took, and per route ``train`` (its
    name, e.g. ``7 / 8``), ``hexes`` (every hex it passes, in order), ``value`` and ``stops``
    (the hexes of its stops, in order)."""

    total: int
    seconds: float
    routes: list[dict] = field(default_factory=list)


@functools.lru_cache(maxsize=1)
def _their_tiles() -> dict:
    return json.loads(Path(Game.get_global_game_data_file("tiles-db.json")).read_text())


@functools.lru_cache(maxsize=1)
def _our_board() -> Board:
    return Board.from_data(get_title("1846").data)


def _our_connections(name: str) -> set[frozenset[int]]:
    """Pairs of edges one piece of track (through its city, if any) joins on our tile."""
    tile = _our_board().manifest_tile(name)
    direct: set[frozenset[int]] = set()
    city_edges: dict[int, set[int]] = {}
    for path in tile.paths:
        a, b = path.ends()
        if isinstance(a, Edge) and isinstance(b, Edge):
            direct.add(frozenset((a.num, b.num)))
        for x, y in ((a, b), (b, a)):
            if isinstance(x, NodeRef) and isinstance(y, Edge):
                city_edges.setdefault(x.index, set()).add(y.num)
    out = set(direct)
    for edges in city_edges.values():
        out |= {frozenset(p) for p in _pairs(sorted(edges))}
        out |= {frozenset((e,)) for e in edges}
    return out


def _pairs(items):
    return [(a, b) for i, a in enumerate(items) for b in items[i + 1 :]]


def _their_connections(entry: dict, turn: int = 0) -> set[frozenset[int]]:
    out = set()
    for group in entry["edges"]:
        group = [group] if isinstance(group, int) else group
        edges = sorted((e + turn) % 6 for e in group)
        out |= {frozenset(p) for p in _pairs(edges)}
        if entry.get("is_city"):
            out |= {frozenset((e,)) for e in edges}
    return out


@functools.cache
def orientation_offset(name: str) -> int:
    """``k`` with their tile turned by ``k`` equal to ours unturned (smallest ``k``)."""
    entry = _their_tiles().get(name)
    if entry is None:
        raise NotApplicableError(f"routes-18xx has no tile {name!r}")
    ours = _our_connections(name)
    for k in range(6):
        if _their_connections(entry, k) == ours:
            return k
    raise NotApplicableError(f"tile {name!r} differs between routes-18xx and us")


def _neighbour(hex_: str, edge: int) -> str:
    """18xx.games pointy neighbour of a letter/number coordinate (routes-18xx ``Cell``)."""
    row, col = hex_[0], int(hex_[1:])
    dr, dc = ((1, -1), (0, -2), (-1, -1), (-1, 1), (0, 2), (1, 1))[edge]
    return f"{chr(ord(row) + dr)}{col + dc}"


def _chicago_branch(position: Position, city: int) -> str:
    """The neighbour hex that names a Chicago city's branch (its own entrance)."""
    lay = next((t for t in position.tiles if t.hex == "D6"), None)
    board = _our_board()
    tile = board.manifest_tile(lay.tile) if lay else board.check_hex("D6").printed
    rotation = lay.rotation if lay else 0
    shared = None
    per_city: dict[int, set[int]] = {}
    for path in tile.rotated_paths(rotation):
        a, b = path.ends()
        for x, y in ((a, b), (b, a)):
            if isinstance(x, NodeRef) and x.kind == "city" and isinstance(y, Edge):
                per_city.setdefault(x.index, set()).add(y.num)
    if len(per_city) > 1:
        shared = set.intersection(*per_city.values())
    own = per_city[city] - (shared or set())
    if len(own) != 1:
        raise NotApplicableError(f"Chicago city {city} has no single own entrance")
    return _neighbour("D6", own.pop())


@dataclass
class Inputs:
    board: list[tuple[str, str, int]]
    railroads: list[tuple[str, str, str]]
    privates: list[tuple[str, str, str]]
    phase: str
    railroad: str


def translate(position: Position | str | dict) -> Inputs:
    """Our 1846 position as routes-18xx rows (raises :class:`NotApplicableError`)."""
    if not isinstance(position, Position):
        position = load_position(position)
    if position.title.replace("-", "").lower() != "1846":
        raise NotApplicableError(f"routes-18xx here covers 1846 only, not {position.title}")
    if "two_player" in (position.extras.get("optional_rules") or ()):
        raise NotApplicableError("the 2-player variant: routes-18xx 0.9.2 has the base game only")
    if position.company not in RAILROAD_NAMES:
        raise NotApplicableError(
            f"{position.company} is a minor; routes-18xx runs corporations only"
        )
    phase = PHASES[position.phase]
    board = [(t.hex, t.tile, (t.rotation + orientation_offset(t.tile)) % 6) for t in position.tiles]

    homes = {c["sym"]: c["coordinates"] for c in get_title("1846").data.CORPORATIONS}
    stations: dict[str, list[str]] = {}
    privates: list[tuple[str, str, str]] = []
    for token in position.tokens:
        if token.company in MINOR_NAMES:
            if phase >= "3" or token.hex != {"BIG4": "G9", "MS": "C15"}[token.company]:
                raise NotApplicableError(f"minor token {token.company} on {token.hex}")
            privates.append((MINOR_NAMES[token.company], "", ""))
            continue
        entry = token.hex
        if token.hex == "D6":
            entry = f"D6:{_chicago_branch(position, token.city)}"
        lst = stations.setdefault(token.company, [])
        if token.hex != homes[token.company]:
            lst.append(entry)
    stations.setdefault(position.company, [])
    removed = set(position.extras.get("removed_corporations", []))
    if position.company in removed:
        raise NotApplicableError(f"{position.company} was removed from this game")

    def trains_of(sym: str) -> str:
        if sym == position.company:
            return ",".join(position.trains)
        return "removed" if sym in removed else ""

    railroads = [
        (RAILROAD_NAMES[sym], trains_of(sym), ",".join(lst))
        for sym, lst in sorted(stations.items())
    ]
    for a in position.assignments:
        sym = ABILITY_PRIVATE.get(a.ability.lower())
        if sym is None:
            if a.company == position.company:
                raise NotApplicableError(f"routes-18xx has no {a.ability} private")
            continue
        if a.company not in RAILROAD_NAMES:
            continue  # assigned to a minor: no effect on a corporation's revenue
        if a.company not in stations:
            railroads.append((RAILROAD_NAMES[a.company], "", ""))
            stations[a.company] = []
        privates.append((PRIVATE_NAMES[sym], RAILROAD_NAMES[a.company], a.hex))
    if "MAIL" in position.owned_companies:
        privates.append(("Mail Contract", RAILROAD_NAMES[position.company], ""))
    return Inputs(board, railroads, privates, phase, RAILROAD_NAMES[position.company])


def _csv(rows) -> str:
    return "".join("; ".join(str(x) for x in row) + "\n" for row in rows)


def write_inputs(position, directory: str | Path) -> dict[str, Path]:
    """Write the three routes-18xx input files; return their paths (and the railroad)."""
    inputs = translate(position)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "board": directory / "board-state.csv",
        "railroads": directory / "railroads.csv",
        "privates": directory / "private-companies.csv",
    }
    paths["board"].write_text(_csv(inputs.board))
    paths["railroads"].write_text(_csv(inputs.railroads))
    paths["privates"].write_text(_csv(inputs.privates))
    (directory / "meta.json").write_text(
        json.dumps({"railroad": inputs.railroad, "phase": inputs.phase}) + "\n"
    )
    return paths


class PinnedPhaseGame(Game):
    """routes-18xx's ``Game`` whose phase is the position's, not its trains' maximum."""

    pinned_phase = "1"

    def detect_phase(self, railroads):
        return self.pinned_phase


def solve_files(directory: str | Path) -> Routes18xxResult:
    """Run routes-18xx on files written by :func:`write_inputs` (phase pinned)."""
    directory = Path(directory)
    meta = json.loads((directory / "meta.json").read_text())
    t0 = time.perf_counter()
    game = Game.load("1846")
    game.__class__ = PinnedPhaseGame  # see module docstring: the phase is pinned
    game.pinned_phase = meta["phase"]
    try:
        board = boardstate.load_from_csv(game, directory / "board-state.csv")
        in_play = railroads.load_from_csv(game, board, directory / "railroads.csv")
        game.capture_phase(in_play)
        privates = game.get_game_submodule("private_companies")
        privates.load_from_csv(game, board, in_play, directory / "private-companies.csv")
        board.validate()
    except ValueError as exc:
        raise NotApplicableError(f"routes-18xx rejects the position: {exc}") from exc
    best = find_best_routes(game, board, in_play, in_play[meta["railroad"]])
    seconds = time.perf_counter() - t0
    routes = [
        {"train": str(r.train), "hexes": str(r), "value": int(r.value),
         "stops": [str(tile.cell) for tile in r.stops]}
        for r in best
    ]  # fmt: skip
    return Routes18xxResult(int(best.value), seconds, routes)


def solve(position) -> Routes18xxResult:
    """Translate, write and run one position through routes-18xx."""
    with tempfile.TemporaryDirectory(prefix="routes18xx-") as tmp:
        write_inputs(position, tmp)
        return solve_files(tmp)


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description="Run a position through routes-18xx")
    ap.add_argument("position")
    ap.add_argument("--write", type=Path, help="also keep the input files in this folder")
    args = ap.parse_args(argv)
    if args.write:
        write_inputs(args.position, args.write)
    result = solve(args.position)
    for r in result.routes:
        print(f"{r['train']:>6}  {r['value']:>4}  {r['hexes']}")
    print(f"total {result.total}  time {result.seconds:.2f} s")


if __name__ == "__main__":
    main()
