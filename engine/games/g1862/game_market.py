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


def _moves() -> dict[str, dict[tuple[int, int], tuple[int, int]]]:
    """Every square's neighbour for each move (the rules of :class:`.economy.Market`),
    computed once: markers move thousands of times a game."""
    grid = eco.MARKET
    squares = [(sq.row, sq.col) for row in grid.squares for sq in row if sq is not None]
    return {name: {pos: getattr(grid, name)(pos) for pos in squares}
            for name in ("right", "left", "up", "down")}  # fmt: skip


_MOVES = _moves()
_PRICE = {(sq.row, sq.col): sq.price for row in eco.MARKET.squares for sq in row if sq}
_CLOSED = {(sq.row, sq.col) for row in eco.MARKET.squares for sq in row if sq and sq.closed}


class Market1862:
    """Markers on the share price index (:data:`.economy.MARKET`), stacked per square."""

    def __init__(self) -> None:
        self.pos: dict[str, tuple[int, int]] = {}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self.par_price: dict[str, int] = {}

    def par(self, corp: str, price: int) -> None:
        """Place ``corp``'s marker on the par square of ``price`` (underneath others)."""
        if corp in self.pos:
            raise ValueError(f"{corp} already has a market marker")
        self.par_price[corp] = price
        self._place(corp, eco.par_position(price))

    def _place(self, corp: str, pos: tuple[int, int]) -> None:
        self.pos[corp] = pos
        self.stacks.setdefault(pos, []).append(corp)  # arrivals go underneath

    def _move(self, corp: str, move: str) -> None:
        old = self.pos[corp]
        new = _MOVES[move][old]
        if new == old:
            return
        self.stacks[old].remove(corp)
        self._place(corp, new)

    def price(self, corp: str) -> int:
        return _PRICE[self.pos[corp]]

    def right(self, corp: str) -> None:
        self._move(corp, "right")

    def left(self, corp: str) -> None:
        self._move(corp, "left")

    def up(self, corp: str) -> None:
        self._move(corp, "up")

    def down(self, corp: str) -> None:
        self._move(corp, "down")

    def at_close(self, corp: str) -> bool:
        return self.pos.get(corp) in _CLOSED

    def remove(self, corp: str) -> None:
        pos = self.pos.pop(corp, None)
        if pos is not None:
            self.stacks[pos].remove(corp)

    def operating_order(self, corps) -> list[str]:
        """Highest price first; on one square the uppermost; equal prices: further right."""

        def key(corp: str) -> tuple[int, int, int]:
            pos = self.pos[corp]
            return (-_PRICE[pos], -pos[1], self.stacks[pos].index(corp))

        return sorted(corps, key=key)


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
