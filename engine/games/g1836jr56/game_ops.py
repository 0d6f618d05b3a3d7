"""1836Jr-56 operating turns: starting, destinations, tokens, dividends, trains, the Régie.

The turn is 1836Jr-30's (:mod:`engine.games.g1836jr30.game_ops`, ``game_trains``: one tile lay,
one station token, the optimal run, the dividend, trains with one of each type from the bank
per round, privates bought in phases 3-4, the E-SF and CdH abilities) with the 1856 steps
(tobymao/18xx @111f7f69, MIT, ``g_1856/game.rb`` ``operating_round``, read, not copied):

- a corporation that has not started starts when its turn comes if enough is sold
  (``start_operating``); one that no longer has enough (the float rose meanwhile) is skipped;
- loans may be taken at any point of the turn before the train step ends
  (:mod:`~engine.games.g1836jr56.game_loans`); a station token is offered when a loan would
  pay for it (``g_1856/step/token.rb`` ``buying_power``);
- destinations (``g_1856/step/escrow.rb``, ``game.rb`` ``destination_connected?``,
  ``hexes_connected?``): after every tile lay, each corporation still of escrow capitalisation
  (parred or not) whose home hex is joined by track to its destination hex (any company's
  track: the walk ignores tokens) has its escrow paid out and becomes incremental; an
  unparred one will be parred incremental;
- the national may borrow an 8 (or D) train from the bank when it has none and has never
  owned a permanent train (``step/borrow_train.rb``); it goes back at the end of the train step;
- interest after the run; the dividend on what the interest left of the run; a withhold or
  nothing moves the price left, a payout right; the national withholds and does not move
  until it has owned a permanent train (``g_1856/step/dividend.rb``, ``stock_market.rb``);
  dividends per share are the revenue over 10 (20 for a twenty-share national); market
  shares pay the corporation, IPO shares nobody;
- trains (``g_1856/step/buy_train.rb``, ``g_1836_jr56/step/buy_train.rb``): ``EBUY_FROM_OTHERS =
  :never`` (short of the cheapest train, only the bank's); the national buys no train that
  rusts, pays face value when trading with another corporation (``train_buy`` ability) and
  must buy a permanent train while it has more than 1100 (750 holding a tradeable train);
  after the train step a borrowed train returns and excess loans are repaid;
- town upgrades (phase ``upgradeable_towns``: from the first 6, ``g_1856/game.rb``
  ``upgrades_to?``, ``gray_phase?``): a laid town tile may be replaced by a yellow city or
  plain track (3 by 5 or 7, 4 by 57 or 9, 58 by 6 or 8), a double town by a green city (2 and
  56 by 15), keeping its exits, with an exit on the network like any lay;
- the Régie des Postes (``g_1856/step/assign.rb``): its owning corporation puts the +20 token
  on one of its hexes during its turn, which closes the private; the token works for that
  corporation until the first 6-train (``event_remove_tokens!``).
"""

from __future__ import annotations

import math

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.game.track import LayOption, walk
from engine.model.position import Assignment
from engine.model.tiles.parse import NodeRef

__all__ = ["OperatingMixin56"]

#: (hex, town tile, rotation) -> its town upgrades (LayOption), for every game
_TOWN_OPTIONS: dict[tuple, tuple] = {}

#: Stages before the train step ends, in which a loan may be taken.
LOAN_STAGES = frozenset({"track", "token", "borrow", "route", "dividend", "train"})


class OperatingMixin56:
    """Operating-round rules of :class:`~engine.games.g1836jr56.game.Game1836Jr56`."""

    OPERATING_STAGES = ("track", "token", "borrow", "route", "dividend", "train", "loan", "company")

    # ------------------------------------------------------------------ order and turns
    def operating_order(self) -> list[str]:
        ops = [c for c in self.live_corporations() if c in self.started or self.floatable(c)]
        return self.market.operating_order(ops)

    def or_start(self) -> None:
        super().or_start()
        self.took_loan, self.redeemed, self.paid_interest = set(), set(), set()

    def stages_for(self, op: str) -> tuple[str, ...]:
        if op not in self.started and not self.floatable(op):
            self.note(f"{op} no longer has enough sold to start and is skipped")
            return ()
        return tuple(self.OPERATING_STAGES)

    def turn_started(self, op: str) -> None:
        if op == self.NATIONAL:
            self.or_turn.flags.update(bought_types=set(), sold=set(), last_sold=None)
            return  # its tokens are already on the map
        if op not in self.started and self.floatable(op):
            self.start(op)
        super().turn_started(op)

    def skip_operating(self) -> None:
        t = self.or_turn
        before = t.stage if t is not None else None
        super().skip_operating()
        self._stage_left(t, before)

    def operating_pass(self, action: dict) -> None:
        ent = action["entity"]
        if self.nationalizables and ent == self.nationalizables[0]:
            return self.payoff_nationalizable(ent)
        if self.national_discarding and ent == self.NATIONAL:
            return self.done_discarding()
        t = self.or_turn
        before = t.stage if t is not None else None
        super().operating_pass(action)
        self._stage_left(t, before)

    def _stage_left(self, t, before: str | None) -> None:
        """After-stage work: interest once the run is over; the borrowed train back and
        excess loans repaid once the train step is over."""
        if t is None or self.or_turn is not t or self.finished or t.stage == before:
            return
        if before == "route":
            self.pay_interest(t.op)
        elif before == "train":
            self.return_borrowed()
            self.force_repay(t.op)

    def operating_run_routes(self, action: dict) -> None:
        super().operating_run_routes(action)
        self.pay_interest(action["entity"])

    # ------------------------------------------------------------------ anytime actions
    def anytime_actions(self, op: str, stage: str) -> list[dict]:
        acts = super().anytime_actions(op, stage)
        if stage in LOAN_STAGES and self.can_take_loan(op):
            acts.append({"type": "take_loan", "entity": op, "price": self.loan_amount(op)})
        post = self.data.POST_COMPANY
        info = self.state.companies.get(post)
        if info is not None and info["owner"] == op and not info["closed"]:
            for ab in info["spec"].get("abilities", []):
                if ab.get("type") == "assign_hexes":
                    acts += [
                        {"type": "assign", "entity": post, "target": h, "target_type": "hex"}
                        for h in ab["hexes"]
                    ]
        return acts

    def operating_assign(self, action: dict) -> None:
        company, hex_ = action["entity"], action["target"]
        info = self.state.companies[company]
        self.post_token = (hex_, info["owner"])
        info["closed"] = True
        self.note(f"{info['owner']} puts the {company} +20 token on {hex_}; {company} closes")

    def assignments(self) -> list:
        if self.post_token is None:
            return []
        hex_, corp = self.post_token
        return [Assignment(hex_, self.data.POST_COMPANY, corp)]

    # ------------------------------------------------------------------ track and destinations
    def _lay_options(self, hexes, connected: dict | None) -> list[tuple[str, object]]:
        """The shared lays, and from phase 6 (gray tiles) the town upgrades."""
        out = super()._lay_options(hexes, connected)
        if "gray" not in self.state.phase.get("tiles", ()):
            return out
        board = self.state.board
        in_use = board.tiles_in_use()
        for hex_ in hexes:
            if hex_ not in board:
                continue
            placed = board.placed(hex_)
            if placed.preprinted or placed.tile.name not in self.data.TOWN_UPGRADES:
                continue
            edges = connected.get(hex_) if connected is not None else None
            for opt in self._town_options(hex_, placed):
                if in_use[opt.tile] >= board.tile_count(opt.tile):
                    continue
                if edges is not None and not opt.exits & edges:
                    continue
                out.append((hex_, opt))
        return out

    def _town_options(self, hex_: str, placed) -> tuple:
        """Every town upgrade of ``hex_``'s tile at every rotation, cached per tile and
        rotation: the shared tile checks less the colour step and the kept-paths rule (the
        tile check refuses a town upgrade, not knowing the phase); the old exits must stay
        (``step/track.rb`` ``old_paths_are_preserved`` in the gray phase)."""
        key = (hex_, placed.tile.name, placed.rotation)
        found = _TOWN_OPTIONS.get(key)
        if found is None:
            board, out = self.state.board, []
            old_exits = frozenset(placed.exits)
            for name in self.data.TOWN_UPGRADES[placed.tile.name]:
                if name not in board.manifest:
                    continue
                tile = board.manifest_tile(name)
                for rot in range(6):
                    exits = frozenset(tile.exits(rot))
                    if not old_exits <= exits or self._town_problems(hex_, tile, rot):
                        continue
                    out.append(LayOption(name, rot, exits, True, True, tile.color, frozenset()))
            found = _TOWN_OPTIONS[key] = tuple(out)
        return found

    def _town_problems(self, hex_: str, tile, rotation: int) -> list[str]:
        colour = f"tile {tile.name!r} ({tile.color}) cannot replace"
        return [
            p
            for p in self.state.tile_problems(hex_, tile, rotation)
            if not p.startswith((colour, "no tile", "phase ")) and "breaks the existing" not in p
        ]

    def tile_checked(self, action: dict) -> bool:
        """A town upgrade (legal: the legal list offered it) skips the shared tile check,
        which refuses it, not knowing the phase."""
        placed = self.state.board.placed(action["hex"])
        upgrade = not placed.preprinted and action["tile"] in self.data.TOWN_UPGRADES.get(
            placed.tile.name, ()
        )
        return not upgrade

    def operating_lay_tile(self, action: dict) -> None:
        super().operating_lay_tile(action)
        self.check_destinations()

    def check_destinations(self) -> None:
        for corp, goal in self.data.DESTINATIONS.items():
            if corp in self.destinated or self.state.operators[corp].closed:
                continue
            if self.cap_type(corp) != "escrow":
                continue
            home = self.state.operators[corp].home[0]
            if self.hexes_connected(home, goal):
                self.destinate(corp)

    def destinate(self, corp: str) -> None:
        self.destinated.add(corp)
        held = self.escrow.get(corp)
        if held:
            self.pay(BANK, corp, held, f"{corp} escrow released")
        self.escrow[corp] = None
        if self.cap.get(corp) == "escrow":
            self.cap[corp] = "incremental"
        self.note(f"-- {corp} reaches its destination; {held or 0} released from escrow --")

    def hexes_connected(self, start: str, goal: str) -> bool:
        """Is a city of ``start`` joined by track to ``goal`` (through anything but the
        other cities of ``start`` and terminal port paths)?  :func:`walk` from each city of
        ``start``, tokens blocking nothing, until it enters ``goal`` over a side with track
        there."""
        board = self.state.board
        cities = range(len(board.tile(start).cities))
        ports = set(self.data.PORT_HEXES)
        for first in cities:
            no_pass = ports.union((start, "city", c) for c in cities if c != first)
            found = walk(board, [(start, NodeRef("city", first))], pass_offboards=True,
                         no_pass=no_pass, turns="nodes", goal=(goal,))  # fmt: skip
            if found.done:
                return True
        return False

    # ------------------------------------------------------------------ tokens
    def next_token_price(self, op: str) -> int:
        if op == self.NATIONAL:
            return int(self.data.NATIONAL_TOKEN_PRICE)
        return super().next_token_price(op)

    def legal_token(self, op: str) -> list[dict]:
        acts = super().legal_token(op)
        if acts or not self.can_take_loan(op):
            return acts
        t = self.or_turn
        if t.tokened or self.tokens_left(op) <= 0:
            return []
        if self.next_token_price(op) > self.cash(op) + self.loan_amount(op):
            return []
        held = self._homes_held_for(op)
        if any(h not in held for h, _c in self.token_options(op)):
            # a loan would pay for a token: the step stays open (take_loan is offered)
            return [{"type": "pass", "entity": op, "auto": False}]
        return []

    # ------------------------------------------------------------------ borrowing
    def legal_borrow(self, op: str) -> list[dict]:
        if op != self.NATIONAL or self.national_permanent or self.state.trains_of(op):
            return []
        types = ("8", "D")
        cards = [c for c in self.state.depot_trains() if c.sym in types]
        if not cards:
            return []
        return [
            {"type": "borrow_train", "entity": op, "train": cards[0].id},
            {"type": "pass", "entity": op, "auto": False},
        ]

    def operating_borrow_train(self, action: dict) -> None:
        op, ident = action["entity"], action["train"]
        card = self.state.trains[ident]
        self.state._take(card)
        card.owner = op
        self.borrowed = ident
        self.operated_trains.discard(ident)
        self.or_turn.index += 1
        self.note(f"{op} borrows a {card.name} train")

    def return_borrowed(self) -> None:
        if self.borrowed is None:
            return
        card = self.state.trains[self.borrowed]
        self.borrowed = None
        if card.owner == self.NATIONAL:
            self.state.discard_train(self.NATIONAL, card.id)
            self.note(f"{self.NATIONAL} returns the borrowed {card.name} train")

    # ------------------------------------------------------------------ dividends
    def legal_dividend(self, op: str) -> list[dict]:
        if op == self.NATIONAL and not self.national_permanent:
            return []  # forced withhold
        if not self.or_turn.routes:
            return []  # no run: nothing to choose (even when interest took all of it)
        return [{"type": "dividend", "entity": op, "kind": k} for k in ("payout", "withhold")]

    def _dividend(self, op: str, kind: str) -> None:
        revenue = max(0, self.net_revenue(op))
        for card in self.state.trains_of(op):
            self.operated_trains.add(card.id)
        self.state.operators[op].operated = True
        if kind == "payout" and revenue > 0:
            self.pay_dividend(op, revenue)
            self.price_move(op, "right")
        else:
            self.pay(BANK, op, revenue, f"{op} withholds")
            self.price_move(op, "left")
        if self.state.operators[op].closed:
            return
        self.note(f"{op} {kind} {revenue}; price now {self.market.price(op)}")
        self.events.append(
            {
                "type": "dividend",
                "entity": op,
                "kind": kind,
                "revenue": revenue,
                "price": self.market.price(op),
            }
        )

    def pay_dividend(self, op: str, paid: int) -> None:
        """Per share rounded up per holder; market shares pay the corporation."""
        unit = self.unit(op)
        per_share = paid * unit / 100
        for holder in (*self.seats, POOL):
            n = self.shares.percent(op, holder) // unit
            if n:
                to = op if holder == POOL else holder
                self.pay(BANK, to, math.ceil(n * per_share), f"dividend of {op}")

    # ------------------------------------------------------------------ trains
    def train_limit(self, sym: str) -> int:
        limit = int(self.state.phase.get("train_limit", 99))
        if sym == self.NATIONAL:
            return limit + (99 if self.national_discarding or not self.national_formed else 1)
        return limit

    def must_buy(self, op: str) -> bool:
        if op == self.NATIONAL and not self.national_permanent:
            cash = self.cash(op)
            tradeable = any(self.state.rusts_on(t) for t in self.state.trains_of(op))
            return cash > 1100 or (tradeable and cash > 750)
        return super().must_buy(op)

    def legal_train(self, op: str) -> list[dict]:
        flags = self.or_turn.flags
        cash = self.cash(op)
        national = op == self.NATIONAL
        room = self.counted_trains(op) < self.train_limit(op)
        depot = [c for c in self.state.depot_trains() if not (national and self.state.rusts_on(c))]
        acts = []
        for card in depot:
            if card.sym in flags["bought_types"]:
                continue
            price = self._price(card)
            if room and price <= cash:
                acts.append(self._depot_buy(op, card, price))
            acts += self._trade_ins(op, card, cash)
        must = self.must_buy(op)
        pres = self.shares.president(op)
        if must and not acts and depot and pres is not None:
            # emergency (EBUY_FROM_OTHERS = :never): the cheapest bank train only
            card = min(depot, key=self._price)
            lo = self._price(card)
            if room and cash + self.cash(pres) >= lo and card.sym not in flags["bought_types"]:
                acts.append(self._depot_buy(op, card, lo))
            need = lo - cash - self.cash(pres)
            if need > 0:
                acts += self._sale_options(pres, op, need)
            if self._min_depot()[0] is not None and cash + self._liquidity(pres, op) < lo:
                acts.append({"type": "bankrupt", "entity": op})
            return acts
        if room:
            acts += self._other_trains(op, cash, 0)
        if acts and not must:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def _other_trains(self, op: str, cash: int, pres_cash: int) -> list[dict]:
        out = []
        for card in super()._other_trains(op, cash, pres_cash):
            train = self.state.trains[card["train"]]
            if train.id == self.borrowed:
                continue
            if self.NATIONAL in (op, train.owner):
                if op == self.NATIONAL and self.state.rusts_on(train):
                    continue
                face = self._price(train)
                if face > cash:
                    continue
                card.update(price=face, min_price=face, max_price=face)
            out.append(card)
        return out

    def operating_buy_train(self, action: dict) -> None:
        super().operating_buy_train(action)
        op = action["entity"]
        card = self.state.trains[action["train"]]
        if op == self.NATIONAL and card.owner == op and not self.state.rusts_on(card):
            self.national_bought_permanent()
        t = self.or_turn
        if t is not None and t.op == op and t.stage == "train" and not self.legal_train(op):
            # nothing more to buy: the train step ends now (``pass! unless can_buy_train?``),
            # before any forced discard the purchase caused
            t.index += 1
            self._stage_left(t, "train")

    def pending_discards(self) -> list[dict] | None:
        held: dict[str, int] = {}
        for card in self.state.trains.values():
            if not card.obsolete and card.owner in self.shares.by_corp:
                held[card.owner] = held.get(card.owner, 0) + 1
        for corp in sorted(held):
            if held[corp] > self.train_limit(corp):
                return [
                    {"type": "discard_train", "entity": corp, "train": t.id}
                    for t in self.state.trains_of(corp)
                    if not t.obsolete
                ]
        return None

    def pending_actions(self) -> list[dict] | None:
        player = self.crisis_player()
        if player is not None:
            return self.crisis_actions(player)
        if self.nationalizables:
            return self.nationalization_actions()
        if self.token_removal_pending():
            return self.token_removal_actions()
        if self.national_discarding:
            acts = self.national_discard_actions()
            if acts:
                return acts
        t = self.or_turn
        if t is not None and t.stage == "loan" and self.legal_loan(t.op):
            return None  # the loan step comes before forced discards (18xx.games step order)
        return super().pending_actions()

    def explain_operating(self, action: dict) -> str | None:
        kind, ent = action["type"], action.get("entity")
        t = self.or_turn
        if kind == "buy_train" and ent == self.NATIONAL and t is not None:
            card = self.state.trains.get(action.get("train"))
            if card is not None and self.state.rusts_on(card):
                return f"{ent} buys no train that rusts ({card.name} rusts on the first "
                f"{self.state.rusts_on(card)})"
        if kind == "dividend" and ent == self.NATIONAL and not self.national_permanent:
            return f"{ent} must withhold until it has owned a permanent train"
        return super().explain_operating(action)
