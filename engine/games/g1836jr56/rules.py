"""1836Jr-56 revenue rules as a :class:`~engine.model.title.RouteSpec` hook.

On top of the 1856 defaults (N-trains, 8-trains or unlimited diesels by optional rule, a route
must include an own station token, full cities are terminal for others, off-board areas are
terminal) and Amsterdam's two separately scorable cities on the T tiles 120 and 122 (seed: "as
per the rules for Toronto"):

- Paris and the Channel ports, as in 1836Jr-30 (:mod:`engine.games.g1836jr_common`);
- the Régie des Postes "+20" token (1856's port marker): a route of the corporation that bought
  the private and that stops in the token's hex earns 20 more.  18xx.games (``g_1856/game.rb``
  ``revenue_for``) adds it once per route however many stops of the hex the route counts; the
  token disappears when the first 6-train is bought, so it never counts from phase 6 on.

Tiles (:func:`check_tile`): from phase 6 a town tile may become a yellow city or plain track, a
double town a green city (``data.TOWN_UPGRADES``, 18xx.games ``g_1856/game.rb``
``upgrades_to?``); the game engine offers and lays those
(:mod:`~engine.games.g1836jr56.game_ops`), the tile check lets the new townless tiles be
upgraded further.

The position names the token as an assignment ``{"hex": ..., "ability": "RdP", "company":
<corporation>}``; ``company`` is the corporation the token works for.
"""

from __future__ import annotations

import re
from dataclasses import replace

import routing
from engine.games.g1836jr56 import data
from engine.games.g1836jr_common import port_spec
from engine.model.title import RouteSpec, RouteView

__all__ = ["route_spec", "post_active", "check_position", "check_tile", "POST_ABILITIES"]

#: Accepted spellings of the Régie des Postes in ``assignments[].ability`` (lower case).
POST_ABILITIES = frozenset({"rdp", "régie des postes", "regie des postes", "regie_des_postes"})

#: Hexes the token may be placed on (entities.rb ``assign_hexes``).
POST_HEXES = frozenset(
    next(
        ability["hexes"]
        for company in data.COMPANIES
        if company["sym"] == data.POST_COMPANY
        for ability in company["abilities"]
        if ability["type"] == "assign_hexes"
    )
)


def _is_post(ability: str) -> bool:
    return ability.strip().lower() in POST_ABILITIES


def post_active(phase_name: str) -> bool:
    """Is the Régie des Postes token still on the board in this phase?

    It is removed by the first ``POST_REMOVED_ON_TRAIN`` train, i.e. in the phase that train
    starts and every later one.
    """
    names = [str(p["name"]) for p in data.PHASES]
    removed = next(i for i, p in enumerate(data.PHASES) if p["on"] == data.POST_REMOVED_ON_TRAIN)
    return names.index(str(phase_name)) < removed


def route_spec(view: RouteView) -> RouteSpec:
    """Trains, token requirement, port bonus and the Régie des Postes bonus."""
    spec = port_spec(view, data)
    if not post_active(view.position.phase):
        return spec
    node_bonus: dict[int, int] = dict(spec.rules.node_bonus)
    pairs = list(spec.rules.set_pair_bonuses)
    for mark in view.assignments():
        if not _is_post(mark.ability) or mark.company != view.company:
            continue
        stops = view.stop_nodes(mark.hex)
        if len(stops) == 1:
            node_bonus[stops[0]] = node_bonus.get(stops[0], 0) + data.POST_BONUS
        elif stops:
            # several stops in the hex (OO, Amsterdam's T, a double town): +20 once per route.
            # A set paired with itself pays when the route counts any one of its nodes.
            pairs.append(
                routing.SetPairBonus.make(stops, stops, data.POST_BONUS, name=f"RdP {mark.hex}")
            )
    spec.rules = replace(
        spec.rules,
        node_bonus=tuple(sorted(node_bonus.items())),
        set_pair_bonuses=tuple(pairs),
    )
    return spec


def check_position(position, board) -> None:
    """Reject assignments 1836Jr-56 cannot have.

    Only the Régie des Postes token exists: once, on one of its hexes, working for a
    corporation.

    Raises
    ------
    ValueError
        Naming the assignment.
    """
    corporations = {c["sym"] for c in data.CORPORATIONS}
    seen = False
    for i, a in enumerate(position.assignments):
        at = f"assignments[{i}]"
        if not _is_post(a.ability):
            raise ValueError(f"{at}: unknown 1836Jr-56 ability {a.ability!r} (known: 'RdP')")
        if a.hex not in POST_HEXES:
            raise ValueError(
                f"{at}: the Régie des Postes token cannot go on {a.hex} "
                f"(allowed: {sorted(POST_HEXES)})"
            )
        if a.company not in corporations:
            raise ValueError(f"{at}: the Régie des Postes token must work for a corporation")
        if seen:
            raise ValueError(f"{at}: the Régie des Postes token is assigned twice")
        seen = True


def check_tile(board, hex: str, tile, rotation: int, problems: list[str]) -> list[str]:  # noqa: A002
    """The title's tile checks (:class:`~engine.model.title.Title` ``check_tile``): upgraded towns.

    On a hex printed with towns, a tile without towns that replaces a laid tile (after a
    town upgrade: its later upgrades), or a green or later one (a position lists only the
    final tile), is not held to the printed town and city counts.  A yellow tile on the
    printed hex is a first lay and keeps them (so a position showing a yellow city or plain
    track on a town hex is refused: it cannot be told from an illegal first lay).  The town
    upgrades themselves depend on the phase, which the board does not know: the game engine
    offers and lays them (:mod:`~engine.games.g1836jr56.game_ops`); this check refuses them.
    """
    later = not board.placed(hex).preprinted or tile.color != "yellow"
    if not tile.towns and later and board.check_hex(hex).printed.towns:
        problems = [p for p in problems if not _COUNTS.match(p)]
    return problems


#: upgrade_problems' town and city counts against the printed hex
_COUNTS = re.compile(r"tile '[^']*' has \d+ (towns|cities), hex \S+ has \d+$")
