"""The 1842 stock market as game state: tokens on the 2-D grid, their stacks and moves.

The grid, its zones and every move are :class:`.economy.Grid1842`'s, a
:class:`~engine.game.market.StockGrid` (rulebook 8 as printed in
``../shared/seeds/1842-schleswig-holstein-rules.txt``; the grid itself is a
reconstruction, ``economy_data.ECONOMY_GUESSES``).  A token entering an occupied field
goes to the bottom of its stack (8), and the operating order reads the stacks (7.1 step 4):
highest value, then the rightmost field, then the top token (``StockGrid.operating_order``).
"""

from __future__ import annotations

from engine.games.g1842 import economy as eco

__all__ = ["Market1842"]


class Market1842(eco.Grid1842):
    """Where every started corporation's (and the HAV's) stock token stands."""

    # ------------------------------------------------------------------ queries
    def __contains__(self, corp: str) -> bool:
        return self.has_price(corp)

    def zone(self, corp: str) -> str:
        """plain, start, yellow, brown, blue or end (6.4, 8)."""
        return self.zone_at(*self.where[corp])

    def at_end(self, corp: str) -> bool:
        """On the top-right field, which ends the game (9)."""
        end = eco.top_right()
        return self.where.get(corp) == (end.row, end.col)

    # ------------------------------------------------------------------ moves
    def start(self, corp: str) -> None:
        """Put ``corp``'s token on its start field (3.3.2, 3.4.2, 8)."""
        if corp in self.where:
            raise ValueError(f"{corp} already has a stock token")
        cell = eco.start_cell(corp)
        self.place(corp, cell.row, cell.col)

    def dividend(self, corp: str) -> None:
        """Paid: one field right, up at a row's end (8)."""
        self.move(corp, "right")

    def withhold(self, corp: str) -> None:
        """Not paid: one field left, down at a row's start, never into blue (8)."""
        self.move(corp, "left")

    def sale(self, corp: str, percent: int) -> None:
        """One sale: <= 20% one field down, >= 30% two (8)."""
        self.move(corp, "down", eco.sale_steps(percent))

    def down(self, corp: str, fields: int) -> None:
        """``fields`` fields down, as sales move the token (8): the part of a turn's sales
        that one more sale adds (:meth:`.game_stock.StockMixin1842.sell_certificates`)."""
        self.move(corp, "down", fields)

    def up(self, corp: str) -> None:
        """The 100% rule: one field up (8)."""
        self.move(corp, "up")
