"""1836Jr-56 loans, interest, forced repayment, cash crises and bankruptcy.

Facts from tobymao/18xx @111f7f69 (MIT), read, not copied (1836Jr-56 keeps 1856's numbers:
``data.LOAN_VALUE``, ``data.LOAN_INTEREST``):

- ``g_1856/game.rb`` ``take_loan``/``can_take_loan?``/``maximum_loans``: a corporation may take
  one loan of 100 per operating round during its turn until its train step is over (90 once
  it paid interest that round), while it has fewer loans than players hold shares of it, not
  in a round in which it repaid one, not from phase 6 (``no_loans``) and never after the
  national formed; ``g_1856/step/loan.rb``: after the train step it may repay loans of 100
  from its treasury, one at a time;
- ``g_1856/round/operating.rb`` ``pay_interest!``: once the run is over (or skipped), 10 per
  loan, paid from the treasury in multiples of 10, the rest out of the run's revenue (the
  dividend is on what remains, ``g_1856/step/dividend.rb`` ``total_revenue``), the rest by the
  president, who may be left below zero; ``force_repay_loans!``: after the train step a
  corporation with more loans than players hold shares repays the excess at 100 each, the
  president covering what the treasury lacks;
- ``g_1856/step/cash_crisis.rb`` with ``step/emergency_money.rb``: a president below zero
  sells shares (no more than needed, not the president's certificate unless another player
  could take it, the market at most 50%, not swapping the presidency of the corporation in
  crisis or of the operating one) until his cash is back to zero or more;
- ``g_1856/step/bankrupt.rb`` and ``g_1856/game.rb`` ``can_go_bankrupt?``: when even selling
  everything would not cover the debt he goes bankrupt: every sellable share is sold, the
  bank takes his cash and forgives the rest, and the game ends at once
  (``BANKRUPTCY_ENDS_GAME_AFTER = :one``);
- ``g_1856/game.rb`` ``player_value``: at the end every share loses 10 per 10% for each loan
  its corporation still has.
"""

from __future__ import annotations

from engine.game.base import BANK

__all__ = ["LoansMixin56"]


class LoansMixin56:
    """Loans and cash crises of :class:`~engine.games.g1836jr56.game.Game1836Jr56`."""

    # ------------------------------------------------------------------ loans
    def max_loans(self, corp: str) -> int:
        """Shares players hold (``maximum_loans`` = ``num_player_shares``)."""
        return self.shares.player_percent(corp) // 10

    def can_take_loan(self, corp: str) -> bool:
        return (
            corp != self.NATIONAL
            and not self.post_nationalization
            and self.loans[corp] < self.max_loans(corp)
            and corp not in self.took_loan
            and corp not in self.redeemed
            and "no_loans" not in self.state.phase.get("status", ())
        )

    def loan_amount(self, corp: str) -> int:
        """100, or 90 once the corporation paid interest this round."""
        value = int(self.data.LOAN_VALUE)
        return value - (int(self.data.LOAN_INTEREST) if corp in self.paid_interest else 0)

    def interest_owed(self, corp: str) -> int:
        return 0 if self.post_nationalization else int(self.data.LOAN_INTEREST) * self.loans[corp]

    def operating_take_loan(self, action: dict) -> None:
        corp = action["entity"]
        amount = self.loan_amount(corp)
        self.pay(BANK, corp, amount, f"{corp} loan")
        self.loans[corp] += 1
        self.took_loan.add(corp)
        self.note(f"{corp} takes a loan and receives {amount} ({self.loans[corp]} loans)")

    def operating_payoff_loan(self, action: dict) -> None:
        corp = action["entity"]
        self.pay(corp, BANK, int(self.data.LOAN_VALUE), f"{corp} repays a loan")
        self.loans[corp] -= 1
        self.redeemed.add(corp)
        self.note(f"{corp} repays a loan ({self.loans[corp]} left)")

    def legal_loan(self, op: str) -> list[dict]:
        """The loan step after the trains: repay loans, or take one (``step/loan.rb``)."""
        if self.post_nationalization or op == self.NATIONAL:
            return []
        acts = []
        if self.loans[op] and self.cash(op) >= int(self.data.LOAN_VALUE):
            acts.append({"type": "payoff_loan", "entity": op})
        if self.can_take_loan(op):
            acts.append({"type": "take_loan", "entity": op, "price": self.loan_amount(op)})
        if acts:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    # ------------------------------------------------------------------ interest
    def pay_interest(self, op: str) -> None:
        """Interest once the run is over: treasury (multiples of 10), run, president."""
        if op in self.paid_interest:
            return
        self.paid_interest.add(op)
        owed = self.interest_owed(op)
        if owed <= 0:
            return
        cash = self.cash(op)
        payment = min(owed, cash - cash % 10)
        self.pay(op, BANK, payment, f"{op} interest")
        owed -= payment
        t = self.or_turn
        revenue = int(t.revenue or 0) if t is not None and t.op == op else 0
        cut = min(owed, revenue)
        if cut:
            t.flags["penalty"] = cut
            owed -= cut
        self.note(f"{op} pays interest: {payment} from its treasury, {cut} from its run")
        if owed > 0:
            self._president_owes(op, owed, "interest")

    def net_revenue(self, op: str) -> int:
        """The run less the interest taken out of it."""
        t = self.or_turn
        return int(t.revenue or 0) - int(t.flags.get("penalty", 0))

    def force_repay(self, op: str) -> None:
        """More loans than player shares: the excess is repaid at once."""
        excess = self.loans.get(op, 0) - self.max_loans(op)
        if excess <= 0 or op == self.NATIONAL:
            return
        owed = int(self.data.LOAN_VALUE) * excess
        self.loans[op] -= excess
        self.redeemed.add(op)
        payment = min(owed, self.cash(op))
        self.pay(op, BANK, payment, f"{op} repays {excess} loans")
        self.note(f"{op} must repay {excess} loans ({owed}); pays {payment}")
        if owed > payment:
            self._president_owes(op, owed - payment, "forced loan repayment")

    def _president_owes(self, corp: str, amount: int, why: str) -> None:
        pres = self.shares.president(corp)
        if pres is None:
            return  # nobody to pay: 18xx.games has no president-less corporation here
        self.pay(pres, BANK, amount, f"{corp} {why}", debt=True)
        self.crisis_corp = corp
        self.note(f"{pres} pays {amount} of {corp}'s {why}; cash now {self.cash(pres)}")

    # ------------------------------------------------------------------ emergency sales
    def _best_sales(self, player: str, op: str | None, protect=()) -> int:
        best: dict[str, int] = {}
        for a in self._sale_options(player, op, None, protect):
            best[a["corporation"]] = max(best.get(a["corporation"], 0), a["price"])
        return sum(best.values())

    def _liquidity(self, pres: str, op: str) -> int:
        return self.cash(pres) + self._best_sales(pres, op)

    # ------------------------------------------------------------------ cash crisis
    def crisis_player(self) -> str | None:
        """The first player (seat order) below zero."""
        for p in self.seats:
            if self.ledger.balances[p] < 0:
                return p
        return None

    def crisis_actions(self, player: str) -> list[dict]:
        op = self.or_turn.op if self.or_turn is not None else None
        protect = (self.crisis_corp,) if self.crisis_corp else ()
        need = -self.cash(player)
        acts = self._sale_options(player, op, need, protect)
        if self.cash(player) + self._best_sales(player, op, protect) < 0:
            acts.append({"type": "bankrupt", "entity": player})
        return acts

    def operating_sell_shares(self, action: dict) -> None:
        p = action["entity"]
        if self.cash(p) >= 0:
            return super().operating_sell_shares(action)
        self.sell_shares(p, action["corporation"], int(action["percent"]))
        self._recalculate_order()
        if self.crisis_player() is None:
            self.crisis_corp = None

    def operating_bankrupt(self, action: dict) -> None:
        ent = action["entity"]
        if ent not in self.seats:
            return super().operating_bankrupt(action)  # short of the cheapest train
        op = self.or_turn.op if self.or_turn is not None else None
        protect = (self.crisis_corp,) if self.crisis_corp else ()
        self.note(f"-- {ent} goes bankrupt --")
        while True:
            sales = self._sale_options(ent, op, None, protect)
            if not sales:
                break
            best = max(sales, key=lambda a: (a["price"], a["corporation"]))
            self.sell_shares(ent, best["corporation"], best["percent"])
        cash = self.cash(ent)
        if cash < 0:
            self.pay(BANK, ent, -cash, f"{ent}'s debt is written off")
        else:
            self.pay(ent, BANK, cash, f"{ent} is bankrupt")
        self.crisis_corp = None
        self.bankrupt.append(ent)
        # 18xx.games repays excess loans after every action once the train step is over,
        # the bankruptcy's sales included (the president is charged again; issue 2707)
        self.repay_after_trains()
        self.check_game_end()

    def repay_after_trains(self) -> None:
        """Forced repayment when the operator's train step is over (after every action)."""
        t = self.or_turn
        if self.round.kind != "operating" or t is None or "train" not in t.stages:
            return
        if t.index > t.stages.index("train") and not self.state.operators[t.op].closed:
            self.force_repay(t.op)

    # ------------------------------------------------------------------ values
    def player_value(self, player: str) -> int:
        """Cash, shares at the market price less 10 per 10% for each loan of their
        corporation, open privates at face value."""
        value = self.cash(player)
        for corp in self.shares.corporations():
            pct = self.shares.percent(corp, player)
            if pct:
                value += self.value_of(corp, pct) - pct * self.loans.get(corp, 0)
        for info in self.state.companies.values():
            if info["owner"] == player and not info["closed"]:
                value += int(info["spec"].get("value", 0))
        return value

    def explain_loans(self, action: dict) -> str | None:
        kind, corp = action.get("type"), action.get("entity")
        if kind not in ("take_loan", "payoff_loan") or corp not in self.loans:
            return None
        if kind == "take_loan":
            if corp == self.NATIONAL or self.post_nationalization:
                return "no loans once the national has formed"
            if "no_loans" in self.state.phase.get("status", ()):
                return f"no loans in phase {self.state.phase_name}"
            if self.loans[corp] >= self.max_loans(corp):
                return (
                    f"{corp} has {self.loans[corp]} loans; players hold "
                    f"{self.max_loans(corp)} shares, the most it may have"
                )
            if corp in self.took_loan or corp in self.redeemed:
                return "one loan per operating round, and none after repaying one"
            return "loans are taken during the corporation's turn, before its train step ends"
        if not self.loans[corp]:
            return f"{corp} has no loan"
        if self.cash(corp) < int(self.data.LOAN_VALUE):
            return f"{corp} has {self.cash(corp)}, less than a loan's 100"
        return "loans are repaid after the train step"
