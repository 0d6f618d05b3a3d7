"""The 1830 private auction (the "waterfall"), as 18xx.games plays it.

Facts from tobymao/18xx @111f7f69 (MIT), ``lib/engine/step/waterfall_auction.rb`` and
``step/auctioner.rb``: the privates are offered cheapest first; a bid on the cheapest one
buys it at once; a bid on another waits until that one is the cheapest, when a single bid
buys it and two or more start an auction among the bidders (the lowest bidder acts; a pass
drops out); when every player has passed, the cheapest private's price drops by 5 while it
is unsold (at 0 the next player must take it), otherwise the owned privates pay their
revenue.  A private carrying a president's certificate makes its buyer set the par price
(``step/company_pending_par.rb``); other certificates it carries are given free
(``game/base.rb`` ``after_buy_company``).

The auction books its money through the finance object that owns it (``fin.pay``,
``fin.companies``, ``fin.registry``, ``fin.players``; see :mod:`engine.money_1836jr`).
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.model.record import ReplayError

__all__ = ["WaterfallAuction"]

#: The bank's ledger account (as in :mod:`engine.money_1836jr`).
BANK = "bank"


class WaterfallAuction:
    """The private auction of one game.

    Parameters
    ----------
    fin : Finance1830
        The game's money (companies, registry, ledger).
    companies : list of str
        The privates for sale.
    """

    def __init__(self, fin, companies: list[str]) -> None:
        self.fin = fin
        self.available = sorted(companies, key=lambda s: fin.companies[s].value)
        self.cheapest = self.available[0] if self.available else None
        self.bids: dict[str, list[tuple[Hashable, int]]] = {}
        self.auctioning: str | None = None
        self.passed: set[Hashable] = set()
        self.discount: dict[str, int] = {}
        self.pending_par: list[str] = []  # corporations whose par the buyer must set

    @property
    def done(self) -> bool:
        return not self.available and not self.pending_par

    def active(self) -> str | None:
        a = self.auctioning
        return a if a is not None and len(self.bids.get(a, [])) > 1 else None

    def bid(self, player: Hashable, company: str, price: int) -> None:
        if company not in self.available:
            raise ReplayError(f"bid on {company}, which is not for sale")
        self.passed.discard(player)
        if self.active() is None and company == self.available[0]:
            self._buy(player, company, price)
            self._resolve()
            return
        bids = [b for b in self.bids.get(company, []) if b[0] != player]
        bids.append((player, int(price)))
        self.bids[company] = bids

    def pass_(self, player: Hashable, next_player: Hashable) -> None:
        active = self.active()
        if active is not None:
            self.bids[active] = [b for b in self.bids[active] if b[0] != player]
            self._resolve()
            return
        self.passed.add(player)
        if set(self.fin.players) <= self.passed:
            self._all_passed(next_player)

    def _all_passed(self, next_player: Hashable) -> None:
        if self.cheapest in self.available:
            c = self.fin.companies[self.cheapest]
            self.discount[c.sym] = self.discount.get(c.sym, 0) + 5
            if c.value - self.discount[c.sym] <= 0:
                self._buy(next_player, c.sym, 0)  # it is free: the next player must take it
                self._resolve()
        else:
            self.fin.payout_companies("all players passed in the auction")
        self.passed.clear()

    def _resolve(self) -> None:
        while self.available:
            company = self.available[0]
            bids = self.bids.get(company, [])
            self.auctioning = None
            if len(bids) == 1:
                player, price = bids[0]
                del self.bids[company]
                self._buy(player, company, price)
                continue
            if len(bids) > 1:
                self.auctioning = company
            break

    def _buy(self, player: Hashable, company: str, price: int) -> None:
        fin = self.fin
        fin.pay(player, BANK, price, f"{company} bought in the auction")
        fin.companies[company].owner = player
        self.available.remove(company)
        self.bids.pop(company, None)
        for ab in fin.companies[company].spec.get("abilities", []) or []:
            if ab.get("type") != "shares":
                continue
            shares = ab["shares"] if isinstance(ab["shares"], list) else [ab["shares"]]
            for cert_id in shares:
                if fin.registry.cert(cert_id).president:
                    self.pending_par.append(cert_id.rsplit("_", 1)[0])
                else:
                    fin.registry.give([cert_id], player)
