"""1842 starting round, private and predecessor railways: start, auction, liquidation,
transformation and surrender.

Rules (``../shared/seeds/1842-schleswig-holstein-rules.txt``, sections as printed), with
the step functions and readings of :mod:`.economy_minors`:

- starting round (5): every player secretly chooses a company of the starting package
  (here: the ``bid`` actions of the players in seat order, the choices hidden only in
  spirit); single choices are sold first, then contested ones, displaced choosers picking
  among unselected companies (:func:`.economy_minors.starting_round_next`); the banker is
  the last seat (a GUESS: the rulebook names no seat);
- a company bought (3.1, 3.2): the buyer pays the face value, the company gets it less
  100 M and a 2-train, its station and its building tokens (and markers);
- auction among corporations (3.1.4.1): from the green phase each private's owner is
  asked at the start of an OR (``offer`` or ``pass``); after the first 5-train every
  remaining private carries a sale marker and is auctioned at the start of the next OR;
  bids start at the private's treasury and rise by at least 10 M (our reading of "raised
  by 10 Mark"), up to the bidder's money plus its HAV certificates; a pass is final; the
  winner pays the owner (selling HAV certificates if it must), takes treasury and trains
  (surplus trains to the pool, the director choosing) and replaces the private's station
  with its exchange token; unused building tokens go to the box; nobody bids:
  liquidation (3.1.4.2: station removed, 40 M demolition charge, the rest to the owner,
  trains to the pool);
- transformation of GEE -> HMBG and SSE -> SE (3.2 a at a stock round's end, 3.2 b at the
  first 5-train): :func:`transform`;
- surrender of a predecessor in a forced train purchase (3.3.5.1 step 5): the owner gets
  the face value of the successor's director certificate; the bank runs the company (runs
  its trains, keeps all revenue) until a player buys it back at that price.
"""

from __future__ import annotations

from dataclasses import replace

from engine.game.base import BANK
from engine.game.errors import IllegalAction
from engine.games.g1842 import economy_data as ed
from engine.games.g1842 import economy_minors as em
from engine.games.g1842 import economy_ops as eo
from engine.games.g1842.game_shares import POOL

__all__ = ["MinorsMixin1842"]

HAV = ed.HAV
PACKAGE = ed.STARTING_PACKAGE
_SPEC = {m["sym"]: m for m in ed.MINORS}
_PREDECESSOR = {succ: pred for pred, succ in ed.SUCCESSOR.items()}


class MinorsMixin1842:
    """Starting package, private and predecessor railways of :class:`Game1842`."""

    # ------------------------------------------------------------------ starting round
    def start_starting_round(self) -> None:
        self.round = type(self.round)("start", list(self.seats), 0, 1, {"choices": {}})
        self.start_sr: em.StartingRound | None = None
        self.note("-- starting round --")

    def legal_other_round(self) -> list[dict]:
        if self.start_sr is None:
            p = self.round.current
            return [{"type": "bid", "entity": p, "company": c,
                     "price": int(_SPEC[c]["value"])} for c in PACKAGE]  # fmt: skip
        pending = em.starting_round_next(self.start_sr)
        if pending is None:
            return []
        return [{"type": "bid", "entity": pending.player, "company": c,
                 "price": int(_SPEC[c]["value"])} for c in pending.options]  # fmt: skip

    def start_bid(self, action: dict) -> None:
        p, company = action["entity"], action["company"]
        r = self.round
        if self.start_sr is None:
            r.data["choices"][p] = company
            r.index += 1
            if len(r.data["choices"]) == len(self.seats):
                banker = self.seats[-1]
                self.start_sr = em.starting_round(r.data["choices"], self.seats, banker)
                self.note("choices: " + ", ".join(f"{q} {c}" for q, c in r.data["choices"].items()))
                self._resolve_starting_round()
            return
        self.start_sr = em.starting_round_buy(self.start_sr, p, company)
        self.buy_minor(p, company, int(_SPEC[company]["value"]))
        self._resolve_starting_round()

    def _resolve_starting_round(self) -> None:
        """Carry out the purchases that leave no choice."""
        while (pending := em.starting_round_next(self.start_sr)) is not None:
            if len(pending.options) > 1:
                return
            company = pending.options[0] if pending.options else None
            self.start_sr = em.starting_round_buy(self.start_sr, pending.player, company)
            if company is not None:
                self.buy_minor(pending.player, company, int(_SPEC[company]["value"]))

    def other_round_finished(self) -> bool:
        return self.start_sr is not None and em.starting_round_next(self.start_sr) is None

    def end_other_round(self) -> None:
        """The first stock round starts left of the last buyer; with six players the player
        without a company starts and buys the AKE director certificate (5, 5.1, 6.1)."""
        first, ake = em.first_stock_round_start(self.start_sr)
        i = self.seats.index(first)
        self.players = self.seats[i:] + self.seats[:i]
        self.ake_forced = first if ake else None
        self.start_stock_round()

    def buy_minor(self, player: str, minor: str, price: int) -> None:
        """``player`` buys a package company: charter, 2-train, price - 100 M, station,
        building tokens and markers (3.1, 3.2)."""
        start = em.minor_start(minor, price)
        self.pay(player, BANK, price, f"{minor} bought")
        self.minor_owner[minor] = player
        op = self.state.operators[minor]
        op.floated = True
        state = self.state
        two = next((i for i in (*state.depot, *state.discarded)
                    if state.trains[i].sym == start.train), None)  # fmt: skip
        if two is None:  # none left (sold in the first SR's ORs): its value in cash instead
            self.pay(BANK, minor, price, f"{minor} treasury (no 2-train left)")
        else:
            self.pay(BANK, minor, start.treasury, f"{minor} treasury")
            state._take(state.trains[two])
            state.trains[two].owner = minor
        self.state.board_version += 1
        self.state.place_home(minor)
        self.building[minor] = start.building_tokens
        self.markers[minor] = set(start.markers)
        self.note(f"{player} buys {minor} for {price}")

    # ------------------------------------------------------------------ queries
    def minor_open(self, minor: str) -> bool:
        return self.minor_owner.get(minor) is not None or minor in self.bank_managed

    def is_minor(self, sym: str) -> bool:
        return sym in _SPEC

    def minor_train_limit(self, minor: str) -> int:
        return min(int(_SPEC[minor]["train_limit"]), int(self.state.phase["train_limit"]))

    def _close_minor(self, minor: str, tokens_to_box: bool = True) -> None:
        """The company leaves: tokens off the map, building tokens to the box."""
        if tokens_to_box:
            self.box_tokens += self.building.get(minor, 0)
        self.building[minor] = 0
        self.markers[minor] = set()
        if self.cash(minor):
            raise AssertionError(f"{minor} closes with cash")  # callers empty it first
        self.state.board_version += 1
        self.state.close_operator(minor)
        self.minor_owner[minor] = None
        self.bank_managed.discard(minor)

    # ------------------------------------------------------------------ OR start: offers
    def build_or_queue(self) -> None:
        """Offers and auctions at the start of an OR (7.1 steps 1-2, 3.1.4.1)."""
        self.or_queue: list[list] = []
        if self.package_or:
            return
        forced = [m for m in ed.PRIVATES if m in self.sale_marker and self.minor_open(m)]
        if forced:
            self.or_queue = [["auction", m, None] for m in forced]
        elif eo.phase_colour(self.state.phase_name) != "yellow":
            self.or_queue = [["offer", m, None] for m in ed.PRIVATES
                             if self.minor_owner.get(m) is not None]  # fmt: skip

    def _settle_queue(self) -> None:
        """Open auctions, finish those nobody can bid in any more, drop stale entries."""
        while self.or_queue:
            kind, minor, auction = self.or_queue[0]
            if not self.minor_open(minor) or (
                kind == "offer" and self.minor_owner.get(minor) in self.bankrupt
            ):
                self.or_queue.pop(0)
                continue
            if kind == "offer":
                return
            if auction is None:
                self.or_queue[0][2] = auction = self._open_auction(minor)
            while auction.turn is not None and (
                auction.caps[auction.order.index(auction.turn)] < em.auction_min_bid(auction)
            ):  # a bidder who cannot reach the minimum is out
                auction = self.or_queue[0][2] = em.auction_pass(auction, auction.turn)
            if auction.turn is not None:
                return
            self.or_queue.pop(0)
            self._finish_auction(minor, auction)

    def or_queue_actions(self) -> list[dict] | None:
        """The head of the queue (settled by :meth:`_settle_queue`): an offer or a bid."""
        if not self.or_queue:
            return None
        kind, minor, auction = self.or_queue[0]
        if kind == "offer":
            return [{"type": "offer", "entity": minor}, {"type": "pass", "entity": minor}]
        corp = auction.turn
        cap = auction.caps[auction.order.index(corp)]
        low = em.auction_min_bid(auction)
        return [{"type": "bid", "entity": corp, "company": minor, "price": low,
                 "min_price": low, "max_price": cap},
                {"type": "pass", "entity": corp}]  # fmt: skip

    def auction_cap(self, corp: str) -> int:
        """Money plus the HAV certificates the pool can take at the HAV's value (3.1.4.1)."""
        return self.cash(corp) + self._hav_sale_value(corp, self.cash(corp) + 10**9)[1]

    def _open_auction(self, minor: str):
        order = [c for c in self.operating_order() if c in self.corp_syms and c != HAV
                 and c not in ("UEE", "FKE") and not self.receivership(c)]  # fmt: skip
        bidders = [(c, self.auction_cap(c)) for c in order]
        auction = em.auction_start(minor, self.cash(minor), bidders)
        self.note(f"auction of {minor}: minimum {self.cash(minor)}, bidders "
                  f"{', '.join(auction.active) or 'none'}")  # fmt: skip
        return auction

    def _head(self, minor: str):
        if not self.or_queue or self.or_queue[0][1] != minor:
            raise IllegalAction(f"{minor} is not being offered or auctioned now")
        return self.or_queue[0]

    def operating_offer(self, action: dict) -> None:
        head = self._head(action["entity"])
        head[0] = "auction"
        self.note(f"{self.minor_owner[head[1]]} offers {head[1]} for sale")
        self._settle_queue()

    def operating_bid(self, action: dict) -> None:
        corp, minor, price = action["entity"], action["company"], int(action["price"])
        head = self._head(minor)
        auction = head[2]
        turn = _next_turn(auction.order, auction.active, corp, corp)
        head[2] = replace(auction, bid=price, leader=corp, turn=turn)
        self.note(f"{corp} bids {price} for {minor}")
        self._settle_queue()

    def pending_pass(self, action: dict) -> bool:
        """A pass in an offer or an auction (True when it was one)."""
        if not self.or_queue:
            return False
        kind, minor, auction = self.or_queue[0]
        ent = action["entity"]
        if kind == "offer" and ent == minor:
            self.or_queue.pop(0)
            self._settle_queue()
            return True
        if kind == "auction" and auction is not None and ent == auction.turn:
            self.or_queue[0][2] = em.auction_pass(auction, ent)
            self._settle_queue()
            return True
        return False

    def _finish_auction(self, minor: str, auction) -> None:
        result = em.auction_result(auction)
        if result is None:
            self.liquidate(minor)
            return
        corp, price = result
        owner = self.minor_owner[minor]
        if self.cash(corp) < price:
            self.sell_hav_for(corp, price - self.cash(corp))
        self.pay(corp, owner, price, f"{minor} bought")
        self.pay(minor, corp, self.cash(minor), f"{minor} treasury")
        for card in self.state.trains_of(minor):
            card.owner = corp
        places = self.state.tokens_of(minor)
        self._close_minor(minor)
        self._replace_station(places, corp)
        self.note(f"{corp} buys {minor} from {owner} for {price}")

    def _replace_station(self, places: list, corp: str) -> None:
        """The private's station becomes the corporation's exchange token (3.1.4.1, 7.3);
        with no exchange token left, or a station of its own in the hex, it just goes."""
        for hex_, city in places:
            mine = any(corp in syms for (h, _c), syms in self.state.tokens.items() if h == hex_)
            if mine or self.exchange_left(corp) <= 0:
                continue
            if self.state.city_room(hex_, city, corp) is not None:
                continue
            self.state.place_token(hex_, city, corp, check=False)
            self.exchange_used[corp] = self.exchange_used.get(corp, 0) + 1

    def exchange_left(self, corp: str) -> int:
        return int(self.entity_spec(corp).get("exchange", 0)) - self.exchange_used.get(corp, 0)

    def liquidate(self, minor: str) -> int:
        """3.1.4.2: station off, 40 M charge (the owner pays what the treasury lacks, as far
        as his cash goes), the rest to the owner, trains to the pool.  Returns the owner's
        gain."""
        owner = self.minor_owner[minor]
        treasury = self.cash(minor)
        charge = min(treasury, ed.DEMOLITION_CHARGE)
        self.pay(minor, BANK, charge, f"{minor} demolition")
        short = ed.DEMOLITION_CHARGE - charge
        if short and owner is not None:
            self.pay(owner, BANK, min(short, self.cash(owner)), f"{minor} demolition")
        gain = self.cash(minor)
        self.pay(minor, owner if owner is not None else BANK, gain, f"{minor} liquidated")
        for card in self.state.trains_of(minor):
            self.state.discard_train(minor, card.id)
        self._close_minor(minor)
        self.note(f"{minor} is liquidated ({owner} receives {gain})")
        return gain - short

    # ------------------------------------------------------------------ transformation
    def transform(self, successor: str, forced: bool) -> None:
        """GEE -> HMBG, SSE -> SE (3.2 a at a stock round's end; b at the first 5-train)."""
        pred = _PREDECESSOR[successor]
        owner = self.minor_owner.get(pred)
        book = self.shares
        book.adopt(successor, self.pre)
        director = book.president_cert(successor)
        director.owner = owner if owner is not None else POOL
        book.presidents[successor] = owner
        op = self.state.operators[successor]
        op.floated = True
        self.pay(pred, successor, self.cash(pred), f"{pred} treasury")
        self.pay(BANK, successor, ed.SUCCESSOR_CAPITAL_MULTIPLE * ed.FACE_VALUE[successor],
                 f"{successor} starts")  # fmt: skip
        for card in self.state.trains_of(pred):
            card.owner = successor
        self._close_minor(pred)
        self.state.board_version += 1
        self.state.place_home(successor)
        self.token_used[successor] = 1
        self.market.start(successor)
        if forced:
            ipo = [c for c in book.offering(successor)]
            _kept, moved = em.reduce_ipo_to_half([c.percent for c in ipo])
            out = []
            for pct in moved:  # the stack's top first (em.reduce_ipo_to_half)
                cert = next(c for c in ipo if c.percent == pct and c not in out)
                out.append(cert)
            for cert in out:
                cert.owner = POOL
            if out:  # 3.2 b.8: treated as a sale; b.9: it does not operate this OR (it
                # is not in this round's order, fixed at the start)
                self.market.sale(successor, sum(c.percent for c in out))
        else:
            book.check_president(successor)
        self._after_gain_all(successor)
        self.note(f"{pred} becomes {successor} ({'forced' if forced else 'at 50%'}), "
                  f"director {book.president(successor)}")  # fmt: skip

    def _after_gain_all(self, corp: str) -> None:
        for p in self.seats:
            self._after_gain(p, corp)

    def first_five_bought(self) -> None:
        """3.1.4, 3.2 b: sale markers on the privates; predecessors transform now."""
        self.first_five = True
        for m in ed.PRIVATES:
            if self.minor_open(m):
                self.sale_marker.add(m)
        for pred, succ in ed.SUCCESSOR.items():
            if self.minor_open(pred) and succ in self.pre.by_corp:
                self.transform(succ, forced=True)

    # ------------------------------------------------------------------ surrender
    def surrender(self, pred: str) -> int:
        """3.3.5.1 step 5: the predecessor goes to the bank for the face value of the
        successor's director certificate; the bank runs it until bought back."""
        owner = self.minor_owner[pred]
        value = eo.predecessor_surrender_value(ed.SUCCESSOR[pred])
        self.pay(BANK, owner, value, f"{pred} surrendered")
        self.minor_owner[pred] = None
        self.bank_managed.add(pred)
        self.markers[pred] = set()
        self.note(f"{owner} gives {pred} to the bank for {value}")
        return value

    def buy_back_price(self, pred: str) -> int:
        return eo.predecessor_surrender_value(ed.SUCCESSOR[pred])


def _next_turn(order, active, after: str, leader: str | None) -> str | None:
    """The next active bidder after ``after`` in the operating order, not the leader."""
    i = order.index(after)
    for k in range(1, len(order) + 1):
        p = order[(i + k) % len(order)]
        if p in active and p != leader:
            return p
    return None
