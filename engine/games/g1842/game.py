"""1842 Hamburg/Schleswig-Holstein rules engine: a whole game from the starting round to the
final scores, on the RECONSTRUCTED map of :mod:`.data`.

Oracle: the rulebook ``../shared/seeds/1842-schleswig-holstein-rules.txt`` (section
numbers as printed); 18xx.games has no 1842 (no ``g_1842`` in tobymao/18xx @111f7f69), so
the base engine's 18xx.games conventions are kept only where the rulebook is silent.  The
figures and the readings of ambiguous rules are those of the pure-function modules
(:mod:`.economy`, :mod:`.economy_minors`, :mod:`.economy_hav`, :mod:`.economy_ops`; their
guesses are listed in ``economy_data.ECONOMY_GUESSES`` and ``data.GUESSES``).

The game is assembled from mixins, one per part of the rules:

====================  =============================================================
:mod:`.game_minors`   starting round (5), private and predecessor railways (3.1, 3.2)
:mod:`.game_stock`    stock rounds (6), corporations starting (3.3.2), the 100% rule
:mod:`.game_ops`      operating rounds (7): order, track, stations, routes, revenue
:mod:`.game_trains`   trains (7.6), forced purchase (3.3.5.1), bankruptcy (10.4)
:mod:`.game_hav`      the HAV (3.4, 7.5)
:mod:`.game_market`   the stock market's tokens (8)
:mod:`.game_shares`   10%/20% certificates, sales and director changes (3.3.6, 6.2)
====================  =============================================================

Round flow: the starting round, then the first stock round (interrupted by an operating
round of the package companies whenever everybody passes before the package is sold,
6.1), then sets of 1-3 operating rounds after each stock round (6.2, phases).  Game end
(9): a token on the top-right field ends the game after the current OR; a bank run dry
(cash at or below 0, economy reading) after the current set (in an OR) or after the next
set (in a stock round); a player left alone after bankruptcies ends it at once.  Scores:
cash plus certificates at market value (face value before a corporation starts) plus any
company still owned at its face value (the rulebook names no scoring; economy reading
plus the 18xx habit for privates).
"""

from __future__ import annotations

from engine.game.base import BANK, BaseGame
from engine.game.errors import IllegalAction
from engine.game.ledger import Ledger
from engine.game.state import DEPOT
from engine.games import g1842 as _package
from engine.games.g1842 import economy as eco
from engine.games.g1842 import economy_data as ed
from engine.games.g1842.game_hav import HavMixin1842
from engine.games.g1842.game_market import Market1842
from engine.games.g1842.game_minors import MinorsMixin1842
from engine.games.g1842.game_ops import HAV_ONLY, OpsMixin1842
from engine.games.g1842.game_shares import POOL, ShareBook
from engine.games.g1842.game_stock import StockMixin1842
from engine.games.g1842.game_trains import TrainsMixin1842

__all__ = ["Game1842", "new_game", "check_1842"]

HAV = ed.HAV
_MINOR_SPEC = {m["sym"]: m for m in ed.MINORS}


class Game1842(OpsMixin1842, TrainsMixin1842, MinorsMixin1842, HavMixin1842, StockMixin1842,
               BaseGame):  # fmt: skip
    """1842 for 3-6 players (see the module docstring).

    Options: ``hav_simplified`` (printed "10.3 HAV simplified") and
    ``additional_corporations`` (11.2: UEE and FKE, the optional trains, larger
    certificate limits).  ``exchange_privates`` (11.1) is refused (not modelled).
    """

    TITLE = "1842"
    DEFINITION = _package.TITLE
    MIN_PLAYERS = 3
    MAX_PLAYERS = 6
    MARKET_SHARE_LIMIT = ed.POOL_LIMIT
    MAX_OWNERSHIP = ed.HOLDING_LIMIT
    HOME_TOKEN_TIMING = "float"
    GAME_END = {"bankrupt": "immediate", "top_right": "current_or", "bank": "full_or"}
    OPERATING_STAGES = ("track", "token", "route", "dividend", "hav", "train")

    # ------------------------------------------------------------------ setup
    def _entity_symbols(self) -> set[str]:
        data = self.data
        return {e["sym"] for e in (*data.CORPORATIONS, *data.MINORS)} | {BANK, POOL}

    def setup(self) -> None:
        try:
            opts = eco.parse_options(self.options)
        except ValueError as exc:
            raise ValueError(str(exc)) from None
        if "exchange_privates" in opts:
            raise ValueError("1842 option 'exchange_privates' (11.1) is not supported yet")
        n = len(self.seats)
        self.simplified_hav = "hav_simplified" in opts
        extra = "additional_corporations" in opts
        self.ledger = Ledger({BANK: int(ed.BANK_CASH)}, {BANK}, keep_history=False)
        for p in self.seats:
            self.ledger.open(p)
            self.pay(BANK, p, int(ed.STARTING_CASH[n]), "starting cash")
        for sym in self.state.operators:
            self.ledger.open(sym)
        self.corp_syms = [c["sym"] for c in ed.CORPORATIONS if extra or not c.get("optional")]
        for c in ed.CORPORATIONS:
            if c["sym"] not in self.corp_syms:
                self.state.operators[c["sym"]].removed = True
        if not extra:  # 11.2.4: the optional trains stay in the box
            for spec in ed.TRAINS:
                cards = [i for i in self.state.depot if self.state.trains[i].sym == spec["name"]]
                for ident in cards[len(cards) - int(spec.get("optional", 0)) :]:
                    self.state.depot.remove(ident)
                    self.state.trains[ident].owner = None
        self.market = Market1842()
        self.shares = ShareBook(self.seats)
        self.pre = ShareBook(self.seats)
        for succ in ed.SUCCESSOR.values():
            self.pre.add_structure(succ, list(self.entity_spec(succ)["shares"]))
        self.hav = ShareBook(self.seats + [c for c in self.corp_syms if c != HAV])
        self.hav.add_structure(HAV, list(self.entity_spec(HAV)["shares"]))
        self.minor_owner: dict[str, str | None] = {m: None for m in ed.STARTING_PACKAGE}
        self.bank_managed: set[str] = set()
        self.building: dict[str, int] = {}
        self.markers: dict[str, set[str]] = {}
        self.box_tokens = self.hav_tokens = self.spent_tokens = 0
        self.token_used: dict[str, int] = {}
        self.exchange_used: dict[str, int] = {}
        self.token_adjust = {c["sym"]: int(c.get("exchange", 0)) for c in ed.CORPORATIONS}
        self.loans: dict[str, int] = {}
        self.sale_marker: set[str] = set()
        self.last_four_sold = self.first_five = False
        self.lauenburg_open, self.lauenburg_pending, self.vogel_done = True, None, False
        self.limit_lifted: dict[str, int] = {}
        self.first_sr, self.package_or, self.ake_forced = True, False, None
        self.or_queue: list[list] = []
        # the board holds every home station for its company (3.3.2); not for the
        # optional corporations when they are not in the game
        for key, syms in self.state.reservations.items():
            self.state.reservations[key] = [s for s in syms if not self.state.operators[s].removed]
        self.start_starting_round()

    # ------------------------------------------------------------------ flow
    def start_operating_round(self, num: int) -> None:
        super().start_operating_round(num)
        if self.package_or:
            self.round.data["of"] = 1

    def next_round(self) -> None:
        kind = self.round.kind
        if kind == "start":
            self.end_other_round()
            return
        if kind == "stock":
            if self.first_sr and not self.package_sold():
                # 6.1: everybody passed before the package was sold: an OR of the companies
                # sold, then the first stock round goes on
                self._priority_after_round()
                self.package_or = True
                self.start_operating_round(1)
                return
            self.end_stock_round()
            if not self.finished:
                self.start_operating_round(1)
            return
        self.end_operating_round()
        if self.finished:
            return
        if self.package_or:
            self.package_or = False
            self.start_stock_round()
            return
        if self.round.num < self.round.data["of"]:
            self.start_operating_round(self.round.num + 1)
            return
        self.turn += 1
        if self.end_trigger is not None and self.end_trigger[1] in ("full_or", "current_or"):
            self.end_game(self.end_trigger[0])
            return
        if self.turn > self.MAX_TURNS:
            self.end_game("dnf")
            return
        self.start_stock_round()

    def after_action(self, action: dict) -> None:
        self.auto_discards()
        super().after_action(action)

    def end_checks(self) -> dict[str, bool]:
        return {
            "bankrupt": len(self.bankrupt) >= len(self.seats) - 1,
            "bank": self.cash(BANK) <= 0 or self.bank_broken,
            "top_right": any(self.market.at_end(c) for c in self.market.where),
        }

    def check_game_end(self) -> None:
        if self.finished:
            return
        super().check_game_end()

    # ------------------------------------------------------------------ values
    def player_value(self, player: str) -> int:
        value = self.cash(player)
        for book in self.books():
            for cert in book.certs_of(player):
                value += self.share_value(cert.corp) * cert.percent // 10
        for minor, owner in self.minor_owner.items():
            if owner == player and not self.state.operators[minor].closed:
                value += int(_MINOR_SPEC[minor]["value"])
        return value

    def acting_player(self, entity: str | None = None) -> str | None:
        entity = entity if entity is not None else self.current_entity
        if entity is None or entity in self.seats:
            return entity
        if entity == HAV:
            return self.hav_director()
        if self.is_minor(entity):
            return self.minor_owner.get(entity)
        return self.shares.president(entity)

    # ------------------------------------------------------------------ actions
    def normalise(self, action) -> dict:
        if not isinstance(action, dict):
            raise IllegalAction(f"an action must be a dict, got {type(action).__name__}")
        kind = action.get("type")
        if not isinstance(kind, str) or not kind:
            raise IllegalAction(f"action {action!r} has no 'type'")
        if "entity" not in action:
            raise IllegalAction(f"{kind}: action has no 'entity'")
        action = {k: v for k, v in action.items() if k not in ("id", "created_at")}
        if kind == "buy_shares" and action.get("shares"):
            cid = str(action["shares"][0])
            cert = next((b.certs[cid] for b in self.books() if cid in b.certs), None)
            if cert is None:
                raise IllegalAction(f"{kind}: no share certificate {cid!r} in the game")
            action.setdefault("corporation", cert.corp)
            action.setdefault("source", "ipo" if cert.owner == cert.corp else cert.owner)
            action.setdefault("percent", cert.percent)
        if kind == "lay_tile" and isinstance(action.get("tile"), str) and "-" in action["tile"]:
            action["tile_id"] = action["tile"]
            action["tile"] = action["tile"].split("-")[0]
        return action

    def check_details(self, action: dict) -> None:
        """A purchase names its certificate: the offering's top one (stack order, 4) or
        one of that size in the pool; a sale's ids are not needed (whole certificates
        are picked by size, 6.2) and are dropped."""
        if "shares" not in action:
            return
        if action["type"] != "buy_shares":
            action.pop("shares")
            return
        ids, corp = action["shares"], action.get("corporation")
        if not isinstance(ids, list | tuple) or len(ids) != 1 or not isinstance(ids[0], str):
            raise IllegalAction(f"buy_shares: 'shares' must name one certificate, got {ids!r}")
        book = self.book(corp)
        cert = book.certs.get(ids[0])
        if cert is None or cert.corp != corp:
            raise IllegalAction(f"buy_shares: {ids[0]!r} is not a certificate of {corp}")
        if action["source"] == "ipo":
            top = (self.ipo(corp) or book.offering(corp))[:1]
            if not top or top[0].id != cert.id:
                raise IllegalAction(
                    f"buy_shares: the offering sells its top certificate "
                    f"({top[0].id if top else 'none'}), not {cert.id} (4)"
                )
        elif cert.owner != POOL or cert.percent != action["percent"]:
            raise IllegalAction(f"buy_shares: {cert.id} is not a {action['percent']}% "
                                f"certificate in the pool")  # fmt: skip

    def explain_detail(self, action: dict) -> str | None:
        kind, ent = action.get("type"), action.get("entity")
        if kind == "sell_shares" and self.round.kind == "stock" and self.first_sr:
            return "no certificates may be sold in the first stock round (6.1)"
        if kind in ("buy_shares", "par") and self.round.kind == "stock":
            corp = action.get("corporation")
            if corp not in self.corp_syms:
                return f"no corporation {corp!r} in this game"
            if corp not in self.available():
                return f"{corp}'s certificates are not available yet (3.3.1, 3.4.1)"
            if corp in self.round.data["sold"].get(ent, ()):
                return f"{ent} sold {corp} this round (6.2)"
        if kind == "lay_tile" and action.get("hex") in ("L10", "M9") and ent != HAV:
            return HAV_ONLY
        if kind == "lay_tile" and ent == HAV and action.get("hex") not in ("L10", "M9"):
            return "the HAV lays tiles only on Hamburg (L10) and Harburg (M9) (3.4.2.1)"
        if kind in ("lay_tile", "place_token", "buy_train"):
            return super().explain_detail(action)
        return None


def check_1842(game: Game1842) -> None:
    """1842 invariants beyond :func:`engine.game.invariants`: the HAV's and the
    successors' certificates, building tokens, minors, loans and the market.

    Raises
    ------
    AssertionError
        Naming the broken invariant.
    """
    where = f"after action {len(game.actions)}"
    corps = [c for c in game.corp_syms if c != HAV]
    successors = set(ed.SUCCESSOR.values())
    for book, allowed in ((game.hav, set(game.seats) | set(corps) | {POOL, HAV}),
                          (game.pre, set(game.seats) | {POOL} | successors)):  # fmt: skip
        for corp, certs in book.by_corp.items():
            total = sum(c.percent for c in certs)
            assert total == 100, f"{where}: {corp}'s certificates sum to {total}%"
            for c in certs:
                assert c.owner in allowed, f"{where}: {c.id} held by {c.owner!r}"
            pres = book.president(corp)
            if pres is not None:
                assert book.president_cert(corp).owner == pres, f"{where}: {corp} director"
    for corp in game.pre.by_corp:
        cert = game.pre.president_cert(corp)
        assert cert.owner == corp, f"{where}: {corp}'s exchange certificate left the box"
    total = sum(int(m["building_tokens"]) for m in ed.MINORS)
    sold = [m for m in ed.STARTING_PACKAGE if m in game.building]
    unsold = sum(int(_MINOR_SPEC[m]["building_tokens"]) for m in ed.STARTING_PACKAGE
                 if m not in game.building)  # fmt: skip
    have = (sum(game.building[m] for m in sold) + game.box_tokens + game.hav_tokens
            + game.spent_tokens + unsold)  # fmt: skip
    assert have == total, f"{where}: building tokens {have} != {total}"
    assert min(game.box_tokens, game.hav_tokens) >= 0, f"{where}: negative building tokens"
    for minor, owner in game.minor_owner.items():
        op = game.state.operators[minor]
        if op.closed:
            assert owner is None and minor not in game.bank_managed, f"{where}: closed {minor}"
            assert not game.state.trains_of(minor), f"{where}: closed {minor} has trains"
        elif owner is not None:
            assert owner in game.seats, f"{where}: {minor} owned by {owner!r}"
    for corp, loan in game.loans.items():
        assert loan > 0, f"{where}: {corp} loan {loan}"
    for corp, cell in game.market.where.items():
        assert corp in game.market.stacks[cell], f"{where}: {corp} not in its stack"
        assert game.started(corp), f"{where}: {corp} on the market but not started"
    for corp in game.corp_syms:
        if game.started(corp):
            assert corp in game.market.where, f"{where}: started {corp} has no market token"
    for card in game.state.trains.values():
        if card.owner not in (None, DEPOT):
            assert card.owner != HAV, f"{where}: the HAV owns train {card.id}"


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1842:
    """A new 1842 game (see :class:`Game1842`)."""
    return Game1842(players, seed, options, actions)
