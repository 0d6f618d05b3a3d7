"""1842 stock rounds: the starting package, certificates, limits, starts and the 100% rule.

Rules (``../shared/seeds/1842-schleswig-holstein-rules.txt``, sections as printed) with
the figures and readings of :mod:`.economy` and :mod:`.economy_minors`:

- first stock round (6.1): while the starting package is not sold a player buys its
  lowest-numbered company or passes; when all pass, an operating round for the companies
  sold follows and the first stock round goes on; nothing may be sold in it; with six
  players the player left without a company starts by buying the AKE director
  certificate (5.1);
- a turn (6.2): sell any number of certificates (whole certificates, started
  corporations only, the pool at most 50%, the director certificate only through a player
  holding 20%), then buy one certificate (the offering's top at face value, or one from
  the pool at the market value; not a corporation sold this round; 60% and the
  certificate limit) or pass; the round ends when all pass in a row and the player left
  of the last buyer gets the priority deal (6.2);
- the price drop (8): a seller's sales of one corporation in one turn count as one sale
  of their total (:meth:`StockMixin1842.sell_certificates`);
- limits (6.3, 6.4): certificates of a corporation in the yellow or brown zone do not
  count, in the brown zone the 60% limit lapses; a player over a limit may only sell,
  one certificate at a time if he likes, each sale moving the token on its own;
- availability (3.3.1, 4, 11.2), corporation start at 50% sold with ten times the face
  value (3.3.2), the SE and HMBG transformation at 50% (3.2 a) and the 100% rule (8) at the
  round's end; the HAV is bought by players from the brown phase on (3.4.1).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.games.g1842 import economy as eco
from engine.games.g1842 import economy_data as ed
from engine.games.g1842 import economy_minors as em
from engine.games.g1842 import economy_ops as eo
from engine.games.g1842.game_shares import POOL, ShareBook

__all__ = ["StockMixin1842"]

HAV = ed.HAV
PACKAGE = ed.STARTING_PACKAGE
_MINOR_SPEC = {m["sym"]: m for m in ed.MINORS}


class StockMixin1842:
    """Stock-round rules of :class:`engine.games.g1842.game.Game1842`."""

    # ------------------------------------------------------------------ books
    def book(self, corp: str) -> ShareBook:
        """The book holding ``corp``'s certificates (HAV; SE/HMBG before they start)."""
        if corp == HAV:
            return self.hav
        if corp in self.pre.by_corp:
            return self.pre
        return self.shares

    def books(self) -> tuple[ShareBook, ...]:
        return (self.shares, self.pre, self.hav)

    def started(self, corp: str) -> bool:
        op = self.state.operators.get(corp)
        return op is not None and op.floated

    def ipo(self, corp: str) -> list:
        """Certificates in the initial offering, top first (the SE/HMBG director
        certificate lies in the exchange box, not here, 4)."""
        book = self.book(corp)
        if corp not in book.by_corp:
            return []
        return [c for c in book.offering(corp) if not (book is self.pre and c.president)]

    def sold_percent(self, corp: str) -> int:
        """Percentage no longer in the initial offering; the SE/HMBG exchange certificate
        counts as sold (3.2 a)."""
        if corp not in self.book(corp).by_corp:
            return 0
        return 100 - sum(c.percent for c in self.ipo(corp))

    def pool_percent(self, corp: str) -> int:
        return self.book(corp).percent(corp, POOL)

    def held_percent(self, corp: str, holder: str) -> int:
        return self.book(corp).percent(corp, holder)

    def share_value(self, corp: str) -> int:
        """Market value of a 10% share (face value before the start; HAV simplified: 30)."""
        if corp == HAV and self.simplified_hav:
            return ed.HAV_START_PRICE
        if corp in self.market:
            return self.market.price(corp)
        return ed.FACE_VALUE[corp]

    def share_price(self, corp: str) -> int:
        return self.share_value(corp)

    def corporations_started(self) -> list[str]:
        return [c for c in self.corp_syms if c != HAV and self.started(c)]

    # ------------------------------------------------------------------ availability
    def package_sold(self) -> bool:
        return all(m in self.building for m in PACKAGE)  # set when bought, kept after

    def available(self) -> set[str]:
        """Corporations whose certificates are on sale (3.3.1, 4, 11.2); the HAV to
        players only from the brown phase (3.4.1)."""
        cached = self.__dict__.get("_avail_cache")
        if cached is not None and cached[0] == self._version:
            return cached[1]
        out = self._available()
        self.__dict__["_avail_cache"] = (self._version, out)
        return out

    def _available(self) -> set[str]:
        sold = {c: self.sold_percent(c) for c in self.corp_syms if c != HAV}
        out = set(eco.available_corporations(
            package_sold=self.package_sold(), sold_percent=sold,
            last_four_train_sold=self.last_four_sold, started=self.corporations_started(),
            options=self.options,
        ))  # fmt: skip
        if eo.phase_colour(self.state.phase_name) in ("yellow", "green"):
            out.discard(HAV)
        return out

    # ------------------------------------------------------------------ limits
    def cert_limit(self, player: str) -> int:
        return eco.certificate_limit(len(self.seats), self.options)

    def _exempt(self, corp: str) -> bool:
        return corp in self.market and self.market.zone(corp) in ("yellow", "brown")

    def num_certs(self, player: str) -> int:
        """Companies plus certificates outside the yellow and brown zones (6.3, 6.4)."""
        count = sum(1 for m, o in self.minor_owner.items()
                    if o == player and not self.state.operators[m].closed)  # fmt: skip
        for book in self.books():
            for c in book.certs_of(player):
                if not self._exempt(c.corp):
                    count += 1
        return count

    def buy_limit(self, corp: str) -> int:
        """60%, lifted while the token is in the brown zone (6.3, 6.4)."""
        if corp in self.market and self.market.zone(corp) == "brown":
            return 100
        return ed.HOLDING_LIMIT

    def holding_limit(self, corp: str) -> int:
        """The most any player may legally hold now: 60%, or what purchases in the brown
        zone took a player to (kept until sold down, 6.4)."""
        return max(self.buy_limit(corp), self.limit_lifted.get(corp, 0))

    def over_limits(self, player: str) -> bool:
        if self.num_certs(player) > self.cert_limit(player):
            return True
        for book in self.books():
            for corp in book.by_corp:
                if book.percent(corp, player) > max(ed.HOLDING_LIMIT, self.buy_limit(corp)):
                    return True
        return False

    # ------------------------------------------------------------------ round
    def start_stock_round(self) -> None:
        entities = [p for p in self.players if p not in self.bankrupt]
        self.round = type(self.round)("stock", entities, 0, 1, {
            "sold": {p: set() for p in entities}, "passed": set(), "last_buyer": None,
            "first": self.first_sr,
        })  # fmt: skip
        self._new_stock_turn()
        self.note(f"-- stock round {self.turn}{' (first)' if self.first_sr else ''} --")

    def _new_stock_turn(self) -> None:
        self.round.data.update(bought=False, acted=False, turn_sales={})

    def skip_stock(self) -> None:
        self.stock_pass({"type": "pass", "entity": self.round.current})

    def stock_pass(self, action: dict) -> None:
        p = action["entity"]
        data = self.round.data
        if not data["acted"]:
            data["passed"].add(p)
        else:
            data["passed"].discard(p)
        self._next_stock_player()

    def _bought(self, p: str) -> None:
        data = self.round.data
        data["last_buyer"] = p
        data["passed"].clear()  # a purchase starts a new run of passes (6.2)
        data["bought"] = True
        self._next_stock_player()

    def _priority_after_round(self) -> None:
        last = self.round.data["last_buyer"]
        if last is None:
            return
        nxt = eco.priority_after(self.seats, last)
        order = [p for p in self.seats if p not in self.bankrupt] or list(self.seats)
        while nxt not in order:
            nxt = eco.priority_after(self.seats, nxt)
        i = order.index(nxt)
        self.players = order[i:] + order[:i] + [p for p in self.seats if p in self.bankrupt]
        self.note(f"{self.players[0]} has the priority deal")

    def end_stock_round(self) -> None:
        """The 100% rule, corporations starting, successors transforming, priority."""
        if self.package_sold():
            for corp in self.market_order(list(self.market.where)):
                book = self.book(corp)
                players = sum(c.percent for c in book.by_corp.get(corp, ())
                              if c.owner in self.seats)  # fmt: skip
                if players == 100 and not (corp == HAV and self.simplified_hav):
                    self.market.up(corp)
            for corp in self.round.data.get("reached", []):
                if corp in ed.SUCCESSOR.values():
                    continue  # SE and HMBG start by transformation (3.2)
                if not self.started(corp) and self.sold_percent(corp) >= ed.START_PERCENT:
                    self.start_corporation(corp)
            for corp in list(self.corp_syms):
                if (corp not in ed.SUCCESSOR.values() or self.started(corp)
                        or corp not in self.pre.by_corp):  # fmt: skip
                    continue
                if em.transformation_due(self.sold_percent(corp)) and corp in self._available():
                    self.transform(corp, forced=False)
            self.first_sr = False
        self._priority_after_round()
        self.check_game_end()

    def market_order(self, corps: list[str]) -> list[str]:
        return self.market.operating_order([c for c in corps if c in self.market])

    # ------------------------------------------------------------------ legal actions
    def legal_stock(self) -> list[dict]:
        p = self.round.current
        if self.ake_forced == p:
            return self._stock_pars(p, only="AKE")
        if self.first_sr and not self.package_sold():
            acts = self._package_buys(p)
            return acts + [{"type": "pass", "entity": p}]
        sells = [] if self.first_sr else self._stock_sales(p)
        if self.over_limits(p):
            return sells
        acts = self._stock_buys(p) + self._stock_pars(p) + self._buy_backs(p) + sells
        acts.append({"type": "pass", "entity": p})
        return acts

    def _buy_backs(self, p: str) -> list[dict]:
        """A predecessor the bank runs is bought at the face value of the successor's
        director certificate (3.3.5.1 step 5)."""
        out = []
        for minor in sorted(self.bank_managed):
            price = self.buy_back_price(minor)
            if price <= self.cash(p) and self.num_certs(p) < self.cert_limit(p):
                out.append({"type": "buy_company", "entity": p, "company": minor,
                            "price": price})  # fmt: skip
        return out

    def _package_buys(self, p: str) -> list[dict]:
        offer = em.first_stock_round_offer([m for m in PACKAGE if m in self.building])
        if offer is None:
            return []
        price = int(_MINOR_SPEC[offer]["value"])
        if self.cash(p) < price or self.num_certs(p) >= self.cert_limit(p):
            return []
        return [{"type": "buy_company", "entity": p, "company": offer, "price": price}]

    def _may_gain(self, p: str, corp: str, percent: int) -> bool:
        if self.held_percent(corp, p) + percent > self.buy_limit(corp):
            return False
        return self._exempt(corp) or self._room(p)

    def _room(self, p: str) -> bool:
        """Below the certificate limit (cached for one legal-action computation)."""
        key = (self._version, p)
        cached = self.__dict__.get("_room_cache")
        if cached is None or cached[0] != key:
            cached = (key, self.num_certs(p) < self.cert_limit(p))
            self.__dict__["_room_cache"] = cached
        return cached[1]

    def _stock_pars(self, p: str, only: str | None = None) -> list[dict]:
        out = []
        avail = self.available()
        for corp in self.corp_syms:
            if only is not None and corp != only:
                continue
            if corp not in avail or corp in ed.SUCCESSOR.values():
                continue
            book = self.book(corp)
            top = book.offering(corp)[:1] if corp in book.by_corp else None
            if corp == HAV:
                if not top or not top[0].president:
                    continue
                if self.box_tokens < top[0].percent // 10:
                    continue
            elif corp in self.shares.by_corp:
                continue
            price = 2 * ed.FACE_VALUE[corp]
            if self.cash(p) >= price and self._room(p):
                out.append({"type": "par", "entity": p, "corporation": corp,
                            "share_price": ed.FACE_VALUE[corp]})  # fmt: skip
        return out

    def _stock_buys(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        sold = self.round.data["sold"].get(p, set())
        avail = self.available()
        for corp in self.corp_syms:
            if corp in sold:
                continue
            book = self.book(corp)
            if corp not in book.by_corp:
                continue
            if corp in avail:
                top = self.ipo(corp)[:1]
                if top and not top[0].president:
                    cert = top[0]
                    price = ed.FACE_VALUE[corp] * cert.percent // 10
                    ok = corp != HAV or self.box_tokens >= cert.percent // 10
                    if ok and price <= cash and self._may_gain(p, corp, cert.percent):
                        out.append(self._buy(p, corp, cert, "ipo", price))
            if self.started(corp) and (corp != HAV or eo.phase_colour(
                    self.state.phase_name) not in ("yellow", "green")):  # fmt: skip
                seen = set()
                for cert in book.certs_of(POOL, corp):
                    if cert.percent in seen:
                        continue
                    seen.add(cert.percent)
                    price = self.share_value(corp) * cert.percent // 10
                    if price <= cash and self._may_gain(p, corp, cert.percent):
                        out.append(self._buy(p, corp, cert, POOL, price))
        return out

    @staticmethod
    def _buy(p: str, corp: str, cert, source: str, price: int) -> dict:
        return {"type": "buy_shares", "entity": p, "corporation": corp, "shares": [cert.id],
                "source": source, "percent": cert.percent, "price": price}  # fmt: skip

    def _stock_sales(self, p: str) -> list[dict]:
        out = []
        for book in self.books():
            for corp in book.by_corp:
                if not self.started(corp) or not book.percent(corp, p):
                    continue
                pool = book.percent(corp, POOL)
                for size in book.sale_sizes(p, corp):
                    if pool + size <= ed.POOL_LIMIT:
                        out.append({"type": "sell_shares", "entity": p, "corporation": corp,
                                    "percent": size,
                                    "price": self.share_value(corp) * size // 10})  # fmt: skip
        return out

    # ------------------------------------------------------------------ processing
    def stock_buy_company(self, action: dict) -> None:
        p, minor = action["entity"], action["company"]
        if minor in self.bank_managed:
            self.pay(p, BANK, int(action["price"]), f"{minor} bought from the bank")
            self.bank_managed.discard(minor)
            self.minor_owner[minor] = p
            self.note(f"{p} takes over {minor} from the bank for {action['price']}")
        else:
            self.buy_minor(p, minor, int(action["price"]))
        self._bought(p)

    def stock_par(self, action: dict) -> None:
        p, corp = action["entity"], action["corporation"]
        price = 2 * ed.FACE_VALUE[corp]
        if corp == HAV:
            cert = self.hav.offering(HAV)[0]
            self._take_hav(p, cert, price, "ipo")
        else:
            self.shares.add_structure(corp, list(self.entity_spec(corp)["shares"]))
            self.shares.take(p, f"{corp}_0")
            self.pay(p, BANK, price, f"director certificate of {corp}")
        if self.ake_forced == p:
            self.ake_forced = None
        self.note(f"{p} buys the {corp} director certificate for {price}")
        self._bought(p)

    def stock_buy_shares(self, action: dict) -> None:
        p, corp, cid = action["entity"], action["corporation"], action["shares"][0]
        price = int(action["price"])
        book = self.book(corp)
        cert = book.certs[cid]
        if corp == HAV:
            self._take_hav(p, cert, price, action["source"])
        else:
            self.pay(p, BANK, price, f"{cert.percent}% of {corp}")
            book.take(p, cid, check=book is not self.pre)
            if self.sold_percent(corp) >= ed.START_PERCENT:
                reached = self.round.data.setdefault("reached", [])
                if corp not in reached:
                    reached.append(corp)
        self._after_gain(p, corp)
        self.note(f"{p} buys {cert.percent}% of {corp} from the {action['source']} for {price}")
        self._bought(p)

    def _after_gain(self, p: str, corp: str) -> None:
        held = self.held_percent(corp, p)
        if held > ed.HOLDING_LIMIT:  # only possible in the brown zone (6.4)
            self.limit_lifted[corp] = max(self.limit_lifted.get(corp, 0), held)

    def stock_sell_shares(self, action: dict) -> None:
        p, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        # 6.4: a player over a limit "may sell certificates one by one", each a sale
        self.sell_certificates(p, corp, pct, alone=self.over_limits(p))
        data = self.round.data
        data["sold"].setdefault(p, set()).add(corp)
        data["acted"] = True
        data["passed"].clear()

    def sell_certificates(
        self, seller: str, corp: str, pct: int, to: str | None = None, alone: bool = False
    ) -> int:
        """``seller`` sells ``pct`` of ``corp`` to the pool at its value; the token moves
        by the sale rule (8).  Money goes to ``to`` (default the seller).  Returns it.

        8: "For the sale of up to 20% share value ... 1 field down only.  If 30% or more
        ... 2 fields down."  The seller's sales of ``corp`` in one turn (his stock-round
        turn, 6.2 "first sell any numbers of certificates"; the operating company's turn)
        count as one sale: the token moves by what this sale adds to the turn's total
        (10% + 10%: one field in all, as 20% at once; a third 10%: one more).  ``alone``:
        a sale of its own (6.4: a player over a limit sells "one by one", each sale
        moving the token, as its example's 67 -> 61 -> yellow)."""
        book = self.book(corp)
        price = self.share_value(corp) * pct // 10
        book.sell(seller, corp, pct)
        self.pay(BANK, to or seller, price, f"sale of {pct}% {corp}")
        if corp in self.market and not (corp == HAV and self.simplified_hav):
            self.market.down(corp, self._sale_fields(seller, corp, pct, alone))
        self.note(f"{seller} sells {pct}% of {corp} for {price}")
        return price

    def _turn_sales(self) -> dict:
        """Percentages sold so far this turn, ``{seller: {corp: percent}}`` (8)."""
        if self.round.kind == "stock":
            return self.round.data.setdefault("turn_sales", {})
        if self.round.kind == "operating" and self.or_turn is not None:
            return self.or_turn.flags.setdefault("turn_sales", {})
        return {}  # outside a turn (an auction at an OR's start): every sale on its own

    def _sale_fields(self, seller: str, corp: str, pct: int, alone: bool) -> int:
        """Fields down for this sale: the turn's total's fields less those already moved
        (8; ``alone``: this sale's own, 6.4)."""
        if alone:
            return eco.sale_steps(pct)
        sold = self._turn_sales().setdefault(seller, {})
        before = sold.get(corp, 0)
        sold[corp] = before + pct
        return eco.sale_steps(before + pct) - (eco.sale_steps(before) if before else 0)

    # ------------------------------------------------------------------ corporations start
    def start_corporation(self, corp: str) -> None:
        """The bank hands over ten times the face value; home token; market token (3.3.2)."""
        op = self.state.operators[corp]
        op.floated = True
        self.pay(BANK, corp, eco.starting_capital(corp), f"{corp} starts")
        syms = self.state.reservations.get(self.state.home_city(corp) or ("", 0), [])
        if corp in syms:
            syms.remove(corp)
        self.state.board_version += 1
        self.state.place_home(corp)
        self.token_used[corp] = 1  # the home station (3.3.2)
        self.market.start(corp)
        self.note(f"{corp} starts with {eco.starting_capital(corp)}")
