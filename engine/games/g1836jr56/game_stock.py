"""1836Jr-56 stock rounds: capitalisation by phase, escrow, starting to operate, share units.

1836Jr-56 keeps the 1856 stock rules (seed ``../shared/seeds/1836jr-rules.txt``: "except as
stated below, all 1856 rules apply"); the facts follow tobymao/18xx @111f7f69 (MIT), read, not
copied:

- ``g_1856/corporation.rb`` ``par!``/``capitalization_type``: a corporation's capitalisation
  is fixed when it is parred: *escrow* until the last 4-train is sold (``no_more_escrow_corps``),
  *incremental* after that or for a corporation whose destination was already connected,
  *full* once the last 5-train is sold (``no_more_incremental_corps``);
- ``share_pool.rb`` ``transfer_shares`` and ``g_1856/game.rb`` ``release_escrow!``: an escrow
  corporation receives the price of every IPO share bought while its IPO holds more than 50%
  (the first five shares); later IPO money is held by the bank (``escrow``) until the
  destination is connected; an incremental one receives every IPO sale; a full one receives
  nothing from sales and ten times its par price once enough is sold to operate
  (``float_corporation``);
- ``g_1856/corporation.rb`` ``floated?``/``floatable?``, ``g_1856/round/operating.rb``
  ``start_operating``: a corporation starts operating once ``percent_to_operate`` has left
  its IPO (20%, 10% more every time the last train of a type is sold, ``event_change_float!``);
- ``g_1856/step/buy_sell_par_shares.rb``: the national cannot be parred, its shares trade
  only once it exists; a share bought this turn cannot be sold back down to nothing in the
  same turn (``vested?``); ``MUST_SELL_IN_BLOCKS``: one sale per corporation per turn
  (``step/buy_sell_par_shares.rb`` ``can_sell?``); ``SELL_MOVEMENT = :down_per_10``;
- ``g_1856/round/stock.rb`` ``corporations_to_move_price``: a sold-out corporation (players
  hold 100%) moves up at the end of the round, started or not;
- the national may have twenty 5% shares (``national_issue_shares!``): a 5% share costs the
  share price and counts half a certificate (``cert_size``);
- a "false" national president (``false_national_president``, ``g_1856/game.rb``
  ``national_share_swap`` and ``step/buy_sell_par_shares.rb``) holds half the president's
  certificate.  On his first turn of the next stock round he may only sell shares (not the
  national's) and buy a national share from the IPO or the market: he pays its price to the
  bank, the share stays where it was and his certificate grows to the whole (``buy_and_grow_
  presidency``).  With nothing to sell and too little cash he is bankrupt and the game ends
  (``failed_to_raise_money``; here a lone ``bankrupt`` action).  A player already holding
  national shares who buys one before him takes the presidency the same way: he pays the
  price, hands one share to the false president and receives the whole certificate.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.games.g1836jr30.game_market import UNCOUNTED
from engine.games.g1836jr30.game_stock import HOLDING_LIMIT

__all__ = ["StockMixin56"]


class StockMixin56:
    """Stock-round rules of :class:`~engine.games.g1836jr56.game.Game1836Jr56`."""

    # ------------------------------------------------------------------ capitalisation
    def cap_type(self, corp: str) -> str:
        """``escrow``, ``incremental`` or ``full``: fixed at par, else what a par now gives
        (``capitalization_type``)."""
        if corp in self.cap:
            return self.cap[corp]
        if self.game_cap == "escrow" and corp in self.destinated:
            return "incremental"
        return self.game_cap

    def floatable(self, corp: str) -> bool:
        """Enough sold out of the IPO to start operating (``floatable?``)."""
        return self.shares.percent(corp, corp) <= 100 - self.percent_to_operate

    def start(self, corp: str) -> None:
        """``corp`` starts operating (``float!``)."""
        if corp not in self.started:
            self.started.add(corp)
            self.state.operators[corp].floated = True
            self.note(f"{corp} starts operating")

    # ------------------------------------------------------------------ limits
    def num_certs(self, player: str) -> float:
        """Certificates counting against the limit: shares outside the yellow and orange
        zones (a national 5% share counts half), privates."""
        cache = self.__dict__.get("_certs")
        if cache is None or cache[0] != self._version:
            counts = dict.fromkeys(self.seats, 0.0)
            for corp, certs in self.shares.by_corp.items():
                if self.market.kind(corp) in UNCOUNTED:
                    continue
                half = self.unit(corp) == 5
                for c in certs:
                    if c.owner in counts:
                        counts[c.owner] += 0.5 if half and not c.president else 1
            for info in self.state.companies.values():
                if info["owner"] in counts and not info["closed"]:
                    counts[info["owner"]] += 1
            cache = self.__dict__["_certs"] = (self._version, counts)
        return cache[1][player]

    def _can_gain(self, player: str, corp: str, percent: int) -> bool:
        size = 0.5 if self.unit(corp) == 5 else 1
        return self._may_hold(player, corp, percent) and (
            self.market.kind(corp) in UNCOUNTED
            or self.num_certs(player) + size <= self.cert_limit(player)
        )

    # ------------------------------------------------------------------ parring
    def can_par(self, corp: str, player: str) -> bool:
        return corp != self.NATIONAL and super().can_par(corp, player)

    def stock_par(self, action: dict) -> None:
        p, corp, price = action["entity"], action["corporation"], int(action["share_price"])
        self.round.data["parred"] = True
        cap = self.cap[corp] = self.cap_type(corp)
        self.escrow[corp] = 0 if cap == "escrow" else None
        self.create_shares(corp)
        self.market.par(corp, price)
        self.shares.par(corp, p)
        # the IPO holds 100% before the sale: escrow and incremental corporations take it
        self.pay(p, BANK if cap == "full" else corp, 2 * price, f"par {corp}")
        self.note(f"{p} pars {corp} at {price} ({cap} capitalisation)")
        self.after_par(corp, p, price)
        self._stock_bought(p)

    def after_share_change(self, corp: str) -> None:
        """A full-capitalisation corporation with enough sold starts at once and receives
        ten times its par price (``float_corporation``)."""
        if corp in self.started or self.cap.get(corp) != "full" or not self.floatable(corp):
            return
        self.start(corp)
        amount = 10 * self.market.par_price(corp)
        self.pay(BANK, corp, amount, f"{corp} floats")
        self.note(f"{corp} receives {amount}")

    # ------------------------------------------------------------------ buying
    def buyable_certs(self, corp: str, holder: str) -> list:
        if holder == self.NATIONAL:
            return self.national_ipo()
        return super().buyable_certs(corp, holder)

    def legal_stock(self) -> list[dict]:
        p = self.round.current
        if p is None or p != self.false_president:
            return super().legal_stock()
        # his first action: sell (not the national) or buy up the presidency; no pass
        acts = [a for a in self._buys(p) if a["corporation"] == self.NATIONAL]
        acts += self._sales(p)
        return acts or [{"type": "bankrupt", "entity": p}]

    def stock_bankrupt(self, action: dict) -> None:
        p = action["entity"]
        self.note(f"-- {p} cannot buy up the {self.NATIONAL} presidency and is bankrupt --")
        self.bankrupt.append(p)

    def ipo_receiver(self, corp: str) -> str:
        """Who is paid for a share out of ``corp``'s IPO now (the bank holds escrow)."""
        cap = self.cap.get(corp)
        if cap == "incremental" or (cap == "escrow" and self.shares.percent(corp, corp) > 50):
            return corp
        return BANK

    def stock_buy_shares(self, action: dict) -> None:
        ent, cid = action["entity"], action["shares"][0]
        nat, fp = self.NATIONAL, self.false_president
        if (
            fp is not None
            and action["corporation"] == nat
            and (ent == fp or self.shares.percent(nat, ent))
        ):
            return self._buy_up_presidency(action)
        cert = self.shares.certs[cid]
        corp = cert.corp
        data = self.round.data
        price = int(action["price"])
        if cert.owner == corp:
            data["bought_ipo"] = True
            receiver = self.ipo_receiver(corp)
            if receiver == BANK and self.cap.get(corp) == "escrow":
                self.escrow[corp] = (self.escrow[corp] or 0) + price
                self.note(f"{price} for {corp} goes into escrow")
        else:
            receiver = BANK
        data["bought_corps"].add(corp)
        self.pay(ent, receiver, price, f"share of {corp}")
        self.shares.buy(ent, cid)
        if self.shares.percent(corp, ent) > HOLDING_LIMIT:
            self.over_limit.add(corp)
        data["unvested"] = corp
        self.note(f"{ent} buys {action['percent']}% of {corp} from the {action['source']}")
        self.after_share_change(corp)
        self._stock_bought(ent)

    def _buy_up_presidency(self, action: dict) -> None:
        """``buy_and_grow_presidency``: the price to the bank, the bought share stays put,
        the reserved half joins the president's certificate (a new president first hands
        the false one a share)."""
        ent, nat, reg = action["entity"], self.NATIONAL, self.shares
        fp, price = self.false_president, int(action["price"])
        data = self.round.data
        if reg.certs[action["shares"][0]].owner == nat:
            data["bought_ipo"] = True
        data["bought_corps"].add(nat)
        self.pay(ent, BANK, price, f"{ent} buys up the {nat} presidency")
        reserved = reg.certs.pop(self.reserved_cert)
        reg.by_corp[nat].remove(reserved)
        pres = reg.president_cert(nat)
        if ent != fp:
            reg.move([reg.ordinary(nat, ent)[0].id], fp)
            reg.move([pres.id], ent)
            reg.presidents[nat] = ent
            self.note(f"{ent} takes the {nat} presidency from {fp}")
        pres.percent *= 2
        self.false_president = self.reserved_cert = None
        if reg.percent(nat, ent) > HOLDING_LIMIT:
            self.over_limit.add(nat)
        data["unvested"] = nat
        self.note(f"{ent} pays {price} for the whole {nat} president's certificate "
                  f"({pres.percent}%)")  # fmt: skip
        self._stock_bought(ent)

    def sale_sizes(self, p: str, corp: str) -> list[int]:
        """What ``p`` may sell of ``corp`` as far as the certificates go; a false national
        president does not sell his half certificate."""
        if corp == self.NATIONAL and p == self.false_president:
            return []
        return self.shares.sale_sizes(p, corp)

    # ------------------------------------------------------------------ selling
    def sellable_sizes(self, p: str, corp: str) -> list[int]:
        data = self.round.data
        if corp in data["sold_now"]:
            return []  # MUST_SELL_IN_BLOCKS: one sale of a corporation per turn
        sizes = self.sale_sizes(p, corp)
        if sizes and data.get("unvested") == corp:
            held = self.shares.percent(corp, p)
            sizes = [s for s in sizes if s < held]  # vested?: keep a share
        return sizes

    def stock_sell_shares(self, action: dict) -> None:
        super().stock_sell_shares(action)
        self.round.data["sold_now"].add(action["corporation"])

    def sell_shares(
        self, p: str, corp: str, pct: int, close: bool = True, ids: list | None = None
    ) -> None:
        """Paid at the current price per share; the price then drops one row per 10%
        (``:down_per_10``), which may close the corporation."""
        price = self.value_of(corp, pct)
        self.shares.sell(p, corp, pct, ids or None)
        self.pay(BANK, p, price, f"sale of {corp}")
        self.note(f"{p} sells {pct}% of {corp} for {price}")
        self.price_move(corp, "down", pct // 10)
        self._settle_over_limit()

    def _new_stock_turn(self) -> None:
        super()._new_stock_turn()
        self.round.data["unvested"] = None

    def sold_out_up(self, corp: str) -> None:
        self.price_move(corp, "up")  # whether it operates yet or not

    def explain_false_president(self, action: dict) -> str | None:
        fp = self.false_president
        if fp is None or action.get("entity") != fp or self.round.kind != "stock":
            return None
        if self.round.current != fp or action.get("type") == "sell_shares":
            return None
        return (
            f"{fp} must first buy the other half of the {self.NATIONAL} president's "
            "certificate (selling shares to raise the money)"
        )

    def explain_stock(self, action: dict) -> str | None:
        corp = action.get("corporation")
        if action["type"] == "par" and corp == self.NATIONAL:
            return f"{corp} is the national: it forms in phase 6 and is never parred"
        formed = corp in self.shares.by_corp
        if action["type"] == "buy_shares" and corp == self.NATIONAL and not formed:
            return f"{corp} has not formed: its shares do not exist yet"
        if action["type"] == "sell_shares" and self.round.kind == "stock":
            if corp in self.round.data.get("sold_now", ()):
                return f"{corp} was already sold this turn (shares are sold in one block)"
            if self.round.data.get("unvested") == corp:
                return f"{corp} was bought this turn: a share of it must be kept"
        return super().explain_stock(action)
