"""Money, shares and the stock market of an 1836Jr-30 game (1830 rules), replayed.

:class:`Finance1830` follows an 18xx.games action log and books every cash movement in a
:class:`~engine.game.ledger.Ledger` (bank, players, corporations), so that a replayed record ends
with each player's value and the game-end reason.  It is driven by the title rules of
:mod:`engine.replay_titles` (``before``/``after`` each action, ``run`` for a run's revenue,
``event`` for train events) and reads the board state (tiles, tokens, trains, phases) from
:class:`~engine.game.state.GameState`.  :mod:`engine.money_1856` extends it for 1836Jr-56.

Rule facts follow tobymao/18xx @111f7f69 (MIT), which is also the oracle the records were
played with; every rule names its source file:

- setup: ``game/base.rb`` ``init_bank``/``init_starting_cash`` (the bank pays each player's
  starting cash out of ``BANK_CASH``);
- private auction: :mod:`engine.private_auction` (``step/waterfall_auction.rb``); a private
  with a president's certificate makes its buyer set the par price and receive it free
  (``step/company_pending_par.rb``);
- shares: ``step/buy_sell_par_shares.rb``, ``share_pool.rb`` (a share from the IPO costs the
  par price, from the market the share price; the money goes to the bank; a sale pays the
  share price and moves the price down one row per share, ``SELL_MOVEMENT = :down_share``);
  a corporation floats with 60% sold and then receives ten times its par price
  (``corporation.rb`` ``floated?``, ``base.rb`` ``float_corporation``);
- end of a stock round: a sold-out corporation (players hold 100%) moves up
  (``round/stock.rb`` ``finish_round``);
- operating rounds: privates pay their revenue at the start of each (``round/operating.rb``
  ``setup``, ``base.rb`` ``payout_companies``); ``phase.operating_rounds`` at the end of the
  stock round sets how many follow (``base.rb`` ``next_round!``); the operating order is by
  share price (``market_grid``);
- a turn: terrain costs (``step/tracker.rb`` ``lay_tile``: the printed upgrade cost of the
  replaced tile, nothing for a free private lay), station tokens at the price of the first
  unused token of the charter (``step/tokener.rb``), dividends (``step/dividend.rb``: the
  revenue split per share and rounded up per holder, market shares pay the corporation, IPO
  shares pay nobody; paying moves right, withholding or earning nothing moves left), trains
  (``step/train.rb``: the price goes to the bank or the selling corporation; a president pays
  what the treasury lacks), privates bought by corporations (``step/buy_company.rb``);
- bankruptcy: ``step/bankrupt.rb`` (the president sells what the emergency rules let him,
  then his cash goes to the bank) ends the game at once; a broken bank ends it after the
  operating-round set (``base.rb`` ``GAME_END_CHECK``, ``bank.rb`` ``check_cash``);
- a player's value: cash, plus each certificate at the share price, plus privates at face
  value (``player.rb`` ``value``).

What the log does not say is inferred: a stock round ends when a corporation acts, a new
operating round when a corporation acts again, and a player's sale in an operating round is
an emergency sale when the operator's train purchase or a bankruptcy follows it.  Turns with
nothing to decide (18xx.games runs them without an action) are played in operating order:
they withhold nothing and move the price left.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from engine.game.ledger import InsufficientCash, Ledger
from engine.game.market import IPO, POOL, ShareRegistry, StockGrid, parse_price_id
from engine.model.record import ReplayError
from engine.private_auction import WaterfallAuction

__all__ = ["Finance1830", "BANK", "Company"]

#: The bank's ledger account.
BANK = "bank"


@dataclass
class Company:
    """A private company: face value, revenue, owner (player id or corporation)."""

    sym: str
    value: int
    revenue: int
    spec: dict
    owner: Any = None
    closed: bool = False


@dataclass
class _Turn:
    """One corporation's turn in an operating round."""

    sym: str
    revenue: int | None = None
    ran: bool = False
    dividend_done: bool = False
    extra: dict = field(default_factory=dict)


class Finance1830:
    """The financial side of an 1836Jr-30 (1830 rules) game.

    Parameters
    ----------
    state : GameState
        The replay's board state (players, title data, phases, trains, tokens).

    Raises
    ------
    ReplayError
        The title data lacks a money fact (bank, starting cash, market).
    """

    def __init__(self, state) -> None:
        data = state.data
        self.state = state
        # corporation.rb: a 20% president's certificate and eight 10% shares, 60% to float;
        # base.rb: at most 50% in the market (1836Jr keeps 1830's numbers)
        self.shares = list(getattr(data, "SHARES", [20] + [10] * 8))
        self.float_percent = int(getattr(data, "FLOAT_PERCENT", 60))
        self.market_share_limit = int(getattr(data, "MARKET_SHARE_LIMIT", 50))
        self.players = list(state.players)
        n = len(self.players)
        for name in ("BANK_CASH", "STARTING_CASH", "MARKET", "CORPORATIONS", "COMPANIES"):
            if not hasattr(data, name):
                raise ReplayError(f"title data {data.TITLE} has no {name} for the money replay")
        if n not in data.STARTING_CASH:
            raise ReplayError(f"{data.TITLE}: no starting cash for {n} players")
        self.ledger = Ledger({BANK: int(data.BANK_CASH)}, may_go_negative={BANK})
        corp_syms = [c["sym"] for c in data.CORPORATIONS]
        clash = set(map(str, self.players)) & ({BANK} | set(corp_syms))
        if clash:
            raise ReplayError(f"player id {sorted(clash)[0]!r} clashes with a money account")
        for p in self.players:
            self.ledger.open(p, 0, may_go_negative=self.players_may_go_negative)
            self.pay(BANK, p, int(data.STARTING_CASH[n]), "starting cash")
        self.grid = StockGrid(data.MARKET)
        self.registry = ShareRegistry(self.players)
        self.corp_specs = {c["sym"]: c for c in data.CORPORATIONS}
        for sym in corp_syms:
            self.ledger.open(sym, 0)
            self.registry.add(sym, self.share_percents(sym))
        self.companies = {
            c["sym"]: Company(c["sym"], int(c["value"]), int(c["revenue"]), c)
            for c in data.COMPANIES
        }
        self.auction: WaterfallAuction | None = WaterfallAuction(self, list(self.companies))
        self.mode = "auction"
        self.floated: set[str] = set()
        self.bank_broken = False
        self.bankrupt: list[Hashable] = []
        self.finished = False
        self.or_num = 0
        self.or_count = 0
        self.or_order: list[str] = []
        self.or_done: set[str] = set()
        self.turn: _Turn | None = None
        self.tokens_at: dict[str, list[str | None]] = {}  # corp -> hex per charter token
        self.notes: list[str] = []

    players_may_go_negative = False

    # ------------------------------------------------------------------ helpers
    def share_percents(self, sym: str) -> list[int]:
        return list(self.shares)

    def pay(self, source: Hashable, target: Hashable, amount: int, reason: str = "") -> None:
        """Move money through the ledger; a bank payment below zero breaks the bank."""
        amount = int(amount)
        if amount == 0:
            return
        if amount < 0:
            source, target, amount = target, source, -amount
        try:
            self.ledger.pay(source, target, amount, reason)
        except InsufficientCash as exc:
            raise ReplayError(f"money: {exc}") from None
        if source == BANK and self.ledger.cash(BANK) < 0 and not self.bank_broken:
            self.bank_broken = True
            self.notes.append(f"the bank breaks ({reason})")

    def cash(self, holder: Hashable) -> int:
        return self.ledger.cash(holder)

    def price(self, sym: str) -> int:
        return self.grid.price(sym)

    def cert_value(self, cert, owner: Hashable) -> int:
        """What one certificate is worth to ``owner`` (``share.rb`` ``price``)."""
        sym = cert.corp
        corp = self.registry.corp(sym)
        per = self.grid.par_price(sym) if owner == IPO else self.price(sym)
        return -(-per * cert.percent // corp.share_percent)

    def bundle_price(self, sym: str, holder: Hashable, percent: int) -> int:
        corp = self.registry.corp(sym)
        per = self.grid.par_price(sym) if holder == IPO else self.price(sym)
        return -(-per * percent // corp.share_percent)

    def president(self, sym: str) -> Hashable | None:
        return self.registry.president(sym)

    def live_corps(self) -> list[str]:
        return [s for s in self.corp_specs if not self.state.operators[s].closed]

    def payout_companies(self, reason: str = "operating round") -> None:
        """Privates pay their revenue to their owners (``base.rb`` ``payout_companies``)."""
        for c in self.companies.values():
            if c.owner is not None and not c.closed and c.revenue:
                self.pay(BANK, c.owner, c.revenue, f"{c.sym} revenue ({reason})")

    def close_company(self, sym: str) -> None:
        self.companies[sym].closed = True

    # ------------------------------------------------------------------ driving hooks
    def before(self, state, action: dict) -> None:
        """Book the money of ``action`` (called before the board applies it)."""
        kind = action["type"]
        if self.finished or kind in ("message", "undo", "redo"):
            return
        self._round_for(state, action)
        self._pre_handle(state, action)
        handler = getattr(self, f"_do_{kind}", None)
        if handler is not None:
            handler(state, action)

    def after(self, state, action: dict) -> None:
        """Consequences once the board applied ``action``; then its automatic actions."""
        if self.finished:
            return
        kind = action["type"]
        post = getattr(self, f"_after_{kind}", None)
        if post is not None:
            post(state, action)
        self.ledger.check_conserved()
        if self.ending is not None:
            # base.rb process_single_action: the round's own after-action work is done
            # before the game-end check ends the game
            self.finished, self.end_reason = True, self.ending
            return
        for auto in action.get("auto_actions") or []:
            self.before(state, auto)
            self.after(state, auto)

    def _pre_handle(self, state, action: dict) -> None:
        """Title hook: bookkeeping of the turn's steps before an action is booked."""

    def run(self, state, sym: str, revenue: int | None) -> None:
        """A ``run_routes`` of ``sym`` earned ``revenue``."""
        turn = self.turn
        if turn is None or turn.sym != sym:
            raise ReplayError(f"{sym} runs outside its operating turn")
        turn.revenue = revenue
        turn.ran = True

    # ------------------------------------------------------------------ rounds
    def _round_for(self, state, action: dict) -> None:
        kind, etype, ent = action["type"], action.get("entity_type"), action.get("entity")
        if kind.startswith("program_"):
            return
        if etype in ("corporation", "minor"):
            self._operating(state, action, ent)
        elif etype == "company":
            if kind in ("lay_tile", "place_token", "assign"):
                owner = self.companies[ent].owner if ent in self.companies else None
                if owner in self.corp_specs:
                    self._operating(state, action, owner)
        elif etype == "player":
            if self.mode == "auction":
                if self.auction is not None and self.auction.done:
                    self._start_stock()
            elif self.mode == "operating" and not self._operating_player_action(state, action):
                self._end_or_set(state)
                self._start_stock()

    def _operating_player_action(self, state, action: dict) -> bool:
        """Is a player's action in an operating round part of the operator's turn (an
        emergency sale before a train purchase or a bankruptcy)?"""
        if action["type"] != "sell_shares" or self.turn is None:
            return action["type"] == "bankrupt"
        for a in state.actions[state.index + 1 :]:
            if a.get("entity_type") == "player" and a["type"] == "sell_shares":
                continue
            return a.get("entity") == self.turn.sym or a["type"] == "bankrupt"
        return True

    def _start_stock(self) -> None:
        self.mode = "stock"

    def _finish_stock(self, state) -> None:
        """Sold-out corporations rise (``round/stock.rb`` ``finish_round``)."""
        for sym in self.grid.operating_order(self._sr_movers()):
            if self.sold_out(sym):
                self.price_move(sym, "up")

    def _sr_movers(self) -> list[str]:
        return [s for s in self.floated if self.grid.has_price(s) and s in self.live_corps()]

    def sold_out(self, sym: str) -> bool:
        return sum(self.registry.player_percents(sym).values()) == 100

    def _operating(self, state, action: dict, sym: str) -> None:
        if self.mode != "operating":
            if self.mode == "auction" and self.auction is not None and not self.auction.done:
                raise ReplayError(f"{sym} operates before the private auction ended")
            if self.mode == "stock":
                self._finish_stock(state)
            self.mode = "operating"
            self.or_count = int(state.phase.get("operating_rounds", 1))
            self.or_num = 0
            self._start_or(state)
        if action["type"] in self.not_a_turn:
            return
        if self.turn is not None and self.turn.sym == sym:
            return
        self._end_turn(state)
        if sym in self.or_done or sym not in self.or_order:
            self._invisible_turns(state, before=None)
            if self.or_num >= self.or_count:
                raise ReplayError(
                    f"{sym} operates again after the last operating round of the set "
                    f"({self.or_count})"
                )
            self._start_or(state)
            if sym not in self.or_order:
                raise ReplayError(f"{sym} is not in the operating order {self.or_order}")
        self._invisible_turns(state, before=sym)
        self._begin_turn(state, sym)

    #: Corporation actions that happen outside a corporation's own turn (a discard forced by
    #: another corporation's purchase, ``step/discard_train.rb``).
    not_a_turn: frozenset[str] = frozenset({"discard_train"})

    def operating_order(self) -> list[str]:
        return self.grid.operating_order(s for s in self.floated if s in self.live_corps())

    def _start_or(self, state) -> None:
        self.or_num += 1
        self.payout_companies(f"operating round {self.or_num}")
        self.or_order = self.operating_order()
        self.or_done = set()

    def _invisible_turns(self, state, before: str | None) -> None:
        """Turns 18xx.games runs without a recorded action (nothing to decide)."""
        for sym in list(self.or_order):
            if sym == before:
                return
            if sym in self.or_done or self.state.operators[sym].closed:
                continue
            self._begin_turn(state, sym)
            self._end_turn(state)

    def _begin_turn(self, state, sym: str) -> None:
        self.turn = _Turn(sym)
        self.or_done.add(sym)
        if state.operators[sym].home_placed:
            self.place_home(state, sym)

    def _end_turn(self, state) -> None:
        turn = self.turn
        if turn is None:
            return
        self._skip_dividend(state)
        self.turn = None

    def _end_or_set(self, state) -> None:
        """The stock round starts: the rest of the operating rounds pass without actions."""
        self._end_turn(state)
        self._invisible_turns(state, before=None)
        while self.or_num < self.or_count:
            self._start_or(state)
            self._invisible_turns(state, before=None)

    def _recalculate_order(self) -> None:
        """``round/operating.rb`` ``recalculate_order``: the corporations still to operate
        are sorted again (after emergency sales moved prices)."""
        if self.turn is None or self.turn.sym not in self.or_order:
            return
        i = self.or_order.index(self.turn.sym)
        rest = [s for s in self.or_order[i + 1 :] if self.grid.has_price(s)]
        self.or_order = self.or_order[: i + 1] + self.grid.operating_order(rest)

    # ------------------------------------------------------------------ auction actions
    def _do_bid(self, state, action: dict) -> None:
        if self.mode != "auction" or self.auction is None:
            raise ReplayError("a bid outside the private auction")
        self.auction.bid(action["entity"], action["company"], int(action["price"]))

    def _do_pass(self, state, action: dict) -> None:
        auction = self.auction
        by_player = action.get("entity_type") == "player"
        if self.mode == "auction" and by_player and auction is not None and not auction.done:
            i = self.players.index(action["entity"])
            nxt = self.players[(i + 1) % len(self.players)]
            auction.pass_(action["entity"], nxt)

    # ------------------------------------------------------------------ share actions
    def _do_par(self, state, action: dict) -> None:
        sym, player = action["corporation"], action["entity"]
        _, row, col = parse_price_id(action["share_price"])
        pres = self.registry.corp(sym).certs[0]
        if self.mode == "auction" and self.auction is not None and sym in self.auction.pending_par:
            self.grid.set_par(sym, row, col)
            self.registry.give([pres.id], player)  # the private's president's certificate
            self.auction.pending_par.remove(sym)
            self.after_par(sym)
            return
        if self.mode == "auction":
            self._start_stock()
        self.grid.set_par(sym, row, col)
        self.before_par(sym)
        self.buy_certs(player, [pres.id], IPO)
        self.after_par(sym)

    def before_par(self, sym: str) -> None:
        """Title hook: capitalization chosen at par (1856)."""

    def after_par(self, sym: str) -> None:
        self.check_float(sym)

    def _do_buy_shares(self, state, action: dict) -> None:
        ent, certs = action["entity"], list(action.get("shares") or [])
        if not certs:
            raise ReplayError("buy_shares without shares")
        if action.get("entity_type") == "company":
            self._exchange(ent, certs)
            return
        holder = self.registry.cert(certs[0]).holder
        self.buy_certs(ent, certs, holder, action.get("percent"))

    def _exchange(self, company: str, certs: list[str]) -> None:
        """A private exchanged for a share (``step/exchange.rb``): free; the private closes."""
        c = self.companies[company]
        if c.owner not in self.players:
            raise ReplayError(f"{company} is not a player's to exchange")
        self.registry.give(certs, c.owner)
        self.close_company(company)
        self.check_float(self.registry.cert(certs[0]).corp)

    def buy_certs(self, buyer, certs: list[str], source, percent: int | None = None) -> None:
        """``buyer`` buys certificates from ``source`` (IPO, pool or a player)."""
        sym = self.registry.cert(certs[0]).corp
        total = sum(self.registry.cert(c).percent for c in certs)
        price = self.bundle_price(sym, source, int(percent or total))
        self.pay_for_shares(buyer, sym, source, price)
        self.registry.give(certs, buyer)
        self.check_float(sym)

    def pay_for_shares(self, buyer, sym: str, source, price: int) -> None:
        """Where the money for shares goes: the bank for IPO and market shares (1830)."""
        target = source if source in self.players else BANK
        self.pay(buyer, target, price, f"shares of {sym}")

    def check_float(self, sym: str) -> None:
        """60% sold: the corporation floats and receives ten times its par price."""
        if sym in self.floated or not self.grid.has_price(sym):
            return
        if self.registry.percent(sym, IPO) <= 100 - self.float_percent:
            self.floated.add(sym)
            total = self.registry.total_shares(sym)
            self.pay(BANK, sym, self.grid.par_price(sym) * total, f"{sym} floats")

    def _do_sell_shares(self, state, action: dict) -> None:
        ent, certs = action["entity"], list(action.get("shares") or [])
        if not certs:
            raise ReplayError("sell_shares without shares")
        total = sum(self.registry.cert(c).percent for c in certs)
        percent = int(action.get("percent") or total)
        if self.mode == "operating":
            self._sale_in_turn(state)
        self.sell(ent, certs, percent)
        if self.mode == "operating":
            self._recalculate_order()

    def _sale_in_turn(self, state) -> None:
        """An emergency sale comes in the train step, after the dividend step."""
        self._skip_dividend(state)

    def sell(self, seller, certs: list[str], percent: int) -> None:
        """``base.rb`` ``sell_shares_and_change_price``: paid at the current price, then the
        price drops."""
        sym = self.registry.cert(certs[0]).corp
        price = self.bundle_price(sym, seller, percent)
        self.pay(BANK, seller, price, f"sale of {percent}% of {sym}")
        self.registry.give(certs, POOL, percent)
        self.sale_drop(sym, percent)

    def sale_drop(self, sym: str, percent: int) -> None:
        """``SELL_MOVEMENT = :down_share``: one row down per share sold."""
        shares = -(-percent // self.registry.corp(sym).share_percent)
        self.price_move(sym, "down", shares)

    # ------------------------------------------------------------------ operating actions
    def _do_lay_tile(self, state, action: dict) -> None:
        hex_ = action["hex"]
        ent = action["entity"]
        spender = ent
        free = False
        if action.get("entity_type") == "company":
            spender = self.companies[ent].owner
            for ab in self.companies[ent].spec.get("abilities", []) or []:
                if ab.get("type") in ("tile_lay", "teleport") and ab.get("free"):
                    free = True
        self._lift_tokens(state, hex_, action["tile"])
        if free:
            return
        cost = state.board.placed(hex_).tile.upgrade_cost
        self.pay(spender, BANK, cost, f"terrain on {hex_}")

    def _lift_tokens(self, state, hex_: str, tile_id: str) -> None:
        """Tokens lifted from a trackless multi-city hex become unused charter tokens."""
        old = state.board.placed(hex_).tile
        if old.paths or len(old.cities) < 2:
            return
        for places in self.tokens_at.values():
            for i, where in enumerate(places):
                if where == hex_:
                    places[i] = None

    def token_price(self, state, sym: str, action: dict) -> tuple[int, int]:
        """(charter index, price) of the token ``sym`` places now."""
        prices = list(self.corp_specs[sym].get("tokens", []))
        places = self.tokens_at.setdefault(sym, [None] * len(prices))
        if "token" in action and action["token"] is not None:
            index = int(action["token"])
        else:
            free = [i for i, w in enumerate(places) if w is None]
            if not free:
                raise ReplayError(f"{sym} has no token left to place")
            index = free[0]
        if not 0 <= index < len(prices):
            raise ReplayError(f"{sym} has no token {index}")
        return index, int(prices[index])

    def place_home(self, state, sym: str) -> None:
        """The home token takes charter token 0."""
        count = len(self.corp_specs[sym].get("tokens", []))
        places = self.tokens_at.setdefault(sym, [None] * count)
        op = state.operators[sym]
        if places and places[0] is None and op.home:
            places[0] = op.home[0]

    def _do_place_token(self, state, action: dict) -> None:
        ent = action["entity"]
        if action.get("entity_type") == "company":
            # a private's teleport gives the corporation an extra token at no cost
            # (step/tokener.rb adjust_token_price_ability!): the charter is untouched
            return
        sym = action.get("tokener") or ent
        hex_, _city = state.resolve_city(action["city"])
        op = state.operators[sym]
        index, price = self.token_price(state, sym, action)
        if op.home and hex_ == op.home[0] and not self._home_used(sym):
            index, price = 0, 0
        self.tokens_at[sym][index] = hex_
        self.pay(sym, BANK, price, f"{sym} token in {hex_}")

    def _home_used(self, sym: str) -> bool:
        places = self.tokens_at.get(sym) or []
        return bool(places) and places[0] is not None

    def _do_buy_train(self, state, action: dict) -> None:
        sym = action["entity"]
        card = state.trains.get(action["train"])
        if card is None:
            raise ReplayError(f"unknown train {action['train']!r}")
        price = int(action["price"])
        self._skip_dividend(state)
        self.president_contributes(sym, price)
        seller = card.owner if card.owner in self.corp_specs else BANK
        self.pay(sym, seller, price, f"train {card.id}")
        self.train_bought(state, sym, card)

    def president_contributes(self, sym: str, price: int) -> None:
        """``step/train.rb`` ``buy_train_action``: the president pays what the treasury lacks."""
        short = price - self.cash(sym)
        if short > 0:
            pres = self.president(sym)
            if pres is None:
                raise ReplayError(f"{sym} lacks {short} for a train and has no president")
            self.pay(pres, sym, short, f"president's contribution to {sym}'s train")

    def train_bought(self, state, sym: str, card) -> None:
        """Privates that close when a corporation buys a train (``close`` when
        ``bought_train``)."""
        for c in self.companies.values():
            for ab in c.spec.get("abilities", []) or []:
                if (
                    ab.get("type") == "close"
                    and ab.get("when") == "bought_train"
                    and ab.get("corporation") == sym
                ):
                    self.close_company(c.sym)

    def _do_buy_company(self, state, action: dict) -> None:
        sym, company, price = action["entity"], action["company"], int(action["price"])
        c = self.companies.get(company)
        if c is None:
            raise ReplayError(f"unknown private {company!r}")
        seller = c.owner if c.owner is not None else BANK
        self.pay(sym, seller, price, f"{company} bought by {sym}")
        c.owner = sym

    def _do_dividend(self, state, action: dict) -> None:
        turn = self.turn
        sym = action["entity"]
        if turn is None or turn.sym != sym:
            raise ReplayError(f"{sym} pays a dividend outside its turn")
        if turn.revenue is None:
            raise ReplayError(f"{sym}'s revenue is unknown (its routes did not validate)")
        self.dividend(sym, action.get("kind", "withhold"), self.dividend_revenue(turn))
        turn.dividend_done = True

    def dividend_revenue(self, turn: _Turn) -> int:
        return int(turn.revenue or 0)

    def _after_run_routes(self, state, action: dict) -> None:
        turn = self.turn
        if turn is not None and turn.ran and not self.dividend_available(turn):
            self._skip_dividend(state)

    def dividend_available(self, turn: _Turn) -> bool:
        """``step/dividend.rb`` ``actions``: a dividend is chosen only for some revenue."""
        return bool(turn.revenue)

    def _skip_dividend(self, state) -> None:
        """No dividend choice: 18xx.games withholds nothing (``step/dividend.rb`` ``skip!``),
        which moves the price left."""
        turn = self.turn
        if turn is None or turn.dividend_done:
            return
        turn.dividend_done = True
        self.dividend(turn.sym, "withhold", self.dividend_revenue(turn) if turn.ran else 0)

    def dividend(self, sym: str, kind: str, revenue: int) -> None:
        """Pay out or withhold ``revenue`` and move the price (``step/dividend.rb``)."""
        if kind == "payout":
            total = self.registry.total_shares(sym)
            corp = self.registry.corp(sym)
            paid = set()
            for cert in corp.certs:
                holder = cert.holder
                if holder in paid or holder is None:
                    continue
                paid.add(holder)
                shares = self.registry.percent(sym, holder)
                amount = -(-shares * revenue // (corp.share_percent * total))
                target = self.dividend_receiver(sym, holder)
                if target is not None:
                    self.pay(BANK, target, amount, f"{sym} dividend")
            self.price_move(sym, "right" if revenue > 0 else "left")
        elif kind == "withhold":
            self.pay(BANK, sym, revenue, f"{sym} withholds")
            self.price_move(sym, "left")
        else:
            raise ReplayError(f"unknown dividend kind {kind!r}")

    def dividend_receiver(self, sym: str, holder) -> Hashable | None:
        """Market shares pay the corporation; IPO shares pay nobody (``holder_for_corporation``)."""
        if holder == POOL:
            return sym
        if holder == IPO:
            return None
        return holder

    def price_move(self, sym: str, direction: str, times: int = 1) -> None:
        """Move ``sym``'s price (titles may forbid or follow up a move)."""
        self.grid.move(sym, direction, times)

    # ------------------------------------------------------------------ bankruptcy
    def _do_bankrupt(self, state, action: dict) -> None:
        sym = action["entity"]
        self._skip_dividend(state)
        player = self.president(sym)
        if player is None:
            raise ReplayError(f"{sym} goes bankrupt without a president")
        self.sell_everything(player, current=sym, needed=self.cheapest_train(state))
        self.pay(player, BANK, self.cash(player), f"{player} is bankrupt")
        self.bankrupt.append(player)
        self.finish(state, "bankrupt")

    def cheapest_train(self, state) -> int:
        prices = [int(state.train_spec(t).get("price", 0)) for t in state.depot_trains()]
        return min(prices, default=0)

    def sell_everything(self, player, current: str | None, needed: int) -> None:
        """Sell the biggest sellable bundle of each company until none is left
        (``step/bankrupt.rb`` ``sell_bankrupt_shares`` under ``step/emergency_money.rb``)."""
        for sym in self.grid.operating_order(
            s for s in self.corp_specs if self.grid.has_price(s) and s in self.live_corps()
        ):
            while True:
                bundle = self.best_bundle(player, sym, current, needed)
                if bundle is None:
                    break
                certs, percent = bundle
                self.sell(player, certs, percent)

    def bundles(self, player, sym: str) -> list[tuple[list[str], int]]:
        """``base.rb`` ``all_bundles_for_corporation``: growing bundles, president's last,
        plus the president's certificate sold in part."""
        mine = sorted(self.registry.certs_of(player, sym), key=lambda c: (c.president, c.percent))
        out, ids, pct = [], [], 0
        for c in mine:
            ids.append(c.id)
            pct += c.percent
            out.append((list(ids), pct))
        if mine and mine[-1].president:
            step = self.registry.corp(sym).share_percent
            extra = (mine[-1].percent - step) // step
            out += [(list(ids), pct - step * k) for k in range(1, extra + 1)]
        return out

    def best_bundle(self, player, sym, current, needed) -> tuple[list[str], int] | None:
        best = None
        for certs, percent in self.bundles(player, sym):
            if not self.can_sell(player, sym, certs, percent, current, needed):
                continue
            price = self.bundle_price(sym, player, percent)
            if best is None or price > best[0]:
                best = (price, certs, percent)
        return None if best is None else (best[1], best[2])

    def can_sell(self, player, sym, certs, percent, current, needed) -> bool:
        reg = self.registry
        held = reg.player_percents(sym)
        pres = reg.corp(sym).certs[0]
        others = max((v for p, v in held.items() if p != player), default=0)
        if pres.id in certs and others < pres.percent:
            return False  # share_bundle.rb can_dump?
        if reg.percent(sym, POOL) + percent > self.market_share_limit:
            return False
        if sym == current and reg.president(sym) == player and held[player] - percent < others:
            return False  # no presidency swap in the operating company
        step_price = min(self.cert_value(reg.cert(c), player) for c in certs)
        need = needed - self.cash(player) - (self.cash(current) if current else 0)
        return self.bundle_price(sym, player, percent) - step_price < need

    # ------------------------------------------------------------------ events and end
    def event(self, state, name: str, train=None) -> None:
        """A train event (``close_companies``: every private closes)."""
        if name == "close_companies":
            for c in self.companies.values():
                c.closed = True

    def finish(self, state, reason: str) -> None:
        """The game ends once the current action is done (``end_game!``)."""
        self.ending = reason

    ending: str | None = None

    def finalize(self, state) -> None:
        """After the last action: the rest of the round runs without actions."""
        if self.finished:
            return
        if self.mode == "operating":
            self._end_turn(state)
            self._invisible_turns(state, before=None)
        self.finished = True
        self.end_reason = "bank" if self.bank_broken else None

    end_reason: str | None = None

    def player_value(self, player) -> int:
        """``player.rb`` ``value``: cash, certificates at the share price, privates at face
        value."""
        total = self.cash(player) + self.share_value(player)
        for c in self.companies.values():
            if c.owner == player and not c.closed:
                total += c.value
        return total

    def values(self) -> dict[Hashable, int]:
        return {p: self.player_value(p) for p in self.players}

    def share_value(self, player) -> int:
        """Certificates at the share price (minus any end-of-game deduction)."""
        total = 0
        for sym in self.corp_specs:
            if not self.grid.has_price(sym) or self.state.operators[sym].closed:
                continue
            for cert in self.registry.certs_of(player, sym):
                total += self.cert_value(cert, player)
        return total

    def final_result(self, state):
        """The :class:`~engine.replay_result.FinalResult` of the replayed game."""
        from engine.replay_result import FinalResult, PlayerResult

        self.finalize(state)
        names = dict(state.record.players)
        players = []
        for p in self.players:
            companies = sum(
                c.value for c in self.companies.values() if c.owner == p and not c.closed
            )
            players.append(
                PlayerResult(
                    p, names.get(p, str(p)), self.cash(p), self.share_value(p), companies,
                    bankrupt=p in self.bankrupt,
                )
            )  # fmt: skip
        order = sorted(range(len(players)), key=lambda i: (-players[i].value, i))
        return FinalResult(
            [players[i] for i in order],
            self.end_reason or "dnf",
            self.cash(BANK),
            bank_broken=self.bank_broken,
            notes=list(self.notes),
        )
