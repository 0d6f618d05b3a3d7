"""1812 rules engine: a whole game from the private auction to the final scores.

The seed rulebook (``../shared/seeds/1812-rules.txt``, v1.0a) is the oracle; facts the
seed leaves out (the stock-market cells, private companies #5-#12, train counts) come from
:mod:`.data`/:mod:`.economy_data`, which cite tobymao/18xx @111f7f69 ``g_1812``.  The
economic arithmetic is the tested pure functions of :mod:`.economy`, :mod:`.economy_costs`,
:mod:`.auction` and :mod:`.merger`; this package strings them into rounds on the shared
engine (:mod:`engine.game`):

- setup (§3.1, §14.1): £8,000 in the bank, £195 a player, twice the player number of
  privates drawn at random, all ten minors (option ``remove_some_minors``: §10, 2n + 2 at
  random for 2-3 players), one reserved station space per minor until Phase 4 (§7.3.3);
- the initial private auction and the Stock Round with minor auctions, share trading and
  public companies started from Phase 4 (:mod:`.game_stock`, §3.2, §6);
- Operating Rounds (:mod:`.game_ops`, §7): private income, minors then publics by price,
  redeem shares, track (two operations, loans), station markers, the optimiser's revenue,
  dividends, interest, loan repayment, trains (:mod:`.game_trains`: loans, trade-in,
  Stephenson's Engine Works, phases, obsolescence, discards);
- Merger Rounds from Phase 3 (:mod:`.game_merger`, §8): convert, merge, take over, the
  station choice and the share offer;
- the end (§9): the bank runs out of money (it issues IOUs: it may go negative), the game
  ends after the Operating Round in progress or the next one; each company moves one space
  down per loan; players score cash, shares, privates at face value and minors at twice
  their price.  "All players lose" (§9 last paragraph) ends the game as ``all_lose``.

Simplifications (all keep play legal; see docs/TITLE_DATA.md "1812 rules engine"): deals
between different players need their consent, so companies buy privates and trains only
from their own controller; merger and take-over proposals ask every other party (an
``accept``/``decline`` action) and a declined minor makes no second proposal that round;
bids are listed at a few amounts but any multiple of £5 in range is accepted.
"""

from __future__ import annotations

import random

from engine.game.base import BANK, BaseGame
from engine.game.errors import IllegalAction
from engine.game.ledger import InsufficientCash, Ledger
from engine.game.shares import POOL
from engine.game.state import DEPOT, TrainCard
from engine.games import g1812 as _package
from engine.games.g1812 import data
from engine.games.g1812 import economy as eco
from engine.games.g1812 import economy_costs as costs
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.game_merger import MergerMixin1812
from engine.games.g1812.game_ops import OperatingMixin1812
from engine.games.g1812.game_stock import StockMixin1812
from engine.games.g1812.game_support import (
    TRAIN_ORDER,
    UNLIMITED,
    DataView,
    check_1812,
)
from engine.games.g1812.game_trains import TrainsMixin1812
from engine.games.g1812.market import Market1812

__all__ = ["Game1812", "new_game", "check_1812"]

#: Action fields that identify an action (prices within a range and derived costs aside).
_KEYS: dict[str, tuple[str, ...]] = {
    "bid": ("entity", "company"),
    "pass": ("entity",),
    "par": ("entity", "corporation", "share_price"),
    "buy_shares": ("entity", "corporation", "source", "percent"),
    "sell_shares": ("entity", "corporation", "percent"),
    "lay_tile": ("entity", "hex", "tile", "rotation", "company"),
    "place_token": ("entity", "hex", "city"),
    "run_routes": ("entity",),
    "dividend": ("entity", "kind"),
    "buy_train": ("entity", "train", "variant", "exchange", "stephenson"),
    "discard_train": ("entity", "train"),
    "buy_company": ("entity", "company"),
    "convert": ("entity", "corporation"),
    "merge": ("entity", "minor"),
    "form": ("entity", "corporation"),
    "takeover": ("entity", "corporation", "token"),
    "accept": ("entity",),
    "decline": ("entity",),
    "choose": ("entity", "keep"),
}

_OPTIONS = ("remove_some_minors",)


def _freeze(value):
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _key(action: dict) -> tuple:
    kind = action.get("type")
    fields = _KEYS.get(kind, ("entity",))
    out = [kind]
    for f in fields:
        v = action.get(f)
        if f == "stephenson":
            v = bool(v)
        out.append(_freeze(v))
    return tuple(out)


class Game1812(StockMixin1812, TrainsMixin1812, OperatingMixin1812, MergerMixin1812, BaseGame):
    """1812 for 2-4 players (see the module docstring)."""

    TITLE = "1812"
    DEFINITION = _package.TITLE
    MIN_PLAYERS, MAX_PLAYERS = ed.PLAYER_RANGE
    MARKET_SHARE_LIMIT = ed.POOL_LIMIT_PERCENT
    MAX_OWNERSHIP = ed.MAX_BUY_PERCENT
    CERT_LIMIT_INCLUDES_PRIVATES = True
    #: The bank's end is timed by :meth:`next_round` (§9); nothing ends the game at once.
    GAME_END: dict[str, str] = {}
    OPERATING_STAGES = ("redeem", "track", "token", "route", "dividend", "interest", "repay",
                        "train")  # fmt: skip
    MINOR_STAGES = ("track", "route", "dividend", "interest", "repay", "train")
    #: The rulebook has no turn limit: a table that can only collect private income waits
    #: for the bank to run out (§9).  This is a safety net only.
    MAX_TURNS = 1000

    # ------------------------------------------------------------------ setup
    def _entity_symbols(self) -> set[str]:
        """Symbols that may act: companies, the bank and the pool.  Privates never act
        (a free lay names its private in ``company``), so players may be called ``P1``."""
        return {e["sym"] for e in (*data.CORPORATIONS, *data.MINORS)} | {BANK, POOL}

    def setup(self) -> None:
        n = len(self.seats)
        unknown = [o for o in self.options if o not in _OPTIONS]
        if unknown:
            raise ValueError(f"unknown 1812 option {unknown[0]!r} (known: {', '.join(_OPTIONS)})")
        self.rng = random.Random(self.seed)
        self.view = DataView(n)
        self.data = self.view
        self.state.data = self.view
        self.ledger = Ledger({BANK: ed.BANK_CASH}, {BANK}, keep_history=False)
        for p in self.seats:
            self.ledger.open(p)
            self.pay(BANK, p, ed.STARTING_CASH[n], "starting capital")
        for sym in self.state.operators:
            self.ledger.open(sym)
        self.market = Market1812()
        self.shares.players = list(self.players)
        self.loans: dict[str, int] = {}
        #: Loans a company holds beyond its limit because a merger or take-over brought them.
        self.loan_cap: dict[str, int] = {}
        #: (player, public) -> holding reached by exchanging minors (may pass 60%, §4.1).
        self.exchange_cap: dict[tuple[str, str], int] = {}
        self.minor_owner: dict[str, str] = {}
        self.ability_uses: dict[str, int] = {}
        self.bought_types: set[str] = set()
        minors = [m["sym"] for m in data.MINORS]
        if "remove_some_minors" in self.options:
            if n not in ed.MINORS_IN_PLAY_VARIANT:
                raise ValueError("option remove_some_minors is for 2 or 3 players (§10)")
            keep = set(self.rng.sample(minors, ed.MINORS_IN_PLAY_VARIANT[n]))
            for sym in minors:
                if sym not in keep:
                    self.state.operators[sym].removed = True
            minors = [m for m in minors if m in keep]
        self.minors_in_play = minors
        # one reserved space per minor in play (§1.4.2, §7.3.3), whatever the board lists
        res = self.state.reservations
        for key in list(res):
            res[key] = [s for s in res[key] if s not in {m["sym"] for m in data.MINORS}]
        for m in data.MINORS:
            if m["sym"] in minors:
                res.setdefault((m["coordinates"], int(m["city"])), []).append(m["sym"])
        self._init_trains()
        self._draw_privates()
        self.start_private_auction(0)

    def _draw_privates(self) -> None:
        """Twice the player number of privates, at random (§3.1)."""
        chosen = set(costs.select_privates(self.rng, len(self.seats)))
        for sym, info in self.state.companies.items():
            info["closed"] = sym not in chosen
        self.privates_in_play = [c["sym"] for c in data.COMPANIES if c["sym"] in chosen]
        self.note(f"privates in play: {', '.join(self.privates_in_play)}")

    def _init_trains(self) -> None:
        """Cards per §14.1; one card of each unlimited kind, minted again on each sale."""
        st = self.state
        st.trains.clear()
        st.depot.clear()
        st.discarded.clear()
        self.train_counts = {name: 0 for name in TRAIN_ORDER}
        self.retired_trains: set[str] = set()
        self.converted_threes = 0
        n = len(self.seats)
        for spec in data.TRAINS:
            name = spec["name"]
            if name in UNLIMITED:
                self.mint_train(name)
            elif name != "3+1":
                for _ in range(spec["num"][n]):
                    self.mint_train(name)

    def mint_train(self, name: str) -> TrainCard:
        """A new card of ``name`` in the Bank, in sale order."""
        st = self.state
        serial = self.train_counts[name]
        spec = next(t for t in data.TRAINS if t["name"] == name)
        card = TrainCard(f"{name}-{serial}", name, name, TRAIN_ORDER.index(name) * 1000 + serial,
                         DEPOT, False, [], spec.get("available_on"))  # fmt: skip
        st.trains[card.id] = card
        st.depot.append(card.id)
        st.depot.sort(key=lambda i: st.trains[i].order)
        self.train_counts[name] = serial + 1
        self.view.set_count(name, serial + 1)
        # engine.game.invariants caches the manifest per game; an unlimited kind grows it
        manifest = self.__dict__.get("_train_manifest")
        if manifest is not None:
            manifest[name] = serial + 1
        return card

    # ------------------------------------------------------------------ money
    def pay(self, source: str, target: str, amount: int, reason: str = "") -> None:
        """Move money; the bank has run out once it pays its last pound (§9)."""
        if amount <= 0:
            return
        if source == BANK and not self.bank_broken and self.ledger.cash(BANK) - amount <= 0:
            self.bank_broken = True
            self.note("the bank has run out of money (IOUs from now on)")
        try:
            self.ledger.pay(source, target, amount, reason)
        except InsufficientCash as exc:
            raise IllegalAction(str(exc)) from None

    # ------------------------------------------------------------------ companies
    def kind_of(self, sym: str) -> str:
        """``"minor"`` or ``"public"``."""
        return "minor" if self.state.operators[sym].kind == "minor" else "public"

    def alive(self, sym: str) -> bool:
        """A running minor (owned) or a public company in play."""
        op = self.state.operators.get(sym)
        if op is None or op.closed:
            return False
        if op.kind == "minor":
            return sym in self.minor_owner
        return sym in self.shares.by_corp

    def live_minors(self) -> list[str]:
        return [m for m in self.minors_in_play if self.alive(m)]

    def controller(self, sym: str) -> str | None:
        """The player deciding for a minor (its owner) or a public (its Director)."""
        if sym in self.minor_owner:
            return self.minor_owner[sym]
        return self.shares.president(sym) if sym in self.shares.by_corp else None

    def acting_player(self, entity: str | None = None) -> str | None:
        entity = entity if entity is not None else self.current_entity
        if entity in self.seats or entity is None:
            return entity
        if entity in self.state.operators:
            return self.controller(entity)
        info = self.state.companies.get(entity)
        if info is not None:
            owner = info["owner"]
            return owner if owner in self.seats or owner is None else self.controller(owner)
        return None

    def cert_limit(self, player: str) -> int:
        return eco.cert_limit(len(self.seats))

    def num_certs(self, player: str) -> int:
        """Privates, minor charters and share certificates each count one (§4.1)."""
        count = len(self.shares.certs_of(player))
        count += sum(1 for o in self.minor_owner.values() if o == player)
        count += sum(1 for info in self.state.companies.values()
                     if info["owner"] == player and not info["closed"])  # fmt: skip
        return count

    def holding_limit(self, corp: str) -> int:
        """The largest holding allowed now: 60%, or more reached by exchanges (§4.1, §8.5)
        (buying is checked against 60% itself)."""
        extra = [v for (_p, c), v in self.exchange_cap.items() if c == corp]
        return max([ed.MAX_BUY_PERCENT, *extra])

    def share_price(self, corp: str) -> int:
        return self.market.price(corp)

    def free_publics(self) -> list[str]:
        """Public companies that may be started now: not in play, within the number allowed
        at once (§1.4.3: 4 with 2-3 players, 5 with 4)."""
        live = self.live_corporations()
        if len(live) >= ed.PUBLIC_COMPANIES_IN_PLAY[len(self.seats)]:
            return []
        return [c["sym"] for c in data.CORPORATIONS if c["sym"] not in live]

    def open_public(self, corp: str) -> None:
        """A public company enters play (again, if it closed earlier: §1.4.3)."""
        op = self.state.operators[corp]
        op.closed = False
        op.floated = True
        op.operated = False
        op.home_placed = False
        self.shares.add_corporation(corp)
        self.loans.pop(corp, None)
        self.loan_cap.pop(corp, None)

    def move_price(self, sym: str, steps: int) -> None:
        """Move a marker; a company falling into the Closed box closes (§4.2)."""
        if steps and self.market.shift(sym, steps, self.kind_of(sym) == "minor"):
            self.note(f"{sym} falls into the Closed box")
            self.close_company(sym, off_market=True)

    def close_company(self, sym: str, off_market: bool = False) -> None:
        """§4.2: trains to the Bank Pool, privates discarded, no compensation; a minor's
        marker and charter leave the game, a public company may be started again."""
        st = self.state
        for card in st.trains_of(sym):
            if card.obsolete:
                st.rust(card)
            else:
                st.discard_train(sym, card.id)
        self.pay(sym, BANK, self.cash(sym), f"{sym} closes")
        self.loans.pop(sym, None)
        self.loan_cap.pop(sym, None)
        if not off_market:
            self.market.remove(sym)
        if self.kind_of(sym) == "public":
            self.shares.remove_corporation(sym)
            for key in [k for k in self.exchange_cap if k[1] == sym]:
                del self.exchange_cap[key]
        else:
            self.minor_owner.pop(sym, None)
        st.close_operator(sym)
        t = self.or_turn
        if t is not None and t.op == sym:
            t.index = len(t.stages)
        self.note(f"{sym} closes")

    # ------------------------------------------------------------------ actions
    def legal_key(self, action: dict) -> tuple:
        return _key(action)

    def complete_action(self, action: dict, legal: dict) -> dict:
        legal = {k: v for k, v in legal.items() if k != "auto"}
        if "min_bid" in legal:  # §4: bids in steps of £5
            return self.priced(action, legal, "min_bid", "max_bid", ed.BID_STEP)
        return super().complete_action(action, legal)

    def explain_detail(self, action: dict) -> str | None:
        kind, ent = action.get("type"), action.get("entity")
        legal = [a for a in self._legal_cache[1] if a["entity"] == ent]
        if kind == "bid" and self.round.kind in ("auction", "stock"):
            sym = action.get("company")
            if not any(a["type"] == "bid" and a["company"] == sym for a in legal):
                return f"{sym} cannot be bid on now (sold, not in play, or over the limits)"
        if kind == "buy_shares" and self.round.kind == "stock":
            if self.state.phase_name == "2":
                return "public shares may be bought from Phase 3 (§6.2)"
            corp = action.get("corporation")
            if corp in self.round.data["sold"].get(ent, ()):
                return f"{ent} sold {corp} this Stock Round (§6.2.2)"
        if kind == "par" and self.round.kind == "stock" and self.state.phase_name in "23":
            return "public companies may be started from Phase 4 (§6.2.3)"
        if kind == "sell_shares" and self.round.kind == "stock":
            corp = action.get("corporation")
            if corp in self.shares.by_corp and not self.state.operators[corp].operated:
                return f"{corp} has not yet completed an operating turn (§6.1)"
        return None

    # ------------------------------------------------------------------ round dispatch
    def _compute_legal(self) -> list[dict]:
        kind = self.round.kind
        if kind == "operating":
            return self.legal_operating()
        return getattr(self, f"legal_{kind}_round")()

    def round_finished(self) -> bool:
        kind = self.round.kind
        if kind == "operating":
            return self.operating_round_finished()
        return getattr(self, f"{kind}_round_finished")()

    def skip(self) -> None:
        kind = self.round.kind
        if kind == "operating":
            self.skip_operating()
        else:
            getattr(self, f"skip_{kind}_round")()

    def next_round(self) -> None:
        """§5: Stock Round, OR 1, (Merger Round 1 from Phase 3), OR 2, (Merger Round 2);
        §9: the game ends after the first Operating Round completed once the bank broke."""
        kind = self.round.kind
        if kind == "auction":
            self.end_auction_round()
        elif kind == "stock":
            self.end_stock_round()
            self.start_operating_round(1)
        elif kind == "operating":
            num = self.round.num
            if self.bank_broken:
                self.end_game("bank")
            elif self.state.phase_name != "2":
                self.start_merger_round(num)
            else:
                self._after_set_round(num)
        else:
            self._after_set_round(self.round.num)

    def _after_set_round(self, num: int) -> None:
        if num < ed.OPERATING_ROUNDS_PER_SET:
            self.start_operating_round(num + 1)
            return
        self.turn += 1
        if self.turn > self.MAX_TURNS:
            self.end_game("dnf")
            return
        self.refresh_train_supply()
        if self.all_players_lose():
            self.end_game("all_lose")
            return
        if any(self.state.companies[c]["owner"] is None for c in self.privates_in_play):
            self.start_private_auction(0)
        else:
            self.start_stock_round(0)

    def all_players_lose(self) -> bool:
        """§9: no company open, no private with a player, nobody able to start one."""
        open_cos = len(self.live_minors()) + len(self.live_corporations())
        held = sum(1 for c in self.privates_in_play
                   if self.state.companies[c]["owner"] in self.seats
                   and not self.state.companies[c]["closed"])  # fmt: skip
        phase = int(self.state.phase_name)
        unsold = [m for m in self.minors_in_play
                  if m not in self.minor_owner and not self.state.operators[m].closed]  # fmt: skip
        if phase < 4:
            cheapest = ed.MINOR_MIN_BID if unsold else 10**9
        else:
            cheapest = ed.PUBLIC_START_MULTIPLIER * min(ed.PUBLIC_START_PRICES)
        richest = max(self.cash(p) for p in self.seats)
        return eco.all_players_lose(open_cos, held, richest, cheapest)

    # ------------------------------------------------------------------ end and scores
    def end_checks(self) -> dict[str, bool]:
        return {}

    def final_price(self, sym: str) -> int:
        """§9: one space down per outstanding loan; the Closed box is worth 0."""
        return eco.final_price(self.market.price(sym), self.loans.get(sym, 0),
                               self.kind_of(sym) == "minor")  # fmt: skip

    def player_value(self, player: str) -> int:
        """§9 net worth: cash, shares at the loan-adjusted price, privates at face value,
        minors at twice their loan-adjusted price (company assets count for nothing)."""
        value = self.cash(player)
        for corp in self.live_corporations():
            held = self.shares.percent(corp, player) // 10
            if held:
                value += held * self.final_price(corp)
        for minor, owner in self.minor_owner.items():
            if owner == player:
                value += ed.MINOR_SHARES * self.final_price(minor)
        for sym in self.privates_in_play:
            info = self.state.companies[sym]
            if info["owner"] == player and not info["closed"]:
                value += int(info["spec"]["value"])
        return value


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1812:
    """A new 1812 game (see :class:`Game1812`)."""
    return Game1812(players, seed, options, actions)
