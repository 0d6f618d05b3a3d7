"""The 1830-style two-dimensional stock market of the 1836Jr-30 rules engine.

A thin layer over :class:`engine.game.market.StockGrid` (cell codes, the 2-D moves with
their ledges, the operating order) giving the rules engine the calls it makes: a
corporation's price, its par price, the zone its token sits in and the moves of the 1830
rules (tobymao/18xx @111f7f69, MIT: ``lib/engine/stock_market.rb`` ``move_up``/``move_down``/
``move_left``/``move_right``, ``share_price.rb`` cell types, ``game/base.rb``
``CERT_LIMIT_TYPES`` and ``MULTIPLE_BUY_TYPES``):

- a payout moves the token right, a withheld (or zero) dividend left, each share sold one
  row down, a sold-out corporation at the end of a stock round one row up;
- shares of a corporation in a yellow (``y``), orange (``o``) or brown (``b``) cell do not
  count against the certificate limit; orange and brown ones may be held beyond 60%; brown
  ones may be bought several at a time (1836Jr-30: from the market only).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.game.market import Cell, StockGrid

__all__ = ["Market1830", "UNCOUNTED", "UNLIMITED_HOLDING", "MULTIPLE_BUY"]

#: Cell types whose shares do not count against the certificate limit.
UNCOUNTED = frozenset({"no_cert_limit", "unlimited", "multiple_buy"})
#: Cell types whose shares a player may hold beyond the holding limit.
UNLIMITED_HOLDING = frozenset({"unlimited", "multiple_buy"})
#: Cell types in which a player may buy several shares of one corporation in a turn.
MULTIPLE_BUY = frozenset({"multiple_buy"})


class Market1830:
    """Share-price tokens of a game on a 2-D market.

    Parameters
    ----------
    rows : list of list of str
        The title's ``MARKET`` (18xx.games cell codes).
    """

    def __init__(self, rows) -> None:
        self.grid = StockGrid(rows)
        self._pars = sorted({c.price for c in self.grid.par_cells()}, reverse=True)

    # ------------------------------------------------------------------ queries
    def has_price(self, corp: str) -> bool:
        return self.grid.has_price(corp)

    def price(self, corp: str) -> int:
        return self.grid.price(corp)

    def par_price(self, corp: str) -> int:
        return self.grid.par_price(corp)

    def cell(self, corp: str) -> Cell:
        return self.grid.current(corp)

    def kind(self, corp: str) -> str | None:
        """The first type of ``corp``'s cell (18xx.games ``share_price.type``)."""
        types = self.grid.current(corp).types
        return types[0] if types else None

    def par_prices(self) -> list[int]:
        """Par prices, highest first (each appears once on the 1830 market)."""
        return list(self._pars)

    def operating_order(self, corps: Iterable[str]) -> list[str]:
        return self.grid.operating_order([c for c in corps if self.grid.has_price(c)])

    # ------------------------------------------------------------------ changes
    def par(self, corp: str, price: int) -> None:
        """Put ``corp``'s token on the par cell of ``price``.

        Raises
        ------
        ValueError
            ``price`` is not a par price.
        """
        for cell in self.grid.par_cells():
            if cell.price == price:
                self.grid.set_par(corp, cell.row, cell.col)
                return
        raise ValueError(f"{price} is not a par price ({self.par_prices()})")

    def move(self, corp: str, direction: str, times: int = 1) -> None:
        self.grid.move(corp, direction, times)

    def remove(self, corp: str) -> None:
        self.grid.remove(corp)
