"""The private-company auction of 1836Jr-30 (the 1830 "waterfall"), as a round of the game.

Facts from tobymao/18xx @111f7f69 (MIT), ``lib/engine/step/waterfall_auction.rb``,
``step/auctioner.rb``, ``step/company_pending_par.rb``, ``round/auction.rb`` and
``game/base.rb`` (``after_buy_company``, ``reorder_players``, ``MIN_BID_INCREMENT = 5``);
rules: the seed (1836Jr-30 keeps the 1830 auction):

- the privates are offered cheapest first; players act in seat order; a bid on the cheapest
  (at its price or more) buys it at once; a bid on another one must beat its highest bid
  (or its face value) by 5 and waits;
- when the cheapest unsold private has bids it is auctioned among its bidders: the lowest
  bidder raises by at least 5 or drops out; a lone bidder buys it; bids are commitments
  (a player's open bids never exceed the cash);
- when every player has passed in a row: while the first private (the ACC) is unsold its
  price drops by 5 (at 0 the next player must take it for nothing); otherwise the owned
  privates pay their revenue, as in an operating round;
- the CFL's buyer receives a 10% GCL certificate; the CFLV's buyer receives the Nord
  president's certificate and sets the Nord's par price at once;
- the round ends when every private is sold; the player whose turn would come next has the
  priority deal in the first stock round.
"""

from __future__ import annotations

__all__ = ["AuctionMixin"]

#: Minimum raise of a bid (base.rb MIN_BID_INCREMENT).
MIN_INCREMENT = 5


class AuctionMixin:
    """Waterfall auction of :class:`~engine.games.g1836jr30.game.Game1836Jr30`."""

    # ------------------------------------------------------------------ round
    def start_auction(self) -> None:
        companies = sorted(self.state.companies, key=lambda c: self._face(c))
        self.round = type(self.round)(
            "auction",
            list(self.players),
            0,
            1,
            {
                "available": companies,
                "cheapest": companies[0] if companies else None,
                "bids": {},
                "discount": {},
                "passed": set(),
                "auctioning": None,
                "pending_par": [],
            },
        )
        self.note("-- private auction --")

    def _face(self, company: str) -> int:
        return int(self.state.companies[company]["spec"]["value"])

    def _min_buy(self, company: str) -> int:
        """The cheapest private's price now (face value less the all-pass discounts)."""
        return self._face(company) - self.round.data["discount"].get(company, 0)

    def _active_auction(self) -> str | None:
        data = self.round.data
        company = data["auctioning"]
        if company is not None and len(data["bids"].get(company, [])) > 1:
            return company
        return None

    def _committed(self, player: str) -> int:
        return sum(
            p for bids in self.round.data["bids"].values() for who, p in bids if who == player
        )

    def _own_bid(self, player: str, company: str) -> int:
        return next((p for who, p in self.round.data["bids"].get(company, []) if who == player), 0)

    def max_bid(self, player: str, company: str) -> int:
        """Cash less open bids elsewhere (``waterfall_auction.rb`` ``max_bid``)."""
        return self.cash(player) - self._committed(player) + self._own_bid(player, company)

    def min_bid(self, company: str) -> int:
        """The lowest legal bid on ``company`` now (``waterfall_auction.rb`` ``min_bid``)."""
        data = self.round.data
        if self._active_auction() is None and data["available"] and company == data["available"][0]:
            return self._min_buy(company)
        bids = data["bids"].get(company, [])
        high = max((p for _, p in bids), default=self._face(company))
        return high + MIN_INCREMENT

    def other_round_finished(self) -> bool:
        data = self.round.data
        return not data["available"] and not data["pending_par"]

    def legal_other_round(self) -> list[dict]:
        data = self.round.data
        if data["pending_par"]:
            corp = data["pending_par"][0]
            owner = data["pending_owner"][corp]
            return [
                {"type": "par", "entity": owner, "corporation": corp, "share_price": price}
                for price in self.market.par_prices()
            ]
        active = self._active_auction()
        if active is not None:
            bidder = min(data["bids"][active], key=lambda b: b[1])[0]
            acts = self._bid_actions(bidder, [active])
            acts.append({"type": "pass", "entity": bidder})
            return acts
        player = self.round.current
        acts = self._bid_actions(player, data["available"])
        acts.append({"type": "pass", "entity": player})
        return acts

    def _bid_actions(self, player: str, companies: list[str]) -> list[dict]:
        out = []
        for company in companies:
            lo, hi = self.min_bid(company), self.max_bid(player, company)
            if lo <= hi:
                out.append(
                    {
                        "type": "bid",
                        "entity": player,
                        "company": company,
                        "price": lo,
                        "min_price": lo,
                        "max_price": hi,
                    }
                )
        return out

    # ------------------------------------------------------------------ processing
    def auction_bid(self, action: dict) -> None:
        player, company, price = action["entity"], action["company"], int(action["price"])
        data = self.round.data
        data["passed"].discard(player)
        if self._active_auction() is not None:
            self._add_bid(player, company, price)
            return
        if company == data["available"][0]:
            self._buy_private(player, company, price)
            self._resolve_bids()
        else:
            self._add_bid(player, company, price)
        self._next_bidder()

    def _add_bid(self, player: str, company: str, price: int) -> None:
        bids = [b for b in self.round.data["bids"].get(company, []) if b[0] != player]
        bids.append((player, price))
        self.round.data["bids"][company] = bids
        self.note(f"{player} bids {price} for {company}")

    def auction_pass(self, action: dict) -> None:
        player = action["entity"]
        data = self.round.data
        active = self._active_auction()
        if active is not None:
            data["bids"][active] = [b for b in data["bids"][active] if b[0] != player]
            self.note(f"{player} passes on {active}")
            self._resolve_bids()
            return
        data["passed"].add(player)
        if data["passed"] >= set(self.round.entities):
            self._all_passed()
        self._next_bidder()

    def _next_bidder(self) -> None:
        r = self.round
        r.index = (r.index + 1) % len(r.entities)

    def _all_passed(self) -> None:
        data = self.round.data
        cheapest = data["cheapest"]
        data["passed"] = set()
        if cheapest in data["available"]:
            data["discount"][cheapest] = data["discount"].get(cheapest, 0) + MIN_INCREMENT
            self.note(f"{cheapest} now costs {self._min_buy(cheapest)}")
            if self._min_buy(cheapest) <= 0:
                # it is free: the next player must take it (increase_discount!)
                self._next_bidder()
                self._buy_private(self.round.current, cheapest, 0)
                self._resolve_bids()
        else:
            self.payout_companies()

    def _resolve_bids(self) -> None:
        """Sell the cheapest privates that have a lone bidder; start an auction on the
        first that has several (``resolve_bids``)."""
        data = self.round.data
        while data["available"]:
            company = data["available"][0]
            bids = data["bids"].get(company, [])
            data["auctioning"] = None
            if len(bids) == 1:
                player, price = bids[0]
                self._buy_private(player, company, price)
                continue
            if len(bids) > 1:
                data["auctioning"] = company
            break

    def _buy_private(self, player: str, company: str, price: int) -> None:
        data = self.round.data
        data["available"].remove(company)
        data["bids"].pop(company, None)
        info = self.state.companies[company]
        info["owner"] = player
        self.pay(player, "bank", price, f"{company} in the auction")
        self.note(f"{player} buys {company} for {price}")
        for ab in info["spec"].get("abilities", []) or []:
            if ab.get("type") != "shares":
                continue
            for cert in [ab["shares"]] if isinstance(ab["shares"], str) else ab["shares"]:
                corp, _, index = cert.rpartition("_")
                if index == "0":
                    data["pending_par"].append(corp)
                    data.setdefault("pending_owner", {})[corp] = player
                else:
                    self.loose_certs[cert] = player
                    self.note(f"{player} receives {cert} with {company}")

    def auction_par(self, action: dict) -> None:
        """The CFLV's buyer sets the Nord's par price and takes its president's certificate
        free (``company_pending_par.rb``)."""
        player, corp, price = action["entity"], action["corporation"], int(action["share_price"])
        data = self.round.data
        data["pending_par"].remove(corp)
        self.create_shares(corp)
        self.market.par(corp, price)
        self.shares.par(corp, player)
        self.note(f"{player} sets {corp}'s par price at {price}")
        self.after_par(corp, player, price)

    def end_other_round(self) -> None:
        """Priority to the player whose turn would be next (``reorder_players``)."""
        nxt = self.round.current
        i = self.players.index(nxt)
        self.players = self.players[i:] + self.players[:i]
        self.start_stock_round()

    def explain_auction(self, action: dict) -> str | None:
        kind, company = action.get("type"), action.get("company")
        data = self.round.data
        if kind == "bid":
            if company not in data["available"]:
                return f"{company!r} is not for sale"
            active = self._active_auction()
            if active is not None and company != active:
                return f"{active} is being auctioned; bids go on it"
            lo, hi = self.min_bid(company), self.max_bid(action["entity"], company)
            return f"a bid on {company} must be {lo}-{hi} (cash less open bids)"
        return None
