"""The 1812 stock market (§4) on the shared :class:`~engine.game.market.StockGrid`.

One row: the Closed box (§4.2, §9), then the cells of :data:`.economy_data.MARKET`, lowest
first; "up" is a right move and "down" a left one.  The grid, the piles (a marker that
reaches a new cell goes to the bottom of its pile, one that does not move keeps its place)
and the moves are StockGrid's; 1812's movement policy on top:

- a minor's marker does not move up from £150 or above (§7.3.5 "dashed red line");
- a marker that reaches the Closed box (one space below £40) leaves the chart and its
  company is listed in :attr:`Market1812.closed` (§4.2);
- the operating order is the minors by price, then the public companies by price, a pile
  top first (§7).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.game.market import StockGrid
from engine.games.g1812 import economy_data as ed

__all__ = ["Market1812"]

#: Column of the £150 minor cap (the Closed box is column 0).
CAP_COLUMN = 1 + ed.MARKET.index(ed.MINOR_MAX_PRICE)


class Market1812(StockGrid):
    """Price markers of one game (or of one :class:`.economy.Market` snapshot)."""

    def __init__(self) -> None:
        super().__init__([["0c"] + [str(p) for p in ed.MARKET]])
        #: Markers under the minor cap in the move being made.
        self.capped: set[str] = set()
        #: Companies whose marker fell into the Closed box, in order.
        self.closed: list[str] = []

    def step(self, sym: str | None, direction: str, pos: tuple[int, int]) -> tuple[int, int]:
        if direction == "right" and sym in self.capped and pos[1] >= CAP_COLUMN:
            return pos  # §7.3.5: a minor stays at (or above) £150
        return super().step(sym, direction, pos)

    def has(self, sym: str) -> bool:
        return self.has_price(sym)

    def place_at(self, sym: str, price: int) -> None:
        """Put ``sym`` on ``price`` under any markers there (§6.2.1, §6.2.3, §8.2).

        Raises
        ------
        ValueError
            ``sym`` already has a marker, or ``price`` is not a market value.
        """
        if self.has_price(sym):
            raise ValueError(f"company {sym!r} already has a marker on the market")
        if price not in ed.MARKET:
            raise ValueError(f"price {price!r} is not a stock-market value")
        self.place(sym, 0, 1 + ed.MARKET.index(price))

    def shift(self, sym: str, steps: int, minor: bool = False) -> bool:
        """Move ``steps`` spaces (+ up, - down), under the minor cap if ``minor``; True when
        the marker fell into the Closed box and left the chart (§4.2)."""
        if minor:
            self.capped.add(sym)
        else:
            self.capped.discard(sym)
        self.move(sym, "right" if steps > 0 else "left", abs(steps))
        if not self.current(sym).close:
            return False
        self.remove(sym)
        self.closed.append(sym)
        return True

    def pile(self, price: int) -> tuple[str, ...]:
        """Markers on the ``price`` cell, top first."""
        return tuple(self.stacks.get((0, 1 + ed.MARKET.index(price)), ()))

    def order(self, syms: Iterable[str], minors: Iterable[str]) -> list[str]:
        """``syms`` with a marker in operating order (§7): ``minors`` by price, then the
        others by price; a pile top first."""
        minors = set(minors)
        on_chart = [s for s in dict.fromkeys(syms) if self.has_price(s)]
        return sorted(on_chart, key=lambda s: (s not in minors, self.sort_key(s)))
