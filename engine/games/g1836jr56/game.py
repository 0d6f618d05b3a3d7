"""1836Jr-56 rules engine: a whole game from the private auction to the final scores.

1836Jr-56 is 1856 on the Low Countries map (seed ``../shared/seeds/1836jr-rules.txt``,
"1836Jr-56": everything it does not change follows 1856).  Facts the seed leaves to 1856 follow
tobymao/18xx @111f7f69 (MIT) ``lib/engine/game/g_1836_jr56/game.rb`` and ``g_1856/`` (cited per
rule in the mixins; read, never copied).  The game is 1836Jr-30's engine
(:class:`~engine.games.g1836jr30.game.Game1836Jr30`: the waterfall auction, the 1830 stock
round and market, the turn's track, tokens, trains and privates) with the 1856 parts:

- setup (``g_1836_jr56/game.rb``): F6000 in the bank, F450/300/225 to each of 2/3/4 players,
  certificate limit 20/13/10 (fixed: 1856's post-national limits do not apply), 1856's market;
  the optional rule ``diesel_variant`` replaces the 8-trains with diesels;
- :mod:`~engine.games.g1836jr56.game_stock`: capitalisation by phase, escrow, starting to
  operate, the national's 5% shares;
- :mod:`~engine.games.g1836jr56.game_ops`: the turn, destinations, borrowing, dividends,
  trains, the Régie des Postes;
- :mod:`~engine.games.g1836jr56.game_loans`: loans, interest, forced repayment, cash crises,
  bankruptcy, the final values;
- :mod:`~engine.games.g1836jr56.game_national`: the national (MESS) and its formation;
- train events (``data.TRAINS``): the last 2, 3, 4 and 5 raise the share needed to start by
  10% (``change_float``); the last 4 ends escrow, the last 5 incremental capitalisation for
  corporations parred later; the first 5 closes the privates; the first 6 removes the Régie
  token and calls the loans in (the national);
- a share price reaching a closing cell closes its corporation (``base.rb``
  ``close_corporation``: its cash to the bank, its shares, tokens and trains leave the game);
- game end (``GAME_END_CHECK``): a bankruptcy ends the game at once, a broken bank after the
  operating-round set; 18xx.games stops an unfinished game after turn 100 (``dnf``).

Simplifications are listed in docs/TITLE_DATA.md ("1836Jr-56 rules coverage").
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.errors import IllegalAction
from engine.game.ledger import Ledger
from engine.games import g1836jr56 as _package
from engine.games.g1836jr30.game import Game1836Jr30
from engine.games.g1836jr30.game_market import Market1830
from engine.games.g1836jr56 import data as _data
from engine.games.g1836jr56.game_loans import LoansMixin56
from engine.games.g1836jr56.game_national import NationalMixin56
from engine.games.g1836jr56.game_ops import OperatingMixin56
from engine.games.g1836jr56.game_stock import StockMixin56
from engine.model.record import ReplayError

__all__ = ["Game1836Jr56", "new_game"]


class Game1836Jr56(NationalMixin56, LoansMixin56, OperatingMixin56, StockMixin56, Game1836Jr30):
    """1836Jr-56 for 2-4 players (see the module docstring)."""

    TITLE = "1836Jr56"
    DEFINITION = _package.TITLE
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    GAME_END = {"bankrupt": "immediate", "bank": "full_or"}
    OPERATING_STAGES = OperatingMixin56.OPERATING_STAGES
    DETAIL_FIELDS = (*Game1836Jr30.DETAIL_FIELDS, "loan")
    #: The national (1856's CGR).
    NATIONAL = _data.NATIONAL

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        data, n = self.data, len(self.seats)
        unknown = set(self.options) - set(data.OPTIONAL_RULES)
        if unknown:
            raise ValueError(
                f"unknown 1836Jr-56 optional rule {sorted(unknown)[0]!r} "
                f"(known: {', '.join(data.OPTIONAL_RULES)})"
            )
        self.ledger = Ledger({BANK: int(data.BANK_CASH)}, {BANK}, keep_history=False)
        for p in self.seats:
            # a president may be left below zero by interest or a forced repayment (a cash
            # crisis); :meth:`pay` allows that only for those debts
            self.ledger.open(p, may_go_negative=True)
            self.pay(BANK, p, int(data.STARTING_CASH[n]), "starting cash")
        for sym in self.state.operators:
            self.ledger.open(sym)
        self.market = Market1830(data.MARKET)
        self.loose_certs: dict[str, str] = {}
        self.ability_used: set[str] = set()
        self.pending_tokens: list[tuple[str, str]] = []
        self.over_limit: set[str] = set()
        self.token_adjust: dict[str, int] = {}
        # capitalisation (game_stock)
        self.game_cap = "escrow"
        self.cap: dict[str, str] = {}
        self.escrow: dict[str, int | None] = {}
        self.destinated: set[str] = {self.NATIONAL}
        self.started: set[str] = set()
        self.percent_to_operate = int(data.START_PERCENT_TO_OPERATE)
        # loans (game_loans)
        self.loans: dict[str, int] = dict.fromkeys(self.state.operators, 0)
        self.took_loan: set[str] = set()
        self.redeemed: set[str] = set()
        self.paid_interest: set[str] = set()
        self.crisis_corp: str | None = None
        # the Régie des Postes token: (hex, corporation)
        self.post_token: tuple[str, str] | None = None
        # the national (game_national)
        self.post_nationalization = False
        self.national_formed = False
        self.national_permanent = False
        self.national_discarding = False
        self.nationalizables: list[str] = []
        self.nationalized: list[str] = []
        self.nat_trigger: str | None = None
        self.pre_percent: dict[str, int] = {}
        self.pre_market = 0
        self.pre_prices: list[int] = []
        self.nat_places: list[list[tuple[str, int]]] = []
        # the national's tokens waiting for its president's removals (game_national)
        self.nat_tokens: list[tuple[str, int]] = []
        self.nat_dups: list[str] = []
        self.nat_excess = 0
        self.nat_free_hexes: set[str] = set()
        # a one-share national president and the reserved half of his certificate
        self.false_president: str | None = None
        self.reserved_cert: str | None = None
        self.borrowed: str | None = None
        self.start_auction()

    # ------------------------------------------------------------------ money
    def pay(self, source: str, target: str, amount: int, reason: str = "", debt=False) -> None:
        """Move money; a player goes below zero only for a debt the rules put on him
        (``debt``: interest, a forced repayment, the national's presidency)."""
        if not debt and amount > 0 and source in self.seats and self.cash(source) < amount:
            raise IllegalAction(f"{source} has {self.cash(source)}, cannot pay {amount} ({reason})")
        super().pay(source, target, amount, reason)

    # ------------------------------------------------------------------ prices and closing
    def price_move(self, corp: str, direction: str, times: int = 1) -> None:
        """Move ``corp``'s price; the national does not move until it has owned a permanent
        train and never enters a closing cell; another corporation entering one closes."""
        if corp == self.NATIONAL and not self.national_permanent:
            return
        grid = self.market.grid
        for _ in range(times):
            target = grid.peek(corp, direction)
            if target is not None and target.close and corp == self.NATIONAL:
                return
            grid.move(corp, direction)
            if grid.current(corp).close:
                self.close_corporation(corp, "its share price reached a closing cell")
                return

    def close_corporation(self, corp: str, why: str) -> None:
        self.pay(corp, BANK, self.cash(corp), f"{corp} closes")
        self.shares.remove_corporation(corp)
        self.market.remove(corp)
        self.state.close_operator(corp)
        self.loans[corp] = 0
        self.escrow.pop(corp, None)
        self.over_limit.discard(corp)
        if corp in self.nationalizables:
            self.nationalizables.remove(corp)
        self.note(f"-- {corp} closes: {why} --")

    # ------------------------------------------------------------------ events
    def train_event(self, name: str, train) -> None:
        if name == "change_float":
            self.percent_to_operate += 10
            self.note(f"-- a corporation now needs {self.percent_to_operate}% sold to start --")
        elif name == "no_more_escrow_corps":
            self.game_cap = "incremental"
            self.note("-- corporations parred from now on are incremental --")
        elif name == "no_more_incremental_corps":
            self.game_cap = "full"
            self.note("-- corporations parred from now on are fully capitalised --")
        elif name == "remove_tokens":
            if self.post_token is not None:
                self.note(f"-- the {self.data.POST_COMPANY} token leaves {self.post_token[0]} --")
            self.post_token = None
        elif name == "nationalization":
            self.start_nationalization(train)
        else:
            super().train_event(name, train)

    def after_action(self, action: dict) -> None:
        if not self.finished:
            self.repay_after_trains()
        super().after_action(action)

    # ------------------------------------------------------------------ end
    def start_stock_round(self) -> None:
        super().start_stock_round()
        if self.frozen():
            # 18xx.games would play empty rounds up to its turn limit; nothing can change
            # in them, so the values are final now
            self.note("-- nothing operates, no private pays, nobody can trade: the game is over --")
            self.end_game("dnf")

    def frozen(self) -> bool:
        """At the start of a stock round: no corporation operates, no private pays, and no
        player can do anything but pass (so every later round is the same)."""
        if self.round.kind != "stock" or any(c in self.started for c in self.live_corporations()):
            return False
        if any(i["owner"] is not None and not i["closed"] for i in self.state.companies.values()):
            return False
        return not any(self._buys(p) or self._pars(p) or self._sales(p) for p in self.seats)

    def end_checks(self) -> dict[str, bool]:
        return {"bankrupt": bool(self.bankrupt), "bank": self.bank_broken}

    # ------------------------------------------------------------------ records
    def record_action(self, raw: dict, action: dict | None) -> dict | None:
        """:mod:`engine.games.records` hook: 18xx.games' own 1856 actions.

        ``destination_connection`` is the site's note of what the lay before it connected;
        the engine finds destinations itself, so it is checked, not applied; ``merge``
        names its corporation; ``remove_token`` names the city (``"57-0-0"``).

        Raises
        ------
        ReplayError
            The record's destinations differ from the engine's.
        """
        if action is None:
            return None
        if action["type"] == "destination_connection":
            missing = [c for c in raw.get("corporations") or [] if c not in self.destinated]
            if missing:
                raise ReplayError(f"the record connects {missing} to their destinations")
            return None
        if action["type"] == "merge":
            action["corporation"] = str(raw.get("corporation", action["entity"]))
        if action["type"] == "remove_token":
            action["hex"], action["city"] = self.state.resolve_city(str(raw.get("city")))
        return action

    def legal_key(self, action: dict) -> tuple:
        """A national's token removal is told apart by its hex and city."""
        if action.get("type") == "remove_token":
            return ("remove_token", action.get("entity"), action.get("hex"), action.get("city"))
        return super().legal_key(action)

    def explain_detail(self, action: dict) -> str | None:
        return (
            self.explain_false_president(action)
            or self.explain_loans(action)
            or self.explain_national(action)
            or super().explain_detail(action)
        )


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1836Jr56:
    """A new 1836Jr-56 game (see :class:`Game1836Jr56`)."""
    return Game1836Jr56(players, seed, options, actions)
