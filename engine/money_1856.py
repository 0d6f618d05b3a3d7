"""Money, shares, loans and the national of an 1836Jr-56 game (1856 rules), replayed.

:class:`Finance1856` extends :class:`~engine.money_1836jr.Finance1830` with the 1856 rules,
as tobymao/18xx @111f7f69 (MIT) plays them (``g_1856/game.rb`` unless named otherwise;
1836Jr-56 changes only the numbers, ``g_1836_jr56/game.rb``):

- capitalization chosen at par (``g_1856/corporation.rb`` ``par!``): escrow until the last
  4-train is sold, then incremental, then (last 5-train) full.  An escrow corporation
  receives the price of IPO shares while it holds more than 50% before the sale (the first
  five shares); the rest is held by the bank until its destination is connected (``share_pool.rb``
  ``transfer_shares``, ``release_escrow!``); an incremental one receives every IPO sale; a
  full one is paid ten times par when enough is sold to operate (``float_corporation``);
- a corporation starts operating once ``percent_to_operate`` (20%, +10% whenever the last
  train of a type is sold: ``event_change_float!``) has left the IPO
  (``g_1856/round/operating.rb`` ``start_operating``);
- a sale moves the price down one row per 10% (``SELL_MOVEMENT = :down_per_10``); dividends
  of market shares go to the corporation, IPO shares earn nothing (``g_1856/step/dividend.rb``);
- loans of 100 (90 once interest is paid that round), at most one per round and as many as
  players hold shares (``take_loan``, ``maximum_loans``); interest of 10 a loan after the run,
  from the treasury in multiples of 10, then from the run, then from the president
  (``round/operating.rb`` ``pay_interest!``); a corporation with more loans than player
  shares must repay the excess after buying trains (``force_repay_loans!``);
- the first 6-train: corporations repay loans from their treasury; each one still owing
  either merges into the national (MESS) or its president pays (``event_nationalization!``,
  ``merge_major``, ``nationalization_president_payoff``); the national's price, its share
  exchange (one national share per 20% held, odd 10% to the market) and its forced withhold
  until it owns a permanent train (``calculate_national_price``, ``national_share_swap``,
  ``national_bought_permanent``); after it, no more interest or loans
  (``post_corp_nationalization``);
- cash crises: a president who cannot pay goes below zero and must sell
  (``g_1856/step/cash_crisis.rb``) or go bankrupt (``g_1856/step/bankrupt.rb``);
- at the end every share loses 10 per 10% for each loan its corporation still has
  (``player_value``).
"""

from __future__ import annotations

from collections.abc import Hashable

from engine.game.market import IPO, POOL, Certificate
from engine.model.record import ReplayError
from engine.money_1836jr import BANK, Finance1830

__all__ = ["Finance1856", "national_awards", "national_price"]


def national_price(prices: list[int]) -> int:
    """The national's par from the merging corporations' prices (18xx.games ``g_1856``
    ``national_price``): drop the lowest of three or more, average, round down to a
    multiple of 5, then 100 below 105, 110 up to 115, else the nearest multiple of 25."""
    prices = list(prices)
    if len(prices) > 2:
        prices.remove(min(prices))
    ave = int(0.2 * sum(prices) / len(prices)) * 5
    if ave < 105:
        return 100
    if ave <= 115:
        return 110
    delta = ave % 25
    return ave - delta if delta < 12.5 else ave - delta + 25


def national_awards(seats, pre_percent, pre_market: int, limit: int) -> tuple:
    """Who gets the national's shares (18xx.games ``g_1856`` ``national_share_swap``): in
    seat order each player one share per 20% held of the merged corporations, up to
    ``limit`` shares in all; the odd percentages and the market's pool into shares for the
    market.  Returns ``(president, false_president, market_shares, shares_left)``; the
    president is the first player with the most shares, "false" if that is only one."""
    left, best, president, false_pres = limit, 0, None, False
    market = pre_market
    for p in seats:
        if p not in pre_percent:
            continue
        awarded = min(pre_percent[p] // 20, left)
        market += pre_percent[p] % 20
        left -= awarded
        if awarded > best:
            false_pres, best, president = awarded == 1, awarded, p
    market_count = min(market // 20, left)
    return president, false_pres, market_count, left - market_count


class Finance1856(Finance1830):
    """The financial side of an 1836Jr-56 (1856 rules) game."""

    players_may_go_negative = True
    not_a_turn = frozenset({"discard_train", "merge"})

    def __init__(self, state) -> None:
        data = state.data
        self.national = data.NATIONAL
        self.loan_value = int(data.LOAN_VALUE)
        self.interest_per_loan = int(data.LOAN_INTEREST)
        self.national_token_price = int(data.NATIONAL_TOKEN_PRICE)
        self.percent_to_operate = int(data.START_PERCENT_TO_OPERATE)
        super().__init__(state)
        self.game_cap = "escrow"
        self.cap: dict[str, str] = {}
        self.escrow: dict[str, int | None] = {}
        self.destinated: set[str] = {self.national}
        self.started: set[str] = set()
        self.loans: dict[str, int] = {s: 0 for s in self.corp_specs}
        self.took_loan: set[str] = set()
        self.paid_interest: set[str] = set()
        self.post_nationalization = False
        self.permanent = False  # the national has owned a permanent train
        self.nationalizables: list[str] = []
        self.nationalized: list[str] = []
        self.national_formed = False
        self.trigger: Hashable | None = None
        self.pre_percent: dict[Hashable, int] = {}
        self.pre_market_percent = 0
        self.pre_prices: dict[str, int] = {}
        self.crisis: str | None = None  # the corporation whose debt a president covers

    # ------------------------------------------------------------------ shares
    def before_par(self, sym: str) -> None:
        if sym == self.national:
            raise ReplayError(f"{sym} cannot be parred")
        cap = self.game_cap
        if cap == "escrow" and sym in self.destinated:
            cap = "incremental"
        self.cap[sym] = cap
        self.escrow[sym] = 0 if cap == "escrow" else None

    def buy_certs(self, buyer, certs: list[str], source, percent: int | None = None) -> None:
        sym = self.registry.cert(certs[0]).corp
        total = sum(self.registry.cert(c).percent for c in certs)
        price = self.bundle_price(sym, source, int(percent or total))
        # share_pool.rb transfer_shares tests the IPO's certificates before they move
        ipo_before = self.registry.percent(sym, IPO)
        self.registry.give(certs, buyer)
        if source == IPO and self.cap.get(sym) in ("escrow", "incremental"):
            if self.cap[sym] == "escrow" and ipo_before <= 50:
                self.pay(buyer, BANK, price, f"{sym} share into escrow")
                self.escrow[sym] = (self.escrow[sym] or 0) + price
            else:
                self.pay(buyer, sym, price, f"IPO share of {sym}")
        else:
            target = source if source in self.players else BANK
            self.pay(buyer, target, price, f"shares of {sym}")
        self.check_float(sym)

    def floatable(self, sym: str) -> bool:
        return self.registry.percent(sym, IPO) <= 100 - self.percent_to_operate

    def is_floated(self, sym: str) -> bool:
        """``g_1856/corporation.rb`` ``floated?``: started, or full cap and enough sold."""
        return sym in self.started or (self.cap.get(sym) == "full" and self.floatable(sym))

    def check_float(self, sym: str) -> None:
        if sym in self.floated or not self.grid.has_price(sym) or sym == self.national:
            return
        if self.cap.get(sym) == "full" and self.floatable(sym):
            self.floated.add(sym)
            self.started.add(sym)
            total = self.registry.total_shares(sym)
            self.pay(BANK, sym, self.grid.par_price(sym) * total, f"{sym} floats (full cap)")

    def sale_drop(self, sym: str, percent: int) -> None:
        self.price_move(sym, "down", int(percent) // 10)

    def price_move(self, sym: str, direction: str, times: int = 1) -> None:
        """The national's price stays until it owns a permanent train, and it never closes
        (``g_1856/stock_market.rb``); another company reaching a closing cell closes."""
        if sym == self.national and not self.permanent:
            return
        for _ in range(times):
            target = self.grid.peek(sym, direction)
            if target is not None and target.close and sym == self.national:
                return
            self.grid.move(sym, direction)
            if self.grid.current(sym).close:
                self.close_corporation(sym, "its price reached a closing cell")
                return

    def _sr_movers(self) -> list[str]:
        movers = [s for s in self.corp_specs if self.grid.has_price(s) and s in self.live_corps()]
        return [s for s in movers if self.is_floated(s) or self.sold_out(s)]

    # ------------------------------------------------------------------ rounds
    def operating_order(self) -> list[str]:
        syms = [
            s
            for s in self.live_corps()
            if self.grid.has_price(s) and (self.is_floated(s) or self.floatable(s))
        ]
        return self.grid.operating_order(syms)

    def _start_or(self, state) -> None:
        super()._start_or(state)
        self.paid_interest = set()
        self.took_loan = set()

    def _operating(self, state, action: dict, sym: str) -> None:
        if action["type"] == "pass" and self.nationalizables and sym == self.nationalizables[0]:
            return  # a president paying his corporation's loans, in the buyer's turn
        super()._operating(state, action, sym)

    def _begin_turn(self, state, sym: str) -> None:
        super()._begin_turn(state, sym)
        if sym not in self.started and self.floatable(sym):
            self.started.add(sym)
            self.floated.add(sym)
        t = self.turn.extra
        t.update(stage=0, track=False, token=False, routes=0)

    # stage 0: before the run; 1: route step passed; 2: train step passed
    def _stage_before(self, state, action: dict) -> None:
        turn = self.turn
        if turn is None or action.get("entity") != turn.sym:
            return
        t, kind = turn.extra, action["type"]
        if kind == "pass" and self.nationalizables and turn.sym == self.nationalizables[0]:
            return  # the president pays the loans (nationalization), no step of the turn
        if kind == "lay_tile":
            t["track"] = True
        elif kind == "place_token":
            t["track"] = t["token"] = True
        elif kind in ("buy_train", "payoff_loan", "bankrupt", "dividend"):
            self._route_passed(state)
        elif kind == "pass" and t["stage"] == 0:
            if not t["track"]:
                t["track"] = True
            elif self._run_follows(state, turn.sym):
                t["token"] = True  # a token or borrow-train pass: the run comes later
            elif not t["token"] and self._token_possible(state, turn.sym):
                t["token"] = True
            else:
                self._route_passed(state)
                t["stage"] = 2
        elif kind == "pass" and t["stage"] == 1:
            t["stage"] = 2

    def _run_follows(self, state, sym: str) -> bool:
        """Does ``sym``'s turn go on with a step before the dividend (a lay, token, borrowed
        train or run)?"""
        for a in state.actions[state.index + 1 :]:
            ent, etype = a.get("entity"), a.get("entity_type")
            if etype == "player" and a["type"] == "sell_shares":
                continue
            if ent != sym:
                return False
            if a["type"] in ("lay_tile", "place_token", "borrow_train", "run_routes", "dividend"):
                return True
        return False

    def _token_possible(self, state, sym: str) -> bool:
        """Could the token step have offered a token (an unused one the treasury, with a
        loan, can pay for)?  The map's reach is not checked."""
        places = self.tokens_at.get(sym) or []
        prices = self.corp_specs[sym].get("tokens", [])
        free = [int(prices[i]) for i, w in enumerate(places) if w is None]
        if len(places) < len(prices):
            free += [int(p) for p in prices[len(places) :]]
        power = self.cash(sym) + (self.loan_value if self.can_take_loan(sym) else 0)
        return bool(free) and min(free) <= power

    def _route_passed(self, state) -> None:
        t = self.turn.extra
        if t["stage"] == 0:
            t["stage"] = 1
            self._skip_dividend(state)

    def dividend_available(self, turn) -> bool:
        """``g_1856/step/dividend.rb`` ``actions``: some routes ran (the national chooses
        nothing until it owns a permanent train)."""
        if turn.sym == self.national and not self.permanent:
            return False
        return bool(turn.extra.get("routes"))

    def dividend_revenue(self, turn) -> int:
        return int(turn.revenue or 0) - int(turn.extra.get("penalty", 0))

    def _after_run_routes(self, state, action: dict) -> None:
        turn = self.turn
        if turn is not None:
            turn.extra["routes"] = len(action.get("routes") or [])
            turn.extra["stage"] = max(turn.extra["stage"], 1)
        self._after_or_action(state)
        super()._after_run_routes(state, action)

    def _after_or_action(self, state) -> None:
        """``g_1856/round/operating.rb`` ``after_process_before_skip``: interest once the
        run is done, forced loan repayment once the train step is done."""
        turn = self.turn
        if turn is None:
            return
        if turn.extra.get("stage", 0) >= 1 and turn.sym not in self.paid_interest:
            self.pay_interest(turn)
        if turn.extra.get("stage", 0) >= 2:
            self.force_repay(turn.sym)

    def pay_interest(self, turn) -> None:
        sym = turn.sym
        self.paid_interest.add(sym)
        owed = self.interest_owed(sym)
        if not self.loans[sym] or owed <= 0:
            return
        cash = self.cash(sym)
        payment = min(owed, cash - cash % 10)
        self.pay(sym, BANK, payment, f"{sym} interest")
        owed -= payment
        if owed > 0 and turn.ran:
            cut = min(owed, int(turn.revenue or 0))
            turn.extra["penalty"] = cut
            owed -= cut
            if cut:
                self.notes.append(f"{sym} pays {cut} interest out of its run")
        if owed > 0:
            self.crisis = sym
            self.pay(self.president(sym), BANK, owed, f"{sym} interest from its president")

    def interest_owed(self, sym: str) -> int:
        return 0 if self.post_nationalization else self.interest_per_loan * self.loans[sym]

    def max_loans(self, sym: str) -> int:
        return int(sum(self.registry.player_percents(sym).values()) // 10)

    def can_take_loan(self, sym: str) -> bool:
        return (
            self.loans[sym] < self.max_loans(sym)
            and sym not in self.took_loan
            and "no_loans" not in (self.state.phase.get("status") or [])
            and not self.post_nationalization
        )

    def force_repay(self, sym: str) -> None:
        excess = self.loans[sym] - self.max_loans(sym)
        if excess <= 0:
            return
        owed = self.loan_value * excess
        self.loans[sym] -= excess
        payment = min(owed, self.cash(sym))
        self.pay(sym, BANK, payment, f"{sym} repays {excess} loans")
        owed -= payment
        if owed > 0:
            self.crisis = sym
            self.pay(self.president(sym), BANK, owed, f"{sym}'s forced repayment")

    # ------------------------------------------------------------------ actions
    def _pre_handle(self, state, action: dict) -> None:
        if self.mode == "operating" and self.turn is not None:
            self._stage_before(state, action)

    def _sale_in_turn(self, state) -> None:
        """A president's sale in an operating turn: an emergency sale in the train step (so
        the run is over) or a cash crisis after it."""
        if self.turn is not None:
            self._route_passed(state)

    def after(self, state, action: dict) -> None:
        """``g_1856/round/operating.rb`` runs interest and forced repayment after every
        action of an operating round, a bankruptcy included."""
        if not self.finished and self.mode == "operating" and action["type"] != "run_routes":
            self._after_or_action(state)
        super().after(state, action)

    def _do_take_loan(self, state, action: dict) -> None:
        sym = action["entity"]
        if self.post_nationalization:
            raise ReplayError(f"{sym} takes a loan after the national formed")
        amount = self.loan_value - (self.interest_per_loan if sym in self.paid_interest else 0)
        self.pay(BANK, sym, amount, f"{sym} loan")
        self.loans[sym] += 1
        self.took_loan.add(sym)

    def _do_payoff_loan(self, state, action: dict) -> None:
        sym = action["entity"]
        if self.loans[sym] <= 0:
            raise ReplayError(f"{sym} repays a loan it does not have")
        self.pay(sym, BANK, self.loan_value, f"{sym} repays a loan")
        self.loans[sym] -= 1

    def _do_destination_connection(self, state, action: dict) -> None:
        for sym in action.get("corporations") or []:
            self.destinated.add(sym)
            if self.escrow.get(sym):
                self.pay(BANK, sym, self.escrow[sym], f"{sym} escrow released")
            self.escrow[sym] = None
            if self.cap.get(sym) == "escrow":
                self.cap[sym] = "incremental"

    def _do_assign(self, state, action: dict) -> None:
        if action.get("target_type") == "hex" and action["entity"] in self.companies:
            self.close_company(action["entity"])  # the Régie des Postes marker is its only use

    def token_price(self, state, sym: str, action: dict) -> tuple[int, int]:
        if sym == self.national:
            places = self.tokens_at.setdefault(sym, [])
            places.append(None)
            return len(places) - 1, self.national_token_price
        return super().token_price(state, sym, action)

    def _do_buy_train(self, state, action: dict) -> None:
        super()._do_buy_train(state, action)
        card = state.trains[action["train"]]
        if action["entity"] == self.national and not state.rusts_on(card):
            self.permanent = True

    def _do_borrow_train(self, state, action: dict) -> None:
        """The national borrows a train for free (``borrow_train``)."""

    def _do_pass(self, state, action: dict) -> None:
        if self.nationalizables and action.get("entity") == self.nationalizables[0]:
            self.payoff_nationalizable(state, action["entity"])
            return
        super()._do_pass(state, action)

    def _do_merge(self, state, action: dict) -> None:
        self.merge_major(state, action["corporation"])

    # ------------------------------------------------------------------ bankruptcy
    def _do_sell_shares(self, state, action: dict) -> None:
        super()._do_sell_shares(state, action)
        if self.crisis and self.cash(action["entity"]) >= 0:
            self.crisis = None

    def _do_bankrupt(self, state, action: dict) -> None:
        ent = action["entity"]
        player = ent if ent in self.players else self.president(ent)
        if player is None:
            raise ReplayError(f"{ent} goes bankrupt without a president")
        if self.cash(player) < 0:
            current = self.turn.sym if self.turn else None
            self.sell_everything(player, current=current, needed=0)
        else:
            self._skip_dividend(state)
            self.sell_everything(player, current=ent, needed=self.cheapest_train(state))
        self.pay(player, BANK, self.cash(player), f"{player} is bankrupt")
        self.bankrupt.append(player)
        self.finish(state, "bankrupt")

    def can_sell(self, player, sym, certs, percent, current, needed) -> bool:
        if self.cash(player) >= 0 or needed:
            return super().can_sell(player, sym, certs, percent, current, needed)
        reg = self.registry
        held = reg.player_percents(sym)
        pres = reg.corp(sym).certs[0]
        others = max((v for p, v in held.items() if p != player), default=0)
        if pres.id in certs and others < pres.percent:
            return False
        if reg.percent(sym, POOL) + percent > self.market_share_limit:
            return False
        swap_matters = reg.president(sym) == player and sym in (self.crisis, current)
        if swap_matters and held[player] - percent < others:
            return False
        step_price = min(self.cert_value(reg.cert(c), player) for c in certs)
        return self.bundle_price(sym, player, percent) - step_price < -self.cash(player)

    def close_corporation(self, sym: str, why: str) -> None:
        """``base.rb`` ``close_corporation``: cash to the bank, shares leave the game."""
        self.pay(sym, BANK, self.cash(sym), f"{sym} closes")
        self.registry.remove(sym)
        self.grid.remove(sym)
        self.state.close_operator(sym)
        self.notes.append(f"{sym} closes: {why}")

    # ------------------------------------------------------------------ events
    def event(self, state, name: str, train=None) -> None:
        if name == "change_float":
            self.percent_to_operate += 10
        elif name == "no_more_escrow_corps":
            self.game_cap = "incremental"
        elif name == "no_more_incremental_corps":
            self.game_cap = "full"
        elif name == "nationalization":
            self.start_nationalization(state, train)
        else:
            super().event(state, name, train)

    # ------------------------------------------------------------------ the national
    def start_nationalization(self, state, train) -> None:
        buyer = train.owner if train is not None else None
        self.trigger = self.president(buyer) if buyer in self.corp_specs else None
        for sym in self.corp_specs:
            if sym == self.national or not self.is_floated(sym) or not self.loans[sym]:
                continue
            repaid = min(self.loans[sym], self.cash(sym) // self.loan_value)
            if repaid:
                self.pay(sym, BANK, repaid * self.loan_value, f"{sym} repays loans")
                self.loans[sym] -= repaid
        candidates = [
            s
            for s in self.live_corps()
            if s != self.national and self.is_floated(s) and self.loans[s] > 0
        ]
        seats = self._seats_from(self.trigger)
        order = self.or_order

        def key(s):
            pres = self.president(s)
            pos = order.index(s) if s in order else len(order)
            return (seats.index(pres) if pres in seats else len(seats), pos)

        self.nationalizables = sorted(candidates, key=key)

    def _seats_from(self, player) -> list:
        if player not in self.players:
            return list(self.players)
        i = self.players.index(player)
        return self.players[i:] + self.players[:i]

    def merge_major(self, state, major: str) -> None:
        if not self.nationalizables or major != self.nationalizables[0]:
            raise ReplayError(f"{major} is not the next corporation to nationalize")
        self.national_formed = True
        for card in state.trains_of(major):
            if not state.rusts_on(card):
                self.permanent = True
        self.pay(major, self.national, self.cash(major), f"{major} merges into {self.national}")
        self.loans[major] = 0
        for p, pct in self.registry.player_percents(major).items():
            self.pre_percent[p] = self.pre_percent.get(p, 0) + pct
        self.pre_market_percent += self.registry.percent(major, POOL)
        self.pre_prices[major] = self.price(major)
        self.nationalized.append(major)
        self.nationalizables.pop(0)
        self.post_corp_nationalization(state)

    def payoff_nationalizable(self, state, major: str) -> None:
        owed = self.loan_value * self.loans[major] - self.cash(major)
        self.pay(major, BANK, self.cash(major), f"{major} pays its loans")
        self.pay(self.president(major), BANK, owed, f"{major}'s president pays its loans")
        self.loans[major] = 0
        self.nationalizables.pop(0)
        self.post_corp_nationalization(state)

    def post_corp_nationalization(self, state) -> None:
        if self.nationalizables:
            return
        if not self.national_formed:
            self.notes.append(f"{self.national} does not form")
            return
        nat = self.national
        self.started.add(nat)
        self.floated.add(nat)
        row, col = self.grid.find(self.national_price(), row=0)
        self.grid.set_par(nat, row, col, check_par=False)
        self.national_share_swap()
        for major in self.nationalized:
            self.registry.remove(major)
            self.grid.remove(major)
        order = self.or_order
        current = self.turn.sym if self.turn else None
        idx = [order.index(m) for m in self.nationalized if m in order]
        if current in order and idx and order.index(current) < min(idx):
            order.insert(order.index(current) + 1, nat)
        self.post_nationalization = True

    def national_price(self) -> int:
        return national_price(list(self.pre_prices.values()))

    def national_share_swap(self) -> None:
        nat, reg = self.national, self.registry
        seats = self._seats_from(self.trigger)
        president, false_pres, market_count, left = national_awards(
            seats, self.pre_percent, self.pre_market_percent, 20
        )
        corp = reg.corp(nat)
        if left < 10:
            self._issue_national_shares()
        given = 1
        for p in seats:
            n = self.pre_percent.get(p, 0) // 20
            if n <= 0:
                continue
            if p == president:
                if false_pres:
                    raise ReplayError(
                        f"{nat}: a one-share presidency of the national is not replayed"
                    )
                reg.give([corp.certs[0].id], p)
                n -= 2
            while n > 0:
                if given == 20 - 1:
                    n = 0
                    break
                last = [c for c in corp.certs if c.holder == IPO][-1]
                reg.give([last.id], p)
                n -= 1
                given += 1
        if market_count:
            ipo = [c for c in corp.certs if c.holder == IPO]
            for c in ipo[-market_count:]:
                c.holder = POOL

    def _issue_national_shares(self) -> None:
        """``national_issue_shares!``: ten more shares; all are 5% (the president's 10%)."""
        nat = self.national
        corp = self.registry.corp(nat)
        for i, c in enumerate(corp.certs):
            c.percent = 10 if i == 0 else 5
        n = len(corp.certs)
        corp.certs += [Certificate(f"{nat}_{n + i}", nat, 5, False) for i in range(10)]
        corp.share_percent = 5

    # ------------------------------------------------------------------ end
    def share_value(self, player) -> int:
        """Certificates at the share price, less 10 per 10% for each unpaid loan."""
        total = super().share_value(player)
        for sym in self.corp_specs:
            for cert in self.registry.certs_of(player, sym):
                total -= cert.percent * self.loans.get(sym, 0)
        return total
