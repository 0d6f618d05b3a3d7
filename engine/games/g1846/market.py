"""The 1846 stock market: one row of prices on the shared :class:`StockGrid`, with 1846's
movement policy for dividends.

A corporation's token moves left ("down") when it withholds or pays less than half its
price, and right by one, two or three cells when it pays at least one, two or three times
its price (three only from 165 up).  Half pay pays out the revenue less the half withheld,
which is rounded down to whole dollars a share.  Facts from tobymao/18xx @111f7f69 (MIT):
``g_1846/step/dividend.rb`` ``share_price_change``, ``step/half_pay.rb``; no code copied.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.game.market import StockGrid

__all__ = ["Market1846"]

#: Shares per corporation (the withheld half of a half pay rounds to whole dollars a share).
TOTAL_SHARES = 10


class Market1846(StockGrid):
    """The 1846 market: ``cells`` is ``data.MARKET``, ``"0c"`` first.

    A closed corporation leaves its cell's stack but keeps its last price, as 18xx.games
    keeps the share price of a closed corporation.
    """

    def __init__(self, cells: Sequence[str]) -> None:
        super().__init__([list(cells)])

    def price(self, sym: str) -> int | None:
        return super().price(sym) if self.has_price(sym) else None

    def column(self, sym: str) -> int:
        """``sym``'s cell, counted from the ``0c`` cell."""
        return self.where[sym][1]

    def price_at(self, column: int) -> int:
        """The price of cell ``column``, clamped to the row's ends."""
        row = self.cells[0]
        return row[max(0, min(column, len(row) - 1))].price

    def arrival(self, sym: str) -> int:
        """``sym``'s place in its cell's stack (earlier arrivals first)."""
        return self.stacks[self.where[sym]].index(sym)

    def at_close(self, sym: str) -> bool:
        return self.has_price(sym) and self.current(sym).close

    def par_at(self, sym: str, price: int) -> None:
        """``sym``'s token on the par cell of ``price``."""
        row, col = self.find(price, 0)
        self.set_par(sym, row, col)

    def left(self, sym: str, times: int = 1) -> None:
        self.move(sym, "left", times)

    def right(self, sym: str, times: int = 1) -> None:
        self.move(sym, "right", times)

    def remove(self, sym: str) -> None:
        if sym in self.where and sym in self.stacks.get(self.where[sym], []):
            self.stacks[self.where[sym]].remove(sym)

    def dividend(self, sym: str, kind: str, revenue: int) -> None:
        """Move ``sym``'s price for a ``payout``, ``withhold`` or ``half`` of ``revenue``."""
        if not self.has_price(sym):
            return
        if kind == "payout":
            retained = 0
        elif kind == "withhold":
            retained = revenue
        else:
            retained = (revenue // 2 // TOTAL_SHARES) * TOTAL_SHARES
        paid = revenue - retained
        price = self.price(sym) or 0
        if paid < price // 2:
            self.left(sym)
            return
        times = sum(1 for k in (1, 2) if paid >= k * price)
        if paid >= 3 * price and price >= 165:
            times = 3
        if times:
            self.right(sym, times)
