"""The 1842 stock market as game state: tokens on the 2-D grid, their stacks and moves.

The grid, its zones and every move are :mod:`.economy`'s (rulebook 8 as printed in
``../shared/seeds/1842-schleswig-holstein-rules.txt``; the grid itself is a
reconstruction, ``economy_data.ECONOMY_GUESSES``).  This class only remembers where each
token stands and in which order tokens share a field: a token entering an occupied field
goes to the bottom of its stack (8), and the operating order reads the stacks (7.1 step 4).
"""

from __future__ import annotations

from engine.games.g1842 import economy as eco
from engine.games.g1842 import economy_data as ed

__all__ = ["Market1842"]

_FIELDS: dict[eco.Cell, tuple[int, str]] = {}


def _field(cell: eco.Cell) -> tuple[int, str]:
    """(value, zone) of a field, cached (the grid never changes)."""
    found = _FIELDS.get(cell)
    if found is None:
        found = _FIELDS[cell] = (eco.price(cell), eco.zone(cell))
    return found


class Market1842:
    """Where every started corporation's (and the HAV's) stock token stands."""

    def __init__(self) -> None:
        self.cells: dict[str, eco.Cell] = {}
        self.stacks: dict[eco.Cell, list[str]] = {}

    def copy(self) -> Market1842:
        other = Market1842()
        other.cells = dict(self.cells)
        other.stacks = {c: list(s) for c, s in self.stacks.items()}
        return other

    # ------------------------------------------------------------------ queries
    def __contains__(self, corp: str) -> bool:
        return corp in self.cells

    def price(self, corp: str) -> int:
        """The value of ``corp``'s field (8)."""
        return _field(self.cells[corp])[0]

    def zone(self, corp: str) -> str:
        """plain, start, yellow, brown, blue or end (6.4, 8)."""
        return _field(self.cells[corp])[1]

    def at_end(self, corp: str) -> bool:
        """On the top-right field, which ends the game (9)."""
        return self.cells.get(corp) == eco.top_right()

    def operating_order(self, corps: list[str]) -> list[str]:
        """``corps`` by value, then rightmost, then top of the stack (7.1 step 4)."""
        tokens = {c: (self.cells[c], self.stacks[self.cells[c]].index(c)) for c in corps}
        return list(eco.operating_order(tokens)) if tokens else []

    # ------------------------------------------------------------------ moves
    def place(self, corp: str, cell: eco.Cell | None = None) -> None:
        """Put ``corp``'s token on ``cell`` (default its start field, 3.3.2, 3.4.2, 8)."""
        if corp in self.cells:
            raise ValueError(f"{corp} already has a stock token")
        self._enter(corp, eco.start_cell(corp) if cell is None else cell)

    def _enter(self, corp: str, cell: eco.Cell) -> None:
        self.cells[corp] = cell
        self.stacks.setdefault(cell, []).append(corp)  # the bottom of the stack (8)

    def _move(self, corp: str, cell: eco.Cell) -> None:
        old = self.cells[corp]
        if cell == old:
            return
        self.stacks[old].remove(corp)
        if not self.stacks[old]:
            del self.stacks[old]
        self._enter(corp, cell)

    def dividend(self, corp: str) -> None:
        """Paid: one field right, up at a row's end (8)."""
        self._move(corp, eco.after_dividend(self.cells[corp], hav=corp == ed.HAV))

    def withhold(self, corp: str) -> None:
        """Not paid: one field left, down at a row's start, never into blue (8)."""
        self._move(corp, eco.after_withhold(self.cells[corp], hav=corp == ed.HAV))

    def sale(self, corp: str, percent: int) -> None:
        """One sale: <= 20% one field down, >= 30% two (8)."""
        self._move(corp, eco.after_sale(self.cells[corp], percent, hav=corp == ed.HAV))

    def down(self, corp: str, fields: int) -> None:
        """``fields`` fields down, as sales move the token (8): the part of a turn's sales
        that one more sale adds (:meth:`.game_stock.StockMixin1842.sell_certificates`)."""
        cell = self.cells[corp]
        for _ in range(fields):
            cell = eco.after_sale(cell, ed.SALE_ONE_STEP_MAX, hav=corp == ed.HAV)
        self._move(corp, cell)

    def up(self, corp: str) -> None:
        """The 100% rule: one field up (8)."""
        self._move(corp, eco.after_stock_round(self.cells[corp], 100, hav=corp == ed.HAV))
