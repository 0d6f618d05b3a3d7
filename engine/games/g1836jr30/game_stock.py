"""The 1830 stock round of 1836Jr-30: sell, buy, sell; certificate zones; the GCB exchange.

Facts from tobymao/18xx @111f7f69 (MIT): ``lib/engine/step/buy_sell_par_shares.rb``
(``SELL_BUY_ORDER = :sell_buy_sell`` in ``g_1836_jr30/game.rb``: sales before and after the
turn's one purchase; no buying back a corporation sold this round; several shares of one
corporation in a brown cell, from the market only (``multiple_buy_only_from_market?``), not
after a par, an IPO purchase or a purchase of another corporation; a player over a limit
must sell; a pass after an action ends the turn, a pass without one counts towards the
end of the round), ``step/share_buying.rb`` ``can_gain?`` (60% unless the price is orange or
brown; the certificate limit unless yellow, orange or brown), ``share_pool.rb``
``fit_in_bank?`` (50% in the market), ``game/base.rb`` (``SELL_AFTER = :first``: no sales in
the first stock round; ``SELL_MOVEMENT = :down_share``: one row down per share sold;
``float_corporation``: 60% sold, the corporation receives ten times its par price;
shares bought from the IPO cost the par price and pay the bank), ``round/stock.rb``
``finish_round`` (a sold-out corporation moves up) and ``step/exchange.rb`` (the GCB is
exchanged for a B share from the IPO or the market, certificate limit aside, at any choice
of a stock or operating round, also before the B is parred; the private closes).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.games.g1836jr30.game_market import MULTIPLE_BUY, UNCOUNTED, UNLIMITED_HOLDING

__all__ = ["StockMixin1830", "HOLDING_LIMIT"]

#: The most of one corporation a player may acquire outside the orange and brown zones.
HOLDING_LIMIT = 60
#: Percentage of a corporation sold (out of its IPO) at which it floats.
FLOAT_PERCENT = 60


class StockMixin1830:
    """Stock-round rules of :class:`~engine.games.g1836jr30.game.Game1836Jr30`."""

    # ------------------------------------------------------------------ shares
    def unit(self, corp: str) -> int:
        """Percentage of one share of ``corp`` (10; 1836Jr-56: 5 for a twenty-share national)."""
        return self.shares.share_percent.get(corp, 10)

    def value_of(self, corp: str, percent: int, ipo: bool = False) -> int:
        """Price of ``percent`` of ``corp``: per share at the par (IPO) or market price."""
        price = self.market.par_price(corp) if ipo else self.share_price(corp)
        return price * percent // self.unit(corp)

    def buyable_certs(self, corp: str, holder: str) -> list:
        """The certificates of ``corp`` that ``holder`` (the IPO or the pool) sells, first
        one next."""
        return self.shares.ordinary(corp, holder)

    def sale_sizes(self, p: str, corp: str) -> list[int]:
        """What ``p`` may sell of ``corp`` as far as the certificates go."""
        return self.shares.sale_sizes(p, corp)

    def sellable_sizes(self, p: str, corp: str) -> list[int]:
        """What ``p`` may sell of ``corp`` in a stock turn now (before the pool limit)."""
        return self.sale_sizes(p, corp)

    # ------------------------------------------------------------------ limits
    def cert_limit(self, player: str) -> int:
        return int(self.data.CERT_LIMIT[len(self.seats)])

    def num_certs(self, player: str) -> int:
        """Certificates counting against the limit: shares outside the yellow, orange and
        brown zones, certificates of corporations without a price yet, privates."""
        cache = self.__dict__.get("_certs")
        if cache is None or cache[0] != self._version:
            counts = dict.fromkeys(self.seats, 0)
            for corp, certs in self.shares.by_corp.items():
                if self.market.kind(corp) in UNCOUNTED:
                    continue
                for c in certs:
                    if c.owner in counts:
                        counts[c.owner] += 1
            for holder in self.loose_certs.values():
                counts[holder] += 1
            for info in self.state.companies.values():
                if info["owner"] in counts and not info["closed"]:
                    counts[info["owner"]] += 1
            cache = self.__dict__["_certs"] = (self._version, counts)
        return cache[1][player]

    def holding_limit(self, corp: str) -> int:
        """60%, or 100% while a corporation sits in an orange or brown cell, or while a
        player still holds more than 60% bought there (sold down in the next stock round)."""
        if corp in self.over_limit or self.market.kind(corp) in UNLIMITED_HOLDING:
            return 100
        return HOLDING_LIMIT

    def _may_hold(self, player: str, corp: str, extra: int) -> bool:
        return (
            self.shares.percent(corp, player) + extra <= HOLDING_LIMIT
            or self.market.kind(corp) in UNLIMITED_HOLDING
        )

    def _can_gain(self, player: str, corp: str, percent: int) -> bool:
        return self._may_hold(player, corp, percent) and (
            self.market.kind(corp) in UNCOUNTED or self.num_certs(player) < self.cert_limit(player)
        )

    def _over_holding(self, player: str) -> list[str]:
        return [
            c
            for c in self.live_corporations()
            if self.shares.percent(c, player) > HOLDING_LIMIT
            and self.market.kind(c) not in UNLIMITED_HOLDING
        ]

    def _must_sell(self, player: str) -> bool:
        return self.num_certs(player) > self.cert_limit(player) or bool(self._over_holding(player))

    def _settle_over_limit(self) -> None:
        """Forget corporations nobody holds beyond 60% any more."""
        for corp in list(self.over_limit):
            if corp not in self.shares.by_corp or all(
                self.shares.percent(corp, p) <= HOLDING_LIMIT for p in self.seats
            ):
                self.over_limit.discard(corp)

    # ------------------------------------------------------------------ hooks
    def par_prices(self) -> list[int]:
        return self.market.par_prices()

    def market_par(self, corp: str, player: str, price: int) -> None:
        self.market.par(corp, price)

    def treasury_receiver(self, corp: str) -> str:
        return BANK  # full capitalisation: IPO money goes to the bank, the float pays

    def create_shares(self, corp: str) -> None:
        if corp not in self.shares.by_corp:
            self.shares.add_corporation(corp)

    def sale_timing_ok(self, player: str, corp: str) -> bool:
        # SELL_AFTER = :first: no sales in the first stock round
        return self.turn > 1 or self.round.kind == "operating"

    def market_up(self, corp: str) -> None:
        self.market.move(corp, "up")

    def sold_out_up(self, corp: str) -> None:
        """``corp``, all in players' hands at the end of a stock round, moves up if it
        operates."""
        if self.state.operators[corp].floated:
            self.market_up(corp)

    def market_down(self, corp: str) -> None:
        self.market.move(corp, "down")

    def after_par(self, corp: str, player: str, price: int) -> None:
        """Certificates handed out before the par (the CFL's GCL share) join the
        corporation's holders."""
        for cert, holder in list(self.loose_certs.items()):
            if cert.rpartition("_")[0] == corp:
                self.shares.certs[cert].owner = holder
                self.shares.check_president(corp)
                del self.loose_certs[cert]
        self.after_share_change(corp)

    def after_share_change(self, corp: str) -> None:
        """Float at 60% out of the IPO: the bank pays ten times the par price."""
        op = self.state.operators[corp]
        if op.floated or corp not in self.shares.by_corp:
            return
        if self.shares.percent(corp, corp) <= 100 - FLOAT_PERCENT:
            op.floated = True
            amount = self.market.par_price(corp) * 10
            self.pay(BANK, corp, amount, f"{corp} floats")
            self.note(f"{corp} floats and receives {amount}")

    # ------------------------------------------------------------------ round
    def _new_stock_turn(self) -> None:
        self.round.data.update(
            bought=False,
            acted=False,
            sold_now=set(),
            bought_corps=set(),
            bought_ipo=False,
            parred=False,
        )

    def _stock_bought(self, p: str) -> None:
        data = self.round.data
        data["bought"] = data["acted"] = True
        data["passed"].discard(p)  # sell/buy/sell: the turn goes on until a pass

    def end_stock_round(self) -> None:
        """Sold-out corporations move up (operating order), then the priority deal."""
        for corp in self.market.operating_order(self.live_corporations()):
            if self.shares.player_percent(corp) == 100:
                self.sold_out_up(corp)
        r = self.round
        last = r.data["last_passer"]
        if last is not None:
            nxt = r.entities[(r.entities.index(last) + 1) % len(r.entities)]
            i = self.players.index(nxt)
            self.players = self.players[i:] + self.players[:i]
        self.note(f"{self.players[0]} has priority")

    # ------------------------------------------------------------------ legal actions
    def legal_stock(self) -> list[dict]:
        p = self.round.current
        sells = self._sales(p)
        if self._must_sell(p) and sells:
            return sells
        own = self._buys(p) + self._pars(p) + sells
        if not own:
            # buy_sell_par_shares.rb: no valid action, the player passes (a lone pass the
            # engine takes; the GCB's exchange stays open at the next choice)
            return [{"type": "pass", "entity": p}]
        return own + [{"type": "pass", "entity": p}] + self._exchanges()

    def _buys(self, p: str) -> list[dict]:
        data = self.round.data
        out = []
        cash = self.cash(p)
        for corp in self.live_corporations():
            unit = self.unit(corp)
            if corp in data["sold"].get(p, ()) or not self._can_gain(p, corp, unit):
                continue
            for source, holder in (("treasury", corp), (POOL, POOL)):
                if data["bought"] and not self._multiple_ok(corp, source):
                    continue
                certs = self.buyable_certs(corp, holder)
                if not certs:
                    continue
                price = self.value_of(corp, unit, ipo=holder == corp)
                if cash >= price:
                    out.append(
                        {
                            "type": "buy_shares",
                            "entity": p,
                            "corporation": corp,
                            "shares": [certs[0].id],
                            "source": source,
                            "percent": unit,
                            "price": price,
                        }
                    )
        return out

    def _multiple_ok(self, corp: str, source: str) -> bool:
        """A second share this turn: brown cell, from the market, nothing else bought
        (``can_buy_multiple?``)."""
        data = self.round.data
        # option multiple_brown_from_ipo: the IPO too (buy_sell_par_shares.rb
        # can_buy_multiple?: the market-only checks are off)
        ipo_ok = "multiple_brown_from_ipo" in self.options
        return (
            (ipo_ok or (source == POOL and not data["bought_ipo"]))
            and self.market.kind(corp) in MULTIPLE_BUY
            and not data["parred"]
            and data["bought_corps"] <= {corp}
        )

    def _pars(self, p: str) -> list[dict]:
        if self.round.data["bought"] or self.num_certs(p) >= self.cert_limit(p):
            return []
        cash = self.cash(p)
        prices = [price for price in self.par_prices() if cash >= 2 * price]
        return [
            {"type": "par", "entity": p, "corporation": corp, "share_price": price}
            for corp in self.state.operators
            if corp not in self.shares.by_corp and self.can_par(corp, p)
            for price in prices
        ]

    def _sales(self, p: str) -> list[dict]:
        if not self.sale_timing_ok(p, ""):
            return []
        out = []
        for corp in self.live_corporations():
            sizes = self.sellable_sizes(p, corp)
            pool = self.shares.percent(corp, POOL) if sizes else 0
            for size in sizes:
                if pool + size <= self.MARKET_SHARE_LIMIT:
                    out.append(
                        {
                            "type": "sell_shares",
                            "entity": p,
                            "corporation": corp,
                            "percent": size,
                            "price": self.value_of(corp, size),
                        }
                    )
        return out

    def _exchanges(self) -> list[dict]:
        """The GCB for a B share, by its owner at any choice of a stock or an operating
        round (``step/exchange.rb``: a non-blocking step of both), also before the B has a
        par price (see :meth:`unparred_share_ids`)."""
        out = []
        for company, info in self.state.companies.items():
            p = info["owner"]
            if info["closed"] or p not in self.seats:
                continue
            for ab in info["spec"].get("abilities", []) or []:
                if ab.get("type") != "exchange":
                    continue
                for corp in ab.get("corporations", []):
                    ids = self.unparred_share_ids(corp)
                    if ids and "ipo" in ab.get("from", []):
                        out.append({"type": "buy_shares", "entity": company, "corporation": corp,
                                    "shares": [ids[0]], "source": "treasury", "percent": 10,
                                    "price": 0})  # fmt: skip
                        continue
                    if corp not in self.live_corporations() or not self._may_hold(p, corp, 10):
                        continue
                    for source, holder in (("treasury", corp), (POOL, POOL)):
                        wanted = "ipo" if holder == corp else "market"
                        certs = self.shares.ordinary(corp, holder)
                        if certs and wanted in ab.get("from", []):
                            out.append(
                                {
                                    "type": "buy_shares",
                                    "entity": company,
                                    "corporation": corp,
                                    "shares": [certs[0].id],
                                    "source": source,
                                    "percent": 10,
                                    "price": 0,
                                }
                            )
        return out

    def unparred_share_ids(self, corp: str) -> list[str]:
        """Ordinary certificates of ``corp`` a private may be exchanged for while ``corp``
        has no par price yet; empty once it has one, or if it is out of the game.

        18xx.games (``step/exchange.rb`` ``can_exchange?``, ``share_pool.rb``
        ``buy_shares`` with ``exchange``, ``corporation.rb`` ``available_share``): the
        exchange takes the IPO's first ordinary certificate free, certificate limit aside,
        and neither pars the corporation nor makes it ``ipoed``; its later par sets the
        price as usual (whoever pars it), the certificate then counts towards the float
        (it is out of the IPO) and cannot be sold before (``all_bundles_for_corporation``:
        nothing of a corporation that is not ``ipoed``).  Until the par the certificate is
        held in :attr:`loose_certs` (like the CFL's GCL share)."""
        op = self.state.operators.get(corp)
        if (
            op is None
            or op.kind != "corporation"
            or op.removed
            or op.closed
            or corp in self.shares.by_corp
        ):
            return []
        # create_shares: a 20% president's certificate and eight 10% ones (SYM_1..SYM_8)
        return [f"{corp}_{i}" for i in range(1, 9) if f"{corp}_{i}" not in self.loose_certs]

    # ------------------------------------------------------------------ processing
    def stock_par(self, action: dict) -> None:
        self.round.data["parred"] = True
        super().stock_par(action)

    def stock_buy_shares(self, action: dict) -> None:
        ent, cid = action["entity"], action["shares"][0]
        if ent in self.state.companies:
            return self._exchange(ent, cid)
        cert = self.shares.certs[cid]
        corp = cert.corp
        data = self.round.data
        if cert.owner == corp:
            data["bought_ipo"] = True
        data["bought_corps"].add(corp)
        self.pay(ent, BANK, int(action["price"]), f"share of {corp}")
        self.shares.buy(ent, cid)
        if self.shares.percent(corp, ent) > HOLDING_LIMIT:
            self.over_limit.add(corp)
        self.note(f"{ent} buys 10% of {corp} from the {action['source']}")
        self.after_share_change(corp)
        self._stock_bought(ent)

    def _exchange(self, company: str, cid: str) -> None:
        info = self.state.companies[company]
        player = info["owner"]
        if cid not in self.shares.certs:  # the corporation has no par price yet
            self.loose_certs[cid] = player
            info["closed"] = True
            self.note(f"{player} exchanges {company} for {cid} (not parred yet)")
            return
        corp = self.shares.certs[cid].corp
        self.shares.buy(player, cid)
        info["closed"] = True
        self.note(f"{player} exchanges {company} for 10% of {corp}")
        self.after_share_change(corp)

    def stock_sell_shares(self, action: dict) -> None:
        p, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        self.sell_shares(p, corp, pct, ids=action.get("shares"))
        data = self.round.data
        data["sold"].setdefault(p, set()).add(corp)
        data["acted"] = True
        data["passed"].discard(p)

    def sell_shares(
        self, p: str, corp: str, pct: int, close: bool = True, ids: list | None = None
    ) -> None:
        """Paid at the current price; the price then drops one row per share sold
        (``ids``: the certificates, when the action names them)."""
        price = self.share_price(corp) * pct // 10
        if ids:
            self.shares.sell(p, corp, pct, ids)
        else:
            self.shares.sell(p, corp, pct)
        self.pay(BANK, p, price, f"sale of {corp}")
        self.market.move(corp, "down", pct // 10)
        self._settle_over_limit()
        self.note(f"{p} sells {pct}% of {corp} for {price}; price now {self.share_price(corp)}")

    def explain_stock(self, action: dict) -> str | None:
        p, corp, kind = action.get("entity"), action.get("corporation"), action["type"]
        if self.round.kind != "stock":
            return "share trading happens in the stock round"
        if kind == "sell_shares" and not self.sale_timing_ok(p, corp):
            return "no sales in the first stock round"
        if kind == "sell_shares":
            pct = action.get("percent")
            if (
                isinstance(pct, int)
                and corp in self.shares.by_corp
                and (self.shares.percent(corp, POOL) + pct > self.MARKET_SHARE_LIMIT)
            ):
                return f"the market would hold more than {self.MARKET_SHARE_LIMIT}% of {corp}"
            return f"{p} cannot sell {pct}% of {corp}"
        if kind in ("buy_shares", "par") and self._must_sell(p):
            return f"{p} is over a limit and must sell first"
        if kind == "buy_shares":
            if corp in self.round.data["sold"].get(p, ()):
                return f"{p} sold {corp} this round and may not buy it back"
            if self.round.data["bought"]:
                return "one certificate per turn (several only from the market in a brown cell)"
            if corp in self.shares.by_corp and not self._can_gain(p, corp, 10):
                return f"{p} would pass the 60% or certificate limit"
        if kind == "par":
            if self.round.data["bought"]:
                return "one certificate per turn"
            if corp not in self.state.operators or not self.can_par(corp, p):
                return f"{corp} cannot be parred (unknown or already parred)"
            if action.get("share_price") not in self.par_prices():
                return f"{action.get('share_price')} is not a par price ({self.par_prices()})"
            return f"{p} has {self.cash(p)}, less than twice the par price, or no room"
        return None
