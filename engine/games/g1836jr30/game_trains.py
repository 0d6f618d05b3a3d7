"""1836Jr-30 trains: one of each type from the bank per round, trade-ins, emergency money,
bankruptcy and forced discards.

Facts from tobymao/18xx @111f7f69 (MIT) and the seed:

- ``step/buy_single_train_of_type.rb`` (seed "Purchasing Trains"): at most one train of a
  type from the bank (depot or discards) per operating round; the last of one type and the
  first of the next may both be bought;
- ``step/buy_train.rb``, ``step/train.rb``, ``depot.rb``: the depot sells the next train,
  trains whose ``available_on`` phase has come (diesels once the first 6 is sold) and the
  discarded trains; other corporations sell theirs for 1 up to the buyer's cash; a diesel
  costs 300 less traded in for an own 4, 5 or 6 (``discount``; no room needed, no
  president's money);
- ``game/base.rb`` ``must_buy_train?`` (``MUST_BUY_TRAIN = :route``): a corporation without a
  train must buy one when a route is open to it (``graph.rb``: a token city joined by track
  to another stop; the Paris and Channel-port hexes do not count, ``route: never`` there);
- emergency money (``step/emergency_money.rb``, ``EBUY_*`` defaults): short of the cheapest
  depot train, the president pays the difference and may only buy that cheapest train (or
  another corporation's, at no more than face value); he sells shares only as far as needed
  (``selling_minimum_shares?``), not so as to lose the buying corporation's presidency;
  after a sale a train from another corporation must cost more than the cash before it;
- ``step/bankrupt.rb`` with ``BANKRUPTCY_ENDS_GAME_AFTER = :one``: a president who cannot
  raise the cheapest train sells every sellable share, hands his cash to the bank and the
  game ends at once;
- ``step/discard_train.rb``: a corporation over a lowered train limit discards to the
  depot's discard pile.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.state import DEPOT
from engine.game.track import walk
from engine.game.trains_buy import TrainBuyMixin
from engine.model.tiles.parse import NodeRef

__all__ = ["TrainsMixin1830"]


class TrainsMixin1830(TrainBuyMixin):
    """Train stage of :class:`~engine.games.g1836jr30.game.Game1836Jr30`."""

    # ------------------------------------------------------------------ helpers
    def _price(self, card) -> int:
        return int(self.state.train_spec(card)["price"])

    def _min_depot(self):
        """(price, card) of the cheapest train the depot sells, or (None, None)."""
        cards = self.state.depot_trains()
        if not cards:
            return None, None
        card = min(cards, key=self._price)
        return self._price(card), card

    def counted_trains(self, op: str) -> int:
        return sum(1 for t in self.state.trains_of(op) if not t.obsolete)

    def route_available(self, op: str) -> bool:
        """Does a token city of ``op`` reach another stop by track (``route_train_purchase``)?"""
        key = (op, self.state.board_version)
        cache = self.__dict__.setdefault("_route_open", {})
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = self._walk_stops(op)
        return cache[key]

    def _walk_stops(self, op: str) -> bool:
        """Does a walk from one of ``op``'s token cities reach a second stop (full cities
        of other companies and offboards end it; the Channel ports and Paris are no stops,
        ``route: never``)?"""
        board, tokens = self.state.board, self.state.tokens
        never = tuple(getattr(self.data, "PORT_HEXES", ()))
        for (hex_, city), syms in tokens.items():
            if op not in syms:
                continue
            found = walk(board, [(hex_, NodeRef("city", city))], tokens=tokens, sym=op,
                         turns="nodes", stops=2, no_stop=never)  # fmt: skip
            if found.done:
                return True
        return False

    def must_buy(self, op: str) -> bool:
        return (
            not self.state.trains_of(op)
            and bool(self.state.depot_trains())
            and self.route_available(op)
        )

    def _sale_options(
        self, pres: str, op: str | None, need: int | None, protect=()
    ) -> list[dict]:
        """Sales ``pres`` may make now in an emergency (``need``: cash still missing; None
        for a bankruptcy, which sells whatever it may).  No presidency swap in ``op`` or
        the corporations in ``protect``."""
        acts = []
        guarded = {op, *protect}
        for corp in self.market.operating_order(self.live_corporations()):
            if self.shares.percent(corp, pres):
                acts += self.sale_bundles(pres, corp, need, guarded, self.sale_sizes(pres, corp),
                                          self.unit(corp))  # fmt: skip
        return acts

    def _liquidity(self, pres: str, op: str) -> int:
        best: dict[str, int] = {}
        for a in self._sale_options(pres, op, None):
            best[a["corporation"]] = max(best.get(a["corporation"], 0), a["price"])
        return self.cash(pres) + sum(best.values())

    def can_go_bankrupt(self, pres: str, op: str) -> bool:
        lo, _card = self._min_depot()
        return lo is not None and self.cash(op) + self._liquidity(pres, op) < lo

    # ------------------------------------------------------------------ legal actions
    def legal_train(self, op: str) -> list[dict]:
        flags = self.or_turn.flags
        cash = self.cash(op)
        room = self.counted_trains(op) < self.train_limit(op)
        lo, cheapest = self._min_depot()
        must = self.must_buy(op)
        emergency = must and lo is not None and cash < lo
        pres = self.shares.president(op)
        # a corporation that must buy may spend its president's money (train.rb
        # president_may_contribute?): on the cheapest depot train when short of it, or on
        # another corporation's train up to its face value
        pres_cash = self.cash(pres) if must and pres else 0
        acts = []
        if emergency:
            if room and cash + pres_cash >= lo:
                acts.append(self._depot_buy(op, cheapest, lo))
        else:
            for card in self.state.depot_trains():
                if card.sym in flags["bought_types"]:
                    continue
                price = self._price(card)
                if room and price <= cash:
                    acts.append(self._depot_buy(op, card, price))
                acts += self._trade_ins(op, card, cash)
        if room:
            acts += self._other_trains(op, cash, pres_cash)
        if emergency and pres is not None:
            need = lo - cash - pres_cash
            if need > 0:
                acts += self._sale_options(pres, op, need)
            if self.can_go_bankrupt(pres, op):
                acts.append({"type": "bankrupt", "entity": op})
        elif acts and not must:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def _depot_buy(self, op: str, card, price: int) -> dict:
        return {
            "type": "buy_train",
            "entity": op,
            "train": card.id,
            "variant": card.sym,
            "price": price,
        }

    def _trade_ins(self, op: str, card, cash: int) -> list[dict]:
        """A diesel for an own 4, 5 or 6 at 300 off (``discountable_trains_for``)."""
        discount = self.state.train_spec(card).get("discount") or {}
        out = []
        for own in self.state.trains_of(op):
            off = discount.get(own.sym)
            if off is not None and self._price(card) - int(off) <= cash:
                buy = self._depot_buy(op, card, self._price(card) - int(off))
                buy["exchange"] = own.id
                out.append(buy)
        return out

    def _other_trains(self, op: str, cash: int, pres_cash: int) -> list[dict]:
        """Trains of other corporations: 1 up to the cash; for a corporation that must buy,
        up to face value with the president's money (``pres_cash``), and after a forced
        sale above what the cash was before it (``spend_minmax``)."""
        out = []
        last_sold = self.or_turn.flags.get("last_sold")
        for other in self.live_corporations():
            if other == op or self.state.operators[other].closed:
                continue
            for card in self.state.trains_of(other):
                if card.obsolete:
                    continue
                lo, hi = 1, cash
                if pres_cash and cash < self._price(card):
                    top = cash + pres_cash
                    lo = top - last_sold + 1 if last_sold is not None else 1
                    hi = min(self._price(card), top)
                if hi >= max(lo, 1):
                    out.append(
                        {
                            "type": "buy_train",
                            "entity": op,
                            "train": card.id,
                            "variant": card.name,
                            "price": hi,
                            "min_price": max(lo, 1),
                            "max_price": hi,
                        }
                    )
        return out

    def _match(self, action: dict) -> dict:
        """Tell a diesel bought outright from one traded in (the ``exchange`` field)."""
        if action.get("type") != "buy_train":
            return super()._match(action)
        saved = self._legal_cache
        want = action.get("exchange")
        keep = [a for a in saved[1] if a["type"] != "buy_train" or a.get("exchange") == want]
        self._legal_cache = (saved[0], keep)
        try:
            return super()._match(action)
        finally:
            self._legal_cache = saved

    # ------------------------------------------------------------------ processing
    def operating_buy_train(self, action: dict) -> None:
        op, ident = action["entity"], action["train"]
        price = int(action["price"])
        card, source = self.pay_for_train(op, ident, price, note_contribution=True)
        self.state.buy_train(
            op, ident, card.sym if source == DEPOT else None, exchange=action.get("exchange")
        )
        if source == DEPOT:
            self.or_turn.flags["bought_types"].add(card.sym)
        self.record_train(op, card.name, price, source)
        self.close_on_train(op)

    def close_on_train(self, op: str) -> None:
        """Privates that close when a corporation buys a train (CFLV: the Nord)."""
        for sym, info in self.state.companies.items():
            if info["closed"]:
                continue
            for ab in info["spec"].get("abilities", []) or []:
                if (
                    ab.get("type") == "close"
                    and ab.get("when") == "bought_train"
                    and (ab.get("corporation") == op)
                ):
                    info["closed"] = True
                    self.note(f"{sym} closes")

    def operating_sell_shares(self, action: dict) -> None:
        pres, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        flags = self.or_turn.flags
        flags["last_sold"] = self.share_price(corp)
        flags["sold"].add(corp)
        self.sell_shares(pres, corp, pct)
        self._recalculate_order()

    def operating_bankrupt(self, action: dict) -> None:
        op = action["entity"]
        pres = self.shares.president(op)
        self.note(f"-- {pres} goes bankrupt --")
        while True:
            sales = self._sale_options(pres, op, None)
            if not sales:
                break
            best = max(sales, key=lambda a: (a["price"], a["corporation"]))
            self.sell_shares(pres, best["corporation"], best["percent"])
        self.pay(pres, BANK, self.cash(pres), "bankrupt")
        self.bankrupt.append(pres)
        self.check_game_end()

    # ------------------------------------------------------------------ discards
    def pending_discards(self) -> list[dict] | None:
        held: dict[str, int] = {}
        for card in self.state.trains.values():
            if not card.obsolete and card.owner in self.shares.by_corp:
                held[card.owner] = held.get(card.owner, 0) + 1
        limit = self.train_limit("")
        for corp in sorted(held):
            if held[corp] > limit:
                return [
                    {"type": "discard_train", "entity": corp, "train": t.id}
                    for t in self.state.trains_of(corp)
                    if not t.obsolete
                ]
        return None

    def operating_discard_train(self, action: dict) -> None:
        self.state.discard_train(action["entity"], action["train"])
        self.note(f"{action['entity']} discards {action['train']}")

    def explain_trains(self, action: dict) -> str | None:
        t = self.or_turn
        if action["type"] != "buy_train" or t is None:
            return None
        card = self.state.trains.get(action.get("train"))
        if card is None:
            return f"no train {action.get('train')!r}"
        if card.owner == DEPOT and card.sym in t.flags.get("bought_types", ()):
            return (
                f"{t.op} already bought a {card.sym} train from the bank this round "
                "(one of each type per operating round)"
            )
        return None  # the train limit, the depot's order, the stage: the base rules
