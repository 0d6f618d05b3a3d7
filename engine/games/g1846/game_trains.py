"""1846 trains, emergency money, bankruptcy, share issues and private purchases.

Facts from tobymao/18xx @111f7f69 (MIT), cited per rule:

- ``g_1846/step/buy_train.rb`` with ``step/train.rb`` and ``step/emergency_money.rb``: a
  corporation without a train must buy one (``MUST_BUY_TRAIN = :always``); short of the
  cheapest depot train it must first issue shares (``MUST_EMERGENCY_ISSUE_BEFORE_EBUY``,
  ``game.rb`` ``emergency_issuable_bundles``: each share at 1 + n spaces left, the price
  then moving n left, no bundle worth nothing, no more than needed); then its president
  adds cash, selling shares only as far as needed (``selling_minimum_shares?``), never the
  shares that would pass the buying corporation's presidency nor at a $10 price; a
  president who sold may not then buy a weaker train than the corporation could already
  afford; trains from other corporations cost $1 up to the buyer's cash, but not in an
  emergency once shares were sold or issued (``EBUY_FROM_OTHERS = :never``);
- ``g_1846/step/bankrupt.rb``: the corporation issues what it can, the president sells what
  he may, sells the rest at the price without moving it (presidencies pass on or the
  corporation enters receivership), his privates and minors close and his cash goes to the
  corporation;
- ``g_1846/round/operating.rb``, ``step/route.rb``, ``g_1846/step/dividend.rb``: a
  corporation in receivership lays no track; its run is a ``run_routes`` action (18xx.games
  has a player enter it), then it withholds; without a train its price drops a second
  space (``Dividend#skip!``) and it buys the cheapest train when it can pay;
- ``game.rb`` ``issuable_shares``/``redeemable_shares`` (issue one space left, redeem one
  space right, at most player shares minus pool shares issued), ``step/issue_shares.rb``
  (once per turn, until the dividend);
- ``g_1846/step/buy_company.rb``: a corporation buying a minor takes its cash, 2-train
  and token (and needs room for the train).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.game.state import DEPOT
from engine.game.trains_buy import TrainBuyMixin

__all__ = ["TrainsMixin1846"]


class TrainsMixin1846(TrainBuyMixin):
    """Train stage, emergency money and corporate share actions of :class:`Game1846`."""

    # ------------------------------------------------------------------ helpers
    def _variants(self, card) -> list[tuple[str, int]]:
        spec = self.state.train_spec(card)
        return [(spec["name"], int(spec["price"]))] + [
            (v["name"], int(v["price"])) for v in spec.get("variants", []) or []
        ]

    def _depot_prices(self) -> tuple[int | None, int | None, object]:
        """(cheapest price, dearest price, cheapest train) of the depot (``depot.rb``)."""
        cards = self.state.depot_trains()
        if not cards:
            return None, None, None
        cheapest = min(cards, key=lambda c: min(p for _, p in self._variants(c)))
        lo = min(p for _, p in self._variants(cheapest))
        hi = max(p for c in cards for _, p in self._variants(c))
        return lo, hi, cheapest

    def _price_at(self, corp: str, offset: int) -> int:
        return self.market.price_at(self.market.column(corp) + offset)

    def counted_trains(self, op: str) -> int:
        return sum(1 for t in self.state.trains_of(op) if not t.obsolete)

    def _flags(self) -> dict:
        return self.or_turn.flags

    # ------------------------------------------------------------------ issue and redeem
    def _issuable_count(self, corp: str) -> int:
        share = self.shares.share_percent[corp]
        players = self.shares.player_percent(corp) // share
        pool = self.shares.percent(corp, POOL) // share
        return min(len(self.shares.ordinary(corp, corp)), players - pool)

    def issue_redeem_actions(self, op: str) -> list[dict]:
        if self._flags().get("issued"):
            return []
        acts = []
        left, right = self._price_at(op, -1), self._price_at(op, 1)
        for n in range(1, self._issuable_count(op) + 1):
            if left > 0:
                acts.append({"type": "sell_shares", "entity": op, "corporation": op,
                             "percent": 10 * n, "price": n * left})  # fmt: skip
        pool = self.shares.ordinary(op, POOL)
        for n in range(1, len(pool) + 1):
            if n * right <= self.cash(op):
                acts.append({"type": "buy_shares", "entity": op, "corporation": op,
                             "source": POOL, "percent": 10 * n, "price": n * right})  # fmt: skip
        return acts

    def emergency_bundles(self, corp: str) -> list[tuple[int, int]]:
        """(shares, price) a corporation may issue to buy its first train."""
        if self.state.trains_of(corp) or self._flags().get("emergency_issued"):
            return []
        lo, _hi, cheapest = self._depot_prices()
        if cheapest is None:
            return []
        prices = [p for _, p in self._variants(cheapest)]
        lo, hi = min(prices), max(prices)
        cash = self.cash(corp)
        if cash >= hi:
            return []
        bundles = []
        for n in range(1, self._issuable_count(corp) + 1):
            price = n * self._price_at(corp, -(1 + n))
            if price > 0:
                bundles.append((n, price))
        bundles.sort(key=lambda b: b[1])
        buying = [b for b in bundles if cash + b[1] >= lo]
        if buying:
            for i, b in enumerate(buying):
                if cash + b[1] >= hi:
                    return buying[: i + 1]
            return buying
        return [max(bundles)] if bundles else []

    def operating_sell_shares(self, action: dict) -> None:
        ent = action["entity"]
        if ent == self.or_turn.op:
            return self._issue(action)
        self._emergency_sale(ent, action["corporation"], int(action["percent"]),
                             action.get("shares"))  # fmt: skip

    def _issue(self, action: dict) -> None:
        corp, n = action["entity"], int(action["percent"]) // 10
        flags = self._flags()
        emergency = self.or_turn.stage == "train"
        if emergency:
            bundles = self.emergency_bundles(corp)
            sizes = [b[0] for b in bundles]
            i = sizes.index(n)
        certs = action.get("shares") or [c.id for c in self.shares.ordinary(corp, corp)[:n]]
        self.shares.move(certs, POOL)
        self.pay(BANK, corp, int(action["price"]), f"{corp} issues {n}")
        if emergency:
            flags["last_issued"] = bundles[i][1] - (bundles[i - 1][1] if i else 0)
            flags["emergency_issued"] = True
            self.market.left(corp, n)
            self.close_at_zero()
        else:
            flags["issued"] = True
        self.note(f"{corp} issues {n} share(s) for {action['price']}")

    def operating_buy_shares(self, action: dict) -> None:
        corp, n = action["entity"], int(action["percent"]) // 10
        certs = action.get("shares") or [c.id for c in self.shares.ordinary(corp, POOL)[:n]]
        self.shares.move(certs, corp)
        self.pay(corp, BANK, int(action["price"]), f"{corp} redeems {n}")
        self._flags()["issued"] = True
        self.note(f"{corp} redeems {n} share(s) for {action['price']}")

    # ------------------------------------------------------------------ privates
    def company_purchases(self, op: str) -> list[dict]:
        """Privates ``op`` may buy from players now ($1 to face value; not in
        receivership, ``receivership_skip.rb``)."""
        if "can_buy_companies" not in self.state.phase.get("status", []):
            return []
        if self.receivership(op):
            return []
        cash = self.cash(op)
        if cash < 1:
            return []
        flags = self._flags()
        if flags.get("emergency_issued") and not any(
            not t.obsolete for t in self.state.trains_of(op)
        ):
            return []
        acts = []
        for sym, info in self.state.companies.items():
            if info["closed"] or info["owner"] not in self.seats:
                continue
            minor = self.state.operators.get(sym)
            if minor is not None and self.counted_trains(op) >= self.train_limit(op):
                continue  # buy_company.rb: "train tight"
            value = int(info["spec"]["value"])
            top = min(value, cash)
            acts.append({"type": "buy_company", "entity": op, "company": sym,
                         "price": top, "min_price": 1, "max_price": top})  # fmt: skip
        return acts

    def operating_buy_company(self, action: dict) -> None:
        op, company, price = action["entity"], action["company"], int(action["price"])
        info = self.state.companies[company]
        seller = info["owner"]
        self.pay(op, seller, price, f"{company}")
        info["owner"] = op
        self.note(f"{op} buys {company} from {seller} for {price}")
        spec = info["spec"]
        for ab in spec.get("abilities", []) or []:
            if ab.get("type") == "assign_corporation" and ab.get("when") == "sold":
                self.assigned_corp[company] = op
        minor = self.state.operators.get(company)
        if minor is None or minor.kind != "minor":
            return
        self.pay(company, op, self.cash(company), f"{company} treasury")
        for card in self.state.trains_of(company):
            card.owner = op
        self.state.changed()
        for key, syms in list(self.state.tokens.items()):
            if company in syms:
                syms.remove(company)
                if op not in syms:
                    syms.append(op)
                    self.token_adjust[op] = self.token_adjust.get(op, 0) + 1
                if not syms:
                    del self.state.tokens[key]
        minor.closed = True
        for c, target in list(self.assigned_corp.items()):
            if target == company:
                del self.assigned_corp[c]

    # ------------------------------------------------------------------ train stage
    def _must_buy(self, op: str) -> bool:
        return not self.state.trains_of(op) and bool(self.state.depot_trains())

    def _pres_may_contribute(self, op: str) -> bool:
        lo, _hi, _c = self._depot_prices()
        if not self._must_buy(op) or lo is None or self.cash(op) >= lo:
            return False
        return not (self.emergency_bundles(op) and self._flags().get("last_issued") is None)

    def legal_train(self, op: str) -> list[dict]:
        if self.receivership(op):
            return []
        flags = self._flags()
        cash = self.cash(op)
        pres = self.shares.president(op)
        must = self._must_buy(op)
        contribute = self._pres_may_contribute(op)
        pres_cash = self.cash(pres) if contribute and pres else 0
        must_issue = bool(self.emergency_bundles(op)) and flags.get("last_issued") is None
        acts = []
        if self.counted_trains(op) < self.train_limit(op):
            for card in self.state.depot_trains():
                variants = self._variants(card)
                prices = sorted(p for _, p in variants)
                for name, price in variants:
                    # only the cheaper variant when the money reaches it but not the dearer
                    squeezed = len(variants) > 1 and prices[0] <= cash + pres_cash < prices[-1]
                    if squeezed and price != prices[0]:
                        continue
                    raised = flags.get("last_sold") or flags.get("last_issued")
                    if raised is not None:
                        must_spend = cash - raised + 1 + (pres_cash if flags.get("last_sold")
                                                          else 0)  # fmt: skip
                        if price < must_spend:
                            continue
                    if must_issue and price > cash:
                        continue
                    if price <= cash or (contribute and price <= cash + pres_cash):
                        acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                     "variant": name, "price": price})  # fmt: skip
            if cash > 0 and flags.get("last_issued") is None and not flags.get("last_sold"):
                depot_empty = self.two_player and not self.state.depot_trains()
                for other in self.live_corporations():
                    if other == op or self.receivership(other):
                        continue
                    if depot_empty and len(self.state.trains_of(other)) == 1:
                        continue  # 2 players, empty depot: not another's only train
                    for card in self.state.trains_of(other):
                        acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                     "variant": card.name, "price": cash, "min_price": 1,
                                     "max_price": cash})  # fmt: skip
        if must:
            for n, price in self.emergency_bundles(op):
                acts.append({"type": "sell_shares", "entity": op, "corporation": op,
                             "percent": 10 * n, "price": price})  # fmt: skip
            if contribute and pres is not None:
                acts += self._emergency_sales(op, pres)
            if pres is not None and self.can_go_bankrupt(pres, op):
                acts.append({"type": "bankrupt", "entity": op})
        elif acts:
            acts.append({"type": "pass", "entity": op})
        return acts

    def _emergency_sales(self, op: str, pres: str) -> list[dict]:
        _lo, hi, _c = self._depot_prices()
        need = hi - (self.cash(pres) + self.cash(op))
        if need <= 0:
            return []
        sold = self._flags()["sold"]
        acts = []
        for corp in self.live_corporations():
            if corp in sold or not self.shares.percent(corp, pres):
                continue
            if not self.sale_timing_ok(pres, corp):
                continue
            if corp == op and self.share_price(corp) == 10:
                continue  # buy_train.rb sellable_bundle?: do not close the buyer
            acts += self.sale_bundles(pres, corp, need, {op}, self.shares.sale_sizes(pres, corp))
        return acts

    def _emergency_sale(self, pres: str, corp: str, pct: int, ids=None) -> None:
        flags = self._flags()
        flags["last_sold"] = self.share_price(corp)
        flags["sold"].add(corp)
        self.sell_shares(pres, corp, pct, ids=ids)
        self._recalculate_order()

    def _liquidity(self, pres: str) -> int:
        """Cash plus the best sale of every corporation (receivership ones excluded)."""
        total = self.cash(pres)
        for corp in self.live_corporations():
            if self.receivership(corp) or not self.shares.percent(corp, pres):
                continue
            if not self.sale_timing_ok(pres, corp):
                continue
            pool = self.shares.percent(corp, POOL)
            sizes = [s for s in self.shares.sale_sizes(pres, corp)
                     if pool + s <= self.MARKET_SHARE_LIMIT]  # fmt: skip
            if sizes:
                total += max(sizes) // 10 * self.share_price(corp)
        return total

    def can_go_bankrupt(self, pres: str, op: str) -> bool:
        lo, _hi, _c = self._depot_prices()
        if lo is None:
            return False
        issue = max((p for _, p in self.emergency_bundles(op)), default=0)
        return self.cash(op) + issue + self._liquidity(pres) < lo

    def operating_buy_train(self, action: dict) -> None:
        op, ident, variant = action["entity"], action["train"], action["variant"]
        price = int(action["price"])
        _card, source = self.pay_for_train(op, ident, price)
        self.state.buy_train(op, ident, variant if source == DEPOT else None)
        self.record_train(op, variant, price, source)
        self._auto_discards()

    # ------------------------------------------------------------------ discards
    def _crowded(self) -> list[str]:
        counts: dict = {}
        for card in self.state.trains.values():
            if not card.obsolete and card.owner is not None:
                counts[card.owner] = counts.get(card.owner, 0) + 1
        return [c for c in self.live_corporations() if counts.get(c, 0) > self.train_limit(c)]

    def _auto_discards(self) -> None:
        for corp in self._crowded():
            if self.receivership(corp):
                while self.counted_trains(corp) > self.train_limit(corp):
                    card = next(t for t in self.state.trains_of(corp) if not t.obsolete)
                    self.state.discard_train(corp, card.id)

    def pending_discards(self) -> list[dict] | None:
        for corp in self._crowded():
            return [{"type": "discard_train", "entity": corp, "train": t.id}
                    for t in self.state.trains_of(corp) if not t.obsolete]  # fmt: skip
        return None

    def operating_discard_train(self, action: dict) -> None:
        self.state.discard_train(action["entity"], action["train"])
        self.note(f"{action['entity']} discards {action['train']}")

    # ------------------------------------------------------------------ bankruptcy
    def operating_bankrupt(self, action: dict) -> None:
        op = action["entity"]
        pres = self.shares.president(op)
        self.note(f"-- {pres} goes bankrupt --")
        bundles = self.emergency_bundles(op)
        if bundles:
            n, price = max(bundles)
            self.shares.move([c.id for c in self.shares.ordinary(op, op)[:n]], POOL)
            self.pay(BANK, op, price, f"{op} issues {n}")
            self.market.left(op, n)
            self._flags()["emergency_issued"] = True
        for corp in sorted(self.live_corporations()):
            if self.state.operators[corp].closed or self.receivership(corp):
                continue
            if not self.shares.percent(corp, pres) or not self.sale_timing_ok(pres, corp):
                continue
            pool = self.shares.percent(corp, POOL)
            sizes = [s for s in self.shares.sale_sizes(pres, corp)
                     if pool + s <= self.MARKET_SHARE_LIMIT]  # fmt: skip
            if sizes:
                self.sell_shares(pres, corp, max(sizes), close=False)
        for corp in self.live_corporations():
            held = self.shares.percent(corp, pres)
            if held:
                # bankrupt.rb: the rest is sold too (share_pool.sell_shares: paid at the
                # price, no price change, 50% and presidency aside)
                self.pay(BANK, pres, held // 10 * self.share_price(corp), f"{pres} dumps {corp}")
                self.shares.dump(pres, corp)
                if self.shares.president(corp) is None:
                    self.note(f"{corp} enters receivership")
        for sym, info in self.state.companies.items():
            if info["owner"] == pres and not info["closed"]:
                info["closed"] = True
                minor = self.state.operators.get(sym)
                if minor is not None and minor.kind == "minor" and not minor.closed:
                    self.pay(sym, BANK, self.cash(sym), f"{sym} closes")
                    self.state.close_operator(sym)
        self.pay(pres, op, self.cash(pres), "bankrupt president's cash")
        self.bankrupt.append(pres)
        self.close_at_zero()
        self._recalculate_order()
        self.check_game_end()
        if not self.finished and not self.state.operators[op].closed and self.receivership(op):
            self._receivership_train(op)
            self.or_turn.index = len(self.or_turn.stages)

    # ------------------------------------------------------------------ receivership
    def skip_train(self, op: str) -> None:
        """``BuyTrain#skip!``: a corporation in receivership without a train buys the
        cheapest depot train when it can pay (``round/operating.rb``
        ``receivership_train_buy``)."""
        if self.receivership(op) and not self.state.operators[op].closed:
            self._receivership_train(op)

    def _receivership_train(self, op: str) -> None:
        if self.state.trains_of(op):
            return
        _lo, _hi, card = self._depot_prices()
        if card is None:
            return
        name, price = min(self._variants(card), key=lambda v: v[1])
        if self.cash(op) >= price:
            self.pay(op, BANK, price, f"train {card.id}")
            self.state.buy_train(op, card.id, name)
            self.note(f"{op} (receivership) buys a {name} train for {price}")
            self._auto_discards()
