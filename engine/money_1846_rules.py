"""The arithmetic of 1846 payments: dividends, half pay, minors' runs, tile costs, and
whether a corporation's track reaches a hex (the price of its reserved-token abilities).

Used by :class:`engine.money_1846.Money1846`; facts from tobymao/18xx @111f7f69 (MIT):
``step/dividend.rb`` ``dividends_for_entity``, ``step/half_pay.rb``,
``step/minor_half_pay.rb``, ``step/tracker.rb`` ``lay_tile`` / ``remove_border_calculate_cost!``,
``game/base.rb`` ``upgrade_cost``, ``ability/tile_discount.rb``, ``g_1846/game.rb``
``TILE_COST``, ``graph.rb`` ``compute`` (``reachable_hexes``).
"""

from __future__ import annotations

from typing import Any

from engine.game.state import GameState
from engine.model.hexgrid import opposite
from engine.model.tiles.parse import Edge, NodeRef

__all__ = [
    "TOTAL_SHARES",
    "TBC_DISCOUNT",
    "payout_amount",
    "half_pay_split",
    "minor_split",
    "tile_cost",
    "track_reaches",
]

#: Shares of an 1846 corporation.
TOTAL_SHARES = 10
#: Tunnel Blasting Company: $20 off mountain terrain and mountain borders.
TBC_DISCOUNT = 20


def payout_amount(percent: int, paid: int) -> int:
    """What a holder of ``percent``% receives when ``paid`` is paid out on 10 shares.

    18xx.games pays ``num_shares * revenue / 10`` rounded up per holder
    (``step/dividend.rb`` ``dividends_for_entity``).
    """
    if percent < 0 or paid < 0:
        raise ValueError(f"percent {percent} and paid {paid} must not be negative")
    return -(-percent * paid // 100)


def half_pay_split(revenue: int, total_shares: int = TOTAL_SHARES) -> tuple[int, int]:
    """(withheld, paid out) of a half pay (``step/half_pay.rb``): the withheld half is
    rounded down to a multiple of the share count."""
    if revenue < 0:
        raise ValueError(f"revenue {revenue} must not be negative")
    withheld = revenue // 2 // total_shares * total_shares
    return withheld, revenue - withheld


def minor_split(revenue: int) -> tuple[int, int]:
    """(minor, owner) of a minor's run: the minor keeps half rounded down
    (``step/minor_half_pay.rb``)."""
    if revenue < 0:
        raise ValueError(f"revenue {revenue} must not be negative")
    return revenue // 2, revenue - revenue // 2


def tile_cost(
    terrain_cost: int,
    terrains: tuple[str, ...],
    borders: list[tuple[str | None, int]],
    *,
    free: bool = False,
    discount: int = 0,
    tunnel_blasting: bool = False,
    minimum: int = 20,
) -> int:
    """The cost of one 1846 tile lay.

    Parameters
    ----------
    terrain_cost, terrains : the old tile's upgrade cost and terrain types
    borders : (type, cost) of every border the lay opens (track on both sides)
    free : a free lay (Lake Shore Line, Michigan Central, Ohio & Indiana)
    discount : an ability's discount (Illinois Central's hexes, Little Miami)
    tunnel_blasting : the paying corporation owns the Tunnel Blasting Company
    minimum : ``TILE_COST``: every lay costs at least this much before borders
    """
    if free:
        return 0
    if tunnel_blasting and tuple(terrains) == ("mountain",):
        terrain_cost -= min(terrain_cost, TBC_DISCOUNT)
    cost = max(minimum, terrain_cost)
    for btype, bcost in borders:
        off = min(TBC_DISCOUNT, bcost) if tunnel_blasting and btype == "mountain" else 0
        cost += bcost - off
    return cost - min(cost, discount)


def track_reaches(state: GameState, sym: str, target: str) -> bool:
    """Does track from ``sym``'s station tokens run onto hex ``target``?

    ``graph.rb`` ``compute``: walk every path from the tokened cities; a city full of other
    corporations' tokens and an offboard end the walk; ``reachable_hexes`` are the hexes of the
    paths walked.
    """
    board = state.board
    queue: list[tuple[str, Any]] = [(h, NodeRef("city", c)) for h, c in state.tokens_of(sym)]
    seen = set(queue)
    while queue:
        coord, end = queue.pop()
        for path in board.placed(coord).paths:
            if end not in (path.a, path.b):
                continue
            if coord == target:
                return True
            far = path.b if path.a == end else path.a
            if isinstance(far, Edge):
                other = board.linked_neighbour(coord, far.num)
                if other is None:
                    continue
                item: tuple[str, Any] = (other, Edge(opposite(far.num)))
            else:
                item = (coord, far)
                if far.kind == "offboard" or _blocked(state, sym, coord, far):
                    continue
            if item not in seen:
                seen.add(item)
                queue.append(item)
    return False


def _blocked(state: GameState, sym: str, coord: str, node: Any) -> bool:
    """A city full of other corporations' tokens (``city.rb`` ``blocks?``)."""
    if node.kind != "city":
        return False
    here = state.tokens.get((coord, node.index), [])
    return sym not in here and len(here) >= state.board.city_slots(coord, node.index)
