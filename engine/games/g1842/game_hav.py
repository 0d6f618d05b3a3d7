"""1842: the Hamburg-Altonaer-Verbindungsbahn (HAV) in play.

Rules (``../shared/seeds/1842-schleswig-holstein-rules.txt``, sections as printed), with
the figures and readings of :mod:`.economy_hav`:

- certificates (3.4, 3.4.1, 7.5): corporations trade them in their operating turn once
  three corporations have started, buying one or selling any number (not both in a turn,
  the pool at most 50%); players buy them in stock rounds from the brown phase on; a
  certificate from the offering costs 30 M per 10% and moves one building token per 10%
  from the box to the HAV (none in the box: none sold); the holder of the director
  certificate (a corporation, whose director decides, or a player) directs the HAV;
- start (3.4.2): at 50% sold from the offering, its token on the marked 30 field;
- operating turn, after every corporation (3.4.2, 7.1 step 5): one tile on Hamburg (L10)
  or Harburg (M9) for two building tokens, compulsory when the tokens and a tile allow it;
  the first one links Hamburg to Harburg (the director chooses the station: tile HH1A or
  HH1B); grey 5028/5029 on a brown Hamburg once Harburg is brown, free and optional
  (3.4.2.1);
- income (3.4.2.2): 10 M from the bank for every route of another company through a
  Hamburg station (counted from the optimal routes, ``rules.hav_routes``; from the HAV's
  start on, our reading), paid out at its turn rounded down to 5 M per purchased 10%, the
  pool's part to the bank, the rest kept; paid: token right, else left;
- option ``hav_simplified`` ("10.3 HAV simplified" as printed): the bank pays 5 M per
  held 10%, the price stays 30.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.track import tile_options
from engine.games.g1842 import data
from engine.games.g1842 import economy_data as ed
from engine.games.g1842 import economy_hav as eh
from engine.games.g1842.game_shares import POOL
from engine.model.fast_board import city_map

__all__ = ["HavMixin1842"]

HAV = ed.HAV
_HARBURG_EDGE = 0  # L10's edge toward M9 on the reconstructed map (data.py)


class HavMixin1842:
    """HAV certificates, turn, income and payout of :class:`Game1842`."""

    def hav_started(self) -> bool:
        return self.state.operators[HAV].floated

    def hav_director(self) -> str | None:
        """The player directing the HAV (the director of the corporation holding its
        director certificate, 3.4.2)."""
        holder = self.hav.president(HAV)
        if holder is None or holder in self.seats:
            return holder
        return self.shares.president(holder)

    # ------------------------------------------------------------------ certificates
    def _take_hav(self, buyer: str, cert, price: int, source: str) -> None:
        self.pay(buyer, BANK, price, f"{cert.percent}% of the HAV")
        if source == "ipo":
            n = cert.percent // 10
            self.box_tokens -= n
            self.hav_tokens += n
        self.hav.take(buyer, cert.id)
        if not self.hav_started() and self.sold_percent(HAV) >= ed.START_PERCENT:
            self.state.operators[HAV].floated = True
            self.market.start(HAV)
            self.note(f"the HAV starts ({self.hav_tokens} building tokens)")

    def _hav_buys(self, buyer: str) -> list[dict]:
        acts = []
        top = self.hav.offering(HAV)[:1]
        if top and self.box_tokens >= top[0].percent // 10:
            price = ed.HAV_START_PRICE * top[0].percent // 10
            if price <= self.cash(buyer):
                acts.append(self._buy(buyer, HAV, top[0], "ipo", price))
        if self.hav_started():
            seen = set()
            for cert in self.hav.certs_of(POOL, HAV):
                if cert.percent in seen:
                    continue
                seen.add(cert.percent)
                price = self.share_value(HAV) * cert.percent // 10
                if price <= self.cash(buyer):
                    acts.append(self._buy(buyer, HAV, cert, POOL, price))
        return acts

    def _hav_sizes(self, holder: str) -> list[int]:
        if not self.hav_started():
            return []
        pool = self.hav.percent(HAV, POOL)
        return [s for s in self.hav.sale_sizes(holder, HAV) if pool + s <= ed.POOL_LIMIT]

    def _hav_sale_value(self, holder: str, need: int) -> tuple[int, int]:
        """(percent, proceeds): the fewest HAV certificates covering ``need`` in one sale,
        else all that may be sold (economy reading of 3.3.5.1 step 1)."""
        sizes = self._hav_sizes(holder)
        if not sizes:
            return 0, 0
        value = self.share_value(HAV)
        for s in sizes:
            if s * value // 10 >= need:
                return s, s * value // 10
        return sizes[-1], sizes[-1] * value // 10

    def sell_hav_for(self, holder: str, need: int) -> int:
        pct, _ = self._hav_sale_value(holder, need)
        return self.sell_certificates(holder, HAV, pct) if pct else 0

    # ------------------------------------------------------------------ corporations' stage
    def legal_hav(self, op: str) -> list[dict]:
        """Buy one HAV certificate or sell some, not both (3.4.1, 7.5)."""
        if self.receivership(op) or len(self.corporations_started()) < ed.HAV_TRADING_AFTER_STARTED:
            return []
        flags = self.or_turn.flags
        acts = []
        if not flags.get("hav_bought") and not flags.get("hav_sold"):
            acts += self._hav_buys(op)
        if not flags.get("hav_bought"):
            for s in self._hav_sizes(op):
                acts.append({"type": "sell_shares", "entity": op, "corporation": HAV,
                             "percent": s, "price": s * self.share_value(HAV) // 10})  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def hav_trade(self, action: dict) -> None:
        op = action["entity"]
        if action["type"] == "buy_shares":
            cert = self.hav.certs[action["shares"][0]]
            self._take_hav(op, cert, int(action["price"]), action["source"])
            self.or_turn.flags["hav_bought"] = True
            self.note(f"{op} buys {cert.percent}% of the HAV for {action['price']}")
        else:
            self.sell_certificates(op, HAV, int(action["percent"]))
            self.or_turn.flags["hav_sold"] = True

    # ------------------------------------------------------------------ the HAV's turn
    def hav_lay_options(self) -> list[tuple[str, object, int]]:
        """(hex, option, building tokens) the HAV may lay now (3.4.2.1)."""
        board = self.state.board
        hh, h = data.HAMBURG_HEX, data.HARBURG_HEX
        in_use = board.tiles_in_use()
        out = []
        first = hh not in board.laid
        for hex_ in (hh, h):
            if first and hex_ != hh:
                continue
            for opt in tile_options(self.state, hex_):
                if in_use[opt.tile] >= board.tile_count(opt.tile):
                    continue
                if first and _HARBURG_EDGE not in opt.exits:
                    continue  # the first tile links Hamburg and Harburg
                placed = board.placed(hex_)
                mapping = city_map(placed, board.manifest_tile(opt.tile), opt.rotation)
                if any(mapping.get(c) != c for c in range(len(placed.tile.cities))):
                    continue  # each station stays itself (printed orientation)
                if opt.color == "gray":
                    if board.color(h) != "brown":
                        continue
                    out.append((hex_, opt, 0))
                elif self.hav_tokens >= ed.HAV_TOKENS_PER_TILE:
                    out.append((hex_, opt, ed.HAV_TOKENS_PER_TILE))
        return out

    def legal_hav_build(self, op: str) -> list[dict]:
        if not self.hav_started() or self.hav_director() is None:
            return []
        opts = self.hav_lay_options()
        acts = [{"type": "lay_tile", "entity": HAV, "hex": hex_, "tile": opt.tile,
                 "rotation": opt.rotation, "cost": 0, "tokens": n}
                for hex_, opt, n in opts]  # fmt: skip
        if acts and not any(n for _h, _o, n in opts):
            acts.append({"type": "pass", "entity": HAV, "auto": False})  # grey: "may"
        return acts

    def hav_lay(self, action: dict) -> None:
        hex_, tile, rot = action["hex"], action["tile"], int(action["rotation"])
        self.hav_tokens -= int(action["tokens"])
        self.spent_tokens += int(action["tokens"])
        self.state.lay_tile(hex_, f"{tile}-0", rot)
        self.or_turn.index += 1
        self.note(f"the HAV lays {tile} on {hex_} ({action['tokens']} building tokens)")

    def skip_hav_build(self, op: str) -> None:
        """No director (its corporation is in receivership): the bank builds what the
        HAV must build, the first option (3.4.2.1)."""
        if not self.hav_started():
            return
        opts = [o for o in self.hav_lay_options() if o[2]]
        if opts:
            hex_, opt, n = opts[0]
            self.hav_lay({"hex": hex_, "tile": opt.tile, "rotation": opt.rotation, "tokens": n})
            self.or_turn.index -= 1  # skip_operating advances the stage

    def legal_hav_pay(self, op: str) -> list[dict]:
        return []

    def skip_hav_pay(self, op: str) -> None:
        """The payout (3.4.2.2; simplified: 5 M per held 10% from the bank)."""
        if not self.hav_started():
            return
        held = self.hav.holders_percent(HAV)
        holders = {h: p for h, p in held.items() if h not in (POOL, HAV)}
        pool, ipo = held.get(POOL, 0), held.get(HAV, 0)
        if self.simplified_hav:
            div = eh.hav_simplified_dividend(holders, pool, ipo)
            for who, amount in div.to_holders.items():
                self.pay(BANK, who, amount, "HAV dividend")
            self.state.operators[HAV].operated = True
            return
        div = eh.hav_dividend(self.cash(HAV), holders, pool, ipo)
        for who, amount in div.to_holders.items():
            self.pay(HAV, who, amount, "HAV dividend")
        self.pay(HAV, BANK, div.to_bank, "HAV dividend on pool shares")
        if div.paid:
            self.market.dividend(HAV)
        else:
            self.market.withhold(HAV)
        self.state.operators[HAV].operated = True
        self.events.append({"type": "dividend", "entity": HAV, "kind": "payout" if div.paid
                            else "withhold", "revenue": div.per_share * 10,
                            "price": self.market.price(HAV)})  # fmt: skip
        self.note(f"the HAV pays {div.per_share} per 10%; {div.retained} kept")

    def hav_income(self, routes: int) -> None:
        """10 M per route through Hamburg into the HAV's treasury (3.4.2.2)."""
        if routes and self.hav_started() and not self.simplified_hav:
            self.pay(BANK, HAV, eh.hav_income(routes), "HAV income")
