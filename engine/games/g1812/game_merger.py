"""1812 Merger Rounds (§8): convert, merge, take over; stations, the share offer, discards.

From Phase 3 a Merger Round follows each Operating Round.  Each minor, in operating order
(fixed when the round starts), may:

- ``convert`` (§8.2): price at least £100; the new public company starts four spaces down
  and takes the minor's station marker; the owner gets the Director's Certificate and one
  share (even past the certificate limit);
- ``merge`` (§8.3): the acting minor gathers two to six minors, one ``merge`` action per
  minor added.  Each added minor must be reachable from the acting minor's station by track
  (the merging minors' markers do not block, §8.3; reachability from the acting minor is no
  restriction, since with the merging markers open every member reaches every other); at
  most four from one player; then ``form`` names the public company.  Price, shares and
  the half-share upgrades/downgrades are :func:`.merger.merge`;
- ``takeover`` (§8.5): a connected public company with a treasury share gives it to the
  owner for the minor and its assets, optionally putting its own spare marker where the
  minor's stood;
- ``pass``.

Every other player involved must ``accept`` (or ``decline``) a merger or take-over (§8.1);
a minor whose proposal was declined makes no other proposal that round (it may still convert
or pass), so a round always ends.  A merger's Director ``choose``-s
the two markers (in different hexes) the new company keeps (§8.3).  All minors' assets
(cash, trains, privates, loans) pass to the public company (§8.4), which may exceed its loan
limit (§8.3, §8.5).  Then the share offer (§8.4): each shareholder from the Director on, in
Player Order, may buy any number of treasury shares at the new price in one purchase; then,
while shares remain, every player one share, from the (possibly new) Director on; never past
60% or the certificate limit.  Trains over the limit are discarded, the Director choosing.
"""

from __future__ import annotations

from collections import Counter

from engine.game.base import BANK
from engine.game.errors import IllegalAction
from engine.game.track import reach
from engine.games.g1812 import economy_data as ed
from engine.games.g1812 import merger as mg

__all__ = ["MergerMixin1812"]


class MergerMixin1812:
    """Merger Round of :class:`~.game.Game1812` (see the module docstring)."""

    # ------------------------------------------------------------------ round
    def start_merger_round(self, num: int) -> None:
        minors = [m for m in self.operating_order() if self.kind_of(m) == "minor"]
        self.round = type(self.round)("merger", minors, 0, num, {
            "proposal": None, "declined": set(), "step": None,
        })  # fmt: skip
        self.note(f"-- merger round {self.turn}.{num} --")

    def merger_round_finished(self) -> bool:
        r = self.round
        return (r.index >= len(r.entities) and r.data["step"] is None
                and self.pending_discards() is None)  # fmt: skip

    def skip_merger_round(self) -> None:
        r = self.round
        r.data["proposal"] = None
        r.index += 1

    def legal_merger_round(self) -> list[dict]:
        discards = self.pending_discards()
        if discards is not None:
            return discards
        r = self.round
        step = r.data["step"]
        if step is not None:
            return getattr(self, f"_legal_{step['kind']}")(step)
        if r.index >= len(r.entities):
            return []
        m = r.current
        if not self.alive(m):
            return []
        return self._minor_options(m)

    # ------------------------------------------------------------------ choices of a minor
    def _minor_options(self, m: str) -> list[dict]:
        d = self.round.data
        proposal = d["proposal"]
        acts = []
        corps = self.free_publics()
        declined = m in d["declined"]
        if proposal is None:
            if self.market.price(m) >= ed.CONVERT_MIN_PRICE:
                acts += [{"type": "convert", "entity": m, "corporation": c} for c in corps]
            if not declined:
                acts += self._takeover_options(m)
        if not declined:
            members = proposal or [m]
            acts += [{"type": "merge", "entity": m, "minor": x}
                     for x in self._merge_candidates(m, members)]  # fmt: skip
            if len(members) >= ed.MERGE_MIN_MINORS and corps and self._formation(members):
                acts += [{"type": "form", "entity": m, "corporation": c} for c in corps]
        return acts + [{"type": "pass", "entity": m}]

    def _home(self, minor: str) -> tuple[str, int] | None:
        spots = self.state.tokens_of(minor)
        return spots[0] if spots else None

    def _reach_open(self, start: str, members: list[str]):
        """``start``'s network with the markers of ``members`` not blocking (§8.3)."""
        tokens = {k: [s for s in v if s == start or s not in members]
                  for k, v in self.state.tokens.items()}  # fmt: skip
        return reach(self.state.board, tokens, start)

    def _merge_candidates(self, m: str, members: list[str]) -> list[str]:
        if len(members) >= ed.MERGE_MAX_MINORS:
            return []
        owners = Counter(self.minor_owner[x] for x in members)
        live = self.live_minors()
        # Reach only grows as markers open, so the walk with every minor open bounds it.
        widest = self._reach_open(m, live).cities
        out = []
        for x in live:
            if x in members or owners[self.minor_owner[x]] >= ed.MERGE_MAX_PER_PLAYER:
                continue
            home = self._home(x)
            if home is None or home not in widest:
                continue
            if home in self._reach_open(m, [*members, x]).cities:
                out.append(x)
        return out

    def _minor_facts(self, members: list[str]) -> list[mg.Minor]:
        order = [x for x in self.operating_order() if x in members]
        return [mg.Minor(name=x, owner=self.minor_owner[x], price=self.market.price(x),
                         cash=self.cash(x), loans=self.loans.get(x, 0))
                for x in order]  # fmt: skip

    def _formation(self, members: list[str]) -> mg.Formation | None:
        minors = self._minor_facts(members)
        try:
            if len(minors) == 1:
                return mg.convert(minors[0], self.state.phase_name)
            cash = {x.owner: self.cash(x.owner) for x in minors}
            return mg.merge(minors, cash, self.state.phase_name)
        except mg.RuleViolation:
            return None

    def _takeover_options(self, m: str) -> list[dict]:
        """§8.5: a public company with a treasury share whose marker ``m`` reaches."""
        home = self._home(m)
        if home is None:
            return []
        cities = self.network(m).cities
        acts = []
        for corp in self.live_corporations():
            if not self.shares.ordinary(corp, corp):
                continue
            spots = {k for k, v in self.state.tokens.items() if corp in v}
            if not spots & cities:
                continue
            acts.append({"type": "takeover", "entity": m, "corporation": corp, "token": False})
            mine = {h for h, _ in spots}
            if self.tokens_left(corp) > 0 and home[0] not in mine:
                acts.append({"type": "takeover", "entity": m, "corporation": corp,
                             "token": True})  # fmt: skip
        return acts

    # ------------------------------------------------------------------ minor actions
    def merger_discard_train(self, action: dict) -> None:
        self.operating_discard_train(action)

    def merger_pass(self, action: dict) -> None:
        step = self.round.data["step"]
        if step is not None and step["kind"] == "offer":
            return self._offer_next(step)
        self.skip_merger_round()

    def merger_merge(self, action: dict) -> None:
        d = self.round.data
        d["proposal"] = (d["proposal"] or [action["entity"]]) + [action["minor"]]
        self.note(f"{action['entity']} proposes a merger with {', '.join(d['proposal'][1:])}")

    def merger_convert(self, action: dict) -> None:
        self._propose({"kind": "form", "corp": action["corporation"], "minors": [action["entity"]]})

    def merger_form(self, action: dict) -> None:
        members = list(self.round.data["proposal"])
        self._propose({"kind": "form", "corp": action["corporation"], "minors": members})

    def merger_takeover(self, action: dict) -> None:
        m, corp = action["entity"], action["corporation"]
        self._propose({"kind": "takeover", "corp": corp, "minors": [m],
                       "token": bool(action["token"])})  # fmt: skip

    def _propose(self, deal: dict) -> None:
        lead = self.minor_owner[deal["minors"][0]]
        others = {self.minor_owner[x] for x in deal["minors"]} - {lead}
        if deal["kind"] == "takeover":
            others |= {self.controller(deal["corp"])} - {lead}
        waiting = [p for p in self.players if p in others]
        if waiting:
            self.round.data["step"] = {"kind": "consent", "deal": deal, "waiting": waiting}
            return
        self._carry_out(deal)

    def _legal_consent(self, step: dict) -> list[dict]:
        p = step["waiting"][0]
        return [{"type": "accept", "entity": p}, {"type": "decline", "entity": p}]

    def merger_accept(self, action: dict) -> None:
        step = self.round.data["step"]
        step["waiting"].pop(0)
        if not step["waiting"]:
            self.round.data["step"] = None
            self._carry_out(step["deal"])

    def merger_decline(self, action: dict) -> None:
        d = self.round.data
        deal = d["step"]["deal"]
        d["step"] = None
        d["proposal"] = None
        d["declined"].add(self.round.current)
        self.note(f"{action['entity']} declines the {deal['kind']} of {', '.join(deal['minors'])}")

    def _carry_out(self, deal: dict) -> None:
        if deal["kind"] == "takeover":
            self._take_over(deal["minors"][0], deal["corp"], deal["token"])
            self.skip_merger_round()
        else:
            self._form(deal["corp"], deal["minors"])

    # ------------------------------------------------------------------ formation (§8.2-8.4)
    def _absorb(self, corp: str, minor: str) -> None:
        """A minor's cash, trains, privates and loans pass to ``corp``; the minor closes."""
        st = self.state
        self.pay(minor, corp, self.cash(minor), f"{minor} treasury to {corp}")
        for card in st.trains_of(minor):
            card.owner = corp
        for info in st.companies.values():
            if info["owner"] == minor:
                info["owner"] = corp
        loans = self.loans.pop(minor, 0)
        if loans:
            self.loans[corp] = self.loans.get(corp, 0) + loans
            if self.loans[corp] > ed.LOAN_LIMIT["public"]:
                self.loan_cap[corp] = max(self.loan_cap.get(corp, 0), self.loans[corp])
        self.market.remove(minor)
        self.minor_owner.pop(minor, None)
        st.close_operator(minor)

    def _note_exchange(self, corp: str) -> None:
        for p in self.seats:
            pct = self.shares.percent(corp, p)
            if pct > ed.MAX_BUY_PERCENT:
                key = (p, corp)
                self.exchange_cap[key] = max(self.exchange_cap.get(key, 0), pct)

    def _form(self, corp: str, members: list[str]) -> None:
        f = self._formation(members)
        if f is None or corp not in self.free_publics():
            raise IllegalAction(f"the formation of {corp} from {members} is no longer possible")
        homes = {x: self._home(x) for x in members}
        order = [m.name for m in self._minor_facts(members)]
        self.open_public(corp)
        self.shares.par(corp, f.director)
        for player, n in f.shares.items():
            n -= 2 if player == f.director else 0
            self.shares.move([c.id for c in self.shares.ordinary(corp, corp)[:n]], player)
        for payer, payee, amount in f.payments:
            if payee == mg.COMPANY:
                self.pay(payer, corp, amount, f"upgrade to a full {corp} share")
            else:
                self.pay(BANK, payee, amount, f"half {corp} share sold back")
        self.market.place_at(corp, f.price)
        for x in order:
            self._absorb(corp, x)
        self._note_exchange(corp)
        how = "converts into" if len(members) == 1 else "merge into"
        self.note(f"{', '.join(order)} {how} {corp} at {f.price}; director {f.director}")
        self.round.data["proposal"] = None
        # one minor per distinct marker space (two minors may share a green city)
        reps = list({homes[x]: x for x in reversed(order) if homes[x]}.values())[::-1]
        pairs = [[a, b] for i, a in enumerate(reps) for b in reps[i + 1:]
                 if homes[a][0] != homes[b][0]]  # fmt: skip
        choices = pairs or [[x] for x in reps] or [[]]
        step = {"kind": "stations", "corp": corp, "homes": homes, "choices": choices}
        if len(choices) == 1:
            self._keep_stations(step, choices[0])
        else:
            self.round.data["step"] = step

    def _legal_stations(self, step: dict) -> list[dict]:
        director = self.shares.president(step["corp"])
        return [{"type": "choose", "entity": director, "keep": keep} for keep in step["choices"]]

    def merger_choose(self, action: dict) -> None:
        self._keep_stations(self.round.data["step"], list(action["keep"]))

    def _keep_stations(self, step: dict, keep: list[str]) -> None:
        corp = step["corp"]
        for x in keep:
            hex_, city = step["homes"][x]
            self.state.place_token(hex_, city, corp, check=False)
        self._start_offer(corp)

    # ------------------------------------------------------------------ share offer (§8.4)
    def _start_offer(self, corp: str) -> None:
        director = self.shares.president(corp)
        k = self.players.index(director)
        rotated = self.players[k:] + self.players[:k]
        holders = [p for p in rotated if self.shares.percent(corp, p)]
        self.round.data["step"] = {"kind": "offer", "corp": corp, "phase": 1,
                                   "queue": holders}  # fmt: skip
        self._offer_skip_empty()

    def _offer_limit(self, corp: str, player: str, one: bool) -> int:
        n = mg.offer_limit(
            shares_held=self.shares.percent(corp, player) // 10,
            certificates=self.num_certs(player),
            n_players=len(self.seats),
            treasury_shares=len(self.shares.ordinary(corp, corp)),
            cash=self.cash(player),
            price=self.market.price(corp),
        )
        return min(n, 1) if one else n

    def _legal_offer(self, step: dict) -> list[dict]:
        corp, p = step["corp"], step["queue"][0]
        price = self.market.price(corp)
        n = self._offer_limit(corp, p, step["phase"] == 2)
        acts = [{"type": "buy_shares", "entity": p, "corporation": corp, "source": "treasury",
                 "percent": 10 * k, "price": k * price} for k in range(1, n + 1)]  # fmt: skip
        return acts + [{"type": "pass", "entity": p}]

    def merger_buy_shares(self, action: dict) -> None:
        step = self.round.data["step"]
        corp, p, k = step["corp"], action["entity"], int(action["percent"]) // 10
        self.pay(p, corp, int(action["price"]), f"{k} new {corp} share(s)")
        for cert in self.shares.ordinary(corp, corp)[:k]:
            self.shares.buy(p, cert.id)
        self.note(f"{p} buys {k} {corp} share(s) for {action['price']}")
        self._offer_next(step)

    def _offer_next(self, step: dict) -> None:
        step["queue"].pop(0)
        self._offer_skip_empty()

    def _offer_skip_empty(self) -> None:
        step = self.round.data["step"]
        corp = step["corp"]
        while True:
            if not self.shares.ordinary(corp, corp):
                step["queue"] = []
            if step["queue"]:
                return
            if step["phase"] == 1 and self.shares.ordinary(corp, corp):
                director = self.shares.president(corp)
                k = self.players.index(director)
                step.update(phase=2, queue=self.players[k:] + self.players[:k])
                continue
            self.round.data["step"] = None
            self.round.data["proposal"] = None
            if not self.alive(self.round.current):
                self.round.index += 1
            return

    # ------------------------------------------------------------------ take-over (§8.5)
    def _take_over(self, m: str, corp: str, token: bool) -> None:
        owner = self.minor_owner[m]
        home = self._home(m)
        cert = self.shares.ordinary(corp, corp)[0]
        self._absorb(corp, m)
        self.shares.buy(owner, cert.id)
        self._note_exchange(corp)
        if token and self.tokens_left(corp) > 0:
            self.state.place_token(home[0], home[1], corp, check=False)
        self.note(f"{corp} takes over {m}; {owner} receives a {corp} share")
