"""A two-dimensional 18xx stock market and a share registry, for 1830-style titles.

:class:`StockGrid` holds share-price tokens on a grid of cells read from a title's ``MARKET``
rows (18xx.games cell codes: ``"82p"`` is 82 and a par cell, ``"60y"`` a yellow cell,
``"0c"`` a closing cell, ``""`` no cell).  :class:`ShareRegistry` holds every certificate
of every corporation with its holder, and changes the presidency as 1830 does.

Facts from tobymao/18xx @111f7f69 (MIT), cited per rule:

- cell codes: ``lib/engine/share_price.rb`` (``TYPE_MAP``, ``from_code``);
- moves: ``lib/engine/stock_movement.rb`` ``TwoDimensionalMovement`` - right at the right
  end of a row goes up instead, left at the left end (or before a missing cell) goes down,
  up in the top row and down in the bottom row stay, and ``stock_market.rb`` ``move``
  ignores a move onto a missing cell (the 1830 "ledges");
- a token that moves is put last in its new cell (``stock_market.rb`` ``move``), and the
  operating order is higher price first, then the cell further right, then the higher row,
  then earlier arrival in the cell (``corporation.rb`` ``sort_order_key``);
- presidency: ``lib/engine/share_pool.rb`` ``transfer_shares`` / ``change_president`` - a
  player who holds more than the president (at least a president's certificate's worth)
  takes over; among equal holders the one nearest after the old president in seat order
  wins; the new president hands ordinary certificates worth the president's certificate
  to the old president (or to the pool when the old president now holds less).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["Cell", "StockGrid", "Certificate", "ShareRegistry", "IPO", "POOL", "parse_price_id"]

#: Holder of certificates not yet sold (the corporation's IPO / treasury row).
IPO = "ipo"
#: Holder of certificates sold back to the bank (the open market).
POOL = "pool"

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


def _parse_cell(code: str, row: int, col: int) -> Cell | None:
    if not isinstance(code, str):
        raise ValueError(f"market[{row}][{col}]: cell code {code!r} is not a string")
    if code == "":
        return None
    digits = "".join(ch for ch in code if ch.isdigit())
    letters = code[len(digits) :]
    if not digits or not code.startswith(digits) or not letters.isalpha() and letters:
        raise ValueError(f"market[{row}][{col}]: bad cell code {code!r} (want e.g. '82p')")
    unknown = [ch for ch in letters if ch not in CELL_TYPES]
    if unknown:
        raise ValueError(f"market[{row}][{col}]: unknown cell type {unknown[0]!r} in {code!r}")
    return Cell(row, col, int(digits), tuple(CELL_TYPES[ch] for ch in letters))


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

    Raises
    ------
    ValueError
        An empty market or a bad cell code (naming its row and column).
    """

    def __init__(self, rows: Sequence[Sequence[str]]) -> None:
        if not rows or not all(rows):
            raise ValueError("market: needs at least one non-empty row")
        self.cells: list[list[Cell | None]] = [
            [_parse_cell(code, r, c) for c, code in enumerate(row)] for r, row in enumerate(rows)
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
        if sym in self.where:
            self.stacks[self.where[sym]].remove(sym)
        self.where[sym] = (row, col)
        self.par[sym] = (row, col)
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

    def up_of(self, pos: tuple[int, int]) -> tuple[int, int]:
        row, col = pos
        return (row - 1, col) if row - 1 >= 0 else pos

    def down_of(self, pos: tuple[int, int]) -> tuple[int, int]:
        row, col = pos
        return (row + 1, col) if row + 1 < len(self.cells) else pos

    def left_of(self, pos: tuple[int, int]) -> tuple[int, int]:
        row, col = pos
        if col > 0 and self.cell(row, col - 1) is not None:
            return row, col - 1
        return self.down_of(pos)

    def right_of(self, pos: tuple[int, int]) -> tuple[int, int]:
        row, col = pos
        if col + 1 >= len(self.cells[row]):
            return self.up_of(pos)
        return row, col + 1

    def peek(self, sym: str, direction: str) -> Cell | None:
        """The cell one move of ``sym`` in ``direction`` would reach (None: no move)."""
        steps = {"up": self.up_of, "down": self.down_of}
        steps.update(left=self.left_of, right=self.right_of)
        if direction not in steps:
            raise ValueError(f"unknown market direction {direction!r}")
        target = steps[direction](self.where[sym])
        return None if target == self.where[sym] else self.cell(*target)

    def move(self, sym: str, direction: str, times: int = 1) -> None:
        """Move ``sym``'s token ``times`` cells ``"up"``, ``"down"``, ``"left"`` or ``"right"``."""
        step = {"up": self.up_of, "down": self.down_of}
        step.update(left=self.left_of, right=self.right_of)
        if direction not in step:
            raise ValueError(f"unknown market direction {direction!r}")
        for _ in range(int(times)):
            self._to(sym, step[direction](self.where[sym]))


@dataclass
class Certificate:
    """One share certificate: ``id`` ``"Nord_0"``; index 0 is the president's."""

    id: str
    corp: str
    percent: int
    president: bool
    holder: Hashable = IPO


@dataclass
class _Corp:
    sym: str
    certs: list[Certificate]
    president: Hashable | None = None
    share_percent: int = 10
    extra: dict = field(default_factory=dict)


class ShareRegistry:
    """Who holds which certificate of which corporation.

    Parameters
    ----------
    players : sequence
        Player ids in seat order (for presidency ties).
    """

    def __init__(self, players: Sequence[Hashable]) -> None:
        self.players = list(players)
        self.corps: dict[str, _Corp] = {}

    def add(self, sym: str, percents: Sequence[int] = (20, 10, 10, 10, 10, 10, 10, 10, 10)) -> None:
        """Create ``sym``'s certificates in its IPO (the first one is the president's)."""
        if sym in self.corps:
            raise ValueError(f"corporation {sym!r} already has certificates")
        if sum(percents) != 100:
            raise ValueError(f"{sym}: certificates sum to {sum(percents)}%, not 100%")
        certs = [Certificate(f"{sym}_{i}", sym, int(p), i == 0) for i, p in enumerate(percents)]
        share_percent = int(percents[1]) if len(percents) > 1 else int(percents[0]) // 2
        self.corps[sym] = _Corp(sym, certs, share_percent=share_percent)

    def corp(self, sym: str) -> _Corp:
        try:
            return self.corps[sym]
        except KeyError:
            raise KeyError(f"no certificates of corporation {sym!r}") from None

    def cert(self, cert_id: str) -> Certificate:
        sym = str(cert_id).rsplit("_", 1)[0]
        for c in self.corp(sym).certs:
            if c.id == cert_id:
                return c
        raise KeyError(f"no certificate {cert_id!r}")

    def certs_of(self, holder: Hashable, sym: str) -> list[Certificate]:
        return [c for c in self.corp(sym).certs if c.holder == holder]

    def percent(self, sym: str, holder: Hashable) -> int:
        return sum(c.percent for c in self.corp(sym).certs if c.holder == holder)

    def shares(self, sym: str, holder: Hashable) -> float:
        """Shares (not certificates) ``holder`` has: percent over the share size."""
        corp = self.corp(sym)
        return self.percent(sym, holder) / corp.share_percent

    def player_percents(self, sym: str) -> dict[Hashable, int]:
        out: dict[Hashable, int] = {}
        for c in self.corp(sym).certs:
            if c.holder in self.players:
                out[c.holder] = out.get(c.holder, 0) + c.percent
        return out

    def president(self, sym: str) -> Hashable | None:
        return self.corp(sym).president

    def total_shares(self, sym: str) -> int:
        corp = self.corp(sym)
        return 100 // corp.share_percent

    def _distance(self, a: Hashable, b: Hashable) -> int:
        if a not in self.players or b not in self.players:
            return 0
        i, j = self.players.index(a), self.players.index(b)
        return j - i if i < j else j - (i - len(self.players))

    # ------------------------------------------------------------------ transfers
    def give(self, cert_ids: Iterable[str], to: Hashable, percent: int | None = None) -> None:
        """Move certificates to ``to`` and settle the presidency (``share_pool.rb``
        ``transfer_shares``).

        ``percent`` below the certificates' sum is a partial sale of the president's
        certificate: the difference comes back to the seller after the presidency swap.

        Raises
        ------
        KeyError
            An unknown certificate.
        ValueError
            Certificates of several corporations or holders.
        """
        certs = [self.cert(i) for i in cert_ids]
        if not certs:
            raise ValueError("no certificates to move")
        syms = {c.corp for c in certs}
        owners = {c.holder for c in certs}
        if len(syms) != 1 or len(owners) != 1:
            raise ValueError(f"certificates {list(cert_ids)} are not one holder's of one company")
        sym, owner = syms.pop(), owners.pop()
        corp = self.corp(sym)
        total = sum(c.percent for c in certs)
        percent = total if percent is None else int(percent)
        diff = total - percent
        previous = corp.president
        for c in certs:
            c.holder = to
        held = self.player_percents(sym)
        # the bookkeeping percentages move only ``percent`` (share_pool.rb share_holders)
        if diff:
            if owner in self.players:
                held[owner] = held.get(owner, 0) + diff
            if to in self.players:
                held[to] = held.get(to, 0) - diff
        top = max(held.values(), default=0)
        leaders = [p for p, v in held.items() if v == top]
        if top == 0 or previous in leaders:
            return
        pres_cert = corp.certs[0]
        pres_percent = pres_cert.percent
        new = None
        if previous is None:
            new = next((p for p in leaders if p == pres_cert.holder), None)
        if new is None:
            able = [p for p in leaders if held[p] >= pres_percent]
            if able:
                new = min(able, key=lambda p: self._distance(previous, p))
        if new is None:
            return
        corp.president = new
        if to == new and previous == owner and pres_cert in certs and not diff:
            return  # the whole president's certificate went straight to the new president
        if owner == new or previous is None:
            return
        if not (pres_cert in certs or pres_cert.holder == previous):
            return
        if owner in self.players and to in self.players and pres_cert in certs:
            transfer_to = swap_to = to
        else:
            transfer_to = POOL
            swap_to = previous if self.percent(sym, previous) >= pres_percent else POOL
        need = pres_percent // corp.share_percent
        ordinary = [c for c in corp.certs if c.holder == new and not c.president][:need]
        for c in ordinary:
            c.holder = swap_to
        pres_cert.holder = new
        if diff:
            back = diff // corp.share_percent
            for c in [c for c in corp.certs if c.holder == transfer_to and not c.president][:back]:
                c.holder = owner

    def set_president(self, sym: str, player: Hashable | None) -> None:
        self.corp(sym).president = player

    def remove(self, sym: str) -> None:
        """A closed corporation's certificates leave the game."""
        for c in self.corp(sym).certs:
            c.holder = None
