"""The 1836Jr-56 national (the MESS, 1856's CGR): loans called in, mergers, formation.

Facts from tobymao/18xx @111f7f69 (MIT) ``g_1856/game.rb`` (``event_nationalization!``,
``corporations_repay_loans``, ``nationalizable_corporations``, ``merge_major``,
``nationalization_president_payoff``, ``post_corp_nationalization``,
``calculate_national_price``, ``national_share_swap``, ``national_token_swap``,
``national_bought_permanent``), ``g_1856/step/nationalization_payoff.rb`` and
``g_1856/step/discard_train.rb``; ``g_1836_jr56/game.rb`` names the national (``MESS``):

- the first 6-train calls the loans in: every started corporation repays what its treasury
  can (100 a loan); each one still owing, in seat order from the president of the 6-train's
  buyer (then operating order), is merged into the national, or its president pays the rest
  out of his own cash (he may not sell shares for it, so only when he has it);
- a merged corporation hands the national its trains and cash, its loans are cancelled, its
  station tokens come off the map; the national forms once every decision is made (if nothing
  merged it never forms);
- its price: the merged corporations' prices at merging (the lowest dropped when more than
  two), averaged, times 0.2 rounded down, times 5; 100 below 105, 110 up to 115, else the
  nearest multiple of 25; its token goes on that price in the market's top row;
- the share exchange: in seat order from the trigger, each player gets one national share
  per 20% he held of the merged corporations (odd 10% to the market, whose holdings become one
  share per 20%), 20 shares at most; with more than 10 shares handed out the national has
  twenty 5% shares (president's certificate 10%), else ten 10% shares; the player with the
  most (first in that order on a tie) becomes president;
- a "false" president (the most shares any player receives is one) holds half the
  president's certificate (one share); the other half is reserved in the IPO until he buys it
  up as his first action of the next stock round (``false_national_president``, see
  :mod:`~engine.games.g1836jr56.game_stock`);
- the tokens (``national_token_swap``, ``step/remove_tokens.rb``): the merged corporations'
  homes become national tokens, then their other tokens outside the home hexes (one per
  city); when a hex then holds two national tokens, or there are more than ten, the
  national's president chooses which to remove (``remove_token``: a hex's duplicates first,
  then any token outside the home hexes down to ten); the national has ten tokens and buys
  more placements at 100;
- it operates straight after the current corporation when none of the merged ones has run
  in this round, else from the next round; it may first discard trains that rust and must
  come down to three trains, its limit from then on (the phase's two plus one);
- until it owns a permanent train it withholds, its price does not move and it may borrow a
  train when it has none; its price never reaches a closing cell; loans end and no interest
  is due from its formation on.

Readings are listed in docs/TITLE_DATA.md ("1836Jr-56 rules coverage").
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.shares import POOL, Certificate
from engine.games.g1836jr30.game_stock import HOLDING_LIMIT
from engine.games.g1836jr56.national_rules import national_awards, national_price

__all__ = ["NationalMixin56"]

#: Share units the national hands out at most (``max_national_shares``).
MAX_NATIONAL_SHARES = 20
#: Station tokens of the national (``national_token_limit``).
NATIONAL_TOKENS = 10


class NationalMixin56:
    """The national of :class:`~engine.games.g1836jr56.game.Game1836Jr56`."""

    # ------------------------------------------------------------------ the event
    def start_nationalization(self, card) -> None:
        buyer = card.owner
        self.nat_trigger = self.shares.president(buyer) if buyer in self.shares.by_corp else None
        value = int(self.data.LOAN_VALUE)
        for corp in self.live_corporations():
            if corp == self.NATIONAL or corp not in self.started or not self.loans[corp]:
                continue
            repaid = min(self.loans[corp], self.cash(corp) // value)
            if repaid:
                self.pay(corp, BANK, repaid * value, f"{corp} repays loans")
                self.loans[corp] -= repaid
                self.note(f"{corp} repays {repaid} loans")
        seats = self._seats_from(self.nat_trigger)
        order = self.round.entities if self.round.kind == "operating" else []

        def key(corp: str) -> tuple[int, int]:
            pres = self.shares.president(corp)
            pos = order.index(corp) if corp in order else len(order)
            return (seats.index(pres) if pres in seats else len(seats), pos)

        self.nationalizables = sorted(
            (
                c
                for c in self.live_corporations()
                if c != self.NATIONAL and c in self.started and self.loans[c] > 0
            ),
            key=key,
        )
        self.note(f"-- {self.NATIONAL}: merge candidates {self.nationalizables or 'none'} --")
        if not self.nationalizables:
            self.note(f"{self.NATIONAL} does not form (no corporation owes a loan)")

    def _seats_from(self, player: str | None) -> list[str]:
        if player not in self.seats:
            return list(self.seats)
        i = self.seats.index(player)
        return self.seats[i:] + self.seats[:i]

    def nationalization_actions(self) -> list[dict]:
        corp = self.nationalizables[0]
        acts = [{"type": "merge", "entity": corp, "corporation": corp}]
        owed = int(self.data.LOAN_VALUE) * self.loans[corp] - self.cash(corp)
        pres = self.shares.president(corp)
        if pres is not None and self.cash(pres) >= owed:
            acts.append({"type": "pass", "entity": corp, "price": owed})
        return acts

    def operating_merge(self, action: dict) -> None:
        major = action["corporation"]
        self.national_formed = True
        nat = self.NATIONAL
        for card in self.state.trains_of(major):
            if not self.state.rusts_on(card):
                self.national_bought_permanent()
            card.owner = nat
        self.pay(major, nat, self.cash(major), f"{major} merges into {nat}")
        self.loans[major] = 0
        home = self.state.operators[major].home
        places = sorted(self.state.tokens_of(major), key=lambda hc: hc[0] not in home)
        self.nat_places.append(places)
        self.state.remove_tokens(major)
        for p in self.seats:
            pct = self.shares.percent(major, p)
            if pct:
                self.pre_percent[p] = self.pre_percent.get(p, 0) + pct
        self.pre_market += self.shares.percent(major, POOL)
        self.pre_prices.append(self.share_price(major))
        self.nationalized.append(major)
        self.nationalizables.pop(0)
        self.note(f"-- {major} merges into {nat} --")
        self._after_decision()

    def payoff_nationalizable(self, corp: str) -> None:
        owed = int(self.data.LOAN_VALUE) * self.loans[corp] - self.cash(corp)
        pres = self.shares.president(corp)
        self.pay(corp, BANK, self.cash(corp), f"{corp} pays its loans")
        self.pay(pres, BANK, owed, f"{pres} pays {corp}'s loans")
        self.loans[corp] = 0
        self.nationalizables.pop(0)
        self.note(f"{pres} pays {owed} to clear {corp}'s loans")
        self._after_decision()

    def _after_decision(self) -> None:
        if self.nationalizables:
            return
        if not self.national_formed:
            self.note(f"{self.NATIONAL} does not form")
            return
        self.form_national()

    # ------------------------------------------------------------------ formation
    def national_price(self) -> int:
        return national_price(list(self.pre_prices))

    def form_national(self) -> None:
        nat = self.NATIONAL
        price = self.national_price()
        seats = self._seats_from(self.nat_trigger)
        president, false_pres, market_count, left = national_awards(
            seats, self.pre_percent, self.pre_market, MAX_NATIONAL_SHARES
        )
        twenty = left < 10
        self.shares.add_corporation(nat, 10 if twenty else 20, 5 if twenty else 10)
        col = self.market.grid.find(price, row=0)[1]
        self.market.grid.set_par(nat, 0, col, check_par=False)
        self.start(nat)
        self.state.operators[nat].home_placed = True
        self.note(f"-- {nat} forms at {price} with {20 if twenty else 10} shares --")
        self._hand_out(seats, president, false_pres, market_count)
        self._national_tokens()
        for major in self.nationalized:
            self.close_corporation(major, f"merged into {nat}")
        self._insert_national()
        self.post_nationalization = True
        self.national_discarding = True
        if not self.national_discard_actions():
            self.done_discarding()

    def _hand_out(self, seats, president, false_pres: bool, market_count: int) -> None:
        nat = self.NATIONAL
        reg = self.shares
        given = 1
        for p in seats:
            n = self.pre_percent.get(p, 0) // 20
            if n <= 0:
                continue
            if p == president:
                reg.par(nat, p)
                n -= 2
                if false_pres:
                    # half the certificate (one share); the other half waits in the IPO
                    # until he buys it up (``national_share_swap``)
                    pres = reg.president_cert(nat)
                    pres.percent //= 2
                    cid = f"{nat}_{len(reg.by_corp[nat])}"
                    half = Certificate(cid, nat, pres.percent, False, nat)
                    reg.by_corp[nat].append(half)
                    reg.certs[half.id] = half
                    reg.move([half.id], nat)
                    self.reserved_cert = half.id
                    self.false_president = p
                    self.note(
                        f"{p} is {nat}'s president with one share: he must buy the other half "
                        "of the president's certificate in the next stock round"
                    )
                    n += 1
            while n > 0 and given < MAX_NATIONAL_SHARES - 1:
                ipo = self.national_ipo()
                if not ipo:
                    break
                reg.move([ipo[-1].id], p)
                n -= 1
                given += 1
        if market_count:
            ipo = self.national_ipo()
            reg.move([c.id for c in ipo[len(ipo) - min(market_count, len(ipo)) :]], POOL)
        reg.check_president(nat)
        for p in self.seats:
            if reg.percent(nat, p) > HOLDING_LIMIT:
                self.over_limit.add(nat)
        for p in self.seats:
            if reg.percent(nat, p):
                self.note(f"{p} receives {reg.percent(nat, p)}% of {nat}")

    def national_ipo(self) -> list:
        """The national's IPO certificates for sale (not the half of a false president's
        certificate that waits there for him)."""
        return [c for c in self.shares.ordinary(self.NATIONAL, self.NATIONAL)
                if c.id != self.reserved_cert]  # fmt: skip

    # ------------------------------------------------------------------ tokens
    def _national_tokens(self) -> None:
        """``national_token_swap``: homes, then the other tokens outside the home hexes (one
        per city); duplicates in a hex and tokens beyond ten wait for the president's
        choice (:meth:`token_removal_actions`)."""
        nat = self.NATIONAL
        self.token_adjust[nat] = NATIONAL_TOKENS
        board = self.state.board
        homes = [
            places[0]
            for major, places in zip(self.nationalized, self.nat_places, strict=True)
            if places and places[0][0] in self.state.operators[major].home
        ]
        home_hexes = {h for h, _c in homes}
        candidates = list(homes)
        for places in self.nat_places:
            for place in places:
                if place[0] not in home_hexes and place not in candidates:
                    candidates.append(place)
        candidates = [(h, c) for h, c in candidates if c < len(board.tile(h).cities)]
        per_hex: dict[str, int] = {}
        for h, _c in candidates:
            per_hex[h] = per_hex.get(h, 0) + 1
        dups = [h for h, n in per_hex.items() if n > 1]
        keep = max(len(homes), NATIONAL_TOKENS)
        excess = len(candidates) - keep if len(candidates) - len(dups) > keep else 0
        self.nat_tokens = candidates
        self.nat_dups = dups
        self.nat_excess = excess
        self.nat_free_hexes = {h for h, _c in candidates} - home_hexes
        if dups:
            self.note(f"-- {nat}'s president removes a token from each of {', '.join(dups)} --")
        if excess:
            self.note(f"-- {nat} would hold {len(candidates)} tokens: its president removes "
                      f"{excess} --")  # fmt: skip
        if not self.token_removal_pending():
            self._place_national_tokens()

    def token_removal_pending(self) -> bool:
        return bool(self.nat_dups or self.nat_excess)

    def token_removal_actions(self) -> list[dict]:
        """``step/remove_tokens.rb``: one of the first duplicate hex's tokens, then any token
        outside the home hexes; the removed tokens are off the map until the choice is
        made (the national holds at most one token per hex)."""
        hexes = self.nat_dups[:1] if self.nat_dups else self.nat_free_hexes
        return [
            {"type": "remove_token", "entity": self.NATIONAL, "hex": h, "city": c}
            for h, c in self.nat_tokens
            if h in hexes
        ]

    def operating_remove_token(self, action: dict) -> None:
        place = (action["hex"], int(action["city"]))
        self.nat_tokens.remove(place)
        if self.nat_dups:
            self.nat_dups.pop(0)
        if self.nat_excess:
            self.nat_excess -= 1
        self.note(f"{self.NATIONAL} removes its token in {place[0]} (city {place[1]})")
        if not self.token_removal_pending():
            self._place_national_tokens()

    def _place_national_tokens(self) -> None:
        nat = self.NATIONAL
        for hex_, city in self.nat_tokens:
            self.state.place_token(hex_, city, nat, check=False)
        self.note(f"{nat} has {len(self.nat_tokens)} tokens on the map")
        self.nat_tokens = []

    def _insert_national(self) -> None:
        """Runs next if none of the merged corporations has run this round."""
        r = self.round
        if r.kind != "operating" or self.or_turn is None:
            return
        current = self.or_turn.op
        if current not in r.entities or self.state.operators[current].closed:
            return
        merged = [r.entities.index(m) for m in self.nationalized if m in r.entities]
        if merged and r.entities.index(current) < min(merged):
            r.entities.insert(r.entities.index(current) + 1, self.NATIONAL)

    # ------------------------------------------------------------------ trains
    def national_bought_permanent(self) -> None:
        if not self.national_permanent:
            self.national_permanent = True
            self.note(f"{self.NATIONAL} owns a permanent train: it may pay out and move")

    def national_discard_actions(self) -> list[dict]:
        nat = self.NATIONAL
        trains = self.state.trains_of(nat)
        rusting = [t for t in trains if self.state.rusts_on(t)]
        permanent = [t for t in trains if not self.state.rusts_on(t)]
        can = rusting + (permanent if len(permanent) > 3 else [])
        acts = [{"type": "discard_train", "entity": nat, "train": t.id} for t in can]
        if acts and len(trains) <= 3:
            acts.append({"type": "pass", "entity": nat})
        return acts

    def operating_discard_train(self, action: dict) -> None:
        super().operating_discard_train(action)
        mine = self.national_discarding and action["entity"] == self.NATIONAL
        if mine and not self.national_discard_actions():
            self.done_discarding()

    def done_discarding(self) -> None:
        self.national_discarding = False
        self.note(f"{self.NATIONAL}'s train limit is now {self.train_limit(self.NATIONAL)}")

    def explain_national(self, action: dict) -> str | None:
        kind, ent = action.get("type"), action.get("entity")
        if kind == "merge":
            if not self.nationalizables:
                return "corporations merge into the national only when the first 6-train is sold"
            return f"{self.nationalizables[0]} decides now"
        if kind == "remove_token":
            if not self.token_removal_pending():
                return "the national removes tokens only when it forms with too many"
            hexes = sorted({a["hex"] for a in self.token_removal_actions()})
            return f"{self.NATIONAL} removes one of its tokens in {', '.join(hexes)}"
        if kind == "pass" and self.nationalizables and ent == self.nationalizables[0]:
            owed = int(self.data.LOAN_VALUE) * self.loans[ent] - self.cash(ent)
            return f"{ent}'s president lacks the {owed} to clear its loans: it must merge"
        return None
