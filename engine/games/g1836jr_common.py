"""Revenue rules shared by 1836Jr-30 and 1836Jr-56.

Both variants play on the same Low Countries map and score Paris and the Channel ports (Dover,
Harwich) the same way; 1836Jr-56 adds the Régie des Postes on top (see its ``rules.py``).  The
facts (hexes, amounts) live in each title's ``data.py``; this module only turns them into the
routing vocabulary.

Rules (seed ``1836jr-rules.txt``, "Paris and the Channel Ports"; 18xx.games
``g_1836_jr30/game.rb`` and ``g_1836_jr56/game.rb`` ``revenue_for``):

- a route may end at Paris or a Channel port (they are off-board, hence terminal) and then
  earns 20 (green phases) or 30 (brown and later) for every city on the route holding one of
  the running company's station tokens;
- the port itself is worth nothing (18xx.games prints "+20/+30" on it, adds it as a stop value
  and takes it off again);
- at most one of the three per route (18xx.games group ``port``);
- such a route needs at least two other stops, so a train of distance 2 can never use one.

Mapping onto :mod:`routing` (docs/ROUTING.md):

- ports become ``NodeKind.PORT`` stops of value 0, terminal, in one group;
- the per-token bonus is one :class:`routing.SetPairBonus` per own-token city ``k``:
  ``(ports, {k}, amount)``.  A route earns it once for each own-token city it counts while it
  counts a port, which is exactly ``amount * tokens on the route``; a port can only be a route
  end because it is terminal;
- "at least two other stops" is ``Rules.min_counted_with = [(ports, PORT_MIN_OTHER_STOPS)]``:
  a route visiting a port counts at least two stops besides it.  Every 1836Jr train counts
  every stop it visits, so "stops" and "counted stops" agree; a 2-train can never use a port.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import routing
from engine.model.title import RouteSpec, RouteView
from routing import NodeKind

__all__ = [
    "port_nodes",
    "port_bonus_per_token",
    "make_trains",
    "port_spec",
]

#: 18xx.games writes unlimited distances as 99 or 999.
_UNLIMITED_FROM = 99


def port_nodes(view: RouteView, data: ModuleType | Any) -> list[int]:
    """Stop nodes of Paris and the Channel ports present in the network."""
    return [n for h in data.PORT_HEXES for n in view.stop_nodes(h)]


def port_bonus_per_token(phase_colors: list[str], data: ModuleType | Any) -> int:
    """Per-token port bonus of a phase.

    As 18xx.games resolves a per-colour revenue: the newest of the phase's tile colours that the
    table names (so brown's 30 holds in the gray and black phases, and the yellow phase, which
    the table does not name, gives 0).
    """
    for color in reversed(phase_colors):
        if color in data.PORT_BONUS:
            return int(data.PORT_BONUS[color])
    return 0


def make_trains(view: RouteView, data: ModuleType | Any) -> list[routing.Train]:
    """The company's trains: N-trains and unlimited diesels, every visited stop counted.

    The port's "two other stops" is a rule (``Rules.min_counted_with``), not a train
    property, so short trains need no special rows.
    """
    trains = []
    for name in view.trains:
        spec = view.train_data(name)
        distance = int(spec["distance"])
        if distance >= _UNLIMITED_FROM:
            trains.append(routing.Train.unlimited(name))
        else:
            trains.append(routing.Train.n(name, distance))
    return trains


def port_spec(view: RouteView, data: ModuleType | Any) -> RouteSpec:
    """RouteSpec with the trains, the token requirement and the Paris/Channel-port rule."""
    tokens = view.own_token_nodes
    ports = port_nodes(view, data)
    spec = RouteSpec(trains=make_trains(view, data))
    bonuses = []
    if ports:
        group = view.base.group_ids.get("port")
        if group is None:
            group = view.network.n_groups
        for node in ports:
            spec.value[node] = 0  # the printed "+20/+30" is the per-token bonus, not a value
            spec.kind[node] = NodeKind.PORT
            spec.terminal[node] = True
            spec.group[node] = group
        amount = port_bonus_per_token(view.phase_colors, data)
        if amount:
            bonuses = [
                routing.SetPairBonus.make(ports, [k], amount, name=f"port token {view.name_of(k)}")
                for k in sorted(tokens)
            ]
    spec.rules = routing.Rules.make(
        token_nodes=tokens,
        set_pair_bonuses=bonuses,
        min_counted_with=[(ports, int(data.PORT_MIN_OTHER_STOPS))] if ports else [],
    )
    return spec
