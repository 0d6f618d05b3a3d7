"""1812 Operating Rounds (§7) except train buying (:mod:`.game_trains`).

- Order (§7): privates pay their income first; then minors, then public companies, each by
  falling price, the top of a pile first (fixed when the round starts; closed companies are
  skipped).  A company may buy privates from its own controller during its turn (§1.4.1:
  £1 to face value).
- A public company's turn (§7.3): redeem shares from the pool at the current price
  (§7.3.1, no loans); lay or upgrade track (§7.3.2: one operation, a second in another hex
  for £20, at most one upgrade; terrain paid on yellow lays, upgrades free except Newcastle
  yellow to green; the fewest loans that pay the cost, §7.2; a private's free yellow lays on
  its hexes in addition, unconnected, terrain ignored); one station marker (§7.3.3: a free
  reachable space, not in a hex it already has; £20 a hex from its only marker, £40 a hex
  from the nearest once it has two; no loans; spaces reserved for unstarted minors until
  Phase 4); run trains (the optimiser's revenue); dividends (§7.3.5); interest on the loans
  it started the turn with (§7.3.6); loan repayment (§7.3.7); trains (§7.3.8).
- A minor's turn has no redemption and no station marker; it pays half its earnings to its
  owner and half to its treasury and moves up a space, or down with no earnings (§7.3.5).
- A company without a train at the end of its turn drops one space (§7.3.8).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.games.g1812 import data
from engine.games.g1812 import economy as eco
from engine.games.g1812 import economy_costs as costs
from engine.games.g1812 import economy_data as ed

__all__ = ["OperatingMixin1812"]

_TILE_LAYS = {
    c["sym"]: ab for c in data.COMPANIES for ab in c["abilities"] if ab["type"] == "tile_lay"
}


class OperatingMixin1812:
    """Operating-round rules of :class:`~.game.Game1812` (see the module docstring)."""

    # ------------------------------------------------------------------ order and turns
    def operating_order(self) -> list[str]:
        minors = self.live_minors()
        return self.market.order(minors + self.live_corporations(), minors)

    def or_start(self) -> None:
        """§1.4.1, §7: private companies pay their income to their owners."""
        for sym in self.privates_in_play:
            info = self.state.companies[sym]
            if info["owner"] is not None and not info["closed"]:
                self.pay(BANK, info["owner"], int(info["spec"]["revenue"]), f"{sym} income")

    def stages_for(self, op: str) -> tuple[str, ...]:
        return self.MINOR_STAGES if self.kind_of(op) == "minor" else self.OPERATING_STAGES

    def turn_started(self, op: str) -> None:
        self.or_turn.flags.update(loans_at_start=self.loans.get(op, 0))

    def turn_ended(self, op: str) -> None:
        if not self.alive(op):
            return
        self.state.operators[op].operated = True
        if not self.state.trains_of(op):
            self.note(f"{op} has no train: its price drops (§7.3.8)")
            self.move_price(op, -1)

    # ------------------------------------------------------------------ routes
    def optimal_run(self, op: str):
        """The optimiser's revenue (engine.game.operating), cached by what the company
        reaches: the tiles and markers of the hexes its network walks, its trains, its
        privates and the phase.  Nothing outside those hexes can be on its routes."""
        trains = tuple(t.name for t in self.runnable_trains(op))
        if not trains:
            return 0, None
        st = self.state
        board = st.board
        hexes = sorted(self.network(op).track)
        tiles = tuple((h, board.placed(h).tile.name, board.placed(h).rotation) for h in hexes)
        wanted = set(hexes)
        tokens = tuple(sorted((k, tuple(v)) for k, v in st.tokens.items() if k[0] in wanted))
        key = (op, st.phase_name, trains, tuple(st.owned_companies(op)), tiles, tokens)
        cache = self.__dict__.setdefault("_reach_routes", {})
        if key not in cache:
            if len(cache) > 512:
                cache.clear()
            cache[key] = super().optimal_run(op)
        return cache[key]

    # ------------------------------------------------------------------ loans (§7.2)
    def loans_for(self, op: str, cost: int) -> int | None:
        """Fewest loans that let ``op`` pay ``cost`` (0 if its cash does); None if not even
        the loans up to its limit do."""
        try:
            return eco.loans_needed(self.cash(op), cost, self.loans.get(op, 0), self.kind_of(op))
        except eco.RuleViolation:
            return None

    def take_loans(self, op: str, n: int) -> None:
        """``n`` loans of £50, the first £5 interest on each paid at once (§7.2)."""
        if n <= 0:
            return
        self.pay(BANK, op, n * ed.LOAN_VALUE, f"{op} takes {n} loan(s)")
        self.pay(op, BANK, n * ed.LOAN_INTEREST, f"{op} interest on new loans")
        self.loans[op] = self.loans.get(op, 0) + n
        self.note(f"{op} takes {n} loan(s) (now {self.loans[op]})")

    # ------------------------------------------------------------------ private purchases
    def anytime_actions(self, op: str, stage: str) -> list[dict]:
        """§1.4.1: privates from the company's own controller, £1 to face value."""
        cash = self.cash(op)
        ctrl = self.controller(op)
        if cash < 1 or ctrl is None:
            return []
        acts = []
        for sym in self.privates_in_play:
            info = self.state.companies[sym]
            if info["owner"] != ctrl or info["closed"]:
                continue
            top = min(int(info["spec"]["value"]), cash)
            acts.append({"type": "buy_company", "entity": op, "company": sym, "price": top,
                         "min_price": ed.PRIVATE_MIN_PRICE, "max_price": top})  # fmt: skip
        return acts

    def operating_buy_company(self, action: dict) -> None:
        op, sym, price = action["entity"], action["company"], int(action["price"])
        info = self.state.companies[sym]
        seller = info["owner"]
        self.pay(op, seller, price, f"private {sym}")
        info["owner"] = op
        self.note(f"{op} buys {sym} from {seller} for {price}")

    def owns_private(self, op: str, sym: str) -> bool:
        info = self.state.companies.get(sym)
        return info is not None and info["owner"] == op and not info["closed"]

    # ------------------------------------------------------------------ redeem (§7.3.1)
    def legal_redeem(self, op: str) -> list[dict]:
        pool = self.shares.ordinary(op, POOL)
        price, cash = self.share_price(op), self.cash(op)
        acts = [{"type": "buy_shares", "entity": op, "corporation": op, "source": POOL,
                 "percent": 10 * n, "price": n * price}
                for n in range(1, len(pool) + 1) if n * price <= cash]  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": op})
        return acts

    def operating_buy_shares(self, action: dict) -> None:
        op, n = action["entity"], int(action["percent"]) // 10
        certs = [c.id for c in self.shares.ordinary(op, POOL)[:n]]
        self.shares.move(certs, op)
        self.pay(op, BANK, int(action["price"]), f"{op} redeems {n} share(s)")
        self.note(f"{op} redeems {n} share(s) for {action['price']}")
        self.or_turn.index += 1

    # ------------------------------------------------------------------ track (§7.3.2)
    def lay_cost(self, hex_: str, upgrade: bool, second: bool) -> int:
        """Terrain on a yellow lay; upgrades free except Newcastle yellow to green; £20
        more for the second operation (§7.3.2)."""
        board = self.state.board
        if upgrade:
            base = data.UPGRADE_COST_HEXES.get(hex_, 0) if board.color(hex_) == "yellow" else 0
        else:
            base = board.tile(hex_).upgrade_cost
        return base + (ed.SECOND_TILE_FEE if second else 0)

    def legal_track(self, op: str) -> list[dict]:
        t = self.or_turn
        acts = []
        if len(t.lays) < 2:
            upgraded = any(up for _, up in t.lays)
            laid = {h for h, _ in t.lays}
            second = len(t.lays) == 1
            costs_seen: dict[tuple[str, bool], int | None] = {}
            for hex_, opt in self.lay_options(op):
                if hex_ in laid or (opt.upgrade and upgraded):
                    continue
                key = (hex_, opt.upgrade)
                if key not in costs_seen:
                    cost = self.lay_cost(hex_, opt.upgrade, second)
                    costs_seen[key] = (cost, self.loans_for(op, cost))
                cost, loans = costs_seen[key]
                if loans is None:
                    continue
                acts.append({"type": "lay_tile", "entity": op, "hex": hex_, "tile": opt.tile,
                             "rotation": opt.rotation, "cost": cost, "loans": loans})  # fmt: skip
        acts += self._free_lays(op)
        if acts:
            acts.append({"type": "pass", "entity": op})
        return acts

    def _free_lays(self, op: str) -> list[dict]:
        """A private's free yellow lays on its hexes (§7.3.2, §14.2)."""
        board = self.state.board
        acts = []
        for sym, ability in _TILE_LAYS.items():
            if not self.owns_private(op, sym):
                continue
            if self.ability_uses.get(sym, 0) >= int(ability["count"]):
                continue
            hexes = [h for h in ability["hexes"] if h in board and board.color(h) == "white"]
            for hex_, opt in self.lay_options(op, hexes):
                acts.append({"type": "lay_tile", "entity": op, "hex": hex_, "tile": opt.tile,
                             "rotation": opt.rotation, "cost": 0, "loans": 0,
                             "company": sym})  # fmt: skip
        return acts

    def operating_lay_tile(self, action: dict) -> None:
        ent, hex_, tile, rot = action["entity"], action["hex"], action["tile"], action["rotation"]
        private = action.get("company")
        if private:
            self.state.lay_tile(hex_, f"{tile}-0", int(rot), check=False)
            self.ability_uses[private] = self.ability_uses.get(private, 0) + 1
            self.note(f"{ent} lays {tile} on {hex_} free with {private}")
            return
        t = self.or_turn
        upgrade = self.state.board.color(hex_) != "white"
        self.take_loans(ent, int(action.get("loans", 0)))
        self.pay(ent, BANK, int(action["cost"]), f"tile {tile} on {hex_}")
        self.state.lay_tile(hex_, f"{tile}-0", int(rot), check=False)
        t.lays.append((hex_, upgrade))
        self.note(f"{ent} lays {tile} on {hex_} (rotation {rot}) for {action['cost']}")

    # ------------------------------------------------------------------ tokens (§7.3.3)
    def legal_token(self, op: str) -> list[dict]:
        mine = self.state.tokens_of(op)
        if self.kind_of(op) != "public" or not mine or self.tokens_left(op) <= 0:
            return []

        def cost(hex_: str, _city: int) -> int:
            distance = min(costs.hex_distance(hex_, h) for h, _ in mine)
            return costs.station_marker_cost(len(mine), distance)

        return self.priced_tokens(op, cost)

    def operating_place_token(self, action: dict) -> None:
        op, hex_, city = action["entity"], action["hex"], int(action["city"])
        self.pay(op, BANK, int(action["cost"]), f"{op} station in {hex_}")
        self.state.place_token(hex_, city, op, check=False)
        self.note(f"{op} places a station marker in {hex_} for {action['cost']}")
        self.or_turn.index += 1

    # ------------------------------------------------------------------ dividends (§7.3.5)
    def legal_dividend(self, op: str) -> list[dict]:
        if self.kind_of(op) == "minor" or not self.or_turn.revenue:
            return []
        return [{"type": "dividend", "entity": op, "kind": k}
                for k in ("payout", "half", "withhold")]  # fmt: skip

    def _dividend(self, op: str, kind: str) -> None:
        revenue = int(self.or_turn.revenue or 0)
        for card in self.state.trains_of(op):
            self.operated_trains.add(card.id)
        if self.kind_of(op) == "minor":
            split = eco.minor_dividend(revenue)
            self.pay(BANK, self.minor_owner[op], split.owner, f"{op} dividend")
            self.pay(BANK, op, split.treasury, f"{op} earnings")
            self.note(f"{op} earns {revenue}: {split.owner} to its owner")
            self.move_price(op, split.steps)
            return
        held = {p: self.shares.percent(op, p) // 10 for p in self.seats}
        held[eco.TREASURY] = self.shares.percent(op, op) // 10
        held[eco.POOL] = self.shares.percent(op, POOL) // 10
        out = eco.public_dividend(revenue, kind, self.share_price(op), held)
        for player, amount in out.players.items():
            self.pay(BANK, player, amount, f"{op} dividend")
        self.pay(BANK, op, out.company, f"{op} keeps")
        self.note(f"{op} {kind} {revenue}: {out.per_share} a share")
        self.events.append({"type": "dividend", "entity": op, "kind": kind, "revenue": revenue,
                            "per_share": out.per_share})  # fmt: skip
        self.move_price(op, out.steps)

    # ------------------------------------------------------------------ loans (§7.3.6-7)
    def legal_interest(self, op: str) -> list[dict]:
        return []

    def skip_interest(self, op: str) -> None:
        start = self.or_turn.flags.get("loans_at_start", 0)
        if not start:
            return
        loans = self.loans.get(op, 0)
        res = eco.pay_interest(self.cash(op), start, loans, self.kind_of(op))
        if res.new_loans:
            self.pay(BANK, op, res.new_loans * ed.LOAN_VALUE, f"{op} borrows for interest")
            self.loans[op] = res.loans
        self.pay(op, BANK, res.paid, f"{op} interest")
        self.note(f"{op} pays {res.paid} interest")
        if res.steps:
            self.note(f"{op} cannot pay its interest: its price drops (§7.3.6)")
            self.move_price(op, res.steps)

    def legal_repay(self, op: str) -> list[dict]:
        return []

    def skip_repay(self, op: str) -> None:
        n, _left = eco.repay_loans(self.cash(op), self.loans.get(op, 0))
        if n:
            self.pay(op, BANK, n * ed.LOAN_VALUE, f"{op} repays {n} loan(s)")
            self.loans[op] -= n
            if not self.loans[op]:
                del self.loans[op]
            self.note(f"{op} repays {n} loan(s)")
