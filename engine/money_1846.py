"""Money in a replayed 1846 game: every payment a record implies, through one :class:`Ledger`.

:class:`Money1846` rides along :class:`~engine.rules_1846.Rules1846`: the rules call it
before and after each action and at the points where 18xx.games moves money without an
action (private revenue at the start of an operating round, dividends, receivership train
purchases, bankruptcy).  At the end of the record it gives each player's value and the
game-end reason (:class:`~engine.replay_result.FinalResult`).

Accounts: ``"bank"`` (may go negative: it "breaks"), ``"player:<id>"`` and ``"op:<sym>"``
(corporations and the two minors).  Money only moves between them, so the total is constant
and checked after every action.

Facts from tobymao/18xx @111f7f69 (MIT), ``lib/engine/``:

- ``game/g_1846/game.rb``: ``BANK_CASH``, ``STARTING_CASH``, ``TILE_COST`` (every lay costs
  ``max($20, terrain)``, ``upgrade_cost``), the Illinois Central's subsidy of its par price
  (``action_processed``), ``GAME_END_CHECK`` (bankrupt: at once, bank: end of the operating
  round set, all closed: at once, final train: one more set, 2-player only);
  ``g_1846/entities.rb``: private values, revenues, draft discounts and abilities, token
  prices (the $40 reserved-token abilities);
- ``g_1846/step/draft_distribution.rb``, ``draft_2p_distribution.rb``: a private costs
  ``value - discount``; while it is the last one left each pass lowers its price by $10, and
  at its floor the next player in draft order takes it; a drafted minor gets its face value
  from the bank;
- ``g_1846/step/dividend.rb`` with ``step/dividend.rb``, ``half_pay.rb``,
  ``minor_half_pay.rb``: a payout pays every share ``revenue / 10`` (rounded up per holder);
  treasury shares pay the corporation (incremental capitalisation), market shares pay nobody;
  half pay withholds ``revenue / 2`` rounded down to a multiple of $10; a minor keeps half
  (rounded down) and pays its owner the rest;
- ``share_pool.rb`` ``buy_shares``/``sell_shares``: treasury shares are paid to the
  corporation (at the market price: ``always_market_price``), market shares to the bank, sales
  are paid by the bank; ``step/buy_sell_par_shares.rb`` ``process_par``;
- ``g_1846/step/issue_shares.rb``, ``buy_train.rb``, ``game.rb`` ``issuable_shares``,
  ``redeemable_shares``, ``emergency_issuable_bundles``: issues and redemptions at the price
  the record states; ``step/train.rb`` ``buy_train_action``: a corporation that must buy a
  train and cannot pay gets the difference from its president;
- ``step/buy_company.rb``, ``g_1846/step/buy_company.rb``: the buyer pays the seller; a bought
  minor's cash goes to the buyer; ``company_price_up_to_face.rb``: prices $1 to face value;
- ``step/tracker.rb`` ``lay_tile`` and ``remove_border_calculate_cost!``, ``base.rb``
  ``upgrade_cost``: terrain on the old tile, a border's cost once track meets on both sides,
  Tunnel Blasting's $20 off mountains, Illinois Central's and Little Miami's $20 discounts,
  free lays (Lake Shore Line, Michigan Central, Ohio & Indiana);
- ``step/tokener.rb``: a token costs the corporation's next token price, a reserved-token
  ability its $40, the Chicago and Western Indiana's token nothing;
- ``base.rb`` ``payout_companies`` (private revenue when an operating round starts),
  ``close_corporation`` (a closing company's cash goes to the bank), ``bank.rb`` (the bank
  breaks when a payment would take it below zero);
- ``g_1846/step/bankrupt.rb`` with ``step/emergency_money.rb`` and ``g_1846/step/buy_train.rb``
  ``sellable_bundle?``: a bankrupt president's corporation issues what it can, the president
  sells what he could sell in an emergency (one largest bundle per corporation), dumps the
  rest, and hands all his cash to the corporation; ``g_1846/round/operating.rb``
  ``receivership_train_buy``: a corporation in receivership without trains buys the cheapest
  train when it can pay for it;
- ``player.rb`` ``value`` and ``base.rb`` ``result``: the final value of each player.
"""

from __future__ import annotations

from typing import Any

from engine.game.ledger import InsufficientCash, Ledger
from engine.game.state import GameState
from engine.model.hexgrid import opposite
from engine.model.record import ReplayError
from engine.money_1846_rules import (
    half_pay_split,
    minor_split,
    payout_amount,
    tile_cost,
    track_reaches,
)
from engine.replay_market import POOL, TREASURY
from engine.replay_result import FinalResult, PlayerResult

__all__ = [
    "Money1846",
    "BANK",
    "player_account",
    "operator_account",
    "payout_amount",
    "half_pay_split",
    "minor_split",
    "tile_cost",
]

BANK = "bank"
MARKET_SHARE_LIMIT = 50
#: Draft prices drop by this much each time the last private is passed.
DRAFT_PASS_DISCOUNT = 10
#: The Tunnel Blasting Company ($20 off mountains, :func:`tile_cost`).
TBC = "TBC"
#: game.rb GAME_END_CHECK: reason -> when the game ends; base.rb GAME_END_TIMING_PRIORITY.
END_TIMING = {
    "bankrupt": "immediate",
    "bank": "full_or",
    "all_closed": "immediate",
    "final_train": "one_more_full_or_set",
}
TIMING_PRIORITY = ("immediate", "current_round", "current_or", "full_or", "one_more_full_or_set")


def player_account(pid: Any) -> str:
    """The ledger account of player ``pid``."""
    return f"player:{pid}"


def operator_account(sym: str) -> str:
    """The ledger account of corporation or minor ``sym``."""
    return f"op:{sym}"


def _int(value: Any, name: str) -> int:
    """An amount the record states; a clear error (the replay adds the action) if it is
    missing or not a number."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ReplayError(f"{name} {value!r} is not a number") from None


def _by_players(value: Any, players: int) -> int:
    if isinstance(value, dict):
        return int(value[players])
    return int(value)


class Money1846:
    """Cash of the bank, players, corporations and minors of one replayed 1846 game.

    Parameters
    ----------
    state : GameState
        After :meth:`Rules1846.setup` (privates and corporations drawn out).
    rules : Rules1846
        The rules it serves (market, turn and round bookkeeping).
    """

    def __init__(self, state: GameState, rules: Any) -> None:
        data = state.data
        n = len(state.players)
        if n not in data.BANK_CASH:
            raise ReplayError(f"1846 is for 2-5 players, the record has {n}")
        self.rules = rules
        self.players = list(state.players)
        self.names = dict(state.record.players)
        self.two_player = n == 2
        self.ledger = Ledger({BANK: _by_players(data.BANK_CASH, n)}, may_go_negative={BANK})
        for pid in self.players:
            self.ledger.open(player_account(pid))
            self.pay(BANK, player_account(pid), _by_players(data.STARTING_CASH, n), "start")
        for sym in state.operators:
            self.ledger.open(operator_account(sym))
        self.bank_broken = False
        self.bankrupt: set = set()
        self.extra_discount: dict[str, int] = {}
        self.corp_specs = {c["sym"]: c for c in data.CORPORATIONS}
        self.token_abilities = {
            sym: {
                h: ab
                for ab in spec.get("abilities", []) or []
                if ab.get("type") == "token"
                for h in ab.get("hexes", [])
            }
            for sym, spec in self.corp_specs.items()
        }
        self.tokens_used: dict[str, int] = {}
        self.borders: dict[tuple[str, int], tuple[str | None, int]] = {}
        for coord in state.board.coords():
            for b in state.board.check_hex(coord).printed.borders:
                if b.cost and not b.impassable:
                    self.borders[(coord, b.edge)] = (b.type, int(b.cost))
        self.trigger: str | None = None
        self.ended_by: str | None = None  # an immediate end, or the end_game action
        self.notes: list[str] = []
        self.in_sync = True
        self.emergency_sold: set[tuple[str, str]] = set()
        self._bankrupt_holdings: dict[str, int] = {}
        self._turn: dict | None = None
        self.draft_passed: set = set()  # 2-player draft: players who passed this round
        self._pending: list[tuple] = []

    # ------------------------------------------------------------------ ledger helpers
    def cash(self, holder: str) -> int:
        return self.ledger.cash(holder)

    def player_cash(self, pid: Any) -> int:
        return self.ledger.cash(player_account(pid))

    def op_cash(self, sym: str) -> int:
        return self.ledger.cash(operator_account(sym))

    def pay(self, source: str, target: str, amount: int, reason: str) -> None:
        """Move money; the bank breaks when it pays more than it has (``bank.rb``).

        A payer short of cash means the replayed money left 18xx.games' path: the payment is
        made anyway (the account goes negative), and a note marks the result unreliable.
        """
        amount = int(amount)
        if amount == 0:
            return
        if source == BANK and self.ledger.cash(BANK) - amount < 0:
            self.bank_broken = True
        try:
            self.ledger.pay(source, target, amount, reason)
        except InsufficientCash as exc:
            self.in_sync = False
            self.notes.append(f"money: {exc}")
            self.ledger.may_go_negative.add(source)
            self.ledger.pay(source, target, amount, reason)

    def _note(self, state: GameState, action: dict | None, text: str) -> None:
        """Something 18xx.games would not have allowed: the money may have drifted."""
        self.in_sync = False
        where = state.where(action) if action is not None else "end of record"
        self.notes.append(f"{where}: {text}")

    # ------------------------------------------------------------------ action hooks
    def before(self, state: GameState, action: dict) -> None:
        """Payments of ``action`` that depend on the state before it is applied."""
        kind = action["type"]
        if self.rules.turn is not self._turn:
            self._turn = self.rules.turn
            self.emergency_sold.clear()  # MUST_SELL_IN_BLOCKS counts within one turn
        if self.ended_by in END_TIMING:
            self._note(state, action, f"acts after the game ended ({self.ended_by})")
        handler = getattr(self, f"_before_{kind}", None)
        if handler is not None:
            handler(state, action)

    def after(self, state: GameState, action: dict | None) -> None:
        """Payments that need the state after ``action``; closures; end checks."""
        for item in self._pending:
            item[0](state, action, *item[1:])
        self._pending = []
        self.sweep(state)
        self.check_end(state, action)
        self.ledger.check_conserved()

    def sweep(self, state: GameState) -> None:
        """A closed corporation's or minor's cash goes to the bank (``close_corporation``)."""
        for sym, op in state.operators.items():
            if op.closed and self.op_cash(sym):
                self.pay(operator_account(sym), BANK, self.op_cash(sym), f"{sym} closes")

    # -- draft
    def _draft_open(self, state: GameState) -> list[str]:
        """Privates still to be drafted (the draft runs until every private has an owner)."""
        companies = state.companies.items()
        return [c for c, info in companies if not info["closed"] and info["owner"] is None]

    def draft_price(self, state: GameState, company: str) -> int:
        """``value - discount``, less $10 for every pass on it as the last private."""
        spec = state.companies[company]["spec"]
        discount = int(spec.get("discount", 0)) + self.extra_discount.get(company, 0)
        return int(spec["value"]) - discount

    def _draft_buy(self, state: GameState, action: dict, company: str, player: Any) -> None:
        price = self.draft_price(state, company)
        self.pay(player_account(player), BANK, price, f"draft {company}")
        minor = state.operators.get(company)
        if minor is not None and minor.kind == "minor":
            # float_minor: the minor's treasury is the company's face value
            value = int(state.companies[company]["spec"]["value"])
            self.pay(BANK, operator_account(company), value, f"{company} floats")

    def _before_bid(self, state: GameState, action: dict) -> None:
        company = action.get("company")
        if company in state.companies and state.companies[company]["owner"] is None:
            self._draft_buy(state, action, company, action["entity"])
        self.draft_passed.discard(action["entity"])

    def _before_pass(self, state: GameState, action: dict) -> None:
        if action.get("entity_type") != "player":
            return
        left = self._draft_open(state)
        if self.two_player and len(left) > 1:
            self._draft_2p_pass(state, action["entity"])
        if len(left) != 1:
            return
        company = left[0]
        spec = state.companies[company]["spec"]
        self.extra_discount[company] = self.extra_discount.get(company, 0) + DRAFT_PASS_DISCOUNT
        floor = -int(spec.get("discount", 0))
        if self.draft_price(state, company) == floor:
            # the draft runs in reverse seat order; the next player takes the private
            order = list(reversed(self.players))
            player = order[(order.index(action["entity"]) + 1) % len(order)]
            self._draft_buy(state, action, company, player)
            self.rules.company_bid(state, company, player)

    def _draft_2p_pass(self, state: GameState, player: Any) -> None:
        """The 2-player draft round ends once both players have passed; two operating
        rounds follow (``g_1846/game.rb`` ``next_round!``).  With nobody to operate yet they
        leave no action in the record, but each still pays the privates' revenue."""
        self.draft_passed.add(player)
        if len(self.draft_passed) < len(self.players):
            return
        self.draft_passed.clear()
        minors = [
            s for s, op in state.operators.items()
            if op.kind == "minor" and not op.closed and state.owner_of_company(s) is not None
        ]  # fmt: skip
        if not minors and not self.rules.market.corps:
            for _ in range(int(state.phase.get("operating_rounds", 2))):
                self.or_start(state)

    # -- shares
    def _before_par(self, state: GameState, action: dict) -> None:
        sym = action["corporation"]
        price = _int(str(action.get("share_price")).split(",")[0], "share_price")
        self.pay(player_account(action["entity"]), operator_account(sym), 2 * price, f"par {sym}")
        self.tokens_used[sym] = 1  # the home token goes down when it floats
        for ab in self.corp_specs.get(sym, {}).get("abilities", []) or []:
            if ab.get("type") == "base" and ab.get("subsidy") == "par":
                self.pay(BANK, operator_account(sym), price, f"{sym} subsidy")

    def _shares(self, state: GameState, action: dict) -> tuple[str | None, int]:
        shares = action.get("shares") or []
        sym = str(shares[0]).rsplit("_", 1)[0] if shares else action.get("corporation")
        market = self.rules.market
        if "percent" in action:
            percent = int(action["percent"])
        elif sym in market.corps:
            percent = sum(market.corps[sym].percent.get(s, 10) for s in shares)
        else:
            percent = 10 * len(shares)
        return sym, percent

    def _before_buy_shares(self, state: GameState, action: dict) -> None:
        market = self.rules.market
        sym, percent = self._shares(state, action)
        if sym not in market.corps:
            return
        ent = action["entity"]
        if ent == sym:  # redemption from the market at the price the record states
            price = int(action.get("share_price") or market.prices[market.corps[sym].index + 1])
            self.pay(operator_account(sym), BANK, price * percent // 10, f"{sym} redeems")
            return
        c = market.corps[sym]
        holder = c.owner.get(str(action["shares"][0]))
        seller = operator_account(sym) if holder == TREASURY else BANK
        if holder not in (TREASURY, POOL):
            self._note(state, action, f"share {action['shares'][0]} is not for sale ({holder})")
        price = market.price(sym) or 0
        self.pay(player_account(ent), seller, price * percent // 10, f"buys {sym}")

    def _before_sell_shares(self, state: GameState, action: dict) -> None:
        market = self.rules.market
        sym, percent = self._shares(state, action)
        if sym not in market.corps:
            return
        ent = action["entity"]
        if ent == sym:  # an issue, at the price the record states
            price = action.get("share_price")
            if price is None:
                price = market.prices[max(market.corps[sym].index - 1, 0)]
            self.pay(BANK, operator_account(sym), int(price) * percent // 10, f"{sym} issues")
            return
        price = market.price(sym) or 0
        self.pay(BANK, player_account(ent), price * percent // 10, f"sells {sym}")
        turn = self.rules.turn
        if self.rules.mode == "operating" and turn is not None:
            self.emergency_sold.add((turn["sym"], sym))

    # -- companies and trains
    def _before_buy_company(self, state: GameState, action: dict) -> None:
        company, buyer = action["company"], action["entity"]
        info = state.companies.get(company)
        if info is None:
            return
        price = _int(action.get("price"), "price")
        value = int(info["spec"]["value"])
        if not 1 <= price <= value:
            self._note(state, action, f"{company} bought for {price}, outside $1-{value}")
        owner = info["owner"]
        seller = (
            player_account(owner)
            if owner in self.players
            else operator_account(owner)
            if owner in state.operators
            else BANK
        )
        self.pay(operator_account(buyer), seller, price, f"buys {company}")
        minor = state.operators.get(company)
        if minor is not None and minor.kind == "minor":
            self.pay(operator_account(company), operator_account(buyer), self.op_cash(company),
                     f"{company}'s treasury")  # fmt: skip

    def _before_buy_train(self, state: GameState, action: dict) -> None:
        card = state.trains.get(action.get("train"))
        if card is None:
            return
        owner = card.owner
        seller = operator_account(owner) if owner in state.operators else BANK
        price = _int(action.get("price"), "price")
        self._pending.append((self._settle_train, action["entity"], seller, price))

    def _settle_train(self, state: GameState, action, sym: str, seller: str, price: int) -> None:
        short = price - self.op_cash(sym)
        if short > 0:
            president = self.rules.market.president(sym)
            if president is None:
                self._note(state, action, f"{sym} lacks {short} for a train and has no president")
            else:
                self.pay(player_account(president), operator_account(sym), short,
                         f"president's contribution for {sym}'s train")  # fmt: skip
        self.pay(operator_account(sym), seller, price, f"{sym} buys train {action['train']}")

    def receivership_train(self, state: GameState, sym: str) -> bool:
        """A corporation in receivership without trains buys the cheapest depot train if it
        can pay for it (``round/operating.rb`` ``receivership_train_buy``)."""
        sale = state.depot_trains()
        if not sale:
            return False
        card = min(sale, key=lambda t: state.train_spec(t).get("price", 0))
        spec = state.train_spec(card)
        cheapest = min([spec, *(spec.get("variants") or [])], key=lambda v: v.get("price", 0))
        price = int(cheapest.get("price", 0))
        if self.op_cash(sym) < price:
            return False
        state.buy_train(sym, card.id, cheapest["name"], check=False)
        self.pay(operator_account(sym), BANK, price, f"{sym} (receivership) buys {card.id}")
        state.notes.append(f"{sym} (receivership, no train) buys {card.id} as {cheapest['name']}")
        return True

    # -- track and tokens
    def _spender(self, state: GameState, action: dict) -> str | None:
        ent = action["entity"]
        if action.get("entity_type") == "company":
            owner = state.owner_of_company(ent)
            if owner in state.operators:
                return owner
            turn = self.rules.turn
            return turn["sym"] if turn is not None else None
        return ent

    def _before_lay_tile(self, state: GameState, action: dict) -> None:
        hex_ = action["hex"]
        if hex_ not in state.board:
            return
        old = state.board.tile(hex_)
        self._pending.append((self._settle_lay, hex_, old.upgrade_cost, old.terrains))

    def _settle_lay(self, state: GameState, action, hex_: str, terrain_cost: int, terrains):
        spender = self._spender(state, action)
        tile = state.board.tile(hex_)
        free, discount = False, 0
        if action.get("entity_type") == "company":
            abilities = state.companies[action["entity"]]["spec"].get("abilities", [])
        else:
            abilities = self.corp_specs.get(action["entity"], {}).get("abilities", [])
        for ab in abilities or []:
            if ab.get("type") != "tile_lay":
                continue
            if ab.get("hexes") and hex_ not in ab["hexes"]:
                continue
            if ab.get("tiles") and tile.name not in ab["tiles"]:
                continue
            free = free or bool(ab.get("free"))
            discount += int(ab.get("discount", 0))
        tbc = state.companies.get(TBC)
        tunnel = bool(tbc and not tbc["closed"] and tbc["owner"] == spender)
        cost = tile_cost(
            terrain_cost,
            terrains,
            self._open_borders(state, hex_),
            free=free,
            discount=discount,
            tunnel_blasting=tunnel,
            minimum=int(getattr(state.data, "TILE_COST", 20)),
        )
        if spender is None:
            self._note(state, action, "a tile lay with nobody to pay for it")
            return
        self.pay(operator_account(spender), BANK, cost, f"tile on {hex_}")

    def _open_borders(self, state: GameState, hex_: str) -> list[tuple[str | None, int]]:
        """Borders of ``hex_`` that track now crosses from both sides: paid once, then gone
        (``tracker.rb`` ``remove_border_calculate_cost!``)."""
        board = state.board
        exits = board.placed(hex_).exits
        out = []
        for edge, other in board.neighbours(hex_).items():
            key = (hex_, edge)
            if key not in self.borders or edge not in exits:
                continue
            if opposite(edge) not in board.placed(other).exits:
                continue
            out.append(self.borders.pop(key))
            self.borders.pop((other, opposite(edge)), None)
        return out

    def _before_place_token(self, state: GameState, action: dict) -> None:
        if action.get("entity_type") == "company":
            return  # the Chicago and Western Indiana's token is free
        sym = action["entity"]
        try:
            hex_, _city = state.resolve_city(action["city"])
        except (ReplayError, KeyError):
            return  # the board side reports a bad city itself
        op = state.operators.get(sym)
        if op is None or op.kind != "corporation":
            return
        if hex_ in op.home and not op.home_placed:
            return  # the home token, placed by choice
        tokens = self.corp_specs.get(sym, {}).get("tokens", [])
        used = self.tokens_used.get(sym, 1)
        self.tokens_used[sym] = used + 1
        ability = self.token_abilities.get(sym, {}).pop(hex_, None)
        if ability is not None:
            # tokener.rb: the ability's price if the corporation's track reaches the hex,
            # else its teleport price (graph.rb counts the hex as connected either way)
            price = int(ability.get("price", 0))
            if ability.get("teleport_price") is not None and not track_reaches(state, sym, hex_):
                price = int(ability["teleport_price"])
        elif used < len(tokens):
            price = int(tokens[used])
        else:
            self._note(state, action, f"{sym} has no token left")
            return
        self.pay(operator_account(sym), BANK, price, f"{sym} token in {hex_}")

    def _before_end_game(self, state: GameState, action: dict) -> None:
        if self.ended_by is None:
            self.ended_by = "manually_ended"

    # ------------------------------------------------------------------ rounds
    def or_start(self, state: GameState) -> None:
        """Private revenue when an operating round starts (``base.rb``
        ``payout_companies``): player-owned first, in seat order."""

        def order(item):
            owner = item[1]["owner"]
            return (0, self.players.index(owner)) if owner in self.players else (1, str(owner))

        for company, info in sorted(state.companies.items(), key=order):
            owner, revenue = info["owner"], int(info["spec"].get("revenue", 0))
            if info["closed"] or owner is None or not revenue:
                continue
            if owner in self.players:
                self.pay(BANK, player_account(owner), revenue, f"{company} revenue")
            elif owner in state.operators and not state.operators[owner].closed:
                self.pay(BANK, operator_account(owner), revenue, f"{company} revenue")

    def dividend(self, state: GameState, sym: str, kind: str, revenue: int | None) -> None:
        """Pay ``revenue`` of ``sym`` as ``kind`` (``payout``, ``half``, ``withhold``)."""
        revenue = int(revenue or 0)
        if revenue < 0:
            raise ValueError(f"{sym}: negative revenue {revenue}")
        op = state.operators.get(sym)
        if op is None or revenue == 0:
            return
        if op.kind == "minor":
            keep, give = minor_split(revenue)
            owner = state.owner_of_company(sym)
            self.pay(BANK, operator_account(sym), keep, f"{sym} runs")
            if owner in self.players:
                self.pay(BANK, player_account(owner), give, f"{sym} pays its owner")
            return
        market = self.rules.market
        if kind == "withhold" or sym not in market.corps:
            self.pay(BANK, operator_account(sym), revenue, f"{sym} withholds")
            return
        if kind == "half":
            withheld, paid = half_pay_split(revenue)
        elif kind == "payout":
            withheld, paid = 0, revenue
        else:
            raise ValueError(f"{sym}: unknown dividend kind {kind!r}")
        self.pay(BANK, operator_account(sym), withheld, f"{sym} withholds half")
        for pid in self.players:
            amount = payout_amount(market.percent(sym, pid), paid)
            self.pay(BANK, player_account(pid), amount, f"{sym} dividend")
        amount = payout_amount(market.percent(sym, TREASURY), paid)
        self.pay(BANK, operator_account(sym), amount, f"{sym} dividend on treasury shares")

    # ------------------------------------------------------------------ bankruptcy
    def bankrupt_sales(self, state: GameState, corp: str, player: Any, issue: int) -> dict:
        """Pay a bankruptcy's issue and first sales; return what :meth:`bankrupt_finish`
        needs and the corporations whose first sale was the president's (their price drops).

        ``g_1846/step/bankrupt.rb``: the corporation issues ``issue`` shares at the price
        ``1 + issue`` spaces left; then, corporation by corporation in operating order, the
        president sells the largest bundle he could sell in an emergency.
        """
        market = self.rules.market
        self._bankrupt_holdings = {
            s: market.percent(s, player) for s in market.corps if market.percent(s, player)
        }
        c = market.corps.get(corp)
        if c is not None and issue > 0:
            price = market.prices[max(c.index - 1 - issue, 0)]
            self.pay(BANK, operator_account(corp), issue * price, f"{corp} issues (bankruptcy)")
        turn_sym = (self.rules.turn or {}).get("sym", corp)
        needed = self._max_depot_price(state)
        first: dict[str, int] = {}
        order = market.operating_order([s for s in market.corps if not state.operators[s].closed])
        for sym in order:
            k = self._first_sale(state, sym, player, corp, issue, turn_sym, needed)
            if k:
                index = market.corps[sym].index - (issue if sym == corp else 0)
                price = market.prices[max(index, 0)]
                self.pay(BANK, player_account(player), price * k // 10, f"bankrupt sells {sym}")
                first[sym] = k
        return first

    def _first_sale(self, state, sym, player, corp, issue, turn_sym, needed) -> int:
        """Percent of ``sym`` the bankrupt ``player`` sells as an emergency sale (0: none)."""
        market = self.rules.market
        c = market.corps[sym]
        held = market.percent(sym, player)
        if not held or (turn_sym, sym) in self.emergency_sold:
            return 0
        president = c.president == player
        if not (state.operators[sym].operated or president):
            return 0
        index = c.index - (issue if sym == corp else 0)
        price = market.prices[max(index, 0)]
        if sym == corp and price == 10:
            return 0  # g_1846 buy_train.rb: the president may not close the corporation
        pool = market.percent(sym, POOL) + (issue * 10 if sym == corp else 0)
        others = max((market.percent(sym, p) for p in self.players if p != player), default=0)
        has_cert = c.owner.get(f"{sym}_0") == player
        tens = (held - (20 if has_cert else 0)) // 10
        sizes = [10 * i for i in range(1, tens + 1)]
        if has_cert:
            sizes += [10 * tens + 10, 10 * tens + 20]
        available = self.player_cash(player) + self.op_cash(corp)
        best = 0
        for size in sizes:
            with_cert = has_cert and size > 10 * tens
            if with_cert and others < 20:
                continue  # bundle.can_dump?
            if pool + size > MARKET_SHARE_LIMIT:
                continue
            if president and sym == turn_sym and held - size < others:
                continue  # no presidency change of the corporation that must buy
            smallest = 2 * price if with_cert and tens == 0 else price
            if size * price // 10 - smallest >= needed - available:
                continue  # selling_minimum_shares?
            best = max(best, size)
        return best

    def bankrupt_finish(self, state: GameState, corp: str, player: Any, first: dict) -> None:
        """After the market dumped the rest: pay the dumps at the new prices, hand the
        player's cash to the corporation, mark him bankrupt."""
        market = self.rules.market
        for sym, held in self._bankrupt_holdings.items():
            rest = held - first.get(sym, 0)
            price = market.price(sym) or 0
            self.pay(BANK, player_account(player), price * rest // 10, f"bankrupt dumps {sym}")
        self.pay(player_account(player), operator_account(corp), self.player_cash(player),
                 f"bankrupt player's cash to {corp}")  # fmt: skip
        self.bankrupt.add(player)

    @staticmethod
    def _max_depot_price(state: GameState) -> int:
        sale = state.depot_trains()
        if not sale:
            return 0
        card = max(sale, key=lambda t: state.train_spec(t).get("price", 0))
        spec = state.train_spec(card)
        return max(int(v.get("price", 0)) for v in [spec, *(spec.get("variants") or [])])

    # ------------------------------------------------------------------ game end
    def check_end(self, state: GameState, action: dict | None) -> None:
        """``base.rb`` ``game_end_check``: keep the most urgent trigger."""
        live = [p for p in self.players if p not in self.bankrupt]
        if len(live) == 1 and len(self.players) > 1:
            self._trigger("bankrupt")
        if self.bank_broken:
            self._trigger("bank")
        if self._all_closed(state):
            self._trigger("all_closed")
        if self.two_player and not state.depot_trains():
            self._trigger("final_train")
        if self.trigger and END_TIMING[self.trigger] == "immediate" and self.ended_by is None:
            self.ended_by = self.trigger

    def _trigger(self, reason: str) -> None:
        timing = END_TIMING[reason]
        if self.trigger is not None and TIMING_PRIORITY.index(timing) >= TIMING_PRIORITY.index(
            END_TIMING[self.trigger]
        ):
            return
        self.trigger = reason

    def _all_closed(self, state: GameState) -> bool:
        corps_open = any(
            op.kind == "corporation" and not op.removed and not op.closed
            for op in state.operators.values()
        )
        companies_open = any(not info["closed"] for info in state.companies.values())
        # the draft's Pass cards are companies too; they close with the other privates
        # (the first 5-train); the 2-player draft has none
        pass_cards_open = not self.two_player and not state.phase_reached("III")
        return not (corps_open or companies_open or pass_cards_open)

    @property
    def ends_with_round(self) -> bool:
        """The game ends at the end of an operating round (bank, final train), not at once."""
        return self.ended_by is None and self.trigger in ("bank", "final_train")

    def final(self, state: GameState) -> FinalResult:
        """Each player's value and the game-end reason."""
        reason = self.ended_by if self.ended_by is not None else self.trigger or "dnf"
        market = self.rules.market
        players = []
        for pid in self.players:
            shares = sum(
                (market.price(sym) or 0) * market.percent(sym, pid) // 10
                for sym in market.corps
                if not state.operators[sym].closed
            )
            companies = sum(
                int(info["spec"].get("value", 0))
                for info in state.companies.values()
                if info["owner"] == pid and not info["closed"]
            )
            players.append(
                PlayerResult(
                    pid,
                    self.names.get(pid, str(pid)),
                    self.player_cash(pid),
                    shares,
                    companies,
                    pid in self.bankrupt,
                )
            )
        players.sort(key=lambda p: -p.value)
        return FinalResult(
            players=players,
            reason=reason,
            bank=self.cash(BANK),
            bank_broken=self.bank_broken,
            in_sync=self.in_sync,
            notes=list(self.notes),
        )
