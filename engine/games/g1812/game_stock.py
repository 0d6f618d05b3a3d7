"""1812 initial private auction and Stock Round (§3.2, §6).

- The private auction (§3.2; round kind ``auction``): in Player Order a player nominates an
  unsold private with a bid (multiples of £5, at least its minimum, at most his cash) or
  passes; the others in Player Order raise or drop out for good; the winner pays the bank
  and the player after him nominates next.  All players passing in a row with nothing sold
  draws a new random set; with something sold, two Operating Rounds follow (only privates
  pay) and the auction goes on in the next Stock Round.  Once every private is sold the
  normal Stock Round goes on from the player after the last buyer.  Bidding is done with
  :mod:`.auction`.
- The Stock Round (§6): sell any number of certificates (§6.1: publics that have operated,
  pool at most 50%, the Director's Certificate never in the pool, the Director's sale
  drops the price one space however many shares), then one of: auction a minor before
  Phase 4 (§6.2.1: bid at least £100, paid into the minor, start price half the bid
  rounded down to a yellow space), buy one 10% share from Phase 3 (§6.2.2: treasury pays
  the company, pool the bank; below 60% before buying; not a company sold this round), or
  start a public company from Phase 4 (§6.2.3: a red-outlined price, twice it into the
  treasury, a station marker on any free city, twice the city's value to the bank).  The
  round ends when all players pass in a row; a player over the certificate limit must sell
  first (§6); the next Player Order is by cash (§6.3, Place Cards).
- Bids are listed at the minimum and a few raises (so the bots bid); any multiple of £5 in
  the listed ``min_bid``-``max_bid`` range is accepted.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.games.g1812 import auction as auc
from engine.games.g1812 import economy as eco
from engine.games.g1812 import economy_costs as costs
from engine.games.g1812 import economy_data as ed

__all__ = ["StockMixin1812"]

#: Raises above the minimum that the legal list shows (any multiple of £5 is accepted).
_BID_SAMPLES = (0, 5, 10, 25, 50)


class StockMixin1812:
    """Private auction and Stock Round of :class:`~.game.Game1812`."""

    # ------------------------------------------------------------------ helpers
    def _bids(self, player: str, item: str, floor: int) -> list[dict]:
        cash = self.cash(player)
        top = cash - cash % ed.BID_STEP
        if top < floor:
            return []
        return [{"type": "bid", "entity": player, "company": item, "price": floor + extra,
                 "min_bid": floor, "max_bid": top}
                for extra in _BID_SAMPLES if floor + extra <= top]  # fmt: skip

    def _auction_actions(self, a: auc.Auction) -> list[dict]:
        p = a.to_act
        acts = []
        if self.num_certs(p) < self.cert_limit(p):
            acts = self._bids(p, a.item, a.high_bid + ed.BID_STEP)
        return acts + [{"type": "pass", "entity": p}]

    def unsold_privates(self) -> list[str]:
        return [c for c in self.privates_in_play if self.state.companies[c]["owner"] is None]

    def unsold_minors(self) -> list[str]:
        ops = self.state.operators
        return [m for m in self.minors_in_play
                if m not in self.minor_owner and not ops[m].closed]  # fmt: skip

    def _next_after(self, player: str) -> int:
        order = self.round.entities
        return (order.index(player) + 1) % len(order)

    # ------------------------------------------------------------------ private auction
    def start_private_auction(self, index: int) -> None:
        self.round = type(self.round)("auction", list(self.players), index, 1, {
            "passes": 0, "sold_any": False, "auction": None, "finished": False,
        })  # fmt: skip
        self.note(f"-- stock round {self.turn}: private auction --")

    def legal_auction_round(self) -> list[dict]:
        r = self.round
        a = r.data["auction"]
        if a is not None:
            return self._auction_actions(a)
        p = r.current
        acts = []
        if self.num_certs(p) < self.cert_limit(p):
            for c in self.unsold_privates():
                acts += self._bids(p, c, auc.private_minimum(c))
        return acts + [{"type": "pass", "entity": p}]

    def auction_round_finished(self) -> bool:
        return self.round.data["finished"]

    def skip_auction_round(self) -> None:
        raise RuntimeError("the private auction always offers a pass")

    def auction_bid(self, action: dict) -> None:
        r = self.round
        p, item, price = action["entity"], action["company"], int(action["price"])
        a = r.data["auction"]
        if a is None:
            a = auc.open_auction(item, p, price, r.entities, self.cash(p),
                                 auc.private_minimum(item))  # fmt: skip
            self.note(f"{p} nominates {item} for {price}")
        else:
            a = auc.raise_bid(a, p, price, self.cash(p))
            self.note(f"{p} bids {price} for {item}")
        self._auction_step(a)

    def auction_pass(self, action: dict) -> None:
        r = self.round
        a = r.data["auction"]
        if a is not None:
            self._auction_step(auc.pass_bid(a, action["entity"]))
            return
        r.data["passes"] += 1
        if r.data["passes"] >= len(r.entities):
            if r.data["sold_any"]:
                r.data["finished"] = True  # two ORs in which only privates pay (§3.2)
                return
            self.note("nobody bids: a new set of privates is drawn (§3.2)")
            self._draw_privates()
            r.data["passes"] = 0
            r.index = 0
            return
        r.index = (r.index + 1) % len(r.entities)

    def _auction_step(self, a: auc.Auction) -> None:
        r = self.round
        won = auc.winner(a)
        if won is None:
            r.data["auction"] = a
            return
        player, price = won
        r.data["auction"] = None
        self.pay(player, BANK, price, f"private {a.item}")
        self.state.companies[a.item]["owner"] = player
        self.note(f"{player} buys {a.item} for {price}")
        r.data["sold_any"] = True
        r.data["passes"] = 0
        nxt = self._next_after(player)
        if not self.unsold_privates():
            self.start_stock_round(nxt)
        else:
            r.index = nxt

    def end_auction_round(self) -> None:
        self.end_stock_round()
        self.start_operating_round(1)

    # ------------------------------------------------------------------ stock round
    def start_stock_round(self, index: int = 0) -> None:
        entities = list(self.players)
        self.round = type(self.round)("stock", entities, index, 1, {
            "passes": 0, "sold": {p: set() for p in entities}, "sold_now": set(),
            "acted": False, "auction": None, "home": None,
        })  # fmt: skip
        self.note(f"-- stock round {self.turn} --")

    def stock_round_finished(self) -> bool:
        d = self.round.data
        return d["passes"] >= len(self.round.entities) and d["auction"] is None

    def skip_stock_round(self) -> None:
        self.stock_pass({"type": "pass", "entity": self.round.current})

    def _end_stock_turn(self, nxt: int | None = None) -> None:
        r = self.round
        d = r.data
        if d["acted"]:
            d["passes"] = 0
        else:
            d["passes"] += 1
        r.index = (r.index + 1) % len(r.entities) if nxt is None else nxt
        d.update(acted=False, sold_now=set())

    def legal_stock_round(self) -> list[dict]:
        d = self.round.data
        if d["home"] is not None:
            return self._home_token_actions(d["home"])
        if d["auction"] is not None:
            return self._auction_actions(d["auction"])
        p = self.round.current
        sells = self._sales(p)
        certs, limit = self.num_certs(p), self.cert_limit(p)
        if certs > limit:
            return sells  # §6: sell down to the limit first (nothing sellable: pass)
        acts = []
        phase = int(self.state.phase_name)
        if certs < limit:
            if phase < 4 and self.cash(p) >= ed.MINOR_MIN_BID:
                for m in self.unsold_minors():
                    acts += self._bids(p, m, ed.MINOR_MIN_BID)
            if phase >= 3:
                acts += self._share_buys(p)
            if phase >= 4:
                acts += self._starts(p)
        return acts + sells + [{"type": "pass", "entity": p}]

    def _sales(self, p: str) -> list[dict]:
        out = []
        for corp in self.live_corporations():
            if corp in self.round.data["sold_now"] or not self.shares.percent(corp, p):
                continue
            if not self.state.operators[corp].operated:
                continue
            pool = self.shares.percent(corp, POOL)
            for size in self.shares.sale_sizes(p, corp):
                if pool + size <= self.MARKET_SHARE_LIMIT:
                    out.append({"type": "sell_shares", "entity": p, "corporation": corp,
                                "percent": size,
                                "price": size // 10 * self.share_price(corp)})  # fmt: skip
        return out

    def _share_buys(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        for corp in self.live_corporations():
            if self.shares.president(corp) is None:
                continue
            if corp in self.round.data["sold"].get(p, ()):
                continue
            if self.shares.percent(corp, p) + 10 > ed.MAX_BUY_PERCENT:
                continue
            price = self.share_price(corp)
            if cash < price:
                continue
            for source, holder in (("treasury", corp), (POOL, POOL)):
                certs = self.shares.ordinary(corp, holder)
                if certs:
                    out.append({"type": "buy_shares", "entity": p, "corporation": corp,
                                "source": source, "percent": 10, "price": price,
                                "shares": [certs[0].id]})  # fmt: skip
        return out

    def _starts(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        corps = self.free_publics()
        if not corps or not self._home_token_actions(corps[0]):
            return out  # §6.2.3 needs a free city space for the first station marker
        for corp in corps:
            for price in ed.PUBLIC_START_PRICES:
                if cash >= ed.PUBLIC_START_MULTIPLIER * price:
                    out.append({"type": "par", "entity": p, "corporation": corp,
                                "share_price": price})  # fmt: skip
        return out

    def _home_token_actions(self, corp: str) -> list[dict]:
        """§6.2.3: any unreserved free city space; the company pays twice its value."""
        st = self.state
        colors = st.phase.get("tiles", ())
        acts = []
        for hex_ in st.board.coords():
            cities = st.board.tile(hex_).cities
            for i, city in enumerate(cities):
                if st.city_room(hex_, i, corp) is None:
                    cost = 2 * city.revenue.value(colors)
                    acts.append({"type": "place_token", "entity": corp, "hex": hex_,
                                 "city": i, "cost": cost})  # fmt: skip
        return acts

    # ------------------------------------------------------------------ processing
    def stock_sell_shares(self, action: dict) -> None:
        p, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        self.sell_shares(p, corp, pct)
        d = self.round.data
        d["sold"].setdefault(p, set()).add(corp)
        d["sold_now"].add(corp)
        d["acted"] = True

    def sell_movement(self, corp: str, was_president: bool) -> None:
        if was_president:  # §6.1: one space down when the Director sells, however many
            self.move_price(corp, -1)

    def close_at_zero(self) -> None:
        """Closures happen as prices move (:meth:`move_price`)."""

    def stock_buy_shares(self, action: dict) -> None:
        p, corp = action["entity"], action["corporation"]
        holder = corp if action["source"] == "treasury" else POOL
        cert = self.shares.ordinary(corp, holder)[0]
        self.pay(p, corp if holder == corp else BANK, int(action["price"]), f"share of {corp}")
        self.shares.buy(p, cert.id)
        self.note(f"{p} buys 10% of {corp} from the {action['source']}")
        self.round.data["acted"] = True
        self._end_stock_turn()

    def stock_par(self, action: dict) -> None:
        p, corp, price = action["entity"], action["corporation"], int(action["share_price"])
        info = costs.start_public(price, self.state.phase_name)
        self.open_public(corp)
        self.shares.par(corp, p)
        self.market.place_at(corp, price)
        self.pay(p, corp, info.cost, f"starts {corp}")
        self.note(f"{p} starts {corp} at {price}")
        self.round.data["home"] = corp
        self.round.data["acted"] = True

    def stock_place_token(self, action: dict) -> None:
        corp, hex_, city = action["entity"], action["hex"], int(action["city"])
        self.state.place_token(hex_, city, corp, check=False)
        self.state.operators[corp].home_placed = True
        self.pay(corp, BANK, int(action["cost"]), f"{corp} home station")
        self.note(f"{corp} places its first station in {hex_} for {action['cost']}")
        self.round.data["home"] = None
        self._end_stock_turn()

    def stock_bid(self, action: dict) -> None:
        d = self.round.data
        p, item, price = action["entity"], action["company"], int(action["price"])
        a = d["auction"]
        if a is None:
            a = auc.open_auction(item, p, price, self.round.entities, self.cash(p),
                                 ed.MINOR_MIN_BID)  # fmt: skip
            self.note(f"{p} puts minor {item} up for {price}")
        else:
            a = auc.raise_bid(a, p, price, self.cash(p))
        self._minor_auction_step(a)

    def _minor_auction_step(self, a: auc.Auction) -> None:
        d = self.round.data
        if auc.winner(a) is None:
            d["auction"] = a
            return
        d["auction"] = None
        start = auc.start_minor(a, self.state.phase_name)
        self.start_minor(start.minor, start.owner, start.treasury, start.price)
        d["acted"] = True
        self._end_stock_turn(self._next_after(start.owner))

    def start_minor(self, minor: str, owner: str, paid: int, price: int) -> None:
        """§6.2.1: the bid into the treasury, the marker on its yellow space, the station
        marker on its reserved home."""
        self.minor_owner[minor] = owner
        self.pay(owner, minor, paid, f"minor {minor}")
        self.market.place_at(minor, price)
        op = self.state.operators[minor]
        op.floated = True
        # the reserved space follows its city through upgrades (two circles become one)
        hex_, city = next(k for k, v in self.state.reservations.items() if minor in v)
        self.state.place_token(hex_, city, minor, check=False)
        self.note(f"{owner} starts minor {minor} for {paid} (price {price})")

    def stock_pass(self, action: dict) -> None:
        d = self.round.data
        if d["auction"] is not None:
            self._minor_auction_step(auc.pass_bid(d["auction"], action["entity"]))
            return
        self._end_stock_turn()

    def end_stock_round(self) -> None:
        """§6.3: Place Cards by cash, ties in the old order; no sold-out or pool moves."""
        order = eco.player_order_after_stock({p: self.cash(p) for p in self.players},
                                             self.players)  # fmt: skip
        self.players = list(order)
        self.shares.players = list(order)
        self.note(f"player order: {', '.join(self.players)}")
