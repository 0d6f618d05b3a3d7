"""Title rules for replaying 18xx.games records: 1846 (and its 2-player variant), 1836Jr-30
and 1836Jr-56.

Each class implements the :class:`~engine.game.state.TitleRules` hooks with the facts of
tobymao/18xx @111f7f69 (MIT):

- 1846 (``g_1846/game.rb``): random removal of privates and corporations at setup (the
  game's own linear congruential generator), removed corporations' home tokens (and, with two
  players, a second token, ``REMOVED_CORP_SECOND_TOKEN``), the two minors with a 2-train and a
  home token, home tokens when a corporation floats, minors absorbed on purchase, Meat
  Packing / Steamboat / Boomtown assignments, events ``close_companies`` (minors close, a
  player-owned Steamboat loses its assignments), ``remove_bonuses``, ``remove_reservations``,
  obsolete trains that rust in their owner's next dividend step, and closure at the ``0c``
  share price (:mod:`engine.replay_market`); the money of :mod:`engine.money_1846`.  That
  class is in :mod:`engine.rules_1846`.
- 1836Jr-30 (1830 rules): home tokens when a corporation first operates, ``close_companies``.
- 1836Jr-56 (1856 rules): as 1836Jr-30 plus the Régie des Postes marker (removed by the
  first 6-train), nationalization (``merge``: trains and station tokens go to MESS) and
  borrowed trains (returned to the discard pile after the run).
"""

from __future__ import annotations

from typing import Any

from engine.game.state import DEPOT, GameState, TitleRules, TrainCard
from engine.model.position import Assignment
from engine.model.record import Record, ReplayError

__all__ = ["Rules1836Jr30", "Rules1836Jr56", "rules_for", "lcg_draws"]  # Rules1846: rules_1846

#: 18xx.games' random numbers (base.rb ``rand``): a linear congruential generator.
RAND_A, RAND_C, RAND_M = 1_103_515_245, 12_345, 2**31

#: Action types with no effect on the board or the revenue rules.
NO_BOARD_EFFECT = frozenset(
    {
        "message", "log", "pass", "bid", "buy_shares", "sell_shares", "program_buy_shares",
        "program_share_pass", "program_disable", "program_independent_mines",
        "program_merger_pass", "program_harzbahn_draft_pass", "end_game", "take_loan",
        "payoff_loan", "choose", "destination_connection", "undo", "redo", "par", "dividend",
    }
)  # fmt: skip


def lcg_draws(seed: int):
    """The generator 18xx.games seeds with the game's seed (``base.rb`` ``rand``)."""
    value = seed % RAND_M
    while True:
        value = (RAND_A * value + RAND_C) % RAND_M
        yield value


class _Common(TitleRules):
    """Company ownership, assignments and the actions every title shares."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.assign_hex: dict[str, str] = {}
        self.assign_corp: dict[str, str] = {}
        self.operator_turn: str | None = None
        self.borrowed: dict[str, str] = {}

    # ------------------------------------------------------------------ helpers
    def company_closes(self, state: GameState, sym: str) -> None:
        if sym in state.companies:
            state.companies[sym]["closed"] = True

    def close_companies_event(self, state: GameState) -> None:
        """``base.rb`` ``event_close_companies!``: every private closes unless it has a
        ``close`` ability that never fires for its current kind of owner."""
        for info in state.companies.values():
            keep = False
            for ab in info["spec"].get("abilities", []) or []:
                if ab.get("type") != "close" or ab.get("on_phase") != "never":
                    continue
                owner_type = ab.get("owner_type")
                owner = info["owner"]
                if owner_type is None or (owner_type == "corporation" and owner in state.operators):
                    keep = True
            if not keep:
                info["closed"] = True

    def company_owner_operator(self, state: GameState, company: str) -> str | None:
        owner = state.owner_of_company(company)
        return owner if owner in state.operators else None

    def acting_operator(self, state: GameState, action: dict) -> str | None:
        """The corporation or minor whose operating turn ``action`` belongs to."""
        kind, ent = action.get("entity_type"), action.get("entity")
        if kind in ("corporation", "minor") and action["type"] not in ("discard_train", "merge"):
            return ent
        if kind == "company" and action["type"] in ("lay_tile", "place_token"):
            return self.company_owner_operator(state, ent)
        return None

    def token_owner(self, state: GameState, action: dict) -> str:
        """Who a ``place_token`` puts down: the entity, or a company's owning corporation."""
        if action.get("entity_type") == "company":
            owner = action.get("tokener") or self.company_owner_operator(state, action["entity"])
            if owner is None:
                raise ReplayError(f"{state.where(action)}: company without an owning corporation")
            return owner
        return action.get("tokener") or action["entity"]

    def begin_turn(self, state: GameState, sym: str) -> None:
        op = state.operators.get(sym)
        if op is not None and self.home_token_timing == "operate" and not op.operated:
            state.place_home(sym)
        if op is not None:
            op.operated = True

    def end_turn(self, state: GameState, sym: str) -> None:
        if sym in self.borrowed:
            card = state.trains[self.borrowed.pop(sym)]
            if card.owner == sym:
                card.owner = DEPOT
                state.discarded.append(card.id)

    # ------------------------------------------------------------------ hooks
    def before_action(self, state: GameState, action: dict) -> None:
        sym = self.acting_operator(state, action)
        if sym is not None and sym != self.operator_turn:
            if self.operator_turn is not None:
                self.end_turn(state, self.operator_turn)
            self.operator_turn = sym
            self.begin_turn(state, sym)

    def handle(self, state: GameState, action: dict) -> bool:
        kind = action["type"]
        ent = action.get("entity")
        if kind == "buy_company":
            company = action["company"]
            if company in state.companies:
                state.companies[company]["owner"] = ent
                self.company_sold(state, company, ent)
            return True
        if kind == "bid":
            company = action.get("company")
            if company in state.companies and state.companies[company]["owner"] is None:
                self.company_bid(state, company, ent)
            return True
        if kind == "assign":
            self.assign(state, action)
            return True
        return False

    def company_bid(self, state: GameState, company: str, player: Any) -> None:
        """A bid; auctions (1830 style) settle later, so only 1846 drafts take ownership."""

    def company_sold(self, state: GameState, company: str, corp: str) -> None:
        spec = state.companies[company]["spec"]
        for ab in spec.get("abilities", []) or []:
            if ab.get("type") == "assign_corporation" and ab.get("when") == "sold":
                self.assign_corp[company] = corp

    def assign(self, state: GameState, action: dict) -> None:
        company, target = action["entity"], action["target"]
        if action.get("target_type") == "hex":
            self.assign_hex[company] = target
        else:
            self.assign_corp[company] = target

    def event(self, state: GameState, name: str, train: TrainCard) -> None:
        if name == "close_companies":
            self.close_companies_event(state)


class Rules1836Jr30(_Common):
    """1836Jr-30: 1830 rules on the Low Countries map.

    Money, shares and the market are replayed by :mod:`engine.money_1836jr` (``money``)."""

    home_token_timing = "operate"

    def setup(self, state: GameState) -> None:
        from engine.money_1836jr import Finance1830

        self.money = Finance1830(state)

    def before_action(self, state: GameState, action: dict) -> None:
        super().before_action(state, action)
        self.money.before(state, action)

    def after_action(self, state: GameState, action: dict) -> None:
        super().after_action(state, action)
        self.money.after(state, action)

    def on_run(self, state: GameState, sym: str, revenue: int | None) -> None:
        self.money.run(state, sym, revenue)

    def final_result(self, state: GameState):
        """Each player's value and the game-end reason (:mod:`engine.replay_result`)."""
        return self.money.final_result(state)

    def event(self, state: GameState, name: str, train: TrainCard) -> None:
        super().event(state, name, train)
        self.money.event(state, name, train)

    def handle(self, state: GameState, action: dict) -> bool:
        if action["type"] == "par":
            state.operator(action["corporation"]).floated = True
            return True
        if action["type"] == "bankrupt":
            return True  # the game ends (1830: BANKRUPTCY_ENDS_GAME_AFTER = :one)
        return super().handle(state, action)


class Rules1836Jr56(Rules1836Jr30):
    """1836Jr-56: 1856 rules (Régie des Postes, nationalization into MESS, borrowed trains)."""

    NATIONAL = "MESS"

    def setup(self, state: GameState) -> None:
        from engine.money_1856 import Finance1856

        self.money = Finance1856(state)

    def handle(self, state: GameState, action: dict) -> bool:
        kind = action["type"]
        if kind == "merge":
            self._merge(state, action["corporation"])
            return True
        if kind == "borrow_train":
            sym, ident = action["entity"], action["train"]
            card = state.trains.get(ident)
            if card is None or card.owner != DEPOT:
                raise ReplayError(f"{state.where(action)}: train {ident} is not in the depot")
            state._take(card)
            card.owner = sym  # game.rb borrow_train: no purchase, so no phase change or rust
            self.borrowed[sym] = ident
            return True
        return super().handle(state, action)

    def assign(self, state: GameState, action: dict) -> None:
        super().assign(state, action)
        if action.get("target_type") == "hex":
            self.company_closes(state, action["entity"])  # the marker is its only use

    def event(self, state: GameState, name: str, train: TrainCard) -> None:
        if name == "remove_tokens":
            self.assign_hex.clear()
            self.assign_corp.clear()
        else:
            super().event(state, name, train)

    def train_limit(self, state: GameState, sym: str) -> int:
        extra = 99 if sym == self.NATIONAL else 0  # MESS: train_limit increase 99
        return int(state.phase.get("train_limit", 99)) + extra

    def _merge(self, state: GameState, major: str) -> None:
        """``g_1856/game.rb`` ``merge_major`` and ``national_token_swap``: trains go to MESS;
        the home token, then the others, become MESS tokens (one per city)."""
        national = self.NATIONAL
        for card in state.trains_of(major):
            card.owner = national
        op = state.operator(major)
        home = op.home[0] if op.home else None
        keys = sorted(state.tokens_of(major), key=lambda k: k[0] != home)
        for key in keys:
            syms = state.tokens[key]
            i = syms.index(major)
            if national in syms or any(
                national in state.tokens.get((key[0], c), []) for c in range(4) if c != key[1]
            ):
                syms.pop(i)
                state.notes.append(
                    f"{major}'s token in {key[0]} city {key[1]} dropped: MESS already has one "
                    "in that hex"
                )
            else:
                syms[i] = national
            if not syms:
                del state.tokens[key]
        state.operator(national).home_placed = True
        state.close_operator(major)

    def assignments(self, state: GameState) -> list[Assignment]:
        out = []
        hex_, corp = self.assign_hex.get("RdP"), self.assign_corp.get("RdP")
        if hex_ and corp and not state.operators[corp].closed:
            out.append(Assignment(hex_, "RdP", corp))
        return out


def _corp_of_share(action: dict) -> str | None:
    shares = action.get("shares") or []
    if not shares:
        return None
    return str(shares[0]).rsplit("_", 1)[0]


def __getattr__(name: str):
    # Rules1846 lives in engine/rules_1846.py (it builds on _Common here)
    if name == "Rules1846":
        from engine.rules_1846 import Rules1846

        return Rules1846
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def rules_for(record: Record) -> TitleRules:
    """The :class:`TitleRules` of a record's title."""
    from engine.rules_1846 import Rules1846

    table = {"1846": Rules1846, "1836Jr30": Rules1836Jr30, "1836Jr56": Rules1836Jr56}
    try:
        return table[record.title_id](record)
    except KeyError:
        raise ReplayError(f"no replay rules for title {record.title_id!r}") from None
