"""1862 USA/Canada (Ohley) rules engine: the initial stock round (private sales and bids).

Rulebook §Initial Stock Round (``shared/seeds/1862-usa-canada-ohley-rules.txt``), with the
pure rules of :mod:`.economy_initial`:

- in a turn a player buys the lowest-numbered unsold private at its printed price, bids on a
  later one (at least 5$ over the printed price or the highest bid; money on bids is
  earmarked), or passes;
- a player whose highest bid is overbid chooses at once to keep the bid (``pass``) or to
  withdraw it (``withdraw_bid``);
- once a private is bought, the next one goes to its only bidder at the bid, or to an
  auction among its bidders (from the bidder left of the highest, clockwise, raising by at
  least 5$ or passing), or is offered at its printed price;
- when every player passed in a row: certificate 1 is offered to each next player 5$
  cheaper, and the one offered it at 0$ must take it; any other certificate on sale ends
  the round (an operating round paying only the privates' revenue follows, then another
  initial stock round);
- after the last private is sold the round goes on as a stock round without sales
  (:mod:`engine.game.stock`, ``initial`` flag);
- privates bring shares (PSC, FNY, SOC: held aside until their company is parred; NYSH:
  the NYH president's share, whose par its buyer sets at once).

Simplifications (legal but restricted): the current high bidder does not raise his own
bid; during the reduced offers of certificate 1 the player offered it only buys or passes.
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.games.g1862 import economy_data as ed
from engine.games.g1862 import economy_initial as ei

__all__ = ["InitialRoundMixin"]


class InitialRoundMixin:
    """The initial stock round of :class:`engine.games.g1862.game.Game1862`."""

    # ------------------------------------------------------------------ state
    def privates_unsold(self) -> list[str]:
        return [s for s in ei.private_order() if self.state.companies[s]["owner"] is None]

    def start_initial_round(self) -> None:
        entities = [p for p in self.players if p not in self.bankrupt]
        self.round = type(self.round)("initial", entities, 0, 1, {
            "passes": 0, "offers": 0, "offer": False, "auction": None, "pending": [],
            "resume": None, "over": False, "last_actor": None,
        })  # fmt: skip
        self.note(f"-- initial stock round {self.turn} --")

    def _free_cash(self, player: str) -> int:
        return ei.free_cash(self.cash(player), player, self.bids)

    def _room_for(self, player: str, sym: str) -> bool:
        """The private and the shares it brings fit under the certificate limit."""
        return self.num_certs(player) + 1 + len(ei.private_grants(sym)) <= self.cert_limit(player)

    # ------------------------------------------------------------------ legal actions
    def legal_other_round(self) -> list[dict]:
        data = self.round.data
        if data["pending"]:
            return self._pending_initial(data["pending"][0])
        auction = data["auction"]
        if auction is not None:
            p = auction.to_act
            acts = []
            top = self._free_cash(p) + self.bids.get(auction.sym, {}).get(p, 0)
            low = auction.high + ed.BID_STEP
            if top >= low:
                acts.append({"type": "bid", "entity": p, "company": auction.sym, "price": low,
                             "min_price": low, "max_price": top})  # fmt: skip
            acts.append({"type": "pass", "entity": p})
            return acts
        p = self.round.current
        on_sale = self.privates_unsold()[0]
        if data["offer"]:
            price = ei.offer_price(on_sale, data["offers"])
            acts = []
            if price <= self._free_cash(p):
                acts.append({"type": "bid", "entity": p, "company": on_sale, "price": price})
            if price > 0 or not acts:
                acts.append({"type": "pass", "entity": p, "auto": False})
            return acts
        acts = []
        price = int(self.state.companies[on_sale]["spec"]["value"])
        free = self._free_cash(p)
        if price <= free and self._room_for(p, on_sale):
            acts.append({"type": "bid", "entity": p, "company": on_sale, "price": price})
        for sym in self.privates_unsold()[1:]:
            on = self.bids.get(sym, {})
            if on and max(on.values()) == on.get(p):
                continue  # the high bidder does not raise himself
            low = ei.minimum_bid(sym, on)
            top = free + on.get(p, 0)
            if low <= top and self._room_for(p, sym):
                acts.append({"type": "bid", "entity": p, "company": sym, "price": low,
                             "min_price": low, "max_price": top})  # fmt: skip
        acts.append({"type": "pass", "entity": p, "auto": False})
        return acts

    def _pending_initial(self, item: tuple) -> list[dict]:
        kind, player, subject = item
        if kind == "par":
            return [{"type": "par", "entity": player, "corporation": subject, "share_price": v}
                    for v in sorted(ed.PAR_ROWS)]  # fmt: skip
        # an overbid player keeps (pass) or withdraws his bid
        return [{"type": "pass", "entity": player, "auto": False},
                {"type": "withdraw_bid", "entity": player, "company": subject}]  # fmt: skip

    def other_round_finished(self) -> bool:
        return self.round.data["over"]

    # ------------------------------------------------------------------ processing
    def initial_bid(self, action: dict) -> None:
        p, sym, price = action["entity"], action["company"], int(action["price"])
        data = self.round.data
        auction = data["auction"]
        if auction is not None:
            top = self._free_cash(p) + self.bids.get(sym, {}).get(p, 0)
            data["auction"] = ei.auction_bid(auction, p, price, top)
            self.note(f"{p} bids {price} for {sym}")
            self._after_auction_step()
            return
        data["passes"] = 0
        data["last_actor"] = p
        if sym == self.privates_unsold()[0]:
            data["offer"] = False
            data["offers"] = 0
            self._next_initial_player()
            self._sell_private(p, sym, price)
            self._resolve_next()
            return
        on = self.bids.setdefault(sym, {})
        leader = max(on, key=on.__getitem__) if on else None
        on[p] = price
        self.note(f"{p} bids {price} for {sym}")
        self._next_initial_player()
        if leader is not None and leader != p:
            data["pending"].append(("withdraw", leader, sym))

    def initial_withdraw_bid(self, action: dict) -> None:
        p, sym = action["entity"], action["company"]
        self.bids.get(sym, {}).pop(p, None)
        if not self.bids.get(sym):
            self.bids.pop(sym, None)
        self.round.data["pending"].pop(0)
        self.note(f"{p} withdraws the bid on {sym}")

    def initial_par(self, action: dict) -> None:
        """NYSH's buyer sets NYH's par; he holds the president's share already."""
        p, corp, price = action["entity"], action["corporation"], int(action["share_price"])
        self.round.data["pending"].pop(0)
        self.create_shares(corp)
        self.market.par_at(corp, price)
        self.shares.par(corp, p)
        self.note(f"{p} sets {corp}'s par at {price}")
        self.after_par(corp, p, price)
        self.after_share_change(corp)
        self._maybe_stock_mode()

    def initial_pass(self, action: dict) -> None:
        data = self.round.data
        if data["pending"]:
            data["pending"].pop(0)  # the overbid player keeps his bid
            return
        auction = data["auction"]
        if auction is not None:
            data["auction"] = ei.auction_pass(auction, action["entity"])
            self._after_auction_step()
            return
        if data["offer"]:
            data["offers"] += 1
            self._next_initial_player()
            return
        data["passes"] += 1
        self._next_initial_player()
        if data["passes"] >= len(self.round.entities):
            if self.privates_unsold()[0] == ei.private_order()[0]:
                data["offer"] = True
                data["offers"] = 1
                self.note(f"{ei.private_order()[0]} is offered 5$ cheaper")
            else:
                data["over"] = True

    def _next_initial_player(self) -> None:
        r = self.round
        r.index = (r.index + 1) % len(r.entities)

    def _sell_private(self, player: str, sym: str, price: int) -> None:
        """``player`` pays the bank and takes ``sym`` with the shares it brings."""
        self.pay(player, BANK, price, f"private {sym}")
        self.state.companies[sym]["owner"] = player
        self.bids.pop(sym, None)
        self.note(f"{player} buys {sym} for {price}")
        for corp, percent, president in ei.private_grants(sym):
            if president:
                self.round.data["pending"].insert(0, ("par", player, corp))
            else:
                self.granted.setdefault(corp, []).append((player, percent))

    def _resolve_next(self) -> None:
        """The next certificate goes to its only bidder, to an auction, or on sale."""
        data = self.round.data
        while data["auction"] is None:
            unsold = self.privates_unsold()
            if not unsold:
                break
            sym = unsold[0]
            kind, leader, amount = ei.resolve_offer(self.bids.get(sym, {}))
            if kind == "offer":
                break
            if kind == "sold":
                self._sell_private(leader, sym, amount)
                continue
            seats = [p for p in self.seats if p not in self.bankrupt]
            data["auction"] = ei.start_auction(sym, self.bids[sym], seats)
            self.note(f"auction of {sym} among {', '.join(sorted(self.bids[sym]))}")
        self._maybe_stock_mode()

    def _after_auction_step(self) -> None:
        data = self.round.data
        auction = data["auction"]
        if not auction.done:
            return
        data["auction"] = None
        self._sell_private(auction.leader, auction.sym, auction.high)
        self._resolve_next()

    def _maybe_stock_mode(self) -> None:
        """All privates sold: the round goes on as a stock round without sales."""
        data = self.round.data
        if self.privates_unsold() or data["pending"] or data["auction"] is not None:
            return
        if self.round.kind != "initial":
            return
        r = self.round
        self.round = type(r)("stock", r.entities, r.index, 1, {
            "sold": {p: set() for p in r.entities}, "passed": set(), "last_passer": None,
            "initial": True,
        })  # fmt: skip
        self._new_stock_turn()
        self.note("-- all privates sold: the initial stock round goes on with shares --")

    def end_other_round(self) -> None:
        """Privates left unsold: an operating round of private revenue, then another
        initial stock round (priority to the player left of the last one who acted)."""
        r = self.round
        last = r.data["last_actor"]
        if last is not None and last in r.entities:
            nxt = r.entities[(r.entities.index(last) + 1) % len(r.entities)]
            i = self.players.index(nxt)
            self.players = self.players[i:] + self.players[:i]
        self.note(f"{self.players[0]} has priority")
        self.start_operating_round(1)
