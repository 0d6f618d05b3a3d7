"""Steps of buying a train that several titles share, and the emergency sales around it.

:class:`TrainBuyMixin` is mixed into a title's train (or operating) mixin; a title keeps its
own legal lists and calls these steps with what differs (a note, the share unit, which
presidencies must not change hands).

Facts: tobymao/18xx @111f7f69 (MIT) ``lib/engine/step/buy_train.rb`` and
``step/emergency_money.rb`` (the president pays what the corporation lacks; a sale may not
be larger than needed, ``selling_minimum_shares?``; the pool limit; no presidency swap in
the buyer) and ``round/operating.rb`` ``recalculate_order`` (operators still to come re-sort
after an emergency sale moved prices).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.game.state import DEPOT

__all__ = ["TrainBuyMixin"]


class TrainBuyMixin:
    """Shared train-buying steps (see the module docstring)."""

    def pay_for_train(
        self, op: str, ident: str, price: int, note_contribution: bool = False
    ) -> tuple[object, str]:
        """``op`` pays ``price`` for train ``ident`` to its owner (the bank for the depot),
        its president first paying in what ``op`` lacks.  Returns (the train card, where
        it came from); the card has not moved yet."""
        card = self.state.trains[ident]
        source = card.owner
        short = price - self.cash(op)
        if short > 0:
            pres = self.shares.president(op)
            self.pay(pres, op, short, "president's contribution")
            if note_contribution:
                self.note(f"{pres} contributes {short}")
        self.pay(op, BANK if source == DEPOT else source, price, f"train {ident}")
        return card, source

    def record_train(self, op: str, name: str, price: int, source: str) -> None:
        """Log a bought train and add its ``train`` event."""
        self.note(f"{op} buys a {name} train for {price} from {source}")
        self.events.append({"type": "train", "entity": op, "train": name, "price": price,
                            "from": source, "phase": self.state.phase_name})  # fmt: skip

    def sale_bundles(
        self, pres: str, corp: str, need: int | None, guarded, sizes, unit: int = 10
    ) -> list[dict]:
        """Emergency ``sell_shares`` of ``corp`` by ``pres`` out of the percentages
        ``sizes``: within the pool limit, no presidency swap in a corporation of
        ``guarded``, and (``need``: the cash still missing) none a share smaller would
        cover; ``unit`` is the percentage of one share."""
        price = self.share_price(corp)
        pool = self.shares.percent(corp, POOL)
        acts = []
        for size in sizes:
            if pool + size > self.MARKET_SHARE_LIMIT:
                continue
            if corp in guarded and self.shares.swaps_president(pres, corp, size):
                continue
            if need is not None and (size // unit - 1) * price >= need:
                continue  # selling_minimum_shares?: the next smaller bundle would do
            acts.append({"type": "sell_shares", "entity": pres, "corporation": corp,
                         "percent": size, "price": size // unit * price})  # fmt: skip
        return acts

    def _recalculate_order(self) -> None:
        """``round/operating.rb`` ``recalculate_order``: operators still to come re-sort."""
        r = self.round
        rest = r.entities[r.index + 1 :]
        order = [e for e in self.operating_order() if e in rest]
        r.entities = r.entities[: r.index + 1] + order + [e for e in rest if e not in order]
