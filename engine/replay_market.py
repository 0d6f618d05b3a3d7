"""The 1846 stock market, as far as the board needs it: when does a corporation close?

An 1846 corporation closes when its share price reaches the ``0c`` cell, and a closed
corporation's station tokens leave the map, which changes every other company's routes.
:class:`Market1846` follows the share price through the moves 18xx.games makes
(tobymao/18xx @111f7f69, MIT: ``g_1846/step/dividend.rb`` ``share_price_change``,
``step/half_pay.rb``, ``game/base.rb`` ``sell_shares_and_change_price`` with
``SELL_MOVEMENT = :left_block_pres``, ``round/stock.rb`` ``finish_round`` (sold out: right;
shares in the market: left), ``g_1846/step/buy_train.rb`` (emergency issues: left per share),
``g_1846/step/bankrupt.rb``, ``share_pool.rb`` ``transfer_shares`` (presidency changes)).
The market is one row, so "down" is left and "up" is right.

Share certificates are tracked by id (``"NYC_0"`` is the 20% president's certificate) so the
source of a purchase (treasury or market) is known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Market1846", "POOL", "TREASURY"]

#: Holders that are not players.
POOL = "market"
TREASURY = "treasury"


@dataclass
class _Corp:
    sym: str
    index: int
    president: Any = None  # a player id, or None in receivership
    owner: dict[str, Any] = field(default_factory=dict)  # share id -> holder
    percent: dict[str, int] = field(default_factory=dict)  # share id -> percent


class Market1846:
    """Share prices and holdings of 1846 corporations.

    Parameters
    ----------
    cells : list of str
        The market row (``data.MARKET``), ``"0c"`` first.
    players : list
        Player ids in seat order.
    """

    TOTAL_SHARES = 10

    def __init__(self, cells: list[str], players: list) -> None:
        self.cells = list(cells)
        self.prices = [int("".join(ch for ch in c if ch.isdigit()) or 0) for c in self.cells]
        self.players = list(players)
        self.corps: dict[str, _Corp] = {}
        self.stacks: dict[int, list[str]] = {}  # cell -> corporations, in arrival order

    # ------------------------------------------------------------------ queries
    def price(self, sym: str) -> int | None:
        c = self.corps.get(sym)
        return None if c is None else self.prices[c.index]

    def at_close(self, sym: str) -> bool:
        c = self.corps.get(sym)
        return c is not None and self.cells[c.index].endswith("c")

    def percent(self, sym: str, holder: Any) -> int:
        c = self.corps[sym]
        return sum(p for s, p in c.percent.items() if c.owner[s] == holder)

    def player_percent(self, sym: str) -> int:
        c = self.corps[sym]
        return sum(p for s, p in c.percent.items() if c.owner[s] in self.players)

    def president(self, sym: str) -> Any:
        return self.corps[sym].president if sym in self.corps else None

    def operating_order(self, syms) -> list[str]:
        """``syms`` in 1846 operating order: price high to low, then earlier arrival in the
        price cell first (``game.rb`` ``operating_order``, ``corporation.rb`` ``<=>``)."""

        def key(sym: str) -> tuple:
            c = self.corps[sym]
            stack = self.stacks.get(c.index, [])
            return (-self.prices[c.index], stack.index(sym) if sym in stack else len(stack))

        return sorted((s for s in syms if s in self.corps), key=key)

    def remove(self, sym: str) -> None:
        """A closed corporation leaves the market (its price cell keeps no place)."""
        c = self.corps.get(sym)
        if c is not None and sym in self.stacks.get(c.index, []):
            self.stacks[c.index].remove(sym)

    # ------------------------------------------------------------------ moves
    def _move(self, sym: str, index: int) -> None:
        """``stock_market.rb`` ``move``: a corporation joins the end of its new cell."""
        c = self.corps[sym]
        index = max(0, min(len(self.cells) - 1, index))
        if index == c.index:
            return
        if sym in self.stacks.get(c.index, []):
            self.stacks[c.index].remove(sym)
        c.index = index
        self.stacks.setdefault(index, []).append(sym)

    def left(self, sym: str, times: int = 1) -> None:
        for _ in range(times):
            self._move(sym, self.corps[sym].index - 1)

    def right(self, sym: str, times: int = 1) -> None:
        for _ in range(times):
            self._move(sym, self.corps[sym].index + 1)

    def par(self, sym: str, player: Any, share_price: str, shares: int = 9) -> None:
        """``player`` pars ``sym`` at ``share_price`` (``"100,0,10"`` = price,row,column)."""
        parts = str(share_price).split(",")
        index = int(parts[2]) if len(parts) >= 3 else self.prices.index(int(parts[0]))
        c = _Corp(sym, index)
        for i in range(shares):
            sid = f"{sym}_{i}"
            c.owner[sid] = TREASURY
            c.percent[sid] = 20 if i == 0 else 10
        c.owner[f"{sym}_0"] = player
        c.president = player
        self.corps[sym] = c
        self.stacks.setdefault(index, []).append(sym)

    def dividend(self, sym: str, kind: str, revenue: int) -> None:
        """Move the price for a dividend of ``kind`` on ``revenue`` (1846 rules)."""
        if sym not in self.corps:
            return
        retained = {"payout": 0, "withhold": revenue}.get(kind)
        if retained is None:  # half: the withheld half rounds down to whole dollars a share
            n = self.TOTAL_SHARES
            retained = (revenue // 2 // n) * n
        paid = revenue - retained
        price = self.price(sym) or 0
        if paid < price // 2:
            self.left(sym)
            return
        times = 0
        if paid >= price:
            times = 1
        if paid >= 2 * price:
            times = 2
        if paid >= 3 * price and price >= 165:
            times = 3
        if times:
            self.right(sym, times)

    def end_of_stock_round(self) -> None:
        """Sold out: right; any share in the market: left (``round/stock.rb``)."""
        for sym in self.corps:
            if self.player_percent(sym) == 100:
                self.right(sym)
            if self.percent(sym, POOL) > 0:
                self.left(sym)

    # ------------------------------------------------------------------ share transfers
    def _holder_of(self, c: _Corp, sid: str, expect: Any = None) -> str:
        """A share id the transfer can use: ``sid`` itself, or one of the same size held by
        ``expect`` when the ids drifted through a presidency swap."""
        if sid in c.owner and (expect is None or c.owner[sid] == expect):
            return sid
        size = c.percent.get(sid, 10)
        for other, holder in sorted(c.owner.items()):
            if holder == expect and c.percent[other] == size:
                return other
        return sid

    def buy(self, buyer: Any, sym: str, share_ids: list[str], source: Any = None) -> None:
        """``buyer`` (a player, or the corporation redeeming: ``TREASURY``) takes shares."""
        c = self.corps.get(sym)
        if c is None:
            return
        for sid in share_ids:
            sid = self._holder_of(c, sid, source) if source is not None else sid
            if sid in c.owner:
                c.owner[sid] = buyer
        self._check_president(c, None)

    def sell(self, seller: Any, sym: str, share_ids: list[str]) -> bool:
        """``seller`` (a player, or ``TREASURY`` issuing) sells to the market.

        Returns
        -------
        bool
            Whether the seller was the president (the price then drops one space).
        """
        c = self.corps.get(sym)
        if c is None:
            return False
        was_president = seller is not None and seller == c.president
        for sid in share_ids:
            sid = self._holder_of(c, sid, seller)
            if sid in c.owner:
                c.owner[sid] = POOL
        self._check_president(c, seller)
        return was_president

    def _check_president(self, c: _Corp, seller: Any) -> None:
        held = {p: self.percent(c.sym, p) for p in self.players}
        best = max(held.values(), default=0)
        prev = c.president
        if prev is not None and held.get(prev, 0) == best:
            return
        if best < 20:
            return
        start = self.players.index(prev) if prev in self.players else 0
        n = len(self.players)
        candidates = [p for p in self.players if held[p] == best]
        new = min(candidates, key=lambda p: (self.players.index(p) - start) % n or n)
        cert = f"{c.sym}_0"
        cert_holder = c.owner.get(cert)
        c.president = new
        if cert_holder == new:
            return
        swap_to = prev if (cert_holder == prev and held.get(prev, 0) >= 20) else POOL
        if cert_holder == seller and seller is not None and held.get(seller, 0) < 20:
            swap_to = POOL
        c.owner[cert] = new
        mine = sorted(
            (s for s, h in c.owner.items() if h == new and s != cert),
            key=lambda s: int(s.rsplit("_", 1)[1]),
        )
        for sid in mine[:2]:
            c.owner[sid] = swap_to

    # ------------------------------------------------------------------ bankruptcy
    def bankrupt(
        self, player: Any, corp: str, issue_shares: int, first_sales: dict | None = None
    ) -> list[str]:
        """A president goes bankrupt (``g_1846/step/bankrupt.rb``).

        The corporation first issues ``issue_shares`` shares (left per share); the player
        then sells what is normally sellable (left once where president), then dumps the
        rest without moves; a player with 20% takes over a presidency he dumped
        (``share_pool.rb`` presidency check), else the corporation is in receivership.
        ``first_sales`` (corporation -> percent, from :mod:`engine.money_1846`) names the
        normal sales; without it a sale is assumed wherever one share could be sold.
        Returns the corporations now in receivership.
        """
        if corp in self.corps and issue_shares > 0:
            c = self.corps[corp]
            treasury = [s for s, h in sorted(c.owner.items()) if h == TREASURY][:issue_shares]
            for sid in treasury:
                c.owner[sid] = POOL
            self.left(corp, len(treasury))
        receivership = []
        for sym, c in sorted(self.corps.items()):
            mine = [s for s, h in c.owner.items() if h == player]
            if not mine:
                continue
            sells = self._can_sell(c, player) if first_sales is None else bool(first_sales.get(sym))
            if c.president == player and sells:
                self.left(sym)
            for sid in mine:
                c.owner[sid] = POOL
            if c.president == player:
                self._check_president(c, player)
            if c.president == player:
                c.president = None
                if self.price(sym):
                    receivership.append(sym)
        return receivership

    def _can_sell(self, c: _Corp, player: Any) -> bool:
        """Could ``player`` sell at least one share (market below 50%, presidency kept or
        passed on)?"""
        if self.percent(c.sym, POOL) >= 50:
            return False
        mine = self.percent(c.sym, player)
        if mine > 20:
            return True
        others = [self.percent(c.sym, p) for p in self.players if p != player]
        return any(o >= 20 for o in others)
