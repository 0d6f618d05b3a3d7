"""1812 trains: buying (§7.3.8), phases (§2), obsolescence, the supply and discards.

- For sale (§7.3.8): any train in the Bank Pool (its side was fixed when first bought, §1.1),
  or the cheapest new train in the Bank on either side; from Phase 5 also a 3D/2+2GD.  A
  company below its train limit buys at face value; it may surrender Stephenson's Engine
  Works (P6) for £40 off; in Phases 5 and 6 it may trade in a train for a quarter of its
  face value off a Bank or Bank Pool train, even at its limit (the traded train goes to the
  pool).  A trainless company must buy one if it can, taking the fewest loans that pay for a
  Bank or Bank Pool train (§7.2); trains from another company cost £1 up to the buyer's
  treasury and are offered between companies of one controller only (deals between players
  need consent).  Directors never add cash.
- Phases (§2) start on the first purchase of a 3, 4, 5 and 3D; at Phase 4 the 2/1Gs, at
  Phase 5 the 3/2Gs and at Phase 6 the 3+1/2+1Gs are discarded without compensation; at
  Phase 4 the minors' reserved spaces lapse (§7.3.3); at Phase 5 privates #1-#10 close.
- Supply (§7.3.8): unlimited 2/1G, 5/4+2G and 3D/2+2GD (a card is minted for each sale); just
  before the Stock Round after the first 2/1G was bought the unsold ones leave the game, and
  after the first 3/2G the unsold 3/2Gs become as many 3+1/2+1Gs.
- A limit lowered by a purchase (or a merger) makes companies discard the excess into the
  Bank Pool, the Director choosing, in operating order.
"""

from __future__ import annotations

from collections import Counter

from engine.game.base import BANK
from engine.game.state import DEPOT
from engine.games.g1812 import data
from engine.games.g1812 import economy_costs as costs
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.game_support import UNLIMITED

__all__ = ["TrainsMixin1812"]


class TrainsMixin1812:
    """Train stage, supply and phase events of :class:`~.game.Game1812`."""

    # ------------------------------------------------------------------ limits
    def train_limit(self, sym: str) -> int:
        kind = "minor" if self.kind_of(sym) == "minor" else "public"
        return costs.train_limit(self.state.phase_name, kind)

    def counted_trains(self, sym: str) -> int:
        return sum(1 for t in self.state.trains_of(sym) if not t.obsolete)

    # ------------------------------------------------------------------ supply
    def trains_for_sale(self) -> list:
        """The cheapest new train, a 3D from Phase 5, and one pool train per kind and side."""
        st = self.state
        out = []
        if st.depot:
            out.append(st.trains[st.depot[0]])
        if st.phase_reached("5"):
            extra = next((st.trains[i] for i in st.depot if st.trains[i].sym == "3D"), None)
            if extra is not None and extra not in out:
                out.append(extra)
        seen = set()
        for ident in st.discarded:
            card = st.trains[ident]
            if (card.sym, card.name) not in seen:
                seen.add((card.sym, card.name))
                out.append(card)
        return out

    def refresh_train_supply(self) -> None:
        """§7.3.8, just before a Stock Round: unsold 2/1Gs leave once one was bought; unsold
        3/2Gs become as many 3+1/2+1Gs once one was bought."""
        st = self.state
        if "2" in self.bought_types and "2" not in self.retired_trains:
            self.retired_trains.add("2")
            for ident in [i for i in st.depot if st.trains[i].sym == "2"]:
                st.rust(st.trains[ident])
            self.note("unsold 2/1G trains leave the game")
        if "3" in self.bought_types and "3" not in self.retired_trains:
            self.retired_trains.add("3")
            threes = [i for i in st.depot if st.trains[i].sym == "3"]
            for ident in threes:
                st.rust(st.trains[ident])
                self.mint_train("3+1")
            self.converted_threes += len(threes)
            if threes:
                self.note(f"{len(threes)} unsold 3/2G trains become 3+1/2+1G trains")

    # ------------------------------------------------------------------ legal purchases
    def _sides(self, card) -> list[tuple[str, int]]:
        if card.id in self.state.discarded:
            return [(card.name, costs.train_price(card.name))]
        spec = self.state.train_spec(card)
        return [(spec["name"], int(spec["price"]))] + [
            (v["name"], int(v["price"])) for v in spec.get("variants", [])
        ]

    def _discounts(self, op: str, have: int) -> list[tuple[str | None, bool, int]]:
        """(train traded in, Stephenson's surrendered, discount) choices for a Bank or
        Bank Pool train."""
        out = [(None, False, 0)]
        phase = self.state.phase_name
        if self.owns_private(op, ed.STEPHENSON) and phase not in ed.TRADE_IN_PHASES:
            out.append((None, True, ed.STEPHENSON_DISCOUNT))
        if phase in ed.TRADE_IN_PHASES:
            seen = set()
            for card in self.state.trains_of(op):
                if card.obsolete or card.name in seen:
                    continue
                seen.add(card.name)
                out.append((card.id, False, costs.trade_in_allowance(card.name, phase)))
        return out

    def legal_train(self, op: str) -> list[dict]:
        have = self.counted_trains(op)
        limit = self.train_limit(op)
        cash = self.cash(op)
        trainless = have == 0
        acts = []
        if have < limit or self.state.phase_name in ed.TRADE_IN_PHASES:
            discounts = self._discounts(op, have)
            for card in self.trains_for_sale():
                for name, face in self._sides(card):
                    for exchange, steph, off in discounts:
                        if have >= limit and exchange is None:
                            continue
                        price = max(face - off, 0)
                        loans = 0
                        if price > cash:
                            loans = self.loans_for(op, price) if trainless else None
                            if loans is None:
                                continue
                        acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                     "variant": name, "price": price, "exchange": exchange,
                                     "stephenson": steph, "loans": loans})  # fmt: skip
        if have < limit and cash >= 1:
            ctrl = self.controller(op)
            for other in self.operating_order():
                if other == op or self.controller(other) != ctrl:
                    continue
                for card in self.state.trains_of(other):
                    acts.append({"type": "buy_train", "entity": op, "train": card.id,
                                 "variant": card.name, "price": cash, "min_price": 1,
                                 "max_price": cash, "exchange": None, "stephenson": False,
                                 "loans": 0})  # fmt: skip
        if acts and not trainless:
            acts.append({"type": "pass", "entity": op})
        return acts

    # ------------------------------------------------------------------ processing
    def operating_buy_train(self, action: dict) -> None:
        op, ident = action["entity"], action["train"]
        st = self.state
        card = st.trains[ident]
        source = card.owner
        new = ident in st.depot
        self.take_loans(op, int(action.get("loans", 0)))
        if action.get("exchange"):
            st.discard_train(op, action["exchange"])
            self.note(f"{op} trades in {action['exchange']}")
        if action.get("stephenson"):
            st.companies[ed.STEPHENSON]["closed"] = True
            self.note(f"{op} surrenders {ed.STEPHENSON} for £{ed.STEPHENSON_DISCOUNT} off")
        price = int(action["price"])
        self.pay(op, BANK if source == DEPOT else source, price, f"train {ident}")
        before = st.phase_name
        st.buy_train(op, ident, action["variant"] if new else None, check=False)
        seller = "the Bank" if new else "the pool" if source == DEPOT else source
        self.note(f"{op} buys a {card.name} train for {price} from {seller}")
        self.events.append({"type": "train", "entity": op, "train": card.name, "price": price,
                            "from": source, "phase": st.phase_name})  # fmt: skip
        if new:
            self.bought_types.add(card.sym)
            if card.sym in UNLIMITED and card.sym not in self.retired_trains:
                self.mint_train(card.sym)
        for other in list(st.trains.values()):
            if other.obsolete and other.owner is not None:
                st.rust(other)
        if st.phase_name != before:
            self.phase_started(st.phase_name)

    def phase_started(self, phase: str) -> None:
        """Effects of a new phase (§2.2-§2.5) beyond limits and obsolescence."""
        st = self.state
        self.note(f"-- phase {phase} --")
        if phase == "4":
            # §7.3.3: minors' spaces are reserved only before Phase 4 (none may start now).
            for key in list(st.reservations):
                st.reservations[key] = [s for s in st.reservations[key]
                                        if s not in self.unsold_minors()]  # fmt: skip
        if phase == data.COMPANIES_CLOSE_PHASE:
            for sym in self.privates_in_play:
                if sym not in data.PERMANENT_COMPANIES:
                    st.companies[sym]["closed"] = True
            self.note("privates #1-#10 close (§2.4)")

    # ------------------------------------------------------------------ discards
    def pending_discards(self) -> list[dict] | None:
        """Companies over the train limit discard to the pool, in operating order."""
        held = Counter(t.owner for t in self.state.trains.values()
                       if t.owner is not None and not t.obsolete)  # fmt: skip
        if not any(n > self.train_limit(sym) for sym, n in held.items()
                   if sym in self.state.operators):  # fmt: skip
            return None
        for sym in self.operating_order():
            if self.counted_trains(sym) > self.train_limit(sym):
                return [{"type": "discard_train", "entity": sym, "train": t.id}
                        for t in self.state.trains_of(sym) if not t.obsolete]  # fmt: skip
        return None

    def pending_actions(self) -> list[dict] | None:
        return self.pending_discards()

    def operating_discard_train(self, action: dict) -> None:
        self.state.discard_train(action["entity"], action["train"])
        self.note(f"{action['entity']} discards {action['train']} to the pool")
