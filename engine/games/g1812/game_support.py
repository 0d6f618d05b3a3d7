"""Support for the 1812 rules engine: the per-game data view, the train
supply and the checks that hold in every reachable 1812 state.

- :class:`DataView` is the title data as this game sees it: station markers per public
  company by player number (§14.1: 4/4/3) and train cards as minted so far.  2/1G, 5/4+2G
  and 3D/2+2GD trains are unlimited (§2.4, §2.5, §7.3.8): a fresh card is minted whenever
  one is bought from the Bank, so the generic manifest check sees every card that exists;
  :func:`check_1812` checks the rulebook's own counts (§14.1: 3/2G and 4/3+2G by player
  number; 3+1/2+1G exactly as many as the unsold 3/2G they replaced, §7.3.8).
- :func:`check_1812` adds the 1812 invariants to :func:`engine.game.invariants`: minors
  (one owner, one marker, a price of at most £150), loans (limits 2/5, except what a merger
  or take-over carried in, §8.3, §8.5), holdings above 60% only from exchanges (§4.1,
  §8.5), public companies in play within the limit (§1.4.3), and the train counts above.
"""

from __future__ import annotations

from collections import Counter

from engine.game.invariants import InvariantError
from engine.games.g1812 import data
from engine.games.g1812 import economy_data as ed

__all__ = ["DataView", "TRAIN_ORDER", "UNLIMITED", "check_1812"]

#: Train cards in sale order (§2, §7.3.8).
TRAIN_ORDER = tuple(t["name"] for t in data.TRAINS)
#: Trains "not limited by the components supplied with the game" (§7.3.8).
UNLIMITED = ("2", "5", "3D")


class DataView:
    """The 1812 data module with this game's station markers and train cards (see the
    module docstring); every other attribute is the module's."""

    def __init__(self, n_players: int) -> None:
        markers = ed.PUBLIC_STATION_MARKERS[n_players]
        self.CORPORATIONS = [dict(c, tokens=[0] * markers) for c in data.CORPORATIONS]
        self.TRAINS = [dict(t, num=0) for t in data.TRAINS]
        self._num = {t["name"]: t for t in self.TRAINS}

    def set_count(self, name: str, count: int) -> None:
        self._num[name]["num"] = count

    def __getattr__(self, name: str):
        return getattr(data, name)


def _fail(game, text: str) -> None:
    raise InvariantError(f"after action {len(game.actions)}: {text}")


def check_1812(game) -> None:
    """Raise :class:`InvariantError` naming the first broken 1812 invariant of ``game``."""
    _check_trains(game)
    _check_minors(game)
    _check_publics(game)


def _check_trains(game) -> None:
    n = len(game.seats)
    have = Counter(card.sym for card in game.state.trains.values())
    for name in ("3", "4"):
        spec = next(t for t in data.TRAINS if t["name"] == name)
        want = spec["num"][n]
        if have[name] != want:
            _fail(game, f"{have[name]} {name}-train cards, §14.1 has {want} for {n} players")
    if have["3+1"] != game.converted_threes:
        _fail(game, f"{have['3+1']} 3+1 cards for {game.converted_threes} replaced 3s")
    for ident in game.state.depot:
        card = game.state.trains[ident]
        if card.sym in game.retired_trains:
            _fail(game, f"retired {card.sym}-train {ident} still for sale")
    for sym, op in game.state.operators.items():
        if op.closed or (op.kind == "minor" and sym not in game.minor_owner):
            continue
        kind = "minor" if op.kind == "minor" else "public"
        trains = [t for t in game.state.trains_of(sym) if not t.obsolete]
        if kind == "minor" and game.state.phase_name in ("5", "6") and trains:
            pending = game.round.kind in ("operating", "merger") and game.pending_discards()
            if not pending:
                _fail(game, f"minor {sym} owns a train in phase {game.state.phase_name}")


def _check_minors(game) -> None:
    players = set(game.seats)
    for m in data.MINORS:
        sym = m["sym"]
        op = game.state.operators[sym]
        owner = game.minor_owner.get(sym)
        if owner is not None:
            if op.closed:
                _fail(game, f"closed minor {sym} still has an owner")
            if owner not in players:
                _fail(game, f"minor {sym} owned by {owner!r}")
            if not game.market.has(sym):
                _fail(game, f"running minor {sym} has no stock marker")
            if game.market.price(sym) > ed.MINOR_MAX_PRICE:
                _fail(game, f"minor {sym} priced above £{ed.MINOR_MAX_PRICE}")
            if game.loans.get(sym, 0) > ed.LOAN_LIMIT["minor"]:
                _fail(game, f"minor {sym} has {game.loans[sym]} loans")
        else:
            if game.market.has(sym):
                _fail(game, f"minor {sym} without an owner has a stock marker")
            if game.state.tokens_of(sym):
                _fail(game, f"minor {sym} without an owner has a station marker")
            if game.loans.get(sym, 0):
                _fail(game, f"minor {sym} without an owner has loans")


def _check_publics(game) -> None:
    live = game.live_corporations()
    limit = ed.PUBLIC_COMPANIES_IN_PLAY[len(game.seats)]
    if len(live) > limit:
        _fail(game, f"{len(live)} public companies in play, the limit is {limit}")
    for corp in live:
        if not game.market.has(corp):
            _fail(game, f"public {corp} has no stock marker")
        for p in game.seats:
            pct = game.shares.percent(corp, p)
            if pct > ed.MAX_BUY_PERCENT and pct > game.exchange_cap.get((p, corp), 0):
                _fail(game, f"{p} holds {pct}% of {corp}, above 60% without an exchange")
        if game.loans.get(corp, 0) > max(ed.LOAN_LIMIT["public"], game.loan_cap.get(corp, 0)):
            _fail(game, f"{corp} has {game.loans[corp]} loans")
    for sym, op in game.state.operators.items():
        idle = op.kind == "corporation" and sym not in live
        if idle and (game.market.has(sym) or game.loans.get(sym, 0)):
            _fail(game, f"public {sym} is not in play but has a marker or loans")
