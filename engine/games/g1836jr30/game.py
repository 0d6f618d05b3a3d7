"""1836Jr-30 rules engine: a whole game from the private auction to the final scores.

1836Jr-30 is 1830 on the Low Countries map (seed ``../shared/seeds/1836jr-rules.txt``);
facts the seed leaves to 1830 follow tobymao/18xx @111f7f69 (MIT)
``lib/engine/game/g_1836_jr30/game.rb`` and the 1830 defaults of ``game/base.rb`` it keeps,
cited per rule in the mixins (never copied):

- setup (``init_bank``, ``init_starting_cash``): F6000 in the bank, which pays each player
  F900/600/450 (2/3/4 players); certificate limit 20/13/10;
- :mod:`~engine.games.g1836jr30.game_auction`: the waterfall auction of the six privates;
- :mod:`~engine.games.g1836jr30.game_stock`: stock rounds (sell/buy/sell, zones, floats);
- :mod:`~engine.games.g1836jr30.game_ops`: operating turns, privates and their abilities;
- :mod:`~engine.games.g1836jr30.game_trains`: trains, emergency money, bankruptcy;
- phases and train events (``PHASES``, ``TRAINS``: operating rounds 1/2/2/3/3/3, train
  limits, rusting; the first 5-train closes every private, ``event_close_companies!``);
- game end (``GAME_END_CHECK``: a bankruptcy ends the game at once, a broken bank after the
  operating-round set; 18xx.games stops an unfinished game after turn 100); a player's
  value is cash, shares at the market price and open privates at face value.

Simplifications (docs/TITLE_DATA.md, "1836Jr-30 rules engine"): no private is bought in
the stock round (1830: none are).  The GCB may be exchanged before the B is parred (the
certificate waits in ``loose_certs`` for the par, :meth:`StockMixin1830.unparred_share_ids`).
Routes: ``run_routes`` takes the optimum, or declared routes
(:meth:`engine.game.operating.OperatingMixin.check_routes`).
"""

from __future__ import annotations

from engine.game.base import BANK, BaseGame
from engine.game.errors import IllegalAction
from engine.game.ledger import Ledger
from engine.game.shares import POOL
from engine.games import g1836jr30 as _package
from engine.games.g1836jr30.game_auction import AuctionMixin
from engine.games.g1836jr30.game_market import Market1830
from engine.games.g1836jr30.game_ops import OperatingMixin1830
from engine.games.g1836jr30.game_stock import StockMixin1830
from engine.games.g1836jr30.game_trains import TrainsMixin1830

__all__ = ["Game1836Jr30", "new_game", "OPTIONS"]

#: Game options (``g_1836_jr30/meta.rb`` ``OPTIONAL_RULES``): ``multiple_brown_from_ipo``
#: lets a player buy several shares of a corporation in a brown cell from the IPO too, not
#: only from the market (``game.rb`` ``multiple_buy_only_from_market?``).
OPTIONS = ("multiple_brown_from_ipo",)


class Game1836Jr30(AuctionMixin, StockMixin1830, TrainsMixin1830, OperatingMixin1830, BaseGame):
    """1836Jr-30 for 2-4 players (see the module docstring)."""

    TITLE = "1836Jr30"
    DEFINITION = _package.TITLE
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    MARKET_SHARE_LIMIT = 50
    MAX_OWNERSHIP = 60
    HOME_TOKEN_TIMING = "operate"
    GAME_END = {"bankrupt": "immediate", "bank": "full_or"}
    OPERATING_STAGES = ("track", "token", "route", "dividend", "train", "company")

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        data, n = self.data, len(self.seats)
        unknown = sorted(set(self.options) - set(OPTIONS))
        if unknown:
            raise ValueError(
                f"1836Jr-30: unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)})"
            )
        self.ledger = Ledger({BANK: int(data.BANK_CASH)}, {BANK}, keep_history=False)
        for p in self.seats:
            self.ledger.open(p)
            self.pay(BANK, p, int(data.STARTING_CASH[n]), "starting cash")
        for sym in self.state.operators:
            self.ledger.open(sym)
        self.market = Market1830(data.MARKET)
        #: certificates a player holds before their corporation has a price (CFL's GCL_1)
        self.loose_certs: dict[str, str] = {}
        #: privates whose one-time ability is spent (E-SF's tile, CdH's teleport)
        self.ability_used: set[str] = set()
        #: (operator, hex) station tokens waiting to be placed (home choice, lifted tokens)
        self.pending_tokens: list[tuple[str, str]] = []
        #: corporations a player holds beyond 60% of, bought in an orange or brown cell
        self.over_limit: set[str] = set()
        self.start_auction()

    # ------------------------------------------------------------------ flow
    def _compute_legal(self) -> list[dict]:
        if self.round.kind == "auction":
            return self.legal_other_round()
        return super()._compute_legal()

    def train_event(self, name: str, train) -> None:
        if name == "close_companies":
            for info in self.state.companies.values():
                info["closed"] = True
            self.note("-- event: every private closes --")

    def after_action(self, action: dict) -> None:
        self._settle_over_limit()
        super().after_action(action)

    def end_checks(self) -> dict[str, bool]:
        # BANKRUPTCY_ENDS_GAME_AFTER = :one
        return {"bankrupt": bool(self.bankrupt), "bank": self.bank_broken}

    def normalise(self, action) -> dict:
        """A private's exchange may name a certificate of a corporation not parred yet (it
        has no certificates in the registry then)."""
        if (
            isinstance(action, dict)
            and action.get("type") == "buy_shares"
            and action.get("entity") in self.state.companies
            and isinstance(action.get("shares"), list)
            and action["shares"]
            and str(action["shares"][0]) not in self.shares.certs
        ):
            corp = str(action["shares"][0]).rpartition("_")[0]
            if str(action["shares"][0]) in self.unparred_share_ids(corp):
                action = {k: v for k, v in action.items() if k not in ("id", "created_at")}
                action.setdefault("corporation", corp)
                action.setdefault("source", "treasury")
                action.setdefault("percent", 10)
                return action
        return super().normalise(action)

    def check_details(self, action: dict) -> None:
        """A private's exchange names a certificate of the IPO or the market (before the
        par: one of :meth:`unparred_share_ids`)."""
        if action["type"] == "buy_shares" and action["entity"] in self.state.companies:
            corp = action.get("corporation")
            if corp not in self.shares.by_corp:
                ids, free = action.get("shares"), self.unparred_share_ids(corp)
                if not (isinstance(ids, list) and len(ids) == 1 and ids[0] in free
                        and action.get("percent") == 10):  # fmt: skip
                    raise IllegalAction(
                        f"buy_shares by {action['entity']}: {corp} is not parred; name one "
                        f"10% certificate of {', '.join(free) or 'none'}, got {ids!r}"
                    )
                return
            holder = corp if action.get("source") == "treasury" else POOL
            try:
                self.shares.check_ids(action.get("shares"), corp, holder, action["percent"])
            except (ValueError, TypeError, KeyError) as exc:
                raise IllegalAction(f"buy_shares by {action['entity']}: {exc}") from None
            return
        super().check_details(action)

    def explain_detail(self, action: dict) -> str | None:
        if self.round.kind == "auction":
            return self.explain_auction(action)
        return self.explain_trains(action) or super().explain_detail(action)


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1836Jr30:
    """A new 1836Jr-30 game (see :class:`Game1836Jr30`)."""
    return Game1836Jr30(players, seed, options, actions)
