"""1846 revenue rules as a :class:`engine.model.title.RouteSpec` hook.

Every rule maps onto the routing vocabulary (docs/ROUTING.md); the 18xx.games source each
mapping follows is tobymao/18xx @111f7f69 ``lib/engine/game/g_1846/game.rb`` (``revenue_for``,
``east_west_bonus``, ``event_remove_bonuses!``), ``lib/engine/route.rb`` (groups, token) and
``lib/engine/game/base.rb`` (``compute_stops``, ``check_distance``).

=====================  ==================================================================
Rule                   Routing vocabulary
=====================  ==================================================================
token                  ``Rules.token_nodes`` = the company's token cities
Chicago once a route   one network group over D6's four cities (scope "route")
no East-East           ``forbidden_end_pairs`` (East, East); group ``E`` also does it
no West-West           ``forbidden_end_pairs`` (West, West), per the German summary
East-West bonus        ``EndPairBonus(East, West, counted=True)``, icon amounts
N and N/M trains       ``train_from_data`` rows: N = all stops, N/M = best N of M
Meat Packing           ``node_bonus`` +30 on the assigned hex's stops (D6 cities or I1)
Steamboat              ``node_bonus`` +20 per port icon of the assigned hex
Boomtown               ``node_bonus`` +20 on Cincinnati (H12)
Mail Contract          ``LongestRouteBonus(10)`` over every visited stop
N/M token counted      ``Rules.token_counted`` (``data.TOKEN_MUST_BE_COUNTED``): an N/M
                       train must count a token city, not just visit one (base.rb
                       ``compute_stops``); N trains count every stop, so it is a no-op there
=====================  ==================================================================
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

import routing
from engine.games.g1846 import data as facts
from engine.model.title import RouteSpec, RouteView
from routing import NodeKind, kind_mask

__all__ = ["route_spec", "check_position", "ASSIGNMENT_ABILITIES"]

#: Every stop kind: the Mail Contract pays for each visited stop, counted or not
#: (game.rb ``revenue_for`` multiplies ``route.visited_stops.size``).
ALL_STOPS = kind_mask(NodeKind.CITY, NodeKind.TOWN, NodeKind.OFFBOARD, NodeKind.PORT, NodeKind.MINE)

#: The kinds the hook compares node by node (an enum member's lookup costs a call).
_CITY, _OFFBOARD = NodeKind.CITY, NodeKind.OFFBOARD

#: Position ``assignments[].ability`` spellings -> private company symbol.
ASSIGNMENT_ABILITIES = {
    "meat_packing": "MPC",
    "meat": "MPC",
    "mpc": "MPC",
    "steamboat": "SC",
    "port": "SC",
    "sc": "SC",
    "boomtown": "BT",
    "boom": "BT",
    "bt": "BT",
}

#: Hexes each assignable private may be placed on (entities.rb ``assign_hexes``).
ASSIGNABLE_HEXES = {
    "MPC": frozenset(facts.MEAT_HEXES),
    "SC": frozenset(facts.STEAMBOAT_PORTS),
    "BT": frozenset(facts.BOOMTOWN_HEXES),
}


def assignment_bonus(sym: str, hex_: str, data: ModuleType = facts) -> int:
    """Revenue an assigned private adds to a counted stop on ``hex_``.

    Steamboat pays per port icon on the hex (game.rb multiplies by the port icon count), so
    Wheeling and Holland, which show two, are worth $40 and the others $20.
    """
    if sym == "MPC":
        return int(data.MEAT_BONUS)
    if sym == "SC":
        return int(data.STEAMBOAT_PER_PORT) * int(data.STEAMBOAT_PORTS.get(hex_, 0))
    if sym == "BT":
        return int(data.BOOMTOWN_BONUS)
    raise KeyError(sym)


def _ability_sym(ability: str) -> str | None:
    return ASSIGNMENT_ABILITIES.get(ability.strip().lower())


def _offboards(view: RouteView, amounts: dict[str, int]) -> dict[int, int]:
    """Offboard node -> amount for the hexes of ``amounts`` present in the network."""
    out: dict[int, int] = {}
    for hex_, amount in amounts.items():
        for node in view.stop_nodes(hex_):
            if view.kind_of(node) == _OFFBOARD:
                out[node] = int(amount)
    return out


def _chicago_group(view: RouteView, cities: Iterable[int]) -> dict[int, int]:
    """One group over Chicago's cities.

    18xx.games copies ``groups:Chicago`` from the printed cities onto every upgrade
    (hex.rb ``lay``); the engine's board does not, so the hook sets the group itself,
    reusing the printed group's id when the yellow tile is still down.
    """
    cities = list(cities)
    if not cities:
        return {}
    gid = view.base.group_ids.get("Chicago")
    if gid is None:
        gid = view.network.n_groups
    return {n: gid for n in cities}


def route_spec(view: RouteView) -> RouteSpec:
    """The 1846 :class:`RouteSpec` of ``view``'s operating company.

    Parameters
    ----------
    view : engine.model.title.RouteView

    Returns
    -------
    engine.model.title.RouteSpec
    """
    data = view.data

    # Chicago: at most one of D6's four cities per route (route.rb "Cannot use group ...").
    chicago = [n for n in view.stop_nodes(data.CHICAGO_HEX) if view.kind_of(n) == _CITY]
    group = _chicago_group(view, chicago)

    # East/West: 18xx.games takes East = offboards of group E, West = offboards labelled W;
    # the bonus is the sum of the two numeric icons, both stops counted (rules 6.65 note).
    east = _offboards(view, data.EAST_BONUS)
    west = _offboards(view, data.WEST_BONUS)
    forbidden = []
    end_pairs = []
    if east:
        forbidden.append((east.keys(), east.keys()))
    if west and data.ALLOW_WEST_WEST not in view.position.options:
        forbidden.append((west.keys(), west.keys()))
    if east and west:
        end_pairs.append(routing.EndPairBonus.make(east, west, name="east-west", counted=True))

    # Meat Packing, Steamboat, Boomtown: +bonus on a counted stop of the assigned hex, for
    # the assigned company only; the first 6-train (phase IV) removes them all.
    node_bonus: dict[int, int] = {}
    if str(view.phase["name"]) != str(data.ASSIGNMENT_BONUS_REMOVED_IN):
        for a in view.assignments():
            sym = _ability_sym(a.ability)
            if sym is None or a.company != view.company:
                continue
            amount = assignment_bonus(sym, a.hex, data)
            for node in view.stop_nodes(a.hex):
                node_bonus[node] = node_bonus.get(node, 0) + amount

    # Mail Contract: $10 per stop visited by the company's route with most stops.
    longest = []
    if data.MAIL_CONTRACT in view.owned_companies:
        longest.append(
            routing.LongestRouteBonus(int(data.MAIL_PER_STOP), ALL_STOPS, name="mail-contract")
        )

    rules = routing.Rules.make(
        token_nodes=view.own_token_nodes,
        node_bonus=node_bonus,
        forbidden_end_pairs=forbidden,
        end_pair_bonuses=end_pairs,
        longest_route_bonuses=longest,
        token_counted=bool(getattr(data, "TOKEN_MUST_BE_COUNTED", False)),
    )
    return RouteSpec(trains=view.default_trains(), rules=rules, group=group)


def check_position(position, board) -> None:
    """Reject assignments 1846 cannot have (unknown ability, wrong hex, duplicate).

    Raises
    ------
    ValueError
        Naming the assignment.
    """
    seen: set[str] = set()
    operators = {c["sym"] for c in (*facts.CORPORATIONS, *facts.MINORS)}
    for i, a in enumerate(position.assignments):
        sym = _ability_sym(a.ability)
        at = f"assignments[{i}]"
        if sym is None:
            raise ValueError(
                f"{at}: unknown 1846 ability {a.ability!r} "
                "(known: meat_packing, steamboat, boomtown)"
            )
        if a.hex not in ASSIGNABLE_HEXES[sym]:
            raise ValueError(
                f"{at}: {sym} cannot be assigned to {a.hex} "
                f"(allowed: {sorted(ASSIGNABLE_HEXES[sym])})"
            )
        if a.company not in operators:
            raise ValueError(f"{at}: {sym} must be assigned to a corporation or minor")
        if sym in seen:
            raise ValueError(f"{at}: {sym} is assigned twice")
        seen.add(sym)
