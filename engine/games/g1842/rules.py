"""Revenue rules of 1842 Hamburg/Schleswig-Holstein as a :class:`engine.model.title.RouteSpec` hook.

The map these rules run on is RECONSTRUCTED (see :mod:`.data`); the rules themselves are the
rulebook's (``shared/seeds/1842-schleswig-holstein-rules.txt``, section numbers as printed).

=============================================  ===============================================
rule                                           expressed as
=============================================  ===============================================
N-train: N towns/cities, none skipped (7.4.1)  ``routing.Train`` with one row, N stops, all
                                               counted (``view.default_trains()``)
at least two revenue hexes (7.4.1)             ``Train.min_stops == 2`` (see note 1)
a route includes an own station (7.4.1)        ``Rules.token_nodes`` = own token nodes
one route includes the home station (1, 7.4.1) ``Rules.must_visit`` = the home city node
blocked city: start or end only (7.4.1)        engine (a city full of other tokens is
                                               terminal); a single token in a two-station
                                               city leaves a slot, so it does not block
Bergedorf, Stade never block (7.4.1, 11.2.1)   ``RouteSpec.terminal[node] = False``
5028: everyone runs through Hamburg (3.4.2.1)  ``RouteSpec.terminal[node] = False`` for both
                                               Hamburg stations while 5028 lies
Hamburg never twice on a route (7.4.1)         network group ``Hamburg`` (tile code
                                               ``groups:``), route scope
Dänemark's two places: one destination         network group ``Daenemark`` (see note 2)
offboards / Dänemark terminal                  engine (offboards) / ``terminal:1`` paths
two values: the higher with an own station     ``Rules.node_bonus[node] = high - low`` for
(7.4.2; Bergedorf and Stade too)               own-token nodes of two-value hexes/tiles
North Sea + Baltic coastal town: +30 (7.4.2)   ``routing.SetPairBonus(north, baltic, 30,
                                               counted=False)``: "contains" = visited (every
                                               visited stop is counted anyway); no end
                                               condition ("muss nicht": need not end there)
GEE "1 train runs 2x" (3.2.1)                  ``Train.runs = 2`` on the train the position
                                               names: ``extras {"gee_runs_twice": "3"}``
HAV +10 per route with a Hamburg station       :func:`hav_income` / :func:`report` from the
(3.4.2.2)                                      solution's routes (not part of the revenue)
=============================================  ===============================================

Notes
-----
1. The rulebook asks for two revenue *hexes*; two stops of one hex on one route (the two towns
   of a double-town hex) would satisfy ``min_stops`` but not the rule.  Such a route needs a
   stop-free loop out of the hex and back; the routing vocabulary cannot forbid it.
2. The rulebook counts Dänemark's two places as different hexes for station tokens only; we
   read the pair as one city for routes, like Hamburg's stations (an interpretation).
"""

from __future__ import annotations

from collections.abc import Iterable

import routing
from engine.games.g1842 import data
from engine.model.title import RouteSpec, RouteView
from routing import NodeKind

__all__ = [
    "route_spec",
    "make_trains",
    "home_node",
    "two_value_bonus",
    "port_nodes",
    "hamburg_nodes",
    "hav_routes",
    "hav_income",
    "report",
    "check_position",
]


# ----------------------------------------------------------------------------- helpers
def _entity(sym: str) -> dict | None:
    for ent in (*data.CORPORATIONS, *data.MINORS):
        if ent["sym"] == sym:
            return ent
    return None


def _city_nodes(view: RouteView, hexes: Iterable[str]) -> list[int]:
    return [n for h in hexes for n in view.stop_nodes(h) if view.kind_of(n) == NodeKind.CITY]


def hamburg_nodes(view: RouteView) -> list[int]:
    """The Hamburg station nodes (cities of L10)."""
    return _city_nodes(view, (data.HAMBURG_HEX,))


def home_node(view: RouteView, sym: str | None = None) -> int | None:
    """The home station node of ``sym`` (default: the operating company), or ``None``.

    Corporations start on their home hex (3.3.2); SE and HMBG replace their predecessor's
    station with their home token (3.2, step 4), so the predecessor's base is their home;
    private and predecessor railways have their single station on their base hex (7.3).
    """
    ent = _entity(sym or view.company)
    if ent is None or not ent.get("coordinates"):
        return None
    hex_, city = ent["coordinates"], int(ent.get("city", 0) or 0)
    if not view.has_node(hex_, "city", city):
        return None
    return view.city_node(hex_, city)


def _two_values(view: RouteView, hex_: str) -> list[tuple[int, int]] | None:
    """(low, high) per city of ``hex_`` as it is now, or ``None`` for a one-value hex."""
    if hex_ in view.board.laid:
        return data.TWO_VALUE_TILES.get(view.tile_name(hex_))
    return data.TWO_VALUE_HEXES.get(hex_)


def two_value_bonus(view: RouteView) -> dict[int, int]:
    """Node bonus ``high - low`` for the operating company's own-token two-value cities.

    Rulebook 7.4.2: "The higher value is taken into account, when the company has a station
    there.  For all other companies the lower value is valid."  The base network carries the
    low value (the tile's revenue), so the difference is the company's bonus.
    """
    bonus: dict[int, int] = {}
    for node in view.own_token_nodes:
        values = _two_values(view, view.hex_of(node))
        index = view.info(node).index
        if not values or index >= len(values):
            continue
        low, high = values[index]
        extra = high - int(view.network.node_value[node])
        if extra > 0:
            bonus[node] = extra
    return bonus


def port_nodes(view: RouteView) -> tuple[list[int], list[int]]:
    """Stop nodes of the North Sea and of the Baltic coastal towns (7.4.2)."""
    north = [n for h in data.NORTH_SEA_PORTS for n in view.stop_nodes(h)]
    baltic = [n for h in data.BALTIC_PORTS for n in view.stop_nodes(h)]
    return north, baltic


def make_trains(view: RouteView) -> list[routing.Train]:
    """The company's trains; the GEE's marker makes one of them run twice (3.2.1).

    The position names the train in ``extras["gee_runs_twice"]`` (a train name the GEE owns);
    the first train of that name gets ``runs=2``.  Which train to double is the player's
    choice; to find the best one, solve once per distinct train name.

    Raises
    ------
    ValueError
        If a company other than the GEE uses the marker or the named train is not owned.
    """
    trains = view.default_trains()
    name = view.extras.get(data.GEE_RUNS_TWICE)
    if name in (None, False, ""):
        return trains
    if view.company != data.GEE:
        raise ValueError(
            f"1842: extras.{data.GEE_RUNS_TWICE} is the GEE's marker, but the operating "
            f"company is {view.company}"
        )
    for i, train in enumerate(trains):
        if train.name == str(name):
            trains[i] = train.with_(runs=2)
            return trains
    raise ValueError(
        f"1842: extras.{data.GEE_RUNS_TWICE} names train {name!r}, which the GEE does not "
        f"own (trains: {[t.name for t in trains]})"
    )


# ----------------------------------------------------------------------------- the hook
def route_spec(view: RouteView) -> RouteSpec:
    """Trains, tokens, home station, two-value cities, port bonus and blocking for 1842."""
    terminal: dict[int, bool] = {}
    # 7.4.1 / 11.2.1: the stations of Bergedorf and Stade stand beside the track.
    for node in _city_nodes(view, data.NON_BLOCKING_HEXES):
        terminal[node] = False
    # 3.4.2.1: with 5028 on Hamburg "all Corporations may run their trains through Hamburg".
    if data.HAMBURG_HEX in view.board.laid and view.tile_name(data.HAMBURG_HEX) in (
        data.HAMBURG_OPEN_TILES
    ):
        for node in hamburg_nodes(view):
            terminal[node] = False

    north, baltic = port_nodes(view)
    set_pairs = []
    if north and baltic:
        set_pairs.append(
            routing.SetPairBonus.make(
                north, baltic, data.PORT_BONUS, name="north-sea-baltic", counted=False
            )
        )
    home = home_node(view)
    rules = routing.Rules.make(
        token_nodes=view.own_token_nodes,
        node_bonus=two_value_bonus(view),
        set_pair_bonuses=set_pairs,
        must_visit=() if home is None else (home,),
    )
    return RouteSpec(trains=make_trains(view), rules=rules, terminal=terminal)


# ----------------------------------------------------------------------------- HAV income
def hav_routes(view: RouteView, solution: routing.Solution, problem=None) -> int:
    """Routes of ``solution`` that include a Hamburg station, a twice-run train counting twice.

    Rulebook 3.4.2.2: "For each route the HAV receives 10 Mark"; the GEE's second run is a
    second route (our reading).
    """
    hamburg = set(hamburg_nodes(view))
    trains = problem.trains if problem is not None else view.spec.trains if view.spec else ()
    count = 0
    for route in solution.routes:
        if hamburg.intersection(route.nodes):
            runs = trains[route.train].runs if route.train < len(trains) else 1
            count += runs
    return count


def hav_income(view: RouteView, solution: routing.Solution, problem=None) -> int:
    """What the HAV earns from this company's routes: 10 M per route through Hamburg.

    Reported beside the revenue, never added to it (the HAV is a separate company).  The
    HAV does not earn from its own routes (it has no trains, 3.4).
    """
    if view.company == "HAV":
        return 0
    return data.HAV_PER_ROUTE * hav_routes(view, solution, problem)


def report(view: RouteView, solution: routing.Solution, problem=None) -> dict[str, int]:
    """Figures to show beside the revenue: ``{"hav_routes": n, "hav_income": 10 n}``.

    The engine's :class:`~engine.model.title.RouteSpec` ``extras`` are fixed before solving; these
    depend on the routes, so callers compute them from the solution with this function.
    """
    n = 0 if view.company == "HAV" else hav_routes(view, solution, problem)
    return {"hav_routes": n, "hav_income": data.HAV_PER_ROUTE * n}


# ----------------------------------------------------------------------------- position checks
def check_position(position, board) -> None:
    """1842 position checks beyond the engine's (``Title.check_position`` extension).

    - The HAV has no station tokens (3.4); it does not operate trains either.
    - 5028's grey HAV station space takes no corporation token (3.4.2.1).
    - Only the GEE has the "1 train runs 2x" marker (3.2.1).

    Raises
    ------
    ValueError
        Naming the offending item.
    """
    for i, tok in enumerate(position.tokens):
        if tok.company == "HAV":
            raise ValueError(f"tokens[{i}]: the HAV has no station tokens (rule 3.4)")
    if data.HAMBURG_HEX in board.laid:
        name = board.tile(data.HAMBURG_HEX).name
        if name in data.HAV_SLOTS:
            city, _slot = data.HAV_SLOTS[name]
            here = [t for t in position.tokens if (t.hex, t.city) == (data.HAMBURG_HEX, city)]
            usable = board.city_slots(data.HAMBURG_HEX, city) - 1
            if len(here) > usable:
                raise ValueError(
                    f"tokens: {data.HAMBURG_HEX} city {city} has {len(here)} tokens but tile "
                    f"{name} leaves {usable} slot(s) besides the HAV's (rule 3.4.2.1)"
                )
    if position.extras.get(data.GEE_RUNS_TWICE) and position.company != data.GEE:
        raise ValueError(
            f"extras.{data.GEE_RUNS_TWICE}: only the GEE has this marker, not {position.company}"
        )
    if position.company == "HAV" and position.trains:
        raise ValueError("trains: the HAV owns no trains (rule 3.4)")
