"""The rules-engine core every title shares: players, money, actions, rounds, game end.

A game is a deterministic function of ``(title, players, seed, options, actions)``: saving
writes that tuple, loading replays it.  :meth:`BaseGame.legal_actions` lists every action
the rules allow now (plain dicts in the 18xx.games action vocabulary);
:meth:`BaseGame.apply` checks an action against that list and raises
:class:`~engine.model.record.IllegalAction` naming the rule it breaks, leaving the game as it
was.  Automatic steps (a player with nothing to do passes, a company without trains earns
nothing) happen between actions and are not logged.

The round sequence, game-end timing and final values follow tobymao/18xx @111f7f69 (MIT)
``lib/engine/game/base.rb`` (``next_round!``, ``game_end_check``, ``end_now?``,
``result``/``player_value``, ``reorder_players`` ``:after_last_to_act``).  The stock round
lives in :mod:`engine.game.stock`, the operating round in :mod:`engine.game.operating`; a
title subclasses :class:`BaseGame` and fills the hooks documented in docs/GAME_ENGINE.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.game.errors import IllegalAction
from engine.game.ledger import InsufficientCash, Ledger
from engine.game.operating import OperatingMixin
from engine.game.shares import POOL, ShareRegistry
from engine.game.state import GameState, TitleRules
from engine.game.stock import StockMixin
from engine.model.fast_board import FastBoard
from engine.model.record import Record
from engine.model.title import Title

__all__ = ["BaseGame", "Round", "IllegalAction", "BANK", "POOL", "action_key"]

#: Ledger account of the bank.
BANK = "bank"

#: Action fields that identify an action (the rest is detail the engine fills in).
_KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "bid": ("entity", "company"),
    "pass": ("entity",),
    "par": ("entity", "corporation", "share_price"),
    "buy_shares": ("entity", "corporation", "source", "percent"),
    "sell_shares": ("entity", "corporation", "percent"),
    "lay_tile": ("entity", "hex", "tile", "rotation"),
    "place_token": ("entity", "hex", "city"),
    "run_routes": ("entity",),
    "dividend": ("entity", "kind"),
    "buy_train": ("entity", "train", "variant"),
    "discard_train": ("entity", "train"),
    "buy_company": ("entity", "company"),
    "assign": ("entity", "target"),
    "bankrupt": ("entity",),
}


def action_key(action: dict) -> tuple:
    """What makes two actions the same choice (prices within a range aside)."""
    kind = action.get("type")
    fields = _KEY_FIELDS.get(kind, ("entity",))
    return (kind, *(_freeze(action.get(f)) for f in fields))


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass
class Round:
    """The round in progress: ``kind`` is ``draft``, ``stock`` or ``operating``."""

    kind: str
    entities: list[str]
    index: int = 0
    num: int = 1
    data: dict = field(default_factory=dict)

    @property
    def current(self) -> str | None:
        if 0 <= self.index < len(self.entities):
            return self.entities[self.index]
        return None


class BoardState(GameState):
    """The board state, counting changes to tiles and tokens (``board_version``) so the
    network walk and the route problems are cached between them."""

    board_version = 0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: (board version, hex) of every lay; other changes record hex None
        self.changes: list[tuple[int, str | None]] = []

    def changed(self, hex_: str | None = None) -> None:
        self.board_version += 1
        self.changes.append((self.board_version, hex_))
        if len(self.changes) > 512:
            del self.changes[:256]

    def lay_tile(self, hex_: str, *args, **kwargs) -> None:
        before = len(self.board.tile(hex_).cities) if hex_ in self.board.cells else 0
        super().lay_tile(hex_, *args, **kwargs)
        # tokens follow their cities on a multi-city upgrade, and cities merge (1862): not
        # a plain lay then
        multi = max(before, len(self.board.tile(hex_).cities)) >= 2
        self.changed(None if multi else hex_)

    def place_token(self, *args, **kwargs) -> None:
        super().place_token(*args, **kwargs)
        self.changed()

    def remove_tokens(self, sym: str) -> None:
        super().remove_tokens(sym)
        self.changed()


class _BoardHooks(TitleRules):
    """Forwards the board state's callbacks (train events, limits, markers) to the game."""

    def __init__(self, game: BaseGame) -> None:
        self.game = game
        self.home_token_timing = game.HOME_TOKEN_TIMING

    def event(self, state, name, train) -> None:
        self.game.train_event(name, train)

    def train_limit(self, state, sym) -> int:
        return self.game.train_limit(sym)

    def assignments(self, state):
        return self.game.assignments()


class BaseGame(StockMixin, OperatingMixin):
    """Shared rules engine; a title subclasses it (see docs/GAME_ENGINE.md for the hooks).

    Parameters
    ----------
    players : list of str
        Player ids in seat order (2 or more, distinct, not the symbol of any company).
    seed : int
        Seed of the title's random draws (setup removals, draft order).
    options : list of str
        Optional rules.
    actions : list of dict, optional
        An action log to replay.
    """

    #: Engine title id (``engine.games`` registry).
    TITLE = ""
    #: The title's map data and revenue-rule hook (:class:`engine.model.title.Title`); the
    #: title package sets it.
    DEFINITION: Title
    MIN_PLAYERS = 2
    MAX_PLAYERS = 6
    #: Percentage of a corporation the market pool may hold.
    MARKET_SHARE_LIMIT = 50
    #: Percentage of a corporation one player may hold.
    MAX_OWNERSHIP = 60
    #: Private companies count against the certificate limit (18xx.games default).
    CERT_LIMIT_INCLUDES_PRIVATES = True
    #: ``"float"`` (home token when the corporation floats) or ``"operate"``.
    HOME_TOKEN_TIMING = "operate"
    #: Reason -> timing (``immediate``, ``current_or``, ``full_or``).
    GAME_END: dict[str, str] = {"bankrupt": "immediate", "bank": "full_or"}
    #: 18xx.games ends an unfinished game after this many turns (``:dnf``).
    MAX_TURNS = 100
    #: Fields an action may carry beyond its legal twin (kept in the log).
    DETAIL_FIELDS: tuple[str, ...] = ("tile_id", "shares", "routes")
    #: Stages of an operating turn, in order (operating.py ``_legal_<stage>``).
    OPERATING_STAGES: tuple[str, ...] = ("track", "token", "route", "dividend", "train")

    def __init__(
        self,
        players: list[str],
        seed: int = 0,
        options: list[str] | tuple[str, ...] = (),
        actions: list[dict] | tuple[dict, ...] = (),
    ) -> None:
        players = [str(p) for p in players]
        if not self.MIN_PLAYERS <= len(players) <= self.MAX_PLAYERS:
            raise ValueError(
                f"{self.TITLE} takes {self.MIN_PLAYERS}-{self.MAX_PLAYERS} players, "
                f"got {len(players)}"
            )
        if len(set(players)) != len(players):
            raise ValueError(f"player ids must be distinct, got {players}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, got {seed!r}")
        self.seats = list(players)
        self.players = list(players)  # priority order: rotates after each stock round
        self.seed = seed
        self.options = [str(o) for o in options]
        self.title = self.DEFINITION
        self.data = self.title.data
        clash = set(players) & self._entity_symbols()
        if clash:
            raise ValueError(f"player id {sorted(clash)[0]!r} is also a company symbol")
        record = Record(
            "game", "", self.TITLE, self.TITLE, "", [(p, p) for p in players],
            list(self.options), seed, [],
        )  # fmt: skip
        self.state = BoardState(record, self.title, _BoardHooks(self))
        self.state.board = FastBoard.from_data(self.data)
        self.ledger = Ledger({BANK: 0}, may_go_negative={BANK}, keep_history=False)
        self.shares = ShareRegistry(players)
        self.actions: list[dict] = []
        self.log: list[str] = []
        self.events: list[dict] = []
        self.finished = False
        self.end_reason: str | None = None
        self.end_trigger: tuple[str, str] | None = None
        self.bank_broken = False
        self.bankrupt: list[str] = []
        self.turn = 1
        self.round = Round("stock", [])
        self.or_turn = None
        #: Ids of the trains that ran in this operating round (none before the first).
        self.operated_trains: set[str] = set()
        self._version = 0
        self._legal_cache: tuple[int, list[dict]] | None = None
        self.setup()
        self._advance()
        for action in actions:
            self.apply(action)

    # ------------------------------------------------------------------ hooks (override)
    def _entity_symbols(self) -> set[str]:
        data = self.data
        return {e["sym"] for e in (*data.CORPORATIONS, *data.MINORS, *data.COMPANIES)} | {
            BANK, POOL,
        }  # fmt: skip

    def setup(self) -> None:
        """Money, companies, removals; then :meth:`start_first_round`."""
        raise NotImplementedError

    def start_first_round(self) -> None:
        self.start_stock_round()

    def cert_limit(self, player: str) -> int:
        raise NotImplementedError

    def train_limit(self, sym: str) -> int:
        return int(self.state.phase.get("train_limit", 99))

    def train_event(self, name: str, train) -> None:
        """A train's event (``close_companies`` ...)."""

    def assignments(self) -> list:
        """Markers positions carry (meat packing ...)."""
        return []

    def player_value(self, player: str) -> int:
        """Cash plus shares at market price plus open private companies at face value
        (``player.rb`` ``value``)."""
        value = self.ledger.cash(player)
        for corp in self.shares.corporations():
            pct = self.shares.percent(corp, player)
            if pct:
                value += self.market.price(corp) * pct // 10
        for info in self.state.companies.values():
            if info["owner"] == player and not info["closed"]:
                value += int(info["spec"].get("value", 0))
        return value

    # ------------------------------------------------------------------ money
    def cash(self, holder: str) -> int:
        return self.ledger.cash(holder)

    def pay(self, source: str, target: str, amount: int, reason: str = "") -> None:
        """Move money; the bank breaks when it pays more than it has (``bank.rb``)."""
        if amount <= 0:
            return
        if source == BANK and self.ledger.cash(BANK) - amount < 0 and not self.bank_broken:
            self.bank_broken = True
            self.note("the bank has broken")
        try:
            self.ledger.pay(source, target, amount, reason)
        except InsufficientCash as exc:
            raise IllegalAction(str(exc)) from None

    def note(self, text: str) -> None:
        self.log.append(text)

    # ------------------------------------------------------------------ actions
    def legal_actions(self) -> list[dict]:
        """Every action the rules allow now (empty once the game is over).

        Actions with a price range (a private bought from a player, a train from another
        corporation) appear once with ``price`` at the top of the range and ``min_price``/
        ``max_price``; any price in the range is legal.
        """
        if self.finished:
            return []
        if self._legal_cache is None or self._legal_cache[0] != self._version:
            self._legal_cache = (self._version, self._compute_legal())
        return list(map(dict, self._legal_cache[1]))

    def _compute_legal(self) -> list[dict]:
        kind = self.round.kind
        if kind == "stock":
            return self.legal_stock()
        if kind == "operating":
            return self.legal_operating()
        return self.legal_other_round()

    def legal_other_round(self) -> list[dict]:
        """Legal actions of a title's own round kind (a draft, an auction)."""
        raise NotImplementedError

    @property
    def current_entity(self) -> str | None:
        """Who acts now: a player, a corporation or minor, or a private company."""
        if self.finished:
            return None
        legal = self.legal_actions()
        return legal[0]["entity"] if legal else None

    def acting_player(self, entity: str | None = None) -> str | None:
        """The player deciding for ``entity`` (its president, its owner)."""
        entity = entity if entity is not None else self.current_entity
        if entity in self.seats or entity is None:
            return entity
        if entity in self.shares.presidents:
            return self.shares.president(entity)
        info = self.state.companies.get(entity)
        op = self.state.operators.get(entity)
        if op is not None and op.kind == "minor" and info is not None:
            return info["owner"]
        if info is not None:
            owner = info["owner"]
            return owner if owner in self.seats else self.acting_player(owner)
        return None

    def legal_key(self, action: dict) -> tuple:
        """The fields that identify ``action`` among the legal ones (titles may widen it)."""
        return action_key(action)

    def _match(self, action: dict) -> dict:
        key = self.legal_key(action)
        index = self.__dict__.get("_legal_index")
        if index is None or index[0] is not self._legal_cache[1]:
            table: dict = {}
            for a in self._legal_cache[1]:
                table.setdefault(self.legal_key(a), a)
            index = self.__dict__["_legal_index"] = (self._legal_cache[1], table)
        try:
            found = index[1].get(key)
        except TypeError:  # an unhashable field: no legal action looks like that
            found = None
        if found is None:
            raise IllegalAction(self.explain(action))
        return self.complete_action(action, found)

    def complete_action(self, action: dict, legal: dict) -> dict:
        """The legal action ``action`` matched, with the price or revenue it chose checked."""
        if "min_price" in legal:
            return self.priced(action, legal, "min_price", "max_price")
        for field_ in ("price", "cost"):
            if field_ in action and field_ in legal and action[field_] != legal[field_]:
                raise IllegalAction(
                    f"{action['type']} by {action['entity']}: {field_} {action[field_]!r}"
                    f" is wrong; the rules make it {legal[field_]}"
                )
        if action.get("revenue") == 0 and legal["type"] == "run_routes":
            return {**legal, "revenue": 0}  # running no route at all is allowed
        if "routes" in action and legal["type"] == "run_routes":
            return dict(legal)  # declared routes: check_routes scores them
        if "revenue" in action and action["revenue"] != legal.get("revenue"):
            raise IllegalAction(
                f"run_routes by {action['entity']}: declared revenue {action['revenue']} "
                f"is not the optimum {legal.get('revenue')} (declare 'routes' to run "
                "other routes; omit 'revenue' to run the optimal routes, or give 0)"
            )
        return dict(legal)

    @staticmethod
    def priced(action: dict, legal: dict, low: str, high: str, step: int = 1) -> dict:
        """``legal`` at the price ``action`` names, which must be a multiple of ``step``
        within ``legal[low]``-``legal[high]`` (the top of the range if it names none)."""
        price = action.get("price", legal["price"])
        if isinstance(price, bool) or not isinstance(price, int):
            raise IllegalAction(f"{action['type']}: price {price!r} is not a number")
        if price % step or not legal[low] <= price <= legal[high]:
            what = legal.get("company") or legal.get("train") or legal.get("corporation")
            steps = f"a multiple of {step} " if step > 1 else ""
            raise IllegalAction(
                f"{action['type']} {what}: price {price} outside {steps}{legal[low]}-{legal[high]}"
            )
        out = {k: v for k, v in legal.items() if k not in (low, high)}
        out["price"] = price
        return out

    def explain(self, action: dict) -> str:
        """Why ``action`` is not legal now (the rule it breaks, as far as known)."""
        kind = action.get("type")
        ent = action.get("entity")
        legal = self._legal_cache[1] if self._legal_cache else []
        who = {a["entity"] for a in legal}
        if ent not in who:
            now = ", ".join(sorted(str(w) for w in who)) or "nobody"
            return f"{kind} by {ent}: it is not {ent}'s turn (now: {now})"
        types = sorted({a["type"] for a in legal if a["entity"] == ent})
        try:
            why = self.explain_detail(action)
        except (KeyError, ValueError, TypeError, AttributeError):
            why = None  # a malformed action: the generic message names what is allowed
        if why:
            return f"{kind} by {ent}: {why}"
        if kind not in types:
            return f"{kind} by {ent}: not allowed now (allowed: {', '.join(types)})"
        return f"{kind} by {ent}: not among the legal choices now"

    def explain_detail(self, action: dict) -> str | None:
        """Rule-specific reason (titles and mixins override)."""
        kind = action.get("type")
        if kind in ("buy_shares", "sell_shares", "par"):
            return self.explain_stock(action)
        if kind in ("lay_tile", "place_token", "buy_train", "dividend"):
            return self.explain_operating(action)
        return None

    def normalise(self, action: Any) -> dict:
        """Check an action's shape and fill derived fields (``corporation`` of a share)."""
        if not isinstance(action, dict):
            raise IllegalAction(f"an action must be a dict, got {type(action).__name__}")
        kind = action.get("type")
        if not isinstance(kind, str) or not kind:
            raise IllegalAction(f"action {action!r} has no 'type'")
        if "entity" not in action:
            raise IllegalAction(f"{kind}: action has no 'entity'")
        action = {k: v for k, v in action.items() if k not in ("id", "created_at")}
        if kind in ("buy_shares", "sell_shares") and action.get("shares"):
            cid = str(action["shares"][0])
            cert = self.shares.certs.get(cid)
            if cert is None:
                raise IllegalAction(f"{kind}: no share certificate {cid!r} in the game")
            action.setdefault("corporation", cert.corp)
            if kind == "buy_shares" and action["entity"] != cert.corp:
                action.setdefault("source", "treasury" if cert.owner == cert.corp else cert.owner)
                action.setdefault("percent", self.shares.share_percent[cert.corp])
            else:
                if kind == "buy_shares":
                    action.setdefault("source", cert.owner)  # a redemption
                action.setdefault("percent", sum(
                    self.shares.certs[c].percent for c in action["shares"]
                    if c in self.shares.certs
                ))  # fmt: skip
        if kind == "lay_tile" and isinstance(action.get("tile"), str) and "-" in action["tile"]:
            action["tile_id"] = action["tile"]  # 18xx.games names the physical copy
            action["tile"] = action["tile"].split("-")[0]
        return action

    def apply(self, action: dict) -> None:
        """Apply one action.

        Raises
        ------
        IllegalAction
            The action breaks a rule (the message names it); the game is unchanged.
        """
        if self.finished:
            raise IllegalAction(f"the game is over ({self.end_reason})")
        action = self.normalise(action)
        if self._legal_cache is None or self._legal_cache[0] != self._version:
            self._legal_cache = (self._version, self._compute_legal())
        chosen = self._match(action)
        for detail in self.DETAIL_FIELDS:
            if detail in action:
                chosen[detail] = action[detail]
        self.check_details(chosen)
        if chosen["type"] == "run_routes" and "routes" in chosen:
            self.check_routes(chosen)  # declared routes: scored before anything changes
        done = len(self.actions)
        try:
            self.process(chosen)
            self.actions.append(chosen)
            self._version += 1
            self.after_action(chosen)
            self._advance()
        except Exception:
            self._restore(done)
            raise

    def check_details(self, action: dict) -> None:
        """Check the detail fields an action brought (``shares`` certificate ids); raise
        :class:`IllegalAction` before anything changes."""
        if "shares" not in action:
            return
        kind, ent = action["type"], action["entity"]
        corp = action.get("corporation")
        try:
            if kind == "buy_shares" and ent in self.seats:
                source = action.get("source")
                holder = corp if source == "treasury" else source
                cert = self.shares.certs.get(action["shares"][0]) if action["shares"] else None
                self.shares.check_ids(
                    action["shares"], corp, holder, action["percent"],
                    president_ok=bool(cert and cert.president and self.shares.president(corp)
                                      is None),
                )  # fmt: skip
            elif kind == "buy_shares":
                self.shares.check_ids(action["shares"], corp, POOL, action["percent"])
            elif kind == "sell_shares":
                holder = corp if ent == corp else ent
                self.shares.check_ids(
                    action["shares"], corp, holder, action["percent"], president_ok=ent != corp
                )
        except (ValueError, TypeError, KeyError) as exc:
            raise IllegalAction(f"{kind} by {ent}: {exc}") from None

    def _restore(self, count: int) -> None:
        """Rebuild the game from the first ``count`` actions (a failed apply)."""
        fresh = type(self)(self.seats, self.seed, self.options, self.actions[:count])
        self.__dict__.update(fresh.__dict__)

    def process(self, action: dict) -> None:
        """Carry out a legal action (dispatch on its type and the round)."""
        kind = action["type"]
        handler = getattr(self, f"{self.round.kind}_{kind}", None) or getattr(
            self, f"do_{kind}", None
        )
        if handler is None:
            raise IllegalAction(f"{action['type']}: no handler in {type(self).__name__}")
        handler(action)

    def after_action(self, action: dict) -> None:
        """Closures and immediate game-end checks after every action."""
        self.check_game_end()

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Run automatic steps until a decision is needed or the game ends."""
        for _ in range(100_000):
            if self.finished:
                return
            if self.round_finished():
                # a condition met by an automatic step (private revenue breaking the bank)
                # counts at the round's end, as 18xx.games checks in next_round!
                self.check_game_end()
                if self.finished:
                    return
                self.next_round()
                continue
            legal = self._compute_legal()
            self._version += 1
            if not legal:
                self.skip()
                continue
            if len(legal) == 1 and legal[0]["type"] == "pass":
                # a lone pass is no choice: the engine takes it (18xx.games skips the step,
                # or records the pass: engine.games.records matches those to this list)
                self.__dict__.setdefault("auto_passes", []).append(legal[0]["entity"])
                self.process(legal[0])
                continue
            self._legal_cache = (self._version, legal)
            return
        raise RuntimeError("the game does not advance (automatic steps loop)")

    def round_finished(self) -> bool:
        if self.round.kind == "stock":
            return self.stock_round_finished()
        if self.round.kind == "operating":
            return self.operating_round_finished()
        return self.other_round_finished()

    def other_round_finished(self) -> bool:
        raise NotImplementedError

    def skip(self) -> None:
        """Nothing to decide for the current entity: move on."""
        if self.round.kind == "stock":
            self.skip_stock()
        elif self.round.kind == "operating":
            self.skip_operating()
        else:
            raise RuntimeError(f"no legal action in the {self.round.kind} round")

    def next_round(self) -> None:
        """``base.rb`` ``next_round!``: stock → operating rounds → stock (turn + 1)."""
        kind = self.round.kind
        if kind == "operating":
            self.end_operating_round()
            if self.finished:
                return
            if self.round.num < self.round.data["of"]:
                self.start_operating_round(self.round.num + 1)
                return
            self.turn += 1
            if self.end_trigger is not None and (
                self.end_trigger[1] in ("full_or", "current_or")
                or self.__dict__.get("final_turn") == self.turn - 1  # one_more_full_or_set
            ):
                return self.end_game(self.end_trigger[0])
            if self.turn > self.MAX_TURNS:
                return self.end_game("dnf")
            self.start_stock_round()
            return
        if kind == "stock":
            self.end_stock_round()
            self.start_operating_round(1)
            return
        self.end_other_round()

    def end_other_round(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ game end
    def end_checks(self) -> dict[str, bool]:
        """Which game-end conditions hold now (``game_end_check_<reason>?``)."""
        return {
            "bankrupt": len(self.bankrupt) >= len(self.seats) - 1,
            "bank": self.bank_broken,
        }

    def check_game_end(self) -> None:
        """Record a trigger; end at once for ``immediate`` ones (``game_end_check``)."""
        if self.finished:
            return
        order = ("immediate", "current_round", "current_or", "full_or", "one_more_full_or_set")
        for reason, holds in self.end_checks().items():
            if not holds or reason not in self.GAME_END:
                continue
            timing = self.GAME_END[reason]
            if self.end_trigger is None or order.index(timing) < order.index(self.end_trigger[1]):
                self.end_trigger = (reason, timing)
        if self.end_trigger is not None and self.end_trigger[1] == "one_more_full_or_set":
            # game_end_set_final_turn!: the OR set of the next turn is the last
            self.__dict__.setdefault("final_turn", self.turn + 1)
        if self.end_trigger is not None and self.end_trigger[1] == "immediate":
            self.end_game(self.end_trigger[0])

    def end_game(self, reason: str) -> None:
        self.finished = True
        self.end_reason = reason
        self.or_turn = None
        scores = ", ".join(f"{p} {v}" for p, v in self.result().items())
        self.note(f"game over ({reason}): {scores}")

    def result(self) -> dict[str, int]:
        """Final (or current) value of every player, highest first (``base.rb`` ``result``)."""
        values = [(p, self.player_value(p)) for p in self.seats]
        values.sort(key=lambda pv: -pv[1])
        return dict(values)

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict:
        """The save: title, players, seed, options and the action log."""
        return {
            "title": self.TITLE,
            "players": list(self.seats),
            "seed": self.seed,
            "options": list(self.options),
            "actions": [dict(a) for a in self.actions],
        }

    def save(self) -> str:
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)

    def copy(self) -> BaseGame:
        """An independent game in the same state (replays the log)."""
        return type(self)(self.seats, self.seed, self.options, self.actions)
