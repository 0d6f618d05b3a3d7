"""1862 USA/Canada (Ohley) rules engine: the operating round.

Rulebook sections (``shared/seeds/1862-usa-canada-ohley-rules.txt``):

- §Sequence within Operating Round: private revenue first (SOC 15$ once CPR or UP floated,
  :func:`.economy_initial.private_revenue`); floated companies by share price
  (:meth:`.game_market.Market1862.operating_order`), fixed when the round starts.
- §Sequence within a Company's Turn: home marker (free, at the start of its first turn),
  track, one station marker, run, dividend and price move, trains, share redemption.
- §Laying of Track / §Upgrading Track: one yellow tile in the yellow phase, two from green
  on, or one upgrade instead; terrain costs from the treasury; the Rocky Mountain Company's
  extra yellow tile at up to 160$ off (closes it).
- §Placing Station Markers: 40$, then 100$, 1.5 times across the US/Canadian border
  (:data:`.game_market.CANADA_HEXES`), one a turn, reachable and unblocked.
- §Income Reckoning and Payment / §Share Price Movement: payout (5 % shares rounded up, a
  redeemed company's 50 % share gets the rest, initial offering and pool shares pay the
  bank) moves the price right, no payout left; PSC and FNY close on WP's / NYC's first
  dividend.
- §Purchasing Trains / §Bankruptcy: trains from the bank in order, E-trains alongside,
  trains returned after a phase change; between companies of one president at any price
  from 1$; a company with a route and no train must buy one: short of the cheapest bank
  train the president pays the difference, selling shares first (no sale that changes any
  presidency); who cannot is bankrupt.
- §Share Redemption: from the green phase, once, paid from the treasury or with a debt
  certificate (:func:`.economy.redeem`).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL, Certificate
from engine.game.track import tile_options
from engine.game.trains_buy import TrainBuyMixin
from engine.games.g1862 import economy as eco
from engine.games.g1862 import economy_data as ed
from engine.games.g1862 import economy_initial as ei
from engine.games.g1862.game_market import BLANK, CANADA_HEXES, CANADIAN_HOMES
from engine.model.position import Assignment

__all__ = ["OperatingMixin1862"]

_RMC = "RMC"


class OperatingMixin1862(TrainBuyMixin):
    """Operating-round rules of :class:`engine.games.g1862.game.Game1862`."""

    TRACK_RESTRICTION = "permissive"

    OPERATING_STAGES = ("track", "token", "route", "dividend", "train", "redeem")

    # ------------------------------------------------------------------ round
    def operating_order(self) -> list[str]:
        ops = self.state.operators
        return self.market.operating_order([c for c in self.live_corporations() if ops[c].floated])

    def or_start(self) -> None:
        floated = {c for c, op in self.state.operators.items() if op.floated}
        for sym, info in self.state.companies.items():
            if info["owner"] in self.seats and not info["closed"]:
                revenue = ei.private_revenue(sym, floated)
                self.pay(BANK, info["owner"], revenue, f"{sym} revenue")

    def turn_started(self, op: str) -> None:
        self.or_turn.flags.update(sold=set())
        self.state.place_home(op)

    # ------------------------------------------------------------------ board views
    def reach_tokens(self, op: str) -> dict:
        """Blank markers block like full cities (``turn_blank`` marks the board changed)."""
        blanks = self.state.blanks()
        if not blanks:
            return self.state.tokens
        tokens = {k: list(v) for k, v in self.state.tokens.items()}
        for hex_, city, sym in blanks:
            tokens.setdefault((hex_, city), []).append(BLANK + sym)
        return tokens

    def lay_options(self, op: str, hexes=None) -> list:
        """Tiles ``op`` may lay: a new exit or an upgraded tile on an edge its network
        reaches, in supply (§Upgrading Track: the company needs a route to the tile after
        upgrading; 18xx.games ``TRACK_RESTRICTION = :permissive`` for this title)."""
        state = self.state
        board = state.board
        net = self.network(op)
        in_use = board.tiles_in_use()
        manifest = board.manifest
        out = []
        for hex_ in sorted(net.hexes):
            edges = net.hexes[hex_]
            for opt in tile_options(state, hex_):
                if opt.exits.isdisjoint(edges) or in_use[opt.tile] >= manifest[opt.tile][1]:
                    continue
                out.append((hex_, opt))
        return out

    def assignments(self) -> list:
        """Blank markers, as the route side's B&O station markers (they block a slot)."""
        return [Assignment(h, "station_marker", "BLANK", (("city", c),))
                for h, c, _s in self.state.blanks()]  # fmt: skip

    # ------------------------------------------------------------------ track
    def lay_cost(self, hex_: str, rmc: bool = False) -> int:
        cost = int(self.state.board.tile(hex_).upgrade_cost)
        return ei.rmc_build_cost(cost) if rmc else cost

    def _rmc_usable(self, op: str) -> bool:
        info = self.state.companies[_RMC]
        return (not info["closed"] and info["owner"] is not None
                and info["owner"] == self.shares.president(op))  # fmt: skip

    def legal_track(self, op: str) -> list[dict]:
        t = self.or_turn
        cash = self.cash(op)
        upgraded = any(up for _h, up in t.lays)
        yellow = sum(1 for _h, up in t.lays if not up)
        most = 1 if eco.phase_colour(self.state.phase_name) == "yellow" else 2
        laid = {h for h, _up in t.lays} | set(t.flags.get("rmc", ()))
        acts = []
        rmc = self._rmc_usable(op)
        costs: dict[str, tuple[int, int]] = {}
        for hex_, opt in self.lay_options(op):
            if hex_ in laid:
                continue
            if hex_ not in costs:
                costs[hex_] = (self.lay_cost(hex_), self.lay_cost(hex_, True))
            cost, rmc_cost = costs[hex_]
            ok = (not t.lays) if opt.upgrade else (not upgraded and yellow < most)
            if ok and cost <= cash:
                acts.append({"type": "lay_tile", "entity": op, "hex": hex_, "tile": opt.tile,
                             "rotation": opt.rotation, "cost": cost})  # fmt: skip
            if rmc and not opt.upgrade and rmc_cost <= cash:
                acts.append({"type": "lay_tile", "entity": _RMC, "hex": hex_, "tile": opt.tile,
                             "rotation": opt.rotation, "cost": rmc_cost})  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def operating_lay_tile(self, action: dict) -> None:
        ent, hex_, tile, rot = action["entity"], action["hex"], action["tile"], action["rotation"]
        t = self.or_turn
        op = t.op
        cost = int(action["cost"])
        upgrade = self.state.board.color(hex_) != "white"
        self.pay(op, BANK, cost, f"tile {tile} on {hex_}")
        self.state.lay_tile(hex_, f"{tile}-0", rot)
        if ent == _RMC:
            self.state.companies[_RMC]["closed"] = True
            t.flags["rmc"] = (hex_,)  # an additional tile, not one of the turn's own lays
            self.note(f"{op} lays {tile} on {hex_} with the RMC for {cost}; RMC closes")
            return
        t.lays.append((hex_, upgrade))
        self.note(f"{op} lays {tile} on {hex_} (rotation {rot}) for {cost}")

    # ------------------------------------------------------------------ tokens
    def token_cost(self, op: str, hex_: str) -> int:
        spec = self.entity_spec(op)
        used = len(spec["tokens"]) - self.tokens_left(op)
        across = (hex_ in CANADA_HEXES) != (op in CANADIAN_HOMES)
        return ei.station_marker_cost(used, across)

    def legal_token(self, op: str) -> list[dict]:
        if self.tokens_left(op) <= 0:
            return []
        return self.priced_tokens(op, lambda hex_, _city: self.token_cost(op, hex_), auto=False)

    def operating_place_token(self, action: dict) -> None:
        op, hex_, city = action["entity"], action["hex"], int(action["city"])
        cost = int(action["cost"])
        self.pay(op, BANK, cost, f"token in {hex_}")
        self.state.place_token(hex_, city, op)
        self.or_turn.tokened = True
        self.or_turn.index += 1
        self.note(f"{op} places a station marker in {hex_} for {cost}")

    # ------------------------------------------------------------------ dividends
    def legal_dividend(self, op: str) -> list[dict]:
        if not self.or_turn.revenue:
            return []
        return [{"type": "dividend", "entity": op, "kind": k} for k in ("payout", "withhold")]

    def dividend_amounts(self, op: str, revenue: int) -> dict[str, int]:
        """Who gets what of a paid-out ``revenue`` (players and the company; the initial
        offering's and the pool's part stays in the bank).  Every 10 % (5 % after
        redemption) gets its part rounded up; a redeemed company gets the rest of the
        players' half (§Income Reckoning's example: 150$ -> 8$ per 5 %, 70$ to it)."""
        unit = self.shares.share_percent[op]
        per_unit = -(-revenue * unit // 100)
        out = {}
        for p in self.seats:
            n = self.shares.percent(op, p) // unit
            if n:
                out[p] = n * per_unit
        if self.redeemed(op):
            out[op] = revenue - (100 - ed.COMPANY_REDEEMED_PERCENT) // unit * per_unit
        return out

    def _dividend(self, op: str, kind: str) -> None:
        revenue = int(self.or_turn.revenue or 0)
        for card in self.state.trains_of(op):
            self.operated_trains.add(card.id)
        self.state.operators[op].operated = True
        if kind == "payout" and revenue > 0:
            for holder, amount in self.dividend_amounts(op, revenue).items():
                self.pay(BANK, holder, amount, f"dividend of {op}")
            self.market.right(op)
            self.paid.add(op)
        else:
            kind = "withhold"
            self.pay(BANK, op, revenue, f"{op} withholds")
            self.market.left(op)
        self.note(f"{op} {kind} {revenue}; price now {self.market.price(op)}")
        self.events.append({"type": "dividend", "entity": op, "kind": kind,
                            "revenue": revenue, "price": self.market.price(op)})  # fmt: skip
        self.close_privates()
        self.close_at_zero()

    # ------------------------------------------------------------------ trains
    def _price(self, card) -> int:
        return int(self.state.train_spec(card)["price"])

    def _cheapest(self):
        cards = self.state.depot_trains()
        return min(cards, key=lambda c: (self._price(c), c.order)) if cards else None

    def has_route(self, op: str) -> bool:
        """Could ``op`` run a route: its network holds at least two stations or
        off-board destinations (counted by hex)."""
        board = self.state.board
        count = 0
        for hex_ in self.network(op).track:
            if board.tile(hex_).stops():
                count += 1
                if count >= 2:
                    return True
        return False

    def must_buy(self, op: str) -> bool:
        """§Purchasing Trains: "Every floated public company with a route connecting at
        least two stations or offboard destinations must own a train at some point of each
        of its turns": no train, a route and a train left in the bank.  Then its train
        stage offers purchases only, never a pass."""
        return (not self.state.trains_of(op) and self._cheapest() is not None
                and self.has_route(op))  # fmt: skip

    def legal_train(self, op: str) -> list[dict]:
        cash = self.cash(op)
        pres = self.shares.president(op)
        acts = []
        must = self.must_buy(op)
        if len(self.state.trains_of(op)) < self.train_limit(op):
            for card in self.state.depot_trains():
                if self._price(card) <= cash:
                    acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                 "variant": card.name, "price": self._price(card)})  # fmt: skip
            if cash >= 1:
                for other in self.live_corporations():
                    if other == op or self.shares.president(other) != pres:
                        continue
                    for card in self.state.trains_of(other):
                        acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                     "variant": card.name, "price": cash, "min_price": 1,
                                     "max_price": cash})  # fmt: skip
        cheapest = self._cheapest()
        if must and self._price(cheapest) > cash:
            price = self._price(cheapest)
            if cash + self.cash(pres) >= price:
                acts.append({"type": "buy_train", "entity": op, "train": cheapest.id,
                             "variant": cheapest.name, "price": price})  # fmt: skip
            else:
                acts += self.emergency_sales(pres)
            if cash + self.liquidity(pres) < price:
                acts.append({"type": "bankrupt", "entity": op})
        elif acts and not must:  # a company that must buy a train may not pass
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def _sale_sizes(self, player: str, corp: str, forced: bool) -> list[int]:
        """Percentages ``player`` may sell of ``corp`` in one sale: the certificates'
        multiples, the pool's five certificates, no presidency change if ``forced``."""
        share = self.shares.share_percent[corp]
        room = ed.POOL_CERTIFICATE_LIMIT - len(self.shares.certs_of(POOL, corp))
        sizes = [s for s in self.shares.sale_sizes(player, corp) if s // share <= room]
        if forced:
            sizes = [s for s in sizes if not self.shares.swaps_president(player, corp, s)]
        return sizes

    def sale_proceeds(self, corp: str, percent: int) -> int:
        share = self.shares.share_percent[corp]
        floated = self.state.operators[corp].floated
        return eco.sale(self.market.where[corp], [share] * (percent // share), floated).proceeds

    def emergency_sales(self, pres: str) -> list[dict]:
        """Sales a president may make to pay for a train (one per company a turn)."""
        sold = self.or_turn.flags["sold"]
        acts = []
        for corp in self.live_corporations():
            if corp in sold:
                continue
            for size in self._sale_sizes(pres, corp, forced=True):
                acts.append({"type": "sell_shares", "entity": pres, "corporation": corp,
                             "percent": size, "price": self.sale_proceeds(corp, size)})  # fmt: skip
        return acts

    def liquidity(self, player: str) -> int:
        """Cash plus the best forced sale of every company not yet sold this turn."""
        total = self.cash(player)
        sold = self.or_turn.flags["sold"] if self.or_turn else set()
        for corp in self.live_corporations():
            if corp in sold:
                continue
            sizes = self._sale_sizes(player, corp, forced=True)
            if sizes:
                total += self.sale_proceeds(corp, max(sizes))
        return total

    def operating_sell_shares(self, action: dict) -> None:
        pres, corp = action["entity"], action["corporation"]
        self.or_turn.flags["sold"].add(corp)
        self.sell_shares(pres, corp, int(action["percent"]))

    def operating_buy_train(self, action: dict) -> None:
        op, ident = action["entity"], action["train"]
        price = int(action["price"])
        card, source = self.pay_for_train(op, ident, price)
        self.state.buy_train(op, ident)
        self.record_train(op, card.name, price, source)

    def pending_actions(self) -> list[dict] | None:
        """Excess trains after a phase change go back to the bank (the owner chooses)."""
        held: dict[str, int] = {}
        for card in self.state.trains.values():
            if card.owner is not None:
                held[card.owner] = held.get(card.owner, 0) + 1
        limit = int(self.state.phase.get("train_limit", 99))
        for corp in self.live_corporations():
            if held.get(corp, 0) > limit:
                return [{"type": "discard_train", "entity": corp, "train": t.id}
                        for t in self.state.trains_of(corp)]  # fmt: skip
        return None

    def operating_discard_train(self, action: dict) -> None:
        self.state.discard_train(action["entity"], action["train"])
        self.note(f"{action['entity']} returns train {action['train']} to the bank")

    # ------------------------------------------------------------------ bankruptcy
    def operating_bankrupt(self, action: dict) -> None:
        op = action["entity"]
        pres = self.shares.president(op)
        price = self._price(self._cheapest())
        self.note(f"-- {pres} goes bankrupt --")
        for corp in sorted(self.live_corporations()):
            if self.state.operators[corp].closed or corp in self.or_turn.flags["sold"]:
                continue
            sizes = self._sale_sizes(pres, corp, forced=True)
            if sizes:
                self.sell_shares(pres, corp, max(sizes), close=False)
        owed = price - self.cash(op) - self.cash(pres)
        self.player_debt[pres] = self.player_debt.get(pres, 0) + max(0, owed)
        self.bankrupt_player(pres)
        if self.or_turn is not None and self.or_turn.op == op:
            self.or_turn.index = len(self.or_turn.stages)

    def bankrupt_player(self, player: str) -> None:
        """§Bankruptcy: the player's companies and privates leave the game (the other
        shareholders are paid their shares at the current price), his other shares go to
        the pool without a price change, and he leaves the game."""
        for corp in list(self.live_corporations()):
            if self.shares.president(corp) == player:
                self.close_corporation(corp, compensate=True)
        for info in self.state.companies.values():
            if info["owner"] == player:
                info["closed"] = True
        self.shares.move([c.id for c in self.shares.certs_of(player)], POOL)
        for corp, grants in self.granted.items():
            self.granted[corp] = [g for g in grants if g[0] != player]
        self.bankrupt.append(player)
        self.close_at_zero()
        self.check_game_end()

    # ------------------------------------------------------------------ redemption
    def redeemed(self, corp: str) -> bool:
        return f"{corp}_R" in self.shares.certs

    def _holdings(self, corp: str) -> dict:
        out: dict = {}
        for c in self.shares.by_corp[corp]:
            holder = eco.IPO if c.owner == corp else eco.POOL if c.owner == POOL else c.owner
            out.setdefault(holder, []).append(c.percent)
        return out

    def redemption(self, corp: str, use_debt: bool) -> eco.Redemption:
        colour = eco.phase_colour(self.state.phase_name)
        return eco.redeem(self.market.price(corp), self._holdings(corp), colour, use_debt,
                          max(0, self.cash(corp)))  # fmt: skip

    def legal_redeem(self, op: str) -> list[dict]:
        if eco.phase_colour(self.state.phase_name) == "yellow" or self.redeemed(op):
            return []
        acts = []
        cost = self.redemption(op, True).cost
        if cost <= self.cash(op):
            acts.append({"type": "buy_shares", "entity": op, "corporation": op,
                         "source": "treasury", "percent": 50, "price": cost})  # fmt: skip
        acts.append({"type": "buy_shares", "entity": op, "corporation": op, "source": "debt",
                     "percent": 50, "price": cost})  # fmt: skip
        acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def operating_buy_shares(self, action: dict) -> None:
        op = action["entity"]
        use_debt = action["source"] == "debt"
        r = self.redemption(op, use_debt)
        if use_debt:
            self.pay(BANK, op, r.debt_payment, f"{op} debt certificate {r.debt}")
            self.debt[op] = self.debt.get(op, 0) + r.debt
        for holder, amount in r.payments.items():
            self.pay(op, holder if holder in self.seats else BANK, amount, f"{op} redemption")
        self._reissue(op, r.holdings)
        self.note(f"{op} redeems 50% for {r.cost}" + (f" with {r.debt} debt" if use_debt else ""))

    def _reissue(self, corp: str, holdings: dict) -> None:
        """Replace ``corp``'s certificates by the post-redemption set: a 10 % president's
        share, 5 % shares and the company's own 50 % share."""
        for c in self.shares.by_corp[corp]:
            del self.shares.certs[c.id]
        certs, owners = [], {}
        n = 0
        for holder, new in holdings.items():
            owner = corp if holder in (eco.IPO, eco.COMPANY) else POOL if holder == eco.POOL \
                else holder  # fmt: skip
            for cert in new:
                if cert.president:
                    made = Certificate(f"{corp}_0", corp, 10, True, corp)
                    certs.insert(0, made)
                elif cert.percent == ed.COMPANY_REDEEMED_PERCENT:
                    made = Certificate(f"{corp}_R", corp, cert.percent, False, corp)
                    certs.append(made)
                else:
                    n += 1
                    made = Certificate(f"{corp}_{n}", corp, cert.percent, False, corp)
                    certs.append(made)
                owners[made.id] = owner
        self.shares.by_corp[corp] = certs
        for c in certs:
            self.shares.certs[c.id] = c
            self.shares.move([c.id], owners[c.id])  # in order: the holders' new acquisitions
        self.shares.share_percent[corp] = 5
