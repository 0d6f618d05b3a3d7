"""1846 rules for replaying 18xx.games records (the 2-player variant too).

:mod:`engine.replay_titles` lists the board facts they follow.  Besides the board, they keep
the rounds and turns (stock round, operating rounds, each operator's turn: a turn also ends
when its operator starts the next one, alone in its rounds, see :meth:`Rules1846._again`),
the market (:mod:`engine.replay_market`) and the money (:mod:`engine.money_1846`), and at
the end of a record give the players' values and the game-end reason
(:meth:`Rules1846.final_result`).
"""

from __future__ import annotations

from typing import Any

from engine.game.state import GameState, TrainCard
from engine.model.position import Assignment
from engine.model.record import Record
from engine.money_1846 import Money1846
from engine.replay_market import POOL, TREASURY, Market1846
from engine.replay_result import FinalResult
from engine.replay_titles import _Common, _corp_of_share, lcg_draws

__all__ = ["Rules1846"]


class Rules1846(_Common):
    """1846 and the 1846 2-player variant."""

    home_token_timing = "float"
    #: Assignable privates -> the ability name 1846 positions use.
    ABILITIES = {"MPC": "meat_packing", "SC": "steamboat", "BT": "boomtown"}

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        self.market: Market1846 | None = None
        self.money: Money1846 | None = None
        self.mode = "stock"
        self.turn: dict | None = None
        self.second_tokens: dict[str, str] = {}  # hex -> removed corporation (2 players)
        self.removed_companies: list[str] = []
        self.removed_corporations: list[str] = []
        self.ability_reservations: list[tuple[tuple[str, int], str]] = []
        self.or_order: list[str] = []
        self.or_done: set[str] = set()

    @property
    def two_player(self) -> bool:
        return len(self.record.players) == 2

    # ------------------------------------------------------------------ setup
    def setup(self, state: GameState) -> None:
        data = state.data
        self.market = Market1846(data.MARKET, state.players)
        first_ed = "first_ed" in state.optional_rules
        draws = lcg_draws(self.record.seed)
        base_removals = 1 if self.two_player else 5 - len(state.players)
        if not self.two_player:
            # base.rb builds the draft round before setup(): step/draft_distribution.rb
            # shuffles every private plus one "Pass" card per player with rand first
            in_game = len(data.COMPANIES) - (
                len(data.FIRST_EDITION_ONLY_EXCLUDES) if first_ed else 0
            )
            for _ in range(in_game + len(state.players)):
                next(draws)
        if first_ed:
            for sym in data.FIRST_EDITION_ONLY_EXCLUDES:
                self.company_closes(state, sym)
        for group in (list(data.ORANGE_GROUP), list(data.BLUE_GROUP)):
            if first_ed:
                group = group[:3]  # game.rb init_companies: the 2nd-edition privates are out
            if "second_ed_co" in state.optional_rules:
                group = [g for g in group if g not in ("BT", "LM")]
            # game.rb num_removals: the 2nd edition removes one more of each group
            for sym in self._draw(group, base_removals + (0 if first_ed else 1), draws):
                self.removed_companies.append(sym)
                self.company_closes(state, sym)
        corp_groups = (
            data.TWO_PLAYER["removal_groups"] if self.two_player else [list(data.GREEN_GROUP)]
        )
        for group in corp_groups:
            group = list(group)
            if "second_ed_co" in state.optional_rules:
                group = [g for g in group if g != "C&O"]
            for sym in self._draw(group, base_removals, draws):
                self.removed_corporations.append(sym)
                op = state.operator(sym)
                op.removed = True
                state.place_home(sym)
                if self.two_player:
                    hex_ = data.TWO_PLAYER["removed_second_token"][sym]
                    if sym == "ERIE":
                        state.place_token(hex_, 0, sym, check=False)
                    else:
                        self.second_tokens[hex_] = sym
        # init_hexes: reservation abilities (PRR in E11, Erie's slot in D20, C&WI in Chicago)
        for ent in (*data.CORPORATIONS, *data.COMPANIES):
            if ent["sym"] in self.removed_corporations:
                continue
            for ab in ent.get("abilities", []) or []:
                if ab.get("type") == "reservation":
                    key = (ab["hex"], int(ab.get("city", 0)))
                    state.reservations.setdefault(key, []).append(ent["sym"])
                    self.ability_reservations.append((key, ent["sym"]))
        for minor in data.MINORS:
            sym = minor["sym"]
            card = state.trains[state.depot[0]]
            state.depot.pop(0)
            card.owner = sym
            state.place_home(sym)
            state.operator(sym).floated = True
        self.money = Money1846(state, self)  # engine/money_1846.py: cash of every holder

    @staticmethod
    def _draw(group: list[str], count: int, draws) -> list[str]:
        """``group.sort_by { rand }.take(count)`` with 18xx.games' generator."""
        keys = [next(draws) for _ in group]
        order = sorted(range(len(group)), key=lambda i: keys[i])
        return [group[i] for i in order[:count]]

    # ------------------------------------------------------------------ rounds and turns
    def _is_stock_action(self, state: GameState, action: dict) -> bool:
        if action.get("entity_type") != "player":
            return False
        kind = action["type"]
        if kind in ("par", "buy_shares", "bid") or kind.startswith("program_"):
            return True
        if kind == "pass":
            return True
        if kind == "sell_shares":
            return self.mode != "operating" or not self._emergency_sale(state)
        return False

    def _emergency_sale(self, state: GameState) -> bool:
        """Is the player's sale at the current index part of the operator's train purchase?"""
        turn = self.turn
        if turn is None:
            return False
        for a in state.actions[state.index + 1 :]:
            if a.get("entity_type") == "player" and a["type"] == "sell_shares":
                continue
            return a.get("entity") == turn["sym"] and a["type"] in (
                "buy_train", "sell_shares", "bankrupt", "pass", "buy_company",
            )  # fmt: skip
        return False

    def before_action(self, state: GameState, action: dict) -> None:
        # (an end_game action too: its entity is whoever was to act, so everything
        # 18xx.games ran before that entity's turn has happened)
        self._next_turn(state, action)
        self._staged(action)
        self.money.before(state, action)

    def _next_turn(self, state: GameState, action: dict) -> None:
        if self._is_stock_action(state, action):
            self._finish_turn(state)
            if self.mode == "operating":
                self._finish_or(state)
            self.mode = "stock"
            return
        sym = self.acting_operator(state, action)
        if sym is None or (
            self.turn is not None and self.turn["sym"] == sym and not self._again(state, action)
        ):
            return
        self._finish_turn(state)
        if self.mode == "stock":
            self.market.end_of_stock_round()
            self._close_at_zero(state)
            self._start_or(state)
        elif sym in self.or_done:
            self._finish_or(state)  # every company operated: the next operating round
            self._start_or(state)
        self._invisible_turns(state, before=sym)
        self.mode = "operating"
        self.or_done.add(sym)
        self.turn = {"sym": sym, "revenue": None, "dividend": False, "emergency": False}
        self.turn.update(ran=False, stage=0)
        self.begin_turn(state, sym)

    #: Order of the steps of an operating turn (game.rb operating_round) that actions show.
    STAGES = {"lay_tile": 2, "place_token": 2, "run_routes": 3, "dividend": 4, "buy_train": 5}

    def _again(self, state: GameState, action: dict) -> bool:
        """Does the operator whose turn it is start its next turn (it operates alone, or
        last and then first)?  Its action belongs to an earlier step than one it has done
        (a run, a dividend: once a turn); a minor's turn ends with its run."""
        turn = self.turn
        if action.get("entity_type") == "company":
            return False
        if turn["ran"] and state.operators[turn["sym"]].kind == "minor":
            return True
        stage = self.STAGES.get(action["type"])
        if stage is None:
            return False
        return stage < turn["stage"] or (stage == turn["stage"] and stage in (3, 4))

    def _staged(self, action: dict) -> None:
        turn = self.turn
        if turn is not None and action.get("entity") == turn["sym"]:
            turn["stage"] = max(turn["stage"], self.STAGES.get(action["type"], 0))

    # A corporation in receivership without trains has nothing to decide: 18xx.games runs
    # its whole turn without recording an action (round/operating.rb, step/dividend.rb
    # skip!).  The replay places those turns by the operating order.
    def _start_or(self, state: GameState) -> None:
        live = [
            s for s, op in state.operators.items() if op.kind == "corporation" and not op.closed
        ]
        self.or_order = self.market.operating_order(live)
        self.or_done = set()
        self.money.or_start(state)

    def _receivership(self, state: GameState, sym: str) -> bool:
        return (
            sym in self.market.corps
            and self.market.president(sym) is None
            and not state.operators[sym].closed
        )

    def _invisible_turns(self, state: GameState, before: str | None) -> None:
        order = self.or_order
        stop = order.index(before) if before in order else len(order)
        for sym in order[:stop]:
            if sym in self.or_done or not self._receivership(state, sym):
                continue
            self.or_done.add(sym)
            if state.trains_of(sym):
                continue  # it runs trains: its run_routes is in the log
            self.market.left(sym)  # dividend skip!: withhold on no revenue ...
            if self.market.price(sym):
                self.market.left(sym)  # ... and g_1846 Dividend#skip! once more
            self.money.receivership_train(state, sym)
            self._close_at_zero(state)

    def _finish_or(self, state: GameState) -> None:
        if self.or_order:
            self._invisible_turns(state, before=None)
        self.or_order, self.or_done = [], set()

    def _pass_dividend(self, state: GameState, sym: str) -> None:
        """The dividend step of ``sym``'s turn, when no ``dividend`` action is recorded: no
        revenue (``step/dividend.rb`` ``skip!``) or receivership (``round/operating.rb``
        withholds): obsolete trains rust and the price drops as for a withheld dividend."""
        turn = self.turn
        if turn is None or turn["sym"] != sym or turn["dividend"]:
            return
        turn["dividend"] = True
        self._rust_obsolete(state, sym)
        kind = "payout" if state.operators[sym].kind == "minor" else "withhold"
        self.money.dividend(state, sym, kind, turn["revenue"])
        if sym in self.market.corps:
            self.market.dividend(sym, "withhold", turn["revenue"] or 0)

    def _finish_turn(self, state: GameState) -> None:
        turn = self.turn
        if turn is None:
            return
        self._pass_dividend(state, turn["sym"])
        self.turn = None
        self.end_turn(state, turn["sym"])

    def _rust_obsolete(self, state: GameState, sym: str) -> None:
        for card in state.trains_of(sym):
            if card.obsolete:
                state.rust(card)

    def after_action(self, state: GameState, action: dict) -> None:
        self._close_at_zero(state)
        self.money.after(state, action)

    def final_result(self, state: GameState) -> FinalResult:
        """Players' values and the game-end reason once the record has run out.  A game
        ending with its operating round (bank, final train) finishes that round's turns
        that 18xx.games runs without recorded actions."""
        if self.money.ends_with_round:
            self._finish_turn(state)
            self._finish_or(state)
            self._close_at_zero(state)
            self.money.after(state, None)
        return self.money.final(state)

    def _close_at_zero(self, state: GameState) -> None:
        for sym in list(self.market.corps):
            op = state.operators[sym]
            if not op.closed and self.market.at_close(sym):
                state.close_operator(sym)
                self.market.remove(sym)
                self._drop_assignments(sym)

    def _drop_assignments(self, sym: str) -> None:
        for company, corp in list(self.assign_corp.items()):
            if corp == sym:
                del self.assign_corp[company]

    def on_run(self, state: GameState, sym: str, revenue: int | None) -> None:
        if self.turn is not None and self.turn["sym"] == sym:
            self.turn["revenue"] = revenue
            self.turn["ran"] = True

    # ------------------------------------------------------------------ actions
    def handle(self, state: GameState, action: dict) -> bool:
        kind, ent = action["type"], action.get("entity")
        market = self.market
        if kind == "par":
            sym = action["corporation"]
            market.par(sym, ent, action["share_price"])
            state.operator(sym).floated = True
            state.place_home(sym)
            return True
        if kind == "buy_shares":
            sym = action.get("corporation") or _corp_of_share(action)
            if sym in market.corps:
                if ent == sym and "share_price" in action:
                    # a redemption pays the price one space right (game.rb redeemable_shares)
                    self._sync(state, action, sym, int(action["share_price"]), -1)
                buyer = TREASURY if ent == sym else ent
                market.buy(buyer, sym, action.get("shares", []))
            return True
        if kind == "sell_shares":
            sym = _corp_of_share(action)
            if sym not in market.corps:
                return True
            if ent == sym:
                self._issue(state, action, sym)
            elif market.sell(ent, sym, action.get("shares", [])):
                market.left(sym)
            return True
        if kind == "dividend":
            sym = ent
            revenue = self.turn["revenue"] if self.turn and self.turn["sym"] == sym else None
            if self.turn is not None and self.turn["sym"] == sym:
                self.turn["dividend"] = True
            self._rust_obsolete(state, sym)
            self.money.dividend(state, sym, action.get("kind", "withhold"), revenue)
            if sym in market.corps and revenue is not None:
                market.dividend(sym, action.get("kind", "withhold"), revenue)
            return True
        if kind == "bankrupt":
            self._pass_dividend(state, ent)
            self._bankrupt(state, action)
            return True
        if kind == "buy_train":
            self._pass_dividend(state, ent)  # the train step comes after the dividend step
            return False
        return super().handle(state, action)

    def _issue(self, state: GameState, action: dict, sym: str) -> None:
        """A corporation issues shares: at one space left of its price in the issue step,
        or (train step, emergency) at ``1 + n`` spaces left, moving ``n`` spaces
        (game.rb ``issuable_shares``, ``emergency_issuable_bundles``)."""
        market = self.market
        n = len(action.get("shares", []))
        turn = self.turn if self.turn is not None and self.turn["sym"] == sym else None
        emergency = bool(turn and turn["dividend"])
        if "share_price" in action:
            # the price paid tells which step this is: the issue step (one space left),
            # the train step (1 + n spaces left), or the train step after a dividend step
            # that passed without an action (one more space)
            paid = int(action["share_price"])
            index = market.corps[sym].index
            price = market.prices
            normal_ok = price[max(index - 1, 0)] == paid
            emergency_ok = price[max(index - 1 - n, 0)] == paid
            skipped_ok = turn is not None and not turn["dividend"]
            skipped_ok = skipped_ok and price[max(index - 2 - n, 0)] == paid
            if skipped_ok and not (normal_ok or emergency_ok):
                self._pass_dividend(state, sym)
                emergency = True
            elif normal_ok != emergency_ok:
                emergency = emergency_ok
            elif not normal_ok:
                self._sync(state, action, sym, paid, 1 + n if emergency else 1)
        market.sell(TREASURY, sym, action.get("shares", []))
        if emergency:
            market.left(sym, n)
            if self.turn is not None and self.turn["sym"] == sym:
                self.turn["emergency"] = True

    def _sync(self, state: GameState, action: dict, sym: str, paid: int, offset: int) -> None:
        """Put ``sym``'s price where the record's share price says it is (``offset``
        spaces right of the paid price); note any drift of the replayed market."""
        market = self.market
        target = [i + offset for i, p in enumerate(market.prices) if p == paid]
        target = [i for i in target if 0 <= i < len(market.prices)]
        index = market.corps[sym].index
        if not target or index in target:
            return
        new = min(target, key=lambda i: abs(i - index))
        state.notes.append(
            f"{state.where(action)}: {sym}'s share price resynchronised from "
            f"{market.prices[index]} to {market.prices[new]} (the record's share price)"
        )
        market._move(sym, new)

    def _bankrupt(self, state: GameState, action: dict) -> None:
        corp = action["entity"]
        market = self.market
        player = market.president(corp)
        issue = 0
        emergency = (self.turn or {}).get("emergency")
        if corp in market.corps and not emergency and not state.trains_of(corp):
            # bankrupt.rb: first the biggest emergency issue (game.rb
            # emergency_issuable_bundles: at most player shares - market shares)
            c = market.corps[corp]
            treasury = sum(1 for h in c.owner.values() if h == TREASURY)
            players = market.player_percent(corp) // 10
            pool = market.percent(corp, POOL) // 10
            # ... and no bundle that would raise nothing (price 1 + n spaces left at 0)
            issue = max(0, min(treasury, players - pool, c.index - 2))
        first = self.money.bankrupt_sales(state, corp, player, issue)
        for sym in market.bankrupt(player, corp, issue, first):
            state.notes.append(f"{sym} enters receivership")
        self.money.bankrupt_finish(state, corp, player, first)
        for company, info in state.companies.items():
            if info["owner"] == player:
                info["closed"] = True
                if company in state.operators and not state.operators[company].closed:
                    state.close_operator(company)
        self.money.check_end(state, None)
        # round/operating.rb: a corporation left in receivership without trains buys one
        live = self.money.ended_by is None and self._receivership(state, corp)
        if live and not state.trains_of(corp):
            self.money.receivership_train(state, corp)

    def company_bid(self, state: GameState, company: str, player: Any) -> None:
        state.companies[company]["owner"] = player  # the 1846 draft sells at once

    def company_sold(self, state: GameState, company: str, corp: str) -> None:
        super().company_sold(state, company, corp)
        minor = state.operators.get(company)
        if minor is None or minor.kind != "minor":
            return
        # buy_company.rb: the buyer takes the minor's train and its token (or the token goes
        # if the buyer already has one there); the minor leaves the game
        for card in state.trains_of(company):
            card.owner = corp
        for key, syms in list(state.tokens.items()):
            if company in syms:
                syms.remove(company)
                if corp not in syms:
                    syms.append(corp)
                if not syms:
                    del state.tokens[key]
        minor.closed = True
        state.companies[company]["closed"] = True
        for c, target in list(self.assign_corp.items()):
            if target == company:
                del self.assign_corp[c]

    # ------------------------------------------------------------------ events and markers
    def event(self, state: GameState, name: str, train: TrainCard) -> None:
        if name == "close_companies":
            for minor in state.data.MINORS:
                sym = minor["sym"]
                if not state.operators[sym].closed:
                    state.close_operator(sym)
                    self._drop_assignments(sym)
            owner = state.owner_of_company("SC")
            if "SC" in state.companies and owner not in state.operators:
                self.assign_hex.pop("SC", None)
                self.assign_corp.pop("SC", None)
            self.close_companies_event(state)
        elif name == "remove_bonuses":
            self.assign_hex.clear()
            self.assign_corp.clear()
        elif name == "remove_reservations":
            # the reservation abilities end with phase IV (entities.rb ``remove: 'IV'``)
            for (hex_, _city), sym in self.ability_reservations:
                for key, syms in state.reservations.items():
                    if key[0] == hex_ and sym in syms:
                        syms.remove(sym)
                        break
            self.ability_reservations.clear()

    def after_lay(self, state: GameState, hex_: str, tile, entity: str) -> None:
        if tile.color == "green" and hex_ in self.second_tokens:
            sym = self.second_tokens.pop(hex_)
            state.place_token(hex_, 0, sym, check=False)

    def train_limit(self, state: GameState, sym: str) -> int:
        return int(state.phase.get("train_limit", 99))

    def assignments(self, state: GameState) -> list[Assignment]:
        out = []
        for company, ability in self.ABILITIES.items():
            hex_, corp = self.assign_hex.get(company), self.assign_corp.get(company)
            if hex_ and corp and not state.operators[corp].closed:
                out.append(Assignment(hex_, ability, corp))
        return out
