"""1862 USA/Canada (Ohley) rules engine: share price index, train cards, board-state hooks.

Facts come from the seed rulebook (``shared/seeds/1862-usa-canada-ohley-rules.txt``) through
:mod:`.economy_data`; where the rulebook is silent the source is named.

- :class:`Market1862`: the 2-D share price index with stacked markers (§Share Price
  Movement: right on a dividend, else left, up/down when the row ends; §Share Price
  Changes: one row down per sale; §Share Value Changes: one row up when sold out; a
  marker moving onto an occupied square goes underneath) and the operating order
  (§Sequence within Operating Round: highest price, the uppermost marker of a square,
  then the square further right).
- :data:`GAME_TRAINS`: the 42 train cards as separate cards (§Preparation / Miscellaneous:
  "sort the other train cards from type 3 to type 10E"), E-trains with their own cards,
  available once the first train of their series was bought (§Purchasing Trains); 4
  scraps 2, 6 scraps 3, 8 scraps 4 (§Effects of Purchasing New Trains).  Prices and counts
  are :data:`.economy_data.TRAINS` (partly assumed there, see its docstring).
- :data:`GAME_DATA`: the title data with :data:`GAME_TRAINS` as its train manifest (the
  route side keeps :mod:`.data`, where the E-trains are variants of their series).
- :class:`State1862`: blank station markers (§Share Price 0 and §Bankruptcy: a closed
  company's markers stay on the map, turned over, and only block their slot) kept as
  reservations named ``blank:SYM`` so they follow their city through upgrades, and the home
  city of a company whose two-city hex was merged by a brown tile.
"""

from __future__ import annotations

from types import SimpleNamespace

from engine.game.base import BoardState
from engine.game.market import StockGrid
from engine.games.g1862 import data
from engine.games.g1862 import economy as eco
from engine.games.g1862 import economy_data as ed

__all__ = [
    "Market1862",
    "GAME_TRAINS",
    "GAME_DATA",
    "State1862",
    "BLANK",
    "CANADA_HEXES",
    "CANADIAN_HOMES",
]

#: Prefix of the reservation that stands for a blank (turned-over) station marker.
BLANK = "blank:"

#: City and town hexes in Canada (the rulebook has no map; named by LOCATION_NAMES:
#: Vancouver, Victoria, Calgary, Regina, Winnipeg, Thunder Bay, Toronto, Ottawa, Quebec,
#: Montreal, Labrador).  §Placing Station Markers: a marker across the US/Canadian border
#: costs 1.5 times as much; "across" is read as "in the other country than the home".
CANADA_HEXES = frozenset({"B2", "C1", "A7", "B10", "B14", "B20", "E25", "D26", "C29", "D28",
                          "A29"})  # fmt: skip
#: Companies whose home lies in Canada (CP: Montreal, CN: Winnipeg).
CANADIAN_HOMES = frozenset(c["sym"] for c in data.CORPORATIONS if c["coordinates"] in CANADA_HEXES)


class Market1862(StockGrid):
    """Markers on the share price index (:data:`.economy_data.MARKET`), stacked per square.

    The squares, the moves (right, else up at a row's end; left, else down at a row's
    start; a move onto a missing square does not happen), the stacks (arrivals go
    underneath) and the operating order (highest price, then the square further right,
    then the uppermost marker; no two squares of a column share a price) are
    :class:`~engine.game.market.StockGrid`'s.
    """

    def __init__(self) -> None:
        super().__init__(ed.MARKET)

    def par_at(self, corp: str, price: int) -> None:
        """Place ``corp``'s marker on the par square of ``price`` (underneath others)."""
        if self.has_price(corp):
            raise ValueError(f"{corp} already has a market marker")
        self.set_par(corp, *eco.par_position(price))

    def right(self, corp: str) -> None:
        self.move(corp, "right")

    def left(self, corp: str) -> None:
        self.move(corp, "left")

    def up(self, corp: str) -> None:
        self.move(corp, "up")

    def down(self, corp: str) -> None:
        self.move(corp, "down")

    def at_close(self, corp: str) -> bool:
        return self.has_price(corp) and self.current(corp).close


def _train_specs() -> list[dict]:
    rusts = {old: new for new, old in ed.SCRAPS.items()}
    out = []
    for name in ed.TRAIN_SERIES:
        spec = {"name": name, "distance": int(name), "price": ed.TRAINS[name]["price"],
                "num": ed.TRAINS[name]["count"]}  # fmt: skip
        if name in rusts:
            spec["rusts_on"] = rusts[name]
        out.append(spec)
    for name, series in ed.E_TRAINS.items():
        rows = [{"nodes": ["city", "offboard", "town"], "pay": int(series), "visit": 99}]
        out.append({"name": name, "distance": rows, "price": ed.TRAINS[name]["price"],
                    "num": ed.TRAINS[name]["count"], "available_on": series})  # fmt: skip
    return out


#: Train cards of the game (the route side's :data:`.data.TRAINS` knows the same names).
GAME_TRAINS: list[dict] = _train_specs()

#: :mod:`.data` with :data:`GAME_TRAINS` as the train manifest.
GAME_DATA = SimpleNamespace(
    **{**{k: getattr(data, k) for k in dir(data) if k.isupper()}, "TRAINS": GAME_TRAINS}
)


class State1862(BoardState):
    """The board state with blank station markers and merged home cities."""

    def _reservation_active(self, sym: str) -> bool:
        if sym.startswith(BLANK):
            return True
        return super()._reservation_active(sym)

    def blanks(self) -> list[tuple[str, int, str]]:
        """(hex, city, company) of every blank station marker."""
        return [(h, c, s[len(BLANK):]) for (h, c), syms in self.reservations.items()
                for s in syms if s.startswith(BLANK)]  # fmt: skip

    def turn_blank(self, sym: str) -> None:
        """``sym`` leaves the game: its markers on the map turn blank (they keep blocking)."""
        for (hex_, city), syms in list(self.tokens.items()):
            if sym in syms:
                self.reservations.setdefault((hex_, city), []).append(BLANK + sym)
        self.changed()  # the walk and the routes see the board anew

    def home_city(self, sym: str) -> tuple[str, int] | None:
        where = super().home_city(sym)
        if where is None:
            return None
        hex_, city = where
        # an upgrade of New York / Sacramento may renumber or merge the two stations; the
        # home reservation moved with its city (GameState.lay_tile)
        for (h, c), syms in self.reservations.items():
            if h == hex_ and sym in syms:
                return h, c
        return where if city < len(self.board.tile(hex_).cities) else (hex_, 0)
