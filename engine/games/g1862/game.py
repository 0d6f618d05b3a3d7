"""1862 USA/Canada (Ohley) rules engine: a whole game from the initial stock round to the
final scores, on :class:`engine.game.base.BaseGame`.

The seed rulebook (``shared/seeds/1862-usa-canada-ohley-rules.txt``) is the oracle; its
facts come through :mod:`.economy_data`, its arithmetic through :mod:`.economy` and
:mod:`.economy_initial`.  tobymao/18xx @111f7f69 ``lib/engine/game/g_1862_usa_canada``
(a different, pre-alpha edition) only fills gaps named in :mod:`.data` and
:mod:`.economy_data`.  Parts:

- :mod:`.game_initial`: the initial stock round (private sales, bids, auctions, the reduced
  offers of certificate 1, NYH's par by NYSH's buyer);
- this module: setup (4-7 players, the 22,000$ of money, starting capital), stock rounds
  (§Stock Rounds, §Player's Turn: sell then buy one certificate; initial offering at par,
  pool at the current price, 5 % shares at half, rounded up; groups 1-3; float at 60 %
  with 10 x par from the bank; sale price before the move for a floated company, after it
  otherwise; one row down per sale; pool limit five certificates; holding limit 60 %/70 %;
  certificate limit by players and companies in the game; sold-out rise), company closure
  at the closed square (§Share Price 0), game end (§Ending the Game) and scores;
- :mod:`.game_operating`: the operating round, trains, bankruptcy and share redemption.

The certificates of a company sit in :class:`engine.game.shares.ShareRegistry` with the
company symbol as the holder of its initial offering (``SYM_0`` is the president's share);
after a redemption the company's own 50 % share is ``SYM_R`` (also held by the company).
Shares that come with a private company before their company is parred are held aside in
:attr:`Game1862.granted` (they count against the certificate limit).
"""

from __future__ import annotations

from engine.game.base import BANK, BaseGame
from engine.game.ledger import Ledger
from engine.game.shares import POOL
from engine.games import g1862 as _package
from engine.games.g1862 import economy as eco
from engine.games.g1862 import economy_data as ed
from engine.games.g1862 import economy_initial as ei
from engine.games.g1862.game_initial import InitialRoundMixin
from engine.games.g1862.game_market import GAME_DATA, Market1862, State1862
from engine.games.g1862.game_operating import OperatingMixin1862

__all__ = ["Game1862", "new_game"]


class Game1862(InitialRoundMixin, OperatingMixin1862, BaseGame):
    """1862 USA/Canada (Ohley) for 4-7 players (see the module docstring)."""

    TITLE = "1862"
    DEFINITION = _package.TITLE
    MIN_PLAYERS = min(ed.PLAYER_COUNTS)
    MAX_PLAYERS = max(ed.PLAYER_COUNTS)
    HOME_TOKEN_TIMING = "operate"
    # §Ending the Game / General: "the current set of operating rounds is always completed"
    GAME_END = {"bank": "full_or", "stock_market": "full_or", "companies_out": "full_or",
                "players": "full_or"}  # fmt: skip
    MARKET_SHARE_LIMIT = 100  # the pool limit is five certificates (_sale_sizes)

    # ------------------------------------------------------------------ setup
    def _entity_symbols(self) -> set[str]:
        return super()._entity_symbols() | {eco.IPO, eco.POOL, eco.COMPANY}

    def setup(self) -> None:
        if self.options:
            raise ValueError(f"1862 has no optional rules (got {', '.join(self.options)})")
        state = self.state
        state.__class__ = State1862
        state.data = GAME_DATA
        state.trains, state.depot, state.discarded = {}, [], []
        state._make_trains()
        n = len(self.seats)
        self.ledger = Ledger({BANK: ed.BANK_TOTAL}, {BANK}, keep_history=False)
        for p in self.seats:
            self.ledger.open(p)
            self.pay(BANK, p, ed.STARTING_CAPITAL[n], "starting capital")
        for sym in state.operators:
            self.ledger.open(sym)
        self.market = Market1862()
        self.bids: dict[str, dict[str, int]] = {}
        self.granted: dict[str, list[tuple[str, int]]] = {}
        self.groups_open: set[int] = set()
        self.paid: set[str] = set()
        self.out: list[str] = []
        self.debt: dict[str, int] = {}
        self.player_debt: dict[str, int] = {}
        self.start_first_round()

    def start_first_round(self) -> None:
        self.start_initial_round()

    def start_stock_round(self) -> None:
        if self.privates_unsold():
            self.start_initial_round()
            return
        super().start_stock_round()
        self.round.data["initial"] = False

    # ------------------------------------------------------------------ limits
    def players_in(self) -> int:
        return len(self.seats) - len(self.bankrupt)

    def cert_limit(self, player: str) -> int:
        """§Certificate Limit: by players and companies still in the game (a table cut
        short: rows below 10 companies hold the 10 row, fewer than 3 players the 3 column)."""
        players = max(3, self.players_in())
        companies = ed.COMPANIES_IN_GAME - len(self.out)
        row = max(min(companies, 13), min(ed.CERT_LIMITS))
        while players not in ed.CERT_LIMITS.get(row, {}):
            row -= 1
        return eco.certificate_limit(players, row)

    def holding_limit(self, corp: str) -> int:
        """60 % of a company while more than 4 players are in the game, else 70 %."""
        few = self.players_in() < ed.HOLDING_LIMIT_FEW_BELOW
        return ed.HOLDING_LIMIT_FEW if few else ed.HOLDING_LIMIT_MANY

    def num_certs(self, player: str) -> int:
        count = super().num_certs(player)
        return count + sum(1 for grants in self.granted.values() for p, _ in grants if p == player)

    # ------------------------------------------------------------------ certificates
    def create_shares(self, corp: str) -> None:
        group = self.entity_spec(corp)["group"]
        self.shares.add_corporation(corp, ed.PRESIDENT_PERCENT[group], 10)

    def ipo_certs(self, corp: str) -> list:
        """Certificates still in the initial offering (not the redeemed 50 % share)."""
        return [c for c in self.shares.ordinary(corp, corp) if c.id != f"{corp}_R"]

    def pool_certs(self, corp: str) -> list:
        return self.shares.certs_of(POOL, corp)

    def treasury_receiver(self, corp: str) -> str:
        return BANK  # §Initial Stock Round: payment for certificates goes to the bank

    def group_open(self, corp: str) -> bool:
        return ei.group_of(corp) in self.groups_open

    def update_groups(self) -> None:
        """§Buying Shares: groups open in turn and stay open (latched)."""
        if len(self.groups_open) == len(self.data.CORP_GROUPS):
            return
        # A company out of the game has left nothing to buy or float, so it holds back no
        # later group (the rules are silent; without this, group 1 going out before its
        # shares were all sold would freeze the game with no company to start).
        out = set(self.out)
        ipo = {c: 0 if c in out else sum(x.percent for x in self.ipo_certs(c))
               if c in self.shares.by_corp else 100
               for c in self.data.CORP_GROUPS.get(1, ())}  # fmt: skip
        floated = {c for c, op in self.state.operators.items() if op.floated} | out
        pres = {c for c in self.shares.by_corp if self.shares.president(c) is not None} | out
        now = ei.available_groups(len(self.privates_unsold()), ipo, floated, pres)
        for g in sorted(now - self.groups_open):
            self.note(f"group {g} companies are available")
        self.groups_open |= set(now)

    # ------------------------------------------------------------------ stock round
    def can_par(self, corp: str, player: str) -> bool:
        op = self.state.operators.get(corp)
        return (op is not None and not op.closed and corp not in self.shares.by_corp
                and corp not in self.out and self.group_open(corp))  # fmt: skip

    def par_prices(self) -> list[int]:
        return sorted(ed.PAR_ROWS)

    def _stock_pars(self, p: str) -> list[dict]:
        out = []
        if self.num_certs(p) >= self.cert_limit(p):
            return out
        for corp in self.state.operators:
            if not self.can_par(corp, p):
                continue
            pres = ed.PRESIDENT_PERCENT[self.entity_spec(corp)["group"]]
            granted = sum(pct for q, pct in self.granted.get(corp, ()) if q == p)
            if granted + pres > self.holding_limit(corp):
                continue
            for price in self.par_prices():
                if self.cash(p) >= price * pres // 10:
                    out.append({"type": "par", "entity": p, "corporation": corp,
                                "share_price": price})  # fmt: skip
        return out

    def market_par(self, corp: str, player: str, price: int) -> None:
        self.market.par_at(corp, price)

    def after_par(self, corp: str, player: str, price: int) -> None:
        """Shares that came with privates leave the initial offering for their holders."""
        for holder, percent in self.granted.pop(corp, []):
            certs = [c for c in self.ipo_certs(corp) if c.percent == percent]
            self.shares.move([certs[0].id], holder)
        self.shares.check_president(corp)

    def after_share_change(self, corp: str) -> None:
        """§Starting a Public Company: floated when 60 % have left the initial offering;
        the bank pays 10 x par."""
        op = self.state.operators[corp]
        if op.floated:
            return
        ipo = sum(c.percent for c in self.ipo_certs(corp))
        if eco.is_floated(ipo):
            op.floated = True
            capital = eco.float_capital(self.market.par_price(corp))
            self.pay(BANK, corp, capital, f"{corp} floats")
            self.note(f"{corp} floats with {capital}")
            self.close_privates()

    def _stock_buys(self, p: str) -> list[dict]:
        out = []
        cash = self.cash(p)
        if self.num_certs(p) >= self.cert_limit(p):
            return out
        for corp in self.live_corporations():
            if not self.group_open(corp):
                continue
            share = self.shares.share_percent[corp]
            if self.shares.percent(corp, p) + share > self.holding_limit(corp):
                continue
            ipo, pool = self.ipo_certs(corp), self.pool_certs(corp)
            for source, certs, price in (
                ("treasury", ipo, self.market.par_price(corp)),
                (POOL, pool, self.market.price(corp)),
            ):
                cost = eco.certificate_price(price, share)
                if certs and cost <= cash:
                    out.append({"type": "buy_shares", "entity": p, "corporation": corp,
                                "shares": [certs[0].id], "source": source, "percent": share,
                                "price": cost})  # fmt: skip
        return out

    def _stock_sales(self, p: str) -> list[dict]:
        if self.round.data.get("initial"):
            return []  # §Initial Stock Round: no sales
        out = []
        for corp in self.live_corporations():
            if corp in self.round.data["sold_now"] or not self.shares.percent(corp, p):
                continue
            for size in self._sale_sizes(p, corp, forced=False):
                out.append({"type": "sell_shares", "entity": p, "corporation": corp,
                            "percent": size})  # fmt: skip
        return out

    def sell_shares(
        self, p: str, corp: str, pct: int, close: bool = True, ids: list | None = None
    ) -> None:
        """§Selling Shares / §Share Price Changes: one row down per sale; a floated company
        pays the price before the move, one not floated the price after it."""
        proceeds = self.sale_proceeds(corp, pct)
        self.shares.sell(p, corp, pct, ids)
        self.pay(BANK, p, proceeds, f"sale of {corp}")
        self.market.down(corp)
        self.note(f"{p} sells {pct}% of {corp} for {proceeds}")
        if close:
            self.close_at_zero()

    def end_stock_round(self) -> None:
        """§Share Value Changes: a company with no share in the initial offering or the pool
        moves up a row; then the priority deal (base)."""
        for corp in self.market.operating_order(self.live_corporations()):
            if not self.ipo_certs(corp) and not self.pool_certs(corp):
                self.market.up(corp)
        r = self.round
        last = r.data["last_passer"]
        if last is not None:
            nxt = r.entities[(r.entities.index(last) + 1) % len(r.entities)]
            i = self.players.index(nxt)
            self.players = self.players[i:] + self.players[:i]
        self.note(f"{self.players[0]} has priority")

    def explain_stock(self, action: dict) -> str | None:
        corp = action.get("corporation")
        closed = corp in self.state.operators and not self.group_open(corp)
        if action["type"] in ("buy_shares", "par") and closed:
            return f"{corp}'s group {ei.group_of(corp)} is not available yet"
        if action["type"] == "sell_shares" and self.round.data.get("initial"):
            return "no certificate may be sold in an initial stock round"
        return super().explain_stock(action)

    # ------------------------------------------------------------------ closures
    def close_privates(self) -> None:
        """PSC / FNY on their company's first dividend, NYSH when NYH floats, SOC when CPR
        and UP both floated (§Special Abilities)."""
        open_ = [s for s, i in self.state.companies.items() if i["owner"] and not i["closed"]]
        floated = [c for c, op in self.state.operators.items() if op.floated]
        for sym in ei.privates_closing(open_, floated, self.paid):
            self.state.companies[sym]["closed"] = True
            self.note(f"{sym} closes")

    def close_at_zero(self) -> None:
        for corp in list(self.live_corporations()):
            if self.market.at_close(corp):
                self.close_corporation(corp)

    def close_corporation(self, corp: str, compensate: bool = False) -> None:
        """The company leaves the game (§Share Price 0; §Bankruptcy with ``compensate``:
        the other shareholders get their shares' current value from the bank)."""
        pres = self.shares.president(corp)
        treasury, debt = self.cash(corp), self.debt.pop(corp, 0)
        self.pay(corp, BANK, treasury, f"{corp} closes")
        price = self.market.price(corp)
        if compensate:
            # a bankrupt president's company: its debt leaves with it; a marker on the
            # closed square is worth nothing
            for p in self.seats:
                if p != pres and price > 0:
                    value = sum(eco.certificate_price(price, c.percent)
                                for c in self.shares.certs_of(p, corp))  # fmt: skip
                    self.pay(BANK, p, value, f"{corp} compensation")
        elif debt > treasury and pres is not None:
            self._president_pays(pres, debt - treasury, f"{corp}'s debt")
        self.note(f"{corp} is out of the game")
        self.state.turn_blank(corp)
        self.state.close_operator(corp)
        self.shares.remove_corporation(corp)
        self.market.remove(corp)
        self.out.append(corp)
        t = self.or_turn
        if self.round.kind == "operating" and t is not None and t.op == corp:
            t.index = len(t.stages)

    def _president_pays(self, player: str, amount: int, reason: str) -> None:
        """A president covers a company's debt from his cash; what he cannot pay is his own
        debt, taken off his score (selling shares at game end would not change his value)."""
        paid = min(amount, self.cash(player))
        self.pay(player, BANK, paid, reason)
        if amount > paid:
            self.player_debt[player] = self.player_debt.get(player, 0) + amount - paid

    def after_action(self, action: dict) -> None:
        self.close_at_zero()
        self.update_groups()
        super().after_action(action)

    # ------------------------------------------------------------------ game end
    def end_checks(self) -> dict[str, bool]:
        """§Ending the Game / Timing (the conditions of :func:`.economy.game_end_reasons`)."""
        top = max((self.market.price(c) for c in self.market.where), default=0)
        return {"bank": self.bank_broken or self.cash(BANK) <= 0,
                "stock_market": top > ed.GAME_END_PRICE_ABOVE,
                "companies_out": len(self.out) >= ed.GAME_END_COMPANIES_OUT,
                "players": self.players_in() < ed.GAME_END_PLAYERS_BELOW}  # fmt: skip

    def end_game(self, reason: str) -> None:
        """§Ending the Game / General: companies pay back their debt, presidents make up
        what the treasury lacks."""
        if reason != "dnf":
            for corp in list(self.live_corporations()):
                debt = self.debt.pop(corp, 0)
                if not debt:
                    continue
                from_treasury, rest = eco.debt_settlement(debt, self.cash(corp))
                self.pay(corp, BANK, from_treasury, f"{corp} pays back its debt")
                if rest:
                    self._president_pays(self.shares.president(corp), rest, f"{corp}'s debt")
        super().end_game(reason)

    def player_value(self, player: str) -> int:
        """§Winning the Game: cash plus shares at the current price (5 % rounded up);
        privates count nothing; a player's own debt is taken off."""
        shares = [(self.market.price(c.corp), c.percent) for c in self.shares.certs_of(player)]
        return eco.player_value(self.cash(player), shares) - self.player_debt.get(player, 0)


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1862:
    """A new 1862 USA/Canada game (see :class:`Game1862`)."""
    return Game1862(players, seed, options, actions)
