"""1842 trains: purchases, surplus trains, forced purchase, bankruptcy and receivership.

Rules (``../shared/seeds/1842-schleswig-holstein-rules.txt``, sections as printed):

- purchase (7.6): the lowest new train or a pool train at the card price, or another
  company's train at any price from 10 M (both companies' directors agreeing; a private
  with a sale marker sells none, 3.1.4.1), while under the train limit (the phase's; a
  private's or predecessor's charter, 3.1.3); private and predecessor railways buy no
  5-train and get no money from their owner (3.1.3);
- surplus trains go to the pool without compensation, the director choosing (3.1.4.1,
  7.6);
- phase events: the last 4-train makes SE and HMBG shares available (4), the first
  5-train marks the privates for sale and transforms the predecessors (3.1.4, 3.2 b);
- forced purchase (3.3.5, 3.3.5.1): a corporation without a train must buy one; it first
  sells its HAV certificates (the fewest that are needed, economy reading), then its
  director pays what the treasury lacks for a pool or new train, raising it, in this
  order, by selling shares (not of the corporation that needs the train), liquidating his
  private railways and giving his predecessors to the bank; otherwise he goes bankrupt;
- bankruptcy (10.4): his cash and the proceeds of all his certificates (sold into the
  pool, which may then hold more than 50%) go to the corporation; directorships pass
  (3.3.6) or the corporation is in receivership, where the bank buys the train lending
  what is missing; in receivership a corporation only runs, withholds and repays the loan.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.state import DEPOT
from engine.games.g1842 import economy_data as ed
from engine.games.g1842.game_shares import POOL

__all__ = ["TrainsMixin1842"]

HAV = ed.HAV


class TrainsMixin1842:
    """Train stage of :class:`Game1842`."""

    def train_limit(self, sym: str) -> int:
        if self.is_minor(sym):
            return self.minor_train_limit(sym)
        return int(self.state.phase.get("train_limit", 99))

    def _bank_offer(self, op: str) -> list[tuple[object, int]]:
        out = []
        for card in self.state.depot_trains():
            if self.is_minor(op) and card.sym in ed.MINOR_FORBIDDEN_TRAINS:
                continue  # 3.1.3: no 5-train for a private railway
            out.append((card, int(self.state.train_spec(card)["price"])))
        return out

    def _company_offer(self, op: str) -> list:
        out = []
        for sym, other in self.state.operators.items():
            if sym in (op, HAV) or other.closed or not other.floated:
                continue
            if self.is_minor(sym):
                if not self.minor_open(sym) or sym in self.sale_marker or sym in self.bank_managed:
                    continue
            elif self.receivership(sym):
                continue
            for card in self.state.trains_of(sym):
                if self.is_minor(op) and card.sym in ed.MINOR_FORBIDDEN_TRAINS:
                    continue
                out.append(card)
        return out

    # ------------------------------------------------------------------ legal actions
    def legal_train(self, op: str) -> list[dict]:
        if self.receivership(op) or op in self.bank_managed:
            return []
        cash = self.cash(op)
        bank = self._bank_offer(op)
        must = not self.is_minor(op) and not self.state.trains_of(op) and bool(bank)
        hav_sizes = self._hav_sizes(op) if must else []
        pres = None if self.is_minor(op) else self.shares.president(op)
        contribute = must and not hav_sizes and pres is not None
        pres_cash = self.cash(pres) if contribute else 0
        acts = []
        if len(self.state.trains_of(op)) < self.train_limit(op):
            for card, price in bank:
                if price <= cash or (contribute and price <= cash + pres_cash):
                    acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                 "variant": card.name, "price": price})  # fmt: skip
            low = ed.COMPANY_TRAIN_MIN_PRICE
            if cash >= low:
                for card in self._company_offer(op):
                    acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                 "variant": card.name, "price": cash, "min_price": low,
                                 "max_price": cash})  # fmt: skip
        if not must:
            if acts:
                acts.append({"type": "pass", "entity": op, "auto": False})
            return acts
        cheapest = min(price for _c, price in bank)
        if cash >= cheapest:
            return acts
        if hav_sizes:
            need = cheapest - cash
            value = self.share_value(HAV)
            for s in hav_sizes:
                if (s - 10) * value // 10 < need:  # no more than needed
                    acts.append({"type": "sell_shares", "entity": op, "corporation": HAV,
                                 "percent": s, "price": s * value // 10})  # fmt: skip
            return acts
        if pres is None or cash + pres_cash >= cheapest:
            return acts
        raise_acts = self._raising(op, pres)
        if raise_acts:
            return acts + raise_acts
        if not acts:
            acts.append({"type": "bankrupt", "entity": op})
        return acts

    def _raising(self, op: str, pres: str) -> list[dict]:
        """The director's next way to raise money (3.3.5.1 steps 3-5), in order."""
        sales = []
        for book in self.books():
            for corp in book.by_corp:
                if corp == op or not self.started(corp) or not book.percent(corp, pres):
                    continue
                pool = book.percent(corp, POOL)
                for s in book.sale_sizes(pres, corp):
                    if pool + s <= ed.POOL_LIMIT:
                        sales.append({"type": "sell_shares", "entity": pres, "corporation": corp,
                                      "percent": s,
                                      "price": s * self.share_value(corp) // 10})  # fmt: skip
        if sales:
            return sales
        privates = [m for m in ed.PRIVATES if self.minor_owner.get(m) == pres
                    and self.cash(m) > ed.DEMOLITION_CHARGE]  # fmt: skip
        if privates:
            return [{"type": "liquidate", "entity": m} for m in privates]
        preds = [m for m in ed.PREDECESSORS if self.minor_owner.get(m) == pres]
        return [{"type": "surrender", "entity": m} for m in preds]

    # ------------------------------------------------------------------ processing
    def operating_buy_train(self, action: dict) -> None:
        op, ident, price = action["entity"], action["train"], int(action["price"])
        card = self.state.trains[ident]
        source = card.owner
        short = price - self.cash(op)
        if short > 0:
            self.pay(self.shares.president(op), op, short, "director's contribution")
            self.note(f"{self.shares.president(op)} adds {short} for {op}'s train (3.3.5.1)")
        self.pay(op, BANK if source == DEPOT else source, price, f"train {ident}")
        phase = self.state.phase_name
        self.state.buy_train(op, ident)
        self.note(f"{op} buys a {card.name}-train from {source} for {price}")
        self.events.append({"type": "train", "entity": op, "train": card.name, "price": price,
                            "from": source, "phase": self.state.phase_name})  # fmt: skip
        if not self.last_four_sold and not any(self.state.trains[i].sym == "4"
                                               for i in self.state.depot):  # fmt: skip
            self.last_four_sold = True
            self.note("-- the last 4-train is sold: SE and HMBG shares are available --")
        if phase != self.state.phase_name:
            self.note(f"-- phase {self.state.phase_name} --")
            if not self.first_five and card.sym == "5":
                self.first_five_bought()

    def operating_sell_shares(self, action: dict) -> None:
        ent, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        stage = self.or_turn.stage if self.or_turn else None
        if ent == self.or_turn.op and stage == "hav":
            return self.hav_trade(action)
        self.sell_certificates(ent, corp, pct)

    def operating_buy_shares(self, action: dict) -> None:
        self.hav_trade(action)

    def operating_liquidate(self, action: dict) -> None:
        self.liquidate(action["entity"])

    def operating_surrender(self, action: dict) -> None:
        self.surrender(action["entity"])

    # ------------------------------------------------------------------ surplus trains
    def _crowded(self) -> list[str]:
        """Companies holding more trains than their limit, in charter order."""
        owners = tuple(card.owner for card in self.state.trains.values())
        key = (self.state.phase_index, owners,
               tuple(sym for sym, op in self.state.operators.items() if op.closed))  # fmt: skip
        cached = self.__dict__.get("_crowd_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        count: dict[str, int] = {}
        for owner in owners:
            if owner is not None:
                count[owner] = count.get(owner, 0) + 1
        out = []
        for sym, op in self.state.operators.items():
            n = count.get(sym, 0)
            if n and sym != HAV and not op.closed and op.floated and n > self.train_limit(sym):
                out.append(sym)
        self.__dict__["_crowd_cache"] = (key, out)
        return out

    def pending_discards(self) -> list[dict] | None:
        for sym in self._crowded():
            if self.receivership(sym) or sym in self.bank_managed:
                continue
            return [{"type": "discard_train", "entity": sym, "train": t.id}
                    for t in self.state.trains_of(sym)]  # fmt: skip
        return None

    def auto_discards(self) -> None:
        """The bank chooses for a company it runs: the oldest trains go."""
        for sym in self._crowded():
            if self.receivership(sym) or sym in self.bank_managed:
                while len(self.state.trains_of(sym)) > self.train_limit(sym):
                    self.state.discard_train(sym, self.state.trains_of(sym)[0].id)

    def operating_discard_train(self, action: dict) -> None:
        self.state.discard_train(action["entity"], action["train"])
        self.note(f"{action['entity']} puts train {action['train']} into the pool")

    # ------------------------------------------------------------------ receivership
    def skip_train(self, op: str) -> None:
        if self.receivership(op):
            self.receivership_train(op)

    def receivership_train(self, op: str) -> None:
        """The bank buys the cheapest train, lending what is missing (10.4)."""
        if self.state.trains_of(op):
            return
        bank = self._bank_offer(op)
        if not bank:
            return
        card, price = min(bank, key=lambda cp: (cp[1], cp[0].order))
        short = price - self.cash(op)
        if short > 0:
            self.pay(BANK, op, short, f"{op} borrows from the bank")
            self.loans[op] = self.loans.get(op, 0) + short
        self.operating_buy_train({"entity": op, "train": card.id, "price": price})

    # ------------------------------------------------------------------ bankruptcy
    def operating_bankrupt(self, action: dict) -> None:
        op = action["entity"]
        pres = self.shares.president(op)
        self.note(f"-- {pres} goes bankrupt --")
        for m in ed.PRIVATES:
            if self.minor_owner.get(m) == pres:
                self.liquidate(m)
        for m in ed.PREDECESSORS:
            if self.minor_owner.get(m) == pres:
                self.surrender(m)
        self.pay(pres, op, self.cash(pres), "bankrupt director's cash")
        for book in self.books():
            for corp in list(book.by_corp):
                pct = book.percent(corp, pres)
                if not pct:
                    continue
                value = self.share_value(corp) * pct // 10
                book.dump(pres, corp)
                self.pay(BANK, op, value, f"{pres}'s {corp} certificates")
                if corp in self.market and not (corp == HAV and self.simplified_hav):
                    self.market.sale(corp, pct)
        self.bankrupt.append(pres)
        self.check_game_end()
        if self.finished:
            return
        if self.receivership(op):
            self.note(f"{op} is in receivership")
            self.receivership_train(op)
            self.or_turn.index = len(self.or_turn.stages)
