"""Revenue rules of 1862 USA/Canada (Ohley) as a :class:`engine.model.title.RouteSpec` hook.

Rule mapping (rulebook ``shared/seeds/1862-usa-canada-ohley-rules.txt``):

===========================================  ==============================================
rule                                         expressed as
===========================================  ==============================================
N-train: at most N stations, all counted     ``routing.Train.n(name, N)``
E-train: may omit any station, counts N      ``routing.Train.express(name, N)``
route needs an own station marker            ``Rules.token_nodes`` = own token nodes
fully occupied station: start/end only       engine (terminal), plus the B&O marker here
both New York stations scorable              the two NY cities are distinct nodes (engine)
offboard: left value yellow/green,           engine resolves ``yellow_x|brown_y`` from the
right value brown/gray                       phase colours; checked in the tests
Mexico (K9 + K11) is one destination         one network group for both offboards
bonus route home -> bonus station            ``routing.BonusRoute(home, bonus,
                                             k * distance, per_hex=10)``, one per station
Salt Lake City +20 for CPR and UP            ``Rules.node_bonus`` when both reach it
a route may not use the same tile twice      ``Rules.hex_once``: a route never re-enters a
(except tiles with two separate stations)    hex; ``hex_once_exempt`` = hexes whose current
                                             tile has two separate stations (New York and
                                             Sacramento in yellow/green, see
                                             :func:`two_station_hexes`)
===========================================  ==============================================
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import routing
from engine.games.g1862 import data
from engine.model.title import RouteSpec, RouteView
from routing import NodeKind

__all__ = [
    "route_spec",
    "make_train",
    "bonus_multiplier",
    "home_nodes",
    "bonus_routes",
    "slc_bonus",
    "reaches",
    "two_station_hexes",
    "BO_MARKER",
]

#: Assignment ``ability`` naming the Baltimore & Ohio private's station marker (rulebook:
#: placed in Baltimore on purchase).  It is not a company token, so the position carries it
#: as ``{"hex": ..., "city": 0, "ability": "station_marker", "company": "BO"}``.
BO_MARKER = "station_marker"

#: Position ``extras`` key overriding the Salt Lake City condition ("both CPR and UP could
#: run a train to Salt Lake City"): ``true`` or ``false``.
SLC_OVERRIDE = "slc_both_connected"


# ----------------------------------------------------------------------------- trains
def make_train(name: str) -> routing.Train:
    """The routing train for an 1862 train name (``"4"``, ``"8E"``).

    Parameters
    ----------
    name : str
        A train name of ``data.TRAINS`` or one of its variants.

    Returns
    -------
    routing.Train
        ``N``: at most N stations, all counted.  ``NE``: any stations, the best N counted
        (rulebook: "E-trains ... can omit any stations").
    """
    for train in data.TRAINS:
        for spec in (train, *train.get("variants", [])):
            if spec["name"] != name:
                continue
            distance = spec["distance"]
            if isinstance(distance, list):  # E-train rows: pay N, visit without limit
                return routing.Train.express(name, int(distance[0]["pay"]))
            return routing.Train.n(name, int(distance))
    raise KeyError(f"1862: unknown train {name!r}")


# ----------------------------------------------------------------------------- helpers
def _corporation(sym: str) -> dict | None:
    """The ``data.CORPORATIONS`` entry of ``sym`` (None for an unknown symbol)."""
    return next((c for c in data.CORPORATIONS if c["sym"] == sym), None)


def bonus_multiplier(view: RouteView) -> int:
    """Dollars per hex of bonus distance in the view's phase.

    Parameters
    ----------
    view : engine.model.title.RouteView

    Returns
    -------
    int
        20 in the yellow and green phases, 30 in the brown and gray ones (the phase colour is
        the newest tile colour the phase allows).
    """
    colour = view.phase_colors[-1] if view.phase_colors else "yellow"
    return data.BONUS_PER_DISTANCE[colour]


def home_nodes(view: RouteView, sym: str) -> list[int]:
    """The home station node of ``sym`` (empty if it has none on the map).

    Parameters
    ----------
    view : engine.model.title.RouteView
    sym : str
        Corporation symbol.

    Returns
    -------
    list of int
        One city node, or none.  The brown New York and Sacramento tiles merge their two
        stations into one city, so a home city index that no longer exists falls back to
        city 0 of the hex.
    """
    corp = _corporation(sym)
    if corp is None or not corp.get("coordinates"):
        return []
    hex_, city = corp["coordinates"], int(corp.get("city", 0) or 0)
    for index in (city, 0):
        if view.has_node(hex_, "city", index):
            return [view.city_node(hex_, index)]
    return []


def _markers(view: RouteView) -> dict[int, int]:
    """City node -> number of B&O station markers in it."""
    out: dict[int, int] = {}
    for a in view.assignments(BO_MARKER):
        index = int(a.get("city", 0) or 0)
        if view.has_node(a.hex, "city", index):
            node = view.city_node(a.hex, index)
            out[node] = out.get(node, 0) + 1
    return out


def _blocked(view: RouteView, node: int, company: str, markers: dict[int, int]) -> bool:
    """Is city ``node`` entirely occupied by markers that are not ``company``'s?"""
    here = view.tokens_at(node)
    slots = view.slots_of(node)
    return (
        view.kind_of(node) == NodeKind.CITY
        and slots > 0
        and company not in here
        and len(here) + markers.get(node, 0) >= slots
    )


def reaches(
    view: RouteView, company: str, targets: Iterable[int], markers: dict[int, int] | None = None
) -> bool:
    """Could ``company`` run a route from one of its tokens to one of ``targets``?

    Parameters
    ----------
    view : engine.model.title.RouteView
    company : str
        Any company symbol (not only the operating one).
    targets : iterable of int
        Stop nodes.
    markers : dict, optional
        City node -> B&O markers in it (computed from the position when omitted).

    Returns
    -------
    bool

    Notes
    -----
    A walk over the track from the company's token cities that never passes through an
    offboard or a city other companies have filled, and never reverses at a junction (a
    junction must be left by a side other than the one it was entered by).  Walks may in
    principle revisit a node where a route could not; that over-approximation only matters
    on contrived boards.
    """
    markers = _markers(view) if markers is None else markers
    net = view.network
    targets = set(targets)
    starts = [n for n, syms in view.base.tokens.items() if company in syms]
    if not starts or not targets:
        return False
    incident: dict[int, list[int]] = {}
    for j in range(net.n_segments):
        incident.setdefault(int(net.seg_u[j]), []).append(j)
        incident.setdefault(int(net.seg_v[j]), []).append(j)

    def side(seg: int, node: int) -> int:
        return int(net.seg_side_u[seg] if int(net.seg_u[seg]) == node else net.seg_side_v[seg])

    def passable(node: int) -> bool:
        kind = view.kind_of(node)
        return kind != NodeKind.OFFBOARD and not _blocked(view, node, company, markers)

    # state: (node, side label it was entered by; None at a start)
    seen: set[tuple[int, int | None]] = set()
    queue = deque((s, None) for s in starts)
    while queue:
        node, entered = queue.popleft()
        if (node, entered) in seen:
            continue
        seen.add((node, entered))
        if node in targets:
            return True
        is_junction = view.kind_of(node) == NodeKind.JUNCTION
        if entered is not None and not is_junction and not passable(node):
            continue
        for seg in incident.get(node, ()):
            if is_junction and entered is not None and side(seg, node) == entered:
                continue
            other = int(net.seg_v[seg]) if int(net.seg_u[seg]) == node else int(net.seg_u[seg])
            queue.append((other, side(seg, other)))
    return False


# ----------------------------------------------------------------------------- rules
def bonus_routes(view: RouteView) -> list[routing.BonusRoute]:
    """One :class:`routing.BonusRoute` per bonus station of the operating company.

    Rulebook "Bonus Routes": a route from the home station to a bonus station earns
    ``k * distance - 10 * hexes run through`` (k = 20 in yellow/green, 30 in brown/gray),
    each bonus once per operating round.  Each bonus station is its own bonus (the charters
    list them one by one), so a company with several may earn several in one round.

    Parameters
    ----------
    view : engine.model.title.RouteView

    Returns
    -------
    list of routing.BonusRoute
        ``a`` = the home station, ``b`` = the bonus hex's stations, ``amount`` = k * distance,
        ``per_hex`` = 10.
    """
    corp = _corporation(view.company)
    home = home_nodes(view, view.company)
    if corp is None or not home:
        return []
    k = bonus_multiplier(view)
    out = []
    for station in corp.get("bonus_stations", []):
        targets = view.stop_nodes(station["hex"])
        if not targets:
            continue
        out.append(
            routing.BonusRoute.make(
                home,
                targets,
                amount=k * int(station["distance"]),
                per_hex=data.BONUS_PER_HEX_TRAVELLED,
                name=f"bonus {station['name']} ({station['hex']})",
            )
        )
    return out


def slc_bonus(view: RouteView, markers: dict[int, int] | None = None) -> dict[int, int]:
    """Salt Lake City node bonus for the operating company (empty when it does not apply).

    Rulebook: "The printed value of Salt Lake City is raised by 20$ for both CPR and UP if
    both companies could run a train to Salt Lake City."  "Could run a train" is read as "has
    a route from one of its tokens"; the position's ``extras["slc_both_connected"]`` overrides
    that (e.g. when the partner company has no train).

    Parameters
    ----------
    view : engine.model.title.RouteView
    markers : dict, optional
        City node -> B&O markers in it.

    Returns
    -------
    dict
        Salt Lake City node -> 20, or empty.
    """
    if view.company not in data.SLC_COMPANIES:
        return {}
    slc = view.stop_nodes(data.SLC_HEX)
    if not slc:
        return {}
    override = view.extras.get(SLC_OVERRIDE)
    if override is None:
        both = all(reaches(view, c, slc, markers) for c in data.SLC_COMPANIES)
    else:
        both = bool(override)
    return {n: data.SLC_BONUS for n in slc} if both else {}


def two_station_hexes(view: RouteView) -> list[str]:
    """Hexes whose current tile has two or more separate stations (stops).

    Rulebook "Operating Trains": a route "may not include the same tile twice, except if it
    includes two separate stations (like the yellow and green New York tile)".  On the 1862
    map those are New York (F28) and Sacramento (G3) until their brown tiles merge the two
    cities into one (``data.TWO_STATION_HEXES``).  On these tiles every track ends at a
    station, so a route entering such a hex twice always includes two separate stations and
    exempting the whole hex is exact.

    Parameters
    ----------
    view : engine.model.title.RouteView

    Returns
    -------
    list of str
        Hex names, sorted.
    """
    hexes = {view.hex_of(n) for n in range(view.network.n_nodes) if view.network.is_stop(n)}
    return sorted(h for h in hexes if len(view.stop_nodes(h)) >= 2)


def _offboard_groups(view: RouteView) -> dict[int, int]:
    """Put the hexes of one multi-hex offboard (Mexico) in one group: counted once a route."""
    out: dict[int, int] = {}
    next_id = view.network.n_groups
    for hexes in data.OFFBOARD_GROUPS.values():
        nodes = [n for h in hexes for n in view.stop_nodes(h)]
        if len(nodes) > 1:
            out.update({n: next_id for n in nodes})
            next_id += 1
    return out


def _marker_terminals(view: RouteView, markers: dict[int, int]) -> dict[int, bool]:
    """Cities the B&O marker completes for other companies: start/end only."""
    return {n: True for n in markers if _blocked(view, n, view.company, markers)}


def route_spec(view: RouteView) -> RouteSpec:
    """The 1862 hook: trains, token rule, bonus routes, Salt Lake City, Mexico, tile once.

    Parameters
    ----------
    view : engine.model.title.RouteView

    Returns
    -------
    engine.model.title.RouteSpec
    """
    markers = _markers(view)
    node_bonus = slc_bonus(view, markers)
    rules = routing.Rules.make(
        token_nodes=view.own_token_nodes,
        node_bonus=node_bonus,
        bonus_routes=bonus_routes(view),
        hex_once=True,
        hex_once_exempt=[view.network.hex_names.index(h) for h in two_station_hexes(view)],
    )
    return RouteSpec(
        trains=[make_train(name) for name in view.trains],
        rules=rules,
        terminal=_marker_terminals(view, markers),
        group=_offboard_groups(view),
        extras={
            "bonus_per_hex_distance": bonus_multiplier(view),
            "slc_bonus": max(node_bonus.values(), default=0),
        },
    )
