"""The stock round: sell, then buy one certificate or par one corporation, or pass.

Facts follow tobymao/18xx @111f7f69 (MIT): ``lib/engine/step/buy_sell_par_shares.rb``
(``can_buy?``, ``can_sell?``, ``pass!``: a player who did something this turn is not
"passed"; the round ends when every player has passed in a row; one purchase per turn and,
with ``SELL_BUY_ORDER = :sell_buy``, no sale after it; ``MUST_SELL_IN_BLOCKS``: one sale per
corporation per turn; no buying a corporation sold this round; a player over the
certificate limit must sell), ``step/share_buying.rb`` ``can_gain?`` (holding limit,
certificate limit), ``share_pool.rb`` ``fit_in_bank?`` (market pool limit),
``round/stock.rb`` ``finish_round`` (sold out: up; shares in the pool: down) and
``game/base.rb`` ``reorder_players`` (priority to the player after the last to act).
"""

from __future__ import annotations

from engine.game.shares import POOL

__all__ = ["StockMixin"]


class StockMixin:
    """Stock-round rules of :class:`engine.game.base.BaseGame`."""

    # ------------------------------------------------------------------ hooks
    def can_par(self, corp: str, player: str) -> bool:
        """May ``player`` par ``corp`` (not yet parred, in the game)?"""
        op = self.state.operators.get(corp)
        return (
            op is not None
            and op.kind == "corporation"
            and not op.removed
            and not op.closed
            and corp not in self.shares.by_corp
        )

    def par_prices(self) -> list[int]:
        """Prices a corporation may start at."""
        raise NotImplementedError

    def sale_timing_ok(self, player: str, corp: str) -> bool:
        """``check_sale_timing``; 18xx.games default ``:operate``."""
        return self.state.operators[corp].operated

    def sell_movement(self, corp: str, was_president: bool) -> None:
        """Share price move after a sale (default: down one per sale)."""
        self.market_down(corp)

    def market_up(self, corp: str) -> None:
        self.market.right(corp)

    def market_down(self, corp: str) -> None:
        self.market.left(corp)

    def after_par(self, corp: str, player: str, price: int) -> None:
        """A corporation was parred (subsidies, home tokens)."""

    def after_share_change(self, corp: str) -> None:
        """Holdings of ``corp`` changed (floating)."""

    def close_at_zero(self) -> None:
        """Close corporations whose price reached the closing cell."""

    def share_price(self, corp: str) -> int:
        return int(self.market.price(corp))

    def holding_limit(self, corp: str) -> int:
        return self.MAX_OWNERSHIP

    # ------------------------------------------------------------------ counts
    def num_certs(self, player: str) -> int:
        """Certificates counting against the limit (privates too, by default)."""
        count = len(self.shares.certs_of(player))
        if self.CERT_LIMIT_INCLUDES_PRIVATES:
            count += sum(
                1
                for info in self.state.companies.values()
                if info["owner"] == player and not info["closed"]
            )
        return count

    def live_corporations(self) -> list[str]:
        """Parred corporations that have not closed."""
        return [c for c in self.shares.corporations() if not self.state.operators[c].closed]

    # ------------------------------------------------------------------ round
    def start_stock_round(self) -> None:
        entities = [p for p in self.players if p not in self.bankrupt]
        self.round = type(self.round)("stock", entities, 0, 1, {
            "sold": {p: set() for p in entities}, "passed": set(), "last_passer": None,
        })  # fmt: skip
        self._new_stock_turn()
        self.note(f"-- stock round {self.turn} --")

    def _new_stock_turn(self) -> None:
        self.round.data.update(bought=False, acted=False, sold_now=set())

    def stock_round_finished(self) -> bool:
        r = self.round
        return len(r.data["passed"]) >= len(r.entities)

    def _next_stock_player(self) -> None:
        r = self.round
        r.index = (r.index + 1) % len(r.entities)
        self._new_stock_turn()

    def skip_stock(self) -> None:
        self.stock_pass({"type": "pass", "entity": self.round.current})

    def end_stock_round(self) -> None:
        """Sold-out and pool moves, then the priority deal."""
        live = self.live_corporations()
        for corp in self.market.operating_order(live):
            if self.shares.player_percent(corp) == 100:
                self.market_up(corp)
            if self.shares.percent(corp, POOL) > 0:
                self.market_down(corp)
        self.close_at_zero()
        r = self.round
        last = r.data["last_passer"]
        if last is not None:
            nxt = r.entities[(r.entities.index(last) + 1) % len(r.entities)]
            self.players = (
                self.players[self.players.index(nxt) :] + self.players[: self.players.index(nxt)]
            )
        self.note(f"{self.players[0]} has priority")

    # ------------------------------------------------------------------ legal actions
    def legal_stock(self) -> list[dict]:
        p = self.round.current
        data = self.round.data
        sells = [] if data["bought"] else self._stock_sales(p)
        over = self.num_certs(p) > self.cert_limit(p) or any(
            self.shares.percent(c, p) > self.holding_limit(c) for c in self.live_corporations()
        )
        if over and sells:
            return sells  # must_sell?: only sales while over a limit and able to sell
        acts = []
        if not data["bought"]:
            acts += self._stock_buys(p) + self._stock_pars(p)
        acts += sells
        acts.append({"type": "pass", "entity": p})
        return acts

    def _can_gain(self, player: str, corp: str, percent: int) -> bool:
        return self.shares.percent(corp, player) + percent <= self.holding_limit(
            corp
        ) and self.num_certs(player) < self.cert_limit(player)

    def _stock_buys(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        for corp in self.live_corporations():
            if corp in self.round.data["sold"].get(p, ()):
                continue
            share = self.shares.share_percent[corp]
            price = self.share_price(corp) * share // 10
            if cash < price or not self._can_gain(p, corp, share):
                continue
            for source, holder in (("treasury", corp), (POOL, POOL)):
                certs = self.shares.ordinary(corp, holder)
                if not certs and holder == POOL:
                    certs = self._receivership_certs(p, corp)
                if certs:
                    out.append({
                        "type": "buy_shares", "entity": p, "corporation": corp,
                        "shares": [certs[0].id], "source": source, "percent": share,
                        "price": price,
                    })  # fmt: skip
        return out

    def _receivership_certs(self, p: str, corp: str) -> list:
        """The president's certificate in the pool, buyable as one share by a holder."""
        pres = self.shares.president_cert(corp)
        receivership = pres.owner == POOL and self.shares.president(corp) is None
        if receivership and self.shares.percent(corp, p) > 0:
            return [pres]
        return []

    def _stock_pars(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        if self.num_certs(p) >= self.cert_limit(p):
            return out
        for corp in self.state.operators:
            if not self.can_par(corp, p):
                continue
            for price in self.par_prices():
                if cash >= price * 2:
                    out.append({
                        "type": "par", "entity": p, "corporation": corp, "share_price": price,
                    })  # fmt: skip
        return out

    def _stock_sales(self, p: str) -> list[dict]:
        out = []
        for corp in self.live_corporations():
            if corp in self.round.data["sold_now"] or not self.shares.percent(corp, p):
                continue
            if not self.sale_timing_ok(p, corp):
                continue
            pool = self.shares.percent(corp, POOL)
            for size in self.shares.sale_sizes(p, corp):
                if pool + size <= self.MARKET_SHARE_LIMIT:
                    out.append({
                        "type": "sell_shares", "entity": p, "corporation": corp,
                        "percent": size,
                    })  # fmt: skip
        return out

    def explain_stock(self, action: dict) -> str | None:
        """The rule a refused stock action breaks."""
        p, corp = action.get("entity"), action.get("corporation")
        kind = action["type"]
        if self.round.kind != "stock":
            return "share trading happens in the stock round" if kind != "sell_shares" else None
        if kind in ("buy_shares", "par") and self.round.data["bought"]:
            return "one certificate per turn"
        if corp not in self.state.operators:
            return f"no corporation {corp!r}"
        if kind == "par":
            if not self.can_par(corp, p):
                return f"{corp} cannot be parred (already parred, removed or closed)"
            if action.get("share_price") not in self.par_prices():
                return f"{action.get('share_price')} is not a par price ({self.par_prices()})"
            if self.num_certs(p) >= self.cert_limit(p):
                return f"certificate limit {self.cert_limit(p)} reached"
            return f"{p} has {self.cash(p)}, less than two shares at the par price"
        if kind == "buy_shares":
            share = self.shares.share_percent.get(corp, 10)
            if corp in self.round.data["sold"].get(p, ()):
                return f"{p} sold {corp} this round and may not buy it back"
            if self.shares.percent(corp, p) + share > self.holding_limit(corp):
                return (
                    f"{p} holds {self.shares.percent(corp, p)}% of {corp}; the limit is "
                    f"{self.holding_limit(corp)}%"
                )
            if self.num_certs(p) >= self.cert_limit(p):
                return f"certificate limit {self.cert_limit(p)} reached"
            price = self.share_price(corp) if corp in self.shares.by_corp else 0
            if self.cash(p) < price:
                return f"{p} has {self.cash(p)} and a share costs {price}"
            return f"no {corp} share available from the {action.get('source')}"
        if kind == "sell_shares":
            pct = action.get("percent")
            if corp in self.round.data["sold_now"]:
                return f"{corp} was already sold this turn (one sale per corporation per turn)"
            if self.round.data["bought"]:
                return "no sales after a purchase in the same turn"
            if not self.sale_timing_ok(p, corp):
                return f"{corp} has not operated yet and {p} is not its president"
            if isinstance(pct, int) and self.shares.percent(corp, POOL) + pct > (
                self.MARKET_SHARE_LIMIT
            ):
                return (
                    f"the market would hold {self.shares.percent(corp, POOL) + pct}% of {corp}"
                    f" (limit {self.MARKET_SHARE_LIMIT}%)"
                )
            if pct not in self.shares.sale_sizes(p, corp):
                return (
                    f"{p} cannot sell {pct}% of {corp} (holds {self.shares.percent(corp, p)}%; "
                    "the president's certificate needs another player with 20% to take it)"
                )
        return None

    # ------------------------------------------------------------------ processing
    def stock_par(self, action: dict) -> None:
        p, corp, price = action["entity"], action["corporation"], int(action["share_price"])
        self.create_shares(corp)
        cost = price * self.shares.president_cert(corp).percent // 10
        self.market_par(corp, p, price)
        self.shares.par(corp, p)
        self.pay(p, self.treasury_receiver(corp), cost, f"par {corp}")
        self.note(f"{p} pars {corp} at {price}")
        self.after_par(corp, p, price)
        self.after_share_change(corp)
        self._stock_bought(p)

    def create_shares(self, corp: str) -> None:
        self.shares.add_corporation(corp)

    def market_par(self, corp: str, player: str, price: int) -> None:
        raise NotImplementedError

    def treasury_receiver(self, corp: str) -> str:
        """Who is paid for shares bought from the initial offering (incremental: the
        corporation)."""
        return corp

    def stock_buy_shares(self, action: dict) -> None:
        p, cid = action["entity"], action["shares"][0]
        cert = self.shares.certs[cid]
        corp = cert.corp
        receiver = self.treasury_receiver(corp) if cert.owner == corp else "bank"
        self.pay(p, receiver, int(action["price"]), f"share of {corp}")
        self.shares.buy(p, cid)
        self.note(f"{p} buys {action['percent']}% of {corp} from the {action['source']}")
        self.after_share_change(corp)
        self._stock_bought(p)

    def _stock_bought(self, p: str) -> None:
        data = self.round.data
        data["bought"] = True
        data["passed"].discard(p)
        # one purchase ends the turn (no sales after it, no second purchase)
        self._next_stock_player()

    def stock_sell_shares(self, action: dict) -> None:
        p, corp, pct = action["entity"], action["corporation"], int(action["percent"])
        self.sell_shares(p, corp, pct, ids=action.get("shares"))
        data = self.round.data
        data["sold"].setdefault(p, set()).add(corp)
        data["sold_now"].add(corp)
        data["acted"] = True
        data["passed"].discard(p)

    def sell_shares(
        self, p: str, corp: str, pct: int, close: bool = True, ids: list | None = None
    ) -> None:
        """A player sells ``pct`` of ``corp`` to the pool at the current price (``close``:
        close corporations that reached the closing cell at once; ``ids``: the certificates,
        as a record names them)."""
        was_president = self.shares.president(corp) == p
        price = self.share_price(corp) * pct // 10
        self.shares.sell(p, corp, pct, ids)
        self.pay("bank", p, price, f"sale of {corp}")
        self.note(f"{p} sells {pct}% of {corp} for {price}")
        self.sell_movement(corp, was_president)
        if close:
            self.close_at_zero()

    def stock_pass(self, action: dict) -> None:
        p = action["entity"]
        data = self.round.data
        if not data["acted"]:
            data["passed"].add(p)
            data["last_passer"] = p
        else:
            data["passed"].discard(p)
        self._next_stock_player()
