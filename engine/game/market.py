"""The stock market: share-price tokens on a grid of cells, with the standard moves.

:class:`StockGrid` holds share-price tokens on a grid of cells read from a title's ``MARKET``
rows (18xx.games cell codes: ``"82p"`` is 82 and a par cell, ``"60y"`` a yellow cell,
``"0c"`` a closing cell, ``""`` no cell); a one-row market (1846) is a grid of one row.
When a title's tokens move (its movement policy: dividends, sales, sold-out rounds) is the
title's; how a move goes is this module's.  Shares and presidencies are
:mod:`engine.game.shares`.

Facts from tobymao/18xx @111f7f69 (MIT), cited per rule:

- cell codes: ``lib/engine/share_price.rb`` (``TYPE_MAP``, ``from_code``);
- moves: ``lib/engine/stock_movement.rb`` ``TwoDimensionalMovement`` - right at the right
  end of a row goes up instead, left at the left end (or before a missing cell) goes down,
  up in the top row and down in the bottom row stay, and ``stock_market.rb`` ``move``
  ignores a move onto a missing cell (the 1830 "ledges");
- a token that moves is put last in its new cell (``stock_market.rb`` ``move``), and the
  operating order is higher price first, then the cell further right, then the higher row,
  then earlier arrival in the cell (``corporation.rb`` ``sort_order_key``);

A title's movement policy sits on top: ``cell_types`` for its own cell letters,
:meth:`StockGrid.may_enter` for cells only some tokens may enter (1842's blue area),
:attr:`StockGrid.GAP_RIGHT` for a right move onto a cell that is not there ("stay", as
18xx.games; or "up", as a row's end: the 1842 and 1862 rulebooks) and
:meth:`StockGrid.step` for any other rule of one move (1812's minor cap).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Cell", "StockGrid", "parse_price_id"]

#: 18xx.games cell-code letters (``share_price.rb`` ``TYPE_MAP``) this module knows.
CELL_TYPES = {
    "p": "par",
    "e": "endgame",
    "c": "close",
    "b": "multiple_buy",
    "o": "unlimited",
    "y": "no_cert_limit",
    "l": "liquidation",
}


@dataclass(frozen=True)
class Cell:
    """One market cell: its place, price and kinds (``"par"``, ``"close"`` ...)."""

    row: int
    col: int
    price: int
    types: tuple[str, ...] = ()

    @property
    def par(self) -> bool:
        return "par" in self.types

    @property
    def close(self) -> bool:
        return "close" in self.types


def _parse_cell(code: str, row: int, col: int, types: Mapping[str, str]) -> Cell | None:
    if not isinstance(code, str):
        raise ValueError(f"market[{row}][{col}]: cell code {code!r} is not a string")
    if code == "":
        return None
    digits = "".join(ch for ch in code if ch.isdigit())
    letters = code[len(digits) :]
    if not digits or not code.startswith(digits) or not letters.isalpha() and letters:
        raise ValueError(f"market[{row}][{col}]: bad cell code {code!r} (want e.g. '82p')")
    unknown = [ch for ch in letters if ch not in types]
    if unknown:
        raise ValueError(f"market[{row}][{col}]: unknown cell type {unknown[0]!r} in {code!r}")
    return Cell(row, col, int(digits), tuple(types[ch] for ch in letters))


def parse_price_id(text: str) -> tuple[int, int, int]:
    """``"82,2,6"`` (18xx.games ``SharePrice#id``: price, row, column) -> (82, 2, 6)."""
    try:
        price, row, col = (int(x) for x in str(text).split(","))
    except ValueError:
        raise ValueError(f"share price {text!r} is not 'price,row,column'") from None
    return price, row, col


class StockGrid:
    """Share-price tokens on a 2-D market.

    Parameters
    ----------
    rows : sequence of sequence of str
        The title's ``MARKET`` rows of cell codes.

    cell_types : mapping of str to str, optional
        The title's cell-code letters and their type names (default :data:`CELL_TYPES`).

    Raises
    ------
    ValueError
        An empty market or a bad cell code (naming its row and column).
    """

    #: A right move onto a cell the token may not enter: ``"stay"`` (no move, 18xx.games
    #: ``stock_market.rb`` ``move``) or ``"up"`` (one row up, as at the row's end).
    GAP_RIGHT = "stay"

    def __init__(
        self, rows: Sequence[Sequence[str]], cell_types: Mapping[str, str] | None = None
    ) -> None:
        if not rows or not all(rows):
            raise ValueError("market: needs at least one non-empty row")
        types = CELL_TYPES if cell_types is None else cell_types
        self.cells: list[list[Cell | None]] = [
            [_parse_cell(code, r, c, types) for c, code in enumerate(row)]
            for r, row in enumerate(rows)
        ]
        self.where: dict[str, tuple[int, int]] = {}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self.par: dict[str, tuple[int, int]] = {}

    # ------------------------------------------------------------------ queries
    def cell(self, row: int, col: int) -> Cell | None:
        if 0 <= row < len(self.cells) and 0 <= col < len(self.cells[row]):
            return self.cells[row][col]
        return None

    def par_cells(self) -> list[Cell]:
        return [c for row in self.cells for c in row if c is not None and c.par]

    def price(self, sym: str) -> int:
        """The share price of ``sym`` now."""
        return self.current(sym).price

    def current(self, sym: str) -> Cell:
        try:
            row, col = self.where[sym]
        except KeyError:
            raise KeyError(f"{sym} has no share price") from None
        cell = self.cells[row][col]
        assert cell is not None
        return cell

    def par_price(self, sym: str) -> int:
        row, col = self.par[sym]
        cell = self.cells[row][col]
        assert cell is not None
        return cell.price

    def has_price(self, sym: str) -> bool:
        return sym in self.where

    def sort_key(self, sym: str) -> tuple:
        """Operating-order key: price high first, right first, top first, arrival first."""
        row, col = self.where[sym]
        return (-self.cells[row][col].price, -col, row, self.stacks[(row, col)].index(sym), sym)

    def operating_order(self, syms: Iterable[str]) -> list[str]:
        """``syms`` (all with a price) in operating order."""
        return sorted(syms, key=self.sort_key)

    # ------------------------------------------------------------------ placing and moving
    def set_par(self, sym: str, row: int, col: int, check_par: bool = True) -> Cell:
        """Put ``sym``'s token on cell (row, col) as its par price.

        Raises
        ------
        ValueError
            No cell there, or (``check_par``) it is not a par cell.
        """
        cell = self.cell(row, col)
        if cell is None:
            raise ValueError(f"{sym}: no market cell at row {row}, column {col}")
        if check_par and not cell.par:
            raise ValueError(f"{sym}: {cell.price} at row {row}, column {col} is not a par price")
        self.place(sym, row, col)
        self.par[sym] = (row, col)
        return cell

    def place(self, sym: str, row: int, col: int) -> Cell:
        """Put ``sym``'s token on cell (row, col), last in its stack (its par unchanged).

        Raises
        ------
        ValueError
            No cell there.
        """
        cell = self.cell(row, col)
        if cell is None:
            raise ValueError(f"{sym}: no market cell at row {row}, column {col}")
        if sym in self.where:
            self.stacks[self.where[sym]].remove(sym)
        self.where[sym] = (row, col)
        self.stacks.setdefault((row, col), []).append(sym)
        return cell

    def find(self, price: int, row: int | None = None) -> tuple[int, int]:
        """The cell of ``price`` (in ``row`` if given); ``ValueError`` if there is none."""
        rows = range(len(self.cells)) if row is None else [row]
        for r in rows:
            for c, cell in enumerate(self.cells[r]):
                if cell is not None and cell.price == price:
                    return r, c
        raise ValueError(f"no market cell with price {price}" + (f" in row {row}" if row else ""))

    def remove(self, sym: str) -> None:
        if sym in self.where:
            self.stacks[self.where.pop(sym)].remove(sym)

    def _to(self, sym: str, target: tuple[int, int]) -> None:
        row, col = target
        if self.cell(row, col) is None or target == self.where[sym]:
            return  # stock_market.rb move: no cell there, or no change
        self.stacks[self.where[sym]].remove(sym)
        self.where[sym] = target
        self.stacks.setdefault(target, []).append(sym)

    def may_enter(self, sym: str | None, row: int, col: int) -> bool:
        """May ``sym``'s token (None: any token) stand on (row, col)?  A cell must be there;
        a title may forbid more (override)."""
        return self.cell(row, col) is not None

    def up_of(self, pos: tuple[int, int], sym: str | None = None) -> tuple[int, int]:
        row, col = pos
        return (row - 1, col) if self.may_enter(sym, row - 1, col) else pos

    def down_of(self, pos: tuple[int, int], sym: str | None = None) -> tuple[int, int]:
        row, col = pos
        return (row + 1, col) if self.may_enter(sym, row + 1, col) else pos

    def left_of(self, pos: tuple[int, int], sym: str | None = None) -> tuple[int, int]:
        row, col = pos
        if col > 0 and self.may_enter(sym, row, col - 1):
            return row, col - 1
        return self.down_of(pos, sym)

    def right_of(self, pos: tuple[int, int], sym: str | None = None) -> tuple[int, int]:
        row, col = pos
        if col + 1 >= len(self.cells[row]):
            return self.up_of(pos, sym)
        if self.may_enter(sym, row, col + 1):
            return row, col + 1
        return self.up_of(pos, sym) if self.GAP_RIGHT == "up" else pos

    def step(self, sym: str | None, direction: str, pos: tuple[int, int]) -> tuple[int, int]:
        """Where one move of ``sym``'s token from ``pos`` goes (``pos``: no move).

        The 2-D neighbours above; a title overrides this for a rule of its own.
        """
        if direction == "up":
            return self.up_of(pos, sym)
        if direction == "down":
            return self.down_of(pos, sym)
        if direction == "left":
            return self.left_of(pos, sym)
        if direction == "right":
            return self.right_of(pos, sym)
        raise ValueError(f"unknown market direction {direction!r}")

    def peek(self, sym: str, direction: str) -> Cell | None:
        """The cell one move of ``sym`` in ``direction`` would reach (None: no move)."""
        target = self.step(sym, direction, self.where[sym])
        return None if target == self.where[sym] else self.cell(*target)

    def move(self, sym: str, direction: str, times: int = 1) -> None:
        """Move ``sym``'s token ``times`` cells ``"up"``, ``"down"``, ``"left"`` or ``"right"``."""
        if direction not in ("up", "down", "left", "right"):
            raise ValueError(f"unknown market direction {direction!r}")
        for _ in range(int(times)):
            self._to(sym, self.step(sym, direction, self.where[sym]))
